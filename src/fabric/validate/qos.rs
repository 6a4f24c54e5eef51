//! Switch-wide QoS: the fabric's and a switch's `qos` merged, a preset expanded, then
//! pools, PFC, the `roce` mode and the hosts' DSCP checked against each other and the
//! release.
//!
//! PFC is complete by default: a switch with a lossless pool (and no `roce` mode, which owns
//! PFC) gets global PFC on the lossless pools' priorities and PFC mode on every port, unless
//! it writes `qos.pfc` (`false`/`off`: none at all; a port opts out with `pfc: false`). A
//! lossless pool alone is a buffer setting: the Onyx manual's PFC chapter says PFC is off on
//! every priority by default, and no chapter says a lossless pool turns it on
//! (`fabric explain R011`).

use super::preset::{self, Recipe};
use super::*;
use crate::fabric::raw::{RawPfcSetting, RawPool};

/// `qos.pfc` as the switch has it.
enum PfcIntent<'a> {
    /// Not written, or `true`/`on`: on the lossless priorities, and on every port.
    Default(Option<Span>),
    /// `false`/`off`.
    Off(Span),
    Table(&'a crate::fabric::raw::RawPfc),
}

/// Fabric-wide and per-switch QoS merged: each key the switch gives replaces the fabric's.
/// The preset is the fabric's only for a switch that writes no `qos`: a switch's `qos`
/// (empty, or without `preset`, or `preset: null`) clears it, so one line can make a mixed
/// fabric lossless and a switch leave the recipe out.
pub(crate) fn merged_qos(fabric: Option<&RawQos>, switch: Option<&Option<RawQos>>) -> RawQos {
    let mut q = fabric.cloned().unwrap_or_default();
    // No `qos` under the switch: the fabric's; `qos:` written empty: none of it.
    let Some(written) = switch else {
        return q;
    };
    let Some(s) = written else {
        return RawQos::default();
    };
    {
        // `preset: null` clears the fabric's preset; a key written replaces the fabric's.
        if s.preset.is_some() {
            q.preset = s.preset.clone();
        }
        if s.roce.is_some() {
            q.roce = s.roce.clone();
        }
        if s.pools.is_some() {
            q.pools = s.pools.clone();
        }
        if s.pfc.is_some() {
            q.pfc = s.pfc.clone();
        }
        if s.dscp.is_some() {
            q.dscp = s.dscp.clone();
        }
    }
    q
}

/// Switch-wide QoS: pools, PFC, `roce` mode and the DSCP cross-checks; and the port settings
/// they imply for every port (the preset's, PFC mode by default), beneath `port_defaults`.
pub(crate) fn qos(
    cx: &mut Cx,
    q: &RawQos,
    release: Option<At<Release>>,
    os: crate::fabric::Os,
) -> (Qos, Layer) {
    let recipe: Option<(&Recipe, Sp<String>)> = preset::preset(cx, q);
    let expanded;
    let written = q;
    let q = match &recipe {
        Some((r, at)) => {
            preset::conflicts(cx, written, r, at);
            expanded = preset::expand(written, r, at, os);
            &expanded
        }
        None => q,
    };
    let mut implied = match &recipe {
        Some((r, at)) => preset::port_layer(r, cx.span(at)),
        None => Layer::default(),
    };
    let mut out = Qos::default();
    roce_mode(cx, q, release, &mut out);
    let pools = pools(cx, q, release, &mut out);
    if let Some((r, at)) = &recipe {
        preset::pools_keep(cx, written, r, at, &pools.lossless);
    }
    let intent = pfc_intent(cx, q);
    pfc(cx, (q, intent, &recipe), &pools, &mut out, &mut implied);
    dscp(cx, (q, written, recipe.is_some()), &pools, &mut out);
    (out, implied)
}

/// `roce` mode: refused before its release (E034) and beside explicit pools (E034).
fn roce_mode(cx: &mut Cx, q: &RawQos, release: Option<At<Release>>, out: &mut Qos) {
    let Some(m) = &q.roce else { return };
    out.roce = cx.word(m, RoceMode::parse);
    if let Some((r, rat)) = release
        && r < Release::ROCE_COMMAND
    {
        cx.push(
            Diagnostic::error(
                "E034",
                format!(
                    "`roce` mode needs Onyx {} or later; this switch runs {r}",
                    Release::ROCE_COMMAND
                ),
            )
            .at(cx.span(m), "roce mode")
            .also(rat, "release set here")
            .help("configure pools, trust, ECN and PFC explicitly instead"),
        );
    }
    if let Some(pools) = q.pools.as_ref().filter(|p| !p.0.is_empty()) {
        let first = cx.span(&pools.0[0].0);
        cx.push(
            Diagnostic::error(
                "E034",
                "`roce` mode and explicit pools are exclusive: `roce` owns the buffer pools",
            )
            .at(cx.span(m), "roce mode")
            .also(first, "explicit pool")
            .help("choose one: remove `roce`, or remove `pools`"),
        );
    }
}

/// The pools (their names, types, memory and priorities) and their checks: a release without
/// traffic pools (E034), a priority in two pools (E031), memory over 100 % (E030). The owner
/// pool of each priority, and the priorities of pools refused (their meaning unknown).
struct Pools {
    owner: BTreeMap<Priority, (String, Span)>,
    unknown: BTreeSet<Priority>,
    lossless: BTreeSet<Priority>,
}

fn pools(cx: &mut Cx, q: &RawQos, release: Option<At<Release>>, out: &mut Qos) -> Pools {
    let mut memory = Memory::default();
    let mut owner: BTreeMap<Priority, (String, Span)> = BTreeMap::new();
    // Priorities of pools whose name or type was refused: what those pools are meant to be is
    // unknown, so the PFC and DSCP checks say nothing about them rather than guess.
    let mut unknown: BTreeSet<Priority> = BTreeSet::new();
    for (name, p) in q.pools.iter().flat_map(|e| e.0.iter()) {
        let n = name.get();
        let name_ok = pool_name(cx, name, release);
        let kind = cx.word(&p.kind, PoolType::parse);
        let share = pool_memory(cx, (n, p), &mut memory);
        let priorities = pool_priorities(cx, (n, p), &mut owner);
        match kind {
            Some(kind) if name_ok => {
                out.pools.insert(
                    n.clone(),
                    Pool {
                        kind,
                        memory: share,
                        priorities,
                    },
                );
            }
            _ => unknown.extend(priorities),
        }
    }
    memory_over(cx, &memory);
    // The lossless pools' priorities: PFC's and the RoCE DSCP's.
    let lossless = out
        .pools
        .values()
        .filter(|p| p.kind == PoolType::Lossless)
        .flat_map(|p| p.priorities.iter().copied())
        .collect();
    Pools {
        owner,
        unknown,
        lossless,
    }
}

/// The pools' memory as written: the total in hundredths of a percent, and where each pool's
/// is written, with the pool's name.
#[derive(Default)]
struct Memory {
    total: u32,
    at: Vec<(Span, String)>,
}

/// Whether a pool's name checks (E024); a release without traffic pools is E034 at it.
fn pool_name(cx: &mut Cx, name: &Sp<String>, release: Option<At<Release>>) -> bool {
    let nat = cx.span(name);
    let name_ok = match check_pool_name(name.get()) {
        Ok(()) => true,
        Err(e) => {
            cx.invalid("E024", e, nat, "pool name");
            false
        }
    };
    if name_ok
        && let Some((r, rat)) = release
        && r < Release::TRAFFIC_POOLS
    {
        cx.push(
            Diagnostic::error(
                "E034",
                format!(
                    "traffic pools need Onyx {} or later; this switch runs {r}",
                    Release::TRAFFIC_POOLS
                ),
            )
            .at(nat, "pool")
            .also(rat, "release set here"),
        );
    }
    name_ok
}

/// A pool's memory, a percentage (E020), added to the pools' `memory`.
fn pool_memory(cx: &mut Cx, (n, p): (&String, &RawPool), memory: &mut Memory) -> Option<Percent> {
    let m = p.memory.as_ref()?;
    let at = cx.span(m);
    match Percent::check(*m.get()) {
        Ok(v) => {
            memory.total += u32::from(v.hundredths());
            memory.at.push((at, n.clone()));
            Some(v)
        }
        Err(e) => {
            cx.error("E020", format!("pool memory {e}"), at, e.label());
            None
        }
    }
}

/// A pool's priorities, each checked and in no other pool (E031; `owner`: the pool of each
/// priority so far).
fn pool_priorities(
    cx: &mut Cx,
    (n, p): (&String, &RawPool),
    owner: &mut BTreeMap<Priority, (String, Span)>,
) -> BTreeSet<Priority> {
    let mut priorities = BTreeSet::new();
    for (pr, at) in p
        .priorities
        .as_ref()
        .map(|l| cx.priorities(l))
        .unwrap_or_default()
    {
        if let Some((other, oat)) = owner.get(&pr) {
            let oat = *oat;
            cx.push(
                Diagnostic::error(
                    "E031",
                    format!("switch priority {pr} is mapped to two pools, `{other}` and `{n}`"),
                )
                .at(at, format!("in `{n}`"))
                .also(oat, format!("in `{other}`"))
                .help("a switch priority belongs to one pool"),
            );
            continue;
        }
        owner.insert(pr, (n.clone(), at));
        priorities.insert(pr);
    }
    priorities
}

/// E030: the pools' memory adds up to more than 100 %, at the pool that passes it.
fn memory_over(cx: &mut Cx, memory: &Memory) {
    let total = memory.total;
    if total <= 10_000 {
        return;
    }
    let mut d = Diagnostic::error(
        "E030",
        format!(
            "pool memory adds up to {}.{:02}%, more than 100%",
            total / 100,
            total % 100
        ),
    );
    if let Some(((last, name), rest)) = memory.at.split_last() {
        d = d.at(
            *last,
            format!("memory of `{name}`: the total passes 100% here"),
        );
        for (s, name) in rest {
            d = d.also(*s, format!("memory of `{name}`"));
        }
    }
    cx.push(d.help("lower the `memory` of one or more pools"));
}

/// What `qos.pfc` says: nothing or on, off, or a table of priorities.
fn pfc_intent<'a>(cx: &mut Cx, q: &'a RawQos) -> PfcIntent<'a> {
    match q.pfc.as_ref() {
        None => PfcIntent::Default(None),
        Some(p) => {
            let at = cx.span(p);
            match p.get() {
                RawPfcSetting::Flag(true) => PfcIntent::Default(Some(at)),
                RawPfcSetting::Flag(false) => PfcIntent::Off(at),
                RawPfcSetting::Word(w) => {
                    match cx.word(&Sp::like(w.clone(), p), |w| {
                        choose(w, &[("on", true), ("off", false)], "PFC setting")
                    }) {
                        Some(true) => PfcIntent::Default(Some(at)),
                        Some(false) => PfcIntent::Off(at),
                        // Refused (E021): what was meant is unknown; nothing is implied.
                        None => PfcIntent::Off(at),
                    }
                }
                RawPfcSetting::Table(t) => PfcIntent::Table(t),
            }
        }
    }
}

/// PFC from its intent: on the lossless priorities by default (every port's mode on with it),
/// off (E038 beside `roce`), or as its table says (E032, E033); W006 where it changes nothing.
fn pfc(
    cx: &mut Cx,
    (q, intent, recipe): (&RawQos, PfcIntent<'_>, &Option<(&Recipe, Sp<String>)>),
    pools: &Pools,
    out: &mut Qos,
    implied: &mut Layer,
) {
    let (owner, unknown, lossless) = (&pools.owner, &pools.unknown, &pools.lossless);
    let roce_owns = matches!(out.roce, Some(RoceMode::Lossless | RoceMode::SemiLossless));
    match intent {
        PfcIntent::Default(at) => {
            if out.roce.is_none() && !lossless.is_empty() {
                out.pfc = Some(Pfc {
                    enabled: true,
                    priorities: lossless.clone(),
                });
                // Placed where PFC is said on, else at the preset or the first lossless pool.
                let place = at
                    .or_else(|| recipe.as_ref().map(|(_, p)| cx.span(p)))
                    .or_else(|| {
                        lossless
                            .iter()
                            .next()
                            .and_then(|p| owner.get(p))
                            .map(|o| o.1)
                    });
                if let Some(place) = place {
                    implied.pfc = Some((true, place));
                }
            } else if let Some(at) = at.filter(|_| out.roce.is_none() && unknown.is_empty()) {
                nothing_to_do(cx, at, "on");
            }
        }
        PfcIntent::Off(at) => {
            // Every port's PFC mode is off here: said at this line (a cable's far end that
            // pauses disagrees with it, E051).
            implied.pfc = Some((false, at));
            if roce_owns && recipe.is_none() {
                let mode = q.roce.as_ref().map(|m| cx.span(m));
                let mut d = Diagnostic::error(
                    "E038",
                    "PFC is turned off beside the `roce` mode, which turns it on for the RoCE priority",
                )
                .at(at, "PFC off");
                if let Some(m) = mode {
                    d = d.also(m, "roce mode");
                }
                cx.push(d.help("remove the PFC opt-out, or choose `roce: lossy`"));
            } else if lossless.is_empty() && out.roce.is_none() && unknown.is_empty() {
                nothing_to_do(cx, at, "off");
            }
        }
        PfcIntent::Table(pfc) => {
            pfc_table(cx, pfc, roce_owns, pools, out, implied);
        }
    }
}

/// `qos.pfc` as a table: its priorities each in a lossless pool (E032), every lossless
/// priority in it (E033), every port's mode on with it.
fn pfc_table(
    cx: &mut Cx,
    pfc: &crate::fabric::raw::RawPfc,
    roce_owns: bool,
    pools: &Pools,
    out: &mut Qos,
    implied: &mut Layer,
) {
    let (owner, unknown, lossless) = (&pools.owner, &pools.unknown, &pools.lossless);
    let list = pfc
        .priorities
        .as_ref()
        .map(|l| cx.priorities(l))
        .unwrap_or_default();
    // The list is the line to change for each priority it has or lacks (E032, E033).
    let list_at = pfc.priorities.as_ref().map(|l| cx.list_span(l));
    for (pr, at) in &list {
        if !lossless.contains(pr) && !roce_owns && !unknown.contains(pr) {
            let where_ = owner
                .get(pr)
                .and_then(|(n, s)| Some((n.clone(), *s, out.pools.get(n)?.kind)));
            let mut d = Diagnostic::error(
                "E032",
                format!("PFC is enabled on switch priority {pr}, which no lossless pool maps"),
            )
            .at(list_at.unwrap_or(*at), format!("PFC on priority {pr}"));
            if let Some((n, s, kind)) = where_ {
                d = d.also(s, format!("mapped to `{n}`, a `{kind}` pool"));
            }
            cx.push(d.help("map the priority to a `type: lossless` pool, or drop it from PFC: pause frames on a lossy pool drop traffic anyway"));
        }
    }
    let enabled: BTreeSet<Priority> = list.iter().map(|(p, _)| *p).collect();
    if let Some(at) = pfc.priorities.as_ref().map(|l| cx.list_span(l)) {
        for pr in lossless.difference(&enabled) {
            let oat = owner.get(pr).map(|x| x.1);
            let mut d = Diagnostic::error(
                "E033",
                format!("switch priority {pr} is in a lossless pool but PFC is not enabled on it"),
            )
            .at(at, "PFC priorities");
            if let Some(s) = oat {
                d = d.also(s, "lossless pool priority");
            }
            cx.push(d.help(format!("add {pr} to the PFC priorities")));
        }
    }
    let on = pfc.enabled.as_ref().is_none_or(|v| *v.get());
    // PFC written out, on some priority: every port in PFC mode too, by default.
    if on && !enabled.is_empty() && out.roce.is_none() {
        let at = pfc.priorities.as_ref().map(|l| cx.list_span(l));
        implied.pfc = at.map(|at| (true, at));
    }
    out.pfc = Some(Pfc {
        enabled: on,
        priorities: enabled,
    });
}

/// The RoCE and CNP DSCPs, the RoCE one on a priority a lossless pool holds (W003).
fn dscp(cx: &mut Cx, (q, written, preset): (&RawQos, &RawQos, bool), pools: &Pools, out: &mut Qos) {
    let (unknown, lossless) = (&pools.unknown, &pools.lossless);
    let dscp_from_preset = preset && written.dscp.is_none();
    if let Some(dscp) = &q.dscp {
        for (v, what) in [(&dscp.roce, "RoCE"), (&dscp.cnp, "CNP")] {
            let Some(v) = v else { continue };
            let Some(d) = cx.int(v, Dscp::new) else {
                continue;
            };
            if what == "RoCE" {
                out.dscp.roce = Some(d);
            } else {
                out.dscp.cnp = Some(d);
            }
            let pr = d.default_priority();
            let lossless_ok = lossless.contains(&pr)
                || matches!(out.roce, Some(RoceMode::Lossless | RoceMode::SemiLossless));
            // Values the preset gave: a pool that breaks them is E038's already.
            if what == "RoCE"
                && !dscp_from_preset
                && !lossless_ok
                && !unknown.contains(&pr)
                && (!out.pools.is_empty() || out.roce.is_some())
            {
                cx.push(
                    Diagnostic::warning("W003", format!("RoCE DSCP {d} maps to switch priority {pr} (DSCP/8, Onyx's default map), which no lossless pool holds"))
                        .at(cx.span(v), "RoCE DSCP")
                        .help(format!("map priority {pr} to the lossless pool, or mark RoCE with a DSCP in {}-{}", lossless.iter().next().map_or(24, |p| p.get() * 8), lossless.iter().next().map_or(31, |p| p.get() * 8 + 7))),
                );
            }
        }
    }
}

/// W006: `qos.pfc: on|off` on a switch with no lossless pool, where it changes nothing.
fn nothing_to_do(cx: &mut Cx, at: Span, said: &str) {
    cx.push(
        Diagnostic::warning(
            "W006",
            format!("`qos.pfc: {said}` changes nothing: this switch has no lossless pool"),
        )
        .at(at, "no lossless pool to pause")
        .help("remove it; PFC follows the lossless pools by default, and `false` opts out"),
    );
}
