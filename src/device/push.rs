//! One switch's push, in any switch OS (the OS's parts through [`crate::targets::Intent`] and
//! [`crate::targets::Push`]), with the safety Onyx does not have (no candidate config, no
//! commit confirm, no rollback):
//!
//! 1. plan from the fetched running config (a fetch is used only when it is whole);
//! 2. refuse when another CLI session is on the switch (`show users`: it may be configuring);
//! 3. snapshot the config: a local backup, and a file on the switch (Onyx `configuration
//!    write to NAME no-switch`, OS10 `copy running-configuration config://NAME.xml`) under a
//!    name no other push takes (`fabric-<time to the ms>-<random>`);
//! 4. re-fetch just before applying and abort untouched if it changed;
//! 5. apply, stopping at the first error reply, timeout, or stop request (a signal); on an
//!    OS10 release with transaction mode, inside `start transaction` … `commit`, so nothing
//!    takes effect before the commit and a failure before it is `discard`ed;
//! 6. verify by re-fetching and re-planning; on an OS whose commit the switch rolls back by
//!    itself unless confirmed, confirm it now, after the verify (a failure before the confirm
//!    rolls back as any other; a session lost between the commit and the confirm leaves the
//!    commit unconfirmed, for the switch to roll back by itself, the roll-back below on a new
//!    session notwithstanding);
//! 7. save only a verified (and confirmed) state (`configuration write`, `write memory`).
//!    When the save's reply is lost or refused, read back whether the switch saved (Onyx
//!    `show configuration files`, OS10 `show startup-configuration`, and the running config,
//!    on a new session if the old one is gone) and report that;
//! 8. after a verified, saved push, delete the oldest `fabric-…` snapshots beyond the last N
//!    (Onyx `configuration delete NAME`, OS10 `delete config://NAME`, answered `yes`).
//!
//! Any failure after the first command: roll back what the push changed (nothing else: what
//! the push did not touch stays as it is now), on a new session if the old one dropped or
//! hung; verify (and confirm the roll-back's own commit where commits are confirmed); never
//! save.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::session::TranscriptStatus;
use super::{Cli, Error, Options, Target};
use crate::diff::Impact;
/// What one switch should run, as its OS plans a push (shared by the jobs that read it).
pub type Intent = std::sync::Arc<dyn crate::targets::Intent>;
/// One switch's push as its OS keeps it.
pub type State = Box<dyn crate::targets::Push>;

/// `20261122T042233Z`: UTC, sortable, safe in file names.
pub fn stamp() -> String {
    let (y, mo, d, h, mi, s) = crate::types::utc_now();
    format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

/// A snapshot's name, new for every push: `fabric-20261122T042233.481Z-3f9a1c2b` (the time to
/// the millisecond, so names sort by time; and random, so two pushes in one millisecond, from
/// two machines, still differ).
pub fn snapshot_name() -> String {
    let (y, mo, d, h, mi, s) = crate::types::utc_now();
    let ms = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |t| t.subsec_millis());
    let mut random = [0u8; 4];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut random));
    if read.is_err() {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |t| t.subsec_nanos());
        random = (nanos ^ std::process::id().rotate_left(16)).to_le_bytes();
    }
    let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
    format!("fabric-{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}.{ms:03}Z-{hex}")
}

/// Whether a saved file on the switch is a push's snapshot: `fabric-<time>` as earlier
/// pushes named them, or [`snapshot_name`]'s form, then the OS's `suffix` (OS10's `.xml`).
/// Nothing else is ever pruned.
pub fn is_snapshot_file(name: &str, suffix: &str) -> bool {
    name.strip_suffix(suffix).is_some_and(is_snapshot)
}

/// [`is_snapshot_file`] without a suffix.
pub fn is_snapshot(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("fabric-") else {
        return false;
    };
    let b = rest.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r)
            .is_some_and(|d| !d.is_empty() && d.iter().all(u8::is_ascii_digit))
    };
    if !(digits(0..8) && b.get(8) == Some(&b'T') && digits(9..15)) {
        return false;
    }
    let mut at = 15;
    if b.get(at) == Some(&b'.') {
        if !digits(16..19) {
            return false;
        }
        at = 19;
    }
    if b.get(at) != Some(&b'Z') {
        return false;
    }
    match &b[at + 1..] {
        [] => true,
        [b'-', hex @ ..] => hex.len() == 8 && hex.iter().all(u8::is_ascii_hexdigit),
        _ => false,
    }
}

/// Snapshots kept on a switch after a push, unless told otherwise.
pub const KEEP_SNAPSHOTS: usize = 10;

/// What to push to one switch.
#[derive(Clone, Debug)]
pub struct Job {
    pub target: Target,
    pub intent: Intent,
}

/// A switch's plan, with the session it was made on (one session per switch).
pub struct Planned {
    pub cli: Cli,
    /// The running config as fetched (its text: the backup).
    pub text: String,
    pub state: State,
}

/// Connects in the switch's OS's dialect, fetches the running config and plans.
pub fn plan(job: &Job, opts: &Options) -> Result<Planned, Error> {
    let mut cli = Cli::open_as(&job.target, opts, job.intent.intended().target().dialect())?;
    let (text, state) = job.intent.plan(&mut cli)?;
    Ok(Planned { cli, text, state })
}

/// Where a push is, for progress displays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Sessions,
    Snapshot,
    DriftGuard,
    Applying { done: usize, of: usize },
    Verifying,
    Confirming,
    Saving,
    Pruning,
    RollingBack,
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stage::Sessions => f.write_str("checking sessions"),
            Stage::Snapshot => f.write_str("snapshot"),
            Stage::DriftGuard => f.write_str("drift guard"),
            Stage::Applying { done, of } => write!(f, "applying {done}/{of}"),
            Stage::Verifying => f.write_str("verifying"),
            Stage::Confirming => f.write_str("confirming the commit"),
            Stage::Saving => f.write_str("saving"),
            Stage::Pruning => f.write_str("deleting old snapshots"),
            Stage::RollingBack => f.write_str("rolling back"),
        }
    }
}

/// How a switch's push ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to do.
    Unchanged,
    /// Applied, verified and saved (the save read back when its reply was lost).
    Converged,
    /// Stopped before any configuration command was sent; the switch is untouched.
    Aborted(String),
    /// A failure after commands were sent; what the push changed is back at the snapshot's
    /// values (verified), nothing saved.
    RolledBack { error: String },
    /// A failure, and the roll-back failed too: the running config is neither (never saved).
    RollbackFailed { error: String, rollback: String },
}

impl Outcome {
    pub fn ok(&self) -> bool {
        matches!(self, Outcome::Unchanged | Outcome::Converged)
    }
}

/// One switch's result.
#[derive(Clone, Debug)]
pub struct Report {
    pub name: String,
    pub outcome: Outcome,
    /// Configuration commands sent (the plan's, then the roll-back's).
    pub sent: usize,
    pub elapsed: Duration,
    pub backup: Option<PathBuf>,
    /// The snapshot's name on the switch.
    pub snapshot: Option<String>,
    /// Every session's transcript, in order: the plan's, then a read-back's or roll-back's.
    pub transcripts: Vec<TranscriptStatus>,
    /// What else happened that the summary says (a save read back, snapshots deleted).
    pub notes: Vec<String>,
}

impl Report {
    /// A switch nothing was done to yet.
    pub fn new(name: &str, outcome: Outcome) -> Report {
        Report {
            name: name.to_string(),
            outcome,
            sent: 0,
            elapsed: Duration::ZERO,
            backup: None,
            snapshot: None,
            transcripts: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Why a transcript of this push is missing or incomplete, one line each.
    pub fn transcript_errors(&self) -> Vec<String> {
        self.transcripts.iter().filter_map(|t| t.error()).collect()
    }
}

/// What a push may do.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    pub allow_disruptive: bool,
    /// `fabric-…` snapshots kept on a switch after a verified push (the newest ones).
    pub keep_snapshots: usize,
    /// Push even when `show users` lists another session.
    pub other_sessions: bool,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            allow_disruptive: false,
            keep_snapshots: KEEP_SNAPSHOTS,
            other_sessions: false,
        }
    }
}

/// How a push reports progress and learns it must stop: `stop` returns why (a signal) once
/// the push must stop. A switch not yet changed is then left untouched, one being changed
/// is rolled back; a verified one saving finishes.
pub struct Control<'a> {
    pub progress: &'a dyn Fn(Stage),
    pub stop: &'a dyn Fn() -> Option<String>,
}

/// Pushes one switch's plan; never panics on what the switch does.
pub fn push(
    planned: Planned,
    job: &Job,
    opts: &Options,
    policy: Policy,
    backups: &Path,
    control: &Control,
) -> Report {
    let start = Instant::now();
    let mut report = Report::new(&job.target.name, Outcome::Unchanged);
    report.transcripts.push(planned.cli.transcript());
    report.outcome = run(planned, job, opts, policy, backups, control, &mut report);
    report.elapsed = start.elapsed();
    report
}

/// The sessions of `show users` that are not this one: the row marked `*` is this one; an
/// unmarked listing (OS10's) holds this session as one of `user`'s rows, taken to be the
/// last (sessions are listed in the order they logged in, and this one logged in just now).
fn others(list: &[super::session::Login], user: &str) -> Vec<String> {
    let mut rest: Vec<&super::session::Login> = list.iter().collect();
    match rest.iter().position(|l| l.me) {
        Some(i) => {
            rest.remove(i);
        }
        None => {
            if let Some(i) = rest.iter().rposition(|l| l.user == user) {
                rest.remove(i);
            }
        }
    }
    rest.iter().map(|l| l.to_string()).collect()
}

/// One switch's push after its plan: the checks before anything is sent, the snapshot, the
/// drift guard, then the plan applied and verified, saved, or rolled back.
fn run(
    mut p: Planned,
    job: &Job,
    opts: &Options,
    policy: Policy,
    backups: &Path,
    control: &Control,
    report: &mut Report,
) -> Outcome {
    let progress = control.progress;
    if p.state.is_empty() {
        p.cli.close();
        return Outcome::Unchanged;
    }
    let before = refused(&p, policy, control)
        .or_else(|| busy(&mut p, job, policy, progress))
        .map(Err)
        .unwrap_or(Ok(()));
    if let Err(why) = before {
        p.cli.close();
        return Outcome::Aborted(why);
    }
    let ready = snapshot(&mut p, job, backups, progress, report)
        .and_then(|()| drift_guard(&mut p, control));
    match ready {
        Ok(()) => {}
        Err(Stop::Closing(why)) => {
            p.cli.close();
            return Outcome::Aborted(why);
        }
        Err(Stop::Now(why)) => return Outcome::Aborted(why),
    }
    let transaction = p.state.transactions();
    let error = match apply(&mut p, opts, control, report) {
        Ok(()) => return save(p, job, opts, policy, progress, report),
        Err(e) => e,
    };
    let mut cli = error.session_usable().then_some(p.cli);
    let mut error = error.to_string();
    if transaction && let Some(c) = cli.as_mut() {
        // What the transaction holds is dropped; whatever `commit` applied is rolled back.
        match c.discard() {
            Ok(()) => error.push_str("; the transaction was discarded"),
            Err(e) if e.session_usable() => {}
            Err(_) => cli = None,
        }
    }
    rollback(cli, job, opts, &p.state, progress, report, error)
}

/// Why the plan is not sent at all: a disruptive command without `--allow-disruptive`, or a
/// stop asked before the start.
fn refused(p: &Planned, policy: Policy, control: &Control) -> Option<String> {
    if !policy.allow_disruptive {
        let disruptive: Vec<String> = p
            .state
            .shown()
            .into_iter()
            .filter(|(_, impact)| *impact == Impact::Disruptive)
            .map(|(command, _)| command)
            .collect();
        if !disruptive.is_empty() {
            return Some(format!(
                "{} disruptive command(s) refused without `--allow-disruptive` (first: `{}`)",
                disruptive.len(),
                disruptive[0]
            ));
        }
    }
    (control.stop)().map(|why| format!("{why}: not started"))
}

/// Why another session may be changing the switch now. Neither OS has a configuration lock
/// (an OS10 transaction holds only its own session's changes).
fn busy(p: &mut Planned, job: &Job, policy: Policy, progress: &dyn Fn(Stage)) -> Option<String> {
    if policy.other_sessions {
        return None;
    }
    progress(Stage::Sessions);
    match p.cli.sessions() {
        Ok(list) => {
            let others = others(&list, &job.target.user);
            (!others.is_empty()).then(|| {
                format!(
                    "another CLI session is open on the switch and may be configuring it: {} (`--allow-other-sessions` pushes anyway)",
                    others.join(", ")
                )
            })
        }
        Err(e) => Some(format!(
            "cannot tell whether another session is configuring the switch: {e} (`--allow-other-sessions` pushes without asking)"
        )),
    }
}

/// Why a push stops before sending anything: with the session closed first, or at once (the
/// session failed).
enum Stop {
    Closing(String),
    Now(String),
}

/// Snapshot: the fetched config locally, and as a saved file on the switch.
fn snapshot(
    p: &mut Planned,
    job: &Job,
    backups: &Path,
    progress: &dyn Fn(Stage),
    report: &mut Report,
) -> Result<(), Stop> {
    progress(Stage::Snapshot);
    let name = snapshot_name();
    let file = backups.join(&job.target.name).join(format!("{name}.cfg"));
    if let Err(e) = write_new(&file, p.text.as_bytes()) {
        return Err(Stop::Closing(format!(
            "cannot write the backup `{}`: {e}",
            file.display()
        )));
    }
    report.backup = Some(file);
    let snapshots = p.cli.dialect().snapshots;
    let name = format!("{name}{}", snapshots.suffix);
    if let Err(e) = p.cli.run(&snapshots.write.replace("{}", &name)) {
        return Err(Stop::Now(format!("snapshot on the switch failed: {e}")));
    }
    report
        .notes
        .push(format!("snapshot on the switch: `{name}`"));
    report.snapshot = Some(name);
    Ok(())
}

/// Drift guard: the plan holds only for the config it was made from; and a stop asked now
/// still sends nothing.
fn drift_guard(p: &mut Planned, control: &Control) -> Result<(), Stop> {
    (control.progress)(Stage::DriftGuard);
    match p.state.unchanged(&mut p.cli) {
        Ok(true) => {}
        Ok(false) => {
            return Err(Stop::Closing(
                "the running config changed since the plan was made; nothing sent".into(),
            ));
        }
        Err(e) => return Err(Stop::Now(format!("drift guard: {e}"))),
    }
    match (control.stop)() {
        Some(why) => Err(Stop::Closing(format!("{why}: not started"))),
        None => Ok(()),
    }
}

/// Apply; where the switch has transactions, inside one: nothing takes effect before
/// `commit`, and a failure before it is discarded. Then verify that nothing still differs,
/// and confirm the commit where the switch would roll it back by itself.
fn apply(
    p: &mut Planned,
    opts: &Options,
    control: &Control,
    report: &mut Report,
) -> Result<(), Error> {
    let progress = control.progress;
    let lines = p.state.lines();
    let of = lines.len();
    let started = Instant::now();
    let transaction = p.state.transactions();
    if transaction {
        p.cli.begin()?;
    }
    p.cli.configure()?;
    for (done, line) in lines.iter().enumerate() {
        progress(Stage::Applying { done, of });
        if let Some(why) = (control.stop)() {
            return Err(Error::Stopped(format!(
                "{why} after {done} of {of} command(s)"
            )));
        }
        if started.elapsed() > opts.switch_timeout {
            return Err(Error::Timeout {
                command: format!("{line} (the switch's time is up)"),
            });
        }
        report.sent += 1;
        p.cli.run(line)?;
    }
    p.cli.leave_config()?;
    if transaction {
        p.cli.commit()?;
    }
    progress(Stage::Verifying);
    if let Some((n, first)) = p.state.left(&mut p.cli)? {
        return Err(Error::Refused {
            command: "(verify)".into(),
            reply: format!("{n} command(s) still differ after applying, first `{first}`"),
        });
    }
    if transaction && confirms(&p.cli) {
        progress(Stage::Confirming);
        p.cli.confirm()?;
    }
    Ok(())
}

/// Whether the session's OS rolls back a commit by itself unless it is confirmed.
fn confirms(cli: &Cli) -> bool {
    cli.dialect()
        .transaction
        .is_some_and(|t| t.confirm.is_some())
}

/// The save (`configuration write`, `write memory`), and when its reply is lost or refused,
/// what the switch did: read back on a new session if this one is gone. Saved and at the
/// target: converged. Not saved: rolled back, the saved configuration untouched.
fn save(
    mut p: Planned,
    job: &Job,
    opts: &Options,
    policy: Policy,
    progress: &dyn Fn(Stage),
    report: &mut Report,
) -> Outcome {
    progress(Stage::Saving);
    let save = p.cli.dialect().save;
    let failed = match p.cli.save() {
        Ok(()) => {
            prune(&mut p.cli, policy.keep_snapshots, progress, report);
            p.cli.close();
            return Outcome::Converged;
        }
        Err(e) => e,
    };
    let cli = if failed.session_usable() {
        Ok(p.cli)
    } else {
        reopen(job, opts, report)
    };
    let mut cli = match cli {
        Ok(c) => c,
        Err(e) => {
            let error =
                format!("`{save}` failed ({failed}); whether it saved could not be read back: {e}");
            return rollback(None, job, opts, &p.state, progress, report, error);
        }
    };
    match p.state.read_save(&mut cli) {
        Ok(read) if read.saved && read.at_target => {
            report.notes.push(format!(
                "`{save}` failed ({failed}), but the switch saved: read back, no unsaved changes and the running config is the target"
            ));
            prune(&mut cli, policy.keep_snapshots, progress, report);
            cli.close();
            Outcome::Converged
        }
        Ok(read) => {
            let state = if read.saved {
                "saved, but the running config is not the target"
            } else {
                "not saved"
            };
            let error = format!("`{save}` failed ({failed}); read back: {state}");
            rollback(Some(cli), job, opts, &p.state, progress, report, error)
        }
        Err(e) => {
            let error =
                format!("`{save}` failed ({failed}); whether it saved could not be read back: {e}");
            let cli = e.session_usable().then_some(cli);
            rollback(cli, job, opts, &p.state, progress, report, error)
        }
    }
}

/// After a verified push: the `fabric-…` snapshots on the switch beyond the newest `keep`
/// are deleted (Onyx `configuration delete NAME`, OS10 `delete config://NAME`), never another
/// file, never the one the switch boots from.
fn prune(cli: &mut Cli, keep: usize, progress: &dyn Fn(Stage), report: &mut Report) {
    progress(Stage::Pruning);
    let how = cli.dialect().snapshots;
    let files = match cli.snapshot_files() {
        Ok(f) => f,
        Err(e) => {
            report.notes.push(format!("old snapshots not deleted: {e}"));
            return;
        }
    };
    let mut ours: Vec<&String> = files
        .iter()
        .filter(|n| is_snapshot_file(n, how.suffix))
        .collect();
    ours.sort();
    let excess = ours.len().saturating_sub(keep);
    if excess == 0 {
        return;
    }
    let mut deleted = Vec::new();
    if how.delete_in_config
        && let Err(e) = cli.configure()
    {
        report.notes.push(format!("old snapshots not deleted: {e}"));
        return;
    }
    for name in &ours[..excess] {
        let command = how.delete.replace("{}", name);
        let done = if how.delete_asks {
            cli.run_confirmed(&command)
        } else {
            cli.run(&command)
        };
        match done {
            Ok(_) => deleted.push(name.as_str()),
            Err(e) => {
                report
                    .notes
                    .push(format!("old snapshot `{name}` not deleted: {e}"));
                if !e.session_usable() {
                    return;
                }
            }
        }
    }
    let _ = cli.leave_config();
    if !deleted.is_empty() {
        report.notes.push(format!(
            "{} old snapshot(s) deleted on the switch, the newest {keep} kept: {}",
            deleted.len(),
            deleted.join(", ")
        ));
    }
}

/// A new session to the switch, its transcript reported with the push's.
fn reopen(job: &Job, opts: &Options, report: &mut Report) -> Result<Cli, Error> {
    let cli = Cli::open_as(&job.target, opts, job.intent.intended().target().dialect())?;
    report.transcripts.push(cli.transcript());
    Ok(cli)
}

/// Back to the snapshot: from the state now (read again, on a new session if the old one is
/// gone), undo what the push changed ([`State::back`]), inside a transaction where the
/// switch has them; verify, then confirm that transaction's commit where commits are
/// confirmed (unverified, it is left to the switch to roll back). Never saves.
fn rollback(
    cli: Option<Cli>,
    job: &Job,
    opts: &Options,
    state: &State,
    progress: &dyn Fn(Stage),
    report: &mut Report,
    error: String,
) -> Outcome {
    progress(Stage::RollingBack);
    let done = (|| {
        let mut cli = match cli {
            Some(c) => c,
            None => reopen(job, opts, report)?,
        };
        cli.leave_config()?;
        let lines = state.back(&mut cli)?;
        let committed = !lines.is_empty() && state.transactions();
        if !lines.is_empty() {
            if committed {
                cli.begin()?;
            }
            cli.configure()?;
            for line in &lines {
                report.sent += 1;
                cli.run(line)?;
            }
            cli.leave_config()?;
            if committed {
                cli.commit()?;
            }
        }
        let left = state.back_left(&mut cli)?;
        if left != 0 {
            let unconfirmed = if committed && confirms(&cli) {
                "; its commit is left unconfirmed, for the switch to roll back"
            } else {
                ""
            };
            cli.close();
            return Err(Error::Refused {
                command: "(verify roll-back)".into(),
                reply: format!("{left} command(s) still differ from the snapshot{unconfirmed}"),
            });
        }
        if committed {
            cli.confirm()?;
        }
        cli.close();
        Ok(())
    })();
    match done {
        Ok(()) => Outcome::RolledBack { error },
        Err(e) => Outcome::RollbackFailed {
            error,
            rollback: e.to_string(),
        },
    }
}

/// Writes a new file whole or not at all: into a temporary file of its own, synced, then
/// renamed; on failure (a full disk) the temporary file is removed and nothing is left.
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_names_are_new_each_time_and_recognised() {
        let (a, b) = (snapshot_name(), snapshot_name());
        assert_ne!(a, b, "two pushes in one second take one name");
        assert!(is_snapshot(&a) && is_snapshot(&b), "{a} {b}");
        assert!(is_snapshot("fabric-20261122T042233Z"));
        for other in [
            "initial",
            "initial.bak",
            "fabric-20261122T042233Z.bak",
            "fabric-2026112T042233Z",
            "fabric-20261122T042233.48Z-3f9a1c2b",
            "fabric-20261122T042233Z-3f9a1c2",
            "fabric-notes",
            "my-fabric-20261122T042233Z",
        ] {
            assert!(!is_snapshot(other), "{other}");
        }
        assert!(is_snapshot_file(&format!("{a}.xml"), ".xml"));
        assert!(!is_snapshot_file(&a, ".xml"));
        assert!(!is_snapshot_file("startup.xml", ".xml"));
        assert!(!is_snapshot_file(&format!("{a}.xml.bak"), ".xml"));
    }
}
