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
pub mod map;
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
        // The review block as this crate writes it, after a mark at the start of its line:
        // comment lines, nothing YAML reads, so the YAML above it is read alone and the block
        // compared with the commands of what it says. Any other text is read whole.
        if let Some(begin) = memchr::memmem::find(text.as_bytes(), COMMANDS_MARK.as_bytes())
            && text[..begin].ends_with('\n')
            && let Ok(doc) = tree::parse_yaml(&text[..begin])
        {
            let config = Config {
                header: doc.header,
                set: doc.set,
            };
            if config.review_written(&text[begin + COMMANDS_MARK.len()..]) {
                return Ok(config);
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

    /// Whether `block` (what follows the mark) is the review block as [`Config::text`]
    /// writes it for this configuration, byte for byte.
    fn review_written(&self, block: &str) -> bool {
        let mut same = tree::Same {
            rest: block.trim_start_matches(['\r', '\n']),
            same: true,
        };
        tree::write_commands(&mut same, &self.set, "# ");
        same.whole()
    }

    /// The review block, when the text has one, says what the YAML says.
    fn check_review(&self, text: &str) -> Result<(), ParseError> {
        let first = memchr::memmem::find(text.as_bytes(), COMMANDS_MARK.as_bytes());
        // The first mark is a line of its own (then the first such line), or the first line
        // that is the mark comes later.
        let at = match first.and_then(|i| whole_line(text, i)) {
            Some(begin) => Line::At(begin),
            None => match text
                .lines()
                .enumerate()
                .find(|(_, l)| l.trim() == COMMANDS_MARK)
            {
                Some((at, _)) => Line::Index(at),
                None => return Ok(()),
            },
        };
        // The block as this crate writes it: the same text, nothing to read.
        let start = first.map_or(text.len(), |i| i + COMMANDS_MARK.len());
        if self.review_written(&text[start..]) {
            return Ok(());
        }
        let at = match at {
            Line::At(begin) => text[..begin].matches('\n').count(),
            Line::Index(at) => at,
        };
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

/// A line of a text: where it begins, or its index.
enum Line {
    At(usize),
    Index(usize),
}

/// Where the line of `text` that the mark at byte `i` is in begins, when that line holds the
/// mark alone (spaces around it aside).
fn whole_line(text: &str, i: usize) -> Option<usize> {
    let begin = text[..i].rfind('\n').map_or(0, |n| n + 1);
    let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
    (text[begin..end].trim() == COMMANDS_MARK).then_some(begin)
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
