//! `fabric docs` at fabric scale, as a user runs it: the whole process (read, validate, every
//! switch compiled and audited, the topology laid out and drawn, a page per switch, the HTML
//! page, every file written) on generated routed leaf-spine fabrics of 64, 256 and 1,024
//! switches (1x, 4x, 16x): pods of 30 SN4600C leaves and 2 spines, each leaf with 60 host
//! ports (a server per port) and two uplinks, one to each spine of its pod, every link a /31
//! with an eBGP session (AS numbers, loopbacks and gateway subnets derived). Time and peak
//! memory grow linearly with the switches; the goal is 1,000 switches in under 5 s.
//!
//! `cargo bench --bench docs` (release build). Prints, per fabric, the median wall time of 5
//! runs of `fabric docs FILE --out DIR` and the largest peak resident memory among them. The
//! peer's figure (pyavd's `get_device_doc` for as many devices) comes from
//! `benches/peers/pyavd_docs.py`.

use std::path::Path;
use std::time::Duration;

mod common;

use common::leaf_spine::LeafSpine;

const RUNS: usize = 5;
const LEAVES_PER_POD: usize = 30;
const HOSTS_PER_LEAF: usize = 60;

fn main() {
    let bin = &common::bin();
    let runs = common::runs(RUNS);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-docs");
    std::fs::create_dir_all(&dir).expect("scratch folder");
    println!("docs bench: `fabric docs FILE --out DIR`, whole process, median of {runs} runs");
    let mut first = None;
    for pods in [2, 8, 32] {
        let fabric = LeafSpine::new(pods * LEAVES_PER_POD, LEAVES_PER_POD, HOSTS_PER_LEAF);
        let switches = fabric.switches();
        let file = dir.join(format!("routed-{switches}.yaml"));
        std::fs::write(&file, fabric.yaml()).expect("fabric written");
        let out = dir.join(format!("out-{switches}"));
        let (mut times, mut peak): (Vec<Duration>, f64) = (Vec::new(), 0.0);
        for _ in 0..runs {
            let _ = std::fs::remove_dir_all(&out);
            let args = [
                "docs".as_ref(),
                file.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
            ];
            let (passed, wall, _, mb) = common::run(bin, &args);
            times.push(wall);
            assert!(passed, "`fabric docs {}` fails", file.display());
            peak = peak.max(mb);
        }
        times.sort();
        let median = times[runs / 2].as_secs_f64();
        let base = *first.get_or_insert(median);
        println!(
            "  {switches:>5} switches ({} hosts): {:>7.0} ms  {:>6.0} MB peak  ({:.1}x the first)",
            pods * LEAVES_PER_POD * HOSTS_PER_LEAF,
            median * 1e3,
            peak,
            median / base
        );
    }
}
