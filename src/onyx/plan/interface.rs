//! One interface's drifted attributes → its commands.

use std::borrow::Cow;

use crate::onyx::{AllowedVlan, Iface, IfaceCmd, Interface};
use crate::types::{SwitchportMode, Vlan};

use super::build::Builder;
use super::*;

/// Each attribute that differs, as the command that sets it (overwriting the old value where
/// Onyx allows) or resets it.
pub(super) fn interface(b: &mut Builder, i: Iface, have: &Interface, want: &Interface) {
    let deleting = !matches!(i, Iface::Ethernet(_)) && have.created && !want.created;
    if deleting {
        delete(b, i, have);
        return;
    }
    if want.created && !have.created {
        b.iface(Kind::InterfaceCreate, i, IfaceCmd::Create);
    }
    let have = Cow::Borrowed(have);
    let have = split(b, i, have, want);
    let have = unaddress(b, i, have, want);
    let have = routed(b, i, have, want);
    let have = address_and_ipl(b, i, have, want);
    port(b, i, &have, want);
    vlans(b, i, &have, want);
    if want.description != have.description {
        b.iface(
            Kind::Description,
            i,
            want.description
                .clone()
                .map_or(IfaceCmd::NoDescription, IfaceCmd::Description),
        );
    }
    qos(b, i, &have, want);
    stp(b, i, &have, want);
    if want.lacp_individual != have.lacp_individual {
        b.iface(
            Kind::LacpIndividual,
            i,
            IfaceCmd::LacpIndividual(want.lacp_individual),
        );
    }
    if want.shutdown != have.shutdown {
        let down_by_default = matches!(i, Iface::MlagPortChannel(_));
        b.iface(
            Kind::Shutdown,
            i,
            IfaceCmd::Shutdown(want.shutdown.unwrap_or(down_by_default)),
        );
    }
}

/// A port-channel, VLAN interface or loopback that goes.
fn delete(b: &mut Builder, i: Iface, have: &Interface) {
    // Its peer-link role and address go first, in reverse of how they came, and only
    // then the interface.
    if let Some(n) = have.ipl_peer.map(|(n, _)| n).or(have.ipl) {
        let kind = if have.ipl_peer.is_some() {
            Kind::IplPeerRemove
        } else {
            Kind::IplRemove
        };
        b.iface(kind, i, IfaceCmd::NoIpl(n));
    }
    if have.address.is_some() {
        b.iface(Kind::AddressRemove, i, IfaceCmd::NoAddress);
    }
    b.iface(Kind::InterfaceDelete, i, IfaceCmd::Create);
}

/// A split that changes, and what the port holds after it.
fn split<'h>(
    b: &mut Builder,
    i: Iface,
    have: Cow<'h, Interface>,
    want: &Interface,
) -> Cow<'h, Interface> {
    if want.split == have.split {
        return have;
    }
    b.iface(
        Kind::Split,
        i,
        want.split.map_or(IfaceCmd::NoSplit, IfaceCmd::Split),
    );
    // Splitting clears the port: it only holds its subports afterwards.
    match want.split {
        Some(s) => Cow::Owned(Interface {
            split: Some(s),
            created: have.created,
            ..Interface::default()
        }),
        None => have,
    }
}

/// An address that goes, and the interface without it.
fn unaddress<'h>(
    b: &mut Builder,
    i: Iface,
    have: Cow<'h, Interface>,
    want: &Interface,
) -> Cow<'h, Interface> {
    // An address that goes is removed before anything else happens to the interface (the
    // port going back to switchport takes it too, but the plan says so first).
    if have.address.is_some() && want.address.is_none() {
        b.iface(Kind::AddressRemove, i, IfaceCmd::NoAddress);
        Cow::Owned(Interface {
            address: None,
            ..have.into_owned()
        })
    } else {
        have
    }
}

/// Routed or L2, where it changes, and what is left of the other mode's settings.
fn routed<'h>(
    b: &mut Builder,
    i: Iface,
    have: Cow<'h, Interface>,
    want: &Interface,
) -> Cow<'h, Interface> {
    // Routed or L2: the change clears what the other mode had (switchport settings, or the
    // address), so what follows compares against that.
    if want.routed == have.routed {
        return have;
    }
    b.iface(Kind::Routed, i, IfaceCmd::Routed(want.routed));
    Cow::Owned(if want.routed {
        Interface {
            routed: true,
            switchport_mode: None,
            access_vlan: None,
            allowed: None,
            ..have.into_owned()
        }
    } else {
        Interface {
            routed: false,
            address: None,
            ..have.into_owned()
        }
    })
}

/// The address and the peer-link role (`ipl N`, `ipl N peer-address A`), and the interface
/// after a role that goes.
fn address_and_ipl<'h>(
    b: &mut Builder,
    i: Iface,
    have: Cow<'h, Interface>,
    want: &Interface,
) -> Cow<'h, Interface> {
    match (have.address, want.address) {
        (a, b_) if a == b_ => {}
        (None, Some(a)) => b.iface(Kind::Address, i, IfaceCmd::Address(a)),
        (Some(_), Some(a)) => b.iface(Kind::AddressChange, i, IfaceCmd::Address(a)),
        (Some(_), None) => b.iface(Kind::AddressRemove, i, IfaceCmd::NoAddress),
        (None, None) => {}
    }
    // `no ipl N` takes the interface out of the peer link, whichever part it held: the
    // port-channel's `ipl N` or the VLAN interface's peer address. It is what
    // mellanox.onyx's onyx_mlag_ipl sends to clear a VLAN interface's peer address
    // (`interface vlan V no ipl 1`); no source shows a `no ipl N peer-address`.
    let peer_gone = have.ipl_peer.is_some() && want.ipl_peer.is_none();
    let ipl_gone = have.ipl.is_some() && want.ipl.is_none();
    let have = match have.ipl_peer.map(|(n, _)| n).or(have.ipl) {
        Some(n) if peer_gone || ipl_gone => {
            let kind = if peer_gone {
                Kind::IplPeerRemove
            } else {
                Kind::IplRemove
            };
            b.iface(kind, i, IfaceCmd::NoIpl(n));
            Cow::Owned(Interface {
                ipl: None,
                ipl_peer: None,
                ..have.into_owned()
            })
        }
        _ => have,
    };
    if let Some(n) = want.ipl
        && have.ipl != want.ipl
    {
        b.iface(Kind::Ipl, i, IfaceCmd::Ipl(n));
    }
    if let Some((n, a)) = want.ipl_peer
        && have.ipl_peer != want.ipl_peer
    {
        b.iface(Kind::Ipl, i, IfaceCmd::IplPeer(n, a));
    }
    have
}

/// The port's speed, MTU, switchport mode and port-channel.
fn port(b: &mut Builder, i: Iface, have: &Interface, want: &Interface) {
    if want.speed != have.speed {
        b.iface(
            Kind::Speed,
            i,
            want.speed.map_or(IfaceCmd::NoSpeed, IfaceCmd::Speed),
        );
    }
    if want.mtu != have.mtu {
        b.iface(
            Kind::Mtu,
            i,
            want.mtu.map_or(IfaceCmd::NoMtu, IfaceCmd::Mtu),
        );
    }
    if want.switchport_mode != have.switchport_mode {
        b.iface(
            Kind::SwitchportMode,
            i,
            IfaceCmd::SwitchportMode(want.switchport_mode.unwrap_or(SwitchportMode::Access)),
        );
    }
    if want.channel_group != have.channel_group {
        // Moving between port-channels is leaving one, then joining the other.
        if let Some(g) = have.channel_group {
            b.iface(
                Kind::ChannelLeave,
                i,
                IfaceCmd::NoChannelGroup { mlag: g.mlag },
            );
        }
        if let Some(g) = want.channel_group {
            b.iface(Kind::ChannelJoin, i, IfaceCmd::ChannelGroup(g));
        }
    }
}

/// The port's VLANs: the access VLAN, and the VLANs a trunk or hybrid port carries.
fn vlans(b: &mut Builder, i: Iface, have: &Interface, want: &Interface) {
    if want.access_vlan != have.access_vlan {
        b.iface(
            Kind::AccessVlan,
            i,
            want.access_vlan
                .map_or(IfaceCmd::NoAccessVlan, IfaceCmd::AccessVlan),
        );
    }
    // A mode change to access clears the trunk VLANs by itself.
    let allowed_before = if want.switchport_mode != have.switchport_mode
        && have
            .allowed
            .as_ref()
            .is_some_and(|a| Some(a.mode) != want.switchport_mode)
    {
        None
    } else {
        have.allowed.clone()
    };
    if want.allowed != allowed_before {
        allowed(b, i, allowed_before.as_ref(), want.allowed.as_ref());
    }
}

/// The port's QoS: trust, ECN and ETS per traffic class, PFC.
fn qos(b: &mut Builder, i: Iface, have: &Interface, want: &Interface) {
    if want.trust != have.trust {
        b.iface(
            Kind::Trust,
            i,
            want.trust.map_or(IfaceCmd::NoTrust, IfaceCmd::Trust),
        );
    }
    for (tc, e) in &want.ecn {
        if have.ecn.get(tc) != Some(e) {
            b.iface(Kind::Ecn, i, IfaceCmd::Ecn(*tc, *e));
        }
    }
    for tc in have.ecn.keys().filter(|tc| !want.ecn.contains_key(tc)) {
        b.iface(Kind::Ecn, i, IfaceCmd::NoEcn(*tc));
    }
    for (tc, e) in &want.ets {
        if have.ets.get(tc) != Some(e) {
            b.iface(Kind::Ets, i, IfaceCmd::Ets(*tc, *e));
        }
    }
    for tc in have.ets.keys().filter(|tc| !want.ets.contains_key(tc)) {
        b.iface(Kind::Ets, i, IfaceCmd::NoEts(*tc));
    }
    if want.pfc != have.pfc {
        b.iface(Kind::PfcMode, i, IfaceCmd::PfcMode(want.pfc));
    }
}

/// Spanning tree on an interface: a setting that goes is taken away before the port joins a
/// port-channel; one that comes or changes is set before the port comes up.
fn stp(b: &mut Builder, i: Iface, have: &Interface, want: &Interface) {
    let change = |b: &mut Builder, set: Option<IfaceCmd>, unset: IfaceCmd| match set {
        Some(c) => b.iface(Kind::Stp, i, c),
        None => b.iface(Kind::StpUnset, i, unset),
    };
    if want.stp_type != have.stp_type {
        let set = want.stp_type.map(IfaceCmd::StpPortType);
        change(b, set, IfaceCmd::NoStpPortType);
    }
    if want.bpduguard != have.bpduguard {
        let set = want.bpduguard.map(IfaceCmd::Bpduguard);
        change(b, set, IfaceCmd::NoBpduguard);
    }
    if want.stp_guard != have.stp_guard {
        let set = want.stp_guard.map(IfaceCmd::StpGuard);
        change(b, set, IfaceCmd::NoStpGuard);
    }
}

/// The VLANs a trunk or hybrid port carries: `all` or `none` where that changes, then the
/// VLANs added and removed.
fn allowed(
    b: &mut Builder,
    i: Iface,
    have: Option<&crate::onyx::Allowed>,
    want: Option<&crate::onyx::Allowed>,
) {
    use crate::onyx::Allowed;
    let Some(mode) = want.or(have).map(|a| a.mode) else {
        return;
    };
    let want = want.cloned().unwrap_or_else(|| Allowed::default_for(mode));
    // What the port carries now, as seen by commands in the wanted mode.
    let cur = have
        .filter(|h| h.mode == want.mode)
        .cloned()
        .unwrap_or_else(|| Allowed::default_for(want.mode));
    let mut base = cur.vlans.clone();
    if want.all != cur.all {
        let op = if want.all {
            AllowedVlan::All
        } else {
            AllowedVlan::None
        };
        b.iface(Kind::AllowedBase, i, IfaceCmd::AllowedVlan(want.mode, op));
        base.clear();
    }
    if want.all {
        return;
    }
    let add: Vec<Vlan> = want.vlans.difference(&base).collect();
    let remove: Vec<Vlan> = base.difference(&want.vlans).collect();
    if !add.is_empty() {
        b.iface(
            Kind::AllowedVlan,
            i,
            IfaceCmd::AllowedVlan(want.mode, AllowedVlan::Add(add.into())),
        );
    }
    if !remove.is_empty() {
        let cmd = IfaceCmd::AllowedVlan(want.mode, AllowedVlan::Remove(remove.into()));
        b.iface(Kind::AllowedVlan, i, cmd);
    }
}
