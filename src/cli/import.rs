//! `fabric import`: running configs (files of any OS `fabric` knows, folders of backups, or
//! live switches read with `show` commands: of the OS of the model `--model` names, else the
//! default OS's) → a fabric file.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{Failure, exit};
use crate::fabric::Hardware;
use crate::import::{self, Source};
use crate::targets::{self, SwitchOs};

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
    connect: crate::fleet::Connect,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    if args.running.is_empty() && args.live.is_empty() {
        return Err(Failure(
            "give running configs (files or folders) or `--live NAME=HOST`".into(),
        ));
    }
    let model = args
        .model
        .as_deref()
        .map(|m| targets::model_named(m).map_err(|e| Failure(format!("--model: {e}"))))
        .transpose()?;
    let mut sources = Sources {
        args,
        model,
        by_name: BTreeMap::new(),
    };
    // Every file that is not a readable running config is named before giving up.
    let unreadable = sources.read_files(color)?;
    if unreadable > 0 {
        errln!("fabric import: {unreadable} running config(s) could not be read; nothing written");
        return Ok(exit::FAILURE);
    }
    if !args.live.is_empty() {
        sources.read_live()?;
    }
    let sources = sources.by_name;
    let text = import::import(&sources).map_err(Failure)?;
    // The fabric is checked as a user would check it before it is written: it validates, and
    // compiles back to each config it came from.
    let shown = match &args.output {
        Some(path) => format!("{} (not written)", path.display()),
        None => "imported fabric (not written)".to_string(),
    };
    if let Err(u) = import::check(&shown, &text, &sources) {
        report_unfaithful(&u, color);
        return Ok(exit::FAILURE);
    }
    write(args.output.as_deref(), &text, sources.len())?;
    Ok(exit::OK)
}

/// The switches to import, by name, as they are read.
struct Sources<'a> {
    args: &'a Args,
    /// The model `--model` names.
    model: Option<Hardware>,
    by_name: BTreeMap<String, Source>,
}

impl Sources<'_> {
    /// A switch read; two configs for one switch are refused.
    fn add(&mut self, name: String, source: Source) -> Result<(), Failure> {
        if let Some(other) = self.by_name.get(&name) {
            return Err(Failure(format!(
                "two configs are for switch `{name}`: {} and {}",
                other.origin, source.origin
            )));
        }
        self.by_name.insert(name, source);
        Ok(())
    }

    /// Reads each file (once, as the OS its text is, every problem a located diagnostic):
    /// how many could not be read.
    fn read_files(&mut self, color: bool) -> Result<usize, Failure> {
        let mut unreadable = 0;
        for file in super::audit::files(&self.args.running)? {
            let (config, text) = match super::load_config(&file, color)? {
                Ok(read) => read,
                Err(diagnostic) => {
                    err!("{diagnostic}");
                    unreadable += 1;
                    continue;
                }
            };
            // `--model` is for the configs of its model's OS; a name several OSes' tables
            // have (NVIDIA's Spectrum switches run Onyx and Cumulus) is the config's OS's.
            let model = match (self.model, &self.args.model) {
                (Some(m), Some(name)) if m.os() != config.target().os() => {
                    config.target().import().model(name).ok()
                }
                (m, _) => m,
            };
            if self.model.is_some() && model.is_none() {
                return Err(Failure(format!(
                    "--model {}: `{}` is {} running config; give the model of its OS, or import it separately",
                    self.args.model.as_deref().unwrap_or_default(),
                    file.display(),
                    config.target().import().a_title(),
                )));
            }
            let name = super::switch_name(config.hostname(), &file);
            let source = Source {
                origin: file.display().to_string(),
                text,
                config,
                model,
            };
            self.add(name, source)?;
        }
        Ok(unreadable)
    }

    /// Reads the `--live` switches at once over SSH, as switches of the OS of the model
    /// `--model` names, else of the default OS.
    fn read_live(&mut self) -> Result<(), Failure> {
        let args = self.args;
        let os = self
            .model
            .map_or(targets::default_os(), |m| m.os().target());
        let ssh = args.connect.ssh_config()?;
        let switches = args
            .live
            .iter()
            .map(|s| target(s, ssh.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        let inventory = crate::fleet::read_inventory(args.connect.inventory.as_deref())?;
        let mut opts = args.connect.options(&inventory, None)?;
        opts.switches
            .extend(switches.iter().map(|t| t.name.clone()));
        let read = read_switches(os, &switches, &opts, args.connect.parallel)?;
        for (t, (text, config)) in switches.iter().zip(read) {
            let origin = format!(
                "ssh://{}@{}:{} ({})",
                t.user,
                t.host,
                t.port,
                os.dialect().show_running
            );
            let source = Source {
                origin,
                text: text.into(),
                config,
                model: self.model,
            };
            self.add(t.name.clone(), source)?;
        }
        Ok(())
    }
}

/// The fabric on standard output, or in a new file (never over one).
fn write(output: Option<&Path>, text: &str, switches: usize) -> Result<(), Failure> {
    let Some(path) = output else {
        out!("{text}");
        return Ok(());
    };
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| Failure(format!("cannot create `{}`: {e}", path.display())))?;
    f.write_all(text.as_bytes())
        .map_err(|e| Failure(format!("cannot write `{}`: {e}", path.display())))?;
    errln!(
        "{}: {switches} switch(es); check it with `fabric validate {0}`",
        path.display(),
    );
    Ok(())
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

/// A live switch's running configuration: its text and the configuration read from it.
type Fetched = (String, Box<dyn targets::Config>);

/// The running configurations of live switches of `os`, read at once over their sessions
/// (`show running-config(uration)`): each one's text and config; an error naming every
/// switch that could not be read.
fn read_switches(
    os: &dyn SwitchOs,
    switches: &[crate::device::Target],
    opts: &crate::device::Options,
    parallel: usize,
) -> Result<Vec<Fetched>, Failure> {
    crate::fleet::read_each(switches, parallel, |target| {
        let mut cli = crate::device::Cli::open_as(target, opts, os.dialect())?;
        let read = os.fetch(&mut cli)?;
        cli.close();
        Ok(read)
    })
}
