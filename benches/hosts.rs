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

use std::path::{Path, PathBuf};

mod common;

use common::leaf_spine::{Cabled, Declared, LeafSpine};

/// Timed runs of each command (`BENCH_RUNS` for another number).
const RUNS: usize = 5;

/// Servers on each leaf, on ports 1/1-1/60 (1/61 and 1/62 go to the spines).
const PER_LEAF: usize = 60;

/// The leaves of the three sizes: 4,020, 16,020 and 64,020 servers.
const LEAVES: [usize; 3] = [67, 267, 1067];

/// A fabric written into `dir`: its file, its size in MB, its hosts and switches.
struct Written {
    file: PathBuf,
    mb: f64,
    hosts: usize,
    switches: usize,
}

fn write(dir: &Path, leaves: usize, cabled: Cabled, declared: Declared, tag: &str) -> Written {
    let fabric = LeafSpine {
        cabled,
        declared,
        ..LeafSpine::new(leaves, 32, PER_LEAF)
    };
    let text = fabric.yaml();
    let file = dir.join(format!("{tag}-{leaves}.yaml"));
    std::fs::write(&file, &text).expect("fabric written");
    Written {
        file,
        mb: text.len() as f64 / 1e6,
        hosts: leaves * PER_LEAF,
        switches: fabric.switches(),
    }
}

/// `fabric COMMAND FILE` of each fabric, in turn.
fn each<const N: usize>(bin: &str, command: &str, fabrics: &[Written; N]) -> [common::Measured; N] {
    let args = fabrics
        .each_ref()
        .map(|w| [Path::new(command), w.file.as_path()]);
    common::medians(bin, args.each_ref().map(|a| &a[..]), common::runs(RUNS))
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
fn sizes(bin: &str, dir: &Path, cabled: Cabled, tag: &str) {
    let fabrics = LEAVES.map(|leaves| write(dir, leaves, cabled, Declared::PerLeaf, tag));
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
    let bin = &common::bin();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-hosts");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    println!(
        "hosts bench: whole process, median of {} runs (wall, CPU), largest peak memory",
        common::runs(RUNS)
    );
    println!(" servers in their leaf's VLAN:");
    sizes(bin, &dir, Cabled::Vlan, "vlan");
    println!(" servers on routed ports:");
    sizes(bin, &dir, Cabled::Routed, "routed");
    println!(" the largest, servers in VLANs, declared three ways:");
    let leaves = LEAVES[2];
    let fabrics = [
        (Declared::PerLeaf, "vlan"),
        (Declared::PerHost, "vlan-entry-per-host"),
        (Declared::No, "vlan-no-hosts"),
    ]
    .map(|(declared, tag)| write(&dir, leaves, Cabled::Vlan, declared, tag));
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
