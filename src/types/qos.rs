//! Onyx vocabulary for port and QoS settings: each enum parses the word an engineer writes
//! (with a "did you mean" when it is close) and prints the word Onyx prints.

use std::fmt;

use serde::{Serialize, Serializer};

use super::{Invalid, article};

/// Picks the value whose name matches `s` (case-insensitively), or says which names exist,
/// with the one probably meant as help.
pub(crate) fn choose<T: Copy>(s: &str, choices: &[(&str, T)], what: &str) -> Result<T, Invalid> {
    if let Some((_, v)) = choices
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(s.trim()))
    {
        return Ok(*v);
    }
    let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
    let err = Invalid::new(format!(
        "`{}` is not {} {what}; expected one of {}",
        s.escape_debug(),
        article(what),
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    Err(match did_you_mean(s, names.iter().copied()) {
        Some(best) => err.help(format!("did you mean `{best}`?")),
        None => err,
    })
}

/// The closest candidate to `s`, if one is close enough to be a likely typo: a letter
/// missing, added, changed or two letters swapped (`mut` → `mtu`) in a word long enough for
/// that to be telling, or a close Jaro-Winkler match (common prefix, letters in order).
/// Case is ignored.
pub fn did_you_mean<'a>(s: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let s = s.trim().to_lowercase();
    candidates
        .into_iter()
        .filter_map(|c| {
            let lc = c.to_lowercase();
            let edits = strsim::osa_distance(&s, &lc);
            let similar = strsim::jaro_winkler(&s, &lc);
            // One edit per three characters of the shorter word: `mut` → `mtu` yes, `L4` →
            // `L2` no (two-character words differ by one edit from too many others).
            let shorter = s.chars().count().min(lc.chars().count());
            let close = edits * 3 <= shorter;
            (close || similar > 0.8).then_some((edits, similar, c))
        })
        .min_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)))
        .map(|(_, _, c)| c)
}

macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident, $what:literal, { $($variant:ident => $word:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [(&'static str, $name)] = &[$(($word, $name::$variant)),+];

            pub fn parse(s: &str) -> Result<Self, Invalid> {
                choose(s, Self::ALL, $what)
            }

            /// The word Onyx prints.
            pub fn word(self) -> &'static str {
                match self { $($name::$variant => $word),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.word())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.word())
            }
        }
    };
}

word_enum!(
    /// `qos trust`: which header field sets a packet's switch priority. Onyx default: L2.
    Trust, "trust mode", { Port => "port", L2 => "L2", L3 => "L3", Both => "both" }
);

word_enum!(
    /// `traffic pool NAME type`.
    PoolType, "pool type", { Lossless => "lossless", Lossy => "lossy", LossyMc => "lossy-mc" }
);

word_enum!(
    /// The one-shot `roce` mode (Onyx ≥ 3.8.2000).
    RoceMode, "RoCE mode", { Lossless => "lossless", SemiLossless => "semi-lossless", Lossy => "lossy" }
);

word_enum!(
    /// `qos.preset`: a named recipe the fabric writes out line by line (`fabric::validate`'s
    /// `preset` module holds what each expands to, with its sources).
    Preset, "QoS preset", { RoceLossless => "roce-lossless" }
);

word_enum!(
    /// `congestion-control` marking mode of a traffic class.
    EcnMode, "congestion-control mode", { Ecn => "ecn", Red => "red", Both => "both" }
);

word_enum!(
    /// `switchport mode`. Onyx default: access.
    SwitchportMode, "switchport mode", { Access => "access", Trunk => "trunk", Hybrid => "hybrid" }
);

word_enum!(
    /// `spanning-tree port type`: how a port takes part in rapid spanning tree (Onyx User
    /// Manual, Spanning Tree: `edge` forwards at once, `network` blocks without BPDUs,
    /// `normal` is the default; OS10 has `edge` only). Default: normal.
    StpPortType, "spanning-tree port type", { Edge => "edge", Network => "network", Normal => "normal" }
);

word_enum!(
    /// `spanning-tree guard`: root guard keeps the port from becoming a root port, loop guard
    /// blocks it when its BPDUs stop (Onyx User Manual, Spanning Tree; OS10 `spanning-tree
    /// guard {loop | root | none}`). Default: none.
    StpGuard, "spanning-tree guard", { Root => "root", Loop => "loop", None => "none" }
);

word_enum!(
    /// Port speed as Onyx spells it in `speed 40G force`.
    Speed, "speed", {
        G1 => "1G", G10 => "10G", G25 => "25G", G40 => "40G", G50 => "50G", G56 => "56G",
        G100 => "100G", G200 => "200G", G400 => "400G", G800 => "800G",
    }
);

impl Speed {
    pub fn gbps(self) -> u32 {
        match self {
            Speed::G1 => 1,
            Speed::G10 => 10,
            Speed::G25 => 25,
            Speed::G40 => 40,
            Speed::G50 => 50,
            Speed::G56 => 56,
            Speed::G100 => 100,
            Speed::G200 => 200,
            Speed::G400 => 400,
            Speed::G800 => 800,
        }
    }

    pub fn from_gbps(g: u32) -> Option<Speed> {
        Speed::ALL.iter().map(|(_, s)| *s).find(|s| s.gbps() == g)
    }
}

/// ECN/RED thresholds of one traffic class: absolute in KB, or relative in percent of the
/// port's buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase", tag = "kind")]
pub enum EcnThresholds {
    Absolute { min: u32, max: u32 },
    Relative { min: u8, max: u8 },
}

impl EcnThresholds {
    /// Absolute thresholds in KB that the fabric takes and the lab's switches take. Onyx's
    /// own limits were not found in any source (`onyx-cli.md` §f.3): the project's choice,
    /// one table for the fabric validation (E020) and the lab's CLI.
    pub const KB: std::ops::RangeInclusive<u32> = 1..=1_000_000;
    /// Relative thresholds, percent of the buffer.
    pub const PERCENT: std::ops::RangeInclusive<u8> = 1..=100;

    /// Why the thresholds are not ones a switch takes: a value out of range (the value, as
    /// typed), or the minimum above the maximum (the minimum).
    pub fn check(self) -> Result<(), String> {
        let (min, max, ok) = match self {
            EcnThresholds::Absolute { min, max } => {
                (min, max, Self::KB.contains(&min) && Self::KB.contains(&max))
            }
            EcnThresholds::Relative { min, max } => (
                u32::from(min),
                u32::from(max),
                Self::PERCENT.contains(&min) && Self::PERCENT.contains(&max),
            ),
        };
        if !ok {
            let kb = |v: u32| match self {
                EcnThresholds::Absolute { .. } => Self::KB.contains(&v),
                EcnThresholds::Relative { .. } => {
                    u8::try_from(v).is_ok_and(|v| Self::PERCENT.contains(&v))
                }
            };
            return Err(if kb(min) { max } else { min }.to_string());
        }
        if min > max {
            return Err(min.to_string());
        }
        Ok(())
    }
}

/// `traffic-class N congestion-control MODE minimum-… maximum-…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Ecn {
    pub mode: EcnMode,
    pub thresholds: EcnThresholds,
}

impl fmt::Display for Ecn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (kind, min, max) = match self.thresholds {
            EcnThresholds::Absolute { min, max } => ("absolute", min, max),
            EcnThresholds::Relative { min, max } => ("relative", u32::from(min), u32::from(max)),
        };
        write!(f, "{} minimum-{kind} {min} maximum-{kind} {max}", self.mode)
    }
}

/// `traffic-class N dcb ets strict|wrr W`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ets {
    Strict,
    Wrr(u8),
}

impl fmt::Display for Ets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ets::Strict => f.write_str("strict"),
            Ets::Wrr(w) => write!(f, "wrr {w}"),
        }
    }
}

impl Serialize for Ets {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_parse_with_suggestions() {
        assert_eq!(Trust::parse("l3").unwrap(), Trust::L3);
        let err = PoolType::parse("losless").unwrap_err();
        assert_eq!(err.help.as_deref(), Some("did you mean `lossless`?"));
        assert!(!err.message.contains("did you mean"), "{err}");
        assert_eq!(did_you_mean("mut", ["mtu", "pfc", "speed"]), Some("mtu"));
        assert_eq!(did_you_mean("L4", ["port", "L2", "L3", "both"]), None);
        assert_eq!(
            did_you_mean("colour", ["profile", "description", "speed"]),
            None
        );
        assert_eq!(Speed::parse("100G").unwrap().gbps(), 100);
    }

    #[test]
    fn ecn_prints_like_onyx() {
        let e = Ecn {
            mode: EcnMode::Ecn,
            thresholds: EcnThresholds::Absolute {
                min: 150,
                max: 1500,
            },
        };
        assert_eq!(
            e.to_string(),
            "ecn minimum-absolute 150 maximum-absolute 1500"
        );
    }
}
