//! Push speed, through the real binary against lab switches over SSH on loopback
//! (`fabric push … --lab --yes`: lab start, fetch, plan, snapshot, drift guard, apply,
//! verify, save):
//!
//! - one switch, a plan of 500+ commands (500 named VLANs);
//! - 256 switches (the reference port settings on 64 ports each): a dry run (fetch and plan
//!   every switch: the live diff) and the full push, 16 at a time.
//!
//! `cargo bench --bench push` (release build). Each run starts from factory-default
//! switches (a fresh state folder). Prints the median and the slowest run.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

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

fn fleet_fabric(dir: &Path) -> std::path::PathBuf {
    let mut y = String::from(
        "onyx: 3.10.4504\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nport_defaults:\n  trust: L3\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict }\nswitches:\n",
    );
    for s in 0..256 {
        y.push_str(&format!(
            "  leaf{s:03}:\n    model: SN4600C\n    ports:\n      1/1-1/64: {{ mtu: 9216 }}\n"
        ));
    }
    let path = dir.join("fleet.yaml");
    std::fs::write(&path, y).expect("fabric written");
    path
}

/// One `fabric push` in a fresh folder; its wall time and how many commands it printed.
fn push(fabric: &Path, dir: &Path, extra: &[&str]) -> (Duration, usize) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).expect("run folder");
    let t0 = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .current_dir(dir)
        .arg("push")
        .arg(fabric)
        .args(["--lab", "--yes"])
        .args(extra)
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK")
        .output()
        .expect("fabric push runs");
    let elapsed = t0.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let commands = text
        .lines()
        .filter(|l| l.contains(". ") && l.ends_with(']'))
        .count();
    (elapsed, commands)
}

fn report(what: &str, mut runs: Vec<(Duration, usize)>) {
    runs.sort();
    let median = runs[runs.len() / 2];
    let slowest = runs[runs.len() - 1].0;
    println!(
        "{what}: {:.0} ms (median of {}, slowest {:.0} ms), {} commands planned",
        median.0.as_secs_f64() * 1e3,
        runs.len(),
        slowest.as_secs_f64() * 1e3,
        median.1
    );
}

fn main() {
    let dir = std::env::temp_dir().join(format!("fabric-bench-push-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("bench folder");
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(RUNS);
    let vlans = vlans_fabric(&dir);
    let fleet = fleet_fabric(&dir);
    let run = dir.join("run");
    report(
        "one switch, 500 named VLANs: push",
        (0..runs).map(|_| push(&vlans, &run, &[])).collect(),
    );
    report(
        "256 switches: dry run (fetch + plan each)",
        (0..runs)
            .map(|_| push(&fleet, &run, &["--dry-run"]))
            .collect(),
    );
    report(
        "256 switches: push (16 at a time, canary first)",
        (0..runs).map(|_| push(&fleet, &run, &[])).collect(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}
