//! What a CLI session needs to know of a switch OS, as one value per OS: how its prompt reads
//! (the end of every reply), its pager, how paging is turned off, how configuration mode is
//! entered and left, how the running configuration is read and saved, what an error reply
//! looks like, and its transaction commands where it has them. [`Cli`](super::Cli) is written
//! once against a [`Dialect`]; [`ONYX`] and [`OS10`] are the values.
//!
//! OS10's facts: prompts `OS10#`, `OS10(config)#`, `OS10(conf-if-eth1/1/1)#` and errors
//! `% Error: …` (`../shared/reference/os10-roce.md` "Session facts", the Cray CSM and
//! grantcurell sessions in `../shared/corpus/os10/`); `terminal length 0`; `write memory`
//! (captured, CSM); `start transaction` … `commit` / `discard` at the `#` prompt (Dell
//! knowledge-base article 000120163: "as of 10.4.x"; the first release with it is UNCONFIRMED);
//! `show users` as the Dell OS10 user guide's example prints it.

use crate::onyx;

pub use crate::onyx::prompt::Level;

/// A prompt read at the end of a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prompt<'a> {
    pub host: &'a str,
    pub level: Level,
}

/// The transaction commands of an OS that applies a block of changes atomically.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transaction {
    /// Typed at the `#` prompt; configuration commands after it are held.
    pub start: &'static str,
    /// Applies what was held, all at once.
    pub commit: &'static str,
    /// Drops what was held; the running configuration is untouched.
    pub discard: &'static str,
}

/// How a switch OS keeps a push's snapshot as a file of its own: `{}` in a command stands for
/// the file's name.
#[derive(Clone, Copy, Debug)]
pub struct Snapshots {
    /// Writes the running configuration to a new file.
    pub write: &'static str,
    /// Lists the files …
    pub list: &'static str,
    /// … read: their names, the one the switch boots from left out; `None` when the reply is
    /// no such listing.
    pub read: fn(&str) -> Option<Vec<String>>,
    /// Deletes one file.
    pub delete: &'static str,
    /// Typed in configuration mode (else at the `#` prompt).
    pub delete_in_config: bool,
    /// `delete` asks to confirm; it is answered `yes`.
    pub delete_asks: bool,
    /// After the snapshot's name, in the file's name.
    pub suffix: &'static str,
}

/// A switch OS's session conventions.
#[derive(Debug)]
pub struct Dialect {
    pub name: &'static str,
    /// The prompt that ends `line` (the last line of a reply, cleaned), if it is one with
    /// nothing typed after it.
    pub prompt: fn(&str) -> Option<Prompt<'_>>,
    /// Whether the last line is the pager's prompt (paging should be off; if it shows, the
    /// session pages on).
    pub pager: fn(&str) -> bool,
    pub paging_off: &'static str,
    pub configure: &'static str,
    /// Leaves configuration mode from any depth (`None`: `exit` level by level).
    pub end: Option<&'static str>,
    pub show_running: &'static str,
    pub save: &'static str,
    pub transaction: Option<Transaction>,
    /// Reads `show users`: the sessions logged in, `None` when the reply is no such table.
    pub users: fn(&str) -> Option<Vec<super::session::Login>>,
    pub snapshots: Snapshots,
    /// How the OS masks a secret: what the session masks in text it keeps or shows.
    pub mask: crate::secrets::Mask,
}

impl Dialect {
    /// Whether a reply line is the switch refusing the command: Onyx's `% …` and OS10's
    /// `% Error: …` both begin with `%`.
    pub fn is_error(&self, line: &str) -> bool {
        line.starts_with('%')
    }
}

fn onyx_prompt(line: &str) -> Option<Prompt<'_>> {
    onyx::prompt::parse(line)
        .filter(|p| p.rest.is_empty())
        .map(|p| Prompt {
            host: p.host,
            level: p.level,
        })
}

/// Onyx's pager: `lines 1-23`, `lines 8-30/30 (END)`.
fn onyx_pager(line: &str) -> bool {
    let last = line.trim_end();
    last.starts_with("lines ") && last[6..].chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// `host#`, `host(config)#`, `host(conf-if-eth1/1/1)#`, with or without the space after.
/// A hostname is letters, digits, `-`, `_` and `.`, so a line of `#` signs is not a prompt.
fn os10_prompt(line: &str) -> Option<Prompt<'_>> {
    let line = line.trim_end_matches(' ');
    let body = line.strip_suffix('#')?;
    let (host, level) = match body.strip_suffix(')') {
        Some(b) => {
            let (host, mode) = b.split_once('(')?;
            let mode_ok = mode.starts_with("conf")
                && mode
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-/:.".contains(c));
            if !mode_ok {
                return None;
            }
            (host, Level::Config)
        }
        None => (body, Level::Enable),
    };
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    host_ok.then_some(Prompt { host, level })
}

/// OS10's pager prompt, `--more--` (UNCONFIRMED by a capture: sessions turn paging off).
fn os10_pager(line: &str) -> bool {
    line.trim() == "--more--"
}

pub static ONYX: Dialect = Dialect {
    name: "onyx",
    mask: crate::secrets::Mask::Onyx,
    prompt: onyx_prompt,
    pager: onyx_pager,
    paging_off: "no cli session paging enable",
    configure: "configure terminal",
    end: None,
    show_running: "show running-config",
    save: "configuration write",
    transaction: None,
    users: super::session::read_users,
    snapshots: Snapshots {
        write: "configuration write to {} no-switch",
        list: "show configuration files",
        read: super::session::onyx_files,
        delete: "configuration delete {}",
        delete_in_config: true,
        delete_asks: false,
        suffix: "",
    },
};

pub static OS10: Dialect = Dialect {
    name: "os10",
    mask: crate::secrets::Mask::Os10,
    prompt: os10_prompt,
    pager: os10_pager,
    paging_off: "terminal length 0",
    configure: "configure terminal",
    end: Some("end"),
    show_running: "show running-configuration",
    save: "write memory",
    transaction: Some(Transaction {
        start: "start transaction",
        commit: "commit",
        discard: "discard",
    }),
    users: super::session::read_os10_users,
    // `dir config` and its listing, and `copy … config://NAME` (captured, CSM, a copy between
    // files); the copy from `running-configuration` and `delete config://NAME` with its
    // question (`[confirm yes/no(default)]:`, as `delete startup-configuration` asks,
    // captured) are UNCONFIRMED. The switch's own files are `.xml` (`startup.xml`).
    snapshots: Snapshots {
        write: "copy running-configuration config://{}",
        list: "dir config",
        read: super::session::os10_files,
        delete: "delete config://{}",
        delete_in_config: false,
        delete_asks: true,
        suffix: ".xml",
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os10_prompts_as_captured() {
        let cases = [
            ("OS10# ", Some(("OS10", Level::Enable))),
            ("OS10#", Some(("OS10", Level::Enable))),
            ("OS10(config)# ", Some(("OS10", Level::Config))),
            ("OS10(conf-if-eth1/1/12)#", Some(("OS10", Level::Config))),
            (
                "sw-leaf-bmc-001(conf-if-vl-7)# ",
                Some(("sw-leaf-bmc-001", Level::Config)),
            ),
            (
                "rack2-Rack01-TOR-1# ",
                Some(("rack2-Rack01-TOR-1", Level::Enable)),
            ),
            (
                "OS10(config-router-bgp-65001)# ",
                Some(("OS10", Level::Config)),
            ),
            (
                "###############################################################################",
                None,
            ),
            ("# CSM version:  1.3", None),
            ("sw-leaf-bmc-001# write memory", None),
            ("OS10(x y)#", None),
        ];
        for (text, want) in cases {
            assert_eq!(
                os10_prompt(text).map(|p| (p.host, p.level)),
                want,
                "{text:?}"
            );
        }
        assert_eq!(
            onyx_prompt("leaf01 [standalone: master] # ").map(|p| p.level),
            Some(Level::Enable)
        );
    }
}
