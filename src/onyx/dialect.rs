//! Onyx's CLI session, as [`Dialect`] says it to the session written once for every OS: its
//! prompt (`host [cluster: role] > `, `… # `, `… (config…) # `: [`super::prompt`]), its
//! pager (`lines 1-23`), `no cli session paging enable`, `configure terminal`, `show
//! running-config` read whole (the closing section) and masked as Onyx masks its own,
//! `configuration write`, its configuration files as snapshots.

use super::Config;
use crate::device::dialect::{self, Dialect, Level, Prompt, Snapshots};
use crate::device::{Cli, Error};
use crate::secrets::Mask;

/// How Onyx prints a secret it masks: `********` (`# radius-server key ********`,
/// `ntp authentication-key 5 sha1 ********`; `onyx-cli.md` b.5).
pub const MASK: Mask = Mask::Word("********");

/// Onyx's mask by the name it had as a variant, for code outside the OS folders that still
/// names it (the lab's command log, tests); the interface's is [`MASK`].
#[allow(non_upper_case_globals)]
impl Mask {
    pub const Onyx: Mask = MASK;
}

pub static DIALECT: Dialect = Dialect {
    name: "onyx",
    mask: MASK,
    error: dialect::percent_error,
    clean: super::clean,
    prompt,
    pager,
    paging_off: "no cli session paging enable",
    configure: Some("configure terminal"),
    end: None,
    show_running: "show running-config",
    running: "running config",
    save: "configuration write",
    transaction: None,
    users_command: "show users",
    users: super::listings::read_users,
    snapshots: Snapshots {
        write: "configuration write to {} no-switch",
        list: "show configuration files",
        read: super::listings::saved_files,
        delete: "configuration delete {}",
        delete_in_config: true,
        delete_asks: false,
        suffix: "",
    },
};

/// The switch's `show running-config`, read whole (see [`complete`]) into the model, its
/// secrets masked as Onyx masks its own ([`MASK`]): the text goes to backups and transcripts,
/// the model to printed diffs and imported fabrics, and nothing here needs a secret. A
/// `hostname` line naming another switch of the fleet is refused, as its prompt would be.
pub fn fetch(cli: &mut Cli) -> Result<(String, Config), Error> {
    cli.fetch_with(read_back, |c: &Config| c.hostname.as_deref())
}

/// A `show running-config` reply: whole, masked, read.
fn read_back(text: &str) -> Result<(String, Config), String> {
    if let Err(why) = complete(text) {
        return Err(format!(
            "the running config read back is incomplete ({why}); it is not used"
        ));
    }
    let text = crate::secrets::mask(text, MASK).into_owned();
    let config = super::parse(&text).map_err(|e| {
        format!(
            "the running config read back does not parse at line {}: expected {}",
            e.line, e.expected
        )
    })?;
    Ok((text, config))
}

/// Why a `show running-config` reply is not a whole configuration, if it is not. Every full
/// Onyx running config ends with its `## Persistent prefix mode setting` section and the
/// line `cli default prefix-modes enable` (`onyx-cli.md` §b.2; every full capture in
/// `tests/fixtures/corpus/onyx/`); a reply cut short (a dropped output, an interrupted pager)
/// lacks it, and planning against it would treat what is missing as absent.
pub fn complete(text: &str) -> Result<(), String> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let last = lines.last().copied().unwrap_or("");
    let closing = lines.len() >= 2
        && last == "cli default prefix-modes enable"
        && lines[..lines.len() - 1]
            .iter()
            .rev()
            .take_while(|l| l.starts_with('#'))
            .any(|l| *l == "## Persistent prefix mode setting");
    if closing {
        return Ok(());
    }
    let shown: String = last.chars().take(60).collect();
    Err(format!(
        "{} line(s), the last `{shown}`, without the closing `## Persistent prefix mode setting` and `cli default prefix-modes enable`",
        lines.len()
    ))
}

fn prompt(line: &str) -> Option<Prompt<'_>> {
    super::prompt::parse(line)
        .filter(|p| p.rest.is_empty())
        .map(|p| Prompt {
            host: p.host,
            level: p.level,
        })
}

/// Onyx's pager: `lines 1-23`, `lines 8-30/30 (END)`.
fn pager(line: &str) -> bool {
    let last = line.trim_end();
    last.starts_with("lines ") && last[6..].chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// The Onyx prompt that ends `text` (cleaned: no `\r`, escapes, NULs), if it ends with one
/// (`super::prompt`: `host [cluster: role] > `, `… # `, `… (config…) # `).
fn final_prompt(text: &str) -> Option<super::prompt::Prompt<'_>> {
    let last = text.rsplit('\n').next()?;
    super::prompt::parse(last).filter(|p| p.rest.is_empty())
}

/// The level of the prompt that ends `text`, if it ends with one.
pub fn prompt_level(text: &str) -> Option<Level> {
    final_prompt(text).map(|p| p.level)
}

/// The hostname the prompt that ends `text` shows (empty when the switch has none).
pub fn prompt_host(text: &str) -> &str {
    final_prompt(text).map_or("", |p| p.host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prompt_that_ends_a_reply() {
        // The prompt forms themselves are `super::prompt`'s tests.
        assert_eq!(
            prompt_level("out\nleaf01 [standalone: master] # "),
            Some(Level::Enable)
        );
        assert_eq!(
            prompt_level("leaf01 [standalone: master] # show version"),
            None
        );
        assert_eq!(prompt_level("lines 1-23 "), None);
        assert_eq!(
            prompt_host("banner\nleaf01 [standalone: master] > "),
            "leaf01"
        );
        assert_eq!(prompt_host(" [standalone: master] > "), "");
        assert_eq!(
            prompt_host("MLNX01-1 [MLNX01: standby] (config) # "),
            "MLNX01-1"
        );
        let pager = DIALECT.pager;
        assert!(pager("lines 1-23 "));
        assert!(pager("lines 8-30/30 (END) "));
    }

    #[test]
    fn a_running_config_is_whole_through_its_closing_section() {
        let whole = "##\n## Running database \"initial\"\n##\n\n##\n## Persistent prefix mode setting\n##\ncli default prefix-modes enable\n\n";
        assert_eq!(complete(whole), Ok(()));
        assert!(complete("##\n## Persistent prefix mode setting\n##\n").is_err());
        assert!(complete("   cli default prefix-modes enable\n").is_err());
        assert!(complete("").is_err());
    }

    #[test]
    fn the_prompt_as_the_session_reads_it() {
        assert_eq!(
            prompt("leaf01 [standalone: master] # ").map(|p| p.level),
            Some(Level::Enable)
        );
    }
}
