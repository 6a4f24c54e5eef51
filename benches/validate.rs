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

use std::path::Path;

mod common;

use common::leaf_spine::{Cabled, LeafSpine};

const RUNS: usize = 5;

/// Leaves on pods of 32.
const POD: usize = 32;

fn main() {
    let bin = &common::bin();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-validate");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    println!(
        "validate bench: `fabric validate FILE`, whole process, median of {} runs",
        common::runs(RUNS)
    );
    for (leaves, per_port) in [(1000, false), (4000, false), (10000, false), (10000, true)] {
        let fabric = LeafSpine {
            cabled: if per_port {
                Cabled::VlanPerPort
            } else {
                Cabled::Vlan
            },
            ..LeafSpine::new(leaves, POD, 60)
        };
        let text = fabric.yaml();
        let (tag, what) = if per_port {
            ("-per-port", ", one entry per port")
        } else {
            ("", "")
        };
        let file = dir.join(format!("leaves-{leaves}{tag}.yaml"));
        std::fs::write(&file, &text).expect("fabric written");
        let [m] = common::medians(
            bin,
            [&[Path::new("validate"), file.as_path()][..]],
            common::runs(RUNS),
        );
        let switches = fabric.switches();
        println!(
            "  {switches:>6} switches ({leaves} leaves{what}), {:>5.1} MB of YAML: {:>7.0} ms ({:>6.0} ms CPU)  {:>6.0} MB peak",
            text.len() as f64 / 1e6,
            m.wall.as_secs_f64() * 1e3,
            m.cpu.as_secs_f64() * 1e3,
            m.peak
        );
    }
}
