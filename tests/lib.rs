//! The one integration-test binary (one link on a 2-core machine): every module below is a
//! group of tests over real files (fabrics, goldens, fixtures, the reference session).

mod audit;
mod audit_os10;
mod cli;
mod clients;
mod clients_os10;
mod conventions;
mod counters;
mod counters_os;
mod cumulus;
mod cumulus_lab;
mod cumulus_rest;
mod dataplane;
mod docs;
/// What each fuzz target checks: `cargo test` replays the fuzzer's finds through it.
#[path = "../fuzz/checks.rs"]
mod fuzz_checks;
mod golden;
mod host_counters;
mod hosts;
mod import;
mod invalid;
mod lab;
mod lab_ssh;
/// Generated routed leaf-spine fabrics (the benchmarks').
#[path = "../benches/common/leaf_spine.rs"]
#[allow(dead_code)]
mod leaf_spine;
mod mistakes;
mod mixed_qos;
mod network;
mod os10;
mod os10_lab;
mod os10_plan;
mod parse;
mod path_mtu;
mod peers;
mod plan;
mod ports;
mod props;
mod proxy_jump;
mod push;
mod push_os10;
mod readme;
mod recipe;
mod routing;
mod shape;
mod show;
mod show_qos;
mod target;
mod toy_os;
mod trust;
mod verify;
mod verify_os10;

use std::path::{Path, PathBuf};

/// One lab switch served over SSH on loopback: `device`, with the host key kept in `dir`
/// (the switch's folder), taking `logins`.
pub fn serve_one(
    device: std::sync::Arc<fabric::lab::Device>,
    dir: &Path,
    logins: fabric::lab::Logins,
) -> fabric::lab::Lab {
    let spec = fabric::lab::Spec {
        device,
        port: 0,
        key: fabric::lab::server::host_key(Some(&dir.join("ssh_host_ed25519_key"))).unwrap(),
        logins,
        api_port: 0,
    };
    fabric::lab::Lab::start(vec![spec], "127.0.0.1".parse().unwrap()).unwrap()
}

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixtures copied from public sources (`tests/fixtures/SOURCES.md`): the reference
/// session (`reference/`), the Onyx capture corpus (`corpus/onyx/`) and the peers' benchmark
/// scripts and pairs (`peers/`). The repository's tests read nothing outside it.
pub fn shared() -> PathBuf {
    root().join("tests/fixtures")
}

/// Every fabric shipped in `fabrics/`.
pub fn fabrics() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("fabrics"))
        .expect("fabrics/ exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    v.sort();
    v
}

/// Whether a shipped fabric has an OS10 switch. OS10 docs and the live audit
/// are not yet wired (`fabric validate`, `compile`, `lab`, `diff` and `push` are), so the
/// tests that run those over every shipped fabric skip these, by this test, never silently.
pub fn has_os10(path: &Path) -> bool {
    let mut sources = fabric::diag::Sources::default();
    let (fab, _) = fabric::fabric::read(path, &mut sources).expect("readable");
    fab.expect("valid")
        .switches
        .values()
        .any(|s| s.os() != fabric::onyx::target::OS)
}

/// The shipped fabrics whose switches all run Onyx (see [`has_os10`]).
pub fn onyx_fabrics() -> Vec<PathBuf> {
    fabrics().into_iter().filter(|p| !has_os10(p)).collect()
}

/// The golden folders of every shipped fabric.
pub fn golden_dirs() -> Vec<PathBuf> {
    fabrics().iter().map(|p| golden_dir(p)).collect()
}

/// The golden folders of the shipped fabrics whose switches all run Onyx.
pub fn onyx_golden_dirs() -> Vec<PathBuf> {
    onyx_fabrics().iter().map(|p| golden_dir(p)).collect()
}

/// A shipped fabric's golden folder: `golden/<its file stem>`.
fn golden_dir(fabric: &Path) -> PathBuf {
    root()
        .join("golden")
        .join(fabric.file_stem().expect("named"))
}

/// Runs a command to its end: its exit code and everything it printed (stdout, then stderr).
pub fn run(cmd: &mut std::process::Command) -> (i32, String) {
    let out = cmd.output().expect("the command runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// A fresh, empty folder for one test (unique per test run and name).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// Every file under `tests/fixtures/corpus/onyx/`, sub-folders included, sorted (the folder may
/// grow: tests walk it).
pub fn corpus_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![shared().join("corpus/onyx")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The Onyx switch a lab switch is (its OS's own state behind the lab).
pub fn onyx(sw: &mut fabric::lab::Switch) -> &mut fabric::onyx::lab::Switch {
    sw.own_mut().expect("an Onyx switch")
}

/// The running configuration of a lab device that is an Onyx switch.
pub fn onyx_running(dev: &fabric::lab::Device) -> fabric::onyx::Config {
    dev.with_ref(|sw| {
        let onyx: &fabric::onyx::lab::Switch = sw.own().expect("an Onyx switch");
        onyx.running.clone()
    })
}
