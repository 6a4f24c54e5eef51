//! The lab's data plane in the kernel (`fabric::lab::dataplane`), judged by the kernel: the
//! namespaces, veth ends, MTUs, carrier and routes that `ip -j` reports, not what the plan
//! says. Needs root (network namespaces) and iproute2: `.ci/run` runs as root; elsewhere the
//! test fails saying what is missing, never passes without running.

use std::collections::BTreeMap;
use std::process::Command;

use fabric::lab::dataplane::{Dataplane, Plan, link_name, missing};
use fabric::onyx::Iface;

use crate::root;

/// A namespace prefix of this test process: two runs at once never share a namespace.
fn prefix(tag: &str) -> String {
    format!("ft{}{tag}-", std::process::id())
}

/// `ip -n NS -j ARGS…`, its JSON.
fn ip_json(ns: &str, args: &[&str]) -> serde_json::Value {
    let out = Command::new("ip")
        .args(["-n", ns, "-j"])
        .args(args)
        .output()
        .expect("ip runs");
    assert!(
        out.status.success(),
        "ip -n {ns} -j {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("ip prints JSON")
}

/// A link of a namespace as the kernel has it: its MTU, operational state and flags.
fn link(ns: &str, dev: &str) -> (u64, String, Vec<String>) {
    let v = ip_json(ns, &["link", "show", "dev", dev]);
    let flags = v[0]["flags"]
        .as_array()
        .expect("flags")
        .iter()
        .map(|f| f.as_str().unwrap_or_default().to_string())
        .collect();
    (
        v[0]["mtu"].as_u64().expect("mtu"),
        v[0]["operstate"].as_str().expect("operstate").to_string(),
        flags,
    )
}

/// The device the kernel routes `addr` through in `ns`.
fn route_dev(ns: &str, addr: &str) -> String {
    let v = ip_json(ns, &["route", "get", addr]);
    v[0]["dev"].as_str().expect("dev").to_string()
}

/// `fabrics/ml-cluster.yaml` (6 switches, 32 routed /31 uplinks, jumbo MTU everywhere) built
/// in namespaces: every cable is a veth pair whose ends carry each switch's MTU, both up;
/// every routed port and loopback has its address; the kernel routes each uplink's far
/// address out of that uplink. Then a port shut on one switch: its far end, still up, has no
/// carrier in the kernel; and dropping the data plane removes every namespace.
#[test]
fn the_routed_example_is_cabled_in_the_kernel_as_its_switches_are_configured() {
    let lacking = missing(&prefix("p"));
    assert!(
        lacking.is_empty(),
        "the data plane cannot be built here: {lacking:?}"
    );
    let yaml = std::fs::read_to_string(root().join("fabrics/ml-cluster.yaml")).unwrap();
    let (network, devices) = crate::network::network_and_devices(&yaml);
    let plan = Plan::of(&network.view());
    assert_eq!(plan.switches.len(), 6);
    assert_eq!(plan.cables.len(), 32, "{:?}", plan.cables);
    let pre = prefix("a");
    let dp = Dataplane::build(&plan, &pre).unwrap();
    let ns = |sw: &str| dp.namespace(sw).unwrap().to_string();
    // Every end as the kernel has it.
    for (a, b) in &plan.cables {
        for e in [a, b] {
            let (mtu, state, _) = link(&ns(&e.switch), &link_name(e.port));
            assert_eq!(mtu, 9216, "{} {}", e.switch, e.port);
            assert_eq!(state, "UP", "{} {}", e.switch, e.port);
        }
    }
    // Each routed uplink: both ends addressed, the far address routed out of it.
    let by_dev: BTreeMap<(String, String), String> = plan
        .addresses
        .iter()
        .map(|a| ((a.switch.clone(), a.dev.clone()), a.net.addr.to_string()))
        .collect();
    let mut routed = 0;
    for (a, b) in &plan.cables {
        let (da, db) = (link_name(a.port), link_name(b.port));
        let (Some(_), Some(far)) = (
            by_dev.get(&(a.switch.clone(), da.clone())),
            by_dev.get(&(b.switch.clone(), db.clone())),
        ) else {
            continue;
        };
        assert_eq!(route_dev(&ns(&a.switch), far), da, "{} → {far}", a.switch);
        routed += 1;
    }
    assert_eq!(routed, 32);
    // Loopbacks carry the router IDs.
    let lo = ip_json(&ns("leaf01"), &["addr", "show", "dev", "lo"]);
    assert!(lo.to_string().contains("\"10.255.1.1\""), "{lo}");

    // leaf01 1/25 shut: spine01's end of that cable has no carrier.
    let p25: fabric::types::Port = "1/25".parse().unwrap();
    // A cable's ends are in name order: leaf01's comes first.
    let (far, q) = plan
        .cables
        .iter()
        .find(|(a, _)| a.switch == "leaf01" && a.port == p25)
        .map(|(_, b)| (b.switch.clone(), b.port))
        .expect("leaf01 1/25 is cabled");
    drop(dp);
    devices["leaf01"].with(|sw| {
        sw.running
            .interfaces
            .get_mut(&Iface::Ethernet(p25))
            .unwrap()
            .shutdown = Some(true)
    });
    let plan = Plan::of(&network.view());
    let pre_b = prefix("b");
    let dp = Dataplane::build(&plan, &pre_b).unwrap();
    // The far end is up but has no carrier; leaf01's is down by its own configuration.
    let (_, state, flags) = link(dp.namespace(&far).unwrap(), &link_name(q));
    assert_eq!(state, "DOWN", "{far} {q}");
    assert!(
        flags.iter().any(|f| f == "NO-CARRIER") && flags.iter().any(|f| f == "UP"),
        "{far} {q}: {flags:?}"
    );
    let (_, state, flags) = link(dp.namespace("leaf01").unwrap(), "eth1-25");
    assert_eq!(state, "DOWN");
    assert!(!flags.iter().any(|f| f == "UP"), "{flags:?}");
    drop(dp);
    let left = Command::new("ip").args(["netns", "list"]).output().unwrap();
    let left = String::from_utf8_lossy(&left.stdout);
    assert!(
        !left.contains(&pre) && !left.contains(&pre_b),
        "namespaces left behind: {left}"
    );
}

/// FRR's own view of a switch's sessions: `(neighbor, state)` from `show bgp summary json`.
fn frr_sessions(ns: &str) -> Vec<(String, String)> {
    let text = fabric::lab::frr::Frr::vtysh(ns, "show bgp summary json").unwrap();
    let v: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    v["ipv4Unicast"]["peers"]
        .as_object()
        .map(|peers| {
            peers
                .iter()
                .map(|(n, p)| (n.clone(), p["state"].as_str().unwrap_or("?").to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// The next hops the kernel of `ns` installed towards `prefix` (one route: `via` and `dev`
/// at its top; ECMP: a `nexthops` list).
fn next_hops(ns: &str, prefix: &str) -> Vec<String> {
    let v = ip_json(ns, &["route", "show", prefix]);
    let Some(r) = v.as_array().and_then(|a| a.first()) else {
        return Vec::new();
    };
    match r["nexthops"].as_array() {
        Some(hops) => hops
            .iter()
            .map(|h| h["dev"].as_str().unwrap_or("?").to_string())
            .collect(),
        None => r["dev"].as_str().map(str::to_string).into_iter().collect(),
    }
}

/// Polls `ok` for up to `secs` seconds.
fn within(secs: u64, mut ok: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        if ok() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    ok()
}

/// `fabrics/ml-cluster.yaml` routed by real FRR in the kernel's namespaces, configured from
/// each switch's compiled BGP: every session Established in FRR's own JSON; each leaf's
/// kernel reaches every other leaf's loopback over its 8 uplinks (ECMP, `maximum-paths 8`);
/// one uplink taken down, 7.
#[test]
fn the_routed_example_converges_in_frr_with_a_next_hop_per_uplink() {
    let lacking: Vec<_> = missing(&prefix("q"))
        .into_iter()
        .chain(fabric::lab::frr::missing())
        .collect();
    assert!(lacking.is_empty(), "FRR cannot run here: {lacking:?}");
    let yaml = std::fs::read_to_string(root().join("fabrics/ml-cluster.yaml")).unwrap();
    let (network, _devices) = crate::network::network_and_devices(&yaml);
    let view = network.view();
    let plan = Plan::of(&view);
    let dp = Dataplane::build(&plan, &prefix("f")).unwrap();
    let frr = fabric::lab::frr::Frr::start(&dp, &view).unwrap();
    let ns = |sw: &str| dp.namespace(sw).unwrap().to_string();
    let switches = ["leaf01", "leaf02", "leaf03", "leaf04", "spine01", "spine02"];
    let established = within(60, || {
        switches.iter().all(|sw| {
            let s = frr_sessions(&ns(sw));
            !s.is_empty() && s.iter().all(|(_, st)| st == "Established")
        })
    });
    assert!(
        established,
        "{:?}",
        switches
            .iter()
            .map(|sw| (sw, frr_sessions(&ns(sw))))
            .collect::<Vec<_>>()
    );
    assert_eq!(frr_sessions(&ns("spine01")).len(), 16);
    for (leaf, other) in [("leaf01", "10.255.1.2"), ("leaf03", "10.255.1.4")] {
        let ok = within(30, || next_hops(&ns(leaf), other).len() == 8);
        assert!(ok, "{leaf} → {other}: {:?}", next_hops(&ns(leaf), other));
    }
    // One of leaf01's uplinks down: a next hop fewer.
    let down = Command::new("ip")
        .args(["-n", &ns("leaf01"), "link", "set", "eth1-25", "down"])
        .status()
        .unwrap();
    assert!(down.success());
    let ok = within(30, || next_hops(&ns("leaf01"), "10.255.1.2").len() == 7);
    assert!(ok, "{:?}", next_hops(&ns("leaf01"), "10.255.1.2"));
    drop(frr);
    drop(dp);
}
