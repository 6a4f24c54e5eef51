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
//! | `STATE/leaf01/startup-configuration.cfg` | an OS10 switch's saved configuration (`write memory`), as `show running-configuration` prints it; it boots from it |
//! | `STATE/leaf01/config/NAME`, `STATE/leaf01/home/NAME` | an OS10 switch's other `config://` files, and the files of its login's home folder (`home://`, put there by SCP) |
//! | `STATE/leaf01/running.cfg` | the running configuration between `--stdio` sessions (one process per session) |
//! | `STATE/leaf01/faults.yaml` | faults to inject ([`Faults`]), the switch's cabling faults included; read again whenever it changes |
//! | `STATE/leaf01/commands.log` | every command received: `SESSION<TAB>LINE` |

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
    /// An OS10 switch's saved files changed (it persists on its own terms).
    os10_saved: bool,
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
        let os10 = self.lock().os10.is_some();
        let reads = if os10 {
            super::os10::reads_network(line)
        } else {
            session.reads_network(line)
        };
        if !reads {
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
        if let Some(os10) = fresh.os10 {
            return Device::open_os10(dir, *os10, prefer_fresh, keep_running);
        }
        let mut switch = fresh;
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
        let mut dev = Device::new(switch);
        dev.dir = Some(dir.to_path_buf());
        dev.keep_running = keep_running;
        dev.persist()?;
        Ok(dev)
    }

    /// [`Device::open`] of an OS10 switch: it boots from `STATE/NAME/startup-configuration.cfg`
    /// when there is one.
    fn open_os10(
        dir: &Path,
        mut fresh: super::os10::Os10Switch,
        prefer_fresh: bool,
        keep_running: bool,
    ) -> Result<Device, String> {
        let startup = dir.join(OS10_STARTUP);
        if !prefer_fresh && startup.exists() {
            let saved = read_os10(&startup)?;
            fresh.startup = Some(saved.clone());
            fresh.running = saved;
            fresh.startup_at = modified(&startup).unwrap_or_else(SystemTime::now);
        }
        if !prefer_fresh {
            fresh.files = read_os10_files(&dir.join(OS10_FILES))?;
            fresh.home = read_home(&dir.join(OS10_HOME))?;
        }
        let running = dir.join("running.cfg");
        if keep_running && !prefer_fresh && running.exists() {
            fresh.running = read_os10(&running)?;
        } else if running.exists() {
            let _ = fs::remove_file(&running);
        }
        let mut dev = Device::new(Switch::os10_with(fresh));
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
        match self.lock().os() {
            super::cli::Os::Onyx => format!(
                "Number of total successful connections since last 1 days: {id}\n\nNVIDIA Switch\n\n"
            ),
            super::cli::Os::Os10 => super::os10::banner().to_string(),
        }
    }

    /// The prompt `session` shows now.
    pub fn prompt(&self, session: &Session) -> String {
        session.prompt(&self.lock())
    }

    /// What `?` prints after `typed` (the line up to the cursor), in `session`'s mode.
    pub fn help(&self, session: &Session, typed: &str) -> String {
        let sw = self.lock();
        match sw.os() {
            super::cli::Os::Onyx => super::help::help(session, &sw, typed),
            super::cli::Os::Os10 => super::os10::help(typed),
        }
    }

    /// What Tab does after `typed` (the line up to the cursor), in `session`'s mode.
    pub fn complete(&self, session: &Session, typed: &str) -> super::help::Completion {
        match self.lock().os() {
            super::cli::Os::Onyx => super::help::complete(session, typed),
            // OS10's completion is not modeled: Tab inserts nothing.
            super::cli::Os::Os10 => super::help::Completion::default(),
        }
    }

    /// A file put in the login's home folder of an OS10 switch over SCP (`scp -t`, session
    /// `id`): kept as `home://NAME`, logged as the transfer's command, persisted. `Err` says
    /// why the switch does not take it (not OS10; a name or size out of its bounds).
    pub fn put_home(&self, id: u64, name: &str, bytes: Vec<u8>) -> Result<(), String> {
        self.record(id, &format!("scp -t {name}"));
        {
            let mut sw = self.lock();
            let Some(os10) = sw.os10.as_deref_mut() else {
                return Err("scp: not taken by this switch".to_string());
            };
            super::os10::put_home(os10, name, bytes)?;
            sw.saves += 1;
        }
        self.persist()
    }

    /// Whether the switch is an OS10 switch.
    pub fn is_os10(&self) -> bool {
        self.lock().os10.is_some()
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
        let mask = match self.lock().os() {
            super::cli::Os::Onyx => crate::secrets::Mask::Onyx,
            super::cli::Os::Os10 => crate::secrets::Mask::Os10,
        };
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
        let saved_changed = w.first || w.os10_saved || !w.files.is_empty() || !w.gone.is_empty();
        if !saved_changed && w.active.is_none() && w.running.is_none() {
            return Ok(());
        }
        if let Some(os10) = self.lock().os10.as_deref() {
            return persist_os10(dir, os10, w.os10_saved, w.running.is_some());
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
            w.os10_saved = sw.os10.is_some();
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

/// An OS10 switch's startup configuration in its folder, as `show running-configuration`
/// prints it (the switch keeps it as `startup.xml`; the lab keeps the text).
pub const OS10_STARTUP: &str = "startup-configuration.cfg";

/// An OS10 switch's other files of `config://` (`copy running-configuration config://NAME`),
/// one per file in this folder of its state folder, as `show running-configuration` prints
/// them.
pub const OS10_FILES: &str = "config";

/// The files of an OS10 switch's login's home folder (`home://`), one per file in this folder
/// of its state folder, as they were put there.
pub const OS10_HOME: &str = "home";

fn persist_os10(
    dir: &Path,
    sw: &super::os10::Os10Switch,
    saved: bool,
    running: bool,
) -> Result<(), String> {
    let renderer = crate::os10::Renderer::shared()?;
    if saved && let Some(startup) = &sw.startup {
        write_atomic(
            &dir.join(OS10_STARTUP),
            renderer.render(startup)?.as_bytes(),
        )?;
    }
    if saved {
        let mut configs = BTreeMap::new();
        for (name, file) in &sw.files {
            configs.insert(name.as_str(), renderer.render(&file.config)?.into_bytes());
        }
        sync_folder(&dir.join(OS10_FILES), &configs)?;
        let home = sw
            .home
            .iter()
            .map(|(n, f)| (n.as_str(), f.bytes.clone()))
            .collect();
        sync_folder(&dir.join(OS10_HOME), &home)?;
    }
    if running {
        write_atomic(
            &dir.join("running.cfg"),
            renderer.render(&sw.running)?.as_bytes(),
        )?;
    }
    Ok(())
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

/// The files of an OS10 switch's home folder kept in `folder` (none when it does not exist):
/// each with a name the switch takes and within its size bound; any other is an error.
fn read_home(folder: &Path) -> Result<BTreeMap<String, super::os10::HomeFile>, String> {
    let mut files = BTreeMap::new();
    for (path, name) in kept_files(folder)? {
        let name = name.to_string_lossy().into_owned();
        if !super::os10::valid_name(&name) || !path.is_file() {
            return Err(format!(
                "`{}`: not a file name an OS10 switch keeps",
                path.display()
            ));
        }
        let size = fs::metadata(&path).map_or(0, |m| m.len());
        if size > super::os10::MAX_HOME_FILE as u64 {
            return Err(format!(
                "`{}`: larger than the switch keeps ({} bytes)",
                path.display(),
                super::os10::MAX_HOME_FILE
            ));
        }
        let bytes =
            fs::read(&path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
        let modified = modified(&path).unwrap_or_else(SystemTime::now);
        files.insert(name, super::os10::HomeFile { bytes, modified });
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

/// The files of an OS10 switch's `config://` kept in `folder` (none when it does not exist),
/// dated when they were last written.
fn read_os10_files(folder: &Path) -> Result<BTreeMap<String, super::os10::SavedFile>, String> {
    let mut files = BTreeMap::new();
    for (path, name) in kept_files(folder)? {
        let Some(name) = name.to_str().map(str::to_string) else {
            continue;
        };
        let file = super::os10::SavedFile {
            config: read_os10(&path)?,
            modified: modified(&path).unwrap_or_else(SystemTime::now),
        };
        files.insert(name, file);
    }
    Ok(files)
}

fn read_os10(path: &Path) -> Result<crate::os10::Config, String> {
    let text = crate::input::read_string(path, crate::config_error::MAX_BYTES)?;
    crate::os10::parse(&text).map_err(|e| format!("{}:{e}", path.display()))
}

/// When a file was last changed; `None` when it does not exist.
fn modified(path: &Path) -> Option<SystemTime> {
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

/// The running config of a switch served from `dir` by other processes: the one its last
/// session left, else its active saved file; `None` when there is none or it cannot be read.
/// The switch whose state is kept in `dir`, as the network reads it: an OS10 switch's (it
/// keeps `startup-configuration.cfg`) through [`super::os10::net::view`].
pub(crate) fn node_in(dir: &Path) -> Option<super::network::Node> {
    let startup = dir.join("startup-configuration.cfg");
    if startup.exists() {
        let running = dir.join("running.cfg");
        let path = if running.exists() { running } else { startup };
        return read_os10(&path).ok().map(|c| super::os10::net::node(&c));
    }
    running_in(dir).map(|config| super::network::Node {
        config,
        os10: false,
        vlt: None,
    })
}

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
