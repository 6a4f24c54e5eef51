//! `extra` lines: configuration the format does not model, checked against the Onyx grammar,
//! refused when a running config would never hold it or when the format writes it itself.

use super::*;

/// A switch's `extra` lines: section titles and lines on one line each, no section header
/// (`##`), and every line the Onyx grammar knows well-formed (E080 at the line).
pub(crate) fn extra(
    cx: &mut Cx,
    raw: Option<&Entries<String, Vec<Sp<String>>>>,
) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for (title, lines) in raw.map_or(&[][..], |e| &e.0[..]) {
        let title_ok = !title.get().trim().is_empty()
            && !title.get().chars().any(char::is_control)
            && title.get().trim() == title.get();
        if !title_ok {
            let at = cx.span(title);
            cx.error(
                "E080",
                format!("`{}` is not a section title", title.get().escape_debug()),
                at,
                "as the switch prints it after `## `, e.g. `Other IP configuration`",
            );
            continue;
        }
        let mut kept = Vec::new();
        for line in lines {
            let text = line.get().trim();
            let at = cx.span(line);
            let problem = if let Some(c) = text.chars().find(|c| c.is_control()) {
                Some(format!(
                    "contains {}, which would break the line",
                    describe_char(c)
                ))
            } else if text.is_empty() {
                Some("is empty".to_string())
            } else if text.starts_with("##") {
                Some("is a section header; sections are the keys of `extra`".to_string())
            } else if let Some(why) = not_configuration(text) {
                Some(why)
            } else if crate::secrets::masked_in_command(text) {
                // A line copied from masked output (a live import, a backup): pushed, it
                // would set the secret to the mask.
                Some("holds a masked secret, which a push would set as the secret; write the secret, or leave the line out (a line the fabric does not write stays as it is on the switch)".to_string())
            } else {
                match crate::onyx::command::parse(text) {
                    Ok(Some(cmd)) => modeled_by_the_format(&cmd).map(|key| {
                        format!("is what the fabric format writes as {key}; write it there")
                    }),
                    Ok(None) => None,
                    Err(e) => Some(format!("is not valid Onyx at column {}: {e}", e.column + 1)),
                }
            };
            match problem {
                Some(p) => cx.error("E080", format!("`extra` line {p}"), at, "this line"),
                None => kept.push(text.to_string()),
            }
        }
        out.push((title.get().clone(), kept));
    }
    out
}

/// Why `line` is not a line of configuration, when it is not: a command a switch runs
/// (`reload`, `configuration write`, `exit`, `show …`) pasted from a golden onto a switch would
/// run, not configure. A configuration line starts with one of Onyx's configuration words
/// ([`crate::onyx::command::TOP_LEVEL`]), and is not one of the session commands that share a
/// word with configuration.
pub(crate) fn not_configuration(line: &str) -> Option<String> {
    /// Lines that start with a configuration word but act on the session or the switch.
    const SESSION: &[&str] = &["cli session", "cli clear-history", "no cli session"];
    if line.starts_with('#') {
        // A comment the switch prints (a masked secret, the certificate's ID).
        return None;
    }
    let first = line.strip_prefix("no ").unwrap_or(line);
    let first = first.split([' ', '\t']).next().unwrap_or("");
    if SESSION
        .iter()
        .any(|s| line == *s || line.starts_with(&format!("{s} ")))
    {
        return Some(format!(
            "is not configuration: `{}` changes the CLI session, not the switch's configuration",
            line.split(' ').take(2).collect::<Vec<_>>().join(" ")
        ));
    }
    (!crate::onyx::command::TOP_LEVEL.contains(&first)).then(|| {
        format!(
            "is not configuration: no running-config line starts with `{first}`; pasted from a golden, it would run as a command"
        )
    })
}

/// The fabric key that writes `cmd`, when the format models it (so it has no place in
/// `extra`, where it would fight the fabric's own setting).
pub(crate) fn modeled_by_the_format(cmd: &crate::onyx::Command) -> Option<&'static str> {
    use crate::onyx::{Command as C, Iface, IfaceCmd as I};
    Some(match cmd {
        C::PrefixModes(_) => "nothing: every switch prints it",
        C::License(_) => "`licenses`",
        C::Hostname(_) | C::NoHostname => "the switch's name (or `set_hostname: false`)",
        C::Lldp(_) => "`lldp`",
        C::Roce(_) => "`qos.roce`",
        C::PoolType(..) | C::PoolMemory(..) | C::PoolMap(..) | C::PoolUnmap(..) | C::NoPool(_) => {
            "`qos.pools`"
        }
        C::PfcEnable(_) | C::PfcPriority(..) => "`qos.pfc`",
        C::Interface(r, c) if matches!(r.first, Iface::Ethernet(_)) => match c {
            I::Speed(_) | I::NoSpeed => "`speed`",
            I::Mtu(_) | I::NoMtu => "`mtu`",
            I::Description(_) | I::NoDescription => "`description`",
            I::Shutdown(_) => "`admin`",
            I::Split(_) | I::NoSplit => "`split`",
            I::SwitchportMode(_) => "`switchport`",
            I::AccessVlan(_) | I::NoAccessVlan => "`vlan`",
            I::Trust(_) | I::NoTrust => "`trust`",
            I::Ecn(..) | I::NoEcn(_) => "`ecn`",
            I::Ets(..) | I::NoEts(_) => "`ets`",
            I::PfcMode(_) => "`pfc`",
            I::Routed(_) | I::Address(_) | I::NoAddress => "a routed link, or a port's `address`",
            I::Ipl(_) | I::NoIpl(_) | I::IplPeer(..) | I::NoIplPeer(_) => "`mlag`",
            I::StpPortType(_)
            | I::NoStpPortType
            | I::Bpduguard(_)
            | I::NoBpduguard
            | I::StpGuard(_)
            | I::NoStpGuard => "`stp` (and `host_ports`)",
            I::LacpIndividual(_) => "`lacp_individual` on the bundle's members",
            I::Create | I::AllowedVlan(..) | I::ChannelGroup(_) | I::NoChannelGroup { .. } => {
                return None;
            }
        },
        C::IpRouting(_)
        | C::LoadSharing(..)
        | C::Protocol(crate::onyx::Protocol::Bgp, _)
        | C::Bgp(..)
        | C::NoBgp(_) => "`routing`",
        C::Protocol(crate::onyx::Protocol::Bfd, _) | C::BfdInterval(_) => "`routing.bfd`",
        C::Protocol(crate::onyx::Protocol::Mlag, _)
        | C::MlagShutdown(_)
        | C::MlagSystemMac(_)
        | C::MlagVip(_) => "`mlag`",
        C::Lacp(_) => "a LAG link (`role: lag`)",
        C::SpanningTree(_) => "`stp`",
        C::VlanCreate(_)
        | C::VlanName(..)
        | C::NoVlan(_)
        | C::Interface(..)
        | C::NoInterface(_) => {
            return None;
        }
    })
}
