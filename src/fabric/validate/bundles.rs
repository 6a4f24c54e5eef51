//! Port-channels and MLAG port-channels: their numbers and LACP modes as written, members
//! that agree, the bundle taking its members' L2 and QoS settings, and an MLAG port-channel
//! equal on both switches of its pair.

use std::collections::{BTreeMap, BTreeSet};

use super::super::{Lacp, PortSettings};
use super::mlag::Pair;
use super::{At, Cx, Pending, describe_ports};
use crate::diag::{Diagnostic, Span};
use crate::types::{Port, choose};

/// Port-channel and MLAG port-channel numbers Onyx takes (Interface Commands: `interface
/// port-channel 1-4096`; a switch has far fewer). UNCONFIRMED upper bound.
const MAX_CHANNEL: i64 = 4096;

pub(super) fn channel_id(v: i64) -> Result<u16, String> {
    if (1..=MAX_CHANNEL).contains(&v) {
        Ok(v as u16)
    } else {
        Err(format!("port-channel {v} is out of range 1-{MAX_CHANNEL}"))
    }
}

pub(super) fn lacp_mode(s: &str) -> Result<Lacp, crate::types::Invalid> {
    choose(
        s,
        &[
            ("active", Lacp::Active),
            ("passive", Lacp::Passive),
            ("on", Lacp::On),
        ],
        "LACP mode",
    )
}

/// What a port-map entry says of the bundle its ports join, each where it is written.
#[derive(Clone, Debug, Default)]
pub(super) struct BundleKeys {
    /// `lacp_individual`.
    pub(super) individual: Option<At<bool>>,
    /// `bundle_description`.
    pub(super) description: Option<At<String>>,
}

impl BundleKeys {
    fn individual(k: Option<&BundleKeys>) -> bool {
        k.and_then(|k| k.individual.as_ref()).is_some_and(|x| x.0)
    }

    fn description(k: Option<&BundleKeys>) -> Option<&String> {
        k.and_then(|k| k.description.as_ref()).map(|x| &x.0)
    }
}

/// `lacp_individual` and `bundle_description` on ports that join no bundle (E118), one
/// diagnostic per key written, listing its ports.
fn stray_keys(cx: &mut Cx, name: &str, p: &Pending) {
    let mut stray: BTreeMap<(Span, &str), Vec<Port>> = BTreeMap::new();
    for (port, k) in &p.bundle_keys {
        if p.switch.ports.get(port).is_some_and(|s| s.bundle.is_some()) {
            continue;
        }
        let written = [
            ("lacp_individual", k.individual.as_ref().map(|x| x.1)),
            ("bundle_description", k.description.as_ref().map(|x| x.1)),
        ];
        for (key, at) in written {
            if let Some(at) = at {
                stray.entry((at, key)).or_default().push(*port);
            }
        }
    }
    for ((at, key), ports) in stray {
        cx.push(
            Diagnostic::error(
                "E118",
                format!(
                    "`{key}` on {} of `{name}`, which join no bundle",
                    describe_ports(&ports)
                ),
            )
            .at(at, "a bundle's key")
            .help(
                "give the ports `mlag: N` or `lag: N` (or a `role: lag` link), or remove the key",
            ),
        );
    }
}

/// Port-channels and MLAG port-channels: members agree, the bundle takes their L2, QoS and
/// spanning-tree settings and what their entries say of it (`lacp_individual`,
/// `bundle_description`); an MLAG port-channel is on a pair's switch, and both switches
/// agree on it.
pub(super) fn bundles(cx: &mut Cx, pending: &mut BTreeMap<String, Pending>, pairs: &[Pair]) {
    let empty_at = |cx: &Cx| Span {
        file: cx.file,
        start: 0,
        end: 0,
    };
    for (name, p) in pending.iter_mut() {
        stray_keys(cx, name, p);
        let mut groups: BTreeMap<(bool, u16), Vec<(Port, PortSettings)>> = BTreeMap::new();
        for (port, s) in &p.switch.ports {
            if let Some(b) = s.bundle {
                groups
                    .entry((b.mlag, b.id))
                    .or_default()
                    .push((*port, s.clone()));
            }
        }
        for ((mlag, id), members) in groups {
            let at = p
                .bundles
                .get(&members[0].0)
                .map_or_else(|| empty_at(cx), |(_, at)| *at);
            if mlag && p.switch.mlag.is_none() {
                cx.push(
                    Diagnostic::error(
                        "E121",
                        format!("`{name}` has MLAG port-channel {id} but is not in an MLAG pair"),
                    )
                    .at(at, "MLAG port-channel")
                    .help("declare the pair under `mlag`, or use `lag` for a bundle to this switch alone"),
                );
                continue;
            }
            let first = &members[0].1;
            let same = |a: &PortSettings, b: &PortSettings| {
                a.speed == b.speed
                    && a.mtu == b.mtu
                    && a.trust == b.trust
                    && a.pfc == b.pfc
                    && a.ecn == b.ecn
                    && a.ets == b.ets
                    && a.vlan == b.vlan
                    && a.trunk == b.trunk
                    && a.bundle.map(|b| b.lacp) == b.bundle.map(|b| b.lacp)
                    && a.stp == b.stp
            };
            let keys = |port: &Port| p.bundle_keys.get(port);
            let first_port = members[0].0;
            let odd: Vec<Port> = members
                .iter()
                .filter(|(port, s)| {
                    !same(first, s)
                        || BundleKeys::individual(keys(port))
                            != BundleKeys::individual(keys(&first_port))
                        || BundleKeys::description(keys(port))
                            != BundleKeys::description(keys(&first_port))
                })
                .map(|(port, _)| *port)
                .collect();
            if !odd.is_empty() {
                cx.push(
                    Diagnostic::error(
                        "E118",
                        format!(
                            "members of {}port-channel {id} on `{name}` disagree: {} {} from {} (speed, MTU, QoS, VLANs, LACP mode, spanning tree, `lacp_individual` or `bundle_description`)",
                            if mlag { "MLAG " } else { "" },
                            describe_ports(&odd),
                            if odd.len() == 1 { "differs" } else { "differ" },
                            members[0].0
                        ),
                    )
                    .at(at, "bundle"),
                );
                continue;
            }
            let settings = PortSettings {
                speed: None,
                mtu: first.mtu,
                shutdown: false,
                switchport: first.switchport,
                vlan: first.vlan,
                trust: first.trust,
                ecn: first.ecn,
                ets: first.ets,
                pfc: first.pfc,
                description: BundleKeys::description(keys(&first_port)).cloned(),
                peer: first.peer.clone(),
                profile: first.profile.clone(),
                address: None,
                bundle: None,
                trunk: first.trunk.clone(),
                stp: first.stp,
                unused: false,
                lacp_individual: BundleKeys::individual(keys(&first_port)),
            };
            p.switch.bundles.insert((mlag, id), settings);
        }
    }
    // Both switches of a pair agree on each MLAG port-channel.
    for pair in pairs {
        let [a, b] = &pair.switches;
        let (Some(pa), Some(pb)) = (pending.get(a.as_str()), pending.get(b.as_str())) else {
            continue;
        };
        let ids: BTreeSet<u16> = pa
            .switch
            .bundles
            .keys()
            .chain(pb.switch.bundles.keys())
            .filter(|(m, _)| *m)
            .map(|(_, id)| *id)
            .collect();
        for id in ids {
            let (x, y) = (
                pa.switch.bundles.get(&(true, id)),
                pb.switch.bundles.get(&(true, id)),
            );
            let differ = match (x, y) {
                (Some(x), Some(y)) => {
                    x.mtu != y.mtu
                        || x.vlan != y.vlan
                        || x.trunk != y.trunk
                        || x.switchport != y.switchport
                        || x.trust != y.trust
                        || x.pfc != y.pfc
                        || x.ecn != y.ecn
                        || x.ets != y.ets
                        || x.stp != y.stp
                        || x.lacp_individual != y.lacp_individual
                }
                _ => false,
            };
            if differ {
                cx.push(
                    Diagnostic::error(
                        "E122",
                        format!("MLAG port-channel {id} differs between `{a}` and `{b}` (VLANs, MTU, QoS, spanning tree or `lacp_individual`)"),
                    )
                    .at(pair.at, "this pair")
                    .help("give the member ports on both switches the same profile"),
                );
            }
        }
    }
}
