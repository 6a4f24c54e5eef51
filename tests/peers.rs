//! The peers' benchmark pairs (`tests/fixtures/peers/`, copied from `../shared/bench/peers`):
//! where hier_config negates healthy ports and deletes in-use VLANs, our plan touches exactly
//! the drifted interfaces and deletes no VLAN that is still intended.

use std::collections::BTreeSet;
use std::path::Path;

use fabric::onyx::plan::{Scope, Step, plan, target};
use fabric::onyx::{Command, Config, Iface, parse};

use crate::shared;

fn read(path: &Path) -> Config {
    parse(&std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .unwrap()
}

/// Checks a plan against the two configs; returns the plan.
fn check(running: &Config, intended: &Config, prune: bool) -> Vec<Step> {
    let t = target(
        running,
        intended,
        &Scope {
            interfaces: None,
            fabric_attributes_only: false,
            prune,
            ..Default::default()
        },
    );
    let steps = plan(running, &t);
    let touched: BTreeSet<Iface> = steps
        .iter()
        .flat_map(|s| match &s.command {
            Command::Interface(r, _) | Command::NoInterface(r) => r.members().collect::<Vec<_>>(),
            _ => Vec::new(),
        })
        .collect();
    let keys: BTreeSet<Iface> = running
        .interfaces
        .keys()
        .chain(t.interfaces.keys())
        .copied()
        .collect();
    let drifted: BTreeSet<Iface> = keys
        .into_iter()
        .filter(|i| running.interfaces.get(i) != t.interfaces.get(i))
        .collect();
    assert_eq!(
        touched, drifted,
        "the plan touches exactly the drifted interfaces"
    );
    for s in &steps {
        if let Command::NoVlan(spans) = &s.command {
            for (a, b) in spans {
                for v in a.get()..=b.get() {
                    assert!(
                        !intended.vlans.keys().any(|x| x.get() == v),
                        "`{}` deletes VLAN {v}, which is intended",
                        s.command
                    );
                }
            }
            assert!(prune, "`{}` without --prune", s.command);
        }
    }
    let mut after = running.clone();
    for s in &steps {
        after.apply(&s.command);
    }
    assert_eq!(after, t);
    steps
}

#[test]
fn small_pair_matches_the_hand_derived_remediation() {
    let dir = shared().join("peers/samples");
    let running = read(&dir.join("small-d5.running.cfg"));
    let intended = read(&dir.join("small-d5.intended.cfg"));
    let steps = check(&running, &intended, true);
    let ours: BTreeSet<String> = steps.iter().map(|s| s.command.to_string()).collect();
    // Every modeled line of the hand-derived answer is in our plan, and nothing else is:
    // its other lines (SNMP, NTP, `ip address`) are ones the model leaves as they are.
    let expected = std::fs::read_to_string(dir.join("expected.small-d5.remediation.txt")).unwrap();
    let modeled: BTreeSet<String> = expected
        .lines()
        .map(str::trim)
        .filter(|l| matches!(fabric::onyx::command::parse(l), Ok(Some(_))))
        .map(str::to_string)
        .collect();
    assert_eq!(ours, modeled);
    assert!(
        !check(&running, &intended, false)
            .iter()
            .any(|s| matches!(s.command, Command::NoVlan(_)))
    );
}

/// hier_config's own remediation negates 121 healthy port settings on this pair; ours
/// negates none, by the peers' scorer (`analyze_remediation.py`, plain python3).
#[test]
fn the_peers_scorer_finds_no_collateral() {
    let dir = shared().join("peers");
    let samples = dir.join("samples");
    let steps = check(
        &read(&samples.join("small-d5.running.cfg")),
        &read(&samples.join("small-d5.intended.cfg")),
        true,
    );
    let plan_file =
        std::env::temp_dir().join(format!("fabric-peers-plan-{}.txt", std::process::id()));
    let text: String = steps.iter().map(|s| format!("{}\n", s.command)).collect();
    std::fs::write(&plan_file, text).unwrap();
    let out = std::process::Command::new("python3")
        .arg(dir.join("analyze_remediation.py"))
        .arg(samples.join("small-d5.running.cfg"))
        .arg(samples.join("small-d5.intended.cfg"))
        .arg(&plan_file)
        .current_dir(&dir)
        .output()
        .expect("python3 runs the peers' scorer");
    let _ = std::fs::remove_file(&plan_file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let score: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON line");
    assert_eq!(score["collateral_port_settings"], 0, "{score}");
    assert_eq!(score["collateral_vlans"], 0, "{score}");
    assert_eq!(score["not_onyx_negation"], 0, "{score}");
    assert_eq!(score["ports_touched"], score["ports_drifted"], "{score}");
}

/// The generator's medium pair (64 ports, 16 split 4 ways, 512 VLANs, 16 tagged per port).
#[test]
fn generated_medium_pair_touches_only_drift() {
    let out = std::env::temp_dir().join(format!("fabric-peers-medium-{}", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(shared().join("peers/gen_onyx.py"))
        .args(["--preset", "medium", "--drift", "5", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("python3 runs the generator");
    assert!(status.success());
    let running = read(&out.join("medium-d5.running.cfg"));
    let intended = read(&out.join("medium-d5.intended.cfg"));
    let _ = std::fs::remove_dir_all(&out);
    let steps = check(&running, &intended, true);
    assert!(
        !steps.is_empty() && steps.len() < 200,
        "{} commands",
        steps.len()
    );
}
