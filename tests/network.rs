//! The lab as a network: state that both ends of a cable decide. After a push of the routed
//! leaf-spine fabric every BGP session is Established on both ends; shutting one port, or
//! one end's wrong AS, takes exactly that session down on both ends, and mending it brings it
//! back. An MLAG pair forms only when both halves agree on their peer link, and its MLAG
//! port-channels are active on one or both switches as their members are up.

use std::collections::BTreeMap;
use std::path::Path;

use fabric::lab::{Cabling, Device, Network, Session};
use fabric::onyx::lab::Switch;

use crate::lab_ssh::{Shell, lab_inventory, push_inventory_of, start_lab_of, stdio_session_of};
use crate::{root, scratch};

/// The rows of `show ip bgp summary`: neighbor → its State/PfxRcd column.
fn sessions(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(cols.len(), 10, "a row of ten columns: {l:?}");
            (cols[0].to_string(), cols[9].to_string())
        })
        .collect()
}

/// `fabric push FABRIC` to the switches of a running `fabric lab` (its inventory and
/// known_hosts, the lab's password), with `extra` arguments.
pub fn push_lab(fabric: &Path, state: &Path, extra: &[&str]) -> (i32, String) {
    push_inventory_of(
        fabric,
        state,
        &state.join("known_hosts"),
        extra,
        &[("FABRIC_PASSWORD", "admin")],
    )
}

/// Logged-in shells on every switch of a running `fabric lab`, enabled, paging off.
pub fn shells(state: &Path) -> BTreeMap<String, Shell> {
    lab_inventory(state)
        .switches
        .iter()
        .map(|(name, a)| {
            let addr = format!("{}:{}", a.host, a.port).parse().unwrap();
            let mut sh = Shell::open(addr, &state.join("known_hosts"));
            sh.send("no cli session paging enable").unwrap();
            sh.send("enable").unwrap();
            (name.clone(), sh)
        })
        .collect()
}

/// Every switch's sessions, as its `show ip bgp summary` prints them.
fn all_sessions(
    shells: &mut BTreeMap<String, Shell>,
) -> BTreeMap<String, BTreeMap<String, String>> {
    shells
        .iter_mut()
        .map(|(name, sh)| {
            (
                name.clone(),
                sessions(&sh.send("show ip bgp summary").unwrap()),
            )
        })
        .collect()
}

/// The sessions not Established with the PfxRcd the leaf-spine gives every session (a leaf
/// receives 7 prefixes from a spine: the other three leaves' loopbacks and server subnets,
/// the spine's loopback; a spine 2 from a leaf: its loopback and server subnet).
fn not_up(all: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (name, rows) in all {
        let expect = if name.starts_with("leaf") {
            "ESTABLISHED/7"
        } else {
            "ESTABLISHED/2"
        };
        for (neighbor, state) in rows {
            if state != expect {
                out.push((name.clone(), neighbor.clone(), state.clone()));
            }
        }
    }
    out
}

#[test]
fn routed_fabric_pushed_to_the_lab_establishes_every_session_and_one_broken_end_drops_one() {
    let state = scratch("network-bgp");
    let fabric = root().join("fabrics/ml-cluster.yaml");
    let (_lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    // Before the push: factory switches, no BGP (hidden until `protocol bgp`). The shells
    // close before the push, which refuses to configure a switch someone else is logged in to.
    let before = shells(&state)
        .get_mut("leaf01")
        .unwrap()
        .send("show ip bgp summary")
        .unwrap();
    assert_eq!(before, "% Unrecognized command \"bgp\".\n");

    let (code, out) = push_lab(&fabric, &state, &["--allow-disruptive"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches(" converged ").count(), 6, "{out}");
    // BFD on every session went with it (the lab takes the lines as Onyx prints them): a
    // second push has nothing to change.
    let (code, out) = push_lab(&fabric, &state, &[]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(out.matches(": no change").count(), 6, "{out}");

    let mut shells = shells(&state);
    let config = shells
        .get_mut("spine02")
        .unwrap()
        .send("show running-config")
        .unwrap();
    for line in [
        "   protocol bfd
",
        "   ip bfd vrf default interval transmit-rate 300 force
",
        "   router bgp 65000 vrf default bgp fast-external-fallover
",
        "   router bgp 65000 vrf default neighbor 10.254.0.225 fall-over bfd
",
    ] {
        assert!(config.contains(line), "{line:?} in\n{config}");
    }
    let all = all_sessions(&mut shells);
    assert_eq!(all.len(), 6);
    for (name, rows) in &all {
        let n = if name.starts_with("leaf") { 8 } else { 16 };
        assert_eq!(rows.len(), n, "{name}: {rows:?}");
    }
    assert_eq!(not_up(&all), vec![], "every session is up after the push");
    let leaf01 = shells
        .get_mut("leaf01")
        .unwrap()
        .send("show ip bgp summary")
        .unwrap();
    for line in [
        "BGP router identifier     : 10.255.1.1\n",
        "local AS number           : 65101\n",
        // Its own loopback and subnet, the other leaves' six, both spines' loopbacks.
        "IPV4 Prefixes             : 10\n",
    ] {
        assert!(leaf01.contains(line), "{line:?} in\n{leaf01}");
    }

    // One end of one cable shut: that session goes down at both ends, nothing else.
    let leaf01 = shells.get_mut("leaf01").unwrap();
    leaf01.send("configure terminal").unwrap();
    assert_eq!(
        leaf01.send("interface ethernet 1/25 shutdown").unwrap(),
        "\n"
    );
    let down = vec![
        ("leaf01".into(), "10.254.0.192".into(), "ACTIVE".into()),
        ("spine01".into(), "10.254.0.193".into(), "ACTIVE".into()),
    ];
    assert_eq!(not_up(&all_sessions(&mut shells)), down);
    let leaf01 = shells.get_mut("leaf01").unwrap();
    leaf01.send("interface ethernet 1/25 no shutdown").unwrap();
    assert_eq!(not_up(&all_sessions(&mut shells)), vec![]);

    // One end with the wrong AS for its neighbor: refused at both ends.
    let spine01 = shells.get_mut("spine01").unwrap();
    spine01.send("configure terminal").unwrap();
    spine01
        .send("router bgp 65000 vrf default neighbor 10.254.0.201 remote-as 65199")
        .unwrap();
    let idle = vec![
        ("leaf01".into(), "10.254.0.200".into(), "IDLE".into()),
        ("spine01".into(), "10.254.0.201".into(), "IDLE".into()),
    ];
    assert_eq!(not_up(&all_sessions(&mut shells)), idle);
}

/// Lab switches running a fabric's compiled configs, of the fabric's models and releases,
/// cabled as the fabric says.
pub fn network_of(yaml: &str) -> BTreeMap<String, std::sync::Arc<Device>> {
    network_and_devices(yaml).1
}

/// [`network_of`], with the network.
pub(crate) fn network_and_devices(
    yaml: &str,
) -> (
    std::sync::Arc<Network>,
    BTreeMap<String, std::sync::Arc<Device>>,
) {
    let mut sources = fabric::diag::Sources::default();
    let loaded =
        fabric::fabric::parse_bytes("fabric.yaml", yaml.as_bytes().to_vec(), &mut sources).unwrap();
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let fab = fab.unwrap_or_else(|| panic!("{}", fabric::diag::render(&diags, &sources, false)));
    let network = Network::new(Cabling::from_fabric(&fab));
    let devices = fabric::onyx::compile::fabric(&fab)
        .into_iter()
        .map(|(name, config)| {
            let mut sw = Switch::with_config(config);
            if let Some(f) = fab.switches.get(&name) {
                sw.model = fabric::onyx::target::model_of(f.model);
                sw.release = f.release.unwrap_or(fabric::onyx::lab::LAB_RELEASE);
            }
            let dev = std::sync::Arc::new(Device::new(sw));
            network.add_device(name.as_str(), &dev);
            dev.join(network.clone(), name.as_str());
            (name.to_string(), dev)
        })
        .collect();
    (network, devices)
}

/// Every switch's BGP as the network derives it now.
fn bgp_views(
    network: &std::sync::Arc<Network>,
    devices: &BTreeMap<String, std::sync::Arc<Device>>,
) -> BTreeMap<String, fabric::lab::network::BgpView> {
    let me = devices.keys().next().unwrap();
    network.world(me).net().bgp().clone()
}

/// One session of a switch, as the network derives it.
fn session_of(
    views: &BTreeMap<String, fabric::lab::network::BgpView>,
    sw: &str,
    neighbor: &str,
) -> fabric::lab::network::Session {
    let n: std::net::Ipv4Addr = neighbor.parse().unwrap();
    views[sw]
        .sessions
        .iter()
        .find(|s| s.neighbor == fabric::lab::network::Peer::Addr(n))
        .cloned()
        .unwrap()
}

/// BFD and BGP timers are each end's, and the session is what both make of them: BFD up
/// where both ends run it; where one end drops it, BGP stays Established and that end's BFD
/// never comes up (RFC 5882); the hold time is the smaller of the two ends' (RFC 4271).
#[test]
fn bfd_and_hold_time_are_what_both_ends_of_a_session_make_of_them() {
    let yaml = std::fs::read_to_string(root().join("fabrics/ml-cluster.yaml")).unwrap();
    let (network, net) = network_and_devices(&yaml);
    let views = bgp_views(&network, &net);
    for (name, v) in &views {
        for s in &v.sessions {
            assert_eq!(
                (s.state, s.bfd, s.hold),
                (
                    fabric::lab::network::SessionState::Established,
                    Some(true),
                    Some(180)
                ),
                "{name} {}",
                s.neighbor
            );
        }
    }
    // spine01 stops watching its session with leaf01's 1/25; leaf01 shortens its timers.
    assert_eq!(
        typed(
            &net["spine01"],
            &["router bgp 65000 vrf default no neighbor 10.254.0.193 fall-over bfd"]
        ),
        ""
    );
    assert_eq!(
        typed(
            &net["leaf01"],
            &["router bgp 65101 vrf default neighbor 10.254.0.192 timers 3 9"]
        ),
        ""
    );
    let views = bgp_views(&network, &net);
    let leaf = session_of(&views, "leaf01", "10.254.0.192");
    let spine = session_of(&views, "spine01", "10.254.0.193");
    let established = fabric::lab::network::SessionState::Established;
    assert_eq!(
        (leaf.state, leaf.bfd, leaf.hold),
        (established, Some(false), Some(9))
    );
    assert_eq!(
        (spine.state, spine.bfd, spine.hold),
        (established, None, Some(9))
    );
    // The other sessions keep theirs.
    let other = session_of(&views, "leaf01", "10.254.0.200");
    assert_eq!((other.bfd, other.hold), (Some(true), Some(180)));
    // `no protocol bfd` on leaf01: none of its sessions is watched, none goes down.
    typed(&net["leaf01"], &["no protocol bfd"]);
    let views = bgp_views(&network, &net);
    for s in &views["leaf01"].sessions {
        assert_eq!((s.state, s.bfd), (established, None), "{}", s.neighbor);
    }
    assert_eq!(
        session_of(&views, "spine02", "10.254.0.225").bfd,
        Some(false)
    );
}

/// What LLDP on `port` of `me` reports, as the network derives it now.
fn lldp(network: &std::sync::Arc<Network>, me: &str, port: &str) -> Option<(String, String)> {
    network
        .world(me)
        .net()
        .lldp_neighbor(me, port.parse().unwrap())
        .map(|n| (n.system_name, n.port_id))
}

/// The sessions of a switch that are not Established, as `neighbor STATE`.
fn not_established(dev: &Device) -> Vec<String> {
    sessions(&typed(dev, &["show ip bgp summary"]))
        .into_iter()
        .filter(|(_, s)| !s.starts_with("ESTABLISHED"))
        .map(|(n, s)| format!("{n} {s}"))
        .collect()
}

fn cabling_faults(yaml: &str) -> fabric::lab::Faults {
    serde_saphyr::from_str(yaml).unwrap()
}

/// Cabling faults change what both ends of a cable see: crossed cables take down the BGP
/// sessions across them (their addresses no longer share a subnet) and LLDP names the new
/// far ends; a broken cable takes its port down at both ends, its session with it; a neighbor
/// changed by a fault changes only what LLDP reports. Removing the faults mends everything.
#[test]
fn cabling_faults_miswire_break_and_rename_what_the_network_derives() {
    let yaml = std::fs::read_to_string(root().join("fabrics/ml-cluster.yaml")).unwrap();
    let (network, net) = network_and_devices(&yaml);
    let down = |name: &str| not_established(&net[name]);
    let spine = |p: &str| Some(("spine01".to_string(), format!("Eth{p}")));
    assert_eq!(down("leaf01"), Vec::<String>::new());
    assert_eq!(lldp(&network, "leaf01", "1/25"), spine("1/1"));
    assert_eq!(
        lldp(&network, "spine01", "1/1"),
        Some(("leaf01".to_string(), "Eth1/25".to_string()))
    );
    // Hosts are simulated without LLDP.
    assert_eq!(lldp(&network, "leaf01", "1/1/1"), None);

    // leaf01's cables in 1/25 and 1/26 crossed.
    net["leaf01"].set_faults(cabling_faults("cabling: { swap: [[\"1/25\", \"1/26\"]] }"));
    assert_eq!(lldp(&network, "leaf01", "1/25"), spine("1/2"));
    assert_eq!(lldp(&network, "leaf01", "1/26"), spine("1/1"));
    assert_eq!(
        lldp(&network, "spine01", "1/1"),
        Some(("leaf01".to_string(), "Eth1/26".to_string()))
    );
    assert_eq!(
        down("leaf01"),
        ["10.254.0.192 ACTIVE", "10.254.0.200 ACTIVE"]
    );
    assert_eq!(
        down("spine01"),
        ["10.254.0.193 ACTIVE", "10.254.0.201 ACTIVE"]
    );

    // The cable in 1/25 broken: down at both ends, and only its session with it.
    net["leaf01"].set_faults(cabling_faults("cabling: { down: [\"1/25\"] }"));
    assert_eq!(lldp(&network, "leaf01", "1/25"), None);
    assert_eq!(lldp(&network, "spine01", "1/1"), None);
    assert_eq!(down("leaf01"), ["10.254.0.192 ACTIVE"]);
    assert_eq!(down("spine01"), ["10.254.0.193 ACTIVE"]);

    // What LLDP reports changed, field by field; nothing else is.
    net["leaf01"].set_faults(cabling_faults(
        "cabling: { neighbor: { \"1/25\": { host: spine09 }, \"1/26\": { port: Eth1/9 } } }",
    ));
    assert_eq!(
        lldp(&network, "leaf01", "1/25"),
        Some(("spine09".to_string(), "Eth1/1".to_string()))
    );
    assert_eq!(lldp(&network, "leaf01", "1/26"), spine("1/9"));
    assert_eq!(
        lldp(&network, "spine01", "1/1"),
        Some(("leaf01".to_string(), "Eth1/25".to_string()))
    );
    assert_eq!(down("leaf01"), Vec::<String>::new());

    net["leaf01"].set_faults(fabric::lab::Faults::default());
    assert_eq!(lldp(&network, "leaf01", "1/26"), spine("1/2"));
    assert_eq!(down("spine01"), Vec::<String>::new());
}

/// Types lines into a switch, as one session in configuration mode; what it printed.
pub fn typed(dev: &Device, lines: &[&str]) -> String {
    let mut s = Session::configuring();
    lines
        .iter()
        .map(|l| match dev.command(1, &mut s, l).step {
            fabric::lab::device::Step::Reply { output, .. } => output,
            other => panic!("{other:?}"),
        })
        .collect()
}

fn field<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .map_or("", str::trim)
}

#[test]
fn an_mlag_pair_forms_when_both_halves_agree() {
    let yaml = std::fs::read_to_string(root().join("fabrics/vsphere-mlag.yaml")).unwrap();
    let net = network_of(&yaml);
    let (a, b) = (&net["tor-a"], &net["tor-b"]);
    let show = |d: &Device| typed(d, &["show mlag"]);
    let text = show(a);
    assert_eq!(field(&text, "Admin status:"), "Enabled", "{text}");
    assert_eq!(field(&text, "Operational status:"), "Up", "{text}");
    assert_eq!(field(&text, "System-mac:"), "00:00:5E:00:01:5D");
    assert_eq!(field(&text, " Configured:"), "8");
    assert_eq!(field(&text, " Active-full:"), "8", "{text}");
    let ipl = text.lines().find(|l| l.starts_with("1    Po100")).unwrap();
    let cols: Vec<&str> = ipl.split_whitespace().collect();
    assert_eq!(
        &cols[..6],
        ["1", "Po100", "4000", "Up", "10.254.255.1", "10.254.255.2"]
    );
    // Both switches are members, the peer's ID its own.
    let members: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("System-id"))
        .skip(2)
        .collect();
    assert_eq!(members.len(), 2, "{text}");
    assert!(members[0].ends_with("<tor-a>"), "{text}");
    assert_ne!(members[0].split(' ').next(), members[1].split(' ').next());
    // The prompt names the domain; the switch with the lower peer-link address is master.
    assert!(a.prompt(&Session::new()).contains("[vsphere-mlag: master]"));
    assert!(
        b.prompt(&Session::new())
            .contains("[vsphere-mlag: standby]")
    );

    // A member down on one switch: that MLAG port-channel is active on the other only.
    typed(b, &["interface ethernet 1/2 shutdown"]);
    let text = show(a);
    assert_eq!(field(&text, " Active-full:"), "7", "{text}");
    assert_eq!(field(&text, " Active-partial:"), "1", "{text}");

    // One half expects another peer address: the pair does not form, at either end.
    typed(b, &["interface vlan 4000 ipl 1 peer-address 10.254.255.3"]);
    for d in [a, b] {
        let text = show(d);
        assert_eq!(field(&text, "Operational status:"), "Down", "{text}");
        assert_eq!(field(&text, " Active-full:"), "0", "{text}");
    }
    typed(b, &["interface vlan 4000 ipl 1 peer-address 10.254.255.1"]);
    assert_eq!(field(&show(a), "Operational status:"), "Up");

    // The system MACs differ: the peer link is up, the pair is not.
    typed(b, &["mlag system-mac 00:00:5E:00:01:5E"]);
    assert_eq!(field(&show(a), "Operational status:"), "Down");
}

/// Without a network around it (a switch alone, or its cables gone), a neighbor has no one
/// to talk to; MLAG and BGP are hidden until their protocol is enabled, and a switch refuses
/// BGP under a second AS, an address on a switchport and switchport settings on a LAG member.
#[test]
fn a_switch_alone_refuses_as_onyx_does() {
    let dev = Device::new(Switch::factory("leaf01"));
    assert_eq!(
        typed(&dev, &["show mlag"]),
        "% Unrecognized command \"mlag\".\n"
    );
    assert_eq!(
        typed(&dev, &["router bgp 65101 vrf default"]),
        "% Unrecognized command \"router\".\n"
    );
    assert_eq!(
        typed(
            &dev,
            &["interface ethernet 1/1 ip address 10.0.0.1/31 primary"]
        ),
        "% Interface ethernet 1/1 is a switchport; run `no switchport force` first.\n"
    );
    let out = typed(
        &dev,
        &[
            "ip routing vrf default",
            "protocol bgp",
            "router bgp 65101",
            "neighbor 10.0.0.0 remote-as 65000",
            "exit",
            "interface ethernet 1/1 no switchport force",
            "interface ethernet 1/1 ip address 10.0.0.1/31 primary",
            "router bgp 65102 vrf default",
            "interface port-channel 1",
            "exit",
            "interface ethernet 1/2 channel-group 1 mode active",
            "interface ethernet 1/2 switchport mode trunk",
        ],
    );
    assert_eq!(
        out,
        "% BGP is already running with AS 65101.\n% Port 1/2 is part of a port channel\n"
    );
    let summary = typed(&dev, &["show ip bgp summary"]);
    assert_eq!(
        sessions(&summary),
        BTreeMap::from([("10.0.0.0".into(), "ACTIVE".into())])
    );
    let row = summary
        .lines()
        .find(|l| l.starts_with("10.0.0.0 "))
        .unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[8], "never", "{summary}");
}

/// `fabric lab --stdio` (one process per session, as an OpenSSH `ForceCommand`): the other
/// switches are read from their folders in the state directory, so a session sees the
/// sessions of the switches that have been started, and no others.
#[test]
fn stdio_sessions_see_the_other_switches_through_their_folders() {
    let state = scratch("network-stdio");
    let fabric = root().join("fabrics/ml-cluster.yaml");
    let from = root().join("golden/ml-cluster");
    let extra = ["--from".as_ref(), from.as_os_str()];
    // spine01 has run a session (its folder holds its running config); spine02 never has.
    stdio_session_of(&fabric, &state, "spine01", &extra, "exit\n");
    // leaf01's sessions, as a session of its own prints them.
    let leaf01 = || {
        let out = stdio_session_of(
            &fabric,
            &state,
            "leaf01",
            &extra,
            "no cli session paging enable\nenable\nshow ip bgp summary\nexit\n",
        );
        (sessions(&out), out)
    };
    let (rows, out) = leaf01();
    let state_of = |n: &str| rows.get(n).map(String::as_str);
    // From spine01: its own loopback (leaf01's own prefixes come back looped and are refused).
    for n in [
        "10.254.0.192",
        "10.254.0.200",
        "10.254.0.208",
        "10.254.0.216",
    ] {
        assert_eq!(state_of(n), Some("ESTABLISHED/1"), "{out}");
    }
    for n in [
        "10.254.0.224",
        "10.254.0.232",
        "10.254.0.240",
        "10.254.0.248",
    ] {
        assert_eq!(state_of(n), Some("ACTIVE"), "{out}");
    }

    // Cabling faults in the folders count too: spine01's (another process's switch) and
    // leaf01's own.
    std::fs::write(
        state.join("spine01/faults.yaml"),
        "cabling: { down: [\"1/1\"] }\n",
    )
    .unwrap();
    std::fs::write(
        state.join("leaf01/faults.yaml"),
        "cabling: { down: [\"1/26\"] }\n",
    )
    .unwrap();
    let (rows, out) = leaf01();
    let state_of = |n: &str| rows.get(n).map(String::as_str);
    assert_eq!(state_of("10.254.0.192"), Some("ACTIVE"), "{out}");
    assert_eq!(state_of("10.254.0.200"), Some("ACTIVE"), "{out}");
    assert_eq!(state_of("10.254.0.208"), Some("ESTABLISHED/1"), "{out}");
}

/// A routed fabric of `pods` pods, each two spines and four leaves; a leaf has two host
/// ports and an uplink to each spine of its pod (a /31 with an eBGP session).
fn pods(pods: usize) -> String {
    let mut y = String::from(
        "onyx: 3.10.4504\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nport_defaults:\n  trust: L3\n  pfc: true\n  ecn: { 3: { min: 150, max: 1500 } }\nrouting:\n  spine: { asn: 65000, loopbacks: 10.255.0.0/24 }\n  leaf: { asn_base: 65100, loopbacks: 10.255.1.0/24 }\n  links: 10.254.0.0/16\nswitches:\n",
    );
    for n in 1..=2 * pods {
        y.push_str(&format!(
            "  spine{n:02}: {{ model: SN4600C, role: spine }}\n"
        ));
    }
    for s in 1..=4 * pods {
        y.push_str(&format!(
            "  leaf{s:02}:\n    model: SN4600C\n    role: leaf\n    ports:\n      1/1-1/2: {{ peer: {{ host: \"gpu{s:02}-{{1..2}}\", port: ens1f0 }} }}\n"
        ));
    }
    y.push_str("links:\n");
    for s in 1..=4 * pods {
        let (pod, down) = ((s - 1) / 4, (s - 1) % 4 + 1);
        for k in 0..2 {
            y.push_str(&format!(
                "  - {{ a: \"leaf{s:02}:1/{}\", b: \"spine{:02}:1/{down}\" }}\n",
                31 + k,
                2 * pod + k + 1
            ));
        }
    }
    y
}

/// What `fabric verify` asks each switch, as the lab reads the network for each.
const VERIFY_SHOWS: &[&str] = &[
    "show lldp remote | json-print",
    "show interfaces ethernet | json-print",
    "show dcb priority-flow-control | json-print",
    "show qos interface ethernet 1/1 | json-print",
    "show interfaces ethernet 1/1 congestion-control | json-print",
    "show dcb ets interface ethernet 1/31 | json-print",
    "show traffic pool roce | json-print",
    "show ip bgp summary",
];

/// The network view is built once per change, not once per command: the verify's shows on
/// every switch of 1 and 4 pods (8 and 32 switches) read each switch's config once and build
/// one view, so the lab's work grows with the switches, not with switches × commands (the
/// quadratic shape `fabric verify` against a 256-switch lab had). A change on one switch is
/// one more view with that switch read again, and its neighbours see it at once.
#[test]
fn the_network_view_is_built_once_per_change_not_once_per_command() {
    let mut reads = Vec::new();
    for size in [1, 4] {
        let (network, devices) = network_and_devices(&pods(size));
        for dev in devices.values() {
            for show in VERIFY_SHOWS {
                typed(dev, &[show]);
            }
        }
        let commands = devices.len() * VERIFY_SHOWS.len();
        assert_eq!(network.views_built(), 1, "{commands} commands");
        assert_eq!(network.switches_read(), devices.len() as u64);
        reads.push(network.switches_read());
    }
    assert_eq!(reads[1], 4 * reads[0], "{reads:?}");

    let (network, devices) = network_and_devices(&pods(1));
    let bgp = |name: &str| sessions(&typed(&devices[name], &["show ip bgp summary"]));
    let down = |name: &str| not_established(&devices[name]);
    assert_eq!(bgp("spine01").len(), 4);
    assert_eq!(down("spine01"), Vec::<String>::new());
    let (built, read) = (network.views_built(), network.switches_read());
    // leaf01's uplink to spine01 shut: spine01 sees its session drop, at the cost of one
    // view and one switch read.
    typed(&devices["leaf01"], &["interface ethernet 1/31 shutdown"]);
    assert_eq!(down("spine01").len(), 1, "{:?}", bgp("spine01"));
    assert_eq!(
        (network.views_built(), network.switches_read()),
        (built + 1, read + 1)
    );
    // Commands that change nothing build nothing.
    for name in ["spine01", "spine02", "leaf02"] {
        bgp(name);
    }
    assert_eq!(network.views_built(), built + 1);
    // A cabling fault is a change too: LLDP on spine02 no longer sees leaf02.
    let lldp_on = |sw: &str, port: &str| lldp(&network, sw, port).map(|(name, _)| name);
    assert_eq!(lldp_on("spine02", "1/2").as_deref(), Some("leaf02"));
    devices["leaf02"].set_faults(cabling_faults("cabling: { down: [\"1/32\"] }"));
    assert_eq!(lldp_on("spine02", "1/2"), None);
    assert_eq!(network.views_built(), built + 2);
}
