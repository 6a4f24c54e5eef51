//! Cumulus (NVUE) compile, render and parse per switch against Onyx's on the same fabric: the
//! compile bench's shape (switches × 64 ports, every port with a peer, a profile and the RoCE
//! settings), once with Onyx SN4600C switches and once with Cumulus SN4600C switches (64 ×
//! 100G, `swp1-64`). Compile: the fabric → per-switch configs; render: every compiled config
//! to its text (Cumulus: the YAML and the `nv set` review block); parse: every rendered text
//! read back. Times per switch.
//!
//! `cargo bench --bench cumulus` (release build). `BENCH_RUNS` runs (default 15) after one
//! warm-up, Onyx and Cumulus taking turns; `BENCH_SWITCHES` switches (default 200). Then each
//! stage of each OS alone, its runs one after another (no other work between them, so no
//! allocator or cache state left by the other OS): the second table.

use std::time::Duration;

#[path = "common/pair.rs"]
mod pair;
use pair::{fabric_of, median, pair};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PORTS: usize = 64;

fn fabric_yaml(cumulus: bool, switches: usize) -> String {
    use std::fmt::Write as _;
    let (head, ports) = match cumulus {
        true => ("os: cumulus\ncumulus: 5.14.0\n", format!("swp1-{PORTS}")),
        false => ("onyx: 3.10.4206\n", format!("1/1-1/{PORTS}")),
    };
    let mut y = format!(
        "{head}lldp: true\nqos:\n  pools:\n    roce: {{ type: lossless, memory: 50, priorities: [3] }}\n  pfc: {{ priorities: [3] }}\n  dscp: {{ roce: 26, cnp: 48 }}\nvlans:\n  - {{ id: 100, name: gpu }}\nport_defaults:\n  trust: L3\n  ecn: {{ 3: {{ min: 150, max: 1500 }} }}\n  ets: {{ 6: strict, 3: 50, 0: 50 }}\nprofiles:\n  roce-host: {{ mtu: 9216, pfc: true, vlan: 100 }}\nstp: on\nswitches:\n"
    );
    for s in 0..switches {
        let _ = write!(
            y,
            "  leaf{s:04}:\n    model: SN4600C\n    ports:\n      {ports}:\n        profile: roce-host\n        peer: {{ host: \"gpu{s:04}-{{01..{PORTS}}}\", port: ens1f0 }}\n"
        );
    }
    y
}

/// Median time of `f` over `runs` runs after one warm-up, one after another.
fn alone<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    std::hint::black_box(f());
    let times = (0..runs)
        .map(|_| {
            let t = std::time::Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .collect();
    median(times)
}

fn main() {
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let (runs, n) = (env("BENCH_RUNS", 15), env("BENCH_SWITCHES", 200));
    let onyx = fabric_of(fabric_yaml(false, n));
    let cumulus = fabric_of(fabric_yaml(true, n));
    let compiled = |f: &fabric::fabric::Fabric| fabric::compile::compile(f);
    let (onyx_configs, cumulus_configs) = (compiled(&onyx), compiled(&cumulus));
    type Targets = std::collections::BTreeMap<fabric::types::Hostname, fabric::compile::Target>;
    let render =
        |c: &Targets| -> Vec<String> { c.values().map(|t| t.render().expect("renders")).collect() };
    let (onyx_texts, cumulus_texts) = (render(&onyx_configs), render(&cumulus_configs));
    let os = |name: &str| {
        fabric::fabric::Os::all()
            .find(|o| o.to_string() == name)
            .expect("an OS")
    };
    let (onyx_os, cumulus_os) = (os("Onyx"), os("Cumulus"));
    let parse = |os: fabric::fabric::Os, texts: &[String]| {
        let mut n = 0;
        for t in texts {
            std::hint::black_box(os.target().parse(t).expect("parses"));
            n += 1;
        }
        n
    };
    assert_eq!(parse(cumulus_os, &cumulus_texts), n);
    let lines = |t: &[String]| t.iter().map(|x| x.lines().count()).sum::<usize>() / n;
    let (oc, cc) = pair(runs, || compiled(&onyx), || compiled(&cumulus));
    let (or, cr) = pair(runs, || render(&onyx_configs), || render(&cumulus_configs));
    let (op, cp) = pair(
        runs,
        || parse(onyx_os, &onyx_texts),
        || parse(cumulus_os, &cumulus_texts),
    );
    let alone = [
        (
            alone(runs, || compiled(&cumulus)),
            alone(runs, || compiled(&onyx)),
        ),
        (
            alone(runs, || render(&cumulus_configs)),
            alone(runs, || render(&onyx_configs)),
        ),
        (
            alone(runs, || parse(cumulus_os, &cumulus_texts)),
            alone(runs, || parse(onyx_os, &onyx_texts)),
        ),
    ];
    let us = |d: Duration| d.as_secs_f64() * 1e6 / n as f64;
    println!(
        "{n} switches × {PORTS} ports; per switch: Onyx {} lines, Cumulus {} lines",
        lines(&onyx_texts),
        lines(&cumulus_texts)
    );
    println!("| stage, per switch | Cumulus | Onyx | Cumulus ÷ Onyx |");
    println!("|---|---|---|---|");
    let stages = ["compile", "render", "parse"];
    let row = |stage: &str, c: Duration, o: Duration| {
        println!(
            "| {stage} | {:.0} µs | {:.0} µs | {:.2} |",
            us(c),
            us(o),
            c.as_secs_f64() / o.as_secs_f64()
        );
    };
    for (stage, (c, o)) in stages.iter().zip([(cc, oc), (cr, or), (cp, op)]) {
        row(stage, c, o);
    }
    println!("\n| each stage alone, per switch | Cumulus | Onyx | Cumulus ÷ Onyx |");
    println!("|---|---|---|---|");
    for (stage, (c, o)) in stages.iter().zip(alone) {
        row(stage, c, o);
    }
}
