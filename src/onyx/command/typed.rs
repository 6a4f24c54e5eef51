//! The typed commands — what one line of Onyx configuration says — and how each prints
//! (`Display`), the way `show running-config` prints it, without the indent.

use std::fmt;

use std::net::Ipv4Addr;

use crate::types::cli_text;
use crate::types::{
    Ecn, Ets, Ipv4Net, Mac, Percent, PoolType, Priority, Release, RoceMode, Speed, Split, StpGuard,
    StpPortType, SwitchportMode, TrafficClass, Trust, Vlan, format_vlan_run, vlan_runs,
};

pub use crate::types::{Iface, IfaceRange};

/// `speed S [no-autoneg] force`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct SpeedSetting {
    pub speed: Speed,
    pub no_autoneg: bool,
}

/// `channel-group N mode M` / `mlag-channel-group N mode M`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct ChannelGroup {
    pub mlag: bool,
    pub id: u16,
    pub mode: LacpMode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LacpMode {
    On,
    Active,
    Passive,
}

impl fmt::Display for LacpMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LacpMode::On => "on",
            LacpMode::Active => "active",
            LacpMode::Passive => "passive",
        })
    }
}

/// `protocol NAME`: the protocols a switch runs that the model manages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Bfd,
    Bgp,
    Mlag,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Bfd => "bfd",
            Protocol::Bgp => "bgp",
            Protocol::Mlag => "mlag",
        })
    }
}

/// BFD's timers in the default VRF, as `ip bfd vrf default interval …` sets them: a printed
/// line sets one (`… interval transmit-rate 55 force`, the `onyx_show_bfd` capture), a typed
/// one may set all three (`… interval min-rx 50 multiplier 7 transmit-rate 55 force`, as
/// the `onyx_bfd` Ansible module sends it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct BfdInterval {
    /// Milliseconds.
    pub min_rx: Option<u32>,
    pub multiplier: Option<u8>,
    /// Milliseconds.
    pub transmit_rate: Option<u32>,
}

/// `ip load-sharing …`: how ECMP spreads flows over equal-cost next hops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoadSharing {
    /// `ip load-sharing source-ip-port`: hash on the source address and L4 port.
    SourceIpPort,
    /// `ip load-sharing type consistent`: a next hop that goes away moves only its own flows.
    Consistent,
}

impl fmt::Display for LoadSharing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LoadSharing::SourceIpPort => "source-ip-port",
            LoadSharing::Consistent => "type consistent",
        })
    }
}

/// What a `router bgp ASN vrf default …` line sets in the default VRF's BGP instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BgpCmd {
    /// The bare line that creates the instance.
    Create,
    /// `router-id A force`.
    RouterId(Ipv4Addr),
    NoRouterId,
    /// `maximum-paths N`: equal-cost paths installed per prefix.
    MaximumPaths(u16),
    NoMaximumPaths,
    /// `bestpath as-path multipath-relax force` (true) / its `no` form: ECMP across paths
    /// learned from different neighbouring ASes.
    MultipathRelax(bool),
    /// `neighbor A remote-as N`.
    Neighbor(Ipv4Addr, u32),
    /// `no neighbor A`: the session and everything set for it.
    NoNeighbor(Ipv4Addr),
    /// `network A /N`: a prefix this switch advertises.
    Network(Ipv4Net),
    NoNetwork(Ipv4Net),
    /// `bgp fast-external-fallover` (true) / `no bgp fast-external-fallover`: an eBGP session
    /// resets as soon as its directly connected link goes down.
    FastExternalFallover(bool),
    /// `neighbor A timers KEEPALIVE HOLD`, in seconds.
    Timers(Ipv4Addr, u16, u16),
    /// `no neighbor A timers`: back to the instance's timers.
    NoTimers(Ipv4Addr),
    /// `neighbor A fall-over bfd` (true) / `no neighbor A fall-over bfd`: BFD watches the
    /// session.
    FallOverBfd(Ipv4Addr, bool),
}

/// `switchport trunk|hybrid allowed-vlan …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllowedVlan {
    None,
    All,
    /// `allowed-vlan LIST`: the list replaces what the port carried, as the manual's syntax
    /// `allowed-vlan {none|all|<list>}` beside `allowed-vlan {add|remove} <list>` reads
    /// (UNCONFIRMED on a switch: [`UNCONFIRMED`](crate::onyx::UNCONFIRMED)).
    Set(Vlans),
    /// `allowed-vlan add LIST`.
    Add(Vlans),
    Remove(Vlans),
}

/// The VLAN ids of an `allowed-vlan` line. One id is kept inline: a hybrid port's
/// running-config has one `allowed-vlan add N` line per VLAN, so reading a large config does
/// not allocate per line.
#[derive(Clone)]
pub enum Vlans {
    One(Vlan),
    Many(Vec<Vlan>),
}

impl std::ops::Deref for Vlans {
    type Target = [Vlan];

    fn deref(&self) -> &[Vlan] {
        match self {
            Vlans::One(v) => std::slice::from_ref(v),
            Vlans::Many(v) => v,
        }
    }
}

impl From<Vec<Vlan>> for Vlans {
    fn from(v: Vec<Vlan>) -> Self {
        match v[..] {
            [one] => Vlans::One(one),
            _ => Vlans::Many(v),
        }
    }
}

impl PartialEq for Vlans {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Vlans {}

impl fmt::Debug for Vlans {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// What a line does to the interfaces it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IfaceCmd {
    /// The bare `interface port-channel 1` line that creates it.
    Create,
    Speed(SpeedSetting),
    NoSpeed,
    Mtu(u16),
    NoMtu,
    Description(String),
    NoDescription,
    /// `shutdown` (true) / `no shutdown` (false).
    Shutdown(bool),
    Split(Split),
    NoSplit,
    SwitchportMode(SwitchportMode),
    AccessVlan(Vlan),
    NoAccessVlan,
    AllowedVlan(SwitchportMode, AllowedVlan),
    ChannelGroup(ChannelGroup),
    NoChannelGroup {
        mlag: bool,
    },
    Trust(Trust),
    NoTrust,
    Ecn(TrafficClass, Ecn),
    NoEcn(TrafficClass),
    Ets(TrafficClass, Ets),
    /// `no traffic-class N dcb ets`: back to the default scheduling. Written by analogy with
    /// `no traffic-class N congestion-control`; not seen in a capture.
    NoEts(TrafficClass),
    /// `dcb priority-flow-control mode on force` (true) / `no dcb priority-flow-control mode force`.
    PfcMode(bool),
    /// `no switchport force` (true: a routed port) / `switchport force` (back to L2).
    Routed(bool),
    /// `ip address A.B.C.D/N primary`.
    Address(Ipv4Net),
    /// `no ip address`.
    NoAddress,
    /// `ipl N` on an MLAG pair's peer-link port-channel.
    Ipl(u8),
    /// `no ipl N`: out of the peer link, on the port-channel (no longer the IPL) or on the
    /// VLAN interface (its peer address gone), as mellanox.onyx's onyx_mlag_ipl sends it.
    NoIpl(u8),
    /// `ipl N peer-address A` on the IPL's VLAN interface: the peer switch's address.
    IplPeer(u8, Ipv4Addr),
    /// `no ipl N peer-address`: read, never planned (no source shows Onyx taking it;
    /// [`IfaceCmd::NoIpl`] is what a tool sends).
    NoIplPeer(u8),
    /// `spanning-tree port type edge|network|normal` (Cray's CSM spines; Onyx User Manual,
    /// Spanning Tree) / `no spanning-tree port type`.
    StpPortType(StpPortType),
    NoStpPortType,
    /// `spanning-tree bpduguard enable` (true) / `disable` (false); `no spanning-tree
    /// bpduguard` is [`IfaceCmd::NoBpduguard`].
    Bpduguard(bool),
    NoBpduguard,
    /// `spanning-tree guard root|loop` (Cray's CSM spines, the manual) / `no spanning-tree
    /// guard`.
    StpGuard(StpGuard),
    NoStpGuard,
    /// `lacp-individual enable force` on a port-channel or MLAG port-channel (Cray's CSM
    /// spines) / `no lacp-individual enable force`.
    LacpIndividual(bool),
}

/// One configuration command, as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `cli default prefix-modes enable` (true) / `no cli default prefix-modes enable`.
    PrefixModes(bool),
    License(String),
    Hostname(String),
    NoHostname,
    Lldp(bool),
    /// `roce [mode]`; `None` is `no roce`.
    Roce(Option<RoceMode>),
    PoolType(String, PoolType),
    PoolMemory(String, Percent),
    PoolMap(String, Vec<Priority>),
    /// `traffic pool NAME no map switch-priority LIST` (the pool context's `no map`, flat).
    PoolUnmap(String, Vec<Priority>),
    NoPool(String),
    /// `dcb priority-flow-control enable force` / its `no` form.
    PfcEnable(bool),
    /// `dcb priority-flow-control priority N enable` / its `no` form.
    PfcPriority(Priority, bool),
    VlanCreate(Vec<(Vlan, Vlan)>),
    VlanName(Vlan, String),
    NoVlan(Vec<(Vlan, Vlan)>),
    Interface(IfaceRange, IfaceCmd),
    /// `no interface port-channel 1`: deletes port-channels, MLAG port-channels, VLAN
    /// interfaces, loopbacks.
    NoInterface(IfaceRange),
    /// `ip routing vrf default` (typed `ip routing`) / its `no` form.
    IpRouting(bool),
    /// `ip load-sharing …` / its `no` form.
    LoadSharing(LoadSharing, bool),
    /// `protocol bgp|mlag` / `no protocol …`.
    Protocol(Protocol, bool),
    /// `lacp` / `no lacp`.
    Lacp(bool),
    /// `spanning-tree` (on, Onyx's default) / `no spanning-tree`.
    SpanningTree(bool),
    /// `router bgp ASN vrf default …` (typed without `vrf default`, the same).
    Bgp(u32, BgpCmd),
    /// `no router bgp ASN vrf default`.
    NoBgp(u32),
    /// `ip bfd vrf default interval …` (typed `ip bfd interval …`, the same).
    BfdInterval(BfdInterval),
    /// `mlag shutdown` (true) / `no mlag shutdown`: the MLAG pair's admin state.
    MlagShutdown(bool),
    /// `mlag system-mac M` / `no mlag system-mac`.
    MlagSystemMac(Option<Mac>),
    /// `mlag-vip NAME ip A /N force` / `no mlag-vip`.
    MlagVip(Option<(String, Ipv4Net)>),
}

impl Command {
    /// The release a command appeared in, where that is later than the oldest the project
    /// supports, with the word a switch of an older release does not know: `roce` (3.8.2000),
    /// `traffic pool …` (3.6.5000). The releases are [`Release`]'s gates, the ones the fabric
    /// validation applies (E034).
    pub fn since(&self) -> Option<(Release, &'static str)> {
        match self {
            Command::Roce(_) => Some((Release::ROCE_COMMAND, "roce")),
            Command::PoolType(..)
            | Command::PoolMemory(..)
            | Command::PoolMap(..)
            | Command::PoolUnmap(..)
            | Command::NoPool(_) => Some((Release::TRAFFIC_POOLS, "traffic")),
            _ => None,
        }
    }
}

/// Why a line of a known command family could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// 0-based byte column in the line.
    pub column: usize,
    pub expected: String,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected {}", self.expected)
    }
}

/// Switch priorities as a pool's `map switch-priority` prints them: `2 3 1 7`.
fn priorities(l: &[Priority]) -> String {
    l.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `ip bfd vrf default interval …`: the timers that are set, in Onyx's order, then `force`.
fn bfd_interval(f: &mut fmt::Formatter<'_>, b: &BfdInterval) -> fmt::Result {
    f.write_str("ip bfd vrf default interval")?;
    if let Some(n) = b.min_rx {
        write!(f, " min-rx {n}")?;
    }
    if let Some(n) = b.multiplier {
        write!(f, " multiplier {n}")?;
    }
    if let Some(n) = b.transmit_rate {
        write!(f, " transmit-rate {n}")?;
    }
    f.write_str(" force")
}

/// VLAN spans as Onyx prints them: `10-17 20`.
fn spans(s: &[(Vlan, Vlan)]) -> String {
    s.iter()
        .map(|r| format_vlan_run(*r))
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for IfaceCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IfaceCmd::Create => Ok(()),
            IfaceCmd::Speed(s) => write!(
                f,
                " speed {}{} force",
                s.speed,
                if s.no_autoneg { " no-autoneg" } else { "" }
            ),
            IfaceCmd::NoSpeed => f.write_str(" no speed"),
            IfaceCmd::Mtu(m) => write!(f, " mtu {m} force"),
            IfaceCmd::NoMtu => f.write_str(" no mtu"),
            IfaceCmd::Description(d) => write!(f, " description {}", cli_text::quote(d)),
            IfaceCmd::NoDescription => f.write_str(" no description"),
            IfaceCmd::Shutdown(true) => f.write_str(" shutdown"),
            IfaceCmd::Shutdown(false) => f.write_str(" no shutdown"),
            IfaceCmd::Split(s) => write!(f, " module-type {s} force"),
            IfaceCmd::NoSplit => f.write_str(" no module-type force"),
            IfaceCmd::SwitchportMode(m) => write!(f, " switchport mode {m}"),
            IfaceCmd::AccessVlan(v) => write!(f, " switchport access vlan {v}"),
            IfaceCmd::NoAccessVlan => f.write_str(" no switchport access vlan"),
            IfaceCmd::AllowedVlan(m, op) => {
                write!(f, " switchport {m} allowed-vlan ")?;
                // Consecutive VLANs as a range: `add 10-17,20`.
                let list = |v: &[Vlan]| {
                    vlan_runs(v.iter().copied())
                        .into_iter()
                        .map(format_vlan_run)
                        .collect::<Vec<_>>()
                        .join(",")
                };
                match op {
                    AllowedVlan::None => f.write_str("none"),
                    AllowedVlan::All => f.write_str("all"),
                    AllowedVlan::Set(v) => f.write_str(&list(v)),
                    AllowedVlan::Add(v) => write!(f, "add {}", list(v)),
                    AllowedVlan::Remove(v) => write!(f, "remove {}", list(v)),
                }
            }
            IfaceCmd::ChannelGroup(g) => write!(
                f,
                " {}channel-group {} mode {}",
                if g.mlag { "mlag-" } else { "" },
                g.id,
                g.mode
            ),
            IfaceCmd::NoChannelGroup { mlag } => {
                write!(f, " no {}channel-group", if *mlag { "mlag-" } else { "" })
            }
            IfaceCmd::Trust(t) => write!(f, " qos trust {t}"),
            IfaceCmd::NoTrust => f.write_str(" no qos trust"),
            IfaceCmd::Ecn(tc, e) => write!(f, " traffic-class {tc} congestion-control {e}"),
            IfaceCmd::NoEcn(tc) => write!(f, " no traffic-class {tc} congestion-control"),
            IfaceCmd::Ets(tc, e) => write!(f, " traffic-class {tc} dcb ets {e}"),
            IfaceCmd::NoEts(tc) => write!(f, " no traffic-class {tc} dcb ets"),
            IfaceCmd::PfcMode(true) => f.write_str(" dcb priority-flow-control mode on force"),
            IfaceCmd::PfcMode(false) => f.write_str(" no dcb priority-flow-control mode force"),
            IfaceCmd::Routed(true) => f.write_str(" no switchport force"),
            IfaceCmd::Routed(false) => f.write_str(" switchport force"),
            IfaceCmd::Address(a) => write!(f, " ip address {a} primary"),
            IfaceCmd::NoAddress => f.write_str(" no ip address"),
            IfaceCmd::Ipl(n) => write!(f, " ipl {n}"),
            IfaceCmd::NoIpl(n) => write!(f, " no ipl {n}"),
            IfaceCmd::IplPeer(n, a) => write!(f, " ipl {n} peer-address {a}"),
            IfaceCmd::NoIplPeer(n) => write!(f, " no ipl {n} peer-address"),
            IfaceCmd::StpPortType(t) => write!(f, " spanning-tree port type {t}"),
            IfaceCmd::NoStpPortType => f.write_str(" no spanning-tree port type"),
            IfaceCmd::Bpduguard(true) => f.write_str(" spanning-tree bpduguard enable"),
            IfaceCmd::Bpduguard(false) => f.write_str(" spanning-tree bpduguard disable"),
            IfaceCmd::NoBpduguard => f.write_str(" no spanning-tree bpduguard"),
            IfaceCmd::StpGuard(g) => write!(f, " spanning-tree guard {g}"),
            IfaceCmd::NoStpGuard => f.write_str(" no spanning-tree guard"),
            IfaceCmd::LacpIndividual(true) => f.write_str(" lacp-individual enable force"),
            IfaceCmd::LacpIndividual(false) => f.write_str(" no lacp-individual enable force"),
        }
    }
}

impl fmt::Display for BgpCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BgpCmd::Create => Ok(()),
            BgpCmd::RouterId(a) => write!(f, " router-id {a} force"),
            BgpCmd::NoRouterId => f.write_str(" no router-id"),
            BgpCmd::MaximumPaths(n) => write!(f, " maximum-paths {n}"),
            BgpCmd::NoMaximumPaths => f.write_str(" no maximum-paths"),
            BgpCmd::MultipathRelax(true) => f.write_str(" bestpath as-path multipath-relax force"),
            BgpCmd::MultipathRelax(false) => f.write_str(" no bestpath as-path multipath-relax"),
            BgpCmd::Neighbor(a, n) => write!(f, " neighbor {a} remote-as {n}"),
            BgpCmd::NoNeighbor(a) => write!(f, " no neighbor {a}"),
            BgpCmd::Network(n) => write!(f, " network {} /{}", n.addr, n.len),
            BgpCmd::NoNetwork(n) => write!(f, " no network {} /{}", n.addr, n.len),
            BgpCmd::FastExternalFallover(true) => f.write_str(" bgp fast-external-fallover"),
            BgpCmd::FastExternalFallover(false) => f.write_str(" no bgp fast-external-fallover"),
            BgpCmd::Timers(a, k, h) => write!(f, " neighbor {a} timers {k} {h}"),
            BgpCmd::NoTimers(a) => write!(f, " no neighbor {a} timers"),
            BgpCmd::FallOverBfd(a, true) => write!(f, " neighbor {a} fall-over bfd"),
            BgpCmd::FallOverBfd(a, false) => write!(f, " no neighbor {a} fall-over bfd"),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::PrefixModes(true) => f.write_str("cli default prefix-modes enable"),
            Command::PrefixModes(false) => f.write_str("no cli default prefix-modes enable"),
            Command::License(k) => write!(f, "license install {k}"),
            Command::Hostname(h) => write!(f, "hostname {h}"),
            Command::NoHostname => f.write_str("no hostname"),
            Command::Lldp(true) => f.write_str("lldp"),
            Command::Lldp(false) => f.write_str("no lldp"),
            Command::Roce(Some(RoceMode::Lossless)) => f.write_str("roce"),
            Command::Roce(Some(m)) => write!(f, "roce {m}"),
            Command::Roce(None) => f.write_str("no roce"),
            Command::PoolType(n, t) => write!(f, "traffic pool {n} type {t}"),
            Command::PoolMemory(n, p) => write!(f, "traffic pool {n} memory percent {p}"),
            Command::PoolMap(n, l) => {
                write!(f, "traffic pool {n} map switch-priority {}", priorities(l))
            }
            Command::PoolUnmap(n, l) => {
                write!(
                    f,
                    "traffic pool {n} no map switch-priority {}",
                    priorities(l)
                )
            }
            Command::NoPool(n) => write!(f, "no traffic pool {n}"),
            Command::PfcEnable(true) => f.write_str("dcb priority-flow-control enable force"),
            Command::PfcEnable(false) => f.write_str("no dcb priority-flow-control enable force"),
            Command::PfcPriority(p, true) => {
                write!(f, "dcb priority-flow-control priority {p} enable")
            }
            Command::PfcPriority(p, false) => {
                write!(f, "no dcb priority-flow-control priority {p} enable")
            }
            Command::VlanCreate(s) => write!(f, "vlan {}", spans(s)),
            Command::VlanName(v, n) => write!(f, "vlan {v} name {}", cli_text::quote(n)),
            Command::NoVlan(s) => write!(f, "no vlan {}", spans(s)),
            // A VLAN interface's MTU takes no `force` (Cray's CSM session types `interface
            // vlan 6 mtu 9184`; Ansible's onyx_interface adds `force` for Ethernet only).
            Command::Interface(r, IfaceCmd::Mtu(m)) if matches!(r.first, Iface::Vlan(_)) => {
                write!(f, "interface {r} mtu {m}")
            }
            Command::Interface(r, c) => write!(f, "interface {r}{c}"),
            Command::NoInterface(r) => write!(f, "no interface {r}"),
            Command::IpRouting(true) => f.write_str("ip routing vrf default"),
            Command::IpRouting(false) => f.write_str("no ip routing vrf default"),
            Command::LoadSharing(l, true) => write!(f, "ip load-sharing {l}"),
            Command::LoadSharing(l, false) => write!(f, "no ip load-sharing {l}"),
            Command::Protocol(p, true) => write!(f, "protocol {p}"),
            Command::Protocol(p, false) => write!(f, "no protocol {p}"),
            Command::Lacp(true) => f.write_str("lacp"),
            Command::Lacp(false) => f.write_str("no lacp"),
            Command::SpanningTree(true) => f.write_str("spanning-tree"),
            Command::SpanningTree(false) => f.write_str("no spanning-tree"),
            Command::Bgp(n, c) => write!(f, "router bgp {n} vrf default{c}"),
            Command::NoBgp(n) => write!(f, "no router bgp {n} vrf default"),
            Command::BfdInterval(b) => bfd_interval(f, b),
            Command::MlagShutdown(true) => f.write_str("mlag shutdown"),
            Command::MlagShutdown(false) => f.write_str("no mlag shutdown"),
            Command::MlagSystemMac(Some(m)) => write!(f, "mlag system-mac {m}"),
            Command::MlagSystemMac(None) => f.write_str("no mlag system-mac"),
            Command::MlagVip(Some((name, net))) => {
                write!(f, "mlag-vip {name} ip {} /{} force", net.addr, net.len)
            }
            Command::MlagVip(None) => f.write_str("no mlag-vip"),
        }
    }
}
