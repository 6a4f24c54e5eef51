//! A fast reading of the YAML NVUE prints (and [`super::tree::render_yaml`] writes): block
//! maps two spaces a level under `- header:` / `- set:`, `key: value`, `key: {}`, `key:`
//! with a map under it, `key: |` with lines under it; plain or single-quoted scalars; `#`
//! comment lines. Anything else — or anything wrong — is not read here: the YAML parser
//! reads it (`tree::parse_yaml`), so the two never disagree on what they both read (the fuzz
//! check `parse_nvue` and `tests/cumulus.rs` compare them on every input).

use std::borrow::Cow;

use super::tree::{Document, Node, Tree, Word, expand, merge_all, owned, plain, ranged, word};
use super::words::order;

/// One line of the text: its indentation and what follows.
struct Line<'t> {
    indent: usize,
    body: &'t str,
}

/// The text as NVUE prints it, read; `None` where it is not of that shape or not valid.
pub fn parse(text: &str) -> Option<Document> {
    // A tab anywhere (which a line may not hold): the YAML parser reads the text.
    if memchr::memchr(b'\t', text.as_bytes()).is_some() {
        return None;
    }
    let mut lines: Vec<Line<'_>> = Vec::new();
    for raw in text.split('\n') {
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let body = raw.trim_start_matches(' ');
        if body.starts_with('#') || body.is_empty() {
            // A comment or blank line between entries (none may be inside a block scalar:
            // `block` refuses those).
            lines.push(Line {
                indent: usize::MAX,
                body: "",
            });
            continue;
        }
        lines.push(Line {
            indent: raw.len() - body.len(),
            body,
        });
    }
    let mut doc = Document::default();
    let (mut any_set, mut i) = (false, 0);
    while i < lines.len() {
        let l = &lines[i];
        if l.indent == usize::MAX {
            i += 1;
            continue;
        }
        if l.indent != 0 {
            return None;
        }
        let (name, rest) = l.body.strip_prefix("- ")?.split_once(':')?;
        let (tree, next) = match rest.trim() {
            "{}" => (Tree::new(), i + 1),
            "" => map(&lines, i + 1, 4, name)?,
            _ => return None,
        };
        match name {
            "set" if !any_set => {
                any_set = true;
                doc.set = tree;
            }
            "header" if doc.header.is_none() => doc.header = Some(tree),
            _ => return None,
        }
        i = next;
    }
    any_set.then_some(doc)
}

/// The map whose entries are indented `indent`, from line `i`: the map and the line after it.
fn map(lines: &[Line<'_>], start: usize, indent: usize, parent: &str) -> Option<(Tree, usize)> {
    let mut items: Vec<(Word, Node)> = Vec::new();
    // Keys as NVUE prints them come sorted: one given twice is looked for only where one is
    // not after the one before.
    let mut last: Option<Cow<'_, str>> = None;
    // Whether the names came sorted, none twice (then the map is made of them as they are).
    let mut sorted = true;
    let mut i = start;
    while i < lines.len() {
        let l = &lines[i];
        if l.indent == usize::MAX {
            i += 1;
            continue;
        }
        if l.indent < indent {
            break;
        }
        if l.indent > indent {
            return None;
        }
        let (key, rest) = split_key(l.body)?;
        if last.as_ref().is_some_and(|k| order(k, &key).is_ge()) {
            if seen(lines, start, i, indent, &key) {
                return None;
            }
            sorted = false;
        }
        let (node, next) = match rest {
            "{}" => (Node::Map(Tree::new()), i + 1),
            "" => {
                let (m, next) = map(lines, i + 1, indent + 2, &key)?;
                if m.is_empty() {
                    // `key:` with nothing under it is YAML's null, not a map.
                    return None;
                }
                (Node::Map(m), next)
            }
            "|" => {
                let (text, next) = block(lines, i + 1, indent)?;
                (Node::Leaf(text.into()), next)
            }
            v => (Node::Leaf(scalar(v)?), i + 1),
        };
        // A key with no `,` and no `-` is no range nor list: itself.
        if ranged(parent) && key.contains([',', '-']) {
            sorted = false;
            let mut names = expand(&key).ok()?;
            let one = names.pop()?;
            for name in names {
                items.push((owned(name), node.clone()));
            }
            items.push((owned(one), node));
        } else {
            let name = match &key {
                Cow::Borrowed(k) => word(k),
                Cow::Owned(k) => owned(k.clone()),
            };
            items.push((name, node));
        }
        last = Some(key);
        i = next;
    }
    if sorted {
        return Some((Tree::from_sorted(items), i));
    }
    let mut tree = Tree::new();
    merge_all(&mut tree, items);
    Some((tree, i))
}

/// Whether `key` is the key of an entry of the map at `indent` from line `start` to `end`.
fn seen(lines: &[Line<'_>], start: usize, end: usize, indent: usize, key: &str) -> bool {
    lines[start..end]
        .iter()
        .filter(|l| l.indent == indent)
        .any(|l| split_key(l.body).is_some_and(|(k, _)| k == key))
}

/// `key: rest` (the rest trimmed); the key plain or single-quoted.
fn split_key(body: &str) -> Option<(Cow<'_, str>, &str)> {
    if let Some(q) = body.strip_prefix('\'') {
        let (key, rest) = quoted(q)?;
        let rest = rest.strip_prefix(':')?;
        return Some((Cow::Owned(key), rest.trim()));
    }
    let b = body.as_bytes();
    let colon = memchr::memchr_iter(b':', b).find(|&i| b.get(i + 1) == Some(&b' '));
    let (key, rest) = match colon {
        Some(at) => (&body[..at], body[at + 2..].trim()),
        None => (body.strip_suffix(':')?, ""),
    };
    (plain(key) && !key.contains(['{', '[', '\''])).then_some((Cow::Borrowed(key), rest))
}

/// A single-quoted scalar's text (`''` a quote) and what follows its closing quote.
fn quoted(s: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '\'' {
            out.push(c);
            continue;
        }
        if chars.peek().map(|(_, c)| *c) == Some('\'') {
            chars.next();
            out.push('\'');
            continue;
        }
        return Some((out, &s[at + 1..]));
    }
    None
}

/// A value: plain as `plain` prints it (a YAML null word is not one), or single-quoted with
/// nothing after it.
fn scalar(v: &str) -> Option<Word> {
    if let Some(q) = v.strip_prefix('\'') {
        let (text, rest) = quoted(q)?;
        return rest.is_empty().then(|| owned(text));
    }
    (plain(v) && !v.contains(['{', '[', '\''])).then(|| word(v))
}

/// A `|` block's lines, indented past `indent` by one fixed amount, no blank or comment line
/// among them: their text, each line ended, as YAML's clip keeps it.
fn block(lines: &[Line<'_>], mut i: usize, indent: usize) -> Option<(String, usize)> {
    let first = lines.get(i)?;
    if first.indent == usize::MAX || first.indent <= indent {
        return None;
    }
    let at = first.indent;
    let mut out = String::new();
    while let Some(l) = lines.get(i) {
        if l.indent == usize::MAX {
            return None;
        }
        if l.indent < at {
            if l.indent > indent {
                return None;
            }
            break;
        }
        out.push_str(&" ".repeat(l.indent - at));
        out.push_str(l.body);
        out.push('\n');
        i += 1;
    }
    Some((out, i))
}
