//! The fabric file format: YAML → [`raw`] (serde mirror with positions) → [`validate`] →
//! [`Fabric`], a model that cannot hold an invalid value, with every port's settings already
//! resolved (fabric defaults → profile → port entry). Every problem is collected, not the first.
//! This module knows the format and fabric rules; it does not know Onyx text.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;
use std::sync::Arc;

use serde::Serialize;

use crate::types::{
    Dscp, Ecn, Ets, HostOs, Hostname, Ipv4Net, Mac, Nic, Percent, PoolType, Port, Priority,
    Release, RoceMode, Speed, Split, StpGuard, StpPortType, SwitchportMode, TcMap, Trust, Vlan,
};

pub mod inventory;
pub mod load;
pub mod meaning;
pub mod raw;
pub mod strings;
pub mod validate;

pub use inventory::Inventory;
pub use load::{load, parse_bytes};
pub use validate::validate;

/// A validated fabric.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fabric {
    /// Switches by hostname.
    pub switches: BTreeMap<Hostname, Switch>,
    /// Hosts by name (`hosts:`, patterns expanded); empty when the fabric declares none.
    pub hosts: BTreeMap<Hostname, Host>,
}

/// A server cabled to the fabric: what its NIC must agree on with the switch ports its
/// ports are cabled to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Host {
    pub name: Hostname,
    pub os: HostOs,
    #[serde(serialize_with = "nic_name")]
    pub nic: &'static Nic,
    /// MTU of the RoCE interfaces (Linux netdev; ESXi vmknic and vSwitch).
    pub mtu: u16,
    /// NIC ports by name (`ens1f0`, `vmnic2`), each cabled to one switch port. One map for
    /// all the hosts of a `hosts:` entry: a copy per host was a B-tree node (about 1 KB) per
    /// host, 70 MB of 64,000 hosts.
    #[serde(serialize_with = "shared")]
    pub ports: Arc<BTreeMap<String, HostPort>>,
    pub mgmt: Option<Mgmt>,
}

/// One NIC port of a host. Every name is a shell-safe token (letters, digits, `_`, `.`, `-`):
/// `fabric hosts` prints them into scripts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HostPort {
    /// Linux: the port's RDMA device (`mlx5_0`).
    pub rdma: Option<String>,
    /// ESXi: the VMkernel interface carrying RDMA over this uplink, and its vSwitch.
    pub vmknic: Option<String>,
    pub vswitch: Option<String>,
}

fn nic_name<S: serde::Serializer>(n: &&'static Nic, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(n.name)
}

/// A shared value, serialized as the value.
fn shared<S: serde::Serializer, T: Serialize>(v: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
    v.as_ref().serialize(s)
}

/// The DSCP values hosts mark (`qos.dscp`), for `fabric hosts`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Marks {
    pub roce: Option<Dscp>,
    pub cnp: Option<Dscp>,
}

/// How to reach a switch over SSH: the destination as `ssh` takes it, and the port and user
/// when written (else the SSH config's, else 22 and `admin`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mgmt {
    pub host: String,
    pub port: Option<u16>,
    pub user: Option<String>,
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
    /// The DSCP values the hosts mark.
    pub dscp: Marks,
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

/// A VLAN interface that routes: its address and MTU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Gateway {
    pub address: Ipv4Net,
    /// The interface's MTU: written (`vlans: [{ id, address, mtu }]`), else the largest MTU of
    /// the switch's ports and bundles that carry the VLAN; `None` is the OS's default (no
    /// such port sets one), which is not printed.
    pub mtu: Option<u16>,
}

/// A switch's role in a routed leaf-spine underlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Leaf,
    Spine,
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Role::Leaf => "leaf",
            Role::Spine => "spine",
        })
    }
}

/// How ECMP spreads flows over equal-cost paths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EcmpHash {
    /// Hash on the source address and L4 port (RoCE's UDP source port varies per queue pair).
    SourceIpPort,
    /// A path that goes away moves only its own flows.
    Consistent,
}

/// A BGP session: over a routed link of the fabric, or to a peer outside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Neighbor {
    pub asn: u32,
    /// The far switch and this switch's port the session runs over, for a fabric link.
    pub link: Option<(Hostname, Port)>,
    /// BFD watches the session (with the switch's [`Routing::bfd`] timers).
    pub bfd: bool,
    /// Keepalive and hold timers; `None`: the OS's.
    pub timers: Option<BgpTimers>,
    /// BGP unnumbered over the link (both ends' OSes peer over the interface's IPv6
    /// link-local address, `targets::Rules::unnumbered`): no address of the link's is used.
    pub unnumbered: bool,
}

/// A BGP session named by the switch's port: unnumbered (over the port's IPv6 link-local
/// address), to a peer outside the fabric, on an OS that peers so
/// (`targets::Rules::unnumbered`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PortNeighbor {
    pub remote_as: RemoteAs,
    /// BFD watches the session (with the switch's [`Routing::bfd`] timers).
    pub bfd: bool,
    /// Keepalive and hold timers; `None`: the OS's.
    pub timers: Option<BgpTimers>,
}

/// The AS a session's peer is in: a number, or any other than the switch's (`external`,
/// eBGP) or the switch's own (`internal`, iBGP).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RemoteAs {
    Number(u32),
    External,
    Internal,
}

/// As the format writes it: the number, or the word.
impl Serialize for RemoteAs {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RemoteAs::Number(n) => s.serialize_u32(*n),
            RemoteAs::External => s.serialize_str("external"),
            RemoteAs::Internal => s.serialize_str("internal"),
        }
    }
}

impl std::fmt::Display for RemoteAs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RemoteAs::Number(n) => write!(f, "{n}"),
            RemoteAs::External => f.write_str("external"),
            RemoteAs::Internal => f.write_str("internal"),
        }
    }
}

/// BFD's timers on a switch (RFC 5880 §6.8.2-§6.8.4): the desired transmit and required
/// receive intervals in milliseconds, and the packets missed before a session is down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BfdTimers {
    pub interval: u32,
    pub min_rx: u32,
    pub multiplier: u8,
}

impl BfdTimers {
    /// The format's default, 300 ms × 3: a dead link is noticed in under a second. FRR's
    /// bfdd defaults (300 ms transmit and receive, multiplier 3), which the lab reference
    /// ran (`frr-lab.md`: two sessions `up`, 300 ms × 3); within what Onyx (50-60000 ms) and
    /// OS10 (50-1000 ms, 100 sessions at 200 ms × 3) take.
    pub const DEFAULT: BfdTimers = BfdTimers {
        interval: 300,
        min_rx: 300,
        multiplier: 3,
    };
}

/// BGP's keepalive and hold timers of a session, in seconds (RFC 4271 §4.2, §10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct BgpTimers {
    pub keepalive: u16,
    pub hold: u16,
}

/// A switch's BGP: derived from the underlay and what the switch writes out, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Routing {
    pub asn: u32,
    pub router_id: Ipv4Addr,
    /// Sessions by the far end's address (a peer outside the fabric has no switch).
    pub neighbors: BTreeMap<Ipv4Addr, Neighbor>,
    /// Sessions named by the switch's port (`bgp.neighbors: [{ port }]`), to peers outside
    /// the fabric; empty on an OS that does not peer unnumbered.
    pub port_neighbors: BTreeMap<Port, PortNeighbor>,
    /// Prefixes advertised: the loopback, gateway subnets, routed host ports.
    pub networks: BTreeSet<Ipv4Net>,
    /// `maximum-paths`: written, else the most sessions to one neighbouring AS over the
    /// fabric's links (none without such sessions: Onyx's default stays).
    pub maximum_paths: Option<u16>,
    /// ECMP across paths through different neighbouring ASes (a leaf's prefixes reach a spine
    /// from one AS, but a fabric may give spines their own).
    pub multipath_relax: bool,
    /// BFD runs, with these timers, when some neighbor has `bfd`.
    pub bfd: Option<BfdTimers>,
    /// Reset an eBGP session when its link goes down; `None`: the OS's default.
    pub fast_external_fallover: Option<bool>,
}

/// LACP mode of a port in a bundle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lacp {
    Active,
    Passive,
    /// A static bundle, no LACP.
    On,
}

/// A port's membership in a port-channel, or in an MLAG port-channel spanning a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Bundle {
    pub mlag: bool,
    pub id: u16,
    pub lacp: Lacp,
}

/// A switch's half of an MLAG pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mlag {
    /// The other switch, when this fabric describes it.
    pub peer: Option<Hostname>,
    /// The domain's name and virtual IP (`mlag-vip`).
    pub vip: Option<(String, Ipv4Net)>,
    pub system_mac: Mac,
    /// The peer link's port-channel and VLAN.
    pub ipl_port_channel: u16,
    pub ipl_vlan: Vlan,
    /// This switch's address on the IPL VLAN (`None`: kept as the switch prints it, under
    /// `extra`), and the peer's.
    pub address: Option<Ipv4Net>,
    pub peer_address: Ipv4Addr,
    /// The peer's management address, when the fabric gives it (its `mgmt.host` is an IPv4
    /// address other than a loopback one, which is a tunnel's): OS10's VLT heartbeat backup
    /// (`backup destination`).
    pub peer_mgmt: Option<Ipv4Addr>,
}

/// A port's (or bundle's) spanning-tree settings: written, else what its peer gives (a
/// host's port is an edge port with BPDU guard, `host_ports: edge`). `None` is the OS's
/// default (port type normal, no BPDU guard, no guard).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PortStp {
    /// `spanning-tree port type edge|network|normal`.
    pub port_type: Option<StpPortType>,
    /// `spanning-tree bpduguard enable` (true) or `disable` (false: off whatever the
    /// switch's default for the port).
    pub bpduguard: Option<bool>,
    /// `spanning-tree guard root|loop`.
    pub guard: Option<StpGuard>,
}

impl PortStp {
    /// The lines an OS prints for it: an edge or network port type, BPDU guard enabled or
    /// disabled, a root or loop guard (`normal` and `none` are the defaults, not printed).
    pub fn printed(self) -> PortStp {
        PortStp {
            port_type: self.port_type.filter(|t| *t != StpPortType::Normal),
            bpduguard: self.bpduguard,
            guard: self.guard.filter(|g| *g != StpGuard::None),
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
    /// The profile the port's settings came from (its entry's or its link's), for the
    /// documentation: the settings above are already resolved.
    pub profile: Option<String>,
    /// A routed port's address (`no switchport force`): a routed link's end or a host's.
    pub address: Option<Ipv4Net>,
    /// The port-channel the port joins; its L2 and QoS settings are then the bundle's.
    pub bundle: Option<Bundle>,
    /// The VLANs a trunk port carries, or a hybrid port's tagged VLANs.
    pub trunk: Option<BTreeSet<Vlan>>,
    /// Spanning tree on the port (a routed port and a bundle member take none: the bundle
    /// has its members').
    pub stp: PortStp,
    /// No port-map entry, link or peer names the port: `unused_ports: shutdown` shut it
    /// (`shutdown` is then true); its QoS defaults stay.
    pub unused: bool,
    /// A bundle's `lacp-individual enable force` (`lacp_individual` on its members): its
    /// members forward as single ports while LACP does not come up. False on a port.
    pub lacp_individual: bool,
}

/// The network OS a switch runs: a handle on its implementation in the registry
/// ([`crate::targets::all`]), which compiles, renders, diffs, pushes and emulates it.
/// Equal and hashed by its word, ordered by its place in the registry (an OS not registered
/// after all that are, by word); serialized as its word.
#[derive(Clone, Copy)]
pub struct Os(&'static dyn crate::targets::SwitchOs);

impl Os {
    /// The handle on an OS's implementation (for the OS's own folder).
    pub const fn new(target: &'static dyn crate::targets::SwitchOs) -> Os {
        Os(target)
    }

    /// Every OS `fabric` compiles for, in the order help texts name them (the registry's).
    pub fn all() -> impl Iterator<Item = Os> {
        crate::targets::all().into_iter().map(Os)
    }

    /// The OS's place in the registry.
    fn index(self) -> usize {
        crate::targets::place(self.0)
    }

    /// The OS's implementation of the switch-OS interface.
    pub fn target(self) -> &'static dyn crate::targets::SwitchOs {
        self.0
    }

    /// The vendor's full name, for help texts (`NVIDIA Onyx`).
    pub fn product(self) -> &'static str {
        self.target().words().product
    }

    /// Every OS's product name, joined for a sentence: `NVIDIA Onyx and Dell SmartFabric OS10`.
    pub fn all_products() -> String {
        let names: Vec<&str> = Os::all().map(|o| o.product()).collect();
        match names.split_last() {
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    /// The word a fabric file writes (`os: os10`).
    pub fn word(self) -> &'static str {
        self.target().words().word
    }

    /// The name people know it by, for messages.
    pub fn title(self) -> &'static str {
        self.target().words().title
    }

    /// A port as this OS names it: Onyx `1/5`, `1/5/2`; OS10 `ethernet1/1/5`,
    /// `ethernet1/1/5:2`.
    pub fn port_name(self, p: Port) -> String {
        self.target().port_name(p)
    }
}

/// The registry's first OS.
impl Default for Os {
    fn default() -> Os {
        Os(crate::targets::BUILT_IN[0])
    }
}

impl PartialEq for Os {
    fn eq(&self, other: &Os) -> bool {
        self.word() == other.word()
    }
}

impl Eq for Os {}

impl PartialOrd for Os {
    fn partial_cmp(&self, other: &Os) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Os {
    fn cmp(&self, other: &Os) -> std::cmp::Ordering {
        (self.index().cmp(&other.index())).then_with(|| self.word().cmp(other.word()))
    }
}

impl std::hash::Hash for Os {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.word().hash(state);
    }
}

impl std::fmt::Debug for Os {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.title())
    }
}

impl Serialize for Os {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.word())
    }
}

impl std::fmt::Display for Os {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.title())
    }
}

/// A switch's hardware: a model from its OS's table ([`crate::targets::Model`]).
#[derive(Clone, Copy, Debug)]
pub struct Hardware(&'static dyn crate::targets::Model);

impl PartialEq for Hardware {
    fn eq(&self, other: &Hardware) -> bool {
        self.os() == other.os() && self.name() == other.name()
    }
}

impl Hardware {
    /// The handle on a model of an OS's table (for the OS's own folder).
    pub const fn new(model: &'static dyn crate::targets::Model) -> Hardware {
        Hardware(model)
    }

    /// The model's entry in its OS's table, for the OS's own folder (which downcasts it).
    pub fn model(self) -> &'static dyn crate::targets::Model {
        self.0
    }

    pub fn name(self) -> &'static str {
        self.0.name()
    }

    pub fn os(self) -> Os {
        self.0.target().os()
    }

    /// Whether the front-panel port (not a subport) exists.
    pub fn has_port(self, p: Port) -> bool {
        self.0.has_port(p)
    }

    /// Front-panel ports before any split or breakout.
    pub fn port_count(self) -> u16 {
        self.0.port_count()
    }

    /// Every front-panel port.
    pub fn ports(self) -> impl Iterator<Item = Port> {
        (1..=self.port_count()).map(|p| Port::new(1, p))
    }

    /// A port's native speed (a subport's, under a split).
    pub fn native_speed(self, p: Port, split: Option<Split>) -> Option<Speed> {
        self.0.native_speed(p, split)
    }
}

/// One switch, every port resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Switch {
    pub hostname: Hostname,
    #[serde(serialize_with = "model_name")]
    pub model: Hardware,
    /// The release as the switch's OS writes it, for an OS whose release is a key of its own
    /// (OS10's `os10: 10.5.3.2`), not the typed `onyx` key ([`Self::release`]).
    pub release_text: Option<String>,
    pub release: Option<Release>,
    pub mgmt: Option<Mgmt>,
    pub licenses: Vec<String>,
    pub certificate: Option<String>,
    pub lldp: bool,
    /// What `fabric verify --counters` tolerates.
    pub verify: Thresholds,
    pub qos: Qos,
    pub vlans: BTreeMap<Vlan, Option<String>>,
    /// Front-panel ports that are split, and how.
    pub splits: BTreeMap<Port, Split>,
    /// An OS10 switch's port groups (`port-group 1/1/N`), by number, each with the mode its
    /// ports' splits and speeds give it (`10g-4x` for four SFP28 ports at 10G): every group
    /// of the model, none on a model without. A port of a group whose mode names it as a
    /// subport (`ethernet1/1/17:1`) is that subport in `ports`, though it is not split.
    pub port_groups: BTreeMap<u16, &'static str>,
    /// Every usable port (split parents replaced by their subports, ports disabled by a
    /// neighbour's 4-way split left out), with its settings.
    pub ports: BTreeMap<Port, PortSettings>,
    /// `hostname <name>` is printed (false: the switch keeps the name it has).
    pub set_hostname: bool,
    /// Lines outside the format, by section title, each checked against the Onyx grammar.
    pub extra: Vec<(String, Vec<String>)>,
    pub role: Option<Role>,
    pub routing: Option<Routing>,
    /// VLAN interfaces with a gateway address: the switch's L3 interfaces into its VLANs.
    pub gateways: BTreeMap<Vlan, Gateway>,
    /// Loopback 0's address (/32).
    pub loopback: Option<Ipv4Addr>,
    /// ECMP hashing, where the switch routes.
    pub hashing: BTreeSet<EcmpHash>,
    /// Port-channels (`mlag: false`) and MLAG port-channels, with the settings of the bundle
    /// (its members keep only speed, MTU and description).
    pub bundles: BTreeMap<(bool, u16), PortSettings>,
    pub mlag: Option<Mlag>,
    /// Spanning tree: `Some(false)` turns it off; `None` leaves Onyx's default (on).
    pub stp: Option<bool>,
}

/// What `fabric verify --counters` tolerates over one interval of readings before it is a
/// finding (the fabric's `verify:`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Thresholds {
    /// PFC pause frames per second on a lossless priority, received or sent.
    pub pause_rate: u64,
    /// Packets dropped on a lossless traffic class.
    pub drops: u64,
    /// Frames received with a bad FCS.
    pub errors: u64,
    /// Times a link changed state (down, or up again).
    pub flaps: u64,
}

impl Default for Thresholds {
    /// A port that pauses a thousand times a second for the whole interval is stuck (at
    /// 100G, a pause of the largest quanta refreshed before it ends is about 3,000 a second);
    /// a lossless class drops nothing; a healthy link neither corrupts frames nor flaps.
    fn default() -> Thresholds {
        Thresholds {
            pause_rate: 1000,
            drops: 0,
            errors: 0,
            flaps: 0,
        }
    }
}

impl Switch {
    /// The OS the switch runs.
    pub fn os(&self) -> Os {
        self.model.os()
    }

    /// A port as the switch's OS names it.
    pub fn port_name(&self, p: Port) -> String {
        self.os().port_name(p)
    }
}

fn model_name<S: serde::Serializer>(m: &Hardware, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.name())
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
            let mut load_diags = loaded.diagnostics;
            let diags = twice_written_switches(&loaded.raw, sources, &mut load_diags, diags);
            (fabric, load_diags.into_iter().chain(diags).collect())
        }
        Err(d) => (None, vec![d]),
    })
}

/// A switch written twice (E013) loses one of its entries, and with it the ports its hosts
/// and links are cabled to: the hosts cabled to no switch port (E130) and the links to a
/// switch no entry declares (E050) follow from that one mistake and are folded under it.
fn twice_written_switches(
    raw: &raw::RawFabric,
    sources: &crate::diag::Sources,
    load: &mut [crate::diag::Diagnostic],
    diags: Vec<crate::diag::Diagnostic>,
) -> Vec<crate::diag::Diagnostic> {
    const FOLLOW: [&str; 2] = ["E130", "E050"];
    let is_switch_key = |d: &crate::diag::Diagnostic| {
        d.code == "E013"
            && d.primary.as_ref().is_some_and(|l| {
                let key = sources.text(l.span.file).get(l.span.start..l.span.end);
                raw.switches
                    .0
                    .iter()
                    .any(|(k, _)| Some(k.get().as_str()) == key)
            })
    };
    let Some(head) = load.iter_mut().find(|d| is_switch_key(d)) else {
        return diags;
    };
    let (follow, kept): (Vec<_>, Vec<_>) =
        diags.into_iter().partition(|d| FOLLOW.contains(&d.code));
    for code in FOLLOW {
        let of: Vec<&crate::diag::Diagnostic> = follow.iter().filter(|d| d.code == code).collect();
        if let Some(first) = of.first() {
            let n: usize = of.iter().map(|d| 1 + d.folded).sum();
            let more = match n {
                1 => String::new(),
                n => format!(" (and {} more like it)", n - 1),
            };
            head.notes
                .push(format!("this also causes {code}: {}{more}", first.message));
        }
    }
    kept
}

/// The JSON Schema of the fabric format, for editors (yaml-language-server) and CI.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(raw::RawFabric);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}
