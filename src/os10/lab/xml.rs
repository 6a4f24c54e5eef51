//! `show … | display-xml`: the XML documents OS10 prints instead of a command's text, for the
//! commands whose documents are captured: `show version`, `show system` (dellemc.os10's
//! fixtures, 10.4.0E(R1)), `show inventory` (napalm-dellos10's fixture), `show interface` (both
//! collections': one document per interface) and `show lldp neighbors` (both). Any other
//! command is refused with [`Unconfirmed::XmlUnknown`], never answered in a shape no capture
//! shows.
//!
//! Each document holds the lab switch's own state, in the captured elements' order, two spaces
//! per level: its hostname, release, model and clock; its ports with their configuration
//! (description, MTU, shutdown, switchport mode, VLAN, address, flow control, PFC, ETS), their
//! link from the network around the switch, and the LLDP neighbors its cabling gives them. An
//! element the lab has no value for (interface indexes, counters of errors it cannot have,
//! IPv6, FC, transceivers' lasers, part numbers) is left out, as are loopback interfaces (no
//! capture of their document); the lab passes no traffic, so its counters are 0. The figures
//! no capture gives are in the [`Unconfirmed`] table.

use std::fmt::Display;
use std::fmt::Write as _;

use base64::Engine as _;

use super::net::port_of;
use super::system::{self, Clock};
use super::{Os10Switch, Unconfirmed};
use crate::lab::network::{Net, World};
use crate::os10::{self, Eth, Iface, LacpMode};
use crate::types::Mac;

/// The declaration of every document but `show interface`'s (captured).
const DECL_UTF8: &str = r#"<?xml version="1.0" encoding="UTF-8"?>"#;
/// `show interface`'s, before each of its documents (captured).
const DECL: &str = r#"<?xml version="1.0"?>"#;

/// The document of `show WORDS… | display-xml`; `None`: a command the lab has no document for.
pub fn show(sw: &Os10Switch, words: &[&str], world: Option<&World>) -> Option<String> {
    super::state::in_world(sw, world, |world| {
        Some(match words {
            ["version"] => version(sw),
            ["system"] => node(sw, true),
            ["inventory"] => node(sw, false),
            ["interface"] => interfaces(sw, &world.net()),
            ["lldp", "neighbors"] => lldp(sw, &world.net()),
            _ => return None,
        })
    })
}

/// Whether `show WORDS…`'s document reads the network around the switch.
pub fn reads_network(words: &[&str]) -> bool {
    matches!(words, ["interface"] | ["lldp", "neighbors"])
}

/// One document being written.
struct Doc {
    out: String,
    depth: usize,
}

impl Doc {
    fn new(declaration: &str) -> Doc {
        let mut d = Doc {
            out: format!("{declaration}\n"),
            depth: 0,
        };
        d.open("rpc-reply");
        d
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    fn open(&mut self, tag: &str) {
        self.indent();
        let _ = writeln!(self.out, "<{tag}>");
        self.depth += 1;
    }

    fn close(&mut self, tag: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.indent();
        let _ = writeln!(self.out, "</{tag}>");
    }

    /// `<tag>value</tag>`, `<tag/>` when the value is empty (captured: `<service-tag/>`).
    fn leaf(&mut self, tag: &str, value: impl Display) {
        let value = escape(&value.to_string());
        self.indent();
        if value.is_empty() {
            let _ = writeln!(self.out, "<{tag}/>");
        } else {
            let _ = writeln!(self.out, "<{tag}>{value}</{tag}>");
        }
    }

    fn empty(&mut self, tag: &str) {
        self.leaf(tag, "");
    }

    fn finish(mut self) -> String {
        self.close("rpc-reply");
        self.out
    }
}

/// Text as XML element content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn on(b: bool) -> &'static str {
    if b { "true" } else { "false" }
}

fn up(b: bool) -> &'static str {
    if b { "up" } else { "down" }
}

/// `system-state`: the hostname and clock (`full`), or the uptime alone (as each `show
/// interface` document has it).
fn status(doc: &mut Doc, sw: &Os10Switch, clock: &Clock, full: bool) {
    doc.open("system-state");
    doc.open("system-status");
    if full {
        doc.leaf("hostname", sw.hostname());
    }
    doc.leaf("uptime", clock.up.as_secs());
    if full {
        doc.leaf("date-time", clock.now_stamp());
        doc.leaf("boot-datetime", clock.boot_stamp());
    }
    doc.close("system-status");
    doc.close("system-state");
}

/// `show version | display-xml`: the software's name, release, build and platform as `show
/// version` prints them, and the switch's hostname and clock.
fn version(sw: &Os10Switch) -> String {
    use super::show::{BUILD, BUILD_TIME, COPYRIGHT, SW_NAME};
    let clock = Clock::of(sw);
    let mut doc = Doc::new(DECL_UTF8);
    doc.open("data");
    status(&mut doc, sw, &clock, true);
    doc.open("system-sw-state");
    doc.open("sw-version");
    doc.leaf("sw-version", &sw.release);
    doc.leaf("sw-name", "Enterprise");
    doc.leaf("sw-name-long", SW_NAME);
    doc.leaf("sw-platform", sw.model.name);
    doc.leaf(
        "sw-platform-long",
        "Dell EMC OS10 Enterprise Edition Blueprint 1.0.0",
    );
    doc.leaf("cpu-arch", "x86_64");
    doc.leaf("sw-build-date", BUILD_TIME);
    doc.leaf("sw-build-version", format!("{}.{BUILD}", sw.release));
    doc.leaf("copyright", COPYRIGHT);
    doc.close("sw-version");
    doc.close("system-sw-state");
    doc.close("data");
    doc.finish()
}

/// `mfg-info`: the maker's facts of the node or its unit; no service tag (the captured switch
/// has none).
fn mfg_info(doc: &mut Doc, sw: &Os10Switch) {
    doc.open("mfg-info");
    doc.leaf("vendor-name", "DELL");
    doc.leaf("product-name", sw.model.name);
    doc.leaf("hw-version", Unconfirmed::HwVersion.text());
    doc.leaf("platform-name", system::platform_name(sw.model));
    doc.empty("service-tag");
    doc.empty("service-code");
    doc.close("mfg-info");
}

/// A fan, running.
fn fan(doc: &mut Doc) {
    doc.open("fan-info");
    doc.leaf("fan-id", 1);
    doc.leaf("fan-status", "up");
    doc.leaf("fan-speed-rpm", Unconfirmed::FanRpm.text());
    doc.close("fan-info");
}

/// `show system | display-xml` (`state`: with the hostname and clock after the node) and
/// `show inventory | display-xml` (the node alone, napalm-dellos10's fixture): the node, its
/// unit with its firmware, its power supplies and fan trays, all up.
fn node(sw: &Os10Switch, state: bool) -> String {
    let mut doc = Doc::new(DECL_UTF8);
    doc.open("data");
    doc.open("system");
    doc.open("node");
    doc.leaf("node-id", 1);
    doc.leaf("node-mac", system::mac_text(system::node_mac(sw)));
    doc.leaf("number-of-mac-addresses", Unconfirmed::MacCount.text());
    mfg_info(&mut doc, sw);
    doc.open("unit");
    doc.leaf("unit-id", 1);
    doc.leaf("current-unit-model", system::unit_model(sw.model));
    doc.leaf("provisioned-unit-model", system::unit_model(sw.model));
    doc.leaf("unit-state", "up");
    doc.leaf("software-version", &sw.release);
    doc.leaf("port-info", system::port_info(sw.model));
    mfg_info(&mut doc, sw);
    doc.leaf("down-reason", "user-triggered");
    doc.leaf("system-identifier-id", 1);
    for (name, version) in system::firmware() {
        doc.open("firmware");
        doc.leaf("firmware-name", name);
        doc.leaf("firmware-version", version);
        doc.close("firmware");
    }
    doc.close("unit");
    let (psus, trays) = system::cooling();
    for id in 1..=psus {
        doc.open("power-supply");
        doc.leaf("psu-id", id);
        doc.leaf("status", "up");
        doc.leaf("power-type", Unconfirmed::PowerType.text());
        fan(&mut doc);
        doc.leaf("air-flow", Unconfirmed::AirFlow.text());
        doc.close("power-supply");
    }
    for id in 1..=trays {
        doc.open("fan-tray");
        doc.leaf("fan-tray-id", id);
        doc.leaf("status", "up");
        fan(&mut doc);
        doc.leaf("air-flow", Unconfirmed::AirFlow.text());
        doc.close("fan-tray");
    }
    doc.close("node");
    doc.close("system");
    if state {
        status(&mut doc, sw, &Clock::of(sw), true);
    }
    doc.close("data");
    doc.finish()
}

/// What kind of interface a row is, with what the document says of its kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ethernet,
    Mgmt,
    Vlan,
    Lag,
    Null,
}

impl Kind {
    /// Its `type` (captured for each).
    fn type_name(self) -> &'static str {
        match self {
            Kind::Ethernet => "ianaift:ethernetCsmacd",
            Kind::Mgmt => "base-if:management",
            Kind::Vlan => "ianaift:l2vlan",
            Kind::Lag => "ianaift:ieee8023adLag",
            Kind::Null => "base-if:null",
        }
    }
}

/// An interface of the switch as its documents report it.
struct Row<'a> {
    name: String,
    kind: Kind,
    conf: Option<&'a os10::Interface>,
    /// Its link as the network has it.
    up: bool,
    /// Its speed in Gb/s while up.
    speed: u64,
    mac: Mac,
}

impl Row<'_> {
    fn enabled(&self) -> bool {
        self.conf.and_then(|c| c.shutdown) != Some(true)
    }

    /// Its MTU: configured, else the default (captured: 1532, the management port's 1500).
    fn mtu(&self) -> u16 {
        let default = if self.kind == Kind::Mgmt { 1500 } else { 1532 };
        self.conf.and_then(|c| c.mtu).unwrap_or(default)
    }

    fn description(&self) -> Option<&str> {
        self.conf.and_then(|c| c.description.as_deref())
    }

    /// A bridged port's VLAN without a tag: its access VLAN, VLAN 1 by default; `None` for a
    /// routed port or a port-channel's member.
    fn untagged(&self) -> Option<u16> {
        let c = self.conf?;
        if c.routed || c.channel_group.is_some() {
            return None;
        }
        Some(c.access_vlan.map_or(1, |v| v.get()))
    }
}

/// `mac` plus `n` in its last three bytes.
fn mac_plus(mac: Mac, n: u32) -> Mac {
    let [a, b, c, d, e, f] = mac.0;
    let low = (u32::from_be_bytes([0, d, e, f]) + n) & 0x00ff_ffff;
    let [_, d, e, f] = low.to_be_bytes();
    Mac([a, b, c, d, e, f])
}

/// The switch's interfaces in the captured order: its front-panel ports, its management
/// port, VLANs, port-channels, then `null0`. A port's MAC is the node's plus its number, a
/// VLAN's the node's plus 0x101 (captured: `…:ae:00` and `…:af:01`), the others the node's
/// (UNCONFIRMED). A port-channel's speed is its members' up; a VLAN's, while up, 10 Gb/s and
/// the management port's 1 Gb/s (both captured).
fn rows<'a>(sw: &'a Os10Switch, net: &Net<'_>) -> Vec<Row<'a>> {
    use crate::onyx::Iface as N;
    let node = system::node_mac(sw);
    let running = &sw.running;
    let ports = super::state::ports(sw);
    let mut rows: Vec<Row> = ports
        .iter()
        .map(|&(eth, speed)| Row {
            name: Iface::Ethernet(eth).to_string(),
            kind: Kind::Ethernet,
            conf: running.interfaces.get(&Iface::Ethernet(eth)),
            up: net.port_up(net.me, port_of(eth)),
            speed: u64::from(speed),
            mac: mac_plus(node, u32::from(eth.port)),
        })
        .collect();
    let member_speed = |n: u16| -> u64 {
        ports
            .iter()
            .filter(|(e, _)| {
                running
                    .interfaces
                    .get(&Iface::Ethernet(*e))
                    .and_then(|i| i.channel_group)
                    .is_some_and(|g| g.id == n)
                    && net.port_up(net.me, port_of(*e))
            })
            .map(|(_, s)| u64::from(*s))
            .sum()
    };
    let order = |i: &Iface| match i {
        Iface::Mgmt(..) => 0,
        Iface::Vlan(_) => 1,
        Iface::PortChannel(_) => 2,
        _ => 3,
    };
    let mut others: Vec<(&Iface, &os10::Interface)> = running
        .interfaces
        .iter()
        .filter(|(i, _)| matches!(i, Iface::Mgmt(..) | Iface::Vlan(_) | Iface::PortChannel(_)))
        .collect();
    others.sort_by_key(|(i, _)| order(i));
    for (i, c) in others {
        let (kind, up, speed, mac) = match *i {
            Iface::Mgmt(..) => (Kind::Mgmt, c.shutdown != Some(true), 1, node),
            Iface::Vlan(v) => (
                Kind::Vlan,
                net.iface_up(net.me, N::Vlan(v)),
                10,
                mac_plus(node, 0x101),
            ),
            Iface::PortChannel(n) => {
                let i = if c.vlt_port_channel.is_some() {
                    N::MlagPortChannel(n)
                } else {
                    N::PortChannel(n)
                };
                (Kind::Lag, net.iface_up(net.me, i), member_speed(n), node)
            }
            _ => continue,
        };
        rows.push(Row {
            name: i.to_string(),
            kind,
            conf: Some(c),
            up,
            speed,
            mac,
        });
    }
    rows.push(Row {
        name: "null0".to_string(),
        kind: Kind::Null,
        conf: None,
        up: true,
        speed: 0,
        mac: node,
    });
    rows
}

/// `ports-state`: each front-panel port's medium, present when a cable is in it (to a switch,
/// or to a host whose link is up).
fn ports_state(sw: &Os10Switch, net: &Net<'_>) -> String {
    let mut doc = Doc {
        out: String::new(),
        depth: 2,
    };
    doc.open("ports");
    doc.open("ports-state");
    for n in 1..=sw.model.port_count() {
        let eth = Eth::new(n);
        let p = port_of(eth);
        let present = net.cabling.far(net.me, p).is_some() || net.port_up(net.me, p);
        doc.open("port");
        doc.leaf(
            "name",
            format!("phy-eth{}", eth.to_string().trim_start_matches("ethernet")),
        );
        if present {
            doc.leaf("media-type", Unconfirmed::MediaType.text());
        } else {
            doc.leaf("media-type", "AR_POPTICS_NOTPRESENT");
        }
        doc.leaf("present", on(present));
        doc.close("port");
    }
    doc.close("ports-state");
    doc.close("ports");
    doc.out
}

/// `show interface | display-xml`: a document per interface (its configuration, then its
/// state under `bulk`), and a last one with neither, as captured.
fn interfaces(sw: &Os10Switch, net: &Net<'_>) -> String {
    let clock = Clock::of(sw);
    let ports = ports_state(sw, net);
    let all = rows(sw, net);
    let mut out = String::new();
    for row in &all {
        let mut doc = Doc::new(DECL);
        doc.open("data");
        backptr(&mut doc, row);
        doc.open("interfaces");
        config(&mut doc, row, &all);
        doc.close("interfaces");
        arp(&mut doc);
        doc.out.push_str(&ports);
        status(&mut doc, sw, &clock, false);
        doc.close("data");
        doc.open("bulk");
        doc.open("data");
        state(&mut doc, row, &all);
        doc.close("data");
        doc.open("last-keys");
        doc.leaf("name", &row.name);
        doc.close("last-keys");
        doc.close("bulk");
        out.push_str(&doc.finish());
    }
    let mut last = Doc::new(DECL);
    last.open("data");
    arp(&mut last);
    last.out.push_str(&ports);
    status(&mut last, sw, &clock, false);
    last.close("data");
    last.open("bulk");
    last.empty("data");
    last.close("bulk");
    out.push_str(&last.finish());
    out
}

fn arp(doc: &mut Doc) {
    doc.open("ip-config");
    doc.open("ipv4");
    doc.open("arp");
    doc.leaf("timeout", 60);
    doc.close("arp");
    doc.close("ipv4");
    doc.close("ip-config");
}

/// `cms-interface-backptr`: a port's or port-channel's VLAN without a tag, a routed port's
/// name alone (captured), nothing for the others.
fn backptr(doc: &mut Doc, row: &Row) {
    if !matches!(row.kind, Kind::Ethernet | Kind::Lag) || row.conf.is_none() {
        doc.empty("cms-interface-backptr");
        return;
    }
    doc.open("cms-interface-backptr");
    doc.open("interface-in-running");
    doc.leaf("name", &row.name);
    if let Some(v) = row.untagged() {
        doc.leaf("untagged-vlan", format!("vlan{v}"));
    }
    doc.close("interface-in-running");
    doc.close("cms-interface-backptr");
}

/// The ports and port-channels a VLAN has without a tag.
fn untagged_ports<'a>(vlan: &str, all: &'a [Row]) -> impl Iterator<Item = &'a str> {
    let vid: Option<u16> = vlan.strip_prefix("vlan").and_then(|v| v.parse().ok());
    all.iter()
        .filter(move |r| {
            matches!(r.kind, Kind::Ethernet | Kind::Lag) && vid.is_some() && r.untagged() == vid
        })
        .map(|r| r.name.as_str())
}

/// A VLAN's ports and its VLT flag, in its configuration and its state alike.
fn vlan_members(doc: &mut Doc, row: &Row, all: &[Row]) {
    doc.leaf("vlan-type", "DATA");
    for p in untagged_ports(&row.name, all) {
        doc.leaf("untagged-ports", p);
    }
    doc.leaf("vlt-control", "false");
}

/// How a port-channel's members join it: `STATIC` (`mode on`, captured) or `LACP`
/// (UNCONFIRMED).
fn lag_mode(row: &Row, all: &[Row]) -> &'static str {
    let n: Option<u16> = row
        .name
        .strip_prefix("port-channel")
        .and_then(|n| n.parse().ok());
    let lacp = all.iter().any(|r| {
        r.conf
            .and_then(|c| c.channel_group)
            .is_some_and(|g| Some(g.id) == n && g.mode != LacpMode::On)
    });
    if lacp { "LACP" } else { "STATIC" }
}

/// An interface's configuration (`interfaces/interface`), in the captured order of its kind.
fn config(doc: &mut Doc, row: &Row, all: &[Row]) {
    doc.open("interface");
    doc.leaf("name", &row.name);
    if let Some(d) = row.description() {
        doc.leaf("description", d);
    }
    doc.leaf("type", row.kind.type_name());
    doc.leaf("enabled", on(row.enabled()));
    doc.leaf("mtu", row.mtu());
    doc.leaf("mac-learn", "HW");
    let routed = row.conf.is_some_and(|c| c.routed);
    if matches!(row.kind, Kind::Ethernet | Kind::Lag) {
        doc.leaf("mode", if routed { "MODE_L2DISABLED" } else { "MODE_L2" });
        doc.leaf("load-interval", 299);
    }
    match row.kind {
        Kind::Ethernet | Kind::Mgmt => {
            doc.leaf("duplex", "auto");
            doc.leaf("speed", "AUTO");
            doc.leaf("keepalive", "true");
        }
        Kind::Vlan => vlan_members(doc, row, all),
        Kind::Lag => {
            doc.leaf("min-links", 1);
            doc.leaf("lag-mode", lag_mode(row, all));
            doc.leaf("vlti-lag", "false");
            if let Some(id) = row.conf.and_then(|c| c.vlt_port_channel) {
                doc.open("vlt");
                doc.leaf("vlt-id", id);
                doc.close("vlt");
            }
        }
        Kind::Null => {}
    }
    if let Some(a) = row.conf.and_then(|c| c.address) {
        doc.open("ipv4");
        doc.open("address");
        doc.leaf("primary-addr", a);
        doc.close("address");
        doc.close("ipv4");
    }
    if row.kind == Kind::Ethernet {
        doc.open("lldp-med-cfg");
        doc.leaf("med-enable", "true");
        doc.leaf("notif-enable", "false");
        doc.close("lldp-med-cfg");
    }
    if matches!(row.kind, Kind::Ethernet | Kind::Mgmt) {
        doc.open("lldp");
        doc.leaf("tx-enable", "true");
        doc.leaf("rx-enable", "true");
        doc.close("lldp");
    }
    doc.close("interface");
}

/// The first elements of an interface's state, `show interface`'s and `show lldp
/// neighbors`' alike: its name, kind, states, MAC and speed in b/s (0 while down).
fn state_head(doc: &mut Doc, row: &Row) {
    doc.leaf("name", &row.name);
    doc.leaf("type", row.kind.type_name());
    doc.leaf("admin-status", up(row.enabled()));
    doc.leaf("oper-status", up(row.up && row.enabled()));
    if row.kind == Kind::Null {
        return;
    }
    doc.leaf("phys-address", system::mac_text(row.mac));
    let bps = if row.up && row.enabled() {
        row.speed * 1_000_000_000
    } else {
        0
    };
    doc.leaf("speed", bps);
}

/// The counters napalm-dellos10 reads, first of the captured `statistics`: all 0.
const COUNTERS: &[&str] = &[
    "in-octets",
    "in-unicast-pkts",
    "in-broadcast-pkts",
    "in-multicast-pkts",
    "in-discards",
    "in-errors",
    "in-unknown-protos",
    "out-octets",
    "out-unicast-pkts",
    "out-broadcast-pkts",
    "out-multicast-pkts",
    "out-discards",
    "out-errors",
];

/// An interface's state (`bulk/data/interface`), in the captured order.
fn state(doc: &mut Doc, row: &Row, all: &[Row]) {
    doc.open("interface");
    state_head(doc, row);
    if row.kind != Kind::Null {
        doc.open("statistics");
        for c in COUNTERS {
            doc.leaf(c, 0);
        }
        doc.close("statistics");
        if let Some(d) = row.description() {
            doc.leaf("description", d);
        }
        doc.leaf("current-phys-address", system::mac_text(row.mac));
        if row.kind != Kind::Vlan {
            doc.leaf("load-interval", 30);
        }
        doc.leaf("mtu", row.mtu());
    }
    match row.kind {
        Kind::Vlan => vlan_members(doc, row, all),
        Kind::Lag => {
            doc.leaf("min-links", 1);
            doc.leaf("lag-mode", lag_mode(row, all));
            let n = row.name.trim_start_matches("port-channel");
            let up = all
                .iter()
                .filter(|r| {
                    r.up && r
                        .conf
                        .and_then(|c| c.channel_group)
                        .is_some_and(|g| g.id.to_string() == n)
                })
                .count();
            doc.leaf("num-ports-up", up);
        }
        Kind::Ethernet => qos(doc, row),
        _ => {}
    }
    match row.conf.and_then(|c| c.address) {
        Some(a) => {
            doc.open("ipv4-info");
            doc.leaf("assignment-mode", "manual-cfg");
            doc.leaf("addr", a);
            doc.close("ipv4-info");
        }
        None => doc.empty("ipv4-info"),
    }
    doc.close("interface");
}

/// A port's flow control, PFC and ETS (`qos-if-params`, its first four captured elements).
fn qos(doc: &mut Doc, row: &Row) {
    let c = row.conf;
    doc.open("qos-if-params");
    doc.leaf(
        "flow-control-rx",
        on(c.and_then(|c| c.flowcontrol_rx).unwrap_or(false)),
    );
    doc.leaf(
        "flow-control-tx",
        on(c.and_then(|c| c.flowcontrol_tx).unwrap_or(false)),
    );
    doc.leaf("pfc-mode", on(c.is_some_and(|c| c.pfc)));
    doc.leaf("ets-mode", on(c.is_some_and(|c| c.ets)));
    doc.close("qos-if-params");
}

/// Bytes as the captured documents print an LLDP identifier: base64, then a line break.
fn b64(bytes: &[u8]) -> String {
    format!(
        "{}\n",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// `show lldp neighbors | display-xml`: one document, every front-panel port and the
/// management port with the neighbor LLDP has learned on it (captured: an empty
/// `lldp-rem-neighbor-info` where none). The neighbor's chassis ID is its MAC, its port ID
/// its interface's name (subtype `interface-alias`, as an OS10 neighbor sends it), its port
/// description the same name, its maximum frame size its port's MTU as this switch knows
/// it (captured: the neighbor's 1532).
fn lldp(sw: &Os10Switch, net: &Net<'_>) -> String {
    let all = rows(sw, net);
    let mut doc = Doc::new(DECL_UTF8);
    doc.open("bulk");
    doc.open("data");
    let shown: Vec<&Row> = all
        .iter()
        .filter(|r| matches!(r.kind, Kind::Ethernet | Kind::Mgmt))
        .collect();
    for row in &shown {
        doc.open("interface");
        state_head(&mut doc, row);
        if let Some(d) = row.description() {
            doc.leaf("description", d);
        }
        doc.leaf("current-phys-address", system::mac_text(row.mac));
        doc.leaf("mtu", row.mtu());
        neighbor(&mut doc, sw, net, row);
        doc.close("interface");
    }
    doc.close("data");
    if let Some(last) = shown.last() {
        doc.open("last-keys");
        doc.leaf("name", &last.name);
        doc.close("last-keys");
    }
    doc.close("bulk");
    doc.finish()
}

/// A port's `lldp-rem-neighbor-info`.
fn neighbor(doc: &mut Doc, _sw: &Os10Switch, net: &Net<'_>, row: &Row) {
    let eth = match Iface::parse(&row.name) {
        Ok(Some(Iface::Ethernet(e))) => e,
        _ => {
            doc.empty("lldp-rem-neighbor-info");
            return;
        }
    };
    let p = port_of(eth);
    let Some(n) = net.lldp_neighbor(net.me, p) else {
        doc.empty("lldp-rem-neighbor-info");
        return;
    };
    let chassis = net.cabling.far(net.me, p).map_or_else(
        || crate::lab::network::base_mac(&n.system_name),
        |(f, _)| crate::lab::network::base_mac(f),
    );
    let os10 = n.port_id.starts_with("ethernet");
    doc.open("lldp-rem-neighbor-info");
    doc.open("info");
    doc.leaf("rem-lldp-chassis-id", b64(&chassis.0));
    doc.leaf("rem-lldp-port-id", b64(n.port_id.as_bytes()));
    doc.leaf("rem-lldp-chassis-id-subtype", "mac-address");
    doc.leaf("rem-lldp-port-subtype", "interface-alias");
    doc.leaf("rem-ttl", 120);
    doc.leaf(
        "rem-system-desc",
        if os10 {
            "OS10"
        } else {
            Unconfirmed::LldpOtherDesc.text()
        },
    );
    doc.leaf("rem-port-desc", &n.port_id);
    doc.leaf("rem-system-name", &n.system_name);
    doc.leaf("rem-max-frame-size", row.mtu());
    doc.leaf("rem-sys-cap-supported", "router bridge repeater");
    doc.leaf("rem-sys-cap-enabled", "router bridge repeater");
    doc.close("info");
    doc.close("lldp-rem-neighbor-info");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_text_as_the_captures_print_them() {
        // The capture's `FBh3Ca4A` is 14:18:77:09:ae:00; `ZXRoZXJuZXQxLzEvMw==`, ethernet1/1/3.
        assert_eq!(b64(&[0x14, 0x18, 0x77, 0x09, 0xae, 0x00]), "FBh3Ca4A\n");
        assert_eq!(b64(b"ethernet1/1/3"), "ZXRoZXJuZXQxLzEvMw==\n");
        assert_eq!(escape("a<b & c>"), "a&lt;b &amp; c&gt;");
        let m = Mac([0x14, 0x18, 0x77, 0x09, 0xae, 0x00]);
        assert_eq!(system::mac_text(mac_plus(m, 0x101)), "14:18:77:09:af:01");
    }
}
