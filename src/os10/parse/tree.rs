//! The text of a running configuration as lines (by where each starts) and as a tree of
//! blocks (a child indented one space more than its parent), with the errors that point at a
//! line and column.

use std::mem::{Discriminant, discriminant};

use super::super::command::Bad;
use super::{ParseError, Problem};

/// A line and the lines under it.
pub(super) struct Node {
    /// Index of its line.
    pub(super) at: usize,
    /// One past the index of its last descendant's line.
    pub(super) end: usize,
    pub(super) children: Vec<Node>,
}

pub(super) struct Reader<'t> {
    pub(super) lines: Lines<'t>,
}

/// The lines of a text, by where each starts: 4 bytes a line rather than a 16-byte slice (a
/// 60 MB flood of `!` lines is 30 million lines). A line is its text without the newline.
pub(super) struct Lines<'t> {
    text: &'t str,
    /// Where each line starts, then one more: where a line after the last would start (a
    /// newline past the text's end when the text has none at its end).
    starts: Vec<u32>,
}

impl<'t> Lines<'t> {
    /// The lines of `text`; `None` past 4 GiB (never read: inputs are bounded far below).
    pub(super) fn new(text: &'t str) -> Option<(Lines<'t>, bool)> {
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

    pub(super) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `i` (panics past the end, as indexing does).
    pub(super) fn line(&self, i: usize) -> &'t str {
        self.span(i..i + 1)
    }

    pub(super) fn get(&self, i: usize) -> Option<&'t str> {
        (i < self.len()).then(|| self.line(i))
    }

    /// Lines `r` as the text holds them, joined by their newlines.
    pub(super) fn span(&self, r: std::ops::Range<usize>) -> &'t str {
        if r.is_empty() {
            return "";
        }
        &self.text[self.starts[r.start] as usize..self.starts[r.end] as usize - 1]
    }

    pub(super) fn iter(&self, r: std::ops::Range<usize>) -> impl Iterator<Item = &'t str> + '_ {
        r.map(|i| self.line(i))
    }
}

impl<'t> Reader<'t> {
    pub(super) fn error(
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
    pub(super) fn bad(&self, n: &Node, b: Bad) -> ParseError {
        let indent = indent_of(self.lines.line(n.at));
        self.error(Problem::Malformed, n.at, indent + b.column, b.expected)
    }

    /// The line of `n` without its indentation.
    pub(super) fn text(&self, n: &Node) -> &'t str {
        self.lines.line(n.at).trim_start_matches(' ')
    }

    /// The lines of `n` and its descendants, as printed.
    pub(super) fn verbatim(&self, n: &Node) -> String {
        self.lines.span(n.at..n.end).to_string()
    }

    /// The children of the line before `at`, indented by `depth` spaces: every following line
    /// indented at least that much. A blank line ends a block.
    pub(super) fn children(&self, at: &mut usize, depth: usize) -> Result<Vec<Node>, ParseError> {
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
    pub(super) fn leaf(&self, n: &Node) -> Result<(), ParseError> {
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

pub(super) fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// Settings seen in one block, so a second one is refused rather than silently overwriting.
pub(super) struct Seen<T>(Vec<Discriminant<T>>);

impl<T> Default for Seen<T> {
    fn default() -> Self {
        Seen(Vec::new())
    }
}

impl<T> Seen<T> {
    pub(super) fn first(&mut self, r: &Reader<'_>, n: &Node, c: &T) -> Result<(), ParseError> {
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
