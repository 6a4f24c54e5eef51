//! OS10 as a compile target: a fabric names each switch's OS, `fabric compile` writes each
//! switch's golden through its own OS's module, OS10 goldens read back with `os10::parse` to
//! the compiled state, one fabric may mix Onyx and OS10 switches, and the commands that only
//! know Onyx refuse an OS10 switch by name (exit 2) instead of treating it as Onyx.

use std::path::Path;

use fabric::compile::Target;
use fabric::diag::Sources;

use crate::{root, run, scratch};

fn fabric_at(dir: &Path, args: &[&str]) -> (i32, String) {
    run(std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
        .current_dir(dir)
        .args(args))
}

fn load(path: &Path) -> fabric::fabric::Fabric {
    let mut sources = Sources::default();
    let (fab, diags) = fabric::fabric::read(path, &mut sources).expect("readable");
    fab.unwrap_or_else(|| panic!("{}", fabric::diag::render(&diags, &sources, false)))
}

/// An OS10 switch's compiled configuration.
fn os10_of(t: &Target) -> Option<&fabric::os10::Config> {
    t.as_any().downcast_ref()
}

/// Each OS10 golden of the example is exactly what the compiled state renders to, and reads
/// back with `os10::parse` to that state, and renders from it to itself.
#[test]
fn os10_goldens_read_back_to_the_compiled_state() {
    let path = root().join("fabrics/vcf-bitfusion.yaml");
    let renderer = fabric::os10::Renderer::embedded().unwrap();
    let mut seen = 0;
    for (name, target) in fabric::compile::compile(&load(&path)) {
        let Some(config) = os10_of(&target) else {
            panic!("{name}: the example's switches run OS10");
        };
        let golden =
            std::fs::read_to_string(root().join(format!("golden/vcf-bitfusion/{name}.cfg")))
                .unwrap();
        assert_eq!(renderer.render(config).unwrap(), golden, "{name}");
        let parsed = fabric::os10::parse(&golden).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(parsed, *config, "{name}");
        assert_eq!(renderer.render(&parsed).unwrap(), golden, "{name}");
        seen += 1;
    }
    assert_eq!(seen, 2);
}

/// The example's goldens carry the RoCE recipe in OS10's terms (the reference,
/// `../shared/reference/os10-roce.md`), and no Onyx line.
#[test]
fn the_example_carries_the_os10_roce_recipe() {
    let golden = std::fs::read_to_string(root().join("golden/vcf-bitfusion/leaf-a.cfg")).unwrap();
    for line in [
        "dcbx enable",
        "wred ecn",
        " random-detect color green minimum-threshold 150 maximum-threshold 1500 drop-probability 100",
        "class-map type network-qos ROCE3",
        "policy-map type network-qos ROCE_PFC",
        "  pause",
        "  pfc-cos 3",
        "policy-map type queuing ROCE_ETS",
        "  bandwidth percent 31",
        "  bandwidth percent 8",
        "qos-map traffic-class ROCE_QMAP",
        " queue 0 qos-group 0",
        " queue 6 qos-group 6",
        " queue 7 qos-group 7",
        "class-map type queuing Q6",
        " class Q6",
        "  priority",
        "trust dscp-map ROCE_TRUST",
        " qos-group 3 dscp 24-31",
        "system qos",
        " trust-map dscp ROCE_TRUST",
        " ets mode on",
        " priority-flow-control mode on",
        " flowcontrol receive off",
        " service-policy input type network-qos ROCE_PFC",
        " service-policy output type queuing ROCE_ETS",
        " mtu 9216",
        " channel-group 1 mode active",
        " vlt-port-channel 1",
        "vlt-domain 1",
        " discovery-interface ethernet1/1/49-1/1/50",
        " vlt-mac 00:00:5e:00:01:5e",
        "interface ethernet1/1/49",
        " description leaf-b:ethernet1/1/49",
    ] {
        assert!(
            golden.lines().any(|l| l == line),
            "`{line}` missing from leaf-a.cfg"
        );
    }
    assert!(!golden.contains("dcb priority-flow-control"));
    assert!(
        !golden.contains("interface vlan4000"),
        "the IPL VLAN is Onyx's"
    );
    // The VLT heartbeat's backup is the peer's management address; the VLTi ports carry the
    // RoCE ports' QoS.
    assert!(golden.contains("vlt-domain 1\n backup destination 192.0.2.12\n"));
    let vlti = golden
        .split("!\n")
        .find(|b| b.starts_with("interface ethernet1/1/49\n"))
        .unwrap();
    for line in [
        " no switchport",
        " flowcontrol receive off",
        " priority-flow-control mode on",
        " service-policy input type network-qos ROCE_PFC",
        " service-policy output type queuing ROCE_ETS",
        " ets mode on",
        " qos-map traffic-class ROCE_QMAP",
    ] {
        assert!(vlti.lines().any(|l| l == line), "`{line}` missing:\n{vlti}");
    }
}

/// A pair whose management addresses are not given (or are a tunnel's loopback) has no
/// `backup destination`: nothing is made up.
#[test]
fn vlt_backup_comes_only_from_a_real_management_address() {
    let path = root().join("fabrics/vcf-bitfusion.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let dir = scratch("target-vlt-backup");
    for (host, expected) in [("127.0.0.1", None), ("192.0.2.21", Some("192.0.2.21"))] {
        let changed = text.replace(
            "host: 192.0.2.12 }",
            &format!("host: {host}, port: 2202 }}"),
        );
        std::fs::write(dir.join("pair.yaml"), changed).unwrap();
        let compiled = fabric::compile::compile(&load(&dir.join("pair.yaml")));
        for (name, target) in compiled {
            let c = os10_of(&target).unwrap();
            let backup = c.vlt.as_ref().unwrap().backup.map(|a| a.to_string());
            let want = if name.to_string() == "leaf-a" {
                expected.map(str::to_string)
            } else {
                Some("192.0.2.11".to_string())
            };
            assert_eq!(backup, want, "{name} with leaf-b at {host}");
        }
    }
}

/// `fabric compile --check` is clean for the committed example.
#[test]
fn compile_check_is_clean_for_the_example() {
    let (code, out) = fabric_at(
        root(),
        &["compile", "--check", "fabrics/vcf-bitfusion.yaml"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("golden files are up to date"), "{out}");
    // The RoCE audit runs on its OS10 switches: no note that it skipped them.
    assert!(!out.contains("does not yet run on OS10"), "{out}");
}

pub(crate) const MIXED: &str = r#"
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
    ports:
      ethernet1/1/1-1/1/4: { peer: { host: "gpu{1..4}", port: ens1f0 } }
links:
  - { a: spine01:1/1, b: leaf01:ethernet1/1/53 }
stp: on
"#;

/// One fabric mixes Onyx and OS10: each switch compiles through its own OS, and each end of
/// a cable between them is described with the far port as its own OS names it.
#[test]
fn a_fabric_mixes_onyx_and_os10_switches() {
    let dir = scratch("target-mixed");
    std::fs::write(dir.join("mixed.yaml"), MIXED).unwrap();
    let fab = load(&dir.join("mixed.yaml"));
    let compiled: std::collections::BTreeMap<String, Target> = fabric::compile::compile(&fab)
        .into_iter()
        .map(|(n, t)| (n.to_string(), t))
        .collect();
    let spine = compiled["spine01"].render().unwrap();
    let leaf = compiled["leaf01"].render().unwrap();
    assert_eq!(compiled["spine01"].target().os(), fabric::onyx::target::OS);
    assert_eq!(compiled["leaf01"].target().os(), fabric::os10::target::OS);
    assert!(
        spine.contains("interface ethernet 1/1 description leaf01:ethernet1/1/53"),
        "{spine}"
    );
    assert!(leaf.contains(" description spine01:1/1\n"), "{leaf}");
    assert!(leaf.contains("interface ethernet1/1/4\n"), "{leaf}");
    assert!(leaf.contains(" priority-flow-control mode on\n"), "{leaf}");
    assert_eq!(
        &fabric::os10::parse(&leaf).unwrap(),
        os10_of(&compiled["leaf01"]).unwrap()
    );
    let (code, out) = fabric_at(&dir, &["compile", "mixed.yaml", "--out", "golden"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        std::fs::read_to_string(dir.join("golden/mixed/leaf01.cfg")).unwrap(),
        leaf
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("golden/mixed/spine01.cfg")).unwrap(),
        spine
    );
}

/// No command refuses a fabric that mixes Onyx and OS10 switches: `fabric docs` writes a page
/// per switch, each in its OS's port spelling (`tests/docs.rs` checks the pages).
#[test]
fn mixed_fabrics_are_documented_and_imports_stay_os10() {
    let dir = scratch("target-refuse");
    std::fs::write(dir.join("mixed.yaml"), MIXED).unwrap();
    let (code, out) = fabric_at(&dir, &["docs", "mixed.yaml", "--out", "docs"]);
    assert_eq!(code, 0, "{out}");
    let leaf = std::fs::read_to_string(dir.join("docs/mixed/leaf01.md")).unwrap();
    assert!(leaf.contains("| OS10 | 10.5.3.2 |"), "{leaf}");
    let spine = std::fs::read_to_string(dir.join("docs/mixed/spine01.md")).unwrap();
    assert!(spine.contains("| Onyx |"), "{spine}");
    std::fs::remove_dir_all(dir.join("docs")).unwrap();
    // The Onyx switch of the same fabric is still audited alone.
    let (code, out) = fabric_at(&dir, &["audit", "mixed.yaml", "--switch", "spine01"]);
    assert_ne!(code, 2, "{out}");
    // An OS10 running configuration is imported as OS10, not as Onyx: this one uses QoS names
    // the compile does not, so the import says what a push would change, and writes nothing.
    let tor = crate::shared()
        .join("corpus/os10/azurestack-rack2-Rack01-TOR-1.running-configuration.10.5.3.2.txt");
    let (code, out) = fabric_at(&dir, &["import", tor.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("`rack2-Rack01-TOR-1`")
            && out.contains("no policy-map type network-qos AZS_SERVICES_pfc")
            && out.contains("nothing written"),
        "{out}"
    );
    assert!(!dir.join("docs").exists());
}

const BREAKOUT: &str = r#"
qos:
  pools:
    roce: { type: lossless, priorities: [3] }
port_defaults:
  mtu: 9216
  trust: L3
switches:
  leaf01:
    os: os10
    os10: 10.5.0.2
    model: S4112F-ON
    ports:
      ethernet1/1/13: { split: 4 }
      ethernet1/1/13:1-1/1/13:4: { peer: { host: "gpu{1..4}", port: ens1f0 } }
      ethernet1/1/14: { peer: { host: gpu5, port: ens1f0 } }
stp: on
"#;

/// A `split` on an OS10 switch compiles to `interface breakout` (the native map on every
/// other breakout-capable port, as OS10 prints them), its subports named `ethernet1/1/13:1`;
/// the config reads back; a plan from the factory map vacates the old port before the map
/// changes and configures the subports after, and rolls back the other way.
#[test]
fn an_os10_split_compiles_to_a_breakout_and_plans_in_order() {
    let dir = scratch("target-breakout");
    std::fs::write(dir.join("breakout.yaml"), BREAKOUT).unwrap();
    let fab = load(&dir.join("breakout.yaml"));
    let mut compiled = fabric::compile::compile(&fab);
    let Some(config) = compiled.pop_first().and_then(|(_, t)| os10_of(&t).cloned()) else {
        panic!("one OS10 switch");
    };
    let os10 = fabric::os10::Renderer::embedded().unwrap();
    let text = os10.render(&config).unwrap();
    let at = |l: &str| {
        text.find(l)
            .unwrap_or_else(|| panic!("no `{l}` in\n{text}"))
    };
    for l in [
        "interface breakout 1/1/13 map 25g-4x\n",
        "interface breakout 1/1/14 map 100g-1x\n",
        "interface breakout 1/1/15 map 100g-1x\n",
        "interface ethernet1/1/13:4\n description gpu4:ens1f0\n",
    ] {
        at(l);
    }
    assert!(at("hostname leaf01") < at("interface breakout 1/1/13"));
    assert!(at("interface breakout 1/1/15") < at("interface ethernet1/1/1\n"));
    assert!(!text.contains("interface ethernet1/1/13\n"), "{text}");
    assert!(
        !text.contains("breakout 1/1/1 "),
        "10G ports have no breakout"
    );
    assert_eq!(fabric::os10::parse(&text).unwrap(), config);

    // The switch as it came: 1/1/13 whole, with a factory port's lines.
    let factory = "interface breakout 1/1/13 map 100g-1x\ninterface breakout 1/1/14 map 100g-1x\ninterface breakout 1/1/15 map 100g-1x\n!\ninterface ethernet1/1/13\n no shutdown\n switchport access vlan 1\n flowcontrol receive on\n";
    let running = fabric::os10::parse(factory).unwrap();
    let steps = fabric::os10::plan::plan(&running, &config);
    let script = fabric::os10::plan::review(&steps);
    let line = |l: &str| {
        script
            .find(l)
            .unwrap_or_else(|| panic!("no `{l}` in\n{script}"))
    };
    assert!(
        line("interface ethernet1/1/13\n no flowcontrol receive")
            < line("interface breakout 1/1/13 map 25g-4x  [disruptive]")
    );
    assert!(line("interface breakout 1/1/13 map 25g-4x") < line("interface ethernet1/1/13:1  ["));
    let mut after = running.clone();
    fabric::os10::script::apply(&mut after, &fabric::os10::plan::script(&steps)).unwrap();
    assert!(
        !after
            .interfaces
            .contains_key(&fabric::os10::Iface::Ethernet(fabric::os10::Eth::new(13)))
    );
    assert!(fabric::os10::plan::plan(&after, &config).is_empty());
    let back = fabric::os10::plan::plan(&after, &running);
    let undo = fabric::os10::plan::review(&back);
    let (sub, map) = (
        undo.find("interface ethernet1/1/13:1\n")
            .unwrap_or(usize::MAX),
        undo.find("interface breakout 1/1/13 map 100g-1x")
            .unwrap_or(0),
    );
    assert!(sub < map, "subports give up their settings first:\n{undo}");
    fabric::os10::script::apply(&mut after, &fabric::os10::plan::script(&back)).unwrap();
    assert!(fabric::os10::plan::plan(&after, &running).is_empty());
}

/// The S5248F-ON's port groups compiled from `tests/fixtures/os10/lab/port-groups.yaml`: every
/// group printed after `system qos` and before the interfaces, native modes included, as the
/// TOR capture prints all 18; four SFP28 ports at `speed: 10G` make their group `10g-4x` and
/// are named `ethernet1/1/17:1` …, the far end of their cable's description naming them so; a
/// QSFP28 `split: 4` is its group's `25g-4x` (`10g-4x` with its subports at 10G); no `interface
/// breakout` is printed. Each port may be written by either name: the same configuration.
#[test]
fn s5248f_splits_and_speeds_compile_to_port_groups() {
    let path = crate::shared().join("os10/lab/port-groups.yaml");
    let fab = load(&path);
    let compiled = fabric::compile::compile(&fab);
    let os10 = fabric::os10::Renderer::embedded().unwrap();
    let text_of = |name: &str| -> (String, fabric::os10::Config) {
        let Some(config) = compiled
            .iter()
            .find(|(h, _)| h.as_str() == name)
            .and_then(|(_, t)| os10_of(t))
        else {
            panic!("{name} is an OS10 switch");
        };
        (os10.render(config).unwrap(), config.clone())
    };
    let (text, config) = text_of("leaf01");
    let at = |l: &str| {
        text.find(l)
            .unwrap_or_else(|| panic!("no `{l}` in\n{text}"))
    };
    for l in [
        "!\nport-group 1/1/1\n mode Eth 25g-4x\n!\n",
        "!\nport-group 1/1/5\n mode Eth 10g-4x\n!\n",
        "!\nport-group 1/1/11\n mode Eth 10g-4x\n!\n",
        "!\nport-group 1/1/13\n mode Eth 100g-2x\n!\n",
        "!\nport-group 1/1/15\n mode Eth 25g-4x\n!\n",
        "!\nport-group 1/1/18\n mode Eth 100g-1x\n!\n",
        "\ninterface ethernet1/1/17:1\n description bmc1:eth0\n",
        "\ninterface ethernet1/1/41:1\n description leaf02:ethernet1/1/54:1\n",
        "\ninterface ethernet1/1/53:4\n description gpu4:ens1f0\n",
        "\ninterface ethernet1/1/16\n",
    ] {
        at(l);
    }
    assert_eq!(text.matches("\nport-group 1/1/").count(), 18, "{text}");
    assert!(at("port-group 1/1/18") < at("interface ethernet1/1/1\n"));
    for gone in [
        "interface ethernet1/1/17\n",
        "interface ethernet1/1/53\n",
        "interface breakout",
    ] {
        assert!(!text.contains(gone), "{gone}: {text}");
    }
    assert_eq!(fabric::os10::parse(&text).unwrap(), config);
    let (text, _) = text_of("leaf02");
    assert!(
        text.contains("!\nport-group 1/1/16\n mode Eth 10g-4x\n!\n"),
        "{text}"
    );
    assert!(
        text.contains("\ninterface ethernet1/1/54:1\n description leaf01:ethernet1/1/41:1\n"),
        "{text}"
    );

    // The 10G ports by their OS10 names, the link end by its front-panel name: the same.
    let dir = scratch("target-port-groups");
    let renamed = std::fs::read_to_string(&path)
        .unwrap()
        .replace("ethernet1/1/17-1/1/20:", "ethernet1/1/17:1-1/1/20:1:")
        .replace("leaf01:ethernet1/1/41:1", "leaf01:ethernet1/1/41");
    std::fs::write(dir.join("renamed.yaml"), renamed).unwrap();
    let again = fabric::compile::compile(&load(&dir.join("renamed.yaml")));
    assert_eq!(again, compiled);
}
