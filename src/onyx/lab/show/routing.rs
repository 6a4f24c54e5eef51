//! The `show` commands that read the network ([`crate::lab::network`]), printed
//! in the layouts of captured Onyx output: `show ip bgp summary`
//! (`tests/fixtures/corpus/onyx/more/cray-docs-csm__sw-spine-001__show_ip_bgp_summary_5_neighbors.txt`,
//! `…show_ip_bgp_vrf_all_summary.txt`), `show mlag`
//! (`…cray-docs-csm__sw-spine-002__show_mlag.txt`), `show mlag-vip`
//! (`…cray-docs-csm__sw-spine-001__show_mlag-vip.txt`) and `show interfaces mlag-port-channel
//! summary` (`…cray-docs-csm__manual-example__show_interfaces_mlag-port-channel_summary.txt`);
//! `show interfaces port-channel summary` in the MLAG one's layout (no capture of its text).
//! Column widths are the captures'; what they do not show (states other than ESTABLISHED, a
//! session never up, counters) is in [`super::cli::Unconfirmed`]. JSON (`| json-print`) in
//! the shapes of `tests/fixtures/corpus/onyx/show/ansible-onyx__onyx_mlag*_show__*json.cfg`
//! and `…onyx_port_channel_show__json.cfg`, named at each command.

use crate::onyx::lab::cli::Errors as _;
use std::fmt::Write as _;
use std::time::Duration;

use serde_json::Value;

use super::json::{Obj, key_values};
use super::qos::short_name;
use super::{Cx, Shown};
use crate::lab::network::{
    BgpView, MlagPortState, MlagView, Net, Network, Session as BgpSession, SessionState, base_mac,
};
use crate::onyx::lab::cli::Unconfirmed;
use crate::onyx::{Iface, command::LacpMode};
use crate::types::Release;

/// Keepalives a second established session exchanges (the capture's `keepalive interval in
/// seconds (established with peer): 30`), for the message counters.
const KEEPALIVE: u64 = 30;

/// `show ip bgp summary` of the default VRF: empty without a BGP instance (UNCONFIRMED).
/// JSON: no capture; the header's fields, then a row per neighbor keyed by its address, as
/// `json-print` prints other tables (UNCONFIRMED).
/// With the lab's data plane, FRR's sessions in the same layout.
pub fn bgp_summary(cx: &Cx<'_>) -> Shown {
    cx.net(|net, network, me| {
        let frr;
        let view = match network.dataplane_ns(me) {
            Some(ns) => {
                frr = crate::lab::frr::bgp_view(&ns);
                frr.as_ref()
            }
            None => net.bgp().get(me),
        };
        match view {
            Some(v) => bgp_shown(me, v, network),
            None => Shown {
                text: String::new(),
                json: Some(Obj::new().build()),
            },
        }
    })
}

/// The legend `show ip route` prints before its tables (the captures').
const ROUTE_FLAGS: &str = "\nFlags:\n  F: Failed to install in H/W\n  B: BFD protected (static route)\n  i: BFD session initializing (static route)\n  x: protecting BFD session failed (static route)\n  c: consistent hashing\n  p: partial programming in H/W\n";

/// `show ip route [vrf default|all] [A.B.C.D[/N]] [bgp]` in the layout of the captures
/// (`…show_ip_route_10.92.100.60.txt`, `…show_ip_route_vrf_all_bgp.txt`): the legend, then per
/// VRF a table of Destination, Mask, Flag, Gateway, Interface, Source and AD/M, an ECMP route's
/// further next hops on lines of their own. Given an address, the routes that contain it (the
/// captures list the default route beside the host route). Routes come from FRR's zebra on
/// the lab's data plane; without one, the connected subnets of the switch's up interfaces
/// alone (the lab derives no routes). A connected route's source and gateway are
/// UNCONFIRMED (`direct`, `0.0.0.0`); the flag is the captures' `c` on every row. JSON: no
/// capture; a row per next hop under `VRF Name default` (UNCONFIRMED).
pub fn ip_route(cx: &Cx<'_>, words: &[&str]) -> Result<Shown, crate::lab::Reply> {
    let mut words = words;
    if let ["vrf", "default" | "all", rest @ ..] = words {
        words = rest;
    }
    let (mut within, mut bgp_only) = (None, false);
    for w in words {
        match *w {
            "bgp" => bgp_only = true,
            w => match w.parse::<std::net::Ipv4Addr>() {
                Ok(a) => within = Some(crate::types::Ipv4Net { addr: a, len: 32 }),
                Err(_) => match w.parse::<crate::types::Ipv4Net>() {
                    Ok(n) => within = Some(n),
                    Err(_) => return Err(crate::lab::Reply::unrecognized(w)),
                },
            },
        }
    }
    let mut routes = cx.net(crate::lab::frr::table);
    routes.retain(|r| {
        (!bgp_only || r.protocol == "bgp")
            && within.is_none_or(|w| r.prefix.len <= w.len && r.prefix.network().contains(w.addr))
    });
    routes.sort_by_key(|r| (u32::from(r.prefix.network().addr), r.prefix.len));
    let config = &cx.sw.running;
    let rule = format!("  {}", "-".repeat(102));
    let mut text = format!(
        "{ROUTE_FLAGS}\nVRF Name default:\n{rule}\n  {:<18}{:<18}{:<9}{:<18}{:<17}{:<11}AD/M\n{rule}\n",
        "Destination", "Mask", "Flag", "Gateway", "Interface", "Source"
    );
    let mut rows = Vec::new();
    for r in &routes {
        let dest = if r.prefix.len == 0 {
            "default".to_string()
        } else {
            r.prefix.network().addr.to_string()
        };
        let source = match r.protocol.as_str() {
            "connected" => Unconfirmed::RouteDirect.text().to_string(),
            p => p.to_string(),
        };
        let adm = format!("{}/{}", r.distance, r.metric);
        for (i, (gw, dev)) in r.hops.iter().enumerate() {
            let gateway = gw.map_or_else(
                || Unconfirmed::RouteNoGateway.text().to_string(),
                |g| g.to_string(),
            );
            let iface = onyx_iface(config, dev, r.prefix);
            let (d, m) = if i == 0 {
                (dest.clone(), r.prefix.dotted_mask().to_string())
            } else {
                (String::new(), String::new())
            };
            let _ = writeln!(
                text,
                "  {d:<18}{m:<18}{:<9}{gateway:<18}{iface:<17}{source:<11}{adm}",
                "c"
            );
            rows.push(
                Obj::new()
                    .s("Destination", &dest)
                    .s("Mask", r.prefix.dotted_mask())
                    .s("Flag", "c")
                    .s("Gateway", &gateway)
                    .s("Interface", &iface)
                    .s("Source", &source)
                    .s("AD/M", &adm)
                    .build(),
            );
        }
    }
    Ok(Shown {
        text,
        json: Some(Obj::new().v("VRF Name default", Value::Array(rows)).build()),
    })
}

/// An interface of the data plane as the switch names it in its routing table: `eth1/25`,
/// `vlan10`, `loopback0` (the loopback that has the route's address).
fn onyx_iface(config: &crate::onyx::Config, dev: &str, prefix: crate::types::Ipv4Net) -> String {
    if let Some(p) = crate::lab::dataplane::port_of(dev) {
        return format!("eth{p}");
    }
    if dev == "lo" {
        return format!(
            "loopback{}",
            crate::lab::frr::loopback_of(Some(config), prefix.addr)
        );
    }
    dev.to_string()
}

/// `show mlag` (its protocol on).
pub fn mlag(cx: &Cx<'_>) -> Shown {
    let hostname = cx.sw.hostname();
    cx.net(|net, network, me| match net.mlag() {
        Some(v) => mlag_shown(me, hostname, &v, network),
        None => Shown {
            text: String::new(),
            json: Some(Obj::new().build()),
        },
    })
}

fn bgp_shown(me: &str, view: &BgpView, network: &Network) -> Shown {
    let (mut text, mut json) = bgp_header(view);
    let rule = "-".repeat(114);
    let columns = [
        "V",
        "AS",
        "MsgRcvd",
        "MsgSent",
        "TblVer",
        "InQ",
        "OutQ",
        "Up/Down",
        "State/PfxRcd",
    ];
    let _ = write!(
        text,
        "\n{rule}\n{:<18}{:<5}{:<13}{:<10}{:<10}{:<10}{:<7}{:<7}{:<14}State/PfxRcd\n{rule}\n",
        "Neighbor", "V", "AS", "MsgRcvd", "MsgSent", "TblVer", "InQ", "OutQ", "Up/Down"
    );
    for s in &view.sessions {
        let values = bgp_row(me, s, view.prefixes, network);
        let _ = writeln!(
            text,
            "{:<18}{:<5}{:<13}{:<10}{:<10}{:<10}{:<7}{:<7}{:<14}{}",
            s.neighbor.to_string(),
            values[0],
            values[1],
            values[2],
            values[3],
            values[4],
            values[5],
            values[6],
            values[7],
            values[8]
        );
        let mut row = Obj::new();
        for (k, v) in columns.iter().zip(&values) {
            row = row.s(k, v);
        }
        json = json.row(&s.neighbor.to_string(), row);
    }
    Shown {
        text,
        json: Some(json.build()),
    }
}

/// `show ip bgp summary`'s header: the instance's identity and table, as text and JSON.
fn bgp_header(view: &BgpView) -> (String, Obj) {
    let version = view.prefixes;
    let header = [
        ("VRF name", "default".to_string()),
        ("BGP router identifier", view.router_id.to_string()),
        ("local AS number", view.asn.to_string()),
        ("BGP table version", version.to_string()),
        ("Main routing table version", version.to_string()),
        ("IPV4 Prefixes", view.prefixes.to_string()),
        ("IPV6 Prefixes", "0".to_string()),
        ("L2VPN EVPN Prefixes", "0".to_string()),
    ];
    let mut text = String::from("\n");
    let mut json = Obj::new();
    for (label, value) in &header {
        let _ = writeln!(text, "{label:<26}: {value}");
        json = json.s(label, value);
    }
    (text, json)
}

/// A session's row after its neighbor's address (`version`: the table's): its counters from
/// its age while Established, else its state and when it was last up.
fn bgp_row(me: &str, s: &BgpSession, version: usize, network: &Network) -> [String; 9] {
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
    [
        "4".to_string(),
        s.remote_as.to_string(),
        rcvd.to_string(),
        sent.to_string(),
        tblver.to_string(),
        "0".to_string(),
        "0".to_string(),
        updown,
        state,
    ]
}

/// A session's age as the capture prints it: `1:01:50:41`, `13:20:11:58`.
fn onyx_uptime(d: Duration) -> String {
    let (d, h, m, s) = super::dhms(d);
    format!("{d}:{h:02}:{m:02}:{s:02}")
}

/// An MLAG peer link's up time as the capture prints it: `19 days, 18:25:56`.
fn ipl_uptime(d: Duration) -> String {
    let (d, h, m, s) = super::dhms(d);
    format!("{d} days, {h:02}:{m:02}:{s:02}")
}

fn on(b: bool, yes: &'static str, no: Unconfirmed) -> &'static str {
    if b { yes } else { no.text() }
}

/// `show mlag` as text, and as JSON in the shape of
/// `ansible-onyx__onyx_mlag_show__show_mlag_json.cfg` (no IPL) and
/// `…onyx_mlag_ipl_show__show_mlag_json.cfg` (`MLAG IPLs Summary`, the IPL's row without its
/// up time and toggle counter). Both captures are of a pair shut down and list no members;
/// the lab lists them (`MLAG Members Summary`, a row per system ID) once the pair is enabled:
/// UNCONFIRMED.
fn mlag_shown(me: &str, hostname: &str, view: &MlagView, network: &Network) -> Shown {
    let (mut out, json) = mlag_status(me, view);
    let json = mlag_ports(view, &mut out, json);
    let json = mlag_ipls(me, view, network, &mut out, json);
    let json = mlag_members(me, hostname, view, &mut out, json);
    Shown {
        text: out,
        json: Some(json.build()),
    }
}

/// `show mlag`'s first lines: its admin and operational status, timers and system MAC.
fn mlag_status(me: &str, view: &MlagView) -> (String, Obj) {
    let mut out = String::new();
    let admin = on(view.admin, "Enabled", Unconfirmed::MlagDisabled);
    let oper = on(view.oper, "Up", Unconfirmed::MlagDown);
    let mac = view
        .system_mac
        .map_or_else(|| base_mac(me).to_string(), |m| m.to_string());
    let _ = writeln!(out, "Admin status: {admin}\nOperational status: {oper}");
    out.push_str("Reload-delay: 30 sec\nKeepalive-interval: 1 sec\nUpgrade-timeout: 60 min\n");
    let _ = writeln!(out, "System-mac: {mac}");
    let json = Obj::new()
        .s("Admin status", admin)
        .s("Operational status", oper)
        .s("Reload-delay", "30 sec")
        .s("Keepalive-interval", "1 sec")
        .s("Upgrade-timeout", "60 min")
        .s("System-mac", &mac);
    (out, json)
}

/// The MLAG ports' configuration and status summaries, counted by state.
fn mlag_ports(view: &MlagView, out: &mut String, mut json: Obj) -> Obj {
    let count =
        |f: &dyn Fn(MlagPortState) -> bool| view.ports.iter().filter(|(_, s)| f(*s)).count();
    let disabled = count(&|s| s == MlagPortState::Disabled);
    let configuration = [
        ("Configured", view.ports.len()),
        ("Disabled", disabled),
        ("Enabled", view.ports.len() - disabled),
    ];
    let status = [
        ("Inactive", count(&|s| s == MlagPortState::Inactive)),
        (
            "Active-partial",
            count(&|s| s == MlagPortState::ActivePartial),
        ),
        ("Active-full", count(&|s| s == MlagPortState::ActiveFull)),
    ];
    for (title, fields, width) in [
        ("MLAG Ports Configuration Summary", &configuration, 11),
        ("MLAG Ports Status Summary", &status, 15),
    ] {
        let _ = writeln!(out, "\n{title}:");
        let mut section = Obj::new();
        for (k, n) in fields {
            let _ = writeln!(out, " {:<width$} {n}", format!("{k}:"));
            section = section.s(k, n);
        }
        json = json.v(title, section.build());
    }
    json
}

/// The IPLs summary: the peer link's row, its up time and toggles from the network.
fn mlag_ipls(me: &str, view: &MlagView, network: &Network, out: &mut String, json: Obj) -> Obj {
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
    let Some(ipl) = &view.ipl else {
        return json;
    };
    let (age, toggles) = network.since(&format!("{me} ipl {}", ipl.id), ipl.up);
    let text = |v: Option<String>| v.unwrap_or_else(|| Unconfirmed::MlagNone.text().into());
    let group = text(ipl.port_channel.map(|n| format!("Po{n}")));
    let vlan = text(ipl.vlan.map(|v| v.to_string()));
    let state = on(ipl.up, "Up", Unconfirmed::MlagDown);
    let local = text(ipl.local.map(|a| a.to_string()));
    let peer = text(ipl.peer.map(|a| a.to_string()));
    let _ = writeln!(
        out,
        "{:<5}{group:<14}{vlan:<11}{state:<13}{local:<41}{peer:<41}{:<21}{toggles}",
        ipl.id,
        if ipl.up {
            ipl_uptime(age)
        } else {
            Unconfirmed::MlagNone.text().into()
        },
    );
    // Inserted in the text's column order: the capture's key order.
    let row = Obj::new()
        .s("Group Port-Channel", group)
        .s("Vlan Interface", vlan)
        .s("Operational State", state)
        .s("Local IP address", local)
        .s("Peer IP address", peer);
    json.v(
        "MLAG IPLs Summary",
        Obj::new().row(&ipl.id.to_string(), row).build(),
    )
}

/// The members summary: this switch, and its peer when there is one.
fn mlag_members(me: &str, hostname: &str, view: &MlagView, out: &mut String, json: Obj) -> Obj {
    let members = "-".repeat(69);
    let _ = write!(
        out,
        "\nMLAG Members Summary:\n{members}\n{:<20}{:<29}Hostname\n{members}\n",
        "System-id", "State"
    );
    let mine = base_mac(me).to_string();
    let _ = writeln!(out, "{mine:<20}{:<29}<{hostname}>", "Up");
    let mut rows = Obj::new().row(
        &mine,
        Obj::new()
            .s("State", "Up")
            .s("Hostname", format!("<{hostname}>")),
    );
    if let Some(peer) = &view.peer {
        let state = on(view.oper, "Up", Unconfirmed::MlagDown);
        let id = base_mac(peer).to_string();
        let _ = writeln!(out, "{id:<20}{state}");
        rows = rows.row(&id, Obj::new().s("State", state).s("Hostname", ""));
    }
    if view.admin {
        json.v("MLAG Members Summary", rows.build())
    } else {
        json
    }
}

/// The role of this switch in its MLAG domain, by [`Unconfirmed::MlagRole`] (the prompt's).
fn master(view: &MlagView) -> bool {
    match view.ipl.as_ref().and_then(|i| Some((i.local?, i.peer?))) {
        Some((mine, peer)) => mine <= peer,
        None => true,
    }
}

/// `show mlag-vip` (its protocol on): the domain's name and virtual address, and the
/// switches of the pair that run it with their roles (the capture's layout). The lab has no
/// management interface: a switch's address is `N/A` ([`Unconfirmed::MlagNone`]); without
/// `mlag-vip`, or with the pair shut down, no switch is listed and the name and address are
/// `N/A` too. JSON: `ansible-onyx__onyx_mlag_vip_show__show_mlag-vip_json.cfg`, the switches'
/// rows inserted before the `MLAG-VIP` block (the order that gives the capture's).
pub fn mlag_vip(cx: &Cx<'_>) -> Shown {
    let c = &cx.sw.running;
    let na = Unconfirmed::MlagNone.text();
    let (name, address) = c
        .mlag
        .vip
        .as_ref()
        .map_or((na.to_string(), na.to_string()), |(n, a)| {
            (n.clone(), a.to_string())
        });
    let nodes: Vec<(String, &str)> = cx.net(|net, _, _| {
        let Some(view) = net.mlag().filter(|v| v.admin && c.mlag.vip.is_some()) else {
            return Vec::new();
        };
        let mine = master(&view);
        let role = |m: bool| if m { "master" } else { "standby" };
        let mut nodes = vec![(cx.sw.hostname().to_string(), role(mine))];
        let peer = view.peer.as_deref().filter(|_| view.oper).and_then(|p| {
            let pc = net.config(p)?;
            (pc.mlag.vip.as_ref().map(|v| &v.0) == c.mlag.vip.as_ref().map(|v| &v.0))
                .then(|| pc.hostname.clone().unwrap_or_else(|| p.to_string()))
        });
        if let Some(p) = peer {
            nodes.push((p, role(!mine)));
        }
        nodes.sort_by_key(|(_, r)| *r != "master");
        nodes
    });
    let rule = "-".repeat(82);
    let mut text = format!(
        "MLAG-VIP:\n MLAG group name: {name}\n MLAG VIP address: {address}\n Active nodes: {}\n \n{rule}\n{:<41}{:<21}IP Address\n{rule}\n",
        nodes.len(),
        "Hostname",
        "VIP-State"
    );
    let mut json = Obj::new();
    for (host, role) in &nodes {
        let _ = writeln!(text, "{host:<43}{role:<21}{na}");
        json = json.row(host, Obj::new().s("VIP-State", role).s("IP Address", na));
    }
    let json = json.v(
        "MLAG-VIP",
        Obj::new()
            .s("MLAG group name", &name)
            .s("MLAG VIP address", &address)
            .s("Active nodes", nodes.len())
            .build(),
    );
    Shown {
        text,
        json: Some(json.build()),
    }
}

/// A bundle's members with their flags (`Eth1/2(P)`: up in the bundle, `(D)` down),
/// space-separated, and its type (`LACP` when its members negotiate, else static).
fn members(net: &Net<'_>, sw: &str, mlag: bool, id: u16) -> (String, bool) {
    let ports = net.members(sw, mlag, id);
    let lacp = net.config(sw).is_some_and(|c| {
        ports.iter().any(|p| {
            c.interfaces
                .get(&Iface::Ethernet(*p))
                .and_then(|i| i.channel_group)
                .is_some_and(|g| g.mode != LacpMode::On)
        })
    });
    let list = ports
        .iter()
        .map(|p| {
            let flag = if net.port_up(sw, *p) { 'P' } else { 'D' };
            format!("{}({flag})", short_name(Iface::Ethernet(*p)))
        })
        .collect::<Vec<_>>()
        .join(" ");
    (list, lacp)
}

/// `show interfaces port-channel summary`: per port-channel its group number (1, 2, … in
/// order), state (`U` up, `D` down), type and members. JSON:
/// `ansible-onyx__onyx_port_channel_show__json.cfg` (rows keyed `1 Po22(D)`, then the
/// `Flags` legend: inserted so, the capture's order). No capture shows the text: the layout
/// is the MLAG summary's (UNCONFIRMED).
pub fn port_channels(cx: &Cx<'_>) -> Shown {
    let c = &cx.sw.running;
    let rows: Vec<(String, String, String)> = cx.net(|net, _, me| {
        c.interfaces
            .keys()
            .filter_map(|k| match k {
                Iface::PortChannel(n) => Some(*n),
                _ => None,
            })
            .enumerate()
            .map(|(g, n)| {
                let flag = if net.iface_up(me, Iface::PortChannel(n)) {
                    'U'
                } else {
                    'D'
                };
                let (ports, lacp) = members(net, me, false, n);
                let kind = if lacp { "LACP" } else { "STATIC" };
                (format!("{} Po{n}({flag})", g + 1), kind.to_string(), ports)
            })
            .collect()
    });
    let flags = [
        ("D", "Down"),
        ("U", "Up"),
        ("P", "Up in port-channel (members)"),
        ("S", "Suspend in port-channel (members)"),
        ("I", "Individual"),
    ];
    let mut text = String::from("\nFlags:\n");
    let legend = key_values(&mut text, Obj::new(), flags);
    let rule = format!("  {}\n", "-".repeat(78));
    let _ = write!(
        text,
        "\nPort-Channel Summary:\n{rule}  {:<19}{:<9}Member\n  {:<28}Ports\n  {:<28}(D/P/S/I)\n{rule}",
        "Group", "Type", "Port-Channel", "(D/U)"
    );
    let mut json = Obj::new();
    for (group, kind, ports) in &rows {
        let _ = writeln!(text, "  {group:<19}{kind:<9}{ports}");
        json = json.row(group, Obj::new().s("Type", kind).s("Member Ports", ports));
    }
    Shown {
        text,
        json: Some(json.v("Flags", legend.build()).build()),
    }
}

/// `show interfaces mlag-port-channel summary` (MLAG on), in the capture's layout: per MLAG
/// port-channel its group number, state across the pair (`U` members up on both switches,
/// `P` on one, `D` none or shut down, `S` with the pair shut down: the JSON capture's
/// `Mpo33(S)` of a pair shut down), type, and the members here and on the peer (`N/A`
/// without a peer). JSON: `ansible-onyx__onyx_mlag_port_channel_show__json.cfg` before
/// 3.6.6000; from 3.6.6000 its three blocks in a list, the rows in a one-element list under
/// `MLAG Port-Channel Summary`, as the Ansible collection's `onyx_linkagg` reads them (no
/// capture: UNCONFIRMED).
pub fn mlag_port_channels(cx: &Cx<'_>) -> Shown {
    let rows = cx.net(|net, _, me| mlag_port_channel_rows(net, me));
    let mut text = String::from(
        "\nMLAG Port-Channel Flags: D-Down, U-Up, P-Partial UP, S-suspended by MLAG\n\nPort Flags:\n",
    );
    let port_flags = key_values(
        &mut text,
        Obj::new(),
        [
            ("D", "Down"),
            ("P", "Up in port-channel (members)"),
            ("S", "Suspend in port-channel (members)"),
            ("I", "Individual"),
        ],
    );
    let rule = format!("  {}\n", "-".repeat(78));
    let _ = write!(
        text,
        "\nMLAG Port-Channel Summary:\n{rule}  {:<19}{:<9}{:<26}Peer\n  {:<28}{:<26}Ports\n  {:<28}{:<26}(D/P/S/I)\n{rule}",
        "Group", "Type", "Local", "Port-Channel", "Ports", "(D/U/P/S)", "(D/P/S/I)"
    );
    let mut summary = Obj::new();
    for (group, kind, local, peer) in &rows {
        let _ = writeln!(text, "  {group:<19}{kind:<9}{local:<26}{peer}");
        summary = summary.row(
            group,
            Obj::new()
                .s("Type", kind)
                .s("Local Ports (D/P/S/I)", local)
                .s("Peer Ports (D/P/S/I)", peer),
        );
    }
    let json = mlag_port_channels_json(cx.sw.release, port_flags, summary, !rows.is_empty());
    Shown {
        text,
        json: Some(json),
    }
}

/// Each MLAG port-channel's row: its group and state flag, type, the members here and on
/// the peer.
fn mlag_port_channel_rows(net: &Net<'_>, me: &str) -> Vec<(String, String, String, String)> {
    let Some(view) = net.mlag() else {
        return Vec::new();
    };
    view.ports
        .iter()
        .enumerate()
        .map(|(g, (n, state))| {
            let flag = match state {
                MlagPortState::Disabled => 'D',
                _ if !view.admin => 'S',
                MlagPortState::ActiveFull => 'U',
                MlagPortState::ActivePartial => 'P',
                MlagPortState::Inactive => 'D',
            };
            let (local, lacp) = members(net, me, true, *n);
            let peer = match view.peer.as_deref().filter(|_| view.oper) {
                Some(p) => members(net, p, true, *n).0,
                None => Unconfirmed::MlagNone.text().to_string(),
            };
            let kind = if lacp { "LACP" } else { "Static" };
            (
                format!("{} Mpo{n}({flag})", g + 1),
                kind.to_string(),
                local,
                peer,
            )
        })
        .collect()
}

/// The JSON of `show interfaces mlag-port-channel summary` on `release`, from its port
/// flags and its summary (with `rows` or none): one object before [`super::JSON_API`], three
/// blocks in a list from it.
fn mlag_port_channels_json(release: Release, port_flags: Obj, summary: Obj, rows: bool) -> Value {
    // The JSON capture's legend (spaced unlike the text's).
    let legend = "D-Down, U-Up, P-Partial UP, S - suspended by MLAG";
    if release < super::JSON_API {
        return Obj::new()
            .s("MLAG Port-Channel Flags", legend)
            .v("Port Flags", port_flags.build())
            .v("MLAG Port-Channel Summary", summary.build())
            .build();
    }
    let rows = if rows {
        vec![summary.build()]
    } else {
        Vec::new()
    };
    Value::Array(vec![
        Obj::new().s("MLAG Port-Channel Flags", legend).build(),
        Obj::new().v("Port Flags", port_flags.build()).build(),
        Obj::new()
            .v("MLAG Port-Channel Summary", Value::Array(rows))
            .build(),
    ])
}

/// `show magp`: each MAGP instance of the switch's kept lines (`interface vlan V magp M`,
/// its `ip virtual-router address|mac-address` and `shutdown` lines), in the layout of
/// `…/more/cray-docs-csm__sw-spine-001__show_magp.txt`; an instance without an address or a
/// MAC shows zeros (`…/show/ansible-onyx__onyx_magp_show__show_magp_json.cfg`, whose JSON
/// shape it prints: `header`ed objects before [`super::JSON_API`], `{"MAGP M": [{…}]}` from
/// it). State: `Master` while `protocol magp` is on and the instance not shut, else `Init`
/// (both captured; the rule is UNCONFIRMED).
pub fn magp(cx: &Cx<'_>) -> Shown {
    let on = super::management::kept_protocol(cx.sw, "magp");
    let mut inst: std::collections::BTreeMap<u32, [String; 4]> = Default::default();
    for s in &cx.sw.running.layout.sections {
        for (_, line) in &s.verbatim {
            let w: Vec<&str> = line.split_whitespace().collect();
            let (no, rest) = match w.as_slice() {
                ["interface", "vlan", v, "magp", m, rest @ ..] => (false, (v, m, rest)),
                ["interface", "vlan", v, "no", "magp", m, rest @ ..] => (true, (v, m, rest)),
                _ => continue,
            };
            let (vlan, id, rest) = rest;
            let Ok(id) = id.parse::<u32>() else { continue };
            if no && rest.is_empty() {
                inst.remove(&id);
                continue;
            }
            let e = inst.entry(id).or_insert_with(|| {
                [
                    vlan.to_string(),
                    "0.0.0.0".into(),
                    "00:00:00:00:00:00".into(),
                    "Enabled".into(),
                ]
            });
            match (no, rest) {
                (false, ["ip", "virtual-router", "address", a]) => e[1] = a.to_string(),
                (false, ["ip", "virtual-router", "mac-address", m]) => e[2] = m.to_uppercase(),
                (true, ["ip", "virtual-router", "address", ..]) => e[1] = "0.0.0.0".into(),
                (true, ["ip", "virtual-router", "mac-address", ..]) => {
                    e[2] = "00:00:00:00:00:00".into();
                }
                (false, ["shutdown"]) => e[3] = "Disabled".into(),
                (true, ["shutdown"]) => e[3] = "Enabled".into(),
                _ => {}
            }
        }
    }
    let mut text = String::new();
    let mut json = Vec::new();
    for (id, [vlan, ip, mac, admin]) in inst {
        let state = if on && admin == "Enabled" {
            "Master"
        } else {
            "Init"
        };
        let header = format!("MAGP {id}");
        let _ = writeln!(text, "\n{header}:");
        let mut obj = Obj::new();
        // The captured text pads the keys to `Interface vlan`'s width; the JSON has them bare.
        for (k, v) in [
            ("Interface vlan", vlan.as_str()),
            ("Admin state", admin.as_str()),
            ("State", state),
            ("Virtual IP", ip.as_str()),
            ("Virtual MAC", mac.as_str()),
        ] {
            let _ = writeln!(text, "  {k:<14}: {v}");
            obj = obj.s(k, v);
        }
        json.push(if cx.sw.release < super::JSON_API {
            obj.s("header", &header).build()
        } else {
            serde_json::json!({ header: [obj.build()] })
        });
    }
    Shown {
        text,
        json: Some(Value::Array(json)),
    }
}

/// `show ip arp`: the neighbors the switch reaches on its addressed interfaces
/// ([`Net::arp`]), in the layout of `…/show/napalm-onyx__show_ip_arp.txt` (VRF, count,
/// ruled header, `Dynamic ETH` rows), which napalm-onyx's `get_arp_table` reads from its
/// eighth line. A neighbor's MAC is its switch's base MAC (one router MAC a switch), the
/// interface named as `show ip interface brief` names it (`Eth1/25`, `Vlan 4000`), and the
/// blank first line napalm-onyx's reading implies: [`Unconfirmed::ArpLayout`].
pub fn ip_arp(cx: &Cx<'_>) -> Shown {
    let rows: Vec<(String, String, String)> = cx.net(|net, _, me| {
        net.arp(me)
            .into_iter()
            .map(|(local, addr, far)| {
                let name = match local {
                    Iface::Ethernet(p) => format!("Eth{p}"),
                    Iface::Vlan(v) => format!("Vlan {v}"),
                    other => other.to_string(),
                };
                let mac = base_mac(far).to_string().to_uppercase();
                (addr.to_string(), mac, name)
            })
            .collect()
    });
    let rule = format!("  {}", "-".repeat(83));
    let mut text = format!(
        "{}VRF Name default:\n  Total number of entries: {}\n\n{rule}\n  {:<21}{:<16}{:<26}Interface\n{rule}\n",
        Unconfirmed::ArpLayout.text(),
        rows.len(),
        "Address",
        "Type",
        "Hardware Address"
    );
    for (addr, mac, iface) in &rows {
        let _ = writeln!(text, "  {addr:<21}{:<16}{mac:<26}{iface}", "Dynamic ETH");
    }
    Shown { text, json: None }
}
