//! Cumulus's answers to the validation of a fabric file ([`crate::targets::Rules`]): its
//! model table, its release (`cumulus: 5.9.2`, E074), its port names (`swp1`, `swp1-8`,
//! breakout members `swp1s0` …, E025/E072), breakouts (E042), the model's first release
//! (E034), the keys it has no meaning for, what its strings may hold, its defaults.

use crate::fabric::Hardware;
use crate::fabric::raw::{RawFabric, RawSwitch};
use crate::fabric::strings::{Alphabet, Field, Rule};
use crate::fabric::validate::SplitAsk;
use crate::fabric::validate::os::{Cx, Diagnostic, Sp, Span};
use crate::targets::{ModelCheck, Refused, Rules};
use crate::types::Port;

use super::models::{MODELS, model_of};

/// Cumulus's rules.
pub struct CumulusRules;

pub static RULES: CumulusRules = CumulusRules;

/// Characters an NVUE value never holds here: what the shell or NVUE's YAML would read as
/// something else is quoted when written (`tree::shell_word`), so only line breaks and tabs
/// are refused (`cli_text`).
const NVUE_TEXT: &[(char, &str)] = &[];

/// What NVUE prints of the fabric's strings: the hostname (`system hostname`), a port's
/// description (`interface swp1 description`). It prints no VLAN name, MLAG domain name,
/// pool name of the fabric's own, license or certificate.
pub const STRINGS: &[Rule] = &[
    Rule {
        field: Field::Hostname,
        alphabet: Alphabet::Label,
        max: 63,
        source: "RFC 1123 label (a Linux hostname), the rule Onyx's name takes so one name fits every OS",
    },
    Rule {
        field: Field::Description,
        alphabet: Alphabet::Text(NVUE_TEXT),
        max: 64,
        source: "UNCONFIRMED: NVUE's `description` limit is not in the command reference; Onyx's length, so one description fits every OS",
    },
];

/// `5.9.2`: three numbers, the first 5 (NVUE's releases), as `nv show system` prints its
/// build (`Cumulus Linux 5.3.0`).
pub fn release(text: &str) -> Option<(u8, u8, u8)> {
    let text = text.trim();
    let text = text.strip_prefix("Cumulus Linux ").unwrap_or(text);
    let parts: Vec<u8> = text
        .split('.')
        .map(|p| p.parse().ok().filter(|_| !p.is_empty() && p.len() <= 3))
        .collect::<Option<_>>()?;
    match parts[..] {
        [5, b, c] => Some((5, b, c)),
        _ => None,
    }
}

fn checked_release(cx: &mut Cx, v: &Sp<String>) -> Option<String> {
    match release(v.get()) {
        Some((a, b, c)) => Some(format!("{a}.{b}.{c}")),
        None => {
            cx.push(
                Diagnostic::error(
                    "E074",
                    format!("`{}` is not a Cumulus Linux release", v.get().escape_debug()),
                )
                .at(cx.span(v), "not a release")
                .help("a Cumulus Linux release is three numbers starting with 5, as `nv show system` prints its build: `5.9.2`"),
            );
            None
        }
    }
}

/// `swp5` → port 5; `swp5s2` → its breakout member 2 (`sub` 3: the fabric counts members
/// from 1, Cumulus from 0).
pub fn port(text: &str) -> Option<Port> {
    let rest = text.strip_prefix("swp")?;
    let (n, sub) = match rest.split_once('s') {
        Some((n, s)) => (n, Some(s)),
        None => (rest, None),
    };
    let digits = |s: &str| !s.is_empty() && s.len() <= 5 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(n) || !sub.is_none_or(digits) {
        return None;
    }
    let port: u16 = n.parse().ok().filter(|p| *p >= 1)?;
    let sub = match sub {
        Some(s) => Some(s.parse::<u8>().ok()?.checked_add(1)?),
        None => None,
    };
    Some(Port { slot: 1, port, sub })
}

/// `swp1`, `swp1-8`, `swp1-swp8`, `swp1s0-3`, `swp1s0-swp1s3`: the ports, or why not.
pub fn port_range(text: &str) -> Result<Vec<Port>, String> {
    let bad = || {
        format!(
            "`{}` is no Cumulus port or range (`swp1`, `swp1-8`, `swp1s0-3`)",
            text.escape_debug()
        )
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (a, Some(b)),
        None => (text, None),
    };
    let first = port(a).ok_or_else(bad)?;
    let Some(b) = b else {
        return Ok(vec![first]);
    };
    let last = match b.starts_with("swp") {
        true => port(b).ok_or_else(bad)?,
        false => {
            let n: u16 = b.parse().map_err(|_| bad())?;
            match first.sub {
                Some(_) => Port {
                    sub: Some(
                        u8::try_from(n)
                            .map_err(|_| bad())?
                            .checked_add(1)
                            .ok_or_else(bad)?,
                    ),
                    ..first
                },
                None => Port { port: n, ..first },
            }
        }
    };
    let same_kind = first.sub.is_some() == last.sub.is_some()
        && (first.sub.is_none() || first.port == last.port);
    if !same_kind || last < first {
        return Err(format!(
            "`{}` is no range: its ends are {}",
            text.escape_debug(),
            "not in order on one kind of port"
        ));
    }
    Ok(match first.sub {
        None => (first.port..=last.port).map(|n| Port::new(1, n)).collect(),
        Some(a) => (a..=last.sub.unwrap_or(a))
            .map(|s| Port {
                sub: Some(s),
                ..first
            })
            .collect(),
    })
}

impl Rules for CumulusRules {
    fn model(&self, name: &str) -> Option<Hardware> {
        let name = name.trim();
        // `nv config show`'s header writes `MSN2010`.
        let name = name
            .strip_prefix('M')
            .or_else(|| name.strip_prefix('m'))
            .filter(|n| n.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("SN")))
            .unwrap_or(name);
        MODELS
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(name))
            .map(|m| Hardware::new(m))
    }

    fn unknown_model(&self, cx: &mut Cx, model: &Sp<String>) -> Option<Hardware> {
        cx.push(
            Diagnostic::error(
                "E021",
                format!(
                    "unknown Cumulus Linux switch model `{}`",
                    model.get().escape_debug()
                ),
            )
            .at(cx.span(model), "not recognised")
            .help(format!("Cumulus models: {}", self.models())),
        );
        None
    }

    fn models(&self) -> String {
        let names: Vec<&str> = MODELS.iter().map(|m| m.name).collect();
        names.join(", ")
    }

    /// Its own `cumulus`, else the fabric's.
    fn release_text(&self, cx: &mut Cx, sw: &RawSwitch, fabric: Option<&String>) -> Option<String> {
        match &sw.cumulus {
            Some(v) => checked_release(cx, v),
            None => fabric.cloned(),
        }
    }

    fn fabric_release_text(&self, cx: &mut Cx, raw: &RawFabric) -> Option<String> {
        raw.cumulus.as_ref().and_then(|v| checked_release(cx, v))
    }

    fn typed_release(&self) -> bool {
        false
    }

    /// E034: a model on a release older than the first that runs it.
    fn check_model(&self, cx: &mut Cx, c: ModelCheck<'_>) {
        let (Some(m), Some(text)) = (model_of(c.model), c.release_text) else {
            return;
        };
        let Some(r) = release(text) else { return };
        if r < m.since {
            let (a, b, d) = m.since;
            cx.push(
                Diagnostic::error(
                    "E034",
                    format!(
                        "an {} needs Cumulus Linux {a}.{b}.{d} or later; `{}` runs {text}",
                        m.name, c.name
                    ),
                )
                .at(c.model_at, format!("not on {text}"))
                .help(format!(
                    "write the release the switch runs ({}): `cumulus: {a}.{b}.{d}` or later",
                    m.since_source
                )),
            );
        }
    }

    fn foreign_keys(
        &self,
        cx: &Cx,
        _raw: &RawFabric,
        _name: &str,
        sw: &RawSwitch,
        found: &mut Vec<Refused>,
    ) {
        if let Some(v) = &sw.onyx {
            found.push((
                "onyx",
                cx.span(v),
                "the Onyx release; a Cumulus switch's is `cumulus`",
            ));
        }
        if let Some(v) = &sw.os10 {
            found.push((
                "os10",
                cx.span(v),
                "the OS10 release; a Cumulus switch's is `cumulus`",
            ));
        }
        if let Some(v) = sw.licenses.as_ref().and_then(|l| l.first()) {
            found.push((
                "licenses",
                cx.span(v),
                "Onyx license keys; Cumulus Linux 5.x needs none",
            ));
        }
        if let Some(v) = &sw.certificate {
            found.push((
                "certificate",
                cx.span(v),
                "Onyx's web certificate ID; NVUE prints none",
            ));
        }
    }

    fn trust_both(&self) -> Option<&'static str> {
        None
    }

    fn names_ports(&self, text: &str) -> bool {
        text.starts_with("swp")
    }

    fn ports(&self, cx: &mut Cx, t: &str, at: Span) -> Option<Vec<Port>> {
        let me = super::target::OS;
        let other = crate::fabric::Os::all()
            .filter(|o| *o != me)
            .find(|o| o.target().rules().names_ports(t));
        if let Some(other) = other {
            cx.push(
                Diagnostic::error(
                    "E072",
                    format!(
                        "`{}` is an {other} port name, and this switch runs Cumulus Linux",
                        t.escape_debug()
                    ),
                )
                .at(at, format!("{other} port name"))
                .help("Cumulus names ports `swp5`, ranges `swp1-8`, breakout members `swp5s0`"),
            );
            return None;
        }
        match port_range(t) {
            Ok(p) => Some(p),
            Err(msg) => {
                cx.error("E025", msg, at, "not a port or range");
                None
            }
        }
    }

    /// `link breakout 2x|4x|8x` of the model's ports (E042 where a port does not break out
    /// so).
    fn split(&self, cx: &mut Cx, s: SplitAsk<'_>) {
        let at = cx.span(s.key);
        let Some(model) = model_of(s.p.switch.model) else {
            return;
        };
        let Ok(ports) = port_range(s.key.get()) else {
            cx.error(
                "E025",
                format!(
                    "`{}` is no Cumulus port or range",
                    s.key.get().escape_debug()
                ),
                at,
                "not a port or range",
            );
            return;
        };
        for port in ports {
            if port.sub.is_some() {
                cx.error(
                    "E042",
                    format!(
                        "`{}` is a breakout member: it does not break out again",
                        super::target::port_name(port)
                    ),
                    at,
                    "a member",
                );
                continue;
            }
            match model.check_split(port.port, s.split) {
                Ok(()) => {
                    s.p.switch.splits.insert(port, s.split);
                    s.split_at.insert(port, at);
                }
                Err(why) => {
                    let ways_at = cx.span(s.ways);
                    cx.push(
                        Diagnostic::error(
                            "E042",
                            format!(
                                "{} of {} cannot break out {} ways: {why}",
                                super::target::port_name(port),
                                model.name,
                                s.split.ways()
                            ),
                        )
                        .at(ways_at, "not this way"),
                    );
                }
            }
        }
    }

    /// NVUE's BFD: transmit and receive intervals 50-60000 ms (UNCONFIRMED: FRR's bfdd
    /// limits, which NVUE renders to).
    fn bfd_limits(&self) -> (u32, u32) {
        (60000, 60000)
    }

    /// `qos traffic-pool NAME memory-percent N` [doc: DOC-QOS "Flow Control Buffers"].
    fn pool_memory(&self) -> bool {
        true
    }

    fn strings(&self) -> &'static [Rule] {
        STRINGS
    }

    /// NVUE's QoS is the `default-global` profiles (DOC-QOS; per-port profiles from 5.4 are
    /// not compiled).
    fn switch_wide_qos(&self) -> Option<&'static str> {
        Some("Cumulus Linux")
    }

    /// BGP unnumbered is Cumulus's own way to peer over a cable (DOC-BGPEX: `neighbor swp51
    /// remote-as external`, stored `type: unnumbered`).
    fn unnumbered(&self) -> bool {
        true
    }

    /// 9216: NVUE's `link mtu` default (`nv set interface swp1 link mtu ?`, DOC-CLI).
    fn default_mtu(&self) -> u16 {
        9216
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cumulus_port_names() {
        assert_eq!(port("swp5"), Some(Port::new(1, 5)));
        assert_eq!(port("swp5s0").and_then(|p| p.sub), Some(1));
        assert_eq!(port("swp0"), None);
        assert_eq!(port("swp"), None);
        assert_eq!(port("swp1s"), None);
        assert_eq!(port("eth0"), None);
        assert_eq!(port_range("swp1-3").unwrap().len(), 3);
        assert_eq!(port_range("swp1-swp3").unwrap().len(), 3);
        assert_eq!(port_range("swp1s0-3").unwrap().len(), 4);
        assert!(port_range("swp3-1").is_err());
        assert!(port_range("swp1s0-swp2s1").is_err());
        assert!(port_range("swp1-x").is_err());
    }

    #[test]
    fn cumulus_releases() {
        assert_eq!(release("5.9.2"), Some((5, 9, 2)));
        assert_eq!(release("Cumulus Linux 5.12.0"), Some((5, 12, 0)));
        assert_eq!(release("4.4.0"), None);
        assert_eq!(release("5.9"), None);
        assert_eq!(release("5..1"), None);
    }
}
