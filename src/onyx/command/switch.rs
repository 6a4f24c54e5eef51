//! Switch-wide lines: the CLI's prefix modes, the license, the hostname, and VLANs (created,
//! named, deleted).

use nom::Parser;
use nom::combinator::{all_consuming, map};
use nom::sequence::{preceded, terminated};

use super::lex::{
    Line, R, ctx, end, full, skw, space1, text, to_failure, vlan_list, whole_word, word,
};
use super::typed::Command;

/// `cli default prefix-modes enable` / its `no` form; other `cli` lines are not modeled.
pub(super) fn cli(no: bool, args: &str) -> Line<'_, Command> {
    if let Ok((rest, _)) = (skw("default"), skw("prefix-modes")).parse(args) {
        whole_word(rest, &["enable"])?;
    }
    let r: R<'_, _> = (skw("default"), skw("prefix-modes"), skw("enable"), end).parse(args);
    Ok(r.ok().map(|_| Command::PrefixModes(!no)))
}

/// `license install KEY`.
pub(super) fn license(args: &str) -> Line<'_, Command> {
    whole_word(args, &["install"])?;
    let Ok((rest, _)) = skw("install").parse(args) else {
        return Ok(None);
    };
    let (_, key) = all_consuming(terminated(
        preceded(space1, ctx("a license key", word)),
        end,
    ))
    .parse(rest)
    .map_err(to_failure)?;
    Ok(Some(Command::License(key.to_string())))
}

/// `hostname NAME` / `no hostname`.
pub(super) fn hostname(no: bool, args: &str) -> Line<'_, Command> {
    if no {
        return full(args, |x| Ok((x, Command::NoHostname)));
    }
    full(args, |x| {
        map(preceded(space1, ctx("a hostname", word)), |h| {
            Command::Hostname(h.to_string())
        })
        .parse(x)
    })
}

/// `vlan LIST` / `no vlan LIST`, and `vlan N name "TEXT"`; other VLAN attributes are not
/// modeled.
pub(super) fn vlan(no: bool, args: &str) -> Line<'_, Command> {
    let (rest, spans) = preceded(space1, ctx("a VLAN id or range", vlan_list))
        .parse(args)
        .map_err(to_failure)?;
    let rest_t = rest.trim();
    if rest_t.is_empty() {
        return Ok(Some(if no {
            Command::NoVlan(spans)
        } else {
            Command::VlanCreate(spans)
        }));
    }
    whole_word(rest_t, &["name"])?;
    if !no
        && let Some(name) = rest_t.strip_prefix("name ")
        && spans.len() == 1
        && spans[0].0 == spans[0].1
    {
        let (_, n) = text(name.trim_start()).map_err(to_failure)?;
        return Ok(Some(Command::VlanName(spans[0].0, n)));
    }
    Ok(None)
}
