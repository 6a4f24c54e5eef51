//! Two stages timed in turns, for the benchmarks that compare one OS's stage with another's.

use std::time::{Duration, Instant};

pub fn median(mut t: Vec<Duration>) -> Duration {
    t.sort();
    t.get(t.len() / 2).copied().unwrap_or_default()
}

/// Median times of `a` and `b` over `runs` runs each after one warm-up, the two taking turns:
/// on a machine whose load changes, both see the same load and their ratio holds.
pub fn pair<T, U>(
    runs: usize,
    mut a: impl FnMut() -> T,
    mut b: impl FnMut() -> U,
) -> (Duration, Duration) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    if runs == 0 {
        return (Duration::ZERO, Duration::ZERO);
    }
    for run in 0..=runs {
        let t = Instant::now();
        std::hint::black_box(a());
        let da = t.elapsed();
        let t = Instant::now();
        std::hint::black_box(b());
        let db = t.elapsed();
        if run > 0 {
            ta.push(da);
            tb.push(db);
        }
    }
    (median(ta), median(tb))
}
