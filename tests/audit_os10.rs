//! The audit on OS10 switches (`tests/fixtures/audit/os10/`): `good.cfg` (the RoCE recipe of
//! `golden/vcf-bitfusion`, its VLT interconnect in PFC mode as the AzureStack TOR capture has
//! it, and a strict CNP queue) passes every rule; `RNNN.cfg`, or the switches of `RNNN/`,
//! break rule RNNN, the same rule an Onyx fixture of that id breaks. Onyx-only rules say so
//! and are not run on OS10; every OS10 capture that parses is audited with what it really
//! holds; findings name OS10 ports as OS10 does; `fabric audit` and `fabric validate` run on
//! an OS10 fabric and on OS10 backups, detected by their content; host scripts read the OS10
//! switch ports they are cabled to.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fabric::audit::{self, Input, Profile, RULES, Switch};
use fabric::fabric::Os;

const ONYX_OS: Os = fabric::onyx::target::OS;
const OS10_OS: Os = fabric::os10::target::OS;

fn dir() -> PathBuf {
    crate::root().join("tests/fixtures/audit/os10")
}

/// Audits an OS10 config, or every `*.cfg` of a folder as one fabric (links from
/// descriptions), as `fabric audit --running` does.
fn audit_os10(path: &Path) -> Vec<audit::Finding> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    };
    let switches: BTreeMap<String, Switch> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            assert!(fabric::os10::parse::looks_os10(&text), "{}", f.display());
            let c = fabric::os10::parse(&text).unwrap();
            let name = c.hostname.clone().unwrap();
            (name, Switch::new(c))
        })
        .collect();
    let links = audit::links_from_descriptions(&switches);
    audit::audit(&Input {
        switches,
        links,
        profile: Profile::RoceLossless,
    })
}

#[test]
fn os10_fixtures_break_the_same_rules_as_onyx() {
    assert_eq!(audit_os10(&dir().join("good.cfg")), vec![]);
    let mut broken = 0;
    for rule in RULES {
        let Some(path) = [dir().join(rule.id), dir().join(format!("{}.cfg", rule.id))]
            .into_iter()
            .find(|p| p.exists())
        else {
            continue;
        };
        assert!(rule.reads(OS10_OS), "{}: an Onyx-only rule", rule.id);
        // The Onyx fixture of the same id breaks the same rule (tests/audit.rs).
        let onyx = crate::root().join("tests/fixtures/audit");
        assert!(
            onyx.join(rule.id).exists() || onyx.join(format!("{}.cfg", rule.id)).exists(),
            "{}: no Onyx fixture",
            rule.id
        );
        let found = audit_os10(&path);
        assert!(
            found.iter().any(|f| f.rule == rule.id),
            "{}: no {} finding: {found:#?}",
            path.display(),
            rule.id
        );
        // Ports are named as OS10 names them, never as Onyx does.
        for f in &found {
            if let Some(i) = &f.interfaces {
                assert!(
                    i.starts_with("ethernet1/") || i.starts_with("port-channel"),
                    "{i}"
                );
                assert!(!i.contains(' '), "{i}");
            }
        }
        broken += 1;
    }
    assert!(broken >= 18, "{broken} OS10 fixtures");
}

#[test]
fn onyx_only_rules_say_so_and_are_not_run_on_os10() {
    let onyx_only: Vec<&str> = RULES
        .iter()
        .filter(|r| !r.reads(OS10_OS))
        .map(|r| r.id)
        .collect();
    // Traffic pools, the `roce` mode, and the routing and MLAG rules (which read Onyx's
    // configuration model).
    for id in [
        "R002", "R003", "R004", "R009", "R011", "R022", "R024", "R033", "R037",
    ] {
        assert!(onyx_only.contains(&id), "{id}");
    }
    for r in RULES {
        assert_eq!(
            r.explain().contains("Onyx switches only"),
            !r.reads(OS10_OS),
            "{}",
            r.id
        );
        assert!(r.reads(ONYX_OS), "{}", r.id);
    }
    // An OS10 switch without traffic pools breaks no pool rule, whatever else it lacks.
    let found = audit_os10(&dir().join("R015.cfg"));
    assert!(
        found.iter().all(|f| !onyx_only.contains(&f.rule)),
        "{found:#?}"
    );
}

/// The OS10 captures that are running configurations: each audited with what it holds.
#[test]
fn every_os10_capture_is_audited_for_what_it_holds() {
    let corpus = crate::shared().join("corpus/os10");
    let audit_file = |name: &str| audit_os10(&corpus.join(name));
    let rules = |found: Vec<audit::Finding>| -> Vec<&'static str> {
        let mut v: Vec<&str> = found.iter().map(|f| f.rule).collect();
        v.dedup();
        v
    };
    // The AzureStack BMC switch: two ports in PFC mode, no network-qos policy to pause, no
    // `dcbx enable`.
    let bmc = rules(audit_file(
        "azurestack-rack2-Rack01-BMC-1.running-configuration.10.5.3.2.txt",
    ));
    assert!(bmc.contains(&"R010") && bmc.contains(&"R012"), "{bmc:?}");
    // The AzureStack TOR: PFC on priority 3 everywhere, but the one queuing policy with
    // `random-detect ecn` (policy_q3) is on no port.
    let tor = audit_file("azurestack-rack2-Rack01-TOR-1.running-configuration.10.5.3.2.txt");
    assert!(
        tor.iter().any(|f| f.rule == "R015"
            && f.message == "priority 3 carries RoCE but no port marks ECN on traffic class 3"),
        "{tor:#?}"
    );
    // Breakout subports keep their OS10 names.
    assert!(
        tor.iter()
            .any(|f| f.interfaces.as_deref() == Some("ethernet1/1/44:1")),
        "{tor:#?}"
    );
    // Switches without RoCE: no RoCE finding, and the audit says it saw no RoCE.
    for name in [
        "cray-sw-leaf-bmc-001.running-configuration.10.5.1.4.txt",
        "dellemc-os10.running-config.10.4.0E.txt",
        "dellemc-os10-ansible.os10_config.cfg",
    ] {
        let found = audit_file(name);
        assert!(found.iter().all(|f| f.rule == "R026"), "{name}: {found:#?}");
        let path = corpus.join(name);
        let (code, _, err) = fabric(&["audit", "--running", path.to_str().unwrap()]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(err.contains("carries no RoCE"), "{name}: {err}");
    }
}

/// Runs the binary from the repository root: exit code, standard output, standard error.
fn fabric(args: &[&str]) -> (i32, String, String) {
    crate::cli::fabric(args, crate::root())
}

#[test]
fn fabric_audit_and_validate_run_on_os10_switches() {
    // The compiled fabric: every finding names OS10 ports, and the VLT interconnect is read.
    let (code, out, err) = fabric(&["audit", "fabrics/vcf-bitfusion.yaml", "--format", "json"]);
    assert!(code == 0 || code == 1, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    for f in json["findings"].as_array().unwrap() {
        if let Some(i) = f["interfaces"].as_str() {
            assert!(
                i.starts_with("ethernet1/1/") || i.starts_with("port-channel"),
                "{i}"
            );
        }
    }
    // Its goldens as backups, detected as OS10 by their content: the same findings.
    let (_, backups, err) = fabric(&[
        "audit",
        "--running",
        "golden/vcf-bitfusion",
        "--format",
        "json",
    ]);
    let backups: serde_json::Value =
        serde_json::from_str(&backups).unwrap_or_else(|_| panic!("{err}"));
    let strip = |v: &serde_json::Value| -> Vec<(String, String)> {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["rule"].to_string(), f["message"].to_string()))
            .collect()
    };
    assert_eq!(strip(&json), strip(&backups));
    // The goldens against their fabric: no drift.
    let (_, out, err) = fabric(&[
        "audit",
        "fabrics/vcf-bitfusion.yaml",
        "--running",
        "golden/vcf-bitfusion",
    ]);
    assert!(!out.contains("R036"), "{out}{err}");
    // A backup of the other OS than the fabric says is refused by name.
    let (code, _, err) = fabric(&[
        "audit",
        "fabrics/vcf-bitfusion.yaml",
        "--switch",
        "leaf-a",
        "--running",
        "golden/ml-cluster/leaf01.cfg",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("runs OS10, but its running config is an Onyx one"),
        "{err}"
    );
    // `fabric validate` audits OS10 switches too: no note that it skipped them.
    let (_, out, err) = fabric(&["validate", "fabrics/vcf-bitfusion.yaml"]);
    assert!(
        !format!("{out}{err}").contains("does not yet run on OS10"),
        "{out}{err}"
    );
}

/// `--lab`: the fabric's OS10 switches read live, in their own session, read-only. Pushed,
/// they audit as the compiled fabric does, with no drift and nothing unsaved; a switch booted
/// from a saved configuration with a RoCE port at MTU 1500 shows that port and the drift.
#[test]
fn the_live_audit_reads_os10_switches_in_their_own_session() {
    let dir = crate::scratch("audit-os10-live");
    let path = dir.join("vcf-bitfusion.yaml");
    std::fs::copy(crate::root().join("fabrics/vcf-bitfusion.yaml"), &path).unwrap();
    let run = |args: &[&str]| crate::cli::fabric(args, &dir);
    let (code, out, err) = run(&["push", "vcf-bitfusion.yaml", "--lab", "--yes"]);
    assert_eq!(code, 0, "{out}{err}");
    let rules = |out: &str| -> Vec<(String, String)> {
        let json: serde_json::Value = serde_json::from_str(out).unwrap();
        json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["rule"].as_str().unwrap().to_string(),
                    f["switch"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    let live = [
        "audit",
        "vcf-bitfusion.yaml",
        "--lab",
        "--format",
        "json",
        "--fail-on",
        "never",
    ];
    let (code, out, err) = run(&live);
    assert_eq!(code, 0, "{err}");
    let (_, compiled, _) = run(&[
        "audit",
        "vcf-bitfusion.yaml",
        "--format",
        "json",
        "--fail-on",
        "never",
    ]);
    assert_eq!(rules(&out), rules(&compiled), "{out}");
    let log = std::fs::read_to_string(dir.join(".fabric/lab/leaf-a/commands.log")).unwrap();
    crate::lab_ssh::assert_read_only(
        log.lines()
            .rev()
            .take_while(|l| !l.ends_with("\twrite memory")),
    );

    let saved = dir.join(".fabric/lab/leaf-a/startup-configuration.cfg");
    let text = std::fs::read_to_string(&saved).unwrap();
    let port = text.find("interface ethernet1/1/9\n").unwrap();
    let at = port + text[port..].find(" mtu 9216\n").unwrap();
    std::fs::write(
        &saved,
        format!("{} mtu 1500\n{}", &text[..at], &text[at + 10..]),
    )
    .unwrap();
    let (_, out, err) = run(&live);
    let found = rules(&out);
    for rule in ["R008", "R036"] {
        assert!(
            found.contains(&(rule.to_string(), "leaf-a".to_string())),
            "{rule}: {out}{err}"
        );
    }
    assert!(
        !found.iter().any(|(r, s)| r == "R036" && s == "leaf-b"),
        "{out}"
    );
}

#[test]
fn os10_drift_is_a_finding_with_its_os10_fix() {
    let tmp = crate::scratch("audit-os10-drift");
    let text = std::fs::read_to_string(crate::root().join("golden/vcf-bitfusion/leaf-a.cfg"))
        .unwrap()
        .replacen(
            "interface ethernet1/1/9\n description gpu-01:vmnic2\n no shutdown\n switchport access vlan 100\n mtu 9216\n",
            "interface ethernet1/1/9\n description gpu-01:vmnic2\n no shutdown\n switchport access vlan 100\n mtu 1500\n",
            1,
        );
    assert!(text.contains(" mtu 1500\n"));
    std::fs::write(tmp.join("leaf-a.cfg"), text).unwrap();
    let (code, out, err) = fabric(&[
        "audit",
        "fabrics/vcf-bitfusion.yaml",
        "--switch",
        "leaf-a",
        "--running",
        tmp.join("leaf-a.cfg").to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("R036 (drift-from-fabric): interface ethernet1/1/9 differs from the fabric"),
        "{out}"
    );
    assert!(out.contains("       mtu 9216"), "{out}");
    assert!(
        out.contains("R008 (roce-port-mtu-below-9216): ethernet1/1/9:"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// On OS10 too a drifted RoCE port gets one fix, R036's block that brings it to the fabric's
/// MTU; R008 reports the port without a command of its own.
#[test]
fn an_os10_drifted_port_gets_one_fix_the_fabrics() {
    let tmp = crate::scratch("audit-os10-one-fix");
    let port = "interface ethernet1/1/9\n description gpu-01:vmnic2\n no shutdown\n switchport access vlan 100\n";
    let text = std::fs::read_to_string(crate::root().join("golden/vcf-bitfusion/leaf-a.cfg"))
        .unwrap()
        .replacen(
            &format!("{port} mtu 9216\n"),
            &format!("{port} mtu 9000\n"),
            1,
        );
    assert!(text.contains(" mtu 9000\n"));
    std::fs::write(tmp.join("leaf-a.cfg"), text).unwrap();
    let (code, out, err) = fabric(&[
        "audit",
        "fabrics/vcf-bitfusion.yaml",
        "--switch",
        "leaf-a",
        "--running",
        tmp.join("leaf-a.cfg").to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{err}");
    let found = crate::audit::lines_on(&out, "ethernet1/1/9");
    assert!(found.contains(&("R008".into(), None)), "{found:?}");
    let fixes: Vec<&str> = found.iter().filter_map(|(_, l)| l.as_deref()).collect();
    assert_eq!(
        fixes,
        ["interface ethernet1/1/9\n mtu 9216\n exit"],
        "{found:?}"
    );
}

#[test]
fn a_mixed_fabric_is_audited_across_its_onyx_and_os10_ends() {
    let dir = crate::scratch("audit-os10-mixed");
    std::fs::write(dir.join("mixed.yaml"), crate::target::MIXED).unwrap();
    let run = |yaml: &str| {
        std::fs::write(dir.join("mixed.yaml"), yaml).unwrap();
        let path = dir.join("mixed.yaml");
        fabric(&["audit", path.to_str().unwrap(), "--format", "json"])
    };
    let (code, out, err) = run(crate::target::MIXED);
    assert_eq!(code, 0, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let worst: Vec<&str> = json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(worst, Vec::<&str>::new(), "{out}");
    // Running configs of both OSes against the fabric, the OS10 end of the cable at MTU
    // 9000: the cable's ends disagree, each named as its own OS names it, and the drift is
    // an OS10 command.
    let path = dir.join("mixed.yaml");
    let out_dir = dir.join("configs");
    let (code, out, err) = fabric(&[
        "compile",
        path.to_str().unwrap(),
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let leaf = out_dir.join("mixed/leaf01.cfg");
    let text = std::fs::read_to_string(&leaf).unwrap();
    let at = text.find("interface ethernet1/1/53\n").unwrap();
    let mtu = at + text[at..].find(" mtu 9216\n").unwrap();
    std::fs::write(
        &leaf,
        format!("{} mtu 9000\n{}", &text[..mtu], &text[mtu + 10..]),
    )
    .unwrap();
    let configs = out_dir.join("mixed");
    let (code, out, err) = fabric(&[
        "audit",
        path.to_str().unwrap(),
        "--running",
        configs.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("ethernet1/1/53: MTU 9000, but the other end (spine01 ethernet 1/1) has 9216"),
        "{out}"
    );
    assert!(
        out.contains("ethernet 1/1: MTU 9216, but the other end (leaf01 ethernet1/1/53) has 9000"),
        "{out}"
    );
    assert!(
        out.contains("R036 (drift-from-fabric): interface ethernet1/1/53 differs from the fabric"),
        "{out}"
    );
}

#[test]
fn host_scripts_read_the_os10_switch_ports() {
    let (code, out, err) = fabric(&["hosts", "fabrics/vcf-bitfusion.yaml"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("#   vmnic2 <-> leaf-a ethernet1/1/9 (MTU 9216)\n"),
        "{out}"
    );
    // A VLT port-channel member's QoS is its port-channel's: PFC on priority 3.
    assert!(
        out.contains("#   vmnic0 <-> leaf-a ethernet1/1/1 (MTU 9216)\n"),
        "{out}"
    );
    assert!(
        out.contains("# RoCE: DSCP 26 (ToS 106) -> switch priority 3; PFC on priority 3;"),
        "{out}"
    );
    assert!(out.contains("pfctx=0x08 pfcrx=0x08 trust_state=2"), "{out}");
}
