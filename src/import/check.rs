//! Whether an imported fabric reproduces the configs it came from, checked as a user would:
//! it validates, each Onyx switch's compiled config plans empty against its source and prints
//! every line of it but those holding a secret (left on the switch), each OS10 switch's plans
//! empty against its source.

use std::collections::BTreeMap;

use super::{Source, os10};
use crate::diag::{Diagnostic, Sources};
use crate::onyx::{self, Config};

/// What an imported fabric does not carry of the configs it came from.
pub struct Unfaithful {
    /// The fabric's text as a diagnostics source, and what validation refuses in it (a value
    /// the format does not take: a 1M-character description, ECN minimum above maximum).
    pub sources: Sources,
    pub errors: Vec<Diagnostic>,
    /// The switches whose compiled config differs from their source.
    pub switches: Vec<Lost>,
}

/// One switch the fabric does not reproduce.
pub struct Lost {
    pub name: String,
    /// Where its config came from.
    pub origin: String,
    /// What pushing the fabric would change on the switch.
    pub plan: Vec<String>,
    /// Lines of the source the compiled config does not print.
    pub lost: Vec<String>,
    /// Lines the compiled config prints that the source does not (beyond the factory's).
    pub added: Vec<String>,
}

/// Checks an imported fabric against its sources, as a user would: it validates, and each
/// switch's compiled config has an empty plan against its source and prints every line of
/// it (lines the model does not know may move to the end of their section). `name` names the
/// fabric in diagnostics.
pub fn check(
    name: &str,
    yaml: &str,
    sources: &BTreeMap<String, Source>,
) -> Result<(), Box<Unfaithful>> {
    check_all(name, yaml, sources, &BTreeMap::new())
}

/// [`check`] of a fabric imported from Onyx and OS10 switches: an OS10 switch's compiled
/// config plans empty against its source.
pub fn check_all(
    name: &str,
    yaml: &str,
    sources: &BTreeMap<String, Source>,
    os10: &BTreeMap<String, os10::Source>,
) -> Result<(), Box<Unfaithful>> {
    let mut diag_sources = Sources::default();
    let unfaithful = |errors: Vec<Diagnostic>, switches: Vec<Lost>, diag_sources| {
        Err(Box::new(Unfaithful {
            sources: diag_sources,
            errors,
            switches,
        }))
    };
    let loaded = match crate::fabric::parse_bytes(name, yaml.as_bytes().to_vec(), &mut diag_sources)
    {
        Ok(l) => l,
        Err(d) => return unfaithful(vec![d], Vec::new(), diag_sources),
    };
    let (fabric, diags) = crate::fabric::validate(&loaded.raw, loaded.file);
    let errors: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| d.is_error())
        .map(|d| from_source(d, yaml, sources, os10))
        .collect();
    let Some(fabric) = fabric.filter(|_| errors.is_empty()) else {
        return unfaithful(errors, Vec::new(), diag_sources);
    };
    let renderer = onyx::Renderer::embedded().ok();
    let lines = |c: &Config| -> Vec<String> {
        let mut v: Vec<String> = renderer
            .as_ref()
            .and_then(|r| r.render(c).ok())
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.starts_with("##") && !l.trim().is_empty())
            .map(str::to_string)
            .collect();
        v.sort();
        v
    };
    let mut switches = Vec::new();
    for (name, source) in sources {
        let Some(sw) = fabric.switches.get(name.as_str()) else {
            continue;
        };
        let running = &source.config;
        let intended = crate::onyx::compile::compile_switch(sw);
        let target = crate::onyx::plan::target(
            running,
            &intended,
            &crate::onyx::plan::Scope::fabric(sw, false),
        );
        let plan: Vec<String> = crate::onyx::plan::plan(running, &target)
            .iter()
            .map(|s| s.command.to_string())
            .collect();
        // Quotes around descriptions are how a release prints them, not what they hold.
        let mut compiled = lines(&Config {
            quoted: running.quoted,
            ..intended.clone()
        });
        let mut lost = Vec::new();
        for line in lines(running) {
            match compiled.iter().position(|l| *l == line) {
                Some(i) => {
                    compiled.remove(i);
                }
                // Import leaves a line with a secret to the switch (`secret_lines`); the plan
                // above shows it stays.
                None if crate::secrets::in_command(&line) => {}
                None => lost.push(line),
            }
        }
        let factory = lines(&Config::factory(name, None, None));
        compiled.retain(|l| !factory.contains(l));
        if !plan.is_empty() || !lost.is_empty() || !compiled.is_empty() {
            switches.push(Lost {
                name: name.clone(),
                origin: source.origin.clone(),
                plan,
                lost,
                added: compiled,
            });
        }
    }
    switches.extend(os10::lost(&fabric, os10));
    if switches.is_empty() {
        Ok(())
    } else {
        unfaithful(Vec::new(), switches, diag_sources)
    }
}

/// An error in the imported fabric, with the switch it is under and the config that switch
/// came from (a second label, on the switch's key).
fn from_source(
    d: Diagnostic,
    yaml: &str,
    sources: &BTreeMap<String, Source>,
    os10: &BTreeMap<String, os10::Source>,
) -> Diagnostic {
    let Some(at) = d.primary.as_ref().map(|l| l.span) else {
        return d;
    };
    // The switch whose block holds the error: the last `  NAME:` line of `switches:` before it.
    let Some(switches) = yaml.find("\nswitches:\n") else {
        return d;
    };
    let mut found: Option<(usize, &str)> = None;
    let mut offset = 0;
    for line in yaml.split_inclusive('\n') {
        if offset > at.start {
            break;
        }
        if offset > switches
            && let Some(key) = line.strip_prefix("  ")
            && !key.starts_with([' ', '#'])
            && let Some(name) = key.trim_end().strip_suffix(':')
        {
            found = Some((offset + 2, name));
        }
        if offset > switches && !line.starts_with(' ') && !line.starts_with("switches:") {
            found = None;
        }
        offset += line.len();
    }
    // A key is written quoted, with escapes, when its name needs it: read back as YAML.
    let origin = |written: &str| {
        let name = serde_saphyr::from_str::<String>(written).ok()?;
        sources
            .get(&name)
            .map(|s| &s.origin)
            .or_else(|| os10.get(&name).map(|s| &s.origin))
    };
    match found.and_then(|(start, name)| Some((start, name, origin(name)?))) {
        Some((start, name, origin)) => d.also(
            crate::diag::Span {
                file: at.file,
                start,
                end: start + name.len(),
            },
            format!("imported from `{origin}`"),
        ),
        None => d,
    }
}
