//! `fabric push` over a fleet: the per-switch locks and the backups checked before anything
//! is read; the plans applied, a canary first, then the rest in parallel with a progress line
//! each, SIGINT and SIGTERM stopping it safely (a switch being changed is rolled back, no
//! other starts); and the verification after a successful push. One switch's push (snapshot,
//! drift guard, apply, verify, save or roll back) is `device::push`'s; what is shown and
//! asked is the command line's.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::connect::Connect;
use super::stop::Stopper;
use super::verify::{self, Verified};
use crate::device::push::{self, Control, Job, Outcome, Planned, Policy, Report, Stage};
use crate::device::{Options, Target, lock};
use crate::error::Failure;
use crate::fabric::{Fabric, Inventory};
use crate::verify::Family;

/// How the plans are applied across the switches.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    /// Switches pushed first, alone; the rest only if they all succeed.
    pub canary: usize,
    /// Switches worked on at once.
    pub parallel: usize,
    /// After a switch fails, go on starting the others.
    pub keep_going: bool,
    /// What each switch's push may do.
    pub policy: Policy,
}

/// Applies the plans: the canary first, then the rest, as many at once as `parallel`; after
/// a failure nothing new starts unless `keep_going`; after SIGINT or SIGTERM nothing new
/// starts and the switches being changed are rolled back. Each switch's report, and the
/// signal that stopped the push.
pub fn apply(
    work: Vec<(&Job, Planned)>,
    opts: &Options,
    run: &Run,
    backups: &Path,
) -> Result<(Vec<Report>, Option<i32>), Failure> {
    let policy = run.policy;
    let bars = indicatif::MultiProgress::new();
    let stopper = Stopper::install(bars.clone())?;
    let failed = AtomicBool::new(false);
    let canary = run.canary.min(work.len());
    let mut rest = work;
    let first: Vec<(&Job, Planned)> = rest.drain(..canary).collect();
    let mut reports: Vec<Report> = Vec::new();
    for batch in [first, rest] {
        let cells: Vec<Mutex<Option<(&Job, Planned)>>> =
            batch.into_iter().map(|w| Mutex::new(Some(w))).collect();
        let done = super::run::parallel(&cells, run.parallel, |cell| {
            let (job, p) = cell.lock().ok()?.take()?;
            let name = job.target.name.clone();
            if let Some(why) = stopper.stopped() {
                p.cli.close();
                return Some(Report::new(
                    &name,
                    Outcome::Aborted(format!("{why}: not started")),
                ));
            }
            if failed.load(Ordering::Relaxed) && !run.keep_going {
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

/// After a push that succeeded (every switch converged or unchanged): the verification of
/// the pushed switches (`fabric push --verify-state`) of the families `checks` (all when
/// none), read again until nothing is found or `wait` has passed.
pub fn verify_after(
    fabric: &Fabric,
    jobs: &[Job],
    reach: (&Options, &Inventory),
    connect: &Connect,
    checks: &[Family],
    wait: Duration,
) -> Result<Verified, Failure> {
    let (opts, inventory) = reach;
    let targets: Vec<Target> = jobs.iter().map(|j| j.target.clone()).collect();
    let families = verify::families(checks);
    let hosts = verify::hosts(fabric, inventory, connect, &families)?;
    Ok(verify::verify(
        fabric,
        &targets,
        opts,
        connect.parallel,
        &families,
        wait,
        &hosts,
        verify::Counting::default(),
    ))
}

/// Ends the session of a switch that is not pushed; its transcripts, for the summary.
pub fn close(job: &Job, p: Planned) -> Report {
    let mut r = Report::new(&job.target.name, Outcome::Unchanged);
    r.transcripts.push(p.cli.transcript());
    p.cli.close();
    r
}

/// Locks every switch of the push (see `device::lock`); when another push holds one, says
/// which and who, and nothing is done.
pub fn lock_all(jobs: &[Job], fabric: &Path) -> Result<Vec<lock::Lock>, Failure> {
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
pub fn check_backups(backups: &Path, jobs: &[Job]) -> Result<(), Failure> {
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
pub fn signal_name(sig: i32) -> &'static str {
    match sig {
        signal_hook::consts::SIGINT => "SIGINT",
        signal_hook::consts::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}
