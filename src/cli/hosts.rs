//! `fabric hosts`: per host of the fabric, the commands that make its NIC agree with the
//! switch ports it is cabled to (a script, or JSON), or the read-only script whose output is
//! its report; and the host half of `fabric audit` (`--hosts PATH…`, `--hosts-live`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use crate::audit::Finding;
use crate::audit::report::{Source, SourceKind};
use crate::error::{Failure, exit};
use crate::fabric::Fabric;
use crate::hosts::{self, Plan, report, script};
use crate::types::HostOs;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The fabric file (with `hosts:`).
    fabric: PathBuf,
    /// Only these hosts (repeat for several).
    #[arg(long = "host", value_name = "NAME")]
    hosts: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Script)]
    format: Format,
    /// With `--format collect` (and in `json`'s `reads`): the time between the two readings
    /// of a Linux host's NIC counters, in whole seconds: `10s` (default), `1m`.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = seconds)]
    interval: u32,
}

/// A time between two readings of a host's counters: as `fabric verify --interval` takes it,
/// in whole seconds (the host's `sleep` takes them), at most an hour.
pub(crate) fn seconds(text: &str) -> Result<u32, String> {
    let d = super::verify::interval(text)?;
    if d.subsec_nanos() != 0 || d.as_secs() == 0 || d.as_secs() > 3600 {
        return Err(format!(
            "`{text}`: whole seconds, from 1s to 1 hour (the host's `sleep` takes them)"
        ));
    }
    u32::try_from(d.as_secs()).map_err(|_| format!("`{text}`: at most 1 hour"))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A commented shell script per host that sets its NIC.
    Script,
    /// Each host's plan and commands, as JSON.
    Json,
    /// A read-only shell script per host whose output is the host's report
    /// (`fabric audit FABRIC --hosts`).
    Collect,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let (fabrics, clean) = super::check_all(std::slice::from_ref(&args.fabric), false, color)?;
    let Some((_, fabric)) = fabrics.into_iter().next().filter(|_| clean) else {
        return Ok(exit::FAILURE);
    };
    let Some(plans) = plans(&fabric, &args.hosts)? else {
        return Ok(exit::FINDINGS);
    };
    let text = match args.format {
        Format::Script => plans
            .iter()
            .map(script::apply)
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Collect => plans
            .iter()
            .map(|p| script::collect(p, args.interval))
            .collect::<Vec<_>>()
            .join("\n"),
        Format::Json => {
            let value: Vec<serde_json::Value> = plans
                .iter()
                .map(|p| {
                    let commands: Vec<String> = script::apply(p)
                        .lines()
                        .filter(|l| !l.is_empty() && !l.starts_with('#') && *l != "set -eu")
                        .map(str::to_string)
                        .collect();
                    let mut v = serde_json::to_value(p).unwrap_or_default();
                    v["commands"] = serde_json::json!(commands);
                    v["reads"] = serde_json::json!(script::reads(p, args.interval));
                    v
                })
                .collect();
            let mut value = serde_json::Value::Array(value);
            value.sort_all_objects();
            serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
        }
    };
    out!("{text}");
    Ok(exit::OK)
}

/// The chosen hosts' plans; `None` when some host has none (each reason printed).
fn plans(fabric: &Fabric, only: &[String]) -> Result<Option<Vec<Plan>>, Failure> {
    if fabric.hosts.is_empty() {
        return Err(Failure(
            "the fabric declares no host: add a `hosts:` map (docs/commands.md, \"Hosts\")".into(),
        ));
    }
    for n in only {
        if !fabric.hosts.contains_key(n.as_str()) {
            let hint = crate::types::did_you_mean(n, fabric.hosts.keys().map(|h| h.as_str()))
                .map_or(String::new(), |b| format!(" (did you mean `{b}`?)"));
            return Err(Failure(format!("the fabric has no host `{n}`{hint}")));
        }
    }
    // Each switch's RoCE view, whatever its OS.
    let configs: BTreeMap<_, _> = fabric
        .switches
        .iter()
        .map(|(name, sw)| (name.clone(), crate::audit::Switch::compiled(sw).view()))
        .collect();
    let mut out = Vec::new();
    let mut failed = false;
    for r in hosts::plans(fabric, &configs, only) {
        match r {
            Ok(p) => out.push(p),
            Err(c) => {
                errln!("error: host `{}`: {}", c.host, c.message);
                failed = true;
            }
        }
    }
    Ok((!failed).then_some(out))
}

/// What the host half of an audit found: findings, where each host was read from, and
/// whether some input could not be read (named on standard error).
pub(crate) struct Audited {
    pub findings: Vec<Finding>,
    pub sources: BTreeMap<String, Source>,
    pub unreadable: bool,
}

/// Every file given, and everything but folders in each folder given (name order, hidden
/// files aside): a named pipe or a device there is read, and refused by the reader, not
/// passed over as if no report were there.
fn report_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    super::audit::files_where(paths, |p| {
        !p.is_dir()
            && !p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
    })
}

/// The host a report is for: its file name up to the first `.` (`gpu001.txt`,
/// `gpu001.2024-05-01.log`).
fn host_of(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    name.split('.').next().unwrap_or("").to_string()
}

/// Host reports (files, or folders of `<host>.<anything>`) or live reads, against the plans.
pub(crate) fn audit(
    fabric: &Fabric,
    only: &[String],
    paths: &[PathBuf],
    live: Option<(&crate::fleet::Connect, u32)>,
) -> Result<Audited, Failure> {
    let mut out = Audited {
        findings: Vec::new(),
        sources: BTreeMap::new(),
        unreadable: false,
    };
    let Some(plans) = plans(fabric, only)? else {
        out.unreadable = true;
        return Ok(out);
    };
    // Hosts and plans looked up by name: a scan of them per report was reports × hosts.
    let planned: BTreeSet<&str> = plans.iter().map(|p| p.host.as_str()).collect();
    let mut texts: BTreeMap<String, (Source, String)> = BTreeMap::new();
    if let Some((connect, interval)) = live {
        read_live(
            fabric,
            &plans,
            connect,
            interval,
            &mut texts,
            &mut out.unreadable,
        )?;
    }
    for file in report_files(paths)? {
        let host = host_of(&file);
        let shown = file.display().to_string();
        if !fabric.hosts.contains_key(host.as_str()) {
            let hint = crate::types::did_you_mean(&host, fabric.hosts.keys().map(|h| h.as_str()))
                .map_or(String::new(), |b| format!(" (did you mean `{b}`?)"));
            errln!(
                "error: {shown}: a report for `{host}`, which the fabric does not declare{hint}; a report is named `<host>.<anything>`"
            );
            out.unreadable = true;
            continue;
        }
        if !planned.contains(host.as_str()) {
            continue;
        }
        let bytes = crate::input::read(&file, crate::hosts::report::MAX_BYTES)
            .map_err(|e| Failure(crate::input::cannot_read(&file, &e)))?;
        let Ok(text) = String::from_utf8(bytes.into_vec()) else {
            errln!("error: {shown}: not UTF-8 text: not a host report");
            out.unreadable = true;
            continue;
        };
        if let Some((other, _)) = texts.get(&host) {
            return Err(Failure(format!(
                "two reports are for host `{host}`: `{}` and `{shown}`",
                other.path
            )));
        }
        let source = Source {
            path: shown,
            kind: SourceKind::Host(text.clone()),
        };
        texts.insert(host, (source, text));
    }
    for plan in &plans {
        let Some((source, text)) = texts.remove(&plan.host) else {
            if live.is_none() {
                errln!(
                    "error: no report for host `{}`{}",
                    plan.host,
                    if live.is_some() {
                        String::new()
                    } else {
                        format!(
                            " (a file `{}.<anything>` among the `--hosts` paths)",
                            plan.host
                        )
                    }
                );
            }
            out.unreadable = true;
            continue;
        };
        match report::parse(&text) {
            Ok(r) => {
                out.findings.extend(hosts::audit_host(plan, &r));
                out.sources.insert(plan.host.clone(), source);
            }
            Err(e) => {
                let message = crate::diag::bounded(&e.message);
                errln!("error: {}:{}: {message}", source.path, e.line);
                out.unreadable = true;
            }
        }
    }
    Ok(out)
}

/// Each chosen host, read over SSH (every one at once, up to `--parallel`): Linux hosts
/// with `mgmt`. A host that cannot be read is named and the others go on.
fn read_live(
    fabric: &Fabric,
    plans: &[Plan],
    connect: &crate::fleet::Connect,
    interval: u32,
    texts: &mut BTreeMap<String, (Source, String)>,
    unreadable: &mut bool,
) -> Result<(), Failure> {
    let ssh = connect.ssh_config()?;
    let mut jobs = Vec::new();
    for plan in plans {
        let host = fabric.hosts.get(plan.host.as_str());
        match host.and_then(|h| h.mgmt.as_ref()) {
            Some(m) if plan.os == HostOs::Linux => jobs.push((
                // A host's user is `root` unless written: the NIC's settings need it.
                crate::device::ssh_config::target(
                    ssh.as_ref(),
                    &plan.host,
                    &m.host,
                    m.port,
                    Some(m.user.as_deref().unwrap_or("root")),
                )
                .map_err(|e| Failure(format!("host `{}`: {e}", plan.host)))?,
                script::reads(plan, interval),
            )),
            _ => {
                errln!(
                    "error: host `{}` cannot be read live: {}",
                    plan.host,
                    if plan.os == HostOs::Esxi {
                        "live reads are for Linux hosts; give its report with `--hosts`"
                    } else {
                        "it has no `mgmt` in the fabric"
                    }
                );
                *unreadable = true;
            }
        }
    }
    let mut opts = connect.options(&crate::fabric::Inventory::default(), None)?;
    // Transcripts are the switches' sessions; a host's report is the transcript.
    opts.transcripts = None;
    // `sleep` between the counters' readings is one command: it has its interval on top.
    opts.command_timeout += std::time::Duration::from_secs(u64::from(interval));
    opts.switches = fabric.hosts.keys().map(|h| h.to_string()).collect();
    let read = crate::fleet::parallel(&jobs, connect.parallel, |(target, commands)| {
        crate::device::host::read_host(target, &opts, commands)
    });
    for ((target, _), r) in jobs.iter().zip(read) {
        match r {
            Ok(text) => {
                let source = Source {
                    path: format!("ssh://{}", target.name),
                    kind: SourceKind::HostLive,
                };
                texts.insert(target.name.clone(), (source, text));
            }
            Err(e) => {
                errln!("error: {}: {e}", target.name);
                *unreadable = true;
            }
        }
    }
    Ok(())
}
