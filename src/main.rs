/// mimalloc: compile and render allocate many small strings; glibc's allocator spent a third
/// of the compile benchmark in malloc/free (`perf record` on `cargo bench --bench compile`).
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(fabric::cli::main())
}
