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
        out.contains("error[E100]") && out.contains("bad.cfg:2:6"),
        "{out}"
    );
    assert!(out.contains("expected an MTU 1280-9216"), "{out}");

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

/// Files under `.fabric` that a command wrote (backups, transcripts, the lab switch's command
/// log), as `(path, text)`: not the lab switch's own storage, which holds its configuration as
/// a switch does.
fn written(dir: &Path) -> Vec<(PathBuf, String)> {
    let lab = dir.join(".fabric/lab");
    let mut out = Vec::new();
    let mut stack = vec![dir.join(".fabric")];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if !p.starts_with(&lab) || p.ends_with("commands.log") {
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            out.push((p, text));
        }
    }
    out
}

/// The leaf boots holding every form of secret OS10 has (`fabric::secrets::FORMS`: users,
/// `enable password`, SNMP communities and v3 keys, RADIUS and TACACS+ keys, NTP keys, a BGP
/// neighbor's and a template's password), each value a canary; a push deletes the BGP
/// instance (the plan names the lines it loses) and backs the switch up, then the switch's
/// configuration as a file is parsed, audited, diffed and imported. No canary is in any
/// output, backup, transcript or the lab switch's command log; the masks are OS10's.
#[test]
fn no_secret_of_an_os10_switch_reaches_any_output() {
    const CANARY: &str = "Zq7Os10";
    let dir = scratch("secret-forms");
    let path = fabric(&dir, "10.5.3.2");
    let forms = [
        "username admin2 password {} role sysadmin priv-lvl 15",
        "system-user linuxadmin password {}",
        "enable password sha-512 {} priv-lvl 15",
        "snmp-server community {} ro",
        "snmp-server host 10.0.0.9 traps version 2c {} udp-port 162",
        "snmp-server user u1 g1 3 auth sha {}",
        "snmp-server user u2 g1 3 auth md5 {}a priv des {}b",
        "radius-server host 10.0.0.9 key 9 {} auth-port 1812",
        "tacacs-server host 10.0.0.8 key 0 {}",
        "ntp authentication-key 5 md5 0 {}",
        "interface loopback9\n ip ospf authentication-key 9 {}\n ip ospf message-digest-key 1 md5 {}b\n!",
    ];
    let lines: String = forms
        .iter()
        .enumerate()
        .map(|(i, f)| f.replace("{}", &format!("{CANARY}Form{i}")) + "\n")
        .collect();
    let renderer = fabric::os10::Renderer::embedded().unwrap();
    let text = renderer.render(&intended(&path, LEAF)).unwrap();
    let text = format!(
        "{text}{lines}router bgp 65101\n router-id 10.9.9.9\n neighbor 127.0.0.9\n  password 9 {CANARY}Bgp\n  remote-as 65100\n  no shutdown\n !\n template spines\n  password {CANARY}Template\n !\n"
    );
    fabric::os10::parse(&text).expect("the booted configuration reads as OS10");
    let state = state_of(&dir, LEAF);
    std::fs::create_dir_all(&state).unwrap();
    std::fs::write(state.join("startup-configuration.cfg"), &text).unwrap();
    std::fs::write(dir.join("leaf01.cfg"), &text).unwrap();

    let mut outputs = Vec::new();
    let mut run = |what: &str, args: &[&str]| {
        let (code, out) = fabric_in(&dir, args, &[]);
        outputs.push((what.to_string(), code, out));
    };
    run(
        "push: dry run",
        &[
            "push",
            "mixed.yaml",
            "--lab",
            "--yes",
            "--switch",
            LEAF,
            "--dry-run",
        ],
    );
    run("audit: lab", &["audit", "mixed.yaml", "--lab"]);
    run(
        "push",
        &["push", "mixed.yaml", "--lab", "--yes", "--switch", LEAF],
    );
    run("parse: file", &["parse", "leaf01.cfg"]);
    run(
        "parse: file as JSON",
        &["parse", "leaf01.cfg", "--format", "json"],
    );
    run("audit: file", &["audit", "--running", "leaf01.cfg"]);
    let diff = [
        "diff",
        "mixed.yaml",
        "--switch",
        LEAF,
        "--running",
        "leaf01.cfg",
    ];
    run("diff: file", &diff);
    run(
        "diff: file as JSON",
        &[&diff[..], &["--format", "json"]].concat(),
    );
    run("import: file", &["import", "leaf01.cfg"]);

    let files = written(&dir);
    assert!(
        files
            .iter()
            .any(|(p, _)| p.to_string_lossy().contains("/backups/"))
    );
    assert!(
        files
            .iter()
            .any(|(p, _)| p.to_string_lossy().contains("/logs/"))
    );
    let leaks: Vec<String> = outputs
        .iter()
        .filter(|(_, _, out)| out.contains(CANARY))
        .map(|(what, _, out)| format!("{what} printed a secret:\n{out}"))
        .chain(
            files
                .iter()
                .filter(|(_, text)| text.contains(CANARY))
                .map(|(p, _)| format!("{} holds a secret", p.display())),
        )
        .collect();
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
    let out = |what: &str| {
        let (_, code, out) = outputs.iter().find(|(w, _, _)| w == what).unwrap();
        (*code, out.as_str())
    };
    let (code, push) = out("push");
    assert_eq!(code, 0, "{push}");
    assert!(push.contains("password ****; password 9 ****"), "{push}");
    let backup = files
        .iter()
        .find(|(p, _)| p.to_string_lossy().contains("/backups/"))
        .map(|(_, t)| t)
        .unwrap();
    for masked in [
        "  password 9 ****\n",
        "radius-server host 10.0.0.9 key 9 **** auth-port 1812\n",
        "snmp-server user u2 g1 3 auth md5 **** priv des ****\n",
    ] {
        assert!(backup.contains(masked), "{masked}: {backup}");
    }
    let (code, parsed) = out("parse: file");
    assert_eq!(code, 0, "{parsed}");
    assert!(
        parsed.contains("enable password sha-512 **** priv-lvl 15"),
        "{parsed}"
    );
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

/// The lab leaf's files of `config://`, by name.
fn config_files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(state_of(dir, LEAF).join("config"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Before the first configuration command, the running configuration is copied to a file of
/// its own on the switch (named in the summary) and kept locally; after each verified push
/// the oldest `fabric-….xml` files beyond `--keep-snapshots` are deleted, each deletion's
/// question answered `yes`; other files stay.
#[test]
fn the_snapshot_comes_first_and_old_ones_are_pruned() {
    let dir = scratch("snapshot");
    fabric(&dir, "10.5.3.2");
    let (code, out) = push(&dir, &["--keep-snapshots", "2"]);
    assert_eq!(code, 0, "{out}");
    let log = log(&dir);
    let copy = log
        .iter()
        .position(|l| l.starts_with("copy running-configuration config://fabric-"))
        .expect("a snapshot on the switch");
    let name = log[copy].rsplit("config://").next().unwrap().to_string();
    assert!(name.ends_with(".xml"), "{name}");
    assert!(
        fabric::device::push::is_snapshot_file(&name, ".xml"),
        "{name}"
    );
    assert!(
        out.contains(&format!("leaf01: snapshot on the switch: `{name}`")),
        "{out}"
    );
    assert!(copy < log.iter().position(|l| l == "start transaction").unwrap());
    assert_eq!(config_files(&dir), std::slice::from_ref(&name));
    // The snapshot and the local backup are the configuration before the push.
    let snapshot =
        std::fs::read_to_string(state_of(&dir, LEAF).join("config").join(&name)).unwrap();
    let backup = std::fs::read_dir(dir.join(".fabric/backups").join(LEAF))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "cfg"))
        .unwrap();
    let backup = fabric::os10::parse(&std::fs::read_to_string(backup).unwrap()).unwrap();
    assert_eq!(fabric::os10::parse(&snapshot).unwrap(), backup);
    assert_ne!(backup, startup(&dir));

    // Files of other names, one like a snapshot's, stay whatever happens.
    for keep in ["fabric-notes.xml", "mine.xml"] {
        std::fs::write(state_of(&dir, LEAF).join("config").join(keep), &snapshot).unwrap();
    }
    for round in 0..3 {
        // Something to push again: the startup configuration with one MTU changed.
        let path = state_of(&dir, LEAF).join("startup-configuration.cfg");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen(" mtu 9216\n", " mtu 1500\n", 1)).unwrap();
        let (code, out) = push(&dir, &["--keep-snapshots", "2"]);
        assert_eq!(code, 0, "round {round}: {out}");
        let ours: Vec<String> = config_files(&dir)
            .into_iter()
            .filter(|f| f.starts_with("fabric-2"))
            .collect();
        assert_eq!(ours.len(), 2, "round {round}: {ours:?}");
        if round > 0 {
            assert!(
                out.contains("1 old snapshot(s) deleted on the switch, the newest 2 kept"),
                "round {round}: {out}"
            );
        }
    }
    let all = config_files(&dir);
    for keep in ["fabric-notes.xml", "mine.xml"] {
        assert!(all.contains(&keep.to_string()), "{all:?}");
    }
    assert!(
        !all.contains(&name),
        "the oldest snapshot is deleted: {all:?}"
    );
    let log = log_of(&dir, LEAF);
    let delete = log
        .iter()
        .position(|l| l == &format!("delete config://{name}"))
        .unwrap_or_else(|| panic!("{log:?}"));
    assert_eq!(log[delete + 1], "yes", "the question is answered");
    assert!(log[delete - 1] == "dir config", "{log:?}");
}

/// Another CLI session logged in on the switch (it may be configuring it): nothing sent, exit
/// 1, unless `--allow-other-sessions`.
#[test]
fn another_session_on_the_switch_stops_the_push() {
    let dir = scratch("other-session");
    let path = fabric(&dir, "10.5.3.2");
    let state = dir.join("lab");
    let (_lab, _) = crate::lab_ssh::start_lab_of(&path, &state, &[], &[]);
    let inv = crate::lab_ssh::lab_inventory(&state);
    let leaf = &inv.switches[LEAF];
    let addr = format!("{}:{}", leaf.host, leaf.port).parse().unwrap();
    let known = state.join("known_hosts");
    let _other = crate::lab_ssh::Shell::open_os10(addr, &known);
    let push = |extra: &[&str]| {
        let mut args = vec!["--switch", LEAF, "--allow-disruptive"];
        args.extend(extra);
        crate::lab_ssh::push_inventory_of(
            &path,
            &state,
            &known,
            &args,
            &[("FABRIC_PASSWORD", "admin")],
        )
    };
    let (code, out) = push(&[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "another CLI session is open on the switch and may be configuring it: `admin` on pts/0 from 127.0.0.1[ssh]"
        ),
        "{out}"
    );
    assert!(
        out.contains("(`--allow-other-sessions` pushes anyway)"),
        "{out}"
    );
    let commands = || -> Vec<String> {
        std::fs::read_to_string(state.join(LEAF).join("commands.log"))
            .unwrap_or_default()
            .lines()
            .map(|l| l.split_once('\t').map_or(l, |(_, c)| c).to_string())
            .collect()
    };
    let log = commands();
    assert!(log.iter().any(|l| l == "show users"), "{log:?}");
    assert!(
        !log.iter().any(|l| l.starts_with("copy")
            || l == "configure terminal"
            || l == "start transaction"),
        "{log:?}"
    );
    let (code, out) = push(&["--allow-other-sessions"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("leaf01  converged"), "{out}");
}

#[test]
fn wrong_password_is_a_clear_error() {
    let dir = scratch("password");
    fabric(&dir, "10.5.3.2");
    let (code, out) = fabric_in(
        &dir,
        &["push", "mixed.yaml", "--lab", "--yes", "--switch", LEAF],
        &[("FABRIC_PASSWORD", "not-the-password")],
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("login as `admin` on 127.0.0.1:"), "{out}");
    assert!(!out.contains("not-the-password"));
    assert!(log(&dir).is_empty(), "{:?}", log(&dir));
}

#[test]
fn a_push_works_through_terminal_noise_and_a_slow_switch() {
    let dir = scratch("noise");
    fabric(&dir, "10.5.3.2");
    faults_of(&dir, LEAF, "noise: true\ndelay_ms: 5\n");
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("leaf01  converged"), "{out}");
}

/// Out of time mid-plan on a release without transactions: rolled back; then, the fault
/// gone, the next push converges.
#[test]
fn a_switch_out_of_time_is_rolled_back_and_the_next_push_converges() {
    let dir = scratch("switch-timeout");
    fabric(&dir, "10.3.2.1");
    faults_of(&dir, LEAF, "delay_ms: 150\n");
    let (out, log) = rolled_back(&dir, &["--switch-timeout", "1"]);
    assert!(out.contains("(the switch's time is up)"), "{out}");
    assert!(log.iter().any(|l| l == "configure terminal"), "{log:?}");
    std::fs::remove_file(state_of(&dir, LEAF).join("faults.yaml")).unwrap();
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("leaf01  converged"), "{out}");
}

/// The save's reply is lost and the save did not happen: read back, then rolled back (on a
/// new session when the old one dropped), the startup configuration untouched.
#[test]
fn a_save_lost_before_it_took_effect_is_rolled_back() {
    for (name, fault, extra) in [
        ("save-drop", "drop: { match: \"write memory\" }\n", &[][..]),
        (
            "save-hang",
            "hang: { match: \"write memory\" }\n",
            &["--command-timeout", "1"][..],
        ),
    ] {
        let dir = scratch(name);
        fabric(&dir, "10.5.3.2");
        let (code, out) = push(&dir, &["--dry-run"]);
        assert_eq!(code, 0, "{out}");
        let before = startup(&dir);
        faults_of(&dir, LEAF, fault);
        let (code, out) = push(&dir, extra);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(
            out.contains("read back: not saved; rolled back to the running config before the push (verified), nothing saved"),
            "{name}: {out}"
        );
        assert_eq!(startup(&dir), before, "{name}");
        let log = log(&dir);
        // The roll-back ran on a new session, after the commit: inside a transaction of its
        // own.
        let commit = log.iter().position(|l| l == "commit").unwrap();
        assert!(
            log[commit + 1..].iter().filter(|l| *l == "commit").count() == 1,
            "{name}: {log:?}"
        );
    }
}

/// Each session of a push keeps its own transcript: the dry run's, the push's and the
/// roll-back's.
#[test]
fn every_session_keeps_its_transcript() {
    let dir = scratch("transcripts");
    fabric(&dir, "10.5.3.2");
    faults_of(&dir, LEAF, "drop: { match: \"pfc-cos\" }\n");
    let _ = rolled_back(&dir, &[]);
    let logs = dir.join(".fabric/logs").join(LEAF);
    let texts: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    assert_eq!(texts.len(), 3, "{texts:#?}");
    assert!(
        texts.iter().any(|t| t.contains(">>> pfc-cos 3")),
        "the failed session's transcript is gone"
    );
    assert!(
        texts.iter().any(|t| t.contains(">>> show users")),
        "{texts:#?}"
    );
}

/// The mixed fabric routed (eBGP over its cable, BFD on by default): both switches take BFD
/// in their own words, and a second push changes nothing.
#[test]
fn a_routed_mixed_fabric_runs_bfd_on_both_oses() {
    let dir = scratch("routed");
    let path = fabric(&dir, "10.5.3.2");
    let text = std::fs::read_to_string(&path).unwrap()
        .replace("    model: SN2700\n", "    model: SN2700\n    role: spine\n")
        .replace("    model: S5248F-ON\n", "    model: S5248F-ON\n    role: leaf\n")
        .replace(
            "stp: on\n",
            "stp: on\nrouting:\n  spine: { asn: 65000, loopbacks: 10.255.0.0/28 }\n  leaf: { asn_base: 65100, loopbacks: 10.255.1.0/24 }\n  links: 10.254.0.0/20\n",
        );
    std::fs::write(&path, &text).unwrap();
    let (code, out) = fabric_in(&dir, &["push", "mixed.yaml", "--lab", "--yes"], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01   converged") && out.contains("spine01  converged"),
        "{out}"
    );
    let saved = startup(&dir);
    assert!(saved.bfd, "{saved:#?}");
    let bgp = saved.bgp.as_ref().unwrap();
    assert!(bgp.neighbors.iter().all(|(_, p)| p.bfd), "{bgp:#?}");
    assert!(
        log_of(&dir, "spine01")
            .iter()
            .any(|l| l.ends_with("fall-over bfd")),
        "{:?}",
        log_of(&dir, "spine01")
    );
    let (code, out) = fabric_in(&dir, &["push", "mixed.yaml", "--lab", "--yes"], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01: no change") && out.contains("spine01: no change"),
        "{out}"
    );
}

/// Host ports and unused ports as the fabric changes, on both OSes: pushed from factory, the
/// mixed fabric's host ports are edge ports with BPDU guard and every other port is shut;
/// then a host moves to a port that was unused (its port comes up as an edge port, its old
/// one goes down), the Onyx spine gains a host with its own `stp` and a host bonded over two
/// unused ports (`lacp_individual`, `bundle_description`, spanning tree on the port-channel):
/// each push converges to the compiled configuration and a second changes nothing.
#[test]
fn host_and_unused_ports_follow_the_fabric_on_both_oses() {
    let dir = scratch("ports");
    let path = fabric(&dir, "10.5.3.2");
    let push_all = |want: &[&str]| {
        let (code, out) = fabric_in(&dir, &["push", "mixed.yaml", "--lab", "--yes"], &[]);
        assert_eq!(code, 0, "{out}");
        assert!(want.iter().all(|w| out.contains(w)), "{out}");
    };
    // What each switch saved is its compiled configuration.
    let converged = |path: &Path| {
        let left = fabric::os10::plan::plan(&startup(&dir), &intended(path, LEAF));
        assert!(left.is_empty(), "{left:?}");
        let mut sources = fabric::diag::Sources::default();
        let (fab, _) = fabric::fabric::read(path, &mut sources).unwrap();
        let spine = fabric::onyx::compile::fabric(&fab.unwrap())
            .remove("spine01")
            .unwrap();
        let want = fabric::onyx::Renderer::embedded()
            .unwrap()
            .render(&spine)
            .unwrap();
        let saved =
            std::fs::read_to_string(state_of(&dir, "spine01").join("saved/initial.cfg")).unwrap();
        assert_eq!(saved, want);
        saved
    };
    push_all(&["leaf01   converged", "spine01  converged"]);
    let spine = converged(&path);
    assert!(
        spine.contains("   interface ethernet 1/2-1/32 shutdown\n"),
        "{spine}"
    );
    let e = |n| {
        startup(&dir).interfaces[&fabric::os10::Iface::Ethernet(fabric::os10::Eth::new(n))].clone()
    };
    assert_eq!((e(4).bpduguard, e(4).shutdown), (Some(true), Some(false)));
    assert_eq!((e(5).bpduguard, e(5).shutdown), (None, Some(true)));

    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replace(
            "ethernet1/1/1-1/1/4: { peer: { host: \"gpu{1..4}\", port: ens1f0 } }",
            "ethernet1/1/1-1/1/3: { peer: { host: \"gpu{1..3}\", port: ens1f0 } }\n      ethernet1/1/5: { peer: { host: gpu5, port: ens1f0 }, stp: { guard: root } }",
        )
        .replace(
            "  spine01:\n    model: SN2700\n",
            "  spine01:\n    model: SN2700\n    ports:\n      1/2: { peer: { host: nas1, port: ens1 }, stp: { bpduguard: false } }\n      1/3-1/4: { lag: 5, lacp_individual: true, bundle_description: nas2, peer: { host: nas2, port: \"ens{1..2}\" } }\n",
        );
    std::fs::write(&path, &text).unwrap();
    push_all(&["leaf01   converged", "spine01  converged"]);
    let spine = converged(&path);
    for line in [
        "   interface ethernet 1/5-1/32 shutdown",
        "   interface port-channel 5 lacp-individual enable force",
        "   interface port-channel 5 description nas2",
        "   interface ethernet 1/2 spanning-tree port type edge",
        "   interface port-channel 5 spanning-tree port type edge",
        "   interface ethernet 1/2 spanning-tree bpduguard disable",
        "   interface port-channel 5 spanning-tree bpduguard enable",
    ] {
        assert!(spine.lines().any(|l| l == line), "`{line}` not in\n{spine}");
    }
    assert_eq!((e(4).bpduguard, e(4).shutdown), (None, Some(true)));
    assert_eq!(
        (e(5).bpduguard, e(5).stp_guard, e(5).shutdown),
        (Some(true), Some(fabric::types::StpGuard::Root), Some(false))
    );
    push_all(&["leaf01: no change", "spine01: no change"]);
}
