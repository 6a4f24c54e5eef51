//! Dell SmartFabric OS10 behind the switch-OS interface ([`crate::targets`]).

use std::any::Any;
use std::sync::OnceLock;

use crate::fabric::{Hardware, Os, Switch};
use crate::onyx::ParseError;
use crate::secrets::Mask;
use crate::targets::{self, Comparison, Managed, PlanStep, SwitchOs};

use super::models::Model;
use super::{Config, Iface, Renderer};

/// Dell SmartFabric OS10.
pub struct Os10;

pub const OS10: Os10 = Os10;

impl SwitchOs for Os10 {
    fn os(&self) -> Os {
        Os::Os10
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

    fn mask(&self) -> Mask {
        Mask::Os10
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
        let intended = of(intended)?;
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
            Some(Hardware::Os10(m)) => Some(m),
            Some(_) => None,
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
}

/// An OS10 configuration behind the interface.
fn of(c: &dyn targets::Config) -> Result<&Config, String> {
    c.as_any()
        .downcast_ref::<Config>()
        .ok_or_else(|| "a plan takes one switch OS to itself".to_string())
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
