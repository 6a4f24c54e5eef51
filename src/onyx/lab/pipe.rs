//! Output filters typed after ` | ` on a CLI line, as Onyx takes them: `include`, `exclude`
//! and `begin` with a regular expression (`show interfaces status | include ^Mpo`, captured),
//! `json-print` (the output as JSON, which automation asks for), each abbreviable (`| inc`).
//! Several may follow one another; they apply in order. Input: the typed line; output: the
//! command part and the filters, then the filtered text.

use crate::onyx::lab::cli::Errors as _;
use regex::Regex;

use super::cli::{Reply, Unconfirmed};
use crate::types::cli_text;

/// One filter.
#[derive(Clone, Debug)]
pub enum Pipe {
    /// Lines matching the expression.
    Include(Regex),
    /// Lines not matching it.
    Exclude(Regex),
    /// From the first line matching it on.
    Begin(Regex),
    /// The output as JSON (`| json-print`).
    Json,
}

const FILTERS: &[&str] = &["begin", "exclude", "include", "json-print"];

/// Splits a typed line into its command and its filters; a filter Onyx would not take is the
/// reply to print instead.
pub fn split(line: &str) -> Result<(&str, Vec<Pipe>), Reply> {
    let (command, texts) = cli_text::filters(line);
    let pipes = texts.into_iter().map(pipe).collect::<Result<_, _>>()?;
    Ok((command, pipes))
}

fn pipe(text: &str) -> Result<Pipe, Reply> {
    let (word, arg) = text.split_once(' ').unwrap_or((text, ""));
    let matching: Vec<&&str> = FILTERS.iter().filter(|f| f.starts_with(word)).collect();
    let name = match matching[..] {
        [one] if !word.is_empty() => *one,
        _ => {
            return Err(Reply::unrecognized(if word.is_empty() {
                "|"
            } else {
                word
            }));
        }
    };
    let arg = arg.trim();
    if name == "json-print" {
        return if arg.is_empty() {
            Ok(Pipe::Json)
        } else {
            Err(Reply::unrecognized(arg.split(' ').next().unwrap_or(arg)))
        };
    }
    // A quoted expression is taken without its quotes (`| include "ip route"`, captured).
    let pattern = arg
        .strip_prefix('"')
        .and_then(|a| a.strip_suffix('"'))
        .unwrap_or(arg);
    if pattern.is_empty() {
        return Err(Unconfirmed::FilterIncomplete.reply(name));
    }
    let re = Regex::new(pattern).map_err(|_| Unconfirmed::FilterRegex.reply(pattern))?;
    Ok(match name {
        "include" => Pipe::Include(re),
        "exclude" => Pipe::Exclude(re),
        _ => Pipe::Begin(re),
    })
}

/// Whether the filters ask for JSON.
pub fn json(pipes: &[Pipe]) -> bool {
    pipes.iter().any(|p| matches!(p, Pipe::Json))
}

/// The text filters applied to an output, in order.
pub fn apply(output: String, pipes: &[Pipe]) -> String {
    let mut text = output;
    for p in pipes {
        let keep = |l: &str, re: &Regex, want: bool| re.is_match(l) == want;
        text = match p {
            Pipe::Json => continue,
            Pipe::Include(re) => lines(&text, |l| keep(l, re, true)),
            Pipe::Exclude(re) => lines(&text, |l| keep(l, re, false)),
            Pipe::Begin(re) => {
                let mut on = false;
                lines(&text, |l| {
                    on |= re.is_match(l);
                    on
                })
            }
        };
    }
    text
}

fn lines(text: &str, mut keep: impl FnMut(&str) -> bool) -> String {
    text.lines()
        .filter(|l| keep(l))
        .flat_map(|l| [l, "\n"])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(line: &str, output: &str) -> String {
        let (_, pipes) = split(line).unwrap();
        apply(output.to_string(), &pipes)
    }

    #[test]
    fn filters_as_onyx_takes_them() {
        let out = "Mpo1 Up\nEth1/1 Up\nMpo2 Down\n";
        assert_eq!(
            run("show interfaces status | include ^Mpo", out),
            "Mpo1 Up\nMpo2 Down\n"
        );
        assert_eq!(run("show x | inc Up | exc ^Eth", out), "Mpo1 Up\n");
        assert_eq!(run("show x | begin Eth", out), "Eth1/1 Up\nMpo2 Down\n");
        assert_eq!(
            run("show run | include \"1 Up\"", out),
            "Mpo1 Up\nEth1/1 Up\n"
        );
        let (cmd, pipes) = split("show version | json").unwrap();
        assert_eq!(cmd, "show version");
        assert!(json(&pipes));
        // A quoted `|` belongs to the argument, not to a filter.
        let (cmd, pipes) = split("interface ethernet 1/1 description \"a | b\"").unwrap();
        assert_eq!(cmd, "interface ethernet 1/1 description \"a | b\"");
        assert!(pipes.is_empty());
    }

    #[test]
    fn a_filter_onyx_would_refuse_is_an_error() {
        for (line, error) in [
            ("show x | grep y", "% Unrecognized command \"grep\".\n"),
            ("show x | count", "% Unrecognized command \"count\".\n"),
            (
                "show x | json-print now",
                "% Unrecognized command \"now\".\n",
            ),
            (
                "show x | include",
                "% Incomplete command after \"include\".\n",
            ),
            (
                "show x | include (a",
                "% Invalid regular expression \"(a\".\n",
            ),
        ] {
            assert_eq!(split(line).unwrap_err().output, error, "{line}");
        }
    }
}
