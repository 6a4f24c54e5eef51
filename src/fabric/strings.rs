//! What each string a fabric file writes and a switch is given may hold: one table per OS
//! (each OS's [`crate::targets::Rules::strings`]), a row per kind of string ([`Field`]) saying which characters and how
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

/// The table of an OS (in its folder: `STRINGS` of `src/onyx/rules.rs`, `src/os10/rules/`).
pub fn table(os: Os) -> &'static [Rule] {
    os.target().rules().strings()
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
    for os in Os::all().filter(|os| oses.contains(os)) {
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
    fn every_rule_is_described() {
        for os in Os::all() {
            for r in table(os) {
                assert!(!describe(r).is_empty(), "{os}: {:?}", r.field);
            }
        }
    }
}
