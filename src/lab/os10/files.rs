//! The lab OS10 switch's configuration files and logins: `dir config`, `copy
//! running-configuration config://NAME`, `copy config://A config://B`, `delete config://NAME`
//! (asked to confirm first) and `show users`.
//!
//! Captured: `dir config`'s title, header and `date size name` rows (Cray CSM `sw-cdu-001`,
//! the switch keeps `startup.xml` there), `copy config://startup.xml config://NAME` answering
//! `Copy completed` (CSM `sw-leaf-bmc-001`), `delete startup-configuration`'s question
//! `Proceed to delete startup-configuration [confirm yes/no(default)]:` (CSM). `show users`'
//! columns are the Dell OS10 user guide's example (`Index Line User Role Application Idle
//! Login-Time Location`). What no capture shows is in [`super::Unconfirmed`]. A file's content
//! is the configuration as `show running-configuration` prints it (the switch's are XML).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::{Instant, SystemTime};

use crate::lab::cli::{Login, Reply};
use crate::os10::Config;

use super::{ILLEGAL, Os10Switch, Unconfirmed};

/// The file the switch boots from, as `dir config` lists it (captured).
pub const STARTUP: &str = "startup.xml";

/// A configuration file in `config://`.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedFile {
    pub config: Config,
    pub modified: SystemTime,
}

/// A file name after `config://`: letters, digits, `-`, `_`, `.`; not `startup.xml`.
fn file_name(url: &str) -> Option<&str> {
    let name = url.strip_prefix("config://")?;
    let ok = !name.is_empty()
        && name != STARTUP
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    ok.then_some(name)
}

/// `2022-01-12T22:21:35Z`, as `dir config` prints a date (captured).
fn date(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = crate::types::utc_at(t);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `dir config`: the files with their dates and sizes, by name, `startup.xml` among them.
pub fn dir(sw: &Os10Switch) -> Reply {
    let mut rows: Vec<(String, &Config, SystemTime)> = sw
        .files
        .iter()
        .map(|(n, f)| (n.clone(), &f.config, f.modified))
        .collect();
    if let Some(startup) = &sw.startup {
        rows.push((STARTUP.to_string(), startup, sw.startup_at));
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out = format!(
        "Directory contents for folder: config\n{}\n",
        Unconfirmed::DirHeader.text()
    );
    for (name, config, at) in rows {
        let size = match super::show::running(config) {
            Ok(text) => text.len(),
            Err(e) => return Reply::text(format!("% Error: {e}\n")),
        };
        let _ = writeln!(out, "{:<21} {size:<12} {name}", date(at));
    }
    Reply::text(out)
}

/// `copy SOURCE config://NAME` from the running configuration or another file.
pub fn copy(sw: &mut Os10Switch, from: &str, to: &str) -> Reply {
    let Some(to) = file_name(to) else {
        return Reply::text(format!("{ILLEGAL}\n"));
    };
    let config = match from {
        "running-configuration" => sw.running.clone(),
        _ if from == format!("config://{STARTUP}") => match &sw.startup {
            Some(c) => c.clone(),
            None => return Unconfirmed::NoSuchFile.reply(),
        },
        _ => match file_name(from).and_then(|f| sw.files.get(f)) {
            Some(f) => f.config.clone(),
            None => return Unconfirmed::NoSuchFile.reply(),
        },
    };
    sw.files.insert(
        to.to_string(),
        SavedFile {
            config,
            modified: SystemTime::now(),
        },
    );
    Unconfirmed::CopyDone.reply()
}

/// `delete config://NAME`: the file to delete once the question is answered `yes`, or the
/// refusal.
pub fn delete(sw: &Os10Switch, url: &str) -> Result<String, Reply> {
    let Some(name) = file_name(url) else {
        return Err(Reply::text(format!("{ILLEGAL}\n")));
    };
    if !sw.files.contains_key(name) {
        return Err(Unconfirmed::NoSuchFile.reply());
    }
    Ok(name.to_string())
}

/// The question `delete` asks before it deletes `name`.
pub fn question(name: &str) -> String {
    Unconfirmed::DeleteConfirm.text().replace("{}", name)
}

/// The answer to [`question`]: `yes` deletes, anything else (`no` is the default) keeps.
pub fn answer(sw: &mut Os10Switch, name: &str, answer: &str) -> bool {
    answer.trim() == "yes" && sw.files.remove(name).is_some()
}

/// How long a session has been idle, as the guide's example prints it (`1.1s`, `>24h`); the
/// minutes and hours between are the lab's choice ([`Unconfirmed::UsersHeader`]).
fn idle(secs: f64) -> String {
    match secs {
        s if s < 60.0 => format!("{s:.1}s"),
        s if s < 3600.0 => format!("{}m", (s / 60.0) as u64),
        s if s < 86_400.0 => format!("{}h", (s / 3600.0) as u64),
        _ => ">24h".to_string(),
    }
}

/// `show users`: one row per session logged in, the asking one not marked (the guide's
/// example marks none).
pub fn users(logins: &BTreeMap<u64, Login>) -> Reply {
    let mut out = format!("{}\n", Unconfirmed::UsersHeader.text());
    let now = Instant::now();
    for (id, l) in logins {
        let (y, mo, d, h, mi, s) = crate::types::utc_at(l.since);
        let since = format!("{y:04}-{mo:02}-{d:02} T{h:02}:{mi:02}:{s:02}Z");
        let idle = idle(now.saturating_duration_since(l.active).as_secs_f64());
        let line = format!("pts/{}", id.saturating_sub(1));
        let location = format!("{}[ssh]", l.host);
        let _ = writeln!(
            out,
            "{id:<5} {line:<4} {:<6} {:<6} {:<11} {idle:<4} {since:<21} {location}",
            l.user,
            Unconfirmed::UsersRole.text(),
            Unconfirmed::UsersApplication.text(),
        );
    }
    Reply::text(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_copied_listed_and_deleted() {
        let mut sw = Os10Switch::factory("leaf01", None);
        assert_eq!(
            copy(&mut sw, "running-configuration", "config://snap-1.xml").output,
            "Copy completed\n"
        );
        copy(&mut sw, "config://snap-1.xml", "config://snap-2");
        let listed = dir(&sw).output;
        assert!(listed.starts_with("Directory contents for folder: config\n"));
        let names: Vec<&str> = listed
            .lines()
            .filter(|l| l.starts_with("20"))
            .filter_map(|l| l.split_whitespace().nth(2))
            .collect();
        assert_eq!(names, ["snap-1.xml", "snap-2", "startup.xml"], "{listed}");
        assert_eq!(
            copy(&mut sw, "running-configuration", "config://a;b").output,
            format!("{ILLEGAL}\n")
        );
        assert!(delete(&sw, "config://startup.xml").is_err());
        assert!(delete(&sw, "config://nothing").is_err());
        let name = delete(&sw, "config://snap-2").unwrap();
        assert_eq!(
            question(&name),
            "Proceed to delete config://snap-2 [confirm yes/no(default)]:"
        );
        assert!(!answer(&mut sw, &name, ""), "no is the default");
        assert!(answer(&mut sw, &name, "yes"));
        assert_eq!(sw.files.len(), 1);
    }

    #[test]
    fn idle_times() {
        assert_eq!(idle(1.14), "1.1s");
        assert_eq!(idle(125.0), "2m");
        assert_eq!(idle(7300.0), "2h");
        assert_eq!(idle(90_000.0), ">24h");
    }
}
