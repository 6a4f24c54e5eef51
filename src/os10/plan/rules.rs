//! The OS10 plan's rules as data: what each kind of line does to traffic when it changes
//! ([`RULES`]), how OS10 spells taking it away ([`NEGATIONS`], each with its evidence), and in
//! which order the top-level kinds are set and deleted ([`STAGES`]).
//!
//! Evidence, as in `../shared/reference/os10-roce.md`: **capture** (a real session or running
//! configuration in `tests/fixtures/corpus/os10/`), **doc** (the Dell OS10 user guide), or
//! **unconfirmed** (by analogy with the positive form and with OS10's `no` convention; no
//! capture shows it). The captures show only `no shutdown`, `no switchport` and, in a monitor
//! session, `no destination interface ethernet 1/1/7` (grantcurell's 10.5 sessions): every
//! other negation here is unconfirmed until a switch has answered it.

use crate::diff::Impact;

use super::super::Kind;

/// A kind of line or block the plan sets, changes or takes away. Listed by the mode it is
/// typed in, each mode's fields together: `script` reads a mode's negations as a run of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    // Top level.
    Hostname,
    Dcbx,
    Breakout,
    BfdEnable,
    BfdInterval,
    /// `interface port-channel|vlan|loopback N`, created or deleted; physical ports are never
    /// deleted (they exist on the switch whatever the configuration says).
    Interface,
    Wred,
    ClassMapNetworkQos,
    ClassMapQueuing,
    TrustMapDot1p,
    TrustMapDscp,
    QosMap,
    PolicyMapNetworkQos,
    PolicyMapQueuing,
    SystemQos,
    /// `port-group 1/1/N`: never created nor deleted (a model's groups exist whatever the
    /// configuration says), only entered to set its mode.
    PortGroup,
    Vlt,
    Bgp,
    // `interface`.
    Description,
    Shutdown,
    ChannelGroup,
    Routed,
    SwitchportMode,
    AccessVlan,
    TrunkAllowed,
    Mtu,
    Address,
    FlowcontrolRx,
    FlowcontrolTx,
    Pfc,
    PolicyIn,
    PolicyOut,
    Ets,
    QosMapUse,
    TrustMapUse,
    StpBpduguard,
    StpGuard,
    StpPortType,
    VltPortChannel,
    // `wred`.
    WredColor,
    WredEcn,
    // `class-map`, trust map, `qos-map traffic-class`.
    Match,
    TrustGroup,
    Queue,
    // `policy-map` and its classes.
    Class,
    Bandwidth,
    Pause,
    PfcCos,
    Priority,
    RandomDetect,
    // `system qos`.
    SystemTrustMap,
    SystemEts,
    SystemPolicyIn,
    SystemPolicyOut,
    // `port-group`.
    PortGroupMode,
    // `vlt-domain`.
    VltBackup,
    VltDiscovery,
    VltPeerRouting,
    VltPriority,
    VltMac,
    // `router bgp` and its sub-blocks.
    MultipathRelax,
    /// `no fast-external-fallover`: a setting of its own, as printed; taken away by the
    /// positive form.
    FastExternalFallover,
    MaxPathsEbgp,
    MaxPathsIbgp,
    RouterId,
    AddressFamily,
    Template,
    Neighbor,
    Network,
    PeerDescription,
    PeerBfd,
    PeerTimers,
    Inherit,
    RemoteAs,
    PeerShutdown,
    PeerAddressFamily,
}

/// Per field: the impact of setting (creating, changing) it, of taking it away, and why.
/// QoS definitions (WRED profiles, class/policy maps, trust and qos maps, `system qos`) act on
/// every port that uses them: changing one in place is disruptive, creating or deleting one
/// that nothing uses is hitless (the plan creates before use and deletes after the last use).
pub const RULES: &[(Field, Impact, Impact, &str)] = {
    use Field::*;
    use Impact::*;
    &[
        (Hostname, Hitless, Hitless, "hostname NAME / no hostname"),
        (
            Dcbx,
            Hitless,
            Hitless,
            "dcbx enable, before any PFC port / no dcbx enable, after",
        ),
        (
            Breakout,
            Disruptive,
            Disruptive,
            "interface breakout P map M: the port's interfaces are deleted and re-created with the new map's, after they give up their settings",
        ),
        (
            BfdEnable,
            Hitless,
            Hitless,
            "bfd enable, before a neighbor's bfd / no bfd enable, after: sessions stay up",
        ),
        (
            BfdInterval,
            Hitless,
            Hitless,
            "bfd interval MS min_rx MS multiplier N role R / no bfd interval: sessions up renegotiate their timers and stay up (RFC 5880 §6.8.3)",
        ),
        (
            Interface,
            Hitless,
            PortFlap,
            "interface port-channel|vlan|loopback N / no interface …: its members and addresses go",
        ),
        (
            Wred,
            Hitless,
            Hitless,
            "wred NAME, before the queuing class that uses it / no wred, after",
        ),
        (
            ClassMapNetworkQos,
            Hitless,
            Hitless,
            "class-map type network-qos NAME, before the policy-map that uses it",
        ),
        (
            ClassMapQueuing,
            Hitless,
            Hitless,
            "class-map type queuing NAME, before the policy-map that uses it",
        ),
        (
            TrustMapDot1p,
            Hitless,
            Hitless,
            "trust dot1p-map NAME, before system qos trust-map",
        ),
        (
            TrustMapDscp,
            Hitless,
            Hitless,
            "trust dscp-map NAME, before system qos trust-map",
        ),
        (
            QosMap,
            Hitless,
            Hitless,
            "qos-map traffic-class NAME, before the ports that use it",
        ),
        (
            PolicyMapNetworkQos,
            Hitless,
            Hitless,
            "policy-map type network-qos NAME, before the service-policy that applies it",
        ),
        (
            PolicyMapQueuing,
            Hitless,
            Hitless,
            "policy-map type queuing NAME, before the service-policy that applies it",
        ),
        (
            SystemQos,
            Disruptive,
            Disruptive,
            "system qos, after the maps it names / no system qos: switch-wide trust and ETS",
        ),
        (
            PortGroup,
            Disruptive,
            Disruptive,
            "port-group 1/1/N, entered to set its mode (a group the running config lacks gets it set)",
        ),
        (
            Vlt,
            Disruptive,
            Disruptive,
            "vlt-domain N / no vlt-domain N: the pair forms or splits",
        ),
        (
            Bgp,
            Hitless,
            Disruptive,
            "router bgp AS / no router bgp: every session goes",
        ),
        (
            Description,
            Hitless,
            Hitless,
            "description TEXT / no description",
        ),
        (Shutdown, PortFlap, PortFlap, "shutdown / no shutdown"),
        (
            ChannelGroup,
            PortFlap,
            PortFlap,
            "channel-group N [mode M] / no channel-group: the port leaves or joins a LAG",
        ),
        (
            Routed,
            PortFlap,
            PortFlap,
            "no switchport (routed) / switchport (L2), before an address",
        ),
        (
            SwitchportMode,
            Hitless,
            Hitless,
            "switchport mode access|trunk",
        ),
        (
            AccessVlan,
            Hitless,
            Hitless,
            "switchport access vlan N / no switchport access vlan",
        ),
        (
            TrunkAllowed,
            Hitless,
            Hitless,
            "switchport trunk allowed vlan L adds L / no switchport trunk allowed vlan L removes L",
        ),
        (Mtu, PortFlap, PortFlap, "mtu N / no mtu"),
        (
            Address,
            Hitless,
            SessionReset,
            "ip address A/N / no ip address: sessions over it go",
        ),
        (
            FlowcontrolRx,
            PortFlap,
            PortFlap,
            "flowcontrol receive on|off, before PFC goes on (PFC and link-level pause are exclusive)",
        ),
        (
            FlowcontrolTx,
            PortFlap,
            PortFlap,
            "flowcontrol transmit on|off, before PFC goes on",
        ),
        (
            Pfc,
            PortFlap,
            PortFlap,
            "priority-flow-control mode on / no priority-flow-control mode, before link-level pause returns",
        ),
        (
            PolicyIn,
            Hitless,
            Hitless,
            "service-policy input type network-qos NAME, after the policy-map exists",
        ),
        (
            PolicyOut,
            Hitless,
            Hitless,
            "service-policy output type queuing NAME, after the policy-map exists",
        ),
        (Ets, Hitless, Hitless, "ets mode on / no ets mode"),
        (
            QosMapUse,
            Hitless,
            Hitless,
            "qos-map traffic-class NAME, after the qos-map exists",
        ),
        (
            TrustMapUse,
            Hitless,
            Hitless,
            "trust-map dot1p|dscp NAME, after the trust map exists",
        ),
        (
            StpBpduguard,
            Hitless,
            Hitless,
            "spanning-tree bpduguard enable|disable / no spanning-tree bpduguard: a port that then receives a BPDU is shut",
        ),
        (
            StpGuard,
            Hitless,
            Hitless,
            "spanning-tree guard root|loop|none / no spanning-tree guard: a port is blocked only when a BPDU says so",
        ),
        (
            StpPortType,
            Hitless,
            Hitless,
            "spanning-tree port type edge / no spanning-tree port type: an edge port forwards at once",
        ),
        (
            VltPortChannel,
            PortFlap,
            PortFlap,
            "vlt-port-channel N, after the vlt-domain exists / no vlt-port-channel, before it goes",
        ),
        (
            WredColor,
            Disruptive,
            Disruptive,
            "random-detect color C … in a WRED profile (ECN thresholds of every port using it)",
        ),
        (
            WredEcn,
            Disruptive,
            Disruptive,
            "random-detect ecn in a WRED profile",
        ),
        (
            Match,
            Disruptive,
            Disruptive,
            "match qos-group|queue L in a class-map in use",
        ),
        (
            TrustGroup,
            Disruptive,
            Disruptive,
            "qos-group N dot1p|dscp L in a trust map in use",
        ),
        (
            Queue,
            Disruptive,
            Disruptive,
            "queue N qos-group L in a qos-map in use",
        ),
        (
            Class,
            Disruptive,
            Disruptive,
            "class NAME in a policy-map in use",
        ),
        (Bandwidth, Disruptive, Disruptive, "bandwidth percent N"),
        (Pause, Disruptive, Disruptive, "pause (PFC for the class)"),
        (
            PfcCos,
            Disruptive,
            Disruptive,
            "pfc-cos L: the lossless priorities",
        ),
        (Priority, Disruptive, Disruptive, "priority (strict)"),
        (
            RandomDetect,
            Disruptive,
            Disruptive,
            "random-detect NAME, after the WRED profile exists",
        ),
        (
            SystemTrustMap,
            Disruptive,
            Disruptive,
            "system qos trust-map, after the trust map exists",
        ),
        (SystemEts, Disruptive, Disruptive, "system qos ets mode on"),
        (
            SystemPolicyIn,
            Disruptive,
            Disruptive,
            "system qos service-policy input",
        ),
        (
            SystemPolicyOut,
            Disruptive,
            Disruptive,
            "system qos service-policy output",
        ),
        (
            PortGroupMode,
            Disruptive,
            Disruptive,
            "mode Eth M: the group's interfaces are deleted and re-created with the new mode's names and speed, after they give up their settings",
        ),
        (
            VltBackup,
            Hitless,
            Hitless,
            "backup destination A (the heartbeat's backup path)",
        ),
        (
            VltDiscovery,
            Disruptive,
            Disruptive,
            "discovery-interface P: the interconnect",
        ),
        (VltPeerRouting, Hitless, Hitless, "peer-routing"),
        (VltPriority, Hitless, Hitless, "primary-priority N"),
        (
            VltMac,
            Disruptive,
            Disruptive,
            "vlt-mac M: the pair's system MAC",
        ),
        (
            MultipathRelax,
            Hitless,
            Hitless,
            "bestpath as-path multipath-relax (routes are recomputed)",
        ),
        (
            FastExternalFallover,
            Hitless,
            Hitless,
            "no fast-external-fallover / fast-external-fallover: sessions established before the change keep the old behaviour until reset (Dell OS10 reference guide, \"Fast external fallover\"); nothing is reset",
        ),
        (MaxPathsEbgp, Hitless, Hitless, "maximum-paths ebgp N"),
        (MaxPathsIbgp, Hitless, Hitless, "maximum-paths ibgp N"),
        (
            RouterId,
            SessionReset,
            SessionReset,
            "router-id A: sessions restart",
        ),
        (
            AddressFamily,
            Hitless,
            SessionReset,
            "address-family ipv4 unicast",
        ),
        (
            Template,
            Hitless,
            SessionReset,
            "template NAME, before the neighbors that inherit it / no template, after",
        ),
        (
            Neighbor,
            Hitless,
            SessionReset,
            "neighbor A / no neighbor A",
        ),
        (
            Network,
            Hitless,
            SessionReset,
            "network A/N / no network A/N: the prefix is withdrawn",
        ),
        (
            PeerDescription,
            Hitless,
            Hitless,
            "description TEXT in a neighbor",
        ),
        (
            PeerBfd,
            Hitless,
            Hitless,
            "bfd in a neighbor, after bfd enable: BFD starts watching the session, which does not wait for it (RFC 5882 §3)",
        ),
        (
            PeerTimers,
            Hitless,
            Hitless,
            "timers K H in a neighbor: the hold time is agreed in the session's OPEN (RFC 4271 §4.2), so a session up keeps its timers until it next comes up; nothing is reset",
        ),
        (Inherit, SessionReset, SessionReset, "inherit template NAME"),
        (
            RemoteAs,
            SessionReset,
            SessionReset,
            "remote-as N: the session restarts",
        ),
        (
            PeerShutdown,
            SessionReset,
            SessionReset,
            "shutdown / no shutdown of a neighbor",
        ),
        (
            PeerAddressFamily,
            SessionReset,
            SessionReset,
            "address-family ipv4 unicast of a neighbor",
        ),
    ]
};

/// The impact of setting (`set`) or taking away a field.
pub fn impact(f: Field, set: bool) -> Impact {
    RULES
        .iter()
        .find(|r| r.0 == f)
        .map_or(Impact::Disruptive, |r| if set { r.1 } else { r.2 })
}

/// Where a confirmation comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evidence {
    Capture,
    Doc,
    Unconfirmed,
}

/// What a negation's words are followed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Nothing: the form is the whole line.
    None,
    /// The name or value of what goes (`no wred ecn`, `no neighbor 10.0.0.1`, `no queue 3`).
    Value,
}

/// How OS10 takes each kind of line away, as typed in its block's mode. `no shutdown` is not a
/// negation (it is printed, a setting of its own): a port or neighbor is never "unset". A port
/// group and its mode have none: a group always runs a mode, and a plan only sets it.
pub const NEGATIONS: &[(Field, &str, Arg, Evidence)] = {
    use Arg::*;
    use Evidence::*;
    use Field::*;
    &[
        (Hostname, "no hostname", None, Unconfirmed),
        (Dcbx, "no dcbx enable", None, Unconfirmed),
        (Breakout, "no interface breakout", Value, Unconfirmed),
        (BfdEnable, "no bfd enable", None, Unconfirmed),
        // "The no version of this command deletes the configured global settings and returns
        // to the default values" (Dell OS10 user guide, `bfd interval`).
        (BfdInterval, "no bfd interval", None, Doc),
        (Interface, "no interface", Value, Doc),
        (Wred, "no wred", Value, Unconfirmed),
        (
            ClassMapNetworkQos,
            "no class-map type network-qos",
            Value,
            Unconfirmed,
        ),
        (
            ClassMapQueuing,
            "no class-map type queuing",
            Value,
            Unconfirmed,
        ),
        (TrustMapDot1p, "no trust dot1p-map", Value, Unconfirmed),
        (TrustMapDscp, "no trust dscp-map", Value, Unconfirmed),
        (QosMap, "no qos-map traffic-class", Value, Unconfirmed),
        (
            PolicyMapNetworkQos,
            "no policy-map type network-qos",
            Value,
            Unconfirmed,
        ),
        (
            PolicyMapQueuing,
            "no policy-map type queuing",
            Value,
            Unconfirmed,
        ),
        (SystemQos, "no system qos", None, Unconfirmed),
        (Vlt, "no vlt-domain", Value, Doc),
        (Bgp, "no router bgp", None, Doc),
        (Description, "no description", None, Unconfirmed),
        (ChannelGroup, "no channel-group", None, Doc),
        // The L2 default: the negation of `no switchport` (captured) is the bare keyword.
        (Routed, "switchport", None, Unconfirmed),
        (SwitchportMode, "no switchport mode", None, Unconfirmed),
        (AccessVlan, "no switchport access vlan", None, Unconfirmed),
        (TrunkAllowed, "no switchport trunk allowed vlan", Value, Doc),
        (Mtu, "no mtu", None, Unconfirmed),
        (Address, "no ip address", None, Unconfirmed),
        (FlowcontrolRx, "no flowcontrol receive", None, Unconfirmed),
        (FlowcontrolTx, "no flowcontrol transmit", None, Unconfirmed),
        (Pfc, "no priority-flow-control mode", None, Unconfirmed),
        (
            PolicyIn,
            "no service-policy input type network-qos",
            None,
            Unconfirmed,
        ),
        (
            PolicyOut,
            "no service-policy output type queuing",
            None,
            Unconfirmed,
        ),
        (Ets, "no ets mode", None, Unconfirmed),
        (QosMapUse, "no qos-map traffic-class", None, Unconfirmed),
        (TrustMapUse, "no trust-map", None, Unconfirmed),
        (
            StpBpduguard,
            "no spanning-tree bpduguard",
            None,
            Unconfirmed,
        ),
        (StpGuard, "no spanning-tree guard", None, Unconfirmed),
        (StpPortType, "no spanning-tree port type", None, Unconfirmed),
        (VltPortChannel, "no vlt-port-channel", None, Unconfirmed),
        (WredColor, "no random-detect color", Value, Unconfirmed),
        (WredEcn, "no random-detect ecn", None, Unconfirmed),
        (Match, "no match", None, Unconfirmed),
        (TrustGroup, "no qos-group", Value, Unconfirmed),
        (Queue, "no queue", Value, Unconfirmed),
        (Class, "no class", Value, Unconfirmed),
        (Bandwidth, "no bandwidth percent", None, Unconfirmed),
        (Pause, "no pause", None, Unconfirmed),
        (PfcCos, "no pfc-cos", None, Unconfirmed),
        (Priority, "no priority", None, Unconfirmed),
        (RandomDetect, "no random-detect", None, Unconfirmed),
        (SystemTrustMap, "no trust-map", None, Unconfirmed),
        (SystemEts, "no ets mode", None, Unconfirmed),
        (
            SystemPolicyIn,
            "no service-policy input type network-qos",
            None,
            Unconfirmed,
        ),
        (
            SystemPolicyOut,
            "no service-policy output type queuing",
            None,
            Unconfirmed,
        ),
        (VltBackup, "no backup destination", None, Unconfirmed),
        (VltDiscovery, "no discovery-interface", None, Unconfirmed),
        (VltPeerRouting, "no peer-routing", None, Unconfirmed),
        (VltPriority, "no primary-priority", None, Unconfirmed),
        (VltMac, "no vlt-mac", None, Unconfirmed),
        (
            MultipathRelax,
            "no bestpath as-path multipath-relax",
            None,
            Unconfirmed,
        ),
        // `[no] fast-external-fallover` (Dell OS10 reference guide): the printed line is the
        // `no` form, so the positive form takes it away.
        (FastExternalFallover, "fast-external-fallover", None, Doc),
        (MaxPathsEbgp, "no maximum-paths ebgp", None, Unconfirmed),
        (MaxPathsIbgp, "no maximum-paths ibgp", None, Unconfirmed),
        (RouterId, "no router-id", None, Unconfirmed),
        (
            AddressFamily,
            "no address-family ipv4 unicast",
            None,
            Unconfirmed,
        ),
        (Template, "no template", Value, Unconfirmed),
        (Neighbor, "no neighbor", Value, Doc),
        (Network, "no network", Value, Unconfirmed),
        (PeerDescription, "no description", None, Unconfirmed),
        // "Use the no bfd command in ROUTER-NEIGHBOR mode" (Dell OS10 user guide, `bfd`).
        (PeerBfd, "no bfd", None, Doc),
        // As the dellemc.os10 collection's os10_bgp role sends it.
        (PeerTimers, "no timers", None, Unconfirmed),
        (Inherit, "no inherit template", None, Unconfirmed),
        (RemoteAs, "no remote-as", None, Unconfirmed),
        (
            PeerAddressFamily,
            "no address-family ipv4 unicast",
            None,
            Unconfirmed,
        ),
    ]
};

/// The negation of `f` with its value (`Arg::Value`), or `None` when OS10 has none.
pub fn negation(f: Field, value: &str) -> Option<String> {
    let (_, form, arg, _) = NEGATIONS.iter().find(|n| n.0 == f)?;
    Some(match arg {
        Arg::None => (*form).to_string(),
        Arg::Value => format!("{form} {value}"),
    })
}

/// Whether a plan step sets or deletes the items of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Take away what goes from the items that stay, in their sub-blocks too, before the
    /// other kinds change (BGP sessions go before their links are renumbered).
    Unset,
    /// Create what is new and change what stays, each block's own removals first.
    Set,
    /// Delete what goes.
    Delete,
    /// Take every setting away from the ports a breakout or port-group change re-creates (the
    /// old map's or mode's ports: a subport leaves its port-channel and drops its policies
    /// before it goes).
    Vacate,
}

/// The plan's order over the top-level kinds. Definitions are set before what uses them (a WRED
/// profile before the queuing class that names it, class-maps before the policy-maps that hold
/// them, trust and qos maps and policy-maps before `system qos` and the ports that apply them, the
/// VLT domain before `vlt-port-channel`, port-channels and VLAN interfaces before the members and
/// ports that join them — interfaces are set in the order of their kind, port-channels before
/// Ethernet — and addresses before the BGP sessions over them). Sessions that go are taken away
/// before any port changes. Ports a breakout or port-group change re-creates give up their settings
/// before the map or mode changes (breakouts, then port groups, as OS10 prints them); the new ports
/// are set with the other interfaces. Deletion runs the other way: the BGP instance, then
/// port-channels and VLANs (their members and users have let go while being set), the VLT domain,
/// then policy-maps before the maps and profiles they use. Within a block its removals come first,
/// in the reverse of the printed order (a port's service-policy and PFC go before its link-level
/// pause returns, its address before it is switched), then its settings in printed order
/// (flowcontrol before PFC, `no switchport` before an address).
pub const STAGES: &[(Stage, Kind)] = {
    use Kind::*;
    use Stage::*;
    &[
        (Set, Hostname),
        (Set, Dcbx),
        (Set, Bfd),
        (Vacate, Interface),
        (Set, Breakout),
        (Set, PortGroup),
        (Set, Wred),
        (Set, ClassMap),
        (Set, TrustMap),
        (Set, QosMap),
        (Set, PolicyMap),
        (Set, SystemQos),
        (Set, Vlt),
        (Unset, Bgp),
        (Set, Interface),
        (Set, Bgp),
        (Delete, Bgp),
        (Delete, Bfd),
        (Delete, Interface),
        (Delete, Vlt),
        (Delete, SystemQos),
        (Delete, PolicyMap),
        (Delete, QosMap),
        (Delete, TrustMap),
        (Delete, ClassMap),
        (Delete, Wred),
        (Delete, PortGroup),
        (Delete, Breakout),
        (Delete, Dcbx),
        (Delete, Hostname),
    ]
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_has_one_rule_and_at_most_one_negation() {
        for (f, ..) in RULES {
            assert_eq!(RULES.iter().filter(|r| r.0 == *f).count(), 1, "{f:?}");
            assert!(NEGATIONS.iter().filter(|n| n.0 == *f).count() <= 1, "{f:?}");
        }
        for (f, ..) in NEGATIONS {
            assert!(RULES.iter().any(|r| r.0 == *f), "{f:?} has no rule");
        }
        for (k, _) in crate::os10::ORDER {
            assert!(STAGES.contains(&(Stage::Set, *k)), "{k:?} is never set");
            assert!(
                STAGES.contains(&(Stage::Delete, *k)),
                "{k:?} is never deleted"
            );
        }
    }
}
