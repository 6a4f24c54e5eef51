//! Post-deploy validation: what the switches report they are doing, against what the fabric
//! says they should. Per switch, [`plan`] says what to ask ([`Query`]); the switch's OS sends
//! each as its own read-only commands and reads each reply into the OS-neutral values of
//! [`observed`] ([`crate::targets::Reads`], in the OS's folder); [`verify`] compares
//! everything read with the fabric: cabling (LLDP neighbors), links up at their declared
//! speed, PFC operational, trust, ECN and ETS, buffer pools, BGP sessions Established, MLAG
//! healthy.
//!
//! Each problem is one finding with a stable id (`V001`…, [`RULES`]), however many switches
//! see it: a cable is judged from both ends at once, a BGP session from both its ends, an
//! MLAG pair from both halves, and what follows from a problem already found (the session
//! across a broken or miswired cable, the peer link of a pair whose cables are down) is not a
//! finding of its own. A reply that does not read is never taken for a clean state: it is
//! named with its switch and command, and the checks that needed it are not made.
//!
//! Input: the fabric and each verified switch's replies; output: findings, sorted. Nothing
//! here talks to a switch or prints; `cli::verify` does.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::audit::Severity;
use crate::fabric::{Fabric, Switch};
use crate::types::Iface;
use crate::types::Port;

mod check;
pub mod counters;
pub mod observed;
pub mod paths;
pub mod reply;
pub mod report;

pub use check::verify;

/// A family of checks, as `--check` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Family {
    /// LLDP neighbors against the fabric's cabling.
    Cabling,
    /// Links up, at the declared speed.
    Links,
    /// PFC operational on the ports in PFC mode.
    Pfc,
    /// Trust, ECN and ETS of the cabled ports.
    Qos,
    /// Buffer pools.
    Pools,
    /// BGP sessions Established.
    Bgp,
    /// MLAG pairs healthy.
    Mlag,
    /// Paths between host groups: DF pings of the hosts' MTU, ECMP next hops towards every
    /// remote subnet (`--paths`; not among the default families: it needs hosts to probe
    /// from).
    Paths,
    /// RoCE health from counters read twice, an interval apart: pause storms, drops on a
    /// lossless class, pauses without ECN marks, FCS errors, flaps, the PFC watchdog
    /// (`--counters`; not among the default families: it takes an interval).
    Counters,
}

impl Family {
    pub const ALL: [Family; 7] = [
        Family::Cabling,
        Family::Links,
        Family::Pfc,
        Family::Qos,
        Family::Pools,
        Family::Bgp,
        Family::Mlag,
    ];
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Family::Cabling => "cabling",
            Family::Links => "links",
            Family::Pfc => "pfc",
            Family::Qos => "qos",
            Family::Pools => "pools",
            Family::Bgp => "bgp",
            Family::Mlag => "mlag",
            Family::Paths => "paths",
            Family::Counters => "counters",
        })
    }
}

/// One check and its documentation (`fabric explain V001`).
pub struct Rule {
    pub id: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub family: Family,
    /// The command it reads.
    pub reads: &'static str,
    pub what: &'static str,
    pub why: &'static str,
    pub fix: &'static str,
}

impl Rule {
    /// The check's doc, as `fabric explain` prints it.
    pub fn explain(&self) -> String {
        crate::audit::explain_text(
            &format!(
                "{} {} ({}; `fabric verify --check {}`; reads `{}`)",
                self.id, self.name, self.severity, self.family, self.reads
            ),
            self.what,
            self.why,
            self.fix,
        )
    }
}

/// The checks, in id order. Ids and names are stable: scripts and CI dashboards refer to
/// them; a new check takes the next free id.
pub const RULES: &[Rule] = &[
    Rule {
        id: "V001",
        name: "cabling-mismatch",
        severity: Severity::Error,
        family: Family::Cabling,
        reads: "show lldp remote | json-print",
        what: "The neighbor LLDP has learned on each port against the fabric's cabling (its `links` and switch peers): another switch or port than the fabric says, or a neighbor on a port the fabric leaves free. A host peer is checked by name when the host advertises one (a name that starts with the host's and a dot, a domain name, is the host). The ports one mistake involves (two cables crossed, a cable moved to another port, a far end named differently) are one finding, at the first of them by switch and port, naming what each sees and what it should see.",
        why: "A cable in the wrong port carries traffic where nothing expects it: a routed link's two addresses are no longer on one subnet, so its BGP session does not come up (or comes up between the wrong switches), ECMP loses the path, and a host ends up in another leaf's VLAN. Nothing in the running configs shows it: they are right; the cable is not.",
        fix: "Move the cables as the fabric says (each port named in the finding, what it sees, what it should see), or correct the fabric if the cabling is the one intended; then run `fabric verify` again.",
    },
    Rule {
        id: "V002",
        name: "neighbor-not-seen",
        severity: Severity::Warning,
        family: Family::Cabling,
        reads: "show lldp remote | json-print",
        what: "A link between two switches of the fabric that is up but on which LLDP has learned no neighbor (one finding per cable). Needs the links read too (`--check links`).",
        why: "The cabling cannot be confirmed there: a miswired cable would go unnoticed. LLDP is off at one end (the fabric's `lldp`), or the far end is not the Onyx switch the fabric says.",
        fix: "Turn `lldp` on for both switches (`lldp: true` in the fabric, then `fabric push`); if it is on, check what is really at the far end.",
    },
    Rule {
        id: "V003",
        name: "link-down",
        severity: Severity::Error,
        family: Family::Links,
        reads: "show interfaces ethernet | json-print",
        what: "Each port the fabric cables (to a switch or a host) is operationally up. A cable between two verified switches is one finding, at the end shut down when one is (`Admin state` not `Enabled`), else at the first end by switch and port. A port the switch does not list at all (a split not made) is down too.",
        why: "A down uplink takes its ECMP path and BGP session with it, and the remaining uplinks carry its share: on a non-blocking fabric that is congestion, then PFC pauses spreading back to the hosts. A down host port cuts a GPU server off the fabric.",
        fix: "Look at the port named: `no shutdown` if it is shut down, else the cable and optics at both ends; then run `fabric verify` again.",
    },
    Rule {
        id: "V004",
        name: "link-speed",
        severity: Severity::Error,
        family: Family::Links,
        reads: "show interfaces ethernet | json-print",
        what: "Each cabled port that is up runs at its declared speed: the port's `speed`, else the model's native speed for the port (or for a subport of its split). One finding per cable.",
        why: "A 200G uplink that came up at 100G is a slow path among fast ones: ECMP spreads flows evenly, so it congests first, ECN and PFC slow everything that hashes onto it, and the job runs at the pace of its slowest link.",
        fix: "Check the cable and optics (a lower-rated cable negotiates down), and that both ends set the same `speed`.",
    },
    Rule {
        id: "V005",
        name: "pfc-not-operational",
        severity: Severity::Error,
        family: Family::Pfc,
        reads: "show dcb priority-flow-control | json-print",
        what: "Each cabled port (or port-channel) the fabric puts in PFC mode (`pfc: true`) reports `PFC oper` `Enabled`. Ports found down or miswired are left to those findings. On OS10 each such interface's `show interface NAME priority-flow-control`: `Oper status` enabled, and `PFC Priorities` those its network-qos policy pauses once pushed; when the pools are checked too and the switch pauses other priorities than the fabric's, that is one V009 finding, not one per port.",
        why: "PFC is what makes the lossless priority lossless, hop by hop: a link without it drops RoCE packets under congestion, and RoCE's go-back-N retransmission turns a few drops into a collapse of throughput.",
        fix: "`interface ethernet X dcb priority-flow-control mode on force` (OS10: `priority-flow-control mode on` and the port's `service-policy input type network-qos`; `fabric push` does it), global PFC on the lossless priority (`qos.pfc`), and the same PFC at the far end (`fabric audit` checks the configs of both).",
    },
    Rule {
        id: "V006",
        name: "trust-mismatch",
        severity: Severity::Error,
        family: Family::Qos,
        reads: "show qos interface ethernet X | json-print",
        what: "Each cabled port's `Trust mode` is the fabric's `trust` (on ports where the fabric sets one; port-channel members take their bundle's and are not read one by one). On OS10, from `show running-configuration`: the trust map the port classifies by (its own `trust-map`, else `system qos`'s; a DSCP map is L3, a dot1p map L2) and what that map puts in each qos-group, as the fabric compiles them.",
        why: "The trust mode decides which header gives a packet its priority: a port trusting L2 where the hosts mark DSCP puts RoCE in priority 0, the lossy pool, without PFC.",
        fix: "`interface ethernet X qos trust L3` (or what the fabric says), through `fabric push`.",
    },
    Rule {
        id: "V007",
        name: "ecn-mismatch",
        severity: Severity::Error,
        family: Family::Qos,
        reads: "show interfaces ethernet X congestion-control | json-print",
        what: "On each cabled port, every traffic class the fabric sets ECN on marks as it says: the mode (ECN, RED or both) and the minimum and maximum thresholds (absolute KB or relative %). On OS10, from `show running-configuration`: the WRED profile (with `random-detect ecn`) that the port's queuing policy names for the queue, and its thresholds.",
        why: "ECN lets DCQCN slow the senders before the buffer fills; without it (or with thresholds far off) the first brake is PFC, and pause frames spread congestion to flows that did not cause it.",
        fix: "`interface ethernet X traffic-class N congestion-control ecn minimum-absolute MIN maximum-absolute MAX`, through `fabric push`.",
    },
    Rule {
        id: "V008",
        name: "ets-mismatch",
        severity: Severity::Error,
        family: Family::Qos,
        reads: "show dcb ets interface ethernet X | json-print",
        what: "On each cabled port, every traffic class the fabric schedules (`ets`) is scheduled so: strict, or WRR with the fabric's weight. On OS10, from `show running-configuration`: `ets mode on` and the port's queuing policy, `priority` for strict and `bandwidth percent` as the fabric's weights compile to.",
        why: "CNPs must leave ahead of data (strict) or the senders slow down late; a RoCE class with a small WRR weight is starved by bulk traffic and pauses its senders.",
        fix: "`interface ethernet X traffic-class N dcb ets strict` (or `wrr W`), through `fabric push`.",
    },
    Rule {
        id: "V009",
        name: "buffer-pool-mismatch",
        severity: Severity::Error,
        family: Family::Pools,
        reads: "show traffic pool NAME | json-print",
        what: "Each buffer pool the fabric declares exists with its type (lossless, lossy, lossy-mc), its memory (when the fabric gives one) and its switch priorities. OS10 has no buffer pools (it sizes its lossless buffers itself): from `show running-configuration`, each pool's priorities are paused (`pause` and `pfc-cos` of the network-qos policies in use) as the fabric's PFC pauses them once pushed, a lossless pool's all, a lossy one's none.",
        why: "A lossless priority needs a lossless pool: it reserves the headroom that absorbs what is in flight while a pause takes effect. In a lossy pool, or none, RoCE is dropped however PFC is set.",
        fix: "`traffic pool NAME type lossless`, `memory percent P`, `map switch-priority N` (disruptive: `fabric push --allow-disruptive`).",
    },
    Rule {
        id: "V010",
        name: "bgp-session-down",
        severity: Severity::Error,
        family: Family::Bgp,
        reads: "show ip bgp summary",
        what: "Every BGP session the fabric derives (one per routed link, and the neighbors written out) is Established: one finding per session, at the first end by switch (both ends' states in the message), or with another remote AS than the fabric's. A session across a link found down or miswired, or on a switch whose BGP is missing or under another AS, is left to that finding.",
        why: "A session down takes its path out of ECMP: the leaf's traffic crowds onto the other uplinks; with every session of a leaf down, its servers are cut off.",
        fix: "Look at both ends: the states (`ACTIVE`: nobody answers; `IDLE`: the far end refused: AS or router-id), the addresses of the link, `fabric audit` for the configs.",
    },
    Rule {
        id: "V011",
        name: "bgp-neighbor-missing",
        severity: Severity::Error,
        family: Family::Bgp,
        reads: "show ip bgp summary",
        what: "Every neighbor the fabric derives for a switch is configured there (`show ip bgp summary` lists it); a switch with no BGP instance at all is one finding. The session's other end is not a finding of its own.",
        why: "Without the neighbor the session never comes up: its link carries no routed traffic.",
        fix: "`fabric push` (it adds the neighbor); `fabric diff` shows what is missing.",
    },
    Rule {
        id: "V012",
        name: "bgp-local-as",
        severity: Severity::Error,
        family: Family::Bgp,
        reads: "show ip bgp summary",
        what: "The switch's BGP runs under the AS the fabric gives it (`local AS number`). Its sessions, all refused by the far ends, are not findings of their own.",
        why: "Every neighbor expects the fabric's AS: under another one each session is refused, and the switch is cut off.",
        fix: "`fabric push --allow-disruptive` (the BGP instance is replaced).",
    },
    Rule {
        id: "V013",
        name: "mlag-down",
        severity: Severity::Error,
        family: Family::Mlag,
        reads: "show mlag",
        what: "Each half of an MLAG pair is enabled and up, its peer link up and the fabric's (port-channel, VLAN, local and peer addresses), its system MAC the fabric's. One finding per pair, both halves' problems in it. A pair down because its peer link's cables are down or miswired is left to those findings. On OS10 a VLT pair alike (`show vlt 1`): the peer's status up, the VLTi up, the VLT MAC the fabric's.",
        why: "A pair that is not formed forwards as two standalone switches: a dual-homed host's LAG splits between them, and traffic to it is dropped or looped.",
        fix: "Bring the peer link up (its cables, `no shutdown`), and make both halves agree: `fabric push` of the fabric's MLAG settings to both.",
    },
    Rule {
        id: "V014",
        name: "mlag-ports-not-active",
        severity: Severity::Warning,
        family: Family::Mlag,
        reads: "show mlag",
        what: "Every MLAG port-channel of a formed pair is active on both switches: none `Active-partial` (members up on one switch only) or `Inactive` beyond those whose member links are found down already. One finding per pair. On OS10 the VLT port-channels of both units (`show vlt 1 vlt-port-detail`).",
        why: "A dual-homed host on one switch only has lost its redundancy and half its bandwidth: the next failure cuts it off.",
        fix: "Find the member port that is down on one switch (`show interfaces mlag-port-channel summary`), and its cable.",
    },
    Rule {
        id: "V015",
        name: "ecmp-short",
        severity: Severity::Error,
        family: Family::Paths,
        reads: "show ip route A.B.C.D",
        what: "Each switch with hosts (a leaf) installs, towards every other switch's host subnet (its VLAN gateways), as many next hops as the design promises: one per BGP session over the fabric's links to a switch that itself has a session towards the subnet's switch (in a leaf-spine fabric, one per spine uplink), at most `maximum-paths`. Read on Onyx and OS10 switches in their captured layouts (the lab's routing table is FRR's with `fabric lab --dataplane`).",
        why: "A next hop missing is an uplink that carries none of the traffic towards that subnet: the others carry its share, so all-reduce traffic congests them and pauses, while the fabric looks healthy. A subnet with no route at all is unreachable from the leaf's hosts.",
        fix: "Look at the uplinks the route lacks: a BGP session down (`fabric verify --check bgp`), a link down, a neighbor that does not advertise the subnet, or `maximum-paths` lower than the uplinks.",
    },
    Rule {
        id: "V016",
        name: "path-mtu-short",
        severity: Severity::Error,
        family: Family::Paths,
        reads: "ping -M do -s SIZE (from a host of each group to a host of every other group)",
        what: "Between every two host groups on different switches (a switch's VLAN, or a routed host port), a packet of the hosts' MTU with Don't Fragment passes. One host of each group sends one to one host of the other; when it is refused, the router that says so (ICMP \"fragmentation needed\") and its MTU name the hop, and the interface there that leads to the destination; when it is dropped without a word, the largest size that passes is found. Hosts are probed in the lab's data plane (`fabric lab --dataplane`, `fabric push --lab --dataplane`), else over SSH: the fabric's Linux hosts with `mgmt`, two of each group.",
        why: "RoCE does not fragment: a path MTU below the hosts' means RDMA connections that negotiate the hosts' MTU (or TCP without PMTU discovery) stall or drop, usually only for large messages, which looks like an application bug. A gateway VLAN left at 1500 in a 9000-byte fabric is the classic case: everything works until a large transfer crosses it.",
        fix: "Raise the MTU of the interface named (the gateway VLAN's `mtu`, a port's) to the fabric's, or lower the hosts' MTU to what the path carries.",
    },
    Rule {
        id: "V017",
        name: "path-broken",
        severity: Severity::Error,
        family: Family::Paths,
        reads: "ping -s 56 (from a host of each group to a host of every other group)",
        what: "Between every two host groups on different switches, a small packet gets an answer at all.",
        why: "Hosts that cannot reach each other cannot train together: a missing route, a gateway down, a host not in its VLAN.",
        fix: "Follow the path: the host's gateway (its VLAN interface up, with its address), the leaf's route to the far subnet (`show ip route`), the far leaf's.",
    },
    Rule {
        id: "V018",
        name: "pause-storm",
        severity: Severity::Error,
        family: Family::Counters,
        reads: "each port's PFC pause frames per priority, read twice `--interval` apart (Onyx `show interfaces ethernet counters pfc prio N`, OS10 `show interface ethernetX priority-flow-control`, Cumulus `nv show interface swpN counters qos`)",
        what: "On each cabled port, the PFC pause frames received and sent per priority between two readings: on a lossless priority (the fabric's `qos.pfc`), a rate at or above `verify: pause_rate` (frames per second, 1000 by default) over the whole interval; on any other priority, one pause frame at all. One finding per port and direction, naming the priority, the rate and both readings' lines.",
        why: "A NIC or switch that pauses without end (a stuck receive queue, a host that stopped draining) stops every sender behind it, hop by hop: the pause spreads through the fabric and unrelated jobs stall. Pauses on a priority the fabric does not make lossless mean the far end runs PFC on a priority this switch does not: its pauses are honoured where they should not be, or ignored where they should not be.",
        fix: "Find the device on the port named (a host: its NIC's counters, `fabric audit --hosts-live`; a switch: the port it pauses from); enable the PFC watchdog where the OS has one; check that both ends pause the same priorities (`fabric audit`).",
    },
    Rule {
        id: "V019",
        name: "lossless-drops",
        severity: Severity::Error,
        family: Family::Counters,
        reads: "each port's drops per traffic class, read twice (Onyx `show interfaces ethernet counters tc N`, OS10 `show queuing statistics interface ethernet X`, Cumulus `nv show interface swpN counters qos`)",
        what: "On each cabled port, packets dropped on a lossless traffic class (the traffic class of a priority the fabric's PFC makes lossless) between two readings, beyond `verify: drops` (0 by default).",
        why: "A lossless class must not drop: RoCE recovers a lost packet by go-back-N, resending everything after it, so a drop rate of one in a thousand can halve the throughput of an all-reduce. Drops there mean the headroom is too small for the cable's length or the far end ignores pauses.",
        fix: "Check PFC at both ends (`fabric verify --check pfc`, `fabric audit`), the buffer pool's size for the port's cable length, and that the far end honours the priority's pauses.",
    },
    Rule {
        id: "V020",
        name: "pause-without-ecn",
        severity: Severity::Warning,
        family: Family::Counters,
        reads: "each port's pauses and ECN-marked packets, read twice (Onyx `show interfaces ethernet X congestion-control`, Cumulus `nv show interface swpN counters qos`; OS10 prints no ECN count)",
        what: "A cabled port that received pause frames on a lossless priority between two readings but marked no packet with ECN in that time.",
        why: "When the far end pauses a port, its queue fills: ECN should mark before PFC has to act, so that DCQCN slows the senders at their source. A port that pauses and never marks leaves all the braking to PFC, whose pauses spread congestion to flows that did not cause it.",
        fix: "Check the port's ECN on the lossless traffic class (`fabric verify --check qos`): on, and its minimum threshold below the buffer that triggers PFC; and that the hosts' RoCE sets ECT (`fabric audit --hosts-live`).",
    },
    Rule {
        id: "V021",
        name: "fcs-errors",
        severity: Severity::Error,
        family: Family::Counters,
        reads: "each port's FCS errors, read twice (Onyx and OS10 `show interface(s) ethernet`, Cumulus `nv show interface swpN counters`)",
        what: "Frames received with a bad FCS (CRC errors) on a cabled port between two readings, beyond `verify: errors` (0 by default).",
        why: "A corrupted frame is dropped by the receiver: on a lossless priority that is a drop PFC cannot prevent, and RoCE's go-back-N turns it into a burst of resent packets. Errors come from a dirty or damaged optic or cable, rarely from the port.",
        fix: "Clean or replace the optics and cable of the port named (both ends); check the port's transceiver diagnostics.",
    },
    Rule {
        id: "V022",
        name: "link-flaps",
        severity: Severity::Error,
        family: Family::Counters,
        reads: "each port's link state changes, read twice (Onyx `show interfaces ethernet`'s `(N oper change)`, Cumulus `carrier-transitions`; OS10 prints no count)",
        what: "A cabled port whose link changed state (went down, came back up) between two readings more often than `verify: flaps` (0 by default), though it may be up when read. Onyx counts its `(N oper change)`.",
        why: "Each flap drops what is in flight, withdraws the port's BGP session and ECMP path and brings them back: collective operations stall on every flap, and a flapping uplink moves traffic back and forth.",
        fix: "The optics and cable of the port named, at both ends; its error counters; the far end's logs.",
    },
    Rule {
        id: "V023",
        name: "pfc-watchdog",
        severity: Severity::Error,
        family: Family::Counters,
        reads: "the PFC watchdog's counters, read twice (Cumulus `nv show interface swpN qos pfc-watchdog`; Onyx and OS10 print none in any capture)",
        what: "A cabled port whose PFC watchdog found a priority's queue stuck in a pause storm between two readings (and so dropped or ignored its pauses for a while).",
        why: "The watchdog acts only when a queue stays paused far longer than congestion explains: the device on that port is stuck. While it acts, the priority is not lossless on that port.",
        fix: "Find the device on the port named (its NIC, its driver, its counters: `fabric audit --hosts-live`), and why it stopped draining.",
    },
];

/// A check by id (`V003`) or name (`link-down`).
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.id.eq_ignore_ascii_case(id) || r.name == id)
}

/// What the checks ask of a switch: one family's state (of one port, of a pool, towards a
/// subnet). Each OS sends it as its own commands ([`crate::targets::Reads::asks`]): Onyx one
/// `show` per query, OS10 the PFC of each interface, its QoS from one running configuration.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Query {
    Lldp,
    Interfaces,
    Pfc,
    Trust(Port),
    Ecn(Port),
    Ets(Port),
    Pool(String),
    Bgp,
    Mlag,
    /// The routes towards a subnet (`show ip route A.B.C.D`, its network address).
    Route(crate::types::Ipv4Net),
    /// The counters of the cabled ports: pauses per priority, ECN marks, drops per traffic
    /// class, FCS errors, flaps, the PFC watchdog ([`counters`]).
    Counters,
}

impl Query {
    /// The port a per-port query asks about.
    pub fn port(&self) -> Option<Port> {
        match self {
            Query::Trust(p) | Query::Ecn(p) | Query::Ets(p) => Some(*p),
            _ => None,
        }
    }
}

/// What a switch is asked, and what of it cannot be checked (and why).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub queries: Vec<Query>,
    pub unchecked: Vec<String>,
}

/// The ports of a switch the fabric cables (to a switch or a host), with their settings.
fn cabled(sw: &Switch) -> impl Iterator<Item = (&Port, &crate::fabric::PortSettings)> {
    sw.ports.iter().filter(|(_, s)| s.peer.is_some())
}

/// What to ask `sw` for the families asked (all their checks that apply to it).
pub fn plan(sw: &Switch, families: &BTreeSet<Family>) -> Plan {
    let mut p = Plan::default();
    let on = |f| families.contains(&f);
    let any_cabled = cabled(sw).next().is_some();
    if on(Family::Cabling) && any_cabled {
        if sw.lldp {
            p.queries.push(Query::Lldp);
        } else {
            p.unchecked
                .push("cabling: LLDP is off for this switch in the fabric (`lldp`)".into());
        }
    }
    if on(Family::Links) && any_cabled {
        p.queries.push(Query::Interfaces);
    }
    let bundles_pfc = sw.bundles.values().any(|b| b.pfc);
    if on(Family::Pfc) && (cabled(sw).any(|(_, s)| s.pfc) || bundles_pfc) {
        p.queries.push(Query::Pfc);
    }
    if on(Family::Qos) {
        // A bundle's members take its QoS: their own is not read one by one.
        let ports = || cabled(sw).filter(|(_, s)| s.bundle.is_none());
        p.queries.extend(
            ports()
                .filter(|(_, s)| s.trust.is_some())
                .map(|(port, _)| Query::Trust(*port)),
        );
        p.queries.extend(
            ports()
                .filter(|(_, s)| !s.ecn.is_empty())
                .map(|(port, _)| Query::Ecn(*port)),
        );
        p.queries.extend(
            ports()
                .filter(|(_, s)| !s.ets.is_empty())
                .map(|(port, _)| Query::Ets(*port)),
        );
    }
    if on(Family::Pools) {
        p.queries
            .extend(sw.qos.pools.keys().map(|n| Query::Pool(n.clone())));
    }
    if on(Family::Bgp) && sw.routing.as_ref().is_some_and(|r| !r.neighbors.is_empty()) {
        p.queries.push(Query::Bgp);
    }
    if on(Family::Mlag) && sw.mlag.is_some() {
        p.queries.push(Query::Mlag);
    }
    if on(Family::Counters) && any_cabled {
        p.queries.push(Query::Counters);
    }
    p
}

/// What one switch reported, read; `None` (or absent) where nothing was read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observed {
    pub lldp: Option<BTreeMap<Port, Vec<observed::Neighbor>>>,
    pub links: Option<BTreeMap<Port, observed::Link>>,
    pub pfc: Option<BTreeMap<Iface, observed::Pfc>>,
    pub trust: BTreeMap<Port, observed::Trusted>,
    pub ecn: BTreeMap<Port, BTreeMap<u8, observed::Marking>>,
    pub ets: BTreeMap<Port, BTreeMap<u8, observed::Sched>>,
    pub pools: BTreeMap<String, Option<observed::Pool>>,
    /// `Some(None)`: read, and no BGP instance.
    pub bgp: Option<Option<observed::BgpSummary>>,
    pub mlag: Option<observed::Mlag>,
    /// The pair's port-channels up on one unit only and on none, where the OS reports them
    /// apart from the pair (OS10's VLT port detail; `None`: not so read).
    pub pair_ports: Option<(u32, u32)>,
    /// The priorities the switch pauses, where the OS reads them switch-wide (OS10's
    /// network-qos policies in use, from its running configuration; `None`: not so read).
    pub paused: Option<BTreeSet<u8>>,
    /// The routes read towards each subnet asked (`paths`).
    pub routes: BTreeMap<crate::types::Ipv4Net, Vec<observed::Route>>,
    /// The cabled ports' counters (`counters`).
    pub counters: counters::Counters,
}

/// The fabric and what was read of the verified switches: what [`verify`] compares.
pub struct Input<'a> {
    pub fabric: &'a Fabric,
    /// The families checked: the others' findings are not made, whatever was read.
    pub families: BTreeSet<Family>,
    /// Each verified switch, by name, and what was read of it.
    pub observed: BTreeMap<String, Observed>,
}
