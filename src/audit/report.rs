//! An audit's findings as text (a table of switches with their scores, then the findings
//! with the offending lines), JSON (stable: `docs/audit.md`), SARIF 2.1.0 (code scanning
//! annotates the running-config backup or fabric file at the line) and JUnit XML (one test
//! case per switch and rule). Also where in its source file a finding belongs.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::Arc;

use serde::Serialize;
use serde_json::json;

use super::{Finding, Profile, RULES, Severity, score};
use crate::hosts::HOST_RULES;
use crate::types::Iface;
use crate::types::{Port, read_port_span};

/// Where a switch's configuration was read from.
#[derive(Clone, Debug)]
pub struct Source {
    /// The path as the user gave it (SARIF keeps it relative to where `fabric` ran).
    pub path: String,
    pub kind: SourceKind,
}

#[derive(Clone, Debug)]
pub enum SourceKind {
    /// A running config (backup, capture), with its text: findings point at its lines.
    Running(crate::input::Text),
    /// A fabric file: findings point at the switch (and port) entry. One index of the file,
    /// shared by every switch it describes.
    Fabric(Arc<FabricIndex>),
    /// Read over SSH: no file.
    Live,
    /// A host's report (`fabric audit --hosts`), with its text: findings point at the line
    /// they quote.
    Host(String),
    /// A host read over SSH (`--hosts-live`): no file.
    HostLive,
}

impl SourceKind {
    /// Whether the source is a host's, not a switch's.
    pub fn is_host(&self) -> bool {
        matches!(self, SourceKind::Host(_) | SourceKind::HostLive)
    }
}

/// A fabric file's lines and the first line of each mapping key, made in one pass so that
/// locating a finding reads its switch's entry, never the whole file (a fabric of 10,000
/// switches has as many entries).
#[derive(Debug)]
pub struct FabricIndex {
    text: String,
    /// Byte offset where each line starts.
    starts: Vec<usize>,
    /// Each key (`leaf01:`, `"leaf01":`, `leaf01: {…}`) → the 0-based line it first appears on.
    keys: HashMap<String, usize>,
}

impl FabricIndex {
    pub fn new(text: String) -> FabricIndex {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        if starts.last() == Some(&text.len()) {
            starts.pop();
        }
        let mut index = FabricIndex {
            text,
            starts,
            keys: HashMap::new(),
        };
        for i in 0..index.starts.len() {
            if let Some(key) = mapping_key(index.line(i).trim_start()) {
                let key = key.to_string();
                index.keys.entry(key).or_insert(i);
            }
        }
        index
    }

    fn line(&self, i: usize) -> &str {
        let end = self.starts.get(i + 1).map_or(self.text.len(), |e| e - 1);
        let line = &self.text[self.starts[i]..end];
        line.strip_suffix('\r').unwrap_or(line)
    }

    /// The line of a finding: the switch's entry under `switches:`, or the entry of the
    /// port it is about when the switch lists it.
    fn locate(&self, f: &Finding) -> Option<usize> {
        let start = *self.keys.get(f.switch.as_str())?;
        let first = self.line(start);
        let indent = first.len() - first.trim_start().len();
        if let Some((_, Some(port))) = first_iface(f) {
            for i in start + 1..self.starts.len() {
                let l = self.line(i);
                let t = l.trim_start();
                if !t.is_empty() && !t.starts_with('#') && l.len() - t.len() <= indent {
                    break;
                }
                let Some(k) = mapping_key(t) else {
                    continue;
                };
                if let Some(((a, b), n)) = read_port_span(k.as_bytes())
                    && n == k.len()
                    && span_contains(a, b, port)
                {
                    return Some(i + 1);
                }
            }
        }
        Some(start + 1)
    }
}

/// The key a YAML line starts with: up to the first `:` that ends the line or precedes a
/// space, without quotes.
fn mapping_key(t: &str) -> Option<&str> {
    let at = t
        .match_indices(':')
        .map(|(i, _)| i)
        .find(|&i| matches!(t.as_bytes().get(i + 1), None | Some(b' ')))?;
    let k = &t[..at];
    Some(
        k.strip_prefix('"')
            .and_then(|k| k.strip_suffix('"'))
            .unwrap_or(k),
    )
}

/// The sources of switches described in one fabric file (`path` as it is to be shown, `text`
/// its content): findings point at each switch's entry, through one index of the file.
pub fn fabric_sources<'a>(
    path: &str,
    text: String,
    names: impl IntoIterator<Item = &'a String>,
) -> BTreeMap<String, Source> {
    let index = Arc::new(FabricIndex::new(text));
    names
        .into_iter()
        .map(|name| {
            let source = Source {
                path: path.to_string(),
                kind: SourceKind::Fabric(index.clone()),
            };
            (name.clone(), source)
        })
        .collect()
}

/// An audit's result, ready to print.
pub struct Report<'a> {
    pub profile: Profile,
    /// Every audited switch, by name, with its source.
    pub switches: &'a BTreeMap<String, Source>,
    pub findings: &'a [Finding],
}

/// A finding's place: the file and, when found, the 1-based line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

#[derive(Serialize)]
struct SwitchSummary<'a> {
    name: &'a str,
    score: u32,
    errors: usize,
    warnings: usize,
    infos: usize,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    #[serde(flatten)]
    finding: &'a Finding,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<Location>,
}

impl Report<'_> {
    /// Each audited switch with its findings, in one pass over the findings.
    fn by_switch(&self) -> Vec<(&str, Vec<&Finding>)> {
        let mut mine: BTreeMap<&str, Vec<&Finding>> = self
            .switches
            .keys()
            .map(|name| (name.as_str(), Vec::new()))
            .collect();
        for f in self.findings {
            if let Some(v) = mine.get_mut(f.switch.as_str()) {
                v.push(f);
            }
        }
        mine.into_iter().collect()
    }

    fn summaries(&self) -> Vec<SwitchSummary<'_>> {
        self.by_switch()
            .into_iter()
            .map(|(name, mine)| {
                let count = |s| mine.iter().filter(|f| f.severity == s).count();
                SwitchSummary {
                    name,
                    score: score(mine.iter().copied()),
                    errors: count(Severity::Error),
                    warnings: count(Severity::Warning),
                    infos: count(Severity::Info),
                }
            })
            .collect()
    }

    /// Where a finding belongs in its switch's source.
    pub fn location(&self, f: &Finding) -> Option<Location> {
        let source = self.switches.get(&f.switch)?;
        let line = match &source.kind {
            SourceKind::Live | SourceKind::HostLive => return None,
            SourceKind::Running(text) => locate_running(text, f),
            // A counter's finding carries both readings' lines: it is at the last.
            SourceKind::Host(text) => f
                .line
                .as_deref()
                .and_then(|l| l.lines().last())
                .and_then(|l| text.lines().position(|t| t.trim() == l).map(|i| i + 1)),
            SourceKind::Fabric(index) => index.locate(f),
        };
        Some(Location {
            file: source.path.clone(),
            line,
        })
    }

    /// A table of switches (score, counts), then each switch's findings with the line at
    /// fault and where it is.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let width = name_width(self.switches.keys());
        let _ = writeln!(out, "{:width$}  score  errors  warnings  infos", "switch");
        for s in self.summaries() {
            let _ = writeln!(
                out,
                "{:width$}  {:>5}  {:>6}  {:>8}  {:>5}",
                s.name, s.score, s.errors, s.warnings, s.infos
            );
        }
        let mut current = "";
        for f in self.findings {
            write_finding(&mut out, &mut current, f);
            for line in f.line.iter().flat_map(|l| l.lines()) {
                let _ = writeln!(out, "      {line}");
            }
            if let Some(Location {
                file,
                line: Some(n),
            }) = self.location(f)
            {
                let _ = writeln!(out, "      --> {file}:{n}");
            }
        }
        if !self.findings.is_empty() {
            out.push_str(
                "\n`fabric explain RULE` says what a rule checks, why, and how to fix it.\n",
            );
        }
        out
    }

    /// `{profile, switches: [{name, score, errors, warnings, infos}], findings: [...]}`.
    pub fn json(&self) -> String {
        let findings: Vec<JsonFinding> = self
            .findings
            .iter()
            .map(|f| JsonFinding {
                finding: f,
                location: self.location(f),
            })
            .collect();
        let mut value = json!({
            "profile": self.profile,
            "switches": self.summaries(),
            "findings": findings,
        });
        // Keys sorted, as they print without `serde_json`'s `preserve_order` (the lab's).
        value.sort_all_objects();
        serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
    }

    /// SARIF 2.1.0: one run, every rule in the driver, one result per finding.
    pub fn sarif(&self) -> String {
        let docs = RULES
            .iter()
            .map(|r| (r.id, r.name, r.what, r.why, r.explain(), r.severity))
            .chain(
                HOST_RULES
                    .iter()
                    .map(|r| (r.id, r.name, r.what, r.why, r.explain(), r.severity)),
            );
        let mut ids = Vec::new();
        let rules: Vec<_> = docs
            .map(|(id, name, what, why, explain, severity)| {
                ids.push(id);
                json!({
                    "id": id,
                    "name": name,
                    "shortDescription": { "text": what },
                    "fullDescription": { "text": format!("{what} {why}") },
                    "help": { "text": explain },
                    "defaultConfiguration": { "level": level(severity) },
                })
            })
            .collect();
        let results: Vec<_> = self
            .findings
            .iter()
            .map(|f| {
                let index = ids.iter().position(|id| *id == f.rule).unwrap_or(0);
                let mut text = format!("{}: {}", f.switch, f.message);
                if let Some(line) = &f.line {
                    let _ = write!(text, " (`{line}`)");
                }
                let mut result = json!({
                    "ruleId": f.rule,
                    "ruleIndex": index,
                    "level": level(f.severity),
                    "message": { "text": text },
                });
                if let Some(loc) = self.location(f) {
                    let mut physical = json!({ "artifactLocation": { "uri": uri(&loc.file) } });
                    if let Some(n) = loc.line {
                        physical["region"] = json!({ "startLine": n });
                    }
                    result["locations"] = json!([{ "physicalLocation": physical }]);
                }
                result
            })
            .collect();
        let mut value = json!({
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [{
                "tool": { "driver": {
                    "name": "fabric audit",
                    "rules": rules,
                }},
                "properties": { "profile": self.profile },
                "results": results,
            }],
        });
        // Keys sorted, as they print without `serde_json`'s `preserve_order` (the lab's).
        value.sort_all_objects();
        serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
    }

    /// JUnit XML: a test suite per switch, a test case per rule that applies; a finding
    /// fails its case (errors and warnings), info findings are kept as output.
    pub fn junit(&self) -> String {
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        // (id, name, severity) of the rules each kind of source is checked against.
        let switch_rules: Vec<_> = RULES
            .iter()
            .filter(|r| r.applies_to(self.profile))
            .map(|r| (r.id, r.name, r.severity))
            .collect();
        let host_rules: Vec<_> = HOST_RULES
            .iter()
            .map(|r| (r.id, r.name, r.severity))
            .collect();
        let applicable = |name: &str| {
            if self.switches.get(name).is_some_and(|s| s.kind.is_host()) {
                &host_rules
            } else {
                &switch_rules
            }
        };
        let failed: usize = self
            .findings
            .iter()
            .filter(|f| f.severity != Severity::Info)
            .map(|f| (&f.switch, f.rule))
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let _ = writeln!(
            out,
            "<testsuites name=\"fabric audit\" tests=\"{}\" failures=\"{failed}\">",
            self.switches
                .keys()
                .map(|n| applicable(n).len())
                .sum::<usize>()
        );
        for (name, mine) in self.by_switch() {
            let failures = mine
                .iter()
                .filter(|f| f.severity != Severity::Info)
                .map(|f| f.rule)
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            let _ = writeln!(
                out,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\">",
                xml(name),
                applicable(name).len()
            );
            for (id, rule_name, severity) in applicable(name) {
                let hits: Vec<&&Finding> = mine.iter().filter(|f| f.rule == *id).collect();
                let _ = write!(
                    out,
                    "    <testcase classname=\"{}\" name=\"{id} {rule_name}\"",
                    xml(name),
                );
                if hits.is_empty() {
                    out.push_str("/>\n");
                    continue;
                }
                out.push_str(">\n");
                let body: String = hits
                    .iter()
                    .map(|f| match &f.line {
                        Some(l) => format!("{}\n    {l}\n", f.message),
                        None => format!("{}\n", f.message),
                    })
                    .collect();
                if *severity == Severity::Info {
                    let _ = writeln!(out, "      <system-out>{}</system-out>", xml(&body));
                } else {
                    let _ = writeln!(
                        out,
                        "      <failure type=\"{}\" message=\"{}\">{}</failure>",
                        severity,
                        xml(&hits[0].message),
                        xml(&body)
                    );
                }
                out.push_str("    </testcase>\n");
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}

/// A finding's line of a text report, after its switch's name when it is that switch's first.
pub(crate) fn write_finding<'a>(out: &mut String, current: &mut &'a str, f: &'a Finding) {
    if f.switch != *current {
        *current = &f.switch;
        let _ = write!(out, "\n{current}\n");
    }
    let _ = writeln!(
        out,
        "  {} {} ({}): {}",
        f.severity, f.rule, f.name, f.message
    );
}

/// The width of a table's column of switch names: the longest, at least `switch`'s.
pub(crate) fn name_width<'a>(names: impl Iterator<Item = &'a String>) -> usize {
    names.map(String::len).max().unwrap_or(6).max(6)
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A relative path as a URI reference (forward slashes, spaces and `%` escaped).
fn uri(path: &str) -> String {
    path.replace('\\', "/")
        .replace('%', "%25")
        .replace(' ', "%20")
}

pub(crate) fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// The first interface of a finding (`ethernet 1/1-1/8` → ethernet 1/1).
fn first_iface(f: &Finding) -> Option<(String, Option<Port>)> {
    let text = f.interfaces.as_deref()?;
    let (kind, id) = text.split_once(' ')?;
    if kind == "ethernet" {
        let ((first, _), _) = read_port_span(id.as_bytes())?;
        return Some((kind.to_string(), Some(first)));
    }
    let first = id.split('-').next()?;
    Some((format!("{kind} {first}"), None))
}

/// Whether `line` (an `interface …` line) covers the interface.
fn covers(line: &str, iface: &(String, Option<Port>)) -> bool {
    match iface {
        (_, Some(port)) => line
            .strip_prefix("interface ethernet ")
            .and_then(|rest| read_port_span(rest.as_bytes()))
            .is_some_and(|((a, b), _)| span_contains(a, b, *port)),
        (named, None) => line.strip_prefix("interface ").is_some_and(|rest| {
            rest.starts_with(named.as_str()) && rest[named.len()..].starts_with(' ')
        }),
    }
}

/// Whether the Onyx range `a`-`b` holds port `p`.
fn span_contains(a: Port, b: Port, p: Port) -> bool {
    crate::types::IfaceRange {
        first: Iface::Ethernet(a),
        last: Iface::Ethernet(b),
    }
    .members()
    .any(|m| m == Iface::Ethernet(p))
}

/// The line of a running config a finding is about: the offending line itself, else the
/// first line configuring its interface, else the first line of the same command family.
fn locate_running(text: &str, f: &Finding) -> Option<usize> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let at = |pred: &dyn Fn(&str) -> bool| lines.iter().position(|l| pred(l)).map(|i| i + 1);
    if let Some(line) = &f.line
        && let Some(n) = at(&|l| l == line)
    {
        return Some(n);
    }
    if let Some(iface) = first_iface(f) {
        let word = f.line.as_deref().and_then(|l| l.split_whitespace().nth(3));
        if let Some(word) = word
            && let Some(n) = at(&|l| covers(l, &iface) && l.split_whitespace().any(|w| w == word))
        {
            return Some(n);
        }
        return at(&|l| covers(l, &iface));
    }
    let line = f.line.as_deref()?;
    let family: Vec<&str> = line.split_whitespace().take(2).collect();
    at(&|l| l.split_whitespace().take(2).eq(family.iter().copied()))
}

/// The rule docs as Markdown, for `docs/audit.md` (a test keeps it in step).
pub fn rules_markdown() -> String {
    let mut out = String::new();
    for r in RULES {
        let applies = match r.applies {
            super::Applies::Both => "both profiles".to_string(),
            super::Applies::Only(p) => format!("`{p}` only"),
        };
        let os = r
            .only()
            .map_or(String::new(), |os| format!(", {os} switches only"));
        let _ = write!(
            out,
            "### {} `{}` ({}, {applies}{os})\n\n- **What it checks:** {}\n- **Why it matters:** {}\n- **How to fix:** {}\n\n",
            r.id, r.name, r.severity, r.what, r.why, r.fix
        );
    }
    out
}
