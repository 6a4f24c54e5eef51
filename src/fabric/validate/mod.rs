//! Raw fabric → validated [`Fabric`], collecting every problem.
//!
//! Order of work: fabric-wide values (QoS, VLANs, port defaults, profiles), then each switch
//! (ports, splits, peers), then links, then each port's settings are resolved (defaults →
//! profile → entry) and checked together (link ends agree, VLANs declared, speeds fit). A
//! value that fails a check is dropped and the rest goes on, so one run reports everything.
//! [`validate`] is that list of steps: the switches and links in `switches`, port resolution
//! in `resolve`, then the fabric-wide checks (`links`, `network`, `path_mtu`, `nics`).
//!
//! Diagnostic codes (E001-E013 are raised while reading the file, in `load`):
//!
//! - E001 — not valid YAML, or more than one YAML document
//! - E002 — not UTF-8 text (UTF-16 included)
//! - E003 — empty file
//! - E004 — file larger than 64 MiB
//! - E005 — not a file: a folder, a device, a socket
//! - E006 — YAML aliases expanding the file past its limit, or nesting deeper than 64
//! - E010 — unknown key
//! - E011 — missing key, or no switch at all
//! - E012 — value of the wrong type
//! - E013 — key written twice in one mapping
//! - E020 — number out of range (or with too many decimals)
//! - E021 — unknown word (model, trust, pool type, speed, …)
//! - E022 — invalid hostname
//! - E023 — invalid Onyx release
//! - E024 — text that would break a CLI line, or a malformed name or key
//! - E025 — not a port or range
//! - E030 — pool memory over 100% on a switch
//! - E031 — a switch priority in two pools
//! - E032 — PFC on a priority no lossless pool maps
//! - E033 — a lossless pool priority without PFC
//! - E034 — `roce` mode with pools, or a feature the switch's release or model lacks
//! - E035 — ECN minimum above maximum
//! - E036 — ECN thresholds incomplete or mixed
//! - E037 — a switch priority listed twice in one list (a pool's, or PFC's)
//! - E038 — a switch-wide key that takes away what makes the RoCE recipe lossless (`preset`)
//! - E039 — a switch model on an Onyx release older than the model's first
//! - E040 — port does not exist on the model
//! - E041 — subport of a port not split that way, or a split port configured itself
//! - E042 — split the port cannot do
//! - E043 — two entries give one port different values
//! - E044 — one port claimed by two peers
//! - E045 — speed above the port's native speed
//! - E046 — port taken by a neighbour's 4-way split
//! - E047 — peer pattern malformed or not matching the number of ports
//! - E048 — ports of one OS10 port group at different speeds, or at a speed no mode of the
//!   group runs (`port_groups`)
//! - E050 — malformed link end, or a link to an unknown switch
//! - E051 — link ends disagree on speed, MTU, trust, paused priorities, scheduler or ECN
//!   (`links`)
//! - E052 — link ends of different lengths, or a link to itself
//! - E060 — VLAN id declared twice
//! - E061 — VLAN name used twice
//! - E062 — access VLAN (or a VLAN of a port's `vlans`) not declared
//! - E064 — `vlans` on a port in access mode
//! - E063 — unknown profile
//! - E070 — two switches with the same name
//! - E071 — a model from another OS's table than the switch's (`target`)
//! - E072 — a port named the way another OS names ports
//! - E073 — a key the switch's OS has no meaning for
//! - E074 — an OS10 release that is not one
//! - E130 — a declared host's port no switch port's peer names (`nics`)
//! - E131 — a peer naming a port its declared host does not have
//! - E132 — a host MTU that does not fit its switch port's (with the frame's 22 bytes)
//! - E133 — host keys that do not fit its OS
//! - E134 — a host declared twice, or one `mgmt` for several hosts
//! - E135 — one NIC port cabled to two switch ports
//! - E136 — a hop between two hosts smaller than their frames (`path_mtu`)
//! - W007 — `mtu` on a switch's VLAN without a VLAN interface
//! - W001 — profile not used
//! - W002 — per-port PFC without global PFC
//! - W003 — the RoCE DSCP lands on a priority no lossless pool holds
//! - W004 — one description for a range of ports
//! - W005 — switches joined at L2 without a spanning-tree policy (`l2`)
//! - W006 — `qos.pfc: on|off` on a switch without a lossless pool

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;
use std::rc::Rc;

use super::load::span;
use super::raw::{Entries, RawEcn, RawEts, RawFabric, RawMgmt, RawPort, RawQos, RawSettings, Sp};
use super::strings::{self, Field};
use super::{Fabric, Mgmt, Peer, Pfc, Pool, PortSettings, Qos, Switch};
use crate::diag::{Diagnostic, FileId, Span};
use crate::types::{
    Dscp, Ecn, EcnMode, EcnThresholds, Ets, Hostname, Invalid, Model, Percent, PoolType, Port,
    Priority, Release, RoceMode, Speed, Split, StpGuard, StpPortType, SwitchportMode, TcMap,
    TrafficClass, Trust, Vlan, check_pool_name, choose, describe_char, did_you_mean,
};

/// A value and where it was written.
pub(crate) type At<T> = (T, Span);

/// Two ports cabled together, each with its switch, where each end is written, and the
/// index of the link in the file's `links`.
pub(crate) type LinkPair = ((String, Port), (String, Port), Span, Span, usize);

/// A port's value for key `$f`: the first of its layers (`$stack`: entry, profile, fabric
/// defaults, what the switch implies) to give one.
macro_rules! first {
    ($stack:expr, $f:ident) => {
        $stack.iter().find_map(|l| l.$f.as_ref())
    };
}

mod bundles;
mod detection;
mod extra;
mod hosts;
mod l2;
mod links;
mod mlag;
mod network;
mod nics;
mod path_mtu;
mod policies;
pub(crate) mod ports;
pub(crate) mod preset;
mod qos;
mod resolve;
mod sessions;
mod switch_wide;
mod switches;
mod target;
mod underlay;
mod values;

use extra::extra;
pub use nics::WIRE_OVERHEAD;
use ports::{LinkEnd, check_ports, describe_ports, endpoint};
use qos::{merged_qos, qos};
pub use values::Cx;
use values::{pattern, release};

/// What an OS's rules ([`crate::targets::Rules`]) use of the validation.
pub(crate) mod os {
    pub(crate) use super::ports::{self, refuse_splits};
    pub(crate) use super::qos::merged_qos;
    pub(crate) use super::values::model_release;
    pub(crate) use super::{At, Claim, Cx, Layer, LinkPair, Pending};
    pub(crate) use crate::diag::{Diagnostic, Span};
    pub(crate) use crate::fabric::raw::Sp;
    pub(crate) use crate::fabric::{Peer, Switch};
}

/// The profiles by name, each with where it is written.
pub(crate) type Profiles = BTreeMap<String, (Layer, Span)>;

/// A port-map entry's `split`, for its switch's OS ([`crate::targets::Rules::split`]): the
/// switch, the entry's key and `split` value, the split read, and where each port's split is
/// written so far.
pub struct SplitAsk<'a> {
    pub(crate) p: &'a mut Pending,
    pub key: &'a Sp<String>,
    pub ways: &'a Sp<i64>,
    pub split: Split,
    pub(crate) split_at: &'a mut BTreeMap<Port, Span>,
}

/// Every switch being validated, once every port is claimed, for their OSes' port groups
/// ([`crate::targets::Rules::settle_groups`]).
pub struct Groups<'a> {
    pub(crate) pending: &'a mut BTreeMap<String, Pending>,
    pub(crate) link_pairs: &'a mut [LinkPair],
    pub(crate) profiles: &'a Profiles,
    pub(crate) defaults: &'a Layer,
}

/// A switch being validated: the switch so far, what each port-map entry and link end says
/// about its ports, and what a routed or bundled port says besides its settings.
pub(crate) struct Pending {
    pub(crate) switch: Switch,
    pub(crate) claims: BTreeMap<Port, Vec<Claim>>,
    /// Ports taken by a neighbour's 4-way split, and where that split is written.
    pub(crate) disabled: BTreeMap<Port, Span>,
    /// A routed host port's address, and the bundle a port joins, from the port map.
    pub(crate) addresses: BTreeMap<Port, At<crate::types::Ipv4Net>>,
    /// Routed ports whose subnet the switch does not advertise (`advertise: false`).
    pub(crate) unadvertised: BTreeSet<Port>,
    pub(crate) bundles: BTreeMap<Port, At<super::Bundle>>,
    /// Where each resolved port's peer is written (the port map's `peer`, or a link's end).
    pub(crate) peers: BTreeMap<Port, Span>,
    /// What a port-map entry says of the bundle its ports join (`lacp_individual`,
    /// `bundle_description`), checked against the bundle once it is known.
    pub(crate) bundle_keys: BTreeMap<Port, bundles::BundleKeys>,
    /// The switch's port policies (`host_ports`, `unused_ports`).
    pub(crate) policies: policies::Policies,
    /// What the switch's QoS implies for every port (a preset's settings, PFC mode by
    /// default), beneath `port_defaults`.
    pub(crate) implied: Layer,
    /// The switch's index in the file's `switches`.
    pub(crate) index: usize,
    /// Where each VLAN interface's MTU is written (the switch's VLAN entry, else the
    /// fabric's); an interface missing here takes its MTU from its ports ([`l3_mtu`]).
    pub(crate) l3_mtu: BTreeMap<Vlan, Span>,
    /// Where each port's settings are set (its entry, a profile, a link's profile, the
    /// defaults, the switch's QoS): the line to change when they disagree with another's.
    pub(crate) set_at: BTreeMap<Port, SetAt>,
    /// Where each of the switch's own VLAN entries is written: where a line setting a VLAN
    /// interface's MTU belongs when none does.
    pub(crate) vlan_at: BTreeMap<Vlan, Span>,
    /// OS10 ports named as their port group's subport (`ethernet1/1/17:1`) without a split,
    /// and where each is first named so: whether that is their name is their group's mode's
    /// to say ([`port_groups`]).
    pub(crate) named_sub: BTreeMap<Port, Span>,
    /// Front-panel ports their port group's mode names as subport 1 (`ethernet1/1/17:1`).
    pub(crate) renamed: BTreeSet<u16>,
}

impl Pending {
    /// A switch being validated, with the port policies and what its QoS implies for every
    /// port, before any port entry or link end is read; `index` is its place in `switches`.
    fn new(switch: Switch, policies: policies::Policies, implied: Layer, index: usize) -> Pending {
        Pending {
            switch,
            claims: BTreeMap::new(),
            disabled: BTreeMap::new(),
            addresses: BTreeMap::new(),
            unadvertised: BTreeSet::new(),
            bundles: BTreeMap::new(),
            peers: BTreeMap::new(),
            bundle_keys: BTreeMap::new(),
            policies,
            implied,
            index,
            l3_mtu: BTreeMap::new(),
            set_at: BTreeMap::new(),
            vlan_at: BTreeMap::new(),
            named_sub: BTreeMap::new(),
            renamed: BTreeSet::new(),
        }
    }
}

/// Port settings as written at one place (defaults, a profile, an entry), with positions, so
/// conflicts and link mismatches can point at the line that set the value.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layer {
    pub(crate) speed: Option<At<Speed>>,
    pub(crate) mtu: Option<At<u16>>,
    pub(crate) shutdown: Option<At<bool>>,
    pub(crate) switchport: Option<At<SwitchportMode>>,
    pub(crate) vlan: Option<At<Vlan>>,
    pub(crate) vlans: Option<At<VlanList>>,
    pub(crate) trust: Option<At<Trust>>,
    pub(crate) pfc: Option<At<bool>>,
    pub(crate) auto_description: Option<At<bool>>,
    pub(crate) description: Option<At<String>>,
    pub(crate) ecn: BTreeMap<TrafficClass, At<Ecn>>,
    pub(crate) ets: BTreeMap<TrafficClass, At<Ets>>,
    pub(crate) stp_type: Option<At<StpPortType>>,
    pub(crate) stp_bpduguard: Option<At<bool>>,
    pub(crate) stp_guard: Option<At<StpGuard>>,
}

/// The VLANs a port's `vlans` lists, each where it is written; printed as written in a
/// conflict (`10,20`). Two lists are equal when they hold the same VLANs.
#[derive(Clone, Debug)]
pub(crate) struct VlanList(BTreeMap<Vlan, Span>);

impl PartialEq for VlanList {
    fn eq(&self, other: &Self) -> bool {
        self.0.keys().eq(other.0.keys())
    }
}

impl Display for VlanList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<String> = self.0.keys().map(ToString::to_string).collect();
        f.write_str(&ids.join(","))
    }
}

/// Where a port's resolved settings are written; `None`: the OS's default.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SetAt {
    pub(crate) mtu: Option<Span>,
    pub(crate) pfc: Option<Span>,
    pub(crate) trust: Option<Span>,
    /// The access (or untagged) VLAN, a trunk's list, the mode: its L2.
    pub(crate) l2: Option<Span>,
    /// ECN and ETS, where some traffic class is given.
    pub(crate) ecn: Option<Span>,
    pub(crate) ets: Option<Span>,
}

/// One place that differs from another: (key, value here, where, value there, where).
type Conflict = (String, String, Span, String, Span);

macro_rules! each_scalar {
    ($m:ident) => {
        $m!(speed);
        $m!(mtu);
        $m!(shutdown);
        $m!(switchport);
        $m!(vlan);
        $m!(vlans);
        $m!(trust);
        $m!(pfc);
        $m!(auto_description);
        $m!(description);
        $m!(stp_type);
        $m!(stp_bpduguard);
        $m!(stp_guard);
    };
}

impl Layer {
    /// Two entries for one port at the same level: merged, each value set differently in both
    /// places is a conflict.
    fn absorb(&mut self, other: &Layer, conflicts: &mut Vec<Conflict>) {
        fn pick<T: Clone + PartialEq + Display>(
            name: &str,
            mine: &mut Option<At<T>>,
            theirs: &Option<At<T>>,
            out: &mut Vec<Conflict>,
        ) {
            match (mine.as_ref(), theirs) {
                (Some((a, sa)), Some((b, sb))) if a != b => {
                    out.push((name.to_string(), a.to_string(), *sa, b.to_string(), *sb));
                }
                (None, Some(_)) => *mine = theirs.clone(),
                _ => {}
            }
        }
        macro_rules! merge {
            ($f:ident) => {
                // `stp_type` is written `stp.type`.
                let key = stringify!($f).replacen("stp_", "stp.", 1);
                pick(&key, &mut self.$f, &other.$f, conflicts);
            };
        }
        each_scalar!(merge);
        for (tc, v) in &other.ecn {
            let mut mine = self.ecn.get(tc).cloned();
            pick(&format!("ecn {tc}"), &mut mine, &Some(*v), conflicts);
            if let Some(m) = mine {
                self.ecn.insert(*tc, m);
            }
        }
        for (tc, v) in &other.ets {
            let mut mine = self.ets.get(tc).cloned();
            pick(&format!("ets {tc}"), &mut mine, &Some(*v), conflicts);
            if let Some(m) = mine {
                self.ets.insert(*tc, m);
            }
        }
    }
}

/// What one port-map entry or link end says about one port.
#[derive(Clone, Debug)]
pub(crate) struct Claim {
    pub(crate) profile: Option<Rc<At<String>>>,
    pub(crate) layer: Rc<Layer>,
    pub(crate) peer: Option<At<Peer>>,
}

/// The host ports a refused entry's peer names (patterns expanded as far as they read),
/// noted with the entry's key.
fn refused_peers(cx: &mut Cx, entry: &RawPort, at: Span) {
    let Some(peer) = &entry.peer else { return };
    let (Ok(hosts), Some(Ok(nics))) = (
        values::expand_pattern(peer.host.get()),
        peer.port.as_ref().map(|p| values::expand_pattern(p.get())),
    ) else {
        return;
    };
    for (i, host) in hosts.iter().enumerate() {
        let nic = nics.get(i).or(nics.first());
        if let Some(nic) = nic {
            cx.refused_peers.insert((host.clone(), nic.clone()), at);
        }
    }
}

/// Validates a parsed fabric. Returns the fabric when there is no error, and every diagnostic
/// (errors and warnings) either way.
pub fn validate(raw: &RawFabric, file: FileId) -> (Option<Fabric>, Vec<Diagnostic>) {
    let mut cx = Cx::new(raw, file);
    let fw = fabric_values(&mut cx, raw);
    let mut used_profiles: BTreeSet<String> = BTreeSet::new();

    // Switch names first, so links and errors can refer to any switch.
    let (names, refused) = switches::switch_names(&mut cx, raw);
    let fabric_release_text = crate::fabric::Os::all()
        .find_map(|os| os.target().rules().fabric_release_text(&mut cx, raw));
    if raw.switches.0.is_empty() {
        cx.push(
            Diagnostic::error("E011", "the fabric declares no switch")
                .help("add a `switches:` entry"),
        );
    }
    let inherited = switches::Inherited {
        release: fw.release,
        release_text: fabric_release_text,
        vlans: &fw.vlans,
    };
    let mut pending = each_switch(&mut cx, raw, (&names, &inherited), &mut used_profiles);
    let mut link_pairs = switches::links(
        &mut cx,
        raw,
        &names,
        &refused,
        &mut pending,
        &mut used_profiles,
    );

    // Port groups (OS10's): each group's mode from its ports' splits and speeds, and the ports
    // a mode names as subports (`ethernet1/1/17:1`) renamed so before they are resolved.
    for os in crate::fabric::Os::all() {
        let groups = Groups {
            pending: &mut pending,
            link_pairs: &mut link_pairs,
            profiles: &fw.profiles,
            defaults: &fw.defaults,
        };
        os.target().rules().settle_groups(&mut cx, groups);
    }

    // Resolve every port of every switch: entry → profile → fabric defaults, first value wins.
    let layers = resolve::Layers {
        defaults: &fw.defaults,
        profiles: &fw.profiles,
        empty: Layer::default(),
    };
    let ends = resolve::resolve_ports(
        &mut cx,
        &mut pending,
        &link_pairs,
        &layers,
        &mut used_profiles,
    );

    // Both ends of every link agree on what must match, defaults included.
    links::ends_agree(&mut cx, &link_pairs, &ends);
    switch_wide::check(&mut cx, &pending);

    network::resolve(&mut cx, raw, &mut pending, &link_pairs, &names);
    path_mtu::settle(&mut pending);
    unused_profiles(&mut cx, &fw.profiles, &used_profiles);
    target::report_foreign(&mut cx);
    let (hosts, host_mtu_at) = nics::hosts(&mut cx, raw, &pending);
    path_mtu::check(&mut cx, &pending, &link_pairs, &hosts, &host_mtu_at);
    finish(cx, hosts, pending)
}

/// The fabric, when no diagnostic is an error, and the diagnostics folded.
fn finish(
    cx: Cx,
    hosts: BTreeMap<Hostname, super::Host>,
    pending: BTreeMap<String, Pending>,
) -> (Option<Fabric>, Vec<Diagnostic>) {
    let fabric = Fabric {
        hosts,
        switches: pending
            .into_values()
            .map(|p| (p.switch.hostname.clone(), p.switch))
            .collect(),
    };
    let diags = crate::diag::fold(cx.diags);
    let ok = !diags.iter().any(Diagnostic::is_error);
    (ok.then_some(fabric), diags)
}

/// The fabric-wide values every switch and port starts from: the Onyx release, the VLANs, the
/// port defaults and the profiles (each with where it is declared).
struct FabricValues {
    release: Option<At<Release>>,
    vlans: switches::FabricVlans,
    defaults: Layer,
    profiles: BTreeMap<String, (Layer, Span)>,
}

/// The fabric-wide values, checked, and each switch's OS (in `cx.oses`).
fn fabric_values(cx: &mut Cx, raw: &RawFabric) -> FabricValues {
    let fabric_release = raw.onyx.as_ref().and_then(|v| release(cx, v));
    for (name, sw) in &raw.switches.0 {
        let os = target::os(cx, raw.os.as_ref(), sw.os.as_ref());
        cx.oses.insert(name.get().to_lowercase(), os);
    }
    // The OSes a fabric-wide string is printed on: every switch's.
    let fabric_oses: Vec<crate::fabric::Os> = crate::fabric::Os::all()
        .filter(|os| cx.oses.values().any(|o| o == os))
        .collect();

    let fabric_vlans = switches::fabric_vlans(cx, raw, &fabric_oses);
    let defaults = raw
        .port_defaults
        .as_ref()
        .map(|s| cx.layer(s))
        .unwrap_or_default();
    let mut profiles: BTreeMap<String, (Layer, Span)> = BTreeMap::new();
    for (name, s) in raw.profiles.iter().flat_map(|p| p.0.iter()) {
        let layer = cx.layer(s);
        profiles.insert(name.get().clone(), (layer, cx.span(name)));
    }
    FabricValues {
        release: fabric_release,
        vlans: fabric_vlans,
        defaults,
        profiles,
    }
}

/// Each switch whose name checked, as a [`Pending`] switch: its own keys, then its port map's
/// splits and claims (the profiles they use noted in `used_profiles`).
fn each_switch(
    cx: &mut Cx,
    raw: &RawFabric,
    (names, inherited): (
        &BTreeMap<String, (Hostname, Span)>,
        &switches::Inherited<'_>,
    ),
    used_profiles: &mut BTreeSet<String>,
) -> BTreeMap<String, Pending> {
    let mut pending: BTreeMap<String, Pending> = BTreeMap::new();
    for (index, (name, sw)) in raw.switches.0.iter().enumerate() {
        let Some((hostname, _)) = names
            .get(&name.get().to_lowercase())
            .filter(|(h, _)| h.as_str() == name.get())
            .cloned()
        else {
            continue;
        };
        let Some(mut p) =
            switches::pending_switch(cx, raw, index, (name, sw), &hostname, inherited)
        else {
            continue;
        };
        let entries: &[(Sp<String>, RawPort)] = sw
            .ports
            .as_ref()
            .map_or(&[], |e: &Entries<String, RawPort>| &e.0);
        switches::split_pass(cx, entries, &mut p);
        switches::claim_pass(cx, entries, &mut p, used_profiles);
        pending.insert(hostname.as_str().to_string(), p);
    }
    pending
}

/// W001: each profile no port uses.
fn unused_profiles(
    cx: &mut Cx,
    profiles: &BTreeMap<String, (Layer, Span)>,
    used_profiles: &BTreeSet<String>,
) {
    for (name, (_, at)) in profiles {
        if !used_profiles.contains(name) {
            cx.push(
                Diagnostic::warning("W001", format!("profile `{name}` is not used by any port"))
                    .at(*at, "declared here"),
            );
        }
    }
}

/// What a link end runs with, defaults included, in the OS-neutral terms E051 compares: native
/// speed, the OS's MTU (`meaning::default_mtu`) and trust L2 (the format's default on both
/// OSes) where unset; the priorities it pauses, its scheduler and ECN, each where the user
/// set it.
fn link_end(sw: &Switch, port: Port, stack: &[&Layer; 4], ets: &TcMap<Ets>) -> LinkEnd {
    let (speed, mtu, pfc, trust) = (
        first!(stack, speed),
        first!(stack, mtu),
        first!(stack, pfc),
        first!(stack, trust),
    );
    let split = port.sub.and(sw.splits.get(&port.parent()).copied());
    let native = sw.model.native_speed(port.parent(), split);
    let mut pauses = BTreeSet::new();
    if matches!(
        sw.qos.roce,
        Some(RoceMode::Lossless | RoceMode::SemiLossless)
    ) {
        // The `roce` mode pauses RoCE's priority 3 on every port (`onyx-cli.md` §a.7).
        pauses.insert(3);
    } else if pfc.is_some_and(|x| x.0) {
        let global = sw.qos.pfc.as_ref().filter(|p| p.enabled);
        pauses.extend(
            global
                .iter()
                .flat_map(|p| p.priorities.iter().map(|x| x.get())),
        );
    }
    let mut ets_at = BTreeMap::new();
    let mut ecn = BTreeMap::new();
    for l in stack.iter().rev() {
        ets_at.extend(l.ets.iter().map(|(k, v)| (*k, v.1)));
        ecn.extend(l.ecn.iter().map(|(k, v)| (*k, *v)));
    }
    LinkEnd {
        os: sw.os(),
        speed: (
            speed
                .map(|x| x.0)
                .or(native)
                .map_or("unknown".into(), |s| s.to_string()),
            speed.map(|x| x.1),
        ),
        mtu: (
            mtu.map_or(super::meaning::default_mtu(sw.os()), |x| x.0)
                .to_string(),
            mtu.map(|x| x.1),
        ),
        trust: (
            trust.map_or(Trust::L2, |x| x.0).to_string(),
            trust.map(|x| x.1),
        ),
        pauses: (pauses, pfc.map(|x| x.1)),
        schedule: super::meaning::Schedule::of(ets),
        ets_at,
        ecn,
    }
}

#[cfg(test)]
mod tests {
    use super::values::expand_pattern;

    #[test]
    fn patterns_expand_in_order_with_padding() {
        assert_eq!(
            expand_pattern("clx-mld-{41..43}").unwrap(),
            ["clx-mld-41", "clx-mld-42", "clx-mld-43"]
        );
        assert_eq!(
            expand_pattern("gpu{008..010}-p0").unwrap(),
            ["gpu008-p0", "gpu009-p0", "gpu010-p0"]
        );
        assert_eq!(expand_pattern("plain").unwrap(), ["plain"]);
        assert!(expand_pattern("x{5..1}").is_err());
        assert!(expand_pattern("x{1..2").is_err());
        assert!(expand_pattern("x{a..b}").is_err());
    }
}
