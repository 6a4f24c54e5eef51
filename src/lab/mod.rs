//! The lab: simulated Onyx switches, the project's test bed and a place to try everything
//! without hardware. A switch is an [`onyx::Config`](crate::onyx::Config) with saved
//! configuration files; its CLI ([`cli`]) reads commands with the same grammar as the parser
//! and applies them with the same semantics.

pub mod cli;

pub use cli::{Reply, Session, Switch};
