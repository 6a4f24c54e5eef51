//! What an OS10 running configuration says of each port's QoS, as the checks compare it:
//! trust, ECN and ETS of each port as OS10 applies them (its own policies, else `system
//! qos`'s: [`Config::trust_of`], the audit's [`View`]), and the priorities its network-qos
//! policies in use pause. The same derivation of the configuration the fabric compiles to
//! ([`compile_switch`]) is what the checks want: what `fabric push` would set is what the
//! fabric says there, in OS10's terms (`bandwidth percent` for a WRR weight, a DSCP trust map
//! for L3).

use std::collections::BTreeSet;

use crate::audit::view::View;
use crate::fabric::{PortSettings, Switch};
use crate::onyx::Iface as NeutralIface;
use crate::targets::{PfcWant, Wanted};
use crate::types::{Ecn, EcnThresholds, Ets, Port, TcMap, TrafficClass};
use crate::verify::Observed;
use crate::verify::observed::{Marking, Sched, Trusted};

use super::super::compile::compile_switch;
use super::super::{Config, Iface, TrustKind};

/// The ports of an OS10 switch whose QoS is checked, each with whether its trust is (where
/// the fabric sets one): each cabled port outside a bundle, and the VLTi's (OS10 configures
/// the pair's QoS on the VLTi ports themselves, from the IPL bundle's settings). A
/// port-channel member's QoS is its bundle's, not read one by one (as on Onyx).
pub(super) fn ports(sw: &Switch) -> Vec<(Port, bool)> {
    let ipl = sw.mlag.as_ref().map(|m| m.ipl_port_channel);
    let settings = |p: &Port, s: &PortSettings| -> Option<(Port, bool)> {
        match s.bundle {
            None => Some((*p, s.trust.is_some())),
            Some(b) if !b.mlag && Some(b.id) == ipl => sw
                .bundles
                .get(&(false, b.id))
                .map(|bs| (*p, bs.trust.is_some())),
            Some(_) => None,
        }
    };
    sw.ports
        .iter()
        .filter(|(_, s)| s.peer.is_some())
        .filter_map(|(p, s)| settings(p, s))
        .collect()
}

/// An interface of the fabric's spelling as the OS10 model keys it.
fn iface(i: NeutralIface) -> Iface {
    match i {
        NeutralIface::Ethernet(p) => Iface::Ethernet(crate::os10::eth_of(p)),
        NeutralIface::PortChannel(n) | NeutralIface::MlagPortChannel(n) => Iface::PortChannel(n),
        NeutralIface::Vlan(v) => Iface::Vlan(v),
        NeutralIface::Loopback(n) => Iface::Loopback(n),
    }
}

/// What the running configuration `c` gives each of `ports` (trust where it is checked),
/// and the priorities it pauses, into what the switch reported: every traffic class's
/// marking (none where its queue's profile does not mark), the classes it schedules.
pub(super) fn record(c: &Config, ports: &[(Port, bool)], into: &mut Observed) {
    let view = crate::targets::Audited::view(c, None);
    for &(p, trust) in ports {
        if trust {
            into.trust
                .insert(p, trusted(c, &iface(NeutralIface::Ethernet(p))));
        }
        let port = view.port(NeutralIface::Ethernet(p));
        let marking =
            |tc: &TrafficClass| port.ecn.get(tc).map_or(Marking::Off, |e| Marking::On(*e));
        into.ecn.insert(
            p,
            TrafficClass::ALL
                .iter()
                .map(|tc| (tc.get(), marking(tc)))
                .collect(),
        );
        into.ets.insert(
            p,
            port.ets
                .iter()
                .map(|(tc, e)| (tc.get(), sched(e)))
                .collect(),
        );
    }
    into.paused = Some(view.pfc.priorities);
}

fn sched(e: &Ets) -> Sched {
    match e {
        Ets::Strict => Sched::Strict,
        Ets::Wrr(w) => Sched::Wrr(*w),
    }
}

/// The trust an OS10 interface classifies by, in the words Onyx's `qos trust` uses (a DSCP
/// map is L3, a dot1p map L2), the map it names, and what that map puts in each qos-group
/// where the configuration defines it.
fn trusted(c: &Config, i: &Iface) -> Trusted {
    let Some(((kind, map), defined)) = c.trust_of(i) else {
        return Trusted::mode("none");
    };
    let mode = match kind {
        TrustKind::Dscp => "L3",
        TrustKind::Dot1p => "L2",
    };
    Trusted {
        mode: mode.into(),
        map: Some(format!("trust {}-map {map}", kind.word())),
        groups: defined.map(|m| {
            m.groups
                .iter()
                .map(|(g, values)| (*g, values.to_string()))
                .collect()
        }),
    }
}

/// A WRED/ECN marking as OS10 configures it: a `wred` profile with `random-detect ecn`.
pub(super) fn ecn(e: &Ecn) -> String {
    match e.thresholds {
        EcnThresholds::Absolute { min, max } => format!("ECN from {min} KB to {max} KB"),
        EcnThresholds::Relative { min, max } => format!("ECN from {min}% to {max}%"),
    }
}

/// A queue's scheduling as OS10 configures it: `priority` (strict) or `bandwidth percent`.
pub(super) fn ets(e: &Ets) -> String {
    match e {
        Ets::Strict => "strict priority".into(),
        Ets::Wrr(p) => format!("bandwidth {p}%"),
    }
}

/// The fabric's QoS as OS10 shows it once pushed: what the configuration the fabric compiles
/// to gives each port.
pub(super) struct Compiled<'a> {
    sw: &'a Switch,
    intended: Config,
    view: View,
}

impl Compiled<'_> {
    pub(super) fn of(sw: &Switch) -> Compiled<'_> {
        let intended = compile_switch(sw);
        let view = crate::targets::Audited::view(&intended, None);
        Compiled { sw, intended, view }
    }
}

impl Wanted for Compiled<'_> {
    fn trust(&self, p: Port) -> Option<Trusted> {
        Some(trusted(&self.intended, &iface(NeutralIface::Ethernet(p))))
    }

    fn ecn(&self, p: Port) -> Option<&TcMap<Ecn>> {
        Some(&self.view.port(NeutralIface::Ethernet(p)).ecn)
    }

    fn ets(&self, p: Port) -> Option<&TcMap<Ets>> {
        Some(&self.view.port(NeutralIface::Ethernet(p)).ets)
    }

    /// Each interface in PFC mode that carries traffic, pausing what its network-qos policy
    /// pauses.
    fn pfc(&self) -> Vec<PfcWant> {
        super::pfc_interfaces_of(self.sw, &self.intended)
            .into_iter()
            .map(|i| PfcWant {
                iface: i,
                priorities: Some(self.intended.paused_priorities(&iface(i))),
                follows_members: true,
            })
            .collect()
    }

    fn paused(&self) -> Option<BTreeSet<u8>> {
        Some(self.view.pfc.priorities.clone())
    }
}
