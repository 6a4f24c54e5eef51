//! `fabric push` end to end over real SSH against lab switches (`--lab`, in the binary's
//! process), each scenario asserting the switch's final state from its state folder and
//! command log.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fabric-push-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const SWITCH: &str = "swx-mld-1-2";

fn push(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(dir)
        .arg("push")
        .arg(crate::root().join("fabrics/rdg-roce-dscp.yaml"))
        .args(["--lab", "--yes"])
        .args(extra)
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let Output {
        status,
        stdout,
        stderr,
    } = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&stdout).into_owned() + &String::from_utf8_lossy(&stderr);
    (status.code().unwrap_or(-1), text)
}

fn state(dir: &Path) -> PathBuf {
    dir.join(".fabric/lab").join(SWITCH)
}

/// A fault control file in place before the switch starts.
fn faults(dir: &Path, yaml: &str) {
    std::fs::create_dir_all(state(dir)).unwrap();
    std::fs::write(state(dir).join("faults.yaml"), yaml).unwrap();
}

fn log(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(state(dir).join("commands.log"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.split_once('\t').map_or(l, |(_, c)| c).to_string())
        .collect()
}

fn saved(dir: &Path) -> String {
    std::fs::read_to_string(state(dir).join("saved/initial.cfg")).unwrap()
}

fn golden() -> String {
    std::fs::read_to_string(crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg")).unwrap()
}

/// Whether a save of the running config (not a snapshot to another file) was sent.
fn saved_running(log: &[String]) -> bool {
    log.iter().any(|l| l == "configuration write")
}

#[test]
fn first_push_converges_and_saves_then_a_second_is_a_no_op() {
    let dir = scratch("converge");
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("converged"), "{out}");
    // What the switch saved is the reference configuration, line for line.
    assert_eq!(saved(&dir), golden());
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("{SWITCH}: no change")), "{out}");
    // A backup of the config before the push, and a transcript.
    assert_eq!(
        std::fs::read_dir(dir.join(".fabric/backups").join(SWITCH))
            .unwrap()
            .count(),
        1
    );
    assert!(dir.join(".fabric/logs").join(SWITCH).exists());
}

#[test]
fn dry_run_sends_no_configuration_command() {
    let dir = scratch("dry");
    let (code, out) = push(&dir, &["--dry-run"], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("dry run: nothing sent"), "{out}");
    let log = log(&dir);
    assert!(log.contains(&"show running-config".to_string()));
    assert!(
        !log.iter()
            .any(|l| l.starts_with("configur") || l.starts_with("interface")),
        "{log:?}"
    );
}

/// A failure mid-plan: the switch is rolled back to the config before the push (checked by
/// the push itself, and here: nothing saved, the roll-back's commands sent).
fn rolled_back(dir: &Path, extra: &[&str]) -> (String, Vec<String>) {
    let before = {
        let _ = push(dir, &["--dry-run"], &[]);
        saved(dir)
    };
    let (code, out) = push(dir, extra, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("rolled back to the running config before the push (verified)"),
        "{out}"
    );
    let log = log(dir);
    assert!(
        !saved_running(&log),
        "a half-applied state was saved: {log:?}"
    );
    assert_eq!(saved(dir), before);
    (out, log)
}

#[test]
fn a_refused_command_mid_plan_is_rolled_back() {
    let dir = scratch("refused");
    faults(
        &dir,
        "refuse:\n  - { match: \"traffic-class 3 congestion-control\", error: \"% ECN not supported\" }\n",
    );
    let (out, log) = rolled_back(&dir, &[]);
    assert!(out.contains("% ECN not supported"), "{out}");
    // The roll-back removed what the push had added (the pool, trust).
    assert!(log.iter().any(|l| l == "no traffic pool roce"), "{log:?}");
}

#[test]
fn a_dropped_connection_reconnects_and_rolls_back() {
    let dir = scratch("drop");
    faults(&dir, "drop: { match: \"traffic-class 6\" }\n");
    let (out, _) = rolled_back(&dir, &[]);
    assert!(out.contains("connection lost at"), "{out}");
}

#[test]
fn a_hang_times_out_and_rolls_back() {
    let dir = scratch("hang");
    faults(&dir, "hang: { match: \"qos trust\" }\n");
    let (out, _) = rolled_back(&dir, &["--command-timeout", "1"]);
    assert!(
        out.contains("no reply to `interface ethernet 1/1-1/32 qos trust L3` in time"),
        "{out}"
    );
}

#[test]
fn drift_between_plan_and_push_aborts_untouched() {
    let dir = scratch("drift");
    faults(
        &dir,
        "drift:\n  match: show running-config\n  commands: [\"interface ethernet 1/20 description moved\"]\n",
    );
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the running config changed since the plan was made; nothing sent"),
        "{out}"
    );
    let log = log(&dir);
    assert!(!log.iter().any(|l| l == "configure terminal"), "{log:?}");
}

#[test]
fn wrong_password_is_a_clear_error() {
    let dir = scratch("password");
    let (code, out) = push(&dir, &[], &[("FABRIC_PASSWORD", "not-the-password")]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("login as `admin` on 127.0.0.1:"), "{out}");
    assert!(!out.contains("not-the-password"));
}

#[test]
fn secrets_never_reach_logs_or_output() {
    let dir = scratch("secret");
    let canary = "Canary-Secret-7f3a";
    let (code, out) = push(&dir, &[], &[("FABRIC_LAB_PASSWORD", canary)]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains(canary));
    for sub in [".fabric/logs", ".fabric/backups", ".fabric/lab"] {
        let mut stack = vec![dir.join(sub)];
        while let Some(p) = stack.pop() {
            if p.is_dir() {
                stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            } else {
                let bytes = std::fs::read(&p).unwrap();
                assert!(
                    !String::from_utf8_lossy(&bytes).contains(canary),
                    "{} holds the password",
                    p.display()
                );
            }
        }
    }
}
