//! Onyx behind the switch-OS interface ([`crate::targets`]).

use std::any::Any;
use std::collections::HashSet;
use std::sync::OnceLock;

use crate::fabric::{Os, Switch};
use crate::onyx::plan::Scope;
use crate::onyx::{Config, Iface, IfaceRange, ParseError, Renderer};
use crate::secrets::Mask;
use crate::targets::{self, Comparison, Managed, PlanStep, SwitchOs, Words};
use crate::types::{Model, Port};

/// NVIDIA Onyx.
pub struct Onyx;

pub const ONYX: Onyx = Onyx;

/// Onyx in the fabric model.
pub const OS: Os = Os::new(&ONYX);

/// Onyx's words: `MLAG`, its peer link a port-channel over a VLAN, `Split ports`.
pub static WORDS: Words = Words {
    title: "Onyx",
    word: "onyx",
    product: "NVIDIA Onyx",
    pair: "MLAG",
    peer_link: "MLAG peer link",
    a_peer_link: "an MLAG peer link",
    peer_link_ports: false,
    pair_bundle_is_port_channel: false,
    splits: "Split ports",
    dcbx: false,
};

impl SwitchOs for Onyx {
    fn os(&self) -> Os {
        OS
    }

    fn words(&self) -> &'static Words {
        &WORDS
    }

    fn port_name(&self, p: Port) -> String {
        p.to_string()
    }

    fn port_range(&self, first: Port, last: Port) -> String {
        crate::types::format_range(first, last)
    }

    fn iface_range(&self, r: IfaceRange) -> String {
        r.to_string()
    }

    fn release(&self, sw: &Switch) -> Option<String> {
        sw.release.map(|r| r.to_string())
    }

    fn hardware_facts(&self, _sw: &Switch) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    fn compile(&self, sw: &Switch) -> Box<dyn targets::Config> {
        Box::new(super::compile::compile_switch(sw))
    }

    /// Onyx is the default OS: it takes every text no other OS claims.
    fn recognizes(&self, _text: &str) -> bool {
        true
    }

    fn parse(&self, text: &str) -> Result<Box<dyn targets::Config>, ParseError> {
        Ok(Box::new(super::parse(text)?))
    }

    fn a_running_config(&self) -> &'static str {
        "an Onyx running-config"
    }

    fn import(&self) -> &'static dyn targets::Import {
        &super::import::IMPORT
    }

    fn intent(&self, sw: &Switch) -> Box<dyn targets::Intent> {
        Box::new(super::push::Intent::of(sw))
    }

    fn templates(&self, dir: &std::path::Path) -> Result<Box<dyn targets::Render>, String> {
        Ok(Box::new(Renderer::from_dir(dir)?))
    }

    fn reads(&self) -> &'static dyn targets::Reads {
        &super::verify::READS
    }

    fn audit(&self) -> &'static dyn targets::Audit {
        &ONYX
    }

    fn rules(&self) -> &'static dyn targets::Rules {
        &super::rules::RULES
    }

    fn mask(&self) -> Mask {
        super::dialect::MASK
    }

    fn lab(&self) -> &'static dyn targets::Lab {
        &super::lab::LAB
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
        &ONYX
    }

    fn hostname(&self) -> Option<&str> {
        self.name()
    }

    fn render(&self) -> Result<String, String> {
        renderer()?.render(self)
    }

    fn compare(&self, intended: &dyn targets::Config, how: &Managed) -> Result<Comparison, String> {
        let intended = targets::typed::<Config>(intended)?;
        let scope = match how.switch {
            Some(sw) => Scope::fabric(sw, how.prune),
            None => Scope {
                interfaces: None,
                fabric_attributes_only: false,
                prune: how.prune,
                ..Default::default()
            },
        };
        let target = super::plan::target(self, intended, &scope);
        let steps: Vec<PlanStep> = super::plan::plan(self, &target)
            .into_iter()
            .map(|s| PlanStep {
                impact: s.impact,
                shown: s.command.to_string(),
                warning: None,
                json: serde_json::to_value(&s).unwrap_or_default(),
            })
            .collect();
        let renderer = renderer()?;
        let target_text = renderer.render(&target)?;
        let unmanaged_lines = unmanaged(&target_text, &renderer.render(intended)?);
        let texts = match how.text {
            true => Some((renderer.render(self)?, target_text)),
            false => None,
        };
        let model = how.switch.and_then(|sw| model_of(sw.model));
        Ok(Comparison {
            pasteable: steps.iter().map(|s| format!("{}\n", s.shown)).collect(),
            steps,
            texts,
            unmanaged_lines,
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

impl targets::Render for Renderer {
    fn render(&self, config: &dyn targets::Config) -> Result<String, String> {
        self.render(targets::typed::<Config>(config)?)
    }
}

/// What stays on the switch beyond the intent: the target's lines the intent does not have
/// (lines the model does not know, features and interfaces it leaves alone without
/// `--prune`).
fn unmanaged(target: &str, intended: &str) -> usize {
    let wanted: HashSet<&str> = intended.lines().collect();
    target
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !t.is_empty()
                && !t.starts_with('#')
                && !t.contains("cli default prefix-modes")
                && !wanted.contains(l)
        })
        .count()
}

/// The Ethernet ports a running config configures that its model cannot have, as ranges.
fn foreign(running: &Config, model: &Model) -> Vec<String> {
    let ports: Vec<Port> = running
        .interfaces
        .keys()
        .filter_map(|i| match i {
            Iface::Ethernet(port) if !model.can_exist(*port) => Some(*port),
            _ => None,
        })
        .collect();
    crate::types::compress(ports.iter().map(|port| (*port, &())))
        .into_iter()
        .map(|(a, b, _)| format!("ethernet {}", crate::types::format_range(a, b)))
        .collect()
}

/// Onyx's model table (`crate::types::Model`) in the fabric model.
impl targets::Model for Model {
    fn name(&self) -> &'static str {
        self.name
    }

    fn target(&self) -> &'static dyn SwitchOs {
        &ONYX
    }

    fn has_port(&self, p: Port) -> bool {
        Model::has_port(self, p)
    }

    fn port_count(&self) -> u16 {
        Model::port_count(self)
    }

    fn native_speed(
        &self,
        p: Port,
        split: Option<crate::types::Split>,
    ) -> Option<crate::types::Speed> {
        Model::native_speed(self, p, split)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The Onyx model a switch's hardware is, if it is one of Onyx's.
pub fn model_of(hw: crate::fabric::Hardware) -> Option<&'static Model> {
    hw.model().as_any().downcast_ref::<Model>()
}

#[cfg(test)]
mod tests {
    use super::OS;
    use crate::docs::topology::{cable_label, end_label, port_label, port_list};
    use crate::types::Port;

    #[test]
    fn docs_labels_shorten_onyx_ports() {
        let p = |s: &str| s.parse::<Port>().unwrap();
        let ports: Vec<Port> = ["1/1", "1/2", "1/4", "1/6", "1/7"].map(p).to_vec();
        assert_eq!(port_list(OS, &ports), "1/1-1/2, 1/4, 1/6-1/7");
        assert_eq!(port_label(OS, &ports), "1/1 … 1/7, 5 ports");
        assert_eq!(port_label(OS, &ports[..3]), "1/1-1/2, 1/4");
        // A line's end in the picture: the count of cables first, the ports without it.
        assert_eq!(end_label(OS, &ports, 5), "5× 1/1 … 1/7");
        assert_eq!(end_label(OS, &ports[..3], 0), "1/1-1/2, 1/4");
        let cables = vec![(p("1/25"), p("1/1")), (p("1/26"), p("1/2"))];
        assert_eq!(cable_label((OS, OS), &cables), "1/25-1/26 ↔ 1/1-1/2");
    }
}
