//! What each QoS key of the format means on each switch OS: one table ([`QOS_KEYS`]: key → the
//! Onyx lines → the OS10 lines, with the sources and what no source confirms), and the
//! OS-neutral form both compilers honour and the cable check (E051) compares: the scheduler
//! of a port's eight traffic classes ([`Schedule`]).
//!
//! The format's meaning is one for both OSes: switch priority N is traffic class N (Onyx's
//! default map; OS10 is given `qos-map traffic-class` queue N ← qos-group N), a class the
//! fabric gives no ETS keeps Onyx's default WRR weight, and a key an OS cannot honour is
//! refused at the line that writes it (E073), never compiled to something else.
//!
//! Sources (as marked in `../shared/reference/onyx-cli.md` and `os10-roce.md`):
//!
//! - [NV-QOS] NVIDIA Onyx user manual, QoS Commands (`qos trust`, default L2; the
//!   DSCP → switch priority map DSCP/8 and switch priority N → traffic class N, in the
//!   `show qos interface` JSON fixture of ansible-collections/mellanox.onyx).
//! - [NV-ETS] `show dcb ets interface ethernet 1/1 | json-print`, fixture
//!   `tests/unit/modules/fixtures/onyx_show_dcb_ets_interface.cfg` of
//!   ansible-collections/mellanox.onyx @895d3a2: every class WRR, `W` 12 and 13 in turn
//!   (`W(%)` the weight's share of the WRR weights: 12/75 → 16, 13/75 → 17 with two classes
//!   strict); NVIDIA's MLNX-OS manual (SX1018, ETS): "by default each traffic class gets an
//!   equal share".
//! - [NV-PFC] NVIDIA Onyx user manual, Priority Flow Control: PFC off on every priority by
//!   default; `dcb priority-flow-control enable force`, `… priority N enable`, per port
//!   `… mode on force`.
//! - [ONYX-ECN] `traffic-class N congestion-control ecn minimum-absolute … maximum-absolute …`
//!   (Ansible's `onyx_traffic_class`; the oxidized 3.9.2504 capture).
//! - [TOR] the AzureStack TOR capture (OS10 10.5.3.2, `tests/fixtures/corpus/os10/`): `wred`
//!   with `random-detect ecn`, `trust dot1p-map`, `qos-map traffic-class`, network-qos
//!   `pause`/`pfc-cos`, queuing `bandwidth percent` and `random-detect`, `system qos`, and per
//!   port `flowcontrol receive off`, `priority-flow-control mode on`, both `service-policy`
//!   lines, `ets mode on`, `qos-map traffic-class`.
//! - [OS10-UG] Dell EMC SmartFabric OS10 user guide 10.5.1, "Enhanced transmission selection"
//!   (supported releases 10.3.0E or later; "OS10 interfaces do not honor the L2 and L3 priority
//!   fields in ingress traffic by default. Create a trust map"); 10.5.3, "Priority flow
//!   control"; `os10-roce.md` (Dell's RoCE recipe).

use std::fmt;

use crate::types::{Ets, TcMap, TrafficClass};

/// One row of the table: a key (and value) of the format, what Onyx and OS10 print for it,
/// where that comes from, and what of it no source confirms.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub key: &'static str,
    pub onyx: &'static str,
    pub os10: &'static str,
    pub sources: &'static str,
    /// What no capture or document confirms (empty: all of it is confirmed).
    pub unconfirmed: &'static str,
}

/// Every QoS key of the format, on both OSes.
pub const QOS_KEYS: &[Row] = &[
    Row {
        key: "`trust` unset or `L2`",
        onyx: "nothing (`qos trust L2` is the default)",
        os10: "`trust dot1p-map ROCE_TRUST` (`qos-group N dot1p N`), `trust-map dot1p ROCE_TRUST` under `system qos`",
        sources: "[NV-QOS]; [TOR]; [OS10-UG]: without a trust map OS10 classifies nothing",
        unconfirmed: "",
    },
    Row {
        key: "`trust: L3`",
        onyx: "`interface ethernet 1/1 qos trust L3`",
        os10: "`trust dscp-map ROCE_TRUST` (`qos-group N dscp 8N-8N+7`, Onyx's default map), `trust-map dscp ROCE_TRUST`",
        sources: "[NV-QOS] DSCP/8; `os10-roce.md`",
        unconfirmed: "the `dscp-map` spelling (the captures trust dot1p)",
    },
    Row {
        key: "`trust: port`",
        onyx: "`interface ethernet 1/1 qos trust port`",
        os10: "no trust map on the port (priority 0, as Onyx's port default); the other ports then get theirs as `trust-map …` under the interface",
        sources: "[NV-QOS]; [OS10-UG]",
        unconfirmed: "`trust-map` under an interface (no capture)",
    },
    Row {
        key: "`trust: both`",
        onyx: "`interface ethernet 1/1 qos trust both`",
        os10: "refused (E073): no OS10 trust map falls back from DSCP to PCP",
        sources: "[NV-QOS]",
        unconfirmed: "that OS10 has no such trust",
    },
    Row {
        key: "`ets.TC: W` (weight 1-100)",
        onyx: "`interface ethernet 1/1 traffic-class TC dcb ets wrr W`; a class the fabric leaves out keeps its default weight (12 or 13: an equal share)",
        os10: "a queuing policy with a class per queue (`class-map type queuing QN`, `match queue N`; `qos-map traffic-class` queue N ← qos-group N): `bandwidth percent P`, P the class's share of the eight classes' weights (Onyx's defaults for the classes left out) in whole percent summing to 100; `ets mode on` on the port and under `system qos`",
        sources: "[NV-ETS]; [TOR]",
        unconfirmed: "Onyx's default weights of classes 2 and 3 (the capture sets them strict; 12 and 13 by the pattern)",
    },
    Row {
        key: "no `ets` and no `ecn` on a port",
        onyx: "nothing: the eight classes share equally",
        os10: "nothing: OS10's default scheduler, taken as the same (qos-group N in queue N, equal shares; `audit::view::OS10_DEFAULTS`)",
        sources: "[NV-ETS]",
        unconfirmed: "OS10's default queue map and scheduler (no capture shows a port without a queuing policy under load)",
    },
    Row {
        key: "`ets.TC: strict`",
        onyx: "`interface ethernet 1/1 traffic-class TC dcb ets strict`",
        os10: "`priority` in the queue's class",
        sources: "[NV-ETS]; `os10-roce.md`",
        unconfirmed: "the OS10 `priority` spelling (no capture)",
    },
    Row {
        key: "`ecn.TC: { min, max }` (KB)",
        onyx: "`interface ethernet 1/1 traffic-class TC congestion-control ecn minimum-absolute MIN maximum-absolute MAX`",
        os10: "`wred ecn` (`random-detect color green minimum-threshold MIN maximum-threshold MAX drop-probability 100`, `random-detect ecn`), `random-detect ecn` in the queue's class",
        sources: "[ONYX-ECN]; [TOR]",
        unconfirmed: "that Onyx marks every packet at the maximum, as OS10's `drop-probability 100` does",
    },
    Row {
        key: "`ecn.TC`: `min_percent`/`max_percent`, `mode: red` or `both`",
        onyx: "`… minimum-relative … maximum-relative …`, `congestion-control red` (`both`)",
        os10: "refused (E073): a `wred` profile takes KB and marks ECN only",
        sources: "[ONYX-ECN]; [TOR]",
        unconfirmed: "",
    },
    Row {
        key: "`pfc` (a port; on by default where the switch pauses a priority)",
        onyx: "`interface ethernet 1/1 dcb priority-flow-control mode on force`",
        os10: "`priority-flow-control mode on`, `flowcontrol receive off`, `service-policy input type network-qos ROCE_PFC`",
        sources: "[NV-PFC]; [TOR]",
        unconfirmed: "",
    },
    Row {
        key: "`qos.pfc`, the lossless pools' priorities",
        onyx: "`dcb priority-flow-control enable force`, `dcb priority-flow-control priority N enable`",
        os10: "`dcbx enable`; `class-map type network-qos ROCEN` (`match qos-group N`), `policy-map type network-qos ROCE_PFC` (`class ROCEN`, `pause`, `pfc-cos N`)",
        sources: "[NV-PFC]; [TOR]",
        unconfirmed: "",
    },
    Row {
        key: "`qos.pools.NAME`, `type: lossless`",
        onyx: "`traffic pool NAME type lossless`, `traffic pool NAME memory percent M`, `traffic pool NAME map switch-priority N`",
        os10: "no line: OS10 has no traffic pools and sizes the buffers of its PFC classes itself; `memory` refused (E073)",
        sources: "`onyx-cli.md` §a.2; [OS10-UG] buffer management",
        unconfirmed: "",
    },
    Row {
        key: "`qos.pools.NAME`, `type: lossy` or `lossy-mc`",
        onyx: "`traffic pool NAME type lossy` (`lossy-mc`)",
        os10: "refused (E073): OS10 has no traffic pools",
        sources: "`onyx-cli.md` §a.2",
        unconfirmed: "",
    },
    Row {
        key: "`qos.dscp` (`roce`, `cnp`)",
        onyx: "no line: checked against the default map (DSCP/8)",
        os10: "no line: checked against the same map, the DSCP trust map above",
        sources: "[NV-QOS]",
        unconfirmed: "",
    },
    Row {
        key: "`qos.roce`",
        onyx: "`roce MODE`",
        os10: "refused (E073): Onyx's one-shot command",
        sources: "`onyx-cli.md` §a.7",
        unconfirmed: "how `roce lossless` prints",
    },
    Row {
        key: "`mtu` unset (not QoS, but compared across a cable, E051)",
        onyx: "nothing: 1500",
        os10: "nothing: 1532",
        sources: "`onyx-cli.md` §a.8; [OS10-UG] `mtu`",
        unconfirmed: "OS10's 1532 (no capture leaves it unset)",
    },
    Row {
        key: "`qos.preset: roce-lossless`",
        onyx: "the rows above for: pool `roce` lossless 50 % on priority 3, PFC on 3, trust L3, ECN 150/1500 KB on TC3, TC3 WRR 50, TC6 strict (DSCP 26 and 48)",
        os10: "the same rows: no pool (so no `memory`), PFC on 3, the DSCP trust map, `wred ecn` 150/1500 on queue 3, queue 3 40 %, queue 6 `priority`, the others 10 % each",
        sources: "`src/fabric/validate/preset.rs`",
        unconfirmed: "as the rows it stands for",
    },
];

/// A port's MTU without an `mtu` key, on `os` (each OS's rules say, with the source): Onyx
/// 1500, OS10 1532. Not the same number: a cable whose ends leave it unset runs two MTUs
/// (E051).
pub fn default_mtu(os: crate::fabric::Os) -> u16 {
    os.target().rules().default_mtu()
}

/// The table as Markdown, for `docs/format.md`.
pub fn markdown() -> String {
    let mut out =
        String::from("| key | Onyx | OS10 | sources | unconfirmed |\n|---|---|---|---|---|\n");
    for r in QOS_KEYS {
        let unconfirmed = if r.unconfirmed.is_empty() {
            "—"
        } else {
            r.unconfirmed
        };
        out += &format!(
            "| {} | {} | {} | {} | {unconfirmed} |\n",
            r.key, r.onyx, r.os10, r.sources
        );
    }
    out
}

/// Onyx's WRR weight of a traffic class the configuration gives no ETS line: 12 and 13 in
/// turn, an equal eighth each ([NV-ETS]).
pub fn default_weight(tc: TrafficClass) -> u8 {
    12 + tc.get() % 2
}

/// How a traffic class is scheduled: strict, or its whole-percent share of the WRR bandwidth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tsa {
    Strict,
    Share(u8),
}

impl fmt::Display for Tsa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tsa::Strict => f.write_str("strict"),
            Tsa::Share(p) => write!(f, "{p}%"),
        }
    }
}

/// A port's scheduler: the eight traffic classes, each strict or a share of the WRR
/// bandwidth. What the fabric's ETS means on either OS: Onyx's weights (its defaults for the
/// classes left out) as shares, which OS10 takes as `bandwidth percent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Schedule(pub [Tsa; 8]);

impl Schedule {
    /// The scheduler the fabric's ETS gives a port. The shares are whole percent summing to
    /// 100 (largest remainder, ties to the lower class), none below 1 (OS10 takes 1-100).
    pub fn of(ets: &TcMap<Ets>) -> Schedule {
        let weight = |tc: TrafficClass| match ets.get(&tc) {
            Some(Ets::Strict) => None,
            Some(Ets::Wrr(w)) => Some(u32::from(*w)),
            None => Some(u32::from(default_weight(tc))),
        };
        let weights: Vec<Option<u32>> = TrafficClass::ALL.iter().map(|t| weight(*t)).collect();
        let total: u32 = weights.iter().flatten().sum();
        let mut shares = [0u32; 8];
        let mut rest: Vec<(u32, usize)> = Vec::new();
        for (i, w) in weights.iter().enumerate() {
            if let Some(w) = w {
                shares[i] = 100 * w / total;
                rest.push((100 * w % total, i));
            }
        }
        let given: u32 = shares.iter().sum();
        rest.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let short = if rest.is_empty() { 0 } else { 100 - given };
        for (_, i) in rest.iter().take(short as usize) {
            shares[*i] += 1;
        }
        // A class rounded down to nothing takes 1 from the largest share.
        for i in 0..8 {
            if weights[i].is_some() && shares[i] == 0 {
                let largest = (0..8).max_by_key(|j| (shares[*j], std::cmp::Reverse(*j)));
                if let Some(j) = largest.filter(|j| shares[*j] > 1) {
                    shares[j] -= 1;
                    shares[i] = 1;
                }
            }
        }
        let mut out = [Tsa::Strict; 8];
        for (i, w) in weights.iter().enumerate() {
            if w.is_some() {
                out[i] = Tsa::Share(u8::try_from(shares[i]).unwrap_or(100));
            }
        }
        Schedule(out)
    }

    pub fn get(&self, tc: TrafficClass) -> Tsa {
        self.0[usize::from(tc.get())]
    }
}

impl fmt::Display for Schedule {
    /// Classes grouped by how they are scheduled, in class order: `TC 0-2,4-5,7 10% each,
    /// TC 3 40%, TC 6 strict`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut seen: Vec<Tsa> = Vec::new();
        for t in self.0 {
            if !seen.contains(&t) {
                seen.push(t);
            }
        }
        let parts: Vec<String> = seen
            .iter()
            .map(|t| {
                let classes: Vec<u8> = (0u8..8).filter(|i| self.0[usize::from(*i)] == *t).collect();
                let each = if classes.len() > 1 && matches!(t, Tsa::Share(_)) {
                    " each"
                } else {
                    ""
                };
                format!("TC {} {t}{each}", runs(&classes))
            })
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// `0-2,4-5,7`.
fn runs(v: &[u8]) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            v[i].to_string()
        } else {
            format!("{}-{}", v[i], v[j])
        });
        i = j + 1;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ets(pairs: &[(u8, Ets)]) -> TcMap<Ets> {
        let mut m = TcMap::new();
        for (tc, e) in pairs {
            m.insert(TrafficClass::ALL[usize::from(*tc)], *e);
        }
        m
    }

    fn shares(s: Schedule) -> Vec<String> {
        s.0.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn onyx_defaults_are_an_equal_eighth() {
        let s = Schedule::of(&TcMap::new());
        assert_eq!(
            shares(s),
            ["12%", "13%", "12%", "13%", "12%", "13%", "12%", "13%"]
        );
        assert_eq!(s.to_string(), "TC 0,2,4,6 12% each, TC 1,3,5,7 13% each");
    }

    #[test]
    fn the_recipe_gives_queue_3_forty_percent() {
        let s = Schedule::of(&ets(&[(3, Ets::Wrr(50)), (6, Ets::Strict)]));
        assert_eq!(
            shares(s),
            ["10%", "10%", "10%", "40%", "10%", "10%", "strict", "10%"]
        );
        assert_eq!(
            s.to_string(),
            "TC 0-2,4-5,7 10% each, TC 3 40%, TC 6 strict"
        );
    }

    #[test]
    fn shares_sum_to_100_and_none_is_zero() {
        let s = Schedule::of(&ets(&[
            (0, Ets::Wrr(100)),
            (1, Ets::Wrr(100)),
            (2, Ets::Wrr(100)),
            (3, Ets::Wrr(100)),
            (4, Ets::Wrr(100)),
            (5, Ets::Wrr(100)),
            (6, Ets::Wrr(100)),
            (7, Ets::Wrr(1)),
        ]));
        let sum: u32 =
            s.0.iter()
                .map(|t| match t {
                    Tsa::Share(p) => u32::from(*p),
                    Tsa::Strict => 0,
                })
                .sum();
        assert_eq!(sum, 100);
        assert_eq!(s.0[7], Tsa::Share(1));
        let all_strict = ets(&(0..8).map(|t| (t, Ets::Strict)).collect::<Vec<_>>());
        assert_eq!(Schedule::of(&all_strict).0, [Tsa::Strict; 8]);
    }

    #[test]
    fn every_row_names_both_oses() {
        for r in QOS_KEYS {
            assert!(!r.onyx.is_empty() && !r.os10.is_empty() && !r.sources.is_empty());
        }
        assert!(markdown().lines().count() == QOS_KEYS.len() + 2);
    }
}
