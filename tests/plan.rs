//! Remediation plans, one case per folder in `tests/fixtures/plan/`: `running.cfg` and
//! `intended.cfg` (full running-configs), and an empty `prune` file when the diff prunes.
//!
//! Each plan is checked in a circle: applying its commands to the running config gives the
//! target, the target has no plan against itself, every command reads back as itself, and
//! the roll-back `fabric push` makes from the target (every setting the plan changed put
//! back, [`restore`]) gives the running config again. The plan text is snapshotted, so a
//! reviewer sees every command, its order and its impact.

use fabric::onyx::plan::{Scope, Step, plan, target};
use fabric::onyx::restore::restore;
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

/// Plans change a trunk's or hybrid port's VLANs with `allowed-vlan none|all` and `add` or
/// `remove`, never the bare list (which replaces the list, as the manual's syntax reads, and
/// which the switch may read otherwise: `onyx::UNCONFIRMED`). Over every
/// pair of these states, on a port and on a port-channel, the plan and its roll-back have no
/// bare list, and typed into a lab switch (which replaces on a bare list) they reach their
/// target.
#[test]
fn vlan_list_changes_are_planned_with_add_and_remove_only() {
    use fabric::onyx::command::{AllowedVlan, Command, IfaceCmd};
    use fabric::onyx::lab::{Session, Switch};
    let states: [&[&str]; 9] = [
        &[],
        &["switchport mode trunk"],
        &[
            "switchport mode trunk",
            "switchport trunk allowed-vlan none",
        ],
        &["switchport mode trunk", "switchport trunk allowed-vlan 10"],
        &[
            "switchport mode trunk",
            "switchport trunk allowed-vlan 10,20",
        ],
        &[
            "switchport mode trunk",
            "switchport trunk allowed-vlan 20-30",
        ],
        &[
            "switchport mode hybrid",
            "switchport hybrid allowed-vlan add 10,20",
        ],
        &[
            "switchport mode hybrid",
            "switchport hybrid allowed-vlan all",
        ],
        &[
            "switchport mode hybrid",
            "switchport hybrid allowed-vlan 30",
        ],
    ];
    let config = |iface: &str, lines: &[&str]| {
        let mut c = Config::factory("sw1", None, None);
        let vlans = ["vlan 10", "vlan 20-30", &format!("interface {iface}")].map(String::from);
        let own = lines.iter().map(|l| format!("interface {iface} {l}"));
        for line in vlans.into_iter().chain(own) {
            c.apply(&command::parse(&line).unwrap().unwrap());
        }
        c
    };
    let bare = |s: &Step| {
        matches!(
            s.command,
            Command::Interface(_, IfaceCmd::AllowedVlan(_, AllowedVlan::Set(_)))
        )
    };
    let mut cases = 0;
    for iface in ["ethernet 1/1", "port-channel 1"] {
        for from in states {
            for to in states {
                let (running, intended) = (config(iface, from), config(iface, to));
                let scope = Scope {
                    prune: true,
                    ..Scope::default()
                };
                let target = target(&running, &intended, &scope);
                let steps = plan(&running, &target);
                let (undo, _, _) = roll_back(&running, &target);
                let case = format!("{iface}: {from:?} → {to:?}");
                assert!(
                    !steps.iter().chain(&undo).any(bare),
                    "{case}\n{}",
                    text(&steps)
                );
                let mut sw = Switch::with_config(running.clone());
                let mut s = Session::configuring();
                for step in &steps {
                    let line = step.command.to_string();
                    assert_eq!(s.input(&mut sw, &line).output, "", "{case}: `{line}`");
                }
                assert!(sw.running == target, "{case}\n{}", text(&steps));
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 2 * 81);
}

/// `fabric diff --prune` against a fabric removes what the fabric does not declare, the
/// switch-wide features it does not use included (`ip routing`, `lacp`, a port-channel, a
/// loopback, a routed port's address); without `--prune` those lines stay, and are counted.
#[test]
fn pruning_against_a_fabric_removes_what_it_does_not_declare_and_what_stays_is_counted() {
    let dir = crate::scratch("prune-fabric");
    let golden =
        std::fs::read_to_string(crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg"))
            .unwrap();
    let extra = "   ip routing vrf default\n   lacp\n   interface port-channel 5\n   interface loopback 3\n   interface ethernet 1/20 no switchport force\n   interface ethernet 1/20 ip address 10.9.9.1/24 primary\n";
    let running = dir.join("swx-mld-1-2.cfg");
    std::fs::write(&running, format!("{golden}{extra}")).unwrap();
    let diff = |prune: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_fabric"));
        cmd.arg("diff")
            .arg(crate::root().join("fabrics/rdg-roce-dscp.yaml"))
            .arg("--running")
            .arg(&running);
        if prune {
            cmd.args(["--prune", "--format", "commands"]);
        }
        crate::run(&mut cmd)
    };
    let (code, out) = diff(false);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("6 unmanaged line(s) left as they are"),
        "{out}"
    );
    let (code, out) = diff(true);
    assert_eq!(code, 1, "{out}");
    for removal in [
        "interface ethernet 1/20 no ip address",
        "interface ethernet 1/20 switchport force",
        "no interface port-channel 5",
        "no interface loopback 3",
        "no lacp",
        "no ip routing vrf default",
    ] {
        assert!(
            out.lines().any(|l| l == removal),
            "`{removal}` missing:\n{out}"
        );
    }
}
