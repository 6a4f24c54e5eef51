//! `show running-configuration` text → [`Config`]: the header lines, the tree of blocks (a
//! child is indented one space more than its parent), every line the grammar knows folded into
//! the state, every other line kept verbatim in its block and place.
//!
//! Malformed structure is an error with its line and column, never a guess: an indented line
//! with no block above it, a child indented by more than one space past its parent, a tab, a
//! block's lines at the top level (a copy that lost its indentation), a banner never closed, a
//! block or setting given twice, a known command with a bad value, a prompt or an error reply
//! where configuration should be.

use std::collections::HashMap;
use std::ops::Range;

use super::command::{self, Top};
use super::{Config, Entry, Interface, Key};
pub use crate::config_error::{ParseError, Problem};

mod blocks;
mod recognize;
mod tree;

use blocks::{
    bgp, class_map, interface, policy_map, port_group, qos_map, system_qos, trust_map, vlt, wred,
};
pub use recognize::looks_os10;
use recognize::{exec_prompt, is_prompt};
use tree::{Lines, Node, Reader, indent_of};

/// Reads a running configuration, or a part of one (`show running-configuration interface
/// vlan 2000`).
pub fn parse(raw: &str) -> Result<Config, ParseError> {
    // What a terminal adds to a captured session goes first, as for Onyx (one step for both).
    let raw = &*crate::input::strip_terminal(raw);
    let mut cfg = Config::default();
    let Some((lines, final_newline)) = Lines::new(raw) else {
        return Err(ParseError {
            problem: Problem::Structure,
            line: 1,
            column: 1,
            text: String::new(),
            expected: "a text under 4 GiB".to_string(),
        });
    };
    cfg.layout.final_newline = final_newline;
    // A capture saved from a session: its prompt-and-command line and the next prompt are
    // skipped, every other line keeps its number.
    let body = crate::input::session_body(raw, exec_prompt);
    let body = body.start.min(lines.len())..body.end.min(lines.len());
    let r = Reader { lines };
    if r.lines.iter(body.clone()).all(|l| l.trim().is_empty()) {
        return Err(ParseError::empty(
            "no configuration: nothing but blank lines",
        ));
    }
    refuse_control(&r, body.clone())?;
    let at = header(&r, &mut cfg, body.clone());
    fold(&r, &mut cfg, pieces(&r, at, body.end))?;
    Ok(cfg)
}

/// Refuses a tab or another control character in lines `body`, at its line and column.
fn refuse_control(r: &Reader<'_>, body: Range<usize>) -> Result<(), ParseError> {
    for (i, l) in body.map(|i| (i, r.lines.line(i))) {
        // Bytes first: a control character is below a space, DEL, or U+0080-U+009F (0xC2
        // and a second byte); nearly every line has none of these bytes.
        if !l.bytes().any(|b| b < b' ' || b == 0x7f || b == 0xc2) {
            continue;
        }
        if let Some(c) = l.find(|c: char| c.is_control()) {
            let what = if l.as_bytes()[c] == b'\t' {
                "spaces, not a tab (OS10 indents with spaces)".to_string()
            } else {
                ParseError::not_text(l[c..].chars().next().unwrap_or('\0'))
            };
            let p = if l.as_bytes()[c] == b'\t' {
                Problem::Structure
            } else {
                Problem::NotText
            };
            return Err(r.error(p, i, c, what));
        }
    }
    Ok(())
}

/// The header at the start of lines `body` (`! Version …`, `! Last configuration change at
/// …`) read into `cfg`; the line after it.
fn header(r: &Reader<'_>, cfg: &mut Config, body: Range<usize>) -> usize {
    let mut at = body.start;
    while let Some(l) = r.lines.get(at).filter(|_| at < body.end) {
        if let Some(v) = l.strip_prefix("! Version ").filter(|_| at == body.start) {
            cfg.header.version = Some(v.to_string());
        } else if let Some(t) = l.strip_prefix("! Last configuration change at ") {
            cfg.header.last_change = Some(t.to_string());
        } else {
            break;
        }
        at += 1;
    }
    at
}

/// Folds the pieces' lines and blocks into `cfg`, in order: each text and modeled item an
/// entry of the layout; an item given twice, or the problem that stopped a piece, refused.
fn fold(r: &Reader<'_>, cfg: &mut Config, pieces: Vec<Piece>) -> Result<(), ParseError> {
    // Where each modeled item but the interfaces was read, for a second one (a second
    // interface is found in the model; the first's line only once it is).
    let mut first: HashMap<Key, usize> = HashMap::new();
    let units: usize = pieces.iter().map(|p| p.units.len()).sum();
    let mut ifaces = Interfaces {
        in_map: false,
        sorted: Vec::with_capacity(units / 2),
    };
    cfg.layout.entries.reserve(units);
    for piece in pieces {
        let mut interfaces = piece.interfaces.into_iter();
        for unit in piece.units {
            let (top, node) = match unit {
                Unit::Text(t) => {
                    cfg.layout.entries.push(Entry::Text(t));
                    continue;
                }
                Unit::Block(top, node) => (top, node),
            };
            let start = node.at;
            let (key, again) = match top {
                Top::Interface(i) => {
                    let e = match interfaces.next() {
                        Some(e) => e?,
                        // One read for each interface block, so never; read it here if not.
                        None => interface(r, &node.children)?,
                    };
                    (Key::Interface(i), ifaces.add(cfg, i, e))
                }
                top => (read_top(r, cfg, top, &node)?, false),
            };
            let prev = match &key {
                Key::Interface(i) if again => Some(first_interface(r, *i, start)),
                Key::Interface(_) => None,
                _ => first.insert(key.clone(), start),
            };
            if let Some(prev) = prev {
                return Err(r.error(
                    Problem::Duplicate,
                    start,
                    0,
                    format!(
                        "`{}` is here a second time (first at line {})",
                        r.lines.line(start),
                        prev + 1
                    ),
                ));
            }
            cfg.layout.entries.push(Entry::Item(key));
        }
        if let Some(e) = piece.stopped {
            return Err(e);
        }
    }
    ifaces.finish(cfg);
    Ok(())
}

/// The interfaces in the order read, while each is after the one before (as OS10 prints
/// them): built into the map at once at the end. Else in the map as they come.
struct Interfaces {
    /// Whether they are in the config's map (one came out of order).
    in_map: bool,
    sorted: Vec<(super::Iface, Interface)>,
}

impl Interfaces {
    /// Adds interface `i`; whether the config has it already (a second block for it).
    fn add(&mut self, cfg: &mut Config, i: super::Iface, e: Interface) -> bool {
        if !self.in_map && self.sorted.last().is_none_or(|(last, _)| *last < i) {
            self.sorted.push((i, e));
            return false;
        }
        if !self.in_map {
            self.in_map = true;
            cfg.interfaces.extend(std::mem::take(&mut self.sorted));
        }
        match cfg.interfaces.entry(i) {
            std::collections::btree_map::Entry::Occupied(_) => true,
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(e);
                false
            }
        }
    }

    /// The interfaces in the config's map.
    fn finish(self, cfg: &mut Config) {
        if !self.in_map {
            cfg.interfaces = self.sorted.into_iter().collect();
        }
    }
}

/// A run of top-level lines read by one thread: its lines and blocks in order, each
/// interface block's settings, and the problem that stopped it, if one did (reported unless a
/// block above it has one).
struct Piece {
    units: Vec<Unit>,
    /// Each interface block's settings, in the order of the blocks.
    interfaces: Vec<Result<Interface, ParseError>>,
    stopped: Option<ParseError>,
}

/// Lines `at..end` read, in one piece per core for a large configuration (cut at a top-level
/// `!`, which ends a block; not in a configuration with a banner, whose text may hold one), in
/// order.
fn pieces(r: &Reader<'_>, at: usize, end: usize) -> Vec<Piece> {
    let read = |mut at: usize, end: usize| {
        // A block and its `!` for every few lines.
        let mut units: Vec<Unit> = Vec::with_capacity((end - at) / 2 + 1);
        let stopped = loop {
            match next_unit(r, &mut at, end) {
                Ok(Some(u)) => units.push(u),
                Ok(None) => break None,
                Err(e) => break Some(e),
            }
        };
        let interfaces = units
            .iter()
            .filter_map(|u| match u {
                Unit::Block(Top::Interface(_), node) => Some(interface(r, &node.children)),
                _ => None,
            })
            .collect();
        Piece {
            units,
            interfaces,
            stopped,
        }
    };
    // Below this many lines a thread costs more than it saves.
    const PARALLEL: usize = 8192;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cut = (end - at >= PARALLEL && cores > 1)
        .then(|| {
            let banner = r.lines.iter(at..end).any(|l| l.starts_with("banner "));
            let mid = (end - at) / 2;
            let bang = r.lines.iter(at + mid..end).position(|l| l == "!");
            bang.filter(|_| !banner).map(|k| at + mid + k)
        })
        .flatten();
    let Some(cut) = cut else {
        return vec![read(at, end)];
    };
    std::thread::scope(|s| {
        let later = s.spawn(|| read(cut, end));
        let first = read(at, cut);
        match later.join() {
            Ok(second) => vec![first, second],
            Err(e) => std::panic::resume_unwind(e),
        }
    })
}

/// A top-level line of a running configuration: text kept as it is (`!`, blank lines, a
/// banner, a block the model does not hold) or a modeled block with its lines.
enum Unit {
    Text(String),
    Block(Top, Node),
}

/// The top-level line at `at` and its block, `at` moved past them; `None` at `end`.
fn next_unit(r: &Reader<'_>, at: &mut usize, end: usize) -> Result<Option<Unit>, ParseError> {
    let Some(line) = r.lines.get(*at).filter(|_| *at < end) else {
        return Ok(None);
    };
    let start = *at;
    if line.is_empty() || line == "!" {
        // A run of the same line is one text, printed a line each: a flood of `!` lines
        // costs its own bytes, not an entry of the layout (and a unit here) per line.
        let run = r.lines.iter(start..end).take_while(|l| *l == line).count();
        *at += run;
        let mut text = format!("{line}\n").repeat(run);
        text.pop();
        return Ok(Some(Unit::Text(text)));
    }
    if line.starts_with(' ') {
        return Err(r.error(
            Problem::Structure,
            start,
            indent_of(line),
            "a line of a block, with no block above it (an indented line follows the line it belongs to; after a `!` comes a top-level line)",
        ));
    }
    if line.starts_with('%') {
        return Err(r.error(
            Problem::ErrorReply,
            start,
            0,
            "a switch's error reply, not configuration (was the command refused?)",
        ));
    }
    if is_prompt(line) {
        return Err(r.error(
            Problem::Prompt,
            start,
            0,
            "a CLI prompt and command, not configuration: keep only what the command printed",
        ));
    }
    let top =
        command::top(line).map_err(|b| r.error(Problem::Malformed, start, b.column, b.expected))?;
    if let Some(Top::Banner(delim)) = &top {
        // The banner's text, up to the line that ends with its delimiter.
        let last = (start + 1..r.lines.len())
            .find(|&j| r.lines.line(j).trim_end().ends_with(delim.as_str()));
        let Some(last) = last else {
            return Err(r.error(
                Problem::Structure,
                start,
                line.len() - delim.len(),
                format!("a banner ends with a line holding its delimiter `{delim}`; none follows"),
            ));
        };
        *at = last + 1;
        return Ok(Some(Unit::Text(r.lines.span(start..last + 1).to_string())));
    }
    *at += 1;
    let children = r.children(at, 1)?;
    let node = Node {
        at: start,
        end: *at,
        children,
    };
    let Some(top) = top else {
        // A line of a block at the top level: the text lost its indentation (a copy through
        // a page that trims lines).
        if command::iface(line).ok().flatten().is_some() {
            return Err(r.error(
                Problem::Structure,
                start,
                0,
                format!("`{line}` belongs inside a block (`interface …`), indented by one space: was the indentation lost?"),
            ));
        }
        return Ok(Some(Unit::Text(r.verbatim(&node))));
    };
    Ok(Some(Unit::Block(top, node)))
}

/// The line of the first `interface` block for `i` above line `before` (a second one was
/// found there).
fn first_interface(r: &Reader<'_>, i: super::Iface, before: usize) -> usize {
    r.lines
        .iter(0..before)
        .position(|l| matches!(command::top(l), Ok(Some(Top::Interface(x))) if x == i))
        .unwrap_or(before)
}

/// Folds one modeled top-level item but an interface into the config; its key.
fn read_top(r: &Reader<'_>, cfg: &mut Config, top: Top, node: &Node) -> Result<Key, ParseError> {
    let kids = &node.children;
    Ok(match top {
        Top::Hostname(h) => setting(r, node, Key::Hostname, || cfg.hostname = Some(h))?,
        Top::Dcbx => setting(r, node, Key::Dcbx, || cfg.dcbx = true)?,
        Top::Breakout(e, map) => setting(r, node, Key::Breakout(e), || {
            cfg.breakouts.insert(e, map);
        })?,
        Top::BfdEnable => setting(r, node, Key::BfdEnable, || cfg.bfd = true)?,
        Top::BfdInterval(b) => setting(r, node, Key::BfdInterval, || cfg.bfd_interval = Some(b))?,
        // Read by `pieces` and folded in by `fold`; here for completeness.
        Top::Interface(i) => {
            let e = interface(r, kids)?;
            cfg.interfaces.entry(i).or_insert(e);
            Key::Interface(i)
        }
        Top::Wred(n) => {
            let k = Key::Wred(n.clone());
            if !cfg.wred.iter().any(|w| w.name == n) {
                cfg.wred.push(wred(r, n, kids)?);
            }
            k
        }
        Top::ClassMap(t, n) => {
            let k = Key::ClassMap(t, n.clone());
            if !cfg.class_maps.iter().any(|c| c.kind == t && c.name == n) {
                cfg.class_maps.push(class_map(r, t, n, kids)?);
            }
            k
        }
        Top::TrustMap(t, n) => {
            let k = Key::TrustMap(t, n.clone());
            let m = trust_map(r, t, n, kids)?;
            if !cfg
                .trust_maps
                .iter()
                .any(|c| c.kind == t && c.name == m.name)
            {
                cfg.trust_maps.push(m);
            }
            k
        }
        Top::QosMap(n) => {
            let k = Key::QosMap(n.clone());
            let m = qos_map(r, n, kids)?;
            if !cfg.qos_maps.iter().any(|q| q.name == m.name) {
                cfg.qos_maps.push(m);
            }
            k
        }
        Top::PolicyMap(t, n) => {
            let k = Key::PolicyMap(t, n.clone());
            if !cfg.policy_maps.iter().any(|c| c.kind == t && c.name == n) {
                cfg.policy_maps.push(policy_map(r, t, n, kids)?);
            }
            k
        }
        Top::SystemQos => {
            cfg.system_qos.get_or_insert(system_qos(r, kids)?);
            Key::SystemQos
        }
        Top::PortGroup(id) => {
            let g = port_group(r, kids)?;
            cfg.port_groups.entry(id).or_insert(g);
            Key::PortGroup(id)
        }
        Top::Vlt(id) => read_vlt(r, cfg, id, node)?,
        Top::Bgp(asn) => read_bgp(r, cfg, asn, node)?,
        // Read as text by `parse`, before the tree.
        Top::Banner(_) => {
            return Err(r.error(Problem::Structure, node.at, 0, "a banner inside a block"));
        }
    })
}

/// A single-line setting (`key`) folded in by `set`: no line may be under it.
fn setting(r: &Reader<'_>, node: &Node, key: Key, set: impl FnOnce()) -> Result<Key, ParseError> {
    r.leaf(node)?;
    set();
    Ok(key)
}

/// A `vlt-domain` block folded in: one domain per switch.
fn read_vlt(r: &Reader<'_>, cfg: &mut Config, id: u8, node: &Node) -> Result<Key, ParseError> {
    let v = vlt(r, id, &node.children)?;
    one_per_switch(r, node, &mut cfg.vlt, v, |x| x.id != id, "`vlt-domain`")?;
    Ok(Key::Vlt)
}

/// A `router bgp` block folded in: one instance per switch.
fn read_bgp(r: &Reader<'_>, cfg: &mut Config, asn: u32, node: &Node) -> Result<Key, ParseError> {
    let b = bgp(r, asn, &node.children)?;
    one_per_switch(
        r,
        node,
        &mut cfg.bgp,
        b,
        |x| x.asn != asn,
        "`router bgp` instance",
    )?;
    Ok(Key::Bgp)
}

/// `slot`, a block a switch has one of (`what`), given `new` unless it holds one already; a
/// second that `differs` from the one it holds is refused at `node`.
fn one_per_switch<T>(
    r: &Reader<'_>,
    node: &Node,
    slot: &mut Option<T>,
    new: T,
    differs: impl Fn(&T) -> bool,
    what: &str,
) -> Result<(), ParseError> {
    if slot.as_ref().is_some_and(differs) {
        return Err(r.error(
            Problem::Duplicate,
            node.at,
            0,
            format!("one {what} per switch: this one is a second"),
        ));
    }
    slot.get_or_insert(new);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::looks_os10;

    /// A flood of `!` or blank lines (a million here: 2 MB, then 1 MB) is one text of the
    /// layout, not an entry per line: the model costs the flood's bytes, whatever its length
    /// (`docs/performance.md` has the peak memory of 10 and 60 MB floods), and prints back byte
    /// for byte.
    #[test]
    fn a_flood_of_bang_or_blank_lines_is_one_entry_of_the_layout() {
        let golden = crate::repo_file("golden/vcf-bitfusion/leaf-a.cfg");
        let entries = super::parse(&golden).unwrap().layout.entries.len();
        let renderer = crate::os10::Renderer::embedded().unwrap();
        for line in ["!\n", "\n"] {
            let text = format!("{golden}{}interface vlan9\n", line.repeat(1_000_000));
            let c = super::parse(&text).unwrap();
            assert!(
                c.layout.entries.len() <= entries + 3,
                "{}",
                c.layout.entries.len()
            );
            let back = renderer.render(&c).unwrap();
            assert!(
                back == text,
                "{:?}",
                &back[back.len().saturating_sub(200)..]
            );
        }
    }

    /// Onyx glues the number onto its management port as OS10 does onto every interface
    /// (`interface mgmt0 ip address …`, unindented in a fragment of Onyx configuration): that
    /// is no sign of OS10, whose management port is `mgmt1/1/1`.
    #[test]
    fn onyx_management_port_is_not_os10() {
        assert!(!looks_os10(
            "interface mgmt0 ip address 10.0.0.1 /24\nroce lossless\n"
        ));
        assert!(!looks_os10("interface mgmt1 dhcp hostname\n"));
        assert!(!looks_os10("   interface ethernet 1/1 mtu 9216 force\n"));
        assert!(looks_os10("interface mgmt1/1/1\n no shutdown\n"));
        assert!(looks_os10("interface ethernet1/1/1\n mtu 9216\n"));
        assert!(looks_os10("! Version 10.5.2.3\n"));
        assert!(looks_os10("! Version 10.5.2.3"));
        assert!(looks_os10("hostname x\r\ninterface vlan2000\r\n"));
        assert!(!looks_os10(""));
        assert!(!looks_os10("\n\n interface ethernet1/1/1\n"));
    }
}
