//! The outline of a refused file: its YAML nodes as written, each with its byte range,
//! nothing converted; the nodes on the way down to a position; and the positions themselves
//! (a reader's location, a line and column, one line of a range).

use std::ops::Range;

use serde_saphyr::Location;
use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, ScanError};

use crate::diag::{FileId, Span};

/// The span a reader's location points at.
pub(super) fn location_span(file: FileId, loc: &Location) -> Span {
    let s = loc.span();
    let start = s.byte_offset().unwrap_or(0) as usize;
    let len = s.byte_len().unwrap_or(0) as usize;
    Span {
        file,
        start,
        end: start + len,
    }
}

/// A byte range of the file as a span.
pub(super) fn to_span(file: FileId, r: Range<usize>) -> Span {
    Span {
        file,
        start: r.start,
        end: r.end,
    }
}

/// The byte offset of a line and column (both from 1).
pub(super) fn offset_of(text: &str, line: usize, column: usize) -> usize {
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
pub(super) fn one_line(text: &str, r: Range<usize>) -> Range<usize> {
    let end = text[r.start.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |i| r.start + i);
    r.start..r.end.min(end).max(r.start)
}

/// One YAML node as written: its kind and byte range, nothing converted.
#[derive(Debug)]
pub(super) struct Node {
    pub(super) span: Range<usize>,
    pub(super) kind: Kind,
}

#[derive(Debug)]
pub(super) enum Kind {
    Scalar { value: String, plain: bool },
    List(Vec<Node>),
    Map(Vec<(Node, Node)>),
    Alias,
}

impl Node {
    pub(super) fn scalar(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { value, .. } => Some(value),
            _ => None,
        }
    }

    pub(super) fn entries(&self) -> &[(Node, Node)] {
        match &self.kind {
            Kind::Map(e) => e,
            _ => &[],
        }
    }

    /// Whether `at` falls on this node (an empty node, like a missing value, only at its
    /// start).
    pub(super) fn covers(&self, at: usize) -> bool {
        self.span.start == at || (self.span.start <= at && at < self.span.end)
    }

    /// Nothing written, or `~` / `null`: what YAML reads as no value.
    pub(super) fn is_empty(&self) -> bool {
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
pub(super) struct Doc {
    pub(super) start: Range<usize>,
    pub(super) explicit: bool,
    pub(super) root: Option<Node>,
}

/// Every document of `text`, or the syntax error that stops the YAML parser.
pub(super) fn outline(text: &str) -> Result<Vec<Doc>, ScanError> {
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
pub(super) struct Hit<'a> {
    pub(super) node: &'a Node,
    /// The keys from the root to this node; `None` for a list item.
    pub(super) path: Vec<Option<&'a str>>,
    /// The key this node is the value of.
    pub(super) key: Option<&'a Node>,
    /// This node is itself a key.
    pub(super) is_key: bool,
}

/// The nodes covering `at`, outermost first.
pub(super) fn descend(root: &Node, at: usize) -> Vec<Hit<'_>> {
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
