//! The routing, LAG and MLAG checks (R037-R048; their docs are in `rules`): BGP sessions
//! between audited switches, the addresses they own, ECMP, routed cables, and MLAG pairs.
//! Input: one switch's [`Facts`], or the [`Fleet`] with its [`Index`] of who owns which
//! address and which switches pair; output: hits, by switch for the fleet. A session, a
//! pair or a cable is judged from both ends, and each end that is wrong gets its own hit, at
//! its own line (or the line it lacks). RoCE settings are read only where a pair must agree
//! on them (its MLAG port-channels) and for PFC on the IPL. They read a switch in the Onyx
//! model, which the OSes with the routing part ([`super::Part::Routing`]) hand over
//! ([`crate::targets::Audited::onyx_model`]).

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use super::{Facts, Fleet, Hit, Link, Part, hit, port_hit, port_note};
use crate::onyx::{Allowed, BgpCmd, Command, Config, IfaceCmd, Interface, Protocol};
use crate::types::Iface;
use crate::types::{Ipv4Net, Mac, Port, SwitchportMode, Trust, Vlan, format_vlan_run, vlan_runs};

/// Who owns which interface address among the audited switches, and the MLAG pairs they
/// form; built once per audit.
pub(super) struct Index<'a> {
    /// Each address, with every switch interface that has it.
    owners: BTreeMap<Ipv4Addr, Vec<Owner<'a>>>,
    /// MLAG pairs: the IPL VLAN and the two switches, in name order.
    pairs: BTreeSet<(Vlan, &'a str, &'a str)>,
    /// The same pairs without their VLAN, to look one up.
    peers: BTreeSet<(&'a str, &'a str)>,
}

/// A switch interface with an address: the switch, the interface, the address and its
/// subnet, and whether it is an IPL VLAN interface (one with `ipl N peer-address`).
#[derive(Clone, Copy)]
struct Owner<'a> {
    switch: &'a str,
    iface: Iface,
    net: Ipv4Net,
    ipl: bool,
}

impl<'a> Index<'a> {
    pub(super) fn new(facts: &BTreeMap<&'a str, Facts<'a>>, links: &[Link]) -> Index<'a> {
        let mut owners: BTreeMap<Ipv4Addr, Vec<Owner<'a>>> = BTreeMap::new();
        for (name, x) in facts {
            for (iface, i) in &x.config.interfaces {
                if let Some(net) = i.address {
                    owners.entry(net.addr).or_default().push(Owner {
                        switch: name,
                        iface: *iface,
                        net,
                        ipl: i.ipl_peer.is_some(),
                    });
                }
            }
        }
        // A pair: one switch's IPL VLAN interface names the other's address on the same VLAN
        // as its `ipl N peer-address` (Onyx User Manual, MLAG). Pairs often reuse one IPL
        // subnet (NVIDIA's examples all use the same addresses): among several switches with
        // the peer-address, the one cabled to this switch is its peer.
        let cabled: BTreeSet<(&str, &str)> = links
            .iter()
            .flat_map(|l| {
                [
                    (l.a.0.as_str(), l.b.0.as_str()),
                    (l.b.0.as_str(), l.a.0.as_str()),
                ]
            })
            .collect();
        let mut pairs = BTreeSet::new();
        for (name, x) in facts {
            for (iface, i) in &x.config.interfaces {
                let (Iface::Vlan(vlan), Some((_, peer))) = (iface, i.ipl_peer) else {
                    continue;
                };
                let candidates: Vec<&Owner> = owners
                    .get(&peer)
                    .into_iter()
                    .flatten()
                    .filter(|o| o.switch != *name && o.iface == *iface)
                    .collect();
                let other = match candidates.as_slice() {
                    [one] => Some(one.switch),
                    several => match several
                        .iter()
                        .filter(|o| cabled.contains(&(*name, o.switch)))
                        .collect::<Vec<_>>()
                        .as_slice()
                    {
                        [one] => Some(one.switch),
                        _ => None,
                    },
                };
                if let Some(other) = other {
                    let (a, b) = if *name < other {
                        (*name, other)
                    } else {
                        (other, *name)
                    };
                    pairs.insert((*vlan, a, b));
                }
            }
        }
        let peers = pairs.iter().map(|(_, a, b)| (*a, *b)).collect();
        Index {
            owners,
            pairs,
            peers,
        }
    }

    /// Whether two switches form an MLAG pair.
    fn paired(&self, a: &str, b: &str) -> bool {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        self.peers.contains(&(a, b))
    }

    /// The switch interface with this address, as `from` sees it: the only one, else (an IPL
    /// subnet reused by several pairs) the one on `from`'s MLAG peer; none when ambiguous.
    fn owner(&self, addr: Ipv4Addr, from: &str) -> Option<(&'a str, Iface, Ipv4Net)> {
        let all = self.owners.get(&addr)?;
        let one = match all.as_slice() {
            [one] => one,
            several => match several
                .iter()
                .filter(|o| self.paired(from, o.switch))
                .collect::<Vec<_>>()
                .as_slice()
            {
                [one] => *one,
                _ => return None,
            },
        };
        Some((one.switch, one.iface, one.net))
    }
}

/// A switch's interface addresses, in interface order.
fn addresses(config: &Config) -> impl Iterator<Item = (Iface, Ipv4Net)> + '_ {
    config
        .interfaces
        .iter()
        .filter_map(|(k, i)| i.address.map(|a| (*k, a)))
}

/// `router bgp ASN vrf default neighbor A remote-as R`, as the switch prints it.
fn neighbor_line(asn: u32, addr: Ipv4Addr, remote: u32) -> String {
    Command::Bgp(asn, BgpCmd::Neighbor(addr, remote)).to_string()
}

/// An interface command as it follows `interface <iface>` (for a per-port hit's line).
fn rest(c: IfaceCmd) -> String {
    c.to_string().trim_start().to_string()
}

/// R037: a neighbor that is another audited switch's address, with a remote-as other than
/// that switch's AS (RFC 4271 §6.2: the far end's OPEN carries its AS, and a mismatch is a
/// "Bad Peer AS" notification: the session never comes up).
pub(super) fn remote_as(f: &Fleet) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    for (name, x) in &f.facts {
        let Some(bgp) = &x.config.bgp else {
            continue;
        };
        for (addr, remote) in &bgp.neighbors {
            let Some((peer, iface, _)) = f.routing.owner(*addr, name) else {
                continue;
            };
            let Some(theirs) = f.facts.get(peer).and_then(|p| p.config.bgp.as_ref()) else {
                continue;
            };
            if peer != *name && theirs.asn != *remote {
                out.push((
                    name.to_string(),
                    hit(
                        format!(
                            "neighbor {addr} is {peer}'s {iface}, in AS {}, but its remote-as is {remote}",
                            theirs.asn
                        ),
                        Some(neighbor_line(bgp.asn, *addr, *remote)),
                    ),
                ));
            }
        }
    }
    out
}

/// R038: a neighbor that is another audited switch's address, where that switch has no
/// neighbor back: it should name this switch's address on the subnet they share (or, for a
/// session between addresses on no shared subnet, one of this switch's addresses). The hit
/// is on the far switch, at its neighbor on the shared subnet that names no switch (a wrong
/// address), else at the line it lacks. A reciprocal neighbor with the wrong AS is R037's.
pub(super) fn reciprocal(f: &Fleet) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    for (name, x) in &f.facts {
        let Some(bgp) = &x.config.bgp else {
            continue;
        };
        let all: Vec<(Iface, Ipv4Net)> = addresses(x.config).collect();
        for (addr, remote) in &bgp.neighbors {
            let Some((peer, peer_iface, subnet)) = f.routing.owner(*addr, name) else {
                continue;
            };
            let Some(far) = f.facts.get(peer).filter(|_| peer != *name) else {
                continue;
            };
            let shared: Vec<(Iface, Ipv4Net)> = all
                .iter()
                .filter(|(_, n)| subnet.contains(n.addr))
                .copied()
                .collect();
            let mine = if shared.is_empty() { &all } else { &shared };
            let Some(&(my_iface, my_net)) = mine.first() else {
                continue;
            };
            let session = format!(
                "{name} (AS {}) peers with this switch's {peer_iface} address {addr} from {} ({name} {my_iface})",
                bgp.asn, my_net.addr
            );
            let Some(theirs) = &far.config.bgp else {
                out.push((
                    peer.to_string(),
                    hit(
                        format!("{session}, but this switch runs no BGP"),
                        Some(neighbor_line(*remote, my_net.addr, bgp.asn)),
                    ),
                ));
                continue;
            };
            if mine
                .iter()
                .any(|(_, m)| theirs.neighbors.contains_key(&m.addr))
            {
                continue;
            }
            // A neighbor on the shared subnet that is no audited switch's address: most
            // likely the other switch's address, mistyped.
            let wrong = theirs.neighbors.iter().find(|(n, _)| {
                !shared.is_empty()
                    && subnet.contains(**n)
                    && **n != *addr
                    && !f.routing.owners.contains_key(*n)
            });
            let h = match wrong {
                Some((n, r)) => hit(
                    format!(
                        "{session}, but neighbor {n}, on the subnet they share, is not {name}'s address"
                    ),
                    Some(neighbor_line(theirs.asn, *n, *r)),
                ),
                None => hit(
                    format!("{session}, but this switch has no neighbor {}", my_net.addr),
                    Some(neighbor_line(theirs.asn, my_net.addr, bgp.asn)),
                ),
            };
            out.push((peer.to_string(), h));
        }
    }
    out
}

/// R039: `router bgp` on a switch without `protocol bgp` or without IP routing.
pub(super) fn bgp_prerequisites(f: &Facts) -> Vec<Hit> {
    let Some(bgp) = &f.config.bgp else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if !f.config.protocols.contains(&Protocol::Bgp) {
        out.push(hit(
            format!(
                "`router bgp {}` is configured but `protocol bgp` is not",
                bgp.asn
            ),
            Some(Command::Protocol(Protocol::Bgp, true).to_string()),
        ));
    }
    if !f.config.ip_routing {
        out.push(hit(
            format!(
                "`router bgp {}` is configured but IP routing is off",
                bgp.asn
            ),
            Some(Command::IpRouting(true).to_string()),
        ));
    }
    out
}

/// R040: the same BGP router-id on several audited switches.
pub(super) fn duplicate_router_id(f: &Fleet) -> Vec<(String, Hit)> {
    let mut ids: BTreeMap<Ipv4Addr, Vec<(&str, u32)>> = BTreeMap::new();
    for (name, x) in &f.facts {
        if let Some(b) = &x.config.bgp
            && let Some(id) = b.router_id
        {
            ids.entry(id).or_default().push((name, b.asn));
        }
    }
    let mut out = Vec::new();
    for (id, users) in ids.into_iter().filter(|(_, u)| u.len() > 1) {
        for (name, asn) in &users {
            let others: Vec<&str> = users
                .iter()
                .map(|(n, _)| *n)
                .filter(|n| n != name)
                .collect();
            out.push((
                name.to_string(),
                hit(
                    format!("router-id {id} is also {}'s", others.join(", ")),
                    Some(Command::Bgp(*asn, BgpCmd::RouterId(id)).to_string()),
                ),
            ));
        }
    }
    out
}

/// R041: one interface address on several audited switches. IPL VLAN addresses are compared
/// within their pair only: pairs commonly reuse one IPL subnet, which stays between the two.
pub(super) fn duplicate_address(f: &Fleet) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    for (addr, owners) in &f.routing.owners {
        if owners.len() < 2 {
            continue;
        }
        for o in owners {
            let others: Vec<String> = owners
                .iter()
                .filter(|x| {
                    x.switch != o.switch
                        && !(o.ipl && x.ipl && !f.routing.paired(o.switch, x.switch))
                })
                .map(|x| format!("{}'s {}", x.switch, x.iface))
                .collect();
            if others.is_empty() {
                continue;
            }
            out.push((
                o.switch.to_string(),
                port_hit(
                    o.iface,
                    format!("address {addr} is also {}", others.join(", ")),
                    rest(IfaceCmd::Address(o.net)),
                ),
            ));
        }
    }
    out
}

/// R042: fewer BGP multipaths (`maximum-paths`, 1 when absent) than the sessions to one
/// neighbouring AS over routed ports.
pub(super) fn ecmp(f: &Facts) -> Vec<Hit> {
    let Some(bgp) = &f.config.bgp else {
        return Vec::new();
    };
    let routed: Vec<Ipv4Net> = f
        .config
        .interfaces
        .iter()
        .filter(|(k, i)| matches!(k, Iface::Ethernet(_) | Iface::PortChannel(_)) && i.routed)
        .filter_map(|(_, i)| i.address)
        .collect();
    let mut per_as: BTreeMap<u32, usize> = BTreeMap::new();
    for (addr, remote) in &bgp.neighbors {
        if routed.iter().any(|n| n.contains(*addr) && n.addr != *addr) {
            *per_as.entry(*remote).or_default() += 1;
        }
    }
    // The AS with the most sessions (the lowest AS among equals).
    let Some((asn, sessions)) = per_as
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
    else {
        return Vec::new();
    };
    let paths = bgp.maximum_paths.map_or(1, usize::from);
    if paths >= sessions {
        return Vec::new();
    }
    let (what, line) = match bgp.maximum_paths {
        Some(m) => (format!("maximum-paths is {m}"), m),
        None => (
            "maximum-paths is not set (1 path)".to_string(),
            u16::try_from(sessions).unwrap_or(u16::MAX),
        ),
    };
    vec![hit(
        format!(
            "{what}, but {sessions} BGP sessions over routed ports go to AS {asn}: routes through that AS use {paths} of those links and leave {} idle",
            sessions - paths
        ),
        Some(Command::Bgp(bgp.asn, BgpCmd::MaximumPaths(line)).to_string()),
    )]
}

/// The interface that holds a port's L3 settings (routed, address): its port-channel (or
/// MLAG port-channel) when it is a member, else the port; with its settings when it has any.
fn l3_iface<'a>(x: &'a Facts, port: Port) -> (Iface, Option<&'a Interface>) {
    let own = x.config.interfaces.get(&Iface::Ethernet(port));
    match own.and_then(|i| i.channel_group) {
        Some(g) => {
            let bundle = if g.mlag {
                Iface::MlagPortChannel(g.id)
            } else {
                Iface::PortChannel(g.id)
            };
            (bundle, x.config.interfaces.get(&bundle))
        }
        None => (Iface::Ethernet(port), own),
    }
}

/// The far end of a cable as a message names it: `leaf-2 ethernet 1/31`, with its bundle.
fn far_end(name: &str, port: Port, l3: Iface) -> String {
    match l3 {
        Iface::Ethernet(_) => format!("{name} ethernet {port}"),
        bundle => format!("{name} ethernet {port}, in {bundle}"),
    }
}

/// R043: a cable between audited switches routed at one end and a switchport at the other.
pub(super) fn routed_switchport(f: &Fleet) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    for [a, b] in f.cables_with(Part::Routing) {
        let ends = [(a, l3_iface(a.2, a.1)), (b, l3_iface(b.2, b.1))];
        let routed = |e: &(Iface, Option<&Interface>)| e.1.is_some_and(|i| i.routed);
        if routed(&ends[0].1) == routed(&ends[1].1) {
            continue;
        }
        for (me, far) in [(&ends[0], &ends[1]), (&ends[1], &ends[0])] {
            let ((name, port, _), (iface, _)) = *me;
            let ((peer, peer_port, _), (peer_iface, _)) = *far;
            let other = far_end(peer, peer_port, peer_iface);
            let via = match iface {
                Iface::Ethernet(_) => String::new(),
                _ => format!(" (member ethernet {port})"),
            };
            let h = if routed(&me.1) {
                port_hit(
                    iface,
                    format!("is routed, but the other end{via} ({other}) is a switchport"),
                    rest(IfaceCmd::Routed(true)),
                )
            } else {
                port_note(
                    iface,
                    format!("is a switchport, but the other end{via} ({other}) is routed"),
                )
            };
            out.push((name.to_string(), h));
        }
    }
    out
}

/// R044: a cable between audited switches routed at both ends whose addresses are not on one
/// subnet (different networks or prefix lengths), or that has no address at one end.
pub(super) fn link_subnet(f: &Fleet) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    for [a, b] in f.cables_with(Part::Routing) {
        let ends = [(a, l3_iface(a.2, a.1)), (b, l3_iface(b.2, b.1))];
        let [Some(ia), Some(ib)] = [ends[0].1.1, ends[1].1.1] else {
            continue;
        };
        if !(ia.routed && ib.routed) {
            continue;
        }
        for (me, far, mine, theirs) in [
            (&ends[0], &ends[1], ia.address, ib.address),
            (&ends[1], &ends[0], ib.address, ia.address),
        ] {
            let ((name, _, _), (iface, _)) = *me;
            let ((peer, peer_port, _), (peer_iface, _)) = *far;
            let other = far_end(peer, peer_port, peer_iface);
            let theirs_text = theirs.map_or("none".to_string(), |t| t.to_string());
            let h = match (mine, theirs) {
                (None, _) => port_note(
                    iface,
                    format!(
                        "is routed without an address; the other end ({other}) has {theirs_text}"
                    ),
                ),
                (Some(m), Some(t)) if m.network() != t.network() => port_hit(
                    iface,
                    format!("address {m} is not on the subnet of the other end's ({other}) {t}"),
                    rest(IfaceCmd::Address(m)),
                ),
                _ => continue,
            };
            out.push((name.to_string(), h));
        }
    }
    out
}

/// One switch of an MLAG pair as the pair rules read it: the switch, its config, its peer and
/// the peer's config.
type PairEnd<'f> = (&'f str, &'f Config, &'f str, &'f Config);

/// Each MLAG pair's IPL VLAN and its two ends, each seen from itself.
fn pair_ends<'f>(f: &'f Fleet) -> Vec<(Vlan, [PairEnd<'f>; 2])> {
    f.routing
        .pairs
        .iter()
        .filter_map(|(vlan, a, b)| {
            let ca = f.facts.get(a)?.config;
            let cb = f.facts.get(b)?.config;
            Some((*vlan, [(*a, ca, *b, cb), (*b, cb, *a, ca)]))
        })
        .collect()
}

/// R045: the two switches of an MLAG pair that disagree on what makes them a pair: IPL
/// addresses (each the other's peer-address, on one subnet), system MAC, MLAG VIP (domain
/// and address), `protocol mlag` and `no mlag shutdown` on both.
pub(super) fn mlag_pair(f: &Fleet) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    for (vlan, ends) in pair_ends(f) {
        let ipl_vlan = Iface::Vlan(vlan);
        for (me, mine, peer, theirs) in ends {
            let my = mine.interfaces.get(&ipl_vlan);
            let their = theirs.interfaces.get(&ipl_vlan);
            let (my_addr, their_addr) = (my.and_then(|i| i.address), their.and_then(|i| i.address));
            let mut push = |h: Hit| out.push((me.to_string(), h));
            match (my.and_then(|i| i.ipl_peer), their_addr) {
                (Some((n, p)), Some(t)) if p != t.addr => push(port_hit(
                    ipl_vlan,
                    format!(
                        "IPL peer-address {p} is not its MLAG peer {peer}'s address {} on this VLAN",
                        t.addr
                    ),
                    rest(IfaceCmd::IplPeer(n, p)),
                )),
                (None, Some(t)) => {
                    let n = their.and_then(|i| i.ipl_peer).map_or(1, |(n, _)| n);
                    push(port_hit(
                        ipl_vlan,
                        format!(
                            "has no IPL peer-address, but {peer} names this switch its MLAG peer"
                        ),
                        rest(IfaceCmd::IplPeer(n, t.addr)),
                    ));
                }
                _ => {}
            }
            match (my_addr, their_addr) {
                (None, _) => push(port_note(
                    ipl_vlan,
                    format!(
                        "is the IPL VLAN interface of the MLAG pair with {peer} but has no address"
                    ),
                )),
                (Some(m), Some(t)) if m.network() != t.network() => push(port_hit(
                    ipl_vlan,
                    format!("IPL address {m} is not on the subnet of its MLAG peer {peer}'s {t}"),
                    rest(IfaceCmd::Address(m)),
                )),
                _ => {}
            }
            if mine.mlag.system_mac != theirs.mlag.system_mac {
                let show = |m: Option<Mac>| m.map_or("not set".into(), |m| m.to_string());
                push(hit(
                    format!(
                        "MLAG system MAC is {}, but its MLAG peer {peer}'s is {}",
                        show(mine.mlag.system_mac),
                        show(theirs.mlag.system_mac)
                    ),
                    mine.mlag
                        .system_mac
                        .or(theirs.mlag.system_mac)
                        .map(|m| Command::MlagSystemMac(Some(m)).to_string()),
                ));
            }
            if mine.mlag.vip != theirs.mlag.vip {
                let show = |v: &Option<(String, Ipv4Net)>| {
                    v.as_ref()
                        .map_or("not set".into(), |(d, a)| format!("domain {d}, {a}"))
                };
                push(hit(
                    format!(
                        "MLAG VIP is {}, but its MLAG peer {peer}'s is {}",
                        show(&mine.mlag.vip),
                        show(&theirs.mlag.vip)
                    ),
                    mine.mlag
                        .vip
                        .clone()
                        .or(theirs.mlag.vip.clone())
                        .map(|v| Command::MlagVip(Some(v)).to_string()),
                ));
            }
            if !mine.protocols.contains(&Protocol::Mlag) {
                push(hit(
                    format!(
                        "MLAG is not enabled (`protocol mlag`), but {peer} names this switch its MLAG peer"
                    ),
                    Some(Command::Protocol(Protocol::Mlag, true).to_string()),
                ));
            }
            if !mine.mlag.enabled {
                let peer_state = if theirs.mlag.enabled {
                    "while"
                } else {
                    "as on"
                };
                push(hit(
                    format!(
                        "MLAG is shut down (Onyx's default), {peer_state} its MLAG peer {peer}"
                    ),
                    Some(Command::MlagShutdown(false).to_string()),
                ));
            }
        }
    }
    out
}

/// An MLAG port-channel's settings that must be equal on both switches of the pair: by name,
/// the value as a message shows it, and the line that sets it when it is one line.
fn mlag_settings(i: &Interface) -> [(&'static str, String, Option<String>); 8] {
    let mode = i.switchport_mode.unwrap_or(SwitchportMode::Access);
    let allowed = match &i.allowed {
        Some(a) => allowed_text(a),
        None if mode == SwitchportMode::Access => "-".into(),
        None => allowed_text(&Allowed::default_for(mode)),
    };
    let per_class = |v: Vec<String>| {
        if v.is_empty() {
            "none".into()
        } else {
            v.join("; ")
        }
    };
    [
        (
            "switchport mode",
            mode.to_string(),
            i.switchport_mode.map(|m| rest(IfaceCmd::SwitchportMode(m))),
        ),
        (
            "access VLAN",
            i.access_vlan.map_or("1".into(), |v| v.to_string()),
            i.access_vlan.map(|v| rest(IfaceCmd::AccessVlan(v))),
        ),
        ("allowed VLANs", allowed, None),
        (
            "MTU",
            i.mtu.unwrap_or(1500).to_string(),
            i.mtu.map(|m| rest(IfaceCmd::Mtu(m))),
        ),
        (
            "trust",
            i.trust.unwrap_or(Trust::L2).to_string(),
            i.trust.map(|t| rest(IfaceCmd::Trust(t))),
        ),
        (
            "PFC mode",
            if i.pfc { "on" } else { "off" }.to_string(),
            i.pfc.then(|| rest(IfaceCmd::PfcMode(true))),
        ),
        (
            "ECN",
            per_class(i.ecn.iter().map(|(tc, e)| format!("tc {tc} {e}")).collect()),
            None,
        ),
        (
            "ETS",
            per_class(i.ets.iter().map(|(tc, e)| format!("tc {tc} {e}")).collect()),
            None,
        ),
    ]
}

fn allowed_text(a: &Allowed) -> String {
    if a.all {
        return "all".into();
    }
    if a.vlans.is_empty() {
        return "none".into();
    }
    vlan_runs(a.vlans.iter())
        .into_iter()
        .map(format_vlan_run)
        .collect::<Vec<_>>()
        .join(",")
}

/// R046: MLAG port-channels of one number that differ between the two switches of a pair,
/// or that exist on one only.
pub(super) fn mlag_port_channels(f: &Fleet) -> Vec<(String, Hit)> {
    fn bundles(c: &Config) -> BTreeMap<Iface, &Interface> {
        c.interfaces
            .iter()
            .filter(|(k, _)| matches!(k, Iface::MlagPortChannel(_)))
            .map(|(k, i)| (*k, i))
            .collect()
    }
    let mut out = Vec::new();
    for (_, ends) in pair_ends(f) {
        for (me, mine, peer, theirs) in ends {
            let (mine, theirs) = (bundles(mine), bundles(theirs));
            for (iface, i) in &mine {
                let Some(j) = theirs.get(iface) else {
                    continue;
                };
                for ((what, a, line), (_, b, _)) in
                    mlag_settings(i).into_iter().zip(mlag_settings(j))
                {
                    if a == b {
                        continue;
                    }
                    let message = format!("{what} {a}, but {b} on its MLAG peer {peer}");
                    let h = match line {
                        Some(line) => port_hit(*iface, message, line),
                        None => port_note(*iface, message),
                    };
                    out.push((me.to_string(), h));
                }
            }
            for iface in theirs.keys().filter(|k| !mine.contains_key(k)) {
                out.push((
                    me.to_string(),
                    port_note(
                        *iface,
                        format!("is missing: its MLAG peer {peer} has it, so the hosts on it reach {peer} only"),
                    ),
                ));
            }
        }
    }
    out
}

/// R047: an IPL port-channel not in PFC mode (itself, or every member) on a switch with
/// global PFC enabled (the `roce` mode owns PFC itself).
pub(super) fn ipl_pfc(f: &Facts) -> Vec<Hit> {
    if !f.config.pfc.enabled || f.config.roce.is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (iface, i) in &f.config.interfaces {
        let (Iface::PortChannel(id), Some(_)) = (iface, i.ipl) else {
            continue;
        };
        let members: Vec<&Interface> = f
            .config
            .interfaces
            .values()
            .filter(|m| m.channel_group.is_some_and(|g| !g.mlag && g.id == *id))
            .collect();
        let members_pfc = !members.is_empty() && members.iter().all(|m| m.pfc);
        if !i.pfc && !members_pfc {
            out.push(port_hit(
                *iface,
                "is the MLAG IPL but not in PFC mode, while PFC is enabled",
                rest(IfaceCmd::PfcMode(true)),
            ));
        }
    }
    out
}

/// R048: MLAG configured (`protocol mlag`, an IPL, `no mlag shutdown`) with IP routing off.
pub(super) fn mlag_routing(f: &Facts) -> Vec<Hit> {
    let c = f.config;
    let mlag = c.protocols.contains(&Protocol::Mlag)
        || c.mlag.enabled
        || c.interfaces
            .values()
            .any(|i| i.ipl.is_some() || i.ipl_peer.is_some());
    if mlag && !c.ip_routing {
        vec![hit(
            "MLAG is configured but IP routing is off",
            Some(Command::IpRouting(true).to_string()),
        )]
    } else {
        Vec::new()
    }
}
