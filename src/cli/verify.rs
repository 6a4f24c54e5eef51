//! `fabric verify`: the switches' live state against the fabric, read over SSH with `show`
//! commands only (the reading and checking is [`crate::fleet::verify`]'s); its arguments and
//! its output formats.

use std::path::PathBuf;
use std::time::Duration;

use clap::ValueEnum;

use crate::error::{Failure, exit};
use crate::fleet::verify::{Counting, Verified, families, hosts, verify, watch};
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
    /// Also read RoCE health from counters (`--check counters` with the others): each
    /// switch's pause frames per priority, ECN marks, drops per traffic class, FCS errors,
    /// flaps and PFC watchdog, read twice `--interval` apart in one session; the rates judged
    /// against the fabric's `verify:` thresholds.
    #[arg(long)]
    counters: bool,
    /// Time between two readings of the counters: `30s` (default), `2m`, `500ms`.
    #[arg(long, value_name = "TIME", default_value = "30s", value_parser = interval)]
    interval: Duration,
    /// With `--counters`: read the counters again every interval, in sessions kept open, and
    /// show each port's rates since the reading before, worst first, until interrupted.
    #[arg(long, requires = "counters")]
    watch: bool,
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
    /// Prometheus' text exposition format: the counters' readings and the findings per
    /// check (for node_exporter's textfile collector).
    Prometheus,
}

/// A time between readings: a number and its unit (`ms`, `s`, `m`), seconds without one;
/// at least 100 ms, at most a day.
pub(crate) fn interval(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(digits);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("`{text}` is not a time: write `30s`, `2m` or `500ms`"))?;
    let d = match unit {
        "ms" => Duration::from_millis(n),
        "" | "s" => Duration::from_secs(n),
        "m" => Duration::from_secs(n.saturating_mul(60)),
        _ => return Err(format!("`{text}`: the unit is `ms`, `s` or `m`")),
    };
    if d < Duration::from_millis(100) || d > Duration::from_secs(86_400) {
        return Err(format!("`{text}`: between 100ms and 24 hours"));
    }
    Ok(d)
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
    if args.counters {
        families.insert(Family::Counters);
    }
    let counting = Counting {
        interval: args.interval,
    };
    if args.watch {
        return Ok(watching(args, &fabric, &targets, &reach.options, counting));
    }
    if families.contains(&Family::Counters) && args.format == Format::Text {
        errln!(
            "reading the counters twice, {} apart…",
            humane(args.interval)
        );
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
        counting,
    );
    out!("{}", render(&verified, args.format));
    Ok(verified.code())
}

/// `--watch`: each interval's table (on a terminal, the screen redrawn; else one table after
/// another, or in the format asked for), until interrupted or every session has ended; the
/// last round's exit code.
fn watching(
    args: &Args,
    fabric: &crate::fabric::Fabric,
    targets: &[crate::device::Target],
    options: &crate::device::Options,
    counting: Counting,
) -> u8 {
    use std::io::IsTerminal as _;
    let terminal = std::io::stdout().is_terminal() && args.format == Format::Text;
    let mut code = exit::OK;
    let mut round = 0u64;
    watch(
        fabric,
        targets,
        options,
        args.connect.parallel,
        counting,
        &mut |v| {
            round += 1;
            code = v.code();
            let r = v.report();
            let body = match args.format {
                Format::Text => {
                    let rows = if terminal { 40 } else { usize::MAX };
                    format!(
                        "round {round}: rates over the last {}\n{}",
                        humane(args.interval),
                        r.table(rows)
                    )
                }
                f => render(&v, f),
            };
            if terminal {
                // Clear the screen and go home, then the table.
                out!("\x1b[2J\x1b[H{body}");
            } else {
                out!("{body}\n");
            }
            true
        },
    );
    code
}

/// A time as `--interval` takes it back (`30s`, `1500ms`).
fn humane(d: Duration) -> String {
    match d.subsec_millis() {
        0 => format!("{}s", d.as_secs()),
        _ => format!("{}ms", d.as_millis()),
    }
}

/// The verification in the format asked for.
fn render(verified: &Verified, format: Format) -> String {
    let r = verified.report();
    match format {
        Format::Text => r.text(),
        Format::Json => r.json(),
        Format::Junit => r.junit(),
        Format::Prometheus => r.prometheus(),
    }
}
