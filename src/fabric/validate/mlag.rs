//! MLAG pairs: declared under the fabric's `mlag` (each switch in one pair at most, the
//! peer link's addresses one per switch, the VIP's domain and address together) or written
//! out per switch as halves, paired when they match.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use super::super::Mlag;
use super::super::Os;
use super::super::raw::{RawFabric, RawMlag, RawMlagHalf, Sp};
use super::bundles::channel_id;
use super::network::{host_address, pool};
use super::{Cx, Field, Pending};
use crate::diag::{Diagnostic, Span};
use crate::types::{Hostname, Ipv4Net, Mac, Vlan};

/// An MLAG pair: declared under the fabric's `mlag`, or two switches whose written-out halves
/// match (same system MAC, each the other's peer address).
pub(crate) struct Pair {
    pub(crate) switches: [String; 2],
    pub(crate) at: Span,
    pub(crate) port_channel: u16,
    /// Declared as a pair, so its peer link must be declared too.
    pub(crate) declared: bool,
    /// Whether a `role: ipl` link joins the two.
    pub(crate) linked: bool,
}

/// A system MAC as written.
fn mac(cx: &mut Cx, v: &Sp<String>) -> Option<Mac> {
    match v.get().parse::<Mac>() {
        Ok(m) => Some(m),
        Err(e) => {
            cx.error("E110", e, cx.span(v), "not a MAC address");
            None
        }
    }
}

/// An MLAG domain's name and virtual IP, written together; the name checked as the switches'
/// OSes (`oses`) print it.
fn vip(
    cx: &mut Cx,
    oses: &[Os],
    domain: Option<&Sp<String>>,
    vip: Option<&Sp<String>>,
) -> Option<Option<(String, Ipv4Net)>> {
    match (domain, vip) {
        (None, None) => Some(None),
        (Some(d), Some(v)) => {
            let d = cx.text(d, "MLAG domain name", Field::MlagDomain, oses);
            let v = host_address(cx, v, "MLAG VIP");
            Some(Some((d?, v?)))
        }
        (Some(x), None) | (None, Some(x)) => {
            cx.error(
                "E121",
                "an MLAG VIP is a `domain` and a `vip` address, written together",
                cx.span(x),
                "only one of them",
            );
            None
        }
    }
}

/// The MLAG pairs: declared ones (each switch in one pair at most, both declared, the IPL's
/// addresses one per switch) and halves written out per switch, paired when they match.
pub(crate) fn mlag_pairs(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    names: &BTreeMap<String, (Hostname, Span)>,
) -> Vec<Pair> {
    let mut out = Vec::new();
    let mut member: BTreeMap<String, Span> = BTreeMap::new();
    for m in raw.mlag.iter().flatten() {
        out.extend(declared(cx, m, pending, names, &mut member));
    }
    let halves = halves(cx, raw, pending, &member);
    out.extend(matched(cx, pending, &halves));
    out
}

/// One pair under `mlag`: two switches, each in one pair at most (`member`), both declared,
/// the IPL's addresses one per switch; its switches' MLAG set.
fn declared(
    cx: &mut Cx,
    m: &RawMlag,
    pending: &mut BTreeMap<String, Pending>,
    names: &BTreeMap<String, (Hostname, Span)>,
    member: &mut BTreeMap<String, Span>,
) -> Option<Pair> {
    let at = cx.span(&m.switches);
    let sws = pair_switches(cx, (m, at), pending, names, member)?;
    let oses: Vec<Os> = m
        .switches
        .get()
        .iter()
        .filter_map(|s| cx.oses.get(&s.get().to_lowercase()).copied())
        .collect();
    // A refused domain or VIP is reported; the pair stays a pair, so its peer link and
    // bundles are not reported as well (the fabric is refused either way).
    let vip = Some(vip(cx, &oses, m.domain.as_ref(), m.vip.as_ref()).unwrap_or(None));
    let mac = mac(cx, &m.system_mac);
    let pc = cx.int(&m.ipl.port_channel, channel_id);
    let vlan = cx.int(&m.ipl.vlan, Vlan::new);
    let addresses = ipl_addresses(cx, m);
    let (Ok(switches), Some(vip), Some(mac), Some(pc), Some(vlan), Some(addresses)) =
        (<[String; 2]>::try_from(sws), vip, mac, pc, vlan, addresses)
    else {
        return None;
    };
    pair_mlag(pending, &switches, (vip, mac, pc, vlan), addresses);
    Some(Pair {
        switches,
        at,
        port_channel: pc,
        declared: true,
        linked: false,
    })
}

/// The switches a pair under `mlag` lists (at `at`), each declared and in no other pair
/// (`member`, E121): `None` when the pair is not two switches, or one switch twice (E121).
fn pair_switches(
    cx: &mut Cx,
    (m, at): (&RawMlag, Span),
    pending: &BTreeMap<String, Pending>,
    names: &BTreeMap<String, (Hostname, Span)>,
    member: &mut BTreeMap<String, Span>,
) -> Option<Vec<String>> {
    let listed = m.switches.get();
    if listed.len() != 2 {
        cx.error(
            "E121",
            format!("an MLAG pair is two switches, not {}", listed.len()),
            at,
            "this pair",
        );
        return None;
    }
    let mut sws: Vec<String> = Vec::new();
    for s in listed {
        let sat = cx.span(s);
        match names.get(&s.get().to_lowercase()) {
            Some((h, _)) if pending.contains_key(h.as_str()) => {
                if let Some(first) = member.insert(h.as_str().to_string(), sat) {
                    cx.push(
                        Diagnostic::error("E121", format!("`{h}` is in two MLAG pairs"))
                            .at(sat, "second pair")
                            .also(first, "first pair"),
                    );
                } else {
                    sws.push(h.as_str().to_string());
                }
            }
            Some(_) => {}
            None => cx.error(
                "E121",
                format!("unknown switch `{}` in an MLAG pair", s.get()),
                sat,
                "not declared under `switches`",
            ),
        }
    }
    if sws.len() == 2 && sws[0] == sws[1] {
        cx.error(
            "E121",
            "an MLAG pair of one switch with itself",
            at,
            "this pair",
        );
        return None;
    }
    Some(sws)
}

/// The two switches' addresses on the IPL subnet (/31: both; else its first two hosts); a
/// subnet with fewer is E110.
fn ipl_addresses(cx: &mut Cx, m: &RawMlag) -> Option<[Ipv4Net; 2]> {
    let subnet = pool(cx, &m.ipl.subnet, "IPL subnet");
    let addresses = subnet.and_then(|s| {
        // /31: both addresses; otherwise the first two hosts.
        let first = u64::from(s.len <= 30);
        let two = [s.nth(first)?, s.nth(first + 1)?];
        (s.len <= 31).then(|| {
            two.map(|a| Ipv4Net {
                addr: a,
                len: s.len,
            })
        })
    });
    if subnet.is_some() && addresses.is_none() {
        cx.error(
            "E110",
            "the IPL subnet holds fewer than two addresses",
            cx.span(&m.ipl.subnet),
            "too small",
        );
    }
    addresses
}

/// A declared pair's MLAG set on both its switches (the VIP, system MAC, IPL port-channel and
/// VLAN they share; each its own IPL address), each naming the other as its peer.
fn pair_mlag(
    pending: &mut BTreeMap<String, Pending>,
    switches: &[String; 2],
    (vip, mac, pc, vlan): (Option<(String, Ipv4Net)>, Mac, u16, Vlan),
    addresses: [Ipv4Net; 2],
) {
    for (i, name) in switches.iter().enumerate() {
        let other = pending.get(switches[1 - i].as_str());
        let peer = other.map(|p| p.switch.hostname.clone());
        let peer_mgmt = other
            .and_then(|p| p.switch.mgmt.as_ref())
            .and_then(|m| m.host.parse::<Ipv4Addr>().ok())
            .filter(|a| !a.is_loopback());
        if let Some(p) = pending.get_mut(name.as_str()) {
            p.switch.vlans.entry(vlan).or_insert(None);
            p.switch.mlag = Some(Mlag {
                peer,
                vip: vip.clone(),
                system_mac: mac,
                ipl_port_channel: pc,
                ipl_vlan: vlan,
                address: Some(addresses[i]),
                peer_address: addresses[1 - i].addr,
                peer_mgmt,
            });
        }
    }
}

/// Halves written out per switch (`mlag:` on a switch; not on a switch of a declared pair,
/// `member`): their MLAG set, and where each is written.
fn halves(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &mut BTreeMap<String, Pending>,
    member: &BTreeMap<String, Span>,
) -> Vec<(String, Span)> {
    let mut halves: Vec<(String, Span)> = Vec::new();
    for (name, p) in pending.iter_mut() {
        let Some(h) = &raw.switches.0[p.index].1.mlag else {
            continue;
        };
        let at = cx.span(&h.system_mac);
        if let Some(first) = member.get(name) {
            cx.push(
                Diagnostic::error(
                    "E121",
                    format!("`{name}`'s MLAG half is written out and derived from a pair"),
                )
                .at(at, "written out")
                .also(*first, "pair"),
            );
            continue;
        }
        let Some(mlag) = half(cx, p.switch.os(), h) else {
            continue;
        };
        p.switch.vlans.entry(mlag.ipl_vlan).or_insert(None);
        p.switch.mlag = Some(mlag);
        halves.push((name.clone(), at));
    }
    halves
}

/// One switch's half as written (on a switch running `os`), each value checked; `None` when
/// one is refused.
fn half(cx: &mut Cx, os: Os, h: &RawMlagHalf) -> Option<Mlag> {
    let vip = vip(cx, &[os], h.domain.as_ref(), h.vip.as_ref());
    let mac = mac(cx, &h.system_mac);
    let pc = cx.int(&h.ipl.port_channel, channel_id);
    let vlan = cx.int(&h.ipl.vlan, Vlan::new);
    let (address, peer_address) = ipl_half(cx, h)?;
    let peer_mgmt = match &h.peer_mgmt {
        Some(m) => match m.get().parse::<Ipv4Addr>() {
            Ok(a) => Some(Some(a)),
            Err(_) => {
                let what = format!("`{}` is not an IPv4 address", m.get());
                cx.error("E110", what, cx.span(m), "peer's management address");
                None
            }
        },
        None => Some(None),
    };
    Some(Mlag {
        peer: None,
        vip: vip?,
        system_mac: mac?,
        ipl_port_channel: pc?,
        ipl_vlan: vlan?,
        address: address?,
        peer_address: peer_address?,
        peer_mgmt: peer_mgmt?,
    })
}

/// A half's IPL address (`Some(None)`: not written) and its peer's, each checked (E110), the
/// peer's another address of its subnet (else E121, and `None`: the half is refused).
#[allow(clippy::type_complexity)]
fn ipl_half(cx: &mut Cx, h: &RawMlagHalf) -> Option<(Option<Option<Ipv4Net>>, Option<Ipv4Addr>)> {
    let address = match &h.ipl.address {
        Some(a) => host_address(cx, a, "IPL address").map(Some),
        None => Some(None),
    };
    let peer_address = match h.ipl.peer.get().parse::<Ipv4Addr>() {
        Ok(a) => Some(a),
        Err(_) => {
            cx.error(
                "E110",
                format!("`{}` is not an IPv4 address", h.ipl.peer.get()),
                cx.span(&h.ipl.peer),
                "IPL peer",
            );
            None
        }
    };
    if let (Some(Some(address)), Some(peer)) = (address, peer_address)
        && (!address.contains(peer) || address.addr == peer)
    {
        cx.error(
            "E121",
            format!(
                "IPL peer {peer} is not another address of {}",
                address.network()
            ),
            cx.span(&h.ipl.peer),
            "IPL peer",
        );
        return None;
    }
    Some((address, peer_address))
}

/// Two halves that face each other are a pair when they agree (E122 otherwise).
fn matched(
    cx: &mut Cx,
    pending: &mut BTreeMap<String, Pending>,
    halves: &[(String, Span)],
) -> Vec<Pair> {
    let mut out = Vec::new();
    for (i, (a, at)) in halves.iter().enumerate() {
        for (b, _) in &halves[i + 1..] {
            let (Some(ma), Some(mb)) = (
                pending.get(a.as_str()).and_then(|p| p.switch.mlag.clone()),
                pending.get(b.as_str()).and_then(|p| p.switch.mlag.clone()),
            ) else {
                continue;
            };
            let facing = Some(ma.peer_address) == mb.address.map(|a| a.addr)
                && Some(mb.peer_address) == ma.address.map(|a| a.addr);
            if !facing {
                continue;
            }
            if ma.system_mac != mb.system_mac
                || ma.ipl_vlan != mb.ipl_vlan
                || ma.vip != mb.vip
                || ma.address.map(|a| a.len) != mb.address.map(|a| a.len)
            {
                cx.push(
                    Diagnostic::error(
                        "E122",
                        format!("MLAG peers `{a}` and `{b}` disagree on their system MAC, domain, VIP or IPL VLAN"),
                    )
                    .at(*at, a.clone())
                    .help("the two halves of a pair share these; write the pair once under `mlag`"),
                );
                continue;
            }
            for (x, y) in [(a, b), (b, a)] {
                let peer = pending.get(y.as_str()).map(|p| p.switch.hostname.clone());
                if let Some(m) = pending
                    .get_mut(x.as_str())
                    .and_then(|p| p.switch.mlag.as_mut())
                {
                    m.peer = peer;
                }
            }
            out.push(Pair {
                switches: [a.clone(), b.clone()],
                at: *at,
                port_channel: ma.ipl_port_channel,
                declared: false,
                linked: false,
            });
        }
    }
    out
}
