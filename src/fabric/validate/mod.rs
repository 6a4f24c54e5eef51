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
//! - E034 — `roce` mode with pools, or a feature the switch's release lacks
//! - E035 — ECN minimum above maximum
//! - E036 — ECN thresholds incomplete or mixed
//! - E037 — a switch priority listed twice in one list (a pool's, or PFC's)
//! - E040 — port does not exist on the model
//! - E041 — subport of a port not split that way, or a split port configured itself
//! - E042 — split the port cannot do
//! - E043 — two entries give one port different values
//! - E044 — one port claimed by two peers
//! - E045 — speed above the port's native speed
//! - E046 — port taken by a neighbour's 4-way split
//! - E047 — peer pattern malformed or not matching the number of ports
//! - E050 — malformed link end, or a link to an unknown switch
//! - E051 — link ends disagree on speed, MTU, PFC or trust
//! - E052 — link ends of different lengths, or a link to itself
//! - E060 — VLAN id declared twice
//! - E061 — VLAN name used twice
//! - E062 — access VLAN (or a VLAN of a port's `vlans`) not declared
//! - E064 — `vlans` on a port in access mode
//! - E063 — unknown profile
//! - E070 — two switches with the same name
//! - W001 — profile not used
//! - W002 — per-port PFC without global PFC
//! - W003 — the RoCE DSCP lands on a priority no lossless pool holds
//! - W004 — one description for a range of ports
//! - W005 — switches joined at L2 without a spanning-tree policy (`l2`)

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Display;
use std::rc::Rc;

use super::load::span;
use super::raw::{Entries, RawEcn, RawEts, RawFabric, RawPort, RawQos, RawSettings, Sp};
use super::{Fabric, Mgmt, Peer, Pfc, Pool, PortSettings, Qos, Switch};
use crate::diag::{Diagnostic, FileId, Span};
use crate::types::{
    Dscp, Ecn, EcnMode, EcnThresholds, Ets, Hostname, Invalid, Model, Percent, PoolType, Port,
    Priority, Release, RoceMode, Speed, Split, SwitchportMode, TcMap, TrafficClass, Trust, Vlan,
    check_pool_name, choose, cli_text, describe_char, did_you_mean, parse_port_range,
};

/// A value and where it was written.
type At<T> = (T, Span);

/// Two ports cabled together, each with its switch, where each end is written, and the
/// index of the link in the file's `links`.
type LinkPair = ((String, Port), (String, Port), Span, Span, usize);

mod bundles;
mod hosts;
mod l2;
mod links;
mod mlag;
mod network;
mod underlay;

/// A switch being validated: the switch so far, what each port-map entry and link end says
/// about its ports, and what a routed or bundled port says besides its settings.
struct Pending {
    switch: Switch,
    claims: BTreeMap<Port, Vec<Claim>>,
    /// Ports taken by a neighbour's 4-way split, and where that split is written.
    disabled: BTreeMap<Port, Span>,
    /// A routed host port's address, and the bundle a port joins, from the port map.
    addresses: BTreeMap<Port, At<crate::types::Ipv4Net>>,
    bundles: BTreeMap<Port, At<super::Bundle>>,
    /// The switch's index in the file's `switches`.
    index: usize,
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
                pick(stringify!($f), &mut self.$f, &other.$f, conflicts);
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

struct Cx {
    file: FileId,
    diags: Vec<Diagnostic>,
}

impl Cx {
    fn span<T>(&self, v: &Sp<T>) -> Span {
        span(self.file, v)
    }

    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    fn error(
        &mut self,
        code: &'static str,
        msg: impl Into<String>,
        at: Span,
        label: impl Into<String>,
    ) {
        self.diags.push(Diagnostic::error(code, msg).at(at, label));
    }

    /// An integer checked by `f`; out of range → E020 at the value.
    fn int<T>(&mut self, v: &Sp<i64>, f: impl Fn(i64) -> Result<T, String>) -> Option<T> {
        let at = self.span(v);
        self.check(*v.get(), at, f)
    }

    fn check<T>(&mut self, v: i64, at: Span, f: impl Fn(i64) -> Result<T, String>) -> Option<T> {
        match f(v) {
            Ok(x) => Some(x),
            Err(msg) => {
                self.error("E020", msg, at, "out of range");
                None
            }
        }
    }

    /// A refusal from a value type, with its help line when it has one.
    fn invalid(&mut self, code: &'static str, e: Invalid, at: Span, label: &str) {
        let mut d = Diagnostic::error(code, e.message).at(at, label);
        if let Some(help) = e.help {
            d = d.help(help);
        }
        self.push(d);
    }

    /// A word parsed by `f`; unknown → E021 at the value, "did you mean" as help.
    fn word<T>(&mut self, v: &Sp<String>, f: impl Fn(&str) -> Result<T, Invalid>) -> Option<T> {
        match f(v.get()) {
            Ok(x) => Some(x),
            Err(e) => {
                let at = self.span(v);
                self.invalid("E021", e, at, "not recognised");
                None
            }
        }
    }

    /// Text printed into a CLI line; unsafe → E024.
    fn text(&mut self, v: &Sp<String>, what: &str, max: usize) -> Option<String> {
        match cli_text::check(v.get(), max) {
            Ok(()) => Some(v.get().clone()),
            Err(e) => {
                let at = self.span(v);
                let e = Invalid {
                    message: format!("{what} {}", e.message),
                    ..e
                };
                self.invalid("E024", e, at, "refused");
                None
            }
        }
    }

    /// A token with a fixed alphabet (license keys, certificate IDs, user names).
    fn token(
        &mut self,
        v: &Sp<String>,
        what: &str,
        ok: impl Fn(char) -> bool,
        hint: &str,
    ) -> Option<String> {
        let s = v.get();
        let len = s.chars().count();
        let message = match s.chars().find(|c| !ok(*c)) {
            _ if s.is_empty() => format!("{what} is empty"),
            // A control character is named, never printed: it could drive the terminal.
            Some(c) if c.is_control() => format!("{what} contains {}", describe_char(c)),
            Some(c) => format!(
                "`{}` is not a valid {what}: it has {}",
                s.escape_debug(),
                describe_char(c)
            ),
            None if len > 256 => format!("{what} is {len} characters, at most 256"),
            None => return Some(s.clone()),
        };
        let at = self.span(v);
        self.push(
            Diagnostic::error("E024", message)
                .at(at, "refused")
                .help(hint.to_string()),
        );
        None
    }

    /// The span of a whole list: a flow list `[3, 4]` is located at its `[` alone, so the
    /// span runs from there to just past the last item (the `]` when written `[3, 4]`); a
    /// block list runs from its first `-` to the end of its last item.
    fn list_span<T>(&self, list: &Sp<Vec<Sp<T>>>) -> Span {
        let at = self.span(list);
        match list.get().last() {
            Some(last) => {
                let end = self.span(last).end;
                let flow = at.end == at.start + 1;
                Span {
                    end: if flow { end + 1 } else { end }.max(at.end),
                    ..at
                }
            }
            None => at,
        }
    }

    /// A list of switch priorities, each in range (E020) and written once (E037).
    fn priorities(&mut self, list: &Sp<Vec<Sp<i64>>>) -> Vec<At<Priority>> {
        let mut out: Vec<At<Priority>> = Vec::new();
        for p in list.get() {
            let Some(pr) = self.int(p, Priority::new) else {
                continue;
            };
            let at = self.span(p);
            if let Some((_, first)) = out.iter().find(|(q, _)| *q == pr) {
                let first = *first;
                self.push(
                    Diagnostic::error("E037", format!("switch priority {pr} is listed twice"))
                        .at(at, "listed again here")
                        .also(first, "first listed here")
                        .help("list each priority once; was another priority meant?"),
                );
                continue;
            }
            out.push((pr, at));
        }
        out
    }

    fn ecn(&mut self, e: &RawEcn, key: Span) -> Option<Ecn> {
        let mode = match &e.mode {
            Some(m) => self.word(m, EcnMode::parse)?,
            None => EcnMode::Ecn,
        };
        let thresholds = match (&e.min, &e.max, &e.min_percent, &e.max_percent) {
            (Some(min), Some(max), None, None) => {
                let lo = self.int(min, kb)?;
                let hi = self.int(max, kb)?;
                if lo > hi {
                    let (a, b) = (self.span(min), self.span(max));
                    self.push(
                        Diagnostic::error(
                            "E035",
                            format!("ECN minimum {lo} KB is above the maximum {hi} KB"),
                        )
                        .at(a, "minimum")
                        .also(b, "maximum")
                        .help("the minimum threshold must not exceed the maximum"),
                    );
                    return None;
                }
                EcnThresholds::Absolute { min: lo, max: hi }
            }
            (None, None, Some(min), Some(max)) => {
                let pct = |v: i64| within(v, EcnThresholds::PERCENT, "ECN threshold", "%");
                let lo = self.int(min, pct)?;
                let hi = self.int(max, pct)?;
                if lo > hi {
                    let (a, b) = (self.span(min), self.span(max));
                    self.push(
                        Diagnostic::error(
                            "E035",
                            format!("ECN minimum {lo}% is above the maximum {hi}%"),
                        )
                        .at(a, "minimum")
                        .also(b, "maximum")
                        .help("the minimum threshold must not exceed the maximum"),
                    );
                    return None;
                }
                EcnThresholds::Relative { min: lo, max: hi }
            }
            (min, max, min_percent, max_percent) => {
                let d = if (min.is_some() || max.is_some())
                    && (min_percent.is_some() || max_percent.is_some())
                {
                    Diagnostic::error("E036", "ECN mixes absolute and relative thresholds")
                        .at(key, "this traffic class")
                        .help("write `min` and `max` (KB), or `min_percent` and `max_percent`, not both")
                } else if let Some((given, missing)) = [
                    (min, "min", "max"),
                    (max, "max", "min"),
                    (min_percent, "min_percent", "max_percent"),
                    (max_percent, "max_percent", "min_percent"),
                ]
                .iter()
                .find_map(|(v, name, other)| v.as_ref().map(|_| (*name, *other)))
                {
                    Diagnostic::error("E036", format!("ECN has `{given}` but no `{missing}`"))
                        .at(key, "this traffic class")
                        .help(format!("add `{missing}`: ECN needs both thresholds"))
                } else {
                    Diagnostic::error("E036", "ECN needs both thresholds, absolute or relative")
                        .at(key, "this traffic class")
                        .help("write `min` and `max` (KB), or `min_percent` and `max_percent`")
                };
                self.push(d);
                return None;
            }
        };
        Some(Ecn { mode, thresholds })
    }

    fn layer(&mut self, s: &RawSettings) -> Layer {
        let mut l = Layer::default();
        macro_rules! at {
            ($v:expr, $x:expr) => {
                $x.map(|x| (x, self.span($v)))
            };
        }
        if let Some(v) = &s.speed {
            l.speed = at!(v, self.word(v, Speed::parse));
        }
        if let Some(v) = &s.mtu {
            l.mtu = at!(v, self.int(v, |m| within(m, crate::types::MTU, "MTU", "")));
        }
        if let Some(v) = &s.admin {
            l.shutdown = at!(
                v,
                self.word(v, |w| choose(
                    w,
                    &[("up", false), ("down", true)],
                    "admin state"
                ))
            );
        }
        if let Some(v) = &s.switchport {
            l.switchport = at!(v, self.word(v, SwitchportMode::parse));
        }
        if let Some(v) = &s.vlan {
            l.vlan = at!(v, self.int(v, Vlan::new));
        }
        if let Some(list) = &s.vlans {
            let ids: Vec<Option<(Vlan, Span)>> = list
                .get()
                .iter()
                .map(|v| self.int(v, Vlan::new).map(|id| (id, self.span(v))))
                .collect();
            if ids.iter().all(Option::is_some) {
                l.vlans = Some((
                    VlanList(ids.into_iter().flatten().collect()),
                    self.span(list),
                ));
            }
        }
        if let Some(v) = &s.trust {
            l.trust = at!(v, self.word(v, Trust::parse));
        }
        if let Some(v) = &s.pfc {
            l.pfc = Some((*v.get(), self.span(v)));
        }
        if let Some(v) = &s.auto_description {
            l.auto_description = Some((*v.get(), self.span(v)));
        }
        for (tc, e) in s.ecn.iter().flat_map(|m| m.0.iter()) {
            let at = self.span(tc);
            if let (Some(t), Some(x)) = (self.int(tc, TrafficClass::new), self.ecn(e, at)) {
                l.ecn.insert(t, (x, at));
            }
        }
        for (tc, e) in s.ets.iter().flat_map(|m| m.0.iter()) {
            let t = self.int(tc, TrafficClass::new);
            let at = self.span(e);
            let x = match e.get() {
                RawEts::Strict => Some(Ets::Strict),
                RawEts::Wrr(w) => self.check(*w, at, |w| {
                    if (1..=100).contains(&w) {
                        Ok(Ets::Wrr(w as u8))
                    } else {
                        Err(format!("WRR weight {w} is out of range 1-100"))
                    }
                }),
                RawEts::Other(w) => {
                    let e = Invalid::new(format!(
                        "`{}` is not an ETS setting; expected `strict` or a WRR weight 1-100",
                        w.escape_debug()
                    ));
                    let e = match did_you_mean(w, ["strict"]) {
                        Some(best) => e.help(format!("did you mean `{best}`?")),
                        None => e,
                    };
                    self.invalid("E021", e, at, "not recognised");
                    None
                }
            };
            if let (Some(t), Some(x)) = (t, x) {
                l.ets.insert(t, (x, at));
            }
        }
        l
    }
}

fn kb(v: i64) -> Result<u32, String> {
    within(v, EcnThresholds::KB, "ECN threshold", " KB")
}

/// `v` when it lies in `range` (one of the limits `types` shares with the lab's switches),
/// else why not: `MTU 99999 is out of range 1500-9216`.
fn within<T>(
    v: i64,
    range: std::ops::RangeInclusive<T>,
    what: &str,
    unit: &str,
) -> Result<T, String>
where
    T: TryFrom<i64> + PartialOrd + Display,
{
    match T::try_from(v) {
        Ok(x) if range.contains(&x) => Ok(x),
        _ => Err(format!(
            "{what} {v}{unit} is out of range {}-{}",
            range.start(),
            range.end()
        )),
    }
}

/// Expands `clx-mld-{41..48}` into `clx-mld-41` … `clx-mld-48` (zero padding kept, as in
/// `gpu{001..128}`); text without a pattern is returned as is.
fn expand_pattern(s: &str) -> Result<Vec<String>, String> {
    let Some(open) = s.find('{') else {
        return Ok(vec![s.to_string()]);
    };
    let close = s[open..]
        .find('}')
        .map(|i| open + i)
        .ok_or_else(|| format!("`{s}` opens `{{` without closing it"))?;
    let inner = &s[open + 1..close];
    let (a, b) = inner
        .split_once("..")
        .ok_or_else(|| format!("`{s}`: a pattern is `{{FIRST..LAST}}`, e.g. `gpu{{01..16}}`"))?;
    let (x, y): (u32, u32) = match (a.parse(), b.parse()) {
        (Ok(x), Ok(y)) if x <= y && y - x < 4096 => (x, y),
        _ => {
            return Err(format!(
                "`{s}`: `{{{inner}}}` is not an increasing range of numbers"
            ));
        }
    };
    let width = if a.starts_with('0') && a.len() > 1 {
        a.len()
    } else {
        0
    };
    let (pre, post) = (&s[..open], &s[close + 1..]);
    if post.contains('{') {
        return Err(format!("`{s}` has more than one pattern"));
    }
    Ok((x..=y).map(|n| format!("{pre}{n:0width$}{post}")).collect())
}

/// Fabric-wide and per-switch QoS merged: each key the switch gives replaces the fabric's.
fn merged_qos<'a>(fabric: Option<&'a RawQos>, switch: Option<&'a RawQos>) -> RawQos {
    let mut q = fabric.cloned().unwrap_or_default();
    if let Some(s) = switch {
        if s.roce.is_some() {
            q.roce = s.roce.clone();
        }
        if s.pools.is_some() {
            q.pools = s.pools.clone();
        }
        if s.pfc.is_some() {
            q.pfc = s.pfc.clone();
        }
        if s.dscp.is_some() {
            q.dscp = s.dscp.clone();
        }
    }
    q
}

/// Validates a parsed fabric. Returns the fabric when there is no error, and every diagnostic
/// (errors and warnings) either way.
pub fn validate(raw: &RawFabric, file: FileId) -> (Option<Fabric>, Vec<Diagnostic>) {
    let mut cx = Cx {
        file,
        diags: Vec::new(),
    };

    let fabric_release = raw.onyx.as_ref().and_then(|v| release(&mut cx, v));

    // VLANs.
    let mut vlans: BTreeMap<Vlan, (Option<String>, Span)> = BTreeMap::new();
    let mut vlan_names: BTreeMap<String, Span> = BTreeMap::new();
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
            let name = cx.text(n, "VLAN name", 32)?;
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
        let model = cx.word(&sw.model, Model::find);
        let release = match &sw.onyx {
            Some(v) => release(&mut cx, v),
            None => fabric_release,
        };
        let mgmt = sw.mgmt.as_ref().and_then(|m| {
            let host = cx.token(
                &m.host,
                "management host",
                |c| c.is_ascii_alphanumeric() || ".-:_[]".contains(c),
                "write a hostname or an IP address",
            );
            let port = match &m.port {
                Some(p) => cx.int(p, |v| {
                    u16::try_from(v)
                        .ok()
                        .filter(|v| *v > 0)
                        .ok_or_else(|| format!("SSH port {v} is out of range 1-65535"))
                }),
                None => Some(22),
            };
            let user = match &m.user {
                Some(u) => cx.token(
                    u,
                    "user name",
                    |c| c.is_ascii_alphanumeric() || "._-".contains(c),
                    "a user name is letters, digits, `.`, `_` and `-`",
                ),
                None => Some("admin".to_string()),
            };
            Some(Mgmt {
                host: host?,
                port: port?,
                user: user?,
            })
        });
        let licenses: Vec<String> = sw
            .licenses
            .iter()
            .flatten()
            .filter_map(|l| {
                cx.token(
                    l,
                    "license key",
                    |c| c.is_ascii_alphanumeric() || c == '-' || c == '_',
                    "a license key is letters, digits, `-` and `_`",
                )
            })
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
        let qos = qos(
            &mut cx,
            &merged_qos(raw.qos.as_ref(), sw.qos.as_ref()),
            release,
        );

        let set_hostname = sw.set_hostname.as_ref().is_none_or(|v| *v.get());
        let extra = extra(&mut cx, sw.extra.as_ref());

        let Some(model) = model else { continue };
        let mut p = Pending {
            switch: Switch {
                hostname: hostname.clone(),
                model,
                release: release.map(|r| r.0),
                mgmt,
                licenses,
                certificate,
                lldp,
                qos,
                vlans: vlans.iter().map(|(k, (n, _))| (*k, n.clone())).collect(),
                splits: BTreeMap::new(),
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
            bundles: BTreeMap::new(),
            index,
        };
        hosts::switch_vlans(&mut cx, sw, &vlans, &mut p.switch);
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
            let Ok(ports) = parse_port_range(key.get()) else {
                continue;
            };
            let at = cx.span(key);
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
            if !subports.is_empty() {
                cx.error(
                    "E042",
                    format!("sub{} cannot be split again", describe_ports(&subports)),
                    at,
                    "split of a subport",
                );
            }
            for (why, ports) in refused {
                cx.error(
                    "E042",
                    format!(
                        "{} of {} cannot split {} ways: {why}",
                        describe_ports(&ports),
                        model.name,
                        split.ways()
                    ),
                    cx.span(ways),
                    "split not possible",
                );
            }
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
            let ports = match parse_port_range(key.get()) {
                Ok(ps) => ps,
                Err(msg) => {
                    cx.error("E025", msg, at, "not a port or range");
                    continue;
                }
            };
            let settings = entry.settings();
            let has_settings = settings != RawSettings::default()
                || entry.profile.is_some()
                || entry.peer.is_some()
                || entry.description.is_some()
                || entry.address.is_some()
                || entry.mlag.is_some()
                || entry.lag.is_some();
            // A split-only entry had its split checked in pass 1, lanes taken included.
            let split_only = entry.split.is_some() && !has_settings;
            let none = BTreeMap::new();
            let disabled = if split_only { &none } else { &p.disabled };
            let usable = check_ports(&mut cx, &p.switch, disabled, &ports, at, split_only);
            if !usable || !has_settings {
                continue;
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
                layer.description = cx.text(d, "description", 64).map(|t| (t, cx.span(d)));
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
                if let Some(p) = pending.get(sw.as_str()) {
                    let (switch, disabled) = (&p.switch, &p.disabled);
                    ok &= check_ports(&mut cx, switch, disabled, &[port], at, false);
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
            let stack = [entry, profile_layer, &defaults];
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
                        sw.model.name
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
                    .help("add `qos: { pfc: { priorities: [3] } }` so the switch sends and honours pause frames");
                group(d, String::new(), port);
            }
            let mtu = first!(mtu);
            let trust = first!(trust);
            let auto = first!(auto_description).is_none_or(|(a, _)| *a);
            let description = match first!(description) {
                Some((d, _)) => Some(d.clone()),
                // The description made from the peer follows the rule of any description.
                None if auto => peer.and_then(|(p, at)| {
                    let d = p.description();
                    match cli_text::check(&d, 64) {
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
                // What the port runs with, defaults included: native speed, MTU 1500 and
                // trust L2 are Onyx's defaults (Ethernet Interface and QoS Commands).
                ends.insert(
                    (name.clone(), port),
                    LinkEnd {
                        speed: (
                            speed
                                .map(|x| x.0)
                                .or(native)
                                .map_or("unknown".into(), |s| s.to_string()),
                            speed.map(|x| x.1),
                        ),
                        mtu: (mtu.map_or(1500, |x| x.0).to_string(), mtu.map(|x| x.1)),
                        pfc: (
                            if pfc.is_some_and(|x| x.0) {
                                "on"
                            } else {
                                "off"
                            }
                            .to_string(),
                            pfc.map(|x| x.1),
                        ),
                        trust: (
                            trust.map_or(Trust::L2, |x| x.0).to_string(),
                            trust.map(|x| x.1),
                        ),
                    },
                );
            }
            sw.ports.insert(
                port,
                PortSettings {
                    speed: speed.map(|x| x.0),
                    mtu: mtu.map(|x| x.0),
                    shutdown: first!(shutdown).is_some_and(|x| x.0),
                    switchport,
                    vlan: vlan.map(|x| x.0),
                    trust: trust.map(|x| x.0),
                    ecn,
                    ets,
                    pfc: pfc.is_some_and(|x| x.0),
                    description,
                    peer: peer.map(|x| x.0.clone()),
                    address: None,
                    bundle: None,
                    trunk: vlans.map(|x| x.0.0.keys().copied().collect()),
                },
            );
        }
        for (_, (mut d, ports)) in grouped {
            d.message = d.message.replace("{ports}", &describe_ports(&ports));
            cx.push(d);
        }
    }

    // Both ends of every link agree on what must match, defaults included.
    for ((sa, pa), (sb, pb), at_a, at_b, _) in &link_pairs {
        let (Some(a), Some(b)) = (ends.get(&(sa.clone(), *pa)), ends.get(&(sb.clone(), *pb)))
        else {
            continue;
        };
        for (what, (va, wa), (vb, wb)) in [
            ("speed", &a.speed, &b.speed),
            ("mtu", &a.mtu, &b.mtu),
            ("pfc", &a.pfc, &b.pfc),
            ("trust", &a.trust, &b.trust),
        ] {
            if va == vb {
                continue;
            }
            let mut d = Diagnostic::error(
                "E051",
                format!(
                    "link ends disagree on `{what}`: `{sa}` {pa} has {va}, `{sb}` {pb} has {vb}"
                ),
            )
            .at(*at_a, format!("{sa}:{pa}"))
            .also(*at_b, format!("{sb}:{pb}"));
            let show = |w: &Option<Span>, who: &str, v: &str| {
                w.map(|s| (s, format!("{who} gets {v} here")))
            };
            for (s, label) in [
                show(wa, &format!("{sa}:{pa}"), va),
                show(wb, &format!("{sb}:{pb}"), vb),
            ]
            .into_iter()
            .flatten()
            {
                d = d.also(s, label);
            }
            cx.push(d.help("give both ends the same profile, or set the value at both ends"));
        }
    }

    network::resolve(&mut cx, raw, &mut pending, &link_pairs, &names);

    for (name, (_, at)) in &profiles {
        if !used_profiles.contains(name) {
            cx.push(
                Diagnostic::warning("W001", format!("profile `{name}` is not used by any port"))
                    .at(*at, "declared here"),
            );
        }
    }

    let fabric = Fabric {
        switches: pending
            .into_values()
            .map(|p| (p.switch.hostname.clone(), p.switch))
            .collect(),
    };
    cx.diags.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    cx.diags.dedup();
    let ok = !cx.diags.iter().any(Diagnostic::is_error);
    (ok.then_some(fabric), cx.diags)
}

/// What one end of a link runs with, as text for messages, and where the user set it.
struct LinkEnd {
    speed: (String, Option<Span>),
    mtu: (String, Option<Span>),
    pfc: (String, Option<Span>),
    trust: (String, Option<Span>),
}

/// `port 1/5`, or `ports 1/1-1/8, 1/10` for several.
fn describe_ports(ports: &[Port]) -> String {
    let unit = ();
    let runs = crate::types::compress(ports.iter().map(|p| (*p, &unit)));
    let list: Vec<String> = runs
        .iter()
        .map(|(a, b, _)| crate::types::format_range(*a, *b))
        .collect();
    if ports.len() == 1 {
        format!("port {}", list[0])
    } else {
        format!("ports {}", list.join(", "))
    }
}

/// An Onyx release; malformed → E023.
fn release(cx: &mut Cx, v: &Sp<String>) -> Option<At<Release>> {
    let at = cx.span(v);
    match v.get().parse::<Release>() {
        Ok(r) => Some((r, at)),
        Err(msg) => {
            cx.error("E023", msg, at, "not a release");
            None
        }
    }
}

/// Checks the ports of an entry or link end against the switch: they exist, subports belong
/// to a port split that way, a split parent is only split (not configured), ports disabled by
/// a neighbour's 4-way split are not used. One diagnostic per kind of problem, listing the
/// ports. True when every port is usable.
fn check_ports(
    cx: &mut Cx,
    sw: &Switch,
    disabled: &BTreeMap<Port, Span>,
    ports: &[Port],
    at: Span,
    split_only: bool,
) -> bool {
    let (mut missing, mut unusable, mut no_sub, mut unsplit, mut parent) =
        (vec![], vec![], vec![], vec![], vec![]);
    let mut taken_at = None;
    for &port in ports {
        let p = port.parent();
        if !sw.model.has_port(p) {
            missing.push(port);
        } else if let Some(s) = disabled.get(&p) {
            taken_at = Some(*s);
            unusable.push(port);
        } else {
            match (port.sub, sw.splits.get(&p)) {
                (Some(sub), Some(split)) if sub > split.ways() => no_sub.push(port),
                (Some(_), None) => unsplit.push(port),
                (None, Some(_)) if !split_only => parent.push(port),
                _ => {}
            }
        }
    }
    let (name, model) = (&sw.hostname, sw.model.name);
    if !missing.is_empty() {
        cx.push(
            Diagnostic::error(
                "E040",
                format!("{model} `{name}` has no {}", describe_ports(&missing)),
            )
            .at(at, "no such port")
            .help(format!(
                "{model} has ports 1/1 to 1/{}",
                sw.model.port_count()
            )),
        );
    }
    if let Some(split) = taken_at {
        cx.push(
            Diagnostic::error(
                "E046",
                format!(
                    "a 4-way split takes the lanes of {} of `{name}`",
                    describe_ports(&unusable)
                ),
            )
            .at(at, "unusable port")
            .also(split, "4-way split here"),
        );
    }
    if let Some(first) = no_sub.first() {
        let ways = sw.splits.get(&first.parent()).map_or(0, |s| s.ways());
        cx.push(
            Diagnostic::error(
                "E041",
                format!(
                    "`{name}` has no {}: port {} is split {ways} ways",
                    describe_ports(&no_sub),
                    first.parent()
                ),
            )
            .at(at, "no such subport"),
        );
    }
    if let Some(first) = unsplit.first() {
        cx.push(
            Diagnostic::error(
                "E041",
                format!(
                    "port {} of `{name}` must be split to use {}",
                    first.parent(),
                    describe_ports(&unsplit)
                ),
            )
            .at(at, "subport of a port that is not split")
            .help(format!(
                "add `{}: {{ split: 4 }}` (or 2) to the port map",
                first.parent()
            )),
        );
    }
    if let Some(first) = parent.first() {
        cx.push(
            Diagnostic::error(
                "E041",
                format!(
                    "split {} of `{name}` cannot be configured itself; configure its subports",
                    describe_ports(&parent)
                ),
            )
            .at(at, "split port")
            .help(format!("write `{first}/1` … instead")),
        );
    }
    missing.is_empty()
        && unusable.is_empty()
        && no_sub.is_empty()
        && unsplit.is_empty()
        && parent.is_empty()
}

/// A peer host or NIC port, with its numbered pattern expanded and each result checked as CLI
/// text (it ends up in a description).
fn pattern(cx: &mut Cx, v: &Sp<String>) -> Option<Vec<String>> {
    let at = cx.span(v);
    match expand_pattern(v.get()) {
        Ok(list) => {
            for s in &list {
                if let Err(e) = cli_text::check(s, 64) {
                    let e = Invalid {
                        message: format!("peer name {}", e.message),
                        ..e
                    };
                    cx.invalid("E024", e, at, "refused");
                    return None;
                }
            }
            Some(list)
        }
        Err(msg) => {
            cx.error("E047", msg, at, "bad pattern");
            None
        }
    }
}

/// `leaf01:1/31` or `leaf01:1/29-1/32` → the switch's name and its ports.
/// A switch whose name was refused (E022) is not reported again as unknown.
fn endpoint(
    cx: &mut Cx,
    v: &Sp<String>,
    names: &BTreeMap<String, (Hostname, Span)>,
    refused: &BTreeSet<String>,
) -> Option<(String, Vec<Port>)> {
    let at = cx.span(v);
    let s = v.get();
    let Some((sw, ports)) = s.split_once(':').or_else(|| s.split_once(' ')) else {
        cx.push(
            Diagnostic::error("E050", format!("`{}` is not a link end", s.escape_debug()))
                .at(at, "expected `switch:port`")
                .help("write it as `leaf01:1/31` or `leaf01:1/29-1/32`"),
        );
        return None;
    };
    let ports = match parse_port_range(ports) {
        Ok(p) => p,
        Err(msg) => {
            cx.error("E025", msg, at, "not a port or range");
            return None;
        }
    };
    if refused.contains(&sw.trim().to_lowercase()) {
        return None;
    }
    let Some((h, _)) = names.get(&sw.trim().to_lowercase()) else {
        let mut d = Diagnostic::error(
            "E050",
            format!("link to unknown switch `{}`", sw.escape_debug()),
        )
        .at(at, "not under `switches`");
        if let Some(best) = did_you_mean(sw, names.values().map(|(h, _)| h.as_str())) {
            d = d.help(format!("did you mean `{best}`?"));
        }
        cx.push(d);
        return None;
    };
    Some((h.as_str().to_string(), ports))
}

/// Switch-wide QoS: pools, PFC, `roce` mode and the DSCP cross-checks.
fn qos(cx: &mut Cx, q: &RawQos, release: Option<At<Release>>) -> Qos {
    let mut out = Qos::default();
    if let Some(m) = &q.roce {
        out.roce = cx.word(m, RoceMode::parse);
        if let Some((r, rat)) = release
            && r < Release::ROCE_COMMAND
        {
            cx.push(
                Diagnostic::error(
                    "E034",
                    format!(
                        "`roce` mode needs Onyx {} or later; this switch runs {r}",
                        Release::ROCE_COMMAND
                    ),
                )
                .at(cx.span(m), "roce mode")
                .also(rat, "release set here")
                .help("configure pools, trust, ECN and PFC explicitly instead"),
            );
        }
        if let Some(pools) = q.pools.as_ref().filter(|p| !p.0.is_empty()) {
            let first = cx.span(&pools.0[0].0);
            cx.push(
                Diagnostic::error(
                    "E034",
                    "`roce` mode and explicit pools are exclusive: `roce` owns the buffer pools",
                )
                .at(cx.span(m), "roce mode")
                .also(first, "explicit pool")
                .help("choose one: remove `roce`, or remove `pools`"),
            );
        }
    }
    let mut total: u32 = 0;
    let mut memory_at: Vec<(Span, String)> = Vec::new();
    let mut owner: BTreeMap<Priority, (String, Span)> = BTreeMap::new();
    // Priorities of pools whose name or type was refused: what those pools are meant to be is
    // unknown, so the PFC and DSCP checks say nothing about them rather than guess.
    let mut unknown: BTreeSet<Priority> = BTreeSet::new();
    for (name, p) in q.pools.iter().flat_map(|e| e.0.iter()) {
        let nat = cx.span(name);
        let n = name.get();
        let name_ok = match check_pool_name(n) {
            Ok(()) => true,
            Err(e) => {
                cx.invalid("E024", e, nat, "pool name");
                false
            }
        };
        if name_ok
            && let Some((r, rat)) = release
            && r < Release::TRAFFIC_POOLS
        {
            cx.push(
                Diagnostic::error(
                    "E034",
                    format!(
                        "traffic pools need Onyx {} or later; this switch runs {r}",
                        Release::TRAFFIC_POOLS
                    ),
                )
                .at(nat, "pool")
                .also(rat, "release set here"),
            );
        }
        let kind = cx.word(&p.kind, PoolType::parse);
        let memory = p.memory.as_ref().and_then(|m| {
            let at = cx.span(m);
            match Percent::check(*m.get()) {
                Ok(v) => {
                    total += u32::from(v.hundredths());
                    memory_at.push((at, n.clone()));
                    Some(v)
                }
                Err(e) => {
                    cx.error("E020", format!("pool memory {e}"), at, e.label());
                    None
                }
            }
        });
        let mut priorities = BTreeSet::new();
        for (pr, at) in p
            .priorities
            .as_ref()
            .map(|l| cx.priorities(l))
            .unwrap_or_default()
        {
            if let Some((other, oat)) = owner.get(&pr) {
                let oat = *oat;
                cx.push(
                    Diagnostic::error(
                        "E031",
                        format!("switch priority {pr} is mapped to two pools, `{other}` and `{n}`"),
                    )
                    .at(at, format!("in `{n}`"))
                    .also(oat, format!("in `{other}`"))
                    .help("a switch priority belongs to one pool"),
                );
                continue;
            }
            owner.insert(pr, (n.clone(), at));
            priorities.insert(pr);
        }
        match kind {
            Some(kind) if name_ok => {
                out.pools.insert(
                    n.clone(),
                    Pool {
                        kind,
                        memory,
                        priorities,
                    },
                );
            }
            _ => unknown.extend(priorities),
        }
    }
    if total > 10_000 {
        let mut d = Diagnostic::error(
            "E030",
            format!(
                "pool memory adds up to {}.{:02}%, more than 100%",
                total / 100,
                total % 100
            ),
        );
        if let Some(((last, name), rest)) = memory_at.split_last() {
            d = d.at(
                *last,
                format!("memory of `{name}`: the total passes 100% here"),
            );
            for (s, name) in rest {
                d = d.also(*s, format!("memory of `{name}`"));
            }
        }
        cx.push(d.help("lower the `memory` of one or more pools"));
    }
    let lossless: BTreeSet<Priority> = out
        .pools
        .values()
        .filter(|p| p.kind == PoolType::Lossless)
        .flat_map(|p| p.priorities.iter().copied())
        .collect();
    if let Some(pfc) = &q.pfc {
        let list = pfc
            .priorities
            .as_ref()
            .map(|l| cx.priorities(l))
            .unwrap_or_default();
        let roce_owns = matches!(out.roce, Some(RoceMode::Lossless | RoceMode::SemiLossless));
        for (pr, at) in &list {
            if !lossless.contains(pr) && !roce_owns && !unknown.contains(pr) {
                let where_ = owner
                    .get(pr)
                    .and_then(|(n, s)| Some((n.clone(), *s, out.pools.get(n)?.kind)));
                let mut d = Diagnostic::error(
                    "E032",
                    format!("PFC is enabled on switch priority {pr}, which no lossless pool maps"),
                )
                .at(*at, "PFC priority");
                if let Some((n, s, kind)) = where_ {
                    d = d.also(s, format!("mapped to `{n}`, a `{kind}` pool"));
                }
                cx.push(d.help("map the priority to a `type: lossless` pool, or drop it from PFC: pause frames on a lossy pool drop traffic anyway"));
            }
        }
        let enabled: BTreeSet<Priority> = list.iter().map(|(p, _)| *p).collect();
        if let Some(at) = pfc.priorities.as_ref().map(|l| cx.list_span(l)) {
            for pr in lossless.difference(&enabled) {
                let oat = owner.get(pr).map(|x| x.1);
                let mut d = Diagnostic::error(
                    "E033",
                    format!(
                        "switch priority {pr} is in a lossless pool but PFC is not enabled on it"
                    ),
                )
                .at(at, "PFC priorities");
                if let Some(s) = oat {
                    d = d.also(s, "lossless pool priority");
                }
                cx.push(d.help(format!("add {pr} to the PFC priorities")));
            }
        }
        out.pfc = Some(Pfc {
            enabled: pfc.enabled.as_ref().is_none_or(|v| *v.get()),
            priorities: enabled,
        });
    }
    if let Some(dscp) = &q.dscp {
        for (v, what) in [(&dscp.roce, "RoCE"), (&dscp.cnp, "CNP")] {
            let Some(v) = v else { continue };
            let Some(d) = cx.int(v, Dscp::new) else {
                continue;
            };
            let pr = d.default_priority();
            let lossless_ok = lossless.contains(&pr)
                || matches!(out.roce, Some(RoceMode::Lossless | RoceMode::SemiLossless));
            if what == "RoCE"
                && !lossless_ok
                && !unknown.contains(&pr)
                && (!out.pools.is_empty() || out.roce.is_some())
            {
                cx.push(
                    Diagnostic::warning("W003", format!("RoCE DSCP {d} maps to switch priority {pr} (DSCP/8, Onyx's default map), which no lossless pool holds"))
                        .at(cx.span(v), "RoCE DSCP")
                        .help(format!("map priority {pr} to the lossless pool, or mark RoCE with a DSCP in {}-{}", lossless.iter().next().map_or(24, |p| p.get() * 8), lossless.iter().next().map_or(31, |p| p.get() * 8 + 7))),
                );
            }
        }
    }
    out
}

/// A switch's `extra` lines: section titles and lines on one line each, no section header
/// (`##`), and every line the Onyx grammar knows well-formed (E080 at the line).
fn extra(
    cx: &mut Cx,
    raw: Option<&Entries<String, Vec<Sp<String>>>>,
) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for (title, lines) in raw.map_or(&[][..], |e| &e.0[..]) {
        let title_ok = !title.get().trim().is_empty()
            && !title.get().chars().any(char::is_control)
            && title.get().trim() == title.get();
        if !title_ok {
            let at = cx.span(title);
            cx.error(
                "E080",
                format!("`{}` is not a section title", title.get().escape_debug()),
                at,
                "as the switch prints it after `## `, e.g. `Other IP configuration`",
            );
            continue;
        }
        let mut kept = Vec::new();
        for line in lines {
            let text = line.get().trim();
            let at = cx.span(line);
            let problem = if let Some(c) = text.chars().find(|c| c.is_control()) {
                Some(format!(
                    "contains {}, which would break the line",
                    describe_char(c)
                ))
            } else if text.is_empty() {
                Some("is empty".to_string())
            } else if text.starts_with("##") {
                Some("is a section header; sections are the keys of `extra`".to_string())
            } else if let Some(why) = not_configuration(text) {
                Some(why)
            } else {
                match crate::onyx::command::parse(text) {
                    Ok(Some(cmd)) => modeled_by_the_format(&cmd).map(|key| {
                        format!("is what the fabric format writes as {key}; write it there")
                    }),
                    Ok(None) => None,
                    Err(e) => Some(format!("is not valid Onyx at column {}: {e}", e.column + 1)),
                }
            };
            match problem {
                Some(p) => cx.error("E080", format!("`extra` line {p}"), at, "this line"),
                None => kept.push(text.to_string()),
            }
        }
        out.push((title.get().clone(), kept));
    }
    out
}

/// Why `line` is not a line of configuration, when it is not: a command a switch runs
/// (`reload`, `configuration write`, `exit`, `show …`) pasted from a golden onto a switch would
/// run, not configure. A configuration line starts with one of Onyx's configuration words
/// ([`crate::onyx::command::TOP_LEVEL`]), and is not one of the session commands that share a
/// word with configuration.
fn not_configuration(line: &str) -> Option<String> {
    /// Lines that start with a configuration word but act on the session or the switch.
    const SESSION: &[&str] = &["cli session", "cli clear-history", "no cli session"];
    if line.starts_with('#') {
        // A comment the switch prints (a masked secret, the certificate's ID).
        return None;
    }
    let first = line.strip_prefix("no ").unwrap_or(line);
    let first = first.split([' ', '\t']).next().unwrap_or("");
    if SESSION
        .iter()
        .any(|s| line == *s || line.starts_with(&format!("{s} ")))
    {
        return Some(format!(
            "is not configuration: `{}` changes the CLI session, not the switch's configuration",
            line.split(' ').take(2).collect::<Vec<_>>().join(" ")
        ));
    }
    (!crate::onyx::command::TOP_LEVEL.contains(&first)).then(|| {
        format!(
            "is not configuration: no running-config line starts with `{first}`; pasted from a golden, it would run as a command"
        )
    })
}

/// The fabric key that writes `cmd`, when the format models it (so it has no place in
/// `extra`, where it would fight the fabric's own setting).
fn modeled_by_the_format(cmd: &crate::onyx::Command) -> Option<&'static str> {
    use crate::onyx::{Command as C, Iface, IfaceCmd as I};
    Some(match cmd {
        C::PrefixModes(_) => "nothing: every switch prints it",
        C::License(_) => "`licenses`",
        C::Hostname(_) | C::NoHostname => "the switch's name (or `set_hostname: false`)",
        C::Lldp(_) => "`lldp`",
        C::Roce(_) => "`qos.roce`",
        C::PoolType(..) | C::PoolMemory(..) | C::PoolMap(..) | C::PoolUnmap(..) | C::NoPool(_) => {
            "`qos.pools`"
        }
        C::PfcEnable(_) | C::PfcPriority(..) => "`qos.pfc`",
        C::Interface(r, c) if matches!(r.first, Iface::Ethernet(_)) => match c {
            I::Speed(_) | I::NoSpeed => "`speed`",
            I::Mtu(_) | I::NoMtu => "`mtu`",
            I::Description(_) | I::NoDescription => "`description`",
            I::Shutdown(_) => "`admin`",
            I::Split(_) | I::NoSplit => "`split`",
            I::SwitchportMode(_) => "`switchport`",
            I::AccessVlan(_) | I::NoAccessVlan => "`vlan`",
            I::Trust(_) | I::NoTrust => "`trust`",
            I::Ecn(..) | I::NoEcn(_) => "`ecn`",
            I::Ets(..) | I::NoEts(_) => "`ets`",
            I::PfcMode(_) => "`pfc`",
            I::Routed(_) | I::Address(_) | I::NoAddress => "a routed link, or a port's `address`",
            I::Ipl(_) | I::NoIpl(_) | I::IplPeer(..) | I::NoIplPeer(_) => "`mlag`",
            I::Create | I::AllowedVlan(..) | I::ChannelGroup(_) | I::NoChannelGroup { .. } => {
                return None;
            }
        },
        C::IpRouting(_)
        | C::LoadSharing(..)
        | C::Protocol(crate::onyx::Protocol::Bgp, _)
        | C::Bgp(..)
        | C::NoBgp(_) => "`routing`",
        C::Protocol(crate::onyx::Protocol::Mlag, _)
        | C::MlagShutdown(_)
        | C::MlagSystemMac(_)
        | C::MlagVip(_) => "`mlag`",
        C::Lacp(_) => "a LAG link (`role: lag`)",
        C::SpanningTree(_) => "`stp`",
        C::VlanCreate(_)
        | C::VlanName(..)
        | C::NoVlan(_)
        | C::Interface(..)
        | C::NoInterface(_) => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::expand_pattern;

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
