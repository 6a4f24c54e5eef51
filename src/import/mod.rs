//! Switches that already exist → a fabric file. Input: running configs by switch, of any OS;
//! output: the fabric document (`doc`), serialized as YAML with comments. Idiomatic rather
//! than a dump: settings every port of every switch shares become `port_defaults`, settings
//! common to every switch become fabric-wide keys, consecutive ports with equal settings
//! become one range, a set of settings used by several ranges becomes a profile
//! (`entries`), the cables between imported switches, whichever OS each runs, become
//! `links` ([`links`]). Each OS reads its switches into the document
//! ([`crate::targets::Import`]); what its format cannot say is left on the switch and listed
//! in the comment above it, or checked afterwards ([`check`]), so nothing is lost. Nothing
//! here reads files or prints, or knows an OS.

use std::collections::BTreeMap;

use serde_saphyr::Commented;

use crate::fabric::Hardware;
use crate::targets::{self, Read};

mod check;
pub(crate) mod doc;
pub(crate) mod entries;
pub mod links;
mod peers;
pub(crate) mod ports;
mod yaml;

pub use check::{Lost, Unfaithful, check};
pub use doc::Doc;
use doc::SwitchDoc;

/// One switch to import.
pub struct Source {
    /// Where it came from, for the comment above the switch (`backups/leaf01.cfg`).
    pub origin: String,
    /// The text it was read from: what the fabric does not reproduce is located in it.
    pub text: crate::input::Text,
    /// Its running configuration, of the OS its text is.
    pub config: Box<dyn targets::Config>,
    /// The model, when the user says it (`--model`); else guessed from the ports.
    pub model: Option<Hardware>,
}

impl Source {
    /// The configuration in its OS's type, for that OS's import.
    pub(crate) fn typed<C: targets::Config>(&self) -> Result<&C, String> {
        self.config.as_any().downcast_ref::<C>().ok_or_else(|| {
            let is = self.config.target().a_running_config();
            format!("{}: {is}, read as another OS's", self.origin)
        })
    }
}

/// A source with its configuration in its OS's type: its name, the source, the configuration.
pub(crate) type Typed<'a, C> = (&'a str, &'a Source, &'a C);

/// Each source with its configuration in its OS's type `C` (each source is of that OS), by
/// name.
pub(crate) fn typed<'a, C: targets::Config>(
    sources: targets::Sources<'a>,
) -> Result<Vec<Typed<'a, C>>, String> {
    sources
        .into_iter()
        .map(|(name, s)| Ok((name, s, s.typed::<C>()?)))
        .collect()
}

impl Doc {
    /// A switch under its name, below the comment that says where it came from.
    pub(crate) fn add_switch(&mut self, name: &str, source: &Source, model: &str, sw: SwitchDoc) {
        let comment = from_comment(&source.origin, source.model.is_none(), model);
        self.switches
            .insert(name.to_string(), Commented(sw, comment));
    }
}

/// The fabric file for these switches, by name, as YAML.
pub fn import(sources: &BTreeMap<String, Source>) -> Result<String, String> {
    let mut reads = read(sources)?;
    // Cables are found across the OSes: a spine's uplink to a leaf of another OS is a link.
    let ends: Vec<links::Switch> = reads.iter().flat_map(|r| r.cable_ends()).collect();
    let links = links::Links::find(&ends);
    let mut doc = Doc::default();
    let alone = reads.len() == 1;
    let mut kept = BTreeMap::new();
    for r in &mut reads {
        kept.extend(r.add(&mut doc, alone, &links));
    }
    // The cables' links first, then the pairs' own links the OSes wrote.
    let cables = links.docs(doc.routing.is_some());
    doc.links.splice(0..0, cables);
    kept.extend(secret_lines(&mut doc));
    write(&doc, &kept)
}

/// Each OS's switches read by their OS, in the registry's order.
fn read(sources: &BTreeMap<String, Source>) -> Result<Vec<Box<dyn Read<'_> + '_>>, String> {
    let mut out = Vec::new();
    for os in targets::BUILT_IN {
        let mine: targets::Sources = sources
            .iter()
            .filter(|(_, s)| s.config.target().os() == os.os())
            .map(|(name, s)| (name.as_str(), s))
            .collect();
        if !mine.is_empty() {
            out.push(os.import().read(mine)?);
        }
    }
    Ok(out)
}

/// The document as YAML, below each switch's `# from` comment the lines the fabric leaves
/// as they are (lines the OS's model keeps verbatim, lines that hold a secret); checked to
/// read the same in every YAML reader.
fn write(doc: &Doc, kept: &BTreeMap<String, Vec<String>>) -> Result<String, String> {
    let mut text = String::from(
        "# Imported by `fabric import` from the running configs named above each switch.\n# `fabric validate` checks it; each switch's compiled config plans empty against the\n# config it came from (no drift).\n\n",
    );
    let yaml = serde_saphyr::to_string_with_options(
        doc,
        serde_saphyr::ser_options! { comment_position: serde_saphyr::CommentPosition::Above },
    )
    .map_err(|e| e.to_string())?;
    let mut switch: Option<&str> = None;
    for line in yaml.lines() {
        text.push_str(line);
        text.push('\n');
        if let Some(name) = line.strip_prefix("  ").and_then(|n| n.strip_suffix(':')) {
            switch = Some(name);
        } else if line.starts_with("    # from ")
            && let Some(kept) = switch.and_then(|n| kept.get(n)).filter(|k| !k.is_empty())
        {
            text.push_str(&kept_comment(kept));
        }
    }
    yaml::check(&text)?;
    Ok(text)
}

/// Takes out of each switch's `extra` the lines that hold a secret (`snmp-server
/// community`, `radius-server key`, …), by switch: a config read from a file or a switch is
/// masked before import sees it, so such a line carries a mask, which a push would set as the
/// secret; and a fabric file is no place for a secret. Listed in the comment above the switch
/// instead, they stay as they are on the switch (a plan leaves lines it does not write).
fn secret_lines(doc: &mut Doc) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for (name, entry) in &mut doc.switches {
        let Commented(sw, _) = entry;
        let mut taken = Vec::new();
        for (_, lines) in &mut sw.extra.0 {
            lines.retain(|l| {
                let secret = crate::secrets::in_command(l);
                if secret {
                    taken.push(l.clone());
                }
                !secret
            });
        }
        sw.extra.0.retain(|(_, lines)| !lines.is_empty());
        if !taken.is_empty() {
            out.insert(name.clone(), taken);
        }
    }
    out
}

/// The comment above a switch: the config it came from, and its model when guessed.
fn from_comment(origin: &str, guessed: bool, model: &str) -> String {
    let origin = yaml::comment(origin);
    if guessed {
        format!("from {origin} (model guessed from its ports: {model})")
    } else {
        format!("from {origin}")
    }
}

/// The comment listing a switch's lines the model keeps verbatim: joined by `;` into lines of
/// about 150 characters, at most [`KEPT_LINES`] of them (a YAML reader buffers a bounded
/// number of comments), the rest counted.
fn kept_comment(kept: &[String]) -> String {
    let mut out = vec![format!(
        "not modeled, so left as they are on the switch (a push never touches them), {} line(s):",
        kept.len()
    )];
    let mut current = String::new();
    let mut listed = 0;
    for l in kept {
        if out.len() == KEPT_LINES {
            break;
        }
        if !current.is_empty() && current.len() + l.len() > 150 {
            out.push(std::mem::take(&mut current));
            if out.len() == KEPT_LINES {
                break;
            }
        }
        if !current.is_empty() {
            current.push_str("; ");
        }
        current.push_str(l);
        listed += 1;
    }
    if !current.is_empty() {
        out.push(current);
    }
    if listed < kept.len() {
        out.push(format!("… and {} more", kept.len() - listed));
    }
    out.iter()
        .map(|l| format!("    # {}\n", yaml::comment(l)))
        .collect()
}

/// The most comment lines [`kept_comment`] writes.
const KEPT_LINES: usize = 24;

/// All sources' values equal: that value.
pub(crate) fn common<T: PartialEq + Clone>(values: impl IntoIterator<Item = T>) -> Option<T> {
    let mut it = values.into_iter();
    let first = it.next()?;
    it.all(|v| v == first).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kept_lines_comment_is_bounded_and_counts_the_rest() {
        let kept: Vec<String> = (0..200)
            .map(|n| format!("snmp-server host 10.0.0.{n} traps version 2c public"))
            .collect();
        let comment = kept_comment(&kept);
        let lines: Vec<&str> = comment.lines().collect();
        assert!(lines.len() <= KEPT_LINES + 1, "{comment}");
        assert!(
            lines
                .iter()
                .all(|l| l.starts_with("    # ") && l.len() < 200)
        );
        let listed: usize = lines[1..lines.len() - 1]
            .iter()
            .map(|l| l.matches("snmp-server").count())
            .sum();
        let rest: usize = lines[lines.len() - 1]
            .trim_start_matches("    # … and ")
            .trim_end_matches(" more")
            .parse()
            .unwrap();
        assert_eq!(listed + rest, 200, "{comment}");
        assert!(lines[0].ends_with("200 line(s):"), "{comment}");
    }
}
