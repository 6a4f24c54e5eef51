//! A Cumulus switch's state in its folder of the lab's state directory, beside what every
//! lab switch keeps there ([`crate::lab::device`]):
//!
//! | File | What |
//! |---|---|
//! | `STATE/leaf01/startup.yaml` | its saved tree (`nv config save`), as `/etc/nvue.d/startup.yaml`; it boots from it |
//! | `STATE/leaf01/applied.yaml` | the applied tree between `--stdio` sessions (one process per session), in the same form |
//! | `STATE/leaf01/revisions` | the next revision number; an apply waiting for confirmation (`confirm REV UNTIL`, seconds since 1970) |
//! | `STATE/leaf01/rollback.yaml` | the tree that apply goes back to |
//! | `STATE/leaf01/home/NAME` | the files of the login's home folder |

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::{Confirm, CumulusSwitch};
use crate::cumulus::tree::{self, Tree};
use crate::lab::device::write_atomic;

pub const STARTUP: &str = "startup.yaml";
pub const APPLIED: &str = "applied.yaml";
pub const META: &str = "revisions";
const ROLLBACK: &str = "rollback.yaml";
const HOME: &str = "home";

/// A tree in the `startup.yaml` form.
pub fn text(t: &Tree) -> String {
    tree::render_yaml(None, t)
}

fn read_tree(path: &Path) -> Result<Option<Tree>, String> {
    match fs::read_to_string(path) {
        Ok(s) => tree::parse_yaml(&s)
            .map(|d| Some(d.set))
            .map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.expected)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// `revisions`: the next revision number and the confirm waiting (revision, deadline).
fn read_meta(dir: &Path) -> (Option<u64>, Option<(u64, SystemTime)>) {
    let text = fs::read_to_string(dir.join(META)).unwrap_or_default();
    let mut next = None;
    let mut confirm = None;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["next", n] => next = n.parse().ok(),
            ["confirm", rev, until] => {
                if let (Ok(r), Ok(u)) = (rev.parse(), until.parse::<u64>()) {
                    confirm = Some((r, UNIX_EPOCH + Duration::from_secs(u)));
                }
            }
            _ => {}
        }
    }
    (next, confirm)
}

/// `sw` boots from the folder's `startup.yaml` (unless `prefer_fresh`), with its home files;
/// with `keep_running`, from the applied tree (and the confirm waiting) the last session left.
pub fn open(
    sw: &mut CumulusSwitch,
    dir: &Path,
    prefer_fresh: bool,
    keep_running: bool,
) -> Result<(), String> {
    if prefer_fresh {
        return Ok(());
    }
    if let Some(t) = read_tree(&dir.join(STARTUP))? {
        sw.startup = t.clone();
        sw.applied = t;
    }
    sw.home = read_home(&dir.join(HOME));
    let (next, confirm) = read_meta(dir);
    if let Some(n) = next {
        sw.next_rev = sw.next_rev.max(n);
    }
    let applied = dir.join(APPLIED);
    if !keep_running {
        let _ = fs::remove_file(&applied);
        return Ok(());
    }
    if let Some(t) = read_tree(&applied)? {
        sw.applied = t;
    }
    if let (Some((rev, until)), Some(rollback)) = (confirm, read_tree(&dir.join(ROLLBACK))?) {
        sw.confirm = Some(Confirm {
            rev,
            rollback,
            until,
        });
    }
    Ok(())
}

fn read_home(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let (Some(name), Ok(text)) = (
            e.file_name().to_str().map(str::to_string),
            fs::read_to_string(e.path()),
        ) else {
            continue;
        };
        if !name.ends_with(".tmp") {
            out.insert(name, text);
        }
    }
    out
}

/// Writes what `sw` saved (`saved`: the startup tree and home files) and its applied tree
/// with the confirm waiting (`running`).
pub fn persist(dir: &Path, sw: &CumulusSwitch, saved: bool, running: bool) -> Result<(), String> {
    if saved {
        write_atomic(&dir.join(STARTUP), text(&sw.startup).as_bytes())?;
        sync_home(&dir.join(HOME), &sw.home)?;
    }
    if running {
        write_atomic(&dir.join(APPLIED), text(&sw.applied).as_bytes())?;
        match &sw.confirm {
            Some(c) => write_atomic(&dir.join(ROLLBACK), text(&c.rollback).as_bytes())?,
            None => {
                let _ = fs::remove_file(dir.join(ROLLBACK));
            }
        }
    }
    if saved || running {
        let mut meta = format!("next {}\n", sw.next_rev);
        if let Some(c) = &sw.confirm {
            let secs = c
                .until
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            meta.push_str(&format!("confirm {} {secs}\n", c.rev));
        }
        write_atomic(&dir.join(META), meta.as_bytes())?;
    }
    Ok(())
}

fn sync_home(dir: &Path, files: &BTreeMap<String, String>) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    for (name, text) in files {
        let path = dir.join(name);
        if fs::read_to_string(&path).ok().as_deref() != Some(text) {
            write_atomic(&path, text.as_bytes())?;
        }
    }
    for e in fs::read_dir(dir).into_iter().flatten().flatten() {
        let stale = e
            .file_name()
            .to_str()
            .is_some_and(|n| !files.contains_key(n) && !n.ends_with(".tmp"));
        if stale {
            let _ = fs::remove_file(e.path());
        }
    }
    Ok(())
}

/// The tree that stands on a Cumulus switch whose state other processes keep in `dir`:
/// the applied one its last session left (or the one before, its confirm window run out),
/// else its startup; `None` when the folder keeps no `startup.yaml`.
pub fn standing_in(dir: &Path) -> Option<Tree> {
    let startup = read_tree(&dir.join(STARTUP)).ok()??;
    let applied = read_tree(&dir.join(APPLIED)).ok().flatten();
    if let (_, Some((_, until))) = read_meta(dir)
        && SystemTime::now() >= until
        && let Ok(Some(back)) = read_tree(&dir.join(ROLLBACK))
    {
        return Some(back);
    }
    Some(applied.unwrap_or(startup))
}
