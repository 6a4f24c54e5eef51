//! One mistake, one error: a new user's single slips in a shipped fabric each give at most
//! three diagnostics, the first at the line that must change, and what follows from the slip
//! is folded under it.

use fabric::diag::Sources;

use crate::root;

/// A fabric's text with one edit: `old` replaced by `new` (which must be there once).
fn edited(fabric: &str, old: &str, new: &str) -> String {
    let text = std::fs::read_to_string(root().join("fabrics").join(fabric)).unwrap();
    assert_eq!(text.matches(old).count(), 1, "{fabric}: `{old}`");
    text.replace(old, new)
}

/// The diagnostics of a fabric text as `fabric validate` reads it (load and validation),
/// rendered, and the 1-based line of each one's primary label.
fn diagnose(name: &str, text: &str) -> (String, Vec<usize>) {
    let dir = crate::scratch(&format!("mistake-{name}"));
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, text).unwrap();
    let mut sources = Sources::default();
    let (_, diags) = fabric::fabric::read(&path, &mut sources).unwrap();
    let lines = diags
        .iter()
        .map(|d| {
            let l = d.primary.as_ref().expect("located");
            sources.line_col(l.span.file, l.span.start).0
        })
        .collect();
    (fabric::diag::render(&diags, &sources, false), lines)
}

/// The line `needle` is on in `text` (1-based; it must be there once).
fn line_of(text: &str, needle: &str) -> usize {
    let at: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(at.len(), 1, "`{needle}` on lines {at:?}");
    at[0]
}

/// One slip: its fabric, the edit, the code of the first diagnostic, the text on the line to
/// change, and how many diagnostics at most.
struct Slip {
    name: &'static str,
    fabric: &'static str,
    old: &'static str,
    new: &'static str,
    code: &'static str,
    line: &'static str,
    most: usize,
}

const SLIPS: &[Slip] = &[
    // The new user's five, on the mixed pod.
    Slip {
        name: "cable-mtu",
        fabric: "gpu-pod.yaml",
        old: "port: ens1f0 } }\n  leaf02:",
        new: "port: ens1f0 } }\n      1/31: { mtu: 9000 }\n  leaf02:",
        code: "E051",
        line: "1/31: { mtu: 9000 }",
        most: 1,
    },
    Slip {
        name: "duplicate-asn",
        fabric: "gpu-pod.yaml",
        old: "port: 2264, user: admin }",
        new: "port: 2264, user: admin }\n    asn: 65101",
        code: "E113",
        line: "asn: 65101",
        most: 1,
    },
    Slip {
        name: "undeclared-nic-port",
        fabric: "gpu-pod.yaml",
        old: "port: ens1f1 } }\n  leaf03:",
        new: "port: ens1f2 } }\n  leaf03:",
        code: "E131",
        line: "port: ens1f2",
        most: 1,
    },
    Slip {
        name: "lossless-without-pfc-onyx",
        fabric: "gpu-pod.yaml",
        old: "port: 2263, user: admin }",
        new: "port: 2263, user: admin }\n    qos: { pfc: { priorities: [4] } }",
        code: "E032",
        line: "priorities: [4]",
        most: 1,
    },
    Slip {
        name: "lossless-without-pfc-os10",
        fabric: "gpu-pod.yaml",
        old: "port: 2265, user: admin }",
        new: "port: 2265, user: admin }\n    qos: { pfc: { priorities: [4] } }",
        code: "E032",
        line: "priorities: [4]",
        most: 1,
    },
    Slip {
        name: "typo-key",
        fabric: "gpu-pod.yaml",
        old: "  mtu: 9216         # every port",
        new: "  mtuu: 9216         # every port",
        code: "E010",
        line: "mtuu: 9216",
        most: 3,
    },
    // The floods the review found.
    Slip {
        name: "host-nic-typo",
        fabric: "ml-cluster.yaml",
        old: "      ens1f0: { rdma: mlx5_0 }",
        new: "      ens1fo: { rdma: mlx5_0 }",
        code: "E131",
        line: "ens1fo: { rdma: mlx5_0 }",
        most: 1,
    },
    Slip {
        name: "bad-port-range",
        fabric: "ml-cluster.yaml",
        old: "1/1/1-1/1/4: { profile: roce-host, peer: { host: \"gpu{001..004}\"",
        new: "1/1/1-1/1/5: { profile: roce-host, peer: { host: \"gpu{001..004}\"",
        code: "E041",
        line: "1/1/1-1/1/5",
        most: 1,
    },
    Slip {
        name: "switch-written-twice",
        fabric: "ml-cluster.yaml",
        old: "  leaf02:\n",
        new: "  leaf01:\n",
        code: "E013",
        line: "gateway of gpu033-gpu064",
        most: 1,
    },
    Slip {
        name: "preset-without-pfc",
        fabric: "ml-cluster.yaml",
        old: "  preset: roce-lossless   # hosts",
        new: "  pfc: false\n  preset: roce-lossless   # hosts",
        code: "E038",
        line: "pfc: false",
        most: 1,
    },
    Slip {
        name: "pfc-off-on-one-vlt-peer",
        fabric: "vcf-bitfusion.yaml",
        old: "  leaf-a:\n    model: S5248F-ON\n",
        new: "  leaf-a:\n    model: S5248F-ON\n    qos: { pfc: false }\n",
        code: "E051",
        line: "qos: { pfc: false }",
        most: 1,
    },
    // Strings a switch is given, each by its OS's rule (`fabric::strings`): an MLAG domain
    // is one bare word on Onyx's `mlag-vip` line; OS10 refuses `!` and `#` in text.
    Slip {
        name: "mlag-domain-command",
        fabric: "vsphere-mlag.yaml",
        old: "domain: vsphere-mlag ",
        new: "domain: \"x; no lldp\" ",
        code: "E024",
        line: "domain: \"x; no lldp\"",
        most: 1,
    },
    Slip {
        name: "mlag-domain-words",
        fabric: "vsphere-mlag.yaml",
        old: "domain: vsphere-mlag ",
        new: "domain: no shutdown ",
        code: "E024",
        line: "domain: no shutdown",
        most: 1,
    },
    Slip {
        name: "os10-switch-vlan-name",
        fabric: "gpu-pod.yaml",
        old: "name: rail0-os10,",
        new: "name: \"rail0 #os10\",",
        code: "E024",
        line: "rail0 #os10",
        most: 1,
    },
    Slip {
        name: "fabric-vlan-name-on-os10",
        fabric: "vcf-bitfusion.yaml",
        old: "{ id: 10, name: mgmt }",
        new: "{ id: 10, name: \"mgmt!\" }",
        code: "E024",
        line: "mgmt!",
        most: 1,
    },
];

#[test]
fn each_slip_is_one_error_at_the_line_to_change() {
    for s in SLIPS {
        let text = edited(s.fabric, s.old, s.new);
        let (out, lines) = diagnose(s.name, &text);
        assert!(
            !lines.is_empty() && lines.len() <= s.most,
            "{}: {} diagnostics\n{out}",
            s.name,
            lines.len()
        );
        assert!(
            out.starts_with(&format!("error[{}]", s.code)),
            "{}: {out}",
            s.name
        );
        // A switch written twice is reported at its second key, four lines above its VLANs.
        let want = if s.name == "switch-written-twice" {
            line_of(&text, s.line) - 4
        } else {
            line_of(&text, s.line)
        };
        assert_eq!(lines[0], want, "{}: {out}", s.name);
    }
}

/// Diagnostics of one mistake are folded under the first, and the rest are sorted by their
/// place in the file.
#[test]
fn folded_diagnostics_say_what_else_follows_and_keep_file_order() {
    let text = edited(
        "ml-cluster.yaml",
        "1/1/1-1/1/4: { profile: roce-host, peer: { host: \"gpu{001..004}\"",
        "1/1/1-1/1/5: { profile: roce-host, peer: { host: \"gpu{001..004}\"",
    );
    let (out, _) = diagnose("fold", &text);
    assert!(
        out.contains("note: this line also causes E130: `gpu001` port `ens1f0` is cabled to no switch port (and 3 more like it)"),
        "{out}"
    );
    let text = edited(
        "ml-cluster.yaml",
        "  mtu: 9216           # hosts",
        "  mtu: 1500           # hosts",
    )
    .replace(
        "  leaf02:\n    model: SN3700\n",
        "  leaf02:\n    model: SN3700\n    asn: 65101\n",
    );
    let (out, lines) = diagnose("order", &text);
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted, "{out}");
}
