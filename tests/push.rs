//! `fabric push` end to end over real SSH against lab switches (`--lab`, in the binary's
//! process), each scenario asserting the switch's final state from its state folder and
//! command log.

use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    crate::scratch(&format!("push-{name}"))
}

const SWITCH: &str = "swx-mld-1-2";

fn push(dir: &Path, extra: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    push_fabric(dir, "rdg-roce-dscp", &["--lab", "--yes"], extra, env)
}

fn push_fabric(
    dir: &Path,
    fabric: &str,
    mode: &[&str],
    extra: &[&str],
    env: &[(&str, &str)],
) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(dir)
        .arg("push")
        .arg(crate::root().join(format!("fabrics/{fabric}.yaml")))
        .args(mode)
        .args(extra)
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    for (k, v) in env {
        cmd.env(k, v);
    }
    crate::run(&mut cmd)
}

fn state(dir: &Path) -> PathBuf {
    state_of(dir, SWITCH)
}

pub fn state_of(dir: &Path, switch: &str) -> PathBuf {
    dir.join(".fabric/lab").join(switch)
}

/// A fault control file in place before the switch starts.
fn faults(dir: &Path, yaml: &str) {
    faults_of(dir, SWITCH, yaml);
}

pub fn faults_of(dir: &Path, switch: &str, yaml: &str) {
    std::fs::create_dir_all(state_of(dir, switch)).unwrap();
    std::fs::write(state_of(dir, switch).join("faults.yaml"), yaml).unwrap();
}

fn log(dir: &Path) -> Vec<String> {
    log_of(dir, SWITCH)
}

pub fn log_of(dir: &Path, switch: &str) -> Vec<String> {
    std::fs::read_to_string(state_of(dir, switch).join("commands.log"))
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

/// Every shipped fabric, pushed to factory lab switches, converges; each Onyx switch saves its
/// golden file line for line, each OS10 switch its golden's lines in the golden's order (with
/// the factory's lines the fabric does not manage: `interface mgmt1/1/1`) and nothing left to
/// plan towards it, each Cumulus switch a `startup.yaml` with nothing left to plan towards its
/// golden; a second push changes nothing. The lab refuses
/// what Onyx refuses (hidden protocol commands, an address on a switchport, switchport
/// settings on a LAG member), so this also checks the order of every plan a new fabric needs.
#[test]
fn every_shipped_fabric_converges_on_the_lab_and_saves_its_goldens() {
    for path in crate::fabrics() {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let dir = scratch(&format!("shipped-{name}"));
        let (code, out) = push_fabric(&dir, &name, &["--lab", "--yes"], &[], &[]);
        assert_eq!(code, 0, "{name}: {out}");
        let goldens = crate::root().join("golden").join(&name);
        for entry in std::fs::read_dir(&goldens).unwrap() {
            let golden = entry.unwrap().path();
            let switch = golden.file_stem().unwrap().to_str().unwrap();
            let golden = std::fs::read_to_string(&golden).unwrap();
            let os10 = state_of(&dir, switch).join("startup-configuration.cfg");
            if os10.exists() {
                let text = std::fs::read_to_string(&os10).unwrap();
                let mut lines = text.lines();
                for line in golden.lines().filter(|l| *l != "!") {
                    assert!(
                        lines.any(|l| l == line),
                        "{name}/{switch}: `{line}` missing or out of order in\n{text}"
                    );
                }
                let saved = fabric::os10::parse(&text).unwrap();
                let golden = fabric::os10::parse(&golden).unwrap();
                let left = fabric::os10::plan::plan(&saved, &golden);
                assert!(left.is_empty(), "{name}/{switch}: {left:?}");
                continue;
            }
            let nvue = state_of(&dir, switch).join("startup.yaml");
            if nvue.exists() {
                // Cumulus: the saved tree holds the golden's objects whole, beside the
                // factory's the fabric does not manage (`eth0`, users, services).
                let saved =
                    fabric::cumulus::Config::parse(&std::fs::read_to_string(&nvue).unwrap())
                        .unwrap_or_else(|e| panic!("{name}/{switch}: {e:?}"));
                let golden = fabric::cumulus::Config::parse(&golden).unwrap();
                let target = fabric::cumulus::plan::target(&saved.set, &golden.set, true);
                let left = fabric::cumulus::plan::plan(&saved.set, &target);
                assert!(left.is_empty(), "{name}/{switch}: {left:?}");
                continue;
            }
            let saved =
                std::fs::read_to_string(state_of(&dir, switch).join("saved/initial.cfg")).unwrap();
            assert_eq!(saved, golden, "{name}/{switch}");
        }
        let (code, out) = push_fabric(&dir, &name, &["--lab", "--yes"], &[], &[]);
        assert_eq!(code, 0, "{name}: {out}");
        assert!(
            !out.contains("converged"),
            "{name}: a second push changed something: {out}"
        );
    }
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

#[test]
fn a_push_works_through_terminal_noise_and_a_slow_switch() {
    let dir = scratch("noise");
    faults(&dir, "noise: true\ndelay_ms: 20\n");
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(saved(&dir), golden());
}

#[test]
fn the_snapshot_comes_first_and_the_backup_is_the_config_before() {
    let dir = scratch("snapshot");
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 0, "{out}");
    let log = log(&dir);
    let snapshot = log
        .iter()
        .position(|l| l.starts_with("configuration write to fabric-") && l.ends_with(" no-switch"))
        .expect("a snapshot on the switch");
    let first = log.iter().position(|l| l == "configure terminal").unwrap();
    assert!(snapshot < first, "{log:?}");
    let backups = dir.join(".fabric/backups").join(SWITCH);
    let file = std::fs::read_dir(&backups)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let backup = fabric::onyx::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
    let factory = fabric::onyx::parse(&saved_before_push()).unwrap();
    assert_eq!(backup.interfaces, factory.interfaces);
    assert!(backup.pools.is_empty());
}

/// A factory-default lab switch's saved config, as `--dry-run` leaves it.
fn saved_before_push() -> String {
    let dir = scratch("factory");
    let _ = push(&dir, &["--dry-run"], &[]);
    saved(&dir)
}

#[test]
fn after_a_roll_back_the_next_push_converges() {
    let dir = scratch("recover");
    faults(&dir, "refuse:\n  - { match: \"lldp\" }\n");
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("% Command refused (lab fault)."), "{out}");
    std::fs::remove_file(state(&dir).join("faults.yaml")).unwrap();
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(saved(&dir), golden());
}

#[test]
fn a_canary_failure_stops_the_fleet_unless_keep_going() {
    let dir = scratch("canary");
    faults_of(&dir, "leaf01", "refuse:\n  - { match: \"mtu\" }\n");
    let (code, out) = push_fabric(&dir, "ml-cluster", &["--lab", "--yes"], &[], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("leaf01: "), "{out}");
    assert!(
        out.contains("not started: an earlier switch failed"),
        "{out}"
    );
    for sw in ["leaf02", "spine01"] {
        let log = log_of(&dir, sw);
        assert!(
            !log.iter().any(|l| l == "configure terminal"),
            "{sw}: {log:?}"
        );
    }
    // With --keep-going the others are pushed; the canary is rolled back again.
    let (code, out) = push_fabric(
        &dir,
        "ml-cluster",
        &["--lab", "--yes"],
        &["--keep-going"],
        &[],
    );
    assert_eq!(code, 1, "{out}");
    assert_eq!(out.matches("converged").count(), 5, "{out}");
}

#[test]
fn one_switch_with_switch() {
    let dir = scratch("one");
    let (code, out) = push_fabric(
        &dir,
        "ml-cluster",
        &["--lab", "--yes"],
        &["--switch", "spine02"],
        &[],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("spine02") && !out.contains("leaf01: "),
        "{out}"
    );
    let (code, out) = push_fabric(
        &dir,
        "ml-cluster",
        &["--lab", "--yes"],
        &["--switch", "spine2"],
        &[],
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("did you mean `spine02`?"), "{out}");
}

#[test]
fn without_a_terminal_or_yes_nothing_is_sent() {
    let dir = scratch("noyes");
    let (code, out) = push_fabric(&dir, "rdg-roce-dscp", &["--lab"], &[], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("pass `--yes`"), "{out}");
    assert!(!log(&dir).iter().any(|l| l == "configure terminal"));
}

#[test]
fn a_switch_out_of_time_is_rolled_back() {
    let dir = scratch("switch-timeout");
    faults(&dir, "delay_ms: 150\n");
    let (out, _) = rolled_back(&dir, &["--switch-timeout", "1"]);
    assert!(out.contains("(the switch's time is up)"), "{out}");
}

/// On a terminal, the plan is shown and the push waits for a yes.
#[test]
fn on_a_terminal_the_push_asks_first() {
    let dir = scratch("confirm");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(&dir)
        .arg("push")
        .arg(crate::root().join("fabrics/rdg-roce-dscp.yaml"))
        .arg("--lab")
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).unwrap();
    p.exp_string("8 command(s)").unwrap();
    p.exp_string("Push 8 command(s) to 1 switch(es)? [y/N] ")
        .unwrap();
    p.send_line("y").unwrap();
    p.exp_string("converged").unwrap();
    p.exp_eof().unwrap();
    assert_eq!(saved(&dir), golden());
}

/// A switch whose `enable` asks for a password gets the login password, never logged.
#[test]
fn enable_asks_for_a_password() {
    let dir = scratch("enable");
    faults(&dir, "enable_password: admin\n");
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 0, "{out}");
    let log = log(&dir);
    assert!(log.contains(&"(enable password)".to_string()), "{log:?}");
    assert!(!log.iter().any(|l| l.contains("admin")), "{log:?}");
    let transcripts = dir.join(".fabric/logs").join(SWITCH);
    for t in std::fs::read_dir(transcripts).unwrap() {
        let text = std::fs::read_to_string(t.unwrap().path()).unwrap();
        assert!(
            !text.contains("admin\n") && text.contains("(enable password)"),
            "{text}"
        );
    }

    let dir = scratch("enable-refused");
    faults(&dir, "enable_password: something-else\n");
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("`enable` refused"), "{out}");
}

/// Declining at the prompt sends nothing and says so with exit 1 (nothing was done).
#[test]
fn declined_at_the_prompt_exits_1() {
    let dir = scratch("decline");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(&dir)
        .arg("push")
        .arg(crate::root().join("fabrics/rdg-roce-dscp.yaml"))
        .arg("--lab")
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).unwrap();
    p.exp_string("[y/N] ").unwrap();
    p.send_line("n").unwrap();
    p.exp_string("nothing sent").unwrap();
    p.exp_eof().unwrap();
    let status = p.process().wait().unwrap();
    assert!(
        matches!(status, rexpect::process::WaitStatus::Exited(_, 1)),
        "{status:?}"
    );
    assert!(!log(&dir).iter().any(|l| l == "configure terminal"));
}

/// Lab state: the switch boots from `golden` with `edit` applied to its saved file.
fn boot_from_golden(dir: &Path, edit: impl Fn(&str) -> String) {
    let saved = state(dir).join("saved");
    std::fs::create_dir_all(&saved).unwrap();
    std::fs::write(saved.join("initial.cfg"), edit(&golden())).unwrap();
    std::fs::write(state(dir).join("active"), "initial\n").unwrap();
}

fn without_lldp(cfg: &str) -> String {
    cfg.replace("   lldp\n", "")
}

/// A `show running-config` cut short is never planned against nor kept as a snapshot: the
/// push stops, nothing sent (planning against it would "restore" everything it lacks, and a
/// roll-back to it would remove the switch's real configuration).
#[test]
fn a_truncated_read_is_never_used() {
    let dir = scratch("truncated");
    boot_from_golden(&dir, without_lldp);
    faults(
        &dir,
        "truncate: { match: \"show running-config\", lines: 20 }\nrefuse:\n  - { match: \"lldp\" }\n",
    );
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("swx-mld-1-2: the running config read back is incomplete ("),
        "{out}"
    );
    let log = log(&dir);
    assert!(
        !log.iter()
            .any(|l| l == "configure terminal" || l.starts_with("configuration write")),
        "{log:?}"
    );
    assert_eq!(saved(&dir), without_lldp(&golden()));
    // The same cut at the drift guard's read: aborted, nothing sent.
    faults(
        &dir,
        "truncate: { after: 1, match: \"show running-config\", lines: 30 }\n",
    );
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("drift guard: "), "{out}");
    assert!(out.contains("incomplete"), "{out}");
    assert!(
        !log_of(&dir, SWITCH)
            .iter()
            .any(|l| l == "configure terminal")
    );
}

/// Every running config of the capture corpus and every golden reads as whole; cut
/// anywhere before its last line, none does.
#[test]
fn whole_configs_are_told_from_cut_ones() {
    let mut full = 0;
    let goldens = std::fs::read_dir(crate::root().join("golden"))
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path());
    let configs = crate::corpus_files()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "cfg"));
    for path in configs.chain(goldens) {
        let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        if !text.contains("## Running database") {
            continue;
        }
        assert_eq!(
            fabric::onyx::dialect::complete(&text),
            Ok(()),
            "{}",
            path.display()
        );
        let lines: Vec<&str> = text.lines().collect();
        let last = lines.iter().rposition(|l| !l.trim().is_empty()).unwrap();
        for n in [1, lines.len() / 2, last] {
            let cut = lines[..n].join("\n");
            assert!(
                fabric::onyx::dialect::complete(&cut).is_err(),
                "{} cut at {n}",
                path.display()
            );
        }
        full += 1;
    }
    assert!(full >= 10, "{full} full configs");
}

/// A roll-back undoes what the push changed, nothing else: a change made on the switch by
/// someone else during the push stays.
#[test]
fn a_roll_back_leaves_what_the_push_did_not_change() {
    let dir = scratch("rollback-scope");
    faults(
        &dir,
        "drift:\n  after: 2\n  match: show running-config\n  commands: [\"interface ethernet 1/20 description by-hand\"]\nrefuse:\n  - { match: \"traffic-class 3 congestion-control\" }\n",
    );
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("rolled back to the running config before the push (verified)"),
        "{out}"
    );
    let log = log(&dir);
    assert!(log.iter().any(|l| l == "no traffic pool roce"), "{log:?}");
    assert!(
        !log.iter().any(|l| l.contains("1/20")),
        "the roll-back undid a change it did not make: {log:?}"
    );
}

/// The save's reply is lost (connection dropped, or no reply), but the save took effect:
/// read back on a new session, the push is converged and says so.
#[test]
fn a_save_whose_reply_is_lost_is_read_back() {
    for (name, fault, extra) in [
        (
            "save-drop-applied",
            "drop: { match: \"configuration write\", after: 1, applied: true }\n",
            &[][..],
        ),
        (
            "save-hang-applied",
            "hang: { match: \"configuration write\", after: 1, applied: true }\n",
            &["--command-timeout", "1"][..],
        ),
    ] {
        let dir = scratch(name);
        faults(&dir, fault);
        let (code, out) = push(&dir, extra, &[]);
        assert_eq!(code, 0, "{name}: {out}");
        assert!(out.contains("converged"), "{name}: {out}");
        assert!(
            out.contains("but the switch saved: read back"),
            "{name}: {out}"
        );
        assert_eq!(saved(&dir), golden(), "{name}");
    }
}

/// The save's reply is lost and the save did not happen: read back, then rolled back on a
/// new session, the saved configuration untouched.
#[test]
fn a_save_lost_before_it_took_effect_is_rolled_back() {
    for (name, fault, extra) in [
        (
            "save-drop",
            "drop: { match: \"configuration write\", after: 1 }\n",
            &[][..],
        ),
        (
            "save-hang",
            "hang: { match: \"configuration write\", after: 1 }\n",
            &["--command-timeout", "1"][..],
        ),
    ] {
        let dir = scratch(name);
        let _ = push(&dir, &["--dry-run"], &[]);
        let before = saved(&dir);
        faults(&dir, fault);
        let (code, out) = push(&dir, extra, &[]);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(
            out.contains("read back: not saved; rolled back to the running config before the push (verified), nothing saved"),
            "{name}: {out}"
        );
        assert_eq!(saved(&dir), before, "{name}");
        let log = log(&dir);
        let reconnected = log.iter().rposition(|l| l == "enable").unwrap();
        assert!(
            log[reconnected..].iter().any(|l| l == "no lldp"),
            "{name}: not rolled back on a new session: {log:?}"
        );
    }
}

/// Each session of a push keeps its own transcript: a roll-back's (a new session, in the
/// same second) does not overwrite the failed session's.
#[test]
fn every_session_keeps_its_transcript() {
    let dir = scratch("transcripts");
    faults(&dir, "drop: { match: \"traffic-class 6\" }\n");
    let _ = rolled_back(&dir, &[]);
    let logs = dir.join(".fabric/logs").join(SWITCH);
    let texts: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    // The dry run's, the push's and the roll-back's.
    assert_eq!(texts.len(), 3, "{texts:#?}");
    assert!(
        texts
            .iter()
            .any(|t| t.contains(">>> interface ethernet 1/1-1/32 traffic-class 6")),
        "the failed session's transcript is gone"
    );
}

/// A transcript that cannot be written is no silent success: the summary says so, exit 2.
#[test]
fn a_transcript_that_cannot_be_written_is_reported() {
    let dir = scratch("no-transcript");
    std::fs::create_dir_all(dir.join(".fabric")).unwrap();
    // A path component that is a regular file: no transcript can be made (even as root).
    std::fs::write(dir.join(".fabric/logs"), "").unwrap();
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("converged"), "{out}");
    assert!(out.contains("cannot create the transcript"), "{out}");
    assert!(
        out.contains("not every transcript could be written"),
        "{out}"
    );
    // Nothing to push: still said, still exit 2.
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no change"), "{out}");
    assert!(out.contains("error: cannot create the transcript"), "{out}");
}

/// A push that cannot keep its backups does not start: not even a read.
#[test]
fn a_push_that_cannot_write_its_backup_does_not_start() {
    let dir = scratch("no-backup");
    std::fs::create_dir_all(dir.join(".fabric")).unwrap();
    std::fs::write(dir.join(".fabric/backups"), "").unwrap();
    let (code, out) = push(&dir, &[], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("cannot write backups in `.fabric/backups/"),
        "{out}"
    );
    assert!(log(&dir).is_empty(), "{:?}", log(&dir));
}

/// After a verified push the oldest `fabric-…` snapshots beyond `--keep-snapshots` are
/// deleted on the switch; other files never are.
#[test]
fn old_snapshots_are_deleted_after_a_verified_push() {
    let dir = scratch("prune");
    let files = |dir: &Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(state(dir).join("saved"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let (code, out) = push(&dir, &["--keep-snapshots", "2"], &[]);
    assert_eq!(code, 0, "{out}");
    // Files of other names, one like a snapshot's, stay whatever happens.
    for keep in ["fabric-notes.cfg", "mine.cfg"] {
        std::fs::copy(
            state(&dir).join("saved/initial.cfg"),
            state(&dir).join("saved").join(keep),
        )
        .unwrap();
    }
    let mut snapshots = Vec::new();
    for round in 0..3 {
        // Something to push again: the saved file without LLDP.
        let text = std::fs::read_to_string(state(&dir).join("saved/initial.cfg")).unwrap();
        std::fs::write(state(&dir).join("saved/initial.cfg"), without_lldp(&text)).unwrap();
        let (code, out) = push(&dir, &["--keep-snapshots", "2"], &[]);
        assert_eq!(code, 0, "round {round}: {out}");
        let now: Vec<String> = files(&dir)
            .into_iter()
            .filter(|f| f.starts_with("fabric-2"))
            .collect();
        assert!(now.len() <= 2, "round {round}: {now:?}");
        snapshots = now;
        if round > 0 {
            assert!(
                out.contains("1 old snapshot(s) deleted on the switch, the newest 2 kept"),
                "round {round}: {out}"
            );
        }
    }
    assert_eq!(snapshots.len(), 2);
    let all = files(&dir);
    for keep in ["fabric-notes.cfg", "mine.cfg", "initial.cfg"] {
        assert!(all.contains(&keep.to_string()), "{all:?}");
    }
    assert!(
        log(&dir)
            .iter()
            .any(|l| l.starts_with("configuration delete fabric-2"))
    );
}

/// A routed leaf of an MLAG pair, as `routed_mlag_fabric` describes it; `next` renumbers the
/// leaf-spine cables (each uplink's address and BGP session change) and moves the pair's VIP
/// and system MAC (the plan shuts the pair down around them and brings it up last).
fn routed_mlag_fabric(next: bool) -> String {
    let (links, vip, mac) = if next {
        ("10.254.16.0/20", "192.0.2.20/24", "00:00:5E:00:01:5E")
    } else {
        ("10.254.0.0/20", "192.0.2.10/24", "00:00:5E:00:01:5D")
    };
    let leaves: String = (1..=2)
        .map(|n| {
            format!(
                "  leaf0{n}:
    model: SN2100
    role: leaf
    vlans: [{{ id: 10, name: hosts, address: 10.10.1.{}/24 }}]
    ports:
      1/1: {{ mlag: 1, vlan: 10, peer: {{ host: esxi-01, port: vmnic{} }} }}
",
                n + 1,
                n - 1
            )
        })
        .collect();
    format!(
        "onyx: 3.10.4606
routing:
  spine: {{ asn: 65000, loopbacks: 10.255.0.0/28 }}
  leaf: {{ asn_base: 65100, loopbacks: 10.255.1.0/24 }}
  links: {links}
vlans:
  - {{ id: 10, name: hosts }}
mlag:
  - switches: [leaf01, leaf02]
    system_mac: {mac}
    domain: pair1
    vip: {vip}
    ipl: {{ port_channel: 100, vlan: 4000, subnet: 10.254.255.0/30 }}
switches:
{leaves}  spine01: {{ model: SN2100, role: spine }}
links:
  - {{ a: leaf01:1/15-1/16, b: leaf02:1/15-1/16, role: ipl }}
  - {{ a: leaf01:1/13, b: spine01:1/1 }}
  - {{ a: leaf02:1/13, b: spine01:1/2 }}
"
    )
}

/// A push of a routed and MLAG change that fails midway, the connection kept (a refused
/// command) or lost (reconnected for the roll-back): the switch's running config afterwards
/// is the one before, its MLAG pair up again, nothing saved. The lab runs in this process, so
/// the switch is read directly, not through the push.
#[test]
fn a_routed_mlag_change_that_fails_midway_is_rolled_back() {
    use fabric::lab::device::{Refusal, Trigger};
    use fabric::lab::{Device, Faults, Logins};
    use fabric::onyx::lab::Switch;
    let compiled = |next| crate::routing::compile_text("f.yaml", &routed_mlag_fabric(next));
    let before = compiled(false).remove("leaf01").unwrap();
    let pushed = compiled(true).remove("leaf01").unwrap();
    // What the push is to change, and so undo: a session, an address, the pair.
    assert_ne!(before.bgp, pushed.bgp);
    assert_ne!(before.mlag.vip, pushed.mlag.vip);
    assert!(before.mlag.enabled && pushed.mlag.enabled);
    let refused = Faults {
        refuse: vec![Refusal {
            pattern: "mlag system-mac".into(),
            error: Some("% MLAG system MAC refused".into()),
        }],
        ..Faults::default()
    };
    let dropped = Faults {
        drop: Some(Trigger {
            pattern: Some("mlag-vip".into()),
            ..Trigger::default()
        }),
        ..Faults::default()
    };
    for (name, faults, said) in [
        ("routed-mlag-refused", refused, "% MLAG system MAC refused"),
        ("routed-mlag-dropped", dropped, "connection lost at"),
    ] {
        let dir = scratch(name);
        std::fs::write(dir.join("fabric.yaml"), routed_mlag_fabric(true)).unwrap();
        let sw_dir = dir.join("lab/leaf01");
        let device = std::sync::Arc::new(
            Device::open(&sw_dir, Switch::with_config(before.clone()), true, false).unwrap(),
        );
        let lab = crate::serve_one(device.clone(), &sw_dir, Logins::factory());
        let served = &lab.switches[0];
        std::fs::write(
            dir.join("known_hosts"),
            served.known_hosts_line("leaf01") + "\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("inventory.yaml"),
            format!(
                "known_hosts: {}\nswitches:\n  leaf01: {{ host: 127.0.0.1, port: {}, user: admin }}\n",
                dir.join("known_hosts").display(),
                served.addr.port()
            ),
        )
        .unwrap();
        device.set_faults(faults);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
        cmd.current_dir(&dir)
            .args(["push", "fabric.yaml", "--switch", "leaf01", "--inventory"])
            .arg(dir.join("inventory.yaml"))
            .args(["--yes", "--allow-disruptive"])
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK");
        let (code, out) = crate::run(&mut cmd);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(out.contains(said), "{name}: {out}");
        assert!(
            out.contains("rolled back to the running config before the push (verified)"),
            "{name}: {out}"
        );
        // The failure came midway: the pair was down and the uplink renumbered by then.
        let log: Vec<String> = device.log().into_iter().map(|(_, l)| l).collect();
        let sent = |line: &str| log.iter().position(|l| l == line);
        let down = sent("mlag shutdown").expect("the pair shut down");
        let renumbered = log
            .iter()
            .position(|l| l.starts_with("interface ethernet 1/13 ip address 10.254.16."))
            .expect("the uplink renumbered");
        assert!(down < renumbered, "{name}: {log:?}");
        let sw = crate::onyx_running(&device);
        assert!(
            sw == before,
            "{name}: the running config is not the one before the push:\n{}",
            fabric::onyx::plan::plan(&sw, &before)
                .iter()
                .map(|s| s.command.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert!(sw.mlag.enabled, "{name}: the pair is left down");
        assert!(!saved_running(&log), "{name}: {log:?}");
        assert!(
            !device.snapshot().unsaved(),
            "{name}: the running config differs from the saved one"
        );
        drop(lab);
    }
}
