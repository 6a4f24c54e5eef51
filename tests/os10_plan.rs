//! OS10 plans in a circle, one case per folder in `tests/fixtures/os10/plan/`: `running.cfg`
//! and `intended.cfg` (running configurations as `show running-configuration` prints them),
//! `plan.txt` (the commands a reviewer approved, each with its impact) and `rollback.txt`
//! (the plan back). Applying `plan.txt` to the running config as the switch would gives the
//! intended one, applying `rollback.txt` to that gives the running one back, the target has
//! no plan against itself, and the planner prints exactly the reviewed text. A case whose
//! running config holds what no plan touches (lines the model does not know) has a
//! `target.cfg`: what the switch ends up with instead of `intended.cfg`.
//!
//! `UPDATE_PLANS=1` rewrites `plan.txt` and `rollback.txt` from the planner (then review the
//! diff). A property checks `apply(a, plan(a, b)) == target(a, b)` over generated configs.

use std::path::Path;

use fabric::os10::plan::{plan, review, script, strip_review, target};
use fabric::os10::script::apply;
use fabric::os10::{Config, Header, parse};

fn read(path: &Path) -> Config {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The state without the header lines (version, last change): the switch prints them, a plan
/// does not set them.
fn state(c: &Config) -> Config {
    Config {
        header: Header::default(),
        ..c.clone()
    }
}

fn applied(start: &Config, text: &str, what: &str) -> Config {
    let mut c = start.clone();
    apply(&mut c, text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    c
}

fn check(dir: &Path, update: bool) {
    let case = dir.file_name().unwrap().to_string_lossy().to_string();
    let running = read(&dir.join("running.cfg"));
    let intended = read(&dir.join("intended.cfg"));
    let expected = if dir.join("target.cfg").exists() {
        read(&dir.join("target.cfg"))
    } else {
        intended.clone()
    };
    let goal = target(&running, &intended);
    assert!(
        state(&goal) == state(&expected),
        "{case}: the target is not what the case expects\ntarget: {goal:#?}\nexpected: {expected:#?}"
    );

    let steps = plan(&running, &intended);
    let back = plan(&goal, &running);
    for (file, steps) in [("plan.txt", &steps), ("rollback.txt", &back)] {
        let path = dir.join(file);
        let text = review(steps);
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let reviewed = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{case}: {e} (UPDATE_PLANS=1 writes it)"));
        if reviewed != text {
            let diff = similar::TextDiff::from_lines(&reviewed, &text);
            panic!(
                "{case}: the planner does not print the reviewed {file}:\n{}",
                diff.unified_diff().context_radius(3)
            );
        }
        assert_eq!(strip_review(&text), script(steps), "{case}: {file}");
    }

    let reviewed = std::fs::read_to_string(dir.join("plan.txt")).unwrap();
    let after = applied(&running, &strip_review(&reviewed), &case);
    assert!(
        state(&after) == state(&expected),
        "{case}: running + plan != intended\nafter: {after:#?}\nexpected: {expected:#?}"
    );
    let again = plan(&after, &intended);
    assert!(
        again.is_empty(),
        "{case}: drift left after the plan:\n{}",
        review(&again)
    );
    let rollback = std::fs::read_to_string(dir.join("rollback.txt")).unwrap();
    let undone = applied(
        &after,
        &strip_review(&rollback),
        &format!("{case} rollback"),
    );
    assert!(
        state(&undone) == state(&running),
        "{case}: intended + rollback != running\nafter: {undone:#?}\nrunning: {running:#?}"
    );
    if running == intended {
        assert_eq!(reviewed, "", "{case}: no change plans nothing");
    }
}

#[test]
fn every_os10_plan_fixture_goes_round_the_circle() {
    let update = std::env::var_os("UPDATE_PLANS").is_some();
    let root = super::shared().join("os10/plan");
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("running.cfg").is_file())
        .collect();
    cases.sort();
    assert!(
        cases.len() >= 12,
        "only {} cases in {}",
        cases.len(),
        root.display()
    );
    for dir in cases {
        check(&dir, update);
    }
}

/// The reviewed plans keep the order rules: what they reference exists first, what goes is
/// no longer referenced, and link-level pause is off before PFC goes on.
#[test]
fn the_recipe_plan_creates_before_it_references() {
    let text = std::fs::read_to_string(
        super::shared().join("os10/plan/roce_recipe_from_factory/plan.txt"),
    )
    .unwrap();
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("`{needle}` is not in the plan:\n{text}"))
    };
    assert!(at("wred ecn") < at("random-detect ecn  ["));
    assert!(at("class-map type network-qos ROCE3") < at("policy-map type network-qos ROCE_PFC"));
    assert!(at("policy-map type network-qos ROCE_PFC") < at("service-policy input"));
    assert!(at("trust dot1p-map ROCE_TRUST") < at("system qos"));
    assert!(at("dcbx enable") < at("priority-flow-control mode on"));
    let port = &text[at("interface ethernet1/1/1\n")..];
    assert!(port.find("flowcontrol receive off") < port.find("priority-flow-control mode on"));
}

/// Commands the switch would refuse are refused with their line, and nothing is silently
/// skipped.
#[test]
fn apply_refuses_what_the_switch_refuses() {
    let mut c = Config::default();
    let cases = [
        ("interface ethernet1/1/1\n mtu 99999\n", 2),
        ("interface ethernet1/1/1\n frobnicate\n", 2),
        ("no interface port-channel9\n", 1),
        ("no interface ethernet1/1/1\n", 1),
        ("exit\n", 1),
        ("router bgp 65001\n exit\nrouter bgp 65002\n", 3),
        ("vlt-domain 1\n exit\nvlt-domain 2\n", 3),
        ("wred w\n no random-detect color blue\n", 2),
        ("no wred w9\n", 1),
    ];
    for (text, line) in cases {
        let e = apply(&mut c.clone(), text).expect_err(text);
        assert_eq!(e.line, line, "{text}: {e}");
    }
    apply(
        &mut c,
        "interface ethernet1/1/1\n switchport trunk allowed vlan 10,20\n",
    )
    .unwrap();
    apply(
        &mut c,
        "interface ethernet1/1/1\n switchport trunk allowed vlan 30\n",
    )
    .unwrap();
    apply(
        &mut c,
        "interface ethernet1/1/1\n no switchport trunk allowed vlan 10\n",
    )
    .unwrap();
    let port = &c.interfaces[&fabric::os10::Iface::Ethernet(fabric::os10::Eth::new(1))];
    let vlans: Vec<String> = port
        .trunk_allowed
        .as_ref()
        .unwrap()
        .iter()
        .map(|v| v.to_string())
        .collect();
    assert_eq!(
        vlans,
        ["20", "30"],
        "trunk VLANs are added and removed, not replaced"
    );
}

mod generated {
    use fabric::os10::plan::{plan, review, script, target};
    use fabric::os10::script::apply;
    use proptest::prelude::*;

    use crate::os10::generated::config;

    proptest! {
        #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(128), ..ProptestConfig::default() })]

        /// Any config reaches any other's target, and then has nothing left to do.
        #[test]
        fn apply_of_plan_reaches_the_target(a in config(), b in config()) {
            let steps = plan(&a, &b);
            let text = script(&steps);
            let mut c = a.clone();
            apply(&mut c, &text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            let goal = target(&a, &b);
            prop_assert!(c == goal, "plan:\n{}\nafter: {:#?}\ntarget: {:#?}", review(&steps), c, goal);
            let again = plan(&c, &b);
            prop_assert!(again.is_empty(), "drift left:\n{}", review(&again));
        }
    }
}

/// The real TOR capture (RoCE, VLT, BGP with passwords, spanning-tree lines, banners): it has
/// no plan against itself, and a drift of it (a port leaving PFC, a neighbor gone, an MTU, a
/// WRED threshold) plans, applies and rolls back to the capture, its verbatim lines in place.
#[test]
fn the_tor_capture_plans_and_rolls_back() {
    let text = std::fs::read_to_string(
        super::shared()
            .join("corpus/os10/azurestack-rack2-Rack01-TOR-1.running-configuration.10.5.3.2.txt"),
    )
    .unwrap();
    let running = parse(&text).unwrap();
    assert!(plan(&running, &running).is_empty());

    let mut intended = running.clone();
    let port = |n| fabric::os10::Iface::Ethernet(fabric::os10::Eth::new(n));
    let p1 = intended.interfaces.get_mut(&port(1)).unwrap();
    p1.pfc = false;
    p1.policy_in = None;
    p1.flowcontrol_rx = Some(true);
    intended.interfaces.get_mut(&port(2)).unwrap().mtu = Some(9100);
    intended.wred[0]
        .colors
        .values_mut()
        .for_each(|t| t.min = 100);
    let bgp = intended.bgp.as_mut().unwrap();
    let gone = bgp.neighbors.remove(0).0;

    let steps = plan(&running, &intended);
    let text = review(&steps);
    for line in [
        " no priority-flow-control mode  [port-flap]",
        " flowcontrol receive on  [port-flap]",
        " mtu 9100  [port-flap]",
        &format!(
            " no neighbor {gone}  [session-reset; a rollback cannot restore: password 9 ****]"
        ),
    ] {
        assert!(text.contains(line), "`{line}` is not in the plan:\n{text}");
    }
    let pfc_off = text.find("no priority-flow-control mode").unwrap();
    assert!(
        pfc_off < text.find("flowcontrol receive on").unwrap(),
        "{text}"
    );
    let after = applied(&running, &script(&steps), "TOR");
    assert!(after == target(&running, &intended));
    // The port's spanning-tree lines (the model's) stay as they were.
    let stp = |c: &Config| {
        let e = &c.interfaces[&port(1)];
        (e.bpduguard, e.stp_guard, e.stp_type)
    };
    assert_eq!(stp(&after), stp(&running));
    assert_eq!(stp(&after).0, Some(true));
    assert!(after.interfaces[&port(1)].extras.is_empty());
    assert!(after.layout == running.layout);
    let mut back = applied(&after, &script(&plan(&after, &running)), "TOR rollback");
    assert!(back == target(&after, &running));
    // OS10 keeps neighbors in the order they were created: the one put back comes last.
    let nb = &mut back.bgp.as_mut().unwrap().neighbors;
    assert_eq!(nb.last().map(|n| n.0), Some(gone));
    nb.rotate_right(1);
    // Deleting the neighbor deleted its `password 9 ****` line, which no plan can type back
    // (the switch shows the secret masked): the roll-back re-creates the neighbor without it.
    assert_eq!(nb[0].1.extras, []);
    let lost = &running.bgp.as_ref().unwrap().neighbors[0].1.extras;
    assert_eq!(lost, &[(2, "  password 9 ****".to_string())]);
    nb[0].1.extras.clone_from(lost);
    assert!(back == running, "the roll-back restores the capture");
}

/// A session types interface names with a space (`interface ethernet 1/1/5`, `interface
/// port-channel 1`: the captured session); they apply as the printed names do, and so does a
/// deletion typed that way.
#[test]
fn interfaces_typed_with_a_space_apply_as_printed() {
    let path = super::shared().join("corpus/os10/grantcurell.session.port-channel-members.txt");
    let session = std::fs::read_to_string(&path).unwrap();
    // The commands typed at a configuration prompt; the switch's syslog line is not one.
    let typed: String = session
        .lines()
        .filter_map(|l| l.split_once(")# ").map(|(_, c)| c))
        .filter(|c| !c.starts_with('<'))
        .map(|c| format!("{c}\n"))
        .collect();
    assert!(typed.contains("interface ethernet 1/1/5\n"), "{typed}");
    let printed = typed
        .replace("interface ethernet 1/1/", "interface ethernet1/1/")
        .replace("interface port-channel 1", "interface port-channel1");
    let spaced = applied(&Config::default(), &typed, "the captured session");
    assert_eq!(
        spaced,
        applied(&Config::default(), &printed, "printed names")
    );
    let members: Vec<String> = spaced
        .interfaces
        .iter()
        .filter(|(_, e)| e.channel_group.is_some_and(|g| g.id == 1))
        .map(|(i, _)| i.to_string())
        .collect();
    assert_eq!(
        members,
        ["ethernet1/1/5", "ethernet1/1/9", "ethernet1/1/12"]
    );
    let mut c = spaced.clone();
    apply(&mut c, "no interface port-channel 1\n").unwrap();
    assert!(
        !c.interfaces
            .contains_key(&fabric::os10::Iface::PortChannel(1))
    );
    let e = apply(&mut spaced.clone(), "interface ethernet 1/1/x\n").unwrap_err();
    assert!(e.message.contains("column 20"), "{e}");
}

/// Deleting a neighbor takes its `password` line (kept verbatim: the switch shows it masked,
/// so no plan can type it back). The step says so, secrets masked, and the reviewed plan shows
/// it; steps that lose nothing say nothing.
#[test]
fn a_neighbor_deletion_says_it_loses_its_password() {
    let path = super::shared()
        .join("corpus/os10/azurestack-rack2-Rack01-TOR-1.running-configuration.10.5.3.2.txt");
    let running = read(&path);
    let mut intended = running.clone();
    let b = intended.bgp.as_mut().unwrap();
    b.neighbors
        .retain(|(a, _)| a.to_string() != "10.185.239.146");
    let steps = plan(&running, &intended);
    let gone: Vec<_> = steps.iter().filter(|s| !s.loses.is_empty()).collect();
    assert_eq!(gone.len(), 1, "{}", review(&steps));
    assert_eq!(gone[0].command, "no neighbor 10.185.239.146");
    assert_eq!(gone[0].loses.len(), 1);
    assert_eq!(gone[0].loses, ["password 9 ****"]);
    let loss = gone[0].loss().unwrap();
    assert!(loss.contains("a rollback cannot restore"), "{loss}");
    assert!(review(&steps).contains("[session-reset; a rollback cannot restore: password 9 *"));
    // The rollback re-creates the neighbor without it: the loss is real, and said.
    let mut after = running.clone();
    apply(&mut after, &script(&steps)).unwrap();
    let undo = script(&plan(&after, &running));
    apply(&mut after, &undo).unwrap();
    let back = &after.bgp.as_ref().unwrap().neighbors;
    let (_, n) = back
        .iter()
        .find(|(a, _)| a.to_string() == "10.185.239.146")
        .unwrap();
    assert!(n.extras.is_empty());

    // A configuration file with the secret in it: the step never carries it.
    let text = std::fs::read_to_string(&path).unwrap().replacen(
        "password 9 ****",
        "password 9 3c5e1f0a9b8d7e6f",
        1,
    );
    let running = parse(&text).unwrap();
    let steps = plan(&running, &intended);
    let shown = format!("{}{:?}", review(&steps), steps);
    assert!(!shown.contains("3c5e1f0a9b8d7e6f"), "{shown}");
    assert!(steps.iter().any(|s| !s.loses.is_empty()));
    assert!(plan(&running, &running).iter().all(|s| s.loses.is_empty()));
}

/// A running config that states no port group (a lab state saved before port groups were
/// read) runs every group's native mode: the example's goldens, whose groups are all native,
/// plan no step against it, so a push is not refused as disruptive. A group in another mode
/// is a step, disruptive.
#[test]
fn unstated_port_groups_run_their_native_mode() {
    let golden = read(Path::new("golden/vcf-bitfusion/leaf-a.cfg"));
    assert_eq!(
        golden.port_groups.len(),
        18,
        "the S5248F-ON prints its 18 groups"
    );
    let mut running = golden.clone();
    running.port_groups.clear();
    running.layout = Default::default();
    let steps = plan(&running, &golden);
    assert!(steps.is_empty(), "{}", review(&steps));

    let mut tenish = golden.clone();
    let first = tenish.port_groups.values_mut().next().unwrap();
    first.mode = Some("10g-4x".into());
    let text = review(&plan(&running, &tenish));
    assert!(text.contains("mode Eth 10g-4x"), "{text}");
    assert!(text.contains("disruptive"), "{text}");
}
