//! What joins switches into one network, checked and derived once for every OS: link roles
//! (routed, access, trunk, LAG, MLAG peer link), the routed underlay (roles, AS numbers,
//! loopbacks, a point-to-point subnet per routed cable, BGP sessions and ECMP), VLAN
//! gateways, port-channels and MLAG pairs, and the L2 topology that must stay loop-free.
//!
//! Allocation is deterministic and stable as the fabric grows: a switch's AS and loopback
//! come from its role and `id` (the number its name ends with unless written), and a routed
//! cable's subnet from the leaf's `id` and the leaf's port, never from the order of the file
//! or from other switches. So adding `leaf05` renumbers nothing of `leaf01`-`leaf04`.
//!
//! Diagnostic codes E110-E124, each at the places involved (both ends of a link).

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use super::super::raw::{RawFabric, RawPort, RawRoleRouting, RawSwitch, Sp};
use super::super::{Bundle, EcmpHash, Lacp, Mlag, PortSettings, Role, Routing, Switch};
use super::{Cx, LinkPair, Pending, describe_ports};
use crate::diag::{Diagnostic, Span};
use crate::types::{Hostname, Ipv4Net, Mac, Port, SwitchportMode, Vlan, choose};

/// Port-channel and MLAG port-channel numbers Onyx takes (Interface Commands: `interface
/// port-channel 1-4096`; a switch has far fewer). UNCONFIRMED upper bound.
const MAX_CHANNEL: i64 = 4096;

/// Slots per switch in the routed-link pool: 64 front-panel ports of 4 subports each, so a
/// leaf's cables keep their subnets whatever else changes.
const SLOTS_PER_SWITCH: u64 = 256;

/// A switch's VLANs: the fabric's, and its own with their gateway addresses.
pub(super) fn switch_vlans(
    cx: &mut Cx,
    raw: &RawSwitch,
    fabric: &BTreeMap<Vlan, (Option<String>, Span)>,
    sw: &mut Switch,
) {
    let mut seen: BTreeMap<Vlan, Span> = BTreeMap::new();
    for v in raw.vlans.iter().flatten() {
        let Some(id) = cx.int(&v.id, Vlan::new) else {
            continue;
        };
        let at = cx.span(&v.id);
        if let Some(first) = seen.insert(id, at) {
            cx.push(
                Diagnostic::error(
                    "E060",
                    format!("VLAN {id} is declared twice on `{}`", sw.hostname),
                )
                .at(at, "declared again here")
                .also(first, "first declared here"),
            );
            continue;
        }
        let name = v.name.as_ref().and_then(|n| cx.text(n, "VLAN name", 32));
        if let (Some(n), Some((Some(fname), fat))) = (&name, fabric.get(&id))
            && n != fname
        {
            cx.push(
                Diagnostic::error(
                    "E061",
                    format!("VLAN {id} is named `{fname}` in the fabric and `{n}` here"),
                )
                .at(cx.span(v.name.as_ref().expect("named")), "named here")
                .also(*fat, "fabric's VLAN"),
            );
        }
        let kept = name.or_else(|| fabric.get(&id).and_then(|(n, _)| n.clone()));
        // VLAN 1 is always there and never printed, unless named.
        if id.get() != 1 || kept.is_some() {
            sw.vlans.insert(id, kept);
        }
        if let Some(a) = &v.address
            && let Some(net) = host_address(cx, a, "gateway address")
        {
            sw.gateways.insert(id, net);
        }
    }
}

/// An address with its prefix length that names a host of its subnet.
fn host_address(cx: &mut Cx, v: &Sp<String>, what: &str) -> Option<Ipv4Net> {
    let at = cx.span(v);
    let net = match v.get().parse::<Ipv4Net>() {
        Ok(n) => n,
        Err(e) => {
            cx.error("E110", format!("{what}: {e}"), at, "not an address");
            return None;
        }
    };
    // /31 and /32 have no network or broadcast address to avoid (RFC 3021).
    let n = u32::from(net.addr) & !u32::from(net.dotted_mask());
    let last = (net.size() - 1) as u32;
    if net.len <= 30 && (n == 0 || n == last) {
        cx.push(
            Diagnostic::error(
                "E110",
                format!("{what} `{net}` is the subnet's network or broadcast address"),
            )
            .at(at, "not a host address")
            .help(format!(
                "give a host of {}, e.g. `{}/{}`",
                net.network(),
                net.network().nth(1).unwrap_or(net.addr),
                net.len
            )),
        );
        return None;
    }
    Some(net)
}

/// A pool of addresses: a network, written as one.
fn pool(cx: &mut Cx, v: &Sp<String>, what: &str) -> Option<Ipv4Net> {
    let at = cx.span(v);
    match v.get().parse::<Ipv4Net>() {
        Ok(n) if n.is_network() => Some(n),
        Ok(n) => {
            cx.push(
                Diagnostic::error("E110", format!("{what} `{n}` is not a network"))
                    .at(at, "host bits set")
                    .help(format!("write the network, `{}`", n.network())),
            );
            None
        }
        Err(e) => {
            cx.error("E110", format!("{what}: {e}"), at, "not a network");
            None
        }
    }
}

/// A port-map entry's routed address and bundle.
pub(super) fn port_entry(
    cx: &mut Cx,
    key: &Sp<String>,
    entry: &RawPort,
    ports: &[Port],
    p: &mut Pending,
) {
    let at = cx.span(key);
    if let Some(a) = &entry.address {
        if ports.len() > 1 {
            cx.push(
                Diagnostic::error(
                    "E116",
                    format!("`{}` is {} ports but one address", key.get(), ports.len()),
                )
                .at(cx.span(a), "one address")
                .also(at, "several ports")
                .help("give each routed port its own entry and address"),
            );
        } else if let Some(net) = host_address(cx, a, "port address") {
            p.addresses.insert(ports[0], (net, cx.span(a)));
        }
    }
    if let (Some(m), Some(l)) = (&entry.mlag, &entry.lag) {
        cx.push(
            Diagnostic::error("E118", "a port joins one bundle: `mlag` or `lag`, not both")
                .at(cx.span(m), "MLAG port-channel")
                .also(cx.span(l), "port-channel"),
        );
        return;
    }
    let lacp = entry.lacp.as_ref().and_then(|v| cx.word(v, lacp_mode));
    if entry.lacp.is_some() && lacp.is_none() {
        return;
    }
    for (v, mlag) in [(&entry.mlag, true), (&entry.lag, false)] {
        let Some(v) = v else { continue };
        let Some(id) = cx.int(v, channel_id) else {
            continue;
        };
        let b = Bundle {
            mlag,
            id,
            lacp: lacp.unwrap_or(Lacp::Active),
        };
        for port in ports {
            p.bundles.insert(*port, (b, cx.span(v)));
        }
    }
}

fn channel_id(v: i64) -> Result<u16, String> {
    if (1..=MAX_CHANNEL).contains(&v) {
        Ok(v as u16)
    } else {
        Err(format!("port-channel {v} is out of range 1-{MAX_CHANNEL}"))
    }
}

fn lacp_mode(s: &str) -> Result<Lacp, crate::types::Invalid> {
    choose(
        s,
        &[
            ("active", Lacp::Active),
            ("passive", Lacp::Passive),
            ("on", Lacp::On),
        ],
        "LACP mode",
    )
}

/// What a link is, at both ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LinkRole {
    Routed,
    Access,
    Trunk,
    Lag,
    Ipl,
}

fn link_role(s: &str) -> Result<LinkRole, crate::types::Invalid> {
    choose(
        s,
        &[
            ("routed", LinkRole::Routed),
            ("access", LinkRole::Access),
            ("trunk", LinkRole::Trunk),
            ("lag", LinkRole::Lag),
            ("ipl", LinkRole::Ipl),
        ],
        "link role",
    )
}

/// An MLAG pair: declared under the fabric's `mlag`, or two switches whose written-out halves
/// match (same system MAC, each the other's peer address).
struct Pair {
    switches: [String; 2],
    at: Span,
    port_channel: u16,
    /// Declared as a pair, so its peer link must be declared too.
    declared: bool,
    /// Whether a `role: ipl` link joins the two.
    linked: bool,
}

/// A routed cable's two ends, as `resolve` found them.
type RoutedEnd = ((String, Port), (String, Port), Span, Span);

/// Everything that joins switches: called once every port is resolved.
pub(super) fn resolve(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    links: &[LinkPair],
    names: &BTreeMap<String, (Hostname, Span)>,
) {
    let fabric_stp = raw.stp.as_ref().and_then(|v| stp(cx, v));
    for p in pending.values_mut() {
        let rs = &raw.switches.0[p.index].1;
        p.switch.stp = rs.stp.as_ref().and_then(|v| stp(cx, v)).or(fabric_stp);
        p.switch.role = rs.role.as_ref().and_then(|v| {
            cx.word(v, |s| {
                choose(s, &[("leaf", Role::Leaf), ("spine", Role::Spine)], "role")
            })
        });
    }
    for v in raw.vlans.iter().flatten() {
        if let Some(a) = &v.address {
            cx.push(
                Diagnostic::error(
                    "E124",
                    "a gateway address belongs to one switch, not to the fabric's VLAN",
                )
                .at(cx.span(a), "fabric-wide")
                .help("write it under the switch: `vlans: [{ id: N, address: A/N }]`"),
            );
        }
    }

    let mut pairs = mlag_pairs(cx, raw, pending, names);
    let (routed, broken) = link_roles(cx, raw, pending, links, &mut pairs);
    host_ports(cx, pending);
    for pair in &pairs {
        if pair.declared && !pair.linked {
            cx.push(
                Diagnostic::error(
                    "E121",
                    format!(
                        "MLAG pair `{}` and `{}` has no peer link",
                        pair.switches[0], pair.switches[1]
                    ),
                )
                .at(pair.at, "this pair")
                .help(format!(
                    "declare the cables between them under `links` with `role: ipl`, e.g. `{{ a: {}:1/31-1/32, b: {}:1/31-1/32, role: ipl }}`",
                    pair.switches[0], pair.switches[1]
                )),
            );
        }
    }
    routed_ports(cx, pending, &routed);
    underlay(cx, raw, pending, &routed);
    bundles(cx, pending, &pairs);
    l2_topology(cx, pending, links, &broken, &pairs);
}

fn stp(cx: &mut Cx, v: &Sp<String>) -> Option<bool> {
    cx.word(v, |s| {
        choose(s, &[("on", true), ("off", false)], "spanning-tree setting")
    })
}

/// A system MAC as written.
fn mac(cx: &mut Cx, v: &Sp<String>) -> Option<Mac> {
    match v.get().parse::<Mac>() {
        Ok(m) => Some(m),
        Err(e) => {
            cx.error("E110", e, cx.span(v), "not a MAC address");
            None
        }
    }
}

/// An MLAG domain's name and virtual IP, written together.
fn vip(
    cx: &mut Cx,
    domain: Option<&Sp<String>>,
    vip: Option<&Sp<String>>,
) -> Option<Option<(String, Ipv4Net)>> {
    match (domain, vip) {
        (None, None) => Some(None),
        (Some(d), Some(v)) => {
            let d = cx.text(d, "MLAG domain name", 64);
            let v = host_address(cx, v, "MLAG VIP");
            Some(Some((d?, v?)))
        }
        (Some(x), None) | (None, Some(x)) => {
            cx.error(
                "E121",
                "an MLAG VIP is a `domain` and a `vip` address, written together",
                cx.span(x),
                "only one of them",
            );
            None
        }
    }
}

/// The MLAG pairs: declared ones (each switch in one pair at most, both declared, the IPL's
/// addresses one per switch) and halves written out per switch, paired when they match.
fn mlag_pairs(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    names: &BTreeMap<String, (Hostname, Span)>,
) -> Vec<Pair> {
    let mut out = Vec::new();
    let mut member: BTreeMap<String, Span> = BTreeMap::new();
    for m in raw.mlag.iter().flatten() {
        let at = cx.span(&m.switches);
        let listed: Vec<&Sp<String>> = m.switches.get().iter().collect();
        if listed.len() != 2 {
            cx.error(
                "E121",
                format!("an MLAG pair is two switches, not {}", listed.len()),
                at,
                "this pair",
            );
            continue;
        }
        let mut sws: Vec<String> = Vec::new();
        for s in &listed {
            let sat = cx.span(s);
            match names.get(&s.get().to_lowercase()) {
                Some((h, _)) if pending.contains_key(h.as_str()) => {
                    if let Some(first) = member.insert(h.as_str().to_string(), sat) {
                        cx.push(
                            Diagnostic::error("E121", format!("`{h}` is in two MLAG pairs"))
                                .at(sat, "second pair")
                                .also(first, "first pair"),
                        );
                    } else {
                        sws.push(h.as_str().to_string());
                    }
                }
                Some(_) => {}
                None => cx.error(
                    "E121",
                    format!("unknown switch `{}` in an MLAG pair", s.get()),
                    sat,
                    "not declared under `switches`",
                ),
            }
        }
        if sws.len() == 2 && sws[0] == sws[1] {
            cx.error(
                "E121",
                "an MLAG pair of one switch with itself",
                at,
                "this pair",
            );
            continue;
        }
        let vip = vip(cx, m.domain.as_ref(), m.vip.as_ref());
        let mac = mac(cx, &m.system_mac);
        let pc = cx.int(&m.ipl.port_channel, channel_id);
        let vlan = cx.int(&m.ipl.vlan, Vlan::new);
        let subnet = pool(cx, &m.ipl.subnet, "IPL subnet");
        let addresses = subnet.and_then(|s| {
            // /31: both addresses; otherwise the first two hosts.
            let first = u64::from(s.len <= 30);
            let two = [s.nth(first)?, s.nth(first + 1)?];
            (s.len <= 31).then(|| {
                two.map(|a| Ipv4Net {
                    addr: a,
                    len: s.len,
                })
            })
        });
        if subnet.is_some() && addresses.is_none() {
            cx.error(
                "E110",
                "the IPL subnet holds fewer than two addresses",
                cx.span(&m.ipl.subnet),
                "too small",
            );
        }
        let (Ok(switches), Some(vip), Some(mac), Some(pc), Some(vlan), Some(addresses)) =
            (<[String; 2]>::try_from(sws), vip, mac, pc, vlan, addresses)
        else {
            continue;
        };
        for (i, name) in switches.iter().enumerate() {
            let peer = pending
                .get(switches[1 - i].as_str())
                .map(|p| p.switch.hostname.clone());
            if let Some(p) = pending.get_mut(name.as_str()) {
                p.switch.vlans.entry(vlan).or_insert(None);
                p.switch.mlag = Some(Mlag {
                    peer,
                    vip: vip.clone(),
                    system_mac: mac,
                    ipl_port_channel: pc,
                    ipl_vlan: vlan,
                    address: Some(addresses[i]),
                    peer_address: addresses[1 - i].addr,
                });
            }
        }
        out.push(Pair {
            switches,
            at,
            port_channel: pc,
            declared: true,
            linked: false,
        });
    }
    // Halves written out per switch.
    let mut halves: Vec<(String, Span)> = Vec::new();
    for (name, p) in pending.iter_mut() {
        let Some(h) = &raw.switches.0[p.index].1.mlag else {
            continue;
        };
        let at = cx.span(&h.system_mac);
        if let Some(first) = member.get(name) {
            cx.push(
                Diagnostic::error(
                    "E121",
                    format!("`{name}`'s MLAG half is written out and derived from a pair"),
                )
                .at(at, "written out")
                .also(*first, "pair"),
            );
            continue;
        }
        let vip = vip(cx, h.domain.as_ref(), h.vip.as_ref());
        let mac = mac(cx, &h.system_mac);
        let pc = cx.int(&h.ipl.port_channel, channel_id);
        let vlan = cx.int(&h.ipl.vlan, Vlan::new);
        let address = match &h.ipl.address {
            Some(a) => host_address(cx, a, "IPL address").map(Some),
            None => Some(None),
        };
        let peer_address = match h.ipl.peer.get().parse::<Ipv4Addr>() {
            Ok(a) => Some(a),
            Err(_) => {
                cx.error(
                    "E110",
                    format!("`{}` is not an IPv4 address", h.ipl.peer.get()),
                    cx.span(&h.ipl.peer),
                    "IPL peer",
                );
                None
            }
        };
        if let (Some(Some(address)), Some(peer)) = (address, peer_address)
            && (!address.contains(peer) || address.addr == peer)
        {
            cx.error(
                "E121",
                format!(
                    "IPL peer {peer} is not another address of {}",
                    address.network()
                ),
                cx.span(&h.ipl.peer),
                "IPL peer",
            );
            continue;
        }
        let (Some(vip), Some(mac), Some(pc), Some(vlan), Some(address), Some(peer_address)) =
            (vip, mac, pc, vlan, address, peer_address)
        else {
            continue;
        };
        p.switch.vlans.entry(vlan).or_insert(None);
        p.switch.mlag = Some(Mlag {
            peer: None,
            vip,
            system_mac: mac,
            ipl_port_channel: pc,
            ipl_vlan: vlan,
            address,
            peer_address,
        });
        halves.push((name.clone(), at));
    }
    // Two halves that match are a pair, checked like a declared one.
    for (i, (a, at)) in halves.iter().enumerate() {
        for (b, _) in &halves[i + 1..] {
            let (Some(ma), Some(mb)) = (
                pending.get(a.as_str()).and_then(|p| p.switch.mlag.clone()),
                pending.get(b.as_str()).and_then(|p| p.switch.mlag.clone()),
            ) else {
                continue;
            };
            let facing = Some(ma.peer_address) == mb.address.map(|a| a.addr)
                && Some(mb.peer_address) == ma.address.map(|a| a.addr);
            if !facing {
                continue;
            }
            if ma.system_mac != mb.system_mac
                || ma.ipl_vlan != mb.ipl_vlan
                || ma.vip != mb.vip
                || ma.address.map(|a| a.len) != mb.address.map(|a| a.len)
            {
                cx.push(
                    Diagnostic::error(
                        "E122",
                        format!("MLAG peers `{a}` and `{b}` disagree on their system MAC, domain, VIP or IPL VLAN"),
                    )
                    .at(*at, a.clone())
                    .help("the two halves of a pair share these; write the pair once under `mlag`"),
                );
                continue;
            }
            for (x, y) in [(a, b), (b, a)] {
                let peer = pending.get(y.as_str()).map(|p| p.switch.hostname.clone());
                if let Some(m) = pending
                    .get_mut(x.as_str())
                    .and_then(|p| p.switch.mlag.as_mut())
                {
                    m.peer = peer;
                }
            }
            out.push(Pair {
                switches: [a.clone(), b.clone()],
                at: *at,
                port_channel: ma.ipl_port_channel,
                declared: false,
                linked: false,
            });
        }
    }
    out
}

/// Each link's role applied to both ends; the routed cables, for the underlay.
fn link_roles(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    links: &[LinkPair],
    pairs: &mut [Pair],
) -> (Vec<RoutedEnd>, BTreeSet<usize>) {
    let default = if raw.routing.is_some() {
        LinkRole::Routed
    } else {
        LinkRole::Access
    };
    let all = raw.links.as_deref().unwrap_or(&[]);
    let mut routed = Vec::new();
    // Links whose role did not check: left out of the L2 topology, not reported again.
    let mut broken = BTreeSet::new();
    // Checked once per link, applied per cable.
    type Checked = Option<(LinkRole, Option<Vlan>, BTreeSet<Vlan>, Option<Bundle>)>;
    let mut roles: BTreeMap<usize, Checked> = BTreeMap::new();
    for ((sa, pa), (sb, pb), at_a, at_b, index) in links {
        let link = &all[*index];
        let role = roles.entry(*index).or_insert_with(|| {
            let role = match &link.role {
                Some(r) => cx.word(r, link_role)?,
                None => default,
            };
            let at = link.role.as_ref().map_or(*at_a, |r| cx.span(r));
            let vlan = link.vlan.as_ref().and_then(|v| cx.int(v, Vlan::new));
            let vlans: BTreeSet<Vlan> = link
                .vlans
                .iter()
                .flatten()
                .filter_map(|v| cx.int(v, Vlan::new))
                .collect();
            let lag = link.lag.as_ref().and_then(|v| cx.int(v, channel_id));
            let lacp = link.lacp.as_ref().and_then(|v| cx.word(v, lacp_mode));
            let mut wrong = |key: &str, why: &str| {
                cx.push(
                    Diagnostic::error("E123", format!("`{key}` {why}"))
                        .at(at, format!("role {}", role_word(role))),
                );
            };
            match role {
                LinkRole::Trunk | LinkRole::Lag if link.vlan.is_some() => {
                    wrong("vlan", "is for access links; a trunk or LAG lists `vlans`")
                }
                LinkRole::Routed | LinkRole::Ipl if link.vlan.is_some() || link.vlans.is_some() => {
                    wrong("vlan", "has no place on a routed link or a peer link")
                }
                LinkRole::Lag if link.lag.is_none() => {
                    wrong("lag", "is needed on a LAG link: its port-channel number")
                }
                LinkRole::Trunk if link.vlans.is_none() => {
                    wrong("vlans", "is needed on a trunk link: the VLANs it carries")
                }
                _ => {}
            }
            if link.lag.is_some() && role != LinkRole::Lag {
                wrong("lag", "is for `role: lag` links");
            }
            let bundle = match role {
                LinkRole::Lag => Some(Bundle {
                    mlag: false,
                    id: lag?,
                    lacp: lacp.unwrap_or(Lacp::Active),
                }),
                _ => None,
            };
            Some((role, vlan, vlans, bundle))
        });
        let Some((role, vlan, vlans, bundle)) = role.clone() else {
            broken.insert(*index);
            continue;
        };
        let mut bundle = bundle;
        if role == LinkRole::Routed {
            routed.push(((sa.clone(), *pa), (sb.clone(), *pb), *at_a, *at_b));
            continue;
        }
        if role == LinkRole::Ipl {
            let pair = pairs
                .iter_mut()
                .find(|p| p.switches.contains(sa) && p.switches.contains(sb) && sa != sb);
            match pair {
                Some(pair) => {
                    pair.linked = true;
                    bundle = Some(Bundle {
                        mlag: false,
                        id: pair.port_channel,
                        lacp: Lacp::Active,
                    });
                }
                None => {
                    cx.push(
                        Diagnostic::error(
                            "E121",
                            format!(
                                "peer link between `{sa}` and `{sb}`, which are not an MLAG pair"
                            ),
                        )
                        .at(*at_a, sa.clone())
                        .also(*at_b, sb.clone())
                        .help(format!(
                            "declare the pair under `mlag`: `switches: [{sa}, {sb}]`"
                        )),
                    );
                    broken.insert(*index);
                    continue;
                }
            }
        }
        for ((name, port), at) in [((sa, *pa), *at_a), ((sb, *pb), *at_b)] {
            let Some(p) = pending.get_mut(name.as_str()) else {
                continue;
            };
            for v in vlan.iter().chain(&vlans) {
                if v.get() != 1 && !p.switch.vlans.contains_key(v) {
                    cx.push(
                        Diagnostic::error("E062", format!("VLAN {v} is not declared on `{name}`"))
                            .at(at, "carried here")
                            .help(format!("add `- id: {v}` under `vlans`")),
                    );
                }
            }
            let Some(s) = p.switch.ports.get_mut(&port) else {
                continue;
            };
            match role {
                LinkRole::Routed => {}
                LinkRole::Access => {
                    if let (Some(had), Some(v)) = (s.vlan, vlan)
                        && had != v
                    {
                        cx.push(
                            Diagnostic::error(
                                "E123",
                                format!(
                                    "{name}:{port} is in VLAN {had} but its link carries VLAN {v}"
                                ),
                            )
                            .at(at, "this link end"),
                        );
                    }
                    if vlan.is_some() {
                        s.vlan = vlan;
                    }
                }
                LinkRole::Trunk => {
                    s.switchport = Some(SwitchportMode::Trunk);
                    s.trunk = Some(vlans.clone());
                }
                LinkRole::Lag | LinkRole::Ipl => {
                    if role == LinkRole::Lag && !vlans.is_empty() {
                        s.switchport = Some(SwitchportMode::Trunk);
                        s.trunk = Some(vlans.clone());
                    }
                    s.bundle = bundle;
                }
            }
        }
    }
    (routed, broken)
}

fn role_word(r: LinkRole) -> &'static str {
    match r {
        LinkRole::Routed => "routed",
        LinkRole::Access => "access",
        LinkRole::Trunk => "trunk",
        LinkRole::Lag => "lag",
        LinkRole::Ipl => "ipl",
    }
}

/// Routed host ports and host bundles from the port map, onto the resolved ports.
fn host_ports(cx: &mut Cx, pending: &mut BTreeMap<String, Pending>) {
    for (name, p) in pending.iter_mut() {
        for (port, (net, at)) in &p.addresses {
            if let Some(s) = p.switch.ports.get_mut(port) {
                s.address = Some(*net);
            } else {
                cx.error(
                    "E116",
                    format!("{name}:{port} is not a usable port"),
                    *at,
                    "address here",
                );
            }
        }
        for (port, (b, at)) in &p.bundles {
            let Some(s) = p.switch.ports.get_mut(port) else {
                continue;
            };
            if let Some(other) = s.bundle
                && other != *b
            {
                cx.push(
                    Diagnostic::error(
                        "E118",
                        format!(
                            "{name}:{port} joins a port-channel of a link and one of the port map"
                        ),
                    )
                    .at(*at, "port map"),
                );
                continue;
            }
            s.bundle = Some(*b);
        }
    }
}

/// A routed port (a routed link's end, or a port with an `address`) carries no switchport
/// settings.
fn routed_ports(cx: &mut Cx, pending: &BTreeMap<String, Pending>, routed: &[RoutedEnd]) {
    let mut bad: BTreeMap<(String, Span), Vec<Port>> = BTreeMap::new();
    let ends = routed
        .iter()
        .flat_map(|(a, b, at_a, at_b)| [(a, *at_a), (b, *at_b)]);
    let entries = pending.iter().flat_map(|(name, p)| {
        p.addresses
            .iter()
            .map(move |(port, (_, at))| ((name, port), *at))
    });
    let mut seen = BTreeSet::new();
    for ((name, port), at) in ends.map(|((n, p), at)| ((n, p), at)).chain(entries) {
        if !seen.insert((name.clone(), *port)) {
            continue;
        }
        let Some(s) = pending
            .get(name.as_str())
            .and_then(|p| p.switch.ports.get(port))
        else {
            continue;
        };
        if s.switchport.is_some() || s.vlan.is_some() || s.trunk.is_some() || s.bundle.is_some() {
            bad.entry((name.clone(), at)).or_default().push(*port);
        }
    }
    for ((name, at), ports) in bad {
        cx.push(
            Diagnostic::error(
                "E116",
                format!(
                    "routed {} of `{name}` also {} switchport settings",
                    describe_ports(&ports),
                    if ports.len() == 1 { "has" } else { "have" }
                ),
            )
            .at(at, "routed here")
            .help("a routed port (`no switchport force`) carries no VLAN, trunk or port-channel; remove them from its entry, profile or `port_defaults`"),
        );
    }
}

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

fn ipv4(cx: &mut Cx, v: &Sp<String>, what: &str) -> Option<Ipv4Addr> {
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
}

/// The routed underlay: AS numbers, loopbacks and router-ids, a subnet per routed cable, BGP
/// sessions; and what switches write out of it.
fn underlay(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    routed: &[RoutedEnd],
) {
    let r = raw.routing.as_ref();
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

    // Each switch's AS, loopback and router-id: written, else from its role.
    let routed_switches: BTreeSet<&str> = routed
        .iter()
        .flat_map(|(a, b, _, _)| [a.0.as_str(), b.0.as_str()])
        .collect();
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    for (name, p) in pending.iter_mut() {
        let (key, rs) = &raw.switches.0[p.index];
        let at = cx.span(key);
        let bgp = rs.bgp.as_ref();
        let scheme = match p.switch.role {
            Some(role) => match schemes.get(&role) {
                Some(s) => Some(*s),
                None => {
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
                    continue;
                }
            },
            None => None,
        };
        let needs_id = scheme.is_some_and(|(shared, _, pool, _)| {
            (rs.asn.is_none() && bgp.and_then(|b| b.asn.as_ref()).is_none() && shared.is_none())
                || (rs.loopback.is_none() && pool.is_some())
        });
        let id = if needs_id {
            match switch_id(cx, rs, name, at) {
                Some(id) => Some(id),
                None => continue,
            }
        } else {
            None
        };
        let explicit_asn = match (&rs.asn, bgp.and_then(|b| b.asn.as_ref())) {
            (Some(a), Some(b)) => {
                cx.push(
                    Diagnostic::error("E113", format!("`{name}`'s AS is written twice"))
                        .at(cx.span(b), "here")
                        .also(cx.span(a), "and here"),
                );
                continue;
            }
            (Some(v), None) | (None, Some(v)) => match as_number(cx, v) {
                Some(n) => Some(n),
                None => continue,
            },
            (None, None) => None,
        };
        let asn = explicit_asn.or_else(|| {
            let (shared, base, _, sat) = scheme?;
            shared.or_else(|| {
                let n = u64::from(base?) + id?;
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
        });
        let loopback = match &rs.loopback {
            Some(v) => ipv4(cx, v, "loopback"),
            None => scheme.and_then(|(_, _, pool, sat)| {
                let (pool, id) = (pool?, id?);
                match pool.nth(id) {
                    Some(a) => Some(a),
                    None => {
                        cx.push(
                            Diagnostic::error(
                                "E114",
                                format!(
                                    "the {} loopback pool {pool} has no address for id {id} (`{name}`)",
                                    p.switch.role.map_or("", |r| if r == Role::Leaf { "leaf" } else { "spine" })
                                ),
                            )
                            .at(sat, "pool")
                            .also(at, "this switch"),
                        );
                        None
                    }
                }
            }),
        };
        p.switch.loopback = loopback;
        let router_id = match bgp.and_then(|b| b.router_id.as_ref()) {
            Some(v) => ipv4(cx, v, "router-id"),
            None => loopback,
        };
        if let Some(asn) = asn {
            let Some(router_id) = router_id else {
                // A role whose loopback pool did not check was reported already.
                let pool_failed =
                    rs.loopback.is_none() && scheme.is_some_and(|(_, _, pool, _)| pool.is_none());
                if pool_failed {
                    continue;
                }
                cx.push(
                    Diagnostic::error("E113", format!("`{name}` runs BGP without a router-id"))
                        .at(at, "this switch")
                        .help("give it a `loopback` (or a role whose pool gives one), or `bgp: { router_id: A }`"),
                );
                continue;
            };
            nodes.insert(
                name.clone(),
                Node {
                    role: p.switch.role,
                    id,
                    asn,
                    router_id,
                    at,
                },
            );
        } else if routed_switches.contains(name.as_str()) {
            cx.push(
                Diagnostic::error("E111", format!("`{name}` has routed links but no AS"))
                    .at(at, "this switch")
                    .help("give it a `role` (`leaf` or `spine`) with `routing`, or an `asn`"),
            );
        } else if bgp.is_some() {
            cx.push(
                Diagnostic::error("E113", format!("`{name}` has `bgp` but no AS"))
                    .at(at, "this switch")
                    .help("add `bgp: { asn: N }`, or give it a `role`"),
            );
        }
        let routes = asn.is_some()
            || !p.switch.gateways.is_empty()
            || p.switch.mlag.is_some()
            || p.switch.ports.values().any(|s| s.address.is_some());
        if routes {
            p.switch.hashing = hashing.clone();
        }
    }
    // Duplicates: ids within a role, router-ids and loopbacks, per-switch AS numbers.
    let mut ids: BTreeMap<(Role, u64), &str> = BTreeMap::new();
    let mut rids: BTreeMap<Ipv4Addr, &str> = BTreeMap::new();
    let mut asns: BTreeMap<u32, &str> = BTreeMap::new();
    let mut dups = Vec::new();
    for (name, n) in &nodes {
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
        cx.push(
            Diagnostic::error(code, msg)
                .at(nodes[&b].at, b.clone())
                .also(nodes[&a].at, a.clone()),
        );
    }

    // Routed cables: written addresses at both ends, else a subnet from the leaf's id and
    // port.
    let mut sessions: BTreeMap<String, BTreeMap<Ipv4Addr, super::super::Neighbor>> =
        BTreeMap::new();
    for ((sa, pa), (sb, pb), at_a, at_b) in routed {
        let written = |name: &str, port: &Port| {
            pending
                .get(name)
                .and_then(|p| p.addresses.get(port))
                .map(|(n, _)| *n)
        };
        let addresses = match (written(sa, pa), written(sb, pb)) {
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
                    continue;
                }
                Some((x, y))
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
                continue;
            }
            (None, None) => None,
        };
        let (Some(na), Some(nb)) = (nodes.get(sa), nodes.get(sb)) else {
            continue;
        };
        let (xa, xb) = match addresses {
            Some(two) => two,
            None => {
                let (leaf_is_a, leaf) = match (na.role, nb.role) {
                    (Some(Role::Leaf), Some(Role::Spine)) => (true, na),
                    (Some(Role::Spine), Some(Role::Leaf)) => (false, nb),
                    _ => {
                        cx.push(
                            Diagnostic::error(
                                "E123",
                                format!("routed link {sa}:{pa} – {sb}:{pb} needs `address` at both ends: only a link between a leaf and a spine gets one from `routing.links`"),
                            )
                            .at(*at_a, sa.clone())
                            .also(*at_b, sb.clone()),
                        );
                        continue;
                    }
                };
                let (Some(pool), Some(len), Some(id)) = (
                    links_pool,
                    prefix,
                    leaf.id.or_else(|| {
                        let (key, rs) =
                            &raw.switches.0[pending.get(if leaf_is_a { sa } else { sb })?.index];
                        let at = cx.span(key);
                        switch_id(cx, rs, if leaf_is_a { sa } else { sb }, at)
                    }),
                ) else {
                    if links_pool.is_none() {
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
                    continue;
                };
                let leaf_port = if leaf_is_a { *pa } else { *pb };
                let index = (id - 1) * SLOTS_PER_SWITCH + slot(leaf_port);
                let Some(net) = pool.subnet(len, index) else {
                    cx.push(
                        Diagnostic::error(
                            "E114",
                            format!(
                                "the routed-link pool {pool} has no /{len} for {}:{leaf_port} (leaf id {id})",
                                if leaf_is_a { sa } else { sb }
                            ),
                        )
                        .at(if leaf_is_a { *at_a } else { *at_b }, "this link")
                        .help(format!(
                            "a leaf takes {SLOTS_PER_SWITCH} subnets of /{len}: leaf ids up to {id} need a pool of {} addresses or more",
                            id * SLOTS_PER_SWITCH * (1u64 << (32 - u32::from(len)))
                        )),
                    );
                    continue;
                };
                // The spine takes the first address, the leaf the next (/31: both; /30: hosts
                // 1 and 2).
                let first = u64::from(len == 30);
                let (Some(spine_addr), Some(leaf_addr)) = (net.nth(first), net.nth(first + 1))
                else {
                    continue;
                };
                let (s_net, l_net) = (
                    Ipv4Net {
                        addr: spine_addr,
                        len,
                    },
                    Ipv4Net {
                        addr: leaf_addr,
                        len,
                    },
                );
                if leaf_is_a {
                    (l_net, s_net)
                } else {
                    (s_net, l_net)
                }
            }
        };
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
                },
            );
        }
    }

    let fabric_paths = r.and_then(|r| r.maximum_paths.as_ref());
    for (name, n) in &nodes {
        let Some(p) = pending.get_mut(name.as_str()) else {
            continue;
        };
        let bgp = raw.switches.0[p.index].1.bgp.as_ref();
        let mut neighbors = sessions.remove(name).unwrap_or_default();
        for nb in bgp.iter().flat_map(|b| b.neighbors.iter().flatten()) {
            let (Some(a), Some(asn)) = (
                ipv4(cx, &nb.address, "neighbor"),
                as_number(cx, &nb.remote_as),
            ) else {
                continue;
            };
            if neighbors.contains_key(&a) {
                cx.error(
                    "E115",
                    format!("neighbor {a} of `{name}` is also the far end of a routed link"),
                    cx.span(&nb.address),
                    "written twice",
                );
                continue;
            }
            neighbors.insert(a, super::super::Neighbor { asn, link: None });
        }
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
                let Some(m) = paths(cx, v) else { continue };
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
        let mut networks: BTreeSet<Ipv4Net> = p
            .switch
            .loopback
            .map(|addr| Ipv4Net { addr, len: 32 })
            .into_iter()
            .collect();
        networks.extend(p.switch.gateways.values().map(|g| g.network()));
        let link_ports: BTreeSet<Port> = neighbors
            .values()
            .filter_map(|nb| nb.link.as_ref().map(|l| l.1))
            .collect();
        networks.extend(
            p.switch
                .ports
                .iter()
                .filter(|(port, _)| !link_ports.contains(port))
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
        p.switch.routing = Some(Routing {
            asn: n.asn,
            router_id: n.router_id,
            multipath_relax,
            neighbors,
            networks,
            maximum_paths,
        });
    }
}

/// One role's numbering: a shared AS or a base for one AS per switch, the loopback pool, and
/// where it is written.
type Scheme = (Option<u32>, Option<u32>, Option<Ipv4Net>, Span);

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
    (shared, base, loopbacks, at)
}

/// Port-channels and MLAG port-channels: members agree, the bundle takes their L2 and QoS
/// settings; an MLAG port-channel is on a pair's switch, and both switches agree on it.
fn bundles(cx: &mut Cx, pending: &mut BTreeMap<String, Pending>, pairs: &[Pair]) {
    let empty_at = |cx: &Cx| Span {
        file: cx.file,
        start: 0,
        end: 0,
    };
    for (name, p) in pending.iter_mut() {
        let mut groups: BTreeMap<(bool, u16), Vec<(Port, PortSettings)>> = BTreeMap::new();
        for (port, s) in &p.switch.ports {
            if let Some(b) = s.bundle {
                groups
                    .entry((b.mlag, b.id))
                    .or_default()
                    .push((*port, s.clone()));
            }
        }
        for ((mlag, id), members) in groups {
            let at = p
                .bundles
                .get(&members[0].0)
                .map_or_else(|| empty_at(cx), |(_, at)| *at);
            if mlag && p.switch.mlag.is_none() {
                cx.push(
                    Diagnostic::error(
                        "E121",
                        format!("`{name}` has MLAG port-channel {id} but is not in an MLAG pair"),
                    )
                    .at(at, "MLAG port-channel")
                    .help("declare the pair under `mlag`, or use `lag` for a bundle to this switch alone"),
                );
                continue;
            }
            let first = &members[0].1;
            let same = |a: &PortSettings, b: &PortSettings| {
                a.speed == b.speed
                    && a.mtu == b.mtu
                    && a.trust == b.trust
                    && a.pfc == b.pfc
                    && a.ecn == b.ecn
                    && a.ets == b.ets
                    && a.vlan == b.vlan
                    && a.trunk == b.trunk
                    && a.bundle.map(|b| b.lacp) == b.bundle.map(|b| b.lacp)
            };
            let odd: Vec<Port> = members
                .iter()
                .filter(|(_, s)| !same(first, s))
                .map(|(port, _)| *port)
                .collect();
            if !odd.is_empty() {
                cx.push(
                    Diagnostic::error(
                        "E118",
                        format!(
                            "members of {}port-channel {id} on `{name}` disagree: {} {} from {} (speed, MTU, QoS, VLANs or LACP mode)",
                            if mlag { "MLAG " } else { "" },
                            describe_ports(&odd),
                            if odd.len() == 1 { "differs" } else { "differ" },
                            members[0].0
                        ),
                    )
                    .at(at, "bundle"),
                );
                continue;
            }
            let settings = PortSettings {
                speed: None,
                mtu: first.mtu,
                shutdown: false,
                switchport: first.switchport,
                vlan: first.vlan,
                trust: first.trust,
                ecn: first.ecn,
                ets: first.ets,
                pfc: first.pfc,
                description: None,
                peer: first.peer.clone(),
                address: None,
                bundle: None,
                trunk: first.trunk.clone(),
            };
            p.switch.bundles.insert((mlag, id), settings);
        }
    }
    // Both switches of a pair agree on each MLAG port-channel.
    for pair in pairs {
        let [a, b] = &pair.switches;
        let (Some(pa), Some(pb)) = (pending.get(a.as_str()), pending.get(b.as_str())) else {
            continue;
        };
        let ids: BTreeSet<u16> = pa
            .switch
            .bundles
            .keys()
            .chain(pb.switch.bundles.keys())
            .filter(|(m, _)| *m)
            .map(|(_, id)| *id)
            .collect();
        for id in ids {
            let (x, y) = (
                pa.switch.bundles.get(&(true, id)),
                pb.switch.bundles.get(&(true, id)),
            );
            let differ = match (x, y) {
                (Some(x), Some(y)) => {
                    x.mtu != y.mtu
                        || x.vlan != y.vlan
                        || x.trunk != y.trunk
                        || x.switchport != y.switchport
                        || x.trust != y.trust
                        || x.pfc != y.pfc
                        || x.ecn != y.ecn
                        || x.ets != y.ets
                }
                _ => false,
            };
            if differ {
                cx.push(
                    Diagnostic::error(
                        "E122",
                        format!("MLAG port-channel {id} differs between `{a}` and `{b}` (VLANs, MTU or QoS)"),
                    )
                    .at(pair.at, "this pair")
                    .help("give the member ports on both switches the same profile"),
                );
            }
        }
    }
}

/// The L2 topology between switches: no parallel L2 cables outside a LAG, no loop. An MLAG
/// pair counts as one switch (its peer link inside it; a bundle to both is one cable).
fn l2_topology(
    cx: &mut Cx,
    pending: &BTreeMap<String, Pending>,
    links: &[LinkPair],
    broken: &BTreeSet<usize>,
    pairs: &[Pair],
) {
    let node = |name: &str| -> String {
        pairs
            .iter()
            .find(|p| p.switches.iter().any(|s| s == name))
            .map_or(name.to_string(), |p| {
                format!("{}+{}", p.switches[0], p.switches[1])
            })
    };
    // Edges: one per L2 cable, one per bundle.
    /// An L2 path: its bundle (if any), where its ends are written, what it joins.
    type Path = (Option<(bool, u16)>, Span, Span, String);
    let mut edges: BTreeMap<(String, String), Vec<Path>> = BTreeMap::new();
    for ((sa, pa), (sb, pb), at_a, at_b, index) in links {
        if broken.contains(index) {
            continue;
        }
        let (Some(x), Some(y)) = (
            pending
                .get(sa.as_str())
                .and_then(|p| p.switch.ports.get(pa)),
            pending
                .get(sb.as_str())
                .and_then(|p| p.switch.ports.get(pb)),
        ) else {
            continue;
        };
        if x.address.is_some() || y.address.is_some() {
            continue;
        }
        let (na, nb) = (node(sa), node(sb));
        if na == nb {
            continue;
        }
        let key = if na < nb { (na, nb) } else { (nb, na) };
        let bundle = x.bundle.map(|b| (b.mlag, b.id));
        let list = edges.entry(key).or_default();
        if bundle.is_some() && list.iter().any(|(b, ..)| *b == bundle) {
            continue;
        }
        list.push((bundle, *at_a, *at_b, format!("{sa}:{pa} – {sb}:{pb}")));
    }
    // Parallel L2 paths between two switches.
    for ((a, b), list) in &edges {
        if list.len() > 1 {
            let (_, at_a, at_b, first) = &list[0];
            let (_, at_c, _, second) = &list[1];
            cx.push(
                Diagnostic::error(
                    "E119",
                    format!("{} L2 paths between `{a}` and `{b}` outside one LAG: spanning tree blocks all but one, or they loop", list.len()),
                )
                .at(*at_c, second.clone())
                .also(*at_a, first.clone())
                .also(*at_b, "other end")
                .help("bundle the cables in one port-channel (`role: lag`), or route them (`role: routed`)"),
            );
        }
    }
    // A loop through three switches or more: union-find over the edges.
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    fn find(parent: &mut BTreeMap<String, String>, x: &str) -> String {
        let mut cur = x.to_string();
        while let Some(p) = parent.get(&cur) {
            if *p == cur {
                break;
            }
            cur = p.clone();
        }
        cur
    }
    for ((a, b), list) in &edges {
        for n in [a, b] {
            parent.entry(n.clone()).or_insert_with(|| n.clone());
        }
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra == rb {
            let (_, at_a, at_b, what) = &list[0];
            cx.push(
                Diagnostic::error(
                    "E120",
                    format!("the L2 links close a loop: `{a}` and `{b}` are already joined at L2 through other switches"),
                )
                .at(*at_a, what.clone())
                .also(*at_b, "other end")
                .help("route this link (`role: routed`), or remove it: a loop floods broadcast and, with PFC, can deadlock the fabric"),
            );
        } else {
            parent.insert(ra, rb);
        }
    }
}
