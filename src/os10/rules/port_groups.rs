//! OS10 port groups: a switch that sets its ports through `port-group 1/1/N` (`mode Eth …`,
//! the S5248F-ON) runs every port of a group alike, so each group's mode comes from its
//! ports' splits and speeds together, once every entry and link end has claimed its ports
//! and before they are resolved. A mode that runs a port below its native speed without
//! splitting it names the port as a subport (`ethernet1/1/17:1` in `10g-4x`, the AzureStack
//! TOR capture): such ports are renamed so, in their claims, addresses, bundles and at the far
//! end of their cables, and may be written either way.
//!
//! - E048 — ports of one port group at different speeds, or at a speed no mode of the group
//!   runs
//! - E041 — `ethernet1/1/N:1` for a port whose group's mode names it `ethernet1/1/N`
//! - E073 — a speed other than the native one on an OS10 port outside a port group: nothing
//!   compiles it

use std::collections::{BTreeMap, BTreeSet};

use crate::fabric::validate::os::*;
use crate::types::{Port, Speed};

type Profiles = BTreeMap<String, (Layer, Span)>;

/// Ports no mode of their group runs at a speed, by where the speed is written, the speed and
/// the modes the groups take: the ports, and how many groups they are in.
type NoMode = BTreeMap<(Span, u32, &'static [&'static str]), (Vec<Port>, usize)>;

/// The speed a port's claims give it, and where it is written, as resolution will pick it: the
/// first entry or link end that sets one, else the first claim's profile's, else the fabric's
/// defaults', else what the switch's QoS implies.
fn speed_of(
    claims: &[&Claim],
    profiles: &Profiles,
    defaults: &Layer,
    implied: &Layer,
) -> Option<At<Speed>> {
    claims
        .iter()
        .find_map(|c| c.layer.speed)
        .or_else(|| {
            claims
                .iter()
                .find_map(|c| c.profile.as_ref())
                .and_then(|pr| profiles.get(&pr.0))
                .and_then(|(l, _)| l.speed)
        })
        .or(defaults.speed)
        .or(implied.speed)
}

/// The claims on the ports `names` (one interface written two ways: `ethernet1/1/17` and
/// `ethernet1/1/17:1`).
fn claims_of<'a>(p: &'a Pending, names: &[Port]) -> Vec<&'a Claim> {
    names
        .iter()
        .flat_map(|q| p.claims.get(q).into_iter().flatten())
        .collect()
}

/// Settles every OS10 switch's port groups (`Switch::port_groups`), renames the ports their
/// modes name as subports, and refuses speeds nothing compiles.
pub(crate) fn settle(
    cx: &mut Cx,
    pending: &mut BTreeMap<String, Pending>,
    link_pairs: &mut [LinkPair],
    profiles: &Profiles,
    defaults: &Layer,
) {
    // (switch, port as written) → its name under its group's mode.
    let mut renames: BTreeMap<(String, Port), Port> = BTreeMap::new();
    for (name, p) in pending.iter_mut() {
        let Some(model) = crate::os10::target::model_of(p.switch.model) else {
            continue;
        };
        outside_groups(cx, name, p, model, profiles, defaults);
        groups(cx, name, p, model, profiles, defaults);
        for n in p.renamed.clone() {
            let (from, to) = (Port::new(1, n), Port::sub(1, n, 1));
            let mut claims = p.claims.remove(&from).unwrap_or_default();
            claims.extend(p.claims.remove(&to).unwrap_or_default());
            if !claims.is_empty() {
                p.claims.insert(to, claims);
            }
            if let Some(a) = p.addresses.remove(&from) {
                p.addresses.entry(to).or_insert(a);
            }
            if p.unadvertised.remove(&from) {
                p.unadvertised.insert(to);
            }
            if let Some(b) = p.bundles.remove(&from) {
                p.bundles.entry(to).or_insert(b);
            }
            if let Some(k) = p.bundle_keys.remove(&from) {
                p.bundle_keys.entry(to).or_insert(k);
            }
            renames.insert((name.clone(), from), to);
        }
    }
    if renames.is_empty() {
        return;
    }
    // The far end of each cable names the port as its switch now does.
    for p in pending.values_mut() {
        for c in p.claims.values_mut().flatten() {
            if let Some((Peer::Switch { switch, port }, _)) = &mut c.peer
                && let Some(to) = renames.get(&(switch.as_str().to_string(), *port))
            {
                *port = *to;
            }
        }
    }
    for ((sa, pa), (sb, pb), ..) in link_pairs.iter_mut() {
        for (s, port) in [(&*sa, pa), (&*sb, pb)] {
            if let Some(to) = renames.get(&(s.clone(), *port)) {
                *port = *to;
            }
        }
    }
}

/// One switch's port groups: each group's mode, E048 where its ports disagree or no mode runs
/// them, E041 where a port is named as a subport its mode does not make.
fn groups(
    cx: &mut Cx,
    name: &str,
    p: &mut Pending,
    model: &'static super::super::models::Model,
    profiles: &Profiles,
    defaults: &Layer,
) {
    // Diagnostics made for several groups at once: by where and what.
    let mut no_mode = NoMode::new();
    let mut misnamed: BTreeMap<(Span, u16), Vec<Port>> = BTreeMap::new();
    for g in model.port_groups() {
        let id = super::super::PortGroupId::new(g.number);
        // A split takes one port of a group of one (`target::breakouts`).
        let ways = p
            .switch
            .splits
            .get(&Port::new(1, g.first))
            .map_or(1, |s| s.ways());
        let (mode, refused) = group_mode(
            cx,
            (name, &*p),
            (&g, ways),
            (profiles, defaults),
            &mut no_mode,
        );
        p.switch.port_groups.insert(g.number, mode);
        let renamed = g.layout(mode).is_some_and(|l| l.renamed);
        for n in g.ports() {
            if renamed {
                p.renamed.insert(n);
            } else if ways == 1
                && !refused
                && let Some(at) = p.named_sub.get(&Port::sub(1, n, 1))
            {
                misnamed
                    .entry((*at, id.number))
                    .or_default()
                    .push(Port::sub(1, n, 1));
            }
        }
    }
    no_mode_at_speed(cx, name, &p.switch, model, no_mode);
    misnamed_subports(cx, name, &p.switch, model, misnamed);
}

/// One port group's mode (split `ways`), from its interfaces' speeds: the mode that runs them
/// all at their one speed; else the group's native mode, its interfaces at different speeds
/// (E048 now) or at a speed no mode runs (E048 with other groups, in `no_mode`). Whether the
/// speed was refused: its ports' names then follow from no mode.
fn group_mode(
    cx: &mut Cx,
    (name, p): (&str, &Pending),
    (g, ways): (&super::super::models::Group, u8),
    (profiles, defaults): (&Profiles, &Layer),
    no_mode: &mut NoMode,
) -> (&'static str, bool) {
    let native = u32::from(g.run.speed) / u32::from(ways);
    // Each interface of the group: its names as written, its speed.
    let mut ifaces: Vec<(Port, Option<At<Speed>>)> = Vec::new();
    for n in g.ports() {
        let names: Vec<Vec<Port>> = if ways > 1 {
            (1..=ways).map(|s| vec![Port::sub(1, n, s)]).collect()
        } else {
            vec![vec![Port::new(1, n), Port::sub(1, n, 1)]]
        };
        for names in names {
            let claims = claims_of(p, &names);
            let speed = speed_of(&claims, profiles, defaults, &p.implied);
            ifaces.push((names[0], speed));
        }
    }
    let effective = |s: &Option<At<Speed>>| s.map_or(native, |(s, _)| s.gbps());
    let speeds: BTreeSet<u32> = ifaces.iter().map(|(_, s)| effective(s)).collect();
    let speeds: Vec<u32> = speeds.into_iter().collect();
    let [s] = speeds.as_slice() else {
        disagree(cx, name, p, g, &ifaces, native);
        return (g.native(), true);
    };
    let found = u16::try_from(*s).ok().and_then(|s| g.mode(ways, s));
    match (found, ifaces.iter().find_map(|(_, s)| *s)) {
        (Some(m), _) => return (m, false),
        // Above the port's speed: E045 says so when the port is resolved.
        (None, _) if *s > native => {}
        (None, Some((_, at))) => {
            let ports = ifaces.iter().map(|(q, _)| *q);
            let e = no_mode.entry((at, *s, g.run.maps)).or_default();
            e.0.extend(ports);
            e.1 += 1;
        }
        (None, None) => {}
    }
    (g.native(), true)
}

/// E048: ports no mode of their group runs at the speed they are given, one diagnostic per
/// place the speed is written.
fn no_mode_at_speed(
    cx: &mut Cx,
    name: &str,
    sw: &Switch,
    model: &'static super::super::models::Model,
    no_mode: NoMode,
) {
    for ((at, speed, maps), (ports, groups)) in no_mode {
        cx.push(
            Diagnostic::error(
                "E048",
                format!(
                    "no port-group mode runs {} of `{name}` ({}) at {speed}G: {} `mode Eth` {}",
                    ports::describe_ports_on(sw, &ports),
                    model.name,
                    if groups == 1 {
                        "their port group takes"
                    } else {
                        "their port groups take"
                    },
                    maps.join(", ")
                ),
            )
            .at(at, "no mode at this speed")
            .help("OS10 sets a port group's speed with its mode (`port-group 1/1/N`, `mode Eth …`): give these ports a speed one of its modes runs, or none (their native speed)"),
        );
    }
}

/// E041: ports named as their group's subport (`ethernet1/1/N:1`) where the group's mode
/// names them plainly, by where each is named and its group.
fn misnamed_subports(
    cx: &mut Cx,
    name: &str,
    sw: &Switch,
    model: &'static super::super::models::Model,
    misnamed: BTreeMap<(Span, u16), Vec<Port>>,
) {
    for ((at, number), ports) in misnamed {
        let Some(g) = model.port_group(number) else {
            continue;
        };
        let mode = sw.port_groups.get(&number).copied().unwrap_or(g.native());
        let renaming: Vec<(&str, u16)> = g
            .run
            .maps
            .iter()
            .copied()
            .filter_map(|m| g.layout(m).filter(|l| l.renamed).map(|l| (m, l.speed)))
            .collect();
        let modes: Vec<&str> = renaming.iter().map(|(m, _)| *m).collect();
        let speeds: Vec<String> = renaming
            .iter()
            .map(|(_, s)| format!("`speed: {s}G`"))
            .collect();
        let plain: Vec<Port> = ports.iter().map(|q| q.parent()).collect();
        let whole: Vec<Port> = g.ports().map(|n| Port::new(1, n)).collect();
        cx.push(
            Diagnostic::error(
                "E041",
                format!(
                    "`{name}` has no {}: port group 1/1/{number} runs {mode}, which names its ports {}",
                    ports::describe_ports_on(sw, &ports),
                    ports::list_ports_on(sw, &whole),
                ),
            )
            .at(at, "not this port's name")
            .help(format!(
                "a port of the group is `ethernet1/1/N:1` when the group runs {}: give {} {}, or write {}",
                modes.join(" or "),
                ports::describe_ports_on(sw, &whole),
                speeds.join(" or "),
                ports::list_ports_on(sw, &plain),
            )),
        );
    }
}

/// E048: the interfaces of one port group at different speeds.
fn disagree(
    cx: &mut Cx,
    name: &str,
    p: &Pending,
    g: &super::super::models::Group,
    ifaces: &[(Port, Option<At<Speed>>)],
    native: u32,
) {
    let sw = &p.switch;
    let mut by_speed: BTreeMap<u32, (Vec<Port>, Vec<Span>)> = BTreeMap::new();
    for (q, s) in ifaces {
        let e = by_speed
            .entry(s.map_or(native, |(s, _)| s.gbps()))
            .or_default();
        e.0.push(*q);
        if let Some((_, at)) = s
            && !e.1.contains(at)
        {
            e.1.push(*at);
        }
    }
    let parts: Vec<String> = by_speed
        .iter()
        .map(|(s, (ports, spans))| {
            let what = if spans.is_empty() {
                format!("{s}G, their native speed")
            } else {
                format!("{s}G")
            };
            format!("{} at {what}", ports::describe_ports_on(sw, ports))
        })
        .collect();
    let spans: Vec<(u32, Span)> = by_speed
        .iter()
        .flat_map(|(s, (_, spans))| spans.iter().map(|at| (*s, *at)))
        .collect();
    let Some(((first_speed, first), rest)) = spans.split_first() else {
        return;
    };
    let whole: Vec<Port> = ifaces.iter().map(|(q, _)| *q).collect();
    let mut d = Diagnostic::error(
        "E048",
        format!(
            "the ports of port group 1/1/{} of `{name}` run at one speed, their group's: {}",
            g.number,
            parts.join(", ")
        ),
    )
    .at(*first, format!("{first_speed}G here"));
    for (s, at) in rest {
        d = d.also(*at, format!("{s}G here"));
    }
    cx.push(d.help(format!(
        "OS10 sets a port group's speed for all its ports with its mode (`port-group 1/1/{}`, `mode Eth` {}): give {} one `speed`",
        g.number,
        g.run.maps.join(" or "),
        ports::describe_ports_on(sw, &whole)
    )));
}

/// E073: a speed other than the native one on a port of an OS10 switch outside a port group.
/// OS10 would set it with the port's `speed` or its breakout map, neither of which is compiled
/// from `speed` yet: a value dropped silently would compile to a switch that does not run it.
fn outside_groups(
    cx: &mut Cx,
    name: &str,
    p: &Pending,
    model: &'static super::super::models::Model,
    profiles: &Profiles,
    defaults: &Layer,
) {
    let mut found: BTreeMap<(Span, u32, u32), Vec<Port>> = BTreeMap::new();
    for n in 1..=model.port_count() {
        if model.port_group_of(n).is_some() {
            continue;
        }
        let Some(run) = model.run(n) else { continue };
        let ways = p
            .switch
            .splits
            .get(&Port::new(1, n))
            .map_or(1, |s| s.ways());
        let native = u32::from(run.speed) / u32::from(ways);
        let ifaces: Vec<Port> = if ways > 1 {
            (1..=ways).map(|s| Port::sub(1, n, s)).collect()
        } else {
            vec![Port::new(1, n)]
        };
        for q in ifaces {
            let claims = claims_of(p, &[q]);
            if let Some((s, at)) = speed_of(&claims, profiles, defaults, &p.implied)
                && s.gbps() < native
            {
                found.entry((at, s.gbps(), native)).or_default().push(q);
            }
        }
    }
    for ((at, speed, native), ports) in found {
        cx.push(
            Diagnostic::error(
                "E073",
                format!(
                    "`speed: {speed}G` on {} of `{name}` ({}) is not compiled for OS10: a speed below a port's native one ({native}G here) is compiled for a port group's ports only (`mode Eth …`), and {} in none",
                    ports::describe_ports_on(&p.switch, &ports),
                    model.name,
                    if ports.len() == 1 { "this port is" } else { "these ports are" }
                ),
            )
            .at(at, "not compiled for OS10")
            .help("remove it (the ports run at their native speed), or set the speed on the switch outside the fabric"),
        );
    }
}
