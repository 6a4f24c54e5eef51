//! `fabric verify` of OS10 switches end to end, over real SSH against `fabric lab` after a
//! push: the OS10 VLT pair of `fabrics/vcf-bitfusion.yaml` verifies clean (LLDP and links read
//! from `show lldp neighbors` and `show interface status`, the families OS10 does not read said
//! unchecked), each cabling fault is one finding with the id it has on Onyx, and a fabric
//! mixing an Onyx spine and an OS10 leaf (`tests/fixtures/os10/lab/mixed.yaml`) is judged from
//! both ends of its cable.

use std::path::{Path, PathBuf};

use crate::lab_ssh::{assert_read_only, start_lab_of};
use crate::network::push_lab;
use crate::verify::{finding_lines, verify_lab};
use crate::{root, scratch};

/// The lab serving `fabric`, pushed.
fn pushed(fabric: &Path, name: &str) -> (crate::lab_ssh::Killed, PathBuf) {
    let state = scratch(name);
    let (lab, _) = start_lab_of(fabric, &state, &[], &[]);
    let (code, out) = push_lab(fabric, &state, &["--allow-disruptive"]);
    assert_eq!(code, 0, "{out}");
    (lab, state)
}

#[test]
fn an_os10_vlt_pair_pushed_verifies_clean_and_each_cabling_fault_is_one_finding() {
    let fabric = root().join("fabrics/vcf-bitfusion.yaml");
    let state = scratch("verify-os10");
    let (_lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    // `push --verify-state`: the push, then the same verification, clean.
    let (code, out) = push_lab(&fabric, &state, &["--allow-disruptive", "--verify-state"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "2 switch(es) verified (cabling, links, pfc, qos, pools, bgp, mlag): 0 finding(s)"
        ),
        "{out}"
    );
    let (code, out, sent) = verify_lab(&fabric, &state, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 switch(es) verified")
            && out.contains("0 finding(s), 0 reply(ies) not read"),
        "{out}"
    );
    // What OS10 does not read is said, per switch, never passed; VLT is read.
    assert!(!out.contains("mlag:"), "{out}");
    for why in [
        "pfc: PFC operational state is not read on OS10",
        "qos: trust, ECN and ETS state are not read on OS10",
    ] {
        assert_eq!(out.matches(why).count(), 2, "{why}: {out}");
    }
    for (name, lines) in &sent {
        for c in [
            "show lldp neighbors",
            "show interface status",
            "show vlt 1",
            "show vlt 1 vlt-port-detail",
        ] {
            assert!(
                lines.iter().any(|l| l.ends_with(&format!("\t{c}"))),
                "{name} {c}: {lines:?}"
            );
        }
        assert!(!lines.iter().any(|l| l.contains("json-print")), "{lines:?}");
        assert_read_only(lines.iter().map(String::as_str));
    }

    // The same faults as on Onyx (`tests/verify.rs`), the same ids.
    let faults = state.join("leaf-a/faults.yaml");
    for (fault, want) in [
        (
            "cabling: { down: [\"1/49\"] }\n",
            "  error V003 (link-down): ethernet1/1/49: down (operational down); the other end, leaf-b ethernet1/1/49: operational down",
        ),
        (
            "cabling: { swap: [[\"1/49\", \"1/50\"]] }\n",
            "  error V001 (cabling-mismatch): ethernet1/1/49: cabled otherwise than the fabric says: leaf-a ethernet1/1/49 sees leaf-b ethernet1/1/50 (the fabric: leaf-b ethernet1/1/49)",
        ),
        (
            "cabling: { neighbor: { \"1/50\": { host: spine09 } } }\n",
            "  error V001 (cabling-mismatch): ethernet1/1/50: cabled otherwise than the fabric says: leaf-a ethernet1/1/50 sees spine09 ethernet1/1/50 (the fabric: leaf-b ethernet1/1/50)",
        ),
    ] {
        std::fs::write(&faults, fault).unwrap();
        let (code, out, _) = verify_lab(&fabric, &state, &["--check", "cabling,links"]);
        assert_eq!(code, 1, "{fault}{out}");
        let lines = finding_lines(&out);
        assert_eq!(lines.len(), 1, "{fault}{out}");
        assert!(lines[0].starts_with(want), "{fault}{out}");
    }

    // JSON names the port as OS10 does too.
    let (code, out, _) = verify_lab(
        &fabric,
        &state,
        &["--check", "cabling,links", "--format", "json"],
    );
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["findings"][0]["interfaces"], "ethernet1/1/50", "{out}");

    // The VLT pair, judged from both ends with the ids of Onyx's MLAG checks: the VLTi's
    // cables unplugged take the pair down (V013); checked with the links, the cables are the
    // findings and the pair's state follows from them.
    std::fs::write(&faults, "cabling: { down: [\"1/49\", \"1/50\"] }\n").unwrap();
    let (code, out, _) = verify_lab(&fabric, &state, &["--check", "mlag"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        finding_lines(&out),
        [
            "  error V013 (mlag-down): the VLT pair is not healthy: leaf-a: VLTi down, VLT peer status: down; leaf-b: VLTi down, VLT peer status: down"
        ],
        "{out}"
    );
    let (code, out, _) = verify_lab(&fabric, &state, &["--check", "links,mlag"]);
    assert_eq!(code, 1, "{out}");
    let lines = finding_lines(&out);
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines.iter().all(|l| l.contains("V003")), "{out}");
    // A VLT port-channel's member on one leaf down: up on one unit only (V014).
    std::fs::write(&faults, "cabling: { down: [\"1/3\"] }\n").unwrap();
    let (code, out, _) = verify_lab(&fabric, &state, &["--check", "mlag"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        finding_lines(&out),
        [
            "  warning V014 (mlag-ports-not-active): 1 VLT port-channel(s) not active on both switches of the pair (as leaf-b reports them)"
        ],
        "{out}"
    );
    std::fs::remove_file(&faults).unwrap();
}

/// An Onyx spine and an OS10 leaf on one cable: each sees the other by LLDP (the spine's
/// `Eth1/1`, the leaf's `ethernet1/1/53`), clean; a fault at either end is one finding.
#[test]
fn a_mixed_fabric_is_judged_from_both_ends() {
    let dir = scratch("verify-os10-mixed");
    let fabric = dir.join("mixed.yaml");
    std::fs::copy(crate::shared().join("os10/lab/mixed.yaml"), &fabric).unwrap();
    let (_lab, state) = pushed(&fabric, "verify-os10-mixed-lab");
    // Every check: clean (what OS10 does not read said so).
    let (code, out, _) = verify_lab(&fabric, &state, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 finding(s), 0 reply(ies) not read"), "{out}");
    let (code, out, sent) = verify_lab(&fabric, &state, &["--check", "cabling,links"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        sent["spine01"]
            .iter()
            .any(|l| l.ends_with("\tshow lldp remote | json-print")),
        "{sent:?}"
    );
    assert!(
        sent["leaf01"]
            .iter()
            .any(|l| l.ends_with("\tshow lldp neighbors")),
        "{sent:?}"
    );
    for (at, fault, want) in [
        (
            "spine01",
            "cabling: { neighbor: { \"1/1\": { port: ethernet1/1/54 } } }\n",
            "  error V001 (cabling-mismatch): ethernet 1/1: cabled otherwise than the fabric says: spine01 1/1 sees leaf01 ethernet1/1/54 (the fabric: leaf01 ethernet1/1/53)",
        ),
        (
            "leaf01",
            "cabling: { neighbor: { \"1/53\": { port: Eth1/2 } } }\n",
            "  error V001 (cabling-mismatch): ethernet1/1/53: cabled otherwise than the fabric says: leaf01 ethernet1/1/53 sees spine01 Eth1/2 (the fabric: spine01 1/1)",
        ),
        (
            "leaf01",
            "cabling: { down: [\"1/53\"] }\n",
            "  error V003 (link-down): ethernet1/1/53: down",
        ),
    ] {
        let faults = state.join(at).join("faults.yaml");
        std::fs::write(&faults, fault).unwrap();
        let (code, out, _) = verify_lab(&fabric, &state, &["--check", "cabling,links"]);
        assert_eq!(code, 1, "{fault}{out}");
        let lines = finding_lines(&out);
        assert_eq!(lines.len(), 1, "{fault}{out}");
        assert!(lines[0].starts_with(want), "{fault}{out}");
        std::fs::remove_file(&faults).unwrap();
    }
}

/// What a lab switch answers `line` in `session`.
fn answer(
    dev: &fabric::lab::device::Device,
    session: &mut fabric::lab::cli::Session,
    line: &str,
) -> String {
    match dev.command(1, session, line).step {
        fabric::lab::device::Step::Reply { output, .. } => output,
        _ => panic!("{line}: no reply"),
    }
}

/// A BGP session between an OS10 leaf and an Onyx spine is derived from both ends: the
/// leaf's `show ip bgp summary` shows it Established, read as such by `fabric verify`'s OS10
/// reader; the spine under another AS than the leaf expects makes it Idle, a neighbor the
/// spine does not have Active.
#[test]
fn an_os10_bgp_session_is_decided_by_both_ends() {
    use fabric::lab::cli::{Session, Switch};
    use fabric::lab::device::Device;
    use fabric::lab::network::{Cabling, Network};
    use std::sync::Arc;

    let mut cabling = Cabling::default();
    cabling.connect(
        ("leaf", "1/54".parse().unwrap()),
        ("spine", "1/1".parse().unwrap()),
    );
    let network = Network::new(cabling);
    let leaf_config = fabric::os10::parse(
        "hostname leaf\n\
         interface ethernet1/1/54\n no shutdown\n no switchport\n ip address 10.0.0.1/31\n\
         router bgp 65101\n router-id 10.1.0.1\n neighbor 10.0.0.0\n  remote-as 65000\n  no shutdown\n neighbor 10.0.0.4\n  remote-as 65000\n  no shutdown\n",
    )
    .unwrap();
    let model = fabric::os10::models::Model::named("S5248F-ON").unwrap();
    let leaf = Arc::new(Device::new(Switch::os10_with(
        fabric::lab::os10::Os10Switch::with_config(leaf_config, model),
    )));
    let spine = Arc::new(Device::new(Switch::factory("spine")));
    for (name, dev) in [("leaf", &leaf), ("spine", &spine)] {
        network.add_device(name, dev);
        dev.join(network.clone(), name);
    }
    let mut onyx = Session::configuring();
    for line in [
        "lldp",
        "ip routing vrf default",
        "interface ethernet 1/1 no switchport force",
        "interface ethernet 1/1 ip address 10.0.0.0/31 primary",
        "protocol bgp",
        "router bgp 65000 vrf default",
        "router bgp 65000 vrf default router-id 10.255.0.1 force",
        "router bgp 65000 vrf default neighbor 10.0.0.1 remote-as 65101",
    ] {
        assert_eq!(answer(&spine, &mut onyx, line), "", "{line}");
    }
    let mut os10 = Session::new();
    let read = |os10: &mut Session| {
        let text = answer(&leaf, os10, "show ip bgp summary");
        fabric::verify::read_os10::bgp_summary(&text)
            .unwrap_or_else(|e| panic!("{e}: {text}"))
            .unwrap()
    };
    let s = read(&mut os10);
    assert_eq!(
        (s.asn, s.router_id),
        (65101, Some("10.1.0.1".parse().unwrap()))
    );
    let up = &s.neighbors[&"10.0.0.0".parse().unwrap()];
    assert!(up.established(), "{up:?}");
    assert_eq!(s.neighbors[&"10.0.0.4".parse().unwrap()].state, "Active");
    // The leaf's LLDP sees the spine's port, as Onyx names it.
    let lldp = answer(&leaf, &mut os10, "show lldp neighbors");
    let n = fabric::verify::read_os10::lldp_neighbors(&lldp).unwrap();
    assert_eq!(n[&"1/54".parse().unwrap()][0].port_id, "Eth1/1", "{lldp}");
    // The spine moves to another AS: the leaf's session is refused.
    for line in [
        "no router bgp 65000 vrf default",
        "router bgp 65009 vrf default",
        "router bgp 65009 vrf default router-id 10.255.0.1 force",
        "router bgp 65009 vrf default neighbor 10.0.0.1 remote-as 65101",
    ] {
        answer(&spine, &mut onyx, line);
    }
    let s = read(&mut os10);
    assert_eq!(s.neighbors[&"10.0.0.0".parse().unwrap()].state, "Idle");
}

/// `fabric import --live` of an OS10 switch (`--model` of an OS10 model): its running
/// configuration read over its OS10 session, only read, into a fabric that compiles back to
/// it. The leaf is the mixed fabric's, pushed to the lab.
#[test]
fn import_live_reads_an_os10_switch() {
    let dir = scratch("import-live-os10");
    let fabric = dir.join("mixed.yaml");
    std::fs::copy(crate::shared().join("os10/lab/mixed.yaml"), &fabric).unwrap();
    let (_lab, state) = pushed(&fabric, "import-live-os10-lab");
    let a = &crate::lab_ssh::lab_inventory(&state).switches["leaf01"];
    let log = state.join("leaf01/commands.log");
    let before = std::fs::read_to_string(&log).unwrap().lines().count();
    let (code, out) = crate::run(
        crate::lab_ssh::fabric_bin()
            .current_dir(&state)
            .arg("import")
            .arg("--live")
            .arg(format!("leaf01={}@{}:{}", a.user, a.host, a.port))
            .args(["--model", "S5248F-ON", "--inventory"])
            .arg(state.join("inventory.yaml"))
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("leaf01:"), "{out}");
    assert!(out.contains("os: os10") || out.contains("os10:"), "{out}");
    assert!(out.contains("ethernet1/1/1"), "{out}");
    let text = std::fs::read_to_string(&log).unwrap();
    let sent: Vec<&str> = text.lines().skip(before).collect();
    assert!(
        sent.iter()
            .any(|l| l.ends_with("\tshow running-configuration")),
        "{sent:?}"
    );
    assert_read_only(sent.into_iter());
}

/// What `show vlt 1` of each of two OS10 switches cabled VLTi to VLTi (`ethernet1/1/49`)
/// reads as, their VLT domains given (an error: the reply that does not read).
fn vlt_pair(a: &str, b: &str) -> [Result<fabric::verify::read::Mlag, String>; 2] {
    use fabric::lab::cli::{Session, Switch};
    use fabric::lab::device::Device;
    use fabric::lab::network::{Cabling, Network};
    use std::sync::Arc;

    let mut cabling = Cabling::default();
    cabling.connect(
        ("leaf-a", "1/49".parse().unwrap()),
        ("leaf-b", "1/49".parse().unwrap()),
    );
    let network = Network::new(cabling);
    let model = fabric::os10::models::Model::named("S5248F-ON").unwrap();
    let devices = [("leaf-a", a), ("leaf-b", b)].map(|(name, vlt)| {
        let config = fabric::os10::parse(&format!(
            "hostname {name}\ninterface ethernet1/1/49\n no shutdown\n no switchport\n{vlt}"
        ))
        .unwrap();
        let dev = Arc::new(Device::new(Switch::os10_with(
            fabric::lab::os10::Os10Switch::with_config(config, model),
        )));
        network.add_device(name, &dev);
        dev
    });
    for (name, dev) in ["leaf-a", "leaf-b"].iter().zip(&devices) {
        dev.join(network.clone(), name);
    }
    // By reference: a switch dropped is off the network.
    devices.each_ref().map(|dev| {
        let text = answer(dev, &mut Session::new(), "show vlt 1");
        fabric::verify::read_os10::vlt(&text)
    })
}

/// A VLT pair is decided by both ends: up when the VLTi joins two switches of one domain
/// with one VLT MAC, down at both ends when the MACs differ, and the VLTi itself down when
/// the domains differ (the OS10 user guide's rules).
#[test]
fn an_os10_vlt_pair_is_decided_by_both_ends() {
    let domain = |id: u8, mac: &str| {
        format!("vlt-domain {id}\n discovery-interface ethernet1/1/49\n vlt-mac {mac}\n")
    };
    let mac = "00:00:5e:00:01:5e";
    let [a, b] = vlt_pair(&domain(1, mac), &domain(1, mac)).map(Result::unwrap);
    for m in [&a, &b] {
        assert_eq!((m.admin.as_str(), m.oper.as_str()), ("Enabled", "Up"));
        assert_eq!(m.system_mac.as_deref(), Some(mac));
        assert_eq!(m.ipls[0].state, "up");
    }
    let [a, b] = vlt_pair(&domain(1, mac), &domain(1, "00:00:5e:00:01:5f")).map(Result::unwrap);
    assert_eq!((a.oper.as_str(), b.oper.as_str()), ("Down", "Down"));
    assert_eq!(b.system_mac.as_deref(), Some("00:00:5e:00:01:5f"));
    assert_eq!(a.ipls[0].state, "up", "the VLTi is up; the peership is not");
    let [a, b] = vlt_pair(&domain(1, mac), &domain(2, mac));
    let a = a.unwrap();
    assert_eq!(
        (a.oper.as_str(), a.ipls[0].state.as_str()),
        ("Down", "down")
    );
    assert_eq!(
        b.unwrap_err(),
        "the switch answered `% Error: VLT domain is not configured.`",
        "leaf-b's domain is 2"
    );
}

/// Port groups end to end (`tests/fixtures/os10/lab/port-groups.yaml`): the lab's factory
/// S5248F-ON leaves run every group in its native mode; a push sets the fabric's modes
/// (disruptive: the groups' ports are re-created) and configures the new ports, and a second
/// plan finds nothing to do; the network model, LLDP and `show interface status` see the
/// ports under their new names (`ethernet1/1/41:1` cabled to `ethernet1/1/54:1`, the subports
/// of 53), and `fabric verify` finds the cabling as the fabric says.
#[test]
fn port_groups_push_and_verify_by_their_new_names() {
    use fabric::device::{Cli, Options, Secret, Target, dialect};

    let fabric = crate::shared().join("os10/lab/port-groups.yaml");
    let state = scratch("os10-port-groups-lab");
    let (_lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    // Without `--allow-disruptive` the mode changes are refused.
    let (code, out) = push_lab(&fabric, &state, &[]);
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("mode Eth 10g-4x"), "{out}");
    let (code, out) = push_lab(&fabric, &state, &["--allow-disruptive", "--verify-state"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 finding(s)"), "{out}");
    let (code, out) = push_lab(&fabric, &state, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("no change"), "{out}");

    let inventory = crate::lab_ssh::lab_inventory(&state);
    let show = |name: &str, command: &str| {
        let a = &inventory.switches[name];
        let target = Target::new(name, &a.host, a.port, "admin");
        let mut opts = Options::new(state.join("known_hosts"));
        opts.password = Some(Secret("admin".into()));
        let mut cli = Cli::open_as(&target, &opts, &dialect::OS10).unwrap();
        let text = cli.run(command).unwrap();
        cli.close();
        text
    };
    let lldp = show("leaf01", "show lldp neighbors");
    let row = lldp
        .lines()
        .find(|l| l.starts_with("ethernet1/1/41:1 "))
        .unwrap_or_else(|| panic!("{lldp}"));
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>()[..3],
        ["ethernet1/1/41:1", "leaf02", "ethernet1/1/54:1"],
        "{lldp}"
    );
    let status = show("leaf02", "show interface status");
    let row = status
        .lines()
        .find(|l| l.starts_with("Eth 1/1/54:1 "))
        .unwrap_or_else(|| panic!("{status}"));
    assert!(row.contains(" up ") && row.contains(" 10G "), "{row}");
    let groups = show("leaf01", "show port-group");
    for want in [
        "port-group1/1/5       Eth 10g-4x     17  18  19  20     -",
        "port-group1/1/11      Eth 10g-4x     41  42  43  44     -",
        "port-group1/1/15      Eth 25g-4x     53         -",
        "port-group1/1/16      Eth 100g-1x    54         -",
    ] {
        assert!(groups.lines().any(|l| l == want), "{want}: {groups}");
    }
    let (code, out, _) = verify_lab(&fabric, &state, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 finding(s)"), "{out}");
}
