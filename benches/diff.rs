//! Diff throughput: parse both configs of the peers' `large --drift 5` pair (51,700 lines
//! each) and plan the remediation, as `fabric diff --intended … --running …` does.
//!
//! `cargo bench --bench diff` (release build; needs python3 for the generator). Prints the
//! median of the timed runs after one warm-up: the two parses, then target + plan.

use std::time::{Duration, Instant};

use fabric::onyx::plan::{Scope, plan, target};

mod peers_data;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const RUNS: usize = 15;

fn main() {
    let (running, intended) = peers_data::generate("large");

    let scope = Scope {
        interfaces: None,
        fabric_attributes_only: false,
        prune: true,
        ..Default::default()
    };
    let (mut parse_t, mut plan_t, mut total_t) = (Vec::new(), Vec::new(), Vec::new());
    let mut commands = 0;
    for run in 0..=RUNS {
        let t0 = Instant::now();
        // As `fabric diff --intended … --running …` does: both files at once.
        let (r, i) = std::thread::scope(|s| {
            let r = s.spawn(|| fabric::onyx::parse(&running).expect("running parses"));
            let i = fabric::onyx::parse(&intended).expect("intended parses");
            (r.join().expect("the running config parses"), i)
        });
        let t1 = Instant::now();
        let t = target(&r, &i, &scope);
        let steps = plan(&r, &t);
        let t2 = Instant::now();
        commands = steps.len();
        if run > 0 {
            parse_t.push(t1 - t0);
            plan_t.push(t2 - t1);
            total_t.push(t2 - t0);
        }
    }
    // Median and fastest run, in ms.
    let stats = |mut v: Vec<Duration>| {
        v.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        format!("{:>7.2} ms  (min {:.2} ms)", ms(v[v.len() / 2]), ms(v[0]))
    };
    println!(
        "diff bench: large-d5 pair, {} + {} lines, {commands} commands in the plan, median of {RUNS} runs",
        running.lines().count(),
        intended.lines().count()
    );
    println!("  parse both             {}", stats(parse_t));
    println!("  target + plan          {}", stats(plan_t));
    println!("  total                  {}", stats(total_t));
}
