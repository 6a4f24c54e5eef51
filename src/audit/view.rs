//! The OS-neutral RoCE view the rules read: per port (trust, PFC mode, ECN and ETS per
//! traffic class, MTU, speed, 802.3x pause, bundle and split membership) and per switch
//! (which priorities pause, which a lossless buffer pool holds, whether DCBX can tell the
//! hosts), built once per switch by the switch's OS from its configuration
//! ([`crate::targets::Audited::view`], in `src/onyx/audit.rs` and `src/os10/audit/view.rs`).
//! Ports are keyed
//! in one spelling ([`Iface`]: `1/5`, `1/53/2`, `port-channel 1`); a finding names them as
//! its switch's OS does ([`crate::targets::SwitchOs::iface_range`]). What one OS has and
//! another has not (Onyx's traffic pools and one-shot `roce` mode) is an `Option`, `None` on
//! the OS without it. Where no capture shows an OS's default, the choice is in the OS's
//! folder, marked unconfirmed.

use std::collections::{BTreeMap, BTreeSet};

use crate::fabric::{Hardware, Os};
use crate::types::{Ecn, Ets, Port, RoceMode, Speed, Split, TcMap, Trust};
use crate::types::{Iface, IfaceRange};

/// One port's (or bundle's) RoCE settings, as the rules read them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortView {
    /// What the port classifies by; `None`: the OS default ([`View::default_trust`]).
    pub trust: Option<Trust>,
    /// Per-port PFC mode (Onyx `dcb priority-flow-control mode on`, OS10
    /// `priority-flow-control mode on`).
    pub pfc: bool,
    /// ECN marking per traffic class (OS10: per queue, from its queuing policy's WRED
    /// profile with `random-detect ecn`).
    pub ecn: TcMap<Ecn>,
    /// ETS per traffic class (OS10: `bandwidth percent` as the weight, `priority` strict).
    pub ets: TcMap<Ets>,
    pub mtu: Option<u16>,
    /// The configured speed (Onyx `speed`, OS10 a breakout subport's map speed).
    pub speed: Option<Speed>,
    /// 802.3x link-level pause (`flowcontrol receive|send on`).
    pub pause: bool,
    pub description: bool,
    pub shutdown: Option<bool>,
    /// Configured beyond a split and `shutdown` (OS10: beyond its factory block).
    pub configured: bool,
    /// The bundle it is a member of.
    pub lag: Option<Iface>,
    /// A member of an MLAG IPL (Onyx) or of the VLT interconnect (OS10).
    pub ipl_member: bool,
    /// An IPL port-channel (Onyx `ipl N`).
    pub ipl: bool,
    /// Split (Onyx `module-type`) or broken out (OS10 `interface breakout`).
    pub split: Option<Split>,
    /// The VLANs it carries (access, trunk or hybrid); `all_vlans` for a trunk that allows
    /// every VLAN. A routed port carries none.
    pub vlans: BTreeSet<u16>,
    pub all_vlans: bool,
    /// A routed port (Onyx `no switchport force`, OS10 `no switchport`) with an address.
    pub routed: bool,
}

impl PortView {
    /// Whether the port carries VLAN `v`.
    pub fn carries(&self, v: u16) -> bool {
        self.all_vlans || self.vlans.contains(&v)
    }
}

/// A VLAN interface (Onyx `interface vlan N`, OS10 `interface vlanN`) that routes: it has an
/// address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VlanIface {
    /// `None`: the OS default ([`View::default_mtu`]).
    pub mtu: Option<u16>,
}

impl PortView {
    /// Configured (beyond a split) and not shut down.
    pub fn in_use(&self) -> bool {
        self.shutdown != Some(true) && self.configured
    }
}

/// Global PFC: Onyx `dcb priority-flow-control enable` and its priorities (the `roce` mode's
/// priority 3 aside); on OS10, whether a network-qos policy in use pauses some class, and the
/// `pfc-cos` priorities it pauses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pfc {
    pub enabled: bool,
    pub priorities: BTreeSet<u8>,
}

/// A switch's BGP sessions as the failure-detection rule reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BgpView {
    pub asn: u32,
    /// The addresses of its routed ports and port-channels: a session to an address on one
    /// of their subnets runs over a cable.
    pub routed: Vec<crate::types::Ipv4Net>,
    /// BFD runs on the switch (Onyx `protocol bfd`, OS10 `bfd enable`).
    pub bfd: bool,
    /// A session's hold time without `timers`, the OS's default.
    pub default_hold: u16,
    pub sessions: BTreeMap<std::net::Ipv4Addr, SessionView>,
}

/// One configured BGP session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionView {
    /// BFD watches it (Onyx `fall-over bfd`, OS10 `bfd` in the neighbor or its template).
    pub bfd: bool,
    /// Its hold time, where `timers` sets one.
    pub hold: Option<u16>,
}

/// The addresses of the routed ports and port-channels among interfaces given as (a port or
/// port-channel, routed, address).
pub fn routed_nets(
    ifaces: impl Iterator<Item = (bool, bool, Option<crate::types::Ipv4Net>)>,
) -> Vec<crate::types::Ipv4Net> {
    ifaces
        .filter(|(port, routed, _)| *port && *routed)
        .filter_map(|(_, _, a)| a)
        .collect()
}

/// One switch's RoCE view.
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub os: Os,
    /// Ethernet ports, port-channels and MLAG port-channels, in order.
    pub ports: BTreeMap<Iface, PortView>,
    pub pfc: Pfc,
    /// Priorities a lossless traffic pool maps (Onyx); `None` on an OS without pools (OS10
    /// buffers by PFC class, not by pool).
    pub lossless_pools: Option<BTreeSet<u8>>,
    /// Onyx's one-shot `roce` mode; `None` on OS10 (it has none).
    pub roce_mode: Option<RoceMode>,
    /// Whether DCBX can run: Onyx `lldp`, OS10 `dcbx enable`.
    pub dcbx: bool,
    /// A port the configuration does not list: the OS's defaults (and OS10's system trust).
    pub default_port: PortView,
    /// The trust of a port that sets none: Onyx L2; OS10 none (no trust map).
    pub default_trust: Option<Trust>,
    pub default_mtu: u16,
    pub hardware: Option<Hardware>,
    /// VLAN interfaces with an address, by VLAN.
    pub vlan_ifaces: BTreeMap<crate::types::Vlan, VlanIface>,
    /// Its BGP instance, when it has one.
    pub bgp: Option<BgpView>,
}

impl View {
    /// A port's view; a port the configuration does not list has the defaults.
    pub fn port(&self, iface: Iface) -> &PortView {
        self.ports.get(&iface).unwrap_or(&self.default_port)
    }

    /// A port's MTU, the OS default without a setting.
    pub fn mtu(&self, p: &PortView) -> u16 {
        p.mtu.unwrap_or(self.default_mtu)
    }

    /// What a port classifies by, the OS default without a setting (`None`: nothing).
    pub fn trust(&self, p: &PortView) -> Option<Trust> {
        p.trust.or(self.default_trust)
    }

    /// A port's speed: its setting, else the model's native speed when known.
    pub fn speed(&self, port: Port) -> Option<Speed> {
        if let Some(s) = self.ports.get(&Iface::Ethernet(port)).and_then(|p| p.speed) {
            return Some(s);
        }
        let hardware = self.hardware?;
        let split = port.sub.and_then(|_| {
            self.ports
                .get(&Iface::Ethernet(port.parent()))
                .and_then(|p| p.split)
        });
        hardware.native_speed(port.parent(), split)
    }
}

/// Interfaces as a finding names them on a switch of `os`: Onyx `ethernet 1/1-1/8`, OS10
/// `ethernet1/1/1-1/1/8` (the way `discovery-interface` and `interface range` print runs),
/// `port-channel1`.
pub fn range_name(os: Os, r: IfaceRange) -> String {
    os.target().iface_range(r)
}
