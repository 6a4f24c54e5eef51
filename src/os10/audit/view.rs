//! The audit's RoCE view of an OS10 configuration (Dell OS10 user guide, RoCE: a port pauses
//! with `priority-flow-control mode on` and a network-qos policy whose class has `pause` and
//! `pfc-cos`; it marks ECN where its queuing policy's class names a WRED profile with
//! `random-detect ecn`; ETS is `ets mode on` with `bandwidth percent` per queue). A port's
//! QoS is its port-channel's; a breakout's subports, and the ports a port group's mode
//! breaks out, are split. Where no capture shows an OS10 default, the choice is in
//! [`OS10_DEFAULTS`], marked unconfirmed.

use std::collections::{BTreeMap, BTreeSet};

use crate::audit::view::{BgpView, Pfc, PortView, SessionView, View, VlanIface, routed_nets};
use crate::fabric::Hardware;
use crate::onyx::Iface as Neutral;
use crate::os10::{self, Color, Config, Eth, Iface, Interface, QosKind, SystemQos, TrustKind};
use crate::types::{
    Ecn, EcnMode, EcnThresholds, Ets, Port, Speed, Split, TcMap, TrafficClass, Trust,
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

/// A BGP session's hold time without `timers`: 180 s (Dell OS10 user guide, `timers`).
const DEFAULT_HOLD: u16 = 180;

/// The view of an OS10 configuration.
pub(super) fn view(config: &Config, hardware: Option<Hardware>) -> View {
    let qos = Qos::of(config);
    let mut pfc = Pfc::default();
    let mut ports = BTreeMap::new();
    for (k, i) in &config.interfaces {
        let key = match k {
            Iface::Ethernet(e) => Neutral::Ethernet(port_of(*e)),
            Iface::PortChannel(n) => Neutral::PortChannel(*n),
            _ => continue,
        };
        ports.insert(key, qos.port(k, i, &mut pfc));
    }
    splits(config, &mut ports, qos.system_trust);
    View {
        os: crate::os10::target::OS,
        ports,
        pfc,
        lossless_pools: None,
        roce_mode: None,
        dcbx: config.dcbx,
        default_port: PortView {
            trust: qos.system_trust,
            pause: true,
            ..PortView::default()
        },
        default_trust: None,
        default_mtu: crate::fabric::meaning::default_mtu(crate::os10::target::OS),
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

/// What a port's QoS reads of the whole configuration: its policies, `system qos`, the VLTi.
struct Qos<'a> {
    config: &'a Config,
    system: Option<&'a SystemQos>,
    /// The system trust map's trust, for a port without its own.
    system_trust: Option<Trust>,
    system_ets: bool,
    /// The VLT interconnect's ports.
    vlti: BTreeSet<Eth>,
    /// An interface as OS10 prints one left alone, to tell a configured one.
    default: Interface,
}

impl<'a> Qos<'a> {
    fn of(config: &'a Config) -> Qos<'a> {
        let system = config.system_qos.as_ref();
        Qos {
            config,
            system,
            system_trust: system.and_then(|s| s.trust_map.as_ref()).map(trust_of),
            system_ets: system.is_some_and(|s| s.ets),
            vlti: config
                .vlt
                .as_ref()
                .map(|v| v.discovery.clone())
                .unwrap_or_default(),
            default: Interface::default(),
        }
    }

    /// One port's (or port-channel's) view; a network-qos policy in use that pauses turns
    /// `pfc` on, with the priorities it pauses.
    fn port(&self, k: &Iface, i: &Interface, pfc: &mut Pfc) -> PortView {
        let config = self.config;
        // A member's QoS is its port-channel's (OS10 applies policies on the bundle);
        // its MTU and flow control stay its own, else the bundle's MTU.
        let lag = i.channel_group.map(|g| g.id);
        let qos = config.qos_interface(k).unwrap_or(i);
        let policy_in = config.network_qos_of(k);
        let policy_out = qos
            .policy_out
            .as_ref()
            .or(self.system.and_then(|s| s.policy_out.as_ref()));
        let (ecn, ets) = self.queuing(policy_out, qos.ets || self.system_ets);
        // A network-qos policy in use with a class that pauses.
        let pauses = policy_in
            .and_then(|n| config.policy(QosKind::NetworkQos, n))
            .is_some_and(|p| p.classes.iter().any(|c| c.pause));
        pfc.enabled |= pauses;
        if let Some(n) = policy_in {
            pfc.priorities.extend(config.paused_by(n));
        }
        PortView {
            trust: qos.trust_map.as_ref().map(trust_of).or(self.system_trust),
            pfc: qos.pfc,
            ecn,
            ets,
            mtu: i.mtu.or(qos.mtu),
            speed: subport_speed(config, k),
            pause: i.flowcontrol_rx.unwrap_or(true) || i.flowcontrol_tx == Some(true),
            description: i.description.is_some(),
            shutdown: i.shutdown,
            configured: self.configured(i),
            lag: lag.map(Neutral::PortChannel),
            ipl_member: matches!(k, Iface::Ethernet(e) if self.vlti.contains(e)),
            ipl: false,
            split: None,
            vlans: vlans(qos),
            all_vlans: false,
            routed: i.routed && i.address.is_some(),
        }
    }

    /// Whether an interface is configured beyond its factory block: its `shutdown`, lines
    /// the model keeps verbatim, VLAN 1 as the access VLAN and `flowcontrol receive` aside.
    fn configured(&self, i: &Interface) -> bool {
        let mut bare = i.clone();
        bare.shutdown = None;
        bare.extras.clear();
        if bare.access_vlan.is_some_and(|v| v.get() == 1) && bare.mode.is_none() {
            bare.access_vlan = None;
        }
        // The factory block prints `flowcontrol receive on|off`; neither configures.
        bare.flowcontrol_rx = None;
        bare != self.default
    }

    /// The queues of a class-map of `kind` named `name`.
    fn class_queues(&self, kind: QosKind, name: &str) -> Vec<u8> {
        self.config
            .class_maps
            .iter()
            .find(|c| c.kind == kind && c.name == name)
            .and_then(|c| c.matches)
            .map(|m| m.iter().collect())
            .unwrap_or_default()
    }

    /// What a queuing policy gives each queue: ECN and the ETS weight (with `ets_on`).
    fn queuing(&self, name: Option<&String>, ets_on: bool) -> (TcMap<Ecn>, TcMap<Ets>) {
        let config = self.config;
        let (mut ecn, mut ets) = (TcMap::new(), TcMap::new());
        let Some(p) = name.and_then(|n| config.policy(QosKind::Queuing, n)) else {
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
                    .get(&Color::Green)
                    .or_else(|| w.colors.values().next())
            });
            for q in self.class_queues(QosKind::Queuing, &class.name) {
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
    }
}

/// What a trust map classifies by.
fn trust_of(t: &(TrustKind, String)) -> Trust {
    match t.0 {
        TrustKind::Dscp => Trust::L3,
        TrustKind::Dot1p => Trust::L2,
    }
}

/// A subport's speed: its breakout's, or its port group's mode's (`ethernet1/1/53:1` in
/// `25g-4x`, `ethernet1/1/17:1` in `10g-4x`); `None` for another interface.
fn subport_speed(config: &Config, k: &Iface) -> Option<Speed> {
    match k {
        Iface::Ethernet(e) if e.sub.is_some() => config
            .breakouts
            .get(&Eth::new(e.port))
            .and_then(|m| map_speed(m))
            .or_else(|| {
                os10::groups::speed_of(config, *e).and_then(|g| Speed::from_gbps(u32::from(g)))
            }),
        _ => None,
    }
}

/// Marks the ports a breakout map, or their port group's mode, splits (a port the
/// configuration does not list gets the defaults and `system_trust`).
fn splits(config: &Config, ports: &mut BTreeMap<Neutral, PortView>, system_trust: Option<Trust>) {
    // A port its port group's mode breaks out is split as by a breakout map.
    let mut maps: Vec<(Eth, &str)> = config
        .breakouts
        .iter()
        .map(|(e, m)| (*e, m.as_str()))
        .collect();
    if let Some(model) = os10::groups::model_of([&config.port_groups]) {
        for (id, g) in &config.port_groups {
            let (Some(group), Some(mode)) = (model.port_group(id.number), g.mode.as_deref()) else {
                continue;
            };
            if group.layout(mode).is_some_and(|l| l.ways > 1) {
                maps.extend(group.ports().map(|n| (Eth::new(n), mode)));
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
                .entry(Neutral::Ethernet(port_of(*parent)))
                .or_insert_with(|| PortView {
                    pause: true,
                    trust: system_trust,
                    ..PortView::default()
                })
                .split = split;
        }
    }
}

/// The switch's BGP sessions (a shut-down neighbor aside), BFD and timers from the neighbor
/// or its template, for the failure-detection rule.
fn bgp(config: &Config) -> Option<BgpView> {
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
            let port = matches!(k, Iface::Ethernet(_) | Iface::PortChannel(_));
            (port, i.routed, i.address)
        })),
        bfd: config.bfd,
        default_hold: DEFAULT_HOLD,
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

/// The VLANs an OS10 interface carries: its access VLAN (VLAN 1 by default) and a trunk's
/// allowed VLANs. A routed port carries none.
fn vlans(i: &Interface) -> BTreeSet<u16> {
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
pub fn port_of(e: Eth) -> Port {
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
