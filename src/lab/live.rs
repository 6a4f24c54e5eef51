//! A lab's data plane kept in step with its switches (`fabric lab --dataplane`): the kernel
//! part ([`super::dataplane`]) and FRR ([`super::frr`]) built from the network's view at the
//! start, then, whenever the view changes (a command changed a switch's running config, a
//! fault file was written), taken to the new view once it has settled: the `ip` commands and
//! FRR commands that differ. A change typed on a switch thus reaches the kernel and FRR
//! within a fraction of a second, and a push of many commands costs one update, not one per
//! command.
//!
//! Input: the network and the hosts to cable; output: the kernel and daemons following it,
//! and what went wrong said on standard error.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::dataplane::{Dataplane, HostPort, Missing, Plan};
use super::frr::Frr;
use super::network::Network;

/// How often the view is looked at, and how long it must stay the same before it is applied.
const POLL: Duration = Duration::from_millis(100);
const SETTLE: Duration = Duration::from_millis(150);

/// The parts of a running data plane (dropped in this order: FRR before the namespaces).
struct Parts {
    frr: Frr,
    dp: Dataplane,
}

/// A running data plane and the thread that keeps it in step.
pub struct Live {
    parts: Arc<Mutex<Parts>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// What the lab does not model, as the plan says it at the start.
    pub unmodelled: Vec<String>,
    /// The state folder's `dataplane.pid`, removed when the data plane is.
    pid_file: std::path::PathBuf,
}

/// What `--dataplane` needs that this machine lacks: the kernel's part, then FRR's.
pub fn missing(prefix: &str) -> Vec<Missing> {
    let mut out = super::dataplane::missing(prefix);
    out.extend(super::frr::missing());
    out
}

impl Live {
    /// Builds the data plane of `network` with `hosts` in namespaces `PREFIX<node>`, starts FRR
    /// where switches run BGP, and keeps both in step with the network until dropped. The
    /// lab's state folder `state` keeps the pid of the process that owns them
    /// (`dataplane.pid`): what a lab that was killed left behind is removed first.
    pub fn start(
        network: Arc<Network>,
        hosts: Vec<HostPort>,
        prefix: &str,
        state: &std::path::Path,
    ) -> Result<Live, String> {
        let view = network.view();
        let plan = Plan::of(&view, &hosts);
        let nodes: Vec<&String> = plan.switches.iter().chain(&plan.hosts).collect();
        left_behind(state, prefix, &nodes)?;
        let unmodelled = plan.unmodelled.clone();
        let dp = Dataplane::build(&plan, prefix)?;
        let frr = match Frr::start(&dp, &view) {
            Ok(f) => f,
            Err(e) => return Err(format!("FRR: {e}")),
        };
        network.set_dataplane(prefix);
        let parts = Arc::new(Mutex::new(Parts { frr, dp }));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (parts, stop) = (parts.clone(), stop.clone());
            std::thread::Builder::new()
                .name("dataplane".into())
                .spawn(move || follow(&network, &hosts, &parts, &stop, view))
                .map_err(|e| format!("cannot start the data plane's thread: {e}"))?
        };
        Ok(Live {
            parts,
            stop,
            thread: Some(thread),
            unmodelled,
            pid_file: state.join("dataplane.pid"),
        })
    }

    /// The namespace of a switch or host.
    pub fn namespace(&self, node: &str) -> Option<String> {
        lock(&self.parts).dp.namespace(node).map(str::to_string)
    }

    /// The plan the kernel holds now.
    pub fn plan(&self) -> Plan {
        lock(&self.parts).dp.plan().clone()
    }
}

/// Removes what the lab of `state` left when it was killed (its pid file names a process
/// that is gone): FRR's daemons of its namespaces, by their pid files, and the namespaces.
/// Then makes this process the owner.
fn left_behind(state: &std::path::Path, prefix: &str, nodes: &[&String]) -> Result<(), String> {
    let file = state.join("dataplane.pid");
    let owner = std::fs::read_to_string(&file)
        .ok()
        .and_then(|t| t.trim().parse::<i32>().ok());
    // SAFETY: signal 0 only asks whether the process exists.
    let alive = |pid: i32| unsafe { libc::kill(pid, 0) } == 0;
    if let Some(pid) = owner
        && pid != std::process::id() as i32
        && !alive(pid)
    {
        for node in nodes {
            let ns = format!("{prefix}{node}");
            let run = std::path::Path::new("/var/run/frr").join(&ns);
            for d in ["bfdd", "bgpd", "zebra"] {
                if let Some(p) = std::fs::read_to_string(run.join(format!("{d}.pid")))
                    .ok()
                    .and_then(|t| t.trim().parse::<i32>().ok())
                {
                    // SAFETY: a signal to the daemon its own pid file names.
                    unsafe { libc::kill(p, libc::SIGKILL) };
                }
            }
            let _ = std::fs::remove_dir_all(&run);
            let _ = std::fs::remove_dir_all(std::path::Path::new("/etc/frr").join(&ns));
            if std::path::Path::new("/run/netns").join(&ns).exists() {
                let _ = std::process::Command::new("ip")
                    .args(["netns", "del", &ns])
                    .status();
            }
        }
    }
    std::fs::write(&file, format!("{}\n", std::process::id()))
        .map_err(|e| format!("cannot write `{}`: {e}", file.display()))
}

fn lock(m: &Mutex<Parts>) -> std::sync::MutexGuard<'_, Parts> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Follows the network's view until `stop`: each new view, once it has stayed the same for
/// [`SETTLE`], applied to the kernel and FRR.
fn follow(
    network: &Network,
    hosts: &[HostPort],
    parts: &Mutex<Parts>,
    stop: &AtomicBool,
    mut applied: Arc<super::view::View>,
) {
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
        let mut view = network.view();
        if Arc::ptr_eq(&view, &applied) {
            continue;
        }
        loop {
            std::thread::sleep(SETTLE);
            let next = network.view();
            if Arc::ptr_eq(&next, &view) || stop.load(Ordering::Relaxed) {
                break;
            }
            view = next;
        }
        let plan = Plan::of(&view, hosts);
        let mut p = lock(parts);
        if let Err(e) = p.dp.apply(&plan) {
            eprintln!("data plane: {e}");
        }
        let Parts { frr, dp } = &mut *p;
        if let Err(e) = frr.sync(dp, &view) {
            eprintln!("data plane: FRR: {e}");
        }
        applied = view;
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_file(&self.pid_file);
    }
}
