//! A Cumulus switch as the lab's network reads it: the applied NVUE tree stated in the
//! network's terms (the Onyx model [`crate::lab::network`] reads): ports `swpN` as ethernet
//! 1/N and `swpNsM` as subport 1/N/M+1, their breakout, admin state, MTU, description, bridge
//! membership and addresses; bonds as port-channels (MLAG bonds as MLAG port-channels); SVIs,
//! the loopback, the bridge's VLANs; BGP's AS, router-id, numbered neighbors, BFD, networks
//! and multipath's `aspath-ignore`; the neighbors named by a port (BGP unnumbered) as the
//! node's port peers. It only reads.
//!
//! What NVUE does by default and the terms carry explicitly: LLDP runs, IP routing is on,
//! a port without `link state` is up (UNCONFIRMED: ifupdown2 brings up the ports NVUE
//! configures); a port in neither the bridge nor a bond is routed (a layer-3 port, as every
//! `swp` outside a bridge is on Cumulus Linux). A numbered neighbor whose `remote-as` is
//! `external` or `internal` names no number the terms can hold: it is left out.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use crate::cumulus::rules;
use crate::cumulus::tree::{self, Tree};
use crate::lab::network::{PortPeer, RemoteAs};
use crate::onyx::{self, Interface};
use crate::targets::SwitchOs as _;
use crate::types::{Iface, Ipv4Net, Port, SwitchportMode, Vlan, VlanSet};

/// The applied tree `t` as the network reads it.
pub fn node(t: &Tree) -> crate::lab::network::Node {
    crate::lab::network::Node {
        config: view(t),
        os: crate::cumulus::target::CUMULUS.os(),
        pair: None,
        port_peers: port_peers(t),
    }
}

/// The path of `p` under the default VRF's BGP.
fn in_vrf<'a>(p: &[&'a str]) -> Vec<&'a str> {
    ["vrf", "default", "router", "bgp"]
        .iter()
        .chain(p)
        .copied()
        .collect()
}

/// The default VRF's neighbors named by a port (`neighbor swp33 type unnumbered`, or no
/// `type`: NVUE takes an interface name as unnumbered), each with its `remote-as`
/// (`external`, `internal` or a number), BFD and `timers hold`.
fn port_peers(t: &Tree) -> BTreeMap<Port, PortPeer> {
    let mut out = BTreeMap::new();
    for n in tree::names(t, &in_vrf(&["neighbor"])) {
        let Some(p) = rules::port(n) else { continue };
        let v = |k: &[&str]| {
            let path: Vec<&str> = ["neighbor", n].iter().chain(k).copied().collect();
            tree::value(t, &in_vrf(&path))
        };
        if v(&["type"]).is_some_and(|ty| ty != "unnumbered") {
            continue;
        }
        let remote_as = match v(&["remote-as"]) {
            Some("external") => RemoteAs::External,
            Some("internal") => RemoteAs::Internal,
            Some(r) => match r.parse() {
                Ok(n) => RemoteAs::Number(n),
                Err(_) => continue,
            },
            None => continue,
        };
        let peer = PortPeer {
            remote_as,
            bfd: tree::switched(t, &in_vrf(&["neighbor", n, "bfd"])) == Some(true),
            hold: v(&["timers", "hold"]).and_then(|h| h.parse().ok()),
        };
        out.insert(p, peer);
    }
    out
}

/// `t` in the network's terms.
pub fn view(t: &Tree) -> onyx::Config {
    let mut out = onyx::Config {
        hostname: tree::value(t, &["system", "hostname"]).map(str::to_string),
        lldp: true,
        ip_routing: true,
        ..onyx::Config::empty()
    };
    for v in tree::names(t, &["bridge", "domain", "br_default", "vlan"]) {
        if let Some(v) = vlan(v) {
            out.vlans.entry(v).or_default();
        }
    }
    if let Some(ifaces) = tree::get(t, &["interface"]).and_then(|n| n.map()) {
        for (name, i) in ifaces {
            let Some(i) = i.map() else { continue };
            if let Some((key, iface)) = interface(ifaces, name, i) {
                out.interfaces.insert(key, iface);
            }
        }
    }
    bgp(t, &mut out);
    qos(t, &mut out);
    out
}

/// NVUE's QoS, switch-wide, as the audit reads it: the priorities PFC pauses, and on every
/// port PFC and the ECN marking of each class (for the counters, [`crate::lab::counters`]).
fn qos(t: &Tree, out: &mut onyx::Config) {
    let q = crate::cumulus::audit::switch_qos(t);
    out.pfc = onyx::Pfc {
        enabled: !q.pfc.is_empty(),
        priorities: q
            .pfc
            .iter()
            .filter_map(|p| crate::types::Priority::new(i64::from(*p)).ok())
            .collect(),
    };
    for (k, i) in out.interfaces.iter_mut() {
        if let Iface::Ethernet(_) = k {
            i.pfc = out.pfc.enabled;
            i.ecn = q.ecn;
        }
    }
}

fn vlan(text: &str) -> Option<Vlan> {
    Vlan::new(text.parse().ok()?).ok()
}

/// The number at the end of a name (`bond12` → 12).
fn number(name: &str) -> Option<u16> {
    let digits: String = name
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

/// The bond `port` is a member of: its number and whether it is an MLAG bond.
fn bond_of(ifaces: &Tree, port: &str) -> Option<(u16, bool)> {
    ifaces.iter().find_map(|(name, b)| {
        let b = b.map()?;
        tree::get(b, &["bond", "member", port])?;
        let mlag = tree::get(b, &["bond", "mlag"]).is_some();
        Some((number(name).unwrap_or(0), mlag))
    })
}

/// One interface `name` (object `i`) as the network's key and interface.
fn interface(ifaces: &Tree, name: &str, i: &Tree) -> Option<(Iface, Interface)> {
    let kind = tree::value(i, &["type"]).unwrap_or("");
    let key = match (rules::port(name), kind) {
        (Some(p), _) => Iface::Ethernet(p),
        (None, "loopback") => Iface::Loopback(0),
        (None, "svi") => Iface::Vlan(
            tree::value(i, &["vlan"])
                .and_then(vlan)
                .or_else(|| vlan(&number(name)?.to_string()))?,
        ),
        (None, "bond") => {
            let n = number(name)?;
            match tree::get(i, &["bond", "mlag"]).is_some() {
                true => Iface::MlagPortChannel(n),
                false => Iface::PortChannel(n),
            }
        }
        _ => return None,
    };
    let state = tree::names(i, &["link", "state"]);
    let address = tree::names(i, &["ip", "address"])
        .into_iter()
        .find_map(|a| a.parse::<Ipv4Net>().ok());
    let mut out = Interface {
        created: true,
        split: tree::breakout(i),
        shutdown: match state.first() {
            Some(&"down") => Some(true),
            Some(_) => Some(false),
            None => None,
        },
        mtu: tree::value(i, &["link", "mtu"]).and_then(|m| m.parse().ok()),
        description: tree::value(i, &["description"]).map(str::to_string),
        address,
        routed: matches!(key, Iface::Ethernet(_))
            && (address.is_some()
                || (tree::get(i, &["bridge"]).is_none() && bond_of(ifaces, name).is_none())),
        ..Interface::default()
    };
    bridge(i, &mut out);
    if let (Iface::Ethernet(_), Some((id, mlag))) = (key, bond_of(ifaces, name)) {
        out.channel_group = Some(onyx::ChannelGroup {
            mlag,
            id,
            mode: onyx::command::LacpMode::Active,
        });
    }
    Some((key, out))
}

/// Membership of the bridge `br_default`: an access VLAN, else the trunk's VLANs.
fn bridge(i: &Tree, out: &mut Interface) {
    let Some(b) = tree::get(i, &["bridge", "domain", "br_default"]).and_then(|n| n.map()) else {
        return;
    };
    if let Some(v) = tree::value(b, &["access"]).and_then(vlan) {
        out.switchport_mode = Some(SwitchportMode::Access);
        out.access_vlan = Some(v);
        return;
    }
    let mut vlans = VlanSet::new();
    for v in tree::names(b, &["vlan"]) {
        if let Some(v) = vlan(v) {
            vlans.insert(v);
        }
    }
    out.switchport_mode = Some(SwitchportMode::Trunk);
    out.allowed = Some(onyx::Allowed {
        mode: SwitchportMode::Trunk,
        all: vlans.is_empty(),
        vlans,
    });
}

/// BGP: the global AS and router-id, the default VRF's numbered neighbors, BFD, networks.
fn bgp(t: &Tree, out: &mut onyx::Config) {
    // BGP runs unless turned off.
    let on = |p: &[&str]| tree::switched(t, p) != Some(false);
    let Some(asn) =
        tree::value(t, &["router", "bgp", "autonomous-system"]).and_then(|a| a.parse().ok())
    else {
        return;
    };
    if !on(&["router", "bgp"]) {
        return;
    }
    let mut b = onyx::Bgp::new(asn);
    b.router_id = tree::value(t, &["router", "bgp", "router-id"]).and_then(|r| r.parse().ok());
    b.multipath_relax = tree::value(
        t,
        &in_vrf(&["path-selection", "multipath", "aspath-ignore"]),
    ) == Some("on");
    let vrf = ["vrf", "default", "router", "bgp"];
    fn sub<'a>(vrf: &[&'a str], p: &[&'a str]) -> Vec<&'a str> {
        vrf.iter().chain(p).copied().collect()
    }
    if port_peers(t).values().any(|p| p.bfd) {
        out.protocols.insert(onyx::Protocol::Bfd);
    }
    for n in tree::names(t, &sub(&vrf, &["neighbor"])) {
        let Ok(addr) = n.parse::<Ipv4Addr>() else {
            continue;
        };
        let remote =
            tree::value(t, &sub(&vrf, &["neighbor", n, "remote-as"])).and_then(|r| r.parse().ok());
        if let Some(r) = remote {
            b.neighbors.insert(addr, r);
        }
        if tree::switched(t, &sub(&vrf, &["neighbor", n, "bfd"])) == Some(true) {
            b.bfd.insert(addr);
            out.protocols.insert(onyx::Protocol::Bfd);
        }
    }
    for n in tree::names(
        t,
        &sub(&vrf, &["address-family", "ipv4-unicast", "network"]),
    ) {
        if let Ok(net) = n.parse::<Ipv4Net>() {
            b.networks.insert(net);
        }
    }
    out.protocols.insert(onyx::Protocol::Bgp);
    out.bgp = Some(b);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_bridge_and_bgp_in_the_network_terms() {
        let text = "nv set system hostname leaf01\n\
                    nv set interface swp1 link breakout 2x\n\
                    nv set interface swp1s0 bridge domain br_default access 101\n\
                    nv set interface swp33 link state down\n\
                    nv set interface swp33 link mtu 9216\n\
                    nv set interface lo ip address 10.255.1.1/32\n\
                    nv set interface lo type loopback\n\
                    nv set router bgp autonomous-system 65101\n\
                    nv set vrf default router bgp neighbor 10.0.0.1 remote-as 65000\n";
        let mut t = Tree::new();
        tree::apply(&mut t, &tree::parse_commands(text).unwrap());
        let v = view(&t);
        assert_eq!(v.hostname.as_deref(), Some("leaf01"));
        let eth = |s: &str| Iface::Ethernet(s.parse().unwrap());
        assert_eq!(
            v.interfaces[&eth("1/1")].split,
            Some(crate::types::Split::Two)
        );
        assert_eq!(
            v.interfaces[&eth("1/1/1")].access_vlan.map(Vlan::get),
            Some(101)
        );
        assert_eq!(v.interfaces[&eth("1/33")].shutdown, Some(true));
        assert_eq!(v.interfaces[&eth("1/33")].mtu, Some(9216));
        assert!(v.interfaces[&Iface::Loopback(0)].address.is_some());
        assert_eq!(
            v.bgp.unwrap().neighbors[&"10.0.0.1".parse().unwrap()],
            65000
        );
    }

    /// BFD and BGP turned on in either release's spelling (`enable on` before 5.15, `state
    /// enabled` from it) reach the network alike; turned off, they do not.
    #[test]
    fn bfd_and_bgp_in_both_spellings() {
        for (bfd, bgp_on) in [
            ("enable on", true),
            ("state enabled", true),
            ("state disabled", false),
        ] {
            let text = format!(
                "nv set router bgp autonomous-system 65101\n\
                 nv set router bgp {}\n\
                 nv set vrf default router bgp neighbor 10.0.0.1 remote-as 65000\n\
                 nv set vrf default router bgp neighbor 10.0.0.1 bfd {bfd}\n\
                 nv set vrf default router bgp neighbor swp33 remote-as external\n\
                 nv set vrf default router bgp neighbor swp33 bfd {bfd}\n",
                if bgp_on {
                    "state enabled"
                } else {
                    "enable off"
                }
            );
            let mut t = Tree::new();
            tree::apply(&mut t, &tree::parse_commands(&text).unwrap());
            let v = view(&t);
            let addr = "10.0.0.1".parse().unwrap();
            assert_eq!(
                v.bgp.as_ref().map(|b| b.bfd.contains(&addr)),
                bgp_on.then_some(true),
                "{bfd}"
            );
            assert_eq!(port_peers(&t)[&Port::new(1, 33)].bfd, bgp_on, "{bfd}");
        }
    }
}
