//! What the whole-process benchmarks share: running the real binary to its end and reading
//! its time and peak memory, a `fabric lab` process, and the generated fabrics.
// Each benchmark uses its own part of this module.
#![allow(dead_code)]

pub mod lab;
pub mod leaf_spine;

use std::ffi::OsStr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The `fabric` the whole-process benchmarks run: this build's, or `FABRIC_BIN`'s (another
/// build, to compare two in alternating runs).
pub fn bin() -> String {
    std::env::var("FABRIC_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_fabric").to_string())
}

/// How many timed runs: `BENCH_RUNS`, else `default`.
pub fn runs(default: usize) -> usize {
    std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(default)
}

/// One run of `bin ARGS…` to its end, its output discarded: see [`measure`].
pub fn run<S: AsRef<OsStr>>(bin: &str, args: &[S]) -> (bool, Duration, Duration, f64) {
    measure(
        Command::new(bin)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )
}

/// One run of `cmd` to its end: whether it exited 0, its wall time, its CPU time (user and
/// system) and its peak resident memory in MB (both from wait4, the child's own figures).
// The child is reaped by wait4 itself, which std's `Child::wait` cannot report memory for.
#[allow(clippy::zombie_processes)]
pub fn measure(cmd: &mut Command) -> (bool, Duration, Duration, f64) {
    let t = Instant::now();
    let child = cmd.spawn().expect("fabric runs");
    let mut status = 0;
    // SAFETY: wait4 fills the zeroed rusage and status of the child it reaps.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    let elapsed = t.elapsed();
    assert_eq!(pid, child.id() as libc::pid_t, "wait4");
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    (
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        elapsed,
        time(usage.ru_utime) + time(usage.ru_stime),
        usage.ru_maxrss as f64 / 1024.0,
    )
}

/// What [`medians`] measures of a command: the median wall and CPU times, the largest peak
/// memory in MB.
pub struct Measured {
    pub wall: Duration,
    pub cpu: Duration,
    pub peak: f64,
}

/// `runs` rounds of one run of each command (`bin ARGS…`) in turn, so the machine's load
/// weighs on each alike: each command's [`Measured`]. Every run must exit 0.
pub fn medians<S: AsRef<OsStr>, const N: usize>(
    bin: &str,
    commands: [&[S]; N],
    runs: usize,
) -> [Measured; N] {
    let mut seen: [(Vec<Duration>, Vec<Duration>, f64); N] =
        std::array::from_fn(|_| (Vec::new(), Vec::new(), 0.0));
    for _ in 0..runs {
        for (args, (walls, cpus, peak)) in commands.iter().zip(&mut seen) {
            let (passed, wall, cpu, mb) = run(bin, args);
            let shown: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
            assert!(passed, "`fabric {}` fails", shown.join(" "));
            walls.push(wall);
            cpus.push(cpu);
            *peak = peak.max(mb);
        }
    }
    seen.map(|(mut walls, mut cpus, peak)| {
        walls.sort();
        cpus.sort();
        Measured {
            wall: walls[runs / 2],
            cpu: cpus[runs / 2],
            peak,
        }
    })
}

/// Runs a peer: `command` (a program and its words, split at spaces, as `BENCH_PEER` gives it)
/// with `args` added; the last line it printed (its JSON figures).
pub fn peer(command: &str, args: &[&OsStr]) -> String {
    let mut words = command.split_whitespace();
    let program = words.next().expect("BENCH_PEER names a program");
    let out = Command::new(program)
        .args(words)
        .args(args)
        .output()
        .expect("the peer runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{command}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines().last().unwrap_or_default().to_string()
}
