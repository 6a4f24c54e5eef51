//! Lab start-up: `fabric lab` on a generated fabric of 64 SN4600C switches (64 ports each),
//! as a user starts it, until every switch answers on its SSH port; and the memory the whole
//! lab holds then (the process's peak resident set, `VmHWM`).
//!
//! `cargo bench --bench lab` (release build). Each run starts the real binary; the first
//! runs on an empty state folder (host keys made, factory configurations written), the
//! others restart on that state (keys and saved configurations read back). Prints the
//! median and the slowest of each kind.

use std::io::{Read, Write as _};
use std::net::TcpStream;
use std::time::{Duration, Instant};

mod common;

const SWITCHES: usize = 64;
const RUNS: usize = 5;

fn fabric_file(dir: &std::path::Path) -> std::path::PathBuf {
    let mut y = String::from("onyx: 3.10.4504\nswitches:\n");
    for s in 0..SWITCHES {
        y.push_str(&format!(
            "  leaf{s:02}:\n    model: SN4600C\n    ports:\n      1/1-1/64: {{ mtu: 9216 }}\n"
        ));
    }
    let path = dir.join("lab64.yaml");
    std::fs::write(&path, y).expect("fabric written");
    path
}

/// One start: the time until every switch sends its SSH identification, and the peak RSS.
fn start(fabric: &std::path::Path, state: &std::path::Path) -> (Duration, u64) {
    let t0 = Instant::now();
    let lab = common::lab::start(env!("CARGO_BIN_EXE_fabric"), fabric, state);
    let addrs: Vec<String> = lab
        .text
        .lines()
        .skip(1)
        .take(SWITCHES)
        .map(|l| l.split_whitespace().nth(1).expect("address").to_string())
        .collect();
    assert_eq!(addrs.len(), SWITCHES);
    for addr in &addrs {
        let mut s = TcpStream::connect(addr).expect("switch listens");
        let mut id = [0u8; 8];
        s.read_exact(&mut id).expect("SSH identification");
        assert_eq!(&id, b"SSH-2.0-");
        let _ = s.write_all(b"SSH-2.0-bench\r\n");
    }
    let elapsed = t0.elapsed();
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", lab.child.id())).expect("status");
    let hwm_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .expect("VmHWM");
    (elapsed, hwm_kb)
}

fn report(kind: &str, mut runs: Vec<(Duration, u64)>) {
    runs.sort();
    let (median, slowest) = (runs[runs.len() / 2].0, runs[runs.len() - 1].0);
    let rss = runs.iter().map(|r| r.1).max().unwrap_or(0);
    println!(
        "{kind}: {SWITCHES} switches answering SSH in {:.0} ms (median of {}, slowest {:.0} ms), peak RSS {:.1} MB",
        median.as_secs_f64() * 1e3,
        runs.len(),
        slowest.as_secs_f64() * 1e3,
        rss as f64 / 1024.0
    );
}

fn main() {
    let dir = std::env::temp_dir().join(format!("fabric-bench-lab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("bench folder");
    let fabric = fabric_file(&dir);
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(RUNS);
    let (mut cold, mut warm) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let state = dir.join(format!("state{run}"));
        cold.push(start(&fabric, &state));
        warm.push(start(&fabric, &state));
    }
    report("first start (keys made)", cold);
    report("restart (state read back)", warm);
    let _ = std::fs::remove_dir_all(&dir);
}
