//! The grammar: one line of an OS10 running configuration (without its indentation) → the
//! command it is, in the mode it is read in (top level, `interface`, `wred`, `class-map`,
//! trust map, `qos-map`, `policy-map` and its classes, `system qos`, `port-group`,
//! `vlt-domain`, `router bgp` and its neighbors, templates and address families).
//!
//! Each function answers `Ok(Some(command))` for a line the model knows, `Ok(None)` for a line
//! it does not (kept verbatim by the reader), and an error for a known command with a bad
//! value (`mtu 99999`, `switchport access vlan 5000`), with the column where it goes wrong.
//! Spellings, value ranges and sources are in `../shared/reference/os10-roce.md` and the
//! captures in `tests/fixtures/corpus/os10/`.

use smallvec::SmallVec;
use std::net::Ipv4Addr;

use super::names::{self, Eth, Iface, PortGroupId, Ranges};
use super::{
    BfdInterval, ChannelGroup, Color, LacpMode, QosKind, SwitchportMode, Thresholds, TrustKind,
};
use crate::types::{Ipv4Net, Mac, StpGuard, StpPortType, Vlan, VlanSet};

/// Why a known command does not read, and where (0-based byte offset in the line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bad {
    pub column: usize,
    pub expected: String,
}

type Read<T> = Result<Option<T>, Bad>;

/// `mtu` values: 1280-9216 bytes (Dell OS10 user guide, "Maximum transmission unit";
/// UNCONFIRMED lower bound: captures show only 9216).
pub const MTU: std::ops::RangeInclusive<u16> = 1280..=9216;
/// `vlt-port-channel` ids: 1-1024 (Dell OS10 user guide, VLT; UNCONFIRMED).
pub const VLT_PORT_CHANNELS: std::ops::RangeInclusive<u16> = 1..=1024;
/// `vlt-domain` ids: 1-255 (Dell OS10 user guide, VLT; UNCONFIRMED).
pub const VLT_DOMAINS: std::ops::RangeInclusive<u8> = 1..=255;

/// The words of a line with their byte offsets.
fn words(line: &str) -> Words<'_> {
    let mut out = Words::new();
    let mut start = None;
    // Split at the space byte: a space is never inside a multi-byte character.
    for (i, b) in line.bytes().enumerate() {
        match (b == b' ', start) {
            (true, Some(s)) => {
                out.push((s, &line[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &line[s..]));
    }
    out
}

/// A line's words with where each starts: on the stack for the lines of a configuration (a
/// few words each), not an allocation per line.
type Words<'a> = SmallVec<[(usize, &'a str); 8]>;

/// The words alone, to match against.
fn bare<'a>(ws: &Words<'a>) -> SmallVec<[&'a str; 8]> {
    ws.iter().map(|x| x.1).collect()
}

fn bad<T>(column: usize, expected: impl Into<String>) -> Result<T, Bad> {
    Err(Bad {
        column,
        expected: expected.into(),
    })
}

/// A number in `range` at word `w`.
fn num<T>(w: (usize, &str), range: std::ops::RangeInclusive<T>, what: &str) -> Result<T, Bad>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match w.1.parse::<T>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => bad(w.0, format!("{what} {}-{}", range.start(), range.end())),
    }
}

/// A name: one word, and nothing after it.
fn name(ws: &[(usize, &str)], at: usize, what: &str, line: &str) -> Result<String, Bad> {
    match ws.get(at) {
        None => bad(line.len(), format!("{what} name")),
        Some(_) if ws.len() > at + 1 => bad(ws[at + 1].0, "the end of the line"),
        // As the renderer prints a name: one word, no quote, no control or other space
        // character (a tab, a no-break space), so what is read prints back.
        Some(w) => match w
            .1
            .char_indices()
            .find(|(_, c)| c.is_whitespace() || c.is_control() || *c == '"')
        {
            Some((i, _)) => bad(
                w.0 + i,
                format!("{what} name of one word, without quotes, spaces or control characters"),
            ),
            None => Ok(w.1.to_string()),
        },
    }
}

/// The text after a keyword: a description as printed (`render::DESCRIPTIONS`), quoted when it
/// holds a space (`description "CL01 Nodes NIC"`, `description Rack01-CL01-SU01-Infra`); a
/// double quote inside one word is read as it stands (`description 5"cable`). Text without
/// quotes is read without the spaces at its ends; a quote beside a space is refused, as the
/// printer could not print it back.
fn text(line: &str, at: usize) -> Result<String, Bad> {
    let raw = line[at..].trim_start();
    let col = line.len() - raw.len();
    let raw = raw.trim_end();
    if raw.is_empty() {
        return bad(col, "text");
    }
    if let Some(inner) = raw.strip_prefix('"') {
        return match inner.strip_suffix('"') {
            Some(t) if !t.contains('"') && !t.is_empty() => Ok(t.to_string()),
            _ => bad(col, "text in double quotes, with no quote inside"),
        };
    }
    match raw.find('"') {
        Some(q) if raw.contains(char::is_whitespace) => bad(
            col + q,
            "text in double quotes without a quote inside, or one word (a quote in text with spaces is not read: how OS10 prints one is unconfirmed)",
        ),
        _ => Ok(raw.to_string()),
    }
}

fn on(w: (usize, &str)) -> Result<bool, Bad> {
    match w.1 {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => bad(w.0, "`on` or `off`"),
    }
}

fn ipv4(w: (usize, &str)) -> Result<Ipv4Addr, Bad> {
    w.1.parse().or_else(|_| bad(w.0, "an IPv4 address"))
}

fn asn(w: (usize, &str)) -> Result<u32, Bad> {
    num(w, 1..=u32::MAX, "an AS number")
}

fn ranges(w: (usize, &str), max: u8) -> Result<Ranges, Bad> {
    Ranges::parse(w.1, max).or_else(|(c, e)| bad(w.0 + c, e))
}

/// A top-level line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Top {
    Hostname(String),
    Dcbx,
    Breakout(Eth, String),
    /// `bfd enable`.
    BfdEnable,
    /// `bfd interval MS min_rx MS multiplier N role active|passive`.
    BfdInterval(BfdInterval),
    Interface(Iface),
    Wred(String),
    ClassMap(QosKind, String),
    TrustMap(TrustKind, String),
    QosMap(String),
    PolicyMap(QosKind, String),
    SystemQos,
    PortGroup(PortGroupId),
    Vlt(u8),
    Bgp(u32),
    /// `banner motd ^C`: the text up to the line that holds the delimiter is the banner's.
    Banner(String),
}

fn qos_kind(w: &str) -> Option<QosKind> {
    [QosKind::NetworkQos, QosKind::Queuing]
        .into_iter()
        .find(|k| k.word() == w)
}

/// A top-level line. Blocks of a kind the model does not hold (`class-map type application`,
/// `interface range`, `route-map`) are `None`: kept verbatim with their children.
pub fn top(line: &str) -> Read<Top> {
    let ws = words(line);
    let w = bare(&ws);
    Ok(Some(match w.as_slice() {
        ["hostname", ..] => Top::Hostname(name(&ws, 1, "a host", line)?),
        ["dcbx", "enable"] => Top::Dcbx,
        ["interface", "breakout", port, "map", map] => {
            let e = Eth::parse(port).or_else(|e| bad(ws[2].0, e))?;
            if !is_breakout_map(map) {
                return bad(ws[4].0, "a breakout map (`100g-1x`, `25g-4x`)");
            }
            Top::Breakout(e, map.to_string())
        }
        ["interface", "breakout", ..] => return bad(ws[1].0, "`breakout PORT map MAP`"),
        ["bfd", "enable"] => Top::BfdEnable,
        ["bfd", "interval", ..] => Top::BfdInterval(bfd_interval(&ws, line)?),
        ["interface", n] => match Iface::parse(n).or_else(|e| bad(ws[1].0, e))? {
            Some(i) => Top::Interface(i),
            None => return Ok(None),
        },
        // Typed in a session with a space (`interface ethernet 1/1/5`, `interface
        // port-channel 1`), printed without one.
        ["interface", kind, n] if names::SPACED.contains(kind) => {
            match Iface::parse_words(&[kind, n]).or_else(|e| bad(ws[2].0, e))? {
                Some(i) => Top::Interface(i),
                None => return Ok(None),
            }
        }
        ["wred", ..] => Top::Wred(name(&ws, 1, "a WRED profile", line)?),
        ["class-map", "type", t, ..] if qos_kind(t).is_some() => Top::ClassMap(
            qos_kind(t).unwrap_or(QosKind::Queuing),
            name(&ws, 3, "a class-map", line)?,
        ),
        ["policy-map", "type", t, ..] if qos_kind(t).is_some() => Top::PolicyMap(
            qos_kind(t).unwrap_or(QosKind::Queuing),
            name(&ws, 3, "a policy-map", line)?,
        ),
        ["trust", "dot1p-map", ..] => {
            Top::TrustMap(TrustKind::Dot1p, name(&ws, 2, "a trust map", line)?)
        }
        ["trust", "dscp-map", ..] => {
            Top::TrustMap(TrustKind::Dscp, name(&ws, 2, "a trust map", line)?)
        }
        ["qos-map", "traffic-class", ..] => Top::QosMap(name(&ws, 2, "a qos-map", line)?),
        ["system", "qos"] => Top::SystemQos,
        ["port-group", g] => Top::PortGroup(PortGroupId::parse(g).or_else(|e| bad(ws[1].0, e))?),
        ["port-group", ..] => {
            return bad(
                ws.get(1).map_or(line.len(), |x| x.0),
                "a port group (`port-group 1/1/5`)",
            );
        }
        ["vlt-domain", ..] => Top::Vlt(alone(&ws, line, VLT_DOMAINS, "a VLT domain id")?),
        ["router", "bgp", ..] => {
            let Some(&n) = ws.get(2) else {
                return bad(line.len(), "an AS number");
            };
            if ws.len() > 3 {
                return bad(ws[3].0, "the end of the line");
            }
            Top::Bgp(asn(n)?)
        }
        ["banner", _, delim] => Top::Banner(delim.to_string()),
        _ => return Ok(None),
    }))
}

/// BFD intervals OS10 takes: 50-1000 ms, multiplier 3-50 (Dell OS10 10.5.1 user guide,
/// `bfd interval`; 10.4 guides give 100-1000 ms).
pub const BFD_MS: std::ops::RangeInclusive<u32> = 50..=1000;
pub const BFD_MULTIPLIER: std::ops::RangeInclusive<u8> = 3..=50;

/// `bfd interval MS min_rx MS multiplier N role active|passive`; the role may be left out
/// (active, the default).
fn bfd_interval(ws: &Words<'_>, line: &str) -> Result<BfdInterval, Bad> {
    let at = |i: usize| ws.get(i).copied().unwrap_or((line.len(), ""));
    let key = |i: usize, k: &str| -> Result<(), Bad> {
        if at(i).1 == k {
            Ok(())
        } else {
            bad(at(i).0, format!("`{k}`"))
        }
    };
    let interval = num(at(2), BFD_MS, "an interval in ms")?;
    key(3, "min_rx")?;
    let min_rx = num(at(4), BFD_MS, "a receive interval in ms")?;
    key(5, "multiplier")?;
    let multiplier = num(at(6), BFD_MULTIPLIER, "a multiplier")?;
    let passive = match (ws.get(7), ws.get(8)) {
        (None, _) => false,
        (Some((_, "role")), Some((_, "active"))) => false,
        (Some((_, "role")), Some((_, "passive"))) => true,
        (Some((_, "role")), _) => return bad(at(8).0, "`active` or `passive`"),
        (Some((c, _)), _) => return bad(*c, "`role`"),
    };
    if let Some((c, _)) = ws.get(9) {
        return bad(*c, "the end of the line");
    }
    Ok(BfdInterval {
        interval,
        min_rx,
        multiplier,
        passive,
    })
}

/// `mode Eth 25g-4x` inside `port-group 1/1/N` (the TOR capture); another kind of mode
/// (`mode FC …`) is not the model's (`None`: kept verbatim).
pub fn port_group_mode(line: &str) -> Read<String> {
    let ws = words(line);
    let w = bare(&ws);
    match w.as_slice() {
        ["mode", "Eth", m] if is_breakout_map(m) => Ok(Some(m.to_string())),
        ["mode", "Eth", _] => bad(ws[2].0, "a port-group mode (`25g-4x`, `10g-4x`, `100g-1x`)"),
        ["mode", "Eth"] => bad(line.len(), "a port-group mode (`25g-4x`)"),
        ["mode", "Eth", ..] => bad(ws[3].0, "the end of the line"),
        _ => Ok(None),
    }
}

/// `100g-1x`, `25g-4x`, `10g-4x`, `40g-1x`, `50g-2x`: a speed and a lane count.
fn is_breakout_map(m: &str) -> bool {
    let Some((speed, lanes)) = m.split_once("g-") else {
        return false;
    };
    !speed.is_empty()
        && speed.bytes().all(|b| b.is_ascii_digit())
        && matches!(lanes, "1x" | "2x" | "4x" | "8x")
}

/// A line inside an `interface` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IfaceCmd {
    Description(String),
    Shutdown(bool),
    ChannelGroup(ChannelGroup),
    Routed,
    Mode(SwitchportMode),
    AccessVlan(Vlan),
    TrunkAllowed(VlanSet),
    Mtu(u16),
    Address(Ipv4Net),
    FlowcontrolRx(bool),
    FlowcontrolTx(bool),
    Pfc,
    PolicyIn(String),
    PolicyOut(String),
    Ets,
    QosMap(String),
    TrustMap(TrustKind, String),
    VltPortChannel(u16),
    /// `spanning-tree bpduguard enable|disable` (the AzureStack TOR and BMC, 10.5.3.2: every
    /// host and unused port enables it).
    Bpduguard(bool),
    /// `spanning-tree guard root|loop|none` (the AzureStack TOR and BMC; Dell OS10 user
    /// guide, `spanning-tree guard`).
    StpGuard(StpGuard),
    /// `spanning-tree port type edge` (the AzureStack TOR's host ports).
    StpPortType(StpPortType),
}

/// A line inside an `interface` block.
pub fn iface(line: &str) -> Read<IfaceCmd> {
    let ws = words(line);
    let w = bare(&ws);
    Ok(Some(match w.as_slice() {
        ["description", ..] => IfaceCmd::Description(text(line, "description".len())?),
        ["shutdown"] => IfaceCmd::Shutdown(true),
        ["no", "shutdown"] => IfaceCmd::Shutdown(false),
        ["channel-group", ..] => IfaceCmd::ChannelGroup(channel_group(&ws, &w, line)?),
        ["no", "switchport"] => IfaceCmd::Routed,
        ["switchport", "mode", "access"] => IfaceCmd::Mode(SwitchportMode::Access),
        ["switchport", "mode", "trunk"] => IfaceCmd::Mode(SwitchportMode::Trunk),
        ["switchport", "access", "vlan", v] => {
            let v = v
                .parse::<i64>()
                .ok()
                .and_then(|v| Vlan::new(v).ok())
                .ok_or(())
                .or_else(|_| bad(ws[3].0, "a VLAN 1-4094"))?;
            IfaceCmd::AccessVlan(v)
        }
        ["switchport", "trunk", "allowed", "vlan", list] => {
            IfaceCmd::TrunkAllowed(names::parse_vlans(list).or_else(|(c, e)| bad(ws[4].0 + c, e))?)
        }
        ["mtu", ..] => IfaceCmd::Mtu(alone(&ws, line, MTU, "an MTU")?),
        ["ip", "address", a] if a.contains('/') => IfaceCmd::Address(
            a.parse::<Ipv4Net>()
                .or_else(|e| bad(ws[2].0, format!("an address with its prefix length ({e})")))?,
        ),
        ["flowcontrol", "receive", ..] | ["flowcontrol", "transmit", ..] => {
            let Some(&v) = ws.get(2) else {
                return bad(line.len(), "`on` or `off`");
            };
            end(&ws, 3)?;
            if w[1] == "receive" {
                IfaceCmd::FlowcontrolRx(on(v)?)
            } else {
                IfaceCmd::FlowcontrolTx(on(v)?)
            }
        }
        ["priority-flow-control", "mode", rest @ ..] => {
            mode_on(&ws, rest, line)?;
            IfaceCmd::Pfc
        }
        ["ets", "mode", rest @ ..] => {
            mode_on(&ws, rest, line)?;
            IfaceCmd::Ets
        }
        ["service-policy", "input", "type", "network-qos", ..] => {
            IfaceCmd::PolicyIn(name(&ws, 4, "a policy-map", line)?)
        }
        ["service-policy", "output", "type", "queuing", ..] => {
            IfaceCmd::PolicyOut(name(&ws, 4, "a policy-map", line)?)
        }
        ["qos-map", "traffic-class", ..] => IfaceCmd::QosMap(name(&ws, 2, "a qos-map", line)?),
        ["trust-map", "dot1p", ..] => {
            IfaceCmd::TrustMap(TrustKind::Dot1p, name(&ws, 2, "a trust map", line)?)
        }
        ["trust-map", "dscp", ..] => {
            IfaceCmd::TrustMap(TrustKind::Dscp, name(&ws, 2, "a trust map", line)?)
        }
        ["spanning-tree", rest @ ..] => return spanning_tree(&ws, rest, line),
        ["vlt-port-channel", ..] => IfaceCmd::VltPortChannel(alone(
            &ws,
            line,
            VLT_PORT_CHANNELS,
            "a VLT port-channel id",
        )?),
        _ => return Ok(None),
    }))
}

/// Refuses a word at `i` or after it: the line should end before.
fn end(ws: &Words<'_>, i: usize) -> Result<(), Bad> {
    match ws.get(i) {
        Some(x) => bad(x.0, "the end of the line"),
        None => Ok(()),
    }
}

/// The number in `range` after the line's keyword, and nothing after it (`mtu N`,
/// `vlt-port-channel N`).
fn alone<T>(
    ws: &Words<'_>,
    line: &str,
    range: std::ops::RangeInclusive<T>,
    what: &str,
) -> Result<T, Bad>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let Some(&n) = ws.get(1) else {
        return bad(line.len(), what);
    };
    end(ws, 2)?;
    num(n, range, what)
}

/// Refuses `priority-flow-control mode` or `ets mode` followed (`rest`) by anything but `on`.
fn mode_on(ws: &Words<'_>, rest: &[&str], line: &str) -> Result<(), Bad> {
    if rest != ["on"] {
        return bad(ws.get(2).map_or(line.len(), |x| x.0), "`on`");
    }
    Ok(())
}

/// `channel-group N [mode active|passive|on]`.
fn channel_group(ws: &Words<'_>, w: &[&str], line: &str) -> Result<ChannelGroup, Bad> {
    let Some(&n) = ws.get(1) else {
        return bad(line.len(), "a port-channel number");
    };
    let id = num(n, names::PORT_CHANNELS, "a port-channel number")?;
    let mode = match w.get(2..) {
        Some([]) | None => LacpMode::On,
        Some(["mode", "active"]) => LacpMode::Active,
        Some(["mode", "passive"]) => LacpMode::Passive,
        Some(["mode", "on"]) => LacpMode::On,
        _ => return bad(ws[2].0, "`mode active`, `mode passive` or `mode on`"),
    };
    Ok(ChannelGroup { id, mode })
}

/// A `spanning-tree …` line of an interface, its words after `spanning-tree` being `rest`:
/// `bpduguard`, `guard`, `port type edge`.
fn spanning_tree(ws: &Words<'_>, rest: &[&str], line: &str) -> Read<IfaceCmd> {
    let arg = || ws.get(2).map_or(line.len(), |x| x.0);
    Ok(Some(match rest {
        ["bpduguard", "enable"] => IfaceCmd::Bpduguard(true),
        ["bpduguard", "disable"] => IfaceCmd::Bpduguard(false),
        ["bpduguard", ..] => return bad(arg(), "`enable` or `disable`"),
        ["guard", "root"] => IfaceCmd::StpGuard(StpGuard::Root),
        ["guard", "loop"] => IfaceCmd::StpGuard(StpGuard::Loop),
        ["guard", "none"] => IfaceCmd::StpGuard(StpGuard::None),
        ["guard", ..] => return bad(arg(), "`root`, `loop` or `none`"),
        // OS10's one port type (Dell OS10 user guide, "Configure EdgePort"); another word is
        // not the model's (kept verbatim).
        ["port", "type", "edge"] => IfaceCmd::StpPortType(StpPortType::Edge),
        _ => return Ok(None),
    }))
}

/// A line inside a `wred` profile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WredCmd {
    Color(Color, Thresholds),
    Ecn,
}

pub fn wred(line: &str) -> Read<WredCmd> {
    let ws = words(line);
    let w = bare(&ws);
    Ok(Some(match w.as_slice() {
        ["random-detect", "ecn"] => WredCmd::Ecn,
        ["random-detect", "color", c, rest @ ..] => {
            let color = match *c {
                "green" => Color::Green,
                "yellow" => Color::Yellow,
                "red" => Color::Red,
                _ => return bad(ws[2].0, "`green`, `yellow` or `red`"),
            };
            let expect = ["minimum-threshold", "maximum-threshold", "drop-probability"];
            if rest.len() != 6 || (0..3).any(|i| rest[2 * i] != expect[i]) {
                return bad(
                    ws.get(3).map_or(line.len(), |x| x.0),
                    "`minimum-threshold KB maximum-threshold KB drop-probability PERCENT`",
                );
            }
            let kb = 1..=u32::MAX;
            let t = Thresholds {
                min: num(ws[4], kb.clone(), "a threshold in KB")?,
                max: num(ws[6], kb, "a threshold in KB")?,
                drop: num(ws[8], 0..=100, "a drop probability")?,
            };
            if t.min > t.max {
                return bad(ws[6].0, "a maximum threshold at least the minimum");
            }
            WredCmd::Color(color, t)
        }
        _ => return Ok(None),
    }))
}

/// `match qos-group VALUES` in a network-qos class-map, `match queue VALUES` in a queuing one.
pub fn class_match(kind: QosKind, line: &str) -> Read<Ranges> {
    let ws = words(line);
    let w = bare(&ws);
    match (kind, w.as_slice()) {
        (QosKind::NetworkQos, ["match", "qos-group", v])
        | (QosKind::Queuing, ["match", "queue", v]) => {
            let _ = v;
            Ok(Some(ranges(ws[2], 7)?))
        }
        _ => Ok(None),
    }
}

/// `qos-group N dot1p|dscp VALUES` in a trust map.
pub fn trust_entry(kind: TrustKind, line: &str) -> Read<(u8, Ranges)> {
    let ws = words(line);
    let w = bare(&ws);
    match w.as_slice() {
        ["qos-group", _, k, _] if *k == kind.word() => Ok(Some((
            num(ws[1], 0..=7, "a qos-group")?,
            ranges(ws[3], kind.max())?,
        ))),
        ["qos-group", ..] => bad(
            ws.get(2).map_or(line.len(), |x| x.0),
            format!("`qos-group N {} VALUES`", kind.word()),
        ),
        _ => Ok(None),
    }
}

/// `queue N qos-group VALUES` in a `qos-map traffic-class`.
pub fn qos_map_entry(line: &str) -> Read<(u8, Ranges)> {
    let ws = words(line);
    let w = bare(&ws);
    match w.as_slice() {
        ["queue", _, "qos-group", _] => {
            Ok(Some((num(ws[1], 0..=7, "a queue")?, ranges(ws[3], 7)?)))
        }
        ["queue", ..] => bad(
            ws.get(2).map_or(line.len(), |x| x.0),
            "`queue N qos-group VALUES`",
        ),
        _ => Ok(None),
    }
}

/// `class NAME` in a policy-map: the header of a class block.
pub fn policy_class(line: &str) -> Read<String> {
    let ws = words(line);
    match ws.first() {
        Some((_, "class")) => Ok(Some(name(&ws, 1, "a class-map", line)?)),
        _ => Ok(None),
    }
}

/// A line inside a policy-map's `class` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassCmd {
    Bandwidth(u8),
    Pause,
    PfcCos(Ranges),
    Priority,
    RandomDetect(String),
}

pub fn class_line(kind: QosKind, line: &str) -> Read<ClassCmd> {
    let ws = words(line);
    let w = bare(&ws);
    Ok(Some(match (kind, w.as_slice()) {
        (QosKind::NetworkQos, ["pause"]) => ClassCmd::Pause,
        (QosKind::NetworkQos, ["pfc-cos", _]) => ClassCmd::PfcCos(ranges(ws[1], 7)?),
        (QosKind::Queuing, ["bandwidth", "percent", _]) => {
            ClassCmd::Bandwidth(num(ws[2], 1..=100, "a percentage")?)
        }
        (QosKind::Queuing, ["priority"]) => ClassCmd::Priority,
        (QosKind::Queuing, ["random-detect", ..]) => {
            ClassCmd::RandomDetect(name(&ws, 1, "a WRED profile", line)?)
        }
        _ => return Ok(None),
    }))
}

/// A line inside `system qos`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SystemQosCmd {
    TrustMap(TrustKind, String),
    Ets,
    PolicyIn(String),
    PolicyOut(String),
}

/// `system qos` shares its lines with interfaces: `trust-map`, `ets mode on`, `service-policy`.
pub fn system_qos(line: &str) -> Read<SystemQosCmd> {
    Ok(match iface(line)? {
        Some(IfaceCmd::TrustMap(k, n)) => Some(SystemQosCmd::TrustMap(k, n)),
        Some(IfaceCmd::Ets) => Some(SystemQosCmd::Ets),
        Some(IfaceCmd::PolicyIn(n)) => Some(SystemQosCmd::PolicyIn(n)),
        Some(IfaceCmd::PolicyOut(n)) => Some(SystemQosCmd::PolicyOut(n)),
        _ => None,
    })
}

/// A line inside `vlt-domain`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VltCmd {
    Backup(Ipv4Addr),
    Discovery(std::collections::BTreeSet<Eth>),
    PeerRouting,
    PrimaryPriority(u32),
    VltMac(Mac),
}

pub fn vlt(line: &str) -> Read<VltCmd> {
    let ws = words(line);
    let w = bare(&ws);
    Ok(Some(match w.as_slice() {
        // `backup destination A vrf …` and IPv6 destinations: kept verbatim.
        ["backup", "destination", a] if !a.contains(':') => VltCmd::Backup(ipv4(ws[2])?),
        ["discovery-interface", p] => {
            VltCmd::Discovery(names::parse_ports(p).or_else(|(c, e)| bad(ws[1].0 + c, e))?)
        }
        ["peer-routing"] => VltCmd::PeerRouting,
        ["primary-priority", _] => VltCmd::PrimaryPriority(num(ws[1], 1..=65535, "a priority")?),
        ["vlt-mac", m] => VltCmd::VltMac(m.parse().or_else(|e| bad(ws[1].0, e))?),
        _ => return Ok(None),
    }))
}

/// A line directly inside `router bgp`: the sub-block headers (`address-family ipv4 unicast`,
/// `template NAME`, `neighbor A`) and the instance's own settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BgpCmd {
    MultipathRelax,
    /// `fast-external-fallover` (true) / `no fast-external-fallover` (false), as printed.
    FastExternalFallover(bool),
    MaxPathsEbgp(u16),
    MaxPathsIbgp(u16),
    RouterId(Ipv4Addr),
    Ipv4Unicast,
    Template(String),
    Neighbor(Ipv4Addr),
}

pub fn bgp(line: &str) -> Read<BgpCmd> {
    let ws = words(line);
    let w = bare(&ws);
    Ok(Some(match w.as_slice() {
        ["bestpath", "as-path", "multipath-relax"] => BgpCmd::MultipathRelax,
        ["fast-external-fallover"] => BgpCmd::FastExternalFallover(true),
        ["no", "fast-external-fallover"] => BgpCmd::FastExternalFallover(false),
        ["maximum-paths", "ebgp", _] => {
            BgpCmd::MaxPathsEbgp(num(ws[2], 1..=128, "a number of paths")?)
        }
        ["maximum-paths", "ibgp", _] => {
            BgpCmd::MaxPathsIbgp(num(ws[2], 1..=128, "a number of paths")?)
        }
        ["router-id", _] => BgpCmd::RouterId(ipv4(ws[1])?),
        ["address-family", "ipv4", "unicast"] => BgpCmd::Ipv4Unicast,
        ["template", ..] => BgpCmd::Template(name(&ws, 1, "a template", line)?),
        // `neighbor` of an IPv6 address or an interface: kept verbatim.
        ["neighbor", a] if a.contains('.') => BgpCmd::Neighbor(ipv4(ws[1])?),
        _ => return Ok(None),
    }))
}

/// A line inside a BGP `neighbor` or `template` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerCmd {
    Bfd,
    Description(String),
    Inherit(String),
    RemoteAs(u32),
    /// `timers KEEPALIVE HOLD`, in seconds (keepalive 1-65535, hold 3-65535: Dell OS10 10.4.0E
    /// user guide, `timers`).
    Timers(u16, u16),
    Shutdown(bool),
    Ipv4Unicast,
}

pub fn peer(line: &str) -> Read<PeerCmd> {
    let ws = words(line);
    let w = bare(&ws);
    Ok(Some(match w.as_slice() {
        ["description", ..] => PeerCmd::Description(text(line, "description".len())?),
        ["inherit", "template", ..] => PeerCmd::Inherit(name(&ws, 2, "a template", line)?),
        ["bfd"] => PeerCmd::Bfd,
        ["remote-as", _] => PeerCmd::RemoteAs(asn(ws[1])?),
        ["timers", _, _] => PeerCmd::Timers(
            num(ws[1], 1..=65535, "a keepalive in seconds")?,
            num(ws[2], 3..=65535, "a hold time in seconds")?,
        ),
        ["timers", ..] => {
            return bad(
                ws.get(3).map_or(line.len(), |w| w.0),
                "a keepalive and a hold time in seconds",
            );
        }
        ["shutdown"] => PeerCmd::Shutdown(true),
        ["no", "shutdown"] => PeerCmd::Shutdown(false),
        ["address-family", "ipv4", "unicast"] => PeerCmd::Ipv4Unicast,
        _ => return Ok(None),
    }))
}

/// `network A/N` in the instance's `address-family ipv4 unicast`.
pub fn af_network(line: &str) -> Read<Ipv4Net> {
    let ws = words(line);
    match ws.as_slice() {
        [(_, "network"), n] => Ok(Some(
            n.1.parse::<Ipv4Net>()
                .or_else(|e| bad(n.0, format!("a prefix ({e})")))?,
        )),
        _ => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each spelling of the description table prints as the table says and reads back to its
    /// text; what the printer cannot print back is refused by the reader, at the quote.
    #[test]
    fn descriptions_read_as_they_print() {
        use super::super::render::{DESCRIPTIONS, describable, described};
        for (d, printed, _) in DESCRIPTIONS {
            assert!(describable(d), "{d:?}");
            assert_eq!(described(d), *printed);
            let line = format!("description {printed}");
            assert_eq!(iface(&line), Ok(Some(IfaceCmd::Description(d.to_string()))));
            assert_eq!(peer(&line), Ok(Some(PeerCmd::Description(d.to_string()))));
        }
        assert_eq!(
            iface("description test string  "),
            Ok(Some(IfaceCmd::Description("test string".into())))
        );
        for (line, col) in [
            ("description 5\" cable", 13),
            ("description a 5\"", 15),
            ("description \"a\"b", 12),
            ("description \"a \"b\"", 12),
        ] {
            assert_eq!(iface(line).unwrap_err().column, col, "{line}");
        }
        for d in ["\"a", "a \"b", "", "a\nb"] {
            assert!(!describable(d), "{d:?}");
        }
    }

    #[test]
    fn known_commands_read() {
        assert_eq!(iface("mtu 9216"), Ok(Some(IfaceCmd::Mtu(9216))));
        assert_eq!(
            iface("description \"CL01 Nodes NIC\""),
            Ok(Some(IfaceCmd::Description("CL01 Nodes NIC".into())))
        );
        assert_eq!(
            iface("spanning-tree guard root"),
            Ok(Some(IfaceCmd::StpGuard(StpGuard::Root)))
        );
        assert_eq!(
            iface("spanning-tree port type edge"),
            Ok(Some(IfaceCmd::StpPortType(StpPortType::Edge)))
        );
        assert_eq!(iface("spanning-tree bpduguard on").unwrap_err().column, 24);
        assert_eq!(iface("spanning-tree bpdufilter enable"), Ok(None));
        assert_eq!(iface("ip address dhcp"), Ok(None));
        assert_eq!(iface("mtu 99999").unwrap_err().column, 4);
        assert_eq!(iface("switchport access vlan 5000").unwrap_err().column, 23);
        assert_eq!(
            iface("channel-group 51"),
            Ok(Some(IfaceCmd::ChannelGroup(ChannelGroup {
                id: 51,
                mode: LacpMode::On
            })))
        );
        assert_eq!(top("class-map type application class-iscsi"), Ok(None));
        assert_eq!(top("bfd enable"), Ok(Some(Top::BfdEnable)));
        assert_eq!(
            top("bfd interval 250 min_rx 300 multiplier 4 role passive"),
            Ok(Some(Top::BfdInterval(BfdInterval {
                interval: 250,
                min_rx: 300,
                multiplier: 4,
                passive: true
            })))
        );
        assert_eq!(
            top("bfd interval 2000 min_rx 300 multiplier 4")
                .unwrap_err()
                .column,
            13
        );
        assert_eq!(top("bfd interval 300 min_rx 300").unwrap_err().column, 27);
        assert_eq!(peer("timers 3 9"), Ok(Some(PeerCmd::Timers(3, 9))));
        assert_eq!(peer("timers 3").unwrap_err().column, 8);
        assert_eq!(peer("bfd"), Ok(Some(PeerCmd::Bfd)));
        assert_eq!(peer("bfd disable"), Ok(None));
        assert_eq!(
            bgp("no fast-external-fallover"),
            Ok(Some(BgpCmd::FastExternalFallover(false)))
        );
        assert_eq!(
            top("interface ethernet1/1/17:1"),
            Ok(Some(Top::Interface(Iface::Ethernet(Eth::sub(17, 1)))))
        );
        assert!(top("interface ethernet1/1/x").is_err());
        for (typed, printed) in [
            ("interface ethernet 1/1/5", "ethernet1/1/5"),
            ("interface ethernet 1/1/17:1", "ethernet1/1/17:1"),
            ("interface port-channel 1", "port-channel1"),
            ("interface vlan 10", "vlan10"),
            ("interface loopback 0", "loopback0"),
            ("interface mgmt 1/1/1", "mgmt1/1/1"),
        ] {
            match top(typed) {
                Ok(Some(Top::Interface(i))) => assert_eq!(i.to_string(), printed),
                other => panic!("{typed}: {other:?}"),
            }
        }
        assert_eq!(top("interface ethernet 1/1/x").unwrap_err().column, 19);
        assert_eq!(top("interface vlan 5000").unwrap_err().column, 15);
        assert_eq!(top("interface range ethernet1/1/1-1/1/4"), Ok(None));
        assert_eq!(
            top("port-group 1/1/5"),
            Ok(Some(Top::PortGroup(PortGroupId::new(5))))
        );
        assert_eq!(top("port-group 1/1/5:1").unwrap_err().column, 11);
        assert_eq!(top("port-group").unwrap_err().column, 10);
        assert_eq!(
            port_group_mode("mode Eth 10g-4x"),
            Ok(Some("10g-4x".to_string()))
        );
        assert_eq!(port_group_mode("mode FC 32g-4x"), Ok(None));
        assert_eq!(port_group_mode("mode Eth fast").unwrap_err().column, 9);
        assert_eq!(port_group_mode("mode Eth").unwrap_err().column, 8);
        assert_eq!(
            trust_entry(TrustKind::Dot1p, "qos-group 0 dot1p 0-2,4,6-7")
                .unwrap()
                .unwrap()
                .1
                .to_string(),
            "0-2,4,6-7"
        );
    }
}
