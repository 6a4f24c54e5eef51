//! Canonical text of a [`Config`]: what `show running-configuration` prints.
//!
//! Rust decides (which items and lines are printed, in which order, where each verbatim line
//! goes back, whether a description needs quotes); the minijinja templates in
//! `templates/os10/` only format: one template per kind of block, `lines.j2` for the lines
//! inside blocks, and a master template that prints the header and every top-level item in
//! turn. Undefined variables are errors, never empty strings. A config built in code is checked
//! first: a name or description that could end the line and start another command is refused.

use std::net::Ipv4Addr;

use minijinja::{Environment, Value};
use serde::Serialize;

use super::names::{self, Eth, Ranges};
use super::{
    AddressFamily, Config, Extras, Interface, Key, LacpMode, Peer, Printed, SwitchportMode,
};
use crate::types::{Ipv4Net, Vlan};

/// The embedded templates, by file name. `running-configuration.j2` is the master.
pub const TEMPLATE_FILES: &[(&str, &str)] = &[
    (
        "running-configuration.j2",
        include_str!("../../templates/os10/running-configuration.j2"),
    ),
    ("lines.j2", include_str!("../../templates/os10/lines.j2")),
    ("qos.j2", include_str!("../../templates/os10/qos.j2")),
    ("bgp.j2", include_str!("../../templates/os10/bgp.j2")),
];

const MASTER: &str = "running-configuration.j2";

/// One top-level item to print.
#[derive(Serialize)]
#[serde(tag = "k", content = "v")]
enum Item<'a> {
    Text(&'a str),
    Hostname(&'a str),
    Dcbx,
    Breakout {
        port: Eth,
        map: &'a str,
    },
    /// Any block whose header is one line and whose lines are all leaves or texts.
    Block {
        head: String,
        lines: Vec<Line<'a>>,
    },
    PolicyMap {
        head: String,
        lines: Vec<Line<'a>>,
    },
    Bgp {
        asn: u32,
        lines: Vec<Line<'a>>,
    },
}

/// One line inside a block, or a sub-block with its lines.
#[derive(Serialize)]
#[serde(tag = "k", content = "v")]
enum Line<'a> {
    /// Kept verbatim, with its indentation and its own children.
    Text(&'a str),
    Description(String),
    Shutdown(bool),
    ChannelGroup {
        id: u16,
        mode: Option<&'static str>,
    },
    Routed,
    Mode(&'static str),
    AccessVlan(Vlan),
    TrunkAllowed(String),
    Mtu(u16),
    Address(Ipv4Net),
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
    TrustMap {
        kind: &'static str,
        name: &'a str,
    },
    VltPortChannel(u16),
    /// `mode Eth 25g-4x` of a port group.
    PortMode(&'a str),
    Color {
        color: &'static str,
        min: u32,
        max: u32,
        drop: u8,
    },
    Ecn,
    Match {
        what: &'static str,
        values: Ranges,
    },
    TrustEntry {
        group: u8,
        kind: &'static str,
        values: Ranges,
    },
    Queue {
        queue: u8,
        values: Ranges,
    },
    Bandwidth(u8),
    Pause,
    PfcCos(Ranges),
    Priority,
    RandomDetect(&'a str),
    Backup(Ipv4Addr),
    Discovery(String),
    PeerRouting,
    PrimaryPriority(u32),
    VltMac(String),
    MultipathRelax,
    MaxPaths {
        kind: &'static str,
        n: u16,
    },
    RouterId(Ipv4Addr),
    Network(Ipv4Net),
    Inherit(&'a str),
    RemoteAs(u32),
    /// A sub-block (`class NAME`, `address-family ipv4 unicast`, `template NAME`, `neighbor
    /// A`): OS10 prints a `!` line before it.
    Sub {
        head: String,
        lines: Vec<Line<'a>>,
    },
}

/// The modeled lines with the verbatim ones put back: each after as many modeled lines as it
/// followed when read.
fn weave<'a>(modeled: Vec<Line<'a>>, extras: &'a Extras) -> Vec<Line<'a>> {
    if extras.is_empty() {
        return modeled;
    }
    let mut out = Vec::with_capacity(modeled.len() + extras.len());
    let mut x = extras.iter().peekable();
    for (i, l) in modeled.into_iter().enumerate() {
        while let Some((_, t)) = x.next_if(|(k, _)| *k <= i) {
            out.push(Line::Text(t));
        }
        out.push(l);
    }
    out.extend(x.map(|(_, t)| Line::Text(t)));
    out
}

/// A description as OS10 prints it: in double quotes when it holds a space (the AzureStack
/// captures: `description "Unused Port"`, `description Loopback_Rack01/Tor1`).
fn described(d: &str) -> String {
    if d.contains(' ') {
        format!("\"{d}\"")
    } else {
        d.to_string()
    }
}

/// An interface's lines, in the order OS10 10.5 prints them (AzureStack TOR and BMC, 10.5.3.2:
/// description, shutdown, switchport, mtu, ip address, flowcontrol, priority-flow-control,
/// service-policy input, output, ets, qos-map; Cray 10.5.1.4: shutdown, channel-group,
/// no switchport, flowcontrol; 10.4.0E: switchport access vlan, vlt-port-channel). UNCONFIRMED
/// places (no capture): `flowcontrol transmit` after `receive`, `trust-map` after `qos-map`.
fn interface_lines(e: &Interface) -> Vec<Line<'_>> {
    let mut l = Vec::with_capacity(16);
    if let Some(d) = &e.description {
        l.push(Line::Description(described(d)));
    }
    if let Some(s) = e.shutdown {
        l.push(Line::Shutdown(s));
    }
    if let Some(g) = e.channel_group {
        let mode = match g.mode {
            LacpMode::On => None,
            LacpMode::Active => Some("active"),
            LacpMode::Passive => Some("passive"),
        };
        l.push(Line::ChannelGroup { id: g.id, mode });
    }
    if e.routed {
        l.push(Line::Routed);
    }
    if let Some(m) = e.mode {
        l.push(Line::Mode(match m {
            SwitchportMode::Access => "access",
            SwitchportMode::Trunk => "trunk",
        }));
    }
    if let Some(v) = e.access_vlan {
        l.push(Line::AccessVlan(v));
    }
    if let Some(v) = &e.trunk_allowed {
        l.push(Line::TrunkAllowed(names::format_vlans(v)));
    }
    if let Some(m) = e.mtu {
        l.push(Line::Mtu(m));
    }
    if let Some(a) = e.address {
        l.push(Line::Address(a));
    }
    if let Some(on) = e.flowcontrol_rx {
        l.push(Line::Flowcontrol { dir: "receive", on });
    }
    if let Some(on) = e.flowcontrol_tx {
        l.push(Line::Flowcontrol {
            dir: "transmit",
            on,
        });
    }
    if e.pfc {
        l.push(Line::Pfc);
    }
    policies(&mut l, e.policy_in.as_deref(), e.policy_out.as_deref());
    if e.ets {
        l.push(Line::Ets);
    }
    if let Some(q) = &e.qos_map {
        l.push(Line::QosMap(q));
    }
    if let Some((k, n)) = &e.trust_map {
        l.push(Line::TrustMap {
            kind: k.word(),
            name: n,
        });
    }
    if let Some(n) = e.vlt_port_channel {
        l.push(Line::VltPortChannel(n));
    }
    weave(l, &e.extras)
}

fn policies<'a>(l: &mut Vec<Line<'a>>, input: Option<&'a str>, output: Option<&'a str>) {
    if let Some(name) = input {
        l.push(Line::Policy {
            dir: "input",
            kind: "network-qos",
            name,
        });
    }
    if let Some(name) = output {
        l.push(Line::Policy {
            dir: "output",
            kind: "queuing",
            name,
        });
    }
}

fn address_family<'a>(af: &'a AddressFamily) -> Line<'a> {
    let nets = af.networks.iter().map(|n| Line::Network(*n)).collect();
    Line::Sub {
        head: "address-family ipv4 unicast".to_string(),
        lines: weave(nets, &af.extras),
    }
}

/// A neighbor's or template's lines: alphabetical by command, as OS10 prints BGP (captures);
/// `remote-as` beside `inherit template` UNCONFIRMED (no capture has both).
fn peer<'a>(head: String, p: &'a Peer) -> Line<'a> {
    let mut l = Vec::new();
    if let Some(d) = &p.description {
        // Quoted as interface descriptions are: UNCONFIRMED (the captures' have no space).
        l.push(Line::Description(described(d)));
    }
    if let Some(t) = &p.inherit {
        l.push(Line::Inherit(t));
    }
    if let Some(n) = p.remote_as {
        l.push(Line::RemoteAs(n));
    }
    if let Some(s) = p.shutdown {
        l.push(Line::Shutdown(s));
    }
    if let Some(af) = &p.ipv4 {
        l.push(address_family(af));
    }
    Line::Sub {
        head,
        lines: weave(l, &p.extras),
    }
}

fn item<'a>(c: &'a Config, k: &Key) -> Option<Item<'a>> {
    Some(match k {
        Key::Dcbx => Item::Dcbx,
        Key::Hostname => Item::Hostname(c.hostname.as_deref()?),
        Key::Breakout(e) => Item::Breakout {
            port: *e,
            map: c.breakouts.get(e)?,
        },
        Key::Interface(i) => Item::Block {
            head: format!("interface {i}"),
            lines: interface_lines(c.interfaces.get(i)?),
        },
        Key::Wred(n) => {
            let w = c.wred.iter().find(|w| w.name == *n)?;
            let mut l: Vec<Line<'_>> = w
                .colors
                .iter()
                .map(|(color, t)| Line::Color {
                    color: color.word(),
                    min: t.min,
                    max: t.max,
                    drop: t.drop,
                })
                .collect();
            if w.ecn {
                l.push(Line::Ecn);
            }
            Item::Block {
                head: format!("wred {n}"),
                lines: weave(l, &w.extras),
            }
        }
        Key::ClassMap(t, n) => {
            let m = c.class_maps.iter().find(|m| m.kind == *t && m.name == *n)?;
            let what = match t {
                super::QosKind::NetworkQos => "qos-group",
                super::QosKind::Queuing => "queue",
            };
            let l = m
                .matches
                .map(|values| Line::Match { what, values })
                .into_iter()
                .collect();
            Item::Block {
                head: format!("class-map type {} {n}", t.word()),
                lines: weave(l, &m.extras),
            }
        }
        Key::TrustMap(t, n) => {
            let m = c.trust_maps.iter().find(|m| m.kind == *t && m.name == *n)?;
            let l = m
                .groups
                .iter()
                .map(|(g, v)| Line::TrustEntry {
                    group: *g,
                    kind: t.word(),
                    values: *v,
                })
                .collect();
            Item::Block {
                head: format!("trust {}-map {n}", t.word()),
                lines: weave(l, &m.extras),
            }
        }
        Key::QosMap(n) => {
            let m = c.qos_maps.iter().find(|m| m.name == *n)?;
            let l = m
                .queues
                .iter()
                .map(|(q, v)| Line::Queue {
                    queue: *q,
                    values: *v,
                })
                .collect();
            Item::Block {
                head: format!("qos-map traffic-class {n}"),
                lines: weave(l, &m.extras),
            }
        }
        Key::PolicyMap(t, n) => {
            let m = c
                .policy_maps
                .iter()
                .find(|m| m.kind == *t && m.name == *n)?;
            let classes = m
                .classes
                .iter()
                .map(|pc| {
                    // Queuing lines, then network-qos lines (captures: `bandwidth percent`
                    // before `random-detect`; `pause` before `pfc-cos`); `priority`
                    // UNCONFIRMED.
                    let mut l = Vec::new();
                    if let Some(b) = pc.bandwidth {
                        l.push(Line::Bandwidth(b));
                    }
                    if pc.pause {
                        l.push(Line::Pause);
                    }
                    if let Some(r) = pc.pfc_cos {
                        l.push(Line::PfcCos(r));
                    }
                    if pc.priority {
                        l.push(Line::Priority);
                    }
                    if let Some(w) = &pc.random_detect {
                        l.push(Line::RandomDetect(w));
                    }
                    Line::Sub {
                        head: format!("class {}", pc.name),
                        lines: weave(l, &pc.extras),
                    }
                })
                .collect();
            Item::PolicyMap {
                head: format!("policy-map type {} {n}", t.word()),
                lines: weave(classes, &m.extras),
            }
        }
        Key::SystemQos => {
            let s = c.system_qos.as_ref()?;
            let mut l = Vec::new();
            if let Some((k, n)) = &s.trust_map {
                l.push(Line::TrustMap {
                    kind: k.word(),
                    name: n,
                });
            }
            if s.ets {
                l.push(Line::Ets);
            }
            policies(&mut l, s.policy_in.as_deref(), s.policy_out.as_deref());
            Item::Block {
                head: "system qos".to_string(),
                lines: weave(l, &s.extras),
            }
        }
        Key::PortGroup(g) => {
            let pg = c.port_groups.get(g)?;
            let l = pg.mode.as_deref().map(Line::PortMode).into_iter().collect();
            Item::Block {
                head: format!("port-group {g}"),
                lines: weave(l, &pg.extras),
            }
        }
        Key::Vlt => {
            // Alphabetical, as the TOR capture prints them.
            let v = c.vlt.as_ref()?;
            let mut l = Vec::new();
            if let Some(a) = v.backup {
                l.push(Line::Backup(a));
            }
            if !v.discovery.is_empty() {
                l.push(Line::Discovery(names::format_ports(&v.discovery)));
            }
            if v.peer_routing {
                l.push(Line::PeerRouting);
            }
            if let Some(p) = v.primary_priority {
                l.push(Line::PrimaryPriority(p));
            }
            if let Some(m) = v.vlt_mac {
                let b = m.0;
                // Lower-case hex (`vlt-mac de:ad:00:be:ef:01`, the TOR capture).
                l.push(Line::VltMac(format!(
                    "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
                    b[0], b[1], b[2], b[3], b[4], b[5]
                )));
            }
            Item::Block {
                head: format!("vlt-domain {}", v.id),
                lines: weave(l, &v.extras),
            }
        }
        Key::Bgp => {
            // The instance's own lines alphabetically, then the address family, templates and
            // neighbors, each in the order read (the TOR capture).
            let b = c.bgp.as_ref()?;
            let mut l = Vec::new();
            if b.multipath_relax {
                l.push(Line::MultipathRelax);
            }
            if let Some(n) = b.max_paths_ebgp {
                l.push(Line::MaxPaths { kind: "ebgp", n });
            }
            if let Some(n) = b.max_paths_ibgp {
                l.push(Line::MaxPaths { kind: "ibgp", n });
            }
            if let Some(a) = b.router_id {
                l.push(Line::RouterId(a));
            }
            if let Some(af) = &b.ipv4 {
                l.push(address_family(af));
            }
            for (name, p) in &b.templates {
                l.push(peer(format!("template {name}"), p));
            }
            for (addr, p) in &b.neighbors {
                l.push(peer(format!("neighbor {addr}"), p));
            }
            Item::Bgp {
                asn: b.asn,
                lines: weave(l, &b.extras),
            }
        }
    })
}

/// A loaded template set; build it once and render many configs with it.
pub struct Renderer {
    env: Environment<'static>,
}

impl Renderer {
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
        let items: Vec<Item<'_>> = config
            .printed()
            .into_iter()
            .filter_map(|p| match p {
                Printed::Text(t) => Some(Item::Text(t)),
                Printed::Item(k) => item(config, &k),
            })
            .collect();
        let ctx = minijinja::context! {
            header => Value::from(minijinja::value::Serde(&config.header)),
            items => Value::from(minijinja::value::Serde(&items)),
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
/// character anywhere, a double quote in a description, a space in a name.
fn check(c: &Config) -> Result<(), String> {
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
    fn text(what: &str, s: &str) -> Result<(), String> {
        if s.is_empty() || s.trim() != s || s.chars().any(|c| c.is_control() || c == '"') {
            return Err(format!(
                "{what} `{}` must be one line of text, without quotes or control characters",
                s.escape_debug()
            ));
        }
        Ok(())
    }
    fn extras(what: &str, x: &Extras) -> Result<(), String> {
        for (_, t) in x {
            if t.chars().any(|c| c.is_control() && c != '\n')
                || t.lines().any(|l| !l.starts_with(' '))
            {
                return Err(format!(
                    "verbatim line `{}` of {what} must be indented text",
                    t.escape_debug()
                ));
            }
        }
        Ok(())
    }
    if let Some(h) = &c.hostname {
        word("hostname", h)?;
    }
    for map in c.breakouts.values() {
        word("breakout map", map)?;
    }
    for (i, e) in &c.interfaces {
        let what = format!("`interface {i}`");
        if let Some(d) = &e.description {
            text(&format!("the description of {what}"), d)?;
        }
        for n in [&e.policy_in, &e.policy_out, &e.qos_map]
            .into_iter()
            .flatten()
            .chain(e.trust_map.as_ref().map(|(_, n)| n))
        {
            word(&format!("a name in {what}"), n)?;
        }
        extras(&what, &e.extras)?;
    }
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
