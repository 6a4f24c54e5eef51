//! Remediation plans, one case per folder in `tests/fixtures/plan/`: `running.cfg` and
//! `intended.cfg` (full running-configs), and an empty `prune` file when the diff prunes.
//!
//! Each plan is checked in a circle: applying its commands to the running config gives the
//! target, the target has no plan against itself, every command reads back as itself, and
//! the roll-back `fabric push` makes from the target (every setting the plan changed put
//! back, [`restore`]) gives the running config again. The plan text is snapshotted, so a
//! reviewer sees every command, its order and its impact.

use fabric::device::push::restore;
use fabric::diff::{Scope, Step, plan, target};
use fabric::onyx::{Config, command, parse};

fn read(path: &std::path::Path) -> Config {
    let text = std::fs::read_to_string(path).unwrap();
    parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `N. <command>  [impact]`, one line per step; `no drift` for an empty plan.
fn text(steps: &[Step]) -> String {
    if steps.is_empty() {
        return "no drift\n".to_string();
    }
    steps
        .iter()
        .enumerate()
        .map(|(n, s)| format!("{}. {}  [{}]\n", n + 1, s.command, s.impact))
        .collect()
}

/// The roll-back of a push from `running` that stopped after its last command, at `target`:
/// planned from the target back to the running config as `fabric push` plans it (every
/// setting the plan changed put back, [`restore`]). Its commands, the config after them, and
/// the config that must be: the running config, but for the licenses (never removed) and the
/// names given to VLANs the switch had unnamed (no Onyx command to take a VLAN's name away is
/// known: the plan only ever overwrites one).
pub fn roll_back(running: &Config, target: &Config) -> (Vec<Step>, Config, Config) {
    let back = restore(target, running, target);
    let undo = plan(target, &back);
    let mut undone = target.clone();
    for s in &undo {
        undone.apply(&s.command);
    }
    let mut expected = running.clone();
    expected.licenses.clone_from(&target.licenses);
    for (id, v) in &mut expected.vlans {
        if v.name.is_none() {
            v.name = target.vlans.get(id).and_then(|t| t.name.clone());
        }
    }
    (undo, undone, expected)
}

#[test]
fn every_plan_fixture_applies_to_its_target() {
    insta::glob!("fixtures/plan/*/intended.cfg", |path| {
        let dir = path.parent().unwrap();
        let case = dir.file_name().unwrap().to_string_lossy();
        let running = read(&dir.join("running.cfg"));
        let intended = read(path);
        let scope = Scope {
            interfaces: None,
            fabric_attributes_only: false,
            prune: dir.join("prune").exists(),
            ..Default::default()
        };
        let target = target(&running, &intended, &scope);
        let steps = plan(&running, &target);

        let mut applied = running.clone();
        for s in &steps {
            applied.apply(&s.command);
        }
        assert!(
            applied == target,
            "{case}: running + plan != target\nplan:\n{}\napplied: {applied:#?}\ntarget: {target:#?}",
            text(&steps)
        );
        let again = plan(&target, &target);
        assert!(
            again.is_empty(),
            "{case}: the target has drift against itself:\n{}",
            text(&again)
        );
        for s in &steps {
            let line = s.command.to_string();
            assert_eq!(
                command::parse(&line),
                Ok(Some(s.command.clone())),
                "{case}: `{line}` does not read back as itself"
            );
        }
        let (undo, undone, expected) = roll_back(&running, &target);
        assert!(
            undone == expected,
            "{case}: the roll-back does not restore the running config\nroll-back:\n{}\nafter: {undone:#?}\nrunning: {running:#?}",
            text(&undo)
        );
        insta::assert_snapshot!(text(&steps));
    });
}

#[test]
fn there_are_at_least_25_plan_fixtures() {
    let dir = crate::root().join("tests/fixtures/plan");
    let cases = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("running.cfg").is_file() && p.join("intended.cfg").is_file())
        .count();
    assert!(
        cases >= 25,
        "only {cases} plan fixtures in {}",
        dir.display()
    );
}
