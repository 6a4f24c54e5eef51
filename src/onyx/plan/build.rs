//! Two models → the commands between them, switch-wide changes by kind and interface changes
//! grouped into ranges.

use std::collections::{BTreeMap, BTreeSet};

use crate::onyx::{BgpCmd, Command, Config, Iface, IfaceCmd, IfaceRange, Interface, Protocol};
use crate::types::Vlan;

use super::interface::interface;
use super::*;

/// Collects steps by kind, then interface changes grouped by identical command.
#[derive(Default)]
pub(super) struct Builder {
    globals: Vec<(Kind, usize, Command)>,
    /// (kind, the change as text) → the change and the interfaces it applies to.
    ifaces: BTreeMap<(Kind, String), (IfaceCmd, Vec<Iface>)>,
}

impl Builder {
    pub(super) fn global(&mut self, kind: Kind, cmd: Command) {
        let n = self.globals.len();
        self.globals.push((kind, n, cmd));
    }

    pub(super) fn iface(&mut self, kind: Kind, iface: Iface, cmd: IfaceCmd) {
        let key = (kind, cmd.to_string());
        self.ifaces
            .entry(key)
            .or_insert_with(|| (cmd, Vec::new()))
            .1
            .push(iface);
    }

    fn finish(self) -> Vec<Step> {
        let mut all: Vec<(Kind, Iface, usize, Command)> = Vec::new();
        for (kind, n, cmd) in self.globals {
            all.push((kind, Iface::Ethernet(crate::types::Port::new(0, 0)), n, cmd));
        }
        for ((kind, _), (cmd, mut ifaces)) in self.ifaces {
            ifaces.sort();
            // One command per run of consecutive interfaces needing this same change.
            let mut start = 0;
            for i in 1..=ifaces.len() {
                if i == ifaces.len() || !ifaces[i - 1].precedes(ifaces[i]) {
                    let range = IfaceRange {
                        first: ifaces[start],
                        last: ifaces[i - 1],
                    };
                    let command = if kind == Kind::InterfaceDelete {
                        Command::NoInterface(range)
                    } else {
                        Command::Interface(range, cmd.clone())
                    };
                    all.push((kind, ifaces[start], 0, command));
                    start = i;
                }
            }
        }
        all.sort_by(|a, b| {
            (a.0, a.1, a.2)
                .cmp(&(b.0, b.1, b.2))
                .then_with(|| a.3.to_string().cmp(&b.3.to_string()))
        });
        all.into_iter()
            .map(|(kind, _, _, command)| Step {
                command,
                impact: impact(kind),
            })
            .collect()
    }
}

/// Commands turning `running` into `target`, in a safe order. Empty when they are equal.
pub fn plan(running: &Config, target: &Config) -> Vec<Step> {
    let mut b = Builder::default();
    switch(&mut b, running, target);
    pools(&mut b, running, target);
    vlans(&mut b, running, target);
    pfc(&mut b, running, target);
    routing_and_protocols(&mut b, running, target);
    bgp(&mut b, running, target);
    mlag(&mut b, running, target);
    interfaces(&mut b, running, target);
    b.finish()
}

/// Licenses, the hostname, LLDP and RoCE's mode.
fn switch(b: &mut Builder, running: &Config, target: &Config) {
    for k in &target.licenses {
        if !running.licenses.contains(k) {
            b.global(Kind::License, Command::License(k.clone()));
        }
    }
    match (&running.hostname, &target.hostname) {
        (a, Some(h)) if a.as_ref() != Some(h) => {
            b.global(Kind::Hostname, Command::Hostname(h.clone()))
        }
        (Some(_), None) => b.global(Kind::Hostname, Command::NoHostname),
        _ => {}
    }
    if target.lldp != running.lldp {
        b.global(
            if target.lldp {
                Kind::LldpOn
            } else {
                Kind::LldpOff
            },
            Command::Lldp(target.lldp),
        );
    }
    if target.roce != running.roce {
        b.global(
            if target.roce.is_some() {
                Kind::Roce
            } else {
                Kind::RoceOff
            },
            Command::Roce(target.roce),
        );
    }
}

/// The switch's PFC and its priorities.
fn pfc(b: &mut Builder, running: &Config, target: &Config) {
    if target.pfc.enabled && !running.pfc.enabled {
        b.global(Kind::PfcOn, Command::PfcEnable(true));
    }
    if !target.pfc.enabled && running.pfc.enabled {
        b.global(Kind::PfcOff, Command::PfcEnable(false));
    }
    for p in target.pfc.priorities.difference(&running.pfc.priorities) {
        b.global(Kind::PfcPriorityOn, Command::PfcPriority(*p, true));
    }
    for p in running.pfc.priorities.difference(&target.pfc.priorities) {
        b.global(Kind::PfcPriorityOff, Command::PfcPriority(*p, false));
    }
}

/// A switch-wide on/off setting that changes (`have` → `want`), as `cmd` with the kind of
/// turning it on or off.
fn flag(
    b: &mut Builder,
    (have, want): (bool, bool),
    (on, off): (Kind, Kind),
    cmd: fn(bool) -> Command,
) {
    if have != want {
        b.global(if want { on } else { off }, cmd(want));
    }
}

/// `ip routing`, `lacp`, `spanning-tree`, ECMP hashing, the protocols and BFD's timers.
fn routing_and_protocols(b: &mut Builder, running: &Config, target: &Config) {
    flag(
        b,
        (running.ip_routing, target.ip_routing),
        (Kind::IpRoutingOn, Kind::IpRoutingOff),
        Command::IpRouting,
    );
    flag(
        b,
        (running.lacp, target.lacp),
        (Kind::LacpOn, Kind::LacpOff),
        Command::Lacp,
    );
    flag(
        b,
        (running.spanning_tree, target.spanning_tree),
        (Kind::StpOn, Kind::StpOff),
        Command::SpanningTree,
    );
    for l in target.load_sharing.difference(&running.load_sharing) {
        b.global(Kind::LoadSharing, Command::LoadSharing(*l, true));
    }
    for l in running.load_sharing.difference(&target.load_sharing) {
        b.global(Kind::LoadSharing, Command::LoadSharing(*l, false));
    }
    for p in target.protocols.difference(&running.protocols) {
        b.global(Kind::ProtocolOn, Command::Protocol(*p, true));
    }
    for p in running.protocols.difference(&target.protocols) {
        let kind = match p {
            Protocol::Bfd => Kind::BfdOff,
            _ => Kind::ProtocolOff,
        };
        b.global(kind, Command::Protocol(*p, false));
    }
    if target.bfd != running.bfd && target.bfd != crate::onyx::BfdInterval::default() {
        b.global(Kind::BfdInterval, Command::BfdInterval(target.bfd));
    }
}

/// Each interface that differs; the subports of a port joined back need no command, those of
/// a port split anew start fresh.
fn interfaces(b: &mut Builder, running: &Config, target: &Config) {
    let empty = Interface::default();
    let keys: BTreeSet<Iface> = running
        .interfaces
        .keys()
        .chain(target.interfaces.keys())
        .copied()
        .collect();
    let (joining, resplit) = split_changes(&keys, running, target);
    for iface in keys {
        let sub_of = |set: &BTreeSet<crate::types::Port>| matches!(iface, Iface::Ethernet(p) if p.sub.is_some() && set.contains(&p.parent()));
        if sub_of(&joining) {
            continue;
        }
        let have = if sub_of(&resplit) {
            &empty
        } else {
            running.interfaces.get(&iface).unwrap_or(&empty)
        };
        let want = target.interfaces.get(&iface).unwrap_or(&empty);
        if have != want {
            interface(b, iface, have, want);
        }
    }
}

/// The ports among `keys` joined back, and those split anew or another way.
fn split_changes(
    keys: &BTreeSet<Iface>,
    running: &Config,
    target: &Config,
) -> (BTreeSet<crate::types::Port>, BTreeSet<crate::types::Port>) {
    // Ports whose split changes: joined back (`no module-type`), their subports vanish and
    // need no command; split anew or another way, their subports start fresh.
    let mut joining: BTreeSet<crate::types::Port> = BTreeSet::new();
    let mut resplit: BTreeSet<crate::types::Port> = BTreeSet::new();
    for i in keys {
        let Iface::Ethernet(p) = i else { continue };
        let split = |c: &Config| c.interfaces.get(i).and_then(|e| e.split);
        match (p.sub, split(running), split(target)) {
            (None, Some(_), None) => {
                joining.insert(*p);
            }
            (None, was, Some(now)) if was != Some(now) => {
                resplit.insert(*p);
            }
            _ => {}
        }
    }
    (joining, resplit)
}

/// The default VRF's BGP instance: created (or replaced, for another AS) before its settings,
/// neighbors after the addresses they run over, removals first.
fn bgp(b: &mut Builder, running: &Config, target: &Config) {
    let Some(want) = &target.bgp else {
        if let Some(have) = &running.bgp {
            bgp_teardown(b, have);
        }
        return;
    };
    let base = match &running.bgp {
        Some(have) if have.asn == want.asn => Some(have),
        Some(have) => {
            b.global(Kind::BgpReplace, Command::NoBgp(have.asn));
            None
        }
        None => None,
    };
    let asn = want.asn;
    let cmd = |c: BgpCmd| Command::Bgp(asn, c);
    if base.is_none() {
        b.global(Kind::BgpCreate, cmd(BgpCmd::Create));
    }
    let empty = crate::onyx::Bgp::new(asn);
    let have = base.unwrap_or(&empty);
    bgp_settings(b, have, want, cmd);
    for (a, n) in &want.neighbors {
        match have.neighbors.get(a) {
            Some(m) if m == n => {}
            // Another remote AS over the same address: that session restarts.
            Some(_) => b.global(Kind::BgpNeighborChange, cmd(BgpCmd::Neighbor(*a, *n))),
            None => b.global(Kind::BgpNeighbor, cmd(BgpCmd::Neighbor(*a, *n))),
        }
    }
    for a in have.neighbors.keys() {
        if !want.neighbors.contains_key(a) {
            b.global(Kind::BgpRemoveNeighbor, cmd(BgpCmd::NoNeighbor(*a)));
        }
    }
    if want.fast_external_fallover != have.fast_external_fallover {
        b.global(
            Kind::BgpFallover,
            cmd(BgpCmd::FastExternalFallover(want.fast_external_fallover)),
        );
    }
    detection(b, have, want, cmd);
    for n in want.networks.difference(&have.networks) {
        b.global(Kind::BgpNetwork, cmd(BgpCmd::Network(*n)));
    }
    for n in have.networks.difference(&want.networks) {
        b.global(Kind::BgpRemoveNetwork, cmd(BgpCmd::NoNetwork(*n)));
    }
}

/// The instance the target has none of, torn down.
fn bgp_teardown(b: &mut Builder, have: &crate::onyx::Bgp) {
    // Torn down in reverse: each session closed first, while its link still has its
    // address (the peer is told at once, with a Cease "Peer De-configured", RFC 4486
    // §4, instead of waiting out its hold time), then the instance, then `no protocol
    // bgp`.
    for a in have.neighbors.keys() {
        b.global(
            Kind::BgpRemoveNeighbor,
            Command::Bgp(have.asn, BgpCmd::NoNeighbor(*a)),
        );
    }
    b.global(Kind::BgpDelete, Command::NoBgp(have.asn));
}

/// The instance's router-id, maximum paths and multipath relax, where they change.
fn bgp_settings(
    b: &mut Builder,
    have: &crate::onyx::Bgp,
    want: &crate::onyx::Bgp,
    cmd: impl Fn(BgpCmd) -> Command,
) {
    if want.router_id != have.router_id {
        // A new router-id restarts the sessions that run across it; an instance whose
        // every session is new (or that has none) has nothing to restart.
        let kept = have
            .neighbors
            .iter()
            .any(|(a, n)| want.neighbors.get(a) == Some(n));
        b.global(
            if kept {
                Kind::BgpRouterId
            } else {
                Kind::BgpRouterIdNew
            },
            cmd(want.router_id.map_or(BgpCmd::NoRouterId, BgpCmd::RouterId)),
        );
    }
    if want.maximum_paths != have.maximum_paths {
        b.global(
            Kind::BgpSettings,
            cmd(want
                .maximum_paths
                .map_or(BgpCmd::NoMaximumPaths, BgpCmd::MaximumPaths)),
        );
    }
    if want.multipath_relax != have.multipath_relax {
        b.global(
            Kind::BgpSettings,
            cmd(BgpCmd::MultipathRelax(want.multipath_relax)),
        );
    }
}

/// Each neighbor's timers and BFD that change, where it stays (a neighbor that goes takes
/// them with it): set after the neighbor exists, BFD taken away before `no protocol bfd`.
fn detection(
    b: &mut Builder,
    have: &crate::onyx::Bgp,
    want: &crate::onyx::Bgp,
    cmd: impl Fn(BgpCmd) -> Command,
) {
    for a in want.named() {
        match (have.timers.get(&a), want.timers.get(&a)) {
            (x, Some(&(k, h))) if x != Some(&(k, h)) => {
                b.global(Kind::BgpTimers, cmd(BgpCmd::Timers(a, k, h)))
            }
            (Some(_), None) => b.global(Kind::BgpTimers, cmd(BgpCmd::NoTimers(a))),
            _ => {}
        }
        match (have.bfd.contains(&a), want.bfd.contains(&a)) {
            (false, true) => b.global(Kind::BgpBfd, cmd(BgpCmd::FallOverBfd(a, true))),
            (true, false) => b.global(Kind::BgpBfdOff, cmd(BgpCmd::FallOverBfd(a, false))),
            _ => {}
        }
    }
    for a in have.named().difference(&want.named()) {
        // `no neighbor A` takes its timers and BFD; a neighbor without a remote AS has no
        // such line, so they go one by one.
        if !have.neighbors.contains_key(a) {
            if have.timers.contains_key(a) {
                b.global(Kind::BgpTimers, cmd(BgpCmd::NoTimers(*a)));
            }
            if have.bfd.contains(a) {
                b.global(Kind::BgpBfdOff, cmd(BgpCmd::FallOverBfd(*a, false)));
            }
        }
    }
}

/// Whether the MLAG pair's settings (system MAC, VIP) or peer link (`ipl`, `peer-address`)
/// differ between two configs: a plan between them shuts a pair that is up down around the
/// change (`mlag shutdown` … `no mlag shutdown`), so its admin state changes on the way even
/// when it ends as it began.
pub fn mlag_changes(a: &Config, b: &Config) -> bool {
    type Ipl = (Iface, Option<u8>, Option<(u8, std::net::Ipv4Addr)>);
    let ipl = |c: &Config| -> Vec<Ipl> {
        c.interfaces
            .iter()
            .filter(|(_, e)| e.ipl.is_some() || e.ipl_peer.is_some())
            .map(|(i, e)| (*i, e.ipl, e.ipl_peer))
            .collect()
    };
    a.mlag.system_mac != b.mlag.system_mac || a.mlag.vip != b.mlag.vip || ipl(a) != ipl(b)
}

/// An MLAG pair's switch-wide settings. A pair that is up is shut down around a change of its
/// settings or peer link, and `no mlag shutdown` comes last, with everything in place.
fn mlag(b: &mut Builder, running: &Config, target: &Config) {
    let (have, want) = (&running.mlag, &target.mlag);
    let bounce = have.enabled && want.enabled && mlag_changes(running, target);
    if have.enabled && (!want.enabled || bounce) {
        b.global(Kind::MlagDisable, Command::MlagShutdown(true));
    }
    // Set as mellanox.onyx's onyx_mlag_vip sends them (`mlag-vip … force`, then `mlag
    // system-mac`, then `no mlag shutdown`); taken away in reverse.
    if have.system_mac.is_some() && want.system_mac.is_none() {
        b.global(Kind::MlagUnset, Command::MlagSystemMac(None));
    }
    if have.vip != want.vip {
        let kind = if want.vip.is_some() {
            Kind::MlagSettings
        } else {
            Kind::MlagUnset
        };
        b.global(kind, Command::MlagVip(want.vip.clone()));
    }
    if want.system_mac.is_some() && have.system_mac != want.system_mac {
        b.global(Kind::MlagSettings, Command::MlagSystemMac(want.system_mac));
    }
    if want.enabled && (!have.enabled || bounce) {
        b.global(Kind::MlagEnable, Command::MlagShutdown(false));
    }
}

fn pools(b: &mut Builder, running: &Config, target: &Config) {
    for (name, want) in &target.pools {
        let have = running.pools.get(name);
        // A pool's memory or map can grow or change in place; taking something away needs
        // the pool made again.
        let rebuild = have.is_some_and(|h| {
            (h.memory.is_some() && want.memory.is_none())
                || (h.kind.is_some() && want.kind.is_none())
        });
        let base = if rebuild {
            b.global(Kind::PoolDelete, Command::NoPool(name.clone()));
            None
        } else {
            have
        };
        if let Some(k) = want.kind
            && base.and_then(|h| h.kind) != Some(k)
        {
            b.global(Kind::Pool, Command::PoolType(name.clone(), k));
        }
        if let Some(m) = want.memory
            && base.and_then(|h| h.memory) != Some(m)
        {
            b.global(Kind::Pool, Command::PoolMemory(name.clone(), m));
        }
        let missing: Vec<_> = want
            .priorities
            .iter()
            .copied()
            .filter(|p| !base.is_some_and(|h| h.priorities.contains(p)))
            .collect();
        if !missing.is_empty() {
            b.global(Kind::Pool, Command::PoolMap(name.clone(), missing));
        }
        // Priorities that leave the pool for no other pool are unmapped; those mapped to
        // another pool leave by that map.
        let unmapped: Vec<_> = base
            .map(|h| {
                h.priorities
                    .iter()
                    .copied()
                    .filter(|p| !want.priorities.contains(p) && !moved_away(target, name, *p))
                    .collect()
            })
            .unwrap_or_default();
        if !unmapped.is_empty() {
            b.global(Kind::Pool, Command::PoolUnmap(name.clone(), unmapped));
        }
    }
    for name in running.pools.keys() {
        if !target.pools.contains_key(name) {
            b.global(Kind::PoolPrune, Command::NoPool(name.clone()));
        }
    }
}

/// A priority that leaves pool `from` because the target maps it to another pool: mapping it
/// there takes it away by itself.
fn moved_away(target: &Config, from: &str, p: crate::types::Priority) -> bool {
    target
        .pools
        .iter()
        .any(|(n, pool)| n != from && pool.priorities.contains(&p))
}

fn vlans(b: &mut Builder, running: &Config, target: &Config) {
    let spans = crate::types::vlan_runs;
    let new: Vec<Vlan> = target
        .vlans
        .keys()
        .copied()
        .filter(|v| !running.vlans.contains_key(v))
        .collect();
    // One line per run of consecutive VLANs: `vlan 10-13`, never a delete to add one.
    for span in spans(new) {
        b.global(Kind::Vlan, Command::VlanCreate(vec![span]));
    }
    for (id, want) in &target.vlans {
        if let Some(n) = &want.name
            && running.vlans.get(id).and_then(|v| v.name.as_ref()) != Some(n)
        {
            b.global(Kind::Vlan, Command::VlanName(*id, n.clone()));
        }
    }
    let gone: Vec<Vlan> = running
        .vlans
        .keys()
        .copied()
        .filter(|v| !target.vlans.contains_key(v))
        .collect();
    for span in spans(gone) {
        b.global(Kind::VlanDelete, Command::NoVlan(vec![span]));
    }
}
