//! The YAML reader's errors in the format's words: an unknown key (E010), a missing one
//! (E011), a value of the wrong type (E012, E020; in `expected`), a key written twice (E013),
//! several documents or anything else the reader refuses (E001), a limit against hostile YAML
//! (E006); each at the line to change.

use std::ops::Range;

use serde_json::Value;
use serde_saphyr::Error as YamlError;

use super::Limits;
use super::expected::{Refused, description, resolve, schema_at};
use super::outline::{
    Doc, Hit, Kind, Node, descend, location_span, offset_of, one_line, outline, to_span,
};
use super::syntax::syntax_error;
use crate::diag::{Diagnostic, FileId, Span};
use crate::types::did_you_mean;

/// A reader's error as one located diagnostic in the format's words.
pub(super) fn yaml_diagnostic(
    e: &YamlError,
    file: FileId,
    text: &str,
    limits: Limits,
) -> Diagnostic {
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
    let at = error_offset(e, file, text);
    let root = docs.first().and_then(|d| d.root.as_ref());
    let cx = Cx { file, text, root };
    let found = match e {
        YamlError::MultipleDocuments { .. } => Some(multiple_documents(&docs, file, text)),
        YamlError::SerdeUnknownField {
            field, expected, ..
        } => Some(unknown_key(e, (field.as_str(), expected.as_slice()), file)),
        _ => at.and_then(|at| cx.refused_at(e, at)),
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

/// Where the reader stopped, as a byte offset: some errors carry only a line and column.
fn error_offset(e: &YamlError, file: FileId, text: &str) -> Option<usize> {
    e.location().map(|l| {
        let sp = location_span(file, &l);
        if sp.start == 0 && sp.end == 0 && l.line() > 1 {
            // Some errors carry only a line and column; find the offset from them.
            offset_of(text, l.line() as usize, l.column() as usize)
        } else {
            sp.start
        }
    })
}

/// An unknown key (E010), with the key meant where one is close, else the keys there are.
fn unknown_key(e: &YamlError, (field, expected): (&str, &[&str]), file: FileId) -> Diagnostic {
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
    attach(d, span, "unknown key").help(help)
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

/// `d` at `span` with `label`, when there is a span.
fn attach(d: Diagnostic, span: Option<Span>, label: impl Into<String>) -> Diagnostic {
    match span {
        Some(s) => d.at(s, label),
        None => d,
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

/// A refused file, its text and its outline's root: where the reader's errors are located.
pub(super) struct Cx<'a> {
    pub(super) file: FileId,
    pub(super) text: &'a str,
    pub(super) root: Option<&'a Node>,
}

impl Cx<'_> {
    pub(super) fn span(&self, r: Range<usize>) -> Span {
        to_span(self.file, r)
    }

    /// A reader's error at a value or key (`at`, a byte offset) in the format's words: a
    /// missing key, a key written twice, a value of the wrong type; `None` for another.
    fn refused_at(&self, e: &YamlError, at: usize) -> Option<Diagnostic> {
        match e {
            YamlError::SerdeMissingField { field, .. } => self.missing_key(field, at),
            YamlError::DuplicateMappingKey { key, .. } => self.duplicate_key(key.as_deref(), at),
            YamlError::InvalidScalar { ty, .. } => self.wrong_type(at, Refused::Scalar(ty)),
            YamlError::Unexpected { expected, .. } => {
                self.wrong_type(at, Refused::Structure(expected))
            }
            YamlError::SerdeInvalidType { expected, .. }
            | YamlError::SerdeInvalidValue { expected, .. } => {
                self.wrong_type(at, Refused::Visitor(expected))
            }
            YamlError::NullIntoString { .. }
            | YamlError::InvalidBooleanStrict { .. }
            | YamlError::InvalidCharNull { .. }
            | YamlError::InvalidCharNotSingleScalar { .. }
            | YamlError::UnexpectedValueForUnit { .. } => {
                self.wrong_type(at, Refused::Structure(""))
            }
            _ => None,
        }
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
        let schema: Value = serde_json::from_str(&crate::fabric::json_schema()).ok()?;
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
