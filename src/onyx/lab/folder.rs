//! An Onyx switch's state in its folder of the lab's state directory, beside what every lab
//! switch keeps there ([`crate::lab::device`]):
//!
//! | File | What |
//! |---|---|
//! | `STATE/leaf01/saved/NAME.cfg`, `STATE/leaf01/active` | saved configuration files and the one the switch boots from |
//! | `STATE/leaf01/running.cfg` | the running configuration between `--stdio` sessions (one process per session) |

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use super::cli::Switch;
use crate::lab::device::{RUNNING, left_running, write_atomic};
use crate::onyx::{self, Renderer};

/// `sw` boots from its saved active file in `dir` when it has one (unless `prefer_fresh`);
/// with `keep_running`, the running config of the last session is kept instead (no reboot
/// between `--stdio` sessions).
pub fn open(
    sw: &mut Switch,
    dir: &Path,
    prefer_fresh: bool,
    keep_running: bool,
) -> Result<(), String> {
    fs::create_dir_all(dir.join("saved"))
        .map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    if !prefer_fresh && let Some(mut saved) = load_saved(dir)? {
        saved.release = sw.release;
        saved.model = sw.model;
        *sw = saved;
    }
    if let Some(path) = left_running(dir, keep_running && !prefer_fresh) {
        sw.running = read_config(&path)?;
    }
    Ok(())
}

/// Writes what changed since the last write: after a save (`saved`), the saved files that
/// changed and the active one's name (a push's snapshot and save are one file each, not every
/// file again), a file deleted on the switch removed (on the `first` write, any the switch
/// does not have); the running config (`running`).
pub fn persist(
    sw: &mut Switch,
    dir: &Path,
    first: bool,
    saved: bool,
    running: bool,
) -> Result<(), String> {
    let renderer = Renderer::shared()?;
    let write = |path: PathBuf, cfg: &onyx::Config| -> Result<(), String> {
        let text = renderer.render(cfg).map_err(|e| e.to_string())?;
        write_atomic(&path, text.as_bytes())
    };
    if saved {
        let (files, gone, active) = saves(sw);
        let folder = dir.join("saved");
        for (name, cfg) in &files {
            write(folder.join(format!("{name}.cfg")), cfg)?;
        }
        if let Some(active) = &active {
            write_atomic(&dir.join("active"), format!("{active}\n").as_bytes())?;
        }
        let stale = match first {
            true => stale_files(&folder, &sw.files)?,
            false => gone
                .iter()
                .map(|n| folder.join(format!("{n}.cfg")))
                .collect(),
        };
        for path in stale {
            match fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(format!("cannot remove `{}`: {e}", path.display()));
                }
                _ => {}
            }
        }
    }
    if running {
        write(dir.join(RUNNING), &sw.running)?;
    }
    Ok(())
}

/// The saved files that changed since the last write, those gone, the active file's name when
/// it changed (on the first write, every file and the name); noted as written.
type Saves = (Vec<(String, onyx::Config)>, Vec<String>, Option<String>);

fn saves(sw: &mut Switch) -> Saves {
    let first = sw.written.is_none();
    let (last, last_active) = sw.written.get_or_insert_with(Default::default);
    let files: Vec<(String, onyx::Config)> = sw
        .files
        .iter()
        .filter(|(n, c)| last.get(*n) != Some(*c))
        .map(|(n, c)| (n.clone(), c.clone()))
        .collect();
    let gone: Vec<String> = last
        .keys()
        .filter(|n| !sw.files.contains_key(*n))
        .cloned()
        .collect();
    for n in &gone {
        last.remove(n);
    }
    last.extend(files.iter().cloned());
    let active = (first || *last_active != sw.active).then(|| sw.active.clone());
    *last_active = sw.active.clone();
    (files, gone, active)
}

/// The saved files in `saved` that are not among `files`.
fn stale_files(
    saved: &Path,
    files: &BTreeMap<String, onyx::Config>,
) -> Result<Vec<PathBuf>, String> {
    let entries =
        fs::read_dir(saved).map_err(|e| format!("cannot read `{}`: {e}", saved.display()))?;
    Ok(entries
        .flatten()
        .map(|e| e.path())
        .filter(|path| {
            path.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".cfg"))
                .is_some_and(|n| !files.contains_key(n))
        })
        .collect())
}

/// The saved files and the active one, as a booted switch has them.
fn load_saved(dir: &Path) -> Result<Option<Switch>, String> {
    let Ok(active) = crate::input::read_string(&dir.join("active"), 4096) else {
        return Ok(None);
    };
    let active = active.trim().to_string();
    let mut files = BTreeMap::new();
    let entries = fs::read_dir(dir.join("saved"))
        .map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".cfg"))
        {
            files.insert(name.to_string(), read_config(&path)?);
        }
    }
    let Some(boot) = files.get(&active).cloned() else {
        return Err(format!(
            "`{}` names `{active}`, which has no saved file",
            dir.join("active").display()
        ));
    };
    let mut sw = Switch::with_config(boot);
    sw.files = files;
    sw.active = active;
    Ok(Some(sw))
}

/// The running config of a switch served from `dir` by other processes: the one its last
/// session left, else its active saved file; `None` when there is none or it cannot be read.
pub fn running_in(dir: &Path) -> Option<onyx::Config> {
    let running = dir.join(RUNNING);
    if running.exists() {
        return read_config(&running).ok();
    }
    load_saved(dir).ok().flatten().map(|sw| sw.running)
}

fn read_config(path: &Path) -> Result<onyx::Config, String> {
    let text = crate::input::read_string(path, crate::config_error::MAX_BYTES)?;
    onyx::parse(&text)
        .map_err(|e| format!("{}:{}:{}: {}", path.display(), e.line, e.column, e.expected))
}
