//! OS10's port names (`ethernet1/1/5`, `ethernet1/1/1-1/1/8`, `ethernet1/1/5:2`) and its
//! splits: `interface breakout` of a port, or its port group's mode.

use std::collections::BTreeMap;

use crate::fabric::Switch;
use crate::fabric::validate::os::{Cx, Diagnostic, Sp, Span, refuse_splits};
use crate::types::{Port, Split, parse_port_range};

/// Whether a name is written the OS10 way (`ethernet…`).
pub(super) fn names_ports(t: &str) -> bool {
    t.get(..8)
        .is_some_and(|h| h.eq_ignore_ascii_case("ethernet"))
}

/// The ports a port-map key or link end names, in OS10's naming; another OS's naming is
/// E072, anything else not a port E025.
pub(super) fn ports(cx: &mut Cx, t: &str, at: Span) -> Option<Vec<Port>> {
    if names_ports(t) {
        return match os10_ports(&t[8..]) {
            Ok(p) => Some(p),
            Err(msg) => {
                cx.push(
                    Diagnostic::error("E025", msg)
                        .at(at, "not a port or range")
                        .help(NAMING),
                );
                None
            }
        };
    }
    let mut d = Diagnostic::error(
        "E072",
        format!("`{}` is not an OS10 port name", t.escape_debug()),
    )
    .at(at, "not OS10 naming");
    d = match parse_port_range(t) {
        Ok(ps) => {
            let name = |p: &Port| super::super::target::OS.port_name(*p);
            let (first, last) = (ps.first(), ps.last());
            match (first, last) {
                (Some(a), Some(b)) if a != b => d.help(format!(
                    "this is Onyx naming; on OS10 write `{}-{}`",
                    name(a),
                    name(b).trim_start_matches("ethernet")
                )),
                (Some(a), _) => d.help(format!("this is Onyx naming; on OS10 write `{}`", name(a))),
                _ => d,
            }
        }
        Err(_) => d.help(NAMING),
    };
    cx.push(d);
    None
}

/// How OS10 names ports, for a help line.
const NAMING: &str =
    "OS10 names ports `ethernet1/1/5`, ranges `ethernet1/1/1-1/1/8`, breakouts `ethernet1/1/5:2`";

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
