//! Output modifiers typed after ` | ` on an OS10 line: `grep` (the lines that match; a
//! matching `banner` line with its text, as the captured `show running-configuration | grep
//! motd` prints it), `except` (the lines that do not), `find` (from the first line that
//! matches on) and `no-more` (no paging). Patterns are regular expressions. Several may
//! follow one another, applied in order. Captured: `| grep` (the CSM switches'
//! `show running-configuration | grep snmp|ntp|user|motd|discovery`); `except`, `find` and
//! `no-more` follow the Dell OS10 user guide's list of modifiers, UNCONFIRMED. `display-xml`
//! is not modelled: refused as an unknown modifier.

use regex::Regex;

use crate::types::cli_text;

/// One modifier.
#[derive(Clone, Debug)]
pub enum Pipe {
    Grep(Regex),
    Except(Regex),
    Find(Regex),
    NoMore,
}

/// Splits a line into its command and its modifiers; `Err`: a modifier OS10 would not take.
pub fn split(line: &str) -> Result<(&str, Vec<Pipe>), ()> {
    let (command, texts) = cli_text::filters(line);
    let pipes = texts.into_iter().map(pipe).collect::<Result<_, _>>()?;
    Ok((command, pipes))
}

fn pipe(text: &str) -> Result<Pipe, ()> {
    let (word, arg) = text.split_once(' ').unwrap_or((text, ""));
    let arg = arg.trim();
    let re = || Regex::new(arg).map_err(|_| ());
    Ok(match word {
        "grep" if !arg.is_empty() => Pipe::Grep(re()?),
        "except" if !arg.is_empty() => Pipe::Except(re()?),
        "find" if !arg.is_empty() => Pipe::Find(re()?),
        "no-more" if arg.is_empty() => Pipe::NoMore,
        _ => return Err(()),
    })
}

/// `text` through the modifiers.
pub fn apply(text: &str, pipes: &[Pipe]) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    for p in pipes {
        lines = match p {
            Pipe::Grep(re) => grep(&lines, re),
            Pipe::Except(re) => lines.into_iter().filter(|l| !re.is_match(l)).collect(),
            Pipe::Find(re) => lines
                .iter()
                .position(|l| re.is_match(l))
                .map_or_else(Vec::new, |i| lines[i..].to_vec()),
            Pipe::NoMore => lines,
        };
    }
    let mut out = lines.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Whether paging is off for this output.
pub fn no_more(pipes: &[Pipe]) -> bool {
    pipes.iter().any(|p| matches!(p, Pipe::NoMore))
}

/// The lines that match; a `banner KIND D` line that matches keeps its text, up to the line
/// that closes it with `D`.
fn grep<'a>(lines: &[&'a str], re: &Regex) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        i += 1;
        if !re.is_match(l) {
            continue;
        }
        out.push(l);
        let mut words = l.split_whitespace();
        if let (Some("banner"), Some(_), Some(delim)) = (words.next(), words.next(), words.next()) {
            while i < lines.len() && lines[i].trim() != delim {
                out.push(lines[i]);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grep_keeps_a_banner_with_its_text_as_captured() {
        let running = "hostname sw\nbanner motd ^C\n ####\n # CSM version:  1.0\n ####\n^C\nsnmp-server contact x\n";
        let (cmd, pipes) = split("show running-configuration | grep motd").unwrap();
        assert_eq!(cmd, "show running-configuration");
        assert_eq!(
            apply(running, &pipes),
            "banner motd ^C\n ####\n # CSM version:  1.0\n ####\n"
        );
        let (_, pipes) = split("show running-configuration | grep snmp").unwrap();
        assert_eq!(apply(running, &pipes), "snmp-server contact x\n");
        let (_, pipes) = split("show x | except snmp | find host").unwrap();
        assert!(apply(running, &pipes).starts_with("hostname sw\nbanner"));
        assert!(split("show x | display-xml").is_err());
        assert!(split("show x | grep").is_err());
        assert!(no_more(&split("show x | no-more").unwrap().1));
    }
}
