//! What `fabric verify --counters` sends OS10 and reads of it: a switch's counters in as few
//! commands as OS10 has for them.
//!
//! - `show interface` (every interface): each port's `N CRC` (`Input statistics:`), as the
//!   arc-switch capture (OS10.5) prints it.
//! - `show queuing statistics interface ethernet X` per cabled port: each queue's
//!   `Dropped-Packets` (the netdev capture), a queue's number taken as its traffic class (the
//!   fabric maps them so).
//! - `show interface ethernetX priority-flow-control` per cabled port: each priority's `Rx`
//!   and `Tx` PFC frames of its `Cos` table (UNCONFIRMED layout: the Dell OS10 user guide's
//!   example as recalled, no capture; the lab's `Unconfirmed::PfcCounters`).
//!
//! OS10 prints large counters in float notation (`1.88684486633e+11`, captured): such a value
//! is read when its digits give the count exactly, and refused with its line otherwise.
//! Only the fabric's cabled ports are kept; one missing from a reply is an error.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::read::port_name;
use crate::fabric::Switch;
use crate::targets::Ask;
use crate::types::Port;
use crate::verify::Observed;
use crate::verify::counters::{Kind, NotRead, Sample};

/// What OS10's counters do not give.
pub static NOT_READ: [NotRead; 3] = [
    NotRead {
        what: "ECN-marked packets (pauses without ECN marks, V020)",
        why: "no OS10 capture shows a counter of ECN-marked packets (`show queuing statistics` has none)",
    },
    NotRead {
        what: "link state changes (flaps, V022)",
        why: "OS10's `show interface` prints only the time since the last status change, not a count",
    },
    NotRead {
        what: "PFC watchdog",
        why: "no OS10 capture shows a counter of its PFC watchdog",
    },
];

/// The command that lists every interface's counters.
pub const SHOW_INTERFACE: &str = "show interface";

/// The commands that read `sw`'s counters, each with its reader.
pub fn asks(sw: &Switch) -> Vec<Ask> {
    let ports = Arc::new(crate::verify::counters::cabled(sw));
    let mut out = Vec::new();
    let want = ports.clone();
    out.push(Ask::own(SHOW_INTERFACE.into(), None, move |reply, into| {
        crc(reply, SHOW_INTERFACE, &want, into)
    }));
    for port in ports.iter() {
        let port = *port;
        let eth = crate::os10::eth_of(port);
        out.push(Ask::port(
            format!("show queuing statistics interface ethernet {eth}"),
            port,
            queues,
        ));
        out.push(Ask::port(
            format!("show interface ethernet{eth} priority-flow-control"),
            port,
            pauses,
        ));
    }
    out
}

/// A count as OS10 prints it: digits, or float notation (`1.88684486633e+11`, captured:
/// twelve significant digits) below 10^12, where those digits give the count exactly; why
/// not otherwise (a larger value has lost its last digits).
pub fn count(v: &str) -> Result<u64, String> {
    if let Ok(n) = v.parse() {
        return Ok(n);
    }
    let bad = || format!("`{v}` is not a count");
    let (mantissa, exp) = v.split_once(['e', 'E']).ok_or_else(bad)?;
    let exp: u32 = exp.trim_start_matches('+').parse().map_err(|_| bad())?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if int.len() != 1 || !digits(int) || !(frac.is_empty() || digits(frac)) {
        return Err(bad());
    }
    let frac = frac.trim_end_matches('0');
    let zeros = exp.checked_sub(frac.len() as u32).filter(|_| exp < 12);
    let Some(zeros) = zeros else {
        return Err(format!(
            "`{v}` is rounded: its digits do not give the count exactly"
        ));
    };
    format!("{int}{frac}{}", "0".repeat(zeros as usize))
        .parse()
        .map_err(|_| bad())
}

fn sample(value: u64, command: &str, line: &str) -> Sample {
    Sample {
        value,
        command: command.to_string(),
        line: line.trim_end().to_string(),
    }
}

/// `show interface`: each wanted port's `N CRC` of its `Ethernet X is …` block as its FCS
/// errors. A wanted port without a block, or a block without its CRC line, is an error.
pub fn crc(
    reply: &str,
    command: &str,
    want: &BTreeSet<Port>,
    into: &mut Observed,
) -> Result<(), String> {
    crate::verify::reply::error_line(reply).map_or(Ok(()), Err)?;
    let mut port = None;
    let mut seen = BTreeSet::new();
    let mut read = BTreeSet::new();
    for (n, line) in reply.lines().enumerate() {
        // An interface's first line: `Ethernet 1/1/1 is up, line protocol is up`.
        if line.contains(", line protocol is ") {
            let name = line.split(" is ").next().unwrap_or("");
            port = name
                .starts_with("Ethernet ")
                .then(|| port_name(name))
                .flatten();
            if let Some(p) = port {
                seen.insert(p);
            }
            port = port.filter(|p| want.contains(p));
            continue;
        }
        let Some(p) = port else { continue };
        let t = line.trim();
        let Some(item) = t.split(", ").find(|i| i.ends_with(" CRC")) else {
            continue;
        };
        let v = item.trim_end_matches(" CRC").trim();
        let value = count(v).map_err(|e| format!("line {}: `{t}`: {e}", n + 1))?;
        into.counters
            .entry(p)
            .or_default()
            .insert(Kind::Errors, sample(value, command, line));
        read.insert(p);
    }
    let lost: Vec<String> = want
        .difference(&seen)
        .map(|p| format!("Ethernet {}", crate::os10::eth_of(*p)))
        .collect();
    if !lost.is_empty() {
        return Err(format!("no block for {}", lost.join(", ")));
    }
    let bare: Vec<String> = want
        .difference(&read)
        .map(|p| format!("Ethernet {}", crate::os10::eth_of(*p)))
        .collect();
    match bare.is_empty() {
        true => Ok(()),
        false => Err(format!("no `N CRC` line for {}", bare.join(", "))),
    }
}

/// The `Interface ethernetX` line of a per-port reply, checked to be `port`'s.
fn interface_of(reply: &str, port: Port) -> Result<(), String> {
    crate::verify::reply::error_line(reply).map_or(Ok(()), Err)?;
    let shown = reply
        .lines()
        .find_map(|l| l.trim().strip_prefix("Interface "))
        .ok_or("no `Interface` line")?;
    match port_name(shown) == Some(port) {
        true => Ok(()),
        false => Err(format!(
            "the reply is for `{}`, not ethernet{}",
            shown.trim(),
            crate::os10::eth_of(port)
        )),
    }
}

/// A table's rows, each with its number in the reply.
type Rows<'a> = Vec<(usize, &'a str)>;

/// A row of a class (`0`…`7`): the class, the row's number in the reply, its line and words.
struct Row<'a> {
    class: u8,
    n: usize,
    line: &'a str,
    words: Vec<&'a str>,
}

/// The rows under a table's header (the line whose first word is `first`), the header's
/// words, and each row's number in the reply; the rule of dashes under it skipped.
fn table<'a>(reply: &'a str, first: &str) -> Result<(Vec<&'a str>, Rows<'a>), String> {
    let mut lines = reply.lines().enumerate();
    let header = lines
        .by_ref()
        .find(|(_, l)| l.split_whitespace().next() == Some(first))
        .map(|(_, l)| l.split_whitespace().collect())
        .ok_or_else(|| format!("no table headed `{first}`"))?;
    let rows = lines
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('-'))
        .take_while(|(_, l)| l.split_whitespace().next().is_some_and(|w| w.len() == 1))
        .collect();
    Ok((header, rows))
}

/// Each of the eight rows `0`…`7` of `rows`, its words; an error naming a row that does not
/// have `columns` words or a class missing.
fn classes<'a>(rows: &[(usize, &'a str)], columns: usize) -> Result<Vec<Row<'a>>, String> {
    let mut out = Vec::new();
    for (n, line) in rows {
        let words: Vec<&str> = line.split_whitespace().collect();
        let class = words
            .first()
            .and_then(|w| w.parse::<u8>().ok())
            .filter(|c| *c < 8);
        let (Some(class), true) = (class, words.len() == columns) else {
            return Err(format!(
                "line {}: `{}`: not a row of {columns} columns for a class 0-7",
                n + 1,
                line.trim()
            ));
        };
        out.push(Row {
            class,
            n: *n,
            line,
            words,
        });
    }
    let got: BTreeSet<u8> = out.iter().map(|r| r.class).collect();
    match (0..8).find(|c| !got.contains(c)) {
        Some(c) => Err(format!("no row for class {c}")),
        None => Ok(out),
    }
}

/// `show queuing statistics interface ethernet X`: each queue's `Dropped-Packets`.
pub fn queues(reply: &str, command: &str, port: Port, into: &mut Observed) -> Result<(), String> {
    interface_of(reply, port)?;
    let (header, rows) = table(reply, "Queue")?;
    let at = header
        .iter()
        .position(|h| *h == "Dropped-Packets")
        .ok_or("its table has no `Dropped-Packets` column")?;
    for r in classes(&rows, header.len())? {
        let value = count(r.words[at]).map_err(|e| format!("line {}: {e}", r.n + 1))?;
        into.counters
            .entry(port)
            .or_default()
            .insert(Kind::Drops(r.class), sample(value, command, r.line));
    }
    Ok(())
}

/// `show interface ethernetX priority-flow-control`: each priority's Rx and Tx PFC frames.
pub fn pauses(reply: &str, command: &str, port: Port, into: &mut Observed) -> Result<(), String> {
    interface_of(reply, port)?;
    let (header, rows) = table(reply, "Cos")?;
    if header != ["Cos", "Rx", "Tx"] {
        return Err(format!("its table's header is `{}`", header.join(" ")));
    }
    for r in classes(&rows, 3)? {
        let at = |i: usize| count(r.words[i]).map_err(|e| format!("line {}: {e}", r.n + 1));
        let (rx, tx) = (at(1)?, at(2)?);
        let counters = into.counters.entry(port).or_default();
        counters.insert(Kind::PauseRx(r.class), sample(rx, command, r.line));
        counters.insert(Kind::PauseTx(r.class), sample(tx, command, r.line));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus(name: &str) -> String {
        crate::repo_file(&format!("tests/fixtures/corpus/os10/{name}"))
    }

    fn port(s: &str) -> Port {
        port_name(s).unwrap()
    }

    #[test]
    fn counts_in_float_notation_are_read_when_exact_and_refused_when_rounded() {
        assert_eq!(count("296897"), Ok(296_897));
        assert_eq!(count("1.88684486633e+11"), Ok(188_684_486_633));
        assert_eq!(count("4.08571102999e+11"), Ok(408_571_102_999));
        assert_eq!(count("1.5e+3"), Ok(1500));
        for rounded in ["1.23456789012e+15", "1.2e+12", "1.23e+1"] {
            let e = count(rounded).unwrap_err();
            assert!(e.contains("rounded"), "{e}");
        }
        for bad in ["", "x", "1.2e", "-3", "1..2e+3", "e+3"] {
            assert!(count(bad).is_err(), "{bad}");
        }
    }

    /// The arc-switch capture (OS10.5): every port's CRC errors, the breakout's included.
    #[test]
    fn reads_the_captured_show_interface() {
        let text = corpus("arc-switch__show_interface_all_OS10.5_real.txt");
        let want: BTreeSet<Port> = ["ethernet1/1/1", "ethernet1/1/9", "ethernet1/1/47:1"]
            .iter()
            .map(|p| port(p))
            .collect();
        let mut obs = Observed::default();
        crc(&text, SHOW_INTERFACE, &want, &mut obs).expect("reads");
        for p in &want {
            let s = &obs.counters[p][&Kind::Errors];
            assert_eq!(s.value, 0, "{p}");
            assert!(s.line.contains("CRC"), "{}", s.line);
        }
        let mut missing = want.clone();
        missing.insert(port("ethernet1/1/30"));
        let e = crc(&text, SHOW_INTERFACE, &missing, &mut Observed::default()).unwrap_err();
        assert!(e.contains("Ethernet 1/1/30"), "{e}");
        let bad = text.replacen("0 CRC", "x CRC", 1);
        let e = crc(&bad, SHOW_INTERFACE, &want, &mut Observed::default()).unwrap_err();
        assert!(e.starts_with("line "), "{e}");
    }

    /// The netdev captures: queue 5's drops after a load, and the cleared table.
    #[test]
    fn reads_the_captured_queuing_statistics() {
        let text = corpus(
            "netdev-2022-03-25__hound-dirt_fox-dirt__show_queuing_statistics_interface_ethernet_1-1-4_after_load_real.txt",
        );
        let p = port("ethernet1/1/4");
        let mut obs = Observed::default();
        queues(&text, "c", p, &mut obs).expect("reads");
        assert_eq!(obs.counters[&p][&Kind::Drops(5)].value, 1_263_665);
        assert_eq!(obs.counters[&p][&Kind::Drops(3)].value, 0);
        let cleared = corpus(
            "netdev-2022-03-25__hound-dirt__clear_then_show_queuing_statistics_zero_real.txt",
        );
        let mut obs = Observed::default();
        queues(&cleared, "c", p, &mut obs).expect("reads");
        assert!((0..8).all(|q| obs.counters[&p][&Kind::Drops(q)].value == 0));
        // Another port's reply, a row cut short, a queue missing, garbage: errors.
        let e = queues(&text, "c", port("ethernet1/1/5"), &mut Observed::default()).unwrap_err();
        assert!(e.contains("ethernet1/1/5"), "{e}");
        let cut = text.replacen("1263665                  11321730380", "1263665", 1);
        let e = queues(&cut, "c", p, &mut Observed::default()).unwrap_err();
        assert!(e.starts_with("line 9:"), "{e}");
        let short: String = text.lines().take(8).map(|l| format!("{l}\n")).collect();
        let e = queues(&short, "c", p, &mut Observed::default()).unwrap_err();
        assert!(e.contains("class 5"), "{e}");
        assert!(queues("% Error: x", "c", p, &mut Observed::default()).is_err());
    }

    #[test]
    fn reads_a_priority_s_pfc_frames() {
        let p = port("ethernet1/1/4");
        let text = "Interface ethernet1/1/4\nAdmin mode is enabled\nOper status is enabled\nPFC Priorities: 3\nTotal Rx PFC Frames: 12\nTotal Tx PFC frames: 7\nCos         Rx                  Tx\n-----------------------------------------\n0           0                   0\n1           0                   0\n2           0                   0\n3           12                  7\n4           0                   0\n5           0                   0\n6           0                   0\n7           0                   0\n";
        let mut obs = Observed::default();
        pauses(text, "c", p, &mut obs).expect("reads");
        assert_eq!(obs.counters[&p][&Kind::PauseRx(3)].value, 12);
        assert_eq!(obs.counters[&p][&Kind::PauseTx(3)].value, 7);
        let bad = text.replace("3           12", "3           x12");
        let e = pauses(&bad, "c", p, &mut Observed::default()).unwrap_err();
        assert!(e.starts_with("line 12:"), "{e}");
    }
}
