//! Audit rules on fixtures: `tests/fixtures/audit/good.cfg` (a RoCE port configured as the
//! reference guide does, with PFC) passes every rule; `RNNN.cfg` breaks rule RNNN. The
//! reference golden has no error finding; every capture of the corpus is audited without a
//! crash.

use std::collections::BTreeMap;

use fabric::audit::{self, RULES, Severity};

fn read(path: &std::path::Path) -> fabric::onyx::Config {
    fabric::onyx::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn findings(config: fabric::onyx::Config) -> Vec<audit::Finding> {
    audit::audit(&BTreeMap::from([("sw".to_string(), config)]))
}

#[test]
fn every_rule_passes_the_good_config_and_fails_its_fixture() {
    let dir = crate::root().join("tests/fixtures/audit");
    let good = findings(read(&dir.join("good.cfg")));
    assert_eq!(good, vec![], "the good config has findings");
    for rule in RULES {
        let path = dir.join(format!("{}.cfg", rule.id));
        let found = findings(read(&path));
        assert!(
            found.iter().any(|f| f.rule == rule.id),
            "{}: no {} finding: {found:#?}",
            path.display(),
            rule.id
        );
        assert!(!rule.explain().is_empty());
    }
}

#[test]
fn the_reference_configuration_has_no_error_finding() {
    let golden = read(&crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg"));
    let errors: Vec<_> = findings(golden)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert_eq!(errors, vec![]);
}

#[test]
fn every_capture_is_audited() {
    let mut audited = 0;
    let mut stack = vec![crate::shared().join("corpus/onyx")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Ok(config) = fabric::onyx::parse(&text) {
            let _ = findings(config);
            audited += 1;
        }
    }
    assert!(audited > 0);
}

fn fabric(args: &[&str]) -> (i32, String) {
    crate::run(
        std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
            .current_dir(crate::root())
            .args(args),
    )
}

#[test]
fn audit_exit_codes_and_explain() {
    let (code, out) = fabric(&["audit", "--running", "tests/fixtures/audit/R005.cfg"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error R005 (port-pfc-mode-missing)"), "{out}");
    assert!(out.contains("    interface ethernet 1/1 dcb priority-flow-control mode on force\n"));
    assert_eq!(fabric(&["audit", "--running", "golden/rdg-roce-dscp"]).0, 0);
    let strict = [
        "audit",
        "--running",
        "golden/rdg-roce-dscp",
        "--fail-on",
        "warning",
    ];
    assert_eq!(fabric(&strict).0, 1);
    let (code, out) = fabric(&[
        "audit",
        "--running",
        "tests/fixtures/audit/R001.cfg",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(json[0]["rule"], "R001");
    let (code, out) = fabric(&["explain", "R003"]);
    assert_eq!(code, 0);
    assert!(out.contains("Why it matters"), "{out}");
    let (code, out) = fabric(&["explain", "R999"]);
    assert_eq!(code, 2);
    assert!(out.contains("no rule `R999`"), "{out}");
}
