//! The OS10 switch models a fabric may name: their front-panel ports, native speeds and the
//! breakout maps each port group takes. Data only, with its source; `confirmed` is true only
//! where a capture in `tests/fixtures/corpus/os10/` shows the ports (a `show version` with the
//! model, and its running configuration or `show port-group`). The rest is from Dell's
//! specification sheets and OS10 user guide, UNCONFIRMED by a capture.

/// A run of front-panel ports of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ports {
    pub first: u16,
    pub last: u16,
    /// Native speed in Gb/s.
    pub speed: u16,
    /// The breakout maps (`interface breakout 1/1/53 map 25g-4x`, or a `port-group`'s `mode
    /// Eth 10g-4x`) these ports take; the first is the native one.
    pub maps: &'static [&'static str],
    /// Set through `port-group 1/1/N` (`mode Eth …`) rather than `interface breakout`.
    pub port_group: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    pub name: &'static str,
    pub ports: &'static [Ports],
    pub source: &'static str,
    pub confirmed: bool,
}

const fn p(
    first: u16,
    last: u16,
    speed: u16,
    maps: &'static [&'static str],
    port_group: bool,
) -> Ports {
    Ports {
        first,
        last,
        speed,
        maps,
        port_group,
    }
}

pub static MODELS: &[Model] = &[
    Model {
        name: "S5248F-ON",
        ports: &[
            // 12 groups of four SFP28 ports: `port-group 1/1/1`..`1/1/12`, `mode Eth 25g-4x` or
            // `10g-4x`; in 10g-4x each port is named `ethernet1/1/N:1` (the TOR capture).
            p(1, 48, 25, &["25g-4x", "10g-4x"], true),
            // Two QSFP28-DD ports, each two 100G ports: `port-group 1/1/13`, `1/1/14`,
            // `mode Eth 100g-2x` (capture).
            p(49, 52, 100, &["100g-2x"], true),
            // Four QSFP28: `mode Eth 100g-1x` (capture); 40g-1x, 25g-4x, 10g-4x UNCONFIRMED.
            p(
                53,
                56,
                100,
                &["100g-1x", "40g-1x", "25g-4x", "10g-4x"],
                true,
            ),
        ],
        source: "AzureStack TOR capture, OS10 10.5.3.2: `show version`, `show port-group`, running configuration",
        confirmed: true,
    },
    Model {
        name: "S4112F-ON",
        ports: &[
            p(1, 12, 10, &[], false),
            // `interface breakout 1/1/13 map 100g-1x` (capture); 40g-1x, 25g-4x, 10g-4x
            // UNCONFIRMED.
            p(
                13,
                15,
                100,
                &["100g-1x", "40g-1x", "25g-4x", "10g-4x"],
                false,
            ),
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
                false,
            ),
            p(33, 34, 10, &[], false),
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
                false,
            ),
            p(65, 66, 10, &[], false),
        ],
        source: "Dell EMC PowerSwitch Z9264F-ON specification sheet: 64 x 100GbE QSFP28, 2 x 10GbE SFP+",
        confirmed: false,
    },
    Model {
        name: "S4148F-ON",
        ports: &[
            p(1, 24, 10, &[], false),
            p(25, 26, 40, &["40g-1x", "10g-4x"], false),
            p(
                27,
                30,
                100,
                &["100g-1x", "40g-1x", "50g-2x", "25g-4x", "10g-4x"],
                false,
            ),
            p(31, 54, 10, &[], false),
        ],
        source: "Dell EMC PowerSwitch S4148F-ON specification sheet: 48 x 10GbE SFP+, 2 x 40GbE QSFP+, 4 x 100GbE QSFP28 (port numbering from the OS10 user guide)",
        confirmed: false,
    },
    Model {
        name: "S6010-ON",
        // 32 x 40GbE QSFP+, each `map 40g-1x` (native) or `10g-4x`: the layout of the Dell
        // OS10 10.4.0E capture (`interface breakout 1/1/1`..`1/1/32 map 40g-1x`), which does
        // not name its model.
        ports: &[p(1, 32, 40, &["40g-1x", "10g-4x"], false)],
        source: "Dell EMC Networking S6010-ON specification sheet: 32 x 40GbE QSFP+ (breakout 4 x 10GbE); UNCONFIRMED by a `show version`",
        confirmed: false,
    },
    Model {
        name: "S3048-ON",
        // 48 x 1GbE, 4 x 10GbE SFP+; no port breaks out (no `interface breakout` line in the
        // capture).
        ports: &[p(1, 48, 1, &[], false), p(49, 52, 10, &[], false)],
        source: "Cray CSM docs: `show version` of `sw-leaf01` (OS10 10.5.0.2P1, System Type S3048-ON) and the running configuration of the same role under its later name `sw-leaf-bmc-001` (10.5.1.4: ethernet1/1/1-1/1/52, no breakout): two switches, so UNCONFIRMED; the 1G/10G speeds are the specification sheet's",
        confirmed: false,
    },
];

impl Model {
    /// The model named `name` (as `show version` prints its `System Type`).
    pub fn named(name: &str) -> Option<&'static Model> {
        MODELS.iter().find(|m| m.name == name)
    }

    /// Front-panel ports before any breakout.
    pub fn port_count(&self) -> u16 {
        self.ports.iter().map(|g| g.last - g.first + 1).sum()
    }

    /// The group of port `n`.
    pub fn group(&self, n: u16) -> Option<&'static Ports> {
        self.ports.iter().find(|g| (g.first..=g.last).contains(&n))
    }

    /// Whether port `n` takes breakout `map`.
    pub fn allows(&self, n: u16, map: &str) -> bool {
        self.group(n).is_some_and(|g| g.maps.contains(&map))
    }

    /// The `interface breakout` map of port `n` split `ways` ways: its native map for 1 (OS10
    /// prints every breakout-capable port's map, the native one included: `map 40g-1x` on
    /// every port of the 10.4.0E capture, `100g-1x` on 1/1/13-1/1/15 of grantcurell's
    /// 10.5.0.2), else the native speed shared by the lanes (100G four ways: `25g-4x`). `None`:
    /// the port has no `interface breakout`. The error says why the port cannot split so.
    pub fn breakout(&self, n: u16, ways: u8) -> Result<Option<&'static str>, String> {
        let Some(g) = self.group(n) else {
            return Err(format!("{} has no port {n}", self.name));
        };
        if g.maps.is_empty() {
            return if ways == 1 {
                Ok(None)
            } else {
                Err(format!("its {}G ports do not break out", g.speed))
            };
        }
        if g.port_group {
            return if ways == 1 {
                Ok(None)
            } else {
                Err("its ports break out through `port-group` (`mode Eth …`), which is not compiled yet".to_string())
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
        assert_eq!(m.breakout(53, 1), Ok(None));
        assert!(m.breakout(53, 4).unwrap_err().contains("port-group"));
        let s4148 = Model::named("S4148F-ON").unwrap();
        assert_eq!(s4148.breakout(25, 4), Ok(Some("10g-4x")));
        assert_eq!(s4148.breakout(27, 2), Ok(Some("50g-2x")));
        for m in MODELS {
            let mut next = 1;
            for g in m.ports {
                assert_eq!(g.first, next, "{}: ports numbered without gaps", m.name);
                next = g.last + 1;
            }
        }
    }
}
