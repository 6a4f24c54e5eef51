//! Any bytes as an OpenSSH client config file: see `checks::ssh_config`.
#![no_main]

#[allow(dead_code)] // each target calls one of the checks
#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::ssh_config(data));
