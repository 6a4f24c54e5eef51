//! A Linux host's NIC counters, read twice an interval apart in its report, and the health
//! they show (H014–H020): the host pausing the switch without end, drops, pauses with no
//! DCQCN at work, FCS errors, flaps; and each check that could not be made, with why.
//!
//! A reading is `date +%s.%N` (the host's clock), then per RoCE port `ethtool -S IF` and the
//! RDMA device's DCQCN counters (`grep -H . /sys/class/infiniband/DEV/ports/1/hw_counters/…`);
//! the report reader ([`super::report`]) keeps each value with its line. The rates are
//! between the first reading and the last, over the seconds between their `date`s, and are
//! judged against the `verify:` thresholds of the switch the port is cabled to, as
//! `fabric verify --counters` judges the switch's end.
//!
//! The counters (mlx5; `Documentation/networking/device_drivers/ethernet/mellanox/mlx5/
//! counters.rst`; formats from the captures in `tests/fixtures/corpus/hosts/counters/`):
//!
//! | counter | where | meaning | check |
//! |---|---|---|---|
//! | `rx_prioN_pause`, `tx_prioN_pause` | `ethtool -S` | pause frames received / sent on priority N; printed only when PFC is on for N | H014 rate, H016 |
//! | `tx_pause_storm_warning_events`, `tx_pause_storm_error_events` | `ethtool -S` | the NIC paused for long; it hit the storm timeout and stopped pausing | H014 |
//! | `rx_prioN_discards` | `ethtool -S` | received on N, dropped for lack of buffers | H015 |
//! | `rx_discards_phy` | `ethtool -S` | received, dropped for lack of buffers on the port | H015 |
//! | `rx_out_of_buffer` | `ethtool -S` | the receive queue had no software buffer | H015 |
//! | `out_of_buffer` | hw_counters | an RDMA receive queue had no buffer (drop) | H015 |
//! | `np_ecn_marked_roce_packets`, `np_cnp_sent`, `rp_cnp_handled` | hw_counters | ECN-marked RoCE received, CNPs sent, CNPs acted on | H016 |
//! | `rx_crc_errors_phy` | `ethtool -S` | frames dropped for a bad FCS | H017 |
//! | `link_down_events_phy` | `ethtool -S` | times the link went down | H018 |
//!
//! ESXi: no counter is read (H020 says so). `esxcli network nic stats get` has no pause,
//! ECN or link-down counter, and nmlx5's own (`vsish … /net/pNics/vmnicN/stats`) have no
//! published capture to read them by.

use std::collections::BTreeMap;

use super::report::Located;
use super::{Plan, PortPlan};

/// The hw_counters an RDMA device's reading holds (`/sys/class/infiniband/DEV/ports/1/
/// hw_counters/NAME`, one integer per file).
pub const HW_COUNTERS: [&str; 4] = [
    "np_ecn_marked_roce_packets",
    "np_cnp_sent",
    "rp_cnp_handled",
    "out_of_buffer",
];

/// A hw_counters file's path.
pub fn hw_path(dev: &str, name: &str) -> String {
    format!("/sys/class/infiniband/{dev}/ports/1/hw_counters/{name}")
}

/// The device and counter a path names, when it is one of [`HW_COUNTERS`].
pub fn hw_of(path: &str) -> Option<(&str, &'static str)> {
    let rest = path.strip_prefix("/sys/class/infiniband/")?;
    let (dev, name) = rest.split_once("/ports/1/hw_counters/")?;
    let name = HW_COUNTERS.iter().find(|n| **n == name)?;
    Some((dev, name))
}

/// Counters by name (`None`: the file does not exist), each with its line.
pub type Stats = BTreeMap<String, Located<Option<u64>>>;

/// One reading: when (the host's clock, nanoseconds since 1970), and what was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    pub at: Located<u64>,
    /// `ethtool -S` by interface (at its prompt line).
    pub ethtool: BTreeMap<String, Located<Stats>>,
    /// hw_counters by RDMA device.
    pub hw: BTreeMap<String, Located<Stats>>,
}

/// A counter's two readings.
#[derive(Debug)]
struct Pair<'a> {
    first: &'a Located<Option<u64>>,
    second: &'a Located<Option<u64>>,
    delta: u64,
}

impl Pair<'_> {
    /// The lines it comes from, as a finding carries them.
    fn lines(&self) -> String {
        format!("{}\n{}", self.first.text, self.second.text)
    }
}

/// A finding as the host rules push it: rule, interface, message, the lines.
pub type Push<'p> = dyn FnMut(&str, Option<&str>, String, Option<&str>) + 'p;

/// The counter findings of a Linux host: between its report's first and last reading, on
/// each RoCE port.
pub fn linux(push: &mut Push<'_>, plan: &Plan, readings: &[Reading]) {
    let (first, last) = match readings {
        [] => {
            push(
                "H019",
                None,
                "the report holds no counter reading: pauses, drops, FCS errors and flaps are not checked (a report from before `fabric hosts --format collect` read counters: collect it again)".into(),
                None,
            );
            return;
        }
        [one] => {
            push(
                "H019",
                None,
                format!(
                    "the report holds one counter reading (its `date` at line {}): rates need two, an interval apart; pauses, drops, FCS errors and flaps are not checked",
                    one.at.line
                ),
                Some(&one.at.text),
            );
            return;
        }
        [first, .., last] => (first, last),
    };
    if last.at.value <= first.at.value {
        push(
            "H019",
            None,
            format!(
                "the last counter reading's time (line {}) is not after the first's (line {}): no rate",
                last.at.line, first.at.line
            ),
            Some(&format!("{}\n{}", first.at.text, last.at.text)),
        );
        return;
    }
    let seconds = (last.at.value - first.at.value) as f64 / 1e9;
    for p in plan.ports.iter().filter(|p| p.rdma_port) {
        port(push, plan, p, first, last, seconds);
    }
}

/// The counters of one port between two readings.
struct Port<'a> {
    iface: &'a str,
    first: &'a Stats,
    second: &'a Stats,
    seconds: f64,
}

impl<'a> Port<'a> {
    /// A counter's two readings; `Ok(None)` when neither has it; `Err` (why there is no
    /// rate) when one lacks it or it went backwards.
    fn pair(&self, name: &str) -> Result<Option<Pair<'a>>, String> {
        pair(self.first, self.second, name)
    }
}

fn pair<'a>(first: &'a Stats, second: &'a Stats, name: &str) -> Result<Option<Pair<'a>>, String> {
    let (a, b) = (first.get(name), second.get(name));
    let value = |l: Option<&Located<Option<u64>>>| l.and_then(|l| l.value);
    match (value(a), value(b), a, b) {
        (None, None, ..) => Ok(None),
        (Some(x), Some(y), Some(a), Some(b)) if y >= x => Ok(Some(Pair {
            first: a,
            second: b,
            delta: y - x,
        })),
        (Some(x), Some(y), ..) => Err(format!(
            "{name} went from {x} to {y} between the readings (cleared, or the driver reloaded): no rate"
        )),
        (Some(_), None, ..) => Err(format!(
            "{name} is in the first reading, not the last: no rate"
        )),
        (None, Some(_), ..) => Err(format!(
            "{name} is in the last reading, not the first: no rate"
        )),
    }
}

fn port(
    push: &mut Push<'_>,
    plan: &Plan,
    p: &PortPlan,
    first: &Reading,
    last: &Reading,
    seconds: f64,
) {
    let iface = p.name.as_str();
    let at = Some(iface);
    let (Some(a), Some(b)) = (first.ethtool.get(iface), last.ethtool.get(iface)) else {
        push(
            "H019",
            at,
            format!(
                "no `ethtool -S {iface}` in {} counter reading: its counters are not checked",
                if first.ethtool.contains_key(iface) {
                    "the last"
                } else {
                    "the first"
                }
            ),
            None,
        );
        return;
    };
    let port = Port {
        iface,
        first: &a.value,
        second: &b.value,
        seconds,
    };
    let peer = format!("{} {}", p.switch, p.switch_iface);
    let t = p.thresholds;
    let dcqcn = dcqcn(push, p, first, last);
    for prio in &plan.pfc {
        pauses(push, &port, *prio, &peer, t.pause_rate, dcqcn.as_ref());
        let name = format!("rx_prio{prio}_discards");
        over(push, &port, &name, t.drops, "H015", |d, s| {
            format!(
                "{d} packets received on lossless priority {prio} dropped for lack of buffers over {s:.1} s (threshold {}, `verify: drops`)",
                t.drops
            )
        });
    }
    for (name, what) in [
        (
            "tx_pause_storm_warning_events",
            "the NIC sent pauses for longer than its storm warning time",
        ),
        (
            "tx_pause_storm_error_events",
            "the NIC paused for its whole storm timeout and stopped sending pauses (the switch's frames to it may now drop)",
        ),
    ] {
        over(push, &port, name, 0, "H014", |d, s| {
            format!("{what}: {d} time(s) over {s:.1} s: it pauses {peer} without end")
        });
    }
    for (name, what) in [
        (
            "rx_discards_phy",
            "received packets dropped for lack of buffers on the port",
        ),
        (
            "rx_out_of_buffer",
            "times a receive queue had no software buffer (a drop)",
        ),
    ] {
        over(push, &port, name, t.drops, "H015", |d, s| {
            format!(
                "{d} {what} over {s:.1} s (threshold {}, `verify: drops`)",
                t.drops
            )
        });
    }
    if let (Some(dev), Some(ha), Some(hb)) = (
        p.rdma.as_deref(),
        p.rdma.as_ref().and_then(|d| first.hw.get(d)),
        p.rdma.as_ref().and_then(|d| last.hw.get(d)),
    ) {
        let hw = Port {
            iface,
            first: &ha.value,
            second: &hb.value,
            seconds,
        };
        over(push, &hw, "out_of_buffer", t.drops, "H015", |d, s| {
            format!(
                "{dev}: {d} RDMA receives dropped for want of a posted buffer (out_of_buffer) over {s:.1} s (threshold {}, `verify: drops`)",
                t.drops
            )
        });
    }
    over(
        push,
        &port,
        "rx_crc_errors_phy",
        t.errors,
        "H017",
        |d, s| {
            format!(
                "{d} frames from {peer} dropped for a bad FCS over {s:.1} s (threshold {}, `verify: errors`)",
                t.errors
            )
        },
    );
    // The switch's threshold counts state changes; the NIC counts downs, each a down and an up.
    over(
        push,
        &port,
        "link_down_events_phy",
        t.flaps / 2,
        "H018",
        |d, s| {
            format!(
                "the link to {peer} went down {d} time(s) over {s:.1} s: {} state changes (threshold {}, `verify: flaps`)",
                d * 2,
                t.flaps
            )
        },
    );
}

/// A counter beyond `limit` over the interval: `rule`'s finding; one the report cannot give
/// a rate of: H019 (or H020 when the driver does not count it).
fn over(
    push: &mut Push<'_>,
    port: &Port<'_>,
    name: &str,
    limit: u64,
    rule: &str,
    message: impl FnOnce(u64, f64) -> String,
) {
    match port.pair(name) {
        Ok(Some(p)) if p.delta > limit => push(
            rule,
            Some(port.iface),
            message(p.delta, port.seconds),
            Some(&p.lines()),
        ),
        Ok(Some(_)) => {}
        Ok(None) => not_counted(push, port.iface, name),
        Err(why) => push("H019", Some(port.iface), why, None),
    }
}

fn not_counted(push: &mut Push<'_>, iface: &str, name: &str) {
    push(
        "H020",
        Some(iface),
        format!(
            "the driver does not count {name} (not an mlx5 NIC, or a driver without it): the check that needs it is not made"
        ),
        None,
    );
}

/// Whether DCQCN was at work between the readings on the port's RDMA device: ECN-marked
/// RoCE received, CNPs sent, or CNPs acted on. `None` (and why, as H019 or H020) when the
/// report cannot say.
fn dcqcn(push: &mut Push<'_>, p: &PortPlan, first: &Reading, last: &Reading) -> Option<bool> {
    let at = Some(p.name.as_str());
    let Some(dev) = p.rdma.as_deref() else {
        push(
            "H020",
            at,
            format!(
                "the fabric names no RDMA device of {} (`rdma:`): its DCQCN counters are not read, so pauses without ECN are not checked",
                p.name
            ),
            None,
        );
        return None;
    };
    let (Some(a), Some(b)) = (first.hw.get(dev), last.hw.get(dev)) else {
        push(
            "H019",
            at,
            format!(
                "no hw_counters of {dev} in {} counter reading: pauses without ECN are not checked",
                if first.hw.contains_key(dev) {
                    "the last"
                } else {
                    "the first"
                }
            ),
            None,
        );
        return None;
    };
    let mut active = false;
    for name in &HW_COUNTERS[..3] {
        match pair(&a.value, &b.value, name) {
            Ok(Some(p)) => active |= p.delta > 0,
            Ok(None) => {
                push(
                    "H020",
                    at,
                    format!(
                        "{} does not exist: the driver does not count {name}, so pauses without ECN are not checked",
                        hw_path(dev, name)
                    ),
                    None,
                );
                return None;
            }
            Err(why) => {
                push("H019", at, format!("{dev}: {why}"), None);
                return None;
            }
        }
    }
    Some(active)
}

/// One lossless priority's pauses: a rate at or above `limit` either way (H014), pauses
/// with no DCQCN at work (H016), or why they are not checked.
fn pauses(
    push: &mut Push<'_>,
    port: &Port<'_>,
    prio: u8,
    peer: &str,
    limit: u64,
    dcqcn: Option<&bool>,
) {
    let at = Some(port.iface);
    let (rx, tx) = (
        format!("rx_prio{prio}_pause"),
        format!("tx_prio{prio}_pause"),
    );
    let mut moved = Vec::new();
    for (name, sent) in [(&tx, true), (&rx, false)] {
        let p = match port.pair(name) {
            Ok(Some(p)) => p,
            Ok(None) => {
                push(
                    "H020",
                    at,
                    format!(
                        "`ethtool -S {}` has no {name}: mlx5 prints it only when PFC is on for priority {prio}, so the NIC does not run PFC on it (pauses there are not checked)",
                        port.iface
                    ),
                    None,
                );
                continue;
            }
            Err(why) => {
                push("H019", at, why, None);
                continue;
            }
        };
        let rate = p.delta as f64 / port.seconds;
        if rate >= limit as f64 && p.delta > 0 {
            let what = match sent {
                true => format!(
                    "the host sent {rate:.0} pause frames/s on lossless priority {prio}: its receive buffer does not drain, and it pauses {peer} without end"
                ),
                false => format!(
                    "{peer} sent the host {rate:.0} pause frames/s on lossless priority {prio}: it cannot forward what the host sends"
                ),
            };
            push(
                "H014",
                at,
                format!(
                    "{what} ({} over {:.1} s; threshold {limit}/s, `verify: pause_rate`)",
                    p.delta, port.seconds
                ),
                Some(&p.lines()),
            );
        }
        if p.delta > 0 {
            moved.push(p);
        }
    }
    if dcqcn == Some(&false) && !moved.is_empty() {
        let lines: Vec<String> = moved.iter().map(|p| p.lines()).collect();
        let counts: Vec<String> = moved
            .iter()
            .map(|p| format!("{} {}", p.delta, name_of(p)))
            .collect();
        push(
            "H016",
            at,
            format!(
                "paused on lossless priority {prio} ({}) over {:.1} s, and no ECN-marked RoCE received, no CNP sent, none acted on: DCQCN does not slow the senders, PFC does",
                counts.join(", "),
                port.seconds
            ),
            Some(&lines.join("\n")),
        );
    }
}

/// A counter's name, from its line (`rx_prio3_pause: 12`).
fn name_of(p: &Pair<'_>) -> String {
    p.second
        .text
        .split_once(':')
        .map_or_else(|| p.second.text.clone(), |(n, _)| n.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(rows: &[(&str, Option<u64>)]) -> Stats {
        rows.iter()
            .enumerate()
            .map(|(i, (n, v))| {
                let text = format!("{n}: {}", v.map_or("-".into(), |v| v.to_string()));
                (
                    n.to_string(),
                    Located {
                        value: *v,
                        line: i + 1,
                        text,
                    },
                )
            })
            .collect()
    }

    #[test]
    fn a_pair_is_a_rate_only_when_both_readings_hold_it_and_it_did_not_go_back() {
        let a = stats(&[("x", Some(5)), ("y", Some(9)), ("z", Some(1)), ("w", None)]);
        let b = stats(&[("x", Some(12)), ("y", Some(3)), ("w", None)]);
        assert_eq!(pair(&a, &b, "x").unwrap().unwrap().delta, 7);
        assert!(pair(&a, &b, "y").unwrap_err().contains("went from 9 to 3"));
        assert!(pair(&a, &b, "z").unwrap_err().contains("not the last"));
        assert!(pair(&a, &b, "w").unwrap().is_none());
        assert!(pair(&a, &b, "v").unwrap().is_none());
    }

    #[test]
    fn hw_counter_paths_name_their_device_and_counter() {
        let p = hw_path("mlx5_bond_0", "np_cnp_sent");
        assert_eq!(
            p,
            "/sys/class/infiniband/mlx5_bond_0/ports/1/hw_counters/np_cnp_sent"
        );
        assert_eq!(hw_of(&p), Some(("mlx5_bond_0", "np_cnp_sent")));
        assert_eq!(
            hw_of("/sys/class/infiniband/mlx5_0/ports/1/hw_counters/lifespan"),
            None
        );
        assert_eq!(hw_of("/sys/class/net/eth4/ecn/roce_np/cnp_dscp"), None);
    }
}
