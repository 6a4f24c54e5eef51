//! What the format does not model of an Onyx switch, as its `extra` lines by section:
//! port-channels and the other interfaces, members' channel-groups and trunk VLAN lists,
//! per-switch VLANs, and the lines the model keeps verbatim (except those every switch
//! prints).

use std::collections::BTreeSet;

use super::switch::{Expressed, certificate};
use crate::import::doc::Ordered;
use crate::onyx::{self, Config, Iface, Interface};
use crate::types::{Model, Vlan};

/// Lines by section title, in the order first added.
type Sections = Vec<(String, Vec<String>)>;

/// The switch's `extra` lines, in the order it prints its sections.
pub(super) fn extra(c: &Config, model: &Model, x: &Expressed) -> Ordered<Vec<String>> {
    let mut partial = Config::empty();
    for (iface, i) in &c.interfaces {
        if let Some(e) = unmodeled(c, model, x, *iface, i) {
            partial.interfaces.insert(*iface, e);
        }
    }
    let mut by_section: Sections = Vec::new();
    for step in onyx::plan::plan(&Config::empty(), &partial) {
        if let onyx::Command::Interface(r, onyx::IfaceCmd::SwitchportMode(_)) = &step.command
            && matches!(r.first, Iface::Ethernet(_))
        {
            continue;
        }
        add(
            &mut by_section,
            onyx::home_section(&step.command),
            step.command.to_string(),
        );
    }
    verbatim(c, &mut by_section);
    // In the order the switch prints its sections.
    let rank = |t: &str| {
        let printed = c.layout.sections.iter().position(|s| s.title == t);
        let known = onyx::SECTION_ORDER.iter().position(|s| *s == t);
        (printed.is_none(), printed.or(known))
    };
    by_section.sort_by_key(|(t, _)| rank(t));
    Ordered(by_section)
}

fn add(by_section: &mut Sections, title: &str, line: String) {
    match by_section.iter_mut().find(|(t, _)| t == title) {
        Some((_, v)) => v.push(line),
        None => by_section.push((title.to_string(), vec![line])),
    }
}

/// What of an interface the format does not write, if anything.
fn unmodeled(
    c: &Config,
    model: &Model,
    x: &Expressed,
    iface: Iface,
    i: &Interface,
) -> Option<Interface> {
    let e = match iface {
        // A VLAN list of the port's own mode is its `vlans`; one left from another mode
        // (the model keeps none) or `all` on a hybrid port stays a line.
        Iface::Ethernet(p) if model.has_port(p.parent()) => {
            let a = i.allowed.as_ref()?;
            return (a.all || Some(a.mode) != i.switchport_mode).then(|| Interface {
                allowed: i.allowed.clone(),
                // The list prints after the mode; the fabric sets the mode itself.
                switchport_mode: i.switchport_mode,
                ..Interface::default()
            });
        }
        Iface::PortChannel(n) | Iface::MlagPortChannel(n) => bundle(c, x, iface, n, i),
        Iface::Vlan(v) => vlan(x, v, i),
        Iface::Loopback(0) if x.loopback.is_some() => Interface {
            created: false,
            address: None,
            ..i.clone()
        },
        _ => return Some(i.clone()),
    };
    (e != Interface::default()).then_some(e)
}

/// A port-channel less what the format writes of it: what it gets from its members'
/// settings and the MLAG half.
fn bundle(c: &Config, x: &Expressed, iface: Iface, n: u16, i: &Interface) -> Interface {
    let mlag = matches!(iface, Iface::MlagPortChannel(_));
    let first = c.interfaces.iter().find_map(|(m, e)| {
        let g = e.channel_group?;
        (g.mlag == mlag && g.id == n && matches!(m, Iface::Ethernet(_))).then_some(e)
    });
    let mut e = i.clone();
    if let Some(first) = first {
        members_give(&mut e, first, mlag);
    }
    if x.ipl.is_some_and(|(pc, _, _)| !mlag && pc == n) {
        e.ipl = None;
    }
    e
}

/// The bundle's L2 settings are written on its members; its MTU and QoS come from the first
/// member, so only a bundle that differs keeps them.
fn members_give(e: &mut Interface, first: &Interface, mlag: bool) {
    e.created = false;
    let own_list = e
        .allowed
        .as_ref()
        .is_some_and(|a| !a.all && Some(a.mode) == e.switchport_mode);
    if own_list || e.allowed.is_none() {
        e.switchport_mode = None;
        e.allowed = None;
    }
    e.access_vlan = None;
    if e.mtu == first.mtu {
        e.mtu = None;
    }
    if e.trust == first.trust {
        e.trust = None;
    }
    if e.ecn == first.ecn {
        e.ecn = Default::default();
    }
    if e.ets == first.ets {
        e.ets = Default::default();
    }
    if e.pfc == first.pfc {
        e.pfc = false;
    }
    if e.shutdown == mlag.then_some(false) {
        e.shutdown = None;
    }
    // Written on the members: `stp`, `lacp_individual`, `bundle_description`.
    e.stp_type = None;
    e.bpduguard = None;
    e.stp_guard = None;
    e.lacp_individual = false;
    e.description = None;
}

/// A VLAN interface less what its gateway entry or the MLAG half writes.
fn vlan(x: &Expressed, v: Vlan, i: &Interface) -> Interface {
    let mut e = i.clone();
    if x.gateways.contains_key(&v) {
        // The gateway's entry writes its address and MTU (`gateway_mtu`).
        e.created = false;
        e.address = None;
        e.mtu = None;
    }
    if let Some((_, iv, with_address)) = x.ipl
        && iv == v
    {
        e.created = false;
        e.ipl_peer = None;
        if with_address {
            e.address = None;
        }
    }
    e
}

/// The lines the model keeps verbatim, by section, but those the factory config prints.
fn verbatim(c: &Config, by_section: &mut Sections) {
    let factory = Config::factory(
        c.hostname.as_deref().unwrap_or(""),
        c.header.release,
        certificate(c).as_deref(),
    );
    for section in &c.layout.sections {
        if section.title.is_empty() {
            continue;
        }
        let printed: BTreeSet<&str> = factory
            .layout
            .sections
            .iter()
            .filter(|s| s.title == section.title)
            .flat_map(|s| s.verbatim.iter().map(|(_, l)| l.as_str()))
            .collect();
        for (_, line) in &section.verbatim {
            if !printed.contains(line.as_str()) {
                add(by_section, &section.title, line.trim().to_string());
            }
        }
    }
}
