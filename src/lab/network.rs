//! The network around lab switches: the fabric's cables between their ports, and the state
//! that both ends of a cable decide together. A link is up when both its ports are; a BGP
//! session is Established only when both ends agree (addresses on one subnet, each the
//! other's neighbor with the other's AS, a path between them; or, for neighbors named by
//! port — BGP unnumbered — the cable up and each end naming its own port of it, with an AS
//! the other expects: `external`, `internal` or the number), its BFD up only where both
//! ends run it and its hold time the smaller of theirs; an MLAG pair is up when both
//! halves agree on their peer link. Everything is derived from the switches' running
//! configurations as they are when a `show` command asks ([`View`]: read again after each
//! change, shared by the commands between two changes), so a change on either end shows at
//! once, and nothing here can disagree with what the switches are configured to do.
//!
//! Faults change the cabling itself ([`super::cabling`], from each switch's `faults.yaml`): a
//! cable broken (both ends down), two cables' far ends crossed, or what LLDP reports of a
//! port's far end. Every view below is derived from the cabling with the faults in force, so
//! a miswired cable is seen as a real one would be: by its wrong neighbor and by whatever
//! stops working across it (a BGP session, an MLAG peer link).
//!
//! Input: the running configs of every switch in the network and the cabling ([`View`]);
//! output: typed views ([`BgpView`], [`MlagView`], [`LldpNeighbor`]) that each OS's `show` commands
//! prints. This module prints nothing and changes no switch.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::onyx::{Config, Interface, Protocol};
use crate::types::Iface;
use crate::types::{Ipv4Net, Mac, Port, SwitchportMode, Vlan};

pub use super::cabling::{Cabling, CablingFaults, LldpNeighbor, LldpOverride};
use super::device::Device;
use super::view::Views;
pub use super::view::{Node, PairDomain, PortPeer, RemoteAs, View};

/// The lab's switches and their cabling, shared by every switch of one lab.
pub struct Network {
    cabling: Cabling,
    /// The switches, and the view of them every command reads.
    views: Views,
    /// When each session or peer link was last seen to change state, and how often it came up:
    /// the Up/Down and Toggle Counter columns.
    history: Mutex<BTreeMap<String, Since>>,
    /// With a data plane (`--dataplane`): the prefix of its namespaces, where FRR answers
    /// for the switches' routing.
    dataplane: std::sync::OnceLock<String>,
    /// What every port has counted ([`super::counters`]).
    counting: super::counters::Counting,
}

#[derive(Clone, Copy, Debug)]
struct Since {
    up: bool,
    at: Instant,
    toggles: u32,
}

impl Network {
    pub fn new(cabling: Cabling) -> Arc<Network> {
        Arc::new(Network {
            cabling,
            views: Views::new(),
            history: Mutex::new(BTreeMap::new()),
            dataplane: std::sync::OnceLock::new(),
            counting: super::counters::Counting::default(),
        })
    }

    /// What `ports` of the switch `net.me` (an `os` switch) have counted now.
    pub fn counters(
        &self,
        net: &Net<'_>,
        os: crate::fabric::Os,
        ports: &[Port],
    ) -> Vec<super::counters::PortCounters> {
        self.counting.read(net, os, ports)
    }

    /// Adds a switch served by this process, under its name in the fabric.
    pub fn add_device(&self, name: &str, device: &Arc<Device>) {
        self.views.add_device(name, device);
    }

    /// Adds a switch whose state is kept in `dir` by other processes.
    pub fn add_folder(&self, name: &str, dir: PathBuf) {
        self.views.add_folder(name, dir);
    }

    /// Says that the switch `name` may have changed (its running config, its faults), so
    /// that the next command reads it again.
    pub fn changed(&self, name: &str) {
        self.views.changed(name);
    }

    /// Says that the network has a data plane in namespaces `PREFIX<switch>`
    /// ([`super::live`]): routing is then FRR's there, not derived.
    pub fn set_dataplane(&self, prefix: &str) {
        let _ = self.dataplane.set(prefix.to_string());
    }

    /// The namespace of `switch` in the data plane, when the network has one.
    pub fn dataplane_ns(&self, switch: &str) -> Option<String> {
        self.dataplane.get().map(|p| format!("{p}{switch}"))
    }

    /// The cabling as the fabric declares it, without faults.
    pub fn cabling(&self) -> &Cabling {
        &self.cabling
    }

    /// The network now: every switch's running config in the network's terms (as its OS
    /// states it: [`crate::targets::LabSwitch::node`]) and the cabling with every switch's
    /// cabling faults in force (each switch's `faults.yaml`). A switch that is gone or whose
    /// folder cannot be read is left out, as a switch that is off. Built again only when
    /// something changed since the last ([`super::view`]).
    pub fn view(&self) -> Arc<View> {
        self.views.view(&self.cabling)
    }

    /// What a command on the switch `me` sees of the network now.
    pub fn world(self: &Arc<Self>, me: &str) -> World {
        World {
            network: self.clone(),
            me: me.to_string(),
            view: self.view(),
        }
    }

    /// How many views of the network have been built: one per change, however many
    /// commands read it.
    pub fn views_built(&self) -> u64 {
        self.views.builds()
    }

    /// How many times a switch's running config has been read for a view: once per switch,
    /// then once per change of one.
    pub fn switches_read(&self) -> u64 {
        self.views.reads()
    }

    /// How long the thing called `key` has been in its state `up`, and how many times it has
    /// come up, counting from when the lab first saw it.
    pub fn since(&self, key: &str, up: bool) -> (Duration, u32) {
        let mut h = self.history.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        let s = h.entry(key.to_string()).or_insert(Since {
            up,
            at: now,
            toggles: u32::from(up),
        });
        if s.up != up {
            *s = Since {
                up,
                at: now,
                toggles: s.toggles + u32::from(up),
            };
        }
        (now.saturating_duration_since(s.at), s.toggles)
    }
}

/// What a switch's CLI sees of the network when a command asks: the network as it was just
/// before the command ran.
pub struct World {
    pub network: Arc<Network>,
    /// This switch's name in the fabric (its cables are filed under it).
    pub me: String,
    pub view: Arc<View>,
}

impl World {
    /// A switch cabled to nothing: the network of `node` alone.
    pub fn alone(me: &str, node: Node) -> World {
        let nodes = BTreeMap::from([(me.to_string(), Arc::new(node))]);
        World {
            network: Network::new(Cabling::default()),
            me: me.to_string(),
            view: Arc::new(View::new(nodes, Cabling::default())),
        }
    }

    /// The network as this switch's commands derive state from it.
    pub fn net(&self) -> Net<'_> {
        Net {
            me: &self.me,
            view: &self.view,
            cabling: &self.view.cabling,
        }
    }
}

/// Every switch's running config and the cabling (faults applied): what link, LLDP, BGP and
/// MLAG state is derived from.
pub struct Net<'a> {
    pub me: &'a str,
    view: &'a View,
    pub cabling: &'a Cabling,
}

/// A BGP session's state as the lab derives it. Onyx prints `ESTABLISHED/N` (captured); the
/// other states' spelling is UNCONFIRMED (see the Onyx lab's `Unconfirmed` table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SessionState {
    /// The far end answered and refused: an AS that is not the one configured, the same
    /// router-id on both ends.
    Idle,
    /// No one to talk to: no connected subnet holds the neighbor's address, the link is down,
    /// no switch there has the address, or it does not run BGP or has no neighbor for us.
    Active,
    Established,
}

/// How a switch names a BGP neighbor: by its address, or by the port it is on (unnumbered).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Peer {
    Addr(Ipv4Addr),
    Port(Port),
}

impl std::fmt::Display for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Peer::Addr(a) => write!(f, "{a}"),
            Peer::Port(p) => write!(f, "port {p}"),
        }
    }
}

/// One configured neighbor of a switch, and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    pub neighbor: Peer,
    /// The AS configured for it; for a neighbor named by its port as `external`, the far
    /// end's when one runs BGP there (else 0).
    pub remote_as: u32,
    pub state: SessionState,
    /// The switch at the other end, when one has the neighbor's address on a connected path.
    pub far: Option<String>,
    /// Prefixes received from the neighbor and accepted (not looping back through our AS).
    pub received: usize,
    /// Prefixes sent to it that it accepts.
    pub sent: usize,
    /// BFD on the session: `None` where this end does not run it for the neighbor (`protocol
    /// bfd` and `fall-over bfd`); `Some(true)` when both ends do and the session is up;
    /// `Some(false)` when the far end does not: this end's BFD packets go unanswered, BFD
    /// never comes up, and BGP runs without it (RFC 5882 §3: a client acts on a BFD session
    /// going down, not on one that never came up). BFD's timers are each end's own: the two
    /// agree on the slower (RFC 5880 §6.8.2), so they need not match.
    pub bfd: Option<bool>,
    /// The hold time in seconds the two ends of an Established session agree on: the smaller
    /// of theirs (RFC 4271 §4.2), [`DEFAULT_HOLD`] where an end sets none.
    pub hold: Option<u16>,
}

/// A BGP session's hold time without `timers`: 180 s on Onyx (`show ip bgp neighbors`,
/// Cray's CSM capture: "Configured hold time in seconds : 180") and on OS10 (Dell OS10 user
/// guide, `timers`).
pub const DEFAULT_HOLD: u16 = 180;

/// A switch's BGP instance as it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BgpView {
    pub asn: u32,
    pub router_id: Ipv4Addr,
    pub sessions: Vec<Session>,
    /// Prefixes in the BGP table: the switch's own and those it learned.
    pub prefixes: usize,
    /// The table: each prefix's best AS path and the Established sessions it is learned over
    /// with that path (ECMP; none for the switch's own prefixes). Empty where FRR's is read.
    pub routes: BTreeMap<Ipv4Net, BgpRoute>,
}

/// A prefix in a switch's BGP table: the best AS path (empty for its own), and each session
/// that carries it so (neighbor and far switch), at most `maximum-paths` of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BgpRoute {
    pub path: Vec<u32>,
    pub via: Vec<(Peer, String)>,
}

/// A route in a switch's BGP table.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Route {
    /// AS path; empty for a prefix the switch advertises itself.
    path: Vec<u32>,
    /// Learned from an iBGP neighbor (not passed on to another one).
    ibgp: bool,
}

/// An MLAG port-channel's state across the pair (`show mlag`'s status summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MlagPortState {
    /// `shutdown` (the default of an MLAG port-channel).
    Disabled,
    /// No member up on either switch.
    Inactive,
    /// Members up on one switch of the pair only.
    ActivePartial,
    /// Members up on both.
    ActiveFull,
}

/// The MLAG peer link: its port-channel, VLAN interface and addresses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ipl {
    pub id: u8,
    pub port_channel: Option<u16>,
    pub vlan: Option<Vlan>,
    pub local: Option<Ipv4Addr>,
    pub peer: Option<Ipv4Addr>,
    pub up: bool,
}

/// A switch's MLAG as it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MlagView {
    /// `no mlag shutdown`.
    pub admin: bool,
    /// The pair is formed: peer link up and both halves agree on the system MAC.
    pub oper: bool,
    pub system_mac: Option<Mac>,
    pub ipl: Option<Ipl>,
    /// The other switch of the pair, found over the peer link.
    pub peer: Option<String>,
    pub ports: Vec<(u16, MlagPortState)>,
}

/// A lab switch's base MAC (its MLAG system ID): derived from its name, so it is stable
/// across restarts, under an OUI of NVIDIA's (Mellanox) as real switches have.
pub fn base_mac(name: &str) -> Mac {
    // FNV-1a, 32 bits: a fixed function, unlike the standard hasher.
    let h = name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    let [_, a, b, c] = h.to_be_bytes();
    Mac([0x98, 0x03, 0x9b, a, b, c])
}

fn iface(c: &Config, i: Iface) -> Option<&Interface> {
    c.interfaces.get(&i)
}

/// A port exists on the switch (a subport of a split port, or a port that is not split) and
/// is not shut down. A port its OS names as subport 1 without a split (an OS10 port group's
/// `ethernet1/1/17:1`) is a created subport 1 in the switch's view (as its OS states it);
/// Onyx never marks an Ethernet port created.
fn admin_up(c: &Config, p: Port) -> bool {
    let split = |q: Port| iface(c, Iface::Ethernet(q)).and_then(|i| i.split);
    let exists = match p.sub {
        Some(n) => {
            split(p.parent()).is_some_and(|s| n >= 1 && n <= s.ways())
                || (n == 1 && iface(c, Iface::Ethernet(p)).is_some_and(|i| i.created))
        }
        None => split(p).is_none(),
    };
    exists && iface(c, Iface::Ethernet(p)).and_then(|i| i.shutdown) != Some(true)
}

/// Whether an interface carries `vlan` at L2.
pub(crate) fn carries(i: Option<&Interface>, vlan: Vlan, is_ipl: bool) -> bool {
    // The peer link carries every VLAN of the pair.
    if is_ipl {
        return true;
    }
    let Some(i) = i else {
        return vlan.get() == 1;
    };
    if i.routed {
        return false;
    }
    let access = i.access_vlan.map_or(1, Vlan::get) == vlan.get();
    let allowed = |mode| {
        i.allowed
            .clone()
            .unwrap_or_else(|| crate::onyx::Allowed::default_for(mode))
    };
    match i.switchport_mode {
        None | Some(SwitchportMode::Access) => access,
        Some(SwitchportMode::Trunk) => {
            let a = allowed(SwitchportMode::Trunk);
            a.all || a.vlans.contains(vlan)
        }
        Some(SwitchportMode::Hybrid) => {
            let a = allowed(SwitchportMode::Hybrid);
            access || a.all || a.vlans.contains(vlan)
        }
    }
}

impl<'a> Net<'a> {
    /// The running config of `sw`, in the network's terms.
    pub fn config(&self, sw: &str) -> Option<&'a Config> {
        self.view.nodes.get(sw).map(|n| &n.config)
    }

    /// The switch called `sw` in the network, by the network's own copy of its name.
    fn name(&self, sw: &str) -> Option<&'a str> {
        self.view.nodes.get_key_value(sw).map(|(k, _)| k.as_str())
    }

    /// The OS of `sw`, when it is in the network.
    pub fn os(&self, sw: &str) -> Option<crate::fabric::Os> {
        self.view.nodes.get(sw).map(|n| n.os)
    }

    /// The pair domain of `sw`, when its OS keeps one.
    pub fn pair(&self, sw: &str) -> Option<&'a PairDomain> {
        self.view.nodes.get(sw).and_then(|n| n.pair.as_ref())
    }

    /// A physical port is up: it exists and is not shut down on its switch, and its cable is
    /// whole and leads to a host or to a port that is up on a switch of the network.
    pub fn port_up(&self, sw: &str, p: Port) -> bool {
        let Some(c) = self.config(sw) else {
            return false;
        };
        if !admin_up(c, p) || self.cabling.broken(sw, p) {
            return false;
        }
        if self.cabling.to_host(sw, p) {
            return true;
        }
        match self.cabling.far(sw, p) {
            Some((f, q)) => {
                !self.cabling.broken(f, q) && self.config(f).is_some_and(|fc| admin_up(fc, q))
            }
            None => false,
        }
    }

    /// What LLDP on port `p` of `sw` has learned of the far end: nothing unless the link is
    /// up and LLDP runs on this switch's port (it receives) and on the far one's (it transmits:
    /// `lldp`, and no `interface ethernet P no lldp receive|transmit`); a
    /// switch's system name is its hostname (else its name in the fabric), its port ID the
    /// port's name on its OS (Onyx `Eth1/25`, OS10 `ethernet1/1/25`: the AzureStack TOR's
    /// `show lldp neighbors` shows its peer's so). Hosts are simulated without LLDP. A fault may replace either field
    /// (and make a host port report a neighbor).
    pub fn lldp_neighbor(&self, sw: &str, p: Port) -> Option<LldpNeighbor> {
        let receives = crate::lab::unmodeled::port_lldp(self.config(sw)?, p).0;
        if !receives || !self.port_up(sw, p) {
            return None;
        }
        let truth = self.cabling.far(sw, p).and_then(|(f, q)| {
            let fc = self
                .config(f)
                .filter(|fc| crate::lab::unmodeled::port_lldp(fc, q).1)?;
            let port_id = self.view.nodes.get(f)?.os.target().lab().lldp_port_id(q);
            Some(LldpNeighbor {
                system_name: fc.hostname.clone().unwrap_or_else(|| f.to_string()),
                port_id,
            })
        });
        let Some(o) = self.cabling.lldp_override(&(sw.to_string(), p)) else {
            return truth;
        };
        let (name, port) = truth.map_or((None, None), |t| (Some(t.system_name), Some(t.port_id)));
        Some(LldpNeighbor {
            system_name: o.host.clone().or(name).unwrap_or_default(),
            port_id: o.port.clone().or(port).unwrap_or_default(),
        })
    }

    /// The ports of `sw` that join bundle `id` (an MLAG port-channel when `mlag`).
    pub fn members(&self, sw: &str, mlag: bool, id: u16) -> Vec<Port> {
        self.config(sw)
            .map(|c| {
                c.interfaces
                    .iter()
                    .filter_map(|(k, i)| match (k, i.channel_group) {
                        (Iface::Ethernet(p), Some(g)) if g.mlag == mlag && g.id == id => Some(*p),
                        _ => None,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The L2 interface a port forwards in: itself, its bundle, or none (a routed port).
    fn l2_of(&self, sw: &str, p: Port) -> Option<Iface> {
        let i = self.config(sw).and_then(|c| iface(c, Iface::Ethernet(p)));
        match i {
            Some(i) if i.routed => None,
            Some(Interface {
                channel_group: Some(g),
                ..
            }) => Some(if g.mlag {
                Iface::MlagPortChannel(g.id)
            } else {
                Iface::PortChannel(g.id)
            }),
            _ => Some(Iface::Ethernet(p)),
        }
    }

    fn carries(&self, sw: &str, l2: Iface, vlan: Vlan) -> bool {
        let Some(c) = self.config(sw) else {
            return false;
        };
        let i = iface(c, l2);
        let ipl = matches!(l2, Iface::PortChannel(_)) && i.is_some_and(|i| i.ipl.is_some());
        if !matches!(l2, Iface::Ethernet(_)) && i.is_none() {
            return false;
        }
        carries(i, vlan, ipl)
    }

    /// The switches one L2 hop away in `vlan`: across an up port (or an up member of a
    /// bundle) that carries the VLAN at both ends.
    fn l2_neighbors(&self, sw: &str, vlan: Vlan) -> BTreeSet<&'a str> {
        let mut out = BTreeSet::new();
        for (p, (f, q)) in self.cabling.ports(sw) {
            if !self.port_up(sw, p) {
                continue;
            }
            let (Some(a), Some(b)) = (self.l2_of(sw, p), self.l2_of(f, q)) else {
                continue;
            };
            if self.carries(sw, a, vlan)
                && self.carries(f, b, vlan)
                && let Some(name) = self.name(f)
            {
                out.insert(name);
            }
        }
        out
    }

    /// An interface with an address is up: a routed port whose link is up, a VLAN interface
    /// with an up port in its VLAN, a loopback.
    pub fn iface_up(&self, sw: &str, i: Iface) -> bool {
        let Some(c) = self.config(sw) else {
            return false;
        };
        let admin = iface(c, i).is_some_and(|x| x.shutdown != Some(true));
        match i {
            Iface::Ethernet(p) => self.port_up(sw, p),
            Iface::Loopback(_) => admin,
            Iface::PortChannel(n) => {
                admin
                    && self
                        .members(sw, false, n)
                        .iter()
                        .any(|p| self.port_up(sw, *p))
            }
            Iface::MlagPortChannel(n) => {
                iface(c, i).is_some_and(|x| x.shutdown == Some(false))
                    && self
                        .members(sw, true, n)
                        .iter()
                        .any(|p| self.port_up(sw, *p))
            }
            Iface::Vlan(v) => {
                admin
                    && c.interfaces.iter().any(|(k, x)| {
                        let l2 = match k {
                            Iface::Ethernet(p) if x.channel_group.is_none() && !x.routed => {
                                self.port_up(sw, *p)
                            }
                            Iface::PortChannel(_) | Iface::MlagPortChannel(_) => {
                                self.iface_up(sw, *k)
                            }
                            _ => false,
                        };
                        l2 && self.carries(sw, *k, v)
                    })
            }
        }
    }

    /// The addresses of `sw`'s interfaces that are up.
    fn connected(&self, sw: &str) -> Vec<(Iface, Ipv4Net)> {
        let Some(c) = self.config(sw) else {
            return Vec::new();
        };
        c.interfaces
            .iter()
            .filter_map(|(k, i)| i.address.map(|a| (*k, a)))
            .filter(|(k, _)| self.iface_up(sw, *k))
            .collect()
    }

    /// The neighbors `sw` reaches on its addressed interfaces that are up, as its ARP table
    /// holds them: each other switch's address one hop away in the same subnet (the far port
    /// of a routed port's cable, a switch in the VLAN of a VLAN interface), its interface up;
    /// with the local interface and the far switch's name.
    pub fn arp(&self, sw: &str) -> Vec<(Iface, Ipv4Addr, &'a str)> {
        let mut out = Vec::new();
        for (local, net) in self.connected(sw) {
            let theirs = |f: &'a str, i: Iface| {
                self.config(f)
                    .and_then(|c| iface(c, i))
                    .and_then(|x| x.address)
                    .filter(|a| a.network() == net.network() && a.addr != net.addr)
                    .filter(|_| self.iface_up(f, i))
                    .map(|a| (local, a.addr, f))
            };
            match local {
                Iface::Ethernet(p) => {
                    let far = self
                        .cabling
                        .far(sw, p)
                        .and_then(|(f, q)| Some((self.name(f)?, q)));
                    out.extend(far.and_then(|(f, q)| theirs(f, Iface::Ethernet(q))));
                }
                Iface::Vlan(v) => {
                    for f in self.l2_neighbors(sw, v) {
                        out.extend(theirs(f, Iface::Vlan(v)));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The switch that has `addr` on the far side of `sw`'s interface `local` (one hop: the
    /// cable's far port, or a switch one L2 hop away in the VLAN).
    fn owner(&self, sw: &str, local: Iface, net: Ipv4Net, addr: Ipv4Addr) -> Option<&'a str> {
        let has = |f: &str, i: Iface| {
            self.config(f)
                .and_then(|c| iface(c, i))
                .and_then(|x| x.address)
                .is_some_and(|a| a.addr == addr && a.network() == net.network())
                && self.iface_up(f, i)
        };
        match local {
            Iface::Ethernet(p) => {
                let (f, q) = self.cabling.far(sw, p)?;
                let f = self.name(f)?;
                has(f, Iface::Ethernet(q)).then_some(f)
            }
            Iface::Vlan(v) => self
                .l2_neighbors(sw, v)
                .into_iter()
                .find(|f| has(f, Iface::Vlan(v))),
            _ => None,
        }
    }

    /// The router-id a switch uses: the configured one, else its highest loopback address,
    /// else its highest address that is up (the usual choice; UNCONFIRMED for Onyx).
    fn router_id(&self, sw: &str) -> Ipv4Addr {
        let c = self.config(sw);
        if let Some(id) = c.and_then(|c| c.bgp.as_ref()).and_then(|b| b.router_id) {
            return id;
        }
        let connected = self.connected(sw);
        let best = |loopbacks: bool| {
            connected
                .iter()
                .filter(|(k, _)| matches!(k, Iface::Loopback(_)) == loopbacks)
                .map(|(_, a)| a.addr)
                .max()
        };
        best(true)
            .or_else(|| best(false))
            .unwrap_or(Ipv4Addr::UNSPECIFIED)
    }

    /// BGP runs on a switch: IP routing, `protocol bgp` and an instance.
    fn bgp_of(&self, sw: &str) -> Option<&'a crate::onyx::Bgp> {
        let c = self.config(sw)?;
        if !c.ip_routing || !c.protocols.contains(&Protocol::Bgp) {
            return None;
        }
        c.bgp.as_ref()
    }

    /// One session's state from both ends, and the far switch.
    fn session(
        &self,
        sw: &str,
        neighbor: Ipv4Addr,
        remote_as: u32,
    ) -> (SessionState, Option<&'a str>) {
        let Some(mine) = self.bgp_of(sw) else {
            return (SessionState::Idle, None);
        };
        let path = self
            .connected(sw)
            .into_iter()
            .find(|(_, a)| a.contains(neighbor) && a.addr != neighbor);
        let Some((local, address)) = path else {
            return (SessionState::Active, None);
        };
        let Some(far) = self.owner(sw, local, address, neighbor) else {
            return (SessionState::Active, None);
        };
        let Some(theirs) = self.bgp_of(far) else {
            return (SessionState::Active, Some(far));
        };
        let Some(&their_remote) = theirs.neighbors.get(&address.addr) else {
            return (SessionState::Active, Some(far));
        };
        if their_remote != mine.asn
            || remote_as != theirs.asn
            || self.router_id(sw) == self.router_id(far)
        {
            return (SessionState::Idle, Some(far));
        }
        (SessionState::Established, Some(far))
    }

    /// The BGP neighbor `sw` names by port `p`.
    fn port_peer(&self, sw: &str, p: Port) -> Option<&'a PortPeer> {
        self.view.nodes.get(sw)?.port_peers.get(&p)
    }

    /// A session with the neighbor `sw` names by its port `p` (unnumbered), from both ends, and
    /// the far switch: the port's link up, the switch at the cable's far end running BGP and
    /// naming the far port as its neighbor, each end's AS what the other expects, router-ids
    /// that differ.
    fn port_session(&self, sw: &str, p: Port, peer: &PortPeer) -> (SessionState, Option<&'a str>) {
        let Some(mine) = self.bgp_of(sw) else {
            return (SessionState::Idle, None);
        };
        let far = self
            .cabling
            .far(sw, p)
            .filter(|_| self.port_up(sw, p))
            .and_then(|(f, q)| Some((self.name(f)?, q)));
        let Some((far, q)) = far else {
            return (SessionState::Active, None);
        };
        let (Some(theirs), Some(their_peer)) = (self.bgp_of(far), self.port_peer(far, q)) else {
            return (SessionState::Active, Some(far));
        };
        if !peer.remote_as.fits(mine.asn, theirs.asn)
            || !their_peer.remote_as.fits(theirs.asn, mine.asn)
            || self.router_id(sw) == self.router_id(far)
        {
            return (SessionState::Idle, Some(far));
        }
        (SessionState::Established, Some(far))
    }

    /// One session's state, far switch and remote AS (see [`Session::remote_as`]).
    fn session_of(&self, sw: &str, n: Peer) -> (SessionState, Option<&'a str>, u32) {
        let Some(b) = self.bgp_of(sw) else {
            return (SessionState::Idle, None, 0);
        };
        match n {
            Peer::Addr(a) => {
                let r = b.neighbors.get(&a).copied().unwrap_or(0);
                let (state, far) = self.session(sw, a, r);
                (state, far, r)
            }
            Peer::Port(p) => {
                let Some(peer) = self.port_peer(sw, p) else {
                    return (SessionState::Idle, None, 0);
                };
                let (state, far) = self.port_session(sw, p, peer);
                let r = peer.remote_as.number(b.asn).or_else(|| {
                    far.and_then(|f| self.bgp_of(f))
                        .map(|t| t.asn)
                        .filter(|t| *t != b.asn)
                });
                (state, far, r.unwrap_or(0))
            }
        }
    }

    /// Whether `sw` runs BFD for its neighbor `neighbor`: BFD enabled and the neighbor watched.
    fn bfd_for(&self, sw: &str, neighbor: Peer) -> bool {
        self.config(sw)
            .is_some_and(|c| c.protocols.contains(&Protocol::Bfd))
            && match neighbor {
                Peer::Addr(a) => self.bgp_of(sw).is_some_and(|b| b.bfd.contains(&a)),
                Peer::Port(p) => self.port_peer(sw, p).is_some_and(|x| x.bfd),
            }
    }

    /// An Established session's BFD and agreed hold time (see [`Session`]).
    fn detection(&self, sw: &str, neighbor: Peer, far: &str) -> (Option<bool>, Option<u16>) {
        let neighbor = match neighbor {
            Peer::Addr(a) => a,
            Peer::Port(p) => return self.port_detection(sw, p, far),
        };
        // This switch's address on the subnet it shares with the neighbor: the far end's
        // neighbor for it.
        let mine = self
            .connected(sw)
            .into_iter()
            .find(|(_, a)| a.contains(neighbor) && a.addr != neighbor)
            .map(|(_, a)| a.addr);
        let hold = |s: &str, n: Option<Ipv4Addr>| {
            n.and_then(|n| self.bgp_of(s)?.timers.get(&n).map(|t| t.1))
                .unwrap_or(DEFAULT_HOLD)
        };
        let bfd = self
            .bfd_for(sw, Peer::Addr(neighbor))
            .then(|| mine.is_some_and(|m| self.bfd_for(far, Peer::Addr(m))));
        let agreed = hold(sw, Some(neighbor)).min(hold(far, mine));
        (bfd, Some(agreed))
    }

    /// [`Self::detection`] of a session on port `p`: the far end's neighbor is its port of
    /// the cable.
    fn port_detection(&self, sw: &str, p: Port, far: &str) -> (Option<bool>, Option<u16>) {
        let q = self.cabling.far(sw, p).map(|(_, q)| q);
        let hold = |s: &str, port: Option<Port>| {
            port.and_then(|port| self.port_peer(s, port)?.hold)
                .unwrap_or(DEFAULT_HOLD)
        };
        let bfd = self
            .bfd_for(sw, Peer::Port(p))
            .then(|| q.is_some_and(|q| self.bfd_for(far, Peer::Port(q))));
        (bfd, Some(hold(sw, Some(p)).min(hold(far, q))))
    }

    /// Prefixes a switch advertises itself: its `network` statements that match the subnet of
    /// an interface that is up (as a `network` statement needs a route to advertise).
    fn originated(&self, sw: &str) -> BTreeSet<Ipv4Net> {
        let Some(b) = self.bgp_of(sw) else {
            return BTreeSet::new();
        };
        let connected: BTreeSet<Ipv4Net> = self
            .connected(sw)
            .into_iter()
            .map(|(_, a)| a.network())
            .collect();
        b.networks
            .iter()
            .filter(|n| connected.contains(&n.network()))
            .copied()
            .collect()
    }

    /// Every switch's BGP: its sessions' states, its table (own prefixes, then what
    /// Established sessions carry, best path by AS-path length, eBGP before iBGP, no prefix
    /// back through an AS on its path, no iBGP route passed to another iBGP neighbor), and
    /// how many prefixes each session receives. Derived once per view of the network, at the
    /// first command that asks.
    pub fn bgp(&self) -> &'a BTreeMap<String, BgpView> {
        let view: &'a View = self.view;
        view.bgp.get_or_init(|| self.derive_bgp())
    }

    fn derive_bgp(&self) -> BTreeMap<String, BgpView> {
        let running: Vec<(&'a str, &'a crate::onyx::Bgp)> = self
            .view
            .nodes
            .keys()
            .filter_map(|sw| self.bgp_of(sw).map(|b| (sw.as_str(), b)))
            .collect();
        let BgpSessions { mut states, up } = self.bgp_sessions(&running);
        let asn: BTreeMap<&str, u32> = running.iter().map(|(s, b)| (*s, b.asn)).collect();
        let tables = self.bgp_tables(&running, &up, &asn);
        let accepted = |to: &str, from: &str| -> usize {
            match (asn.get(to), asn.get(from), tables.get(from)) {
                (Some(&a), Some(&b), Some(t)) => {
                    t.values().filter(|r| offer(r, a, b).is_some()).count()
                }
                _ => 0,
            }
        };
        running
            .iter()
            .map(|(sw, b)| {
                let mut sessions = states.remove(sw).unwrap_or_default();
                for s in &mut sessions {
                    if let (SessionState::Established, Some(f)) = (s.state, s.far.as_deref()) {
                        (s.received, s.sent) = (accepted(sw, f), accepted(f, sw));
                    }
                }
                let view = BgpView {
                    asn: b.asn,
                    router_id: self.router_id(sw),
                    sessions,
                    prefixes: tables.get(sw).map_or(0, BTreeMap::len),
                    routes: multipath(sw, b, &tables, &up, &asn),
                };
                (sw.to_string(), view)
            })
            .collect()
    }

    /// Each running switch's sessions (no prefixes counted yet), and the Established ones.
    fn bgp_sessions(&self, running: &[(&'a str, &'a crate::onyx::Bgp)]) -> BgpSessions<'a> {
        let mut out = BgpSessions {
            states: BTreeMap::new(),
            up: Vec::new(),
        };
        for (sw, b) in running {
            let list = out.states.entry(sw).or_default();
            let ports = self.view.nodes.get(*sw).map(|n| &n.port_peers);
            let named = (b.neighbors.keys().map(|a| Peer::Addr(*a))).chain(
                ports
                    .into_iter()
                    .flat_map(|m| m.keys().map(|p| Peer::Port(*p))),
            );
            for n in named {
                let (state, far, r) = self.session_of(sw, n);
                let (mut bfd, mut hold) = (self.bfd_for(sw, n).then_some(false), None);
                if let (SessionState::Established, Some(f)) = (state, far) {
                    out.up.push((sw, n, f));
                    (bfd, hold) = self.detection(sw, n, f);
                }
                list.push(Session {
                    neighbor: n,
                    remote_as: r,
                    state,
                    far: far.map(str::to_string),
                    received: 0,
                    sent: 0,
                    bfd,
                    hold,
                });
            }
        }
        out
    }

    /// Each running switch's table: its own prefixes, then the best of what its Established
    /// sessions carry, round after round until no route gets better.
    fn bgp_tables(
        &self,
        running: &[(&'a str, &'a crate::onyx::Bgp)],
        up: &[(&'a str, Peer, &'a str)],
        asn: &BTreeMap<&str, u32>,
    ) -> Tables<'a> {
        let mut tables: Tables<'a> = running
            .iter()
            .map(|(sw, _)| {
                let own = self
                    .originated(sw)
                    .into_iter()
                    .map(|n| {
                        (
                            n,
                            Route {
                                path: Vec::new(),
                                ibgp: false,
                            },
                        )
                    })
                    .collect();
                (*sw, own)
            })
            .collect();
        // Best paths only ever get shorter, so this settles; the bound is a safeguard.
        for _ in 0..=running.len() {
            if !spread(&mut tables, up, asn) {
                break;
            }
        }
        tables
    }

    /// A switch's MLAG peer link, as configured (`up` false): the port-channel with `ipl N`
    /// and the VLAN interface with `ipl N peer-address`.
    fn ipl_of(&self, sw: &str) -> Option<Ipl> {
        let c = self.config(sw)?;
        let po = c.interfaces.iter().find_map(|(k, i)| match (k, i.ipl) {
            (Iface::PortChannel(n), Some(id)) => Some((id, *n)),
            _ => None,
        });
        let vlan = c
            .interfaces
            .iter()
            .find_map(|(k, i)| match (k, i.ipl_peer) {
                (Iface::Vlan(v), Some((id, peer))) => {
                    Some((id, *v, i.address.map(|a| a.addr), peer))
                }
                _ => None,
            });
        let id = po.map(|p| p.0).or(vlan.map(|v| v.0))?;
        let vlan = vlan.filter(|v| v.0 == id);
        Some(Ipl {
            id,
            port_channel: po.filter(|p| p.0 == id).map(|p| p.1),
            vlan: vlan.map(|v| v.1),
            local: vlan.and_then(|v| v.2),
            peer: vlan.map(|v| v.3),
            up: false,
        })
    }

    fn mlag_on(&self, sw: &str) -> bool {
        self.config(sw)
            .is_some_and(|c| c.protocols.contains(&Protocol::Mlag) && c.mlag.enabled)
    }

    /// `me`'s MLAG, from both halves of the pair; `None` when `protocol mlag` is off.
    pub fn mlag(&self) -> Option<MlagView> {
        let me = self.me;
        let c = self.config(me)?;
        if !c.protocols.contains(&Protocol::Mlag) {
            return None;
        }
        let admin = c.mlag.enabled;
        let mut ipl = self.ipl_of(me);
        // The peer: across an up member of the IPL port-channel, a switch whose own IPL
        // port-channel that member's cable joins, in the same VLAN, with the peer address we
        // expect and expecting ours.
        let peer = ipl.as_ref().filter(|_| admin).and_then(|ipl| {
            let (po, local, want) = (ipl.port_channel?, ipl.local?, ipl.peer?);
            self.members(me, false, po)
                .into_iter()
                .filter(|p| self.port_up(me, *p))
                .filter_map(|p| self.cabling.far(me, p))
                .find_map(|(f, q)| {
                    let theirs = self.ipl_of(f)?;
                    let joined = theirs
                        .port_channel
                        .is_some_and(|n| self.members(f, false, n).contains(&q));
                    (theirs.id == ipl.id
                        && joined
                        && theirs.vlan == ipl.vlan
                        && theirs.local == Some(want)
                        && theirs.peer == Some(local)
                        && self.mlag_on(f))
                    .then(|| self.name(f))
                    .flatten()
                })
        });
        if let Some(ipl) = &mut ipl {
            ipl.up = peer.is_some();
        }
        let oper = peer.is_some_and(|f| {
            self.config(f)
                .is_some_and(|fc| fc.mlag.system_mac == c.mlag.system_mac)
        });
        let port_up = |sw: &str, n: u16| {
            self.config(sw)
                .and_then(|x| iface(x, Iface::MlagPortChannel(n)))
                .is_some_and(|i| i.shutdown == Some(false))
                && self
                    .members(sw, true, n)
                    .iter()
                    .any(|p| self.port_up(sw, *p))
        };
        let ports = c
            .interfaces
            .iter()
            .filter_map(|(k, i)| match k {
                Iface::MlagPortChannel(n) => Some((*n, i)),
                _ => None,
            })
            .map(|(n, i)| {
                let state = if i.shutdown != Some(false) {
                    MlagPortState::Disabled
                } else {
                    let here = port_up(me, n);
                    let there = oper && peer.is_some_and(|f| port_up(f, n));
                    match (here, there) {
                        (true, true) => MlagPortState::ActiveFull,
                        (false, false) => MlagPortState::Inactive,
                        _ => MlagPortState::ActivePartial,
                    }
                };
                (n, state)
            })
            .collect();
        Some(MlagView {
            admin,
            oper,
            system_mac: c.mlag.system_mac,
            ipl,
            peer: peer.map(str::to_string),
            ports,
        })
    }
}

/// Each switch's BGP table: its routes by prefix.
type Tables<'a> = BTreeMap<&'a str, BTreeMap<Ipv4Net, Route>>;

/// The BGP sessions of the running switches.
struct BgpSessions<'a> {
    /// Each switch's sessions.
    states: BTreeMap<&'a str, Vec<Session>>,
    /// The Established ones as (receiver, neighbor, sender).
    up: Vec<(&'a str, Peer, &'a str)>,
}

/// What `from` advertises to `to` (their AS numbers), as `to` receives it; `None` when not
/// sent or refused.
fn offer(r: &Route, to: u32, from: u32) -> Option<Route> {
    let ibgp = to == from;
    if ibgp && r.ibgp {
        return None;
    }
    let mut path = r.path.clone();
    if !ibgp {
        path.insert(0, from);
        if path.contains(&to) {
            return None;
        }
    }
    Some(Route { path, ibgp })
}

/// Each prefix of `sw`'s table (`b` its BGP) with the sessions that offer it its best path:
/// the same AS path (the same length under `multipath_relax`) and the same kind (eBGP or
/// iBGP), at most `maximum-paths` when set; none for its own prefixes.
fn multipath(
    sw: &str,
    b: &crate::onyx::Bgp,
    tables: &Tables<'_>,
    up: &[(&str, Peer, &str)],
    asn: &BTreeMap<&str, u32>,
) -> BTreeMap<Ipv4Net, BgpRoute> {
    let Some(table) = tables.get(sw) else {
        return BTreeMap::new();
    };
    let max = b.maximum_paths.map_or(usize::MAX, usize::from);
    let fits = |new: &Route, best: &Route| {
        new.ibgp == best.ibgp
            && (new.path == best.path || (b.multipath_relax && new.path.len() == best.path.len()))
    };
    table
        .iter()
        .map(|(p, best)| {
            let own = best.path.is_empty() && !best.ibgp;
            let via = up
                .iter()
                .filter(|(to, _, _)| *to == sw && !own)
                .filter(|(to, _, from)| {
                    let r = tables.get(from).and_then(|t| t.get(p));
                    match (asn.get(to), asn.get(from), r) {
                        (Some(&a), Some(&f), Some(r)) => {
                            offer(r, a, f).is_some_and(|r| fits(&r, best))
                        }
                        _ => false,
                    }
                })
                .take(max)
                .map(|(_, n, from)| (*n, from.to_string()))
                .collect();
            (
                *p,
                BgpRoute {
                    path: best.path.clone(),
                    via,
                },
            )
        })
        .collect()
}

/// One round: each Established session's receiver takes what its sender offers where it
/// is better than what it has. Whether any route got better.
fn spread<'a>(
    tables: &mut Tables<'a>,
    up: &[(&'a str, Peer, &'a str)],
    asn: &BTreeMap<&str, u32>,
) -> bool {
    let mut changed = false;
    for (to, _, from) in up {
        let (Some(&a), Some(&b)) = (asn.get(to), asn.get(from)) else {
            continue;
        };
        let offers: Vec<(Ipv4Net, Route)> = tables[from]
            .iter()
            .filter_map(|(p, r)| offer(r, a, b).map(|r| (*p, r)))
            .collect();
        let table = tables.entry(to).or_default();
        for (p, new) in offers {
            let better = match table.get(&p) {
                None => true,
                Some(old) if old.path.is_empty() && !old.ibgp => false,
                Some(old) => {
                    new.path.len() < old.path.len()
                        || (new.path.len() == old.path.len() && old.ibgp && !new.ibgp)
                }
            };
            if better {
                table.insert(p, new);
                changed = true;
            }
        }
    }
    changed
}
