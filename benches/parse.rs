//! Parse throughput: the 51,700-line `large` running-config of the peers' generator
//! (`tests/fixtures/peers/gen_onyx.py --preset large --drift 5`: 128 ports of which 32 split
//! 4 ways, 4,000 VLANs, 200 tagged VLANs per port, RoCE QoS), read into the model.
//!
//! `cargo bench --bench parse` (release build; needs python3 for the generator). Prints the
//! median of the timed runs after one warm-up, in MB/s and lines/s.

use std::time::{Duration, Instant};

mod peers_data;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // `BENCH_RUNS=2` for a quick look, e.g. under `valgrind --tool=callgrind`.
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let (text, _) = peers_data::generate("large");
    let lines = text.lines().count();

    // Where the time goes: the grammar alone, line by line on this thread, without building
    // the model.
    let mut grammar: Vec<Duration> = Vec::new();
    for _ in 0..=runs {
        let t = Instant::now();
        let mut n = 0usize;
        for line in text.lines() {
            let line = line.trim();
            if !line.is_empty()
                && !line.starts_with('#')
                && fabric::onyx::command::parse(line).ok().flatten().is_some()
            {
                n += 1;
            }
        }
        std::hint::black_box(n);
        grammar.push(t.elapsed());
    }
    grammar.sort();

    let mut times: Vec<Duration> = Vec::new();
    let mut interfaces = 0;
    for run in 0..=runs {
        let t = Instant::now();
        let config =
            fabric::onyx::parse(std::hint::black_box(&text)).expect("the generated config parses");
        let d = t.elapsed();
        interfaces = config.interfaces.len();
        if run > 0 {
            times.push(d);
        }
    }
    times.sort();
    let median = times[times.len() / 2];
    let secs = median.as_secs_f64();
    println!(
        "parse bench: large-d5.running.cfg, {lines} lines, {} bytes, {interfaces} interfaces in the model, median of {runs} runs (the grammar on the machine's cores)",
        text.len()
    );
    println!(
        "  parse  {:>8.2} ms  {:>7.1} MB/s  {:>6.2} M lines/s  (min {:.2} ms)",
        secs * 1e3,
        text.len() as f64 / secs / 1e6,
        lines as f64 / secs / 1e6,
        times[0].as_secs_f64() * 1e3
    );
    println!(
        "  the grammar alone, every line to a command on one thread: {:.2} ms",
        grammar[grammar.len() / 2].as_secs_f64() * 1e3
    );
}
