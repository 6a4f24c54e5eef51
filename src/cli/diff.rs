//! `fabric diff`: running configs against the fabric (or against another config), as a
//! readable diff and plan, pasteable commands, or JSON; each switch in its own OS (Onyx:
//! `crate::onyx::plan`; OS10: `crate::os10::plan`, its commands typed in their blocks).

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::ValueEnum;
use serde::Serialize;

use crate::audit::Running;
use crate::device::push::Intent;
use crate::diff::Impact;
use crate::error::{Failure, exit};
use crate::onyx::plan::{Scope, Step};
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
    /// Read the simulated switches of `.fabric/lab`: the `fabric lab` running there, else
    /// ones started in this process (factory default, or as saved there).
    #[arg(long, conflicts_with_all = ["running", "inventory", "intended"])]
    lab: bool,
    /// Without `--running`: read each switch's running config over SSH.
    #[command(flatten)]
    connect: super::fleet::Connect,
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
/// One command of a plan: Onyx's `{command, impact}`, OS10's with the blocks it is typed in
/// (`{mode, command, opens, impact}`).
#[derive(Clone, Serialize)]
#[serde(untagged)]
enum Cmd {
    Onyx(Step),
    Os10(crate::os10::plan::Step),
}

impl Cmd {
    fn impact(&self) -> Impact {
        match self {
            Cmd::Onyx(s) => s.impact,
            Cmd::Os10(s) => s.impact,
        }
    }

    /// As a reviewer reads it.
    fn shown(&self) -> String {
        match self {
            Cmd::Onyx(s) => s.command.to_string(),
            Cmd::Os10(s) => crate::device::push::os10_shown(s),
        }
    }
}

#[derive(Serialize)]
struct SwitchDiff {
    name: String,
    /// `onyx` or `os10`.
    os: &'static str,
    drift: bool,
    commands: Vec<Cmd>,
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

/// What to compare: per switch, its running config and its intended config, in its OS.
struct Pair {
    name: String,
    configs: Configs,
    /// Where the running config was read (a file, or `ssh://name`).
    source: String,
}

/// A switch's running and intended configs, with the Onyx scope and the switch's model when
/// a fabric says it.
enum Configs {
    /// Boxed, as the other: the two OSes' models differ much in size.
    Onyx {
        running: Box<Config>,
        intended: Box<Config>,
        scope: Scope,
        model: Option<&'static Model>,
    },
    /// Boxed: the two OSes' models differ much in size.
    Os10 {
        running: Box<crate::os10::Config>,
        intended: Box<crate::os10::Config>,
        model: Option<&'static crate::os10::models::Model>,
    },
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let (pairs, mut failed) = match pairs(args, color)? {
        Ok(p) => p,
        Err(code) => return Ok(code),
    };
    let renderers = (Renderer::embedded()?, crate::os10::Renderer::embedded()?);
    let mut out = Vec::new();
    for p in pairs {
        let s = compare(p, args.format, &renderers)?;
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
            *summary.impact.entry(c.impact().to_string()).or_default() += 1;
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
                out!("{}", pasteable(&s.commands));
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

/// One switch compared: its plan, and (but for `commands`) the text diff of the canonical
/// running config and the target. Ports its running config configures that its model does
/// not have are said on standard error.
fn compare(
    p: Pair,
    format: Format,
    renderers: &(Renderer, crate::os10::Renderer),
) -> Result<SwitchDiff, Failure> {
    // The text diff costs two renders and a diff of the whole config; only the formats that
    // print it pay for it.
    let diff = |running: String, target: String| {
        super::unified_diff(
            &running,
            &target,
            &format!("{} running", p.name),
            &format!("{} intended", p.name),
            false,
        )
    };
    let text = !matches!(format, Format::Commands);
    let (os, commands, diff, unmanaged_lines, foreign, model) = match &p.configs {
        Configs::Onyx {
            running,
            intended,
            scope,
            model,
        } => {
            let target = crate::onyx::plan::target(running, intended, scope);
            let commands: Vec<Cmd> = crate::onyx::plan::plan(running, &target)
                .into_iter()
                .map(Cmd::Onyx)
                .collect();
            let target_text = renderers.0.render(&target)?;
            // What stays on the switch beyond the intent: the target's lines the intent does
            // not have (lines the model does not know, features and interfaces it leaves
            // alone without `--prune`).
            let intended_text = renderers.0.render(intended)?;
            let wanted: std::collections::HashSet<&str> = intended_text.lines().collect();
            let unmanaged = target_text
                .lines()
                .filter(|l| {
                    let t = l.trim_start();
                    !t.is_empty()
                        && !t.starts_with('#')
                        && !t.contains("cli default prefix-modes")
                        && !wanted.contains(l)
                })
                .count();
            let diff = if text {
                diff(renderers.0.render(running)?, target_text)
            } else {
                String::new()
            };
            let foreign = model.map(|m| onyx_foreign(running, m)).unwrap_or_default();
            (
                "onyx",
                commands,
                diff,
                unmanaged,
                foreign,
                model.map(|m| m.name),
            )
        }
        Configs::Os10 {
            running,
            intended,
            model,
        } => {
            let commands: Vec<Cmd> = crate::os10::plan::plan(running, intended)
                .into_iter()
                .map(Cmd::Os10)
                .collect();
            let diff = if text {
                let target = crate::os10::plan::target(running, intended);
                diff(renderers.1.render(running)?, renderers.1.render(&target)?)
            } else {
                String::new()
            };
            let unmanaged = running
                .layout
                .anchored()
                .iter()
                .map(|(_, t)| t.lines().count())
                .sum();
            let foreign = model.map(|m| os10_foreign(running, m)).unwrap_or_default();
            (
                "os10",
                commands,
                diff,
                unmanaged,
                foreign,
                model.map(|m| m.name),
            )
        }
    };
    if !foreign.is_empty() {
        errln!(
            "error: `{}` ({}): the running config configures {} that {} does not have: {}; is it the config of `{0}`, and is the fabric's `model` right? They are left out of the plan",
            p.name,
            p.source,
            if foreign.len() == 1 {
                "a port"
            } else {
                "ports"
            },
            model.unwrap_or("the switch"),
            foreign.join(", ")
        );
    }
    Ok(SwitchDiff {
        name: p.name,
        os,
        drift: !commands.is_empty(),
        commands,
        diff,
        unmanaged_lines,
        foreign_ports: foreign,
    })
}

/// A plan's commands ready to paste: Onyx's one per line, OS10's typed in their blocks
/// (`os10::plan::script`: each block entered, left with `exit`).
fn pasteable(commands: &[Cmd]) -> String {
    let os10: Vec<crate::os10::plan::Step> = commands
        .iter()
        .filter_map(|c| match c {
            Cmd::Os10(s) => Some(s.clone()),
            Cmd::Onyx(_) => None,
        })
        .collect();
    if !os10.is_empty() {
        return crate::os10::plan::script(&os10);
    }
    commands
        .iter()
        .map(|c| format!("{}\n", c.shown()))
        .collect()
}

/// The Ethernet ports an Onyx running config configures that its model cannot have, as
/// ranges.
fn onyx_foreign(running: &Config, model: &Model) -> Vec<String> {
    let ports: Vec<Port> = running
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

/// The Ethernet ports an OS10 running config configures that its model does not have
/// (another unit or slot than 1/1, or a port number past the model's).
fn os10_foreign(running: &crate::os10::Config, model: &crate::os10::models::Model) -> Vec<String> {
    running
        .interfaces
        .keys()
        .filter(|i| match i {
            crate::os10::Iface::Ethernet(e) => {
                e.node != 1 || e.slot != 1 || model.run(e.port).is_none()
            }
            _ => false,
        })
        .map(|i| i.to_string())
        .collect()
}

/// Switches whose plans are identical are shown once, with their names.
fn text(report: &Report, color: bool) -> String {
    let mut groups: Vec<(Vec<&str>, &SwitchDiff)> = Vec::new();
    for s in &report.switches {
        let key: Vec<String> = s.commands.iter().map(Cmd::shown).collect();
        match groups.iter_mut().find(|(_, g)| {
            g.os == s.os && g.commands.iter().map(Cmd::shown).collect::<Vec<_>>() == key
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
            let tag = match c.impact() {
                Impact::Hitless => c.impact().to_string(),
                _ if color => format!("\x1b[33m{}\x1b[0m", c.impact()),
                _ => c.impact().to_string(),
            };
            out += &format!("{:>4}. {}  [{tag}]\n", i + 1, c.shown());
            if let Cmd::Os10(s) = c
                && let Some(loss) = s.loss()
            {
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
fn impacts(steps: &[Cmd]) -> String {
    let count = |i: Impact| steps.iter().filter(|s| s.impact() == i).count();
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
            let r = s.spawn(|| super::load_running(running, color));
            let i = super::load_running(intended, color);
            (i, r.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
        });
        let (i, r) = (i?, r?);
        for diagnostic in [&i, &r].into_iter().filter_map(|c| c.as_ref().err()) {
            err!("{diagnostic}");
        }
        let (Ok((i, _)), Ok((r, _))) = (i, r) else {
            return Ok(Err(exit::FAILURE));
        };
        let configs = match (i, r) {
            (Running::Onyx(i), Running::Onyx(r)) => Configs::Onyx {
                running: r,
                intended: i,
                scope: Scope {
                    interfaces: None,
                    fabric_attributes_only: false,
                    prune: args.prune,
                    ..Default::default()
                },
                model: None,
            },
            // The model, where the configs' port groups name one (a running config does not
            // say its model).
            (Running::Os10(i), Running::Os10(r)) => Configs::Os10 {
                model: crate::os10::groups::model_of([&r.port_groups, &i.port_groups]),
                running: r,
                intended: i,
            },
            (i, _) => {
                let (onyx, os10) = ("an Onyx running-config", "an OS10 running configuration");
                let (mine, other) = match i {
                    Running::Onyx(_) => (onyx, os10),
                    Running::Os10(_) => (os10, onyx),
                };
                errln!(
                    "error: `{}` is {mine} and `{}` {other}: a plan takes one switch OS to itself",
                    intended.display(),
                    running.display()
                );
                return Ok(Err(exit::FAILURE));
            }
        };
        let name = match &configs {
            Configs::Onyx { intended: i, .. } => super::switch_name(i.name(), intended),
            Configs::Os10 { intended: i, .. } => {
                super::switch_name(i.hostname.as_deref(), intended)
            }
        };
        return Ok(Ok((
            vec![Pair {
                name,
                configs,
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
        let configs = match crate::compile::compile_target(sw) {
            crate::compile::Target::Onyx(intended) => {
                let Ok(running) = super::read_config(&path, color, super::Secrets::Masked)? else {
                    failed = true;
                    continue;
                };
                Configs::Onyx {
                    running: Box::new(running),
                    intended,
                    scope: Scope::fabric(sw, args.prune),
                    model: sw.model.onyx(),
                }
            }
            crate::compile::Target::Os10(intended) => {
                let Ok(running) = super::read_os10_config(&path, color, super::Secrets::Masked)?
                else {
                    failed = true;
                    continue;
                };
                Configs::Os10 {
                    running: Box::new(running),
                    intended,
                    model: os10_model(sw),
                }
            }
        };
        out.push(Pair {
            name: sw.hostname.to_string(),
            configs,
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
    let fabric_path = args.fabric.clone().unwrap_or_default();
    let reach = super::fleet::reach(args.lab, false, &fabric_path, &fabric, &args.connect, color)?;
    let (inventory, opts) = (&reach.inventory, &reach.options);
    let jobs = super::fleet::jobs(&fabric, &args.switches, inventory, reach.ssh.as_ref())?;
    let switches: std::collections::BTreeMap<String, &crate::fabric::Switch> = fabric
        .switches
        .values()
        .map(|sw| (sw.hostname.to_string(), sw))
        .collect();
    // Read with `show` commands only, each switch in its OS's dialect.
    let fetched = super::fleet::parallel(&jobs, args.connect.parallel, |job| {
        let sw = switches.get(&job.target.name).copied();
        let mut cli = job.intent.open(&job.target, opts)?;
        let configs = match &job.intent {
            Intent::Onyx { intended, scope } => Configs::Onyx {
                running: Box::new(cli.fetch()?.1),
                intended: Box::new(intended.clone()),
                scope: if args.prune {
                    scope.clone().pruned()
                } else {
                    scope.clone()
                },
                model: sw.and_then(|s| s.model.onyx()),
            },
            Intent::Os10 { intended } => Configs::Os10 {
                running: Box::new(cli.fetch_os10()?.1),
                intended: Box::new(intended.clone()),
                model: sw.and_then(os10_model),
            },
        };
        cli.close();
        Ok::<_, crate::device::Error>(Pair {
            name: job.target.name.clone(),
            configs,
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

/// An OS10 switch's model.
fn os10_model(sw: &crate::fabric::Switch) -> Option<&'static crate::os10::models::Model> {
    match sw.model {
        crate::fabric::Hardware::Os10(m) => Some(m),
        crate::fabric::Hardware::Onyx(_) => None,
    }
}
