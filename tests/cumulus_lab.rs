//! `fabric push` of Cumulus switches to the lab (`--lab`, over real SSH on loopback): the
//! Spectrum-X fabric converges, then changes nothing; a push whose connection drops mid-way
//! leaves the switch on its previous revision.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::push::{faults_of, log_of, state_of};

fn scratch(name: &str) -> PathBuf {
    let dir = crate::scratch(&format!("cumulus-lab-{name}"));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fabrics/spectrum-x.yaml");
    std::fs::copy(src, dir.join("spectrum-x.yaml")).unwrap();
    dir
}

fn push(dir: &Path, extra: &[&str]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(dir)
        .args(["push", "spectrum-x.yaml", "--lab", "--yes"])
        .args(extra)
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    crate::run(&mut cmd)
}

fn startup(dir: &Path, sw: &str) -> String {
    std::fs::read_to_string(state_of(dir, sw).join("startup.yaml")).unwrap_or_default()
}

#[test]
fn spectrum_x_converges_on_cumulus_lab_switches_then_changes_nothing() {
    let dir = scratch("converge");
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01   converged") && out.contains("spine01  converged"),
        "{out}"
    );
    let log = log_of(&dir, "leaf01");
    let at = |c: &str| {
        log.iter()
            .position(|l| l == c)
            .unwrap_or_else(|| panic!("{c}: {log:?}"))
    };
    assert!(at("nv config detach") < at("nv config apply --confirm 600s --assume-yes"));
    assert!(at("nv config apply 1 --confirm-yes") < at("nv config save"));
    assert!(startup(&dir, "leaf01").contains("hostname: leaf01"));
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01: no change") && out.contains("spine02: no change"),
        "{out}"
    );
}

#[test]
fn a_push_cut_mid_way_leaves_the_previous_revision() {
    let dir = scratch("cut");
    let (code, out) = push(&dir, &["--switch", "leaf01"]);
    assert_eq!(code, 0, "{out}");
    let before = startup(&dir, "leaf01");
    let text = std::fs::read_to_string(dir.join("spectrum-x.yaml")).unwrap();
    let changed = text.replace("asn_base: 65100", "asn_base: 65200");
    assert_ne!(changed, text);
    std::fs::write(dir.join("spectrum-x.yaml"), changed).unwrap();
    let applies = |log: &[String]| {
        log.iter()
            .filter(|l| l.starts_with("nv config apply --confirm"))
            .count()
    };
    let applied = applies(&log_of(&dir, "leaf01"));
    faults_of(
        &dir,
        "leaf01",
        "drop: { match: \"nv set router bgp autonomous-system\" }\n",
    );
    let (code, out) = push(&dir, &["--switch", "leaf01"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("connection lost at `nv set router bgp autonomous-system 65201`"),
        "{out}"
    );
    assert_eq!(applies(&log_of(&dir, "leaf01")), applied);
    // Nothing applied: the next push (the fault gone) still has the change to make.
    faults_of(&dir, "leaf01", "{}\n");
    let (code, out) = push(&dir, &["--switch", "leaf01", "--dry-run"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("nv set router bgp autonomous-system 65201"),
        "{out}"
    );
    assert_eq!(startup(&dir, "leaf01"), before);
}

/// A push whose verify fails (the switch's configuration changed behind it right after the
/// apply): the push rolls back — a revision of its own, confirmed — and saves nothing; the
/// switch is on the tree it had before.
#[test]
fn a_push_whose_verify_fails_leaves_the_previous_revision() {
    let dir = scratch("verify");
    let (code, out) = push(&dir, &["--switch", "leaf01"]);
    assert_eq!(code, 0, "{out}");
    let before_startup = startup(&dir, "leaf01");
    let text = std::fs::read_to_string(dir.join("spectrum-x.yaml")).unwrap();
    std::fs::write(
        dir.join("spectrum-x.yaml"),
        text.replace("asn_base: 65100", "asn_base: 65200"),
    )
    .unwrap();
    let planned = |dir: &Path| {
        let (code, out) = push(dir, &["--switch", "leaf01", "--dry-run"]);
        assert_eq!(code, 0, "{out}");
        let lines: Vec<String> = out
            .lines()
            .filter(|l| l.contains("nv "))
            .map(str::to_string)
            .collect();
        assert!(!lines.is_empty(), "{out}");
        lines
    };
    let before = planned(&dir);
    faults_of(
        &dir,
        "leaf01",
        "drift:\n  match: \"nv config apply --confirm\"\n  commands: [\"nv set interface swp20 link mtu 1500\"]\n",
    );
    let (code, out) = push(&dir, &["--switch", "leaf01"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("still differ after applying"), "{out}");
    assert!(out.contains("rolled back"), "{out}");
    let log = log_of(&dir, "leaf01");
    let applies: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with("nv config apply"))
        .collect();
    // The push's apply, the roll-back's apply, the roll-back's confirm; never the push's own
    // confirm, never a save.
    assert!(applies.len() >= 3, "{log:?}");
    let last_save = log.iter().rposition(|l| l == "nv config save").unwrap();
    let push_apply = log
        .iter()
        .rposition(|l| l.starts_with("nv config apply --confirm"))
        .unwrap();
    assert!(
        last_save < push_apply,
        "saved after the failed push: {log:?}"
    );
    faults_of(&dir, "leaf01", "{}\n");
    assert_eq!(
        planned(&dir),
        before,
        "the switch is on its previous tree: the same plan"
    );
    assert_eq!(startup(&dir, "leaf01"), before_startup);
}
