//! `fabric verify` of OS10 switches end to end, over real SSH against `fabric lab` after a
//! push: the OS10 VLT pair of `fabrics/vcf-bitfusion.yaml` verifies clean in every family
//! (LLDP and links from `show lldp neighbors` and `show interface status`, PFC from `show
//! interface NAME priority-flow-control`, trust, ECN, ETS and the lossless priorities from
//! `show running-configuration`), each cabling fault and each QoS change made in the switch's
//! CLI is one finding with the id it has on Onyx, at its port, and a fabric mixing an Onyx
//! spine and an OS10 leaf (`tests/fixtures/os10/lab/mixed.yaml`) is judged from both ends of
//! its cable. Each QoS check also in process, on the pair's lab switches.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use fabric::audit::Finding;
use fabric::fabric::Fabric;
use fabric::lab::device::Device;
use fabric::verify::{self, Family, Input, Observed};

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
    // Every family is read on OS10: nothing is said unchecked.
    assert!(!out.contains("not checked"), "{out}");
    for (name, lines) in &sent {
        for c in [
            "show lldp neighbors",
            "show interface status",
            "show interface ethernet1/1/9 priority-flow-control",
            "show interface ethernet1/1/49 priority-flow-control",
            "show interface port-channel1 priority-flow-control",
            "show running-configuration",
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

/// Configures one OS10 switch of a running lab by hand over SSH, in configuration mode, and
/// logs out: each line is taken (no `% Error`).
fn by_hand(state: &Path, switch: &str, lines: &[&str]) {
    let a = &crate::lab_ssh::lab_inventory(state).switches[switch];
    let addr = format!("{}:{}", a.host, a.port).parse().unwrap();
    let mut sh = crate::lab_ssh::Shell::open_os10(addr, &state.join("known_hosts"));
    for line in std::iter::once(&"configure terminal")
        .chain(lines)
        .chain([&"end"])
    {
        let out = sh.send(line).unwrap();
        assert!(!out.contains('%'), "{line}: {out}");
    }
}

/// The QoS families end to end: after a push, PFC turned off on one port in the switch's
/// own CLI over SSH is one finding at that port, and `pfc-cos 3` removed from the
/// network-qos policy one finding of the switch (the lossless pool's), nothing else; a push
/// puts both back and verifies clean.
#[test]
fn qos_drift_made_in_the_os10_cli_is_found_at_its_port() {
    let fabric = root().join("fabrics/vcf-bitfusion.yaml");
    let (_lab, state) = pushed(&fabric, "verify-os10-qos");
    by_hand(
        &state,
        "leaf-a",
        &[
            "interface ethernet1/1/12",
            "no priority-flow-control mode on",
        ],
    );
    let (code, out, sent) = verify_lab(&fabric, &state, &["--check", "pfc,qos,pools"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        finding_lines(&out),
        [
            "  error V005 (pfc-not-operational): ethernet1/1/12: in PFC mode, but `Oper status` is disabled (`Admin mode` disabled)"
        ],
        "{out}"
    );
    for lines in sent.values() {
        assert_read_only(lines.iter().map(String::as_str));
    }
    by_hand(
        &state,
        "leaf-b",
        &[
            "policy-map type network-qos ROCE_PFC",
            "class ROCE3",
            "no pfc-cos 3",
        ],
    );
    let (code, out, _) = verify_lab(
        &fabric,
        &state,
        &["--check", "pfc,qos,pools", "--format", "json"],
    );
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found: Vec<(&str, &str, &str)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap(),
                f["switch"].as_str().unwrap(),
                f["interfaces"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("V005", "leaf-a", "ethernet1/1/12"),
            ("V009", "leaf-b", "-")
        ],
        "{out}"
    );
    let (code, out) = push_lab(
        &fabric,
        &state,
        &["--allow-disruptive", "--verify-state=pfc,qos,pools"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 switch(es) verified (pfc, qos, pools): 0 finding(s)"),
        "{out}"
    );
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
    session: &mut fabric::lab::Session,
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
    use fabric::lab::Session;
    use fabric::lab::device::Device;
    use fabric::lab::network::{Cabling, Network};
    use fabric::onyx::lab::Switch;
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
    let leaf = Arc::new(Device::new(fabric::lab::Switch::of(Box::new(
        fabric::os10::lab::Os10Switch::with_config(leaf_config, model),
    ))));
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
        fabric::os10::verify::read::bgp_summary(&text)
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
    let n = fabric::os10::verify::read::lldp_neighbors(&lldp).unwrap();
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
fn vlt_pair(a: &str, b: &str) -> [Result<fabric::verify::observed::Mlag, String>; 2] {
    use fabric::lab::Session;
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
        let dev = Arc::new(Device::new(fabric::lab::Switch::of(Box::new(
            fabric::os10::lab::Os10Switch::with_config(config, model),
        ))));
        network.add_device(name, &dev);
        dev
    });
    for (name, dev) in ["leaf-a", "leaf-b"].iter().zip(&devices) {
        dev.join(network.clone(), name);
    }
    // By reference: a switch dropped is off the network.
    devices.each_ref().map(|dev| {
        let text = answer(dev, &mut Session::new(), "show vlt 1");
        fabric::os10::verify::read::vlt(&text)
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
    use fabric::device::{Cli, Options, Secret, Target};
    use fabric::os10::dialect;

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
        let mut cli = Cli::open_as(&target, &opts, &dialect::DIALECT).unwrap();
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

// The QoS families on the VLT pair, in process: each leaf a lab OS10 switch running what
// `fabric push` configures (`os10::compile`), cabled as the fabric says; every command of
// `verify::plan` answered by the lab, read by `os10::verify`, and judged.

/// The pair of `fabrics/vcf-bitfusion.yaml`, each leaf running its compiled configuration;
/// `lines` typed on leaf-a first, in configuration mode (each must be taken).
fn bitfusion_pair(lines: &[&str]) -> (Fabric, BTreeMap<String, Arc<Device>>) {
    use fabric::lab::network::{Cabling, Network};

    let f = crate::verify::load("fabrics/vcf-bitfusion.yaml");
    let network = Network::new(Cabling::from_fabric(&f));
    let model = fabric::os10::models::Model::named("S5248F-ON").unwrap();
    let mut devices = BTreeMap::new();
    for (name, sw) in &f.switches {
        let config = fabric::os10::compile::compile_switch(sw);
        let dev = Arc::new(Device::new(fabric::lab::Switch::of(Box::new(
            fabric::os10::lab::Os10Switch::with_config(config, model),
        ))));
        network.add_device(name.as_str(), &dev);
        devices.insert(name.to_string(), dev);
    }
    for (name, dev) in &devices {
        dev.join(network.clone(), name);
    }
    let mut s = fabric::lab::Session::new();
    for line in std::iter::once("configure terminal").chain(lines.iter().copied()) {
        assert_eq!(answer(&devices["leaf-a"], &mut s, line), "", "{line}");
    }
    (f, devices)
}

/// The findings of `families` on the pair: what each leaf answers its plan's commands, read.
fn judged(
    f: &Fabric,
    devices: &BTreeMap<String, Arc<Device>>,
    families: &[Family],
) -> Vec<Finding> {
    let families: BTreeSet<Family> = families.iter().copied().collect();
    let mut observed = BTreeMap::new();
    for (name, sw) in &f.switches {
        let mut obs = Observed::default();
        let mut s = fabric::lab::Session::new();
        answer(&devices[name.as_str()], &mut s, "terminal length 0");
        let reads = sw.os().target().reads();
        for ask in reads.asks(sw, verify::plan(sw, &families).queries) {
            let command = &ask.command;
            let text = answer(&devices[name.as_str()], &mut s, command);
            reads
                .read(&ask, &text, &mut obs)
                .unwrap_or_else(|e| panic!("{name} `{command}`: {e}\n{text}"));
        }
        observed.insert(name.to_string(), obs);
    }
    verify::verify(&Input {
        fabric: f,
        families,
        observed,
    })
}

/// The findings as `rule switch interfaces: message` lines.
fn said(found: &[Finding]) -> Vec<String> {
    found
        .iter()
        .map(|f| format!("{} {} {}", f.rule, f.switch, f.message))
        .collect()
}

const QOS: [Family; 3] = [Family::Pfc, Family::Qos, Family::Pools];

/// Clean as pushed; PFC turned off on one port is V005 at that port, and only there; a
/// port-channel whose only member is shut down is not in PFC operation, but that follows from
/// the link's finding.
#[test]
fn pfc_off_on_an_os10_port_is_one_finding_there() {
    let (f, devices) = bitfusion_pair(&[]);
    assert_eq!(said(&judged(&f, &devices, &QOS)), Vec::<String>::new());
    let (f, devices) = bitfusion_pair(&[
        "interface ethernet1/1/9",
        "no priority-flow-control mode on",
    ]);
    assert_eq!(
        said(&judged(&f, &devices, &QOS)),
        [
            "V005 leaf-a ethernet1/1/9: in PFC mode, but `Oper status` is disabled (`Admin mode` disabled)"
        ]
    );
    let (f, devices) = bitfusion_pair(&["interface ethernet1/1/3", "shutdown"]);
    let found = judged(&f, &devices, &[Family::Links, Family::Pfc]);
    assert_eq!(
        said(&found),
        ["V003 leaf-a ethernet1/1/3: down (operational down); cabled to host gpu-03"]
    );
    assert!(
        said(&judged(&f, &devices, &[Family::Pfc])).iter().any(|l| l
            .starts_with("V005 leaf-a port-channel3: in PFC mode, but `Oper status` is disabled")),
        "without the links, the port-channel's PFC is the finding"
    );
}

/// `pfc-cos 3` removed from the network-qos policy: one problem of the switch (V009), not
/// one per port; checked alone, the ports' PFC says it at each (consecutive ones once).
#[test]
fn a_priority_no_longer_paused_is_the_pools_finding() {
    let (f, devices) = bitfusion_pair(&[
        "policy-map type network-qos ROCE_PFC",
        "class ROCE3",
        "no pfc-cos 3",
    ]);
    assert_eq!(
        said(&judged(&f, &devices, &QOS)),
        [
            "V009 leaf-a buffer pool `roce` (lossless): priorities paused by the network-qos policies in use (`pause`, `pfc-cos`) none, the fabric says 3"
        ]
    );
    let found = judged(&f, &devices, &[Family::Pfc]);
    let at: Vec<&str> = found
        .iter()
        .filter_map(|f| f.interfaces.as_deref())
        .collect();
    assert_eq!(
        at,
        [
            "ethernet1/1/9-1/1/16",
            "ethernet1/1/49-1/1/50",
            "port-channel1-8"
        ],
        "{found:#?}"
    );
    assert!(
        found.iter().all(|f| f.rule == "V005"
            && f.message
                .ends_with("in PFC mode, but it pauses priorities none, the fabric says 3")),
        "{found:#?}"
    );
}

/// Trust: a port classifying by another map (V006 there), and a map that sends DSCP
/// elsewhere (V006 at each port under it).
#[test]
fn os10_trust_is_judged_per_port_and_by_its_map() {
    let (f, devices) = bitfusion_pair(&["interface ethernet1/1/10", "trust-map dot1p OTHER"]);
    assert_eq!(
        said(&judged(&f, &devices, &[Family::Qos])),
        ["V006 leaf-a ethernet1/1/10: trust L2 (`trust dot1p-map OTHER`), the fabric says L3"]
    );
    let (f, devices) = bitfusion_pair(&["trust dscp-map ROCE_TRUST", "qos-group 2 dscp 24-31"]);
    let found = said(&judged(&f, &devices, &[Family::Qos]));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert_eq!(
        found[0],
        "V006 leaf-a ethernet1/1/9-1/1/16: trust L3 by `trust dscp-map ROCE_TRUST`: qos-group 2 24-31, the fabric says 16-23"
    );
}

/// ECN and ETS: a port without its queuing policy (V007 and V008 there), and the policy's
/// share of the RoCE queue changed (V008 at each port under it).
#[test]
fn os10_ecn_and_ets_are_judged_per_port() {
    let (f, devices) = bitfusion_pair(&[
        "interface ethernet1/1/11",
        "no service-policy output type queuing ROCE_ETS",
    ]);
    assert_eq!(
        said(&judged(&f, &devices, &[Family::Qos])),
        [
            "V007 leaf-a ethernet1/1/11: traffic class 3: no marking, the fabric says ECN from 150 KB to 1500 KB",
            "V008 leaf-a ethernet1/1/11: traffic class 0: not listed, the fabric says bandwidth 31%; traffic class 1: not listed, the fabric says bandwidth 8%; traffic class 2: not listed, the fabric says bandwidth 7%; traffic class 3: not listed, the fabric says bandwidth 31%; traffic class 4: not listed, the fabric says bandwidth 7%; traffic class 5: not listed, the fabric says bandwidth 8%; traffic class 6: not listed, the fabric says strict priority; traffic class 7: not listed, the fabric says bandwidth 8%",
        ]
    );
    let (f, devices) = bitfusion_pair(&[
        "wred ecn",
        "random-detect color green minimum-threshold 100 maximum-threshold 1500 drop-probability 100",
    ]);
    let found = said(&judged(&f, &devices, &[Family::Qos]));
    assert_eq!(
        found,
        [
            "V007 leaf-a ethernet1/1/9-1/1/16: traffic class 3: ECN from 100 KB to 1500 KB, the fabric says ECN from 150 KB to 1500 KB",
            "V007 leaf-a ethernet1/1/49-1/1/50: traffic class 3: ECN from 100 KB to 1500 KB, the fabric says ECN from 150 KB to 1500 KB",
        ]
    );
    let (f, devices) = bitfusion_pair(&[
        "policy-map type queuing ROCE_ETS",
        "class Q3",
        "bandwidth percent 40",
    ]);
    let found = said(&judged(&f, &devices, &[Family::Qos]));
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("V008 leaf-a ethernet1/1/9-1/1/16: traffic class 3: bandwidth 40%, the fabric says bandwidth 31%"), "{found:#?}");
}
