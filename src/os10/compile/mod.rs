//! One switch of a fabric → an OS10 [`Config`]: the fabric's per-port RoCE intent in OS10's
//! terms. The command set and its sources are in `../shared/reference/os10-roce.md`: the
//! AzureStack TOR capture (OS10 10.5.3.2, `tests/fixtures/corpus/os10/`) for spelling and
//! order, Microsoft's validated OS10 templates (AzureStack_Network_Switch_Config_Generator
//! @51524fa: `os10/interface.j2`, `vlt.j2`, `bgp.j2`, `expected_qos.cfg`) and Dell's OS10 user
//! guide. What the reference marks unconfirmed is marked so here too.
//!
//! The QoS (`qos`): what each QoS key of the format means on both OSes
//! (`crate::fabric::meaning`) in OS10's objects. Nothing here formats text.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    Bgp, ChannelGroup, Config, Eth, Iface, Interface, LacpMode, Peer, SwitchportMode, Vlt,
};
use crate::fabric::{Bundle, Lacp, PortSettings, Routing, Switch};
use crate::os10::eth_of as os10_eth;
use crate::types::Vlan;

mod qos;

/// One switch. The caller has checked that it runs OS10.
pub fn compile_switch(sw: &Switch) -> Config {
    let mut c = Config::default();
    c.header.version = sw.release_text.clone();
    if sw.set_hostname {
        c.hostname = Some(sw.hostname.to_string());
    }
    port_maps(sw, &mut c);
    let mut qos = qos::Qos::new(sw);
    let mut interfaces: BTreeMap<Iface, Interface> = BTreeMap::new();
    let discovery = ethernet_ports(sw, &mut qos, &mut interfaces);
    port_channels(sw, &mut qos, &mut interfaces);
    vlans_and_loopback(sw, &mut interfaces);
    c.interfaces = interfaces;

    // The QoS objects the ports reference.
    qos.finish(&mut c);

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
        routing(r, &mut c);
    }
    c
}

/// Every breakout-capable port's map, and every port group's mode.
fn port_maps(sw: &Switch, c: &mut Config) {
    // Every breakout-capable port's map, the native one where the port is not split: OS10
    // prints them all (`Model::breakout`). The fabric validation refused the splits a port
    // cannot do. A model with port groups prints every group's mode instead, native ones
    // included (the TOR capture prints all 18), each the mode the validation settled from its
    // ports' splits and speeds.
    if let Some(m) = crate::os10::target::model_of(sw.model) {
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
}

/// The Ethernet ports, into `interfaces`: a host or switch port, a port-channel's member, or
/// a port of the VLT interconnect; the interconnect's ports returned.
fn ethernet_ports(
    sw: &Switch,
    qos: &mut qos::Qos,
    interfaces: &mut BTreeMap<Iface, Interface>,
) -> BTreeSet<Eth> {
    let ipl = sw.mlag.as_ref().map(|m| m.ipl_port_channel);
    let mut discovery: BTreeSet<Eth> = BTreeSet::new();
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
                    qos.port(iface, b, &mut e);
                }
            }
            Some(b) => member(&b, pfc_bundles.contains(&(b.mlag, b.id)), &mut e),
            None => {
                l2(s, &mut e);
                qos.port(iface, s, &mut e);
                stp(s, &mut e);
            }
        }
        interfaces.insert(iface, e);
    }
    discovery
}

/// A port-channel's member (`b`): its channel-group; `pfc`: the port-channel runs PFC.
fn member(b: &Bundle, pfc: bool, e: &mut Interface) {
    if pfc {
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

/// The port-channels but the VLT interconnect's, into `interfaces`.
fn port_channels(sw: &Switch, qos: &mut qos::Qos, interfaces: &mut BTreeMap<Iface, Interface>) {
    let ipl = sw.mlag.as_ref().map(|m| m.ipl_port_channel);
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
        qos.port(iface, s, &mut e);
        stp(s, &mut e);
        interfaces.insert(iface, e);
    }
}

/// The VLAN interfaces and the loopback, into `interfaces`.
fn vlans_and_loopback(sw: &Switch, interfaces: &mut BTreeMap<Iface, Interface>) {
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
                .filter(|m| *m != crate::os10::DEFAULT_MTU),
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
}

/// The BGP instance and BFD of the switch's routing (`r`).
fn routing(r: &Routing, c: &mut Config) {
    let mut b = Bgp::new(r.asn);
    b.router_id = Some(r.router_id);
    b.multipath_relax = r.multipath_relax;
    b.max_paths_ebgp = r.maximum_paths;
    b.ipv4 = Some(super::AddressFamily {
        networks: r.networks.iter().copied().collect(),
        extras: Vec::new(),
    });
    // On unless the fabric says off (OS10's default: `no fast-external-fallover` is
    // printed when off).
    b.fast_external_fallover = r.fast_external_fallover != Some(false);
    b.neighbors = r
        .neighbors
        .iter()
        .map(|(a, n)| {
            let peer = Peer {
                bfd: n.bfd,
                remote_as: Some(n.asn),
                timers: n.timers.map(|t| (t.keepalive, t.hold)),
                shutdown: Some(false),
                ..Peer::default()
            };
            (*a, peer)
        })
        .collect();
    c.bgp = Some(b);
    // BFD runs once `bfd enable` enables it; one set of timers for every session (Dell
    // OS10 user guide, `bfd interval`), left out at OS10's default.
    if let Some(t) = r.bfd {
        c.bfd = true;
        let i = super::BfdInterval {
            interval: t.interval,
            min_rx: t.min_rx,
            multiplier: t.multiplier,
            passive: false,
        };
        c.bfd_interval = (i != super::BfdInterval::DEFAULT).then_some(i);
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
