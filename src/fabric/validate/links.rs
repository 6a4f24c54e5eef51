//! Links and their roles (routed, access, trunk, LAG, MLAG peer link): one role per link,
//! applied to both ends; the routed cables handed to the underlay; the check that a routed
//! port carries no switchport settings; and that both ends of a cable run alike (E051).

use std::collections::{BTreeMap, BTreeSet};

use super::super::raw::{RawFabric, RawLink};
use super::super::{Bundle, Lacp};
use super::bundles::{channel_id, lacp_mode};
use super::mlag::Pair;
use super::ports::LinkEnd;
use super::{Cx, LinkPair, Pending, describe_ports};
use crate::diag::{Diagnostic, Span};
use crate::types::{Ecn, Port, SwitchportMode, TrafficClass, Vlan, choose};

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

/// A routed cable's two ends, as `resolve` found them.
pub(crate) type RoutedEnd = ((String, Port), (String, Port), Span, Span);

/// A link's role with its VLAN, VLANs and bundle: checked once per link, applied per cable;
/// `None` when the role did not check.
type Checked = Option<(LinkRole, Option<Vlan>, BTreeSet<Vlan>, Option<Bundle>)>;

/// Each link's role applied to both ends; the routed cables, for the underlay.
pub(crate) fn link_roles(
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
    let mut roles: BTreeMap<usize, Checked> = BTreeMap::new();
    for cable in links {
        let ((sa, pa), (sb, pb), at_a, at_b, index) = cable;
        let role = roles
            .entry(*index)
            .or_insert_with(|| checked_role(cx, &all[*index], default, *at_a));
        let Some((role, vlan, vlans, mut bundle)) = role.clone() else {
            broken.insert(*index);
            continue;
        };
        if role == LinkRole::Routed {
            routed.push(((sa.clone(), *pa), (sb.clone(), *pb), *at_a, *at_b));
            continue;
        }
        if role == LinkRole::Ipl {
            let Some(ipl) = peer_link(cx, pairs, cable) else {
                broken.insert(*index);
                continue;
            };
            bundle = Some(ipl);
        }
        apply_role(cx, pending, cable, (role, vlan, &vlans, bundle));
    }
    (routed, broken)
}

/// One link's role (written, else `default`), VLAN, VLANs and bundle, each checked; keys
/// the role has no place for, or lacks, are E123 at the role (or at end a, `at_a`).
fn checked_role(cx: &mut Cx, link: &RawLink, default: LinkRole, at_a: Span) -> Checked {
    let role = match &link.role {
        Some(r) => cx.word(r, link_role)?,
        None => default,
    };
    let at = link.role.as_ref().map_or(at_a, |r| cx.span(r));
    let vlan = link.vlan.as_ref().and_then(|v| cx.int(v, Vlan::new));
    let vlans: BTreeSet<Vlan> = link
        .vlans
        .iter()
        .flatten()
        .filter_map(|v| cx.int(v, Vlan::new))
        .collect();
    let lag = link.lag.as_ref().and_then(|v| cx.int(v, channel_id));
    let lacp = link.lacp.as_ref().and_then(|v| cx.word(v, lacp_mode));
    role_keys(cx, link, role, at);
    let bundle = match role {
        LinkRole::Lag => Some(Bundle {
            mlag: false,
            id: lag?,
            lacp: lacp.unwrap_or(Lacp::Active),
        }),
        _ => None,
    };
    Some((role, vlan, vlans, bundle))
}

/// The keys a link's role has no place for, or needs (E123, at `at`).
fn role_keys(cx: &mut Cx, link: &RawLink, role: LinkRole, at: Span) {
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
}

/// A peer link's bundle: the port-channel of the MLAG pair it joins (marked linked); between
/// switches that are not a pair, E121 and `None`.
fn peer_link(cx: &mut Cx, pairs: &mut [Pair], cable: &LinkPair) -> Option<Bundle> {
    let ((sa, _), (sb, _), at_a, at_b, _) = cable;
    let pair = pairs
        .iter_mut()
        .find(|p| p.switches.contains(sa) && p.switches.contains(sb) && sa != sb);
    let Some(pair) = pair else {
        cx.push(
            Diagnostic::error(
                "E121",
                format!("peer link between `{sa}` and `{sb}`, which are not an MLAG pair"),
            )
            .at(*at_a, sa.clone())
            .also(*at_b, sb.clone())
            .help(format!(
                "declare the pair under `mlag`: `switches: [{sa}, {sb}]`"
            )),
        );
        return None;
    };
    pair.linked = true;
    Some(Bundle {
        mlag: false,
        id: pair.port_channel,
        lacp: Lacp::Active,
    })
}

/// A cable's role applied to both its ends: the VLANs it carries declared on each switch
/// (E062), and each end's access VLAN (another than its port's is E123), trunk or bundle.
fn apply_role(
    cx: &mut Cx,
    pending: &mut BTreeMap<String, Pending>,
    ((sa, pa), (sb, pb), at_a, at_b, _): &LinkPair,
    (role, vlan, vlans, bundle): (LinkRole, Option<Vlan>, &BTreeSet<Vlan>, Option<Bundle>),
) {
    for ((name, port), at) in [((sa, *pa), *at_a), ((sb, *pb), *at_b)] {
        let Some(p) = pending.get_mut(name.as_str()) else {
            continue;
        };
        for v in vlan.iter().chain(vlans) {
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
                            format!("{name}:{port} is in VLAN {had} but its link carries VLAN {v}"),
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

fn role_word(r: LinkRole) -> &'static str {
    match r {
        LinkRole::Routed => "routed",
        LinkRole::Access => "access",
        LinkRole::Trunk => "trunk",
        LinkRole::Lag => "lag",
        LinkRole::Ipl => "ipl",
    }
}

/// A routed port (a routed link's end, or a port with an `address`) carries no switchport
/// settings.
pub(crate) fn routed_ports(cx: &mut Cx, pending: &BTreeMap<String, Pending>, routed: &[RoutedEnd]) {
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

/// E051: both ends of every cable run alike, in the OS-neutral terms of `fabric::meaning`
/// ([`LinkEnd`]): speed, MTU, trust, the priorities they pause, their scheduler, and ECN on
/// each class either end pauses. Each end's port is named as its OS names it, and each value
/// is shown where it is set.
pub(crate) fn ends_agree(
    cx: &mut Cx,
    link_pairs: &[LinkPair],
    ends: &BTreeMap<(String, Port), LinkEnd>,
) {
    for ((sa, pa), (sb, pb), at_a, at_b, _) in link_pairs {
        let (Some(a), Some(b)) = (ends.get(&(sa.clone(), *pa)), ends.get(&(sb.clone(), *pb)))
        else {
            continue;
        };
        let one = |v: &(String, Option<Span>)| (v.0.clone(), v.1.into_iter().collect());
        let mut found: Vec<(String, Found, Found)> = Vec::new();
        for (what, va, vb) in [
            ("speed", &a.speed, &b.speed),
            ("mtu", &a.mtu, &b.mtu),
            ("trust", &a.trust, &b.trust),
        ] {
            if va.0 != vb.0 {
                found.push((what.to_string(), one(va), one(vb)));
            }
        }
        if a.pauses.0 != b.pauses.0 {
            let side = |e: &LinkEnd| (pauses(&e.pauses.0), e.pauses.1.into_iter().collect());
            found.push(("pfc".to_string(), side(a), side(b)));
        }
        if a.schedule != b.schedule {
            let differ: Vec<TrafficClass> = TrafficClass::ALL
                .into_iter()
                .filter(|t| a.schedule.get(*t) != b.schedule.get(*t))
                .collect();
            let side = |e: &LinkEnd| {
                let at = differ.iter().filter_map(|t| e.ets_at.get(t).copied());
                (
                    e.schedule.to_string(),
                    at.collect::<BTreeSet<Span>>().into_iter().collect(),
                )
            };
            found.push(("ets".to_string(), side(a), side(b)));
        }
        for p in a.pauses.0.union(&b.pauses.0) {
            let Ok(tc) = TrafficClass::new(i64::from(*p)) else {
                continue;
            };
            let (ea, eb) = (a.ecn.get(&tc), b.ecn.get(&tc));
            if ea.map(|e| e.0) != eb.map(|e| e.0) {
                let side = |e: Option<&(Ecn, Span)>| {
                    (
                        ecn_text(e.map(|x| x.0)),
                        e.map(|x| x.1).into_iter().collect(),
                    )
                };
                let what = format!("ecn` of lossless traffic class `{tc}");
                found.push((what, side(ea), side(eb)));
            }
        }
        for (what, (va, wa), (vb, wb)) in found {
            let (na, nb) = (a.os.port_name(*pa), b.os.port_name(*pb));
            let d = Diagnostic::error(
                "E051",
                format!(
                    "link ends disagree on `{what}`: `{sa}` {na} has {va}, `{sb}` {nb} has {vb}"
                ),
            );
            let ends = [
                (wa, format!("{sa}:{na}"), *at_a, va),
                (wb, format!("{sb}:{nb}"), *at_b, vb),
            ];
            cx.push(
                at_the_line_to_change(cx, d, ends)
                    .help("give both ends the same profile, or set the value at both ends"),
            );
        }
    }
}

/// One end of a cable as a diagnostic shows it: where its value is set, its name, where the
/// link names it, its value.
pub(crate) type EndAt = (Vec<Span>, String, Span, String);

/// A cable's ends that disagree: the primary label at the line to change, the one end's
/// value its switch sets for itself where the other's comes from the fabric (a switch's
/// `qos: { pfc: false }` against the fabric's recipe, a port entry's `mtu` against
/// `port_defaults`); else at the link. Every other place is a secondary label.
pub(crate) fn at_the_line_to_change(cx: &Cx, d: Diagnostic, ends: [EndAt; 2]) -> Diagnostic {
    let own = |e: &EndAt| !e.0.is_empty() && e.0.iter().all(|s| cx.own(*s));
    let lone = match (own(&ends[0]), own(&ends[1])) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    };
    // One place for both ends (an MLAG pair's line): named once.
    let shared = ends[0].2 == ends[1].2;
    let mut d = match lone {
        Some(i) => {
            let e = &ends[i];
            d.at(e.0[0], format!("{} gets {} here", e.1, e.3))
        }
        None if shared => d.at(ends[0].2, "this pair"),
        None => d.at(ends[0].2, ends[0].1.clone()),
    };
    // Each end's place on the link, unless the primary label is there already.
    let mut shown = lone.is_none().then_some(ends[0].2);
    for (_, name, link, _) in &ends {
        if shown == Some(*link) {
            continue;
        }
        d = d.also(*link, if shared { "this pair" } else { name.as_str() });
        shown = shared.then_some(*link);
    }
    for (i, (spans, name, _, value)) in ends.iter().enumerate() {
        for (k, s) in spans.iter().enumerate() {
            if lone != Some(i) || k > 0 {
                d = d.also(*s, format!("{name} gets {value} here"));
            }
        }
    }
    d
}

/// A value of one end for a message, and where the user set it.
type Found = (String, Vec<Span>);

/// `PFC on priority 3`, `PFC on priorities 3,4`, `no PFC`.
fn pauses(p: &BTreeSet<u8>) -> String {
    let list: Vec<String> = p.iter().map(ToString::to_string).collect();
    match list.len() {
        0 => "no PFC".to_string(),
        1 => format!("PFC on priority {}", list[0]),
        _ => format!("PFC on priorities {}", list.join(",")),
    }
}

/// `ECN at 150-1500 KB`, `ECN at 10-50 %`, `RED at …`, `no ECN`.
fn ecn_text(e: Option<Ecn>) -> String {
    let Some(e) = e else {
        return "no ECN".to_string();
    };
    let mode = match e.mode {
        crate::types::EcnMode::Ecn => "ECN",
        crate::types::EcnMode::Red => "RED",
        crate::types::EcnMode::Both => "ECN and RED",
    };
    match e.thresholds {
        crate::types::EcnThresholds::Absolute { min, max } => format!("{mode} at {min}-{max} KB"),
        crate::types::EcnThresholds::Relative { min, max } => format!("{mode} at {min}-{max} %"),
    }
}
