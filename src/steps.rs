//! A count of the steps the passes over a whole fabric take — the host checks and path MTU of
//! `fabric validate`, the plans of `fabric hosts`, the audit's look-ups of a session's far end
//! — on the current thread: each look-up or candidate those passes visit counts one. A test
//! tells a linear pass from a quadratic one by counting at two sizes, without timing anything
//! (`tests/hosts.rs`, `tests/routing.rs`).

use std::cell::Cell;

thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Counts `n` steps.
pub(crate) fn add(n: usize) {
    STEPS.with(|s| s.set(s.get().saturating_add(n as u64)));
}

/// Counts one step.
pub(crate) fn one() {
    add(1);
}

/// The steps counted on this thread since it started or last took them; starts again at 0.
pub fn take() -> u64 {
    STEPS.with(|s| s.replace(0))
}
