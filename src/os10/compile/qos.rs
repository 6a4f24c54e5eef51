//! A switch's QoS in OS10's terms, as `crate::fabric::meaning` says each key means on both
//! OSes: trust maps (dot1p by default, as Onyx trusts PCP), switch priority N in queue N (the
//! identity `qos-map traffic-class`, Onyx's priority → traffic class map), the whole scheduler
//! of a port that sets ETS or ECN (every queue's `bandwidth percent` from the shares Onyx's
//! weights give, `priority` for strict), `wred` profiles for ECN, and one network-qos policy
//! pausing the lossless priorities. Spelling and order: the AzureStack TOR capture
//! (`tests/fixtures/corpus/os10/`) and `../shared/reference/os10-roce.md`.

use std::collections::{BTreeMap, BTreeSet};

use super::super::{
    ClassMap, Color, Config, Iface, Interface, PolicyClass, PolicyMap, QosKind, QosMap, Ranges,
    SystemQos, Thresholds, TrustKind, TrustMap, Wred,
};
use crate::fabric::PortSettings;
use crate::fabric::meaning::{Schedule, Tsa};
use crate::types::{Ecn, EcnMode, EcnThresholds, TrafficClass, Trust};

/// The network-qos policy's name, the reference's `ROCE_PFC`.
const PFC_POLICY: &str = "ROCE_PFC";
/// The trust map's name.
const TRUST_MAP: &str = "ROCE_TRUST";
/// The traffic-class map's name.
const QOS_MAP: &str = "ROCE_QMAP";

/// A port's queuing: per queue, how it is scheduled and its ECN thresholds (KB).
type Queuing = [(Tsa, Option<(u32, u32)>); 8];

/// The QoS objects of one switch, gathered port by port, then written once.
pub(super) struct Qos {
    /// Priorities paused (the lossless pools' and PFC's, when PFC is on).
    lossless: BTreeSet<u8>,
    /// WRED/ECN profiles, one per distinct thresholds (`wred ecn` in the TOR capture).
    wreds: BTreeMap<(u32, u32), String>,
    /// Queuing policies, one per distinct queuing of the ports that set ETS or ECN.
    queuings: Vec<(Queuing, String)>,
    /// What each interface with QoS trusts: `None` is `trust: port` (no trust map).
    trusts: Vec<(Iface, Option<TrustKind>)>,
}

impl Qos {
    pub(super) fn new(sw: &crate::fabric::Switch) -> Qos {
        let lossless = sw
            .qos
            .pfc
            .iter()
            .filter(|p| p.enabled)
            .flat_map(|p| p.priorities.iter().map(|x| x.get()))
            .collect();
        Qos {
            lossless,
            wreds: BTreeMap::new(),
            queuings: Vec::new(),
            trusts: Vec::new(),
        }
    }

    /// Whether the switch pauses some priority (`dcbx enable` goes with it: the TOR capture
    /// has it beside PFC; hosts learn the PFC settings by DCBX).
    pub(super) fn pauses(&self) -> bool {
        !self.lossless.is_empty()
    }

    /// One port's (or bundle's) QoS: its trust, its queuing policy when it sets ETS or ECN,
    /// PFC.
    pub(super) fn port(&mut self, iface: Iface, s: &PortSettings, e: &mut Interface) {
        self.trusts.push((iface, trust_kind(s.trust)));
        if let Some(q) = queuing(s) {
            for (_, ecn) in &q {
                if let Some(th) = ecn {
                    let n = self.wreds.len();
                    self.wreds.entry(*th).or_insert_with(|| match n {
                        0 => "ecn".to_string(),
                        n => format!("ecn{}", n + 1),
                    });
                }
            }
            let name = match self.queuings.iter().find(|(x, _)| *x == q) {
                Some((_, n)) => n.clone(),
                None => {
                    let n = match self.queuings.len() {
                        0 => "ROCE_ETS".to_string(),
                        k => format!("ROCE_ETS_{}", k + 1),
                    };
                    self.queuings.push((q, n.clone()));
                    n
                }
            };
            e.policy_out = Some(name);
            e.ets = true;
        }
        if s.pfc {
            // PFC and link-level pause are exclusive (Dell OS10 guide, p. 622): the TOR
            // capture prints `flowcontrol receive off` on every PFC port. On a port-channel
            // (the VLT port-channels) PFC and the policies are UNCONFIRMED: no capture has
            // QoS on a port-channel; its members get `flowcontrol receive off` by the caller.
            e.flowcontrol_rx = Some(false);
            e.pfc = true;
            // Without lossless priorities (PFC asked for on the port alone, `pfc: true`) there
            // is no network-qos policy to name: the AzureStack BMC's routed ports and the TOR's
            // ethernet1/1/44:1 print `priority-flow-control mode on` with no service-policy and
            // no qos-map.
            if self.pauses() {
                e.policy_in = Some(PFC_POLICY.to_string());
            }
        }
        if e.policy_out.is_some() || e.policy_in.is_some() {
            e.qos_map = Some(QOS_MAP.to_string());
        }
    }

    /// The QoS objects the ports reference, in the configuration; the trust map of each port
    /// whose trust is not the switch's.
    pub(super) fn finish(self, c: &mut Config) {
        c.dcbx = self.pauses();
        c.wred = self
            .wreds
            .iter()
            .map(|((min, max), name)| wred(name, *min, *max))
            .collect();
        for p in &self.lossless {
            c.class_maps
                .push(class_map(QosKind::NetworkQos, format!("ROCE{p}"), *p));
        }
        if !self.queuings.is_empty() {
            for q in 0u8..8 {
                c.class_maps
                    .push(class_map(QosKind::Queuing, format!("Q{q}"), q));
            }
        }
        let system = self.trust_maps(c);
        if self.pauses() || !self.queuings.is_empty() {
            // Switch priority N in queue N, as Onyx's priority N is traffic class N.
            let queues = (0u8..8).map(|g| (g, Ranges::one(g))).collect();
            c.qos_maps.push(QosMap {
                name: QOS_MAP.to_string(),
                queues,
                extras: Vec::new(),
            });
        }
        if self.pauses() {
            c.policy_maps.push(PolicyMap {
                kind: QosKind::NetworkQos,
                name: PFC_POLICY.to_string(),
                classes: self
                    .lossless
                    .iter()
                    .map(|p| PolicyClass {
                        name: format!("ROCE{p}"),
                        pause: true,
                        pfc_cos: Some(Ranges::one(*p)),
                        ..PolicyClass::default()
                    })
                    .collect(),
                extras: Vec::new(),
            });
        }
        for (q, name) in &self.queuings {
            c.policy_maps.push(PolicyMap {
                kind: QosKind::Queuing,
                name: name.clone(),
                classes: classes(q, &self.wreds),
                extras: Vec::new(),
            });
        }
        if !c.trust_maps.is_empty() || !self.queuings.is_empty() {
            c.system_qos = Some(SystemQos {
                trust_map: system,
                ets: !self.queuings.is_empty(),
                ..SystemQos::default()
            });
        }
    }

    /// The trust maps the ports need, in the configuration; the one `system qos` names (the
    /// kind most ports trust, DSCP on a tie), none when some port trusts nothing
    /// (`trust: port`: OS10 would apply the switch's map to it). A port trusting another kind
    /// names its own under the interface (UNCONFIRMED place: no capture has one).
    fn trust_maps(&self, c: &mut Config) -> Option<(TrustKind, String)> {
        let kinds: BTreeSet<TrustKind> = self.trusts.iter().filter_map(|(_, k)| *k).collect();
        let name = |k: TrustKind| match (k, kinds.len()) {
            (_, 1) => TRUST_MAP.to_string(),
            (TrustKind::Dscp, _) => format!("{TRUST_MAP}_DSCP"),
            (TrustKind::Dot1p, _) => format!("{TRUST_MAP}_DOT1P"),
        };
        for kind in &kinds {
            c.trust_maps.push(TrustMap {
                kind: *kind,
                name: name(*kind),
                groups: (0u8..8).map(|g| (g, trusted(*kind, g))).collect(),
                extras: Vec::new(),
            });
        }
        let count = |k: TrustKind| self.trusts.iter().filter(|(_, x)| *x == Some(k)).count();
        let system = if self.trusts.iter().any(|(_, k)| k.is_none()) {
            None
        } else if count(TrustKind::Dot1p) > count(TrustKind::Dscp) {
            Some(TrustKind::Dot1p)
        } else {
            kinds.contains(&TrustKind::Dscp).then_some(TrustKind::Dscp)
        };
        for (iface, kind) in &self.trusts {
            if let Some(k) = kind.filter(|k| Some(*k) != system)
                && let Some(e) = c.interfaces.get_mut(iface)
            {
                e.trust_map = Some((k, name(k)));
            }
        }
        system.map(|k| (k, name(k)))
    }
}

/// What a port's trust is on OS10 (`meaning::QOS_KEYS`): unset and L2 trust PCP, as Onyx's
/// default does (OS10 trusts nothing without a map); L3 trusts DSCP; `port` nothing. `both`
/// is refused on OS10 by the fabric validation (E073); taken as DSCP, which RoCE carries.
fn trust_kind(t: Option<Trust>) -> Option<TrustKind> {
    match t {
        None | Some(Trust::L2) => Some(TrustKind::Dot1p),
        Some(Trust::L3 | Trust::Both) => Some(TrustKind::Dscp),
        Some(Trust::Port) => None,
    }
}

/// The values a trust map puts in qos-group `g`: dot1p `g` (the TOR capture's spelling), or
/// DSCP `8g`-`8g+7`, Onyx's default DSCP → priority map (its top three bits: 26 → 3, 48 → 6);
/// `trust dscp-map` is UNCONFIRMED by a capture (the reference).
fn trusted(kind: TrustKind, g: u8) -> Ranges {
    match kind {
        TrustKind::Dscp => (g * 8..g * 8 + 8).collect(),
        TrustKind::Dot1p => Ranges::one(g),
    }
}

/// A port's queuing, when it sets ETS or ECN: every queue's place in the scheduler the fabric's
/// ETS means (`Schedule::of`: Onyx's default weights for the classes left out) and its ECN.
fn queuing(s: &PortSettings) -> Option<Queuing> {
    if s.ets.is_empty() && !TrafficClass::ALL.iter().any(|t| ecn_of(s, *t).is_some()) {
        return None;
    }
    let schedule = Schedule::of(&s.ets);
    let mut q: Queuing = [(Tsa::Strict, None); 8];
    for t in TrafficClass::ALL {
        q[usize::from(t.get())] = (schedule.get(t), ecn_of(s, t));
    }
    Some(q)
}

/// Absolute ECN thresholds in KB; relative ones and RED have no OS10 spelling (refused by the
/// fabric validation on an OS10 switch, E073).
fn ecn_of(s: &PortSettings, t: TrafficClass) -> Option<(u32, u32)> {
    match s.ecn.get(&t).copied() {
        Some(Ecn {
            mode: EcnMode::Ecn | EcnMode::Both,
            thresholds: EcnThresholds::Absolute { min, max },
        }) => Some((min, max)),
        _ => None,
    }
}

fn class_map(kind: QosKind, name: String, value: u8) -> ClassMap {
    ClassMap {
        kind,
        name,
        matches: Some(Ranges::one(value)),
        extras: Vec::new(),
    }
}

/// `wred NAME`: ECN marks every packet above the maximum (drop probability 100 %: the
/// reference's profile and the TOR capture's `wred ecn`).
fn wred(name: &str, min: u32, max: u32) -> Wred {
    let mut colors = BTreeMap::new();
    colors.insert(
        Color::Green,
        Thresholds {
            min,
            max,
            drop: 100,
        },
    );
    Wred {
        name: name.to_string(),
        colors,
        ecn: true,
        extras: Vec::new(),
    }
}

/// The classes of a queuing policy, one per queue: its share as `bandwidth percent`, strict as
/// `priority` (UNCONFIRMED spelling, the reference), ECN as `random-detect` of its profile.
fn classes(q: &Queuing, wreds: &BTreeMap<(u32, u32), String>) -> Vec<PolicyClass> {
    q.iter()
        .enumerate()
        .map(|(n, (tsa, ecn))| PolicyClass {
            name: format!("Q{n}"),
            bandwidth: match tsa {
                Tsa::Share(p) => Some(*p),
                Tsa::Strict => None,
            },
            priority: *tsa == Tsa::Strict,
            random_detect: ecn.and_then(|t| wreds.get(&t).cloned()),
            ..PolicyClass::default()
        })
        .collect()
}
