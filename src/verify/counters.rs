//! RoCE health from counters (`fabric verify --counters`): each switch's per-port,
//! per-priority counters read twice, an interval apart, in one session; the rates between
//! the two readings judged against the fabric's thresholds (`verify:`, [`Thresholds`]).
//!
//! What a counter counts is OS-neutral ([`Kind`]); each OS reads its own replies into
//! [`Sample`]s that keep the command and the line each value came from, so every rate can be
//! traced to what the switch printed. A counter that went backwards between the readings
//! (cleared, or the switch restarted) gives no rate and is said so, never taken for zero.
//!
//! Input: the two readings of each switch and the fabric; output: [`Rate`]s, findings
//! (V018–V023), the JSON of every reading and the Prometheus text exposition of them.
//! Nothing here talks to a switch or prints.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

use crate::audit::Finding;
use crate::fabric::{Fabric, Switch, Thresholds};
use crate::types::Port;

/// What a counter counts, whatever the OS calls it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// PFC pause frames received on a priority (the far end pauses this port's sending).
    PauseRx(u8),
    /// PFC pause frames sent on a priority (this port's receive buffer is filling).
    PauseTx(u8),
    /// Packets this port marked with ECN (Congestion Experienced) as it sent them.
    Marked,
    /// Packets dropped on a traffic class (its queue or buffer full).
    Drops(u8),
    /// Frames received with a bad FCS (CRC errors).
    Errors,
    /// Times the link changed state (down, or up again: a flap is two).
    Flaps,
    /// Times the PFC watchdog found a priority's queue stuck in a pause storm.
    Watchdog(u8),
}

/// Each kind's names: in the JSON, in Prometheus (a counter; its label), and for people.
struct Names {
    json: &'static str,
    metric: &'static str,
    label: Option<&'static str>,
    help: &'static str,
}

impl Kind {
    fn names(self) -> Names {
        let n = |json, metric, label, help| Names {
            json,
            metric,
            label,
            help,
        };
        match self {
            Kind::PauseRx(_) => n(
                "pause_rx",
                "fabric_pfc_pause_rx_frames_total",
                Some("priority"),
                "PFC pause frames received on a priority.",
            ),
            Kind::PauseTx(_) => n(
                "pause_tx",
                "fabric_pfc_pause_tx_frames_total",
                Some("priority"),
                "PFC pause frames sent on a priority.",
            ),
            Kind::Marked => n(
                "ecn_marked",
                "fabric_ecn_marked_packets_total",
                None,
                "Packets marked ECN Congestion Experienced by the port.",
            ),
            Kind::Drops(_) => n(
                "drops",
                "fabric_dropped_packets_total",
                Some("tc"),
                "Packets dropped on a traffic class.",
            ),
            Kind::Errors => n(
                "fcs_errors",
                "fabric_fcs_errors_total",
                None,
                "Frames received with a bad FCS (CRC errors).",
            ),
            Kind::Flaps => n(
                "link_changes",
                "fabric_link_state_changes_total",
                None,
                "Times the link changed state (a flap is two).",
            ),
            Kind::Watchdog(_) => n(
                "pfc_watchdog",
                "fabric_pfc_watchdog_storms_total",
                Some("priority"),
                "Pause storms the PFC watchdog detected on a priority.",
            ),
        }
    }

    /// The priority or traffic class it is counted on.
    pub fn class(self) -> Option<u8> {
        match self {
            Kind::PauseRx(n) | Kind::PauseTx(n) | Kind::Drops(n) | Kind::Watchdog(n) => Some(n),
            Kind::Marked | Kind::Errors | Kind::Flaps => None,
        }
    }

    /// Its name in the JSON (`pause_rx`).
    pub fn json(self) -> &'static str {
        self.names().json
    }
}

/// One of each kind.
const EACH: [Kind; 7] = [
    Kind::PauseRx(0),
    Kind::PauseTx(0),
    Kind::Marked,
    Kind::Drops(0),
    Kind::Errors,
    Kind::Flaps,
    Kind::Watchdog(0),
];

/// Every metric name the Prometheus output may have (the dashboard in `docs/` uses these).
pub fn metric_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = EACH.iter().map(|k| k.names().metric).collect();
    names.extend(["fabric_verify_findings", "fabric_counters_interval_seconds"]);
    names
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Kind::PauseRx(p) => write!(f, "pause frames received on priority {p}"),
            Kind::PauseTx(p) => write!(f, "pause frames sent on priority {p}"),
            Kind::Marked => f.write_str("ECN-marked packets"),
            Kind::Drops(tc) => write!(f, "drops on traffic class {tc}"),
            Kind::Errors => f.write_str("FCS errors"),
            Kind::Flaps => f.write_str("link state changes"),
            Kind::Watchdog(p) => write!(f, "PFC watchdog storms on priority {p}"),
        }
    }
}

/// One counter's value as read, with the command that read it and the line it was on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sample {
    pub value: u64,
    pub command: String,
    pub line: String,
}

/// One reading of a switch's counters: each port's, by kind.
pub type Counters = BTreeMap<Port, BTreeMap<Kind, Sample>>;

/// A reading and when it was taken.
#[derive(Clone, Debug)]
pub struct Reading {
    pub at: std::time::Instant,
    pub counters: Counters,
}

/// What the switch's OS cannot read of the counters, and why: the checks that need them are
/// not made (and the report says so).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotRead {
    pub what: &'static str,
    pub why: &'static str,
}

/// A counter's two readings and the rate between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Rate {
    pub switch: String,
    pub port: Port,
    /// The port as the switch's OS names it.
    pub name: String,
    pub kind: Kind,
    pub first: Sample,
    pub second: Sample,
    /// Seconds between the two readings.
    pub seconds: f64,
}

impl Rate {
    /// How much it counted between the readings.
    pub fn delta(&self) -> u64 {
        self.second.value - self.first.value
    }

    /// How much it counted per second.
    pub fn per_second(&self) -> f64 {
        match self.seconds > 0.0 {
            true => self.delta() as f64 / self.seconds,
            false => 0.0,
        }
    }
}

/// The rates of one switch's counters between two readings, and what gave none (a counter
/// that went backwards, or that the second reading lacks).
pub fn rates(sw: &Switch, first: &Reading, second: &Reading) -> (Vec<Rate>, Vec<String>) {
    let seconds = second.at.saturating_duration_since(first.at).as_secs_f64();
    let (mut out, mut problems) = (Vec::new(), Vec::new());
    for (port, kinds) in &first.counters {
        let name = sw.port_name(*port);
        for (kind, a) in kinds {
            let Some(b) = second.counters.get(port).and_then(|k| k.get(kind)) else {
                problems.push(format!(
                    "{name}: {kind}: read the first time (`{}`), not the second",
                    a.line.trim()
                ));
                continue;
            };
            if b.value < a.value {
                problems.push(format!(
                    "{name}: {kind}: went from {} to {} (cleared, or the switch restarted): no rate",
                    a.value, b.value
                ));
                continue;
            }
            out.push(Rate {
                switch: sw.hostname.to_string(),
                port: *port,
                name: name.clone(),
                kind: *kind,
                first: a.clone(),
                second: b.clone(),
                seconds,
            });
        }
    }
    (out, problems)
}

/// The fabric's cabled ports of `sw`: those whose counters are read.
pub fn cabled(sw: &Switch) -> BTreeSet<Port> {
    sw.ports
        .iter()
        .filter(|(_, s)| s.peer.is_some())
        .map(|(p, _)| *p)
        .collect()
}

/// The priorities the fabric makes lossless on `sw` (its PFC's).
pub fn lossless(sw: &Switch) -> BTreeSet<u8> {
    sw.qos
        .pfc
        .as_ref()
        .filter(|p| p.enabled)
        .map(|p| p.priorities.iter().map(|p| p.get()).collect())
        .unwrap_or_default()
}

/// One finding of a port's counters: the rule, its message, the line that shows it.
struct Hit<'a> {
    rule: &'static str,
    rate: &'a Rate,
    text: String,
}

/// The findings of the rates of `fabric`'s switches (V018–V023), sorted by switch, rule and
/// port; each names the port as its OS does, the counter, the rate and the threshold, and
/// carries the lines of both readings. A cable between two switches that flaps is one
/// finding, at its first end by switch and port, both ends' changes in it.
pub fn findings(fabric: &Fabric, rates: &[Rate]) -> Vec<Finding> {
    let mut by_port: BTreeMap<(&str, Port), Vec<&Rate>> = BTreeMap::new();
    for r in rates {
        by_port.entry((&r.switch, r.port)).or_default().push(r);
    }
    let mut hits: BTreeMap<(&str, Port), Vec<Hit<'_>>> = BTreeMap::new();
    for ((switch, port), rs) in &by_port {
        if let Some(sw) = fabric.switches.get(*switch) {
            hits.insert((switch, *port), port_hits(sw, rs));
        }
    }
    let flapping: BTreeSet<(String, Port)> = hits
        .iter()
        .filter(|(_, hs)| hs.iter().any(|h| h.rule == "V022"))
        .map(|((s, p), _)| (s.to_string(), *p))
        .collect();
    let mut out = Vec::new();
    for ((switch, port), hs) in hits {
        let sw = &fabric.switches[switch];
        let far = match sw.ports.get(&port).and_then(|s| s.peer.as_ref()) {
            Some(crate::fabric::Peer::Switch { switch: f, port: q }) => {
                Some((f.to_string(), *q)).filter(|e| flapping.contains(e))
            }
            _ => None,
        };
        for mut h in hs {
            if h.rule == "V022"
                && let Some((f, q)) = &far
            {
                // The cable's second end: said at its first.
                if (f.as_str(), *q) < (switch, port) {
                    continue;
                }
                let name = fabric
                    .switches
                    .get(f.as_str())
                    .map_or_else(|| q.to_string(), |s| s.port_name(*q));
                h.text.push_str(&format!("; its far end {f} {name} too"));
            }
            out.push(finding(sw, h));
        }
    }
    out.sort_by(|a, b| (&a.switch, a.rule, &a.interfaces).cmp(&(&b.switch, b.rule, &b.interfaces)));
    out
}

/// The hits of one port's rates.
fn port_hits<'a>(sw: &Switch, rs: &[&'a Rate]) -> Vec<Hit<'a>> {
    let t: Thresholds = sw.verify;
    let lossless = lossless(sw);
    let mut hits = Vec::new();
    let marked = rs.iter().find(|r| r.kind == Kind::Marked);
    for r in rs {
        let (d, ps) = (r.delta(), r.per_second());
        let secs = r.seconds;
        match r.kind {
            Kind::PauseRx(p) | Kind::PauseTx(p) => {
                let dir = if matches!(r.kind, Kind::PauseRx(_)) { "received" } else { "sent" };
                if lossless.contains(&p) && ps >= t.pause_rate as f64 {
                    hits.push(Hit {
                        rule: "V018",
                        rate: r,
                        text: format!(
                            "{ps:.0} pause frames/s {dir} on lossless priority {p} over {secs:.1} s (threshold {}/s, `verify: pause_rate`)",
                            t.pause_rate
                        ),
                    });
                } else if !lossless.contains(&p) && d > 0 {
                    hits.push(Hit {
                        rule: "V018",
                        rate: r,
                        text: format!(
                            "{d} pause frames {dir} on priority {p}, which the fabric does not make lossless, over {secs:.1} s: the far end pauses a priority this switch does not"
                        ),
                    });
                }
                // A lossless port paused by the far end fills its queue: ECN should mark.
                if matches!(r.kind, Kind::PauseRx(_))
                    && lossless.contains(&p)
                    && d > 0
                    && marked.is_some_and(|m| m.delta() == 0)
                {
                    hits.push(Hit {
                        rule: "V020",
                        rate: r,
                        text: format!(
                            "{d} pause frames received on lossless priority {p} over {secs:.1} s and no packet marked ECN: DCQCN never slows the senders, PFC does"
                        ),
                    });
                }
            }
            Kind::Drops(tc) if lossless.contains(&tc) && d > t.drops => hits.push(Hit {
                rule: "V019",
                rate: r,
                text: format!(
                    "{d} dropped on lossless traffic class {tc} over {secs:.1} s (threshold {}, `verify: drops`)",
                    t.drops
                ),
            }),
            Kind::Errors if d > t.errors => hits.push(Hit {
                rule: "V021",
                rate: r,
                text: format!(
                    "{d} frames with a bad FCS received over {secs:.1} s (threshold {}, `verify: errors`)",
                    t.errors
                ),
            }),
            Kind::Flaps if d > t.flaps => hits.push(Hit {
                rule: "V022",
                rate: r,
                text: format!(
                    "the link changed state {d} times over {secs:.1} s (threshold {}, `verify: flaps`)",
                    t.flaps
                ),
            }),
            Kind::Watchdog(p) if d > 0 => hits.push(Hit {
                rule: "V023",
                rate: r,
                text: format!(
                    "the PFC watchdog found priority {p}'s queue stuck {d} times over {secs:.1} s"
                ),
            }),
            _ => {}
        }
    }
    hits
}

fn finding(sw: &Switch, h: Hit<'_>) -> Finding {
    let rule = super::rule(h.rule).expect("a counters rule");
    let name = h.rate.name.clone();
    Finding {
        switch: sw.hostname.to_string(),
        rule: rule.id,
        name: rule.name,
        severity: rule.severity,
        message: format!("{name}: {}", h.text),
        interfaces: Some(name),
        line: Some(format!(
            "{} → {}",
            h.rate.first.line.trim(),
            h.rate.second.line.trim()
        )),
    }
}

/// A rate as the JSON output gives it: both readings with their commands and lines.
#[derive(Serialize)]
pub struct RateJson<'a> {
    pub switch: &'a str,
    pub port: &'a str,
    pub counter: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<u8>,
    pub delta: u64,
    pub per_second: f64,
    pub seconds: f64,
    pub first: &'a Sample,
    pub second: &'a Sample,
}

impl Rate {
    /// The rate as the JSON output gives it.
    pub fn json(&self) -> RateJson<'_> {
        RateJson {
            switch: &self.switch,
            port: &self.name,
            counter: self.kind.json(),
            class: self.kind.class(),
            delta: self.delta(),
            per_second: (self.per_second() * 1000.0).round() / 1000.0,
            seconds: (self.seconds * 1000.0).round() / 1000.0,
            first: &self.first,
            second: &self.second,
        }
    }
}

/// The rates' second readings in Prometheus' text exposition format (version 0.0.4), for
/// node_exporter's textfile collector: one counter family per kind (`# HELP`, `# TYPE`),
/// labels `switch`, `port` (as the switch's OS names it) and the class; then the findings
/// per switch and rule, and the interval read over.
pub fn prometheus(rates: &[Rate], findings: &[Finding]) -> String {
    let mut families: BTreeMap<&'static str, (Names, Vec<String>)> = BTreeMap::new();
    for r in rates {
        let names = r.kind.names();
        let mut labels = format!(
            "switch=\"{}\",port=\"{}\"",
            label(&r.switch),
            label(&r.name)
        );
        if let (Some(l), Some(c)) = (names.label, r.kind.class()) {
            let _ = write!(labels, ",{l}=\"{c}\"");
        }
        let line = format!("{}{{{labels}}} {}", names.metric, r.second.value);
        families
            .entry(names.metric)
            .or_insert_with(|| (names, Vec::new()))
            .1
            .push(line);
    }
    let mut out = String::new();
    for (metric, (names, lines)) in &families {
        let _ = writeln!(out, "# HELP {metric} {}", names.help);
        let _ = writeln!(out, "# TYPE {metric} counter");
        for l in lines {
            out.push_str(l);
            out.push('\n');
        }
    }
    let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for f in findings {
        *counts.entry((&f.switch, f.rule)).or_default() += 1;
    }
    out.push_str(
        "# HELP fabric_verify_findings Findings of `fabric verify` per switch and check.\n",
    );
    out.push_str("# TYPE fabric_verify_findings gauge\n");
    for ((switch, rule), n) in counts {
        let _ = writeln!(
            out,
            "fabric_verify_findings{{switch=\"{}\",rule=\"{rule}\"}} {n}",
            label(switch)
        );
    }
    if let Some(secs) = rates.first().map(|r| r.seconds) {
        out.push_str("# HELP fabric_counters_interval_seconds Seconds between the two readings the rates are over.\n");
        out.push_str("# TYPE fabric_counters_interval_seconds gauge\n");
        let _ = writeln!(out, "fabric_counters_interval_seconds {secs:.3}");
    }
    out
}

/// A label value escaped as the exposition format wants: `\`, `"` and newlines.
fn label(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

/// One port's rates per second, for the watch table.
#[derive(Default)]
struct Row<'a> {
    switch: &'a str,
    port: &'a str,
    pauses: f64,
    drops: f64,
    errors: f64,
    marked: f64,
    flaps: u64,
}

/// `fabric verify --counters --watch`'s table: each port's pauses (received and sent, all
/// priorities), drops, FCS errors and ECN marks per second over the last interval, and its
/// flaps; worst first (pauses, then drops, errors, flaps, marks), at most `rows` rows; then
/// the findings, one line each.
pub fn table(rates: &[Rate], findings: &[Finding], rows: usize) -> String {
    let mut ports: BTreeMap<(&str, Port), Row<'_>> = BTreeMap::new();
    for r in rates {
        let row = ports.entry((&r.switch, r.port)).or_insert_with(|| Row {
            switch: &r.switch,
            port: &r.name,
            ..Row::default()
        });
        let ps = r.per_second();
        match r.kind {
            Kind::PauseRx(_) | Kind::PauseTx(_) => row.pauses += ps,
            Kind::Drops(_) => row.drops += ps,
            Kind::Errors => row.errors += ps,
            Kind::Marked => row.marked += ps,
            Kind::Flaps => row.flaps += r.delta(),
            Kind::Watchdog(_) => {}
        }
    }
    let mut rows_all: Vec<Row<'_>> = ports.into_values().collect();
    let key = |r: &Row<'_>| (r.pauses, r.drops, r.errors, r.flaps as f64, r.marked);
    rows_all.sort_by(|a, b| {
        key(b)
            .partial_cmp(&key(a))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| (a.switch, a.port).cmp(&(b.switch, b.port)))
    });
    let sw = rows_all
        .iter()
        .map(|r| r.switch.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let pw = rows_all
        .iter()
        .map(|r| r.port.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let mut out = format!(
        "{:sw$}  {:pw$}  {:>10}  {:>10}  {:>10}  {:>10}  {:>5}\n",
        "switch", "port", "pauses/s", "drops/s", "errors/s", "marked/s", "flaps"
    );
    for r in rows_all.iter().take(rows) {
        let _ = writeln!(
            out,
            "{:sw$}  {:pw$}  {:>10.1}  {:>10.1}  {:>10.1}  {:>10.1}  {:>5}",
            r.switch, r.port, r.pauses, r.drops, r.errors, r.marked, r.flaps
        );
    }
    if rows_all.len() > rows {
        let _ = writeln!(out, "… {} more port(s)", rows_all.len() - rows);
    }
    for f in findings {
        let _ = writeln!(out, "{} {} {}: {}", f.rule, f.severity, f.switch, f.message);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// A fabric of one Onyx switch with PFC on priority 3, its ports 1/1 (a host) and 1/2
    /// (another switch's 1/2), and `verify` as given.
    fn fabric(verify: &str) -> Fabric {
        let text = format!(
            "onyx: 3.10.4206\n{verify}qos:\n  pools:\n    roce: {{ type: lossless, memory: 50, priorities: [3] }}\n  pfc: {{ priorities: [3] }}\nswitches:\n  a:\n    model: SN2700\n    ports:\n      1/1: {{ peer: {{ host: gpu01, port: ens1f0 }} }}\n  b:\n    model: SN2700\nlinks:\n  - {{ a: a:1/2, b: b:1/2 }}\n"
        );
        let mut sources = crate::diag::Sources::default();
        let loaded = crate::fabric::parse_bytes("t.yaml", text.into_bytes(), &mut sources)
            .unwrap_or_else(|d| panic!("{}", crate::diag::render(&[d], &sources, false)));
        let (fab, diags) = crate::fabric::validate(&loaded.raw, loaded.file);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        fab.expect("valid")
    }

    fn sample(value: u64) -> Sample {
        Sample {
            value,
            command: "show".into(),
            line: format!("{value} counted"),
        }
    }

    /// Two readings of switch `sw`, 2 s apart: each (port, kind, first, second).
    fn rates_of(f: &Fabric, sw: &str, counts: &[(&str, Kind, u64, u64)]) -> Vec<Rate> {
        let at = Instant::now();
        let (mut a, mut b) = (Counters::new(), Counters::new());
        for (p, k, x, y) in counts {
            let p: Port = p.parse().unwrap();
            a.entry(p).or_default().insert(*k, sample(*x));
            b.entry(p).or_default().insert(*k, sample(*y));
        }
        let first = Reading { at, counters: a };
        let second = Reading {
            at: at + Duration::from_secs(2),
            counters: b,
        };
        let (rates, problems) = rates(&f.switches[sw], &first, &second);
        assert!(problems.is_empty(), "{problems:?}");
        rates
    }

    fn rules(found: &[Finding]) -> Vec<(&str, &str)> {
        found
            .iter()
            .map(|f| (f.rule, f.interfaces.as_deref().unwrap_or("")))
            .collect()
    }

    #[test]
    fn each_counter_judged_against_the_fabric_thresholds() {
        let f = fabric("");
        let r = rates_of(
            &f,
            "a",
            &[
                ("1/1", Kind::PauseRx(3), 0, 4000),
                ("1/1", Kind::Marked, 10, 500),
                ("1/1", Kind::PauseTx(5), 0, 1),
                ("1/2", Kind::PauseRx(3), 0, 10),
                ("1/2", Kind::Marked, 7, 7),
                ("1/2", Kind::Drops(3), 0, 1),
                ("1/2", Kind::Drops(0), 0, 900),
                ("1/2", Kind::Errors, 5, 6),
                ("1/2", Kind::Watchdog(3), 1, 2),
            ],
        );
        let found = findings(&f, &r);
        assert_eq!(
            rules(&found),
            [
                ("V018", "1/1"),
                ("V018", "1/1"),
                ("V019", "1/2"),
                ("V020", "1/2"),
                ("V021", "1/2"),
                ("V023", "1/2"),
            ],
            "{found:#?}"
        );
        // 4000 pauses over 2 s: 2000/s; one pause on a lossy priority.
        assert!(
            found[0]
                .message
                .contains("2000 pause frames/s received on lossless priority 3")
        );
        assert!(
            found[1]
                .message
                .contains("priority 5, which the fabric does not make lossless")
        );
        assert_eq!(found[0].line.as_deref(), Some("0 counted → 4000 counted"));
        // Raised thresholds: none of these.
        let lenient = fabric("verify: { pause_rate: 5000, drops: 5, errors: 1 }\n");
        let r = rates_of(
            &lenient,
            "a",
            &[
                ("1/1", Kind::PauseRx(3), 0, 4000),
                ("1/1", Kind::Marked, 0, 9),
                ("1/2", Kind::Drops(3), 0, 5),
                ("1/2", Kind::Errors, 0, 1),
            ],
        );
        assert!(findings(&lenient, &r).is_empty());
    }

    #[test]
    fn a_flapping_cable_is_one_finding_at_its_first_end() {
        let f = fabric("");
        let mut r = rates_of(&f, "a", &[("1/2", Kind::Flaps, 0, 4)]);
        r.extend(rates_of(&f, "b", &[("1/2", Kind::Flaps, 3, 7)]));
        let found = findings(&f, &r);
        assert_eq!(rules(&found), [("V022", "1/2")]);
        assert_eq!(found[0].switch, "a");
        assert!(
            found[0].message.ends_with("its far end b 1/2 too"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn a_counter_gone_backwards_or_missing_gives_no_rate_and_says_so() {
        let f = fabric("");
        let at = Instant::now();
        let p: Port = "1/1".parse().unwrap();
        let mut a = Counters::new();
        a.entry(p).or_default().insert(Kind::Errors, sample(9));
        a.entry(p).or_default().insert(Kind::Flaps, sample(1));
        let mut b = Counters::new();
        b.entry(p).or_default().insert(Kind::Errors, sample(2));
        let (rates, problems) = rates(
            &f.switches["a"],
            &Reading { at, counters: a },
            &Reading { at, counters: b },
        );
        assert!(rates.is_empty());
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("went from 9 to 2"), "{problems:?}");
        assert!(problems[1].contains("not the second"), "{problems:?}");
    }

    #[test]
    fn prometheus_names_escapes_and_types() {
        let f = fabric("");
        let mut r = rates_of(&f, "a", &[("1/1", Kind::PauseRx(3), 0, 4000)]);
        r[0].switch = "a\"b\\c".into();
        let text = prometheus(&r, &[]);
        assert!(
            text.contains("# TYPE fabric_pfc_pause_rx_frames_total counter\n"),
            "{text}"
        );
        assert!(
            text.contains("fabric_pfc_pause_rx_frames_total{switch=\"a\\\"b\\\\c\",port=\"1/1\",priority=\"3\"} 4000\n"),
            "{text}"
        );
        assert!(
            text.ends_with("fabric_counters_interval_seconds 2.000\n"),
            "{text}"
        );
    }
}
