//! V005-V009: PFC, trust, ECN, ETS and the buffer pools. Onyx's are read from the `show`
//! commands that print each (per interface, per traffic class, per pool) and judged against
//! the fabric's settings. OS10's PFC is read per interface (`show interface NAME
//! priority-flow-control`: its `Oper status` and the priorities it pauses); its trust, ECN,
//! ETS and lossless priorities from the running configuration, each port's as OS10 applies
//! it (its own policies, else `system qos`'s: [`crate::os10::Config::trust_of`], the audit's
//! [`crate::audit::view::View`]), judged against what the fabric compiles to on OS10
//! ([`compile_switch`]): what `fabric push` would set is what the fabric says there, in
//! OS10's terms (`bandwidth percent` for a WRR weight, a DSCP trust map for L3).

use std::collections::{BTreeMap, BTreeSet};

use super::{Cx, Family, Observed};
use crate::fabric::{Os, PortSettings, Switch};
use crate::onyx::Iface;
use crate::os10::compile::compile_switch;
use crate::targets::Audited;
use crate::types::{Ecn, Ets, Percent, Port, TcIter};
use crate::verify::read::{self, Marking, Sched};

/// Priorities as a finding lists them: `3, 4`, or `none`.
fn list(s: &BTreeSet<u8>) -> String {
    if s.is_empty() {
        return "none".to_string();
    }
    s.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// An interface of the fabric's spelling as the OS10 model keys it.
fn os10_iface(i: Iface) -> crate::os10::Iface {
    match i {
        Iface::Ethernet(p) => crate::os10::Iface::Ethernet(crate::fabric::os10_eth(p)),
        Iface::PortChannel(n) | Iface::MlagPortChannel(n) => crate::os10::Iface::PortChannel(n),
        Iface::Vlan(v) => crate::os10::Iface::Vlan(v),
        Iface::Loopback(n) => crate::os10::Iface::Loopback(n),
    }
}

/// The priorities an OS10 configuration pauses on its interfaces: the `pfc-cos` of the
/// network-qos policies in use (their own, else `system qos`'s).
fn paused(c: &crate::os10::Config) -> BTreeSet<u8> {
    Audited::view(c, None).pfc.priorities
}

/// V005: PFC operational on every cabled port (and bundle) in PFC mode.
pub(super) fn pfc(cx: &mut Cx<'_>) {
    for (name, sw, obs) in cx.verified() {
        let Some(pfc) = &obs.pfc else { continue };
        let hits = match sw.os() {
            Os::Onyx => pfc_onyx(cx, name, sw, pfc),
            Os::Os10 => pfc_os10(cx, name, sw, obs, pfc),
        };
        for (iface, text) in hits {
            cx.hit(name, "V005", Some(iface), text);
        }
    }
}

fn pfc_onyx(
    cx: &Cx<'_>,
    name: &str,
    sw: &Switch,
    pfc: &BTreeMap<Iface, read::Pfc>,
) -> Vec<(Iface, String)> {
    let mut want: Vec<Iface> = sw
        .ports
        .iter()
        .filter(|(p, s)| {
            s.peer.is_some() && s.pfc && s.bundle.is_none() && !cx.explained(name, **p)
        })
        .map(|(p, _)| Iface::Ethernet(*p))
        .collect();
    want.extend(
        sw.bundles
            .iter()
            .filter(|(_, b)| b.pfc)
            .map(|((mlag, id), _)| {
                if *mlag {
                    Iface::MlagPortChannel(*id)
                } else {
                    Iface::PortChannel(*id)
                }
            }),
    );
    want.into_iter()
        .filter_map(|iface| {
            let text = match pfc.get(&iface) {
                Some(s) if s.enabled() => return None,
                Some(s) => format!(
                    "in PFC mode, but `PFC oper` is {}{}",
                    s.oper,
                    s.admin
                        .as_ref()
                        .map_or(String::new(), |a| format!(" (`PFC admin` {a})"))
                ),
                None => "in PFC mode, but `show dcb priority-flow-control` does not list it".into(),
            };
            Some((iface, text))
        })
        .collect()
}

/// OS10: each interface read (one whose reply did not read is named as such, not judged) is
/// operational and pauses what its network-qos policy pauses once pushed. When the pools are
/// checked and the switch's policies pause other priorities than the fabric's, that is
/// V009's one finding, and the ports' priorities follow from it.
fn pfc_os10(
    cx: &Cx<'_>,
    name: &str,
    sw: &Switch,
    obs: &Observed,
    pfc: &BTreeMap<Iface, read::Pfc>,
) -> Vec<(Iface, String)> {
    let intended = compile_switch(sw);
    let policy_explains = cx.families.contains(&Family::Pools)
        && obs
            .running
            .as_ref()
            .is_some_and(|r| paused(r) != paused(&intended));
    // A port found down or miswired, or a port-channel all of whose members are: its PFC
    // follows from that finding.
    let explained = |i: &Iface| match i {
        Iface::Ethernet(p) => cx.explained(name, *p),
        Iface::PortChannel(n) => {
            let mut members = sw
                .ports
                .iter()
                .filter(|(_, s)| s.bundle.is_some_and(|b| b.id == *n))
                .peekable();
            members.peek().is_some() && members.all(|(p, _)| cx.explained(name, *p))
        }
        _ => false,
    };
    crate::verify::os10_pfc(sw)
        .into_iter()
        .filter(|i| !explained(i))
        .filter_map(|iface| {
            let s = pfc.get(&iface)?;
            let want = intended.paused_priorities(&os10_iface(iface));
            let text = if !s.enabled() {
                format!(
                    "in PFC mode, but `Oper status` is {} (`Admin mode` {})",
                    s.oper,
                    s.admin.as_deref().unwrap_or("not shown")
                )
            } else if !policy_explains && s.priorities.as_ref() != Some(&want) {
                let got = s.priorities.clone().unwrap_or_default();
                format!(
                    "in PFC mode, but it pauses priorities {}, the fabric says {}",
                    list(&got),
                    list(&want)
                )
            } else {
                return None;
            };
            Some((iface, text))
        })
        .collect()
}

/// Each verified switch's findings of a QoS family: an Onyx switch's from its replies
/// (`onyx`), an OS10 switch's from its running configuration, where it was read (`os10`).
fn by_os<'a, T>(
    cx: &Cx<'a>,
    onyx: fn(&Switch, &Observed) -> Vec<T>,
    os10: fn(&Switch, &crate::os10::Config) -> Vec<T>,
) -> Vec<(&'a str, Vec<T>)> {
    cx.verified()
        .into_iter()
        .filter_map(|(name, sw, obs)| match (sw.os(), &obs.running) {
            (Os::Onyx, _) => Some((name, onyx(sw, obs))),
            (Os::Os10, Some(running)) => Some((name, os10(sw, running))),
            (Os::Os10, None) => None,
        })
        .collect()
}

/// V006-V008: trust, ECN and ETS of each cabled port read.
pub(super) fn qos(cx: &mut Cx<'_>) {
    for (name, hits) in by_os(cx, qos_onyx, qos_os10) {
        for (rule, port, text) in hits {
            cx.hit(name, rule, Some(Iface::Ethernet(port)), text);
        }
    }
}

/// A finding of V006-V008: its rule, its port, its message.
type QosHit = (&'static str, Port, String);

fn qos_onyx(sw: &Switch, obs: &Observed) -> Vec<QosHit> {
    let settings = |p: &Port| sw.ports.get(p);
    let mut hits = Vec::new();
    for (p, got) in &obs.trust {
        if let Some(want) = settings(p).and_then(|s| s.trust)
            && !got.eq_ignore_ascii_case(want.word())
        {
            hits.push(("V006", *p, format!("trust {got}, the fabric says {want}")));
        }
    }
    for (p, got) in &obs.ecn {
        let Some(s) = settings(p) else { continue };
        let wrong = judge_ecn(s.ecn.iter(), |tc| got.get(&tc).cloned(), |e| e.to_string());
        if !wrong.is_empty() {
            hits.push(("V007", *p, wrong.join("; ")));
        }
    }
    for (p, got) in &obs.ets {
        let Some(s) = settings(p) else { continue };
        let say: EtsWords = (|s| s.to_string(), |e| e.to_string());
        let wrong = judge_ets(s.ets.iter(), |tc| got.get(&tc).cloned(), say);
        if !wrong.is_empty() {
            hits.push(("V008", *p, wrong.join("; ")));
        }
    }
    hits
}

/// Each traffic class the fabric marks, as it says: the differences, in words (`say` prints
/// a marking as the switch's OS words it).
fn judge_ecn(
    wants: TcIter<'_, Ecn>,
    got: impl Fn(u8) -> Option<Marking>,
    say: fn(&Ecn) -> String,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (tc, want) in wants {
        let shown = match got(tc.get()) {
            Some(Marking::On(e)) if e == *want => continue,
            Some(Marking::On(e)) => say(&e),
            Some(Marking::Off) => "no marking".to_string(),
            Some(Marking::Other(m)) => format!("mode `{m}`"),
            None => "not listed".to_string(),
        };
        wrong.push(format!(
            "traffic class {tc}: {shown}, the fabric says {}",
            say(want)
        ));
    }
    wrong
}

/// How a scheduling is worded: as read, and as the fabric says it.
type EtsWords = (fn(&Sched) -> String, fn(&Ets) -> String);

/// Each traffic class the fabric schedules, as it says: the differences, in words.
fn judge_ets(
    wants: TcIter<'_, Ets>,
    got: impl Fn(u8) -> Option<Sched>,
    say: EtsWords,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (tc, want) in wants {
        let seen = got(tc.get());
        let same = match (&seen, want) {
            (Some(Sched::Strict), Ets::Strict) => true,
            (Some(Sched::Wrr(w)), Ets::Wrr(x)) => w == x,
            _ => false,
        };
        if !same {
            let shown = seen.as_ref().map_or("not listed".into(), say.0);
            wrong.push(format!(
                "traffic class {tc}: {shown}, the fabric says {}",
                say.1(want)
            ));
        }
    }
    wrong
}

/// The ports of an OS10 switch whose QoS is checked, with the fabric's settings for them:
/// each cabled port outside a bundle, and the VLTi's (OS10 configures the pair's QoS on the
/// VLTi ports themselves, from the IPL bundle's settings). A port-channel member's QoS is its
/// bundle's, not read one by one (as on Onyx).
fn os10_qos_ports(sw: &Switch) -> Vec<(Port, &PortSettings)> {
    let ipl = sw.mlag.as_ref().map(|m| m.ipl_port_channel);
    sw.ports
        .iter()
        .filter(|(_, s)| s.peer.is_some())
        .filter_map(|(p, s)| match s.bundle {
            None => Some((*p, s)),
            Some(b) if !b.mlag && Some(b.id) == ipl => {
                sw.bundles.get(&(false, b.id)).map(|bs| (*p, bs))
            }
            Some(_) => None,
        })
        .collect()
}

fn qos_os10(sw: &Switch, running: &crate::os10::Config) -> Vec<QosHit> {
    let intended = compile_switch(sw);
    let (got, want) = (Audited::view(running, None), Audited::view(&intended, None));
    let mut hits = Vec::new();
    for (p, s) in os10_qos_ports(sw) {
        let (g, w) = (got.port(Iface::Ethernet(p)), want.port(Iface::Ethernet(p)));
        let i = os10_iface(Iface::Ethernet(p));
        if s.trust.is_some()
            && let Some(text) = judge_trust(running, &intended, &i)
        {
            hits.push(("V006", p, text));
        }
        let marking = |tc: u8| {
            let tc = crate::types::TrafficClass::ALL[usize::from(tc)];
            Some(g.ecn.get(&tc).map_or(Marking::Off, |e| Marking::On(*e)))
        };
        let wrong = judge_ecn(w.ecn.iter(), marking, os10_ecn);
        if !wrong.is_empty() {
            hits.push(("V007", p, wrong.join("; ")));
        }
        let sched = |tc: u8| {
            let tc = crate::types::TrafficClass::ALL[usize::from(tc)];
            g.ets.get(&tc).map(|e| match e {
                Ets::Strict => Sched::Strict,
                Ets::Wrr(w) => Sched::Wrr(*w),
            })
        };
        let wrong = judge_ets(w.ets.iter(), sched, (os10_sched, os10_ets));
        if !wrong.is_empty() {
            hits.push(("V008", p, wrong.join("; ")));
        }
    }
    hits
}

/// A WRED/ECN marking as OS10 configures it: a `wred` profile with `random-detect ecn`.
fn os10_ecn(e: &Ecn) -> String {
    match e.thresholds {
        crate::types::EcnThresholds::Absolute { min, max } => {
            format!("ECN from {min} KB to {max} KB")
        }
        crate::types::EcnThresholds::Relative { min, max } => format!("ECN from {min}% to {max}%"),
    }
}

/// A queue's scheduling as OS10 configures it: `priority` (strict) or `bandwidth percent`.
fn os10_ets(e: &Ets) -> String {
    match e {
        Ets::Strict => "strict priority".into(),
        Ets::Wrr(p) => format!("bandwidth {p}%"),
    }
}

fn os10_sched(s: &Sched) -> String {
    match s {
        Sched::Strict => os10_ets(&Ets::Strict),
        Sched::Wrr(p) => os10_ets(&Ets::Wrr(*p)),
        Sched::Other(o) => format!("`{o}`"),
    }
}

/// The trust an OS10 interface classifies by, in the words Onyx's `qos trust` uses (a DSCP
/// map is L3, a dot1p map L2), and the map it names.
fn trust_words(c: &crate::os10::Config, i: &crate::os10::Iface) -> (String, Option<String>) {
    match c.trust_of(i) {
        None => ("none".into(), None),
        Some(((kind, map), _)) => {
            let word = match kind {
                crate::os10::TrustKind::Dscp => "L3",
                crate::os10::TrustKind::Dot1p => "L2",
            };
            (
                word.into(),
                Some(format!("trust {}-map {map}", kind.word())),
            )
        }
    }
}

/// V006 on OS10: the kind of trust map a port classifies by, and what that map puts in each
/// qos-group, against the fabric's.
fn judge_trust(
    got: &crate::os10::Config,
    want: &crate::os10::Config,
    i: &crate::os10::Iface,
) -> Option<String> {
    let ((g, named), (w, _)) = (trust_words(got, i), trust_words(want, i));
    if g != w {
        let by = named.map_or(String::new(), |n| format!(" (`{n}`)"));
        return Some(format!("trust {g}{by}, the fabric says {w}"));
    }
    fn groups<'c>(
        c: &'c crate::os10::Config,
        i: &crate::os10::Iface,
    ) -> Option<&'c BTreeMap<u8, crate::os10::Ranges>> {
        c.trust_of(i).and_then(|(_, m)| m).map(|m| &m.groups)
    }
    let (gm, wm) = (groups(got, i), groups(want, i));
    if gm == wm {
        return None;
    }
    let named = named.unwrap_or_default();
    let Some(gm) = gm else {
        return Some(format!(
            "trust {g} by `{named}`, which the configuration does not define"
        ));
    };
    let empty = BTreeMap::new();
    let wm = wm.unwrap_or(&empty);
    let keys: BTreeSet<&u8> = gm.keys().chain(wm.keys()).collect();
    let shown = |m: &BTreeMap<u8, crate::os10::Ranges>, k: &u8| {
        m.get(k).map_or("none".to_string(), ToString::to_string)
    };
    let wrong: Vec<String> = keys
        .into_iter()
        .filter(|k| gm.get(k) != wm.get(k))
        .map(|k| {
            format!(
                "qos-group {k} {}, the fabric says {}",
                shown(gm, k),
                shown(wm, k)
            )
        })
        .collect();
    Some(format!("trust {g} by `{named}`: {}", wrong.join("; ")))
}

/// V009: each pool the fabric declares, as declared.
pub(super) fn pools(cx: &mut Cx<'_>) {
    for (name, hits) in by_os(cx, pools_onyx, pools_os10) {
        for text in hits {
            cx.hit(name, "V009", None, text);
        }
    }
}

fn pools_onyx(sw: &Switch, obs: &Observed) -> Vec<String> {
    let mut hits = Vec::new();
    for (pool, got) in &obs.pools {
        let Some(want) = sw.qos.pools.get(pool) else {
            continue;
        };
        let Some(got) = got else {
            hits.push(format!(
                "no buffer pool `{pool}`; the fabric declares it {}",
                want.kind
            ));
            continue;
        };
        let mut wrong = Vec::new();
        if !got.kind.eq_ignore_ascii_case(want.kind.word()) {
            wrong.push(format!("type {}, the fabric says {}", got.kind, want.kind));
        }
        if let Some(m) = want.memory {
            let same = got
                .memory
                .parse::<f64>()
                .ok()
                .and_then(|v| Percent::from_f64(v).ok())
                == Some(m);
            if !same {
                wrong.push(format!("memory {}%, the fabric says {m}%", got.memory));
            }
        }
        let priorities: BTreeSet<u8> = want.priorities.iter().map(|p| p.get()).collect();
        if got.priorities != priorities {
            wrong.push(format!(
                "switch priorities {}, the fabric says {}",
                list(&got.priorities),
                list(&priorities)
            ));
        }
        if !wrong.is_empty() {
            hits.push(format!("buffer pool `{pool}`: {}", wrong.join("; ")));
        }
    }
    hits
}

/// V009 on OS10, which has no buffer pools: a priority is buffered losslessly where a
/// network-qos policy in use pauses it (`pause`, `pfc-cos`; its buffer OS10 sizes itself, so
/// the pool's type and priorities are what is judged). Each pool's priorities are paused as
/// the fabric's PFC pauses them once pushed: all of a lossless pool's, none of a lossy one's.
fn pools_os10(sw: &Switch, running: &crate::os10::Config) -> Vec<String> {
    let (got, want) = (paused(running), paused(&compile_switch(sw)));
    let mut hits = Vec::new();
    for (pool, p) in &sw.qos.pools {
        let mine: BTreeSet<u8> = p.priorities.iter().map(|p| p.get()).collect();
        let (g, w): (BTreeSet<u8>, BTreeSet<u8>) = (&mine & &got, &mine & &want);
        if g != w {
            hits.push(format!(
                "buffer pool `{pool}` ({}): priorities paused by the network-qos policies in use (`pause`, `pfc-cos`) {}, the fabric says {}",
                p.kind,
                list(&g),
                list(&w)
            ));
        }
    }
    hits
}
