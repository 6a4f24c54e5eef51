//! Port-channels and MLAG port-channels: their numbers and LACP modes as written, members
//! that agree and reach one device, the bundle taking its members' L2 and QoS settings, and
//! an MLAG port-channel equal on both switches of its pair.

use std::collections::{BTreeMap, BTreeSet};

use super::super::{Lacp, Peer, PortSettings};
use super::mlag::Pair;
use super::{At, Cx, Pending, SetAt, describe_ports};
use crate::diag::{Diagnostic, Span};
use crate::types::{Port, choose};

/// Port-channel and MLAG port-channel numbers Onyx takes (Interface Commands: `interface
/// port-channel 1-4096`; a switch has far fewer). UNCONFIRMED upper bound.
const MAX_CHANNEL: i64 = 4096;

pub(crate) fn channel_id(v: i64) -> Result<u16, String> {
    if (1..=MAX_CHANNEL).contains(&v) {
        Ok(v as u16)
    } else {
        Err(format!("port-channel {v} is out of range 1-{MAX_CHANNEL}"))
    }
}

pub(crate) fn lacp_mode(s: &str) -> Result<Lacp, crate::types::Invalid> {
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

/// What a port-map entry says of the bundle its ports join, each where it is written.
#[derive(Clone, Debug, Default)]
pub(crate) struct BundleKeys {
    /// `lacp_individual`.
    pub(crate) individual: Option<At<bool>>,
    /// `bundle_description`.
    pub(crate) description: Option<At<String>>,
}

impl BundleKeys {
    fn individual(k: Option<&BundleKeys>) -> bool {
        k.and_then(|k| k.individual.as_ref()).is_some_and(|x| x.0)
    }

    fn description(k: Option<&BundleKeys>) -> Option<&String> {
        k.and_then(|k| k.description.as_ref()).map(|x| &x.0)
    }
}

/// `lacp_individual` and `bundle_description` on ports that join no bundle (E118), one
/// diagnostic per key written, listing its ports.
fn stray_keys(cx: &mut Cx, name: &str, p: &Pending) {
    let mut stray: BTreeMap<(Span, &str), Vec<Port>> = BTreeMap::new();
    for (port, k) in &p.bundle_keys {
        if p.switch.ports.get(port).is_some_and(|s| s.bundle.is_some()) {
            continue;
        }
        let written = [
            ("lacp_individual", k.individual.as_ref().map(|x| x.1)),
            ("bundle_description", k.description.as_ref().map(|x| x.1)),
        ];
        for (key, at) in written {
            if let Some(at) = at {
                stray.entry((at, key)).or_default().push(*port);
            }
        }
    }
    for ((at, key), ports) in stray {
        cx.push(
            Diagnostic::error(
                "E118",
                format!(
                    "`{key}` on {} of `{name}`, which join no bundle",
                    describe_ports(&ports)
                ),
            )
            .at(at, "a bundle's key")
            .help(
                "give the ports `mlag: N` or `lag: N` (or a `role: lag` link), or remove the key",
            ),
        );
    }
}

/// Port-channels and MLAG port-channels: members agree and reach one device, the bundle
/// takes their L2, QoS and spanning-tree settings and what their entries say of it
/// (`lacp_individual`, `bundle_description`); an MLAG port-channel is on a pair's switch, and
/// both switches agree on it.
pub(crate) fn bundles(cx: &mut Cx, pending: &mut BTreeMap<String, Pending>, pairs: &[Pair]) {
    one_device(cx, pending, pairs);
    for (name, p) in pending.iter_mut() {
        stray_keys(cx, name, p);
        let mut groups: BTreeMap<(bool, u16), Vec<(Port, PortSettings)>> = BTreeMap::new();
        for (port, s) in &p.switch.ports {
            if let Some(b) = s.bundle {
                groups
                    .entry((b.mlag, b.id))
                    .or_default()
                    .push((*port, s.clone()));
            }
        }
        for (key, members) in groups {
            if let Some(settings) = bundle(cx, (name.as_str(), &*p), key, &members) {
                p.switch.bundles.insert(key, settings);
            }
        }
    }
    pairs_agree(cx, pending, pairs);
}

/// One bundle of a switch (MLAG or not, its number) from its members: an MLAG port-channel
/// on a switch in no pair is E121, members that disagree E118; else the bundle's settings.
fn bundle(
    cx: &mut Cx,
    (name, p): (&str, &Pending),
    (mlag, id): (bool, u16),
    members: &[(Port, PortSettings)],
) -> Option<PortSettings> {
    let at = p.bundles.get(&members[0].0).map_or_else(
        || Span {
            file: cx.file,
            start: 0,
            end: 0,
        },
        |(_, at)| *at,
    );
    if mlag && p.switch.mlag.is_none() {
        cx.push(
            Diagnostic::error(
                "E121",
                format!("`{name}` has MLAG port-channel {id} but is not in an MLAG pair"),
            )
            .at(at, "MLAG port-channel")
            .help("declare the pair under `mlag`, or use `lag` for a bundle to this switch alone"),
        );
        return None;
    }
    let odd = odd_members(p, members);
    if !odd.is_empty() {
        cx.push(
            Diagnostic::error(
                "E118",
                format!(
                    "members of {}port-channel {id} on `{name}` disagree: {} {} from {} (speed, MTU, QoS, VLANs, LACP mode, spanning tree, `lacp_individual` or `bundle_description`)",
                    if mlag { "MLAG " } else { "" },
                    describe_ports(&odd),
                    if odd.len() == 1 { "differs" } else { "differ" },
                    members[0].0
                ),
            )
            .at(at, "bundle"),
        );
        return None;
    }
    let (first_port, first) = &members[0];
    let keys = p.bundle_keys.get(first_port);
    Some(PortSettings {
        speed: None,
        mtu: first.mtu,
        shutdown: false,
        switchport: first.switchport,
        vlan: first.vlan,
        trust: first.trust,
        ecn: first.ecn,
        ets: first.ets,
        pfc: first.pfc,
        description: BundleKeys::description(keys).cloned(),
        peer: first.peer.clone(),
        profile: first.profile.clone(),
        address: None,
        bundle: None,
        trunk: first.trunk.clone(),
        stp: first.stp,
        unused: false,
        lacp_individual: BundleKeys::individual(keys),
    })
}

/// A bundle's members that differ from its first: in speed, MTU, QoS, VLANs, LACP mode,
/// spanning tree, or what their entries say of the bundle.
fn odd_members(p: &Pending, members: &[(Port, PortSettings)]) -> Vec<Port> {
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
            && a.stp == b.stp
    };
    let keys = |port: &Port| p.bundle_keys.get(port);
    let first_port = members[0].0;
    members
        .iter()
        .filter(|(port, s)| {
            !same(first, s)
                || BundleKeys::individual(keys(port)) != BundleKeys::individual(keys(&first_port))
                || BundleKeys::description(keys(port)) != BundleKeys::description(keys(&first_port))
        })
        .map(|(port, _)| *port)
        .collect()
}

/// Both switches of a pair agree on each MLAG port-channel (E122, at the lines to change).
fn pairs_agree(cx: &mut Cx, pending: &BTreeMap<String, Pending>, pairs: &[Pair]) {
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
            let (Some(x), Some(y)) = (
                pa.switch.bundles.get(&(true, id)),
                pb.switch.bundles.get(&(true, id)),
            ) else {
                continue;
            };
            let differ = differences(x, y, member_at(pa, id), member_at(pb, id));
            if differ.is_empty() {
                continue;
            }
            let what: Vec<String> = differ
                .iter()
                .map(|(w, va, vb, _, _)| format!("{w} {va} on `{a}`, {vb} on `{b}`"))
                .collect();
            let d = Diagnostic::error(
                "E122",
                format!(
                    "MLAG port-channel {id} differs between `{a}` and `{b}`: {}",
                    what.join("; ")
                ),
            );
            let (w, va, vb, sa, sb) = &differ[0];
            let ends = [
                (
                    sa.iter().copied().collect(),
                    format!("`{a}`"),
                    pair.at,
                    format!("{w} {va}"),
                ),
                (
                    sb.iter().copied().collect(),
                    format!("`{b}`"),
                    pair.at,
                    format!("{w} {vb}"),
                ),
            ];
            cx.push(
                super::links::at_the_line_to_change(cx, d, ends)
                    .help("give the member ports on both switches the same settings (a profile), or set the value on both switches"),
            );
        }
    }
}

/// Where the settings of one of a switch's MLAG port-channel's members are set.
fn member_at(p: &Pending, id: u16) -> SetAt {
    p.switch
        .ports
        .iter()
        .find(|(_, s)| s.bundle.is_some_and(|b| b.mlag && b.id == id))
        .and_then(|(port, _)| p.set_at.get(port).copied())
        .unwrap_or_default()
}

/// What differs between the two halves of an MLAG port-channel: (what, value on the first,
/// on the second, where each is set).
type Difference = (&'static str, String, String, Option<Span>, Option<Span>);

fn differences(x: &PortSettings, y: &PortSettings, ax: SetAt, ay: SetAt) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut check = |what, a: String, b: String, sa, sb| {
        if a != b {
            out.push((what, a, b, sa, sb));
        }
    };
    let mtu = |s: &PortSettings| s.mtu.map_or("unset".to_string(), |m| m.to_string());
    check("MTU", mtu(x), mtu(y), ax.mtu, ay.mtu);
    check("VLANs", vlans_of(x), vlans_of(y), ax.l2, ay.l2);
    let on = |b: bool| if b { "on" } else { "off" }.to_string();
    check("PFC mode", on(x.pfc), on(y.pfc), ax.pfc, ay.pfc);
    let trust = |s: &PortSettings| s.trust.map_or("unset".to_string(), |t| t.to_string());
    check("trust", trust(x), trust(y), ax.trust, ay.trust);
    check("ECN", by_class(&x.ecn), by_class(&y.ecn), ax.ecn, ay.ecn);
    check("ETS", by_class(&x.ets), by_class(&y.ets), ax.ets, ay.ets);
    check("spanning tree", stp_of(x), stp_of(y), None, None);
    check(
        "`lacp_individual`",
        on(x.lacp_individual),
        on(y.lacp_individual),
        None,
        None,
    );
    out
}

/// A per-class setting for a message: `TC 3 strict, TC 0 50`, or `none`.
fn by_class<T: std::fmt::Display + Copy>(m: &crate::types::TcMap<T>) -> String {
    let parts: Vec<String> = m.iter().map(|(tc, v)| format!("TC {tc} {v}")).collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// A bundle's spanning tree for a message: `edge, BPDU guard`, or `none`.
fn stp_of(s: &PortSettings) -> String {
    let mut parts = Vec::new();
    if let Some(t) = s.stp.port_type {
        parts.push(format!("{t}"));
    }
    match s.stp.bpduguard {
        Some(true) => parts.push("BPDU guard".to_string()),
        Some(false) => parts.push("no BPDU guard".to_string()),
        None => {}
    }
    if let Some(g) = s.stp.guard {
        parts.push(format!("{g} guard"));
    }
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// A bundle's VLANs for a message: `access 10`, `trunk 10,20`.
fn vlans_of(s: &PortSettings) -> String {
    let list = |v: &BTreeSet<crate::types::Vlan>| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    match (&s.trunk, s.vlan) {
        (Some(t), Some(v)) => format!("hybrid {v} tagged {}", list(t)),
        (Some(t), None) => format!("trunk {}", list(t)),
        (None, Some(v)) => format!("access {v}"),
        (None, None) => "access 1".to_string(),
    }
}

/// A bundle member with a peer: its switch, its port as the switch names it, what it reaches
/// and where its peer is written.
struct Member<'a> {
    switch: &'a str,
    port: String,
    device: Device,
    at: Span,
}

/// What a cable reaches, as a bundle sees it: a host, a switch, or an MLAG pair (one device
/// to a bundle on the far side: a port-channel to both switches of a pair is one LAG).
struct Device {
    /// Compared: host and switch names are case-insensitive.
    key: String,
    /// As written.
    shown: String,
}

impl PartialEq for Device {
    fn eq(&self, other: &Device) -> bool {
        self.key == other.key
    }
}

fn device(peer: &Peer, pairs: &[Pair]) -> Device {
    match peer {
        Peer::Host { host, .. } => Device {
            key: format!("host {}", host.to_lowercase()),
            shown: format!("`{host}`"),
        },
        Peer::Switch { switch, .. } => {
            let name = switch.as_str();
            let pair = pairs
                .iter()
                .find(|p| p.switches.iter().any(|s| s.eq_ignore_ascii_case(name)));
            match pair {
                Some(p) => Device {
                    key: format!("pair {}", p.switches.join(" ").to_lowercase()),
                    shown: format!("the MLAG pair `{}`/`{}`", p.switches[0], p.switches[1]),
                },
                None => Device {
                    key: format!("switch {}", name.to_lowercase()),
                    shown: format!("`{name}`"),
                },
            }
        }
    }
}

/// A bundle's members reach one device: a port-channel's on its switch, an MLAG
/// port-channel's on both switches of its pair. Members with no peer written say nothing.
/// Each member that reaches another device than most do (the first member's, on a tie) is
/// one error, at its peer, naming the device the others reach. An MLAG port-channel on a
/// switch outside a pair is E121's, not checked here.
fn one_device(cx: &mut Cx, pending: &BTreeMap<String, Pending>, pairs: &[Pair]) {
    for ((switches, mlag, id), members) in &members_with_peers(pending, pairs) {
        // Members in the order of the pair's switches, then of their ports.
        let order = |m: &Member| switches.iter().position(|s| *s == m.switch);
        let mut members: Vec<&Member> = members.iter().collect();
        members.sort_by_key(|m| order(m));
        // The device most members reach, the earliest member's on a tie: that member.
        let mut count: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for (i, m) in members.iter().enumerate() {
            count.entry(&m.device.key).or_insert((0, i)).0 += 1;
        }
        let Some((_, first)) = count
            .values()
            .max_by_key(|(n, first)| (*n, std::cmp::Reverse(*first)))
        else {
            continue;
        };
        let reference = members[*first];
        let what = if *mlag {
            format!("MLAG port-channel {id} (on `{}`)", switches.join("` and `"))
        } else {
            format!("port-channel {id}")
        };
        for m in members.iter().filter(|m| m.device != reference.device) {
            let mut d = Diagnostic::error(
                "E125",
                format!(
                    "{}:{} reaches {}, but its {what} reaches {} ({}:{})",
                    m.switch,
                    m.port,
                    m.device.shown,
                    reference.device.shown,
                    reference.switch,
                    reference.port
                ),
            )
            .at(m.at, format!("reaches {}", m.device.shown));
            if reference.at != m.at {
                d = d.also(reference.at, format!("reaches {}", reference.device.shown));
            }
            cx.push(d.help(format!(
                "a bundle's members reach one device: cable {}:{} to {}, or give it a port-channel of its own",
                m.switch, m.port, reference.device.shown
            )));
        }
    }
}

/// The members with a peer of every bundle, by its switches (one, or an MLAG pair's two), kind
/// and number.
type Bundles<'a> = BTreeMap<(Vec<&'a str>, bool, u16), Vec<Member<'a>>>;

fn members_with_peers<'a>(
    pending: &'a BTreeMap<String, Pending>,
    pairs: &'a [Pair],
) -> Bundles<'a> {
    let mut bundles = Bundles::new();
    for (name, p) in pending {
        let pair = pairs.iter().find(|x| x.switches.contains(name));
        for (port, s) in &p.switch.ports {
            let (Some(b), Some(peer), Some(at)) = (s.bundle, &s.peer, p.peers.get(port)) else {
                continue;
            };
            let switches = match (b.mlag, pair) {
                (false, _) => vec![name.as_str()],
                (true, Some(x)) => x.switches.iter().map(String::as_str).collect(),
                (true, None) => continue,
            };
            bundles
                .entry((switches, b.mlag, b.id))
                .or_default()
                .push(Member {
                    switch: name,
                    port: p.switch.port_name(*port),
                    device: device(peer, pairs),
                    at: *at,
                });
        }
    }
    bundles
}
