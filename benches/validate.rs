//! `fabric validate` at fabric scale, as a user runs it: the whole process (read, YAML, the
//! format's checks, every switch compiled and the RoCE audit with the link and fleet rules)
//! on generated routed leaf-spine fabrics of 1,000, 4,000 and 10,000 leaves (SN4600C, 60
//! host ports each with a peer, two uplinks to a pair of spines per 32 leaves, every link
//! declared, each a /31 with an eBGP session; AS numbers, loopbacks and gateway subnets
//! derived), and the 10,000-leaf fabric written one entry per port. Time and peak memory grow linearly
//! with the switches; the goal is 10,000 switches in under 2 s and 1 GB.
//!
//! `cargo bench --bench validate` (release build). Prints, per fabric, the median wall time
//! (and CPU time) of 5 runs of `fabric validate FILE` and the largest peak resident memory
//! among them.

use std::fmt::Write as _;
use std::path::Path;

mod common;

const RUNS: usize = 5;

const HEAD: &str = "onyx: 3.10.4206\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nvlans:\n  - { id: 100, name: gpu }\nport_defaults:\n  trust: L3\n  mtu: 9216\n  pfc: true\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict, 3: 50, 0: 50 }\nprofiles:\n  roce-host: { vlan: 100 }\n  uplink: { speed: 100G }\nswitches:\n";

/// The routed underlay's pools: 10,000 leaves need 10,000 loopbacks, AS numbers and server
/// /24s, and 256 /31 slots each (a /9).
const ROUTING: &str = "routing:\n  spine: { asn: 65000, loopbacks: 172.17.0.0/20 }\n  leaf: { asn_base: 4200000000, loopbacks: 172.16.0.0/16 }\n  links: 10.0.0.0/9\n";

/// Leaves (named from 1: a switch's number is its id) on pods of 32 with two spines each,
/// routed (two parallel L2 uplinks would loop); host ports as one range entry per leaf, or
/// one entry per port.
fn generate(leaves: usize, per_port: bool) -> String {
    let mut y = String::from(HEAD).replacen("switches:\n", &format!("{ROUTING}switches:\n"), 1);
    let role = |r: &str| format!("    role: {r}\n");
    let pods = leaves.div_ceil(32);
    for n in 1..=2 * pods {
        let _ = write!(y, "  spine{n:05}:\n    model: SN4600C\n{}", role("spine"));
    }
    for s in 1..=leaves {
        let _ = write!(y, "  leaf{s:05}:\n    model: SN4600C\n{}", role("leaf"));
        // The servers' gateway: 100.64.0.0/10 holds 16,384 /24s.
        let (hi, lo) = (64 + s / 256, s % 256);
        let _ = writeln!(
            y,
            "    vlans: [{{ id: 100, name: gpu, address: 100.{hi}.{lo}.1/24 }}]"
        );
        y.push_str("    ports:\n");
        if per_port {
            for port in 1..=60 {
                let _ = write!(
                    y,
                    "      1/{port}:\n        profile: roce-host\n        peer: {{ host: gpu{s:05}-{port:02}, port: ens1f0 }}\n"
                );
            }
        } else {
            let _ = write!(
                y,
                "      1/1-1/60:\n        profile: roce-host\n        peer: {{ host: \"gpu{s:05}-{{01..60}}\", port: ens1f0 }}\n"
            );
        }
    }
    y.push_str("links:\n");
    for s in 1..=leaves {
        let (pod, down) = ((s - 1) / 32, (s - 1) % 32 + 1);
        for k in 0..2 {
            let _ = writeln!(
                y,
                "  - {{ a: \"leaf{s:05}:1/{}\", b: \"spine{:05}:1/{down}\", profile: uplink }}",
                61 + k,
                2 * pod + k + 1
            );
        }
    }
    y
}

fn main() {
    let bin = env!("CARGO_BIN_EXE_fabric");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-validate");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    println!("validate bench: `fabric validate FILE`, whole process, median of {RUNS} runs");
    for (leaves, per_port) in [(1000, false), (4000, false), (10000, false), (10000, true)] {
        let text = generate(leaves, per_port);
        let (tag, what) = if per_port {
            ("-per-port", ", one entry per port")
        } else {
            ("", "")
        };
        let file = dir.join(format!("leaves-{leaves}{tag}.yaml"));
        std::fs::write(&file, &text).expect("fabric written");
        let [m] = common::medians(bin, [&[Path::new("validate"), file.as_path()][..]], RUNS);
        let switches = leaves + 2 * leaves.div_ceil(32);
        println!(
            "  {switches:>6} switches ({leaves} leaves{what}), {:>5.1} MB of YAML: {:>7.0} ms ({:>6.0} ms CPU)  {:>6.0} MB peak",
            text.len() as f64 / 1e6,
            m.wall.as_secs_f64() * 1e3,
            m.cpu.as_secs_f64() * 1e3,
            m.peak
        );
    }
}
