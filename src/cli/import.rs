//! `fabric import`: running configs (Onyx or OS10 files, folders of backups, or live switches
//! read with `show` commands: OS10 ones when `--model` names an OS10 model) → a fabric file.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;

use super::Running;
use crate::error::{Failure, exit};
use crate::import::{self, Source};
use crate::types::Model;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Running configs, Onyx or OS10: files, or folders of `<switch>.cfg` (backups).
    #[arg(value_name = "RUNNING")]
    running: Vec<PathBuf>,
    /// Also read these switches over SSH (`NAME=[USER@]HOST[:PORT]`, repeatable); OS10
    /// switches when `--model` names an OS10 model.
    #[arg(long = "live", value_name = "NAME=HOST")]
    live: Vec<String>,
    /// The switches' model, instead of guessing it from their ports (an Onyx model for Onyx
    /// configs, an OS10 model for OS10 ones).
    #[arg(long)]
    model: Option<String>,
    /// Write the fabric here instead of standard output (refuses to overwrite a file).
    #[arg(short = 'o', long = "output", value_name = "FABRIC.yaml")]
    output: Option<PathBuf>,
    #[command(flatten)]
    connect: super::fleet::Connect,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    if args.running.is_empty() && args.live.is_empty() {
        return Err(Failure(
            "give running configs (files or folders) or `--live NAME=HOST`".into(),
        ));
    }
    // `--model` is for the configs of its model's OS.
    let os10_model = args
        .model
        .as_deref()
        .and_then(|m| crate::os10::models::Model::named(m.trim()));
    let model = match &args.model {
        Some(_) if os10_model.is_some() => None,
        Some(m) => Some(Model::find(m).map_err(|e| Failure(format!("--model: {}", e.message)))?),
        None => None,
    };
    let mut sources: BTreeMap<String, Source> = BTreeMap::new();
    let mut os10: BTreeMap<String, import::os10::Source> = BTreeMap::new();
    let mut origins: BTreeMap<String, String> = BTreeMap::new();
    let mut named = |name: &str, origin: &str| -> Result<(), Failure> {
        if let Some(other) = origins.insert(name.to_string(), origin.to_string()) {
            return Err(Failure(format!(
                "two configs are for switch `{name}`: {other} and {origin}"
            )));
        }
        Ok(())
    };
    let wrong_model = |file: &std::path::Path, os: &str| {
        Failure(format!(
            "--model {}: `{}` is {os} running config; give the model of its OS, or import it separately",
            args.model.as_deref().unwrap_or_default(),
            file.display()
        ))
    };
    // Every file that is not a readable running config is named before giving up.
    let mut unreadable = 0;
    for file in super::audit::files(&args.running)? {
        // Read once, as either OS (by its content), every problem a located diagnostic.
        let (config, text) = match super::load_running(&file, color)? {
            Ok(read) => read,
            Err(diagnostic) => {
                err!("{diagnostic}");
                unreadable += 1;
                continue;
            }
        };
        let config = match config {
            Running::Os10(config) => {
                if model.is_some() {
                    return Err(wrong_model(&file, "an OS10"));
                }
                let name = super::switch_name(config.hostname.as_deref(), &file);
                let origin = file.display().to_string();
                named(&name, &origin)?;
                os10.insert(
                    name,
                    import::os10::Source {
                        origin,
                        text,
                        config: *config,
                        model: os10_model,
                    },
                );
                continue;
            }
            Running::Onyx(config) => *config,
        };
        if os10_model.is_some() {
            return Err(wrong_model(&file, "an Onyx"));
        }
        let name = super::switch_name(config.name(), &file);
        let origin = file.display().to_string();
        named(&name, &origin)?;
        sources.insert(
            name,
            Source {
                origin,
                config,
                model,
            },
        );
    }
    if unreadable > 0 {
        errln!("fabric import: {unreadable} running config(s) could not be read; nothing written");
        return Ok(exit::FAILURE);
    }
    if !args.live.is_empty() {
        let ssh = args.connect.ssh_config()?;
        let targets = args
            .live
            .iter()
            .map(|s| target(s, ssh.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        let inventory = super::fleet::read_inventory(args.connect.inventory.as_deref())?;
        let mut opts = args.connect.options(&inventory, None)?;
        opts.switches.extend(targets.iter().map(|t| t.name.clone()));
        if os10_model.is_some() {
            // `--model` of an OS10 model: the live switches are OS10 ones.
            for (t, (text, config)) in
                targets
                    .iter()
                    .zip(read_os10_switches(&targets, &opts, args.connect.parallel)?)
            {
                let origin = format!(
                    "ssh://{}@{}:{} (show running-configuration)",
                    t.user, t.host, t.port
                );
                named(&t.name, &origin)?;
                os10.insert(
                    t.name.clone(),
                    import::os10::Source {
                        origin,
                        text: text.into(),
                        config,
                        model: os10_model,
                    },
                );
            }
        } else {
            let fetched =
                super::fleet::read_switches(&targets, &opts, args.connect.parallel, false)?;
            for (t, (config, _)) in targets.into_iter().zip(fetched) {
                let origin = format!(
                    "ssh://{}@{}:{} (show running-config)",
                    t.user, t.host, t.port
                );
                named(&t.name, &origin)?;
                sources.insert(
                    t.name.clone(),
                    Source {
                        origin,
                        config,
                        model,
                    },
                );
            }
        }
    }
    let text = import::import_all(&sources, &os10).map_err(Failure)?;
    // The fabric is checked as a user would check it before it is written: it validates, and
    // compiles back to each config it came from.
    let shown = match &args.output {
        Some(path) => format!("{} (not written)", path.display()),
        None => "imported fabric (not written)".to_string(),
    };
    if let Err(u) = import::check_all(&shown, &text, &sources, &os10) {
        report_unfaithful(&u, color);
        return Ok(exit::FAILURE);
    }
    match &args.output {
        None => out!("{text}"),
        Some(path) => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| Failure(format!("cannot create `{}`: {e}", path.display())))?;
            f.write_all(text.as_bytes())
                .map_err(|e| Failure(format!("cannot write `{}`: {e}", path.display())))?;
            errln!(
                "{}: {} switch(es); check it with `fabric validate {0}`",
                path.display(),
                sources.len() + os10.len()
            );
        }
    }
    Ok(exit::OK)
}

/// Says what an imported fabric cannot carry: the values the format refuses (located in the
/// fabric's text, with the config each came from), and per switch what differs.
fn report_unfaithful(u: &import::Unfaithful, color: bool) {
    if !u.errors.is_empty() {
        err!("{}", crate::diag::render(&u.errors, &u.sources, color));
    }
    for s in &u.switches {
        errln!(
            "error: `{}` ({}): the imported fabric does not reproduce this config",
            s.name,
            s.origin
        );
        for line in &s.lost {
            errln!("  not carried: {}", line.trim());
        }
        for line in &s.added {
            errln!("  added:       {}", line.trim());
        }
        for c in &s.plan {
            errln!("  a push would send: {c}");
        }
    }
    errln!(
        "fabric import: {} value(s) the fabric format refuses, {} switch(es) not reproduced; nothing written",
        u.errors.len(),
        u.switches.len()
    );
}

/// `NAME=[USER@]HOST[:PORT]`, looked up in the SSH config as `ssh [USER@]HOST[:PORT]` would
/// (the user and port written here win).
fn target(
    spec: &str,
    ssh: Option<&crate::device::ssh_config::SshConfig>,
) -> Result<crate::device::Target, Failure> {
    let bad = || Failure(format!("`--live {spec}`: write NAME=[USER@]HOST[:PORT]"));
    let (name, addr) = spec.split_once('=').ok_or_else(bad)?;
    let (host, port, user) = crate::device::ssh_config::jump(addr).ok_or_else(bad)?;
    if name.is_empty() {
        return Err(bad());
    }
    crate::device::ssh_config::target(ssh, name, host, port, user)
        .map_err(|e| Failure(format!("`--live {spec}`: {e}")))
}

/// The running configurations of live OS10 switches, read at once over their OS10 sessions
/// (`show running-configuration`): each one's text and config; an error naming every switch
/// that could not be read.
fn read_os10_switches(
    targets: &[crate::device::Target],
    opts: &crate::device::Options,
    parallel: usize,
) -> Result<Vec<(String, crate::os10::Config)>, Failure> {
    super::fleet::read_each(targets, parallel, |target| {
        let mut cli = crate::device::Cli::open_as(target, opts, &crate::device::dialect::OS10)?;
        let read = cli.fetch_os10()?;
        cli.close();
        Ok(read)
    })
}
