//! How fast the BGP sessions over cables between switches notice a dead link (R050; its doc
//! is in `rules`), on either OS: BFD at both ends, or a short hold time. Input: the
//! [`Fleet`]'s views ([`super::view::BgpView`]); output: hits, by switch, each at the end
//! that lacks BFD.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use super::view::BgpView;
use super::{Fleet, Hit, hit};
use crate::fabric::Os;

/// A session's hold time without `timers`: 180 s on Onyx (`show ip bgp neighbors`, Cray's
/// CSM capture) and OS10 (Dell OS10 user guide, `timers`).
const DEFAULT_HOLD: u16 = 180;

/// The longest hold time that counts as fast detection: FRR's `datacenter` profile, which
/// Cumulus Linux runs (`timers bgp 3 9` in the NVUE-rendered `frr.conf` capture).
pub(super) const FAST_HOLD: u16 = 9;

/// Every routed address of the audited switches: the switches (in name order) whose routed
/// interface has it, with their BGP. Built once: a session's far end is looked up, not found
/// by a scan of every switch (which made R050 switches × sessions).
fn owners<'a>(f: &'a Fleet) -> BTreeMap<Ipv4Addr, Vec<(&'a str, &'a BgpView)>> {
    let mut out: BTreeMap<Ipv4Addr, Vec<(&str, &BgpView)>> = BTreeMap::new();
    for (name, x) in &f.facts {
        let Some(b) = x.view.bgp.as_ref() else {
            continue;
        };
        for n in &b.routed {
            crate::steps::one();
            out.entry(n.addr).or_default().push((*name, b));
        }
    }
    out
}

/// The first switch but `me` whose routed interface has `addr`.
fn far<'a>(
    owners: &BTreeMap<Ipv4Addr, Vec<(&'a str, &'a BgpView)>>,
    me: &str,
    addr: Ipv4Addr,
) -> Option<(&'a str, &'a BgpView)> {
    crate::steps::one();
    owners.get(&addr)?.iter().find(|(n, _)| *n != me).copied()
}

/// R050: a BGP session over a cable (its neighbor on the subnet of a routed port) that no BFD
/// watches at this end, and whose hold time (the smaller of the two ends', 180 s without
/// `timers`) is above [`FAST_HOLD`]. An end that runs BFD while the other does not is the
/// other's hit.
pub(super) fn failure_detection(f: &Fleet) -> Vec<(String, Hit)> {
    let mut out = Vec::new();
    let owners = owners(f);
    for (name, x) in &f.facts {
        let Some(b) = &x.view.bgp else { continue };
        for (addr, s) in &b.sessions {
            let Some(mine) = b
                .routed
                .iter()
                .find(|n| n.contains(*addr) && n.addr != *addr)
                .map(|n| n.addr)
            else {
                continue;
            };
            let back = far(&owners, name, *addr)
                .and_then(|(peer, pb)| Some((peer, pb, pb.sessions.get(&mine)?)));
            let my_hold = s.hold.unwrap_or(DEFAULT_HOLD);
            let hold = back.map_or(my_hold, |(_, _, t)| {
                my_hold.min(t.hold.unwrap_or(DEFAULT_HOLD))
            });
            let here = b.bfd && s.bfd;
            if here || hold <= FAST_HOLD {
                continue;
            }
            let peer = back.map_or(String::new(), |(p, _, _)| format!(" ({p})"));
            let (why, line) = if s.bfd {
                let line = match x.os() {
                    Os::Onyx => "protocol bfd",
                    Os::Os10 => "bfd enable",
                };
                ("BFD is not enabled on the switch", Some(line.to_string()))
            } else {
                let line = match x.os() {
                    Os::Onyx => Some(
                        crate::onyx::Command::Bgp(
                            b.asn,
                            crate::onyx::BgpCmd::FallOverBfd(*addr, true),
                        )
                        .to_string(),
                    ),
                    // A line of the neighbor's block: named in the message.
                    Os::Os10 => None,
                };
                ("no BFD watches it here", line)
            };
            out.push((
                name.to_string(),
                hit(
                    format!(
                        "the BGP session with {addr}{peer} over a cable notices a dead link only after its {hold} s hold time: {why}{}",
                        match x.os() {
                            Os::Os10 if !s.bfd => format!(
                                " (add `bfd` to `neighbor {addr}` in `router bgp {}`)",
                                b.asn
                            ),
                            _ => String::new(),
                        }
                    ),
                    line,
                ),
            ));
        }
    }
    out
}
