//! Cumulus's session, as [`Dialect`] says it to the session written once for every OS: a
//! Linux shell, no configuration mode; configuration staged by `nv set` / `nv unset` into a
//! pending revision and applied at once.
//!
//! Facts (`../shared/reference/cumulus-nvue.md` §1-§2; the choices no capture confirms in
//! [`UNCONFIRMED`], with their sources): the prompt `cumulus@leaf01:mgmt:~$ ` (`:mgmt`
//! in the management VRF; `root@spine1-nyc2:~# `) [capture]; `nv config show --color off`
//! (oxidized) [tool]; `nv config apply --confirm <time>` rolls back by itself unless
//! confirmed [doc]; `nv config save` [doc]; `nv config detach` drops what is pending [doc];
//! errors `Error: …`, `Invalid Command: …`, `Incomplete Command: …` [capture, tool].

use super::Config;
use crate::device::dialect::{Dialect, Level, Prompt, Snapshots, Transaction};
use crate::device::session::Login;
use crate::device::{Cli, Error};
use crate::secrets::Mask;

/// The word a secret is masked with in what `fabric` keeps or prints of a Cumulus switch:
/// NVUE shows its own as `'*'` (a user's `hashed-password`) or encrypted (`$nvsec$…`)
/// [capture]; a bare `*` would be a YAML alias, so the mask is a word that reads the same
/// plain, quoted, and in a shell command.
pub const MASK: Mask = Mask::Word("masked");

/// The saved configuration the switch boots from.
pub const SHOW_STARTUP: &str = "cat /etc/nvue.d/startup.yaml";

/// The time a push's revision stands unconfirmed before the switch rolls it back.
pub const CONFIRM_WINDOW: &str = "600s";

/// The choices of this dialect no capture confirms, with what they rest on.
pub const UNCONFIRMED: &[(&str, &str)] = &[
    (
        "nv config apply --confirm 600s --assume-yes",
        "doc: `--confirm <time>`; the unit written since the docs disagree (`60` vs `60m`); 600 s is the documented default window",
    ),
    (
        "nv config apply <rev> --confirm-yes",
        "tool: the NAPALM Cumulus driver and a 4.4 session (networkop gtc-nvue); the user guide never names it",
    ),
    (
        "export PAGER=cat",
        "nothing shows whether nv pages in an SSH terminal; the replies read here are YAML and short",
    ),
    (
        "who",
        "Linux's list of logins, as any Debian system prints it",
    ),
    (
        "nv config show -o yaml > NAME / ls -1 / rm -f NAME",
        "a snapshot as a file in the login's home folder, by the shell",
    ),
];

/// `user@host[:vrf]:path$ ` or `#` (root); with or without the space after.
fn prompt(line: &str) -> Option<Prompt<'_>> {
    let line = line.trim_end_matches(' ');
    let body = line.strip_suffix('$').or_else(|| line.strip_suffix('#'))?;
    let (user, rest) = body.split_once('@')?;
    let (host, _) = rest.split_once(':')?;
    let word = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    };
    (word(user) && word(host)).then_some(Prompt {
        host,
        level: Level::Enable,
    })
}

/// NVUE's and the shell's refusals.
fn error(line: &str) -> bool {
    let l = line.trim_start();
    [
        "Error:",
        "Invalid Command",
        "Incomplete Command",
        "-bash:",
        "bash:",
        "nv: ",
    ]
    .iter()
    .any(|p| l.starts_with(p))
}

/// `who`: `user  line  date time (from)`, one login a line.
fn users(text: &str) -> Option<Vec<Login>> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let (user, line) = (w.first()?, w.get(1)?);
            let host = w
                .iter()
                .find(|x| x.starts_with('('))
                .map_or("", |h| h.trim_matches(['(', ')']));
            Some(Login {
                me: false,
                user: user.to_string(),
                line: line.to_string(),
                host: host.to_string(),
                idle: String::new(),
            })
        })
        .collect()
}

/// `ls -1`: a name a line.
fn files(text: &str) -> Option<Vec<String>> {
    let names: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    names
        .iter()
        .all(|n| !n.contains(' ') && !n.contains(':'))
        .then_some(names)
}

pub static DIALECT: Dialect = Dialect {
    name: "cumulus",
    prompt,
    clean: crate::input::strip_terminal,
    pager: |_| false,
    paging_off: "export PAGER=cat",
    configure: None,
    end: None,
    show_running: "nv config show --color off",
    running: "applied configuration",
    save: "nv config save",
    transaction: Some(Transaction {
        start: "nv config detach",
        commit: "nv config apply --confirm 600s --assume-yes",
        discard: "nv config detach",
        confirm: Some(confirm),
    }),
    users_command: "who",
    users,
    snapshots: Snapshots {
        write: "nv config show -o yaml > {}",
        list: "ls -1",
        read: files,
        delete: "rm -f {}",
        delete_in_config: false,
        delete_asks: false,
        suffix: ".yaml",
    },
    mask: MASK,
    error,
};

/// The command that confirms the revision a `--confirm` apply printed (`applied [rev_id:
/// 22]`, `applied_and_saved [rev_id: 2]`), or why there is none.
pub fn confirm(applied: &str) -> Result<String, String> {
    let rev = applied
        .lines()
        .find_map(|l| {
            l.split_once("[rev_id:")
                .map(|(_, r)| r.trim().trim_end_matches(']').trim().to_string())
        })
        .filter(|r| {
            !r.is_empty()
                && r.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
        });
    match rev {
        Some(r) => Ok(format!("nv config apply {r} --confirm-yes")),
        None => Err(format!(
            "the apply printed no revision to confirm: {:?}",
            applied.trim()
        )),
    }
}

/// `nv config show`, masked, read.
pub fn fetch(cli: &mut Cli) -> Result<(String, Config), Error> {
    cli.fetch_with(read_back, |c: &Config| c.hostname())
}

fn read_back(text: &str) -> Result<(String, Config), String> {
    let text = crate::secrets::mask(text, MASK).into_owned();
    let config = Config::parse(&text).map_err(|e| {
        format!(
            "the applied configuration read back does not parse at line {}: {}",
            e.line, e.expected
        )
    })?;
    Ok((text, config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cumulus_prompts_as_captured() {
        let cases = [
            ("cumulus@leaf01:mgmt:~$ ", Some("leaf01")),
            ("root@spine1-nyc2:~# ", Some("spine1-nyc2")),
            ("cumulus@leaf01:~$", Some("leaf01")),
            ("cumulus@leaf01:mgmt:/etc$ ", Some("leaf01")),
            ("- set:", None),
            ("  hashed-password: '*'", None),
        ];
        for (text, want) in cases {
            assert_eq!(prompt(text).map(|p| p.host), want, "{text:?}");
        }
    }

    #[test]
    fn confirm_names_the_applied_revision() {
        assert_eq!(
            confirm("applied [rev_id: 22]").unwrap(),
            "nv config apply 22 --confirm-yes"
        );
        assert_eq!(
            confirm("Warning: x\napplied_and_saved [rev_id: 2]\n").unwrap(),
            "nv config apply 2 --confirm-yes"
        );
        assert!(confirm("Error: nothing").is_err());
        assert!(confirm("applied [rev_id: 1; reboot]").is_err());
    }

    #[test]
    fn who_lists_logins() {
        let l = users("cumulus  pts/0        2026-11-29 13:15 (127.0.0.1)\nops pts/1 2026-11-29 13:16 (10.0.0.9)\n").unwrap();
        assert_eq!(l.len(), 2);
        assert_eq!(
            (l[1].user.as_str(), l[1].host.as_str()),
            ("ops", "10.0.0.9")
        );
    }
}
