//! Whether an imported fabric reproduces the configs it came from, checked as a user would:
//! it validates, and each switch's compiled config matches the config it came from, as its OS
//! checks it ([`crate::targets::Import::lost`]: a plan empty against it, every line of it
//! printed but those the import leaves on the switch).

use std::collections::BTreeMap;

use super::Source;
use crate::diag::{Diagnostic, Sources};

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
/// switch's compiled config reproduces its source (as the switch's OS checks it). `name`
/// names the fabric in diagnostics.
pub fn check(
    name: &str,
    yaml: &str,
    sources: &BTreeMap<String, Source>,
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
        .map(|d| from_source(d, yaml, sources))
        .collect();
    let Some(fabric) = fabric.filter(|_| errors.is_empty()) else {
        return unfaithful(errors, Vec::new(), diag_sources);
    };
    let switches = lost(&fabric, sources);
    if switches.is_empty() {
        Ok(())
    } else {
        unfaithful(Vec::new(), switches, diag_sources)
    }
}

/// The switches the fabric does not reproduce, by OS in the registry's order, each OS's by
/// name.
fn lost(fabric: &crate::fabric::Fabric, sources: &BTreeMap<String, Source>) -> Vec<Lost> {
    let mut out = Vec::new();
    for os in crate::targets::BUILT_IN {
        for (name, source) in sources {
            if source.config.target().os() != os.os() {
                continue;
            }
            let sw = fabric.switches.get(name.as_str());
            out.extend(os.import().lost(sw, name, source));
        }
    }
    out
}

/// An error in the imported fabric, with the switch it is under and the config that switch
/// came from (a second label, on the switch's key).
fn from_source(d: Diagnostic, yaml: &str, sources: &BTreeMap<String, Source>) -> Diagnostic {
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
        sources.get(&name).map(|s| &s.origin)
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
