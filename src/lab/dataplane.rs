//! The lab's data plane in the Linux kernel: every switch of a network view ([`View`]) and a
//! sample of the fabric's hosts a network namespace; every cable a veth pair whose ends carry
//! the MTU and admin state each end is configured with; per switch a VLAN-filtering bridge
//! per VLAN (`vlanN`, which is also the VLAN's interface) whose ports are the switch's ports
//! in that VLAN; routed ports, VLAN interfaces and
//! loopbacks with their addresses; hosts with their NIC's MTU, an address in their VLAN's
//! subnet and a default route to its gateway. The kernel then answers for the links as it
//! would for real ones: carrier follows the far end, a packet above an interface's MTU is
//! refused with "fragmentation needed", a /31 is a connected route.
//!
//! A [`Plan`] is what the kernel is to hold for one view; [`Dataplane::apply`] makes the
//! kernel go from one plan to the next with the fewest `ip` and `bridge` commands (a port's
//! MTU changed: one `link set`), so that it follows the switches' configurations as they
//! change. Torn down when the [`Dataplane`] is dropped.
//!
//! A bridge per VLAN rather than one VLAN-aware bridge: kernels without
//! `CONFIG_BRIDGE_VLAN_FILTERING` or 802.1Q (this project's CI machines) have bridges.
//! Not modelled (each said in [`Plan::unmodelled`]): port-channels and MLAG (a bundle's
//! member ports carry nothing, so two switches' parallel members never make a loop; the same
//! kernels have no bonding either), hosts on bundles, a trunk of more than one VLAN (no tags
//! on a veth: a trunk of one VLAN carries it untagged); spanning tree is the kernel's 802.1D
//! where a bridge could close a loop, whatever the switch runs.
//!
//! Input: a [`View`] and the hosts ([`hosts`]); output: namespaces in the kernel. Nothing here
//! prints.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::net::Ipv4Addr;
use std::path::Path;
use std::process::{Command, Stdio};

use super::view::View;
use crate::fabric::{Fabric, Os};
pub use crate::hosts::groups::HostPort;
use crate::onyx::Config;
use crate::types::Iface;
use crate::types::{Ipv4Net, Port, Vlan};

/// The largest MTU a switch port may have: a VLAN's bridge where the switch has no VLAN
/// interface.
const MAX_MTU: u16 = 9216;

/// One end of a cable: its namespace's node (switch or host), its interface there, the MTU
/// and admin state configured there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub node: String,
    pub dev: String,
    pub mtu: u16,
    pub up: bool,
}

/// A VLAN of a switch: a bridge named `vlanN` whose ports are the switch's ports in the VLAN
/// and which is the VLAN's interface (`interface vlan N`: its MTU and address) too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bridge {
    pub switch: String,
    pub vlan: u16,
    /// The VLAN interface's MTU (the largest a port may have where the switch has none: the
    /// bridge then routes nothing).
    pub mtu: u16,
    /// Spanning tree on: where two or more of its ports face switches (only then can a loop
    /// pass through it); the kernel's 802.1D, forwarding 4 s after a port joins.
    pub stp: bool,
}

/// A switch port in its VLAN's bridge.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct BridgePort {
    pub switch: String,
    pub dev: String,
    pub vlan: u16,
}

/// An address on an interface of a node.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Address {
    pub node: String,
    /// The interface's name in the namespace ([`link_name`], `vlanN`, `lo`, a host's NIC).
    pub dev: String,
    pub net: Ipv4Net,
}

/// A host's default route: in its main table (through its first NIC port), or in the table
/// of one NIC port (`table`), which a rule picks for packets from that port's address, as a
/// host with a NIC per rail routes each rail's traffic out of its own port.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Route {
    pub node: String,
    pub dev: String,
    pub via: Ipv4Addr,
    pub table: Option<u32>,
}

/// A host's rule: packets from `from` are routed by `table`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rule {
    pub node: String,
    pub from: Ipv4Addr,
    pub table: u32,
}

/// The routing table of a host's n-th NIC port (from 0).
const FIRST_TABLE: u32 = 100;

/// What the kernel is to hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub switches: Vec<String>,
    /// Each host's name, once (its NIC ports are in `host_ports`).
    pub hosts: Vec<String>,
    pub host_ports: Vec<HostPort>,
    /// Each cable once, switch–switch ends in name order, switch–host the switch's first.
    pub cables: Vec<(End, End)>,
    pub bridges: Vec<Bridge>,
    pub bridge_ports: Vec<BridgePort>,
    pub addresses: Vec<Address>,
    pub routes: Vec<Route>,
    pub rules: Vec<Rule>,
    /// What the switches are configured with that the kernel does not carry, one line each.
    pub unmodelled: Vec<String>,
}

/// A port's interface name in its switch's namespace: `eth1-25` for `1/25`, `eth1-1-2` for the
/// split `1/1/2` (Linux names hold no `/` and at most 15 bytes).
pub fn link_name(port: Port) -> String {
    match port.sub {
        None => format!("eth{}-{}", port.slot, port.port),
        Some(s) => format!("eth{}-{}-{s}", port.slot, port.port),
    }
}

/// The port a [`link_name`] names.
pub fn port_of(dev: &str) -> Option<Port> {
    let mut parts = dev.strip_prefix("eth")?.split('-');
    let slot = parts.next()?.parse().ok()?;
    let port = parts.next()?.parse().ok()?;
    let sub = match parts.next() {
        Some(s) => Some(s.parse().ok()?),
        None => None,
    };
    parts.next().is_none().then_some(Port { slot, port, sub })
}

/// A VLAN interface's name in the namespace.
pub fn vlan_name(vlan: u16) -> String {
    format!("vlan{vlan}")
}

fn os_of(node: &super::network::Node) -> Os {
    node.os
}

/// A port's MTU as its switch is configured (the OS's default when none is set) and whether
/// it is administratively up.
fn port_state(config: &Config, os: Os, port: Port) -> (u16, bool) {
    let i = config.interfaces.get(&Iface::Ethernet(port));
    (
        i.and_then(|i| i.mtu)
            .unwrap_or(crate::fabric::meaning::default_mtu(os)),
        i.is_none_or(|i| i.shutdown != Some(true)),
    )
}

/// The hosts of `fabric` the lab cables: at most `per_group` of each group
/// ([`crate::hosts::groups::sample`]), and what was left out and why.
pub fn hosts(fabric: &Fabric, per_group: usize) -> (Vec<HostPort>, Vec<String>) {
    crate::hosts::groups::sample(fabric, per_group, |_| true)
}

impl Plan {
    /// The data plane of the network as `view` has it, with `hosts` cabled to their switch
    /// ports: the cabling with its faults (a broken cable is left out: no carrier at either
    /// end), each switch's running config.
    pub fn of(view: &View, hosts: &[HostPort]) -> Plan {
        let mut plan = Plan {
            switches: view.nodes.keys().cloned().collect(),
            ..Plan::default()
        };
        // Every port that has a veth in its switch's namespace.
        let mut cabled: BTreeMap<&str, BTreeSet<Port>> = BTreeMap::new();
        plan.switch_cables(view, &mut cabled);
        plan.host_cables(view, hosts, &mut cabled);
        plan.host_ports = hosts.to_vec();
        let mut host_ports: BTreeMap<&str, BTreeSet<Port>> = BTreeMap::new();
        for h in hosts {
            host_ports
                .entry(h.switch.as_str())
                .or_default()
                .insert(h.port);
        }
        for (name, node) in &view.nodes {
            let none = BTreeSet::new();
            let ports = cabled.get(name.as_str()).unwrap_or(&none);
            let facing_hosts = host_ports.get(name.as_str()).unwrap_or(&none);
            plan.switch(name, &node.config, os_of(node), ports, facing_hosts);
        }
        plan
    }

    /// The cables between switches that are not broken, each once; their ports in `cabled`.
    fn switch_cables<'a>(
        &mut self,
        view: &'a View,
        cabled: &mut BTreeMap<&'a str, BTreeSet<Port>>,
    ) {
        for (name, node) in &view.nodes {
            let os = os_of(node);
            for (port, (far, q)) in view.cabling.ports(name) {
                let Some(fnode) = view.nodes.get(far) else {
                    continue;
                };
                if view.cabling.broken(name, port) || view.cabling.broken(far, q) {
                    continue;
                }
                cabled.entry(name.as_str()).or_default().insert(port);
                if (name.as_str(), port) >= (far, q) {
                    continue;
                }
                let (mtu, up) = port_state(&node.config, os, port);
                let (fmtu, fup) = port_state(&fnode.config, os_of(fnode), q);
                self.cables.push((
                    End {
                        node: name.clone(),
                        dev: link_name(port),
                        mtu,
                        up,
                    },
                    End {
                        node: far.to_string(),
                        dev: link_name(q),
                        mtu: fmtu,
                        up: fup,
                    },
                ));
            }
        }
    }

    /// The hosts on the view's switches, their cables that are not broken (their switch
    /// ports in `cabled`), addresses and routes.
    fn host_cables<'a>(
        &mut self,
        view: &View,
        hosts: &'a [HostPort],
        cabled: &mut BTreeMap<&'a str, BTreeSet<Port>>,
    ) {
        let mut host_names = BTreeSet::new();
        let mut routed_hosts = BTreeSet::new();
        for h in hosts {
            let Some(node) = view.nodes.get(&h.switch) else {
                continue;
            };
            host_names.insert(h.host.clone());
            if view.cabling.broken(&h.switch, h.port) {
                continue;
            }
            cabled.entry(h.switch.as_str()).or_default().insert(h.port);
            let (mtu, up) = port_state(&node.config, os_of(node), h.port);
            self.cables.push((
                End {
                    node: h.switch.clone(),
                    dev: link_name(h.port),
                    mtu,
                    up,
                },
                End {
                    node: h.host.clone(),
                    dev: h.nic.clone(),
                    mtu: h.mtu,
                    up: true,
                },
            ));
            if let Some(a) = h.address {
                self.host_address(h, a, &mut routed_hosts);
            }
        }
        self.hosts = host_names.into_iter().collect();
    }

    /// A host port's address `a`, and its routes through its gateway (`routed_hosts`: the
    /// hosts with a default route already).
    fn host_address(&mut self, h: &HostPort, a: Ipv4Net, routed_hosts: &mut BTreeSet<String>) {
        self.addresses.push(Address {
            node: h.host.clone(),
            dev: h.nic.clone(),
            net: a,
        });
        // The host's default route through its first NIC port with a gateway; each
        // port's own, in its table, for packets from its address.
        let Some(gw) = h.gateway else {
            return;
        };
        let n = self.rules.iter().filter(|r| r.node == h.host).count();
        let table = FIRST_TABLE + n as u32;
        self.rules.push(Rule {
            node: h.host.clone(),
            from: a.addr,
            table,
        });
        for table in [Some(table), None] {
            if table.is_some() || routed_hosts.insert(h.host.clone()) {
                self.routes.push(Route {
                    node: h.host.clone(),
                    dev: h.nic.clone(),
                    via: gw,
                    table,
                });
            }
        }
    }

    /// What `config` puts in the switch's namespace besides its cables: a bridge per VLAN
    /// with ports in it or an interface, addresses.
    /// `cabled`: its ports with a veth; `host_ports`: those a host is on.
    fn switch(
        &mut self,
        name: &str,
        config: &Config,
        os: Os,
        cabled: &BTreeSet<Port>,
        host_ports: &BTreeSet<Port>,
    ) {
        let (vlans, facing) = self.vlan_ports(name, config, cabled, host_ports);
        let svis = self.interface_addresses(name, config, os, cabled);
        let ids: BTreeSet<u16> = vlans.keys().chain(svis.keys()).copied().collect();
        for vlan in ids {
            self.bridges.push(Bridge {
                switch: name.to_string(),
                vlan,
                mtu: svis.get(&vlan).map_or(MAX_MTU, |s| s.0),
                stp: facing.get(&vlan).copied().unwrap_or(0) >= 2,
            });
        }
    }

    /// The cabled ports of one VLAN each, as ports of its bridge; what the others (in a
    /// bundle, a trunk of several VLANs) leave unmodelled said. Each VLAN's ports, and how
    /// many of them face a switch.
    fn vlan_ports(
        &mut self,
        name: &str,
        config: &Config,
        cabled: &BTreeSet<Port>,
        host_ports: &BTreeSet<Port>,
    ) -> (BTreeMap<u16, usize>, BTreeMap<u16, usize>) {
        let (mut bundled, mut trunks) = (0, 0);
        let mut vlans: BTreeMap<u16, usize> = BTreeMap::new();
        let mut facing: BTreeMap<u16, usize> = BTreeMap::new();
        for &p in cabled {
            let default = crate::onyx::Interface::default();
            let i = config
                .interfaces
                .get(&Iface::Ethernet(p))
                .unwrap_or(&default);
            if i.channel_group.is_some() {
                bundled += 1;
                continue;
            }
            if i.routed {
                continue;
            }
            let (carried, all) = i.vlans();
            let carried: Vec<Vlan> = carried
                .into_iter()
                .filter(|v| vlan_exists(config, *v))
                .collect();
            let [v] = carried[..] else {
                if all || carried.len() > 1 {
                    trunks += 1;
                }
                continue;
            };
            if all {
                trunks += 1;
                continue;
            }
            *vlans.entry(v.get()).or_default() += 1;
            if !host_ports.contains(&p) {
                *facing.entry(v.get()).or_default() += 1;
            }
            self.bridge_ports.push(BridgePort {
                switch: name.to_string(),
                dev: link_name(p),
                vlan: v.get(),
            });
        }
        if bundled > 0 {
            self.unmodelled.push(format!(
                "{name}: {bundled} cabled port(s) in port-channels carry nothing (bundles and MLAG are not modelled)"
            ));
        }
        if trunks > 0 {
            self.unmodelled.push(format!(
                "{name}: {trunks} cabled trunk port(s) of several VLANs carry nothing (no 802.1Q tags on the lab's links)"
            ));
        }
        (vlans, facing)
    }

    /// The addresses of the switch's routed cabled ports, loopbacks and VLAN interfaces that
    /// are up; each VLAN interface's MTU and admin state, by VLAN.
    fn interface_addresses(
        &mut self,
        name: &str,
        config: &Config,
        os: Os,
        cabled: &BTreeSet<Port>,
    ) -> BTreeMap<u16, (u16, bool)> {
        let mut svis: BTreeMap<u16, (u16, bool)> = BTreeMap::new();
        for (iface, i) in &config.interfaces {
            let dev = match iface {
                Iface::Ethernet(p) if i.routed && cabled.contains(p) => link_name(*p),
                Iface::Loopback(_) => "lo".to_string(),
                Iface::Vlan(v) if vlan_exists(config, *v) => {
                    let up = i.shutdown != Some(true);
                    let mtu = i
                        .mtu
                        .unwrap_or(crate::fabric::meaning::default_mtu(os))
                        .min(MAX_MTU);
                    svis.insert(v.get(), (mtu, up));
                    // A VLAN interface that is shut routes nothing: no address.
                    if !up {
                        continue;
                    }
                    vlan_name(v.get())
                }
                _ => continue,
            };
            if let Some(net) = i.address {
                self.addresses.push(Address {
                    node: name.to_string(),
                    dev,
                    net,
                });
            }
        }
        svis
    }
}

/// Whether the switch has VLAN `v` (the default VLAN always).
fn vlan_exists(config: &Config, v: Vlan) -> bool {
    v == Vlan::DEFAULT || config.vlans.contains_key(&v)
}

/// What the data plane needs that this machine lacks, each with how to get it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub what: String,
    pub how: &'static str,
}

/// What the kernel part needs and is missing: `ip` (iproute2), `ping`
/// (iputils-ping, for `fabric verify --paths`), the right to make network namespaces (root,
/// or CAP_SYS_ADMIN and CAP_NET_ADMIN) and bridges in them. Asked of the system, not guessed:
/// a namespace with a bridge is made and removed.
pub fn missing(prefix: &str) -> Vec<Missing> {
    let mut out = Vec::new();
    let runs = |cmd: &str, arg: &str| {
        Command::new(cmd)
            .arg(arg)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !runs("ip", "-V") {
        out.push(Missing {
            what: "the `ip` command (iproute2)".to_string(),
            how: "apt-get install -y iproute2",
        });
        return out;
    }
    if !runs("ping", "-V") {
        out.push(Missing {
            what: "the `ping` command (iputils)".to_string(),
            how: "apt-get install -y iputils-ping",
        });
    }
    let probe = format!("{prefix}probe{}", std::process::id());
    match ip_run(&["netns", "add", &probe]) {
        Ok(()) => {
            if let Err(e) = ip_run(&["-n", &probe, "link", "add", "vlan1", "type", "bridge"]) {
                out.push(Missing {
                    what: format!(
                        "bridges in a network namespace (`ip link add type bridge`: {e})"
                    ),
                    how: "a kernel with bridging (CONFIG_BRIDGE; `modprobe bridge`)",
                });
            }
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

/// `ip [-n NS] -force -batch -` with `lines` on its input: every line is tried; the errors
/// of those that failed.
fn batch(ns: Option<&str>, lines: &str) -> Result<(), String> {
    let tool = "ip";
    let mut cmd = Command::new(tool);
    if let Some(ns) = ns {
        cmd.args(["-n", ns]);
    }
    let mut child = cmd
        .args(["-force", "-batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{tool}`: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no input to `ip`")?;
    stdin
        .write_all(lines.as_bytes())
        .map_err(|e| format!("cannot write to `{tool}`: {e}"))?;
    drop(stdin);
    let out = child
        .wait_with_output()
        .map_err(|e| format!("`{tool}` did not finish: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "`{tool}{} -batch`: {}",
        ns.map_or(String::new(), |n| format!(" -n {n}")),
        String::from_utf8_lossy(&out.stderr).trim()
    ))
}

/// The commands one change makes in one namespace, in the order they must run.
#[derive(Default)]
struct Steps {
    /// Interfaces removed, ports leaving bridges.
    remove: String,
    /// Bridges made.
    make: String,
    /// MTUs, bridge membership, admin state, spanning tree.
    set: String,
    /// Addresses removed, then added.
    addr: String,
    /// Routes and rules.
    route: String,
}

/// An interface of a node: its node and name.
type Dev = (String, String);

fn dev(node: &str, name: &str) -> Dev {
    (node.to_string(), name.to_string())
}

/// One change of the kernel from the plan it holds (`old`) to `new`: the commands of each
/// namespace, and what the cables and bridges made or removed mean for the rest.
struct Change<'a> {
    old: &'a Plan,
    new: &'a Plan,
    steps: BTreeMap<String, Steps>,
    /// Interfaces made by this change (nothing of the old plan is on them) and removed.
    fresh: BTreeSet<Dev>,
    gone: BTreeSet<Dev>,
    /// Cable ends whose MTU changed.
    resized: BTreeSet<Dev>,
    /// Bridges whose ports or MTU changed: their MTU set again after (the kernel moves a
    /// bridge's MTU with its ports' until it is set).
    touched: BTreeSet<(String, u16)>,
}

/// What of `old` is not in `new` and what of `new` is not in `old`, `old` as `kept` leaves
/// it.
fn differ<'a, T: Ord>(
    old: &'a [T],
    new: &'a [T],
    kept: impl Fn(&T) -> bool,
) -> (Vec<&'a T>, Vec<&'a T>) {
    let old: BTreeSet<&T> = old.iter().filter(|x| kept(x)).collect();
    let new: BTreeSet<&T> = new.iter().collect();
    (
        old.difference(&new).copied().collect(),
        new.difference(&old).copied().collect(),
    )
}

impl Change<'_> {
    fn steps(&mut self, node: &str) -> &mut Steps {
        self.steps.entry(node.to_string()).or_default()
    }

    /// Whether the old plan's fact on `node`'s `dev` still holds in the kernel: its interface
    /// was neither made nor removed by this change.
    fn kept(&self, node: &str, name: &str) -> bool {
        let d = dev(node, name);
        !self.fresh.contains(&d) && !self.gone.contains(&d)
    }

    /// Cables removed and made (one `ip` batch of the root namespace, both ends placed at
    /// once: no name is ever taken there), each end's MTU and admin state.
    fn cables(&mut self, namespaces: &BTreeMap<String, String>) -> Result<(), String> {
        let key =
            |(a, b): &(End, End)| (a.node.clone(), a.dev.clone(), b.node.clone(), b.dev.clone());
        let old: BTreeMap<_, _> = self.old.cables.iter().map(|c| (key(c), c)).collect();
        let new: BTreeMap<_, _> = self.new.cables.iter().map(|c| (key(c), c)).collect();
        for (k, (a, b)) in &old {
            if !new.contains_key(k) {
                let _ = writeln!(self.steps(&a.node).remove, "link del dev {}", a.dev);
                self.gone.insert(dev(&a.node, &a.dev));
                self.gone.insert(dev(&b.node, &b.dev));
            }
        }
        let mut links = String::new();
        let mut errors = Vec::new();
        for (k, (a, b)) in &new {
            let was = old.get(k);
            if was.is_none() {
                let (Some(na), Some(nb)) = (namespaces.get(&a.node), namespaces.get(&b.node))
                else {
                    errors.push(format!(
                        "{} {} – {} {}: no namespace",
                        a.node, a.dev, b.node, b.dev
                    ));
                    continue;
                };
                let _ = writeln!(
                    links,
                    "link add {} netns {na} mtu {} type veth peer name {} netns {nb} mtu {}",
                    a.dev, a.mtu, b.dev, b.mtu
                );
                for e in [a, b] {
                    self.fresh.insert(dev(&e.node, &e.dev));
                    self.gone.remove(&dev(&e.node, &e.dev));
                }
            }
            let ends = was.map(|(oa, ob)| [(oa.mtu, oa.up), (ob.mtu, ob.up)]);
            for (i, e) in [a, b].into_iter().enumerate() {
                // A new veth has its MTU already and is down.
                let (mtu, up) = ends.map_or((e.mtu, false), |o| o[i]);
                if mtu != e.mtu {
                    let _ = writeln!(
                        self.steps(&e.node).set,
                        "link set dev {} mtu {}",
                        e.dev,
                        e.mtu
                    );
                    self.resized.insert(dev(&e.node, &e.dev));
                }
                if up != e.up {
                    let state = if e.up { "up" } else { "down" };
                    let _ = writeln!(self.steps(&e.node).set, "link set dev {} {state}", e.dev);
                }
            }
        }
        if !links.is_empty()
            && let Err(e) = batch(None, &links)
        {
            errors.push(e);
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    }

    /// Bridges made and removed, their spanning tree; a new bridge is a fresh interface.
    fn bridges(&mut self) {
        let key = |b: &Bridge| (b.switch.clone(), b.vlan);
        let old: BTreeMap<_, _> = self.old.bridges.iter().map(|b| (key(b), b)).collect();
        let new: BTreeMap<_, _> = self.new.bridges.iter().map(|b| (key(b), b)).collect();
        for (sw, vlan) in old.keys() {
            if !new.contains_key(&(sw.clone(), *vlan)) {
                let _ = writeln!(self.steps(sw).remove, "link del dev {}", vlan_name(*vlan));
                self.gone.insert(dev(sw, &vlan_name(*vlan)));
            }
        }
        for ((sw, vlan), b) in &new {
            let name = vlan_name(*vlan);
            match old.get(&(sw.clone(), *vlan)) {
                None => {
                    let stp = u8::from(b.stp);
                    let s = self.steps(sw);
                    let _ = writeln!(
                        s.make,
                        "link add {name} type bridge stp_state {stp} forward_delay 200"
                    );
                    let _ = writeln!(s.set, "link set dev {name} up");
                    self.fresh.insert(dev(sw, &name));
                    self.touched.insert((sw.clone(), *vlan));
                }
                Some(o) => {
                    if o.stp != b.stp {
                        let stp = u8::from(b.stp);
                        let _ = writeln!(
                            self.steps(sw).set,
                            "link set dev {name} type bridge stp_state {stp}"
                        );
                    }
                    if o.mtu != b.mtu {
                        self.touched.insert((sw.clone(), *vlan));
                    }
                }
            }
        }
    }

    /// Ports leaving and joining bridges; then the MTU of every bridge touched.
    fn bridge_ports(&mut self) {
        let (gone, made) = differ(&self.old.bridge_ports, &self.new.bridge_ports, |p| {
            self.kept(&p.switch, &p.dev)
        });
        for p in gone {
            let line = format!("link set dev {} nomaster\n", p.dev);
            self.steps(&p.switch).remove.push_str(&line);
            self.touched.insert((p.switch.clone(), p.vlan));
        }
        for p in made {
            let line = format!("link set dev {} master {}\n", p.dev, vlan_name(p.vlan));
            self.steps(&p.switch).set.push_str(&line);
            self.touched.insert((p.switch.clone(), p.vlan));
        }
        // A port whose MTU changed moves its bridge's too.
        for p in &self.new.bridge_ports {
            if self.resized.contains(&dev(&p.switch, &p.dev)) {
                self.touched.insert((p.switch.clone(), p.vlan));
            }
        }
        let touched = std::mem::take(&mut self.touched);
        for b in self
            .new
            .bridges
            .iter()
            .filter(|b| touched.contains(&(b.switch.clone(), b.vlan)))
        {
            let line = format!("link set dev {} mtu {}\n", vlan_name(b.vlan), b.mtu);
            self.steps(&b.switch).set.push_str(&line);
        }
    }

    /// Addresses taken away and given; those on interfaces made or removed by this change
    /// are not the kernel's any more.
    fn addresses(&mut self) {
        let (gone, made) = differ(&self.old.addresses, &self.new.addresses, |a| {
            self.kept(&a.node, &a.dev)
        });
        for (verb, a) in gone
            .into_iter()
            .map(|a| ("del", a))
            .chain(made.into_iter().map(|a| ("add", a)))
        {
            let line = format!("addr {verb} {} dev {}\n", a.net, a.dev);
            self.steps(&a.node).addr.push_str(&line);
        }
    }

    /// Routes (as addresses are) and rules (the namespace's: they stay until taken away).
    fn routes(&mut self) {
        let (gone, made) = differ(&self.old.routes, &self.new.routes, |r| {
            self.kept(&r.node, &r.dev)
        });
        for (verb, r) in gone
            .into_iter()
            .map(|r| ("del", r))
            .chain(made.into_iter().map(|r| ("replace", r)))
        {
            let table = r.table.map_or(String::new(), |t| format!(" table {t}"));
            let line = format!("route {verb} default via {} dev {}{table}\n", r.via, r.dev);
            self.steps(&r.node).route.push_str(&line);
        }
        let (gone, made) = differ(&self.old.rules, &self.new.rules, |_| true);
        for (verb, r) in gone
            .into_iter()
            .map(|r| ("del", r))
            .chain(made.into_iter().map(|r| ("add", r)))
        {
            let line = format!("rule {verb} from {} table {}\n", r.from, r.table);
            self.steps(&r.node).route.push_str(&line);
        }
    }
}

/// A data plane built in the kernel: its namespaces, by node, and the plan it holds. Dropping
/// it removes the namespaces (and with them every interface and address inside).
pub struct Dataplane {
    namespaces: BTreeMap<String, String>,
    applied: Plan,
}

impl Dataplane {
    /// Makes a namespace `PREFIX<node>` for every switch and host of `plan`, then builds
    /// `plan` in them. On an error, what was made so far is removed.
    pub fn build(plan: &Plan, prefix: &str) -> Result<Dataplane, String> {
        let mut built = Dataplane {
            namespaces: BTreeMap::new(),
            applied: Plan::default(),
        };
        for node in plan.switches.iter().chain(&plan.hosts) {
            let ns = namespace(prefix, node)?;
            if Path::new("/run/netns").join(&ns).exists() {
                return Err(format!(
                    "network namespace `{ns}` exists already (another lab's, or one left behind: `ip netns del {ns}`)"
                ));
            }
            ip_run(&["netns", "add", &ns]).map_err(|e| format!("`ip netns add {ns}`: {e}"))?;
            built.namespaces.insert(node.clone(), ns);
        }
        for sw in &plan.switches {
            let ns = &built.namespaces[sw];
            // Forwarding on, reverse-path filtering off (ECMP paths come back asymmetric),
            // ECMP hashed on the ports too: in the namespace's own /proc/sys/net.
            sysctl(
                ns,
                &[
                    ("net/ipv4/ip_forward", "1"),
                    ("net/ipv4/conf/all/rp_filter", "0"),
                    ("net/ipv4/conf/default/rp_filter", "0"),
                    ("net/ipv4/fib_multipath_hash_policy", "1"),
                ],
            )?;
        }
        for ns in built.namespaces.values() {
            batch(Some(ns), "link set lo up\n")?;
        }
        built.apply(plan)?;
        Ok(built)
    }

    /// The namespace of a switch or host.
    pub fn namespace(&self, node: &str) -> Option<&str> {
        self.namespaces.get(node).map(String::as_str)
    }

    /// The plan the kernel holds.
    pub fn plan(&self) -> &Plan {
        &self.applied
    }

    /// Takes the kernel from the plan it holds to `new` with the commands that differ: a
    /// cable made or removed, an end's MTU or state, a port's bridge, a bridge's MTU, an
    /// address, a route. Every command is tried; the errors of those that failed (the kernel
    /// then holds the rest).
    pub fn apply(&mut self, new: &Plan) -> Result<(), String> {
        let old = std::mem::take(&mut self.applied);
        let mut change = Change {
            old: &old,
            new,
            steps: BTreeMap::new(),
            fresh: BTreeSet::new(),
            gone: BTreeSet::new(),
            resized: BTreeSet::new(),
            touched: BTreeSet::new(),
        };
        let mut errors = Vec::new();
        if let Err(e) = change.cables(&self.namespaces) {
            errors.push(e);
        }
        change.bridges();
        change.bridge_ports();
        change.addresses();
        change.routes();
        for (node, s) in &change.steps {
            let Some(ns) = self.namespaces.get(node) else {
                continue;
            };
            let lines = [&s.remove, &s.make, &s.set, &s.addr, &s.route]
                .into_iter()
                .map(String::as_str)
                .collect::<String>();
            if !lines.is_empty()
                && let Err(e) = batch(Some(ns), &lines)
            {
                errors.push(e);
            }
        }
        self.applied = new.clone();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors.join("; "))
        }
    }
}

impl Drop for Dataplane {
    fn drop(&mut self) {
        for ns in self.namespaces.values() {
            let _ = ip_run(&["netns", "del", ns]);
        }
    }
}

/// Writes `settings` (paths under `/proc/sys`) in the namespace `ns`.
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

/// `PREFIX<node>`, refused when it cannot be a namespace's name (a file in `/run/netns`).
fn namespace(prefix: &str, node: &str) -> Result<String, String> {
    let ns = format!("{prefix}{node}");
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
    fn port_names_fit_linux_and_read_back() {
        let p: Port = "1/25".parse().unwrap();
        assert_eq!(link_name(p), "eth1-25");
        assert_eq!(port_of("eth1-25"), Some(p));
        let s: Port = "1/31/2".parse().unwrap();
        assert_eq!(link_name(s), "eth1-31-2");
        assert_eq!(port_of("eth1-31-2"), Some(s));
        assert_eq!(port_of("vlan10"), None);
        assert_eq!(port_of("eth1-2-3-4"), None);
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
