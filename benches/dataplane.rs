//! The lab's data plane: start-up, convergence and memory of `fabric lab FABRIC --from DIR
//! --dataplane` (every switch started from its compiled configuration, so FRR starts with
//! BGP at once), as a user starts it, for `fabrics/ml-cluster.yaml` (6 switches, 8 sampled
//! hosts) and a generated leaf-spine fabric of 64 switches (60 leaves of 4 servers, 120
//! sampled hosts). Per run:
//! - start-up: until the banner (namespaces, veths, bridges, addresses, FRR's daemons
//!   started and configured);
//! - converged: until every BGP session of every switch is Established in FRR's JSON;
//! - memory: the lab process's peak RSS and the resident memory of every FRR daemon (zebra,
//!   bgpd, bfdd), from their pid files (the kernel's own memory for namespaces and veths is
//!   not counted);
//! - stop: SIGTERM until the process has ended (daemons stopped, namespaces removed).
//!
//! `cargo bench --bench dataplane` (release build), as root with iproute2, iputils-ping and
//! FRR. `BENCH_RUNS` runs (default 3) of each; prints medians.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

mod common;

const PREFIX: &str = "fb-";

/// The resident memory of a process in KB (`VmRSS`, or `VmHWM` with `peak`).
fn memory_kb(pid: u32, peak: bool) -> u64 {
    let key = if peak { "VmHWM:" } else { "VmRSS:" };
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Whether every session of `switch` is Established in FRR's JSON.
fn converged(switch: &str) -> bool {
    let Ok(out) = Command::new("vtysh")
        .args([
            "-N",
            &format!("{PREFIX}{switch}"),
            "-c",
            "show bgp summary json",
        ])
        .output()
    else {
        return false;
    };
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(&out.stdout) else {
        return false;
    };
    v["ipv4Unicast"]["peers"]
        .as_object()
        .is_some_and(|p| !p.is_empty() && p.values().all(|s| s["state"] == "Established"))
}

/// The resident memory of every FRR daemon of the lab's switches, in KB.
fn daemons_kb(switches: &[String]) -> u64 {
    switches
        .iter()
        .flat_map(|s| {
            ["zebra", "bgpd", "bfdd"].map(|d| {
                Path::new("/var/run/frr")
                    .join(format!("{PREFIX}{s}"))
                    .join(format!("{d}.pid"))
            })
        })
        .filter_map(|p| std::fs::read_to_string(p).ok()?.trim().parse().ok())
        .map(|pid| memory_kb(pid, false))
        .sum()
}

struct Run {
    start: Duration,
    converged: Duration,
    lab_kb: u64,
    frr_kb: u64,
    stop: Duration,
}

fn one(fabric: &Path, from: &Path, state: &Path, switches: &[String]) -> Run {
    let t0 = Instant::now();
    let lab = common::lab::start_with(
        &common::bin(),
        fabric,
        state,
        &[
            "--from".as_ref(),
            from.as_os_str(),
            "--dataplane".as_ref(),
            "--namespace-prefix".as_ref(),
            PREFIX.as_ref(),
        ],
    );
    let start = t0.elapsed();
    let mut left: Vec<&String> = switches.iter().collect();
    while !left.is_empty() {
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "not converged: {left:?}"
        );
        left.retain(|s| !converged(s));
    }
    let converged = t0.elapsed();
    let (lab_kb, frr_kb) = (memory_kb(lab.child.id(), true), daemons_kb(switches));
    let t1 = Instant::now();
    drop(lab);
    Run {
        start,
        converged,
        lab_kb,
        frr_kb,
        stop: t1.elapsed(),
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn bench(name: &str, fabric: &Path, dir: &Path, runs: usize) {
    let out = dir.join("golden");
    let ok = Command::new(common::bin())
        .arg("compile")
        .arg(fabric)
        .arg("--out")
        .arg(&out)
        .status()
        .expect("fabric compile runs");
    assert!(ok.success(), "{} compiles", fabric.display());
    let from = out.join(fabric.file_stem().expect("a file name"));
    let mut switches: Vec<String> = std::fs::read_dir(&from)
        .expect("compiled")
        .filter_map(|e| {
            let p = e.ok()?.path();
            Some(p.file_stem()?.to_str()?.to_string())
        })
        .collect();
    switches.sort();
    let results: Vec<Run> = (0..runs)
        .map(|r| {
            one(
                fabric,
                &from,
                &dir.join(format!("state-{name}-{r}")),
                &switches,
            )
        })
        .collect();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mb = |kb: u64| kb as f64 / 1024.0;
    println!(
        "{name}: {} switches; start-up {:.0} ms, converged {:.0} ms, stop {:.0} ms (medians of {runs}); lab {:.1} MB peak, FRR {:.1} MB resident ({:.1} MB a switch)",
        switches.len(),
        ms(median(results.iter().map(|r| r.start).collect())),
        ms(median(results.iter().map(|r| r.converged).collect())),
        ms(median(results.iter().map(|r| r.stop).collect())),
        mb(results.iter().map(|r| r.lab_kb).max().unwrap_or(0)),
        mb(results.iter().map(|r| r.frr_kb).max().unwrap_or(0)),
        mb(results.iter().map(|r| r.frr_kb).max().unwrap_or(0)) / switches.len() as f64,
    );
}

fn main() {
    let lacking = fabric::lab::live::missing(PREFIX);
    if !lacking.is_empty() {
        eprintln!("the data plane cannot be built here: {lacking:?}");
        std::process::exit(2);
    }
    let dir = std::env::temp_dir().join(format!("fabric-bench-dataplane-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("bench folder");
    let runs = common::runs(3);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    bench(
        "ml-cluster",
        &root.join("fabrics/ml-cluster.yaml"),
        &dir,
        runs,
    );
    let mut generated = common::leaf_spine::LeafSpine::new(60, 30, 4);
    generated.declared = common::leaf_spine::Declared::PerLeaf;
    let path = dir.join("leafspine64.yaml");
    std::fs::write(&path, generated.yaml()).expect("fabric written");
    bench("leafspine64", &path, &dir, runs);
    let _ = std::fs::remove_dir_all(&dir);
}
