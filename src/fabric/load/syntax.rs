//! YAML syntax errors (E001), worded for the mistakes people make in a fabric file: a tab
//! in the indentation, a quote or bracket left open, a key where none belongs, a line not
//! indented like its neighbours.

use std::ops::Range;

use serde_saphyr::granit_parser::{ErrorKind, ScanError};

use super::outline::{offset_of, to_span};
use crate::diag::{Diagnostic, FileId};

/// How the indentation is checked, for a line not indented like its neighbours.
const INDENT: &str = "check the indentation: the keys of one mapping line up, and a value on the lines below its key is indented deeper";
/// How a flow collection is closed, for a bracket left open.
const FLOW: &str = "close every `{` with `}` and every `[` with `]`, with `,` between entries";

/// A syntax error as worded: the message, the bytes it points at, their label and the help.
type Worded = (String, Range<usize>, &'static str, Option<&'static str>);

/// A YAML syntax error (E001), worded for the mistakes people make in a fabric file.
pub(super) fn syntax_error(scan: &ScanError, file: FileId, text: &str) -> Diagnostic {
    let m = scan.marker();
    let at = m
        .byte_offset()
        .unwrap_or_else(|| offset_of(text, m.line(), m.col() + 1))
        .min(text.len());
    let worded: Worded = match scan.kind() {
        ErrorKind::TabInIndentation
        | ErrorKind::TabInBlockIndentation
        | ErrorKind::TabNotAllowed
        | ErrorKind::TabAtBlockScalarStart
        | ErrorKind::TabInPlainScalar => tab_in_indentation(text, at),
        ErrorKind::UnclosedQuotedScalar => (
            "invalid YAML: a quoted value is not closed".into(),
            at..at + 1,
            "this quote is never closed",
            Some("end the value with the quote it starts with"),
        ),
        ErrorKind::UnknownAnchor => unknown_anchor(text, at),
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
            return flow_not_closed(kind, file, text, at);
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
        | ErrorKind::UnexpectedEofBlockSequence) => (
            format!("invalid YAML: {}", block_error(kind)),
            at..at,
            "here",
            Some(INDENT),
        ),
        other => (format!("invalid YAML: {other}"), at..at, "here", None),
    };
    located(file, text, worded)
}

/// A worded syntax error as a diagnostic, its span kept inside the text.
fn located(file: FileId, text: &str, (message, span, label, help): Worded) -> Diagnostic {
    let span = span.start.min(text.len())..span.end.min(text.len());
    let d = Diagnostic::error("E001", message).at(to_span(file, span), label);
    match help {
        Some(h) => d.help(h),
        None => d,
    }
}

/// A tab in the indentation of the line at `at`: the tabs are what to change.
fn tab_in_indentation(text: &str, at: usize) -> Worded {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line = &text[line_start..line_end];
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

/// An alias (`*name`, at `at`) to an anchor not defined.
fn unknown_anchor(text: &str, at: usize) -> Worded {
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

/// A flow collection the parser gave up on at `at`: the bracket left open, and where its
/// close is missing; a bracket closed later lacks a `,` between entries instead.
fn flow_not_closed(kind: &ErrorKind, file: FileId, text: &str, at: usize) -> Diagnostic {
    // Point at the bracket left open, and at where the parser gave up on it.
    let open = match text[at..].chars().next() {
        Some(c @ ('{' | '[')) if matches!(kind, ErrorKind::UnclosedFlowCollection { .. }) => {
            Some((at, c))
        }
        _ => open_bracket(text, at),
    };
    let Some((open, c)) = open else {
        return located(
            file,
            text,
            (format!("invalid YAML: {kind}"), at..at, "here", Some(FLOW)),
        );
    };
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
    let mut d = Diagnostic::error("E001", format!("invalid YAML: `{c}` is not closed")).at(
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
    d.help(FLOW)
}

/// What a block-structure error means, in a fabric file's terms.
fn block_error(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpectedBlockMappingKey | ErrorKind::InvalidIndentation => {
            "this line is not indented like the lines around it".to_string()
        }
        ErrorKind::ExpectedBlockSequenceEntry => {
            "expected a `- ` item at this indentation".to_string()
        }
        ErrorKind::BlockSequenceEntryNotAllowed => "a `- ` item is not allowed here".to_string(),
        ErrorKind::InvalidSimpleKey | ErrorKind::SimpleKeyExpected => {
            "a key must be followed by `:` on the same line".to_string()
        }
        ErrorKind::ExpectedNodeContent => "a value is missing here".to_string(),
        ErrorKind::UnexpectedEofBlockMapping | ErrorKind::UnexpectedEofBlockSequence => {
            "the file ends in the middle of a mapping or list".to_string()
        }
        other => other.to_string(),
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
