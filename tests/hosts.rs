//! Hosts against their switches, end to end through the `fabric` binary: `fabric hosts`
//! of the example fabrics (snapshots), clean reports that audit clean, a change of the lossless
//! priority that changes every host's commands and flags every old report, one fixture per
//! host rule firing exactly its rule, located errors for reports that are not what they
//! claim, and live reads from a real OpenSSH `sshd` on loopback answering from recorded
//! outputs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::lab_ssh::{fabric_bin, sshd_with};
use crate::{root, run, scratch};

pub(crate) fn fixtures() -> PathBuf {
    crate::shared().join("audit/hosts")
}

fn hosts_of(fabric: &Path, extra: &[&str]) -> (i32, String) {
    run(fabric_bin().arg("hosts").arg(fabric).args(extra))
}

/// The host findings (rule ids by host) of `fabric audit … --format json`, and its exit code.
pub(crate) fn audit_hosts(fabric: &Path, extra: &[&str]) -> (i32, Vec<(String, String)>, String) {
    let out = fabric_bin()
        .arg("audit")
        .arg(fabric)
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let json: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}{stderr}"));
    let found = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"].as_str().unwrap().starts_with('H'))
        .map(|f| {
            (
                f["switch"].as_str().unwrap().to_string(),
                f["rule"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (out.status.code().unwrap_or(-1), found, stderr)
}

/// One clean report per host of an example fabric, from its template (`HOST` → the name).
fn clean_reports(dir: &Path, template: &str, names: impl Iterator<Item = String>) {
    let text = std::fs::read_to_string(fixtures().join("examples").join(template)).unwrap();
    for name in names {
        std::fs::write(dir.join(format!("{name}.txt")), text.replace("HOST", &name)).unwrap();
    }
}

/// The shipped fabrics that declare their hosts (every reference deployment with hosts on
/// its switch ports but the guide's own switch, `rdg-roce-dscp`), each with its hosts' names
/// (from `fabric hosts --format json`) and the template of a clean report of its hosts' OS.
fn deployments() -> Vec<(String, Vec<String>, &'static str)> {
    let mut out = Vec::new();
    for path in crate::fabrics() {
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.contains("\nhosts:\n") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (code, json) = hosts_of(&path, &["--format", "json"]);
        assert_eq!(code, 0, "{stem}: {json}");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let names = v
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h["host"].as_str().unwrap().to_string())
            .collect();
        let template = if text.contains("os: linux") && text.contains("ens1f1:") {
            // Two rails: a server's two ports, each with its RDMA device.
            "gpu-pod.gpu.txt"
        } else if text.contains("os: linux") {
            "ml-cluster.gpu.txt"
        } else {
            "vsphere-mlag.esxi.txt"
        };
        out.push((stem, names, template));
    }
    let stems: Vec<&str> = out.iter().map(|(s, _, _)| s.as_str()).collect();
    assert_eq!(
        stems,
        [
            "a100-cx6",
            "gpu-pod",
            "ml-cluster",
            "spectrum-x",
            "vcf-bitfusion",
            "vsphere-mlag",
            "vsphere-pvrdma"
        ]
    );
    out
}

/// `fabric hosts` of the example fabrics, snapshotted (`tests/snapshots/…hosts_…`): a change
/// of what hosts are told shows in review.
#[test]
fn fabric_hosts_of_the_example_fabrics_match_their_snapshots() {
    for (stem, names, _) in deployments() {
        let (code, out) = hosts_of(&root().join(format!("fabrics/{stem}.yaml")), &[]);
        assert_eq!(code, 0, "{out}");
        let (again, _) = hosts_of(&root().join(format!("fabrics/{stem}.yaml")), &[]);
        assert_eq!(again, 0);
        insta::assert_snapshot!(format!("hosts_{stem}"), out);
        assert_eq!(out.matches("#!/bin/sh\n").count(), names.len(), "{stem}");
        match stem.as_str() {
            "ml-cluster" | "gpu-pod" | "spectrum-x" => {
                assert_eq!(out.matches("#!/bin/sh\n# gpu").count(), names.len());
                assert_eq!(
                    out.matches("mlnx_qos -i ens1f0 --pfc 0,0,0,1,0,0,0,0\n")
                        .count(),
                    names.len()
                );
            }
            _ => {
                assert_eq!(
                    out.matches("esxcli system module parameters set -m nmlx5_core -p \"pfctx=0x08 pfcrx=0x08 trust_state=2 ecn=1\"\n")
                        .count(),
                    names.len(),
                    "{out}"
                );
                // RDMA leaves marked with the fabric's RoCE DSCP (`qos.dscp.roce`).
                assert_eq!(
                    out.matches(
                        "esxcli system module parameters set -m nmlx5_rdma -p \"dscp_force=26\"\n"
                    )
                    .count(),
                    names.len(),
                    "{out}"
                );
            }
        }
    }
}

#[test]
fn hosts_json_and_collect_formats() {
    let fabric = fixtures().join("fabric.yaml");
    let (code, out) = hosts_of(&fabric, &["--format", "json", "--host", "gpu01"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["host"], "gpu01");
    assert_eq!(v[0]["tos"], 106);
    assert_eq!(v[0]["roce_priority"], 3);
    let commands: Vec<&str> = v[0]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(
        commands.contains(&"cma_roce_tos -d mlx5_2 -t 106"),
        "{commands:?}"
    );
    let (code, collect) = hosts_of(&fabric, &["--format", "collect", "--host", "gpu01"]);
    assert_eq!(code, 0, "{collect}");
    assert!(
        collect.contains("echo '$ mlnx_qos -i eth4'; mlnx_qos -i eth4 2>&1\n"),
        "{collect}"
    );
    // DCQCN read back file by file, each value after its path, errors kept (`2>&1`).
    let ecn = "grep -H . /sys/class/net/eth4/ecn/roce_np/enable/3 /sys/class/net/eth4/ecn/roce_rp/enable/3 /sys/class/net/eth4/ecn/roce_np/cnp_dscp";
    assert!(
        collect.contains(&format!("echo '$ {ecn}'; {ecn} 2>&1\n")),
        "{collect}"
    );
    let (code, script) = hosts_of(&fabric, &["--host", "gpu01"]);
    assert_eq!(code, 0, "{script}");
    assert!(
        script.contains(
            "echo 1 > /sys/class/net/eth4/ecn/roce_np/enable/3\n\
             echo 1 > /sys/class/net/eth4/ecn/roce_rp/enable/3\n\
             echo 48 > /sys/class/net/eth4/ecn/roce_np/cnp_dscp\n"
        ),
        "{script}"
    );
    let (code, collect) = hosts_of(&fabric, &["--format", "collect", "--host", "esxi01"]);
    assert_eq!(code, 0, "{collect}");
    for module in ["nmlx5_core", "nmlx5_rdma"] {
        let read = format!("esxcli system module parameters list -m {module}");
        assert!(
            collect.contains(&format!("echo '$ {read}'; {read} 2>&1\n")),
            "{collect}"
        );
    }
    let (code, out) = hosts_of(&fabric, &["--host", "gpu1"]);
    assert_eq!(code, 2);
    assert!(out.contains("did you mean `gpu01`"), "{out}");
}

#[test]
fn a_host_whose_switch_ports_disagree_is_an_error_not_a_guess() {
    let (code, out) = hosts_of(&fixtures().join("conflict.yaml"), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error: host `gpu01`: its switch ports disagree: sw1 ethernet 1/1 (ens1f0) puts RoCE (DSCP 26) on priority 3")
            && out.contains("priority 4 with PFC on 4"),
        "{out}"
    );
    assert!(!out.contains("mlnx_qos"), "{out}");
}

#[test]
fn switches_and_hosts_that_agree_audit_clean_end_to_end() {
    let (code, found, err) = audit_hosts(
        &fixtures().join("fabric.yaml"),
        &["--hosts", fixtures().join("clean").to_str().unwrap()],
    );
    // An ESXi host's counters are not read, and that is said (H020, info).
    let esxi = |h: &str| (h.to_string(), "H020".to_string());
    assert_eq!((code, found), (0, vec![esxi("esxi01")]), "{err}");
    for (stem, names, template) in deployments() {
        let dir = scratch(&format!("hosts-clean-{stem}"));
        clean_reports(&dir, template, names.clone().into_iter());
        let (code, found, err) = audit_hosts(
            &root().join(format!("fabrics/{stem}.yaml")),
            &["--hosts", dir.to_str().unwrap()],
        );
        let expected: Vec<_> = match template.ends_with(".esxi.txt") {
            true => names.iter().map(|h| esxi(h)).collect(),
            false => Vec::new(),
        };
        assert_eq!((code, found), (0, expected), "{stem}: {err}");
    }
}

#[test]
fn a_new_lossless_priority_changes_every_host_and_flags_every_old_report() {
    // The deployments whose QoS is the preset's (vcf-bitfusion writes its OS10 lines itself).
    for (stem, names, template) in deployments() {
        if stem == "vcf-bitfusion" {
            continue;
        }
        let rule = if template.ends_with(".gpu.txt") {
            "H002"
        } else {
            "H008"
        };
        let dir = scratch(&format!("hosts-prio4-{stem}"));
        let text = std::fs::read_to_string(root().join(format!("fabrics/{stem}.yaml"))).unwrap();
        // The preset's recipe written out, moved to priority 4 (RoCE marked DSCP 34).
        let preset = text
            .lines()
            .find(|l| l.trim_start().starts_with("preset: roce-lossless"))
            .expect("the example fabric uses the preset");
        // OS10 sizes its lossless buffers itself: a pool's `memory` is Onyx's alone.
        let pool = if text.contains("os: os10") {
            "roce: { type: lossless, priorities: [4] }"
        } else {
            "roce: { type: lossless, memory: 50, priorities: [4] }"
        };
        let moved = text
            .replace(
                preset,
                &format!("  pools:\n    {pool}\n  dscp: {{ roce: 34, cnp: 48 }}"),
            )
            .replace(
                "port_defaults:\n",
                "port_defaults:\n  trust: L3\n  ecn:\n    4: { min: 150, max: 1500 }\n  ets:\n    4: 50\n    6: strict\n",
            );
        assert_ne!(moved, text);
        let fabric = dir.join(format!("{stem}.yaml"));
        std::fs::write(&fabric, moved).unwrap();
        let (code, before) = hosts_of(&root().join(format!("fabrics/{stem}.yaml")), &[]);
        assert_eq!(code, 0, "{before}");
        let (code, after) = hosts_of(&fabric, &[]);
        assert_eq!(code, 0, "{after}");
        let split = |s: &str| -> Vec<String> {
            s.split("#!/bin/sh\n").skip(1).map(str::to_string).collect()
        };
        let (b, a) = (split(&before), split(&after));
        assert_eq!((b.len(), a.len()), (names.len(), names.len()));
        for (x, y) in b.iter().zip(&a) {
            assert_ne!(x, y, "a host's commands did not change:\n{y}");
            assert!(
                y.contains("0,0,0,0,1,0,0,0") || y.contains("pfctx=0x10 pfcrx=0x10"),
                "{y}"
            );
            // DCQCN follows the lossless priority.
            assert!(
                y.contains("echo 1 > /sys/class/net/ens1f0/ecn/roce_np/enable/4\n")
                    || y.contains("dscp_force=34"),
                "{y}"
            );
            // RoCE now leaves marked DSCP 34: ToS 138 on Linux, `dscp_force=34` on ESXi.
            assert!(
                y.contains("-t 138") || y.contains("-p \"dscp_force=34\""),
                "{y}"
            );
        }
        let reports = dir.join("reports");
        std::fs::create_dir_all(&reports).unwrap();
        clean_reports(&reports, template, names.clone().into_iter());
        let (code, found, err) = audit_hosts(&fabric, &["--hosts", reports.to_str().unwrap()]);
        assert_eq!(code, 1, "{err}");
        let flagged: BTreeSet<&str> = found
            .iter()
            .filter(|(_, r)| r == rule)
            .map(|(h, _)| h.as_str())
            .collect();
        assert_eq!(
            flagged,
            names.iter().map(String::as_str).collect(),
            "every host still on priority 3 is flagged {rule}"
        );
    }
}

#[test]
fn each_host_rule_fixture_fires_exactly_its_rule() {
    let fabric = fixtures().join("fabric.yaml");
    for rule in fabric::hosts::HOST_RULES {
        let dir = fixtures().join(rule.id);
        assert!(dir.is_dir(), "no fixture for {}", rule.id);
        let host = if dir.join("esxi01.txt").exists() {
            "esxi01"
        } else {
            "gpu01"
        };
        let (code, found, err) =
            audit_hosts(&fabric, &["--hosts", dir.to_str().unwrap(), "--host", host]);
        let rules: BTreeSet<&str> = found.iter().map(|(_, r)| r.as_str()).collect();
        // An ESXi host's report also says its counters are not read (H020).
        let mut expected = BTreeSet::from([rule.id]);
        if host == "esxi01" {
            expected.insert("H020");
        }
        assert_eq!(rules, expected, "{}: {err}", rule.id);
        let expected = if rule.severity == fabric::audit::Severity::Error {
            1
        } else {
            0
        };
        assert_eq!(code, expected, "{}: {err}", rule.id);
        let (code, text) = run(fabric_bin().args(["explain", rule.id]));
        assert_eq!(code, 0);
        assert!(
            text.starts_with(&format!("{} {}", rule.id, rule.name)),
            "{text}"
        );
    }
}

#[test]
fn a_finding_points_at_the_report_line() {
    let out = run(fabric_bin()
        .arg("audit")
        .arg(fixtures().join("fabric.yaml"))
        .args(["--host", "gpu01", "--hosts"])
        .arg(fixtures().join("H002")));
    assert!(
        out.1.contains("enabled     0   0   0   0   0   1   0   0")
            && out.1.contains("--> ")
            && out.1.contains("H002/gpu01.txt:18"),
        "{}",
        out.1
    );
    let sarif = run(fabric_bin()
        .arg("audit")
        .arg(fixtures().join("fabric.yaml"))
        .args(["--host", "gpu01", "--format", "sarif", "--hosts"])
        .arg(fixtures().join("H002")));
    let v: serde_json::Value = serde_json::from_str(&sarif.1).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let h = results.iter().find(|r| r["ruleId"] == "H002").unwrap();
    let index = h["ruleIndex"].as_u64().unwrap() as usize;
    assert_eq!(v["runs"][0]["tool"]["driver"]["rules"][index]["id"], "H002");
    assert_eq!(
        h["locations"][0]["physicalLocation"]["region"]["startLine"],
        18
    );
}

#[test]
fn reports_that_are_not_what_they_claim_are_located_errors() {
    let fabric = fixtures().join("fabric.yaml");
    for (case, expected) in [
        (
            "truncated",
            "gpu01.txt:16: the mlnx_qos output ends before its PFC",
        ),
        (
            "unknown-command",
            "gpu01.txt:40: `sudo sysctl -w net.ipv4.tcp_ecn=1` is not a command",
        ),
        ("no-prompt", "gpu01.txt:1: output before any command"),
        (
            "bad-ip-link",
            "gpu01.txt:34: `Device \\\"eth4\\\" does not exist.` is not `ip link show eth4` output",
        ),
        (
            "stranger",
            "gpu99.txt: a report for `gpu99`, which the fabric does not declare",
        ),
    ] {
        let (code, out) = run(fabric_bin()
            .arg("audit")
            .arg(&fabric)
            .args(["--host", "gpu01", "--hosts"])
            .arg(fixtures().join("bad").join(case)));
        assert_eq!(code, 2, "{case}: {out}");
        assert!(out.contains(expected), "{case}: {out}");
    }
    // A host with no report at all is named, never passed.
    let (code, out) = run(fabric_bin()
        .arg("audit")
        .arg(&fabric)
        .arg("--hosts")
        .arg(fixtures().join("H001")));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("error: no report for host `esxi01`"), "{out}");
}

/// Every number of a host report is in its range, or an error at its line: a priority 0-7
/// (the ETS table's and dscp2prio's), a traffic class 0-7, a DSCP 0-63, an MTU from 68; a
/// report with `priority: 99` is not read as clean.
#[test]
fn a_number_out_of_its_range_in_a_host_report_is_a_located_error() {
    let dir = scratch("hosts-ranges");
    let clean = std::fs::read_to_string(fixtures().join("clean/gpu01.txt")).unwrap();
    let fabric = fixtures().join("fabric.yaml");
    for (from, to, expected) in [
        (
            "priority:  7",
            "priority:  99",
            "gpu01.txt:32: `99` is not a priority (0-7)",
        ),
        (
            "prio:7 dscp:63",
            "prio:9 dscp:63",
            "gpu01.txt:12: `9` is not a priority (0-7)",
        ),
        (
            "dscp:63,62",
            "dscp:99,62",
            "gpu01.txt:12: `99` is not a DSCP (0-63)",
        ),
        (
            "tc: 7 ratelimit",
            "tc: 9 ratelimit",
            "gpu01.txt:31: `9` is not a traffic class (0-7)",
        ),
        (
            "mtu 9000 qdisc",
            "mtu 0 qdisc",
            "gpu01.txt:34: `0` is not an MTU (68-65535)",
        ),
        (
            "cnp_dscp:48",
            "cnp_dscp:64",
            "gpu01.txt:39: `64` is not a DSCP (0-63)",
        ),
    ] {
        assert!(clean.contains(from), "{from}");
        let report = dir.join("gpu01.txt");
        std::fs::write(&report, clean.replace(from, to)).unwrap();
        let (code, out) = run(fabric_bin()
            .arg("audit")
            .arg(&fabric)
            .args(["--host", "gpu01", "--hosts"])
            .arg(&report));
        assert_eq!(code, 2, "{to}: {out}");
        assert!(out.contains(expected), "{to}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A host report that is a named pipe nothing writes to is refused at once, naming it: not a
/// wait forever; given alone or in a folder of reports.
#[test]
fn a_host_report_that_is_a_named_pipe_is_refused_at_once() {
    let dir = scratch("hosts-fifo");
    let fifo = dir.join("gpu01.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let fabric = fixtures().join("fabric.yaml");
    let args = [
        "audit",
        fabric.to_str().unwrap(),
        "--host",
        "gpu01",
        "--hosts",
        fifo.to_str().unwrap(),
    ];
    let (code, err) = crate::cli::fabric_within(&args, 20).expect("it ends");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("gpu01.txt`: it is a named pipe (FIFO), not a file"),
        "{err}"
    );
    // In a folder of reports too: said, not passed over as no report.
    let folder = dir.to_str().unwrap();
    let args = [&args[..5], &[folder]].concat();
    let (code, err) = crate::cli::fabric_within(&args, 20).expect("it ends");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("gpu01.txt`: it is a named pipe (FIFO), not a file"),
        "{err}"
    );
}

/// esxcli's parameter list as a real host prints it (the vcdx200 capture of `-m bnx2x`, its
/// columns spaced out to the widths its rule of dashes gives; `tests/fixtures/SOURCES.md`) is
/// read row by row, empty values as unset; a description carried on lines of its own (as
/// nmlx5_core's `max_vfs` prints it) stays with its row.
#[test]
fn esxcli_parameter_lists_read_as_a_real_host_prints_them() {
    let text = std::fs::read_to_string(fixtures().join("esxcli/bnx2x.txt")).unwrap();
    let report = fabric::hosts::report::parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let bnx2x = &report.modules["bnx2x"];
    assert_eq!(bnx2x.line, 1);
    let names: Vec<&str> = bnx2x.value.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "RSS",
            "autogreeen",
            "bnx2x_vf_passthru_wait_event_timeout",
            "debug",
            "debug_unhide_nics"
        ]
    );
    assert!(bnx2x.value.values().all(|p| p.value.is_none()));
    assert_eq!(bnx2x.value["debug"].line, 7);

    let text = std::fs::read_to_string(fixtures().join("clean/esxi01.txt")).unwrap();
    let report = fabric::hosts::report::parse(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let core = &report.modules["nmlx5_core"].value;
    assert_eq!(core["max_vfs"].value, None);
    assert_eq!(core["pfcrx"].value.as_deref(), Some("0x08"));
    assert_eq!(
        report.modules["nmlx5_rdma"].value["dscp_force"]
            .value
            .as_deref(),
        Some("26")
    );
    // A description line with no row above it is not a parameter list.
    let cut: String = text
        .lines()
        .filter(|l| {
            !l.starts_with("max_vfs")
                && !l.starts_with("DRSS")
                && !l.starts_with("ecn ")
                && !l.starts_with("enable_nmlx_debug")
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let err = fabric::hosts::report::parse(&cut).unwrap_err();
    assert_eq!(err.line, 4, "{err:?}");
    assert!(
        err.message
            .contains("a description line before any parameter row"),
        "{err:?}"
    );
}

/// A driver without the DCQCN files (grep's `No such file or directory` for each) is named,
/// file by file: the report does not pass.
#[test]
fn a_driver_without_dcqcn_files_is_flagged_not_passed() {
    let (code, found, err) = audit_hosts(
        &fixtures().join("fabric.yaml"),
        &[
            "--hosts",
            fixtures().join("old-driver").to_str().unwrap(),
            "--host",
            "gpu01",
        ],
    );
    assert_eq!(code, 1, "{err}");
    let rules: Vec<&str> = found.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(rules, ["H012", "H012", "H013"], "{err}");
    let (_, text) = run(fabric_bin()
        .arg("audit")
        .arg(fixtures().join("fabric.yaml"))
        .args(["--host", "gpu01", "--hosts"])
        .arg(fixtures().join("old-driver")));
    assert!(
        text.contains("eth4: /sys/class/net/eth4/ecn/roce_np/enable/3 does not exist: the driver has no DCQCN files"),
        "{text}"
    );
    assert!(text.contains("old-driver/gpu01.txt:38"), "{text}");
}

/// An `sshd` on loopback whose every login answers from `live/` (and fails for any other
/// command), and a copy of the fixture fabric whose gpu01 is reached through it.
pub(crate) fn live_fabric(
    name: &str,
    moved: bool,
    case: Option<&Path>,
) -> (PathBuf, PathBuf, crate::lab_ssh::Sshd) {
    let dir = scratch(&format!("hosts-live-{name}"));
    let log = dir.join("asked.log");
    let script = fixtures().join("live/answer.sh");
    let sshd = sshd_with(
        &dir,
        &["ed25519"],
        &format!(
            "ForceCommand /bin/sh {} {} {}\n",
            script.display(),
            log.display(),
            case.map_or(String::new(), |c| c.display().to_string())
        ),
    );
    std::fs::write(
        dir.join("known_hosts"),
        format!("[127.0.0.1]:{} {}\n", sshd.port, sshd.host_keys[0]),
    )
    .unwrap();
    let mut text = std::fs::read_to_string(fixtures().join("fabric.yaml")).unwrap();
    text = text.replace(
        "  gpu01:\n    os: linux\n",
        &format!(
            "  gpu01:\n    os: linux\n    mgmt: {{ host: 127.0.0.1, port: {}, user: {} }}\n",
            sshd.port, sshd.user
        ),
    );
    if moved {
        text = text.replace("priorities: [3]", "priorities: [4]");
    }
    let fabric = dir.join("fabric.yaml");
    std::fs::write(&fabric, text).unwrap();
    (dir, fabric, sshd)
}

/// `fabric audit FABRIC --host gpu01 --hosts-live` with the sshd's user key and host key.
pub(crate) fn audit_live(
    known_hosts: &Path,
    fabric: &Path,
    sshd: &crate::lab_ssh::Sshd,
    extra: &[&str],
) -> (i32, Vec<(String, String)>, String) {
    let key = sshd.user_key.display().to_string();
    let known = known_hosts.display().to_string();
    let args = [
        "--host",
        "gpu01",
        "--hosts-live",
        "--identity",
        &key,
        "--known-hosts",
        &known,
    ];
    audit_hosts(fabric, &[&args[..], extra].concat())
}

#[test]
fn hosts_live_reads_linux_hosts_over_openssh_with_read_only_commands() {
    let (dir, fabric, sshd) = live_fabric("clean", false, None);
    let (code, found, err) = audit_live(&dir.join("known_hosts"), &fabric, &sshd, &[]);
    assert_eq!((code, found.as_slice()), (0, &[][..]), "{err}");
    // Exactly the read-only commands, each once; the counters twice, 10 s apart.
    let asked = std::fs::read_to_string(dir.join("asked.log")).unwrap();
    let hw = "grep -H . /sys/class/infiniband/mlx5_2/ports/1/hw_counters/np_ecn_marked_roce_packets /sys/class/infiniband/mlx5_2/ports/1/hw_counters/np_cnp_sent /sys/class/infiniband/mlx5_2/ports/1/hw_counters/rp_cnp_handled /sys/class/infiniband/mlx5_2/ports/1/hw_counters/out_of_buffer";
    let reading = format!("date +%s.%N\nethtool -S eth4\n{hw}\n");
    assert_eq!(
        asked,
        format!(
            "mlnx_qos -i eth4\nip link show eth4\ngrep -H . /sys/class/net/eth4/ecn/roce_np/enable/3 /sys/class/net/eth4/ecn/roce_rp/enable/3 /sys/class/net/eth4/ecn/roce_np/cnp_dscp\ncat /sys/class/infiniband/mlx5_2/tc/1/traffic_class\ncma_roce_tos -d mlx5_2\n{reading}sleep 10\n{reading}"
        )
    );
    // The server refuses anything else: a command outside the recording fails.
    let session = {
        let tcp = std::net::TcpStream::connect(("127.0.0.1", sshd.port)).unwrap();
        let mut s = ssh2::Session::new().unwrap();
        s.set_tcp_stream(tcp);
        s.handshake().unwrap();
        s.userauth_pubkey_file(&sshd.user, None, &sshd.user_key, None)
            .unwrap();
        s
    };
    let mut ch = session.channel_session().unwrap();
    ch.exec("mlnx_qos -i eth4 --trust pcp").unwrap();
    let mut out = String::new();
    std::io::Read::read_to_string(&mut ch, &mut out).unwrap();
    ch.wait_close().unwrap();
    assert_eq!(ch.exit_status().unwrap(), 1);
    assert!(out.is_empty(), "{out}");

    // Strict host keys: an empty known_hosts refuses the host, nothing is read.
    let empty = dir.join("empty_known_hosts");
    std::fs::write(&empty, "").unwrap();
    let before = std::fs::read_to_string(dir.join("asked.log")).unwrap();
    let (code, _, text) = audit_live(&empty, &fabric, &sshd, &[]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("error: gpu01:"), "{text}");
    assert_eq!(
        std::fs::read_to_string(dir.join("asked.log")).unwrap(),
        before
    );
}

#[test]
fn hosts_live_flags_a_host_on_the_old_priority() {
    let (dir, fabric, sshd) = live_fabric("moved", true, None);
    let (code, found, err) = audit_live(&dir.join("known_hosts"), &fabric, &sshd, &[]);
    assert_eq!(code, 1, "{err}");
    assert!(
        found.contains(&("gpu01".to_string(), "H002".to_string())),
        "{found:?}"
    );
}

/// ESXi's DCQCN is nmlx5_core's `ecn` (off by default): a host that leaves it unset is H008,
/// naming the parameter, and the script sets it with trust and PFC.
#[test]
fn an_esxi_host_without_ecn_is_flagged() {
    let dir = scratch("hosts-esxi-ecn");
    for name in ["gpu01", "esxi01"] {
        let text =
            std::fs::read_to_string(fixtures().join("clean").join(format!("{name}.txt"))).unwrap();
        let text = text.replace(
            "ecn                int            1      Enables the ECN feature",
            "ecn                int                   Enables the ECN feature",
        );
        std::fs::write(dir.join(format!("{name}.txt")), text).unwrap();
    }
    let (code, found, err) = audit_hosts(
        &fixtures().join("fabric.yaml"),
        &["--hosts", dir.to_str().unwrap()],
    );
    assert_eq!(
        (code, found),
        (
            1,
            vec![
                ("esxi01".to_string(), "H008".to_string()),
                ("esxi01".to_string(), "H020".to_string())
            ]
        ),
        "{err}"
    );
    let (code, script) = hosts_of(&fixtures().join("fabric.yaml"), &["--host", "esxi01"]);
    assert_eq!(code, 0, "{script}");
    assert!(
        script.contains("-m nmlx5_core -p \"pfctx=0x08 pfcrx=0x08 trust_state=2 ecn=1\"\n"),
        "{script}"
    );
}

/// A routed leaf-spine fabric with `per_leaf` hosts in each leaf's server VLAN and as many on
/// routed ports (a /31 each), declared in two pattern entries whose port is `nic` (the peers
/// name `ens1f0`).
fn host_fabric(leaves: usize, per_leaf: usize, nic: &str) -> String {
    let mut y = String::from(
        "onyx: 3.10.4206\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nvlans:\n  - { id: 100, name: gpu }\nport_defaults: { trust: L3, mtu: 9216, pfc: true }\nrouting:\n  spine: { asn: 65000, loopbacks: 172.17.0.0/24 }\n  leaf: { asn_base: 4200000000, loopbacks: 172.16.0.0/24 }\n  links: 10.0.0.0/16\nswitches:\n  spine1: { model: SN4600C, role: spine }\n  spine2: { model: SN4600C, role: spine }\n",
    );
    for s in 1..=leaves {
        let (first, last) = ((s - 1) * per_leaf + 1, s * per_leaf);
        y += &format!(
            "  leaf{s:02}:\n    model: SN4600C\n    role: leaf\n    vlans: [{{ id: 100, name: gpu, address: 100.64.{s}.1/24 }}]\n    ports:\n      1/1-1/{per_leaf}: {{ vlan: 100, peer: {{ host: \"v{{{first:04}..{last:04}}}\", port: ens1f0 }} }}\n"
        );
        for k in 1..=per_leaf {
            y += &format!(
                "      1/{}: {{ address: 100.65.{s}.{}/31, peer: {{ host: r{:04}, port: ens1f0 }} }}\n",
                per_leaf + k,
                2 * k,
                (s - 1) * per_leaf + k
            );
        }
    }
    y += "links:\n";
    for s in 1..=leaves {
        for (port, spine) in [(61, 1), (62, 2)] {
            y += &format!("  - {{ a: \"leaf{s:02}:1/{port}\", b: \"spine{spine}:1/{s}\" }}\n");
        }
    }
    let n = leaves * per_leaf;
    y += "hosts:\n";
    for prefix in ["v", "r"] {
        y += &format!(
            "  \"{prefix}{{0001..{n:04}}}\": {{ os: linux, nic: ConnectX-6 Dx, mtu: 9000, ports: {{ {nic}: {{ rdma: mlx5_0 }} }} }}\n"
        );
    }
    y
}

/// The steps (`fabric::steps`) that validating a fabric and planning its hosts take, per
/// host, and the fabric's errors.
fn steps_per_host(yaml: &str, hosts: usize) -> (f64, usize) {
    let mut sources = fabric::diag::Sources::default();
    let loaded = fabric::fabric::parse_bytes("hosts.yaml", yaml.as_bytes().to_vec(), &mut sources)
        .unwrap_or_else(|d| panic!("{d:?}"));
    fabric::steps::take();
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if let Some(fab) = fab {
        let configs = fab
            .switches
            .iter()
            .map(|(n, sw)| (n.clone(), fabric::audit::Switch::compiled(sw).view()))
            .collect();
        let plans = fabric::hosts::plans(&fab, &configs, &[]);
        assert_eq!(plans.len(), hosts);
        assert!(plans.iter().all(Result::is_ok));
    }
    (fabric::steps::take() as f64 / hosts as f64, errors)
}

/// Host checks, path MTU and plans take the same steps per host at 64 and 256 hosts (4 and 8
/// leaves): counted, not timed. A pass that compares every host, routed segment or switch
/// with every other (the path MTU compared every routed segment with every other; a host's
/// plan scanned the switches for each cable; a port renamed for every host of an entry
/// was found by a scan of all of them) grows with the fabric and fails this.
#[test]
fn host_checks_and_plans_take_the_same_steps_per_host_at_every_size() {
    for (nic, errors) in [("ens1f0", 0), ("ens2f0", 1)] {
        let (small, e_small) = steps_per_host(&host_fabric(4, 8, nic), 64);
        let (large, e_large) = steps_per_host(&host_fabric(8, 16, nic), 256);
        // The misnamed port: one E131 per peer entry, at the hosts' key.
        assert_eq!((e_small > 0, e_large > 0), (errors > 0, errors > 0));
        assert!(small > 0.0, "nothing counted");
        assert!(
            large <= small * 1.1,
            "`{nic}`: {small:.1} steps per host at 64 hosts, {large:.1} at 256: the work grows faster than the hosts"
        );
    }
}
