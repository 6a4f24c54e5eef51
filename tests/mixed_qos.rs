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
    t.as_any().downcast_ref().expect("an Onyx switch")
}

fn os10_of(t: &Target) -> &os10::Config {
    t.as_any().downcast_ref().expect("an OS10 switch")
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

/// The lossless recipe written out by hand, as `docs/format.md` documents the preset (the
/// pool without `memory`, which OS10 does not take).
const WRITTEN: &str = "qos:
  pools:
    roce: { type: lossless, priorities: [3] }
  pfc: { priorities: [3] }
  dscp: { roce: 26, cnp: 48 }
port_defaults:
  mtu: 9216
  trust: L3
  pfc: true
  ecn:
    3: { min: 150, max: 1500 }
  ets:
    3: 50
    6: strict
";

const SWITCHES: &str = "stp: on
switches:
  spine01: { model: SN2700 }
  leaf01: { os: os10, os10: 10.5.3.2, model: S5248F-ON }
links:
  - { a: spine01:1/1, b: leaf01:ethernet1/1/53 }
";

/// `qos.preset: roce-lossless` once at the top makes a mixed fabric lossless: it validates (the
/// cable's ends agree), the OS10 leaf gets the recipe as it would written out (PFC on 3, DSCP
/// trust, ECN on queue 3, queue 3 40 %, queue 6 strict), and the Onyx spine NVIDIA's lines.
#[test]
fn the_preset_makes_a_mixed_fabric_lossless_in_one_line() {
    let preset = compile(&format!(
        "qos: {{ preset: roce-lossless }}\nport_defaults: {{ mtu: 9216 }}\n{SWITCHES}"
    ))
    .unwrap();
    let written = compile(&format!("{WRITTEN}{SWITCHES}")).unwrap();
    assert_eq!(os10_of(&preset["leaf01"]), os10_of(&written["leaf01"]));
    let leaf = os10_of(&preset["leaf01"]);
    let queues = os10_queues(leaf, "ethernet1/1/53");
    assert_eq!(queues[&3], Some(40));
    assert_eq!(queues[&6], None);
    assert!(leaf.dcbx);
    let pfc = leaf
        .policy_maps
        .iter()
        .find(|p| p.kind == QosKind::NetworkQos)
        .unwrap();
    assert_eq!(
        pfc.classes[0].pfc_cos.map(|r| r.iter().collect::<Vec<_>>()),
        Some(vec![3])
    );
    let system = leaf.system_qos.as_ref().and_then(|s| s.trust_map.clone());
    assert_eq!(system.map(|t| t.0), Some(TrustKind::Dscp));
    let port = leaf
        .interfaces
        .iter()
        .find(|(k, _)| k.to_string() == "ethernet1/1/53")
        .unwrap()
        .1;
    assert!(port.pfc && port.ets && port.flowcontrol_rx == Some(false));
    // The Onyx spine: the recipe with its pool of 50 %.
    let spine = onyx_of(&preset["spine01"]);
    assert_eq!(spine.pools["roce"].memory.unwrap().hundredths(), 5000);
    assert!(spine.pfc.enabled);
}

/// A switch clears the fabric's preset with `qos: { preset: null }`, with an empty `qos:`, or
/// with a `qos` of its own that does not write it; the others keep it.
#[test]
fn a_switch_clears_the_fabric_preset() {
    for own in ["qos: { preset: null }", "qos:"] {
        let yaml = format!(
            "stp: on\nqos: {{ preset: roce-lossless }}\nswitches:\n  spine01: {{ model: SN2700 }}\n  bmc01:\n    os: os10\n    model: S3048-ON\n    {own}\n"
        );
        let compiled = compile(&yaml).unwrap_or_else(|e| panic!("{own}:\n{e}"));
        let bmc = os10_of(&compiled["bmc01"]);
        assert!(bmc.policy_maps.is_empty() && !bmc.dcbx, "{own}: {bmc:?}");
        assert!(onyx_of(&compiled["spine01"]).pfc.enabled, "{own}");
    }
}

/// A switch's `qos` keys replace the fabric's one by one, the preset kept: PFC turned off
/// under one switch is E038 at that line, the one error of that mistake; a DSCP written there
/// replaces the preset's.
#[test]
fn a_switch_qos_key_replaces_one_key_of_the_fabric_preset() {
    let yaml = |own: &str| {
        format!(
            "qos: {{ preset: roce-lossless }}\nstp: on\nswitches:\n  leaf01:\n    model: SN2700\n    {own}\n  leaf02: {{ model: SN2700 }}\nlinks:\n  - {{ a: leaf01:1/31, b: leaf02:1/31 }}\n"
        )
    };
    let err = compile(&yaml("qos: { pfc: false }")).unwrap_err();
    assert_eq!(err.matches("error[").count(), 1, "{err}");
    assert!(
        err.starts_with("error[E038]") && err.contains("--> fabric.yaml:6:17"),
        "{err}"
    );
    assert!(err.contains("note: this line also causes E051"), "{err}");
    let compiled = compile(&yaml("qos: { dscp: { roce: 26, cnp: 48 } }")).unwrap();
    let leaf = onyx_of(&compiled["leaf01"]);
    assert!(leaf.pfc.enabled && !leaf.pools.is_empty(), "{leaf:?}");
}

/// Where an OS10 model or release cannot run the recipe, the preset's line says so, per
/// switch: S3048-ON (UNCONFIRMED, `os10::models::NO_ROCE_QOS`), OS10 before 10.3.
#[test]
fn the_preset_says_per_switch_where_os10_cannot_run_it() {
    for (switch, why) in [
        ("{ os: os10, model: S3048-ON }", "it is an S3048-ON"),
        (
            "{ os: os10, os10: 10.2.0.0, model: S5248F-ON }",
            "it is OS10 10.2.0.0",
        ),
    ] {
        let err = compile(&format!(
            "qos:\n  preset: roce-lossless\nswitches:\n  sw01: {switch}\n"
        ))
        .unwrap_err();
        assert!(err.contains("error[E034]"), "{err}");
        assert!(
            err.contains("OS10 switch `sw01`") && err.contains(why),
            "{err}"
        );
        assert!(err.contains("--> fabric.yaml:2:11"), "{err}");
    }
}

/// The mixed fabric made lossless by the preset converges on the lab, over SSH, and a second
/// push changes nothing.
#[test]
fn a_mixed_fabric_with_the_preset_converges_on_the_lab() {
    let dir = crate::scratch("mixed-qos-preset-lab");
    let text = std::fs::read_to_string(crate::shared().join("os10/lab/mixed-preset.yaml")).unwrap();
    std::fs::write(dir.join("mixed.yaml"), text).unwrap();
    let push = || {
        crate::run(
            std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
                .current_dir(&dir)
                .args(["push", "mixed.yaml", "--lab", "--yes"])
                .env_remove("FABRIC_PASSWORD")
                .env_remove("SSH_AUTH_SOCK"),
        )
    };
    let (code, out) = push();
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01   converged") && out.contains("spine01  converged"),
        "{out}"
    );
    let leaf = crate::push::log_of(&dir, "leaf01");
    for line in [
        "pfc-cos 3",
        "bandwidth percent 40",
        "trust-map dscp ROCE_TRUST",
    ] {
        assert!(leaf.iter().any(|l| l == line), "{line}: {leaf:?}");
    }
    let spine = crate::push::log_of(&dir, "spine01");
    assert!(
        spine
            .iter()
            .any(|l| l.contains("traffic-class 3 dcb ets wrr 50")),
        "{spine:?}"
    );
    let (code, out) = push();
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01: no change") && out.contains("spine01: no change"),
        "{out}"
    );
}

/// `docs/format.md`'s QoS keys' table is `fabric::meaning::QOS_KEYS` (rewritten with
/// `FABRIC_UPDATE_DOCS=1`).
#[test]
fn the_qos_keys_table_in_the_docs_is_current() {
    let path = crate::root().join("docs/format.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let start = doc.find("<!-- qos-keys:").unwrap();
    let start = start + doc[start..].find('\n').unwrap() + 1;
    let end = doc.find("<!-- end of qos keys -->").unwrap();
    let table = fabric::fabric::meaning::markdown();
    if std::env::var_os("FABRIC_UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{table}{}", &doc[..start], &doc[end..])).unwrap();
    } else {
        assert_eq!(
            doc[start..end],
            table,
            "docs/format.md is stale: FABRIC_UPDATE_DOCS=1 cargo test --test suite mixed_qos::"
        );
    }
}
