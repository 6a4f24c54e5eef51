//! What `fabric verify --counters` sends a Cumulus switch and reads of it: NVUE's counter
//! views of each cabled port, as text, in the layouts of NVIDIA's documentation (5.5+; no
//! capture from a switch, and no documented `-o json` of them).
//!
//! - `nv show interface swpN counters`: `carrier-transitions` (its operational value) as the
//!   link's state changes, `FCS Errors` (`Receive`) as its FCS errors.
//! - `nv show interface swpN counters qos`: each switch priority's `rx-pause-frames` and
//!   `tx-pause-frames` (`PFC Statistics`, every priority, so pauses on a lossy priority are
//!   read), `ecn-marked-packets` (`Transmit`, `Qos Port Statistics`) and each traffic class's
//!   `tx-uc-buffer-discards` (`Egress Queue Statistics`) as its drops.
//! - `nv show interface swpN qos pfc-watchdog` on each port the fabric puts in PFC mode (it
//!   sets the watchdog there): each traffic class's `deadlock-count`, a class taken as its
//!   priority (the fabric maps them so).
//!
//! NVUE prints `tx-uc-buffer-discards` with a byte unit (`0 Bytes`) and rounds a large value
//! into a larger unit (`9.73 MB`, as it prints `out-bytes`). Whether it counts packets or
//! bytes is not documented: the number is read as printed, `N Bytes` exactly, a rounded one
//! at its printed precision (1 KB taken as 1,024 bytes, UNCONFIRMED); drops smaller than its
//! last digit between two readings are then not seen.
//!
//! Only the fabric's cabled ports are asked; a reply without what is read is an error.

use crate::fabric::Switch;
use crate::targets::Ask;
use crate::types::Port;
use crate::verify::Observed;
use crate::verify::counters::{Kind, Sample};

use super::super::target::port_name;

/// The commands that read `sw`'s counters, each with its reader.
pub fn asks(sw: &Switch) -> Vec<Ask> {
    let mut out = Vec::new();
    for (port, s) in sw.ports.iter().filter(|(_, s)| s.peer.is_some()) {
        let (port, name) = (*port, port_name(*port));
        out.push(Ask::port(
            format!("nv show interface {name} counters"),
            port,
            link,
        ));
        out.push(Ask::port(
            format!("nv show interface {name} counters qos"),
            port,
            qos,
        ));
        if s.pfc && !s.shutdown {
            out.push(Ask::port(
                format!("nv show interface {name} qos pfc-watchdog"),
                port,
                watchdog,
            ));
        }
    }
    out
}

fn put(into: &mut Observed, port: Port, kind: Kind, value: u64, command: &str, line: &str) {
    into.counters.entry(port).or_default().insert(
        kind,
        Sample {
            value,
            command: command.to_string(),
            line: line.trim_end().to_string(),
        },
    );
}

/// A count as NVUE prints it (`4`); why not otherwise.
fn count(v: &str) -> Result<u64, String> {
    v.trim()
        .parse()
        .map_err(|_| format!("`{}` is not a count", v.trim()))
}

/// A value NVUE prints with a byte unit: `300 Bytes` exactly, `9.73 MB` at its printed
/// precision (1 KB = 1,024 B, UNCONFIRMED); why not otherwise.
pub fn bytes(v: &str) -> Result<u64, String> {
    let v = v.trim();
    let bad = || format!("`{v}` is not a count with a byte unit");
    let (n, unit) = v.split_once(' ').ok_or_else(bad)?;
    let scale: u64 = match unit {
        "Bytes" | "Byte" | "B" => return count(n),
        "KB" => 1 << 10,
        "MB" => 1 << 20,
        "GB" => 1 << 30,
        "TB" => 1 << 40,
        _ => return Err(bad()),
    };
    let (int, frac) = n.split_once('.').unwrap_or((n, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !(frac.is_empty() || digits(frac)) || frac.len() > 6 {
        return Err(bad());
    }
    let whole: u64 = int.parse().map_err(|_| bad())?;
    let parts: u64 = format!("{frac:0<6}").parse().map_err(|_| bad())?;
    whole
        .checked_mul(scale)
        .and_then(|w| w.checked_add(parts * scale / 1_000_000))
        .ok_or_else(bad)
}

/// `nv show interface swpN counters`: `carrier-transitions` and the `FCS Errors` received.
pub fn link(reply: &str, command: &str, port: Port, into: &mut Observed) -> Result<(), String> {
    error(reply)?;
    let mut flaps = None;
    let mut fcs = None;
    for (n, line) in reply.lines().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |i: usize| {
            let v = words.get(i).copied().unwrap_or("");
            count(v).map_err(|e| format!("line {}: `{}`: {e}", n + 1, line.trim()))
        };
        match words.as_slice() {
            ["carrier-transitions", ..] => flaps = Some((at(1)?, line)),
            ["FCS", "Errors", ..] => fcs = Some((at(2)?, line)),
            _ => {}
        }
    }
    let (Some((flaps, fl)), Some((fcs, el))) = (flaps, fcs) else {
        return Err(
            "not `nv show interface … counters`' output: no `carrier-transitions` and `FCS Errors` rows"
                .into(),
        );
    };
    put(into, port, Kind::Flaps, flaps, command, fl);
    put(into, port, Kind::Errors, fcs, command, el);
    Ok(())
}

/// NVUE's error reply (`Error: …`, `Invalid Command: …`), as an error.
fn error(reply: &str) -> Result<(), String> {
    match reply
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .filter(|l| l.starts_with("Error") || l.starts_with("Invalid Command"))
    {
        Some(l) => Err(format!("the switch answered `{l}`")),
        None => Ok(()),
    }
}

/// A class's row: its number in the reply, its line, its cells.
type Row<'a> = (usize, &'a str, Vec<&'a str>);

/// A table's class rows (`0`…`7`) under the header whose first word is `first`: each row's
/// number in the reply, its line, and its cells cut where the header's rule of dashes puts
/// the columns (a cell may hold a value and its unit, `0 Bytes`). Every class must have a row.
fn classes<'a>(reply: &'a str, first: &str) -> Result<Vec<Row<'a>>, String> {
    let lines: Vec<&str> = reply.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.split_whitespace().next() == Some(first))
        .ok_or_else(|| format!("no table headed `{first}`"))?;
    let rule = lines.get(at + 1).copied().unwrap_or("");
    let mut starts: Vec<usize> = Vec::new();
    for (i, c) in rule.char_indices() {
        if c == '-' && (i == 0 || rule.as_bytes()[i - 1] == b' ') {
            starts.push(i);
        }
    }
    if starts.is_empty() || !rule.trim().chars().all(|c| c == '-' || c == ' ') {
        return Err(format!("the table headed `{first}` has no rule of dashes"));
    }
    let mut out = Vec::new();
    for (n, line) in lines.iter().enumerate().skip(at + 2) {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some(class) = t
            .split_whitespace()
            .next()
            .and_then(|w| w.parse::<u8>().ok())
            .filter(|c| *c < 8)
        else {
            break;
        };
        let cells: Option<Vec<&str>> = starts
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let end = starts
                    .get(i + 1)
                    .map_or(line.len(), |e| (*e).min(line.len()));
                line.get((*s).min(end)..end).map(str::trim)
            })
            .collect();
        match cells {
            Some(c) if c.iter().all(|c| !c.is_empty()) && c[0] == class.to_string() => {
                out.push((n, *line, c));
            }
            _ => {
                return Err(format!(
                    "line {}: `{t}`: not a row of the table headed `{first}`",
                    n + 1
                ));
            }
        }
    }
    let missing = (0..8u8).find(|c| !out.iter().any(|(_, _, r)| r[0] == c.to_string()));
    match missing {
        Some(c) => Err(format!("the table headed `{first}` has no row {c}")),
        None => Ok(out),
    }
}

/// The column named `name` of the table headed `first` (its header line's words).
fn column(reply: &str, first: &str, name: &str) -> Result<usize, String> {
    reply
        .lines()
        .find(|l| l.split_whitespace().next() == Some(first))
        .and_then(|l| l.split_whitespace().position(|w| w == name))
        .ok_or_else(|| format!("the table headed `{first}` has no `{name}` column"))
}

/// `nv show interface swpN counters qos`: each priority's pauses, the ECN-marked packets
/// sent, each class's unicast buffer discards.
pub fn qos(reply: &str, command: &str, port: Port, into: &mut Observed) -> Result<(), String> {
    error(reply)?;
    let (rx, tx) = (
        column(reply, "switch-priority", "rx-pause-frames")?,
        column(reply, "switch-priority", "tx-pause-frames")?,
    );
    for (n, line, cells) in classes(reply, "switch-priority")? {
        let p: u8 = cells[0].parse().unwrap_or(0);
        let at = |i: usize| {
            let v = cells.get(i).copied().unwrap_or("");
            count(v).map_err(|e| format!("line {}: {e}", n + 1))
        };
        put(into, port, Kind::PauseRx(p), at(rx)?, command, line);
        put(into, port, Kind::PauseTx(p), at(tx)?, command, line);
    }
    let discards = column(reply, "traffic-class", "tx-uc-buffer-discards")?;
    for (n, line, cells) in classes(reply, "traffic-class")? {
        let tc: u8 = cells[0].parse().unwrap_or(0);
        let v = cells.get(discards).copied().unwrap_or("");
        let value = bytes(v).map_err(|e| format!("line {}: {e}", n + 1))?;
        put(into, port, Kind::Drops(tc), value, command, line);
    }
    let (n, line) = reply
        .lines()
        .enumerate()
        .find(|(_, l)| l.split_whitespace().next() == Some("ecn-marked-packets"))
        .ok_or("no `ecn-marked-packets` row")?;
    let sent = line.split_whitespace().nth(2).unwrap_or("");
    let value = count(sent).map_err(|e| format!("line {}: {e}", n + 1))?;
    put(into, port, Kind::Marked, value, command, line);
    Ok(())
}

/// `nv show interface swpN qos pfc-watchdog`: each class's `deadlock-count`.
pub fn watchdog(reply: &str, command: &str, port: Port, into: &mut Observed) -> Result<(), String> {
    error(reply)?;
    let at = column(reply, "traffic-class", "deadlock-count")?;
    for (n, line, cells) in classes(reply, "traffic-class")? {
        let tc: u8 = cells[0].parse().unwrap_or(0);
        let v = cells.get(at).copied().unwrap_or("");
        let value = count(v).map_err(|e| format!("line {}: {e}", n + 1))?;
        put(into, port, Kind::Watchdog(tc), value, command, line);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str) -> String {
        crate::repo_file(&format!("tests/fixtures/corpus/nvue/{name}"))
    }

    fn swp1() -> Port {
        crate::cumulus::rules::port("swp1").unwrap()
    }

    #[test]
    fn byte_values_are_read_exactly_or_at_their_printed_precision() {
        assert_eq!(bytes("0 Bytes"), Ok(0));
        assert_eq!(bytes("300 Bytes"), Ok(300));
        assert_eq!(bytes("1.50 KB"), Ok(1536));
        assert_eq!(bytes("9.73 MB"), Ok(10_202_644));
        for bad in ["", "5", "x Bytes", "1.2.3 MB", "3 parsecs", "-1 KB", "1.5"] {
            assert!(bytes(bad).is_err(), "{bad}");
        }
    }

    /// The 5.15 guide's `nv show interface swp1 counters`: 4 carrier transitions, no FCS
    /// errors.
    #[test]
    fn reads_the_documented_interface_counters() {
        let text =
            doc("CumulusNetworks-docs__nv_show_interface_swp1_counters_CL5.15_doc_example.txt");
        let mut obs = Observed::default();
        link(&text, "c", swp1(), &mut obs).expect("reads");
        let c = &obs.counters[&swp1()];
        assert_eq!((c[&Kind::Flaps].value, c[&Kind::Errors].value), (4, 0));
        assert!(c[&Kind::Errors].line.contains("FCS Errors"));
        let bad = text.replace("FCS Errors        0", "FCS Errors        x");
        let e = link(&bad, "c", swp1(), &mut Observed::default()).unwrap_err();
        assert!(e.starts_with("line 31:"), "{e}");
        for garbage in [
            "",
            "Error: The requested item does not exist.",
            "carrier-transitions 4",
        ] {
            assert!(link(garbage, "c", swp1(), &mut Observed::default()).is_err());
        }
    }

    /// The NVUE reference's `nv show interface swp1 counters qos` and its pfc-watchdog view.
    #[test]
    fn reads_the_documented_qos_counters_and_watchdog() {
        let text = doc(
            "CumulusNetworks-docs__nv_show_interface_swp1_counters_qos_CL5.x_nvue-reference_doc_example.txt",
        );
        let mut obs = Observed::default();
        qos(&text, "c", swp1(), &mut obs).expect("reads");
        let c = &obs.counters[&swp1()];
        for k in 0..8 {
            assert_eq!(c[&Kind::PauseRx(k)].value, 0);
            assert_eq!(c[&Kind::PauseTx(k)].value, 0);
            assert_eq!(c[&Kind::Drops(k)].value, 0);
        }
        assert_eq!(c[&Kind::Marked].value, 0);
        assert!(c[&Kind::Drops(3)].line.contains("0 Bytes"));
        let cut = text.replace("    3                0                0                  0                0                \n", "");
        let e = qos(&cut, "c", swp1(), &mut Observed::default()).unwrap_err();
        assert!(e.contains("no row 3"), "{e}");
        let bad = text.replace(
            "3              0          0 Bytes   0 Bytes ",
            "3              0          0 Bytes   x Bytes ",
        );
        let e = qos(&bad, "c", swp1(), &mut Observed::default()).unwrap_err();
        assert!(e.starts_with("line 22:"), "{e}");
        let text = doc(
            "CumulusNetworks-docs__switch__nv_show_interface_swp1_qos_pfc-watchdog_doc_example.txt",
        );
        let mut obs = Observed::default();
        watchdog(&text, "c", swp1(), &mut obs).expect("reads");
        let c = &obs.counters[&swp1()];
        assert_eq!(
            (c[&Kind::Watchdog(1)].value, c[&Kind::Watchdog(7)].value),
            (3, 3)
        );
        assert!(watchdog("Error: x", "c", swp1(), &mut Observed::default()).is_err());
    }
}
