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
    /// The lab's data plane (`fabric lab --dataplane`): its hosts, for `fabric verify
    /// --paths` to probe from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataplane: Option<Dataplane>,
}

/// A lab's data plane as its inventory gives it: each host in a network namespace of this
/// machine.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dataplane {
    pub hosts: BTreeMap<String, LabHost>,
}

/// One NIC port of a host of the lab's data plane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabHost {
    /// The host's network namespace (`ip netns exec NAMESPACE …`).
    pub namespace: String,
    pub nic: String,
    pub mtu: u16,
    /// Its address, `A.B.C.D/N`.
    pub address: String,
    /// Its group: its switch and VLAN (`leaf01 vlan 10`) or routed port.
    pub group: String,
    pub switch: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Address {
    pub host: String,
    pub port: u16,
    pub user: String,
}
