//! `fabric audit`: RoCE best practice on running configs (files or folders of backups);
//! `fabric explain RULE`: a rule's doc.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::ValueEnum;

use crate::audit::{self, Finding, Severity};
use crate::error::{Failure, exit};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Running configs: files, or folders of `<switch>.cfg` (backups).
    #[arg(long, value_name = "PATH", required = true)]
    running: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The lowest severity that makes the exit code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Never,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let mut files = Vec::new();
    for path in &args.running {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| Failure(format!("cannot read `{}`: {e}", path.display())))?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "cfg"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    let mut configs = BTreeMap::new();
    for file in &files {
        let Ok(config) = super::read_config(file, color)? else {
            return Ok(exit::FAILURE);
        };
        let name = config
            .hostname
            .clone()
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| {
                file.file_stem()
                    .map_or("switch".into(), |s| s.to_string_lossy().into_owned())
            });
        configs.insert(name, config);
    }
    let findings = audit::audit(&configs);
    match args.format {
        Format::Json => println!(
            "{}",
            serde_json::to_string_pretty(&findings).map_err(|e| Failure(e.to_string()))?
        ),
        Format::Text => print!("{}", text(&configs, &findings)),
    }
    let worst = findings.iter().map(|f| f.severity).min();
    let fails = match (args.fail_on, worst) {
        (FailOn::Never, _) | (_, None) => false,
        (FailOn::Warning, Some(_)) => true,
        (FailOn::Error, Some(s)) => s == Severity::Error,
    };
    Ok(if fails { exit::FINDINGS } else { exit::OK })
}

/// A line per switch with its counts, then the findings with the line at fault.
fn text(configs: &BTreeMap<String, crate::onyx::Config>, findings: &[Finding]) -> String {
    let mut out = String::new();
    let width = configs.keys().map(String::len).max().unwrap_or(6).max(6);
    out.push_str(&format!("{:width$}  errors  warnings\n", "switch"));
    for name in configs.keys() {
        let count = |s: Severity| {
            findings
                .iter()
                .filter(|f| f.switch == *name && f.severity == s)
                .count()
        };
        out.push_str(&format!(
            "{name:width$}  {:>6}  {:>8}\n",
            count(Severity::Error),
            count(Severity::Warning)
        ));
    }
    for f in findings {
        out.push_str(&format!(
            "\n{}: {} {} ({}): {}\n",
            f.switch,
            f.severity,
            f.rule,
            audit::rule(f.rule).map_or("", |r| r.name),
            f.message
        ));
        if let Some(line) = &f.line {
            out.push_str(&format!("    {line}\n"));
        }
    }
    if !findings.is_empty() {
        out.push_str("\n`fabric explain RULE` says what a rule checks, why, and how to fix it.\n");
    }
    out
}

/// `fabric explain RULE`.
pub fn explain(id: &str) -> Result<u8, Failure> {
    match audit::rule(id) {
        Some(rule) => {
            print!("{}", rule.explain());
            Ok(exit::OK)
        }
        None => {
            let ids: Vec<&str> = audit::RULES.iter().map(|r| r.id).collect();
            Err(Failure(format!(
                "no rule `{id}` (rules: {})",
                ids.join(", ")
            )))
        }
    }
}
