//! `fabric push`: its arguments; the plans shown, sorted and confirmed; the summary. Locking,
//! applying across the switches (a canary first, then the rest in parallel, stopped safely
//! by SIGINT and SIGTERM) and the verification after are [`crate::fleet::push`]'s; one
//! switch's push is `device::push`'s.

use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::time::Duration;

use super::fleet::reach;
use crate::device::push::{self, Job, Outcome, Planned, Policy, Report};
use crate::error::{Failure, exit};
use crate::fabric::Fabric;
use crate::fleet::push::{check_backups, close, lock_all, signal_name};
use crate::fleet::{self, Connect, jobs, parallel};

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

    let pushing = Pushing {
        args,
        fabric: &fabric,
        jobs: &jobs,
        opts,
        inventory,
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
            pushing.verify_after()
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
    let (reports, signal) = fleet::push::apply(work, opts, &settings(args), &backups)?;

    // 4. The summary.
    Ok(pushing.ended(&reports, signal, &quiet, not_pushed))
}

/// What a push works on, for its last steps.
struct Pushing<'a> {
    args: &'a Args,
    fabric: &'a Fabric,
    jobs: &'a [Job],
    opts: &'a crate::device::Options,
    inventory: &'a crate::fabric::Inventory,
}

impl Pushing<'_> {
    /// The summary of the switches pushed (`reports`) and not (`quiet`; `not_pushed` could
    /// not be planned or were refused), what stopped the push if a signal did; the exit code.
    fn ended(
        &self,
        reports: &[Report],
        signal: Option<i32>,
        quiet: &[Report],
        not_pushed: usize,
    ) -> u8 {
        let mut out = std::io::stdout().lock();
        let logs_missing = summary(&mut out, reports, quiet);
        if let Some(sig) = signal {
            let _ = writeln!(
                out,
                "stopped by {}: no switch was started after it; each one being changed was rolled back or finished saving, as listed above",
                signal_name(sig)
            );
            return 128 + sig as u8;
        }
        if logs_missing {
            let _ = writeln!(
                out,
                "not every transcript could be written (see above): the push is not fully recorded"
            );
        }
        let all_ok = reports.iter().all(|r| r.outcome.ok());
        drop(out);
        if !all_ok {
            exit::FINDINGS
        } else if not_pushed > 0 || logs_missing {
            exit::FAILURE
        } else {
            self.verify_after()
        }
    }

    /// After a push that succeeded (every switch converged or unchanged): `--verify-state`'s
    /// verification of the pushed switches, printed; its exit code (0 without the flag).
    fn verify_after(&self) -> u8 {
        let args = self.args;
        let Some(checks) = &args.verify_state else {
            return exit::OK;
        };
        let wait = Duration::from_secs(args.verify_wait);
        let reach = (self.opts, self.inventory);
        match fleet::push::verify_after(self.fabric, self.jobs, reach, &args.connect, checks, wait)
        {
            Ok(verified) => {
                outln!("\nverify:");
                out!("{}", verified.report().text());
                verified.code()
            }
            Err(e) => {
                errln!("error: {}", e.0);
                exit::FAILURE
            }
        }
    }
}

/// How the plans are applied: simulated switches carry no traffic, nothing to disturb.
fn settings(args: &Args) -> fleet::push::Run {
    fleet::push::Run {
        canary: args.canary,
        parallel: args.connect.parallel,
        keep_going: args.keep_going,
        policy: Policy {
            allow_disruptive: args.allow_disruptive || args.lab,
            keep_snapshots: usize::from(args.keep_snapshots),
            other_sessions: args.allow_other_sessions,
        },
    }
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
