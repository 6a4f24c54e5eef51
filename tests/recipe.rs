//! The lossless RoCE recipe: PFC complete by default (global on the lossless priorities, PFC
//! mode on every port), its opt-outs, the `roce-lossless` preset against the recipe written
//! out, the model ↔ release gate, and the explain texts of their diagnostics.

use std::collections::BTreeMap;

use fabric::diag::{Diagnostic, Sources, render};
use fabric::onyx::{Config, Iface};
use fabric::types::{Ets, Model, Release};

/// Validates and compiles a fabric written inline: every switch's config, or the rendered
/// diagnostics when it does not validate. Also the diagnostics of a valid one.
fn compile(yaml: &str) -> (Option<BTreeMap<String, Config>>, Vec<Diagnostic>, String) {
    let mut sources = Sources::default();
    let loaded = fabric::fabric::parse_bytes("fabric.yaml", yaml.as_bytes().to_vec(), &mut sources)
        .map_err(|d| render(&[d], &sources, false))
        .expect("the YAML reads");
    let (f, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let text = render(&diags, &sources, false);
    let configs = f.map(|f| {
        fabric::onyx::compile::fabric(&f)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    });
    (configs, diags, text)
}

fn one(yaml: &str) -> Config {
    let (c, _, text) = compile(yaml);
    c.expect(&text).into_values().next().expect("one switch")
}

fn render_cli(c: &Config) -> String {
    fabric::onyx::Renderer::embedded()
        .unwrap()
        .render(c)
        .unwrap()
}

fn codes(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.code).collect()
}

/// Ethernet ports in PFC mode.
fn pfc_ports(c: &Config) -> usize {
    c.interfaces
        .iter()
        .filter(|(k, i)| matches!(k, Iface::Ethernet(_)) && i.pfc)
        .count()
}

const POOL: &str = "qos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n";

#[test]
fn a_lossless_pool_without_qos_pfc_compiles_global_and_per_port_pfc() {
    let c = one(&format!("{POOL}switches:\n  sw: {{ model: SN2700 }}\n"));
    assert!(c.pfc.enabled);
    assert_eq!(
        c.pfc.priorities.iter().map(|p| p.get()).collect::<Vec<_>>(),
        [3]
    );
    assert_eq!(pfc_ports(&c), 32, "every port of the SN2700 in PFC mode");
    let text = render_cli(&c);
    for line in [
        "   dcb priority-flow-control enable force\n",
        "   dcb priority-flow-control priority 3 enable\n",
        "   interface ethernet 1/1-1/32 dcb priority-flow-control mode on force\n",
    ] {
        assert!(text.contains(line), "{line}missing from\n{text}");
    }
    // `qos.pfc: true` and `on` say the default out loud: the same switch.
    for said in ["true", "on"] {
        let d = one(&format!(
            "{POOL}  pfc: {said}\nswitches:\n  sw: {{ model: SN2700 }}\n"
        ));
        assert_eq!(d, c, "pfc: {said}");
    }
}

#[test]
fn the_opt_outs_give_no_pfc() {
    for off in ["false", "off"] {
        let c = one(&format!(
            "{POOL}  pfc: {off}\nswitches:\n  sw: {{ model: SN2700 }}\n"
        ));
        assert!(!c.pfc.enabled && c.pfc.priorities.is_empty(), "pfc: {off}");
        assert_eq!(pfc_ports(&c), 0, "pfc: {off}");
        assert!(!render_cli(&c).contains("priority-flow-control"));
    }
    // A port opts out alone; the others keep PFC mode.
    let c = one(&format!(
        "{POOL}switches:\n  sw:\n    model: SN2700\n    ports:\n      1/32: {{ pfc: false }}\n"
    ));
    assert!(c.pfc.enabled);
    assert_eq!(pfc_ports(&c), 31);
    assert!(
        !c.interfaces
            .get(&Iface::Ethernet("1/32".parse().unwrap()))
            .is_some_and(|i| i.pfc)
    );
}

#[test]
fn pfc_said_where_there_is_no_lossless_pool_is_a_warning() {
    for said in ["false", "on"] {
        let (c, diags, text) = compile(&format!(
            "qos:\n  pfc: {said}\nswitches:\n  sw: {{ model: SN2700 }}\n"
        ));
        assert!(c.is_some(), "{text}");
        assert_eq!(codes(&diags), ["W006"], "{text}");
        assert!(text.contains("fabric.yaml:2:8"), "{text}");
    }
    // The `roce` mode owns PFC: nothing is added beside it, and nothing is warned.
    let c = one("onyx: 3.10.4606\nqos: { roce: lossless }\nswitches:\n  sw: { model: SN2700 }\n");
    assert!(!c.pfc.enabled && pfc_ports(&c) == 0);
}

/// NVIDIA's `roce lossless` recipe written out by hand, as the preset documents it.
const WRITTEN: &str = "qos:
  pools:
    roce: { type: lossless, memory: 50, priorities: [3] }
  pfc: { priorities: [3] }
  dscp: { roce: 26, cnp: 48 }
port_defaults:
  trust: L3
  pfc: true
  ecn:
    3: { min: 150, max: 1500 }
  ets:
    3: 50
    6: strict
";

#[test]
fn the_preset_compiles_to_the_recipe_written_out() {
    for release in ["3.6.8190", "3.9.3210", "3.10.4606"] {
        let tail = format!(
            "onyx: {release}\nswitches:\n  sw:\n    model: SN2700\n    ports:\n      1/1/1-1/1/2: {{ mtu: 9216 }}\n      1/1: {{ split: 2 }}\n"
        );
        let preset = one(&format!("qos: {{ preset: roce-lossless }}\n{tail}"));
        let written = one(&format!("{WRITTEN}{tail}"));
        assert_eq!(preset, written, "on {release}");
        // Never the one-shot command, whose running-config form is unconfirmed.
        assert_eq!(preset.roce, None);
        let port = &preset.interfaces[&Iface::Ethernet("1/2".parse().unwrap())];
        let ets: Vec<_> = port.ets.iter().map(|(tc, e)| (tc.get(), *e)).collect();
        assert_eq!(ets, [(3, Ets::Wrr(50)), (6, Ets::Strict)]);
    }
}

#[test]
fn keys_beside_the_preset_replace_its_values() {
    // A pool of another size and a port setting: taken, no diagnostic.
    let (c, diags, text) = compile(
        "qos:
  preset: roce-lossless
  pools:
    roce: { type: lossless, memory: 30, priorities: [3] }
port_defaults:
  mtu: 9216
  ets: { 3: 40 }
switches:
  sw: { model: SN2700 }
",
    );
    assert!(diags.is_empty(), "{text}");
    let c = c.unwrap().into_values().next().unwrap();
    assert_eq!(c.pools["roce"].memory.unwrap().hundredths(), 3000);
    let port = &c.interfaces[&Iface::Ethernet("1/1".parse().unwrap())];
    assert_eq!(port.ets.iter().next().map(|(_, e)| *e), Some(Ets::Wrr(40)));
    assert!(port.pfc && c.pfc.enabled);
}

#[test]
fn what_breaks_the_recipe_beside_the_preset_is_e038_at_both_places() {
    for (key, at) in [
        ("  pfc: false\n", "fabric.yaml:3:8"),
        (
            "  pfc: { priorities: [3], enabled: false }\n",
            "fabric.yaml:3:36",
        ),
        ("  roce: lossless\n", "fabric.yaml:3:9"),
        (
            "  pools:\n    bulk: { type: lossy, priorities: [3] }\n",
            "fabric.yaml:4:5",
        ),
    ] {
        let (c, diags, text) = compile(&format!(
            "onyx: 3.10.4606\nqos:\n{key}  preset: roce-lossless\nswitches:\n  sw: {{ model: SN2700 }}\n"
        ));
        assert!(c.is_none(), "{key}");
        assert_eq!(codes(&diags), ["E038"], "{key}{text}");
        assert!(text.contains(&format!("--> {at}")), "{key}{text}");
        assert!(text.contains("preset: roce-lossless"), "{text}");
    }
}

#[test]
fn a_model_on_a_release_older_than_its_first_is_e039() {
    let (c, diags, text) = compile("onyx: 3.6.8190\nswitches:\n  sw: { model: SN4600C }\n");
    assert!(c.is_none());
    assert_eq!(codes(&diags), ["E039"], "{text}");
    assert!(text.contains("--> fabric.yaml:1:7"), "{text}");
    assert!(text.contains("not confirmed"), "{text}");
    // The switch's own release wins over the fabric's.
    let (c, _, text) = compile(
        "onyx: 3.6.8190\nswitches:\n  a: { model: SN2700 }\n  b: { model: SN4600C, onyx: 3.10.4606 }\n",
    );
    assert!(c.is_some(), "{text}");
    // Every model runs on every release its first one and later: the table's order.
    for m in Model::all() {
        assert!(m.check_release(m.first.release).is_ok());
        assert!(m.check_release(Release(3, 10, 4606)).is_ok(), "{}", m.name);
    }
}

#[test]
fn the_lab_refuses_a_model_on_a_release_older_than_its_first() {
    let dir = crate::scratch("recipe-lab-e039");
    let (code, out) = crate::run(
        std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
            .arg("lab")
            .arg(crate::root().join("tests/fixtures/invalid/model_older_than_release.yaml"))
            .arg("--state")
            .arg(&dir)
            .arg("--color")
            .arg("never"),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error[E039]"), "{out}");
    assert!(!dir.join("leaf01").exists(), "no switch started");
}

#[test]
fn the_new_codes_have_explain_texts() {
    for code in ["E038", "E039", "W006"] {
        let (rc, out) = crate::run(
            std::process::Command::new(env!("CARGO_BIN_EXE_fabric")).args(["explain", code]),
        );
        assert_eq!(rc, 0, "{out}");
        for part in ["What it checks", "Why it matters", "How to fix", code] {
            assert!(out.contains(part), "{code}: {part} missing:\n{out}");
        }
    }
}
