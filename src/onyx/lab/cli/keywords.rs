//! Keyword abbreviations of the Onyx CLI: the keywords that may follow each keyword
//! ([`KEYWORDS`]), the attributes that start a line inside each sub-mode, and a typed line's
//! words with its abbreviations written out ([`expand`]).

use super::{Mode, Reply};
use crate::onyx::command;
use crate::onyx::lab::cli::Errors as _;
use crate::types::cli_text;

/// A line typed inside an interface sub-mode that leaves it for another object
/// (`interface ethernet 1/2`, `vlan 10`, `no interface port-channel 1`) rather than
/// configuring the current interfaces: its first word (after `no`) is not an attribute.
pub(super) fn leaves_interface(words: &[&str]) -> bool {
    leaves(words, ATTRIBUTES)
}

/// Whether a line typed in a sub-mode is not one of its attributes (after `no`).
pub(super) fn leaves(words: &[&str], attributes: &[&str]) -> bool {
    match words {
        ["no", w, ..] | [w, ..] => !attributes.contains(w),
        [] => false,
    }
}

/// The keywords that may follow a keyword (or start a line, after `""`), for abbreviations:
/// a word that begins exactly one of them stands for it (`conf t`, `show run`, `int eth 1/1`).
/// Other words are arguments and are kept as typed.
const KEYWORDS: &[(&str, &[&str])] = &[
    (
        "",
        &[
            "banner",
            "cli",
            "clock",
            "configuration",
            "configure",
            "dcb",
            "disable",
            "enable",
            "exit",
            "hostname",
            "interface",
            "ip",
            "ipv4",
            "lacp",
            "license",
            "lldp",
            "logging",
            "mlag",
            "mlag-vip",
            "no",
            "ntp",
            "protocol",
            "roce",
            "router",
            "show",
            "snmp-server",
            "spanning-tree",
            "terminal",
            "traffic",
            "username",
            "vlan",
            "vrf",
            "write",
        ],
    ),
    (
        "no",
        &[
            "banner",
            "cli",
            "clock",
            "dcb",
            "hostname",
            "interface",
            "ip",
            "ipv4",
            "lacp",
            "lldp",
            "logging",
            "mlag",
            "mlag-vip",
            "ntp",
            "protocol",
            "roce",
            "router",
            "snmp-server",
            "spanning-tree",
            "traffic",
            "username",
            "vlan",
            "vrf",
        ],
    ),
    ("cli", &["default", "session"]),
    ("session", &["paging"]),
    ("paging", &["enable"]),
    ("configure", &["terminal"]),
    ("terminal", &["length"]),
    (
        "show",
        &[
            "buffers",
            "configuration",
            "dcb",
            "hosts",
            "interfaces",
            "inventory",
            "ip",
            "lldp",
            "mac-address-table",
            "mlag",
            "mlag-vip",
            "module",
            "protocols",
            "qos",
            "roce",
            "running-config",
            "traffic",
            "users",
            "version",
            "vlan",
        ],
    ),
    ("buffers", &["pools"]),
    (
        "interfaces",
        &[
            "ethernet",
            "mlag-port-channel",
            "port-channel",
            "status",
            "switchport",
        ],
    ),
    ("lldp", &["interfaces", "local", "remote"]),
    ("configuration", &["delete", "files", "write"]),
    ("write", &["memory", "to"]),
    ("running-config", &["interface"]),
    (
        "interface",
        &[
            "ethernet",
            "loopback",
            "mlag-port-channel",
            "port-channel",
            "vlan",
        ],
    ),
    ("traffic", &["pool"]),
    ("dcb", &["ets", "priority-flow-control"]),
    ("priority-flow-control", &["enable", "mode", "priority"]),
    ("priority-flow-control mode", &["on"]),
    (
        "ip",
        &[
            "address",
            "bgp",
            "domain-list",
            "interface",
            "load-sharing",
            "name-server",
            "route",
            "routing",
        ],
    ),
    ("load-sharing", &["source-ip-port", "type"]),
    ("ethernet", &["counters", "status"]),
    ("bgp", &["summary", "vrf"]),
    ("bgp vrf", &["all", "default"]),
    ("vrf", &["definition"]),
    ("router", &["bgp", "ospf"]),
    ("protocol", &["bgp", "magp", "mlag", "ospf"]),
    ("mlag", &["shutdown", "system-mac"]),
    ("ethernet *", ATTRIBUTES),
    ("port-channel *", ATTRIBUTES),
    ("mlag-port-channel *", ATTRIBUTES),
    (
        "switchport",
        &["access", "force", "hybrid", "mode", "trunk"],
    ),
    ("switchport mode", &["access", "hybrid", "trunk"]),
    ("trunk", &["allowed-vlan"]),
    ("hybrid", &["allowed-vlan"]),
    ("allowed-vlan", &["add", "all", "none", "remove"]),
    ("traffic-class *", &["congestion-control", "dcb"]),
    ("* dcb", &["ets"]),
    ("ets", &["strict", "wrr"]),
    ("congestion-control", &["both", "ecn", "red"]),
    ("ecn", &["minimum-absolute", "minimum-relative"]),
    ("red", &["minimum-absolute", "minimum-relative"]),
    ("both", &["minimum-absolute", "minimum-relative"]),
    ("minimum-absolute *", &["maximum-absolute"]),
    ("minimum-relative *", &["maximum-relative"]),
    ("qos", &["trust"]),
    ("trust", &["L2", "L3", "both", "port"]),
    ("module-type", &["qsfp-split-2", "qsfp-split-4"]),
    ("channel-group *", &["mode"]),
    ("mlag-channel-group *", &["mode"]),
    ("* mode", &["active", "on", "passive"]),
    ("pool *", &["map", "memory", "type"]),
    ("type", &["lossless", "lossy", "lossy-mc"]),
    ("memory", &["percent"]),
    ("map", &["switch-priority"]),
];

/// The interface attributes that start a line inside an interface sub-mode.
pub(in crate::onyx::lab) const ATTRIBUTES: &[&str] = &[
    "channel-group",
    "dcb",
    "description",
    "ip",
    "ipl",
    "lacp-individual",
    "mlag-channel-group",
    "module-type",
    "mtu",
    "no",
    "qos",
    "shutdown",
    "spanning-tree",
    "speed",
    "switchport",
    "traffic-class",
];

/// The attributes that start a line inside a traffic pool's sub-mode.
pub(super) const POOL_ATTRIBUTES: &[&str] = &["map", "memory", "type"];

/// The attributes that start a line inside `router bgp N`'s sub-mode (the Onyx manual's BGP
/// commands that follow `router bgp` on a line).
pub(super) const BGP_ATTRIBUTES: &[&str] = &[
    "bestpath",
    "maximum-paths",
    "neighbor",
    "network",
    "no",
    "router-id",
];

/// The attributes that start a line inside the `mlag` sub-mode.
pub(super) const MLAG_ATTRIBUTES: &[&str] = &["no", "shutdown", "system-mac"];

/// The attributes that start a line inside an unmodeled object's sub-mode (MAGP's: `ip
/// virtual-router address|mac-address`, captured; `shutdown`, Onyx manual, MAGP).
pub(super) const UNMODELED_ATTRIBUTES: &[&str] = &["ip", "no", "shutdown"];

/// The attributes of a sub-mode other than an interface's: lines there that start with one
/// configure the mode's object.
pub(in crate::onyx::lab) fn sub_attributes(mode: &Mode) -> Option<&'static [&'static str]> {
    match mode {
        Mode::Pool(_) => Some(POOL_ATTRIBUTES),
        Mode::Bgp(_) => Some(BGP_ATTRIBUTES),
        Mode::Mlag => Some(MLAG_ATTRIBUTES),
        Mode::Unmodeled(_) => Some(UNMODELED_ATTRIBUTES),
        _ => None,
    }
}

/// Whether a double quote is left open in `text` (its text goes on on the next line).
pub(super) fn open_quote(text: &str) -> bool {
    text.matches('"').count() % 2 == 1
}

/// The entry of a table keyed like [`KEYWORDS`] for the words of `shape`: the one for its
/// last three, two or one words, the longest first.
pub(in crate::onyx::lab) fn suffix<T: Copy>(table: &[(&str, T)], shape: &[&str]) -> Option<T> {
    (1..=shape.len().min(3)).rev().find_map(|n| {
        let key = shape[shape.len() - n..].join(" ");
        table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    })
}

/// The words of `path` (keywords written out) with each word that is not a keyword where it
/// stands (a number, a name, an address) written `*`: `channel-group * mode`.
pub(in crate::onyx::lab) fn shape<'a>(path: &[&'a str]) -> Vec<&'a str> {
    let mut shape: Vec<&str> = Vec::with_capacity(path.len());
    for (i, w) in path.iter().enumerate() {
        let known = i == 0 || suffix(KEYWORDS, &shape).is_some_and(|c| c.contains(w));
        shape.push(if known { w } else { "*" });
    }
    shape
}

/// The keywords that may follow the words of `path` (keywords written out), from
/// [`KEYWORDS`] (the first words of a line after none).
pub(in crate::onyx::lab) fn follows(path: &[&str]) -> &'static [&'static str] {
    if path.is_empty() {
        return KEYWORDS[0].1;
    }
    suffix(KEYWORDS, &shape(path)).unwrap_or(&[])
}

/// The words of a line with abbreviated keywords written out.
pub(in crate::onyx::lab) fn expand(mode: &Mode, line: &str) -> Result<Vec<String>, Reply> {
    // A quoted argument is one word, kept as typed (its spaces included).
    let words: Vec<&str> = cli_text::words(line);
    let mut out: Vec<String> = Vec::new();
    for (i, &word) in words.iter().enumerate() {
        let path: Vec<&str> = out.iter().map(String::as_str).collect();
        let in_interface = matches!(mode, Mode::Interface(_));
        let candidates: &[&str] = if i == 0 && in_interface {
            ATTRIBUTES
        } else if i == 0
            && let Some(attributes) = sub_attributes(mode)
            && !KEYWORDS[0].1.contains(&word)
        {
            attributes
        } else if i == 0 {
            KEYWORDS[0].1
        } else {
            follows(&path)
        };
        // Inside an interface sub-mode a whole `(config)` command word (`mlag`, `router`)
        // starts that command, which falls through to `(config)` (see `configure`): it is
        // not an abbreviation of an attribute it begins (`mlag-channel-group`). An exact
        // keyword winning over a longer one is the IOS-like CLIs' rule; UNCONFIRMED on
        // Onyx, like the fall-through.
        let whole = i == 0 && in_interface && command::TOP_LEVEL.contains(&word);
        let word = if candidates.contains(&word)
            || whole
            || word.starts_with(|c: char| c.is_ascii_digit())
        {
            word.to_string()
        } else {
            let mut matching: Vec<&&str> =
                candidates.iter().filter(|c| c.starts_with(word)).collect();
            // `conf t`: of `configure` and `configuration`, only one takes a word like `t`.
            if matching.len() > 1
                && let Some(next) = words.get(i + 1)
            {
                matching.retain(|c| {
                    let mut then = path.clone();
                    then.push(c);
                    follows(&then).iter().any(|f| f.starts_with(next))
                });
            }
            match matching[..] {
                [one] => one.to_string(),
                [] => word.to_string(),
                // Not observed on a switch; the form of Onyx's other errors.
                _ if i == 0 && in_interface && KEYWORDS[0].1.contains(&word) => word.to_string(),
                _ => return Err(Reply::error(format!("Ambiguous command \"{word}\"."))),
            }
        };
        out.push(word);
    }
    // Inside an interface sub-mode a line may also leave it for another object.
    let typed: Vec<&str> = out.iter().map(String::as_str).collect();
    let leaving = match mode {
        Mode::Interface(_) => leaves_interface(&typed),
        _ => sub_attributes(mode).is_some_and(|a| leaves(&typed, a)),
    };
    if leaving {
        return expand(&Mode::Config, line);
    }
    Ok(out)
}
