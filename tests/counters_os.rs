//! `fabric verify --counters` of OS10 and Cumulus lab switches, over real SSH on loopback:
//! each counter fault of a switch's `faults.yaml` (a pause storm, drops on a class, pauses
//! without ECN marks, FCS errors, a flapping link) is one finding naming the switch, the port
//! as its OS names it and the priority or class; a counter the OS cannot read is said to be
//! not checked; the faults cleared, the counters judge clean.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::push::faults_of;

/// A scratch folder with the shipped fabric `file`, `switch` pushed to the lab.
fn pushed(name: &str, file: &str, switch: &str) -> PathBuf {
    let dir = crate::scratch(&format!("counters-{name}"));
    std::fs::copy(crate::root().join("fabrics").join(file), dir.join(file)).unwrap();
    let (code, out) = fabric(&dir, &["push", file, "--lab", "--yes", "--switch", switch]);
    assert_eq!(code, 0, "{out}");
    dir
}

fn fabric(dir: &Path, args: &[&str]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(dir)
        .args(args)
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    crate::run(&mut cmd)
}

/// `fabric verify --counters` of `switch`, a second apart: its exit code, its JSON report.
fn counters(dir: &Path, file: &str, switch: &str) -> (i32, serde_json::Value) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(dir)
        .args(["verify", file, "--lab", "--check", "counters"])
        .args(["--interval", "1s", "--switch", switch, "--format", "json"])
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    let out = cmd.output().expect("the command runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{e}: {text}{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap_or(-1), json)
}

/// The findings of a report: (switch, rule, port, message).
fn findings(json: &serde_json::Value) -> Vec<(String, String, String, String)> {
    let s = |f: &serde_json::Value, k: &str| f[k].as_str().unwrap_or("").to_string();
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                s(f, "switch"),
                s(f, "rule"),
                s(f, "interfaces"),
                s(f, "message"),
            )
        })
        .collect()
}

/// What the report says is not checked.
fn unchecked(json: &serde_json::Value) -> Vec<String> {
    json["unchecked"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            format!(
                "{}: {}",
                u["switch"].as_str().unwrap(),
                u["what"].as_str().unwrap()
            )
        })
        .collect()
}

/// One fault of a switch: the fault as `faults.yaml` writes it, and what it should give —
/// the rule, the port as the OS names it and the words naming the priority or class (the
/// finding), or, where the OS cannot read the counter, what the report says is not checked.
struct Case {
    fault: &'static str,
    rule: &'static str,
    port: &'static str,
    names: &'static str,
    not_read: Option<&'static str>,
}

fn each_fault(dir: &Path, file: &str, switch: &str, cases: &[Case]) {
    for c in cases {
        faults_of(dir, switch, &format!("counters: {}\n", c.fault));
        let (code, json) = counters(dir, file, switch);
        let found = findings(&json);
        if let Some(what) = c.not_read {
            assert_eq!(code, 0, "{}: {json:#}", c.fault);
            assert!(
                found.is_empty()
                    && unchecked(&json)
                        .iter()
                        .any(|u| u.starts_with(&format!("{switch}: counters: {what}"))),
                "{}: {json:#}",
                c.fault
            );
            continue;
        }
        assert_eq!(code, 1, "{}: {json:#}", c.fault);
        assert!(
            found.iter().any(|(s, r, p, m)| s == switch
                && r == c.rule
                && p == c.port
                && m.starts_with(&format!("{}: ", c.port))
                && m.contains(c.names)),
            "{}: {found:?}",
            c.fault
        );
        assert!(
            found.iter().all(|(_, _, p, _)| p == c.port),
            "{}: only its port: {found:?}",
            c.fault
        );
    }
    // Cleared: the file emptied, then removed.
    faults_of(dir, switch, "");
    let (code, json) = counters(dir, file, switch);
    assert_eq!(code, 0, "{json:#}");
    std::fs::remove_file(crate::push::state_of(dir, switch).join("faults.yaml")).unwrap();
    let (code, json) = counters(dir, file, switch);
    assert_eq!(code, 0, "{json:#}");
    assert!(json["counters"].as_array().is_some_and(|c| !c.is_empty()));
}

#[test]
fn an_os10_switch_s_counter_faults_are_found_and_its_unread_counters_said() {
    let dir = pushed("os10", "gpu-pod.yaml", "leaf03");
    let cases = [
        Case {
            fault: "{ pause_storm: [ethernet1/1/1] }",
            rule: "V018",
            port: "ethernet1/1/1",
            names: "lossless priority 3",
            not_read: None,
        },
        Case {
            fault: "{ drops: { ethernet1/1/2: { tc: 3 } } }",
            rule: "V019",
            port: "ethernet1/1/2",
            names: "traffic class 3",
            not_read: None,
        },
        Case {
            fault: "{ no_ecn: [ethernet1/1/3] }",
            rule: "V020",
            port: "ethernet1/1/3",
            names: "priority 3",
            not_read: Some("ECN-marked packets"),
        },
        Case {
            fault: "{ crc: [ethernet1/1/4] }",
            rule: "V021",
            port: "ethernet1/1/4",
            names: "bad FCS",
            not_read: None,
        },
        Case {
            fault: "{ flap: [ethernet1/1/53] }",
            rule: "V022",
            port: "ethernet1/1/53",
            names: "changed state",
            not_read: Some("link state changes"),
        },
    ];
    each_fault(&dir, "gpu-pod.yaml", "leaf03", &cases);
}

#[test]
fn a_cumulus_switch_s_counter_faults_are_found() {
    let dir = pushed("cumulus", "spectrum-x.yaml", "leaf01");
    let cases = [
        Case {
            fault: "{ pause_storm: [swp1s0] }",
            rule: "V018",
            port: "swp1s0",
            names: "lossless priority 3",
            not_read: None,
        },
        Case {
            fault: "{ drops: { swp1s1: { tc: 3 } } }",
            rule: "V019",
            port: "swp1s1",
            names: "traffic class 3",
            not_read: None,
        },
        Case {
            fault: "{ no_ecn: [swp2s0] }",
            rule: "V020",
            port: "swp2s0",
            names: "priority 3",
            not_read: None,
        },
        Case {
            fault: "{ crc: [swp2s1] }",
            rule: "V021",
            port: "swp2s1",
            names: "bad FCS",
            not_read: None,
        },
        Case {
            fault: "{ flap: [swp33] }",
            rule: "V022",
            port: "swp33",
            names: "changed state",
            not_read: None,
        },
    ];
    each_fault(&dir, "spectrum-x.yaml", "leaf01", &cases);
    // The fabric sets NVUE's PFC watchdog on its PFC ports: a storm there also fires it.
    faults_of(&dir, "leaf01", "counters: { pause_storm: [swp1s0] }\n");
    let (code, json) = counters(&dir, "spectrum-x.yaml", "leaf01");
    let found = findings(&json);
    assert_eq!(code, 1, "{json:#}");
    assert!(
        found.iter().any(|(s, r, p, m)| s == "leaf01"
            && r == "V023"
            && p == "swp1s0"
            && m.contains("priority 3")),
        "{found:?}"
    );
}
