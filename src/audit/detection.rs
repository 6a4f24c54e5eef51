//! How fast the BGP sessions over cables between switches notice a dead link (R050; its doc
//! is in `rules`), on either OS: BFD at both ends, or a short hold time. Input: the
//! [`Fleet`]'s views ([`super::view::BgpView`]); output: hits, by switch, each at the end
//! that lacks BFD.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use super::view::BgpView;
use super::{Fleet, Hit, hit};
use crate::targets::Fix;

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
            let my_hold = s.hold.unwrap_or(b.default_hold);
            let hold = back.map_or(my_hold, |(_, pb, t)| {
                my_hold.min(t.hold.unwrap_or(pb.default_hold))
            });
            let here = b.bfd && s.bfd;
            if here || hold <= FAST_HOLD {
                continue;
            }
            let peer = back.map_or(String::new(), |(p, _, _)| format!(" ({p})"));
            // BFD off switch-wide, else on the session: the OS's line, or where to write it.
            let (why, fix) = if s.bfd {
                let line = Fix::Line(x.fixes.bfd.to_string());
                ("BFD is not enabled on the switch", line)
            } else {
                (
                    "no BFD watches it here",
                    (x.fixes.neighbor_bfd)(b.asn, *addr),
                )
            };
            let (line, said) = match fix {
                Fix::Line(l) => (Some(l), String::new()),
                Fix::Said(s) => (None, format!(" ({s})")),
            };
            out.push((
                name.to_string(),
                hit(
                    format!(
                        "the BGP session with {addr}{peer} over a cable notices a dead link only after its {hold} s hold time: {why}{said}"
                    ),
                    line,
                ),
            ));
        }
    }
    out
}
