//! An inventory override: where to reach each switch instead of its `mgmt` address, and the
//! `known_hosts` file that vouches for them. `fabric lab` writes one for its simulated
//! switches; `fabric diff` and `fabric push` read it with `--inventory FILE`.
//!
//! ```yaml
//! known_hosts: /home/me/project/.fabric/lab/known_hosts
//! switches:
//!   leaf01: { host: 127.0.0.1, port: 2201, user: admin }
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inventory {
    /// Host keys of the switches, in OpenSSH's `known_hosts` format.
    pub known_hosts: Option<PathBuf>,
    pub switches: BTreeMap<String, Address>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Address {
    pub host: String,
    pub port: u16,
    pub user: String,
}
