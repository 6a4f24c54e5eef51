//! E075: on an OS whose QoS is one setting for the whole switch
//! ([`crate::targets::Rules::switch_wide_qos`]), the ports in use must agree on it: trust, PFC,
//! ECN and ETS, each checked at the line that gives the first port that differs its value.

use std::collections::BTreeMap;

use super::{Cx, Diagnostic, Pending};
use crate::fabric::PortSettings;
use crate::types::Port;

/// One setting as the ports hold it: its name, each port's value as text, where it is set.
type Value = (
    &'static str,
    fn(&PortSettings) -> String,
    fn(&super::SetAt) -> Option<crate::diag::Span>,
);

const SETTINGS: [Value; 4] = [
    (
        "trust",
        |s| s.trust.map_or("the OS's default".into(), |t| t.to_string()),
        |a| a.trust,
    ),
    ("PFC", |s| s.pfc.to_string(), |a| a.pfc),
    ("ECN", |s| ecn(s), |a| a.ecn),
    ("ETS", |s| ets(s), |a| a.ets),
];

fn ecn(s: &PortSettings) -> String {
    let parts: Vec<String> = s.ecn.iter().map(|(tc, e)| format!("tc {tc} {e}")).collect();
    if parts.is_empty() {
        "no ECN".into()
    } else {
        parts.join("; ")
    }
}

fn ets(s: &PortSettings) -> String {
    let parts: Vec<String> = s.ets.iter().map(|(tc, e)| format!("tc {tc} {e}")).collect();
    if parts.is_empty() {
        "the OS's scheduling".into()
    } else {
        parts.join("; ")
    }
}

pub(super) fn check(cx: &mut Cx, pending: &BTreeMap<String, Pending>) {
    for (name, p) in pending {
        let os = p.switch.os().target();
        let Some(title) = os.rules().switch_wide_qos() else {
            continue;
        };
        let in_use: Vec<(&Port, &PortSettings)> = p
            .switch
            .ports
            .iter()
            .filter(|(_, s)| !s.shutdown && s.bundle.is_none())
            .collect();
        for (what, value, at) in SETTINGS {
            let Some((first, s0)) = in_use.first() else {
                break;
            };
            let want = value(s0);
            let Some((port, s)) = in_use.iter().find(|(_, s)| value(s) != want) else {
                continue;
            };
            let span = p
                .set_at
                .get(port)
                .and_then(at)
                .or_else(|| p.set_at.get(first).and_then(at));
            let mut d = Diagnostic::error(
                "E075",
                format!(
                    "`{name}` runs {title}, whose {what} is switch-wide: {} has {}, {} {want}",
                    os.port_name(**port),
                    value(s),
                    os.port_name(**first)
                ),
            );
            if let Some(span) = span {
                d = d.at(span, format!("{what} of {}", os.port_name(**port)));
            }
            if let Some(other) = p
                .set_at
                .get(first)
                .and_then(at)
                .filter(|o| Some(*o) != span)
            {
                d = d.also(other, format!("{what} of {}", os.port_name(**first)));
            }
            cx.push(d.help("give every port in use the same value: in `port_defaults`, the switch's `qos`, or one profile"));
        }
    }
}
