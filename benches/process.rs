//! Runs the real binary as a user does, shared by the benchmarks that time whole processes.

use std::process::{Command, Stdio};

/// Runs `bin ARGS` to its end, its output discarded: whether it exited 0, and its peak
/// resident memory in MB (from wait4, the child's own figure).
// The child is reaped by wait4 itself, which std's `Child::wait` cannot report memory for.
#[allow(clippy::zombie_processes)]
pub fn run(bin: &str, args: &[&std::ffi::OsStr]) -> (bool, f64) {
    let child = Command::new(bin)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("fabric runs");
    let mut status = 0;
    // SAFETY: wait4 fills the zeroed rusage and status of the child it reaps.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    (
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        usage.ru_maxrss as f64 / 1024.0,
    )
}
