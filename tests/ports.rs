//! The port policies a fabric sets by default, compiled for both OSes: a host's port is a
//! spanning-tree edge port with BPDU guard (on the port, or on the bundle it joins), a port
//! facing a switch, a routed port and the MLAG peer link are not, and a port nothing names is
//! shut; `host_ports: keep` and `unused_ports: keep` leave them, and a port's `stp` wins.

use fabric::onyx::{Iface, Renderer};
use fabric::types::{Port, StpGuard, StpPortType};

/// An MLAG pair of Onyx switches with hosts (single-homed, dual-homed over MLAG port-channel
/// 1, one with its own `stp`, one routed), a trunk to an aggregation switch that keeps both
/// policies, and an OS10 leaf behind it.
const FABRIC: &str = "lldp: true
stp: on
port_defaults: { mtu: 9216 }
vlans: [{ id: 10 }]
mlag:
  - switches: [tor-a, tor-b]
    system_mac: 00:00:5E:00:01:5D
    ipl: { port_channel: 100, vlan: 4000, subnet: 10.254.255.0/30 }
switches:
  tor-a:
    model: SN2100
    ports:
      1/1: { mlag: 1, vlan: 10, peer: { host: esx1, port: vmnic0 } }
      1/2: { vlan: 10, peer: { host: esx1, port: vmnic2 } }
      1/3: { vlan: 10, peer: { host: esx2, port: vmnic2 }, stp: { bpduguard: false, guard: root } }
      1/4: { address: 10.0.0.1/31, peer: { host: router1 } }
  tor-b:
    model: SN2100
    ports:
      1/1: { mlag: 1, vlan: 10, peer: { host: esx1, port: vmnic1 } }
  agg:
    model: SN2100
    host_ports: keep
    unused_ports: keep
    ports:
      1/3: { vlan: 10, peer: { host: esx3, port: vmnic2 } }
  leaf:
    os: os10
    model: S5248F-ON
    ports:
      ethernet1/1/1: { vlan: 10, peer: { host: gpu1, port: ens1f0 } }
links:
  - { a: tor-a:1/15-1/16, b: tor-b:1/15-1/16, role: ipl }
  - { a: tor-a:1/13, b: agg:1/1, role: trunk, vlans: [10] }
  - { a: leaf:ethernet1/1/49, b: agg:1/2, role: trunk, vlans: [10] }
";

fn compiled(text: &str) -> std::collections::BTreeMap<String, fabric::compile::Target> {
    fabric::compile::compile(&crate::routing::validated("ports.yaml", text))
        .into_iter()
        .map(|(h, c)| (h.to_string(), c))
        .collect()
}

fn eth(p: &str) -> Iface {
    Iface::Ethernet(p.parse::<Port>().unwrap())
}

#[test]
fn host_ports_are_edge_ports_with_bpdu_guard_and_unused_ports_are_shut_on_onyx() {
    let all = compiled(FABRIC);
    let a = all["tor-a"]
        .as_any()
        .downcast_ref::<fabric::onyx::Config>()
        .unwrap();
    let stp = |i: Iface| {
        let e = a.interfaces.get(&i).cloned().unwrap_or_default();
        (e.stp_type, e.bpduguard, e.stp_guard)
    };
    let edge = (Some(StpPortType::Edge), Some(true), None);
    let none = (None, None, None);
    // A host's port; a dual-homed host's bundle (not its member); a port's own settings win.
    assert_eq!(stp(eth("1/2")), edge);
    assert_eq!(stp(Iface::MlagPortChannel(1)), edge);
    assert_eq!(stp(eth("1/1")), none);
    assert_eq!(
        stp(eth("1/3")),
        (Some(StpPortType::Edge), Some(false), Some(StpGuard::Root))
    );
    // A routed port, a switch's port, the peer link and its members: none.
    for i in [eth("1/4"), eth("1/13"), eth("1/15"), eth("1/16")] {
        assert_eq!(stp(i), none, "{i}");
    }
    assert_eq!(stp(Iface::PortChannel(100)), none);
    // Ports nothing names are shut; the others are not.
    let down = |p: &str| a.interfaces.get(&eth(p)).and_then(|e| e.shutdown);
    for p in ["1/5", "1/12", "1/14"] {
        assert_eq!(down(p), Some(true), "{p}");
    }
    for p in ["1/1", "1/2", "1/3", "1/4", "1/13", "1/15", "1/16"] {
        assert_eq!(down(p), None, "{p}");
    }
    // Printed as Onyx prints them: the STP section, every port type, then guards, then BPDU
    // guard; the unused ports' `shutdown` with the other Ethernet lines.
    let text = Renderer::embedded().unwrap().render(a).unwrap();
    let stp_section: Vec<&str> = text
        .split("## STP configuration\n##\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        stp_section,
        [
            "   interface ethernet 1/2-1/3 spanning-tree port type edge",
            "   interface mlag-port-channel 1 spanning-tree port type edge",
            "   interface ethernet 1/3 spanning-tree guard root",
            "   interface ethernet 1/2 spanning-tree bpduguard enable",
            "   interface ethernet 1/3 spanning-tree bpduguard disable",
            "   interface mlag-port-channel 1 spanning-tree bpduguard enable",
        ],
        "{text}"
    );
    assert!(
        text.contains(
            "   interface ethernet 1/5-1/12 shutdown\n   interface ethernet 1/14 shutdown\n"
        ),
        "{text}"
    );
    // Both halves of the MLAG port-channel agree (E122 would say otherwise).
    let b = all["tor-b"]
        .as_any()
        .downcast_ref::<fabric::onyx::Config>()
        .unwrap();
    assert_eq!(
        b.interfaces[&Iface::MlagPortChannel(1)].stp_type,
        Some(StpPortType::Edge)
    );
    // `host_ports: keep`, `unused_ports: keep`: nothing added.
    let agg = all["agg"]
        .as_any()
        .downcast_ref::<fabric::onyx::Config>()
        .unwrap();
    assert!(
        agg.interfaces
            .values()
            .all(|e| e.stp_type.is_none() && e.bpduguard.is_none() && e.shutdown.is_none()),
        "{agg:#?}"
    );
}

#[test]
fn host_ports_are_edge_ports_with_bpdu_guard_and_unused_ports_are_shut_on_os10() {
    use fabric::os10::{Eth, Iface as I};
    let all = compiled(FABRIC);
    let leaf = all["leaf"]
        .as_any()
        .downcast_ref::<fabric::os10::Config>()
        .expect("an OS10 switch");
    let e = |n| &leaf.interfaces[&I::Ethernet(Eth::new(n))];
    assert_eq!(
        (e(1).stp_type, e(1).bpduguard, e(1).shutdown),
        (Some(StpPortType::Edge), Some(true), Some(false))
    );
    // The trunk to the aggregation switch: no spanning-tree line, up.
    assert_eq!(
        (e(49).stp_type, e(49).bpduguard, e(49).shutdown),
        (None, None, Some(false))
    );
    for n in [2, 48, 50, 56] {
        assert_eq!(e(n).shutdown, Some(true), "ethernet1/1/{n}");
        assert_eq!(e(n).bpduguard, None);
    }
    // Printed in the AzureStack TOR's order: after the QoS lines, BPDU guard, then port type.
    let text = fabric::os10::Renderer::embedded()
        .unwrap()
        .render(leaf)
        .unwrap();
    let block = text
        .split("interface ethernet1/1/1\n")
        .nth(1)
        .unwrap()
        .split("!\n")
        .next()
        .unwrap();
    assert!(
        block.ends_with(" spanning-tree bpduguard enable\n spanning-tree port type edge\n"),
        "{block}"
    );
}
