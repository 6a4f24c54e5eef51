//! Diagnostics: what went wrong with a user's input, where, and how to fix it.
//!
//! A [`Diagnostic`] is data (stable code, severity, message, labelled spans, help); wording
//! lives with the check that raises it, and this module holds the one renderer (rustc-style,
//! through `annotate-snippets`). Stages collect diagnostics and return them; they never print.
//!
//! Secrets never show: the renderer masks them in every source excerpt, a `*` per byte so
//! spans stay put ([`crate::secrets::mask`]).

use std::borrow::Cow;
use std::fmt::Write as _;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

/// The text of every file a run has read, so any diagnostic can show its source line.
#[derive(Debug, Default)]
pub struct Sources {
    files: Vec<File>,
}

#[derive(Debug)]
struct File {
    path: String,
    text: String,
    /// Where each line starts, made at the first diagnostic that needs a line number: a run
    /// that reports 25,000 warnings in one large file finds each line by a binary search,
    /// not by counting the newlines before it.
    lines: std::sync::OnceLock<Vec<usize>>,
}

/// Index of a file in [`Sources`].
pub type FileId = usize;

impl Sources {
    pub fn add(&mut self, path: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push(File {
            path: path.into(),
            text: text.into(),
            lines: std::sync::OnceLock::new(),
        });
        self.files.len() - 1
    }

    pub fn path(&self, id: FileId) -> &str {
        &self.files[id].path
    }

    pub fn text(&self, id: FileId) -> &str {
        &self.files[id].text
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, id: FileId, offset: usize) -> (usize, usize) {
        let file = &self.files[id];
        let text = file.text.as_str();
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let starts = file.lines.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1))
                .collect()
        });
        // The last line starting at or before the offset.
        let line = starts.partition_point(|&s| s <= offset);
        let line_start = starts[line - 1];
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
    /// Stable code, e.g. `E012`; documented in `src/codes/` (`fabric explain E012`).
    pub code: &'static str,
    pub severity: Severity,
    /// Lowercase, names in backticks, no trailing period.
    pub message: String,
    /// Where the problem is; `None` for problems of a whole file (unreadable, empty).
    pub primary: Option<Label>,
    /// Other places involved, e.g. the first of two conflicting definitions.
    pub secondary: Vec<Label>,
    pub help: Option<String>,
    /// What follows from the same mistake, folded under it ([`fold`]): one line each.
    pub notes: Vec<String>,
    /// How many more diagnostics like this one (its code, its place) were folded into it.
    pub folded: usize,
    /// It follows from another diagnostic at its place: [`fold`] puts it under that one.
    pub follows: bool,
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
            notes: Vec::new(),
            folded: 0,
            follows: false,
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

    /// Marks it as following from another diagnostic at its place.
    pub fn follows(mut self) -> Self {
        self.follows = true;
        self
    }

    /// A line of what else follows from this diagnostic's mistake.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
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

/// One mistake, one diagnostic: diagnostics whose primary label is at the same place (the
/// line that must change) are folded under the first of them, an error before a warning: the
/// same code again is counted ("and 15 more like it"), another code is a note naming what else
/// follows from that line. The result is sorted by file position. A diagnostic without a
/// place is kept as it is.
pub fn fold(mut diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.sort_by(|a, b| {
        let at = |d: &Diagnostic| d.primary.as_ref().map(|l| l.span);
        let key = |d: &'_ Diagnostic| (at(d), d.severity, d.follows, d.code);
        (key(a), &a.message).cmp(&(key(b), &b.message))
    });
    diags.dedup();
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
    // Per head: how many more of its own code, and of each other code (first message, count).
    type More = (usize, Vec<(&'static str, String, usize)>);
    let mut more: Vec<More> = Vec::new();
    for d in diags {
        let span = d.primary.as_ref().map(|l| l.span);
        let head = out
            .last()
            .filter(|h| span.is_some() && h.primary.as_ref().map(|l| l.span) == span);
        if head.is_none() {
            out.push(d);
            more.push((0, Vec::new()));
            continue;
        }
        let head_code = out.last().map(|h| h.code);
        let (same, others) = more.last_mut().expect("a head");
        if head_code == Some(d.code) {
            *same += 1 + d.folded;
        } else if let Some(o) = others.iter_mut().find(|o| o.0 == d.code) {
            o.2 += 1 + d.folded;
        } else {
            others.push((d.code, d.message, 1 + d.folded));
        }
    }
    for (d, (same, others)) in out.iter_mut().zip(more) {
        d.folded += same;
        for (code, message, n) in others {
            let also = if n > 1 {
                format!(" (and {} more like it)", n - 1)
            } else {
                String::new()
            };
            d.notes
                .push(format!("this line also causes {code}: {message}{also}"));
        }
    }
    out
}

/// Renders diagnostics like rustc: `error[E012]: message`, ` --> file:line:col`, the source
/// line with a caret under the span, other places involved, then `= help: …`. Secrets in the
/// source lines are masked ([`crate::secrets::mask`]).
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
        let labels: Vec<(&Label, AnnotationKind)> = d
            .primary
            .iter()
            .map(|l| (l, AnnotationKind::Primary))
            .chain(d.secondary.iter().map(|l| (l, AnnotationKind::Context)))
            .collect();
        let lines: Vec<Lines<'_>> = labels.iter().map(|(l, _)| lines(sources, l)).collect();
        let message = bounded(&d.message);
        let label_texts: Vec<Cow<'_, str>> =
            labels.iter().map(|(l, _)| bounded(&l.message)).collect();
        let mut group = Group::with_title(level.primary_title(message.as_ref()).id(d.code));
        for (((label, kind), lines), text) in labels.iter().zip(&lines).zip(&label_texts) {
            group = group.element(
                Snippet::source(lines.text.as_ref())
                    .line_start(lines.line)
                    .path(sources.path(label.span.file))
                    .fold(true)
                    .annotation(kind.span(lines.span.clone()).label(text.as_ref())),
            );
        }
        let mut report: Vec<Group<'_>> = vec![group];
        let more =
            (d.folded > 0).then(|| format!("and {} more like it from the same line", d.folded));
        let notes: Vec<Cow<'_, str>> = more.iter().chain(&d.notes).map(|n| bounded(n)).collect();
        for note in &notes {
            report.push(Group::with_title(
                Level::NOTE.secondary_title(note.as_ref()),
            ));
        }
        let help = d.help.as_deref().map(bounded);
        if let Some(help) = &help {
            report.push(Group::with_title(
                Level::HELP.secondary_title(help.as_ref()),
            ));
        }
        let _ = writeln!(out, "{}\n", renderer.render(&report));
    }
    out
}

/// A quote in a message (the text between two backticks) longer than this many characters is
/// shown as its start, `…` and its end: a message naming a 1 MB key or line stays a line.
/// Long enough for a file's path (messages quote paths too), short enough to stay a line or
/// three of a terminal.
const QUOTE_CHARS: usize = 256;

/// `text` with each long quote cut to its start and its end ([`QUOTE_CHARS`]). The one place
/// that bounds what a message repeats of the input: every rendered diagnostic goes through
/// it, and so do the readers that print `file:line: message` themselves.
pub fn bounded(text: &str) -> Cow<'_, str> {
    let long = text
        .split('`')
        .skip(1)
        .step_by(2)
        .any(|q| q.len() > QUOTE_CHARS && q.chars().count() > QUOTE_CHARS);
    if !long {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(4 * QUOTE_CHARS);
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        let count = part.chars().count();
        if i % 2 == 1 && count > QUOTE_CHARS {
            out.extend(part.chars().take(QUOTE_CHARS / 2));
            out.push('…');
            out.extend(part.chars().skip(count - QUOTE_CHARS / 4));
        } else {
            out.push_str(part);
        }
    }
    Cow::Owned(out)
}

/// The lines a label covers, secrets masked.
struct Lines<'a> {
    text: Cow<'a, str>,
    /// 1-based number of the first line.
    line: usize,
    /// The label's span within `text`.
    span: std::ops::Range<usize>,
}

/// The lines a label covers (never the whole file: a 50 MB input renders as fast as a small
/// one), with the first line's number.
fn lines<'a>(sources: &'a Sources, label: &Label) -> Lines<'a> {
    let text = sources.text(label.span.file);
    let start = floor_char_boundary(text, label.span.start.min(text.len()));
    let end = floor_char_boundary(text, label.span.end.clamp(start, text.len()));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    // A `\r\n` line shows without its `\r` (which every reader drops).
    let line_end = if line_end > end && text[..line_end].ends_with('\r') {
        line_end - 1
    } else {
        line_end
    };
    let (line, _) = sources.line_col(label.span.file, start);
    Lines {
        text: crate::secrets::mask(&text[line_start..line_end], crate::secrets::Mask::InPlace),
        line,
        span: start - line_start..end - line_start,
    }
}
