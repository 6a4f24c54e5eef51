//! The `show` commands that read the network ([`crate::lab::network`]), printed
//! in the layouts of captured Onyx output: `show ip bgp summary`
//! (`tests/fixtures/corpus/onyx/more/cray-docs-csm__sw-spine-001__show_ip_bgp_summary_5_neighbors.txt`,
//! `…show_ip_bgp_vrf_all_summary.txt`) and `show mlag`
//! (`…cray-docs-csm__sw-spine-002__show_mlag.txt`). Column widths are the captures'; what
//! they do not show (states other than ESTABLISHED, a session never up, counters) is in
//! [`super::cli::Unconfirmed`].

use std::fmt::Write as _;
use std::time::Duration;

use super::{Cx, Shown};
use crate::lab::cli::Unconfirmed;
use crate::lab::network::{BgpView, MlagPortState, MlagView, Network, SessionState, base_mac};

/// Keepalives a second established session exchanges (the capture's `keepalive interval in
/// seconds (established with peer): 30`), for the message counters.
const KEEPALIVE: u64 = 30;

/// `show ip bgp summary` of the default VRF: empty without a BGP instance (UNCONFIRMED).
pub fn bgp_summary(cx: &Cx<'_>) -> Shown {
    Shown::text(cx.net(|net, network, me| {
        net.bgp()
            .get(me)
            .map(|v| bgp_text(me, v, network))
            .unwrap_or_default()
    }))
}

/// `show mlag` (its protocol on).
pub fn mlag(cx: &Cx<'_>) -> Shown {
    let hostname = cx.sw.hostname();
    Shown::text(cx.net(|net, network, me| {
        net.mlag()
            .map(|v| mlag_text(me, hostname, &v, network))
            .unwrap_or_default()
    }))
}

fn bgp_text(me: &str, view: &BgpView, network: &Network) -> String {
    let version = view.prefixes;
    let mut out = String::new();
    let _ = write!(
        out,
        "\nVRF name                  : default\nBGP router identifier     : {}\nlocal AS number           : {}\nBGP table version         : {version}\nMain routing table version: {version}\nIPV4 Prefixes             : {}\nIPV6 Prefixes             : 0\nL2VPN EVPN Prefixes       : 0\n\n",
        view.router_id, view.asn, view.prefixes
    );
    let rule = "-".repeat(114);
    let _ = writeln!(out, "{rule}");
    let _ = writeln!(
        out,
        "{:<18}{:<5}{:<13}{:<10}{:<10}{:<10}{:<7}{:<7}{:<14}State/PfxRcd",
        "Neighbor", "V", "AS", "MsgRcvd", "MsgSent", "TblVer", "InQ", "OutQ", "Up/Down"
    );
    let _ = writeln!(out, "{rule}");
    for s in &view.sessions {
        let up = s.state == SessionState::Established;
        let (age, toggles) = network.since(&format!("{me} bgp {}", s.neighbor), up);
        let (rcvd, sent, tblver, updown, state) = if up {
            let keepalives = age.as_secs() / KEEPALIVE;
            (
                2 + s.received as u64 + keepalives,
                2 + s.sent as u64 + keepalives,
                version,
                onyx_uptime(age),
                format!("ESTABLISHED/{}", s.received),
            )
        } else {
            let when = if toggles == 0 {
                Unconfirmed::BgpNeverUp.text().to_string()
            } else {
                onyx_uptime(age)
            };
            let state = match s.state {
                SessionState::Idle => Unconfirmed::BgpIdle,
                _ => Unconfirmed::BgpActive,
            };
            (0, 0, 0, when, state.text().to_string())
        };
        let _ = writeln!(
            out,
            "{:<18}{:<5}{:<13}{:<10}{:<10}{:<10}{:<7}{:<7}{:<14}{state}",
            s.neighbor.to_string(),
            4,
            s.remote_as,
            rcvd,
            sent,
            tblver,
            0,
            0,
            updown
        );
    }
    out
}

/// Days, hours, minutes and seconds.
fn dhms(d: Duration) -> (u64, u64, u64, u64) {
    let s = d.as_secs();
    (s / 86_400, s / 3_600 % 24, s / 60 % 60, s % 60)
}

/// A session's age as the capture prints it: `1:01:50:41`, `13:20:11:58`.
fn onyx_uptime(d: Duration) -> String {
    let (d, h, m, s) = dhms(d);
    format!("{d}:{h:02}:{m:02}:{s:02}")
}

/// An MLAG peer link's up time as the capture prints it: `19 days, 18:25:56`.
fn ipl_uptime(d: Duration) -> String {
    let (d, h, m, s) = dhms(d);
    format!("{d} days, {h:02}:{m:02}:{s:02}")
}

fn mlag_text(me: &str, hostname: &str, view: &MlagView, network: &Network) -> String {
    let mut out = String::new();
    let on = |b: bool, yes: &'static str, no: Unconfirmed| if b { yes } else { no.text() };
    let _ = writeln!(
        out,
        "Admin status: {}",
        on(view.admin, "Enabled", Unconfirmed::MlagDisabled)
    );
    let _ = writeln!(
        out,
        "Operational status: {}",
        on(view.oper, "Up", Unconfirmed::MlagDown)
    );
    out.push_str("Reload-delay: 30 sec\nKeepalive-interval: 1 sec\nUpgrade-timeout: 60 min\n");
    let mac = view
        .system_mac
        .map_or_else(|| base_mac(me).to_string(), |m| m.to_string());
    let _ = writeln!(out, "System-mac: {mac}");
    let count =
        |f: &dyn Fn(MlagPortState) -> bool| view.ports.iter().filter(|(_, s)| f(*s)).count();
    let disabled = count(&|s| s == MlagPortState::Disabled);
    let _ = write!(
        out,
        "\nMLAG Ports Configuration Summary:\n Configured: {}\n Disabled:   {disabled}\n Enabled:    {}\n",
        view.ports.len(),
        view.ports.len() - disabled
    );
    let _ = write!(
        out,
        "\nMLAG Ports Status Summary:\n Inactive:       {}\n Active-partial: {}\n Active-full:    {}\n",
        count(&|s| s == MlagPortState::Inactive),
        count(&|s| s == MlagPortState::ActivePartial),
        count(&|s| s == MlagPortState::ActiveFull)
    );
    let rule = "-".repeat(161);
    let _ = write!(
        out,
        "\nMLAG IPLs Summary:\n{rule}\n{:<5}{:<14}{:<11}{:<13}{:<41}{:<41}{:<21}Toggle Counter\n{:<5}{:<14}{:<11}{:<13}{:<41}IP address\n{rule}\n",
        "ID",
        "Group",
        "Vlan",
        "Operational",
        "Local",
        "Peer",
        "Up Time",
        "",
        "Port-Channel",
        "Interface",
        "State",
        "IP address"
    );
    if let Some(ipl) = &view.ipl {
        let (age, toggles) = network.since(&format!("{me} ipl {}", ipl.id), ipl.up);
        let text = |v: Option<String>| v.unwrap_or_else(|| Unconfirmed::MlagNone.text().into());
        let _ = writeln!(
            out,
            "{:<5}{:<14}{:<11}{:<13}{:<41}{:<41}{:<21}{toggles}",
            ipl.id,
            text(ipl.port_channel.map(|n| format!("Po{n}"))),
            text(ipl.vlan.map(|v| v.to_string())),
            on(ipl.up, "Up", Unconfirmed::MlagDown),
            text(ipl.local.map(|a| a.to_string())),
            text(ipl.peer.map(|a| a.to_string())),
            if ipl.up {
                ipl_uptime(age)
            } else {
                Unconfirmed::MlagNone.text().into()
            },
        );
    }
    let members = "-".repeat(69);
    let _ = write!(
        out,
        "\nMLAG Members Summary:\n{members}\n{:<20}{:<29}Hostname\n{members}\n",
        "System-id", "State"
    );
    let _ = writeln!(
        out,
        "{:<20}{:<29}<{hostname}>",
        base_mac(me).to_string(),
        "Up"
    );
    if let Some(peer) = &view.peer {
        let state = on(view.oper, "Up", Unconfirmed::MlagDown);
        let _ = writeln!(out, "{:<20}{state}", base_mac(peer).to_string());
    }
    out
}
