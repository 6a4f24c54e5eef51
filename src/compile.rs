//! Fabric → one configuration per switch, each compiled by its own OS's module into that
//! OS's typed model. Nothing here formats text or reads files.

use std::collections::BTreeMap;

use crate::fabric::{Fabric, Switch};
use crate::onyx::{self, Config};
use crate::types::Hostname;

/// One switch's compiled configuration, in its own OS's model.
#[derive(Clone, Debug, PartialEq)]
pub enum Target {
    /// Boxed: the two differ much in size.
    Onyx(Box<Config>),
    Os10(Box<crate::os10::Config>),
}

impl Target {
    /// The Onyx configuration, for what only Onyx has (diff, push, lab, verify).
    pub fn onyx(&self) -> Option<&Config> {
        match self {
            Target::Onyx(c) => Some(c.as_ref()),
            Target::Os10(_) => None,
        }
    }

    /// The text the switch's `show running-config(uration)` prints for this configuration.
    pub fn render(
        &self,
        onyx: &onyx::Renderer,
        os10: &crate::os10::Renderer,
    ) -> Result<String, String> {
        match self {
            Target::Onyx(c) => onyx.render(c),
            Target::Os10(c) => os10.render(c),
        }
    }
}

/// Every switch of the fabric, by hostname, each compiled by its own OS's module.
pub fn compile(fabric: &Fabric) -> BTreeMap<Hostname, Target> {
    fabric
        .switches
        .iter()
        .map(|(name, sw)| (name.clone(), compile_target(sw)))
        .collect()
}

/// One switch, by its OS.
pub fn compile_target(sw: &Switch) -> Target {
    match sw.os() {
        crate::fabric::Os::Onyx => Target::Onyx(Box::new(onyx::compile::compile_switch(sw))),
        crate::fabric::Os::Os10 => Target::Os10(Box::new(crate::os10::compile::compile_switch(sw))),
    }
}

/// One switch, by its OS, behind the switch-OS interface.
pub fn compile_config(sw: &Switch) -> Box<dyn crate::targets::Config> {
    crate::targets::of(sw.os()).compile(sw)
}

/// The Onyx switches of the fabric (its OS10 switches are left out: see [`compile_target`]).
pub fn compile_onyx(fabric: &Fabric) -> BTreeMap<Hostname, Config> {
    fabric
        .switches
        .iter()
        .filter(|(_, sw)| sw.os() == crate::fabric::Os::Onyx)
        .map(|(name, sw)| (name.clone(), onyx::compile::compile_switch(sw)))
        .collect()
}
