//! The second switch OS: Dell EMC SmartFabric OS10. One switch's configuration as typed state
//! ([`Config`]), read from and printed as the text of `show running-configuration`.
//!
//! An OS10 running configuration is hierarchical: top-level lines, and blocks (`interface
//! ethernet1/1/1`, `policy-map type queuing …`, `router bgp …`) whose children are indented by
//! one space per level, with `!` lines between blocks. [`parse`] reads the tree and folds each
//! line the grammar knows ([`command`]) into the state; [`render`] prints the state through the
//! templates in `templates/os10/`, in OS10's order and spelling. What the model does not know is
//! kept verbatim where it was: a top-level line or block in the [`Layout`], a child of a
//! modeled block among that block's `extras`, so nothing is lost. This module knows OS10; it
//! knows nothing of fabrics, YAML or SSH. [`plan`] turns a running config into an intended one
//! as ordered OS10 commands; [`script`] applies such commands as the switch would; [`lab`] is
//! the lab's OS10 switch.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::net::Ipv4Addr;

use serde::Serialize;

use crate::types::{Ipv4Net, Mac, StpGuard, StpPortType, Vlan, VlanSet};

mod apply;
pub mod audit;
pub mod command;
pub mod compile;
pub mod dialect;
pub mod groups;
pub mod import;
pub mod lab;
pub mod listings;
pub mod models;
pub mod names;
pub mod parse;
pub mod plan;
pub mod push;
mod qos;
pub mod render;
pub mod restore;
pub mod rules;
pub mod script;
pub mod show;
pub mod target;
pub mod verify;

pub use names::{Eth, Iface, PortGroupId, Ranges, eth_of, port_of};
pub use parse::{ParseError, Problem, parse};
pub use render::{Renderer, TEMPLATE_FILES};

/// The kinds of top-level items the model holds, in the order OS10 prints them, with the
/// evidence. A parsed config keeps the order it was printed in (10.4 prints `interface mgmt`
/// after the Ethernet ports, 10.5 before); this order places what a config adds.
pub const ORDER: &[(Kind, &str)] = &[
    (
        Kind::Dcbx,
        "10.5.3.2 TOR: after `ip vrf`, before `hostname`",
    ),
    (
        Kind::Hostname,
        "10.4.0E, 10.5.1.4, 10.5.3.2: after `crypto`/`clock`, before `interface breakout`",
    ),
    (
        Kind::Breakout,
        "10.4.0E, 10.5.0.2: after `hostname`, before `iscsi`/`username`",
    ),
    (
        Kind::Bfd,
        "an OS10 EVPN lab's running configuration (blog excerpt): `bfd enable` after `hostname`, before the interfaces; relative to breakouts and QoS, and `bfd interval` after `bfd enable`, UNCONFIRMED",
    ),
    (Kind::Wred, "10.5.3.2 TOR: first QoS block, after `aaa`"),
    (
        Kind::ClassMap,
        "10.5.3.2 TOR: after `wred`, in creation order (not sorted)",
    ),
    (
        Kind::TrustMap,
        "10.5.3.2 TOR: `trust dot1p-map` after the class-maps; `dscp-map` beside it UNCONFIRMED",
    ),
    (Kind::QosMap, "10.5.3.2 TOR: after the trust map"),
    (
        Kind::PolicyMap,
        "10.5.3.2 TOR: after `qos-map`, in creation order",
    ),
    (
        Kind::SystemQos,
        "10.5.3.2 TOR: after the policy-maps, before `port-group`",
    ),
    (
        Kind::PortGroup,
        "10.5.3.2 TOR: after `system qos`, before the interfaces, by number",
    ),
    (
        Kind::Interface,
        "10.5.x: vlan, loopback, mgmt, ethernet (port-channel before loopback UNCONFIRMED: no capture has both)",
    ),
    (Kind::Bgp, "10.5.3.2 TOR/BMC: after `route-map`"),
    (
        Kind::Vlt,
        "10.5.3.2 TOR: after `router bgp`, before `snmp-server`",
    ),
];

/// A kind of top-level item (see [`ORDER`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Kind {
    Dcbx,
    Hostname,
    Breakout,
    Bfd,
    Wred,
    ClassMap,
    TrustMap,
    QosMap,
    PolicyMap,
    SystemQos,
    PortGroup,
    Interface,
    Bgp,
    Vlt,
}

impl Kind {
    /// Its place in [`ORDER`].
    pub fn rank(self) -> usize {
        ORDER
            .iter()
            .position(|(k, _)| *k == self)
            .unwrap_or(ORDER.len())
    }

    /// Blocks (a header line with children) are printed after a `!` line; single lines are not.
    pub fn is_block(self) -> bool {
        !matches!(
            self,
            Kind::Dcbx | Kind::Hostname | Kind::Breakout | Kind::Bfd
        )
    }
}

/// One modeled top-level item: its kind and which one.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Key {
    Dcbx,
    Hostname,
    Breakout(Eth),
    /// `bfd enable`.
    BfdEnable,
    /// `bfd interval …`.
    BfdInterval,
    Wred(String),
    ClassMap(QosKind, String),
    TrustMap(TrustKind, String),
    QosMap(String),
    PolicyMap(QosKind, String),
    SystemQos,
    PortGroup(PortGroupId),
    Interface(Iface),
    Bgp,
    Vlt,
}

impl Key {
    pub fn kind(&self) -> Kind {
        match self {
            Key::Dcbx => Kind::Dcbx,
            Key::Hostname => Kind::Hostname,
            Key::Breakout(_) => Kind::Breakout,
            Key::BfdEnable | Key::BfdInterval => Kind::Bfd,
            Key::Wred(_) => Kind::Wred,
            Key::ClassMap(..) => Kind::ClassMap,
            Key::TrustMap(..) => Kind::TrustMap,
            Key::QosMap(_) => Kind::QosMap,
            Key::PolicyMap(..) => Kind::PolicyMap,
            Key::SystemQos => Kind::SystemQos,
            Key::PortGroup(_) => Kind::PortGroup,
            Key::Interface(_) => Kind::Interface,
            Key::Bgp => Kind::Bgp,
            Key::Vlt => Kind::Vlt,
        }
    }
}

/// The two QoS policy types a RoCE fabric uses: `network-qos` (PFC: `pause`, `pfc-cos`) and
/// `queuing` (ETS: `bandwidth percent`, WRED).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum QosKind {
    NetworkQos,
    Queuing,
}

impl QosKind {
    pub fn word(self) -> &'static str {
        match self {
            QosKind::NetworkQos => "network-qos",
            QosKind::Queuing => "queuing",
        }
    }
}

/// What a trust map reads: the 802.1p priority or the DSCP value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum TrustKind {
    Dot1p,
    Dscp,
}

impl TrustKind {
    pub fn word(self) -> &'static str {
        match self {
            TrustKind::Dot1p => "dot1p",
            TrustKind::Dscp => "dscp",
        }
    }

    /// The largest value a map of this kind reads: priority 7, DSCP 63.
    pub fn max(self) -> u8 {
        match self {
            TrustKind::Dot1p => 7,
            TrustKind::Dscp => 63,
        }
    }
}

/// Lines the model does not know inside a modeled block, each with the number of modeled
/// children printed before it, so it comes back in the same place. The text is as printed:
/// its indentation, and the lines of its own children (a `vrrp-group` block), joined by `\n`.
pub type Extras = Vec<(usize, String)>;

/// `! Version …` and `! Last configuration change at …`, the lines OS10 prints first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Header {
    pub version: Option<String>,
    /// As the switch printed it; a compiled config has none (no timestamps in output).
    pub last_change: Option<String>,
}

/// `channel-group N [mode active|passive]`: OS10 prints a static member (`mode on`) as the
/// bare `channel-group N` (grantcurell's 10.5.0.2 session typed `channel-group 1 mode on`; the
/// running configuration shows `channel-group 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ChannelGroup {
    pub id: u16,
    pub mode: LacpMode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum LacpMode {
    On,
    Active,
    Passive,
}

/// `switchport mode access|trunk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SwitchportMode {
    Access,
    Trunk,
}

/// One interface block. A field is printed when set; OS10 prints `no shutdown` and
/// `switchport access vlan 1` explicitly, so they are kept as printed, not as defaults.
/// The MTU of an interface without an `mtu` line: 1532 bytes by the Dell OS10 user guide
/// (`mtu`), UNCONFIRMED by a capture (every captured RoCE port sets 9216; see
/// [`audit::view::OS10_DEFAULTS`]).
pub const DEFAULT_MTU: u16 = 1532;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Interface {
    pub description: Option<String>,
    /// `shutdown` (true) or `no shutdown` (false).
    pub shutdown: Option<bool>,
    pub channel_group: Option<ChannelGroup>,
    /// `no switchport`: a routed port.
    pub routed: bool,
    pub mode: Option<SwitchportMode>,
    pub access_vlan: Option<Vlan>,
    pub trunk_allowed: Option<VlanSet>,
    pub mtu: Option<u16>,
    pub address: Option<Ipv4Net>,
    /// `flowcontrol receive on|off`.
    pub flowcontrol_rx: Option<bool>,
    /// `flowcontrol transmit on|off`.
    pub flowcontrol_tx: Option<bool>,
    /// `priority-flow-control mode on`.
    pub pfc: bool,
    /// `service-policy input type network-qos NAME`.
    pub policy_in: Option<String>,
    /// `service-policy output type queuing NAME`.
    pub policy_out: Option<String>,
    /// `ets mode on`.
    pub ets: bool,
    /// `qos-map traffic-class NAME`.
    pub qos_map: Option<String>,
    /// `trust-map dot1p|dscp NAME`.
    pub trust_map: Option<(TrustKind, String)>,
    /// `vlt-port-channel N`: this port-channel is a VLT port (the same N on both peers).
    pub vlt_port_channel: Option<u16>,
    /// `spanning-tree bpduguard enable` (true) / `disable` (false).
    pub bpduguard: Option<bool>,
    /// `spanning-tree guard root|loop`.
    pub stp_guard: Option<StpGuard>,
    /// `spanning-tree port type edge` (OS10's only port type; normal by default).
    pub stp_type: Option<StpPortType>,
    pub extras: Extras,
}

/// A WRED colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Color {
    Green,
    Yellow,
    Red,
}

impl Color {
    pub fn word(self) -> &'static str {
        match self {
            Color::Green => "green",
            Color::Yellow => "yellow",
            Color::Red => "red",
        }
    }
}

/// `random-detect color C minimum-threshold MIN maximum-threshold MAX drop-probability P`
/// (thresholds in KB).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Thresholds {
    pub min: u32,
    pub max: u32,
    pub drop: u8,
}

/// `wred NAME`: a WRED/ECN profile, referenced by `random-detect NAME` in a queuing class.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Wred {
    pub name: String,
    pub colors: BTreeMap<Color, Thresholds>,
    /// `random-detect ecn`: mark instead of dropping.
    pub ecn: bool,
    pub extras: Extras,
}

impl Wred {
    /// A profile with no line.
    pub fn new(name: String) -> Wred {
        Wred {
            name,
            colors: BTreeMap::new(),
            ecn: false,
            extras: Vec::new(),
        }
    }
}

/// `class-map type network-qos NAME` (`match qos-group …`) or `class-map type queuing NAME`
/// (`match queue …`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClassMap {
    pub kind: QosKind,
    pub name: String,
    pub matches: Option<Ranges>,
    pub extras: Extras,
}

impl ClassMap {
    /// A class-map with no line.
    pub fn new(kind: QosKind, name: String) -> ClassMap {
        ClassMap {
            kind,
            name,
            matches: None,
            extras: Vec::new(),
        }
    }
}

/// `trust dot1p-map NAME` / `trust dscp-map NAME`: `qos-group N dot1p|dscp VALUES` lines,
/// printed by qos-group.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrustMap {
    pub kind: TrustKind,
    pub name: String,
    pub groups: BTreeMap<u8, Ranges>,
    pub extras: Extras,
}

impl TrustMap {
    /// A trust map with no entry.
    pub fn new(kind: TrustKind, name: String) -> TrustMap {
        TrustMap {
            kind,
            name,
            groups: BTreeMap::new(),
            extras: Vec::new(),
        }
    }
}

/// `qos-map traffic-class NAME`: `queue N qos-group VALUES` lines, printed by queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QosMap {
    pub name: String,
    pub queues: BTreeMap<u8, Ranges>,
    pub extras: Extras,
}

impl QosMap {
    /// A qos-map with no entry.
    pub fn new(name: String) -> QosMap {
        QosMap {
            name,
            queues: BTreeMap::new(),
            extras: Vec::new(),
        }
    }
}

/// One `class NAME` of a policy-map.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PolicyClass {
    pub name: String,
    /// `bandwidth percent N` (queuing).
    pub bandwidth: Option<u8>,
    /// `pause` (network-qos): PFC for the class.
    pub pause: bool,
    /// `pfc-cos VALUES` (network-qos).
    pub pfc_cos: Option<Ranges>,
    /// `priority` (queuing): strict priority. UNCONFIRMED spelling and place (no capture).
    pub priority: bool,
    /// `random-detect NAME` (queuing): the WRED profile.
    pub random_detect: Option<String>,
    pub extras: Extras,
}

/// `policy-map type network-qos|queuing NAME`, its classes in the order they were added.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PolicyMap {
    pub kind: QosKind,
    pub name: String,
    pub classes: Vec<PolicyClass>,
    pub extras: Extras,
}

impl PolicyMap {
    /// A policy-map with no class.
    pub fn new(kind: QosKind, name: String) -> PolicyMap {
        PolicyMap {
            kind,
            name,
            classes: Vec::new(),
            extras: Vec::new(),
        }
    }
}

/// `system qos`: the switch-wide trust map, ETS and policies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SystemQos {
    pub trust_map: Option<(TrustKind, String)>,
    pub ets: bool,
    /// `service-policy input type network-qos NAME`. UNCONFIRMED place (no capture).
    pub policy_in: Option<String>,
    /// `service-policy output type queuing NAME`. UNCONFIRMED place (no capture).
    pub policy_out: Option<String>,
    pub extras: Extras,
}

/// `port-group 1/1/N`: a group of front-panel ports whose mode (`mode Eth 10g-4x`) says how
/// many interfaces its ports are, at which speed, and so what they are named (the TOR
/// capture: `ethernet1/1/17:1` in a group in `10g-4x`). Which ports a group holds is the
/// model's ([`models::Group`]), not the configuration's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PortGroup {
    /// `mode Eth 25g-4x`. Other modes (`mode FC …`) are kept verbatim.
    pub mode: Option<String>,
    pub extras: Extras,
}

/// `vlt-domain N`: a VLT pair's domain.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Vlt {
    pub id: u8,
    /// `backup destination A`: the peer's management address, the heartbeat's backup path.
    pub backup: Option<Ipv4Addr>,
    /// `discovery-interface ethernet…`: the VLT interconnect's ports.
    pub discovery: BTreeSet<Eth>,
    pub peer_routing: bool,
    pub primary_priority: Option<u32>,
    pub vlt_mac: Option<Mac>,
    pub extras: Extras,
}

impl Vlt {
    pub fn new(id: u8) -> Vlt {
        Vlt {
            id,
            backup: None,
            discovery: BTreeSet::new(),
            peer_routing: false,
            primary_priority: None,
            vlt_mac: None,
            extras: Vec::new(),
        }
    }
}

/// An `address-family ipv4 unicast` sub-block: what the model does not know is kept.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AddressFamily {
    /// `network A/N`, in the order printed (OS10 does not sort them: the TOR capture).
    pub networks: Vec<Ipv4Net>,
    pub extras: Extras,
}

/// What a BGP `neighbor A` or `template NAME` block sets. OS10 prints a block's lines in
/// alphabetical order of their command (captures: `description`, `inherit template`,
/// `password`, `no shutdown`; `ebgp-multihop`, `listen`, `remote-as`, `update-source`; `bfd`
/// before `remote-as`, an OS10 EVPN lab's template), `timers` after `remote-as` and before
/// `no shutdown` (Dell OS10 10.4.0E user guide, `timers`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Peer {
    /// `bfd`: BFD watches the session (once `bfd enable` runs it).
    pub bfd: bool,
    pub description: Option<String>,
    /// `inherit template NAME`.
    pub inherit: Option<String>,
    pub remote_as: Option<u32>,
    /// `timers KEEPALIVE HOLD`, in seconds.
    pub timers: Option<(u16, u16)>,
    /// `shutdown` (true) or `no shutdown` (false).
    pub shutdown: Option<bool>,
    pub ipv4: Option<AddressFamily>,
    pub extras: Extras,
}

/// `bfd interval MS min_rx MS multiplier N role active|passive`: the timers of every BFD
/// session (Dell OS10 user guide, `bfd interval`; the netlab `dellos10` template types it
/// with `role active`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BfdInterval {
    pub interval: u32,
    pub min_rx: u32,
    pub multiplier: u8,
    /// `role passive`: answers BFD sessions, never starts one.
    pub passive: bool,
}

impl BfdInterval {
    /// The timers without a `bfd interval` line: 200 ms, 200 ms, 3, active (Dell OS10 user
    /// guide, `bfd interval`, Default). Not printed at those values: UNCONFIRMED (no capture
    /// prints the line; OS10 prints no other default the model knows).
    pub const DEFAULT: BfdInterval = BfdInterval {
        interval: 200,
        min_rx: 200,
        multiplier: 3,
        passive: false,
    };
}

/// `router bgp ASN`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bgp {
    pub asn: u32,
    /// `bestpath as-path multipath-relax`.
    pub multipath_relax: bool,
    /// An eBGP session resets as soon as its link goes down: on by default, `no
    /// fast-external-fallover` when off (Dell OS10 10.5 reference guide, "Fast external
    /// fallover", with the running configuration it shows).
    pub fast_external_fallover: bool,
    pub max_paths_ebgp: Option<u16>,
    pub max_paths_ibgp: Option<u16>,
    pub router_id: Option<Ipv4Addr>,
    pub ipv4: Option<AddressFamily>,
    /// `template NAME` blocks, in the order printed.
    pub templates: Vec<(String, Peer)>,
    /// `neighbor A` blocks, in the order printed (OS10 does not sort them: the TOR capture).
    pub neighbors: Vec<(Ipv4Addr, Peer)>,
    pub extras: Extras,
}

impl Bgp {
    pub fn new(asn: u32) -> Bgp {
        Bgp {
            asn,
            multipath_relax: false,
            fast_external_fallover: true,
            max_paths_ebgp: None,
            max_paths_ibgp: None,
            router_id: None,
            ipv4: None,
            templates: Vec::new(),
            neighbors: Vec::new(),
            extras: Vec::new(),
        }
    }
}

/// One top-level entry as printed: a modeled item, or text kept verbatim (an unknown line with
/// its children, a banner, `!` lines, blank lines: a run of the same line is one text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Entry {
    Item(Key),
    Text(String),
}

/// The top level as printed: modeled items and verbatim text in order. A config built in code
/// has an empty layout and prints in [`ORDER`]; a parsed one prints as it was read, items it
/// gains placed by [`ORDER`].
#[derive(Clone, Debug, Eq, Serialize)]
pub struct Layout {
    pub entries: Vec<Entry>,
    /// Whether the text ended with a newline.
    pub final_newline: bool,
}

/// Whether `text` is `!` lines only (one, or a run): each ends the block above it.
pub fn is_bangs(text: &str) -> bool {
    text.split('\n').all(|l| l == "!")
}

/// Whether `text` is `!` and blank lines only: presentation, not state.
fn is_presentation(text: &str) -> bool {
    text.split('\n').all(|l| l.is_empty() || l == "!")
}

impl Default for Layout {
    fn default() -> Layout {
        Layout {
            entries: Vec::new(),
            final_newline: true,
        }
    }
}

impl Layout {
    /// The verbatim text, each with the modeled item printed before it. `!` and blank lines
    /// are presentation (the renderer prints a `!` before each block it places), not state.
    pub fn anchored(&self) -> Vec<(Option<&Key>, &str)> {
        let mut anchor = None;
        let mut out = Vec::new();
        for e in &self.entries {
            match e {
                Entry::Item(k) => anchor = Some(k),
                Entry::Text(t) if !is_presentation(t) => out.push((anchor, t.as_str())),
                Entry::Text(_) => {}
            }
        }
        out
    }
}

/// Layouts are equal when they keep the same verbatim text after the same items: where an
/// item without verbatim text around it is printed is presentation, not state.
impl PartialEq for Layout {
    fn eq(&self, other: &Self) -> bool {
        self.anchored() == other.anchored()
    }
}

/// One switch's configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Config {
    pub header: Header,
    pub hostname: Option<String>,
    /// `dcbx enable`.
    pub dcbx: bool,
    /// `interface breakout 1/1/13 map 100g-1x`, by port.
    pub breakouts: BTreeMap<Eth, String>,
    /// `bfd enable`: BFD runs (for the neighbors with `bfd`).
    pub bfd: bool,
    /// `bfd interval …`; `None`: [`BfdInterval::DEFAULT`].
    pub bfd_interval: Option<BfdInterval>,
    pub wred: Vec<Wred>,
    pub class_maps: Vec<ClassMap>,
    pub trust_maps: Vec<TrustMap>,
    pub qos_maps: Vec<QosMap>,
    pub policy_maps: Vec<PolicyMap>,
    pub system_qos: Option<SystemQos>,
    /// `port-group 1/1/N`, by group.
    pub port_groups: BTreeMap<PortGroupId, PortGroup>,
    pub interfaces: BTreeMap<Iface, Interface>,
    pub bgp: Option<Bgp>,
    pub vlt: Option<Vlt>,
    pub layout: Layout,
}

impl Config {
    /// The modeled items this config holds, in [`ORDER`].
    pub fn keys(&self) -> Vec<Key> {
        let mut out = Vec::new();
        if self.dcbx {
            out.push(Key::Dcbx);
        }
        if self.hostname.is_some() {
            out.push(Key::Hostname);
        }
        out.extend(self.breakouts.keys().map(|e| Key::Breakout(*e)));
        if self.bfd {
            out.push(Key::BfdEnable);
        }
        if self.bfd_interval.is_some() {
            out.push(Key::BfdInterval);
        }
        out.extend(self.wred.iter().map(|w| Key::Wred(w.name.clone())));
        out.extend(
            self.class_maps
                .iter()
                .map(|c| Key::ClassMap(c.kind, c.name.clone())),
        );
        out.extend(
            self.trust_maps
                .iter()
                .map(|t| Key::TrustMap(t.kind, t.name.clone())),
        );
        out.extend(self.qos_maps.iter().map(|q| Key::QosMap(q.name.clone())));
        out.extend(
            self.policy_maps
                .iter()
                .map(|p| Key::PolicyMap(p.kind, p.name.clone())),
        );
        if self.system_qos.is_some() {
            out.push(Key::SystemQos);
        }
        out.extend(self.port_groups.keys().map(|g| Key::PortGroup(*g)));
        out.extend(self.interfaces.keys().map(|i| Key::Interface(*i)));
        if self.bgp.is_some() {
            out.push(Key::Bgp);
        }
        if self.vlt.is_some() {
            out.push(Key::Vlt);
        }
        out
    }

    /// Where an item goes among others: by kind in [`ORDER`], then within its kind (sorted
    /// kinds by key, the others in the order they were added).
    fn rank(&self, k: &Key) -> (usize, usize, Option<Key>) {
        let pos = |i: Option<usize>| i.unwrap_or(usize::MAX);
        let within = match k {
            Key::Wred(n) => pos(self.wred.iter().position(|w| w.name == *n)),
            Key::ClassMap(t, n) => pos(self
                .class_maps
                .iter()
                .position(|c| c.kind == *t && c.name == *n)),
            Key::TrustMap(t, n) => pos(self
                .trust_maps
                .iter()
                .position(|c| c.kind == *t && c.name == *n)),
            Key::QosMap(n) => pos(self.qos_maps.iter().position(|q| q.name == *n)),
            Key::PolicyMap(t, n) => pos(self
                .policy_maps
                .iter()
                .position(|c| c.kind == *t && c.name == *n)),
            _ => 0,
        };
        let sorted = matches!(k, Key::Breakout(_) | Key::PortGroup(_) | Key::Interface(_))
            .then(|| k.clone());
        (k.kind().rank(), within, sorted)
    }

    /// What is printed, in order: layout entries whose item still exists, and the items the
    /// layout does not place, each before the first placed item that ranks after it (with a
    /// `!` before a block).
    pub fn printed(&self) -> Vec<Printed<'_>> {
        let keys = self.keys();
        let present: HashSet<&Key> = keys.iter().collect();
        let placed: HashSet<&Key> = self
            .layout
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Item(k) if present.contains(k) => Some(k),
                _ => None,
            })
            .collect();
        let mut missing = keys
            .iter()
            .filter(|k| !placed.contains(k))
            .map(|k| (self.rank(k), k))
            .collect::<Vec<_>>()
            .into_iter()
            .peekable();
        let mut out: Vec<Printed<'_>> = Vec::with_capacity(keys.len() + self.layout.entries.len());
        // `!` lines waiting for what follows them: an item placed before it goes before them.
        let mut bangs: Vec<&str> = Vec::new();
        fn flush<'a>(out: &mut Vec<Printed<'a>>, bangs: &mut Vec<&'a str>) {
            out.extend(bangs.drain(..).map(Printed::Text));
        }
        let push_new = |out: &mut Vec<Printed<'_>>, k: &Key| {
            if k.kind().is_block() {
                out.push(Printed::Text("!"));
            }
            out.push(Printed::Item(k.clone()));
        };
        for e in &self.layout.entries {
            match e {
                Entry::Text(t) if is_bangs(t) => bangs.push(t),
                Entry::Text(t) => {
                    flush(&mut out, &mut bangs);
                    out.push(Printed::Text(t));
                }
                Entry::Item(k) if present.contains(k) => {
                    if missing.peek().is_some() {
                        let r = self.rank(k);
                        while let Some((_, m)) = missing.next_if(|(mr, _)| *mr < r) {
                            push_new(&mut out, m);
                        }
                    }
                    flush(&mut out, &mut bangs);
                    out.push(Printed::Item(k.clone()));
                }
                Entry::Item(_) => {}
            }
        }
        // Trailing `!` lines stay last unless items are added after them.
        if missing.peek().is_some() {
            flush(&mut out, &mut bangs);
        }
        for (_, m) in missing {
            push_new(&mut out, m);
        }
        flush(&mut out, &mut bangs);
        out
    }

    /// Keeps `text` verbatim at the top level, after `after` (at the start when `None`),
    /// where the layout places it; the layout is first filled with the printed order.
    pub fn keep_verbatim(&mut self, after: Option<&Key>, text: &str) {
        if self.layout.entries.is_empty() {
            self.layout.entries = self
                .printed()
                .into_iter()
                .map(|p| match p {
                    Printed::Item(k) => Entry::Item(k),
                    Printed::Text(t) => Entry::Text(t.to_string()),
                })
                .collect();
        }
        let at = match after {
            None => 0,
            Some(k) => self
                .layout
                .entries
                .iter()
                .position(|e| matches!(e, Entry::Item(x) if x == k))
                .map_or(self.layout.entries.len(), |i| i + 1),
        };
        self.layout
            .entries
            .insert(at, Entry::Text(text.to_string()));
    }
}

/// One thing to print at the top level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Printed<'a> {
    Item(Key),
    Text(&'a str),
}

/// The first OS10 release with transaction mode (`start transaction` … `commit` / `discard`):
/// Dell knowledge-base article 000120163 says "available as of 10.4.x"; which 10.4 release
/// first had it is UNCONFIRMED, so every 10.4 release counts. The session and the lab read
/// this one value.
pub const TRANSACTIONS_SINCE: (u32, u32) = (10, 4);

/// The first OS10 release with the RoCE QoS the compile writes: Dell EMC SmartFabric OS10
/// user guide 10.5.1, "Enhanced transmission selection": "Supported Releases 10.3.0E or
/// later"; the same for PFC's network-qos policies and WRED/ECN by analogy (UNCONFIRMED).
pub const ROCE_QOS_SINCE: (u32, u32) = (10, 3);

/// Whether an OS10 release runs the RoCE QoS ([`ROCE_QOS_SINCE`]). A release that does not
/// read as numbers is taken to (E074 refuses it anyway).
pub fn has_roce_qos(release: &str) -> bool {
    let mut parts = release.trim().split('.').map(|p| p.parse::<u32>());
    match (parts.next(), parts.next()) {
        (Some(Ok(major)), Some(Ok(minor))) => (major, minor) >= ROCE_QOS_SINCE,
        _ => true,
    }
}

/// Whether an OS10 release (`10.5.3.2`, as `show version` prints it) has transaction mode.
/// A release that does not read as numbers has none: a push then rolls back as on Onyx.
pub fn has_transactions(release: &str) -> bool {
    let mut parts = release.trim().split('.').map(|p| p.parse::<u32>());
    match (parts.next(), parts.next()) {
        (Some(Ok(major)), Some(Ok(minor))) => (major, minor) >= TRANSACTIONS_SINCE,
        _ => false,
    }
}
