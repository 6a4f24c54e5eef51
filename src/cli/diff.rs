//! `fabric diff`: running configs against the fabric (or against another config), as a
//! readable diff and plan, pasteable commands, or JSON; each switch compared by its own OS
//! through the switch-OS interface ([`crate::targets`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::ValueEnum;
use serde::Serialize;

use crate::diff::Impact;
use crate::error::{Failure, exit};
use crate::fabric::{Fabric, Switch};
use crate::targets::{Config, Managed, PlanStep};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The fabric file (not with `--intended`).
    fabric: Option<PathBuf>,
    /// Only these switches (repeat the option for several).
    #[arg(long = "switch", value_name = "NAME")]
    switches: Vec<String>,
    /// Running configs: one file (one switch), or a folder of `<switch>.cfg` (backups).
    #[arg(long, value_name = "PATH")]
    running: Option<PathBuf>,
    /// Compare with this config instead of a fabric: everything in it is managed.
    #[arg(long, value_name = "FILE", conflicts_with = "fabric")]
    intended: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also remove objects of a managed kind that the intent does not declare (stale VLANs,
    /// pools; with `--intended`, interface settings too).
    #[arg(long)]
    prune: bool,
    /// Read the simulated switches of `.fabric/lab`: the `fabric lab` running there, else
    /// ones started in this process (factory default, or as saved there).
    #[arg(long, conflicts_with_all = ["running", "inventory", "intended"])]
    lab: bool,
    /// Without `--running`: read each switch's running config over SSH.
    #[command(flatten)]
    connect: crate::fleet::Connect,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A colored unified diff per switch, the numbered plan with impacts, a summary.
    Text,
    /// Only the commands, pasteable.
    Commands,
    /// Everything, for scripts (schema in `docs/commands.md`).
    Json,
}

/// One switch's result, as the JSON output prints it.
#[derive(Serialize)]
struct SwitchDiff {
    name: String,
    /// The OS's word in a fabric file (`onyx`, `os10`).
    os: &'static str,
    drift: bool,
    /// Each OS's steps in its shape: Onyx's `{command, impact}`, OS10's with the blocks it is
    /// typed in (`{mode, command, opens, impact}`).
    commands: Vec<PlanStep>,
    /// Unified diff of the canonical running config and the canonical target.
    diff: String,
    /// Lines of the running config the model does not manage, left as they are.
    unmanaged_lines: usize,
    /// The commands ready to paste.
    #[serde(skip)]
    pasteable: String,
    /// Ports the running config configures that the switch's model does not have (`ethernet
    /// 1/40` on a 32-port switch): left out of the plan, and an error.
    foreign_ports: Vec<String>,
}

#[derive(Serialize, Default)]
struct Summary {
    switches: usize,
    drifted: usize,
    commands: usize,
    impact: BTreeMap<String, usize>,
    unmanaged_lines: usize,
}

#[derive(Serialize)]
struct Report {
    switches: Vec<SwitchDiff>,
    summary: Summary,
}

/// What to compare: per switch, its running config and its intended config, of one OS.
struct Pair<'a> {
    name: String,
    running: Box<dyn Config>,
    intended: Box<dyn Config>,
    /// The fabric's switch, when the intent is a fabric's.
    switch: Option<&'a Switch>,
    /// Where the running config was read (a file, or `ssh://name`).
    source: String,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let fabric = match fabric(args, color)? {
        Ok(f) => f,
        Err(code) => return Ok(code),
    };
    let (pairs, mut failed) = match pairs(args, fabric.as_ref(), color)? {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    let mut out = Vec::new();
    for p in pairs {
        let s = compare(p, args.format, args.prune)?;
        if !s.foreign_ports.is_empty() {
            failed = true;
        }
        out.push(s);
    }
    let mut summary = Summary {
        switches: out.len(),
        // Every impact is listed, also when no command has it.
        impact: Impact::ALL
            .into_iter()
            .map(|i| (i.to_string(), 0))
            .collect(),
        ..Summary::default()
    };
    for s in &out {
        summary.drifted += usize::from(s.drift);
        summary.commands += s.commands.len();
        summary.unmanaged_lines += s.unmanaged_lines;
        for c in &s.commands {
            *summary.impact.entry(c.impact.to_string()).or_default() += 1;
        }
    }
    let drift = summary.drifted > 0;
    let report = Report {
        switches: out,
        summary,
    };
    match args.format {
        Format::Json => outln!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| Failure(e.to_string()))?
        ),
        Format::Commands => {
            let several = report.switches.iter().filter(|s| s.drift).count() > 1;
            for s in report.switches.iter().filter(|s| s.drift) {
                if several {
                    outln!("# {}", s.name);
                }
                out!("{}", s.pasteable);
            }
        }
        Format::Text => out!("{}", text(&report, color)),
    }
    Ok(if failed {
        exit::FAILURE
    } else if drift {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

/// One switch compared by its OS: its plan, and (but for `commands`) the text diff of the
/// canonical running config and the target. Ports its running config configures that its
/// model does not have are said on standard error.
fn compare(p: Pair, format: Format, prune: bool) -> Result<SwitchDiff, Failure> {
    let how = Managed {
        switch: p.switch,
        prune,
        // The text diff costs two renders and a diff of the whole config; only the formats
        // that print it pay for it.
        text: !matches!(format, Format::Commands),
    };
    let c = p
        .running
        .compare(p.intended.as_ref(), &how)
        .map_err(Failure)?;
    let diff = match &c.texts {
        Some((running, target)) => super::unified_diff(
            running,
            target,
            &format!("{} running", p.name),
            &format!("{} intended", p.name),
            false,
        ),
        None => String::new(),
    };
    if !c.foreign_ports.is_empty() {
        errln!(
            "error: `{}` ({}): the running config configures {} that {} does not have: {}; is it the config of `{0}`, and is the fabric's `model` right? They are left out of the plan",
            p.name,
            p.source,
            if c.foreign_ports.len() == 1 {
                "a port"
            } else {
                "ports"
            },
            c.model.unwrap_or("the switch"),
            c.foreign_ports.join(", ")
        );
    }
    Ok(SwitchDiff {
        name: p.name,
        os: p.running.target().os().word(),
        drift: !c.steps.is_empty(),
        commands: c.steps,
        diff,
        unmanaged_lines: c.unmanaged_lines,
        pasteable: c.pasteable,
        foreign_ports: c.foreign_ports,
    })
}

/// Switches whose plans are identical are shown once, with their names.
fn text(report: &Report, color: bool) -> String {
    let mut groups: Vec<(Vec<&str>, &SwitchDiff)> = Vec::new();
    for s in &report.switches {
        let key: Vec<&str> = s.commands.iter().map(|c| c.shown.as_str()).collect();
        match groups.iter_mut().find(|(_, g)| {
            g.os == s.os
                && g.commands
                    .iter()
                    .map(|c| c.shown.as_str())
                    .eq(key.iter().copied())
        }) {
            Some((names, _)) => names.push(&s.name),
            None => groups.push((vec![&s.name], s)),
        }
    }
    let mut out = String::new();
    let bold = |s: &str| {
        if color {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    };
    for (names, s) in &groups {
        let who = match names.len() {
            1 => names[0].to_string(),
            2 => format!("{} and {}", names[0], names[1]),
            _ => format!(
                "{} … {} ({} switches)",
                names[0],
                names[names.len() - 1],
                names.len()
            ),
        };
        if !s.drift {
            out += &format!("{}: no drift\n\n", bold(&who));
            continue;
        }
        let same = if names.len() > 1 { "same change, " } else { "" };
        out += &format!(
            "{}: {same}{} command(s){}\n",
            bold(&who),
            s.commands.len(),
            impacts(&s.commands)
        );
        out += &recolor(&s.diff, color);
        out += "\n";
        for (i, c) in s.commands.iter().enumerate() {
            let tag = match c.impact {
                Impact::Hitless => c.impact.to_string(),
                _ if color => format!("\x1b[33m{}\x1b[0m", c.impact),
                _ => c.impact.to_string(),
            };
            out += &format!("{:>4}. {}  [{tag}]\n", i + 1, c.shown);
            if let Some(loss) = &c.warning {
                out += &format!("        warning: {loss}\n");
            }
        }
        out += "\n";
    }
    let m = &report.summary;
    out += &format!(
        "{} of {} switch(es) drift: {} command(s){}; {} unmanaged line(s) left as they are\n",
        m.drifted,
        m.switches,
        m.commands,
        impacts(
            &report
                .switches
                .iter()
                .flat_map(|s| s.commands.iter().cloned())
                .collect::<Vec<_>>()
        ),
        m.unmanaged_lines
    );
    out
}

/// ` (2 port-flap, 1 session-reset, 1 disruptive)`, or nothing when every command is
/// hitless.
fn impacts(steps: &[PlanStep]) -> String {
    let count = |i: Impact| steps.iter().filter(|s| s.impact == i).count();
    let parts: Vec<String> = Impact::ALL
        .into_iter()
        .filter(|i| *i != Impact::Hitless && count(*i) > 0)
        .map(|i| format!("{} {i}", count(i)))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

fn recolor(diff: &str, color: bool) -> String {
    if !color {
        return diff.to_string();
    }
    diff.lines()
        .map(|line| match line.chars().next() {
            Some('+') if !line.starts_with("+++") => format!("\x1b[32m{line}\x1b[0m\n"),
            Some('-') if !line.starts_with("---") => format!("\x1b[31m{line}\x1b[0m\n"),
            Some('@') => format!("\x1b[36m{line}\x1b[0m\n"),
            _ => format!("{line}\n"),
        })
        .collect()
}

fn fail(msg: String) -> Failure {
    Failure(msg)
}

/// What to compare, and whether some switch could not be read (each said on standard error;
/// the others are compared). `Err(code)` when nothing can be compared and that was said.
type Pairs<'a> = Result<Result<(Vec<Pair<'a>>, bool), u8>, Failure>;

/// The fabric, when one is given: checked, or `Err(code)` when it is not clean (said).
fn fabric(args: &Args, color: bool) -> Result<Result<Option<Fabric>, u8>, Failure> {
    let Some(path) = &args.fabric else {
        return Ok(Ok(None));
    };
    let (fabrics, clean) = super::check_all(std::slice::from_ref(path), false, color)?;
    Ok(match fabrics.into_iter().next().filter(|_| clean) {
        Some((_, fabric)) => Ok(Some(fabric)),
        None => Err(exit::FAILURE),
    })
}

/// Reads what to compare.
fn pairs<'a>(args: &Args, fabric: Option<&'a Fabric>, color: bool) -> Pairs<'a> {
    let Some(running) = &args.running else {
        return live(args, fabric, color);
    };
    if let Some(intended) = &args.intended {
        return two_files(running, intended, color);
    }
    let Some(fabric) = fabric else {
        return Err(fail(
            "give a fabric file, or `--intended FILE` to compare two configs".into(),
        ));
    };
    let chosen = super::chosen(fabric, &args.switches)?;
    if !running.is_dir() && chosen.len() != 1 {
        return Err(fail(format!(
            "`{}` is one running config but {} switches are chosen; pick one with `--switch NAME`, or pass a folder of <switch>.cfg",
            running.display(),
            chosen.len()
        )));
    }
    let mut out = Vec::new();
    let mut failed = false;
    for sw in chosen {
        let path: PathBuf = if running.is_dir() {
            running.join(format!("{}.cfg", sw.hostname))
        } else {
            running.clone()
        };
        if !path.exists() {
            // The others are still compared: one missing backup hides no drift elsewhere.
            errln!(
                "error: no running config for `{}`: `{}` does not exist",
                sw.hostname,
                path.display()
            );
            failed = true;
            continue;
        }
        let intended = crate::compile::compile_config(sw);
        let os = intended.target();
        let Ok(running) = super::read_running(&path, color, super::Secrets::Masked, os)? else {
            failed = true;
            continue;
        };
        out.push(Pair {
            name: sw.hostname.to_string(),
            running,
            intended,
            switch: Some(sw),
            source: path.display().to_string(),
        });
    }
    if out.is_empty() && failed {
        return Ok(Err(exit::FAILURE));
    }
    Ok(Ok((out, failed)))
}

/// `--intended FILE --running FILE`: two configurations of one OS, everything in the
/// intended one managed.
fn two_files<'a>(running: &std::path::Path, intended: &std::path::Path, color: bool) -> Pairs<'a> {
    if running.is_dir() {
        return Err(fail(format!(
            "`{}` is a folder; with `--intended FILE`, `--running` is one file",
            running.display()
        )));
    }
    // Both files at once: each parse keeps the machine's cores busy only part of the time.
    let (i, r) = std::thread::scope(|s| {
        let r = s.spawn(|| super::load_config(running, color));
        let i = super::load_config(intended, color);
        (i, r.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
    });
    let (i, r) = (i?, r?);
    for diagnostic in [&i, &r].into_iter().filter_map(|c| c.as_ref().err()) {
        err!("{diagnostic}");
    }
    let (Ok((i, _)), Ok((r, _))) = (i, r) else {
        return Ok(Err(exit::FAILURE));
    };
    if !crate::targets::same_os(i.as_ref(), r.as_ref()) {
        let named = |c: &dyn Config| c.target().a_running_config();
        errln!(
            "error: `{}` is {} and `{}` {}: a plan takes one switch OS to itself",
            intended.display(),
            named(i.as_ref()),
            running.display(),
            named(r.as_ref()),
        );
        return Ok(Err(exit::FAILURE));
    }
    Ok(Ok((
        vec![Pair {
            name: super::switch_name(i.hostname(), intended),
            running: r,
            intended: i,
            switch: None,
            source: running.display().to_string(),
        }],
        false,
    )))
}

/// Without `--running`: each switch's running config read over SSH, all at once.
fn live<'a>(args: &Args, fabric: Option<&'a Fabric>, color: bool) -> Pairs<'a> {
    let Some(fabric) = fabric else {
        return Err(fail(
            "give a fabric file (its switches are read over SSH), or `--running`".into(),
        ));
    };
    if args.intended.is_some() {
        return Err(fail(
            "with `--intended FILE`, give `--running FILE` too".into(),
        ));
    }
    let fabric_path = args.fabric.clone().unwrap_or_default();
    let reach = super::fleet::reach(args.lab, false, &fabric_path, fabric, &args.connect, color)?;
    let (inventory, opts) = (&reach.inventory, &reach.options);
    let jobs = crate::fleet::jobs(fabric, &args.switches, inventory, reach.ssh.as_ref())?;
    let switches: BTreeMap<String, &Switch> = fabric
        .switches
        .values()
        .map(|sw| (sw.hostname.to_string(), sw))
        .collect();
    // Read with `show` commands only, each switch in its OS's dialect.
    let fetched = crate::fleet::parallel(&jobs, args.connect.parallel, |job| {
        let os = job.intent.intended().target();
        let mut cli = crate::device::Cli::open_as(&job.target, opts, os.dialect())?;
        let (_, running) = os.fetch(&mut cli)?;
        cli.close();
        Ok::<_, crate::device::Error>(Pair {
            name: job.target.name.clone(),
            running,
            intended: job.intent.intended().clone_box(),
            switch: switches.get(&job.target.name).copied(),
            source: format!("ssh://{}", job.target.name),
        })
    });
    let mut out = Vec::new();
    for (job, r) in jobs.iter().zip(fetched) {
        match r {
            Ok(pair) => out.push(pair),
            // A device error never names the switch: it is named here, once.
            Err(e) => errln!("error: {}: {e}", job.target.name),
        }
    }
    if out.len() < jobs.len() {
        errln!(
            "hint: switches are read over SSH when `--running FILE|DIR` is not given; pass `--running` to diff backups, or `--inventory FILE` (e.g. from `fabric lab`) for other addresses"
        );
        return Ok(Err(exit::FAILURE));
    }
    Ok(Ok((out, false)))
}
