//! Dell SmartFabric OS10 behind the switch-OS interface ([`crate::targets`]).

use std::any::Any;
use std::sync::OnceLock;

use crate::config_error::ParseError;
use crate::fabric::{Hardware, Os, Switch};
use crate::secrets::Mask;
use crate::targets::{self, Comparison, Managed, PlanStep, SwitchOs, Words};
use crate::types::Port;
use crate::types::{Iface as NeutralIface, IfaceRange};

use super::models::Model;
use super::{Config, Iface, Renderer};

/// Dell SmartFabric OS10.
pub struct Os10;

pub const OS10: Os10 = Os10;

/// OS10 in the fabric model.
pub const OS: Os = Os::new(&OS10);

/// OS10's words: its MLAG pair is VLT, the peer link its own ports (the VLTi), a pair's
/// bundle a `vlt-port-channel` port-channel, breakouts, DCBX on or off switch-wide.
pub static WORDS: Words = Words {
    title: "OS10",
    word: "os10",
    product: "Dell SmartFabric OS10",
    pair: "VLT",
    peer_link: "VLTi",
    a_peer_link: "a VLT interconnect (VLTi)",
    peer_link_ports: true,
    pair_bundle_is_port_channel: true,
    splits: "Breakouts",
    dcbx: true,
};

impl SwitchOs for Os10 {
    fn os(&self) -> Os {
        OS
    }

    fn words(&self) -> &'static Words {
        &WORDS
    }

    fn port_name(&self, p: Port) -> String {
        Iface::Ethernet(super::eth_of(p)).to_string()
    }

    fn iface_range(&self, r: IfaceRange) -> String {
        let one = |i: NeutralIface| match i {
            NeutralIface::Ethernet(p) => self.port_name(p),
            NeutralIface::PortChannel(n) | NeutralIface::MlagPortChannel(n) => {
                format!("port-channel{n}")
            }
            NeutralIface::Vlan(v) => format!("vlan{v}"),
            other => other.to_string(),
        };
        if r.first == r.last {
            return one(r.first);
        }
        let last = one(r.last);
        let last = last
            .strip_prefix("ethernet")
            .or_else(|| last.strip_prefix("port-channel"))
            .unwrap_or(&last)
            .to_string();
        format!("{}-{last}", one(r.first))
    }

    fn release(&self, sw: &Switch) -> Option<String> {
        sw.release_text.clone()
    }

    /// The model's port groups not in their native mode (the others are the model's).
    fn hardware_facts(&self, sw: &Switch) -> Vec<(&'static str, String)> {
        let Some(m) = model_of(sw.model) else {
            return Vec::new();
        };
        let changed: Vec<String> = m
            .port_groups()
            .filter_map(|g| {
                let mode = sw.port_groups.get(&g.number).copied()?;
                (mode != g.native()).then(|| format!("1/1/{} {mode}", g.number))
            })
            .collect();
        match changed.is_empty() {
            true => Vec::new(),
            false => vec![("Port groups", changed.join(", "))],
        }
    }

    fn compile(&self, sw: &Switch) -> Box<dyn targets::Config> {
        Box::new(super::compile::compile_switch(sw))
    }

    fn recognizes(&self, text: &str) -> bool {
        super::parse::looks_os10(text)
    }

    fn parse(&self, text: &str) -> Result<Box<dyn targets::Config>, ParseError> {
        Ok(Box::new(super::parse(text)?))
    }

    fn a_running_config(&self) -> &'static str {
        "an OS10 running configuration"
    }

    fn import(&self) -> &'static dyn targets::Import {
        &super::import::IMPORT
    }

    fn intent(&self, sw: &Switch) -> Box<dyn targets::Intent> {
        Box::new(super::push::Intent::of(sw))
    }

    /// OS10's templates are the embedded ones: a folder of them is not read.
    fn templates(&self, dir: &std::path::Path) -> Result<Box<dyn targets::Render>, String> {
        Err(format!(
            "`{}`: OS10's templates are the embedded ones",
            dir.display()
        ))
    }

    fn reads(&self) -> &'static dyn targets::Reads {
        &super::verify::READS
    }

    fn audit(&self) -> &'static dyn targets::Audit {
        &OS10
    }

    fn rules(&self) -> &'static dyn targets::Rules {
        &super::rules::RULES
    }

    fn mask(&self) -> Mask {
        super::dialect::MASK
    }

    fn lab(&self) -> &'static dyn targets::Lab {
        &super::lab::target::LAB
    }

    fn dialect(&self) -> &'static crate::device::dialect::Dialect {
        &super::dialect::DIALECT
    }

    fn fetch(
        &self,
        cli: &mut crate::device::Cli,
    ) -> Result<(String, Box<dyn targets::Config>), crate::device::Error> {
        let (text, config) = super::dialect::fetch(cli)?;
        Ok((text, Box::new(config)))
    }
}

/// The templates, read once per process.
pub fn renderer() -> Result<&'static Renderer, String> {
    static RENDERER: OnceLock<Result<Renderer, String>> = OnceLock::new();
    RENDERER
        .get_or_init(Renderer::embedded)
        .as_ref()
        .map_err(Clone::clone)
}

impl targets::Config for Config {
    fn target(&self) -> &'static dyn SwitchOs {
        &OS10
    }

    fn hostname(&self) -> Option<&str> {
        self.hostname.as_deref()
    }

    fn render(&self) -> Result<String, String> {
        renderer()?.render(self)
    }

    fn compare(&self, intended: &dyn targets::Config, how: &Managed) -> Result<Comparison, String> {
        let intended = targets::typed::<Config>(intended)?;
        let plan = super::plan::plan(self, intended);
        let texts = match how.text {
            true => {
                let target = super::plan::target(self, intended);
                let r = renderer()?;
                Some((r.render(self)?, r.render(&target)?))
            }
            false => None,
        };
        // The fabric's model; else the one the configurations' port groups name (a running
        // configuration does not say its model).
        let model = match how.switch.map(|sw| sw.model) {
            Some(hw) => model_of(hw),
            None => super::groups::model_of([&self.port_groups, &intended.port_groups]),
        };
        Ok(Comparison {
            pasteable: super::plan::script(&plan),
            steps: plan
                .iter()
                .map(|s| PlanStep {
                    impact: s.impact,
                    shown: s.shown(),
                    warning: s.loss(),
                    json: serde_json::to_value(s).unwrap_or_default(),
                })
                .collect(),
            texts,
            unmanaged_lines: self
                .layout
                .anchored()
                .iter()
                .map(|(_, t)| t.lines().count())
                .sum(),
            foreign_ports: model.map(|m| foreign(self, m)).unwrap_or_default(),
            model: model.map(|m| m.name),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn clone_box(&self) -> Box<dyn targets::Config> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn targets::Config) -> bool {
        targets::typed::<Config>(other).is_ok_and(|o| o == self)
    }
}

/// The Ethernet ports a running configuration configures that its model does not have
/// (another unit or slot than 1/1, or a port number past the model's).
fn foreign(running: &Config, model: &Model) -> Vec<String> {
    running
        .interfaces
        .keys()
        .filter(|i| match i {
            Iface::Ethernet(e) => e.node != 1 || e.slot != 1 || model.run(e.port).is_none(),
            _ => false,
        })
        .map(|i| i.to_string())
        .collect()
}

/// OS10's model table in the fabric model.
impl targets::Model for Model {
    fn name(&self) -> &'static str {
        self.name
    }

    fn target(&self) -> &'static dyn SwitchOs {
        &OS10
    }

    fn has_port(&self, p: Port) -> bool {
        p.slot == 1 && self.run(p.port).is_some()
    }

    fn port_count(&self) -> u16 {
        Model::port_count(self)
    }

    /// An OS10 breakout shares the port's lanes (`25g-4x` on a 100G port).
    fn native_speed(
        &self,
        p: Port,
        split: Option<crate::types::Split>,
    ) -> Option<crate::types::Speed> {
        self.run(p.port).and_then(|g| {
            let ways = split.map_or(1, |s| u16::from(s.ways()));
            crate::types::Speed::from_gbps(u32::from(g.speed / ways))
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The OS10 model a switch's hardware is, if it is one of OS10's.
pub fn model_of(hw: Hardware) -> Option<&'static Model> {
    hw.model().as_any().downcast_ref::<Model>()
}

#[cfg(test)]
mod tests {
    use super::OS;
    use crate::docs::topology::{cable_label, end_label, port_label, port_list};
    use crate::types::Port;

    #[test]
    fn docs_labels_name_os10_ports() {
        let p = |s: &str| s.parse::<Port>().unwrap();
        let ports: Vec<Port> = ["1/1", "1/2", "1/4", "1/6", "1/7"].map(p).to_vec();
        assert_eq!(end_label(OS, &ports[..1], 1), "ethernet1/1/1");
        assert_eq!(
            port_list(OS, &ports),
            "ethernet1/1/1-1/1/2, ethernet1/1/4, ethernet1/1/6-1/1/7"
        );
        assert_eq!(
            port_label(OS, &ports),
            "ethernet1/1/1 … ethernet1/1/7, 5 ports"
        );
        // A cable between an Onyx and an OS10 switch: each end in its own OS's naming.
        let cables = vec![(p("1/25"), p("1/1")), (p("1/26"), p("1/2"))];
        assert_eq!(
            cable_label((crate::onyx::target::OS, OS), &cables),
            "1/25-1/26 ↔ ethernet1/1/1-1/1/2"
        );
        assert_eq!(
            cable_label((OS, OS), &[(p("1/1/1"), p("1/1/1"))]),
            "ethernet1/1/1:1 ↔ ethernet1/1/1:1"
        );
    }
}
