//! For the benchmarks that compare one OS's stage with another's: a generated fabric read and
//! validated, and two stages timed in turns.

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

/// A fabric file's text, loaded and validated (its errors are the benchmark's bug).
pub fn fabric_of(text: String) -> fabric::fabric::Fabric {
    let mut sources = fabric::diag::Sources::default();
    let loaded = fabric::fabric::parse_bytes("bench.yaml", text.into_bytes(), &mut sources)
        .unwrap_or_else(|d| panic!("{}", fabric::diag::render(&[d], &sources, false)));
    let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let errors: Vec<_> = diags.into_iter().filter(|d| d.is_error()).collect();
    assert!(
        errors.is_empty(),
        "{}",
        fabric::diag::render(&errors, &sources, false)
    );
    fab.expect("valid")
}
