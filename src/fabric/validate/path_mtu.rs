//! Path MTU: a fabric is valid only if every frame a declared host sends at its MTU fits every
//! hop on its way to every host it can reach: the far host's switch port, the inter-switch
//! ports of its VLAN's L2 domain, the VLAN interfaces that route it, and the routed links of
//! every equal-cost path between them. NVIDIA's RoCE guides run hosts at 9000 and every hop
//! at 9216; an `interface vlan N` left at Onyx's default 1500 drops every routed RoCE frame
//! while the ports around it pass 9216 (`fabrics/ml-cluster.yaml` before VLAN MTUs).
//!
//! [`settle`] gives each VLAN interface without a written `mtu` the largest MTU of the ports
//! and bundles that carry its VLAN (what it serves); [`check`] follows the paths and reports
//! each line that sets a hop too small once (E136), with the hops it sets and the hosts whose
//! frames do not fit. A hop's MTU is read as the strictest reading of E132: the host's MTU plus
//! [`WIRE_OVERHEAD`] must fit, whichever bytes the OS counts.
//!
//! Input: the resolved switches (after [`super::network::resolve`]) and the declared hosts;
//! a fabric without `hosts:` has no host MTU to check, so only [`settle`] applies.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::{LinkPair, Pending, WIRE_OVERHEAD, ports::list_ports_on};
use crate::diag::{Diagnostic, Span};
use crate::fabric::{Host, Peer, PortSettings, Switch};
use crate::types::{Hostname, Port, SwitchportMode, Vlan};

/// The MTU of an interface that sets none, on its switch's OS: Onyx's 1500 (its VLAN
/// interfaces too: `MTU: 1500 bytes` in Ansible's `show interfaces vlan` fixture), OS10's
/// 1532 ([`crate::fabric::meaning::default_mtu`]).
fn default_mtu(sw: &Switch) -> u16 {
    crate::fabric::meaning::default_mtu(sw.os())
}

/// The L2 settings a port runs with: its bundle's when it joins one.
fn l2_of<'a>(sw: &'a Switch, s: &'a PortSettings) -> &'a PortSettings {
    s.bundle
        .and_then(|b| sw.bundles.get(&(b.mlag, b.id)))
        .unwrap_or(s)
}

/// The VLANs a port (or bundle) carries; none on a routed port.
fn carried(s: &PortSettings) -> BTreeSet<Vlan> {
    if s.address.is_some() {
        return BTreeSet::new();
    }
    let untagged = s.vlan.or_else(|| Vlan::new(1).ok());
    let mut out: BTreeSet<Vlan> = BTreeSet::new();
    match s.switchport {
        Some(SwitchportMode::Trunk) => {}
        _ => out.extend(untagged),
    }
    out.extend(s.trunk.iter().flatten().copied());
    out
}

/// Gives every VLAN interface whose MTU is not written the largest MTU of the switch's ports
/// and bundles that carry its VLAN, and notes the line that sets it (that port's `mtu`).
pub(crate) fn settle(pending: &mut BTreeMap<String, Pending>) {
    for p in pending.values_mut() {
        let sw = &p.switch;
        let mut best: BTreeMap<Vlan, (u16, Option<Span>)> = BTreeMap::new();
        for (port, s) in &sw.ports {
            let Some(mtu) = s.mtu else { continue };
            for v in carried(l2_of(sw, s)) {
                let e = best.entry(v).or_insert((0, None));
                if mtu > e.0 {
                    *e = (mtu, p.set_at.get(port).and_then(|a| a.mtu));
                }
            }
        }
        let sw = &mut p.switch;
        for (v, g) in sw.gateways.iter_mut() {
            if p.l3_mtu.contains_key(v) {
                continue;
            }
            if let Some((mtu, at)) = best.get(v) {
                g.mtu = Some(*mtu);
                if let Some(at) = at {
                    p.l3_mtu.insert(*v, *at);
                }
            }
        }
    }
}

/// Where frames are switched without routing: one VLAN across the switches its non-routed
/// cables join, named by the first of them; or one routed host port.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Segment {
    L2(Vlan, String),
    Routed(String, Port),
}

/// A place frames cross: a port, or a VLAN interface, with the MTU it runs and where that is
/// set (`at`), else where a line would set it (`place`).
#[derive(Clone, Debug)]
struct Hop {
    switch: String,
    port: Option<Port>,
    vlan: Option<Vlan>,
    mtu: u16,
    at: Option<Span>,
    place: Option<Span>,
}

/// The largest MTU of the hosts that send through a hop, and one such sender and receiver.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Need {
    mtu: u16,
    from: String,
    to: String,
}

impl Need {
    fn raise(&mut self, other: &Need) {
        if other.mtu > self.mtu {
            *self = other.clone();
        }
    }
}

/// The two largest host MTUs of a set, with their hosts, so a host's own MTU can be left out.
#[derive(Clone, Debug, Default)]
struct Top2 {
    first: Option<(u16, String)>,
    second: Option<(u16, String)>,
}

impl Top2 {
    fn add(&mut self, mtu: u16, host: &str) {
        if self.first.as_ref().is_some_and(|(_, h)| h == host)
            || self.second.as_ref().is_some_and(|(_, h)| h == host)
        {
            return;
        }
        let new = Some((mtu, host.to_string()));
        if self.first.as_ref().is_none_or(|(m, _)| mtu > *m) {
            self.second = std::mem::replace(&mut self.first, new);
        } else if self.second.as_ref().is_none_or(|(m, _)| mtu > *m) {
            self.second = new;
        }
    }

    /// The largest MTU among hosts other than `me`.
    fn other_than(&self, me: &str) -> Option<&(u16, String)> {
        match &self.first {
            Some((_, h)) if h == me => self.second.as_ref(),
            f => f.as_ref(),
        }
    }
}

/// A union-find over names.
#[derive(Default)]
struct Sets(BTreeMap<String, String>);

impl Sets {
    fn find(&mut self, x: &str) -> String {
        let mut root = x.to_string();
        while let Some(up) = self.0.get(&root).filter(|u| **u != root) {
            root = up.clone();
        }
        let mut at = x.to_string();
        while let Some(up) = self.0.insert(at.clone(), root.clone()) {
            if up == at || up == root {
                break;
            }
            at = up;
        }
        root
    }

    fn join(&mut self, a: &str, b: &str) {
        let (ra, rb) = (self.find(a), self.find(b));
        let (lo, hi) = if ra <= rb { (ra, rb) } else { (rb, ra) };
        self.0.insert(hi, lo);
    }
}

/// A switch port, by switch name.
type End = (String, Port);
/// A cable: its two ends.
type Cable = (End, End);

/// The fabric's network as the paths see it.
struct Net<'a> {
    pending: &'a BTreeMap<String, Pending>,
    /// Per VLAN, the switches its non-routed cables join.
    l2: BTreeMap<Vlan, Sets>,
    /// The switches routed cables join.
    l3: Sets,
    /// Routed cables: (switch, port) at both ends, by switch.
    routed: BTreeMap<String, Vec<Cable>>,
    /// Non-routed cables with the VLANs both ends carry.
    switched: Vec<(End, End, BTreeSet<Vlan>)>,
}

impl<'a> Net<'a> {
    fn new(pending: &'a BTreeMap<String, Pending>, links: &[LinkPair]) -> Net<'a> {
        let mut net = Net {
            pending,
            l2: BTreeMap::new(),
            l3: Sets::default(),
            routed: BTreeMap::new(),
            switched: Vec::new(),
        };
        for ((sa, pa), (sb, pb), ..) in links {
            let (Some(a), Some(b)) = (net.settings(sa, *pa), net.settings(sb, *pb)) else {
                continue;
            };
            let (ea, eb) = ((sa.clone(), *pa), (sb.clone(), *pb));
            if a.address.is_some() && b.address.is_some() {
                net.l3.join(sa, sb);
                net.routed
                    .entry(sa.clone())
                    .or_default()
                    .push((ea.clone(), eb.clone()));
                net.routed.entry(sb.clone()).or_default().push((eb, ea));
                continue;
            }
            let (la, lb) = (net.l2_settings(sa, *pa), net.l2_settings(sb, *pb));
            let both: BTreeSet<Vlan> = match (la, lb) {
                (Some(x), Some(y)) => carried(x).intersection(&carried(y)).copied().collect(),
                _ => BTreeSet::new(),
            };
            for v in &both {
                net.l2.entry(*v).or_default().join(sa, sb);
            }
            net.switched.push((ea, eb, both));
        }
        net
    }

    fn switch(&self, name: &str) -> Option<&'a Switch> {
        self.pending.get(name).map(|p| &p.switch)
    }

    fn settings(&self, sw: &str, port: Port) -> Option<&'a PortSettings> {
        self.switch(sw)?.ports.get(&port)
    }

    fn l2_settings(&self, sw: &str, port: Port) -> Option<&'a PortSettings> {
        let s = self.switch(sw)?;
        Some(l2_of(s, s.ports.get(&port)?))
    }

    fn segment(&mut self, sw: &str, v: Vlan) -> Segment {
        let root = match self.l2.get_mut(&v) {
            Some(sets) => sets.find(sw),
            None => sw.to_string(),
        };
        Segment::L2(v, root)
    }

    /// A port as a hop: its MTU, the line that sets it, and its peer's line to add one.
    fn port_hop(&self, sw: &str, port: Port) -> Option<Hop> {
        let p = self.pending.get(sw)?;
        let s = p.switch.ports.get(&port)?;
        Some(Hop {
            switch: sw.to_string(),
            port: Some(port),
            vlan: None,
            mtu: s.mtu.unwrap_or(default_mtu(&p.switch)),
            at: p.set_at.get(&port).and_then(|a| a.mtu),
            place: p.peers.get(&port).copied(),
        })
    }

    fn vlan_hop(&self, sw: &str, v: Vlan) -> Option<Hop> {
        let p = self.pending.get(sw)?;
        let g = p.switch.gateways.get(&v)?;
        Some(Hop {
            switch: sw.to_string(),
            port: None,
            vlan: Some(v),
            mtu: g.mtu.unwrap_or(default_mtu(&p.switch)),
            at: p.l3_mtu.get(&v).copied(),
            place: p.vlan_at.get(&v).copied(),
        })
    }
}

/// A declared host on a switch port, in the segments the port carries.
struct Attached {
    host: String,
    mtu: u16,
    switch: String,
    port: Port,
    segments: Vec<Segment>,
}

/// Checks the path MTU between every two declared hosts that reach each other; each line
/// that sets a hop too small is one E136.
pub(crate) fn check(
    cx: &mut super::Cx,
    pending: &BTreeMap<String, Pending>,
    links: &[LinkPair],
    hosts: &BTreeMap<Hostname, Host>,
    host_mtu_at: &BTreeMap<String, Span>,
) {
    if hosts.is_empty() {
        return;
    }
    let mut net = Net::new(pending, links);
    let attached = attach(&mut net, hosts);
    let mut members: BTreeMap<Segment, Top2> = BTreeMap::new();
    for a in &attached {
        for s in &a.segments {
            members.entry(s.clone()).or_default().add(a.mtu, &a.host);
        }
    }
    let gateways = gateways(&mut net, &members);
    let routed = routed_reach(&mut net, &members, &gateways);
    let mut needs: Vec<(Hop, Need)> = Vec::new();
    host_ports(&net, &attached, &members, &routed, &mut needs);
    switched(&mut net, &members, &routed, &mut needs);
    vlan_interfaces(&net, &members, &gateways, &routed, &mut needs);
    routed_links(&net, &members, &gateways, &mut needs);
    report(cx, pending, needs, host_mtu_at);
}

/// Every declared host's switch ports and the segments each carries.
fn attach(net: &mut Net, hosts: &BTreeMap<Hostname, Host>) -> Vec<Attached> {
    let mut out = Vec::new();
    for (name, p) in net.pending {
        for (port, s) in &p.switch.ports {
            let Some(Peer::Host { host, .. }) = &s.peer else {
                continue;
            };
            let Some(h) = hosts.get(host.as_str()) else {
                continue;
            };
            crate::steps::one();
            let segments = if s.address.is_some() {
                vec![Segment::Routed(name.clone(), *port)]
            } else {
                let vlans = carried(l2_of(&p.switch, s));
                vlans.into_iter().map(|v| net.segment(name, v)).collect()
            };
            out.push(Attached {
                host: host.clone(),
                mtu: h.mtu,
                switch: name.clone(),
                port: *port,
                segments,
            });
        }
    }
    out
}

/// The switches that route each segment with hosts: those with a VLAN interface for its VLAN
/// in its L2 domain, or the routed host port's switch.
fn gateways(
    net: &mut Net,
    members: &BTreeMap<Segment, Top2>,
) -> BTreeMap<Segment, BTreeSet<String>> {
    let mut out: BTreeMap<Segment, BTreeSet<String>> = BTreeMap::new();
    let pending = net.pending;
    for (name, p) in pending {
        for v in p.switch.gateways.keys() {
            let seg = net.segment(name, *v);
            if members.contains_key(&seg) {
                out.entry(seg).or_default().insert(name.clone());
            }
        }
    }
    for seg in members.keys() {
        if let Segment::Routed(sw, _) = seg {
            out.entry(seg.clone()).or_default().insert(sw.clone());
        }
    }
    out
}

/// For each routed segment, the largest MTU of the hosts of the other routed segments it
/// reaches (those whose gateways the routed cables join to its own): of the island's two
/// segments with the largest senders (the first in order on a tie), the other one. One pass
/// over the island's segments and one more to answer each: comparing every segment with every
/// other was quadratic in them, and with hosts on routed ports a segment is a host (32,000
/// took 12 s).
fn routed_reach(
    net: &mut Net,
    members: &BTreeMap<Segment, Top2>,
    gateways: &BTreeMap<Segment, BTreeSet<String>>,
) -> BTreeMap<Segment, Need> {
    let mut by_island: BTreeMap<String, Vec<&Segment>> = BTreeMap::new();
    for (seg, sws) in gateways {
        if let Some(first) = sws.iter().next() {
            by_island.entry(net.l3.find(first)).or_default().push(seg);
        }
    }
    let largest = |seg: &Segment| members.get(seg).and_then(|t| t.first.as_ref());
    let mut out = BTreeMap::new();
    for segs in by_island.values() {
        // (index in `segs`, its largest sender): the largest, and the largest of the others.
        let mut top: [Option<(usize, &(u16, String))>; 2] = [None, None];
        for (i, seg) in segs.iter().enumerate() {
            crate::steps::one();
            let Some(sender) = largest(seg) else { continue };
            if top[0].is_none_or(|(_, t)| sender.0 > t.0) {
                top = [Some((i, sender)), top[0]];
            } else if top[1].is_none_or(|(_, t)| sender.0 > t.0) {
                top[1] = Some((i, sender));
            }
        }
        for (i, me) in segs.iter().enumerate() {
            crate::steps::one();
            let other = if top[0].is_some_and(|(at, _)| at == i) {
                top[1]
            } else {
                top[0]
            };
            let Some((_, (mtu, from))) = other else {
                continue;
            };
            let to = largest(me).map_or_else(String::new, |x| x.1.clone());
            out.insert(
                (*me).clone(),
                Need {
                    mtu: *mtu,
                    from: from.clone(),
                    to,
                },
            );
        }
    }
    out
}

/// A host's switch port receives the frames of every other host of its segments and of the
/// routed segments they reach.
fn host_ports(
    net: &Net,
    attached: &[Attached],
    members: &BTreeMap<Segment, Top2>,
    routed: &BTreeMap<Segment, Need>,
    out: &mut Vec<(Hop, Need)>,
) {
    for a in attached {
        let Some(hop) = net.port_hop(&a.switch, a.port) else {
            continue;
        };
        let mut need = Need::default();
        for s in &a.segments {
            crate::steps::one();
            if let Some((mtu, from)) = members.get(s).and_then(|t| t.other_than(&a.host)) {
                need.raise(&Need {
                    mtu: *mtu,
                    from: from.clone(),
                    to: a.host.clone(),
                });
            }
            if let Some(r) = routed.get(s) {
                need.raise(&Need {
                    to: a.host.clone(),
                    ..r.clone()
                });
            }
        }
        out.push((hop, need));
    }
}

/// Both ends of a non-routed cable carry the frames of their shared VLANs' hosts, and the
/// routed frames of those VLANs.
fn switched(
    net: &mut Net,
    members: &BTreeMap<Segment, Top2>,
    routed: &BTreeMap<Segment, Need>,
    out: &mut Vec<(Hop, Need)>,
) {
    let cables = std::mem::take(&mut net.switched);
    for ((sa, pa), (sb, pb), vlans) in &cables {
        let mut need = Need::default();
        for v in vlans {
            let seg = net.segment(sa, *v);
            if let Some((mtu, from)) = members.get(&seg).and_then(|t| t.first.clone()) {
                need.raise(&Need {
                    mtu,
                    from,
                    to: String::new(),
                });
            }
            if let Some(r) = routed.get(&seg) {
                need.raise(r);
            }
        }
        for (sw, port) in [(sa, *pa), (sb, *pb)] {
            if let Some(hop) = net.port_hop(sw, port) {
                out.push((hop, need.clone()));
            }
        }
    }
    net.switched = cables;
}

/// A VLAN interface routes its segment's frames out and the reached segments' frames in.
fn vlan_interfaces(
    net: &Net,
    members: &BTreeMap<Segment, Top2>,
    gateways: &BTreeMap<Segment, BTreeSet<String>>,
    routed: &BTreeMap<Segment, Need>,
    out: &mut Vec<(Hop, Need)>,
) {
    for (seg, sws) in gateways {
        let (Segment::L2(v, _), Some(r)) = (seg, routed.get(seg)) else {
            continue;
        };
        let mut need = r.clone();
        if let Some((mtu, from)) = members.get(seg).and_then(|t| t.first.clone()) {
            need.raise(&Need {
                mtu,
                from,
                to: r.from.clone(),
            });
        }
        for sw in sws {
            if let Some(hop) = net.vlan_hop(sw, *v) {
                out.push((hop, need.clone()));
            }
        }
    }
}

/// Every routed cable on a shortest path (BGP's equal-cost paths, one hop per cable) from a
/// switch that routes hosts to another: both its ends carry the larger sender's frames.
fn routed_links(
    net: &Net,
    members: &BTreeMap<Segment, Top2>,
    gateways: &BTreeMap<Segment, BTreeSet<String>>,
    out: &mut Vec<(Hop, Need)>,
) {
    // The hosts behind each routing switch, the largest sender first.
    let mut senders: BTreeMap<&str, Top2> = BTreeMap::new();
    for (seg, sws) in gateways {
        let Some(t) = members.get(seg) else { continue };
        for (mtu, host) in t.first.iter().chain(&t.second) {
            for sw in sws {
                senders.entry(sw).or_default().add(*mtu, host);
            }
        }
    }
    let mut cable_need: BTreeMap<Cable, Need> = BTreeMap::new();
    for (src, hosts) in &senders {
        let Some((mtu, from)) = hosts.first.clone() else {
            continue;
        };
        for (cable, target) in shortest_cables(net, src, &senders) {
            // A host behind the far switch other than the sender (a server's other rail).
            let to = senders
                .get(target.as_str())
                .and_then(|t| t.other_than(&from))
                .map_or_else(String::new, |x| x.1.clone());
            cable_need.entry(cable).or_default().raise(&Need {
                mtu,
                from: from.clone(),
                to,
            });
        }
    }
    for (((sa, pa), (sb, pb)), need) in cable_need {
        for (sw, port) in [(&sa, pa), (&sb, pb)] {
            if let Some(hop) = net.port_hop(sw, port) {
                out.push((hop, need.clone()));
            }
        }
    }
}

/// The routed cables on some shortest path from `src` to another routing switch, each with
/// a routing switch it leads to, in one direction per cable.
fn shortest_cables(net: &Net, src: &str, targets: &BTreeMap<&str, Top2>) -> Vec<(Cable, String)> {
    let mut dist: BTreeMap<&str, usize> = BTreeMap::from([(src, 0)]);
    let mut order: Vec<&str> = vec![src];
    let mut queue: VecDeque<&str> = VecDeque::from([src]);
    while let Some(u) = queue.pop_front() {
        for ((_, _), (v, _)) in net.routed.get(u).into_iter().flatten() {
            if !dist.contains_key(v.as_str()) {
                dist.insert(v, dist[u] + 1);
                order.push(v);
                queue.push_back(v);
            }
        }
    }
    // Walking back from the farthest: a switch is useful when it is a target or leads to one
    // on a shortest path; a cable u → v is on one when v is one hop farther and useful.
    let mut useful: BTreeMap<&str, String> = BTreeMap::new();
    let mut out = Vec::new();
    for u in order.iter().rev() {
        if *u != src && targets.contains_key(u) {
            useful.entry(u).or_insert_with(|| u.to_string());
        }
        for (a, b) in net.routed.get(*u).into_iter().flatten() {
            if dist.get(b.0.as_str()) == Some(&(dist[u] + 1))
                && let Some(to) = useful.get(b.0.as_str()).cloned()
            {
                useful.entry(u).or_insert_with(|| to.clone());
                let cable = if a <= b {
                    (a.clone(), b.clone())
                } else {
                    (b.clone(), a.clone())
                };
                out.push((cable, to));
            }
        }
    }
    out
}

/// One E136 per line that sets a hop too small: the hops it sets, the largest frame that
/// crosses them and who sends it.
fn report(
    cx: &mut super::Cx,
    pending: &BTreeMap<String, Pending>,
    needs: Vec<(Hop, Need)>,
    host_mtu_at: &BTreeMap<String, Span>,
) {
    // By the line to change: (span, written?) → the hops, the need.
    let mut by_line: BTreeMap<(Span, bool), (Vec<Hop>, Need)> = BTreeMap::new();
    for (hop, need) in needs {
        if need.mtu == 0 || need.mtu + WIRE_OVERHEAD <= hop.mtu {
            continue;
        }
        // A hop no line sets is reported at the sender's MTU line, with every other such
        // hop: the one fix is an MTU on the ports (or the hosts'), not a line per hop.
        let unset = host_mtu_at.get(&need.from).copied().or(hop.place);
        let Some(key) = hop.at.map(|a| (a, true)).or(unset.map(|p| (p, false))) else {
            continue;
        };
        let e = by_line.entry(key).or_default();
        e.1.raise(&need);
        e.0.push(hop);
    }
    // A line E132 already reports (a host's own port) is one mistake: one error.
    let reported: BTreeSet<Span> = cx
        .diags
        .iter()
        .filter(|d| d.code == "E132")
        .filter_map(|d| d.primary.as_ref().map(|l| l.span))
        .collect();
    for ((at, written), (mut hops, need)) in by_line {
        if reported.contains(&at) {
            continue;
        }
        hops.sort_by(|a, b| (&a.switch, a.vlan, a.port).cmp(&(&b.switch, b.vlan, b.port)));
        let smallest = hops.iter().map(|h| h.mtu).min().unwrap_or_default();
        let frame = need.mtu + WIRE_OVERHEAD;
        let mut d = Diagnostic::error(
            "E136",
            format!(
                "{} {} MTU {smallest}, but `{}` (MTU {}) sends {frame}-byte frames through {} to `{}`",
                describe(pending, &hops),
                if hops.len() == 1 { "has" } else { "have" },
                need.from,
                need.mtu,
                if hops.len() == 1 { "it" } else { "them" },
                need.to,
            ),
        )
        .at(
            at,
            if written {
                format!("MTU {smallest} set here")
            } else {
                format!("`{}` MTU {}; no line sets the hops' MTU", need.from, need.mtu)
            },
        );
        if let Some(h) = host_mtu_at.get(&need.from).filter(|_| written) {
            d = d.also(*h, format!("`{}` MTU {}", need.from, need.mtu));
        }
        let help = if written {
            format!(
                "raise it to {frame} or more (9216, as the hosts' ports), or lower the hosts' MTU"
            )
        } else {
            format!(
                "give them an MTU of {frame} or more (9216: `port_defaults: {{ mtu: 9216 }}`, a VLAN's `mtu`), or lower the hosts' MTU"
            )
        };
        cx.push(d.help(help));
    }
}

/// The hops of one line: `leaf01 VLAN 10's interface`, `spine01 ports 1/1-1/4`, grouped by
/// switch in the switch's own port names.
fn describe(pending: &BTreeMap<String, Pending>, hops: &[Hop]) -> String {
    let mut by_switch: BTreeMap<&str, (Vec<Vlan>, Vec<Port>)> = BTreeMap::new();
    for h in hops {
        let e = by_switch.entry(&h.switch).or_default();
        if let Some(v) = h.vlan {
            e.0.push(v);
        }
        if let Some(p) = h.port {
            e.1.push(p);
        }
    }
    let mut parts: Vec<String> = Vec::new();
    for (sw, (vlans, mut ports)) in by_switch {
        ports.sort();
        ports.dedup();
        for v in vlans {
            parts.push(format!("`{sw}` VLAN {v}'s interface"));
        }
        if let Some(p) = pending.get(sw).filter(|_| !ports.is_empty()) {
            let noun = if ports.len() == 1 { "port" } else { "ports" };
            parts.push(format!(
                "`{sw}` {noun} {}",
                list_ports_on(&p.switch, &ports)
            ));
        }
    }
    if parts.len() > 3 {
        let n = parts.len() - 2;
        parts.truncate(2);
        return format!("{} and hops on {n} more switches", parts.join(", "));
    }
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.join(""),
    }
}
