//! `fabric verify`'s collection: the switches' live state read over SSH with `show` commands
//! only, every switch at once (again until nothing is found, with a wait), the hosts' path
//! probes, and the checks over what was read; what `fabric verify` prints and what
//! `fabric push --verify-state` runs after a successful push.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::connect::Connect;
use crate::device::{Options, Target};
use crate::error::{Failure, exit};
use crate::fabric::Fabric;
use crate::targets::{Ask, SwitchOs};
use crate::verify::report::{Report, Unchecked, Unread};
use crate::verify::{self, Family, Input, Observed, Query, counters};

/// The families asked for: all when none is named.
pub fn families(checks: &[Family]) -> BTreeSet<Family> {
    if checks.is_empty() {
        Family::ALL.into_iter().collect()
    } else {
        checks.iter().copied().collect()
    }
}

/// A verification's result.
pub struct Verified {
    switches: Vec<String>,
    families: BTreeSet<Family>,
    findings: Vec<crate::audit::Finding>,
    unread: Vec<Unread>,
    unchecked: Vec<Unchecked>,
    /// The counters' rates between the last two readings (`--counters`).
    rates: Vec<counters::Rate>,
}

impl Verified {
    /// The report to print, in any of its formats.
    pub fn report(&self) -> Report<'_> {
        Report {
            switches: &self.switches,
            families: &self.families,
            findings: &self.findings,
            unread: &self.unread,
            unchecked: &self.unchecked,
            rates: &self.rates,
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

/// The hosts the paths check probes from, and how to reach each.
#[derive(Default)]
pub struct Hosts {
    endpoints: Vec<verify::paths::Endpoint>,
    /// The SSH targets of hosts reached over SSH, by host, and the options to log in with.
    targets: BTreeMap<String, Target>,
    opts: Option<Options>,
    /// Why hosts of the fabric are not probed.
    unchecked: Vec<Unchecked>,
}

impl Hosts {
    /// Runs a shell command on a host: in its namespace of the lab, or over SSH.
    fn run(&self, e: &verify::paths::Endpoint, cmd: &str) -> Result<String, String> {
        match &e.via {
            verify::paths::Via::Namespace(_) => verify::paths::in_namespace(e, cmd),
            verify::paths::Via::Ssh(host) => {
                let (Some(target), Some(opts)) = (self.targets.get(host), &self.opts) else {
                    return Err(format!("{host}: no SSH target"));
                };
                crate::device::host::run_on_host(target, opts, cmd)
                    .map_err(|err| format!("{host}: {err}"))
            }
        }
    }
}

/// The hosts the paths check probes from (none without the `paths` family): a lab's data
/// plane's, from its inventory; else the fabric's Linux hosts with `mgmt`, two of each group,
/// over SSH (each port's address read from the host: `ip -j -4 addr show dev NIC`).
pub fn hosts(
    fabric: &Fabric,
    inventory: &crate::fabric::Inventory,
    connect: &Connect,
    families: &BTreeSet<Family>,
) -> Result<Hosts, Failure> {
    if !families.contains(&Family::Paths) {
        return Ok(Hosts::default());
    }
    if let Some(dp) = &inventory.dataplane {
        return Ok(Hosts {
            endpoints: verify::paths::lab_endpoints(dp).map_err(Failure)?,
            ..Hosts::default()
        });
    }
    let reachable =
        |h: &crate::fabric::Host| h.os == crate::types::HostOs::Linux && h.mgmt.is_some();
    let (ports, _) = crate::hosts::groups::sample(fabric, 2, reachable);
    let ssh = connect.ssh_config()?;
    let mut opts = connect.options(&crate::fabric::Inventory::default(), None)?;
    // A host's commands are its own: no switch transcript; host keys under the hosts' names.
    opts.transcripts = None;
    opts.switches = fabric.hosts.keys().map(|h| h.to_string()).collect();
    let mut out = Hosts::default();
    for p in &ports {
        let Some(m) = fabric
            .hosts
            .get(p.host.as_str())
            .and_then(|h| h.mgmt.as_ref())
        else {
            continue;
        };
        // A host's user is `root` unless written, as `--hosts-live` logs in.
        let target = crate::device::ssh_config::target(
            ssh.as_ref(),
            &p.host,
            &m.host,
            m.port,
            Some(m.user.as_deref().unwrap_or("root")),
        )
        .map_err(|e| Failure(format!("host `{}`: {e}", p.host)))?;
        out.targets.insert(p.host.clone(), target);
    }
    let read = super::run::parallel(&ports, connect.parallel, |p| {
        let target = &out.targets[&p.host];
        crate::device::host::run_on_host(target, &opts, &verify::paths::address_command(&p.nic))
            .map_err(|e| e.to_string())
            .and_then(|text| verify::paths::read_address(&text))
    });
    for (p, address) in ports.iter().zip(read) {
        match address {
            Ok(address) => out.endpoints.push(verify::paths::Endpoint {
                name: format!("{}:{}", p.host, p.nic),
                mtu: p.mtu,
                address,
                group: p.group.clone(),
                switch: p.switch.clone(),
                via: verify::paths::Via::Ssh(p.host.clone()),
            }),
            Err(e) => out.unchecked.push(Unchecked {
                switch: p.switch.clone(),
                what: format!("paths: host {}:{} not probed: {e}", p.host, p.nic),
            }),
        }
    }
    out.opts = Some(opts);
    Ok(out)
}

/// How the counters are read (`--counters`): the interval between two readings.
#[derive(Clone, Copy, Debug)]
pub struct Counting {
    pub interval: Duration,
}

impl Default for Counting {
    fn default() -> Counting {
        Counting {
            interval: Duration::from_secs(30),
        }
    }
}

/// Reads the targets (switches of `fabric`) at once and checks what they report; with
/// `wait`, again until nothing is found or the time is up. The paths family probes from
/// `endpoints`; the counters family reads each switch's counters twice, `counting`'s
/// interval apart, in its one session.
#[allow(clippy::too_many_arguments)]
pub fn verify(
    fabric: &Fabric,
    targets: &[Target],
    opts: &Options,
    parallel: usize,
    families: &BTreeSet<Family>,
    wait: Duration,
    hosts: &Hosts,
    counting: Counting,
) -> Verified {
    let deadline = Instant::now() + wait;
    loop {
        let mut v = None;
        rounds(
            fabric,
            targets,
            opts,
            (parallel, counting),
            families,
            hosts,
            &mut |round| {
                v = Some(round);
                false
            },
        );
        let v = v.expect("one round at least");
        let left = deadline.saturating_duration_since(Instant::now());
        if v.findings.is_empty() || !v.unread.is_empty() || left.is_zero() {
            return v;
        }
        std::thread::sleep(left.min(Duration::from_secs(2)));
    }
}

/// `fabric verify --counters --watch`: the counters read every interval, in sessions kept
/// open, each round's rates (since the reading before) given to `show` until it returns
/// false or every session has ended.
pub fn watch(
    fabric: &Fabric,
    targets: &[Target],
    opts: &Options,
    parallel: usize,
    counting: Counting,
    show: &mut dyn FnMut(Verified) -> bool,
) {
    let families = BTreeSet::from([Family::Counters]);
    rounds(
        fabric,
        targets,
        opts,
        (parallel, counting),
        &families,
        &Hosts::default(),
        show,
    );
}

/// A switch being read: its session, kept open between the readings of its counters.
struct Open<'a> {
    target: &'a Target,
    sent: &'a Sent,
    cli: Mutex<Option<crate::device::Cli>>,
    last: Mutex<Option<counters::Reading>>,
}

/// Reads every target once, then (with the counters family) their counters again every
/// interval; each round's verification to `round` (the first with the counters' rates
/// between the first two readings) until it returns false, or there is nothing to read again.
fn rounds(
    fabric: &Fabric,
    targets: &[Target],
    opts: &Options,
    (parallel, counting): (usize, Counting),
    families: &BTreeSet<Family>,
    hosts: &Hosts,
    round: &mut dyn FnMut(Verified) -> bool,
) {
    let paths = families.contains(&Family::Paths);
    let counting_on = families.contains(&Family::Counters);
    let sent: Vec<Sent> = targets
        .iter()
        .map(|t| Sent::to(fabric, &t.name, families, paths))
        .collect();
    let open: Vec<Open> = targets
        .iter()
        .zip(&sent)
        .map(|(target, sent)| Open {
            target,
            sent,
            cli: Mutex::new(None),
            last: Mutex::new(None),
        })
        .collect();
    let read = super::run::parallel(&open, parallel, |o| read_switch(o, opts, counting_on));
    let mut observed = BTreeMap::new();
    let mut unread = Vec::new();
    let mut unchecked = Vec::new();
    for (o, (obs, errors)) in open.iter().zip(read) {
        observed.insert(o.target.name.clone(), obs);
        unread.extend(errors);
        unchecked.extend(o.sent.unchecked.iter().map(|what| Unchecked {
            switch: o.target.name.clone(),
            what: what.clone(),
        }));
    }
    let mut findings = verify::verify(&Input {
        fabric,
        families: families.clone(),
        observed,
    });
    if paths {
        unchecked.extend(hosts.unchecked.iter().cloned());
        probe_paths(
            fabric,
            hosts,
            parallel,
            &mut findings,
            &mut unread,
            &mut unchecked,
        );
    }
    // Each round after the first: the counters' readings alone, of the same switches.
    let next = || Verified {
        switches: targets.iter().map(|t| t.name.clone()).collect(),
        families: families.clone(),
        findings: Vec::new(),
        unread: Vec::new(),
        unchecked: Vec::new(),
        rates: Vec::new(),
    };
    let mut v = Verified {
        findings,
        unread,
        unchecked,
        ..next()
    };
    if counting_on {
        loop {
            let again = super::run::parallel(&open, parallel, |o| {
                read_again(fabric, o, counting.interval)
            });
            for (rates, unread, unchecked) in again {
                v.rates.extend(rates);
                v.unread.extend(unread);
                v.unchecked.extend(unchecked);
            }
            v.findings.extend(counters::findings(fabric, &v.rates));
            v.findings.sort_by(|a, b| {
                (&a.switch, a.rule, &a.message).cmp(&(&b.switch, b.rule, &b.message))
            });
            let alive = open.iter().any(|o| lock(&o.cli).is_some());
            if !round(v) || !alive {
                break;
            }
            v = next();
        }
        for o in &open {
            if let Some(cli) = lock(&o.cli).take() {
                cli.close();
            }
        }
        return;
    }
    round(v);
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The path probes between the hosts' groups (`--paths`): their findings; a probe that could
/// not run is named, never taken for a clean path.
fn probe_paths(
    fabric: &Fabric,
    hosts: &Hosts,
    parallel: usize,
    findings: &mut Vec<crate::audit::Finding>,
    unread: &mut Vec<Unread>,
    unchecked: &mut Vec<Unchecked>,
) {
    let endpoints = &hosts.endpoints;
    let pairs = verify::paths::pairs(endpoints);
    if pairs.is_empty() {
        unchecked.push(Unchecked {
            switch: "(hosts)".into(),
            what: "paths: no two host groups on different switches to probe between (hosts are probed in a lab's data plane, `fabric lab --dataplane`, or over SSH: Linux hosts with `mgmt`)".into(),
        });
        return;
    }
    let run = |e: &verify::paths::Endpoint, cmd: &str| hosts.run(e, cmd);
    let results = super::run::parallel(&pairs, parallel, |(a, b)| {
        verify::paths::probe(&run, a, b).map_err(|e| (a.switch.clone(), e))
    });
    let mut probes = Vec::new();
    for r in results {
        match r {
            Ok(p) => probes.push(p),
            Err((switch, problem)) => unread.push(Unread {
                switch,
                command: "ping -M do".into(),
                problem,
                port: None,
            }),
        }
    }
    findings.extend(verify::paths::findings(fabric, &probes, endpoints));
    findings.sort_by(|a, b| (&a.switch, a.rule, &a.message).cmp(&(&b.switch, b.rule, &b.message)));
}

/// What one switch is sent: its OS's commands for its plan, each with its reader, its
/// counters' commands (read again each interval), and what of its checks cannot be made.
struct Sent {
    os: Option<&'static dyn SwitchOs>,
    asks: Vec<Ask>,
    counters: Vec<Ask>,
    unchecked: Vec<String>,
}

impl Sent {
    /// What the switch `name` of `fabric` is sent for the families (none when the fabric has
    /// no such switch).
    fn to(fabric: &Fabric, name: &str, families: &BTreeSet<Family>, paths: bool) -> Sent {
        let Some(sw) = fabric.switches.get(name) else {
            return Sent {
                os: None,
                asks: Vec::new(),
                counters: Vec::new(),
                unchecked: Vec::new(),
            };
        };
        let mut plan = verify::plan(sw, families);
        if paths {
            plan.queries.extend(verify::paths::queries(fabric, name));
        }
        let os = sw.os().target();
        let (counting, queries): (Vec<Query>, Vec<Query>) = plan
            .queries
            .into_iter()
            .partition(|q| *q == Query::Counters);
        let mut unchecked = plan.unchecked;
        if !counting.is_empty() {
            unchecked.extend(
                os.reads()
                    .counters_not_read()
                    .iter()
                    .map(|n| format!("counters: {}: {}", n.what, n.why)),
            );
        }
        Sent {
            os: Some(os),
            asks: os.reads().asks(sw, queries),
            counters: os.reads().asks(sw, counting),
            unchecked,
        }
    }
}

/// One switch's replies to its plan's commands, read, then its counters' first reading
/// (its session kept open for the next); each reply that could not be read, and why. A
/// session that ends leaves the rest unsent, each named.
fn read_switch(o: &Open<'_>, opts: &Options, keep: bool) -> (Observed, Vec<Unread>) {
    let (target, sent) = (o.target, o.sent);
    let mut obs = Observed::default();
    let mut unread = Vec::new();
    let Some(os) = sent
        .os
        .filter(|_| !sent.asks.is_empty() || !sent.counters.is_empty())
    else {
        return (obs, unread);
    };
    let mut cli = match crate::device::Cli::open_as(target, opts, os.dialect()) {
        Ok(c) => c,
        Err(e) => {
            unread.push(problem(target, None, e.to_string()));
            return (obs, unread);
        }
    };
    let mut alive = send(&mut cli, os, target, &sent.asks, &mut obs, &mut unread);
    if alive && keep && !sent.counters.is_empty() {
        let at = Instant::now();
        let mut first = Observed::default();
        alive = send(
            &mut cli,
            os,
            target,
            &sent.counters,
            &mut first,
            &mut unread,
        );
        *lock(&o.last) = Some(counters::Reading {
            at,
            counters: first.counters,
        });
    }
    match alive && keep && !sent.counters.is_empty() {
        true => *lock(&o.cli) = Some(cli),
        false => cli.close(),
    }
    (obs, unread)
}

/// Reads a switch's counters again in its open session, once `interval` has passed since the
/// last reading: the rates between the two, the replies that did not read, the counters that
/// gave no rate. The session is closed when it ends.
fn read_again(
    fabric: &Fabric,
    o: &Open<'_>,
    interval: Duration,
) -> (Vec<counters::Rate>, Vec<Unread>, Vec<Unchecked>) {
    let (mut unread, mut unchecked) = (Vec::new(), Vec::new());
    let mut guard = lock(&o.cli);
    let (Some(cli), Some(os), Some(sw)) = (
        guard.as_mut(),
        o.sent.os,
        fabric.switches.get(o.target.name.as_str()),
    ) else {
        return (Vec::new(), unread, unchecked);
    };
    let Some(last) = lock(&o.last).take() else {
        return (Vec::new(), unread, unchecked);
    };
    std::thread::sleep((last.at + interval).saturating_duration_since(Instant::now()));
    let at = Instant::now();
    let mut obs = Observed::default();
    let alive = send(cli, os, o.target, &o.sent.counters, &mut obs, &mut unread);
    let now = counters::Reading {
        at,
        counters: obs.counters,
    };
    let (rates, problems) = counters::rates(sw, &last, &now);
    unchecked.extend(problems.into_iter().map(|p| Unchecked {
        switch: o.target.name.clone(),
        what: format!("counters: {p}"),
    }));
    *lock(&o.last) = Some(now);
    if !alive && let Some(cli) = guard.take() {
        cli.close();
    }
    (rates, unread, unchecked)
}

/// A reply that could not be read, of `ask` (or of the connection).
fn problem(target: &Target, ask: Option<&Ask>, problem: String) -> Unread {
    Unread {
        switch: target.name.clone(),
        command: ask.map_or_else(|| "(connection)".into(), |a| a.command.clone()),
        problem,
        port: ask.and_then(|a| a.port),
    }
}

/// Sends `asks` and reads each reply into `obs`; false when the session ended (the rest
/// named as not sent).
fn send(
    cli: &mut crate::device::Cli,
    os: &dyn SwitchOs,
    target: &Target,
    asks: &[Ask],
    obs: &mut Observed,
    unread: &mut Vec<Unread>,
) -> bool {
    let reads = os.reads();
    let mut asks = asks.iter();
    for ask in asks.by_ref() {
        match cli.run(&ask.command) {
            Ok(reply) => {
                if let Err(why) = reads.read(ask, &reply, obs) {
                    unread.push(problem(target, Some(ask), why));
                }
            }
            Err(crate::device::Error::Refused { reply, .. }) => {
                unread.push(problem(
                    target,
                    Some(ask),
                    format!("the switch answered `{reply}`"),
                ));
            }
            Err(e) => {
                unread.push(problem(target, Some(ask), e.to_string()));
                for ask in asks {
                    unread.push(problem(
                        target,
                        Some(ask),
                        "not sent: the session ended".into(),
                    ));
                }
                return false;
            }
        }
    }
    true
}
