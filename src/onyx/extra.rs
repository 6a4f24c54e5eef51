//! Onyx's answers for a fabric's `extra` lines ([`crate::targets::Rules::not_configuration`],
//! [`crate::targets::Rules::extra_line`]): what is configuration, what reads in its grammar,
//! and what the format writes itself.

/// Why an `extra` line is refused by Onyx's grammar or is what the format writes; `None` when
/// it is a line the format leaves to `extra`.
pub(crate) fn line(text: &str) -> Option<String> {
    match super::command::parse(text) {
        Ok(Some(cmd)) => modeled_by_the_format(&cmd)
            .map(|key| format!("is what the fabric format writes as {key}; write it there")),
        Ok(None) => None,
        Err(e) => Some(format!("is not valid Onyx at column {}: {e}", e.column + 1)),
    }
}

/// Why `line` is not a line of configuration, when it is not: a command a switch runs
/// (`reload`, `configuration write`, `exit`, `show …`) pasted from a golden onto a switch would
/// run, not configure. A configuration line starts with one of Onyx's configuration words
/// ([`super::command::TOP_LEVEL`]), and is not one of the session commands that share a
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
    (!super::command::TOP_LEVEL.contains(&first)).then(|| {
        format!(
            "is not configuration: no running-config line starts with `{first}`; pasted from a golden, it would run as a command"
        )
    })
}

/// The fabric key that writes `cmd`, when the format models it (so it has no place in
/// `extra`, where it would fight the fabric's own setting).
fn modeled_by_the_format(cmd: &super::Command) -> Option<&'static str> {
    use super::{Command as C, Iface, IfaceCmd as I};
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
        | C::Protocol(super::Protocol::Bgp, _)
        | C::Bgp(..)
        | C::NoBgp(_) => "`routing`",
        C::Protocol(super::Protocol::Bfd, _) | C::BfdInterval(_) => "`routing.bfd`",
        C::Protocol(super::Protocol::Mlag, _)
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
