//! `fabric verify --counters` against the lab: each counter fault of a switch's faults file is
//! a finding naming that switch, port and priority (exit 1), and the switch is clean again
//! once the fault is cleared; the fabric's `verify:` thresholds; the JSON keeps each
//! reading's command and line; the Prometheus output parses with the Prometheus client's
//! own parser; `--watch` repeats.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// A scratch folder with the ml-cluster fabric (Onyx leaf-spine, PFC on priority 3) pushed to
/// the lab.
fn pushed(name: &str) -> PathBuf {
    let dir = crate::scratch(&format!("counters-{name}"));
    std::fs::copy(
        crate::root().join("fabrics/ml-cluster.yaml"),
        dir.join("f.yaml"),
    )
    .unwrap();
    let (code, out, err) = crate::cli::fabric(&["push", "f.yaml", "--lab", "--yes"], &dir);
    assert_eq!(code, 0, "{out}{err}");
    dir
}

/// `fabric verify f.yaml --lab --check counters --interval 1s` and `extra`: its exit code,
/// output and errors.
fn counting(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "verify",
        "f.yaml",
        "--lab",
        "--check",
        "counters",
        "--interval",
        "1s",
    ];
    args.extend(extra);
    crate::cli::fabric(&args, dir)
}

/// [`counting`] of one switch, its JSON.
fn verify(dir: &Path, switch: &str) -> (i32, Value) {
    let (code, out, err) = counting(dir, &["--switch", switch, "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, v)
}

/// The findings' (rule, switch, interfaces, message).
fn findings(v: &Value) -> Vec<(String, String, String, String)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or("").to_string();
            (s("rule"), s("switch"), s("interfaces"), s("message"))
        })
        .collect()
}

#[test]
fn each_counter_fault_is_named_then_clean_once_cleared() {
    let dir = pushed("faults");
    let faults = dir.join(".fabric/lab/leaf01/faults.yaml");
    let (code, v) = verify(&dir, "leaf01");
    assert_eq!((code, findings(&v)), (0, vec![]), "{v:#}");
    // Every lossless host port pauses a little and marks: the load, not a finding.
    let counted = v["counters"].as_array().unwrap();
    let rate = |port: &str, counter: &str| {
        counted
            .iter()
            .find(|c| c["port"] == port && c["counter"] == counter)
            .unwrap_or_else(|| panic!("{port} {counter}: {v:#}"))["per_second"]
            .as_f64()
            .unwrap()
    };
    assert!(rate("1/1/1", "pause_rx") > 0.0 && rate("1/1/1", "ecn_marked") > 0.0);
    for (fault, rule, port, says) in [
        (
            "pause_storm: [\"1/1/1\"]",
            "V018",
            "1/1/1",
            "received on lossless priority 3",
        ),
        (
            "drops: { \"1/25\": { tc: 3 } }",
            "V019",
            "1/25",
            "lossless traffic class 3",
        ),
        ("no_ecn: [\"1/26\"]", "V020", "1/26", "priority 3"),
        ("crc: [\"1/27\"]", "V021", "1/27", "bad FCS"),
        ("flap: [\"Eth1/28\"]", "V022", "1/28", "changed state"),
    ] {
        std::fs::write(&faults, format!("counters:\n  {fault}\n")).unwrap();
        let (code, v) = verify(&dir, "leaf01");
        let found = findings(&v);
        assert_eq!(code, 1, "{fault}: {v:#}");
        assert_eq!(found.len(), 1, "{fault}: {found:#?}");
        let (r, sw, at, message) = &found[0];
        assert_eq!(
            (r.as_str(), sw.as_str(), at.as_str()),
            (rule, "leaf01", port),
            "{message}"
        );
        assert!(message.contains(says), "{fault}: {message}");
        // The finding carries both readings' lines, the JSON each reading's command.
        let line = v["findings"][0]["line"].as_str().unwrap();
        assert!(line.contains(" → "), "{line}");
        std::fs::remove_file(&faults).unwrap();
        let (code, v) = verify(&dir, "leaf01");
        assert_eq!((code, findings(&v)), (0, vec![]), "{fault} cleared: {v:#}");
    }
}

#[test]
fn a_flapping_uplink_is_one_finding_for_its_cable() {
    let dir = pushed("flap");
    std::fs::write(
        dir.join(".fabric/lab/spine01/faults.yaml"),
        "counters:\n  flap: [\"1/1\"]\n",
    )
    .unwrap();
    let (code, out, err) = counting(&dir, &["--format", "json"]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let found = findings(&v);
    // spine01 1/1 is cabled to leaf01 1/25: one finding, at leaf01, naming the far end.
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        (found[0].1.as_str(), found[0].2.as_str()),
        ("leaf01", "1/25")
    );
    assert!(
        found[0].3.contains("its far end spine01 1/1 too"),
        "{}",
        found[0].3
    );
}

#[test]
fn the_fabric_thresholds_decide() {
    let dir = pushed("thresholds");
    let text = std::fs::read_to_string(dir.join("f.yaml")).unwrap();
    let lenient = "verify: { pause_rate: 5000, errors: 100 }\nqos:";
    std::fs::write(dir.join("f.yaml"), text.replacen("qos:", lenient, 1)).unwrap();
    std::fs::write(
        dir.join(".fabric/lab/leaf01/faults.yaml"),
        "counters:\n  pause_storm: [\"1/1/1\"]\n  crc: [\"1/27\"]\n  drops: { \"1/25\": { tc: 3 } }\n",
    )
    .unwrap();
    let (code, v) = verify(&dir, "leaf01");
    // A storm of about 3,000/s under 5,000/s, 10 errors a second under 100: only the drops.
    let found = findings(&v);
    assert_eq!((code, found.len()), (1, 1), "{found:#?}");
    assert_eq!(found[0].0, "V019");
    // A key the format does not have: refused at its line.
    std::fs::write(
        dir.join("f.yaml"),
        text.replacen("qos:", "verify: { pause_rates: 5000 }\nqos:", 1),
    )
    .unwrap();
    let (code, _, err) = crate::cli::fabric(&["validate", "f.yaml"], &dir);
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains("pause_rates") && err.contains("f.yaml:"),
        "{err}"
    );
}

#[test]
fn prometheus_output_reads_with_the_prometheus_client() {
    let dir = pushed("prometheus");
    std::fs::write(
        dir.join(".fabric/lab/leaf01/faults.yaml"),
        "counters:\n  pause_storm: [\"1/1/1\"]\n",
    )
    .unwrap();
    let (code, out, err) = counting(&dir, &["--switch", "leaf01", "--format", "prometheus"]);
    assert_eq!(code, 1, "{err}");
    let file = dir.join("fabric.prom");
    std::fs::write(&file, &out).unwrap();
    // The client library's parser: every family, its type and its samples.
    let script = r#"
import sys
from prometheus_client.parser import text_string_to_metric_families
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
        print(f"{fam.name} {fam.type} {s.name} {labels} {s.value}")
"#;
    let python = crate::clients::venv().join("bin/python");
    let parsed = Command::new(&python)
        .args(["-c", script])
        .arg(&file)
        .output()
        .expect("the venv's python runs");
    let text = String::from_utf8_lossy(&parsed.stdout);
    assert!(
        parsed.status.success(),
        "{}{text}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    let storm = text
        .lines()
        .find(|l| l.starts_with("fabric_pfc_pause_rx_frames counter fabric_pfc_pause_rx_frames_total port=1/1/1,priority=3,switch=leaf01 "))
        .unwrap_or_else(|| panic!("{text}"));
    let value: f64 = storm.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(value > 1000.0, "{storm}");
    assert!(
        text.lines().any(|l| l
            == "fabric_verify_findings gauge fabric_verify_findings rule=V018,switch=leaf01 1.0"),
        "{text}"
    );
    // Every counter family is named `_total`, has its help, and is one the code names.
    let names = fabric::verify::counters::metric_names();
    for l in out.lines().filter(|l| l.starts_with("# TYPE ")) {
        let w: Vec<&str> = l.split(' ').collect();
        assert!(w[3] != "counter" || w[2].ends_with("_total"), "{l}");
        assert!(out.contains(&format!("# HELP {} ", w[2])), "{l}");
        assert!(names.contains(&w[2]), "{l}");
    }
}

/// The Grafana dashboard in the docs queries only metrics the Prometheus output writes, and
/// each of them.
#[test]
fn the_grafana_dashboard_uses_the_metric_names() {
    let text = std::fs::read_to_string(crate::root().join("docs/grafana-roce.json")).unwrap();
    let dash: Value = serde_json::from_str(&text).unwrap();
    let names = fabric::verify::counters::metric_names();
    let mut used = std::collections::BTreeSet::new();
    for panel in dash["panels"].as_array().unwrap() {
        for target in panel["targets"].as_array().unwrap() {
            let expr = target["expr"].as_str().unwrap();
            for (at, _) in expr.match_indices("fabric_") {
                let name: String = expr[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                    .collect();
                assert!(names.contains(&name.as_str()), "{name} in {expr}");
                used.insert(name);
            }
        }
    }
    for n in names
        .iter()
        .filter(|n| **n != "fabric_counters_interval_seconds")
    {
        assert!(used.contains(*n), "the dashboard does not show {n}");
    }
}

#[test]
fn watch_repeats_each_interval_in_one_session_per_switch() {
    let dir = pushed("watch");
    std::fs::write(
        dir.join(".fabric/lab/leaf02/faults.yaml"),
        "counters:\n  pause_storm: [\"1/1/2\"]\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args([
            "verify",
            "f.yaml",
            "--lab",
            "--counters",
            "--watch",
            "--interval",
            "500ms",
        ])
        .current_dir(&dir)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        let done = line.starts_with("round 3:");
        lines.push(line);
        if done {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let text = lines.join("\n");
    assert!(
        text.contains("round 1:") && text.contains("round 2:"),
        "{text}"
    );
    // Worst first: the storming port heads each round's table.
    let first_row = |round: &str| {
        let at = lines.iter().position(|l| l.starts_with(round)).unwrap();
        lines[at + 2].clone()
    };
    for round in ["round 1:", "round 2:"] {
        let row = first_row(round);
        assert!(
            row.starts_with("leaf02") && row.contains("1/1/2"),
            "{round}: {row}\n{text}"
        );
    }
    assert!(text.contains("V018"), "{text}");
}
