//! Switch-wide QoS lines: RoCE's mode (`roce …`), shared buffer pools (`traffic pool …`) and
//! PFC (`dcb priority-flow-control …`).

use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::take_while1;
use nom::combinator::{all_consuming, map, map_res, opt};
use nom::multi::separated_list1;
use nom::sequence::{preceded, terminated};

use super::lex::{
    Line, R, ctx, end, force, full, priority, skw, space1, to_failure, whole_word, word_enum,
};
use super::typed::Command;
use crate::types::{Percent, PoolType, RoceMode};

/// `roce [lossless|semi-lossless|lossy]` / `no roce`.
pub(super) fn roce(no: bool, args: &str) -> Line<'_, Command> {
    if no {
        return full(args, |x| Ok((x, Command::Roce(None))));
    }
    full(args, |x| {
        let (x, m) = opt(preceded(
            space1,
            word_enum("`lossless`, `semi-lossless` or `lossy`", RoceMode::ALL),
        ))
        .parse(x)?;
        Ok((x, Command::Roce(Some(m.unwrap_or(RoceMode::Lossless)))))
    })
}

/// `traffic pool NAME …` / `no traffic pool NAME`; other `traffic` lines are not modeled.
pub(super) fn traffic_pool(no: bool, args: &str) -> Line<'_, Command> {
    whole_word(args, &["pool"])?;
    let Ok((rest, _)) = skw("pool").parse(args) else {
        return Ok(None);
    };
    let (rest, name) = preceded(space1, pool_name)
        .parse(rest)
        .map_err(to_failure)?;
    if no {
        let (_, _) = all_consuming(end).parse(rest).map_err(to_failure)?;
        return Ok(Some(Command::NoPool(name)));
    }
    whole_word(rest, &["map", "memory", "no", "type"])?;
    let r = all_consuming(terminated(|x| pool_setting(&name, x), end)).parse(rest);
    match r {
        Ok((_, c)) => Ok(Some(c)),
        // A pool attribute the model does not know stays verbatim.
        Err(nom::Err::Error(_)) if !rest.trim_start().starts_with(['t', 'm', 'n']) => Ok(None),
        Err(e) => Err(to_failure(e)),
    }
}

/// What a `traffic pool NAME …` line sets after the name: the pool's type, its share of the
/// memory, or the priorities mapped to it or taken from it.
fn pool_setting<'a>(name: &str, i: &'a str) -> R<'a, Command> {
    alt((
        map(
            preceded(
                (skw("type"), space1),
                word_enum("`lossless`, `lossy` or `lossy-mc`", PoolType::ALL),
            ),
            |t| Command::PoolType(name.to_string(), t),
        ),
        map(
            preceded(
                (skw("memory"), skw("percent"), space1),
                ctx(
                    "a percentage 0-100",
                    map_res(
                        take_while1(|c: char| c.is_ascii_digit() || c == '.'),
                        |p: &str| {
                            p.parse::<f64>()
                                .map_err(|e| e.to_string())
                                .and_then(Percent::from_f64)
                        },
                    ),
                ),
            ),
            |p| Command::PoolMemory(name.to_string(), p),
        ),
        map(
            preceded(
                (skw("map"), skw("switch-priority"), space1),
                separated_list1(space1, priority),
            ),
            |l| Command::PoolMap(name.to_string(), l),
        ),
        map(
            preceded(
                (skw("no"), skw("map"), skw("switch-priority"), space1),
                separated_list1(space1, priority),
            ),
            |l| Command::PoolUnmap(name.to_string(), l),
        ),
    ))
    .parse(i)
}

/// `dcb priority-flow-control enable force` and `… priority N enable` (and their `no`
/// forms); `application-priority`, `watchdog` and the rest are not modeled.
pub(super) fn pfc(no: bool, args: &str) -> Line<'_, Command> {
    whole_word(args, &["application-priority", "priority-flow-control"])?;
    let Ok((rest, _)) = skw("priority-flow-control").parse(args) else {
        return Ok(None);
    };
    whole_word(rest, &["enable", "priority", "watchdog"])?;
    if let Ok((r, _)) = skw("enable").parse(rest) {
        let (_, _) = all_consuming(terminated(force, end))
            .parse(r)
            .map_err(to_failure)?;
        return Ok(Some(Command::PfcEnable(!no)));
    }
    if let Ok((r, _)) = skw("priority").parse(rest) {
        let (_, p) = all_consuming(terminated(
            preceded(space1, priority),
            (ctx("`enable`", skw("enable")), end),
        ))
        .parse(r)
        .map_err(to_failure)?;
        return Ok(Some(Command::PfcPriority(p, !no)));
    }
    Ok(None)
}

/// A buffer pool's name.
fn pool_name(i: &str) -> R<'_, String> {
    ctx(
        "a pool name",
        map(
            take_while1(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            str::to_string,
        ),
    )
    .parse(i)
}
