//! `fabric verify`: the checks on replies in the shapes of the captures (each problem one
//! finding, with its id, switch and port), and end to end against `fabric lab` after a push
//! (read-only, from the lab's command log): every family clean after a push, each cabling
//! fault one finding.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;
use std::path::{Path, PathBuf};

use fabric::audit::Finding;
use fabric::fabric::{Fabric, Peer};
use fabric::onyx::verify::{command, record};
use fabric::types::{EcnThresholds, Ets, Port};
use fabric::verify::{self, Family, Input, Observed, Query};

use crate::lab_ssh::{assert_read_only, fabric_bin, start_lab_of};
use crate::network::push_lab;
use crate::{root, scratch};

pub(crate) fn load(name: &str) -> Fabric {
    let mut sources = fabric::diag::Sources::default();
    let (f, diags) = fabric::fabric::read(&root().join(name), &mut sources).unwrap();
    f.unwrap_or_else(|| panic!("{}", fabric::diag::render(&diags, &sources, false)))
}

fn port(s: &str) -> Port {
    s.parse().unwrap()
}

type End = (String, Port);

fn end(sw: &str, p: &str) -> End {
    (sw.to_string(), port(p))
}

/// How the simulated switches differ from a healthy fabric.
#[derive(Default)]
struct State {
    /// Ports down (list both ends of a cable, as a real cable is).
    down: BTreeSet<End>,
    /// Ports shut down (and down).
    shut: BTreeSet<End>,
    /// Ports up at another speed (Gb/s).
    speed: BTreeMap<End, u32>,
    /// What LLDP learned on a port instead of its far end (`None`: nothing).
    lldp: BTreeMap<End, Option<(String, String)>>,
    /// A BGP neighbor's state instead of `ESTABLISHED/1` (`None`: no such neighbor).
    bgp: BTreeMap<(String, Ipv4Addr), Option<String>>,
    trust: BTreeMap<End, String>,
    /// Ports whose PFC is not operational.
    pfc_off: BTreeSet<End>,
    /// Ports that mark nothing.
    ecn_off: BTreeSet<End>,
    /// Ports scheduling every class WRR.
    ets_wrr: BTreeSet<End>,
    pool_memory: BTreeMap<String, String>,
    /// Switches whose BGP runs under another AS, or none (`None`: an empty reply).
    bgp_as: BTreeMap<String, Option<u32>>,
    /// `show mlag`'s lines replaced, by switch: (line start, new line).
    mlag: BTreeMap<String, Vec<(String, String)>>,
}

fn switch<'a>(f: &'a Fabric, name: &str) -> &'a fabric::fabric::Switch {
    f.switches
        .iter()
        .find(|(h, _)| h.as_str() == name)
        .map(|(_, s)| s)
        .unwrap()
}

/// A healthy switch's reply to `q`, as the captures lay it out (the files named in
/// `onyx::verify`), with `st`'s differences.
fn reply(f: &Fabric, st: &State, name: &str, q: &Query) -> String {
    let sw = switch(f, name);
    let is_down = |p: Port| {
        let e = (name.to_string(), p);
        st.down.contains(&e) || st.shut.contains(&e)
    };
    let json = |v: serde_json::Value| serde_json::to_string_pretty(&v).unwrap();
    match q {
        Query::Lldp => {
            let mut out = serde_json::Map::new();
            for (p, s) in &sw.ports {
                let seen = match st.lldp.get(&(name.to_string(), *p)) {
                    Some(o) => o.clone(),
                    None => match &s.peer {
                        Some(Peer::Switch { switch, port }) if !is_down(*p) => {
                            Some((switch.to_string(), format!("Eth{port}")))
                        }
                        _ => None,
                    },
                };
                if let Some((n, id)) = seen {
                    out.insert(
                        format!("Eth{p}"),
                        serde_json::json!([{ "Device ID": "98:03:9b:00:00:01", "Port ID": id, "System Name": n }]),
                    );
                }
            }
            // A neighbor on a port the fabric leaves free.
            for ((sw_name, p), seen) in &st.lldp {
                if sw_name == name
                    && !sw.ports.contains_key(p)
                    && let Some((n, id)) = seen
                {
                    out.insert(
                        format!("Eth{p}"),
                        serde_json::json!([{ "Device ID": "x", "Port ID": id, "System Name": n }]),
                    );
                }
            }
            json(serde_json::Value::Object(out))
        }
        Query::Interfaces => {
            let list: Vec<serde_json::Value> = sw
                .ports
                .iter()
                .map(|(p, s)| {
                    let e = (name.to_string(), *p);
                    let native = s.speed.map(|s| s.gbps()).unwrap_or_else(|| {
                        let split = p.sub.and_then(|_| sw.splits.get(&p.parent()).copied());
                        sw.model.native_speed(p.parent(), split).unwrap().gbps()
                    });
                    let speed = st.speed.get(&e).copied().unwrap_or(native);
                    let up = s.peer.is_some() && !is_down(*p);
                    serde_json::json!({
                        "Fec": "auto",
                        "Actual speed": format!("{speed} Gbps"),
                        "header": format!("Eth{p}"),
                        "Admin state": if st.shut.contains(&e) { "Disabled" } else { "Enabled" },
                        "Operational state": if up { "Up" } else { "Down" },
                    })
                })
                .collect();
            json(serde_json::Value::Array(list))
        }
        Query::Pfc => {
            let mut out = serde_json::Map::new();
            for (p, _) in sw.ports.iter().filter(|(_, s)| s.pfc) {
                let off = is_down(*p) || st.pfc_off.contains(&(name.to_string(), *p));
                let oper = if off { "Disabled" } else { "Enabled" };
                out.insert(
                    format!("Eth{p}"),
                    serde_json::json!([{ "PFC admin": "on", "PFC oper": oper }]),
                );
            }
            for ((mlag, id), _) in sw.bundles.iter().filter(|(_, b)| b.pfc) {
                let name = if *mlag {
                    format!("Mpo{id}")
                } else {
                    format!("Po{id}")
                };
                out.insert(
                    name,
                    serde_json::json!([{ "PFC admin": "on", "PFC oper": "Enabled" }]),
                );
            }
            json(serde_json::Value::Object(out))
        }
        Query::Trust(p) => {
            let e = (name.to_string(), *p);
            let t = st
                .trust
                .get(&e)
                .cloned()
                .unwrap_or_else(|| sw.ports[p].trust.unwrap().to_string());
            json(serde_json::json!([{ format!("Eth{p}"): [
                { "Default switch-priority": "0", "Trust mode": t },
                { "PCP(DEI); DSCP to switch-priority mapping": [] }
            ]}]))
        }
        Query::Ecn(p) => {
            let mut list = vec![
                serde_json::json!({ "Interface ethernet": p.to_string(), "ECN marked packets": "0" }),
            ];
            for tc in 0..8u8 {
                let want = sw.ports[p]
                    .ecn
                    .iter()
                    .find(|(c, _)| c.get() == tc)
                    .map(|(_, e)| *e)
                    .filter(|_| !st.ecn_off.contains(&(name.to_string(), *p)));
                list.push(match want {
                    None => serde_json::json!({ "header": format!("TC-{tc}"), "Mode": "none" }),
                    Some(e) => {
                        let (mode, min, max) = match e.thresholds {
                            EcnThresholds::Absolute { min, max } => ("absolute", format!("{min} KB"), format!("{max} KB")),
                            EcnThresholds::Relative { min, max } => ("relative", format!("{min}%"), format!("{max}%")),
                        };
                        serde_json::json!({
                            "Threshold mode": mode, "RED dropped packets": "0", "header": format!("TC-{tc}"),
                            "Mode": e.mode.to_string().to_uppercase(), "Maximum threshold": max, "Minimum threshold": min
                        })
                    }
                });
            }
            json(serde_json::Value::Array(list))
        }
        Query::Ets(p) => {
            let mut per_tc = serde_json::Map::new();
            for tc in 0..8u8 {
                let want = sw.ports[p]
                    .ets
                    .iter()
                    .find(|(c, _)| c.get() == tc)
                    .map(|(_, e)| *e)
                    .filter(|_| !st.ets_wrr.contains(&(name.to_string(), *p)));
                let (mode, w) = match want {
                    Some(Ets::Strict) => ("Strict", 0),
                    Some(Ets::Wrr(w)) => ("WRR", w),
                    None => ("WRR", 12),
                };
                per_tc.insert(
                    tc.to_string(),
                    serde_json::json!([{ "S.Mode": mode, "BW Sh.(Mbps)": "N/A", "W": w.to_string() }]),
                );
            }
            json(serde_json::json!([{ format!("Eth{p}"): [
                { "Multicast unaware mapping": "disabled" },
                { "Flags": [{ "S.Mode": "Scheduling Mode [Strict/WRR]" }] },
                { "ETS per TC": [per_tc] }
            ]}]))
        }
        Query::Pool(pool) => {
            let want = &sw.qos.pools[pool];
            let memory = st
                .pool_memory
                .get(name)
                .cloned()
                .unwrap_or_else(|| want.memory.unwrap().to_string());
            let prios: Vec<String> = want.priorities.iter().map(|p| p.to_string()).collect();
            json(serde_json::json!({
                pool: [{ "Type": want.kind.to_string(), "Switch Priorities": prios.join(", "),
                         "Max Usage": "0", "Usage": "0", "Memory actual": "5.9M", "Memory [%]": memory }],
                "Exception list": { "message": "N/A" }
            }))
        }
        Query::Bgp => {
            let r = sw.routing.as_ref().unwrap();
            let asn = match st.bgp_as.get(name) {
                Some(None) => return String::new(),
                Some(Some(n)) => *n,
                None => r.asn,
            };
            let mut out = format!(
                "\nVRF name                  : default\nBGP router identifier     : {}\nlocal AS number           : {}\nBGP table version         : 9\nMain routing table version: 9\nIPV4 Prefixes             : 9\nIPV6 Prefixes             : 0\nL2VPN EVPN Prefixes       : 0\n\n{rule}\nNeighbor          V    AS           MsgRcvd   MsgSent   TblVer    InQ    OutQ   Up/Down       State/PfxRcd\n{rule}\n",
                r.router_id,
                asn,
                rule = "-".repeat(114)
            );
            for (addr, n) in &r.neighbors {
                let state = match st.bgp.get(&(name.to_string(), *addr)) {
                    Some(None) => continue,
                    Some(Some(s)) => s.clone(),
                    None => "ESTABLISHED/1".into(),
                };
                out.push_str(&format!(
                    "{:<18}{:<5}{:<13}{:<10}{:<10}{:<10}{:<7}{:<7}{:<14}{state}\n",
                    addr.to_string(),
                    4,
                    n.asn,
                    30,
                    30,
                    9,
                    0,
                    0,
                    "0:01:00:00"
                ));
            }
            out
        }
        Query::Mlag => {
            let m = sw.mlag.as_ref().unwrap();
            let rule = "-".repeat(161);
            let mut text = format!(
                "Admin status: Enabled\nOperational status: Up\nReload-delay: 30 sec\nKeepalive-interval: 1 sec\nUpgrade-timeout: 60 min\nSystem-mac: {}\n\nMLAG Ports Configuration Summary:\n Configured: 8\n Disabled:   0\n Enabled:    8\n\nMLAG Ports Status Summary:\n Inactive:       0\n Active-partial: 0\n Active-full:    8\n\nMLAG IPLs Summary:\n{rule}\nID   Group         Vlan       Operational  Local                                    Peer                                     Up Time              Toggle Counter\n     Port-Channel  Interface  State        IP address                               IP address\n{rule}\n1    Po{:<12}{:<11}Up           {:<41}{:<41}19 days, 18:25:56    1\n\nMLAG Members Summary:\n",
                m.system_mac,
                m.ipl_port_channel,
                m.ipl_vlan,
                m.address.unwrap().addr,
                m.peer_address
            );
            for (start, new) in st.mlag.get(name).into_iter().flatten() {
                text = text
                    .lines()
                    .map(|l| {
                        if l.starts_with(start.as_str()) {
                            new.as_str()
                        } else {
                            l
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
                    + "\n";
            }
            text
        }
        Query::Route(_) => panic!("`{}` is asked by `--paths` only", command(q)),
        Query::Counters => panic!("the counters are asked by `--counters` only"),
    }
}

/// Every check on every switch of the fabric, replies as `reply` prints them.
fn check(f: &Fabric, st: &State) -> Vec<Finding> {
    let families: BTreeSet<Family> = Family::ALL.into_iter().collect();
    let observed = f
        .switches
        .iter()
        .map(|(name, sw)| {
            let mut obs = Observed::default();
            for q in verify::plan(sw, &families).queries {
                let text = reply(f, st, name.as_str(), &q);
                record(&mut obs, &q, &text)
                    .unwrap_or_else(|e| panic!("{name} `{}`: {e}\n{text}", command(&q)));
            }
            (name.to_string(), obs)
        })
        .collect();
    verify::verify(&Input {
        fabric: f,
        families,
        observed,
    })
}

/// The findings as `(rule, switch, interfaces)`.
fn ids(findings: &[Finding]) -> Vec<(&str, &str, Option<&str>)> {
    findings
        .iter()
        .map(|f| (f.rule, f.switch.as_str(), f.interfaces.as_deref()))
        .collect()
}

/// The one finding `st` gives, with its rule, switch and interfaces: its message.
fn one(f: &Fabric, st: &State, want: (&str, &str, Option<&str>)) -> String {
    let found = check(f, st);
    assert_eq!(ids(&found), [want], "{found:#?}");
    found[0].message.clone()
}

fn addr(s: &str) -> Ipv4Addr {
    s.parse().unwrap()
}

/// The routed leaf-spine: healthy, then one problem at a time, each exactly one finding with
/// its id, switch and port, whatever else follows from it (the BGP session across a cable
/// down or crossed, PFC on a port down, LLDP on a port down).
#[test]
fn each_problem_of_the_routed_fabric_is_one_finding() {
    let f = load("fabrics/ml-cluster.yaml");
    assert_eq!(check(&f, &State::default()), vec![]);
    let down = |sw: &str, n: &str| ((sw.to_string(), addr(n)), Some("ACTIVE".to_string()));

    // A cable broken: both ends down, its session down at both.
    let st = State {
        down: [end("leaf01", "1/25"), end("spine01", "1/1")].into(),
        bgp: [
            down("leaf01", "10.254.0.192"),
            down("spine01", "10.254.0.193"),
        ]
        .into(),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V003", "leaf01", Some("ethernet 1/25"))),
        "ethernet 1/25: down (admin Enabled, operational Down); the other end, spine01 1/1: admin Enabled, operational Down"
    );

    // Shut down at one end: found there, the cause.
    let st = State {
        shut: [end("spine01", "1/1")].into(),
        down: [end("leaf01", "1/25")].into(),
        bgp: [
            down("leaf01", "10.254.0.192"),
            down("spine01", "10.254.0.193"),
        ]
        .into(),
        ..State::default()
    };
    let message = one(&f, &st, ("V003", "spine01", Some("ethernet 1/1")));
    assert!(
        message.contains("(shut down, operational Down)"),
        "{message}"
    );

    // Two cables crossed at leaf01: LLDP at all four ends, two sessions down at both ends.
    let sees =
        |sw: &str, p: &str, n: &str, q: &str| (end(sw, p), Some((n.to_string(), q.to_string())));
    let st = State {
        lldp: [
            sees("leaf01", "1/25", "spine01", "Eth1/2"),
            sees("leaf01", "1/26", "spine01", "Eth1/1"),
            sees("spine01", "1/1", "leaf01", "Eth1/26"),
            sees("spine01", "1/2", "leaf01", "Eth1/25"),
        ]
        .into(),
        bgp: [
            down("leaf01", "10.254.0.192"),
            down("leaf01", "10.254.0.200"),
            down("spine01", "10.254.0.193"),
            down("spine01", "10.254.0.201"),
        ]
        .into(),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V001", "leaf01", Some("ethernet 1/25"))),
        "ethernet 1/25: cabled otherwise than the fabric says: leaf01 1/25 sees spine01 Eth1/2 (the fabric: spine01 1/1); leaf01 1/26 sees spine01 Eth1/1 (the fabric: spine01 1/2); spine01 1/1 sees leaf01 Eth1/26 (the fabric: leaf01 1/25); spine01 1/2 sees leaf01 Eth1/25 (the fabric: leaf01 1/26)"
    );

    // A cable moved to a port the fabric leaves free: the port it left is down, its session
    // too; one finding.
    let st = State {
        lldp: [
            sees("leaf01", "1/25", "spine01", "Eth1/17"),
            sees("spine01", "1/17", "leaf01", "Eth1/25"),
        ]
        .into(),
        down: [end("spine01", "1/1")].into(),
        bgp: [
            down("leaf01", "10.254.0.192"),
            down("spine01", "10.254.0.193"),
        ]
        .into(),
        ..State::default()
    };
    let message = one(&f, &st, ("V001", "leaf01", Some("ethernet 1/25")));
    assert!(
        message.contains("spine01 1/17 sees leaf01 Eth1/25 (the fabric: nothing)"),
        "{message}"
    );

    // A neighbor LLDP names otherwise: the cabling finding alone (its session is up).
    let st = State {
        lldp: [sees("leaf01", "1/25", "spine09", "Eth1/1")].into(),
        ..State::default()
    };
    one(&f, &st, ("V001", "leaf01", Some("ethernet 1/25")));

    // A BGP neighbor missing at one end: found there; the other end's session follows.
    let st = State {
        bgp: [
            ((String::from("spine01"), addr("10.254.0.193")), None),
            down("leaf01", "10.254.0.192"),
        ]
        .into(),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V011", "spine01", Some("ethernet 1/1"))),
        "ethernet 1/1: no BGP neighbor 10.254.0.193 (the session to leaf01 (10.254.0.193)); leaf01's is ACTIVE"
    );

    // A session down with its link up.
    let st = State {
        bgp: [
            down("leaf01", "10.254.0.192"),
            (
                ("spine01".into(), addr("10.254.0.193")),
                Some("IDLE".into()),
            ),
        ]
        .into(),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V010", "leaf01", Some("ethernet 1/25"))),
        "ethernet 1/25: the session to spine01 (10.254.0.192) is ACTIVE; spine01's is IDLE"
    );

    // A link at half its speed: one finding for the cable.
    let st = State {
        speed: [(end("leaf01", "1/25"), 100), (end("spine01", "1/1"), 100)].into(),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V004", "leaf01", Some("ethernet 1/25"))),
        "ethernet 1/25: up at another speed than the fabric's 200G: leaf01 1/25 at 100 Gbps, spine01 1/1 at 100 Gbps"
    );

    // LLDP silent on an up link: a warning for the cable.
    let st = State {
        lldp: [(end("leaf01", "1/30"), None), (end("spine02", "1/2"), None)].into(),
        ..State::default()
    };
    one(&f, &st, ("V002", "leaf01", Some("ethernet 1/30")));

    // Trust on four consecutive host ports: one finding over their range.
    let st = State {
        trust: ["1/1/1", "1/1/2", "1/1/3", "1/1/4"]
            .iter()
            .map(|p| (end("leaf03", p), "L2".to_string()))
            .collect(),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V006", "leaf03", Some("ethernet 1/1/1-1/1/4"))),
        "ethernet 1/1/1-1/1/4: trust L2, the fabric says L3"
    );

    // PFC not operational, ECN and ETS not the fabric's, on one port each.
    let st = State {
        pfc_off: [end("leaf02", "1/27")].into(),
        ecn_off: [end("leaf02", "1/28")].into(),
        ets_wrr: [end("leaf02", "1/29")].into(),
        ..State::default()
    };
    let found = check(&f, &st);
    assert_eq!(
        ids(&found),
        [
            ("V005", "leaf02", Some("ethernet 1/27")),
            ("V007", "leaf02", Some("ethernet 1/28")),
            ("V008", "leaf02", Some("ethernet 1/29")),
        ]
    );
    assert_eq!(
        found.iter().map(|f| f.message.as_str()).collect::<Vec<_>>(),
        [
            "ethernet 1/27: in PFC mode, but `PFC oper` is Disabled (`PFC admin` on)",
            "ethernet 1/28: traffic class 3: no marking, the fabric says ecn minimum-absolute 150 maximum-absolute 1500",
            "ethernet 1/29: traffic class 3: wrr 12, the fabric says wrr 50; traffic class 6: wrr 12, the fabric says strict",
        ]
    );

    // A switch's BGP under another AS, or none: one finding, not one per session (its
    // neighbors refuse it, or find no one).
    let spines_to = |leaf: &str, state: &str| -> BTreeMap<(String, Ipv4Addr), Option<String>> {
        ["spine01", "spine02"]
            .iter()
            .flat_map(|s| {
                let r = switch(&f, s).routing.as_ref().unwrap();
                r.neighbors
                    .iter()
                    .filter(|(_, n)| n.link.as_ref().is_some_and(|(far, _)| far.as_str() == leaf))
                    .map(|(a, _)| ((s.to_string(), *a), Some(state.to_string())))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let st = State {
        bgp_as: [("leaf04".to_string(), Some(65199))].into(),
        bgp: spines_to("leaf04", "IDLE"),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V012", "leaf04", None)),
        "BGP runs under AS 65199, the fabric says 65104"
    );
    let st = State {
        bgp_as: [("leaf03".to_string(), None)].into(),
        bgp: spines_to("leaf03", "ACTIVE"),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V011", "leaf03", None)),
        "no BGP instance: none of its 8 session(s) can come up"
    );

    // A pool's memory.
    let st = State {
        pool_memory: [("spine02".to_string(), "30.00".to_string())].into(),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V009", "spine02", None)),
        "buffer pool `roce`: memory 30.00%, the fabric says 50.00%"
    );
}

/// The MLAG pair: healthy; a half that expects another peer address (both halves down: one
/// finding for the pair); a member link down on one switch (its MLAG port-channel partial:
/// the link's finding alone).
#[test]
fn an_mlag_pair_is_judged_from_both_halves_once() {
    let f = load("fabrics/vsphere-mlag.yaml");
    assert_eq!(check(&f, &State::default()), vec![]);
    let st = State {
        mlag: [
            (
                "tor-a".to_string(),
                vec![
                    ("Operational status".into(), "Operational status: Down".into()),
                    ("1    Po100".into(), "1    Po100         4000       Down         10.254.255.1                             10.254.255.2                             N/A                  1".into()),
                ],
            ),
            (
                "tor-b".to_string(),
                vec![
                    ("Operational status".into(), "Operational status: Down".into()),
                    ("1    Po100".into(), "1    Po100         4000       Down         10.254.255.2                             10.254.255.3                             N/A                  1".into()),
                ],
            ),
        ]
        .into(),
        ..State::default()
    };
    assert_eq!(
        one(&f, &st, ("V013", "tor-a", None)),
        "the MLAG pair is not healthy: tor-a: peer link Down, Operational status: Down; tor-b: peer address 10.254.255.3, the fabric says 10.254.255.1, peer link Down, Operational status: Down"
    );

    let partial = vec![(
        " Active-partial".to_string(),
        " Active-partial: 1".to_string(),
    )];
    let st = State {
        down: [end("tor-b", "1/2")].into(),
        mlag: [
            ("tor-a".to_string(), partial.clone()),
            ("tor-b".to_string(), partial.clone()),
        ]
        .into(),
        ..State::default()
    };
    one(&f, &st, ("V003", "tor-b", Some("ethernet 1/2")));
    // The same, its member link up: the MLAG port-channel's finding.
    let st = State {
        mlag: [
            ("tor-a".to_string(), partial.clone()),
            ("tor-b".to_string(), partial),
        ]
        .into(),
        ..State::default()
    };
    one(&f, &st, ("V014", "tor-a", None));
}

/// What is read from one switch only (`--switch`): a cable or a session is judged from the
/// end that was read.
#[test]
fn one_switch_alone_is_judged_from_its_own_ends() {
    let f = load("fabrics/ml-cluster.yaml");
    let families: BTreeSet<Family> = Family::ALL.into_iter().collect();
    let st = State {
        down: [end("spine01", "1/1")].into(),
        bgp: [(
            ("spine01".to_string(), addr("10.254.0.193")),
            Some("ACTIVE".into()),
        )]
        .into(),
        ..State::default()
    };
    let sw = switch(&f, "spine01");
    let mut obs = Observed::default();
    for q in verify::plan(sw, &families).queries {
        record(&mut obs, &q, &reply(&f, &st, "spine01", &q)).unwrap();
    }
    let found = verify::verify(&Input {
        fabric: &f,
        families,
        observed: [("spine01".to_string(), obs)].into(),
    });
    assert_eq!(ids(&found), [("V003", "spine01", Some("ethernet 1/1"))]);
    assert_eq!(
        found[0].message,
        "ethernet 1/1: down (admin Enabled, operational Down); cabled to leaf01 1/25"
    );
}

/// A reply that does not read leaves nothing behind: the state it would have given is not
/// assumed, and the checks that needed it are not made.
#[test]
fn a_reply_that_does_not_read_is_not_a_state() {
    let mut obs = Observed::default();
    let e = record(&mut obs, &Query::Lldp, "% Unrecognized command \"lldp\".\n").unwrap_err();
    assert_eq!(e, "the switch answered `% Unrecognized command \"lldp\".`");
    let e = record(&mut obs, &Query::Interfaces, "[{\"header\": \"Eth1/1\",").unwrap_err();
    assert!(e.starts_with("not JSON (EOF while parsing"), "{e}");
    assert_eq!(obs, Observed::default());
}

// End to end, through a `fabric lab` process and the real binary.

/// `fabric verify FABRIC --inventory` against a running `fabric lab`: its exit code and
/// output, the commands it sent each switch (from the switches' logs).
pub(crate) fn verify_lab(
    fabric: &Path,
    state: &Path,
    extra: &[&str],
) -> (i32, String, BTreeMap<String, Vec<String>>) {
    let logs = |state: &Path| -> BTreeMap<String, usize> {
        std::fs::read_dir(state)
            .unwrap()
            .flatten()
            .filter(|e| e.path().join("commands.log").exists())
            .map(|e| {
                let log = std::fs::read_to_string(e.path().join("commands.log")).unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    log.lines().count(),
                )
            })
            .collect()
    };
    let before = logs(state);
    let (code, out) = crate::run(
        fabric_bin()
            .current_dir(state)
            .arg("verify")
            .arg(fabric)
            .arg("--inventory")
            .arg(state.join("inventory.yaml"))
            .args(extra)
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    );
    let sent = before
        .keys()
        .map(|name| {
            let log = std::fs::read_to_string(state.join(name).join("commands.log")).unwrap();
            let new: Vec<String> = log.lines().skip(before[name]).map(str::to_string).collect();
            (name.clone(), new)
        })
        .collect();
    (code, out, sent)
}

/// The lab running the routed fabric, pushed.
fn pushed_lab(name: &str) -> (crate::lab_ssh::Killed, PathBuf, PathBuf) {
    let state = scratch(name);
    let fabric = root().join("fabrics/ml-cluster.yaml");
    let (lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    let (code, out) = push_lab(&fabric, &state, &["--allow-disruptive"]);
    assert_eq!(code, 0, "{out}");
    (lab, state, fabric)
}

/// Configures one switch of a running lab by hand, one line, and logs out.
fn by_hand(state: &Path, switch: &str, line: &str) {
    let mut shells = crate::network::shells(state);
    let sh = shells.get_mut(switch).unwrap();
    sh.send("configure terminal").unwrap();
    assert_eq!(sh.send(line).unwrap(), "\n", "{line}");
}

/// The finding lines of a text report.
pub(crate) fn finding_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("  error ") || l.starts_with("  warning "))
        .collect()
}

/// After a push of the routed fabric to `fabric lab`, its BGP (what the lab prints today)
/// verifies clean, reading only; a cable broken by a fault is one finding (the session
/// across it, at its first end: the link itself is `V003` once the lab prints `show
/// interfaces ethernet`), and so is a neighbor removed by hand (at the switch without it).
#[test]
fn verify_after_a_push_is_clean_and_each_fault_is_one_finding() {
    let (_lab, state, fabric) = pushed_lab("verify-lab");
    let (code, out, sent) = verify_lab(&fabric, &state, &["--check", "bgp,mlag"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("6 switch(es) verified (bgp, mlag): 0 finding(s), 0 reply(ies) not read"),
        "{out}"
    );
    assert_eq!(sent.len(), 6);
    for (name, lines) in &sent {
        assert!(
            lines.iter().any(|l| l.ends_with("\tshow ip bgp summary")),
            "{name}: {lines:?}"
        );
        assert_read_only(lines.iter().map(String::as_str));
    }

    // A cable broken (leaf01's faults): the session across it, once.
    let faults = state.join("leaf01/faults.yaml");
    std::fs::write(&faults, "cabling: { down: [\"1/25\"] }\n").unwrap();
    let (code, out, _) = verify_lab(&fabric, &state, &["--check", "bgp"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        finding_lines(&out),
        [
            "  error V010 (bgp-session-down): ethernet 1/25: the session to spine01 (10.254.0.192) is ACTIVE; spine01's is ACTIVE"
        ]
    );
    std::fs::remove_file(&faults).unwrap();

    // A neighbor removed by hand on spine01: found there, once.
    by_hand(
        &state,
        "spine01",
        "router bgp 65000 vrf default no neighbor 10.254.0.193",
    );
    let (code, out, _) = verify_lab(&fabric, &state, &["--check", "bgp", "--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found = v["findings"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{out}");
    assert_eq!(found[0]["rule"], "V011");
    assert_eq!(found[0]["switch"], "spine01");
    assert_eq!(found[0]["interfaces"], "ethernet 1/1");

    // `push --verify-state`: the push puts the neighbor back and verifies: clean.
    let (code, out) = push_lab(&fabric, &state, &["--verify-state=bgp"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("spine01  converged"), "{out}");
    assert!(
        out.contains("6 switch(es) verified (bgp): 0 finding(s)"),
        "{out}"
    );
    // Nothing to push, but a cable broken: the push succeeds, its verification does not.
    std::fs::write(&faults, "cabling: { down: [\"1/29\"] }\n").unwrap();
    let (code, out) = push_lab(&fabric, &state, &["--verify-state=bgp"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        finding_lines(&out),
        [
            "  error V010 (bgp-session-down): ethernet 1/29: the session to spine02 (10.254.0.224) is ACTIVE; spine02's is ACTIVE"
        ]
    );
}

/// The MLAG pair pushed to the lab verifies healthy (`show mlag`, which the lab prints); a
/// half that expects another peer address takes the pair down at both halves: one finding.
#[test]
fn an_mlag_pair_pushed_to_the_lab_verifies_and_one_wrong_half_is_one_finding() {
    let state = scratch("verify-mlag");
    let fabric = root().join("fabrics/vsphere-mlag.yaml");
    let (_lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    let (code, out) = push_lab(
        &fabric,
        &state,
        &["--allow-disruptive", "--verify-state=mlag"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 switch(es) verified (mlag): 0 finding(s), 0 reply(ies) not read"),
        "{out}"
    );

    by_hand(
        &state,
        "tor-b",
        "interface vlan 4000 ipl 1 peer-address 10.254.255.3",
    );
    let (code, out, sent) = verify_lab(&fabric, &state, &["--check", "mlag"]);
    assert_eq!(code, 1, "{out}");
    assert_eq!(
        finding_lines(&out),
        [
            "  error V013 (mlag-down): the MLAG pair is not healthy: tor-a: peer link Down, Operational status: Down; tor-b: peer address 10.254.255.3, the fabric says 10.254.255.1, peer link Down, Operational status: Down"
        ]
    );
    for lines in sent.values() {
        assert_read_only(lines.iter().map(String::as_str));
    }
}

/// A reply that is not what the command prints is never a clean verdict: a switch's error
/// line (a refusal injected by the lab's faults) or a reply cut short is named with its
/// switch and command, exit 2, and the other checks still run.
#[test]
fn a_reply_refused_or_cut_short_is_an_error_not_a_clean_verdict() {
    let (_lab, state, fabric) = pushed_lab("verify-refused");
    std::fs::write(
        state.join("leaf01/faults.yaml"),
        "refuse: [{ match: \"show lldp remote\", error: \"% Internal error\" }]\ntruncate: { match: \"show ip bgp summary\", lines: 6 }\n",
    )
    .unwrap();
    let (code, out, _) = verify_lab(
        &fabric,
        &state,
        &["--check", "cabling,bgp", "--switch", "leaf01"],
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(
            "  leaf01: `show lldp remote | json-print`: the switch answered `% Internal error`\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "  leaf01: `show ip bgp summary`: the default VRF's block has no table of neighbors"
        ),
        "{out}"
    );
    assert!(
        out.contains("1 switch(es) verified (cabling, bgp): 0 finding(s), 2 reply(ies) not read"),
        "{out}"
    );
}

/// Every check, end to end, after a push: clean. Waits for the lab's operational show
/// commands (`show lldp remote`, `show interfaces ethernet`, `show dcb priority-flow-control`,
/// `show qos interface`, `show dcb ets interface`, `show interfaces ethernet X
/// congestion-control`, `show traffic pool`, in the captures' JSON).
#[test]
fn every_check_is_clean_after_a_push() {
    let (_lab, state, fabric) = pushed_lab("verify-all");
    let (code, out, sent) = verify_lab(&fabric, &state, &[]);
    assert_eq!(code, 0, "{out}");
    for lines in sent.values() {
        assert_read_only(lines.iter().map(String::as_str));
    }
}

/// A cable broken, two crossed and a neighbor renamed, end to end with every check: each
/// exactly one finding. Waits for the lab's `show lldp remote` and `show interfaces
/// ethernet`.
#[test]
fn each_cabling_fault_is_one_finding_end_to_end() {
    let (_lab, state, fabric) = pushed_lab("verify-cabling");
    let faults = state.join("leaf01/faults.yaml");
    for (fault, want) in [
        (
            "cabling: { down: [\"1/25\"] }\n",
            "  error V003 (link-down): ethernet 1/25: ",
        ),
        (
            "cabling: { swap: [[\"1/25\", \"1/26\"]] }\n",
            "  error V001 (cabling-mismatch): ethernet 1/25: ",
        ),
        (
            "cabling: { neighbor: { \"1/25\": { host: spine09 } } }\n",
            "  error V001 (cabling-mismatch): ethernet 1/25: ",
        ),
    ] {
        std::fs::write(&faults, fault).unwrap();
        let (code, out, _) = verify_lab(&fabric, &state, &[]);
        assert_eq!(code, 1, "{fault}{out}");
        let lines = finding_lines(&out);
        assert_eq!(lines.len(), 1, "{fault}{out}");
        assert!(lines[0].starts_with(want), "{fault}{out}");
        assert!(out.contains("\nleaf01\n"), "{out}");
    }
}
