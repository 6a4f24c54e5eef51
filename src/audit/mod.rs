//! RoCE best-practice rules over switch configurations: each rule has a stable id, a
//! severity and a doc (what it checks, why it matters, how to fix), and reads one
//! [`Config`]. Input: configs by switch name; output: findings, sorted. Nothing here prints.
//!
//! How a config's RoCE parts are recognised, without a fabric to say so: the *RoCE traffic
//! classes* are those with ECN configured on some port (Onyx maps switch priority N to
//! traffic class N by default, as the reference guide relies on); the *RoCE ports* are the
//! ports with ECN on such a class or with per-port PFC mode on; the *lossless priorities* are
//! those a lossless traffic pool maps, or priority 3 under the one-shot `roce` mode.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::onyx::{Config, Iface, Interface};
use crate::types::{EcnThresholds, Ets, PoolType, Trust};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
    }
}

/// One finding: a rule broken on a switch, with the configuration line at fault when there
/// is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub switch: String,
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The offending line as the switch prints it (or the line that is missing).
    pub line: Option<String>,
}

/// A rule and its documentation.
pub struct Rule {
    pub id: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub what: &'static str,
    pub why: &'static str,
    pub fix: &'static str,
    check: fn(&Facts) -> Vec<Hit>,
}

/// What a check found: the message, and the configuration line at fault.
type Hit = (String, Option<String>);

impl Rule {
    /// The rule's doc, as `fabric explain` prints it.
    pub fn explain(&self) -> String {
        format!(
            "{} {} ({})\n\nWhat it checks\n  {}\n\nWhy it matters\n  {}\n\nHow to fix\n  {}\n",
            self.id, self.name, self.severity, self.what, self.why, self.fix
        )
    }
}

/// What the rules read from one config, worked out once.
struct Facts<'a> {
    config: &'a Config,
    /// Traffic classes with ECN on some port.
    roce_classes: BTreeSet<u8>,
    /// Priorities made lossless by a pool (or by `roce` mode).
    lossless: BTreeSet<u8>,
    /// Ethernet ports carrying RoCE, with their settings.
    roce_ports: Vec<(&'a Iface, &'a Interface)>,
}

impl<'a> Facts<'a> {
    fn new(config: &'a Config) -> Facts<'a> {
        let roce_classes: BTreeSet<u8> = config
            .interfaces
            .values()
            .flat_map(|i| i.ecn.keys().map(|tc| tc.get()))
            .collect();
        let mut lossless: BTreeSet<u8> = config
            .pools
            .values()
            .filter(|p| p.kind == Some(PoolType::Lossless))
            .flat_map(|p| p.priorities.iter().map(|p| p.get()))
            .collect();
        if config.roce.is_some() {
            lossless.insert(3);
        }
        let roce_ports = config
            .interfaces
            .iter()
            .filter(|(k, i)| matches!(k, Iface::Ethernet(_)) && (!i.ecn.is_empty() || i.pfc))
            .collect();
        Facts {
            config,
            roce_classes,
            lossless,
            roce_ports,
        }
    }
}

fn line(iface: &Iface, rest: impl std::fmt::Display) -> Option<String> {
    Some(format!("interface {iface} {rest}"))
}

/// Every rule, in id order.
pub static RULES: &[Rule] = &[
    Rule {
        id: "R001",
        name: "ecn-min-not-below-max",
        severity: Severity::Error,
        what: "An ECN profile whose minimum threshold is not below its maximum.",
        why: "ECN marks with rising probability between the two thresholds; with min >= max there is no ramp, so marking jumps from never to always and DCQCN oscillates.",
        fix: "Set the minimum below the maximum, e.g. `traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500` (the reference guide's values).",
        check: |f| {
            let mut out = Vec::new();
            for (iface, i) in &f.config.interfaces {
                for (tc, ecn) in &i.ecn {
                    let (min, max) = match ecn.thresholds {
                        EcnThresholds::Absolute { min, max } => (min, max),
                        EcnThresholds::Relative { min, max } => (u32::from(min), u32::from(max)),
                    };
                    if min >= max {
                        out.push((
                            format!("{iface}: ECN on traffic class {tc}: minimum {min} is not below maximum {max}"),
                            line(iface, format_args!("traffic-class {tc} congestion-control {ecn}")),
                        ));
                    }
                }
            }
            out
        },
    },
    Rule {
        id: "R002",
        name: "pool-memory-over-100",
        severity: Severity::Error,
        what: "Traffic pools whose memory percentages add up to more than 100 %.",
        why: "The shared buffer cannot be given out twice; the switch refuses or trims pools, and the lossless pool may end up smaller than planned, so PFC pauses early or packets drop.",
        fix: "Lower the pools' `memory percent` so that they add up to 100 or less.",
        check: |f| {
            let total: u32 = f
                .config
                .pools
                .values()
                .filter_map(|p| p.memory.map(|m| u32::from(m.hundredths())))
                .sum();
            if total > 10_000 {
                vec![(
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
        },
    },
    Rule {
        id: "R003",
        name: "roce-class-not-lossless",
        severity: Severity::Error,
        what: "A traffic class marked with ECN (RoCE) whose priority no lossless traffic pool maps, with the `roce` mode off.",
        why: "RoCE in lossless mode relies on its priority being buffered as lossless; in a lossy pool it is dropped under congestion and RDMA retransmits with go-back-N, which collapses throughput.",
        fix: "Map the RoCE priority to a lossless pool: `traffic pool roce type lossless` and `traffic pool roce map switch-priority 3`.",
        check: |f| {
            f.roce_classes
                .iter()
                .filter(|tc| !f.lossless.contains(tc))
                .map(|tc| {
                    (
                        format!("ECN is set on traffic class {tc} but no lossless traffic pool maps switch priority {tc}"),
                        Some(format!("traffic pool roce map switch-priority {tc}")),
                    )
                })
                .collect()
        },
    },
    Rule {
        id: "R004",
        name: "pfc-on-lossy-priority",
        severity: Severity::Error,
        what: "Global PFC enabled on a priority that no lossless traffic pool maps.",
        why: "PFC pauses a priority whose buffer is lossy: the pause protects nothing and spreads head-of-line blocking through the fabric.",
        fix: "Enable PFC only on the lossless priorities (`dcb priority-flow-control priority 3 enable`), or map the priority to a lossless pool.",
        check: |f| {
            if !f.config.pfc.enabled {
                return Vec::new();
            }
            f.config
                .pfc
                .priorities
                .iter()
                .filter(|p| !f.lossless.contains(&p.get()))
                .map(|p| {
                    (
                        format!("PFC is enabled on priority {p}, which no lossless pool maps"),
                        Some(format!("dcb priority-flow-control priority {p} enable")),
                    )
                })
                .collect()
        },
    },
    Rule {
        id: "R005",
        name: "port-pfc-mode-missing",
        severity: Severity::Error,
        what: "A RoCE port (ECN on a RoCE class) without per-port PFC mode while global PFC is on.",
        why: "Onyx pauses only on ports in PFC mode; a RoCE port without it drops instead of pausing, so the lossless class is lossy there.",
        fix: "`interface ethernet 1/1 dcb priority-flow-control mode on force` on every RoCE port.",
        check: |f| {
            if !f.config.pfc.enabled {
                return Vec::new();
            }
            f.roce_ports
                .iter()
                .filter(|(_, i)| !i.pfc)
                .map(|(iface, _)| {
                    (
                        format!("{iface} carries RoCE but is not in PFC mode"),
                        line(iface, "dcb priority-flow-control mode on force"),
                    )
                })
                .collect()
        },
    },
    Rule {
        id: "R006",
        name: "roce-port-not-trusting-dscp",
        severity: Severity::Error,
        what: "In DSCP mode (some port trusts L3), a RoCE port that does not trust L3.",
        why: "The port then classifies by PCP (or not at all): RoCE and CNP packets land in traffic class 0, outside the lossless class and its ECN profile.",
        fix: "`interface ethernet 1/1 qos trust L3` on every RoCE port.",
        check: |f| {
            let dscp_mode = f
                .config
                .interfaces
                .values()
                .any(|i| i.trust == Some(Trust::L3));
            if !dscp_mode {
                return Vec::new();
            }
            f.roce_ports
                .iter()
                .filter(|(_, i)| i.trust != Some(Trust::L3))
                .map(|(iface, i)| {
                    let trust = i
                        .trust
                        .map_or("L2 (the default)".to_string(), |t| t.to_string());
                    (
                        format!("{iface} carries RoCE but trusts {trust}"),
                        line(iface, "qos trust L3"),
                    )
                })
                .collect()
        },
    },
    Rule {
        id: "R007",
        name: "cnp-class-not-strict",
        severity: Severity::Warning,
        what: "A RoCE port where traffic class 6 (CNP, DSCP 48) is not scheduled strict.",
        why: "Congestion notifications must overtake the data they throttle; scheduled by weight they queue behind it and DCQCN reacts late.",
        fix: "`interface ethernet 1/1 traffic-class 6 dcb ets strict` on every RoCE port.",
        check: |f| {
            f.roce_ports
                .iter()
                .filter(|(_, i)| {
                    i.ets.iter().find(|(tc, _)| tc.get() == 6).map(|(_, e)| *e) != Some(Ets::Strict)
                })
                .map(|(iface, _)| {
                    (
                        format!("{iface}: traffic class 6 (CNP) is not strict"),
                        line(iface, "traffic-class 6 dcb ets strict"),
                    )
                })
                .collect()
        },
    },
    Rule {
        id: "R008",
        name: "roce-port-mtu-below-9216",
        severity: Severity::Warning,
        what: "A RoCE port with an MTU below 9216 (or Onyx's default 1500).",
        why: "RDMA NICs use 4096-byte payloads; a port that cannot carry them drops them or forces a smaller RoCE MTU on every host.",
        fix: "`interface ethernet 1/1 mtu 9216 force`.",
        check: |f| {
            f.roce_ports
                .iter()
                .filter(|(_, i)| i.mtu.unwrap_or(1500) < 9216)
                .map(|(iface, i)| {
                    (
                        format!("{iface} carries RoCE with MTU {}", i.mtu.unwrap_or(1500)),
                        line(iface, "mtu 9216 force"),
                    )
                })
                .collect()
        },
    },
    Rule {
        id: "R009",
        name: "roce-mode-with-manual-pools",
        severity: Severity::Warning,
        what: "The one-shot `roce` mode together with manually configured traffic pools.",
        why: "`roce` owns trust, ECN, PFC, ETS and the pools; manual pools beside it are untested by NVIDIA and may be overridden at the next reload.",
        fix: "Choose one: remove the `traffic pool` lines, or `no roce` and configure every part by hand.",
        check: |f| {
            if f.config.roce.is_some() && !f.config.pools.is_empty() {
                let names: Vec<&str> = f.config.pools.keys().map(String::as_str).collect();
                vec![(
                    format!(
                        "`roce` is on and traffic pools are configured: {}",
                        names.join(", ")
                    ),
                    None,
                )]
            } else {
                Vec::new()
            }
        },
    },
    Rule {
        id: "R010",
        name: "lldp-off-with-dcb",
        severity: Severity::Warning,
        what: "RoCE settings (ECN, PFC, lossless pools) on a switch with LLDP off.",
        why: "DCBX, which tells the hosts' NICs the PFC and ETS settings, runs over LLDP; without it the NICs keep their own, often mismatched, settings.",
        fix: "`lldp`.",
        check: |f| {
            let dcb = !f.roce_ports.is_empty() || f.config.pfc.enabled || !f.lossless.is_empty();
            if dcb && !f.config.lldp {
                vec![(
                    "RoCE is configured but LLDP is off".to_string(),
                    Some("lldp".into()),
                )]
            } else {
                Vec::new()
            }
        },
    },
];

/// The rule with this id (`R001`) or name.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.id.eq_ignore_ascii_case(id) || r.name == id)
}

/// Every finding on every switch: switches by name, then rules by id, then ports in order.
pub fn audit(switches: &BTreeMap<String, Config>) -> Vec<Finding> {
    let mut out = Vec::new();
    for (name, config) in switches {
        let facts = Facts::new(config);
        for rule in RULES {
            for (message, line) in (rule.check)(&facts) {
                out.push(Finding {
                    switch: name.clone(),
                    rule: rule.id,
                    severity: rule.severity,
                    message,
                    line,
                });
            }
        }
    }
    out
}
