//! The checks, in the order causes come before what follows from them: the cabling first
//! (a miswired cable explains its ports' other troubles), then the links (a down link
//! explains its PFC, its BGP session, its share of an MLAG peer link), then everything that
//! runs across links. Each stage records the switch ports whose problem is found, and the
//! later ones leave those ports alone.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use super::observed;
use super::{Family, Input, Observed, RULES};
use crate::audit::Finding;
use crate::audit::view::range_name;
use crate::fabric::{Fabric, Os, Peer, PortSettings, Switch};
use crate::targets::SwitchOs;
use crate::types::Port;
use crate::types::{Iface, IfaceRange};

mod qos;
use qos::{pfc, pools, qos};

/// A switch port, by its switch's name.
type End = (String, Port);

/// One problem, before it becomes a finding: the rule's index in [`RULES`], the interface,
/// and the message without the interface.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Hit {
    switch: String,
    rule: usize,
    text: String,
    at: Option<Iface>,
}

/// What is plugged into a port, as the fabric says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Far<'a> {
    Switch(&'a str, Port),
    Host(&'a str),
}

fn far(s: &PortSettings) -> Option<Far<'_>> {
    match s.peer.as_ref()? {
        Peer::Switch { switch, port } => Some(Far::Switch(switch.as_str(), *port)),
        Peer::Host { host, .. } => Some(Far::Host(host)),
    }
}

fn end(switch: &str, port: Port) -> End {
    (switch.to_string(), port)
}

fn rule(id: &str) -> usize {
    RULES
        .iter()
        .position(|r| r.id == id)
        .unwrap_or_else(|| unreachable!("no rule {id} in the table"))
}

/// Whether a name LLDP reports is `name`: the same without case, or `name` and a domain, or
/// its start cut with `...` (OS10's `show lldp neighbors` cuts a name past 20 characters so:
/// `B42-1060-r11-x32s...`, the AzureStack TOR capture).
fn same_name(reported: &str, name: &str) -> bool {
    if let Some(start) = reported.strip_suffix("...")
        && reported.chars().count() == 20
    {
        return name
            .get(..start.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(start));
    }
    reported.eq_ignore_ascii_case(name)
        || reported.get(..name.len()).is_some_and(|h| {
            h.eq_ignore_ascii_case(name) && reported[name.len()..].starts_with('.')
        })
}

struct Cx<'a> {
    fabric: &'a Fabric,
    /// The families checked: a finding of one is left to another only when that one is.
    families: &'a BTreeSet<Family>,
    observed: &'a BTreeMap<String, Observed>,
    /// Ports whose problem is found: what runs across them is not judged again.
    explained: BTreeSet<End>,
    hits: Vec<Hit>,
}

impl<'a> Cx<'a> {
    fn switch(&self, name: &str) -> Option<&'a Switch> {
        self.fabric.switches.get(name)
    }

    /// The verified switches, by name, with their fabric entries.
    fn verified(&self) -> Vec<(&'a str, &'a Switch, &'a Observed)> {
        self.observed
            .iter()
            .filter_map(|(n, o)| self.switch(n).map(|s| (n.as_str(), s, o)))
            .collect()
    }

    fn hit(&mut self, switch: &str, id: &str, at: Option<Iface>, text: String) {
        self.hits.push(Hit {
            switch: switch.to_string(),
            rule: rule(id),
            text,
            at,
        });
    }

    /// The port a neighbor's port ID names, as the switch `name` (of the fabric) names its
    /// ports.
    fn port_id(&self, name: &str, text: &str) -> Option<Port> {
        let os = self.switch(name).map(Switch::os).unwrap_or_default();
        os.target().reads().port_id(text)
    }

    /// A switch port as a finding names it: the switch, then the port as the switch's OS
    /// names it (Onyx `leaf01 1/49`, OS10 `leaf-a ethernet1/1/49`).
    fn at(&self, switch: &str, port: Port) -> String {
        let os = self.switch(switch).map(Switch::os).unwrap_or_default();
        format!("{switch} {}", os.port_name(port))
    }

    /// What the fabric plugs into a port, as a finding names it.
    fn far(&self, far: Far<'_>) -> String {
        match far {
            Far::Switch(s, p) => self.at(s, p),
            Far::Host(h) => format!("host {h}"),
        }
    }

    fn explained(&self, switch: &str, port: Port) -> bool {
        self.explained.contains(&end(switch, port))
    }

    /// Whether the neighbor LLDP reports is what the fabric cables there. What cannot be
    /// told (no name advertised, a port ID that names no port, a switch that keeps its own
    /// hostname) is not held against it.
    fn matches(&self, want: Option<Far<'_>>, seen: &observed::Neighbor) -> bool {
        let name_is = |name: &str| {
            seen.system_name
                .as_deref()
                .is_none_or(|s| same_name(s, name))
        };
        match want {
            None => false,
            Some(Far::Host(h)) => name_is(h),
            Some(Far::Switch(f, q)) => {
                let keeps_name = self.switch(f).is_some_and(|s| !s.set_hostname);
                (keeps_name || name_is(f)) && self.port_id(f, &seen.port_id).is_none_or(|p| p == q)
            }
        }
    }

    /// The fabric's switch port a neighbor LLDP reports is, when it is one.
    fn resolve(&self, seen: &observed::Neighbor) -> Option<End> {
        let name = seen.system_name.as_deref()?;
        let (sw, _) = self
            .fabric
            .switches
            .iter()
            .find(|(h, _)| same_name(name, h.as_str()))?;
        Some(end(sw.as_str(), self.port_id(sw.as_str(), &seen.port_id)?))
    }
}

/// One stage of the checks.
type Stage = fn(&mut Cx<'_>);

/// Every problem of the verified switches, each once: switches by name, then checks by id,
/// then interfaces in order; one check's findings with the same message on consecutive
/// ports are one finding over an Onyx range.
pub fn verify(input: &Input<'_>) -> Vec<Finding> {
    let mut cx = Cx {
        fabric: input.fabric,
        families: &input.families,
        observed: &input.observed,
        explained: BTreeSet::new(),
        hits: Vec::new(),
    };
    let stages: [(Family, Stage); 9] = [
        (Family::Cabling, cabling),
        (Family::Links, links),
        (Family::Cabling, unseen),
        (Family::Pfc, pfc),
        (Family::Qos, qos),
        (Family::Pools, pools),
        (Family::Bgp, bgp),
        (Family::Mlag, mlag),
        (Family::Paths, ecmp),
    ];
    for (family, stage) in stages {
        if input.families.contains(&family) {
            stage(&mut cx);
        }
    }
    findings(input.fabric, cx.hits)
}

/// ECMP next hops towards every other leaf's host subnets ([`super::paths::ecmp`]).
fn ecmp(cx: &mut Cx<'_>) {
    for (name, _, obs) in cx.verified() {
        let down = |p: Port| cx.explained(name, p);
        let found = super::paths::ecmp(cx.fabric, name, obs, &down);
        for (sw, text) in found {
            cx.hit(&sw, "V015", None, text);
        }
    }
}

/// Hits as findings, consecutive ports with the same message grouped, each range named as
/// its switch's OS names interfaces (Onyx `ethernet 1/1-1/8`, OS10 `ethernet1/1/1-1/1/8`).
fn findings(fabric: &Fabric, mut hits: Vec<Hit>) -> Vec<Finding> {
    hits.sort_by(|a, b| {
        (&a.switch, a.rule, &a.text, a.at).cmp(&(&b.switch, b.rule, &b.text, b.at))
    });
    hits.dedup();
    let mut grouped: Vec<(Option<IfaceRange>, Hit)> = Vec::new();
    for h in hits {
        if let (Some((Some(range), last)), Some(at)) = (grouped.last_mut(), h.at)
            && (&last.switch, last.rule, &last.text) == (&h.switch, h.rule, &h.text)
            && range.last.precedes(at)
        {
            range.last = at;
            continue;
        }
        grouped.push((h.at.map(IfaceRange::one), h));
    }
    grouped.sort_by(|a, b| {
        (&a.1.switch, a.1.rule, a.0, &a.1.text).cmp(&(&b.1.switch, b.1.rule, b.0, &b.1.text))
    });
    grouped
        .into_iter()
        .map(|(range, h)| {
            let r = &RULES[h.rule];
            let os = fabric
                .switches
                .get(h.switch.as_str())
                .map(Switch::os)
                .unwrap_or_default();
            let range = range.map(|r| range_name(os, r));
            Finding {
                switch: h.switch,
                rule: r.id,
                name: r.name,
                severity: r.severity,
                message: match &range {
                    Some(range) => format!("{range}: {}", h.text),
                    None => h.text,
                },
                interfaces: range,
                line: None,
            }
        })
        .collect()
}

/// Union-find over switch ports.
#[derive(Default)]
struct Groups(BTreeMap<End, End>);

impl Groups {
    fn root(&mut self, e: &End) -> End {
        let mut cur = e.clone();
        while let Some(up) = self.0.get(&cur).filter(|u| **u != cur) {
            cur = up.clone();
        }
        self.0.insert(e.clone(), cur.clone());
        cur
    }

    fn join(&mut self, a: &End, b: &End) {
        let (ra, rb) = (self.root(a), self.root(b));
        let (lo, hi) = if ra <= rb { (ra, rb) } else { (rb, ra) };
        self.0.insert(hi, lo.clone());
        self.0.entry(lo.clone()).or_insert(lo);
    }
}

/// V001: ports whose LLDP neighbor is not the fabric's. The ports one mistake involves —
/// each wrong port, the far end the fabric expects there, the port it reaches instead —
/// are joined, and each group is one finding, at its first wrong port.
fn cabling(cx: &mut Cx<'_>) {
    let mut groups = Groups::default();
    let mut wrong: BTreeMap<End, String> = BTreeMap::new();
    for (name, sw, obs) in cx.verified() {
        let Some(lldp) = &obs.lldp else { continue };
        let ports: BTreeSet<Port> = sw
            .ports
            .iter()
            .filter(|(_, s)| s.peer.is_some())
            .map(|(p, _)| *p)
            .chain(lldp.keys().copied())
            .collect();
        for p in ports {
            let want = sw.ports.get(&p).and_then(far);
            let seen = lldp.get(&p).map(Vec::as_slice).unwrap_or_default();
            if seen.is_empty() || seen.iter().any(|n| cx.matches(want, n)) {
                continue;
            }
            let me = end(name, p);
            groups.root(&me);
            if let Some(Far::Switch(f, q)) = want {
                groups.join(&me, &end(f, q));
            }
            for n in seen {
                if let Some(e) = cx.resolve(n) {
                    groups.join(&me, &e);
                }
            }
            let seen: Vec<String> = seen
                .iter()
                .map(|n| {
                    let who = n
                        .system_name
                        .as_deref()
                        .unwrap_or("a neighbor without a name");
                    format!("{who} {}", n.port_id)
                })
                .collect();
            let want = want.map_or("nothing".to_string(), |w| cx.far(w));
            wrong.insert(
                me,
                format!(
                    "{} sees {} (the fabric: {want})",
                    cx.at(name, p),
                    seen.join(" and ")
                ),
            );
        }
    }
    let nodes: Vec<End> = groups.0.keys().cloned().collect();
    let mut by_root: BTreeMap<End, Vec<End>> = BTreeMap::new();
    for n in nodes {
        let r = groups.root(&n);
        by_root.entry(r).or_default().push(n);
    }
    for members in by_root.into_values() {
        let seen: Vec<(&End, &String)> = members
            .iter()
            .filter_map(|e| wrong.get_key_value(e))
            .collect();
        let Some(((switch, port), _)) = seen.first() else {
            continue;
        };
        let text = format!(
            "cabled otherwise than the fabric says: {}",
            seen.iter()
                .map(|(_, t)| t.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        );
        let (switch, port) = (switch.clone(), *port);
        cx.hit(&switch, "V001", Some(Iface::Ethernet(port)), text);
        cx.explained.extend(members);
    }
}

/// The speed a cabled port runs at, as the fabric says: its `speed`, else the model's
/// native speed for the port or its split's subports.
fn declared_speed(sw: &Switch, port: Port, s: &PortSettings) -> Option<crate::types::Speed> {
    s.speed.or_else(|| {
        let split = port
            .sub
            .and_then(|_| sw.splits.get(&port.parent()).copied());
        sw.model.native_speed(port.parent(), split)
    })
}

/// A link's state in words, as a switch of `os` reports it.
fn state(os: Os, link: Option<&observed::Link>) -> String {
    match link {
        None => format!("not listed by `{}`", os.target().reads().said().links),
        Some(l) => {
            let admin = match l.admin {
                Some(true) => "admin Enabled, ",
                Some(false) => "shut down, ",
                None => "",
            };
            format!("{admin}operational {}", l.oper)
        }
    }
}

/// V003, V004: every cable the fabric declares from a verified switch, once, judged from
/// both its ends where both are verified.
fn links(cx: &mut Cx<'_>) {
    let mut done: BTreeSet<(End, End)> = BTreeSet::new();
    for (name, sw, obs) in cx.verified() {
        let Some(links) = &obs.links else { continue };
        for (p, s) in sw.ports.iter().filter(|(_, s)| s.peer.is_some()) {
            let me = end(name, *p);
            let want = far(s);
            // The far end, when it is a verified switch whose links were read.
            let other = match want {
                Some(Far::Switch(f, q)) => cx
                    .observed
                    .get(f)
                    .and_then(|o| o.links.as_ref())
                    .map(|l| (end(f, q), l.get(&q))),
                _ => None,
            };
            if let Some((o, _)) = &other {
                let key = if me <= *o {
                    (me.clone(), o.clone())
                } else {
                    (o.clone(), me.clone())
                };
                if !done.insert(key) || cx.explained.contains(o) {
                    continue;
                }
            }
            if cx.explained.contains(&me) {
                continue;
            }
            let mine = links.get(p);
            let mut ends = vec![(me.clone(), mine)];
            ends.extend(other.clone());
            ends.sort_by(|a, b| a.0.cmp(&b.0));
            let up = |l: Option<&observed::Link>| l.is_some_and(observed::Link::up);
            if !ends.iter().all(|(_, l)| up(*l)) {
                // At the end shut down, when one is: that is the cause.
                let shut: Vec<&(End, Option<&observed::Link>)> = ends
                    .iter()
                    .filter(|(_, l)| l.is_some_and(|l| l.admin == Some(false)))
                    .collect();
                let (at, link) = if shut.len() == 1 { shut[0] } else { &ends[0] };
                let os_of = |s: &str| cx.switch(s).map(Switch::os).unwrap_or_default();
                let mut text = format!("down ({})", state(os_of(&at.0), *link));
                if let Some(((f, q), l)) = ends.iter().find(|(e, _)| e != at) {
                    text.push_str(&format!(
                        "; the other end, {}: {}",
                        cx.at(f, *q),
                        state(os_of(f), *l)
                    ));
                } else if let Some(w) = want {
                    text.push_str(&format!("; cabled to {}", cx.far(w)));
                }
                let (switch, port) = at.clone();
                cx.hit(&switch, "V003", Some(Iface::Ethernet(port)), text);
                cx.explained.extend(ends.iter().map(|(e, _)| e.clone()));
                continue;
            }
            let Some(speed) = declared_speed(sw, *p, s) else {
                continue;
            };
            let slow: Vec<String> = ends
                .iter()
                .filter(|(_, l)| l.and_then(|l| l.speed) != Some(speed.gbps()))
                .map(|((f, q), l)| {
                    let shown = l
                        .and_then(|l| l.speed_text.clone())
                        .unwrap_or_else(|| "no speed".into());
                    format!("{} at {shown}", cx.at(f, *q))
                })
                .collect();
            if !slow.is_empty() {
                let (switch, port) = ends[0].0.clone();
                cx.hit(
                    &switch,
                    "V004",
                    Some(Iface::Ethernet(port)),
                    format!(
                        "up at another speed than the fabric's {speed}: {}",
                        slow.join(", ")
                    ),
                );
            }
        }
    }
}

/// V002: an up link between two switches of the fabric on which LLDP has learned nothing,
/// once per cable: at its first end when neither end sees the other, else at the end blind.
fn unseen(cx: &mut Cx<'_>) {
    let mut done: BTreeSet<(End, End)> = BTreeSet::new();
    for (name, sw, obs) in cx.verified() {
        let (Some(lldp), Some(links)) = (&obs.lldp, &obs.links) else {
            continue;
        };
        for (p, s) in &sw.ports {
            let Some(Far::Switch(f, q)) = far(s) else {
                continue;
            };
            let (me, other) = (end(name, *p), end(f, q));
            let blind = lldp.get(p).is_none_or(Vec::is_empty);
            if !blind || cx.explained.contains(&me) || !links.get(p).is_some_and(observed::Link::up)
            {
                continue;
            }
            let (first, second) = if me <= other {
                (me.clone(), other.clone())
            } else {
                (other.clone(), me.clone())
            };
            if !done.insert((first.clone(), second.clone())) {
                continue;
            }
            let far_blind = cx
                .observed
                .get(f)
                .and_then(|o| o.lldp.as_ref())
                .is_some_and(|l| l.get(&q).is_none_or(Vec::is_empty));
            let (at, facing) = if far_blind {
                (first, second)
            } else {
                (me, other)
            };
            let text = format!(
                "up, but LLDP has learned no neighbor here (the fabric: {})",
                cx.at(&facing.0, facing.1)
            );
            cx.hit(&at.0, "V002", Some(Iface::Ethernet(at.1)), text);
        }
    }
}

/// Which session a neighbor is: the cable it runs over (its two ends, in order), or a
/// neighbor of one switch outside the fabric's links.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum SessionKey {
    Cable(End, End),
    Lone(String, Ipv4Addr),
}

/// One end of a session as read.
struct SessionEnd<'a> {
    switch: &'a str,
    port: Option<Port>,
    addr: Ipv4Addr,
    far: Option<&'a str>,
    want_as: u32,
    row: Option<&'a observed::BgpNeighbor>,
}

impl SessionEnd<'_> {
    /// `spine01 (10.254.0.192)`; the port it runs over is the finding's interface.
    fn to(&self) -> String {
        self.far
            .map_or(self.addr.to_string(), |f| format!("{f} ({})", self.addr))
    }
}

/// V010-V012: every BGP session the fabric derives, once.
fn bgp(cx: &mut Cx<'_>) {
    // Switches whose BGP is missing or under another AS: their sessions follow from that.
    let mut dead: BTreeSet<&str> = BTreeSet::new();
    let mut sessions: BTreeMap<SessionKey, Vec<SessionEnd<'_>>> = BTreeMap::new();
    for (name, sw, obs) in cx.verified() {
        let (Some(summary), Some(routing)) = (&obs.bgp, &sw.routing) else {
            continue;
        };
        let Some(summary) = summary else {
            cx.hit(
                name,
                "V011",
                None,
                format!(
                    "no BGP instance: none of its {} session(s) can come up",
                    routing.neighbors.len()
                ),
            );
            dead.insert(name);
            continue;
        };
        if summary.asn != routing.asn {
            cx.hit(
                name,
                "V012",
                None,
                format!(
                    "BGP runs under AS {}, the fabric says {}",
                    summary.asn, routing.asn
                ),
            );
            dead.insert(name);
            continue;
        }
        for (addr, n) in &routing.neighbors {
            let link = n.link.as_ref().map(|(f, p)| (f.as_str(), *p));
            let far_port = link.and_then(|(f, p)| match sw.ports.get(&p).and_then(far) {
                Some(Far::Switch(s, q)) if s == f => Some(q),
                _ => None,
            });
            let key = match (link, far_port) {
                (Some((f, p)), Some(q)) => {
                    let (a, b) = (end(name, p), end(f, q));
                    if a <= b {
                        SessionKey::Cable(a, b)
                    } else {
                        SessionKey::Cable(b, a)
                    }
                }
                _ => SessionKey::Lone(name.to_string(), *addr),
            };
            sessions.entry(key).or_default().push(SessionEnd {
                switch: name,
                port: link.map(|(_, p)| p),
                addr: *addr,
                far: link.map(|(f, _)| f),
                want_as: n.asn,
                row: summary.neighbors.get(addr),
            });
        }
    }
    for (key, ends) in sessions {
        if let SessionKey::Cable(a, b) = &key
            && (cx.explained.contains(a)
                || cx.explained.contains(b)
                || dead.contains(a.0.as_str())
                || dead.contains(b.0.as_str()))
        {
            continue;
        }
        let state_at = |e: &SessionEnd<'_>| match e.row {
            Some(r) => format!("{}'s is {}", e.switch, r.state),
            None => format!("{} has no such neighbor", e.switch),
        };
        let others = |at: &SessionEnd<'_>| -> String {
            ends.iter()
                .filter(|e| e.switch != at.switch)
                .map(|e| format!("; {}", state_at(e)))
                .collect()
        };
        let iface = |e: &SessionEnd<'_>| e.port.map(Iface::Ethernet);
        if let Some(at) = ends.iter().find(|e| e.row.is_none()) {
            let text = format!(
                "no BGP neighbor {} (the session to {}){}",
                at.addr,
                at.to(),
                others(at)
            );
            cx.hit(at.switch, "V011", iface(at), text);
        } else if let Some((at, r)) = ends
            .iter()
            .find_map(|e| e.row.filter(|r| r.remote_as != e.want_as).map(|r| (e, r)))
        {
            let text = format!(
                "the session to {} is configured with remote AS {}, the fabric says {}",
                at.to(),
                r.remote_as,
                at.want_as
            );
            cx.hit(at.switch, "V010", iface(at), text);
        } else if ends.iter().any(|e| e.row.is_some_and(|r| !r.established())) {
            let at = &ends[0];
            let state = at.row.map_or("", |r| r.state.as_str());
            let text = format!("the session to {} is {state}{}", at.to(), others(at));
            cx.hit(at.switch, "V010", iface(at), text);
        }
    }
}

/// One MLAG half as read: what is wrong with it, and whether its MLAG port-channels are all
/// active.
struct Half<'a> {
    switch: &'a str,
    /// The pair as its OS calls it (`MLAG`, `VLT`).
    pair: &'static str,
    problems: Vec<String>,
    not_active: u32,
    /// Its MLAG port-channels with a member port whose problem is found already.
    explained_ports: BTreeSet<u16>,
    /// Its peer link's cables are all found down or miswired: the pair is not formed, and
    /// its port-channels' state follows from that.
    cables_down: bool,
}

/// V013, V014: each MLAG pair (an OS10 VLT pair alike), from both halves, once.
fn mlag(cx: &mut Cx<'_>) {
    let mut pairs: BTreeMap<(String, String), Vec<Half<'_>>> = BTreeMap::new();
    for (name, sw, obs) in cx.verified() {
        let (Some(m), Some(want)) = (&obs.mlag, &sw.mlag) else {
            continue;
        };
        let peer = want.peer.as_ref().map_or(name, |p| p.as_str());
        let key = if name <= peer {
            (name.to_string(), peer.to_string())
        } else {
            (peer.to_string(), name.to_string())
        };
        let half = half(cx, name, sw, obs, (m, want));
        pairs.entry(key).or_default().push(half);
    }
    for halves in pairs.into_values() {
        judge_pair(cx, &halves);
    }
}

/// One half of a pair (`m` read, the fabric's `want`), its problems in its OS's words.
fn half<'a>(
    cx: &Cx<'a>,
    name: &'a str,
    sw: &Switch,
    obs: &Observed,
    (m, want): (&observed::Mlag, &crate::fabric::Mlag),
) -> Half<'a> {
    // The peer link's cables, all found down or miswired: its being down follows.
    let ipl_members: Vec<&Port> = sw
        .ports
        .iter()
        .filter(|(_, s)| {
            s.bundle
                .is_some_and(|b| !b.mlag && b.id == want.ipl_port_channel)
        })
        .map(|(p, _)| p)
        .collect();
    let cables_down =
        !ipl_members.is_empty() && ipl_members.iter().all(|p| cx.explained(name, **p));
    let target = sw.os().target();
    let explained_ports = sw
        .ports
        .iter()
        .filter_map(|(p, s)| match s.bundle {
            Some(b) if b.mlag && cx.explained(name, *p) => Some(b.id),
            _ => None,
        })
        .collect();
    let (partial, inactive) = obs.pair_ports.unwrap_or((m.partial, m.inactive));
    Half {
        switch: name,
        pair: target.words().pair,
        problems: half_problems(m, want, target, cables_down),
        not_active: partial + inactive,
        explained_ports,
        cables_down,
    }
}

/// What is wrong with a half as read against the fabric's MLAG, in its OS's words.
fn half_problems(
    m: &observed::Mlag,
    want: &crate::fabric::Mlag,
    target: &dyn SwitchOs,
    cables_down: bool,
) -> Vec<String> {
    let said = target.reads().said();
    let mut problems = Vec::new();
    if !m.admin.eq_ignore_ascii_case("enabled") {
        problems.push(format!("MLAG is shut down (Admin status: {})", m.admin));
    }
    let mac = m
        .system_mac
        .as_deref()
        .and_then(|s| s.parse::<crate::types::Mac>().ok());
    if mac != Some(want.system_mac) {
        problems.push(format!(
            "{} {}, the fabric says {}",
            said.pair_mac,
            m.system_mac.as_deref().unwrap_or("none"),
            want.system_mac
        ));
    }
    let ipl = m
        .ipls
        .iter()
        .find(|i| i.port_channel == Some(want.ipl_port_channel))
        .or(m.ipls.first());
    match ipl {
        None => problems.push(format!("no {}", said.peer_link)),
        // A peer link of ports of its own (OS10's VLTi) has no VLAN or IPv4 addresses, and
        // the OS names its port-channel itself: only its state is judged.
        Some(i) if target.words().peer_link_ports => {
            if !i.state.eq_ignore_ascii_case("up") && !cables_down {
                problems.push(format!("{} {}", said.peer_link, i.state));
            }
        }
        Some(i) => problems.extend(peer_link_problems(i, want, cables_down)),
    }
    if !m.oper.eq_ignore_ascii_case("up") && !cables_down {
        problems.push((said.pair_status)(&m.oper));
    }
    problems
}

/// What is wrong with a peer link that is a port-channel over a VLAN (Onyx's IPL).
fn peer_link_problems(
    i: &observed::Ipl,
    want: &crate::fabric::Mlag,
    cables_down: bool,
) -> Vec<String> {
    let mut problems = Vec::new();
    let shown = |v: Option<String>| v.unwrap_or_else(|| "none".into());
    if i.port_channel != Some(want.ipl_port_channel) {
        problems.push(format!(
            "peer link on {}, the fabric says port-channel {}",
            shown(i.port_channel.map(|n| format!("port-channel {n}"))),
            want.ipl_port_channel
        ));
    }
    if i.vlan != Some(want.ipl_vlan.get()) {
        problems.push(format!(
            "peer link VLAN {}, the fabric says {}",
            shown(i.vlan.map(|v| v.to_string())),
            want.ipl_vlan
        ));
    }
    if let Some(a) = want.address
        && i.local != Some(a.addr)
    {
        problems.push(format!(
            "peer link address {}, the fabric says {}",
            shown(i.local.map(|v| v.to_string())),
            a.addr
        ));
    }
    if i.peer != Some(want.peer_address) {
        problems.push(format!(
            "peer address {}, the fabric says {}",
            shown(i.peer.map(|v| v.to_string())),
            want.peer_address
        ));
    }
    if !i.state.eq_ignore_ascii_case("up") && !cables_down {
        problems.push(format!("peer link {}", i.state));
    }
    problems
}

/// A pair from both its halves: one finding for the halves' problems, else one for its
/// port-channels not active on both (beyond those whose member links are found down).
fn judge_pair(cx: &mut Cx<'_>, halves: &[Half<'_>]) {
    let broken: Vec<&Half<'_>> = halves.iter().filter(|h| !h.problems.is_empty()).collect();
    if let Some(first) = broken.first() {
        let text = broken
            .iter()
            .map(|h| format!("{}: {}", h.switch, h.problems.join(", ")))
            .collect::<Vec<_>>()
            .join("; ");
        cx.hit(
            first.switch,
            "V013",
            None,
            format!("the {} pair is not healthy: {text}", first.pair),
        );
        return;
    }
    let explained: BTreeSet<u16> = halves
        .iter()
        .flat_map(|h| h.explained_ports.iter().copied())
        .collect();
    let worst = halves.iter().max_by_key(|h| h.not_active);
    if let Some(h) = worst
        && !halves.iter().any(|h| h.cables_down)
        && h.not_active as usize > explained.len()
    {
        let text = format!(
            "{} {} port-channel(s) not active on both switches of the pair (as {} reports them)",
            h.not_active as usize - explained.len(),
            h.pair,
            h.switch
        );
        cx.hit(halves[0].switch, "V014", None, text);
    }
}
