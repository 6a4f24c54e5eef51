//! Reading values from the raw format: the validation context [`Cx`] (diagnostics, spans)
//! and its readers of integers, words, ECN and ETS settings, port settings layers, releases
//! and host-name patterns, each reporting a located error and giving `None` on a bad value.

use super::*;

pub struct Cx {
    pub(crate) file: FileId,
    pub(crate) diags: Vec<Diagnostic>,
    /// Each switch's OS, by lowercase name, for the port names of link ends.
    pub(crate) oses: BTreeMap<String, crate::fabric::Os>,
    /// The host ports a refused port-map entry's peer names, with the entry's key: a host
    /// port cabled to no switch port because of it follows from that entry's error.
    pub(crate) refused_peers: BTreeMap<(String, String), Span>,
    /// Where each switch's entry is written (byte ranges of the file, key to the next key):
    /// a value set there is the switch's own, not the fabric's ([`Cx::own`]).
    pub(crate) extents: Vec<std::ops::Range<usize>>,
    /// Keys refused on some switches' OS (E073), reported once per line at the end.
    pub(crate) foreign: super::target::Foreign,
}

impl Cx {
    /// The context of one fabric's validation: no diagnostic yet, where each switch's entry is
    /// written.
    pub(crate) fn new(raw: &RawFabric, file: FileId) -> Cx {
        Cx {
            file,
            diags: Vec::new(),
            oses: BTreeMap::new(),
            refused_peers: BTreeMap::new(),
            extents: switch_extents(raw, file),
            foreign: BTreeMap::new(),
        }
    }

    /// Whether a place is inside some switch's own entry (not the fabric's keys, profiles or
    /// links).
    pub(crate) fn own(&self, at: Span) -> bool {
        self.extents.iter().any(|r| r.contains(&at.start))
    }

    pub fn span<T>(&self, v: &Sp<T>) -> Span {
        span(self.file, v)
    }

    pub fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub fn error(
        &mut self,
        code: &'static str,
        msg: impl Into<String>,
        at: Span,
        label: impl Into<String>,
    ) {
        self.diags.push(Diagnostic::error(code, msg).at(at, label));
    }

    /// An integer checked by `f`; out of range → E020 at the value.
    pub(crate) fn int<T>(
        &mut self,
        v: &Sp<i64>,
        f: impl Fn(i64) -> Result<T, String>,
    ) -> Option<T> {
        let at = self.span(v);
        self.check(*v.get(), at, f)
    }

    pub(crate) fn check<T>(
        &mut self,
        v: i64,
        at: Span,
        f: impl Fn(i64) -> Result<T, String>,
    ) -> Option<T> {
        match f(v) {
            Ok(x) => Some(x),
            Err(msg) => {
                self.error("E020", msg, at, "out of range");
                None
            }
        }
    }

    /// A refusal from a value type, with its help line when it has one.
    pub(crate) fn invalid(&mut self, code: &'static str, e: Invalid, at: Span, label: &str) {
        let mut d = Diagnostic::error(code, e.message).at(at, label);
        if let Some(help) = e.help {
            d = d.help(help);
        }
        self.push(d);
    }

    /// A word parsed by `f`; unknown → E021 at the value, "did you mean" as help.
    pub fn word<T>(&mut self, v: &Sp<String>, f: impl Fn(&str) -> Result<T, Invalid>) -> Option<T> {
        match f(v.get()) {
            Ok(x) => Some(x),
            Err(e) => {
                let at = self.span(v);
                self.invalid("E021", e, at, "not recognised");
                None
            }
        }
    }

    /// A string a switch is given, checked by the rule of `field` on each of `oses` that
    /// prints it (`fabric::strings`); refused → E024 at the value, naming it `what`.
    pub(crate) fn text(
        &mut self,
        v: &Sp<String>,
        what: &str,
        field: Field,
        oses: &[crate::fabric::Os],
    ) -> Option<String> {
        match strings::check(oses, field, v.get()) {
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
    pub(crate) fn token(
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
    pub(crate) fn list_span<T>(&self, list: &Sp<Vec<Sp<T>>>) -> Span {
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
    pub(crate) fn priorities(&mut self, list: &Sp<Vec<Sp<i64>>>) -> Vec<At<Priority>> {
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

    pub(crate) fn ecn(&mut self, e: &RawEcn, key: Span) -> Option<Ecn> {
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

    /// An MTU, 1500-9216 (what Onyx takes; OS10 takes as much); out of range → E020.
    pub(crate) fn mtu(&mut self, v: &Sp<i64>) -> Option<u16> {
        self.int(v, |m| within(m, crate::types::MTU, "MTU", ""))
    }

    /// A port's settings as written at one place, each value checked (a refused one left
    /// out).
    pub(crate) fn layer(&mut self, s: &RawSettings) -> Layer {
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
            l.mtu = at!(v, self.mtu(v));
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
        self.classes(s, &mut l);
        if let Some(stp) = &s.stp {
            if let Some(v) = &stp.kind {
                l.stp_type = at!(v, self.word(v, StpPortType::parse));
            }
            if let Some(v) = &stp.bpduguard {
                l.stp_bpduguard = Some((*v.get(), self.span(v)));
            }
            if let Some(v) = &stp.guard {
                l.stp_guard = at!(v, self.word(v, StpGuard::parse));
            }
        }
        l
    }

    /// The ECN and ETS of each traffic class a port's settings give, into `l`.
    fn classes(&mut self, s: &RawSettings, l: &mut Layer) {
        for (tc, e) in s.ecn.iter().flat_map(|m| m.0.iter()) {
            let at = self.span(tc);
            if let (Some(t), Some(x)) = (self.int(tc, TrafficClass::new), self.ecn(e, at)) {
                l.ecn.insert(t, (x, at));
            }
        }
        for (tc, e) in s.ets.iter().flat_map(|m| m.0.iter()) {
            let t = self.int(tc, TrafficClass::new);
            let at = self.span(e);
            let x = self.ets(e.get(), at);
            if let (Some(t), Some(x)) = (t, x) {
                l.ets.insert(t, (x, at));
            }
        }
    }

    /// One class's ETS: `strict`, or a WRR weight 1-100 (E020); another word is E021.
    fn ets(&mut self, e: &RawEts, at: Span) -> Option<Ets> {
        match e {
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
        }
    }
}

pub(crate) fn kb(v: i64) -> Result<u32, String> {
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
pub(crate) fn expand_pattern(s: &str) -> Result<Vec<String>, String> {
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

/// An Onyx release; malformed → E023.
pub(crate) fn release(cx: &mut Cx, v: &Sp<String>) -> Option<At<Release>> {
    let at = cx.span(v);
    match v.get().parse::<Release>() {
        Ok(r) => Some((r, at)),
        Err(msg) => {
            cx.error("E023", msg, at, "not a release");
            None
        }
    }
}

/// A peer host or NIC port, with its numbered pattern expanded and each result checked as
/// the default OS's description text (it ends up in a description; the description made of
/// it is checked again by the rule of its switch's OS).
pub(crate) fn pattern(cx: &mut Cx, v: &Sp<String>) -> Option<Vec<String>> {
    let at = cx.span(v);
    match expand_pattern(v.get()) {
        Ok(list) => {
            for s in &list {
                if let Err(e) =
                    strings::check(&[crate::fabric::Os::default()], Field::Description, s)
                {
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

/// E039: a model on a release older than the first that runs it (`types::Model`'s table),
/// at the release with the model beside it.
pub(crate) fn model_release(
    cx: &mut Cx,
    model: &'static Model,
    model_at: Span,
    release: Option<At<Release>>,
) {
    let Some((r, rat)) = release else { return };
    let Err(first) = model.check_release(r) else {
        return;
    };
    let mut d = Diagnostic::error(
        "E039",
        format!(
            "{} runs Onyx {} or later; this switch is given {r}",
            model.name, first.release
        ),
    )
    .at(rat, "release too old for the model")
    .also(model_at, "model");
    d = match first.source {
        Some(src) => d.help(format!("upgrade the switch, or correct `model` or `onyx` ({src})")),
        None => d.help(format!(
            "upgrade the switch, or correct `model` or `onyx`; {}'s first release ({}) is not confirmed by a public source: if this switch does run {r}, say so in an issue",
            model.name, first.release
        )),
    };
    cx.push(d);
}

/// How to reach a switch or a host over SSH: a host name or address, and the port and user
/// where written (otherwise the SSH config's, or the defaults), each a token that cannot
/// carry anything else.
pub(crate) fn mgmt(cx: &mut Cx, m: &RawMgmt) -> Option<Mgmt> {
    let host = cx.token(
        &m.host,
        "management host",
        |c| c.is_ascii_alphanumeric() || ".-:_[]".contains(c),
        "write a hostname or an IP address",
    );
    let port = match &m.port {
        Some(p) => cx
            .int(p, |v| {
                u16::try_from(v)
                    .ok()
                    .filter(|v| *v > 0)
                    .ok_or_else(|| format!("SSH port {v} is out of range 1-65535"))
            })
            .map(Some),
        None => Some(None),
    };
    let user = match &m.user {
        Some(u) => cx
            .token(
                u,
                "user name",
                |c| c.is_ascii_alphanumeric() || "._-".contains(c),
                "a user name is letters, digits, `.`, `_` and `-`",
            )
            .map(Some),
        None => Some(None),
    };
    Some(Mgmt {
        host: host?,
        port: port?,
        user: user?,
    })
}

/// Where each switch's entry is written: from its key to the next switch's, the last to the
/// first of the fabric's other sections written after it (links, hosts, MLAG pairs, …).
pub(crate) fn switch_extents(raw: &RawFabric, file: FileId) -> Vec<std::ops::Range<usize>> {
    let at = |s: Span| s.start;
    let keys: Vec<usize> = raw
        .switches
        .0
        .iter()
        .map(|(k, _)| at(span(file, k)))
        .collect();
    let Some(last) = keys.iter().max().copied() else {
        return Vec::new();
    };
    // The first place of each other section: a section after the switches ends them.
    let mut marks: Vec<usize> = Vec::new();
    marks.extend(raw.links.iter().flatten().map(|l| at(span(file, &l.a))));
    marks.extend(
        raw.hosts
            .iter()
            .flat_map(|h| &h.0)
            .map(|(k, _)| at(span(file, k))),
    );
    marks.extend(
        raw.mlag
            .iter()
            .flatten()
            .map(|m| at(span(file, &m.switches))),
    );
    marks.extend(
        raw.profiles
            .iter()
            .flat_map(|p| &p.0)
            .map(|(k, _)| at(span(file, k))),
    );
    marks.extend(raw.vlans.iter().flatten().map(|v| at(span(file, &v.id))));
    let end = marks
        .into_iter()
        .filter(|m| *m > last)
        .min()
        .unwrap_or(usize::MAX);
    let mut sorted = keys;
    sorted.sort_unstable();
    sorted
        .iter()
        .enumerate()
        .map(|(i, start)| *start..sorted.get(i + 1).copied().unwrap_or(end))
        .collect()
}
