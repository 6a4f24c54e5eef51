//! Small value types shared by every stage: ports and port ranges, VLAN ids, switch
//! priorities and traffic classes, DSCP values, percentages, hostnames, Onyx releases.
//!
//! Each type parses from the text a network engineer writes (`FromStr`) and prints the way
//! Onyx prints it (`Display`). A value of one of these types is always valid: the checks live
//! in the constructors, not in the callers. Nothing here knows about YAML or switches.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

pub mod cli_text;
mod iface;
mod model;
mod net;
mod nic;
mod qos;
pub mod templates;

pub use iface::{Iface, IfaceRange};
pub use model::{FirstRelease, Model, Split};
pub use net::{Ipv4Net, Mac, is_private_asn};
pub use nic::{HostOs, NICS, Nic};

pub(crate) use qos::choose;
pub use qos::{
    Ecn, EcnMode, EcnThresholds, Ets, PoolType, Preset, RoceMode, Speed, StpGuard, StpPortType,
    SwitchportMode, Trust, did_you_mean,
};

/// Why a written value was refused: the message, and a help line saying how to fix it when
/// there is more to say than the message (a likely meant word, how to rewrite the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub message: String,
    pub help: Option<String>,
}

impl Invalid {
    pub fn new(message: impl Into<String>) -> Self {
        Invalid {
            message: message.into(),
            help: None,
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// `a` or `an`, for a word as it is read aloud: `an admin state`, `an SN2410`, `a speed`.
pub fn article(word: &str) -> &'static str {
    let mut chars = word.chars();
    let first = chars.next().unwrap_or('x');
    let second = chars.next().unwrap_or(' ');
    // An initialism (SN2410, L3, MTU) is read letter by letter: "ess-en", "el", "em".
    let spelt =
        first.is_ascii_uppercase() && (second.is_ascii_uppercase() || second.is_ascii_digit());
    let vowel_sound = if spelt {
        "AEFHILMNORSX".contains(first)
    } else {
        "aeiouAEIOU".contains(first)
    };
    if vowel_sound { "an" } else { "a" }
}

/// An Ethernet port: `1/5`, or a split subport `1/31/2`.
///
/// Ordered the way Onyx lists ports: by slot, port, then subport (a parent before its subports).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Port {
    pub slot: u8,
    pub port: u16,
    pub sub: Option<u8>,
}

impl Port {
    pub const fn new(slot: u8, port: u16) -> Self {
        Port {
            slot,
            port,
            sub: None,
        }
    }

    pub const fn sub(slot: u8, port: u16, sub: u8) -> Self {
        Port {
            slot,
            port,
            sub: Some(sub),
        }
    }

    /// The front-panel port this one belongs to (itself when it is not a subport).
    pub fn parent(self) -> Port {
        Port { sub: None, ..self }
    }

    /// True when `next` directly follows `self` inside one Onyx range: the next port number
    /// on the same slot, or the next subport of the same front-panel port. A range never
    /// crosses from plain ports into subports.
    pub fn precedes(self, next: Port) -> bool {
        if self.slot != next.slot {
            return false;
        }
        match (self.sub, next.sub) {
            (None, None) => next.port == self.port + 1,
            (Some(a), Some(b)) => self.port == next.port && b == a + 1,
            _ => false,
        }
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.sub {
            None => write!(f, "{}/{}", self.slot, self.port),
            Some(s) => write!(f, "{}/{}/{}", self.slot, self.port, s),
        }
    }
}

impl FromStr for Port {
    type Err = String;

    /// `1/5` or `1/31/2`: one to three numbers of at most four digits, `/`-separated.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().as_bytes();
        match read_port(t) {
            Some((p, n)) if n == t.len() => Ok(p),
            _ => Err(format!(
                "`{s}` is not a port; write `1/5`, or `1/31/2` for a split subport"
            )),
        }
    }
}

/// The port at the start of `b` and the bytes it takes, read byte by byte (every interface
/// line of a running-config goes through here); `None` if `b` does not start with one.
fn read_port(b: &[u8]) -> Option<(Port, usize)> {
    // A number of one to four digits at `at`, and where it ends.
    let num = |at: usize| {
        let mut v = 0u32;
        let mut k = at;
        while k < b.len() && k - at < 4 && b[k].is_ascii_digit() {
            v = v * 10 + u32::from(b[k] - b'0');
            k += 1;
        }
        (k > at).then_some((v, k))
    };
    let (slot, k) = num(0)?;
    if b.get(k) != Some(&b'/') {
        return None;
    }
    let (port, mut k) = num(k + 1)?;
    let mut sub = None;
    if b.get(k) == Some(&b'/') {
        let (s, end) = num(k + 1)?;
        sub = Some(u8::try_from(s).ok().filter(|s| (1..=8).contains(s))?);
        k = end;
    }
    let valid = (1..=16).contains(&slot) && (1..=256).contains(&port);
    valid.then(|| {
        let p = Port {
            slot: slot as u8,
            port: port as u16,
            sub,
        };
        (p, k)
    })
}

/// The port or valid range at the start of `b` (`1/5`, `1/1-1/8`, `1/31/1-1/31/4`) and the
/// bytes it takes; `None` where [`parse_port_span`] would say what is wrong.
pub fn read_port_span(b: &[u8]) -> Option<((Port, Port), usize)> {
    let (first, n) = read_port(b)?;
    if b.get(n) != Some(&b'-') {
        return Some(((first, first), n));
    }
    let (last, m) = read_port(&b[n + 1..])?;
    (same_group(first, last) && first <= last).then_some(((first, last), n + 1 + m))
}

/// Whether two ports can bound one Onyx range: the same slot, and both plain ports or both
/// subports of one port.
fn same_group(a: Port, b: Port) -> bool {
    a.slot == b.slot
        && match (a.sub, b.sub) {
            (None, None) => true,
            (Some(_), Some(_)) => a.port == b.port,
            _ => false,
        }
}

/// The first and last port of a port or Onyx range (`1/1-1/8`, `1/31/1-1/31/4`), checked as
/// [`parse_port_range`] checks it, without listing the ports in between.
pub fn parse_port_span(s: &str) -> Result<(Port, Port), String> {
    // The common case, a port or range in the canonical form, read in one pass.
    let (a, b) = match read_port_span(s.as_bytes()) {
        Some((span, n)) if n == s.len() => span,
        _ => match s.split_once('-') {
            None => {
                let p: Port = s.parse()?;
                return Ok((p, p));
            }
            Some((a, b)) => (a.parse()?, b.parse()?),
        },
    };
    if !same_group(a, b) {
        return Err(format!(
            "`{s}` is not a range Onyx accepts: a range stays on one slot, and subports stay on one port (`1/1-1/8`, `1/31/1-1/31/4`)"
        ));
    }
    if b < a {
        return Err(format!("`{s}` runs backwards; write `{b}-{a}`"));
    }
    Ok((a, b))
}

impl Serialize for Port {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A port written as text (`1/5`, `1/31/2`), as in the lab's fault files.
impl<'de> serde::Deserialize<'de> for Port {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Parses a port or an Onyx port range (`1/1-1/8`, `1/31/1-1/31/4`) into its ports, in order.
pub fn parse_port_range(s: &str) -> Result<Vec<Port>, String> {
    let (a, b) = parse_port_span(s)?;
    let mut out = vec![a];
    let mut cur = a;
    while cur != b {
        cur = match cur.sub {
            None => Port::new(cur.slot, cur.port + 1),
            Some(x) => Port::sub(cur.slot, cur.port, x + 1),
        };
        out.push(cur);
    }
    Ok(out)
}

/// Formats consecutive ports as one Onyx range: `1/1-1/8`, or `1/5` for a single port.
pub fn format_range(first: Port, last: Port) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}")
    }
}

/// Things Onyx lists in ranges: ports (`1/1-1/9`), port-channels (`1-9`).
pub trait Consecutive: Copy {
    /// True when `next` directly follows `self` inside one Onyx range.
    fn precedes(self, next: Self) -> bool;
}

impl Consecutive for Port {
    fn precedes(self, next: Port) -> bool {
        Port::precedes(self, next)
    }
}

/// Compresses `(item, value)` pairs, sorted, into Onyx ranges: consecutive items with equal
/// values become one `(first, last, value)` run, as `show running-config` prints them
/// (`interface ethernet 1/1-1/9 speed 40G force`). Runs never cross a split group.
pub fn compress<'a, K: Consecutive, T: PartialEq + 'a>(
    items: impl IntoIterator<Item = (K, &'a T)>,
) -> Vec<(K, K, &'a T)> {
    let mut runs: Vec<(K, K, &T)> = Vec::new();
    for (k, value) in items {
        if let Some(last) = runs.last_mut()
            && last.1.precedes(k)
            && last.2 == value
        {
            last.1 = k;
            continue;
        }
        runs.push((k, k, value));
    }
    runs
}

macro_rules! bounded_u8 {
    ($(#[$m:meta])* $name:ident, $max:expr, $what:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[serde(transparent)]
        pub struct $name(u8);

        impl $name {
            pub const MAX: u8 = $max;

            pub fn new(v: i64) -> Result<Self, String> {
                if (0..=i64::from($max)).contains(&v) {
                    Ok($name(v as u8))
                } else {
                    Err(format!(concat!($what, " {} is out of range 0-{}"), v, $max))
                }
            }

            pub fn get(self) -> u8 {
                self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

bounded_u8!(
    /// A switch priority (0-7): what Onyx buffers and pauses by.
    Priority,
    7,
    "switch priority"
);
bounded_u8!(
    /// A traffic class (0-7): what Onyx schedules (ETS) and marks (ECN) by.
    TrafficClass,
    7,
    "traffic class"
);
bounded_u8!(
    /// A DSCP value (0-63).
    Dscp,
    63,
    "DSCP"
);

impl TrafficClass {
    /// The eight classes, in order.
    pub const ALL: [TrafficClass; 8] = [
        TrafficClass(0),
        TrafficClass(1),
        TrafficClass(2),
        TrafficClass(3),
        TrafficClass(4),
        TrafficClass(5),
        TrafficClass(6),
        TrafficClass(7),
    ];
}

/// A setting per traffic class (ECN, ETS), at most one for each of the eight, in class order:
/// the interface of a map, held inline. Every port has one for ECN and one for ETS, so a map
/// that allocates was most of the memory of a fabric of 10,000 switches.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TcMap<T>([Option<T>; 8]);

impl<T: Copy> Default for TcMap<T> {
    fn default() -> Self {
        TcMap([None; 8])
    }
}

impl<T: Copy> TcMap<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn get(&self, tc: &TrafficClass) -> Option<&T> {
        self.0[usize::from(tc.0)].as_ref()
    }

    /// Sets the class's value; the one it had, if any.
    pub fn insert(&mut self, tc: TrafficClass, v: T) -> Option<T> {
        self.0[usize::from(tc.0)].replace(v)
    }

    pub fn remove(&mut self, tc: &TrafficClass) -> Option<T> {
        self.0[usize::from(tc.0)].take()
    }

    pub fn contains_key(&self, tc: &TrafficClass) -> bool {
        self.get(tc).is_some()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(Option::is_none)
    }

    pub fn len(&self) -> usize {
        self.0.iter().flatten().count()
    }

    /// The classes with a value and their values, in class order.
    pub fn iter(&self) -> TcIter<'_, T> {
        TcIter { map: self, next: 0 }
    }

    pub fn keys(&self) -> impl Iterator<Item = &TrafficClass> + '_ {
        self.iter().map(|(tc, _)| tc)
    }

    pub fn values(&self) -> impl Iterator<Item = &T> + '_ {
        self.iter().map(|(_, v)| v)
    }
}

/// `map[&tc]`, as a map: panics when the class has no value.
impl<T: Copy> std::ops::Index<&TrafficClass> for TcMap<T> {
    type Output = T;

    fn index(&self, tc: &TrafficClass) -> &T {
        self.get(tc).expect("no value for this traffic class")
    }
}

/// [`TcMap::iter`].
#[derive(Clone)]
pub struct TcIter<'a, T> {
    map: &'a TcMap<T>,
    next: usize,
}

impl<'a, T> Iterator for TcIter<'a, T> {
    type Item = (&'a TrafficClass, &'a T);

    fn next(&mut self) -> Option<Self::Item> {
        while let Some(slot) = self.map.0.get(self.next) {
            let tc = &TrafficClass::ALL[self.next];
            self.next += 1;
            if let Some(v) = slot {
                return Some((tc, v));
            }
        }
        None
    }
}

impl<'a, T: Copy> IntoIterator for &'a TcMap<T> {
    type Item = (&'a TrafficClass, &'a T);
    type IntoIter = TcIter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy> Extend<(TrafficClass, T)> for TcMap<T> {
    fn extend<I: IntoIterator<Item = (TrafficClass, T)>>(&mut self, iter: I) {
        for (tc, v) in iter {
            self.insert(tc, v);
        }
    }
}

impl<T: Copy> FromIterator<(TrafficClass, T)> for TcMap<T> {
    fn from_iter<I: IntoIterator<Item = (TrafficClass, T)>>(iter: I) -> Self {
        let mut m = TcMap::new();
        m.extend(iter);
        m
    }
}

impl<T: Copy + fmt::Debug> fmt::Debug for TcMap<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// As a map of the classes that have a value, like the map it replaces.
impl<T: Copy + Serialize> Serialize for TcMap<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl Dscp {
    /// The switch priority Onyx assigns this DSCP with its default map under `qos trust L3`:
    /// DSCP / 8 (26 → 3, 48 → 6), per `show qos interface ethernet 1/1 | json-print`.
    pub fn default_priority(self) -> Priority {
        Priority(self.0 / 8)
    }
}

/// A VLAN id, 1-4094.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Vlan(u16);

impl Vlan {
    /// VLAN 1, the default VLAN every switch has.
    pub const DEFAULT: Vlan = Vlan(1);

    pub fn new(v: i64) -> Result<Self, String> {
        if (1..=4094).contains(&v) {
            Ok(Vlan(v as u16))
        } else {
            Err(format!("VLAN {v} is out of range 1-4094"))
        }
    }

    pub fn get(self) -> u16 {
        self.0
    }

    /// The ids from `self` to `last`, both included (`10-12`: 10, 11, 12).
    pub fn through(self, last: Vlan) -> impl Iterator<Item = Vlan> {
        (self.0..=last.0).map(Vlan)
    }
}

impl fmt::Display for Vlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A set of VLAN ids, one bit per id, as a switch keeps a port's VLAN membership: adding one
/// VLAN is one bit (a hybrid port's running-config has a line per VLAN). Iterates in
/// ascending order; serialized as the list of ids.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct VlanSet {
    /// Bit `v % 64` of word `v / 64` is VLAN `v`. No trailing zero words, so equal sets are
    /// equal vectors.
    words: Vec<u64>,
}

impl VlanSet {
    pub fn new() -> Self {
        VlanSet::default()
    }

    pub fn insert(&mut self, v: Vlan) {
        let (w, bit) = (usize::from(v.0 / 64), v.0 % 64);
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << bit;
    }

    pub fn remove(&mut self, v: Vlan) {
        if let Some(word) = self.words.get_mut(usize::from(v.0 / 64)) {
            *word &= !(1 << (v.0 % 64));
            self.trim();
        }
    }

    pub fn contains(&self, v: Vlan) -> bool {
        self.words
            .get(usize::from(v.0 / 64))
            .is_some_and(|w| w & (1 << (v.0 % 64)) != 0)
    }

    pub fn clear(&mut self) {
        self.words.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The ids in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = Vlan> + '_ {
        Self::ids(self.words.iter().copied())
    }

    /// The ids in `self` and not in `other`, ascending.
    pub fn difference<'a>(&'a self, other: &'a VlanSet) -> impl Iterator<Item = Vlan> + 'a {
        let theirs = other.words.iter().copied().chain(std::iter::repeat(0));
        Self::ids(self.words.iter().zip(theirs).map(|(a, b)| a & !b))
    }

    fn ids(words: impl Iterator<Item = u64>) -> impl Iterator<Item = Vlan> {
        words.enumerate().flat_map(|(i, mut w)| {
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as u16;
                    w &= w - 1;
                    Vlan(i as u16 * 64 + bit)
                })
            })
        })
    }

    fn trim(&mut self) {
        while self.words.last() == Some(&0) {
            self.words.pop();
        }
    }
}

impl Extend<Vlan> for VlanSet {
    fn extend<I: IntoIterator<Item = Vlan>>(&mut self, ids: I) {
        for v in ids {
            self.insert(v);
        }
    }
}

impl FromIterator<Vlan> for VlanSet {
    fn from_iter<I: IntoIterator<Item = Vlan>>(ids: I) -> Self {
        let mut s = VlanSet::new();
        s.extend(ids);
        s
    }
}

impl fmt::Debug for VlanSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Serialize for VlanSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Consecutive VLAN ids as `(first, last)` runs, in the order given (ids sorted).
pub fn vlan_runs(ids: impl IntoIterator<Item = Vlan>) -> Vec<(Vlan, Vlan)> {
    let mut out: Vec<(Vlan, Vlan)> = Vec::new();
    for v in ids {
        match out.last_mut() {
            Some(last) if last.1.get() + 1 == v.get() => last.1 = v,
            _ => out.push((v, v)),
        }
    }
    out
}

/// A VLAN run as Onyx writes it: `10-17`, or `10` alone.
pub fn format_vlan_run((a, b): (Vlan, Vlan)) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

/// A percentage 0-100 with at most two decimals, kept in hundredths so it compares exactly and
/// prints the way Onyx prints pool memory: `50.00`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Percent(u16);

impl Percent {
    pub fn from_f64(v: f64) -> Result<Self, String> {
        Percent::check(v).map_err(|e| e.to_string())
    }

    /// As [`Percent::from_f64`], saying which rule the number breaks.
    pub fn check(v: f64) -> Result<Self, PercentError> {
        if !v.is_finite() || !(0.0..=100.0).contains(&v) {
            return Err(PercentError::OutOfRange(v));
        }
        let hundredths = (v * 100.0).round();
        if (hundredths - v * 100.0).abs() > 1e-6 {
            return Err(PercentError::TooManyDecimals(v));
        }
        Ok(Percent(hundredths as u16))
    }

    pub fn hundredths(self) -> u16 {
        self.0
    }
}

impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

impl Serialize for Percent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Why a number is not a [`Percent`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PercentError {
    OutOfRange(f64),
    TooManyDecimals(f64),
}

impl PercentError {
    /// A short label for the value, under the caret.
    pub fn label(self) -> &'static str {
        match self {
            PercentError::OutOfRange(_) => "out of range",
            PercentError::TooManyDecimals(_) => "too many decimals",
        }
    }
}

impl fmt::Display for PercentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PercentError::OutOfRange(v) => write!(f, "{v} is not a percentage 0-100"),
            PercentError::TooManyDecimals(v) => {
                write!(f, "{v} has more than two decimals; Onyx keeps two")
            }
        }
    }
}

/// A switch hostname as Onyx accepts it: 1-63 letters, digits and hyphens, not starting or
/// ending with a hyphen (an RFC 1123 label).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Hostname(String);

impl Hostname {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for Hostname {
    type Err = Invalid;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const RULE: &str = "a hostname (an RFC 1123 label, on every switch OS) is 1-63 letters, digits and hyphens, not starting or ending with a hyphen";
        let shown = s.escape_debug();
        let len = s.chars().count();
        let bad: Vec<char> = s
            .chars()
            .filter(|c| !c.is_ascii_alphanumeric() && *c != '-')
            .fold(Vec::new(), |mut v, c| {
                if !v.contains(&c) {
                    v.push(c);
                }
                v
            });
        let problem = if s.is_empty() {
            "the switch name is empty".to_string()
        } else if !bad.is_empty() {
            let list: Vec<String> = bad.iter().map(|c| describe_char(*c)).collect();
            format!(
                "`{shown}` is not a valid hostname: it has {}",
                list.join(", ")
            )
        } else if len > 63 {
            format!("`{shown}` is not a valid hostname: it is {len} characters, at most 63")
        } else if s.starts_with('-') {
            format!("`{shown}` is not a valid hostname: it starts with a hyphen")
        } else if s.ends_with('-') {
            format!("`{shown}` is not a valid hostname: it ends with a hyphen")
        } else {
            return Ok(Hostname(s.to_string()));
        };
        // Offer the name with every other character turned into a hyphen, when that is valid.
        let fixed: String = s
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let help = if !bad.is_empty() && fixed != s && fixed.parse::<Hostname>().is_ok() {
            format!("rename it, e.g. `{fixed}`; {RULE}")
        } else {
            RULE.to_string()
        };
        Err(Invalid::new(problem).help(help))
    }
}

/// A character as a message names it: `` `_` ``, `a space`, `a line break`, `a tab`, or
/// `the control character U+001B` (never printed raw: it could drive the terminal).
pub fn describe_char(c: char) -> String {
    match c {
        '\n' | '\r' => "a line break".into(),
        '\t' => "a tab".into(),
        ' ' => "a space".into(),
        '`' => "a backtick".into(),
        c if c.is_control() || c.is_whitespace() => {
            format!("the control character U+{:04X}", c as u32)
        }
        c => format!("`{c}`"),
    }
}

/// A fabric's switches are keyed by hostname: looked up by a name as typed (`--switch leaf01`).
/// The derived order and equality are the inner string's, as `Borrow` requires.
impl std::borrow::Borrow<str> for Hostname {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Hostname {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The MTUs Onyx takes (`mtu N force`): the grammar's, the fabric validation's (E020) and
/// so the lab's. Ansible's mellanox.onyx validates 1500-9612, a typo of 9216 (`onyx-cli.md`
/// §a.8).
pub const MTU: std::ops::RangeInclusive<u16> = 1500..=9216;

/// An Onyx release, `3.6.8190`: ordered numerically so features can be gated by version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Release(pub u16, pub u16, pub u32);

impl Release {
    // The release gates: one table, read by the fabric validation (E034) and by the lab's
    // CLI (`onyx::Command::since`), which refuses a command its switch's release lacks.
    /// `roce` one-shot mode appeared in 3.8.2000 (NVIDIA Onyx manual, RoCE Commands).
    pub const ROCE_COMMAND: Release = Release(3, 8, 2000);
    /// `traffic pool` commands appeared in 3.6.5000 (Shared Buffer Commands).
    pub const TRAFFIC_POOLS: Release = Release(3, 6, 5000);
    /// From 3.9 the header gains `## Product release:` and strings print double-quoted.
    pub const HEADER_RELEASE: Release = Release(3, 9, 0);
}

impl FromStr for Release {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("`{s}` is not an Onyx release; write it as `3.9.3210`");
        let mut it = s.trim().split('.');
        let (Some(a), Some(b), Some(c), None) = (it.next(), it.next(), it.next(), it.next()) else {
            return Err(bad());
        };
        let digits =
            |t: &str| !t.is_empty() && t.len() <= 6 && t.bytes().all(|x| x.is_ascii_digit());
        if !(digits(a) && digits(b) && digits(c)) {
            return Err(bad());
        }
        Ok(Release(
            a.parse().map_err(|_| bad())?,
            b.parse().map_err(|_| bad())?,
            c.parse().map_err(|_| bad())?,
        ))
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

impl Serialize for Release {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A traffic pool name as Onyx takes it (`traffic pool NAME …`): 1-20 letters, digits, `-`
/// and `_`.
pub fn check_pool_name(s: &str) -> Result<(), Invalid> {
    const RULE: &str = "a traffic pool name is 1-20 letters, digits, `-` or `_`";
    let shown = s.escape_debug();
    let bad: Vec<String> = s
        .chars()
        .filter(|c| !c.is_ascii_alphanumeric() && *c != '-' && *c != '_')
        .map(describe_char)
        .fold(Vec::new(), |mut v, c| {
            if !v.contains(&c) {
                v.push(c);
            }
            v
        });
    let len = s.chars().count();
    let message = if s.is_empty() {
        "pool name is empty".to_string()
    } else if !bad.is_empty() {
        format!("pool name `{shown}` has {}", bad.join(", "))
    } else if len > 20 {
        format!("pool name `{shown}` is {len} characters, at most 20")
    } else {
        return Ok(());
    };
    Err(Invalid::new(message).help(RULE))
}

/// The current UTC date and time: (year, month, day, hour, minute, second).
pub fn utc_now() -> (i64, i64, i64, u64, u64, u64) {
    utc_at(std::time::SystemTime::now())
}

/// A time's UTC date and time: (year, month, day, hour, minute, second); a time before 1970
/// reads as 1970-01-01.
pub fn utc_at(time: std::time::SystemTime) -> (i64, i64, i64, u64, u64, u64) {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rest / 3600, rest / 60 % 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ports_parse_and_print() {
        assert_eq!("1/5".parse::<Port>().unwrap(), Port::new(1, 5));
        assert_eq!("1/31/2".parse::<Port>().unwrap().to_string(), "1/31/2");
        for bad in [
            "", "1", "1/", "a/b", "1/0", "0/1", "1/2/3/4", "1/+2", "1/31/0",
        ] {
            assert!(bad.parse::<Port>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ranges_expand_and_compress_back() {
        let ports = parse_port_range("1/1-1/8").unwrap();
        assert_eq!(ports.len(), 8);
        let sub = parse_port_range("1/31/1-1/31/4").unwrap();
        assert_eq!(sub.last().unwrap().to_string(), "1/31/4");
        assert!(parse_port_range("1/8-1/1").is_err());
        assert!(parse_port_range("1/30-1/31/2").is_err());
        assert!(parse_port_range("1/31/1-1/32/2").is_err());

        let v = 7u8;
        let w = 9u8;
        let mut items: Vec<(Port, &u8)> = ports.iter().map(|p| (*p, &v)).collect();
        items[4].1 = &w;
        items.extend(sub.iter().map(|p| (*p, &v)));
        let runs: Vec<String> = compress(items)
            .into_iter()
            .map(|(a, b, x)| format!("{} {x}", format_range(a, b)))
            .collect();
        assert_eq!(runs, ["1/1-1/4 7", "1/5 9", "1/6-1/8 7", "1/31/1-1/31/4 7"]);
    }

    #[test]
    fn percent_keeps_two_decimals() {
        assert_eq!(Percent::from_f64(50.0).unwrap().to_string(), "50.00");
        assert_eq!(Percent::from_f64(12.5).unwrap().to_string(), "12.50");
        assert!(Percent::from_f64(12.345).is_err());
        assert!(Percent::from_f64(100.5).is_err());
        assert!(Percent::from_f64(f64::NAN).is_err());
    }

    #[test]
    fn hostnames_and_releases() {
        assert!("swx-mld-1-2".parse::<Hostname>().is_ok());
        assert!("-a".parse::<Hostname>().is_err());
        assert!("a b".parse::<Hostname>().is_err());
        assert!("a".repeat(64).parse::<Hostname>().is_err());
        assert!("3.6.8190".parse::<Release>().unwrap() < Release::ROCE_COMMAND);
        assert!("3.9".parse::<Release>().is_err());
    }
}
