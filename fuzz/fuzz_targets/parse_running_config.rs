//! Any bytes as an Onyx running-config: see `checks::parse_running_config`.
#![no_main]

#[allow(dead_code)] // each target calls one of the checks
#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::parse_running_config(data));
