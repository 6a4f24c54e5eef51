//! Switches that already exist → a fabric file. Input: running configs by switch; output:
//! the fabric document, serialized as YAML with comments. Idiomatic rather than a dump:
//! settings every port of every switch shares become `port_defaults`, settings common to
//! every switch become fabric-wide keys, consecutive ports with equal settings become one
//! range, a set of settings used by several ranges becomes a profile, the cables between
//! imported switches, whichever OS each runs, become `links` (`links`). What the format does
//! not model goes to the switch's `extra` lines, in its running-config section, so nothing
//! is lost. Nothing here reads files or prints.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_saphyr::{Commented, FlowMap, FlowSeq};

use crate::onyx::{self, Config, Iface, Interface};
use crate::types::{Ecn, EcnThresholds, Ets, Model, PoolType, Port, Split, SwitchportMode, Trust};

mod check;
mod links;
pub mod os10;
mod yaml;

pub use check::{Lost, Unfaithful, check, check_all};

/// One switch to import.
pub struct Source {
    /// Where it came from, for the comment above the switch (`backups/leaf01.cfg`).
    pub origin: String,
    pub config: Config,
    /// The model, when the user says it (`--model`); else guessed from the ports.
    pub model: Option<&'static Model>,
}

/// The fabric file for these switches, as YAML; switches are named by their `hostname` line,
/// else the header's `## Hostname:`, else `fallback` names them (file names).
pub fn import(sources: &BTreeMap<String, Source>) -> Result<String, String> {
    import_all(sources, &BTreeMap::new())
}

/// [`import`] of Onyx and OS10 switches into one fabric.
pub fn import_all(
    onyx: &BTreeMap<String, Source>,
    os10: &BTreeMap<String, os10::Source>,
) -> Result<String, String> {
    if let Some(name) = onyx.keys().find(|n| os10.contains_key(*n)) {
        return Err(format!(
            "two configs are for switch `{name}`: {} and {}",
            onyx[name].origin, os10[name].origin
        ));
    }
    let none = Interface::default();
    let prepared = prepare(onyx, &none)?;
    let mut read = os10::read(os10)?;
    // Cables are found across both OSes: an Onyx spine's uplink to an OS10 leaf is a link.
    let mut ends = cable_ends(&prepared);
    ends.extend(read.cable_ends());
    let links = links::Links::find(&ends);
    let mut doc = if onyx.is_empty() {
        Doc::default()
    } else {
        document(&prepared, os10.is_empty(), &links)
    };
    doc.links = links.docs(doc.routing.is_some());
    let mut kept = os10::add(&mut doc, &mut read, onyx.is_empty(), &links);
    kept.extend(secret_lines(&mut doc));
    let mut text = String::from(
        "# Imported by `fabric import` from the running configs named above each switch.\n# `fabric validate` checks it; each switch's compiled config plans empty against the\n# config it came from (no drift).\n\n",
    );
    let yaml = serde_saphyr::to_string_with_options(
        &doc,
        serde_saphyr::ser_options! { comment_position: serde_saphyr::CommentPosition::Above },
    )
    .map_err(|e| e.to_string())?;
    // Below each switch's `# from` comment: the lines the fabric leaves as they are (OS10's
    // unmodeled lines, Onyx lines that hold a secret).
    let mut switch: Option<&str> = None;
    for line in yaml.lines() {
        text.push_str(line);
        text.push('\n');
        if let Some(name) = line.strip_prefix("  ").and_then(|n| n.strip_suffix(':')) {
            switch = Some(name);
        } else if line.starts_with("    # from ")
            && let Some(kept) = switch.and_then(|n| kept.get(n)).filter(|k| !k.is_empty())
        {
            text.push_str(&os10::kept_comment(kept));
        }
    }
    yaml::check(&text)?;
    Ok(text)
}

/// Takes out of each Onyx switch's `extra` the lines that hold a secret (`snmp-server
/// community`, `radius-server key`, …), by switch: a config read from a file or a switch is
/// masked before import sees it, so such a line carries a mask, which a push would set as the
/// secret; and a fabric file is no place for a secret. Listed in the comment above the switch
/// instead, they stay as they are on the switch (a plan leaves lines it does not write).
fn secret_lines(doc: &mut Doc) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for (name, entry) in &mut doc.switches {
        let Commented(SwitchEntry::Onyx(sw), _) = entry else {
            continue;
        };
        let mut taken = Vec::new();
        for (_, lines) in &mut sw.extra.0 {
            lines.retain(|l| {
                let secret = crate::secrets::in_command(l);
                if secret {
                    taken.push(l.clone());
                }
                !secret
            });
        }
        sw.extra.0.retain(|(_, lines)| !lines.is_empty());
        if !taken.is_empty() {
            out.insert(name.clone(), taken);
        }
    }
    out
}

/// The comment above a switch: the config it came from, and its model when guessed.
fn from_comment(origin: &str, guessed: bool, model: &str) -> String {
    let origin = yaml::comment(origin);
    if guessed {
        format!("from {origin} (model guessed from its ports: {model})")
    } else {
        format!("from {origin}")
    }
}

/// Marks `advertise: false` on each routed host port (no imported switch at its other end)
/// whose subnet the switch's BGP does not advertise, though the fabric would: a single routed
/// leaf's uplinks to spines it is imported without, their sessions under `bgp.neighbors`.
/// The config says what it advertises; the fabric file says it rather than derive more.
fn unadvertised<'a>(
    ports: impl Iterator<Item = &'a mut BTreeSet<Attr>>,
    name: &str,
    advertised: Option<&BTreeSet<crate::types::Ipv4Net>>,
    links: &links::Links,
) {
    let Some(advertised) = advertised else {
        return;
    };
    for a in ports {
        let net = a.iter().find_map(|x| match x {
            Attr::Address(s) => s.parse::<crate::types::Ipv4Net>().ok(),
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

/// A map serialized in the order given (ports in port order, sections in print order).
struct Ordered<V>(Vec<(String, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<V> Ordered<V> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[derive(Default, Serialize)]
struct Doc {
    #[serde(skip_serializing_if = "Option::is_none")]
    os: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    os10: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    onyx: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lldp: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    qos: Option<Qos>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    vlans: Vec<VlanDoc>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    mlag: Vec<os10::PairDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    port_defaults: Option<Defaults>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    profiles: BTreeMap<String, FlowMap<Settings>>,
    switches: BTreeMap<String, Commented<SwitchEntry>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    links: Vec<FlowMap<LinkDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    routing: Option<RoutingDoc>,
}

/// A switch as the fabric writes it, by OS.
#[derive(Serialize)]
#[serde(untagged)]
enum SwitchEntry {
    Onyx(SwitchDoc),
    Os10(os10::SwitchDoc),
}

/// `routing:` as import writes it: the ECMP hashing of the switches that route (their BGP is
/// written out per switch).
#[derive(Serialize)]
struct RoutingDoc {
    load_sharing: FlowSeq<Vec<String>>,
}

#[derive(Clone, PartialEq, Serialize)]
struct VlanDoc {
    id: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mtu: Option<u16>,
}

#[derive(Serialize)]
struct NeighborDoc {
    address: String,
    remote_as: u32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    bfd: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    timers: Option<FlowMap<TimersDoc>>,
}

/// BGP's keepalive and hold timers.
#[derive(Clone, Copy, PartialEq, Serialize)]
struct TimersDoc {
    keepalive: u16,
    hold: u16,
}

impl TimersDoc {
    fn of((keepalive, hold): (u16, u16)) -> FlowMap<TimersDoc> {
        FlowMap(TimersDoc { keepalive, hold })
    }
}

/// `bfd`: on or off, or on with timers other than the format's default.
#[derive(Serialize)]
#[serde(untagged)]
enum BfdDoc {
    Flag(bool),
    Timers(FlowMap<crate::fabric::BfdTimers>),
}

impl BfdDoc {
    /// BFD on with `t`: `true` at the format's default timers.
    fn on(t: crate::fabric::BfdTimers) -> BfdDoc {
        if t == crate::fabric::BfdTimers::DEFAULT {
            BfdDoc::Flag(true)
        } else {
            BfdDoc::Timers(FlowMap(t))
        }
    }
}

/// A switch's BGP, written out.
#[derive(Serialize)]
struct BgpDoc {
    asn: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    router_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    maximum_paths: Option<u16>,
    multipath_relax: bool,
    /// BFD on the sessions over routed links, and its timers.
    #[serde(skip_serializing_if = "Option::is_none")]
    bfd: Option<BfdDoc>,
    /// The timers of the sessions over routed links.
    #[serde(skip_serializing_if = "Option::is_none")]
    timers: Option<FlowMap<TimersDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fast_external_fallover: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    neighbors: Vec<FlowMap<NeighborDoc>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    networks: Vec<String>,
}

#[derive(Serialize)]
pub(super) struct IplDoc {
    port_channel: u16,
    vlan: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<String>,
    peer: String,
}

/// A switch's half of an MLAG pair.
#[derive(Serialize)]
pub(super) struct MlagDoc {
    system_mac: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    domain: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vip: Option<String>,
    ipl: FlowMap<IplDoc>,
    /// OS10's `backup destination`, the peer's management address.
    #[serde(skip_serializing_if = "Option::is_none")]
    peer_mgmt: Option<String>,
}

#[derive(Clone, PartialEq, Serialize)]
struct Qos {
    #[serde(skip_serializing_if = "Option::is_none")]
    roce: Option<String>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pools: BTreeMap<String, FlowMap<PoolDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pfc: Option<PfcField>,
}

/// `qos.pfc`: `false` (the opt-out) or written out.
#[derive(Clone, PartialEq, Serialize)]
#[serde(untagged)]
enum PfcField {
    Off(bool),
    Table(FlowMap<PfcDoc>),
}

#[derive(Clone, PartialEq, Serialize)]
struct PoolDoc {
    #[serde(rename = "type")]
    kind: String,
    /// Hundredths of a percent: `50` or `12.5`.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "percent")]
    memory: Option<u16>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    priorities: Vec<u8>,
}

#[derive(Clone, PartialEq, Serialize)]
struct PfcDoc {
    enabled: bool,
    priorities: FlowSeq<Vec<u8>>,
}

#[derive(Serialize)]
struct SwitchDoc {
    model: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    onyx: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    licenses: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    certificate: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lldp: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    qos: Option<Qos>,
    #[serde(skip_serializing_if = "Option::is_none")]
    set_hostname: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loopback: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    vlans: Vec<FlowMap<VlanDoc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stp: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    host_ports: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unused_ports: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bgp: Option<BgpDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mlag: Option<MlagDoc>,
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    ports: Ordered<FlowMap<Settings>>,
    #[serde(skip_serializing_if = "Ordered::is_empty")]
    extra: Ordered<Vec<String>>,
}

/// A port's settings in the format's words; also a profile's and `port_defaults`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
struct Settings {
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    split: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speed: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mtu: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    admin: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    switchport: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vlan: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vlans: Option<Vec<u16>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trust: Option<String>,
    // Plain: in a flow map (a profile, a port) it flows anyway, and serde-saphyr 2.1.1 leaks
    // flow style past a flow map nested in another (every map after it would flow).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    ecn: BTreeMap<u8, EcnDoc>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    ets: BTreeMap<u8, EtsDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pfc: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    peer: Option<PeerDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    address: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    advertise: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mlag: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lag: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lacp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lacp_individual: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bundle_description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stp: Option<StpDoc>,
}

/// `stp:` of a port (or of the bundle it joins): what differs from the switch's defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
struct StpDoc {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bpduguard: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    guard: Option<String>,
}

/// A host on a port, or numbered hosts on a range (`gpu{001..004}`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
struct PeerDoc {
    host: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    port: Option<String>,
}

#[derive(Serialize)]
struct LinkDoc {
    a: String,
    b: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
struct EcnDoc {
    #[serde(skip_serializing_if = "Option::is_none")]
    mode: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min_percent: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_percent: Option<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(untagged)]
enum EtsDoc {
    Strict(&'static str),
    Wrr(u8),
}

/// `port_defaults` in block style, its ECN thresholds one flow map per queue (`3: {min: 150,
/// max: 1500}`), after the other settings.
#[derive(Serialize)]
struct Defaults {
    #[serde(flatten)]
    settings: Settings,
    #[serde(
        skip_serializing_if = "BTreeMap::is_empty",
        serialize_with = "flow_values"
    )]
    ecn: BTreeMap<u8, EcnDoc>,
}

impl Defaults {
    fn new(s: Settings) -> Option<Defaults> {
        (!s.is_empty_settings()).then(|| Defaults {
            ecn: s.ecn.clone(),
            settings: Settings {
                ecn: BTreeMap::new(),
                ..s
            },
        })
    }
}

/// A map whose values print in flow style: `3: {min: 150, max: 1500}`.
fn flow_values<S: serde::Serializer, V: Serialize>(
    m: &BTreeMap<u8, V>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(m.iter().map(|(k, v)| (k, FlowMap(v))))
}

/// A percentage kept in hundredths, printed as the number a user writes (`50`, `12.5`).
fn percent<S: serde::Serializer>(v: &Option<u16>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(h) if h % 100 == 0 => s.serialize_u16(h / 100),
        Some(h) => s.serialize_f64(f64::from(*h) / 100.0),
        None => s.serialize_none(),
    }
}

/// The attributes of a port, one by one, so defaults can be taken out attribute by
/// attribute. The description is kept apart: it is per port, never a default.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Attr {
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
fn stp_attrs(
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

/// The interface a port-channel member's settings belong to.
fn bundle_iface(g: onyx::ChannelGroup) -> Iface {
    if g.mlag {
        Iface::MlagPortChannel(g.id)
    } else {
        Iface::PortChannel(g.id)
    }
}

/// A port's attributes in the format's terms: a port-channel member carries the bundle's L2
/// and QoS settings (the format sets them on the member ports and compiles them onto the
/// bundle) and its own speed, MTU and admin state; a routed port its address.
fn port_attrs(c: &Config, i: &Interface) -> BTreeSet<Attr> {
    let bundle = i
        .channel_group
        .and_then(|g| c.interfaces.get(&bundle_iface(g)));
    let mut out = match bundle {
        Some(b) => attrs(&Interface {
            switchport_mode: b.switchport_mode,
            access_vlan: b.access_vlan,
            allowed: b.allowed.clone(),
            ..i.clone()
        }),
        None => attrs(i),
    };
    if !i.pfc && pfc_ports_by_default(c) {
        out.remove(&Attr::Pfc(false));
        out.insert(Attr::PfcOff);
    }
    if let Some(g) = i.channel_group {
        out.insert(Attr::Bundle(g.mlag, g.id, g.mode.to_string()));
    }
    if i.routed
        && let Some(a) = i.address
    {
        out.insert(Attr::Address(a.to_string()));
    }
    // A member's spanning tree and what its entry says of the bundle are the bundle's.
    let stp = bundle.unwrap_or(i);
    stp_attrs(stp.stp_type, stp.bpduguard, stp.stp_guard, &mut out);
    if let Some(b) = bundle {
        if b.lacp_individual {
            out.insert(Attr::LacpIndividual);
        }
        if let Some(d) = &b.description {
            out.insert(Attr::BundleDescription(d.clone()));
        }
    }
    out
}

fn attrs(i: &Interface) -> BTreeSet<Attr> {
    let mut out = BTreeSet::new();
    if let Some(s) = i.speed {
        out.insert(Attr::Speed(s.speed.to_string()));
    }
    if let Some(m) = i.mtu {
        out.insert(Attr::Mtu(m));
    }
    if i.shutdown == Some(true) {
        out.insert(Attr::Admin("down".into()));
    }
    if let Some(m) = i.switchport_mode.filter(|m| *m != SwitchportMode::Access) {
        out.insert(Attr::Switchport(m.to_string()));
    }
    if let Some(v) = i.access_vlan {
        out.insert(Attr::Vlan(v.get()));
    }
    // A VLAN list the port's mode takes (a trunk carrying every VLAN is Onyx's default).
    if let Some(a) = i.allowed.as_ref().filter(|a| !a.all)
        && Some(a.mode) == i.switchport_mode
    {
        out.insert(Attr::Vlans(a.vlans.iter().map(|v| v.get()).collect()));
    }
    out.insert(Attr::Trust(i.trust.unwrap_or(Trust::L2).to_string()));
    for (tc, e) in &i.ecn {
        out.insert(Attr::Ecn(tc.get(), ecn_doc(e)));
    }
    for (tc, e) in &i.ets {
        out.insert(Attr::Ets(
            tc.get(),
            match e {
                Ets::Strict => EtsDoc::Strict("strict"),
                Ets::Wrr(w) => EtsDoc::Wrr(*w),
            },
        ));
    }
    out.insert(Attr::Pfc(i.pfc));
    out
}

fn ecn_doc(e: &Ecn) -> EcnDoc {
    let mode = Some(e.mode.to_string()).filter(|m| m != "ecn");
    match e.thresholds {
        EcnThresholds::Absolute { min, max } => EcnDoc {
            mode,
            min: Some(min),
            max: Some(max),
            min_percent: None,
            max_percent: None,
        },
        EcnThresholds::Relative { min, max } => EcnDoc {
            mode,
            min: None,
            max: None,
            min_percent: Some(min),
            max_percent: Some(max),
        },
    }
}

/// Attributes → the format's settings; trust L2 and PFC off (Onyx's defaults) are left out.
/// (Port defaults hold what every port has, so no port needs to say a default back.)
fn settings(attrs: &BTreeSet<Attr>) -> Settings {
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

/// The models that fit a config: enough front-panel ports, the splits it makes, a native
/// speed it does not set explicitly (the format leaves a native speed out), and a first
/// release no later than the one its header prints (else the fabric would not validate,
/// E039); fewest ports first.
fn fitting_models(config: &Config) -> Vec<&'static Model> {
    let ports: Vec<(Port, &Interface)> = config
        .interfaces
        .iter()
        .filter_map(|(k, i)| match k {
            Iface::Ethernet(p) => Some((*p, i)),
            _ => None,
        })
        .collect();
    let mut models: Vec<&'static Model> = Model::all().iter().collect();
    models.sort_by_key(|m| m.port_count());
    if let Some(r) = config.header.release {
        models.retain(|m| m.check_release(r).is_ok());
    }
    models.retain(|m| {
        ports.iter().all(|(p, i)| {
            let split_ok = i.split.is_none_or(|s| m.check_split(*p, s).is_ok());
            let parent_split = p.sub.and_then(|_| {
                config
                    .interfaces
                    .get(&Iface::Ethernet(p.parent()))
                    .and_then(|i| i.split)
            });
            let native = m.native_speed(p.parent(), parent_split);
            let speed_ok = i.speed.is_none_or(|s| Some(s.speed) != native);
            m.has_port(p.parent()) && split_ok && speed_ok
        })
    });
    models
}

/// Each switch's model: the one the user gave, else among the models that fit it, the one
/// that fits the most switches of the fabric (fleets are mostly one model), then the one
/// with the fewest ports.
fn guess_models(
    sources: &BTreeMap<String, Source>,
) -> Result<BTreeMap<&str, &'static Model>, String> {
    let fits: BTreeMap<&str, Vec<&'static Model>> = sources
        .iter()
        .map(|(n, s)| (n.as_str(), fitting_models(&s.config)))
        .collect();
    let count = |m: &Model| {
        fits.values()
            .filter(|v| v.iter().any(|x| x.name == m.name))
            .count()
    };
    let mut out = BTreeMap::new();
    for (name, s) in sources {
        let model = match s.model {
            Some(m) => m,
            // `max_by` keeps the last of equals: reversed, the first in table order wins.
            None => *fits[name.as_str()]
                .iter()
                .rev()
                .max_by(|a, b| count(a).cmp(&count(b)).then(b.port_count().cmp(&a.port_count())))
                .ok_or_else(|| {
                    format!(
                        "{}: no supported model has these ports, splits and speeds; say it with `--model`",
                        s.origin
                    )
                })?,
        };
        out.insert(name.as_str(), model);
    }
    Ok(out)
}

/// Every usable Ethernet port of the switch with its interface (default when unconfigured).
fn ports<'a>(config: &'a Config, model: &Model, none: &'a Interface) -> Vec<(Port, &'a Interface)> {
    let mut out = Vec::new();
    for p in model.ports() {
        let i = config.interfaces.get(&Iface::Ethernet(p)).unwrap_or(none);
        match i.split {
            Some(s) => {
                for sub in 1..=s.ways() {
                    let sp = Port::sub(p.slot, p.port, sub);
                    out.push((
                        sp,
                        config.interfaces.get(&Iface::Ethernet(sp)).unwrap_or(none),
                    ));
                }
            }
            None => {
                // A port disabled by its neighbour's 4-way split has no settings of its own.
                let taken = p.port > 1
                    && config
                        .interfaces
                        .get(&Iface::Ethernet(Port::new(p.slot, p.port - 1)))
                        .and_then(|i| i.split)
                        .is_some_and(|s| {
                            s == Split::Four
                                && model
                                    .check_split(Port::new(p.slot, p.port - 1), s)
                                    .ok()
                                    .flatten()
                                    == Some(p)
                        });
                if !taken {
                    out.push((p, i));
                }
            }
        }
    }
    out
}

fn release(config: &Config) -> Option<String> {
    config.header.release.map(|r| r.to_string())
}

/// Whether the fabric puts every port of this switch in PFC mode unless the port says `pfc:
/// false`: the validation's rule for the `qos.pfc` this import writes (global PFC enabled on
/// some priority, no `roce` mode).
fn pfc_ports_by_default(c: &Config) -> bool {
    c.roce.is_none() && c.pfc.enabled && !c.pfc.priorities.is_empty()
}

fn qos(config: &Config) -> Option<Qos> {
    let pools: BTreeMap<String, FlowMap<PoolDoc>> = config
        .pools
        .iter()
        .map(|(name, p)| {
            let doc = PoolDoc {
                kind: p.kind.unwrap_or(PoolType::Lossy).to_string(),
                memory: p.memory.map(|m| m.hundredths()),
                priorities: p.priorities.iter().map(|p| p.get()).collect(),
            };
            (name.clone(), FlowMap(doc))
        })
        .collect();
    let roce = config.roce.map(|m| m.to_string());
    let lossless = config
        .pools
        .values()
        .any(|p| p.kind == Some(PoolType::Lossless) && !p.priorities.is_empty());
    let pfc = if config.pfc.enabled || !config.pfc.priorities.is_empty() {
        Some(PfcField::Table(FlowMap(PfcDoc {
            enabled: config.pfc.enabled,
            priorities: FlowSeq(config.pfc.priorities.iter().map(|p| p.get()).collect()),
        })))
    } else {
        // A lossless pool without PFC: the opt-out, else the fabric would add PFC.
        (lossless && roce.is_none()).then_some(PfcField::Off(false))
    };
    (!pools.is_empty() || pfc.is_some() || roce.is_some()).then_some(Qos { roce, pools, pfc })
}

fn vlans(config: &Config) -> Vec<VlanDoc> {
    config
        .vlans
        .iter()
        .filter(|(id, v)| id.get() != 1 || v.name.is_some())
        .map(|(id, v)| VlanDoc {
            id: id.get(),
            name: v.name.clone(),
            address: None,
            mtu: None,
        })
        .collect()
}

/// The `mtu` a gateway VLAN's entry writes: none where the fabric derives the interface's MTU
/// from the ports that carry the VLAN (the largest MTU a port sets, its VLANs its bundle's),
/// else the interface's own.
fn gateway_mtu(c: &Config, v: crate::types::Vlan) -> Option<u16> {
    let have = c.interfaces.get(&Iface::Vlan(v)).and_then(|e| e.mtu);
    let derived = c
        .interfaces
        .iter()
        .filter_map(|(i, e)| {
            let (Iface::Ethernet(_), Some(m)) = (i, e.mtu) else {
                return None;
            };
            let l2 = match e.channel_group {
                Some(g) if g.mlag => c.interfaces.get(&Iface::MlagPortChannel(g.id))?,
                Some(g) => c.interfaces.get(&Iface::PortChannel(g.id))?,
                None => e,
            };
            let (vlans, all) = l2.vlans();
            (all || vlans.contains(&v)).then_some(m)
        })
        .max()
        .filter(|m| *m != crate::onyx::VLAN_DEFAULT_MTU);
    (have != derived).then(|| have.unwrap_or(crate::onyx::VLAN_DEFAULT_MTU))
}

/// What of a switch's L3 and MLAG the format writes: gateways, loopback 0, its MLAG half.
struct Expressed {
    /// VLAN interfaces with an address, written as gateways (the IPL's excluded).
    gateways: BTreeMap<crate::types::Vlan, crate::types::Ipv4Net>,
    loopback: Option<std::net::Ipv4Addr>,
    /// The MLAG half: IPL port-channel and VLAN, and whether the IPL address is written.
    ipl: Option<(u16, crate::types::Vlan, bool)>,
}

fn expressed(c: &Config) -> Expressed {
    let ipl_pc = c.interfaces.iter().find_map(|(i, e)| match (i, e.ipl) {
        (Iface::PortChannel(n), Some(_)) => Some(*n),
        _ => None,
    });
    let ipl_vlan = c
        .interfaces
        .iter()
        .find_map(|(i, e)| match (i, e.ipl_peer) {
            (Iface::Vlan(v), Some(_)) => Some((*v, e.address.is_some())),
            _ => None,
        });
    let ipl = match (ipl_pc, ipl_vlan, c.mlag.system_mac) {
        (Some(pc), Some((v, addr)), Some(_)) => Some((pc, v, addr)),
        _ => None,
    };
    Expressed {
        gateways: c
            .interfaces
            .iter()
            .filter_map(|(i, e)| match (i, e.address) {
                (Iface::Vlan(v), Some(a)) if ipl.is_none_or(|(_, iv, _)| iv != *v) => Some((*v, a)),
                _ => None,
            })
            .collect(),
        loopback: c
            .interfaces
            .get(&Iface::Loopback(0))
            .and_then(|e| e.address)
            .filter(|a| a.len == 32)
            .map(|a| a.addr),
        ipl,
    }
}

/// The switch's BGP written out: everything but the sessions its routed cables give and the
/// prefixes it advertises anyway (loopback, gateway subnets, routed host ports).
fn bgp_doc(c: &Config, x: &Expressed, name: &str, links: &links::Links) -> Option<BgpDoc> {
    let b = c.bgp.as_ref()?;
    let mut derived: BTreeSet<crate::types::Ipv4Net> = x
        .loopback
        .map(|addr| crate::types::Ipv4Net { addr, len: 32 })
        .into_iter()
        .collect();
    derived.extend(x.gateways.values().map(|g| g.network()));
    let host_ports = c.interfaces.iter().filter_map(|(i, e)| match i {
        Iface::Ethernet(_) if e.routed => e.address,
        _ => None,
    });
    derived.extend(links.host_subnets(name, host_ports));
    let runs_bfd = c.protocols.contains(&onyx::Protocol::Bfd);
    // The sessions over routed cables: the fabric derives them, and they share one setting.
    let linked: Vec<std::net::Ipv4Addr> = b
        .neighbors
        .iter()
        .filter(|(a, n)| links.derives(name, **a, **n))
        .map(|(a, _)| *a)
        .collect();
    // Where they differ, the one the first has (the import's check then names what differs).
    let first = linked.first();
    let link_bfd = first.is_some_and(|a| runs_bfd && b.bfd.contains(a));
    let bfd =
        (link_bfd || !linked.is_empty() || b.bfd.iter().any(|a| !linked.contains(a))).then(|| {
            if !link_bfd && !linked.is_empty() {
                return BfdDoc::Flag(false);
            }
            let x = c.bfd;
            let d = crate::fabric::BfdTimers::DEFAULT;
            BfdDoc::on(crate::fabric::BfdTimers {
                interval: x.transmit_rate.unwrap_or(d.interval),
                min_rx: x.min_rx.unwrap_or(d.min_rx),
                multiplier: x.multiplier.unwrap_or(d.multiplier),
            })
        });
    Some(BgpDoc {
        asn: b.asn,
        router_id: b.router_id.map(|r| r.to_string()),
        maximum_paths: b.maximum_paths,
        multipath_relax: b.multipath_relax,
        bfd,
        timers: first
            .and_then(|a| b.timers.get(a))
            .map(|t| TimersDoc::of(*t)),
        // Where a switch has sessions over routed links the fabric turns it on unless told;
        // elsewhere Onyx's default is off.
        fast_external_fallover: (!linked.is_empty() || b.fast_external_fallover)
            .then_some(b.fast_external_fallover),
        neighbors: b
            .neighbors
            .iter()
            .filter(|(a, n)| !links.derives(name, **a, **n))
            .map(|(a, n)| {
                FlowMap(NeighborDoc {
                    address: a.to_string(),
                    remote_as: *n,
                    bfd: runs_bfd && b.bfd.contains(a),
                    timers: b.timers.get(a).map(|t| TimersDoc::of(*t)),
                })
            })
            .collect(),
        networks: b
            .networks
            .iter()
            .filter(|n| !derived.contains(n))
            .map(|n| n.to_string())
            .collect(),
    })
}

fn mlag_doc(c: &Config, x: &Expressed) -> Option<MlagDoc> {
    let (pc, vlan, with_address) = x.ipl?;
    let v = c.interfaces.get(&Iface::Vlan(vlan))?;
    let (_, peer) = v.ipl_peer?;
    let (domain, vip) = match &c.mlag.vip {
        Some((d, net)) => (Some(d.clone()), Some(net.to_string())),
        None => (None, None),
    };
    Some(MlagDoc {
        system_mac: c.mlag.system_mac?.to_string(),
        domain,
        vip,
        ipl: FlowMap(IplDoc {
            port_channel: pc,
            vlan: vlan.get(),
            address: v.address.filter(|_| with_address).map(|a| a.to_string()),
            peer: peer.to_string(),
        }),
        peer_mgmt: None,
    })
}

/// The ID in `# Certificate name system-self-signed, ID <hex>`, when the switch prints the
/// certificate block as the fabric's `certificate` key does (else the block is `extra`).
fn certificate(config: &Config) -> Option<String> {
    let id = config
        .layout
        .sections
        .iter()
        .flat_map(|s| &s.verbatim)
        .find_map(|(_, l)| {
            l.trim()
                .strip_prefix("# Certificate name system-self-signed, ID ")
                .map(str::to_string)
        })?;
    let block = |c: &Config| -> Vec<String> {
        c.layout
            .sections
            .iter()
            .filter(|s| s.title == onyx::sections::X509)
            .flat_map(|s| s.verbatim.iter().map(|(_, l)| l.clone()))
            .collect()
    };
    let factory = Config::factory("", config.header.release, Some(&id));
    (block(&factory) == block(config)).then_some(id)
}

/// All sources' values equal: that value.
fn common<T: PartialEq + Clone>(values: impl IntoIterator<Item = T>) -> Option<T> {
    let mut it = values.into_iter();
    let first = it.next()?;
    it.all(|v| v == first).then_some(first)
}

/// Consecutive ports with the same settings: first, last, attributes.
type Run = (Port, Port, BTreeSet<Attr>);

struct Prepared<'a> {
    name: &'a str,
    source: &'a Source,
    model: &'static Model,
    ports: Vec<(Port, &'a Interface)>,
}

/// Each Onyx switch read: its model (given, else guessed) and its ports.
fn prepare<'a>(
    sources: &'a BTreeMap<String, Source>,
    none: &'a Interface,
) -> Result<Vec<Prepared<'a>>, String> {
    let models = guess_models(sources)?;
    Ok(sources
        .iter()
        .map(|(name, s)| {
            let model = models[name.as_str()];
            Prepared {
                name,
                source: s,
                model,
                ports: ports(&s.config, model, none),
            }
        })
        .collect())
}

/// The Onyx switches as their cables see them: their described ports, each routed one's
/// address, their AS.
fn cable_ends<'a>(prepared: &[Prepared<'a>]) -> Vec<links::Switch<'a>> {
    prepared
        .iter()
        .map(|p| links::Switch {
            name: p.name,
            os: crate::fabric::Os::Onyx,
            asn: p.source.config.bgp.as_ref().map(|b| b.asn),
            ends: p
                .ports
                .iter()
                .filter_map(|(port, i)| {
                    Some(links::End {
                        port: *port,
                        name: port.to_string(),
                        description: i.description.as_deref()?,
                        address: i.address.filter(|_| i.routed),
                    })
                })
                .collect(),
        })
        .collect()
}

/// The fabric of these switches; `alone`: they are all the fabric's switches (else settings
/// they share are not made fabric-wide, where other switches would inherit them). Its links
/// are the caller's (`links`, with the other OS's switches).
fn document(prepared: &[Prepared], alone: bool, links: &links::Links) -> Doc {
    let onyx = common(prepared.iter().map(|p| release(&p.source.config)))
        .flatten()
        .filter(|_| alone);
    // ECMP hashing, where switches route: one setting for all (the format has one).
    let routes = |c: &Config| c.ip_routing;
    let hashing = common(
        prepared
            .iter()
            .filter(|p| routes(&p.source.config))
            .map(|p| p.source.config.load_sharing.clone()),
    );
    let routing = hashing.filter(|h| !h.is_empty()).map(|h| RoutingDoc {
        load_sharing: FlowSeq(
            h.iter()
                .map(|l| match l {
                    onyx::LoadSharing::SourceIpPort => "source-ip-port".to_string(),
                    onyx::LoadSharing::Consistent => "consistent".to_string(),
                })
                .collect(),
        ),
    });
    let lldp = common(prepared.iter().map(|p| p.source.config.lldp)).filter(|_| alone);
    let shared_qos = common(prepared.iter().map(|p| qos(&p.source.config))).filter(|_| alone);
    let shared_vlans = common(prepared.iter().map(|p| vlans(&p.source.config))).filter(|_| alone);
    // Bundle members whose descriptions name different hosts keep them as descriptions.
    let groups = onyx_pairs(prepared);
    let apart = apart(prepared.iter().flat_map(|p| {
        let group = groups.get(p.name).map_or(p.name, String::as_str);
        let bundles: BTreeMap<Port, onyx::ChannelGroup> = p
            .ports
            .iter()
            .filter_map(|(port, i)| Some((*port, i.channel_group?)))
            .collect();
        described(p, links)
            .into_iter()
            .filter_map(move |(port, d)| {
                let g = bundles.get(&port)?;
                Some(Member {
                    switch: p.name,
                    group: if g.mlag { group } else { p.name },
                    bundle: (g.mlag, g.id),
                    port,
                    description: d,
                })
            })
            .collect::<Vec<_>>()
    }));
    // Per switch: each port's attributes, less the spanning tree the host-port default gives
    // back, and the ports its descriptions give a peer (those `links` describe aside).
    let mut attrs: Vec<BTreeMap<Port, BTreeSet<Attr>>> = Vec::new();
    let mut described_peers: Vec<Described> = Vec::new();
    for p in prepared {
        let c = &p.source.config;
        let apart: BTreeSet<Port> = apart
            .iter()
            .filter(|(n, _)| *n == p.name)
            .map(|(_, port)| *port)
            .collect();
        let peers = peers(&described(p, links), &apart);
        let mut a: BTreeMap<Port, BTreeSet<Attr>> = p
            .ports
            .iter()
            .map(|(port, i)| (*port, port_attrs(c, i)))
            .collect();
        let advertised = c.bgp.as_ref().map(|b| b.networks.clone());
        unadvertised(a.values_mut(), p.name, advertised.as_ref(), links);
        // The default leaves out routed ports, the MLAG peer link and a switch without STP.
        let ipl = expressed(c).ipl.map(|(pc, _, _)| pc);
        let exempt = |s: &BTreeSet<Attr>| {
            !c.spanning_tree
                || s.iter().any(|x| {
                    matches!(x, Attr::Address(_))
                        || matches!(x, Attr::Bundle(false, id, _) if Some(*id) == ipl)
                })
        };
        let host = host_defaults(&mut a, &peers, span_ports, exempt);
        attrs.push(a);
        described_peers.push((peers, host));
    }
    // Port defaults: the attributes every port of every switch has.
    let mut defaults: Option<BTreeSet<Attr>> = None;
    for a in attrs.iter().flat_map(|a| a.values()) {
        defaults = Some(match defaults {
            None => a.clone(),
            Some(d) => d.intersection(a).cloned().collect(),
        });
    }
    let defaults = defaults.filter(|_| alone).unwrap_or_default();
    // Onyx's own defaults say nothing in `port_defaults`.
    let port_defaults = settings(&defaults);
    // Per switch: `unused_ports`, its unused ports' `admin: down` left to the default.
    let mut unused: Vec<Option<&'static str>> = Vec::new();
    for (k, a) in attrs.iter_mut().enumerate() {
        let name = prepared[k].name;
        let mut named: BTreeSet<Port> = a
            .keys()
            .copied()
            .filter(|port| links.linked(name, *port))
            .collect();
        for (first, last, _) in &described_peers[k].0 {
            named.extend(span_ports(*first, *last));
        }
        unused.push(unused_defaults(a, &defaults, &named));
    }

    // Per switch: ranges of consecutive ports with the same remaining attributes.
    let mut ranges: Vec<(usize, Vec<Run>)> = Vec::new();
    for (k, a) in attrs.iter().enumerate() {
        ranges.push((k, runs(a.iter().map(|(p, s)| (*p, s.clone())), &defaults)));
    }
    let mut profiles: BTreeMap<String, FlowMap<Settings>> = BTreeMap::new();
    let profile_of = make_profiles(ranges.iter().map(|(_, r)| r.as_slice()), &mut profiles);

    let mut switches = BTreeMap::new();
    for (k, runs) in ranges {
        let p = &prepared[k];
        let c = &p.source.config;
        let mut entries: Vec<(Port, String, Settings)> = Vec::new();
        for (first, last, a) in runs {
            let s = profiled(settings(&a), &profile_of);
            entries.push((first, crate::types::format_range(first, last), s));
        }
        let splits: Vec<(Port, u8)> = c
            .interfaces
            .iter()
            .filter_map(|(k, i)| match (k, i.split) {
                (Iface::Ethernet(p), Some(s)) => Some((*p, s.ways())),
                _ => None,
            })
            .collect();
        for (first, last, ways) in crate::types::compress(splits.iter().map(|(p, w)| (*p, w))) {
            entries.push((
                first,
                crate::types::format_range(first, last),
                Settings {
                    split: Some(*ways),
                    ..Settings::default()
                },
            ));
        }
        // Ports a `links` entry describes need no description of their own (they are not in
        // `described`).
        let (described, host_ports) = std::mem::take(&mut described_peers[k]);
        let unused_ports = unused[k];
        for (first, last, s) in described {
            let range = crate::types::format_range(first, last);
            match entries
                .iter_mut()
                .find(|(f, r, _)| *f == first && *r == range)
            {
                Some((_, _, e)) => {
                    e.description = s.description;
                    e.peer = s.peer;
                }
                None => entries.push((first, range, s)),
            }
        }
        entries.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        let x = expressed(c);
        let extra = extra(c, p.model, &x);
        let gateway = |id: u16| {
            crate::types::Vlan::new(i64::from(id))
                .ok()
                .and_then(|v| x.gateways.get(&v))
                .map(|a| a.to_string())
        };
        let mut own: Vec<VlanDoc> = match &shared_vlans {
            Some(_) => Vec::new(),
            None => vlans(c),
        };
        for d in &mut own {
            d.address = gateway(d.id);
        }
        for v in x.gateways.keys() {
            if !own.iter().any(|d| d.id == v.get()) {
                own.push(VlanDoc {
                    id: v.get(),
                    name: None,
                    address: gateway(v.get()),
                    mtu: None,
                });
            }
        }
        for d in own.iter_mut().filter(|d| d.address.is_some()) {
            d.mtu = crate::types::Vlan::new(i64::from(d.id))
                .ok()
                .and_then(|v| gateway_mtu(c, v));
        }
        own.sort_by_key(|d| d.id);
        let doc = SwitchDoc {
            model: p.model.name.to_string(),
            onyx: release(c).filter(|_| onyx.is_none()),
            licenses: c.licenses.clone(),
            certificate: certificate(c),
            lldp: Some(c.lldp).filter(|_| lldp.is_none()),
            qos: qos(c).filter(|_| shared_qos.is_none()),
            set_hostname: c.hostname.is_none().then_some(false),
            loopback: x.loopback.map(|a| a.to_string()),
            vlans: own.into_iter().map(FlowMap).collect(),
            // Where L2 joins this switch to another, the fabric says whether spanning tree
            // runs (W005); elsewhere only `off` differs from Onyx's default.
            stp: if !c.spanning_tree {
                Some("off")
            } else if links.joins_l2(p.name) {
                Some("on")
            } else {
                None
            },
            host_ports,
            unused_ports,
            bgp: bgp_doc(c, &x, p.name, links),
            mlag: mlag_doc(c, &x),
            ports: Ordered(
                entries
                    .into_iter()
                    .map(|(_, r, s)| (r, FlowMap(s)))
                    .collect(),
            ),
            extra,
        };
        let comment = from_comment(&p.source.origin, p.source.model.is_none(), p.model.name);
        switches.insert(
            p.name.to_string(),
            Commented(SwitchEntry::Onyx(doc), comment),
        );
    }
    Doc {
        os: None,
        os10: None,
        mlag: Vec::new(),
        onyx,
        lldp: lldp.filter(|l| *l),
        qos: shared_qos.flatten(),
        vlans: shared_vlans.unwrap_or_default(),
        port_defaults: Defaults::new(port_defaults),
        profiles,
        switches,
        links: Vec::new(),
        routing,
    }
}

/// One switch's ports its descriptions give a peer or a description, as ranges with those
/// settings ([`peers`]), and the `host_ports` it writes.
type Described = (Vec<(Port, Port, Settings)>, Option<&'static str>);

/// The ports of an Onyx range, `first` to `last`.
fn span_ports(first: Port, last: Port) -> Vec<Port> {
    onyx::IfaceRange {
        first: Iface::Ethernet(first),
        last: Iface::Ethernet(last),
    }
    .members()
    .filter_map(|i| match i {
        Iface::Ethernet(p) => Some(p),
        _ => None,
    })
    .collect()
}

/// `host_ports` of an imported switch, and its ports' attributes without what the default
/// gives back. The ports that would get the default (a host peer from their description, not
/// `exempt`): where each is an edge port with BPDU guard, those two attributes are dropped
/// from them (the default writes them); where one is not, `keep` (and every port's spanning
/// tree is written as the switch has it).
fn host_defaults(
    attrs: &mut BTreeMap<Port, BTreeSet<Attr>>,
    described: &[(Port, Port, Settings)],
    span: impl Fn(Port, Port) -> Vec<Port>,
    exempt: impl Fn(&BTreeSet<Attr>) -> bool,
) -> Option<&'static str> {
    let edge = [Attr::StpType("edge".into()), Attr::Bpduguard(true)];
    let hosts: Vec<Port> = described
        .iter()
        .filter(|(_, _, s)| s.peer.is_some())
        .flat_map(|(first, last, _)| span(*first, *last))
        .filter(|p| attrs.get(p).is_some_and(|a| !exempt(a)))
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
/// beyond `defaults` but its admin state (Onyx's defaults, trust L2 and PFC off, are not
/// written) is one the fabric leaves unused: where every such port is shut, their `admin:
/// down` is dropped (the default shuts them); where one is up, `keep`.
fn unused_defaults(
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
fn runs(
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
fn make_profiles<'a>(
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
fn profiled(s: Settings, profile_of: &BTreeMap<Settings, String>) -> Settings {
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

/// A description read as a host: prefix, number, digits of the number, NIC.
type Host = (String, u64, usize, Option<String>);

/// `gpu007:ens1f0` → (`gpu`, 7, 3, `ens1f0`), when printing it back gives the same text.
fn host(d: &str) -> Option<Host> {
    let (name, nic) = match d.split_once(':') {
        Some((h, n)) => (h, Some(n.to_string())),
        None => (d, None),
    };
    let word = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    };
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || !word(name) || !nic.as_deref().is_none_or(word) {
        return None;
    }
    let prefix = &name[..name.len() - digits];
    let n: u64 = name[prefix.len()..].parse().ok()?;
    (format!("{prefix}{n:0digits$}") == name).then(|| (prefix.to_string(), n, digits, nic))
}

/// The ports of an Onyx switch whose descriptions may read as peers: those no `links` entry
/// describes (a link needs no description of its own).
fn described<'a>(p: &Prepared<'a>, links: &links::Links) -> Vec<(Port, &'a String)> {
    p.ports
        .iter()
        .filter(|(port, _)| !links.linked(p.name, *port))
        .filter_map(|(port, i)| i.description.as_ref().map(|d| (*port, d)))
        .collect()
}

/// Onyx MLAG pairs among the imported switches, each switch's pair as one name (`a+b`): two
/// switches whose IPL VLAN interfaces name each other's address (`ipl 1 peer-address`).
fn onyx_pairs<'a>(prepared: &[Prepared<'a>]) -> BTreeMap<&'a str, String> {
    let address = |p: &Prepared| -> Vec<std::net::Ipv4Addr> {
        let c = &p.source.config;
        c.interfaces
            .values()
            .filter_map(|i| Some(i.address?.addr))
            .collect()
    };
    let mut out = BTreeMap::new();
    for a in prepared {
        let peer = a.source.config.interfaces.values().find_map(|i| i.ipl_peer);
        let Some((_, peer)) = peer else { continue };
        if let Some(b) = prepared
            .iter()
            .find(|b| b.name != a.name && address(b).contains(&peer))
        {
            let (x, y) = if a.name < b.name {
                (a.name, b.name)
            } else {
                (b.name, a.name)
            };
            out.insert(a.name, format!("{x}+{y}"));
        }
    }
    out
}

/// A bundle member whose description may read as its peer: its switch, the bundle's switches
/// (its own, or its MLAG pair's name for an MLAG port-channel) and number.
struct Member<'a> {
    switch: &'a str,
    group: &'a str,
    bundle: (bool, u16),
    port: Port,
    description: &'a str,
}

/// The bundle members whose descriptions stay descriptions though they read as hosts: the
/// members of one bundle (a port-channel on its switch, an MLAG port-channel on both switches
/// of its pair) whose descriptions name different hosts, as an IPL's members described by
/// the far ports (`sw-spine02-1/10`, `sw-spine02-1/12`, Cray CSM). As peers they would say
/// the bundle reaches several devices, which a fabric refuses (E125); as descriptions they
/// print back as the switch has them.
fn apart<'a>(members: impl IntoIterator<Item = Member<'a>>) -> BTreeSet<(&'a str, Port)> {
    /// A bundle's hosts, as named, and its members.
    type Seen<'a> = (BTreeSet<String>, Vec<(&'a str, Port)>);
    let mut bundles: BTreeMap<(&str, (bool, u16)), Seen> = BTreeMap::new();
    for m in members {
        let Some((prefix, n, digits, _)) = host(m.description) else {
            continue;
        };
        let seen = bundles.entry((m.group, m.bundle)).or_default();
        seen.0
            .insert(format!("{prefix}{n:0digits$}").to_lowercase());
        seen.1.push((m.switch, m.port));
    }
    bundles
        .into_values()
        .filter(|(hosts, _)| hosts.len() > 1)
        .flat_map(|(_, ports)| ports)
        .collect()
}

/// Descriptions as peers: `host:nic` on one port is a peer; consecutive ports whose hosts
/// count up by one with the same prefix, digits and NIC are one range with a numbered
/// pattern (`gpu{001..004}`); any other description stays a description, as do those of the
/// ports `apart` names ([`apart`]).
fn peers(described: &[(Port, &String)], apart: &BTreeSet<Port>) -> Vec<(Port, Port, Settings)> {
    struct Open {
        first: Port,
        last: Port,
        host: Host,
        end: u64,
    }
    fn close(run: Option<Open>, out: &mut Vec<(Port, Port, Settings)>) {
        let Some(Open {
            first,
            last,
            host: (prefix, start, digits, nic),
            end,
        }) = run
        else {
            return;
        };
        let host = if start == end {
            format!("{prefix}{start:0digits$}")
        } else {
            format!("{prefix}{{{start:0digits$}..{end:0digits$}}}")
        };
        out.push((
            first,
            last,
            Settings {
                peer: Some(PeerDoc { host, port: nic }),
                ..Settings::default()
            },
        ));
    }
    let mut out = Vec::new();
    let mut run: Option<Open> = None;
    for (port, d) in described {
        let parsed = host(d).filter(|_| !apart.contains(port));
        if let (Some(open), Some(h)) = (&mut run, &parsed)
            && open.last.precedes(*port)
            && open.host.0 == h.0
            && open.host.2 == h.2
            && open.host.3 == h.3
            && h.1 == open.end + 1
        {
            open.last = *port;
            open.end = h.1;
            continue;
        }
        close(run.take(), &mut out);
        match parsed {
            Some(h) => {
                run = Some(Open {
                    first: *port,
                    last: *port,
                    end: h.1,
                    host: h,
                })
            }
            None => out.push((
                *port,
                *port,
                Settings {
                    description: Some((*d).clone()),
                    ..Settings::default()
                },
            )),
        }
    }
    close(run, &mut out);
    out
}

impl Settings {
    fn is_empty_settings(&self) -> bool {
        *self == Settings::default()
    }

    /// The settings a profile can hold (the format's port settings): without the port's
    /// own address and bundle.
    fn shared(&self) -> Settings {
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

/// What the format does not model, as lines by section: port-channels and the other
/// interfaces, members' channel-groups and trunk VLAN lists, per-switch VLANs, and the lines
/// the model keeps verbatim (except those every switch prints).
fn extra(c: &Config, model: &Model, x: &Expressed) -> Ordered<Vec<String>> {
    let mut partial = Config::empty();
    for (iface, i) in &c.interfaces {
        match iface {
            // A VLAN list of the port's own mode is its `vlans`; one left from another mode
            // (the model keeps none) or `all` on a hybrid port stays a line.
            Iface::Ethernet(p) if model.has_port(p.parent()) => {
                if let Some(a) = &i.allowed
                    && (a.all || Some(a.mode) != i.switchport_mode)
                {
                    let e = partial.interfaces.entry(*iface).or_default();
                    e.allowed = i.allowed.clone();
                    // The list prints after the mode; the fabric sets the mode itself.
                    e.switchport_mode = i.switchport_mode;
                }
            }
            Iface::PortChannel(n) | Iface::MlagPortChannel(n) => {
                let mlag = matches!(iface, Iface::MlagPortChannel(_));
                // What the bundle gets from its members' settings and the MLAG half.
                let first = c.interfaces.iter().find_map(|(m, e)| {
                    let g = e.channel_group?;
                    (g.mlag == mlag && g.id == *n && matches!(m, Iface::Ethernet(_))).then_some(e)
                });
                let mut e = i.clone();
                if let Some(first) = first {
                    // The bundle's L2 settings are written on its members; its MTU and QoS
                    // come from the first member, so only a bundle that differs keeps them.
                    e.created = false;
                    let own_list = e
                        .allowed
                        .as_ref()
                        .is_some_and(|a| !a.all && Some(a.mode) == e.switchport_mode);
                    if own_list || e.allowed.is_none() {
                        e.switchport_mode = None;
                        e.allowed = None;
                    }
                    e.access_vlan = None;
                    if e.mtu == first.mtu {
                        e.mtu = None;
                    }
                    if e.trust == first.trust {
                        e.trust = None;
                    }
                    if e.ecn == first.ecn {
                        e.ecn = Default::default();
                    }
                    if e.ets == first.ets {
                        e.ets = Default::default();
                    }
                    if e.pfc == first.pfc {
                        e.pfc = false;
                    }
                    if e.shutdown == mlag.then_some(false) {
                        e.shutdown = None;
                    }
                    // Written on the members: `stp`, `lacp_individual`, `bundle_description`.
                    e.stp_type = None;
                    e.bpduguard = None;
                    e.stp_guard = None;
                    e.lacp_individual = false;
                    e.description = None;
                }
                if x.ipl.is_some_and(|(pc, _, _)| !mlag && pc == *n) {
                    e.ipl = None;
                }
                if e != Interface::default() {
                    partial.interfaces.insert(*iface, e);
                }
            }
            Iface::Vlan(v) => {
                let mut e = i.clone();
                if x.gateways.contains_key(v) {
                    // The gateway's entry writes its address and MTU (`gateway_mtu`).
                    e.created = false;
                    e.address = None;
                    e.mtu = None;
                }
                if let Some((_, iv, with_address)) = x.ipl
                    && iv == *v
                {
                    e.created = false;
                    e.ipl_peer = None;
                    if with_address {
                        e.address = None;
                    }
                }
                if e != Interface::default() {
                    partial.interfaces.insert(*iface, e);
                }
            }
            Iface::Loopback(0) if x.loopback.is_some() => {
                let e = Interface {
                    created: false,
                    address: None,
                    ..i.clone()
                };
                if e != Interface::default() {
                    partial.interfaces.insert(*iface, e);
                }
            }
            _ => {
                partial.interfaces.insert(*iface, i.clone());
            }
        }
    }
    let mut by_section: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |title: &str, line: String| match by_section.iter_mut().find(|(t, _)| t == title)
    {
        Some((_, v)) => v.push(line),
        None => by_section.push((title.to_string(), vec![line])),
    };
    for step in crate::onyx::plan::plan(&Config::empty(), &partial) {
        if let onyx::Command::Interface(r, onyx::IfaceCmd::SwitchportMode(_)) = &step.command
            && matches!(r.first, Iface::Ethernet(_))
        {
            continue;
        }
        add(onyx::home_section(&step.command), step.command.to_string());
    }
    let factory = Config::factory(
        c.hostname.as_deref().unwrap_or(""),
        c.header.release,
        certificate(c).as_deref(),
    );
    for section in &c.layout.sections {
        if section.title.is_empty() {
            continue;
        }
        let printed: BTreeSet<&str> = factory
            .layout
            .sections
            .iter()
            .filter(|s| s.title == section.title)
            .flat_map(|s| s.verbatim.iter().map(|(_, l)| l.as_str()))
            .collect();
        for (_, line) in &section.verbatim {
            if !printed.contains(line.as_str()) {
                add(&section.title, line.trim().to_string());
            }
        }
    }
    // In the order the switch prints its sections.
    let rank = |t: &str| {
        let printed = c.layout.sections.iter().position(|s| s.title == t);
        let known = onyx::SECTION_ORDER.iter().position(|s| *s == t);
        (printed.is_none(), printed.or(known))
    };
    by_section.sort_by_key(|(t, _)| rank(t));
    Ordered(by_section)
}
