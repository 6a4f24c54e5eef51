//! `fabric hosts` and `fabric validate` with a large `hosts:` map, as a user runs them (the
//! whole process): generated routed leaf-spine fabrics as `benches/validate.rs` builds them
//! (SN4600C leaves with 60 servers each, two uplinks per leaf to a pair of spines per 32
//! leaves, every link a /31 with an eBGP session) of 67, 267 and 1,067 leaves: 4,020, 16,020
//! and 64,020 hosts (Linux, one ConnectX-6 Dx port each), declared in one `hosts:` entry per
//! leaf (`gpu00001-{01..60}`). Two designs: the servers in their leaf's VLAN (a gateway per
//! leaf), and each server on a routed port of its own (a /31 per server). Then the largest
//! VLAN fabric three ways, measured in turn: as above, with one `hosts:` entry per host, and
//! without `hosts:` (what the switches alone cost). Time and peak memory grow linearly with
//! the hosts; the goal is 64,000 hosts validated in under 1 s and their settings (`fabric
//! hosts FILE`: every host's script) printed in under 2 s.
//!
//! `cargo bench --bench hosts` (release build). Prints, per fabric and command, the median
//! wall and CPU times of 5 runs and the largest peak resident memory among them, and per
//! design the growth from the smallest fabric to the largest (1x to 16x the hosts). The runs
//! of the fabrics compared go in turn (1x, 4x, 16x, 1x, …), so a change in the machine's
//! load weighs on each alike; CPU time beside wall time because the machine is shared.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod common;

const RUNS: usize = 5;

/// Servers on each leaf, on ports 1/1-1/60 (1/61 and 1/62 go to the spines).
const PER_LEAF: usize = 60;

/// The leaves of the three sizes: 4,020, 16,020 and 64,020 servers.
const LEAVES: [usize; 3] = [67, 267, 1067];

const HEAD: &str = "onyx: 3.10.4206\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nvlans:\n  - { id: 100, name: gpu }\nport_defaults:\n  trust: L3\n  mtu: 9216\n  pfc: true\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict, 3: 50, 0: 50 }\nprofiles:\n  roce-host: { vlan: 100 }\n  uplink: { speed: 100G }\nrouting:\n  spine: { asn: 65000, loopbacks: 172.17.0.0/20 }\n  leaf: { asn_base: 4200000000, loopbacks: 172.16.0.0/16 }\n  links: 10.0.0.0/9\nswitches:\n";

/// Where the servers are cabled.
#[derive(Clone, Copy, PartialEq)]
enum Design {
    /// In their leaf's VLAN, on a range of ports.
    Vlan,
    /// Each on a routed port with its own /31 (from 100.64.0.0/10).
    Routed,
}

/// How `hosts:` declares the servers.
#[derive(Clone, Copy, PartialEq)]
enum Declared {
    /// One pattern entry per leaf.
    PerLeaf,
    /// One entry per server.
    PerHost,
    /// Not at all: the peers name them, nothing else.
    No,
}

/// A leaf's servers: on a range in the VLAN, or one routed port each.
fn leaf_ports(y: &mut String, s: usize, design: Design) {
    if design == Design::Routed {
        y.push_str("    ports:\n");
        for k in 1..=PER_LEAF {
            let n = 2 * ((s - 1) * PER_LEAF + k - 1);
            let _ = writeln!(
                y,
                "      1/{k}: {{ address: 100.{}.{}.{}/31, peer: {{ host: gpu{s:05}-{k:02}, port: ens1f0 }} }}",
                64 + n / 65536,
                n / 256 % 256,
                n % 256
            );
        }
        return;
    }
    // The servers' gateway: 100.64.0.0/10 holds 16,384 /24s.
    let (hi, lo) = (64 + s / 256, s % 256);
    let _ = write!(
        y,
        "    vlans: [{{ id: 100, name: gpu, address: 100.{hi}.{lo}.1/24 }}]\n    ports:\n      1/1-1/{PER_LEAF}:\n        profile: roce-host\n        peer: {{ host: \"gpu{s:05}-{{01..{PER_LEAF}}}\", port: ens1f0 }}\n"
    );
}

fn generate(leaves: usize, design: Design, declared: Declared) -> String {
    let mut y = String::from(HEAD);
    if design == Design::Routed {
        // No server VLAN: no profile for its ports.
        y = y.replace("  roce-host: { vlan: 100 }\n", "");
    }
    let pods = leaves.div_ceil(32);
    for n in 1..=2 * pods {
        let _ = write!(y, "  spine{n:05}:\n    model: SN4600C\n    role: spine\n");
    }
    for s in 1..=leaves {
        let _ = write!(y, "  leaf{s:05}:\n    model: SN4600C\n    role: leaf\n");
        leaf_ports(&mut y, s, design);
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
    if declared == Declared::No {
        return y;
    }
    y.push_str("hosts:\n");
    let host = "{ os: linux, nic: ConnectX-6 Dx, mtu: 9000, ports: { ens1f0: { rdma: mlx5_0 } } }";
    for s in 1..=leaves {
        if declared == Declared::PerHost {
            for k in 1..=PER_LEAF {
                let _ = writeln!(y, "  gpu{s:05}-{k:02}: {host}");
            }
        } else {
            let _ = writeln!(y, "  \"gpu{s:05}-{{01..{PER_LEAF}}}\": {host}");
        }
    }
    y
}

/// A fabric written into `dir`: its file, its size in MB, its hosts and switches.
struct Written {
    file: PathBuf,
    mb: f64,
    hosts: usize,
    switches: usize,
}

fn write(dir: &Path, leaves: usize, design: Design, declared: Declared, tag: &str) -> Written {
    let text = generate(leaves, design, declared);
    let file = dir.join(format!("{tag}-{leaves}.yaml"));
    std::fs::write(&file, &text).expect("fabric written");
    Written {
        file,
        mb: text.len() as f64 / 1e6,
        hosts: leaves * PER_LEAF,
        switches: leaves + 2 * leaves.div_ceil(32),
    }
}

/// `fabric COMMAND FILE` of each fabric, in turn.
fn each<const N: usize>(bin: &str, command: &str, fabrics: &[Written; N]) -> [common::Measured; N] {
    let args = fabrics
        .each_ref()
        .map(|w| [Path::new(command), w.file.as_path()]);
    common::medians(bin, args.each_ref().map(|a| &a[..]), RUNS)
}

fn shown(m: &common::Measured) -> String {
    format!(
        "{:>6.0} ms ({:>6.0} ms CPU) {:>4.0} MB",
        m.wall.as_secs_f64() * 1e3,
        m.cpu.as_secs_f64() * 1e3,
        m.peak
    )
}

fn row(w: &Written, what: &str, validate: &common::Measured, hosts: Option<&common::Measured>) {
    println!(
        "  {:>6} hosts, {:>5} switches{what}, {:>4.1} MB: validate {}; hosts {}",
        w.hosts,
        w.switches,
        w.mb,
        shown(validate),
        hosts.map_or_else(|| "-".to_string(), shown)
    );
}

/// The three sizes of a design, then the growth from 1x to 16x.
fn sizes(bin: &str, dir: &Path, design: Design, tag: &str) {
    let fabrics = LEAVES.map(|leaves| write(dir, leaves, design, Declared::PerLeaf, tag));
    let validate = each(bin, "validate", &fabrics);
    let hosts = each(bin, "hosts", &fabrics);
    for (i, w) in fabrics.iter().enumerate() {
        row(w, "", &validate[i], Some(&hosts[i]));
    }
    let growth = |m: &[common::Measured; 3]| {
        let (a, b) = (&m[0], &m[2]);
        format!(
            "{:.1}x time ({:.1}x CPU), {:.1}x memory",
            b.wall.as_secs_f64() / a.wall.as_secs_f64(),
            b.cpu.as_secs_f64() / a.cpu.as_secs_f64(),
            b.peak / a.peak
        )
    };
    println!(
        "  1x -> 16x: validate {}; hosts {}",
        growth(&validate),
        growth(&hosts)
    );
}

fn main() {
    let bin = env!("CARGO_BIN_EXE_fabric");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-hosts");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    println!("hosts bench: whole process, median of {RUNS} runs (wall, CPU), largest peak memory");
    println!(" servers in their leaf's VLAN:");
    sizes(bin, &dir, Design::Vlan, "vlan");
    println!(" servers on routed ports:");
    sizes(bin, &dir, Design::Routed, "routed");
    println!(" the largest, servers in VLANs, declared three ways:");
    let leaves = LEAVES[2];
    let fabrics = [
        (Declared::PerLeaf, "vlan"),
        (Declared::PerHost, "vlan-entry-per-host"),
        (Declared::No, "vlan-no-hosts"),
    ]
    .map(|(declared, tag)| write(&dir, leaves, Design::Vlan, declared, tag));
    let validate = each(bin, "validate", &fabrics);
    let declared: &[Written; 2] = fabrics[..2].try_into().expect("two");
    let hosts = each(bin, "hosts", declared);
    row(
        &fabrics[0],
        ", an entry per leaf",
        &validate[0],
        Some(&hosts[0]),
    );
    row(
        &fabrics[1],
        ", an entry per host",
        &validate[1],
        Some(&hosts[1]),
    );
    row(&fabrics[2], ", no `hosts:`", &validate[2], None);
}
