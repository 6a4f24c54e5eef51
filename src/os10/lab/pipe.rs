//! Output modifiers typed after ` | ` on an OS10 line: `grep` (the lines that match; a
//! matching `banner` line with its text, as the captured `show running-configuration | grep
//! motd` prints it), `except` (the lines that do not), `find` (from the first line that
//! matches on), `no-more` (no paging) and `display-xml` (the command's XML document instead of
//! its text, [`super::xml`]). Patterns are regular expressions; one in double quotes is the
//! text between them (`grep "Mem :"`, as the dellemc.os10 collection's `os10_facts` sends it
//! and the napalm-dellos10 `show processes node-id 1` capture's `KiB Mem :` line matches).
//! Several may follow one another, applied in order. Captured: `| grep` (the CSM switches'
//! `show running-configuration | grep snmp|ntp|user|motd|discovery`), `| display-xml` (the
//! dellemc.os10 and napalm-dellos10 fixtures); `except`, `find` and `no-more` follow the Dell
//! OS10 user guide's list of modifiers, UNCONFIRMED.

use regex::Regex;

use crate::types::cli_text;

/// One modifier.
#[derive(Clone, Debug)]
pub enum Pipe {
    Grep(Regex),
    Except(Regex),
    Find(Regex),
    NoMore,
    DisplayXml,
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
    // A quoted pattern is the text between the quotes.
    let arg = match arg.strip_prefix('"').and_then(|a| a.strip_suffix('"')) {
        Some(inner) if !inner.is_empty() => inner,
        _ => arg,
    };
    let re = || Regex::new(arg).map_err(|_| ());
    Ok(match word {
        "grep" if !arg.is_empty() => Pipe::Grep(re()?),
        "except" if !arg.is_empty() => Pipe::Except(re()?),
        "find" if !arg.is_empty() => Pipe::Find(re()?),
        "no-more" if arg.is_empty() => Pipe::NoMore,
        "display-xml" if arg.is_empty() => Pipe::DisplayXml,
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
            Pipe::NoMore | Pipe::DisplayXml => lines,
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

/// Whether the command's XML document is asked for (`| display-xml`).
pub fn xml(pipes: &[Pipe]) -> bool {
    pipes.iter().any(|p| matches!(p, Pipe::DisplayXml))
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
        assert!(xml(&split("show x | display-xml").unwrap().1));
        assert!(split("show x | display-xml y").is_err());
        assert!(split("show x | grep").is_err());
        // A quoted pattern, as os10_facts sends it, is the text between the quotes.
        let top = "top - 22:23:16 up 117 days\nKiB Mem : 16377708 total\nKiB Swap:  1637768 total, 13417740 avail Mem\n";
        let (_, pipes) = split("show processes node-id 1 | grep \"Mem :\"").unwrap();
        assert_eq!(apply(top, &pipes), "KiB Mem : 16377708 total\n");
        assert!(no_more(&split("show x | no-more").unwrap().1));
    }
}
