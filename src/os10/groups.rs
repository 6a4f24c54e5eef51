//! Port groups applied to a configuration: which interfaces a switch's front-panel ports are
//! under its breakouts and port-group modes, which ports a change of modes re-creates, and the
//! model a configuration's port groups name. A running configuration does not say its model;
//! its port groups do ([`models::by_port_groups`]), so the plan and the script find the
//! layout in the configurations they compare. Reads and deletes only; it prints nothing.

use std::collections::{BTreeMap, BTreeSet};

use super::models::{self, Group, Model};
use super::{Config, Eth, Iface, PortGroup, PortGroupId};

/// The model whose layout the port groups of `configs` are (see [`models::by_port_groups`]).
pub fn model_of<'a>(
    configs: impl IntoIterator<Item = &'a BTreeMap<PortGroupId, PortGroup>>,
) -> Option<&'static Model> {
    let mut numbers = BTreeSet::new();
    for groups in configs {
        for id in groups.keys() {
            if id.node != 1 || id.slot != 1 {
                return None;
            }
            numbers.insert(id.number);
        }
    }
    models::by_port_groups(numbers)
}

/// A group's mode in `groups`: the one set, else `None`.
fn mode_in(groups: &BTreeMap<PortGroupId, PortGroup>, number: u16) -> Option<&str> {
    groups
        .get(&PortGroupId::new(number))
        .and_then(|g| g.mode.as_deref())
}

/// The mode group `g` runs under `groups`: the one set, else its native one (a group always
/// runs a mode).
pub fn mode<'a>(groups: &'a BTreeMap<PortGroupId, PortGroup>, g: &Group) -> &'a str {
    mode_in(groups, g.number).unwrap_or(g.native())
}

/// A change of `c`'s port groups from `before`, as a switch of `model` takes it: each group
/// that changed is one of the model's, in a mode it takes (else `Err` with the first that is
/// not, nothing deleted), and the interfaces of the ports whose mode changes are deleted; the
/// new mode's are created when entered (Dell OS10 user guide, "Port groups"; UNCONFIRMED by a
/// capture, as for `interface breakout`).
pub fn regroup(
    model: &Model,
    before: &BTreeMap<PortGroupId, PortGroup>,
    c: &mut Config,
) -> Result<(), PortGroupId> {
    for (id, g) in &c.port_groups {
        if before.get(id) == Some(g) {
            continue;
        }
        let group = (id.node == 1 && id.slot == 1)
            .then(|| model.port_group(id.number))
            .flatten()
            .ok_or(*id)?;
        if g.mode.as_deref().is_some_and(|m| group.layout(m).is_none()) {
            return Err(*id);
        }
    }
    let gone = regrouped(before, &c.port_groups);
    vacate(c, &gone);
    Ok(())
}

/// The front-panel ports whose port group's mode `to` sets differently from `from` (where
/// `from` has no mode for a group, its native one: a group always runs a mode): the switch
/// deletes their interfaces and creates the new mode's (Dell OS10 user guide, "Port groups";
/// UNCONFIRMED by a capture, as for `interface breakout`). Without a model (no port group, or
/// groups no model of the table has) none.
pub fn regrouped(
    from: &BTreeMap<PortGroupId, PortGroup>,
    to: &BTreeMap<PortGroupId, PortGroup>,
) -> BTreeSet<u16> {
    let mut out = BTreeSet::new();
    let Some(model) = model_of([from, to]) else {
        return out;
    };
    for g in model.port_groups() {
        let had = mode(from, &g);
        if mode_in(to, g.number).is_some_and(|want| want != had) {
            out.extend(g.ports());
        }
    }
    out
}

/// Deletes the Ethernet interfaces of front-panel ports `ports` (a port and its subports).
pub fn vacate(c: &mut Config, ports: &BTreeSet<u16>) {
    c.interfaces.retain(|i, _| {
        !matches!(i, Iface::Ethernet(e) if e.node == 1 && e.slot == 1 && ports.contains(&e.port))
    });
}

/// The switch's Ethernet interfaces as `model` makes them under `config`'s breakouts and
/// port-group modes, each with its speed in Gb/s: a port, its breakout's subports, or its port
/// group's interfaces (`ethernet1/1/17:1` in `10g-4x`). A group with no mode set runs its
/// native one.
pub fn interfaces(config: &Config, model: &Model) -> Vec<(Eth, u16)> {
    let mut out = Vec::new();
    for n in 1..=model.port_count() {
        let Some(run) = model.run(n) else { continue };
        if let Some(g) = model.port_group_of(n) {
            out.extend(g.interfaces(n, mode(&config.port_groups, &g)));
            continue;
        }
        let map = config
            .breakouts
            .get(&Eth::new(n))
            .and_then(|m| models::read_map(m));
        match map {
            Some((speed, ways)) if ways > 1 => {
                let ways = u8::try_from(ways).unwrap_or(1);
                out.extend((1..=ways).map(|s| (Eth::sub(n, s), speed)));
            }
            Some((speed, _)) => out.push((Eth::new(n), speed)),
            None => out.push((Eth::new(n), run.speed)),
        }
    }
    out
}

/// The speed of an Ethernet interface as its port group's mode runs it, when it is in one
/// whose model `config`'s groups name.
pub fn speed_of(config: &Config, e: Eth) -> Option<u16> {
    let model = model_of([&config.port_groups])?;
    let g = model.port_group_of(e.port)?;
    g.interfaces(e.port, mode(&config.port_groups, &g))
        .into_iter()
        .find(|(x, _)| *x == e)
        .map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups(modes: &[(u16, &str)]) -> BTreeMap<PortGroupId, PortGroup> {
        modes
            .iter()
            .map(|(n, m)| {
                (
                    PortGroupId::new(*n),
                    PortGroup {
                        mode: Some(m.to_string()),
                        extras: Vec::new(),
                    },
                )
            })
            .collect()
    }

    #[test]
    fn a_mode_change_re_creates_its_groups_ports() {
        let from = groups(&[(5, "25g-4x"), (15, "100g-1x")]);
        let to = groups(&[(5, "10g-4x"), (15, "100g-1x")]);
        assert_eq!(
            regrouped(&from, &to).into_iter().collect::<Vec<_>>(),
            vec![17, 18, 19, 20]
        );
        assert!(regrouped(&from, &from).is_empty());
        // A group the target does not state keeps its mode; one the source does not state runs
        // its native mode.
        assert!(regrouped(&from, &BTreeMap::new()).is_empty());
        assert!(regrouped(&BTreeMap::new(), &groups(&[(5, "25g-4x")])).is_empty());
        assert_eq!(regrouped(&BTreeMap::new(), &to).len(), 4);
        let mut c = Config {
            port_groups: to,
            ..Config::default()
        };
        let m = Model::named("S5248F-ON").unwrap();
        let ifs = interfaces(&c, m);
        assert_eq!(ifs.len(), 56);
        assert!(ifs.contains(&(Eth::sub(17, 1), 10)));
        assert!(ifs.contains(&(Eth::new(16), 25)));
        assert_eq!(speed_of(&c, Eth::sub(20, 1)), Some(10));
        c.interfaces
            .insert(Iface::Ethernet(Eth::new(17)), Default::default());
        c.interfaces
            .insert(Iface::Ethernet(Eth::new(21)), Default::default());
        vacate(&mut c, &[17].into_iter().collect());
        assert_eq!(c.interfaces.len(), 1);
    }

    /// A change the model takes deletes the interfaces of the ports it re-creates; a mode the
    /// group does not take, or a group the model lacks, is refused with nothing deleted.
    #[test]
    fn a_change_of_groups_is_taken_as_the_model_takes_it() {
        let m = Model::named("S5248F-ON").unwrap();
        let before = groups(&[(5, "25g-4x")]);
        let with = |modes: &[(u16, &str)]| {
            let mut c = Config {
                port_groups: groups(modes),
                ..Config::default()
            };
            for n in [17, 21] {
                c.interfaces
                    .insert(Iface::Ethernet(Eth::new(n)), Default::default());
            }
            c
        };
        let mut c = with(&[(5, "10g-4x")]);
        assert_eq!(regroup(m, &before, &mut c), Ok(()));
        assert_eq!(c.interfaces.len(), 1);
        let mut c = with(&[(5, "100g-2x")]);
        assert_eq!(regroup(m, &before, &mut c), Err(PortGroupId::new(5)));
        assert_eq!(c.interfaces.len(), 2);
        let mut c = with(&[(5, "25g-4x"), (40, "25g-4x")]);
        assert_eq!(regroup(m, &before, &mut c), Err(PortGroupId::new(40)));
        assert_eq!(c.interfaces.len(), 2);
    }
}
