//! Onyx's text replies read: `show ip bgp summary`, `show mlag` and `show ip route`, in the
//! layouts of the captures each function names (`tests/fixtures/corpus/onyx/more/`); a reply
//! that does not read is an error that says why, never an empty state.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use crate::verify::observed::{BgpNeighbor, BgpSummary, Ipl, Mlag, Route};
use crate::verify::reply::{error_line, field, head};

/// `show ip bgp summary` (text; `…/more/cray-docs-csm__sw-spine-001__show_ip_bgp_summary_5_neighbors.txt`):
/// the default VRF's block (`VRF name : default`, when the reply has several, as `…vrf_all_summary.txt`),
/// its `local AS number`, `BGP router identifier`, and the table's rows of ten columns, the
/// last `State/PfxRcd`. `None`: an empty reply, no BGP instance (what the lab prints then; no
/// capture shows a switch without one).
pub fn bgp_summary(text: &str) -> Result<Option<BgpSummary>, String> {
    if let Some(e) = error_line(text) {
        return Err(e);
    }
    if text.trim().is_empty() {
        return Ok(None);
    }
    // The blocks, each from its `VRF name` line; text before the first is no block's.
    let mut blocks: Vec<(String, Vec<&str>)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = field(line, "VRF name") {
            blocks.push((name.to_string(), Vec::new()));
        } else if let Some((_, lines)) = blocks.last_mut() {
            lines.push(line);
        }
    }
    let Some((_, lines)) = blocks.iter().find(|(name, _)| name == "default") else {
        return if blocks.is_empty() {
            Err(format!(
                "not `show ip bgp summary`'s output (no `VRF name` line); the reply begins `{}`",
                head(text)
            ))
        } else {
            Ok(None)
        };
    };
    let asn = lines
        .iter()
        .find_map(|l| field(l, "local AS number"))
        .ok_or("the default VRF's block has no `local AS number`")?;
    let asn = asn
        .parse()
        .map_err(|_| format!("the local AS number `{}` is not a number", head(asn)))?;
    let router_id = lines
        .iter()
        .find_map(|l| field(l, "BGP router identifier"))
        .and_then(|r| r.parse().ok());
    if !lines
        .iter()
        .any(|l| l.starts_with("Neighbor") && l.trim_end().ends_with("State/PfxRcd"))
    {
        return Err(
            "the default VRF's block has no table of neighbors (`Neighbor … State/PfxRcd`)".into(),
        );
    }
    let mut neighbors = BTreeMap::new();
    for line in lines {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let Some(Ok(addr)) = cols.first().map(|c| c.parse::<Ipv4Addr>()) else {
            continue;
        };
        let [_, _, remote_as, _, _, _, _, _, _, state] = cols[..] else {
            return Err(format!(
                "the row of {addr} has {} columns, not the table's ten: `{}`",
                cols.len(),
                head(line)
            ));
        };
        let remote_as = remote_as
            .parse()
            .map_err(|_| format!("the AS `{}` of {addr} is not a number", head(remote_as)))?;
        neighbors.insert(
            addr,
            BgpNeighbor {
                remote_as,
                state: state.to_string(),
            },
        );
    }
    Ok(Some(BgpSummary {
        router_id,
        asn,
        neighbors,
    }))
}

/// `show mlag` (text; `…/more/cray-docs-csm__sw-spine-002__show_mlag.txt`): `Admin status`,
/// `Operational status`, `System-mac`, the ports' status summary (`Inactive`,
/// `Active-partial`), and the rows of `MLAG IPLs Summary` (`1    Po100   4000   Up
/// 192.168.255.253   192.168.255.254   19 days, 18:25:56    1`).
pub fn mlag(text: &str) -> Result<Mlag, String> {
    if let Some(e) = error_line(text) {
        return Err(e);
    }
    let value = |key: &str| text.lines().find_map(|l| field(l, key));
    let (Some(admin), Some(oper)) = (value("Admin status"), value("Operational status")) else {
        return Err(format!(
            "not `show mlag`'s output (no `Admin status` and `Operational status`); the reply begins `{}`",
            head(text)
        ));
    };
    let count = |key: &str| -> Result<u32, String> {
        value(key).map_or(Ok(0), |v| {
            v.parse()
                .map_err(|_| format!("`{key}: {}` is not a count", head(v)))
        })
    };
    let system_mac = value("System-mac")
        .and_then(|m| m.split_whitespace().next())
        .map(str::to_string);
    let mut ipls = Vec::new();
    let table = text
        .lines()
        .skip_while(|l| !l.starts_with("MLAG IPLs Summary"))
        .take_while(|l| !l.starts_with("MLAG Members Summary"));
    let none = |s: &str| s == "N/A";
    for line in table {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let Some(Ok(id)) = cols.first().map(|c| c.parse::<u8>()) else {
            continue;
        };
        let bad = || format!("the peer-link row `{}` does not read", head(line));
        let [_, po, vlan, state, local, peer, ..] = cols[..] else {
            return Err(bad());
        };
        let port_channel = match po.strip_prefix("Po") {
            Some(n) => Some(n.parse().map_err(|_| bad())?),
            None if none(po) => None,
            None => return Err(bad()),
        };
        let opt = |s: &str| -> Result<Option<Ipv4Addr>, String> {
            if none(s) {
                Ok(None)
            } else {
                s.parse().map(Some).map_err(|_| bad())
            }
        };
        ipls.push(Ipl {
            id,
            port_channel,
            vlan: if none(vlan) {
                None
            } else {
                Some(vlan.parse().map_err(|_| bad())?)
            },
            state: state.to_string(),
            local: opt(local)?,
            peer: opt(peer)?,
        });
    }
    Ok(Mlag {
        admin: admin.to_string(),
        oper: oper.to_string(),
        system_mac,
        inactive: count("Inactive")?,
        partial: count("Active-partial")?,
        ipls,
    })
}

/// `show ip route [A.B.C.D]` (text; `…/more/cray-docs-csm__sw-spine-001__show_ip_route_10.92.100.60.txt`,
/// `…show_ip_route_vrf_all_bgp.txt`): the default VRF's table (`VRF Name default:`), its
/// columns where its header puts them (Destination, Mask, Flag, Gateway, Interface, Source,
/// AD/M); a row with no destination is one more next hop of the route above it. A reply with
/// no such table is not a routing table, and says so.
pub fn ip_route(text: &str) -> Result<Vec<Route>, String> {
    let mut lines = text.lines().map(|l| l.trim_end_matches('\r'));
    // The default VRF's table: from its title to the next VRF's.
    let mut vrf = false;
    let mut columns: Option<Vec<usize>> = None;
    let mut routes: Vec<Route> = Vec::new();
    let names = [
        "Destination",
        "Mask",
        "Flag",
        "Gateway",
        "Interface",
        "Source",
        "AD/M",
    ];
    for line in lines.by_ref() {
        if let Some(name) = line.trim().strip_prefix("VRF Name ") {
            if vrf {
                break;
            }
            vrf = name.trim_end_matches(':') == "default";
            continue;
        }
        if !vrf || line.trim().is_empty() || line.trim().chars().all(|c| c == '-') {
            continue;
        }
        if line.trim_start().starts_with("Destination") {
            let at: Option<Vec<usize>> = names.iter().map(|n| line.find(n)).collect();
            match at {
                Some(at) if at.windows(2).all(|w| w[0] < w[1]) => columns = Some(at),
                _ => return Err(format!("`{}`: not the routing table's header", line.trim())),
            }
            continue;
        }
        let Some(at) = &columns else {
            return Err(format!(
                "`{}`: a row before the table's header",
                line.trim()
            ));
        };
        let cell = |i: usize| {
            let end = at.get(i + 1).copied().unwrap_or(line.len()).min(line.len());
            line.get(at[i].min(line.len())..end).unwrap_or("").trim()
        };
        let (dest, mask, gateway, iface, source) = (cell(0), cell(1), cell(3), cell(4), cell(5));
        if gateway.is_empty() || iface.is_empty() {
            return Err(format!(
                "`{}`: a row without a gateway or interface",
                line.trim()
            ));
        }
        if dest.is_empty() {
            let Some(last) = routes.last_mut() else {
                return Err(format!("`{}`: a next hop without a route", line.trim()));
            };
            last.hops.push((gateway.to_string(), iface.to_string()));
            continue;
        }
        let addr: Ipv4Addr = if dest == "default" {
            Ipv4Addr::UNSPECIFIED
        } else {
            dest.parse()
                .map_err(|_| format!("`{dest}`: not a destination address"))?
        };
        let len = mask
            .parse::<Ipv4Addr>()
            .ok()
            .and_then(crate::types::Ipv4Net::len_of_mask)
            .ok_or_else(|| format!("`{mask}`: not a network mask"))?;
        routes.push(Route {
            prefix: crate::types::Ipv4Net { addr, len },
            source: source.to_string(),
            hops: vec![(gateway.to_string(), iface.to_string())],
        });
    }
    if columns.is_none() && !text.contains("VRF Name") {
        return Err("no routing table (`VRF Name default:` and its header) in the reply".into());
    }
    Ok(routes)
}
