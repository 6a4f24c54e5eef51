//! The routed underlay's allocation: roles, AS numbers, loopbacks and router-ids, a
//! point-to-point subnet per routed cable, BGP sessions and ECMP paths, and what a switch
//! writes out of it (`asn`, `loopback`, `bgp`).
//!
//! Allocation is deterministic and stable as the fabric grows: a switch's AS and loopback
//! come from its role and `id` (the number its name ends with unless written), and a routed
//! cable's subnet from the leaf's `id` and the leaf's port, never from the order of the file
//! or from other switches. So adding `leaf05` renumbers nothing of `leaf01`-`leaf04`.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use super::super::raw::{RawFabric, RawRoleRouting, RawSwitch, Sp};
use super::super::{EcmpHash, Role, Routing};
use super::detection::{self, End};
use super::links::RoutedEnd;
use super::network::pool;
use super::{Cx, Pending};
use crate::diag::{Diagnostic, Span};
use crate::types::{Ipv4Net, Port, choose};

/// Slots per switch in the routed-link pool: 64 front-panel ports of 4 subports each, so a
/// leaf's cables keep their subnets whatever else changes.
const SLOTS_PER_SWITCH: u64 = 256;

/// The index of a port among a switch's slots in the routed-link pool: four per front-panel
/// port, one per subport.
fn slot(port: Port) -> u64 {
    (u64::from(port.port).saturating_sub(1)) * 4
        + u64::from(port.sub.unwrap_or(1).saturating_sub(1))
}

/// A switch's number within its role: written, or the digits its name ends with.
fn switch_id(cx: &mut Cx, rs: &RawSwitch, name: &str, at: Span) -> Option<u64> {
    if let Some(v) = &rs.id {
        return cx.int(v, |n| {
            if (1..=100_000).contains(&n) {
                Ok(n as u64)
            } else {
                Err(format!("switch id {n} is out of range 1-100000"))
            }
        });
    }
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    match name[name.len() - digits..].parse::<u64>() {
        Ok(n) if n > 0 => Some(n),
        _ => {
            cx.push(
                Diagnostic::error(
                    "E112",
                    format!("`{name}` needs an `id`: its name does not end with a number"),
                )
                .at(at, "this switch")
                .help("add `id: N`: its AS and loopback are numbered from it"),
            );
            None
        }
    }
}

fn as_number(cx: &mut Cx, v: &Sp<i64>) -> Option<u32> {
    cx.int(v, |n| {
        u32::try_from(n)
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| format!("AS number {n} is out of range 1-4294967295"))
    })
}

pub(crate) fn ipv4(cx: &mut Cx, v: &Sp<String>, what: &str) -> Option<Ipv4Addr> {
    match v.get().parse::<Ipv4Addr>() {
        Ok(a) => Some(a),
        Err(_) => {
            cx.error(
                "E110",
                format!("{what} `{}` is not an IPv4 address", v.get()),
                cx.span(v),
                "not an address",
            );
            None
        }
    }
}

/// A switch in the routed underlay: its AS and router-id.
struct Node {
    role: Option<Role>,
    id: Option<u64>,
    asn: u32,
    router_id: Ipv4Addr,
    at: Span,
    /// Where the AS comes from: the switch's `asn` when written, else its role's scheme.
    asn_at: Span,
}

/// The routed underlay: AS numbers, loopbacks and router-ids, a subnet per routed cable, BGP
/// sessions; and what switches write out of it.
pub(crate) fn underlay(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    routed: &[RoutedEnd],
) {
    let r = raw.routing.as_ref();
    let fw = fabric_wide(cx, r);
    let nodes = nodes(cx, raw, pending, routed, &fw);
    duplicates(cx, &nodes, &fw.schemes);
    let (sessions, linked) = routed_cables(cx, raw, pending, routed, &nodes, &fw);
    let fabric_paths = r.and_then(|r| r.maximum_paths.as_ref());
    let choices = bgp(
        cx,
        raw,
        pending,
        &nodes,
        (fw.detect, fabric_paths),
        sessions,
    );
    bfd_ends(cx, pending, &choices, linked);
}

/// What the fabric's `routing` says for every switch: BFD and timers, the routed-link pool
/// and prefix, ECMP hashing, each role's numbering.
struct FabricWide {
    detect: detection::Choice,
    links_pool: Option<Ipv4Net>,
    prefix: Option<u8>,
    hashing: BTreeSet<EcmpHash>,
    schemes: BTreeMap<Role, Scheme>,
}

fn fabric_wide(cx: &mut Cx, r: Option<&super::super::raw::RawRouting>) -> FabricWide {
    let detect = detection::fabric(cx, r);
    let links_pool = r
        .and_then(|r| r.links.as_ref())
        .and_then(|v| pool(cx, v, "routed-link pool"));
    let prefix = match r.and_then(|r| r.link_prefix.as_ref()) {
        Some(v) => cx.int(v, |n| match n {
            30 | 31 => Ok(n as u8),
            _ => Err(format!("link prefix /{n}: a routed link is a /31 or a /30")),
        }),
        None => Some(31),
    };
    let hashing: BTreeSet<EcmpHash> = match r.and_then(|r| r.load_sharing.as_ref()) {
        Some(list) => list
            .iter()
            .filter_map(|v| {
                cx.word(v, |s| {
                    choose(
                        s,
                        &[
                            ("source-ip-port", EcmpHash::SourceIpPort),
                            ("consistent", EcmpHash::Consistent),
                        ],
                        "ECMP hashing",
                    )
                })
            })
            .collect(),
        None if r.is_some() => [EcmpHash::SourceIpPort].into(),
        None => BTreeSet::new(),
    };
    let mut schemes: BTreeMap<Role, Scheme> = BTreeMap::new();
    for (role, rr) in [
        (Role::Spine, r.and_then(|r| r.spine.as_ref())),
        (Role::Leaf, r.and_then(|r| r.leaf.as_ref())),
    ] {
        let Some(rr) = rr else { continue };
        schemes.insert(role, scheme(cx, role, rr));
    }
    FabricWide {
        detect,
        links_pool,
        prefix,
        hashing,
        schemes,
    }
}

/// Each switch's AS, loopback and router-id: written, else from its role (the switches with
/// an AS; errors for those that route without one).
fn nodes(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    routed: &[RoutedEnd],
    fw: &FabricWide,
) -> BTreeMap<String, Node> {
    let routed_switches: BTreeSet<&str> = routed
        .iter()
        .flat_map(|(a, b, _, _)| [a.0.as_str(), b.0.as_str()])
        .collect();
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    for (name, p) in pending.iter_mut() {
        if let Some(n) = node(cx, raw, name, p, &routed_switches, fw) {
            nodes.insert(name.clone(), n);
        }
    }
    nodes
}

/// One switch's [`Node`]; ECMP hashing set where it routes.
fn node(
    cx: &mut Cx,
    raw: &RawFabric,
    name: &String,
    p: &mut Pending,
    routed_switches: &BTreeSet<&str>,
    fw: &FabricWide,
) -> Option<Node> {
    let (key, rs) = &raw.switches.0[p.index];
    let at = cx.span(key);
    let role = p.switch.role;
    let scheme = role_scheme(cx, (name.as_str(), role, at), fw)?;
    let id = if needs_id(rs, scheme) {
        Some(switch_id(cx, rs, name, at)?)
    } else {
        None
    };
    let sw = Numbered {
        name,
        rs,
        at,
        role,
        scheme,
        id,
    };
    let asn = sw.asn(cx)?;
    let loopback = sw.loopback(cx);
    p.switch.loopback = loopback;
    let router_id = match rs.bgp.as_ref().and_then(|b| b.router_id.as_ref()) {
        Some(v) => ipv4(cx, v, "router-id"),
        None => loopback,
    };
    let node = match asn {
        Some(asn) => Some(sw.routing_node(cx, asn, router_id)?),
        None => {
            sw.no_as(cx, routed_switches);
            None
        }
    };
    let routes = asn.is_some()
        || !p.switch.gateways.is_empty()
        || p.switch.mlag.is_some()
        || p.switch.ports.values().any(|s| s.address.is_some());
    if routes {
        p.switch.hashing = fw.hashing.clone();
    }
    node
}

/// The numbering scheme of a switch's role (`None` for a switch without one); a role
/// `routing` says nothing of is E113, and the switch is left out (outer `None`).
fn role_scheme(
    cx: &mut Cx,
    (name, role, at): (&str, Option<Role>, Span),
    fw: &FabricWide,
) -> Option<Option<Scheme>> {
    let Some(role) = role else {
        return Some(None);
    };
    if let Some(s) = fw.schemes.get(&role) {
        return Some(Some(*s));
    }
    cx.push(
        Diagnostic::error(
            "E113",
            format!("`{name}` is a {role} but `routing` says nothing of {role}s"),
        )
        .at(at, "this switch")
        .help(format!(
            "add `routing: {{ {role}: {{ asn: N, loopbacks: A.B.C.D/N }} }}`"
        )),
    );
    None
}

/// Whether a switch's AS or loopback is numbered from its id: its role gives one AS per
/// switch and none is written, or a loopback pool and no loopback is written.
fn needs_id(rs: &RawSwitch, scheme: Option<Scheme>) -> bool {
    let bgp_asn = rs.bgp.as_ref().and_then(|b| b.asn.as_ref());
    scheme.is_some_and(|(shared, _, pool, _, _)| {
        (rs.asn.is_none() && bgp_asn.is_none() && shared.is_none())
            || (rs.loopback.is_none() && pool.is_some())
    })
}

/// A switch being numbered: its name, entry and place, its role's scheme and its id.
struct Numbered<'a> {
    name: &'a str,
    rs: &'a RawSwitch,
    at: Span,
    role: Option<Role>,
    scheme: Option<Scheme>,
    id: Option<u64>,
}

impl Numbered<'_> {
    /// The switch's AS: written (once: `asn` and `bgp.asn` both is E113), else its role's
    /// shared AS or base plus id; `None` (outer) when a written AS is refused.
    fn asn(&self, cx: &mut Cx) -> Option<Option<u32>> {
        let (name, rs) = (self.name, self.rs);
        let explicit_asn = match (&rs.asn, rs.bgp.as_ref().and_then(|b| b.asn.as_ref())) {
            (Some(a), Some(b)) => {
                cx.push(
                    Diagnostic::error("E113", format!("`{name}`'s AS is written twice"))
                        .at(cx.span(b), "here")
                        .also(cx.span(a), "and here"),
                );
                return None;
            }
            (Some(v), None) | (None, Some(v)) => Some(as_number(cx, v)?),
            (None, None) => None,
        };
        Some(explicit_asn.or_else(|| {
            let (shared, base, _, _, sat) = self.scheme?;
            shared.or_else(|| {
                let n = u64::from(base?) + self.id?;
                match u32::try_from(n) {
                    Ok(n) => Some(n),
                    Err(_) => {
                        cx.error(
                            "E113",
                            format!("AS number {n} is past 4294967295"),
                            sat,
                            "base",
                        );
                        None
                    }
                }
            })
        }))
    }

    /// The switch's loopback: written, else its id's address in its role's pool (E114 when
    /// the pool has none).
    fn loopback(&self, cx: &mut Cx) -> Option<Ipv4Addr> {
        if let Some(v) = &self.rs.loopback {
            return ipv4(cx, v, "loopback");
        }
        let (_, _, pool, sat, _) = self.scheme?;
        let (pool, id) = (pool?, self.id?);
        let found = pool.nth(id);
        if found.is_none() {
            cx.push(
                Diagnostic::error(
                    "E114",
                    format!(
                        "the {} loopback pool {pool} has no address for id {id} (`{}`)",
                        self.role
                            .map_or("", |r| if r == Role::Leaf { "leaf" } else { "spine" }),
                        self.name
                    ),
                )
                .at(sat, "pool")
                .also(self.at, "this switch"),
            );
        }
        found
    }

    /// The [`Node`] of a switch with an AS; without a router-id, E113 (unless its role's
    /// loopback pool was refused already) and `None`.
    fn routing_node(&self, cx: &mut Cx, asn: u32, router_id: Option<Ipv4Addr>) -> Option<Node> {
        let Some(router_id) = router_id else {
            // A role whose loopback pool did not check was reported already.
            let pool_failed = self.rs.loopback.is_none()
                && self.scheme.is_some_and(|(_, _, pool, _, _)| pool.is_none());
            if !pool_failed {
                cx.push(
                    Diagnostic::error("E113", format!("`{}` runs BGP without a router-id", self.name))
                        .at(self.at, "this switch")
                        .help("give it a `loopback` (or a role whose pool gives one), or `bgp: { router_id: A }`"),
                );
            }
            return None;
        };
        let asn_at = self
            .rs
            .asn
            .as_ref()
            .or(self.rs.bgp.as_ref().and_then(|b| b.asn.as_ref()))
            .map(|v| cx.span(v))
            .or(self.scheme.map(|(_, _, _, _, asn_at)| asn_at))
            .unwrap_or(self.at);
        Some(Node {
            role: self.role,
            id: self.id,
            asn,
            router_id,
            at: self.at,
            asn_at,
        })
    }

    /// A switch without an AS that needs one: routed links (E111) or `bgp` (E113).
    fn no_as(&self, cx: &mut Cx, routed_switches: &BTreeSet<&str>) {
        let (name, at) = (self.name, self.at);
        if routed_switches.contains(name) {
            cx.push(
                Diagnostic::error("E111", format!("`{name}` has routed links but no AS"))
                    .at(at, "this switch")
                    .help("give it a `role` (`leaf` or `spine`) with `routing`, or an `asn`"),
            );
        } else if self.rs.bgp.is_some() {
            cx.push(
                Diagnostic::error("E113", format!("`{name}` has `bgp` but no AS"))
                    .at(at, "this switch")
                    .help("add `bgp: { asn: N }`, or give it a `role`"),
            );
        }
    }
}

/// Duplicates: ids within a role, router-ids and loopbacks, per-switch AS numbers; one report
/// per two switches.
fn duplicates(cx: &mut Cx, nodes: &BTreeMap<String, Node>, schemes: &BTreeMap<Role, Scheme>) {
    let mut ids: BTreeMap<(Role, u64), &str> = BTreeMap::new();
    let mut rids: BTreeMap<Ipv4Addr, &str> = BTreeMap::new();
    let mut asns: BTreeMap<u32, &str> = BTreeMap::new();
    let mut dups = Vec::new();
    for (name, n) in nodes {
        if let (Some(role), Some(id)) = (n.role, n.id)
            && let Some(first) = ids.insert((role, id), name)
        {
            dups.push((
                "E112",
                format!("`{first}` and `{name}` are both {role} {id}"),
                first.to_string(),
                name.clone(),
            ));
        }
        if let Some(first) = rids.insert(n.router_id, name) {
            dups.push((
                "E115",
                format!(
                    "`{first}` and `{name}` have the same router-id {}",
                    n.router_id
                ),
                first.to_string(),
                name.clone(),
            ));
        }
        let shared = n
            .role
            .and_then(|r| schemes.get(&r))
            .is_some_and(|s| s.0 == Some(n.asn));
        if !shared
            && let Some(first) = asns.insert(n.asn, name)
            && nodes[first].role == n.role
            && n.role.is_some()
        {
            dups.push((
                "E113",
                format!("`{first}` and `{name}` have the same AS {}", n.asn),
                first.to_string(),
                name.clone(),
            ));
        }
    }
    // One report per two switches: the same id gives the same AS and loopback.
    let mut told: BTreeSet<(String, String)> = BTreeSet::new();
    for (code, msg, a, b) in dups {
        if !told.insert((a.clone(), b.clone())) {
            continue;
        }
        let d = Diagnostic::error(code, msg);
        // A duplicate AS is at the `asn` lines that give it (or the scheme that derives it).
        let d = if code == "E113" && nodes[&b].asn_at != nodes[&a].asn_at {
            d.at(nodes[&b].asn_at, format!("`{b}`'s AS"))
                .also(nodes[&a].asn_at, format!("`{a}`'s AS"))
                .help("each leaf has an AS of its own in eBGP: change one `asn`, or remove both and let `routing.leaf.asn_base` number them by id")
        } else {
            d.at(nodes[&b].at, b.clone()).also(nodes[&a].at, a.clone())
        };
        cx.push(d);
    }
}

/// Each switch's BGP sessions over its routed cables, by the far end's address.
type Sessions = BTreeMap<String, BTreeMap<Ipv4Addr, super::super::Neighbor>>;

/// The routed cables: written addresses at both ends, else a subnet from the leaf's id and
/// port; each end's address set, each switch's sessions over them, and the two ends of each
/// session (for their BFD, W008).
fn routed_cables<'a>(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    routed: &'a [RoutedEnd],
    nodes: &BTreeMap<String, Node>,
    fw: &FabricWide,
) -> (Sessions, Vec<(LinkEnd<'a>, LinkEnd<'a>)>) {
    let mut sessions = Sessions::new();
    // Each session over a routed link: its two ends, for the ends' BFD (W008).
    let mut linked: Vec<(LinkEnd, LinkEnd)> = Vec::new();
    for cable in routed {
        let ((sa, pa), (sb, pb), at_a, at_b) = cable;
        let Some(addresses) = written_addresses(cx, pending, cable) else {
            continue;
        };
        let (Some(na), Some(nb)) = (nodes.get(sa), nodes.get(sb)) else {
            continue;
        };
        let two = match addresses {
            Some(two) => two,
            None => match allocated(cx, (raw, &*pending, fw), cable, (na, nb)) {
                Some(two) => two,
                None => continue,
            },
        };
        linked.push(((sa, *pa, *at_a), (sb, *pb, *at_b)));
        sessions_over(pending, nodes, cable, two, &mut sessions);
    }

    (sessions, linked)
}

/// A routed cable's addresses as written: at both ends (two of one /30 or /31, else E115),
/// at neither (`Some(None)`), or at one end only (E116); `None` when refused.
fn written_addresses(
    cx: &mut Cx,
    pending: &BTreeMap<String, Pending>,
    ((sa, pa), (sb, pb), at_a, at_b): &RoutedEnd,
) -> Option<Option<(Ipv4Net, Ipv4Net)>> {
    let written = |name: &str, port: &Port| {
        pending
            .get(name)
            .and_then(|p| p.addresses.get(port))
            .map(|(n, _)| *n)
    };
    match (written(sa, pa), written(sb, pb)) {
        (Some(x), Some(y)) => {
            if x.network() != y.network() || x.addr == y.addr || x.len < 30 {
                cx.push(
                    Diagnostic::error(
                        "E115",
                        format!("the ends of routed link {sa}:{pa} – {sb}:{pb} are not two addresses of one /30 or /31: {x} and {y}"),
                    )
                    .at(*at_a, x.to_string())
                    .also(*at_b, y.to_string()),
                );
                return None;
            }
            Some(Some((x, y)))
        }
        (Some(_), None) | (None, Some(_)) => {
            cx.push(
                Diagnostic::error(
                    "E116",
                    format!("routed link {sa}:{pa} – {sb}:{pb} has an address at one end only"),
                )
                .at(*at_a, format!("{sa}:{pa}"))
                .also(*at_b, format!("{sb}:{pb}"))
                .help("write `address` at both ends, or at neither (then `routing.links` allocates it)"),
            );
            None
        }
        (None, None) => Some(None),
    }
}

/// A routed cable's addresses from `routing.links` (end a's, end b's): the subnet of the
/// leaf's id and port, the spine's address first. Only a cable between a leaf and a spine
/// gets one (E123); without a pool, E110; a pool too small, E114.
fn allocated(
    cx: &mut Cx,
    (raw, pending, fw): (&RawFabric, &BTreeMap<String, Pending>, &FabricWide),
    cable: &RoutedEnd,
    (na, nb): (&Node, &Node),
) -> Option<(Ipv4Net, Ipv4Net)> {
    let ((sa, pa), (sb, pb), at_a, at_b) = cable;
    let (leaf_is_a, leaf) = match (na.role, nb.role) {
        (Some(Role::Leaf), Some(Role::Spine)) => (true, na),
        (Some(Role::Spine), Some(Role::Leaf)) => (false, nb),
        _ => {
            let name = |sw: &String, p: &crate::types::Port| {
                pending
                    .get(sw.as_str())
                    .map_or_else(|| p.to_string(), |x| x.switch.os().target().port_name(*p))
            };
            let (pa, pb) = (name(sa, pa), name(sb, pb));
            cx.push(
                Diagnostic::error(
                    "E123",
                    format!("routed link {sa}:{pa} – {sb}:{pb} needs `address` at both ends: only a link between a leaf and a spine gets one from `routing.links`"),
                )
                .at(*at_a, sa.clone())
                .also(*at_b, sb.clone()),
            );
            return None;
        }
    };
    let (Some(pool), Some(len), Some(id)) = (
        fw.links_pool,
        fw.prefix,
        leaf.id.or_else(|| {
            let (key, rs) = &raw.switches.0[pending.get(if leaf_is_a { sa } else { sb })?.index];
            let at = cx.span(key);
            switch_id(cx, rs, if leaf_is_a { sa } else { sb }, at)
        }),
    ) else {
        if fw.links_pool.is_none() {
            cx.push(
                Diagnostic::error(
                    "E110",
                    format!("routed link {sa}:{pa} – {sb}:{pb} needs an address pool"),
                )
                .at(*at_a, sa.clone())
                .also(*at_b, sb.clone())
                .help("add `routing: { links: A.B.C.D/N }`, or write `address` at both ends"),
            );
        }
        return None;
    };
    let leaf_end = if leaf_is_a {
        (sa, *pa, *at_a)
    } else {
        (sb, *pb, *at_b)
    };
    let (s_net, l_net) = leaf_subnet(cx, (pool, len, id), leaf_end)?;
    Some(if leaf_is_a {
        (l_net, s_net)
    } else {
        (s_net, l_net)
    })
}

/// The spine's and the leaf's address on the subnet of the leaf's id and port in the
/// routed-link pool (`pool`, `len`, the leaf's `id`): E114 when the pool has none.
fn leaf_subnet(
    cx: &mut Cx,
    (pool, len, id): (Ipv4Net, u8, u64),
    (leaf, leaf_port, at): LinkEnd<'_>,
) -> Option<(Ipv4Net, Ipv4Net)> {
    let index = (id - 1) * SLOTS_PER_SWITCH + slot(leaf_port);
    let Some(net) = pool.subnet(len, index) else {
        cx.push(
            Diagnostic::error(
                "E114",
                format!(
                    "the routed-link pool {pool} has no /{len} for {leaf}:{leaf_port} (leaf id {id})"
                ),
            )
            .at(at, "this link")
            .help(format!(
                "a leaf takes {SLOTS_PER_SWITCH} subnets of /{len}: leaf ids up to {id} need a pool of {} addresses or more",
                id * SLOTS_PER_SWITCH * (1u64 << (32 - u32::from(len)))
            )),
        );
        return None;
    };
    // The spine takes the first address, the leaf the next (/31: both; /30: hosts 1 and 2).
    let first = u64::from(len == 30);
    let (Some(spine_addr), Some(leaf_addr)) = (net.nth(first), net.nth(first + 1)) else {
        return None;
    };
    Some((
        Ipv4Net {
            addr: spine_addr,
            len,
        },
        Ipv4Net {
            addr: leaf_addr,
            len,
        },
    ))
}

/// A routed cable's two ends: each end's address set on its port, and a session to the far
/// end's address in each switch's `sessions`.
fn sessions_over(
    pending: &mut BTreeMap<String, Pending>,
    nodes: &BTreeMap<String, Node>,
    ((sa, pa), (sb, pb), _, _): &RoutedEnd,
    (xa, xb): (Ipv4Net, Ipv4Net),
    sessions: &mut Sessions,
) {
    let unnumbered_os = |name: &String| {
        pending
            .get(name.as_str())
            .is_some_and(|p| p.switch.os().target().rules().unnumbered())
    };
    let unnumbered = unnumbered_os(sa) && unnumbered_os(sb);
    for (me, my_port, mine, other, theirs) in [(sa, pa, xa, sb, xb), (sb, pb, xb, sa, xa)] {
        let far = nodes[other.as_str()].asn;
        let Some(h) = pending
            .get(other.as_str())
            .map(|p| p.switch.hostname.clone())
        else {
            continue;
        };
        if let Some(s) = pending
            .get_mut(me.as_str())
            .and_then(|p| p.switch.ports.get_mut(my_port))
        {
            s.address = Some(mine);
        }
        sessions.entry(me.clone()).or_default().insert(
            theirs.addr,
            super::super::Neighbor {
                asn: far,
                link: Some((h, *my_port)),
                bfd: false,
                timers: None,
                unnumbered,
            },
        );
    }
}

/// Each routing switch's BGP: its sessions (over its routed cables and written), maximum
/// paths (E117), networks, BFD and fast-external-fallover; the detection each chose.
fn bgp<'a>(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    nodes: &'a BTreeMap<String, Node>,
    (detect, fabric_paths): (detection::Choice, Option<&Sp<i64>>),
    mut sessions: Sessions,
) -> BTreeMap<&'a str, detection::Choice> {
    let mut choices: BTreeMap<&str, detection::Choice> = BTreeMap::new();
    let mut told = BTreeSet::new();
    for (name, n) in nodes {
        let Some(p) = pending.get_mut(name.as_str()) else {
            continue;
        };
        let bgp = raw.switches.0[p.index].1.bgp.as_ref();
        let choice = detection::switch(cx, detect, bgp);
        choices.insert(name, choice);
        let linked = sessions.remove(name).unwrap_or_default();
        let (neighbors, port_neighbors) = super::sessions::neighbors(cx, p, bgp, &choice, linked);
        let Some((maximum_paths, multipath_relax)) =
            ecmp(cx, (name.as_str(), n), bgp, fabric_paths, &neighbors)
        else {
            continue;
        };
        let link_ports: BTreeSet<Port> = neighbors
            .values()
            .filter_map(|nb| nb.link.as_ref().map(|l| l.1))
            .collect();
        let networks = networks(cx, p, bgp, &link_ports);
        let bfd = (neighbors.values().any(|nb| nb.bfd) || port_neighbors.values().any(|nb| nb.bfd))
            .then(|| {
                detection::check_os(cx, &choice, p.switch.os(), name, &mut told);
                choice.bfd_timers()
            });
        let fast_external_fallover = choice.fast_external_fallover(!link_ports.is_empty());
        p.switch.routing = Some(Routing {
            asn: n.asn,
            router_id: n.router_id,
            multipath_relax,
            neighbors,
            port_neighbors,
            networks,
            maximum_paths,
            bfd,
            fast_external_fallover,
        });
    }
    choices
}

/// A switch's ECMP: maximum paths (written, else as many as its most parallel sessions to
/// one AS; fewer is E117) and multipath-relax (written, else with sessions to several ASes).
/// `None` when a written maximum is refused.
fn ecmp(
    cx: &mut Cx,
    (name, n): (&str, &Node),
    bgp: Option<&super::super::raw::RawBgp>,
    fabric_paths: Option<&Sp<i64>>,
    neighbors: &BTreeMap<Ipv4Addr, super::super::Neighbor>,
) -> Option<(Option<u16>, bool)> {
    let mut per_as: BTreeMap<u32, u16> = BTreeMap::new();
    for nb in neighbors.values().filter(|nb| nb.link.is_some()) {
        *per_as.entry(nb.asn).or_default() += 1;
    }
    let needed = per_as.values().copied().max().unwrap_or(1).max(1);
    let paths = |cx: &mut Cx, v: &Sp<i64>| {
        cx.int(v, |x| {
            if (1..=64).contains(&x) {
                Ok(x as u16)
            } else {
                Err(format!("maximum-paths {x} is out of range 1-64"))
            }
        })
    };
    let maximum_paths = match bgp.and_then(|b| b.maximum_paths.as_ref()).or(fabric_paths) {
        Some(v) => {
            let m = paths(cx, v)?;
            if m < needed {
                cx.push(
                    Diagnostic::error(
                        "E117",
                        format!("maximum-paths {m} is below the {needed} parallel sessions `{name}` has to one AS: ECMP would leave uplinks idle"),
                    )
                    .at(cx.span(v), "too few paths")
                    .also(n.at, "this switch")
                    .help(format!("set it to {needed} or more, or leave it out")),
                );
            }
            Some(m)
        }
        None => (!per_as.is_empty()).then_some(needed.min(64)),
    };
    let multipath_relax = match bgp.and_then(|b| b.multipath_relax.as_ref()) {
        Some(v) => *v.get(),
        None => per_as.len() > 1,
    };
    Some((maximum_paths, multipath_relax))
}

/// The networks a switch advertises: its loopback, its VLAN interfaces' subnets, its routed
/// host ports' (but those marked `advertise: false`; `link_ports` are its routed cables'),
/// and those written in its `bgp` (each a network, else E110).
fn networks(
    cx: &mut Cx,
    p: &Pending,
    bgp: Option<&super::super::raw::RawBgp>,
    link_ports: &BTreeSet<Port>,
) -> BTreeSet<Ipv4Net> {
    let mut networks: BTreeSet<Ipv4Net> = p
        .switch
        .loopback
        .map(|addr| Ipv4Net { addr, len: 32 })
        .into_iter()
        .collect();
    networks.extend(p.switch.gateways.values().map(|g| g.address.network()));
    networks.extend(
        p.switch
            .ports
            .iter()
            .filter(|(port, _)| !link_ports.contains(port) && !p.unadvertised.contains(port))
            .filter_map(|(_, s)| s.address)
            .map(|a| a.network()),
    );
    for v in bgp.iter().flat_map(|b| b.networks.iter().flatten()) {
        match v.get().parse::<Ipv4Net>() {
            Ok(net) if net.is_network() => {
                networks.insert(net);
            }
            Ok(net) => cx.error(
                "E110",
                format!(
                    "network `{net}` is not a network (write `{}`)",
                    net.network()
                ),
                cx.span(v),
                "host bits set",
            ),
            Err(e) => cx.error("E110", e, cx.span(v), "not a network"),
        }
    }
    networks
}

/// Both ends of each session over a routed cable, with whether BFD watches it there: one
/// end without is W008.
fn bfd_ends(
    cx: &mut Cx,
    pending: &BTreeMap<String, Pending>,
    choices: &BTreeMap<&str, detection::Choice>,
    linked: Vec<(LinkEnd<'_>, LinkEnd<'_>)>,
) {
    // A session's end: whether BFD watches it there (`None`: the switch runs no BGP, or has
    // no session over the port, errors reported already).
    let end = |(name, port, at): LinkEnd| {
        let r = pending.get(name.as_str())?.switch.routing.as_ref()?;
        let bfd = r
            .neighbors
            .values()
            .find(|nb| nb.link.as_ref().is_some_and(|l| l.1 == port))?
            .bfd;
        Some(End {
            switch: name.clone(),
            port,
            at,
            bfd,
            off_at: choices.get(name.as_str()).and_then(|c| c.bfd_off_at()),
        })
    };
    let ends: Vec<(End, End)> = linked
        .into_iter()
        .filter_map(|(a, b)| Some((end(a)?, end(b)?)))
        .collect();
    detection::one_sided(cx, &ends);
}
/// One end of a routed link: its switch, port, and where it is written.
type LinkEnd<'a> = (&'a String, Port, Span);

/// One role's numbering: a shared AS or a base for one AS per switch, the loopback pool, and
/// where it is written.
/// A role's scheme: its shared AS or AS base, its loopback pool and where that is written,
/// and where its AS is written (`asn` or `asn_base`; the pool's place without either).
type Scheme = (Option<u32>, Option<u32>, Option<Ipv4Net>, Span, Span);

fn scheme(cx: &mut Cx, role: Role, rr: &RawRoleRouting) -> Scheme {
    let at = cx.span(&rr.loopbacks);
    let shared = rr.asn.as_ref().and_then(|v| as_number(cx, v));
    let base = rr.asn_base.as_ref().and_then(|v| as_number(cx, v));
    match (&rr.asn, &rr.asn_base) {
        (Some(a), Some(b)) => cx.push(
            Diagnostic::error(
                "E113",
                format!("{role}s get one shared AS (`asn`) or one each (`asn_base`), not both"),
            )
            .at(cx.span(a), "shared")
            .also(cx.span(b), "one each"),
        ),
        (None, None) => cx.error(
            "E113",
            format!("{role}s need `asn` (one shared AS) or `asn_base` (one AS each)"),
            at,
            "no AS here",
        ),
        _ => {}
    }
    let loopbacks = pool(cx, &rr.loopbacks, "loopback pool");
    let asn_at = rr
        .asn
        .as_ref()
        .or(rr.asn_base.as_ref())
        .map_or(at, |v| cx.span(v));
    (shared, base, loopbacks, at, asn_at)
}
