//! OS10 behind `fabric audit` ([`crate::targets::Audited`]): the RoCE view of an OS10
//! configuration ([`view`]), its described ports, and drift from a fabric's switch as OS10's
//! plan groups it (by block).

use super::{Config, Iface};
use crate::audit::Drift;
use crate::audit::view::View;
use crate::fabric::{Hardware, Switch};
use crate::onyx::Iface as Neutral;
use crate::targets;
use crate::types::Port;

pub mod view;

pub use view::port_of;

impl targets::Audited for Config {
    fn view(&self, hardware: Option<Hardware>) -> View {
        view::view(self, hardware)
    }

    fn onyx_model(&self) -> Option<&crate::onyx::Config> {
        None
    }

    fn descriptions(&self) -> Vec<(Port, &str)> {
        self.interfaces
            .iter()
            .filter_map(|(k, i)| match (k, &i.description) {
                (Iface::Ethernet(e), Some(d)) => Some((port_of(*e), d.as_str())),
                _ => None,
            })
            .collect()
    }

    fn drift(&self, sw: &Switch) -> Vec<Drift> {
        drift(self, sw)
    }
}

/// An OS10 switch's drift: per top-level item (an interface, a policy-map, `system qos` …),
/// the OS10 commands that bring it back to the fabric (`os10::plan`).
fn drift(running: &Config, sw: &Switch) -> Vec<Drift> {
    let intended = super::compile::compile_switch(sw);
    let steps = super::plan::plan(running, &intended);
    let mut by_object: Vec<(String, Vec<super::plan::Step>)> = Vec::new();
    for step in steps {
        let object = step.mode.first().cloned().unwrap_or_else(|| {
            step.command
                .strip_prefix("no ")
                .unwrap_or(&step.command)
                .to_string()
        });
        match by_object.iter_mut().find(|(o, _)| *o == object) {
            Some((_, s)) => s.push(step),
            None => by_object.push((object, vec![step])),
        }
    }
    by_object
        .into_iter()
        .map(|(object, steps)| {
            // An interface's block (`interface ethernet1/1/9`), as the audit's view names it.
            let named = object.strip_prefix("interface ").map(Iface::parse);
            let iface = match named {
                Some(Ok(Some(Iface::Ethernet(e)))) => Some(Neutral::Ethernet(port_of(e))),
                Some(Ok(Some(Iface::PortChannel(n)))) => Some(Neutral::PortChannel(n)),
                _ => None,
            };
            Drift {
                object,
                command: super::plan::script(&steps).trim_end().to_string(),
                ifaces: iface.into_iter().collect(),
            }
        })
        .collect()
}
