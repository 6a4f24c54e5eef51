//! The OS-neutral RoCE view the rules read: per port (trust, PFC mode, ECN and ETS per
//! traffic class, MTU, speed, 802.3x pause, bundle and split membership) and per switch
//! (which priorities pause, which a lossless buffer pool holds, whether DCBX can tell the
//! hosts), built once per switch from an Onyx or an OS10 configuration. Ports are keyed in
//! one spelling ([`Iface`]: `1/5`, `1/53/2`, `port-channel 1`); a finding names them as its
//! switch's OS does ([`range_name`]). Input: a configuration; output: a [`View`]. What one
//! OS has and the other has not (Onyx's traffic pools and one-shot `roce` mode) is an
//! `Option`, `None` on the OS without it. Where no capture shows an OS10 default, the choice
//! is in [`OS10_DEFAULTS`], marked unconfirmed.

use std::collections::{BTreeMap, BTreeSet};

use crate::fabric::{Hardware, Os};
use crate::onyx::{self, Iface, IfaceRange};
use crate::os10;
use crate::types::{
    Ecn, EcnMode, EcnThresholds, Ets, PoolType, Port, RoceMode, Speed, Split, TcMap, TrafficClass,
    Trust, read_port_span,
};

/// OS10 defaults the view assumes where a configuration says nothing, with their evidence.
pub const OS10_DEFAULTS: &[(&str, &str)] = &[
    (
        "mtu 1532",
        "Dell OS10 user guide, `mtu`: default 1532 bytes; UNCONFIRMED by a capture (every captured RoCE port sets 9216)",
    ),
    (
        "flowcontrol receive on",
        "the Cray 10.5.1.4 and grantcurell 10.5.0.2 captures print `flowcontrol receive on` on every port left alone (as `os10::compile` relies on); transmit off UNCONFIRMED",
    ),
    (
        "no trust map: every packet in qos-group 0",
        "Dell OS10 user guide, QoS: without a trust map traffic is not classified; UNCONFIRMED",
    ),
    (
        "ETS without `bandwidth percent`: the queues share equally",
        "by analogy with Onyx's default; UNCONFIRMED",
    ),
];

/// One port's (or bundle's) RoCE settings, as the rules read them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortView {
    /// What the port classifies by; `None`: the OS default ([`View::default_trust`]).
    pub trust: Option<Trust>,
    /// Per-port PFC mode (Onyx `dcb priority-flow-control mode on`, OS10
    /// `priority-flow-control mode on`).
    pub pfc: bool,
    /// ECN marking per traffic class (OS10: per queue, from its queuing policy's WRED
    /// profile with `random-detect ecn`).
    pub ecn: TcMap<Ecn>,
    /// ETS per traffic class (OS10: `bandwidth percent` as the weight, `priority` strict).
    pub ets: TcMap<Ets>,
    pub mtu: Option<u16>,
    /// The configured speed (Onyx `speed`, OS10 a breakout subport's map speed).
    pub speed: Option<Speed>,
    /// 802.3x link-level pause (`flowcontrol receive|send on`).
    pub pause: bool,
    pub description: bool,
    pub shutdown: Option<bool>,
    /// Configured beyond a split and `shutdown` (OS10: beyond its factory block).
    pub configured: bool,
    /// The bundle it is a member of.
    pub lag: Option<Iface>,
    /// A member of an MLAG IPL (Onyx) or of the VLT interconnect (OS10).
    pub ipl_member: bool,
    /// An IPL port-channel (Onyx `ipl N`).
    pub ipl: bool,
    /// Split (Onyx `module-type`) or broken out (OS10 `interface breakout`).
    pub split: Option<Split>,
    /// The VLANs it carries (access, trunk or hybrid); `all_vlans` for a trunk that allows
    /// every VLAN. A routed port carries none.
    pub vlans: BTreeSet<u16>,
    pub all_vlans: bool,
    /// A routed port (Onyx `no switchport force`, OS10 `no switchport`) with an address.
    pub routed: bool,
}

impl PortView {
    /// Whether the port carries VLAN `v`.
    pub fn carries(&self, v: u16) -> bool {
        self.all_vlans || self.vlans.contains(&v)
    }
}

/// A VLAN interface (Onyx `interface vlan N`, OS10 `interface vlanN`) that routes: it has an
/// address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VlanIface {
    /// `None`: the OS default ([`View::default_mtu`]).
    pub mtu: Option<u16>,
}

impl PortView {
    /// Configured (beyond a split) and not shut down.
    pub fn in_use(&self) -> bool {
        self.shutdown != Some(true) && self.configured
    }
}

/// Global PFC: Onyx `dcb priority-flow-control enable` and its priorities (the `roce` mode's
/// priority 3 aside); on OS10, whether a network-qos policy in use pauses some class, and the
/// `pfc-cos` priorities it pauses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pfc {
    pub enabled: bool,
    pub priorities: BTreeSet<u8>,
}

/// A switch's BGP sessions as the failure-detection rule reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BgpView {
    pub asn: u32,
    /// The addresses of its routed ports and port-channels: a session to an address on one
    /// of their subnets runs over a cable.
    pub routed: Vec<crate::types::Ipv4Net>,
    /// BFD runs on the switch (Onyx `protocol bfd`, OS10 `bfd enable`).
    pub bfd: bool,
    pub sessions: BTreeMap<std::net::Ipv4Addr, SessionView>,
}

/// One configured BGP session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionView {
    /// BFD watches it (Onyx `fall-over bfd`, OS10 `bfd` in the neighbor or its template).
    pub bfd: bool,
    /// Its hold time, where `timers` sets one.
    pub hold: Option<u16>,
}

/// The addresses of the routed ports and port-channels among interfaces given as (a port or
/// port-channel, routed, address).
fn routed_nets(
    ifaces: impl Iterator<Item = (bool, bool, Option<crate::types::Ipv4Net>)>,
) -> Vec<crate::types::Ipv4Net> {
    ifaces
        .filter(|(port, routed, _)| *port && *routed)
        .filter_map(|(_, _, a)| a)
        .collect()
}

impl BgpView {
    fn onyx(config: &onyx::Config) -> Option<BgpView> {
        let b = config.bgp.as_ref()?;
        Some(BgpView {
            asn: b.asn,
            routed: routed_nets(config.interfaces.iter().map(|(k, i)| {
                let port = matches!(k, Iface::Ethernet(_) | Iface::PortChannel(_));
                (port, i.routed, i.address)
            })),
            bfd: config.protocols.contains(&onyx::Protocol::Bfd),
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

    fn os10(config: &os10::Config) -> Option<BgpView> {
        let b = config.bgp.as_ref()?;
        let template = |p: &os10::Peer| {
            b.templates
                .iter()
                .find(|(t, _)| p.inherit.as_ref() == Some(t))
                .map(|(_, t)| t)
        };
        Some(BgpView {
            asn: b.asn,
            routed: routed_nets(config.interfaces.iter().map(|(k, i)| {
                let port = matches!(k, os10::Iface::Ethernet(_) | os10::Iface::PortChannel(_));
                (port, i.routed, i.address)
            })),
            bfd: config.bfd,
            sessions: b
                .neighbors
                .iter()
                .filter(|(_, p)| p.shutdown != Some(true))
                .map(|(a, p)| {
                    let t = template(p);
                    let s = SessionView {
                        bfd: p.bfd || t.is_some_and(|t| t.bfd),
                        hold: p.timers.or_else(|| t?.timers).map(|t| t.1),
                    };
                    (*a, s)
                })
                .collect(),
        })
    }
}

/// One switch's RoCE view.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub os: Os,
    /// Ethernet ports, port-channels and MLAG port-channels, in order.
    pub ports: BTreeMap<Iface, PortView>,
    pub pfc: Pfc,
    /// Priorities a lossless traffic pool maps (Onyx); `None` on an OS without pools (OS10
    /// buffers by PFC class, not by pool).
    pub lossless_pools: Option<BTreeSet<u8>>,
    /// Onyx's one-shot `roce` mode; `None` on OS10 (it has none).
    pub roce_mode: Option<RoceMode>,
    /// Whether DCBX can run: Onyx `lldp`, OS10 `dcbx enable`.
    pub dcbx: bool,
    /// A port the configuration does not list: the OS's defaults (and OS10's system trust).
    pub default_port: PortView,
    /// The trust of a port that sets none: Onyx L2; OS10 none (no trust map).
    pub default_trust: Option<Trust>,
    pub default_mtu: u16,
    pub hardware: Option<Hardware>,
    /// VLAN interfaces with an address, by VLAN.
    pub vlan_ifaces: BTreeMap<crate::types::Vlan, VlanIface>,
    /// Its BGP instance, when it has one.
    pub bgp: Option<BgpView>,
}

impl View {
    /// The view of an Onyx configuration: exactly what the rules have always read of it.
    pub fn onyx(config: &onyx::Config, hardware: Option<Hardware>) -> View {
        let ipl_channels: BTreeSet<u16> = config
            .interfaces
            .iter()
            .filter_map(|(k, i)| match (k, i.ipl) {
                (Iface::PortChannel(n), Some(_)) => Some(*n),
                _ => None,
            })
            .collect();
        let pause = onyx_flowcontrol(config);
        let ports = config
            .interfaces
            .iter()
            .filter(|(k, _)| {
                matches!(
                    k,
                    Iface::Ethernet(_) | Iface::PortChannel(_) | Iface::MlagPortChannel(_)
                )
            })
            .map(|(k, i)| {
                let mut bare = i.clone();
                bare.split = None;
                bare.shutdown = None;
                let v = PortView {
                    trust: i.trust,
                    pfc: i.pfc,
                    ecn: i.ecn,
                    ets: i.ets,
                    mtu: i.mtu,
                    speed: i.speed.map(|s| s.speed),
                    pause: matches!(k, Iface::Ethernet(p) if pause.contains(p)),
                    description: i.description.is_some(),
                    shutdown: i.shutdown,
                    configured: bare != onyx::Interface::default(),
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
                };
                (*k, v)
            })
            .collect();
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
            os: Os::Onyx,
            ports,
            pfc,
            lossless_pools: Some(lossless),
            roce_mode: config.roce,
            dcbx: config.lldp,
            default_port: PortView::default(),
            default_trust: Some(Trust::L2),
            default_mtu: crate::fabric::meaning::default_mtu(Os::Onyx),
            hardware,
            vlan_ifaces: config
                .interfaces
                .iter()
                .filter_map(|(k, i)| match k {
                    Iface::Vlan(v) if i.address.is_some() => Some((*v, VlanIface { mtu: i.mtu })),
                    _ => None,
                })
                .collect(),
            bgp: BgpView::onyx(config),
        }
    }

    /// The view of an OS10 configuration (Dell OS10 user guide, RoCE: a port pauses with
    /// `priority-flow-control mode on` and a network-qos policy whose class has `pause` and
    /// `pfc-cos`; it marks ECN where its queuing policy's class names a WRED profile with
    /// `random-detect ecn`; ETS is `ets mode on` with `bandwidth percent` per queue).
    pub fn os10(config: &os10::Config, hardware: Option<Hardware>) -> View {
        let system = config.system_qos.as_ref();
        let class_queues = |kind: os10::QosKind, name: &str| -> Vec<u8> {
            config
                .class_maps
                .iter()
                .find(|c| c.kind == kind && c.name == name)
                .and_then(|c| c.matches)
                .map(|m| m.iter().collect())
                .unwrap_or_default()
        };
        // What a queuing policy gives each queue: ECN and the ETS weight.
        let queuing = |name: Option<&String>, ets_on: bool| -> (TcMap<Ecn>, TcMap<Ets>) {
            let (mut ecn, mut ets) = (TcMap::new(), TcMap::new());
            let Some(p) = name.and_then(|n| config.policy(os10::QosKind::Queuing, n)) else {
                return (ecn, ets);
            };
            for class in &p.classes {
                let wred = class
                    .random_detect
                    .as_ref()
                    .and_then(|w| config.wred.iter().find(|x| &x.name == w))
                    .filter(|w| w.ecn);
                let thresholds = wred.and_then(|w| {
                    w.colors
                        .get(&os10::Color::Green)
                        .or_else(|| w.colors.values().next())
                });
                for q in class_queues(os10::QosKind::Queuing, &class.name) {
                    let Ok(tc) = TrafficClass::new(i64::from(q)) else {
                        continue;
                    };
                    if let Some(t) = thresholds {
                        ecn.insert(
                            tc,
                            Ecn {
                                mode: EcnMode::Ecn,
                                thresholds: EcnThresholds::Absolute {
                                    min: t.min,
                                    max: t.max,
                                },
                            },
                        );
                    }
                    if ets_on {
                        if class.priority {
                            ets.insert(tc, Ets::Strict);
                        } else if let Some(b) = class.bandwidth {
                            ets.insert(tc, Ets::Wrr(b));
                        }
                    }
                }
            }
            (ecn, ets)
        };
        let trust_of = |t: &(os10::TrustKind, String)| match t.0 {
            os10::TrustKind::Dscp => Trust::L3,
            os10::TrustKind::Dot1p => Trust::L2,
        };
        let system_trust = system.and_then(|s| s.trust_map.as_ref()).map(trust_of);
        let system_ets = system.is_some_and(|s| s.ets);
        let vlti: BTreeSet<os10::Eth> = config
            .vlt
            .as_ref()
            .map(|v| v.discovery.clone())
            .unwrap_or_default();
        let mut pfc = Pfc::default();
        let mut ports = BTreeMap::new();
        let default = os10::Interface::default();
        for (k, i) in &config.interfaces {
            let key = match k {
                os10::Iface::Ethernet(e) => Iface::Ethernet(port_of(*e)),
                os10::Iface::PortChannel(n) => Iface::PortChannel(*n),
                _ => continue,
            };
            // A member's QoS is its port-channel's (OS10 applies policies on the bundle);
            // its MTU and flow control stay its own, else the bundle's MTU.
            let lag = i.channel_group.map(|g| g.id);
            let qos = config.qos_interface(k).unwrap_or(i);
            let policy_in = config.network_qos_of(k);
            let policy_out = qos
                .policy_out
                .as_ref()
                .or(system.and_then(|s| s.policy_out.as_ref()));
            let (ecn, ets) = queuing(policy_out, qos.ets || system_ets);
            // A network-qos policy in use with a class that pauses.
            let pauses = policy_in
                .and_then(|n| config.policy(os10::QosKind::NetworkQos, n))
                .is_some_and(|p| p.classes.iter().any(|c| c.pause));
            pfc.enabled |= pauses;
            if let Some(n) = policy_in {
                pfc.priorities.extend(config.paused_by(n));
            }
            let mut bare = i.clone();
            bare.shutdown = None;
            bare.extras.clear();
            if bare.access_vlan.is_some_and(|v| v.get() == 1) && bare.mode.is_none() {
                bare.access_vlan = None;
            }
            // The factory block prints `flowcontrol receive on|off`; neither configures.
            bare.flowcontrol_rx = None;
            // A subport runs its breakout's speed, or its port group's mode's (`ethernet1/1/53:1`
            // in `25g-4x`, `ethernet1/1/17:1` in `10g-4x`).
            let speed = match k {
                os10::Iface::Ethernet(e) if e.sub.is_some() => config
                    .breakouts
                    .get(&os10::Eth::new(e.port))
                    .and_then(|m| map_speed(m))
                    .or_else(|| {
                        os10::groups::speed_of(config, *e)
                            .and_then(|g| Speed::from_gbps(u32::from(g)))
                    }),
                _ => None,
            };
            let v = PortView {
                trust: qos.trust_map.as_ref().map(trust_of).or(system_trust),
                pfc: qos.pfc,
                ecn,
                ets,
                mtu: i.mtu.or(qos.mtu),
                speed,
                pause: i.flowcontrol_rx.unwrap_or(true) || i.flowcontrol_tx == Some(true),
                description: i.description.is_some(),
                shutdown: i.shutdown,
                configured: bare != default,
                lag: lag.map(Iface::PortChannel),
                ipl_member: matches!(k, os10::Iface::Ethernet(e) if vlti.contains(e)),
                ipl: false,
                split: None,
                vlans: os10_vlans(qos),
                all_vlans: false,
                routed: i.routed && i.address.is_some(),
            };
            ports.insert(key, v);
        }
        // A port its port group's mode breaks out is split as by a breakout map.
        let mut maps: Vec<(os10::Eth, &str)> = config
            .breakouts
            .iter()
            .map(|(e, m)| (*e, m.as_str()))
            .collect();
        if let Some(model) = os10::groups::model_of([&config.port_groups]) {
            for (id, g) in &config.port_groups {
                let (Some(group), Some(mode)) = (model.port_group(id.number), g.mode.as_deref())
                else {
                    continue;
                };
                if group.layout(mode).is_some_and(|l| l.ways > 1) {
                    maps.extend(group.ports().map(|n| (os10::Eth::new(n), mode)));
                }
            }
        }
        for (parent, map) in &maps {
            let split = match map.rsplit_once('-').map(|(_, w)| w) {
                Some("2x") => Some(Split::Two),
                Some("4x") => Some(Split::Four),
                _ => None,
            };
            if split.is_some() {
                ports
                    .entry(Iface::Ethernet(port_of(*parent)))
                    .or_insert_with(|| PortView {
                        pause: true,
                        trust: system_trust,
                        ..PortView::default()
                    })
                    .split = split;
            }
        }
        View {
            os: Os::Os10,
            ports,
            pfc,
            lossless_pools: None,
            roce_mode: None,
            dcbx: config.dcbx,
            default_port: PortView {
                trust: system_trust,
                pause: true,
                ..PortView::default()
            },
            default_trust: None,
            default_mtu: crate::fabric::meaning::default_mtu(Os::Os10),
            hardware,
            vlan_ifaces: config
                .interfaces
                .iter()
                .filter_map(|(k, i)| match k {
                    os10::Iface::Vlan(v) if i.address.is_some() => {
                        Some((*v, VlanIface { mtu: i.mtu }))
                    }
                    _ => None,
                })
                .collect(),
            bgp: BgpView::os10(config),
        }
    }

    /// A port's view; a port the configuration does not list has the defaults.
    pub fn port(&self, iface: Iface) -> &PortView {
        self.ports.get(&iface).unwrap_or(&self.default_port)
    }

    /// A port's MTU, the OS default without a setting.
    pub fn mtu(&self, p: &PortView) -> u16 {
        p.mtu.unwrap_or(self.default_mtu)
    }

    /// What a port classifies by, the OS default without a setting (`None`: nothing).
    pub fn trust(&self, p: &PortView) -> Option<Trust> {
        p.trust.or(self.default_trust)
    }

    /// A port's speed: its setting, else the model's native speed when known.
    pub fn speed(&self, port: Port) -> Option<Speed> {
        if let Some(s) = self.ports.get(&Iface::Ethernet(port)).and_then(|p| p.speed) {
            return Some(s);
        }
        let hardware = self.hardware?;
        let split = port.sub.and_then(|_| {
            self.ports
                .get(&Iface::Ethernet(port.parent()))
                .and_then(|p| p.split)
        });
        hardware.native_speed(port.parent(), split)
    }
}

/// The VLANs an OS10 interface carries: its access VLAN (VLAN 1 by default) and a trunk's
/// allowed VLANs. A routed port carries none.
fn os10_vlans(i: &os10::Interface) -> BTreeSet<u16> {
    if i.routed {
        return BTreeSet::new();
    }
    let mut out: BTreeSet<u16> = i
        .trunk_allowed
        .iter()
        .flat_map(|s| s.iter())
        .map(|v| v.get())
        .collect();
    out.insert(i.access_vlan.map_or(1, |v| v.get()));
    out
}

/// An OS10 port in the view's spelling: `ethernet1/1/5:2` is `1/5/2` (OS10 switches have one
/// node, so the node is left out).
pub fn port_of(e: os10::Eth) -> Port {
    Port {
        slot: e.slot,
        port: e.port,
        sub: e.sub,
    }
}

/// The speed of a breakout map's subports: `25g-4x` is 25G.
fn map_speed(map: &str) -> Option<Speed> {
    let g = map.split_once('g')?.0.parse().ok()?;
    Speed::from_gbps(g)
}

/// Interfaces as a finding names them on a switch of `os`: Onyx `ethernet 1/1-1/8`, OS10
/// `ethernet1/1/1-1/1/8` (the way `discovery-interface` and `interface range` print runs),
/// `port-channel1`.
pub fn range_name(os: Os, r: IfaceRange) -> String {
    crate::targets::of(os).iface_range(r)
}

/// Ports with `interface ethernet <range> flowcontrol receive|send on [force]` among the
/// lines the Onyx model keeps verbatim.
fn onyx_flowcontrol(config: &onyx::Config) -> BTreeSet<Port> {
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
