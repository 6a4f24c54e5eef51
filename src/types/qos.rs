//! Onyx vocabulary for port and QoS settings: each enum parses the word an engineer writes
//! (with a "did you mean" when it is close) and prints the word Onyx prints.

use std::fmt;

use serde::{Serialize, Serializer};

/// Picks the value whose name matches `s` (case-insensitively), or says which names exist and
/// which one was probably meant.
pub(crate) fn choose<T: Copy>(s: &str, choices: &[(&str, T)], what: &str) -> Result<T, String> {
    if let Some((_, v)) = choices.iter().find(|(n, _)| n.eq_ignore_ascii_case(s.trim())) {
        return Ok(*v);
    }
    let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
    let mut msg = format!(
        "`{}` is not a {what}; expected one of {}",
        s.escape_debug(),
        names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
    );
    if let Some(best) = did_you_mean(s, names.iter().copied()) {
        msg.push_str(&format!(" (did you mean `{best}`?)"));
    }
    Err(msg)
}

/// The closest candidate to `s`, if one is close enough to be a likely typo.
pub fn did_you_mean<'a>(s: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&s.to_ascii_lowercase(), &c.to_ascii_lowercase()), c))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident, $what:literal, { $($variant:ident => $word:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [(&'static str, $name)] = &[$(($word, $name::$variant)),+];

            pub fn parse(s: &str) -> Result<Self, String> {
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
    /// `congestion-control` marking mode of a traffic class.
    EcnMode, "congestion-control mode", { Ecn => "ecn", Red => "red", Both => "both" }
);

word_enum!(
    /// `switchport mode`. Onyx default: access.
    SwitchportMode, "switchport mode", { Access => "access", Trunk => "trunk", Hybrid => "hybrid" }
);

word_enum!(
    /// Port speed as Onyx spells it in `speed 40G force`.
    Speed, "speed", {
        G1 => "1G", G10 => "10G", G25 => "25G", G40 => "40G", G50 => "50G", G56 => "56G",
        G100 => "100G", G200 => "200G", G400 => "400G",
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
        assert!(err.contains("did you mean `lossless`"), "{err}");
        assert_eq!(Speed::parse("100G").unwrap().gbps(), 100);
    }

    #[test]
    fn ecn_prints_like_onyx() {
        let e = Ecn {
            mode: EcnMode::Ecn,
            thresholds: EcnThresholds::Absolute { min: 150, max: 1500 },
        };
        assert_eq!(e.to_string(), "ecn minimum-absolute 150 maximum-absolute 1500");
    }
}
