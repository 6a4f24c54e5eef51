//! OS10's CLI session, as [`Dialect`] says it to the session written once for every OS.
//!
//! Facts: prompts `OS10#`, `OS10(config)#`, `OS10(conf-if-eth1/1/1)#` and errors `% Error: …`
//! (`../shared/reference/os10-roce.md` "Session facts", the Cray CSM and grantcurell sessions
//! in `../shared/corpus/os10/`); `terminal length 0`; `write memory` (captured, CSM); `start
//! transaction` … `commit` / `discard` at the `#` prompt (Dell knowledge-base article
//! 000120163: "as of 10.4.x"; the first release with it is UNCONFIRMED); `show users` as the
//! Dell OS10 user guide's example prints it.

use super::Config;
use crate::device::dialect::{self, Dialect, Level, Prompt, Snapshots, Transaction};
use crate::device::{Cli, Error};
use crate::secrets::Mask;

/// How OS10 prints a secret it masks: `****` (`password 9 ****`, `enable password sha-512
/// ****`, `snmp-server user … auth sha ****`: the Azure Stack TOR capture, 10.5.3.2).
pub const MASK: Mask = Mask::Word("****");

/// OS10's mask by the name it had as a variant, for code outside the OS folders that still
/// names it (the lab's command log, tests); the interface's is [`MASK`].
#[allow(non_upper_case_globals)]
impl Mask {
    pub const Os10: Mask = MASK;
}

/// `host#`, `host(config)#`, `host(conf-if-eth1/1/1)#`, with or without the space after.
/// A hostname is letters, digits, `-`, `_` and `.`, so a line of `#` signs is not a prompt.
fn prompt(line: &str) -> Option<Prompt<'_>> {
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
fn pager(line: &str) -> bool {
    line.trim() == "--more--"
}

pub static DIALECT: Dialect = Dialect {
    name: "os10",
    mask: MASK,
    error: dialect::percent_error,
    clean: crate::input::strip_terminal,
    prompt,
    pager,
    paging_off: "terminal length 0",
    configure: Some("configure terminal"),
    end: Some("end"),
    show_running: "show running-configuration",
    running: "running configuration",
    save: "write memory",
    transaction: Some(Transaction {
        start: "start transaction",
        commit: "commit",
        discard: "discard",
        confirm: None,
    }),
    users_command: "show users",
    users: super::listings::read_users,
    // `dir config` and its listing, and `copy … config://NAME` (captured, CSM, a copy between
    // files); the copy from `running-configuration` and `delete config://NAME` with its
    // question (`[confirm yes/no(default)]:`, as `delete startup-configuration` asks,
    // captured) are UNCONFIRMED. The switch's own files are `.xml` (`startup.xml`).
    snapshots: Snapshots {
        write: "copy running-configuration config://{}",
        list: "dir config",
        read: super::listings::saved_files,
        delete: "delete config://{}",
        delete_in_config: false,
        delete_asks: true,
        suffix: ".xml",
    },
};

/// The switch's `show running-configuration`, read into the OS10 model, its secrets masked as
/// OS10 masks its own ([`MASK`]). A `hostname` naming another switch of the fleet is refused.
pub fn fetch(cli: &mut Cli) -> Result<(String, Config), Error> {
    cli.fetch_with(read_back, |c: &Config| c.hostname.as_deref())
}

/// A `show running-configuration` reply: masked, read.
fn read_back(text: &str) -> Result<(String, Config), String> {
    let text = crate::secrets::mask(text, MASK).into_owned();
    let config = super::parse(&text).map_err(|e| {
        format!(
            "the running configuration read back does not parse at line {}: {}",
            e.line, e.expected
        )
    })?;
    Ok((text, config))
}

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
            assert_eq!(prompt(text).map(|p| (p.host, p.level)), want, "{text:?}");
        }
    }
}
