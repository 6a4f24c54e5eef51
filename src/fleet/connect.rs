//! Reaching a fleet of switches: the connection options (credentials, host keys, the SSH
//! client configuration, timeouts), the inventory (the fabric's `mgmt`, a file, or a lab's),
//! and the switches a run targets, each with where it is and what it should run.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::device::push::{self, Job};
use crate::device::ssh_config::{self, SshConfig};
use crate::device::{Options, Secret};
use crate::error::Failure;
use crate::fabric::{Fabric, Inventory};

/// How to reach switches.
#[derive(clap::Args, Debug, Clone)]
pub struct Connect {
    /// Addresses instead of the fabric's `mgmt` (the inventory `fabric lab` writes); its
    /// `known_hosts` is used unless `--known-hosts` is given.
    #[arg(long, value_name = "FILE")]
    pub inventory: Option<PathBuf>,
    /// Host keys checked strictly (default `~/.ssh/known_hosts`), bastions' included.
    #[arg(long, value_name = "FILE")]
    pub known_hosts: Option<PathBuf>,
    /// OpenSSH client configuration (default `~/.ssh/config`): `HostName`, `User`, `Port`,
    /// `IdentityFile` and `ProxyJump` of the switches' hosts; the fabric's `mgmt` port and
    /// user, and the inventory's, win over it.
    #[arg(long, value_name = "FILE")]
    pub ssh_config: Option<PathBuf>,
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
}

/// The password for switches: never an argument.
pub const PASSWORD_ENV: &str = "FABRIC_PASSWORD";

impl Connect {
    /// The SSH client configuration: `--ssh-config FILE`, else `~/.ssh/config` when there is
    /// one. A line it cannot read is an error at that line.
    pub fn ssh_config(&self) -> Result<Option<SshConfig>, Failure> {
        let (path, asked) = match (&self.ssh_config, std::env::var_os("HOME")) {
            (Some(p), _) => (p.clone(), true),
            (None, Some(home)) => (Path::new(&home).join(".ssh/config"), false),
            (None, None) => return Ok(None),
        };
        SshConfig::load(&path, asked).map_err(Failure)
    }

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
pub struct Reach {
    pub inventory: Inventory,
    pub options: Options,
    /// The user's SSH client configuration (none for a lab, whose switches are no hosts of
    /// the user's).
    pub ssh: Option<SshConfig>,
    /// What keeps the switches reachable while this lives (an in-process lab).
    pub keep: Option<Box<dyn std::any::Any>>,
}

impl Reach {
    /// The inventory's switches (or the fabric's `mgmt`), with the user's credentials and
    /// SSH client configuration.
    pub fn direct(connect: &Connect, fabric: &Fabric) -> Result<Reach, Failure> {
        let inventory = read_inventory(connect.inventory.as_deref())?;
        let ssh = connect.ssh_config()?;
        let mut options = connect.options(&inventory, None)?;
        fleet(&mut options, fabric);
        Ok(Reach {
            options,
            inventory,
            ssh,
            keep: None,
        })
    }

    /// A lab's switches: its inventory, its password (unless `FABRIC_PASSWORD` gives one),
    /// the fabric's switch names; `keep` keeps the lab running while this lives.
    pub fn lab(
        connect: &Connect,
        inventory: Inventory,
        fabric: &Fabric,
        password: String,
        keep: Option<Box<dyn std::any::Any>>,
    ) -> Result<Reach, Failure> {
        let mut options = connect.options(&inventory, Some(password))?;
        fleet(&mut options, fabric);
        Ok(Reach {
            options,
            inventory,
            ssh: None,
            keep,
        })
    }
}

/// Adds the fabric's switch names to those a switch must not turn out to be (besides the one
/// asked for): a switch answering with another's host key or hostname is refused.
fn fleet(options: &mut Options, fabric: &Fabric) {
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
    let text = String::from_utf8(bytes.into_vec())
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
    err!("{}", crate::diag::render(&[d], &sources, false));
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

/// The chosen switches (all when `names` is empty), as jobs: where each is (the inventory's
/// address, else the fabric's `mgmt`, each looked up in the SSH config) and what it should run.
pub fn jobs(
    fabric: &Fabric,
    names: &[String],
    inventory: &Inventory,
    ssh: Option<&SshConfig>,
) -> Result<Vec<Job>, Failure> {
    let mut out = Vec::new();
    for sw in chosen(fabric, names)? {
        let name = sw.hostname.to_string();
        let target = match (inventory.switches.get(&name), &sw.mgmt) {
            (Some(a), _) => ssh_config::target(ssh, &name, &a.host, Some(a.port), Some(&a.user)),
            (None, Some(m)) => ssh_config::target(ssh, &name, &m.host, m.port, m.user.as_deref()),
            (None, None) => {
                return Err(Failure(format!(
                    "`{name}` has no `mgmt` address in the fabric and no entry in the inventory"
                )));
            }
        }
        .map_err(|e| Failure(format!("`{name}`: {e}")))?;
        let intent = push::Intent::from(sw.os().target().intent(sw));
        out.push(Job { target, intent });
    }
    Ok(out)
}

/// The switches `--switch NAME` picks (all when none is given), in name order; an unknown
/// name is an error with the nearest one.
pub fn chosen<'a>(
    fabric: &'a Fabric,
    names: &[String],
) -> Result<Vec<&'a crate::fabric::Switch>, Failure> {
    let all: Vec<String> = fabric.switches.keys().map(|h| h.to_string()).collect();
    for n in names {
        if !all.contains(n) {
            let hint = crate::types::did_you_mean(n, all.iter().map(String::as_str))
                .map_or(String::new(), |b| format!(" (did you mean `{b}`?)"));
            return Err(Failure(format!("the fabric has no switch `{n}`{hint}")));
        }
    }
    Ok(fabric
        .switches
        .values()
        .filter(|sw| names.is_empty() || names.contains(&sw.hostname.to_string()))
        .collect())
}
