//! `?` and Tab at the prompt: what may follow the words typed so far, from the CLI's keyword
//! tables (`cli::KEYWORDS`, the sub-modes' attributes, the unmodeled families) and the
//! grammar (a line that runs may end there: `<cr>`), each word with one line of help.
//! Nothing here changes a switch: whether a line may end is found by running it on a copy.
//!
//! When `?` and Tab answer is a sibling TMS-based CLI's documented behaviour ("Online help
//! and keyboard shortcuts": `?` after the prompt lists the commands of the mode, after a
//! command its parameters, after part of a keyword the keywords it begins; Tab completes a
//! keyword typed far enough, and lists them when several match). The help texts and the
//! layout are the lab's ([`Unconfirmed::HelpLayout`]).

use super::cli::{self, Mode, Session, Switch, Unconfirmed};
use crate::lab::unmodeled;
use crate::onyx::lab::cli::Errors as _;
use crate::types::cli_text;

pub use crate::lab::Completion;

/// One line of help per keyword (the lab's own texts).
const HELP: &[(&str, &str)] = &[
    ("access", "Access port: untagged, one VLAN"),
    ("active", "LACP active"),
    ("add", "Add VLANs"),
    ("address", "IPv4 address"),
    ("all", "All of them"),
    ("allowed-vlan", "The VLANs the port carries"),
    ("banner", "Login and message-of-the-day banners"),
    ("bgp", "BGP"),
    ("both", "ECN marking and RED"),
    ("channel-group", "Join a port-channel"),
    ("cli", "CLI session settings"),
    ("clock", "System clock"),
    ("configuration", "Configuration files"),
    ("configure", "Enter configuration mode"),
    ("congestion-control", "ECN / RED on a traffic class"),
    ("dcb", "Data center bridging (PFC, ETS)"),
    ("default", "The default VRF"),
    ("definition", "Define a VRF"),
    ("delete", "Delete a configuration file"),
    ("description", "Interface description"),
    ("disable", "Leave enable mode"),
    ("domain-list", "DNS search domain"),
    ("ecn", "ECN marking"),
    ("enable", "Enter enable mode"),
    ("ethernet", "An Ethernet port or range"),
    ("ets", "Enhanced transmission selection"),
    ("exit", "Leave this mode"),
    ("files", "Saved configuration files"),
    ("force", "Make the port routed (no) or L2"),
    ("hostname", "The switch's name"),
    ("hybrid", "Hybrid port: untagged and tagged VLANs"),
    ("interface", "Configure an interface"),
    ("ip", "IP settings"),
    ("ipl", "MLAG inter-peer link"),
    ("ipv4", "IPv4 access lists"),
    ("lacp", "Link aggregation control protocol"),
    (
        "lacp-individual",
        "Forward on the members while LACP is down",
    ),
    ("length", "Lines per page"),
    ("license", "License keys"),
    ("lldp", "Link layer discovery protocol"),
    ("load-sharing", "ECMP hashing"),
    ("logging", "Event logging"),
    ("loopback", "A loopback interface"),
    ("lossless", "Lossless pool (PFC)"),
    ("lossy", "Lossy pool"),
    ("map", "Map switch priorities to the pool"),
    ("memory", "Pool size"),
    ("mlag", "Multi-chassis link aggregation"),
    ("mlag-channel-group", "Join an MLAG port-channel"),
    ("mlag-port-channel", "An MLAG port-channel"),
    ("mlag-vip", "MLAG virtual IP"),
    ("mode", "Mode"),
    ("module-type", "Split the port"),
    ("mtu", "Maximum transmission unit"),
    ("name", "VLAN name"),
    ("name-server", "DNS server"),
    ("no", "Negate a command or set its default"),
    ("none", "No VLANs"),
    ("ntp", "Network time protocol"),
    ("on", "On"),
    ("passive", "LACP passive"),
    ("percent", "Percent of the buffer"),
    ("pool", "A traffic pool (shared buffer)"),
    ("port-channel", "A port-channel"),
    ("priority-flow-control", "Priority flow control (PFC)"),
    ("protocol", "Enable a protocol"),
    ("qos", "Quality of service"),
    ("red", "Random early detection"),
    ("remove", "Remove VLANs"),
    ("roce", "RoCE one-shot mode"),
    ("route", "Static route"),
    ("router", "Routing protocol instance"),
    ("routing", "IP routing"),
    ("running-config", "Display the running configuration"),
    ("show", "Display information"),
    ("shutdown", "Disable"),
    ("snmp-server", "SNMP"),
    ("spanning-tree", "Spanning tree"),
    ("speed", "Port speed"),
    ("strict", "Strict priority"),
    ("summary", "Summary"),
    ("switch-priority", "Switch priorities"),
    ("switchport", "L2 port settings"),
    ("system-mac", "MLAG system MAC"),
    (
        "terminal",
        "Terminal settings, or configure from the terminal",
    ),
    ("traffic", "Traffic pools"),
    ("traffic-class", "Settings of a traffic class"),
    ("trunk", "Trunk port: tagged VLANs"),
    ("trust", "What sets a packet's priority"),
    ("type", "Type"),
    ("username", "User accounts"),
    ("users", "Display the sessions logged in"),
    ("version", "Display version information"),
    ("vlan", "A VLAN"),
    ("vrf", "VRF"),
    ("write", "Save the running configuration"),
    ("wrr", "Weighted round robin"),
];

/// The argument that follows a keyword (keyed like `cli::KEYWORDS`): a placeholder and its
/// help, the ranges the grammar takes.
const ARGS: &[(&str, (&str, &str))] = &[
    ("ethernet", ("<1/1-1/64>", "Port, subport (1/1/2) or range")),
    ("port-channel", ("<1-4094>", "Port-channel number or range")),
    (
        "mlag-port-channel",
        ("<1-4094>", "MLAG port-channel number or range"),
    ),
    ("loopback", ("<0-4094>", "Loopback number")),
    ("interface vlan", ("<1-4094>", "VLAN interface")),
    ("vlan", ("<1-4094>", "VLAN ID or range")),
    ("mtu", ("<1500-9216>", "MTU in bytes")),
    ("traffic-class", ("<0-7>", "Traffic class")),
    ("priority", ("<0-7>", "Switch priority")),
    ("switch-priority", ("<0-7>", "Switch priorities")),
    ("percent", ("<0-100>", "Percent")),
    ("wrr", ("<1-100>", "Weight")),
    ("minimum-absolute", ("<1-1000000>", "KB")),
    ("maximum-absolute", ("<1-1000000>", "KB")),
    ("minimum-relative", ("<1-100>", "Percent")),
    ("maximum-relative", ("<1-100>", "Percent")),
    ("pool", ("<name>", "Pool name")),
    ("hostname", ("<name>", "Hostname")),
    ("description", ("<text>", "Description")),
    ("name", ("<text>", "Name")),
    ("length", ("<1-999>", "Lines")),
    (
        "speed",
        ("<speed>", "1G, 10G, 25G, 40G, 50G, 100G, 200G, 400G"),
    ),
    ("address", ("<A.B.C.D/N>", "Address and prefix length")),
    ("router bgp", ("<AS>", "AS number")),
    ("channel-group", ("<1-4094>", "Port-channel number")),
    (
        "mlag-channel-group",
        ("<1-4094>", "MLAG port-channel number"),
    ),
];

fn describe(word: &str) -> &'static str {
    HELP.iter()
        .find(|(w, _)| *w == word)
        .map(|(_, h)| *h)
        .or_else(|| {
            unmodeled::TOP
                .iter()
                .chain(unmodeled::INTERFACE)
                .find(|f| f.words.first() == Some(&word))
                .map(|f| f.help)
        })
        .unwrap_or("")
}

/// The words of the mode's first position: its commands.
fn first_words(mode: &Mode) -> Vec<&'static str> {
    let level: &[&str] = match mode {
        Mode::User => &["cli", "enable", "exit", "no", "show", "terminal"],
        Mode::Enable => &[
            "cli",
            "configuration",
            "configure",
            "disable",
            "exit",
            "no",
            "show",
            "terminal",
            "write",
        ],
        Mode::Config => {
            return cli::follows(&[])
                .iter()
                .copied()
                .filter(|w| !matches!(*w, "enable" | "disable" | "configure"))
                .collect();
        }
        Mode::Interface(_) => cli::ATTRIBUTES,
        Mode::Vlan(_) => &["name"],
        other => cli::sub_attributes(other).unwrap_or(&[]),
    };
    let mut words = level.to_vec();
    if !matches!(mode, Mode::User | Mode::Enable) {
        words.extend(["exit", "show"]);
    }
    words.sort_unstable();
    words.dedup();
    words
}

/// What may follow `done` (the words typed, keywords written out) at the session's mode:
/// keywords with their help, and an argument's placeholder.
type Next = (
    Vec<(&'static str, &'static str)>,
    Option<(&'static str, &'static str)>,
);

fn next_words(mode: &Mode, done: &[&str]) -> Next {
    if done.is_empty() {
        let words = first_words(mode);
        return (words.into_iter().map(|w| (w, describe(w))).collect(), None);
    }
    let shape = cli::shape(done);
    let mut words: Vec<(&str, &str)> = cli::follows(done)
        .iter()
        .map(|w| (*w, describe(w)))
        .collect();
    // An unmodeled family's next keywords (`ntp ?`).
    let body = match done {
        ["no", rest @ ..] => rest,
        all => all,
    };
    for fam in unmodeled::TOP.iter().chain(unmodeled::INTERFACE) {
        if !fam.words.starts_with(body) {
            continue;
        }
        if body.len() < fam.words.len() {
            words.push((fam.words[body.len()], fam.help));
        } else if let Some(unmodeled::Arg::Kw(k) | unmodeled::Arg::KwOrAddress(k)) =
            fam.args.first()
        {
            // The family's own words: no global help (`disable` here is not `enable`'s).
            words.extend(k.iter().map(|w| (*w, "")));
        }
    }
    words.sort_unstable();
    words.dedup_by_key(|(w, _)| *w);
    let arg = cli::suffix(ARGS, &shape);
    (words, arg)
}

/// The typed text split into the words done (written out) and the word being typed; or the
/// reply that refuses what is done.
fn split(session: &Session, typed: &str) -> Result<(Vec<String>, String), cli::Reply> {
    let words = cli_text::words(typed);
    let ends_word = typed.is_empty() || typed.ends_with([' ', '\t']);
    let (done, partial) = match (ends_word, words.split_last()) {
        (false, Some((last, rest))) => (rest.join(" "), last.to_string()),
        _ => (words.join(" "), String::new()),
    };
    let done = cli::expand(&session.mode, &done)?;
    Ok((done, partial))
}

/// What `?` prints after `typed` (the line up to the cursor).
pub fn help(session: &Session, sw: &Switch, typed: &str) -> String {
    // After a filter's ` | `: the filters.
    if let Some(at) = cli_text::filter_at(typed) {
        let partial = typed[at + 3..].trim_start();
        return list(
            FILTERS
                .iter()
                .filter(|(w, _)| w.starts_with(partial))
                .map(|(w, h)| (w.to_string(), *h)),
        );
    }
    let (done, partial) = match split(session, typed) {
        Ok(x) => x,
        Err(reply) => return reply.output,
    };
    let done: Vec<&str> = done.iter().map(String::as_str).collect();
    // A line that starts with no command of the mode: nothing may follow.
    if let Some(first) = done.first()
        && !first_words(&session.mode).contains(first)
    {
        return cli::Reply::unrecognized(first).output;
    }
    let (words, arg) = next_words(&session.mode, &done);
    let mut lines: Vec<(String, &str)> = words
        .iter()
        .filter(|(w, _)| w.starts_with(&partial))
        .map(|(w, h)| (w.to_string(), *h))
        .collect();
    if partial.is_empty() {
        if let Some((placeholder, text)) = arg {
            lines.push((placeholder.to_string(), text));
        }
        if !done.is_empty() && runs(session, sw, &done.join(" ")) {
            lines.push(("<cr>".to_string(), ""));
        }
    }
    if lines.is_empty() {
        // Nothing may follow: what the switch says of the line.
        let word = if partial.is_empty() {
            done.last().copied().unwrap_or("")
        } else {
            partial.as_str()
        };
        return cli::Reply::unrecognized(word).output;
    }
    list(lines.into_iter())
}

/// The output filters (`lab::pipe`'s), with their help.
const FILTERS: &[(&str, &str)] = &[
    ("begin", "Output from the first line matching an expression"),
    ("exclude", "Lines not matching an expression"),
    ("include", "Lines matching an expression"),
    ("json-print", "Output as JSON"),
];

/// Help lines, as [`Unconfirmed::HelpLayout`] lays them out.
fn list(lines: impl Iterator<Item = (String, &'static str)>) -> String {
    let lines: Vec<(String, &str)> = lines.collect();
    let width = lines
        .iter()
        .map(|(w, _)| w.len())
        .max()
        .unwrap_or(0)
        .max(18)
        + 2;
    lines
        .iter()
        .map(|(w, h)| {
            let text = format!("{w:<width$}{h}");
            format!(
                "{}\n",
                Unconfirmed::HelpLayout
                    .text()
                    .replace("{}", text.trim_end())
            )
        })
        .collect()
}

/// Whether `line` runs in the session's mode: run on copies of the session and switch, its
/// reply is no error.
fn runs(session: &Session, sw: &Switch, line: &str) -> bool {
    let mut s = session.clone();
    s.set_paging(false);
    let mut copy = sw.clone();
    let reply = s.input(&mut copy, line);
    !reply.output.lines().any(|l| l.starts_with('%'))
}

/// What Tab does after `typed` (the line up to the cursor): the one keyword the word being
/// typed begins is completed, followed by a space; several are listed, the word completed
/// as far as they agree.
pub fn complete(session: &Session, typed: &str) -> Completion {
    let Ok((done, partial)) = split(session, typed) else {
        return Completion::default();
    };
    let done: Vec<&str> = done.iter().map(String::as_str).collect();
    let (words, _) = next_words(&session.mode, &done);
    let matching: Vec<(&str, &str)> = words
        .into_iter()
        .filter(|(w, _)| w.starts_with(&partial))
        .collect();
    match matching[..] {
        [] => Completion::default(),
        [(one, _)] => Completion {
            insert: format!("{} ", &one[partial.len()..]),
            list: None,
        },
        _ => {
            let common = matching
                .iter()
                .fold(matching[0].0.to_string(), |acc, (w, _)| {
                    acc.chars()
                        .zip(w.chars())
                        .take_while(|(a, b)| a == b)
                        .map(|(a, _)| a)
                        .collect()
                });
            Completion {
                insert: common[partial.len().min(common.len())..].to_string(),
                list: Some(list(matching.iter().map(|(w, h)| (w.to_string(), *h)))),
            }
        }
    }
}
