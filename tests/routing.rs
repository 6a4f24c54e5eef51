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
    fabric::onyx::compile::fabric(&validated(name, text))
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

/// A fabric's switches, validated, with the rendered diagnostics.
fn validated_with_warnings(name: &str, text: &str) -> (fabric::fabric::Fabric, String) {
    let mut sources = Sources::default();
    let loaded = fabric::fabric::parse_bytes(name, text.as_bytes().to_vec(), &mut sources)
        .unwrap_or_else(|d| panic!("{}", fabric::diag::render(&[d], &sources, false)));
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let text = fabric::diag::render(&diags, &sources, false);
    (fab.unwrap_or_else(|| panic!("{text}")), text)
}

/// Every session over a routed link runs BFD (300 ms × 3) with fast-external-fallover, and
/// no BGP timers: the switch's own. Written out, as Onyx prints them: `protocol bfd` and the
/// three timers in "BFD configuration", each neighbor's `fall-over bfd` beside its remote AS.
#[test]
fn every_session_over_a_routed_link_runs_bfd_by_default() {
    let configs = compile_text("ml.yaml", &ml_cluster());
    let renderer = Renderer::embedded().unwrap();
    for (name, c) in &configs {
        let b = c.bgp.as_ref().unwrap();
        assert!(c.protocols.contains(&fabric::onyx::Protocol::Bfd), "{name}");
        assert_eq!(
            (c.bfd.transmit_rate, c.bfd.min_rx, c.bfd.multiplier),
            (Some(300), Some(300), Some(3)),
            "{name}"
        );
        assert_eq!(b.bfd, b.neighbors.keys().copied().collect(), "{name}");
        assert!(b.timers.is_empty() && b.fast_external_fallover, "{name}");
        let text = renderer.render(c).unwrap();
        let first = b.neighbors.keys().next().unwrap();
        for line in [
            "##\n## BFD configuration\n##\n   protocol bfd\n   ip bfd vrf default interval transmit-rate 300 force\n   ip bfd vrf default interval min-rx 300 force\n   ip bfd vrf default interval multiplier 3 force\n".to_string(),
            "vrf default bgp fast-external-fallover\n".to_string(),
            format!(
                "vrf default neighbor {first} remote-as {}\n   router bgp {} vrf default neighbor {first} fall-over bfd\n",
                b.neighbors[first], b.asn
            ),
        ] {
            assert!(text.contains(&line), "{name}: {line}\n{text}");
        }
        // Printed as read.
        assert_eq!(fabric::onyx::parse(&text).unwrap(), *c, "{name}");
    }
}

/// `routing` turns BFD off and sets BGP timers for every session over a routed link; a
/// switch's `bgp` changes its own (BFD timers, fallover), a written neighbor says its own
/// (BFD off unless `bfd: true`); BFD at one end of a link only is W008, at the link and at
/// the line that turned it off.
#[test]
fn routing_and_a_switch_choose_how_sessions_notice_a_dead_link() {
    let yaml = ml_cluster().replace(
        "  links: 10.254.0.0/20 ",
        "  bfd: false\n  timers: { keepalive: 3, hold: 9 }\n  fast_external_fallover: false\n  links: 10.254.0.0/20 ",
    );
    assert_ne!(yaml, ml_cluster());
    let configs = compile_text("off.yaml", &yaml);
    for (name, c) in &configs {
        let b = c.bgp.as_ref().unwrap();
        assert!(
            !c.protocols.contains(&fabric::onyx::Protocol::Bfd),
            "{name}"
        );
        assert!(b.bfd.is_empty() && !b.fast_external_fallover, "{name}");
        assert!(b.neighbors.keys().all(|a| b.timers[a] == (3, 9)), "{name}");
    }
    let leaf = Renderer::embedded()
        .unwrap()
        .render(&configs["leaf01"])
        .unwrap();
    assert!(
        leaf.contains("   router bgp 65101 vrf default neighbor 10.254.0.192 timers 3 9\n"),
        "{leaf}"
    );
    assert!(
        !leaf.contains("bfd") && !leaf.contains("fallover"),
        "{leaf}"
    );

    // leaf01 its own: BFD at 100 ms × 5, a peer outside the fabric with BFD and timers; and
    // spine02 without BFD.
    let yaml = ml_cluster()
        .replace(
            "    vlans: [{ id: 10, name: gpu, address: 10.10.1.1/24 }]   # gateway of gpu001-gpu032\n",
            "    vlans: [{ id: 10, name: gpu, address: 10.10.1.1/24 }]\n    bgp:\n      bfd: { interval: 100, multiplier: 5 }\n      neighbors: [{ address: 192.0.2.1, remote_as: 64512, bfd: true, timers: { keepalive: 10, hold: 30 } }, { address: 192.0.2.3, remote_as: 64512 }]\n",
        )
        .replace(
            "    mgmt: { host: 127.0.0.1, port: 2236, user: admin }\n",
            "    mgmt: { host: 127.0.0.1, port: 2236, user: admin }\n    bgp: { bfd: false, fast_external_fallover: false }\n",
        );
    let (fab, warnings) = validated_with_warnings("mixed.yaml", &yaml);
    let leaf01 = fab.switches["leaf01"].routing.as_ref().unwrap();
    assert_eq!(
        leaf01.bfd,
        Some(fabric::fabric::BfdTimers {
            interval: 100,
            min_rx: 100,
            multiplier: 5
        })
    );
    let peer = &leaf01.neighbors[&"192.0.2.1".parse().unwrap()];
    assert!(peer.bfd && peer.link.is_none());
    assert_eq!(
        peer.timers,
        Some(fabric::fabric::BgpTimers {
            keepalive: 10,
            hold: 30
        })
    );
    assert!(!leaf01.neighbors[&"192.0.2.3".parse().unwrap()].bfd);
    let spine02 = fab.switches["spine02"].routing.as_ref().unwrap();
    assert_eq!(
        (spine02.bfd, spine02.fast_external_fallover),
        (None, Some(false))
    );
    // One W008 per leaf (its four cables to spine02 once), at the link and the setting.
    assert_eq!(warnings.matches("warning[W008]").count(), 4, "{warnings}");
    assert!(
        warnings.contains("warning[W008]: BFD runs on `leaf01`'s end of routed link leaf01:1/29 – spine02:1/1 but not on `spine02`'s"),
        "{warnings}"
    );
    assert!(warnings.contains("turned off here"), "{warnings}");
    assert!(!warnings.contains("error"), "{warnings}");
}

/// On OS10: `bfd enable` and `bfd interval … role active` (left out at OS10's own default,
/// 200 ms × 3), `bfd` and `timers` in each neighbor, `no fast-external-fallover` when off;
/// printed as read.
#[test]
fn os10_switches_run_bfd_in_their_own_words() {
    let fabric_of = |routing: &str| {
        format!(
            "os: os10\nos10: 10.5.3.2\nrouting:\n  spine: {{ asn: 65000, loopbacks: 10.255.0.0/28 }}\n  leaf: {{ asn_base: 65100, loopbacks: 10.255.1.0/24 }}\n  links: 10.254.0.0/20\n{routing}switches:\n  leaf01: {{ model: S5232F-ON, role: leaf }}\n  spine01: {{ model: S5232F-ON, role: spine }}\nlinks:\n  - {{ a: leaf01:ethernet1/1/31-1/1/32, b: spine01:ethernet1/1/1-1/1/2 }}\n"
        )
    };
    let renderer = fabric::os10::Renderer::embedded().unwrap();
    let leaf = |routing: &str| {
        let (fab, warnings) = validated_with_warnings("os10.yaml", &fabric_of(routing));
        assert_eq!(warnings, "");
        let c = fabric::os10::compile::compile_switch(&fab.switches["leaf01"]);
        let text = renderer.render(&c).unwrap();
        assert_eq!(fabric::os10::parse(&text).unwrap(), c, "{text}");
        text
    };
    let on = leaf("");
    for line in [
        "\nbfd enable\nbfd interval 300 min_rx 300 multiplier 3 role active\n!\n",
        "router bgp 65101\n maximum-paths ebgp 2\n",
        " neighbor 10.254.0.240\n  bfd\n  remote-as 65000\n  no shutdown\n",
    ] {
        assert!(on.contains(line), "{line}\n{on}");
    }
    let own = leaf(
        "  bfd: { interval: 200, min_rx: 200, multiplier: 3 }\n  timers: { keepalive: 3, hold: 9 }\n  fast_external_fallover: false\n",
    );
    assert!(own.contains("\nbfd enable\n!\n"), "{own}");
    assert!(!own.contains("bfd interval"), "{own}");
    for line in [
        "router bgp 65101\n no fast-external-fallover\n maximum-paths ebgp 2\n",
        "  bfd\n  remote-as 65000\n  timers 3 9\n  no shutdown\n",
    ] {
        assert!(own.contains(line), "{line}\n{own}");
    }
    let off = leaf("  bfd: false\n");
    assert!(!off.contains("bfd"), "{off}");
}

/// The steps (`fabric::steps`) the audit of a routed leaf-spine fabric takes per BGP session:
/// `leaves` leaves on pods of 8, every session's far end looked up.
fn audit_steps_per_session(leaves: usize) -> f64 {
    let generated = crate::leaf_spine::LeafSpine::new(leaves, 8, 0);
    let fab = validated("ls.yaml", &generated.yaml());
    let input = fabric::audit::Input {
        switches: fab
            .switches
            .iter()
            .map(|(n, sw)| (n.to_string(), fabric::audit::Switch::compiled(sw)))
            .collect(),
        links: fabric::audit::fabric_links(&fab),
        ..Default::default()
    };
    fabric::steps::take();
    let findings = fabric::audit::audit(&input);
    let steps = fabric::steps::take();
    assert!(!findings.iter().any(|f| f.rule == "R050"), "{findings:#?}");
    // Two sessions per leaf, each seen from both ends.
    steps as f64 / (4 * leaves) as f64
}

/// The audit looks each BGP session's far end up: the same steps per session at 16 and 64
/// leaves. Finding it by a scan of every switch (as R050 once did) grows with the fabric and
/// fails this.
#[test]
fn the_audit_finds_each_sessions_far_end_in_the_same_steps_at_every_size() {
    let (small, large) = (audit_steps_per_session(16), audit_steps_per_session(64));
    assert!(small > 0.0, "nothing counted");
    assert!(
        large <= small * 1.1,
        "{small:.1} steps per session at 16 leaves, {large:.1} at 64"
    );
}
