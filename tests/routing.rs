//! The routed underlay as a user relies on it: allocation is stable when the fabric grows,
//! every BGP session's two ends agree, and a routed fabric compiles to what the switches
//! need (routed ports, addresses, sessions, ECMP).

use std::collections::BTreeMap;

use fabric::diag::Sources;
use fabric::onyx::{Config, Iface, Renderer};

use crate::root;

/// The fabric `text`, validated (a panic with its diagnostics when it is not valid).
pub fn validated(name: &str, text: &str) -> fabric::fabric::Fabric {
    let mut sources = Sources::default();
    let loaded = fabric::fabric::parse_bytes(name, text.as_bytes().to_vec(), &mut sources)
        .unwrap_or_else(|d| panic!("{}", fabric::diag::render(&[d], &sources, false)));
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    fab.unwrap_or_else(|| panic!("{}", fabric::diag::render(&diags, &sources, false)))
}

/// Every switch's compiled config in the fabric `text`, by name.
pub fn compile_text(name: &str, text: &str) -> BTreeMap<String, Config> {
    fabric::compile::compile_onyx(&validated(name, text))
        .into_iter()
        .map(|(h, c)| (h.to_string(), c))
        .collect()
}

fn ml_cluster() -> String {
    std::fs::read_to_string(root().join("fabrics/ml-cluster.yaml")).unwrap()
}

/// leaf05 added (with its cables to both spines, as the fabric's comment plans): leaf01-04
/// compile to exactly what they did, and the spines keep every interface and session they
/// had, gaining only leaf05's.
#[test]
fn adding_a_leaf_renumbers_nothing() {
    let before = compile_text("ml.yaml", &ml_cluster());
    let grown = ml_cluster()
        .replace(
            "  spine01:\n",
            "  leaf05:\n    model: SN3700\n    role: leaf\n    vlans: [{ id: 10, name: gpu, address: 10.10.5.1/24 }]\n  spine01:\n",
        )
        + "  - { a: leaf05:1/25-1/28, b: spine01:1/17-1/20, profile: uplink }\n  - { a: leaf05:1/29-1/32, b: spine02:1/17-1/20, profile: uplink }\n";
    let after = compile_text("ml-grown.yaml", &grown);
    assert_eq!(after.len(), before.len() + 1);
    let renderer = Renderer::embedded().unwrap();
    for (name, config) in &before {
        let old = renderer.render(config).unwrap();
        let new = renderer.render(&after[name]).unwrap();
        if name.starts_with("leaf") {
            assert_eq!(old, new, "{name} changed when leaf05 was added");
        } else {
            let grown = &after[name];
            // Every port that was cabled, and the loopback; the spare ports leaf05 takes
            // change, as they must.
            for (iface, i) in &config.interfaces {
                if i.routed || matches!(iface, Iface::Loopback(_)) {
                    assert_eq!(grown.interfaces.get(iface), Some(i), "{name} {iface}");
                }
            }
            let (b, g) = (config.bgp.as_ref().unwrap(), grown.bgp.as_ref().unwrap());
            for (peer, asn) in &b.neighbors {
                assert_eq!(g.neighbors.get(peer), Some(asn), "{name} {peer}");
            }
            assert_eq!(g.neighbors.len(), b.neighbors.len() + 4);
            // leaf05's block of the pool: its 1/25 to spine01, 1/29 to spine02.
            let first = if name == "spine01" { 193 } else { 225 };
            let line = format!("neighbor 10.254.8.{first} remote-as 65105");
            assert!(new.contains(&line), "{line}\n{new}");
        }
    }
}

/// Both ends of every session agree: a neighbor's address is the far switch's address on
/// the same subnet, and its remote AS the far switch's AS; maximum-paths covers every
/// parallel session to one AS.
#[test]
fn every_session_matches_its_far_end() {
    let configs = compile_text("ml.yaml", &ml_cluster());
    let mut addresses: BTreeMap<std::net::Ipv4Addr, (String, u32)> = BTreeMap::new();
    for (name, c) in &configs {
        let bgp = c.bgp.as_ref().expect("every switch runs BGP");
        assert_eq!(
            bgp.router_id,
            c.interfaces[&Iface::Loopback(0)].address.map(|a| a.addr)
        );
        for (iface, i) in &c.interfaces {
            if let (Iface::Ethernet(_), Some(a)) = (iface, i.address) {
                assert!(i.routed, "{name} {iface}: an address on an L2 port");
                addresses.insert(a.addr, (name.clone(), bgp.asn));
            }
        }
    }
    let mut sessions = 0;
    for (name, c) in &configs {
        let bgp = c.bgp.as_ref().unwrap();
        let mut per_as: BTreeMap<u32, u16> = BTreeMap::new();
        for (peer, asn) in &bgp.neighbors {
            let (far, far_as) = &addresses[peer];
            assert_ne!(far, name);
            assert_eq!(asn, far_as, "{name} → {peer}");
            // The far end's session points back at this switch.
            let back = configs[far].bgp.as_ref().unwrap();
            assert!(back.neighbors.values().any(|a| *a == bgp.asn));
            *per_as.entry(*asn).or_default() += 1;
            sessions += 1;
        }
        let widest = per_as.values().max().copied().unwrap_or(1);
        assert!(bgp.maximum_paths.unwrap_or(1) >= widest, "{name}");
    }
    // 4 leaves × 8 uplinks, counted at both ends.
    assert_eq!(sessions, 64);
    let leaf = &configs["leaf01"];
    assert_eq!(leaf.bgp.as_ref().unwrap().maximum_paths, Some(8));
    assert!(leaf.ip_routing && !leaf.load_sharing.is_empty());
    // No L2 between switches: every uplink is routed, so spanning tree blocks none of them.
    for port in 25..=32 {
        let i = &leaf.interfaces[&Iface::Ethernet(fabric::types::Port::new(1, port))];
        assert!(i.routed && i.access_vlan.is_none() && i.pfc, "1/{port}");
    }
}

/// Where L2 joins switches (a LAG here), the fabric says whether spanning tree runs: a switch
/// that leaves it to Onyx's default gets W005 at its first L2 link, one that writes `stp` none.
#[test]
fn l2_between_switches_wants_a_spanning_tree_policy() {
    let yaml = "vlans:\n  - { id: 10 }\nswitches:\n  sw01:\n    model: SN2700\n    stp: on\n  sw02:\n    model: SN2700\nlinks:\n  - { a: sw01:1/1-1/2, b: sw02:1/1-1/2, role: lag, lag: 1, vlans: [10] }\n";
    let mut sources = Sources::default();
    let loaded = fabric::fabric::parse_bytes("stp.yaml", yaml.as_bytes().to_vec(), &mut sources)
        .unwrap_or_else(|d| panic!("{}", fabric::diag::render(&[d], &sources, false)));
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    assert!(fab.is_some());
    let text = fabric::diag::render(&diags, &sources, false);
    assert_eq!(diags.len(), 1, "{text}");
    assert!(
        text.starts_with("warning[W005]: `sw02` has L2 links to other switches but no spanning-tree policy\n  --> stp.yaml:10:27\n"),
        "{text}"
    );
    // Written on the fabric, it holds for both.
    let yaml = format!("stp: off\n{yaml}");
    let loaded = fabric::fabric::parse_bytes("stp2.yaml", yaml.into_bytes(), &mut sources).unwrap();
    let (_, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    assert_eq!(
        diags.len(),
        0,
        "{}",
        fabric::diag::render(&diags, &sources, false)
    );
}
