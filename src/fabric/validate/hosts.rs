//! Host-facing settings of one switch: its VLANs with their gateway addresses, and what a
//! port-map entry adds to its ports (a routed address, a `lag` or `mlag` bundle), put onto
//! the resolved ports once links are known.

use std::collections::BTreeMap;

use super::super::raw::{RawPort, RawSwitch, Sp};
use super::super::{Bundle, Gateway, Lacp};
use super::bundles::{channel_id, lacp_mode};
use super::network::host_address;
use super::{At, Cx, Field, Pending};
use crate::diag::{Diagnostic, Span};
use crate::types::{Port, Vlan};

/// A switch's VLANs: the fabric's, and its own with their gateway addresses.
pub(crate) fn switch_vlans(
    cx: &mut Cx,
    raw: &RawSwitch,
    fabric: &BTreeMap<Vlan, (Option<String>, Span)>,
    fabric_mtu: &BTreeMap<Vlan, At<u16>>,
    p: &mut Pending,
) {
    let mut seen: BTreeMap<Vlan, Span> = BTreeMap::new();
    for v in raw.vlans.iter().flatten() {
        let Some(id) = cx.int(&v.id, Vlan::new) else {
            continue;
        };
        let at = cx.span(&v.id);
        p.vlan_at.entry(id).or_insert(at);
        if let Some(first) = seen.insert(id, at) {
            cx.push(
                Diagnostic::error(
                    "E060",
                    format!("VLAN {id} is declared twice on `{}`", p.switch.hostname),
                )
                .at(at, "declared again here")
                .also(first, "first declared here"),
            );
            continue;
        }
        let os = [p.switch.os()];
        let name = v
            .name
            .as_ref()
            .and_then(|n| cx.text(n, "VLAN name", Field::VlanName, &os));
        if let (Some(n), Some((Some(fname), fat))) = (&name, fabric.get(&id))
            && n != fname
        {
            cx.push(
                Diagnostic::error(
                    "E061",
                    format!("VLAN {id} is named `{fname}` in the fabric and `{n}` here"),
                )
                .at(cx.span(v.name.as_ref().expect("named")), "named here")
                .also(*fat, "fabric's VLAN"),
            );
        }
        let kept = name.or_else(|| fabric.get(&id).and_then(|(n, _)| n.clone()));
        // VLAN 1 is always there and never printed, unless named.
        if id.get() != 1 || kept.is_some() {
            p.switch.vlans.insert(id, kept);
        }
        let mtu = match &v.mtu {
            Some(m) => cx.mtu(m).map(|x| (x, cx.span(m))),
            None => fabric_mtu.get(&id).copied(),
        };
        match (&v.address, &v.mtu) {
            (Some(a), _) => {
                if let Some(address) = host_address(cx, a, "gateway address") {
                    let mtu = mtu.map(|(m, at)| {
                        p.l3_mtu.insert(id, at);
                        m
                    });
                    p.switch.gateways.insert(id, Gateway { address, mtu });
                }
            }
            (None, Some(m)) => cx.push(
                Diagnostic::warning(
                    "W007",
                    format!(
                        "VLAN {id} of `{}` has an `mtu` but no VLAN interface to apply it to",
                        p.switch.hostname
                    ),
                )
                .at(cx.span(m), "no effect")
                .help("only a VLAN interface that routes (`address`) has an MTU; a port's MTU is the port's `mtu`"),
            ),
            (None, None) => {}
        }
    }
}

/// A port-map entry's routed address and bundle.
pub(crate) fn port_entry(
    cx: &mut Cx,
    key: &Sp<String>,
    entry: &RawPort,
    ports: &[Port],
    p: &mut Pending,
) {
    entry_address(cx, key, entry, ports, p);
    entry_bundle(cx, entry, ports, p);
}

/// A port-map entry's routed address (one port an address, E116) and whether the switch
/// advertises its subnet (`advertise` without `address` is E116).
fn entry_address(cx: &mut Cx, key: &Sp<String>, entry: &RawPort, ports: &[Port], p: &mut Pending) {
    let at = cx.span(key);
    if let Some(a) = &entry.address {
        if ports.len() > 1 {
            cx.push(
                Diagnostic::error(
                    "E116",
                    format!("`{}` is {} ports but one address", key.get(), ports.len()),
                )
                .at(cx.span(a), "one address")
                .also(at, "several ports")
                .help("give each routed port its own entry and address"),
            );
        } else if let Some(net) = host_address(cx, a, "port address") {
            p.addresses.insert(ports[0], (net, cx.span(a)));
        }
    }
    match (&entry.advertise, &entry.address) {
        (Some(v), Some(_)) if !*v.get() => {
            p.unadvertised.extend(ports);
        }
        (Some(v), None) => cx.push(
            Diagnostic::error(
                "E116",
                format!("`advertise` on `{}`, which has no `address`", key.get()),
            )
            .at(cx.span(v), "advertises a routed port's subnet")
            .also(at, "not a routed host port")
            .help("give the port its `address`, or remove `advertise`"),
        ),
        _ => {}
    }
}

/// The bundle a port-map entry's ports join (`mlag` or `lag`, not both: E118; with its LACP
/// mode), and what the entry says of it (`lacp_individual`, `bundle_description`).
fn entry_bundle(cx: &mut Cx, entry: &RawPort, ports: &[Port], p: &mut Pending) {
    let os = [p.switch.os()];
    let keys = super::bundles::BundleKeys {
        individual: entry
            .lacp_individual
            .as_ref()
            .map(|v| (*v.get(), cx.span(v))),
        description: entry.bundle_description.as_ref().and_then(|d| {
            let text = cx.text(d, "bundle description", Field::Description, &os)?;
            Some((text, cx.span(d)))
        }),
    };
    if keys.individual.is_some() || keys.description.is_some() {
        for port in ports {
            p.bundle_keys.insert(*port, keys.clone());
        }
    }
    if let (Some(m), Some(l)) = (&entry.mlag, &entry.lag) {
        cx.push(
            Diagnostic::error("E118", "a port joins one bundle: `mlag` or `lag`, not both")
                .at(cx.span(m), "MLAG port-channel")
                .also(cx.span(l), "port-channel"),
        );
        return;
    }
    let lacp = entry.lacp.as_ref().and_then(|v| cx.word(v, lacp_mode));
    if entry.lacp.is_some() && lacp.is_none() {
        return;
    }
    for (v, mlag) in [(&entry.mlag, true), (&entry.lag, false)] {
        let Some(v) = v else { continue };
        let Some(id) = cx.int(v, channel_id) else {
            continue;
        };
        let b = Bundle {
            mlag,
            id,
            lacp: lacp.unwrap_or(Lacp::Active),
        };
        for port in ports {
            p.bundles.insert(*port, (b, cx.span(v)));
        }
    }
}

/// Routed host ports and host bundles from the port map, onto the resolved ports.
pub(crate) fn host_ports(cx: &mut Cx, pending: &mut BTreeMap<String, Pending>) {
    for (name, p) in pending.iter_mut() {
        for (port, (net, at)) in &p.addresses {
            if let Some(s) = p.switch.ports.get_mut(port) {
                s.address = Some(*net);
            } else {
                cx.error(
                    "E116",
                    format!("{name}:{port} is not a usable port"),
                    *at,
                    "address here",
                );
            }
        }
        for (port, (b, at)) in &p.bundles {
            let Some(s) = p.switch.ports.get_mut(port) else {
                continue;
            };
            if let Some(other) = s.bundle
                && other != *b
            {
                cx.push(
                    Diagnostic::error(
                        "E118",
                        format!(
                            "{name}:{port} joins a port-channel of a link and one of the port map"
                        ),
                    )
                    .at(*at, "port map"),
                );
                continue;
            }
            s.bundle = Some(*b);
        }
    }
}
