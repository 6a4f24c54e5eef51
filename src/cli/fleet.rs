//! Reaching a fleet of switches, for every command that reads or changes them (`diff`,
//! `push`, `verify`, `audit`, `import`, `hosts`): the connection options, the inventory (the
//! fabric's `mgmt`, a file, or the running lab), the switches to work on with their SSH
//! settings, and the runner that works on many at once.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
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
pub(crate) struct Reach {
    pub inventory: Inventory,
    pub options: Options,
    /// The user's SSH client configuration (none for the in-process lab, whose switches are
    /// no hosts of the user's).
    pub ssh: Option<SshConfig>,
    /// The in-process lab (`--lab`), kept running while this lives.
    #[cfg(feature = "lab")]
    _lab: Option<super::lab::Started>,
}

/// The in-process lab's switches, inventory, known_hosts and password (`--lab`), else the
/// inventory's (or the fabric's `mgmt`) and the user's credentials.
pub(crate) fn reach(
    lab: bool,
    dataplane: bool,
    fabric_path: &Path,
    fabric: &Fabric,
    connect: &Connect,
    color: bool,
) -> Result<Reach, Failure> {
    #[cfg(feature = "lab")]
    if lab && let Some(reach) = running_lab(fabric_path, fabric, connect, dataplane)? {
        return Ok(reach);
    }
    #[cfg(feature = "lab")]
    if lab {
        let lab_args = super::lab::Args::in_process(fabric_path.to_path_buf(), dataplane);
        let started = super::lab::start(&lab_args, fabric, color)?;
        let options = lab_options(connect, &started.inventory, fabric)?;
        return Ok(Reach {
            options,
            inventory: started.inventory.clone(),
            ssh: None,
            _lab: Some(started),
        });
    }
    #[cfg(not(feature = "lab"))]
    if lab {
        let _ = (fabric_path, fabric, color, dataplane);
        return Err(Failure(
            "this build has no lab (cargo feature `lab`)".into(),
        ));
    }
    let inventory = read_inventory(connect.inventory.as_deref())?;
    let ssh = connect.ssh_config()?;
    let mut options = connect.options(&inventory, None)?;
    fleet(&mut options, fabric);
    Ok(Reach {
        options,
        inventory,
        ssh,
        #[cfg(feature = "lab")]
        _lab: None,
    })
}

/// How to log in to lab switches: their inventory, the lab's password (`FABRIC_LAB_PASSWORD`,
/// else `admin`), the fabric's switch names.
#[cfg(feature = "lab")]
fn lab_options(
    connect: &Connect,
    inventory: &Inventory,
    fabric: &Fabric,
) -> Result<Options, Failure> {
    let password = std::env::var(super::lab::PASSWORD_ENV).unwrap_or_else(|_| "admin".into());
    let mut options = connect.options(inventory, Some(password))?;
    fleet(&mut options, fabric);
    Ok(options)
}

/// The `fabric lab` already serving `.fabric/lab`, when one runs: its switches, as its
/// inventory gives them, for this fabric; refused when it serves another fabric, or has no
/// data plane and one is asked for. `None`: no lab runs there.
#[cfg(feature = "lab")]
fn running_lab(
    fabric_path: &Path,
    fabric: &Fabric,
    connect: &Connect,
    dataplane: bool,
) -> Result<Option<Reach>, Failure> {
    let state = Path::new(".fabric/lab");
    let Some((pid, served)) = super::lab::serving(state) else {
        return Ok(None);
    };
    let ours = fabric_path
        .canonicalize()
        .unwrap_or_else(|_| fabric_path.to_path_buf());
    if ours != served {
        return Err(Failure(format!(
            "`fabric lab {}` (pid {pid}) serves `.fabric/lab`: stop it, or reach this fabric's switches with `--inventory`",
            served.display()
        )));
    }
    let inventory = read_inventory(Some(&state.join("inventory.yaml")))?;
    if dataplane && inventory.dataplane.is_none() {
        return Err(Failure(format!(
            "the `fabric lab` running here (pid {pid}) has no data plane: start it with `--dataplane`, or leave `--dataplane` out"
        )));
    }
    errln!("note: using the `fabric lab` running here (pid {pid}, `.fabric/lab`)");
    let options = lab_options(connect, &inventory, fabric)?;
    Ok(Some(Reach {
        options,
        inventory,
        ssh: None,
        _lab: None,
    }))
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
    for sw in super::chosen(fabric, names)? {
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

/// Each target's running config (and, with `unsaved`, whether `show configuration files`
/// says `Unsaved changes : yes`), read at once with `show` commands only. Each switch that
/// cannot be read is printed; then nothing is returned.
pub(crate) fn read_switches(
    targets: &[crate::device::Target],
    opts: &Options,
    parallel: usize,
    unsaved: bool,
) -> Result<Vec<(crate::onyx::Config, bool)>, Failure> {
    read_each(targets, parallel, |target| {
        let mut cli = crate::device::Cli::open(target, opts)?;
        let (_, config) = cli.fetch()?;
        // `show configuration files` must say whether changes are unsaved: a reply that does
        // not is an error, never read as saved.
        let changed = unsaved && cli.files()?.unsaved;
        cli.close();
        Ok((config, changed))
    })
}

/// Reads every switch with `read`, `parallel` at a time; a switch that cannot be read is
/// named with its error, and then none is used.
pub(crate) fn read_each<R: Send>(
    targets: &[crate::device::Target],
    parallel: usize,
    read: impl Fn(&crate::device::Target) -> Result<R, crate::device::Error> + Sync,
) -> Result<Vec<R>, Failure> {
    let fetched = self::parallel(targets, parallel, read);
    let mut out = Vec::new();
    let mut failed = false;
    for (target, r) in targets.iter().zip(fetched) {
        match r {
            Ok(r) => out.push(r),
            Err(e) => {
                // A device error never names the switch: it is named here, once.
                errln!("error: {}: {e}", target.name);
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
