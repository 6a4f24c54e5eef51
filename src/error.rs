//! Operational failures (a file that cannot be read or written, templates that do not load)
//! and the process exit codes. Problems in a user's input are diagnostics (`diag`), not these.

use std::fmt;

/// Exit codes, the same for every command.
pub mod exit {
    /// Success: valid, up to date, no drift.
    pub const OK: u8 = 0;
    /// The input has errors, or `--check` found stale golden files.
    pub const FINDINGS: u8 = 1;
    /// The tool could not do its job: I/O, templates, usage.
    pub const FAILURE: u8 = 2;
}

/// An operational failure, with a message that says what and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure(pub String);

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failure {}

impl From<String> for Failure {
    fn from(s: String) -> Self {
        Failure(s)
    }
}
