//! A simulated switch as it is served: its state shared by every session, the faults it is
//! told to inject, the log of every command it received, and its folder in the lab's state
//! directory (host key, saved configuration files, fault control file, command log).
//!
//! The folder of a switch `leaf01` in a state directory `STATE`:
//!
//! | File | What |
//! |---|---|
//! | `STATE/leaf01/ssh_host_ed25519_key` | the host key, made on first start |
//! | `STATE/leaf01/faults.yaml` | faults to inject ([`Faults`]), the switch's cabling faults included; read again whenever it changes |
//! | `STATE/leaf01/commands.log` | every command received: `SESSION<TAB>LINE` |
//!
//! The switch keeps its saved configuration there, and its running one between `--stdio`
//! sessions (one process per session), on its OS's terms
//! ([`crate::targets::LabSwitch::persist`]; its OS's lab module says which files).

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

use super::network::{CablingFaults, Network, World};
use super::switch::{Completion, Login, Reply, Session, Switch};
use crate::targets::{ApiReply, ApiRequest, LabEffect};

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

/// What a device last wrote to its folder: `Switch::saves` and `Switch::revision` then.
struct Persisted {
    saves: u64,
    revision: u64,
}

/// What a persist must write: `first` on the first write, `saved` after a save, `running`
/// after a change when sessions are separate processes.
#[derive(Default)]
struct Writes {
    first: bool,
    saved: bool,
    running: bool,
}

/// What a switch of any OS prints for a line longer than the terminal reads
/// ([`super::term::MAX_LINE`]), refused whole: the lab's own bound, and its text a choice
/// (UNCONFIRMED on a switch).
const LINE_TOO_LONG: &str = "% Command line too long ({} bytes); not run.";

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
    pub fn new(switch: impl Into<Switch>) -> Device {
        let switch = switch.into();
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
        fresh: impl Into<Switch>,
        prefer_fresh: bool,
        keep_running: bool,
    ) -> Result<Device, String> {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
        let mut switch = fresh.into();
        switch.own.open(dir, prefer_fresh, keep_running)?;
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
        *self.lock_cabling() = (file, faults.network());
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
                        .map(|f| f.network())
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
            output: format!("{}\n", LINE_TOO_LONG.replace("{}", &len.to_string())),
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
    pub fn complete(&self, session: &Session, typed: &str) -> Completion {
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

    /// Whether the switch serves an HTTP API, and under which path.
    pub fn api_prefix(&self) -> Option<&'static str> {
        self.lock().own.api_prefix()
    }

    /// One request to the switch's HTTP API on connection `id`: logged (method, path and
    /// query; never the body), run, what changed persisted and told to the network.
    pub fn api(&self, id: u64, request: &ApiRequest<'_>) -> ApiReply {
        let query = match request.query {
            "" => String::new(),
            q => format!("?{q}"),
        };
        self.record(id, &format!("{} {}{query}", request.method, request.path));
        let mut effect = LabEffect::default();
        let reply = {
            let mut sw = self.lock();
            let reply = sw.own.api(request, &mut effect);
            sw.revision += u64::from(effect.changed);
            sw.saves += u64::from(effect.saved);
            reply
        };
        self.persist_or_say();
        if effect.changed {
            self.changed();
        }
        reply
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
        if !w.saved && !w.running {
            return Ok(());
        }
        self.lock().own.persist(dir, w.first, w.saved, w.running)
    }

    /// What changed since the last persist, noted as persisted.
    fn writes(&self) -> Writes {
        let sw = self.lock();
        let mut done = self.persisted.lock().unwrap_or_else(|e| e.into_inner());
        let mut w = Writes {
            running: self.keep_running && done.as_ref().is_none_or(|d| d.revision != sw.revision),
            ..Writes::default()
        };
        let last = done.get_or_insert_with(|| {
            w.first = true;
            Persisted {
                saves: sw.saves,
                revision: sw.revision,
            }
        });
        w.saved = w.first || last.saves != sw.saves;
        (last.saves, last.revision) = (sw.saves, sw.revision);
        w
    }
}

/// A switch's running configuration between `--stdio` sessions (one process per session), in
/// its folder.
pub(crate) const RUNNING: &str = "running.cfg";

/// The running configuration the last session left in the folder `dir`, to boot from when
/// `kept`; else it is removed (a reboot: the switch runs what it boots from).
pub(crate) fn left_running(dir: &Path, kept: bool) -> Option<PathBuf> {
    let running = dir.join(RUNNING);
    if !running.exists() {
        return None;
    }
    if kept {
        return Some(running);
    }
    let _ = fs::remove_file(&running);
    None
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
        .map(|f| f.network())
        .unwrap_or_default()
}

/// The switch whose state is kept in `dir` by other processes, as the network reads it: as
/// the first OS that knows the folder for one of its switches reads it (the default OS, which
/// takes any folder, last); `None` when it cannot be read.
pub(crate) fn node_in(dir: &Path) -> Option<super::network::Node> {
    let default = crate::fabric::Os::default();
    crate::fabric::Os::all()
        .filter(|os| *os != default)
        .chain([default])
        .find_map(|os| os.target().lab().node_in(dir))
}

/// Writes a file whole or not at all (a crash mid-write leaves the previous version).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, bytes)
        .and_then(|()| fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}
