//! `fabric verify` against the lab at three sizes, through the real binaries: a `fabric lab`
//! process serving a routed leaf-spine fabric of 16, 64 and 256 switches (pods of two spines
//! and 14 leaves; a leaf has 60 host ports and two uplinks, each a /31 with an eBGP session;
//! the lab derives every link, LLDP neighbor and session from both ends), pushed once with
//! `fabric push`, then `fabric verify` of every check family, timed as a user runs it. A leaf
//! answers 191 commands (three QoS shows per cabled port, LLDP, interfaces, PFC, pools, BGP),
//! a spine 47.
//!
//! `cargo bench --bench verify` (release build). Prints per size the median of the runs
//! (`BENCH_RUNS`, default 3) of the verify's wall time, the CPU time the lab process spent
//! answering it (from `/proc/PID/stat`) and the verify's own CPU time, with each figure's
//! growth over the smallest size. `FABRIC_BIN=PATH` runs another build of `fabric` (to
//! compare two builds in alternating runs). `BENCH_PEER='PROGRAM ARGS…'` runs a peer at each
//! size after the verifies, with `--state STATE` added, while the lab still serves, and prints
//! the JSON line it prints (`benches/peers/netmiko_lab.py`: Netmiko reading the same shows
//! from every switch). `BENCH_VERIFY='ARGS…'` adds arguments to each verify: `--check
//! counters --interval 5s` times the counters read twice (the wall time less the interval
//! is the reading's), and the sessions column says each switch was read in one.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::lab::Lab;
use common::leaf_spine::LeafSpine;

/// Leaves per pod: with its two spines, 16 switches.
const POD: usize = 14;

/// `fabric COMMAND FABRIC` against the lab's switches (its inventory and known_hosts).
fn against_lab(command: &str, fabric: &Path, state: &Path, extra: &[&str]) -> Command {
    let mut cmd = Command::new(common::bin());
    cmd.current_dir(state)
        .arg(command)
        .arg(fabric)
        .arg("--inventory")
        .arg(state.join("inventory.yaml"))
        .arg("--known-hosts")
        .arg(state.join("known_hosts"))
        .args(extra)
        .env("FABRIC_PASSWORD", "admin")
        .env_remove("SSH_AUTH_SOCK")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn run(mut cmd: Command, what: &str) {
    let out = cmd.output().expect("fabric runs");
    assert!(
        out.status.success(),
        "{what}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A process's CPU time so far (user and system), from `/proc/PID/stat`.
fn cpu_of(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("stat");
    // The fields after the command name (which may hold spaces) in parentheses.
    let rest = &stat[stat.rfind(')').expect("stat's command") + 2..];
    let fields: Vec<u64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // utime and stime: fields 14 and 15 of the line, 12 and 13 after the state.
    // SAFETY: sysconf reads a constant of the system.
    let tick = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    Duration::from_secs_f64((fields[11] + fields[12]) as f64 / tick)
}

/// The CPU time of this process's children that have ended.
fn children_cpu() -> Duration {
    // SAFETY: getrusage fills the zeroed structure it is given.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let t = |tv: libc::timeval| Duration::new(tv.tv_sec as u64, tv.tv_usec as u32 * 1000);
    t(u.ru_utime) + t(u.ru_stime)
}

/// How many commands the lab's switches have logged (`STATE/NAME/commands.log`, a line
/// `SESSION<TAB>COMMAND` each), and the sessions (switch and session number) that sent them.
fn logged(state: &Path) -> (usize, std::collections::BTreeSet<(String, String)>) {
    let mut sessions = std::collections::BTreeSet::new();
    let mut commands = 0;
    for e in std::fs::read_dir(state).expect("state folder").flatten() {
        let Ok(log) = std::fs::read_to_string(e.path().join("commands.log")) else {
            continue;
        };
        let name = e.file_name().to_string_lossy().into_owned();
        for line in log.lines() {
            commands += 1;
            if let Some((session, _)) = line.split_once('\t') {
                sessions.insert((name.clone(), session.to_string()));
            }
        }
    }
    (commands, sessions)
}

/// One verify: its wall time, the lab's CPU time over it, the verify's own CPU time; how
/// many commands it sent, and in how many sessions.
fn verify_once(
    lab: &Lab,
    fabric: &Path,
    state: &Path,
    extra: &[&str],
) -> ([Duration; 3], usize, usize) {
    let (lab0, own0, sent0) = (cpu_of(lab.child.id()), children_cpu(), logged(state));
    let t0 = Instant::now();
    run(against_lab("verify", fabric, state, extra), "fabric verify");
    let wall = t0.elapsed();
    let times = [wall, cpu_of(lab.child.id()) - lab0, children_cpu() - own0];
    let sent = logged(state);
    (times, sent.0 - sent0.0, sent.1.difference(&sent0.1).count())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let runs = common::runs(3);
    let extra_text = std::env::var("BENCH_VERIFY").unwrap_or_default();
    let extra: Vec<&str> = extra_text.split_whitespace().collect();
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-verify");
    println!(
        "verify bench: `fabric verify FABRIC --inventory …` against a `fabric lab` process, median of {runs} runs"
    );
    if !extra.is_empty() {
        println!("  each verify with `{extra_text}`");
    }
    println!(
        "  switches  commands  sessions   verify wall  (growth)   lab CPU  (growth)   verify CPU  (growth)"
    );
    let mut first: Option<[Duration; 3]> = None;
    for pods in [1, 4, 16] {
        let leaves = pods * POD;
        let generated = LeafSpine::new(leaves, POD, 60);
        let switches = generated.switches();
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("bench folder");
        let fabric = dir.join(format!("leaf-spine-{switches}.yaml"));
        std::fs::write(&fabric, generated.yaml()).expect("fabric");
        let state = dir.join("lab");
        let lab = common::lab::start(&common::bin(), &fabric, &state);
        run(
            against_lab("push", &fabric, &state, &["--yes", "--allow-disruptive"]),
            "fabric push",
        );
        let samples: Vec<([Duration; 3], usize, usize)> = (0..runs)
            .map(|_| verify_once(&lab, &fabric, &state, &extra))
            .collect();
        let m: [Duration; 3] =
            std::array::from_fn(|i| median(samples.iter().map(|s| s.0[i]).collect()));
        let (commands, sessions) = (samples[0].1, samples[0].2);
        let peer = std::env::var("BENCH_PEER")
            .ok()
            .map(|p| common::peer(&p, &["--state".as_ref(), state.as_os_str()]));
        let base = *first.get_or_insert(m);
        let growth = |i: usize| m[i].as_secs_f64() / base[i].as_secs_f64();
        println!(
            "  {switches:>8}  {:>8}  {:>8}  {:>10.2} s  ({:>5.1}x)  {:>6.2} s  ({:>5.1}x)  {:>8.2} s  ({:>5.1}x)",
            commands,
            sessions,
            m[0].as_secs_f64(),
            growth(0),
            m[1].as_secs_f64(),
            growth(1),
            m[2].as_secs_f64(),
            growth(2),
        );
        if let Some(peer) = peer {
            println!("            peer: {peer}");
        }
        drop(lab);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
