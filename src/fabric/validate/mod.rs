//! Raw fabric → validated [`Fabric`], collecting every problem.
//!
//! Order of work: fabric-wide values (QoS, VLANs, port defaults, profiles), then each switch
//! (ports, splits, peers), then links, then each port's settings are resolved (defaults →
//! profile → entry) and checked together (link ends agree, VLANs declared, speeds fit). A
//! value that fails a check is dropped and the rest goes on, so one run reports everything.
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
    parse_port_range,
};

/// A value and where it was written.
type At<T> = (T, Span);

/// Two ports cabled together, each with its switch, where each end is written, and the
/// index of the link in the file's `links`.
type LinkPair = ((String, Port), (String, Port), Span, Span, usize);

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
mod port_groups;
mod ports;
mod preset;
mod qos;
mod target;
mod underlay;
mod values;

use extra::extra;
pub use nics::WIRE_OVERHEAD;
use ports::{LinkEnd, check_ports, describe_ports, endpoint};
use qos::{merged_qos, qos};
use values::{Cx, model_release, pattern, release};

/// A switch being validated: the switch so far, what each port-map entry and link end says
/// about its ports, and what a routed or bundled port says besides its settings.
struct Pending {
    switch: Switch,
    claims: BTreeMap<Port, Vec<Claim>>,
    /// Ports taken by a neighbour's 4-way split, and where that split is written.
    disabled: BTreeMap<Port, Span>,
    /// A routed host port's address, and the bundle a port joins, from the port map.
    addresses: BTreeMap<Port, At<crate::types::Ipv4Net>>,
    /// Routed ports whose subnet the switch does not advertise (`advertise: false`).
    unadvertised: BTreeSet<Port>,
    bundles: BTreeMap<Port, At<super::Bundle>>,
    /// Where each resolved port's peer is written (the port map's `peer`, or a link's end).
    peers: BTreeMap<Port, Span>,
    /// What a port-map entry says of the bundle its ports join (`lacp_individual`,
    /// `bundle_description`), checked against the bundle once it is known.
    bundle_keys: BTreeMap<Port, bundles::BundleKeys>,
    /// The switch's port policies (`host_ports`, `unused_ports`).
    policies: policies::Policies,
    /// What the switch's QoS implies for every port (a preset's settings, PFC mode by
    /// default), beneath `port_defaults`.
    implied: Layer,
    /// The switch's index in the file's `switches`.
    index: usize,
    /// Where each VLAN interface's MTU is written (the switch's VLAN entry, else the
    /// fabric's); an interface missing here takes its MTU from its ports ([`l3_mtu`]).
    l3_mtu: BTreeMap<Vlan, Span>,
    /// Where each port's settings are set (its entry, a profile, a link's profile, the
    /// defaults, the switch's QoS): the line to change when they disagree with another's.
    set_at: BTreeMap<Port, SetAt>,
    /// Where each of the switch's own VLAN entries is written: where a line setting a VLAN
    /// interface's MTU belongs when none does.
    vlan_at: BTreeMap<Vlan, Span>,
    /// OS10 ports named as their port group's subport (`ethernet1/1/17:1`) without a split,
    /// and where each is first named so: whether that is their name is their group's mode's
    /// to say ([`port_groups`]).
    named_sub: BTreeMap<Port, Span>,
    /// Front-panel ports their port group's mode names as subport 1 (`ethernet1/1/17:1`).
    renamed: BTreeSet<u16>,
}

/// Port settings as written at one place (defaults, a profile, an entry), with positions, so
/// conflicts and link mismatches can point at the line that set the value.
#[derive(Clone, Debug, Default)]
struct Layer {
    speed: Option<At<Speed>>,
    mtu: Option<At<u16>>,
    shutdown: Option<At<bool>>,
    switchport: Option<At<SwitchportMode>>,
    vlan: Option<At<Vlan>>,
    vlans: Option<At<VlanList>>,
    trust: Option<At<Trust>>,
    pfc: Option<At<bool>>,
    auto_description: Option<At<bool>>,
    description: Option<At<String>>,
    ecn: BTreeMap<TrafficClass, At<Ecn>>,
    ets: BTreeMap<TrafficClass, At<Ets>>,
    stp_type: Option<At<StpPortType>>,
    stp_bpduguard: Option<At<bool>>,
    stp_guard: Option<At<StpGuard>>,
}

/// The VLANs a port's `vlans` lists, each where it is written; printed as written in a
/// conflict (`10,20`). Two lists are equal when they hold the same VLANs.
#[derive(Clone, Debug)]
struct VlanList(BTreeMap<Vlan, Span>);

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
struct SetAt {
    mtu: Option<Span>,
    pfc: Option<Span>,
    trust: Option<Span>,
    /// The access (or untagged) VLAN, a trunk's list, the mode: its L2.
    l2: Option<Span>,
    /// ECN and ETS, where some traffic class is given.
    ecn: Option<Span>,
    ets: Option<Span>,
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
struct Claim {
    profile: Option<Rc<At<String>>>,
    layer: Rc<Layer>,
    peer: Option<At<Peer>>,
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
    let mut cx = Cx {
        file,
        diags: Vec::new(),
        oses: BTreeMap::new(),
        refused_peers: BTreeMap::new(),
        extents: values::switch_extents(raw, file),
        foreign: BTreeMap::new(),
    };

    let fabric_release = raw.onyx.as_ref().and_then(|v| release(&mut cx, v));
    for (name, sw) in &raw.switches.0 {
        let os = target::os(&mut cx, raw.os.as_ref(), sw.os.as_ref());
        cx.oses.insert(name.get().to_lowercase(), os);
    }
    // The OSes a fabric-wide string is printed on: every switch's.
    let fabric_oses: Vec<crate::fabric::Os> = [crate::fabric::Os::Onyx, crate::fabric::Os::Os10]
        .into_iter()
        .filter(|os| cx.oses.values().any(|o| o == os))
        .collect();

    // VLANs.
    let mut vlans: BTreeMap<Vlan, (Option<String>, Span)> = BTreeMap::new();
    let mut vlan_names: BTreeMap<String, Span> = BTreeMap::new();
    let mut vlan_mtu: BTreeMap<Vlan, At<u16>> = BTreeMap::new();
    for v in raw.vlans.iter().flatten() {
        let Some(id) = cx.int(&v.id, Vlan::new) else {
            continue;
        };
        let at = cx.span(&v.id);
        if let Some((_, first)) = vlans.get(&id) {
            let first = *first;
            cx.push(
                Diagnostic::error("E060", format!("VLAN {id} is declared twice"))
                    .at(at, "declared again here")
                    .also(first, "first declared here"),
            );
            continue;
        }
        let name = v.name.as_ref().and_then(|n| {
            let name = cx.text(n, "VLAN name", Field::VlanName, &fabric_oses)?;
            let nat = cx.span(n);
            if let Some(first) = vlan_names.get(&name.to_lowercase()) {
                let first = *first;
                cx.push(
                    Diagnostic::error("E061", format!("VLAN name `{name}` is used twice"))
                        .at(nat, "used again here")
                        .also(first, "first used here"),
                );
                return None;
            }
            vlan_names.insert(name.to_lowercase(), nat);
            Some(name)
        });
        if let Some(m) = &v.mtu
            && let Some(mtu) = cx.mtu(m)
        {
            vlan_mtu.insert(id, (mtu, cx.span(m)));
        }
        vlans.insert(id, (name, at));
    }

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
    let mut used_profiles: BTreeSet<String> = BTreeSet::new();

    // Switch names first, so links and errors can refer to any switch.
    let mut names: BTreeMap<String, (Hostname, Span)> = BTreeMap::new();
    let mut refused: BTreeSet<String> = BTreeSet::new();
    for (name, _) in &raw.switches.0 {
        let at = cx.span(name);
        let h = match name.get().parse::<Hostname>() {
            Ok(h) => h,
            Err(e) => {
                cx.invalid("E022", e, at, "switch name");
                refused.insert(name.get().to_lowercase());
                continue;
            }
        };
        if let Some((_, first)) = names.get(&h.as_str().to_lowercase()) {
            let first = *first;
            cx.push(
                Diagnostic::error(
                    "E070",
                    format!("switch `{h}` is declared twice (hostnames ignore case)"),
                )
                .at(at, "declared again here")
                .also(first, "first declared here"),
            );
            continue;
        }
        names.insert(h.as_str().to_lowercase(), (h, at));
    }
    let fabric_os10 = raw
        .os10
        .as_ref()
        .and_then(|v| target::os10_release(&mut cx, v));
    if raw.switches.0.is_empty() {
        cx.push(
            Diagnostic::error("E011", "the fabric declares no switch")
                .help("add a `switches:` entry"),
        );
    }

    let mut pending: BTreeMap<String, Pending> = BTreeMap::new();

    for (index, (name, sw)) in raw.switches.0.iter().enumerate() {
        let Some((hostname, _)) = names
            .get(&name.get().to_lowercase())
            .filter(|(h, _)| h.as_str() == name.get())
            .cloned()
        else {
            continue;
        };
        let os = cx
            .oses
            .get(&name.get().to_lowercase())
            .copied()
            .unwrap_or(crate::fabric::Os::Onyx);
        let model = target::hardware(&mut cx, os, &sw.model);
        target::foreign_keys(&mut cx, os, raw, name.get(), sw);
        let os10 = match (os, &sw.os10) {
            (crate::fabric::Os::Os10, Some(v)) => target::os10_release(&mut cx, v),
            (crate::fabric::Os::Os10, None) => fabric_os10.clone(),
            (crate::fabric::Os::Onyx, _) => None,
        };
        let release = match &sw.onyx {
            Some(v) => release(&mut cx, v),
            None => fabric_release,
        };
        let mgmt = sw.mgmt.as_ref().and_then(|m| values::mgmt(&mut cx, m));
        let licenses: Vec<String> = sw
            .licenses
            .iter()
            .flatten()
            .filter_map(|l| cx.text(l, "license key", Field::LicenseKey, &[os]))
            .collect();
        let certificate = sw.certificate.as_ref().and_then(|c| {
            const HINT: &str = "a certificate ID is 40 hexadecimal digits, as in `# Certificate name system-self-signed, ID …`";
            let id = cx.token(c, "certificate ID", |ch| ch.is_ascii_hexdigit(), HINT)?;
            if id.len() != 40 {
                cx.push(
                    Diagnostic::error(
                        "E024",
                        format!("certificate ID is {} digits, not 40", id.len()),
                    )
                    .at(cx.span(c), "refused")
                    .help(HINT),
                );
                return None;
            }
            Some(id)
        });
        let lldp = sw
            .lldp
            .as_ref()
            .or(raw.lldp.as_ref())
            .is_some_and(|v| *v.get());
        let merged = merged_qos(raw.qos.as_ref(), sw.qos.as_ref());
        let (qos, implied) = qos(&mut cx, &merged, release, os);

        let set_hostname = sw.set_hostname.as_ref().is_none_or(|v| *v.get());
        let extra = extra(&mut cx, sw.extra.as_ref());

        let Some(model) = model else { continue };
        let model_at = cx.span(&sw.model);
        // An OS10 switch has no Onyx release (`onyx` there is E073).
        let release = release.filter(|_| os == crate::fabric::Os::Onyx);
        match model {
            crate::fabric::Hardware::Onyx(m) => model_release(&mut cx, m, model_at, release),
            crate::fabric::Hardware::Os10(m) => {
                preset::os10_limits(&mut cx, name.get(), m, os10.as_deref(), &merged, &qos)
            }
        }
        let mut p = Pending {
            switch: Switch {
                hostname: hostname.clone(),
                model,
                os10,
                release: release.map(|r| r.0),
                mgmt,
                licenses,
                certificate,
                lldp,
                qos,
                vlans: vlans.iter().map(|(k, (n, _))| (*k, n.clone())).collect(),
                splits: BTreeMap::new(),
                port_groups: BTreeMap::new(),
                ports: BTreeMap::new(),
                set_hostname,
                extra,
                role: None,
                routing: None,
                gateways: BTreeMap::new(),
                loopback: None,
                hashing: BTreeSet::new(),
                bundles: BTreeMap::new(),
                mlag: None,
                stp: None,
            },
            claims: BTreeMap::new(),
            disabled: BTreeMap::new(),
            addresses: BTreeMap::new(),
            unadvertised: BTreeSet::new(),
            bundles: BTreeMap::new(),
            peers: BTreeMap::new(),
            bundle_keys: BTreeMap::new(),
            policies: policies::policies(&mut cx, raw, sw),
            implied,
            index,
            l3_mtu: BTreeMap::new(),
            set_at: BTreeMap::new(),
            vlan_at: BTreeMap::new(),
            named_sub: BTreeMap::new(),
            renamed: BTreeSet::new(),
        };
        hosts::switch_vlans(&mut cx, sw, &vlans, &vlan_mtu, &mut p);
        let entries: &[(Sp<String>, RawPort)] = sw
            .ports
            .as_ref()
            .map_or(&[], |e: &Entries<String, RawPort>| &e.0);

        // Pass 1: splits, so subports can be checked in pass 2. Refusals are reported once per
        // entry and reason, listing the ports; ports the model lacks are left to pass 2.
        let mut split_at: BTreeMap<Port, Span> = BTreeMap::new();
        for (key, entry) in entries {
            let Some(ways) = &entry.split else { continue };
            let Some(split) = cx.int(ways, Split::from_ways) else {
                continue;
            };
            let at = cx.span(key);
            if let crate::fabric::Hardware::Os10(m) = model {
                target::breakouts(&mut cx, &mut p.switch, m, key, ways, split);
                continue;
            }
            let Some(model) = model.onyx() else { continue };
            let Ok(ports) = parse_port_range(key.get()) else {
                continue;
            };
            let mut subports = Vec::new();
            let mut refused: BTreeMap<String, Vec<Port>> = BTreeMap::new();
            for port in ports {
                if port.sub.is_some() {
                    subports.push(port);
                } else if model.has_port(port) {
                    match model.check_split(port, split) {
                        Ok(taken) => {
                            p.switch.splits.insert(port, split);
                            split_at.insert(port, at);
                            if let Some(t) = taken {
                                p.disabled.insert(t, at);
                            }
                        }
                        Err(why) => refused.entry(why).or_default().push(port),
                    }
                }
            }
            let ways_at = cx.span(ways);
            ports::refuse_splits(
                &mut cx, &p.switch, model.name, split, &subports, refused, at, ways_at,
            );
        }
        let mut taken: BTreeMap<(Span, Span), Vec<Port>> = BTreeMap::new();
        for (port, by) in &p.disabled {
            if let Some(at) = split_at.get(port) {
                taken.entry((*at, *by)).or_default().push(*port);
            }
        }
        for ((at, by), ports) in taken {
            let their = if ports.len() == 1 { "its" } else { "their" };
            cx.push(
                Diagnostic::error(
                    "E046",
                    format!(
                        "{} of `{hostname}` cannot be split: a 4-way split takes {their} lanes",
                        describe_ports(&ports)
                    ),
                )
                .at(at, "split here")
                .also(by, "4-way split here"),
            );
        }

        // Pass 2: each entry's claims on its ports.
        for (key, entry) in entries {
            // A profile named by an entry is in use, even when the entry has other problems
            // or loses a conflict with another entry (W001 is for profiles nothing names).
            if let Some(pr) = &entry.profile {
                used_profiles.insert(pr.get().clone());
            }
            let at = cx.span(key);
            let Some(ports) = target::ports(&mut cx, os, key.get(), at) else {
                continue;
            };
            let settings = entry.settings();
            let has_settings = settings != RawSettings::default()
                || entry.profile.is_some()
                || entry.peer.is_some()
                || entry.description.is_some()
                || entry.address.is_some()
                || entry.advertise.is_some()
                || entry.mlag.is_some()
                || entry.lag.is_some()
                || entry.lacp_individual.is_some()
                || entry.bundle_description.is_some();
            // A split-only entry had its split checked in pass 1, lanes taken included.
            let split_only = entry.split.is_some() && !has_settings;
            let none = BTreeMap::new();
            let disabled = if split_only { &none } else { &p.disabled };
            let usable = check_ports(&mut cx, &p.switch, disabled, &ports, at, split_only);
            if !usable {
                refused_peers(&mut cx, entry, at);
            }
            if !usable || !has_settings {
                continue;
            }
            for port in &ports {
                if ports::group_subport(&p.switch, *port) {
                    p.named_sub.entry(*port).or_insert(at);
                }
            }
            let mut layer = cx.layer(&settings);
            if let Some(d) = &entry.description {
                if ports.len() > 1 {
                    cx.push(
                        Diagnostic::warning(
                            "W004",
                            format!("{} ports get the same description", ports.len()),
                        )
                        .at(cx.span(d), "one description for a range"),
                    );
                }
                layer.description = cx
                    .text(d, "description", Field::Description, &[os])
                    .map(|t| (t, cx.span(d)));
            }
            let profile = entry
                .profile
                .as_ref()
                .map(|pr| Rc::new((pr.get().clone(), cx.span(pr))));
            let peers = entry.peer.as_ref().and_then(|peer| {
                let hosts = pattern(&mut cx, &peer.host)?;
                let nics = match &peer.port {
                    Some(np) => pattern(&mut cx, np)?.into_iter().map(Some).collect(),
                    None => vec![None],
                };
                let n = ports.len();
                let fit = |v: usize| v == n || v == 1;
                let count = |k: usize, one: &str| match k {
                    1 => format!("one {one}"),
                    k => format!("{k} {one}s"),
                };
                // The pattern that does not fit: the NIC ports' when only they are off, else
                // the hosts' (one host for a range of ports is the usual slip).
                let misfit = if fit(hosts.len()) && !fit(nics.len()) {
                    peer.port.as_ref().map(|np| {
                        (
                            np,
                            count(nics.len(), "NIC port"),
                            format!("`port: ens{{1..{n}}}`, or one NIC port for all"),
                        )
                    })
                } else if !fit(hosts.len()) || (n > 1 && hosts.len() == 1 && nics.len() == 1) {
                    Some((
                        &peer.host,
                        count(hosts.len(), "host"),
                        format!("`host: gpu{{01..{n:02}}}`"),
                    ))
                } else {
                    None
                };
                if let Some((v, names, example)) = misfit {
                    cx.push(
                        Diagnostic::error(
                            "E047",
                            format!(
                                "`{}` is {} but `{}` names {names}",
                                key.get(),
                                count(n, "port"),
                                v.get().escape_debug()
                            ),
                        )
                        .at(cx.span(v), names)
                        .also(at, count(n, "port"))
                        .help(format!(
                            "give one peer per port with a numbered pattern, e.g. {example}"
                        )),
                    );
                    return None;
                }
                let at = cx.span(&peer.host);
                Some(
                    (0..n)
                        .map(|i| {
                            let host = hosts[if hosts.len() == 1 { 0 } else { i }].clone();
                            let port = nics[if nics.len() == 1 { 0 } else { i }].clone();
                            (Peer::Host { host, port }, at)
                        })
                        .collect::<Vec<_>>(),
                )
            });
            hosts::port_entry(&mut cx, key, entry, &ports, &mut p);
            let layer = Rc::new(layer);
            for (i, port) in ports.iter().enumerate() {
                p.claims.entry(*port).or_default().push(Claim {
                    profile: profile.clone(),
                    layer: Rc::clone(&layer),
                    peer: peers.as_ref().map(|v| v[i].clone()),
                });
            }
        }
        pending.insert(hostname.as_str().to_string(), p);
    }

    // Links: both ends get the other as peer and the link's profile.
    let mut link_pairs: Vec<LinkPair> = Vec::new();
    for (index, link) in raw.links.iter().flatten().enumerate() {
        if let Some(pr) = &link.profile {
            used_profiles.insert(pr.get().clone());
        }
        let a = endpoint(&mut cx, &link.a, &names, &refused);
        let b = endpoint(&mut cx, &link.b, &names, &refused);
        let (Some((sa, pa)), Some((sb, pb))) = (a, b) else {
            continue;
        };
        let (at_a, at_b) = (cx.span(&link.a), cx.span(&link.b));
        if pa.len() != pb.len() {
            cx.push(
                Diagnostic::error(
                    "E052",
                    format!("link ends have {} and {} ports", pa.len(), pb.len()),
                )
                .at(at_a, "this end")
                .also(at_b, "other end")
                .help("both ends of a link list the same number of ports, paired in order"),
            );
            continue;
        }
        let profile = link
            .profile
            .as_ref()
            .map(|pr| Rc::new((pr.get().clone(), cx.span(pr))));
        for (x, y) in pa.iter().zip(&pb) {
            if sa == sb && x == y {
                cx.error(
                    "E052",
                    format!("link from {sa}:{x} to itself"),
                    at_a,
                    "both ends are the same port",
                );
                continue;
            }
            let mut ok = true;
            for (sw, port, at) in [(&sa, *x, at_a), (&sb, *y, at_b)] {
                if let Some(p) = pending.get_mut(sw.as_str()) {
                    let (switch, disabled) = (&p.switch, &p.disabled);
                    ok &= check_ports(&mut cx, switch, disabled, &[port], at, false);
                    if ports::group_subport(&p.switch, port) {
                        p.named_sub.entry(port).or_insert(at);
                    }
                }
            }
            if !ok {
                continue;
            }
            for (me, port, at, other, oport) in [(&sa, *x, at_a, &sb, *y), (&sb, *y, at_b, &sa, *x)]
            {
                let Some(p) = pending.get_mut(me.as_str()) else {
                    continue;
                };
                let switch = names.get(&other.to_lowercase()).map(|(h, _)| h.clone());
                let Some(switch) = switch else { continue };
                p.claims.entry(port).or_default().push(Claim {
                    profile: profile.clone(),
                    layer: Rc::new(Layer::default()),
                    peer: Some((
                        Peer::Switch {
                            switch,
                            port: oport,
                        },
                        at,
                    )),
                });
            }
            link_pairs.push(((sa.clone(), *x), (sb.clone(), *y), at_a, at_b, index));
        }
    }

    // OS10 port groups: each group's mode from its ports' splits and speeds, and the ports a
    // mode names as subports (`ethernet1/1/17:1`) renamed so before they are resolved.
    port_groups::settle(&mut cx, &mut pending, &mut link_pairs, &profiles, &defaults);

    // Resolve every port of every switch: entry → profile → fabric defaults, first value wins.
    let empty = Layer::default();
    let link_ends: BTreeSet<(&str, Port)> = link_pairs
        .iter()
        .flat_map(|((sa, pa), (sb, pb), ..)| [(sa.as_str(), *pa), (sb.as_str(), *pb)])
        .collect();
    let mut ends: BTreeMap<(String, Port), LinkEnd> = BTreeMap::new();
    for (name, p) in &mut pending {
        let sw = &mut p.switch;
        let mut ports: Vec<Port> = Vec::new();
        for port in sw.model.ports() {
            if p.disabled.contains_key(&port) {
                continue;
            }
            match sw.splits.get(&port) {
                Some(s) => ports.extend((1..=s.ways()).map(|i| Port::sub(port.slot, port.port, i))),
                None if p.renamed.contains(&port.port) => {
                    ports.push(Port::sub(port.slot, port.port, 1))
                }
                None => ports.push(port),
            }
        }
        // Problems found on many ports at once are reported once, listing the ports.
        let mut grouped: BTreeMap<(&'static str, Span, String), (Diagnostic, Vec<Port>)> =
            BTreeMap::new();
        let mut group = |d: Diagnostic, key: String, port: Port| {
            let at = d.primary.as_ref().map_or(
                Span {
                    file,
                    start: 0,
                    end: 0,
                },
                |l| l.span,
            );
            grouped
                .entry((d.code, at, key))
                .or_insert_with(|| (d, Vec::new()))
                .1
                .push(port);
        };
        for port in ports {
            let claims = p.claims.get(&port).map_or(&[][..], |v| v.as_slice());
            // No entry, link or peer names it (`unused_ports`).
            let unused = claims.is_empty();
            let mut conflicts = Vec::new();
            let mut profile: Option<&At<String>> = None;
            let mut peer: Option<&At<Peer>> = None;
            for c in claims {
                if let Some(pr) = c.profile.as_deref() {
                    match profile {
                        Some((other, oat)) if *other != pr.0 => conflicts.push((
                            "profile".into(),
                            other.clone(),
                            *oat,
                            pr.0.clone(),
                            pr.1,
                        )),
                        _ => profile = Some(pr),
                    }
                }
                if let Some(pe) = &c.peer {
                    match peer {
                        Some((other, oat)) => group(
                            Diagnostic::error(
                                "E044",
                                format!(
                                    "two peers claim {{ports}} of `{name}`: `{}` and `{}`",
                                    other.description(),
                                    pe.0.description()
                                ),
                            )
                            .at(pe.1, "second peer")
                            .also(*oat, "first peer"),
                            format!("{}", oat.start),
                            port,
                        ),
                        None => peer = Some(pe),
                    }
                }
            }
            let merged;
            let entry: &Layer = match claims {
                [] => &empty,
                [one] => &one.layer,
                many => {
                    let mut m = Layer::default();
                    for c in many {
                        m.absorb(&c.layer, &mut conflicts);
                    }
                    merged = m;
                    &merged
                }
            };
            for (what, a, sa, b, sb) in conflicts {
                group(
                    Diagnostic::error(
                        "E043",
                        format!(
                            "two values for `{what}` on {{ports}} of `{name}`: `{a}` and `{b}`"
                        ),
                    )
                    .at(sb, format!("`{b}` here"))
                    .also(sa, format!("`{a}` here"))
                    .help("one port takes one value; remove one of the entries or make them agree"),
                    format!("{what} {}", sa.start),
                    port,
                );
            }
            let mut profile_layer = &empty;
            if let Some((pr, at)) = profile {
                match profiles.get(pr) {
                    Some((pl, _)) => profile_layer = pl,
                    None => {
                        let mut d = Diagnostic::error("E063", format!("unknown profile `{pr}`"))
                            .at(*at, "not declared under `profiles`");
                        if let Some(best) = did_you_mean(pr, profiles.keys().map(String::as_str)) {
                            d = d.help(format!("did you mean `{best}`?"));
                            used_profiles.insert(best.to_string());
                        }
                        group(d, String::new(), port);
                    }
                }
            }
            let stack = [entry, profile_layer, &defaults, &p.implied];
            macro_rules! first {
                ($f:ident) => {
                    stack.iter().find_map(|l| l.$f.as_ref())
                };
            }
            let vlan = first!(vlan);
            let vlans = first!(vlans);
            let tagged = vlans.iter().flat_map(|(l, _)| l.0.iter());
            for (v, at) in vlan.map(|(v, at)| (v, at)).into_iter().chain(tagged) {
                if v.get() != 1 && !sw.vlans.contains_key(v) {
                    let d = Diagnostic::error("E062", format!("VLAN {v} is not declared"))
                        .at(*at, "used here")
                        .help(format!("add `- id: {v}` under `vlans`"));
                    group(d, format!("{v}"), port);
                }
            }
            let mut switchport = first!(switchport).map(|x| x.0);
            if let Some((list, at)) = vlans {
                // At the first VLAN listed: a flow list's own span is its opening bracket.
                let at = list.0.values().next().unwrap_or(at);
                match first!(switchport) {
                    Some((SwitchportMode::Access, mode_at)) => {
                        let d = Diagnostic::error(
                            "E064",
                            format!("`vlans` on {{ports}} of `{name}`, in access mode"),
                        )
                        .at(*at, "tagged VLANs")
                        .also(*mode_at, "access mode")
                        .help("an access port carries one VLAN (`vlan`); for several, `switchport: trunk` (or `hybrid`, with `vlan` untagged)");
                        group(d, String::new(), port);
                    }
                    None => switchport = Some(SwitchportMode::Trunk),
                    Some(_) => {}
                }
            }
            let split = port.sub.and(sw.splits.get(&port.parent()).copied());
            let native = sw.model.native_speed(port.parent(), split);
            let speed = first!(speed);
            if let (Some((s, at)), Some(n)) = (speed, native)
                && s.gbps() > n.gbps()
            {
                let d = Diagnostic::error(
                    "E045",
                    format!(
                        "speed {s} is above the {n} that {{ports}} of `{name}` ({}) can run",
                        sw.model.name()
                    ),
                )
                .at(*at, "too fast");
                group(d, String::new(), port);
            }
            let pfc = first!(pfc);
            if let Some((true, at)) = pfc
                && !sw.qos.pfc.as_ref().is_some_and(|p| p.enabled)
                && !matches!(sw.qos.roce, Some(RoceMode::Lossless))
            {
                let d = Diagnostic::warning("W002", format!("per-port PFC is on for {{ports}} but PFC is not enabled globally on `{name}`"))
                    .at(*at, "port PFC mode on")
                    .help("turn global PFC on (remove `qos.pfc: false`, or give a lossless pool) so the switch sends and honours pause frames");
                group(d, String::new(), port);
            }
            let mtu = first!(mtu);
            let trust = first!(trust);
            let tc_at = |f: fn(&Layer) -> Option<Span>| stack.iter().find_map(|l| f(l));
            p.set_at.insert(
                port,
                SetAt {
                    mtu: mtu.map(|x| x.1),
                    pfc: pfc.map(|x| x.1),
                    trust: trust.map(|x| x.1),
                    l2: vlans
                        .map(|x| x.1)
                        .or(vlan.map(|x| x.1))
                        .or(first!(switchport).map(|x| x.1)),
                    ecn: tc_at(|l| l.ecn.values().next().map(|x| x.1)),
                    ets: tc_at(|l| l.ets.values().next().map(|x| x.1)),
                },
            );
            if let Some((Trust::Both, at)) = trust
                && sw.os() == crate::fabric::Os::Os10
            {
                let what = "Onyx's trust of DSCP, else PCP; an OS10 trust map trusts one of them (`trust: L3` or `L2`)";
                target::refuse(&mut cx, sw.os(), name, "trust: both", *at, what);
            }
            let auto = first!(auto_description).is_none_or(|(a, _)| *a);
            let description = match first!(description) {
                Some((d, _)) => Some(d.clone()),
                // The description made from the peer follows the rule of any description.
                None if auto => peer.and_then(|(p, at)| {
                    // The far port as its own OS names it (`leaf-b:ethernet1/1/49`).
                    let d = match p {
                        Peer::Switch { switch, port } => {
                            let os = cx.oses.get(&switch.as_str().to_lowercase()).copied();
                            let os = os.unwrap_or(crate::fabric::Os::Onyx);
                            format!("{switch}:{}", os.port_name(*port))
                        }
                        Peer::Host { .. } => p.description(),
                    };
                    match strings::check(&[sw.os()], Field::Description, &d) {
                        Ok(()) => Some(d),
                        Err(e) => {
                            // One diagnostic for the ports whose descriptions fail alike.
                            let diagnostic = Diagnostic::error(
                                "E024",
                                format!(
                                    "the description of {{ports}} made from its peer {} (`{}`)",
                                    e.message,
                                    d.escape_debug()
                                ),
                            )
                            .at(*at, "this peer")
                            .help(
                                "write a shorter `description` for the port, or shorter peer names",
                            );
                            group(diagnostic, e.message, port);
                            None
                        }
                    }
                }),
                None => None,
            };
            let mut ecn = TcMap::new();
            let mut ets = TcMap::new();
            for l in stack.iter().rev() {
                ecn.extend(l.ecn.iter().map(|(k, v)| (*k, v.0)));
                ets.extend(l.ets.iter().map(|(k, v)| (*k, v.0)));
            }
            if link_ends.contains(&(name.as_str(), port)) {
                ends.insert((name.clone(), port), link_end(sw, port, &stack, &ets));
            }
            if let Some((_, at)) = peer {
                p.peers.insert(port, *at);
            }
            sw.ports.insert(
                port,
                PortSettings {
                    speed: speed.map(|x| x.0),
                    mtu: mtu.map(|x| x.0),
                    shutdown: (unused && p.policies.unused_shutdown)
                        || first!(shutdown).is_some_and(|x| x.0),
                    switchport,
                    vlan: vlan.map(|x| x.0),
                    trust: trust.map(|x| x.0),
                    ecn,
                    ets,
                    pfc: pfc.is_some_and(|x| x.0),
                    description,
                    peer: peer.map(|x| x.0.clone()),
                    // An unknown profile (E063) fails the fabric: only a declared one is kept.
                    profile: profile
                        .filter(|(pr, _)| profiles.contains_key(pr))
                        .map(|(pr, _)| pr.clone()),
                    address: None,
                    bundle: None,
                    trunk: vlans.map(|x| x.0.0.keys().copied().collect()),
                    stp: crate::fabric::PortStp {
                        port_type: first!(stp_type).map(|x| x.0),
                        bpduguard: first!(stp_bpduguard).map(|x| x.0),
                        guard: first!(stp_guard).map(|x| x.0),
                    },
                    unused,
                    lacp_individual: false,
                },
            );
        }
        for (_, (mut d, ports)) in grouped {
            d.message = d.message.replace("{ports}", &describe_ports(&ports));
            cx.push(d);
        }
    }

    // Both ends of every link agree on what must match, defaults included.
    links::ends_agree(&mut cx, &link_pairs, &ends);

    network::resolve(&mut cx, raw, &mut pending, &link_pairs, &names);
    path_mtu::settle(&mut pending);

    for (name, (_, at)) in &profiles {
        if !used_profiles.contains(name) {
            cx.push(
                Diagnostic::warning("W001", format!("profile `{name}` is not used by any port"))
                    .at(*at, "declared here"),
            );
        }
    }

    target::report_foreign(&mut cx);
    let (hosts, host_mtu_at) = nics::hosts(&mut cx, raw, &pending);
    path_mtu::check(&mut cx, &pending, &link_pairs, &hosts, &host_mtu_at);
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

/// What a link end runs with, defaults included, in the OS-neutral terms E051 compares: native
/// speed, the OS's MTU (`meaning::default_mtu`) and trust L2 (the format's default on both
/// OSes) where unset; the priorities it pauses, its scheduler and ECN, each where the user
/// set it.
fn link_end(sw: &Switch, port: Port, stack: &[&Layer; 4], ets: &TcMap<Ets>) -> LinkEnd {
    macro_rules! first {
        ($f:ident) => {
            stack.iter().find_map(|l| l.$f.as_ref())
        };
    }
    let (speed, mtu, pfc, trust) = (first!(speed), first!(mtu), first!(pfc), first!(trust));
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
