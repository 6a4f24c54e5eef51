//! The Spectrum switches Cumulus Linux 5.x runs: their front-panel ports (`swp1` …), each
//! port's native speed, the breakouts each takes, and the first release that lists the model.
//!
//! Sources (`../shared/reference/cumulus-nvue.md` §4): port layouts from the mlxsw driver's
//! release notes and NVIDIA's product pages [doc]; SN2010 seen running 5.9.2 and SN2100
//! running 5.3.0 [capture]; first releases from the What's New pages: SN5600 5.6.0, SN5400
//! 5.10.1, SN2201 5.11.0 [doc]. Every other first release is 5.0.0, UNCONFIRMED (the 3.x/4.x
//! platforms carried into 5.0). Breakouts (`link breakout 2x|4x|8x`): a port splits into as
//! many lanes as it has (QSFP28/QSFP56 4, QSFP-DD/OSFP 8), UNCONFIRMED per model.

use std::any::Any;

use crate::fabric::Hardware;
use crate::targets::{self, SwitchOs};
use crate::types::{Port, Speed, Split};

/// A run of front-panel ports of one kind.
#[derive(Debug)]
pub struct Ports {
    pub first: u16,
    pub last: u16,
    pub speed: Speed,
    /// The most ways a port of the run breaks out (1: none).
    pub lanes: u8,
}

/// One switch model.
#[derive(Debug)]
pub struct Model {
    pub name: &'static str,
    pub asic: &'static str,
    pub ports: &'static [Ports],
    /// The first Cumulus Linux release that runs it, and the source.
    pub since: (u8, u8, u8),
    pub since_source: &'static str,
}

const fn p(first: u16, last: u16, speed: Speed, lanes: u8) -> Ports {
    Ports {
        first,
        last,
        speed,
        lanes,
    }
}

const ALWAYS: (u8, u8, u8) = (5, 0, 0);
const UNCONFIRMED: &str = "UNCONFIRMED: a platform of Cumulus Linux before 5.0";

pub static MODELS: &[Model] = &[
    Model {
        name: "SN2010",
        asic: "Spectrum",
        ports: &[p(1, 18, Speed::G25, 1), p(19, 22, Speed::G100, 4)],
        since: ALWAYS,
        since_source: "capture: running 5.9.2 (oxidized)",
    },
    Model {
        name: "SN2100",
        asic: "Spectrum",
        ports: &[p(1, 16, Speed::G100, 4)],
        since: ALWAYS,
        since_source: "capture: running 5.3.0 (NetApp)",
    },
    Model {
        name: "SN2201",
        asic: "Spectrum",
        ports: &[p(1, 48, Speed::G1, 1), p(49, 52, Speed::G100, 4)],
        since: (5, 11, 0),
        since_source: "doc: What's New 5.11 (SN2201M); the port layout UNCONFIRMED",
    },
    Model {
        name: "SN2410",
        asic: "Spectrum",
        ports: &[p(1, 48, Speed::G25, 1), p(49, 56, Speed::G100, 4)],
        since: ALWAYS,
        since_source: UNCONFIRMED,
    },
    Model {
        name: "SN2700",
        asic: "Spectrum",
        ports: &[p(1, 32, Speed::G100, 4)],
        since: ALWAYS,
        since_source: UNCONFIRMED,
    },
    Model {
        name: "SN3420",
        asic: "Spectrum-2",
        ports: &[p(1, 48, Speed::G25, 1), p(49, 60, Speed::G100, 4)],
        since: ALWAYS,
        since_source: UNCONFIRMED,
    },
    Model {
        name: "SN3700",
        asic: "Spectrum-2",
        ports: &[p(1, 32, Speed::G200, 4)],
        since: ALWAYS,
        since_source: UNCONFIRMED,
    },
    Model {
        name: "SN3700C",
        asic: "Spectrum-2",
        ports: &[p(1, 32, Speed::G100, 4)],
        since: ALWAYS,
        since_source: UNCONFIRMED,
    },
    Model {
        name: "SN4410",
        asic: "Spectrum-3",
        ports: &[p(1, 24, Speed::G100, 4), p(25, 32, Speed::G400, 8)],
        since: ALWAYS,
        since_source: "UNCONFIRMED: PAM4 ports from 5.6.0 (doc: What's New 5.6)",
    },
    Model {
        name: "SN4600C",
        asic: "Spectrum-3",
        ports: &[p(1, 64, Speed::G100, 4)],
        since: ALWAYS,
        since_source: UNCONFIRMED,
    },
    Model {
        name: "SN4700",
        asic: "Spectrum-3",
        ports: &[p(1, 32, Speed::G400, 8)],
        since: ALWAYS,
        since_source: UNCONFIRMED,
    },
    Model {
        name: "SN5400",
        asic: "Spectrum-4",
        ports: &[p(1, 64, Speed::G400, 8)],
        since: (5, 10, 1),
        since_source: "doc: What's New 5.11 (C2P airflow GA in 5.10.1); the port layout UNCONFIRMED",
    },
    Model {
        name: "SN5600",
        asic: "Spectrum-4",
        ports: &[p(1, 64, Speed::G800, 8), p(65, 65, Speed::G1, 1)],
        since: (5, 6, 0),
        since_source: "doc: What's New 5.6 (64 × 800G OSFP and a 1G bonus port)",
    },
];

impl Model {
    pub fn run(&self, port: u16) -> Option<&'static Ports> {
        self.ports
            .iter()
            .find(|r| (r.first..=r.last).contains(&port))
    }

    pub fn port_count(&self) -> u16 {
        self.ports.iter().map(|r| r.last).max().unwrap_or(0)
    }

    /// Whether `port` breaks out `split` ways, or why not.
    pub fn check_split(&self, port: u16, split: Split) -> Result<(), String> {
        let run = self.run(port).ok_or("no such port")?;
        match run.lanes >= split.ways() {
            true => Ok(()),
            false if run.lanes == 1 => Err(format!("{} ports do not break out", run.speed)),
            false => Err(format!(
                "{} ports break out at most {} ways",
                run.speed, run.lanes
            )),
        }
    }
}

/// The model a switch's hardware is, if it is one of Cumulus's.
pub fn model_of(hw: Hardware) -> Option<&'static Model> {
    hw.model().as_any().downcast_ref::<Model>()
}

impl targets::Model for Model {
    fn name(&self) -> &'static str {
        self.name
    }

    fn target(&self) -> &'static dyn SwitchOs {
        &super::target::CUMULUS
    }

    fn has_port(&self, p: Port) -> bool {
        p.slot == 1
            && self.run(p.port).is_some_and(|r| match p.sub {
                None => true,
                Some(s) => s >= 1 && s <= r.lanes && r.lanes > 1,
            })
    }

    fn port_count(&self) -> u16 {
        Model::port_count(self)
    }

    fn native_speed(&self, p: Port, split: Option<Split>) -> Option<Speed> {
        let run = self.run(p.port)?;
        match split {
            None => Some(run.speed),
            Some(s) => Speed::from_gbps(run.speed.gbps() / u32::from(s.ways())),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
