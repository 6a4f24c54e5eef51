//! Running stages over a fleet of switches, for every command that reads or changes them
//! (`diff`, `push`, `verify`, `audit`, `import`, `hosts`): which switches a run targets and
//! how each is reached (`connect`: credentials, host keys, the inventory), the parallel
//! runner (`run`), `fabric push` across the switches (`push`: the per-switch locks, a canary
//! then the rest with progress, stopped safely by signals (`stop`), the verification after)
//! and `fabric verify`'s collection (`verify`). Written once for every switch OS: each switch's
//! OS is asked through [`crate::targets`]. What a command shows and asks is the command
//! line's.

pub mod connect;
pub mod push;
pub mod run;
mod stop;
pub mod verify;

pub use connect::{Connect, PASSWORD_ENV, Reach, chosen, jobs, read_inventory};
pub use run::{parallel, read_each};
