//! The rules, in id order. Ids and names are stable: scripts, SARIF consumers and
//! suppressions refer to them. A new rule takes the next free id; a retired one keeps its id
//! unused.

use std::collections::{BTreeMap, BTreeSet};

use super::view::{PortView, View};
use super::{
    Applies, Check, DRIFT_RULE, Facts, Part, Profile, Rule, Severity, detection, fleet, hit,
    port_hit_or_note, port_note, routing,
};
use crate::types::Iface;
use crate::types::{Ecn, EcnMode, EcnThresholds, Ets, PoolType, Port, RoceMode, Trust};

const LOSSLESS: Applies = Applies::Only(Profile::RoceLossless);
const LOSSY: Applies = Applies::Only(Profile::RoceLossy);
/// Rules about traffic pools (and the `roce` mode beside them).
const POOLS: Option<Part> = Some(Part::Pools);
/// Rules about the one-shot `roce` mode.
const ROCE_MODE: Option<Part> = Some(Part::RoceMode);
/// The routing and MLAG rules, which read the Onyx model.
const ROUTING: Option<Part> = Some(Part::Routing);

/// A hit's message and line, as the switch's OS writes them.
fn said((message, line): (&str, Option<&str>)) -> super::Hit {
    hit(message, line.map(str::to_string))
}

/// A port's ECN line on traffic class `tc`, as the switch's OS spells it.
fn ecn_fix(f: &Facts, tc: u8, ecn: &Ecn) -> Option<String> {
    f.fixes.ecn.map(|line| line(tc, ecn))
}

/// A port's ETS line on traffic class `tc`, as the switch's OS spells it.
fn ets_fix(f: &Facts, tc: u8, ets: Ets) -> Option<String> {
    f.fixes.ets.map(|line| line(tc, ets))
}

/// The ECN the reference guide sets on the RoCE class (150 KB to 1500 KB), the fix of a RoCE
/// port without ECN.
const REFERENCE_ECN: Ecn = Ecn {
    mode: EcnMode::Ecn,
    thresholds: EcnThresholds::Absolute {
        min: 150,
        max: 1500,
    },
};

/// The settings that must agree between ports that carry the same traffic (subports of one
/// split port, members of one port-channel), by name.
fn roce_settings(v: &View, i: &PortView) -> [(&'static str, String); 6] {
    [
        ("trust", format!("{:?}", v.trust(i))),
        ("PFC mode", i.pfc.to_string()),
        ("ECN", format!("{:?}", i.ecn)),
        ("ETS", format!("{:?}", i.ets)),
        ("MTU", v.mtu(i).to_string()),
        ("speed", format!("{:?}", i.speed)),
    ]
}

/// The names of the settings on which a group of ports disagrees.
fn disagreements<'a>(v: &View, ports: impl Iterator<Item = &'a PortView>) -> Vec<&'static str> {
    let all: Vec<_> = ports.map(|i| roce_settings(v, i)).collect();
    let Some(first) = all.first() else {
        return Vec::new();
    };
    (0..first.len())
        .filter(|k| all.iter().any(|s| s[*k].1 != first[*k].1))
        .map(|k| first[k].0)
        .collect()
}

/// The WRR share of traffic class `tc` on a port: explicit weights, Onyx's default (the
/// eight classes share equally) for classes without an ETS line, strict classes outside.
fn wrr_share(i: &PortView, tc: u8) -> Option<f64> {
    let weight = |c: u8| -> Option<f64> {
        match i.ets.iter().find(|(k, _)| k.get() == c).map(|(_, e)| *e) {
            Some(Ets::Strict) => None,
            Some(Ets::Wrr(w)) => Some(f64::from(w)),
            None => Some(12.5),
        }
    };
    let mine = weight(tc)?;
    let total: f64 = (0..8).filter_map(weight).sum();
    Some(if total > 0.0 { mine / total } else { 0.0 })
}

pub static RULES: &[Rule] = &[
    Rule {
        id: "R001",
        name: "ecn-min-not-below-max",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "An ECN profile whose minimum threshold is not below its maximum.",
        why: "ECN marks with rising probability between the two thresholds; with min >= max there is no ramp, so marking jumps from never to always and DCQCN oscillates.",
        fix: "Set the minimum below the maximum, e.g. `traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500` (the reference guide's values).",
        check: Check::Switch(|f| {
            let mut out = Vec::new();
            for (iface, i) in &f.view.ports {
                for (tc, ecn) in &i.ecn {
                    let (min, max) = match ecn.thresholds {
                        EcnThresholds::Absolute { min, max } => (min, max),
                        EcnThresholds::Relative { min, max } => (u32::from(min), u32::from(max)),
                    };
                    if min >= max {
                        out.push(port_hit_or_note(
                            *iface,
                            format!("ECN on traffic class {tc}: minimum {min} is not below maximum {max}"),
                            ecn_fix(f, tc.get(), ecn),
                        ));
                    }
                }
            }
            out
        }),
    },
    Rule {
        id: "R002",
        name: "pool-memory-over-100",
        severity: Severity::Error,
        applies: Applies::Both,
        part: POOLS,
        what: "Traffic pools whose memory percentages add up to more than 100 %.",
        why: "The shared buffer cannot be given out twice; the switch refuses or trims pools, and the lossless pool may end up smaller than planned, so PFC pauses early or packets drop.",
        fix: "Lower the pools' `memory percent` so that they add up to 100 or less.",
        check: Check::Switch(|f| {
            let total: u32 = f
                .config
                .pools
                .values()
                .filter_map(|p| p.memory.map(|m| u32::from(m.hundredths())))
                .sum();
            if total > 10_000 {
                vec![hit(
                    format!(
                        "traffic pools take {}.{:02} % of the buffer",
                        total / 100,
                        total % 100
                    ),
                    None,
                )]
            } else {
                Vec::new()
            }
        }),
    },
    Rule {
        id: "R003",
        name: "roce-class-not-lossless",
        severity: Severity::Error,
        applies: LOSSLESS,
        part: POOLS,
        what: "A traffic class marked with ECN (RoCE) whose priority no lossless traffic pool maps, with the `roce` mode off.",
        why: "RoCE in lossless mode relies on its priority being buffered as lossless; in a lossy pool it is dropped under congestion and RDMA retransmits with go-back-N, which collapses throughput.",
        fix: "Map the RoCE priority to a lossless pool: `traffic pool roce type lossless` and `traffic pool roce map switch-priority 3`.",
        check: Check::Switch(|f| {
            f.roce_classes
                .iter()
                .filter(|tc| !f.lossless.contains(tc))
                .map(|tc| {
                    hit(
                        format!("ECN is set on traffic class {tc} but no lossless traffic pool maps switch priority {tc}"),
                        Some(format!("traffic pool roce map switch-priority {tc}")),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R004",
        name: "pfc-on-lossy-priority",
        severity: Severity::Error,
        applies: LOSSLESS,
        part: POOLS,
        what: "Global PFC enabled on a priority that no lossless traffic pool maps.",
        why: "PFC pauses a priority whose buffer is lossy: the pause protects nothing and spreads head-of-line blocking through the fabric.",
        fix: "Enable PFC only on the lossless priorities (`dcb priority-flow-control priority 3 enable`), or map the priority to a lossless pool.",
        check: Check::Switch(|f| {
            if !f.config.pfc.enabled {
                return Vec::new();
            }
            f.config
                .pfc
                .priorities
                .iter()
                .filter(|p| !f.lossless.contains(&p.get()))
                .map(|p| {
                    hit(
                        format!("PFC is enabled on priority {p}, which no lossless pool maps"),
                        Some(format!("dcb priority-flow-control priority {p} enable")),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R005",
        name: "port-pfc-mode-missing",
        severity: Severity::Error,
        applies: LOSSLESS,
        part: None,
        what: "A RoCE port (ECN on a RoCE class, or trusting L3 among RoCE ports), port-channel members included, without per-port PFC mode while global PFC is on.",
        why: "Onyx pauses only on ports in PFC mode; a RoCE port without it drops instead of pausing, so the lossless class is lossy there.",
        fix: "`interface ethernet 1/1 dcb priority-flow-control mode on force` on every RoCE port.",
        check: Check::Switch(|f| {
            if !f.view.pfc.enabled {
                return Vec::new();
            }
            f.roce_ports
                .iter()
                .filter(|(_, i)| !i.pfc)
                .map(|(iface, _)| {
                    port_hit_or_note(
                        *iface,
                        "carries RoCE but is not in PFC mode",
                        f.fixes.pfc_mode.map(str::to_string),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R006",
        name: "roce-port-not-trusting-dscp",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "In DSCP mode (some port trusts L3), a RoCE port that does not trust L3.",
        why: "The port then classifies by PCP (or not at all): RoCE and CNP packets land in traffic class 0, outside the lossless class and its ECN profile.",
        fix: "`interface ethernet 1/1 qos trust L3` on every RoCE port.",
        check: Check::Switch(|f| {
            if !f.dscp_mode {
                return Vec::new();
            }
            f.roce_ports
                .iter()
                .filter(|(_, i)| i.trust != Some(Trust::L3))
                .map(|(iface, i)| {
                    let trust = match (i.trust, f.view.default_trust) {
                        (Some(t), _) => t.to_string(),
                        (None, Some(t)) => format!("{t} (the default)"),
                        (None, None) => "nothing (no trust map)".to_string(),
                    };
                    port_hit_or_note(
                        *iface,
                        format!("carries RoCE but trusts {trust}"),
                        f.fixes.trust_l3.map(str::to_string),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R007",
        name: "cnp-class-not-strict",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "A RoCE port where traffic class 6 (CNP, DSCP 48) is not scheduled strict.",
        why: "Congestion notifications must overtake the data they throttle; scheduled by weight they queue behind it and DCQCN reacts late.",
        fix: "`interface ethernet 1/1 traffic-class 6 dcb ets strict` on every RoCE port.",
        check: Check::Switch(|f| {
            f.roce_ports
                .iter()
                .filter(|(_, i)| {
                    i.ets.iter().find(|(tc, _)| tc.get() == 6).map(|(_, e)| *e) != Some(Ets::Strict)
                })
                .map(|(iface, _)| {
                    port_hit_or_note(
                        *iface,
                        "traffic class 6 (CNP) is not strict",
                        ets_fix(f, 6, Ets::Strict),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R008",
        name: "roce-port-mtu-below-9216",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "A RoCE port with an MTU below 9216 (or Onyx's default 1500).",
        why: "RDMA NICs use 4096-byte payloads; a port that cannot carry them drops them or forces a smaller RoCE MTU on every host.",
        fix: "`interface ethernet 1/1 mtu 9216 force`.",
        check: Check::Switch(|f| {
            f.roce_ports
                .iter()
                .filter(|(_, i)| f.view.mtu(i) < 9216)
                .map(|(iface, i)| {
                    port_hit_or_note(
                        *iface,
                        format!("carries RoCE with MTU {}", f.view.mtu(i)),
                        Some((f.fixes.mtu)(9216)),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R009",
        name: "roce-mode-with-manual-pools",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: POOLS,
        what: "The one-shot `roce` mode together with manually configured traffic pools.",
        why: "`roce` owns trust, ECN, PFC, ETS and the pools; manual pools beside it are untested by NVIDIA and may be overridden at the next reload.",
        fix: "Choose one: remove the `traffic pool` lines, or `no roce` and configure every part by hand.",
        check: Check::Switch(|f| {
            if f.config.roce.is_some() && !f.config.pools.is_empty() {
                let names: Vec<&str> = f.config.pools.keys().map(String::as_str).collect();
                vec![hit(
                    format!(
                        "`roce` is on and traffic pools are configured: {}",
                        names.join(", ")
                    ),
                    None,
                )]
            } else {
                Vec::new()
            }
        }),
    },
    Rule {
        id: "R010",
        name: "lldp-off-with-dcb",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "RoCE settings (ECN, PFC on some priority, lossless pools, the `roce` mode) on a switch with LLDP off. Global PFC enabled on no priority, with PFC mode on an MLAG IPL only, is NVIDIA's MLAG recipe (Onyx User Manual, ESF Configuration Using CLI), not RoCE: it tells the hosts nothing.",
        why: "DCBX, which tells the hosts' NICs the PFC and ETS settings, runs over LLDP; without it the NICs keep their own, often mismatched, settings.",
        fix: "`lldp`.",
        check: Check::Switch(|f| {
            if (f.has_roce() || !f.pfc_on.is_empty()) && !f.view.dcbx {
                vec![said(f.fixes.dcbx_off)]
            } else {
                Vec::new()
            }
        }),
    },
    Rule {
        id: "R011",
        name: "lossless-priority-without-pfc",
        severity: Severity::Warning,
        applies: LOSSLESS,
        part: POOLS,
        what: "A priority mapped to a lossless traffic pool on which PFC is not enabled (`dcb priority-flow-control enable force` and `… priority N enable`), with the `roce` mode off. Settled from the Onyx User Manual: a lossless traffic pool is a buffer setting (the Shared Buffers chapter: it reserves headroom and stops dropping on that pool's accounting); pause frames are PFC's (the PFC chapter: flow control is disabled for all priorities on all ports by default, and PFC-PAUSE is sent only for enabled priorities when their threshold is reached). Neither chapter says that mapping a priority to a lossless pool enables PFC on it, so a lossless pool alone does not make its priority lossless end to end. The reference guide's session (a lossless pool on priority 3, no PFC lines) therefore gets this warning, not an error: on such a switch `show dcb priority-flow-control` must list priority 3 as enabled, which only the switch can tell. A fabric file gets PFC with its lossless pools by default; this finding on a compiled fabric means it opted out (`qos.pfc: false`), as `fabrics/rdg-roce-dscp.yaml` does to keep the guide's session line for line.",
        why: "Without PAUSE the switch cannot hold the sender back: when the lossless pool fills, RoCE packets are dropped after all, and go-back-N retransmission collapses throughput exactly when the fabric is busy.",
        fix: "`dcb priority-flow-control enable force`, `dcb priority-flow-control priority 3 enable`, and `interface ethernet 1/1 dcb priority-flow-control mode on force` on every RoCE port; or the one-shot `roce` mode. In a fabric file: remove `qos.pfc: false` (or use `qos: { preset: roce-lossless }`).",
        check: Check::Switch(|f| {
            if f.config.roce.is_some() {
                return Vec::new();
            }
            f.lossless
                .difference(&f.pfc_on)
                .map(|p| {
                    hit(
                        format!(
                            "priority {p} is mapped to a lossless pool but PFC is not enabled on it"
                        ),
                        Some(format!("dcb priority-flow-control priority {p} enable")),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R012",
        name: "port-pfc-without-global-pfc",
        severity: Severity::Error,
        applies: LOSSLESS,
        part: None,
        what: "Ports in PFC mode while PFC is not enabled globally.",
        why: "Per-port PFC mode only takes effect with `dcb priority-flow-control enable force`; without it the ports never pause, whatever they say.",
        fix: "`dcb priority-flow-control enable force` and `dcb priority-flow-control priority 3 enable`.",
        check: Check::Switch(|f| {
            let ports = f
                .view
                .ports
                .iter()
                .any(|(k, i)| matches!(k, Iface::Ethernet(_)) && i.pfc);
            if ports && !f.view.pfc.enabled && f.view.roce_mode.is_none() {
                vec![said(f.fixes.pfc_mode_alone)]
            } else {
                Vec::new()
            }
        }),
    },
    Rule {
        id: "R013",
        name: "pfc-enabled-without-priority",
        severity: Severity::Error,
        applies: LOSSLESS,
        part: None,
        what: "Global PFC enabled with no priority enabled, on a switch that carries RoCE (ECN, lossless pools, RoCE ports). Without RoCE, global PFC on no priority is step 5 of NVIDIA's MLAG recipe (Onyx User Manual, ESF Configuration Using CLI: `dcb priority-flow-control enable force`, then PFC mode on the IPL), which pauses nothing and is not flagged.",
        why: "PFC then pauses nothing: the lossless class has no flow control although the switch looks configured for it.",
        fix: "`dcb priority-flow-control priority 3 enable` (the RoCE priority).",
        check: Check::Switch(|f| {
            if f.view.pfc.enabled && f.view.pfc.priorities.is_empty() && f.has_roce() {
                vec![hit(
                    "PFC is enabled globally but on no priority",
                    f.fixes.pfc_priority.map(|line| line(3)),
                )]
            } else {
                Vec::new()
            }
        }),
    },
    Rule {
        id: "R014",
        name: "roce-port-without-ecn",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "A RoCE port without ECN on a traffic class that other ports mark as RoCE.",
        why: "DCQCN needs ECN marks to slow senders down; on a port without them congestion is only met by PFC pauses (lossless) or drops (lossy).",
        fix: "`interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500`.",
        check: Check::Switch(|f| {
            let mut out = Vec::new();
            for (iface, i) in &f.roce_ports {
                for tc in &f.roce_classes {
                    if !i.ecn.keys().any(|k| k.get() == *tc) {
                        out.push(port_hit_or_note(
                            *iface,
                            format!("carries RoCE but has no ECN on traffic class {tc}"),
                            ecn_fix(f, *tc, &REFERENCE_ECN),
                        ));
                    }
                }
            }
            out
        }),
    },
    Rule {
        id: "R015",
        name: "roce-class-without-ecn",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "A RoCE priority (lossless, or with PFC; in the lossy profile, DSCP mode itself) whose traffic class no port marks with ECN, with the `roce` mode off.",
        why: "Without ECN there is no DCQCN: in a lossless fabric every congestion becomes a PFC pause that spreads upstream (congestion trees, deadlock risk); in a lossy one every congestion becomes drops.",
        fix: "`interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500` on the RoCE ports.",
        check: Check::Switch(|f| {
            if f.view.roce_mode.is_some() {
                return Vec::new();
            }
            let mut classes: BTreeSet<u8> = f.lossless.union(&f.pfc_on).copied().collect();
            classes.remove(&6);
            if f.profile == Profile::RoceLossy && f.dscp_mode && f.roce_classes.is_empty() {
                classes.insert(3);
            }
            classes
                .difference(&f.roce_classes)
                .map(|tc| {
                    hit(
                        format!(
                            "priority {tc} carries RoCE but no port marks ECN on traffic class {tc}"
                        ),
                        None,
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R016",
        name: "ecn-thresholds-out-of-bounds",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "Absolute ECN thresholds outside sane bounds: a minimum under 10 KB (about one jumbo frame), or a maximum that holds more than 500 µs of queue at the port's speed (its `speed`, else the model's native speed when a fabric says the model).",
        why: "Marking on a single frame throttles senders that are not congested; a maximum deeper than 500 µs of queue lets latency build up before DCQCN reacts, and fills the buffer the lossless class needs. The reference values (150/1500 KB) hold 123 µs at 100G and 492 µs at 25G.",
        fix: "Scale the thresholds with the port speed, e.g. `traffic-class 3 congestion-control ecn minimum-absolute 40 maximum-absolute 400` on 10G ports, 150/1500 at 25G-100G.",
        check: Check::Switch(|f| {
            let mut out = Vec::new();
            for (iface, i) in &f.view.ports {
                for (tc, ecn) in &i.ecn {
                    let EcnThresholds::Absolute { min, max } = ecn.thresholds else {
                        continue;
                    };
                    // The line at fault, made only for a hit: every port has ECN.
                    let rest = || ecn_fix(f, tc.get(), ecn);
                    if min < 10 {
                        out.push(port_hit_or_note(
                            *iface,
                            format!("ECN on traffic class {tc}: minimum {min} KB is under one jumbo frame"),
                            rest(),
                        ));
                    }
                    let speed = match iface {
                        Iface::Ethernet(p) => f.speed(*p),
                        _ => None,
                    };
                    if let Some(speed) = speed {
                        let micros = u64::from(max) * 8192 / u64::from(speed.gbps()) / 1000;
                        if micros > 500 {
                            out.push(port_hit_or_note(
                                *iface,
                                format!("ECN on traffic class {tc}: maximum {max} KB is {micros} µs of queue at {speed} (over 500 µs)"),
                                rest(),
                            ));
                        }
                    }
                }
            }
            out
        }),
    },
    Rule {
        id: "R017",
        name: "roce-class-starved-by-ets",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "A RoCE port where the RoCE traffic class gets less than 10 % of the WRR bandwidth (its weight against the other classes' weights; classes without an ETS line share equally, Onyx's default; strict classes are outside WRR).",
        why: "Under load the RoCE class is served in proportion to its weight: a small share starves RDMA behind bulk TCP, and in a lossless fabric the starved class pauses upstream.",
        fix: "Give the RoCE class a fair weight, e.g. `interface ethernet 1/1 traffic-class 3 dcb ets wrr 50` (the `roce` mode's value).",
        check: Check::Switch(|f| {
            let mut out = Vec::new();
            for (iface, i) in &f.roce_ports {
                for tc in &f.roce_classes {
                    if let Some(share) = wrr_share(i, *tc)
                        && share < 0.10
                    {
                        out.push(port_hit_or_note(
                            *iface,
                            format!(
                                "traffic class {tc} (RoCE) gets {:.0} % of the WRR bandwidth",
                                share * 100.0
                            ),
                            ets_fix(f, *tc, Ets::Wrr(50)),
                        ));
                    }
                }
            }
            out
        }),
    },
    Rule {
        id: "R018",
        name: "strict-class-besides-cnp",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "A RoCE port where a traffic class other than 6 (CNP) is scheduled strict.",
        why: "Strict classes are served before every WRR class: a strict data class (RoCE's own included) can take the whole port and starve the others; only the small CNP class should be strict.",
        fix: "Schedule it by weight, e.g. `interface ethernet 1/1 traffic-class 3 dcb ets wrr 50`.",
        check: Check::Switch(|f| {
            let mut out = Vec::new();
            for (iface, i) in &f.roce_ports {
                for (tc, e) in &i.ets {
                    if *e == Ets::Strict && tc.get() != 6 {
                        out.push(port_hit_or_note(
                            *iface,
                            format!("traffic class {tc} is strict: it can starve every WRR class"),
                            ets_fix(f, tc.get(), Ets::Strict),
                        ));
                    }
                }
            }
            out
        }),
    },
    Rule {
        id: "R019",
        name: "flowcontrol-with-roce",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "802.3x global pause on a RoCE port: `interface ethernet 1/1 flowcontrol receive on force` or `… send on force` (Onyx's per-port flow control lines, which the model keeps verbatim; the syntax is from Onyx's command reference, not yet seen in a public capture).",
        why: "Link-level pause stops every priority, TCP and CNP included, and cannot coexist with PFC on a port: the NIC and switch disagree on which frames pause what.",
        fix: "`interface ethernet 1/1 flowcontrol receive off force` and `… flowcontrol send off force`; use PFC for the RoCE priority.",
        check: Check::Switch(|f| {
            f.roce_ports
                .iter()
                .filter(|(_, i)| i.pause)
                .map(|(iface, _)| port_note(*iface, "carries RoCE with 802.3x flow control on"))
                .collect()
        }),
    },
    Rule {
        id: "R020",
        name: "split-subports-disagree",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "The subports of one split port, those in use, with different trust, PFC mode, ECN, ETS, MTU or speed.",
        why: "A split port fans out to hosts of one kind (the GPU servers of a rack); one subport configured differently is almost always a missed line, and its host gets lossy or unclassified RoCE.",
        fix: "Configure the subports as one range, e.g. `interface ethernet 1/31/1-1/31/4 dcb priority-flow-control mode on force`.",
        check: Check::Switch(|f| {
            let mut out = Vec::new();
            for (iface, i) in &f.view.ports {
                let (Iface::Ethernet(parent), Some(split)) = (iface, i.split) else {
                    continue;
                };
                let subs: Vec<&PortView> = (1..=split.ways())
                    .map(|s| {
                        f.view
                            .port(Iface::Ethernet(Port::sub(parent.slot, parent.port, s)))
                    })
                    .filter(|i| i.in_use())
                    .collect();
                let differ = disagreements(f.view, subs.into_iter());
                if !differ.is_empty() {
                    out.push(port_note(
                        *iface,
                        format!(
                            "is split {} ways and its subports disagree on {}",
                            split.ways(),
                            differ.join(", ")
                        ),
                    ));
                }
            }
            out
        }),
    },
    Rule {
        id: "R021",
        name: "port-channel-members-disagree",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "Members of one port-channel (or MLAG port-channel) with different trust, PFC mode, ECN, ETS, MTU or speed.",
        why: "Traffic is hashed over the members: flows on the member without PFC or ECN are lossy or unmarked, which shows up as rare, unreproducible RDMA stalls.",
        fix: "Configure the members as one range, e.g. `interface ethernet 1/7-1/8 dcb priority-flow-control mode on force`.",
        check: Check::Switch(|f| {
            let mut groups: BTreeMap<Iface, Vec<&PortView>> = BTreeMap::new();
            for (iface, i) in &f.view.ports {
                if let (Iface::Ethernet(_), Some(lag)) = (iface, i.lag) {
                    groups.entry(lag).or_default().push(i);
                }
            }
            groups
                .into_iter()
                .filter_map(|(lag, members)| {
                    let differ = disagreements(f.view, members.into_iter());
                    (!differ.is_empty()).then(|| {
                        port_note(lag, format!("members disagree on {}", differ.join(", ")))
                    })
                })
                .collect()
        }),
    },
    Rule {
        id: "R022",
        name: "roce-mode-against-profile",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROCE_MODE,
        what: "The one-shot `roce` mode set to the other kind of fabric than the audit's profile: `roce lossy` or `roce semi-lossless` under roce-lossless, `roce lossless` under roce-lossy.",
        why: "The mode decides PFC for every port at once; a switch in the other mode breaks the fabric's end-to-end behaviour on every path through it.",
        fix: "`roce lossless` (or `roce lossy`) to match the rest of the fabric, or audit with the right `--profile`.",
        check: Check::Switch(|f| {
            let wrong = match (f.profile, f.config.roce) {
                (Profile::RoceLossless, Some(m @ (RoceMode::Lossy | RoceMode::SemiLossless))) => {
                    Some((m, "roce lossless"))
                }
                (Profile::RoceLossy, Some(m @ RoceMode::Lossless)) => Some((m, "roce lossy")),
                _ => None,
            };
            wrong
                .map(|(mode, fix)| {
                    hit(
                        format!("`roce {mode}` contradicts the {} profile", f.profile),
                        Some(fix.to_string()),
                    )
                })
                .into_iter()
                .collect()
        }),
    },
    Rule {
        id: "R023",
        name: "pfc-in-lossy-fabric",
        severity: Severity::Warning,
        applies: LOSSY,
        part: None,
        what: "PFC (global or per port) or a lossless traffic pool in a fabric audited as lossy RoCE.",
        why: "A lossy RoCE fabric relies on ECN alone and expects drops to be rare; a stray PFC island pauses links the rest of the design never planned headroom for.",
        fix: "`no dcb priority-flow-control enable force`, `interface ethernet 1/1 no dcb priority-flow-control mode force`, and lossy pools; or audit with `--profile roce-lossless`.",
        check: Check::Switch(|f| {
            let mut out = Vec::new();
            if f.view.pfc.enabled {
                out.push(said(f.fixes.pfc_global));
            }
            for (name, p) in &f.config.pools {
                if p.kind == Some(PoolType::Lossless) {
                    out.push(hit(
                        format!("traffic pool {name} is lossless"),
                        Some(format!("traffic pool {name} type lossless")),
                    ));
                }
            }
            for (iface, i) in &f.view.ports {
                if i.pfc {
                    out.push(port_hit_or_note(
                        *iface,
                        "is in PFC mode",
                        f.fixes.pfc_mode.map(str::to_string),
                    ));
                }
            }
            out
        }),
    },
    Rule {
        id: "R024",
        name: "lossless-pool-without-priority",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: POOLS,
        what: "A lossless traffic pool that maps no switch priority.",
        why: "The pool holds buffer (and headroom) that no traffic can use, taken from the pools that carry traffic; usually the `map switch-priority` line was lost.",
        fix: "`traffic pool roce map switch-priority 3`, or remove the pool.",
        check: Check::Switch(|f| {
            f.config
                .pools
                .iter()
                .filter(|(_, p)| p.kind == Some(PoolType::Lossless) && p.priorities.is_empty())
                .map(|(name, _)| {
                    hit(
                        format!("traffic pool {name} is lossless but maps no switch priority"),
                        Some(format!("traffic pool {name} type lossless")),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R025",
        name: "cnp-priority-lossless",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "Priority 6 (CNP) mapped to a lossless pool or with PFC on.",
        why: "Congestion notifications must never wait: paused behind a congested link they arrive late, and the senders they should slow keep filling the fabric.",
        fix: "Keep priority 6 lossy and strict: remove it from the lossless pool (`traffic pool roce no map switch-priority 6`) and `no dcb priority-flow-control priority 6 enable`.",
        check: Check::Switch(|f| {
            if f.lossless.contains(&6) || f.pfc_on.contains(&6) {
                vec![hit("priority 6 (CNP) is lossless or has PFC on", None)]
            } else {
                Vec::new()
            }
        }),
    },
    Rule {
        id: "R026",
        name: "connected-port-without-description",
        severity: Severity::Info,
        applies: Applies::Both,
        part: None,
        what: "A port that is configured and not shut down, without a description.",
        why: "The description is the cabling record an operator reads during an incident; `fabric import` and the link rules also read peers from it.",
        fix: "`interface ethernet 1/1 description \"gpu-node-01:p0\"` (a fabric file's peers write these for you).",
        check: Check::Switch(|f| {
            f.view
                .ports
                .iter()
                .filter(|(k, i)| matches!(k, Iface::Ethernet(_)) && !i.description && i.in_use())
                .map(|(k, _)| port_note(*k, "is configured and up but has no description"))
                .collect()
        }),
    },
    Rule {
        id: "R027",
        name: "unsaved-running-config",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "A switch whose running config has unsaved changes (`show configuration files`: `Unsaved changes : yes`); live audits only.",
        why: "A reload (power cut, upgrade) boots the saved file and silently loses the changes, RoCE settings included.",
        fix: "Check the running config, then `configuration write`.",
        check: Check::Switch(|f| {
            if f.sw.unsaved == Some(true) {
                vec![hit(
                    "the running config has changes that are not saved",
                    f.fixes.save.map(str::to_string),
                )]
            } else {
                Vec::new()
            }
        }),
    },
    Rule {
        id: "R028",
        name: "link-mtu-mismatch",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "The two ends of a cable between switches with different MTUs.",
        why: "Frames larger than the smaller MTU are dropped at that end without any error upstream: large RDMA messages stall while pings work.",
        fix: "The same `mtu 9216 force` on both ends.",
        check: Check::Fabric(fleet::link_mtu),
    },
    Rule {
        id: "R029",
        name: "link-pfc-mismatch",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "The two ends of a cable between switches, one in PFC mode and the other not.",
        why: "The end without PFC neither sends nor honours pauses: the lossless class is lossy on that hop.",
        fix: "`dcb priority-flow-control mode on force` on both ends.",
        check: Check::Fabric(fleet::link_pfc),
    },
    Rule {
        id: "R030",
        name: "link-trust-mismatch",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "The two ends of a cable between switches trusting different fields (L2 PCP, L3 DSCP, both).",
        why: "Traffic is re-classified at each hop: RoCE leaves one switch in the lossless class and enters the next in class 0.",
        fix: "The same `qos trust L3` on both ends (DSCP mode).",
        check: Check::Fabric(fleet::link_trust),
    },
    Rule {
        id: "R031",
        name: "link-speed-mismatch",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "The two ends of a cable between switches at different speeds (the `speed` setting, else the model's native speed when known).",
        why: "The link does not come up, or comes up at the lower speed after autonegotiation, silently halving the fabric's bandwidth on that path.",
        fix: "The same `speed 100G force` on both ends (or neither).",
        check: Check::Fabric(fleet::link_speed),
    },
    Rule {
        id: "R032",
        name: "link-ecn-mismatch",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "The two ends of a cable between switches with different ECN settings.",
        why: "Each direction of the link then reacts to congestion differently; one with no ECN leaves that hop to PFC or drops.",
        fix: "The same `traffic-class 3 congestion-control ecn …` line on both ends.",
        check: Check::Fabric(fleet::link_ecn),
    },
    Rule {
        id: "R033",
        name: "pools-differ-across-fabric",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: POOLS,
        what: "Switches carrying RoCE whose traffic pools differ from the most common pools in the fabric.",
        why: "One switch with a smaller lossless pool pauses earlier than its neighbours and becomes the fabric's congestion point.",
        fix: "The same `traffic pool` lines on every switch (a fabric file's defaults keep them equal).",
        check: Check::Fabric(fleet::pools_differ),
    },
    Rule {
        id: "R034",
        name: "lossless-priorities-differ-across-fabric",
        severity: Severity::Error,
        applies: LOSSLESS,
        part: None,
        what: "Switches carrying RoCE whose lossless priorities or PFC priorities differ from the most common ones in the fabric.",
        why: "Lossless is end to end: a priority that is lossless on one switch and lossy on the next is lossy for every flow through both.",
        fix: "The same lossless pool mapping and `dcb priority-flow-control priority N enable` lines on every switch.",
        check: Check::Fabric(fleet::lossless_differ),
    },
    Rule {
        id: "R035",
        name: "ecn-differs-across-fabric",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "Switches carrying RoCE whose ECN settings on RoCE ports differ from the most common ones in the fabric.",
        why: "DCQCN is tuned for one marking profile; a switch that marks earlier or later than the rest shifts where congestion is felt, which is hard to find from the hosts.",
        fix: "The same `traffic-class 3 congestion-control ecn …` values on every switch.",
        check: Check::Fabric(fleet::ecn_differ),
    },
    Rule {
        id: DRIFT_RULE,
        name: "drift-from-fabric",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "An object (a port's setting, a pool, a VLAN, global PFC …) whose running state differs from the fabric file; audits given a fabric and running configs (files or live).",
        why: "The switch no longer runs what was reviewed: the next `fabric push` will change it, and until then the fabric file does not describe the network.",
        fix: "The command on the finding's line, which brings the object to the fabric (all of them: `fabric diff FABRIC --format commands`), or `fabric push`; or change the fabric file if the switch is right. It is a drifted interface's one fix: another rule's finding on that interface (a RoCE port's MTU, trust, ECN …) prints no command of its own, so two findings never print two fixes for one port; where the fabric's own value breaks that rule, change it in the fabric file.",
        check: Check::Switch(|f| {
            f.sw.drift
                .iter()
                .map(|d| {
                    hit(
                        format!("{} differs from the fabric", d.object),
                        Some(d.command.clone()),
                    )
                })
                .collect()
        }),
    },
    Rule {
        id: "R037",
        name: "bgp-remote-as-mismatch",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "A BGP neighbor that is another audited switch's interface address, with a `remote-as` other than that switch's AS (its `router bgp` line).",
        why: "The far end's OPEN message carries its own AS; one that differs from the configured remote-as is refused with a Bad Peer AS notification (RFC 4271 §6.2), so the session never comes up and the cable carries no routed traffic. NetQ's BGP validation (CumulusNetworks/docs, Validation-Checks.md) and the reference's check list ask the same of both ends.",
        fix: "Set the far switch's AS on the finding's line, e.g. `router bgp 65101 vrf default neighbor 10.254.0.0 remote-as 65000`; or change the far switch's AS if the neighbor line is right.",
        check: Check::Fabric(routing::remote_as),
    },
    Rule {
        id: "R038",
        name: "bgp-session-not-reciprocal",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "A switch that another audited switch peers with (a neighbor that is this switch's interface address) without the neighbor back: this switch's BGP has no neighbor at the other switch's address on the subnet they share (or, for a session between addresses on no shared subnet, at any of its addresses), or runs no BGP. The finding is on the switch missing its half: at its neighbor on the shared subnet that names no audited switch (a wrong address), else at the line it lacks.",
        why: "A BGP session needs both ends configured for each other: a switch accepts a BGP connection only from an address it has a neighbor for. With one half missing the session stays down and its cable idle, which `show ip bgp summary` shows only as a neighbor stuck in Active.",
        fix: "Add the line the finding shows on this switch, e.g. `router bgp 65000 vrf default neighbor 10.254.0.193 remote-as 65101`; or remove the other switch's neighbor if the session is not wanted.",
        check: Check::Fabric(routing::reciprocal),
    },
    Rule {
        id: "R039",
        name: "bgp-without-protocol-or-routing",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "`router bgp` on a switch without `protocol bgp`, or with IP routing off (no `ip routing vrf default`).",
        why: "Onyx runs BGP only once `protocol bgp` enables it, and forwards nothing between its L3 interfaces without IP routing: the BGP configuration is then dead text, and the routes it would learn are never used (the reference's check list: `ip routing` and `protocol bgp` wherever BGP runs).",
        fix: "`ip routing vrf default` and `protocol bgp`, before `router bgp`.",
        check: Check::Switch(routing::bgp_prerequisites),
    },
    Rule {
        id: "R040",
        name: "duplicate-router-id",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: ROUTING,
        what: "The same BGP router-id on several audited switches.",
        why: "The router-id names a switch to its peers: RFC 6286 requires it unique within an AS, two internal peers with one identifier refuse each other's OPEN, and across ASes it still breaks best-path tie-breaks and makes every `show ip bgp` ambiguous. NetQ's BGP validation checks router-id conflicts across the network.",
        fix: "Give each switch its own router-id, its loopback address: `router bgp 65101 vrf default router-id 10.255.1.1 force` (a fabric file derives it from the switch's id).",
        check: Check::Fabric(routing::duplicate_router_id),
    },
    Rule {
        id: "R041",
        name: "duplicate-interface-address",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "The same interface address (a routed port, a VLAN interface, a loopback) on several audited switches. An IPL VLAN interface's address is compared within its MLAG pair only: pairs commonly reuse one IPL subnet (NVIDIA's examples all use the same), which stays between the two switches.",
        why: "Two switches answering for one address split its traffic and its ARP replies between them: sessions to it reach either, and BGP neighbors at it are ambiguous (NetQ's address validation looks for exactly these duplicates across devices).",
        fix: "Renumber one of the interfaces: `interface ethernet 1/1 ip address 10.254.0.3/31 primary`.",
        check: Check::Fabric(routing::duplicate_address),
    },
    Rule {
        id: "R042",
        name: "ecmp-paths-below-sessions",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: ROUTING,
        what: "A switch whose `maximum-paths` (1 when absent) is lower than its BGP sessions to one neighbouring AS over routed ports (neighbors on the subnet of a routed port or port-channel).",
        why: "Routes learnt over parallel uplinks are installed only up to `maximum-paths` next hops: the other uplinks carry no traffic towards that AS, and a fabric built non-blocking runs oversubscribed (RFC 7938 §6: ECMP over every uplink is what makes a routed leaf-spine non-blocking).",
        fix: "`router bgp 65101 vrf default maximum-paths 8`: at least the number of sessions to one AS.",
        check: Check::Switch(routing::ecmp),
    },
    Rule {
        id: "R043",
        name: "link-routed-switchport-mismatch",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "The two ends of a cable between switches, one routed (`no switchport force`, on the port or its port-channel) and the other a switchport.",
        why: "The routed end sends IP to its neighbor's address, the switchport end bridges it into a VLAN where no such address lives: no BGP session, no traffic, and frames flooded into the VLAN instead (the reference's check list: the same role at both ends).",
        fix: "`interface ethernet 1/1 no switchport force` and an address on the same subnet at the switchport end, or `switchport force` at the routed end.",
        check: Check::Fabric(routing::routed_switchport),
    },
    Rule {
        id: "R044",
        name: "link-subnet-mismatch",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "The two ends of a cable between switches, both routed, whose addresses are not on one subnet (different networks or prefix lengths), or routed without an address at one end.",
        why: "Each end reaches only addresses on its own subnet: the neighbor's address is not connected, so the eBGP session (TTL 1) never comes up and the link routes nothing (the reference's check list: each point-to-point subnet shared by exactly its two ends).",
        fix: "Addresses of one subnet at both ends, e.g. `10.254.0.0/31` and `10.254.0.1/31` (a fabric file allocates them from `routing.links`).",
        check: Check::Fabric(routing::link_subnet),
    },
    Rule {
        id: "R045",
        name: "mlag-peers-disagree",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "Two audited switches that form an MLAG pair (one's IPL VLAN interface names the other's address on that VLAN as `ipl N peer-address`; among pairs reusing one IPL subnet, the switch cabled to it) and disagree on what makes them a pair: each the other's peer-address, the two IPL addresses on one subnet, the same `mlag system-mac`, the same `mlag-vip` (domain and address), and `protocol mlag` and `no mlag shutdown` on both.",
        why: "The peers exchange their control traffic between the IPL addresses and present one LACP system (the system MAC) to dual-homed hosts: with crossed addresses the pair never forms, with two MACs hosts see two LACP partners and leave half of each bundle down, and one switch shut down leaves the other alone (Onyx User Manual, MLAG Commands: `no shutdown` \"must be similar in all MLAG peers\"; NetQ's MLAG validation checks the sysmac and peering the same way).",
        fix: "The same `mlag system-mac` and `mlag-vip` lines on both switches, `interface vlan 4000 ipl 1 peer-address` set to the other switch's address on the IPL VLAN, `protocol mlag` and `no mlag shutdown` on both.",
        check: Check::Fabric(routing::mlag_pair),
    },
    Rule {
        id: "R046",
        name: "mlag-port-channels-disagree",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "MLAG port-channels of one number on the two switches of an MLAG pair with different switchport mode, access or allowed VLANs, MTU, trust, PFC mode, ECN or ETS; or present on one switch only.",
        why: "A dual-homed host hashes its flows over both switches: VLANs missing on one side black-hole that half, a smaller MTU drops large frames on it, and a side without PFC or trust makes RoCE lossy or unclassified on every other flow. NetQ's MLAG and VLAN validation (Dual Home, CLAG Bond VLAN Consistency) checks the same.",
        fix: "Configure the MLAG port-channel identically on both switches, e.g. `interface mlag-port-channel 1 mtu 9216 force` on the one that differs.",
        check: Check::Fabric(routing::mlag_port_channels),
    },
    Rule {
        id: "R047",
        name: "ipl-without-pfc",
        severity: Severity::Error,
        applies: LOSSLESS,
        part: ROUTING,
        what: "An MLAG IPL port-channel not in PFC mode (neither the port-channel nor all of its members) on a switch with global PFC enabled.",
        why: "Traffic between hosts on the two switches of a pair, and all of it when a host loses one of its links, crosses the IPL; without PFC there, the lossless priority is dropped on that hop. NVIDIA's MLAG recipe enables PFC globally and on the IPL port-channel (Onyx User Manual, ESF Configuration Using CLI).",
        fix: "`interface port-channel 100 dcb priority-flow-control mode on force`.",
        check: Check::Switch(routing::ipl_pfc),
    },
    Rule {
        id: "R048",
        name: "mlag-without-ip-routing",
        severity: Severity::Error,
        applies: Applies::Both,
        part: ROUTING,
        what: "MLAG configured (`protocol mlag`, an IPL, `no mlag shutdown`) on a switch with IP routing off.",
        why: "MLAG's control traffic runs between the IPL VLAN interfaces' addresses; Onyx User Manual, MLAG Commands (`protocol mlag`, notes): without IP routing an IPL VLAN interface cannot be configured and thus MLAG does not function.",
        fix: "`ip routing vrf default` (the ESF recipe's step 3, before `protocol mlag`).",
        check: Check::Switch(routing::mlag_routing),
    },
    Rule {
        id: "R049",
        name: "routed-roce-mtu",
        severity: Severity::Error,
        applies: Applies::Both,
        part: None,
        what: "A path of routed RoCE with a hop smaller than the frames it routes: a VLAN interface with an address whose MTU is below the RoCE ports that carry its VLAN (Onyx's VLAN interfaces run 1500 without an `mtu` line), or a routed RoCE port of an audited switch whose MTU is below the largest frame a VLAN interface of the audited switches routes.",
        why: "RoCE does not fragment and finds no path MTU: a 9000-byte RDMA frame routed through a 1500-byte VLAN interface, or over a smaller routed uplink, is dropped at that hop while the ports on both sides pass it, so traffic between hosts on one leaf works and between leaves stalls. Cray's Onyx procedure sets `interface vlan N mtu 9184`; NVIDIA's guides run every hop at 9216.",
        fix: "`interface vlan 10 mtu 9216` (OS10: `mtu 9216` in `interface vlan10`), or the routed port's `mtu 9216 force`: at least the MTU of the RoCE ports the traffic comes from.",
        check: Check::Fabric(fleet::routed_mtu),
    },
    Rule {
        id: "R050",
        name: "bgp-slow-failure-detection",
        severity: Severity::Warning,
        applies: Applies::Both,
        part: None,
        what: "A BGP session over a cable (its neighbor on the subnet of a routed port or port-channel) that no BFD watches at this end (Onyx `protocol bfd` and `neighbor A fall-over bfd`; OS10 `bfd enable` and `bfd` in the neighbor), and whose hold time is above 9 s (the smaller of the two ends' `timers`, 180 s without). An end that runs BFD while the far end does not is the far end's finding.",
        why: "A link that dies without its port going down (a fibre that passes light one way only, a line card that stops forwarding) keeps the session up until the hold time runs out: 180 s by default on both OSes, during which traffic hashed onto that link is lost and a GPU training job stalls on it. BFD notices in `interval` × `multiplier` (900 ms at 300 ms × 3; RFC 5880, RFC 5882); BFD at one end only never comes up, and BGP then runs without it. A 9 s hold time (FRR's datacenter profile, which Cumulus Linux runs) is the fallback where BFD cannot run.",
        fix: "BFD on both ends: `protocol bfd`, `ip bfd vrf default interval min-rx 300 multiplier 3 transmit-rate 300 force` and `router bgp 65101 vrf default neighbor 10.254.0.192 fall-over bfd` (OS10: `bfd enable`, `bfd interval 300 min_rx 300 multiplier 3 role active`, and `bfd` in the neighbor); a fabric file turns it on for every session over its routed links (`routing.bfd`, on by default). Else short timers: `routing.timers: { keepalive: 3, hold: 9 }`.",
        check: Check::Fabric(detection::failure_detection),
    },
];

#[cfg(test)]
mod tests {
    #[test]
    fn ids_are_in_order_and_names_unique() {
        let rules = super::RULES;
        for (n, r) in rules.iter().enumerate() {
            assert_eq!(r.id, format!("R{:03}", n + 1));
        }
        let names: std::collections::BTreeSet<&str> = rules.iter().map(|r| r.name).collect();
        assert_eq!(names.len(), rules.len());
    }
}
