//! `fabric verify`: the switches' live state against the fabric, read over SSH with `show`
//! commands only (the reading and checking is [`crate::fleet::verify`]'s); its arguments and
//! its output formats.

use std::path::PathBuf;
use std::time::Duration;

use clap::ValueEnum;

use crate::error::{Failure, exit};
use crate::fleet::verify::{Verified, families, hosts, verify};
use crate::verify::Family;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The fabric file: what the switches should be doing.
    fabric: PathBuf,
    /// Only these switches of the fabric (repeat for several).
    #[arg(long = "switch", value_name = "NAME")]
    switches: Vec<String>,
    /// Only these families of checks (repeat, or separate with commas); all by default.
    #[arg(
        long = "check",
        value_enum,
        value_delimiter = ',',
        value_name = "FAMILY"
    )]
    checks: Vec<Family>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Read the switches again, every 2 seconds, until nothing is found or this many seconds
    /// have passed (BGP sessions and MLAG take a while to come up after a change).
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    wait: u64,
    /// Verify simulated switches started in this process (state in `.fabric/lab`, as
    /// `fabric lab` and `fabric push --lab` keep it).
    #[arg(long, conflicts_with = "inventory")]
    lab: bool,
    /// Also prove the paths (`--check paths` with the others): DF pings of the hosts' MTU
    /// between every two host groups on different switches, from the hosts of a lab's data
    /// plane (`fabric lab --dataplane`'s inventory), and the ECMP next hops each leaf installs
    /// towards every other leaf's subnets.
    #[arg(long)]
    paths: bool,
    #[command(flatten)]
    connect: crate::fleet::Connect,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Switches with their counts, then each switch's findings.
    Text,
    /// Stable JSON.
    Json,
    /// JUnit XML, for CI dashboards.
    Junit,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let (fabrics, clean) = super::check_all(std::slice::from_ref(&args.fabric), false, color)?;
    let Some((_, fabric)) = fabrics.into_iter().next().filter(|_| clean) else {
        return Ok(exit::FAILURE);
    };
    let reach = super::fleet::reach(args.lab, false, &args.fabric, &fabric, &args.connect, color)?;
    let jobs = crate::fleet::jobs(
        &fabric,
        &args.switches,
        &reach.inventory,
        reach.ssh.as_ref(),
    )?;
    let targets: Vec<_> = jobs.into_iter().map(|j| j.target).collect();
    let mut families = families(&args.checks);
    if args.paths {
        families.insert(Family::Paths);
    }
    let hosts = hosts(&fabric, &reach.inventory, &args.connect, &families)?;
    let verified = verify(
        &fabric,
        &targets,
        &reach.options,
        args.connect.parallel,
        &families,
        Duration::from_secs(args.wait),
        &hosts,
    );
    out!("{}", render(&verified, args.format));
    Ok(verified.code())
}

/// The verification in the format asked for.
fn render(verified: &Verified, format: Format) -> String {
    let r = verified.report();
    match format {
        Format::Text => r.text(),
        Format::Json => r.json(),
        Format::Junit => r.junit(),
    }
}
