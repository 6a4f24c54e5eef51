//! The steps every OS's import takes from its switches' port attributes to their `ports`
//! entries, in order: descriptions read as peers ([`super::peers`]) and the host-port
//! default, the attributes every port of every switch shares as `port_defaults`, the
//! unused-port default, consecutive ports alike as one range, settings several ranges share
//! as a profile. The OS reads each port's attributes and names the ranges
//! ([`SwitchOs::port_range`]); nothing here knows an OS.

use std::collections::{BTreeMap, BTreeSet};

use serde_saphyr::FlowMap;

use super::doc::{Defaults, Doc, Ordered, Settings};
use super::links::Links;
use super::peers::{Described, Member, apart, peers};
use super::ports::{
    Attr, Run, host_defaults, is_qos, make_profiles, profiled, runs, settings, span, unadvertised,
    unused_defaults,
};
use crate::targets::SwitchOs;
use crate::types::{Ipv4Net, Port};

/// One imported switch's ports, as its OS read them.
pub(crate) struct Ports<'a> {
    pub(crate) name: &'a str,
    /// The name the bundles of its pair share (`a+b`), else its own.
    pub(crate) group: String,
    /// Each port's attributes.
    pub(crate) attrs: BTreeMap<Port, BTreeSet<Attr>>,
    /// The ports whose descriptions may read as peers, with them (the ends of cables to
    /// other imported switches are taken out here: their links describe them).
    pub(crate) described: Vec<(Port, &'a str)>,
    /// The networks its BGP advertises, when it runs BGP.
    pub(crate) advertised: Option<BTreeSet<Ipv4Net>>,
    /// The ports the host-port default leaves alone.
    pub(crate) exempt: BTreeSet<Port>,
    /// Its pair's peer link, where that is ports of their own: no port defaults of theirs,
    /// and the QoS of the defaults on them.
    pub(crate) peer_link: BTreeSet<Port>,
    /// Its split ports, in port order, and how many ways.
    pub(crate) splits: Vec<(Port, u8)>,
}

/// What the steps write for one switch.
pub(crate) struct Entries {
    pub(crate) ports: Ordered<FlowMap<Settings>>,
    pub(crate) host_ports: Option<&'static str>,
    pub(crate) unused_ports: Option<&'static str>,
}

/// The switches' `ports` entries, in their order; the profiles they share are added to
/// `doc`, and with `alone` (they are the fabric's only switches) the `port_defaults` they
/// all share.
pub(crate) fn lay_out(
    doc: &mut Doc,
    mut switches: Vec<Ports>,
    os: &dyn SwitchOs,
    alone: bool,
    links: &Links,
) -> Vec<Entries> {
    for s in &mut switches {
        s.described.retain(|(port, _)| !links.linked(s.name, *port));
    }
    let apart = apart(switches.iter().flat_map(members));
    let described: Vec<Described> = switches
        .iter_mut()
        .map(|s| hosts(s, &apart, links))
        .collect();
    let defaults = shared(&switches).filter(|_| alone).unwrap_or_default();
    let unused: Vec<Option<&'static str>> = switches
        .iter_mut()
        .zip(&described)
        .map(|(s, (peers, _))| unused(s, peers, &defaults, links))
        .collect();
    let ranges: Vec<Vec<Run>> = switches.iter().map(|s| ranges(s, &defaults)).collect();
    let profile_of = make_profiles(ranges.iter().map(Vec::as_slice), &mut doc.profiles);
    if alone {
        doc.port_defaults = Defaults::new(settings(&defaults));
    }
    switches
        .iter()
        .zip(ranges)
        .zip(described)
        .zip(unused)
        .map(|(((s, runs), (peers, host_ports)), unused_ports)| Entries {
            ports: entries(s, runs, peers, &profile_of, os),
            host_ports,
            unused_ports,
        })
        .collect()
}

/// The switch's bundle members whose descriptions may read as their peer.
fn members<'a, 's>(s: &'s Ports<'a>) -> Vec<Member<'a, 's>> {
    s.described
        .iter()
        .filter_map(|(port, d)| {
            let bundle = s.attrs.get(port)?.iter().find_map(|x| match x {
                Attr::Bundle(mlag, id, _) => Some((*mlag, *id)),
                _ => None,
            })?;
            Some(Member {
                switch: s.name,
                group: if bundle.0 { &s.group } else { s.name },
                bundle,
                port: *port,
                description: d,
            })
        })
        .collect()
}

/// The ports the switch's descriptions give a peer, and its ports' attributes less the
/// spanning tree the host-port default gives back (and with `advertise: false` where the
/// switch does not advertise a routed host port's subnet).
fn hosts(s: &mut Ports, apart: &BTreeSet<(&str, Port)>, links: &Links) -> Described {
    let apart: BTreeSet<Port> = apart
        .iter()
        .filter(|(n, _)| *n == s.name)
        .map(|(_, port)| *port)
        .collect();
    let peers = peers(&s.described, &apart);
    unadvertised(s.attrs.values_mut(), s.name, s.advertised.as_ref(), links);
    let host = host_defaults(&mut s.attrs, &peers, &s.exempt);
    (peers, host)
}

/// The attributes every port has, on every switch (a peer link's own ports aside).
fn shared(switches: &[Ports]) -> Option<BTreeSet<Attr>> {
    let mut defaults: Option<BTreeSet<Attr>> = None;
    for s in switches {
        for (port, a) in &s.attrs {
            if s.peer_link.contains(port) {
                continue;
            }
            defaults = Some(match defaults {
                None => a.clone(),
                Some(d) => d.intersection(a).cloned().collect(),
            });
        }
    }
    defaults
}

/// `unused_ports` of the switch, its unused ports' `admin: down` left to the default: the
/// ports no link, peer or description names (nor its peer link) are the unused ones.
fn unused(
    s: &mut Ports,
    peers: &[(Port, Port, Settings)],
    defaults: &BTreeSet<Attr>,
    links: &Links,
) -> Option<&'static str> {
    let mut named = s.peer_link.clone();
    named.extend(s.attrs.keys().copied().filter(|p| links.linked(s.name, *p)));
    for (first, last, _) in peers {
        named.extend(span(*first, *last));
    }
    unused_defaults(&mut s.attrs, defaults, &named)
}

/// Consecutive ports with the same attributes beyond the defaults; a peer link's own port
/// takes the defaults' QoS.
fn ranges(s: &Ports, defaults: &BTreeSet<Attr>) -> Vec<Run> {
    let attrs = s.attrs.iter().map(|(port, a)| {
        let mut a = a.clone();
        if s.peer_link.contains(port) {
            a.extend(defaults.iter().filter(|d| is_qos(d)).cloned());
        }
        (*port, a)
    });
    runs(attrs, defaults)
}

/// The switch's `ports` entries in port order: its ranges (with their profile), its splits,
/// and its ports' peers and descriptions (on the range of the same ports, else their own).
fn entries(
    s: &Ports,
    runs: Vec<Run>,
    peers: Vec<(Port, Port, Settings)>,
    profile_of: &BTreeMap<Settings, String>,
    os: &dyn SwitchOs,
) -> Ordered<FlowMap<Settings>> {
    let mut entries: Vec<(Port, String, Settings)> = runs
        .into_iter()
        .map(|(first, last, a)| {
            let s = profiled(settings(&a), profile_of);
            (first, os.port_range(first, last), s)
        })
        .collect();
    for (first, last, ways) in crate::types::compress(s.splits.iter().map(|(p, w)| (*p, w))) {
        let split = Settings {
            split: Some(*ways),
            ..Settings::default()
        };
        entries.push((first, os.port_range(first, last), split));
    }
    for (first, last, s) in peers {
        let range = os.port_range(first, last);
        match entries
            .iter_mut()
            .find(|(f, r, _)| *f == first && *r == range)
        {
            Some((_, _, e)) => {
                e.description = s.description;
                e.peer = s.peer;
            }
            None => entries.push((first, range, s)),
        }
    }
    entries.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    Ordered(
        entries
            .into_iter()
            .map(|(_, r, s)| (r, FlowMap(s)))
            .collect(),
    )
}
