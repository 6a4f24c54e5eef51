//! A fabric switch → its Onyx configuration, in the normal form the switch itself shows:
//! settings equal to Onyx's defaults (native speed, trust L2, access VLAN 1, switchport access)
//! are left out, because the switch does not print them and a diff must not see them as
//! missing. Nothing here formats text or reads files.

use crate::fabric::{Bundle, EcmpHash, Lacp, PortSettings, Routing, Switch};
use crate::onyx::{
    self, Allowed, ChannelGroup, Config, Iface, Interface, LoadSharing, Protocol, SpeedSetting,
    VlanConfig, command::LacpMode,
};
use crate::types::{Ipv4Net, SwitchportMode, Trust, Vlan};

/// The Onyx switches of a fabric (its other switches left out).
pub fn fabric(
    fabric: &crate::fabric::Fabric,
) -> std::collections::BTreeMap<crate::types::Hostname, Config> {
    fabric
        .switches
        .iter()
        .filter(|(_, sw)| sw.os() == super::target::OS)
        .map(|(name, sw)| (name.clone(), compile_switch(sw)))
        .collect()
}

/// One Onyx switch.
pub fn compile_switch(sw: &Switch) -> Config {
    let mut c = Config::factory(sw.hostname.as_str(), sw.release, sw.certificate.as_deref());
    c.licenses = sw.licenses.clone();
    c.lldp = sw.lldp;
    buffers_and_pfc(&mut c, sw);
    c.vlans = sw
        .vlans
        .iter()
        .map(|(id, name)| (*id, VlanConfig { name: name.clone() }))
        .collect();
    ports(&mut c, sw);
    bundles(&mut c, sw);
    c.lacp = sw
        .ports
        .values()
        .any(|s| s.bundle.is_some_and(|b| b.lacp != Lacp::On));
    if sw.stp == Some(false) {
        c.spanning_tree = false;
    }
    l3_interfaces(&mut c, sw);
    if let Some(r) = &sw.routing {
        bgp_and_bfd(&mut c, r);
    }
    c.load_sharing = sw
        .hashing
        .iter()
        .map(|h| match h {
            EcmpHash::SourceIpPort => LoadSharing::SourceIpPort,
            EcmpHash::Consistent => LoadSharing::Consistent,
        })
        .collect();
    if let Some(m) = &sw.mlag {
        mlag(&mut c, m);
    }
    // IP interfaces (gateways, a loopback, routed ports) and MLAG need IP routing in the
    // default VRF (MLAG Commands); BGP runs over those interfaces, so a BGP switch has them.
    c.ip_routing = !sw.gateways.is_empty()
        || sw.mlag.is_some()
        || sw.loopback.is_some()
        || sw.ports.values().any(|p| p.address.is_some());
    if !sw.set_hostname {
        c.hostname = None;
    }
    extra(&mut c, sw);
    c
}

/// RoCE's mode, the buffer pools and the switch's PFC.
fn buffers_and_pfc(c: &mut Config, sw: &Switch) {
    c.roce = sw.qos.roce;
    c.pools = sw
        .qos
        .pools
        .iter()
        .map(|(name, p)| {
            let pool = onyx::Pool {
                kind: Some(p.kind),
                memory: p.memory,
                priorities: p.priorities.clone(),
            };
            (name.clone(), pool)
        })
        .collect();
    if let Some(pfc) = &sw.qos.pfc {
        c.pfc = onyx::Pfc {
            enabled: pfc.enabled,
            priorities: pfc.priorities.clone(),
        };
    }
}

/// The Ethernet ports: splits, then each port that differs from Onyx's defaults.
fn ports(c: &mut Config, sw: &Switch) {
    for (port, split) in &sw.splits {
        c.interfaces
            .entry(Iface::Ethernet(*port))
            .or_default()
            .split = Some(*split);
    }
    for (port, s) in &sw.ports {
        let split = port.sub.and(sw.splits.get(&port.parent()).copied());
        let native = sw.model.native_speed(port.parent(), split);
        let mut e = Interface {
            speed: s
                .speed
                .filter(|v| Some(*v) != native)
                .map(|speed| SpeedSetting {
                    speed,
                    no_autoneg: false,
                }),
            mtu: s.mtu,
            description: s.description.clone(),
            shutdown: s.shutdown.then_some(true),
            ..Interface::default()
        };
        match s.bundle {
            // A bundle's member: its L2 settings are the bundle's (Onyx refuses them on a
            // member: `% Port 1/4 is part of a port channel`); its QoS is set on it and on the
            // bundle alike, as a captured MLAG switch has PFC mode on both.
            Some(b) => {
                e.channel_group = Some(channel_group(b));
                qos(&mut e, s);
            }
            None => l2_and_qos(&mut e, s),
        }
        match s.address {
            Some(a) => {
                e.routed = true;
                e.address = Some(a);
            }
            // Spanning tree is the bundle's on a member, and has no part on a routed port.
            None if s.bundle.is_none() => stp(&mut e, s),
            None => {}
        }
        if e != Interface::default() {
            c.interfaces.insert(Iface::Ethernet(*port), e);
        }
    }
}

/// The port-channels and MLAG port-channels.
fn bundles(c: &mut Config, sw: &Switch) {
    for ((mlag, id), s) in &sw.bundles {
        let mut e = Interface {
            created: true,
            mtu: s.mtu,
            description: s.description.clone(),
            // An MLAG port-channel is down until `no shutdown` (Onyx's default).
            shutdown: mlag.then_some(false),
            lacp_individual: s.lacp_individual,
            ..Interface::default()
        };
        l2_and_qos(&mut e, s);
        stp(&mut e, s);
        let iface = if *mlag {
            Iface::MlagPortChannel(*id)
        } else {
            Iface::PortChannel(*id)
        };
        c.interfaces.insert(iface, e);
    }
}

/// The VLAN interfaces of the gateways and the loopback.
fn l3_interfaces(c: &mut Config, sw: &Switch) {
    for (vlan, gw) in &sw.gateways {
        let e = c.interfaces.entry(Iface::Vlan(*vlan)).or_default();
        e.created = true;
        e.address = Some(gw.address);
        e.mtu = gw.mtu.filter(|m| *m != onyx::VLAN_DEFAULT_MTU);
    }
    if let Some(addr) = sw.loopback {
        let lo = c.interfaces.entry(Iface::Loopback(0)).or_default();
        lo.created = true;
        lo.address = Some(Ipv4Net { addr, len: 32 });
    }
}

/// The default VRF's BGP instance and its neighbors, and BFD where the routing asks for it.
fn bgp_and_bfd(c: &mut Config, r: &Routing) {
    c.protocols.insert(Protocol::Bgp);
    c.bgp = Some(onyx::Bgp {
        asn: r.asn,
        router_id: Some(r.router_id),
        maximum_paths: r.maximum_paths,
        multipath_relax: r.multipath_relax,
        neighbors: r.neighbors.iter().map(|(a, n)| (*a, n.asn)).collect(),
        networks: r.networks.clone(),
        // Onyx's default is off: it prints the line when on (the onyx_bgp_show capture).
        fast_external_fallover: r.fast_external_fallover == Some(true),
        timers: r
            .neighbors
            .iter()
            .filter_map(|(a, n)| n.timers.map(|t| (*a, (t.keepalive, t.hold))))
            .collect(),
        bfd: r
            .neighbors
            .iter()
            .filter(|(_, n)| n.bfd)
            .map(|(a, _)| *a)
            .collect(),
    });
    // BFD runs once `protocol bfd` enables it, with the timers written out (the
    // `onyx_show_bfd` capture's three `ip bfd vrf default interval …` lines).
    if let Some(t) = r.bfd {
        c.protocols.insert(Protocol::Bfd);
        c.bfd = onyx::BfdInterval {
            min_rx: Some(t.min_rx),
            multiplier: Some(t.multiplier),
            transmit_rate: Some(t.interval),
        };
    }
}

/// The MLAG pair: the protocol, its system MAC and VIP, the peer link's port-channel and
/// VLAN interface.
fn mlag(c: &mut Config, m: &crate::fabric::Mlag) {
    c.protocols.insert(Protocol::Mlag);
    c.mlag = onyx::Mlag {
        enabled: true,
        system_mac: Some(m.system_mac),
        vip: m.vip.clone(),
    };
    c.interfaces
        .entry(Iface::PortChannel(m.ipl_port_channel))
        .or_default()
        .ipl = Some(1);
    let v = c.interfaces.entry(Iface::Vlan(m.ipl_vlan)).or_default();
    v.created = true;
    v.address = m.address;
    v.ipl_peer = Some((1, m.peer_address));
}

/// Lines outside the format: those the model knows join it (and print where Onyx prints
/// them), the others stay verbatim in their section.
fn extra(c: &mut Config, sw: &Switch) {
    for (title, lines) in &sw.extra {
        for line in lines {
            match onyx::command::parse(line) {
                Ok(Some(cmd)) => c.load(&cmd),
                _ => c.add_verbatim(title, line),
            }
        }
    }
}

/// What a port or bundle carries and how it treats RoCE: switchport mode and VLANs, QoS.
/// Values equal to Onyx's defaults are left out (access mode, VLAN 1, trust L2).
fn l2_and_qos(e: &mut Interface, s: &PortSettings) {
    let default_vlan = Vlan::new(1).ok();
    e.switchport_mode = s.switchport.filter(|m| *m != SwitchportMode::Access);
    e.access_vlan = s.vlan.filter(|v| Some(*v) != default_vlan);
    if let Some(vlans) = &s.trunk {
        // A hybrid port keeps its access VLAN untagged; a trunk port has none.
        let mode = match s.switchport {
            Some(SwitchportMode::Hybrid) => SwitchportMode::Hybrid,
            _ => {
                e.access_vlan = None;
                SwitchportMode::Trunk
            }
        };
        e.switchport_mode = Some(mode);
        let allowed = Allowed {
            mode,
            all: false,
            vlans: vlans.iter().copied().collect(),
        };
        // What the model holds for the mode's default (a hybrid port without tagged VLANs).
        e.allowed = (allowed != Allowed::default_for(mode)).then_some(allowed);
    }
    qos(e, s);
}

/// How a port or bundle treats RoCE: trust, ECN, ETS, PFC mode.
fn qos(e: &mut Interface, s: &PortSettings) {
    e.trust = s.trust.filter(|t| *t != Trust::L2);
    e.ecn = s.ecn;
    e.ets = s.ets;
    e.pfc = s.pfc;
}

/// A port's or bundle's spanning tree: only what differs from Onyx's defaults (port type
/// normal, no guard) and BPDU guard where it is written (or given to a host's port).
fn stp(e: &mut Interface, s: &PortSettings) {
    let p = s.stp.printed();
    e.stp_type = p.port_type;
    e.bpduguard = p.bpduguard;
    e.stp_guard = p.guard;
}

fn channel_group(b: Bundle) -> ChannelGroup {
    ChannelGroup {
        mlag: b.mlag,
        id: b.id,
        mode: match b.lacp {
            Lacp::Active => LacpMode::Active,
            Lacp::Passive => LacpMode::Passive,
            Lacp::On => LacpMode::On,
        },
    }
}
