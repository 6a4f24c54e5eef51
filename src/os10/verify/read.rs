//! Reading what OS10 switches print, into the same facts Onyx's readers read
//! ([`crate::verify::observed`]): each function takes one command's reply and returns the
//! state it shows, or why the reply is not what that command prints (an error line, a table
//! without its header, a row that does not read) — never an empty state for a reply that does
//! not read. Layouts: `show lldp neighbors` as the AzureStack TOR prints it (10.5.3.2), `show
//! interface status` as CSM `sw-10g01` does (both in `tests/fixtures/corpus/os10/`); `show ip
//! bgp summary` has no capture: the OS10 user guide's example (`BGP router identifier A local
//! AS number N`, then `Neighbor AS MsgRcvd MsgSent Up/Down State/Pfx`), UNCONFIRMED.
//!
//! PFC, trust, ETS, ECN and the lossless priorities: `show running-configuration` in the
//! layout the AzureStack TOR prints it (10.5.3.2, its RoCE QoS objects included), read with
//! [`crate::os10::parse`]; and per interface in PFC mode `show interface NAME
//! priority-flow-control` (`Interface ethernet1/1/9`, `Admin mode is enabled`, `Oper status
//! is enabled`, `PFC Priorities: 3`, then its frame counters): no capture shows it, and the
//! layout is the Dell OS10 user guide's example as recalled (the guide's text could not be
//! retrieved to compare), UNCONFIRMED, as the lab's `Unconfirmed` table says.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use crate::os10::Eth;
use crate::types::Port;
use crate::verify::observed::{BgpNeighbor, BgpSummary, Ipl, Link, Mlag, Neighbor, Pfc, Route};
use crate::verify::reply::{field, gbps, head};

/// The first line of a reply that is OS10's error (`% Error: Illegal parameter.`).
fn error_line(text: &str) -> Result<(), String> {
    crate::verify::reply::error_line(text).map_or(Ok(()), Err)
}

/// An OS10 port name (`ethernet1/1/53`, `ethernet1/1/53:2`, `Eth 1/1/53`) as the fabric's
/// port; `None` for anything else (`mgmt1/1/1`, a MAC address, another OS's `Eth1/7`).
pub fn port_name(text: &str) -> Option<Port> {
    let lower = text.trim().to_ascii_lowercase();
    let rest = ["ethernet", "eth"]
        .iter()
        .find_map(|p| lower.strip_prefix(p))?;
    let eth = Eth::parse(rest.trim_start()).ok()?;
    (eth.node == 1 && eth.slot == 1).then(|| crate::os10::port_of(eth))
}

/// The rows of a table after its header line (the line starting with `header`) and the rule
/// under it; an error when the reply has no such header.
fn rows<'a>(text: &'a str, header: &str, command: &str) -> Result<Vec<&'a str>, String> {
    error_line(text)?;
    let mut lines = text.lines().skip_while(|l| !l.starts_with(header));
    if lines.next().is_none() {
        return Err(format!(
            "not `{command}`'s output (no `{header}` header); the reply begins `{}`",
            head(text)
        ));
    }
    Ok(lines
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with("---"))
        .collect())
}

/// `show lldp neighbors`: each Ethernet port's neighbors (its `mgmt` port is not a fabric
/// port). Columns by position, as the TOR prints them: local port (20), remote host name (21,
/// `Not Advertised` when none), remote port ID (30), chassis ID.
pub fn lldp_neighbors(text: &str) -> Result<BTreeMap<Port, Vec<Neighbor>>, String> {
    let mut out: BTreeMap<Port, Vec<Neighbor>> = BTreeMap::new();
    for line in rows(text, "Loc PortID", "show lldp neighbors")? {
        let col = |from: usize, to: usize| {
            line.get(from..to.min(line.len()))
                .or_else(|| line.get(from..))
                .unwrap_or("")
                .trim()
        };
        let bad = || format!("the row `{}` does not read", head(line));
        let local = col(0, 20);
        if local.starts_with("mgmt") {
            continue;
        }
        let port = port_name(local).ok_or_else(bad)?;
        let (name, id) = (col(20, 41), col(41, 71));
        if id.is_empty() {
            return Err(bad());
        }
        out.entry(port).or_default().push(Neighbor {
            system_name: (!name.is_empty() && name != "Not Advertised").then(|| name.into()),
            port_id: id.to_string(),
        });
    }
    Ok(out)
}

/// `show interface status`: each front-panel port's link (`Eth 1/1/25 … up 100G`). Its
/// columns after the description: status, speed (`0` when down), duplex, mode; the
/// description may hold spaces, so they are read from the status on. Admin state is not
/// printed.
pub fn interface_status(text: &str) -> Result<BTreeMap<Port, Link>, String> {
    let mut out = BTreeMap::new();
    for line in rows(text, "Port ", "show interface status")? {
        let bad = || format!("the row `{}` does not read", head(line));
        let Some(rest) = line.strip_prefix("Eth ") else {
            continue;
        };
        let name = rest.split_whitespace().next().ok_or_else(bad)?;
        let port = port_name(&format!("ethernet{name}")).ok_or_else(bad)?;
        let cols: Vec<&str> = line.split_whitespace().collect();
        // The status is the first of `up`/`down` after the name, then speed and duplex.
        let at = cols
            .iter()
            .skip(2)
            .position(|c| matches!(*c, "up" | "down"))
            .map(|i| i + 2)
            .ok_or_else(bad)?;
        let speed = cols.get(at + 1).ok_or_else(bad)?;
        out.insert(
            port,
            Link {
                admin: None,
                oper: cols[at].to_string(),
                speed: gbps(speed),
                speed_text: Some(speed.to_string()),
            },
        );
    }
    Ok(out)
}

/// `show ip bgp summary`: the router ID and local AS, and each neighbor's AS and state (a
/// number in `State/Pfx` is the prefixes of an Established session). `None`: an empty reply,
/// a switch without `router bgp` (what the lab prints then, UNCONFIRMED).
pub fn bgp_summary(text: &str) -> Result<Option<BgpSummary>, String> {
    error_line(text)?;
    if text.trim().is_empty() {
        return Ok(None);
    }
    let first = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("BGP router identifier "))
        .ok_or_else(|| {
            format!(
                "not `show ip bgp summary`'s output (no `BGP router identifier` line); the reply begins `{}`",
                head(text)
            )
        })?;
    let words: Vec<&str> = first.split_whitespace().collect();
    let bad_first = || {
        format!(
            "the line `BGP router identifier {}` does not read",
            head(first)
        )
    };
    let [id, "local", "AS", "number", asn] = words[..] else {
        return Err(bad_first());
    };
    let router_id = id.trim_end_matches(',').parse().ok();
    let asn = asn.parse().map_err(|_| bad_first())?;
    let mut neighbors = BTreeMap::new();
    for line in rows(text, "Neighbor", "show ip bgp summary")? {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let Some(Ok(addr)) = cols.first().map(|c| c.parse::<Ipv4Addr>()) else {
            continue;
        };
        let [_, remote_as, _, _, _, state] = cols[..] else {
            return Err(format!(
                "the row of {addr} has {} columns, not the table's six: `{}`",
                cols.len(),
                head(line)
            ));
        };
        let remote_as = remote_as
            .parse()
            .map_err(|_| format!("the AS `{}` of {addr} is not a number", head(remote_as)))?;
        // Established: the prefix count; said as Onyx does so the checks read one state.
        let state = match state.parse::<u32>() {
            Ok(n) => format!("ESTABLISHED/{n}"),
            Err(_) => state.to_string(),
        };
        neighbors.insert(addr, BgpNeighbor { remote_as, state });
    }
    Ok(Some(BgpSummary {
        router_id,
        asn,
        neighbors,
    }))
}

/// `show interface NAME priority-flow-control` of interface `name` (`ethernet1/1/9`,
/// `port-channel1`): its `Admin mode`, `Oper status` and `PFC Priorities` (an empty list:
/// none). An error for a reply of another interface, or without one of those lines.
pub fn pfc_interface(text: &str, name: &str) -> Result<Pfc, String> {
    error_line(text)?;
    let value = |prefix: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(prefix))
            .map(str::trim)
    };
    let Some(shown) = value("Interface ") else {
        return Err(format!(
            "not `show interface … priority-flow-control`'s output (no `Interface` line); the reply begins `{}`",
            head(text)
        ));
    };
    if !shown.eq_ignore_ascii_case(name) {
        return Err(format!("the reply is for {}, not {name}", head(shown)));
    }
    let line = |prefix: &str| {
        value(prefix).ok_or_else(|| format!("the reply has no `{}` line", prefix.trim_end()))
    };
    let (admin, oper) = (line("Admin mode is ")?, line("Oper status is ")?);
    let listed = line("PFC Priorities:")?;
    let priorities: BTreeSet<u8> = if listed.is_empty() {
        BTreeSet::new()
    } else {
        crate::os10::Ranges::parse(listed, 7)
            .map_err(|_| format!("`PFC Priorities: {}` does not read", head(listed)))?
            .iter()
            .collect()
    };
    Ok(Pfc {
        admin: Some(admin.to_string()),
        oper: oper.to_string(),
        priorities: Some(priorities),
    })
}

/// `show running-configuration`: the configuration the switch runs, its QoS objects and
/// interfaces as [`crate::os10::Config`]. An error for a reply that is not a running
/// configuration (no `! Version 10.` line, no `interface` block) or a line that does not
/// read.
pub fn running(text: &str) -> Result<crate::os10::Config, String> {
    error_line(text)?;
    if !crate::os10::parse::looks_os10(text) {
        return Err(format!(
            "not `show running-configuration`'s output (no `! Version 10.` line or `interface` block); the reply begins `{}`",
            head(text)
        ));
    }
    crate::os10::parse(text)
        .map_err(|e| format!("not a running configuration that reads, at line {e}"))
}

/// `show vlt N` (layout: [`crate::os10::show`], UNCONFIRMED), as the MLAG facts the checks
/// read of Onyx's `show mlag`: a VLT domain is there (admin `Enabled`), the peer's `Status`
/// (`up`: the pair is formed, else `Down`; no peer row: `Down`), the `VLT MAC address`, and
/// the VLTi as the peer link (its port-channel and `up`/`down`; it has no VLAN or IPv4
/// addresses). An error for a reply without the `Domain ID` field or the peer table.
pub fn vlt(text: &str) -> Result<Mlag, String> {
    use crate::os10::show::{self as layout, field};
    error_line(text)?;
    let value = |key: &str| text.lines().find_map(|l| field(l, key));
    if value(field::DOMAIN).is_none() {
        return Err(format!(
            "not `show vlt`'s output (no `{}` field); the reply begins `{}`",
            field::DOMAIN,
            head(text)
        ));
    }
    let peers = rows(text, layout::VLT_PEER_HEADER, "show vlt")?;
    let mut oper = "Down".to_string();
    for line in peers {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let [_, _, status, ..] = cols[..] else {
            return Err(format!("the peer row `{}` does not read", head(line)));
        };
        if status.eq_ignore_ascii_case("up") {
            oper = "Up".into();
        }
    }
    let vlti = text
        .lines()
        .skip_while(|l| l.trim() != layout::VLTI_HEADING)
        .skip(1)
        .take_while(|l| l.starts_with(' ') && l.contains(':'))
        .map(|l| {
            let (name, state) = l.split_once(':').unwrap_or_default();
            let port_channel = name
                .trim()
                .strip_prefix("port-channel")
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| format!("the VLTi row `{}` does not read", head(l)))?;
            Ok(Ipl {
                id: 1,
                port_channel: Some(port_channel),
                vlan: None,
                state: state.trim().to_string(),
                local: None,
                peer: None,
            })
        })
        .collect::<Result<Vec<Ipl>, String>>()?;
    Ok(Mlag {
        admin: "Enabled".into(),
        oper,
        system_mac: value(field::VLT_MAC).map(str::to_string),
        inactive: 0,
        partial: 0,
        ipls: vlti,
    })
}

/// `show vlt N vlt-port-detail` (layout: [`crate::os10::show`], UNCONFIRMED): how many VLT
/// port-channels are up on one unit only (`Active-partial` on Onyx) and on none
/// (`Inactive`). A port-channel the peer does not list is up on one unit at most. An empty
/// reply is a domain without VLT port-channels.
pub fn vlt_ports(text: &str) -> Result<(u32, u32), String> {
    use crate::os10::show as layout;
    error_line(text)?;
    let (mut partial, mut inactive) = (0, 0);
    let mut count = |ups: &[bool]| match ups.iter().filter(|u| **u).count() {
        0 => inactive += 1,
        1 if ups.len() < 2 => partial += 1,
        n if n < ups.len() => partial += 1,
        _ => {}
    };
    let mut current: Option<Vec<bool>> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if let Some(v) = field(line, layout::VLT_PORT_ID) {
            if let Some(ups) = current.take() {
                count(&ups);
            }
            v.parse::<u16>()
                .map_err(|_| format!("the line `{}` does not read", head(line)))?;
            current = Some(Vec::new());
            continue;
        }
        if line.starts_with(layout::VLT_PORT_HEADER) || line.starts_with("---") {
            continue;
        }
        let Some(ups) = current.as_mut() else {
            return Err(format!(
                "not `show vlt vlt-port-detail`'s output (no `{}` line); the reply begins `{}`",
                layout::VLT_PORT_ID,
                head(text)
            ));
        };
        let cols: Vec<&str> = line
            .trim_start_matches(['*', ' '])
            .split_whitespace()
            .collect();
        let [_, po, status, ..] = cols[..] else {
            return Err(format!("the row `{}` does not read", head(line)));
        };
        if !po.starts_with("port-channel") || !matches!(status, "up" | "down") {
            return Err(format!("the row `{}` does not read", head(line)));
        }
        ups.push(status == "up");
    }
    if let Some(ups) = current.take() {
        count(&ups);
    }
    Ok((partial, inactive))
}

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! os10 {
        ($file:literal) => {
            include_str!(concat!("../../../tests/fixtures/corpus/os10/", $file))
        };
    }

    fn p(s: &str) -> Port {
        s.parse().unwrap()
    }

    #[test]
    fn lldp_neighbors_as_captured() {
        let n = lldp_neighbors(os10!(
            "azurestack-rack2-Rack01-TOR-1.show-lldp-neighbors.txt"
        ))
        .unwrap();
        assert_eq!(n.len(), 13, "mgmt1/1/1 is not a fabric port");
        assert_eq!(
            n[&p("1/39")],
            [Neighbor {
                system_name: Some("rack2-Rack01-TOR-2".into()),
                port_id: "ethernet1/1/39".into()
            }]
        );
        assert_eq!(n[&p("1/1")][0].system_name, None);
        assert_eq!(n[&p("1/1")][0].port_id, "98:03:9b:32:78:1a");
        let cut = &n[&p("1/47/1")][0];
        assert_eq!(cut.system_name.as_deref(), Some("B42-1060-r11-x32s..."));
        assert_eq!(cut.port_id, "Ethernet1/4/4");
        assert_eq!(port_name("ethernet1/1/53:2"), Some(p("1/53/2")));
        assert_eq!(port_name("Eth1/7"), None);
    }

    #[test]
    fn interface_status_as_captured() {
        let s = interface_status(os10!("cray-sw-10g01.show-interface-status.txt")).unwrap();
        assert_eq!(s.len(), 54);
        assert!(s[&p("1/1")].up());
        assert_eq!(s[&p("1/1")].speed, Some(10));
        assert_eq!(s[&p("1/25")].speed, Some(100));
        assert!(!s[&p("1/10")].up());
        assert_eq!(s[&p("1/10")].speed, None);
    }

    #[test]
    fn bgp_summary_in_the_guide_layout() {
        let text = "BGP router identifier 10.1.0.1 local AS number 65101\n\
                    Neighbor          AS          MsgRcvd     MsgSent     Up/Down         State/Pfx\n\
                    10.0.0.0          65000       4           4           00:01:02        3\n\
                    10.0.0.2          65000       0           0           00:00:10        Active\n";
        let s = bgp_summary(text).unwrap().unwrap();
        assert_eq!(
            (s.asn, s.router_id),
            (65101, Some(Ipv4Addr::new(10, 1, 0, 1)))
        );
        assert!(s.neighbors[&Ipv4Addr::new(10, 0, 0, 0)].established());
        assert_eq!(s.neighbors[&Ipv4Addr::new(10, 0, 0, 2)].state, "Active");
        assert_eq!(bgp_summary("").unwrap(), None);
    }

    /// `show vlt 1` in the layout the lab prints ([`crate::os10::show`]).
    const VLT: &str = "Domain ID                  : 1\n\
        Unit ID                    : 1\n\
        Role                       : primary\n\
        VLT MAC address            : 00:00:5e:00:01:5e\n\
        VLTi Link Status\n\
        \x20   port-channel1000       : up\n\
        \n\
        VLT Peer Unit ID    System MAC Address    Status    IP Address             Version\n\
        ----------------------------------------------------------------------------------\n\
        \x20 2                 98:03:9b:00:00:02     up        fda5:74c8:b79e:1::2    3.1\n";

    #[test]
    fn vlt_as_the_mlag_facts() {
        let m = vlt(VLT).unwrap();
        assert_eq!((m.admin.as_str(), m.oper.as_str()), ("Enabled", "Up"));
        assert_eq!(m.system_mac.as_deref(), Some("00:00:5e:00:01:5e"));
        assert_eq!(m.ipls.len(), 1);
        assert_eq!(
            (m.ipls[0].port_channel, m.ipls[0].state.as_str()),
            (Some(1000), "up")
        );
        let down = VLT.replace("   up        fda5", "   down      fda5");
        assert_eq!(vlt(&down).unwrap().oper, "Down");
        let alone = VLT.lines().take(9).collect::<Vec<_>>().join("\n");
        assert_eq!(vlt(&alone).unwrap().oper, "Down", "no peer row");
        assert!(vlt("% Error: VLT domain is not configured.\n").is_err());
        assert!(vlt("Domain ID : 1\n").unwrap_err().contains("no `VLT Peer"));
        assert!(vlt("Welcome\n").unwrap_err().starts_with("not `show vlt`"));
    }

    #[test]
    fn vlt_ports_count_what_is_not_up_on_both() {
        let block = |id: u16, a: &str, b: Option<&str>| {
            let mut out = format!(
                "vlt-port-channel ID : {id}\n{}\n{}\n* 1            port-channel{id}     {a:<10}1                   1\n",
                crate::os10::show::VLT_PORT_HEADER,
                crate::os10::show::rule(crate::os10::show::VLT_PORT_HEADER)
            );
            if let Some(b) = b {
                out.push_str(&format!(
                    "  2            port-channel{id}     {b:<10}1                   1\n"
                ));
            }
            out
        };
        let text = [
            block(1, "up", Some("up")),
            block(2, "up", Some("down")),
            block(3, "down", Some("down")),
            block(4, "up", None),
        ]
        .concat();
        assert_eq!(vlt_ports(&text).unwrap(), (2, 1));
        assert_eq!(vlt_ports("").unwrap(), (0, 0));
        assert!(vlt_ports("garbage here\n").is_err());
        assert!(vlt_ports(&text.replace("up  ", "meh ")).is_err());
    }

    /// `show interface ethernet1/1/9 priority-flow-control` in the layout the lab prints
    /// (`os10::lab::Unconfirmed`: the OS10 user guide's example as recalled).
    const PFC: &str = "Interface ethernet1/1/9\n\
        Admin mode is enabled\n\
        Oper status is enabled\n\
        PFC Priorities: 3-4\n\
        Total Rx PFC Frames: 0\n\
        Total Tx PFC frames: 0\n\
        Cos         Rx                  Tx\n\
        -----------------------------------------\n\
        0           0                   0\n";

    #[test]
    fn pfc_of_an_interface() {
        let pfc = pfc_interface(PFC, "ethernet1/1/9").unwrap();
        assert!(pfc.enabled());
        assert_eq!(pfc.admin.as_deref(), Some("enabled"));
        assert_eq!(pfc.priorities, Some(BTreeSet::from([3, 4])));
        let none = PFC.replace("PFC Priorities: 3-4", "PFC Priorities:");
        assert_eq!(
            pfc_interface(&none, "ethernet1/1/9").unwrap().priorities,
            Some(BTreeSet::new())
        );
        let off = PFC.replace("Oper status is enabled", "Oper status is disabled");
        assert!(!pfc_interface(&off, "ethernet1/1/9").unwrap().enabled());
        // Another interface's reply, another command's, an error, a line missing or garbled.
        assert_eq!(
            pfc_interface(PFC, "ethernet1/1/10").unwrap_err(),
            "the reply is for ethernet1/1/9, not ethernet1/1/10"
        );
        let lldp = os10!("azurestack-rack2-Rack01-TOR-1.show-lldp-neighbors.txt");
        assert!(
            pfc_interface(lldp, "ethernet1/1/9")
                .unwrap_err()
                .starts_with("not `show interface … priority-flow-control`'s output")
        );
        assert!(pfc_interface("% Error: Illegal parameter.\n", "ethernet1/1/9").is_err());
        let cut: String = PFC.lines().take(2).map(|l| format!("{l}\n")).collect();
        assert_eq!(
            pfc_interface(&cut, "ethernet1/1/9").unwrap_err(),
            "the reply has no `Oper status is` line"
        );
        let bad = PFC.replace("3-4", "three");
        assert_eq!(
            pfc_interface(&bad, "ethernet1/1/9").unwrap_err(),
            "`PFC Priorities: three` does not read"
        );
    }

    /// The TOR's running configuration, as captured (10.5.3.2): its RoCE QoS read.
    #[test]
    fn running_configuration_as_captured() {
        let c = running(os10!(
            "azurestack-rack2-Rack01-TOR-1.running-configuration.10.5.3.2.txt"
        ))
        .unwrap();
        let port = crate::os10::Iface::Ethernet(Eth::new(1));
        assert_eq!(c.paused_priorities(&port), BTreeSet::from([3]));
        assert_eq!(c.network_qos_of(&port), Some("AZS_SERVICES_pfc"));
        // Not a running configuration: another command's reply, an error, nothing.
        let lldp = os10!("azurestack-rack2-Rack01-TOR-1.show-lldp-neighbors.txt");
        assert!(
            running(lldp)
                .unwrap_err()
                .starts_with("not `show running-configuration`'s output")
        );
        assert!(running("% Error: Unrecognized command.\n").is_err());
        assert!(running("").is_err());
        let broken = "! Version 10.5.3.2\ninterface ethernet1/1/1\n mtu nine\n";
        assert!(
            running(broken)
                .unwrap_err()
                .starts_with("not a running configuration that reads, at line 3:"),
            "{:?}",
            running(broken)
        );
    }

    #[test]
    fn replies_that_do_not_read_are_errors() {
        let e = "% Error: Unrecognized command.\n";
        assert_eq!(
            lldp_neighbors(e).unwrap_err(),
            "the switch answered `% Error: Unrecognized command.`"
        );
        assert!(interface_status(e).is_err());
        assert!(bgp_summary(e).is_err());
        assert!(
            lldp_neighbors("Welcome\n")
                .unwrap_err()
                .starts_with("not `show lldp neighbors`'s output")
        );
        assert!(
            interface_status("Port  x\nEth 1/1/1   garbage\n")
                .unwrap_err()
                .starts_with("the row `Eth 1/1/1   garbage`")
        );
        assert!(
            bgp_summary("BGP router identifier 1.1.1.1 local AS number x\n")
                .unwrap_err()
                .contains("does not read")
        );
        let short = "BGP router identifier 1.1.1.1 local AS number 1\nNeighbor AS\n10.0.0.1 2 3\n";
        assert!(
            bgp_summary(short)
                .unwrap_err()
                .contains("not the table's six")
        );
    }
}

/// `show ip route [A.B.C.D/N]` (`…/os10/cray-docs-csm__sw-leaf-bmc-001__show_ip_route_vrf_Customer.txt`):
/// the rows under the table's rule, each route's code (`C`, `B EX`, `*O E2`), destination
/// (`A.B.C.D/N`), `via` gateway and interface; a row without a destination is one more next
/// hop of the route above. A reply without the table's header is not a routing table.
pub fn ip_route(text: &str) -> Result<Vec<Route>, String> {
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    if !lines
        .by_ref()
        .any(|l| l.trim_start().starts_with("Destination"))
    {
        return Err("no routing table (its `Destination … Gateway` header) in the reply".into());
    }
    let mut routes: Vec<Route> = Vec::new();
    for line in lines {
        let t = line.trim();
        if t.is_empty() || t.chars().all(|c| c == '-') {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        let via = words
            .iter()
            .position(|w| *w == "via")
            .ok_or_else(|| format!("`{t}`: a route without `via`"))?;
        let (Some(gw), Some(iface)) = (words.get(via + 1), words.get(via + 2)) else {
            return Err(format!(
                "`{t}`: a next hop without its gateway and interface"
            ));
        };
        let hop = (gw.to_string(), iface.to_string());
        if via == 0 {
            let Some(last) = routes.last_mut() else {
                return Err(format!("`{t}`: a next hop without a route"));
            };
            last.hops.push(hop);
            continue;
        }
        let prefix: crate::types::Ipv4Net = words[via - 1]
            .parse()
            .map_err(|_| format!("`{}`: not a destination", words[via - 1]))?;
        let code = words[..via - 1].join(" ");
        let source = match code.trim_start_matches('*').split_whitespace().next() {
            Some("C") => "connected",
            Some("S") => "static",
            Some("B") => "bgp",
            Some("O") => "ospf",
            _ => return Err(format!("`{t}`: an unknown route code `{code}`")),
        };
        routes.push(Route {
            prefix,
            source: source.to_string(),
            hops: vec![hop],
        });
    }
    Ok(routes)
}

#[cfg(test)]
mod route_tests {
    use super::*;

    #[test]
    fn the_captured_table_reads_with_its_ecmp_default() {
        let r = ip_route(&crate::repo_file(
            "tests/fixtures/corpus/os10/cray-docs-csm__sw-leaf-bmc-001__show_ip_route_vrf_Customer.txt",
        ))
        .unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].prefix.to_string(), "0.0.0.0/0");
        assert_eq!(r[0].source, "ospf");
        assert_eq!(
            r[0].hops,
            [
                ("10.102.3.98".to_string(), "vlan7".to_string()),
                ("10.102.3.99".to_string(), "vlan7".to_string())
            ]
        );
        assert_eq!(r[1].prefix.to_string(), "10.102.3.0/25");
        assert_eq!(r[1].source, "connected");
        assert!(ip_route("% Error: Unrecognized command.\n").is_err());
    }
}
