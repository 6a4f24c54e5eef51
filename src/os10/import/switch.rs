//! What an OS10 switch's configuration says in the format's terms beyond its ports: its
//! lossless pool, VLANs and gateways, loopback, BGP, the `mlag` half of a VLT switch imported
//! without its peer (with the IPL the format requires and OS10 never prints), its release;
//! and the lines its model keeps verbatim, which a plan never touches.

use std::collections::{BTreeMap, BTreeSet};

use serde_saphyr::FlowMap;

use super::ports::switch_qos;
use crate::import::doc::{
    BfdDoc, BgpDoc, IplDoc, MlagDoc, NeighborDoc, PoolDoc, Qos, TimersDoc, VlanDoc,
};
use crate::import::links::Links;
use crate::os10::{Config, Iface};

/// The subnet written for an OS10 pair's IPL (never printed on OS10).
pub(super) const IPL_SUBNET: &str = "10.254.255.0/30";

/// The IPL peer's address written for an OS10 switch's `mlag` half: the second of
/// [`IPL_SUBNET`] (never printed on OS10).
pub(super) const IPL_PEER: &str = "10.254.255.2";

/// A port-channel number none of `configs` uses, for an OS10 IPL (never printed).
pub(super) fn unused_port_channel(configs: &[&Config]) -> u16 {
    let used = |n: u16| {
        configs
            .iter()
            .any(|c| c.interfaces.contains_key(&Iface::PortChannel(n)))
    };
    (1000..=4096).find(|n| !used(*n)).unwrap_or(4096)
}

/// A VLAN none of `configs` uses, for an OS10 IPL (never printed).
pub(super) fn unused_vlan(configs: &[&Config]) -> u16 {
    let used = |v: u16| configs.iter().any(|c| vlans(c).iter().any(|d| d.id == v));
    (2..=4000).rev().find(|v| !used(*v)).unwrap_or(4000)
}

/// The `mlag` half of a VLT switch imported without its peer: its `vlt-mac`, the VLTi's
/// port-channel (`Prepared::half`), an IPL VLAN and peer address the switch does not use
/// (OS10 prints neither), and the peer's management address its `backup destination` names.
pub(super) fn half_doc(c: &Config, port_channel: u16) -> Option<MlagDoc> {
    let vlt = c.vlt.as_ref()?;
    Some(MlagDoc {
        system_mac: vlt.vlt_mac?.to_string(),
        domain: None,
        vip: None,
        ipl: FlowMap(IplDoc {
            port_channel,
            vlan: unused_vlan(&[c]),
            address: None,
            peer: IPL_PEER.to_string(),
        }),
        peer_mgmt: vlt.backup.map(|a| a.to_string()),
    })
}

/// The switch-wide QoS the format writes: the lossless priorities as one lossless pool (PFC
/// on them and on every port follows, as the compile has it).
pub(super) fn qos(c: &Config) -> Option<Qos> {
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
        preset: None,
        roce: None,
        pools: BTreeMap::from([("lossless".to_string(), FlowMap(pool))]),
        pfc: None,
    })
}

/// VLAN interfaces as VLANs: their description is the name (VLAN 1 only with an address).
pub(super) fn vlans(c: &Config) -> Vec<VlanDoc> {
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
pub(super) fn gateway_mtu(c: &Config, v: u16) -> Option<u16> {
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

pub(super) fn gateways(c: &Config) -> BTreeMap<u16, crate::types::Ipv4Net> {
    c.interfaces
        .iter()
        .filter_map(|(k, i)| match (k, i.address) {
            (Iface::Vlan(v), Some(a)) => Some((v.get(), a)),
            _ => None,
        })
        .collect()
}

pub(super) fn loopback(c: &Config) -> Option<std::net::Ipv4Addr> {
    c.interfaces
        .get(&Iface::Loopback(0))
        .and_then(|i| i.address)
        .filter(|a| a.len == 32)
        .map(|a| a.addr)
}

/// BGP written out, without the sessions its routed cables give and the prefixes the fabric
/// advertises anyway (the loopback, gateway subnets, routed host ports' subnets).
pub(super) fn bgp(c: &Config, name: &str, links: &Links) -> Option<BgpDoc> {
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
        BfdDoc::on(crate::fabric::BfdTimers {
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
        Some(_) => Some(BfdDoc::Flag(false)),
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
                Some(FlowMap(NeighborDoc {
                    address: Some(a.to_string()),
                    port: None,
                    remote_as: crate::fabric::RemoteAs::Number(p.remote_as?),
                    bfd: bfd(p),
                    timers: p.timers.map(TimersDoc::of),
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

/// `10.5.3.2`: the releases the format takes (E074), four numbers from 10.
pub(super) fn is_release(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    parts.len() == 4
        && parts[0] == "10"
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The lines the model keeps verbatim, which a plan never touches: each once, with how many
/// blocks print it when more than one.
pub(super) fn kept(c: &Config) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_os10_releases_are_written() {
        assert!(is_release("10.5.3.2"));
        assert!(!is_release("10.4.0E(R1)"));
        assert!(!is_release("3.10.4606"));
        assert!(!is_release("10.5.3"));
    }
}
