//! The OS10 switch models a fabric may name: their front-panel ports, native speeds, the
//! breakout maps each port takes, and the port groups of the models that set their ports
//! through `port-group 1/1/N` (`mode Eth …`) rather than `interface breakout`. Data only, with
//! its source; `confirmed` is true only where a capture in `tests/fixtures/corpus/os10/` shows
//! the ports (a `show version` with the model, and its running configuration or `show
//! port-group`). The rest is from Dell's specification sheets and OS10 user guide, UNCONFIRMED
//! by a capture.

use std::ops::RangeInclusive;

use super::Eth;

/// A run of front-panel ports of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ports {
    pub first: u16,
    pub last: u16,
    /// Native speed in Gb/s.
    pub speed: u16,
    /// The breakout maps (`interface breakout 1/1/53 map 25g-4x`), or the port-group modes
    /// (`mode Eth 10g-4x`), these ports take; the first is the native one.
    pub maps: &'static [&'static str],
    /// Set through port groups (`port-group 1/1/N`, `mode Eth …`) rather than `interface
    /// breakout`.
    pub groups: Option<Groups>,
}

/// How a run of ports is cut into port groups: `size` ports each, consecutive, the group of
/// the run's first port numbered `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Groups {
    pub size: u16,
    pub first: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    pub name: &'static str,
    pub ports: &'static [Ports],
    pub source: &'static str,
    pub confirmed: bool,
}

const fn p(first: u16, last: u16, speed: u16, maps: &'static [&'static str]) -> Ports {
    Ports {
        first,
        last,
        speed,
        maps,
        groups: None,
    }
}

/// Ports `first`-`last` in port groups of `size`, the first numbered `group`.
const fn pg(
    first: u16,
    last: u16,
    speed: u16,
    maps: &'static [&'static str],
    size: u16,
    group: u16,
) -> Ports {
    Ports {
        first,
        last,
        speed,
        maps,
        groups: Some(Groups { size, first: group }),
    }
}

pub static MODELS: &[Model] = &[
    Model {
        name: "S5248F-ON",
        ports: &[
            // 12 groups of four SFP28 ports, `port-group 1/1/1` (ports 1-4) to `1/1/12` (45-48):
            // `mode Eth 25g-4x` or `10g-4x`; in 10g-4x each port is named `ethernet1/1/N:1`
            // (the TOR capture: running configuration and `show port-group`).
            pg(1, 48, 25, &["25g-4x", "10g-4x"], 4, 1),
            // Two QSFP28-DD ports, each two 100G ports: `port-group 1/1/13` (49-50), `1/1/14`
            // (51-52), `mode Eth 100g-2x` (capture); no other mode is listed (UNCONFIRMED
            // which others the switch takes).
            pg(49, 52, 100, &["100g-2x"], 2, 13),
            // Four QSFP28, one group each, `port-group 1/1/15` (53) to `1/1/18` (56): `mode Eth
            // 100g-1x` (capture); 40g-1x, 25g-4x, 10g-4x UNCONFIRMED.
            pg(
                53,
                56,
                100,
                &["100g-1x", "40g-1x", "25g-4x", "10g-4x"],
                1,
                15,
            ),
        ],
        source: "AzureStack TOR capture, OS10 10.5.3.2: `show version`, `show port-group`, running configuration",
        confirmed: true,
    },
    Model {
        name: "S4112F-ON",
        ports: &[
            p(1, 12, 10, &[]),
            // `interface breakout 1/1/13 map 100g-1x` (capture); 40g-1x, 25g-4x, 10g-4x
            // UNCONFIRMED.
            p(13, 15, 100, &["100g-1x", "40g-1x", "25g-4x", "10g-4x"]),
        ],
        source: "grantcurell's S4112F-ON, OS10 10.4.2.2 and 10.5.1.3 `show version`, 10.5.0.2 running configuration",
        confirmed: true,
    },
    Model {
        name: "S5232F-ON",
        ports: &[
            p(
                1,
                32,
                100,
                &["100g-1x", "40g-1x", "50g-2x", "25g-4x", "10g-4x"],
            ),
            p(33, 34, 10, &[]),
        ],
        source: "Dell EMC PowerSwitch S5232F-ON specification sheet: 32 x 100GbE QSFP28, 2 x 10GbE SFP+",
        confirmed: false,
    },
    Model {
        name: "Z9264F-ON",
        ports: &[
            p(
                1,
                64,
                100,
                &["100g-1x", "40g-1x", "50g-2x", "25g-4x", "10g-4x"],
            ),
            p(65, 66, 10, &[]),
        ],
        source: "Dell EMC PowerSwitch Z9264F-ON specification sheet: 64 x 100GbE QSFP28, 2 x 10GbE SFP+",
        confirmed: false,
    },
    Model {
        name: "S4148F-ON",
        ports: &[
            p(1, 24, 10, &[]),
            p(25, 26, 40, &["40g-1x", "10g-4x"]),
            p(
                27,
                30,
                100,
                &["100g-1x", "40g-1x", "50g-2x", "25g-4x", "10g-4x"],
            ),
            p(31, 54, 10, &[]),
        ],
        source: "Dell EMC PowerSwitch S4148F-ON specification sheet: 48 x 10GbE SFP+, 2 x 40GbE QSFP+, 4 x 100GbE QSFP28 (port numbering from the OS10 user guide)",
        confirmed: false,
    },
    Model {
        name: "S6010-ON",
        // 32 x 40GbE QSFP+, each `map 40g-1x` (native) or `10g-4x`: the layout of the Dell
        // OS10 10.4.0E capture (`interface breakout 1/1/1`..`1/1/32 map 40g-1x`), which does
        // not name its model.
        ports: &[p(1, 32, 40, &["40g-1x", "10g-4x"])],
        source: "Dell EMC Networking S6010-ON specification sheet: 32 x 40GbE QSFP+ (breakout 4 x 10GbE); UNCONFIRMED by a `show version`",
        confirmed: false,
    },
    Model {
        name: "S3048-ON",
        // 48 x 1GbE, 4 x 10GbE SFP+; no port breaks out (no `interface breakout` line in the
        // capture).
        ports: &[p(1, 48, 1, &[]), p(49, 52, 10, &[])],
        source: "Cray CSM docs: `show version` of `sw-leaf01` (OS10 10.5.0.2P1, System Type S3048-ON) and the running configuration of the same role under its later name `sw-leaf-bmc-001` (10.5.1.4: ethernet1/1/1-1/1/52, no breakout): two switches, so UNCONFIRMED; the 1G/10G speeds are the specification sheet's",
        confirmed: false,
    },
];

/// Models that cannot run the RoCE QoS the compile writes (PFC network-qos policies, ETS
/// queuing policies, WRED/ECN), with why. UNCONFIRMED both ways: no capture shows PFC, ETS or
/// ECN on these, and no Dell document read says they lack them.
pub static NO_ROCE_QOS: &[(&str, &str)] = &[(
    "S3048-ON",
    "a 1GbE management switch (48 x 1GbE, 4 x 10GbE uplinks) that no capture or Dell RoCE guide shows with PFC, ETS or ECN (UNCONFIRMED)",
)];

impl Model {
    /// Why this model cannot run the RoCE QoS ([`NO_ROCE_QOS`]), if it cannot.
    pub fn no_roce_qos(&self) -> Option<&'static str> {
        NO_ROCE_QOS
            .iter()
            .find(|(m, _)| m.eq_ignore_ascii_case(self.name))
            .map(|(_, why)| *why)
    }
}

/// One port group of a model: its number (`port-group 1/1/N`), its ports and their run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub number: u16,
    pub first: u16,
    pub last: u16,
    pub run: &'static Ports,
}

/// What a port-group mode makes of each port of its group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Interfaces per port: 1, or the ways it breaks out (`ethernet1/1/53:1`-`:4`).
    pub ways: u8,
    /// Their speed in Gb/s.
    pub speed: u16,
    /// A port not broken out below its native speed is named as a subport, `ethernet1/1/N:1`
    /// (the TOR capture: `mode Eth 10g-4x` on SFP28 ports 17-32, 41-48).
    pub renamed: bool,
}

/// `25g-4x` → (25, 4): a speed in Gb/s and a number of interfaces.
pub fn read_map(map: &str) -> Option<(u16, u16)> {
    let (speed, lanes) = map.split_once("g-")?;
    let speed = speed.parse().ok()?;
    let lanes = lanes.strip_suffix('x')?.parse().ok()?;
    Some((speed, lanes))
}

impl Group {
    pub fn ports(&self) -> RangeInclusive<u16> {
        self.first..=self.last
    }

    /// How many ports the group has.
    pub fn size(&self) -> u16 {
        self.last - self.first + 1
    }

    /// The mode the group runs in when nothing sets it: its ports unsplit at their native
    /// speed (the TOR capture prints it: `mode Eth 25g-4x`, `100g-2x`, `100g-1x`).
    pub fn native(&self) -> &'static str {
        self.run.maps.first().copied().unwrap_or("")
    }

    /// What `mode` makes of each of the group's ports, when the group takes it. A mode
    /// `{S}g-{N}x` gives the group N interfaces at S Gb/s, shared by its ports: each port of a
    /// group of four in `10g-4x` is one 10G interface; the one port of a group in `25g-4x`
    /// is four. Captured: `25g-4x` and `10g-4x` on the SFP28 groups, `100g-2x`, `100g-1x`;
    /// the others follow the rule, UNCONFIRMED (a `40g-1x` port named `ethernet1/1/N:1` as a
    /// 10G SFP28 port is, UNCONFIRMED).
    pub fn layout(&self, mode: &str) -> Option<Layout> {
        if !self.run.maps.contains(&mode) {
            return None;
        }
        let (speed, n) = read_map(mode)?;
        let size = self.size();
        if size == 0 || n % size != 0 {
            return None;
        }
        let ways = u8::try_from(n / size).ok().filter(|w| *w >= 1)?;
        Some(Layout {
            ways,
            speed,
            renamed: ways == 1 && speed != self.run.speed,
        })
    }

    /// The mode that makes each port `ways` interfaces at `speed` Gb/s, when the group takes
    /// one.
    pub fn mode(&self, ways: u8, speed: u16) -> Option<&'static str> {
        self.run.maps.iter().copied().find(|m| {
            self.layout(m)
                .is_some_and(|l| l.ways == ways && l.speed == speed)
        })
    }

    /// Whether some mode of the group names its ports as subports without breaking them out
    /// (`10g-4x` of SFP28 ports: `ethernet1/1/17:1`).
    pub fn renames(&self) -> bool {
        self.run
            .maps
            .iter()
            .any(|m| self.layout(m).is_some_and(|l| l.renamed))
    }

    /// Whether some mode of the group breaks each port out `ways` ways.
    pub fn splits(&self, ways: u8) -> bool {
        self.run
            .maps
            .iter()
            .any(|m| self.layout(m).is_some_and(|l| l.ways == ways))
    }

    /// The interfaces port `port` of the group is under `mode` (unknown modes: the native
    /// one's), with their speed.
    pub fn interfaces(&self, port: u16, mode: &str) -> Vec<(Eth, u16)> {
        let l = self.layout(mode).unwrap_or(Layout {
            ways: 1,
            speed: self.run.speed,
            renamed: false,
        });
        if l.ways > 1 || l.renamed {
            (1..=l.ways).map(|s| (Eth::sub(port, s), l.speed)).collect()
        } else {
            vec![(Eth::new(port), l.speed)]
        }
    }
}

impl Model {
    /// The model named `name` (as `show version` prints its `System Type`).
    pub fn named(name: &str) -> Option<&'static Model> {
        MODELS.iter().find(|m| m.name == name)
    }

    /// Front-panel ports before any breakout.
    pub fn port_count(&self) -> u16 {
        self.ports.iter().map(|g| g.last - g.first + 1).sum()
    }

    /// The run of port `n`.
    pub fn run(&self, n: u16) -> Option<&'static Ports> {
        self.ports.iter().find(|g| (g.first..=g.last).contains(&n))
    }

    /// Whether port `n` takes breakout map (or port-group mode) `map`.
    pub fn allows(&self, n: u16, map: &str) -> bool {
        self.run(n).is_some_and(|g| g.maps.contains(&map))
    }

    /// The model's port groups, by number (none for a model without).
    pub fn port_groups(&self) -> impl Iterator<Item = Group> + '_ {
        self.ports.iter().flat_map(|run| {
            let (size, first) = run.groups.map_or((0, 0), |g| (g.size, g.first));
            let count = (run.last - run.first + 1).checked_div(size).unwrap_or(0);
            (0..count).map(move |k| Group {
                number: first + k,
                first: run.first + k * size,
                last: run.first + k * size + size - 1,
                run,
            })
        })
    }

    /// Port group `number`.
    pub fn port_group(&self, number: u16) -> Option<Group> {
        self.port_groups().find(|g| g.number == number)
    }

    /// The port group of front-panel port `n`.
    pub fn port_group_of(&self, n: u16) -> Option<Group> {
        self.port_groups().find(|g| g.ports().contains(&n))
    }

    /// The `interface breakout` map of port `n` split `ways` ways: its native map for 1 (OS10
    /// prints every breakout-capable port's map, the native one included: `map 40g-1x` on
    /// every port of the 10.4.0E capture, `100g-1x` on 1/1/13-1/1/15 of grantcurell's
    /// 10.5.0.2), else the native speed shared by the lanes (100G four ways: `25g-4x`). `None`:
    /// the port has no `interface breakout` (none at all, or a port group's: its group's mode
    /// says how it breaks out, [`Group::mode`]). The error says why the port cannot split so.
    pub fn breakout(&self, n: u16, ways: u8) -> Result<Option<&'static str>, String> {
        let Some(g) = self.run(n) else {
            return Err(format!("{} has no port {n}", self.name));
        };
        if g.maps.is_empty() {
            return if ways == 1 {
                Ok(None)
            } else {
                Err(format!("its {}G ports do not break out", g.speed))
            };
        }
        if g.groups.is_some() {
            let group = self.port_group_of(n);
            // A split of one port of a larger group would split the others with it.
            return if ways == 1 || group.is_some_and(|pg| pg.size() == 1 && pg.splits(ways)) {
                Ok(None)
            } else {
                Err(format!(
                    "its port group takes `mode Eth` {} (none {ways} ways)",
                    g.maps.join(", ")
                ))
            };
        }
        if ways == 1 {
            return Ok(g.maps.first().copied());
        }
        let want = format!("{}g-{ways}x", g.speed / u16::from(ways));
        g.maps
            .iter()
            .find(|m| **m == want)
            .map(|m| Some(*m))
            .ok_or_else(|| {
                format!(
                    "its {}G ports break out as {} (no `{want}`)",
                    g.speed,
                    g.maps.join(", ")
                )
            })
    }
}

/// The model whose port groups a configuration holds: OS10 prints every port group, native
/// modes included (the TOR capture prints all 18), and a running configuration does not name
/// its model, so its groups say which layout it is. The one model of the table with port
/// groups numbered as `numbers` are (all of them its own); `None` when no model or more than
/// one fits, or there is no group.
pub fn by_port_groups(numbers: impl IntoIterator<Item = u16>) -> Option<&'static Model> {
    let numbers: Vec<u16> = numbers.into_iter().collect();
    if numbers.is_empty() {
        return None;
    }
    let mut fit = MODELS
        .iter()
        .filter(|m| numbers.iter().all(|n| m.port_group(*n).is_some()));
    let one = fit.next()?;
    fit.next().is_none().then_some(one)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_captured_model_has_its_ports() {
        let m = Model::named("S5248F-ON").unwrap();
        assert_eq!(m.port_count(), 56);
        assert!(m.allows(13, "10g-4x"));
        assert!(!m.allows(49, "25g-4x"));
        let s4112 = Model::named("S4112F-ON").unwrap();
        assert_eq!(s4112.breakout(13, 1), Ok(Some("100g-1x")));
        assert_eq!(s4112.breakout(13, 4), Ok(Some("25g-4x")));
        assert!(s4112.breakout(13, 2).unwrap_err().contains("no `50g-2x`"));
        assert_eq!(s4112.breakout(1, 1), Ok(None));
        assert!(s4112.breakout(1, 4).is_err());
        // The S5248F-ON's ports break out through their port group, not `interface breakout`.
        assert_eq!(m.breakout(53, 1), Ok(None));
        assert_eq!(m.breakout(53, 4), Ok(None));
        assert!(m.breakout(53, 2).unwrap_err().contains("none 2 ways"));
        assert!(m.breakout(1, 4).is_err());
        let s4148 = Model::named("S4148F-ON").unwrap();
        assert_eq!(s4148.breakout(25, 4), Ok(Some("10g-4x")));
        assert_eq!(s4148.breakout(27, 2), Ok(Some("50g-2x")));
        for m in MODELS {
            let mut next = 1;
            for g in m.ports {
                assert_eq!(g.first, next, "{}: ports numbered without gaps", m.name);
                next = g.last + 1;
                if let Some(groups) = g.groups {
                    assert_eq!((g.last - g.first + 1) % groups.size, 0, "{}", m.name);
                }
            }
        }
    }

    /// The TOR capture's `show port-group`: 18 groups, four SFP28 ports each up to 12, two
    /// QSFP28-DD ports in 13 and 14, one QSFP28 port each in 15-18.
    #[test]
    fn the_s5248f_port_groups_are_the_captures() {
        let m = Model::named("S5248F-ON").unwrap();
        let groups: Vec<(u16, u16, u16)> = m
            .port_groups()
            .map(|g| (g.number, g.first, g.last))
            .collect();
        assert_eq!(groups.len(), 18);
        assert_eq!(groups[0], (1, 1, 4));
        assert_eq!(groups[4], (5, 17, 20));
        assert_eq!(groups[11], (12, 45, 48));
        assert_eq!(groups[12], (13, 49, 50));
        assert_eq!(groups[13], (14, 51, 52));
        assert_eq!(groups[14], (15, 53, 53));
        assert_eq!(groups[17], (18, 56, 56));
        let g5 = m.port_group(5).unwrap();
        assert_eq!(g5.native(), "25g-4x");
        assert_eq!(g5.interfaces(17, "10g-4x"), vec![(Eth::sub(17, 1), 10)]);
        assert_eq!(g5.interfaces(17, "25g-4x"), vec![(Eth::new(17), 25)]);
        assert_eq!(g5.mode(1, 10), Some("10g-4x"));
        assert_eq!(g5.mode(1, 1), None);
        let g13 = m.port_group(13).unwrap();
        assert_eq!(g13.interfaces(50, "100g-2x"), vec![(Eth::new(50), 100)]);
        let g15 = m.port_group(15).unwrap();
        assert_eq!(g15.mode(4, 25), Some("25g-4x"));
        assert_eq!(g15.mode(4, 10), Some("10g-4x"));
        assert_eq!(g15.mode(2, 50), None);
        assert_eq!(g15.interfaces(53, "25g-4x").len(), 4);
        assert_eq!(m.port_group_of(56).map(|g| g.number), Some(18));
        assert_eq!(
            by_port_groups([1, 5, 18]).map(|m| m.name),
            Some("S5248F-ON")
        );
        assert_eq!(by_port_groups([19]), None);
        assert_eq!(by_port_groups([]), None);
    }
}
