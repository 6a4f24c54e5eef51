//! NVIDIA Cumulus Linux (NVUE): its configurations read and written losslessly against the
//! real NVUE files of `tests/fixtures/corpus/nvue/`, the example's goldens checked against
//! their key names and structure, and a Cumulus leaf cabled to an Onyx spine.

use std::collections::BTreeSet;
use std::path::Path;

use fabric::cumulus::Config;
use fabric::cumulus::tree::{self, Node, Tree};
use fabric::diag::{Sources, render};

use crate::{root, shared};

fn corpus(name: &str) -> String {
    let dir = shared().join("corpus/nvue");
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains(name))
        .unwrap_or_else(|| panic!("no corpus file with {name}"));
    std::fs::read_to_string(file).unwrap()
}

/// The real NVUE configurations of the corpus, as a switch prints them: the docs' `startup.yaml`
/// without the session's first line (its prompt and `sudo cat`), oxidized's capture of
/// `nv config show` on an SN2010 (5.9.2) as oxidized stores it, a VX 5.12 `nv config show`,
/// and three VX 5.12 `nv config show -o commands`.
fn real_configs() -> Vec<(&'static str, String)> {
    let startup = corpus("startup.yaml_bgp_unnumbered_mlag");
    let startup = startup.split_once('\n').unwrap().1.to_string();
    let session = corpus("MSN2010_CL5.9.2");
    let stored = session.split_once("oxidized_output: |\n").unwrap().1;
    let oxidized: String = stored
        .lines()
        .map(|l| l.strip_prefix("  ").unwrap_or(l).to_string() + "\n")
        .collect();
    vec![
        ("docs startup.yaml 5.14", startup),
        ("oxidized SN2010 5.9.2", oxidized),
        (
            "VX 5.12 dual stack",
            corpus("dual_stack_BGP_over_v6_VX5.12.0"),
        ),
        (
            "VX 5.12 leaf commands",
            corpus("leaf-k8s-worker-1__nv_config_show_-o_commands"),
        ),
        (
            "VX 5.12 leaf2 commands",
            corpus("leaf-k8s-worker-2__nv_config_show_-o_commands"),
        ),
        (
            "VX 5.12 spine commands",
            corpus("spine-1__nv_config_show_-o_commands"),
        ),
    ]
}

/// Every real configuration reads, prints, and reads back to the same tree, in both forms
/// (the YAML and the `nv set` commands), and the rendered text's review block agrees with it.
#[test]
fn real_nvue_configurations_round_trip_in_both_forms() {
    for (name, text) in real_configs() {
        let c = Config::parse(&text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        // The fast reading and the YAML parser agree; the printed form is read fast.
        if let Some(fast) = fabric::cumulus::fast::parse(&text) {
            assert_eq!(fast.set, c.set, "{name}");
        }
        let printed = fabric::cumulus::tree::render_yaml(c.header.as_ref(), &c.set);
        let fast = fabric::cumulus::fast::parse(&printed)
            .unwrap_or_else(|| panic!("{name}: not read fast"));
        assert_eq!(
            Some(fast),
            fabric::cumulus::tree::parse_events(&printed).ok(),
            "{name}"
        );
        assert!(
            c.set.len() >= 4,
            "{name}: {:?}",
            c.set.keys().collect::<Vec<_>>()
        );
        let again = Config::parse(&c.text()).unwrap_or_else(|e| panic!("{name} rendered: {e:?}"));
        assert_eq!(again, c, "{name}: the YAML form loses something");
        let lines: String = tree::commands(&c.set)
            .iter()
            .map(|x| x.line() + "\n")
            .collect();
        let from_commands =
            Config::parse(&lines).unwrap_or_else(|e| panic!("{name} commands: {e:?}"));
        assert_eq!(
            from_commands.set, c.set,
            "{name}: the commands form loses something"
        );
    }
}

/// What the corpus shows is kept as written: range keys read one item each, `on` and `1.0`
/// as text, an IPv6 address as a key, a secret as NVUE printed it, a snippet of many lines.
#[test]
fn nvue_scalars_and_ranges_are_kept_as_written() {
    let configs = real_configs();
    let get = |i: usize| Config::parse(&configs[i].1).unwrap();
    let ox = get(1);
    assert_eq!(
        ox.header.as_ref().and_then(|h| tree::value(h, &["rev-id"])),
        Some("1.0")
    );
    assert_eq!(
        tree::value(&ox.set, &["router", "bgp", "enable"]),
        Some("on")
    );
    for port in ["swp1", "swp18"] {
        assert_eq!(
            tree::value(&ox.set, &["interface", port, "description"]),
            Some("UNUSED 25G PORTS")
        );
        assert!(tree::get(&ox.set, &["interface", port, "link", "state", "down"]).is_some());
    }
    assert!(tree::get(&ox.set, &["interface", "eth0", "link", "state", "up"]).is_some());
    assert!(
        tree::value(&ox.set, &["system", "config", "snippet", "sshd_config"])
            .is_some_and(|s| s.lines().count() == 2)
    );
    let v6 = get(2);
    let nb = [
        "vrf",
        "default",
        "router",
        "bgp",
        "neighbor",
        "2001:db8:b::10",
        "password",
    ];
    assert!(tree::value(&v6.set, &nb).is_some_and(|p| p.starts_with("$nvsec$")));
    assert!(
        tree::get(
            &v6.set,
            &["interface", "swp2", "ip", "address", "2001:0DB8:a::254/64"]
        )
        .is_some()
    );
    let leaf = get(3);
    assert!(
        tree::get(
            &leaf.set,
            &["interface", "peerlink", "bond", "member", "swp16"]
        )
        .is_some()
    );
    assert_eq!(
        tree::value(
            &leaf.set,
            &[
                "interface",
                "bond3",
                "bridge",
                "domain",
                "br_default",
                "access"
            ]
        ),
        Some("120")
    );
    assert_eq!(
        tree::value(
            &leaf.set,
            &["system", "aaa", "user", "cumulus", "hashed-password"]
        ),
        Some("*")
    );
}

/// A configuration that is not one is an error at its line, never a clean read.
#[test]
fn garbage_is_refused_at_its_line() {
    let cases = [
        (
            "- set:\n    interface:\n      swp1: {type: swp}\n      swp1: {type: swp}\n",
            4,
        ),
        ("- set:\n    interface:\n      swp1-99999999: {}\n", 3),
        ("- set:\n    a: *x\n", 2),
        ("- unset:\n    interface: {}\n", 1),
        ("nv set interface swp1 type swp\nshow running-config\n", 2),
        ("nv set interface swp1 description 'open\n", 1),
        ("cumulus@leaf01:mgmt:~$ nv config show\n- set: {}\n", 1),
    ];
    for (text, line) in cases {
        let e = Config::parse(text).expect_err(text);
        assert_eq!(e.line, line, "{text:?}: {e:?}");
    }
    let golden = std::fs::read_to_string(root().join("golden/spectrum-x/leaf01.cfg")).unwrap();
    let stale = golden.replacen(
        "# nv set system hostname leaf01",
        "# nv set system hostname leaf09",
        1,
    );
    assert!(
        Config::parse(&stale).is_err(),
        "a review block that says otherwise is refused"
    );
    // The YAML above the review block is read alone when the block is as written: the
    // same tree as the whole text read by the YAML parser. Anything after the block is
    // read (and refused), never skipped.
    let whole = tree::parse_events(&golden).unwrap();
    assert_eq!(Config::parse(&golden).unwrap().set, whole.set);
    for tail in [
        "- set:\n    system:\n      hostname: leaf09\n",
        "x\n",
        "# nv set x\n",
    ] {
        let text = format!("{golden}{tail}");
        let e = Config::parse(&text).expect_err(tail);
        assert!(e.line > golden.lines().count() / 2, "{tail:?}: {e:?}");
    }
}

/// A key path with its names (interfaces, addresses, numbers, profiles) as `*`.
fn shape(path: &[String]) -> String {
    const NAMED: &[&str] = &[
        "interface",
        "member",
        "vlan",
        "address",
        "gateway",
        "neighbor",
        "network",
        "traffic-class",
        "dscp",
        "switch-priority",
        "traffic-pool",
        "backup",
        "breakout",
        "domain",
        "server",
        "class",
        "role",
        "user",
        "peer-group",
        "congestion-control",
        "egress-scheduler",
        "mapping",
        "pfc",
        "state",
    ];
    let mut out = Vec::new();
    for (i, w) in path.iter().enumerate() {
        let named = i > 0
            && NAMED.contains(&path[i - 1].as_str())
            && !(path[i - 1] == "vlan" && i >= 2 && path[i - 2].starts_with("swp"));
        out.push(if named { "*" } else { w.as_str() });
    }
    out.join(" ")
}

fn shapes(t: &Tree) -> BTreeSet<String> {
    tree::commands(t).iter().map(|c| shape(&c.path)).collect()
}

/// Objects the goldens write that no configuration of the corpus holds, each with the
/// documentation that spells it (`../shared/reference/cumulus-nvue.md`): the QoS objects
/// (§5, §6: DOC-ROCE, DOC-QOS, DOC-REF QoS), BFD on a neighbor (§7: the oxidized capture's
/// peer group has it; DOC-REF), timers, the breakout (§3: DOC-REF Interface link).
const DOCUMENTED: &[&str] = &[
    "interface * link breakout *",
    "interface * link speed",
    "interface * qos pfc-watchdog",
    "qos roce enable",
    "qos roce mode",
    "qos roce state",
    "qos pfc * switch-priority *",
    "qos pfc * tx",
    "qos pfc * rx",
    "qos mapping * trust",
    "qos mapping * dscp * switch-priority",
    "qos congestion-control * traffic-class * min-threshold",
    "qos congestion-control * traffic-class * max-threshold",
    "qos congestion-control * traffic-class * probability",
    "qos congestion-control * traffic-class * ecn",
    "qos egress-scheduler * traffic-class * mode",
    "qos egress-scheduler * traffic-class * bw-percent",
    "qos traffic-pool * memory-percent",
    "qos traffic-pool * switch-priority *",
    "vrf default router bgp neighbor * bfd enable",
    "vrf default router bgp neighbor * bfd detect-multiplier",
    "vrf default router bgp neighbor * bfd min-rx-interval",
    "vrf default router bgp neighbor * bfd min-tx-interval",
];

/// Every object the example's goldens write is one the corpus's real configurations hold, at
/// the same place in the tree, or one the documentation spells ([`DOCUMENTED`]): an unknown
/// key fails.
#[test]
fn the_goldens_write_only_objects_nvue_has() {
    let mut known: BTreeSet<String> = real_configs()
        .iter()
        .flat_map(|(_, t)| shapes(&Config::parse(t).unwrap().set))
        .collect();
    known.extend(DOCUMENTED.iter().map(|s| s.to_string()));
    let dir = root().join("golden/spectrum-x");
    let mut files = 0;
    for f in std::fs::read_dir(&dir).unwrap() {
        let f = f.unwrap().path();
        let c = Config::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let unknown: Vec<String> = shapes(&c.set)
            .into_iter()
            .filter(|s| !known.contains(s))
            .collect();
        assert!(
            unknown.is_empty(),
            "{}: objects no NVUE file has: {unknown:#?}",
            f.display()
        );
        files += 1;
    }
    assert_eq!(files, 6);
    // The check can fail: a key NVUE does not have is caught.
    let mut bad = Tree::new();
    tree::set(
        &mut bad,
        &["interface", "swp1", "link", "mtu-size"],
        Node::Leaf("9216".into()),
    );
    assert!(!known.contains(&shape(&tree::commands(&bad)[0].path)));
}

const MIXED: &str = "
lldp: true
qos:
  preset: roce-lossless
routing:
  spine: { asn: 65000, loopbacks: 10.255.0.0/28 }
  leaf: { asn_base: 65100, loopbacks: 10.255.1.0/24 }
  links: 10.254.0.0/20
port_defaults:
  mtu: 9216
profiles:
  hundred: { speed: 100G }
switches:
  spine01: { model: SN3700, role: spine }
  leaf01: { os: cumulus, cumulus: 5.9.2, model: SN3700C, role: leaf LEAF }
links:
  - { a: leaf01:swp31, b: spine01:1/1, profile: hundred }
";

fn validate(leaf: &str) -> Result<fabric::fabric::Fabric, String> {
    let yaml = MIXED.replace(" LEAF", leaf);
    let mut sources = Sources::default();
    let loaded = fabric::fabric::parse_bytes("mixed.yaml", yaml.into_bytes(), &mut sources)
        .map_err(|d| render(&[d], &sources, false))?;
    let (f, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).cloned().collect();
    match (f, errors.is_empty()) {
        (Some(f), true) => Ok(f),
        _ => Err(render(&errors, &sources, false)),
    }
}

/// A Cumulus leaf cabled to an Onyx spine: the cable's ends are checked across the two OSes
/// (speed, MTU, PFC, ETS), each named as its OS names it, and the cable is numbered (BGP
/// unnumbered is between two Cumulus switches only).
#[test]
fn a_cumulus_leaf_on_an_onyx_spine_checks_both_ends() {
    let f = validate("").expect("the mixed fabric is valid");
    let leaf = &f
        .switches
        .iter()
        .find(|(n, _)| n.as_str() == "leaf01")
        .unwrap()
        .1;
    let routing = leaf.routing.as_ref().unwrap();
    let (addr, nb) = routing.neighbors.iter().next().unwrap();
    assert!(!nb.unnumbered, "a cable to Onyx keeps its addresses");
    let compiled = fabric::compile::compile(&f);
    let leaf = compiled
        .iter()
        .find(|(n, _)| n.as_str() == "leaf01")
        .unwrap()
        .1;
    let c: &Config = leaf.as_any().downcast_ref().unwrap();
    let at = [
        "vrf",
        "default",
        "router",
        "bgp",
        "neighbor",
        &addr.to_string(),
        "type",
    ];
    assert_eq!(tree::value(&c.set, &at), Some("numbered"));
    assert_eq!(
        tree::names(&c.set, &["interface", "swp31", "ip", "address"]).len(),
        1
    );
    for (port, code, what) in [
        (
            "{ mtu: 1500 }",
            "E051",
            "`mtu`: `leaf01` swp31 has 1500, `spine01` 1/1 has 9216",
        ),
        ("{ speed: 40G }", "E051", "`speed`: `leaf01` swp31 has 40G"),
        ("{ pfc: false }", "E051", "`pfc`: `leaf01` swp31 has no PFC"),
        ("{ ets: { 3: 40, 6: strict } }", "E051", "`ets`"),
    ] {
        let e = validate(&format!(", ports: {{ swp31: {port} }}")).expect_err(port);
        assert!(e.contains(code) && e.contains(what), "{port}: {e}");
    }
}

/// Between two Cumulus switches the example runs BGP unnumbered: sessions by port, no address
/// on the cable's ports.
#[test]
fn the_example_peers_unnumbered() {
    let leaf = std::fs::read_to_string(root().join("golden/spectrum-x/leaf01.cfg")).unwrap();
    let c = Config::parse(&leaf).unwrap();
    let nb = ["vrf", "default", "router", "bgp", "neighbor"];
    assert_eq!(
        tree::names(&c.set, &nb),
        ["swp33", "swp34", "swp35", "swp36"]
    );
    for p in ["swp33", "swp34", "swp35", "swp36"] {
        assert_eq!(
            tree::value(&c.set, &[&nb[..], &[p, "type"]].concat()),
            Some("unnumbered")
        );
        assert!(
            tree::names(&c.set, &["interface", p, "ip", "address"]).is_empty(),
            "{p}"
        );
    }
    assert_eq!(
        tree::value(&c.set, &["qos", "roce", "mode"]),
        Some("lossless")
    );
    assert!(Path::new(&root().join("fabrics/spectrum-x.yaml")).exists());
}

/// NVUE's QoS is one profile for the switch: ports in use that differ in it are E075, at the
/// line that gives the differing port its value.
#[test]
fn ports_that_differ_in_switch_wide_qos_are_refused() {
    let yaml = "
qos:
  preset: roce-lossless
switches:
  leaf01:
    os: cumulus
    model: SN3700C
    ports:
      swp1-8: { admin: up }
      swp9: { ecn: { 3: { min: 300, max: 3000 } } }
";
    let mut sources = Sources::default();
    let loaded =
        fabric::fabric::parse_bytes("wide.yaml", yaml.as_bytes().to_vec(), &mut sources).unwrap();
    let (f, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    assert!(f.is_none());
    let text = render(&diags, &sources, false);
    assert!(
        text.contains("error[E075]")
            && text.contains("swp9 has tc 3")
            && text.contains("wide.yaml:10:"),
        "{text}"
    );
    let same = yaml.replace(
        "swp9: { ecn: { 3: { min: 300, max: 3000 } } }",
        "swp9: { admin: up }",
    );
    let loaded = fabric::fabric::parse_bytes("wide.yaml", same.into_bytes(), &mut sources).unwrap();
    assert!(
        fabric::fabric::validate(&loaded.raw, loaded.file)
            .0
            .is_some()
    );
}

/// The fuzz target's check (`fuzz/checks.rs` `parse_nvue`) holds on every real configuration,
/// every golden and the seeds: each parses, and its printed text is a fixed point.
#[test]
fn the_nvue_fuzz_check_holds_on_real_inputs() {
    let mut inputs: Vec<Vec<u8>> = real_configs()
        .into_iter()
        .map(|(_, t)| t.into_bytes())
        .collect();
    for dir in ["golden/spectrum-x", "fuzz/seeds/parse_nvue"] {
        for f in std::fs::read_dir(root().join(dir)).unwrap() {
            inputs.push(std::fs::read(f.unwrap().path()).unwrap());
        }
    }
    assert!(inputs.len() >= 14, "{}", inputs.len());
    for data in inputs {
        crate::fuzz_checks::parse_nvue(&data);
    }
}

/// A BGP neighbor named by its port (`bgp.neighbors: [{ port }]`) is NVUE's unnumbered
/// neighbor on that port, with its remote AS (`external`, `internal` or a number), BFD and
/// timers; on Onyx, which peers over no port, it is E128 at the port, naming the OS.
#[test]
fn a_neighbor_named_by_its_port_compiles_on_cumulus_and_is_refused_on_onyx() {
    let yaml = "
switches:
  leaf01:
    os: cumulus
    cumulus: 5.14.0
    model: SN5600
    asn: 65101
    loopback: 10.255.1.1
    bgp:
      bfd: { interval: 200 }
      neighbors:
        - { port: swp33, remote_as: external, bfd: true, timers: { keepalive: 3, hold: 9 } }
        - { port: swp34, remote_as: internal }
        - { port: swp35, remote_as: 65000 }
        - { address: 127.0.0.2, remote_as: 65002 }
    ports:
      swp33-35: { mtu: 9216 }
";
    let mut sources = Sources::default();
    let loaded =
        fabric::fabric::parse_bytes("port.yaml", yaml.as_bytes().to_vec(), &mut sources).unwrap();
    let (f, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let f = f.unwrap_or_else(|| panic!("{}", render(&diags, &sources, false)));
    let compiled = fabric::compile::compile(&f);
    let (_, leaf) = compiled.iter().next().unwrap();
    let c: &Config = leaf.as_any().downcast_ref().unwrap();
    let nb = ["vrf", "default", "router", "bgp", "neighbor"];
    let v = |rest: &[&str]| tree::value(&c.set, &[&nb[..], rest].concat()).map(str::to_string);
    assert_eq!(
        tree::names(&c.set, &nb),
        ["127.0.0.2", "swp33", "swp34", "swp35"]
    );
    for (port, remote) in [
        ("swp33", "external"),
        ("swp34", "internal"),
        ("swp35", "65000"),
    ] {
        assert_eq!(v(&[port, "type"]).as_deref(), Some("unnumbered"), "{port}");
        assert_eq!(v(&[port, "remote-as"]).as_deref(), Some(remote), "{port}");
        assert!(
            tree::names(&c.set, &["interface", port, "ip", "address"]).is_empty(),
            "{port}"
        );
        assert_eq!(
            tree::value(&c.set, &["interface", port, "link", "mtu"]),
            Some("9216")
        );
    }
    assert_eq!(v(&["127.0.0.2", "type"]).as_deref(), Some("numbered"));
    assert_eq!(
        v(&["swp33", "bfd", "min-tx-interval"]).as_deref(),
        Some("200")
    );
    assert_eq!(v(&["swp33", "timers", "hold"]).as_deref(), Some("9"));
    assert_eq!(v(&["swp34", "bfd", "min-tx-interval"]), None);
    assert_eq!(v(&["swp34", "timers", "hold"]), None);

    let onyx = yaml
        .replace(
            "    os: cumulus\n    cumulus: 5.14.0\n    model: SN5600",
            "    model: SN3700",
        )
        .replace("swp33-35", "1/29-1/31")
        .replace("port: swp33", "port: 1/29")
        .replace("port: swp34", "port: 1/30")
        .replace("port: swp35", "port: 1/31");
    let loaded = fabric::fabric::parse_bytes("onyx.yaml", onyx.into_bytes(), &mut sources).unwrap();
    let (f, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    assert!(f.is_none());
    let text = render(&diags, &sources, false);
    let refused: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(refused.len(), 3, "{text}");
    for (line, port) in [(10, "1/29"), (11, "1/30"), (12, "1/31")] {
        assert!(
            text.contains(&format!("--> onyx.yaml:{line}:19")) && text.contains(port),
            "{text}"
        );
    }
    assert!(
        refused
            .iter()
            .all(|d| d.code == "E128" && d.message.contains("runs Onyx")),
        "{text}"
    );
}

/// A Cumulus MLAG pair: the IPL's bundle is the `peerlink` (in the bridge, with its
/// `peerlink.4094`), an MLAG bundle a bond with its `bond mlag id`, the pair's MAC and the
/// peer's IPL address as backup; the IPL's VLAN is Onyx's and OS10's term, not in the bridge.
#[test]
fn a_cumulus_mlag_pair_compiles_as_nvue_writes_one() {
    let yaml =
        std::fs::read_to_string(root().join("tests/fixtures/cumulus/mlag-pair.yaml")).unwrap();
    let mut sources = Sources::default();
    let loaded =
        fabric::fabric::parse_bytes("mlag-pair.yaml", yaml.into_bytes(), &mut sources).unwrap();
    let (f, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let f = f.unwrap_or_else(|| panic!("{}", render(&diags, &sources, false)));
    let compiled = fabric::compile::compile(&f);
    for (name, backup) in [("leaf01", "10.254.255.2"), ("leaf02", "10.254.255.1")] {
        let t = &compiled.iter().find(|(n, _)| n.as_str() == name).unwrap().1;
        let c: &Config = t.as_any().downcast_ref().unwrap();
        let v = |p: &[&str]| tree::value(&c.set, p).map(str::to_string);
        let has = |p: &[&str]| tree::get(&c.set, p).is_some();
        assert_eq!(
            v(&["interface", "peerlink", "type"]).as_deref(),
            Some("peerlink"),
            "{name}"
        );
        assert!(
            has(&["interface", "peerlink", "bond", "member", "swp31"]),
            "{name}"
        );
        assert!(
            has(&["interface", "peerlink", "bridge", "domain", "br_default"]),
            "{name}"
        );
        assert_eq!(
            v(&["interface", "peerlink.4094", "base-interface"]).as_deref(),
            Some("peerlink")
        );
        assert_eq!(
            v(&["interface", "bond2", "bond", "mlag", "id"]).as_deref(),
            Some("2")
        );
        assert!(has(&["interface", "bond2", "bond", "member", "swp2"]));
        assert_eq!(
            v(&["mlag", "mac-address"]).as_deref(),
            Some("44:38:39:BE:EF:AA")
        );
        assert!(has(&["mlag", "backup", backup]), "{name}");
        assert_eq!(
            tree::names(&c.set, &["bridge", "domain", "br_default", "vlan"]),
            ["10"]
        );
    }
}
