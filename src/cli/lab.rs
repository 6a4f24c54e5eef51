//! `fabric lab`: one simulated switch per switch of a fabric, served over SSH until Ctrl-C;
//! or one switch's CLI on standard input and output (`--stdio`).

use std::io::Write as _;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::{Failure, exit};
use crate::fabric::inventory::{Address, Inventory};
use crate::lab::{Cabling, Device, Lab, Logins, Network, Spec, Switch, server};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The fabric file: one simulated switch per switch, named as its hostname.
    fabric: PathBuf,
    /// Folder for each switch's host key, saved configurations, fault control file
    /// (`<switch>/faults.yaml`) and command log; also the inventory and known_hosts files.
    #[arg(long, value_name = "DIR", default_value = ".fabric/lab")]
    state: PathBuf,
    /// Listen on consecutive ports from N, switches in name order (0: ports the system
    /// picks). Default: a switch's `mgmt` port when its host is a loopback address, else a
    /// port the system picks.
    #[arg(long, value_name = "N")]
    base_port: Option<u16>,
    /// The HTTPS API of each switch whose OS serves one: listen on consecutive ports from N,
    /// switches in name order (0, the default: ports the system picks). Where each listens
    /// is written to `api.yaml` in the state folder.
    #[arg(long, value_name = "N")]
    api_base_port: Option<u16>,
    /// Start each switch from `DIR/<switch>.cfg` (a backup) instead of its saved or factory
    /// configuration; switches without a file start as usual.
    #[arg(long, value_name = "DIR")]
    from: Option<PathBuf>,
    /// The address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    listen: IpAddr,
    /// Public keys that may log in (an `authorized_keys` or `.pub` file; repeat for several).
    /// Default: the `~/.ssh/id_*.pub` keys of the user running the lab.
    #[arg(long, value_name = "FILE")]
    authorized_keys: Vec<PathBuf>,
    /// Run this switch's CLI on standard input and output, for an OpenSSH `sshd`
    /// `ForceCommand`; its running config is kept in the state folder between sessions.
    #[arg(long, value_name = "SWITCH")]
    stdio: Option<String>,
    /// Also build the network in the kernel (root, iproute2, iputils-ping, FRR): a network
    /// namespace per switch and per sampled host (`lab-NAME`), a veth pair per cable with
    /// each end's configured MTU and state, the switches' addresses, and FRR's zebra, bgpd
    /// and bfdd routing each switch from its running configuration; both follow every change.
    #[arg(long, conflicts_with = "stdio")]
    dataplane: bool,
    /// With `--dataplane`: the start of every namespace's name (two labs at once need two).
    #[arg(long, value_name = "PREFIX", default_value = NAMESPACE_PREFIX, requires = "dataplane")]
    namespace_prefix: String,
}

/// The default prefix of the data plane's namespace names: `lab-leaf01`.
pub const NAMESPACE_PREFIX: &str = "lab-";

/// Host ports cabled in the data plane per group (a switch's VLAN or routed port): the first
/// and the last.
const HOSTS_PER_GROUP: usize = 2;

/// The password every lab switch accepts: `FABRIC_LAB_PASSWORD`, else Onyx's factory `admin`.
pub const PASSWORD_ENV: &str = "FABRIC_LAB_PASSWORD";

/// The file of a state folder that names the `fabric lab` serving it (its pid, then its
/// fabric's path), while it runs: `--lab` commands use that lab instead of starting one.
pub(crate) const SERVING: &str = "lab.pid";

/// The serving file of a running `fabric lab`, removed when it stops.
struct Serving(PathBuf);

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The `fabric lab` serving `state`, when one runs (another process than this): its pid and
/// the fabric it serves.
pub(crate) fn serving(state: &Path) -> Option<(i32, PathBuf)> {
    let text = std::fs::read_to_string(state.join(SERVING)).ok()?;
    let mut lines = text.lines();
    let pid: i32 = lines.next()?.trim().parse().ok()?;
    let fabric = PathBuf::from(lines.next()?);
    // SAFETY: signal 0 only asks whether the process exists.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    (alive && pid != std::process::id() as i32).then_some((pid, fabric))
}

pub fn run(args: &Args, color: bool) -> Result<u8, Failure> {
    let (fabrics, clean) = super::check_all(std::slice::from_ref(&args.fabric), false, color)?;
    let Some((_, fabric)) = fabrics.into_iter().next().filter(|_| clean) else {
        return Ok(exit::FINDINGS);
    };
    if let Some(name) = &args.stdio {
        stdio(args, &fabric, name, color)?;
        return Ok(exit::OK);
    }
    let started = start(args, &fabric, color)?;
    let state = &started.state;
    // `--lab` commands of this folder use this lab while it runs.
    let fabric_path = args
        .fabric
        .canonicalize()
        .unwrap_or_else(|_| args.fabric.clone());
    let serving_file = state.join(SERVING);
    crate::lab::device::write_atomic(
        &serving_file,
        format!("{}\n{}\n", std::process::id(), fabric_path.display()).as_bytes(),
    )?;
    let _serving = Serving(serving_file);
    let mut out = std::io::stdout().lock();
    listing(&mut out, args, &started);
    let _ = out.flush();
    drop(out);
    started.lab.wait_for_signal()?;
    Ok(exit::OK)
}

/// `--stdio NAME`: one switch's CLI on standard input and output, the others read from
/// their state folders.
fn stdio(
    args: &Args,
    fabric: &crate::fabric::Fabric,
    name: &str,
    color: bool,
) -> Result<(), Failure> {
    let fresh = |sw: &crate::fabric::Switch| fresh(args, sw, color);
    let Some(sw) = fabric.switches.get(name) else {
        let names: Vec<&str> = fabric
            .switches
            .values()
            .map(|s| s.hostname.as_str())
            .collect();
        return Err(Failure(format!(
            "no switch `{name}` in `{}` (switches: {})",
            args.fabric.display(),
            names.join(", ")
        )));
    };
    let (start, _) = fresh(sw)?;
    let device = Arc::new(Device::open(&args.state.join(name), start, false, true)?);
    // The other switches are served by other sessions' processes: read from their folders.
    let network = Network::new(Cabling::from_fabric(fabric));
    for other in fabric.switches.keys() {
        if other.as_str() != name {
            network.add_folder(other.as_str(), args.state.join(other.as_str()));
        }
    }
    // This switch's own cabling faults count too (the others never read it as a config).
    network.add_device(name, &device);
    device.join(network, name);
    crate::lab::run_stdio(&device)
        .map_err(|e| Failure(format!("{name}: standard input or output: {e}")))?;
    Ok(())
}

/// What the running lab prints: each switch's address, user and host key, how to log in,
/// where its inventory, known hosts, faults and logs are, and its data plane.
fn listing(out: &mut impl std::io::Write, args: &Args, started: &Started) {
    let (lab, logins, keys, state) = (&started.lab, &started.users, &started.keys, &started.state);
    let inventory_path = state.join("inventory.yaml");
    let rows: Vec<[String; 4]> = lab
        .switches
        .iter()
        .zip(logins)
        .zip(&started.names)
        .map(|((s, u), name)| {
            [
                name.clone(),
                s.addr.to_string(),
                u.clone(),
                s.fingerprint.clone(),
            ]
        })
        .collect();
    let width = |i: usize, title: &str| {
        rows.iter()
            .map(|r| r[i].len())
            .chain([title.len()])
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0, "switch"), width(1, "address"), width(2, "user"));
    let _ = writeln!(
        out,
        "{:w0$}  {:w1$}  {:w2$}  host key",
        "switch", "address", "user"
    );
    for r in &rows {
        let _ = writeln!(out, "{:w0$}  {:w1$}  {:w2$}  {}", r[0], r[1], r[2], r[3]);
    }
    let password = if std::env::var_os(PASSWORD_ENV).is_some() {
        format!("the value of {PASSWORD_ENV}")
    } else {
        "admin (Onyx's factory default; FABRIC_LAB_PASSWORD sets another)".to_string()
    };
    let _ = writeln!(
        out,
        "\n{} switch(es) listening; log in as the user above (`ssh -p PORT USER@ADDRESS`), password {password}; keys: {}.",
        rows.len(),
        if keys.is_empty() {
            "none".to_string()
        } else {
            keys.iter()
                .map(|k| k.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    let _ = writeln!(out, "inventory:   {}", inventory_path.display());
    let _ = writeln!(out, "known_hosts: {}", state.join("known_hosts").display());
    if lab.switches.iter().any(|s| s.api.is_some()) {
        let _ = writeln!(out, "HTTPS APIs:  {}", state.join(APIS).display());
    }
    let _ = writeln!(
        out,
        "faults:      {}/<switch>/faults.yaml; commands logged in {0}/<switch>/commands.log",
        state.display()
    );
    if let Some(live) = &started.live {
        let plan = live.plan();
        let p = &args.namespace_prefix;
        let _ = writeln!(
            out,
            "data plane:  {} switch and {} host namespace(s) `{p}NAME` (`ip netns exec {p}NAME …`, `vtysh -N {p}NAME`), {} cable(s); FRR routes each switch that runs BGP",
            plan.switches.len(),
            plan.hosts.len(),
            plan.cables.len()
        );
        for note in &live.unmodelled {
            let _ = writeln!(out, "  not modelled: {note}");
        }
    }
    let _ = writeln!(
        out,
        "Ctrl-C stops the lab; saved configurations stay in {}.",
        state.display()
    );
}

fn is_loopback(host: &str) -> bool {
    host == "localhost" || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The public keys `ssh` would offer by default: `~/.ssh/id_*.pub`.
fn own_public_keys() -> Vec<PathBuf> {
    let Some(home) = std::env::var_os("HOME") else {
        return Vec::new();
    };
    let dir = Path::new(&home).join(".ssh");
    let mut keys: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("id_") && n.ends_with(".pub"))
        })
        .collect();
    keys.sort();
    keys
}

/// A running lab and what was written for it.
pub(crate) struct Started {
    pub lab: Lab,
    /// The user of each switch, in the order of `lab.switches`.
    pub users: Vec<String>,
    /// The fabric's name of each switch, in the same order (a switch started from a backup
    /// may call itself something else).
    pub names: Vec<String>,
    pub keys: Vec<PathBuf>,
    /// The state folder, absolute; `inventory.yaml` and `known_hosts` are in it.
    pub state: PathBuf,
    pub inventory: Inventory,
    /// The data plane (`--dataplane`), kept in step with the switches while this lives.
    pub live: Option<crate::lab::live::Live>,
}

impl Args {
    /// The lab `fabric push --lab` starts: default state, ports the system picks.
    pub(crate) fn in_process(fabric: PathBuf, dataplane: bool) -> Args {
        Args {
            dataplane,
            namespace_prefix: NAMESPACE_PREFIX.to_string(),
            fabric,
            state: PathBuf::from(".fabric/lab"),
            base_port: Some(0),
            api_base_port: None,
            from: None,
            listen: IpAddr::from([127, 0, 0, 1]),
            authorized_keys: Vec::new(),
            stdio: None,
        }
    }
}

/// Starts one switch per switch of the fabric and writes the inventory and known_hosts.
pub(crate) fn start(
    args: &Args,
    fabric: &crate::fabric::Fabric,
    color: bool,
) -> Result<Started, Failure> {
    if args.dataplane {
        needs(&args.namespace_prefix)?;
    }
    std::fs::create_dir_all(&args.state)
        .map_err(|e| Failure(format!("cannot create `{}`: {e}", args.state.display())))?;
    let state = args
        .state
        .canonicalize()
        .map_err(|e| Failure(format!("`{}`: {e}", args.state.display())))?;
    let password = std::env::var(PASSWORD_ENV).unwrap_or_else(|_| "admin".to_string());
    let keys = if args.authorized_keys.is_empty() {
        own_public_keys()
    } else {
        args.authorized_keys.clone()
    };
    // One network: the fabric's cables between the switches this lab serves.
    let network = Network::new(Cabling::from_fabric(fabric));
    let mut specs = Vec::new();
    let mut logins = Vec::new();
    let mut names = Vec::new();
    for (i, sw) in fabric.switches.values().enumerate() {
        let spec = switch(args, sw, i, (&state, &password, &keys), &network, color)?;
        logins.push(spec.logins.user.clone());
        names.push(sw.hostname.to_string());
        specs.push(spec);
    }
    let lab = Lab::start(specs, args.listen)?;
    let (live, lab_hosts) = if args.dataplane {
        let (live, hosts) = dataplane(fabric, &network, &args.namespace_prefix, &state)?;
        (Some(live), Some(hosts))
    } else {
        (None, None)
    };

    let inventory = write_inventory(args, &lab, (&logins, &names), &state, lab_hosts)?;
    Ok(Started {
        lab,
        users: logins,
        names,
        keys,
        state,
        inventory,
        live,
    })
}

/// One switch of the lab: its device from its state folder (or factory default, or a
/// backup), its host key, port and logins, joined to the network.
fn switch(
    args: &Args,
    sw: &crate::fabric::Switch,
    i: usize,
    (state, password, keys): (&Path, &str, &[PathBuf]),
    network: &Arc<Network>,
    color: bool,
) -> Result<Spec, Failure> {
    let name = sw.hostname.as_str();
    let dir = state.join(name);
    let (start, from_backup) = fresh(args, sw, color)?;
    let device = Device::open(&dir, start, from_backup, false)?;
    let key = server::host_key(Some(&dir.join("ssh_host_ed25519_key")))?;
    let port = match (args.base_port, &sw.mgmt) {
        (Some(0), _) => 0,
        (Some(base), _) => u16::try_from(usize::from(base) + i)
            .map_err(|_| Failure(format!("--base-port {base}: too few ports left")))?,
        (None, Some(m)) if is_loopback(&m.host) => {
            m.port.unwrap_or(crate::device::ssh_config::DEFAULT_PORT)
        }
        (None, _) => 0,
    };
    let api_port = match args.api_base_port {
        None | Some(0) => 0,
        Some(base) => u16::try_from(usize::from(base) + i)
            .map_err(|_| Failure(format!("--api-base-port {base}: too few ports left")))?,
    };
    let mut login = Logins::factory();
    login.password = password.to_string();
    if let Some(user) = sw.mgmt.as_ref().and_then(|m| m.user.clone()) {
        login.user = user;
    }
    for path in keys {
        login.add_keys(path)?;
    }
    let device = Arc::new(device);
    network.add_device(name, &device);
    device.join(network.clone(), name);
    Ok(Spec {
        device,
        port,
        key,
        logins: login,
        api_port,
    })
}

/// The inventory (each switch under the fabric's name, where it listens, its user) and the
/// known_hosts file (each key pinned to that name, whatever the switch calls itself),
/// written into the state folder.
fn write_inventory(
    args: &Args,
    lab: &Lab,
    (logins, names): (&[String], &[String]),
    state: &Path,
    lab_hosts: Option<crate::fabric::inventory::Dataplane>,
) -> Result<Inventory, Failure> {
    let mut inventory = Inventory {
        known_hosts: Some(state.join("known_hosts")),
        dataplane: lab_hosts,
        ..Inventory::default()
    };
    let mut known_hosts = String::new();
    for ((served, user), name) in lab.switches.iter().zip(logins).zip(names) {
        known_hosts.push_str(&served.known_hosts_line(name));
        known_hosts.push('\n');
        inventory.switches.insert(
            name.clone(),
            Address {
                host: served.addr.ip().to_string(),
                port: served.addr.port(),
                user: user.clone(),
            },
        );
    }
    let inventory_path = state.join("inventory.yaml");
    let yaml = serde_saphyr::to_string(&inventory)
        .map_err(|e| Failure(format!("cannot write the inventory: {e}")))?;
    let header = format!(
        "# Written by `fabric lab {}`: where its simulated switches listen.\n# Use with `fabric diff {0} --inventory {}`.\n",
        args.fabric.display(),
        inventory_path.display()
    );
    crate::lab::device::write_atomic(&inventory_path, format!("{header}{yaml}").as_bytes())?;
    crate::lab::device::write_atomic(&state.join("known_hosts"), known_hosts.as_bytes())?;
    write_apis(lab, names, state)?;
    Ok(inventory)
}

/// The file of the state folder that says where each switch's HTTPS API listens.
pub const APIS: &str = "api.yaml";

/// `api.yaml`: each switch that serves an HTTPS API, and its URL (none: no file).
fn write_apis(lab: &Lab, names: &[String], state: &Path) -> Result<(), Failure> {
    let path = state.join(APIS);
    let apis: std::collections::BTreeMap<&str, String> = lab
        .switches
        .iter()
        .zip(names)
        .filter_map(|(served, name)| {
            let prefix = served.device.api_prefix()?;
            Some((name.as_str(), format!("https://{}{prefix}", served.api?)))
        })
        .collect();
    if apis.is_empty() {
        let _ = std::fs::remove_file(&path);
        return Ok(());
    }
    let yaml = serde_saphyr::to_string(&apis)
        .map_err(|e| Failure(format!("cannot write `{}`: {e}", path.display())))?;
    let header = format!(
        "# Written by `fabric lab`: where each switch's HTTPS API listens (basic authentication\n# with the SSH logins; self-signed certificate in {}/<switch>/{}).\n",
        state.display(),
        crate::lab::https::CERT
    );
    crate::lab::device::write_atomic(&path, format!("{header}{yaml}").as_bytes())?;
    Ok(())
}

/// What `--dataplane` needs that this machine lacks, said with how to get each, before
/// anything is started.
fn needs(prefix: &str) -> Result<(), Failure> {
    let lacking = crate::lab::live::missing(prefix);
    if lacking.is_empty() {
        return Ok(());
    }
    let list: Vec<String> = lacking
        .iter()
        .map(|m| format!("  {}: {}", m.what, m.how))
        .collect();
    Err(Failure(format!(
        "--dataplane needs what this machine lacks:\n{}\n(the lab without --dataplane needs none of it)",
        list.join("\n")
    )))
}

/// Builds the data plane of `network` (`--dataplane`). Returns it and its hosts as the
/// inventory gives them.
fn dataplane(
    fabric: &crate::fabric::Fabric,
    network: &Arc<Network>,
    prefix: &str,
    state: &Path,
) -> Result<(crate::lab::live::Live, crate::fabric::inventory::Dataplane), Failure> {
    let (hosts, notes) = crate::lab::dataplane::hosts(fabric, HOSTS_PER_GROUP);
    for n in &notes {
        errln!("note: data plane: host left out: {n}");
    }
    let inv = crate::fabric::inventory::Dataplane {
        hosts: hosts
            .iter()
            .filter_map(|h| {
                Some((
                    format!("{}:{}", h.host, h.nic),
                    crate::fabric::inventory::LabHost {
                        namespace: format!("{prefix}{}", h.host),
                        nic: h.nic.clone(),
                        mtu: h.mtu,
                        address: h.address?.to_string(),
                        group: h.group.clone(),
                        switch: h.switch.clone(),
                    },
                ))
            })
            .collect(),
    };
    let live = crate::lab::live::Live::start(network.clone(), hosts, prefix, state)
        .map_err(|e| Failure(format!("--dataplane: {e}")))?;
    Ok((live, inv))
}

/// A switch as it starts when its state folder has no saved configuration: from its backup
/// in `--from` (true), else factory default; each as its OS simulates it, of its model and
/// release.
fn fresh(args: &Args, sw: &crate::fabric::Switch, color: bool) -> Result<(Switch, bool), Failure> {
    let name = sw.hostname.as_str();
    let backup = args
        .from
        .as_ref()
        .map(|dir| dir.join(format!("{name}.cfg")))
        .filter(|p| p.exists());
    let target = sw.os().target();
    let config = match &backup {
        Some(path) => match super::read_running(path, color, super::Secrets::Kept, target)? {
            Ok(c) => Some(c),
            Err(_) => {
                return Err(Failure(format!(
                    "{name}: `{}` is malformed",
                    path.display()
                )));
            }
        },
        None => None,
    };
    let s = target
        .lab()
        .switch(sw, config.as_deref())
        .map_err(Failure)?;
    Ok((s, backup.is_some()))
}
