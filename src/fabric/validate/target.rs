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
//! What differs by OS is its rules' ([`crate::targets::Rules`]): its models, its port names
//! and splits (OS10: a port's `interface breakout` map, or on a model with port groups its
//! group's mode, settled with the group's speeds once every port is claimed), the keys it has
//! no meaning for.

use super::*;
use crate::fabric::{Hardware, Os};

/// The OS a switch runs: its own `os`, else the fabric's, else the registry's first. An
/// unknown word is reported (E021) and the switch taken as the first OS so that the rest is
/// still checked.
pub(crate) fn os(cx: &mut Cx, fabric: Option<&Sp<String>>, switch: Option<&Sp<String>>) -> Os {
    let Some(v) = switch.or(fabric) else {
        return Os::default();
    };
    let words: Vec<(&str, Os)> = Os::all().map(|o| (o.word(), o)).collect();
    cx.word(v, |w| choose(w, &words, "switch OS"))
        .unwrap_or_default()
}

/// The switch's model, from its OS's table. A model of another OS's table is E071, with the
/// OS it belongs to; an unknown one E021 with the OS's models.
pub(crate) fn hardware(cx: &mut Cx, os: Os, model: &Sp<String>) -> Option<Hardware> {
    let rules = os.target().rules();
    let name = model.get();
    if let Some(m) = rules.model(name) {
        return Some(m);
    }
    let Some(m) = Os::all()
        .filter(|o| *o != os)
        .find_map(|o| o.target().rules().model(name))
    else {
        return rules.unknown_model(cx, model);
    };
    let other = m.os();
    // A switch on the default OS may just lack its `os`; on another, the `os` may be wrong.
    let help = if os == Os::default() {
        format!(
            "add `os: {}` to the switch (or the fabric), or name {} model",
            other.word(),
            os.target().import().a_title()
        )
    } else {
        format!(
            "{os} models: {}; or remove `os: {}` for {} switch",
            rules.models(),
            os.word(),
            other.target().import().a_title()
        )
    };
    cx.push(
        Diagnostic::error(
            "E071",
            format!(
                "{} is {} switch model, and this switch runs {os}",
                m.name(),
                other.target().import().a_title()
            ),
        )
        .at(cx.span(model), format!("{other} model"))
        .help(help),
    );
    None
}

/// Keys refused on a switch's OS (E073), by where they are written: the key, what it is, the
/// OS, and the switches it is refused on (one diagnostic per line, naming them all).
pub(crate) type Foreign = BTreeMap<(Span, &'static str, &'static str, Os), BTreeSet<String>>;

/// Records `key`, written at `at`, as refused on switch `name` of `os` (E073): it is `what`.
pub(crate) fn refuse(
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
pub(crate) fn report_foreign(cx: &mut Cx) {
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
pub(crate) fn foreign_keys(
    cx: &mut Cx,
    os: Os,
    raw: &RawFabric,
    name: &str,
    sw: &super::super::raw::RawSwitch,
) {
    let mut found = Vec::new();
    os.target()
        .rules()
        .foreign_keys(cx, raw, name, sw, &mut found);
    for (key, at, what) in found {
        refuse(cx, os, name, key, at, what);
    }
}

/// The ports a port-map key or link end names, in the switch's OS's naming: Onyx `1/5`,
/// `1/1-1/8`, `1/5/2`; OS10 `ethernet1/1/5`, `ethernet1/1/1-1/1/8`, `ethernet1/1/5:2`. A name
/// of another OS is E072; anything else not a port E025.
pub(crate) fn ports(cx: &mut Cx, os: Os, text: &str, at: Span) -> Option<Vec<Port>> {
    os.target().rules().ports(cx, text.trim(), at)
}
