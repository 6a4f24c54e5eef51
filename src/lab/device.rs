//! A simulated switch as it is served: its state shared by every session, the faults it is
//! told to inject, the log of every command it received, and its folder in the lab's state
//! directory (host key, saved configuration files, fault control file, command log).
//!
//! The folder of a switch `leaf01` in a state directory `STATE`:
//!
//! | File | What |
//! |---|---|
//! | `STATE/leaf01/ssh_host_ed25519_key` | the host key, made on first start |
//! | `STATE/leaf01/saved/NAME.cfg`, `STATE/leaf01/active` | saved configuration files and the one the switch boots from |
//! | `STATE/leaf01/running.cfg` | the running configuration between `--stdio` sessions (one process per session) |
//! | `STATE/leaf01/faults.yaml` | faults to inject ([`Faults`]), the switch's cabling faults included; read again whenever it changes |
//! | `STATE/leaf01/commands.log` | every command received: `SESSION<TAB>LINE` |
//!
//! A switch of another OS than the lab's own CLI keeps its saved state there on its own terms
//! ([`crate::targets::LabSwitch::persist`]; its OS's lab module says which files).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use super::cli::{Login, Reply, Session, Switch, Unconfirmed};
use super::network::{CablingFaults, Network, World};
use crate::onyx::{self, Renderer};

pub use super::faults::{Drift, Faults, Refusal, Trigger, Truncate};
use super::faults::{FaultState, read_faults};

/// What happens to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The switch answers (`close`: the session ends, as `exit` from enable does).
    Reply { output: String, close: bool },
    /// The connection drops, the command unanswered (and not applied, unless the fault
    /// says `applied`).
    Drop,
    /// No reply and no prompt, ever (the command not applied, unless the fault says
    /// `applied`).
    Hang,
}

/// One command's outcome and how to print it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub step: Step,
    pub delay: Duration,
    pub noise: bool,
}

/// What a device last wrote to its folder: `Switch::saves` and `Switch::revision` then, and
/// an Onyx switch's saved files and active one as written (a save rewrites only the files
/// that changed: a push's snapshot and save are one file each, not every file again).
struct Persisted {
    saves: u64,
    revision: u64,
    files: BTreeMap<String, onyx::Config>,
    active: String,
}

/// What a persist must write: the saved files that changed, those gone, the active file's
/// name when it changed, the running config; `first` on the first write (files on disk that
/// the switch does not have are removed).
#[derive(Default)]
struct Writes {
    first: bool,
    files: Vec<(String, onyx::Config)>,
    gone: Vec<String>,
    active: Option<String>,
    running: Option<onyx::Config>,
    /// A switch of another OS saved (it persists on its own terms).
    own_saved: bool,
}

/// A simulated switch, shared by its sessions.
pub struct Device {
    pub name: String,
    switch: Mutex<Switch>,
    faults: Mutex<FaultState>,
    log: Mutex<Vec<(u64, String)>>,
    /// The switch's folder in the state directory; nothing is persisted without one.
    dir: Option<PathBuf>,
    /// Keep the running config on disk after each change (`--stdio`: a process per session).
    keep_running: bool,
    sessions: AtomicU64,
    /// What was last persisted; `None` before the first write.
    persisted: Mutex<Option<Persisted>>,
    /// The network the switch is cabled into, and its name there.
    network: OnceLock<(Arc<Network>, String)>,
    /// The cabling faults in force and when the control file was read for them: kept apart
    /// from `faults` (held while a command runs) so that the network can read every switch's
    /// cabling at any time without waiting on a command.
    cabling: Mutex<(Option<SystemTime>, CablingFaults)>,
}

impl Device {
    /// A switch kept in memory only.
    pub fn new(switch: Switch) -> Device {
        Device {
            name: switch.hostname().to_string(),
            switch: Mutex::new(switch),
            faults: Mutex::new(FaultState::default()),
            log: Mutex::new(Vec::new()),
            dir: None,
            keep_running: false,
            sessions: AtomicU64::new(0),
            persisted: Mutex::new(None),
            network: OnceLock::new(),
            cabling: Mutex::new((None, CablingFaults::default())),
        }
    }

    /// Cables the switch into `network`, where it is called `name` (its fabric's name).
    pub fn join(&self, network: Arc<Network>, name: &str) {
        let _ = self.network.set((network, name.to_string()));
    }

    /// What a command that reads the network sees: the other switches' running configs,
    /// read before this switch's own state is locked.
    fn world(&self, session: &Session, line: &str) -> Option<World> {
        let (network, me) = self.network.get()?;
        if !session.reads_network(&self.lock(), line) {
            return None;
        }
        Some(network.world(me))
    }

    /// Tells the network this switch is cabled into that it may have changed.
    fn changed(&self) {
        if let Some((network, me)) = self.network.get() {
            network.changed(me);
        }
    }

    /// A switch with its folder in a state directory: it boots from its saved active file
    /// there when it has one, else from `fresh` (factory default, or a backup). With
    /// `keep_running`, the running config of the last session is kept instead (no reboot
    /// between `--stdio` sessions).
    pub fn open(
        dir: &Path,
        fresh: Switch,
        prefer_fresh: bool,
        keep_running: bool,
    ) -> Result<Device, String> {
        fs::create_dir_all(dir.join("saved"))
            .map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
        let mut switch = fresh;
        if let Some(own) = switch.own.as_deref_mut() {
            own.open(dir, prefer_fresh, keep_running)?;
            return Device::opened(dir, switch, keep_running);
        }
        if !prefer_fresh && let Some(mut saved) = load_saved(dir)? {
            saved.release = switch.release;
            saved.model = switch.model;
            switch = saved;
        }
        let running = dir.join("running.cfg");
        if keep_running && !prefer_fresh && running.exists() {
            switch.running = read_config(&running)?;
        } else if running.exists() {
            // A reboot: the running config is the active file's.
            let _ = fs::remove_file(&running);
        }
        Device::opened(dir, switch, keep_running)
    }

    /// The device of `switch` booted from its folder `dir`, its state written there.
    fn opened(dir: &Path, switch: Switch, keep_running: bool) -> Result<Device, String> {
        let mut dev = Device::new(switch);
        dev.dir = Some(dir.to_path_buf());
        dev.keep_running = keep_running;
        dev.persist()?;
        Ok(dev)
    }

    /// The switch's folder in the state directory.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// A copy of the switch's state now.
    pub fn snapshot(&self) -> Switch {
        self.lock().clone()
    }

    /// Changes the switch's state directly (a test's or a drift fault's hand on the box).
    pub fn with<R>(&self, f: impl FnOnce(&mut Switch) -> R) -> R {
        let r = f(&mut self.lock());
        self.changed();
        r
    }

    /// Reads the switch's state now.
    pub fn with_ref<R>(&self, f: impl FnOnce(&Switch) -> R) -> R {
        f(&self.lock())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Switch> {
        // A panic in another session leaves the state as consistent as any command did.
        self.switch.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the faults to inject, counting from now (in-process control; a control file
    /// does the same for a running lab).
    pub fn set_faults(&self, faults: Faults) {
        let mut st = self.faults.lock().unwrap_or_else(|e| e.into_inner());
        // As for the other faults, the control file counts again only once it changes.
        let file = self
            .dir
            .as_ref()
            .and_then(|d| modified(&d.join("faults.yaml")));
        *self.lock_cabling() = (file, faults.cabling.clone());
        *st = FaultState::new(faults, st.read);
        drop(st);
        self.changed();
    }

    fn lock_cabling(&self) -> std::sync::MutexGuard<'_, (Option<SystemTime>, CablingFaults)> {
        self.cabling.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The faults of this switch's cables now: the control file's `cabling`, read again when
    /// the file changed (a file that does not read is ignored here; the switch says why when
    /// it reads the file for its own faults).
    pub fn cabling_faults(&self) -> CablingFaults {
        let mut c = self.lock_cabling();
        if let Some(dir) = &self.dir {
            let path = dir.join("faults.yaml");
            let modified = modified(&path);
            if modified != c.0 {
                *c = (
                    modified,
                    read_faults(&path)
                        .and_then(Result::ok)
                        .map(|f| f.cabling)
                        .unwrap_or_default(),
                );
            }
        }
        c.1.clone()
    }

    /// Every command received so far, in order, with the session that sent it.
    pub fn log(&self) -> Vec<(u64, String)> {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A new session's number (1, 2, …), also counted as a login.
    pub fn login(&self) -> u64 {
        self.sessions.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Session `id` of `user` from `host` is logged in (`show users` lists it) until
    /// [`Device::logout`].
    pub fn logged_in(&self, id: u64, user: &str, host: &str) {
        self.lock().logins.insert(
            id,
            Login {
                user: user.to_string(),
                host: host.to_string(),
                active: Instant::now(),
                since: SystemTime::now(),
            },
        );
    }

    /// Session `id` ended (`exit`, EOF, a dropped connection).
    pub fn logout(&self, id: u64) {
        self.lock().logins.remove(&id);
    }

    /// A line longer than the terminal reads (`len` bytes) ended: it is logged and refused
    /// whole, nothing of it run.
    pub fn overlong(&self, id: u64, len: usize) -> Answer {
        let faults = self.reload_faults();
        let answer = |step| Answer {
            step,
            delay: Duration::from_millis(faults.faults.delay_ms),
            noise: faults.faults.noise,
        };
        self.record(id, &format!("(a line of {len} bytes, refused)"));
        answer(Step::Reply {
            output: Unconfirmed::LineTooLong.reply(&len.to_string()).output,
            close: false,
        })
    }

    /// What a login prints before the first prompt: the switch OS's banner.
    pub fn banner(&self, id: u64) -> String {
        self.lock().os().target().lab().banner(id)
    }

    /// The prompt `session` shows now.
    pub fn prompt(&self, session: &Session) -> String {
        session.prompt(&self.lock())
    }

    /// What `?` prints after `typed` (the line up to the cursor), in `session`'s mode.
    pub fn help(&self, session: &Session, typed: &str) -> String {
        session.help(&self.lock(), typed)
    }

    /// What Tab does after `typed` (the line up to the cursor), in `session`'s mode.
    pub fn complete(&self, session: &Session, typed: &str) -> super::help::Completion {
        session.complete(&self.lock(), typed)
    }

    /// A file put in the login's home folder over SCP (`scp -t`, session `id`): kept as its
    /// OS keeps it, logged as the transfer's command, persisted. `Err` says why the switch
    /// does not take it (it takes none; a name or size out of its bounds).
    pub fn put_home(&self, id: u64, name: &str, bytes: Vec<u8>) -> Result<(), String> {
        self.record(id, &format!("scp -t {name}"));
        {
            let mut sw = self.lock();
            sw.put_home(name, bytes)?;
            sw.saves += 1;
        }
        self.persist()
    }

    /// The files the switch takes over SCP ([`super::scp`]); `None`: it takes none.
    pub fn scp(&self) -> Option<&'static crate::targets::LabFiles> {
        self.lock().os().target().lab().scp()
    }

    /// One command line received by `session` (number `id`): logged, checked against the
    /// faults, run, and what changed persisted; the network told when the running config
    /// changed (every change of it counts in `Switch::revision`).
    pub fn command(&self, id: u64, session: &mut Session, line: &str) -> Answer {
        let before = self.lock().revision;
        let answer = self.run(id, session, line);
        if self.lock().revision != before {
            self.changed();
        }
        answer
    }

    fn run(&self, id: u64, session: &mut Session, line: &str) -> Answer {
        let line = line.trim_end_matches(['\r', '\n']);
        let typed = line.trim();
        let mut guard = self.reload_faults();
        let faults = &mut *guard;
        let (delay, noise) = faults.style();
        let answer = |step| Answer { step, delay, noise };
        session.enable_password = faults.faults.enable_password.clone();
        let password = session.asking_password();
        if password || typed.is_empty() || session.paging_now() {
            if password {
                // A password is never logged.
                self.record(id, "(enable password)");
            }
            let r = session.input(&mut self.lock(), line);
            return answer(Step::Reply {
                output: r.output,
                close: r.close,
            });
        }
        self.received(id, typed);
        if let Some((step, applied)) = faults.cut(typed) {
            if applied {
                let _ = session.input(&mut self.lock(), line);
                self.persist_or_say();
            }
            return answer(step);
        }
        let keep = faults.truncated(typed);
        if let Some(error) = faults.refused(typed) {
            return answer(Step::Reply {
                output: format!("{error}\n"),
                close: false,
            });
        }
        let reply = self.input_drifting(session, line, faults);
        self.persist_or_say();
        let output = match keep {
            Some(n) => reply
                .output
                .split_inclusive('\n')
                .take(n)
                .collect::<String>(),
            None => reply.output,
        };
        answer(Step::Reply {
            output,
            close: reply.close,
        })
    }

    /// A command received (`typed`, not a password): logged, a secret it sets masked as the
    /// switch's OS masks it, and its session marked active.
    fn received(&self, id: u64, typed: &str) {
        let mask = self.lock().os().target().mask();
        self.record(id, &crate::secrets::mask(typed, mask));
        if let Some(login) = self.lock().logins.get_mut(&id) {
            login.active = Instant::now();
        }
    }

    /// `line` run on the switch (with the network around it, when it reads it), then the
    /// drift fault's commands applied by hand when `line` sets it off.
    fn input_drifting(&self, session: &mut Session, line: &str, faults: &mut FaultState) -> Reply {
        let world = self.world(session, line);
        let mut sw = self.lock();
        let reply = session.input_in(&mut sw, line, world.as_ref());
        if let Some(commands) = faults.drift(line.trim()) {
            let mut hand = Session::configuring();
            for c in commands {
                hand.input(&mut sw, c);
            }
        }
        reply
    }

    /// Persists what changed; a failure is said on standard error (the command was answered).
    fn persist_or_say(&self) {
        if let Err(e) = self.persist() {
            eprintln!("{}: {e}", self.name);
        }
    }

    fn record(&self, id: u64, line: &str) {
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((id, line.to_string()));
        if let Some(dir) = &self.dir {
            let path = dir.join("commands.log");
            let written = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut f| writeln!(f, "{id}\t{line}"));
            if let Err(e) = written {
                eprintln!("{}: cannot write `{}`: {e}", self.name, path.display());
            }
        }
    }

    /// The fault state, with the control file read again if it changed since.
    fn reload_faults(&self) -> std::sync::MutexGuard<'_, FaultState> {
        let mut st = self.faults.lock().unwrap_or_else(|e| e.into_inner());
        let Some(dir) = &self.dir else { return st };
        let path = dir.join("faults.yaml");
        let modified = modified(&path);
        if modified != st.read {
            match read_faults(&path).unwrap_or(Ok(Faults::default())) {
                Ok(f) => *st = FaultState::new(f, modified),
                Err(e) => {
                    eprintln!("{}: `{}` ignored: {e}", self.name, path.display());
                    st.read = modified;
                }
            }
        }
        st
    }

    /// Writes what changed: the saved files after a save, the running config after a change
    /// when sessions are separate processes.
    fn persist(&self) -> Result<(), String> {
        let Some(dir) = &self.dir else { return Ok(()) };
        let w = self.writes();
        let saved_changed = w.first || w.own_saved || !w.files.is_empty() || !w.gone.is_empty();
        if !saved_changed && w.active.is_none() && w.running.is_none() {
            return Ok(());
        }
        if let Some(own) = self.lock().own.as_deref() {
            return own.persist(dir, w.own_saved, w.running.is_some());
        }
        let renderer = Renderer::shared()?;
        let write = |path: PathBuf, cfg: &onyx::Config| -> Result<(), String> {
            let text = renderer.render(cfg).map_err(|e| e.to_string())?;
            write_atomic(&path, text.as_bytes())
        };
        let saved = dir.join("saved");
        for (name, cfg) in &w.files {
            write(saved.join(format!("{name}.cfg")), cfg)?;
        }
        if let Some(active) = &w.active {
            write_atomic(&dir.join("active"), format!("{active}\n").as_bytes())?;
        }
        // A file deleted on the switch (`configuration delete`) is gone from the folder; on
        // the first write, any file the switch does not have.
        let stale = if w.first {
            stale_files(&saved, &self.lock().files)?
        } else {
            w.gone
                .iter()
                .map(|n| saved.join(format!("{n}.cfg")))
                .collect()
        };
        for path in stale {
            match fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(format!("cannot remove `{}`: {e}", path.display()));
                }
                _ => {}
            }
        }
        if let Some(cfg) = &w.running {
            write(dir.join("running.cfg"), cfg)?;
        }
        Ok(())
    }

    /// What changed since the last persist, noted as persisted.
    fn writes(&self) -> Writes {
        let sw = self.lock();
        let mut done = self.persisted.lock().unwrap_or_else(|e| e.into_inner());
        let mut w = Writes {
            running: (self.keep_running && done.as_ref().is_none_or(|d| d.revision != sw.revision))
                .then(|| sw.running.clone()),
            ..Writes::default()
        };
        let last = done.get_or_insert_with(|| {
            w.first = true;
            Persisted {
                saves: sw.saves,
                revision: sw.revision,
                files: BTreeMap::new(),
                active: String::new(),
            }
        });
        if w.first || last.saves != sw.saves {
            w.own_saved = sw.own.is_some();
            w.files = sw
                .files
                .iter()
                .filter(|(n, c)| last.files.get(*n) != Some(*c))
                .map(|(n, c)| (n.clone(), c.clone()))
                .collect();
            w.gone = last
                .files
                .keys()
                .filter(|n| !sw.files.contains_key(*n))
                .cloned()
                .collect();
            for n in &w.gone {
                last.files.remove(n);
            }
            last.files.extend(w.files.iter().cloned());
            w.active = (w.first || last.active != sw.active).then(|| sw.active.clone());
            last.active = sw.active.clone();
        }
        (last.saves, last.revision) = (sw.saves, sw.revision);
        w
    }
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

/// When a file was last changed; `None` when it does not exist.
pub(crate) fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The cabling faults of a switch served from `dir` by other processes (`--stdio`): its
/// control file's, none when it has none or it does not read.
pub(crate) fn cabling_faults_in(dir: &Path) -> CablingFaults {
    read_faults(&dir.join("faults.yaml"))
        .and_then(Result::ok)
        .map(|f| f.cabling)
        .unwrap_or_default()
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

/// The switch whose state is kept in `dir` by other processes, as the network reads it: as
/// the first OS that knows the folder for one of its switches reads it (the default OS, which
/// takes any folder, last); `None` when it cannot be read.
pub(crate) fn node_in(dir: &Path) -> Option<super::network::Node> {
    let default = crate::fabric::Os::default();
    crate::fabric::Os::ALL
        .into_iter()
        .filter(|os| *os != default)
        .chain([default])
        .find_map(|os| os.target().lab().node_in(dir))
}

/// The running config of a switch served from `dir` by other processes: the one its last
/// session left, else its active saved file; `None` when there is none or it cannot be read.
pub(crate) fn running_in(dir: &Path) -> Option<onyx::Config> {
    let running = dir.join("running.cfg");
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

/// Writes a file whole or not at all (a crash mid-write leaves the previous version).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes)
        .and_then(|()| fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}
