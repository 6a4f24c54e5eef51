//! What an Onyx switch lists, read: `show configuration files` and `show users`. Each reader
//! returns `None` on a reply that is not the listing it reads: an error reply is never read as
//! an empty listing.

use crate::device::session::Login;
use crate::device::{Cli, Error};

/// What `show configuration files` says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Files {
    /// The saved files, as listed.
    pub names: Vec<String>,
    pub active: String,
    /// `Unsaved changes : yes`.
    pub unsaved: bool,
}

impl Files {
    /// Reads the listing: a file per line (`(active)` after the active one), then `Active
    /// configuration: NAME` and `Unsaved changes : yes|no` (the padding before the colon
    /// varies: `tests/fixtures/corpus/onyx/more/…show_configuration_files_unsaved.txt`).
    pub fn read(text: &str) -> Option<Files> {
        let mut names = Vec::new();
        let (mut active, mut unsaved) = (None, None);
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            match line.split_once(':') {
                Some((k, v)) if k.trim() == "Active configuration" => {
                    active = Some(v.trim().to_string());
                }
                Some((k, v)) if k.trim() == "Unsaved changes" => {
                    unsaved = match v.trim() {
                        "yes" => Some(true),
                        "no" => Some(false),
                        _ => return None,
                    };
                }
                Some(_) => {}
                None => {
                    let name = line.strip_suffix("(active)").unwrap_or(line).trim_end();
                    names.push(name.to_string());
                }
            }
        }
        Some(Files {
            names,
            active: active?,
            unsaved: unsaved?,
        })
    }
}

/// Reads `show users`: a header naming the columns (`USERNAME`, `LINE`, `HOST`, `IDLE`),
/// then one row per session, cut at the header's columns (a column may be empty, as
/// `REMOTE USERNAME` usually is). The layout is a sibling TMS-based CLI's; no Onyx capture
/// shows it (the lab's table of unconfirmed texts). `None` when there is no such header.
pub fn read_users(text: &str) -> Option<Vec<Login>> {
    let mut lines = text.lines().skip_while(|l| !l.contains("USERNAME"));
    let header = lines.next()?;
    let at = |name: &str| {
        // `USERNAME`, not the one inside `REMOTE USERNAME`.
        header
            .match_indices(name)
            .map(|(i, _)| i)
            .find(|&i| i == 0 || header.as_bytes()[i - 1] == b' ')
            .filter(|&i| !header[..i].ends_with("REMOTE "))
    };
    let (user, line, host) = (at("USERNAME")?, at("LINE")?, at("HOST")?);
    let idle = at("IDLE");
    let mut starts: Vec<usize> = [
        Some(user),
        at("REMOTE USERNAME"),
        Some(line),
        Some(host),
        idle,
    ]
    .into_iter()
    .flatten()
    .collect();
    starts.sort_unstable();
    let cell = |row: &str, from: usize| -> String {
        let to = starts
            .iter()
            .copied()
            .find(|&s| s > from)
            .unwrap_or(usize::MAX);
        let bytes = row.as_bytes();
        let (from, to) = (from.min(bytes.len()), to.min(bytes.len()));
        String::from_utf8_lossy(&bytes[from..to]).trim().to_string()
    };
    let mut out = Vec::new();
    for row in lines.filter(|l| !l.trim().is_empty()) {
        let user_cell = cell(row, user);
        if user_cell.is_empty() {
            return None;
        }
        out.push(Login {
            me: row.get(..user).is_some_and(|p| p.trim() == "*"),
            user: user_cell,
            line: cell(row, line),
            host: cell(row, host),
            idle: idle.map(|i| cell(row, i)).unwrap_or_default(),
        });
    }
    Some(out)
}

/// Onyx's saved files but the active one, from `show configuration files`.
pub fn saved_files(text: &str) -> Option<Vec<String>> {
    let files = Files::read(text)?;
    Some(
        files
            .names
            .into_iter()
            .filter(|n| *n != files.active)
            .collect(),
    )
}

/// `show configuration files`: the saved files, the active one, and whether the running
/// config has unsaved changes. A reply without the `Active configuration` and `Unsaved
/// changes` lines is an error, never read as "saved".
pub fn files(cli: &mut Cli) -> Result<Files, Error> {
    let text = cli.run("show configuration files")?;
    Files::read(&text).ok_or_else(|| {
        Error::Parse(format!(
            "{}: `show configuration files` does not say the active file and whether changes are unsaved",
            cli.target.name
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_files_as_onyx_prints_them() {
        // `tests/fixtures/corpus/onyx/more/cray-docs-csm__sw-spine-001__show_configuration_files_unsaved.txt`
        let text = "\ncsm1.0.canu1.1.21 (active)\ncsm1.0.canu1.1.21.bak\ninitial\ninitial.bak\n\nActive configuration: csm1.0.canu1.1.21\nUnsaved changes     : yes\n";
        let f = Files::read(text).unwrap();
        assert_eq!(
            f.names,
            [
                "csm1.0.canu1.1.21",
                "csm1.0.canu1.1.21.bak",
                "initial",
                "initial.bak"
            ]
        );
        assert_eq!(f.active, "csm1.0.canu1.1.21");
        assert!(f.unsaved);
        assert!(Files::read("initial (active)\nActive configuration: initial\n").is_none());
        assert!(Files::read("% Unrecognized command \"files\".\n").is_none());
    }

    #[test]
    fn sessions_of_show_users() {
        // The lab's layout (`crate::onyx::lab::cli::Unconfirmed::UsersHeader`).
        let lab = "  USERNAME    REMOTE USERNAME   LINE          HOST                IDLE\n* admin                         pts/0         127.0.0.1           0d 0h 0m 0s\n  monitor                       pts/1         10.0.0.7            0d 0h 2m 5s\n";
        let users = read_users(lab).unwrap();
        assert_eq!(users.len(), 2);
        assert!(users[0].me && !users[1].me);
        assert_eq!(
            users[1].to_string(),
            "`monitor` on pts/1 from 10.0.0.7 (idle 0d 0h 2m 5s)"
        );
        // A sibling TMS-based CLI's, unmarked and marked.
        let tms = "USERNAME    REMOTE USERNAME   LINE          HOST          IDLE\nadmin2                        pts/0         10.10.2.9     0d 0h 0m 7s\nmonitor3                      web/68        10.10.3.8     0d 0h 6m 54s\n";
        let users = read_users(tms).unwrap();
        assert_eq!(
            (
                users[1].user.as_str(),
                users[1].line.as_str(),
                users[1].host.as_str()
            ),
            ("monitor3", "web/68", "10.10.3.8")
        );
        assert!(users.iter().all(|u| !u.me));
        let marked = " USERNAME    REMOTE USERNAME       LINE    HOST               IDLE\n* admin                             pts/0   10.10.10.100     0d  0h  0m  0s\n";
        let users = read_users(marked).unwrap();
        assert!(users[0].me && users[0].user == "admin", "{users:?}");
        assert!(read_users("% Unrecognized command \"users\".\n").is_none());
    }
}
