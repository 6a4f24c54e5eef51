//! `(running, intended)` → the Onyx commands that turn one into the other, touching nothing
//! else.
//!
//! Two steps. [`target`] decides what the switch should look like: the intended config for
//! what is managed, the running config for everything else (unmodeled lines, interfaces and
//! attributes the fabric does not manage, objects it does not declare unless pruning).
//! [`plan`] then compares two models and lists commands such that
//! `running.apply(plan) == target`: only drifted attributes of drifted interfaces, ranges
//! where consecutive interfaces need the same change, ordered so that nothing is referenced
//! before it exists or deleted while referenced. Both are pure: no text, no I/O.
//!
//! The rules are data ([`RULES`]): per kind of change, its phase in the plan and its impact.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::onyx::{
    AllowedVlan, BgpCmd, Command, Config, Iface, IfaceCmd, IfaceRange, Interface, Pool, Protocol,
};
use crate::types::{SwitchportMode, Vlan};

/// What a command does to traffic when it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Impact {
    /// Nothing noticeable.
    Hitless,
    /// The port goes down and up (speed, MTU, split, shutdown, PFC mode, routed or L2).
    PortFlap,
    /// A BGP session, or the routes over one link or to one prefix, go down: a renumbered
    /// link, a removed neighbor or one moved to another AS, a withdrawn prefix, a new
    /// router-id under running sessions. Disruptive for that link or session only, as a
    /// port flap is for its port: `fabric push` does not ask `--allow-disruptive` for it.
    SessionReset,
    /// Traffic on the whole switch is disturbed (buffer pools, `roce` mode).
    Disruptive,
}

impl Impact {
    /// Every class, mildest first: summaries list each, also at 0.
    pub const ALL: [Impact; 4] = [
        Impact::Hitless,
        Impact::PortFlap,
        Impact::SessionReset,
        Impact::Disruptive,
    ];
}

impl std::fmt::Display for Impact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Impact::Hitless => "hitless",
            Impact::PortFlap => "port-flap",
            Impact::SessionReset => "session-reset",
            Impact::Disruptive => "disruptive",
        })
    }
}

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

/// The config the switch should have: `intended` for what `scope` manages, `running` for
/// everything else (including every line the model does not know, which stays in place).
pub fn target(running: &Config, intended: &Config, scope: &Scope) -> Config {
    let mut t = running.clone();
    t.hostname = intended.hostname.clone();
    t.lldp = intended.lldp;
    t.roce = intended.roce;
    t.pfc = intended.pfc.clone();
    let manages = |f: Feature| !scope.keep.contains(&f);
    let protocol = |t: &mut Config, p: Protocol| {
        if intended.protocols.contains(&p) {
            t.protocols.insert(p);
        } else {
            t.protocols.remove(&p);
        }
    };
    if manages(Feature::Routing) {
        t.ip_routing = intended.ip_routing;
        t.load_sharing = intended.load_sharing.clone();
        protocol(&mut t, Protocol::Bgp);
        protocol(&mut t, Protocol::Bfd);
        t.bgp = match (&running.bgp, &intended.bgp) {
            // Without pruning, neighbors and networks the intent does not name stay, with
            // their timers and BFD.
            (Some(have), Some(want)) if have.asn == want.asn && !scope.prune => {
                let mut b = want.clone();
                for a in have.named().difference(&want.named()) {
                    if let Some(n) = have.neighbors.get(a) {
                        b.neighbors.insert(*a, *n);
                    }
                    if let Some(x) = have.timers.get(a) {
                        b.timers.insert(*a, *x);
                    }
                    if have.bfd.contains(a) {
                        b.bfd.insert(*a);
                    }
                }
                b.networks.extend(have.networks.iter().copied());
                Some(b)
            }
            (_, want) => want.clone(),
        };
        // BFD's timers: the intent's, else the switch's.
        let (want, have) = (intended.bfd, running.bfd);
        t.bfd = crate::onyx::BfdInterval {
            min_rx: want.min_rx.or(have.min_rx),
            multiplier: want.multiplier.or(have.multiplier),
            transmit_rate: want.transmit_rate.or(have.transmit_rate),
        };
    }
    if manages(Feature::Mlag) {
        protocol(&mut t, Protocol::Mlag);
        t.mlag = intended.mlag.clone();
    }
    if manages(Feature::Bundles) {
        t.lacp = intended.lacp;
    }
    if manages(Feature::Stp) {
        t.spanning_tree = intended.spanning_tree;
    }
    // A protocol's configuration exists only while the protocol runs: `no protocol mlag`
    // "hides the MLAG commands and deletes its database" (Onyx User Manual, MLAG Commands),
    // and the model reads `no protocol bgp` alike. A target without the protocol has none
    // of its configuration, so a plan never sets what the switch would refuse.
    if !t.protocols.contains(&Protocol::Mlag) {
        t.mlag = crate::onyx::Mlag::default();
    }
    if !t.protocols.contains(&Protocol::Bgp) {
        t.bgp = None;
    }
    if !t.protocols.contains(&Protocol::Bfd) {
        t.bfd = crate::onyx::BfdInterval::default();
    }
    for k in &intended.licenses {
        if !t.licenses.contains(k) {
            t.licenses.push(k.clone());
        }
    }

    if scope.prune {
        t.pools.retain(|n, _| intended.pools.contains_key(n));
        t.vlans.retain(|v, _| intended.vlans.contains_key(v));
    }
    for (name, want) in &intended.pools {
        // A switch priority belongs to one pool: the intended one takes it from the others.
        for (other, p) in &mut t.pools {
            if other != name {
                p.priorities.retain(|x| !want.priorities.contains(x));
            }
        }
        let have = running.pools.get(name);
        t.pools.insert(
            name.clone(),
            Pool {
                kind: want.kind.or(have.and_then(|p| p.kind)),
                // A pool whose memory the intent leaves open keeps the switch's.
                memory: want.memory.or(have.and_then(|p| p.memory)),
                priorities: want.priorities.clone(),
            },
        );
    }
    t.pools.retain(|_, p| *p != Pool::default());
    for (id, want) in &intended.vlans {
        let name = want
            .name
            .clone()
            .or_else(|| running.vlans.get(id).and_then(|v| v.name.clone()));
        t.vlans.insert(*id, crate::onyx::VlanConfig { name });
    }

    let mut managed: BTreeSet<Iface> = match &scope.interfaces {
        Some(set) => set.clone(),
        None => intended.interfaces.keys().copied().collect(),
    };
    // Pruning: every interface the switch has is the intent's, declared or not (one it does
    // not declare goes back to its default: a port-channel removed, an address taken away).
    if scope.prune {
        managed.extend(running.interfaces.keys().copied());
    }
    let empty = Interface::default();
    for iface in managed {
        let have = running.interfaces.get(&iface).unwrap_or(&empty);
        let mut want = intended.interfaces.get(&iface).cloned().unwrap_or_default();
        if scope.fabric_attributes_only && !manages(Feature::Bundles) {
            if matches!(iface, Iface::Ethernet(_)) {
                want.created = have.created;
            }
            want.channel_group = have.channel_group;
            want.allowed = have.allowed.clone();
            want.lacp_individual = have.lacp_individual;
            if want.switchport_mode.is_none() && have.allowed.is_some() {
                want.switchport_mode = have.switchport_mode;
            }
        }
        if !manages(Feature::Routing) {
            want.routed = have.routed;
            want.address = have.address;
        }
        if !manages(Feature::Mlag) {
            want.ipl = have.ipl;
            want.ipl_peer = have.ipl_peer;
        }
        if want == empty {
            t.interfaces.remove(&iface);
        } else {
            t.interfaces.insert(iface, want);
        }
    }
    // A split port holds its subports and nothing else.
    for (i, e) in t.interfaces.iter_mut() {
        if let (Iface::Ethernet(p), Some(s)) = (i, e.split)
            && p.sub.is_none()
        {
            *e = Interface {
                split: Some(s),
                ..Interface::default()
            };
        }
    }
    // Subports of a port that is no longer split cannot keep settings.
    let joined: Vec<crate::types::Port> = t
        .interfaces
        .keys()
        .filter_map(|i| match i {
            Iface::Ethernet(p) if p.sub.is_some() => Some(p.parent()),
            _ => None,
        })
        .filter(|p| {
            t.interfaces
                .get(&Iface::Ethernet(*p))
                .is_none_or(|e| e.split.is_none())
        })
        .collect();
    t.interfaces.retain(
        |i, _| !matches!(i, Iface::Ethernet(p) if p.sub.is_some() && joined.contains(&p.parent())),
    );
    t
}

/// Collects steps by kind, then interface changes grouped by identical command.
#[derive(Default)]
struct Builder {
    globals: Vec<(Kind, usize, Command)>,
    /// (kind, the change as text) → the change and the interfaces it applies to.
    ifaces: BTreeMap<(Kind, String), (IfaceCmd, Vec<Iface>)>,
}

impl Builder {
    fn global(&mut self, kind: Kind, cmd: Command) {
        let n = self.globals.len();
        self.globals.push((kind, n, cmd));
    }

    fn iface(&mut self, kind: Kind, iface: Iface, cmd: IfaceCmd) {
        let key = (kind, cmd.to_string());
        self.ifaces
            .entry(key)
            .or_insert_with(|| (cmd, Vec::new()))
            .1
            .push(iface);
    }

    fn finish(self) -> Vec<Step> {
        let mut all: Vec<(Kind, Iface, usize, Command)> = Vec::new();
        for (kind, n, cmd) in self.globals {
            all.push((kind, Iface::Ethernet(crate::types::Port::new(0, 0)), n, cmd));
        }
        for ((kind, _), (cmd, mut ifaces)) in self.ifaces {
            ifaces.sort();
            // One command per run of consecutive interfaces needing this same change.
            let mut start = 0;
            for i in 1..=ifaces.len() {
                if i == ifaces.len() || !ifaces[i - 1].precedes(ifaces[i]) {
                    let range = IfaceRange {
                        first: ifaces[start],
                        last: ifaces[i - 1],
                    };
                    let command = if kind == Kind::InterfaceDelete {
                        Command::NoInterface(range)
                    } else {
                        Command::Interface(range, cmd.clone())
                    };
                    all.push((kind, ifaces[start], 0, command));
                    start = i;
                }
            }
        }
        all.sort_by(|a, b| {
            (a.0, a.1, a.2)
                .cmp(&(b.0, b.1, b.2))
                .then_with(|| a.3.to_string().cmp(&b.3.to_string()))
        });
        all.into_iter()
            .map(|(kind, _, _, command)| Step {
                command,
                impact: impact(kind),
            })
            .collect()
    }
}

/// Commands turning `running` into `target`, in a safe order. Empty when they are equal.
pub fn plan(running: &Config, target: &Config) -> Vec<Step> {
    let mut b = Builder::default();

    for k in &target.licenses {
        if !running.licenses.contains(k) {
            b.global(Kind::License, Command::License(k.clone()));
        }
    }
    match (&running.hostname, &target.hostname) {
        (a, Some(h)) if a.as_ref() != Some(h) => {
            b.global(Kind::Hostname, Command::Hostname(h.clone()))
        }
        (Some(_), None) => b.global(Kind::Hostname, Command::NoHostname),
        _ => {}
    }
    if target.lldp != running.lldp {
        b.global(
            if target.lldp {
                Kind::LldpOn
            } else {
                Kind::LldpOff
            },
            Command::Lldp(target.lldp),
        );
    }
    if target.roce != running.roce {
        b.global(
            if target.roce.is_some() {
                Kind::Roce
            } else {
                Kind::RoceOff
            },
            Command::Roce(target.roce),
        );
    }
    pools(&mut b, running, target);
    vlans(&mut b, running, target);
    if target.pfc.enabled && !running.pfc.enabled {
        b.global(Kind::PfcOn, Command::PfcEnable(true));
    }
    if !target.pfc.enabled && running.pfc.enabled {
        b.global(Kind::PfcOff, Command::PfcEnable(false));
    }
    for p in target.pfc.priorities.difference(&running.pfc.priorities) {
        b.global(Kind::PfcPriorityOn, Command::PfcPriority(*p, true));
    }
    for p in running.pfc.priorities.difference(&target.pfc.priorities) {
        b.global(Kind::PfcPriorityOff, Command::PfcPriority(*p, false));
    }
    let flag =
        |b: &mut Builder, have: bool, want: bool, on: Kind, off: Kind, cmd: fn(bool) -> Command| {
            if have != want {
                b.global(if want { on } else { off }, cmd(want));
            }
        };
    flag(
        &mut b,
        running.ip_routing,
        target.ip_routing,
        Kind::IpRoutingOn,
        Kind::IpRoutingOff,
        Command::IpRouting,
    );
    flag(
        &mut b,
        running.lacp,
        target.lacp,
        Kind::LacpOn,
        Kind::LacpOff,
        Command::Lacp,
    );
    flag(
        &mut b,
        running.spanning_tree,
        target.spanning_tree,
        Kind::StpOn,
        Kind::StpOff,
        Command::SpanningTree,
    );
    for l in target.load_sharing.difference(&running.load_sharing) {
        b.global(Kind::LoadSharing, Command::LoadSharing(*l, true));
    }
    for l in running.load_sharing.difference(&target.load_sharing) {
        b.global(Kind::LoadSharing, Command::LoadSharing(*l, false));
    }
    for p in target.protocols.difference(&running.protocols) {
        b.global(Kind::ProtocolOn, Command::Protocol(*p, true));
    }
    for p in running.protocols.difference(&target.protocols) {
        let kind = match p {
            Protocol::Bfd => Kind::BfdOff,
            _ => Kind::ProtocolOff,
        };
        b.global(kind, Command::Protocol(*p, false));
    }
    if target.bfd != running.bfd && target.bfd != crate::onyx::BfdInterval::default() {
        b.global(Kind::BfdInterval, Command::BfdInterval(target.bfd));
    }
    bgp(&mut b, running, target);
    mlag(&mut b, running, target);

    let empty = Interface::default();
    let keys: BTreeSet<Iface> = running
        .interfaces
        .keys()
        .chain(target.interfaces.keys())
        .copied()
        .collect();
    // Ports whose split changes: joined back (`no module-type`), their subports vanish and
    // need no command; split anew or another way, their subports start fresh.
    let mut joining: BTreeSet<crate::types::Port> = BTreeSet::new();
    let mut resplit: BTreeSet<crate::types::Port> = BTreeSet::new();
    for i in &keys {
        let Iface::Ethernet(p) = i else { continue };
        let split = |c: &Config| c.interfaces.get(i).and_then(|e| e.split);
        match (p.sub, split(running), split(target)) {
            (None, Some(_), None) => {
                joining.insert(*p);
            }
            (None, was, Some(now)) if was != Some(now) => {
                resplit.insert(*p);
            }
            _ => {}
        }
    }
    for iface in keys {
        let sub_of = |set: &BTreeSet<crate::types::Port>| matches!(iface, Iface::Ethernet(p) if p.sub.is_some() && set.contains(&p.parent()));
        if sub_of(&joining) {
            continue;
        }
        let have = if sub_of(&resplit) {
            &empty
        } else {
            running.interfaces.get(&iface).unwrap_or(&empty)
        };
        let want = target.interfaces.get(&iface).unwrap_or(&empty);
        if have != want {
            interface(&mut b, iface, have, want);
        }
    }
    b.finish()
}

/// The default VRF's BGP instance: created (or replaced, for another AS) before its settings,
/// neighbors after the addresses they run over, removals first.
fn bgp(b: &mut Builder, running: &Config, target: &Config) {
    let Some(want) = &target.bgp else {
        // Torn down in reverse: each session closed first, while its link still has its
        // address (the peer is told at once, with a Cease "Peer De-configured", RFC 4486
        // §4, instead of waiting out its hold time), then the instance, then `no protocol
        // bgp`.
        if let Some(have) = &running.bgp {
            for a in have.neighbors.keys() {
                b.global(
                    Kind::BgpRemoveNeighbor,
                    Command::Bgp(have.asn, BgpCmd::NoNeighbor(*a)),
                );
            }
            b.global(Kind::BgpDelete, Command::NoBgp(have.asn));
        }
        return;
    };
    let base = match &running.bgp {
        Some(have) if have.asn == want.asn => Some(have),
        Some(have) => {
            b.global(Kind::BgpReplace, Command::NoBgp(have.asn));
            None
        }
        None => None,
    };
    let asn = want.asn;
    let cmd = |c: BgpCmd| Command::Bgp(asn, c);
    if base.is_none() {
        b.global(Kind::BgpCreate, cmd(BgpCmd::Create));
    }
    let empty = crate::onyx::Bgp::new(asn);
    let have = base.unwrap_or(&empty);
    if want.router_id != have.router_id {
        // A new router-id restarts the sessions that run across it; an instance whose
        // every session is new (or that has none) has nothing to restart.
        let kept = have
            .neighbors
            .iter()
            .any(|(a, n)| want.neighbors.get(a) == Some(n));
        b.global(
            if kept {
                Kind::BgpRouterId
            } else {
                Kind::BgpRouterIdNew
            },
            cmd(want.router_id.map_or(BgpCmd::NoRouterId, BgpCmd::RouterId)),
        );
    }
    if want.maximum_paths != have.maximum_paths {
        b.global(
            Kind::BgpSettings,
            cmd(want
                .maximum_paths
                .map_or(BgpCmd::NoMaximumPaths, BgpCmd::MaximumPaths)),
        );
    }
    if want.multipath_relax != have.multipath_relax {
        b.global(
            Kind::BgpSettings,
            cmd(BgpCmd::MultipathRelax(want.multipath_relax)),
        );
    }
    for (a, n) in &want.neighbors {
        match have.neighbors.get(a) {
            Some(m) if m == n => {}
            // Another remote AS over the same address: that session restarts.
            Some(_) => b.global(Kind::BgpNeighborChange, cmd(BgpCmd::Neighbor(*a, *n))),
            None => b.global(Kind::BgpNeighbor, cmd(BgpCmd::Neighbor(*a, *n))),
        }
    }
    for a in have.neighbors.keys() {
        if !want.neighbors.contains_key(a) {
            b.global(Kind::BgpRemoveNeighbor, cmd(BgpCmd::NoNeighbor(*a)));
        }
    }
    if want.fast_external_fallover != have.fast_external_fallover {
        b.global(
            Kind::BgpFallover,
            cmd(BgpCmd::FastExternalFallover(want.fast_external_fallover)),
        );
    }
    detection(b, have, want, cmd);
    for n in want.networks.difference(&have.networks) {
        b.global(Kind::BgpNetwork, cmd(BgpCmd::Network(*n)));
    }
    for n in have.networks.difference(&want.networks) {
        b.global(Kind::BgpRemoveNetwork, cmd(BgpCmd::NoNetwork(*n)));
    }
}

/// Each neighbor's timers and BFD that change, where it stays (a neighbor that goes takes
/// them with it): set after the neighbor exists, BFD taken away before `no protocol bfd`.
fn detection(
    b: &mut Builder,
    have: &crate::onyx::Bgp,
    want: &crate::onyx::Bgp,
    cmd: impl Fn(BgpCmd) -> Command,
) {
    for a in want.named() {
        match (have.timers.get(&a), want.timers.get(&a)) {
            (x, Some(&(k, h))) if x != Some(&(k, h)) => {
                b.global(Kind::BgpTimers, cmd(BgpCmd::Timers(a, k, h)))
            }
            (Some(_), None) => b.global(Kind::BgpTimers, cmd(BgpCmd::NoTimers(a))),
            _ => {}
        }
        match (have.bfd.contains(&a), want.bfd.contains(&a)) {
            (false, true) => b.global(Kind::BgpBfd, cmd(BgpCmd::FallOverBfd(a, true))),
            (true, false) => b.global(Kind::BgpBfdOff, cmd(BgpCmd::FallOverBfd(a, false))),
            _ => {}
        }
    }
    for a in have.named().difference(&want.named()) {
        // `no neighbor A` takes its timers and BFD; a neighbor without a remote AS has no
        // such line, so they go one by one.
        if !have.neighbors.contains_key(a) {
            if have.timers.contains_key(a) {
                b.global(Kind::BgpTimers, cmd(BgpCmd::NoTimers(*a)));
            }
            if have.bfd.contains(a) {
                b.global(Kind::BgpBfdOff, cmd(BgpCmd::FallOverBfd(*a, false)));
            }
        }
    }
}

/// Whether the MLAG pair's settings (system MAC, VIP) or peer link (`ipl`, `peer-address`)
/// differ between two configs: a plan between them shuts a pair that is up down around the
/// change (`mlag shutdown` … `no mlag shutdown`), so its admin state changes on the way even
/// when it ends as it began.
pub fn mlag_changes(a: &Config, b: &Config) -> bool {
    type Ipl = (Iface, Option<u8>, Option<(u8, std::net::Ipv4Addr)>);
    let ipl = |c: &Config| -> Vec<Ipl> {
        c.interfaces
            .iter()
            .filter(|(_, e)| e.ipl.is_some() || e.ipl_peer.is_some())
            .map(|(i, e)| (*i, e.ipl, e.ipl_peer))
            .collect()
    };
    a.mlag.system_mac != b.mlag.system_mac || a.mlag.vip != b.mlag.vip || ipl(a) != ipl(b)
}

/// An MLAG pair's switch-wide settings. A pair that is up is shut down around a change of its
/// settings or peer link, and `no mlag shutdown` comes last, with everything in place.
fn mlag(b: &mut Builder, running: &Config, target: &Config) {
    let (have, want) = (&running.mlag, &target.mlag);
    let bounce = have.enabled && want.enabled && mlag_changes(running, target);
    if have.enabled && (!want.enabled || bounce) {
        b.global(Kind::MlagDisable, Command::MlagShutdown(true));
    }
    // Set as mellanox.onyx's onyx_mlag_vip sends them (`mlag-vip … force`, then `mlag
    // system-mac`, then `no mlag shutdown`); taken away in reverse.
    if have.system_mac.is_some() && want.system_mac.is_none() {
        b.global(Kind::MlagUnset, Command::MlagSystemMac(None));
    }
    if have.vip != want.vip {
        let kind = if want.vip.is_some() {
            Kind::MlagSettings
        } else {
            Kind::MlagUnset
        };
        b.global(kind, Command::MlagVip(want.vip.clone()));
    }
    if want.system_mac.is_some() && have.system_mac != want.system_mac {
        b.global(Kind::MlagSettings, Command::MlagSystemMac(want.system_mac));
    }
    if want.enabled && (!have.enabled || bounce) {
        b.global(Kind::MlagEnable, Command::MlagShutdown(false));
    }
}

fn pools(b: &mut Builder, running: &Config, target: &Config) {
    for (name, want) in &target.pools {
        let have = running.pools.get(name);
        // A pool's memory or map can grow or change in place; taking something away needs
        // the pool made again.
        let rebuild = have.is_some_and(|h| {
            (h.memory.is_some() && want.memory.is_none())
                || (h.kind.is_some() && want.kind.is_none())
        });
        let base = if rebuild {
            b.global(Kind::PoolDelete, Command::NoPool(name.clone()));
            None
        } else {
            have
        };
        if let Some(k) = want.kind
            && base.and_then(|h| h.kind) != Some(k)
        {
            b.global(Kind::Pool, Command::PoolType(name.clone(), k));
        }
        if let Some(m) = want.memory
            && base.and_then(|h| h.memory) != Some(m)
        {
            b.global(Kind::Pool, Command::PoolMemory(name.clone(), m));
        }
        let missing: Vec<_> = want
            .priorities
            .iter()
            .copied()
            .filter(|p| !base.is_some_and(|h| h.priorities.contains(p)))
            .collect();
        if !missing.is_empty() {
            b.global(Kind::Pool, Command::PoolMap(name.clone(), missing));
        }
        // Priorities that leave the pool for no other pool are unmapped; those mapped to
        // another pool leave by that map.
        let unmapped: Vec<_> = base
            .map(|h| {
                h.priorities
                    .iter()
                    .copied()
                    .filter(|p| !want.priorities.contains(p) && !moved_away(target, name, *p))
                    .collect()
            })
            .unwrap_or_default();
        if !unmapped.is_empty() {
            b.global(Kind::Pool, Command::PoolUnmap(name.clone(), unmapped));
        }
    }
    for name in running.pools.keys() {
        if !target.pools.contains_key(name) {
            b.global(Kind::PoolPrune, Command::NoPool(name.clone()));
        }
    }
}

/// A priority that leaves pool `from` because the target maps it to another pool: mapping it
/// there takes it away by itself.
fn moved_away(target: &Config, from: &str, p: crate::types::Priority) -> bool {
    target
        .pools
        .iter()
        .any(|(n, pool)| n != from && pool.priorities.contains(&p))
}

fn vlans(b: &mut Builder, running: &Config, target: &Config) {
    let spans = crate::types::vlan_runs;
    let new: Vec<Vlan> = target
        .vlans
        .keys()
        .copied()
        .filter(|v| !running.vlans.contains_key(v))
        .collect();
    // One line per run of consecutive VLANs: `vlan 10-13`, never a delete to add one.
    for span in spans(new) {
        b.global(Kind::Vlan, Command::VlanCreate(vec![span]));
    }
    for (id, want) in &target.vlans {
        if let Some(n) = &want.name
            && running.vlans.get(id).and_then(|v| v.name.as_ref()) != Some(n)
        {
            b.global(Kind::Vlan, Command::VlanName(*id, n.clone()));
        }
    }
    let gone: Vec<Vlan> = running
        .vlans
        .keys()
        .copied()
        .filter(|v| !target.vlans.contains_key(v))
        .collect();
    for span in spans(gone) {
        b.global(Kind::VlanDelete, Command::NoVlan(vec![span]));
    }
}

/// Each attribute that differs, as the command that sets it (overwriting the old value where
/// Onyx allows) or resets it.
fn interface(b: &mut Builder, i: Iface, have: &Interface, want: &Interface) {
    let deleting = !matches!(i, Iface::Ethernet(_)) && have.created && !want.created;
    if deleting {
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
        return;
    }
    if want.created && !have.created {
        b.iface(Kind::InterfaceCreate, i, IfaceCmd::Create);
    }
    // Splitting clears the port: it only holds its subports afterwards.
    let split_clean;
    let have = if want.split != have.split {
        b.iface(
            Kind::Split,
            i,
            want.split.map_or(IfaceCmd::NoSplit, IfaceCmd::Split),
        );
        match want.split {
            Some(s) => {
                split_clean = Interface {
                    split: Some(s),
                    created: have.created,
                    ..Interface::default()
                };
                &split_clean
            }
            None => have,
        }
    } else {
        have
    };
    // An address that goes is removed before anything else happens to the interface (the
    // port going back to switchport takes it too, but the plan says so first).
    let unaddressed;
    let have = if have.address.is_some() && want.address.is_none() {
        b.iface(Kind::AddressRemove, i, IfaceCmd::NoAddress);
        unaddressed = Interface {
            address: None,
            ..have.clone()
        };
        &unaddressed
    } else {
        have
    };
    // Routed or L2: the change clears what the other mode had (switchport settings, or the
    // address), so what follows compares against that.
    let mode_clean;
    let have = if want.routed != have.routed {
        b.iface(Kind::Routed, i, IfaceCmd::Routed(want.routed));
        mode_clean = if want.routed {
            Interface {
                routed: true,
                switchport_mode: None,
                access_vlan: None,
                allowed: None,
                ..have.clone()
            }
        } else {
            Interface {
                routed: false,
                address: None,
                ..have.clone()
            }
        };
        &mode_clean
    } else {
        have
    };
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
    let out_of_ipl;
    let have = match have.ipl_peer.map(|(n, _)| n).or(have.ipl) {
        Some(n) if peer_gone || ipl_gone => {
            let kind = if peer_gone {
                Kind::IplPeerRemove
            } else {
                Kind::IplRemove
            };
            b.iface(kind, i, IfaceCmd::NoIpl(n));
            out_of_ipl = Interface {
                ipl: None,
                ipl_peer: None,
                ..have.clone()
            };
            &out_of_ipl
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
    if want.description != have.description {
        b.iface(
            Kind::Description,
            i,
            want.description
                .clone()
                .map_or(IfaceCmd::NoDescription, IfaceCmd::Description),
        );
    }
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
    stp(b, i, have, want);
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
