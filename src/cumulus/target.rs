//! NVIDIA Cumulus Linux behind the switch-OS interface ([`crate::targets`]).

use std::any::Any;

use crate::config_error::ParseError;
use crate::fabric::{Os, Switch};
use crate::secrets::Mask;
use crate::targets::{self, Comparison, Managed, PlanStep, SwitchOs, Words};
use crate::types::{Iface, IfaceRange, Port};

use super::Config;
use super::models::model_of;

/// NVIDIA Cumulus Linux (NVUE).
pub struct Cumulus;

pub static CUMULUS: Cumulus = Cumulus;

/// Cumulus in the fabric model.
pub const OS: Os = Os::new(&CUMULUS);

/// Cumulus's words: its pair is MLAG over a `peerlink` bond, a pair's bundle a bond with an
/// MLAG id, breakouts; no switch-wide DCBX setting (NVUE's LLDP sends the application TLV
/// under `qos roce`).
pub static WORDS: Words = Words {
    title: "Cumulus",
    word: "cumulus",
    product: "NVIDIA Cumulus Linux",
    pair: "MLAG",
    peer_link: "peerlink",
    a_peer_link: "an MLAG peerlink",
    peer_link_ports: false,
    pair_bundle_is_port_channel: true,
    splits: "Breakouts",
    dcbx: false,
};

/// `swp5`; a breakout member `swp5s0` (the fabric counts members from 1, Cumulus from 0).
pub fn port_name(p: Port) -> String {
    port_word(p).to_string()
}

/// [`port_name`] as a tree's word (inline: no `String` made).
pub fn port_word(p: Port) -> super::tree::Word {
    let sub = p.sub.map(|s| ("s", u64::from(s.saturating_sub(1))));
    super::tree::Word::numbered("swp", u64::from(p.port), sub)
}

/// An interface as NVUE names it: `swp5`, `bond10`, `vlan101`, `lo`.
pub fn iface_name(i: Iface) -> String {
    match i {
        Iface::Ethernet(p) => port_name(p),
        Iface::PortChannel(n) | Iface::MlagPortChannel(n) => format!("bond{n}"),
        Iface::Vlan(v) => format!("vlan{}", v.get()),
        Iface::Loopback(_) => "lo".to_string(),
    }
}

impl SwitchOs for Cumulus {
    fn os(&self) -> Os {
        OS
    }

    fn words(&self) -> &'static Words {
        &WORDS
    }

    fn port_name(&self, p: Port) -> String {
        port_name(p)
    }

    /// NVUE's ranges: `swp1-8`, `swp1s0-3`, `bond1-3`.
    fn iface_range(&self, r: IfaceRange) -> String {
        let (a, b) = (iface_name(r.first), iface_name(r.last));
        if a == b {
            return a;
        }
        let digits = |s: &str| s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (pa, pb) = (a.len() - digits(&a), b.len() - digits(&b));
        match a[..pa] == b[..pb] {
            true => format!("{a}-{}", &b[pb..]),
            false => format!("{a}-{b}"),
        }
    }

    fn release(&self, sw: &Switch) -> Option<String> {
        sw.release_text.clone()
    }

    /// The model's ASIC (what NVUE's generated QoS depends on).
    fn hardware_facts(&self, sw: &Switch) -> Vec<(&'static str, String)> {
        model_of(sw.model)
            .map(|m| vec![("ASIC", m.asic.to_string())])
            .unwrap_or_default()
    }

    fn compile(&self, sw: &Switch) -> Box<dyn targets::Config> {
        Box::new(super::compile::compile(sw))
    }

    /// NVUE's YAML (`- set:` or `- header:` first) or its commands (`nv set` lines).
    fn recognizes(&self, text: &str) -> bool {
        let first = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'));
        first.is_some_and(|l| {
            l.starts_with("- set:") || l.starts_with("- header:") || l.starts_with("nv set ")
        })
    }

    fn parse(&self, text: &str) -> Result<Box<dyn targets::Config>, ParseError> {
        Ok(Box::new(Config::parse(text)?))
    }

    /// NVUE prints secrets encrypted (`$nvsec$…`) or as `'*'`: nothing is left to mask but
    /// what the fabric's masking table finds.
    fn mask(&self) -> Mask {
        super::dialect::MASK
    }

    fn a_running_config(&self) -> &'static str {
        "a Cumulus NVUE configuration (`nv config show -o yaml`)"
    }

    fn import(&self) -> &'static dyn targets::Import {
        &super::import::IMPORT
    }

    fn intent(&self, sw: &Switch) -> Box<dyn targets::Intent> {
        Box::new(super::push::Intent::of(sw))
    }

    fn reads(&self) -> &'static dyn targets::Reads {
        &super::verify::READS
    }

    fn templates(&self, dir: &std::path::Path) -> Result<Box<dyn targets::Render>, String> {
        Err(format!(
            "`{}`: Cumulus configurations are NVUE's YAML, written without templates",
            dir.display()
        ))
    }

    fn audit(&self) -> &'static dyn targets::Audit {
        &CUMULUS
    }

    fn rules(&self) -> &'static dyn targets::Rules {
        &super::rules::RULES
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

impl targets::Config for Config {
    fn target(&self) -> &'static dyn SwitchOs {
        &CUMULUS
    }

    fn hostname(&self) -> Option<&str> {
        Config::hostname(self)
    }

    fn render(&self) -> Result<String, String> {
        Ok(self.text())
    }

    fn compare(&self, intended: &dyn targets::Config, how: &Managed) -> Result<Comparison, String> {
        let intended = targets::typed::<Config>(intended)?;
        let target = super::plan::target(&self.set, &intended.set, how.prune);
        let plan = super::plan::plan(&self.set, &target);
        let texts = how.text.then(|| {
            let t = Config {
                header: self.header.clone(),
                set: target.clone(),
            };
            (self.text(), t.text())
        });
        let model = how.switch.and_then(|sw| model_of(sw.model));
        let foreign_ports = match model {
            Some(m) => super::tree::names(&self.set, &["interface"])
                .into_iter()
                .filter(|n| super::rules::port(n).is_some_and(|p| !targets::Model::has_port(m, p)))
                .map(str::to_string)
                .collect(),
            None => Vec::new(),
        };
        Ok(Comparison {
            pasteable: plan.iter().map(|(c, _)| c.line() + "\n").collect(),
            steps: plan
                .iter()
                .map(|(c, impact)| PlanStep {
                    impact: *impact,
                    shown: c.line(),
                    warning: None,
                    json: serde_json::json!({
                        "command": c.line(),
                        "impact": impact,
                    }),
                })
                .collect(),
            texts,
            unmanaged_lines: 0,
            foreign_ports,
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
