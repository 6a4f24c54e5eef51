//! Any bytes as a fabric file: see `checks::load_fabric`.
#![no_main]

#[allow(dead_code)] // each target calls one of the checks
#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::load_fabric(data));
