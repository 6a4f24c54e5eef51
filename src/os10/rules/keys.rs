//! The keys an OS10 switch has no meaning for (E073), each where it is written, with what it
//! is; and OS10's release (E074).

use crate::fabric::raw::{RawFabric, RawPort, RawSettings, RawSwitch};
use crate::fabric::validate::os::{Cx, Diagnostic, Sp, merged_qos};
use crate::targets::Refused;

/// An OS10 release as `show version` prints it: four numbers, `10.5.3.2`.
pub(super) fn release(cx: &mut Cx, v: &Sp<String>) -> Option<String> {
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

/// An OS10 switch's keys only Onyx has: its release, license keys, certificate and `extra`.
pub(super) fn onyx_keys(cx: &Cx, sw: &RawSwitch, found: &mut Vec<Refused>) {
    let why_release = "the Onyx release; an OS10 switch's is `os10`";
    if let Some(v) = &sw.onyx {
        found.push(("onyx", cx.span(v), why_release));
    }
    if let Some(v) = &sw.cumulus {
        found.push((
            "cumulus",
            cx.span(v),
            "the Cumulus Linux release; an OS10 switch's is `os10`",
        ));
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
pub(super) fn vlt_vip(
    cx: &Cx,
    raw: &RawFabric,
    name: &str,
    sw: &RawSwitch,
    found: &mut Vec<Refused>,
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
pub(super) fn os10_qos(cx: &Cx, raw: &RawFabric, sw: &RawSwitch, found: &mut Vec<Refused>) {
    let q = merged_qos(raw.qos.as_ref(), sw.qos.as_ref());
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
pub(super) fn os10_ecn(cx: &Cx, raw: &RawFabric, sw: &RawSwitch, found: &mut Vec<Refused>) {
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
    sw: &'a RawSwitch,
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
pub(super) fn stp_foreign<'a>(
    cx: &Cx,
    raw: &'a RawFabric,
    sw: &'a RawSwitch,
    found: &mut Vec<Refused>,
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
