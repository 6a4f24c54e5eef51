//! One switch of a fabric → an OS10 [`Config`]: the fabric's per-port RoCE intent in OS10's
//! terms. The command set and its sources are in `../shared/reference/os10-roce.md`: the
//! AzureStack TOR capture (OS10 10.5.3.2, `tests/fixtures/corpus/os10/`) for spelling and
//! order, Microsoft's validated OS10 templates (AzureStack_Network_Switch_Config_Generator
//! @51524fa: `os10/interface.j2`, `vlt.j2`, `bgp.j2`, `expected_qos.cfg`) and Dell's OS10 user
//! guide. What the reference marks unconfirmed is marked so here too.
//!
//! The mapping: a switch priority is an OS10 qos-group, queued in the queue of the same number
//! (Onyx's priority → traffic class is the identity too). Lossless priorities get `pause` and
//! `pfc-cos` in one network-qos policy; ETS weights become `bandwidth percent` of a queuing
//! policy; ECN thresholds a `wred` profile with `random-detect ecn`. Nothing here formats text.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    Bgp, ChannelGroup, ClassMap, Color, Config, Eth, Iface, Interface, LacpMode, Peer, PolicyClass,
    PolicyMap, QosKind, QosMap, Ranges, SwitchportMode, SystemQos, Thresholds, TrustKind, TrustMap,
    Vlt,
};
use crate::fabric::{Bundle, Lacp, PortSettings, Switch, os10_eth};
use crate::types::{Ecn, EcnMode, EcnThresholds, Ets, Trust, Vlan};

/// The network-qos policy's name, the reference's `ROCE_PFC`.
const PFC_POLICY: &str = "ROCE_PFC";
/// The trust map's name.
const TRUST_MAP: &str = "ROCE_TRUST";
/// The traffic-class map's name.
const QOS_MAP: &str = "ROCE_QMAP";

/// A port's queuing: per traffic class with any, its ETS and its ECN thresholds (KB).
type Queuing = Vec<(u8, Option<Ets>, Option<(u32, u32)>)>;

/// One switch. The caller has checked that it runs OS10.
pub fn compile_switch(sw: &Switch) -> Config {
    let mut c = Config::default();
    c.header.version = sw.os10.clone();
    if sw.set_hostname {
        c.hostname = Some(sw.hostname.to_string());
    }
    // Every breakout-capable port's map, the native one where the port is not split: OS10
    // prints them all (`Model::breakout`). The fabric validation refused the splits a port
    // cannot do. A model with port groups prints every group's mode instead, native ones
    // included (the TOR capture prints all 18), each the mode the validation settled from its
    // ports' splits and speeds.
    if let crate::fabric::Hardware::Os10(m) = sw.model {
        for port in sw.model.ports() {
            let ways = sw.splits.get(&port).map_or(1, |s| s.ways());
            if let Ok(Some(map)) = m.breakout(port.port, ways) {
                c.breakouts.insert(os10_eth(port), map.to_string());
            }
        }
        for g in m.port_groups() {
            let mode = sw.port_groups.get(&g.number).copied().unwrap_or(g.native());
            c.port_groups.insert(
                super::PortGroupId::new(g.number),
                super::PortGroup {
                    mode: Some(mode.to_string()),
                    extras: Vec::new(),
                },
            );
        }
    }

    // Lossless priorities: the lossless pools' and PFC's, when PFC is on.
    let pfc_on = sw.qos.pfc.as_ref().is_some_and(|p| p.enabled);
    let lossless: BTreeSet<u8> = if pfc_on {
        sw.qos
            .pfc
            .iter()
            .flat_map(|p| p.priorities.iter().map(|x| x.get()))
            .collect()
    } else {
        BTreeSet::new()
    };
    // `dcbx enable`: the TOR capture has it beside PFC; hosts learn the PFC settings by DCBX.
    c.dcbx = !lossless.is_empty();

    // WRED/ECN profiles, one per distinct thresholds (`wred ecn` in the TOR capture).
    let mut wreds: BTreeMap<(u32, u32), String> = BTreeMap::new();
    // Queuing policies, one per distinct (ETS, ECN) of the ports that set them.
    let mut queuings: Vec<(Queuing, String)> = Vec::new();
    let mut queues_used: BTreeSet<u8> = BTreeSet::new();
    let mut trusts: BTreeSet<TrustKind> = BTreeSet::new();

    let qos_of = |s: &PortSettings| -> Queuing {
        (0u8..8)
            .filter_map(|tc| {
                let t = crate::types::TrafficClass::ALL[usize::from(tc)];
                let ets = s.ets.get(&t).copied();
                let ecn = s.ecn.get(&t).and_then(|e| absolute(*e));
                (ets.is_some() || ecn.is_some()).then_some((tc, ets, ecn))
            })
            .collect()
    };

    let mut interfaces: BTreeMap<Iface, Interface> = BTreeMap::new();
    let ipl = sw.mlag.as_ref().map(|m| m.ipl_port_channel);
    let mut discovery: BTreeSet<Eth> = BTreeSet::new();

    let mut qos_port = |s: &PortSettings, e: &mut Interface| {
        match s.trust {
            Some(Trust::L3 | Trust::Both) => {
                trusts.insert(TrustKind::Dscp);
            }
            None | Some(Trust::L2) => {
                if !lossless.is_empty() {
                    trusts.insert(TrustKind::Dot1p);
                }
            }
            Some(Trust::Port) => {}
        }
        let q = qos_of(s);
        if !q.is_empty() {
            for (tc, _, ecn) in &q {
                queues_used.insert(*tc);
                if let Some(th) = ecn {
                    let n = wreds.len();
                    wreds.entry(*th).or_insert_with(|| {
                        if n == 0 {
                            "ecn".to_string()
                        } else {
                            format!("ecn{}", n + 1)
                        }
                    });
                }
            }
            let name = match queuings.iter().find(|(x, _)| *x == q) {
                Some((_, n)) => n.clone(),
                None => {
                    let n = match queuings.len() {
                        0 => "ROCE_ETS".to_string(),
                        k => format!("ROCE_ETS_{}", k + 1),
                    };
                    queuings.push((q, n.clone()));
                    n
                }
            };
            e.policy_out = Some(name);
            e.ets = true;
        }
        if s.pfc {
            // PFC and link-level pause are exclusive (Dell OS10 guide, p. 622): the TOR
            // capture prints `flowcontrol receive off` on every PFC port. On a port-channel
            // (the VLT port-channels) PFC and the policies are UNCONFIRMED: no capture has
            // QoS on a port-channel; its members get `flowcontrol receive off` below.
            e.flowcontrol_rx = Some(false);
            e.pfc = true;
            // Without lossless priorities (PFC asked for on the port alone, `pfc: true`) there
            // is no network-qos policy to name: the AzureStack BMC's routed ports and the TOR's
            // ethernet1/1/44:1 print `priority-flow-control mode on` with no service-policy and
            // no qos-map.
            if !lossless.is_empty() {
                e.policy_in = Some(PFC_POLICY.to_string());
            }
        }
        if e.policy_out.is_some() || e.policy_in.is_some() {
            e.qos_map = Some(QOS_MAP.to_string());
        }
    };

    // Bundles whose port-channel runs PFC: their members must not answer link-level pause.
    let pfc_bundles: BTreeSet<(bool, u16)> = sw
        .bundles
        .iter()
        .filter(|(_, s)| s.pfc)
        .map(|(k, _)| *k)
        .collect();
    for (port, s) in &sw.ports {
        let eth = os10_eth(*port);
        let iface = Iface::Ethernet(eth);
        let mut e = Interface {
            description: s.description.clone(),
            shutdown: Some(s.shutdown),
            mtu: s.mtu,
            // OS10 prints `flowcontrol receive on` on every Ethernet port by default (the Cray
            // 10.5.1.4 and grantcurell 10.5.0.2 captures); PFC ports turn it off below.
            flowcontrol_rx: Some(true),
            ..Interface::default()
        };
        match s.bundle {
            // The VLT interconnect: OS10 discovers it on `discovery-interface` ports, which
            // carry no switchport and no port-channel (`vlt.j2`; the TOR capture's VLTi).
            Some(Bundle {
                mlag: false, id, ..
            }) if Some(id) == ipl => {
                discovery.insert(eth);
                e.routed = true;
                // A flow to a host single-homed on the peer crosses the VLTi: its ports carry
                // the IPL's QoS (PFC, the policies, `flowcontrol receive off`), as the
                // AzureStack TOR capture's VLTi ports (ethernet1/1/49-1/1/52) do.
                if let Some(b) = sw.bundles.get(&(false, id)) {
                    qos_port(b, &mut e);
                }
            }
            Some(b) => {
                if pfc_bundles.contains(&(b.mlag, b.id)) {
                    e.flowcontrol_rx = Some(false);
                }
                e.channel_group = Some(ChannelGroup {
                    id: b.id,
                    mode: match b.lacp {
                        Lacp::Active => LacpMode::Active,
                        Lacp::Passive => LacpMode::Passive,
                        Lacp::On => LacpMode::On,
                    },
                });
                // A member's switchport is the port-channel's; OS10 prints `no switchport`
                // on members (grantcurell's 10.5.0.2 capture).
                e.routed = true;
            }
            None => {
                l2(s, &mut e);
                qos_port(s, &mut e);
                stp(s, &mut e);
            }
        }
        interfaces.insert(iface, e);
    }
    for ((mlag, id), s) in &sw.bundles {
        if !mlag && Some(*id) == ipl {
            continue;
        }
        let iface = Iface::PortChannel(*id);
        let mut e = Interface {
            description: s.description.clone(),
            shutdown: Some(s.shutdown),
            mtu: s.mtu,
            // An MLAG port-channel is OS10's VLT port-channel: the same number on both peers.
            vlt_port_channel: mlag.then_some(*id),
            ..Interface::default()
        };
        l2(s, &mut e);
        qos_port(s, &mut e);
        stp(s, &mut e);
        interfaces.insert(iface, e);
    }
    // The MLAG pair's IPL VLAN is Onyx's; OS10's VLTi needs none.
    let ipl_vlan = sw.mlag.as_ref().map(|m| m.ipl_vlan);
    for (vlan, name) in &sw.vlans {
        if (vlan.get() == 1 && !sw.gateways.contains_key(vlan)) || Some(*vlan) == ipl_vlan {
            continue;
        }
        let e = Interface {
            description: name.clone(),
            shutdown: Some(false),
            address: sw.gateways.get(vlan).map(|g| g.address),
            // The default MTU is not printed (an import writes it to keep the default).
            mtu: sw
                .gateways
                .get(vlan)
                .and_then(|g| g.mtu)
                .filter(|m| *m != super::DEFAULT_MTU),
            ..Interface::default()
        };
        interfaces.insert(Iface::Vlan(*vlan), e);
    }
    if let Some(lo) = sw.loopback {
        let e = Interface {
            shutdown: Some(false),
            address: crate::types::Ipv4Net::new(lo, 32).ok(),
            ..Interface::default()
        };
        interfaces.insert(Iface::Loopback(0), e);
    }
    c.interfaces = interfaces;

    // The QoS objects the ports reference.
    for ((min, max), name) in &wreds {
        let mut colors = BTreeMap::new();
        // Drop probability 100 %: ECN marks every packet above the maximum (the reference's
        // profile and the TOR capture's `wred ecn`).
        colors.insert(
            Color::Green,
            Thresholds {
                min: *min,
                max: *max,
                drop: 100,
            },
        );
        c.wred.push(super::Wred {
            name: name.clone(),
            colors,
            ecn: true,
            extras: Vec::new(),
        });
    }
    for p in &lossless {
        c.class_maps.push(ClassMap {
            kind: QosKind::NetworkQos,
            name: format!("ROCE{p}"),
            matches: Some(Ranges::one(*p)),
            extras: Vec::new(),
        });
    }
    for q in &queues_used {
        c.class_maps.push(ClassMap {
            kind: QosKind::Queuing,
            name: format!("Q{q}"),
            matches: Some(Ranges::one(*q)),
            extras: Vec::new(),
        });
    }
    // Trust: DSCP → qos-group as Onyx's trust L3 maps DSCP to a priority (its top three
    // bits: 26 → 3, 48 → 6); `trust dscp-map` is UNCONFIRMED by a capture (the reference).
    // Dot1p: the identity, the TOR capture's `trust dot1p-map` spelling.
    for kind in &trusts {
        let groups = (0u8..8)
            .map(|g| {
                let values: Ranges = match kind {
                    TrustKind::Dscp => (g * 8..g * 8 + 8).collect(),
                    TrustKind::Dot1p => Ranges::one(g),
                };
                (g, values)
            })
            .collect();
        c.trust_maps.push(TrustMap {
            kind: *kind,
            name: match (kind, trusts.len()) {
                (_, 1) => TRUST_MAP.to_string(),
                (TrustKind::Dscp, _) => format!("{TRUST_MAP}_DSCP"),
                (TrustKind::Dot1p, _) => format!("{TRUST_MAP}_DOT1P"),
            },
            groups,
            extras: Vec::new(),
        });
    }
    let mapped: BTreeSet<u8> = queues_used.iter().chain(&lossless).copied().collect();
    if !mapped.is_empty() {
        // Each priority with QoS of its own in its own queue, the rest in queue 0 (the
        // reference's `qos-map traffic-class`).
        let mut queues: BTreeMap<u8, Ranges> = BTreeMap::new();
        for g in 0u8..8 {
            let q = if mapped.contains(&g) { g } else { 0 };
            let set = queues.entry(q).or_default();
            *set = set.iter().chain([g]).collect();
        }
        c.qos_maps.push(QosMap {
            name: QOS_MAP.to_string(),
            queues,
            extras: Vec::new(),
        });
    }
    if !lossless.is_empty() {
        c.policy_maps.push(PolicyMap {
            kind: QosKind::NetworkQos,
            name: PFC_POLICY.to_string(),
            classes: lossless
                .iter()
                .map(|p| PolicyClass {
                    name: format!("ROCE{p}"),
                    pause: true,
                    pfc_cos: Some(Ranges::one(*p)),
                    ..PolicyClass::default()
                })
                .collect(),
            extras: Vec::new(),
        });
    }
    for (q, name) in &queuings {
        c.policy_maps.push(PolicyMap {
            kind: QosKind::Queuing,
            name: name.clone(),
            classes: queuing_classes(q, &wreds),
            extras: Vec::new(),
        });
    }
    if !c.trust_maps.is_empty() || !queuings.is_empty() {
        let trust_map = c
            .trust_maps
            .first()
            .map(|t: &TrustMap| (t.kind, t.name.clone()));
        c.system_qos = Some(SystemQos {
            trust_map,
            ets: !queuings.is_empty(),
            ..SystemQos::default()
        });
    }

    if let Some(m) = &sw.mlag {
        let mut v = Vlt::new(super::show::VLT_DOMAIN);
        v.discovery = discovery;
        // The heartbeat's backup over the management network: the peer's management address
        // (`vlt.j2`, the TOR capture's `backup destination 10.185.239.153`), when the fabric
        // gives one.
        v.backup = m.peer_mgmt;
        v.peer_routing = true;
        v.vlt_mac = Some(m.system_mac);
        c.vlt = Some(v);
    }
    if let Some(r) = &sw.routing {
        let mut b = Bgp::new(r.asn);
        b.router_id = Some(r.router_id);
        b.multipath_relax = r.multipath_relax;
        b.max_paths_ebgp = r.maximum_paths;
        b.ipv4 = Some(super::AddressFamily {
            networks: r.networks.iter().copied().collect(),
            extras: Vec::new(),
        });
        b.neighbors = r
            .neighbors
            .iter()
            .map(|(a, n)| {
                let peer = Peer {
                    remote_as: Some(n.asn),
                    shutdown: Some(false),
                    ..Peer::default()
                };
                (*a, peer)
            })
            .collect();
        c.bgp = Some(b);
    }
    c
}

/// A port's VLANs: OS10 prints the access VLAN explicitly (`switchport access vlan 1`, the
/// TOR capture); a trunk's tagged VLANs as `switchport trunk allowed vlan`.
fn l2(s: &PortSettings, e: &mut Interface) {
    if s.address.is_some() {
        e.routed = true;
        e.address = s.address;
        return;
    }
    let trunk = matches!(
        s.switchport,
        Some(crate::types::SwitchportMode::Trunk | crate::types::SwitchportMode::Hybrid)
    );
    if trunk {
        // A trunk's untagged VLAN is printed too (`switchport access vlan 7` under `switchport
        // mode trunk`, the TOR capture), VLAN 1 unless set.
        e.mode = Some(SwitchportMode::Trunk);
        e.access_vlan = s.vlan.or_else(|| Vlan::new(1).ok());
        e.trunk_allowed = s.trunk.as_ref().map(|t| t.iter().copied().collect());
    } else {
        e.access_vlan = s.vlan.or_else(|| Vlan::new(1).ok());
    }
}

/// A port's or port-channel's spanning tree, as the AzureStack TOR prints it on its host
/// ports (`spanning-tree bpduguard enable`, `spanning-tree port type edge`); none on a routed
/// port. The validation refuses `network`, which OS10 has not (E073).
fn stp(s: &PortSettings, e: &mut Interface) {
    if s.address.is_some() {
        return;
    }
    let p = s.stp.printed();
    e.bpduguard = p.bpduguard;
    e.stp_guard = p.guard;
    e.stp_type = p.port_type;
}

/// Absolute ECN thresholds in KB; relative ones have no OS10 spelling (refused by the
/// fabric validation on an OS10 switch).
fn absolute(e: Ecn) -> Option<(u32, u32)> {
    match (e.mode, e.thresholds) {
        (EcnMode::Red, _) => None,
        (_, EcnThresholds::Absolute { min, max }) => Some((min, max)),
        (_, EcnThresholds::Relative { .. }) => None,
    }
}

/// The classes of a queuing policy: WRR weights as `bandwidth percent` (OS10's shares sum to
/// 100: weights are scaled, the remainder to the largest), strict as `priority` (UNCONFIRMED
/// spelling, the reference), ECN as `random-detect` of its profile.
fn queuing_classes(q: &Queuing, wreds: &BTreeMap<(u32, u32), String>) -> Vec<PolicyClass> {
    let total: u32 = q
        .iter()
        .filter_map(|(_, e, _)| match e {
            Some(Ets::Wrr(w)) => Some(u32::from(*w)),
            _ => None,
        })
        .sum();
    let mut out: Vec<PolicyClass> = q
        .iter()
        .map(|(tc, ets, ecn)| PolicyClass {
            name: format!("Q{tc}"),
            bandwidth: match ets {
                Some(Ets::Wrr(w)) if total > 0 => u8::try_from(u32::from(*w) * 100 / total).ok(),
                _ => None,
            },
            priority: matches!(ets, Some(Ets::Strict)),
            random_detect: ecn.and_then(|t| wreds.get(&t).cloned()),
            ..PolicyClass::default()
        })
        .collect();
    let sum: u32 = out.iter().filter_map(|c| c.bandwidth).map(u32::from).sum();
    if total > 0 && sum < 100 {
        let largest = (0..out.len()).max_by_key(|i| (out[*i].bandwidth, std::cmp::Reverse(*i)));
        if let Some(i) = largest {
            let b = out[i].bandwidth.unwrap_or(0);
            out[i].bandwidth = u8::try_from(u32::from(b) + 100 - sum).ok();
        }
    }
    out
}
