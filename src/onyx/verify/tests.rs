//! Onyx's readers on the captures' replies, and on replies that do not read.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use serde_json::Value;

use super::json::*;
use super::text::*;
use crate::onyx::Iface;
use crate::types::{Ecn, EcnMode, EcnThresholds, Port};
use crate::verify::observed::*;
use crate::verify::reply::gbps;

macro_rules! show {
    ($file:literal) => {
        include_str!(concat!("../../../tests/fixtures/corpus/onyx/show/", $file))
    };
}

macro_rules! more {
    ($file:literal) => {
        include_str!(concat!("../../../tests/fixtures/corpus/onyx/more/", $file))
    };
}

fn p(s: &str) -> Port {
    s.parse().unwrap()
}

#[test]
fn lldp_neighbors_as_captured() {
    let n = lldp_remote(show!("napalm-onyx__show_lldp_remote_json-print.txt")).unwrap();
    assert_eq!(n.len(), 2);
    assert_eq!(
        n[&p("1/15/3")],
        [Neighbor {
            system_name: Some("mgmt1.dc".into()),
            port_id: "swp0".into()
        }]
    );
    assert_eq!(n[&p("1/15/2")][0].system_name.as_deref(), Some("mgmt2.dc"));
    assert_eq!(port_id("swp0"), None);
    assert_eq!(port_id("Eth1/25"), Some(p("1/25")));
    assert_eq!(port_id("Ethernet1/31/2"), Some(p("1/31/2")));
    assert_eq!(port_id("ethernet 1/7"), Some(p("1/7")));
    assert_eq!(port_id("fortyGigE 0/52"), None);
    assert_eq!(port_id("3c:fd:aa:bb:cc:f0"), None);
    let none =
        lldp_remote(r#"{"Eth1/5": [{"Port ID": "x", "System Name": "Not Advertised"}]}"#).unwrap();
    assert_eq!(none[&p("1/5")][0].system_name, None);
}

#[test]
fn links_in_both_shapes_of_show_interfaces_ethernet() {
    let facts = show!("ansible-onyx__onyx_facts_show_interfaces_ethernet__json.cfg");
    let links = interfaces(facts).unwrap();
    assert_eq!(
        links[&p("1/1")],
        Link {
            admin: Some(true),
            oper: "Down".into(),
            speed: Some(100),
            speed_text: Some("100 Gbps".into())
        }
    );
    assert_eq!(links.len(), 2);
    // VLAN interfaces in the list are not ports.
    let mixed = interfaces(show!("ansible-onyx__onyx_interfaces_show__json.cfg")).unwrap();
    assert_eq!(mixed.keys().collect::<Vec<_>>(), [&p("1/1")]);
    assert_eq!(mixed[&p("1/1")].speed, Some(40));
    // Up to 3.6.6000 each port is `{"Eth1/1": [{…}]}` (the layout Ansible's
    // `onyx_interface` reads there): the captured attributes in that layout.
    let v: Value = serde_json::from_str(facts).unwrap();
    let old: Vec<Value> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let mut o = o.as_object().unwrap().clone();
            let name = o.remove("header").unwrap();
            serde_json::json!({ name.as_str().unwrap(): [o] })
        })
        .collect();
    assert_eq!(interfaces(&Value::Array(old).to_string()).unwrap(), links);
    assert_eq!(gbps("25G"), Some(25));
    assert_eq!(gbps("1000Mb/s (auto)"), Some(1));
    assert_eq!(gbps("Unknown"), None);
}

#[test]
fn pfc_per_interface_in_each_layout() {
    let on = pfc(show!(
        "ansible-onyx__onyx_pfc_interface_enabled__show_dcb_pfc_json.cfg"
    ))
    .unwrap();
    assert_eq!(on.len(), 4);
    assert!(on.values().all(Pfc::enabled));
    assert_eq!(on[&Iface::MlagPortChannel(2)].admin.as_deref(), Some("on"));
    assert!(on.contains_key(&Iface::Ethernet(p("1/1/2"))));
    assert!(on.contains_key(&Iface::PortChannel(1)));
    let off = pfc(show!(
        "ansible-onyx__onyx_pfc_interface_disabled__show_dcb_pfc_json.cfg"
    ))
    .unwrap();
    assert!(off.values().all(|s| !s.enabled() && s.oper == "Disabled"));
    // The same table under `Table 2` (to 3.6.6000) and third in a list (after it).
    let table: Value = serde_json::from_str(show!(
        "ansible-onyx__onyx_pfc_interface_enabled__show_dcb_pfc_json.cfg"
    ))
    .unwrap();
    let old = serde_json::json!({ "Table 2": table.clone() });
    assert_eq!(pfc(&old.to_string()).unwrap(), on);
    let new = serde_json::json!([{}, {}, table]);
    assert_eq!(pfc(&new.to_string()).unwrap(), on);
    assert_eq!(pfc("[{}, {}]").unwrap(), BTreeMap::new());
}

#[test]
fn trust_ets_and_ecn_of_a_port() {
    let q = show!("ansible-onyx__show_qos_interface_ethernet__json.cfg");
    assert_eq!(trust(q, p("1/1")).unwrap(), "both");
    assert_eq!(
        trust(q, p("1/2")).unwrap_err(),
        "the reply has no entry for `Eth1/2`"
    );
    let e = ets(
        show!("ansible-onyx__onyx_show_dcb_ets_interface__json.cfg"),
        p("1/1"),
    )
    .unwrap();
    assert_eq!(e.len(), 8);
    assert_eq!(e[&3], Sched::Strict);
    assert_eq!(e[&2], Sched::Strict);
    assert_eq!(e[&1], Sched::Wrr(13));
    assert_eq!(e[&0], Sched::Wrr(12));
    let c = congestion_control(
        show!("ansible-onyx__onyx_show_interface_congestion_control__json.cfg"),
        p("1/1"),
    )
    .unwrap();
    assert_eq!(c.len(), 8);
    assert_eq!(c[&0], Marking::Off);
    assert_eq!(
        c[&3],
        Marking::On(Ecn {
            mode: EcnMode::Ecn,
            thresholds: EcnThresholds::Absolute {
                min: 500,
                max: 1550
            }
        })
    );
    assert_eq!(
        c[&2],
        Marking::On(Ecn {
            mode: EcnMode::Red,
            thresholds: EcnThresholds::Relative { min: 9, max: 90 }
        })
    );
    // A reply for another port is not this port's.
    assert_eq!(
        congestion_control(
            show!("ansible-onyx__onyx_show_interface_congestion_control__json.cfg"),
            p("1/2")
        )
        .unwrap_err(),
        "the reply is for ethernet 1/1, not 1/2"
    );
}

#[test]
fn a_buffer_pool() {
    let text = show!("ansible-onyx__onyx_buffer_pool__show_traffic_pool_roce_json.cfg");
    assert_eq!(
        traffic_pool(text, "roce").unwrap(),
        Some(Pool {
            kind: "lossless".into(),
            memory: "50.00".into(),
            priorities: BTreeSet::from([3])
        })
    );
    assert_eq!(traffic_pool(text, "storage").unwrap(), None);
    let several = r#"{"lossy-default": [{"Type": "lossy", "Memory [%]": "auto", "Switch Priorities": "0, 1, 2, 4,"}]}"#;
    assert_eq!(
        traffic_pool(several, "lossy-default")
            .unwrap()
            .unwrap()
            .priorities,
        BTreeSet::from([0, 1, 2, 4])
    );
}

#[test]
fn bgp_summary_as_captured() {
    let s = bgp_summary(more!(
        "cray-docs-csm__sw-spine-001__show_ip_bgp_summary_5_neighbors.txt"
    ))
    .unwrap()
    .unwrap();
    assert_eq!(s.asn, 65533);
    assert_eq!(s.router_id, Some(Ipv4Addr::new(10, 252, 0, 2)));
    assert_eq!(s.neighbors.len(), 5);
    let n = &s.neighbors[&Ipv4Addr::new(10, 252, 1, 11)];
    assert_eq!((n.remote_as, n.state.as_str()), (65533, "ESTABLISHED/14"));
    assert!(n.established());
    // Several VRFs: the default one's.
    let all = bgp_summary(more!(
        "cray-docs-csm__sw-spine-001__show_ip_bgp_vrf_all_summary.txt"
    ))
    .unwrap()
    .unwrap();
    assert_eq!(
        all.neighbors
            .keys()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        ["10.252.1.7", "10.252.1.8", "10.252.1.9"]
    );
    // Only another VRF: none in the default one.
    assert_eq!(
        bgp_summary(more!(
            "cray-docs-csm__sw-spine-001__show_ip_bgp_vrf_CAN_summary.txt"
        ))
        .unwrap(),
        None
    );
    assert_eq!(bgp_summary("\n").unwrap(), None);
}

#[test]
fn mlag_as_captured() {
    let m = mlag(more!("cray-docs-csm__sw-spine-002__show_mlag.txt")).unwrap();
    assert_eq!((m.admin.as_str(), m.oper.as_str()), ("Enabled", "Up"));
    assert_eq!(m.system_mac.as_deref(), Some("00:00:5E:00:01:01"));
    assert_eq!((m.inactive, m.partial), (0, 1));
    assert_eq!(
        m.ipls,
        [Ipl {
            id: 1,
            port_channel: Some(100),
            vlan: Some(4000),
            state: "Up".into(),
            local: Some(Ipv4Addr::new(192, 168, 255, 253)),
            peer: Some(Ipv4Addr::new(192, 168, 255, 254)),
        }]
    );
}

/// A reply that is not what the command prints is an error that says what it is, never
/// an empty state.
#[test]
fn replies_that_do_not_read_are_errors() {
    let unrecognized = "% Unrecognized command \"lldp\".\n";
    assert_eq!(
        lldp_remote(unrecognized).unwrap_err(),
        "the switch answered `% Unrecognized command \"lldp\".`"
    );
    assert!(bgp_summary(unrecognized).is_err());
    assert!(mlag(unrecognized).is_err());
    // Cut short.
    let cut = &show!("napalm-onyx__show_lldp_remote_json-print.txt")[..60];
    let e = lldp_remote(cut).unwrap_err();
    assert!(e.starts_with("not JSON (EOF while parsing"), "{e}");
    assert_eq!(
        interfaces("").unwrap_err(),
        "an empty reply, where `json-print` prints JSON"
    );
    // A terminal escape in a reply is shown escaped, never sent to the terminal.
    let e = pfc("\x1b[2Jgone").unwrap_err();
    assert!(e.ends_with("the reply begins `\\u{1b}[2Jgone`"), "{e}");
    // Another shape.
    assert_eq!(
        lldp_remote("[1, 2]").unwrap_err(),
        "the reply is not an object, as Onyx prints it"
    );
    assert_eq!(
        interfaces(r#"[{"header": "Eth1/1", "Admin state": "Enabled"}]"#).unwrap_err(),
        "`Eth1/1` has no `Operational state`"
    );
    assert_eq!(
        interfaces(r#"[{"header": "Eth1/x", "Operational state": "Up"}]"#).unwrap_err(),
        "`Eth1/x` is not an interface name"
    );
    assert_eq!(
        bgp_summary("VRF name : default\nlocal AS number : 65000\n").unwrap_err(),
        "the default VRF's block has no table of neighbors (`Neighbor … State/PfxRcd`)"
    );
    let row = "VRF name : default\nlocal AS number : 65000\nNeighbor V AS MsgRcvd MsgSent TblVer InQ OutQ Up/Down State/PfxRcd\n10.0.0.1 4 65001 1 1\n";
    assert_eq!(
        bgp_summary(row).unwrap_err(),
        "the row of 10.0.0.1 has 5 columns, not the table's ten: `10.0.0.1 4 65001 1 1`"
    );
    assert!(
        bgp_summary("Welcome\n")
            .unwrap_err()
            .starts_with("not `show ip bgp summary`")
    );
    assert!(
        mlag("MLAG is not running\n")
            .unwrap_err()
            .starts_with("not `show mlag`")
    );
    assert_eq!(
        mlag("Admin status: Enabled\nOperational status: Up\nMLAG IPLs Summary:\n1    Po1    x\n")
            .unwrap_err(),
        "the peer-link row `1    Po1    x` does not read"
    );
}

mod route_tests {
    use super::*;

    fn fixture(name: &str) -> String {
        crate::repo_file(&format!("tests/fixtures/corpus/onyx/more/{name}"))
    }

    #[test]
    fn the_captured_tables_read_with_their_ecmp_next_hops() {
        let r = ip_route(&fixture(
            "cray-docs-csm__sw-spine-001__show_ip_route_10.92.100.60.txt",
        ))
        .unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].prefix.to_string(), "0.0.0.0/0");
        assert_eq!(r[0].hops, [("10.101.15.161".into(), "eth1/12".into())]);
        assert_eq!(r[1].prefix.to_string(), "10.92.100.60/32");
        assert_eq!(r[1].source, "bgp");
        assert_eq!(r[1].hops.len(), 3);
        assert_eq!(r[1].hops[2], ("10.252.0.7".into(), "vlan2".into()));
        // Several VRFs: the default one's table only.
        let all = ip_route(&fixture(
            "cray-docs-csm__sw-spine-001__show_ip_route_vrf_all_bgp.txt",
        ))
        .unwrap();
        assert_eq!(all.len(), 12);
        assert!(all.iter().all(|r| r.hops[0].1 != "vlan7"), "{all:?}");
        assert_eq!(all.iter().map(|r| r.hops.len()).sum::<usize>(), 28);
        // Published without blank lines: read the same.
        let tight = ip_route(&fixture(
            "cray-docs-csm__sw-spine-001__show_ip_route_10.92.100.222.txt",
        ))
        .unwrap();
        assert_eq!(tight[1].hops.len(), 3);
    }

    #[test]
    fn what_is_not_a_routing_table_is_said() {
        assert!(ip_route("% Unrecognized command \"route\".\n").is_err());
        assert!(ip_route("").is_err());
        let cut = "VRF Name default:\n  Destination       Mask              Flag     Gateway           Interface        Source     AD/M\n  10.1.0.0          255.255.0.0\n";
        assert!(ip_route(cut).is_err());
    }
}
