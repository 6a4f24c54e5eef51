//! Path MTU, checked apart from the compiler: the shipped fabrics' goldens are read here as
//! plain text (no `fabric` parser), the hosts' MTUs from the fabric files' `hosts:`, and every
//! hop between hosts that reach each other must carry their frames. Then the validator's and
//! the audit's own path checks, and the VLAN interface's MTU through compile, import and diff.

use std::collections::{BTreeMap, BTreeSet};

use crate::{fabrics, root};

/// Ethernet header, one 802.1Q tag and FCS: what a frame adds to the host's MTU (the strictest
/// reading, as `fabric validate` takes it).
const FRAME: u16 = 22;

/// `gpu{001..004}` → `gpu001` … `gpu004` (one numbered range, zero-padded to its width).
fn expand(pattern: &str) -> Vec<String> {
    let Some((head, rest)) = pattern.split_once('{') else {
        return vec![pattern.to_string()];
    };
    let (range, tail) = rest.split_once('}').expect("a closed pattern");
    let (a, b) = range.split_once("..").expect("a range");
    let width = a.len();
    let (a, b): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
    (a..=b)
        .map(|n| format!("{head}{n:0width$}{tail}"))
        .collect()
}

/// Each declared host's MTU, from a fabric file's `hosts:` mapping.
fn host_mtus(fabric: &std::path::Path) -> BTreeMap<String, u16> {
    let text = std::fs::read_to_string(fabric).unwrap();
    let doc: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let mut out = BTreeMap::new();
    if let Some(hosts) = doc.get("hosts").and_then(|h| h.as_object()) {
        for (pattern, h) in hosts {
            let mtu = h["mtu"].as_u64().expect("a host MTU") as u16;
            for name in expand(pattern) {
                out.insert(name, mtu);
            }
        }
    }
    out
}

/// One switch port as a golden prints it.
#[derive(Clone, Debug, Default)]
struct PortLine {
    mtu: Option<u16>,
    description: Option<String>,
    vlan: Option<u16>,
    routed: bool,
}

/// One golden, read line by line: ports, and the VLAN interfaces that route (address, MTU).
#[derive(Debug, Default)]
struct Golden {
    default_mtu: u16,
    ports: BTreeMap<String, PortLine>,
    gateways: BTreeMap<u16, Option<u16>>,
}

/// `1/1-1/8` → `1/1` … `1/8`; `1/1/1-1/1/4` → its subports; one port as itself.
fn onyx_ports(range: &str) -> Vec<String> {
    let Some((a, b)) = range.split_once('-') else {
        return vec![range.to_string()];
    };
    let (head, first) = a.rsplit_once('/').unwrap();
    let last: u32 = b.rsplit_once('/').unwrap().1.parse().unwrap();
    let first: u32 = first.parse().unwrap();
    (first..=last).map(|n| format!("{head}/{n}")).collect()
}

fn onyx(text: &str) -> Golden {
    let mut g = Golden {
        default_mtu: 1500,
        ..Golden::default()
    };
    for line in text.lines().map(str::trim) {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["interface", "ethernet", range, rest @ ..] => {
                for p in onyx_ports(range) {
                    let e = g.ports.entry(p).or_default();
                    match rest {
                        ["mtu", m, "force"] => e.mtu = Some(m.parse().unwrap()),
                        ["description", ..] => {
                            let d = line.split_once(" description ").unwrap().1;
                            e.description = Some(d.trim_matches('"').to_string());
                        }
                        ["switchport", "access", "vlan", v] => e.vlan = Some(v.parse().unwrap()),
                        ["no", "switchport", "force"] => e.routed = true,
                        _ => {}
                    }
                }
            }
            ["interface", "vlan", v, "ip", "address", ..] => {
                g.gateways.entry(v.parse().unwrap()).or_insert(None);
            }
            ["interface", "vlan", v, "mtu", m] => {
                *g.gateways.entry(v.parse().unwrap()).or_insert(None) = Some(m.parse().unwrap());
            }
            _ => {}
        }
    }
    g
}

/// OS10's blocks: `interface ethernet1/1/9` then ` mtu 9216`, ` description …`,
/// ` switchport access vlan 100`, ` no switchport`; `interface vlan10` with ` ip address`.
fn os10(text: &str) -> Golden {
    let mut g = Golden {
        default_mtu: 1532,
        ..Golden::default()
    };
    let mut port: Option<String> = None;
    let mut vlan: Option<u16> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("interface ethernet") {
            port = Some(name.to_string());
            vlan = None;
            g.ports.entry(name.to_string()).or_default();
            continue;
        }
        if let Some(v) = line.strip_prefix("interface vlan") {
            vlan = v.parse().ok();
            port = None;
            continue;
        }
        if !line.starts_with(' ') {
            port = None;
            vlan = None;
            continue;
        }
        let w: Vec<&str> = line.split_whitespace().collect();
        if let Some(p) = &port {
            let e = g.ports.get_mut(p).unwrap();
            match w.as_slice() {
                ["mtu", m] => e.mtu = Some(m.parse().unwrap()),
                ["description", ..] => {
                    e.description = Some(line.trim()[12..].trim_matches('"').to_string())
                }
                ["switchport", "access", "vlan", v] => e.vlan = Some(v.parse().unwrap()),
                ["no", "switchport"] => e.routed = true,
                _ => {}
            }
        } else if let Some(v) = vlan {
            match w.as_slice() {
                ["ip", "address", ..] => {
                    g.gateways.entry(v).or_insert(None);
                }
                ["mtu", m] => {
                    *g.gateways.entry(v).or_insert(None) = Some(m.parse().unwrap());
                }
                _ => {}
            }
        }
    }
    g
}

/// The hop MTUs a fabric's hosts send through, read from its goldens: every host's own port
/// and the other hosts' ports of its VLAN (any switch, the strict reading); where a VLAN is
/// routed, every VLAN interface that routes and every routed port between switches.
fn check_fabric(fabric: &std::path::Path) -> Vec<String> {
    let hosts = host_mtus(fabric);
    let stem = fabric.file_stem().unwrap().to_str().unwrap();
    let mut goldens: BTreeMap<String, Golden> = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("golden").join(stem)).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let g = if text.contains("interface ethernet1/1/") {
            os10(&text)
        } else {
            onyx(&text)
        };
        goldens.insert(name, g);
    }
    let mut problems = Vec::new();
    // Each host's ports: (switch, port, VLAN, hop MTU).
    let mut by_vlan: BTreeMap<u16, Vec<(String, u16, u16)>> = BTreeMap::new();
    let mut routed_hosts: Vec<(String, u16)> = Vec::new();
    for (sw, g) in &goldens {
        for (port, p) in &g.ports {
            let Some(host) = p.description.as_deref().and_then(|d| d.split(':').next()) else {
                continue;
            };
            let Some(mtu) = hosts.get(host) else { continue };
            let hop = p.mtu.unwrap_or(g.default_mtu);
            if mtu + FRAME > hop {
                problems.push(format!("{host} (MTU {mtu}) on {sw} {port} (MTU {hop})"));
            }
            let vlan = p.vlan.unwrap_or(1);
            by_vlan
                .entry(vlan)
                .or_default()
                .push((host.to_string(), *mtu, hop));
            if g.gateways.contains_key(&vlan) {
                routed_hosts.push((host.to_string(), *mtu));
            }
        }
    }
    for (vlan, members) in &by_vlan {
        let most = members.iter().map(|m| m.1).max().unwrap_or(0);
        for (host, _, hop) in members {
            if most + FRAME > *hop {
                problems.push(format!(
                    "VLAN {vlan}: {host}'s port (MTU {hop}) below {most}"
                ));
            }
        }
    }
    let Some(most) = routed_hosts.iter().map(|h| h.1).max() else {
        return problems;
    };
    for (sw, g) in &goldens {
        for (vlan, mtu) in &g.gateways {
            let mtu = mtu.unwrap_or(g.default_mtu);
            if by_vlan.contains_key(vlan) && most + FRAME > mtu {
                problems.push(format!(
                    "{sw} VLAN {vlan} interface (MTU {mtu}) below {most}"
                ));
            }
        }
        for (port, p) in &g.ports {
            let to_switch = p
                .description
                .as_deref()
                .and_then(|d| d.split(':').next())
                .is_some_and(|peer| goldens.contains_key(peer));
            let hop = p.mtu.unwrap_or(g.default_mtu);
            if p.routed && to_switch && most + FRAME > hop {
                problems.push(format!("{sw} {port} routed (MTU {hop}) below {most}"));
            }
        }
    }
    problems
}

#[test]
fn the_shipped_fabrics_carry_their_hosts_frames_on_every_hop() {
    let mut checked = BTreeSet::new();
    for fabric in fabrics() {
        if host_mtus(&fabric).is_empty() {
            continue;
        }
        let problems = check_fabric(&fabric);
        assert!(problems.is_empty(), "{}: {problems:#?}", fabric.display());
        checked.insert(fabric.file_stem().unwrap().to_string_lossy().into_owned());
    }
    // The routed example is among them: its VLAN interfaces route the GPU subnets.
    assert!(checked.contains("ml-cluster"), "{checked:?}");
}

#[test]
fn the_independent_check_finds_a_vlan_interface_at_its_default() {
    let leaf = std::fs::read_to_string(root().join("golden/ml-cluster/leaf01.cfg")).unwrap();
    let g = onyx(&leaf);
    assert_eq!(g.gateways.get(&10), Some(&Some(9216)), "{g:?}");
    let stripped = leaf.replace("   interface vlan 10 mtu 9216\n", "");
    assert_eq!(onyx(&stripped).gateways.get(&10), Some(&None));
    assert_eq!(onyx_ports("1/1/1-1/1/4").len(), 4);
    assert_eq!(onyx_ports("1/25-1/32").last().unwrap(), "1/32");
}

/// A fabric's diagnostics, rendered, and whether it validated.
fn validate(name: &str, yaml: &str) -> (bool, String, usize) {
    let mut sources = fabric::diag::Sources::default();
    let loaded = fabric::fabric::parse_bytes(name, yaml.as_bytes().to_vec(), &mut sources)
        .unwrap_or_else(|d| panic!("{}", fabric::diag::render(&[d], &sources, false)));
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let text = fabric::diag::render(&diags, &sources, false);
    (fab.is_some(), text, diags.len())
}

/// A leaf whose VLAN 10 routes: ports 1/1-1/2 carry it (at `ports_mtu`), 1/3 carries
/// VLAN 20, and `vlan` is the VLAN entry's extra keys.
fn leaf(os10: bool, ports_mtu: u16, vlan: &str) -> String {
    let (os, model, p) = if os10 {
        ("os: os10\nos10: 10.5.3.2\n", "S5248F-ON", "ethernet1/1/")
    } else {
        ("", "SN3700", "1/")
    };
    format!(
        "{os}vlans: [{{ id: 20 }}]\nswitches:\n  leaf01:\n    model: {model}\n    vlans: [{{ id: 10, address: 10.10.1.1/24{vlan} }}]\n    ports:\n      {p}1-{}2: {{ vlan: 10, mtu: {ports_mtu} }}\n      {p}3: {{ vlan: 20, mtu: 9216 }}\n",
        p.trim_start_matches("ethernet")
    )
}

#[test]
fn a_vlan_interface_takes_the_largest_mtu_of_the_ports_that_carry_its_vlan() {
    let configs = crate::routing::compile_text("l.yaml", &leaf(false, 4200, ""));
    let vlan10 = fabric::onyx::Iface::Vlan(fabric::types::Vlan::new(10).unwrap());
    assert_eq!(configs["leaf01"].interfaces[&vlan10].mtu, Some(4200));
    // Written, it wins; Onyx's default 1500 prints no line.
    let configs = crate::routing::compile_text("l.yaml", &leaf(false, 4200, ", mtu: 9000"));
    assert_eq!(configs["leaf01"].interfaces[&vlan10].mtu, Some(9000));
    let configs = crate::routing::compile_text("l.yaml", &leaf(false, 9216, ", mtu: 1500"));
    assert_eq!(configs["leaf01"].interfaces[&vlan10].mtu, None);
    // The fabric's VLAN entry sets it for every switch's interface of that VLAN.
    let fabric_wide = leaf(false, 9216, "").replace(
        "vlans: [{ id: 20 }]",
        "vlans: [{ id: 20 }, { id: 10, mtu: 9100 }]",
    );
    let configs = crate::routing::compile_text("l.yaml", &fabric_wide);
    assert_eq!(configs["leaf01"].interfaces[&vlan10].mtu, Some(9100));
    let text = fabric::onyx::Renderer::embedded()
        .unwrap()
        .render(&configs["leaf01"])
        .unwrap();
    assert!(text.contains("\n   interface vlan 10 mtu 9100\n"), "{text}");
}

#[test]
fn an_os10_vlan_interface_prints_its_mtu_in_its_block() {
    let mut sources = fabric::diag::Sources::default();
    let yaml = leaf(true, 9216, "");
    let loaded = fabric::fabric::parse_bytes("o.yaml", yaml.into_bytes(), &mut sources).unwrap();
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let fab = fab.unwrap_or_else(|| panic!("{}", fabric::diag::render(&diags, &sources, false)));
    let text = fabric::compile::compile(&fab)
        .values()
        .next()
        .unwrap()
        .render()
        .unwrap();
    let block = text
        .split("interface vlan10\n")
        .nth(1)
        .expect("interface vlan10");
    let block = block.split("!\n").next().unwrap();
    assert!(
        block.contains(" mtu 9216\n") && block.contains(" ip address 10.10.1.1/24\n"),
        "{block}"
    );
}

#[test]
fn an_mtu_on_a_vlan_without_an_interface_is_a_warning_at_it() {
    let yaml = "switches:\n  sw1:\n    model: SN2700\n    vlans: [{ id: 10, mtu: 9216 }]\n";
    let (ok, text, n) = validate("w.yaml", yaml);
    assert!(ok && n == 1, "{text}");
    assert!(
        text.starts_with("warning[W007]: VLAN 10 of `sw1` has an `mtu` but no VLAN interface to apply it to\n --> w.yaml:4:28\n"),
        "{text}"
    );
}

/// A running config whose VLAN interface is at Onyx's default under 9216 ports is imported
/// with `mtu: 1500` (the fabric would otherwise take the ports' 9216) and diffs clean; with
/// the ports' MTU it writes none.
#[test]
fn import_writes_a_vlan_mtu_only_where_the_ports_would_not_give_it() {
    let dir = crate::scratch("import-vlan-mtu");
    let golden = root().join("golden/ml-cluster");
    let leaf = std::fs::read_to_string(golden.join("leaf01.cfg")).unwrap();
    let at_default = leaf.replace("   interface vlan 10 mtu 9216\n", "");
    assert_ne!(at_default, leaf);
    let bin = env!("CARGO_BIN_EXE_fabric");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(bin)
            .current_dir(&dir)
            .args(args)
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };
    let backups = dir.join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    for entry in std::fs::read_dir(&golden).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, backups.join(path.file_name().unwrap())).unwrap();
    }
    for (text, want) in [(&leaf, None), (&at_default, Some(1500))] {
        std::fs::write(backups.join("leaf01.cfg"), text).unwrap();
        let _ = std::fs::remove_file(dir.join("out.yaml"));
        let (code, out) = run(&["import", "backups", "-o", "out.yaml"]);
        assert_eq!(code, Some(0), "{out}");
        let yaml = std::fs::read_to_string(dir.join("out.yaml")).unwrap();
        let line = "- {id: 10, name: gpu, address: 10.10.1.1/24";
        match want {
            None => assert!(yaml.contains(&format!("{line}}}")), "{yaml}"),
            Some(m) => assert!(yaml.contains(&format!("{line}, mtu: {m}}}")), "{yaml}"),
        }
        assert!(!yaml.contains("interface vlan 10 mtu"), "{yaml}");
        let (code, out) = run(&["diff", "out.yaml", "--running", "backups"]);
        assert_eq!(code, Some(0), "{out}");
    }
}

/// The audit's R049 on OS10: a VLAN interface with an address at OS10's default under 9216
/// RoCE ports.
#[test]
fn the_audit_finds_an_os10_vlan_interface_below_its_roce_ports() {
    let mut sources = fabric::diag::Sources::default();
    // The RoCE recipe as `fabrics/vcf-bitfusion.yaml` writes it for OS10.
    let recipe = "qos:\n  pools:\n    roce: { type: lossless, priorities: [3] }\nport_defaults:\n  trust: L3\n  ecn:\n    3: { min: 150, max: 1500 }\n";
    let yaml = format!("{recipe}{}", leaf(true, 9216, ""));
    let loaded = fabric::fabric::parse_bytes("o.yaml", yaml.into_bytes(), &mut sources).unwrap();
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let fab = fab.unwrap_or_else(|| panic!("{}", fabric::diag::render(&diags, &sources, false)));
    let sw = fab.switches.values().next().unwrap();
    let mut audited = fabric::audit::Switch::compiled(sw);
    let clean = fabric::audit::Input {
        switches: BTreeMap::from([("leaf01".to_string(), audited.clone())]),
        ..Default::default()
    };
    assert!(
        !fabric::audit::audit(&clean)
            .iter()
            .any(|f| f.rule == "R049")
    );
    let mut c = audited
        .config
        .as_any()
        .downcast_ref::<fabric::os10::Config>()
        .unwrap()
        .clone();
    let vlan10 = fabric::os10::Iface::Vlan(fabric::types::Vlan::new(10).unwrap());
    c.interfaces.get_mut(&vlan10).unwrap().mtu = None;
    audited.config = Box::new(c);
    let input = fabric::audit::Input {
        switches: BTreeMap::from([("leaf01".to_string(), audited)]),
        ..Default::default()
    };
    let found: Vec<_> = fabric::audit::audit(&input)
        .into_iter()
        .filter(|f| f.rule == "R049")
        .collect();
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0].line.as_deref(),
        Some("interface vlan10\n mtu 9216")
    );
}
