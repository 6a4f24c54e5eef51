//! Plans between two NVUE trees: the target (the intent where the fabric manages, the running
//! configuration elsewhere), the `nv set` / `nv unset` commands between, each with its impact.
//!
//! What the fabric manages on a Cumulus switch ([`MANAGED`]): every interface but the
//! management port `eth0`, the bridge, MLAG, BGP (the global `router bgp` and the default
//! VRF's), QoS and the hostname. Everything else (users, services, the management VRF, NTP,
//! SNMP, the API) is the switch's and carried as it is.

use super::tree::{self, Command, Node, Tree};
use crate::diff::Impact;

/// The objects the fabric declares: under each path, the named children (every child where
/// none is named), each replaced whole by the intent's where the intent has it, and (with
/// `--prune`) removed where it has not. A child that is a path of its own here is left to
/// that row.
pub const MANAGED: &[(&[&str], &[&str])] = &[
    (&["system"], &["hostname"]),
    (&["interface"], &[]),
    (&["bridge", "domain", "br_default", "vlan"], &[]),
    (&[], &["mlag"]),
    (&["router"], &["bgp"]),
    (&["vrf", "default", "router"], &["bgp"]),
    (&["qos"], &[]),
    (&["qos", "traffic-pool"], &[]),
];

/// Interfaces the fabric never manages: the management port.
pub const UNMANAGED_INTERFACES: &[&str] = &["eth0"];

/// The children of `path` that row manages in `t`.
fn objects<'t>(t: &'t Tree, path: &[&str], only: &[&str]) -> Vec<&'t str> {
    let kids = match path.is_empty() {
        true => t.keys().map(|k| &**k).collect(),
        false => tree::names(t, path),
    };
    kids.into_iter()
        .filter(|k| only.is_empty() || only.contains(k))
        .filter(|k| !(path == ["interface"] && UNMANAGED_INTERFACES.contains(k)))
        .filter(|k| {
            let mut sub = path.to_vec();
            sub.push(k);
            !MANAGED.iter().any(|(p, _)| *p == sub.as_slice())
        })
        .collect()
}

/// The running tree with each managed object the intent has replaced by the intent's, and
/// (with `prune`) each the intent has not removed; everything else as it runs.
pub fn target(running: &Tree, intended: &Tree, prune: bool) -> Tree {
    let mut out = running.clone();
    for (path, only) in MANAGED {
        let wanted = objects(intended, path, only);
        if prune {
            for gone in objects(running, path, only) {
                if !wanted.contains(&gone) {
                    tree::unset(&mut out, &[*path, &[gone]].concat());
                }
            }
        }
        for name in wanted {
            let at = [*path, &[name]].concat();
            let Some(node) = tree::get(intended, &at) else {
                continue;
            };
            if let Node::Map(_) = node {
                // Replaced whole: the rows below it put theirs back.
                let keep: Vec<(String, Node)> = MANAGED
                    .iter()
                    .filter(|(p, _)| p.len() == at.len() + 1 && p.starts_with(&at))
                    .filter_map(|(p, _)| {
                        Some((p[at.len()].to_string(), tree::get(&out, p)?.clone()))
                    })
                    .collect();
                tree::unset(&mut out, &at);
                for (k, v) in keep {
                    tree::set(&mut out, &[&at[..], &[k.as_str()]].concat(), v);
                }
            }
            tree::set(&mut out, &at, node.clone());
        }
    }
    out
}

/// What a command does to traffic, by the object it changes: the first row whose path is a
/// prefix of the command's (a `*` matches any one name). Sources: DOC-CLI and DOC-REF
/// (breakout and MTU changes reload `switchd` and reset ports; a QoS buffer change asks for a
/// `switchd` reload, the NetApp apply-prompt capture); the rest by what the object is, as
/// Onyx's plan rules class it (UNCONFIRMED for NVUE).
pub const IMPACTS: &[(&[&str], Impact)] = &[
    (&["interface", "*", "link", "breakout"], Impact::Disruptive),
    (&["interface", "*", "link"], Impact::PortFlap),
    (&["interface", "*", "bond", "member"], Impact::PortFlap),
    (&["interface", "*", "bond", "mlag"], Impact::PortFlap),
    (&["interface", "*", "ip", "address"], Impact::SessionReset),
    (&["interface", "*", "type"], Impact::PortFlap),
    (&["qos", "roce"], Impact::Disruptive),
    (&["qos", "traffic-pool"], Impact::Disruptive),
    (&["mlag"], Impact::Disruptive),
    (&["router", "bgp", "autonomous-system"], Impact::Disruptive),
    (&["router", "bgp", "router-id"], Impact::SessionReset),
    (
        &["vrf", "default", "router", "bgp", "neighbor"],
        Impact::SessionReset,
    ),
    (
        &[
            "vrf",
            "default",
            "router",
            "bgp",
            "address-family",
            "ipv4-unicast",
            "network",
        ],
        Impact::SessionReset,
    ),
];

/// A command's impact: [`IMPACTS`]' first row that covers it, else hitless. Setting a new
/// neighbor or address is hitless; changing or removing one resets its session.
pub fn impact(c: &Command, running: &Tree) -> Impact {
    for (prefix, impact) in IMPACTS {
        let covers = prefix.len() <= c.path.len()
            && prefix.iter().zip(&c.path).all(|(p, w)| *p == "*" || p == w);
        if !covers {
            continue;
        }
        let path: Vec<&str> = c.path.iter().map(String::as_str).collect();
        let new = !c.unset && tree::get(running, &path[..prefix.len()]).is_none();
        return match (*impact, new) {
            (Impact::SessionReset | Impact::PortFlap, true)
                if !matches!(prefix.last(), Some(&"link") | Some(&"breakout")) =>
            {
                Impact::Hitless
            }
            (i, _) => i,
        };
    }
    Impact::Hitless
}

/// The commands from `running` to `target`, each with its impact.
pub fn plan(running: &Tree, target: &Tree) -> Vec<(Command, Impact)> {
    tree::diff(running, target)
        .into_iter()
        .map(|c| {
            let i = impact(&c, running);
            (c, i)
        })
        .collect()
}
