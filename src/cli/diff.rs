//! `fabric diff`: running configs against the fabric (or against another config), as a
//! readable diff and plan, pasteable commands, or JSON.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::ValueEnum;
use serde::Serialize;

use crate::diff::{Impact, Scope, Step};
use crate::error::{Failure, exit};
use crate::onyx::{Config, Iface, Renderer};
use crate::types::{Model, Port};

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
    /// Without `--running`: read each switch's running config over SSH.
    #[command(flatten)]
    connect: super::push::Connect,
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
    drift: bool,
    commands: Vec<Step>,
    /// Unified diff of the canonical running config and the canonical target.
    diff: String,
    /// Lines of the running config the model does not manage, left as they are.
    unmanaged_lines: usize,
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

/// What to compare: per switch, its running config, its intended config and the scope.
struct Pair {
    name: String,
    running: Config,
    intended: Config,
    scope: Scope,
    /// The switch's model, when a fabric says it.
    model: Option<&'static Model>,
    /// Where the running config was read (a file, or `ssh://name`).
    source: String,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let (pairs, mut failed) = match pairs(args, color)? {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    let renderer = Renderer::embedded()?;
    let mut out = Vec::new();
    for p in pairs {
        let foreign = foreign_ports(&p);
        if !foreign.is_empty() {
            failed = true;
            errln!(
                "error: `{}` ({}): the running config configures {} that {} does not have: {}; is it the config of `{0}`, and is the fabric's `model` right? They are left out of the plan",
                p.name,
                p.source,
                if foreign.len() == 1 {
                    "a port"
                } else {
                    "ports"
                },
                p.model.map_or("the switch", |m| m.name),
                foreign.join(", ")
            );
        }
        let target = crate::diff::target(&p.running, &p.intended, &p.scope);
        let commands = crate::diff::plan(&p.running, &target);
        // The text diff costs two renders and a diff of the whole config; only the formats
        // that print it pay for it.
        let diff = if matches!(args.format, Format::Commands) {
            String::new()
        } else {
            super::unified_diff(
                &renderer.render(&p.running)?,
                &renderer.render(&target)?,
                &format!("{} running", p.name),
                &format!("{} intended", p.name),
                false,
            )
        };
        let unmanaged_lines = p
            .running
            .layout
            .sections
            .iter()
            .flat_map(|s| &s.verbatim)
            .filter(|(_, l)| {
                !l.trim_start().starts_with('#') && !l.contains("cli default prefix-modes")
            })
            .count();
        out.push(SwitchDiff {
            name: p.name,
            drift: !commands.is_empty(),
            commands,
            diff,
            unmanaged_lines,
            foreign_ports: foreign,
        });
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
                for c in &s.commands {
                    outln!("{}", c.command);
                }
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

/// The Ethernet ports `p`'s running config configures that its model cannot have, as ranges.
fn foreign_ports(p: &Pair) -> Vec<String> {
    let Some(model) = p.model else {
        return Vec::new();
    };
    let ports: Vec<Port> = p
        .running
        .interfaces
        .keys()
        .filter_map(|i| match i {
            Iface::Ethernet(port) if !model.can_exist(*port) => Some(*port),
            _ => None,
        })
        .collect();
    crate::types::compress(ports.iter().map(|port| (*port, &())))
        .into_iter()
        .map(|(a, b, _)| format!("ethernet {}", crate::types::format_range(a, b)))
        .collect()
}

/// Switches whose plans are identical are shown once, with their names.
fn text(report: &Report, color: bool) -> String {
    let mut groups: Vec<(Vec<&str>, &SwitchDiff)> = Vec::new();
    for s in &report.switches {
        let key: Vec<String> = s.commands.iter().map(|c| c.command.to_string()).collect();
        match groups.iter_mut().find(|(_, g)| {
            g.commands
                .iter()
                .map(|c| c.command.to_string())
                .collect::<Vec<_>>()
                == key
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
            out += &format!("{:>4}. {}  [{tag}]\n", i + 1, c.command);
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
fn impacts(steps: &[Step]) -> String {
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
type Pairs = Result<Result<(Vec<Pair>, bool), u8>, Failure>;

/// Reads what to compare.
fn pairs(args: &Args, color: bool) -> Pairs {
    let Some(running) = &args.running else {
        return live(args, color);
    };
    if let Some(intended) = &args.intended {
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
        let name = super::switch_name(&i, intended);
        let scope = Scope {
            interfaces: None,
            fabric_attributes_only: false,
            prune: args.prune,
            ..Default::default()
        };
        return Ok(Ok((
            vec![Pair {
                name,
                running: r,
                intended: i,
                scope,
                model: None,
                source: running.display().to_string(),
            }],
            false,
        )));
    }
    let Some(fabric) = &args.fabric else {
        return Err(fail(
            "give a fabric file, or `--intended FILE` to compare two configs".into(),
        ));
    };
    let (fabrics, clean) = super::check_all(std::slice::from_ref(fabric), false, color)?;
    let Some((_, fabric)) = fabrics.into_iter().next().filter(|_| clean) else {
        return Ok(Err(exit::FAILURE));
    };
    super::onyx_only(
        &fabric,
        &args.switches,
        "`fabric diff` (OS10 plans and sessions)",
    )?;
    let chosen = super::chosen(&fabric, &args.switches)?;
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
        let Ok(r) = super::read_config(&path, color)? else {
            failed = true;
            continue;
        };
        out.push(Pair {
            name: sw.hostname.to_string(),
            running: r,
            intended: crate::compile::compile_switch(sw),
            scope: Scope::fabric(sw, args.prune),
            model: sw.model.onyx(),
            source: path.display().to_string(),
        });
    }
    if out.is_empty() && failed {
        return Ok(Err(exit::FAILURE));
    }
    Ok(Ok((out, failed)))
}

/// Without `--running`: each switch's running config read over SSH, all at once.
fn live(args: &Args, color: bool) -> Pairs {
    let Some(fabric) = &args.fabric else {
        return Err(fail(
            "give a fabric file (its switches are read over SSH), or `--running`".into(),
        ));
    };
    if args.intended.is_some() {
        return Err(fail(
            "with `--intended FILE`, give `--running FILE` too".into(),
        ));
    }
    let (fabrics, clean) = super::check_all(std::slice::from_ref(fabric), false, color)?;
    let Some((_, fabric)) = fabrics.into_iter().next().filter(|_| clean) else {
        return Ok(Err(exit::FAILURE));
    };
    super::onyx_only(
        &fabric,
        &args.switches,
        "`fabric diff` (OS10 plans and sessions)",
    )?;
    let inventory = super::push::read_inventory(args.connect.inventory.as_deref())?;
    let mut opts = args.connect.options(&inventory, None)?;
    super::push::fleet(&mut opts, &fabric);
    let ssh = args.connect.ssh_config()?;
    let jobs = super::push::jobs(&fabric, &args.switches, &inventory, ssh.as_ref())?;
    let targets: Vec<_> = jobs.iter().map(|j| j.target.clone()).collect();
    let fetched = match super::push::read_switches(&targets, &opts, args.connect.parallel, false) {
        Ok(f) => f,
        Err(_) => {
            errln!(
                "hint: switches are read over SSH when `--running FILE|DIR` is not given; pass `--running` to diff backups, or `--inventory FILE` (e.g. from `fabric lab`) for other addresses"
            );
            return Ok(Err(exit::FAILURE));
        }
    };
    let models: std::collections::BTreeMap<String, &'static Model> = fabric
        .switches
        .values()
        .filter_map(|sw| Some((sw.hostname.to_string(), sw.model.onyx()?)))
        .collect();
    let out = jobs
        .into_iter()
        .zip(fetched)
        .map(|(job, (running, _))| Pair {
            model: models.get(&job.target.name).copied(),
            source: format!("ssh://{}", job.target.name),
            name: job.target.name,
            running,
            intended: job.intended,
            scope: Scope {
                prune: args.prune,
                ..job.scope
            },
        })
        .collect();
    Ok(Ok((out, false)))
}
