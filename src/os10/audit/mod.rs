//! OS10 behind `fabric audit` ([`crate::targets::Audit`], [`crate::targets::Audited`]): the
//! RoCE view of an OS10 configuration ([`view`]), the lines that fix a finding as OS10 spells
//! them (a line of an interface's block, `interface range` for several), drift from a
//! fabric's switch as OS10's plan groups it (by block), and a live switch's running
//! configuration, unsaved when its startup configuration differs. OS10 has none of the parts
//! the rules read beyond the view (no traffic pools, no `roce` mode; its routing is not read
//! in the Onyx model).

use std::net::Ipv4Addr;

use super::target::Os10;
use super::{Config, Eth, Iface};
use crate::audit::view::View;
use crate::audit::{Drift, Part};
use crate::device::{Cli, Error, Options, Target};
use crate::fabric::{Hardware, Switch};
use crate::targets::{self, Fix, Fixes};
use crate::types::Port;
use crate::types::{Iface as Neutral, IfaceRange};

pub mod view;

pub use view::port_of;

/// OS10's fixes: a line of the block it belongs in; none where OS10 needs several blocks
/// (a WRED profile and a queuing policy for ECN, a trust map for DSCP).
pub static FIXES: Fixes = Fixes {
    a: "an OS10",
    ecn: None,
    ets: None,
    trust_l3: None,
    pfc_mode: Some("priority-flow-control mode on"),
    mtu: |mtu: u16| format!("mtu {mtu}"),
    pfc_priority: Some(|p: u8| format!("pfc-cos {p}")),
    save: Some("write memory"),
    dcbx_off: ("RoCE is configured but DCBX is off", Some("dcbx enable")),
    pfc_mode_alone: (
        "ports are in PFC mode but no network-qos policy in use pauses a class",
        None,
    ),
    pfc_global: ("a network-qos policy in use pauses a class", Some("pause")),
    bfd: "bfd enable",
    // A line of the neighbor's block: named in the message.
    neighbor_bfd: |asn: u32, addr: Ipv4Addr| {
        Fix::Said(format!(
            "add `bfd` to `neighbor {addr}` in `router bgp {asn}`"
        ))
    },
};

impl targets::Audit for Os10 {
    fn parts(&self) -> &'static [Part] {
        &[]
    }

    fn fixes(&self) -> &'static Fixes {
        &FIXES
    }

    /// OS10 configures a port in its block, several in `interface range`.
    fn on_interfaces(&self, r: IfaceRange, name: &str, line: &str) -> String {
        let block = if r.first == r.last {
            format!("interface {name}")
        } else {
            format!("interface range {name}")
        };
        format!("{block}\n {line}")
    }

    /// One port as OS10 names it without `ethernet`: `1/1/49` is port 49.
    fn described_port(&self, text: &str) -> Option<Port> {
        Eth::parse(text).ok().map(port_of)
    }

    /// `show running-configuration`; changes are unsaved when `show startup-configuration`
    /// (masked as the running one is) is another configuration, or does not read as one.
    fn read_live(
        &self,
        target: &Target,
        opts: &Options,
    ) -> Result<(Box<dyn targets::Config>, bool), Error> {
        let mut cli = Cli::open_as(target, opts, &super::dialect::DIALECT)?;
        let (_, config) = super::dialect::fetch(&mut cli)?;
        let startup = cli.run("show startup-configuration")?;
        cli.close();
        let startup = crate::secrets::mask(&startup, super::dialect::MASK);
        let unsaved = super::parse(&startup).map_or(true, |s| s != config);
        Ok((Box::new(config), unsaved))
    }
}

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
