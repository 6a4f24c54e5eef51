//! The fabric-wide RoCE checks (R028-R035; their docs are in `rules`): both ends of each
//! cable between audited switches (MTU, PFC mode, trust, speed, ECN), and the settings every
//! switch carrying RoCE should share (pools, lossless priorities, ECN). Input: the [`Fleet`];
//! output: hits, by switch. Each end of a cable is named as its own OS names it.

use std::collections::{BTreeMap, BTreeSet};

use super::view::PortView;
use super::{Facts, Fleet, Hit, Part, hit, port_note};
use crate::targets::SwitchOs;
use crate::types::{Iface, IfaceRange};
use crate::types::{Port, Trust};

/// Where the two ends of each link differ in one setting: a hit on each end.
pub(super) fn link_rule<T: PartialEq + std::fmt::Display>(
    f: &Fleet,
    what: &str,
    value: impl Fn(&Facts, Port) -> Option<T>,
) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    for [a, b] in f.cables() {
        let (Some(va), Some(vb)) = (value(a.2, a.1), value(b.2, b.1)) else {
            continue;
        };
        if va != vb {
            for ((name, port, _), (peer, peer_port, far), mine, theirs) in
                [(a, b, &va, &vb), (b, a, &vb, &va)]
            {
                let far_port = far
                    .target
                    .iface_range(IfaceRange::one(Iface::Ethernet(peer_port)));
                out.push((
                    name.to_string(),
                    port_note(
                        Iface::Ethernet(port),
                        format!(
                            "{what} {mine}, but the other end ({peer} {far_port}) has {theirs}"
                        ),
                    ),
                ));
            }
        }
    }
    out
}

fn iface_of<'a>(f: &'a Facts, port: Port) -> &'a PortView {
    f.view.port(Iface::Ethernet(port))
}

/// Switches whose value differs from the most common one among the switches that carry
/// RoCE (of the OSes with `part` only, for what only they have; ties go to the value that
/// sorts first); nothing when fewer than two switches do.
fn odd_ones_out<K: Ord + Clone>(
    f: &Fleet,
    part: Option<Part>,
    key: impl Fn(&Facts) -> K,
) -> Vec<(String, K, K, usize, usize)> {
    let keyed: Vec<(&str, K)> = f
        .facts
        .iter()
        .filter(|(_, x)| x.has_roce() && part.is_none_or(|p| x.has(p)))
        .map(|(n, x)| (*n, key(x)))
        .collect();
    if keyed.len() < 2 {
        return Vec::new();
    }
    let mut counts: BTreeMap<&K, usize> = BTreeMap::new();
    for (_, k) in &keyed {
        *counts.entry(k).or_default() += 1;
    }
    let (common, n) = counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(k, n)| ((*k).clone(), *n))
        .expect("two switches at least");
    keyed
        .iter()
        .filter(|(_, k)| *k != common)
        .map(|(name, k)| (name.to_string(), k.clone(), common.clone(), n, keyed.len()))
        .collect()
}

fn list(set: &BTreeSet<u8>) -> String {
    if set.is_empty() {
        return "none".into();
    }
    set.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// A trust as a finding names it: `none` for a port that classifies by nothing.
fn trust_name(t: Option<Trust>) -> String {
    t.map_or("none".to_string(), |t| t.to_string())
}

/// R028.
pub(super) fn link_mtu(f: &Fleet) -> Vec<(String, Hit)> {
    link_rule(f, "MTU", |x, p| Some(x.view.mtu(iface_of(x, p))))
}

/// R029.
pub(super) fn link_pfc(f: &Fleet) -> Vec<(String, Hit)> {
    link_rule(f, "PFC mode", |x, p| {
        Some(if iface_of(x, p).pfc { "on" } else { "off" })
    })
}

/// R030.
pub(super) fn link_trust(f: &Fleet) -> Vec<(String, Hit)> {
    link_rule(f, "trust", |x, p| {
        Some(trust_name(x.view.trust(iface_of(x, p))))
    })
}

/// R031.
pub(super) fn link_speed(f: &Fleet) -> Vec<(String, Hit)> {
    link_rule(f, "speed", |x, p| x.speed(p))
}

/// R032.
pub(super) fn link_ecn(f: &Fleet) -> Vec<(String, Hit)> {
    link_rule(f, "ECN", |x, p| {
        let ecn: Vec<String> = iface_of(x, p)
            .ecn
            .iter()
            .map(|(tc, e)| format!("tc {tc} {e}"))
            .collect();
        Some(if ecn.is_empty() {
            "none".to_string()
        } else {
            ecn.join("; ")
        })
    })
}

/// R033.
pub(super) fn pools_differ(f: &Fleet) -> Vec<(String, Hit)> {
    let show = |x: &Facts| -> String {
        let pools: Vec<String> = x
            .config
            .pools
            .iter()
            .map(|(n, p)| {
                let kind = p.kind.map_or("lossy".to_string(), |k| k.to_string());
                let memory = p.memory.map_or(String::new(), |m| format!(" {m} %"));
                let prios: Vec<String> = p.priorities.iter().map(|p| p.to_string()).collect();
                format!("{n} {kind}{memory} [{}]", prios.join(" "))
            })
            .collect();
        if pools.is_empty() {
            "none".into()
        } else {
            pools.join(", ")
        }
    };
    odd_ones_out(f, Some(Part::Pools), show)
        .into_iter()
        .map(|(name, mine, common, n, of)| {
            (
                name,
                hit(
                    format!("traffic pools are {mine}; {n} of {of} RoCE switches have {common}"),
                    None,
                ),
            )
        })
        .collect()
}

/// R034.
pub(super) fn lossless_differ(f: &Fleet) -> Vec<(String, Hit)> {
    odd_ones_out(f, None, |x| (x.lossless.clone(), x.pfc_on.clone()))
        .into_iter()
        .map(|(name, (l, p), (cl, cp), n, of)| {
            (
                name,
                hit(
                    format!(
                        "lossless priorities {}, PFC priorities {}; {n} of {of} RoCE switches have lossless {}, PFC {}",
                        list(&l),
                        list(&p),
                        list(&cl),
                        list(&cp)
                    ),
                    None,
                ),
            )
        })
        .collect()
}

/// R035.
pub(super) fn ecn_differ(f: &Fleet) -> Vec<(String, Hit)> {
    let show = |x: &Facts| -> String {
        // The distinct settings first, then their text: ports share a few.
        let distinct: BTreeSet<_> = x
            .roce_ports
            .iter()
            .flat_map(|(_, i)| i.ecn.iter())
            .collect();
        let set: BTreeSet<String> = distinct
            .into_iter()
            .map(|(tc, e)| format!("traffic class {tc} {e}"))
            .collect();
        if set.is_empty() {
            "none".into()
        } else {
            set.into_iter().collect::<Vec<_>>().join("; ")
        }
    };
    odd_ones_out(f, None, show)
        .into_iter()
        .map(|(name, mine, common, n, of)| {
            (
                name,
                hit(
                    format!("ECN is {mine}; {n} of {of} RoCE switches have {common}"),
                    None,
                ),
            )
        })
        .collect()
}

/// Interfaces as their OS names them, consecutive Ethernet ports as one range.
fn names(os: &dyn SwitchOs, ifaces: impl Iterator<Item = Iface>) -> String {
    let unit = ();
    let (mut ports, mut others) = (Vec::new(), Vec::new());
    for i in ifaces {
        match i {
            Iface::Ethernet(p) => ports.push(p),
            other => others.push(os.iface_range(IfaceRange::one(other))),
        }
    }
    let runs = crate::types::compress(ports.iter().map(|p| (*p, &unit)));
    let mut out: Vec<String> = runs
        .into_iter()
        .map(|(a, b, _)| {
            let r = IfaceRange {
                first: Iface::Ethernet(a),
                last: Iface::Ethernet(b),
            };
            os.iface_range(r)
        })
        .collect();
    out.extend(others);
    out.join(", ")
}

/// The RoCE ports and bundles of a switch that carry VLAN `v`, with their MTUs.
fn roce_carriers(x: &Facts, v: u16) -> Vec<(Iface, u16)> {
    let bundles: BTreeSet<Iface> = x.roce_ports.iter().filter_map(|(_, i)| i.lag).collect();
    let mut out: Vec<(Iface, u16)> = x
        .roce_ports
        .iter()
        .filter(|(_, i)| i.lag.is_none() && i.carries(v))
        .map(|(k, i)| (*k, x.view.mtu(i)))
        .collect();
    for b in bundles {
        let i = x.view.port(b);
        if i.carries(v) {
            out.push((b, x.view.mtu(i)));
        }
    }
    out
}

/// R049: a VLAN interface that routes RoCE with an MTU below the RoCE ports that carry its
/// VLAN; and a routed RoCE port whose MTU is below the largest frame a VLAN interface of an
/// audited switch routes onto the routed network. The largest routed frame of a VLAN
/// interface is its MTU or its ports', the smaller.
pub(super) fn routed_mtu(f: &Fleet) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    // The largest routed RoCE frame in the fleet, and where it is routed.
    let mut largest: Option<(u16, String, crate::types::Vlan)> = None;
    for (name, x) in &f.facts {
        for (v, vi) in &x.view.vlan_ifaces {
            let carriers = roce_carriers(x, v.get());
            let Some(most) = carriers.iter().map(|(_, m)| *m).max() else {
                continue;
            };
            let mtu = vi.mtu.unwrap_or(x.view.default_mtu);
            let routed = mtu.min(most);
            if largest.as_ref().is_none_or(|(m, _, _)| routed > *m) {
                largest = Some((routed, name.to_string(), *v));
            }
            if mtu < most {
                let ports = names(
                    x.target,
                    carriers.iter().filter(|(_, m)| *m == most).map(|c| c.0),
                );
                out.push((
                    name.to_string(),
                    super::port_hit_or_note(
                        Iface::Vlan(*v),
                        format!(
                            "routes RoCE with MTU {mtu}, below the {most} of the ports that carry VLAN {v} ({ports}): routed frames above {mtu} bytes are dropped"
                        ),
                        Some(format!("mtu {most}")),
                    ),
                ));
            }
        }
    }
    let Some((largest, from, vlan)) = largest else {
        return out;
    };
    for (name, x) in &f.facts {
        for (k, i) in &x.roce_ports {
            let mtu = x.view.mtu(i);
            if i.routed && mtu < largest {
                let line = (x.fixes.mtu)(largest);
                out.push((
                    name.to_string(),
                    super::port_hit_or_note(
                        *k,
                        format!(
                            "a routed RoCE hop with MTU {mtu}, below the {largest}-byte frames `{from}` VLAN {vlan}'s interface routes"
                        ),
                        Some(line),
                    ),
                ));
            }
        }
    }
    out
}
