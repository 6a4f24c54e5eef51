//! Reading a fabric file: bytes → text → [`RawFabric`], with the text kept in [`Sources`] so
//! every later diagnostic can show its line. Anything wrong with the file itself (unreadable,
//! not UTF-8, empty, too large, not YAML, an unknown key, a wrong type) becomes one located
//! diagnostic; nothing here panics on what a user can write.
//!
//! The YAML reader's errors name what it expected in its own terms (`invalid i64`, `expected
//! mapping start`) and where it stopped. To say it in the format's terms, a refused file is
//! parsed once more into an outline (every node with its span, nothing converted): that
//! finds the node at the error, the keys leading to it, and from the JSON Schema of the format
//! what that key takes.
//!
//! Here: the bytes read, decoded and parsed. `outline`: a refused file's nodes and their
//! positions; `diagnose`: the reader's errors in the format's words, a value of the wrong type
//! in `expected` (what the schema says its place takes); `syntax`: YAML syntax errors.

use std::path::Path;

use serde_saphyr::Error as YamlError;

use super::raw::{RawFabric, Sp};
use crate::diag::{Diagnostic, FileId, Sources, Span};

mod diagnose;
mod expected;
mod outline;
mod syntax;

pub(crate) use diagnose::reader_message;
use diagnose::yaml_diagnostic;
use outline::{Kind, Node, one_line, outline, to_span};

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
