//! ToyOS behind the switch-OS interface: its words and port names, its one model, what the
//! validation asks of it, its configuration compiled from the fabric's switch, read, printed
//! and compared.

use std::any::Any;

use fabric::config_error::ParseError;
use fabric::device::dialect::Dialect;
use fabric::device::{Cli, Error};
use fabric::diag::Span;
use fabric::fabric::raw::{RawFabric, RawSwitch, Sp};
use fabric::fabric::strings::Rule;
use fabric::fabric::validate::{Cx, SplitAsk};
use fabric::fabric::{Hardware, Os, Switch};
use fabric::onyx::{Iface, IfaceRange};
use fabric::secrets::Mask;
use fabric::targets::{
    self, Comparison, Managed, ModelCheck, PlanStep, Refused, Rules, SwitchOs, Words,
};
use fabric::types::{Port, Speed, Split};

use super::config::{Command, Config, port_name};

/// ToyOS.
pub struct Toy;

pub static TOY: Toy = Toy;

static WORDS: Words = Words {
    title: "ToyOS",
    word: "toy",
    product: "Example ToyOS",
    pair: "pair",
    peer_link: "peer link",
    a_peer_link: "a peer link",
    peer_link_ports: false,
    pair_bundle_is_port_channel: true,
    splits: "Splits",
    dcbx: false,
};

/// ToyOS's one model: eight 100G ports.
#[derive(Debug)]
pub struct Model;

pub static TOY8: Model = Model;

impl targets::Model for Model {
    fn name(&self) -> &'static str {
        "TOY-8"
    }

    fn target(&self) -> &'static dyn SwitchOs {
        &TOY
    }

    fn has_port(&self, p: Port) -> bool {
        p.slot == 1 && (1..=8).contains(&p.port) && p.sub.is_none()
    }

    fn port_count(&self) -> u16 {
        8
    }

    fn native_speed(&self, p: Port, split: Option<Split>) -> Option<Speed> {
        (self.has_port(p) && split.is_none()).then_some(Speed::G100)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl SwitchOs for Toy {
    fn os(&self) -> Os {
        Os::new(&TOY)
    }

    fn words(&self) -> &'static Words {
        &WORDS
    }

    fn port_name(&self, p: Port) -> String {
        port_name(p.port)
    }

    fn iface_range(&self, r: IfaceRange) -> String {
        let one = |i: Iface| match i {
            Iface::Ethernet(p) => port_name(p.port),
            other => other.to_string(),
        };
        match r.first == r.last {
            true => one(r.first),
            false => format!("{}-{}", one(r.first), one(r.last)),
        }
    }

    fn release(&self, _: &Switch) -> Option<String> {
        None
    }

    fn hardware_facts(&self, _: &Switch) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    fn compile(&self, sw: &Switch) -> Box<dyn targets::Config> {
        Box::new(compile(sw))
    }

    fn recognizes(&self, text: &str) -> bool {
        Config::parse(text).is_ok_and(|c| c.hostname.is_some())
    }

    fn parse(&self, text: &str) -> Result<Box<dyn targets::Config>, ParseError> {
        Ok(Box::new(Config::parse(text)?))
    }

    fn mask(&self) -> Mask {
        Mask::Word("****")
    }

    fn a_running_config(&self) -> &'static str {
        "a ToyOS configuration"
    }

    fn import(&self) -> &'static dyn targets::Import {
        &super::facets::FACETS
    }

    fn intent(&self, sw: &Switch) -> Box<dyn targets::Intent> {
        Box::new(super::push::Intent(compile(sw)))
    }

    fn reads(&self) -> &'static dyn targets::Reads {
        &super::facets::FACETS
    }

    fn templates(&self, _: &std::path::Path) -> Result<Box<dyn targets::Render>, String> {
        Err("ToyOS prints its configuration itself: it has no templates".to_string())
    }

    fn audit(&self) -> &'static dyn targets::Audit {
        &super::facets::FACETS
    }

    fn rules(&self) -> &'static dyn Rules {
        &TOY
    }

    fn lab(&self) -> &'static dyn targets::Lab {
        &super::lab::LAB
    }

    fn dialect(&self) -> &'static Dialect {
        &super::push::DIALECT
    }

    fn fetch(&self, cli: &mut Cli) -> Result<(String, Box<dyn targets::Config>), Error> {
        let (text, config) = super::push::fetch(cli)?;
        Ok((text, Box::new(config)))
    }
}

/// The fabric's switch in ToyOS's terms: its name, each port's MTU where the fabric sets one.
pub fn compile(sw: &Switch) -> Config {
    Config {
        hostname: Some(sw.hostname.to_string()),
        mtu: (sw.ports.iter())
            .filter_map(|(p, s)| Some((p.port, s.mtu?)))
            .collect(),
    }
}

impl targets::Config for Config {
    fn target(&self) -> &'static dyn SwitchOs {
        &TOY
    }

    fn hostname(&self) -> Option<&str> {
        self.hostname.as_deref()
    }

    fn render(&self) -> Result<String, String> {
        Ok(self.text())
    }

    fn compare(&self, intended: &dyn targets::Config, how: &Managed) -> Result<Comparison, String> {
        let intended = targets::typed::<Config>(intended)?;
        let plan = self.plan(intended);
        let step = |c: &Command| PlanStep {
            impact: fabric::diff::Impact::Hitless,
            shown: c.line(),
            warning: None,
            json: serde_json::Value::String(c.line()),
        };
        Ok(Comparison {
            steps: plan.iter().map(step).collect(),
            pasteable: plan.iter().map(|c| c.line() + "\n").collect(),
            texts: how.text.then(|| (self.text(), intended.text())),
            unmanaged_lines: 0,
            foreign_ports: Vec::new(),
            model: Some("TOY-8"),
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

/// What the validation asks of ToyOS: one model, ports `e1` … `e8`, no splits, no release.
impl Rules for Toy {
    fn model(&self, name: &str) -> Option<Hardware> {
        name.eq_ignore_ascii_case("TOY-8")
            .then(|| Hardware::new(&TOY8))
    }

    fn unknown_model(&self, cx: &mut Cx, model: &Sp<String>) -> Option<Hardware> {
        let at = cx.span(model);
        cx.error(
            "E021",
            format!("`{}` is no ToyOS model", model.get()),
            at,
            "not recognised",
        );
        None
    }

    fn models(&self) -> String {
        "TOY-8".to_string()
    }

    fn release_text(&self, _: &mut Cx, _: &RawSwitch, _: Option<&String>) -> Option<String> {
        None
    }

    fn fabric_release_text(&self, _: &mut Cx, _: &RawFabric) -> Option<String> {
        None
    }

    fn typed_release(&self) -> bool {
        false
    }

    fn check_model(&self, _: &mut Cx, _: ModelCheck<'_>) {}

    fn foreign_keys(&self, _: &Cx, _: &RawFabric, _: &str, _: &RawSwitch, _: &mut Vec<Refused>) {}

    fn trust_both(&self) -> Option<&'static str> {
        Some("a trust ToyOS has no meaning for")
    }

    fn names_ports(&self, text: &str) -> bool {
        text.starts_with('e')
    }

    fn ports(&self, cx: &mut Cx, text: &str, at: Span) -> Option<Vec<Port>> {
        let port = text.strip_prefix('e').and_then(|n| n.parse::<u16>().ok());
        match port.filter(|n| (1..=8).contains(n)) {
            Some(n) => Some(vec![Port::new(1, n)]),
            None => {
                cx.error(
                    "E025",
                    format!("`{text}` is no ToyOS port"),
                    at,
                    "not a port",
                );
                None
            }
        }
    }

    fn split(&self, cx: &mut Cx, s: SplitAsk<'_>) {
        let at = cx.span(s.key);
        cx.error("E042", "ToyOS ports do not split", at, "split");
    }

    fn bfd_limits(&self) -> (u32, u32) {
        (1000, 1000)
    }

    fn pool_memory(&self) -> bool {
        false
    }

    fn strings(&self) -> &'static [Rule] {
        &[]
    }

    fn default_mtu(&self) -> u16 {
        1500
    }
}
