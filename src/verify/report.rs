//! A verification's result as text (a table of switches, then each switch's findings, the
//! replies that could not be read and what could not be checked), JSON (stable: fields are
//! only ever added) or JUnit XML (a test suite per switch, a test case per check, an error
//! per reply not read).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::json;

use super::{Family, RULES};
use crate::audit::report::{name_width, write_finding, xml};
use crate::audit::{Finding, Severity};
use crate::types::Port;

/// A reply that could not be read: no verdict on what it shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unread {
    pub switch: String,
    /// The command sent; `(connection)` when the switch could not be reached.
    pub command: String,
    pub problem: String,
    /// The port a per-port command asked about: the text report says once what failed the
    /// same way on many ports.
    #[serde(skip)]
    pub port: Option<Port>,
}

impl Unread {
    /// The command with its port as `X`.
    fn shape(&self) -> String {
        match self.port {
            Some(p) => self.command.replacen(&p.to_string(), "X", 1),
            None => self.command.clone(),
        }
    }
}

/// Something of a switch that is not checked, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unchecked {
    pub switch: String,
    pub what: String,
}

/// A verification, ready to print.
pub struct Report<'a> {
    /// The verified switches, in name order.
    pub switches: &'a [String],
    pub families: &'a BTreeSet<Family>,
    pub findings: &'a [Finding],
    pub unread: &'a [Unread],
    pub unchecked: &'a [Unchecked],
    /// The counters' rates between the last two readings (`--counters`).
    pub rates: &'a [super::counters::Rate],
}

#[derive(Serialize)]
struct Summary<'a> {
    name: &'a str,
    errors: usize,
    warnings: usize,
    unread: usize,
}

impl Report<'_> {
    fn summaries(&self) -> Vec<Summary<'_>> {
        self.switches
            .iter()
            .map(|name| {
                let count = |s| {
                    self.findings
                        .iter()
                        .filter(|f| f.switch == *name && f.severity == s)
                        .count()
                };
                Summary {
                    name,
                    errors: count(Severity::Error),
                    warnings: count(Severity::Warning),
                    unread: self.unread.iter().filter(|u| u.switch == *name).count(),
                }
            })
            .collect()
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        let width = name_width(self.switches.iter());
        let _ = writeln!(out, "{:width$}  errors  warnings  unread", "switch");
        for s in self.summaries() {
            let _ = writeln!(
                out,
                "{:width$}  {:>6}  {:>8}  {:>6}",
                s.name, s.errors, s.warnings, s.unread
            );
        }
        let mut current = "";
        for f in self.findings {
            write_finding(&mut out, &mut current, f);
        }
        if !self.unread.is_empty() {
            out.push_str("\nnot read (nothing is concluded from these replies):\n");
            // A command that failed alike on consecutive ports of a switch, once.
            let mut runs: Vec<(&Unread, &Unread, usize)> = Vec::new();
            for u in self.unread {
                if let Some((first, last, n)) = runs.last_mut()
                    && (&first.switch, &first.problem) == (&u.switch, &u.problem)
                    && u.port.is_some()
                    && first.shape() == u.shape()
                {
                    *last = u;
                    *n += 1;
                    continue;
                }
                runs.push((u, u, 1));
            }
            for (first, last, n) in runs {
                let (command, ports) = match (n, first.port, last.port) {
                    (2.., Some(a), Some(b)) => {
                        (first.shape(), format!(" on ports {a} to {b} ({n})"))
                    }
                    _ => (first.command.clone(), String::new()),
                };
                let _ = writeln!(
                    out,
                    "  {}: `{command}`{ports}: {}",
                    first.switch, first.problem
                );
            }
        }
        if !self.unchecked.is_empty() {
            out.push_str("\nnot checked:\n");
            // The same reason on many switches (an OS's counters it does not read), once.
            let mut by_what: Vec<(&str, Vec<&str>)> = Vec::new();
            for u in self.unchecked {
                match by_what.iter_mut().find(|(w, _)| *w == u.what) {
                    Some((_, switches)) => switches.push(&u.switch),
                    None => by_what.push((&u.what, vec![&u.switch])),
                }
            }
            for (what, switches) in by_what {
                let who = match switches.as_slice() {
                    [one] => (*one).to_string(),
                    [a, b] => format!("{a}, {b}"),
                    [a, b, rest @ ..] => format!("{a}, {b} and {} more", rest.len()),
                    [] => String::new(),
                };
                let _ = writeln!(out, "  {who}: {what}");
            }
        }
        if self.families.contains(&Family::Counters) {
            let ports: BTreeSet<(&str, Port)> = self
                .rates
                .iter()
                .map(|r| (r.switch.as_str(), r.port))
                .collect();
            let secs = self.rates.iter().map(|r| r.seconds).fold(0.0, f64::max);
            let _ = write!(
                out,
                "\ncounters: {} reading(s) of {} port(s), read twice up to {secs:.1} s apart (`--format json` has each reading's command and line)\n",
                self.rates.len(),
                ports.len()
            );
        }
        let checks: Vec<String> = self.families.iter().map(ToString::to_string).collect();
        let _ = write!(
            out,
            "\n{} switch(es) verified ({}): {} finding(s), {} reply(ies) not read\n",
            self.switches.len(),
            checks.join(", "),
            self.findings.len(),
            self.unread.len()
        );
        if let Some(f) = self.findings.first() {
            let _ = writeln!(
                out,
                "`fabric explain {}` says what a check reads, why it matters and how to fix it.",
                f.rule
            );
        }
        out
    }

    /// `{checks, switches: [{name, errors, warnings, unread}], findings, unread, unchecked}`,
    /// and with the counters `counters`: each counter's two readings (`{switch, port,
    /// counter, class, delta, per_second, seconds, first, second}`, each reading `{value,
    /// command, line}`).
    pub fn json(&self) -> String {
        let mut value = json!({
            "checks": self.families,
            "switches": self.summaries(),
            "findings": self.findings,
            "unread": self.unread,
            "unchecked": self.unchecked,
        });
        if self.families.contains(&Family::Counters) {
            let rates: Vec<_> = self.rates.iter().map(|r| r.json()).collect();
            value["counters"] = json!(rates);
        }
        serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
    }

    /// The counters' readings in Prometheus' text exposition format, with the findings per
    /// switch and check.
    pub fn prometheus(&self) -> String {
        super::counters::prometheus(self.rates, self.findings)
    }

    /// `--watch`'s table: each port's pauses, ECN marks, drops and errors per second over
    /// the last interval, worst first (most pauses, then drops, errors, marks), at most
    /// `rows` of them; then the findings.
    pub fn table(&self, rows: usize) -> String {
        super::counters::table(self.rates, self.findings, rows)
    }

    /// A test suite per switch: a test case per check of the families verified (failed by
    /// its findings), and one per reply not read (an error).
    pub fn junit(&self) -> String {
        let rules: Vec<_> = RULES
            .iter()
            .filter(|r| self.families.contains(&r.family))
            .collect();
        let failed = |name: &str| {
            self.findings
                .iter()
                .filter(|f| f.switch == name)
                .map(|f| f.rule)
                .collect::<BTreeSet<_>>()
                .len()
        };
        let unread = |name: &str| self.unread.iter().filter(|u| u.switch == name).count();
        let total: usize = self.switches.iter().map(|s| rules.len() + unread(s)).sum();
        let failures: usize = self.switches.iter().map(|s| failed(s)).sum();
        let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        let _ = writeln!(
            out,
            "<testsuites name=\"fabric verify\" tests=\"{total}\" failures=\"{failures}\" errors=\"{}\">",
            self.unread.len()
        );
        for name in self.switches {
            let _ = writeln!(
                out,
                "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\">",
                xml(name),
                rules.len() + unread(name),
                failed(name),
                unread(name)
            );
            for r in &rules {
                let hits: Vec<&Finding> = self
                    .findings
                    .iter()
                    .filter(|f| f.switch == *name && f.rule == r.id)
                    .collect();
                let _ = write!(
                    out,
                    "    <testcase classname=\"{}\" name=\"{} {}\"",
                    xml(name),
                    r.id,
                    r.name
                );
                let Some(first) = hits.first() else {
                    out.push_str("/>\n");
                    continue;
                };
                let body: String = hits.iter().map(|f| format!("{}\n", f.message)).collect();
                let _ = writeln!(
                    out,
                    ">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
                    r.severity,
                    xml(&first.message),
                    xml(&body)
                );
            }
            for u in self.unread.iter().filter(|u| u.switch == *name) {
                let _ = writeln!(
                    out,
                    "    <testcase classname=\"{}\" name=\"read `{}`\">\n      <error message=\"{}\"/>\n    </testcase>",
                    xml(name),
                    xml(&u.command),
                    xml(&u.problem)
                );
            }
            out.push_str("  </testsuite>\n");
        }
        out.push_str("</testsuites>\n");
        out
    }
}
