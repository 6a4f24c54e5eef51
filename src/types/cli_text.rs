//! Text a user writes that ends up inside an Onyx command: descriptions, VLAN names, and the
//! peer names descriptions are made of. One rule for what such text may hold and how it is
//! quoted, shared by everything that touches it: validation ([`check`]: what is accepted),
//! rendering and pushing ([`quote`]: how it is written), the running-config reader ([`read`]:
//! how it is read back) and the lab's CLI ([`words`], [`filter_at`]: how a switch splits a
//! typed line). So a value the fabric accepts reaches the switch as exactly one command and
//! reads back equal (a property test walks generated strings through all four).
//!
//! Onyx's own rules for such text are not documented beyond "a string"; where a choice below
//! rests on behaviour no capture shows, [`REFUSED`] says so. The choices refuse rather than
//! risk a value the switch stores differently: every push of such a fabric would fail its
//! verification and roll back.

use super::{Invalid, describe_char};

/// Printable ASCII characters refused in CLI text, and why.
pub const REFUSED: &[(char, &str)] = &[
    ('"', "it would end the quoted CLI argument"),
    (
        '?',
        "it is the CLI's help key: typed at an Onyx prompt it lists completions instead of being kept (as every Onyx CLI session shows; not seen inside a quoted argument in a capture)",
    ),
    (
        '|',
        "it starts an output filter (`| include …`) on an Onyx command line; whether quotes protect it is not seen in a capture",
    ),
    (
        '\\',
        "it may escape the character after it; how Onyx's CLI reads it is not seen in a capture",
    ),
];

/// Checks text that will be printed inside an Onyx command, at most `max` characters: one
/// line, one argument, kept by the switch exactly as written.
pub fn check(s: &str, max: usize) -> Result<(), Invalid> {
    // Most text is plain: one pass over its bytes says so (a fabric has a description per
    // port); anything else goes through the checks below, which say what is wrong.
    let b = s.as_bytes();
    let plain = b.len() <= max
        && b.first().is_some_and(|&c| c != b' ')
        && b.last().is_some_and(|&c| c != b' ')
        && b.iter()
            .all(|&c| (b' '..=b'~').contains(&c) && !REFUSED.iter().any(|(r, _)| *r as u8 == c))
        && !b.windows(2).any(|w| w == b"  ");
    if plain {
        return Ok(());
    }
    if s.is_empty() {
        return Err(Invalid::new("is empty"));
    }
    if let Some(c) = s.chars().find(|c| c.is_control()) {
        return Err(Invalid::new(format!(
            "contains {}, which would break the CLI line",
            describe_char(c)
        ))
        .help("keep it on one line, without control characters"));
    }
    if let Some(c) = s.chars().find(|c| !c.is_ascii()) {
        return Err(Invalid::new(format!(
            "contains {} (U+{:04X}), which is not ASCII",
            if c.is_whitespace() {
                "a Unicode space or line separator".to_string()
            } else {
                format!("`{c}`")
            },
            c as u32
        ))
        .help("an Onyx command line is ASCII; how a switch stores other characters is not seen in a capture, so they are refused"));
    }
    if let Some((c, why)) = REFUSED.iter().find(|(c, _)| s.contains(*c)) {
        return Err(
            Invalid::new(format!("contains `{c}`: {why}")).help(if *c == '"' {
                "leave the double quotes out, or use single quotes `'` inside the text"
            } else {
                "leave it out, or write it another way (`/`, `-`)"
            }),
        );
    }
    if s.trim() != s {
        return Err(Invalid::new(
            "starts or ends with white space, which Onyx does not keep",
        ));
    }
    if s.contains("  ") {
        return Err(Invalid::new(
            "has two spaces in a row; a switch may keep one (not seen in a capture), so write one",
        ));
    }
    let len = s.chars().count();
    if len > max {
        return Err(Invalid::new(format!("is {len} characters, at most {max}")));
    }
    Ok(())
}

/// The text as an Onyx command takes it: one double-quoted argument.
pub fn quote(s: &str) -> String {
    format!("\"{s}\"")
}

/// The text as a running config prints it: quoted where the release quotes text (from 3.9),
/// bare before, except text that reads back as something else when bare (empty, or with
/// space at an edge, which the reader would drop): that is quoted whatever the release, so
/// what is printed always reads back equal.
pub fn print(s: &str, quoted: bool) -> String {
    if quoted || s.is_empty() || s.trim() != s {
        quote(s)
    } else {
        s.to_string()
    }
}

/// Reads the text argument at the end of a printed command: quoted (`"sw-spine02-1/10"`, from
/// Onyx 3.9) or bare to the end of the line (`TRUNK TO Dell7048`, 3.6 and 3.7). The text, or
/// the byte offset in `arg` where it goes wrong and what was expected there.
pub fn read(arg: &str) -> Result<&str, (usize, &'static str)> {
    let t = arg.trim_end();
    if let Some(inner) = t.strip_prefix('"') {
        return match inner.strip_suffix('"') {
            Some(s) if !s.contains('"') => no_control(s, 1),
            _ => Err((0, "a closing `\"`")),
        };
    }
    if t.is_empty() {
        return Err((0, "text"));
    }
    // Unquoted text runs to the end of the line; a `"` in it means a quote opened elsewhere.
    match t.find('"') {
        Some(q) => Err((q, "text without `\"`, or text in `\"…\"`")),
        None => no_control(t, 0),
    }
}

/// Text a switch stored never holds a control character: one is not a value but bytes that
/// are not configuration.
fn no_control(s: &str, offset: usize) -> Result<&str, (usize, &'static str)> {
    match s.find(|c: char| c.is_control()) {
        Some(at) => Err((offset + at, "text without control characters")),
        None => Ok(s),
    }
}

/// The words of a line typed at an Onyx prompt: split at spaces and tabs, except inside double
/// quotes, where a quoted argument stays one word, quotes and inner spaces included.
pub fn words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => {
                quoted = !quoted;
                start.get_or_insert(i);
            }
            ' ' | '\t' if !quoted => {
                if let Some(s) = start.take() {
                    out.push(&line[s..i]);
                }
            }
            _ => {
                start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// A typed line split at its output filters (` | `, outside double quotes): the command, and
/// each filter's text, trimmed, in order.
pub fn filters(line: &str) -> (&str, Vec<&str>) {
    let Some(at) = filter_at(line) else {
        return (line, Vec::new());
    };
    let (command, mut rest) = (line[..at].trim(), &line[at + 3..]);
    let mut out = Vec::new();
    loop {
        match filter_at(rest) {
            Some(at) => {
                out.push(rest[..at].trim());
                rest = &rest[at + 3..];
            }
            None => {
                out.push(rest.trim());
                return (command, out);
            }
        }
    }
}

/// Where an output filter starts on a typed line (the byte offset of ` | `), outside double
/// quotes.
pub fn filter_at(line: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '|' if !quoted && line[..i].ends_with(' ') && line[i + 1..].starts_with(' ') => {
                return Some(i - 1);
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_may_be_written() {
        assert!(check("clx-mld-41:vmnic2", 64).is_ok());
        assert!(check("rack 4, row B (uplink #2) 'spare'; !", 64).is_ok());
        for bad in [
            "",
            "a\nvlan 5",
            "a\"b",
            "\u{1b}[2J",
            "x | include y",
            "what?",
            "a\\b",
            "two  spaces",
            " lead",
            "trail ",
            "line\u{2028}separator",
            "café",
        ] {
            assert!(check(bad, 64).is_err(), "{bad:?}");
        }
        assert!(check(&"x".repeat(65), 64).is_err());
    }

    #[test]
    fn lines_split_as_a_switch_splits_them() {
        assert_eq!(
            words(r#"interface ethernet 1/1 description "a  b | c""#),
            [
                "interface",
                "ethernet",
                "1/1",
                "description",
                r#""a  b | c""#
            ]
        );
        assert_eq!(words("  show   run  "), ["show", "run"]);
        assert_eq!(filter_at(r#"description "x | include y""#), None);
        assert_eq!(filter_at("show running-config | include mtu"), Some(19));
        assert_eq!(read(r#""a  b""#), Ok("a  b"));
        assert_eq!(read("TRUNK TO Dell7048"), Ok("TRUNK TO Dell7048"));
        assert_eq!(read(r#""open"#), Err((0, "a closing `\"`")));
    }
}
