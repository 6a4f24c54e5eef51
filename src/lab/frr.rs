//! Real routing on the lab's data plane ([`super::dataplane`]): FRR's zebra, bgpd and bfdd in
//! each switch's namespace, configured from the switch's own BGP (`router bgp …` of its
//! running config), so that sessions, best paths and the kernel's ECMP routes come from a
//! real BGP implementation, not from the lab's rules. Daemons are found by their pid files
//! and stopped when the [`Frr`] is dropped.
//!
//! What an Onyx BGP instance becomes in FRR ([`render`]): its AS, router ID, neighbors with
//! their remote AS, timers and BFD, its `network` prefixes and `maximum-paths`; FRR's
//! `traditional` defaults (Onyx's hold time is 180 s, as FRR's there), and no policy required
//! on eBGP sessions (Onyx has no such rule). Not yet: OS10's BGP, BFD timers other than FRR's
//! default 300 ms × 3 (the compiled configs' own), changes after the start.
//!
//! Input: a built data plane and the view it was built from; output: running daemons.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::dataplane::Dataplane;
use super::view::View;
use crate::onyx::Config;

/// Where FRR's daemons are (Debian's package `frr`).
const DAEMONS: &str = "/usr/lib/frr";

/// The daemons a switch runs, in start order.
const RUN: [&str; 3] = ["zebra", "bgpd", "bfdd"];

/// The FRR configuration of a switch's BGP, or `None` when it runs none.
pub fn render(hostname: &str, config: &Config) -> Option<String> {
    let bgp = config.bgp.as_ref()?;
    let mut out = String::new();
    let _ = writeln!(out, "frr defaults traditional\nhostname {hostname}\n!");
    let _ = writeln!(out, "router bgp {}", bgp.asn);
    if let Some(id) = bgp.router_id {
        let _ = writeln!(out, " bgp router-id {id}");
    }
    out.push_str(" no bgp ebgp-requires-policy\n");
    if bgp.multipath_relax {
        out.push_str(" bgp bestpath as-path multipath-relax\n");
    }
    for (n, asn) in &bgp.neighbors {
        let _ = writeln!(out, " neighbor {n} remote-as {asn}");
        if let Some((keepalive, hold)) = bgp.timers.get(n) {
            let _ = writeln!(out, " neighbor {n} timers {keepalive} {hold}");
        }
        if bgp.bfd.contains(n) {
            let _ = writeln!(out, " neighbor {n} bfd");
        }
    }
    out.push_str(" !\n address-family ipv4 unicast\n");
    for net in &bgp.networks {
        let _ = writeln!(out, "  network {net}");
    }
    if let Some(paths) = bgp.maximum_paths {
        let _ = writeln!(out, "  maximum-paths {paths}");
    }
    out.push_str(" exit-address-family\nexit\n!\n");
    Some(out)
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
            how: "apt-get install frr",
        });
    }
    out
}

/// FRR running in the namespaces of a data plane: the namespaces it runs in.
pub struct Frr {
    namespaces: Vec<String>,
}

impl Frr {
    /// Starts zebra, bgpd and bfdd in the namespace of every switch of `view` that runs BGP,
    /// each with the switch's configured hostname, and loads its configuration. On an error, what was
    /// started is stopped.
    pub fn start(dp: &Dataplane, view: &View) -> Result<Frr, String> {
        let mut frr = Frr {
            namespaces: Vec::new(),
        };
        for (name, node) in &view.nodes {
            // The switch's own hostname, as LLDP names it (else its name in the fabric).
            let hostname = node.config.hostname.as_deref().unwrap_or(name);
            let Some(conf) = render(hostname, &node.config) else {
                continue;
            };
            let ns = dp
                .namespace(name)
                .ok_or_else(|| format!("{name}: no namespace"))?
                .to_string();
            frr.namespaces.push(ns.clone());
            start_one(&ns, hostname, &conf)?;
        }
        Ok(frr)
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
    // Forwarding on, reverse-path filtering off (ECMP paths come back asymmetric), ECMP
    // hashed on the ports too: written in the namespace's own /proc/sys/net.
    sysctl(
        ns,
        &[
            ("net/ipv4/ip_forward", "1"),
            ("net/ipv4/conf/all/rp_filter", "0"),
            ("net/ipv4/conf/default/rp_filter", "0"),
            ("net/ipv4/fib_multipath_hash_policy", "1"),
        ],
    )?;
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

fn sysctl(ns: &str, settings: &[(&str, &str)]) -> Result<(), String> {
    let script: Vec<String> = settings
        .iter()
        .map(|(k, v)| format!("echo {v} > /proc/sys/{k}"))
        .collect();
    let ok = Command::new("ip")
        .args(["netns", "exec", ns, "sh", "-c", &script.join(" && ")])
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Ok(())
    } else {
        Err(format!("{ns}: cannot set {settings:?}"))
    }
}

impl Drop for Frr {
    fn drop(&mut self) {
        let mut pids = Vec::new();
        for ns in &self.namespaces {
            let (etc, run) = dirs(ns);
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
        for ns in &self.namespaces {
            let _ = std::fs::remove_dir_all(dirs(ns).1);
        }
    }
}
