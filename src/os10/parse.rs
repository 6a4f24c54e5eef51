//! `show running-configuration` text → [`Config`]: the header lines, the tree of blocks (a
//! child is indented one space more than its parent), every line the grammar knows folded into
//! the state, every other line kept verbatim in its block and place.
//!
//! Malformed structure is an error with its line and column, never a guess: an indented line
//! with no block above it, a child indented by more than one space past its parent, a tab, a
//! block's lines at the top level (a copy that lost its indentation), a banner never closed, a
//! block or setting given twice, a known command with a bad value, a prompt or an error reply
//! where configuration should be.

use std::collections::{BTreeMap, HashMap};
use std::mem::{Discriminant, discriminant};

use super::command::{self, Bad, BgpCmd, PeerCmd, Top};
use super::{
    AddressFamily, Bgp, ClassMap, Config, Entry, Extras, Interface, Key, Peer, PolicyClass,
    PolicyMap, PortGroup, QosKind, QosMap, SystemQos, TrustMap, Vlt, Wred,
};
pub use crate::config_error::{ParseError, Problem};

/// A line and the lines under it.
struct Node {
    /// Index of its line.
    at: usize,
    /// One past the index of its last descendant's line.
    end: usize,
    children: Vec<Node>,
}

struct Reader<'t> {
    lines: Lines<'t>,
}

/// The lines of a text, by where each starts: 4 bytes a line rather than a 16-byte slice (a
/// 60 MB flood of `!` lines is 30 million lines). A line is its text without the newline.
struct Lines<'t> {
    text: &'t str,
    /// Where each line starts, then one more: where a line after the last would start (a
    /// newline past the text's end when the text has none at its end).
    starts: Vec<u32>,
}

impl<'t> Lines<'t> {
    /// The lines of `text`; `None` past 4 GiB (never read: inputs are bounded far below).
    fn new(text: &'t str) -> Option<(Lines<'t>, bool)> {
        let b = text.as_bytes();
        u32::try_from(b.len() + 1).ok()?;
        // Counted first (with `memchr`'s vector search): the list is made once at its size.
        let mut starts = Vec::with_capacity(memchr::memchr_iter(b'\n', b).count() + 2);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', b).map(|nl| (nl + 1) as u32));
        // A final newline ends the last line; else the last line ends at the text's end.
        let final_newline = b.last() == Some(&b'\n');
        if !final_newline {
            starts.push((b.len() + 1) as u32);
        }
        Some((Lines { text, starts }, final_newline))
    }

    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `i` (panics past the end, as indexing does).
    fn line(&self, i: usize) -> &'t str {
        self.span(i..i + 1)
    }

    fn get(&self, i: usize) -> Option<&'t str> {
        (i < self.len()).then(|| self.line(i))
    }

    /// Lines `r` as the text holds them, joined by their newlines.
    fn span(&self, r: std::ops::Range<usize>) -> &'t str {
        if r.is_empty() {
            return "";
        }
        &self.text[self.starts[r.start] as usize..self.starts[r.end] as usize - 1]
    }

    fn iter(&self, r: std::ops::Range<usize>) -> impl Iterator<Item = &'t str> + '_ {
        r.map(|i| self.line(i))
    }
}

impl<'t> Reader<'t> {
    fn error(
        &self,
        problem: Problem,
        at: usize,
        column: usize,
        expected: impl Into<String>,
    ) -> ParseError {
        let text = self.lines.get(at).unwrap_or("");
        ParseError {
            problem,
            line: at + 1,
            column: text.get(..column).map_or(column, |s| s.chars().count()) + 1,
            text: text.to_string(),
            expected: expected.into(),
        }
    }

    /// A known command's error at its line (`col` counts in the line without its indent).
    fn bad(&self, n: &Node, b: Bad) -> ParseError {
        let indent = indent_of(self.lines.line(n.at));
        self.error(Problem::Malformed, n.at, indent + b.column, b.expected)
    }

    /// The line of `n` without its indentation.
    fn text(&self, n: &Node) -> &'t str {
        self.lines.line(n.at).trim_start_matches(' ')
    }

    /// The lines of `n` and its descendants, as printed.
    fn verbatim(&self, n: &Node) -> String {
        self.lines.span(n.at..n.end).to_string()
    }

    /// The children of the line before `at`, indented by `depth` spaces: every following line
    /// indented at least that much. A blank line ends a block.
    fn children(&self, at: &mut usize, depth: usize) -> Result<Vec<Node>, ParseError> {
        let mut out = Vec::new();
        while let Some(line) = self.lines.get(*at) {
            let ind = indent_of(line);
            if line.is_empty() || ind < depth {
                break;
            }
            if ind > depth {
                return Err(self.error(
                    Problem::Structure,
                    *at,
                    0,
                    format!(
                        "a line indented by {depth} space{} (a child is indented one space more than its block), not {ind}",
                        if depth == 1 { "" } else { "s" }
                    ),
                ));
            }
            let start = *at;
            *at += 1;
            let children = self.children(at, depth + 1)?;
            out.push(Node {
                at: start,
                end: *at,
                children,
            });
        }
        Ok(out)
    }

    /// Refuses lines under a single-line command.
    fn leaf(&self, n: &Node) -> Result<(), ParseError> {
        match n.children.first() {
            Some(c) => Err(self.error(
                Problem::Structure,
                c.at,
                indent_of(self.lines.line(c.at)),
                format!("no line under `{}`: it is not a block", self.text(n)),
            )),
            None => Ok(()),
        }
    }
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Settings seen in one block, so a second one is refused rather than silently overwriting.
struct Seen<T>(Vec<Discriminant<T>>);

impl<T> Default for Seen<T> {
    fn default() -> Self {
        Seen(Vec::new())
    }
}

impl<T> Seen<T> {
    fn first(&mut self, r: &Reader<'_>, n: &Node, c: &T) -> Result<(), ParseError> {
        let d = discriminant(c);
        if self.0.contains(&d) {
            return Err(r.error(
                Problem::Duplicate,
                n.at,
                indent_of(r.lines.line(n.at)),
                format!(
                    "one `{}` setting per block: this one is a second",
                    first_words(r.text(n))
                ),
            ));
        }
        self.0.push(d);
        Ok(())
    }
}

/// The command words of a line, for messages (`switchport access vlan`).
fn first_words(line: &str) -> String {
    line.split(' ')
        .take_while(|w| !w.starts_with(|c: char| c.is_ascii_digit() || c == '"'))
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether a `!` child at `i` opens the modeled sub-block after it (OS10 prints a `!` before
/// each sub-block: a policy-map's class, BGP's address family, template, neighbor).
fn bang_before(r: &Reader<'_>, nodes: &[Node], i: usize, opens: impl Fn(&str) -> bool) -> bool {
    r.text(&nodes[i]) == "!" && nodes.get(i + 1).is_some_and(|n| opens(r.text(n)))
}

/// Reads a block's children: `read` folds a line the model knows into the block and says so;
/// the others are kept verbatim with their place.
fn block(
    r: &Reader<'_>,
    nodes: &[Node],
    extras: &mut Extras,
    opens: impl Fn(&str) -> bool,
    mut read: impl FnMut(&Node) -> Result<bool, ParseError>,
) -> Result<(), ParseError> {
    let mut modeled = 0usize;
    for (i, n) in nodes.iter().enumerate() {
        if bang_before(r, nodes, i, &opens) {
            continue;
        }
        if read(n)? {
            modeled += 1;
        } else {
            extras.push((modeled, r.verbatim(n)));
        }
    }
    Ok(())
}

fn no_sub_blocks(_: &str) -> bool {
    false
}

/// A block of single-line settings, each given once: `read` is the grammar, `apply` folds a
/// setting in; what the grammar does not know is returned verbatim with its place.
fn settings<C>(
    r: &Reader<'_>,
    nodes: &[Node],
    read: impl Fn(&str) -> Result<Option<C>, Bad>,
    mut apply: impl FnMut(&C),
) -> Result<Extras, ParseError> {
    let mut extras = Extras::new();
    let mut seen = Seen::default();
    block(r, nodes, &mut extras, no_sub_blocks, |n| {
        match read(r.text(n)).map_err(|b| r.bad(n, b))? {
            Some(c) => {
                r.leaf(n)?;
                seen.first(r, n, &c)?;
                apply(&c);
                Ok(true)
            }
            None => Ok(false),
        }
    })?;
    Ok(extras)
}

fn interface(r: &Reader<'_>, nodes: &[Node]) -> Result<Interface, ParseError> {
    let mut e = Interface::default();
    let extras = settings(r, nodes, command::iface, |c| e.apply(c))?;
    e.extras = extras;
    Ok(e)
}

fn wred(r: &Reader<'_>, name: String, nodes: &[Node]) -> Result<Wred, ParseError> {
    let mut w = Wred {
        name,
        colors: BTreeMap::new(),
        ecn: false,
        extras: Extras::new(),
    };
    let mut extras = Extras::new();
    // One line per colour, one `random-detect ecn`.
    let mut seen: Vec<Option<super::Color>> = Vec::new();
    block(
        r,
        nodes,
        &mut extras,
        no_sub_blocks,
        |n| match command::wred(r.text(n)).map_err(|b| r.bad(n, b))? {
            Some(c) => {
                r.leaf(n)?;
                let what = match &c {
                    command::WredCmd::Color(col, _) => Some(*col),
                    command::WredCmd::Ecn => None,
                };
                if seen.contains(&what) {
                    return Err(r.error(
                        Problem::Duplicate,
                        n.at,
                        indent_of(r.lines.line(n.at)),
                        "one line per colour, one `random-detect ecn`: this one is a second",
                    ));
                }
                seen.push(what);
                w.apply(&c);
                Ok(true)
            }
            None => Ok(false),
        },
    )?;
    w.extras = extras;
    Ok(w)
}

/// The blocks of keyed entries (`qos-group N …`, `queue N …`): one line per key.
fn keyed<T>(
    r: &Reader<'_>,
    nodes: &[Node],
    read: impl Fn(&str) -> Result<Option<(u8, T)>, Bad>,
) -> Result<(BTreeMap<u8, T>, Extras), ParseError> {
    let mut map = BTreeMap::new();
    let mut extras = Extras::new();
    block(r, nodes, &mut extras, no_sub_blocks, |n| {
        match read(r.text(n)).map_err(|b| r.bad(n, b))? {
            Some((k, v)) => {
                r.leaf(n)?;
                if map.insert(k, v).is_some() {
                    return Err(r.error(
                        Problem::Duplicate,
                        n.at,
                        indent_of(r.lines.line(n.at)),
                        format!("one line for {k}: this one is a second"),
                    ));
                }
                Ok(true)
            }
            None => Ok(false),
        }
    })?;
    Ok((map, extras))
}

fn class_map(
    r: &Reader<'_>,
    kind: QosKind,
    name: String,
    nodes: &[Node],
) -> Result<ClassMap, ParseError> {
    let mut c = ClassMap {
        kind,
        name,
        matches: None,
        extras: Extras::new(),
    };
    let mut extras = Extras::new();
    block(
        r,
        nodes,
        &mut extras,
        no_sub_blocks,
        |n| match command::class_match(kind, r.text(n)).map_err(|b| r.bad(n, b))? {
            Some(m) => {
                r.leaf(n)?;
                if c.matches.replace(m).is_some() {
                    return Err(r.error(
                        Problem::Duplicate,
                        n.at,
                        1,
                        "one `match` line per class-map: this one is a second",
                    ));
                }
                Ok(true)
            }
            None => Ok(false),
        },
    )?;
    c.extras = extras;
    Ok(c)
}

fn is_class(line: &str) -> bool {
    line.starts_with("class ")
}

fn policy_map(
    r: &Reader<'_>,
    kind: QosKind,
    name: String,
    nodes: &[Node],
) -> Result<PolicyMap, ParseError> {
    let mut p = PolicyMap {
        kind,
        name,
        classes: Vec::new(),
        extras: Extras::new(),
    };
    let mut extras = Extras::new();
    block(r, nodes, &mut extras, is_class, |n| {
        let Some(class) = command::policy_class(r.text(n)).map_err(|b| r.bad(n, b))? else {
            return Ok(false);
        };
        if p.classes.iter().any(|c| c.name == class) {
            return Err(r.error(
                Problem::Duplicate,
                n.at,
                1,
                format!("one `class {class}` block per policy-map: this one is a second"),
            ));
        }
        let mut pc = PolicyClass {
            name: class,
            ..PolicyClass::default()
        };
        let cx = settings(
            r,
            &n.children,
            |l| command::class_line(kind, l),
            |c| pc.apply(c),
        )?;
        pc.extras = cx;
        p.classes.push(pc);
        Ok(true)
    })?;
    p.extras = extras;
    Ok(p)
}

fn system_qos(r: &Reader<'_>, nodes: &[Node]) -> Result<SystemQos, ParseError> {
    let mut q = SystemQos::default();
    let extras = settings(r, nodes, command::system_qos, |c| q.apply(c))?;
    q.extras = extras;
    Ok(q)
}

/// A `port-group` block: its `mode Eth …`, once.
fn port_group(r: &Reader<'_>, nodes: &[Node]) -> Result<PortGroup, ParseError> {
    let mut g = PortGroup::default();
    let extras = settings(r, nodes, command::port_group_mode, |m| {
        g.mode = Some(m.clone())
    })?;
    g.extras = extras;
    Ok(g)
}

fn vlt(r: &Reader<'_>, id: u8, nodes: &[Node]) -> Result<Vlt, ParseError> {
    let mut v = Vlt::new(id);
    let extras = settings(r, nodes, command::vlt, |c| v.apply(c))?;
    v.extras = extras;
    Ok(v)
}

fn is_af(line: &str) -> bool {
    line == "address-family ipv4 unicast"
}

fn is_bgp_block(line: &str) -> bool {
    is_af(line) || line.starts_with("template ") || line.starts_with("neighbor ")
}

/// An `address-family ipv4 unicast` block; `networks` says whether `network` lines are read
/// (in the instance) or kept verbatim (in a neighbor or template, where OS10 has none).
fn address_family(r: &Reader<'_>, n: &Node, networks: bool) -> Result<AddressFamily, ParseError> {
    let mut af = AddressFamily::default();
    let mut extras = Extras::new();
    block(r, &n.children, &mut extras, no_sub_blocks, |m| {
        if !networks {
            return Ok(false);
        }
        match command::af_network(r.text(m)).map_err(|b| r.bad(m, b))? {
            Some(net) => {
                r.leaf(m)?;
                if af.networks.contains(&net) {
                    return Err(r.error(
                        Problem::Duplicate,
                        m.at,
                        2,
                        format!("one `network {net}` line: this one is a second"),
                    ));
                }
                af.networks.push(net);
                Ok(true)
            }
            None => Ok(false),
        }
    })?;
    af.extras = extras;
    Ok(af)
}

fn peer(r: &Reader<'_>, n: &Node) -> Result<Peer, ParseError> {
    let mut p = Peer::default();
    let mut extras = Extras::new();
    let mut seen = Seen::default();
    block(
        r,
        &n.children,
        &mut extras,
        is_af,
        |m| match command::peer(r.text(m)).map_err(|b| r.bad(m, b))? {
            Some(PeerCmd::Ipv4Unicast) => {
                if p.ipv4.is_some() {
                    return Err(r.error(
                        Problem::Duplicate,
                        m.at,
                        2,
                        "one `address-family ipv4 unicast` block: this one is a second",
                    ));
                }
                p.ipv4 = Some(address_family(r, m, false)?);
                Ok(true)
            }
            Some(c) => {
                r.leaf(m)?;
                seen.first(r, m, &c)?;
                p.apply(&c);
                Ok(true)
            }
            None => Ok(false),
        },
    )?;
    p.extras = extras;
    Ok(p)
}

fn bgp(r: &Reader<'_>, asn: u32, nodes: &[Node]) -> Result<Bgp, ParseError> {
    let mut b = Bgp::new(asn);
    let mut extras = Extras::new();
    let mut seen = Seen::default();
    block(r, nodes, &mut extras, is_bgp_block, |n| {
        let Some(c) = command::bgp(r.text(n)).map_err(|e| r.bad(n, e))? else {
            return Ok(false);
        };
        let twice = |what: String| {
            r.error(
                Problem::Duplicate,
                n.at,
                1,
                format!("one `{what}` block: this one is a second"),
            )
        };
        match c {
            BgpCmd::Ipv4Unicast => {
                if b.ipv4.is_some() {
                    return Err(twice(r.text(n).to_string()));
                }
                b.ipv4 = Some(address_family(r, n, true)?);
            }
            BgpCmd::Template(t) => {
                if b.templates.iter().any(|(x, _)| *x == t) {
                    return Err(twice(format!("template {t}")));
                }
                b.templates.push((t, peer(r, n)?));
            }
            BgpCmd::Neighbor(a) => {
                if b.neighbors.iter().any(|(x, _)| *x == a) {
                    return Err(twice(format!("neighbor {a}")));
                }
                b.neighbors.push((a, peer(r, n)?));
            }
            c => {
                r.leaf(n)?;
                seen.first(r, n, &c)?;
                match c {
                    BgpCmd::MultipathRelax => b.multipath_relax = true,
                    BgpCmd::FastExternalFallover(on) => b.fast_external_fallover = on,
                    BgpCmd::MaxPathsEbgp(x) => b.max_paths_ebgp = Some(x),
                    BgpCmd::MaxPathsIbgp(x) => b.max_paths_ibgp = Some(x),
                    BgpCmd::RouterId(a) => b.router_id = Some(a),
                    BgpCmd::Ipv4Unicast | BgpCmd::Template(_) | BgpCmd::Neighbor(_) => {}
                }
            }
        }
        Ok(true)
    })?;
    b.extras = extras;
    Ok(b)
}

/// Whether a top-level line is an OS10 prompt with a command (`OS10# show running-…`,
/// `sw-leaf-bmc-001(config)# …`): a hostname, an optional `(mode)`, `#`, a space.
fn is_prompt(line: &str) -> bool {
    prompt(line).is_some_and(|(_, rest)| !rest.is_empty())
}

/// The OS10 prompt at the start of a line: whether it shows a mode (`(config)`), and what
/// follows it, trimmed (the typed command; empty for a lone prompt, `OS10#`).
fn prompt(line: &str) -> Option<(bool, &str)> {
    let (head, rest) = line.split_once('#')?;
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let (host, mode) = match head.split_once('(') {
        Some((h, mode)) => {
            if !mode.ends_with(')') || mode.contains(' ') {
                return None;
            }
            (h, true)
        }
        None => (head, false),
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    host_ok.then(|| (mode, rest.trim()))
}

/// The prompt of a saved exec-mode session (`HOST# show running-configuration`, a lone
/// `HOST#` after it): what follows it.
fn exec_prompt(line: &str) -> Option<&str> {
    prompt(line).filter(|(mode, _)| !mode).map(|(_, rest)| rest)
}

/// Whether a text is an OS10 `show running-configuration`: it opens with `! Version 10.…`,
/// or names an interface with its number glued on (`interface ethernet1/1/N`, `interface
/// vlan2000`, `interface mgmt1/1/1`: the captures in `tests/fixtures/corpus/os10/`). Onyx
/// prints neither (`interface ethernet 1/N`, `interface vlan 10`: a space), but its management
/// port's number is glued on too (`interface mgmt0 ip address …`), so only OS10's
/// `mgmt1/…` counts.
pub fn looks_os10(text: &str) -> bool {
    let says = |l: &str| {
        let l = l.trim_end();
        l.starts_with("! Version 10.")
            || l.strip_prefix("interface ").is_some_and(|name| {
                ["ethernet", "vlan", "port-channel", "loopback", "mgmt1/"]
                    .iter()
                    .any(|k| {
                        name.strip_prefix(k)
                            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
                    })
            })
    };
    // Only a line starting with `!` or `i` can say so: the others are passed over by their
    // first byte (the whole of an Onyx config is looked through before it is read as one).
    let b = text.as_bytes();
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', b).map(|nl| nl + 1))
        .filter(|&start| matches!(b.get(start), Some(b'!' | b'i')))
        .any(|start| {
            let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |n| start + n);
            says(&text[start..end])
        })
}

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
    for (i, l) in body.clone().map(|i| (i, r.lines.line(i))) {
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
    let mut at = body.start;
    // The header: `! Version …`, `! Last configuration change at …`.
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
    // Where each modeled item but the interfaces was read, for a second one (a second
    // interface is found in the model; the first's line only once it is).
    let mut first: HashMap<Key, usize> = HashMap::new();
    // The interfaces in the order read, while each is after the one before (as OS10 prints
    // them): built into the map at once at the end. Else in the map as they come.
    let mut in_map = false;
    let pieces = pieces(&r, at, body.end);
    let units: usize = pieces.iter().map(|p| p.units.len()).sum();
    let mut sorted: Vec<(super::Iface, Interface)> = Vec::with_capacity(units / 2);
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
                        None => interface(&r, &node.children)?,
                    };
                    if !in_map && sorted.last().is_none_or(|(last, _)| *last < i) {
                        sorted.push((i, e));
                        (Key::Interface(i), false)
                    } else {
                        if !in_map {
                            in_map = true;
                            cfg.interfaces.extend(std::mem::take(&mut sorted));
                        }
                        let again = match cfg.interfaces.entry(i) {
                            std::collections::btree_map::Entry::Occupied(_) => true,
                            std::collections::btree_map::Entry::Vacant(v) => {
                                v.insert(e);
                                false
                            }
                        };
                        (Key::Interface(i), again)
                    }
                }
                top => (read_top(&r, &mut cfg, top, &node)?, false),
            };
            let prev = match &key {
                Key::Interface(i) if again => Some(first_interface(&r, *i, start)),
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
    if !in_map {
        cfg.interfaces = sorted.into_iter().collect();
    }
    Ok(cfg)
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
        Top::Hostname(h) => {
            r.leaf(node)?;
            cfg.hostname = Some(h);
            Key::Hostname
        }
        Top::Dcbx => {
            r.leaf(node)?;
            cfg.dcbx = true;
            Key::Dcbx
        }
        Top::Breakout(e, map) => {
            r.leaf(node)?;
            cfg.breakouts.insert(e, map);
            Key::Breakout(e)
        }
        Top::BfdEnable => {
            r.leaf(node)?;
            cfg.bfd = true;
            Key::BfdEnable
        }
        Top::BfdInterval(b) => {
            r.leaf(node)?;
            cfg.bfd_interval = Some(b);
            Key::BfdInterval
        }
        // Read by `read_interfaces` and folded in by `parse`; here for completeness.
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
            let (groups, extras) = keyed(r, kids, |l| command::trust_entry(t, l))?;
            let k = Key::TrustMap(t, n.clone());
            if !cfg.trust_maps.iter().any(|c| c.kind == t && c.name == n) {
                cfg.trust_maps.push(TrustMap {
                    kind: t,
                    name: n,
                    groups,
                    extras,
                });
            }
            k
        }
        Top::QosMap(n) => {
            let (queues, extras) = keyed(r, kids, command::qos_map_entry)?;
            let k = Key::QosMap(n.clone());
            if !cfg.qos_maps.iter().any(|q| q.name == n) {
                cfg.qos_maps.push(QosMap {
                    name: n,
                    queues,
                    extras,
                });
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
        Top::Vlt(id) => {
            let v = vlt(r, id, kids)?;
            if cfg.vlt.as_ref().is_some_and(|x| x.id != id) {
                return Err(r.error(
                    Problem::Duplicate,
                    node.at,
                    0,
                    "one `vlt-domain` per switch: this one is a second",
                ));
            }
            cfg.vlt.get_or_insert(v);
            Key::Vlt
        }
        Top::Bgp(asn) => {
            let b = bgp(r, asn, kids)?;
            if cfg.bgp.as_ref().is_some_and(|x| x.asn != asn) {
                return Err(r.error(
                    Problem::Duplicate,
                    node.at,
                    0,
                    "one `router bgp` instance per switch: this one is a second",
                ));
            }
            cfg.bgp.get_or_insert(b);
            Key::Bgp
        }
        // Read as text by `parse`, before the tree.
        Top::Banner(_) => {
            return Err(r.error(Problem::Structure, node.at, 0, "a banner inside a block"));
        }
    })
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
        let golden = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("golden/vcf-bitfusion/leaf-a.cfg"),
        )
        .unwrap();
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
