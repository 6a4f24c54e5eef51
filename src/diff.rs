//! What a planned command does to traffic, in one scale for every OS: each OS's planner
//! (behind [`crate::targets::Config::compare`]) classes its commands by it, `fabric push` asks
//! `--allow-disruptive` by it, and the plan's summary counts it.

use serde::Serialize;

/// What a command does to traffic when it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Impact {
    /// Nothing noticeable.
    Hitless,
    /// The port goes down and up (speed, MTU, split, shutdown, PFC mode, routed or L2).
    PortFlap,
    /// A BGP session, or the routes over one link or to one prefix, go down: a renumbered
    /// link, a removed neighbor or one moved to another AS, a withdrawn prefix, a new
    /// router-id under running sessions. Disruptive for that link or session only, as a
    /// port flap is for its port: `fabric push` does not ask `--allow-disruptive` for it.
    SessionReset,
    /// Traffic on the whole switch is disturbed (buffer pools, `roce` mode).
    Disruptive,
}

impl Impact {
    /// Every class, mildest first: summaries list each, also at 0.
    pub const ALL: [Impact; 4] = [
        Impact::Hitless,
        Impact::PortFlap,
        Impact::SessionReset,
        Impact::Disruptive,
    ];
}

impl std::fmt::Display for Impact {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Impact::Hitless => "hitless",
            Impact::PortFlap => "port-flap",
            Impact::SessionReset => "session-reset",
            Impact::Disruptive => "disruptive",
        })
    }
}
