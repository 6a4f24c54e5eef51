//! `fabric verify`'s collection: the switches' live state read over SSH with `show` commands
//! only, every switch at once (again until nothing is found, with a wait), the hosts' path
//! probes, and the checks over what was read; what `fabric verify` prints and what
//! `fabric push --verify-state` runs after a successful push.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use super::connect::Connect;
use crate::device::{Options, Target};
use crate::error::{Failure, exit};
use crate::fabric::Fabric;
use crate::targets::{Ask, SwitchOs};
use crate::verify::report::{Report, Unchecked, Unread};
use crate::verify::{self, Family, Input, Observed};

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

/// Reads the targets (switches of `fabric`) at once and checks what they report; with
/// `wait`, again until nothing is found or the time is up. The paths family probes from
/// `endpoints`.
pub fn verify(
    fabric: &Fabric,
    targets: &[Target],
    opts: &Options,
    parallel: usize,
    families: &BTreeSet<Family>,
    wait: Duration,
    hosts: &Hosts,
) -> Verified {
    let deadline = Instant::now() + wait;
    loop {
        let v = once(fabric, targets, opts, parallel, families, hosts);
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
    hosts: &Hosts,
) -> Verified {
    let paths = families.contains(&Family::Paths);
    let sent: Vec<Sent> = targets
        .iter()
        .map(|t| Sent::to(fabric, &t.name, families, paths))
        .collect();
    let work: Vec<(&Target, &Sent)> = targets.iter().zip(&sent).collect();
    let read = super::run::parallel(&work, parallel, |(t, s)| read_switch(t, s, opts));
    let mut observed = BTreeMap::new();
    let mut unread = Vec::new();
    let mut unchecked = Vec::new();
    for ((t, sent), (obs, errors)) in work.iter().zip(read) {
        observed.insert(t.name.clone(), obs);
        unread.extend(errors);
        unchecked.extend(sent.unchecked.iter().map(|what| Unchecked {
            switch: t.name.clone(),
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
    Verified {
        switches: targets.iter().map(|t| t.name.clone()).collect(),
        families: families.clone(),
        findings,
        unread,
        unchecked,
    }
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

/// What one switch is sent: its OS's commands for its plan, each with its reader, and what
/// of its checks cannot be made.
struct Sent {
    os: Option<&'static dyn SwitchOs>,
    asks: Vec<Ask>,
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
                unchecked: Vec::new(),
            };
        };
        let mut plan = verify::plan(sw, families);
        if paths {
            plan.queries.extend(verify::paths::queries(fabric, name));
        }
        let os = sw.os().target();
        Sent {
            os: Some(os),
            asks: os.reads().asks(sw, plan.queries),
            unchecked: plan.unchecked,
        }
    }
}

/// One switch's replies to its plan's commands, read; each reply that could not be, and
/// why. A session that ends leaves the rest unsent, each named.
fn read_switch(target: &Target, sent: &Sent, opts: &Options) -> (Observed, Vec<Unread>) {
    let mut obs = Observed::default();
    let mut unread = Vec::new();
    let problem = |ask: Option<&Ask>, problem: String| Unread {
        switch: target.name.clone(),
        command: ask.map_or_else(|| "(connection)".into(), |a| a.command.clone()),
        problem,
        port: ask.and_then(|a| a.port),
    };
    let Some(os) = sent.os.filter(|_| !sent.asks.is_empty()) else {
        return (obs, unread);
    };
    let reads = os.reads();
    let mut cli = match crate::device::Cli::open_as(target, opts, os.dialect()) {
        Ok(c) => c,
        Err(e) => {
            unread.push(problem(None, e.to_string()));
            return (obs, unread);
        }
    };
    let mut asks = sent.asks.iter();
    for ask in asks.by_ref() {
        match cli.run(&ask.command) {
            Ok(reply) => {
                if let Err(why) = reads.read(ask, &reply, &mut obs) {
                    unread.push(problem(Some(ask), why));
                }
            }
            Err(crate::device::Error::Refused { reply, .. }) => {
                unread.push(problem(Some(ask), format!("the switch answered `{reply}`")));
            }
            Err(e) => {
                unread.push(problem(Some(ask), e.to_string()));
                break;
            }
        }
    }
    for ask in asks {
        unread.push(problem(Some(ask), "not sent: the session ended".into()));
    }
    cli.close();
    (obs, unread)
}
