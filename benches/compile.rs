//! Compile throughput: a generated fabric of 1,000 SN4600C switches × 64 ports (every port
//! with a peer, a profile and the RoCE settings), through every stage on one core: YAML →
//! raw → validated fabric → Onyx configs → running-config text.
//!
//! `cargo bench --bench compile` (release build). Prints the median of the timed runs after
//! one warm-up, per stage and in switches per second.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use fabric::diag::Sources;
use fabric::onyx::Renderer;

const SWITCHES: usize = 1000;
const PORTS: usize = 64;
const RUNS: usize = 7;

/// The fabric file, as an engineer would write it for a large cluster.
fn generate() -> String {
    let mut y = String::from(
        "onyx: 3.10.4206\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nvlans:\n  - { id: 100, name: gpu }\nport_defaults:\n  trust: L3\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict, 3: 50, 0: 50 }\nprofiles:\n  roce-host: { mtu: 9216, pfc: true, vlan: 100 }\nswitches:\n",
    );
    for s in 0..SWITCHES {
        let _ = write!(
            y,
            "  leaf{s:04}:\n    model: SN4600C\n    mgmt: {{ host: 127.0.0.1, port: {} }}\n    ports:\n      1/1-1/{PORTS}:\n        profile: roce-host\n        peer: {{ host: \"gpu{s:04}-{{01..{PORTS}}}\", port: ens1f0 }}\n",
            10000 + s
        );
    }
    y
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let text = generate();
    let renderer = Renderer::embedded().expect("templates");
    let (mut load, mut validate, mut compile, mut render, mut total) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut lines = 0;
    for run in 0..=RUNS {
        let t0 = Instant::now();
        let mut sources = Sources::default();
        let loaded = match fabric::fabric::parse_bytes(
            "bench.yaml",
            text.clone().into_bytes(),
            &mut sources,
        ) {
            Ok(l) => l,
            Err(d) => panic!("{}", fabric::diag::render(&[d], &sources, false)),
        };
        let t1 = Instant::now();
        let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
        assert!(
            diags.is_empty(),
            "{}",
            fabric::diag::render(&diags, &sources, false)
        );
        let fab = fab.expect("valid");
        let t2 = Instant::now();
        let configs = fabric::onyx::compile::fabric(&fab);
        let t3 = Instant::now();
        lines = 0;
        for c in configs.values() {
            lines += std::hint::black_box(renderer.render(c).expect("renders"))
                .lines()
                .count();
        }
        let t4 = Instant::now();
        assert_eq!(configs.len(), SWITCHES);
        if run > 0 {
            load.push(t1 - t0);
            validate.push(t2 - t1);
            compile.push(t3 - t2);
            render.push(t4 - t3);
            total.push(t4 - t0);
        }
    }
    let per = |d: Duration| d.as_secs_f64() * 1e6 / SWITCHES as f64;
    println!(
        "compile bench: {SWITCHES} switches x {PORTS} ports, {} bytes of YAML, {lines} lines of Onyx config, median of {RUNS} runs, one thread",
        text.len()
    );
    for (name, v) in [
        ("load (YAML → raw)", load),
        ("validate", validate),
        ("compile", compile),
        ("render (templates)", render),
    ] {
        let m = median(v);
        println!(
            "  {name:<20} {:>9.1} ms  {:>7.1} µs/switch",
            m.as_secs_f64() * 1e3,
            per(m)
        );
    }
    let m = median(total);
    println!(
        "  {:<20} {:>9.1} ms  {:>7.1} µs/switch  → {:.0} switches/s",
        "total",
        m.as_secs_f64() * 1e3,
        per(m),
        SWITCHES as f64 / m.as_secs_f64()
    );
}

/// The same allocator as the `fabric` binary, so the figures are the binary's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;
