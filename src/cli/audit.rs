//! `fabric audit`: RoCE best practice and drift, on running configs (files or folders of
//! backups), on live switches (read-only), or on a fabric file before deployment;
//! `fabric explain RULE`: a rule's doc.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use crate::audit::report::{Report, Source, SourceKind, fabric_sources};
use crate::audit::{self, Input, Profile, Severity, Switch};
use crate::error::{Failure, exit};
use crate::fabric::Fabric;
use crate::targets::{self, Config};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The fabric file: alone, its compiled configs are audited (before deployment); with
    /// `--running` or `--live`, the switches are, and drift from it is a finding too.
    fabric: Option<PathBuf>,
    /// Running configs: files, or folders of `<switch>.cfg` (backups).
    #[arg(long, value_name = "PATH")]
    running: Vec<PathBuf>,
    /// Read the switches over SSH (read-only: only `show` commands), from the fabric's
    /// `mgmt` addresses or `--inventory`.
    #[arg(long, conflicts_with = "running")]
    live: bool,
    /// Audit simulated switches started in this process (`--live` on `fabric lab`'s
    /// switches, which start as the fabric's compiled configs or from `.fabric/lab` state).
    #[arg(long, conflicts_with_all = ["running", "inventory"], requires = "fabric")]
    lab: bool,
    /// Only these switches of the fabric (repeat for several).
    #[arg(long = "switch", value_name = "NAME")]
    switches: Vec<String>,
    /// Host reports (files, or folders of `<host>.<anything>`: the output of `fabric hosts
    /// --format collect`), checked against the switch ports each host is cabled to.
    #[arg(long = "hosts", value_name = "PATH", requires = "fabric")]
    host_reports: Vec<PathBuf>,
    /// Read the fabric's Linux hosts over SSH (their `mgmt`; read-only commands only) and
    /// check them as `--hosts` does.
    #[arg(long, requires = "fabric")]
    hosts_live: bool,
    /// With `--hosts-live`: the time between the two readings of each host's NIC counters,
    /// in whole seconds: `10s` (default), `1m`.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = super::hosts::seconds)]
    interval: u32,
    /// Only these hosts of the fabric, with `--hosts` or `--hosts-live` (repeat for several).
    #[arg(long = "host", value_name = "NAME")]
    only_hosts: Vec<String>,
    /// What the fabric is meant to be: lossless (PFC + ECN) or lossy (ECN only) RoCE.
    #[arg(long, value_enum, default_value_t = Profile::RoceLossless)]
    profile: Profile,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The lowest severity that makes the exit code 1.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    #[command(flatten)]
    connect: crate::fleet::Connect,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Switches with their scores, then the findings with the lines at fault.
    Text,
    /// Stable JSON (docs/audit.md).
    Json,
    /// SARIF 2.1.0, for code scanning.
    Sarif,
    /// JUnit XML, for CI dashboards.
    Junit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum FailOn {
    Error,
    Warning,
    Never,
}

/// What is audited: the switches, where each was read from, the links between them.
struct Audited {
    input: Input,
    sources: BTreeMap<String, Source>,
    /// Some input could not be read (and was named): the verdict is not clean.
    unreadable: bool,
    /// Findings of the hosts' reports (`--hosts`, `--hosts-live`), by host.
    host_findings: Vec<audit::Finding>,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let audited = match (&args.fabric, args.live || args.lab, args.running.is_empty()) {
        (None, false, true) => {
            return Err(Failure(
                "give running configs (`--running PATH`), `--live` switches, or a fabric file"
                    .into(),
            ));
        }
        (None, true, _) => live_without_fabric(args)?,
        (None, false, false) => match running(args, color)? {
            Ok(a) => a,
            Err(code) => return Ok(code),
        },
        (Some(path), _, _) => {
            let (fabrics, clean) = super::check_all(std::slice::from_ref(path), false, color)?;
            let Some((_, fabric)) = fabrics.into_iter().next().filter(|_| clean) else {
                return Ok(exit::FAILURE);
            };
            let mut audited = match with_fabric(args, path, &fabric, color)? {
                Ok(a) => a,
                Err(code) => return Ok(code),
            };
            if !args.host_reports.is_empty() || args.hosts_live {
                let h = super::hosts::audit(
                    &fabric,
                    &args.only_hosts,
                    &args.host_reports,
                    args.hosts_live.then_some((&args.connect, args.interval)),
                )?;
                audited.sources.extend(h.sources);
                audited.host_findings = h.findings;
                audited.unreadable |= h.unreadable;
            }
            audited
        }
    };
    let mut findings = audit::audit(&audited.input);
    findings.extend(audited.host_findings.iter().cloned());
    let report = Report {
        profile: args.profile,
        switches: &audited.sources,
        findings: &findings,
    };
    out!(
        "{}",
        match args.format {
            Format::Text => report.text(),
            Format::Json => report.json(),
            Format::Sarif => report.sarif(),
            Format::Junit => report.junit(),
        }
    );
    // Said beside the text report only: the other formats are read by programs.
    let seen = match args.format {
        Format::Text => audit::without_roce(&audited.input),
        _ => Vec::new(),
    };
    for name in seen {
        errln!(
            "note: `{name}` carries no RoCE (no ECN, PFC, lossless priority or RoCE port): the RoCE rules had nothing to check there"
        );
    }
    let worst = findings.iter().map(|f| f.severity).min();
    let fails = match (args.fail_on, worst) {
        (FailOn::Never, _) | (_, None) => false,
        (FailOn::Warning, Some(s)) => s <= Severity::Warning,
        (FailOn::Error, Some(s)) => s == Severity::Error,
    };
    Ok(if audited.unreadable {
        exit::FAILURE
    } else if fails {
        exit::FINDINGS
    } else {
        exit::OK
    })
}

/// The files to read: each file given, and the `*.cfg` of each folder given, in name order.
pub(crate) fn files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    files_where(paths, |p| p.extension().is_some_and(|e| e == "cfg"))
}

/// Each file given, and the files of each folder given that `keep` accepts, in name order.
pub(crate) fn files_where(
    paths: &[PathBuf],
    keep: impl Fn(&std::path::Path) -> bool,
) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let cannot =
                |e: std::io::Error| Failure(format!("cannot read `{}`: {e}", path.display()));
            let mut found = Vec::new();
            for entry in std::fs::read_dir(path).map_err(cannot)? {
                let p = entry.map_err(cannot)?.path();
                if keep(&p) {
                    found.push(p);
                }
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// A running config read, with where it was read from; `Err(code)` when its diagnostic was
/// printed.
type Read = Result<(Box<dyn Config>, Source), u8>;

/// A running config (of the OS its content is) and its text; `Err(code)` when its diagnostic
/// was printed.
fn read(path: &Path, color: bool) -> Result<Read, Failure> {
    let (config, text) = match super::load_config(path, color)? {
        Ok(r) => r,
        Err(diagnostic) => {
            err!("{diagnostic}");
            return Ok(Err(exit::FAILURE));
        }
    };
    let source = Source {
        path: path.display().to_string(),
        kind: SourceKind::Running(text),
    };
    Ok(Ok((config, source)))
}

/// Running configs without a fabric: each switch named by its config (else its file name);
/// links read from descriptions.
fn running(args: &Args, color: bool) -> Result<Result<Audited, u8>, Failure> {
    let mut input = Input {
        profile: args.profile,
        ..Input::default()
    };
    let mut sources = BTreeMap::new();
    // Every file that is not a readable running config is named; none is skipped silently,
    // and the audit of the others is still printed (exit 2).
    let mut unreadable = false;
    for file in files(&args.running)? {
        let (config, source) = match read(&file, color)? {
            Ok(r) => r,
            Err(_) => {
                unreadable = true;
                continue;
            }
        };
        let name = super::switch_name(config.hostname(), &file);
        if let Some(other) = sources.get(&name) {
            let other: &Source = other;
            return Err(Failure(format!(
                "two configs are for switch `{name}`: `{}` and `{}`",
                other.path,
                file.display()
            )));
        }
        input.switches.insert(name.clone(), Switch::of(config));
        sources.insert(name, source);
    }
    if unreadable && sources.is_empty() {
        return Ok(Err(exit::FAILURE));
    }
    input.links = audit::links_from_descriptions(&input.switches);
    Ok(Ok(Audited {
        input,
        sources,
        unreadable,
        host_findings: Vec::new(),
    }))
}

fn live_source(name: &str) -> Source {
    Source {
        path: format!("ssh://{name}"),
        kind: SourceKind::Live,
    }
}

/// `--live` without a fabric: the inventory's switches.
fn live_without_fabric(args: &Args) -> Result<Audited, Failure> {
    if args.connect.inventory.is_none() {
        return Err(Failure(
            "`--live` needs a fabric file (its `mgmt` addresses) or `--inventory FILE`".into(),
        ));
    }
    let inventory = crate::fleet::read_inventory(args.connect.inventory.as_deref())?;
    let opts = args.connect.options(&inventory, None)?;
    let ssh = args.connect.ssh_config()?;
    let targets = inventory
        .switches
        .iter()
        .filter(|(name, _)| args.switches.is_empty() || args.switches.contains(name))
        .map(|(name, a)| {
            crate::device::ssh_config::target(
                ssh.as_ref(),
                name,
                &a.host,
                Some(a.port),
                Some(&a.user),
            )
            .map_err(|e| Failure(format!("`{name}`: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut input = Input {
        profile: args.profile,
        ..Input::default()
    };
    let mut sources = BTreeMap::new();
    // Without a fabric, each switch is read as the default OS's, in its session.
    let os = crate::fabric::Os::default().target();
    let read = crate::fleet::read_each(&targets, args.connect.parallel, |target| {
        os.audit().read_live(target, &opts)
    })?;
    for (target, (config, unsaved)) in targets.iter().zip(read) {
        let mut sw = Switch::of(config);
        sw.unsaved = Some(unsaved);
        input.switches.insert(target.name.clone(), sw);
        sources.insert(target.name.clone(), live_source(&target.name));
    }
    input.links = audit::links_from_descriptions(&input.switches);
    Ok(Audited {
        input,
        sources,
        unreadable: false,
        host_findings: Vec::new(),
    })
}

/// A running config read for a fabric's switch, as an audited switch with its drift from the
/// fabric; an error when the config is of another OS than the fabric says.
fn fabric_switch(config: Box<dyn Config>, sw: &crate::fabric::Switch) -> Result<Switch, String> {
    let os = sw.os();
    if config.target().os() != os {
        return Err(format!(
            "the fabric says `{}` runs {os}, but its running config is {} one",
            sw.hostname,
            config.target().audit().fixes().a
        ));
    }
    let drift = config.drift(sw);
    let mut s = Switch::of(config);
    s.model = Some(sw.model);
    s.drift = drift;
    Ok(s)
}

/// The fabric's compiled configs, as the switches will run them, located in the fabric file,
/// with the fabric's links.
fn predeploy(
    path: &Path,
    fabric: &Fabric,
    chosen: &[&crate::fabric::Switch],
    profile: Profile,
) -> Audited {
    let input = audit::planned(fabric, chosen, profile);
    let sources = fabric_sources(
        &path.display().to_string(),
        crate::input::read_string(path, crate::fabric::load::MAX_BYTES as u64).unwrap_or_default(),
        input.switches.keys(),
    );
    Audited {
        input,
        sources,
        unreadable: false,
        host_findings: Vec::new(),
    }
}

/// `fabric validate`'s audit of a valid fabric (profile roce-lossless): its error and
/// warning findings as lines, and how many of each.
pub(crate) fn validate(path: &Path, fabric: &Fabric) -> (String, usize, usize) {
    let chosen: Vec<_> = fabric.switches.values().collect();
    let audited = predeploy(path, fabric, &chosen, Profile::RoceLossless);
    let findings = audit::audit(&audited.input);
    let report = Report {
        profile: Profile::RoceLossless,
        switches: &audited.sources,
        findings: &findings,
    };
    let mut out = String::new();
    for f in findings.iter().filter(|f| f.severity != Severity::Info) {
        let at = match report.location(f) {
            Some(audit::report::Location {
                file,
                line: Some(n),
            }) => format!("{file}:{n}: "),
            _ => format!("{}: ", path.display()),
        };
        out.push_str(&format!(
            "{at}{} {} ({}) on {}: {}\n",
            f.severity, f.rule, f.name, f.switch, f.message
        ));
    }
    let count = |s| findings.iter().filter(|f| f.severity == s).count();
    let counts = (count(Severity::Error), count(Severity::Warning));
    // Every switch's compiled config, kept until the command ends (validate, compile and
    // push read no more of them): freeing 10,000 of them piece by piece is not worth its time.
    std::mem::forget(audited);
    (out, counts.0, counts.1)
}

/// With a fabric: its compiled configs (pre-deploy), or the switches' running configs
/// (files or live) with drift from it.
fn with_fabric(
    args: &Args,
    path: &Path,
    fabric: &Fabric,
    color: bool,
) -> Result<Result<Audited, u8>, Failure> {
    let chosen = super::chosen(fabric, &args.switches)?;
    if args.live || args.lab {
        return live_with_fabric(args, path, fabric, &chosen, color).map(Ok);
    }
    if args.running.is_empty() {
        return Ok(Ok(predeploy(path, fabric, &chosen, args.profile)));
    }
    running_with_fabric(args, fabric, &chosen, color)
}

/// The fabric's chosen switches read live (or in the lab), each in its OS's session, with
/// their unsaved changes and drift from the fabric.
fn live_with_fabric(
    args: &Args,
    path: &Path,
    fabric: &Fabric,
    chosen: &[&crate::fabric::Switch],
    color: bool,
) -> Result<Audited, Failure> {
    let mut input = Input {
        profile: args.profile,
        links: audit::fabric_links(fabric),
        ..Input::default()
    };
    let mut sources = BTreeMap::new();
    let reach = super::fleet::reach(args.lab, false, path, fabric, &args.connect, color)?;
    let jobs = crate::fleet::jobs(fabric, &args.switches, &reach.inventory, reach.ssh.as_ref())?;
    let targets: Vec<_> = jobs.into_iter().map(|j| j.target).collect();
    let oses: BTreeMap<String, &dyn targets::SwitchOs> = chosen
        .iter()
        .map(|sw| (sw.hostname.to_string(), sw.os().target()))
        .collect();
    // Each switch read-only in its OS's session, with whether it has unsaved changes.
    let fetched = crate::fleet::read_each(&targets, args.connect.parallel, |target| {
        let os = oses
            .get(&target.name)
            .copied()
            .unwrap_or(targets::default_os());
        os.audit().read_live(target, &reach.options)
    })?;
    for (sw, (config, unsaved)) in chosen.iter().zip(fetched) {
        let name = sw.hostname.to_string();
        let mut s = fabric_switch(config, sw).map_err(Failure)?;
        s.unsaved = Some(unsaved);
        input.switches.insert(name.clone(), s);
        sources.insert(name.clone(), live_source(&name));
    }
    Ok(Audited {
        input,
        sources,
        unreadable: false,
        host_findings: Vec::new(),
    })
}

/// The fabric's chosen switches from running configs: a folder holds `<switch>.cfg`; a
/// single file is the one chosen switch. A switch whose config is missing or unreadable is
/// named; the others are audited (exit 2).
fn running_with_fabric(
    args: &Args,
    fabric: &Fabric,
    chosen: &[&crate::fabric::Switch],
    color: bool,
) -> Result<Result<Audited, u8>, Failure> {
    let mut input = Input {
        profile: args.profile,
        links: audit::fabric_links(fabric),
        ..Input::default()
    };
    let mut sources = BTreeMap::new();
    let single = match args.running.as_slice() {
        [one] if !one.is_dir() => Some(one.clone()),
        _ => None,
    };
    if single.is_some() && chosen.len() != 1 {
        return Err(Failure(format!(
            "one running config but {} switches are chosen; pick one with `--switch NAME`, or pass a folder of <switch>.cfg",
            chosen.len()
        )));
    }
    let mut unreadable = false;
    for sw in chosen {
        let name = sw.hostname.to_string();
        let found = match &single {
            Some(f) => Some(f.clone()),
            None => args
                .running
                .iter()
                .filter(|d| d.is_dir())
                .map(|d| d.join(format!("{name}.cfg")))
                .find(|f| f.exists()),
        };
        let Some(file) = found else {
            errln!(
                "error: no running config for `{name}`: no `{name}.cfg` in {}",
                args.running
                    .iter()
                    .map(|p| format!("`{}`", p.display()))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            unreadable = true;
            continue;
        };
        let Ok((config, source)) = read(&file, color)? else {
            unreadable = true;
            continue;
        };
        let s = match fabric_switch(config, sw) {
            Ok(s) => s,
            Err(e) => {
                errln!("error: {}: {e}", file.display());
                unreadable = true;
                continue;
            }
        };
        input.switches.insert(name.clone(), s);
        sources.insert(name, source);
    }
    if unreadable && sources.is_empty() {
        return Ok(Err(exit::FAILURE));
    }
    Ok(Ok(Audited {
        input,
        sources,
        unreadable,
        host_findings: Vec::new(),
    }))
}

/// `fabric explain [ID]`: an audit rule's doc, a verify check's or a diagnostic code's;
/// without an id, one line for each of them.
pub fn explain(id: Option<&str>) -> Result<u8, Failure> {
    let codes = crate::codes::all().map_err(Failure)?;
    let Some(id) = id else {
        outln!("Audit rules (`fabric audit`):");
        for r in audit::RULES {
            let os = r
                .only()
                .map_or(String::new(), |os| format!("  ({os} only)"));
            outln!("  {}  {:<7}  {}{os}", r.id, r.severity.to_string(), r.name);
        }
        outln!("\nVerify checks (`fabric verify`):");
        for r in crate::verify::RULES {
            outln!("  {}  {:<7}  {}", r.id, r.severity.to_string(), r.name);
        }
        outln!("\nHost rules (`fabric audit --hosts`, `--hosts-live`):");
        for r in crate::hosts::HOST_RULES {
            outln!("  {}  {:<7}  {}", r.id, r.severity.to_string(), r.name);
        }
        outln!("\nDiagnostic codes (`fabric validate`, and every command that reads a file):");
        for c in &codes {
            outln!("  {}  {:<7}  {}", c.id, c.severity(), c.title);
        }
        outln!("\n`fabric explain ID` says what one checks, why it matters and how to fix it.");
        return Ok(exit::OK);
    };
    let code = codes.iter().find(|c| c.id.eq_ignore_ascii_case(id));
    let text = match (
        audit::rule(id),
        crate::verify::rule(id),
        crate::hosts::host_rule(id),
        code,
    ) {
        (Some(rule), ..) => rule.explain(),
        (None, Some(check), ..) => check.explain(),
        (None, None, Some(h), _) => h.explain(),
        (None, None, None, Some(c)) => audit::explain_doc(
            &format!("{} {} ({})", c.id, c.title, c.severity()),
            c.what,
            c.why,
            Some(c.example),
            c.fix,
        ),
        (None, None, None, None) => {
            let ids = audit::RULES.iter().map(|r| r.id);
            let ids = ids.chain(crate::verify::RULES.iter().map(|r| r.id));
            let ids = ids.chain(crate::hosts::HOST_RULES.iter().map(|r| r.id));
            let ids: Vec<&str> = ids.chain(codes.iter().map(|c| c.id)).collect();
            let hint = crate::types::did_you_mean(id, ids.iter().copied())
                .map_or(String::new(), |b| format!(" (did you mean `{b}`?)"));
            return Err(Failure(format!(
                "no rule, check or code `{id}`{hint}; `fabric explain` lists them all"
            )));
        }
    };
    out!("{text}");
    Ok(exit::OK)
}
