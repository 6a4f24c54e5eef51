//! A port's settings as attributes, one by one, so that what every port shares can be taken
//! out attribute by attribute (`port_defaults`), and back as the format's settings: runs of
//! consecutive ports alike, profiles of settings several runs share, the host-port and
//! unused-port defaults. What each attribute is read from is the port's OS's.

use std::collections::{BTreeMap, BTreeSet};

use serde_saphyr::FlowMap;

use super::doc::{EcnDoc, EtsDoc, Settings};
use super::links::Links;
use crate::types::{Ipv4Net, Port};

/// The attributes of a port, one by one, so defaults can be taken out attribute by
/// attribute. The description is kept apart: it is per port, never a default.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Attr {
    Speed(String),
    Mtu(u16),
    Admin(String),
    Switchport(String),
    Vlan(u16),
    /// A trunk's VLANs, or a hybrid port's tagged VLANs.
    Vlans(Vec<u16>),
    Trust(String),
    Ecn(u8, EcnDoc),
    Ets(u8, EtsDoc),
    Pfc(bool),
    /// PFC mode off on a switch whose ports are in PFC mode by default: `pfc: false`.
    PfcOff,
    /// A routed port's address.
    Address(String),
    /// A routed host port whose subnet the switch does not advertise: `advertise: false`.
    Unadvertised,
    /// Port-channel membership: MLAG or not, number, LACP mode.
    Bundle(bool, u16, String),
    /// Spanning tree (a bundle member's: its bundle's): port type, BPDU guard, guard.
    StpType(String),
    Bpduguard(bool),
    StpGuard(String),
    /// A member's bundle forwards on its members while LACP is down.
    LacpIndividual,
    /// A member's bundle's own description.
    BundleDescription(String),
}

/// Spanning tree of an interface as attributes (each setting the model keeps is one that
/// differs from the default).
pub(crate) fn stp_attrs(
    t: Option<crate::types::StpPortType>,
    bpduguard: Option<bool>,
    guard: Option<crate::types::StpGuard>,
    out: &mut BTreeSet<Attr>,
) {
    if let Some(t) = t {
        out.insert(Attr::StpType(t.to_string()));
    }
    if let Some(b) = bpduguard {
        out.insert(Attr::Bpduguard(b));
    }
    if let Some(g) = guard {
        out.insert(Attr::StpGuard(g.to_string()));
    }
}

/// Attributes → the format's settings; trust L2 and PFC off (the format's defaults) are left
/// out.
/// (Port defaults hold what every port has, so no port needs to say a default back.)
pub(super) fn settings(attrs: &BTreeSet<Attr>) -> Settings {
    let mut s = Settings::default();
    for a in attrs {
        match a {
            Attr::Speed(v) => s.speed = Some(v.clone()),
            Attr::Mtu(v) => s.mtu = Some(*v),
            Attr::Admin(v) => s.admin = Some(v.clone()),
            Attr::Switchport(v) => s.switchport = Some(v.clone()),
            Attr::Vlan(v) => s.vlan = Some(*v),
            Attr::Vlans(v) => s.vlans = Some(v.clone()),
            Attr::Trust(v) if v != "L2" => s.trust = Some(v.clone()),
            Attr::Trust(_) => {}
            Attr::Ecn(tc, e) => {
                s.ecn.insert(*tc, e.clone());
            }
            Attr::Ets(tc, e) => {
                s.ets.insert(*tc, e.clone());
            }
            Attr::Pfc(true) => s.pfc = Some(true),
            Attr::Pfc(_) => {}
            Attr::PfcOff => s.pfc = Some(false),
            Attr::Address(a) => s.address = Some(a.clone()),
            Attr::Unadvertised => s.advertise = Some(false),
            Attr::Bundle(mlag, id, mode) => {
                if *mlag {
                    s.mlag = Some(*id);
                } else {
                    s.lag = Some(*id);
                }
                if mode != "active" {
                    s.lacp = Some(mode.clone());
                }
            }
            Attr::StpType(t) => s.stp.get_or_insert_default().kind = Some(t.clone()),
            Attr::Bpduguard(b) => s.stp.get_or_insert_default().bpduguard = Some(*b),
            Attr::StpGuard(g) => s.stp.get_or_insert_default().guard = Some(g.clone()),
            Attr::LacpIndividual => s.lacp_individual = Some(true),
            Attr::BundleDescription(d) => s.bundle_description = Some(d.clone()),
        }
    }
    s
}

/// Consecutive ports with the same settings: first, last, attributes.
pub(super) type Run = (Port, Port, BTreeSet<Attr>);

/// `host_ports` of an imported switch, and its ports' attributes without what the default
/// gives back. The ports that would get the default (a host peer from their description, not
/// `exempt`: a routed port, one the OS leaves out): where each is an edge port with BPDU guard, those two attributes are dropped
/// from them (the default writes them); where one is not, `keep` (and every port's spanning
/// tree is written as the switch has it).
pub(super) fn host_defaults(
    attrs: &mut BTreeMap<Port, BTreeSet<Attr>>,
    described: &[(Port, Port, Settings)],
    exempt: &BTreeSet<Port>,
) -> Option<&'static str> {
    let edge = [Attr::StpType("edge".into()), Attr::Bpduguard(true)];
    let hosts: Vec<Port> = described
        .iter()
        .filter(|(_, _, s)| s.peer.is_some())
        .flat_map(|(first, last, _)| span(*first, *last))
        .filter(|p| attrs.contains_key(p) && !exempt.contains(p))
        .collect();
    let keep = hosts.iter().any(|p| {
        !attrs
            .get(p)
            .is_some_and(|a| edge.iter().all(|e| a.contains(e)))
    });
    if !keep {
        for p in &hosts {
            if let Some(a) = attrs.get_mut(p) {
                a.retain(|x| !edge.contains(x));
            }
        }
    }
    keep.then_some("keep")
}

/// `unused_ports` of an imported switch, and its ports' attributes without the `admin: down`
/// the default gives back. A port no description or link names and that writes nothing
/// beyond `defaults` but its admin state (the format's defaults, trust L2 and PFC off, are not
/// written) is one the fabric leaves unused: where every such port is shut, their `admin:
/// down` is dropped (the default shuts them); where one is up, `keep`.
pub(super) fn unused_defaults(
    attrs: &mut BTreeMap<Port, BTreeSet<Attr>>,
    defaults: &BTreeSet<Attr>,
    named: &BTreeSet<Port>,
) -> Option<&'static str> {
    let down = Attr::Admin("down".into());
    let writes = |a: &BTreeSet<Attr>| {
        let rest: BTreeSet<Attr> = a
            .difference(defaults)
            .filter(|x| **x != down)
            .cloned()
            .collect();
        !settings(&rest).is_empty_settings()
    };
    let unused: Vec<Port> = attrs
        .iter()
        .filter(|(p, a)| !named.contains(p) && !writes(a))
        .map(|(p, _)| *p)
        .collect();
    let keep = unused.iter().any(|p| !attrs[p].contains(&down));
    if !keep {
        for p in &unused {
            if let Some(a) = attrs.get_mut(p) {
                a.remove(&down);
            }
        }
    }
    keep.then_some("keep")
}

/// Consecutive ports with the same attributes beyond `defaults`, those that set anything.
pub(super) fn runs(
    ports: impl Iterator<Item = (Port, BTreeSet<Attr>)>,
    defaults: &BTreeSet<Attr>,
) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (port, attrs) in ports {
        let rest: BTreeSet<Attr> = attrs.difference(defaults).cloned().collect();
        if let Some((_, last, a)) = runs.last_mut()
            && last.precedes(port)
            && *a == rest
        {
            *last = port;
            continue;
        }
        runs.push((port, port, rest));
    }
    runs.retain(|(_, _, a)| !settings(a).is_empty_settings());
    runs
}

/// Profiles: settings of two fields or more used by several ranges (of any switch), added to
/// `profiles` under names not taken yet; the profile of each such set of settings.
pub(super) fn make_profiles<'a>(
    switches: impl Iterator<Item = &'a [Run]>,
    profiles: &mut BTreeMap<String, FlowMap<Settings>>,
) -> BTreeMap<Settings, String> {
    let mut uses: BTreeMap<Settings, usize> = BTreeMap::new();
    for (_, _, a) in switches.flatten() {
        *uses.entry(settings(a).shared()).or_default() += 1;
    }
    let mut profile_of = BTreeMap::new();
    for (s, n) in &uses {
        if *n >= 2 && s.fields() >= 2 {
            let name = profile_name(s, profiles);
            profile_of.insert(s.clone(), name.clone());
            profiles.insert(name, FlowMap(s.clone()));
        }
    }
    profile_of
}

/// A range's settings with its profile: a profile takes what ports share; what is a port's
/// own (its address, the bundle it joins) stays on its entry, as the format has it.
pub(super) fn profiled(s: Settings, profile_of: &BTreeMap<Settings, String>) -> Settings {
    match profile_of.get(&s.shared()) {
        Some(name) => Settings {
            profile: Some(name.clone()),
            address: s.address,
            mlag: s.mlag,
            lag: s.lag,
            lacp: s.lacp,
            lacp_individual: s.lacp_individual,
            bundle_description: s.bundle_description,
            ..Settings::default()
        },
        None => s,
    }
}

impl Settings {
    pub(super) fn is_empty_settings(&self) -> bool {
        *self == Settings::default()
    }

    /// The settings a profile can hold (the format's port settings): without the port's
    /// own address and bundle.
    pub(super) fn shared(&self) -> Settings {
        Settings {
            address: None,
            mlag: None,
            lag: None,
            lacp: None,
            lacp_individual: None,
            bundle_description: None,
            ..self.clone()
        }
    }

    fn fields(&self) -> usize {
        [
            self.speed.is_some(),
            self.mtu.is_some(),
            self.admin.is_some(),
            self.switchport.is_some(),
            self.vlan.is_some(),
            self.trust.is_some(),
            !self.ecn.is_empty(),
            !self.ets.is_empty(),
            self.pfc.is_some(),
            self.stp.is_some(),
        ]
        .iter()
        .filter(|b| **b)
        .count()
    }
}

/// A profile's name from what it sets: `mtu9216-pfc`, `trunk-vlan100`, … unique.
fn profile_name(s: &Settings, taken: &BTreeMap<String, FlowMap<Settings>>) -> String {
    let mut parts = Vec::new();
    if let Some(v) = &s.switchport {
        parts.push(v.clone());
    }
    if let Some(v) = s.vlan {
        parts.push(format!("vlan{v}"));
    }
    if let Some(v) = &s.speed {
        parts.push(v.to_lowercase());
    }
    if let Some(v) = s.mtu {
        parts.push(format!("mtu{v}"));
    }
    if let Some(v) = &s.trust {
        parts.push(format!("trust-{}", v.to_lowercase()));
    }
    if s.pfc == Some(false) {
        parts.push("nopfc".into());
    }
    if s.pfc == Some(true) {
        parts.push("pfc".into());
    }
    if !s.ecn.is_empty() {
        parts.push("ecn".into());
    }
    if !s.ets.is_empty() {
        parts.push("ets".into());
    }
    if s.admin.is_some() {
        parts.push("down".into());
    }
    if let Some(t) = s.stp.as_ref().and_then(|t| t.kind.as_ref()) {
        parts.push(t.clone());
    }
    let base = if parts.is_empty() {
        "ports".to_string()
    } else {
        parts.join("-")
    };
    let mut name = base.clone();
    let mut n = 2;
    while taken.contains_key(&name) {
        name = format!("{base}-{n}");
        n += 1;
    }
    name
}

/// Marks `advertise: false` on each routed host port (no imported switch at its other end)
/// whose subnet the switch's BGP does not advertise, though the fabric would: a single routed
/// leaf's uplinks to spines it is imported without, their sessions under `bgp.neighbors`.
/// The config says what it advertises; the fabric file says it rather than derive more.
pub(super) fn unadvertised<'a>(
    ports: impl Iterator<Item = &'a mut BTreeSet<Attr>>,
    name: &str,
    advertised: Option<&BTreeSet<Ipv4Net>>,
    links: &Links,
) {
    let Some(advertised) = advertised else {
        return;
    };
    for a in ports {
        let net = a.iter().find_map(|x| match x {
            Attr::Address(s) => s.parse::<Ipv4Net>().ok(),
            _ => None,
        });
        if let Some(net) = net
            && links
                .host_subnets(name, std::iter::once(net))
                .next()
                .is_some()
            && !advertised.contains(&net.network())
        {
            a.insert(Attr::Unadvertised);
        }
    }
}

/// The attributes a port's QoS contributes, which a peer link's own port takes from the
/// defaults (its compiled port prints no QoS whatever it says).
pub(super) fn is_qos(a: &Attr) -> bool {
    matches!(
        a,
        Attr::Trust(_) | Attr::Ecn(..) | Attr::Ets(..) | Attr::Pfc(_) | Attr::PfcOff
    )
}

/// The ports of a run `peers` made, `first` to `last` (consecutive by
/// [`Port::precedes`]: subports of one port, or ports of one slot).
pub(super) fn span(first: Port, last: Port) -> Vec<Port> {
    match (first.sub, last.sub) {
        (Some(a), Some(b)) if first.port == last.port => (a..=b)
            .map(|s| Port::sub(first.slot, first.port, s))
            .collect(),
        _ => (first.port..=last.port)
            .map(|n| Port::new(first.slot, n))
            .collect(),
    }
}
