//! The target OS: one switch's configuration as typed state ([`Config`]), and its canonical
//! text, printed exactly as `show running-config` prints it (see [`render`]).
//!
//! The model holds state, not text: a setting on port 1/5 is a field of port 1/5, whichever
//! range line set it. Defaults are absent (`None`/`false`), because Onyx does not print them.
//! This module knows Onyx; it knows nothing of fabrics, YAML or SSH.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::types::{
    Ecn, Ets, Percent, PoolType, Port, Priority, Release, RoceMode, Speed, Split, SwitchportMode,
    TrafficClass, Trust, Vlan,
};

pub mod command;
pub mod render;

pub use render::{Renderer, TEMPLATE_FILES};

/// A running-config section, in the order this renderer prints them. The order follows the
/// reference deployment guide's session (Onyx 3.6.8190: buffer, LLDP, QoS switch, DCBX ETS,
/// Other IP, AAA, Network management, X.509) merged with full captures of 3.6-3.9 switches
/// (Ethernet, LAG, VLAN, DCBX PFC before LLDP), see `onyx-cli.md` §b.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Section {
    TemporaryPrefix,
    Licenses,
    Buffer,
    Ethernet,
    Vlan,
    DcbxPfc,
    Lldp,
    QosSwitch,
    DcbxEts,
    OtherIp,
    AaaRemote,
    NetworkManagement,
    X509,
    PersistentPrefix,
}

impl Section {
    pub fn title(self) -> &'static str {
        match self {
            Section::TemporaryPrefix => "Running-config temporary prefix mode setting",
            Section::Licenses => "License keys",
            Section::Buffer => "Interface Ethernet buffer configuration",
            Section::Ethernet => "Interface Ethernet configuration",
            Section::Vlan => "VLAN configuration",
            Section::DcbxPfc => "DCBX PFC configuration",
            Section::Lldp => "LLDP configuration",
            Section::QosSwitch => "QoS switch configuration",
            Section::DcbxEts => "DCBX ETS configuration",
            Section::OtherIp => "Other IP configuration",
            Section::AaaRemote => "AAA remote server configuration",
            Section::NetworkManagement => "Network management configuration",
            Section::X509 => "X.509 certificates configuration",
            Section::PersistentPrefix => "Persistent prefix mode setting",
        }
    }
}

/// `traffic pool NAME …`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pool {
    /// `type`; `None` is Onyx's default, lossy.
    pub kind: Option<PoolType>,
    pub memory: Option<Percent>,
    pub priorities: BTreeSet<Priority>,
}

/// Global PFC: `dcb priority-flow-control enable force` and `… priority N enable`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pfc {
    pub enabled: bool,
    pub priorities: BTreeSet<Priority>,
}

/// One Ethernet port (or split subport). Every field at its default is not printed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ethernet {
    /// `module-type qsfp-split-N force`, on the front-panel port that is split.
    pub split: Option<Split>,
    /// `speed S force`; `None` is the port's native speed.
    pub speed: Option<Speed>,
    /// `mtu N force`.
    pub mtu: Option<u16>,
    pub description: Option<String>,
    /// `shutdown`; ports are enabled by default.
    pub shutdown: bool,
    /// `switchport mode`; `None` is access.
    pub switchport_mode: Option<SwitchportMode>,
    /// `switchport access vlan N`; `None` is VLAN 1.
    pub access_vlan: Option<Vlan>,
    /// `qos trust`; `None` is L2.
    pub trust: Option<Trust>,
    pub ecn: BTreeMap<TrafficClass, Ecn>,
    pub ets: BTreeMap<TrafficClass, Ets>,
    /// `dcb priority-flow-control mode on force`.
    pub pfc: bool,
}

/// `vlan N` and `vlan N name "…"`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VlanConfig {
    pub name: Option<String>,
}

/// One switch's configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    /// `## Running database "…"`.
    pub database: String,
    /// `## Product release: …`, printed from 3.9 on.
    pub release: Option<Release>,
    /// `hostname …` (also `## Hostname: …`).
    pub hostname: Option<String>,
    /// `license install …`.
    pub licenses: Vec<String>,
    /// `roce [mode]`.
    pub roce: Option<RoceMode>,
    pub pools: BTreeMap<String, Pool>,
    pub ethernet: BTreeMap<Port, Ethernet>,
    pub vlans: BTreeMap<Vlan, VlanConfig>,
    pub pfc: Pfc,
    /// `lldp`.
    pub lldp: bool,
    /// Lines kept as text: the masked-secret comments every switch prints.
    pub verbatim: BTreeMap<Section, Vec<String>>,
}

impl Config {
    /// A switch as it leaves the factory, named: no configuration, and the masked-secret
    /// comment lines Onyx always prints (`# radius-server key ********` …). The X.509 lines
    /// name the switch's self-signed certificate, so they are printed only when its ID is known.
    pub fn factory(hostname: &str, release: Option<Release>, certificate: Option<&str>) -> Config {
        let mut verbatim = BTreeMap::new();
        verbatim.insert(
            Section::AaaRemote,
            vec![
                "# ldap bind-password ********".to_string(),
                "# radius-server key ********".to_string(),
                "# tacacs-server key ********".to_string(),
            ],
        );
        verbatim.insert(
            Section::NetworkManagement,
            vec!["# web proxy auth basic password ********".to_string()],
        );
        if let Some(id) = certificate {
            verbatim.insert(
                Section::X509,
                vec![
                    "#".to_string(),
                    format!("# Certificate name system-self-signed, ID {id}"),
                    "# (public-cert config omitted since private-key config is hidden)".to_string(),
                ],
            );
        }
        Config {
            database: "initial".to_string(),
            release,
            hostname: Some(hostname.to_string()),
            licenses: Vec::new(),
            roce: None,
            pools: BTreeMap::new(),
            ethernet: BTreeMap::new(),
            vlans: BTreeMap::new(),
            pfc: Pfc::default(),
            lldp: false,
            verbatim,
        }
    }

    /// Whether strings (descriptions, VLAN names) print double-quoted: 3.9 captures quote
    /// them, 3.6/3.7 captures do not (`description TRUNK TO Dell7048`).
    pub fn quotes_strings(&self) -> bool {
        self.release.is_some_and(|r| r >= Release::HEADER_RELEASE)
    }
}
