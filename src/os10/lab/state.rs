//! The `show` commands of the lab's OS10 switch whose answers the network around it decides:
//! `show lldp neighbors`, `show interface status`, `show ip bgp summary`, `show vlt N` (and
//! its `vlt-port-detail`, [`super::vlt`]). Each reads the
//! network ([`crate::lab::network::Net`]) with this switch stated in its terms
//! ([`super::net::view`]), so an OS10 port's link, neighbor and sessions come from both ends
//! of its cable exactly as an Onyx port's do.
//!
//! Also `show interface NAME priority-flow-control`, whose operational status is its link's.
//!
//! Layouts: `show lldp neighbors` is the AzureStack TOR's (10.5.3.2), `show interface status`
//! CSM `sw-10g01`'s; `show ip bgp summary` and `show interface NAME priority-flow-control`
//! have no capture, their layouts are in the [`Unconfirmed`] table.

use std::fmt::Write as _;
use std::time::Duration;

use super::net::port_of;
use super::{Os10Switch, Unconfirmed};
use crate::lab::network::{Network, SessionState, World, base_mac};
use crate::os10::{self, Eth, Iface, SwitchportMode};
use crate::types::Port;

/// Whether `show WORDS…` is one of these.
pub fn reads_network(words: &[&str]) -> bool {
    matches!(
        words,
        ["lldp", "neighbors"]
            | ["interface", "status"]
            | ["ip", "bgp", "summary"]
            | ["ip", "route", ..]
            | ["ip", "interface", "brief"]
            | ["vlt", _]
            | ["vlt", _, "vlt-port-detail"]
            | ["interface", _, "priority-flow-control"]
            | ["interface", _, _, "priority-flow-control"]
            | ["interface"]
            | ["queuing", "statistics", "interface", ..]
    )
}

/// Runs `f` over the network the switch is cabled into, or over the switch alone.
pub(super) fn in_world<R>(
    sw: &Os10Switch,
    world: Option<&World>,
    f: impl FnOnce(&World) -> R,
) -> R {
    match world {
        Some(w) => f(w),
        None => f(&World::alone(sw.hostname(), super::net::node(&sw.running))),
    }
}

/// `show WORDS…`, over `world` (the switch alone when it is not cabled into one); `None` for
/// a command this module does not answer.
pub fn show(sw: &Os10Switch, words: &[&str], world: Option<&World>) -> Option<String> {
    in_world(sw, world, |world| answer(sw, words, world))
}

fn answer(sw: &Os10Switch, words: &[&str], world: &World) -> Option<String> {
    let net = world.net();
    Some(match words {
        ["lldp", "neighbors"] => lldp(sw, &net),
        ["interface", "status"] => status(sw, &net, &world.network),
        ["ip", "bgp", "summary"] => bgp(&net, &world.network),
        ["ip", "route", rest @ ..] => route(&net, &world.network, rest)?,
        ["ip", "interface", "brief"] => ip_brief(sw, &net),
        ["vlt", id] | ["vlt", id, "vlt-port-detail"] => {
            let id: u8 = id.parse().ok()?;
            let shown = if words.len() == 2 {
                super::vlt::show(&net, id)
            } else {
                super::vlt::port_detail(&net, id)
            };
            shown.unwrap_or_else(|| format!("{}\n", Unconfirmed::NoVltDomain.text()))
        }
        ["interface", name @ .., "priority-flow-control"] => pfc(sw, world, name),
        ["interface"] => super::counters::show_interface(sw, Some(world)),
        ["queuing", "statistics", "interface", name @ ..] => match Iface::parse_words(name) {
            Ok(Some(Iface::Ethernet(e))) => super::counters::queuing(sw, Some(world), e)
                .unwrap_or_else(|| format!("{}\n", Unconfirmed::NoSuchInterface.text())),
            _ => format!("{}\n", super::ILLEGAL),
        },
        _ => return None,
    })
}

/// `show interface NAME priority-flow-control` (layout: the [`Unconfirmed`] table): whether
/// the interface is in PFC mode (`priority-flow-control mode on`), operational when it is and
/// its link is up (the lab runs no DCBX: the mode is taken as set), and the priorities its
/// network-qos policy pauses ([`os10::Config::paused_priorities`]), then the PFC frames the
/// port counted ([`super::counters::pfc_rows`]). A front-panel port the model lacks or a port-channel the configuration
/// does not have is not an interface here.
fn pfc(sw: &Os10Switch, world: &World, name: &[&str]) -> String {
    let net = world.net();
    let iface = match Iface::parse_words(name) {
        Ok(Some(i @ (Iface::Ethernet(_) | Iface::PortChannel(_)))) => i,
        _ => return format!("{}\n", super::ILLEGAL),
    };
    let up = match iface {
        Iface::Ethernet(e) if ports(sw).iter().any(|(x, _)| *x == e) => {
            net.port_up(net.me, port_of(e))
        }
        Iface::PortChannel(n) if sw.running.interfaces.contains_key(&iface) => {
            let vlt = sw.running.interfaces[&iface].vlt_port_channel.is_some();
            let i = if vlt {
                crate::onyx::Iface::MlagPortChannel(n)
            } else {
                crate::onyx::Iface::PortChannel(n)
            };
            net.iface_up(net.me, i)
        }
        _ => return format!("{}\n", Unconfirmed::NoSuchInterface.text()),
    };
    let admin = sw.running.interfaces.get(&iface).is_some_and(|i| i.pfc);
    let word = |on: bool| {
        if on {
            Unconfirmed::PfcEnabled.text()
        } else {
            Unconfirmed::PfcDisabled.text()
        }
    };
    let paused: os10::Ranges = sw.running.paused_priorities(&iface).into_iter().collect();
    let mut out = String::new();
    for (line, value) in [
        (Unconfirmed::PfcInterface, iface.to_string()),
        (Unconfirmed::PfcAdmin, word(admin).to_string()),
        (Unconfirmed::PfcOper, word(admin && up).to_string()),
        (Unconfirmed::PfcPriorities, paused.to_string()),
    ] {
        let _ = writeln!(out, "{}", line.text().replace("{}", &value).trim_end());
    }
    let port = match iface {
        Iface::Ethernet(e) => Some(port_of(e)),
        _ => None,
    };
    out.push_str(&super::counters::pfc_rows(sw, Some(world), port));
    out
}

/// The switch's front-panel ports as it names them: each port, its subports where it is
/// broken out (`interface breakout 1/1/53 map 25g-4x`, or its port group's mode), or the name
/// its port group's mode gives it (`ethernet1/1/17:1` in `10g-4x`), with their speed in Gb/s.
pub(super) fn ports(sw: &Os10Switch) -> Vec<(Eth, u16)> {
    os10::groups::interfaces(&sw.running, sw.model)
}

/// `show lldp neighbors`: each port that has learned a neighbor, in the TOR's columns (a host
/// name longer than 20 characters cut to 17 and `...`, as the capture cuts
/// `B42-1060-r11-x32s...`). The chassis ID is the neighbor's base MAC.
fn lldp(sw: &Os10Switch, net: &crate::lab::network::Net<'_>) -> String {
    let mut out = String::from(
        "Loc PortID          Rem Host Name        Rem Port Id                    Rem Chassis Id\n",
    );
    out.push_str(&"-".repeat(86));
    out.push('\n');
    for (eth, _) in ports(sw) {
        let p = port_of(eth);
        let Some(n) = net.lldp_neighbor(net.me, p) else {
            continue;
        };
        let name = if n.system_name.chars().count() > 20 {
            format!("{}...", n.system_name.chars().take(17).collect::<String>())
        } else {
            n.system_name.clone()
        };
        let chassis = net
            .cabling
            .far(net.me, p)
            .map_or_else(|| base_mac(&n.system_name), |(f, _)| base_mac(f));
        let _ = writeln!(
            out,
            "{:<20}{name:<21}{:<30}{}",
            Iface::Ethernet(eth).to_string(),
            n.port_id,
            chassis.to_string().to_lowercase()
        );
    }
    out
}

/// `show interface status`: the front-panel ports, `up` at their speed (`25G`) when the
/// network has their link up, else `down` and `0` (captured, `sw-10g01`). Mode `A` with the
/// access VLAN (captured), `-` for a routed port (captured for linked ones), `T` with the
/// tagged VLANs for a trunk (UNCONFIRMED).
fn status(sw: &Os10Switch, net: &crate::lab::network::Net<'_>, network: &Network) -> String {
    let rule = "-".repeat(98);
    let mut out = format!(
        "   \n{rule}\nPort            Description     Status   Speed    Duplex   Mode Vlan Tagged-Vlans\n{rule}\n"
    );
    for (eth, speed) in ports(sw) {
        let p: Port = port_of(eth);
        let i = sw.running.interfaces.get(&Iface::Ethernet(eth));
        let desc: String = i
            .and_then(|i| i.description.as_deref())
            .unwrap_or("")
            .chars()
            .take(15)
            .collect();
        let mode = match i {
            Some(i) if i.routed => "-".to_string(),
            Some(i) if i.mode == Some(SwitchportMode::Trunk) => format!(
                "T    {:<4} {}",
                i.access_vlan.map_or(1, |v| v.get()),
                i.trunk_allowed
                    .as_ref()
                    .map_or("-".to_string(), os10::names::format_vlans)
            ),
            Some(i) => format!("A    {:<4} -", i.access_vlan.map_or(1, |v| v.get())),
            None => "A    1    -".to_string(),
        };
        let up = net.port_up(net.me, p);
        network.since(&format!("{} port {p}", net.me), up);
        let (state, speed) = if up {
            ("up", format!("{speed}G"))
        } else {
            ("down", "0".to_string())
        };
        let name = format!("Eth {}", &eth.to_string());
        let _ = writeln!(
            out,
            "{name:<16}{desc:<16}{state:<9}{speed:<9}{:<9}{mode}",
            "full"
        );
    }
    out.push_str(&rule);
    out.push('\n');
    out
}

/// `show ip interface brief` in the captured layout (grantcurell's 10.5.0.2 sessions: the
/// header one column left of the rows, `=` under it): every Ethernet interface of the
/// switch, then its management, VLAN, port-channel and loopback interfaces; an address with
/// `YES manual`, else `unassigned NO unset`; `up` unless shut (`admin down`, UNCONFIRMED),
/// and the protocol up when the network has the interface up. A loopback's row and name
/// (`Loopback 0`) are UNCONFIRMED.
fn ip_brief(sw: &Os10Switch, net: &crate::lab::network::Net<'_>) -> String {
    use crate::onyx::Iface as Net;
    let mut out = String::from(
        "Interface Name            IP-Address          OK       Method       Status     Protocol\n",
    );
    out.push_str(&"=".repeat(89));
    out.push('\n');
    let running = &sw.running;
    let mut rows: Vec<(String, Option<&os10::Interface>, bool)> = ports(sw)
        .into_iter()
        .map(|(eth, _)| {
            let e = Iface::Ethernet(eth);
            let up = net.iface_up(net.me, Net::Ethernet(port_of(eth)));
            (
                format!(
                    "Ethernet {}",
                    eth.to_string().trim_start_matches("ethernet")
                ),
                running.interfaces.get(&e),
                up,
            )
        })
        .collect();
    for (i, x) in &running.interfaces {
        let (name, up) = match i {
            Iface::Ethernet(_) => continue,
            Iface::Mgmt(a, b, c) => (format!("Management {a}/{b}/{c}"), true),
            Iface::Vlan(v) => (
                format!("Vlan {}", v.get()),
                net.iface_up(net.me, Net::Vlan(*v)),
            ),
            Iface::PortChannel(n) => {
                let mlag = x.vlt_port_channel.is_some();
                let up = net.iface_up(
                    net.me,
                    if mlag {
                        Net::MlagPortChannel(*n)
                    } else {
                        Net::PortChannel(*n)
                    },
                );
                (format!("Port-channel {n}"), up)
            }
            Iface::Loopback(n) => (format!("Loopback {n}"), x.shutdown != Some(true)),
        };
        rows.push((name, Some(x), up));
    }
    for (name, x, up) in rows {
        let (ip, ok, method) = match x.and_then(|x| x.address) {
            Some(a) => (a.to_string(), "YES", "manual"),
            None => ("unassigned".to_string(), "NO", "unset"),
        };
        let status = if x.is_some_and(|x| x.shutdown == Some(true)) {
            Unconfirmed::AdminDown.text()
        } else {
            "up"
        };
        let protocol = if up { "up" } else { "down" };
        let _ = writeln!(
            out,
            "{name:<27}{ip:<20}{ok:<9}{method:<13}{status:<12}{protocol}"
        );
    }
    out
}

/// `Up/Down` as `hh:mm:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The legend `show ip route` prints first (the capture's,
/// `…/os10/cray-docs-csm__sw-leaf-bmc-001__show_ip_route_vrf_Customer.txt`).
const ROUTE_CODES: &str = "Codes: C - connected\n       S - static\n       B - BGP, IN - internal BGP, EX - external BGP, EV - EVPN BGP\n       O - OSPF, IA - OSPF inter area, N1 - OSPF NSSA external type 1,\n       N2 - OSPF NSSA external type 2, E1 - OSPF external type 1,\n       E2 - OSPF external type 2, * - candidate default,\n       + - summary route, > - non-active route\n";

/// `show ip route [vrf default] [A.B.C.D[/N]]` in the capture's layout: the legend, the
/// gateway of last resort, then a row per route (its code, destination, first next hop,
/// distance/metric, last change) and a row per further next hop; a connected route `via`
/// the switch's own address, as captured. Given an address or prefix, the routes that
/// contain it. From FRR's zebra with `--dataplane`, else the connected subnets alone. `None`:
/// words OS10 would not take.
fn route(net: &crate::lab::network::Net<'_>, network: &Network, words: &[&str]) -> Option<String> {
    let mut words = words;
    if let ["vrf", "default", rest @ ..] = words {
        words = rest;
    }
    let within: Option<crate::types::Ipv4Net> = match words {
        [] => None,
        [w] => Some(
            w.parse::<std::net::Ipv4Addr>()
                .map(|a| crate::types::Ipv4Net { addr: a, len: 32 })
                .or_else(|_| w.parse())
                .ok()?,
        ),
        _ => return None,
    };
    let mut routes = crate::lab::frr::table(net, network, net.me);
    routes.retain(|r| {
        within.is_none_or(|w| r.prefix.len <= w.len && r.prefix.network().contains(w.addr))
    });
    routes.sort_by_key(|r| (u32::from(r.prefix.network().addr), r.prefix.len));
    let config = net.config(net.me);
    let mut out = String::from(ROUTE_CODES);
    match routes
        .iter()
        .find(|r| r.prefix.len == 0)
        .and_then(|r| r.hops.first())
    {
        Some((Some(gw), _)) => {
            let _ = writeln!(out, "Gateway of last resort is via {gw} to network 0.0.0.0");
        }
        _ => {
            let _ = writeln!(out, "{}", Unconfirmed::RouteNoDefault.text());
        }
    }
    out.push_str("  Destination                 Gateway                                        Dist/Metric       Last Change     \n");
    out.push_str(&"-".repeat(106));
    out.push('\n');
    for r in &routes {
        let code = match r.protocol.as_str() {
            "connected" => "C",
            "static" => "S",
            "bgp" => Unconfirmed::RouteBgp.text(),
            "ospf" => "O",
            _ => "K",
        };
        let code = if r.prefix.len == 0 {
            format!("*{code}")
        } else {
            code.to_string()
        };
        let prefix = format!("{}/{}", r.prefix.network().addr, r.prefix.len);
        let own = config.and_then(|c| {
            c.interfaces
                .values()
                .filter_map(|i| i.address)
                .find(|a| r.prefix.contains(a.addr))
                .map(|a| a.addr)
        });
        for (i, (gw, dev)) in r.hops.iter().enumerate() {
            let via = gw.or(own).map_or_else(String::new, |g| format!("via {g}"));
            let iface = os10_iface(config, dev, r.prefix);
            if i == 0 {
                let when = r
                    .uptime
                    .clone()
                    .unwrap_or_else(|| Unconfirmed::RouteNoChange.text().to_string());
                let _ = writeln!(
                    out,
                    "  {code:<6}{prefix:<20}{via:<25}{iface:<24}{:<18}{when}",
                    format!("{}/{}", r.distance, r.metric)
                );
            } else {
                let _ = writeln!(out, "{:28}{via:<25}{iface:<20}", "");
            }
        }
    }
    Some(out)
}

/// An interface of the data plane as OS10 names it: `ethernet1/1/53`, `vlan103`,
/// `loopback0` (the loopback that has the route's address).
fn os10_iface(
    config: Option<&crate::onyx::Config>,
    dev: &str,
    prefix: crate::types::Ipv4Net,
) -> String {
    if let Some(p) = crate::lab::dataplane::port_of(dev) {
        return Iface::Ethernet(crate::os10::eth_of(p)).to_string();
    }
    if dev == "lo" {
        return format!(
            "loopback{}",
            crate::lab::frr::loopback_of(config, prefix.addr)
        );
    }
    dev.to_string()
}

/// `show ip bgp summary`: the instance's router ID and AS, then each neighbor in the order
/// configured: its AS, messages (a keepalive a minute since it came up), how long it has been
/// in its state, and the prefixes received when Established, else the state.
fn bgp(net: &crate::lab::network::Net<'_>, network: &Network) -> String {
    let frr;
    let v = match network.dataplane_ns(net.me) {
        Some(ns) => {
            frr = crate::lab::frr::bgp_view(&ns);
            frr.as_ref()
        }
        None => net.bgp().get(net.me),
    };
    let Some(v) = v else {
        return Unconfirmed::NoBgp.text().to_string();
    };
    let mut out = Unconfirmed::BgpIdentifier
        .text()
        .replace("{id}", &v.router_id.to_string())
        .replace("{as}", &v.asn.to_string());
    out.push('\n');
    out.push_str(Unconfirmed::BgpHeader.text());
    out.push('\n');
    for s in &v.sessions {
        let up = s.state == SessionState::Established;
        let (age, _) = network.since(&format!("{} bgp {}", net.me, s.neighbor), up);
        let msgs = if up { 3 + age.as_secs() / 60 } else { 0 };
        let state = match s.state {
            SessionState::Established => s.received.to_string(),
            SessionState::Active => Unconfirmed::BgpActive.text().to_string(),
            SessionState::Idle => Unconfirmed::BgpIdle.text().to_string(),
        };
        let _ = writeln!(
            out,
            "{:<18}{:<12}{msgs:<12}{msgs:<12}{:<16}{state}",
            s.neighbor.to_string(),
            s.remote_as,
            clock(age)
        );
    }
    out
}
