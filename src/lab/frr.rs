//! Real routing on the lab's data plane ([`super::dataplane`]): FRR's zebra, bgpd and bfdd in
//! each switch's namespace, configured from the switch's own BGP (`router bgp …` of its
//! running config, an OS10 switch's in the network's terms), so that sessions, best paths and
//! the kernel's ECMP routes come from a real BGP implementation, not from the lab's rules.
//! A switch's daemons start when its configuration first runs BGP; after that each change of
//! its BGP reaches them as the FRR commands that differ ([`delta`]), as a change typed on a
//! switch reaches its routing daemon, without restarting sessions it does not touch. Daemons
//! are found by their pid files and stopped when the [`Frr`] is dropped.
//!
//! What a BGP instance becomes in FRR ([`render`]): its AS, router ID, neighbors with their
//! remote AS (a neighbor named by its port as FRR's interface neighbor, `neighbor eth1-33
//! interface remote-as external`: BGP unnumbered over IPv6 link-local addresses learned from
//! router advertisements, IPv4 routes through IPv6 next hops), timers (and a connect retry of 10 s, the lab's) and BFD (only under `protocol bfd`, with the switch's `ip bfd` intervals
//! as a BFD profile), `fast-external-fallover` as configured (FRR's default is on, the
//! switches' off), its `network` prefixes and `maximum-paths`; FRR's `traditional` defaults
//! (hold time 180 s, as Onyx and OS10), and no policy required on eBGP sessions (neither OS
//! has that rule).
//!
//! Read back ([`bgp_view`], [`routes`]): `show bgp summary json` and `show ip route json`,
//! in the lab's own terms, for `show ip bgp summary` and `show ip route` to print in the
//! switch's layout.
//!
//! Input: a built data plane and the view it follows; output: running daemons.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::dataplane::Dataplane;
use super::network::{BgpView, Node, Peer, RemoteAs, Session, SessionState};
use super::view::View;
use crate::onyx::{Config, Protocol};
use crate::types::Iface;
use crate::types::Ipv4Net;

/// Where FRR's daemons are (Debian's package `frr`).
const DAEMONS: &str = "/usr/lib/frr";

/// The daemons a switch runs, in start order.
const RUN: [&str; 3] = ["zebra", "bgpd", "bfdd"];

/// Seconds between a neighbor's connection attempts in the lab (FRR's `datacenter` default).
const CONNECT_RETRY: u16 = 10;

/// The BFD profile the switch's `ip bfd` intervals become.
const PROFILE: &str = "fabric";

/// A switch's BGP in FRR's terms: its AS, the lines of its `router bgp` block, of its IPv4
/// address family, and of its BFD profile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rendered {
    pub asn: u32,
    pub router: Vec<String>,
    pub family: Vec<String>,
    pub bfd: Vec<String>,
}

impl Rendered {
    /// The whole configuration, as `frr.conf` holds it.
    pub fn text(&self, hostname: &str) -> String {
        let mut out = format!("frr defaults traditional\nhostname {hostname}\n!\n");
        out.push_str(&self.commands(None).join("\n"));
        out.push('\n');
        out
    }

    /// The commands that configure it from nothing, or (with `old`, the same AS) from `old`.
    fn commands(&self, old: Option<&Rendered>) -> Vec<String> {
        let empty = Rendered::default();
        let old = old.unwrap_or(&empty);
        let mut out = Vec::new();
        if self.bfd != old.bfd && !self.bfd.is_empty() {
            out.push("bfd".to_string());
            out.push(format!(" profile {PROFILE}"));
            out.extend(self.bfd.iter().map(|l| format!("  {l}")));
            out.extend([" exit".to_string(), "exit".to_string()]);
        }
        out.push(format!("router bgp {}", self.asn));
        // A neighbor removed whole: `no neighbor A` takes its other lines with it.
        let gone: BTreeSet<&str> = old
            .router
            .iter()
            .filter(|l| l.contains(" remote-as ") && !self.router.contains(l))
            .filter_map(|l| l.split_whitespace().nth(1))
            .filter(|n| {
                !self.router.iter().any(|l| {
                    l.starts_with(&format!("neighbor {n} remote-as "))
                        || l.starts_with(&format!("neighbor {n} interface remote-as "))
                })
            })
            .collect();
        for n in &gone {
            out.push(format!(" no neighbor {n}"));
        }
        for l in old.router.iter().filter(|l| !self.router.contains(l)) {
            let of_gone = l.starts_with("neighbor ")
                && l.split_whitespace()
                    .nth(1)
                    .is_some_and(|n| gone.contains(n));
            if !of_gone {
                out.push(format!(" {}", negate(l)));
            }
        }
        for l in self.router.iter().filter(|l| !old.router.contains(l)) {
            out.push(format!(" {l}"));
        }
        out.push(" address-family ipv4 unicast".to_string());
        for l in old.family.iter().filter(|l| !self.family.contains(l)) {
            out.push(format!("  {}", negate(l)));
        }
        for l in self.family.iter().filter(|l| !old.family.contains(l)) {
            out.push(format!("  {l}"));
        }
        out.extend([" exit-address-family".to_string(), "exit".to_string()]);
        out
    }
}

/// A line's `no` form (`no x` for `x`, `x` for `no x`).
fn negate(line: &str) -> String {
    match line.strip_prefix("no ") {
        Some(rest) => rest.to_string(),
        None => format!("no {line}"),
    }
}

/// A switch's BGP in FRR's terms, or `None` when it runs none (no `ip routing`, no `protocol
/// bgp`, no `router bgp`).
pub fn render(node: &Node) -> Option<Rendered> {
    let config = &node.config;
    if !config.ip_routing || !config.protocols.contains(&Protocol::Bgp) {
        return None;
    }
    let bgp = config.bgp.as_ref()?;
    let bfd_on = config.protocols.contains(&Protocol::Bfd);
    let mut r = Rendered {
        asn: bgp.asn,
        ..Rendered::default()
    };
    if let Some(id) = bgp.router_id {
        r.router.push(format!("bgp router-id {id}"));
    }
    r.router.push("no bgp ebgp-requires-policy".to_string());
    if !bgp.fast_external_fallover {
        r.router.push("no bgp fast-external-failover".to_string());
    }
    if bgp.multipath_relax {
        r.router
            .push("bgp bestpath as-path multipath-relax".to_string());
    }
    for (n, asn) in &bgp.neighbors {
        r.router.push(format!("neighbor {n} remote-as {asn}"));
        // A session refused while the lab was being configured (its link made again when a
        // port was renamed, an address not yet there) is tried again after 10 s, not after
        // the 120 s of FRR's traditional defaults: the lab converges in seconds after a push.
        // The switches' own retry timer is UNCONFIRMED.
        r.router
            .push(format!("neighbor {n} timers connect {CONNECT_RETRY}"));
        if let Some((keepalive, hold)) = bgp.timers.get(n) {
            r.router
                .push(format!("neighbor {n} timers {keepalive} {hold}"));
        }
        if bfd_on && bgp.bfd.contains(n) {
            r.router.push(format!("neighbor {n} bfd profile {PROFILE}"));
        }
    }
    for (p, peer) in &node.port_peers {
        let n = super::dataplane::link_name(*p);
        let remote = match peer.remote_as {
            RemoteAs::External => "external".to_string(),
            RemoteAs::Internal => "internal".to_string(),
            RemoteAs::Number(a) => a.to_string(),
        };
        r.router
            .push(format!("neighbor {n} interface remote-as {remote}"));
        r.router
            .push(format!("neighbor {n} timers connect {CONNECT_RETRY}"));
        if let Some(hold) = peer.hold {
            // A keepalive a third of the hold time (RFC 4271 §10's suggestion).
            r.router
                .push(format!("neighbor {n} timers {} {hold}", (hold / 3).max(1)));
        }
        if bfd_on && peer.bfd {
            r.router.push(format!("neighbor {n} bfd profile {PROFILE}"));
        }
    }
    for net in &bgp.networks {
        r.family.push(format!("network {net}"));
    }
    if let Some(paths) = bgp.maximum_paths {
        r.family.push(format!("maximum-paths {paths}"));
    }
    if bfd_on {
        let b = config.bfd;
        r.bfd
            .extend(b.min_rx.map(|v| format!("receive-interval {v}")));
        r.bfd
            .extend(b.transmit_rate.map(|v| format!("transmit-interval {v}")));
        r.bfd
            .extend(b.multiplier.map(|v| format!("detect-multiplier {v}")));
        if r.bfd.is_empty() && !bgp.bfd.is_empty() {
            // The profile the neighbors name exists even with FRR's default intervals.
            r.bfd.push("detect-multiplier 3".to_string());
        }
    }
    Some(r)
}

/// The FRR commands that take a switch's daemons from `old` to `new`, in configuration mode.
pub fn delta(old: Option<&Rendered>, new: Option<&Rendered>) -> Vec<String> {
    match (old, new) {
        (None, None) => Vec::new(),
        (Some(o), None) => vec![format!("no router bgp {}", o.asn)],
        (Some(o), Some(n)) if o == n => Vec::new(),
        (Some(o), Some(n)) if o.asn == n.asn => n.commands(Some(o)),
        (Some(o), Some(n)) => {
            let mut out = vec![format!("no router bgp {}", o.asn)];
            out.extend(n.commands(None));
            out
        }
        (None, Some(n)) => n.commands(None),
    }
}

/// What running FRR needs and this machine lacks (each with how to get it).
pub fn missing() -> Vec<super::dataplane::Missing> {
    let mut out = Vec::new();
    let lacks: Vec<&str> = RUN
        .iter()
        .copied()
        .filter(|d| !PathBuf::from(DAEMONS).join(d).exists())
        .collect();
    // vtysh has no --version; --help exits 0.
    let vtysh = Command::new("vtysh")
        .arg("--help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !lacks.is_empty() || !vtysh {
        out.push(super::dataplane::Missing {
            what: format!("FRR ({} in {DAEMONS}, and vtysh)", RUN.join(", ")),
            how: "apt-get install -y frr",
        });
    }
    out
}

/// One switch's daemons: their namespace and the configuration they hold.
struct Running {
    ns: String,
    applied: Option<Rendered>,
}

/// FRR in the namespaces of a data plane, per switch whose configuration has run BGP.
#[derive(Default)]
pub struct Frr {
    running: BTreeMap<String, Running>,
}

impl Frr {
    /// Starts the daemons of every switch of `view` that runs BGP and configures them.
    pub fn start(dp: &Dataplane, view: &View) -> Result<Frr, String> {
        let mut frr = Frr::default();
        frr.sync(dp, view)?;
        Ok(frr)
    }

    /// Brings FRR in line with `view`: daemons started (each with the switch's configured
    /// hostname) for a switch that runs BGP for the first time, every other switch's
    /// changes applied as commands. Switches are started at once, in parallel; a switch that
    /// fails is said and the others go on.
    pub fn sync(&mut self, dp: &Dataplane, view: &View) -> Result<(), String> {
        let mut start = Vec::new();
        let mut errors = Vec::new();
        for (name, node) in &view.nodes {
            let new = render(node);
            match self.running.get_mut(name) {
                Some(r) => {
                    let cmds = delta(r.applied.as_ref(), new.as_ref());
                    if cmds.is_empty() {
                        continue;
                    }
                    match configure(&r.ns, &cmds) {
                        Ok(()) => r.applied = new,
                        Err(e) => errors.push(format!("{name}: {e}")),
                    }
                }
                None => {
                    let Some(new) = new else { continue };
                    let Some(ns) = dp.namespace(name) else {
                        errors.push(format!("{name}: no namespace"));
                        continue;
                    };
                    let hostname = node.config.hostname.as_deref().unwrap_or(name);
                    start.push((
                        name.clone(),
                        ns.to_string(),
                        new.text(hostname),
                        hostname.to_string(),
                        new,
                    ));
                }
            }
        }
        let results: Vec<Result<(), String>> = std::thread::scope(|s| {
            let handles: Vec<_> = start
                .iter()
                .map(|(_, ns, conf, hostname, _)| s.spawn(move || start_one(ns, hostname, conf)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|_| Err("start panicked".into())))
                .collect()
        });
        for ((name, ns, _, _, new), result) in start.into_iter().zip(results) {
            // Started or not, its pid files say what to stop.
            let ok = result.is_ok();
            if let Err(e) = result {
                errors.push(e);
            }
            self.running.insert(
                name,
                Running {
                    ns,
                    applied: ok.then_some(new),
                },
            );
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    }

    /// `vtysh -N NS -c COMMAND` in the namespace of `ns`: its output.
    pub fn vtysh(ns: &str, command: &str) -> Result<String, String> {
        let out = Command::new("vtysh")
            .args(["-N", ns, "-c", command])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run vtysh: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "vtysh -N {ns} -c '{command}': {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// Runs `cmds` in configuration mode of the daemons of `ns`, in one vtysh session.
fn configure(ns: &str, cmds: &[String]) -> Result<(), String> {
    let mut c = Command::new("vtysh");
    c.args(["-N", ns, "-c", "configure terminal"]);
    for l in cmds {
        c.args(["-c", l.trim_start()]);
    }
    let out = c
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run vtysh: {e}"))?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // vtysh prints a refused line's error and goes on; say it.
    let refused: Vec<&str> = said.lines().filter(|l| l.starts_with('%')).collect();
    if !out.status.success() || !refused.is_empty() {
        return Err(format!("FRR refused {cmds:?}: {}", refused.join(" ")));
    }
    Ok(())
}

/// The folders of a switch's daemons: configuration, and pid files and sockets.
fn dirs(ns: &str) -> (PathBuf, PathBuf) {
    (
        PathBuf::from("/etc/frr").join(ns),
        PathBuf::from("/var/run/frr").join(ns),
    )
}

fn start_one(ns: &str, hostname: &str, conf: &str) -> Result<(), String> {
    let (etc, run) = dirs(ns);
    for d in [&etc, &run] {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot make `{}`: {e}", d.display()))?;
    }
    std::fs::write(etc.join("frr.conf"), conf)
        .and_then(|()| std::fs::write(etc.join("vtysh.conf"), "service integrated-vtysh-config\n"))
        .map_err(|e| format!("cannot write `{}`: {e}", etc.display()))?;
    // The daemons drop to the `frr` user: their folders are its.
    let owned = Command::new("chown")
        .args(["-R", "frr:frr"])
        .arg(&etc)
        .arg(&run)
        .status()
        .is_ok_and(|s| s.success());
    if !owned {
        return Err(format!("cannot give `{}` to the frr user", etc.display()));
    }
    for d in RUN {
        let pid = run.join(format!("{d}.pid"));
        // Each daemon in its own UTS namespace with the switch's hostname: bgpd announces it.
        // Its log in its own folder (`D.log`), not on the lab's terminal.
        // The hostname is an argument of the script, never part of its text.
        let script = format!(
            "hostname \"$1\" && exec {DAEMONS}/{d} -d -N {ns} -A 127.0.0.1 -i {} --log file:{}",
            pid.display(),
            run.join(format!("{d}.log")).display()
        );
        let ok = Command::new("ip")
            .args([
                "netns", "exec", ns, "unshare", "--uts", "sh", "-c", &script, "sh",
            ])
            .arg(hostname)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            return Err(format!(
                "{hostname}: {d} did not start (its log: {})",
                run.join(format!("{d}.log")).display()
            ));
        }
    }
    // The daemons take their configuration from vtysh, once each has opened its socket.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let loaded = Command::new("vtysh")
            .args(["-N", ns, "-b"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if loaded {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "{hostname}: vtysh -b did not load the configuration"
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

impl Drop for Frr {
    fn drop(&mut self) {
        let mut pids = Vec::new();
        for r in self.running.values() {
            let (etc, run) = dirs(&r.ns);
            for d in RUN {
                if let Some(pid) = std::fs::read_to_string(run.join(format!("{d}.pid")))
                    .ok()
                    .and_then(|p| p.trim().parse::<i32>().ok())
                {
                    // SAFETY: kill sends a signal; the pid is the daemon's, from its pid file.
                    unsafe { libc::kill(pid, libc::SIGTERM) };
                    pids.push(pid);
                }
            }
            let _ = std::fs::remove_dir_all(etc);
        }
        // bgpd sends its NOTIFICATIONs before it ends: wait for every daemon, a while.
        let deadline = Instant::now() + Duration::from_secs(10);
        // SAFETY: signal 0 only asks whether the process exists.
        while pids.iter().any(|p| unsafe { libc::kill(*p, 0) } == 0) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        for r in self.running.values() {
            let _ = std::fs::remove_dir_all(dirs(&r.ns).1);
        }
    }
}

/// A switch's BGP as FRR runs it (`show bgp summary json`), in the lab's terms: `None` when
/// it runs none (no daemons, or no instance). FRR's states other than Established and Idle
/// are Active, as the switches print them.
pub fn bgp_view(ns: &str) -> Option<BgpView> {
    let text = Frr::vtysh(ns, "show bgp summary json").ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let af = v.get("ipv4Unicast")?;
    let mut sessions = Vec::new();
    for (n, p) in af["peers"].as_object().into_iter().flatten() {
        let neighbor = match n.parse::<Ipv4Addr>() {
            Ok(a) => Peer::Addr(a),
            Err(_) => match super::dataplane::port_of(n) {
                Some(p) => Peer::Port(p),
                None => continue,
            },
        };
        let state = match p["state"].as_str() {
            Some("Established") => SessionState::Established,
            Some("Idle") => SessionState::Idle,
            _ => SessionState::Active,
        };
        let count = |k: &str| p[k].as_u64().unwrap_or(0) as usize;
        sessions.push(Session {
            neighbor,
            remote_as: p["remoteAs"].as_u64().unwrap_or(0) as u32,
            state,
            far: p["hostname"].as_str().map(str::to_string),
            received: count("pfxRcd"),
            sent: count("pfxSnt"),
            bfd: None,
            hold: None,
        });
    }
    Some(BgpView {
        asn: af["as"].as_u64().unwrap_or(0) as u32,
        router_id: af["routerId"].as_str()?.parse().ok()?,
        sessions,
        prefixes: af["ribCount"].as_u64().unwrap_or(0) as usize,
        routes: BTreeMap::new(),
    })
}

/// A route of a switch's routing table as FRR's zebra holds it (selected and installed
/// routes only, as a switch prints its table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rib {
    pub prefix: Ipv4Net,
    /// `bgp`, `connected`, `local`, `static`, `kernel`.
    pub protocol: String,
    pub distance: u32,
    pub metric: u32,
    /// Each next hop: its gateway (none for a connected route) and interface in the
    /// namespace (`eth1-25`, `vlan10`, `lo`).
    pub hops: Vec<(Option<Ipv4Addr>, String)>,
    /// How long ago it last changed, as zebra prints it (`00:05:03`); `None` where no daemon
    /// keeps the table.
    pub uptime: Option<String>,
}

/// The switch's routing table (`show ip route json`), by prefix; `None` when its daemons are
/// not running.
pub fn routes(ns: &str) -> Option<Vec<Rib>> {
    let text = Frr::vtysh(ns, "show ip route json").ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let mut out = Vec::new();
    for (prefix, entries) in v.as_object()? {
        let Ok(prefix) = prefix.parse::<Ipv4Net>() else {
            continue;
        };
        for e in entries.as_array().into_iter().flatten() {
            if e["selected"].as_bool() != Some(true) {
                continue;
            }
            let mut hops: Vec<(Option<Ipv4Addr>, String)> = e["nexthops"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|h| h["active"].as_bool() == Some(true))
                .map(|h| {
                    (
                        h["ip"].as_str().and_then(|a| a.parse().ok()),
                        h["interfaceName"].as_str().unwrap_or_default().to_string(),
                    )
                })
                .collect();
            // As the switches list them: by gateway.
            hops.sort();
            out.push(Rib {
                prefix,
                protocol: e["protocol"].as_str().unwrap_or_default().to_string(),
                distance: e["distance"].as_u64().unwrap_or(0) as u32,
                metric: e["metric"].as_u64().unwrap_or(0) as u32,
                hops,
                uptime: e["uptime"].as_str().map(str::to_string),
            });
        }
    }
    Some(out)
}

/// The loopback of `config` that has `addr` (its number), for a route on `lo`; 0 when none.
pub fn loopback_of(config: Option<&Config>, addr: Ipv4Addr) -> u16 {
    config
        .and_then(|c| {
            c.interfaces.iter().find_map(|(i, x)| match i {
                Iface::Loopback(n) if x.address.is_some_and(|a| a.addr == addr) => Some(*n),
                _ => None,
            })
        })
        .unwrap_or(0)
}

/// A switch's routing table as its `show ip route` prints it: FRR's on the lab's data plane,
/// else ([`connected`]) the connected subnets alone (the lab derives no routes).
pub fn table(
    net: &super::network::Net<'_>,
    network: &super::network::Network,
    me: &str,
) -> Vec<Rib> {
    match network.dataplane_ns(me) {
        Some(ns) => routes(&ns).unwrap_or_default(),
        None => connected(net, me),
    }
}

/// The connected subnets of the switch's up interfaces with an address: its routing table
/// where the lab runs no routing daemon.
fn connected(net: &super::network::Net<'_>, me: &str) -> Vec<Rib> {
    let Some(config) = net.config(me) else {
        return Vec::new();
    };
    config
        .interfaces
        .iter()
        .filter(|(i, _)| net.iface_up(me, **i))
        .filter_map(|(i, x)| {
            let a = x.address?;
            let dev = match i {
                Iface::Ethernet(p) => crate::lab::dataplane::link_name(*p),
                Iface::Vlan(v) => crate::lab::dataplane::vlan_name(v.get()),
                Iface::Loopback(_) => "lo".to_string(),
                _ => return None,
            };
            Some(Rib {
                prefix: a.network(),
                protocol: "connected".to_string(),
                distance: 0,
                metric: 0,
                hops: vec![(None, dev)],
                uptime: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(router: &[&str], family: &[&str]) -> Rendered {
        Rendered {
            asn: 65101,
            router: router.iter().map(|s| s.to_string()).collect(),
            family: family.iter().map(|s| s.to_string()).collect(),
            bfd: Vec::new(),
        }
    }

    #[test]
    fn a_neighbor_named_by_its_port_is_an_interface_neighbor() {
        use crate::lab::network::{PortPeer, RemoteAs};
        let mut config = Config::empty();
        config.ip_routing = true;
        config.protocols.insert(Protocol::Bgp);
        config.bgp = Some(crate::onyx::Bgp::new(65101));
        let peer = PortPeer {
            remote_as: RemoteAs::External,
            bfd: false,
            hold: Some(9),
        };
        let node = Node {
            config,
            os: crate::targets::BUILT_IN[0].os(),
            pair: None,
            port_peers: [("1/33".parse().unwrap(), peer)].into(),
        };
        let r = render(&node).unwrap();
        assert!(
            r.router
                .contains(&"neighbor eth1-33 interface remote-as external".to_string())
        );
        assert!(
            r.router
                .contains(&"neighbor eth1-33 timers 3 9".to_string())
        );
        let mut gone = node.clone();
        gone.port_peers.clear();
        assert_eq!(
            delta(Some(&r), render(&gone).as_ref())[..2],
            ["router bgp 65101", " no neighbor eth1-33"]
        );
    }

    #[test]
    fn a_change_reaches_frr_as_the_lines_that_differ() {
        let old = rendered(
            &[
                "bgp router-id 10.0.0.1",
                "neighbor 10.1.0.0 remote-as 65000",
                "neighbor 10.1.0.0 timers 3 9",
                "neighbor 10.1.0.2 remote-as 65000",
            ],
            &["network 10.10.1.0/24", "maximum-paths 8"],
        );
        let new = rendered(
            &[
                "bgp router-id 10.0.0.1",
                "neighbor 10.1.0.2 remote-as 65000",
                "neighbor 10.1.0.4 remote-as 65000",
            ],
            &["network 10.10.1.0/24", "maximum-paths 4"],
        );
        assert_eq!(
            delta(Some(&old), Some(&new)),
            [
                "router bgp 65101",
                " no neighbor 10.1.0.0",
                " neighbor 10.1.0.4 remote-as 65000",
                " address-family ipv4 unicast",
                "  no maximum-paths 8",
                "  maximum-paths 4",
                " exit-address-family",
                "exit"
            ]
        );
        assert!(delta(Some(&new), Some(&new)).is_empty());
        assert_eq!(delta(Some(&new), None), ["no router bgp 65101"]);
        let mut other = new.clone();
        other.asn = 65102;
        assert_eq!(
            delta(Some(&new), Some(&other))[..2],
            ["no router bgp 65101", "router bgp 65102"]
        );
        // A line turned off: its `no` form goes; turned back on, the plain line.
        let off = rendered(&["no bgp fast-external-failover"], &[]);
        let on = rendered(&[], &[]);
        assert!(delta(Some(&off), Some(&on)).contains(&" bgp fast-external-failover".to_string()));
    }
}
