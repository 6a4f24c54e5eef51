//! The fabric file format: YAML → [`raw`] (serde mirror with positions) → [`validate`] →
//! [`Fabric`], a model that cannot hold an invalid value, with every port's settings already
//! resolved (fabric defaults → profile → port entry). Every problem is collected, not the first.
//! This module knows the format and fabric rules; it does not know Onyx text.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::types::{
    Ecn, Ets, Hostname, Model, Percent, PoolType, Port, Priority, Release, RoceMode, Speed, Split,
    SwitchportMode, TcMap, Trust, Vlan,
};

pub mod inventory;
pub mod load;
pub mod raw;
pub mod validate;

pub use inventory::Inventory;
pub use load::{load, parse_bytes};
pub use validate::validate;

/// A validated fabric.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fabric {
    /// Switches by hostname.
    pub switches: BTreeMap<Hostname, Switch>,
}

/// How to reach a switch over SSH.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mgmt {
    pub host: String,
    pub port: u16,
    pub user: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pool {
    pub kind: PoolType,
    pub memory: Option<Percent>,
    pub priorities: BTreeSet<Priority>,
}

/// Global PFC.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pfc {
    pub enabled: bool,
    pub priorities: BTreeSet<Priority>,
}

/// Switch-wide QoS intent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Qos {
    pub roce: Option<RoceMode>,
    pub pools: BTreeMap<String, Pool>,
    pub pfc: Option<Pfc>,
}

/// What is plugged into a port.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum Peer {
    Host { host: String, port: Option<String> },
    Switch { switch: Hostname, port: Port },
}

impl Peer {
    /// The description a port gets from its peer when none is written: `clx-mld-41:vmnic2`.
    pub fn description(&self) -> String {
        match self {
            Peer::Host {
                host,
                port: Some(p),
            } => format!("{host}:{p}"),
            Peer::Host { host, port: None } => host.clone(),
            Peer::Switch { switch, port } => format!("{switch}:{port}"),
        }
    }
}

/// One port's resolved settings. `None` means "not set": Onyx's default stays.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PortSettings {
    pub speed: Option<Speed>,
    pub mtu: Option<u16>,
    pub shutdown: bool,
    pub switchport: Option<SwitchportMode>,
    pub vlan: Option<Vlan>,
    pub trust: Option<Trust>,
    pub ecn: TcMap<Ecn>,
    pub ets: TcMap<Ets>,
    pub pfc: bool,
    pub description: Option<String>,
    pub peer: Option<Peer>,
}

/// One switch, every port resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Switch {
    pub hostname: Hostname,
    #[serde(serialize_with = "model_name")]
    pub model: &'static Model,
    pub release: Option<Release>,
    pub mgmt: Option<Mgmt>,
    pub licenses: Vec<String>,
    pub certificate: Option<String>,
    pub lldp: bool,
    pub qos: Qos,
    pub vlans: BTreeMap<Vlan, Option<String>>,
    /// Front-panel ports that are split, and how.
    pub splits: BTreeMap<Port, Split>,
    /// Every usable port (split parents replaced by their subports, ports disabled by a
    /// neighbour's 4-way split left out), with its settings.
    pub ports: BTreeMap<Port, PortSettings>,
    /// `hostname <name>` is printed (false: the switch keeps the name it has).
    pub set_hostname: bool,
    /// Lines outside the format, by section title, each checked against the Onyx grammar.
    pub extra: Vec<(String, Vec<String>)>,
}

fn model_name<S: serde::Serializer>(m: &&'static Model, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.name)
}

/// Reads, parses and validates one fabric file: the fabric when it has no error, and every
/// diagnostic either way. `Err` only when the file cannot be read.
pub fn read(
    path: &std::path::Path,
    sources: &mut crate::diag::Sources,
) -> std::io::Result<(Option<Fabric>, Vec<crate::diag::Diagnostic>)> {
    Ok(match load(path, sources)? {
        Ok(loaded) => {
            let (fabric, diags) = validate(&loaded.raw, loaded.file);
            // A key written twice is an error even when the rest validates.
            let fabric = fabric.filter(|_| loaded.diagnostics.is_empty());
            (
                fabric,
                loaded.diagnostics.into_iter().chain(diags).collect(),
            )
        }
        Err(d) => (None, vec![d]),
    })
}

/// The JSON Schema of the fabric format, for editors (yaml-language-server) and CI.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(raw::RawFabric);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
