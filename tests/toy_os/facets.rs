//! What `fabric verify`, `fabric audit` and `fabric import` ask of ToyOS. It has no QoS and
//! no command that answers verify's queries: every check finds nothing read (never a clean
//! verdict), the audit reads its MTUs, import refuses its switches.

use std::collections::{BTreeMap, BTreeSet};

use fabric::audit::Drift;
use fabric::audit::view::{Pfc, PortView, View};
use fabric::device::{Cli, Error, Options, Target};
use fabric::fabric::{Hardware, Switch};
use fabric::onyx::{Iface, IfaceRange};
use fabric::targets::{
    self, Ask, Audit, Fix, Fixes, Import, PfcWant, Reads, Said, Sources, Wanted,
};
use fabric::types::{Ecn, Ets, Port, TcMap};
use fabric::verify::observed::Trusted;
use fabric::verify::{Observed, Query};

use super::config::{Command, Config, port_name};
use super::os::TOY;
use super::push::DIALECT;

/// ToyOS's answers to verify, audit and import.
pub struct Facets;

pub static FACETS: Facets = Facets;

/// A ToyOS port name's port.
fn port_of(text: &str) -> Option<Port> {
    let n: u16 = text.strip_prefix('e')?.parse().ok()?;
    (1..=8).contains(&n).then(|| Port::new(1, n))
}

static SAID: Said = Said {
    links: "show config",
    pfc_all: None,
    pfc_oper: "PFC",
    pfc_admin: "PFC",
    paused_by: "nothing (ToyOS has no PFC)",
    ecn: |_| "no ECN on ToyOS".to_string(),
    ets: |_| "no ETS on ToyOS".to_string(),
    peer_link: "peer link",
    pair_mac: "pair MAC",
    pair_status: |s| s.to_string(),
};

/// The fabric's QoS on a ToyOS switch: none.
struct NoQos;

impl Wanted for NoQos {
    fn trust(&self, _: Port) -> Option<Trusted> {
        None
    }

    fn ecn(&self, _: Port) -> Option<&TcMap<Ecn>> {
        None
    }

    fn ets(&self, _: Port) -> Option<&TcMap<Ets>> {
        None
    }

    fn pfc(&self) -> Vec<PfcWant> {
        Vec::new()
    }

    fn paused(&self) -> Option<BTreeSet<u8>> {
        None
    }
}

impl Reads for Facets {
    fn asks(&self, _: &Switch, _: Vec<Query>) -> Vec<Ask> {
        Vec::new()
    }

    fn read_query(&self, _: &Query, _: &str, _: &mut Observed) -> Result<(), String> {
        Err("ToyOS has no command that answers this".to_string())
    }

    fn port_id(&self, text: &str) -> Option<Port> {
        port_of(text)
    }

    fn wanted<'a>(&self, _: &'a Switch) -> Box<dyn Wanted + 'a> {
        Box::new(NoQos)
    }

    fn said(&self) -> &'static Said {
        &SAID
    }
}

static FIXES: Fixes = Fixes {
    a: "a ToyOS",
    ecn: None,
    ets: None,
    trust_l3: None,
    pfc_mode: None,
    mtu: |m| format!("mtu {m}"),
    pfc_priority: None,
    save: Some("save"),
    dcbx_off: ("ToyOS has no DCBX", None),
    pfc_mode_alone: ("ToyOS has no PFC", None),
    pfc_global: ("ToyOS has no PFC", None),
    bfd: "ToyOS has no BFD",
    neighbor_bfd: |_, _| Fix::Said("ToyOS has no BFD".to_string()),
};

impl Audit for Facets {
    fn parts(&self) -> &'static [fabric::audit::Part] {
        &[]
    }

    fn fixes(&self) -> &'static Fixes {
        &FIXES
    }

    fn on_interfaces(&self, _: IfaceRange, name: &str, line: &str) -> String {
        format!("interface {name} {line}")
    }

    fn described_port(&self, text: &str) -> Option<Port> {
        port_of(text)
    }

    fn read_live(
        &self,
        target: &Target,
        opts: &Options,
    ) -> Result<(Box<dyn targets::Config>, bool), Error> {
        let mut cli = Cli::open_as(target, opts, &DIALECT)?;
        let (_, config) = super::push::fetch(&mut cli)?;
        let saved = Config::parse(&cli.run("show saved")?).ok();
        cli.close();
        let unsaved = saved.is_none_or(|s| s != config);
        Ok((Box::new(config), unsaved))
    }
}

/// What the audit reads of a ToyOS configuration: each port's MTU.
impl targets::Audited for Config {
    fn view(&self, hardware: Option<Hardware>) -> View {
        let port = |(p, mtu): (&u16, &u16)| {
            let view = PortView {
                mtu: Some(*mtu),
                configured: true,
                ..PortView::default()
            };
            (Iface::Ethernet(Port::new(1, *p)), view)
        };
        View {
            os: fabric::fabric::Os::new(&TOY),
            ports: self.mtu.iter().map(port).collect(),
            pfc: Pfc::default(),
            lossless_pools: None,
            roce_mode: None,
            dcbx: false,
            default_port: PortView::default(),
            default_trust: None,
            default_mtu: 1500,
            hardware,
            vlan_ifaces: BTreeMap::new(),
            bgp: None,
        }
    }

    fn onyx_model(&self) -> Option<&fabric::onyx::Config> {
        None
    }

    fn descriptions(&self) -> Vec<(Port, &str)> {
        Vec::new()
    }

    fn drift(&self, sw: &Switch) -> Vec<Drift> {
        let plan = self.plan(&super::os::compile(sw));
        let drift = |c: &Command| {
            let port = match c {
                Command::Mtu(p, _) | Command::NoMtu(p) => Some(*p),
                Command::Hostname(_) => None,
            };
            Drift {
                object: port.map_or("hostname".to_string(), port_name),
                command: c.line(),
                ifaces: port
                    .map(|p| Iface::Ethernet(Port::new(1, p)))
                    .into_iter()
                    .collect(),
            }
        };
        plan.iter().map(drift).collect()
    }
}

impl Import for Facets {
    fn a_title(&self) -> &'static str {
        "a ToyOS"
    }

    fn model(&self, name: &str) -> Result<Hardware, String> {
        use fabric::targets::Rules;
        TOY.model(name)
            .ok_or_else(|| format!("`{name}` is no ToyOS model"))
    }

    fn read<'a>(&self, _: Sources<'a>) -> Result<Box<dyn targets::Read<'a> + 'a>, String> {
        Err("fabric import does not read ToyOS switches".to_string())
    }

    fn lost(
        &self,
        _: Option<&Switch>,
        _: &str,
        _: &fabric::import::Source,
    ) -> Option<fabric::import::Lost> {
        None
    }
}
