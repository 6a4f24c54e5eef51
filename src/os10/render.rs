//! Canonical text of a [`Config`]: what `show running-configuration` prints.
//!
//! Rust decides (which items and lines are printed, in which order, where each verbatim line goes
//! back, whether a description needs quotes); the minijinja templates in `templates/os10/` only
//! format: one template spells every line, from a flat list of rows (a block's head, then its
//! lines), in one loop. Undefined variables are errors, never empty strings. A config built in code
//! is checked first: a name or description that could end the line and start another command is
//! refused.

use std::borrow::Cow;
use std::net::Ipv4Addr;

use minijinja::{Environment, Value};
use serde::Serialize;

use super::names::{self, Eth, Iface, PortGroupId, Ranges};
use super::{
    AddressFamily, BfdInterval, Bgp, ClassMap, Config, Extras, Interface, Key, LacpMode, Peer,
    PolicyClass, PolicyMap, Printed, QosMap, SwitchportMode, SystemQos, TrustMap, Vlt, Wred,
};
use crate::types::{Ipv4Net, Vlan};

/// The embedded templates, by file name. `running-configuration.j2` is the master.
pub const TEMPLATE_FILES: &[(&str, &str)] = &[(
    "running-configuration.j2",
    include_str!("../../templates/os10/running-configuration.j2"),
)];

const MASTER: &str = "running-configuration.j2";

/// One printed line, in the order printed. Blocks are flattened: a block's head, then its
/// lines; a sub-block (`class NAME`, `neighbor A`, `address-family ipv4 unicast`) after a
/// [`Row::Bang`]. A block's lines print one space in; a line deeper than that (in a `class`, a
/// `neighbor`, an address family) follows a [`Row::Deeper`] with the rest of its indentation.
/// One loop over one flat list: no template call per block or per line.
#[derive(Serialize)]
#[serde(tag = "k", content = "v")]
enum Row<'a> {
    /// The indentation of the next line beyond the one space of a block's lines.
    Deeper(&'static str),
    /// Kept verbatim, with its indentation and its own children.
    Text(&'a str),
    /// `interface NAME`.
    Interface(Iface),
    Description(Cow<'a, str>),
    Shutdown(bool),
    Mtu(u16),
    Flowcontrol {
        dir: &'static str,
        on: bool,
    },
    Pfc,
    Policy {
        dir: &'static str,
        kind: &'static str,
        name: &'a str,
    },
    Ets,
    QosMap(&'a str),
    Address(Ipv4Net),
    ChannelGroup {
        id: u16,
        mode: Option<&'static str>,
    },
    Routed,
    Mode(&'static str),
    AccessVlan(Vlan),
    TrustMap {
        kind: &'static str,
        name: &'a str,
    },
    TrunkAllowed(String),
    VltPortChannel(u16),
    Bpduguard(bool),
    StpGuard(&'static str),
    StpPortType(&'static str),
    /// `!` before a sub-block.
    Bang,
    Hostname(&'a str),
    Dcbx,
    Breakout {
        port: Eth,
        map: &'a str,
    },
    /// `wred NAME`.
    WredBlock(&'a str),
    Color {
        color: &'static str,
        min: u32,
        max: u32,
        drop: u8,
    },
    Ecn,
    /// `class-map type KIND NAME`.
    ClassMapBlock {
        kind: &'static str,
        name: &'a str,
    },
    Match {
        what: &'static str,
        values: Ranges,
    },
    /// `trust KIND-map NAME`.
    TrustMapBlock {
        kind: &'static str,
        name: &'a str,
    },
    TrustEntry {
        group: u8,
        kind: &'static str,
        values: Ranges,
    },
    /// `qos-map traffic-class NAME`.
    QosMapBlock(&'a str),
    Queue {
        queue: u8,
        values: Ranges,
    },
    /// `policy-map type KIND NAME`.
    PolicyMapBlock {
        kind: &'static str,
        name: &'a str,
    },
    /// `class NAME` inside a policy-map.
    ClassBlock(&'a str),
    Bandwidth(u8),
    Pause,
    PfcCos(Ranges),
    Priority,
    RandomDetect(&'a str),
    SystemQosBlock,
    /// `port-group 1/1/N`.
    PortGroupBlock(PortGroupId),
    /// `mode Eth 25g-4x` of a port group.
    PortMode(&'a str),
    /// `vlt-domain N`.
    VltBlock(u8),
    Backup(Ipv4Addr),
    Discovery(String),
    PeerRouting,
    PrimaryPriority(u32),
    VltMac(String),
    BfdEnable,
    BfdInterval {
        interval: u32,
        min_rx: u32,
        multiplier: u8,
        role: &'static str,
    },
    /// `router bgp ASN`.
    BgpBlock(u32),
    MultipathRelax,
    /// `no fast-external-fallover` (on, the default, prints nothing).
    NoFastExternalFallover,
    MaxPaths {
        kind: &'static str,
        n: u16,
    },
    RouterId(Ipv4Addr),
    AddressFamilyBlock,
    Network(Ipv4Net),
    /// `template NAME`.
    TemplateBlock(&'a str),
    /// `neighbor A`.
    NeighborBlock(Ipv4Addr),
    Inherit(&'a str),
    RemoteAs(u32),
    /// `bfd` in a neighbor or template.
    PeerBfd,
    Timers {
        keepalive: u16,
        hold: u16,
    },
}

/// A block's child: a line, or a sub-block with its head and children, one level deeper.
enum Node<'a> {
    Line(Row<'a>),
    Sub { head: Row<'a>, lines: Vec<Node<'a>> },
}

/// The indentation a line at each depth has beyond one space (OS10 indents one space per
/// level): none in a top-level block, a space in a sub-block, two in a sub-block's.
const DEEPER: [&str; 3] = ["", " ", "  "];

/// The flat rows of a block's children at `depth` (1 for a top-level block's lines).
fn flatten<'a>(rows: &mut Vec<Row<'a>>, depth: usize, lines: Vec<Node<'a>>) {
    let deeper = DEEPER[depth.clamp(1, DEEPER.len()) - 1];
    for n in lines {
        match n {
            Node::Line(r @ Row::Text(_)) => rows.push(r),
            Node::Line(r) => {
                if !deeper.is_empty() {
                    rows.push(Row::Deeper(deeper));
                }
                rows.push(r);
            }
            Node::Sub { head, lines } => {
                for r in [Row::Bang, head] {
                    if !deeper.is_empty() {
                        rows.push(Row::Deeper(deeper));
                    }
                    rows.push(r);
                }
                flatten(rows, depth + 1, lines);
            }
        }
    }
}

/// The modeled lines with the verbatim ones put back: each after as many modeled lines as it
/// followed when read.
fn weave<'a>(modeled: Vec<Node<'a>>, extras: &'a Extras) -> Vec<Node<'a>> {
    if extras.is_empty() {
        return modeled;
    }
    let mut out = Vec::with_capacity(modeled.len() + extras.len());
    let mut x = extras.iter().peekable();
    for (i, l) in modeled.into_iter().enumerate() {
        while let Some((_, t)) = x.next_if(|(k, _)| *k <= i) {
            out.push(Node::Line(Row::Text(t)));
        }
        out.push(l);
    }
    out.extend(x.map(|(_, t)| Node::Line(Row::Text(t))));
    out
}

/// How OS10 prints a description (an interface's or a BGP neighbor's) after `description `:
/// the text, the printed argument, and the evidence. The reader (`command::text`) reads each
/// back to the text; a description no row's rule covers (a double quote beside a space, or
/// first) is refused by both, as no capture shows how OS10 escapes one.
pub const DESCRIPTIONS: &[(&str, &str, &str)] = &[
    (
        "Unused Port",
        "\"Unused Port\"",
        "capture: AzureStack TOR, 10.5.3.2 (a space: in double quotes)",
    ),
    (
        "Loopback_Rack01/Tor1",
        "Loopback_Rack01/Tor1",
        "capture: AzureStack BMC, 10.5.3.2 (one word: bare)",
    ),
    (
        "5\"cable",
        "5\"cable",
        "UNCONFIRMED: no capture has a quote; one word, so bare as any word",
    ),
    (
        " edge ",
        "\" edge \"",
        "UNCONFIRMED: no capture has a space at an edge; in double quotes as any space",
    ),
];

/// A description as OS10 prints it ([`DESCRIPTIONS`]): in double quotes when it holds
/// whitespace, bare otherwise.
pub(crate) fn described(d: &str) -> Cow<'_, str> {
    if d.contains(char::is_whitespace) {
        Cow::Owned(format!("\"{d}\""))
    } else {
        Cow::Borrowed(d)
    }
}

/// Whether [`described`] prints `d` so that it reads back as `d`: text without control
/// characters, a double quote only inside one word (neither first nor beside whitespace).
pub(crate) fn describable(d: &str) -> bool {
    !d.is_empty()
        && !d.chars().any(char::is_control)
        && !(d.contains('"') && (d.starts_with('"') || d.contains(char::is_whitespace)))
}

/// An interface's lines, in the order OS10 10.5 prints them (AzureStack TOR and BMC, 10.5.3.2:
/// description, shutdown, switchport, mtu, ip address, flowcontrol, priority-flow-control,
/// service-policy input, output, ets, qos-map, then spanning-tree bpduguard, guard, port type;
/// Cray 10.5.1.4: shutdown, channel-group, no switchport, flowcontrol; 10.4.0E: switchport
/// access vlan, vlt-port-channel). UNCONFIRMED places (no capture): `flowcontrol transmit`
/// after `receive`, `trust-map` after `qos-map`, the spanning-tree lines after `trust-map`
/// and before `vlt-port-channel`.
fn interface_lines(e: &Interface) -> Vec<Node<'_>> {
    let mut l = Vec::with_capacity(16);
    let mut push = |r| l.push(Node::Line(r));
    if let Some(d) = &e.description {
        push(Row::Description(described(d)));
    }
    if let Some(s) = e.shutdown {
        push(Row::Shutdown(s));
    }
    if let Some(g) = e.channel_group {
        let mode = match g.mode {
            LacpMode::On => None,
            LacpMode::Active => Some("active"),
            LacpMode::Passive => Some("passive"),
        };
        push(Row::ChannelGroup { id: g.id, mode });
    }
    if e.routed {
        push(Row::Routed);
    }
    if let Some(m) = e.mode {
        push(Row::Mode(match m {
            SwitchportMode::Access => "access",
            SwitchportMode::Trunk => "trunk",
        }));
    }
    if let Some(v) = e.access_vlan {
        push(Row::AccessVlan(v));
    }
    if let Some(v) = &e.trunk_allowed {
        push(Row::TrunkAllowed(names::format_vlans(v)));
    }
    if let Some(m) = e.mtu {
        push(Row::Mtu(m));
    }
    if let Some(a) = e.address {
        push(Row::Address(a));
    }
    if let Some(on) = e.flowcontrol_rx {
        push(Row::Flowcontrol { dir: "receive", on });
    }
    if let Some(on) = e.flowcontrol_tx {
        push(Row::Flowcontrol {
            dir: "transmit",
            on,
        });
    }
    if e.pfc {
        push(Row::Pfc);
    }
    policies(&mut push, e.policy_in.as_deref(), e.policy_out.as_deref());
    if e.ets {
        push(Row::Ets);
    }
    if let Some(q) = &e.qos_map {
        push(Row::QosMap(q));
    }
    if let Some((k, n)) = &e.trust_map {
        push(Row::TrustMap {
            kind: k.word(),
            name: n,
        });
    }
    if let Some(on) = e.bpduguard {
        push(Row::Bpduguard(on));
    }
    if let Some(g) = e.stp_guard {
        push(Row::StpGuard(g.word()));
    }
    if let Some(t) = e.stp_type {
        push(Row::StpPortType(t.word()));
    }
    if let Some(n) = e.vlt_port_channel {
        push(Row::VltPortChannel(n));
    }
    weave(l, &e.extras)
}

fn policies<'a>(push: &mut impl FnMut(Row<'a>), input: Option<&'a str>, output: Option<&'a str>) {
    if let Some(name) = input {
        push(Row::Policy {
            dir: "input",
            kind: "network-qos",
            name,
        });
    }
    if let Some(name) = output {
        push(Row::Policy {
            dir: "output",
            kind: "queuing",
            name,
        });
    }
}

fn address_family(af: &AddressFamily) -> Node<'_> {
    let nets = af
        .networks
        .iter()
        .map(|n| Node::Line(Row::Network(*n)))
        .collect();
    Node::Sub {
        head: Row::AddressFamilyBlock,
        lines: weave(nets, &af.extras),
    }
}

/// A neighbor's or template's lines: alphabetical by command, as OS10 prints BGP (captures);
/// `remote-as` beside `inherit template` UNCONFIRMED (no capture has both).
fn peer<'a>(head: Row<'a>, p: &'a Peer) -> Node<'a> {
    let mut l = Vec::new();
    if p.bfd {
        l.push(Node::Line(Row::PeerBfd));
    }
    if let Some(d) = &p.description {
        // Spelled as interface descriptions are: UNCONFIRMED (the captures' have no space).
        l.push(Node::Line(Row::Description(described(d))));
    }
    if let Some(t) = &p.inherit {
        l.push(Node::Line(Row::Inherit(t)));
    }
    if let Some(n) = p.remote_as {
        l.push(Node::Line(Row::RemoteAs(n)));
    }
    if let Some((keepalive, hold)) = p.timers {
        l.push(Node::Line(Row::Timers { keepalive, hold }));
    }
    if let Some(s) = p.shutdown {
        l.push(Node::Line(Row::Shutdown(s)));
    }
    if let Some(af) = &p.ipv4 {
        l.push(address_family(af));
    }
    Node::Sub {
        head,
        lines: weave(l, &p.extras),
    }
}

fn lines_of<'a>(rows: impl IntoIterator<Item = Row<'a>>) -> Vec<Node<'a>> {
    rows.into_iter().map(Node::Line).collect()
}

/// A top-level item's head row and its lines.
type Block<'a> = (Row<'a>, Vec<Node<'a>>);

/// A top-level item: its head row and its lines (none for a single-line item).
fn item<'a>(c: &'a Config, k: &Key) -> Option<Block<'a>> {
    Some(match k {
        Key::Dcbx => (Row::Dcbx, Vec::new()),
        Key::Hostname => (Row::Hostname(c.hostname.as_deref()?), Vec::new()),
        Key::Breakout(e) => (
            Row::Breakout {
                port: *e,
                map: c.breakouts.get(e)?,
            },
            Vec::new(),
        ),
        Key::Interface(i) => (Row::Interface(*i), interface_lines(c.interfaces.get(i)?)),
        Key::BfdEnable => (Row::BfdEnable, Vec::new()),
        Key::BfdInterval => (bfd_interval(c.bfd_interval?), Vec::new()),
        Key::Wred(n) => wred(c.wred.iter().find(|w| w.name == *n)?),
        Key::ClassMap(t, n) => {
            class_map(c.class_maps.iter().find(|m| m.kind == *t && m.name == *n)?)
        }
        Key::TrustMap(t, n) => {
            trust_map(c.trust_maps.iter().find(|m| m.kind == *t && m.name == *n)?)
        }
        Key::QosMap(n) => qos_map(c.qos_maps.iter().find(|m| m.name == *n)?),
        Key::PolicyMap(t, n) => policy_map(
            c.policy_maps
                .iter()
                .find(|m| m.kind == *t && m.name == *n)?,
        ),
        Key::SystemQos => system_qos(c.system_qos.as_ref()?),
        Key::PortGroup(g) => {
            let pg = c.port_groups.get(g)?;
            let l = lines_of(pg.mode.as_deref().map(Row::PortMode));
            (Row::PortGroupBlock(*g), weave(l, &pg.extras))
        }
        Key::Vlt => vlt(c.vlt.as_ref()?),
        Key::Bgp => bgp(c.bgp.as_ref()?),
    })
}

/// `bfd interval …`.
fn bfd_interval(b: BfdInterval) -> Row<'static> {
    let role = if b.passive { "passive" } else { "active" };
    Row::BfdInterval {
        interval: b.interval,
        min_rx: b.min_rx,
        multiplier: b.multiplier,
        role,
    }
}

/// A `wred` profile: its colours' thresholds, then ECN.
fn wred(w: &Wred) -> Block<'_> {
    let mut l = lines_of(w.colors.iter().map(|(color, t)| Row::Color {
        color: color.word(),
        min: t.min,
        max: t.max,
        drop: t.drop,
    }));
    if w.ecn {
        l.push(Node::Line(Row::Ecn));
    }
    (Row::WredBlock(&w.name), weave(l, &w.extras))
}

/// A class-map and its `match` line.
fn class_map(m: &ClassMap) -> Block<'_> {
    let what = match m.kind {
        super::QosKind::NetworkQos => "qos-group",
        super::QosKind::Queuing => "queue",
    };
    let l = lines_of(m.matches.map(|values| Row::Match { what, values }));
    (
        Row::ClassMapBlock {
            kind: m.kind.word(),
            name: &m.name,
        },
        weave(l, &m.extras),
    )
}

/// A trust map and its entries, by qos-group.
fn trust_map(m: &TrustMap) -> Block<'_> {
    let l = lines_of(m.groups.iter().map(|(g, v)| Row::TrustEntry {
        group: *g,
        kind: m.kind.word(),
        values: *v,
    }));
    (
        Row::TrustMapBlock {
            kind: m.kind.word(),
            name: &m.name,
        },
        weave(l, &m.extras),
    )
}

/// A qos-map and its entries, by queue.
fn qos_map(m: &QosMap) -> Block<'_> {
    let l = lines_of(m.queues.iter().map(|(q, v)| Row::Queue {
        queue: *q,
        values: *v,
    }));
    (Row::QosMapBlock(&m.name), weave(l, &m.extras))
}

/// A policy-map and its classes.
fn policy_map(m: &PolicyMap) -> Block<'_> {
    let classes = m.classes.iter().map(policy_class).collect();
    (
        Row::PolicyMapBlock {
            kind: m.kind.word(),
            name: &m.name,
        },
        weave(classes, &m.extras),
    )
}

/// A policy-map's `class` sub-block.
fn policy_class(pc: &PolicyClass) -> Node<'_> {
    // Queuing lines, then network-qos lines (captures: `bandwidth percent` before
    // `random-detect`; `pause` before `pfc-cos`); `priority` UNCONFIRMED.
    let mut l = Vec::new();
    if let Some(b) = pc.bandwidth {
        l.push(Node::Line(Row::Bandwidth(b)));
    }
    if pc.pause {
        l.push(Node::Line(Row::Pause));
    }
    if let Some(r) = pc.pfc_cos {
        l.push(Node::Line(Row::PfcCos(r)));
    }
    if pc.priority {
        l.push(Node::Line(Row::Priority));
    }
    if let Some(w) = &pc.random_detect {
        l.push(Node::Line(Row::RandomDetect(w)));
    }
    Node::Sub {
        head: Row::ClassBlock(&pc.name),
        lines: weave(l, &pc.extras),
    }
}

/// `system qos`: its trust map, ETS and policies.
fn system_qos(s: &SystemQos) -> Block<'_> {
    let mut l = Vec::new();
    let mut push = |r| l.push(Node::Line(r));
    if let Some((k, n)) = &s.trust_map {
        push(Row::TrustMap {
            kind: k.word(),
            name: n,
        });
    }
    if s.ets {
        push(Row::Ets);
    }
    policies(&mut push, s.policy_in.as_deref(), s.policy_out.as_deref());
    (Row::SystemQosBlock, weave(l, &s.extras))
}

/// The `vlt-domain` block.
fn vlt(v: &Vlt) -> Block<'_> {
    // Alphabetical, as the TOR capture prints them.
    let mut l = Vec::new();
    if let Some(a) = v.backup {
        l.push(Row::Backup(a));
    }
    if !v.discovery.is_empty() {
        l.push(Row::Discovery(names::format_ports(&v.discovery)));
    }
    if v.peer_routing {
        l.push(Row::PeerRouting);
    }
    if let Some(p) = v.primary_priority {
        l.push(Row::PrimaryPriority(p));
    }
    if let Some(m) = v.vlt_mac {
        let b = m.0;
        // Lower-case hex (`vlt-mac de:ad:00:be:ef:01`, the TOR capture).
        l.push(Row::VltMac(format!(
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            b[0], b[1], b[2], b[3], b[4], b[5]
        )));
    }
    (Row::VltBlock(v.id), weave(lines_of(l), &v.extras))
}

/// The `router bgp` block.
fn bgp(b: &Bgp) -> Block<'_> {
    // The instance's own lines alphabetically, then the address family, templates and
    // neighbors, each in the order read (the TOR capture).
    let mut l = Vec::new();
    if b.multipath_relax {
        l.push(Node::Line(Row::MultipathRelax));
    }
    // UNCONFIRMED place: the reference guide's example prints it alone.
    if !b.fast_external_fallover {
        l.push(Node::Line(Row::NoFastExternalFallover));
    }
    if let Some(n) = b.max_paths_ebgp {
        l.push(Node::Line(Row::MaxPaths { kind: "ebgp", n }));
    }
    if let Some(n) = b.max_paths_ibgp {
        l.push(Node::Line(Row::MaxPaths { kind: "ibgp", n }));
    }
    if let Some(a) = b.router_id {
        l.push(Node::Line(Row::RouterId(a)));
    }
    if let Some(af) = &b.ipv4 {
        l.push(address_family(af));
    }
    for (name, p) in &b.templates {
        l.push(peer(Row::TemplateBlock(name), p));
    }
    for (addr, p) in &b.neighbors {
        l.push(peer(Row::NeighborBlock(*addr), p));
    }
    (Row::BgpBlock(b.asn), weave(l, &b.extras))
}

/// A loaded template set; build it once and render many configs with it.
pub struct Renderer {
    env: Environment<'static>,
}

impl Renderer {
    /// [`Renderer::embedded`], compiled once for the whole process
    /// ([`crate::types::templates::once`]).
    pub fn shared() -> Result<&'static Renderer, String> {
        static SHARED: std::sync::OnceLock<Result<Renderer, String>> = std::sync::OnceLock::new();
        crate::types::templates::once(&SHARED, Renderer::embedded)
    }

    /// The templates embedded in the binary.
    pub fn embedded() -> Result<Renderer, String> {
        let mut env = crate::types::templates::environment()?;
        for (name, source) in TEMPLATE_FILES {
            env.add_template(name, source)
                .map_err(|e| format!("template `{name}`: {e:#}"))?;
        }
        Ok(Renderer { env })
    }

    /// The running-configuration text of `config`.
    pub fn render(&self, config: &Config) -> Result<String, String> {
        check(config)?;
        let printed = config.printed();
        let mut rows: Vec<Row<'_>> = Vec::with_capacity(printed.len() * 8);
        for p in printed {
            match p {
                Printed::Text(t) => rows.push(Row::Text(t)),
                Printed::Item(k) => {
                    if let Some((head, lines)) = item(config, &k) {
                        rows.push(head);
                        flatten(&mut rows, 1, lines);
                    }
                }
            }
        }
        let ctx = minijinja::context! {
            header => Value::from(minijinja::value::Serde(&config.header)),
            rows => Value::from(minijinja::value::Serde(&rows)),
        };
        let mut text = self
            .env
            .get_template(MASTER)
            .and_then(|t| t.render(ctx))
            .map_err(|e| format!("rendering the OS10 configuration: {e:#}"))?;
        if !config.layout.final_newline && text.ends_with('\n') {
            text.pop();
        }
        Ok(text)
    }
}

/// Refuses text that would not print as one argument of one line: a newline or other control
/// character anywhere, a description that would not read back ([`describable`]), a space in a
/// name.
fn check(c: &Config) -> Result<(), String> {
    if let Some(h) = &c.hostname {
        word("hostname", h)?;
    }
    for map in c.breakouts.values() {
        word("breakout map", map)?;
    }
    check_interfaces(c)?;
    check_qos(c)?;
    for (g, pg) in &c.port_groups {
        let what = format!("`port-group {g}`");
        if let Some(m) = &pg.mode {
            word(&format!("the mode of {what}"), m)?;
        }
        extras(&what, &pg.extras)?;
    }
    if let Some(v) = &c.vlt {
        extras("`vlt-domain`", &v.extras)?;
    }
    if let Some(b) = &c.bgp {
        check_bgp(b)?;
    }
    for e in &c.layout.entries {
        if let super::Entry::Text(t) = e
            && t.chars().any(|c| c.is_control() && c != '\n')
        {
            return Err(format!(
                "verbatim text `{}` has a control character",
                t.escape_debug()
            ));
        }
    }
    Ok(())
}

/// Refuses a name `s` (of `what`) that is not one word.
fn word(what: &str, s: &str) -> Result<(), String> {
    if s.is_empty()
        || s.chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '"')
    {
        return Err(format!(
            "{what} `{}` must be one word, without spaces, quotes or control characters",
            s.escape_debug()
        ));
    }
    Ok(())
}

/// Refuses a description `s` (of `what`) that would not read back ([`describable`]).
fn text(what: &str, s: &str) -> Result<(), String> {
    if !describable(s) {
        return Err(format!(
            "{what} `{}` must be one line of text without control characters, a double quote only inside a word without spaces",
            s.escape_debug()
        ));
    }
    Ok(())
}

/// Refuses verbatim lines (of `what`) that are not indented text.
fn extras(what: &str, x: &Extras) -> Result<(), String> {
    for (_, t) in x {
        if t.chars().any(|c| c.is_control() && c != '\n') || t.lines().any(|l| !l.starts_with(' '))
        {
            return Err(format!(
                "verbatim line `{}` of {what} must be indented text",
                t.escape_debug()
            ));
        }
    }
    Ok(())
}

/// [`check`] of the interfaces: descriptions, the names they use, their verbatim lines.
fn check_interfaces(c: &Config) -> Result<(), String> {
    for (i, e) in &c.interfaces {
        // Checked first, each message written only for a config that fails.
        let what = || format!("`interface {i}`");
        if let Some(d) = &e.description
            && text("", d).is_err()
        {
            text(&format!("the description of {}", what()), d)?;
        }
        for n in [&e.policy_in, &e.policy_out, &e.qos_map]
            .into_iter()
            .flatten()
            .chain(e.trust_map.as_ref().map(|(_, n)| n))
        {
            if word("", n).is_err() {
                word(&format!("a name in {}", what()), n)?;
            }
        }
        if extras("", &e.extras).is_err() {
            extras(&what(), &e.extras)?;
        }
    }
    Ok(())
}

/// [`check`] of the QoS blocks: their names, the names they use, their verbatim lines.
fn check_qos(c: &Config) -> Result<(), String> {
    for w in &c.wred {
        word("a WRED profile", &w.name)?;
        extras("a WRED profile", &w.extras)?;
    }
    for m in &c.class_maps {
        word("a class-map", &m.name)?;
        extras("a class-map", &m.extras)?;
    }
    for m in &c.trust_maps {
        word("a trust map", &m.name)?;
        extras("a trust map", &m.extras)?;
    }
    for m in &c.qos_maps {
        word("a qos-map", &m.name)?;
        extras("a qos-map", &m.extras)?;
    }
    for m in &c.policy_maps {
        word("a policy-map", &m.name)?;
        extras("a policy-map", &m.extras)?;
        for pc in &m.classes {
            word("a policy-map class", &pc.name)?;
            if let Some(w) = &pc.random_detect {
                word("a WRED profile", w)?;
            }
            extras("a policy-map class", &pc.extras)?;
        }
    }
    if let Some(s) = &c.system_qos {
        for n in [&s.policy_in, &s.policy_out]
            .into_iter()
            .flatten()
            .chain(s.trust_map.as_ref().map(|(_, n)| n))
        {
            word("a name in `system qos`", n)?;
        }
        extras("`system qos`", &s.extras)?;
    }
    Ok(())
}

/// [`check`] of `router bgp`: template names, descriptions, verbatim lines.
fn check_bgp(b: &Bgp) -> Result<(), String> {
    extras("`router bgp`", &b.extras)?;
    let peers = b.templates.iter().map(|(n, p)| (Some(n), p));
    for (name, p) in peers.chain(b.neighbors.iter().map(|(_, p)| (None, p))) {
        if let Some(n) = name {
            word("a BGP template", n)?;
        }
        if let Some(d) = &p.description {
            text("a BGP neighbor's description", d)?;
        }
        if let Some(t) = &p.inherit {
            word("a BGP template", t)?;
        }
        extras("a BGP neighbor", &p.extras)?;
        if let Some(af) = &p.ipv4 {
            extras("a BGP address family", &af.extras)?;
        }
    }
    if let Some(af) = &b.ipv4 {
        extras("a BGP address family", &af.extras)?;
    }
    Ok(())
}
