//! `fabric push`: fetch, plan and show; confirm; then per switch snapshot, drift guard,
//! apply, verify, save, or roll back — a canary first, then the rest in parallel. Also the
//! connection options and switch list that the live `fabric diff` shares.

use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::device::push::{self, Job, Outcome, Planned, Policy, Report, Stage};
use crate::device::{Options, Secret, Target};
use crate::error::{Failure, exit};
use crate::fabric::{Fabric, Inventory};

/// How to reach switches.
#[derive(clap::Args, Debug, Clone)]
pub struct Connect {
    /// Addresses instead of the fabric's `mgmt` (the inventory `fabric lab` writes); its
    /// `known_hosts` is used unless `--known-hosts` is given.
    #[arg(long, value_name = "FILE")]
    pub inventory: Option<PathBuf>,
    /// Host keys checked strictly (default `~/.ssh/known_hosts`).
    #[arg(long, value_name = "FILE")]
    pub known_hosts: Option<PathBuf>,
    /// Record the host key of a switch not yet in known_hosts (a changed key is refused).
    #[arg(long)]
    pub accept_new: bool,
    /// Private key file; else the ssh-agent, then the password from `FABRIC_PASSWORD` or a
    /// prompt on a terminal.
    #[arg(long, value_name = "FILE")]
    pub identity: Option<PathBuf>,
    /// Switches worked on at once.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub parallel: usize,
    /// Seconds to wait for one command's reply.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub command_timeout: u64,
    /// Seconds to wait for a connection.
    #[arg(long, value_name = "SECONDS", default_value_t = 10)]
    pub connect_timeout: u64,
    /// Seconds one switch's push may take before it is stopped and rolled back.
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    pub switch_timeout: u64,
}

/// The password for switches: never an argument.
pub const PASSWORD_ENV: &str = "FABRIC_PASSWORD";

impl Connect {
    /// Connection options; the password from the environment, or asked on a terminal when
    /// no key is given.
    pub fn options(
        &self,
        inventory: &Inventory,
        lab_password: Option<String>,
    ) -> Result<Options, Failure> {
        let known_hosts = match (&self.known_hosts, &inventory.known_hosts) {
            (Some(f), _) | (None, Some(f)) => f.clone(),
            (None, None) => std::env::var_os("HOME")
                .map(|h| Path::new(&h).join(".ssh/known_hosts"))
                .ok_or_else(|| Failure("HOME is not set: give `--known-hosts FILE`".into()))?,
        };
        let mut o = Options::new(known_hosts);
        o.accept_new = self.accept_new;
        o.identity = self.identity.clone();
        o.connect_timeout = Duration::from_secs(self.connect_timeout.max(1));
        o.command_timeout = Duration::from_secs(self.command_timeout.max(1));
        o.switch_timeout = Duration::from_secs(self.switch_timeout.max(1));
        o.transcripts = Some(PathBuf::from(".fabric/logs"));
        o.switches = inventory.switches.keys().cloned().collect();
        o.password = match std::env::var(PASSWORD_ENV) {
            Ok(p) => Some(Secret(p)),
            Err(_) if lab_password.is_some() => lab_password.map(Secret),
            Err(_)
                if self.identity.is_none()
                    && std::env::var_os("SSH_AUTH_SOCK").is_none()
                    && std::io::stdin().is_terminal() =>
            {
                let p = rpassword::prompt_password("Password for the switches: ")
                    .map_err(|e| Failure(format!("cannot read the password: {e}")))?;
                Some(Secret(p))
            }
            Err(_) => None,
        };
        Ok(o)
    }
}

/// Where the switches are and how to log in.
pub(crate) struct Reach {
    pub inventory: Inventory,
    pub options: Options,
    /// The in-process lab (`--lab`), kept running while this lives.
    #[cfg(feature = "lab")]
    _lab: Option<super::lab::Started>,
}

/// The in-process lab's switches, inventory, known_hosts and password (`--lab`), else the
/// inventory's (or the fabric's `mgmt`) and the user's credentials.
pub(crate) fn reach(
    lab: bool,
    fabric_path: &Path,
    fabric: &Fabric,
    connect: &Connect,
    color: bool,
) -> Result<Reach, Failure> {
    #[cfg(feature = "lab")]
    if lab {
        let lab_args = super::lab::Args::in_process(fabric_path.to_path_buf());
        let started = super::lab::start(&lab_args, fabric, color)?;
        let password = std::env::var(super::lab::PASSWORD_ENV).unwrap_or_else(|_| "admin".into());
        let mut options = connect.options(&started.inventory, Some(password))?;
        fleet(&mut options, fabric);
        return Ok(Reach {
            options,
            inventory: started.inventory.clone(),
            _lab: Some(started),
        });
    }
    #[cfg(not(feature = "lab"))]
    if lab {
        let _ = (fabric_path, fabric, color);
        return Err(Failure(
            "this build has no lab (cargo feature `lab`)".into(),
        ));
    }
    let inventory = read_inventory(connect.inventory.as_deref())?;
    let mut options = connect.options(&inventory, None)?;
    fleet(&mut options, fabric);
    Ok(Reach {
        options,
        inventory,
        #[cfg(feature = "lab")]
        _lab: None,
    })
}

/// Adds the fabric's switch names to those a switch must not turn out to be (besides the one
/// asked for): a switch answering with another's host key or hostname is refused.
pub(crate) fn fleet(options: &mut Options, fabric: &Fabric) {
    options
        .switches
        .extend(fabric.switches.keys().map(|h| h.to_string()));
    options.switches.sort();
    options.switches.dedup();
}

/// Reads an inventory file (`fabric lab` writes one). A file that is not one is an E090
/// diagnostic at its line, printed here with the values of secret keys masked like every
/// excerpt (the YAML reader's own message would quote the line as written).
pub fn read_inventory(path: Option<&Path>) -> Result<Inventory, Failure> {
    let Some(path) = path else {
        return Ok(Inventory::default());
    };
    // An inventory is small; a device or a huge file is refused before it is read.
    let bytes = crate::input::read(path, crate::fabric::load::MAX_BYTES as u64)
        .map_err(|e| Failure(format!("cannot read `{}`: {e}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure(format!("`{}` is not UTF-8 text", path.display())))?;
    let options = serde_saphyr::options! { with_snippet: false };
    let e = match serde_saphyr::from_str_with_options::<Inventory>(&text, options) {
        Ok(inventory) => return Ok(inventory),
        Err(e) => e,
    };
    let e = e.without_snippet();
    let mut sources = crate::diag::Sources::default();
    let file = sources.add(path.display().to_string(), text.clone());
    let mut d = crate::diag::Diagnostic::error(
        "E090",
        format!(
            "not a valid inventory: {}",
            crate::fabric::load::reader_message(e)
        ),
    )
    .help("an inventory is `known_hosts: FILE` and `switches: { NAME: { host, port, user } }`; passwords never go in it (`FABRIC_PASSWORD`, or a prompt)");
    if let Some(l) = e.location() {
        let span = l.span();
        let start = span
            .byte_offset()
            .map_or_else(|| line_offset(&text, l.line() as usize), |o| o as usize);
        let len = span.byte_len().unwrap_or(0) as usize;
        d = d.at(
            crate::diag::Span {
                file,
                start,
                end: start + len,
            },
            "here",
        );
    }
    eprint!("{}", crate::diag::render(&[d], &sources, false));
    Err(Failure(format!(
        "`{}` is not a valid inventory",
        path.display()
    )))
}

/// The byte offset where a 1-based line starts.
fn line_offset(text: &str, line: usize) -> usize {
    text.split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum()
}

/// The chosen switches (all when `names` is empty), as jobs: where each is and what it
/// should run.
pub fn jobs(fabric: &Fabric, names: &[String], inventory: &Inventory) -> Result<Vec<Job>, Failure> {
    let mut out = Vec::new();
    for sw in super::chosen(fabric, names)? {
        let name = sw.hostname.to_string();
        let target = match (inventory.switches.get(&name), &sw.mgmt) {
            (Some(a), _) => Target {
                name: name.clone(),
                host: a.host.clone(),
                port: a.port,
                user: a.user.clone(),
            },
            (None, Some(m)) => Target {
                name: name.clone(),
                host: m.host.clone(),
                port: m.port,
                user: m.user.clone(),
            },
            (None, None) => {
                return Err(Failure(format!(
                    "`{name}` has no `mgmt` address in the fabric and no entry in the inventory"
                )));
            }
        };
        out.push(Job {
            target,
            intended: crate::compile::compile_switch(sw),
            scope: crate::diff::Scope::fabric(sw, false),
        });
    }
    Ok(out)
}

/// Each target's running config (and, with `unsaved`, whether `show configuration files`
/// says `Unsaved changes : yes`), read at once with `show` commands only. Each switch that
/// cannot be read is printed; then nothing is returned.
pub(crate) fn read_switches(
    targets: &[crate::device::Target],
    opts: &Options,
    parallel: usize,
    unsaved: bool,
) -> Result<Vec<(crate::onyx::Config, bool)>, Failure> {
    let fetched = self::parallel(targets, parallel, |target| {
        let mut cli = crate::device::Cli::open(target, opts)?;
        let (_, config) = cli.fetch()?;
        let changed = if unsaved {
            cli.run("show configuration files")?
                .lines()
                .filter_map(|l| l.split_once(':'))
                .any(|(k, v)| k.trim() == "Unsaved changes" && v.trim() == "yes")
        } else {
            false
        };
        cli.close();
        Ok::<_, crate::device::Error>((config, changed))
    });
    let mut out = Vec::new();
    let mut failed = false;
    for (target, r) in targets.iter().zip(fetched) {
        match r {
            Ok(r) => out.push(r),
            Err(e) => {
                // A device error never names the switch: it is named here, once.
                eprintln!("error: {}: {e}", target.name);
                failed = true;
            }
        }
    }
    if failed {
        return Err(Failure("not every switch could be read".into()));
    }
    Ok(out)
}

/// Runs `f` over `items` on up to `parallel` threads; results in the items' order.
pub fn parallel<T: Sync, R: Send>(
    items: &[T],
    parallel: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..parallel.clamp(1, items.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

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
    /// Push to simulated switches started in this process (state in `.fabric/lab`, as
    /// `fabric lab` keeps it); they carry no traffic, so disruptive commands are allowed.
    #[arg(long, conflicts_with = "inventory")]
    lab: bool,
    #[command(flatten)]
    connect: Connect,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let (fabrics, clean) = super::check_all(std::slice::from_ref(&args.fabric), false, color)?;
    let Some((_, fabric)) = fabrics.into_iter().next().filter(|_| clean) else {
        return Ok(exit::FINDINGS);
    };
    let reach = reach(args.lab, &args.fabric, &fabric, &args.connect, color)?;
    let (inventory, opts) = (&reach.inventory, &reach.options);
    let jobs = jobs(&fabric, &args.switches, inventory)?;

    // 1. Fetch and plan every switch, show the plans.
    let planned = parallel(&jobs, args.connect.parallel, |j| push::plan(j, opts));
    let mut out = std::io::stdout().lock();
    let mut unreachable = 0;
    let mut work: Vec<(&Job, Planned)> = Vec::new();
    for (job, p) in jobs.iter().zip(planned) {
        match p {
            Err(e) => {
                unreachable += 1;
                let _ = writeln!(out, "{}: {e}", job.target.name);
            }
            Ok(p) if p.steps.is_empty() => {
                let _ = writeln!(out, "{}: no change", job.target.name);
                p.cli.close();
            }
            Ok(p) => {
                let _ = writeln!(out, "{}: {} command(s)", job.target.name, p.steps.len());
                for (n, s) in p.steps.iter().enumerate() {
                    let _ = writeln!(out, "  {:>3}. {}  [{}]", n + 1, s.command, s.impact);
                }
                work.push((job, p));
            }
        }
    }
    let commands: usize = work.iter().map(|(_, p)| p.steps.len()).sum();
    if work.is_empty() || args.dry_run {
        if args.dry_run {
            let _ = writeln!(out, "dry run: nothing sent");
        }
        for (_, p) in work {
            p.cli.close();
        }
        return Ok(if unreachable > 0 {
            exit::FAILURE
        } else {
            exit::OK
        });
    }

    // 2. Confirm.
    if !args.yes {
        if !std::io::stdin().is_terminal() {
            return Err(Failure(
                "not a terminal: pass `--yes` to push without confirmation".into(),
            ));
        }
        let _ = write!(
            out,
            "Push {commands} command(s) to {} switch(es)? [y/N] ",
            work.len()
        );
        let _ = out.flush();
        let mut answer = String::new();
        let _ = std::io::stdin().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            let _ = writeln!(out, "nothing sent");
            return Ok(exit::OK);
        }
    }
    drop(out);

    // 3. Canary, then the rest; after a failure nothing new starts unless --keep-going.
    // Simulated switches carry no traffic: nothing to disturb.
    let policy = Policy {
        allow_disruptive: args.allow_disruptive || args.lab,
    };
    let backups = PathBuf::from(".fabric/backups");
    let bars = indicatif::MultiProgress::new();
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
            if failed.load(Ordering::Relaxed) && !args.keep_going {
                p.cli.close();
                return Some(Report {
                    name: job.target.name.clone(),
                    outcome: Outcome::Aborted("not started: an earlier switch failed".into()),
                    sent: 0,
                    elapsed: Duration::ZERO,
                    backup: None,
                    transcript: None,
                });
            }
            let bar = bars.add(indicatif::ProgressBar::new_spinner());
            bar.set_message(format!("{}: starting", job.target.name));
            let name = job.target.name.clone();
            let r = push::push(p, job, opts, policy, &backups, &|stage: Stage| {
                bar.set_message(format!("{name}: {stage}"));
                bar.tick();
            });
            bar.finish_and_clear();
            if !r.outcome.ok() {
                failed.store(true, Ordering::Relaxed);
            }
            Some(r)
        });
        reports.extend(done.into_iter().flatten());
    }

    // 4. The summary.
    let mut out = std::io::stdout().lock();
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
    for r in &reports {
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
    for r in &reports {
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
    }
    let all_ok = reports.iter().all(|r| r.outcome.ok());
    Ok(if unreachable > 0 && all_ok {
        exit::FAILURE
    } else if all_ok {
        exit::OK
    } else {
        exit::FINDINGS
    })
}
