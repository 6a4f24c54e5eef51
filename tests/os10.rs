//! The OS10 module against real captures: every running configuration in
//! `tests/fixtures/corpus/os10/` reads and prints back byte for byte, what is modeled is read
//! into the state, malformed inputs (`tests/fixtures/os10/bad/`, and captures that are not what
//! they claim) are refused with their line and column, and `parse(render(c)) == c` for
//! generated configs covering the RoCE recipe, VLT, port-channels and BGP.

use std::path::PathBuf;

use fabric::os10::{Config, Iface, Problem, Renderer, parse};

fn corpus(name: &str) -> PathBuf {
    super::shared().join("corpus/os10").join(name)
}

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The captures that are a switch's running configuration (or part of one), as printed.
const ROUND_TRIP: &[&str] = &[
    "azurestack-rack2-Rack01-TOR-1.running-configuration.10.5.3.2.txt",
    "azurestack-rack2-Rack01-BMC-1.running-configuration.10.5.3.2.txt",
    "cray-sw-leaf-bmc-001.running-configuration.10.5.1.4.txt",
    "dellemc-os10.running-config.10.4.0E.txt",
    "cray-sw-cdu-001.running-configuration-interface-vlan-2000.txt",
];

fn render(c: &Config) -> String {
    Renderer::embedded().unwrap().render(c).unwrap()
}

#[test]
fn every_capture_prints_back_byte_for_byte() {
    for name in ROUND_TRIP {
        let text = read(&corpus(name));
        let config = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let printed = render(&config);
        if printed != text {
            let diff = similar::TextDiff::from_lines(&text, &printed);
            panic!(
                "{name} does not print back:\n{}",
                diff.unified_diff().context_radius(2)
            );
        }
        assert_eq!(parse(&printed).unwrap(), config, "{name}");
    }
}

/// What the TOR capture configures for RoCE, VLT and BGP is read into the state, not kept as
/// text.
#[test]
fn the_tor_capture_is_read_into_the_model() {
    let c = parse(&read(&corpus(ROUND_TRIP[0]))).unwrap();
    assert_eq!(c.header.version.as_deref(), Some("10.5.3.2"));
    assert_eq!(c.hostname.as_deref(), Some("rack2-Rack01-TOR-1"));
    assert!(c.dcbx);
    let eth = |n| &c.interfaces[&Iface::Ethernet(fabric::os10::Eth::new(n))];
    let p1 = eth(1);
    assert_eq!(p1.description.as_deref(), Some("CL01 Nodes NIC"));
    assert_eq!(p1.mtu, Some(9216));
    assert!(p1.pfc && p1.ets);
    assert_eq!(p1.flowcontrol_rx, Some(false));
    assert_eq!(p1.policy_in.as_deref(), Some("AZS_SERVICES_pfc"));
    assert_eq!(p1.policy_out.as_deref(), Some("AZS_SERVICES_ets"));
    assert_eq!(p1.qos_map.as_deref(), Some("AZS_SERVICES_Que"));
    // The spanning-tree lines are not modeled: kept after the 12 modeled lines.
    assert_eq!(p1.extras.len(), 3);
    assert!(p1.extras.iter().all(|(k, _)| *k == 12), "{:?}", p1.extras);
    assert_eq!(
        eth(39).address.map(|a| a.to_string()).as_deref(),
        Some("10.185.239.157/30")
    );
    assert!(eth(39).routed);
    let sub = &c.interfaces[&Iface::Ethernet(fabric::os10::Eth::sub(17, 1))];
    assert_eq!(sub.shutdown, Some(true));
    assert_eq!(c.interfaces.len(), 4 + 1 + 1 + 56);

    assert_eq!(c.wred.len(), 1);
    assert!(c.wred[0].ecn);
    assert_eq!(
        c.class_maps.len(),
        6,
        "the application class-map is kept as text"
    );
    assert_eq!(
        c.class_maps[0].name, "AZS_SERVICES_Dot1p_5",
        "in the order printed"
    );
    assert_eq!(c.trust_maps[0].groups[&0].to_string(), "0-2,4,6-7");
    assert_eq!(c.qos_maps[0].queues.len(), 3);
    let pfc = &c.policy_maps[0];
    assert_eq!(pfc.classes[0].name, "AZS_SERVICES_Dot1p_3");
    assert!(pfc.classes[0].pause);
    assert_eq!(
        pfc.classes[0].pfc_cos.map(|r| r.to_string()).as_deref(),
        Some("3")
    );
    let q3 = &c.policy_maps[2].classes[0];
    assert_eq!(
        (q3.bandwidth, q3.random_detect.as_deref()),
        (Some(50), Some("ecn"))
    );
    let sq = c.system_qos.as_ref().unwrap();
    assert!(sq.ets);
    assert_eq!(
        sq.trust_map.as_ref().map(|t| t.1.as_str()),
        Some("AZS_SERVICES_Dot1p")
    );

    let vlt = c.vlt.as_ref().unwrap();
    assert_eq!(vlt.discovery.len(), 4);
    assert!(vlt.peer_routing);
    assert_eq!(
        vlt.backup.map(|a| a.to_string()).as_deref(),
        Some("10.185.239.153")
    );
    let bgp = c.bgp.as_ref().unwrap();
    assert_eq!(bgp.asn, 64633);
    assert_eq!((bgp.max_paths_ebgp, bgp.max_paths_ibgp), (Some(8), Some(8)));
    assert!(bgp.multipath_relax);
    assert_eq!(bgp.ipv4.as_ref().unwrap().networks.len(), 8);
    assert_eq!(bgp.templates.len(), 5);
    assert_eq!(bgp.neighbors.len(), 5);
    let (addr, n) = &bgp.neighbors[1];
    assert_eq!(addr.to_string(), "10.185.239.129");
    assert_eq!(n.inherit.as_deref(), Some("Border1"));
    assert_eq!(n.shutdown, Some(false));
    assert_eq!(n.ipv4.as_ref().unwrap().extras.len(), 3);
}

/// One file per malformed case in `tests/fixtures/os10/bad/`: each is refused with its problem,
/// line and column (snapshotted), never read into a config.
#[test]
fn malformed_inputs_are_refused_with_their_place() {
    let mut count = 0;
    insta::glob!("fixtures/os10/bad/*", |path| {
        count += 1;
        let text = read(path);
        let e = match parse(&text) {
            Ok(c) => panic!("{} was read: {c:?}", path.display()),
            Err(e) => e,
        };
        let line = text.split('\n').nth(e.line - 1).unwrap_or("");
        assert_eq!(
            e.text,
            line,
            "{}: the error quotes its line",
            path.display()
        );
        assert!(
            e.column >= 1 && e.column <= line.chars().count() + 1,
            "{e:?}"
        );
        insta::assert_snapshot!(format!(
            "{:?} at {}:{}\n{}\n{}^ {}",
            e.problem,
            e.line,
            e.column,
            e.text,
            " ".repeat(e.column - 1),
            e.expected
        ));
    });
    assert!(count >= 25, "{count} cases");
}

/// Captures that are not a running configuration as the switch prints it are refused where
/// they stop being one: a pasted session (the prompt and command first), and a copy that lost
/// its indentation (the blog's S4112F-ON configuration: `no shutdown` under `interface vlan1`
/// at column 1).
#[test]
fn captures_that_are_not_a_running_configuration_are_refused() {
    let e = parse(&read(&corpus(
        "azurestack-rack2-Rack01-TOR-1.session.10.5.3.2.txt",
    )))
    .unwrap_err();
    assert_eq!(
        (e.problem, e.line, e.column),
        (Problem::Prompt, 1, 1),
        "{e}"
    );
    let text = read(&corpus(
        "grantcurell-S4112F-ON.running-configuration.10.5.0.2.flattened.txt",
    ));
    let e = parse(&text).unwrap_err();
    assert_eq!(
        (e.problem, e.line, e.text.as_str()),
        (Problem::Structure, 22, "no shutdown"),
        "{e}"
    );
    assert_eq!(text.lines().nth(20), Some("interface vlan1"));
}

/// The OS10 Ansible collection's test configuration (written by hand, not printed by a switch:
/// `ip address` before `description`, a description with spaces unquoted) reads, and prints in
/// OS10's order and spelling, which reads back to the same state.
#[test]
fn a_hand_written_configuration_prints_in_os10_order() {
    let text = read(&corpus("dellemc-os10-ansible.os10_config.cfg"));
    let c = parse(&text).unwrap();
    let printed = render(&c);
    assert_eq!(
        printed,
        "!\nhostname router\n!\ninterface ethernet1/1/2\n description \"test string\"\n ip address 1.2.3.4/24\n!\ninterface ethernet1/1/3\n description \"test string\"\n shutdown\n ip address 6.7.8.9/24\n!\n\n"
    );
    assert_eq!(parse(&printed).unwrap(), c);
}
