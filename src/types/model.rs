//! Switch models: how many front-panel ports, their native speed, and which can split.
//!
//! One table, from NVIDIA's product briefs (port counts and the maximum number of split
//! ports): SN2100 16×100G, up to 64 split ports, so every port splits 4-way; SN2410
//! 48×25G + 8×100G, the 100G ports split; SN2700 32×100G, up to 64 split ports, so every port
//! splits 2-way but only odd ports split 4-way, and that takes the lanes of the even port
//! below it; SN3700 32×200G, up to 128 split ports, every port splits 4-way; SN4600 64×200G
//! and SN4600C 64×100G, up to 128 split ports: 2-way everywhere, 4-way on odd ports, which
//! disables the even neighbour. Subport speed is the native speed divided by the split.
//!
//! Each model also has the first Onyx release that runs it (a switch on an older release is
//! refused by the fabric validation, E039). NVIDIA's release notes, which list the systems
//! each release supports, are behind its support portal: no public source for these was
//! found, so every value is marked unconfirmed here and in the diagnostic. Each is the first
//! release series of the model's ASIC generation as the project understands it, chosen early
//! rather than late (an early value lets a wrong pairing through, as before; a late one would
//! refuse a real switch). What the corpus shows agrees with each: an SN2700 on MLNX-OS
//! 3.6.1102 and 3.6.5000, an SN2410 on 3.7.1102 (`../shared/corpus/SOURCES-more.md`), the
//! reference guide's SN2700 on 3.6.8190.

use std::fmt;

use super::{Invalid, Port, Release, Speed, compress, format_range};

/// The first Onyx release that runs a model, and whether a source confirms it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstRelease {
    pub release: Release,
    /// Where the value comes from; `None`: unconfirmed (no public source found).
    pub source: Option<&'static str>,
}

/// `interface ethernet 1/31 module-type qsfp-split-2|qsfp-split-4 force`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum Split {
    #[serde(rename = "qsfp-split-2")]
    Two,
    #[serde(rename = "qsfp-split-4")]
    Four,
    /// Eight lanes (an 800G OSFP or a 400G QSFP-DD): Cumulus's `breakout 8x`.
    #[serde(rename = "split-8")]
    Eight,
}

impl Split {
    pub fn ways(self) -> u8 {
        match self {
            Split::Two => 2,
            Split::Four => 4,
            Split::Eight => 8,
        }
    }

    pub fn from_ways(n: i64) -> Result<Split, String> {
        match n {
            2 => Ok(Split::Two),
            4 => Ok(Split::Four),
            8 => Ok(Split::Eight),
            _ => Err(format!("a port splits 2, 4 or 8 ways, not {n}")),
        }
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "qsfp-split-{}", self.ways())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Four {
    No,
    All,
    /// Odd ports only; the even port above the split one is disabled.
    OddTakesNext,
}

#[derive(Debug, PartialEq, Eq)]
struct Group {
    first: u16,
    last: u16,
    speed: Speed,
    split2: bool,
    split4: Four,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Model {
    pub name: &'static str,
    groups: &'static [Group],
    /// The first Onyx release that supports the model.
    pub first: FirstRelease,
}

/// A first release no public source confirms (see the module's doc).
const fn unconfirmed(a: u16, b: u16, c: u32) -> FirstRelease {
    FirstRelease {
        release: Release(a, b, c),
        source: None,
    }
}

const fn g(first: u16, last: u16, speed: Speed, split2: bool, split4: Four) -> Group {
    Group {
        first,
        last,
        speed,
        split2,
        split4,
    }
}

static MODELS: &[Model] = &[
    Model {
        name: "SN2100",
        groups: &[g(1, 16, Speed::G100, true, Four::All)],
        // Spectrum, half width (2016): the 3.5 series.
        first: unconfirmed(3, 5, 1000),
    },
    Model {
        name: "SN2410",
        groups: &[
            g(1, 48, Speed::G25, false, Four::No),
            g(49, 56, Speed::G100, true, Four::All),
        ],
        // Spectrum (2015): the 3.4 series.
        first: unconfirmed(3, 4, 1100),
    },
    Model {
        name: "SN2700",
        groups: &[g(1, 32, Speed::G100, true, Four::OddTakesNext)],
        // Spectrum (2015): the 3.4 series.
        first: unconfirmed(3, 4, 1100),
    },
    Model {
        name: "SN3700",
        groups: &[g(1, 32, Speed::G200, true, Four::All)],
        // Spectrum-2 (2019): the 3.8 series.
        first: unconfirmed(3, 8, 1000),
    },
    Model {
        name: "SN4600",
        groups: &[g(1, 64, Speed::G200, true, Four::OddTakesNext)],
        // Spectrum-3, 200G (after the SN4600C): the later 3.9 releases.
        first: unconfirmed(3, 9, 2000),
    },
    Model {
        name: "SN4600C",
        groups: &[g(1, 64, Speed::G100, true, Four::OddTakesNext)],
        // Spectrum-3 (2020): the 3.9 series.
        first: unconfirmed(3, 9, 1000),
    },
];

impl Model {
    pub fn all() -> &'static [Model] {
        MODELS
    }

    pub fn find(name: &str) -> Result<&'static Model, Invalid> {
        super::qos::choose(
            name,
            &MODELS.iter().map(|m| (m.name, m)).collect::<Vec<_>>(),
            "supported switch model",
        )
    }

    /// Whether the model runs on `release`: `Err` with its first release when it does not.
    pub fn check_release(&self, release: Release) -> Result<(), FirstRelease> {
        if release < self.first.release {
            Err(self.first)
        } else {
            Ok(())
        }
    }

    /// Number of front-panel ports (all on slot 1).
    pub fn port_count(&self) -> u16 {
        self.groups.last().map_or(0, |g| g.last)
    }

    fn group(&self, port: Port) -> Option<&Group> {
        if port.slot != 1 {
            return None;
        }
        self.groups
            .iter()
            .find(|g| (g.first..=g.last).contains(&port.port))
    }

    /// Whether the front-panel port exists (subports are checked against splits elsewhere).
    pub fn has_port(&self, port: Port) -> bool {
        self.group(port).is_some()
    }

    /// Whether `port` can exist on this model: a front-panel port, or a subport of one that
    /// can split that many ways (`1/1/4` needs a 4-way split). A running config that
    /// configures any other port was not taken from this model.
    pub fn can_exist(&self, port: Port) -> bool {
        let splits = |w| self.check_split(port.parent(), w).is_ok();
        match port.sub {
            None => self.has_port(port),
            Some(1..=2) => splits(Split::Two) || splits(Split::Four),
            Some(3..=4) => splits(Split::Four),
            Some(_) => false,
        }
    }

    /// Every front-panel port, in order.
    pub fn ports(&self) -> impl Iterator<Item = Port> + '_ {
        (1..=self.port_count()).map(|p| Port::new(1, p))
    }

    /// Native speed of a front-panel port, or of a subport given how its parent is split.
    pub fn native_speed(&self, port: Port, split: Option<Split>) -> Option<Speed> {
        let g = self.group(port)?;
        match split {
            None => Some(g.speed),
            Some(s) => Speed::from_gbps(g.speed.gbps() / u32::from(s.ways())),
        }
    }

    /// Checks that `port` can split `split` ways; returns the port it disables, if any. The
    /// error says why not, without naming the port (the caller names the ports it refuses).
    pub fn check_split(&self, port: Port, split: Split) -> Result<Option<Port>, String> {
        let g = self
            .group(port)
            .ok_or_else(|| format!("{} has no such port", self.name))?;
        let refused = || Err(self.split_rule(split));
        match split {
            Split::Two if !g.split2 => refused(),
            Split::Two => Ok(None),
            Split::Eight => refused(),
            Split::Four => match g.split4 {
                Four::No => refused(),
                Four::All => Ok(None),
                Four::OddTakesNext if port.port.is_multiple_of(2) => Err(
                    "only odd ports split 4 ways, each taking the lanes of the even port after it"
                        .into(),
                ),
                Four::OddTakesNext => Ok(Some(Port::new(port.slot, port.port + 1))),
            },
        }
    }

    /// The front-panel ports that can split `split` ways, in order.
    pub fn split_ports(&self, split: Split) -> Vec<Port> {
        self.ports()
            .filter(|p| {
                self.group(*p).is_some_and(|g| match split {
                    Split::Two => g.split2,
                    Split::Eight => false,
                    Split::Four => match g.split4 {
                        Four::No => false,
                        Four::All => true,
                        Four::OddTakesNext => !p.port.is_multiple_of(2),
                    },
                })
            })
            .collect()
    }

    /// Which ports of this model split `split` ways, as a rule: `only ports 1/49-1/56 split`.
    fn split_rule(&self, split: Split) -> String {
        let ports = self.split_ports(split);
        if ports.is_empty() {
            return format!("no port of {} splits {} ways", self.name, split.ways());
        }
        let unit = ();
        let ranges: Vec<String> = compress(ports.iter().map(|p| (*p, &unit)))
            .into_iter()
            .map(|(a, b, _)| format_range(a, b))
            .collect();
        let other = match split {
            Split::Two => Split::Four,
            Split::Four | Split::Eight => Split::Two,
        };
        // Say "split 4 ways" only when the other ports can split some other way.
        if self.split_ports(other) == ports {
            format!("only ports {} split", ranges.join(", "))
        } else {
            format!(
                "only ports {} split {} ways",
                ranges.join(", "),
                split.ways()
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_know_their_ports() {
        let m = Model::find("sn2700").unwrap();
        assert_eq!(m.port_count(), 32);
        assert!(!m.has_port(Port::new(1, 33)));
        assert_eq!(
            m.native_speed(Port::new(1, 1), Some(Split::Four)),
            Some(Speed::G25)
        );
        assert_eq!(
            m.check_split(Port::new(1, 31), Split::Four).unwrap(),
            Some(Port::new(1, 32))
        );
        assert!(m.check_split(Port::new(1, 32), Split::Four).is_err());
        let m = Model::find("SN2410").unwrap();
        assert_eq!(
            m.check_split(Port::new(1, 5), Split::Two).unwrap_err(),
            "only ports 1/49-1/56 split"
        );
        assert_eq!(
            Model::find("SN2701").unwrap_err().help.as_deref(),
            Some("did you mean `SN2700`?")
        );
    }
}
