//! Diagnostics: what went wrong with a user's input, where, and how to fix it.
//!
//! A [`Diagnostic`] is data (stable code, severity, message, labelled spans, help); wording
//! lives with the check that raises it, and this module holds the one renderer (rustc-style,
//! through `annotate-snippets`). Stages collect diagnostics and return them; they never print.

use std::fmt::Write as _;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

/// The text of every file a run has read, so any diagnostic can show its source line.
#[derive(Debug, Default)]
pub struct Sources {
    files: Vec<(String, String)>,
}

/// Index of a file in [`Sources`].
pub type FileId = usize;

impl Sources {
    pub fn add(&mut self, path: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push((path.into(), text.into()));
        self.files.len() - 1
    }

    pub fn path(&self, id: FileId) -> &str {
        &self.files[id].0
    }

    pub fn text(&self, id: FileId) -> &str {
        &self.files[id].1
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, id: FileId, offset: usize) -> (usize, usize) {
        let text = self.text(id);
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let before = &text[..offset];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, text[line_start..offset].chars().count() + 1)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: usize,
    pub end: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code, e.g. `E012`; documented in the README.
    pub code: &'static str,
    pub severity: Severity,
    /// Lowercase, names in backticks, no trailing period.
    pub message: String,
    /// Where the problem is; `None` for problems of a whole file (unreadable, empty).
    pub primary: Option<Label>,
    /// Other places involved, e.g. the first of two conflicting definitions.
    pub secondary: Vec<Label>,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            help: None,
        }
    }

    pub fn warning(code: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    pub fn at(mut self, span: Span, label: impl Into<String>) -> Self {
        self.primary = Some(Label {
            span,
            message: label.into(),
        });
        self
    }

    pub fn also(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: label.into(),
        });
        self
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Sort key: file, position, code. Rendering in this order keeps output stable.
    pub fn sort_key(&self) -> (Option<Span>, &'static str, &str) {
        (
            self.primary.as_ref().map(|l| l.span),
            self.code,
            &self.message,
        )
    }
}

/// Renders diagnostics like rustc: `error[E012]: message`, ` --> file:line:col`, the source
/// line with a caret under the span, other places involved, then `= help: …`.
pub fn render(diags: &[Diagnostic], sources: &Sources, color: bool) -> String {
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    let mut out = String::new();
    for d in diags {
        let level = match d.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let mut group = Group::with_title(level.primary_title(d.message.as_str()).id(d.code));
        let labels = d
            .primary
            .iter()
            .map(|l| (l, AnnotationKind::Primary))
            .chain(d.secondary.iter().map(|l| (l, AnnotationKind::Context)));
        for (label, kind) in labels {
            group = group.element(excerpt(sources, label, kind));
        }
        let mut report: Vec<Group<'_>> = vec![group];
        if let Some(help) = &d.help {
            report.push(Group::with_title(
                Level::HELP.secondary_title(help.as_str()),
            ));
        }
        let _ = writeln!(out, "{}\n", renderer.render(&report));
    }
    out
}

/// The lines a label covers (never the whole file: a 50 MB input renders as fast as a small
/// one), as a snippet starting at the right line number.
fn excerpt<'a>(
    sources: &'a Sources,
    label: &'a Label,
    kind: AnnotationKind,
) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
    let text = sources.text(label.span.file);
    let start = floor_char_boundary(text, label.span.start.min(text.len()));
    let end = floor_char_boundary(text, label.span.end.clamp(start, text.len()));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let (line, _) = sources.line_col(label.span.file, start);
    Snippet::source(&text[line_start..line_end])
        .line_start(line)
        .path(sources.path(label.span.file))
        .fold(true)
        .annotation(
            kind.span(start - line_start..end - line_start)
                .label(label.message.as_str()),
        )
}
