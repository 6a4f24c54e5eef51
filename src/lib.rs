//! `fabric`: compile, diff, push and audit lossless RoCE fabrics on NVIDIA Onyx and Dell
//! SmartFabric OS10 switches (the OSes: [`fabric::Os::all`]).
//!
//! Data flows one way: `types`/`diag`/`error`/`config_error` → `fabric` (YAML → validated
//! model) and `onyx` (typed switch configuration ⇄ running-config text) → `compile` → `cli`.
//! Only `cli` runs stages in order; every stage is reachable from tests and benchmarks through
//! this library.

#[macro_use]
mod output;

pub mod audit;
pub mod cli;
pub mod codes;
pub mod compile;
pub mod config_error;
pub mod cumulus;
pub mod device;
pub mod diag;
pub mod diff;
pub mod docs;
pub mod error;
pub mod fabric;
pub mod fleet;
pub mod hosts;
pub mod import;
pub mod input;
#[cfg(feature = "lab")]
pub mod lab;
pub mod onyx;
pub mod os10;
pub mod secrets;
pub mod steps;
pub mod targets;
pub mod textdiff;
pub mod types;
pub mod verify;

/// A file of this repository (a capture, a golden, a fabric) as text, for unit tests.
#[cfg(test)]
pub(crate) fn repo_file(path: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}
