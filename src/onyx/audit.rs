//! Onyx behind `fabric audit` ([`crate::targets::Audit`], [`crate::targets::Audited`]): the
//! RoCE view of an Onyx configuration (exactly what the rules have always read of it, its
//! per-port flow control from the lines the model keeps verbatim), the lines that fix a
//! finding as Onyx spells them, drift from a fabric's switch as Onyx's plan groups it, and a
//! live switch's running config and unsaved changes. Onyx has every part the rules read
//! beyond the view: traffic pools, the `roce` mode, and routing and MLAG in its own model.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use super::target::Onyx;
use super::{BgpCmd, Command, Config, Iface, IfaceRange, Interface, Protocol};
use crate::audit::view::{BgpView, Pfc, PortView, SessionView, View, VlanIface, routed_nets};
use crate::audit::{Drift, Part};
use crate::device::{Cli, Error, Options, Target};
use crate::fabric::{Hardware, Switch};
use crate::targets::{self, Fix, Fixes};
use crate::types::{Ecn, Ets, PoolType, Port, RoceMode, Trust, read_port_span};

/// A BGP session's hold time without `timers`: 180 s (`show ip bgp neighbors`, Cray's CSM
/// capture).
const DEFAULT_HOLD: u16 = 180;

/// Onyx's fixes: its one-line commands, `force` where Onyx asks for it.
pub static FIXES: Fixes = Fixes {
    a: "an Onyx",
    ecn: Some(|tc: u8, ecn: &Ecn| format!("traffic-class {tc} congestion-control {ecn}")),
    ets: Some(|tc: u8, ets: Ets| format!("traffic-class {tc} dcb ets {ets}")),
    trust_l3: Some("qos trust L3"),
    pfc_mode: Some("dcb priority-flow-control mode on force"),
    mtu: |mtu: u16| format!("mtu {mtu} force"),
    pfc_priority: Some(|p: u8| format!("dcb priority-flow-control priority {p} enable")),
    save: Some("configuration write"),
    dcbx_off: ("RoCE is configured but LLDP is off", Some("lldp")),
    pfc_mode_alone: (
        "ports are in PFC mode but PFC is not enabled globally",
        Some("dcb priority-flow-control enable force"),
    ),
    pfc_global: (
        "PFC is enabled globally",
        Some("dcb priority-flow-control enable force"),
    ),
    bfd: "protocol bfd",
    neighbor_bfd: |asn: u32, addr: Ipv4Addr| {
        Fix::Line(Command::Bgp(asn, BgpCmd::FallOverBfd(addr, true)).to_string())
    },
};

impl targets::Audit for Onyx {
    fn parts(&self) -> &'static [Part] {
        &[Part::Pools, Part::RoceMode, Part::Routing]
    }

    fn fixes(&self) -> &'static Fixes {
        &FIXES
    }

    /// Onyx configures interfaces on one line: `interface ethernet 1/1-1/8 mtu 9216 force`.
    fn on_interfaces(&self, _r: IfaceRange, name: &str, line: &str) -> String {
        format!("interface {name} {line}")
    }

    /// One port as Onyx names it (`1/10`, `1/31/2`), nothing after it.
    fn described_port(&self, text: &str) -> Option<Port> {
        read_port_span(text.as_bytes())
            .filter(|((peer, last), n)| peer == last && *n == text.len())
            .map(|((peer, _), _)| peer)
    }

    /// `show running-config`; `show configuration files` says whether changes are unsaved.
    fn read_live(
        &self,
        target: &Target,
        opts: &Options,
    ) -> Result<(Box<dyn targets::Config>, bool), Error> {
        let mut cli = Cli::open_as(target, opts, &super::dialect::DIALECT)?;
        let (_, config) = super::dialect::fetch(&mut cli)?;
        let unsaved = super::listings::files(&mut cli)?.unsaved;
        cli.close();
        Ok((Box::new(config), unsaved))
    }
}

impl targets::Audited for Config {
    fn view(&self, hardware: Option<Hardware>) -> View {
        view(self, hardware)
    }

    fn onyx_model(&self) -> Option<&Config> {
        Some(self)
    }

    fn descriptions(&self) -> Vec<(Port, &str)> {
        self.interfaces
            .iter()
            .filter_map(|(k, i)| match (k, &i.description) {
                (Iface::Ethernet(p), Some(d)) => Some((*p, d.as_str())),
                _ => None,
            })
            .collect()
    }

    fn drift(&self, sw: &Switch) -> Vec<Drift> {
        drift(self, sw)
    }
}

/// The view of an Onyx configuration: exactly what the rules have always read of it.
fn view(config: &Config, hardware: Option<Hardware>) -> View {
    let mut lossless: BTreeSet<u8> = config
        .pools
        .values()
        .filter(|p| p.kind == Some(PoolType::Lossless))
        .flat_map(|p| p.priorities.iter().map(|p| p.get()))
        .collect();
    let pfc = Pfc {
        enabled: config.pfc.enabled,
        priorities: if config.pfc.enabled {
            config.pfc.priorities.iter().map(|p| p.get()).collect()
        } else {
            BTreeSet::new()
        },
    };
    if matches!(config.roce, Some(RoceMode::Lossless)) {
        lossless.insert(3);
    }
    View {
        os: super::target::OS,
        ports: ports(config),
        pfc,
        lossless_pools: Some(lossless),
        roce_mode: config.roce,
        dcbx: config.lldp,
        default_port: PortView::default(),
        default_trust: Some(Trust::L2),
        default_mtu: crate::fabric::meaning::default_mtu(super::target::OS),
        hardware,
        vlan_ifaces: config
            .interfaces
            .iter()
            .filter_map(|(k, i)| match k {
                Iface::Vlan(v) if i.address.is_some() => Some((*v, VlanIface { mtu: i.mtu })),
                _ => None,
            })
            .collect(),
        bgp: bgp(config),
    }
}

/// The Ethernet ports, port-channels and MLAG port-channels, in order.
fn ports(config: &Config) -> BTreeMap<Iface, PortView> {
    let ipl_channels: BTreeSet<u16> = config
        .interfaces
        .iter()
        .filter_map(|(k, i)| match (k, i.ipl) {
            (Iface::PortChannel(n), Some(_)) => Some(*n),
            _ => None,
        })
        .collect();
    let pause = flowcontrol(config);
    config
        .interfaces
        .iter()
        .filter(|(k, _)| {
            matches!(
                k,
                Iface::Ethernet(_) | Iface::PortChannel(_) | Iface::MlagPortChannel(_)
            )
        })
        .map(|(k, i)| {
            let paused = matches!(k, Iface::Ethernet(p) if pause.contains(p));
            (*k, port(i, paused, &ipl_channels))
        })
        .collect()
}

/// One port's view: `paused` by 802.3x flow control; `ipl_channels`, the IPL port-channels.
fn port(i: &Interface, paused: bool, ipl_channels: &BTreeSet<u16>) -> PortView {
    let mut bare = i.clone();
    bare.split = None;
    bare.shutdown = None;
    PortView {
        trust: i.trust,
        pfc: i.pfc,
        ecn: i.ecn,
        ets: i.ets,
        mtu: i.mtu,
        speed: i.speed.map(|s| s.speed),
        pause: paused,
        description: i.description.is_some(),
        shutdown: i.shutdown,
        configured: bare != Interface::default(),
        lag: i.channel_group.map(|g| {
            if g.mlag {
                Iface::MlagPortChannel(g.id)
            } else {
                Iface::PortChannel(g.id)
            }
        }),
        ipl_member: i
            .channel_group
            .is_some_and(|g| !g.mlag && ipl_channels.contains(&g.id)),
        ipl: i.ipl.is_some(),
        split: i.split,
        vlans: i.vlans().0.iter().map(|v| v.get()).collect(),
        all_vlans: i.vlans().1,
        routed: i.routed && i.address.is_some(),
    }
}

/// The switch's BGP sessions, for the failure-detection rule.
fn bgp(config: &Config) -> Option<BgpView> {
    let b = config.bgp.as_ref()?;
    Some(BgpView {
        asn: b.asn,
        routed: routed_nets(config.interfaces.iter().map(|(k, i)| {
            let port = matches!(k, Iface::Ethernet(_) | Iface::PortChannel(_));
            (port, i.routed, i.address)
        })),
        bfd: config.protocols.contains(&Protocol::Bfd),
        default_hold: DEFAULT_HOLD,
        sessions: b
            .neighbors
            .keys()
            .map(|a| {
                let s = SessionView {
                    bfd: b.bfd.contains(a),
                    hold: b.timers.get(a).map(|t| t.1),
                };
                (*a, s)
            })
            .collect(),
    })
}

/// Ports with `interface ethernet <range> flowcontrol receive|send on [force]` among the
/// lines the Onyx model keeps verbatim.
fn flowcontrol(config: &Config) -> BTreeSet<Port> {
    let mut out = BTreeSet::new();
    for (_, line) in config.layout.sections.iter().flat_map(|s| &s.verbatim) {
        let Some(rest) = line.trim().strip_prefix("interface ethernet ") else {
            continue;
        };
        let Some(((first, last), n)) = read_port_span(rest.as_bytes()) else {
            continue;
        };
        let mut words = rest[n..].split_whitespace();
        if words.next() == Some("flowcontrol")
            && matches!(words.next(), Some("receive" | "send"))
            && words.next() == Some("on")
        {
            let range = IfaceRange {
                first: Iface::Ethernet(first),
                last: Iface::Ethernet(last),
            };
            out.extend(range.members().filter_map(|i| match i {
                Iface::Ethernet(p) => Some(p),
                _ => None,
            }));
        }
    }
    out
}

/// Per drifted object (an interface range, a pool, a VLAN, a global setting), the commands
/// that bring it back to the fabric.
fn drift(running: &Config, sw: &Switch) -> Vec<Drift> {
    let intended = super::compile::compile_switch(sw);
    let target = super::plan::target(running, &intended, &super::plan::Scope::fabric(sw, false));
    let mut out: Vec<Drift> = Vec::new();
    for step in super::plan::plan(running, &target) {
        let command = step.command.to_string();
        let words: Vec<&str> = command
            .strip_prefix("no ")
            .unwrap_or(&command)
            .split_whitespace()
            .collect();
        let object = match words.as_slice() {
            ["interface", kind, id, ..] => format!("interface {kind} {id}"),
            ["traffic", "pool", name, ..] => format!("traffic pool {name}"),
            ["vlan", id, ..] => format!("vlan {id}"),
            _ => command.clone(),
        };
        let ifaces = match &step.command {
            Command::Interface(r, _) | Command::NoInterface(r) => r.members().collect(),
            _ => BTreeSet::new(),
        };
        match out.iter_mut().find(|d| d.object == object) {
            Some(d) => {
                d.command.push('\n');
                d.command.push_str(&command);
                d.ifaces.extend(ifaces);
            }
            None => out.push(Drift {
                object,
                command,
                ifaces,
            }),
        }
    }
    out
}
