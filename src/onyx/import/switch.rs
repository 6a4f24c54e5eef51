//! What an Onyx switch's configuration says in the format's terms: each port's attributes,
//! its QoS, VLANs and gateways, loopback, BGP and MLAG half, its certificate.

use std::collections::{BTreeMap, BTreeSet};

use serde_saphyr::{FlowMap, FlowSeq};

use crate::import::doc::{
    BfdDoc, BgpDoc, EcnDoc, EtsDoc, IplDoc, MlagDoc, NeighborDoc, PfcDoc, PfcField, PoolDoc, Qos,
    TimersDoc, VlanDoc,
};
use crate::import::links::Links;
use crate::import::ports::{Attr, stp_attrs};
use crate::onyx::{self, Config, Iface, Interface};
use crate::types::{Ecn, EcnThresholds, Ets, PoolType, SwitchportMode, Trust};

/// The interface a port-channel member's settings belong to.
pub(super) fn bundle_iface(g: onyx::ChannelGroup) -> Iface {
    if g.mlag {
        Iface::MlagPortChannel(g.id)
    } else {
        Iface::PortChannel(g.id)
    }
}

/// A port's attributes in the format's terms: a port-channel member carries the bundle's L2
/// and QoS settings (the format sets them on the member ports and compiles them onto the
/// bundle) and its own speed, MTU and admin state; a routed port its address.
pub(super) fn port_attrs(c: &Config, i: &Interface) -> BTreeSet<Attr> {
    let bundle = i
        .channel_group
        .and_then(|g| c.interfaces.get(&bundle_iface(g)));
    let mut out = match bundle {
        Some(b) => attrs(&Interface {
            switchport_mode: b.switchport_mode,
            access_vlan: b.access_vlan,
            allowed: b.allowed.clone(),
            ..i.clone()
        }),
        None => attrs(i),
    };
    if !i.pfc && pfc_ports_by_default(c) {
        out.remove(&Attr::Pfc(false));
        out.insert(Attr::PfcOff);
    }
    if let Some(g) = i.channel_group {
        out.insert(Attr::Bundle(g.mlag, g.id, g.mode.to_string()));
    }
    if i.routed
        && let Some(a) = i.address
    {
        out.insert(Attr::Address(a.to_string()));
    }
    // A member's spanning tree and what its entry says of the bundle are the bundle's.
    let stp = bundle.unwrap_or(i);
    stp_attrs(stp.stp_type, stp.bpduguard, stp.stp_guard, &mut out);
    if let Some(b) = bundle {
        if b.lacp_individual {
            out.insert(Attr::LacpIndividual);
        }
        if let Some(d) = &b.description {
            out.insert(Attr::BundleDescription(d.clone()));
        }
    }
    out
}

pub(super) fn attrs(i: &Interface) -> BTreeSet<Attr> {
    let mut out = BTreeSet::new();
    if let Some(s) = i.speed {
        out.insert(Attr::Speed(s.speed.to_string()));
    }
    if let Some(m) = i.mtu {
        out.insert(Attr::Mtu(m));
    }
    if i.shutdown == Some(true) {
        out.insert(Attr::Admin("down".into()));
    }
    if let Some(m) = i.switchport_mode.filter(|m| *m != SwitchportMode::Access) {
        out.insert(Attr::Switchport(m.to_string()));
    }
    if let Some(v) = i.access_vlan {
        out.insert(Attr::Vlan(v.get()));
    }
    // A VLAN list the port's mode takes (a trunk carrying every VLAN is Onyx's default).
    if let Some(a) = i.allowed.as_ref().filter(|a| !a.all)
        && Some(a.mode) == i.switchport_mode
    {
        out.insert(Attr::Vlans(a.vlans.iter().map(|v| v.get()).collect()));
    }
    out.insert(Attr::Trust(i.trust.unwrap_or(Trust::L2).to_string()));
    for (tc, e) in &i.ecn {
        out.insert(Attr::Ecn(tc.get(), ecn_doc(e)));
    }
    for (tc, e) in &i.ets {
        out.insert(Attr::Ets(
            tc.get(),
            match e {
                Ets::Strict => EtsDoc::Strict("strict"),
                Ets::Wrr(w) => EtsDoc::Wrr(*w),
            },
        ));
    }
    out.insert(Attr::Pfc(i.pfc));
    out
}

pub(super) fn ecn_doc(e: &Ecn) -> EcnDoc {
    let mode = Some(e.mode.to_string()).filter(|m| m != "ecn");
    match e.thresholds {
        EcnThresholds::Absolute { min, max } => EcnDoc {
            mode,
            min: Some(min),
            max: Some(max),
            min_percent: None,
            max_percent: None,
        },
        EcnThresholds::Relative { min, max } => EcnDoc {
            mode,
            min: None,
            max: None,
            min_percent: Some(min),
            max_percent: Some(max),
        },
    }
}

pub(super) fn release(config: &Config) -> Option<String> {
    config.header.release.map(|r| r.to_string())
}

/// Whether the fabric puts every port of this switch in PFC mode unless the port says `pfc:
/// false`: the validation's rule for the `qos.pfc` this import writes (global PFC enabled on
/// some priority, no `roce` mode).
pub(super) fn pfc_ports_by_default(c: &Config) -> bool {
    c.roce.is_none() && c.pfc.enabled && !c.pfc.priorities.is_empty()
}

pub(super) fn qos(config: &Config) -> Option<Qos> {
    let pools: BTreeMap<String, FlowMap<PoolDoc>> = config
        .pools
        .iter()
        .map(|(name, p)| {
            let doc = PoolDoc {
                kind: p.kind.unwrap_or(PoolType::Lossy).to_string(),
                memory: p.memory.map(|m| m.hundredths()),
                priorities: p.priorities.iter().map(|p| p.get()).collect(),
            };
            (name.clone(), FlowMap(doc))
        })
        .collect();
    let roce = config.roce.map(|m| m.to_string());
    let lossless = config
        .pools
        .values()
        .any(|p| p.kind == Some(PoolType::Lossless) && !p.priorities.is_empty());
    let pfc = if config.pfc.enabled || !config.pfc.priorities.is_empty() {
        Some(PfcField::Table(FlowMap(PfcDoc {
            enabled: config.pfc.enabled,
            priorities: FlowSeq(config.pfc.priorities.iter().map(|p| p.get()).collect()),
        })))
    } else {
        // A lossless pool without PFC: the opt-out, else the fabric would add PFC.
        (lossless && roce.is_none()).then_some(PfcField::Off(false))
    };
    (!pools.is_empty() || pfc.is_some() || roce.is_some()).then_some(Qos {
        preset: None,
        roce,
        pools,
        pfc,
    })
}

pub(super) fn vlans(config: &Config) -> Vec<VlanDoc> {
    config
        .vlans
        .iter()
        .filter(|(id, v)| id.get() != 1 || v.name.is_some())
        .map(|(id, v)| VlanDoc {
            id: id.get(),
            name: v.name.clone(),
            address: None,
            mtu: None,
        })
        .collect()
}

/// The `mtu` a gateway VLAN's entry writes: none where the fabric derives the interface's MTU
/// from the ports that carry the VLAN (the largest MTU a port sets, its VLANs its bundle's),
/// else the interface's own.
pub(super) fn gateway_mtu(c: &Config, v: crate::types::Vlan) -> Option<u16> {
    let have = c.interfaces.get(&Iface::Vlan(v)).and_then(|e| e.mtu);
    let derived = c
        .interfaces
        .iter()
        .filter_map(|(i, e)| {
            let (Iface::Ethernet(_), Some(m)) = (i, e.mtu) else {
                return None;
            };
            let l2 = match e.channel_group {
                Some(g) if g.mlag => c.interfaces.get(&Iface::MlagPortChannel(g.id))?,
                Some(g) => c.interfaces.get(&Iface::PortChannel(g.id))?,
                None => e,
            };
            let (vlans, all) = l2.vlans();
            (all || vlans.contains(&v)).then_some(m)
        })
        .max()
        .filter(|m| *m != crate::onyx::VLAN_DEFAULT_MTU);
    (have != derived).then(|| have.unwrap_or(crate::onyx::VLAN_DEFAULT_MTU))
}

/// What of a switch's L3 and MLAG the format writes: gateways, loopback 0, its MLAG half.
pub(super) struct Expressed {
    /// VLAN interfaces with an address, written as gateways (the IPL's excluded).
    pub(super) gateways: BTreeMap<crate::types::Vlan, crate::types::Ipv4Net>,
    pub(super) loopback: Option<std::net::Ipv4Addr>,
    /// The MLAG half: IPL port-channel and VLAN, and whether the IPL address is written.
    pub(super) ipl: Option<(u16, crate::types::Vlan, bool)>,
}

pub(super) fn expressed(c: &Config) -> Expressed {
    let ipl_pc = c.interfaces.iter().find_map(|(i, e)| match (i, e.ipl) {
        (Iface::PortChannel(n), Some(_)) => Some(*n),
        _ => None,
    });
    let ipl_vlan = c
        .interfaces
        .iter()
        .find_map(|(i, e)| match (i, e.ipl_peer) {
            (Iface::Vlan(v), Some(_)) => Some((*v, e.address.is_some())),
            _ => None,
        });
    let ipl = match (ipl_pc, ipl_vlan, c.mlag.system_mac) {
        (Some(pc), Some((v, addr)), Some(_)) => Some((pc, v, addr)),
        _ => None,
    };
    Expressed {
        gateways: c
            .interfaces
            .iter()
            .filter_map(|(i, e)| match (i, e.address) {
                (Iface::Vlan(v), Some(a)) if ipl.is_none_or(|(_, iv, _)| iv != *v) => Some((*v, a)),
                _ => None,
            })
            .collect(),
        loopback: c
            .interfaces
            .get(&Iface::Loopback(0))
            .and_then(|e| e.address)
            .filter(|a| a.len == 32)
            .map(|a| a.addr),
        ipl,
    }
}

/// The switch's BGP written out: everything but the sessions its routed cables give and the
/// prefixes it advertises anyway (loopback, gateway subnets, routed host ports).
pub(super) fn bgp_doc(c: &Config, x: &Expressed, name: &str, links: &Links) -> Option<BgpDoc> {
    let b = c.bgp.as_ref()?;
    let mut derived: BTreeSet<crate::types::Ipv4Net> = x
        .loopback
        .map(|addr| crate::types::Ipv4Net { addr, len: 32 })
        .into_iter()
        .collect();
    derived.extend(x.gateways.values().map(|g| g.network()));
    let host_ports = c.interfaces.iter().filter_map(|(i, e)| match i {
        Iface::Ethernet(_) if e.routed => e.address,
        _ => None,
    });
    derived.extend(links.host_subnets(name, host_ports));
    let runs_bfd = c.protocols.contains(&onyx::Protocol::Bfd);
    // The sessions over routed cables: the fabric derives them, and they share one setting.
    let linked: Vec<std::net::Ipv4Addr> = b
        .neighbors
        .iter()
        .filter(|(a, n)| links.derives(name, **a, **n))
        .map(|(a, _)| *a)
        .collect();
    // Where they differ, the one the first has (the import's check then names what differs).
    let first = linked.first();
    let link_bfd = first.is_some_and(|a| runs_bfd && b.bfd.contains(a));
    let bfd =
        (link_bfd || !linked.is_empty() || b.bfd.iter().any(|a| !linked.contains(a))).then(|| {
            if !link_bfd && !linked.is_empty() {
                return BfdDoc::Flag(false);
            }
            let x = c.bfd;
            let d = crate::fabric::BfdTimers::DEFAULT;
            BfdDoc::on(crate::fabric::BfdTimers {
                interval: x.transmit_rate.unwrap_or(d.interval),
                min_rx: x.min_rx.unwrap_or(d.min_rx),
                multiplier: x.multiplier.unwrap_or(d.multiplier),
            })
        });
    Some(BgpDoc {
        asn: b.asn,
        router_id: b.router_id.map(|r| r.to_string()),
        maximum_paths: b.maximum_paths,
        multipath_relax: b.multipath_relax,
        bfd,
        timers: first
            .and_then(|a| b.timers.get(a))
            .map(|t| TimersDoc::of(*t)),
        // Where a switch has sessions over routed links the fabric turns it on unless told;
        // elsewhere Onyx's default is off.
        fast_external_fallover: (!linked.is_empty() || b.fast_external_fallover)
            .then_some(b.fast_external_fallover),
        neighbors: b
            .neighbors
            .iter()
            .filter(|(a, n)| !links.derives(name, **a, **n))
            .map(|(a, n)| {
                FlowMap(NeighborDoc {
                    address: Some(a.to_string()),
                    port: None,
                    remote_as: crate::fabric::RemoteAs::Number(*n),
                    bfd: runs_bfd && b.bfd.contains(a),
                    timers: b.timers.get(a).map(|t| TimersDoc::of(*t)),
                })
            })
            .collect(),
        networks: b
            .networks
            .iter()
            .filter(|n| !derived.contains(n))
            .map(|n| n.to_string())
            .collect(),
    })
}

pub(super) fn mlag_doc(c: &Config, x: &Expressed) -> Option<MlagDoc> {
    let (pc, vlan, with_address) = x.ipl?;
    let v = c.interfaces.get(&Iface::Vlan(vlan))?;
    let (_, peer) = v.ipl_peer?;
    let (domain, vip) = match &c.mlag.vip {
        Some((d, net)) => (Some(d.clone()), Some(net.to_string())),
        None => (None, None),
    };
    Some(MlagDoc {
        system_mac: c.mlag.system_mac?.to_string(),
        domain,
        vip,
        ipl: FlowMap(IplDoc {
            port_channel: pc,
            vlan: vlan.get(),
            address: v.address.filter(|_| with_address).map(|a| a.to_string()),
            peer: peer.to_string(),
        }),
        peer_mgmt: None,
    })
}

/// The ID in `# Certificate name system-self-signed, ID <hex>`, when the switch prints the
/// certificate block as the fabric's `certificate` key does (else the block is `extra`).
pub(super) fn certificate(config: &Config) -> Option<String> {
    let id = config
        .layout
        .sections
        .iter()
        .flat_map(|s| &s.verbatim)
        .find_map(|(_, l)| {
            l.trim()
                .strip_prefix("# Certificate name system-self-signed, ID ")
                .map(str::to_string)
        })?;
    let block = |c: &Config| -> Vec<String> {
        c.layout
            .sections
            .iter()
            .filter(|s| s.title == onyx::sections::X509)
            .flat_map(|s| s.verbatim.iter().map(|(_, l)| l.clone()))
            .collect()
    };
    let factory = Config::factory("", config.header.release, Some(&id));
    (block(&factory) == block(config)).then_some(id)
}
