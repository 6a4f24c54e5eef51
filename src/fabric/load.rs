//! Reading a fabric file: bytes → text → [`RawFabric`], with the text kept in [`Sources`] so
//! every later diagnostic can show its line. Anything wrong with the file itself (unreadable,
//! not UTF-8, empty, too large, not YAML, an unknown key, a wrong type) becomes one located
//! diagnostic; nothing here panics on what a user can write.
//!
//! The YAML reader's errors name what it expected in its own terms (`invalid i64`, `expected
//! mapping start`) and where it stopped. To say it in the format's terms, a refused file is
//! parsed once more into an [`Outline`] (every node with its span, nothing converted): that
//! finds the node at the error, the keys leading to it, and from the JSON Schema of the format
//! what that key takes.

use std::ops::Range;
use std::path::Path;

use serde_json::Value;
use serde_saphyr::granit_parser::{ErrorKind, Event, Parser, ScalarStyle, ScanError};
use serde_saphyr::{Error as YamlError, Location};

use super::raw::{RawFabric, Sp};
use crate::diag::{Diagnostic, FileId, Sources, Span};
use crate::types::did_you_mean;

/// Larger fabric files are refused before parsing (E004). A fabric of 10,000 switches written
/// one entry per port (60 host ports with a profile and a peer each) is 55 MB.
pub const MAX_BYTES: usize = 64 << 20;

/// Limits against hostile YAML, never against the size of a fabric (E006). YAML can make much
/// of few bytes: an alias (`*ports`) replays its anchored value, and anchors can hold aliases,
/// so a short file can stand for a huge one (the "billion laughs").
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// YAML events that aliases may replay in one file.
    pub replayed: usize,
    /// Nesting of mappings and lists.
    pub depth: usize,
}

impl Limits {
    /// A fabric of 10,000 switches each using one anchored map of 64 ports replays about 8
    /// million events (written out in full, it is 55 MB and about 8 million events, none
    /// replayed); a fabric nests 7 deep.
    pub const FABRIC: Limits = Limits {
        replayed: 16_000_000,
        depth: 64,
    };

    fn options(
        self,
        text: &str,
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy,
    ) -> serde_saphyr::Options {
        // A file without aliases has fewer events than bytes.
        let events = 2 * text.len() + self.replayed;
        let mut b = serde_saphyr::Budget::default();
        b.max_events = events;
        b.max_nodes = events;
        b.max_depth = self.depth;
        // Anchors and aliases are counted by the events they replay, not by their number: a
        // fabric may anchor one port map and use it on every switch.
        b.max_aliases = events;
        b.max_anchors = events;
        b.max_recorded_anchor_events = events;
        b.enforce_alias_anchor_ratio = false;
        let mut a = serde_saphyr::options::AliasLimits::default();
        a.max_total_replayed_events = self.replayed;
        serde_saphyr::options! {
            with_snippet: false,
            budget: Some(b),
            alias_limits: a,
            duplicate_keys: duplicate_keys,
        }
    }
}

/// A fabric file as read and parsed, or the diagnostics that stopped it.
pub struct Loaded {
    pub file: FileId,
    pub raw: RawFabric,
    /// Problems found while reading that did not stop it: keys written twice (E013; the
    /// first is read, so validation still reports everything else).
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads and parses one fabric file. I/O failures are operational errors (`Err`); problems
/// with the content are diagnostics.
pub fn load(path: &Path, sources: &mut Sources) -> std::io::Result<Result<Loaded, Diagnostic>> {
    let name = path.display().to_string();
    let bytes = match crate::input::read(path, MAX_BYTES as u64) {
        Ok(b) => b,
        Err(crate::input::Refused::Io(e)) => return Err(e),
        Err(refused) => return Ok(Err(refused_input(&name, &refused, sources))),
    };
    Ok(parse_bytes(&name, bytes.into_vec(), sources))
}

/// An input refused before it was read (a device, a folder, too large): E005 or E004, at
/// the file. Shared by every reader of user files.
pub fn refused_input(
    name: &str,
    refused: &crate::input::Refused,
    sources: &mut Sources,
) -> Diagnostic {
    let file = sources.add(name, String::new());
    let at = Span {
        file,
        start: 0,
        end: 0,
    };
    match refused {
        crate::input::Refused::TooLarge { .. } => Diagnostic::error(
            "E004",
            format!("`{name}` is too large: {refused}"),
        )
        .at(at, "this file")
        .help("a fabric file or a running config may have 64 MiB; split a fabric into several files and pass them all"),
        _ => Diagnostic::error("E005", format!("`{name}` cannot be read as a file: {refused}"))
            .at(at, "this path")
            .help("give a regular file (or `-` for standard input where a command takes it)"),
    }
}

/// Parses fabric text already in memory (`path` only names it in diagnostics).
// The error is one diagnostic per file read, not a hot path: boxing it would only make every
// caller unbox it.
#[allow(clippy::result_large_err)]
pub fn parse_bytes(
    path: &str,
    bytes: Vec<u8>,
    sources: &mut Sources,
) -> Result<Loaded, Diagnostic> {
    let whole = |file| Span {
        file,
        start: 0,
        end: 0,
    };
    if bytes.len() > MAX_BYTES {
        let refused = crate::input::Refused::TooLarge {
            limit: MAX_BYTES as u64,
            size: Some(bytes.len() as u64),
        };
        return Err(refused_input(path, &refused, sources));
    }
    if let Some(text) = utf16(&bytes) {
        // Shown decoded, so the excerpt reads as the user's editor shows it.
        let file = sources.add(path, text);
        return Err(
            Diagnostic::error("E002", "fabric file looks like UTF-16; it must be UTF-8")
                .at(whole(file), "UTF-16 text")
                .help("save it as UTF-8 (in most editors: Save As, Encoding: UTF-8)"),
        );
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            // Lossy decoding replaces each bad sequence with U+FFFD (3 bytes); the valid prefix
            // is unchanged, so `at` still points at the first bad byte.
            let file = sources.add(path, text);
            return Err(Diagnostic::error("E002", "fabric file is not UTF-8 text")
                .at(
                    Span {
                        file,
                        start: at,
                        end: at + 1,
                    },
                    "first byte that is not UTF-8",
                )
                .help("a fabric file is YAML text; is this a binary file?"));
        }
    };
    let file = sources.add(path, text);
    let text = sources.text(file);
    if text.trim().is_empty()
        || text
            .lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        return Err(Diagnostic::error("E003", "fabric file is empty")
            .at(whole(file), "nothing here")
            .help("a fabric needs at least `switches:`; see fabrics/rdg-roce-dscp.yaml"));
    }
    let (raw, diagnostics) = read_raw(text, file, Limits::FABRIC)?;
    if raw.switches.0.is_empty() {
        return Err(no_switch(text, file));
    }
    Ok(Loaded {
        file,
        raw,
        diagnostics,
    })
}

/// The YAML of a fabric file read into [`RawFabric`] within `limits`, with the keys written
/// twice (E013; the first of each is read, so one duplicate hides no other problem).
// One diagnostic per file read, not a hot path (as `parse_bytes`).
#[allow(clippy::result_large_err)]
fn read_raw(
    text: &str,
    file: FileId,
    limits: Limits,
) -> Result<(RawFabric, Vec<Diagnostic>), Diagnostic> {
    use serde_saphyr::DuplicateKeyPolicy::{Error, FirstWins};
    let read = |policy| {
        serde_saphyr::from_str_with_options::<RawFabric>(text, limits.options(text, policy))
    };
    let failed = |e: YamlError| yaml_diagnostic(e.without_snippet(), file, text, limits);
    match read(Error) {
        Ok(raw) => Ok((raw, Vec::new())),
        Err(YamlError::DuplicateMappingKey { .. }) => match read(FirstWins) {
            Ok(raw) => Ok((raw, duplicate_keys(text, file))),
            Err(e) => Err(failed(e)),
        },
        Err(e) => Err(failed(e)),
    }
}

/// Every key written twice in a mapping (E013), each at its second writing with the first.
fn duplicate_keys(text: &str, file: FileId) -> Vec<Diagnostic> {
    let Ok(docs) = outline(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack: Vec<&Node> = docs.iter().filter_map(|d| d.root.as_ref()).collect();
    while let Some(node) = stack.pop() {
        match &node.kind {
            Kind::Map(entries) => {
                let mut seen: std::collections::HashMap<&str, &Node> = Default::default();
                for (k, v) in entries {
                    if let Some(name) = k.scalar() {
                        if let Some(first) = seen.get(name) {
                            out.push(
                                Diagnostic::error("E013", format!("key `{name}` is written twice"))
                                    .at(to_span(file, k.span.clone()), "written again here")
                                    .also(to_span(file, first.span.clone()), "first written here")
                                    .help("a key appears once in a mapping; merge the two entries into one"),
                            );
                        } else {
                            seen.insert(name, k);
                        }
                    }
                    stack.push(v);
                }
            }
            Kind::List(items) => stack.extend(items),
            _ => {}
        }
    }
    out.sort_by_key(|d| d.sort_key().0.map(|s| s.start));
    out
}

/// The text of a UTF-16 file (a byte-order mark, or ASCII with a NUL byte every other byte),
/// decoded; `None` for anything else.
fn utf16(bytes: &[u8]) -> Option<String> {
    let (body, little) = match bytes {
        [0xFF, 0xFE, rest @ ..] => (rest, true),
        [0xFE, 0xFF, rest @ ..] => (rest, false),
        _ => {
            let head = &bytes[..bytes.len().min(64) & !1];
            if head.len() < 4 {
                return None;
            }
            let zeros = |odd: usize| {
                head.iter()
                    .skip(odd)
                    .step_by(2)
                    .filter(|b| **b == 0)
                    .count()
            };
            let pairs = head.len() / 2;
            match (zeros(0), zeros(1)) {
                (0, z) if z * 2 > pairs => (bytes, true),
                (z, 0) if z * 2 > pairs => (bytes, false),
                _ => return None,
            }
        }
    };
    let units: Vec<u16> = body
        .chunks_exact(2)
        .map(|c| {
            if little {
                u16::from_le_bytes([c[0], c[1]])
            } else {
                u16::from_be_bytes([c[0], c[1]])
            }
        })
        .collect();
    Some(String::from_utf16_lossy(&units))
}

/// The span of a located value.
pub fn span<T>(file: FileId, v: &Sp<T>) -> Span {
    to_span(file, v.range())
}

fn location_span(file: FileId, loc: &Location) -> Span {
    let s = loc.span();
    let start = s.byte_offset().unwrap_or(0) as usize;
    let len = s.byte_len().unwrap_or(0) as usize;
    Span {
        file,
        start,
        end: start + len,
    }
}

/// `switches: {}`: the file parses, but a fabric needs a switch. Reported here, where the text
/// is at hand to point at `switches`.
fn no_switch(text: &str, file: FileId) -> Diagnostic {
    let root = outline(text)
        .ok()
        .and_then(|docs| docs.into_iter().next()?.root);
    let at = root.as_ref().and_then(|r| {
        let (k, v) = r
            .entries()
            .iter()
            .find(|(k, _)| k.scalar() == Some("switches"))?;
        Some(one_line(text, k.span.start..v.span.end.max(k.span.end)))
    });
    let d = Diagnostic::error("E011", "the fabric declares no switch")
        .help("add a switch under `switches:`, e.g. `leaf01: { model: SN2700 }`");
    match at {
        Some(r) => d.at(to_span(file, r), "no switch here"),
        None => d,
    }
}

fn yaml_diagnostic(e: &YamlError, file: FileId, text: &str, limits: Limits) -> Diagnostic {
    // An error inside an aliased value (`*uplink`) is the error itself.
    if let YamlError::AliasError { error, .. } = e {
        return yaml_diagnostic(error, file, text, limits);
    }
    if let YamlError::Budget { .. }
    | YamlError::AliasReplayLimitExceeded { .. }
    | YamlError::AliasExpansionLimitExceeded { .. }
    | YamlError::AliasReplayStackDepthExceeded { .. } = e
    {
        return beyond_limits(e, file, text, limits);
    }
    // A syntax error explains any other: the reader stops at the first problem it meets in
    // its stream of events, which for an unclosed `{` is a strange value, not the brace.
    let docs = match outline(text) {
        Ok(docs) => docs,
        Err(scan) => return syntax_error(&scan, file, text),
    };
    let at = e.location().map(|l| {
        let sp = location_span(file, &l);
        if sp.start == 0 && sp.end == 0 && l.line() > 1 {
            // Some errors carry only a line and column; find the offset from them.
            offset_of(text, l.line() as usize, l.column() as usize)
        } else {
            sp.start
        }
    });
    let root = docs.first().and_then(|d| d.root.as_ref());
    let cx = Cx { file, text, root };
    let found = match (e, at) {
        (YamlError::MultipleDocuments { .. }, _) => Some(multiple_documents(&docs, file, text)),
        (
            YamlError::SerdeUnknownField {
                field, expected, ..
            },
            _,
        ) => {
            let d = Diagnostic::error("E010", format!("unknown key `{field}`"));
            let help = match did_you_mean(field, expected.iter().copied()) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!(
                    "expected one of {}",
                    expected
                        .iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            let span = e.location().map(|l| location_span(file, &l));
            Some(attach(d, span, "unknown key").help(help))
        }
        (YamlError::SerdeMissingField { field, .. }, Some(at)) => cx.missing_key(field, at),
        (YamlError::DuplicateMappingKey { key, .. }, Some(at)) => {
            cx.duplicate_key(key.as_deref(), at)
        }
        (YamlError::InvalidScalar { ty, .. }, Some(at)) => cx.wrong_type(at, Refused::Scalar(ty)),
        (YamlError::Unexpected { expected, .. }, Some(at)) => {
            cx.wrong_type(at, Refused::Structure(expected))
        }
        (
            YamlError::SerdeInvalidType { expected, .. }
            | YamlError::SerdeInvalidValue { expected, .. },
            Some(at),
        ) => cx.wrong_type(at, Refused::Visitor(expected)),
        (
            YamlError::NullIntoString { .. }
            | YamlError::InvalidBooleanStrict { .. }
            | YamlError::InvalidCharNull { .. }
            | YamlError::InvalidCharNotSingleScalar { .. }
            | YamlError::UnexpectedValueForUnit { .. },
            Some(at),
        ) => cx.wrong_type(at, Refused::Structure("")),
        _ => None,
    };
    found.unwrap_or_else(|| {
        let span = at.map(|a| to_span(file, a..a));
        attach(
            Diagnostic::error("E001", format!("invalid YAML: {}", reader_message(e))),
            span,
            "here",
        )
    })
}

/// E006: the file breaks a limit against hostile YAML ([`budget`]), at the place the reader
/// stopped, in the format's words.
fn beyond_limits(e: &YamlError, file: FileId, text: &str, limits: Limits) -> Diagnostic {
    use serde_saphyr::budget::BudgetBreach as B;
    let what = match e {
        YamlError::Budget {
            breach: B::Depth { .. },
            ..
        } => format!("nests deeper than {} levels", limits.depth),
        YamlError::Budget {
            breach:
                B::Events { .. }
                | B::Nodes { .. }
                | B::Aliases { .. }
                | B::Anchors { .. }
                | B::RecordedAnchorEvents { .. }
                | B::RecordedAnchorBytes { .. },
            ..
        }
        | YamlError::AliasReplayLimitExceeded { .. }
        | YamlError::AliasExpansionLimitExceeded { .. } => format!(
            "expands through aliases (`*name`) by more than {}",
            match limits.replayed {
                n if n >= 1_000_000 && n % 1_000_000 == 0 =>
                    format!("{} million values", n / 1_000_000),
                n => format!("{n} values"),
            }
        ),
        YamlError::AliasReplayStackDepthExceeded { .. } => {
            "nests aliases within aliases too deep".to_string()
        }
        _ => format!("breaks a limit of the YAML reader ({})", reader_message(e)),
    };
    let span = e.location().map(|l| {
        let sp = location_span(file, &l);
        let start = if sp.start == 0 && l.line() > 1 {
            offset_of(text, l.line() as usize, l.column() as usize)
        } else {
            sp.start
        };
        to_span(file, start..start)
    });
    attach(
        Diagnostic::error("E006", format!("the fabric file {what}")),
        span,
        "here",
    )
    .help("the limits guard against hostile YAML and no fabric reaches them; see `fabric explain E006`")
}

fn attach(d: Diagnostic, span: Option<Span>, label: impl Into<String>) -> Diagnostic {
    match span {
        Some(s) => d.at(s, label),
        None => d,
    }
}

fn to_span(file: FileId, r: Range<usize>) -> Span {
    Span {
        file,
        start: r.start,
        end: r.end,
    }
}

/// The reader's own message, for errors with no better wording: without the position it
/// appends (the renderer prints the position) and without advice addressed to programmers
/// (`use from_str_multiple`, `set DuplicateKeyPolicy in Options`, `use Option<String>`).
pub(crate) fn reader_message(e: &YamlError) -> String {
    let text = e.to_string();
    let mut line = text.lines().next().unwrap_or("").trim();
    for cut in [" at line ", "; ", ", set ", ". If "] {
        if let Some(i) = line.find(cut) {
            line = &line[..i];
        }
    }
    let line = line.trim_end_matches('.');
    let mut chars = line.chars();
    match chars.next() {
        // Lowercase like every message, unless the word is an initialism (`YAML`).
        Some(c) if !chars.next().is_some_and(|n| n.is_uppercase()) => c
            .to_lowercase()
            .chain(line[c.len_utf8()..].chars())
            .collect(),
        _ => line.to_string(),
    }
}

fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return offset
                + l.char_indices()
                    .nth(column.saturating_sub(1))
                    .map_or(l.len(), |(b, _)| b);
        }
        offset += l.len();
    }
    text.len()
}

/// `r` cut at the end of its first line, so a label on a block mapping or list shows the line
/// it starts on rather than a bracket down the whole block.
fn one_line(text: &str, r: Range<usize>) -> Range<usize> {
    let end = text[r.start.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |i| r.start + i);
    r.start..r.end.min(end).max(r.start)
}

// ---------------------------------------------------------------------------------------------
// The outline: a refused file's YAML nodes with their spans.

/// One YAML node as written: its kind and byte range, nothing converted.
#[derive(Debug)]
struct Node {
    span: Range<usize>,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Scalar { value: String, plain: bool },
    List(Vec<Node>),
    Map(Vec<(Node, Node)>),
    Alias,
}

impl Node {
    fn scalar(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { value, .. } => Some(value),
            _ => None,
        }
    }

    fn entries(&self) -> &[(Node, Node)] {
        match &self.kind {
            Kind::Map(e) => e,
            _ => &[],
        }
    }

    /// Whether `at` falls on this node (an empty node, like a missing value, only at its
    /// start).
    fn covers(&self, at: usize) -> bool {
        self.span.start == at || (self.span.start <= at && at < self.span.end)
    }

    /// Nothing written, or `~` / `null`: what YAML reads as no value.
    fn is_empty(&self) -> bool {
        match &self.kind {
            Kind::Scalar { value, plain } => {
                self.span.is_empty()
                    || *plain && (value == "~" || value.eq_ignore_ascii_case("null"))
            }
            _ => false,
        }
    }
}

/// One YAML document: where it starts (its `---` when written) and its root node.
struct Doc {
    start: Range<usize>,
    explicit: bool,
    root: Option<Node>,
}

/// Every document of `text`, or the syntax error that stops the YAML parser.
fn outline(text: &str) -> Result<Vec<Doc>, ScanError> {
    enum Open {
        List(usize, Vec<Node>),
        Map(usize, Vec<(Node, Node)>, Option<Node>),
    }
    let mut docs = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    for item in Parser::new_from_str(text) {
        let (event, sp) = item?;
        let r = sp.byte_range().unwrap_or(0..0);
        let node = match event {
            Event::DocumentStart(explicit, _) => {
                docs.push(Doc {
                    start: r,
                    explicit,
                    root: None,
                });
                continue;
            }
            Event::Scalar(value, style, _, _) => Node {
                span: r,
                kind: Kind::Scalar {
                    value: value.into_owned(),
                    plain: style == ScalarStyle::Plain,
                },
            },
            Event::Alias(_) => Node {
                span: r,
                kind: Kind::Alias,
            },
            Event::SequenceStart(..) => {
                stack.push(Open::List(r.start, Vec::new()));
                continue;
            }
            Event::MappingStart(..) => {
                stack.push(Open::Map(r.start, Vec::new(), None));
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Open::List(start, items)) => Node {
                    span: start..r.end.max(start),
                    kind: Kind::List(items),
                },
                Some(Open::Map(start, entries, _)) => Node {
                    span: start..r.end.max(start),
                    kind: Kind::Map(entries),
                },
                None => continue,
            },
            _ => continue,
        };
        match stack.last_mut() {
            Some(Open::List(_, items)) => items.push(node),
            Some(Open::Map(_, entries, key)) => match key.take() {
                Some(k) => entries.push((k, node)),
                None => *key = Some(node),
            },
            None => {
                if let Some(doc) = docs.last_mut() {
                    doc.root = Some(node);
                }
            }
        }
    }
    Ok(docs)
}

/// A node on the way down to a position, and how it hangs from its parent.
struct Hit<'a> {
    node: &'a Node,
    /// The keys from the root to this node; `None` for a list item.
    path: Vec<Option<&'a str>>,
    /// The key this node is the value of.
    key: Option<&'a Node>,
    /// This node is itself a key.
    is_key: bool,
}

/// The nodes covering `at`, outermost first.
fn descend(root: &Node, at: usize) -> Vec<Hit<'_>> {
    let mut hits = Vec::new();
    if !root.covers(at) {
        return hits;
    }
    let mut hit = Hit {
        node: root,
        path: Vec::new(),
        key: None,
        is_key: false,
    };
    loop {
        let (node, path) = (hit.node, hit.path.clone());
        hits.push(hit);
        let next = match &node.kind {
            Kind::Map(entries) => entries.iter().find_map(|(k, v)| {
                let mut path = path.clone();
                path.push(Some(k.scalar().unwrap_or("")));
                if k.covers(at) {
                    Some(Hit {
                        node: k,
                        path,
                        key: None,
                        is_key: true,
                    })
                } else {
                    v.covers(at).then_some(Hit {
                        node: v,
                        path,
                        key: Some(k),
                        is_key: false,
                    })
                }
            }),
            Kind::List(items) => items.iter().find(|i| i.covers(at)).map(|i| {
                let mut path = path.clone();
                path.push(None);
                Hit {
                    node: i,
                    path,
                    key: None,
                    is_key: false,
                }
            }),
            _ => None,
        };
        match next {
            Some(h) => hit = h,
            None => return hits,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What the format expects at a path, from its JSON Schema.

/// The sub-schema at `path` (keys; `None` for a list item), following `$ref` and the
/// `anyOf [T, null]` of optional values.
fn schema_at(schema: &Value, path: &[Option<&str>]) -> Option<Value> {
    let mut s = schema.clone();
    for step in path {
        let here = resolve(schema, &s);
        s = match step {
            Some(k) => here
                .get("properties")
                .and_then(|p| p.get(*k))
                .or_else(|| here.get("additionalProperties").filter(|a| a.is_object()))?
                .clone(),
            None => here.get("items")?.clone(),
        };
    }
    Some(s)
}

fn resolve<'a>(root: &'a Value, s: &'a Value) -> &'a Value {
    if let Some(r) = s.get("$ref").and_then(Value::as_str)
        && let Some(t) = r.strip_prefix('#').and_then(|p| root.pointer(p))
    {
        return resolve(root, t);
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
        let real: Vec<&Value> = any
            .iter()
            .filter(|v| v.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        if let [one] = real.as_slice() {
            return resolve(root, one);
        }
    }
    s
}

/// The JSON type a schema takes, `null` aside: `integer`, `object`, ….
fn schema_type<'a>(root: &'a Value, s: &'a Value) -> Option<&'a str> {
    let s = resolve(root, s);
    match s.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(ts) => {
            let real: Vec<&str> = ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            match real.as_slice() {
                [one] => Some(one),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A key's documentation, first sentence, as a phrase: `MTU, 1500-9216`.
fn description(s: &Value) -> Option<String> {
    let d = s.get("description")?.as_str()?;
    let d = d.split("\n\n").next()?.replace('\n', " ");
    let d = d.trim().trim_end_matches('.');
    // Lowercase like every message, unless it starts with an initialism (`MTU`, `DSCP`).
    let mut chars = d.chars();
    Some(match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && b.is_lowercase() => {
            a.to_lowercase().chain(d[a.len_utf8()..].chars()).collect()
        }
        _ => d.to_string(),
    })
}

// ---------------------------------------------------------------------------------------------
// The reader's errors in the format's words.

/// What kind of value the reader refused, as it says it.
#[derive(Clone, Copy)]
enum Refused<'a> {
    /// A scalar that does not convert: `i64`, `floating point`, `boolean`.
    Scalar(&'a str),
    /// A node of the wrong shape: `mapping start`, `sequence start`, `string scalar`.
    Structure(&'a str),
    /// A value a type's visitor refused, with the visitor's own `expected` text.
    Visitor(&'a str),
}

/// The kinds of value the format has, as messages say them.
#[derive(Clone, Copy, PartialEq)]
enum Want {
    Integer,
    Number,
    Bool,
    Text,
    Mapping,
    List,
}

impl Want {
    fn from_schema(t: &str) -> Option<Want> {
        Some(match t {
            "integer" => Want::Integer,
            "number" => Want::Number,
            "boolean" => Want::Bool,
            "string" => Want::Text,
            "object" => Want::Mapping,
            "array" => Want::List,
            _ => return None,
        })
    }

    /// The reader's name for what it wanted, when the schema says nothing.
    fn from_reader(r: Refused<'_>) -> Option<Want> {
        let t = match r {
            Refused::Scalar(t) | Refused::Structure(t) | Refused::Visitor(t) => t,
        };
        Some(match t {
            t if t.starts_with('i') || t.starts_with('u') && t.len() <= 5 => Want::Integer,
            "floating point" | "f64" | "f32" => Want::Number,
            "boolean" | "a boolean" => Want::Bool,
            "mapping start" | "a map" | "a mapping" => Want::Mapping,
            t if t.starts_with("struct ") => Want::Mapping,
            "sequence start" | "a sequence" => Want::List,
            "string scalar" | "a string" => Want::Text,
            _ => return None,
        })
    }

    fn words(self) -> &'static str {
        match self {
            Want::Integer => "an integer",
            Want::Number => "a number",
            Want::Bool => "`true` or `false`",
            Want::Text => "text",
            Want::Mapping => "a mapping",
            Want::List => "a list",
        }
    }
}

/// What a node is, as messages say it: `` `jumbo` ``, `a list`, `nothing`.
fn found(node: &Node, text: &str) -> String {
    match &node.kind {
        Kind::Map(_) => "a mapping".into(),
        Kind::List(_) => "a list".into(),
        Kind::Alias => "an alias".into(),
        Kind::Scalar { .. } if node.span.is_empty() => "nothing".into(),
        Kind::Scalar { .. } => format!("`{}`", written(node, text)),
    }
}

/// A scalar as written (quotes included), on one line and at most 40 characters.
fn written(node: &Node, text: &str) -> String {
    let raw = text.get(node.span.clone()).unwrap_or("");
    let one: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let shown: String = one.chars().take(40).collect();
    let shown = shown.escape_debug().to_string();
    if one.chars().count() > 40 {
        format!("{shown}…")
    } else {
        shown
    }
}

struct Cx<'a> {
    file: FileId,
    text: &'a str,
    root: Option<&'a Node>,
}

impl Cx<'_> {
    fn span(&self, r: Range<usize>) -> Span {
        to_span(self.file, r)
    }

    /// A value of the wrong type (E012), or a number too large for any integer (E020). The
    /// caret goes on the value: the reader locates some of these errors at the key.
    fn wrong_type(&self, at: usize, refused: Refused<'_>) -> Option<Diagnostic> {
        let hits = descend(self.root?, at);
        let hit = match refused {
            Refused::Scalar(_) => hits.last()?,
            Refused::Structure(_) => hits.iter().find(|h| h.node.span.start == at)?,
            Refused::Visitor(_) => match hits.last()? {
                key if key.is_key => {
                    // The value of this key: found by looking one level up.
                    let parent = &hits[hits.len() - 2];
                    let (k, v) = parent
                        .node
                        .entries()
                        .iter()
                        .find(|(k, _)| std::ptr::eq(k, key.node))?;
                    return self.wrong_value(
                        &Hit {
                            node: v,
                            path: key.path.clone(),
                            key: Some(k),
                            is_key: false,
                        },
                        refused,
                    );
                }
                _ => hits.iter().find(|h| h.node.span.start == at)?,
            },
        };
        self.wrong_value(hit, refused)
    }

    fn wrong_value(&self, hit: &Hit<'_>, refused: Refused<'_>) -> Option<Diagnostic> {
        let schema: Value = serde_json::from_str(&super::json_schema()).ok()?;
        let here = if hit.is_key {
            None
        } else {
            schema_at(&schema, &hit.path)
        };
        let want = here
            .as_ref()
            .and_then(|s| schema_type(&schema, s))
            .and_then(Want::from_schema)
            .or_else(|| Want::from_reader(refused));
        // A visitor with its own wording (`strict` or a WRR weight) keeps it.
        let expected = match (refused, want) {
            (Refused::Visitor(v), None) => v.to_string(),
            (Refused::Visitor(v), Some(_)) if v.contains('`') => v.to_string(),
            (_, Some(w)) => w.words().to_string(),
            (_, None) => return None,
        };
        let node = hit.node;
        let name = hit
            .path
            .iter()
            .rev()
            .find_map(|k| *k)
            .filter(|_| !hit.is_key);
        let value = written(node, self.text);
        let plain_number = value.trim_start_matches(['-', '+']);
        let whole_digits =
            !plain_number.is_empty() && plain_number.bytes().all(|b| b.is_ascii_digit());
        let about = here.as_ref().and_then(description);
        let key_text = hit.key.and_then(Node::scalar).or(name);

        // Where the caret goes: the value; for a missing value, the key before it.
        let at = match hit.key {
            Some(k) if node.span.is_empty() => k.span.clone(),
            _ => one_line(self.text, node.span.clone()),
        };
        let label = match (hit.is_key, name, hit.path.last()) {
            (true, _, _) => {
                let map = hit.path.iter().rev().skip(1).find_map(|k| *k);
                match map {
                    Some(m) => format!("a key of `{m}` is {expected}"),
                    None => format!("expected {expected}"),
                }
            }
            (false, Some(_), Some(None)) => {
                format!("each item of `{}` is {expected}", name.unwrap_or_default())
            }
            // A numbered entry (a traffic class under `ets`) is named with its mapping.
            (false, Some(n), _) if n.bytes().all(|b| b.is_ascii_digit()) => {
                match hit.path.iter().rev().skip(1).find_map(|k| *k) {
                    Some(m) => format!("`{m}` {n} takes {expected}"),
                    None => format!("`{n}` takes {expected}"),
                }
            }
            (false, Some(n), _) => format!("`{n}` takes {expected}"),
            (false, None, _) => format!("expected {expected}"),
        };

        if matches!(want, Some(Want::Integer | Want::Number))
            && matches!(node.kind, Kind::Scalar { .. })
            && whole_digits
        {
            // Digits the reader could not take: more than any integer holds.
            let d = Diagnostic::error(
                "E020",
                match key_text {
                    Some(k) => format!("{value} is out of range for `{k}`"),
                    None => format!("{value} is out of range"),
                },
            )
            .at(self.span(at), "out of range");
            return Some(match (&about, key_text) {
                (Some(a), Some(k)) => d.help(format!("`{k}`: {a}")),
                _ => d,
            });
        }

        let mut expected = expected;
        let help = match (want, &node.kind) {
            (Some(Want::Integer | Want::Number), Kind::Scalar { .. })
                if value.ends_with('%') && value.trim_end_matches('%').parse::<f64>().is_ok() =>
            {
                expected = format!("{} (percent, without `%`)", Want::Number.words());
                Some(format!(
                    "write the number alone: `{}`",
                    value.trim_end_matches('%')
                ))
            }
            (Some(Want::Integer), Kind::Scalar { .. })
                if value
                    .parse::<f64>()
                    .is_ok_and(|f| f.fract() == 0.0 && f.is_finite()) =>
            {
                let whole = value.split('.').next().unwrap_or(&value);
                Some(format!("write it without a decimal point: `{whole}`"))
            }
            (Some(Want::Integer | Want::Number | Want::Bool | Want::Text), Kind::List(items))
                if matches!(items.as_slice(), [one] if one.scalar().is_some()) =>
            {
                Some(format!(
                    "write the value alone, without brackets: `{}`",
                    written(&items[0], self.text)
                ))
            }
            (Some(Want::Integer | Want::Number), _) => about
                .as_ref()
                .zip(key_text)
                .map(|(a, k)| format!("`{k}`: {a}")),
            (Some(Want::Bool), _) => Some("write `true` or `false`".into()),
            (Some(Want::Mapping), Kind::List(_)) => {
                Some("write `name: value` entries, not `- item` lines".into())
            }
            (Some(Want::Mapping), _) if node.is_empty() => Some(match key_text {
                Some(k) => format!(
                    "write its entries indented on the lines below `{k}:`, or `{k}: {{}}` for none"
                ),
                None => "write `name: value` entries".into(),
            }),
            (Some(Want::Mapping), _) => Some(match key_text {
                Some(k) => format!(
                    "write `name: value` entries, indented on the lines below `{k}:` or as `{{ name: value }}`"
                ),
                None => "write `name: value` entries".into(),
            }),
            (Some(Want::List), Kind::Scalar { .. }) if !node.is_empty() => {
                Some(format!("write `[{value}]`, or one `- …` line per item"))
            }
            (Some(Want::List), _) => Some("write `[a, b]`, or one `- …` line per item".into()),
            (Some(Want::Text), Kind::List(_) | Kind::Map(_)) => {
                Some("put the text in quotes when it holds `[`, `{`, `: ` or ` #`".into())
            }
            _ => None,
        };
        let d = Diagnostic::error(
            "E012",
            format!("expected {expected}, found {}", found(node, self.text)),
        )
        .at(self.span(at), label);
        Some(match help {
            Some(h) => d.help(h),
            None => d,
        })
    }

    /// A required key not written (E011). The reader locates it at the last key it read in
    /// the mapping that lacks it (or at the mapping, when empty); the label names the mapping.
    fn missing_key(&self, field: &str, at: usize) -> Option<Diagnostic> {
        let hits = descend(self.root?, at);
        let map = hits
            .iter()
            .rev()
            .find(|h| matches!(h.node.kind, Kind::Map(_)))?;
        let (span, label) = match map.key.and_then(|k| Some((k, k.scalar()?))) {
            Some((k, name)) => (k.span.clone(), format!("`{name}` has no `{field}`")),
            None if map.path.is_empty() => (
                one_line(self.text, map.node.span.clone()),
                format!("the fabric has no `{field}`"),
            ),
            None => (
                one_line(self.text, map.node.span.clone()),
                format!("this entry has no `{field}`"),
            ),
        };
        let schema: Value = serde_json::from_str(&super::json_schema()).ok()?;
        let about = schema_at(&schema, &map.path).and_then(|s| {
            let s = resolve(&schema, &s);
            description(s.get("properties")?.get(field)?)
        });
        let help = match about {
            Some(a) => format!("add `{field}:` ({a})"),
            None => format!("add `{field}: …`"),
        };
        Some(
            Diagnostic::error("E011", format!("missing key `{field}`"))
                .at(self.span(span), label)
                .help(help),
        )
    }

    /// A key written twice in one mapping (E013), with both places.
    fn duplicate_key(&self, key: Option<&str>, at: usize) -> Option<Diagnostic> {
        let hits = descend(self.root?, at);
        let again = hits.iter().rev().find(|h| h.is_key)?;
        let map = hits
            .iter()
            .rev()
            .find(|h| matches!(h.node.kind, Kind::Map(_)))?;
        let name = key.or(again.node.scalar())?;
        let first = map
            .node
            .entries()
            .iter()
            .map(|(k, _)| k)
            .find(|k| k.span.start < at && k.scalar() == again.node.scalar());
        let mut d = Diagnostic::error("E013", format!("key `{name}` is written twice"))
            .at(self.span(again.node.span.clone()), "written again here");
        if let Some(f) = first {
            d = d.also(self.span(f.span.clone()), "first written here");
        }
        Some(d.help("a key appears once in a mapping; merge the two entries into one"))
    }
}

/// More than one document in the file (E001), at the start of the second.
fn multiple_documents(docs: &[Doc], file: FileId, text: &str) -> Diagnostic {
    let second = docs.iter().skip(1).find(|d| d.root.is_some() || d.explicit);
    let d = Diagnostic::error("E001", "a fabric file holds one YAML document")
        .help("remove the `---` and merge the two, or put each fabric in a file of its own");
    match second {
        Some(doc) => {
            let r = if doc.explicit {
                doc.start.clone()
            } else {
                doc.root
                    .as_ref()
                    .map_or(doc.start.clone(), |n| one_line(text, n.span.clone()))
            };
            d.at(to_span(file, r), "a second document starts here")
        }
        None => d,
    }
}

/// A YAML syntax error (E001), worded for the mistakes people make in a fabric file.
fn syntax_error(scan: &ScanError, file: FileId, text: &str) -> Diagnostic {
    let m = scan.marker();
    let at = m
        .byte_offset()
        .unwrap_or_else(|| offset_of(text, m.line(), m.col() + 1))
        .min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = &text[line_start..line_end];
    const INDENT: &str = "check the indentation: the keys of one mapping line up, and a value on the lines below its key is indented deeper";
    const FLOW: &str = "close every `{` with `}` and every `[` with `]`, with `,` between entries";
    let (message, span, label, help): (String, Range<usize>, &str, Option<&str>) = match scan.kind()
    {
        ErrorKind::TabInIndentation
        | ErrorKind::TabInBlockIndentation
        | ErrorKind::TabNotAllowed
        | ErrorKind::TabAtBlockScalarStart
        | ErrorKind::TabInPlainScalar => {
            let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
            let tabs = line[..indent]
                .find('\t')
                .map(|i| line_start + i..line_start + indent)
                .unwrap_or(at..at + 1);
            (
                "invalid YAML: a tab in the indentation".into(),
                tabs,
                "tab",
                Some("indent with spaces: YAML does not allow tabs in indentation"),
            )
        }
        ErrorKind::UnclosedQuotedScalar => (
            "invalid YAML: a quoted value is not closed".into(),
            at..at + 1,
            "this quote is never closed",
            Some("end the value with the quote it starts with"),
        ),
        ErrorKind::UnknownAnchor => {
            let name: String = text[at..]
                .chars()
                .skip(1)
                .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
                .collect();
            let len = 1 + name.len();
            (
                format!("invalid YAML: `*{name}` refers to an anchor that is not defined"),
                at..at + len,
                "unknown alias",
                Some(
                    "define the anchor with `&name` on a value before this one, or share the settings with a profile",
                ),
            )
        }
        ErrorKind::MappingValueNotAllowed | ErrorKind::InvalidMappingValueWhitespace => (
            "invalid YAML: a `key:` is not allowed here".into(),
            at..at + 1,
            "unexpected `:`",
            Some("line this key up with the keys of its mapping; quote a value that holds `: `"),
        ),
        ErrorKind::MismatchedFlowCollectionEnd { open, close } => (
            format!("invalid YAML: `{open}` is closed by `{close}`"),
            at..at + 1,
            if *open == '[' {
                "this `[` needs a `]`"
            } else {
                "this `{` needs a `}`"
            },
            Some(FLOW),
        ),
        kind @ (ErrorKind::UnclosedFlowCollection { .. }
        | ErrorKind::UnexpectedEofFlowMapping
        | ErrorKind::UnexpectedEofFlowSequence
        | ErrorKind::UnexpectedEofImplicitFlowMapping
        | ErrorKind::ExpectedFlowMappingSeparator
        | ErrorKind::ExpectedFlowSequenceSeparator) => {
            // Point at the bracket left open, and at where the parser gave up on it.
            let open = match text[at..].chars().next() {
                Some(c @ ('{' | '['))
                    if matches!(kind, ErrorKind::UnclosedFlowCollection { .. }) =>
                {
                    Some((at, c))
                }
                _ => open_bracket(text, at),
            };
            if let Some((open, c)) = open {
                let close = if c == '{' { '}' } else { ']' };
                if closed(text, open) {
                    // Closed later: an entry is not followed by `,` (or has a stray `:`).
                    return Diagnostic::error(
                        "E001",
                        format!("invalid YAML: expected `,` or `{close}` here"),
                    )
                    .at(to_span(file, at..at), format!("expected `,` or `{close}`"))
                    .also(to_span(file, open..open + 1), format!("in this `{c}`"))
                    .help("separate the entries with `,`; quote a value that holds `: `");
                }
                let mut d = Diagnostic::error("E001", format!("invalid YAML: `{c}` is not closed"))
                    .at(
                        to_span(file, open..open + 1),
                        format!("this `{c}` is not closed"),
                    );
                // Flow collections are written on one line: when the parser gave up on a
                // later line, the close is missing at the end of the bracket's own line.
                let open_line_end = text[open..].find('\n').map_or(text.len(), |i| open + i);
                let end = open + text[open..open_line_end].trim_end().len();
                if end > open + 1 {
                    d = d.also(to_span(file, end..end), format!("`{close}` missing here?"));
                }
                return d.help(FLOW);
            }
            (format!("invalid YAML: {kind}"), at..at, "here", Some(FLOW))
        }
        ErrorKind::MisplacedFlowCollectionEnd => (
            format!("invalid YAML: {}", scan.kind()),
            at..at + 1,
            "here",
            Some(FLOW),
        ),
        kind @ (ErrorKind::ExpectedBlockMappingKey
        | ErrorKind::InvalidIndentation
        | ErrorKind::ExpectedBlockSequenceEntry
        | ErrorKind::BlockSequenceEntryNotAllowed
        | ErrorKind::InvalidSimpleKey
        | ErrorKind::SimpleKeyExpected
        | ErrorKind::ExpectedNodeContent
        | ErrorKind::UnexpectedEofBlockMapping
        | ErrorKind::UnexpectedEofBlockSequence) => {
            let what = match kind {
                ErrorKind::ExpectedBlockMappingKey | ErrorKind::InvalidIndentation => {
                    "this line is not indented like the lines around it".to_string()
                }
                ErrorKind::ExpectedBlockSequenceEntry => {
                    "expected a `- ` item at this indentation".to_string()
                }
                ErrorKind::BlockSequenceEntryNotAllowed => {
                    "a `- ` item is not allowed here".to_string()
                }
                ErrorKind::InvalidSimpleKey | ErrorKind::SimpleKeyExpected => {
                    "a key must be followed by `:` on the same line".to_string()
                }
                ErrorKind::ExpectedNodeContent => "a value is missing here".to_string(),
                ErrorKind::UnexpectedEofBlockMapping | ErrorKind::UnexpectedEofBlockSequence => {
                    "the file ends in the middle of a mapping or list".to_string()
                }
                other => other.to_string(),
            };
            (
                format!("invalid YAML: {what}"),
                at..at,
                "here",
                Some(INDENT),
            )
        }
        other => (format!("invalid YAML: {other}"), at..at, "here", None),
    };
    let span = span.start.min(text.len())..span.end.min(text.len());
    let d = Diagnostic::error("E001", message).at(to_span(file, span), label);
    match help {
        Some(h) => d.help(h),
        None => d,
    }
}

/// The brackets of flow collections in `text`, with their offsets: quoted text and comments
/// skipped.
fn brackets(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote: Option<char> = None;
    let mut comment = false;
    let mut escaped = false;
    let mut prev = '\n';
    let mut single_closed = false;
    text.char_indices().filter_map(move |(i, c)| {
        let before = std::mem::replace(&mut prev, c);
        // `''` inside single quotes is a quote, not the end and a new start.
        if std::mem::take(&mut single_closed) && c == '\'' {
            quote = Some('\'');
            return None;
        }
        match (comment, quote, c) {
            (true, _, '\n') => comment = false,
            (true, _, _) => {}
            (false, Some('"'), '\\') if !escaped => {
                escaped = true;
                return None;
            }
            (false, Some(q), c) if c == q && !escaped => {
                quote = None;
                single_closed = q == '\'';
            }
            (false, Some(_), _) => {}
            // A quote opens quoted text only where a value can start (`rack's` stays plain).
            (false, None, '"' | '\'') if before.is_whitespace() || "[{,:".contains(before) => {
                quote = Some(c)
            }
            (false, None, '#') if before.is_whitespace() => comment = true,
            (false, None, '{' | '[' | '}' | ']') => return Some((i, c)),
            _ => {}
        }
        escaped = false;
        None
    })
}

/// The `{` or `[` still open at `at` (its offset and which): for an error inside a flow
/// collection, the bracket to close.
fn open_bracket(text: &str, at: usize) -> Option<(usize, char)> {
    let mut open: Vec<(usize, char)> = Vec::new();
    for (i, c) in brackets(&text[..at.min(text.len())]) {
        if c == '{' || c == '[' {
            open.push((i, c));
        } else {
            open.pop();
        }
    }
    open.pop()
}

/// Whether the bracket at `open` is closed somewhere after it.
fn closed(text: &str, open: usize) -> bool {
    let mut depth = 0usize;
    for (_, c) in brackets(&text[open..]) {
        if c == '{' || c == '[' {
            depth += 1;
        } else {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An anchored port map used on 100 switches replays 100 × 64 × 6 events: within the
    /// fabric limits, past a limit of 10,000 (E006, at the alias where the reader stopped,
    /// the message naming the limit). The fabric limits themselves are too large to reach
    /// in a unit test's time; they are these same checks.
    #[test]
    fn aliases_replaying_past_the_limit_are_e006() {
        let mut y = String::from("switches:\n  leaf0:\n    model: SN4600C\n    ports: &ports\n");
        for p in 1..=64 {
            y += &format!("      1/{p}: {{ mtu: 9216, peer: {{ host: h{p} }} }}\n");
        }
        for s in 1..100 {
            y += &format!("  leaf{s}: {{ model: SN4600C, ports: *ports }}\n");
        }
        let mut sources = Sources::default();
        let file = sources.add("aliases.yaml", y.clone());
        assert!(read_raw(&y, file, Limits::FABRIC).is_ok());
        let small = Limits {
            replayed: 10_000,
            depth: 64,
        };
        let d = read_raw(&y, file, small).expect_err("refused");
        let text = crate::diag::render(&[d], &sources, false);
        assert!(
            text.starts_with(
                "error[E006]: the fabric file expands through aliases (`*name`) by more than 10000 values"
            ) && text.contains("--> aliases.yaml:"),
            "{text}"
        );
    }

    /// Nesting past the limit is E006 where the YAML reader stops.
    #[test]
    fn nesting_past_the_limit_is_e006() {
        let y = "switches:\n  leaf0:\n    model: SN4600C\n    ports:\n      1/1: { ecn: { 3: { min: 150, max: 1500 } } }\n";
        let mut sources = Sources::default();
        let file = sources.add("deep.yaml", y.to_string());
        let shallow = Limits {
            replayed: 1_000_000,
            depth: 4,
        };
        let d = read_raw(y, file, shallow).expect_err("refused");
        let text = crate::diag::render(&[d], &sources, false);
        assert!(
            text.starts_with("error[E006]: the fabric file nests deeper than 4 levels")
                && text.contains("--> deep.yaml:5:"),
            "{text}"
        );
    }
}
