//! What each string a fabric file writes and a switch is given may hold: one table per OS
//! ([`ONYX`], [`OS10`]), a row per kind of string ([`Field`]) saying which characters and how
//! many, and where that comes from. Validation checks every such string against the row of
//! each OS that prints it ([`check`]), so a value is one argument of one command on every
//! switch that gets it and reads back equal; a row whose source does not settle it is marked
//! UNCONFIRMED and takes the narrower choice.
//!
//! The rules are of three kinds ([`Alphabet`]): text printed as one quoted argument (a
//! description: `cli_text`'s rule, plus what the OS refuses besides), one word printed bare
//! (an MLAG domain: no space can follow it or `;`/`!` start something else), and a switch's
//! name (an RFC 1123 label, [`Hostname`]). Pool names and the hostname keep their own readers
//! (`check_pool_name`, `Hostname`'s), which a test holds to these rows.

use super::Os;
use crate::types::{Hostname, Invalid, cli_text, describe_char};

/// A kind of string a fabric file writes and a switch's configuration prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The switch's name (`switches:` keys): `hostname NAME`.
    Hostname,
    /// A port's or bundle's `description` (`bundle_description`), or one made from its peer.
    Description,
    /// A VLAN's `name`: Onyx `vlan N name "NAME"`, OS10 the VLAN interface's description.
    VlanName,
    /// An MLAG pair's `domain`: Onyx `mlag-vip NAME ip A /N force`.
    MlagDomain,
    /// A traffic pool's name (`qos.pools` keys): Onyx `traffic pool NAME …`.
    PoolName,
    /// A `licenses` key: Onyx `license install KEY`.
    LicenseKey,
    /// The `certificate` ID, printed in a comment of Onyx's running config.
    CertificateId,
}

impl Field {
    /// What a message calls it.
    pub fn what(self) -> &'static str {
        match self {
            Field::Hostname => "switch name",
            Field::Description => "description",
            Field::VlanName => "VLAN name",
            Field::MlagDomain => "MLAG domain name",
            Field::PoolName => "pool name",
            Field::LicenseKey => "license key",
            Field::CertificateId => "certificate ID",
        }
    }
}

/// The characters a kind of string may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alphabet {
    /// Text printed as one double-quoted argument: `cli_text::check`'s rule (one line of
    /// printable ASCII, no `"`, `?`, `|`, `\`, no space at an edge or two in a row), and these
    /// characters refused besides, each with why.
    Text(&'static [(char, &'static str)]),
    /// One word printed bare: ASCII letters, digits and these characters.
    Word(&'static str),
    /// An RFC 1123 label: letters, digits and `-`, not at an edge ([`Hostname`]).
    Label,
    /// Hexadecimal digits.
    Hex,
}

/// One row of an OS's table.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub field: Field,
    pub alphabet: Alphabet,
    /// The most characters (at least one is always needed).
    pub max: usize,
    /// Where the rule comes from; `UNCONFIRMED` first where no source or capture settles it.
    pub source: &'static str,
}

/// Onyx: which strings it prints and what each may hold.
pub const ONYX: &[Rule] = &[
    Rule {
        field: Field::Hostname,
        alphabet: Alphabet::Label,
        max: 63,
        source: "RFC 1123 label; the captures' prompts and `## Hostname:` lines",
    },
    Rule {
        field: Field::Description,
        alphabet: Alphabet::Text(&[]),
        max: 64,
        source: "UNCONFIRMED length: the manual says \"a string\"; printed quoted from 3.9 (`description \"sw-spine02-1/10\"`, CSM capture), bare before (`cli_text`)",
    },
    Rule {
        field: Field::VlanName,
        alphabet: Alphabet::Text(&[]),
        max: 32,
        source: "UNCONFIRMED length; printed quoted from 3.9 (`vlan 4000 name \"MLAG\"`, CSM spine capture)",
    },
    Rule {
        field: Field::MlagDomain,
        alphabet: Alphabet::Word("-_"),
        max: 32,
        source: "UNCONFIRMED alphabet and length: printed bare as one word (`mlag-vip neo-mlag-vip-4094 ip …`, Ansible's `onyx_mlag_vip` `ansible_test_group`, prompts `[rocket-mlag-domain: master]`, `[MLNX01: standby]`, `[my-vip: master]`); none has another character",
    },
    Rule {
        field: Field::PoolName,
        alphabet: Alphabet::Word("-_"),
        max: 20,
        source: "`traffic pool <name>`: a string of up to 20 characters (`onyx-cli.md` §a.2, NVIDIA's switch buffer guide); letters, digits, `-`, `_` UNCONFIRMED beyond the captures' names (`check_pool_name`)",
    },
    Rule {
        field: Field::LicenseKey,
        alphabet: Alphabet::Word("-_"),
        max: 256,
        source: "UNCONFIRMED: the captures' keys are letters, digits and `-`",
    },
    Rule {
        field: Field::CertificateId,
        alphabet: Alphabet::Hex,
        max: 40,
        source: "`# Certificate name system-self-signed, ID …` in every 3.9 capture: 40 hexadecimal digits",
    },
];

/// Characters OS10 text refuses beyond `cli_text`'s.
const OS10_TEXT: &[(char, &str)] = &[
    (
        '!',
        "OS10 prints `!` between a configuration's blocks, and its CLI may take it for the start of a comment (UNCONFIRMED: no capture has one inside text)",
    ),
    (
        '#',
        "OS10's CLI may take `#` for the start of a comment (UNCONFIRMED: no capture has one inside text)",
    ),
];

/// OS10: which strings it prints and what each may hold. It prints no MLAG domain name (a
/// VLT domain is a number), pool name, license key or certificate ID.
pub const OS10: &[Rule] = &[
    Rule {
        field: Field::Hostname,
        alphabet: Alphabet::Label,
        max: 63,
        source: "RFC 1123 label, the rule Onyx's name takes so one name fits both",
    },
    Rule {
        field: Field::Description,
        alphabet: Alphabet::Text(OS10_TEXT),
        max: 64,
        source: "UNCONFIRMED: printed quoted when it holds a space (`description \"Unused Port\"`, AzureStack TOR 10.5.3.2), bare otherwise; the length Onyx's, so one description fits both",
    },
    Rule {
        field: Field::VlanName,
        alphabet: Alphabet::Text(OS10_TEXT),
        max: 32,
        source: "UNCONFIRMED: printed as the VLAN interface's description; the length Onyx's",
    },
];

/// The table of an OS.
pub fn table(os: Os) -> &'static [Rule] {
    match os {
        Os::Onyx => ONYX,
        Os::Os10 => OS10,
    }
}

/// The row of `field` on `os`; `None` where the OS does not print it.
pub fn rule(os: Os, field: Field) -> Option<&'static Rule> {
    table(os).iter().find(|r| r.field == field)
}

/// Checks `s` against the rule of `field` on each OS in `oses` that prints it: the first
/// refusal, its message starting after the field's name (`… contains a line break`).
pub fn check(oses: &[Os], field: Field, s: &str) -> Result<(), Invalid> {
    // Each OS-specific refusal names its OS (`OS10 prints `!` …`); the rules they share
    // refuse alike, so the first OS's message stands for both.
    for os in [Os::Onyx, Os::Os10]
        .into_iter()
        .filter(|os| oses.contains(os))
    {
        if let Some(r) = rule(os, field) {
            check_rule(r, s)?;
        }
    }
    Ok(())
}

/// Checks `s` against one rule.
pub fn check_rule(r: &Rule, s: &str) -> Result<(), Invalid> {
    match r.alphabet {
        Alphabet::Text(refused) => {
            cli_text::check(s, r.max)?;
            match refused.iter().find(|(c, _)| s.contains(*c)) {
                Some((c, why)) => Err(Invalid::new(format!("contains `{c}`: {why}"))
                    .help("leave it out, or write it another way (`/`, `-`)")),
                None => Ok(()),
            }
        }
        Alphabet::Word(also) => word(r, s, |c| c.is_ascii_alphanumeric() || also.contains(c)),
        Alphabet::Hex => word(r, s, |c| c.is_ascii_hexdigit()),
        Alphabet::Label => s.parse::<Hostname>().map(|_| ()),
    }
}

/// A word of the characters `ok` takes, 1 to `r.max` of them.
fn word(r: &Rule, s: &str, ok: impl Fn(char) -> bool) -> Result<(), Invalid> {
    let len = s.chars().count();
    let message = match s.chars().find(|c| !ok(*c)) {
        _ if s.is_empty() => "is empty".to_string(),
        // A control character is named, never printed: it could drive the terminal.
        Some(c) if c.is_control() => format!("contains {}", describe_char(c)),
        Some(c) => format!("`{}` has {}", s.escape_debug(), describe_char(c)),
        None if len > r.max => format!("is {len} characters, at most {}", r.max),
        None => return Ok(()),
    };
    Err(Invalid::new(message).help(describe(r)))
}

/// A rule in words, for help lines and docs: `1-32 ASCII letters, digits, `-` and `_``.
pub fn describe(r: &Rule) -> String {
    match r.alphabet {
        Alphabet::Text(refused) => {
            let mut not: Vec<String> = cli_text::REFUSED
                .iter()
                .chain(refused)
                .map(|(c, _)| format!("`{c}`"))
                .collect();
            not.insert(0, "control characters".into());
            format!(
                "1-{} printable ASCII characters, spaces between words; no {}",
                r.max,
                not.join(", ")
            )
        }
        Alphabet::Word(also) => {
            let also: Vec<String> = also.chars().map(|c| format!("`{c}`")).collect();
            format!(
                "one word of 1-{} ASCII letters, digits, {}",
                r.max,
                also.join(" and ")
            )
        }
        Alphabet::Label => format!(
            "1-{} ASCII letters, digits and `-`, not starting or ending with `-`",
            r.max
        ),
        Alphabet::Hex => format!("{} hexadecimal digits", r.max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_domain_is_one_word() {
        let onyx = [Os::Onyx];
        assert!(check(&onyx, Field::MlagDomain, "vsphere-mlag").is_ok());
        assert!(check(&onyx, Field::MlagDomain, "ansible_test_group").is_ok());
        for bad in ["x; no lldp", "no shutdown", "a#b", "a!b", "", "a\nb", "é"] {
            assert!(check(&onyx, Field::MlagDomain, bad).is_err(), "{bad:?}");
        }
        // OS10 prints no domain name: nothing to check there.
        assert!(check(&[Os::Os10], Field::MlagDomain, "x y").is_ok());
    }

    #[test]
    fn os10_text_refuses_comment_marks() {
        let d = "rack 4 (uplink #2)";
        assert!(check(&[Os::Onyx], Field::Description, d).is_ok());
        let e = check(&[Os::Onyx, Os::Os10], Field::Description, d).unwrap_err();
        assert!(e.message.contains("OS10's CLI"), "{}", e.message);
    }

    #[test]
    fn every_rule_is_described() {
        for r in ONYX.iter().chain(OS10) {
            assert!(!describe(r).is_empty());
        }
        assert_eq!(
            describe(rule(Os::Onyx, Field::MlagDomain).unwrap()),
            "one word of 1-32 ASCII letters, digits, `-` and `_`"
        );
    }
}
