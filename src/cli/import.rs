//! `fabric import`: running configs (files, folders of backups, or live switches read with
//! `show` commands) → a fabric file.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::PathBuf;

use crate::error::{Failure, exit};
use crate::import::{self, Source};
use crate::types::Model;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Running configs: files, or folders of `<switch>.cfg` (backups).
    #[arg(value_name = "RUNNING")]
    running: Vec<PathBuf>,
    /// Also read these switches over SSH (`NAME=[USER@]HOST[:PORT]`, repeatable).
    #[arg(long = "live", value_name = "NAME=HOST")]
    live: Vec<String>,
    /// The switches' model, instead of guessing it from their ports.
    #[arg(long)]
    model: Option<String>,
    /// Write the fabric here instead of standard output (refuses to overwrite a file).
    #[arg(short = 'o', long = "output", value_name = "FABRIC.yaml")]
    output: Option<PathBuf>,
    #[command(flatten)]
    connect: super::push::Connect,
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    if args.running.is_empty() && args.live.is_empty() {
        return Err(Failure(
            "give running configs (files or folders) or `--live NAME=HOST`".into(),
        ));
    }
    let model = match &args.model {
        Some(m) => Some(Model::find(m).map_err(|e| Failure(format!("--model: {}", e.message)))?),
        None => None,
    };
    let mut sources: BTreeMap<String, Source> = BTreeMap::new();
    let mut add = |name: String, source: Source| -> Result<(), Failure> {
        if let Some(other) = sources.get(&name) {
            return Err(Failure(format!(
                "two configs are for switch `{name}`: {} and {}",
                other.origin, source.origin
            )));
        }
        sources.insert(name, source);
        Ok(())
    };
    for file in super::audit::files(&args.running)? {
        let Ok(config) = super::read_config(&file, color)? else {
            return Ok(exit::FAILURE);
        };
        let name = super::switch_name(&config, &file);
        add(
            name,
            Source {
                origin: file.display().to_string(),
                config,
                model,
            },
        )?;
    }
    if !args.live.is_empty() {
        let targets = args
            .live
            .iter()
            .map(|s| target(s))
            .collect::<Result<Vec<_>, _>>()?;
        let inventory = super::push::read_inventory(args.connect.inventory.as_deref())?;
        let mut opts = args.connect.options(&inventory, None)?;
        opts.switches.extend(targets.iter().map(|t| t.name.clone()));
        let fetched = super::push::read_switches(&targets, &opts, args.connect.parallel, false)?;
        for (t, (config, _)) in targets.into_iter().zip(fetched) {
            add(
                t.name.clone(),
                Source {
                    origin: format!(
                        "ssh://{}@{}:{} (show running-config)",
                        t.user, t.host, t.port
                    ),
                    config,
                    model,
                },
            )?;
        }
    }
    let text = import::import(&sources).map_err(Failure)?;
    match &args.output {
        None => print!("{text}"),
        Some(path) => {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
                .map_err(|e| Failure(format!("cannot create `{}`: {e}", path.display())))?;
            f.write_all(text.as_bytes())
                .map_err(|e| Failure(format!("cannot write `{}`: {e}", path.display())))?;
            eprintln!(
                "{}: {} switch(es); check it with `fabric validate {0}`",
                path.display(),
                sources.len()
            );
        }
    }
    Ok(exit::OK)
}

/// `NAME=[USER@]HOST[:PORT]`.
fn target(spec: &str) -> Result<crate::device::Target, Failure> {
    let bad = || Failure(format!("`--live {spec}`: write NAME=[USER@]HOST[:PORT]"));
    let (name, addr) = spec.split_once('=').ok_or_else(bad)?;
    let (user, hostport) = match addr.split_once('@') {
        Some((u, h)) => (u.to_string(), h),
        None => ("admin".to_string(), addr),
    };
    let (host, port) = match hostport.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') || h.starts_with('[') => (
            h.trim_matches(['[', ']']).to_string(),
            p.parse().map_err(|_| bad())?,
        ),
        _ => (hostport.to_string(), 22),
    };
    if name.is_empty() || host.is_empty() {
        return Err(bad());
    }
    Ok(crate::device::Target {
        name: name.to_string(),
        host,
        port,
        user,
    })
}
