//! How fast a BGP session notices a dead link: BFD and its timers, BGP's keepalive and hold
//! timers, and `fast_external_fallover`, written fabric-wide (`routing`), per switch (`bgp`)
//! or per written neighbor; resolved for each switch's sessions, and checked against what the
//! switch's OS takes.
//!
//! Defaults: BFD on every session over a routed link (300 ms × 3, [`BfdTimers::DEFAULT`]),
//! off on a written neighbor unless it says `bfd: true` (a peer outside the fabric may not run
//! it); BGP timers the OS's (60 s and 180 s); `fast_external_fallover` on where a switch has
//! sessions over routed links.
//!
//! - E020 — a timer outside what any OS takes (BFD 50-60000 ms, multiplier 3-50; keepalive
//!   1-65535 s, hold 3-65535 s)
//! - E126 — timers one switch's OS cannot honour (OS10's BFD intervals up to 1000 ms, Onyx's
//!   receive interval up to 6000 ms), or a keepalive not below the hold time
//! - W008 — BFD at one end of a routed link only: BGP comes up without it, and that session
//!   notices a dead link only when its hold time runs out

use std::collections::{BTreeMap, BTreeSet};

use super::super::raw::{RawBfdSetting, RawBgp, RawNeighbor, RawRouting, RawTimers, Sp};
use super::super::{BfdTimers, BgpTimers, Os};
use super::Cx;
use crate::diag::{Diagnostic, Span};

/// What one level (the fabric's `routing`, a switch's `bgp`) says of failure detection; a
/// switch's choice is its own where it writes one, else the fabric's.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Choice {
    /// BFD on the sessions over routed links (`None`: not written), with where it is written.
    bfd: Option<(bool, Span)>,
    /// The timers BFD runs with, and where its intervals are written (the transmit
    /// interval's and the receive interval's, which is the transmit's when left out).
    bfd_timers: Option<(BfdTimers, [Span; 2])>,
    timers: Option<(BgpTimers, Span)>,
    fast_external_fallover: Option<bool>,
}

impl Choice {
    /// This level's choice where it writes one, else `below`'s (a switch over the fabric).
    fn over(self, below: Choice) -> Choice {
        let (bfd, bfd_timers) = match self.bfd {
            Some(_) => (self.bfd, self.bfd_timers),
            None => (below.bfd, below.bfd_timers),
        };
        Choice {
            bfd,
            bfd_timers,
            timers: self.timers.or(below.timers),
            fast_external_fallover: self.fast_external_fallover.or(below.fast_external_fallover),
        }
    }

    /// BFD on the switch's sessions over routed links.
    pub(crate) fn link_bfd(&self) -> bool {
        self.bfd.is_none_or(|(on, _)| on)
    }

    /// The timers BFD runs with on the switch.
    pub(crate) fn bfd_timers(&self) -> BfdTimers {
        self.bfd_timers.map_or(BfdTimers::DEFAULT, |(t, _)| t)
    }

    pub(crate) fn timers(&self) -> Option<BgpTimers> {
        self.timers.map(|(t, _)| t)
    }

    /// `fast_external_fallover` as written; a switch with sessions over routed links gets
    /// `true` when nothing is.
    pub(crate) fn fast_external_fallover(&self, linked: bool) -> Option<bool> {
        self.fast_external_fallover.or(linked.then_some(true))
    }

    /// Where BFD is turned off for the switch's sessions over routed links, if it is.
    pub(crate) fn bfd_off_at(&self) -> Option<Span> {
        self.bfd.filter(|(on, _)| !on).map(|(_, at)| at)
    }
}

/// The widest BFD intervals an OS takes (Onyx's transmit rate, the `onyx_bfd` Ansible module's
/// check); each OS's own limits are [`os_limits`].
const BFD_MS: std::ops::RangeInclusive<i64> = 50..=60000;

/// Reads `bfd`, `timers` and `fast_external_fallover` of one level.
fn choice(
    cx: &mut Cx,
    bfd: Option<&Sp<RawBfdSetting>>,
    timers: Option<&RawTimers>,
    fef: Option<&Sp<bool>>,
) -> Choice {
    let mut c = Choice {
        timers: timers.and_then(|t| bgp_timers(cx, t)),
        fast_external_fallover: fef.map(|v| *v.get()),
        ..Choice::default()
    };
    if let Some(v) = bfd {
        let at = cx.span(v);
        match v.get() {
            RawBfdSetting::Flag(on) => c.bfd = Some((*on, at)),
            RawBfdSetting::Table(t) => {
                c.bfd = Some((true, at));
                let ms = |cx: &mut Cx, v: &Sp<i64>, what: &str| {
                    cx.int(v, |n| {
                        if BFD_MS.contains(&n) {
                            Ok(n as u32)
                        } else {
                            Err(format!("BFD {what} {n} ms is out of range 50-60000"))
                        }
                    })
                };
                let interval = match &t.interval {
                    Some(v) => ms(cx, v, "interval"),
                    None => Some(BfdTimers::DEFAULT.interval),
                };
                let min_rx = match &t.min_rx {
                    Some(v) => ms(cx, v, "min_rx"),
                    None => interval,
                };
                let multiplier = match &t.multiplier {
                    Some(v) => cx.int(v, |n| {
                        if (3..=50).contains(&n) {
                            Ok(n as u8)
                        } else {
                            Err(format!("BFD multiplier {n} is out of range 3-50"))
                        }
                    }),
                    None => Some(BfdTimers::DEFAULT.multiplier),
                };
                if let (Some(interval), Some(min_rx), Some(multiplier)) =
                    (interval, min_rx, multiplier)
                {
                    let timers = BfdTimers {
                        interval,
                        min_rx,
                        multiplier,
                    };
                    let tx = t.interval.as_ref().map_or(at, |v| cx.span(v));
                    let rx = t.min_rx.as_ref().map_or(tx, |v| cx.span(v));
                    c.bfd_timers = Some((timers, [tx, rx]));
                }
            }
        }
    }
    c
}

/// `{ keepalive, hold }`: in range, the keepalive below the hold time (a keepalive at or past
/// the hold time lets the session expire between two keepalives).
fn bgp_timers(cx: &mut Cx, t: &RawTimers) -> Option<(BgpTimers, Span)> {
    let keepalive = cx.int(&t.keepalive, |n| {
        u16::try_from(n)
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| format!("keepalive {n} s is out of range 1-65535"))
    });
    let hold = cx.int(&t.hold, |n| {
        u16::try_from(n)
            .ok()
            .filter(|n| *n >= 3)
            .ok_or_else(|| format!("hold time {n} s is out of range 3-65535"))
    });
    let (keepalive, hold) = (keepalive?, hold?);
    if keepalive >= hold {
        cx.push(
            Diagnostic::error(
                "E126",
                format!("keepalive {keepalive} s is not below the hold time {hold} s: the session would expire between keepalives"),
            )
            .at(cx.span(&t.keepalive), "keepalive")
            .also(cx.span(&t.hold), "hold time")
            .help(format!("a third of the hold time: `{{ keepalive: {}, hold: {hold} }}` (RFC 4271 §10)", (hold / 3).max(1))),
        );
        return None;
    }
    Some((BgpTimers { keepalive, hold }, cx.span(&t.hold)))
}

/// The fabric's `routing`.
pub(crate) fn fabric(cx: &mut Cx, r: Option<&RawRouting>) -> Choice {
    let Some(r) = r else {
        return Choice::default();
    };
    choice(
        cx,
        r.bfd.as_ref(),
        r.timers.as_ref(),
        r.fast_external_fallover.as_ref(),
    )
}

/// A switch's choice: its `bgp`'s keys over the fabric's.
pub(crate) fn switch(cx: &mut Cx, fabric: Choice, bgp: Option<&RawBgp>) -> Choice {
    let Some(b) = bgp else {
        return fabric;
    };
    choice(
        cx,
        b.bfd.as_ref(),
        b.timers.as_ref(),
        b.fast_external_fallover.as_ref(),
    )
    .over(fabric)
}

/// A written neighbor's `bfd` (default false) and timers.
pub(crate) fn neighbor(cx: &mut Cx, nb: &RawNeighbor) -> (bool, Option<BgpTimers>) {
    (
        nb.bfd.as_ref().is_some_and(|v| *v.get()),
        nb.timers
            .as_ref()
            .and_then(|t| bgp_timers(cx, t))
            .map(|(t, _)| t),
    )
}

/// The BFD intervals `os` takes (its rules say, with their source): the largest transmit and
/// receive intervals in ms; every OS takes 50 ms and a multiplier of 3-50.
fn os_limits(os: Os) -> (u32, u32) {
    os.target().rules().bfd_limits()
}

/// Refuses BFD timers `os` cannot honour, once per place they are written (E126 at the
/// value, naming the switch and its OS). `told` holds what was reported already.
pub(crate) fn check_os(
    cx: &mut Cx,
    c: &Choice,
    os: Os,
    name: &str,
    told: &mut BTreeSet<(usize, Os)>,
) {
    let Some((t, [tx, rx])) = c.bfd_timers else {
        return;
    };
    let (max_tx, max_rx) = os_limits(os);
    let mut wrong = Vec::new();
    if t.interval > max_tx {
        wrong.push((tx, format!("interval {} ms (at most {max_tx})", t.interval)));
    }
    if t.min_rx > max_rx {
        wrong.push((rx, format!("min_rx {} ms (at most {max_rx})", t.min_rx)));
    }
    let Some(&(at, _)) = wrong.first() else {
        return;
    };
    if !told.insert((at.start, os)) {
        return;
    }
    let what: Vec<&str> = wrong.iter().map(|(_, w)| w.as_str()).collect();
    let mut d = Diagnostic::error(
        "E126",
        format!(
            "`{name}` runs {os}, which takes no BFD {}",
            what.join(" nor ")
        ),
    )
    .at(at, format!("too slow for {os}"));
    for (other, _) in wrong.iter().skip(1).filter(|(s, _)| *s != at) {
        d = d.also(*other, format!("too slow for {os}"));
    }
    cx.push(d.help(format!(
        "{os} takes BFD intervals of 50-{max_tx} ms (receive 50-{max_rx} ms); give `{name}` its own `bgp: {{ bfd: {{ interval: N }} }}` if the others keep these"
    )));
}

/// One session over a routed link, from one end: the switch, its port, where the end is
/// written, and whether it runs BFD (and where that end turns it off).
pub(crate) struct End {
    pub switch: String,
    pub port: crate::types::Port,
    pub at: Span,
    pub bfd: bool,
    pub off_at: Option<Span>,
}

/// W008 for each routed link whose ends disagree on BFD: the end that runs it sends BFD
/// packets no one answers, so BFD never comes up and BGP runs without it (RFC 5882 §3: a
/// client reacts to a BFD session going down, not to one that never came up).
pub(crate) fn one_sided(cx: &mut Cx, links: &[(End, End)]) {
    let mut told: BTreeMap<(String, String), usize> = BTreeMap::new();
    for (a, b) in links {
        if a.bfd == b.bfd {
            continue;
        }
        let (on, off) = if a.bfd { (a, b) } else { (b, a) };
        // One warning per pair of switches, counting its cables.
        let n = told
            .entry((on.switch.clone(), off.switch.clone()))
            .or_default();
        *n += 1;
        if *n > 1 {
            continue;
        }
        let mut d = Diagnostic::warning(
            "W008",
            format!(
                "BFD runs on `{}`'s end of routed link {}:{} – {}:{} but not on `{}`'s: the session comes up without BFD and notices a dead link only when its hold time runs out",
                on.switch, on.switch, on.port, off.switch, off.port, off.switch
            ),
        )
        .at(off.at, format!("{} runs no BFD", off.switch))
        .also(on.at, format!("{} runs BFD", on.switch));
        if let Some(at) = off.off_at {
            d = d.also(at, "turned off here");
        }
        cx.push(d.help("run BFD at both ends of the fabric's links (the default), or at neither"));
    }
}
