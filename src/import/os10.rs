//! OS10 running configurations → the OS10 switches of a fabric file. The inverse of
//! `os10::compile`: each port's settings read back into the format's terms (the RoCE QoS from the
//! policies a port names: PFC from its network-qos policy, ETS from its queuing policy's `bandwidth
//! percent`, ECN from the `wred` profile a queue's class names, trust from `system qos`), the
//! lossless priorities from the network-qos classes that `pause`, a VLT pair's domain as a fabric
//! `mlag` pair and its VLTi as a `role: ipl` link, VLAN interfaces, the loopback and BGP; a port
//! broken out (`interface breakout`, or its port group's mode) as a `split`, and a port group's
//! mode other than its native one as the speed of its ports. Whether the fabric reproduces the
//! config is not decided here but checked afterwards by planning the compiled config against it
//! (`check`): what the format cannot say is a located line of that plan. Lines the model keeps
//! verbatim (a plan never touches them) are listed in a comment above the switch. Nothing here
//! reads files or prints.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_saphyr::{Commented, FlowMap, FlowSeq};

use super::links::{self, Links};
use super::{
    Attr, BgpDoc, Described, Doc, EcnDoc, EtsDoc, LinkDoc, Lost, Member, Ordered, PoolDoc, Qos,
    Run, Settings, SwitchEntry, VlanDoc, apart, common, host_defaults, make_profiles, peers,
    profiled, runs, settings, stp_attrs, unused_defaults,
};
use crate::os10::models::Model;
use crate::os10::{Config, Eth, Iface, Interface, LacpMode, QosKind, SwitchportMode, TrustKind};
use crate::types::Port;

/// One OS10 switch to import.
pub struct Source {
    /// Where it came from (`backups/leaf-a.cfg`).
    pub origin: String,
    /// The text it was read from: what the fabric does not reproduce is located in it.
    pub text: crate::input::Text,
    pub config: Config,
    /// The model, when the user says it (`--model`); else guessed from the ports.
    pub model: Option<&'static Model>,
}

/// An OS10 switch as the fabric writes it.
#[derive(Serialize)]
pub(super) struct SwitchDoc {
    #[serde(skip_serializing_if = "Option::is_none")]
    os: Option<&'static str>,
    model: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    os10: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    qos: Option<Qos>,
    #[serde(skip_serializing_if = "Option::is_none")]
    set_hostname: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loopback: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    vlans: Vec<FlowMap<VlanDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stp: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    host_ports: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unused_ports: Option<&'static str>,
    /// The VLT domain of a switch imported without its peer.
    #[serde(skip_serializing_if = "Option::is_none")]
    mlag: Option<super::MlagDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bgp: Option<BgpDoc>,
    /// The management address the VLT peer's `backup destination` names.
    #[serde(skip_serializing_if = "Option::is_none")]
    mgmt: Option<FlowMap<MgmtDoc>>,
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    ports: Ordered<FlowMap<Settings>>,
}

/// `mgmt: { host: A }`.
#[derive(Serialize)]
pub(super) struct MgmtDoc {
    host: String,
}

/// A fabric `mlag` pair: on OS10 a VLT domain.
#[derive(Serialize)]
pub(super) struct PairDoc {
    switches: FlowSeq<Vec<String>>,
    system_mac: String,
    ipl: FlowMap<IplDoc>,
}

/// The pair's IPL. OS10 uses only the port-channel number, to find the VLTi cables (the
/// `role: ipl` link); the VLAN and subnet the format requires are not printed for OS10, so
/// the import picks ones the switches do not use.
#[derive(Serialize)]
struct IplDoc {
    port_channel: u16,
    vlan: u16,
    subnet: &'static str,
}

/// The subnet written for an OS10 pair's IPL (never printed on OS10).
const IPL_SUBNET: &str = "10.254.255.0/30";

/// The IPL peer's address written for an OS10 switch's `mlag` half: the second of
/// [`IPL_SUBNET`] (never printed on OS10).
const IPL_PEER: &str = "10.254.255.2";

/// A port-channel number none of `configs` uses, for an OS10 IPL (never printed).
fn unused_port_channel(configs: &[&Config]) -> u16 {
    let used = |n: u16| {
        configs
            .iter()
            .any(|c| c.interfaces.contains_key(&Iface::PortChannel(n)))
    };
    (1000..=4096).find(|n| !used(*n)).unwrap_or(4096)
}

/// A VLAN none of `configs` uses, for an OS10 IPL (never printed).
fn unused_vlan(configs: &[&Config]) -> u16 {
    let used = |v: u16| configs.iter().any(|c| vlans(c).iter().any(|d| d.id == v));
    (2..=4000).rev().find(|v| !used(*v)).unwrap_or(4000)
}

/// The `mlag` half of a VLT switch imported without its peer: its `vlt-mac`, the VLTi's
/// port-channel ([`Prepared::half`]), an IPL VLAN and peer address the switch does not use
/// (OS10 prints neither), and the peer's management address its `backup destination` names.
fn half_doc(c: &Config, port_channel: u16) -> Option<super::MlagDoc> {
    let vlt = c.vlt.as_ref()?;
    Some(super::MlagDoc {
        system_mac: vlt.vlt_mac?.to_string(),
        domain: None,
        vip: None,
        ipl: FlowMap(super::IplDoc {
            port_channel,
            vlan: unused_vlan(&[c]),
            address: None,
            peer: IPL_PEER.to_string(),
        }),
        peer_mgmt: vlt.backup.map(|a| a.to_string()),
    })
}

/// A port's OS10 name, or a range's (`ethernet1/1/1-1/1/4`).
pub(super) fn range_name(first: Port, last: Port) -> String {
    let name = |p: Port| crate::fabric::Os::Os10.port_name(p);
    if first == last {
        name(first)
    } else {
        format!(
            "{}-{}",
            name(first),
            name(last).trim_start_matches("ethernet")
        )
    }
}

/// The fabric's ports from `first` to `last`: OS10 counts subports within their port
/// (`ethernet1/1/53:1-1/1/53:4`) and ports by number.
fn span(first: Port, last: Port) -> Vec<Port> {
    match (first.sub, last.sub) {
        (Some(a), Some(b)) if first.port == last.port => {
            (a..=b).map(|s| Port::sub(1, first.port, s)).collect()
        }
        _ => (first.port..=last.port).map(|n| Port::new(1, n)).collect(),
    }
}

/// The fabric's port for an OS10 front-panel port.
fn port(e: Eth) -> Port {
    match e.sub {
        Some(s) => Port::sub(1, e.port, s),
        None => Port::new(1, e.port),
    }
}

/// The model with the fewest ports that has every front-panel port the config names, takes
/// every breakout map it prints (OS10 prints each breakout-capable port's map, the native one
/// included: a 40G switch's `map 40g-1x` is no 100G switch's) and has every port group it
/// prints, in its mode (the TOR capture prints all 18 of the S5248F-ON's).
fn guess(c: &Config) -> Option<&'static Model> {
    let used: Vec<Eth> = c
        .interfaces
        .keys()
        .filter_map(|k| match k {
            Iface::Ethernet(e) => Some(*e),
            _ => None,
        })
        .collect();
    crate::os10::models::MODELS
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
struct SwitchQos {
    /// Priorities a network-qos class pauses (`pause`, `pfc-cos`).
    lossless: BTreeSet<u8>,
    /// The trust map `system qos` names.
    trust: Option<TrustKind>,
}

fn switch_qos(c: &Config) -> SwitchQos {
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
fn qos_attrs(c: &Config, q: &SwitchQos, i: &Interface, out: &mut BTreeSet<Attr>) {
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
            .and_then(|w| w.colors.get(&crate::os10::Color::Green));
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
fn l2_attrs(i: &Interface, out: &mut BTreeSet<Attr>) {
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

/// The attributes a port's QoS contributes, which an IPL port takes from the defaults (the
/// compiled VLTi port prints no QoS whatever it says).
fn is_qos(a: &Attr) -> bool {
    matches!(
        a,
        Attr::Trust(_) | Attr::Ecn(..) | Attr::Ets(..) | Attr::Pfc(_) | Attr::PfcOff
    )
}

/// One switch, read: its model, its ports with their attributes, the VLTi ports.
struct Prepared<'a> {
    name: &'a str,
    source: &'a Source,
    model: &'static Model,
    ports: Vec<(Port, BTreeSet<Attr>, Option<&'a String>)>,
    /// The VLTi ports of its VLT domain.
    ipl: BTreeSet<Port>,
    /// A VLT switch imported without its peer: the port-channel its VLTi ports are written
    /// in (`lag`), which its `mlag` half names as the IPL.
    half: Option<u16>,
    /// Front-panel ports broken out (by `interface breakout` or their port group's mode), and
    /// how many ways: `split` entries.
    splits: Vec<(Port, u8)>,
    /// Its described ports but the VLTi's, each may end a cable to another imported switch.
    ends: Vec<links::End<'a>>,
}

/// An Ethernet interface of the switch, the fabric's port it is written as, and the speed
/// written for it (none: its native one).
type Written = (Eth, Port, Option<String>);

/// Each Ethernet interface the model's ports are under the config's breakouts and port-group
/// modes, as the fabric writes it, with the speed the fabric says when it is not the port's
/// native one (its split's share): a subport of a split port is `ethernet1/1/53:2`; a port its
/// group's mode names as subport 1 without a split (`ethernet1/1/17:1` in `10g-4x`) is written
/// by its own name with its speed (`ethernet1/1/17: { speed: 10G }`), which is how a fabric
/// asks for that mode. Also the split ports and their ways.
fn interfaces(c: &Config, model: &Model) -> (Vec<Written>, Vec<(Port, u8)>) {
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

fn prepare<'a>(name: &'a str, source: &'a Source, paired: bool) -> Result<Prepared<'a>, String> {
    let c = &source.config;
    let model = source.model.or_else(|| guess(c)).ok_or_else(|| {
        format!(
            "{}: no OS10 model in the table has these ports; say it with `--model`",
            source.origin
        )
    })?;
    let q = switch_qos(c);
    let discovery: BTreeSet<Eth> = c
        .vlt
        .as_ref()
        .map(|v| v.discovery.clone())
        .unwrap_or_default();
    // Without its peer the VLTi is a port-channel of the switch's `mlag` half, one it does
    // not use (OS10 prints none for the VLTi: its ports are `discovery-interface`s).
    let half = (!paired && c.vlt.is_some()).then(|| unused_port_channel(&[c]));
    let none = Interface::default();
    let mut ports = Vec::new();
    let mut ipl = BTreeSet::new();
    let mut ends = Vec::new();
    let (ifaces, splits) = interfaces(c, model);
    for (e, fabric, speed) in ifaces {
        let found = c.interfaces.get(&Iface::Ethernet(e));
        let i = found.unwrap_or(&none);
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
        if let Some(i) = found.filter(|_| !discovery.contains(&e))
            && let Some(description) = i.description.as_deref()
        {
            ends.push(links::End {
                port: fabric,
                name: Iface::Ethernet(e).to_string(),
                description,
                address: i.address.filter(|_| i.routed),
            });
        }
        if discovery.contains(&e) {
            // The VLTi carries the IPL's QoS (its ports are the IPL's members).
            ipl.insert(fabric);
            qos_attrs(c, &q, i, &mut a);
            if let Some(pc) = half {
                a.insert(Attr::Bundle(false, pc, "active".into()));
            }
        } else if let Some(g) = i.channel_group {
            let pc = c.interfaces.get(&Iface::PortChannel(g.id)).unwrap_or(&none);
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
            l2_attrs(pc, &mut a);
            qos_attrs(c, &q, pc, &mut a);
            // The port-channel's spanning tree and description, written on its members.
            stp_attrs(pc.stp_type, pc.bpduguard, pc.stp_guard, &mut a);
            if let Some(d) = &pc.description {
                a.insert(Attr::BundleDescription(d.clone()));
            }
        } else {
            l2_attrs(i, &mut a);
            qos_attrs(c, &q, i, &mut a);
            stp_attrs(i.stp_type, i.bpduguard, i.stp_guard, &mut a);
        }
        ports.push((fabric, a, found.and_then(|i| i.description.as_ref())));
    }
    Ok(Prepared {
        name,
        source,
        model,
        ports,
        ipl,
        half,
        splits,
        ends,
    })
}

/// The switch-wide QoS the format writes: the lossless priorities as one lossless pool (PFC
/// on them and on every port follows, as the compile has it).
fn qos(c: &Config) -> Option<Qos> {
    let q = switch_qos(c);
    if q.lossless.is_empty() {
        return None;
    }
    let pool = PoolDoc {
        kind: "lossless".into(),
        memory: None,
        priorities: q.lossless.into_iter().collect(),
    };
    Some(Qos {
        roce: None,
        pools: BTreeMap::from([("lossless".to_string(), FlowMap(pool))]),
        pfc: None,
    })
}

/// VLAN interfaces as VLANs: their description is the name (VLAN 1 only with an address).
fn vlans(c: &Config) -> Vec<VlanDoc> {
    c.interfaces
        .iter()
        .filter_map(|(k, i)| match k {
            Iface::Vlan(v) if v.get() != 1 || i.address.is_some() => Some(VlanDoc {
                id: v.get(),
                name: i.description.clone(),
                address: None,
                mtu: None,
            }),
            _ => None,
        })
        .collect()
}

/// The `mtu` a gateway VLAN's entry writes: none where the fabric derives the interface's MTU
/// from the ports that carry the VLAN (the largest MTU a port sets, its VLANs its
/// port-channel's), else the interface's own (OS10's default where it has none).
fn gateway_mtu(c: &Config, v: u16) -> Option<u16> {
    let have = crate::types::Vlan::new(i64::from(v))
        .ok()
        .and_then(|v| c.interfaces.get(&Iface::Vlan(v)))
        .and_then(|e| e.mtu);
    let carries = |e: &crate::os10::Interface| {
        !e.routed
            && (e.access_vlan.map_or(1, |a| a.get()) == v
                || e.trunk_allowed
                    .iter()
                    .flat_map(|s| s.iter())
                    .any(|a| a.get() == v))
    };
    let derived = c
        .interfaces
        .iter()
        .filter_map(|(k, e)| {
            let (Iface::Ethernet(_), Some(m)) = (k, e.mtu) else {
                return None;
            };
            let l2 = match e.channel_group {
                Some(g) => c.interfaces.get(&Iface::PortChannel(g.id))?,
                None => e,
            };
            carries(l2).then_some(m)
        })
        .max()
        .filter(|m| *m != crate::os10::DEFAULT_MTU);
    (have != derived).then(|| have.unwrap_or(crate::os10::DEFAULT_MTU))
}

fn gateways(c: &Config) -> BTreeMap<u16, crate::types::Ipv4Net> {
    c.interfaces
        .iter()
        .filter_map(|(k, i)| match (k, i.address) {
            (Iface::Vlan(v), Some(a)) => Some((v.get(), a)),
            _ => None,
        })
        .collect()
}

fn loopback(c: &Config) -> Option<std::net::Ipv4Addr> {
    c.interfaces
        .get(&Iface::Loopback(0))
        .and_then(|i| i.address)
        .filter(|a| a.len == 32)
        .map(|a| a.addr)
}

/// BGP written out, without the sessions its routed cables give and the prefixes the fabric
/// advertises anyway (the loopback, gateway subnets, routed host ports' subnets).
fn bgp(c: &Config, name: &str, links: &Links) -> Option<BgpDoc> {
    let b = c.bgp.as_ref()?;
    let mut derived: BTreeSet<crate::types::Ipv4Net> = loopback(c)
        .map(|addr| crate::types::Ipv4Net { addr, len: 32 })
        .into_iter()
        .collect();
    derived.extend(gateways(c).values().map(|g| g.network()));
    let host_ports = c.interfaces.iter().filter_map(|(k, i)| match k {
        Iface::Ethernet(_) if i.routed => i.address,
        _ => None,
    });
    derived.extend(links.host_subnets(name, host_ports));
    // BFD runs once `bfd enable` does, for the neighbors with `bfd`, with one set of timers.
    let bfd = |p: &crate::os10::Peer| c.bfd && p.bfd;
    let timers = c.bfd_interval.unwrap_or(crate::os10::BfdInterval::DEFAULT);
    let on = || {
        super::BfdDoc::on(crate::fabric::BfdTimers {
            interval: timers.interval,
            min_rx: timers.min_rx,
            multiplier: timers.multiplier,
        })
    };
    // The sessions over routed cables: the fabric derives them, BFD on them by default.
    let derives = |a: &std::net::Ipv4Addr, p: &crate::os10::Peer| {
        p.remote_as.is_some_and(|n| links.derives(name, *a, n))
    };
    let linked: Vec<&crate::os10::Peer> = b
        .neighbors
        .iter()
        .filter(|(a, p)| derives(a, p))
        .map(|(_, p)| p)
        .collect();
    let bfd_doc = match linked.first() {
        Some(p) if bfd(p) => Some(on()),
        Some(_) => Some(super::BfdDoc::Flag(false)),
        None => b.neighbors.iter().any(|(_, p)| bfd(p)).then(on),
    };
    Some(BgpDoc {
        asn: b.asn,
        router_id: b.router_id.map(|r| r.to_string()),
        maximum_paths: b.max_paths_ebgp,
        multipath_relax: b.multipath_relax,
        bfd: bfd_doc,
        timers: None,
        // On by default on OS10 (and where the fabric has routed links): off is written.
        fast_external_fallover: (!b.fast_external_fallover).then_some(false),
        neighbors: b
            .neighbors
            .iter()
            .filter(|(a, p)| !derives(a, p))
            .filter_map(|(a, p)| {
                Some(FlowMap(super::NeighborDoc {
                    address: a.to_string(),
                    remote_as: p.remote_as?,
                    bfd: bfd(p),
                    timers: p.timers.map(super::TimersDoc::of),
                }))
            })
            .collect(),
        networks: b
            .ipv4
            .iter()
            .flat_map(|af| &af.networks)
            .filter(|n| !derived.contains(n))
            .map(|n| n.to_string())
            .collect(),
    })
}

/// The ports of a switch whose descriptions may read as peers: all but the VLTi's (when its
/// `role: ipl` link describes it: its peer is imported) and the cables' to other imported
/// switches, which their links describe.
fn described<'a>(p: &Prepared<'a>, links: &Links) -> Vec<(Port, &'a String)> {
    p.ports
        .iter()
        .filter(|(port, _, _)| p.half.is_some() || !p.ipl.contains(port))
        .filter(|(port, _, _)| !links.linked(p.name, *port))
        .filter_map(|(port, _, d)| d.map(|d| (*port, d)))
        .collect()
}

/// VLT pairs among the imported switches: two with a VLT domain and the same `vlt-mac`.
fn pairs(sources: &BTreeMap<String, Source>) -> Vec<(&str, &str)> {
    let vlt: Vec<(&str, crate::types::Mac)> = sources
        .iter()
        .filter_map(|(n, s)| Some((n.as_str(), s.config.vlt.as_ref()?.vlt_mac?)))
        .collect();
    let mut out = Vec::new();
    for (k, (a, mac)) in vlt.iter().enumerate() {
        let same: Vec<&str> = vlt
            .iter()
            .filter(|(_, m)| m == mac)
            .map(|(n, _)| *n)
            .collect();
        if same.len() == 2
            && let Some((b, _)) = vlt[k + 1..].iter().find(|(_, m)| m == mac)
        {
            out.push((*a, *b));
        }
    }
    out
}

/// Consecutive runs of two equally long lists of ports, cable by cable.
fn cable_runs(a: &BTreeSet<Port>, b: &BTreeSet<Port>) -> Vec<(Port, Port, Port, Port)> {
    let mut out: Vec<(Port, Port, Port, Port)> = Vec::new();
    for (x, y) in a.iter().zip(b) {
        if let Some(last) = out.last_mut()
            && last.1.precedes(*x)
            && last.3.precedes(*y)
        {
            last.1 = *x;
            last.3 = *y;
            continue;
        }
        out.push((*x, *x, *y, *y));
    }
    out
}

/// The OS10 switches read: their VLT pairs and each one prepared.
pub(super) struct Read<'a> {
    sources: &'a BTreeMap<String, Source>,
    pairs: Vec<(&'a str, &'a str)>,
    prepared: Vec<Prepared<'a>>,
}

/// Reads each OS10 switch: its model (given, else guessed), ports, and VLT pair.
pub(super) fn read(sources: &BTreeMap<String, Source>) -> Result<Read<'_>, String> {
    let pairs = pairs(sources);
    let paired = |n: &str| pairs.iter().any(|(a, b)| *a == n || *b == n);
    let prepared = sources
        .iter()
        .map(|(n, s)| prepare(n, s, paired(n)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Read {
        sources,
        pairs,
        prepared,
    })
}

impl<'a> Read<'a> {
    /// The switches as their cables see them: their described ports but the VLTi's, each
    /// routed one's address, their AS.
    pub(super) fn cable_ends(&self) -> Vec<links::Switch<'a>> {
        self.prepared
            .iter()
            .map(|p| links::Switch {
                name: p.name,
                os: crate::fabric::Os::Os10,
                asn: p.source.config.bgp.as_ref().map(|b| b.asn),
                ends: p.ends.clone(),
            })
            .collect()
    }
}

/// Adds the OS10 switches to `doc`, with their cables to the others (`links`). `alone`: they
/// are the fabric's only switches (settings they all share become fabric-wide). Per switch,
/// the lines the fabric does not carry and a plan leaves alone, for the comment above it.
pub(super) fn add(
    doc: &mut Doc,
    read: &mut Read,
    alone: bool,
    links: &Links,
) -> BTreeMap<String, Vec<String>> {
    let Read {
        sources,
        pairs,
        prepared,
    } = read;
    let (sources, pairs): (&BTreeMap<String, Source>, &[(&str, &str)]) = (sources, pairs);
    if sources.is_empty() {
        return BTreeMap::new();
    }
    let paired = |n: &str| pairs.iter().any(|(a, b)| *a == n || *b == n);
    let release = |c: &Config| c.header.version.clone().filter(|v| is_release(v));
    let shared_release = common(prepared.iter().map(|p| release(&p.source.config)))
        .flatten()
        .filter(|_| alone);
    let shared_qos = common(prepared.iter().map(|p| qos(&p.source.config))).filter(|_| alone);
    let shared_vlans = common(prepared.iter().map(|p| vlans(&p.source.config))).filter(|_| alone);
    // Bundle members whose descriptions name different hosts stay descriptions.
    let group = |n: &str| -> String {
        pairs
            .iter()
            .find(|(a, b)| *a == n || *b == n)
            .map_or(n.to_string(), |(a, b)| format!("{a}+{b}"))
    };
    let groups: BTreeMap<&str, String> = prepared.iter().map(|p| (p.name, group(p.name))).collect();
    let apart = apart(prepared.iter().flat_map(|p| {
        let bundles: BTreeMap<Port, (bool, u16)> = p
            .ports
            .iter()
            .filter_map(|(port, a, _)| {
                a.iter().find_map(|x| match x {
                    Attr::Bundle(mlag, id, _) => Some((*port, (*mlag, *id))),
                    _ => None,
                })
            })
            .collect();
        let group = groups[p.name].as_str();
        described(p, links)
            .into_iter()
            .filter_map(move |(port, d)| {
                let bundle = *bundles.get(&port)?;
                Some(Member {
                    switch: p.name,
                    group: if bundle.0 { group } else { p.name },
                    bundle,
                    port,
                    description: d,
                })
            })
            .collect::<Vec<_>>()
    }));
    // Per switch: the ports its descriptions give a peer (the VLTi's and the cables' are
    // described by their links), and its ports' attributes less the spanning tree the
    // host-port default gives back (not on a routed port).
    let mut described_peers: Vec<Described> = Vec::new();
    for p in prepared.iter_mut() {
        let apart: BTreeSet<Port> = apart
            .iter()
            .filter(|(n, _)| *n == p.name)
            .map(|(_, port)| *port)
            .collect();
        let peers = peers(&described(p, links), &apart);
        let mut attrs: BTreeMap<Port, BTreeSet<Attr>> =
            p.ports.iter().map(|(q, a, _)| (*q, a.clone())).collect();
        let c = &p.source.config;
        let advertised: Option<BTreeSet<_>> = c.bgp.as_ref().map(|b| {
            let nets = b.ipv4.iter().flat_map(|af| &af.networks);
            nets.copied().collect()
        });
        super::unadvertised(attrs.values_mut(), p.name, advertised.as_ref(), links);
        let routed = |a: &BTreeSet<Attr>| a.iter().any(|x| matches!(x, Attr::Address(_)));
        let host = host_defaults(&mut attrs, &peers, span, routed);
        for (q, a, _) in &mut p.ports {
            if let Some(x) = attrs.remove(q) {
                *a = x;
            }
        }
        described_peers.push((peers, host));
    }
    // Port defaults: what every port but the VLTi's has, on every switch.
    let mut defaults: Option<BTreeSet<Attr>> = None;
    for p in prepared.iter() {
        for (port, a, _) in &p.ports {
            if p.ipl.contains(port) {
                continue;
            }
            defaults = Some(match defaults {
                None => a.clone(),
                Some(d) => d.intersection(a).cloned().collect(),
            });
        }
    }
    let defaults = defaults.filter(|_| alone).unwrap_or_default();
    // Per switch: `unused_ports`, its unused ports' `admin: down` left to the default.
    let mut unused: Vec<Option<&'static str>> = Vec::new();
    for (k, p) in prepared.iter_mut().enumerate() {
        let mut named = p.ipl.clone();
        named.extend(
            p.ports
                .iter()
                .map(|(q, _, _)| *q)
                .filter(|q| links.linked(p.name, *q)),
        );
        for (first, last, _) in &described_peers[k].0 {
            named.extend(span(*first, *last));
        }
        let mut attrs: BTreeMap<Port, BTreeSet<Attr>> =
            p.ports.iter().map(|(q, a, _)| (*q, a.clone())).collect();
        unused.push(unused_defaults(&mut attrs, &defaults, &named));
        for (q, a, _) in &mut p.ports {
            if let Some(x) = attrs.remove(q) {
                *a = x;
            }
        }
    }
    let ranges: Vec<Vec<Run>> = prepared
        .iter()
        .map(|p| {
            let attrs = p.ports.iter().map(|(port, a, _)| {
                let mut a = a.clone();
                if p.ipl.contains(port) {
                    a.extend(defaults.iter().filter(|d| is_qos(d)).cloned());
                }
                (*port, a)
            });
            runs(attrs, &defaults)
        })
        .collect();
    let profile_of = make_profiles(ranges.iter().map(Vec::as_slice), &mut doc.profiles);

    // VLT pairs: the fabric's `mlag` pairs, their VLTi a `role: ipl` link.
    for (a, b) in pairs {
        let (pa, pb) = (&sources[*a].config, &sources[*b].config);
        let port_channel = unused_port_channel(&[pa, pb]);
        let vlan = unused_vlan(&[pa, pb]);
        let system_mac = pa
            .vlt
            .as_ref()
            .and_then(|v| v.vlt_mac)
            .map(|m| m.to_string())
            .unwrap_or_default();
        doc.mlag.push(PairDoc {
            switches: FlowSeq(vec![a.to_string(), b.to_string()]),
            system_mac,
            ipl: FlowMap(IplDoc {
                port_channel,
                vlan,
                subnet: IPL_SUBNET,
            }),
        });
        let ipl = |n: &str| {
            prepared
                .iter()
                .find(|p| p.name == n)
                .map(|p| p.ipl.clone())
                .unwrap_or_default()
        };
        for (a1, a2, b1, b2) in cable_runs(&ipl(a), &ipl(b)) {
            doc.links.push(FlowMap(LinkDoc {
                a: format!("{a}:{}", range_name(a1, a2)),
                b: format!("{b}:{}", range_name(b1, b2)),
                role: Some("ipl"),
            }));
        }
    }

    // A VLT peer's `backup destination` is this switch's management address.
    let peer_backup = |n: &str| {
        let peer = pairs.iter().find_map(|(a, b)| match n {
            _ if *a == n => Some(*b),
            _ if *b == n => Some(*a),
            _ => None,
        })?;
        sources[peer].config.vlt.as_ref()?.backup
    };
    let mut notes = BTreeMap::new();
    for (k, (p, runs)) in prepared.iter().zip(ranges).enumerate() {
        let c = &p.source.config;
        let mut entries: Vec<(Port, String, Settings)> = runs
            .into_iter()
            .map(|(first, last, a)| {
                (
                    first,
                    range_name(first, last),
                    profiled(settings(&a), &profile_of),
                )
            })
            .collect();
        for (first, last, ways) in crate::types::compress(p.splits.iter().map(|(q, w)| (*q, w))) {
            entries.push((
                first,
                range_name(first, last),
                Settings {
                    split: Some(*ways),
                    ..Settings::default()
                },
            ));
        }
        let (described, host_ports) = std::mem::take(&mut described_peers[k]);
        let unused_ports = unused[k];
        for (first, last, s) in described {
            let range = range_name(first, last);
            match entries
                .iter_mut()
                .find(|(f, r, _)| *f == first && *r == range)
            {
                Some((_, _, e)) => {
                    e.description = s.description;
                    e.peer = s.peer;
                }
                None => entries.push((first, range, s)),
            }
        }
        entries.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        let gateways = gateways(c);
        let mut own: Vec<VlanDoc> = match &shared_vlans {
            Some(_) => Vec::new(),
            None => vlans(c),
        };
        for (id, a) in &gateways {
            let mtu = gateway_mtu(c, *id);
            match own.iter_mut().find(|d| d.id == *id) {
                Some(d) => {
                    d.address = Some(a.to_string());
                    d.mtu = mtu;
                }
                None => own.push(VlanDoc {
                    id: *id,
                    name: None,
                    address: Some(a.to_string()),
                    mtu,
                }),
            }
        }
        own.sort_by_key(|d| d.id);
        let doc_sw = SwitchDoc {
            os: (!alone).then_some("os10"),
            model: p.model.name.to_string(),
            os10: release(c).filter(|_| shared_release.is_none()),
            qos: qos(c).filter(|_| shared_qos.is_none()),
            set_hostname: c.hostname.is_none().then_some(false),
            loopback: loopback(c).map(|a| a.to_string()),
            vlans: own.into_iter().map(FlowMap).collect(),
            // OS10 runs RPVST+ by default; a VLT pair's port-channels are L2 between them, as
            // is an L2 cable to another switch (W005).
            stp: (paired(p.name) || p.half.is_some() || links.joins_l2(p.name)).then_some("on"),
            host_ports,
            unused_ports,
            mlag: p.half.and_then(|pc| half_doc(c, pc)),
            bgp: bgp(c, p.name, links),
            mgmt: peer_backup(p.name).map(|a| {
                FlowMap(MgmtDoc {
                    host: a.to_string(),
                })
            }),
            ports: Ordered(
                entries
                    .into_iter()
                    .map(|(_, r, s)| (r, FlowMap(s)))
                    .collect(),
            ),
        };
        let comment = super::from_comment(&p.source.origin, p.source.model.is_none(), p.model.name);
        doc.switches.insert(
            p.name.to_string(),
            Commented(SwitchEntry::Os10(doc_sw), comment),
        );
        let mut kept = kept(c);
        if let Some(v) = c.header.version.as_ref().filter(|v| !is_release(v)) {
            // Not a release the format takes (E074): the compiled config prints none, and a
            // plan never touches the header.
            kept.insert(0, format!("! Version {v}"));
        }
        notes.insert(p.name.to_string(), kept);
    }
    if alone {
        doc.os = Some("os10");
        doc.os10 = shared_release;
        doc.qos = shared_qos.flatten();
        doc.vlans = shared_vlans.unwrap_or_default();
        doc.port_defaults = super::Defaults::new(settings(&defaults));
    }
    notes
}

/// `10.5.3.2`: the releases the format takes (E074), four numbers from 10.
fn is_release(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    parts.len() == 4
        && parts[0] == "10"
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The lines the model keeps verbatim, which a plan never touches: each once, with how many
/// blocks print it when more than one.
fn kept(c: &Config) -> Vec<String> {
    let mut lines: Vec<(String, usize)> = Vec::new();
    let mut add = |text: &str| {
        let first = text.lines().next().unwrap_or("").trim().to_string();
        if first.is_empty() {
            return;
        }
        match lines.iter_mut().find(|(l, _)| *l == first) {
            Some((_, n)) => *n += 1,
            None => lines.push((first, 1)),
        }
    };
    for (_, text) in c.layout.anchored() {
        add(text);
    }
    let mut extras: Vec<&crate::os10::Extras> = Vec::new();
    extras.extend(c.wred.iter().map(|x| &x.extras));
    extras.extend(c.class_maps.iter().map(|x| &x.extras));
    extras.extend(c.trust_maps.iter().map(|x| &x.extras));
    extras.extend(c.qos_maps.iter().map(|x| &x.extras));
    for p in &c.policy_maps {
        extras.push(&p.extras);
        extras.extend(p.classes.iter().map(|x| &x.extras));
    }
    extras.extend(c.system_qos.iter().map(|x| &x.extras));
    extras.extend(c.interfaces.values().map(|x| &x.extras));
    extras.extend(c.vlt.iter().map(|x| &x.extras));
    if let Some(b) = &c.bgp {
        extras.push(&b.extras);
        extras.extend(b.ipv4.iter().map(|x| &x.extras));
        for p in b
            .templates
            .iter()
            .map(|(_, p)| p)
            .chain(b.neighbors.iter().map(|(_, p)| p))
        {
            extras.push(&p.extras);
            extras.extend(p.ipv4.iter().map(|x| &x.extras));
        }
    }
    for text in extras.into_iter().flatten().map(|(_, t)| t) {
        add(text);
    }
    lines
        .into_iter()
        .map(|(l, n)| if n > 1 { format!("{l} ({n}×)") } else { l })
        .collect()
}

/// The comment listing a switch's lines the model keeps verbatim: joined by `;` into lines of
/// about 150 characters, at most [`KEPT_LINES`] of them (a YAML reader buffers a bounded
/// number of comments), the rest counted.
pub(super) fn kept_comment(kept: &[String]) -> String {
    let mut out = vec![format!(
        "not modeled, so left as they are on the switch (a push never touches them), {} line(s):",
        kept.len()
    )];
    let mut current = String::new();
    let mut listed = 0;
    for l in kept {
        if out.len() == KEPT_LINES {
            break;
        }
        if !current.is_empty() && current.len() + l.len() > 150 {
            out.push(std::mem::take(&mut current));
            if out.len() == KEPT_LINES {
                break;
            }
        }
        if !current.is_empty() {
            current.push_str("; ");
        }
        current.push_str(l);
        listed += 1;
    }
    if !current.is_empty() {
        out.push(current);
    }
    if listed < kept.len() {
        out.push(format!("… and {} more", kept.len() - listed));
    }
    out.iter()
        .map(|l| format!("    # {}\n", super::yaml::comment(l)))
        .collect()
}

/// The most comment lines [`kept_comment`] writes.
const KEPT_LINES: usize = 24;

/// What a push of the fabric would change on each OS10 switch: its compiled config planned
/// against the config it came from, each step at the line of the config it changes.
pub(super) fn lost(
    fabric: &crate::fabric::Fabric,
    sources: &BTreeMap<String, Source>,
) -> Vec<Lost> {
    let mut out = Vec::new();
    for (name, source) in sources {
        let Some(sw) = fabric.switches.get(name.as_str()) else {
            out.push(Lost {
                name: name.clone(),
                origin: source.origin.clone(),
                plan: vec!["the fabric has no such switch".into()],
                lost: Vec::new(),
                added: Vec::new(),
            });
            continue;
        };
        let intended = crate::os10::compile::compile_switch(sw);
        let steps = crate::os10::plan::plan(&source.config, &intended);
        if steps.is_empty() {
            continue;
        }
        let plan = steps
            .iter()
            .map(|s| {
                let at = match locate(&source.text, s) {
                    Some(line) => format!("{}:{line}", source.origin),
                    None => source.origin.clone(),
                };
                let mut path = s.mode.clone();
                path.push(s.command.clone());
                format!("{at}: {}", path.join(" → "))
            })
            .collect();
        out.push(Lost {
            name: name.clone(),
            origin: source.origin.clone(),
            plan,
            lost: Vec::new(),
            added: Vec::new(),
        });
    }
    out
}

/// The 1-based line of `text` a plan step changes: the line it negates or overwrites inside
/// the block it is typed in, else that block's header; `None` for a block the config lacks.
fn locate(text: &str, step: &crate::os10::plan::Step) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let (mut from, mut to, mut depth, mut at) = (0, lines.len(), 0, None);
    for header in &step.mode {
        let i = (from..to).find(|&i| indent(lines[i]) == depth && lines[i].trim() == header)?;
        at = Some(i);
        from = i + 1;
        to = (from..to)
            .find(|&j| !lines[j].trim().is_empty() && indent(lines[j]) <= depth)
            .unwrap_or(to);
        depth += 1;
    }
    let command = step.command.strip_prefix("no ").unwrap_or(&step.command);
    let first = command.split(' ').next().unwrap_or(command);
    let child = |key: &str| {
        (from..to).find(|&i| indent(lines[i]) == depth && lines[i].trim().starts_with(key))
    };
    child(command)
        .or_else(|| child(first).filter(|_| !step.mode.is_empty()))
        .or(at)
        .map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::os10::plan::Step;

    fn step(mode: &[&str], command: &str) -> Step {
        Step {
            mode: mode.iter().map(|m| m.to_string()).collect(),
            command: command.to_string(),
            opens: false,
            impact: crate::diff::Impact::Hitless,
            loses: Vec::new(),
        }
    }

    #[test]
    fn a_step_is_located_at_the_line_it_changes_else_its_block() {
        let text = "! Version 10.5.3.2\n!\npolicy-map type queuing P\n !\n class Q0\n  bandwidth percent 50\n !\n class Q3\n  bandwidth percent 50\n  random-detect ecn\n!\ninterface ethernet1/1/3\n no shutdown\n mtu 9216\n!\nvlt-domain 1\n primary-priority 3\n";
        let at = |mode: &[&str], command: &str| locate(text, &step(mode, command));
        let queuing = ["policy-map type queuing P", "class Q3"];
        assert_eq!(at(&queuing, "no random-detect ecn"), Some(10));
        assert_eq!(at(&queuing, "bandwidth percent 40"), Some(9));
        assert_eq!(at(&["interface ethernet1/1/3"], "mtu 9000"), Some(14));
        assert_eq!(
            at(&["interface ethernet1/1/3"], "flowcontrol receive off"),
            Some(12)
        );
        assert_eq!(at(&["vlt-domain 1"], "no primary-priority"), Some(17));
        assert_eq!(at(&[], "no policy-map type queuing P"), Some(3));
        // What the config lacks has no line of it.
        assert_eq!(at(&[], "class-map type queuing Q5"), None);
        assert_eq!(at(&["interface ethernet1/1/9"], "mtu 9216"), None);
    }

    #[test]
    fn only_os10_releases_are_written() {
        assert!(is_release("10.5.3.2"));
        assert!(!is_release("10.4.0E(R1)"));
        assert!(!is_release("3.10.4606"));
        assert!(!is_release("10.5.3"));
    }

    #[test]
    fn ports_and_ranges_are_named_as_os10_names_them() {
        assert_eq!(
            range_name(Port::new(1, 5), Port::new(1, 5)),
            "ethernet1/1/5"
        );
        assert_eq!(
            range_name(Port::new(1, 1), Port::new(1, 8)),
            "ethernet1/1/1-1/1/8"
        );
        assert_eq!(port(Eth::sub(17, 1)), Port::sub(1, 17, 1));
    }

    #[test]
    fn the_kept_lines_comment_is_bounded_and_counts_the_rest() {
        let kept: Vec<String> = (0..200)
            .map(|n| format!("snmp-server host 10.0.0.{n} traps version 2c public"))
            .collect();
        let comment = kept_comment(&kept);
        let lines: Vec<&str> = comment.lines().collect();
        assert!(lines.len() <= KEPT_LINES + 1, "{comment}");
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("    # ") && l.len() < 200)
        );
        let listed: usize = lines[1..lines.len() - 1]
            .iter()
            .map(|l| l.matches("snmp-server").count())
            .sum();
        let rest: usize = lines[lines.len() - 1]
            .trim_start_matches("    # … and ")
            .trim_end_matches(" more")
            .parse()
            .unwrap();
        assert_eq!(listed + rest, 200, "{comment}");
        assert!(lines[0].ends_with("200 line(s):"), "{comment}");
    }
}
