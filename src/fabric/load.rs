//! Reading a fabric file: bytes → text → [`RawFabric`], with the text kept in [`Sources`] so
//! every later diagnostic can show its line. Anything wrong with the file itself (unreadable,
//! not UTF-8, empty, too large, not YAML, an unknown key, a wrong type) becomes one located
//! diagnostic; nothing here panics on what a user can write.

use std::path::Path;

use serde_saphyr::{Error as YamlError, Location};

use super::raw::{RawFabric, Sp};
use crate::diag::{Diagnostic, FileId, Sources, Span};
use crate::types::did_you_mean;

/// Larger fabric files are refused before parsing: a thousand switches of 64 ports is a few MB.
pub const MAX_BYTES: usize = 32 << 20;

/// A fabric file as read and parsed, or the diagnostics that stopped it.
pub struct Loaded {
    pub file: FileId,
    pub raw: RawFabric,
}

/// Reads and parses one fabric file. I/O failures are operational errors (`Err`); problems
/// with the content are diagnostics.
pub fn load(path: &Path, sources: &mut Sources) -> std::io::Result<Result<Loaded, Diagnostic>> {
    let bytes = std::fs::read(path)?;
    Ok(parse_bytes(&path.display().to_string(), bytes, sources))
}

/// Parses fabric text already in memory (`path` only names it in diagnostics).
pub fn parse_bytes(path: &str, bytes: Vec<u8>, sources: &mut Sources) -> Result<Loaded, Diagnostic> {
    if bytes.len() > MAX_BYTES {
        let file = sources.add(path, String::new());
        return Err(Diagnostic::error(
            "E004",
            format!(
                "fabric file is {} bytes, more than the {} MiB a fabric file may have",
                bytes.len(),
                MAX_BYTES >> 20
            ),
        )
        .at(Span { file, start: 0, end: 0 }, "this file")
        .help("split the fabric into several files and pass them all"));
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
                .at(Span { file, start: at, end: at + 1 }, "first byte that is not UTF-8")
                .help("a fabric file is YAML text; is this a binary file?"));
        }
    };
    let file = sources.add(path, text);
    let text = sources.text(file);
    if text.trim().is_empty() || text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
        return Err(Diagnostic::error("E003", "fabric file is empty")
            .at(Span { file, start: 0, end: 0 }, "nothing here")
            .help("a fabric needs at least `switches:`; see fabrics/rdg-roce-dscp.yaml"));
    }
    let options = serde_saphyr::options! { with_snippet: false };
    match serde_saphyr::from_str_with_options::<RawFabric>(text, options) {
        Ok(raw) => Ok(Loaded { file, raw }),
        Err(e) => Err(yaml_diagnostic(e.without_snippet(), file, sources)),
    }
}

/// The span of a located value.
pub fn span<T>(file: FileId, v: &Sp<T>) -> Span {
    location_span(file, &v.0.referenced)
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

fn yaml_diagnostic(e: &YamlError, file: FileId, sources: &Sources) -> Diagnostic {
    let span = e.location().map(|l| {
        let mut sp = location_span(file, &l);
        if sp.start == 0 && sp.end == 0 && l.line() > 1 {
            // Some errors carry only a line and column; find the offset from them.
            sp.start = offset_of(sources.text(file), l.line() as usize, l.column() as usize);
            sp.end = sp.start;
        }
        sp
    });
    let diag = match e {
        YamlError::SerdeUnknownField { field, expected, .. } => {
            let d = Diagnostic::error("E010", format!("unknown key `{field}`"));
            let help = match did_you_mean(field, expected.iter().copied()) {
                Some(best) => format!("did you mean `{best}`?"),
                None => format!(
                    "expected one of {}",
                    expected.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                ),
            };
            attach(d, span, "unknown key").help(help)
        }
        YamlError::SerdeMissingField { field, .. } => attach(
            Diagnostic::error("E011", format!("missing key `{field}`")),
            span,
            format!("`{field}` is required here"),
        ),
        YamlError::SerdeInvalidType { unexpected, expected, .. }
        | YamlError::SerdeInvalidValue { unexpected, expected, .. } => attach(
            Diagnostic::error("E012", format!("expected {expected}, found {unexpected}")),
            span,
            format!("expected {expected}"),
        ),
        YamlError::SerdeUnknownVariant { variant, expected, .. } => attach(
            Diagnostic::error("E012", format!("unknown value `{variant}`")),
            span,
            "unknown value",
        )
        .help(format!("expected one of {}", expected.join(", "))),
        YamlError::DuplicateMappingKey { .. } => attach(
            Diagnostic::error("E013", first_line(e)),
            span,
            "written twice",
        )
        .help("each key may appear once in a mapping; merge the two entries"),
        other => attach(
            Diagnostic::error("E001", format!("invalid YAML: {}", first_line(other))),
            span,
            "here",
        ),
    };
    diag
}

fn attach(d: Diagnostic, span: Option<Span>, label: impl Into<String>) -> Diagnostic {
    match span {
        Some(s) => d.at(s, label),
        None => d,
    }
}

/// The error's own message without the position suffix the YAML reader appends (the renderer
/// prints the position).
fn first_line(e: &YamlError) -> String {
    let text = e.to_string();
    let line = text.lines().next().unwrap_or("").trim();
    let line = match line.find(" at line ") {
        Some(i) => &line[..i],
        None => line,
    };
    line.trim_end_matches('.').to_string()
}

fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return offset + l.char_indices().nth(column.saturating_sub(1)).map_or(l.len(), |(b, _)| b);
        }
        offset += l.len();
    }
    text.len()
}
