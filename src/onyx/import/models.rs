//! The model of an imported Onyx switch: the one the user gave, else guessed from its ports;
//! and the model's ports as the switch splits them.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use crate::import::Typed;
use crate::onyx::{Config, Iface, Interface};
use crate::types::{Model, Port, Split};

/// The models that fit a config: enough front-panel ports, the splits it makes, a native
/// speed it does not set explicitly (the format leaves a native speed out), and a first
/// release no later than the one its header prints (else the fabric would not validate,
/// E039); fewest ports first.
fn fitting_models(config: &Config) -> Vec<&'static Model> {
    let ports: Vec<(Port, &Interface)> = config
        .interfaces
        .iter()
        .filter_map(|(k, i)| match k {
            Iface::Ethernet(p) => Some((*p, i)),
            _ => None,
        })
        .collect();
    let mut models: Vec<&'static Model> = Model::all().iter().collect();
    models.sort_by_key(|m| m.port_count());
    if let Some(r) = config.header.release {
        models.retain(|m| m.check_release(r).is_ok());
    }
    models.retain(|m| {
        ports.iter().all(|(p, i)| {
            let split_ok = i.split.is_none_or(|s| m.check_split(*p, s).is_ok());
            let parent_split = p.sub.and_then(|_| {
                config
                    .interfaces
                    .get(&Iface::Ethernet(p.parent()))
                    .and_then(|i| i.split)
            });
            let native = m.native_speed(p.parent(), parent_split);
            let speed_ok = i.speed.is_none_or(|s| Some(s.speed) != native);
            m.has_port(p.parent()) && split_ok && speed_ok
        })
    });
    models
}

/// Each switch's model: the one the user gave, else among the models that fit it, the one
/// that fits the most switches of the fabric (fleets are mostly one model), then the one
/// with the fewest ports.
pub(super) fn guess_models<'a>(
    switches: &[Typed<'a, Config>],
) -> Result<BTreeMap<&'a str, &'static Model>, String> {
    let fits: BTreeMap<&str, Vec<&'static Model>> = switches
        .iter()
        .map(|(n, _, c)| (*n, fitting_models(c)))
        .collect();
    let count = |m: &Model| {
        fits.values()
            .filter(|v| v.iter().any(|x| x.name == m.name))
            .count()
    };
    let mut out = BTreeMap::new();
    for (name, s, _) in switches {
        let model = match s.model.and_then(crate::onyx::target::model_of) {
            Some(m) => m,
            // `max_by` keeps the last of equals: reversed, the first in table order wins.
            None => *fits[name]
                .iter()
                .rev()
                .max_by(|a, b| count(a).cmp(&count(b)).then(b.port_count().cmp(&a.port_count())))
                .ok_or_else(|| {
                    format!(
                        "{}: no supported model has these ports, splits and speeds; say it with `--model`",
                        s.origin
                    )
                })?,
        };
        out.insert(*name, model);
    }
    Ok(out)
}

/// Every usable Ethernet port of the switch with its interface (default when unconfigured).
pub(super) fn ports<'a>(config: &'a Config, model: &Model) -> Vec<(Port, &'a Interface)> {
    static NONE: LazyLock<Interface> = LazyLock::new(Interface::default);
    let none: &Interface = &NONE;
    let mut out = Vec::new();
    for p in model.ports() {
        let i = config.interfaces.get(&Iface::Ethernet(p)).unwrap_or(none);
        match i.split {
            Some(s) => {
                for sub in 1..=s.ways() {
                    let sp = Port::sub(p.slot, p.port, sub);
                    out.push((
                        sp,
                        config.interfaces.get(&Iface::Ethernet(sp)).unwrap_or(none),
                    ));
                }
            }
            None => {
                // A port disabled by its neighbour's 4-way split has no settings of its own.
                let taken = p.port > 1
                    && config
                        .interfaces
                        .get(&Iface::Ethernet(Port::new(p.slot, p.port - 1)))
                        .and_then(|i| i.split)
                        .is_some_and(|s| {
                            s == Split::Four
                                && model
                                    .check_split(Port::new(p.slot, p.port - 1), s)
                                    .ok()
                                    .flatten()
                                    == Some(p)
                        });
                if !taken {
                    out.push((p, i));
                }
            }
        }
    }
    out
}
