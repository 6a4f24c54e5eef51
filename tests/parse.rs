//! Reading `show running-config` back into the model, proven on every real capture in
//! `tests/fixtures/corpus/onyx/` (the test walks the folder: new captures are picked up), on the
//! recorded terminal sessions, on the reference session, and on every golden file.

use std::path::{Path, PathBuf};

use fabric::onyx::{Config, Iface, Renderer, parse};
use fabric::types::{Port, Speed, Trust, Vlan};

use crate::shared;

fn corpus() -> Vec<PathBuf> {
    let dir = shared().join("corpus/onyx");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cfg"))
        .collect();
    v.sort();
    v
}

/// A full capture: a database header and the closing prefix-mode section.
fn is_full(text: &str) -> bool {
    (text.contains("## Running database") || text.contains("## Active saved database"))
        && text.contains("## Persistent prefix mode setting")
}

/// Lines as the round trip compares them: trimmed, blank lines and `Generated at` dropped.
fn significant(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty() && !l.starts_with("## Generated at"))
        .collect()
}

fn read(path: &Path) -> String {
    String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned()
}

fn load(name: &str) -> Config {
    let path = shared().join("corpus/onyx").join(name);
    parse(&read(&path)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn eth(p: &str) -> Iface {
    Iface::Ethernet(p.parse::<Port>().unwrap())
}

#[test]
fn every_full_capture_round_trips_line_for_line() {
    let renderer = Renderer::embedded().unwrap();
    let mut full = 0;
    for path in corpus() {
        let text = read(&path);
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let config = parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        if !is_full(&text) || name.contains("fragment") {
            continue;
        }
        full += 1;
        let out = renderer.render(&config).unwrap();
        let (want, got) = (significant(&text), significant(&out));
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            assert_eq!(
                w,
                g,
                "{name}: line {} of the significant lines differs",
                i + 1
            );
        }
        assert_eq!(
            want.len(),
            got.len(),
            "{name}: {} lines in, {} out",
            want.len(),
            got.len()
        );
        // And the canonical text reads back to the same model.
        assert_eq!(parse(&out).unwrap(), config, "{name}");
    }
    assert!(full >= 6, "only {full} full captures");
}

#[test]
fn every_capture_parses_without_a_crash() {
    for path in corpus() {
        let text = read(&path);
        let config = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Renderer::embedded().unwrap().render(&config).unwrap();
    }
}

#[test]
fn ranges_set_every_member() {
    let c = load("cray-docs-csm__hpcm_switch_conf_spine_001__3.9.3210.cfg");
    // `interface ethernet 1/1-1/9 speed 40G force`
    let speed = |p: &str| {
        c.interfaces
            .get(&eth(p))
            .and_then(|e| e.speed)
            .map(|s| s.speed)
    };
    assert_eq!(speed("1/5"), Some(Speed::G40));
    assert_eq!(speed("1/9"), Some(Speed::G40));
    assert_eq!(speed("1/10"), None);
    assert_eq!(speed("1/15"), Some(Speed::G10));
    // `interface mlag-port-channel 1-9 no shutdown`: MLAG port-channels start down.
    assert_eq!(
        c.interfaces[&Iface::MlagPortChannel(5)].shutdown,
        Some(false)
    );
    assert!(c.interfaces[&Iface::MlagPortChannel(5)].created);
    let g = c.interfaces[&eth("1/14")].channel_group.unwrap();
    assert_eq!((g.mlag, g.id), (false, 100));
    let hybrid = c.interfaces[&Iface::MlagPortChannel(15)]
        .allowed
        .as_ref()
        .unwrap();
    let vlans: Vec<u16> = hybrid.vlans.iter().map(|v| v.get()).collect();
    assert_eq!(vlans, [1999, 4091]);
    assert_eq!(
        c.vlans[&Vlan::new(1999).unwrap()].name.as_deref(),
        Some("OSPF")
    );
    assert!(c.pfc.enabled);
    assert!(c.interfaces[&Iface::PortChannel(100)].pfc);
    // The header's hostname and the `hostname` command differ in this capture; both are kept.
    assert_eq!(c.header.hostname, "sw-spine01");
    assert_eq!(c.hostname.as_deref(), Some("sw-spine-001"));

    let c2 = load("cray-docs-csm__hpcm_switch_conf_spine_002__3.9.3210.cfg");
    assert_eq!(
        c2.interfaces[&eth("1/10")].speed.map(|s| s.speed),
        Some(Speed::G40)
    );
    assert_eq!(c2.interfaces[&eth("1/5")].shutdown, Some(true));
}

/// Spanning tree on ports and bundles and `lacp-individual` read into the model (Cray's CSM
/// spines and their STP fragment), not kept as verbatim lines; only the switch-wide STP lines
/// (mode, defaults, VLAN priorities) stay verbatim, in place.
#[test]
fn spanning_tree_and_lacp_individual_lines_are_modeled() {
    use fabric::types::{StpGuard, StpPortType};
    let verbatim = |c: &Config| -> Vec<String> {
        c.layout
            .sections
            .iter()
            .flat_map(|s| s.verbatim.iter().map(|(_, l)| l.trim().to_string()))
            .filter(|l| l.contains("spanning-tree") || l.contains("lacp-individual"))
            .collect()
    };
    for name in [
        "cray-docs-csm__hpcm_switch_conf_spine_001__3.9.3210.cfg",
        "cray-docs-csm__hpcm_switch_conf_spine_002__3.9.3210.cfg",
    ] {
        let c = load(name);
        for n in 1..=9 {
            let e = &c.interfaces[&Iface::MlagPortChannel(n)];
            assert_eq!(e.stp_type, Some(StpPortType::Edge), "{name}: {n}");
            assert!(e.lacp_individual, "{name}: {n}");
            assert_eq!(e.stp_guard, None);
        }
        let e = &c.interfaces[&Iface::MlagPortChannel(15)];
        assert_eq!(e.stp_type, Some(StpPortType::Network));
        assert_eq!(e.stp_guard, Some(StpGuard::Root));
        assert!(!e.lacp_individual);
        assert_eq!(
            c.interfaces[&Iface::PortChannel(100)]
                .description
                .as_deref(),
            Some("mlag-isl")
        );
        let kept = verbatim(&c);
        assert_eq!(kept.len(), 5, "{name}: {kept:?}");
        assert!(!kept.iter().any(|l| l.starts_with("interface")), "{kept:?}");
    }
    let path =
        shared().join("corpus/onyx/more/cray-docs-csm__sw-spine__running-config_fragment_stp.txt");
    let c = parse(&read(&path)).unwrap();
    for i in [eth("1/13"), eth("1/14"), eth("1/15/1"), eth("1/15/2")]
        .into_iter()
        .chain([113, 151, 152].map(Iface::MlagPortChannel))
    {
        let e = &c.interfaces[&i];
        assert_eq!(e.stp_type, Some(StpPortType::Network), "{i}");
        assert_eq!(e.stp_guard, Some(StpGuard::Root), "{i}");
    }
    assert!(!verbatim(&c).iter().any(|l| l.starts_with("interface")));
    // Printed back in the section and order the switch prints them.
    let out = Renderer::embedded().unwrap().render(&c).unwrap();
    let stp: Vec<&str> = out
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("spanning-tree"))
        .collect();
    let text = read(&path);
    let want: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.contains("spanning-tree"))
        .collect();
    assert_eq!(stp, want);
}

#[test]
fn range_ecn_gives_each_port_the_thresholds() {
    let c = load("oxidized__mlnxos_Onyx_3.9.2504_output_fragment.cfg");
    assert_eq!(c.roce, Some(fabric::types::RoceMode::Lossy));
    let tc3 = fabric::types::TrafficClass::new(3).unwrap();
    for p in 1..=32 {
        let e = c.interfaces[&eth(&format!("1/{p}"))].ecn[&tc3];
        assert_eq!(
            e.thresholds,
            fabric::types::EcnThresholds::Relative { min: 75, max: 95 }
        );
    }
}

#[test]
fn older_captures_keep_their_spelling() {
    let c = load("intel-mfd__show_running_config.cfg");
    assert_eq!(c.interfaces[&eth("1/16")].access_vlan, Vlan::new(1000).ok());
    let trunk = c.interfaces[&eth("1/1")].allowed.as_ref().unwrap();
    assert!(!trunk.all, "`allowed-vlan none` then the VLANs added back");
    assert_eq!(
        trunk.vlans.iter().map(|v| v.get()).collect::<Vec<_>>(),
        [123]
    );
    assert_eq!(
        c.interfaces[&eth("1/1")].description.as_deref(),
        Some("TRUNK TO Dell7048")
    );
    assert!(!c.quoted, "this release prints descriptions without quotes");
    assert_eq!(
        c.interfaces[&eth("1/10")].speed.map(|s| s.speed),
        Some(Speed::G10)
    );
    assert_eq!(c.interfaces[&eth("1/4")].shutdown, Some(true));

    let a = load("ansible-onyx__onyx_config_config.cfg");
    assert_eq!(a.licenses, ["11223344"]);
    assert!(a.lldp);
    assert!(a.interfaces[&eth("1/8")].pfc);
    assert_eq!(
        a.interfaces[&Iface::MlagPortChannel(2)].access_vlan,
        Vlan::new(101).ok()
    );
}

/// The reference guide's own session, with its prompt lines, reads into the fabric's intent.
#[test]
fn the_reference_session_reads_into_the_model() {
    let text = std::fs::read_to_string(shared().join("reference/rdg-roce-dscp.switch-session.txt"))
        .unwrap();
    let body: String = text
        .lines()
        .skip_while(|l| !l.ends_with("show running-config"))
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect();
    let c = parse(&body).unwrap();
    let pool = &c.pools["roce"];
    assert_eq!(pool.kind, Some(fabric::types::PoolType::Lossless));
    assert_eq!(pool.memory.map(|m| m.to_string()).as_deref(), Some("50.00"));
    assert_eq!(c.interfaces[&eth("1/20")].trust, Some(Trust::L3));
    assert_eq!(c.interfaces.len(), 32);
    assert_eq!(c.hostname.as_deref(), Some("swx-mld-1-2"));
}

/// Every golden file reads back to exactly the model it was rendered from.
#[test]
fn goldens_read_back_to_the_compiled_model() {
    let renderer = Renderer::embedded().unwrap();
    for path in crate::fabrics() {
        let mut sources = fabric::diag::Sources::default();
        let (fab, _) = fabric::fabric::read(&path, &mut sources).unwrap();
        // OS10 switches' goldens read back in tests/os10.rs.
        for (name, config) in fabric::onyx::compile::fabric(&fab.unwrap()) {
            let text = renderer.render(&config).unwrap();
            assert_eq!(parse(&text).unwrap(), config, "{name}");
        }
    }
}

/// oxidized's recorded SSH sessions (Onyx 3.9.2504 and 3.10.4504): `show running-config`
/// through the pager, with `\r`, ANSI escapes, NUL padding and backspaces.
#[test]
fn recorded_terminal_sessions_are_cleaned_and_read() {
    let dir = shared().join("corpus/onyx/show");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.contains("simulation") {
            continue;
        }
        let doc: serde_json::Value = serde_saphyr::from_str(&read(&path)).unwrap();
        let commands: Vec<(String, String)> = match &doc["commands"] {
            serde_json::Value::Array(list) => list
                .iter()
                .filter_map(|m| {
                    m.as_object()?
                        .iter()
                        .next()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                })
                .collect(),
            serde_json::Value::Object(map) => map
                .iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
                .collect(),
            _ => continue,
        };
        let Some(start) = commands
            .iter()
            .position(|(k, _)| k.trim() == "show running-config")
        else {
            continue;
        };
        // The output, then whatever the pager showed after each space.
        let mut session = String::new();
        for (k, out) in &commands[start..] {
            if session.is_empty() || k.trim().is_empty() {
                session += &unescape(out);
            } else {
                break;
            }
        }
        seen += 1;
        let cleaned = fabric::onyx::clean(&session);
        assert!(
            !cleaned.contains(['\x1b', '\0', '\x08', '\r']),
            "{name}: noise left"
        );
        assert!(
            !cleaned
                .lines()
                .any(|l| l.trim_start().starts_with("lines ")),
            "{name}: pager prompt left"
        );
        let c = parse(&session).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(c.header.release.is_some(), "{name}: header not read");
    }
    assert!(seen >= 2, "{seen} session recordings");
}

/// oxidized writes terminal bytes as escapes in its YAML block scalars.
fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('e') => out.push('\x1b'),
            Some('r') => out.push('\r'),
            Some('n') => out.push('\n'),
            Some('b') => out.push('\x08'),
            Some('0') => out.push('\0'),
            Some('a') => out.push('\x07'),
            Some('x') => {
                let hex: String = it.by_ref().take(2).collect();
                out.push(u8::from_str_radix(&hex, 16).map_or('?', char::from));
            }
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

#[test]
fn malformed_lines_are_located_errors() {
    for (text, line, col, want) in [
        (
            "##\n## Running database \"initial\"\n##\n\n   interface ethernet 1/x speed 40G force\n",
            5,
            23,
            "port",
        ),
        (
            "   traffic pool roce memory percent 500.00\n",
            1,
            37,
            "percentage",
        ),
        (
            "   interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150\n",
            1,
            86,
            "maximum-absolute",
        ),
        ("\n\n   vlan 5000\n", 3, 9, "VLAN"),
        (
            "   interface ethernet 1/1 description \"open\n",
            1,
            39,
            "\"",
        ),
    ] {
        let e = parse(text).unwrap_err();
        assert_eq!((e.line, e.column), (line, col), "{text:?}: {e:?}");
        assert!(e.expected.contains(want), "{text:?}: {e}");
    }
}

/// Found by the fuzzer: a fragment without header or sections (`show run int ethernet 1/16`,
/// its prompt line included) reads, prints, and reads back to the same model.
#[test]
fn a_fragment_prints_and_reads_back_to_itself() {
    let path =
        shared().join("corpus/onyx/cray-docs-csm__sw-spine-001__show_run_int_ethernet_1-16.cfg");
    let config = parse(&read(&path)).unwrap();
    let out = Renderer::embedded().unwrap().render(&config).unwrap();
    assert_eq!(parse(&out).unwrap(), config, "{out}");
}

/// Every capture, full or not, is a fixed point after one print: what the fuzzer checks on
/// random input.
#[test]
fn every_capture_reads_back_after_printing() {
    let renderer = Renderer::embedded().unwrap();
    for path in corpus() {
        let config = parse(&read(&path)).unwrap();
        let out = renderer.render(&config).unwrap();
        assert_eq!(parse(&out).unwrap(), config, "{}", path.display());
    }
}

/// Inputs the fuzzer once broke on (`fuzz/regressions/TARGET/`): each goes through its
/// target's check (`fuzz/checks.rs`, the code the fuzzer runs) and passes it: no panic, a
/// running config's canonical text a fixed point. Every target's folder is replayed, and each
/// folder names a target.
#[test]
fn fuzzer_finds_stay_fixed() {
    use crate::fuzz_checks as checks;
    let dir = crate::root().join("fuzz/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let folder = entry.unwrap().path();
        let target = folder.file_name().unwrap().to_string_lossy().into_owned();
        let check: fn(&[u8]) = match target.as_str() {
            "parse_running_config" => checks::parse_running_config,
            "parse_os10" => checks::parse_os10,
            "parse_nvue" => checks::parse_nvue,
            "load_fabric" => checks::load_fabric,
            "host_report" => checks::host_report,
            "ssh_config" => checks::ssh_config,
            _ => panic!("{}: not a fuzz target's folder", folder.display()),
        };
        for file in std::fs::read_dir(&folder).unwrap() {
            let path = file.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            if std::panic::catch_unwind(|| check(&data)).is_err() {
                panic!("{}: {target} fails on it again", path.display());
            }
            n += 1;
        }
    }
    assert!(n >= 7, "{n} regression files");
}

/// Texts that are not running configs, or hold a line of a modeled command that does not read
/// (one file per case in `tests/fixtures/bad-running/`): every reader of running configs
/// (`parse`, `audit --running`, `import`, `diff --intended`) refuses each with a located
/// error and exit 2, and writes nothing. The diagnostic `fabric parse` prints is snapshotted.
#[test]
fn what_is_not_a_running_config_is_refused_by_every_reader() {
    let scratch = crate::scratch("bad-running");
    let good = crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg");
    let mut count = 0;
    insta::glob!("fixtures/bad-running/*", |path| {
        count += 1;
        let name = format!(
            "tests/fixtures/bad-running/{}",
            path.file_name().unwrap().to_string_lossy()
        );
        let fabric = |args: &[&str]| {
            crate::run(
                std::process::Command::new(env!("CARGO_BIN_EXE_fabric"))
                    .args(args)
                    .current_dir(crate::root()),
            )
        };
        let (code, text) = fabric(&["parse", &name]);
        assert_eq!(code, 2, "{name}: {text}");
        assert!(
            text.contains("error[E") && text.contains(&format!("--> {name}:")),
            "{name}: not a located error:\n{text}"
        );
        insta::assert_snapshot!(text);
        let (code, text) = fabric(&["audit", "--running", &name]);
        assert_eq!(code, 2, "audit {name}: {text}");
        assert!(!text.contains("score"), "{text}");
        let out = scratch.join(format!("{count}.yaml"));
        let (code, text) = fabric(&["import", &name, "-o", out.to_str().unwrap()]);
        assert_eq!(code, 2, "import {name}: {text}");
        assert!(!out.exists(), "import wrote {}", out.display());
        let (code, text) = fabric(&[
            "diff",
            "--intended",
            good.to_str().unwrap(),
            "--running",
            &name,
        ]);
        assert_eq!(code, 2, "diff {name}: {text}");
    });
    assert!(count >= 20, "only {count} cases");
}

/// What the reader does accept without a header: lines of Onyx configuration, the prompt and
/// command of a pasted session, masked secrets.
#[test]
fn fragments_of_configuration_are_read() {
    for text in [
        "   interface ethernet 1/2 mtu 9216 force\n   lldp\n",
        "sw-spine-001 [standalone: master] # show run | include username\n   username admin password 7 $6$x\n# tacacs-server key ********\n",
        "   snmp-server community x ro\n   no ntp server 10.0.0.1 disable\n",
        "   interface ethernet 1/1 qos rewrite pcp\n   interface ethernet 1/1 traffic-class 3 bind switch-priority 3\n",
    ] {
        parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    }
}
