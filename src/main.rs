fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(fabric::cli::main())
}
