//! The lab's Cumulus switch's counter views of a port, from what it has counted
//! ([`crate::lab::counters`]), in the layouts of NVIDIA's documentation (5.5+): `nv show
//! interface swpN counters` (the 5.15 guide's), `… counters qos` and `… qos pfc-watchdog`
//! (the NVUE reference's). Columns as wide as their widest cell, two blanks between, each
//! section's title underlined with `=` three longer than it, as the examples print them.
//!
//! The lab's choices ([`Unconfirmed`] where NVUE's is unknown): a port's packets all unicast,
//! of 1,024 octets, spread evenly over the eight classes and priority groups; a byte value
//! past 1,023 printed rounded to two decimals in KB, MB, GB or TB of 1,024
//! ([`Unconfirmed::RoundedBytes`]); a pause of the lab's lasts 100 (the duration's unit is
//! not documented); the watchdog's status always `OK` ([`Unconfirmed::WatchdogStatus`]: the
//! lab does not model whether a queue is stuck now, only the detections it counts); `pfc-watchdog` of a port the applied
//! tree gives none is not an item ([`Unconfirmed::NoSuchItem`]).

use std::fmt::Write as _;

use super::{CumulusSwitch, Unconfirmed};
use crate::cumulus::{rules, tree};
use crate::lab::Reply;
use crate::lab::counters::PortCounters;
use crate::lab::network::World;

/// Whether `nv show interface NAME WORDS…` is one of these.
pub fn answers(words: &[&str]) -> bool {
    matches!(
        words,
        ["counters"] | ["counters", "qos"] | ["qos", "pfc-watchdog"]
    )
}

/// `nv show interface NAME WORDS…` (one of [`answers`]'), over `world` (the switch alone
/// when it is not cabled into one).
pub fn show(sw: &CumulusSwitch, name: &str, words: &[&str], world: Option<&World>) -> Reply {
    let Some(p) = rules::port(name) else {
        return Unconfirmed::NoSuchItem.reply();
    };
    let watchdog = tree::get(&sw.applied, &["interface", name, "qos", "pfc-watchdog"]);
    if words == ["qos", "pfc-watchdog"] && watchdog.is_none() {
        return Unconfirmed::NoSuchItem.reply();
    }
    let count = |w: &World| {
        w.network
            .counters(&w.net(), crate::cumulus::target::OS, &[p])
            .pop()
            .unwrap_or_default()
    };
    let c = match world {
        Some(w) => count(w),
        None => {
            let me = tree::value(&sw.applied, &["system", "hostname"]).unwrap_or("cumulus");
            count(&World::alone(me, super::net::node(&sw.applied)))
        }
    };
    Reply::text(match words {
        ["counters"] => counters(&c),
        ["counters", "qos"] => qos(&c),
        _ => pfc_watchdog(&c),
    })
}

/// A value with a byte unit, as NVUE prints one.
pub fn human(v: u64) -> String {
    if v < 1024 {
        return format!("{v} Bytes");
    }
    let units: Vec<&str> = Unconfirmed::RoundedBytes.text().split(',').collect();
    let mut scaled = v as f64 / 1024.0;
    for (i, unit) in units.iter().enumerate() {
        if scaled < 1024.0 || i + 1 == units.len() {
            return unit.replacen("{}", &format!("{scaled:.2}"), 1);
        }
        scaled /= 1024.0;
    }
    format!("{v} Bytes")
}

/// A table: each column as wide as its widest cell, two blanks between, a rule of dashes
/// under the header; each line indented by `indent`.
fn table(out: &mut String, indent: &str, header: &[&str], rows: &[Vec<String>]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r.get(i).map_or(0, String::len))
                .chain([header[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |out: &mut String, cells: &mut dyn Iterator<Item = String>| {
        let cells: Vec<String> = cells
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        let _ = writeln!(out, "{indent}{}", cells.join("  "));
    };
    line(out, &mut header.iter().map(|h| h.to_string()));
    line(out, &mut widths.iter().map(|w| "-".repeat(*w)));
    for r in rows {
        line(out, &mut r.iter().cloned());
    }
}

/// A section's title, underlined.
fn section(out: &mut String, title: &str) {
    let _ = writeln!(out, "\n{title}\n{}", "=".repeat(title.len() + 3));
}

/// Rows of a counter and its receive and transmit values.
fn pairs(rows: &[(&str, String, String)]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|(n, r, t)| vec![n.to_string(), r.clone(), t.clone()])
        .collect()
}

/// A row per class `0`…`7`, its cells after the class given by `cells`.
fn per_class(cells: impl Fn(usize) -> Vec<String>) -> Vec<Vec<String>> {
    (0..8)
        .map(|k| {
            let mut row = vec![k.to_string()];
            row.extend(cells(k));
            row
        })
        .collect()
}

fn ingress(out: &mut String, c: &PortCounters) {
    section(out, "Ingress Buffer Statistics");
    let rows = per_class(|_| vec![(c.rx_packets / 8).to_string(), human(0), human(0)]);
    let header = [
        "priority-group",
        "rx-frames",
        "rx-buffer-discards",
        "rx-shared-buffer-discards",
    ];
    table(out, "    ", &header, &rows);
}

/// `nv show interface swpN counters`.
fn counters(c: &PortCounters) -> String {
    let mut out = String::new();
    let top = vec![vec![
        "carrier-transitions".to_string(),
        c.link_changes.to_string(),
        String::new(),
    ]];
    table(&mut out, "", &["", "operational", "applied"], &top);
    let (rx, tx) = (c.rx_packets, c.tx_packets);
    let n = |v: u64| v.to_string();
    let na = || "n/a".to_string();
    let drops: u64 = c.drops.iter().sum();
    let head = ["Counter", "Receive", "Transmit"];
    section(&mut out, "Detailed Counters");
    let rows = [
        ("Broadcast Packets", n(0), n(0)),
        ("Multicast Packets", n(0), n(0)),
        ("Total Octets", n(rx * 1024), n(tx * 1024)),
        ("Total Packets", n(rx), n(tx)),
        ("Unicast Packets", n(rx), n(tx)),
    ];
    table(&mut out, "    ", &head, &pairs(&rows));
    section(&mut out, "Drop Counters");
    let rows = [
        ("ACL Drops", n(0), na()),
        ("Buffer Drops", n(0), na()),
        ("Non-Queue Drops", na(), n(0)),
        ("Queue Drops", na(), n(drops)),
        ("Total Drops", n(0), n(drops)),
    ];
    table(&mut out, "    ", &head, &pairs(&rows));
    section(&mut out, "Error Counters");
    let e = c.fcs_errors;
    let rows = [
        ("Alignment Errors", n(0), na()),
        ("FCS Errors", n(e), na()),
        ("Jabber Errors", n(0), na()),
        ("Length Errors", n(0), na()),
        ("Oversize Errors", n(0), na()),
        ("Symbol Errors", n(0), na()),
        ("Total Errors", n(e), n(0)),
        ("Undersize Errors", n(0), na()),
    ];
    table(&mut out, "    ", &head, &pairs(&rows));
    section(&mut out, "Packet Size Statistics");
    let sizes = [
        "64",
        "65-127",
        "128-255",
        "256-511",
        "512-1023",
        "1024-1518",
        "1519-2047",
        "2048-4095",
        "4096-16383",
    ];
    let rows: Vec<(&str, String, String)> = sizes
        .iter()
        .map(|s| match *s {
            "1024-1518" => (*s, n(rx), n(tx)),
            _ => (*s, n(0), n(0)),
        })
        .collect();
    table(&mut out, "    ", &head, &pairs(&rows));
    ingress(&mut out, c);
    out
}

/// `nv show interface swpN counters qos`.
fn qos(c: &PortCounters) -> String {
    let mut out = String::new();
    ingress(&mut out, c);
    out = out.trim_start_matches('\n').to_string();
    section(&mut out, "Egress Queue Statistics");
    let frames = c.tx_packets / 8;
    let rows = per_class(|k| {
        vec![
            frames.to_string(),
            human(frames * 1024),
            human(c.drops[k]),
            "0".into(),
        ]
    });
    let header = [
        "traffic-class",
        "tx-frames",
        "tx-bytes",
        "tx-uc-buffer-discards",
        "wred-discards",
    ];
    table(&mut out, "    ", &header, &rows);
    section(&mut out, "PFC Statistics");
    let rows = per_class(|k| {
        let (rx, tx) = (c.pause_rx[k], c.pause_tx[k]);
        vec![
            rx.to_string(),
            (rx * 100).to_string(),
            tx.to_string(),
            (tx * 100).to_string(),
        ]
    });
    let header = [
        "switch-priority",
        "rx-pause-frames",
        "rx-pause-duration",
        "tx-pause-frames",
        "tx-pause-duration",
    ];
    table(&mut out, "    ", &header, &rows);
    section(&mut out, "Qos Port Statistics");
    let na = || "n/a".to_string();
    let rows = [
        ("ecn-marked-packets", na(), c.marked_total().to_string()),
        ("mc-buffer-discards", na(), "0".into()),
        ("pause-frames", "0".into(), "0".into()),
    ];
    table(
        &mut out,
        "    ",
        &["Counter", "Receive", "Transmit"],
        &pairs(&rows),
    );
    out
}

/// `nv show interface swpN qos pfc-watchdog`.
fn pfc_watchdog(c: &PortCounters) -> String {
    let mut out = String::new();
    let state = vec![vec![
        "state".to_string(),
        "enabled".to_string(),
        "enabled".to_string(),
    ]];
    table(&mut out, "", &["", "operational", "applied"], &state);
    section(&mut out, "PFC WD Status");
    let rows = per_class(|k| {
        vec![
            Unconfirmed::WatchdogStatus.text().to_string(),
            c.watchdog[k].to_string(),
        ]
    });
    table(
        &mut out,
        "    ",
        &["traffic-class", "status", "deadlock-count"],
        &rows,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Port;
    use crate::verify::Observed;
    use crate::verify::counters::Kind;

    /// What the lab prints, the verify readers read back.
    #[test]
    fn the_readers_read_what_the_lab_prints() {
        let mut c = PortCounters {
            rx_packets: 800_000,
            tx_packets: 800_000,
            fcs_errors: 7,
            link_changes: 4,
            ..PortCounters::default()
        };
        c.pause_rx[3] = 12;
        c.pause_tx[3] = 5;
        c.marked[3] = 40;
        c.drops[3] = 2000;
        c.watchdog[3] = 2;
        let p = Port::new(1, 1);
        let mut obs = Observed::default();
        use crate::cumulus::verify::counters as read;
        read::link(&counters(&c), "c", p, &mut obs).expect("reads");
        read::qos(&qos(&c), "c", p, &mut obs).expect("reads");
        read::watchdog(&pfc_watchdog(&c), "c", p, &mut obs).expect("reads");
        let v = |k| obs.counters[&p][&k].value;
        assert_eq!((v(Kind::Flaps), v(Kind::Errors)), (4, 7));
        assert_eq!((v(Kind::PauseRx(3)), v(Kind::PauseTx(3))), (12, 5));
        assert_eq!((v(Kind::Marked), v(Kind::Watchdog(3))), (40, 2));
        // 2000 prints as `1.95 KB`, read back at that precision.
        assert_eq!(human(2000), "1.95 KB");
        assert_eq!(v(Kind::Drops(3)), 1996);
        assert_eq!(human(10_202_644), "9.73 MB");
    }
}
