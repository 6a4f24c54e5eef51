//! `fabric push` and `fabric diff` of OS10 switches end to end, over real SSH against lab
//! switches (`--lab`, in the binary's process): a fabric mixing an Onyx spine and an OS10 leaf
//! (`tests/fixtures/os10/lab/mixed.yaml`) converges, then changes nothing; a failure on an
//! OS10 release with transaction mode is discarded (nothing applied), on one without it
//! rolled back; a dropped connection, drift, a dry run, a lost save reply and the password.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::push::{faults_of, log_of, state_of};

const LEAF: &str = "leaf01";

fn scratch(name: &str) -> PathBuf {
    crate::scratch(&format!("push-os10-{name}"))
}

/// The mixed fabric, its OS10 leaf on `release`, written into `dir`.
fn fabric(dir: &Path, release: &str) -> PathBuf {
    let text = std::fs::read_to_string(crate::shared().join("os10/lab/mixed.yaml")).unwrap();
    let path = dir.join("mixed.yaml");
    std::fs::write(
        &path,
        text.replace("os10: 10.5.3.2", &format!("os10: {release}")),
    )
    .unwrap();
    path
}

fn fabric_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(dir)
        .args(args)
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    for (k, v) in env {
        cmd.env(k, v);
    }
    crate::run(&mut cmd)
}

/// `fabric push mixed.yaml --lab --yes` for the leaf alone.
fn push(dir: &Path, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["push", "mixed.yaml", "--lab", "--yes", "--switch", LEAF];
    args.extend(extra);
    fabric_in(dir, &args, &[])
}

fn log(dir: &Path) -> Vec<String> {
    log_of(dir, LEAF)
}

/// The leaf's saved configuration (`write memory`), as the lab keeps it.
fn startup(dir: &Path) -> fabric::os10::Config {
    let path = state_of(dir, LEAF).join("startup-configuration.cfg");
    fabric::os10::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The leaf's compiled configuration.
fn intended(path: &Path, name: &str) -> fabric::os10::Config {
    let mut sources = fabric::diag::Sources::default();
    let (fab, _) = fabric::fabric::read(path, &mut sources).unwrap();
    let fab = fab.unwrap();
    let sw = fab
        .switches
        .values()
        .find(|s| s.hostname.as_str() == name)
        .unwrap();
    fabric::os10::compile::compile_switch(sw)
}

/// A failure mid-plan: the push says the leaf was rolled back (verified), nothing saved, the
/// saved configuration as before.
fn rolled_back(dir: &Path, extra: &[&str]) -> (String, Vec<String>) {
    let (code, out) = push(dir, &["--dry-run"]);
    assert_eq!(code, 0, "{out}");
    let before = startup(dir);
    let (code, out) = push(dir, extra);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("rolled back to the running config before the push (verified), nothing saved"),
        "{out}"
    );
    let log = log(dir);
    assert!(!log.iter().any(|l| l == "write memory"), "{log:?}");
    assert_eq!(startup(dir), before);
    (out, log)
}

#[test]
fn a_mixed_fabric_converges_then_changes_nothing() {
    let dir = scratch("converge");
    let path = fabric(&dir, "10.5.3.2");
    let (code, out) = fabric_in(&dir, &["push", "mixed.yaml", "--lab", "--yes"], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01   converged") && out.contains("spine01  converged"),
        "{out}"
    );
    // The OS10 leaf: inside one transaction, saved with `write memory`, and what it saved
    // is its compiled configuration (nothing left to plan).
    let log = log(&dir);
    let at = |c: &str| {
        log.iter()
            .position(|l| l == c)
            .unwrap_or_else(|| panic!("{c}: {log:?}"))
    };
    assert!(at("start transaction") < at("configure terminal"));
    assert!(at("configure terminal") < at("commit") && at("commit") < at("write memory"));
    assert!(
        log.iter().any(|l| l == "interface ethernet1/1/1"),
        "{log:?}"
    );
    assert!(log.iter().any(|l| l == "pfc-cos 3"), "{log:?}");
    let left = fabric::os10::plan::plan(&startup(&dir), &intended(&path, LEAF));
    assert!(left.is_empty(), "{left:?}");
    // The Onyx spine of the same fabric saved its own configuration.
    assert!(
        log_of(&dir, "spine01")
            .iter()
            .any(|l| l == "configuration write")
    );
    assert!(dir.join(".fabric/backups").join(LEAF).exists());
    assert!(dir.join(".fabric/logs").join(LEAF).exists());
    let (code, out) = fabric_in(&dir, &["push", "mixed.yaml", "--lab", "--yes"], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01: no change") && out.contains("spine01: no change"),
        "{out}"
    );
}

#[test]
fn a_refused_command_discards_the_transaction() {
    let dir = scratch("refused");
    fabric(&dir, "10.5.3.2");
    faults_of(
        &dir,
        LEAF,
        "refuse:\n  - { match: \"pfc-cos\", error: \"% Error: Illegal parameter.\" }\n",
    );
    let (out, log) = rolled_back(&dir, &[]);
    assert!(
        out.contains("`pfc-cos 3` refused: % Error: Illegal parameter."),
        "{out}"
    );
    assert!(out.contains("the transaction was discarded"), "{out}");
    assert!(log.iter().any(|l| l == "discard"), "{log:?}");
    assert!(
        !log.iter().any(|l| l == "commit"),
        "nothing committed: {log:?}"
    );
}

/// A release before transaction mode: the commands apply one by one, and a failure is undone
/// by the plan back.
#[test]
fn without_transactions_a_refused_command_is_rolled_back() {
    let dir = scratch("no-transaction");
    fabric(&dir, "10.3.2.1");
    faults_of(
        &dir,
        LEAF,
        "refuse:\n  - { match: \"interface ethernet1/1/3\", error: \"% Error: Illegal parameter.\" }\n",
    );
    let (out, log) = rolled_back(&dir, &[]);
    assert!(!out.contains("transaction"), "{out}");
    assert!(!log.iter().any(|l| l.contains("transaction")), "{log:?}");
    // The roll-back took away what the push had made (its class-map, for one).
    let refused = log
        .iter()
        .position(|l| l == "interface ethernet1/1/3")
        .unwrap();
    assert!(
        log[refused..]
            .iter()
            .any(|l| l == "no class-map type network-qos ROCE3"),
        "{log:?}"
    );
}

#[test]
fn a_dropped_connection_reconnects_and_rolls_back() {
    let dir = scratch("drop");
    fabric(&dir, "10.5.3.2");
    faults_of(
        &dir,
        LEAF,
        "drop: { match: \"priority-flow-control mode on\" }\n",
    );
    let (out, log) = rolled_back(&dir, &[]);
    assert!(
        out.contains("connection lost at `priority-flow-control mode on`"),
        "{out}"
    );
    assert!(!log.iter().any(|l| l == "commit"), "{log:?}");
}

#[test]
fn a_hang_times_out_and_rolls_back() {
    let dir = scratch("hang");
    fabric(&dir, "10.3.2.1");
    faults_of(&dir, LEAF, "hang: { match: \"pfc-cos\" }\n");
    let (out, _) = rolled_back(&dir, &["--command-timeout", "1"]);
    assert!(out.contains("no reply to `pfc-cos 3` in time"), "{out}");
}

#[test]
fn a_lost_save_reply_is_read_back() {
    let dir = scratch("save-lost");
    fabric(&dir, "10.5.3.2");
    faults_of(
        &dir,
        LEAF,
        "hang: { match: \"write memory\", applied: true }\n",
    );
    let (code, out) = push(&dir, &["--command-timeout", "1"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "`write memory` failed (no reply to `write memory` in time), but the switch saved"
        ),
        "{out}"
    );
    let left = fabric::os10::plan::plan(&startup(&dir), &intended(&dir.join("mixed.yaml"), LEAF));
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn drift_between_plan_and_push_aborts_untouched() {
    let dir = scratch("drift");
    fabric(&dir, "10.5.3.2");
    faults_of(
        &dir,
        LEAF,
        "drift:\n  match: show running-configuration\n  commands: [\"interface ethernet1/1/20\", \"description moved\"]\n",
    );
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the running config changed since the plan was made; nothing sent"),
        "{out}"
    );
    let log = log(&dir);
    assert!(
        !log.iter()
            .any(|l| l == "configure terminal" || l == "start transaction"),
        "{log:?}"
    );
}

#[test]
fn dry_run_sends_no_configuration_command() {
    let dir = scratch("dry");
    fabric(&dir, "10.5.3.2");
    let (code, out) = push(&dir, &["--dry-run"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("dry run: nothing sent"), "{out}");
    assert!(
        out.contains("interface ethernet1/1/1: mtu 9216  [port-flap]"),
        "{out}"
    );
    let log = log(&dir);
    assert!(log.contains(&"show running-configuration".to_string()));
    assert!(
        !log.iter().any(|l| l.starts_with("configure")
            || l.starts_with("start")
            || l.starts_with("interface")),
        "{log:?}"
    );
}

#[test]
fn secrets_never_reach_logs_or_output() {
    let dir = scratch("secret");
    fabric(&dir, "10.5.3.2");
    let canary = "Canary-Secret-0s10";
    let (code, out) = fabric_in(
        &dir,
        &["push", "mixed.yaml", "--lab", "--yes", "--switch", LEAF],
        &[("FABRIC_LAB_PASSWORD", canary)],
    );
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains(canary));
    let mut stack = vec![dir.join(".fabric")];
    let mut files = 0;
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else {
            files += 1;
            let bytes = std::fs::read(&p).unwrap();
            assert!(
                !String::from_utf8_lossy(&bytes).contains(canary),
                "{} holds the password",
                p.display()
            );
        }
    }
    assert!(files > 3, "{files} files");
}

/// `fabric diff` of the OS10 leaf: from a backup (`--running`), in every format, with diff(1)'s
/// exit codes; and live, over SSH to `fabric lab`'s OS10 switch, through its inventory.
#[test]
fn diff_of_an_os10_switch_from_a_backup_and_live() {
    let dir = scratch("diff");
    let path = fabric(&dir, "10.5.3.2");
    let renderer = fabric::os10::Renderer::embedded().unwrap();
    let golden = renderer.render(&intended(&path, LEAF)).unwrap();
    std::fs::write(dir.join("at-target.cfg"), &golden).unwrap();
    let drifted = golden.replacen(" mtu 9216\n", " mtu 1500\n", 1);
    assert_ne!(drifted, golden);
    std::fs::write(dir.join("drifted.cfg"), &drifted).unwrap();
    let diff = |running: &str, format: &str| {
        fabric_in(
            &dir,
            &[
                "diff",
                "mixed.yaml",
                "--switch",
                LEAF,
                "--running",
                running,
                "--format",
                format,
            ],
            &[],
        )
    };
    let (code, out) = diff("at-target.cfg", "text");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("leaf01: no drift"), "{out}");
    let (code, out) = diff("drifted.cfg", "text");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("-interface ethernet1/1/1\n- mtu 1500")
            || out.contains("- mtu 1500\n+ mtu 9216"),
        "{out}"
    );
    assert!(
        out.contains("   1. interface ethernet1/1/1: mtu 9216  [port-flap]"),
        "{out}"
    );
    let (code, out) = diff("drifted.cfg", "commands");
    assert_eq!(code, 1, "{out}");
    assert_eq!(out, "interface ethernet1/1/1\n mtu 9216\n exit\n");
    let (code, out) = diff("drifted.cfg", "json");
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let sw = &json["switches"][0];
    assert_eq!(sw["os"], "os10");
    assert_eq!(sw["commands"][0]["mode"][0], "interface ethernet1/1/1");
    assert_eq!(sw["commands"][0]["command"], "mtu 9216");
    assert_eq!(sw["commands"][0]["impact"], "port-flap");
    // Not an OS10 running configuration: a located error, exit 2.
    std::fs::write(dir.join("bad.cfg"), "interface ethernet1/1/1\n mtu 99999\n").unwrap();
    let (code, out) = diff("bad.cfg", "text");
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("`bad.cfg` is not an OS10 running configuration: bad.cfg:2:"),
        "{out}"
    );

    // Live: `fabric lab` serves the factory-default leaf (and the Onyx spine).
    let state = dir.join("lab");
    let (_lab, table) = crate::lab_ssh::start_lab_of(&path, &state, &[], &[]);
    assert!(
        table.contains("leaf01") && table.contains("spine01"),
        "{table}"
    );
    let (code, out) = fabric_in(
        &dir,
        &[
            "diff",
            "mixed.yaml",
            "--inventory",
            state.join("inventory.yaml").to_str().unwrap(),
            "--format",
            "commands",
        ],
        &[("FABRIC_PASSWORD", "admin")],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("# leaf01\n") && out.contains("# spine01\n"),
        "{out}"
    );
    assert!(
        out.contains("interface ethernet1/1/1\n description gpu1:ens1f0\n mtu 9216\n"),
        "{out}"
    );
    assert!(out.contains("traffic pool roce type lossless\n"), "{out}");
}

/// The leaf boots from its compiled configuration plus a BGP neighbor the fabric does not
/// have, with a password the model does not know (masked, as OS10 prints it).
fn boot_with_a_bgp_password(dir: &Path, path: &Path) {
    let renderer = fabric::os10::Renderer::embedded().unwrap();
    let text = renderer.render(&intended(path, LEAF)).unwrap();
    let text = format!(
        "{text}router bgp 65101\n neighbor 127.0.0.9\n  password 9 ****\n  remote-as 65100\n  no shutdown\n !\n"
    );
    fabric::os10::parse(&text).expect("the booted configuration reads as OS10");
    let state = state_of(dir, LEAF);
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("startup-configuration.cfg"), text).unwrap();
}

#[test]
fn a_deletion_a_roll_back_cannot_undo_is_refused_without_transactions() {
    let dir = scratch("loses");
    let path = fabric(&dir, "10.3.2.1");
    boot_with_a_bgp_password(&dir, &path);
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("warning: `no router bgp"), "{out}");
    assert!(out.contains("password 9 ****"), "{out}");
    assert!(
        out.contains("leaf01: not pushed: its release has no transaction mode"),
        "{out}"
    );
    let log = log(&dir);
    assert!(!log.iter().any(|l| l.starts_with("configure")), "{log:?}");

    // With transaction mode a failure is discarded, never undone by the plan back: the push
    // goes ahead and says what the deletion takes.
    let dir = scratch("loses-tx");
    let path = fabric(&dir, "10.5.3.2");
    boot_with_a_bgp_password(&dir, &path);
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("warning: `no router bgp"), "{out}");
    assert!(startup(&dir).bgp.is_none());
}
