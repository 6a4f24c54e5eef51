//! What an OS10 switch lists, read: `show users` and `dir config`. Each reader returns `None`
//! on a reply that is not the listing it reads: an error reply is never read as an empty
//! listing.

use crate::device::session::Login;

/// Reads OS10's `show users` (the Dell OS10 user guide's example: `Index Line User Role
/// Application Idle Login-Time Location`, a row per session, the login time `2018-05-30
/// T20:04:27Z` holding a space, the location last; no row marked as the asking session).
/// The published example's spacing is lost, so a row is read by its words. `None` without
/// that header or with a row that does not read.
pub fn read_users(text: &str) -> Option<Vec<Login>> {
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

/// OS10's files of `config://` but `startup.xml` (the one it boots from), from `dir config`.
pub fn saved_files(text: &str) -> Option<Vec<String>> {
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
    fn os10_sessions_and_files_as_captured() {
        // The Dell OS10 user guide's `show users` (its spacing lost in the published text).
        let guide =
            include_str!("../../tests/fixtures/corpus/os10/dell-os10-users-guide.show-users.txt");
        let users = read_users(guide).unwrap();
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
            read_users("Index Line User Role Application Idle Login-Time Location\n"),
            Some(vec![])
        );
        assert!(read_users("% Error: Unrecognized command.\n").is_none());
        assert!(
            read_users("Index Line User Role Application Idle Login-Time Location\nadmin pts/0\n")
                .is_none()
        );
        let dir = include_str!("../../tests/fixtures/corpus/os10/cray-sw-cdu-001.dir-config.txt");
        assert_eq!(
            read_dir_config(dir).unwrap(),
            ["csm1.0.xml", "csm1.2.xml", "startup.xml"]
        );
        assert_eq!(saved_files(dir).unwrap(), ["csm1.0.xml", "csm1.2.xml"]);
        assert!(read_dir_config("% Error: Unrecognized command.\n").is_none());
        assert!(read_dir_config(&format!("{dir}garbage here\n")).is_none());
    }
}
