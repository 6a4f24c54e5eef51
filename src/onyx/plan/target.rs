//! What the switch should look like: the intent where it is managed, the running config elsewhere.

use std::collections::BTreeSet;

use crate::onyx::{Config, Iface, Interface, Pool, Protocol};

use super::*;

/// The config the switch should have: `intended` for what `scope` manages, `running` for
/// everything else (including every line the model does not know, which stays in place).
pub fn target(running: &Config, intended: &Config, scope: &Scope) -> Config {
    let s = Sides {
        running,
        intended,
        scope,
    };
    let mut t = running.clone();
    t.hostname = intended.hostname.clone();
    t.lldp = intended.lldp;
    t.roce = intended.roce;
    t.pfc = intended.pfc.clone();
    if s.manages(Feature::Routing) {
        routing(&mut t, &s);
    }
    if s.manages(Feature::Mlag) {
        protocol(&mut t, intended, Protocol::Mlag);
        t.mlag = intended.mlag.clone();
    }
    if s.manages(Feature::Bundles) {
        t.lacp = intended.lacp;
    }
    if s.manages(Feature::Stp) {
        t.spanning_tree = intended.spanning_tree;
    }
    drop_stopped_protocols(&mut t);
    for k in &intended.licenses {
        if !t.licenses.contains(k) {
            t.licenses.push(k.clone());
        }
    }
    pools_and_vlans(&mut t, &s);
    interfaces(&mut t, &s);
    splits(&mut t);
    t
}

/// The two configurations a target is made of, and what the intent manages.
struct Sides<'a> {
    running: &'a Config,
    intended: &'a Config,
    scope: &'a Scope,
}

impl Sides<'_> {
    /// Whether the intent manages the switch-wide feature `f`.
    fn manages(&self, f: Feature) -> bool {
        !self.scope.keep.contains(&f)
    }
}

/// Protocol `p` runs in `t` as it does in `intended`.
fn protocol(t: &mut Config, intended: &Config, p: Protocol) {
    if intended.protocols.contains(&p) {
        t.protocols.insert(p);
    } else {
        t.protocols.remove(&p);
    }
}

/// Routing as the intent has it: `ip routing`, ECMP hashing, BGP (merged with the switch's
/// without pruning) and BFD's timers.
fn routing(t: &mut Config, s: &Sides<'_>) {
    let (running, intended) = (s.running, s.intended);
    t.ip_routing = intended.ip_routing;
    t.load_sharing = intended.load_sharing.clone();
    protocol(t, intended, Protocol::Bgp);
    protocol(t, intended, Protocol::Bfd);
    t.bgp = match (&running.bgp, &intended.bgp) {
        // Without pruning, neighbors and networks the intent does not name stay, with
        // their timers and BFD.
        (Some(have), Some(want)) if have.asn == want.asn && !s.scope.prune => {
            let mut b = want.clone();
            for a in have.named().difference(&want.named()) {
                if let Some(n) = have.neighbors.get(a) {
                    b.neighbors.insert(*a, *n);
                }
                if let Some(x) = have.timers.get(a) {
                    b.timers.insert(*a, *x);
                }
                if have.bfd.contains(a) {
                    b.bfd.insert(*a);
                }
            }
            b.networks.extend(have.networks.iter().copied());
            Some(b)
        }
        (_, want) => want.clone(),
    };
    // BFD's timers: the intent's, else the switch's.
    let (want, have) = (intended.bfd, running.bfd);
    t.bfd = crate::onyx::BfdInterval {
        min_rx: want.min_rx.or(have.min_rx),
        multiplier: want.multiplier.or(have.multiplier),
        transmit_rate: want.transmit_rate.or(have.transmit_rate),
    };
}

/// No configuration of a protocol that does not run (the switch would refuse it).
fn drop_stopped_protocols(t: &mut Config) {
    // A protocol's configuration exists only while the protocol runs: `no protocol mlag`
    // "hides the MLAG commands and deletes its database" (Onyx User Manual, MLAG Commands),
    // and the model reads `no protocol bgp` alike. A target without the protocol has none
    // of its configuration, so a plan never sets what the switch would refuse.
    if !t.protocols.contains(&Protocol::Mlag) {
        t.mlag = crate::onyx::Mlag::default();
    }
    if !t.protocols.contains(&Protocol::Bgp) {
        t.bgp = None;
    }
    if !t.protocols.contains(&Protocol::Bfd) {
        t.bfd = crate::onyx::BfdInterval::default();
    }
}

/// The intent's buffer pools and VLANs, over the switch's (those it does not declare go
/// when pruning).
fn pools_and_vlans(t: &mut Config, s: &Sides<'_>) {
    let (running, intended) = (s.running, s.intended);
    if s.scope.prune {
        t.pools.retain(|n, _| intended.pools.contains_key(n));
        t.vlans.retain(|v, _| intended.vlans.contains_key(v));
    }
    for (name, want) in &intended.pools {
        // A switch priority belongs to one pool: the intended one takes it from the others.
        for (other, p) in &mut t.pools {
            if other != name {
                p.priorities.retain(|x| !want.priorities.contains(x));
            }
        }
        let have = running.pools.get(name);
        t.pools.insert(
            name.clone(),
            Pool {
                kind: want.kind.or(have.and_then(|p| p.kind)),
                // A pool whose memory the intent leaves open keeps the switch's.
                memory: want.memory.or(have.and_then(|p| p.memory)),
                priorities: want.priorities.clone(),
            },
        );
    }
    t.pools.retain(|_, p| *p != Pool::default());
    for (id, want) in &intended.vlans {
        let name = want
            .name
            .clone()
            .or_else(|| running.vlans.get(id).and_then(|v| v.name.clone()));
        t.vlans.insert(*id, crate::onyx::VlanConfig { name });
    }
}

/// Each interface the intent manages, as the intent has it but for what it leaves to the
/// switch.
fn interfaces(t: &mut Config, s: &Sides<'_>) {
    let (running, intended, scope) = (s.running, s.intended, s.scope);
    let mut managed: BTreeSet<Iface> = match &scope.interfaces {
        Some(set) => set.clone(),
        None => intended.interfaces.keys().copied().collect(),
    };
    // Pruning: every interface the switch has is the intent's, declared or not (one it does
    // not declare goes back to its default: a port-channel removed, an address taken away).
    if scope.prune {
        managed.extend(running.interfaces.keys().copied());
    }
    let empty = Interface::default();
    for iface in managed {
        let have = running.interfaces.get(&iface).unwrap_or(&empty);
        let mut want = intended.interfaces.get(&iface).cloned().unwrap_or_default();
        if scope.fabric_attributes_only && !s.manages(Feature::Bundles) {
            if matches!(iface, Iface::Ethernet(_)) {
                want.created = have.created;
            }
            want.channel_group = have.channel_group;
            want.allowed = have.allowed.clone();
            want.lacp_individual = have.lacp_individual;
            if want.switchport_mode.is_none() && have.allowed.is_some() {
                want.switchport_mode = have.switchport_mode;
            }
        }
        if !s.manages(Feature::Routing) {
            want.routed = have.routed;
            want.address = have.address;
        }
        if !s.manages(Feature::Mlag) {
            want.ipl = have.ipl;
            want.ipl_peer = have.ipl_peer;
        }
        if want == empty {
            t.interfaces.remove(&iface);
        } else {
            t.interfaces.insert(iface, want);
        }
    }
}

/// Split ports hold their subports and nothing else; the subports of a port no longer
/// split go.
fn splits(t: &mut Config) {
    // A split port holds its subports and nothing else.
    for (i, e) in t.interfaces.iter_mut() {
        if let (Iface::Ethernet(p), Some(s)) = (i, e.split)
            && p.sub.is_none()
        {
            *e = Interface {
                split: Some(s),
                ..Interface::default()
            };
        }
    }
    // Subports of a port that is no longer split cannot keep settings.
    let joined: Vec<crate::types::Port> = t
        .interfaces
        .keys()
        .filter_map(|i| match i {
            Iface::Ethernet(p) if p.sub.is_some() => Some(p.parent()),
            _ => None,
        })
        .filter(|p| {
            t.interfaces
                .get(&Iface::Ethernet(*p))
                .is_none_or(|e| e.split.is_none())
        })
        .collect();
    t.interfaces.retain(
        |i, _| !matches!(i, Iface::Ethernet(p) if p.sub.is_some() && joined.contains(&p.parent())),
    );
}
