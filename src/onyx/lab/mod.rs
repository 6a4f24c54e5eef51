//! Onyx in the lab behind the switch-OS interface ([`crate::targets::Lab`]): the lab's SSH
//! server, network and state folders reach an Onyx switch through these and never name Onyx.
//! The switch and its CLI are the lab's own ([`crate::lab::cli`]).

use std::path::Path;

use crate::lab::cli::{LAB_RELEASE, Unconfirmed};
use crate::lab::network::Node;
use crate::targets::{self, Lab, SwitchOs as _};
use crate::types::Port;

/// Onyx in the lab.
pub struct OnyxLab;

pub static LAB: OnyxLab = OnyxLab;

impl Lab for OnyxLab {
    /// A switch of the fabric's model and release (unknown: older than 3.9) and the ID of its
    /// self-signed certificate; from a backup, of the lab's release when the fabric names
    /// none.
    fn switch(
        &self,
        sw: &crate::fabric::Switch,
        config: Option<&dyn targets::Config>,
    ) -> Result<crate::lab::Switch, String> {
        let model = crate::types::Model::find(sw.model.name()).ok();
        let mut s = match config {
            Some(c) => {
                let mut s =
                    crate::lab::Switch::with_config(targets::typed::<super::Config>(c)?.clone());
                s.release = sw.release.unwrap_or(LAB_RELEASE);
                s
            }
            None => crate::lab::Switch::factory_as(
                sw.hostname.as_str(),
                sw.release,
                sw.certificate.as_deref(),
            ),
        };
        s.model = model;
        Ok(s)
    }

    fn node_in(&self, dir: &Path) -> Option<Node> {
        crate::lab::device::running_in(dir).map(|config| Node {
            config,
            os: super::target::ONYX.os(),
            pair: None,
        })
    }

    fn watched(&self) -> &'static [&'static str] {
        &["running.cfg", "active"]
    }

    fn banner(&self, id: u64) -> String {
        format!(
            "Number of total successful connections since last 1 days: {id}\n\nNVIDIA Switch\n\n"
        )
    }

    fn lldp_port_id(&self, p: Port) -> String {
        Unconfirmed::LldpPortId.text().replace("{}", &p.to_string())
    }
}
