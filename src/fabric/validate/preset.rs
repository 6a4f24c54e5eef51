//! `qos.preset: roce-lossless`: the lossless RoCE recipe as one table, expanded into the keys
//! it stands for (a pool, DSCP values, port settings), which each OS compiles as the QoS keys'
//! table says (`fabric::meaning`): on Onyx NVIDIA's `roce lossless` recipe written out, so
//! releases without the one-shot `roce` command (before 3.8.2000) get it in one line and
//! releases with it the same explicit lines (how `roce lossless` itself prints in a running
//! config is not confirmed by any capture, `onyx-cli.md` §a.7, so the preset never compiles
//! to it); on OS10 Dell's RoCE configuration (`os10-roce.md`) with the same values. The
//! preset is a recipe, not an Onyx feature: one line makes a mixed fabric lossless.
//!
//! Keys written beside the preset replace its values (a key of `qos`, a port setting in
//! `port_defaults`, a profile or an entry); where a switch-wide key takes away what makes
//! RoCE lossless, that is E038, at both places. A switch that writes its own `qos` (even
//! empty, or `preset: null`) leaves the fabric's preset out (`qos::merged_qos`); a switch
//! whose release or model cannot run it is E034 at the preset (its OS's
//! [`crate::targets::Rules::check_model`]).

use super::*;
use crate::fabric::Os;
use crate::fabric::raw::{RawDscp, RawPfcSetting, RawPool};
use crate::types::Preset;

/// One recipe, in the format's terms. Sources, as marked in `../shared/reference/onyx-cli.md`:
///
/// - [NV-ROCE]: the Onyx manual's RoCE Commands page, `show roce` in lossless mode (§a.7, §d.4);
///   the same fields in a real `show roce` of an SN2700 on 3.10.4006
///   (`../shared/corpus/onyx/more/blog-id310222282__SN2700__show_roce_Onyx_3.10.4006.txt`):
///   trust L3; ECN absolute 150/1500 KB; PFC enabled on switch priority 3; "RoCE used TCs":
///   SP3 → TC3 `WRR 50%`, SP6 → TC6 `Strict`; a lossless pool on priority 3
///   (`roce-reserved`, memory `auto`).
/// - The pool as a `traffic pool` (3.6.5000 on): `traffic pool roce type lossless` /
///   `memory percent 50.00` / `map switch-priority 3`, the reference deployment guide's session
///   and Ansible's `onyx_buffer_pool` example (§a.2, §d.3 [ATT][ANS]).
/// - DSCP 26 (RoCE) and 48 (CNP): Onyx's default map under trust L3 puts them on priorities 3
///   and 6 (§a.3 [ATT], `show qos interface` [ANS fixture]); hosts mark RoCE with ToS 106.
/// - PFC lines: `dcb priority-flow-control enable force`, `… priority 3 enable`, per port
///   `… mode on force` (§a.6 [ANS][ATT]); PFC is off on every priority by default [NV-PFC].
///
/// Not in it: TC0 WRR 50. NVIDIA's Cumulus `roce` gives TC0 and TC3 50 % each, but there every
/// other priority is remapped to TC0 [CUM]; Onyx's `show roce` lists only TC3 and TC6, and
/// the preset keeps Onyx's default priority → class map, so TC0 keeps its default weight.
///
/// The lines it compiles to, per OS (`fabric::meaning::QOS_KEYS`, each row's sources):
///
/// | recipe | Onyx | OS10 (Dell's RoCE configuration, `os10-roce.md`; spelling and order of the AzureStack TOR capture, 10.5.3.2) |
/// |---|---|---|
/// | pool, priority 3 | `traffic pool roce type lossless`, `… memory percent 50.00`, `… map switch-priority 3` | none: OS10 has no traffic pools and sizes its PFC classes' buffers itself [OS10-UG buffer management] |
/// | PFC on 3 | `dcb priority-flow-control enable force`, `… priority 3 enable`; per port `… mode on force` | `dcbx enable`; `class-map type network-qos ROCE3` (`match qos-group 3`); `policy-map type network-qos ROCE_PFC` (`class ROCE3`, `pause`, `pfc-cos 3`); per port `flowcontrol receive off`, `priority-flow-control mode on`, `service-policy input type network-qos ROCE_PFC` [capture] |
/// | trust L3 | `interface ethernet … qos trust L3` | `trust dscp-map ROCE_TRUST` (`qos-group N dscp 8N-8N+7`, Onyx's default map), `system qos` / `trust-map dscp ROCE_TRUST` [doc; dscp-map UNCONFIRMED by a capture] |
/// | ECN 150/1500 KB on TC3 | `… traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500` | `wred ecn` (`random-detect color green minimum-threshold 150 maximum-threshold 1500 drop-probability 100`, `random-detect ecn`), `random-detect ecn` in class `Q3` [capture] |
/// | TC3 WRR 50, TC6 strict | `… traffic-class 3 dcb ets wrr 50`, `… traffic-class 6 dcb ets strict`; the other classes Onyx's default weights (12/13) | `class-map type queuing Q0`…`Q7`; `qos-map traffic-class ROCE_QMAP` (queue N ← qos-group N); `policy-map type queuing ROCE_ETS`: `Q3` `bandwidth percent 40`, `Q6` `priority` (UNCONFIRMED spelling), the others 10; `system qos` / `ets mode on`; per port `service-policy output type queuing ROCE_ETS`, `ets mode on`, `qos-map traffic-class ROCE_QMAP` [capture] |
/// | DSCP 26, 48 | none (checked against DSCP/8) | none (the DSCP trust map is DSCP/8) |
///
/// OS10 before 10.3 (ETS "Supported Releases 10.3.0E or later", Dell OS10 user guide 10.5.1)
/// and the models of OS10's table that run no RoCE QoS (`NO_ROCE_QOS`) cannot run it: E034 at
/// the preset.
pub struct Recipe {
    pub pool: &'static str,
    pub pool_memory: f64,
    pub priority: u8,
    pub trust: Trust,
    pub ecn: (u8, u32, u32),
    pub ets: &'static [(u8, Ets)],
    pub dscp_roce: i64,
    pub dscp_cnp: i64,
}

/// `roce-lossless`.
pub const ROCE_LOSSLESS: Recipe = Recipe {
    pool: "roce",
    pool_memory: 50.0,
    priority: 3,
    trust: Trust::L3,
    ecn: (3, 150, 1500),
    ets: &[(3, Ets::Wrr(50)), (6, Ets::Strict)],
    dscp_roce: 26,
    dscp_cnp: 48,
};

/// The preset a switch's QoS names, checked: its recipe and where it is written.
pub(crate) fn preset(cx: &mut Cx, q: &RawQos) -> Option<(&'static Recipe, Sp<String>)> {
    let p = q.preset.as_ref()?.as_ref()?;
    let recipe = match cx.word(p, Preset::parse)? {
        Preset::RoceLossless => &ROCE_LOSSLESS,
    };
    Some((recipe, p.clone()))
}

/// The switch-wide keys written beside the preset that take away what makes RoCE lossless
/// (E038): the `roce` mode (it owns the same settings), PFC turned off. Pools without the
/// recipe's priority in a lossless one are checked once the pools are read ([`pools_keep`]).
pub(crate) fn conflicts(cx: &mut Cx, q: &RawQos, recipe: &Recipe, at: &Sp<String>) {
    let pat = cx.span(at);
    if let Some(m) = &q.roce {
        cx.push(
            Diagnostic::error(
                "E038",
                "`preset` and the `roce` mode both set the RoCE recipe: `roce` owns trust, ECN, ETS, PFC and the pools",
            )
            .at(cx.span(m), "roce mode")
            .also(pat, "preset")
            .help("choose one: remove `roce` (the preset writes the recipe out), or remove `preset`"),
        );
    }
    let off = match q.pfc.as_ref().map(|p| (p.get(), cx.span(p))) {
        Some((RawPfcSetting::Flag(false), s)) => Some(s),
        Some((RawPfcSetting::Word(w), s)) if w.eq_ignore_ascii_case("off") => Some(s),
        Some((RawPfcSetting::Table(t), _)) => {
            t.enabled.as_ref().filter(|e| !*e.get()).map(|e| cx.span(e))
        }
        _ => None,
    };
    if let Some(s) = off {
        cx.push(
            Diagnostic::error(
                "E038",
                format!(
                    "PFC is turned off beside `preset`: priority {} would be lossless in the buffer but never paused",
                    recipe.priority
                ),
            )
            .at(s, "PFC off")
            .also(pat, "preset")
            .help("remove the PFC opt-out (the preset turns PFC on), or remove `preset` and write the pool and its PFC yourself"),
        );
    }
}

/// E038 when pools written beside the preset leave its priority out of every lossless pool.
pub(crate) fn pools_keep(
    cx: &mut Cx,
    q: &RawQos,
    recipe: &Recipe,
    at: &Sp<String>,
    lossless: &BTreeSet<Priority>,
) {
    let Some(pools) = q.pools.as_ref().filter(|_| q.roce.is_none()) else {
        return;
    };
    if lossless.iter().any(|p| p.get() == recipe.priority) {
        return;
    }
    let Some((first, _)) = pools.0.first() else {
        return;
    };
    cx.push(
        Diagnostic::error(
            "E038",
            format!(
                "the pools written beside `preset` put priority {} (RoCE) in no lossless pool",
                recipe.priority
            ),
        )
        .at(cx.span(first), "pools replace the preset's")
        .also(cx.span(at), "preset")
        .help(format!(
            "map priority {} to a `type: lossless` pool, or remove `pools` to take the preset's",
            recipe.priority
        )),
    );
}

/// The QoS keys the preset stands for, where the switch writes none: its pool (unless the
/// `roce` mode owns the pools; on OS10 without `memory`) and the DSCP values. PFC needs no
/// key: a lossless pool turns it on by default.
pub(crate) fn expand(q: &RawQos, recipe: &Recipe, at: &Sp<String>, os: Os) -> RawQos {
    let mut q = q.clone();
    if q.pools.is_none() && q.roce.is_none() {
        let pool = RawPool {
            kind: Sp::like("lossless".to_string(), at),
            // OS10 has no traffic pools: its PFC classes are sized by the switch.
            memory: os
                .target()
                .rules()
                .pool_memory()
                .then(|| Sp::like(recipe.pool_memory, at)),
            priorities: Some(Sp::like(vec![Sp::like(i64::from(recipe.priority), at)], at)),
        };
        q.pools = Some(Entries(vec![(Sp::like(recipe.pool.to_string(), at), pool)]));
    }
    if q.dscp.is_none() {
        q.dscp = Some(RawDscp {
            roce: Some(Sp::like(recipe.dscp_roce, at)),
            cnp: Some(Sp::like(recipe.dscp_cnp, at)),
        });
    }
    q
}

/// The port settings the preset gives every port of the switch, beneath `port_defaults`:
/// trust, ECN on the RoCE class, ETS; each value placed at the preset.
pub(crate) fn port_layer(recipe: &Recipe, at: Span) -> Layer {
    let (tc, min, max) = recipe.ecn;
    let ecn: BTreeMap<TrafficClass, At<Ecn>> = TrafficClass::new(i64::from(tc))
        .ok()
        .map(|tc| {
            let e = Ecn {
                mode: EcnMode::Ecn,
                thresholds: EcnThresholds::Absolute { min, max },
            };
            (tc, (e, at))
        })
        .into_iter()
        .collect();
    let ets = recipe
        .ets
        .iter()
        .filter_map(|(tc, e)| Some((TrafficClass::new(i64::from(*tc)).ok()?, (*e, at))))
        .collect();
    Layer {
        trust: Some((recipe.trust, at)),
        ecn,
        ets,
        ..Layer::default()
    }
}
