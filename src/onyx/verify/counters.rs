//! What `fabric verify --counters` sends Onyx and reads of it: a switch's counters in as few
//! commands as Onyx has for them.
//!
//! - `show interfaces ethernet` (every port): each port's `Rx` `fcs errors` (before 3.7,
//!   which prints none, its `error packets`) and the `(N oper change)` of `Last change in
//!   operational status` (`Never`: none), as `napalm-onyx__show_interface.txt` prints them.
//! - `show interfaces ethernet counters pfc prio N` per lossless priority: each port's `Rx`
//!   and `Tx` `pause packets` (the label a client's parser of this command reads; the rest of
//!   the layout is not captured: `show interfaces ethernet counters`' blocks are assumed).
//! - `show interfaces ethernet counters tc N` per lossless priority's class (a priority's
//!   class is its number, as the fabric maps them): each port's `Tx` `no buffer discard`
//!   (UNCONFIRMED label: no capture of the command's output).
//! - `show interfaces ethernet X congestion-control | json-print` per cabled port: its `ECN
//!   marked packets` (captured).
//!
//! Only the fabric's cabled ports are kept; one missing from a reply is an error.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::fabric::Switch;
use crate::targets::Ask;
use crate::types::Port;
use crate::verify::Observed;
use crate::verify::counters::{Kind, NotRead, Sample};

/// What Onyx's counters do not give.
pub static NOT_READ: [NotRead; 2] = [
    NotRead {
        what: "PFC watchdog",
        why: "no Onyx capture shows a counter of its PFC watchdog",
    },
    NotRead {
        what: "pauses on priorities the fabric does not make lossless",
        why: "Onyx prints a priority's pauses by one command per priority; only the lossless priorities are read",
    },
];

/// The commands that read `sw`'s counters, each with its reader.
pub fn asks(sw: &Switch) -> Vec<Ask> {
    let ports = Arc::new(crate::verify::counters::cabled(sw));
    let lossless = crate::verify::counters::lossless(sw);
    let mut out = Vec::new();
    let command = "show interfaces ethernet".to_string();
    let (c, want) = (command.clone(), ports.clone());
    out.push(Ask::own(command, None, move |reply, into| {
        read_interfaces(reply, &c, &want, into)
    }));
    for p in &lossless {
        let p = *p;
        let command = format!("show interfaces ethernet counters pfc prio {p}");
        let (c, want) = (command.clone(), ports.clone());
        out.push(Ask::own(command, None, move |reply, into| {
            read_blocks(reply, &c, &want, into, |dir, label| match (dir, label) {
                (Dir::Rx, "pause packets") => Some(Kind::PauseRx(p)),
                (Dir::Tx, "pause packets") => Some(Kind::PauseTx(p)),
                _ => None,
            })
        }));
    }
    for p in &lossless {
        let p = *p;
        let command = format!("show interfaces ethernet counters tc {p}");
        let (c, want) = (command.clone(), ports.clone());
        out.push(Ask::own(command, None, move |reply, into| {
            read_blocks(reply, &c, &want, into, |dir, label| match (dir, label) {
                (Dir::Tx, "no buffer discard") => Some(Kind::Drops(p)),
                _ => None,
            })
        }));
    }
    for port in ports.iter() {
        let port = *port;
        let command = format!("show interfaces ethernet {port} congestion-control | json-print");
        let c = command.clone();
        out.push(Ask::own(command, Some(port), move |reply, into| {
            let (value, line) = super::json::ecn_marked(reply, port)?;
            into.counters.entry(port).or_default().insert(
                Kind::Marked,
                Sample {
                    value,
                    command: c.clone(),
                    line,
                },
            );
            Ok(())
        }));
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    Rx,
    Tx,
}

/// A port's header line (`Eth1/1:`, `Eth1/1` before 3.7): its port.
fn header(line: &str) -> Option<Port> {
    let name = line.strip_prefix("Eth")?.trim_end().trim_end_matches(':');
    name.parse().ok()
}

/// A line of a reply in per-port blocks (`EthX:`, then `Rx:`/`Tx:` and their counters).
struct Line<'a> {
    /// Its number (from 1).
    n: usize,
    port: Port,
    /// The direction it is under, if any yet.
    dir: Option<Dir>,
    /// Trimmed.
    text: &'a str,
    /// As printed, without its line end.
    raw: &'a str,
}

impl Line<'_> {
    /// A counter's `VALUE  LABEL`: its label, and its value as a count (a located error if it
    /// is not one).
    fn counter(&self) -> Option<(&str, Result<u64, String>)> {
        let (value, label) = self.text.split_once(char::is_whitespace)?;
        let n = self.n;
        let t = self.text;
        let count = value
            .parse()
            .map_err(|_| format!("line {n}: `{t}`: `{value}` is not a count"));
        Some((label.trim(), count))
    }

    fn sample(&self, value: u64, command: &str) -> Sample {
        Sample {
            value,
            command: command.to_string(),
            line: self.raw.to_string(),
        }
    }
}

/// The lines inside the port blocks of `reply` whose port `want` holds; the ports with a
/// block, into `seen`.
fn in_blocks<'a>(
    reply: &'a str,
    want: &'a BTreeSet<Port>,
    seen: &'a mut BTreeSet<Port>,
) -> impl Iterator<Item = Line<'a>> + 'a {
    let (mut port, mut dir) = (None, None);
    reply.lines().enumerate().filter_map(move |(i, raw)| {
        if let Some(p) = header(raw) {
            seen.insert(p);
            port = Some(p).filter(|p| want.contains(p));
            dir = None;
            return None;
        }
        let text = raw.trim();
        match text.trim_end_matches(':') {
            "Rx" => dir = Some(Dir::Rx),
            "Tx" => dir = Some(Dir::Tx),
            _ => {}
        }
        Some(Line {
            n: i + 1,
            port: port?,
            dir,
            text,
            raw: raw.trim_end(),
        })
    })
}

/// Reads the per-port blocks of `reply`: each counter `kind_of` names (by its direction and
/// label), of the ports `want` holds, into `into`. A wanted port without a block, or a value
/// of a named counter that is not a count, is an error.
fn read_blocks(
    reply: &str,
    command: &str,
    want: &BTreeSet<Port>,
    into: &mut Observed,
    kind_of: impl Fn(Dir, &str) -> Option<Kind>,
) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for l in in_blocks(reply, want, &mut seen) {
        let (Some(d), Some((label, count))) = (l.dir, l.counter()) else {
            continue;
        };
        let Some(kind) = kind_of(d, label) else {
            continue;
        };
        let sample = l.sample(count?, command);
        into.counters
            .entry(l.port)
            .or_default()
            .insert(kind, sample);
    }
    missing(want, &seen)
}

/// An error naming the wanted ports a reply has no block for.
fn missing(want: &BTreeSet<Port>, seen: &BTreeSet<Port>) -> Result<(), String> {
    let lost: Vec<String> = want.difference(seen).map(|p| format!("Eth{p}")).collect();
    match lost.is_empty() {
        true => Ok(()),
        false => Err(format!("no block for {}", lost.join(", "))),
    }
}

/// Reads `show interfaces ethernet` in one pass: each wanted port's `Last change in
/// operational status: … (N oper change)` (`Never`: none yet) as its link changes, its `Rx`
/// `fcs errors` as its errors (before 3.7, which prints none, its `error packets`).
fn read_interfaces(
    reply: &str,
    command: &str,
    want: &BTreeSet<Port>,
    into: &mut Observed,
) -> Result<(), String> {
    let mut seen = BTreeSet::new();
    for l in in_blocks(reply, want, &mut seen) {
        let counters = into.counters.entry(l.port).or_default();
        if let Some(rest) = l.text.strip_prefix("Last change in operational status") {
            let (n, t) = (l.n, l.text);
            let value =
                changes(rest).ok_or_else(|| format!("line {n}: `{t}`: no `(N oper change)`"))?;
            counters.insert(Kind::Flaps, l.sample(value, command));
            continue;
        }
        // `error packets` comes first in the block: `fcs errors`, where printed, replaces it.
        match (l.dir, l.counter()) {
            (Some(Dir::Rx), Some(("fcs errors", count))) => {
                counters.insert(Kind::Errors, l.sample(count?, command));
            }
            (Some(Dir::Rx), Some(("error packets", count))) => {
                counters.insert(Kind::Errors, l.sample(count?, command));
            }
            _ => {}
        }
    }
    missing(want, &seen)
}

/// The N of `: 2:20:51 ago (7 oper change)`; 0 for `: Never`.
fn changes(rest: &str) -> Option<u64> {
    let v = rest.trim_start().trim_start_matches(':').trim();
    if v == "Never" {
        return Some(0);
    }
    let inner = v.rsplit_once('(')?.1.strip_suffix(')')?;
    inner
        .strip_suffix("oper changes")
        .or_else(|| inner.strip_suffix("oper change"))?
        .trim()
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The captured `show interfaces ethernet` (Onyx 3.7): the oper changes and FCS errors
    /// of its ports.
    #[test]
    fn reads_the_captured_show_interfaces() {
        let text =
            crate::repo_file("tests/fixtures/corpus/onyx/show/napalm-onyx__show_interface.txt");
        let want: BTreeSet<Port> = ["1/1", "1/18", "1/19"]
            .iter()
            .map(|p| p.parse().unwrap())
            .collect();
        let mut obs = Observed::default();
        read_interfaces(&text, "c", &want, &mut obs).expect("reads");
        for p in &want {
            assert!(
                obs.counters[p][&Kind::Errors].line.ends_with("fcs errors"),
                "{p}"
            );
        }
        for p in &want {
            assert_eq!(obs.counters[p][&Kind::Errors].value, 0, "{p}");
        }
        let flaps = |p: &str| obs.counters[&p.parse().unwrap()][&Kind::Flaps].value;
        assert_eq!((flaps("1/1"), flaps("1/18"), flaps("1/19")), (1, 0, 7));
        assert_eq!(changes(": 2:20:51 ago (7 oper change)"), Some(7));
        assert_eq!(changes(": Never"), Some(0));
        assert_eq!(changes(": 3w3d and 20:03:02 ago (7 oper change)"), Some(7));
        assert_eq!(changes(": soon"), None);
    }

    #[test]
    fn refuses_a_reply_without_a_wanted_port_or_with_a_bad_count() {
        let want: BTreeSet<Port> = ["1/1"].iter().map(|p| p.parse().unwrap()).collect();
        let kind =
            |d: Dir, l: &str| (d == Dir::Rx && l == "pause packets").then_some(Kind::PauseRx(3));
        let mut obs = Observed::default();
        let e = read_blocks(
            "Eth1/2:\n  Rx:\n    5   pause packets\n",
            "c",
            &want,
            &mut obs,
            kind,
        )
        .unwrap_err();
        assert!(e.contains("Eth1/1"), "{e}");
        let e = read_blocks(
            "Eth1/1:\n  Rx:\n    x5   pause packets\n",
            "c",
            &want,
            &mut obs,
            kind,
        )
        .unwrap_err();
        assert!(e.contains("line 3"), "{e}");
    }
}
