//! Any bytes as a Cumulus NVUE configuration: see `checks::parse_nvue`.
#![no_main]

#[allow(dead_code)] // each target calls one of the checks
#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::parse_nvue(data));
