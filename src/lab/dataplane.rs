//! The lab's data plane in the Linux kernel, its first part: every switch of a network view
//! ([`View`]) a network namespace, every cable between two switches a veth pair whose ends
//! carry the MTU and admin state each switch is configured with, and every routed port and
//! loopback its address. The kernel then answers for the links as it would for real ones:
//! carrier follows the far end, a frame above an end's MTU does not pass, a /31 is a connected
//! route. Built with `ip` (iproute2): one batch for the cables, one per switch for what is
//! inside it. Torn down when the [`Dataplane`] is dropped.
//!
//! Not here yet (issue 33): FRR per namespace (zebra, bgpd, bfdd) from the switches' BGP,
//! VLAN interfaces (a bridge per switch), LAGs and MLAG as bonds, hosts as namespaces,
//! changes after the build (a `mtu` or `shutdown` typed in the lab's CLI), the
//! `--dataplane` flag.
//!
//! Input: a [`View`]; output: namespaces in the kernel. Nothing here prints.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use super::view::View;
use crate::fabric::Os;
use crate::onyx::{Config, Iface};
use crate::types::{Ipv4Net, Port};

/// One end of a cable: its switch and port, the MTU and admin state configured there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub switch: String,
    pub port: Port,
    pub mtu: u16,
    pub up: bool,
}

/// An address on an interface of a switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    pub switch: String,
    /// The interface's name in the namespace ([`link_name`], or `lo`).
    pub dev: String,
    pub net: Ipv4Net,
}

/// What the kernel is to hold: the switches, the cables between them, the addresses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub switches: Vec<String>,
    /// Each cable once, its ends in name order.
    pub cables: Vec<(End, End)>,
    pub addresses: Vec<Address>,
}

/// A port's interface name in its switch's namespace: `eth1-25` for `1/25`, `eth1-1-2` for the
/// split `1/1/2` (Linux names hold no `/` and at most 15 bytes).
pub fn link_name(port: Port) -> String {
    match port.sub {
        None => format!("eth{}-{}", port.slot, port.port),
        Some(s) => format!("eth{}-{}-{s}", port.slot, port.port),
    }
}

/// An end as its switch is configured: its MTU (the OS's default when none is set) and
/// whether it is administratively up.
fn end(switch: &str, config: &Config, os: Os, port: Port) -> End {
    let i = config.interfaces.get(&Iface::Ethernet(port));
    End {
        switch: switch.to_string(),
        port,
        mtu: i
            .and_then(|i| i.mtu)
            .unwrap_or(crate::fabric::meaning::default_mtu(os)),
        up: i.is_none_or(|i| i.shutdown != Some(true)),
    }
}

impl Plan {
    /// The data plane of the network as `view` has it: the cabling with its faults (a broken
    /// cable is left out: no carrier at either end), each switch's running config.
    pub fn of(view: &View) -> Plan {
        let mut plan = Plan {
            switches: view.nodes.keys().cloned().collect(),
            ..Plan::default()
        };
        for (name, node) in &view.nodes {
            let os = if node.os10 { Os::Os10 } else { Os::Onyx };
            for (port, (far, q)) in view.cabling.ports(name) {
                let Some(fnode) = view.nodes.get(far) else {
                    continue;
                };
                if (name.as_str(), port) >= (far, q)
                    || view.cabling.broken(name, port)
                    || view.cabling.broken(far, q)
                {
                    continue;
                }
                let fos = if fnode.os10 { Os::Os10 } else { Os::Onyx };
                plan.cables.push((
                    end(name, &node.config, os, port),
                    end(far, &fnode.config, fos, q),
                ));
            }
            for (iface, i) in &node.config.interfaces {
                let dev = match iface {
                    Iface::Ethernet(p) => link_name(*p),
                    Iface::Loopback(_) => "lo".to_string(),
                    _ => continue,
                };
                if let Some(net) = i.address {
                    plan.addresses.push(Address {
                        switch: name.clone(),
                        dev,
                        net,
                    });
                }
            }
        }
        plan
    }
}

/// What the data plane needs that this machine lacks, each with how to get it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub what: String,
    pub how: &'static str,
}

/// What the kernel part needs and is missing: `ip` (iproute2) and the right to make network
/// namespaces (root, or CAP_SYS_ADMIN and CAP_NET_ADMIN). Asked of the system, not guessed:
/// a namespace is made and removed.
pub fn missing(prefix: &str) -> Vec<Missing> {
    let mut out = Vec::new();
    let ip = Command::new("ip")
        .arg("-V")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !ip.is_ok_and(|s| s.success()) {
        out.push(Missing {
            what: "the `ip` command (iproute2)".to_string(),
            how: "apt-get install iproute2",
        });
        return out;
    }
    let probe = format!("{prefix}probe");
    match ip_run(&["netns", "add", &probe]) {
        Ok(()) => {
            let _ = ip_run(&["netns", "del", &probe]);
        }
        Err(e) => out.push(Missing {
            what: format!("the right to make network namespaces (`ip netns add`: {e})"),
            how: "run as root (or with CAP_SYS_ADMIN and CAP_NET_ADMIN)",
        }),
    }
    out
}

fn ip_run(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run `ip`: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
}

/// `ip [-n NS] -batch -` with `lines` on its input.
fn ip_batch(ns: Option<&str>, lines: &str) -> Result<(), String> {
    let mut cmd = Command::new("ip");
    if let Some(ns) = ns {
        cmd.args(["-n", ns]);
    }
    let mut child = cmd
        .args(["-batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `ip`: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no input to `ip`")?;
    stdin
        .write_all(lines.as_bytes())
        .map_err(|e| format!("cannot write to `ip`: {e}"))?;
    drop(stdin);
    let out = child
        .wait_with_output()
        .map_err(|e| format!("`ip` did not finish: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "`ip{} -batch` failed: {}",
        ns.map_or(String::new(), |n| format!(" -n {n}")),
        String::from_utf8_lossy(&out.stderr).trim()
    ))
}

/// A data plane built in the kernel: its namespaces, by switch. Dropping it removes them
/// (and with them every veth end and address inside).
pub struct Dataplane {
    namespaces: BTreeMap<String, String>,
}

impl Dataplane {
    /// Builds `plan` in namespaces named `PREFIX<switch>`. On an error, what was made so far
    /// is removed.
    pub fn build(plan: &Plan, prefix: &str) -> Result<Dataplane, String> {
        let mut built = Dataplane {
            namespaces: BTreeMap::new(),
        };
        for sw in &plan.switches {
            let ns = namespace(prefix, sw)?;
            if Path::new("/run/netns").join(&ns).exists() {
                return Err(format!(
                    "network namespace `{ns}` exists already (another lab's, or one left behind: `ip netns del {ns}`)"
                ));
            }
            ip_run(&["netns", "add", &ns]).map_err(|e| format!("`ip netns add {ns}`: {e}"))?;
            built.namespaces.insert(sw.clone(), ns);
        }
        // Each veth is made with both ends in their namespaces at once: no name is ever
        // taken in this one.
        let mut links = String::new();
        for (a, b) in &plan.cables {
            links.push_str(&format!(
                "link add {} netns {} mtu {} type veth peer name {} netns {} mtu {}\n",
                link_name(a.port),
                built.namespaces[&a.switch],
                a.mtu,
                link_name(b.port),
                built.namespaces[&b.switch],
                b.mtu
            ));
        }
        if !links.is_empty() {
            ip_batch(None, &links)?;
        }
        let mut inside: BTreeMap<&str, String> = plan
            .switches
            .iter()
            .map(|s| (s.as_str(), "link set lo up\n".to_string()))
            .collect();
        for e in plan.cables.iter().flat_map(|(a, b)| [a, b]) {
            if e.up {
                let lines = inside.entry(e.switch.as_str()).or_default();
                lines.push_str(&format!("link set {} up\n", link_name(e.port)));
            }
        }
        for a in &plan.addresses {
            let lines = inside.entry(a.switch.as_str()).or_default();
            lines.push_str(&format!("addr add {} dev {}\n", a.net, a.dev));
        }
        for (sw, lines) in &inside {
            ip_batch(Some(&built.namespaces[*sw]), lines)?;
        }
        Ok(built)
    }

    /// The namespace of `switch`.
    pub fn namespace(&self, switch: &str) -> Option<&str> {
        self.namespaces.get(switch).map(String::as_str)
    }
}

impl Drop for Dataplane {
    fn drop(&mut self) {
        for ns in self.namespaces.values() {
            let _ = ip_run(&["netns", "del", ns]);
        }
    }
}

/// `PREFIX<switch>`, refused when it cannot be a namespace's name (a file in `/run/netns`).
fn namespace(prefix: &str, switch: &str) -> Result<String, String> {
    let ns = format!("{prefix}{switch}");
    let fits = !ns.is_empty()
        && ns.len() <= 255
        && ns != "."
        && ns != ".."
        && ns
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if fits {
        Ok(ns)
    } else {
        Err(format!("`{ns}` cannot name a network namespace"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_names_fit_linux() {
        let p: Port = "1/25".parse().unwrap();
        assert_eq!(link_name(p), "eth1-25");
        let s: Port = "1/31/2".parse().unwrap();
        assert_eq!(link_name(s), "eth1-31-2");
        // The largest a port can be read as (four digits at most, a byte for slot and split).
        let largest = Port {
            slot: u8::MAX,
            port: 9999,
            sub: Some(u8::MAX),
        };
        assert_eq!(link_name(largest).len(), 15);
    }

    #[test]
    fn namespace_names_are_plain() {
        assert_eq!(namespace("lab-", "leaf01").unwrap(), "lab-leaf01");
        assert!(namespace("lab-", "a/b").is_err());
        assert!(namespace("", "..").is_err());
    }
}
