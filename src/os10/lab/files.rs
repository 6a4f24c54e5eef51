//! The lab OS10 switch's files and logins: `dir config`, `dir home`, `copy
//! running-configuration config://NAME`, `copy config://A config://B`, `copy
//! running-configuration home://NAME`, `show file home NAME`, `delete config://NAME` and
//! `delete home://NAME` (asked to confirm first), and `show users`. A file put in the login's
//! home folder by SCP ([`crate::lab::scp`]) is a `home://` file.
//!
//! Captured: `dir config`'s title, header and `date size name` rows (Cray CSM `sw-cdu-001`,
//! the switch keeps `startup.xml` there), `copy config://startup.xml config://NAME` answering
//! `Copy completed` (CSM `sw-leaf-bmc-001`), `delete startup-configuration`'s question
//! `Proceed to delete startup-configuration [confirm yes/no(default)]:` (CSM). `show users`'
//! columns are the Dell OS10 user guide's example (`Index Line User Role Application Idle
//! Login-Time Location`). `dir home`, `show file home NAME`, `copy home://NAME
//! running-configuration` and `delete home://NAME` are the commands napalm-dellos10 sends
//! (its `dir home` example: the `dir config` layout, titled `home`); what they print is
//! UNCONFIRMED. What no capture shows is in [`super::Unconfirmed`]. A `config://` file's
//! content is the configuration as `show running-configuration` prints it (the switch's are
//! XML); a `home://` file's is what was put there.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::{Instant, SystemTime};

use crate::lab::{Login, Reply};
use crate::os10::Config;

use super::{ILLEGAL, Os10Switch, Unconfirmed};

/// The file the switch boots from, as `dir config` lists it (captured).
pub const STARTUP: &str = "startup.xml";

/// The largest `home://` file the switch takes, and how many it keeps: the lab's bounds (a
/// running configuration of a large switch is a few hundred KB).
pub const MAX_HOME_FILE: usize = 4 << 20;
pub const MAX_HOME_FILES: usize = 64;

/// A configuration file in `config://`.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedFile {
    pub config: Config,
    pub modified: SystemTime,
}

/// A file in the login's home folder, `home://`.
#[derive(Clone, Debug, PartialEq)]
pub struct HomeFile {
    pub bytes: Vec<u8>,
    pub modified: SystemTime,
}

/// The folders a file URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Folder {
    Config,
    Home,
}

/// A file name the switch keeps: letters, digits, `-`, `_`, `.`, not starting with `.`, at
/// most 128 characters. Nothing else: a name is a file in the switch's state folder.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
}

/// `config://NAME` or `home://NAME`, its name checked ([`valid_name`]; `startup.xml` is not a
/// `config://` file one names).
pub fn url(url: &str) -> Option<(Folder, &str)> {
    let (folder, name) = match url.split_once("://")? {
        ("config", n) if n != STARTUP => (Folder::Config, n),
        ("home", n) => (Folder::Home, n),
        _ => return None,
    };
    valid_name(name).then_some((folder, name))
}

/// `2022-01-12T22:21:35Z`, as `dir config` prints a date (captured).
fn date(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = crate::types::utc_at(t);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// `dir config` or `dir home`: the files with their dates and sizes, by name, `startup.xml`
/// among the configuration's.
pub fn dir(sw: &Os10Switch, folder: Folder) -> Reply {
    let mut rows: Vec<(String, usize, SystemTime)> = Vec::new();
    match folder {
        Folder::Config => {
            let mut configs: Vec<(&str, &Config, SystemTime)> = sw
                .files
                .iter()
                .map(|(n, f)| (n.as_str(), &f.config, f.modified))
                .collect();
            if let Some(startup) = &sw.startup {
                configs.push((STARTUP, startup, sw.startup_at));
            }
            for (name, config, at) in configs {
                match super::show::running(config) {
                    Ok(text) => rows.push((name.to_string(), text.len(), at)),
                    Err(e) => return Reply::text(format!("% Error: {e}\n")),
                }
            }
        }
        Folder::Home => {
            rows.extend(
                sw.home
                    .iter()
                    .map(|(n, f)| (n.clone(), f.bytes.len(), f.modified)),
            );
        }
    }
    rows.sort_by(|a, b| a.0.cmp(&b.0));
    let title = match folder {
        Folder::Config => "config",
        Folder::Home => "home",
    };
    let mut out = format!(
        "Directory contents for folder: {title}\n{}\n",
        Unconfirmed::DirHeader.text()
    );
    for (name, size, at) in rows {
        let _ = writeln!(out, "{:<21} {size:<12} {name}", date(at));
    }
    Reply::text(out)
}

/// What a copy reads: the running configuration, `config://startup.xml`, or a file.
fn source(sw: &Os10Switch, from: &str) -> Result<Source, Reply> {
    if from == "running-configuration" {
        return Ok(Source::Config(Box::new(sw.running.clone())));
    }
    if from == format!("config://{STARTUP}") {
        return sw
            .startup
            .clone()
            .map(|c| Source::Config(Box::new(c)))
            .ok_or_else(|| Unconfirmed::NoSuchFile.reply());
    }
    match url(from) {
        Some((Folder::Config, name)) => sw
            .files
            .get(name)
            .map(|f| Source::Config(Box::new(f.config.clone())))
            .ok_or_else(|| Unconfirmed::NoSuchFile.reply()),
        Some((Folder::Home, name)) => sw
            .home
            .get(name)
            .map(|f| Source::Bytes(f.bytes.clone()))
            .ok_or_else(|| Unconfirmed::NoSuchFile.reply()),
        None => Err(Reply::text(format!("{ILLEGAL}\n"))),
    }
}

enum Source {
    Config(Box<Config>),
    Bytes(Vec<u8>),
}

/// `copy SOURCE config://NAME` or `copy SOURCE home://NAME`, from the running configuration
/// or another file (a `home://` file is copied to `config://` only as a configuration).
pub fn copy(sw: &mut Os10Switch, from: &str, to: &str) -> Reply {
    let Some((folder, to)) = url(to) else {
        return Reply::text(format!("{ILLEGAL}\n"));
    };
    let source = match source(sw, from) {
        Ok(s) => s,
        Err(refused) => return refused,
    };
    let modified = SystemTime::now();
    match (folder, source) {
        (Folder::Config, Source::Config(config)) => {
            let config = *config;
            sw.files
                .insert(to.to_string(), SavedFile { config, modified });
        }
        (Folder::Config, Source::Bytes(bytes)) => {
            match crate::os10::parse(&String::from_utf8_lossy(&bytes)) {
                Ok(config) => {
                    sw.files
                        .insert(to.to_string(), SavedFile { config, modified });
                }
                Err(_) => return Reply::text(format!("{ILLEGAL}\n")),
            }
        }
        (Folder::Home, source) => {
            let bytes = match source {
                Source::Bytes(b) => b,
                Source::Config(c) => match super::show::running(&c) {
                    Ok(text) => text.into_bytes(),
                    Err(e) => return Reply::text(format!("% Error: {e}\n")),
                },
            };
            if let Err(refused) = put_home(sw, to, bytes) {
                return Reply::text(format!("% Error: {refused}\n"));
            }
        }
    }
    Unconfirmed::CopyDone.reply()
}

/// Puts `bytes` in `home://NAME`, within the bounds ([`MAX_HOME_FILE`],
/// [`MAX_HOME_FILES`]); `Err` says why not.
pub fn put_home(sw: &mut Os10Switch, name: &str, bytes: Vec<u8>) -> Result<(), String> {
    if !valid_name(name) {
        return Err(format!("`{name}` is not a file name the switch takes"));
    }
    if bytes.len() > MAX_HOME_FILE {
        return Err(format!("a file is at most {MAX_HOME_FILE} bytes"));
    }
    if !sw.home.contains_key(name) && sw.home.len() >= MAX_HOME_FILES {
        return Err(format!("the folder holds at most {MAX_HOME_FILES} files"));
    }
    sw.home.insert(
        name.to_string(),
        HomeFile {
            bytes,
            modified: SystemTime::now(),
        },
    );
    Ok(())
}

/// `show file home NAME`: the file's text.
pub fn show_home(sw: &Os10Switch, name: &str) -> Reply {
    match sw.home.get(name) {
        Some(f) => {
            let mut text = String::from_utf8_lossy(&f.bytes).into_owned();
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            Reply::text(text)
        }
        None => Unconfirmed::NoSuchFile.reply(),
    }
}

/// `delete config://NAME` or `delete home://NAME`: the file to delete once the question is
/// answered `yes`, or the refusal.
pub fn delete(sw: &Os10Switch, u: &str) -> Result<String, Reply> {
    let Some((folder, name)) = url(u) else {
        return Err(Reply::text(format!("{ILLEGAL}\n")));
    };
    let there = match folder {
        Folder::Config => sw.files.contains_key(name),
        Folder::Home => sw.home.contains_key(name),
    };
    if !there {
        return Err(Unconfirmed::NoSuchFile.reply());
    }
    Ok(u.to_string())
}

/// The question `delete` asks before it deletes the file at `url`.
pub fn question(url: &str) -> String {
    Unconfirmed::DeleteConfirm.text().replace("{}", url)
}

/// The answer to [`question`]: `yes` deletes, anything else (`no` is the default) keeps.
pub fn answer(sw: &mut Os10Switch, u: &str, answer: &str) -> bool {
    if answer.trim() != "yes" {
        return false;
    }
    match url(u) {
        Some((Folder::Config, name)) => sw.files.remove(name).is_some(),
        Some((Folder::Home, name)) => sw.home.remove(name).is_some(),
        None => false,
    }
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
        let listed = dir(&sw, Folder::Config).output;
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
    fn home_files_are_put_shown_copied_and_bounded() {
        let mut sw = Os10Switch::factory("leaf01", None);
        put_home(
            &mut sw,
            "merge_config.txt",
            b"interface ethernet1/1/2\n description x\n".to_vec(),
        )
        .unwrap();
        assert_eq!(
            show_home(&sw, "merge_config.txt").output,
            "interface ethernet1/1/2\n description x\n"
        );
        let listed = dir(&sw, Folder::Home).output;
        assert!(
            listed.starts_with("Directory contents for folder: home\n"),
            "{listed}"
        );
        let row: Vec<&str> = listed.lines().last().unwrap().split_whitespace().collect();
        assert_eq!(row[1..], ["39", "merge_config.txt"], "{listed}");
        assert_eq!(
            copy(
                &mut sw,
                "running-configuration",
                "home://rollback_config.txt"
            )
            .output,
            "Copy completed\n"
        );
        assert!(
            show_home(&sw, "rollback_config.txt")
                .output
                .contains("hostname leaf01")
        );
        for bad in ["../x", "a/b", ".hidden", "", "x y"] {
            assert!(put_home(&mut sw, bad, Vec::new()).is_err(), "{bad:?}");
            assert!(url(&format!("home://{bad}")).is_none(), "{bad:?}");
        }
        assert!(put_home(&mut sw, "big", vec![b'x'; MAX_HOME_FILE + 1]).is_err());
        let url = delete(&sw, "home://merge_config.txt").unwrap();
        assert_eq!(
            question(&url),
            "Proceed to delete home://merge_config.txt [confirm yes/no(default)]:"
        );
        assert!(answer(&mut sw, &url, "yes"));
        assert!(
            show_home(&sw, "merge_config.txt")
                .output
                .starts_with("% Error")
        );
    }

    #[test]
    fn idle_times() {
        assert_eq!(idle(1.14), "1.1s");
        assert_eq!(idle(125.0), "2m");
        assert_eq!(idle(7300.0), "2h");
        assert_eq!(idle(90_000.0), ">24h");
    }
}
