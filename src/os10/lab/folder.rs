//! An OS10 switch's state in its folder of the lab's state directory, beside what every lab
//! switch keeps there ([`crate::lab::device`]):
//!
//! | File | What |
//! |---|---|
//! | `STATE/leaf01/startup-configuration.cfg` | its saved configuration (`write memory`), as `show running-configuration` prints it; it boots from it |
//! | `STATE/leaf01/config/NAME`, `STATE/leaf01/home/NAME` | its other `config://` files, and the files of its login's home folder (`home://`, put there by SCP) |
//! | `STATE/leaf01/running.cfg` | the running configuration between `--stdio` sessions (one process per session) |

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::{HomeFile, MAX_HOME_FILE, Os10Switch, SavedFile, valid_name};
use crate::lab::device::{RUNNING, left_running, modified, write_atomic};

/// The startup configuration in the folder, as `show running-configuration` prints it (the
/// switch keeps it as `startup.xml`; the lab keeps the text).
pub const STARTUP_FILE: &str = "startup-configuration.cfg";

/// The other files of `config://` (`copy running-configuration config://NAME`), one per file
/// in this folder of the state folder, as `show running-configuration` prints them.
pub const CONFIG_FOLDER: &str = "config";

/// The files of the login's home folder (`home://`), one per file in this folder of the state
/// folder, as they were put there.
pub const HOME_FOLDER: &str = "home";

/// `sw` boots from `STATE/NAME/startup-configuration.cfg` when there is one (unless
/// `prefer_fresh`), with its other files; with `keep_running`, from the running configuration
/// the last session left.
pub fn open(
    sw: &mut Os10Switch,
    dir: &Path,
    prefer_fresh: bool,
    keep_running: bool,
) -> Result<(), String> {
    let startup = dir.join(STARTUP_FILE);
    if !prefer_fresh && startup.exists() {
        let saved = read_config(&startup)?;
        sw.startup = Some(saved.clone());
        sw.running = saved;
        sw.startup_at = modified(&startup).unwrap_or_else(SystemTime::now);
    }
    if !prefer_fresh {
        sw.files = read_files(&dir.join(CONFIG_FOLDER))?;
        sw.home = read_home(&dir.join(HOME_FOLDER))?;
    }
    if let Some(path) = left_running(dir, keep_running && !prefer_fresh) {
        sw.running = read_config(&path)?;
    }
    Ok(())
}

/// Writes what `sw` saved (`saved`) and its running configuration (`running`) to `dir`.
pub fn persist(dir: &Path, sw: &Os10Switch, saved: bool, running: bool) -> Result<(), String> {
    let renderer = crate::os10::Renderer::shared()?;
    if saved && let Some(startup) = &sw.startup {
        write_atomic(
            &dir.join(STARTUP_FILE),
            renderer.render(startup)?.as_bytes(),
        )?;
    }
    if saved {
        let mut configs = BTreeMap::new();
        for (name, file) in &sw.files {
            configs.insert(name.as_str(), renderer.render(&file.config)?.into_bytes());
        }
        sync_folder(&dir.join(CONFIG_FOLDER), &configs)?;
        let home = sw
            .home
            .iter()
            .map(|(n, f)| (n.as_str(), f.bytes.clone()))
            .collect();
        sync_folder(&dir.join(HOME_FOLDER), &home)?;
    }
    if running {
        write_atomic(&dir.join(RUNNING), renderer.render(&sw.running)?.as_bytes())?;
    }
    Ok(())
}

/// The running configuration of an OS10 switch kept in `dir` by other processes: the one
/// its last session left, else its startup. `None` when the folder is not an OS10 switch's
/// (it keeps no `startup-configuration.cfg`) or the file does not read.
pub fn running_in(dir: &Path) -> Option<crate::os10::Config> {
    let startup = dir.join(STARTUP_FILE);
    if !startup.exists() {
        return None;
    }
    let running = dir.join(RUNNING);
    let path = if running.exists() { running } else { startup };
    read_config(&path).ok()
}

/// Makes `folder` hold `files` (name → content): those that differ written, those the
/// switch no longer has removed (a file deleted on the switch is gone from the folder).
fn sync_folder(folder: &Path, files: &BTreeMap<&str, Vec<u8>>) -> Result<(), String> {
    fs::create_dir_all(folder).map_err(|e| format!("cannot create `{}`: {e}", folder.display()))?;
    for (name, bytes) in files {
        let path = folder.join(name);
        if fs::read(&path).ok().as_ref() != Some(bytes) {
            write_atomic(&path, bytes)?;
        }
    }
    let entries =
        fs::read_dir(folder).map_err(|e| format!("cannot read `{}`: {e}", folder.display()))?;
    for entry in entries.flatten() {
        let stale = entry
            .file_name()
            .to_str()
            .is_some_and(|n| !files.contains_key(n) && !n.ends_with(".tmp"));
        if stale {
            let path = entry.path();
            fs::remove_file(&path)
                .map_err(|e| format!("cannot remove `{}`: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The files of the home folder kept in `folder` (none when it does not exist): each with a
/// name the switch takes and within its size bound; any other is an error.
fn read_home(folder: &Path) -> Result<BTreeMap<String, HomeFile>, String> {
    let mut files = BTreeMap::new();
    for (path, name) in kept_files(folder)? {
        let name = name.to_string_lossy().into_owned();
        if !valid_name(&name) || !path.is_file() {
            return Err(format!(
                "`{}`: not a file name an OS10 switch keeps",
                path.display()
            ));
        }
        let size = fs::metadata(&path).map_or(0, |m| m.len());
        if size > MAX_HOME_FILE as u64 {
            return Err(format!(
                "`{}`: larger than the switch keeps ({} bytes)",
                path.display(),
                MAX_HOME_FILE
            ));
        }
        let bytes =
            fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let modified = modified(&path).unwrap_or_else(SystemTime::now);
        files.insert(name, HomeFile { bytes, modified });
    }
    Ok(files)
}

/// The entries of a folder the lab keeps files in, but its `.tmp` files (a file being
/// written); none when the folder does not exist.
fn kept_files(folder: &Path) -> Result<Vec<(PathBuf, std::ffi::OsString)>, String> {
    let entries = match fs::read_dir(folder) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read `{}`: {e}", folder.display())),
    };
    Ok(entries
        .flatten()
        .map(|e| (e.path(), e.file_name()))
        .filter(|(_, n)| !n.to_string_lossy().ends_with(".tmp"))
        .collect())
}

/// The files of `config://` kept in `folder` (none when it does not exist), dated when they
/// were last written.
fn read_files(folder: &Path) -> Result<BTreeMap<String, SavedFile>, String> {
    let mut files = BTreeMap::new();
    for (path, name) in kept_files(folder)? {
        let Some(name) = name.to_str().map(str::to_string) else {
            continue;
        };
        let file = SavedFile {
            config: read_config(&path)?,
            modified: modified(&path).unwrap_or_else(SystemTime::now),
        };
        files.insert(name, file);
    }
    Ok(files)
}

fn read_config(path: &Path) -> Result<crate::os10::Config, String> {
    let text = crate::input::read_string(path, crate::config_error::MAX_BYTES)?;
    crate::os10::parse(&text).map_err(|e| format!("{}:{e}", path.display()))
}
