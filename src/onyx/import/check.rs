//! Whether the fabric reproduces an Onyx switch it was imported from: its compiled config
//! plans empty against the source and prints every line of it but those holding a secret
//! (left on the switch), and nothing beyond the factory's lines.

use crate::fabric::Switch;
use crate::import::{Lost, Source};
use crate::onyx::Config;
use crate::onyx::plan::{Scope, plan, target};

/// What the fabric's switch does not carry of its source; `None` when it carries all (or
/// the fabric has no such switch).
pub(super) fn lost(sw: Option<&Switch>, name: &str, source: &Source) -> Option<Lost> {
    let sw = sw?;
    let running = match source.typed::<crate::onyx::Config>() {
        Ok(c) => c,
        Err(e) => {
            return Some(Lost {
                name: name.to_string(),
                origin: source.origin.clone(),
                plan: vec![e],
                lost: Vec::new(),
                added: Vec::new(),
            });
        }
    };
    let intended = crate::onyx::compile::compile_switch(sw);
    let target = target(running, &intended, &Scope::fabric(sw, false));
    let plan: Vec<String> = plan(running, &target)
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
    (!plan.is_empty() || !lost.is_empty() || !compiled.is_empty()).then(|| Lost {
        name: name.to_string(),
        origin: source.origin.clone(),
        plan,
        lost,
        added: compiled,
    })
}

/// The config's printed lines, sorted, without the header and blank lines.
fn lines(c: &Config) -> Vec<String> {
    let mut v: Vec<String> = crate::onyx::target::renderer()
        .ok()
        .and_then(|r| r.render(c).ok())
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with("##") && !l.trim().is_empty())
        .map(str::to_string)
        .collect();
    v.sort();
    v
}
