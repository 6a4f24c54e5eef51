//! The target of each switch: its OS (`os: onyx` by default, `os: os10`), a model from that
//! OS's table, its release, the port names of its OS, and the keys that mean nothing on it.
//!
//! One fabric may mix OSes: ports are held the same way for both (front-panel port N of slot
//! 1, subport M), and only their names differ: Onyx `1/5` and `1/5/2`, OS10 `ethernet1/1/5`
//! and `ethernet1/1/5:2` (OS10's `show running-configuration`, `tests/fixtures/corpus/os10/`).
//!
//! - E071 — a model from another OS's table than the switch's
//! - E072 — a port named the way another OS names ports
//! - E073 — a key the switch's OS has no meaning for (or that is not yet compiled for it)
//! - E074 — an OS10 release that is not one
//!
//! A `split` on an OS10 switch is the port's `interface breakout` map, or on a model with port
//! groups its group's mode ([`breakouts`]): E042 where the model's port does not take it. The
//! mode itself is settled with the group's speeds once every port is claimed
//! (`port_groups`).

use super::ports::refuse_splits;
use super::*;
use crate::fabric::{Hardware, Os};

/// The OS a switch runs: its own `os`, else the fabric's, else Onyx. An unknown word is
/// reported (E021) and the switch taken as Onyx so that the rest is still checked.
pub(super) fn os(cx: &mut Cx, fabric: Option<&Sp<String>>, switch: Option<&Sp<String>>) -> Os {
    let Some(v) = switch.or(fabric) else {
        return Os::Onyx;
    };
    cx.word(v, |w| {
        choose(w, &[("onyx", Os::Onyx), ("os10", Os::Os10)], "switch OS")
    })
    .unwrap_or(Os::Onyx)
}

/// The switch's model, from its OS's table. A model of the other OS's table is E071, with
/// the OS it belongs to; an unknown one E021 with the OS's models.
pub(super) fn hardware(cx: &mut Cx, os: Os, model: &Sp<String>) -> Option<Hardware> {
    let name = model.get();
    let os10 = crate::os10::models::MODELS
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(name.trim()));
    let onyx = Model::find(name).ok();
    let at = cx.span(model);
    match (os, onyx, os10) {
        (Os::Onyx, Some(m), _) => Some(Hardware::Onyx(m)),
        (Os::Os10, _, Some(m)) => Some(Hardware::Os10(m)),
        (Os::Onyx, None, Some(m)) => {
            cx.push(
                Diagnostic::error(
                    "E071",
                    format!(
                        "{} is an OS10 switch model, and this switch runs Onyx",
                        m.name
                    ),
                )
                .at(at, "OS10 model")
                .help("add `os: os10` to the switch (or the fabric), or name an Onyx model"),
            );
            None
        }
        (Os::Os10, Some(m), None) => {
            cx.push(
                Diagnostic::error(
                    "E071",
                    format!(
                        "{} is an Onyx switch model, and this switch runs OS10",
                        m.name
                    ),
                )
                .at(at, "Onyx model")
                .help(format!(
                    "OS10 models: {}; or remove `os: os10` for an Onyx switch",
                    os10_models()
                )),
            );
            None
        }
        (Os::Onyx, None, None) => cx.word(model, Model::find).map(Hardware::Onyx),
        (Os::Os10, None, None) => {
            cx.push(
                Diagnostic::error(
                    "E021",
                    format!("unknown OS10 switch model `{}`", name.escape_debug()),
                )
                .at(at, "not recognised")
                .help(format!("OS10 models: {}", os10_models())),
            );
            None
        }
    }
}

fn os10_models() -> String {
    let names: Vec<&str> = crate::os10::models::MODELS.iter().map(|m| m.name).collect();
    names.join(", ")
}

/// An OS10 release as `show version` prints it: four numbers, `10.5.3.2`.
pub(super) fn os10_release(cx: &mut Cx, v: &Sp<String>) -> Option<String> {
    let s = v.get().trim();
    let parts: Vec<&str> = s.split('.').collect();
    let ok = parts.len() == 4
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()))
        && parts[0] == "10";
    if ok {
        Some(s.to_string())
    } else {
        cx.push(
            Diagnostic::error(
                "E074",
                format!("`{}` is not an OS10 release", s.escape_debug()),
            )
            .at(cx.span(v), "not a release")
            .help("an OS10 release is four numbers starting with 10, as `show version` prints it: `10.5.3.2`"),
        );
        None
    }
}

/// Keys refused on a switch's OS (E073), by where they are written: the key, what it is, the
/// OS, and the switches it is refused on (one diagnostic per line, naming them all).
pub(super) type Foreign = BTreeMap<(Span, &'static str, &'static str, Os), BTreeSet<String>>;

/// Records `key`, written at `at`, as refused on switch `name` of `os` (E073): it is `what`.
pub(super) fn refuse(
    cx: &mut Cx,
    os: Os,
    name: &str,
    key: &'static str,
    at: Span,
    what: &'static str,
) {
    cx.foreign
        .entry((at, key, what, os))
        .or_default()
        .insert(name.to_string());
}

/// The refusals recorded by [`refuse`], each at its line with the switches it concerns.
pub(super) fn report_foreign(cx: &mut Cx) {
    for ((at, key, what, os), names) in std::mem::take(&mut cx.foreign) {
        let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        let switches = match names.len() {
            1 => format!("{os} switch {}", names[0]),
            _ => format!("{os} switches {}", names.join(", ")),
        };
        cx.push(
            Diagnostic::error(
                "E073",
                format!("`{key}` is not for {switches}: it is {what}"),
            )
            .at(at, format!("not for {os}"))
            .help("remove it, or set the switch's `os` to the OS it is for"),
        );
    }
}

/// Keys of a switch that mean nothing on its OS (E073), each where it is written; the QoS
/// keys as the switch takes them (its own, else the fabric's).
pub(super) fn foreign_keys(
    cx: &mut Cx,
    os: Os,
    raw: &RawFabric,
    name: &str,
    sw: &super::super::raw::RawSwitch,
) {
    let mut found: Vec<(&'static str, Span, &'static str)> = Vec::new();
    match os {
        Os::Os10 => {
            onyx_keys(cx, sw, &mut found);
            vlt_vip(cx, raw, name, sw, &mut found);
            os10_qos(cx, raw, sw, &mut found);
            if let Some(v) = sw.stp.as_ref().or(raw.stp.as_ref())
                && v.get().eq_ignore_ascii_case("off")
            {
                found.push((
                    "stp: off",
                    cx.span(v),
                    "not yet compiled for OS10 (`spanning-tree disable`); OS10 runs RPVST+ by default, which `stp: on` keeps",
                ));
            }
            stp_foreign(cx, raw, sw, &mut found);
            os10_ecn(cx, raw, sw, &mut found);
        }
        Os::Onyx => {
            if let Some(v) = &sw.os10 {
                found.push((
                    "os10",
                    cx.span(v),
                    "the OS10 release; an Onyx switch's is `onyx`",
                ));
            }
            if let Some(v) = sw.mlag.as_ref().and_then(|h| h.peer_mgmt.as_ref()) {
                found.push((
                    "mlag peer_mgmt",
                    cx.span(v),
                    "OS10's VLT `backup destination`; an Onyx MLAG half has none",
                ));
            }
        }
    }
    for (key, at, what) in found {
        refuse(cx, os, name, key, at, what);
    }
}

/// An OS10 switch's keys only Onyx has: its release, license keys, certificate and `extra`.
fn onyx_keys(
    cx: &Cx,
    sw: &super::super::raw::RawSwitch,
    found: &mut Vec<(&'static str, Span, &'static str)>,
) {
    let why_release = "the Onyx release; an OS10 switch's is `os10`";
    if let Some(v) = &sw.onyx {
        found.push(("onyx", cx.span(v), why_release));
    }
    if let Some(v) = sw.licenses.as_ref().and_then(|l| l.first()) {
        found.push(("licenses", cx.span(v), "Onyx `license install` keys"));
    }
    if let Some(v) = &sw.certificate {
        found.push((
            "certificate",
            cx.span(v),
            "Onyx's self-signed certificate ID",
        ));
    }
    if let Some((k, _)) = sw.extra.as_ref().and_then(|e| e.0.first()) {
        found.push((
            "extra",
            cx.span(k),
            "lines checked against the Onyx grammar, by Onyx section",
        ));
    }
}

/// An MLAG VIP or domain on an OS10 switch `name`: its half's, and each fabric `mlag` pair's
/// it is in.
fn vlt_vip(
    cx: &Cx,
    raw: &RawFabric,
    name: &str,
    sw: &super::super::raw::RawSwitch,
    found: &mut Vec<(&'static str, Span, &'static str)>,
) {
    // A VLT domain has no VIP on the management network (`vlt.j2`, the TOR
    // capture's `vlt-domain`): not a half's, not a fabric `mlag` pair's.
    if let Some(v) = sw
        .mlag
        .as_ref()
        .and_then(|h| h.vip.as_ref().or(h.domain.as_ref()))
    {
        found.push((
            "mlag vip/domain",
            cx.span(v),
            "an Onyx MLAG virtual IP; an OS10 VLT domain has none",
        ));
    }
    let me = name.to_lowercase();
    for pair in raw.mlag.iter().flatten() {
        if !pair
            .switches
            .get()
            .iter()
            .any(|s| s.get().to_lowercase() == me)
        {
            continue;
        }
        if let Some(v) = pair.vip.as_ref().or(pair.domain.as_ref()) {
            found.push((
                "mlag vip/domain",
                cx.span(v),
                "an Onyx MLAG virtual IP; an OS10 VLT domain has none",
            ));
        }
    }
}

/// The switch-wide QoS keys OS10 has no meaning for (`meaning::QOS_KEYS`), as the switch
/// takes them: Onyx's `roce` mode, a pool's share of the buffer, lossy pools.
fn os10_qos(
    cx: &Cx,
    raw: &RawFabric,
    sw: &super::super::raw::RawSwitch,
    found: &mut Vec<(&'static str, Span, &'static str)>,
) {
    let q = super::qos::merged_qos(raw.qos.as_ref(), sw.qos.as_ref());
    if let Some(v) = &q.roce {
        found.push(("qos.roce", cx.span(v), "Onyx's one-shot `roce` command"));
    }
    for (_, pool) in q.pools.iter().flat_map(|p| p.0.iter()) {
        if let Some(m) = &pool.memory {
            found.push((
                "memory",
                cx.span(m),
                "an Onyx traffic pool's share of the buffer (OS10 sizes its lossless buffers itself)",
            ));
        }
        let kind = pool.kind.get().to_ascii_lowercase();
        if kind == "lossy" || kind == "lossy-mc" {
            found.push((
                "type: lossy",
                cx.span(&pool.kind),
                "an Onyx traffic pool; OS10 has no traffic pools (its lossless priorities are its PFC classes)",
            ));
        }
    }
}

/// ECN written as OS10 cannot mark it: thresholds relative to Onyx's port buffer, RED.
fn os10_ecn(
    cx: &Cx,
    raw: &RawFabric,
    sw: &super::super::raw::RawSwitch,
    found: &mut Vec<(&'static str, Span, &'static str)>,
) {
    let ecns = raw
        .port_defaults
        .iter()
        .flat_map(|d| d.ecn.iter())
        .chain(
            raw.profiles
                .iter()
                .flat_map(|p| p.0.iter().flat_map(|(_, s)| s.ecn.iter())),
        )
        .chain(
            sw.ports
                .iter()
                .flat_map(|p| p.0.iter().flat_map(|(_, e)| e.ecn.iter())),
        );
    for e in ecns {
        for (_, ecn) in &e.0 {
            let relative = ecn.min_percent.as_ref().or(ecn.max_percent.as_ref());
            if let Some(v) = relative {
                found.push((
                    "min_percent/max_percent",
                    cx.span(v),
                    "ECN thresholds relative to Onyx's port buffer; an OS10 `wred` profile takes `min`/`max` in KB",
                ));
            }
            if let Some(v) = ecn
                .mode
                .as_ref()
                .filter(|m| !m.get().eq_ignore_ascii_case("ecn"))
            {
                found.push((
                    "ecn mode",
                    cx.span(v),
                    "Onyx's RED/both modes; OS10's recipe marks ECN only (`random-detect ecn`)",
                ));
            }
        }
    }
}

/// One port setting as `port_defaults`, the profiles and the switch's port entries write it.
fn written<'a, T: 'a>(
    raw: &'a RawFabric,
    sw: &'a super::super::raw::RawSwitch,
    setting: impl Fn(&'a RawSettings) -> Option<&'a T>,
    entry: impl Fn(&'a RawPort) -> Option<&'a T>,
) -> impl Iterator<Item = &'a T> {
    let profiles = raw.profiles.iter().flat_map(|p| p.0.iter().map(|(_, s)| s));
    let entries = sw.ports.iter().flat_map(|p| p.0.iter().map(|(_, e)| e));
    raw.port_defaults
        .iter()
        .chain(profiles)
        .filter_map(setting)
        .chain(entries.filter_map(entry))
}

/// What of spanning tree and bundles an OS10 switch has no line for: the `network` port type
/// (OS10's port type is `edge` alone, Dell OS10 user guide, "Configure EdgePort") and
/// `lacp_individual` (not compiled for OS10).
fn stp_foreign<'a>(
    cx: &Cx,
    raw: &'a RawFabric,
    sw: &'a super::super::raw::RawSwitch,
    found: &mut Vec<(&'static str, Span, &'static str)>,
) {
    let types = written(raw, sw, |s| s.stp.as_ref(), |e| e.stp.as_ref());
    let types = types.filter_map(|s| s.kind.as_ref());
    for v in types.filter(|v| v.get().eq_ignore_ascii_case("network")) {
        found.push((
            "stp.type: network",
            cx.span(v),
            "an Onyx port type; OS10's spanning-tree port type is `edge` alone",
        ));
    }
    let entries = sw.ports.iter().flat_map(|p| p.0.iter().map(|(_, e)| e));
    for v in entries.filter_map(|e| e.lacp_individual.as_ref()) {
        found.push((
            "lacp_individual",
            cx.span(v),
            "Onyx's `lacp-individual enable force`, not yet compiled for OS10",
        ));
    }
}

/// The ports a port-map key or link end names, in the switch's OS's naming: Onyx `1/5`,
/// `1/1-1/8`, `1/5/2`; OS10 `ethernet1/1/5`, `ethernet1/1/1-1/1/8`, `ethernet1/1/5:2`. A name
/// of the other OS is E072; anything else not a port E025.
pub(super) fn ports(cx: &mut Cx, os: Os, text: &str, at: Span) -> Option<Vec<Port>> {
    let t = text.trim();
    let os10_style = t.len() >= 8 && t[..8].eq_ignore_ascii_case("ethernet");
    match (os, os10_style) {
        (Os::Onyx, false) => match parse_port_range(t) {
            Ok(p) => Some(p),
            Err(msg) => {
                cx.error("E025", msg, at, "not a port or range");
                None
            }
        },
        (Os::Onyx, true) => {
            cx.push(
                Diagnostic::error(
                    "E072",
                    format!(
                        "`{}` is an OS10 port name, and this switch runs Onyx",
                        t.escape_debug()
                    ),
                )
                .at(at, "OS10 port name")
                .help("Onyx names ports `1/5`, ranges `1/1-1/8`, subports `1/5/2`"),
            );
            None
        }
        (Os::Os10, true) => match os10_ports(&t[8..]) {
            Ok(p) => Some(p),
            Err(msg) => {
                cx.push(
                    Diagnostic::error("E025", msg)
                        .at(at, "not a port or range")
                        .help("OS10 names ports `ethernet1/1/5`, ranges `ethernet1/1/1-1/1/8`, breakouts `ethernet1/1/5:2`"),
                );
                None
            }
        },
        (Os::Os10, false) => {
            let mut d = Diagnostic::error(
                "E072",
                format!("`{}` is not an OS10 port name", t.escape_debug()),
            )
            .at(at, "not OS10 naming");
            d = match parse_port_range(t) {
                Ok(ps) => {
                    let name = |p: &Port| Os::Os10.port_name(*p);
                    let (first, last) = (ps.first(), ps.last());
                    match (first, last) {
                        (Some(a), Some(b)) if a != b => d.help(format!(
                            "this is Onyx naming; on OS10 write `{}-{}`",
                            name(a),
                            name(b).trim_start_matches("ethernet")
                        )),
                        (Some(a), _) => {
                            d.help(format!("this is Onyx naming; on OS10 write `{}`", name(a)))
                        }
                        _ => d,
                    }
                }
                Err(_) => d.help("OS10 names ports `ethernet1/1/5`, ranges `ethernet1/1/1-1/1/8`, breakouts `ethernet1/1/5:2`"),
            };
            cx.push(d);
            None
        }
    }
}

/// `1/1/5`, `1/1/1-1/1/8`, `1/1/5:2` or `1/1/17:1-1/1/20:1` (after `ethernet`) → ports of
/// slot 1.
fn os10_ports(s: &str) -> Result<Vec<Port>, String> {
    let bad = |why: String| format!("`ethernet{s}`: {why}");
    let one = |x: &str| -> Result<Port, String> {
        let e = crate::os10::Eth::parse(x.trim()).map_err(bad)?;
        if e.node != 1 || e.slot != 1 {
            return Err(bad(format!(
                "a fixed-port switch's ports are `1/1/N`, not `{}/{}/N`",
                e.node, e.slot
            )));
        }
        Ok(match e.sub {
            Some(m) => Port::sub(1, e.port, m),
            None => Port::new(1, e.port),
        })
    };
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (one(a)?, one(b)?),
        None => {
            let p = one(s)?;
            (p, p)
        }
    };
    // Ports a port group names as subport 1 (`ethernet1/1/17:1-1/1/20:1`, the names of a
    // `10g-4x` group's ports, the TOR capture) run from port to port.
    if a.sub == Some(1) && b.sub == Some(1) && a.port < b.port {
        return Ok((a.port..=b.port).map(|n| Port::sub(1, n, 1)).collect());
    }
    // The same walk as an Onyx range, so ranges mean the same on both OSes.
    parse_port_range(&crate::types::format_range(a, b)).map_err(bad)
}

/// `split` on an OS10 switch: `interface breakout` of each port, where the model's port takes
/// the map, or a port group's mode that breaks the port out so (E042 otherwise, with the maps
/// or modes it takes); ports the model lacks and names that are not ports are reported in
/// pass 2.
pub(super) fn breakouts(
    cx: &mut Cx,
    sw: &mut Switch,
    model: &crate::os10::models::Model,
    key: &Sp<String>,
    ways: &Sp<i64>,
    split: Split,
) {
    let text = key.get().trim();
    let Some(body) = text
        .get(..8)
        .filter(|h| h.eq_ignore_ascii_case("ethernet"))
        .and(text.get(8..))
    else {
        return;
    };
    let Ok(ports) = os10_ports(body) else {
        return;
    };
    let mut subports = Vec::new();
    let mut refused: BTreeMap<String, Vec<Port>> = BTreeMap::new();
    for port in ports {
        if port.sub.is_some() {
            subports.push(port);
            continue;
        }
        if model.run(port.port).is_none() {
            continue;
        }
        match model.breakout(port.port, split.ways()) {
            Ok(_) => {
                sw.splits.insert(port, split);
            }
            Err(why) => refused.entry(why).or_default().push(port),
        }
    }
    let (at, ways_at) = (cx.span(key), cx.span(ways));
    refuse_splits(cx, sw, model.name, split, &subports, refused, at, ways_at);
}
