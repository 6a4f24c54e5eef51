//! `(running, intended)` → the Onyx commands that turn one into the other, touching nothing
//! else.
//!
//! Two steps. [`target()`] decides what the switch should look like: the intended config for
//! what is managed, the running config for everything else (unmodeled lines, interfaces and
//! attributes the fabric does not manage, objects it does not declare unless pruning).
//! [`plan()`] then compares two models and lists commands such that
//! `running.apply(plan) == target`: only drifted attributes of drifted interfaces, ranges
//! where consecutive interfaces need the same change, ordered so that nothing is referenced
//! before it exists or deleted while referenced. Both are pure: no text, no I/O.
//!
//! The rules are data ([`RULES`]): per kind of change, its phase in the plan and its impact.

mod build;
mod interface;
mod target;

pub use build::{mlag_changes, plan};
pub use target::target;

use std::collections::BTreeSet;

use serde::Serialize;

pub use crate::diff::Impact;
use crate::onyx::{Command, Iface};

/// One command of a plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    #[serde(serialize_with = "as_text")]
    pub command: Command,
    pub impact: Impact,
}

fn as_text<S: serde::Serializer>(c: &Command, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(c)
}

/// Kinds of change, in plan order. Creation comes before reference (a VLAN before the
/// `switchport access vlan` that uses it, a pool's type before its map, global PFC before
/// per-port PFC, `protocol bgp` before `router bgp`, an interface before its address, an
/// address before the BGP session over it); unreferencing comes before deletion (access VLANs
/// and channel-groups change before `no vlan` and `no interface port-channel`; per-port PFC
/// off before global PFC off; sessions, then `no router bgp`, then `no protocol bgp`). An MLAG
/// pair is shut down first and brought up last, so its settings and peer link only ever
/// change while it is down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    License,
    Hostname,
    LldpOn,
    IpRoutingOn,
    ProtocolOn,
    BfdInterval,
    LoadSharing,
    LacpOn,
    StpOn,
    MlagDisable,
    MlagUnset,
    IplPeerRemove,
    IplRemove,
    BgpBfdOff,
    BgpRemoveNeighbor,
    BgpRemoveNetwork,
    BgpReplace,
    Roce,
    PoolDelete,
    Pool,
    Vlan,
    PfcOn,
    PfcPriorityOn,
    InterfaceCreate,
    ChannelLeave,
    Split,
    Speed,
    Mtu,
    AddressRemove,
    Routed,
    SwitchportMode,
    AccessVlan,
    AllowedBase,
    AllowedVlan,
    StpUnset,
    LacpIndividual,
    ChannelJoin,
    Description,
    AddressChange,
    Address,
    Trust,
    Ecn,
    Ets,
    PfcMode,
    Stp,
    Shutdown,
    BgpCreate,
    BgpRouterIdNew,
    BgpRouterId,
    BgpSettings,
    BgpNeighbor,
    BgpNeighborChange,
    BgpFallover,
    BgpTimers,
    BgpBfd,
    BgpNetwork,
    Ipl,
    MlagSettings,
    MlagEnable,
    InterfaceDelete,
    BgpDelete,
    ProtocolOff,
    BfdOff,
    PfcPriorityOff,
    PfcOff,
    VlanDelete,
    PoolPrune,
    RoceOff,
    StpOff,
    LacpOff,
    IpRoutingOff,
    LldpOff,
}

/// The rule table: per kind of change, its impact. The order of [`Kind`] is the plan order.
///
/// The MLAG pair's settings and peer link are hitless commands: the plan only changes them
/// while the pair is shut down (`mlag shutdown` first when it was up), so the disruption is
/// counted once, on `mlag shutdown` and `no mlag shutdown`. Likewise a router-id given to an
/// instance that has no session yet (created in this plan, or whose every session is new)
/// resets nothing.
pub const RULES: &[(Kind, Impact, &str)] = &[
    (
        Kind::License,
        Impact::Hitless,
        "license install KEY (licenses are added, never removed)",
    ),
    (
        Kind::Hostname,
        Impact::Hitless,
        "hostname NAME / no hostname",
    ),
    (Kind::LldpOn, Impact::Hitless, "lldp"),
    (
        Kind::IpRoutingOn,
        Impact::Hitless,
        "ip routing vrf default, before any address",
    ),
    (
        Kind::ProtocolOn,
        Impact::Hitless,
        "protocol bgp|mlag, before their configuration",
    ),
    (
        Kind::BfdInterval,
        Impact::Hitless,
        "ip bfd vrf default interval min-rx R multiplier M transmit-rate T force, after protocol bfd: sessions up renegotiate their timers and stay up (RFC 5880 §6.8.3, a Poll Sequence)",
    ),
    (
        Kind::LoadSharing,
        Impact::Hitless,
        "ip load-sharing … / no ip load-sharing … (flows are rehashed)",
    ),
    (
        Kind::LacpOn,
        Impact::Hitless,
        "lacp, before ports join a port-channel",
    ),
    (
        Kind::StpOn,
        Impact::Disruptive,
        "spanning-tree (the topology converges)",
    ),
    (
        Kind::MlagDisable,
        Impact::Disruptive,
        "mlag shutdown, first: before the pair's settings or peer link change or go",
    ),
    (
        Kind::MlagUnset,
        Impact::Hitless,
        "no mlag system-mac, no mlag-vip (the pair is down)",
    ),
    (
        Kind::IplPeerRemove,
        Impact::Hitless,
        "interface vlan V no ipl N, before the peer link's port-channel leaves the IPL (the pair is down)",
    ),
    (
        Kind::IplRemove,
        Impact::Hitless,
        "interface port-channel N no ipl N, before its members leave it or it goes (the pair is down)",
    ),
    (
        Kind::BgpBfdOff,
        Impact::Hitless,
        "router bgp AS vrf default no neighbor A fall-over bfd, before no protocol bfd: the session stays up, no longer watched",
    ),
    (
        Kind::BgpRemoveNeighbor,
        Impact::SessionReset,
        "router bgp AS vrf default no neighbor A, before its link is renumbered or the instance goes",
    ),
    (
        Kind::BgpRemoveNetwork,
        Impact::SessionReset,
        "router bgp AS vrf default no network A /N (the prefix is withdrawn)",
    ),
    (
        Kind::BgpReplace,
        Impact::Disruptive,
        "no router bgp AS vrf default, when the switch moves to another AS",
    ),
    (Kind::Roce, Impact::Disruptive, "roce MODE"),
    (
        Kind::PoolDelete,
        Impact::Disruptive,
        "no traffic pool NAME, before re-creating a pool whose memory or map must shrink",
    ),
    (
        Kind::Pool,
        Impact::Disruptive,
        "traffic pool NAME type / memory percent / map switch-priority, in that order",
    ),
    (
        Kind::Vlan,
        Impact::Hitless,
        "vlan N (ranges), vlan N name \"…\"",
    ),
    (
        Kind::PfcOn,
        Impact::Hitless,
        "dcb priority-flow-control enable force",
    ),
    (
        Kind::PfcPriorityOn,
        Impact::Hitless,
        "dcb priority-flow-control priority N enable",
    ),
    (
        Kind::InterfaceCreate,
        Impact::Hitless,
        "interface port-channel N, mlag-port-channel N, vlan N, loopback N",
    ),
    (
        Kind::ChannelLeave,
        Impact::PortFlap,
        "interface … no [mlag-]channel-group, before the port is configured on its own (Onyx refuses settings on a member: `% Port 1/4 is part of a port channel`)",
    ),
    (
        Kind::Split,
        Impact::PortFlap,
        "interface ethernet P module-type qsfp-split-N force / no module-type force",
    ),
    (
        Kind::Speed,
        Impact::PortFlap,
        "interface … speed S force (overwrites) / no speed",
    ),
    (
        Kind::Mtu,
        Impact::PortFlap,
        "interface … mtu N force (overwrites) / no mtu",
    ),
    (
        Kind::AddressRemove,
        Impact::SessionReset,
        "interface … no ip address, before the port goes back to switchport or the interface goes",
    ),
    (
        Kind::Routed,
        Impact::PortFlap,
        "interface … no switchport force (routed) / switchport force (L2), before an address",
    ),
    (
        Kind::SwitchportMode,
        Impact::Hitless,
        "interface … switchport mode M",
    ),
    (
        Kind::AccessVlan,
        Impact::Hitless,
        "interface … switchport access vlan N (overwrites) / no switchport access vlan",
    ),
    (
        Kind::AllowedBase,
        Impact::Hitless,
        "interface … switchport trunk|hybrid allowed-vlan none|all, before the VLANs added to it",
    ),
    (
        Kind::AllowedVlan,
        Impact::Hitless,
        "interface … switchport trunk|hybrid allowed-vlan add|remove N",
    ),
    (
        Kind::StpUnset,
        Impact::Hitless,
        "interface … no spanning-tree port type|bpduguard|guard, before the port joins a port-channel (the bundle has its members' spanning tree)",
    ),
    (
        Kind::LacpIndividual,
        Impact::Hitless,
        "interface port-channel N lacp-individual enable force / no …, before members join (it acts only while LACP is down)",
    ),
    (
        Kind::ChannelJoin,
        Impact::PortFlap,
        "interface … [mlag-]channel-group N mode M, after the port-channel has its VLANs",
    ),
    (
        Kind::Description,
        Impact::Hitless,
        "interface … description \"…\" (overwrites) / no description",
    ),
    (
        Kind::AddressChange,
        Impact::SessionReset,
        "interface … ip address A/N primary over another address (renumbered)",
    ),
    (
        Kind::Address,
        Impact::Hitless,
        "interface … ip address A/N primary, on an interface without one",
    ),
    (
        Kind::Trust,
        Impact::Hitless,
        "interface … qos trust T (overwrites) / no qos trust",
    ),
    (
        Kind::Ecn,
        Impact::Hitless,
        "interface … traffic-class N congestion-control … (overwrites) / no traffic-class N congestion-control",
    ),
    (
        Kind::Ets,
        Impact::Hitless,
        "interface … traffic-class N dcb ets strict|wrr W (overwrites) / no traffic-class N dcb ets",
    ),
    (
        Kind::PfcMode,
        Impact::PortFlap,
        "interface … dcb priority-flow-control mode on force / no dcb priority-flow-control mode force",
    ),
    (
        Kind::Stp,
        Impact::Hitless,
        "interface … spanning-tree port type T / bpduguard enable|disable / guard G (overwrites), before the port comes up: an edge port forwards at once, a guarded one is blocked or shut only when a BPDU shows up",
    ),
    (
        Kind::Shutdown,
        Impact::PortFlap,
        "interface … shutdown / no shutdown",
    ),
    (
        Kind::BgpCreate,
        Impact::Hitless,
        "router bgp AS vrf default, after protocol bgp",
    ),
    (
        Kind::BgpRouterIdNew,
        Impact::Hitless,
        "router bgp AS vrf default router-id A force, on an instance with no session yet",
    ),
    (
        Kind::BgpRouterId,
        Impact::SessionReset,
        "router bgp AS vrf default router-id A force / no router-id (its sessions restart)",
    ),
    (
        Kind::BgpSettings,
        Impact::Hitless,
        "router bgp AS vrf default maximum-paths N / bestpath as-path multipath-relax force",
    ),
    (
        Kind::BgpNeighbor,
        Impact::Hitless,
        "router bgp AS vrf default neighbor A remote-as N, a new session after the link's address",
    ),
    (
        Kind::BgpNeighborChange,
        Impact::SessionReset,
        "router bgp AS vrf default neighbor A remote-as N over another AS (that session restarts)",
    ),
    (
        Kind::BgpFallover,
        Impact::Hitless,
        "router bgp AS vrf default bgp fast-external-fallover / no …: acts on the next link that goes down",
    ),
    (
        Kind::BgpTimers,
        Impact::Hitless,
        "router bgp AS vrf default neighbor A timers K H / no neighbor A timers: the hold time is agreed in the session's OPEN (RFC 4271 §4.2), so a session up keeps its timers until it next comes up; nothing is reset",
    ),
    (
        Kind::BgpBfd,
        Impact::Hitless,
        "router bgp AS vrf default neighbor A fall-over bfd, after the neighbor and protocol bfd: BFD starts watching the session, which does not wait for it (RFC 5882 §3)",
    ),
    (
        Kind::BgpNetwork,
        Impact::Hitless,
        "router bgp AS vrf default network A /N",
    ),
    (
        Kind::Ipl,
        Impact::Hitless,
        "interface port-channel N ipl 1, then interface vlan V ipl 1 peer-address A, after its address (the pair is down)",
    ),
    (
        Kind::MlagSettings,
        Impact::Hitless,
        "mlag-vip NAME ip A /N force, mlag system-mac M (the pair is down)",
    ),
    (
        Kind::MlagEnable,
        Impact::Disruptive,
        "no mlag shutdown, last: the pair comes up with everything in place",
    ),
    (
        Kind::InterfaceDelete,
        Impact::Hitless,
        "no interface port-channel N (after its members left it, its address and IPL gone)",
    ),
    (
        Kind::BgpDelete,
        Impact::Disruptive,
        "no router bgp AS vrf default, after its neighbors, before no protocol bgp",
    ),
    (
        Kind::ProtocolOff,
        Impact::Disruptive,
        "no protocol bgp|mlag, after their configuration is gone",
    ),
    (
        Kind::BfdOff,
        Impact::Hitless,
        "no protocol bfd, after no session uses it: its timers go, sessions stay up",
    ),
    (
        Kind::PfcPriorityOff,
        Impact::Hitless,
        "no dcb priority-flow-control priority N enable",
    ),
    (
        Kind::PfcOff,
        Impact::Hitless,
        "no dcb priority-flow-control enable force (after per-port PFC is off)",
    ),
    (
        Kind::VlanDelete,
        Impact::Hitless,
        "no vlan N (ranges; after no port uses it)",
    ),
    (Kind::PoolPrune, Impact::Disruptive, "no traffic pool NAME"),
    (Kind::RoceOff, Impact::Disruptive, "no roce"),
    (Kind::StpOff, Impact::Disruptive, "no spanning-tree"),
    (Kind::LacpOff, Impact::Disruptive, "no lacp"),
    (
        Kind::IpRoutingOff,
        Impact::Disruptive,
        "no ip routing vrf default, after every address is gone",
    ),
    (Kind::LldpOff, Impact::Hitless, "no lldp"),
];

fn impact(kind: Kind) -> Impact {
    RULES
        .iter()
        .find(|(k, _, _)| *k == kind)
        .map_or(Impact::Hitless, |(_, i, _)| *i)
}

/// What a diff may change.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// The interfaces the intent owns; `None`: every interface of the intended config.
    pub interfaces: Option<BTreeSet<Iface>>,
    /// Only the attributes a fabric file can express are managed on those interfaces.
    pub fabric_attributes_only: bool,
    /// Remove what the intent does not declare: VLANs, pools, BGP neighbors and networks,
    /// interfaces and their settings, and (for a fabric) the switch-wide features it does not
    /// use (`keep` is then empty: `ip routing`, `lacp`, MLAG, a routed port's address).
    pub prune: bool,
    /// Switch-wide features the intent does not declare, left as the switch has them.
    pub keep: BTreeSet<Feature>,
}

/// A switch-wide feature a fabric may leave alone on a switch it does not use it on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Feature {
    /// `ip routing`, ECMP hashing, BGP, routed ports and interface addresses.
    Routing,
    /// `protocol mlag`, the pair's settings, the peer link.
    Mlag,
    /// Port-channel membership, trunk VLANs, `lacp` and port-channel creation.
    Bundles,
    /// `spanning-tree`.
    Stp,
}

impl Scope {
    /// What a fabric manages on a switch: every Ethernet port of its model (and the subports
    /// of the ports it splits) and the interfaces it creates, with the attributes a fabric
    /// file can express; switch-wide routing, MLAG, bundles and spanning tree where the
    /// fabric uses them on this switch.
    pub fn fabric(sw: &crate::fabric::Switch, prune: bool) -> Scope {
        let mut ports: BTreeSet<Iface> = sw.model.ports().map(Iface::Ethernet).collect();
        ports.extend(sw.ports.keys().map(|p| Iface::Ethernet(*p)));
        for (mlag, id) in sw.bundles.keys() {
            ports.insert(if *mlag {
                Iface::MlagPortChannel(*id)
            } else {
                Iface::PortChannel(*id)
            });
        }
        ports.extend(sw.gateways.keys().map(|v| Iface::Vlan(*v)));
        let mut keep = BTreeSet::new();
        let routed_port = sw.ports.values().any(|p| p.address.is_some());
        if sw.loopback.is_some() {
            ports.insert(Iface::Loopback(0));
        }
        if sw.routing.is_none()
            && sw.gateways.is_empty()
            && sw.mlag.is_none()
            && sw.loopback.is_none()
            && !routed_port
        {
            keep.insert(Feature::Routing);
        }
        match &sw.mlag {
            Some(m) => {
                ports.insert(Iface::Vlan(m.ipl_vlan));
                ports.insert(Iface::PortChannel(m.ipl_port_channel));
            }
            None => {
                keep.insert(Feature::Mlag);
            }
        }
        if sw.bundles.is_empty() && !sw.ports.values().any(|p| p.trunk.is_some()) {
            keep.insert(Feature::Bundles);
        }
        if sw.stp.is_none() {
            keep.insert(Feature::Stp);
        }
        let scope = Scope {
            interfaces: Some(ports),
            fabric_attributes_only: true,
            prune: false,
            keep,
        };
        if prune { scope.pruned() } else { scope }
    }

    /// The scope pruning: what the intent does not declare is removed, the switch-wide
    /// features it does not use included.
    pub fn pruned(mut self) -> Scope {
        self.prune = true;
        self.keep.clear();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table lists every kind of change once, in plan order: a kind left out would be
    /// planned as hitless without anyone deciding so.
    #[test]
    fn the_rule_table_has_every_kind_once_in_plan_order() {
        let kinds = Kind::LldpOff as usize + 1;
        assert_eq!(RULES.len(), kinds);
        for (n, (kind, _, _)) in RULES.iter().enumerate() {
            assert_eq!(*kind as usize, n, "{kind:?} out of place");
        }
    }
}
