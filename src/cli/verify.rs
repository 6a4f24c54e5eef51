//! `fabric verify`: the switches' live state against the fabric, read over SSH with `show`
//! commands only, every switch at once; also what `fabric push --verify-state` runs after a
//! successful push.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::ValueEnum;

use crate::device::{Options, Target};
use crate::error::{Failure, exit};
use crate::fabric::Fabric;
use crate::verify::report::{Report, Unchecked, Unread};
use crate::verify::{self, Family, Input, Observed};

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
    #[command(flatten)]
    connect: super::push::Connect,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Switches with their counts, then each switch's findings.
    Text,
    /// Stable JSON.
    Json,
    /// JUnit XML, for CI dashboards.
    Junit,
}

/// The families asked for: all when none is named.
pub(crate) fn families(checks: &[Family]) -> BTreeSet<Family> {
    if checks.is_empty() {
        Family::ALL.into_iter().collect()
    } else {
        checks.iter().copied().collect()
    }
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let (fabrics, clean) = super::check_all(std::slice::from_ref(&args.fabric), false, color)?;
    let Some((_, fabric)) = fabrics.into_iter().next().filter(|_| clean) else {
        return Ok(exit::FAILURE);
    };
    let reach = super::push::reach(args.lab, &args.fabric, &fabric, &args.connect, color)?;
    let jobs = super::push::jobs(
        &fabric,
        &args.switches,
        &reach.inventory,
        reach.ssh.as_ref(),
    )?;
    let targets: Vec<Target> = jobs.into_iter().map(|j| j.target).collect();
    let verified = verify(
        &fabric,
        &targets,
        &reach.options,
        args.connect.parallel,
        &families(&args.checks),
        Duration::from_secs(args.wait),
    );
    out!("{}", verified.render(args.format));
    Ok(verified.code())
}

/// A verification's result.
pub(crate) struct Verified {
    switches: Vec<String>,
    families: BTreeSet<Family>,
    findings: Vec<crate::audit::Finding>,
    unread: Vec<Unread>,
    unchecked: Vec<Unchecked>,
}

impl Verified {
    fn report(&self) -> Report<'_> {
        Report {
            switches: &self.switches,
            families: &self.families,
            findings: &self.findings,
            unread: &self.unread,
            unchecked: &self.unchecked,
        }
    }

    pub fn render(&self, format: Format) -> String {
        let r = self.report();
        match format {
            Format::Text => r.text(),
            Format::Json => r.json(),
            Format::Junit => r.junit(),
        }
    }

    /// 2 when a reply could not be read (no verdict on it), else 1 on findings, else 0.
    pub fn code(&self) -> u8 {
        if !self.unread.is_empty() {
            exit::FAILURE
        } else if !self.findings.is_empty() {
            exit::FINDINGS
        } else {
            exit::OK
        }
    }
}

/// Reads the targets (switches of `fabric`) at once and checks what they report; with
/// `wait`, again until nothing is found or the time is up.
pub(crate) fn verify(
    fabric: &Fabric,
    targets: &[Target],
    opts: &Options,
    parallel: usize,
    families: &BTreeSet<Family>,
    wait: Duration,
) -> Verified {
    let deadline = Instant::now() + wait;
    loop {
        let v = once(fabric, targets, opts, parallel, families);
        let left = deadline.saturating_duration_since(Instant::now());
        if v.findings.is_empty() || !v.unread.is_empty() || left.is_zero() {
            return v;
        }
        std::thread::sleep(left.min(Duration::from_secs(2)));
    }
}

fn once(
    fabric: &Fabric,
    targets: &[Target],
    opts: &Options,
    parallel: usize,
    families: &BTreeSet<Family>,
) -> Verified {
    let plans: Vec<verify::Plan> = targets
        .iter()
        .map(|t| {
            fabric
                .switches
                .iter()
                .find(|(h, _)| h.as_str() == t.name)
                .map(|(_, sw)| verify::plan(sw, families))
                .unwrap_or_default()
        })
        .collect();
    let work: Vec<(&Target, &verify::Plan)> = targets.iter().zip(&plans).collect();
    let read = super::push::parallel(&work, parallel, |(t, p)| read_switch(t, p, opts));
    let mut observed = BTreeMap::new();
    let mut unread = Vec::new();
    let mut unchecked = Vec::new();
    for ((t, plan), (obs, errors)) in work.iter().zip(read) {
        observed.insert(t.name.clone(), obs);
        unread.extend(errors);
        unchecked.extend(plan.unchecked.iter().map(|what| Unchecked {
            switch: t.name.clone(),
            what: what.clone(),
        }));
    }
    let findings = verify::verify(&Input {
        fabric,
        families: families.clone(),
        observed,
    });
    Verified {
        switches: targets.iter().map(|t| t.name.clone()).collect(),
        families: families.clone(),
        findings,
        unread,
        unchecked,
    }
}

/// One switch's replies to its plan's commands, read; each reply that could not be, and
/// why. A session that ends leaves the rest unsent, each named.
fn read_switch(target: &Target, plan: &verify::Plan, opts: &Options) -> (Observed, Vec<Unread>) {
    let mut obs = Observed::default();
    let mut unread = Vec::new();
    let problem = |q: Option<&verify::Query>, problem: String| Unread {
        switch: target.name.clone(),
        command: q.map_or_else(|| "(connection)".into(), |q| q.command_on(plan.os)),
        problem,
        port: q.and_then(verify::Query::port),
    };
    if plan.queries.is_empty() {
        return (obs, unread);
    }
    let dialect = match plan.os {
        crate::fabric::Os::Onyx => &crate::device::dialect::ONYX,
        crate::fabric::Os::Os10 => &crate::device::dialect::OS10,
    };
    let mut cli = match crate::device::Cli::open_as(target, opts, dialect) {
        Ok(c) => c,
        Err(e) => {
            unread.push(problem(None, e.to_string()));
            return (obs, unread);
        }
    };
    let mut queries = plan.queries.iter();
    for q in queries.by_ref() {
        match cli.run(&q.command_on(plan.os)) {
            Ok(reply) => {
                if let Err(why) = obs.record_on(plan.os, q, &reply) {
                    unread.push(problem(Some(q), why));
                }
            }
            Err(crate::device::Error::Refused { reply, .. }) => {
                unread.push(problem(Some(q), format!("the switch answered `{reply}`")));
            }
            Err(e) => {
                unread.push(problem(Some(q), e.to_string()));
                break;
            }
        }
    }
    for q in queries {
        unread.push(problem(Some(q), "not sent: the session ended".into()));
    }
    cli.close();
    (obs, unread)
}
