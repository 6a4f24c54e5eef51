/// mimalloc: compile and render allocate many small strings; glibc's allocator spent a third
/// of the compile benchmark in malloc/free (`perf record` on `cargo bench --bench compile`).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let code = fabric::cli::main();
    // Every command has written and closed what it writes by now; standard output is flushed
    // here, standard error is not buffered.
    let _ = std::io::Write::flush(&mut std::io::stdout());
    // SAFETY: `_exit` ends the process without the C library's exit handlers. Of those, the
    // allocator's hands its memory back to the system range by range (11 `madvise` calls
    // after a large parse) just before the kernel reclaims all of it at once: about 0.8 ms of
    // a 12 ms `fabric parse --format check` of a 3 MB config. Nothing here writes through C's
    // buffered streams.
    unsafe { libc::_exit(i32::from(code)) }
}
