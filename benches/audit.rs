//! Audit throughput: 1,000 running configs of 64-port switches (SN4600C, every port with the
//! RoCE settings and a description; port 1/64 of each pair of switches cabled to each other;
//! one switch in ten with a port missing PFC), as `fabric audit --running DIR` reads them:
//! each config parsed, then every rule, the link and fabric-wide rules across all 1,000.
//!
//! `cargo bench --bench audit` (release build). The configs are compiled from a generated
//! fabric and rendered first (not timed). Prints the median of the timed runs after one
//! warm-up.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use fabric::audit::{self, Input, Profile, Switch};
use fabric::diag::Sources;
use fabric::onyx::Renderer;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SWITCHES: usize = 1000;
const RUNS: usize = 7;

fn fabric_yaml() -> String {
    let mut y = String::from(
        "onyx: 3.10.4206\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nport_defaults:\n  trust: L3\n  mtu: 9216\n  pfc: true\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict, 3: 50, 0: 50 }\nswitches:\n",
    );
    for s in 0..SWITCHES {
        let _ = write!(
            y,
            "  leaf{s:04}:\n    model: SN4600C\n    ports:\n      1/1-1/63:\n        peer: {{ host: \"gpu{s:04}-{{01..63}}\", port: ens1f0 }}\n"
        );
        if s % 10 == 0 {
            y.push_str("      1/5: { pfc: false }\n");
        }
    }
    y.push_str("links:\n");
    for s in (0..SWITCHES).step_by(2) {
        let _ = writeln!(y, "  - {{ a: leaf{s:04}:1/64, b: leaf{:04}:1/64 }}", s + 1);
    }
    y
}

/// The 1,000 running configs, as the switches would print them.
fn configs() -> Vec<String> {
    let text = fabric_yaml();
    let mut sources = Sources::default();
    let loaded = match fabric::fabric::parse_bytes("bench.yaml", text.into_bytes(), &mut sources) {
        Ok(l) => l,
        Err(d) => panic!("{}", fabric::diag::render(&[d], &sources, false)),
    };
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let fab = fab.unwrap_or_else(|| panic!("{}", fabric::diag::render(&diags, &sources, false)));
    let renderer = Renderer::embedded().expect("templates");
    fabric::onyx::compile::fabric(&fab)
        .values()
        .map(|c| renderer.render(c).expect("renders"))
        .collect()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let texts = configs();
    let bytes: usize = texts.iter().map(String::len).sum();
    let lines: usize = texts.iter().map(|t| t.lines().count()).sum();
    let (mut parse, mut rules, mut total) = (vec![], vec![], vec![]);
    let mut findings = 0;
    for run in 0..=RUNS {
        let t0 = Instant::now();
        let switches: BTreeMap<String, Switch> = texts
            .iter()
            .map(|t| {
                let c = fabric::onyx::parse(t).expect("parses");
                (c.hostname.clone().expect("hostname"), Switch::new(c))
            })
            .collect();
        let t1 = Instant::now();
        let links = audit::links_from_descriptions(&switches);
        let found = audit::audit(&Input {
            switches,
            links,
            profile: Profile::RoceLossless,
        });
        let t2 = Instant::now();
        findings = std::hint::black_box(found).len();
        if run > 0 {
            parse.push(t1 - t0);
            rules.push(t2 - t1);
            total.push(t2 - t0);
        }
    }
    let (p, r, t) = (median(parse), median(rules), median(total));
    println!(
        "audit: {SWITCHES} running configs × 64 ports ({:.1} MB, {lines} lines), {findings} findings",
        bytes as f64 / 1e6
    );
    println!("  parse            {:>8.1} ms", p.as_secs_f64() * 1e3);
    println!(
        "  rules + links    {:>8.1} ms ({} configs/s)",
        r.as_secs_f64() * 1e3,
        (SWITCHES as f64 / r.as_secs_f64()) as u64
    );
    println!(
        "  total            {:>8.1} ms ({} configs/s), median of {RUNS}",
        t.as_secs_f64() * 1e3,
        (SWITCHES as f64 / t.as_secs_f64()) as u64
    );
}
