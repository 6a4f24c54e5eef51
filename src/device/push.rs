//! One switch's push, with the safety Onyx does not have (no candidate config, no commit
//! confirm, no rollback):
//!
//! 1. plan from the fetched running config (a fetch is used only when it is whole);
//! 2. refuse when another CLI session is on the switch (`show users`: it may be configuring);
//! 3. snapshot the config: a local backup, and on the switch `configuration write to NAME
//!    no-switch` under a name no other push takes (`fabric-<time to the ms>-<random>`);
//! 4. re-fetch just before applying and abort untouched if it changed;
//! 5. apply, stopping at the first `%` error, timeout, or stop request (a signal);
//! 6. verify by re-fetching and re-planning; save only a verified state. When the save's reply
//!    is lost or refused, read back whether the switch saved (`show configuration files` and
//!    the running config, on a new session if the old one is gone) and report that;
//! 7. after a verified, saved push, delete the oldest `fabric-…` snapshots beyond the last N.
//!
//! Any failure after the first command: roll back what the push changed, to the snapshot's
//! values (nothing else: what the push did not touch stays as it is now), on a new session if
//! the old one dropped or hung; verify; never save.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::session::TranscriptStatus;
use super::{Cli, Error, Options, Target};
use crate::diff::{Impact, Scope, Step};
use crate::onyx::{Config, Interface};
use crate::types::{TcMap, TrafficClass};

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
/// pushes named them, or [`snapshot_name`]'s form. Nothing else is ever pruned.
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
    pub intended: Config,
    pub scope: Scope,
}

/// A switch's plan, with the session it was made on (one session per switch).
pub struct Planned {
    pub cli: Cli,
    /// The running config as fetched, text and model.
    pub text: String,
    pub running: Config,
    pub target: Config,
    pub steps: Vec<Step>,
}

/// Connects, fetches the running config and plans.
pub fn plan(job: &Job, opts: &Options) -> Result<Planned, Error> {
    let mut cli = Cli::open(&job.target, opts)?;
    let (text, running) = cli.fetch()?;
    let target = crate::diff::target(&running, &job.intended, &job.scope);
    let steps = crate::diff::plan(&running, &target);
    Ok(Planned {
        cli,
        text,
        running,
        target,
        steps,
    })
}

/// Where a push is, for progress displays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Sessions,
    Snapshot,
    DriftGuard,
    Applying { done: usize, of: usize },
    Verifying,
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
/// unmarked listing holds this session as one of `user`'s rows.
fn others(list: &[super::session::Login], user: &str) -> Vec<String> {
    let mut rest: Vec<&super::session::Login> = list.iter().collect();
    match rest.iter().position(|l| l.me) {
        Some(i) => {
            rest.remove(i);
        }
        None => {
            if let Some(i) = rest.iter().position(|l| l.user == user) {
                rest.remove(i);
            }
        }
    }
    rest.iter().map(|l| l.to_string()).collect()
}

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
    if p.steps.is_empty() {
        p.cli.close();
        return Outcome::Unchanged;
    }
    if !policy.allow_disruptive {
        let disruptive: Vec<String> = p
            .steps
            .iter()
            .filter(|s| s.impact == Impact::Disruptive)
            .map(|s| s.command.to_string())
            .collect();
        if !disruptive.is_empty() {
            p.cli.close();
            return Outcome::Aborted(format!(
                "{} disruptive command(s) refused without `--allow-disruptive` (first: `{}`)",
                disruptive.len(),
                disruptive[0]
            ));
        }
    }
    if let Some(why) = (control.stop)() {
        p.cli.close();
        return Outcome::Aborted(format!("{why}: not started"));
    }

    // Onyx has no configuration lock: another session may be changing the switch now.
    if !policy.other_sessions {
        progress(Stage::Sessions);
        let busy = match p.cli.sessions() {
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
        };
        if let Some(why) = busy {
            p.cli.close();
            return Outcome::Aborted(why);
        }
    }

    // Snapshot: the fetched config locally, and on the switch.
    progress(Stage::Snapshot);
    let name = snapshot_name();
    let file = backups.join(&job.target.name).join(format!("{name}.cfg"));
    if let Err(e) = write_new(&file, p.text.as_bytes()) {
        p.cli.close();
        return Outcome::Aborted(format!("cannot write the backup `{}`: {e}", file.display()));
    }
    report.backup = Some(file);
    if let Err(e) = p
        .cli
        .run(&format!("configuration write to {name} no-switch"))
    {
        return Outcome::Aborted(format!("snapshot on the switch failed: {e}"));
    }
    report.snapshot = Some(name);

    // Drift guard: the plan holds only for the config it was made from.
    progress(Stage::DriftGuard);
    match p.cli.fetch() {
        Ok((_, now)) if now == p.running => {}
        Ok(_) => {
            p.cli.close();
            return Outcome::Aborted(
                "the running config changed since the plan was made; nothing sent".into(),
            );
        }
        Err(e) => return Outcome::Aborted(format!("drift guard: {e}")),
    }
    if let Some(why) = (control.stop)() {
        p.cli.close();
        return Outcome::Aborted(format!("{why}: not started"));
    }

    // Apply.
    let of = p.steps.len();
    let started = Instant::now();
    let applied = (|| {
        p.cli.configure()?;
        for (done, step) in p.steps.iter().enumerate() {
            progress(Stage::Applying { done, of });
            if let Some(why) = (control.stop)() {
                return Err(Error::Stopped(format!(
                    "{why} after {done} of {of} command(s)"
                )));
            }
            if started.elapsed() > opts.switch_timeout {
                return Err(Error::Timeout {
                    command: format!("{} (the switch's time is up)", step.command),
                });
            }
            report.sent += 1;
            p.cli.run(&step.command.to_string())?;
        }
        p.cli.leave_config()?;
        progress(Stage::Verifying);
        let (_, now) = p.cli.fetch()?;
        let left = crate::diff::plan(&now, &p.target);
        if !left.is_empty() {
            return Err(Error::Refused {
                command: "(verify)".into(),
                reply: format!(
                    "{} command(s) still differ after applying, first `{}`",
                    left.len(),
                    left[0].command
                ),
            });
        }
        Ok(())
    })();
    let error = match applied {
        Ok(()) => return save(p, job, opts, policy, progress, report),
        Err(e) => e,
    };
    let cli = error.session_usable().then_some(p.cli);
    let back = Back {
        before: &p.running,
        pushed: &p.target,
    };
    rollback(cli, job, opts, back, progress, report, error.to_string())
}

/// `configuration write`, and when its reply is lost or refused, what the switch did: read
/// back on a new session if this one is gone. Saved and at the target: converged. Not saved:
/// rolled back, the saved configuration untouched.
fn save(
    mut p: Planned,
    job: &Job,
    opts: &Options,
    policy: Policy,
    progress: &dyn Fn(Stage),
    report: &mut Report,
) -> Outcome {
    progress(Stage::Saving);
    let failed = match p.cli.run("configuration write") {
        Ok(_) => {
            prune(&mut p.cli, policy.keep_snapshots, progress, report);
            p.cli.close();
            return Outcome::Converged;
        }
        Err(e) => e,
    };
    let back = Back {
        before: &p.running,
        pushed: &p.target,
    };
    let cli = if failed.session_usable() {
        p.cli
    } else {
        drop(p.cli);
        match reopen(job, opts, report) {
            Ok(c) => c,
            Err(e) => {
                return Outcome::RollbackFailed {
                    error: format!("`configuration write` failed: {failed}"),
                    rollback: format!(
                        "cannot reconnect to read back whether the switch saved ({e}); it runs the pushed config, saved or not (`show configuration files` says)"
                    ),
                };
            }
        }
    };
    let mut cli = cli;
    let read = (|| {
        let files = cli.files()?;
        let (_, now) = cli.fetch()?;
        Ok::<_, Error>((files, now))
    })();
    match read {
        Ok((files, now)) if !files.unsaved && crate::diff::plan(&now, &p.target).is_empty() => {
            report.notes.push(format!(
                "`configuration write` failed ({failed}), but the switch saved: read back, no unsaved changes and the running config is the target"
            ));
            prune(&mut cli, policy.keep_snapshots, progress, report);
            cli.close();
            Outcome::Converged
        }
        Ok((files, _)) => {
            let state = if files.unsaved {
                "not saved"
            } else {
                "saved, but the running config is not the target"
            };
            let error = format!("`configuration write` failed ({failed}); read back: {state}");
            rollback(Some(cli), job, opts, back, progress, report, error)
        }
        Err(e) => {
            let error = format!(
                "`configuration write` failed ({failed}); whether it saved could not be read back: {e}"
            );
            let cli = e.session_usable().then_some(cli);
            rollback(cli, job, opts, back, progress, report, error)
        }
    }
}

/// After a verified push: the `fabric-…` snapshots on the switch beyond the newest `keep`
/// are deleted (`configuration delete NAME`), never another file, never the active one.
fn prune(cli: &mut Cli, keep: usize, progress: &dyn Fn(Stage), report: &mut Report) {
    progress(Stage::Pruning);
    let files = match cli.files() {
        Ok(f) => f,
        Err(e) => {
            report.notes.push(format!("old snapshots not deleted: {e}"));
            return;
        }
    };
    let mut ours: Vec<&String> = files
        .names
        .iter()
        .filter(|n| is_snapshot(n) && **n != files.active)
        .collect();
    ours.sort();
    let excess = ours.len().saturating_sub(keep);
    if excess == 0 {
        return;
    }
    let mut deleted = Vec::new();
    if let Err(e) = cli.configure() {
        report.notes.push(format!("old snapshots not deleted: {e}"));
        return;
    }
    for name in &ours[..excess] {
        match cli.run(&format!("configuration delete {name}")) {
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
    let cli = Cli::open(&job.target, opts)?;
    report.transcripts.push(cli.transcript());
    Ok(cli)
}

/// What a roll-back goes back to: the snapshot's values of what the push changed.
#[derive(Clone, Copy)]
struct Back<'a> {
    /// The running config the push started from (the snapshot), whole.
    before: &'a Config,
    /// The config the push was making.
    pushed: &'a Config,
}

/// Back to the snapshot: from the state now (read again, on a new session if the old one is
/// gone), put back what the push changed, verify. Never saves.
fn rollback(
    cli: Option<Cli>,
    job: &Job,
    opts: &Options,
    back: Back,
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
        let (_, now) = cli.fetch()?;
        let target = restore(&now, back.before, back.pushed);
        let steps = crate::diff::plan(&now, &target);
        if !steps.is_empty() {
            cli.configure()?;
            for step in &steps {
                report.sent += 1;
                cli.run(&step.command.to_string())?;
            }
            cli.leave_config()?;
        }
        let (_, after) = cli.fetch()?;
        let left = crate::diff::plan(&after, &restore(&after, back.before, back.pushed));
        cli.close();
        if left.is_empty() {
            Ok(())
        } else {
            Err(Error::Refused {
                command: "(verify roll-back)".into(),
                reply: format!("{} command(s) still differ from the snapshot", left.len()),
            })
        }
    })();
    match done {
        Ok(()) => Outcome::RolledBack { error },
        Err(e) => Outcome::RollbackFailed {
            error,
            rollback: e.to_string(),
        },
    }
}

/// The config a roll-back goes to: the config `now`, with every setting the push changed
/// (where `before` and `pushed` differ) put back to its value in `before`. A setting the push
/// did not change keeps its value now, whatever `before` says: a roll-back undoes the push,
/// nothing else. Licenses are never removed (the plan never removes them either).
pub fn restore(now: &Config, before: &Config, pushed: &Config) -> Config {
    let mut t = now.clone();
    if before.hostname != pushed.hostname {
        t.hostname.clone_from(&before.hostname);
    }
    if before.lldp != pushed.lldp {
        t.lldp = before.lldp;
    }
    if before.roce != pushed.roce {
        t.roce = before.roce;
    }
    if before.pfc.enabled != pushed.pfc.enabled {
        t.pfc.enabled = before.pfc.enabled;
    }
    put_back_set(
        &mut t.pfc.priorities,
        &before.pfc.priorities,
        &pushed.pfc.priorities,
    );
    macro_rules! back {
        ($($($field:ident).+),*) => {$(
            if before.$($field).+ != pushed.$($field).+ {
                t.$($field).+.clone_from(&before.$($field).+);
            }
        )*};
    }
    back!(
        ip_routing,
        lacp,
        spanning_tree,
        mlag.enabled,
        mlag.system_mac,
        mlag.vip
    );
    // A running pair is shut down around a change of its settings or peer link and brought
    // up last: a push stopped between the two leaves it down though `pushed` has it up, as
    // `before` does. Its admin state is the push's to put back.
    if crate::diff::mlag_changes(before, pushed) {
        t.mlag.enabled = before.mlag.enabled;
    }
    put_back_set(
        &mut t.load_sharing,
        &before.load_sharing,
        &pushed.load_sharing,
    );
    put_back_set(&mut t.protocols, &before.protocols, &pushed.protocols);
    match (&before.bgp, &pushed.bgp, &mut t.bgp) {
        (b, p, _) if b == p => {}
        // The same instance on both sides: each setting the push changed goes back.
        (Some(b), Some(p), Some(cur)) if b.asn == p.asn && cur.asn == b.asn => {
            if b.router_id != p.router_id {
                cur.router_id = b.router_id;
            }
            if b.maximum_paths != p.maximum_paths {
                cur.maximum_paths = b.maximum_paths;
            }
            if b.multipath_relax != p.multipath_relax {
                cur.multipath_relax = b.multipath_relax;
            }
            put_back(&mut cur.neighbors, &b.neighbors, &p.neighbors);
            put_back_set(&mut cur.networks, &b.networks, &p.networks);
        }
        (b, _, cur) => cur.clone_from(b),
    }
    put_back(&mut t.pools, &before.pools, &pushed.pools);
    put_back(&mut t.vlans, &before.vlans, &pushed.vlans);
    let empty = Interface::default();
    let ifaces: std::collections::BTreeSet<_> = before
        .interfaces
        .keys()
        .chain(pushed.interfaces.keys())
        .copied()
        .collect();
    for iface in ifaces {
        let b = before.interfaces.get(&iface).unwrap_or(&empty);
        let p = pushed.interfaces.get(&iface).unwrap_or(&empty);
        if b == p {
            continue;
        }
        let mut cur = t.interfaces.get(&iface).cloned().unwrap_or_default();
        restore_interface(&mut cur, b, p);
        if cur == empty {
            t.interfaces.remove(&iface);
        } else {
            t.interfaces.insert(iface, cur);
        }
    }
    t
}

/// Each member of a set the push added or removed goes back to `before`'s.
fn put_back_set<T: Ord + Clone>(
    now: &mut std::collections::BTreeSet<T>,
    before: &std::collections::BTreeSet<T>,
    pushed: &std::collections::BTreeSet<T>,
) {
    for x in before.symmetric_difference(pushed) {
        if before.contains(x) {
            now.insert(x.clone());
        } else {
            now.remove(x);
        }
    }
}

/// Each entry of a map the push changed (added, removed or altered) goes back to `before`'s.
fn put_back<M: Keyed>(now: &mut M, before: &M, pushed: &M) {
    let keys: std::collections::BTreeSet<M::Key> = before.keys().chain(pushed.keys()).collect();
    for k in keys {
        let b = before.value(&k);
        if b != pushed.value(&k) {
            now.set(k, b.cloned());
        }
    }
}

/// What [`put_back`] needs of a map: the model's maps by name or number, and the per-class
/// settings.
trait Keyed {
    type Key: Ord + Clone;
    type Value: PartialEq + Clone;
    fn keys(&self) -> impl Iterator<Item = Self::Key>;
    fn value(&self, k: &Self::Key) -> Option<&Self::Value>;
    fn set(&mut self, k: Self::Key, v: Option<Self::Value>);
}

impl<K: Ord + Clone, V: PartialEq + Clone> Keyed for std::collections::BTreeMap<K, V> {
    type Key = K;
    type Value = V;
    fn keys(&self) -> impl Iterator<Item = K> {
        self.keys().cloned()
    }
    fn value(&self, k: &K) -> Option<&V> {
        self.get(k)
    }
    fn set(&mut self, k: K, v: Option<V>) {
        match v {
            Some(v) => self.insert(k, v),
            None => self.remove(&k),
        };
    }
}

impl<V: PartialEq + Copy> Keyed for TcMap<V> {
    type Key = TrafficClass;
    type Value = V;
    fn keys(&self) -> impl Iterator<Item = TrafficClass> {
        self.iter().map(|(tc, _)| *tc)
    }
    fn value(&self, k: &TrafficClass) -> Option<&V> {
        self.get(k)
    }
    fn set(&mut self, k: TrafficClass, v: Option<V>) {
        match v {
            Some(v) => self.insert(k, v),
            None => self.remove(&k),
        };
    }
}

/// One interface's settings the push changed go back to `b`'s; the others stay as `cur` has
/// them. Every field is named, so a new one cannot be forgotten here.
fn restore_interface(cur: &mut Interface, b: &Interface, p: &Interface) {
    let Interface {
        created,
        split,
        speed,
        mtu,
        description,
        shutdown,
        switchport_mode,
        access_vlan,
        allowed,
        channel_group,
        trust,
        ecn,
        ets,
        pfc,
        routed,
        address,
        ipl,
        ipl_peer,
    } = b;
    macro_rules! back {
        ($($field:ident),*) => {$(
            if *$field != p.$field {
                cur.$field.clone_from($field);
            }
        )*};
    }
    back!(
        created,
        split,
        speed,
        mtu,
        description,
        shutdown,
        switchport_mode,
        access_vlan,
        allowed,
        channel_group,
        trust,
        pfc,
        routed,
        address,
        ipl,
        ipl_peer
    );
    put_back(&mut cur.ecn, ecn, &p.ecn);
    put_back(&mut cur.ets, ets, &p.ets);
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
    }

    fn config(lines: &str) -> Config {
        let mut text = String::new();
        for l in lines.lines() {
            text.push_str("   ");
            text.push_str(l.trim());
            text.push('\n');
        }
        crate::onyx::parse(&text).unwrap()
    }

    /// A roll-back puts back what the push changed and nothing else: a snapshot that lacks
    /// settings the switch has (they were added since, or the snapshot was not whole) cannot
    /// make the roll-back remove them.
    #[test]
    fn a_roll_back_undoes_only_what_the_push_changed() {
        let before = config(
            "interface ethernet 1/1 mtu 1500 force
             interface ethernet 1/2 description a",
        );
        let pushed = config(
            "interface ethernet 1/1 mtu 9216 force
             interface ethernet 1/2 description a
             interface ethernet 1/3 qos trust L3
             lldp",
        );
        // Half-applied, and the switch holds settings the snapshot does not show.
        let now = config(
            "interface ethernet 1/1 mtu 9216 force
             interface ethernet 1/2 description a
             interface ethernet 1/3 qos trust L3
             interface ethernet 1/3 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500
             interface ethernet 1/9 dcb priority-flow-control mode on force
             hostname kept
             dcb priority-flow-control enable force",
        );
        let back = restore(&now, &before, &pushed);
        let steps: Vec<String> = crate::diff::plan(&now, &back)
            .iter()
            .map(|s| s.command.to_string())
            .collect();
        assert_eq!(
            steps,
            [
                "interface ethernet 1/1 mtu 1500 force",
                "interface ethernet 1/3 no qos trust"
            ],
            "{steps:?}"
        );
        // The push's own changes are all undone.
        assert!(crate::diff::plan(&restore(&pushed, &before, &pushed), &before).is_empty());
    }
}
