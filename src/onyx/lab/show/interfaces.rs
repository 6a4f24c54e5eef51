//! The switch's interfaces as they run: `show interfaces ethernet [X] [status|counters]`,
//! `show interfaces status`, `show ip interface brief`. Which ports exist comes from the
//! switch's model and its splits, whether a port is up from the network ([`Net::port_up`]:
//! not shut down, and the far end of its cable up too, or a host), its speed from the model
//! (native, or the split's share) and its `speed` setting.
//!
//! Layouts are the captures': `show interfaces ethernet` from
//! `tests/fixtures/corpus/onyx/show/napalm-onyx__show_interface.txt` (Onyx 3.7, aligned
//! colons) and `…/more/quali-mellanox-os-shell__sn1-rsw-b11-20a__show_interfaces_MLNX-OS_3.6.1102.txt`
//! (before 3.7: `Eth1/1` without a colon, `Actual speed: 100 Gbps`, `N\A`), its JSON from
//! `…/show/ansible-onyx__onyx_interfaces_show__json.cfg` (a switchport) and
//! `…/show/ansible-onyx__onyx_l3_interface_show__json.cfg` (a routed port: IP fields, no
//! switchport mode); `… status` from `…/show/intel-mfd__show_interfaces_ethernet_status.txt`
//! and its JSON from `…/show/ansible-onyx__onyx_interfaces_status__json.cfg`; `show
//! interfaces status` from `…/more/cray-docs-csm__sw-spine-001__show_interfaces_status.txt`
//! (3.9, with an MTU column) and `…/show/napalm-onyx__show_interface_status.txt` (3.7, no MTU
//! column, narrower). Counters are zero: the lab forwards no frames.

use crate::onyx::lab::cli::Errors as _;
use std::fmt::Write as _;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::json::Obj;
use super::{Cx, Shown};
use crate::lab::counters::PortCounters;
use crate::lab::network::{Net, Network, base_mac};
use crate::onyx::lab::cli::{Reply, Switch, Unconfirmed};
use crate::onyx::{Iface, Interface};
use crate::types::{Port, Release, Speed, Split};

/// From this release `show interfaces` aligns its colons and prints speeds as `100G`
/// (3.7.1160 captured, 3.6.1102 and 3.6.5000 not).
const ALIGNED: Release = Release(3, 7, 0);
/// From this release `show interfaces status` has an MTU column and wider columns (3.9.0300
/// captured, 3.7.1160 not; 3.8 is not captured and is taken to print as 3.9 does).
const STATUS_MTU: Release = Release(3, 8, 0);

/// The front-panel ports and subports the switch has now, in order: its model's ports, a
/// split port replaced by its subports, a port whose lanes a 4-way split of the port below
/// takes left out (SN2700-like models). A switch without a model knows the ports its
/// configuration names.
pub(super) fn ports(sw: &Switch) -> Vec<Port> {
    let c = &sw.running;
    let split = |p: Port| c.interfaces.get(&Iface::Ethernet(p)).and_then(|i| i.split);
    let front: Vec<Port> = match sw.model {
        Some(m) => m.ports().collect(),
        None => {
            let mut v: Vec<Port> = c
                .interfaces
                .keys()
                .filter_map(|k| match k {
                    Iface::Ethernet(p) => Some(p.parent()),
                    _ => None,
                })
                .collect();
            v.dedup();
            v
        }
    };
    let mut out = Vec::new();
    for p in front {
        let below = Port::new(p.slot, p.port.saturating_sub(1));
        let taken = p.port > 1
            && split(below) == Some(Split::Four)
            && sw
                .model
                .is_some_and(|m| m.check_split(below, Split::Four) == Ok(Some(p)));
        if taken {
            continue;
        }
        match split(p) {
            Some(s) => out.extend((1..=s.ways()).map(|n| Port { sub: Some(n), ..p })),
            None => out.push(p),
        }
    }
    out
}

/// The ports `id` names (`1/1`, `1/1/2`, `1/1-1/4`), when the switch has them all.
pub(super) fn named(sw: &Switch, id: &str) -> Option<Vec<Port>> {
    let all = ports(sw);
    let (a, b) = id.split_once('-').unwrap_or((id, id));
    let (a, b): (Port, Port) = (a.parse().ok()?, b.parse().ok()?);
    let from = all.iter().position(|p| *p == a)?;
    let to = all.iter().position(|p| *p == b)?;
    (from <= to).then(|| all[from..=to].to_vec())
}

/// The port as Onyx names it in tables: `Eth1/1`, `Eth1/9/1`.
pub(super) fn eth(p: Port) -> String {
    format!("Eth{p}")
}

/// What one port is now.
pub(super) struct PortView {
    pub port: Port,
    pub config: Option<Interface>,
    pub admin: bool,
    pub up: bool,
    /// The configured speed, else the native one (the model's, or its split share).
    pub speed: Option<Speed>,
    pub native: Option<Speed>,
    pub mtu: u16,
    /// `Last change in operational status`.
    pub last_change: String,
    pub no_autoneg: bool,
    pub mac: String,
    /// What the port has counted ([`crate::lab::counters`]).
    pub counters: PortCounters,
}

/// The port `p` of the switch in the network, `index` its place among the switch's ports.
fn view(
    sw: &Switch,
    (net, network, me): (&Net<'_>, &Network, &str),
    p: Port,
    index: usize,
    counters: PortCounters,
) -> PortView {
    let config = sw.running.interfaces.get(&Iface::Ethernet(p)).cloned();
    let native = sw.model.and_then(|m| {
        let parent = p.parent();
        let split = sw
            .running
            .interfaces
            .get(&Iface::Ethernet(parent))
            .and_then(|i| i.split)
            .filter(|_| p.sub.is_some());
        m.native_speed(parent, split)
    });
    let up = net.port_up(me, p);
    let (since, came_up) = network.since(&format!("{me} port {p}"), up);
    // Each time up is one change, each time down after it another; a flapping port's
    // changes too.
    let changes = u64::from((came_up * 2).saturating_sub(u32::from(up))) + counters.link_changes;
    let setting = config.as_ref().and_then(|i| i.speed);
    PortView {
        port: p,
        admin: config.as_ref().and_then(|i| i.shutdown) != Some(true),
        up,
        speed: setting.map(|s| s.speed).or(native),
        native,
        mtu: config.as_ref().and_then(|i| i.mtu).unwrap_or(1500),
        last_change: last_change(since, changes),
        no_autoneg: setting.is_some_and(|s| s.no_autoneg),
        mac: port_mac(me, index),
        config,
        counters,
    }
}

/// `Last change in operational status`: `Never`, or `4:42:27 ago (1 oper change)` — `(7
/// oper change)` in the singular whatever the count (captured); days beyond 24 hours are
/// UNCONFIRMED (a 3.6 capture prints `3w3d and 20:03:02`): hours keep counting.
fn last_change(since: Duration, changes: u64) -> String {
    if changes == 0 {
        return "Never".into();
    }
    let s = since.as_secs();
    format!(
        "{}:{:02}:{:02} ago ({changes} oper change)",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// A port's MAC: the switch's base MAC plus twice its place (the capture's ports differ by
/// 2: `7c:fe:90:f2:89:7c`, `…:7e`), lower case as `show interfaces` prints it.
fn port_mac(me: &str, index: usize) -> String {
    let b = base_mac(me).0;
    let low = u32::from_be_bytes([0, b[3], b[4], b[5]]).wrapping_add(2 * (index as u32 + 1));
    let [_, x, y, z] = low.to_be_bytes();
    format!(
        "{:02x}:{:02x}:{:02x}:{x:02x}:{y:02x}:{z:02x}",
        b[0], b[1], b[2]
    )
}

/// A table's header between two rules as long as it (the lab's layouts where no capture
/// shows one; the captured tables rule their headers so).
pub(super) fn ruled(header: &str) -> String {
    let rule = "-".repeat(header.len());
    format!("{rule}\n{header}\n{rule}\n")
}

/// Text and its JSON.
pub(super) fn shown(text: String, json: impl Into<Value>) -> Shown {
    Shown {
        text,
        json: Some(json.into()),
    }
}

/// `40 Gbps` (before 3.7, and in every JSON: Ansible's `onyx_interface` reads the number
/// before the space) or `40G`.
fn gbps(s: Option<Speed>) -> String {
    s.map_or_else(|| "Unknown".into(), |s| format!("{} Gbps", s.gbps()))
}

fn speed_word(s: Option<Speed>) -> String {
    s.map_or_else(|| "Unknown".into(), |s| s.to_string())
}

fn mtu_text(mtu: u16, release: Release) -> String {
    // The frame adds 22 bytes: 1500 → 1522 (captured).
    let space = if release < ALIGNED { "" } else { " " };
    format!(
        "{mtu} bytes{space}(Maximum packet size {} bytes)",
        u32::from(mtu) + 22
    )
}

/// The counters every release lists first (captured).
const FIRST: [&str; 5] = [
    "packets",
    "unicast packets",
    "multicast packets",
    "broadcast packets",
    "bytes",
];

/// The receive and transmit counters, in the order the release lists them: 3.7's fourteen
/// and eight (`napalm-onyx__show_interface.txt`), before 3.7 seven each (the 3.6.1102 capture).
fn counter_names(release: Release) -> [Vec<&'static str>; 2] {
    let with = |rest: &[&'static str]| FIRST.iter().chain(rest).copied().collect::<Vec<_>>();
    if release < ALIGNED {
        let old = with(&["error packets", "discard packets"]);
        return [old.clone(), old];
    }
    [
        with(&[
            "discard packets",
            "error packets",
            "fcs errors",
            "undersize packets",
            "oversize packets",
            "pause packets",
            "unknown control opcode",
            "symbol errors",
            "discard packets by storm control",
        ]),
        with(&["discard packets", "error packets", "hoq discard packets"]),
    ]
}

/// What a port's counter called `name` holds in direction `rx` (else Tx): the packets it
/// forwarded, its bytes (the lab's packets are 1,024 bytes), its FCS errors (each also an
/// error packet), its drops (Tx discards); zero for the rest (the lab sends no link-level
/// pause, no broadcast, nothing malformed).
fn counted(c: &PortCounters, rx: bool, name: &str) -> u64 {
    let packets = if rx { c.rx_packets } else { c.tx_packets };
    match (rx, name) {
        (_, "packets" | "unicast packets") => packets,
        (_, "bytes") => packets * 1024,
        (true, "fcs errors" | "error packets") => c.fcs_errors,
        (false, "discard packets") => c.drops.iter().sum(),
        _ => 0,
    }
}

/// The Rx and Tx blocks.
fn counters_text(out: &mut String, release: Release, c: &PortCounters) {
    let [rx, tx] = counter_names(release);
    for (dir, names) in [("Rx", rx), ("Tx", tx)] {
        if release < ALIGNED {
            let _ = writeln!(out, "{dir}");
        } else {
            let _ = writeln!(out, "  {dir}:");
        }
        for name in names {
            let n = counted(c, dir == "Rx", name);
            if release < ALIGNED {
                let _ = writeln!(out, "  {n:<21}{name}");
            } else {
                let _ = writeln!(out, "    {n:<22}{name}");
            }
        }
        out.push('\n');
    }
    if release < ALIGNED {
        out.push('\n');
    }
}

/// The JSON counters, Tx and Rx, in the capture's key order: the same but for Tx's `hoq
/// discard packets`.
fn counters_json(c: &PortCounters) -> (Value, Value) {
    let zero = |hoq: bool| -> Value {
        let keys = [
            "error packets",
            "packets",
            "bytes",
            "multicast packets",
            "unicast packets",
            "discard packets",
            "hoq discard packets",
            "broadcast packets",
        ];
        // The Tx block is the one with `hoq discard packets`.
        Value::Object(
            keys.iter()
                .filter(|k| hoq || !k.starts_with("hoq"))
                .map(|k| (k.to_string(), json!(counted(c, !hoq, k).to_string())))
                .collect(),
        )
    };
    (zero(true), zero(false))
}

/// The ports a command names (all, or `X`), or the reply to print when `X` names none.
pub(super) fn which(sw: &Switch, id: Option<&str>) -> Result<Vec<Port>, Reply> {
    match id {
        None => Ok(ports(sw)),
        Some(id) => named(sw, id).ok_or_else(|| Reply::unrecognized(id)),
    }
}

/// The views of the ports `want`, from the network around the switch.
pub(super) fn views(cx: &Cx<'_>, want: &[Port]) -> Vec<PortView> {
    let all = ports(cx.sw);
    cx.net(|net, network, me| {
        let counted = network.counters(net, crate::onyx::target::OS, want);
        want.iter()
            .zip(counted)
            .map(|(p, c)| {
                let i = all.iter().position(|q| q == p).unwrap_or(0);
                view(cx.sw, (net, network, me), *p, i, c)
            })
            .collect()
    })
}

impl PortView {
    fn description(&self, release: Release) -> String {
        match self.config.as_ref().and_then(|i| i.description.clone()) {
            Some(d) => d,
            None if release < ALIGNED => "N\\A".into(),
            None => "N/A".into(),
        }
    }

    fn routed(&self) -> bool {
        self.config.as_ref().is_some_and(|i| i.routed)
    }

    pub fn switchport_mode(&self) -> String {
        self.config
            .as_ref()
            .and_then(|i| i.switchport_mode)
            .map_or_else(|| "access".into(), |m| m.to_string())
    }
}

fn enabled(b: bool) -> &'static str {
    if b { "Enabled" } else { "Disabled" }
}

fn up_down(b: bool) -> &'static str {
    if b { "Up" } else { "Down" }
}

/// The speeds a port supports: every speed up to its native one (the 100G capture lists
/// `1G 10G 25G 40G 50G 56G 100G`; other natives' lists are UNCONFIRMED).
fn supported(native: Option<Speed>) -> String {
    let Some(n) = native else {
        return "Unknown".into();
    };
    crate::types::Speed::ALL
        .iter()
        .map(|(_, s)| *s)
        .filter(|s| s.gbps() <= n.gbps())
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `show interfaces ethernet [X] [status|counters]` (the words after `ethernet`).
pub fn ethernet_words(cx: &Cx<'_>, words: &[&str]) -> Result<Shown, Reply> {
    match words {
        [] => ethernet(cx, None),
        ["status"] => ethernet_status(cx, None),
        ["counters"] => ethernet_counters(cx, None),
        ["counters", rest @ ..] => super::counters::of(cx, None, rest),
        [id] => ethernet(cx, Some(id)),
        [id, "status"] => ethernet_status(cx, Some(id)),
        [id, "counters"] => ethernet_counters(cx, Some(id)),
        [id, "counters", rest @ ..] => super::counters::of(cx, Some(id), rest),
        [_, other, ..] => Err(Reply::unrecognized(other)),
    }
}

/// `show interfaces ethernet [X]`: a block per port, or a JSON array of them.
pub fn ethernet(cx: &Cx<'_>, id: Option<&str>) -> Result<Shown, Reply> {
    let want = which(cx.sw, id)?;
    let release = cx.sw.release;
    let mut text = String::new();
    let mut json = Vec::new();
    for v in views(cx, &want) {
        let name = eth(v.port);
        if release < ALIGNED {
            ethernet_unaligned(&mut text, &v, &name, release);
        } else {
            ethernet_aligned(&mut text, &v, &name, release);
        }
        counters_text(&mut text, release, &v.counters);
        json.push(ethernet_named(ethernet_json(&v, &name), name, release));
    }
    Ok(shown(text, json))
}

/// A port's block before [`ALIGNED`]: `key: value` lines, speeds in Gb/s.
fn ethernet_unaligned(text: &mut String, v: &PortView, name: &str, release: Release) {
    let _ = writeln!(text, "{name}");
    let rows = [
        ("Admin state", enabled(v.admin).to_string()),
        ("Operational state", up_down(v.up).into()),
        ("Last change in operational status", v.last_change.clone()),
        ("Description", v.description(release)),
        ("Mac address", v.mac.clone()),
        ("MTU", mtu_text(v.mtu, release)),
        ("Fec", "auto".into()),
        ("Flow-control", "receive off send off".into()),
        ("Actual speed", gbps(v.speed)),
        ("Width reduction mode", "Not supported".into()),
    ];
    for (k, val) in rows {
        let _ = writeln!(text, "  {k}: {val}");
    }
    if !v.routed() {
        let _ = writeln!(text, "  Switchport mode: {}", v.switchport_mode());
        let _ = writeln!(text, "  MAC learning mode: Enabled");
    }
    text.push_str("  Last clearing of \"show interface\" counters : Never\n");
    for dir in ["ingress", "egress"] {
        let _ = writeln!(
            text,
            "  60 seconds {dir} rate: 0 bits/sec, 0 bytes/sec, 0 packets/sec"
        );
    }
    text.push('\n');
}

/// A port's block from [`ALIGNED`] on: its colons aligned, speeds as words, the speeds it
/// supports and telemetry.
fn ethernet_aligned(text: &mut String, v: &PortView, name: &str, release: Release) {
    let _ = writeln!(text, "{name}:");
    let actual = if v.up {
        speed_word(v.speed)
    } else {
        "Unknown".into()
    };
    let mut rows = vec![
        ("Admin state", enabled(v.admin).to_string()),
        ("Operational state", up_down(v.up).into()),
        ("Last change in operational status", v.last_change.clone()),
        ("Boot delay time", "0 sec".into()),
        ("Description", v.description(release)),
        ("Mac address", v.mac.clone()),
        ("MTU", mtu_text(v.mtu, release)),
        ("Fec", "auto".into()),
        (
            "Operational Fec",
            if v.up { "rs-fec" } else { "N/A" }.into(),
        ),
        ("Flow-control", "receive off send off".into()),
        ("Supported speeds", supported(v.native)),
        ("Advertised speeds", speed_word(v.speed)),
        ("Actual speed", actual),
        ("Auto-negotiation", enabled(!v.no_autoneg).to_string()),
        ("Width reduction mode", "Unknown".into()),
    ];
    if !v.routed() {
        rows.push(("Switchport mode", v.switchport_mode()));
        rows.push(("MAC learning mode", "Enabled".into()));
    }
    rows.push(("Forwarding mode", "inherited cut-through".into()));
    for (k, val) in rows {
        let _ = writeln!(text, "  {k:<33}: {val}");
    }
    text.push_str(
        "\n  Telemetry sampling: Disabled   TCs: N/A\n  Telemetry threshold: Disabled  TCs: N/A\n  Telemetry threshold level: N/A\n\n",
    );
    let _ = writeln!(
        text,
        "  {:<42}: Never",
        "Last clearing of \"show interface\" counters"
    );
    for dir in ["ingress", "egress"] {
        let _ = writeln!(
            text,
            "  {:<42}: 0 bits/sec, 0 bytes/sec, 0 packets/sec",
            format!("60 seconds {dir} rate")
        );
    }
    text.push('\n');
}

/// From the JSON API release, a port is `{"Eth1/1": [{…}]}`, named by its key rather than a
/// `header` field (see `JSON_API`).
fn ethernet_named(port: Value, name: String, release: Release) -> Value {
    match port {
        Value::Object(mut attrs) if release >= super::JSON_API => {
            attrs.shift_remove("header");
            let mut port = Map::new();
            port.insert(name, Value::Array(vec![Value::Object(attrs)]));
            Value::Object(port)
        }
        other => other,
    }
}

/// One port of `show interfaces ethernet | json-print`, in the capture's key order (a
/// switchport's, or a routed port's with its address).
fn ethernet_json(v: &PortView, name: &str) -> Value {
    let release = Release(3, 6, 0); // JSON keeps the captured value formats (`N\A`, `40 Gbps`).
    let (tx, rx) = counters_json(&v.counters);
    let rate = json!("0 bits/sec, 0 bytes/sec, 0 packets/sec");
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    let address = v.config.as_ref().and_then(|i| i.address);
    if v.routed() {
        if let Some(a) = address {
            put("Broadcast address", json!(broadcast(a).to_string()));
        }
        put("Fec", json!("auto"));
        put("Tx", tx);
        put("Rx", rx);
        put("header", json!(name));
        put("Arp timeout", json!("1500 seconds"));
        put("Actual speed", json!(gbps(v.speed)));
        put("60 seconds egress rate", rate.clone());
        put("Last change in operational status", json!(v.last_change));
        put("Boot delay time", json!("0 sec"));
        put("Description", json!(v.description(release)));
        put("DHCP client", json!("Disabled"));
        put("VRF", json!("default"));
        put("Mac address", json!(v.mac));
        put("60 seconds ingress rate", rate);
        put(
            "Last clearing of \"show interface\" counters",
            json!("Never"),
        );
        put("MTU", json!(mtu_text(v.mtu, release)));
        put("Telemetry threshold", json!("Disabled\t TCs: N\\A"));
        put("Telemetry threshold level", json!("N\\A"));
        put("Flow-control", json!("receive off send off"));
        put("Forwarding mode", json!("inherited cut-through"));
        put("Admin state", json!(enabled(v.admin)));
        put("Telemetry sampling", json!("Disabled\t TCs: N\\A"));
        if let Some(a) = address {
            put("IP Address", json!(format!("{} /{}", a.addr, a.len)));
        }
        put("Operational state", json!(up_down(v.up)));
        put("Width reduction mode", json!("Not supported"));
    } else {
        put("Fec", json!("auto"));
        put("Mac address", json!(v.mac));
        put("60 seconds ingress rate", rate.clone());
        put(
            "Last clearing of \"show interface\" counters",
            json!("Never"),
        );
        put("Actual speed", json!(gbps(v.speed)));
        put("MTU", json!(mtu_text(v.mtu, release)));
        put("header", json!(name));
        put("Telemetry threshold", json!("Disabled\t TCs: N\\A"));
        put("Telemetry threshold level", json!("N\\A"));
        put("Flow-control", json!("receive off send off"));
        put("Forwarding mode", json!("inherited cut-through"));
        put("60 seconds egress rate", rate);
        put("Last change in operational status", json!(v.last_change));
        put("Boot delay time", json!("0 sec"));
        put("Description", json!(v.description(release)));
        put("Admin state", json!(enabled(v.admin)));
        put("Telemetry sampling", json!("Disabled\t TCs: N\\A"));
        put("Operational state", json!(up_down(v.up)));
        put("Width reduction mode", json!("Not supported"));
        put("Tx", tx);
        put("MAC learning mode", json!("Enabled"));
        put("Switchport mode", json!(v.switchport_mode()));
        put("Rx", rx);
    }
    Value::Object(m)
}

fn broadcast(a: crate::types::Ipv4Net) -> std::net::Ipv4Addr {
    let host = u32::MAX.checked_shr(u32::from(a.len)).unwrap_or(0);
    std::net::Ipv4Addr::from(u32::from(a.addr) | host)
}

/// `show interfaces ethernet [X] status`.
pub fn ethernet_status(cx: &Cx<'_>, id: Option<&str>) -> Result<Shown, Reply> {
    let want = which(cx.sw, id)?;
    let mut text = format!(
        "{:<23}{:<28}{:<23}Negotiation\n{:<23}{:<28}{:<23}-----------\n",
        "Port", "Operational state", "Speed", "----", "-----------------", "-----"
    );
    let mut json = Map::new();
    for v in views(cx, &want) {
        let speed = if v.up {
            speed_word(v.speed)
        } else {
            "Unknown".into()
        };
        // `Auto` (captured in the text) unless the speed is forced without negotiation
        // (`No-Negotiation`, captured in the JSON).
        let negotiation = if v.no_autoneg {
            "No-Negotiation"
        } else {
            "Auto"
        };
        let _ = writeln!(
            text,
            "{:<23}{:<28}{speed:<23}{negotiation}",
            eth(v.port),
            up_down(v.up)
        );
        json.insert(
            eth(v.port),
            json!([{
                "Negotiation": negotiation,
                "Operational state": up_down(v.up),
                "Speed": gbps(v.speed),
            }]),
        );
    }
    Ok(shown(text, json))
}

/// `show interfaces ethernet [X] counters`: the Rx and Tx blocks of `show interfaces
/// ethernet`, each under its port's name. UNCONFIRMED layout: no capture shows this
/// command; the blocks are the captured ones of `show interfaces ethernet`, with what each
/// port has counted ([`crate::lab::counters`]). JSON: `[{"header", "Rx", "Tx"}]` with the
/// captured counter objects (UNCONFIRMED shape).
pub fn ethernet_counters(cx: &Cx<'_>, id: Option<&str>) -> Result<Shown, Reply> {
    let want = which(cx.sw, id)?;
    let mut text = String::new();
    let mut json = Vec::new();
    for v in views(cx, &want) {
        let _ = writeln!(text, "{}:", eth(v.port));
        counters_text(&mut text, cx.sw.release, &v.counters);
        let (tx, rx) = counters_json(&v.counters);
        json.push(json!({ "header": eth(v.port), "Rx": rx, "Tx": tx }));
    }
    Ok(shown(text, json))
}

/// One row of `show interfaces status`.
struct StatusRow {
    name: String,
    up: bool,
    admin: bool,
    speed: String,
    mtu: u16,
    description: String,
}

/// `show interfaces status`: the management ports, port-channels, MLAG port-channels, then
/// the Ethernet ports with their bundle (`Eth1/12 (Po100)`), as the captures order them. The
/// management ports are the lab's: `mgmt0` up (the lab is reached through it), `mgmt1` down.
/// JSON: no capture; `{name: [{column: value}]}` like `… ethernet status`'s (UNCONFIRMED).
pub fn status(cx: &Cx<'_>) -> Shown {
    let mut rows = management_rows();
    rows.extend(bundle_rows(cx));
    rows.extend(ethernet_rows(cx));
    status_shown(cx.sw.release, rows)
}

/// An interface's description, `-` without one.
fn description(i: Option<&Interface>) -> String {
    i.and_then(|i| i.description.clone())
        .unwrap_or_else(|| "-".into())
}

/// The management ports' rows.
fn management_rows() -> Vec<StatusRow> {
    vec![
        StatusRow {
            name: "mgmt1".into(),
            up: false,
            admin: true,
            speed: "UNKNOWN".into(),
            mtu: 1500,
            description: "-".into(),
        },
        StatusRow {
            name: "mgmt0".into(),
            up: true,
            admin: true,
            // An up management port's speed as 3.7 prints it (3.9's capture shows only down
            // ones, `UNKNOWN`, as `mgmt1` here).
            speed: "1000Mb/s (auto)".into(),
            mtu: 1500,
            description: "-".into(),
        },
    ]
}

/// The port-channels' and MLAG port-channels' rows, up as the network has them.
fn bundle_rows(cx: &Cx<'_>) -> Vec<StatusRow> {
    let c = &cx.sw.running;
    let mut rows = Vec::new();
    cx.net(|net, _, me| {
        for (k, i) in &c.interfaces {
            let name = match k {
                Iface::PortChannel(n) => format!("Po{n}"),
                Iface::MlagPortChannel(n) => format!("Mpo{n}"),
                _ => continue,
            };
            rows.push(StatusRow {
                name,
                up: net.iface_up(me, *k),
                admin: i.shutdown != Some(true),
                speed: String::new(),
                mtu: i.mtu.unwrap_or(1500),
                description: description(Some(i)),
            });
        }
    });
    rows
}

/// The Ethernet ports' rows, each named with its bundle.
fn ethernet_rows(cx: &Cx<'_>) -> Vec<StatusRow> {
    let all = ports(cx.sw);
    let mut rows = Vec::new();
    for v in views(cx, &all) {
        let bundle = v.config.as_ref().and_then(|i| i.channel_group).map(|g| {
            if g.mlag {
                format!(" (Mpo{})", g.id)
            } else {
                format!(" (Po{})", g.id)
            }
        });
        rows.push(StatusRow {
            name: format!("{}{}", eth(v.port), bundle.unwrap_or_default()),
            up: v.up,
            admin: v.admin,
            speed: if v.up {
                speed_word(v.speed)
            } else {
                "Unknown".into()
            },
            mtu: v.mtu,
            description: description(v.config.as_ref()),
        });
    }
    rows
}

/// The rows as text (with an MTU column from [`STATUS_MTU`]) and JSON.
fn status_shown(release: Release, rows: Vec<StatusRow>) -> Shown {
    let mut text = String::new();
    let mut json = Map::new();
    if release < STATUS_MTU {
        let rule = "-".repeat(128);
        let _ = write!(
            text,
            "{rule}\n\n{:<20}{:<20}{:<30}{:<16}Description\n{rule}\n",
            "Port", "Operational state", "Admin", "Speed"
        );
    } else {
        let rule = "-".repeat(152);
        let _ = write!(
            text,
            " \n{rule}\n{:<22}{:<22}{:<32}{:<18}{:<18}Description\n{rule}\n",
            "Port", "Operational state", "Admin", "Speed", "MTU"
        );
    }
    for r in rows {
        if release < STATUS_MTU {
            let _ = writeln!(
                text,
                "{:<20}{:<20}{:<30}{:<16}{}",
                r.name,
                up_down(r.up),
                enabled(r.admin),
                r.speed,
                r.description
            );
        } else {
            let _ = writeln!(
                text,
                "{:<22}{:<22}{:<32}{:<18}{:<18}{}",
                r.name,
                up_down(r.up),
                enabled(r.admin),
                r.speed,
                r.mtu,
                r.description
            );
        }
        json.insert(
            r.name.clone(),
            json!([{
                "Operational state": up_down(r.up),
                "Admin": enabled(r.admin),
                "Speed": r.speed,
                "MTU": r.mtu.to_string(),
                "Description": r.description,
            }]),
        );
    }
    shown(text, json)
}

/// `show ip interface brief`: every interface with an address. UNCONFIRMED layout: no
/// capture of Onyx shows it; the columns are the lab's choice
/// ([`Unconfirmed::IpBriefHeader`]). JSON: `{name: [{column: value}]}` (UNCONFIRMED).
pub fn ip_brief(cx: &Cx<'_>) -> Shown {
    let c = &cx.sw.running;
    let mut text = ruled(Unconfirmed::IpBriefHeader.text());
    let mut json = Map::new();
    cx.net(|net, _, me| {
        for (k, i) in &c.interfaces {
            let Some(a) = i.address else { continue };
            let name = match k {
                Iface::Ethernet(p) => eth(*p),
                Iface::Vlan(v) => format!("Vlan {v}"),
                Iface::Loopback(n) => format!("Loopback {n}"),
                Iface::PortChannel(n) => format!("Po{n}"),
                Iface::MlagPortChannel(n) => format!("Mpo{n}"),
            };
            let addr = format!("{}/{}", a.addr, a.len);
            let admin = enabled(i.shutdown != Some(true));
            let oper = up_down(net.iface_up(me, *k));
            let mtu = i.mtu.unwrap_or(1500).to_string();
            let _ = writeln!(
                text,
                "{name:<18}{addr:<20}{admin:<14}{oper:<13}{mtu:<8}default"
            );
            json.insert(
                name,
                json!([{
                    "Address/Mask": addr,
                    "Admin-state": admin,
                    "Oper-state": oper,
                    "MTU": mtu,
                    "VRF": "default",
                }]),
            );
        }
    });
    shown(text, json)
}

/// `show interfaces vlan`: every VLAN interface, its address, MTU (1500 without an `mtu`
/// line), state (up while a port of its VLAN is, [`crate::lab::network::Net::iface_up`]) and
/// MAC (the switch's base MAC). JSON: the fields of
/// `…/show/ansible-onyx__onyx_l3_vlan_interface_show__show_interfaces_vlan_json.cfg` (a list
/// of `header`ed objects before [`super::JSON_API`], a list of `{"Vlan N": [{…}]}` from it, as
/// `show interfaces ethernet`). Text: the same fields under `Vlan N:`, UNCONFIRMED layout.
pub fn vlan_interfaces(cx: &Cx<'_>) -> Shown {
    let c = &cx.sw.running;
    let mut text = String::new();
    let mut json = Vec::new();
    cx.net(|net, _, me| {
        let mac = base_mac(me).to_string().to_uppercase();
        for (k, i) in &c.interfaces {
            let Iface::Vlan(v) = k else { continue };
            let name = format!("Vlan {v}");
            let mut rows = vec![
                ("Admin state", enabled(i.shutdown != Some(true)).to_string()),
                (
                    "Operational state",
                    up_down(net.iface_up(me, *k)).to_string(),
                ),
                ("Autostate", "Enabled".to_string()),
                ("Mac Address", mac.clone()),
                ("DHCP client", "Disabled".to_string()),
            ];
            if let Some(a) = i.address {
                rows.push(("Internet Address", format!("{}/{}", a.addr, a.len)));
                rows.push(("Broadcast address", broadcast(a).to_string()));
            }
            rows.extend([
                (
                    "MTU",
                    format!("{} bytes", i.mtu.unwrap_or(crate::onyx::VLAN_DEFAULT_MTU)),
                ),
                ("Arp timeout", "1500 seconds".to_string()),
                ("Icmp redirect", "Enabled".to_string()),
                (
                    "Description",
                    i.description.clone().unwrap_or_else(|| "N/A".to_string()),
                ),
                ("VRF", "default".to_string()),
                ("Counters", "Disabled".to_string()),
            ]);
            let _ = writeln!(text, "{name}:");
            let mut obj = Obj::new();
            for (k, val) in rows {
                let _ = writeln!(text, "  {k:<19}: {val}");
                obj = obj.s(k, val);
            }
            text.push('\n');
            json.push(if cx.sw.release < super::JSON_API {
                obj.s("header", &name).build()
            } else {
                json!({ name: [obj.build()] })
            });
        }
    });
    shown(text, json)
}
