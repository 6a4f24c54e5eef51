//! `fabric import`: every full capture of the corpus and every shipped golden, imported,
//! validated, compiled and diffed against the config it came from: no drift. Also the
//! command itself, as a user runs it.

use std::path::PathBuf;

use fabric::diag::Sources;

/// Captures of a whole running config (they start with the `##` database header).
fn full_captures() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in crate::corpus_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let header = text.lines().take(5).any(|l| {
            l.starts_with("## Running database") || l.starts_with("## Active saved database")
        });
        if header && fabric::onyx::parse(&text).is_ok() {
            out.push(path);
        }
    }
    out
}

/// Imports these configs as one fabric, then for each switch: the fabric validates, and its
/// compiled config against the source has an empty plan. The fabric's text on failure.
fn round_trip(files: &[PathBuf]) -> String {
    let mut sources = std::collections::BTreeMap::new();
    let mut configs = std::collections::BTreeMap::new();
    for f in files {
        let config = fabric::onyx::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
        let name = config.name().map_or_else(
            || f.file_stem().unwrap().to_string_lossy().into_owned(),
            str::to_string,
        );
        configs.insert(name.clone(), config.clone());
        sources.insert(
            name,
            fabric::import::Source {
                origin: f.display().to_string(),
                config,
                model: None,
            },
        );
    }
    let yaml = fabric::import::import(&sources).unwrap_or_else(|e| panic!("{files:?}: {e}"));
    let mut diag_sources = Sources::default();
    let loaded = fabric::fabric::parse_bytes(
        "imported.yaml",
        yaml.clone().into_bytes(),
        &mut diag_sources,
    )
    .unwrap_or_else(|d| {
        panic!(
            "{}\n{yaml}",
            fabric::diag::render(&[d], &diag_sources, false)
        )
    });
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let errors: Vec<_> = diags.into_iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.is_empty(),
        "{}\n{yaml}",
        fabric::diag::render(&errors, &diag_sources, false)
    );
    let fab = fab.unwrap();
    let renderer = fabric::onyx::Renderer::embedded().unwrap();
    for (name, running) in &configs {
        let sw = fab
            .switches
            .values()
            .find(|s| s.hostname.as_str() == name)
            .unwrap_or_else(|| panic!("no switch {name} in\n{yaml}"));
        let intended = fabric::compile::compile_switch(sw);
        let target =
            fabric::diff::target(running, &intended, &fabric::diff::Scope::fabric(sw, false));
        let plan: Vec<String> = fabric::diff::plan(running, &target)
            .iter()
            .map(|s| s.command.to_string())
            .collect();
        assert!(plan.is_empty(), "{name}: drift {plan:#?}\n{yaml}");
        // Nothing lost: the compiled config prints every line the source prints (in place,
        // or, for lines the model does not know, at the end of their section).
        let lines = |c: &fabric::onyx::Config| {
            let mut v: Vec<String> = renderer
                .render(c)
                .unwrap()
                .lines()
                .filter(|l| !l.starts_with("##") && !l.trim().is_empty())
                .map(str::to_string)
                .collect();
            v.sort();
            v
        };
        let mut compiled = lines(&intended);
        let mut lost = Vec::new();
        for line in lines(running) {
            match compiled.iter().position(|l| *l == line) {
                Some(i) => {
                    compiled.remove(i);
                }
                None => lost.push(line),
            }
        }
        assert_eq!(lost, Vec::<String>::new(), "{name}: lines lost\n{yaml}");
        // What the compiled config adds is only what every switch prints (a capture of
        // `show running-config protocol bgp` leaves those out).
        let factory = lines(&fabric::onyx::Config::factory(name, None, None));
        compiled.retain(|l| !factory.contains(l));
        assert_eq!(
            compiled,
            Vec::<String>::new(),
            "{name}: lines added\n{yaml}"
        );
    }
    yaml
}

#[test]
fn every_full_capture_round_trips_without_drift() {
    let captures = full_captures();
    assert!(captures.len() >= 5, "{captures:?}");
    for capture in &captures {
        round_trip(std::slice::from_ref(capture));
    }
}

#[test]
fn every_golden_folder_round_trips_as_one_fabric() {
    for dir in std::fs::read_dir(crate::root().join("golden")).unwrap() {
        let dir = dir.unwrap().path();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "cfg"))
            .collect();
        files.sort();
        round_trip(&files);
    }
}

fn fabric(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    crate::run(
        std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
            .current_dir(dir)
            .args(args),
    )
}

/// As a user runs it: a folder of backups → a fabric file that validates and that `fabric
/// diff` finds no drift against; an existing file is never overwritten; a malformed backup
/// is a located error and writes nothing.
#[test]
fn import_writes_a_fabric_that_diffs_clean() {
    let dir = crate::scratch("import-cli");
    let golden = crate::root().join("golden/ml-cluster");
    let golden = golden.to_str().unwrap();
    let (code, out) = fabric(&dir, &["import", golden, "-o", "ml.yaml"]);
    assert_eq!(code, 0, "{out}");
    let yaml = std::fs::read_to_string(dir.join("ml.yaml")).unwrap();
    assert!(yaml.contains("    # from "), "{yaml}");
    assert!(
        yaml.contains("- {a: leaf01:1/25-1/28, b: spine01:1/1-1/4}"),
        "{yaml}"
    );
    assert!(
        yaml.contains("1/1/1-1/1/4: {peer: {host: \"gpu{001..004}\", port: ens1f0}}"),
        "{yaml}"
    );
    assert!(yaml.lines().count() < 100, "{yaml}");
    let (code, out) = fabric(&dir, &["validate", "ml.yaml"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = fabric(&dir, &["diff", "ml.yaml", "--running", golden]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = fabric(&dir, &["import", golden, "-o", "ml.yaml"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("cannot create `ml.yaml`"), "{out}");
    std::fs::write(
        dir.join("bad.cfg"),
        "interface ethernet 1/x mtu 9216 force\n",
    )
    .unwrap();
    let (code, out) = fabric(&dir, &["import", "bad.cfg", "-o", "bad.yaml"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("bad.cfg:1:"), "{out}");
    assert!(!dir.join("bad.yaml").exists());
}

/// Ranges with the same settings on several switches become one profile.
#[test]
fn shared_port_settings_become_a_profile() {
    let dir = crate::scratch("import-profile");
    for (n, sw) in ["a", "b"].iter().enumerate() {
        let text = format!(
            "hostname {sw}\n   interface ethernet 1/1-1/4 mtu 9216 force\n   interface ethernet 1/1-1/4 dcb priority-flow-control mode on force\n   interface ethernet 1/{} mtu 9000 force\n",
            10 + n
        );
        std::fs::write(dir.join(format!("{sw}.cfg")), text).unwrap();
    }
    let (code, out) = fabric(&dir, &["import", "a.cfg", "b.cfg", "--model", "SN2700"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("profiles:\n  mtu9216-pfc: {mtu: 9216, pfc: true}\n"),
        "{out}"
    );
    assert!(
        out.contains("      1/1-1/4: {profile: mtu9216-pfc}\n"),
        "{out}"
    );
    assert!(!out.contains("model guessed"), "{out}");
}
