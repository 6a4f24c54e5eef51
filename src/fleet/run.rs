//! The parallel runner: work on many switches (or hosts) at once, results in their order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::device::{Error, Target};
use crate::error::Failure;

/// Reads every switch with `read`, `parallel` at a time; a switch that cannot be read is
/// named with its error, and then none is used.
pub fn read_each<R: Send>(
    targets: &[Target],
    parallel: usize,
    read: impl Fn(&Target) -> Result<R, Error> + Sync,
) -> Result<Vec<R>, Failure> {
    let fetched = self::parallel(targets, parallel, read);
    let mut out = Vec::new();
    let mut failed = false;
    for (target, r) in targets.iter().zip(fetched) {
        match r {
            Ok(r) => out.push(r),
            Err(e) => {
                // A device error never names the switch: it is named here, once.
                errln!("error: {}: {e}", target.name);
                failed = true;
            }
        }
    }
    if failed {
        return Err(Failure("not every switch could be read".into()));
    }
    Ok(out)
}

/// Runs `f` over `items` on up to `parallel` threads; results in the items' order.
pub fn parallel<T: Sync, R: Send>(
    items: &[T],
    parallel: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(items.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..parallel.clamp(1, items.len().max(1)) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let r = f(item);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}
