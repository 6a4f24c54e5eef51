//! Routing lines: `ip …` (routing in the default VRF, ECMP hashing, BFD's timers),
//! `protocol …`, the default VRF's BGP instance (`router bgp ASN vrf default …`) and MLAG
//! (`mlag …`, `mlag-vip …`).

use nom::Parser;
use nom::branch::alt;
use nom::combinator::{all_consuming, map_res, value};
use nom::sequence::{preceded, terminated};

use super::lex::{
    Expect, Line, R, asn, ctx, end, force, full, ipv4, kw, negation, number, prefix, skw, space0,
    space1, to_failure, whole_word, within, word,
};
use super::typed::{BfdInterval, BgpCmd, Command, LoadSharing, Protocol};
use crate::types::Mac;

/// `protocol bfd|bgp|mlag` / its `no` form; the other protocols are not modeled.
pub(super) fn protocol(no: bool, args: &str) -> Line<'_, Command> {
    whole_word(
        args,
        &["bfd", "bgp", "igmp", "magp", "mlag", "ospf", "pim", "vrrp"],
    )?;
    let p = match word(args.trim_ascii_start()) {
        Ok((_, "bfd")) => Protocol::Bfd,
        Ok((_, "bgp")) => Protocol::Bgp,
        Ok((_, "mlag")) => Protocol::Mlag,
        _ => return Ok(None),
    };
    full(args, |x| {
        let (x, _) = preceded(space0, word).parse(x)?;
        Ok((x, Command::Protocol(p, !no)))
    })
}

/// `router bgp ASN [vrf default] …` / `no router bgp ASN …`: the AS and the default VRF, then
/// what the line sets ([`bgp`]); OSPF, PIM and another VRF's instance are not modeled.
pub(super) fn router(no: bool, args: &str) -> Line<'_, Command> {
    whole_word(args, &["bgp", "ospf", "pim"])?;
    let Ok((rest, _)) = skw("bgp").parse(args) else {
        return Ok(None);
    };
    let (rest, n) = preceded(space1, asn).parse(rest).map_err(to_failure)?;
    // The default VRF, written or not; another VRF's instance is not modeled.
    let rest = rest.trim_ascii_start();
    whole_word(rest, &["vrf"]).or_else(|e| if rest.is_empty() { Ok(()) } else { Err(e) })?;
    let rest = match kw("vrf").parse(rest) {
        Ok((r, _)) => {
            let (r, v) = preceded(space1, ctx("a VRF name", word))
                .parse(r)
                .map_err(to_failure)?;
            if v != "default" {
                return Ok(None);
            }
            r.trim_ascii_start()
        }
        Err(_) => rest,
    };
    if no {
        all_consuming(end).parse(rest).map_err(to_failure)?;
        return Ok(Some(Command::NoBgp(n)));
    }
    Ok(bgp(rest)?.map(|c| Command::Bgp(n, c)))
}

/// `mlag shutdown`, `mlag system-mac M` and their `no` forms; the MLAG timers are not
/// modeled.
pub(super) fn mlag(no: bool, args: &str) -> Line<'_, Command> {
    whole_word(
        args,
        &[
            "keepalive-interval",
            "reload-delay",
            "shutdown",
            "system-mac",
        ],
    )?;
    match word(args.trim_ascii_start()) {
        Ok((r, "shutdown")) => {
            all_consuming(end).parse(r).map_err(to_failure)?;
            Ok(Some(Command::MlagShutdown(!no)))
        }
        Ok((_, "system-mac")) if no => Ok(Some(Command::MlagSystemMac(None))),
        Ok((r, "system-mac")) => {
            let (_, m) = all_consuming(terminated(
                preceded(
                    space1,
                    ctx("a MAC address", map_res(word, |w: &str| w.parse::<Mac>())),
                ),
                end,
            ))
            .parse(r)
            .map_err(to_failure)?;
            Ok(Some(Command::MlagSystemMac(Some(m))))
        }
        _ => Ok(None),
    }
}

/// `mlag-vip NAME ip A /N [force]` / `no mlag-vip`.
pub(super) fn mlag_vip(no: bool, args: &str) -> Line<'_, Command> {
    if no {
        return Ok(Some(Command::MlagVip(None)));
    }
    full(args, |x| {
        let (x, name) = preceded(space1, ctx("an MLAG domain name", word)).parse(x)?;
        let (x, _) = ctx("`ip`", skw("ip")).parse(x)?;
        let (x, net) = preceded(space1, prefix).parse(x)?;
        let (x, _) = force(x)?;
        Ok((x, Command::MlagVip(Some((name.to_string(), net)))))
    })
}

/// `ip …` lines: routing in the default VRF and ECMP hashing are modeled; routes, DHCP
/// relay, domain lists and the rest are not.
pub(super) fn ip(no: bool, args: &str) -> Line<'_, Command> {
    whole_word(
        args,
        &[
            "bfd",
            "dhcp",
            "domain-list",
            "filter",
            "http",
            "igmp",
            "load-sharing",
            "name-server",
            "prefix-list",
            "route",
            "routing",
        ],
    )?;
    let args = args.trim_ascii_start();
    if let Ok((rest, _)) = kw("routing").parse(args) {
        let rest = rest.trim_ascii_start();
        if rest.is_empty() {
            return Ok(Some(Command::IpRouting(!no)));
        }
        whole_word(rest, &["vrf"])?;
        let r: R<'_, _> = (kw("vrf"), skw("default"), end).parse(rest);
        return Ok(r.ok().map(|_| Command::IpRouting(!no)));
    }
    if let Ok((rest, _)) = kw("load-sharing").parse(args) {
        let rest = rest.trim_ascii_start();
        whole_word(rest, &["source-ip-port", "type"])?;
        let r: R<'_, _> = alt((
            value(LoadSharing::SourceIpPort, (kw("source-ip-port"), end)),
            value(
                LoadSharing::Consistent,
                (kw("type"), skw("consistent"), end),
            ),
        ))
        .parse(rest);
        return Ok(r.ok().map(|(_, l)| Command::LoadSharing(l, !no)));
    }
    if let Ok((rest, _)) = kw("bfd").parse(args)
        && !no
    {
        return bfd_interval(rest.trim_ascii_start());
    }
    Ok(None)
}

/// `ip bfd [vrf default] interval …` after `ip bfd`: one setting or several, then `force`.
/// Another VRF's, `ip bfd shutdown …` and the rest are not modeled.
fn bfd_interval(rest: &str) -> Line<'_, Command> {
    let rest = match (kw("vrf"), skw("default")).parse(rest) {
        Ok((r, _)) => r.trim_ascii_start(),
        Err(_) if rest.starts_with("vrf ") => return Ok(None),
        Err(_) => rest,
    };
    let Ok((mut rest, _)) = kw("interval").parse(rest) else {
        return Ok(None);
    };
    let mut b = BfdInterval::default();
    let ms = |what| ctx(what, map_res(number::<u32>, within(1..=60000)));
    loop {
        rest = rest.trim_ascii_start();
        if rest.is_empty() {
            break;
        }
        whole_word(rest, &["force", "min-rx", "multiplier", "transmit-rate"])?;
        let r: R<'_, _> = (kw("min-rx"), space1, ms("a receive interval in ms")).parse(rest);
        if let Ok((r, (_, _, n))) = r {
            (rest, b.min_rx) = (r, Some(n));
            continue;
        }
        let r: R<'_, _> = (
            kw("multiplier"),
            space1,
            ctx("a multiplier 1-255", number::<u8>),
        )
            .parse(rest);
        if let Ok((r, (_, _, n))) = r {
            (rest, b.multiplier) = (r, Some(n));
            continue;
        }
        let r: R<'_, _> =
            (kw("transmit-rate"), space1, ms("a transmit interval in ms")).parse(rest);
        if let Ok((r, (_, _, n))) = r {
            (rest, b.transmit_rate) = (r, Some(n));
            continue;
        }
        break;
    }
    if b == BfdInterval::default() {
        return Err(nom::Err::Failure(Expect {
            at: rest,
            what: "`min-rx`, `multiplier` or `transmit-rate` and a value",
        }));
    }
    all_consuming(terminated(force, end))
        .parse(rest)
        .map_err(to_failure)?;
    Ok(Some(Command::BfdInterval(b)))
}

/// The part of a `router bgp ASN vrf default` line after the VRF; `Ok(None)` for attributes
/// the model does not know (peer groups, address families, timers, route maps …).
fn bgp(rest: &str) -> Line<'_, BgpCmd> {
    if rest.is_empty() {
        return Ok(Some(BgpCmd::Create));
    }
    let (rest, no) = negation(rest);
    whole_word(
        rest,
        &[
            "address-family",
            "bestpath",
            "bgp",
            "distance",
            "maximum-paths",
            "neighbor",
            "network",
            "redistribute",
            "router-id",
            "timers",
        ],
    )?;
    let (args, head) = word(rest)?;
    let args = args.trim_ascii_start();
    match (no, head) {
        (false, "router-id") => {
            let (_, a) = all_consuming(terminated(ipv4, (force, end)))
                .parse(args)
                .map_err(to_failure)?;
            Ok(Some(BgpCmd::RouterId(a)))
        }
        (true, "router-id") => Ok(Some(BgpCmd::NoRouterId)),
        (_, "maximum-paths") => maximum_paths(no, args),
        (_, "bestpath") => {
            let r: R<'_, _> = (kw("as-path"), skw("multipath-relax"), force, end).parse(args);
            Ok(r.ok().map(|_| BgpCmd::MultipathRelax(!no)))
        }
        (_, "bgp") => {
            // `bgp fast-external-fallover` (the onyx_bgp_show capture); `bgp router-id`,
            // `bgp log-neighbor-changes` … are not modeled.
            let r: R<'_, _> = (kw("fast-external-fallover"), end).parse(args);
            Ok(r.ok().map(|_| BgpCmd::FastExternalFallover(!no)))
        }
        (_, "neighbor") => neighbor(no, args),
        (_, "network") => {
            let (_, net) = all_consuming(terminated(prefix, end))
                .parse(args)
                .map_err(to_failure)?;
            Ok(Some(if no {
                BgpCmd::NoNetwork(net)
            } else {
                BgpCmd::Network(net)
            }))
        }
        _ => Ok(None),
    }
}

/// `maximum-paths N` / `no maximum-paths`, in a `router bgp` line.
fn maximum_paths(no: bool, args: &str) -> Line<'_, BgpCmd> {
    // `maximum-paths ibgp N` / `ebgp N`: per session type, not modeled.
    if args.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Ok(None);
    }
    if no {
        return Ok(Some(BgpCmd::NoMaximumPaths));
    }
    let (_, n) = all_consuming(terminated(
        ctx(
            "a number of paths 1-64",
            map_res(number::<u16>, within(1..=64)),
        ),
        end,
    ))
    .parse(args)
    .map_err(to_failure)?;
    Ok(Some(BgpCmd::MaximumPaths(n)))
}

/// `neighbor A remote-as N|timers K H|fall-over bfd` and the `no` forms, in a `router bgp`
/// line.
fn neighbor(no: bool, args: &str) -> Line<'_, BgpCmd> {
    // A neighbor named by a peer group (`neighbor evpn …`) is not modeled; one that
    // looks like an address must be one.
    let name = args.split(' ').next().unwrap_or("");
    if !name.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return Ok(None);
    }
    let (rest, a) = ipv4(args).map_err(to_failure)?;
    if !rest.is_empty() && !rest.starts_with(' ') {
        return Err(nom::Err::Failure(Expect {
            at: rest,
            what: "an IPv4 address",
        }));
    }
    let rest = rest.trim_ascii_start();
    if no && rest.is_empty() {
        return Ok(Some(BgpCmd::NoNeighbor(a)));
    }
    whole_word(rest, &["fall-over", "remote-as", "timers"])?;
    let bfd: R<'_, _> = (kw("fall-over"), skw("bfd"), end).parse(rest);
    if bfd.is_ok() {
        return Ok(Some(BgpCmd::FallOverBfd(a, !no)));
    }
    // `timers KEEPALIVE HOLD`; another kind of timer (`timers connect N`) is not
    // modeled.
    if let Ok((r, _)) = kw("timers").parse(rest)
        && (no
            || r.trim_ascii_start()
                .starts_with(|c: char| c.is_ascii_digit()))
    {
        return neighbor_timers(no, a, r);
    }
    // `no neighbor A remote-as N` takes the session (as `onyx_bgp` sends it); another
    // attribute's `no` form is not modeled.
    if no {
        let r: R<'_, _> = kw("remote-as").parse(rest);
        return Ok(r.ok().map(|_| BgpCmd::NoNeighbor(a)));
    }
    let Ok((rest, _)) = kw("remote-as").parse(rest) else {
        return Ok(None);
    };
    let (_, n) = all_consuming(terminated(preceded(space1, asn), end))
        .parse(rest)
        .map_err(to_failure)?;
    Ok(Some(BgpCmd::Neighbor(a, n)))
}

/// A neighbor's `timers KEEPALIVE HOLD` / `no … timers`, after `timers`.
fn neighbor_timers(no: bool, a: std::net::Ipv4Addr, r: &str) -> Line<'_, BgpCmd> {
    if no {
        all_consuming(end).parse(r).map_err(to_failure)?;
        return Ok(Some(BgpCmd::NoTimers(a)));
    }
    let (_, (k, h)) = all_consuming(terminated(
        (
            ctx("a keepalive in seconds", preceded(space1, number::<u16>)),
            ctx("a hold time in seconds", preceded(space1, number::<u16>)),
        ),
        end,
    ))
    .parse(r)
    .map_err(to_failure)?;
    Ok(Some(BgpCmd::Timers(a, k, h)))
}
