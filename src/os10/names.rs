//! OS10's names and small value sets, as `show running-configuration` spells them: interfaces
//! (`ethernet1/1/1`, breakouts `ethernet1/1/1:1`, `port-channel12`, `vlan7`, `loopback0`,
//! `mgmt1/1/1`), port groups (`port-group 1/1/5`), the comma-and-dash sets of small numbers
//! (`qos-group 0-2,4,6-7`), VLAN lists (`switchport trunk allowed vlan 2,4,7`) and port lists
//! (`discovery-interface ethernet1/1/49-1/1/52`). Text ⇄ value only; what they mean is the
//! model's.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Serialize, Serializer};

use crate::types::{Vlan, VlanSet, format_vlan_run, vlan_runs};

/// A front-panel port `node/slot/port`, or a breakout subport `node/slot/port:sub`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Eth {
    pub node: u8,
    pub slot: u8,
    pub port: u16,
    pub sub: Option<u8>,
}

impl Eth {
    pub fn new(port: u16) -> Eth {
        Eth {
            node: 1,
            slot: 1,
            port,
            sub: None,
        }
    }

    pub fn sub(port: u16, sub: u8) -> Eth {
        Eth {
            sub: Some(sub),
            ..Eth::new(port)
        }
    }

    /// Reads `1/1/1` or `1/1/1:1`; the error says what is wrong.
    pub fn parse(s: &str) -> Result<Eth, String> {
        let bad = || format!("`{s}` is not a port (`1/1/1`, or `1/1/1:1` for a breakout)");
        let (main, sub) = match s.split_once(':') {
            Some((m, x)) => (m, Some(x.parse::<u8>().map_err(|_| bad())?)),
            None => (s, None),
        };
        let mut it = main.split('/');
        let (Some(n), Some(sl), Some(p), None) = (it.next(), it.next(), it.next(), it.next())
        else {
            return Err(bad());
        };
        let node = n.parse::<u8>().map_err(|_| bad())?;
        let slot = sl.parse::<u8>().map_err(|_| bad())?;
        let port = p.parse::<u16>().map_err(|_| bad())?;
        if node == 0 || slot == 0 || port == 0 || sub == Some(0) {
            return Err(format!("`{s}`: ports and subports count from 1"));
        }
        Ok(Eth {
            node,
            slot,
            port,
            sub,
        })
    }

    /// Whether `next` follows `self` in a port range (`1/1/49-1/1/52`): the next port number
    /// on the same node and slot, neither a subport.
    fn precedes(self, next: Eth) -> bool {
        self.sub.is_none()
            && next.sub.is_none()
            && self.node == next.node
            && self.slot == next.slot
            && self.port + 1 == next.port
    }
}

impl fmt::Display for Eth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.node, self.slot, self.port)?;
        if let Some(s) = self.sub {
            write!(f, ":{s}")?;
        }
        Ok(())
    }
}

impl Serialize for Eth {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A port group `node/slot/N`, as `port-group 1/1/5` names it (the AzureStack TOR capture,
/// 10.5.3.2: `port-group 1/1/1` … `port-group 1/1/18`). Not a port: a group of them, whose
/// mode (`mode Eth 10g-4x`) decides what the ports are named and run at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PortGroupId {
    pub node: u8,
    pub slot: u8,
    pub number: u16,
}

impl PortGroupId {
    /// Group `number` of a fixed-port switch (node 1, slot 1).
    pub fn new(number: u16) -> PortGroupId {
        PortGroupId {
            node: 1,
            slot: 1,
            number,
        }
    }

    /// Reads `1/1/5`; the error says what is wrong.
    pub fn parse(s: &str) -> Result<PortGroupId, String> {
        match Eth::parse(s) {
            Ok(Eth {
                node,
                slot,
                port,
                sub: None,
            }) => Ok(PortGroupId {
                node,
                slot,
                number: port,
            }),
            _ => Err(format!("`{s}` is not a port group (`1/1/5`)")),
        }
    }
}

impl fmt::Display for PortGroupId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.node, self.slot, self.number)
    }
}

impl Serialize for PortGroupId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// An interface. The order of the variants is the order OS10 10.5 prints interface blocks in
/// (see [`super::ORDER`]); within a kind, by number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Iface {
    Vlan(Vlan),
    PortChannel(u16),
    Loopback(u16),
    Mgmt(u8, u8, u8),
    Ethernet(Eth),
}

/// `port-channel` numbers: 1-128 (Dell OS10 user guide, "Port-channel interfaces";
/// UNCONFIRMED by a capture beyond 1, 12, 51).
pub const PORT_CHANNELS: std::ops::RangeInclusive<u16> = 1..=128;
/// `loopback` numbers: 0-16383 (Dell OS10 user guide, "Loopback interfaces"; UNCONFIRMED).
pub const LOOPBACKS: std::ops::RangeInclusive<u16> = 0..=16383;

/// The interface kinds OS10 takes typed with a space before the number (`interface ethernet
/// 1/1/5`, `interface port-channel 1`: grantcurell's 10.5.0.2 session; `vlan 10`, `loopback
/// 0`, `mgmt 1/1/1`: the Dell OS10 user guide's examples, UNCONFIRMED by a capture). The
/// running configuration prints them without it.
pub const SPACED: &[&str] = &["ethernet", "port-channel", "vlan", "loopback", "mgmt"];

impl Iface {
    /// Reads an interface name as typed: one word (`ethernet1/1/1`), or a kind of [`SPACED`]
    /// and its number as two (`ethernet 1/1/1`).
    pub fn parse_words(words: &[&str]) -> Result<Option<Iface>, String> {
        match words {
            [one] => Iface::parse(one),
            [kind, n] if SPACED.contains(kind) => Iface::parse(&format!("{kind}{n}")),
            _ => Ok(None),
        }
    }

    /// Reads an interface name as the running configuration prints it (`ethernet1/1/1`, no
    /// space). `Ok(None)`: not one of the kinds the model knows (kept verbatim); an error: a
    /// known kind with a bad number.
    pub fn parse(s: &str) -> Result<Option<Iface>, String> {
        let number = |rest: &str, what: &str, range: std::ops::RangeInclusive<u16>| {
            rest.parse::<u16>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(|| {
                    format!(
                        "`{s}`: a {what} number is {}-{}",
                        range.start(),
                        range.end()
                    )
                })
        };
        if let Some(rest) = s.strip_prefix("ethernet") {
            return Eth::parse(rest).map(|e| Some(Iface::Ethernet(e)));
        }
        if let Some(rest) = s.strip_prefix("port-channel") {
            return number(rest, "port-channel", PORT_CHANNELS)
                .map(|n| Some(Iface::PortChannel(n)));
        }
        if let Some(rest) = s.strip_prefix("vlan") {
            let v = rest
                .parse::<i64>()
                .map_err(|_| format!("`{s}`: a VLAN number is 1-4094"))?;
            return Vlan::new(v).map(|v| Some(Iface::Vlan(v)));
        }
        if let Some(rest) = s.strip_prefix("loopback") {
            return number(rest, "loopback", LOOPBACKS).map(|n| Some(Iface::Loopback(n)));
        }
        if let Some(rest) = s.strip_prefix("mgmt") {
            return match Eth::parse(rest) {
                Ok(Eth {
                    node,
                    slot,
                    port,
                    sub: None,
                }) if port <= 255 => Ok(Some(Iface::Mgmt(node, slot, port as u8))),
                _ => Err(format!("`{s}` is not a management port (`mgmt1/1/1`)")),
            };
        }
        Ok(None)
    }
}

impl fmt::Display for Iface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Iface::Vlan(v) => write!(f, "vlan{v}"),
            Iface::PortChannel(n) => write!(f, "port-channel{n}"),
            Iface::Loopback(n) => write!(f, "loopback{n}"),
            Iface::Mgmt(a, b, c) => write!(f, "mgmt{a}/{b}/{c}"),
            Iface::Ethernet(e) => write!(f, "ethernet{e}"),
        }
    }
}

impl Serialize for Iface {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A set of small numbers (0-63: priorities, qos-groups, queues, DSCP values), printed as OS10
/// prints them: ascending, runs as `a-b`, joined by commas (`0-2,4,6-7`, captured in
/// `trust dot1p-map` and `qos-map traffic-class` of the AzureStack TOR, 10.5.3.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ranges(u64);

impl Ranges {
    pub fn one(n: u8) -> Ranges {
        Ranges(1u64 << n)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0u8..64).filter(move |n| self.0 & (1u64 << n) != 0)
    }

    /// Reads `0-2,4,6-7` with every number at most `max`; the error gives the byte offset in
    /// `s` where reading failed.
    pub fn parse(s: &str, max: u8) -> Result<Ranges, (usize, String)> {
        let mut bits = 0u64;
        let mut at = 0usize;
        for part in s.split(',') {
            let num = |t: &str, off: usize| {
                t.parse::<u8>()
                    .ok()
                    .filter(|n| *n <= max)
                    .ok_or((off, format!("a number 0-{max}, or a list `0-2,4`")))
            };
            let (a, b) = match part.split_once('-') {
                Some((a, b)) => (num(a, at)?, num(b, at + a.len() + 1)?),
                None => {
                    let n = num(part, at)?;
                    (n, n)
                }
            };
            if a > b {
                return Err((at, format!("`{part}` runs backwards")));
            }
            for n in a..=b {
                bits |= 1u64 << n;
            }
            at += part.len() + 1;
        }
        Ok(Ranges(bits))
    }
}

impl FromIterator<u8> for Ranges {
    /// Numbers over 63 wrap (the set holds 0-63).
    fn from_iter<I: IntoIterator<Item = u8>>(it: I) -> Ranges {
        Ranges(it.into_iter().fold(0, |m, n| m | 1u64 << (n & 63)))
    }
}

impl fmt::Display for Ranges {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        let mut it = self.iter().peekable();
        while let Some(a) = it.next() {
            let mut b = a;
            while it.peek() == Some(&(b + 1)) {
                b += 1;
                it.next();
            }
            if !first {
                f.write_str(",")?;
            }
            first = false;
            if a == b {
                write!(f, "{a}")?;
            } else {
                write!(f, "{a}-{b}")?;
            }
        }
        Ok(())
    }
}

impl Serialize for Ranges {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A VLAN list as `switchport trunk allowed vlan` prints it: `107`, `2,4,7`, `10-20`.
pub fn format_vlans(set: &VlanSet) -> String {
    vlan_runs(set.iter())
        .into_iter()
        .map(format_vlan_run)
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads a VLAN list; the error gives the byte offset in `s` where reading failed.
pub fn parse_vlans(s: &str) -> Result<VlanSet, (usize, String)> {
    let mut set = VlanSet::new();
    let mut at = 0usize;
    for part in s.split(',') {
        let one = |t: &str, off: usize| {
            t.parse::<i64>()
                .ok()
                .and_then(|v| Vlan::new(v).ok())
                .ok_or((off, "a VLAN 1-4094, or a list `2,4,10-20`".to_string()))
        };
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (one(a, at)?, one(b, at + a.len() + 1)?),
            None => {
                let v = one(part, at)?;
                (v, v)
            }
        };
        if a > b {
            return Err((at, format!("`{part}` runs backwards")));
        }
        set.extend(a.through(b));
        at += part.len() + 1;
    }
    Ok(set)
}

/// A port list as `discovery-interface` prints it: `ethernet` once, then ports and runs
/// (`ethernet1/1/49-1/1/52`, `ethernet1/1/25,1/1/29`: the AzureStack TOR and Cray captures).
pub fn format_ports(set: &BTreeSet<Eth>) -> String {
    let mut runs: Vec<(Eth, Eth)> = Vec::new();
    for &e in set {
        match runs.last_mut() {
            Some(last) if last.1.precedes(e) => last.1 = e,
            _ => runs.push((e, e)),
        }
    }
    let body: Vec<String> = runs
        .into_iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect();
    format!("ethernet{}", body.join(","))
}

/// Reads a port list (`ethernet1/1/49-1/1/52,1/1/54`); the error gives the byte offset.
pub fn parse_ports(s: &str) -> Result<BTreeSet<Eth>, (usize, String)> {
    let Some(body) = s.strip_prefix("ethernet") else {
        return Err((0, "ports as `ethernet1/1/49-1/1/52`".to_string()));
    };
    let mut set = BTreeSet::new();
    let mut at = "ethernet".len();
    for part in body.split(',') {
        let one = |t: &str, off: usize| Eth::parse(t).map_err(|e| (off, e));
        match part.split_once('-') {
            Some((a, b)) => {
                let (x, y) = (one(a, at)?, one(b, at + a.len() + 1)?);
                if x.sub.is_some()
                    || y.sub.is_some()
                    || (x.node, x.slot) != (y.node, y.slot)
                    || x.port > y.port
                {
                    return Err((at, format!("`{part}` is not a run of ports")));
                }
                set.extend((x.port..=y.port).map(|p| Eth { port: p, ..x }));
            }
            None => {
                set.insert(one(part, at)?);
            }
        }
        at += part.len() + 1;
    }
    Ok(set)
}

/// A fabric port on an OS10 switch: front-panel port N (slot 1) is OS10's `ethernet1/1/N`,
/// its breakout subport M `ethernet1/1/N:M`.
pub fn eth_of(p: crate::types::Port) -> Eth {
    match p.sub {
        Some(s) => Eth::sub(p.port, s),
        None => Eth::new(p.port),
    }
}

/// The fabric port an OS10 port is: the inverse of [`eth_of`].
pub fn port_of(e: Eth) -> crate::types::Port {
    crate::types::Port {
        slot: 1,
        port: e.port,
        sub: e.sub,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_and_print_back() {
        for s in [
            "ethernet1/1/1",
            "ethernet1/1/17:1",
            "port-channel51",
            "vlan2000",
            "loopback0",
            "mgmt1/1/1",
        ] {
            assert_eq!(Iface::parse(s).unwrap().unwrap().to_string(), s);
        }
        assert!(Iface::parse("ethernet1/1").is_err());
        assert!(Iface::parse("vlan5000").is_err());
        assert_eq!(Iface::parse("null0").unwrap(), None);
    }

    #[test]
    fn sets_print_as_os10_does() {
        let r = Ranges::parse("0-2,4,6-7", 7).unwrap();
        assert_eq!(r.to_string(), "0-2,4,6-7");
        assert_eq!(Ranges::parse("0,8", 7).unwrap_err().0, 2);
        let p = parse_ports("ethernet1/1/49-1/1/52").unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(format_ports(&p), "ethernet1/1/49-1/1/52");
        let p = parse_ports("ethernet1/1/25,1/1/29").unwrap();
        assert_eq!(format_ports(&p), "ethernet1/1/25,1/1/29");
        assert_eq!(
            format_vlans(&parse_vlans("2,4,7,10-12").unwrap()),
            "2,4,7,10-12"
        );
    }
}
