//! The grammar's building blocks: the parser error that says where and what was expected,
//! keywords, words, numbers, VLAN lists, addresses, and the checks that tell a line cut short
//! from one the model does not know.

use nom::bytes::complete::{tag, take_while1};
use nom::combinator::{all_consuming, eof, map_res, opt, value};
use nom::error::{ContextError, ErrorKind, FromExternalError, ParseError};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

use std::net::Ipv4Addr;

use super::typed::Vlans;
use crate::types::cli_text;
use crate::types::{Ipv4Net, Priority, TrafficClass, Vlan};

/// The parser error: where, and what was expected there.
#[derive(Debug)]
pub(super) struct Expect<'a> {
    pub(super) at: &'a str,
    pub(super) what: &'static str,
}

impl<'a> ParseError<&'a str> for Expect<'a> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        Expect { at, what: "" }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }

    fn or(self, other: Self) -> Self {
        // Keep the error that got furthest, and one that says what it wanted.
        match (self.what.is_empty(), other.what.is_empty()) {
            (false, true) => self,
            (true, false) => other,
            _ if other.at.len() <= self.at.len() => other,
            _ => self,
        }
    }
}

impl<'a> ContextError<&'a str> for Expect<'a> {
    fn add_context(at: &'a str, what: &'static str, other: Self) -> Self {
        if other.what.is_empty() {
            Expect {
                at: other.at.min(at),
                what,
            }
        } else {
            other
        }
    }
}

impl<'a, E> FromExternalError<&'a str, E> for Expect<'a> {
    fn from_external_error(at: &'a str, _: ErrorKind, _: E) -> Self {
        Expect { at, what: "" }
    }
}

pub(super) type R<'a, T> = IResult<&'a str, T, Expect<'a>>;

/// What a line (or the part of one a family reads) comes to: the command, `Ok(None)` for one
/// the model does not know (kept verbatim), or where it goes wrong.
pub(super) type Line<'a, T> = Result<Option<T>, nom::Err<Expect<'a>>>;

/// The whole of `args` read by `p`, up to the end of the line; an error there is a failure.
pub(super) fn full<'a, T>(args: &'a str, mut p: impl FnMut(&'a str) -> R<'a, T>) -> Line<'a, T> {
    let (_, c) = all_consuming(terminated(&mut p, end))
        .parse(args)
        .map_err(to_failure)?;
    Ok(Some(c))
}

pub(super) fn ctx<'a, T>(
    what: &'static str,
    mut p: impl Parser<&'a str, Output = T, Error = Expect<'a>>,
) -> impl Parser<&'a str, Output = T, Error = Expect<'a>> {
    move |i: &'a str| match p.parse(i) {
        Ok(x) => Ok(x),
        Err(nom::Err::Error(e)) => Err(nom::Err::Error(Expect::add_context(i, what, e))),
        Err(nom::Err::Failure(e)) => Err(nom::Err::Failure(Expect::add_context(i, what, e))),
        Err(e) => Err(e),
    }
}

/// One keyword, ending at a space or the end of the line.
pub(super) fn kw<'a>(
    word: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = Expect<'a>> {
    move |i: &'a str| match i.strip_prefix(word) {
        Some(rest) if rest.is_empty() || rest.starts_with(' ') => Ok((rest, &i[..word.len()])),
        _ => Err(nom::Err::Error(Expect { at: i, what: "" })),
    }
}

/// A keyword preceded by white space.
pub(super) fn skw<'a>(
    word: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = Expect<'a>> {
    preceded(space1, kw(word))
}

pub(super) fn word(i: &str) -> R<'_, &str> {
    match i.bytes().position(|b| b == b' ').unwrap_or(i.len()) {
        0 => Err(nom::Err::Error(Expect { at: i, what: "" })),
        n => Ok((&i[n..], &i[..n])),
    }
}

/// A leading `no ` and the rest of the line.
pub(super) fn negation(i: &str) -> (&str, bool) {
    match i.strip_prefix("no ") {
        Some(rest) => (rest.trim_start_matches(' '), true),
        None => (i, false),
    }
}

/// Spaces and tabs (nom's `space0`/`space1`, for `&str` bytes without decoding chars).
pub(super) fn spaces(i: &str) -> usize {
    i.bytes().take_while(|&b| b == b' ' || b == b'\t').count()
}

pub(super) fn space0(i: &str) -> R<'_, &str> {
    let n = spaces(i);
    Ok((&i[n..], &i[..n]))
}

pub(super) fn space1(i: &str) -> R<'_, &str> {
    match spaces(i) {
        0 => Err(nom::Err::Error(Expect { at: i, what: "" })),
        n => Ok((&i[n..], &i[..n])),
    }
}

pub(super) fn end(i: &str) -> R<'_, ()> {
    value((), (space0, eof)).parse(i)
}

/// A decimal number that fits `T`.
pub(super) fn number<T: TryFrom<u64>>(i: &str) -> R<'_, T> {
    let digits = i.bytes().take_while(u8::is_ascii_digit);
    let (n, v) = digits.fold((0usize, Some(0u64)), |(n, v), d| {
        let v = v.and_then(|v| v.checked_mul(10)?.checked_add(u64::from(d - b'0')));
        (n + 1, v)
    });
    match v.map(T::try_from) {
        Some(Ok(v)) if n > 0 => Ok((&i[n..], v)),
        _ => Err(nom::Err::Error(Expect { at: i, what: "" })),
    }
}

pub(super) fn bounded<'a, T>(
    what: &'static str,
    f: fn(i64) -> Result<T, String>,
) -> impl Parser<&'a str, Output = T, Error = Expect<'a>> {
    move |i: &'a str| match number::<i64>(i).map(|(r, v)| (r, f(v))) {
        Ok((r, Ok(v))) => Ok((r, v)),
        _ => Err(nom::Err::Error(Expect { at: i, what })),
    }
}

/// A number accepted only inside `range` (for `map_res`).
pub(super) fn within<T: PartialOrd>(
    range: std::ops::RangeInclusive<T>,
) -> impl Fn(T) -> Result<T, ()> {
    move |v| if range.contains(&v) { Ok(v) } else { Err(()) }
}

pub(super) fn priority(i: &str) -> R<'_, Priority> {
    bounded("a switch priority 0-7", Priority::new).parse(i)
}

pub(super) fn traffic_class(i: &str) -> R<'_, TrafficClass> {
    bounded("a traffic class 0-7", TrafficClass::new).parse(i)
}

pub(super) fn vlan(i: &str) -> R<'_, Vlan> {
    // Read without `number`'s overflow checks: a VLAN id has at most four digits.
    let b = i.as_bytes();
    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let v = b[..n.min(5)]
        .iter()
        .fold(0i64, |v, &d| v * 10 + i64::from(d - b'0'));
    match Vlan::new(v) {
        Ok(v) if (1..=5).contains(&n) => Ok((&i[n..], v)),
        _ => Err(nom::Err::Error(Expect {
            at: i,
            what: "a VLAN id 1-4094",
        })),
    }
}

/// `10`, `10-17`.
pub(super) fn vlan_span(i: &str) -> R<'_, (Vlan, Vlan)> {
    let (i, a) = vlan(i)?;
    let (i, b) = match i.strip_prefix('-') {
        Some(r) => vlan(r).map_err(to_failure)?,
        None => (i, a),
    };
    if b < a {
        return Err(nom::Err::Failure(Expect {
            at: i,
            what: "an increasing VLAN range",
        }));
    }
    Ok((i, (a, b)))
}

/// VLAN lists as Onyx prints them: `10-17`, `10,20,30-32` or space separated. A separator
/// is followed by the next span; anything else after a span ends the list.
pub(super) fn vlan_spans(i: &str, mut each: impl FnMut((Vlan, Vlan))) -> R<'_, ()> {
    let (mut rest, first) = vlan_span(i)?;
    each(first);
    loop {
        let b = rest.as_bytes();
        let sep = match b.first() {
            Some(b',') => 1,
            _ => b.iter().take_while(|&&c| c == b' ').count(),
        };
        if sep == 0 || !b.get(sep).is_some_and(u8::is_ascii_digit) {
            return Ok((rest, ()));
        }
        let (r, span) = vlan_span(&rest[sep..]).map_err(to_failure)?;
        each(span);
        rest = r;
    }
}

/// A VLAN list as its spans (`vlan 10-17 20`).
pub(super) fn vlan_list(i: &str) -> R<'_, Vec<(Vlan, Vlan)>> {
    let mut out = Vec::new();
    let (rest, ()) = vlan_spans(i, |s| out.push(s))?;
    Ok((rest, out))
}

/// A VLAN list as its ids (`allowed-vlan add 10-12` adds 10, 11 and 12).
pub(super) fn vlan_ids(i: &str) -> R<'_, Vlans> {
    let mut out: Option<Vlans> = None;
    let (rest, ()) = vlan_spans(i, |(a, b)| match &mut out {
        None if a == b => out = Some(Vlans::One(a)),
        None => out = Some(Vlans::Many(a.through(b).collect())),
        Some(Vlans::One(first)) => {
            out = Some(Vlans::Many(
                std::iter::once(*first).chain(a.through(b)).collect(),
            ));
        }
        Some(Vlans::Many(v)) => v.extend(a.through(b)),
    })?;
    Ok((rest, out.unwrap_or(Vlans::Many(Vec::new()))))
}

/// The text argument at the end of a line, as [`cli_text::read`] reads it.
pub(super) fn text(i: &str) -> R<'_, String> {
    match cli_text::read(i) {
        Ok(t) => Ok(("", t.to_string())),
        Err((at, what)) => Err(nom::Err::Failure(Expect { at: &i[at..], what })),
    }
}

pub(super) fn word_enum<'a, T: Copy>(
    what: &'static str,
    all: &'static [(&'static str, T)],
) -> impl Parser<&'a str, Output = T, Error = Expect<'a>> {
    ctx(
        what,
        map_res(word, move |w: &str| {
            all.iter().find(|(n, _)| *n == w).map(|(_, v)| *v).ok_or(())
        }),
    )
}

pub(super) fn force(i: &str) -> R<'_, ()> {
    value((), opt(preceded(space0, kw("force")))).parse(i)
}

pub(super) fn ipv4(i: &str) -> R<'_, Ipv4Addr> {
    ctx(
        "an IPv4 address",
        map_res(
            take_while1(|c: char| c.is_ascii_digit() || c == '.'),
            |a: &str| a.parse::<Ipv4Addr>(),
        ),
    )
    .parse(i)
}

/// `A.B.C.D/N`, or `A.B.C.D /N` as BGP and MLAG lines print it.
pub(super) fn prefix(i: &str) -> R<'_, Ipv4Net> {
    let (i, addr) = ipv4(i)?;
    let (i, _) = (space0, ctx("`/` and a prefix length", tag("/"))).parse(i)?;
    let (i, len) = ctx(
        "a prefix length 0-32",
        map_res(number::<u8>, |n| Ipv4Net::new(addr, n)),
    )
    .parse(i)?;
    Ok((i, len))
}

/// An AS number. A switch prints `router bgp 0 vrf default …` for an instance whose AS is not
/// set yet (oxidized's recorded 3.9.2504 session), so 0 reads too.
pub(super) fn asn(i: &str) -> R<'_, u32> {
    ctx("an AS number 0-4294967295", number::<u32>).parse(i)
}

/// One of `all`'s words, and the end of the line.
pub(super) fn last_word<'a, T: Copy>(
    i: &'a str,
    what: &'static str,
    all: &'static [(&'static str, T)],
) -> Result<T, nom::Err<Expect<'a>>> {
    all_consuming(terminated(word_enum(what, all), end))
        .parse(i)
        .map(|(_, v)| v)
        .map_err(to_failure)
}

/// Where a modeled command needs one of `words` next (`at` starts there): the line must not
/// end there, and the word there must not be only the beginning of one of them. A running
/// config prints every keyword in full, so either is a line cut short (by a pager, a terminal
/// or a size limit), never an abbreviation, and is an error rather than a line kept as it
/// is. A whole word the model does not know is the caller's to keep verbatim.
pub(super) fn whole_word<'a>(at: &'a str, words: &[&str]) -> Result<(), nom::Err<Expect<'a>>> {
    let at = &at[spaces(at)..];
    let w = &at[..at
        .bytes()
        .position(|b| b == b' ' || b == b'\t')
        .unwrap_or(at.len())];
    if w.is_empty() {
        return Err(nom::Err::Failure(Expect {
            at,
            what: "more words: the line ends early (cut short?)",
        }));
    }
    // Whole strings compared only where the length and the first byte allow a match: on
    // nearly every line `w` is one of `words`, and this runs on every modeled line.
    let like = |k: &&str| k.as_bytes().first() == w.as_bytes().first();
    if words
        .iter()
        .any(|k| k.len() == w.len() && like(k) && *k == w)
    {
        return Ok(());
    }
    if words
        .iter()
        .any(|k| k.len() > w.len() && like(k) && k.starts_with(w))
    {
        return Err(nom::Err::Failure(Expect {
            at,
            what: "a whole keyword, not the start of one (the line is cut short?)",
        }));
    }
    Ok(())
}

pub(super) fn to_failure(e: nom::Err<Expect<'_>>) -> nom::Err<Expect<'_>> {
    match e {
        nom::Err::Error(x) => nom::Err::Failure(x),
        other => other,
    }
}
