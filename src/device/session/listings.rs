//! What the switch lists, read: Onyx's `show configuration files` and `show users`, OS10's
//! `show users` and `dir config`. Each reader returns `None` on a reply that is not the
//! listing it reads: an error reply is never read as an empty listing.

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

/// One CLI session of `show users`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Login {
    /// The row is marked `*`: the session that asked.
    pub me: bool,
    pub user: String,
    pub line: String,
    pub host: String,
    pub idle: String,
}

impl std::fmt::Display for Login {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` on {}", self.user, self.line)?;
        if !self.host.is_empty() {
            write!(f, " from {}", self.host)?;
        }
        if !self.idle.is_empty() {
            write!(f, " (idle {})", self.idle)?;
        }
        Ok(())
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

/// Reads OS10's `show users` (the Dell OS10 user guide's example: `Index Line User Role
/// Application Idle Login-Time Location`, a row per session, the login time `2018-05-30
/// T20:04:27Z` holding a space, the location last; no row marked as the asking session).
/// The published example's spacing is lost, so a row is read by its words. `None` without
/// that header or with a row that does not read.
pub fn read_os10_users(text: &str) -> Option<Vec<Login>> {
    const HEADER: [&str; 8] = [
        "Index",
        "Line",
        "User",
        "Role",
        "Application",
        "Idle",
        "Login-Time",
        "Location",
    ];
    let mut lines = text
        .lines()
        .skip_while(|l| !l.split_whitespace().eq(HEADER.iter().copied()));
    lines.next()?;
    let mut out = Vec::new();
    for row in lines {
        let words: Vec<&str> = row.split_whitespace().collect();
        if words.is_empty() || words.iter().all(|w| w.chars().all(|c| c == '-')) {
            continue;
        }
        if words.len() < 8 || !words[0].chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        out.push(Login {
            me: false,
            user: words[2].to_string(),
            line: words[1].to_string(),
            host: words[words.len() - 1].to_string(),
            idle: words[5].to_string(),
        });
    }
    Some(out)
}

/// Reads OS10's `dir config`: the title `Directory contents for folder: config`, the header
/// and its dashes (published wrapped), then a row per file, `2022-01-12T22:21:35Z 53441
/// csm1.0.xml` (captured, CSM `sw-cdu-001`). The names; `None` when a line is none of these.
pub fn read_dir_config(text: &str) -> Option<Vec<String>> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .skip_while(|l| *l != "Directory contents for folder: config");
    lines.next()?;
    let mut names = Vec::new();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let dashes = words.iter().all(|w| w.chars().all(|c| c == '-'));
        if dashes || line.starts_with("Date (modified)") {
            continue;
        }
        let date = |w: &str| {
            w.len() == 20
                && w.ends_with('Z')
                && w.as_bytes()[10] == b'T'
                && w.chars().filter(char::is_ascii_digit).count() == 14
        };
        match words.as_slice() {
            [d, size, name] if date(d) && size.chars().all(|c| c.is_ascii_digit()) => {
                names.push(name.to_string());
            }
            _ => return None,
        }
    }
    Some(names)
}

/// Onyx's saved files but the active one, from `show configuration files`.
pub fn onyx_files(text: &str) -> Option<Vec<String>> {
    let files = Files::read(text)?;
    Some(
        files
            .names
            .into_iter()
            .filter(|n| *n != files.active)
            .collect(),
    )
}

/// OS10's files of `config://` but `startup.xml` (the one it boots from), from `dir config`.
pub fn os10_files(text: &str) -> Option<Vec<String>> {
    Some(
        read_dir_config(text)?
            .into_iter()
            .filter(|n| n != "startup.xml")
            .collect(),
    )
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
        // The lab's layout (`lab::cli::Unconfirmed::UsersHeader`).
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

    #[test]
    fn os10_sessions_and_files_as_captured() {
        // The Dell OS10 user guide's `show users` (its spacing lost in the published text).
        let guide = include_str!(
            "../../../tests/fixtures/corpus/os10/dell-os10-users-guide.show-users.txt"
        );
        let users = read_os10_users(guide).unwrap();
        assert_eq!(users.len(), 2);
        assert_eq!(
            users[0].to_string(),
            "`root` on ttyS from console (idle >24h)"
        );
        assert_eq!(
            users[1].to_string(),
            "`admin` on pts/0 from 10.14.1.214[ssh] (idle 1.1s)"
        );
        assert!(users.iter().all(|u| !u.me));
        assert_eq!(
            read_os10_users("Index Line User Role Application Idle Login-Time Location\n"),
            Some(vec![])
        );
        assert!(read_os10_users("% Error: Unrecognized command.\n").is_none());
        assert!(
            read_os10_users(
                "Index Line User Role Application Idle Login-Time Location\nadmin pts/0\n"
            )
            .is_none()
        );
        let dir =
            include_str!("../../../tests/fixtures/corpus/os10/cray-sw-cdu-001.dir-config.txt");
        assert_eq!(
            read_dir_config(dir).unwrap(),
            ["csm1.0.xml", "csm1.2.xml", "startup.xml"]
        );
        assert_eq!(os10_files(dir).unwrap(), ["csm1.0.xml", "csm1.2.xml"]);
        assert!(read_dir_config("% Error: Unrecognized command.\n").is_none());
        assert!(read_dir_config(&format!("{dir}garbage here\n")).is_none());
    }
}
