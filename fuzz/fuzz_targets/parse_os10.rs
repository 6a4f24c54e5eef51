//! Any bytes as an OS10 running-configuration: see `checks::parse_os10`.
#![no_main]

#[allow(dead_code)] // each target calls one of the checks
#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::parse_os10(data));
