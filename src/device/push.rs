//! One switch's push, with the safety Onyx does not have (no candidate config, no commit
//! confirm, no rollback): plan from the fetched running config; snapshot it (locally and on
//! the switch, `configuration write to NAME no-switch`); re-fetch just before applying and
//! abort untouched if it changed; apply, stopping at the first `%` error or timeout; verify
//! by re-fetching and re-planning; save only a verified state. Any failure after the first
//! command: plan from the state now back to the snapshot, apply, verify; never save.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{Cli, Error, Options, Target};
use crate::diff::{Impact, Scope, Step};
use crate::onyx::Config;

/// `20261122T042233Z`: UTC, sortable, safe in file names.
pub fn stamp() -> String {
    let (y, mo, d, h, mi, s) = crate::types::utc_now();
    format!("{y:04}{mo:02}{d:02}T{h:02}{mi:02}{s:02}Z")
}

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
    Snapshot,
    DriftGuard,
    Applying { done: usize, of: usize },
    Verifying,
    Saving,
    RollingBack,
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stage::Snapshot => f.write_str("snapshot"),
            Stage::DriftGuard => f.write_str("drift guard"),
            Stage::Applying { done, of } => write!(f, "applying {done}/{of}"),
            Stage::Verifying => f.write_str("verifying"),
            Stage::Saving => f.write_str("saving"),
            Stage::RollingBack => f.write_str("rolling back"),
        }
    }
}

/// How a switch's push ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing to do.
    Unchanged,
    /// Applied, verified and saved.
    Converged,
    /// Stopped before any configuration command was sent; the switch is untouched.
    Aborted(String),
    /// A failure after commands were sent; the switch is back at its snapshot (verified),
    /// nothing saved.
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
    pub transcript: Option<PathBuf>,
}

/// What a push may do.
#[derive(Clone, Copy, Debug, Default)]
pub struct Policy {
    pub allow_disruptive: bool,
}

/// Pushes one switch's plan; never panics on what the switch does.
pub fn push(
    planned: Planned,
    job: &Job,
    opts: &Options,
    policy: Policy,
    backups: &Path,
    progress: &dyn Fn(Stage),
) -> Report {
    let start = Instant::now();
    let transcript = planned.cli.transcript_path.clone();
    let mut report = Report {
        name: job.target.name.clone(),
        outcome: Outcome::Unchanged,
        sent: 0,
        elapsed: Duration::ZERO,
        backup: None,
        transcript,
    };
    report.outcome = run(planned, job, opts, policy, backups, progress, &mut report);
    report.elapsed = start.elapsed();
    report
}

fn run(
    mut p: Planned,
    job: &Job,
    opts: &Options,
    policy: Policy,
    backups: &Path,
    progress: &dyn Fn(Stage),
    report: &mut Report,
) -> Outcome {
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

    // Snapshot: the fetched config locally, and on the switch.
    progress(Stage::Snapshot);
    let when = stamp();
    let file = backups.join(&job.target.name).join(format!("{when}.cfg"));
    let written = file
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&file, &p.text));
    if let Err(e) = written {
        p.cli.close();
        return Outcome::Aborted(format!("cannot write the backup `{}`: {e}", file.display()));
    }
    report.backup = Some(file);
    if let Err(e) = p
        .cli
        .run(&format!("configuration write to fabric-{when} no-switch"))
    {
        return Outcome::Aborted(format!("snapshot on the switch failed: {e}"));
    }

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

    // Apply.
    let of = p.steps.len();
    let started = Instant::now();
    let applied = (|| {
        p.cli.configure()?;
        for (done, step) in p.steps.iter().enumerate() {
            progress(Stage::Applying { done, of });
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
        Ok(()) => {
            progress(Stage::Saving);
            return match p.cli.run("configuration write") {
                Ok(_) => {
                    p.cli.close();
                    Outcome::Converged
                }
                Err(e) => rollback(Some(p.cli), job, opts, &p.running, progress, report, e),
            };
        }
        Err(e) => e,
    };
    let cli = error.session_usable().then_some(p.cli);
    rollback(cli, job, opts, &p.running, progress, report, error)
}

/// Back to the snapshot: from the state now (read again, on a new session if the old one is
/// gone), apply the plan to the snapshot, verify. Never saves.
fn rollback(
    cli: Option<Cli>,
    job: &Job,
    opts: &Options,
    snapshot: &Config,
    progress: &dyn Fn(Stage),
    report: &mut Report,
    error: Error,
) -> Outcome {
    progress(Stage::RollingBack);
    let error = error.to_string();
    let back = (|| {
        let mut cli = match cli {
            Some(c) => c,
            None => Cli::open(&job.target, opts)?,
        };
        cli.leave_config()?;
        let (_, now) = cli.fetch()?;
        let everything = Scope {
            interfaces: None,
            fabric_attributes_only: false,
            prune: true,
        };
        let target = crate::diff::target(&now, snapshot, &everything);
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
        let left = crate::diff::plan(&after, &crate::diff::target(&after, snapshot, &everything));
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
    match back {
        Ok(()) => Outcome::RolledBack { error },
        Err(e) => Outcome::RollbackFailed {
            error,
            rollback: e.to_string(),
        },
    }
}
