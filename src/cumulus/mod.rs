//! NVIDIA Cumulus Linux 5.x on Spectrum switches, configured through NVUE: the OS of NVIDIA's
//! current Spectrum switches (Onyx is the generation before). Facts and their confidence are
//! in `../shared/reference/cumulus-nvue.md`; real output in `../shared/corpus/nvue/`.
//!
//! The configuration is NVUE's object tree (`tree`), kept whole: what `nv config show -o
//! yaml` prints, every object whether modeled here or not; the golden is that YAML (the
//! `startup.yaml` form) with the `nv set` commands of it after, for review. `compile` writes
//! the fabric's switch as a tree; `plan` compares two trees into `nv set` / `nv unset`
//! commands with their impact; `models` and `rules` are what the validation asks;
//! `target` is the OS behind [`crate::targets::SwitchOs`].

pub mod audit;
pub mod compile;
pub mod dialect;
pub mod fast;
pub mod import;
pub mod lab;
pub mod models;
pub mod plan;
pub mod push;
pub mod rules;
pub mod target;
pub mod tree;
pub mod verify;
pub mod words;

use crate::config_error::{ParseError, Problem};
pub use tree::{Document, Node, Tree};

/// A Cumulus switch's configuration: NVUE's tree as `nv config show` prints it (the header
/// when the text had one).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Config {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<Tree>,
    pub set: Tree,
}

/// The line before the review block of `nv set` commands in a rendered configuration.
pub const COMMANDS_MARK: &str = "# nv config show -o commands:";

impl Config {
    pub fn new(set: Tree) -> Config {
        Config { header: None, set }
    }

    /// `system hostname`.
    pub fn hostname(&self) -> Option<&str> {
        tree::value(&self.set, &["system", "hostname"])
    }

    /// The YAML form (`nv config show -o yaml`; without a header, `startup.yaml`), then the
    /// same tree as `nv set` commands, each a comment line, for review.
    pub fn text(&self) -> String {
        let mut out = tree::render_yaml(self.header.as_ref(), &self.set);
        out.push_str(COMMANDS_MARK);
        out.push('\n');
        tree::write_commands(&mut out, &self.set, "# ");
        out
    }

    /// Reads a configuration: `nv config show -o yaml` or `startup.yaml` (a review block of
    /// `# nv set` comments after it must say the same), or `nv config show -o commands` (a
    /// file of `nv set` lines).
    pub fn parse(text: &str) -> Result<Config, ParseError> {
        if let Some((i, line)) = text
            .lines()
            .enumerate()
            .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        {
            if prompt_line(line) {
                return Err(ParseError {
                    problem: Problem::Prompt,
                    line: i + 1,
                    column: 1,
                    text: line.to_string(),
                    expected: "the configuration without the session's prompt and command".into(),
                });
            }
            if line.trim_start().starts_with("nv ") {
                let mut set = Tree::new();
                tree::apply(&mut set, &tree::parse_commands(text)?);
                return Ok(Config::new(set));
            }
        }
        let doc = tree::parse_yaml(text)?;
        let config = Config {
            header: doc.header,
            set: doc.set,
        };
        config.check_review(text)?;
        Ok(config)
    }

    /// The review block, when the text has one, says what the YAML says.
    fn check_review(&self, text: &str) -> Result<(), ParseError> {
        let Some((at, _)) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.trim() == COMMANDS_MARK)
        else {
            return Ok(());
        };
        // The block as this crate writes it: the same text, nothing to read.
        let start = text
            .match_indices(COMMANDS_MARK)
            .next()
            .map_or(text.len(), |(i, _)| i + COMMANDS_MARK.len());
        let written = text[start..].trim_start_matches(['\r', '\n']);
        let mut ours = String::with_capacity(written.len());
        tree::write_commands(&mut ours, &self.set, "# ");
        if written == ours {
            return Ok(());
        }
        let block: String = text
            .lines()
            .skip(at + 1)
            .map(|l| l.strip_prefix("# ").unwrap_or(l).to_string() + "\n")
            .collect();
        let mut set = Tree::new();
        let commands = tree::parse_commands(&block).map_err(|mut e| {
            e.line += at + 1;
            e
        })?;
        tree::apply(&mut set, &commands);
        match set == self.set {
            true => Ok(()),
            false => Err(ParseError {
                problem: Problem::Malformed,
                line: at + 1,
                column: 1,
                text: COMMANDS_MARK.to_string(),
                expected: "`nv set` review lines that say what the YAML above says (render the file again)".into(),
            }),
        }
    }
}

/// `cumulus@leaf01:mgmt:~$ …`, `root@spine1:~# …`: a shell prompt with a command after it.
fn prompt_line(line: &str) -> bool {
    let Some((user_host, rest)) = line.split_once(':') else {
        return false;
    };
    let word = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    };
    let Some((user, host)) = user_host.split_once('@') else {
        return false;
    };
    word(user) && word(host) && (rest.contains("~$") || rest.contains("~#"))
}

/// A Cumulus Linux release as compile reads it: the fabric's, else the newest this crate
/// knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Release(pub (u8, u8, u8));

/// The release compiled for when the fabric gives none.
pub const NEWEST: (u8, u8, u8) = (5, 15, 0);

impl Release {
    pub fn of(text: Option<&str>) -> Release {
        Release(text.and_then(rules::release).unwrap_or(NEWEST))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_are_not_configuration() {
        assert!(prompt_line(
            "cumulus@leaf01:mgmt:~$ sudo cat /etc/nvue.d/startup.yaml"
        ));
        assert!(prompt_line("root@spine1-nyc2:~# nv config show"));
        assert!(!prompt_line("    mac-address: 44:38:39:BE:EF:AA"));
        assert!(!prompt_line("- set:"));
    }
}
