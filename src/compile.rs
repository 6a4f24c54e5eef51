//! Fabric → one configuration per switch, each compiled by its own OS's module into that
//! OS's typed model. Nothing here formats text or reads files.

use std::collections::BTreeMap;

use crate::fabric::{Fabric, Switch};
use crate::types::Hostname;

/// One switch's compiled configuration, in its own OS's model.
pub type Target = Box<dyn crate::targets::Config>;

/// Every switch of the fabric, by hostname, each compiled by its own OS's module.
pub fn compile(fabric: &Fabric) -> BTreeMap<Hostname, Target> {
    fabric
        .switches
        .iter()
        .map(|(name, sw)| (name.clone(), compile_config(sw)))
        .collect()
}

/// One switch, by its OS, behind the switch-OS interface.
pub fn compile_config(sw: &Switch) -> Box<dyn crate::targets::Config> {
    sw.os().target().compile(sw)
}
