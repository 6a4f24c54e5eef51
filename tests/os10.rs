//! The OS10 module against real captures: every running configuration in
//! `tests/fixtures/corpus/os10/` reads and prints back byte for byte, what is modeled is read
//! into the state, malformed inputs (`tests/fixtures/os10/bad/`, and captures that are not what
//! they claim) are refused with their line and column, and `parse(render(c)) == c` for
//! generated configs covering the RoCE recipe, VLT, port-channels and BGP.

use std::path::PathBuf;

use fabric::os10::{Config, Iface, Problem, Renderer, parse};
use fabric::types::{StpGuard, StpPortType};

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
    // Its spanning-tree lines are the model's, as every host and unused port's are (an edge
    // port with BPDU and root guard; an unused port shut, with BPDU and root guard).
    assert_eq!(p1.bpduguard, Some(true));
    assert_eq!(p1.stp_guard, Some(StpGuard::Root));
    assert_eq!(p1.stp_type, Some(StpPortType::Edge));
    assert!(p1.extras.is_empty(), "{:?}", p1.extras);
    for n in 5..=16 {
        let p = eth(n);
        assert_eq!(p.shutdown, Some(true), "{n}");
        assert_eq!(
            (p.bpduguard, p.stp_guard, p.stp_type),
            (Some(true), Some(StpGuard::Root), None)
        );
        assert!(p.extras.is_empty(), "{n}: {:?}", p.extras);
    }
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
/// they stop being one: a session that goes on after `show running-configuration` (the next
/// command's prompt, at its line of the file), and a copy that lost its indentation (the
/// blog's S4112F-ON configuration: `no shutdown` under `interface vlan1` at column 1).
#[test]
fn captures_that_are_not_a_running_configuration_are_refused() {
    let text = read(&corpus(
        "azurestack-rack2-Rack01-TOR-1.session.10.5.3.2.txt",
    ));
    let e = parse(&text).unwrap_err();
    assert_eq!(
        (e.problem, e.line, e.column, e.text.as_str()),
        (Problem::Prompt, 913, 1, "rack2-Rack01-TOR-1# show version"),
        "{e}"
    );
    assert_eq!(text.lines().nth(912), Some(e.text.as_str()));
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

pub(crate) mod generated {
    //! `parse(render(c)) == c` for generated configs: the RoCE recipe (DCBX, WRED/ECN,
    //! class-maps, trust and qos maps, PFC and ETS policy-maps, `system qos`, per-port PFC,
    //! ETS, service policies), VLT, port-channels and their members, BGP with templates and
    //! neighbors, and lines the model does not know kept verbatim in blocks and at the top.

    use std::net::Ipv4Addr;

    use fabric::os10::{
        AddressFamily, Bgp, ChannelGroup, ClassMap, Color, Config, Eth, Header, Iface, Interface,
        LacpMode, Peer, PolicyClass, PolicyMap, PortGroup, PortGroupId, QosKind, QosMap, Ranges,
        SwitchportMode, SystemQos, Thresholds, TrustKind, TrustMap, Vlt, Wred, parse,
    };
    use fabric::types::{Ipv4Net, Mac, StpGuard, StpPortType, Vlan, VlanSet};
    use proptest::prelude::*;

    fn name() -> impl Strategy<Value = String> {
        prop::sample::select(vec!["ROCE", "Q3", "pfc_3", "AZS-ets", "cnp6", "default0"])
            .prop_map(str::to_string)
    }

    fn description() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "uplink",
            "GPU host 1",
            "Unused Port",
            "spine-1:eth1/1/1",
        ])
        .prop_map(str::to_string)
    }

    /// Loopback addresses only.
    fn addr() -> impl Strategy<Value = Ipv4Addr> {
        (0u8..=3, 1u8..=6).prop_map(|(n, h)| Ipv4Addr::new(127, 0, n, h))
    }

    fn net() -> impl Strategy<Value = Ipv4Net> {
        (addr(), prop::sample::select(vec![24u8, 30, 31, 32]))
            .prop_map(|(a, l)| Ipv4Net::new(a, l).unwrap())
    }

    fn ranges(max: u8) -> impl Strategy<Value = Ranges> {
        prop::collection::btree_set(0..=max, 1..4).prop_map(|s| s.into_iter().collect())
    }

    fn iface() -> impl Strategy<Value = Iface> {
        prop_oneof![
            4 => (1u16..=8).prop_map(|p| Iface::Ethernet(Eth::new(p))),
            1 => (9u16..=10, 1u8..=4).prop_map(|(p, s)| Iface::Ethernet(Eth::sub(p, s))),
            1 => (1u16..=4).prop_map(Iface::PortChannel),
            1 => (1i64..=5).prop_map(|v| Iface::Vlan(Vlan::new(v).unwrap())),
            1 => (0u16..=1).prop_map(Iface::Loopback),
            1 => Just(Iface::Mgmt(1, 1, 1)),
        ]
    }

    /// Lines of an interface block the model does not know (each one node, with its children).
    fn iface_extra() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            " spanning-tree bpdufilter enable",
            " spanning-tree link-type point-to-point",
            " ip helper-address 127.0.0.9",
            " ipv6 address autoconfig",
            " vrrp-group 7\n  priority 150\n  virtual-address 127.0.0.1",
        ])
        .prop_map(str::to_string)
    }

    fn interface() -> impl Strategy<Value = Interface> {
        let l2 = (
            prop::option::of(description()),
            prop::option::of(any::<bool>()),
            prop::option::of((
                1u16..=4,
                prop::sample::select(vec![LacpMode::On, LacpMode::Active, LacpMode::Passive]),
            )),
            any::<bool>(),
            prop::option::of(prop::sample::select(vec![
                SwitchportMode::Access,
                SwitchportMode::Trunk,
            ])),
            prop::option::of((1i64..=4094).prop_map(|v| Vlan::new(v).unwrap())),
            prop::option::of(prop::collection::btree_set(1i64..=40, 1..5)),
            prop::option::of(prop::sample::select(vec![1500u16, 9000, 9216])),
            prop::option::of(net()),
        );
        let qos = (
            prop::option::of(any::<bool>()),
            prop::option::of(any::<bool>()),
            any::<bool>(),
            prop::option::of(name()),
            prop::option::of(name()),
            any::<bool>(),
            prop::option::of(name()),
            prop::option::of((
                prop::sample::select(vec![TrustKind::Dot1p, TrustKind::Dscp]),
                name(),
            )),
            prop::option::of(1u16..=1024),
            prop::collection::vec((0usize..20, iface_extra()), 0..3),
        );
        let stp = (
            prop::option::of(any::<bool>()),
            prop::option::of(prop::sample::select(vec![StpGuard::Root, StpGuard::Loop])),
            any::<bool>(),
        );
        (l2, qos, stp).prop_map(|(l2, q, stp)| {
            let mut e = Interface {
                description: l2.0,
                shutdown: l2.1,
                channel_group: l2.2.map(|(id, mode)| ChannelGroup { id, mode }),
                routed: l2.3,
                mode: l2.4,
                access_vlan: l2.5,
                trunk_allowed: l2.6.map(|s| {
                    s.into_iter()
                        .map(|v| Vlan::new(v).unwrap())
                        .collect::<VlanSet>()
                }),
                mtu: l2.7,
                address: l2.8,
                flowcontrol_rx: q.0,
                flowcontrol_tx: q.1,
                pfc: q.2,
                policy_in: q.3,
                policy_out: q.4,
                ets: q.5,
                qos_map: q.6,
                trust_map: q.7,
                vlt_port_channel: q.8,
                bpduguard: stp.0,
                stp_guard: stp.1,
                stp_type: stp.2.then_some(StpPortType::Edge),
                extras: Vec::new(),
            };
            // A verbatim line comes back after as many modeled lines as precede it.
            let n = modeled_lines(&e);
            let mut extras: Vec<(usize, String)> =
                q.9.into_iter().map(|(k, t)| (k.min(n), t)).collect();
            extras.sort_by_key(|(k, _)| *k);
            e.extras = extras;
            e
        })
    }

    fn modeled_lines(e: &Interface) -> usize {
        [
            e.description.is_some(),
            e.shutdown.is_some(),
            e.channel_group.is_some(),
            e.routed,
            e.mode.is_some(),
            e.access_vlan.is_some(),
            e.trunk_allowed.is_some(),
            e.mtu.is_some(),
            e.address.is_some(),
            e.flowcontrol_rx.is_some(),
            e.flowcontrol_tx.is_some(),
            e.pfc,
            e.policy_in.is_some(),
            e.policy_out.is_some(),
            e.ets,
            e.qos_map.is_some(),
            e.trust_map.is_some(),
            e.vlt_port_channel.is_some(),
            e.bpduguard.is_some(),
            e.stp_guard.is_some(),
            e.stp_type.is_some(),
        ]
        .into_iter()
        .filter(|x| *x)
        .count()
    }

    fn wred() -> impl Strategy<Value = Wred> {
        (
            name(),
            prop::collection::btree_map(
                prop::sample::select(vec![Color::Green, Color::Yellow, Color::Red]),
                (1u32..=1000, 0u32..=5000, 0u8..=100).prop_map(|(min, d, drop)| Thresholds {
                    min,
                    max: min + d,
                    drop,
                }),
                0..3,
            ),
            any::<bool>(),
        )
            .prop_map(|(name, colors, ecn)| Wred {
                name,
                colors,
                ecn,
                extras: Vec::new(),
            })
    }

    fn kind() -> impl Strategy<Value = QosKind> {
        prop::sample::select(vec![QosKind::NetworkQos, QosKind::Queuing])
    }

    fn class_map() -> impl Strategy<Value = ClassMap> {
        (kind(), name(), prop::option::of(ranges(7))).prop_map(|(kind, name, matches)| ClassMap {
            kind,
            name,
            matches,
            extras: Vec::new(),
        })
    }

    fn policy_map() -> impl Strategy<Value = PolicyMap> {
        let class = (
            name(),
            prop::option::of(1u8..=100),
            any::<bool>(),
            prop::option::of(ranges(7)),
            any::<bool>(),
            prop::option::of(name()),
        );
        (kind(), name(), prop::collection::vec(class, 0..4)).prop_map(|(kind, name, cs)| {
            let mut classes: Vec<PolicyClass> = Vec::new();
            for (n, bw, pause, cos, prio, rd) in cs {
                if classes.iter().any(|c| c.name == n) {
                    continue;
                }
                // Each policy type has its own lines.
                let queuing = kind == QosKind::Queuing;
                classes.push(PolicyClass {
                    name: n,
                    bandwidth: bw.filter(|_| queuing),
                    pause: pause && !queuing,
                    pfc_cos: cos.filter(|_| !queuing),
                    priority: prio && queuing,
                    random_detect: rd.filter(|_| queuing),
                    extras: Vec::new(),
                });
            }
            PolicyMap {
                kind,
                name,
                classes,
                extras: Vec::new(),
            }
        })
    }

    fn trust_map() -> impl Strategy<Value = TrustMap> {
        (
            prop::sample::select(vec![TrustKind::Dot1p, TrustKind::Dscp]),
            name(),
            prop::collection::btree_map(0u8..=7, ranges(7), 0..4),
        )
            .prop_map(|(kind, name, groups)| TrustMap {
                kind,
                name,
                groups,
                extras: Vec::new(),
            })
    }

    fn qos_map() -> impl Strategy<Value = QosMap> {
        (
            name(),
            prop::collection::btree_map(0u8..=7, ranges(7), 0..4),
        )
            .prop_map(|(name, queues)| QosMap {
                name,
                queues,
                extras: Vec::new(),
            })
    }

    fn system_qos() -> impl Strategy<Value = SystemQos> {
        (
            prop::option::of((
                prop::sample::select(vec![TrustKind::Dot1p, TrustKind::Dscp]),
                name(),
            )),
            any::<bool>(),
            prop::option::of(name()),
            prop::option::of(name()),
        )
            .prop_map(|(trust_map, ets, policy_in, policy_out)| SystemQos {
                trust_map,
                ets,
                policy_in,
                policy_out,
                extras: Vec::new(),
            })
    }

    /// A `port-group` block of the S5248F-ON: one of the modes its group takes (the table's),
    /// or none, and a line the model does not know (`mode FC …`, UNCONFIRMED on an S5248F-ON:
    /// a unified port's mode).
    fn port_group() -> impl Strategy<Value = (PortGroupId, PortGroup)> {
        (1u16..=18, prop::option::of(0usize..4), any::<bool>()).prop_map(|(n, mode, extra)| {
            let maps = fabric::os10::models::Model::named("S5248F-ON")
                .and_then(|m| m.port_group(n))
                .map_or(&[][..], |g| g.run.maps);
            let mode = mode.and_then(|i| maps.get(i % maps.len().max(1)).map(|m| m.to_string()));
            let extras = if extra {
                vec![(usize::from(mode.is_some()), " mode FC 32g-4x".to_string())]
            } else {
                Vec::new()
            };
            (PortGroupId::new(n), PortGroup { mode, extras })
        })
    }

    fn vlt() -> impl Strategy<Value = Vlt> {
        (
            1u8..=255,
            prop::option::of(addr()),
            prop::collection::btree_set((49u16..=56).prop_map(Eth::new), 0..4),
            any::<bool>(),
            prop::option::of(1u32..=65535),
            prop::option::of((0u8..=255).prop_map(|n| Mac([0xde, 0xad, 0, 0xbe, 0xef, n]))),
        )
            .prop_map(
                |(id, backup, discovery, peer_routing, primary_priority, vlt_mac)| {
                    let mut v = Vlt::new(id);
                    v.backup = backup;
                    v.discovery = discovery;
                    v.peer_routing = peer_routing;
                    v.primary_priority = primary_priority;
                    v.vlt_mac = vlt_mac;
                    v
                },
            )
    }

    fn peer() -> impl Strategy<Value = Peer> {
        (
            prop::option::of(description()),
            prop::option::of(name()),
            prop::option::of(64512u32..=64520),
            prop::option::of(any::<bool>()),
            prop::option::of(any::<bool>()),
            any::<bool>(),
        )
            .prop_map(
                |(description, inherit, remote_as, shutdown, af, password)| {
                    let mut p = Peer {
                        description,
                        inherit,
                        remote_as,
                        shutdown,
                        ..Peer::default()
                    };
                    p.ipv4 = af.map(|hop| AddressFamily {
                        networks: Vec::new(),
                        extras: if hop {
                            vec![(0, "   next-hop-self".to_string())]
                        } else {
                            Vec::new()
                        },
                    });
                    // `password 9 ****` after the modeled lines before `shutdown`, as captured.
                    if password {
                        let before = [
                            p.description.is_some(),
                            p.inherit.is_some(),
                            p.remote_as.is_some(),
                        ];
                        p.extras.push((
                            before.iter().filter(|x| **x).count(),
                            "  password 9 ****".to_string(),
                        ));
                    }
                    p
                },
            )
    }

    fn bgp() -> impl Strategy<Value = Bgp> {
        (
            64512u32..=65534,
            any::<bool>(),
            prop::option::of(1u16..=64),
            prop::option::of(1u16..=64),
            prop::option::of(addr()),
            prop::option::of(prop::collection::vec(net(), 0..4)),
            prop::collection::vec((name(), peer()), 0..3),
            prop::collection::vec((addr(), peer()), 0..4),
        )
            .prop_map(
                |(asn, relax, ebgp, ibgp, rid, nets, templates, neighbors)| {
                    let mut b = Bgp::new(asn);
                    b.multipath_relax = relax;
                    b.max_paths_ebgp = ebgp;
                    b.max_paths_ibgp = ibgp;
                    b.router_id = rid;
                    b.ipv4 = nets.map(|n| {
                        let mut networks: Vec<Ipv4Net> = Vec::new();
                        for x in n {
                            if !networks.contains(&x) {
                                networks.push(x);
                            }
                        }
                        AddressFamily {
                            networks,
                            extras: Vec::new(),
                        }
                    });
                    for (n, p) in templates {
                        if !b.templates.iter().any(|(x, _)| *x == n) {
                            b.templates.push((n, p));
                        }
                    }
                    for (a, p) in neighbors {
                        if !b.neighbors.iter().any(|(x, _)| *x == a) {
                            b.neighbors.push((a, p));
                        }
                    }
                    b
                },
            )
    }

    /// Top-level text the model does not know.
    fn top_text() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "ntp server 127.0.0.1",
            "snmp-server contact \"Contact Support\"",
            "class-map type application class-iscsi",
            "route-map LOCAL permit 10\n match route-type local",
            "banner motd ^C\n\n NOTICE\n^C",
            "ip vrf management\n interface management",
        ])
        .prop_map(str::to_string)
    }

    pub(crate) fn config() -> impl Strategy<Value = Config> {
        let head = (
            prop::option::of(prop::sample::select(vec!["10.5.3.2", "10.4.0E(R1)"])),
            prop::option::of(Just("Apr  19 00:56:52 2023")),
            prop::option::of(name()),
            any::<bool>(),
            prop::collection::btree_map(
                (49u16..=56).prop_map(Eth::new),
                prop::sample::select(vec!["100g-1x", "25g-4x"]),
                0..3,
            ),
        );
        let qos = (
            prop::collection::vec(wred(), 0..2),
            prop::collection::vec(class_map(), 0..4),
            prop::collection::vec(trust_map(), 0..2),
            prop::collection::vec(qos_map(), 0..2),
            prop::collection::vec(policy_map(), 0..3),
            prop::option::of(system_qos()),
        );
        let rest = (
            prop::collection::btree_map(iface(), interface(), 0..8),
            prop::option::of(bgp()),
            prop::option::of(vlt()),
            prop::collection::vec((0usize..40, top_text()), 0..4),
            prop::collection::vec(port_group(), 0..4),
        );
        (head, qos, rest).prop_map(|(h, q, r)| {
            let mut c = Config {
                header: Header {
                    version: h.0.map(str::to_string),
                    last_change: h.1.map(str::to_string),
                },
                hostname: h.2,
                dcbx: h.3,
                breakouts: h.4.into_iter().map(|(e, m)| (e, m.to_string())).collect(),
                interfaces: r.0,
                bgp: r.1,
                vlt: r.2,
                port_groups: r.4.into_iter().collect(),
                ..Config::default()
            };
            // Names are unique per kind, as on the switch.
            for w in q.0 {
                if !c.wred.iter().any(|x| x.name == w.name) {
                    c.wred.push(w);
                }
            }
            for m in q.1 {
                if !c
                    .class_maps
                    .iter()
                    .any(|x| x.kind == m.kind && x.name == m.name)
                {
                    c.class_maps.push(m);
                }
            }
            for m in q.2 {
                if !c
                    .trust_maps
                    .iter()
                    .any(|x| x.kind == m.kind && x.name == m.name)
                {
                    c.trust_maps.push(m);
                }
            }
            for m in q.3 {
                if !c.qos_maps.iter().any(|x| x.name == m.name) {
                    c.qos_maps.push(m);
                }
            }
            for m in q.4 {
                if !c
                    .policy_maps
                    .iter()
                    .any(|x| x.kind == m.kind && x.name == m.name)
                {
                    c.policy_maps.push(m);
                }
            }
            c.system_qos = q.5;
            let keys = c.keys();
            for (at, text) in r.3 {
                let after = (at % (keys.len() + 1)).checked_sub(1).map(|i| &keys[i]);
                c.keep_verbatim(after, &text);
            }
            c
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256), ..ProptestConfig::default() })]

        /// What the renderer prints reads back to the same state, verbatim text in place.
        #[test]
        fn parse_of_render_is_identity(c in config()) {
            let text = super::render(&c);
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(&back, &c, "{}", text);
            // And the printed text is a fixed point.
            prop_assert_eq!(super::render(&back), text);
        }
    }

    #[test]
    fn generated_configs_cover_every_family() {
        // One hand-picked config of each family, so the property is not vacuous.
        let mut interfaces = std::collections::BTreeMap::new();
        interfaces.insert(
            Iface::PortChannel(1),
            Interface {
                vlt_port_channel: Some(1),
                ..Interface::default()
            },
        );
        let port_groups = [(
            PortGroupId::new(5),
            PortGroup {
                mode: Some("10g-4x".into()),
                extras: Vec::new(),
            },
        )]
        .into_iter()
        .collect();
        let c = Config {
            dcbx: true,
            interfaces,
            bgp: Some(Bgp::new(65001)),
            vlt: Some(Vlt::new(1)),
            port_groups,
            ..Config::default()
        };
        let text = super::render(&c);
        assert_eq!(
            text,
            "dcbx enable\n!\nport-group 1/1/5\n mode Eth 10g-4x\n!\ninterface port-channel1\n vlt-port-channel 1\n!\nrouter bgp 65001\n!\nvlt-domain 1\n"
        );
        assert_eq!(parse(&text).unwrap(), c);
    }
}

/// Text set in code cannot end its line and start another command: a description with a
/// newline, a quote beside a space or first, a name with a space, is refused by the renderer,
/// not printed.
#[test]
fn text_cannot_inject_a_command() {
    let renderer = Renderer::embedded().unwrap();
    let port = |description: &str| {
        let mut c = Config::default();
        c.interfaces.insert(
            Iface::Ethernet(fabric::os10::Eth::new(1)),
            fabric::os10::Interface {
                description: Some(description.to_string()),
                ..Default::default()
            },
        );
        c
    };
    for bad in [
        "uplink\n no shutdown",
        "a \"quoted\" b",
        "\"first",
        "tab\there",
    ] {
        let e = renderer.render(&port(bad)).unwrap_err();
        assert!(e.contains("description"), "{bad:?}: {e}");
    }
    // Spaces, at the edges too, print in quotes (and read back: render::DESCRIPTIONS).
    for (good, printed) in [
        ("GPU host 1", " description \"GPU host 1\"\n"),
        (" padded", " description \" padded\"\n"),
    ] {
        assert!(renderer.render(&port(good)).unwrap().contains(printed));
    }
    let c = Config {
        hostname: Some("leaf 1\nusername x".to_string()),
        ..Config::default()
    };
    assert!(renderer.render(&c).unwrap_err().contains("hostname"));
}

/// A running configuration saved from a session, its first line the prompt and the command
/// (the AzureStack BMC's `rack2-Rack01-BMC-1# show running-configuration`), reads as the
/// configuration alone: the same config as the copy without that line, a lone prompt last
/// skipped too. A problem in it is still at its line of the file.
#[test]
fn a_saved_session_reads_as_the_configuration_it_printed() {
    let saved = read(&corpus(
        "azurestack-rack2-Rack01-BMC-1.session.10.5.3.2.txt",
    ));
    let alone = read(&corpus(
        "azurestack-rack2-Rack01-BMC-1.running-configuration.10.5.3.2.txt",
    ));
    assert_eq!(saved.split_once('\n').unwrap().1, alone);
    let config = parse(&alone).unwrap();
    assert_eq!(parse(&saved).unwrap(), config);
    assert_eq!(config.header.version.as_deref(), Some("10.5.3.2"));
    let with_prompt = format!("{saved}rack2-Rack01-BMC-1#\n");
    assert_eq!(parse(&with_prompt).unwrap(), config);
    // `show running-config` is OS10's abbreviation of the same command.
    let short = saved.replacen("show running-configuration", "show running-config", 1);
    assert_eq!(parse(&short).unwrap(), config);
    // A line broken at line 10 of the file is refused at line 10.
    let mut lines: Vec<&str> = saved.lines().collect();
    lines[9] = "interface ethernet1/1/x";
    let e = parse(&lines.join("\n")).unwrap_err();
    assert_eq!(
        (e.line, e.text.as_str()),
        (10, "interface ethernet1/1/x"),
        "{e}"
    );
    // Any other command first is a pasted session, refused at its prompt.
    let other = saved.replacen("show running-configuration", "show version", 1);
    let e = parse(&other).unwrap_err();
    assert_eq!((e.problem, e.line), (Problem::Prompt, 1), "{e}");
}

/// `fabric parse` and `fabric diff --intended … --running …` read an OS10 running
/// configuration as OS10 (by its content), as they read Onyx's: printed back byte for byte,
/// as JSON, a malformed line located; two OS10 files compared with OS10 commands, and an OS10
/// file against an Onyx one refused by name.
#[test]
fn parse_and_two_file_diff_read_os10_files() {
    use crate::cli::fabric;
    let r = crate::root();
    let leaf_a = "golden/vcf-bitfusion/leaf-a.cfg";
    let (code, out, err) = fabric(&["parse", leaf_a], r);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, read(&r.join(leaf_a)), "printed back byte for byte");
    let (code, out, _) = fabric(&["parse", "--format", "json", leaf_a], r);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["header"]["version"], "10.5.3.2");
    assert_eq!(json["hostname"], "leaf-a");

    let bad = crate::scratch("os10-parse-bad").join("bad.cfg");
    std::fs::write(&bad, "interface ethernet1/1/1\n mtu 99999\n").unwrap();
    let (code, _, err) = fabric(&["parse", bad.to_str().unwrap()], r);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("E100") && err.contains("bad.cfg:2:6"), "{err}");
    assert!(err.contains("an MTU 1280-9216"), "{err}");

    let leaf_b = "golden/vcf-bitfusion/leaf-b.cfg";
    let two = |i: &str, run: &str| {
        fabric(
            &[
                "diff",
                "--intended",
                i,
                "--running",
                run,
                "--format",
                "commands",
            ],
            r,
        )
    };
    let (code, out, err) = two(leaf_a, leaf_b);
    assert_eq!(code, 1, "drift: {err}");
    assert!(out.contains("hostname leaf-a"), "{out}");
    assert!(
        out.contains("interface ethernet1/1/1\n description gpu-01:vmnic0"),
        "{out}"
    );
    let (code, _, err) = two(leaf_a, leaf_a);
    assert_eq!(code, 0, "no drift: {err}");
    let (code, _, err) = two(leaf_a, "golden/rdg-roce-dscp/swx-mld-1-2.cfg");
    assert_eq!(code, 2);
    assert!(
        err.contains("is an OS10 running configuration and `golden/rdg-roce-dscp/swx-mld-1-2.cfg` an Onyx running-config"),
        "{err}"
    );
}

/// Found by the fuzzer: a port whose description holds a double quote inside a word
/// (`description 5"cable`) reads, and prints back as it reads; `fabric diff` against it
/// shows the description's drift (exit 1) instead of refusing the switch (exit 2). One with a
/// quote beside a space is refused at the quote.
#[test]
fn a_description_with_a_quote_in_a_word_diffs() {
    use crate::cli::fabric;
    let r = crate::root();
    let leaf_a = "golden/vcf-bitfusion/leaf-a.cfg";
    let good = read(&r.join(leaf_a));
    assert!(good.contains(" description gpu-01:vmnic0\n"));
    let dir = crate::scratch("os10-quote-in-description");
    let running = dir.join("running.cfg");
    std::fs::write(
        &running,
        good.replace(" description gpu-01:vmnic0\n", " description 5\"cable\n"),
    )
    .unwrap();
    let running = running.to_str().unwrap();
    let (code, out, err) = fabric(
        &[
            "diff",
            "--intended",
            leaf_a,
            "--running",
            running,
            "--format",
            "commands",
        ],
        r,
    );
    assert_eq!(code, 1, "a real diff: {out}{err}");
    assert!(
        out.contains("interface ethernet1/1/1\n description gpu-01:vmnic0"),
        "{out}"
    );
    let (code, out, err) = fabric(&["parse", running], r);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(" description 5\"cable\n"), "{out}");

    let spaced = dir.join("spaced.cfg");
    std::fs::write(
        &spaced,
        good.replace(" description gpu-01:vmnic0\n", " description 5\" cable\n"),
    )
    .unwrap();
    let (code, _, err) = fabric(&["parse", spaced.to_str().unwrap()], r);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("spaced.cfg:292:15"), "{err}");
}

/// A large configuration is read in pieces, one per core (cut at a top-level `!`): it reads
/// to the state it was printed from, its interfaces in any order; the first problem in the
/// file is reported whichever piece holds it, and a block given twice across the cut names
/// its first line.
#[test]
fn a_large_configuration_reads_as_one_piece() {
    use fabric::os10::{Eth, Interface};
    use fabric::types::{Ipv4Net, Vlan};
    let mut c = Config {
        hostname: Some("big".into()),
        ..Config::default()
    };
    for k in 1..=3000u32 {
        let iface = match Vlan::new(i64::from(k)) {
            Ok(v) if k <= 2000 => Iface::Vlan(v),
            _ => Iface::Ethernet(Eth::sub(
                ((k - 2000) / 4 + 1) as u16,
                ((k - 2000) % 4 + 1) as u8,
            )),
        };
        let e = Interface {
            description: Some(format!("net-{k}")),
            shutdown: Some(false),
            mtu: Some(9216),
            address: matches!(iface, Iface::Vlan(_))
                .then(|| Ipv4Net::new(std::net::Ipv4Addr::from(0x0a00_0000 + k * 4), 30).unwrap()),
            ..Interface::default()
        };
        c.interfaces.insert(iface, e);
    }
    let text = render(&c);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.len() > 8192,
        "{} lines: large enough to be cut",
        lines.len()
    );
    let read = parse(&text).unwrap();
    assert_eq!(read.interfaces, c.interfaces);
    assert_eq!(render(&read), text);

    // The same blocks out of order (the VLANs after the ports): the same state.
    let blocks: Vec<&str> = text.split("!\n").collect();
    let (head, rest) = blocks.split_at(2);
    let (vlans, ports): (Vec<&str>, Vec<&str>) =
        rest.iter().partition(|b| b.starts_with("interface vlan"));
    let shuffled = [head, &ports[..], &vlans[..]].concat().join("!\n");
    assert_eq!(parse(&shuffled).unwrap().interfaces, c.interfaces);

    // A bad line early and one late: the early one is reported; the late one alone, at its
    // own line.
    let bad = |text: &str, at: usize| {
        let mut ls: Vec<String> = text.lines().map(str::to_string).collect();
        assert!(ls[at].starts_with(" mtu "), "{}", ls[at]);
        ls[at] = " mtu 99999".into();
        ls.join("\n") + "\n"
    };
    let mtu_lines: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with(" mtu "))
        .map(|(i, _)| i)
        .collect();
    let (early, late) = (mtu_lines[10], mtu_lines[mtu_lines.len() - 10]);
    let both = bad(&bad(&text, early), late);
    assert_eq!(parse(&both).unwrap_err().line, early + 1);
    assert_eq!(parse(&bad(&text, late)).unwrap_err().line, late + 1);

    // A block given twice, once in each half.
    let first_block = lines
        .iter()
        .position(|l| l.starts_with("interface vlan1"))
        .unwrap();
    let twice = format!("{text}!\n{}\n mtu 9216\n", lines[first_block]);
    let e = parse(&twice).unwrap_err();
    assert_eq!(e.problem, Problem::Duplicate);
    assert!(
        e.expected
            .contains(&format!("first at line {}", first_block + 1)),
        "{}",
        e.expected
    );
}
