//! Push speed, through the real binary against lab switches over SSH on loopback
//! (`fabric push … --lab --yes`: lab start, fetch, plan, snapshot, drift guard, apply,
//! verify, save):
//!
//! - one switch, a plan of 500+ commands (500 named VLANs);
//! - 16, 64 and 256 switches (the reference port settings on 64 ports each): the full push,
//!   16 at a time, with its growth over 16 switches; and a dry run of 256 (fetch and plan
//!   every switch: the live diff).
//!
//! `cargo bench --bench push` (release build). Each run starts from factory-default
//! switches (a fresh state folder). Prints the median and the slowest run (`BENCH_RUNS`
//! runs, default 5), and the largest peak memory. `FABRIC_BIN=PATH` runs another build of
//! `fabric` (to compare two builds in alternating runs). `BENCH_PEER='PROGRAM ARGS…'` then
//! starts a `fabric lab` of the 256 switches and runs the peer with `--state STATE --config
//! FILE`, FILE the commands the push planned for each switch, and prints the JSON line it
//! prints (`benches/peers/netmiko_lab.py`: Netmiko pushing the same commands).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

mod common;

const RUNS: usize = 5;

fn vlans_fabric(dir: &Path) -> std::path::PathBuf {
    let mut y = String::from("onyx: 3.10.4504\nvlans:\n");
    for v in 2..502 {
        y.push_str(&format!("  - {{ id: {v}, name: tenant-{v} }}\n"));
    }
    y.push_str("switches:\n  leaf01: { model: SN4600C }\n");
    let path = dir.join("vlans.yaml");
    std::fs::write(&path, y).expect("fabric written");
    path
}

fn fleet_fabric(dir: &Path, switches: usize) -> std::path::PathBuf {
    let mut y = String::from(
        "onyx: 3.10.4504\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nport_defaults:\n  trust: L3\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict }\nswitches:\n",
    );
    for s in 0..switches {
        y.push_str(&format!(
            "  leaf{s:03}:\n    model: SN4600C\n    ports:\n      1/1-1/64: {{ mtu: 9216 }}\n"
        ));
    }
    let path = dir.join(format!("fleet-{switches}.yaml"));
    std::fs::write(&path, y).expect("fabric written");
    path
}

/// One run's wall time, how many commands it printed, its peak memory in MB.
type Run = (Duration, usize, f64);

/// One `fabric push` in a fresh folder.
fn push(fabric: &Path, dir: &Path, extra: &[&str]) -> Run {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("run folder");
    let out = dir.join("out.txt");
    let (passed, elapsed, _, peak) = common::measure(
        Command::new(common::bin())
            .current_dir(dir)
            .arg("push")
            .arg(fabric)
            .args(["--lab", "--yes"])
            .args(extra)
            .env_remove("FABRIC_PASSWORD")
            .env_remove("SSH_AUTH_SOCK")
            .stdout(std::fs::File::create(&out).expect("output file"))
            .stderr(std::process::Stdio::inherit()),
    );
    let text = std::fs::read_to_string(&out).expect("output");
    assert!(passed, "{text}");
    let commands = text
        .lines()
        .filter(|l| l.contains(". ") && l.ends_with(']'))
        .count();
    (elapsed, commands, peak)
}

/// Prints the median run (and the slowest) of `what`; returns the median's wall time.
fn report(what: &str, mut runs: Vec<Run>, base: Option<Duration>) -> Duration {
    runs.sort_by_key(|r| r.0);
    let median = runs[runs.len() / 2];
    let slowest = runs[runs.len() - 1].0;
    let peak = runs.iter().map(|r| r.2).fold(0.0, f64::max);
    let growth = base.map_or(String::new(), |b| {
        format!(", {:.1}x", median.0.as_secs_f64() / b.as_secs_f64())
    });
    println!(
        "{what}: {:.0} ms (median of {}, slowest {:.0} ms{growth}), {} commands planned, {peak:.0} MB peak",
        median.0.as_secs_f64() * 1e3,
        runs.len(),
        slowest.as_secs_f64() * 1e3,
        median.1
    );
    median.0
}

/// The commands the last push planned for its first switch (its output's numbered lines
/// `  N. COMMAND  [CLASS]`).
fn planned(run: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(run.join("out.txt")).expect("the push's output");
    let numbered = |l: &str| {
        let (n, rest) = l.trim_start().split_once(". ")?;
        n.parse::<usize>().ok()?;
        let (command, class) = rest.rsplit_once("  [")?;
        class.ends_with(']').then(|| command.to_string())
    };
    text.lines()
        .skip_while(|l| numbered(l).is_none())
        .map_while(numbered)
        .collect()
}

/// The peer, pushing what the last push planned to a `fabric lab` of the same fleet.
fn run_peer(peer: &str, fleet: &Path, run: &Path, dir: &Path) {
    let commands = dir.join("planned.txt");
    std::fs::write(&commands, planned(run).join("\n") + "\n").expect("commands written");
    let state = dir.join("peer-lab");
    let _ = std::fs::remove_dir_all(&state);
    let lab = common::lab::start(&common::bin(), fleet, &state);
    let args = [
        "--state".as_ref(),
        state.as_os_str(),
        "--config".as_ref(),
        commands.as_os_str(),
    ];
    println!("256 switches: peer: {}", common::peer(peer, &args));
    drop(lab);
}

fn main() {
    let dir = std::env::temp_dir().join(format!("fabric-bench-push-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("bench folder");
    let runs = common::runs(RUNS);
    let vlans = vlans_fabric(&dir);
    let run = dir.join("run");
    report(
        "one switch, 500 named VLANs: push",
        (0..runs).map(|_| push(&vlans, &run, &[])).collect(),
        None,
    );
    let mut base = None;
    for switches in [16, 64, 256] {
        let fleet = fleet_fabric(&dir, switches);
        let t = report(
            &format!("{switches} switches: push (16 at a time, canary first)"),
            (0..runs).map(|_| push(&fleet, &run, &[])).collect(),
            base,
        );
        base.get_or_insert(t);
        if switches == 256 {
            if let Ok(peer) = std::env::var("BENCH_PEER") {
                run_peer(&peer, &fleet, &run, &dir);
            }
            report(
                "256 switches: dry run (fetch + plan each)",
                (0..runs)
                    .map(|_| push(&fleet, &run, &["--dry-run"]))
                    .collect(),
                None,
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
