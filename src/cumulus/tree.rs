//! NVUE's object tree: what `nv config show -o yaml` prints (the `startup.yaml` form, a
//! `- header:` document before it or not), what `nv config show -o commands` prints (one
//! `nv set` per leaf), read and written losslessly, every object kept whether this crate
//! models it or not.
//!
//! Facts (`../shared/reference/cumulus-nvue.md` §1, the files of `../shared/corpus/nvue/`):
//! a leaf's value may itself be a key (`state: {up: {}}`, `address: {10.0.0.1/32: {}}`); keys
//! may be ranges and lists (`swp1-18`, `eth0,swp19-22`, `10,20,30`), which are read one key
//! per item (as `--expand` prints them) and merged; every scalar is kept as written (`on`,
//! `1.0`), never read as a boolean or a number.

use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle};

use crate::config_error::{ParseError, Problem};

pub use super::words::{Word, owned, word};

/// One object of the tree: a value, or a map of named objects (empty: a key that is itself
/// the value, `10.0.0.1/32: {}`). Names and values are [`Word`]s: compact strings, a
/// short one without an allocation.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(untagged)]
pub enum Node {
    Leaf(Word),
    Map(Tree),
}

pub use super::map::Tree;

impl Node {
    pub fn map(&self) -> Option<&Tree> {
        match self {
            Node::Map(t) => Some(t),
            Node::Leaf(_) => None,
        }
    }

    pub fn leaf(&self) -> Option<&str> {
        match self {
            Node::Leaf(v) => Some(v),
            Node::Map(_) => None,
        }
    }
}

/// The object at `path` (names from the root).
pub fn get<'t>(tree: &'t Tree, path: &[&str]) -> Option<&'t Node> {
    let (last, up) = path.split_last()?;
    let mut at = tree;
    for name in up {
        at = at.get(*name)?.map()?;
    }
    at.get(*last)
}

/// The value at `path`, when it is one.
pub fn value<'t>(tree: &'t Tree, path: &[&str]) -> Option<&'t str> {
    get(tree, path)?.leaf()
}

/// The names of the map at `path` (none when there is no map).
pub fn names<'t>(tree: &'t Tree, path: &[&str]) -> Vec<&'t str> {
    let map = match path.is_empty() {
        true => Some(tree),
        false => get(tree, path).and_then(Node::map),
    };
    map.map(|m| m.keys().map(|k| &**k).collect())
        .unwrap_or_default()
}

/// Whether the object at `path` is turned on, in either release's spelling: `enable: on`
/// (before 5.15) or `state: enabled` (`compile::STATE_SINCE`); `None` when it says neither.
pub fn switched(tree: &Tree, path: &[&str]) -> Option<bool> {
    let at = |k: &str| value(tree, &[path, &[k]].concat());
    match (at("enable"), at("state")) {
        (Some("on"), _) | (_, Some("enabled")) => Some(true),
        (Some(_), _) | (_, Some(_)) => Some(false),
        (None, None) => None,
    }
}

/// An interface object's breakout (`link breakout 2x`: a key, or a value as 5.0-5.3 wrote
/// it).
pub fn breakout(iface: &Tree) -> Option<crate::types::Split> {
    let path = ["link", "breakout"];
    let word = value(iface, &path).or_else(|| names(iface, &path).first().copied())?;
    let ways: i64 = word.strip_suffix('x')?.parse().ok()?;
    crate::types::Split::from_ways(ways).ok()
}

/// Sets `value` at `path`, making the maps on the way (a value in the way is replaced).
pub fn set(tree: &mut Tree, path: &[&str], value: Node) {
    let Some((last, up)) = path.split_last() else {
        return;
    };
    let at = map_at(tree, up);
    match at.get_mut(*last) {
        Some(old) => merge_node(old, value),
        None => {
            at.insert(word(last), value);
        }
    }
}

/// The map at `path` (names from `tree`), made where missing (a value in the way is
/// replaced).
pub fn map_at<'t>(tree: &'t mut Tree, path: &[&str]) -> &'t mut Tree {
    let mut at = tree;
    for name in path {
        // A name already there is not allocated again.
        let node = at.get_or_insert_with(name, word, || Node::Map(Tree::new()));
        if !matches!(node, Node::Map(_)) {
            *node = Node::Map(Tree::new());
        }
        let Node::Map(m) = node else {
            unreachable!("made a map above")
        };
        at = m;
    }
    at
}

/// Puts `value` under `name` in `map`: maps merge, a value replaces.
pub(super) fn merge_into(map: &mut Tree, name: Word, value: Node) {
    map.insert_or(name, value, merge_node);
}

/// Puts each of `items` in `map` as [`merge_into`] does, in one pass.
pub(super) fn merge_all(map: &mut Tree, items: Vec<(Word, Node)>) {
    map.merge_all(items, merge_node);
}

/// `value` put where `old` is: maps merge, a value replaces.
fn merge_node(old: &mut Node, value: Node) {
    match (old, value) {
        (Node::Map(old), Node::Map(new)) => {
            for (k, v) in new {
                merge_into(old, k, v);
            }
        }
        (old, value) => *old = value,
    }
}

/// Removes the object at `path` and every map it leaves empty on the way up (NVUE's `unset`
/// of the last key of a collection leaves no empty collection behind). Whether it was there.
pub fn unset(tree: &mut Tree, path: &[&str]) -> bool {
    fn go(at: &mut Tree, path: &[&str]) -> bool {
        match path {
            [] => false,
            [last] => at.remove(*last).is_some(),
            [first, rest @ ..] => {
                let Some(Node::Map(m)) = at.get_mut(*first) else {
                    return false;
                };
                let gone = go(m, rest);
                if gone && m.is_empty() {
                    at.remove(*first);
                }
                gone
            }
        }
    }
    go(tree, path)
}

/// The items a key written as a range or a list stands for: `swp1-3` → `swp1`, `swp2`,
/// `swp3`; `eth0,swp19-20` → `eth0`, `swp19`, `swp20`; `10,20-21` → `10`, `20`, `21`;
/// `swp1s0-3` → `swp1s0` … `swp1s3`. A key that is no range (an address, `peerlink.4094`,
/// a name with a `-` that is not a number range) is itself. At most `MAX_ITEMS` items, so a
/// key like `swp1-99999999` is refused rather than expanded.
pub fn expand(key: &str) -> Result<Vec<String>, String> {
    if key.contains(':') || key.contains('/') || key.contains(' ') {
        return Ok(vec![key.to_string()]);
    }
    let mut out = Vec::new();
    for part in key.split(',') {
        if part.is_empty() {
            return Err(format!("`{key}` has an empty item"));
        }
        match range(part) {
            Some((prefix, a, b)) => {
                if b < a || (b - a) as usize + out.len() >= MAX_ITEMS {
                    return Err(format!("`{part}` is no range NVUE prints"));
                }
                out.extend((a..=b).map(|n| format!("{prefix}{n}")));
            }
            None => out.push(part.to_string()),
        }
    }
    Ok(out)
}

/// The most items one range key may stand for.
const MAX_ITEMS: usize = 4096;

/// `prefix` `a` `-` `b` where `a` and `b` are numbers and `prefix` ends in no digit:
/// `swp1-18`, `swp1s0-3`, `10-20`.
fn range(part: &str) -> Option<(&str, u32, u32)> {
    let (left, right) = part.split_once('-')?;
    let right = right
        .strip_prefix(left.trim_end_matches(|c: char| c.is_ascii_digit()))
        .filter(|r| !r.is_empty())
        .unwrap_or(right);
    if right.is_empty() || !right.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = left.len() - left.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let (prefix, a) = left.split_at(left.len() - digits);
    Some((prefix, a.parse().ok()?, right.parse().ok()?))
}

/// The maps whose keys may be ranges or lists: interfaces, bond members, VLANs.
pub(crate) fn ranged(parent: &str) -> bool {
    matches!(parent, "interface" | "member" | "vlan")
}

/// A whole configuration as NVUE prints it: the header when there is one, the tree set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub header: Option<Tree>,
    pub set: Tree,
}

/// Reads `nv config show -o yaml` (or `startup.yaml`): a list of one-key documents,
/// `- header:` and `- set:`. Every scalar is kept as written; a range key stands for its
/// items; an error is at its line.
pub fn parse_yaml(text: &str) -> Result<Document, ParseError> {
    if let Some(doc) = super::fast::parse(text) {
        return Ok(doc);
    }
    parse_events(text)
}

/// [`parse_yaml`] by the YAML parser's events, whatever the text's shape.
pub fn parse_events(text: &str) -> Result<Document, ParseError> {
    let root = events(text)?;
    let items = match root {
        Some(Raw::List(items, _)) => items,
        Some(other) => {
            return Err(error(
                text,
                other.line(),
                Problem::NotConfiguration,
                "a list of `- header:` and `- set:` documents, as `nv config show -o yaml` prints",
            ));
        }
        None => return Err(ParseError::empty("an NVUE configuration (`- set:`)")),
    };
    let mut doc = Document::default();
    let mut any_set = false;
    for item in items {
        let line = item.line();
        let Raw::Map(entries, _) = item else {
            return Err(error(
                text,
                line,
                Problem::Structure,
                "`- set:` or `- header:`",
            ));
        };
        for (key, value, line) in entries {
            let tree = match value {
                Raw::Map(..) => to_tree(text, value, "")?,
                Raw::Scalar(s, _) if s.is_empty() => Tree::new(),
                other => {
                    return Err(error(
                        text,
                        other.line(),
                        Problem::Structure,
                        "a map of objects",
                    ));
                }
            };
            match key.as_str() {
                "set" if !any_set => {
                    any_set = true;
                    doc.set = tree;
                }
                "header" if doc.header.is_none() => doc.header = Some(tree),
                "set" | "header" => {
                    return Err(error(
                        text,
                        line,
                        Problem::Duplicate,
                        "one `- set:` and one `- header:`",
                    ));
                }
                _ => {
                    return Err(error(
                        text,
                        line,
                        Problem::NotConfiguration,
                        "`set` or `header` (a `nv config diff` with `unset` is no configuration)",
                    ));
                }
            }
        }
    }
    if !any_set {
        return Err(ParseError::empty("an NVUE configuration (`- set:`)"));
    }
    Ok(doc)
}

/// A YAML node as the parser gave it, with the line it starts on.
enum Raw {
    Scalar(String, usize),
    List(Vec<Raw>, usize),
    Map(Vec<(String, Raw, usize)>, usize),
}

impl Raw {
    fn line(&self) -> usize {
        match self {
            Raw::Scalar(_, l) | Raw::List(_, l) | Raw::Map(_, l) => *l,
        }
    }
}

fn error(text: &str, line: usize, problem: Problem, expected: &str) -> ParseError {
    ParseError {
        problem,
        line,
        column: 1,
        text: text
            .lines()
            .nth(line.saturating_sub(1))
            .unwrap_or("")
            .to_string(),
        expected: expected.to_string(),
    }
}

/// The one YAML document of `text` as [`Raw`] nodes; a syntax error, an alias, a tag or a
/// second document is an error at its line.
fn events(text: &str) -> Result<Option<Raw>, ParseError> {
    enum Open {
        List(Vec<Raw>, usize),
        Map(Vec<(String, Raw, usize)>, Option<(String, usize)>, usize),
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut root = None;
    let mut documents = 0;
    for item in Parser::new_from_str(text) {
        let (event, span) = item.map_err(|e| {
            let line = e.marker().line();
            error(
                text,
                line,
                Problem::Structure,
                &format!("YAML: {}", e.info()),
            )
        })?;
        let line = span.start.line();
        let node = match event {
            Event::DocumentStart(..) => {
                documents += 1;
                if documents > 1 {
                    return Err(error(text, line, Problem::Structure, "one YAML document"));
                }
                continue;
            }
            Event::Scalar(value, style, _, tag) => {
                if tag.is_some() {
                    return Err(error(
                        text,
                        line,
                        Problem::Malformed,
                        "no YAML tag (NVUE writes none)",
                    ));
                }
                let plain_null = style == ScalarStyle::Plain && (value == "~" || value == "null");
                Raw::Scalar(
                    if plain_null {
                        String::new()
                    } else {
                        value.into_owned()
                    },
                    line,
                )
            }
            Event::Alias(_) => {
                return Err(error(
                    text,
                    line,
                    Problem::Malformed,
                    "no YAML alias (NVUE writes none)",
                ));
            }
            Event::SequenceStart(..) => {
                stack.push(Open::List(Vec::new(), line));
                continue;
            }
            Event::MappingStart(..) => {
                stack.push(Open::Map(Vec::new(), None, line));
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Open::List(items, l)) => Raw::List(items, l),
                Some(Open::Map(entries, _, l)) => Raw::Map(entries, l),
                None => continue,
            },
            _ => continue,
        };
        match stack.last_mut() {
            Some(Open::List(items, _)) => items.push(node),
            Some(Open::Map(entries, key, _)) => match key.take() {
                Some((k, l)) => entries.push((k, node, l)),
                None => match node {
                    Raw::Scalar(k, l) => *key = Some((k, l)),
                    other => {
                        return Err(error(text, other.line(), Problem::Malformed, "a plain key"));
                    }
                },
            },
            None => root = Some(node),
        }
    }
    Ok(root)
}

/// A YAML map as a tree: range keys expanded (under `parent`'s kinds of map), items merged; a
/// key given twice is an error at its second line.
fn to_tree(text: &str, raw: Raw, parent: &str) -> Result<Tree, ParseError> {
    let Raw::Map(entries, _) = raw else {
        return Err(error(text, raw.line(), Problem::Structure, "a map"));
    };
    let mut tree = Tree::new();
    let mut seen = std::collections::BTreeSet::new();
    for (key, value, line) in entries {
        if key.is_empty() || key.contains(['\n', '\r']) {
            return Err(error(text, line, Problem::Malformed, "a key on one line"));
        }
        if !seen.insert(key.clone()) {
            return Err(error(
                text,
                line,
                Problem::Duplicate,
                &format!("`{key}` once"),
            ));
        }
        let node = match value {
            Raw::Scalar(s, _) => Node::Leaf(owned(s)),
            Raw::Map(..) => Node::Map(to_tree(text, value, &key)?),
            Raw::List(_, l) => {
                return Err(error(
                    text,
                    l,
                    Problem::Malformed,
                    "a value or a map (NVUE writes no lists)",
                ));
            }
        };
        let items = match ranged(parent) {
            true => expand(&key).map_err(|e| error(text, line, Problem::Malformed, &e))?,
            false => vec![key],
        };
        match <[String; 1]>::try_from(items) {
            Ok([item]) => merge_into(&mut tree, owned(item), node),
            Err(items) => {
                for item in items {
                    merge_into(&mut tree, owned(item), node.clone());
                }
            }
        }
    }
    Ok(tree)
}

/// The bytes that may not begin a plain scalar (YAML's indicators).
const INDICATORS: [bool; 128] = ascii_set(b"-?:,[]{}#&*!|>'\"%@`");

/// A set of ASCII bytes, as a table.
const fn ascii_set(bytes: &[u8]) -> [bool; 128] {
    let mut set = [false; 128];
    let mut i = 0;
    while i < bytes.len() {
        set[bytes[i] as usize] = true;
        i += 1;
    }
    set
}

/// Whether NVUE's YAML prints `s` plain: not empty, no indicator first, no `: ` or ` #`, no
/// space at either end, one line, not a word YAML reads as null.
pub(super) fn plain(s: &str) -> bool {
    let (Some(first), Some(last)) = (s.chars().next(), s.chars().next_back()) else {
        return false;
    };
    let b = s.as_bytes();
    // One pass for `: `, ` #` and line breaks and tabs (each byte of them ASCII).
    let inside = b.iter().enumerate().any(|(i, c)| match c {
        b'\n' | b'\r' | b'\t' => true,
        b':' => b.get(i + 1) == Some(&b' '),
        b' ' => b.get(i + 1) == Some(&b'#'),
        _ => false,
    });
    let quoted = (first.is_ascii() && INDICATORS[first as usize])
        || inside
        || last == ':'
        || first.is_whitespace()
        || last.is_whitespace()
        || (s.len() <= 4 && matches!(s, "~" | "null" | "Null" | "NULL"));
    !quoted
}

/// Writes `s` as NVUE's YAML prints it: plain where it reads so, else single-quoted.
fn push_scalar(out: &mut String, s: &str) {
    if plain(s) {
        out.push_str(s);
        return;
    }
    out.push('\'');
    out.push_str(&s.replace('\'', "''"));
    out.push('\'');
}

/// Spaces to indent by (deeper trees fall back to allocating).
const PAD: &str = "                                                                ";

fn push_pad(out: &mut String, n: usize) {
    match PAD.get(..n) {
        Some(p) => out.push_str(p),
        None => out.push_str(&" ".repeat(n)),
    }
}

/// The `startup.yaml` form: `- set:` and the tree, two spaces a level, empty maps `{}`, text
/// of many lines as a `|` block. With `header`, the `- header:` document first, as
/// `nv config show -o yaml` prints it.
pub fn render_yaml(header: Option<&Tree>, set: &Tree) -> String {
    fn map(out: &mut String, tree: &Tree, indent: usize) {
        for (k, v) in tree {
            push_pad(out, indent);
            push_scalar(out, k);
            match v {
                Node::Map(m) if m.is_empty() => out.push_str(": {}\n"),
                Node::Map(m) => {
                    out.push_str(":\n");
                    map(out, m, indent + 2);
                }
                Node::Leaf(s) if s.contains('\n') => {
                    out.push_str(": |\n");
                    for l in s.strip_suffix('\n').unwrap_or(s).split('\n') {
                        push_pad(out, indent + 2);
                        out.push_str(l);
                        out.push('\n');
                    }
                }
                Node::Leaf(s) => {
                    out.push_str(": ");
                    push_scalar(out, s);
                    out.push('\n');
                }
            }
        }
    }
    let mut out = String::with_capacity(64 * 1024);
    if let Some(h) = header {
        out.push_str("- header:\n");
        map(&mut out, h, 4);
    }
    match set.is_empty() {
        true => out.push_str("- set: {}\n"),
        false => {
            out.push_str("- set:\n");
            map(&mut out, set, 4);
        }
    }
    out
}

/// Writes the tree as `nv set` lines, each after `prefix` (`# ` in a review block), in path
/// order: what [`commands`] gives, printed, without a command built per line.
pub fn write_commands(out: &mut impl Out, tree: &Tree, prefix: &str) {
    fn go<'t, O: Out>(out: &mut O, path: &mut Vec<&'t str>, tree: &'t Tree, prefix: &str) {
        for (k, v) in tree {
            path.push(k);
            let line = |out: &mut O, path: &[&str], value: Option<&str>| {
                out.put(prefix);
                out.put("nv set");
                for w in path.iter().copied().chain(value) {
                    out.put(" ");
                    push_word(out, w);
                }
                out.put("\n");
            };
            match v {
                Node::Map(m) if m.is_empty() => line(out, path, None),
                Node::Map(m) => go(out, path, m, prefix),
                Node::Leaf(s) => line(out, path, Some(s)),
            }
            path.pop();
        }
    }
    go(out, &mut Vec::with_capacity(12), tree, prefix);
}

/// Where text is written: a `String`, or a [`Same`] that compares it with a text.
pub trait Out {
    fn put(&mut self, s: &str);
}

impl Out for String {
    fn put(&mut self, s: &str) {
        self.push_str(s);
    }
}

/// Text written compared with `rest`, as it comes (nothing kept).
pub struct Same<'a> {
    pub rest: &'a str,
    pub same: bool,
}

impl Out for Same<'_> {
    fn put(&mut self, s: &str) {
        match self.rest.strip_prefix(s) {
            Some(r) if self.same => self.rest = r,
            _ => self.same = false,
        }
    }
}

impl Same<'_> {
    /// Whether what was written is the whole text.
    pub fn whole(&self) -> bool {
        self.same && self.rest.is_empty()
    }
}

/// One `nv set` or `nv unset` command: its path and, for a set, its value (none: the path's
/// last name is itself the value, or an empty object).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Command {
    pub unset: bool,
    pub path: Vec<String>,
    pub value: Option<String>,
}

impl Command {
    /// The command as typed at the shell: each word quoted where the shell would read it
    /// otherwise (`'UNUSED 25G PORTS'`, `'*'`), so no value a fabric holds can be another
    /// command.
    pub fn line(&self) -> String {
        let mut out = String::from(if self.unset { "nv unset" } else { "nv set" });
        for w in self.path.iter().chain(self.value.iter()) {
            out.push(' ');
            out.push_str(&shell_word(w));
        }
        out
    }
}

/// A word the shell reads as itself: bare when it holds only safe characters, else in single
/// quotes (a quote inside written `'\''`).
pub fn shell_word(w: &str) -> String {
    let mut out = String::with_capacity(w.len() + 2);
    push_word(&mut out, w);
    out
}

/// The punctuation a shell word may hold unquoted.
const SHELL_SAFE: [bool; 128] = ascii_set(b"_./:,@+-=%");

/// [`shell_word`], written onto `out`.
fn push_word(out: &mut impl Out, w: &str) {
    let safe = !w.is_empty()
        && w.bytes()
            .all(|c| c.is_ascii_alphanumeric() || (c.is_ascii() && SHELL_SAFE[c as usize]));
    if safe {
        out.put(w);
    } else if w.contains(['\n', '\r', '\t']) {
        // Text of many lines (a snippet): bash's `$'…'`, the line breaks escaped.
        out.put("$'");
        for c in w.chars() {
            match c {
                '\n' => out.put("\\n"),
                '\r' => out.put("\\r"),
                '\t' => out.put("\\t"),
                '\\' => out.put("\\\\"),
                '\'' => out.put("\\'"),
                c => out.put(c.encode_utf8(&mut [0; 4])),
            }
        }
        out.put("'");
    } else {
        out.put("'");
        out.put(&w.replace('\'', "'\\''"));
        out.put("'");
    }
}

/// The tree as `nv set` commands, one per value and per empty object, in path order (as
/// `nv config show -o commands` prints them).
pub fn commands(tree: &Tree) -> Vec<Command> {
    fn go(out: &mut Vec<Command>, path: &mut Vec<String>, tree: &Tree) {
        for (k, v) in tree {
            path.push(k.to_string());
            match v {
                Node::Map(m) if m.is_empty() => out.push(Command {
                    unset: false,
                    path: path.clone(),
                    value: None,
                }),
                Node::Map(m) => go(out, path, m),
                Node::Leaf(s) => out.push(Command {
                    unset: false,
                    path: path.clone(),
                    value: Some(s.to_string()),
                }),
            }
            path.pop();
        }
    }
    let mut out = Vec::new();
    go(&mut out, &mut Vec::new(), tree);
    out
}

/// Attributes whose value is a key of a collection, not a value (`ip address 10.0.0.1/32`
/// makes `address: {10.0.0.1/32: {}}`), by the name before the value and, where a name means
/// both, the one before it. From the corpus's `-o commands` and YAML pairs and the command
/// reference; an attribute not here reads as a value.
fn collection(path: &[&str]) -> bool {
    let n = path.len();
    let (Some(attr), parent) = (path.last(), n.checked_sub(2).map(|i| path[i])) else {
        return false;
    };
    match *attr {
        "address" | "gateway" | "member" | "backup" | "trigger" | "server" | "class"
        | "network" | "switch-priority" | "listening-address" | "breakout" | "domain" => {
            // `mapping default-global dscp 26 switch-priority 3`: one priority a DSCP maps to.
            let one_priority = *attr == "switch-priority"
                && parent.is_some_and(|p| p.bytes().all(|b| b.is_ascii_digit()));
            let source_address = *attr == "address" && parent == Some("source");
            !(one_priority || source_address)
        }
        // `link state up`; a bare `state enabled` elsewhere is a value.
        "state" => parent == Some("link"),
        // A VLAN list of a bridge or a bridge port; an SVI's or subinterface's `vlan 10` is
        // its value.
        "vlan" => parent != Some("interface") && n >= 3 && path[n - 3] != "interface",
        _ => false,
    }
}

/// Objects that are set by their name alone (`nv set interface swp1 qos pfc-watchdog`,
/// `nv set system control-plane acl acl-default-dos inbound`, `nv set qos roce`): a last word
/// that is one of these is an empty object, not a value.
const OBJECTS: &[&str] = &["pfc-watchdog", "inbound", "outbound", "roce", "acl"];

/// Reads `nv config show -o commands` (or a file of `nv set` / `nv unset` lines, as
/// `nv config patch` takes): blank lines and `#` comments skipped; ranges expanded. The last
/// word is a value unless its attribute is a collection's ([`collection`]).
pub fn parse_commands(text: &str) -> Result<Vec<Command>, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |expected: &str| ParseError {
            problem: Problem::Malformed,
            line: i + 1,
            column: 1,
            text: raw.to_string(),
            expected: expected.to_string(),
        };
        let words = shell_words(line).map_err(|e| bad(&e))?;
        let unset = match words
            .first()
            .map(String::as_str)
            .zip(words.get(1).map(String::as_str))
        {
            Some(("nv", "set")) => false,
            Some(("nv", "unset")) => true,
            _ => {
                let mut e = bad("`nv set …` or `nv unset …`");
                e.problem = Problem::NotConfiguration;
                return Err(e);
            }
        };
        let mut rest: Vec<String> = words[2..].to_vec();
        if rest.is_empty() {
            return Err(bad("a path after `nv set`"));
        }
        let value = match !unset && rest.len() >= 2 {
            true => {
                let path: Vec<&str> = rest[..rest.len() - 1].iter().map(String::as_str).collect();
                let last = rest[rest.len() - 1].as_str();
                (!collection(&path) && !OBJECTS.contains(&last))
                    .then(|| rest.pop())
                    .flatten()
            }
            false => None,
        };
        for path in expand_path(&rest).map_err(|e| bad(&e))? {
            out.push(Command {
                unset,
                path,
                value: value.clone(),
            });
        }
    }
    Ok(out)
}

/// A command's path with its range names expanded: one path per item.
fn expand_path(path: &[String]) -> Result<Vec<Vec<String>>, String> {
    let mut paths: Vec<Vec<String>> = vec![Vec::new()];
    for (i, name) in path.iter().enumerate() {
        let items = match i > 0 && ranged(&path[i - 1]) {
            true => expand(name)?,
            false => vec![name.clone()],
        };
        if paths.len() * items.len() > MAX_ITEMS {
            return Err(format!("`{name}` stands for too many objects"));
        }
        paths = paths
            .into_iter()
            .flat_map(|p| {
                items.iter().map(move |item| {
                    let mut p = p.clone();
                    p.push(item.clone());
                    p
                })
            })
            .collect();
    }
    Ok(paths)
}

/// The words of a shell line: single and double quotes, `\` escapes; an unclosed quote is an
/// error.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut any = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '$' if chars.clone().next() == Some('\'') => {
                chars.next();
                any = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some('\\') => match chars.next() {
                            Some('n') => word.push('\n'),
                            Some('r') => word.push('\r'),
                            Some('t') => word.push('\t'),
                            Some(c) => word.push(c),
                            None => return Err("a closing `'`".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a closing `'`".into()),
                    }
                }
            }
            '\'' => {
                any = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a closing `'`".into()),
                    }
                }
            }
            '"' => {
                any = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => word.push(chars.next().ok_or("a closing `\"`")?),
                        Some(c) => word.push(c),
                        None => return Err("a closing `\"`".into()),
                    }
                }
            }
            '\\' => {
                any = true;
                word.push(chars.next().ok_or("a character after `\\`")?);
            }
            c if c.is_whitespace() => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                any = true;
                word.push(c);
            }
        }
    }
    if any {
        words.push(word);
    }
    Ok(words)
}

/// Applies commands to a tree, as the switch applies them to its pending revision.
pub fn apply(tree: &mut Tree, commands: &[Command]) {
    for c in commands {
        let path: Vec<&str> = c.path.iter().map(String::as_str).collect();
        if c.unset {
            unset(tree, &path);
            continue;
        }
        match &c.value {
            Some(v) => set(tree, &path, Node::Leaf(word(v))),
            None => set(tree, &path, Node::Map(Tree::new())),
        }
    }
}

/// The commands that make `from` into `to`: `nv unset` of each object `to` has not (the
/// highest such object, once), then `nv set` of each value and empty object `to` has that
/// `from` has not or has otherwise.
pub fn diff(from: &Tree, to: &Tree) -> Vec<Command> {
    fn go(out: &mut Vec<Command>, path: &mut Vec<String>, from: &Tree, to: &Tree) {
        for (k, old) in from {
            path.push(k.to_string());
            let gone = match (old, to.get(k)) {
                (_, None) => true,
                (Node::Map(a), Some(Node::Map(b))) if !b.is_empty() && !a.is_empty() => {
                    go(out, path, a, b);
                    false
                }
                // What an empty object or a value does not hold goes first.
                (Node::Map(a), Some(Node::Map(b))) => !a.is_empty() && b.is_empty(),
                (Node::Leaf(_), Some(Node::Leaf(_))) => false,
                (Node::Map(_), Some(Node::Leaf(_))) | (Node::Leaf(_), Some(Node::Map(_))) => true,
            };
            if gone {
                out.push(Command {
                    unset: true,
                    path: path.clone(),
                    value: None,
                });
            }
            path.pop();
        }
        for (k, new) in to {
            path.push(k.to_string());
            match (from.get(k), new) {
                (Some(Node::Map(a)), Node::Map(b)) if !a.is_empty() && !b.is_empty() => {}
                (Some(old), new) if old == new => {}
                (_, Node::Map(b)) if !b.is_empty() => {
                    let mut sub = Vec::new();
                    go(&mut sub, path, &Tree::new(), b);
                    out.extend(sub);
                }
                (_, Node::Map(_)) => out.push(Command {
                    unset: false,
                    path: path.clone(),
                    value: None,
                }),
                (_, Node::Leaf(v)) => out.push(Command {
                    unset: false,
                    path: path.clone(),
                    value: Some(v.to_string()),
                }),
            }
            path.pop();
        }
    }
    let mut out = Vec::new();
    go(&mut out, &mut Vec::new(), from, to);
    // Unsets first, so a set below an object unset in the same plan is not undone.
    out.sort_by_key(|c| !c.unset);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_expand_as_nvue_writes_them() {
        let e = |k: &str| expand(k).unwrap();
        assert_eq!(e("swp1-3"), ["swp1", "swp2", "swp3"]);
        assert_eq!(e("eth0,swp19-20"), ["eth0", "swp19", "swp20"]);
        assert_eq!(e("swp1s0-3"), ["swp1s0", "swp1s1", "swp1s2", "swp1s3"]);
        assert_eq!(e("swp1-swp2"), ["swp1", "swp2"]);
        assert_eq!(e("10,20,30"), ["10", "20", "30"]);
        assert_eq!(e("peerlink.4094"), ["peerlink.4094"]);
        assert_eq!(e("2001:db8::1/64"), ["2001:db8::1/64"]);
        assert_eq!(e("acl-default-dos"), ["acl-default-dos"]);
        assert!(expand("swp1-99999999").is_err());
        assert!(expand("swp3-1").is_err());
        assert!(expand("a,,b").is_err());
    }

    #[test]
    fn shell_words_quote_what_the_shell_would_read() {
        assert_eq!(shell_word("swp1"), "swp1");
        assert_eq!(shell_word("UNUSED 25G PORTS"), "'UNUSED 25G PORTS'");
        assert_eq!(shell_word("$(reboot)"), "'$(reboot)'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word("a\nb's"), "$'a\\nb\\'s'");
        assert_eq!(shell_words("nv set x $'a\\nb\\'s'").unwrap()[3], "a\nb's");
        assert_eq!(
            shell_words("nv set a 'it'\\''s' \"b c\"").unwrap(),
            ["nv", "set", "a", "it's", "b c"]
        );
    }

    #[test]
    fn set_unset_and_diff_round_trip() {
        let mut a = Tree::new();
        set(
            &mut a,
            &["interface", "swp1", "link", "mtu"],
            Node::Leaf("9216".into()),
        );
        set(
            &mut a,
            &["interface", "swp1", "ip", "address", "10.0.0.1/31"],
            Node::Map(Tree::new()),
        );
        let mut b = a.clone();
        unset(
            &mut b,
            &["interface", "swp1", "ip", "address", "10.0.0.1/31"],
        );
        assert!(get(&b, &["interface", "swp1", "ip"]).is_none(), "{b:?}");
        set(
            &mut b,
            &["interface", "swp2", "type"],
            Node::Leaf("swp".into()),
        );
        let d = diff(&a, &b);
        let mut c = a.clone();
        apply(&mut c, &d);
        assert_eq!(c, b, "{d:?}");
        assert!(diff(&b, &b).is_empty());
    }
}
