//! What joins switches into one network, checked and derived once for every OS, after every
//! port is resolved: [`resolve`] runs the passes in order (MLAG pairs, link roles, host
//! ports, routed ports, the routed underlay, the host-port default, bundles, the L2
//! topology), each in its own file beside this one; and the readers of written addresses and
//! pools they share.
//!
//! Diagnostic codes E110-E126 and W008, each at the places involved (both ends of a link);
//! failure detection (BFD, BGP timers) in `detection`.

use std::collections::BTreeMap;

use super::super::Role;
use super::super::raw::{RawFabric, Sp};
use super::bundles::bundles;
use super::hosts::host_ports;
use super::l2::l2_topology;
use super::links::{link_roles, routed_ports};
use super::mlag::mlag_pairs;
use super::underlay::underlay;
use super::{Cx, LinkPair, Pending};
use crate::diag::{Diagnostic, Span};
use crate::types::{Hostname, Ipv4Net, choose};

/// An address with its prefix length that names a host of its subnet.
pub(crate) fn host_address(cx: &mut Cx, v: &Sp<String>, what: &str) -> Option<Ipv4Net> {
    let at = cx.span(v);
    let net = match v.get().parse::<Ipv4Net>() {
        Ok(n) => n,
        Err(e) => {
            cx.error("E110", format!("{what}: {e}"), at, "not an address");
            return None;
        }
    };
    // /31 and /32 have no network or broadcast address to avoid (RFC 3021).
    let n = u32::from(net.addr) & !u32::from(net.dotted_mask());
    let last = (net.size() - 1) as u32;
    if net.len <= 30 && (n == 0 || n == last) {
        cx.push(
            Diagnostic::error(
                "E110",
                format!("{what} `{net}` is the subnet's network or broadcast address"),
            )
            .at(at, "not a host address")
            .help(format!(
                "give a host of {}, e.g. `{}/{}`",
                net.network(),
                net.network().nth(1).unwrap_or(net.addr),
                net.len
            )),
        );
        return None;
    }
    Some(net)
}

/// A pool of addresses: a network, written as one.
pub(crate) fn pool(cx: &mut Cx, v: &Sp<String>, what: &str) -> Option<Ipv4Net> {
    let at = cx.span(v);
    match v.get().parse::<Ipv4Net>() {
        Ok(n) if n.is_network() => Some(n),
        Ok(n) => {
            cx.push(
                Diagnostic::error("E110", format!("{what} `{n}` is not a network"))
                    .at(at, "host bits set")
                    .help(format!("write the network, `{}`", n.network())),
            );
            None
        }
        Err(e) => {
            cx.error("E110", format!("{what}: {e}"), at, "not a network");
            None
        }
    }
}

/// Everything that joins switches: called once every port is resolved.
pub(crate) fn resolve(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    links: &[LinkPair],
    names: &BTreeMap<String, (Hostname, Span)>,
) {
    let fabric_stp = raw.stp.as_ref().and_then(|v| stp(cx, v));
    for p in pending.values_mut() {
        let rs = &raw.switches.0[p.index].1;
        p.switch.stp = rs.stp.as_ref().and_then(|v| stp(cx, v)).or(fabric_stp);
        p.switch.role = rs.role.as_ref().and_then(|v| {
            cx.word(v, |s| {
                choose(s, &[("leaf", Role::Leaf), ("spine", Role::Spine)], "role")
            })
        });
    }
    for v in raw.vlans.iter().flatten() {
        if let Some(a) = &v.address {
            cx.push(
                Diagnostic::error(
                    "E124",
                    "a gateway address belongs to one switch, not to the fabric's VLAN",
                )
                .at(cx.span(a), "fabric-wide")
                .help("write it under the switch: `vlans: [{ id: N, address: A/N }]`"),
            );
        }
    }

    let mut pairs = mlag_pairs(cx, raw, pending, names);
    let (routed, broken) = link_roles(cx, raw, pending, links, &mut pairs);
    host_ports(cx, pending);
    for pair in &pairs {
        if pair.declared && !pair.linked {
            cx.push(
                Diagnostic::error(
                    "E121",
                    format!(
                        "MLAG pair `{}` and `{}` has no peer link",
                        pair.switches[0], pair.switches[1]
                    ),
                )
                .at(pair.at, "this pair")
                .help(format!(
                    "declare the cables between them under `links` with `role: ipl`, e.g. `{{ a: {}:1/31-1/32, b: {}:1/31-1/32, role: ipl }}`",
                    pair.switches[0], pair.switches[1]
                )),
            );
        }
    }
    routed_ports(cx, pending, &routed);
    underlay(cx, raw, pending, &routed);
    super::policies::host_ports(pending);
    bundles(cx, pending, &pairs);
    l2_topology(cx, pending, links, &broken, &pairs);
}

fn stp(cx: &mut Cx, v: &Sp<String>) -> Option<bool> {
    cx.word(v, |s| {
        choose(s, &[("on", true), ("off", false)], "spanning-tree setting")
    })
}
