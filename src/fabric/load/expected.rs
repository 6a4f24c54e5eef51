//! A value of the wrong type (E012), or a number too large for any integer (E020), in the
//! format's words: what the format expects at the value's place, from its JSON Schema, and
//! how to write it.

use std::ops::Range;

use serde_json::Value;

use super::diagnose::Cx;
use super::outline::{Hit, Kind, Node, one_line};
use crate::diag::Diagnostic;

/// The sub-schema at `path` (keys; `None` for a list item), following `$ref` and the
/// `anyOf [T, null]` of optional values.
pub(super) fn schema_at(schema: &Value, path: &[Option<&str>]) -> Option<Value> {
    let mut s = schema.clone();
    for step in path {
        let here = resolve(schema, &s);
        s = match step {
            Some(k) => here
                .get("properties")
                .and_then(|p| p.get(*k))
                .or_else(|| here.get("additionalProperties").filter(|a| a.is_object()))?
                .clone(),
            None => here.get("items")?.clone(),
        };
    }
    Some(s)
}

/// A schema with its `$ref` followed, and an optional value's `anyOf [T, null]` read as `T`.
pub(super) fn resolve<'a>(root: &'a Value, s: &'a Value) -> &'a Value {
    if let Some(r) = s.get("$ref").and_then(Value::as_str)
        && let Some(t) = r.strip_prefix('#').and_then(|p| root.pointer(p))
    {
        return resolve(root, t);
    }
    if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
        let real: Vec<&Value> = any
            .iter()
            .filter(|v| v.get("type").and_then(Value::as_str) != Some("null"))
            .collect();
        if let [one] = real.as_slice() {
            return resolve(root, one);
        }
    }
    s
}

/// The JSON type a schema takes, `null` aside: `integer`, `object`, ….
fn schema_type<'a>(root: &'a Value, s: &'a Value) -> Option<&'a str> {
    let s = resolve(root, s);
    match s.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(ts) => {
            let real: Vec<&str> = ts
                .iter()
                .filter_map(Value::as_str)
                .filter(|t| *t != "null")
                .collect();
            match real.as_slice() {
                [one] => Some(one),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A key's documentation, first sentence, as a phrase: `MTU, 1500-9216`.
pub(super) fn description(s: &Value) -> Option<String> {
    let d = s.get("description")?.as_str()?;
    let d = d.split("\n\n").next()?.replace('\n', " ");
    let d = d.trim().trim_end_matches('.');
    // Lowercase like every message, unless it starts with an initialism (`MTU`, `DSCP`).
    let mut chars = d.chars();
    Some(match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && b.is_lowercase() => {
            a.to_lowercase().chain(d[a.len_utf8()..].chars()).collect()
        }
        _ => d.to_string(),
    })
}

/// What kind of value the reader refused, as it says it.
#[derive(Clone, Copy)]
pub(super) enum Refused<'a> {
    /// A scalar that does not convert: `i64`, `floating point`, `boolean`.
    Scalar(&'a str),
    /// A node of the wrong shape: `mapping start`, `sequence start`, `string scalar`.
    Structure(&'a str),
    /// A value a type's visitor refused, with the visitor's own `expected` text.
    Visitor(&'a str),
}

/// The kinds of value the format has, as messages say them.
#[derive(Clone, Copy, PartialEq)]
enum Want {
    Integer,
    Number,
    Bool,
    Text,
    Mapping,
    List,
}

impl Want {
    fn from_schema(t: &str) -> Option<Want> {
        Some(match t {
            "integer" => Want::Integer,
            "number" => Want::Number,
            "boolean" => Want::Bool,
            "string" => Want::Text,
            "object" => Want::Mapping,
            "array" => Want::List,
            _ => return None,
        })
    }

    /// The reader's name for what it wanted, when the schema says nothing.
    fn from_reader(r: Refused<'_>) -> Option<Want> {
        let t = match r {
            Refused::Scalar(t) | Refused::Structure(t) | Refused::Visitor(t) => t,
        };
        Some(match t {
            t if t.starts_with('i') || t.starts_with('u') && t.len() <= 5 => Want::Integer,
            "floating point" | "f64" | "f32" => Want::Number,
            "boolean" | "a boolean" => Want::Bool,
            "mapping start" | "a map" | "a mapping" => Want::Mapping,
            t if t.starts_with("struct ") => Want::Mapping,
            "sequence start" | "a sequence" => Want::List,
            "string scalar" | "a string" => Want::Text,
            _ => return None,
        })
    }

    fn words(self) -> &'static str {
        match self {
            Want::Integer => "an integer",
            Want::Number => "a number",
            Want::Bool => "`true` or `false`",
            Want::Text => "text",
            Want::Mapping => "a mapping",
            Want::List => "a list",
        }
    }
}

/// What a node is, as messages say it: `` `jumbo` ``, `a list`, `nothing`.
fn found(node: &Node, text: &str) -> String {
    match &node.kind {
        Kind::Map(_) => "a mapping".into(),
        Kind::List(_) => "a list".into(),
        Kind::Alias => "an alias".into(),
        Kind::Scalar { .. } if node.span.is_empty() => "nothing".into(),
        Kind::Scalar { .. } => format!("`{}`", written(node, text)),
    }
}

/// A scalar as written (quotes included), on one line and at most 40 characters.
fn written(node: &Node, text: &str) -> String {
    let raw = text.get(node.span.clone()).unwrap_or("");
    let one: String = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    let shown: String = one.chars().take(40).collect();
    let shown = shown.escape_debug().to_string();
    if one.chars().count() > 40 {
        format!("{shown}…")
    } else {
        shown
    }
}

/// A value of the wrong type: its node and how it is written, what the format wants there,
/// its key (or the key of its mapping) and what the schema says of that key, and where the
/// caret goes.
struct Wrong<'a> {
    node: &'a Node,
    value: String,
    want: Option<Want>,
    key_text: Option<&'a str>,
    about: Option<String>,
    at: Range<usize>,
}

impl Cx<'_> {
    /// A value of the wrong type at `hit` (E012), or digits more than any integer holds
    /// (E020), in the format's words: what its key takes, and how to write it.
    pub(super) fn wrong_value(&self, hit: &Hit<'_>, refused: Refused<'_>) -> Option<Diagnostic> {
        let schema: Value = serde_json::from_str(&crate::fabric::json_schema()).ok()?;
        let here = if hit.is_key {
            None
        } else {
            schema_at(&schema, &hit.path)
        };
        let want = here
            .as_ref()
            .and_then(|s| schema_type(&schema, s))
            .and_then(Want::from_schema)
            .or_else(|| Want::from_reader(refused));
        // A visitor with its own wording (`strict` or a WRR weight) keeps it.
        let expected = match (refused, want) {
            (Refused::Visitor(v), None) => v.to_string(),
            (Refused::Visitor(v), Some(_)) if v.contains('`') => v.to_string(),
            (_, Some(w)) => w.words().to_string(),
            (_, None) => return None,
        };
        let node = hit.node;
        let name = hit
            .path
            .iter()
            .rev()
            .find_map(|k| *k)
            .filter(|_| !hit.is_key);
        let wrong = Wrong {
            node,
            value: written(node, self.text),
            want,
            key_text: hit.key.and_then(Node::scalar).or(name),
            about: here.as_ref().and_then(description),
            // Where the caret goes: the value; for a missing value, the key before it.
            at: match hit.key {
                Some(k) if node.span.is_empty() => k.span.clone(),
                _ => one_line(self.text, node.span.clone()),
            },
        };
        let label = label(hit, name, &expected);
        if let Some(d) = self.out_of_range(&wrong) {
            return Some(d);
        }
        let (expected, help) = wrong.help(expected, self.text);
        let d = Diagnostic::error(
            "E012",
            format!("expected {expected}, found {}", found(node, self.text)),
        )
        .at(self.span(wrong.at), label);
        Some(match help {
            Some(h) => d.help(h),
            None => d,
        })
    }

    /// E020: digits where the format wants a number, which the reader could not take: more
    /// than any integer holds.
    fn out_of_range(&self, w: &Wrong<'_>) -> Option<Diagnostic> {
        let plain_number = w.value.trim_start_matches(['-', '+']);
        let whole_digits =
            !plain_number.is_empty() && plain_number.bytes().all(|b| b.is_ascii_digit());
        if !(matches!(w.want, Some(Want::Integer | Want::Number))
            && matches!(w.node.kind, Kind::Scalar { .. })
            && whole_digits)
        {
            return None;
        }
        // Digits the reader could not take: more than any integer holds.
        let value = &w.value;
        let d = Diagnostic::error(
            "E020",
            match w.key_text {
                Some(k) => format!("{value} is out of range for `{k}`"),
                None => format!("{value} is out of range"),
            },
        )
        .at(self.span(w.at.clone()), "out of range");
        Some(match (&w.about, w.key_text) {
            (Some(a), Some(k)) => d.help(format!("`{k}`: {a}")),
            _ => d,
        })
    }
}

/// The label at a value of the wrong type (`name`: its key): what its key, its list or its
/// mapping takes (`expected`).
fn label(hit: &Hit<'_>, name: Option<&str>, expected: &str) -> String {
    match (hit.is_key, name, hit.path.last()) {
        (true, _, _) => {
            let map = hit.path.iter().rev().skip(1).find_map(|k| *k);
            match map {
                Some(m) => format!("a key of `{m}` is {expected}"),
                None => format!("expected {expected}"),
            }
        }
        (false, Some(_), Some(None)) => {
            format!("each item of `{}` is {expected}", name.unwrap_or_default())
        }
        // A numbered entry (a traffic class under `ets`) is named with its mapping.
        (false, Some(n), _) if n.bytes().all(|b| b.is_ascii_digit()) => {
            match hit.path.iter().rev().skip(1).find_map(|k| *k) {
                Some(m) => format!("`{m}` {n} takes {expected}"),
                None => format!("`{n}` takes {expected}"),
            }
        }
        (false, Some(n), _) => format!("`{n}` takes {expected}"),
        (false, None, _) => format!("expected {expected}"),
    }
}

impl Wrong<'_> {
    /// How to write the value the format wants: the help, and what the message says is
    /// expected (`expected`, or a percentage's own wording).
    fn help(&self, expected: String, text: &str) -> (String, Option<String>) {
        let (node, value, key_text) = (self.node, &self.value, self.key_text);
        let mut expected = expected;
        let help = match (self.want, &node.kind) {
            (Some(Want::Integer | Want::Number), Kind::Scalar { .. })
                if value.ends_with('%') && value.trim_end_matches('%').parse::<f64>().is_ok() =>
            {
                expected = format!("{} (percent, without `%`)", Want::Number.words());
                Some(format!(
                    "write the number alone: `{}`",
                    value.trim_end_matches('%')
                ))
            }
            (Some(Want::Integer), Kind::Scalar { .. })
                if value
                    .parse::<f64>()
                    .is_ok_and(|f| f.fract() == 0.0 && f.is_finite()) =>
            {
                let whole = value.split('.').next().unwrap_or(value);
                Some(format!("write it without a decimal point: `{whole}`"))
            }
            (Some(Want::Integer | Want::Number | Want::Bool | Want::Text), Kind::List(items))
                if matches!(items.as_slice(), [one] if one.scalar().is_some()) =>
            {
                Some(format!(
                    "write the value alone, without brackets: `{}`",
                    written(&items[0], text)
                ))
            }
            (Some(Want::Integer | Want::Number), _) => self
                .about
                .as_ref()
                .zip(key_text)
                .map(|(a, k)| format!("`{k}`: {a}")),
            (Some(Want::Bool), _) => Some("write `true` or `false`".into()),
            (Some(Want::Mapping), Kind::List(_)) => {
                Some("write `name: value` entries, not `- item` lines".into())
            }
            (Some(Want::Mapping), _) => Some(mapping_help(node, key_text)),
            (Some(Want::List), Kind::Scalar { .. }) if !node.is_empty() => {
                Some(format!("write `[{value}]`, or one `- …` line per item"))
            }
            (Some(Want::List), _) => Some("write `[a, b]`, or one `- …` line per item".into()),
            (Some(Want::Text), Kind::List(_) | Kind::Map(_)) => {
                Some("put the text in quotes when it holds `[`, `{`, `: ` or ` #`".into())
            }
            _ => None,
        };
        (expected, help)
    }
}

/// How to write a mapping where something else is written (not a list): its entries below
/// its key, or `{}` for none when nothing is written.
fn mapping_help(node: &Node, key_text: Option<&str>) -> String {
    match key_text {
        Some(k) if node.is_empty() => {
            format!("write its entries indented on the lines below `{k}:`, or `{k}: {{}}` for none")
        }
        Some(k) => format!(
            "write `name: value` entries, indented on the lines below `{k}:` or as `{{ name: value }}`"
        ),
        None => "write `name: value` entries".into(),
    }
}
