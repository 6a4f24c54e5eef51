//! An OS10 VLT pair as the lab's network runs it, judged from both ends as Onyx's MLAG is:
//! the VLT interconnect (VLTi) is up when a `discovery-interface` port's cable is up and ends
//! on a `discovery-interface` port of a switch in the same `vlt-domain`; the peer is up when
//! besides both halves agree on the `vlt-mac` (the OS10 user guide: peership is not
//! established when the VLT MACs differ or only one peer sets one); a VLT port-channel is up
//! on a unit when it is not shut down and a member's link is up. The heartbeat (`backup
//! destination`, over the management network) is not simulated: the lab has no management
//! network, and a switch's configuration does not hold the address it is reached at.
//!
//! `show vlt N` and `show vlt N vlt-port-detail` print it in the layout of
//! [`crate::os10::show`] (UNCONFIRMED: no capture).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::net::port_of;
use crate::lab::network::{Net, base_mac};
use crate::os10::show::{self as layout, field};
use crate::os10::{Config, Iface};
use crate::types::Mac;

/// A switch's VLT domain, in the network's terms.
pub use crate::lab::network::PairDomain as Domain;

/// The VLT domain of `config`, if it has one.
pub fn domain(config: &Config) -> Option<Domain> {
    let v = config.vlt.as_ref()?;
    let ports = config
        .interfaces
        .iter()
        .filter_map(|(k, i)| match (k, i.vlt_port_channel) {
            (Iface::PortChannel(n), Some(id)) => Some((id, *n)),
            _ => None,
        })
        .collect();
    Some(Domain {
        id: v.id,
        discovery: v.discovery.iter().map(|e| port_of(*e)).collect(),
        vlt_mac: v.vlt_mac,
        primary_priority: v.primary_priority,
        ports,
    })
}

/// One unit's VLT port-channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortState {
    pub port_channel: u16,
    pub up: bool,
    pub configured: usize,
    pub active: usize,
}

/// A switch's VLT as it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub id: u8,
    pub local_mac: Mac,
    /// The domain's MAC: the configured `vlt-mac`, else the primary's.
    pub vlt_mac: Mac,
    pub primary: bool,
    pub vlti_up: bool,
    /// The switch across a VLTi cable in a VLT domain, and whether the peership is up.
    pub peer: Option<(String, Mac, bool)>,
    /// Each VLT port-channel by its id: this unit's state, the peer's (when the pair is up
    /// and the peer has it).
    pub ports: BTreeMap<u16, (PortState, Option<PortState>)>,
}

fn domain_of<'a>(net: &Net<'a>, sw: &str) -> Option<&'a Domain> {
    net.pair(sw)
}

fn port_state(net: &Net<'_>, sw: &str, po: u16) -> PortState {
    let members = net.members(sw, true, po);
    let active = members.iter().filter(|p| net.port_up(sw, **p)).count();
    let admin = net
        .config(sw)
        .and_then(|c| c.interfaces.get(&crate::onyx::Iface::MlagPortChannel(po)))
        .is_some_and(|i| i.shutdown == Some(false));
    PortState {
        port_channel: po,
        up: admin && active > 0,
        configured: members.len(),
        active: if admin { active } else { 0 },
    }
}

/// `net.me`'s VLT, from both ends; `None` without a VLT domain.
pub fn view(net: &Net<'_>) -> Option<View> {
    let me = net.me;
    let d = domain_of(net, me)?;
    // The switch across each up VLTi cable that ends on a VLTi port of a VLT domain.
    let across: Vec<(&str, &Domain)> = d
        .discovery
        .iter()
        .filter(|p| net.port_up(me, **p))
        .filter_map(|p| net.cabling.far(me, *p))
        .filter_map(|(f, q)| {
            let theirs = domain_of(net, f)?;
            theirs.discovery.contains(&q).then_some((f, theirs))
        })
        .collect();
    let same = across.iter().find(|(_, e)| e.id == d.id).copied();
    let peer = same.or(across.first().copied());
    let vlti_up = same.is_some();
    let peer_up = same.is_some_and(|(_, e)| e.vlt_mac == d.vlt_mac);
    let local_mac = base_mac(me);
    let peer_mac = peer.map(|(f, _)| base_mac(f));
    // The primary: the lower priority, else the lower MAC (the user guide's election).
    let primary = match same.filter(|_| peer_up) {
        Some((_, e)) => {
            let key = |d: &Domain, mac: Mac| (d.primary_priority.unwrap_or(32768), mac);
            key(d, local_mac) <= key(e, peer_mac.unwrap_or(local_mac))
        }
        None => true,
    };
    let vlt_mac = d.vlt_mac.unwrap_or(if primary {
        local_mac
    } else {
        peer_mac.unwrap_or(local_mac)
    });
    let ports = d
        .ports
        .iter()
        .map(|(id, po)| {
            let there = same
                .filter(|_| peer_up)
                .and_then(|(f, e)| e.ports.get(id).map(|n| port_state(net, f, *n)));
            (*id, (port_state(net, me, *po), there))
        })
        .collect();
    Some(View {
        id: d.id,
        local_mac,
        vlt_mac,
        primary,
        vlti_up,
        peer: peer.map(|(f, _)| (f.to_string(), base_mac(f), peer_up)),
        ports,
    })
}

/// The unit IDs of a pair: the primary is unit 1.
fn units(v: &View) -> (u8, u8) {
    if v.primary { (1, 2) } else { (2, 1) }
}

/// A unit's VLTi address.
fn ipv6(domain: u8, unit: u8) -> String {
    format!("{}:{domain}::{unit}", layout::VLTI_IPV6_PREFIX)
}

fn mac(m: Mac) -> String {
    m.to_string().to_lowercase()
}

/// `show vlt N`; `None` when N is not the switch's domain.
pub fn show(net: &Net<'_>, id: u8) -> Option<String> {
    let v = view(net).filter(|v| v.id == id)?;
    let (mine, theirs) = units(&v);
    let w = layout::VLT_LABEL_WIDTH;
    let mut out = String::new();
    let up = |b: bool| if b { "up" } else { "down" };
    for (label, value) in [
        (field::DOMAIN, v.id.to_string()),
        (field::UNIT, mine.to_string()),
        (
            field::ROLE,
            if v.primary { "primary" } else { "secondary" }.to_string(),
        ),
        (field::VERSION, layout::VLT_VERSION.to_string()),
        (field::LOCAL_MAC, mac(v.local_mac)),
        (field::VLT_MAC, mac(v.vlt_mac)),
        (field::IP, ipv6(v.id, mine)),
        (field::DELAY_RESTORE, "90 seconds".to_string()),
        (field::PEER_ROUTING, "Disabled".to_string()),
        (field::PEER_ROUTING_TIMEOUT, "0 seconds".to_string()),
    ] {
        let _ = writeln!(out, "{label:<w$}: {value}");
    }
    let _ = writeln!(out, "{}", layout::VLTI_HEADING);
    let _ = writeln!(
        out,
        "    {:<w2$}: {}",
        format!("port-channel{}", layout::VLTI_PORT_CHANNEL),
        up(v.vlti_up),
        w2 = w - 4
    );
    out.push('\n');
    let _ = writeln!(out, "{}", layout::VLT_PEER_HEADER);
    let _ = writeln!(out, "{}", layout::rule(layout::VLT_PEER_HEADER));
    if let Some((_, peer_mac, peer_up)) = &v.peer {
        let _ = writeln!(
            out,
            "  {theirs:<18}{:<22}{:<10}{:<23}{}",
            mac(*peer_mac),
            up(*peer_up),
            ipv6(v.id, theirs),
            layout::VLT_VERSION
        );
    }
    Some(out)
}

/// `show vlt N vlt-port-detail`; `None` when N is not the switch's domain.
pub fn port_detail(net: &Net<'_>, id: u8) -> Option<String> {
    let v = view(net).filter(|v| v.id == id)?;
    let (mine, theirs) = units(&v);
    let mut out = String::new();
    let row = |out: &mut String, local: bool, unit: u8, s: &PortState| {
        let _ = writeln!(
            out,
            "{} {unit:<13}{:<18}{:<10}{:<20}{}",
            if local { '*' } else { ' ' },
            format!("port-channel{}", s.port_channel),
            if s.up { "up" } else { "down" },
            s.configured,
            s.active
        );
    };
    for (id, (here, there)) in &v.ports {
        let _ = writeln!(out, "{} : {id}", layout::VLT_PORT_ID);
        let _ = writeln!(out, "{}", layout::VLT_PORT_HEADER);
        let _ = writeln!(out, "{}", layout::rule(layout::VLT_PORT_HEADER));
        let mut rows = vec![(true, mine, here)];
        if let Some(t) = there {
            rows.push((false, theirs, t));
        }
        rows.sort_by_key(|r| r.1);
        for (local, unit, s) in rows {
            row(&mut out, local, unit, s);
        }
    }
    Some(out)
}
