//! An imported OS10 switch's ports: its model (given, else guessed), the Ethernet interfaces
//! its breakouts and port groups make and the fabric's port each is written as, and each
//! port's settings in the format's terms (the RoCE QoS from the policies the port names,
//! trust from `system qos`, a port-channel member carrying its port-channel's L2, QoS and
//! spanning tree).

use std::collections::BTreeSet;
use std::sync::LazyLock;

use super::Prepared;
use crate::import::Source;
use crate::import::doc::{EcnDoc, EtsDoc};
use crate::import::links;
use crate::import::ports::{Attr, stp_attrs};
use crate::os10::models::{MODELS, Model};
use crate::os10::{
    ChannelGroup, Color, Config, Eth, Iface, Interface, LacpMode, QosKind, SwitchportMode,
    TrustKind,
};
use crate::types::Port;

/// The fabric's port for an OS10 front-panel port.
pub(super) fn port(e: Eth) -> Port {
    match e.sub {
        Some(s) => Port::sub(1, e.port, s),
        None => Port::new(1, e.port),
    }
}

/// The model with the fewest ports that has every front-panel port the config names, takes
/// every breakout map it prints (OS10 prints each breakout-capable port's map, the native one
/// included: a 40G switch's `map 40g-1x` is no 100G switch's) and has every port group it
/// prints, in its mode (the TOR capture prints all 18 of the S5248F-ON's).
pub(super) fn guess(c: &Config) -> Option<&'static Model> {
    let used: Vec<Eth> = c
        .interfaces
        .keys()
        .filter_map(|k| match k {
            Iface::Ethernet(e) => Some(*e),
            _ => None,
        })
        .collect();
    MODELS
        .iter()
        .filter(|m| {
            used.iter()
                .all(|e| e.node == 1 && e.slot == 1 && m.run(e.port).is_some())
                && c.breakouts.iter().all(|(e, map)| m.allows(e.port, map))
                && c.port_groups.iter().all(|(id, g)| {
                    id.node == 1
                        && id.slot == 1
                        && m.port_group(id.number).is_some_and(|pg| {
                            g.mode.as_deref().is_none_or(|x| pg.layout(x).is_some())
                        })
                })
        })
        .min_by_key(|m| m.port_count())
}

/// What a switch's QoS objects say, switch-wide.
pub(super) struct SwitchQos {
    /// Priorities a network-qos class pauses (`pause`, `pfc-cos`).
    pub(super) lossless: BTreeSet<u8>,
    /// The trust map `system qos` names.
    pub(super) trust: Option<TrustKind>,
}

pub(super) fn switch_qos(c: &Config) -> SwitchQos {
    let lossless = c
        .policy_maps
        .iter()
        .filter(|p| p.kind == QosKind::NetworkQos)
        .flat_map(|p| &p.classes)
        .filter(|k| k.pause)
        .flat_map(|k| k.pfc_cos.iter().flat_map(|r| r.iter()))
        .collect();
    let trust = c
        .system_qos
        .as_ref()
        .and_then(|s| s.trust_map.as_ref())
        .map(|(k, _)| *k);
    SwitchQos { lossless, trust }
}

/// A port's or port-channel's QoS in the format's terms: trust, PFC, and per queue the ETS
/// and ECN of the queuing policy it names.
pub(super) fn qos_attrs(c: &Config, q: &SwitchQos, i: &Interface, out: &mut BTreeSet<Attr>) {
    // The port's own trust map, else the switch's; none at all trusts nothing, the format's
    // `trust: port` (`fabric::meaning`: OS10 classifies nothing without a trust map).
    let trust = match i.trust_map.as_ref().map(|(k, _)| *k).or(q.trust) {
        Some(TrustKind::Dscp) => "L3",
        Some(TrustKind::Dot1p) => "L2",
        None => "port",
    };
    out.insert(Attr::Trust(trust.into()));
    // With lossless priorities the fabric puts every port in PFC mode unless it says `pfc:
    // false`; without, PFC is off unless it says `pfc: true`.
    match (i.pfc, q.lossless.is_empty()) {
        (true, false) => {}
        (false, false) => {
            out.insert(Attr::PfcOff);
        }
        (pfc, true) => {
            out.insert(Attr::Pfc(pfc));
        }
    }
    let Some(policy) = i.policy_out.as_ref().and_then(|n| {
        c.policy_maps
            .iter()
            .find(|p| p.kind == QosKind::Queuing && p.name == *n)
    }) else {
        return;
    };
    for class in &policy.classes {
        let queue = c
            .class_maps
            .iter()
            .find(|m| m.kind == QosKind::Queuing && m.name == class.name)
            .and_then(|m| m.matches)
            .and_then(|r| r.iter().next());
        let Some(tc) = queue else { continue };
        if class.priority {
            out.insert(Attr::Ets(tc, EtsDoc::Strict("strict")));
        } else if let Some(b) = class.bandwidth {
            out.insert(Attr::Ets(tc, EtsDoc::Wrr(b)));
        }
        let green = class
            .random_detect
            .as_ref()
            .and_then(|n| c.wred.iter().find(|w| w.name == *n))
            .and_then(|w| w.colors.get(&Color::Green));
        if let Some(t) = green {
            out.insert(Attr::Ecn(
                tc,
                EcnDoc {
                    mode: None,
                    min: Some(t.min),
                    max: Some(t.max),
                    min_percent: None,
                    max_percent: None,
                },
            ));
        }
    }
}

/// A port's or port-channel's L2 (or routed address) in the format's terms: OS10 prints the
/// access VLAN explicitly, VLAN 1 when none is set.
pub(super) fn l2_attrs(i: &Interface, out: &mut BTreeSet<Attr>) {
    if i.routed {
        if let Some(a) = i.address {
            out.insert(Attr::Address(a.to_string()));
        }
        return;
    }
    if i.mode == Some(SwitchportMode::Trunk) {
        out.insert(Attr::Switchport("trunk".into()));
        if let Some(t) = &i.trunk_allowed {
            out.insert(Attr::Vlans(t.iter().map(|v| v.get()).collect()));
        }
    }
    if let Some(v) = i.access_vlan.filter(|v| v.get() != 1) {
        out.insert(Attr::Vlan(v.get()));
    }
}

/// An Ethernet interface of the switch, the fabric's port it is written as, and the speed
/// written for it (none: its native one).
pub(super) type Written = (Eth, Port, Option<String>);

/// Each Ethernet interface the model's ports are under the config's breakouts and port-group
/// modes, as the fabric writes it, with the speed the fabric says when it is not the port's
/// native one (its split's share): a subport of a split port is `ethernet1/1/53:2`; a port its
/// group's mode names as subport 1 without a split (`ethernet1/1/17:1` in `10g-4x`) is written
/// by its own name with its speed (`ethernet1/1/17: { speed: 10G }`), which is how a fabric
/// asks for that mode. Also the split ports and their ways.
pub(super) fn interfaces(c: &Config, model: &Model) -> (Vec<Written>, Vec<(Port, u8)>) {
    let all = crate::os10::groups::interfaces(c, model);
    let mut out = Vec::with_capacity(all.len());
    let mut splits = Vec::new();
    // In port order: one run of interfaces per port.
    for mine in all.chunk_by(|a, b| a.0.port == b.0.port) {
        let n = mine[0].0.port;
        let ways = mine.len();
        let native = model.run(n).map_or(0, |r| r.speed) / u16::try_from(ways.max(1)).unwrap_or(1);
        if ways > 1 {
            splits.push((Port::new(1, n), u8::try_from(ways).unwrap_or(u8::MAX)));
        }
        for &(e, speed) in mine {
            let fabric_port = if ways == 1 { Port::new(1, n) } else { port(e) };
            let said = (speed != native)
                .then(|| crate::types::Speed::from_gbps(u32::from(speed)))
                .flatten()
                .map(|s| s.to_string());
            out.push((e, fabric_port, said));
        }
    }
    (out, splits)
}

/// What every port of a switch reads its attributes against.
struct Switch<'c> {
    config: &'c Config,
    qos: SwitchQos,
    /// The VLTi's ports (`discovery-interface`).
    discovery: BTreeSet<Eth>,
    /// The port-channel the VLTi's ports are written in, for a switch imported without its
    /// VLT peer.
    half: Option<u16>,
}

/// An interface the config does not configure: its defaults.
static NONE: LazyLock<Interface> = LazyLock::new(Interface::default);

/// One switch read: its model (given, else guessed), its ports with their attributes, its
/// VLTi ports and cables' ends. `paired`: its VLT peer is imported too.
pub(super) fn prepare<'a>(
    name: &'a str,
    source: &'a Source,
    config: &'a Config,
    paired: bool,
) -> Result<Prepared<'a>, String> {
    let c = config;
    let given = source.model.and_then(crate::os10::target::model_of);
    let model = given.or_else(|| guess(c)).ok_or_else(|| {
        format!(
            "{}: no OS10 model in the table has these ports; say it with `--model`",
            source.origin
        )
    })?;
    let discovery: BTreeSet<Eth> = c
        .vlt
        .as_ref()
        .map(|v| v.discovery.clone())
        .unwrap_or_default();
    // Without its peer the VLTi is a port-channel of the switch's `mlag` half, one it does
    // not use (OS10 prints none for the VLTi: its ports are `discovery-interface`s).
    let half = (!paired && c.vlt.is_some()).then(|| super::switch::unused_port_channel(&[c]));
    let (ifaces, splits) = interfaces(c, model);
    let mut p = Prepared {
        name,
        source,
        config,
        model,
        ports: Vec::new(),
        ipl: BTreeSet::new(),
        half,
        splits,
        ends: Vec::new(),
    };
    let sw = Switch {
        config: c,
        qos: switch_qos(c),
        discovery,
        half,
    };
    for (e, fabric, speed) in ifaces {
        let found = c.interfaces.get(&Iface::Ethernet(e));
        if let Some(i) = found.filter(|_| !sw.discovery.contains(&e))
            && let Some(description) = i.description.as_deref()
        {
            p.ends.push(links::End {
                port: fabric,
                name: Iface::Ethernet(e).to_string(),
                description,
                address: i.address.filter(|_| i.routed),
            });
        }
        if sw.discovery.contains(&e) {
            p.ipl.insert(fabric);
        }
        let a = port_attrs(&sw, e, found.unwrap_or(&NONE), speed);
        p.ports
            .push((fabric, a, found.and_then(|i| i.description.as_ref())));
    }
    Ok(p)
}

/// A port's attributes: its own speed, MTU and admin state; the VLTi's the IPL's QoS (its
/// ports are the IPL's members); a port-channel member its port-channel's settings; any other
/// port its own.
fn port_attrs(sw: &Switch, e: Eth, i: &Interface, speed: Option<String>) -> BTreeSet<Attr> {
    let c = sw.config;
    let mut a = BTreeSet::new();
    if let Some(s) = speed {
        a.insert(Attr::Speed(s));
    }
    if let Some(m) = i.mtu {
        a.insert(Attr::Mtu(m));
    }
    if i.shutdown == Some(true) {
        a.insert(Attr::Admin("down".into()));
    }
    if sw.discovery.contains(&e) {
        qos_attrs(c, &sw.qos, i, &mut a);
        if let Some(pc) = sw.half {
            a.insert(Attr::Bundle(false, pc, "active".into()));
        }
    } else if let Some(g) = i.channel_group {
        member_attrs(sw, g, &mut a);
    } else {
        l2_attrs(i, &mut a);
        qos_attrs(c, &sw.qos, i, &mut a);
        stp_attrs(i.stp_type, i.bpduguard, i.stp_guard, &mut a);
    }
    a
}

/// A port-channel member's bundle, and its port-channel's L2, QoS, spanning tree and
/// description (written on its members).
fn member_attrs(sw: &Switch, g: ChannelGroup, a: &mut BTreeSet<Attr>) {
    let c = sw.config;
    let pc = c.interfaces.get(&Iface::PortChannel(g.id)).unwrap_or(&NONE);
    let mode = match g.mode {
        LacpMode::Active => "active",
        LacpMode::Passive => "passive",
        LacpMode::On => "on",
    };
    a.insert(Attr::Bundle(
        pc.vlt_port_channel.is_some(),
        g.id,
        mode.into(),
    ));
    l2_attrs(pc, a);
    qos_attrs(c, &sw.qos, pc, a);
    stp_attrs(pc.stp_type, pc.bpduguard, pc.stp_guard, a);
    if let Some(d) = &pc.description {
        a.insert(Attr::BundleDescription(d.clone()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::os10::target::OS10;
    use crate::targets::SwitchOs;

    #[test]
    fn ports_and_ranges_are_named_as_os10_names_them() {
        assert_eq!(
            OS10.port_range(Port::new(1, 5), Port::new(1, 5)),
            "ethernet1/1/5"
        );
        assert_eq!(
            OS10.port_range(Port::new(1, 1), Port::new(1, 8)),
            "ethernet1/1/1-1/1/8"
        );
        assert_eq!(port(Eth::sub(17, 1)), Port::sub(1, 17, 1));
    }
}
