//! Shipped fabrics: each is valid, compiles to exactly its committed golden files, and the
//! reference fabric reproduces the guide's switch session.

use std::collections::BTreeMap;

use fabric::diag::Sources;

use crate::{fabrics, root, shared};

/// Compiles one fabric file to `{switch}.cfg` → text.
fn compile(path: &std::path::Path) -> BTreeMap<String, String> {
    let mut sources = Sources::default();
    let (fabric, diags) = fabric::fabric::read(path, &mut sources).expect("readable");
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.is_empty(),
        "{}:\n{}",
        path.display(),
        fabric::diag::render(&diags, &sources, false)
    );
    fabric::compile::compile(&fabric.expect("valid"))
        .iter()
        .map(|(name, c)| {
            let text = c.render().expect("renders");
            (format!("{name}.cfg"), text)
        })
        .collect()
}

#[test]
fn at_least_four_fabrics_ship() {
    let names: Vec<String> = fabrics()
        .iter()
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(names.len() >= 4, "{names:?}");
    assert!(names.contains(&"rdg-roce-dscp".to_string()));
}

#[test]
fn every_fabric_is_valid_without_warnings() {
    for path in fabrics() {
        let mut sources = Sources::default();
        let (fabric, diags) = fabric::fabric::read(&path, &mut sources).unwrap();
        assert!(
            diags.is_empty(),
            "{}",
            fabric::diag::render(&diags, &sources, false)
        );
        assert!(fabric.is_some());
    }
}

#[test]
fn every_fabric_compiles_to_its_goldens() {
    for path in fabrics() {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = root().join("golden").join(&stem);
        let compiled = compile(&path);
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        assert_eq!(
            on_disk,
            compiled.keys().cloned().collect::<Vec<_>>(),
            "golden files of {stem}"
        );
        for (file, text) in &compiled {
            let golden = std::fs::read_to_string(dir.join(file)).unwrap();
            assert!(
                golden == *text,
                "golden/{stem}/{file} is stale: run `cargo run -- compile fabrics/{stem}.yaml`"
            );
        }
    }
}

#[test]
fn compile_is_deterministic() {
    for path in fabrics() {
        assert_eq!(compile(&path), compile(&path));
    }
}

#[test]
fn goldens_carry_no_timestamp_or_tool_version() {
    for path in fabrics() {
        for text in compile(&path).values() {
            assert!(!text.contains("Generated at"));
            assert!(!text.contains(env!("CARGO_PKG_VERSION")) || !text.contains("fabric"));
        }
    }
}

/// The lines of the guide's session between `show running-config` and the end, without the
/// volatile `Generated at` line, trimmed, blank lines dropped.
fn session_lines() -> Vec<String> {
    let text = std::fs::read_to_string(shared().join("reference/rdg-roce-dscp.switch-session.txt"))
        .expect("the reference session is in tests/fixtures/reference");
    text.lines()
        .skip_while(|l| !l.ends_with("show running-config"))
        .skip(1)
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with("## Generated at"))
        .collect()
}

#[test]
fn reference_golden_holds_every_session_line_in_order() {
    let golden =
        std::fs::read_to_string(root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg")).unwrap();
    let golden: Vec<&str> = golden.lines().map(str::trim).collect();
    let session = session_lines();
    assert!(session.len() > 20, "session has {} lines", session.len());
    let mut at = 0;
    for line in &session {
        match golden[at..].iter().position(|g| g == line) {
            Some(i) => at += i + 1,
            None => panic!("session line `{line}` is missing from the golden, or out of order"),
        }
    }
    // And the other way round: every command of the golden is the guide's, except the one
    // line the guide's page lost (the LLDP section's body).
    let commands: Vec<&&str> = golden
        .iter()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let extra: Vec<&&str> = commands
        .iter()
        .copied()
        .filter(|l| !session.iter().any(|s| s == **l))
        .collect();
    assert_eq!(
        extra,
        [&"lldp"],
        "commands in the golden that the session does not have"
    );
}
