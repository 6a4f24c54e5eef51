//! What switches report, read: the OS-neutral values every OS's readers (in its folder,
//! behind [`crate::targets::Reads`]) produce from its replies, and the checks compare with
//! the fabric. Each names the field of the reply it comes from where the shapes differ;
//! nothing here reads text.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use crate::types::Ecn;

/// A neighbor LLDP has learned on a port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbor {
    /// `None` when the neighbor does not advertise one (`Not Advertised`, as
    /// `…/intel-mfd__show_lldp_remote.txt` shows).
    pub system_name: Option<String>,
    pub port_id: String,
}

/// A port's link as the switch reports it (Onyx `show interfaces ethernet`, OS10 `show
/// interface status`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// `Admin state: Enabled`; `None` when not printed.
    pub admin: Option<bool>,
    /// `Operational state`, as printed (`Up`, `Down`).
    pub oper: String,
    /// `Actual speed` in Gb/s (`100 Gbps`), when it reads as a speed.
    pub speed: Option<u32>,
    /// `Actual speed` as printed.
    pub speed_text: Option<String>,
}

impl Link {
    pub fn up(&self) -> bool {
        self.oper.eq_ignore_ascii_case("up")
    }
}

/// An interface's PFC as the switch reports it (Onyx `show dcb priority-flow-control`, OS10
/// `show interface NAME priority-flow-control`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pfc {
    pub admin: Option<String>,
    pub oper: String,
    /// The priorities the interface pauses, where the reply lists them per interface (OS10's
    /// `PFC Priorities`; Onyx's interface table does not).
    pub priorities: Option<BTreeSet<u8>>,
}

impl Pfc {
    pub fn enabled(&self) -> bool {
        self.oper.eq_ignore_ascii_case("enabled")
    }
}

/// What a port classifies by, as the switch reports it (Onyx's `Trust mode`; OS10's trust
/// map, from its running configuration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trusted {
    /// The trust mode in the fabric's words (`L3`, `L2`, `both`), or `none`.
    pub mode: Cow<'static, str>,
    /// The map it classifies by, as the OS names it (`trust dscp-map NAME`), where it
    /// classifies by a map.
    pub map: Option<String>,
    /// What that map puts in each group, its values as the OS prints them (`24-31`), where
    /// the configuration defines the map.
    pub groups: Option<BTreeMap<u8, String>>,
}

impl Trusted {
    /// A trust mode alone, without a map.
    pub fn mode(mode: impl Into<Cow<'static, str>>) -> Trusted {
        Trusted {
            mode: mode.into(),
            map: None,
            groups: None,
        }
    }
}

/// How a traffic class is scheduled (`S.Mode`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sched {
    Strict,
    /// WRR and its weight (`W`).
    Wrr(u8),
    /// A mode the captures do not show, as printed.
    Other(String),
}

impl std::fmt::Display for Sched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sched::Strict => f.write_str("strict"),
            Sched::Wrr(w) => write!(f, "wrr {w}"),
            Sched::Other(s) => write!(f, "`{s}`"),
        }
    }
}

/// How a traffic class marks or drops as the queue fills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Marking {
    /// `Mode: none`.
    Off,
    On(Ecn),
    /// A mode the captures do not show, as printed.
    Other(String),
}

/// A buffer pool as `show traffic pool NAME` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    pub kind: String,
    /// `Memory [%]`, as printed (`50.00`).
    pub memory: String,
    pub priorities: BTreeSet<u8>,
}

/// One row of `show ip bgp summary`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BgpNeighbor {
    pub remote_as: u32,
    /// `State/PfxRcd` as printed: `ESTABLISHED/13`, or the state.
    pub state: String,
}

impl BgpNeighbor {
    pub fn established(&self) -> bool {
        self.state.starts_with("ESTABLISHED")
    }
}

/// The default VRF's BGP as `show ip bgp summary` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BgpSummary {
    pub router_id: Option<Ipv4Addr>,
    pub asn: u32,
    pub neighbors: BTreeMap<Ipv4Addr, BgpNeighbor>,
}

/// A row of `show mlag`'s peer-link table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ipl {
    pub id: u8,
    pub port_channel: Option<u16>,
    pub vlan: Option<u16>,
    pub state: String,
    pub local: Option<Ipv4Addr>,
    pub peer: Option<Ipv4Addr>,
}

/// An MLAG switch as `show mlag` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mlag {
    pub admin: String,
    pub oper: String,
    /// `System-mac` as printed, without a trailing note (`[Mismatched]`, as
    /// `…/ansible-onyx__onyx_mlag_ipl_show__show_mlag_json.cfg` prints it).
    pub system_mac: Option<String>,
    pub inactive: u32,
    pub partial: u32,
    pub ipls: Vec<Ipl>,
}

/// A route of a switch's routing table, with each of its next hops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub prefix: crate::types::Ipv4Net,
    /// `bgp`, `static`, … as the `Source` column prints it.
    pub source: String,
    /// Each next hop: its gateway as printed and its interface.
    pub hops: Vec<(String, String)>,
}
