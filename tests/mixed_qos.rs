//! QoS on a fabric mixing Onyx and OS10 switches: every QoS key means the same on both
//! (`fabric::fabric::meaning`), so the two ends of one cable schedule, trust and pause alike;
//! where they would not, the cable is E051 at the line that makes them differ.

use std::collections::BTreeMap;

use fabric::compile::Target;
use fabric::diag::{Sources, render};
use fabric::os10::{self, QosKind, TrustKind};
use fabric::types::{Ets, TrafficClass};

/// Validates and compiles a fabric written inline: each switch's compiled target, or the
/// rendered diagnostics.
fn compile(yaml: &str) -> Result<BTreeMap<String, Target>, String> {
    let mut sources = Sources::default();
    let loaded = fabric::fabric::parse_bytes("fabric.yaml", yaml.as_bytes().to_vec(), &mut sources)
        .map_err(|d| render(&[d], &sources, false))?;
    let (f, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let text = render(&diags, &sources, false);
    let f = f.ok_or(text)?;
    Ok(fabric::compile::compile(&f)
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect())
}

fn onyx_of(t: &Target) -> &fabric::onyx::Config {
    t.onyx().expect("an Onyx switch")
}

fn os10_of(t: &Target) -> &os10::Config {
    match t {
        Target::Os10(c) => c,
        Target::Onyx(_) => panic!("an OS10 switch"),
    }
}

/// What an OS10 port's queuing policy gives each queue: `bandwidth percent`, or `None` for
/// `priority` (strict).
fn os10_queues(c: &os10::Config, port: &str) -> BTreeMap<u8, Option<u8>> {
    let iface = c
        .interfaces
        .iter()
        .find(|(k, _)| k.to_string() == port)
        .map(|(_, i)| i)
        .unwrap_or_else(|| panic!("{port}"));
    let name = iface.policy_out.as_ref().expect("a queuing policy");
    let policy = c
        .policy_maps
        .iter()
        .find(|p| p.kind == QosKind::Queuing && &p.name == name)
        .unwrap();
    let mut out = BTreeMap::new();
    for class in &policy.classes {
        let queue = c
            .class_maps
            .iter()
            .find(|m| m.kind == QosKind::Queuing && m.name == class.name)
            .and_then(|m| m.matches)
            .and_then(|r| r.iter().next())
            .unwrap();
        assert!(class.priority != class.bandwidth.is_some(), "{class:?}");
        out.insert(queue, class.bandwidth);
    }
    out
}

const MIXED: &str = "
lldp: true
qos:
  pools:
    roce: { type: lossless, priorities: [3] }
port_defaults:
  mtu: 9216
  trust: L3
  ecn: { 3: { min: 150, max: 1500 } }
  ets: { 3: 50, 6: strict }
switches:
  spine01:
    model: SN2700
  leaf01:
    os: os10
    os10: 10.5.3.2
    model: S5248F-ON
links:
  - { a: spine01:1/1, b: leaf01:ethernet1/1/53 }
";

/// `ets: { 3: 50, 6: strict }` at both ends of an Onyx–OS10 cable is one scheduler: on Onyx
/// the other classes keep their default weights (12 and 13 in turn: the `show dcb ets`
/// capture of Ansible's Onyx fixtures), so OS10 gives every queue the share those weights
/// give its class, queue 6 strict, and puts switch priority N in queue N.
#[test]
fn one_ets_is_one_scheduler_on_both_oses() {
    let compiled = compile(MIXED).unwrap();
    let spine = onyx_of(&compiled["spine01"]);
    let port = &spine.interfaces[&fabric::onyx::Iface::Ethernet("1/1".parse().unwrap())];
    let weight = |tc: &TrafficClass| match port.ets.get(tc) {
        Some(Ets::Wrr(w)) => Some(f64::from(*w)),
        Some(Ets::Strict) => None,
        None => Some(f64::from(12 + tc.get() % 2)),
    };
    let total: f64 = TrafficClass::ALL.iter().filter_map(weight).sum();
    let leaf = os10_of(&compiled["leaf01"]);
    let queues = os10_queues(leaf, "ethernet1/1/53");
    assert_eq!(queues.len(), 8, "every queue is scheduled: {queues:?}");
    for tc in TrafficClass::ALL {
        let os10 = queues[&tc.get()];
        match weight(&tc) {
            None => assert_eq!(os10, None, "TC {tc} strict on both"),
            Some(w) => {
                let share = 100.0 * w / total;
                let p = f64::from(os10.unwrap_or_else(|| panic!("TC {tc} strict on OS10")));
                assert!(
                    (p - share).abs() < 1.0,
                    "TC {tc}: Onyx {share:.1} %, OS10 {p} %"
                );
            }
        }
    }
    let sum: u32 = queues.values().flatten().map(|p| u32::from(*p)).sum();
    assert_eq!(sum, 100);
    assert_eq!(queues[&3], Some(40));
    // Priority N is queue N, as on Onyx (priority N → traffic class N).
    let map = &leaf.qos_maps[0];
    for g in 0u8..8 {
        assert_eq!(map.queues[&g].iter().collect::<Vec<_>>(), [g], "{map:?}");
    }
}

/// `trust` means one thing on both OSes: unset (Onyx's default, L2) trusts PCP on OS10 too
/// (a dot1p map: OS10 trusts nothing without one), `L3` DSCP by Onyx's map, `port` nothing;
/// one switch's ports that trust differently each name their map.
#[test]
fn trust_on_os10_is_trust_on_onyx() {
    let compiled = compile(
        "os: os10\nos10: 10.5.3.2\nswitches:\n  leaf01:\n    model: S5248F-ON\n    ports:\n      ethernet1/1/2: { trust: L3 }\n      ethernet1/1/3: { trust: port }\n  leaf02: { model: S5248F-ON }\n",
    )
    .unwrap();
    let leaf02 = os10_of(&compiled["leaf02"]);
    let system = leaf02.system_qos.as_ref().and_then(|s| s.trust_map.clone());
    assert_eq!(system, Some((TrustKind::Dot1p, "ROCE_TRUST".to_string())));
    assert_eq!(
        leaf02.trust_maps[0].groups[&5].iter().collect::<Vec<_>>(),
        [5]
    );
    let leaf01 = os10_of(&compiled["leaf01"]);
    assert_eq!(leaf01.trust_maps.len(), 2);
    assert!(
        leaf01
            .system_qos
            .as_ref()
            .is_none_or(|s| s.trust_map.is_none())
    );
    let trust = |p: &str| {
        leaf01
            .interfaces
            .iter()
            .find(|(k, _)| k.to_string() == p)
            .and_then(|(_, i)| i.trust_map.clone())
            .map(|(k, _)| k)
    };
    assert_eq!(trust("ethernet1/1/1"), Some(TrustKind::Dot1p));
    assert_eq!(trust("ethernet1/1/2"), Some(TrustKind::Dscp));
    assert_eq!(trust("ethernet1/1/3"), None);
    let dscp = leaf01
        .trust_maps
        .iter()
        .find(|m| m.kind == TrustKind::Dscp)
        .unwrap();
    assert_eq!(
        dscp.groups[&3].iter().collect::<Vec<_>>(),
        (24..32).collect::<Vec<_>>()
    );
}
