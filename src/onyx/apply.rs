//! Commands applied to a [`Config`] with Onyx's semantics: what a line typed at the CLI (or
//! read from a printed config) does to the state.

use std::collections::{BTreeMap, BTreeSet};

use super::{
    Allowed, AllowedVlan, BfdInterval, Bgp, BgpCmd, Command, Config, Iface, IfaceCmd, IfaceRange,
    Interface, Mlag, Pool, Protocol, VLAN_DEFAULT_MTU, VlanConfig,
};
use crate::types::{Split, StpGuard, StpPortType, SwitchportMode, Trust, Vlan};

impl Config {
    /// Reads one line of a printed config into the state. A printed config is a snapshot, so
    /// the order of its lines does not matter: a `module-type` split line only marks the
    /// port split (typed at the CLI, it would also clear the port and its subports).
    pub fn load(&mut self, cmd: &Command) {
        match cmd {
            Command::Interface(range, IfaceCmd::Split(s)) => {
                for iface in range.members() {
                    self.interfaces.entry(iface).or_default().split = Some(*s);
                }
            }
            other => self.apply(other),
        }
    }

    /// Applies one command with Onyx's semantics: ranges set every member, `no` forms reset
    /// to the default, a value equal to the default is not kept.
    pub fn apply(&mut self, cmd: &Command) {
        match cmd {
            // Where the prefix-mode lines go is layout, not state.
            Command::PrefixModes(_) => {}
            Command::License(k) => {
                if !self.licenses.contains(k) {
                    self.licenses.push(k.clone());
                }
            }
            Command::Hostname(h) => self.hostname = Some(h.clone()),
            Command::NoHostname => self.hostname = None,
            Command::Lldp(on) => self.lldp = *on,
            Command::Roce(m) => self.roce = *m,
            Command::PoolType(n, t) => self.pools.entry(n.clone()).or_default().kind = Some(*t),
            Command::PoolMemory(n, p) => self.pools.entry(n.clone()).or_default().memory = Some(*p),
            Command::PoolMap(n, l) => self.map_pool(n, l),
            Command::NoPool(n) => {
                self.pools.remove(n);
            }
            Command::PfcEnable(on) => self.pfc.enabled = *on,
            Command::PfcPriority(p, on) => toggle(&mut self.pfc.priorities, *p, *on),
            Command::VlanCreate(spans) => {
                for v in vlans(spans) {
                    self.vlans.entry(v).or_default();
                }
            }
            Command::VlanName(v, n) => self.vlans.entry(*v).or_default().name = Some(n.clone()),
            Command::NoVlan(spans) => {
                for v in vlans(spans) {
                    self.vlans.remove(&v);
                }
            }
            Command::NoInterface(range) => {
                for iface in range.members() {
                    self.interfaces.remove(&iface);
                }
            }
            Command::Interface(range, IfaceCmd::NoSplit) => self.join(*range),
            Command::Interface(range, IfaceCmd::Split(split)) => self.split(*range, *split),
            Command::PoolUnmap(n, l) => {
                if let Some(p) = self.pools.get_mut(n) {
                    p.priorities.retain(|x| !l.contains(x));
                }
                self.pools.retain(|_, p| *p != Pool::default());
            }
            Command::Interface(range, c) => self.apply_to(*range, std::slice::from_ref(c)),
            Command::IpRouting(on) => self.ip_routing = *on,
            Command::LoadSharing(l, on) => toggle(&mut self.load_sharing, *l, *on),
            Command::Protocol(p, on) => self.protocol(*p, *on),
            Command::Lacp(on) => self.lacp = *on,
            Command::SpanningTree(on) => self.spanning_tree = *on,
            Command::Bgp(asn, c) => {
                // One instance in the default VRF: a line for another AS starts it anew (the
                // lab refuses it, as a switch does).
                let b = match &mut self.bgp {
                    Some(b) if b.asn == *asn => b,
                    other => other.insert(Bgp::new(*asn)),
                };
                apply_bgp(b, c);
            }
            Command::NoBgp(asn) => {
                if self.bgp.as_ref().is_some_and(|b| b.asn == *asn) {
                    self.bgp = None;
                }
            }
            Command::BfdInterval(x) => {
                let b = &mut self.bfd;
                b.min_rx = x.min_rx.or(b.min_rx);
                b.multiplier = x.multiplier.or(b.multiplier);
                b.transmit_rate = x.transmit_rate.or(b.transmit_rate);
            }
            Command::MlagShutdown(down) => self.mlag.enabled = !*down,
            Command::MlagSystemMac(m) => self.mlag.system_mac = *m,
            Command::MlagVip(v) => self.mlag.vip.clone_from(v),
        }
    }

    /// `traffic pool NAME map switch-priority …`.
    fn map_pool(&mut self, n: &str, l: &[crate::types::Priority]) {
        // A switch priority belongs to one pool: mapping it here takes it from others.
        for (name, pool) in &mut self.pools {
            if name != n {
                pool.priorities.retain(|p| !l.contains(p));
            }
        }
        self.pools
            .entry(n.to_string())
            .or_default()
            .priorities
            .extend(l.iter().copied());
        // A pool left with nothing set prints nothing, so it is not kept either.
        self.pools.retain(|_, p| *p != Pool::default());
    }

    /// `no module-type`: the split ports of `range` joined back.
    fn join(&mut self, range: IfaceRange) {
        // Joining a split port back removes its subports and what they had.
        for iface in range.members() {
            if let Iface::Ethernet(p) = iface {
                self.interfaces.retain(
                    |i, _| !matches!(i, Iface::Ethernet(s) if s.sub.is_some() && s.parent() == p),
                );
            }
            if let Some(e) = self.interfaces.get_mut(&iface) {
                e.split = None;
                if e.is_default() {
                    self.interfaces.remove(&iface);
                }
            }
        }
    }

    /// `module-type qsfp-split-N force` typed: the ports of `range` split, their subports of
    /// another split gone.
    fn split(&mut self, range: IfaceRange, split: Split) {
        for iface in range.members() {
            if let Iface::Ethernet(p) = iface {
                let changed = self.interfaces.get(&iface).and_then(|e| e.split) != Some(split);
                if changed {
                    self.interfaces.retain(|i, _| !matches!(i, Iface::Ethernet(s) if s.sub.is_some() && s.parent() == p));
                }
            }
            let e = self.interfaces.entry(iface).or_default();
            apply_iface(iface, e, &IfaceCmd::Split(split), &self.vlans);
            e.created |= !matches!(iface, Iface::Ethernet(_));
        }
    }

    /// `protocol P` / `no protocol P`.
    fn protocol(&mut self, p: Protocol, on: bool) {
        if on {
            self.protocols.insert(p);
        } else {
            // Turning a protocol off drops its configuration: `no protocol bgp`
            // "deletes all BGP configuration and hides BGP related commands" (Onyx
            // manual, BGP Commands); `no protocol mlag` taken alike (UNCONFIRMED).
            self.protocols.remove(&p);
            match p {
                Protocol::Bfd => self.bfd = BfdInterval::default(),
                Protocol::Bgp => self.bgp = None,
                Protocol::Mlag => self.mlag = Mlag::default(),
            }
        }
    }

    /// Applies interface commands other than splits to every interface of `range`, in order,
    /// looking each interface up once (the parser hands over the run of lines Onyx prints
    /// for one interface).
    pub(crate) fn apply_to(&mut self, range: IfaceRange, cmds: &[IfaceCmd]) {
        // Only a command that can set a value back to its default can leave an interface
        // with nothing to print; the others skip the check.
        let may_reset = cmds.iter().any(|c| {
            !matches!(
                c,
                IfaceCmd::Speed(_)
                    | IfaceCmd::Mtu(_)
                    | IfaceCmd::Description(_)
                    | IfaceCmd::Split(_)
                    | IfaceCmd::ChannelGroup(_)
                    | IfaceCmd::Ecn(..)
                    | IfaceCmd::Ets(..)
            )
        });
        for iface in range.members() {
            let e = self.interfaces.entry(iface).or_default();
            for c in cmds {
                apply_iface(iface, e, c, &self.vlans);
            }
            // Entering `interface port-channel N` (or mlag-port-channel, vlan) creates it.
            e.created |= !matches!(iface, Iface::Ethernet(_));
            if may_reset && e.is_default() {
                self.interfaces.remove(&iface);
            }
        }
    }
}

/// `v` in `set` (on) or out of it.
fn toggle<T: Ord>(set: &mut BTreeSet<T>, v: T, on: bool) {
    if on {
        set.insert(v);
    } else {
        set.remove(&v);
    }
}

/// One `router bgp ASN vrf default …` line, on its instance.
fn apply_bgp(b: &mut Bgp, c: &BgpCmd) {
    match c {
        BgpCmd::Create => {}
        BgpCmd::RouterId(a) => b.router_id = Some(*a),
        BgpCmd::NoRouterId => b.router_id = None,
        BgpCmd::MaximumPaths(n) => b.maximum_paths = Some(*n),
        BgpCmd::NoMaximumPaths => b.maximum_paths = None,
        BgpCmd::MultipathRelax(on) => b.multipath_relax = *on,
        BgpCmd::Neighbor(a, n) => {
            b.neighbors.insert(*a, *n);
        }
        BgpCmd::NoNeighbor(a) => {
            b.neighbors.remove(a);
            b.timers.remove(a);
            b.bfd.remove(a);
        }
        BgpCmd::FastExternalFallover(on) => b.fast_external_fallover = *on,
        BgpCmd::Timers(a, k, h) => {
            b.timers.insert(*a, (*k, *h));
        }
        BgpCmd::NoTimers(a) => {
            b.timers.remove(a);
        }
        BgpCmd::FallOverBfd(a, on) => toggle(&mut b.bfd, *a, *on),
        BgpCmd::Network(n) => {
            b.networks.insert(*n);
        }
        BgpCmd::NoNetwork(n) => {
            b.networks.remove(n);
        }
    }
}

/// `switchport trunk|hybrid allowed-vlan …` on one interface. A bare list replaces the list
/// and `add`/`remove` change it ([`AllowedVlan::Set`]). Adding to "every VLAN" changes
/// nothing; removing from it leaves every VLAN the switch has (VLAN 1 and those created) but
/// the ones removed, listed: MLNX-OS was seen turning `allowed-vlan all` into `allowed-vlan
/// none` and one `allowed-vlan add N` per VLAN once a VLAN was deleted from the port
/// (UNCONFIRMED on Onyx: [`UNCONFIRMED`](super::UNCONFIRMED)).
fn apply_allowed(
    e: &mut Interface,
    mode: SwitchportMode,
    op: &AllowedVlan,
    switch_vlans: &BTreeMap<Vlan, VlanConfig>,
) {
    let mut a = e
        .allowed
        .take()
        .filter(|a| a.mode == mode)
        .unwrap_or_else(|| Allowed::default_for(mode));
    match op {
        AllowedVlan::None => {
            a.all = false;
            a.vlans.clear();
        }
        AllowedVlan::All => {
            a.all = true;
            a.vlans.clear();
        }
        AllowedVlan::Set(v) => {
            a.all = false;
            a.vlans = v.iter().copied().collect();
        }
        AllowedVlan::Add(v) if !a.all => a.vlans.extend(v.iter().copied()),
        AllowedVlan::Add(_) => {}
        AllowedVlan::Remove(v) => {
            if a.all {
                a.all = false;
                a.vlans = std::iter::once(Vlan::DEFAULT)
                    .chain(switch_vlans.keys().copied())
                    .collect();
            }
            for x in v.iter() {
                a.vlans.remove(*x);
            }
        }
    }
    if a != Allowed::default_for(mode) {
        e.allowed = Some(a);
    }
}

/// The VLANs of `vlan` lines' spans, one by one.
fn vlans(spans: &[(Vlan, Vlan)]) -> impl Iterator<Item = Vlan> + '_ {
    spans.iter().flat_map(|(a, b)| a.through(*b))
}

/// One interface command on interface `iface`: a value equal to the default is not kept.
fn apply_iface(
    iface: Iface,
    e: &mut Interface,
    c: &IfaceCmd,
    switch_vlans: &BTreeMap<Vlan, VlanConfig>,
) {
    let down_by_default = matches!(iface, Iface::MlagPortChannel(_));
    match c {
        // Ethernet ports exist from the start; the others are created by any command
        // (see `Config::apply`).
        IfaceCmd::Create => {}
        IfaceCmd::Speed(s) => e.speed = Some(*s),
        IfaceCmd::NoSpeed => e.speed = None,
        // A VLAN interface at its default MTU keeps nothing (see [`UNCONFIRMED`]).
        IfaceCmd::Mtu(m) => {
            e.mtu = (!matches!(iface, Iface::Vlan(_)) || *m != VLAN_DEFAULT_MTU).then_some(*m)
        }
        IfaceCmd::NoMtu => e.mtu = None,
        IfaceCmd::Description(d) => e.description = Some(d.clone()),
        IfaceCmd::NoDescription => e.description = None,
        IfaceCmd::Shutdown(down) => e.shutdown = (*down != down_by_default).then_some(*down),
        // Splitting makes the port a holder of subports: what it had goes (see `Config::apply`
        // for the subports).
        IfaceCmd::Split(s) => {
            *e = Interface {
                split: Some(*s),
                ..Interface::default()
            }
        }
        IfaceCmd::NoSplit => e.split = None,
        IfaceCmd::SwitchportMode(m) => switchport_mode(e, *m),
        IfaceCmd::AccessVlan(v) => e.access_vlan = (v.get() != 1).then_some(*v),
        IfaceCmd::NoAccessVlan => e.access_vlan = None,
        IfaceCmd::AllowedVlan(mode, op) => apply_allowed(e, *mode, op, switch_vlans),
        IfaceCmd::ChannelGroup(g) => e.channel_group = Some(*g),
        IfaceCmd::NoChannelGroup { mlag } => {
            if e.channel_group.is_some_and(|g| g.mlag == *mlag) {
                e.channel_group = None;
            }
        }
        IfaceCmd::Trust(t) => e.trust = (*t != Trust::L2).then_some(*t),
        IfaceCmd::NoTrust => e.trust = None,
        IfaceCmd::Ecn(tc, x) => {
            e.ecn.insert(*tc, *x);
        }
        IfaceCmd::NoEcn(tc) => {
            e.ecn.remove(tc);
        }
        IfaceCmd::Ets(tc, x) => {
            e.ets.insert(*tc, *x);
        }
        IfaceCmd::NoEts(tc) => {
            e.ets.remove(tc);
        }
        IfaceCmd::PfcMode(on) => e.pfc = *on,
        IfaceCmd::Routed(on) => routed(e, *on),
        IfaceCmd::Address(a) => e.address = Some(*a),
        IfaceCmd::NoAddress => e.address = None,
        IfaceCmd::Ipl(n) => e.ipl = Some(*n),
        IfaceCmd::NoIpl(_) => leave_ipl(e),
        IfaceCmd::IplPeer(n, a) => e.ipl_peer = Some((*n, *a)),
        IfaceCmd::NoIplPeer(_) => e.ipl_peer = None,
        // Normal is the port type by default (Onyx User Manual, Spanning Tree): not kept.
        IfaceCmd::StpPortType(t) => e.stp_type = (*t != StpPortType::Normal).then_some(*t),
        IfaceCmd::NoStpPortType => e.stp_type = None,
        IfaceCmd::Bpduguard(on) => e.bpduguard = Some(*on),
        IfaceCmd::NoBpduguard => e.bpduguard = None,
        IfaceCmd::StpGuard(g) => e.stp_guard = (*g != StpGuard::None).then_some(*g),
        IfaceCmd::NoStpGuard => e.stp_guard = None,
        IfaceCmd::LacpIndividual(on) => e.lacp_individual = *on,
    }
}

/// `switchport mode M`: VLANs allowed in another mode go.
fn switchport_mode(e: &mut Interface, m: SwitchportMode) {
    e.switchport_mode = (m != SwitchportMode::Access).then_some(m);
    if e.allowed
        .as_ref()
        .is_some_and(|a| Some(a.mode) != e.switchport_mode)
    {
        e.allowed = None;
    }
}

/// `no switchport force` (routed) / `switchport force`.
fn routed(e: &mut Interface, on: bool) {
    // A routed port has no switchport settings; one back in L2 has no address.
    if on {
        e.routed = true;
        e.switchport_mode = None;
        e.access_vlan = None;
        e.allowed = None;
    } else {
        e.routed = false;
        e.address = None;
    }
}

/// `no ipl N`.
fn leave_ipl(e: &mut Interface) {
    // `no ipl N` takes the interface out of the peer link: a port-channel stops being
    // it, a VLAN interface loses its peer address (mellanox.onyx's onyx_mlag_ipl clears
    // a VLAN interface's peer address with `interface vlan V no ipl 1`).
    e.ipl = None;
    e.ipl_peer = None;
}
