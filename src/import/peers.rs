//! Port descriptions read as the hosts they reach: `gpu007:ens1f0` on one port is a peer,
//! consecutive ports counting hosts up one numbered pattern (`gpu{001..004}`); any other
//! description stays one. The members of one bundle whose descriptions name different hosts
//! stay descriptions ([`apart`]).

use std::collections::{BTreeMap, BTreeSet};

use super::doc::{PeerDoc, Settings};
use crate::types::Port;

/// One switch's ports its descriptions give a peer or a description, as ranges with those
/// settings ([`peers`]), and the `host_ports` it writes.
pub(super) type Described = (Vec<(Port, Port, Settings)>, Option<&'static str>);

/// A description read as a host: prefix, number, digits of the number, NIC.
type Host = (String, u64, usize, Option<String>);

/// `gpu007:ens1f0` → (`gpu`, 7, 3, `ens1f0`), when printing it back gives the same text.
fn host(d: &str) -> Option<Host> {
    let (name, nic) = match d.split_once(':') {
        Some((h, n)) => (h, Some(n.to_string())),
        None => (d, None),
    };
    let word = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    };
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || !word(name) || !nic.as_deref().is_none_or(word) {
        return None;
    }
    let prefix = &name[..name.len() - digits];
    let n: u64 = name[prefix.len()..].parse().ok()?;
    (format!("{prefix}{n:0digits$}") == name).then(|| (prefix.to_string(), n, digits, nic))
}

/// A bundle member whose description may read as its peer: its switch, the bundle's switches
/// (its own, or its MLAG pair's name for an MLAG port-channel) and number.
pub(super) struct Member<'a, 'g> {
    pub(super) switch: &'a str,
    pub(super) group: &'g str,
    pub(super) bundle: (bool, u16),
    pub(super) port: Port,
    pub(super) description: &'a str,
}

/// The bundle members whose descriptions stay descriptions though they read as hosts: the
/// members of one bundle (a port-channel on its switch, an MLAG port-channel on both switches
/// of its pair) whose descriptions name different hosts, as an IPL's members described by
/// the far ports (`sw-spine02-1/10`, `sw-spine02-1/12`, Cray CSM). As peers they would say
/// the bundle reaches several devices, which a fabric refuses (E125); as descriptions they
/// print back as the switch has them.
pub(super) fn apart<'a, 'g>(
    members: impl IntoIterator<Item = Member<'a, 'g>>,
) -> BTreeSet<(&'a str, Port)> {
    /// A bundle's hosts, as named, and its members.
    type Seen<'a> = (BTreeSet<String>, Vec<(&'a str, Port)>);
    let mut bundles: BTreeMap<(&str, (bool, u16)), Seen> = BTreeMap::new();
    for m in members {
        let Some((prefix, n, digits, _)) = host(m.description) else {
            continue;
        };
        let seen = bundles.entry((m.group, m.bundle)).or_default();
        seen.0
            .insert(format!("{prefix}{n:0digits$}").to_lowercase());
        seen.1.push((m.switch, m.port));
    }
    bundles
        .into_values()
        .filter(|(hosts, _)| hosts.len() > 1)
        .flat_map(|(_, ports)| ports)
        .collect()
}

/// Descriptions as peers: `host:nic` on one port is a peer; consecutive ports whose hosts
/// count up by one with the same prefix, digits and NIC are one range with a numbered
/// pattern (`gpu{001..004}`); any other description stays a description, as do those of the
/// ports `apart` names ([`apart`]).
pub(super) fn peers(
    described: &[(Port, &str)],
    apart: &BTreeSet<Port>,
) -> Vec<(Port, Port, Settings)> {
    struct Open {
        first: Port,
        last: Port,
        host: Host,
        end: u64,
    }
    fn close(run: Option<Open>, out: &mut Vec<(Port, Port, Settings)>) {
        let Some(Open {
            first,
            last,
            host: (prefix, start, digits, nic),
            end,
        }) = run
        else {
            return;
        };
        let host = if start == end {
            format!("{prefix}{start:0digits$}")
        } else {
            format!("{prefix}{{{start:0digits$}..{end:0digits$}}}")
        };
        out.push((
            first,
            last,
            Settings {
                peer: Some(PeerDoc { host, port: nic }),
                ..Settings::default()
            },
        ));
    }
    let mut out = Vec::new();
    let mut run: Option<Open> = None;
    for (port, d) in described {
        let parsed = host(d).filter(|_| !apart.contains(port));
        if let (Some(open), Some(h)) = (&mut run, &parsed)
            && open.last.precedes(*port)
            && open.host.0 == h.0
            && open.host.2 == h.2
            && open.host.3 == h.3
            && h.1 == open.end + 1
        {
            open.last = *port;
            open.end = h.1;
            continue;
        }
        close(run.take(), &mut out);
        match parsed {
            Some(h) => {
                run = Some(Open {
                    first: *port,
                    last: *port,
                    end: h.1,
                    host: h,
                })
            }
            None => out.push((
                *port,
                *port,
                Settings {
                    description: Some(d.to_string()),
                    ..Settings::default()
                },
            )),
        }
    }
    close(run, &mut out);
    out
}
