//! Audit rules on fixtures (`tests/fixtures/audit/`): `good.cfg` (a RoCE port as the
//! reference guide configures it, with PFC), `good-lossy.cfg` (the lossy profile's),
//! `good-fabric/` (two switches cabled to each other), `good-routed/` (a leaf and a spine over
//! two routed uplinks) and `good-mlag/` (an MLAG pair) pass every rule; `RNNN.cfg`, or the
//! switches of `RNNN/`, break rule RNNN. The reference golden, Onyx's `roce lossless`
//! defaults and the `roce` mode have no error finding; every capture of the corpus is audited
//! (findings snapshotted), the Cray CSM MLAG spines also as a pair, and the routed goldens of
//! `golden/ml-cluster` have no routing finding; BGP sessions and MLAG pairs are judged from
//! both ends; the outputs (SARIF against the 2.1.0 schema, JUnit, JSON), the drift findings
//! against a fabric, and the live audit (only `show` commands, from the lab's log) through
//! the binary.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fabric::audit::{self, Input, Profile, RULES, Severity, Switch};

fn fixtures() -> PathBuf {
    crate::root().join("tests/fixtures/audit")
}

/// Audits a config file, or every `*.cfg` of a folder as one fabric (links from
/// descriptions), as `fabric audit --running` does.
fn audit_path(path: &Path, profile: Profile) -> Vec<audit::Finding> {
    if path.is_dir() {
        return audit_texts(edited(path, &[]), profile);
    }
    let text = std::fs::read_to_string(path).unwrap();
    audit_texts([(path.to_path_buf(), text)], profile)
}

/// Audits configs (each file's path and text) together, as one fabric.
fn audit_texts(
    configs: impl IntoIterator<Item = (PathBuf, String)>,
    profile: Profile,
) -> Vec<audit::Finding> {
    let switches = switches(configs);
    let links = audit::links_from_descriptions(&switches);
    audit::audit(&Input {
        switches,
        links,
        profile,
    })
}

/// Each config as a switch named by its config, else by its file name.
fn switches(configs: impl IntoIterator<Item = (PathBuf, String)>) -> BTreeMap<String, Switch> {
    configs
        .into_iter()
        .map(|(f, text)| {
            let c = fabric::onyx::parse(&text).unwrap();
            let name = c.name().map_or_else(
                || f.file_stem().unwrap().to_string_lossy().into_owned(),
                str::to_string,
            );
            (name, Switch::new(c))
        })
        .collect()
}

/// A folder's files, sorted, each with its text, replaced where `edit` (file name, text,
/// replacement) says.
fn edited(dir: &Path, edit: &[(&str, &str, &str)]) -> Vec<(PathBuf, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let mut text = std::fs::read_to_string(&f).unwrap();
            for (file, from, to) in edit {
                if f.file_name().is_some_and(|n| n == *file) {
                    assert!(text.contains(from), "{file}: no `{from}`");
                    text = text.replace(from, to);
                }
            }
            (f, text)
        })
        .collect()
}

/// Rules whose failing case needs more than a config: their tests.
const ELSEWHERE: &[(&str, &str)] = &[
    (
        "R027",
        "lab_ssh::live_audit_finds_unsaved_changes_and_only_reads",
    ),
    ("R036", "drift_from_the_fabric_is_a_finding_with_its_fix"),
];

/// The first routing, LAG and MLAG rule. Their fixtures break their rule alone; the fixtures
/// of the rules before may break a neighbouring rule too.
const ROUTING_FROM: &str = "R037";

#[test]
fn every_rule_passes_the_good_configs_and_fails_its_fixture() {
    assert!(RULES.len() >= 30, "{} rules", RULES.len());
    let dir = fixtures();
    for (good, profile) in [
        ("good.cfg", Profile::RoceLossless),
        ("good-lossy.cfg", Profile::RoceLossy),
        ("good-fabric", Profile::RoceLossless),
        // A leaf and a spine over two routed uplinks (eBGP, ECMP), and an MLAG pair as
        // NVIDIA's recipe builds it, both carrying RoCE.
        ("good-routed", Profile::RoceLossless),
        ("good-mlag", Profile::RoceLossless),
    ] {
        assert_eq!(audit_path(&dir.join(good), profile), vec![], "{good}");
    }
    for rule in RULES {
        assert!(rule.explain().contains("How to fix"));
        if let Some((_, test)) = ELSEWHERE.iter().find(|(id, _)| *id == rule.id) {
            assert!(!test.is_empty());
            continue;
        }
        let profile = if rule.applies_to(Profile::RoceLossless) {
            Profile::RoceLossless
        } else {
            Profile::RoceLossy
        };
        let path = [dir.join(rule.id), dir.join(format!("{}.cfg", rule.id))]
            .into_iter()
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{}: no fixture", rule.id));
        let found = audit_path(&path, profile);
        assert!(
            found.iter().any(|f| f.rule == rule.id),
            "{}: no {} finding: {found:#?}",
            path.display(),
            rule.id
        );
        if rule.id >= ROUTING_FROM {
            assert!(
                found.iter().all(|f| f.rule == rule.id),
                "{}: other findings than {}: {found:#?}",
                path.display(),
                rule.id
            );
        }
    }
}

#[test]
fn findings_on_consecutive_ports_are_one_range() {
    let mut text = std::fs::read_to_string(fixtures().join("R005.cfg")).unwrap();
    text = text.replace("ethernet 1/1 ", "ethernet 1/1-1/8 ");
    text.push_str("interface ethernet 1/10 qos trust L3\n");
    let config = fabric::onyx::parse(&text).unwrap();
    let input = Input {
        switches: BTreeMap::from([("sw".to_string(), Switch::new(config))]),
        ..Input::default()
    };
    let r005: Vec<_> = audit::audit(&input)
        .into_iter()
        .filter(|f| f.rule == "R005")
        .collect();
    let lines: Vec<_> = r005.iter().map(|f| f.line.clone().unwrap()).collect();
    assert_eq!(
        lines,
        [
            "interface ethernet 1/1-1/8 dcb priority-flow-control mode on force",
            "interface ethernet 1/10 dcb priority-flow-control mode on force"
        ]
    );
    assert_eq!(r005[0].interfaces.as_deref(), Some("ethernet 1/1-1/8"));
}

fn errors(findings: Vec<audit::Finding>) -> Vec<audit::Finding> {
    findings
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

#[test]
fn the_reference_and_onyx_roce_defaults_have_no_error() {
    let golden = crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg");
    assert_eq!(errors(audit_path(&golden, Profile::RoceLossless)), vec![]);
    for f in ["roce-lossless-defaults.cfg", "roce-mode.cfg"] {
        assert_eq!(
            errors(audit_path(&fixtures().join(f), Profile::RoceLossless)),
            vec![],
            "{f}"
        );
    }
    // The guide's lossless pool without PFC lines: a warning that says what to check.
    let r011 = rule_findings(&golden, "R011");
    assert_eq!(r011[0].severity, Severity::Warning);
    assert!(
        audit::rule("R011")
            .unwrap()
            .what
            .contains("Onyx User Manual")
    );
}

fn rule_findings(path: &Path, id: &str) -> Vec<audit::Finding> {
    audit_path(path, Profile::RoceLossless)
        .into_iter()
        .filter(|f| f.rule == id)
        .collect()
}

/// Every file of the corpus that parses, audited; the findings of each capture snapshotted
/// (a capture added later is audited without a snapshot until one is reviewed in).
#[test]
fn every_capture_is_audited() {
    let mut audited = 0;
    let snapshots = crate::root().join("tests/snapshots");
    for path in crate::corpus_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(config) = fabric::onyx::parse(&text) else {
            continue;
        };
        // Snapshots only for configurations (not `show` outputs that parse as empty ones).
        let configuration = path.extension().is_some_and(|e| e == "cfg")
            && (config.hostname.is_some() || !config.interfaces.is_empty());
        let input = Input {
            switches: BTreeMap::from([("switch".to_string(), Switch::new(config))]),
            ..Input::default()
        };
        let findings = audit::audit(&input);
        audited += 1;
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let snapshot = format!("suite__audit__corpus@{name}.snap");
        if configuration
            && (snapshots.join(&snapshot).exists() || std::env::var_os("INSTA_UPDATE").is_some())
        {
            let listing: String = findings
                .iter()
                .map(|f| {
                    format!(
                        "{} {} {}\n    {}\n",
                        f.severity,
                        f.rule,
                        f.message,
                        f.line.as_deref().unwrap_or("-")
                    )
                })
                .collect();
            insta::with_settings!({ snapshot_suffix => name, prepend_module_to_snapshot => true }, {
                insta::assert_snapshot!("corpus", listing);
            });
        }
    }
    assert!(audited > 0);
}

/// The routing, LAG and MLAG rules (R037 on).
fn routing_rule(f: &audit::Finding) -> bool {
    f.rule >= ROUTING_FROM
}

/// `(switch, rule, message, line)` of each finding, for comparing.
fn listing(findings: &[audit::Finding]) -> Vec<(String, &'static str, String, Option<String>)> {
    findings
        .iter()
        .map(|f| (f.switch.clone(), f.rule, f.message.clone(), f.line.clone()))
        .collect()
}

/// A session, a cable or a pair is judged from both ends: each finding is on a switch whose
/// configuration is wrong, and points at its line (the line shown, when the file has it).
#[test]
fn routing_findings_are_on_the_side_at_fault_and_at_its_line() {
    for (fixture, at_fault) in [
        ("R037", &["r1"][..]),
        ("R038", &["r2"]),
        ("R040", &["r1", "r2"]),
        ("R041", &["r1", "r2"]),
        ("R043", &["r1", "r2"]),
        ("R044", &["r1", "r2"]),
        ("R045", &["mlag-1", "mlag-2"]),
        ("R046", &["mlag-1", "mlag-2"]),
        ("R050", &["r1"]),
    ] {
        let path = format!("tests/fixtures/audit/{fixture}");
        let (_, out) = fabric(&["audit", "--running", &path, "--format", "json"]);
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let findings = json["findings"].as_array().unwrap();
        let switches: std::collections::BTreeSet<&str> = findings
            .iter()
            .map(|f| f["switch"].as_str().unwrap())
            .collect();
        assert_eq!(switches.into_iter().collect::<Vec<_>>(), at_fault, "{out}");
        for f in findings {
            let (Some(line), Some(n)) = (f["line"].as_str(), f["location"]["line"].as_u64()) else {
                continue;
            };
            let file = f["location"]["file"].as_str().unwrap();
            let text = std::fs::read_to_string(crate::root().join(file)).unwrap();
            if text.lines().any(|l| l.trim() == line) {
                let at = text.lines().nth(n as usize - 1).unwrap().trim();
                assert_eq!(at, line, "{fixture}: {f}");
            }
        }
    }
}

/// How fast a session notices a dead link is judged from both ends (R050): the end without
/// BFD is at fault, with the line it lacks (`protocol bfd` where the neighbor is watched but
/// BFD does not run); a hold time of 9 s or less at either end is fast enough for both
/// (the smaller one is agreed); a session that no cable carries is not judged.
#[test]
fn failure_detection_is_judged_from_both_ends_of_a_session() {
    let dir = fixtures().join("R050");
    let lossless = Profile::RoceLossless;
    let found = audit_texts(edited(&dir, &[]), lossless);
    assert_eq!(
        listing(&found),
        [(
            "r1".to_string(),
            "R050",
            "the BGP session with 10.0.0.1 (r2) over a cable notices a dead link only after its 180 s hold time: no BFD watches it here".to_string(),
            Some("router bgp 65001 vrf default neighbor 10.0.0.1 fall-over bfd".to_string())
        )]
    );
    let watched = (
        "r1.cfg",
        "remote-as 65002
",
        "remote-as 65002
router bgp 65001 vrf default neighbor 10.0.0.1 fall-over bfd
",
    );
    let found = audit_texts(edited(&dir, &[watched]), lossless);
    assert_eq!(
        found.iter().map(|f| f.line.as_deref()).collect::<Vec<_>>(),
        [Some("protocol bfd")]
    );
    let on = (
        "r1.cfg",
        "protocol bgp
",
        "protocol bfd
protocol bgp
",
    );
    assert_eq!(audit_texts(edited(&dir, &[watched, on]), lossless), vec![]);
    // r2 drops BFD: both ends are at fault; short timers on r2 make both fast.
    let off = (
        "r2.cfg",
        "protocol bfd
",
        "",
    );
    let found = audit_texts(edited(&dir, &[off]), lossless);
    assert_eq!(
        found.iter().map(|f| f.switch.as_str()).collect::<Vec<_>>(),
        ["r1", "r2"]
    );
    let timers = (
        "r2.cfg",
        "fall-over bfd
",
        "fall-over bfd
router bgp 65002 vrf default neighbor 10.0.0.0 timers 3 9
",
    );
    assert_eq!(audit_texts(edited(&dir, &[off, timers]), lossless), vec![]);
    let slow = (
        "r2.cfg",
        "fall-over bfd
",
        "fall-over bfd
router bgp 65002 vrf default neighbor 10.0.0.0 timers 10 30
",
    );
    let found = audit_texts(edited(&dir, &[off, slow]), lossless);
    assert!(
        found.len() == 2
            && found
                .iter()
                .all(|f| f.message.contains("its 30 s hold time")),
        "{found:#?}"
    );
    // Without the cable's address, the neighbor is no session over a cable.
    let no_cable = (
        "r1.cfg",
        "interface ethernet 1/1 ip address 10.0.0.0/31 primary
",
        "",
    );
    let found = audit_texts(edited(&dir, &[off, no_cable]), lossless);
    assert_eq!(
        found
            .iter()
            .filter(|f| f.rule == "R050")
            .map(|f| (f.switch.as_str(), f.line.as_deref()))
            .collect::<Vec<_>>(),
        [("r2", Some("protocol bfd"))]
    );
}

/// BGP sessions between audited switches, end to end: the half that is missing, a switch
/// that runs no BGP, a remote-as wrong at both ends, and sessions between loopbacks.
#[test]
fn bgp_sessions_are_checked_from_both_ends() {
    let dir = fixtures().join("R037");
    let lossless = Profile::RoceLossless;
    let fixed = ("r1.cfg", "remote-as 65099", "remote-as 65002");
    assert_eq!(audit_texts(edited(&dir, &[fixed]), lossless), vec![]);
    // r2 has no neighbor back: the line it lacks, on r2.
    let no_neighbor = (
        "r2.cfg",
        "router bgp 65002 vrf default neighbor 10.0.0.0 remote-as 65001\n",
        "",
    );
    let found = audit_texts(edited(&dir, &[fixed, no_neighbor]), lossless);
    assert_eq!(
        listing(&found),
        [(
            "r2".to_string(),
            "R038",
            "r1 (AS 65001) peers with this switch's ethernet 1/1 address 10.0.0.1 from 10.0.0.0 (r1 ethernet 1/1), but this switch has no neighbor 10.0.0.0".to_string(),
            Some("router bgp 65002 vrf default neighbor 10.0.0.0 remote-as 65001".to_string())
        )]
    );
    // r2 runs no BGP at all: the same line, with the AS r1 expects of it.
    let mut no_bgp = edited(&dir, &[fixed]);
    no_bgp[1].1 = no_bgp[1]
        .1
        .lines()
        .filter(|l| !l.contains("bgp"))
        .map(|l| format!("{l}\n"))
        .collect();
    let found = audit_texts(no_bgp, lossless);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!((found[0].switch.as_str(), found[0].rule), ("r2", "R038"));
    assert!(found[0].message.ends_with("but this switch runs no BGP"));
    assert_eq!(
        found[0].line.as_deref(),
        Some("router bgp 65002 vrf default neighbor 10.0.0.0 remote-as 65001")
    );
    // Both remote-as wrong: each end at its own line.
    let both = ("r2.cfg", "remote-as 65001", "remote-as 65098");
    let found = audit_texts(edited(&dir, &[both]), lossless);
    let lines: Vec<_> = found
        .iter()
        .map(|f| (f.rule, f.line.clone().unwrap()))
        .collect();
    assert_eq!(
        lines,
        [
            (
                "R037",
                "router bgp 65001 vrf default neighbor 10.0.0.1 remote-as 65099".to_string()
            ),
            (
                "R037",
                "router bgp 65002 vrf default neighbor 10.0.0.0 remote-as 65098".to_string()
            )
        ]
    );
    // Between loopbacks (no shared subnet), each naming the other's: one session, complete.
    let loopbacks = |me: &str, peer: &str, asn: u32, remote: u32| {
        format!(
            "hostname r{me}\nip routing vrf default\ninterface loopback 0 ip address 10.255.0.{me}/32 primary\nprotocol bgp\nrouter bgp {asn} vrf default\nrouter bgp {asn} vrf default neighbor 10.255.0.{peer} remote-as {remote}\n"
        )
    };
    let pair = [
        (PathBuf::from("r1.cfg"), loopbacks("1", "2", 65001, 65002)),
        (PathBuf::from("r2.cfg"), loopbacks("2", "1", 65002, 65001)),
    ];
    assert_eq!(audit_texts(pair.clone(), lossless), vec![]);
    let one_sided = [
        pair[0].clone(),
        (
            PathBuf::from("r2.cfg"),
            pair[1]
                .1
                .replace("neighbor 10.255.0.1", "neighbor 10.255.0.9"),
        ),
    ];
    let found = audit_texts(one_sided, lossless);
    assert_eq!(
        found
            .iter()
            .map(|f| (f.switch.as_str(), f.rule))
            .collect::<Vec<_>>(),
        [("r2", "R038")]
    );
}

/// Two MLAG pairs that reuse one IPL subnet (as NVIDIA's examples all do): each switch is
/// paired with the switch that names it back, the IPL addresses are not duplicates across
/// pairs, and a fault in one pair is found in that pair only.
#[test]
fn mlag_pairs_reusing_one_ipl_subnet_are_told_apart() {
    let good = edited(&fixtures().join("good-mlag"), &[]);
    let second = |text: &str| {
        text.replace("mlag-1", "mlag-3")
            .replace("mlag-2", "mlag-4")
            .replace("00:00:5E:00:01:5D", "00:00:5E:00:01:5E")
            .replace("rack-1 ip 192.0.2.10", "rack-2 ip 192.0.2.11")
    };
    let mut four = good.clone();
    four.extend(good.iter().map(|(f, t)| {
        let name = second(&f.file_name().unwrap().to_string_lossy());
        (f.with_file_name(name), second(t))
    }));
    assert_eq!(audit_texts(four.clone(), Profile::RoceLossless), vec![]);
    four[3].1 = four[3].1.replace("00:00:5E:00:01:5E", "00:00:5E:00:01:5F");
    let found = audit_texts(four, Profile::RoceLossless);
    let got: Vec<(&str, &str)> = found.iter().map(|f| (f.switch.as_str(), f.rule)).collect();
    assert_eq!(got, [("mlag-3", "R045"), ("mlag-4", "R045")]);
}

/// The routed leaf-spine the format compiles (`golden/ml-cluster`: eBGP on /31s, ECMP over
/// 8 uplinks per leaf) has no routing, LAG or MLAG finding, from its goldens (32 cables read
/// from descriptions) or from its fabric file; and the rules do read it: one remote-as
/// changed on leaf01 is found there.
#[test]
fn the_routed_goldens_have_no_routing_finding() {
    let dir = crate::root().join("golden/ml-cluster");
    let findings = audit_path(&dir, Profile::RoceLossless);
    let routing: Vec<_> = findings.iter().filter(|f| routing_rule(f)).collect();
    assert_eq!(routing, Vec::<&audit::Finding>::new());
    let switches = switches(edited(&dir, &[]));
    assert_eq!(audit::links_from_descriptions(&switches).len(), 32);
    let wrong = (
        "leaf01.cfg",
        "neighbor 10.254.0.192 remote-as 65000",
        "neighbor 10.254.0.192 remote-as 65001",
    );
    let found = audit_texts(edited(&dir, &[wrong]), Profile::RoceLossless);
    let routing: Vec<_> = found
        .iter()
        .filter(|f| routing_rule(f))
        .map(|f| (f.switch.as_str(), f.rule))
        .collect();
    assert_eq!(routing, [("leaf01", "R037")]);
    let (code, out) = fabric(&["audit", "fabrics/ml-cluster.yaml", "--format", "json"]);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    for f in json["findings"].as_array().unwrap() {
        assert!(f["rule"].as_str().unwrap() < ROUTING_FROM, "{f}");
    }
}

/// The Cray CSM MLAG spines (`sw-spine-001`, `sw-spine-002`), audited together. Their PFC is
/// NVIDIA's MLAG recipe (global PFC on no priority, PFC mode on the IPL port-channel, no
/// RoCE anywhere): nothing is flagged for it. The pair is recognised and complete (IPL
/// 1.2.0.1/30 and 1.2.0.2/30 naming each other, one system MAC, MLAG port-channels 1-9 and 15
/// alike, IP routing, PFC on the IPL): a different system MAC, or a VLAN missing on one
/// MLAG port-channel, would be found. What remains is true: ports in use without a
/// description (1/2-1/9 of sw-spine-002 are shut down).
#[test]
fn the_cray_mlag_pair_has_only_true_findings() {
    let corpus = crate::shared().join("corpus/onyx");
    let spines: Vec<(PathBuf, String)> = ["001", "002"]
        .iter()
        .map(|n| {
            let f = corpus.join(format!(
                "cray-docs-csm__hpcm_switch_conf_spine_{n}__3.9.3210.cfg"
            ));
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect();
    let found = audit_texts(spines.clone(), Profile::RoceLossless);
    let got: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|f| (f.switch.as_str(), f.rule, f.message.as_str()))
        .collect();
    let bare = "is configured and up but has no description";
    assert_eq!(
        got,
        [
            (
                "sw-spine-001",
                "R026",
                &*format!("ethernet 1/1-1/9: {bare}")
            ),
            ("sw-spine-001", "R026", &format!("ethernet 1/15: {bare}")),
            ("sw-spine-002", "R026", &format!("ethernet 1/1: {bare}")),
            ("sw-spine-002", "R026", &format!("ethernet 1/10: {bare}")),
            ("sw-spine-002", "R026", &format!("ethernet 1/15: {bare}")),
        ]
    );
    for (from, to, rule) in [
        (
            "mlag system-mac 00:00:5E:00:01:5D",
            "mlag system-mac 00:00:5E:00:01:5E",
            "R045",
        ),
        (
            "interface mlag-port-channel 15 switchport hybrid allowed-vlan add 4091\n",
            "",
            "R046",
        ),
    ] {
        let mut pair = spines.clone();
        pair[1].1 = pair[1].1.replace(from, to);
        let found = audit_texts(pair, Profile::RoceLossless);
        let switches: Vec<&str> = found
            .iter()
            .filter(|f| f.rule == rule)
            .map(|f| f.switch.as_str())
            .collect();
        assert_eq!(switches, ["sw-spine-001", "sw-spine-002"], "{rule}");
    }
}

fn fabric(args: &[&str]) -> (i32, String) {
    crate::run(
        std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
            .current_dir(crate::root())
            .args(args),
    )
}

#[test]
fn audit_exit_codes_profiles_and_explain() {
    let (code, out) = fabric(&["audit", "--running", "tests/fixtures/audit/R005.cfg"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error R005 (port-pfc-mode-missing)"), "{out}");
    assert!(out.contains("      interface ethernet 1/1 dcb priority-flow-control mode on force\n"));
    assert!(out.contains("--> tests/fixtures/audit/R005.cfg:"), "{out}");
    assert_eq!(fabric(&["audit", "--running", "golden/rdg-roce-dscp"]).0, 0);
    let strict = [
        "audit",
        "--running",
        "golden/rdg-roce-dscp",
        "--fail-on",
        "warning",
    ];
    assert_eq!(fabric(&strict).0, 1);
    // The same switch, lossy by design: PFC findings only under the lossy profile.
    let pfc = ["audit", "--running", "tests/fixtures/audit/good.cfg"];
    assert_eq!(fabric(&pfc).0, 0);
    let (code, out) = fabric(
        &[
            &pfc[..],
            &["--profile", "roce-lossy", "--fail-on", "warning"],
        ]
        .concat(),
    );
    assert_eq!(code, 1);
    assert!(out.contains("R023"), "{out}");
    let (code, out) = fabric(&["explain", "R003"]);
    assert_eq!(code, 0);
    assert!(out.contains("Why it matters"), "{out}");
    let (code, out) = fabric(&["explain", "R999"]);
    assert_eq!(code, 2);
    assert!(out.contains("no rule, check or code `R999`"), "{out}");
    let (code, out) = fabric(&["audit"]);
    assert_eq!(code, 2, "{out}");
}

#[test]
fn json_sarif_and_junit_outputs() {
    let args = [
        "audit",
        "--running",
        "tests/fixtures/audit/R031",
        "--running",
        "tests/fixtures/audit/R005.cfg",
    ];
    let (code, out) = fabric(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["profile"], "roce-lossless");
    assert_eq!(json["switches"][0]["name"], "R005");
    assert_eq!(json["switches"][0]["score"], 79); // R005 (20) and R026 (1)
    let f = &json["findings"][0];
    assert_eq!(f["rule"], "R005");
    assert_eq!(f["interfaces"], "ethernet 1/1");
    assert_eq!(f["location"]["file"], "tests/fixtures/audit/R005.cfg");
    assert!(f["location"]["line"].as_u64().unwrap() > 0);

    let (code, out) = fabric(&[&args[..], &["--format", "sarif"]].concat());
    assert_eq!(code, 1);
    let sarif: serde_json::Value = serde_json::from_str(&out).unwrap();
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(crate::root().join("tests/fixtures/sarif-schema-2.1.0.json"))
            .unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(false)
        .build(&schema)
        .unwrap();
    let problems: Vec<String> = validator
        .iter_errors(&sarif)
        .map(|e| e.to_string())
        .collect();
    assert_eq!(problems, Vec::<String>::new());
    // The schema check can fail: a result without its message is refused.
    let mut broken = sarif.clone();
    broken["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&broken));
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 4); // R031 on both ends, R005, R026
    let speed = results.iter().find(|r| r["ruleId"] == "R031").unwrap();
    let loc = &speed["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "tests/fixtures/audit/R031/leaf-1.cfg"
    );
    assert!(loc["region"]["startLine"].as_u64().unwrap() > 0);
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap();
    assert_eq!(rules.len(), RULES.len() + fabric::hosts::HOST_RULES.len());

    let (code, out) = fabric(&[&args[..], &["--format", "junit"]].concat());
    assert_eq!(code, 1);
    assert!(out.starts_with("<?xml"), "{out}");
    assert_eq!(out.matches("<testsuite ").count(), 3);
    assert_eq!(out.matches("<failure ").count(), 3, "{out}");
    assert!(out.contains("<testcase classname=\"leaf-1\" name=\"R031 link-speed-mismatch\">"));
}

#[test]
fn a_fabric_is_audited_before_deployment_and_by_validate() {
    let dir = crate::scratch("audit-predeploy");
    let fab = dir.join("f.yaml");
    let text = std::fs::read_to_string(crate::root().join("fabrics/ml-cluster.yaml")).unwrap();
    // Ports opted out of PFC mode: ECN and trust from the preset, global PFC on.
    std::fs::write(
        &fab,
        text.replace(
            "port_defaults:\n",
            "port_defaults:\n  pfc: false          # every port opts out of PFC mode\n",
        ),
    )
    .unwrap();
    let f = fab.to_str().unwrap();
    let (code, out) = fabric(&["audit", f]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error R005 (port-pfc-mode-missing): ethernet 1/1/1-1/1/4:"),
        "{out}"
    );
    assert!(out.contains(&format!("--> {f}:")), "{out}");
    let (code, out) = fabric(&["validate", f]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("R005"), "{out}");
    for shipped in crate::fabrics() {
        let (code, out) = fabric(&["validate", shipped.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}");
    }
}

/// `fabric audit FABRIC` checks the configs with the fabric's links: one end of a
/// leaf-spine cable marking ECN at other thresholds is found at both ends. A fabric that says
/// so is E051 when validated (the cable pauses that class), so the difference is a running
/// config's (`--running`), as drift on a live switch would be.
#[test]
fn a_fabric_audit_reads_the_fabrics_links() {
    let dir = crate::scratch("audit-links");
    for entry in std::fs::read_dir(crate::root().join("golden/ml-cluster")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
    }
    let leaf = dir.join("leaf01.cfg");
    let text = std::fs::read_to_string(&leaf).unwrap();
    let line = "   interface ethernet 1/9-1/32 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500\n";
    assert!(text.contains(line));
    let drifted = line.replace("1/9-1/32", "1/9-1/24")
        + &line
            .replace("1/9-1/32", "1/25")
            .replace("150 ", "100 ")
            .replace("1500", "1000")
        + &line.replace("1/9-1/32", "1/26-1/32");
    std::fs::write(&leaf, text.replace(line, &drifted)).unwrap();
    let running = dir.to_str().unwrap();
    let (code, out) = fabric(&["audit", "fabrics/ml-cluster.yaml", "--running", running]);
    assert_eq!(code, 1, "drift: {out}");
    for end in [
        "warning R032 (link-ecn-mismatch): ethernet 1/25: ECN tc 3 ecn minimum-absolute 100",
        "warning R032 (link-ecn-mismatch): ethernet 1/1: ECN tc 3 ecn minimum-absolute 150",
    ] {
        assert!(out.contains(end), "{out}");
    }
}

#[test]
fn drift_from_the_fabric_is_a_finding_with_its_fix() {
    let dir = crate::scratch("audit-drift");
    let golden =
        std::fs::read_to_string(crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg"))
            .unwrap();
    let drifted = golden.replace(
        "interface ethernet 1/1-1/32 qos trust L3",
        "interface ethernet 1/1-1/4 qos trust L3\n   interface ethernet 1/6-1/32 qos trust L3",
    );
    std::fs::write(dir.join("swx-mld-1-2.cfg"), drifted).unwrap();
    let running = dir.to_str().unwrap();
    let (code, out) = fabric(&["audit", "fabrics/rdg-roce-dscp.yaml", "--running", running]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "error R036 (drift-from-fabric): interface ethernet 1/5 differs from the fabric"
        ),
        "{out}"
    );
    assert!(
        out.contains("      interface ethernet 1/5 qos trust L3\n"),
        "{out}"
    );
    assert!(out.contains("R006"), "{out}");
    std::fs::write(dir.join("swx-mld-1-2.cfg"), &golden).unwrap();
    let (code, out) = fabric(&["audit", "fabrics/rdg-roce-dscp.yaml", "--running", running]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("R036"), "{out}");
}

/// The rule and printed line of every finding of a JSON report on one port: the findings
/// with the port as their interfaces, and R036's on the port's drift.
pub fn lines_on(json: &str, port: &str) -> Vec<(String, Option<String>)> {
    let json: serde_json::Value = serde_json::from_str(json).unwrap();
    let drift = format!("interface {port} differs from the fabric");
    json["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["interfaces"].as_str() == Some(port) || f["message"].as_str() == Some(&drift))
        .map(|f| {
            let line = f["line"].as_str().map(str::to_string);
            (f["rule"].as_str().unwrap().to_string(), line)
        })
        .collect()
}

/// A RoCE port drifted to MTU 9000 gets one fix, R036's, which brings it to the fabric: where
/// the fabric says 9216 (`vsphere-mlag`), `mtu 9216 force`; where it leaves the port at
/// Onyx's default (`rdg-roce-dscp`), `no mtu`. R008 (MTU below 9216) still reports the port,
/// without a command of its own that would contradict R036's.
#[test]
fn a_drifted_port_gets_one_fix_the_fabrics() {
    let dir = crate::scratch("audit-one-fix");
    let cases = [
        (
            "vsphere-mlag",
            "tor-a",
            "   interface ethernet 1/1-1/32 mtu 9216 force\n",
            "   interface ethernet 1/1-1/4 mtu 9216 force\n   interface ethernet 1/5 mtu 9000 force\n   interface ethernet 1/6-1/32 mtu 9216 force\n",
            "interface ethernet 1/5 mtu 9216 force",
        ),
        (
            "rdg-roce-dscp",
            "swx-mld-1-2",
            "##\n## LLDP configuration\n",
            "##\n## Interface Ethernet configuration\n##\n   interface ethernet 1/5 mtu 9000 force\n\n##\n## LLDP configuration\n",
            "interface ethernet 1/5 no mtu",
        ),
    ];
    for (fab, sw, from, to, fix) in cases {
        let golden =
            std::fs::read_to_string(crate::root().join(format!("golden/{fab}/{sw}.cfg"))).unwrap();
        assert!(golden.contains(from), "{fab}");
        let running = dir.join(format!("{sw}.cfg"));
        std::fs::write(&running, golden.replacen(from, to, 1)).unwrap();
        let (code, out) = fabric(&[
            "audit",
            &format!("fabrics/{fab}.yaml"),
            "--switch",
            sw,
            "--running",
            running.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(code, 1, "{out}");
        let found = lines_on(&out, "ethernet 1/5");
        assert!(found.contains(&("R008".into(), None)), "{fab}: {found:?}");
        let fixes: Vec<&str> = found.iter().filter_map(|(_, l)| l.as_deref()).collect();
        assert_eq!(fixes, [fix], "{fab}: {found:?}");
    }
}

/// `--lab`: the fabric's switches simulated in-process, read over SSH with `show` commands
/// only (the lab's log says what was sent): a factory switch has drifted from everything.
#[test]
fn lab_audit_reads_only() {
    let dir = crate::scratch("audit-lab");
    let fab = crate::root().join("fabrics/rdg-roce-dscp.yaml");
    let (code, out) = crate::run(
        std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
            .current_dir(&dir)
            .env_remove("FABRIC_PASSWORD")
            .args(["audit", fab.to_str().unwrap(), "--lab"]),
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error R036 (drift-from-fabric): traffic pool roce differs from the fabric"),
        "{out}"
    );
    assert!(
        out.contains("      traffic pool roce type lossless\n"),
        "{out}"
    );
    let log = std::fs::read_to_string(dir.join(".fabric/lab/swx-mld-1-2/commands.log")).unwrap();
    crate::lab_ssh::assert_read_only(log.lines());
}

/// `docs/audit.md` lists every rule as `fabric explain` does (rewritten with
/// `FABRIC_UPDATE_DOCS=1`).
#[test]
fn the_rule_docs_are_current() {
    let path = crate::root().join("docs/audit.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = doc.find("<!-- rules:").unwrap();
    let start = start + doc[start..].find("\n").unwrap() + 1;
    let end = doc.find("<!-- end of rules -->").unwrap();
    let rules = audit::report::rules_markdown();
    if std::env::var_os("FABRIC_UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{rules}{}", &doc[..start], &doc[end..])).unwrap();
    } else {
        assert_eq!(
            doc[start..end],
            rules,
            "docs/audit.md is stale: FABRIC_UPDATE_DOCS=1 cargo test --test suite audit::"
        );
    }
}
