//! Any bytes as a host report: see `checks::host_report`.
#![no_main]

#[allow(dead_code)] // each target calls one of the checks
#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::host_report(data));
