//! V005-V009: PFC, trust, ECN, ETS and the buffer pools, as each switch's OS reports them
//! (Onyx a `show` per interface, traffic class and pool; OS10 its PFC per interface, the rest
//! from its running configuration), judged against the fabric's QoS as that OS shows it once
//! pushed ([`crate::targets::Wanted`]: the fabric's settings as written on Onyx, what its
//! compiled configuration gives each port on OS10), in the words the OS configures them with
//! ([`Said`]).

use std::collections::{BTreeMap, BTreeSet};

use super::{Cx, Family, Observed};
use crate::fabric::Switch;
use crate::targets::{PfcWant, Said, Wanted};
use crate::types::Iface;
use crate::types::{Ecn, Ets, Percent, Port, TcIter};
use crate::verify::observed::{self, Marking, Sched, Trusted};

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

/// V005: PFC operational on every cabled port (and bundle) in PFC mode. When the pools are
/// checked and the switch pauses other priorities than the fabric's, that is V009's one
/// finding, and the ports' priorities follow from it.
pub(super) fn pfc(cx: &mut Cx<'_>) {
    for (name, sw, obs) in cx.verified() {
        let Some(pfc) = &obs.pfc else { continue };
        let reads = sw.os().target().reads();
        let wanted = reads.wanted(sw);
        let policy_explains = cx.families.contains(&Family::Pools)
            && obs
                .paused
                .as_ref()
                .is_some_and(|got| Some(got) != wanted.paused().as_ref());
        let hits = pfc_hits(
            cx,
            name,
            sw,
            pfc,
            wanted.pfc(),
            reads.said(),
            policy_explains,
        );
        for (iface, text) in hits {
            cx.hit(name, "V005", Some(iface), text);
        }
    }
}

/// Each interface in PFC mode that was read (one whose reply did not read is named as such,
/// not judged; one a reply of every interface leaves out is a finding) is operational and
/// pauses what the fabric's QoS pauses there, where its reply lists that.
fn pfc_hits(
    cx: &Cx<'_>,
    name: &str,
    sw: &Switch,
    pfc: &BTreeMap<Iface, observed::Pfc>,
    wants: Vec<PfcWant>,
    said: &Said,
    policy_explains: bool,
) -> Vec<(Iface, String)> {
    // A port found down or miswired, or a port-channel that follows its members all of which
    // are: its PFC follows from that finding.
    let explained = |w: &PfcWant| match w.iface {
        Iface::Ethernet(p) => cx.explained(name, p),
        Iface::PortChannel(n) if w.follows_members => {
            let mut members = sw
                .ports
                .iter()
                .filter(|(_, s)| s.bundle.is_some_and(|b| b.id == n))
                .peekable();
            members.peek().is_some() && members.all(|(p, _)| cx.explained(name, *p))
        }
        _ => false,
    };
    wants
        .into_iter()
        .filter(|w| !explained(w))
        .filter_map(|w| {
            let text = match pfc.get(&w.iface) {
                None => format!("in PFC mode, but `{}` does not list it", said.pfc_all?),
                Some(s) if !s.enabled() => format!(
                    "in PFC mode, but `{}` is {}{}",
                    said.pfc_oper,
                    s.oper,
                    s.admin
                        .as_ref()
                        .map_or(String::new(), |a| format!(" (`{}` {a})", said.pfc_admin))
                ),
                Some(s) => {
                    let want = w.priorities.as_ref()?;
                    if policy_explains || s.priorities.as_ref() == Some(want) {
                        return None;
                    }
                    let got = s.priorities.clone().unwrap_or_default();
                    format!(
                        "in PFC mode, but it pauses priorities {}, the fabric says {}",
                        list(&got),
                        list(want)
                    )
                }
            };
            Some((w.iface, text))
        })
        .collect()
}

/// V006-V008: trust, ECN and ETS of each cabled port read.
pub(super) fn qos(cx: &mut Cx<'_>) {
    for (name, sw, obs) in cx.verified() {
        if obs.trust.is_empty() && obs.ecn.is_empty() && obs.ets.is_empty() {
            continue;
        }
        let reads = sw.os().target().reads();
        for (rule, port, text) in qos_hits(obs, &*reads.wanted(sw), reads.said()) {
            cx.hit(name, rule, Some(Iface::Ethernet(port)), text);
        }
    }
}

/// A finding of V006-V008: its rule, its port, its message.
type QosHit = (&'static str, Port, String);

fn qos_hits(obs: &Observed, wanted: &dyn Wanted, said: &Said) -> Vec<QosHit> {
    let mut hits = Vec::new();
    for (p, got) in &obs.trust {
        if let Some(want) = wanted.trust(*p)
            && let Some(text) = judge_trust(got, &want)
        {
            hits.push(("V006", *p, text));
        }
    }
    for (p, got) in &obs.ecn {
        let Some(wants) = wanted.ecn(*p) else {
            continue;
        };
        let wrong = judge_ecn(wants.iter(), |tc| got.get(&tc).cloned(), said.ecn);
        if !wrong.is_empty() {
            hits.push(("V007", *p, wrong.join("; ")));
        }
    }
    for (p, got) in &obs.ets {
        let Some(wants) = wanted.ets(*p) else {
            continue;
        };
        let wrong = judge_ets(wants.iter(), |tc| got.get(&tc).cloned(), said.ets);
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

/// Each traffic class the fabric schedules, as it says: the differences, in words (`say`
/// prints a scheduling as the switch's OS words it).
fn judge_ets(
    wants: TcIter<'_, Ets>,
    got: impl Fn(u8) -> Option<Sched>,
    say: fn(&Ets) -> String,
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (tc, want) in wants {
        let seen = got(tc.get());
        let shown = match &seen {
            Some(Sched::Strict) if *want == Ets::Strict => continue,
            Some(Sched::Wrr(w)) if *want == Ets::Wrr(*w) => continue,
            Some(Sched::Strict) => say(&Ets::Strict),
            Some(Sched::Wrr(w)) => say(&Ets::Wrr(*w)),
            Some(Sched::Other(o)) => format!("`{o}`"),
            None => "not listed".into(),
        };
        wrong.push(format!(
            "traffic class {tc}: {shown}, the fabric says {}",
            say(want)
        ));
    }
    wrong
}

/// V006: the trust a port classifies by against the fabric's; where both classify by a map,
/// what the map puts in each group.
fn judge_trust(got: &Trusted, want: &Trusted) -> Option<String> {
    let g = &got.mode;
    if !g.eq_ignore_ascii_case(&want.mode) {
        let by = got
            .map
            .as_ref()
            .map_or(String::new(), |n| format!(" (`{n}`)"));
        return Some(format!("trust {g}{by}, the fabric says {}", want.mode));
    }
    if got.groups == want.groups {
        return None;
    }
    let named = got.map.as_deref().unwrap_or_default();
    let Some(gm) = &got.groups else {
        return Some(format!(
            "trust {g} by `{named}`, which the configuration does not define"
        ));
    };
    let empty = BTreeMap::new();
    let wm = want.groups.as_ref().unwrap_or(&empty);
    let keys: BTreeSet<&u8> = gm.keys().chain(wm.keys()).collect();
    let shown =
        |m: &BTreeMap<u8, String>, k: &u8| m.get(k).map_or("none", String::as_str).to_string();
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

/// V009: each pool the fabric declares, as declared: as the switch lists its pools (Onyx),
/// or as the priorities it pauses (OS10, which has no buffer pools).
pub(super) fn pools(cx: &mut Cx<'_>) {
    for (name, sw, obs) in cx.verified() {
        let mut hits = pools_listed(sw, obs);
        if let Some(got) = &obs.paused {
            let reads = sw.os().target().reads();
            if let Some(want) = reads.wanted(sw).paused() {
                hits.extend(pools_paused(sw, got, &want, reads.said()));
            }
        }
        for text in hits {
            cx.hit(name, "V009", None, text);
        }
    }
}

fn pools_listed(sw: &Switch, obs: &Observed) -> Vec<String> {
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

/// V009 where the switch has no buffer pools (OS10): a priority is buffered losslessly where
/// it is paused (its buffer the OS sizes itself, so the pool's type and priorities are what
/// is judged). Each pool's priorities are paused as the fabric's PFC pauses them once pushed:
/// all of a lossless pool's, none of a lossy one's.
fn pools_paused(sw: &Switch, got: &BTreeSet<u8>, want: &BTreeSet<u8>, said: &Said) -> Vec<String> {
    let mut hits = Vec::new();
    for (pool, p) in &sw.qos.pools {
        let mine: BTreeSet<u8> = p.priorities.iter().map(|p| p.get()).collect();
        let (g, w): (BTreeSet<u8>, BTreeSet<u8>) = (&mine & got, &mine & want);
        if g != w {
            hits.push(format!(
                "buffer pool `{pool}` ({}): priorities paused by {} {}, the fabric says {}",
                p.kind,
                said.paused_by,
                list(&g),
                list(&w)
            ));
        }
    }
    hits
}
