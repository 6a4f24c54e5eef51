//! Port references: ports of an entry or link end checked against the switch's model and
//! splits, link ends read, what a link end runs with, ports named in messages.

use super::*;

/// What one end of a link runs with, in the OS-neutral terms of `fabric::meaning` (defaults
/// included), and where the user set it: the OS names the port, the rest is compared.
pub(crate) struct LinkEnd {
    pub(crate) os: crate::fabric::Os,
    pub(crate) speed: (String, Option<Span>),
    pub(crate) mtu: (String, Option<Span>),
    pub(crate) trust: (String, Option<Span>),
    /// The priorities the port pauses: its PFC mode on, and the switch's PFC priorities.
    pub(crate) pauses: (BTreeSet<u8>, Option<Span>),
    /// Its scheduler, and where each class's ETS is written.
    pub(crate) schedule: crate::fabric::meaning::Schedule,
    pub(crate) ets_at: BTreeMap<TrafficClass, Span>,
    /// ECN per class, where written.
    pub(crate) ecn: BTreeMap<TrafficClass, (Ecn, Span)>,
}

/// `port 1/5`, or `ports 1/1-1/8, 1/10` for several.
pub(crate) fn describe_ports(ports: &[Port]) -> String {
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

/// [`describe_ports`] in the naming of the switch's OS: `port ethernet1/1/57` on OS10.
pub(crate) fn describe_ports_on(sw: &Switch, ports: &[Port]) -> String {
    let noun = if ports.len() == 1 { "port" } else { "ports" };
    format!("{noun} {}", list_ports_on(sw, ports))
}

/// The ports and runs of [`describe_ports_on`], without the noun: `ethernet1/1/17-1/1/20`.
pub(crate) fn list_ports_on(sw: &Switch, ports: &[Port]) -> String {
    let unit = ();
    let runs = crate::types::compress(ports.iter().map(|p| (*p, &unit)));
    let list: Vec<String> = runs
        .iter()
        .map(|(a, b, _)| {
            let a = sw.port_name(*a);
            if a == sw.port_name(*b) {
                a
            } else {
                format!("{a}-{}", sw.port_name(*b).trim_start_matches("ethernet"))
            }
        })
        .collect();
    list.join(", ")
}

/// Checks the ports of an entry or link end against the switch: they exist, subports belong
/// to a port split that way, a split parent is only split (not configured), ports disabled by
/// a neighbour's 4-way split are not used. One diagnostic per kind of problem, listing the
/// ports. True when every port is usable.
pub(crate) fn check_ports(
    cx: &mut Cx,
    sw: &Switch,
    disabled: &BTreeMap<Port, Span>,
    ports: &[Port],
    at: Span,
    split_only: bool,
) -> bool {
    let bad = unusable_ports(sw, disabled, ports, split_only);
    missing_or_taken(cx, sw, at, &bad);
    split_mismatches(cx, sw, at, &bad);
    bad.missing.is_empty()
        && bad.unusable.is_empty()
        && bad.no_sub.is_empty()
        && bad.unsplit.is_empty()
        && bad.parent.is_empty()
}

/// The ports of an entry or link end that cannot be used, by why.
#[derive(Default)]
struct Unusable {
    /// Not on the model.
    missing: Vec<Port>,
    /// Taken by a neighbour's 4-way split, and where the last such split is written.
    unusable: Vec<Port>,
    taken_at: Option<Span>,
    /// Subports past their port's split.
    no_sub: Vec<Port>,
    /// Subports of a port not split.
    unsplit: Vec<Port>,
    /// Split ports configured themselves (`split_only`: allowed).
    parent: Vec<Port>,
}

/// Sorts `ports` by why each cannot be used ([`Unusable`]).
fn unusable_ports(
    sw: &Switch,
    disabled: &BTreeMap<Port, Span>,
    ports: &[Port],
    split_only: bool,
) -> Unusable {
    let mut bad = Unusable::default();
    for &port in ports {
        let p = port.parent();
        if !sw.model.has_port(p) {
            bad.missing.push(port);
        } else if let Some(s) = disabled.get(&p) {
            bad.taken_at = Some(*s);
            bad.unusable.push(port);
        } else {
            match (port.sub, sw.splits.get(&p)) {
                (Some(sub), Some(split)) if sub > split.ways() => bad.no_sub.push(port),
                // Its port group's mode, settled once every port is claimed, decides.
                (Some(1), None) if group_subport(sw, port) => {}
                (Some(_), None) => bad.unsplit.push(port),
                (None, Some(_)) if !split_only => bad.parent.push(port),
                _ => {}
            }
        }
    }
    bad
}

/// E040 for ports the model lacks, E046 for ports a neighbour's 4-way split takes.
fn missing_or_taken(cx: &mut Cx, sw: &Switch, at: Span, bad: &Unusable) {
    let (name, model) = (&sw.hostname, sw.model.name());
    if !bad.missing.is_empty() {
        cx.push(
            Diagnostic::error(
                "E040",
                format!(
                    "{model} `{name}` has no {}",
                    describe_ports_on(sw, &bad.missing)
                ),
            )
            .at(at, "no such port")
            .help(format!(
                "{model} has ports {} to {}",
                sw.port_name(Port::new(1, 1)),
                sw.port_name(Port::new(1, sw.model.port_count()))
            )),
        );
    }
    if let Some(split) = bad.taken_at {
        cx.push(
            Diagnostic::error(
                "E046",
                format!(
                    "a 4-way split takes the lanes of {} of `{name}`",
                    describe_ports_on(sw, &bad.unusable)
                ),
            )
            .at(at, "unusable port")
            .also(split, "4-way split here"),
        );
    }
}

/// E041 for ports their splits do not make: subports past the split, subports of a port not
/// split, split ports configured themselves.
fn split_mismatches(cx: &mut Cx, sw: &Switch, at: Span, bad: &Unusable) {
    let name = &sw.hostname;
    if let Some(first) = bad.no_sub.first() {
        let ways = sw.splits.get(&first.parent()).map_or(0, |s| s.ways());
        cx.push(
            Diagnostic::error(
                "E041",
                format!(
                    "`{name}` has no {}: port {} is split {ways} ways",
                    describe_ports_on(sw, &bad.no_sub),
                    sw.port_name(first.parent())
                ),
            )
            .at(at, "no such subport"),
        );
    }
    if let Some(first) = bad.unsplit.first() {
        cx.push(
            Diagnostic::error(
                "E041",
                format!(
                    "port {} of `{name}` must be split to use {}",
                    sw.port_name(first.parent()),
                    describe_ports_on(sw, &bad.unsplit)
                ),
            )
            .at(at, "subport of a port that is not split")
            .help(format!(
                "add `{}: {{ split: 4 }}` (or 2) to the port map",
                sw.port_name(first.parent())
            )),
        );
    }
    if let Some(first) = bad.parent.first() {
        cx.push(
            Diagnostic::error(
                "E041",
                format!(
                    "split {} of `{name}` cannot be configured itself; configure its subports",
                    describe_ports_on(sw, &bad.parent)
                ),
            )
            .at(at, "split port")
            .help(format!(
                "write `{}` … instead",
                sw.port_name(Port::sub(first.slot, first.port, 1))
            )),
        );
    }
}

/// Whether `port` is a subport name its port group's mode gives a port without a split
/// (OS10's `ethernet1/1/N:1` in a `10g-4x` group): a name the port has or not by its group's
/// mode (settled by the OS's [`crate::targets::Rules::settle_groups`]).
pub(crate) fn group_subport(sw: &Switch, port: Port) -> bool {
    sw.os().target().rules().group_subport(sw, port)
}

/// `leaf01:1/31` or `leaf01:1/29-1/32` → the switch's name and its ports.
/// A switch whose name was refused (E022) is not reported again as unknown.
pub(crate) fn endpoint(
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
    if refused.contains(&sw.trim().to_lowercase()) {
        return None;
    }
    let os = cx
        .oses
        .get(&sw.trim().to_lowercase())
        .copied()
        .unwrap_or_default();
    let ports = super::target::ports(cx, os, ports, at)?;
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

/// The splits of one port-map entry that were refused (E042): subports split again, and ports
/// by why their model cannot split them so.
#[allow(clippy::too_many_arguments)]
pub(crate) fn refuse_splits(
    cx: &mut Cx,
    sw: &Switch,
    model: &str,
    split: Split,
    subports: &[Port],
    refused: BTreeMap<String, Vec<Port>>,
    at: Span,
    ways_at: Span,
) {
    if !subports.is_empty() {
        cx.error(
            "E042",
            format!(
                "sub{} cannot be split again",
                describe_ports_on(sw, subports)
            ),
            at,
            "split of a subport",
        );
    }
    for (why, ports) in refused {
        cx.error(
            "E042",
            format!(
                "{} of {model} cannot split {} ways: {why}",
                describe_ports_on(sw, &ports),
                split.ways()
            ),
            ways_at,
            "split not possible",
        );
    }
}
