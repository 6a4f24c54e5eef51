//! An OS10 switch as the lab's network model reads it. The network ([`crate::lab::network`])
//! derives links, LLDP, BGP sessions and MLAG from typed configurations in one set of terms
//! (ports and their admin state, bundles, L2 membership, addresses, BGP instance and
//! neighbors): this module states an OS10 running configuration in those terms, so a cable
//! between an Onyx and an OS10 switch is judged from both ends alike. It only reads; nothing
//! here is printed or pushed.
//!
//! What OS10 does by default and the terms carry explicitly: LLDP runs (OS10 enables it on
//! every port unless turned off per port; the model has no such line, so it is on), IP routing
//! is on, a port-channel is up unless shut down. A VLT domain is not in these terms (Onyx's
//! MLAG has a peer link VLAN and addresses, a VLT pair neither): [`node`] carries it beside
//! them, and [`super::vlt`] judges the pair.

use crate::onyx::{self, Iface as OnyxIface, Interface as OnyxInterface};
pub use crate::os10::port_of;
use crate::os10::{Config, Eth, Iface, SwitchportMode};
use crate::targets::SwitchOs as _;
use crate::types::Split;

/// The split a breakout map makes of its port (`25g-4x`: four subports; `100g-1x`: none).
fn split_of(map: &str) -> Option<Split> {
    let (_, ways) = crate::os10::models::read_map(map)?;
    Split::from_ways(i64::from(ways)).ok()
}

/// An OS10 switch as the network reads it: `config` in its terms, and its VLT domain.
pub fn node(config: &Config) -> crate::lab::network::Node {
    crate::lab::network::Node {
        config: view(config),
        os: crate::os10::target::OS10.os(),
        pair: super::vlt::domain(config),
        port_peers: Default::default(),
    }
}

/// `config` in the network's terms.
pub fn view(config: &Config) -> onyx::Config {
    let mut out = onyx::Config {
        hostname: config.hostname.clone(),
        lldp: true,
        ip_routing: true,
        ..onyx::Config::empty()
    };
    split_ports(config, &mut out);
    interfaces(config, &mut out);
    if let Some(b) = &config.bgp {
        bgp(config, b, &mut out);
    }
    // The priorities paused, each port's PFC mode and ECN marking, as the audit reads them.
    crate::lab::view::qos_terms(&crate::targets::Audited::view(config, None), &mut out);
    out
}

/// The ports breakout maps and port groups split (or name as subport 1).
fn split_ports(config: &Config, out: &mut onyx::Config) {
    for (eth, map) in &config.breakouts {
        if let Some(split) = split_of(map) {
            out.interfaces
                .entry(OnyxIface::Ethernet(port_of(*eth)))
                .or_default()
                .split = Some(split);
        }
    }
    // Port groups: a port its group's mode breaks out is split as by a breakout map; one it
    // names as subport 1 without a split (`ethernet1/1/17:1` in `10g-4x`, the TOR capture)
    // exists as that subport, configured or not (the network counts a created subport 1).
    if let Some(model) = crate::os10::groups::model_of([&config.port_groups]) {
        for g in model.port_groups() {
            let mode = crate::os10::groups::mode(&config.port_groups, &g);
            let Some(l) = g.layout(mode) else { continue };
            for n in g.ports() {
                if l.ways > 1 {
                    out.interfaces
                        .entry(OnyxIface::Ethernet(port_of(Eth::new(n))))
                        .or_default()
                        .split = Split::from_ways(i64::from(l.ways)).ok();
                } else if l.renamed {
                    out.interfaces
                        .entry(OnyxIface::Ethernet(port_of(Eth::sub(n, 1))))
                        .or_default()
                        .created = true;
                }
            }
        }
    }
}

/// The interfaces (management's aside), and the VLANs their `interface vlanN` make.
fn interfaces(config: &Config, out: &mut onyx::Config) {
    // Port-channels that are VLT ports bundle across the pair, as Onyx's MLAG port-channels.
    let vlt: Vec<u16> = config
        .interfaces
        .iter()
        .filter_map(|(k, i)| match (k, i.vlt_port_channel) {
            (Iface::PortChannel(n), Some(_)) => Some(*n),
            _ => None,
        })
        .collect();
    for (k, i) in &config.interfaces {
        let key = match k {
            Iface::Ethernet(e) => OnyxIface::Ethernet(port_of(*e)),
            Iface::PortChannel(n) if vlt.contains(n) => OnyxIface::MlagPortChannel(*n),
            Iface::PortChannel(n) => OnyxIface::PortChannel(*n),
            Iface::Vlan(v) => OnyxIface::Vlan(*v),
            Iface::Loopback(n) => OnyxIface::Loopback(*n),
            Iface::Mgmt(..) => continue,
        };
        let e = out.interfaces.entry(key).or_default();
        *e = interface(i, key, &vlt, e.split);
        // `interface vlanN` is what makes a VLAN on OS10.
        if let Iface::Vlan(v) = k {
            out.vlans.entry(*v).or_default();
        }
    }
}

/// One interface, `key` in the network's terms, of the VLT port-channels `vlt`, split as
/// `split`.
fn interface(
    i: &crate::os10::Interface,
    key: OnyxIface,
    vlt: &[u16],
    split: Option<Split>,
) -> OnyxInterface {
    let mode = match i.mode {
        Some(SwitchportMode::Trunk) => Some(crate::types::SwitchportMode::Trunk),
        Some(SwitchportMode::Access) => Some(crate::types::SwitchportMode::Access),
        None => None,
    };
    OnyxInterface {
        split,
        created: true,
        shutdown: match key {
            OnyxIface::MlagPortChannel(_) => Some(i.shutdown == Some(true)),
            _ => i.shutdown,
        },
        switchport_mode: mode,
        access_vlan: i.access_vlan,
        allowed: i.trunk_allowed.clone().map(|vlans| onyx::Allowed {
            mode: crate::types::SwitchportMode::Trunk,
            all: false,
            vlans,
        }),
        channel_group: i.channel_group.map(|g| onyx::ChannelGroup {
            mlag: vlt.contains(&g.id),
            id: g.id,
            mode: onyx::command::LacpMode::Active,
        }),
        routed: i.routed,
        address: i.address,
        mtu: i.mtu,
        ..OnyxInterface::default()
    }
}

/// The BGP instance `b`: its neighbors (a template's settings inherited, shut-down ones
/// left out), BFD and networks.
fn bgp(config: &Config, b: &crate::os10::Bgp, out: &mut onyx::Config) {
    out.protocols.insert(onyx::Protocol::Bgp);
    let mut bgp = onyx::Bgp::new(b.asn);
    bgp.router_id = b.router_id;
    let template = |name: &Option<String>| {
        b.templates
            .iter()
            .find(|(t, _)| Some(t) == name.as_ref())
            .map(|(_, p)| p)
    };
    bgp.fast_external_fallover = b.fast_external_fallover;
    for (addr, peer) in &b.neighbors {
        if peer.shutdown == Some(true) {
            continue;
        }
        let inherited = template(&peer.inherit);
        if let Some(asn) = peer.remote_as.or_else(|| inherited?.remote_as) {
            bgp.neighbors.insert(*addr, asn);
        }
        if peer.bfd || inherited.is_some_and(|t| t.bfd) {
            bgp.bfd.insert(*addr);
        }
        if let Some(t) = peer.timers.or_else(|| inherited?.timers) {
            bgp.timers.insert(*addr, t);
        }
    }
    // `bfd enable` runs BFD, with one set of timers for every session.
    if config.bfd {
        out.protocols.insert(onyx::Protocol::Bfd);
        let t = config
            .bfd_interval
            .unwrap_or(crate::os10::BfdInterval::DEFAULT);
        out.bfd = onyx::BfdInterval {
            min_rx: Some(t.min_rx),
            multiplier: Some(t.multiplier),
            transmit_rate: Some(t.interval),
        };
    }
    if let Some(af) = &b.ipv4 {
        bgp.networks.extend(af.networks.iter().copied());
    }
    out.bgp = Some(bgp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_bundles_and_bgp_in_the_network_terms() {
        let text = "hostname leaf01\n\
                    interface breakout 1/1/53 map 25g-4x\n\
                    interface ethernet1/1/54\n no shutdown\n no switchport\n ip address 10.0.0.1/31\n\
                    interface port-channel10\n no shutdown\n vlt-port-channel 10\n\
                    interface ethernet1/1/1\n no shutdown\n channel-group 10 mode active\n\
                    router bgp 65101\n router-id 10.1.0.1\n neighbor 10.0.0.0\n  remote-as 65000\n  no shutdown\n";
        let c = crate::os10::parse(text).unwrap();
        let v = view(&c);
        assert_eq!(v.hostname.as_deref(), Some("leaf01"));
        let eth = |s: &str| OnyxIface::Ethernet(s.parse().unwrap());
        assert_eq!(v.interfaces[&eth("1/53")].split, Some(Split::Four));
        assert!(v.interfaces[&eth("1/54")].routed);
        assert_eq!(
            v.interfaces[&eth("1/1")]
                .channel_group
                .map(|g| (g.mlag, g.id)),
            Some((true, 10))
        );
        assert_eq!(
            v.interfaces[&OnyxIface::MlagPortChannel(10)].shutdown,
            Some(false)
        );
        let bgp = v.bgp.unwrap();
        assert_eq!(bgp.asn, 65101);
        assert_eq!(bgp.neighbors[&"10.0.0.0".parse().unwrap()], 65000);
    }
}
