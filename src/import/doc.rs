//! The fabric document `fabric import` writes: the format's keys as import fills them, in the
//! order it writes them, serialized as YAML (flow maps where a value reads best on one line).
//! Only what is serialized lives here; how a switch's configuration becomes these values is
//! its OS's (`targets::Import`), what several OSes share is in `ports` and `peers`.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_saphyr::{Commented, FlowMap, FlowSeq};

/// A map serialized in the order given (ports in port order, sections in print order).
pub struct Ordered<V>(pub(crate) Vec<(String, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<V> Default for Ordered<V> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<V> Ordered<V> {
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The fabric file as import writes it.
#[derive(Default, Serialize)]
pub struct Doc {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) os: Option<&'static str>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub(crate) release: Option<Release>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) lldp: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) qos: Option<Qos>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) vlans: Vec<VlanDoc>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) mlag: Vec<PairDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) port_defaults: Option<Defaults>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) profiles: BTreeMap<String, FlowMap<Settings>>,
    pub(crate) switches: BTreeMap<String, Commented<SwitchDoc>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) links: Vec<FlowMap<LinkDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) routing: Option<RoutingDoc>,
}

/// The release the fabric (or a switch) runs, under its OS's word: `onyx: 3.9.3124`, `os10:
/// "10.5.3.2"`.
pub struct Release {
    pub(crate) word: &'static str,
    pub(crate) release: String,
}

impl Release {
    /// The release under the OS's word, if there is one.
    pub(crate) fn of(word: &'static str, release: Option<String>) -> Option<Release> {
        release.map(|release| Release { word, release })
    }
}

impl Serialize for Release {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map([(self.word, &self.release)])
    }
}

/// `routing:` as import writes it: the ECMP hashing of the switches that route (their BGP is
/// written out per switch).
#[derive(Serialize)]
pub struct RoutingDoc {
    pub(crate) load_sharing: FlowSeq<Vec<String>>,
}

#[derive(Clone, PartialEq, Serialize)]
pub struct VlanDoc {
    pub(crate) id: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mtu: Option<u16>,
}

#[derive(Serialize)]
pub struct NeighborDoc {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) address: Option<String>,
    /// The switch's port of an unnumbered session (`swp33`), instead of an address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) port: Option<String>,
    pub(crate) remote_as: crate::fabric::RemoteAs,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) bfd: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) timers: Option<FlowMap<TimersDoc>>,
}

/// BGP's keepalive and hold timers.
#[derive(Clone, Copy, PartialEq, Serialize)]
pub struct TimersDoc {
    pub(crate) keepalive: u16,
    pub(crate) hold: u16,
}

impl TimersDoc {
    pub(crate) fn of((keepalive, hold): (u16, u16)) -> FlowMap<TimersDoc> {
        FlowMap(TimersDoc { keepalive, hold })
    }
}

/// `bfd`: on or off, or on with timers other than the format's default.
#[derive(Serialize)]
#[serde(untagged)]
pub enum BfdDoc {
    Flag(bool),
    Timers(FlowMap<crate::fabric::BfdTimers>),
}

impl BfdDoc {
    /// BFD on with `t`: `true` at the format's default timers.
    pub(crate) fn on(t: crate::fabric::BfdTimers) -> BfdDoc {
        if t == crate::fabric::BfdTimers::DEFAULT {
            BfdDoc::Flag(true)
        } else {
            BfdDoc::Timers(FlowMap(t))
        }
    }
}

/// A switch's BGP, written out.
#[derive(Serialize)]
pub struct BgpDoc {
    pub(crate) asn: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) router_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) maximum_paths: Option<u16>,
    pub(crate) multipath_relax: bool,
    /// BFD on the sessions over routed links, and its timers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) bfd: Option<BfdDoc>,
    /// The timers of the sessions over routed links.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) timers: Option<FlowMap<TimersDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) fast_external_fallover: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) neighbors: Vec<FlowMap<NeighborDoc>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) networks: Vec<String>,
}

#[derive(Serialize)]
pub struct IplDoc {
    pub(crate) port_channel: u16,
    pub(crate) vlan: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) address: Option<String>,
    pub(crate) peer: String,
}

/// A switch's half of an MLAG pair.
#[derive(Serialize)]
pub struct MlagDoc {
    pub(crate) system_mac: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) domain: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) vip: Option<String>,
    pub(crate) ipl: FlowMap<IplDoc>,
    /// The peer's management address, where its OS names it (a backup heartbeat's
    /// destination).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) peer_mgmt: Option<String>,
}

#[derive(Clone, PartialEq, Serialize)]
pub struct Qos {
    /// `roce-lossless`, where a switch's QoS is the recipe exactly.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) preset: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) roce: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) pools: BTreeMap<String, FlowMap<PoolDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) pfc: Option<PfcField>,
}

/// `qos.pfc`: `false` (the opt-out) or written out.
#[derive(Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PfcField {
    Off(bool),
    Table(FlowMap<PfcDoc>),
}

#[derive(Clone, PartialEq, Serialize)]
pub struct PoolDoc {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    /// Hundredths of a percent: `50` or `12.5`.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "percent")]
    pub(crate) memory: Option<u16>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) priorities: Vec<u8>,
}

#[derive(Clone, PartialEq, Serialize)]
pub struct PfcDoc {
    pub(crate) enabled: bool,
    pub(crate) priorities: FlowSeq<Vec<u8>>,
}

/// A switch as the fabric writes it: each OS's import sets the keys it has.
#[derive(Default, Serialize)]
pub struct SwitchDoc {
    /// Its OS's word, when the fabric's OS is another.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) os: Option<&'static str>,
    pub(crate) model: String,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub(crate) release: Option<Release>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) licenses: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) certificate: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) lldp: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) qos: Option<Qos>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) set_hostname: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) loopback: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) vlans: Vec<FlowMap<VlanDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stp: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) host_ports: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) unused_ports: Option<&'static str>,
    /// Its half of a pair, written before `bgp`: a pair member imported without its peer.
    #[serde(rename = "mlag", skip_serializing_if = "Option::is_none")]
    pub(crate) half: Option<MlagDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) bgp: Option<BgpDoc>,
    /// Its half of a pair, written after `bgp`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mlag: Option<MlagDoc>,
    /// The management address its pair peer names (as the peer's backup heartbeat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mgmt: Option<FlowMap<MgmtDoc>>,
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub(crate) ports: Ordered<FlowMap<Settings>>,
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    pub(crate) extra: Ordered<Vec<String>>,
}

/// `mgmt: { host: A }`.
#[derive(Serialize)]
pub struct MgmtDoc {
    pub(crate) host: String,
}

/// A fabric `mlag` pair.
#[derive(Serialize)]
pub struct PairDoc {
    pub(crate) switches: FlowSeq<Vec<String>>,
    pub(crate) system_mac: String,
    pub(crate) ipl: FlowMap<PairIplDoc>,
}

/// A pair's IPL, as a pair whose OS prints neither VLAN nor subnet for it writes one: the
/// port-channel whose `role: ipl` link names the peer link's ports, a VLAN and subnet the
/// switches do not use.
#[derive(Serialize)]
pub struct PairIplDoc {
    pub(crate) port_channel: u16,
    pub(crate) vlan: u16,
    pub(crate) subnet: &'static str,
}

/// A port's settings in the format's words; also a profile's and `port_defaults`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Settings {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) profile: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) split: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) speed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mtu: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) admin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) switchport: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) vlan: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) vlans: Option<Vec<u16>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) trust: Option<String>,
    // Plain: in a flow map (a profile, a port) it flows anyway, and serde-saphyr 2.1.1 leaks
    // flow style past a flow map nested in another (every map after it would flow).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) ecn: BTreeMap<u8, EcnDoc>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) ets: BTreeMap<u8, EtsDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) pfc: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) peer: Option<PeerDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) advertise: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mlag: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) lag: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) lacp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) lacp_individual: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) bundle_description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) stp: Option<StpDoc>,
}

/// `stp:` of a port (or of the bundle it joins): what differs from the switch's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct StpDoc {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub(crate) kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) bpduguard: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) guard: Option<String>,
}

/// A host on a port, or numbered hosts on a range (`gpu{001..004}`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct PeerDoc {
    pub(crate) host: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) port: Option<String>,
}

#[derive(Serialize)]
pub struct LinkDoc {
    pub(crate) a: String,
    pub(crate) b: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) role: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct EcnDoc {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) min: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) min_percent: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) max_percent: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(untagged)]
pub enum EtsDoc {
    Strict(&'static str),
    Wrr(u8),
}

/// `port_defaults` in block style, its ECN thresholds one flow map per queue (`3: {min: 150,
/// max: 1500}`), after the other settings.
#[derive(Serialize)]
pub struct Defaults {
    #[serde(flatten)]
    pub(crate) settings: Settings,
    #[serde(
        skip_serializing_if = "BTreeMap::is_empty",
        serialize_with = "flow_values"
    )]
    pub(crate) ecn: BTreeMap<u8, EcnDoc>,
}

impl Defaults {
    pub(crate) fn new(s: Settings) -> Option<Defaults> {
        (!s.is_empty_settings()).then(|| Defaults {
            ecn: s.ecn.clone(),
            settings: Settings {
                ecn: BTreeMap::new(),
                ..s
            },
        })
    }
}

/// A map whose values print in flow style: `3: {min: 150, max: 1500}`.
fn flow_values<S: serde::Serializer, V: Serialize>(
    m: &BTreeMap<u8, V>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(m.iter().map(|(k, v)| (k, FlowMap(v))))
}

/// A percentage kept in hundredths, printed as the number a user writes (`50`, `12.5`).
fn percent<S: serde::Serializer>(v: &Option<u16>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(h) if h % 100 == 0 => s.serialize_u16(h / 100),
        Some(h) => s.serialize_f64(f64::from(*h) / 100.0),
        None => s.serialize_none(),
    }
}
