//! The simulated switch's CLI on real files: every shipped golden, pasted into a
//! factory-default lab switch, reads back as that golden.

use fabric::onyx::lab::{Session, Switch};

#[test]
fn pasted_goldens_read_back_as_the_golden() {
    let mut checked = 0;
    // Onyx goldens: an OS10 golden is a hierarchical configuration, not lines to paste;
    // `tests/push.rs` pushes it to the lab's OS10 switches and reads it back.
    for dir in crate::onyx_golden_dirs() {
        for file in std::fs::read_dir(dir).unwrap() {
            let path = file.unwrap().path();
            let golden = std::fs::read_to_string(&path).unwrap();
            let model = fabric::onyx::parse(&golden).unwrap();
            // The switch as the fabric describes it: release and certificate.
            let certificate = golden
                .lines()
                .find_map(|l| l.strip_prefix("# Certificate name system-self-signed, ID "));
            let mut sw =
                Switch::factory_as(&model.header.hostname, model.header.release, certificate);
            let mut s = Session::new();
            let mut errors = String::new();
            for line in [
                "no cli session paging enable",
                "enable",
                "configure terminal",
            ]
            .into_iter()
            .chain(golden.lines())
            {
                errors.push_str(&s.input(&mut sw, line).output);
            }
            assert_eq!(errors, "", "{}: the lab refused lines", path.display());
            s.input(&mut sw, "exit");
            let shown = s.input(&mut sw, "show running-config").output;
            let shown: String = shown
                .lines()
                .filter(|l| !l.starts_with("## Generated at "))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(shown, golden, "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} goldens");
}

/// Every command the planner emits (all plan fixtures) is accepted by a lab switch holding
/// the fixture's running config, flat from `(config)` and typed inside the interface's
/// sub-mode, and leaves the switch at the plan's target.
#[test]
fn planned_commands_typed_into_a_switch_reach_the_target() {
    use fabric::onyx::command::{Command, IfaceCmd};
    use fabric::onyx::plan::{Scope, plan, target};
    let mut cases = 0;
    for entry in std::fs::read_dir(crate::root().join("tests/fixtures/plan")).unwrap() {
        let dir = entry.unwrap().path();
        let read = |name: &str| {
            fabric::onyx::parse(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
        };
        let running = read("running.cfg");
        let scope = Scope {
            interfaces: None,
            fabric_attributes_only: false,
            prune: dir.join("prune").exists(),
            ..Default::default()
        };
        let target = target(&running, &read("intended.cfg"), &scope);
        let steps = plan(&running, &target);
        for sub_modes in [false, true] {
            let mut sw = Switch::with_config(running.clone());
            let mut s = Session::configuring();
            for step in &steps {
                let lines = match &step.command {
                    Command::Interface(r, cmd) if sub_modes && *cmd != IfaceCmd::Create => {
                        vec![
                            format!("interface {r}"),
                            cmd.to_string(),
                            "exit".to_string(),
                        ]
                    }
                    c => vec![c.to_string()],
                };
                for line in lines {
                    let reply = s.input(&mut sw, &line);
                    assert_eq!(reply.output, "", "{}: `{line}` refused", dir.display());
                }
            }
            assert!(
                sw.running == target,
                "{} (sub-modes: {sub_modes}): the switch is not at the target",
                dir.display()
            );
        }
        cases += 1;
    }
    assert!(cases >= 50, "{cases} cases");
}

/// Lines typed into a configuring session of `sw`, each taken without a word in reply.
fn typed(sw: &mut Switch, lines: &[String]) {
    let mut s = Session::configuring();
    for line in lines {
        assert_eq!(s.input(sw, line).output, "", "`{line}` refused");
    }
}

/// What interface `1/N` carries: every VLAN, or the list (`None`: the mode's default).
fn carried(sw: &Switch, port: u16) -> Option<(bool, Vec<u16>)> {
    let iface = fabric::onyx::command::Iface::Ethernet(fabric::types::Port::new(1, port));
    let a = sw.running.interfaces.get(&iface)?.allowed.as_ref()?;
    Some((a.all, a.vlans.iter().map(|v| v.get()).collect()))
}

/// `allowed-vlan LIST` replaces a trunk's or hybrid port's list, `add` and `remove` change
/// it, `none` and `all` are what they say, and `remove` on a port carrying every VLAN leaves
/// the switch's other VLANs listed (`onyx::UNCONFIRMED`:
/// the trunk rows). The running config prints a trunk's list as the compiled configs do:
/// `none`, the first VLAN bare, the rest with `add`.
#[test]
fn allowed_vlan_lists_are_replaced_added_to_and_removed_from() {
    let mut sw = Switch::factory("sw1");
    let setup = ["vlan 10", "vlan 20", "vlan 30"].map(String::from);
    typed(&mut sw, &setup);
    for (mode, port) in [("trunk", 1), ("hybrid", 2)] {
        let iface = format!("interface ethernet 1/{port}");
        typed(&mut sw, &[format!("{iface} switchport mode {mode}")]);
        let steps: [(&str, bool, &[u16]); 10] = [
            ("none", false, &[]),
            ("10", false, &[10]),
            ("20", false, &[20]),
            ("add 30", false, &[20, 30]),
            ("10-12,30", false, &[10, 11, 12, 30]),
            ("remove 11-12", false, &[10, 30]),
            ("all", true, &[]),
            ("add 40", true, &[]),
            ("remove 20", false, &[1, 10, 30]),
            ("add 20", false, &[1, 10, 20, 30]),
        ];
        for (op, all, vlans) in steps {
            typed(
                &mut sw,
                &[format!("{iface} switchport {mode} allowed-vlan {op}")],
            );
            let now = carried(&sw, port).unwrap_or_else(|| {
                // The mode's own default is not kept: a trunk carries every VLAN, a hybrid
                // port none.
                (mode == "trunk", Vec::new())
            });
            assert_eq!(
                now,
                (all, vlans.to_vec()),
                "{mode} after `allowed-vlan {op}`"
            );
        }
    }
    let mut s = Session::new();
    for line in ["no cli session paging enable", "enable"] {
        s.input(&mut sw, line);
    }
    let shown = s.input(&mut sw, "show running-config").output;
    let trunk = "   interface ethernet 1/1 switchport trunk allowed-vlan";
    let hybrid = "   interface ethernet 1/2 switchport hybrid allowed-vlan";
    let expected = format!(
        "{trunk} none\n{trunk} 1\n{trunk} add 10\n{trunk} add 20\n{trunk} add 30\n\
         {hybrid} add 1\n{hybrid} add 10\n{hybrid} add 20\n{hybrid} add 30\n"
    );
    assert!(shown.contains(&expected), "{shown}");
}

/// `configure terminal` typed in configuration mode, or in a sub-mode, is taken and leaves
/// the session at `(config)`: Ansible's mellanox.onyx sends it there (one `exit` ends its
/// changes, which leaves a sub-mode only), and its next change must apply.
#[test]
fn configure_terminal_in_configuration_mode_returns_to_it() {
    let mut sw = Switch::factory("sw1");
    let mut s = Session::configuring();
    for line in [
        "interface ethernet 1/1",
        "configure terminal",
        "configure terminal",
    ] {
        assert_eq!(s.input(&mut sw, line).output, "", "`{line}` refused");
    }
    assert!(s.prompt(&sw).ends_with("(config) # "), "{}", s.prompt(&sw));
    assert_eq!(
        s.input(&mut sw, "interface ethernet 1/2 mtu 9216 force")
            .output,
        ""
    );
}
