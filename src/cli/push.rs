//! `fabric push`: lock the switches and check the backups can be written; fetch, plan and
//! show; confirm; then per switch snapshot, drift guard, apply, verify, save, or roll back —
//! a canary first, then the rest in parallel, SIGINT and SIGTERM stopping it safely. Reaching
//! the switches is [`super::fleet`]'s.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::fleet::{Connect, jobs, parallel, reach};
use crate::device::push::{self, Control, Job, Outcome, Planned, Policy, Report, Stage};
use crate::device::{Options, Target, lock};
use crate::error::{Failure, exit};
use crate::fabric::Fabric;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The fabric file.
    fabric: PathBuf,
    /// Only these switches (repeat for several).
    #[arg(long = "switch", value_name = "NAME")]
    switches: Vec<String>,
    /// Show the plan and stop: no configuration command is sent.
    #[arg(long)]
    dry_run: bool,
    /// Do not ask for confirmation.
    #[arg(long)]
    yes: bool,
    /// Switches pushed first, alone; the rest only if they all succeed.
    #[arg(long, value_name = "N", default_value_t = 1)]
    canary: usize,
    /// After a switch fails, go on starting the others.
    #[arg(long)]
    keep_going: bool,
    /// Allow commands that disturb the whole switch (buffer pools, `roce` mode).
    #[arg(long)]
    allow_disruptive: bool,
    /// Snapshots (`fabric-…` files on the switch) kept after a verified push: older ones are
    /// deleted.
    #[arg(long, value_name = "N", default_value_t = push::KEEP_SNAPSHOTS as u16,
          value_parser = clap::value_parser!(u16).range(1..))]
    keep_snapshots: u16,
    /// Push even when another CLI session is logged in on the switch (`show users`; a
    /// session left open, known to be idle).
    #[arg(long)]
    allow_other_sessions: bool,
    /// Push to simulated switches started in this process (state in `.fabric/lab`, as
    /// `fabric lab` keeps it); they carry no traffic, so disruptive commands are allowed.
    #[arg(long, conflicts_with = "inventory")]
    lab: bool,
    /// With `--lab`: the lab's network also in the kernel, routed by FRR (`fabric lab
    /// --dataplane`), for `--verify-state=paths` to probe.
    #[arg(long, requires = "lab")]
    dataplane: bool,
    /// After a successful push, verify the switches' state (`fabric verify`): every check,
    /// or these families (`--verify-state=bgp,mlag`); a finding makes the exit code 1.
    #[arg(long, value_enum, value_name = "FAMILY", num_args = 0.., value_delimiter = ',',
          require_equals = true)]
    verify_state: Option<Vec<crate::verify::Family>>,
    /// With `--verify-state`: read the switches again until nothing is found or this many
    /// seconds have passed (sessions take a while to come up after a change).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 0,
        requires = "verify_state"
    )]
    verify_wait: u64,
    /// Seconds one switch's push may take before it is stopped and rolled back.
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    switch_timeout: u64,
    #[command(flatten)]
    connect: Connect,
}

/// Exit code of a push declined at the prompt: nothing was done.
const DECLINED: u8 = exit::FINDINGS;

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    // What `fabric validate` refuses (the RoCE audit's errors included) is never pushed.
    let checked = super::check_deployable(std::slice::from_ref(&args.fabric), false, color);
    let code = checked.code();
    let Some((_, fabric)) = checked.passed().and_then(|f| f.into_iter().next()) else {
        return Ok(code);
    };
    let reach = reach(
        args.lab,
        args.dataplane,
        &args.fabric,
        &fabric,
        &args.connect,
        color,
    )?;
    let mut options = reach.options.clone();
    options.switch_timeout = Duration::from_secs(args.switch_timeout.max(1));
    let (inventory, opts) = (&reach.inventory, &options);
    let jobs = jobs(&fabric, &args.switches, inventory, reach.ssh.as_ref())?;
    let backups = PathBuf::from(".fabric/backups");

    // 0. One push per switch, and backups that can be written: else nothing is read or sent.
    // The locks are held until this returns (or the process ends, however it ends).
    let _locks = if args.dry_run {
        Vec::new()
    } else {
        let locks = lock_all(&jobs, &args.fabric)?;
        check_backups(&backups, &jobs)?;
        locks
    };

    // 1. Fetch and plan every switch, show the plans.
    let planned = parallel(&jobs, args.connect.parallel, |j| push::plan(j, opts));
    let mut out = std::io::stdout().lock();
    let Sorted {
        not_pushed,
        work,
        mut quiet,
    } = sorted(&mut out, &jobs, planned, args.dry_run);
    let commands: usize = work.iter().map(|(_, p)| p.state.len()).sum();
    if work.is_empty() || args.dry_run {
        if args.dry_run {
            let _ = writeln!(out, "dry run: nothing sent");
        }
        quiet.extend(work.into_iter().map(|(job, p)| close(job, p)));
        let logs_missing = say_transcript_errors(&mut out, &quiet);
        drop(out);
        return Ok(if not_pushed > 0 || logs_missing {
            exit::FAILURE
        } else if args.dry_run {
            exit::OK
        } else {
            verify_after(args, &fabric, &jobs, opts, inventory)
        });
    }

    // 2. Confirm.
    if !args.yes && !confirmed(&mut out, commands, work.len())? {
        let _ = writeln!(out, "nothing sent");
        quiet.extend(work.into_iter().map(|(job, p)| close(job, p)));
        say_transcript_errors(&mut out, &quiet);
        return Ok(DECLINED);
    }
    drop(out);

    // 3. Canary, then the rest.
    let (reports, signal) = applied(args, work, opts, &backups)?;

    // 4. The summary.
    let mut out = std::io::stdout().lock();
    let logs_missing = summary(&mut out, &reports, &quiet);
    if let Some(sig) = signal {
        let _ = writeln!(
            out,
            "stopped by {}: no switch was started after it; each one being changed was rolled back or finished saving, as listed above",
            signal_name(sig)
        );
        return Ok(128 + sig as u8);
    }
    if logs_missing {
        let _ = writeln!(
            out,
            "not every transcript could be written (see above): the push is not fully recorded"
        );
    }
    let all_ok = reports.iter().all(|r| r.outcome.ok());
    drop(out);
    Ok(if !all_ok {
        exit::FINDINGS
    } else if not_pushed > 0 || logs_missing {
        exit::FAILURE
    } else {
        verify_after(args, &fabric, &jobs, opts, inventory)
    })
}

/// The plans as read: each switch's commands shown (its losses warned), and sorted into the
/// switches to push, those not to (no change; a loss without a transaction), and how many
/// could not be planned or are refused.
struct Sorted<'a> {
    not_pushed: usize,
    work: Vec<(&'a Job, Planned)>,
    quiet: Vec<Report>,
}

fn sorted<'a>(
    out: &mut impl std::io::Write,
    jobs: &'a [Job],
    planned: Vec<Result<Planned, crate::device::Error>>,
    dry_run: bool,
) -> Sorted<'a> {
    // Switches not reached or refused before anything was sent: the push fails.
    let mut not_pushed = 0;
    let mut work: Vec<(&Job, Planned)> = Vec::new();
    // The switches not pushed (no change, a dry run, declined): their sessions' transcripts.
    let mut quiet: Vec<Report> = Vec::new();
    for (job, p) in jobs.iter().zip(planned) {
        match p {
            Err(e) => {
                not_pushed += 1;
                // Connection and read errors name the switch already.
                let e = e.to_string();
                if e.starts_with(&format!("{}:", job.target.name)) {
                    let _ = writeln!(out, "{e}");
                } else {
                    let _ = writeln!(out, "{}: {e}", job.target.name);
                }
            }
            Ok(p) if p.state.is_empty() => {
                let _ = writeln!(out, "{}: no change", job.target.name);
                quiet.push(close(job, p));
            }
            Ok(p) => {
                let _ = writeln!(out, "{}: {} command(s)", job.target.name, p.state.len());
                let losses = p.state.losses();
                for (n, (command, impact)) in p.state.shown().into_iter().enumerate() {
                    let _ = writeln!(out, "  {:>3}. {command}  [{impact}]", n + 1);
                    for (_, loss) in losses.iter().filter(|(k, _)| *k == n) {
                        let _ = writeln!(out, "       warning: {loss}");
                    }
                }
                // Without a transaction, a failure is undone by the plan back, which would
                // re-create what these steps delete without its unmodeled lines (a BGP
                // neighbor without its password): such a switch is not pushed.
                if !losses.is_empty() && !p.state.transactions() && !dry_run {
                    not_pushed += 1;
                    let _ = writeln!(
                        out,
                        "{}: not pushed: its release has no transaction mode, so a roll-back \
                         could not restore what step(s) {} delete; remove those lines on the \
                         switch first",
                        job.target.name,
                        losses
                            .iter()
                            .map(|(n, _)| (n + 1).to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    quiet.push(close(job, p));
                    continue;
                }
                work.push((job, p));
            }
        }
    }
    Sorted {
        not_pushed,
        work,
        quiet,
    }
}

/// Asks on the terminal before `commands` are pushed to `switches` switches (refused without
/// one); whether the answer is yes.
fn confirmed(
    out: &mut impl std::io::Write,
    commands: usize,
    switches: usize,
) -> Result<bool, Failure> {
    if !std::io::stdin().is_terminal() {
        return Err(Failure(
            "not a terminal: pass `--yes` to push without confirmation".into(),
        ));
    }
    let _ = write!(
        out,
        "Push {commands} command(s) to {switches} switch(es)? [y/N] "
    );
    let _ = out.flush();
    let mut answer = String::new();
    let _ = std::io::stdin().read_line(&mut answer);
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}

/// Applies the plans: the canary first, then the rest, as many at once as `--parallel`; after
/// a failure nothing new starts unless `--keep-going`; after SIGINT or SIGTERM nothing new
/// starts and the switches being changed are rolled back. Each switch's report, and the
/// signal that stopped the push.
fn applied(
    args: &Args,
    work: Vec<(&Job, Planned)>,
    opts: &Options,
    backups: &Path,
) -> Result<(Vec<Report>, Option<i32>), Failure> {
    // Simulated switches carry no traffic: nothing to disturb.
    let policy = Policy {
        allow_disruptive: args.allow_disruptive || args.lab,
        keep_snapshots: usize::from(args.keep_snapshots),
        other_sessions: args.allow_other_sessions,
    };
    let bars = indicatif::MultiProgress::new();
    let stopper = Stopper::install(bars.clone())?;
    let failed = AtomicBool::new(false);
    let canary = args.canary.min(work.len());
    let mut rest = work;
    let first: Vec<(&Job, Planned)> = rest.drain(..canary).collect();
    let mut reports: Vec<Report> = Vec::new();
    for batch in [first, rest] {
        let cells: Vec<Mutex<Option<(&Job, Planned)>>> =
            batch.into_iter().map(|w| Mutex::new(Some(w))).collect();
        let done = parallel(&cells, args.connect.parallel, |cell| {
            let (job, p) = cell.lock().ok()?.take()?;
            let name = job.target.name.clone();
            if let Some(why) = stopper.stopped() {
                p.cli.close();
                return Some(Report::new(
                    &name,
                    Outcome::Aborted(format!("{why}: not started")),
                ));
            }
            if failed.load(Ordering::Relaxed) && !args.keep_going {
                p.cli.close();
                return Some(Report::new(
                    &name,
                    Outcome::Aborted("not started: an earlier switch failed".into()),
                ));
            }
            let bar = bars.add(indicatif::ProgressBar::new_spinner());
            bar.set_message(format!("{name}: starting"));
            let progress = |stage: Stage| {
                stopper.stage(&name, Some(stage));
                bar.set_message(format!("{name}: {stage}"));
                bar.tick();
            };
            let stop = || stopper.stopped();
            let control = Control {
                progress: &progress,
                stop: &stop,
            };
            let r = push::push(p, job, opts, policy, backups, &control);
            stopper.stage(&name, None);
            bar.finish_and_clear();
            if !r.outcome.ok() {
                failed.store(true, Ordering::Relaxed);
            }
            Some(r)
        });
        reports.extend(done.into_iter().flatten());
    }

    Ok((reports, stopper.finish()))
}

/// The summary: a line per switch pushed, then what went wrong where, and the transcripts not
/// written; whether a transcript is missing.
fn summary(out: &mut impl std::io::Write, reports: &[Report], quiet: &[Report]) -> bool {
    let width = reports
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "\n{:width$}  {:<13}  {:>8}  {:>7}",
        "switch", "result", "commands", "time"
    );
    for r in reports {
        let result = match &r.outcome {
            Outcome::Unchanged => "unchanged",
            Outcome::Converged => "converged",
            Outcome::Aborted(_) => "aborted",
            Outcome::RolledBack { .. } => "rolled back",
            Outcome::RollbackFailed { .. } => "ROLLBACK FAILED",
        };
        let _ = writeln!(
            out,
            "{:width$}  {result:<13}  {:>8}  {:>6.1}s",
            r.name,
            r.sent,
            r.elapsed.as_secs_f64()
        );
    }
    let mut logs_missing = say_transcript_errors(out, quiet);
    for r in reports {
        match &r.outcome {
            Outcome::Aborted(why) => {
                let _ = writeln!(out, "{}: aborted, nothing sent: {why}", r.name);
            }
            Outcome::RolledBack { error } => {
                let _ = writeln!(
                    out,
                    "{}: {error}; rolled back to the running config before the push (verified), nothing saved",
                    r.name
                );
            }
            Outcome::RollbackFailed { error, rollback } => {
                let _ = writeln!(
                    out,
                    "{}: {error}; the roll-back failed too: {rollback}; nothing saved, the backup is `{}`",
                    r.name,
                    r.backup
                        .as_ref()
                        .map_or("-".into(), |b| b.display().to_string())
                );
            }
            _ => {}
        }
        for note in &r.notes {
            let _ = writeln!(out, "{}: {note}", r.name);
        }
    }
    logs_missing |= say_transcript_errors(out, reports);
    logs_missing
}

/// After a push that succeeded (every switch converged or unchanged): `--verify-state`'s
/// verification of the pushed switches, printed; its exit code (0 without the flag).
fn verify_after(
    args: &Args,
    fabric: &Fabric,
    jobs: &[Job],
    opts: &crate::device::Options,
    inventory: &crate::fabric::Inventory,
) -> u8 {
    let Some(checks) = &args.verify_state else {
        return exit::OK;
    };
    let targets: Vec<Target> = jobs.iter().map(|j| j.target.clone()).collect();
    let families = super::verify::families(checks);
    let hosts = match super::verify::hosts(fabric, inventory, &args.connect, &families) {
        Ok(h) => h,
        Err(e) => {
            errln!("error: {}", e.0);
            return exit::FAILURE;
        }
    };
    let verified = super::verify::verify(
        fabric,
        &targets,
        opts,
        args.connect.parallel,
        &families,
        Duration::from_secs(args.verify_wait),
        &hosts,
    );
    outln!("\nverify:");
    out!("{}", verified.render(super::verify::Format::Text));
    verified.code()
}

/// Ends the session of a switch that is not pushed; its transcripts, for the summary.
fn close(job: &Job, p: Planned) -> Report {
    let mut r = Report::new(&job.target.name, Outcome::Unchanged);
    r.transcripts.push(p.cli.transcript());
    p.cli.close();
    r
}

/// Prints each transcript that could not be written; whether there was one.
fn say_transcript_errors(out: &mut impl std::io::Write, reports: &[Report]) -> bool {
    let mut any = false;
    for r in reports {
        for e in r.transcript_errors() {
            any = true;
            let _ = writeln!(out, "{}: error: {e}", r.name);
        }
    }
    any
}

/// Locks every switch of the push (see `device::lock`); when another push holds one, says
/// which and who, and nothing is done.
fn lock_all(jobs: &[Job], fabric: &Path) -> Result<Vec<lock::Lock>, Failure> {
    let mut locks = Vec::new();
    let mut held = Vec::new();
    for job in jobs {
        let what = format!("`{}` of `{}`", job.target.name, fabric.display());
        match lock::acquire(&job.target, &what) {
            Ok(l) => locks.push(l),
            Err(e) => held.push(format!("{}: {e}", job.target.name)),
        }
    }
    if held.is_empty() {
        return Ok(locks);
    }
    Err(Failure(format!(
        "{}\nnothing sent: another push is at work on {} switch(es)",
        held.join("\n"),
        held.len()
    )))
}

/// A push that could not keep its backups does not start: each switch's backup folder is
/// made and a file written and removed in it.
fn check_backups(backups: &Path, jobs: &[Job]) -> Result<(), Failure> {
    for job in jobs {
        let dir = backups.join(&job.target.name);
        let probe = dir.join(format!(".write-check-{}", std::process::id()));
        push::write_new(&probe, b"fabric push: a backup can be written here\n")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| {
                Failure(format!(
                    "cannot write backups in `{}`: {e}; nothing sent (a push keeps the config before it there)",
                    dir.display()
                ))
            })?;
    }
    Ok(())
}

/// `SIGINT`, `SIGTERM`.
fn signal_name(sig: i32) -> &'static str {
    match sig {
        signal_hook::consts::SIGINT => "SIGINT",
        signal_hook::consts::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// SIGINT and SIGTERM while switches are being pushed. The first stops the push: no switch
/// starts after it, each one being changed is rolled back, one verified and saving finishes;
/// then the summary, and exit 130 (SIGINT) or 143 (SIGTERM). A second says so again and
/// names the switches still rolling back; a third abandons them and exits at once, naming
/// them (their running config may be half-configured; nothing is saved).
struct Stopper {
    /// The first signal's number; 0 before any.
    first: Arc<AtomicUsize>,
    /// Where each switch being pushed is.
    stages: Arc<Mutex<BTreeMap<String, Stage>>>,
    handle: signal_hook::iterator::Handle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Stopper {
    fn install(bars: indicatif::MultiProgress) -> Result<Stopper, Failure> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
            .map_err(|e| Failure(format!("cannot catch SIGINT and SIGTERM: {e}")))?;
        let handle = signals.handle();
        let first = Arc::new(AtomicUsize::new(0));
        let stages: Arc<Mutex<BTreeMap<String, Stage>>> = Arc::default();
        let (f, st) = (first.clone(), stages.clone());
        let thread = std::thread::spawn(move || {
            let mut count = 0;
            for sig in signals.forever() {
                count += 1;
                let _ = f.compare_exchange(0, sig as usize, Ordering::SeqCst, Ordering::SeqCst);
                let name = signal_name(sig);
                let busy: Vec<String> = st
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .iter()
                    .map(|(n, s)| format!("`{n}` ({s})"))
                    .collect();
                let busy = if busy.is_empty() {
                    "none".to_string()
                } else {
                    busy.join(", ")
                };
                let say = |text: String| bars.suspend(|| errln!("{text}"));
                match count {
                    1 => say(format!(
                        "{name}: stopping the push: no other switch starts; a switch being changed is rolled back, one saving finishes (in flight: {busy})"
                    )),
                    2 => say(format!(
                        "{name} again: waiting for the roll-backs to finish, nothing is saved (in flight: {busy}); a third signal abandons them and exits at once"
                    )),
                    _ => {
                        say(format!(
                            "{name} a third time: exiting now; left as they are, possibly half-configured and not saved: {busy}; their backups are in `.fabric/backups`"
                        ));
                        let first = f.load(Ordering::SeqCst) as i32;
                        std::process::exit(128 + if first > 0 { first } else { sig });
                    }
                }
            }
        });
        Ok(Stopper {
            first,
            stages,
            handle,
            thread: Some(thread),
        })
    }

    /// Why the push must stop, once a signal came.
    fn stopped(&self) -> Option<String> {
        match self.first.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(format!("stopped by {}", signal_name(sig as i32))),
        }
    }

    /// Where a switch is (`None`: done).
    fn stage(&self, name: &str, stage: Option<Stage>) {
        let mut st = self.stages.lock().unwrap_or_else(|e| e.into_inner());
        match stage {
            Some(s) => st.insert(name.to_string(), s),
            None => st.remove(name),
        };
    }

    /// Stops listening; the first signal that came, if one did.
    fn finish(mut self) -> Option<i32> {
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        match self.first.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(sig as i32),
        }
    }
}
