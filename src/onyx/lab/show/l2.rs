//! Layer 2: `show interfaces switchport`, `show vlan`, `show mac-address-table`. The L2
//! interfaces are the Ethernet ports that are neither routed nor bundled, then the
//! port-channels and MLAG port-channels; which VLANs each carries follows its switchport
//! mode (access: its access VLAN; hybrid: that and its allowed VLANs; trunk: its allowed
//! VLANs, all of them by default), as the network derives it.

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use super::interfaces::{eth, ports, ruled, shown};
use super::{Cx, Shown};
use crate::lab::network::carries;
use crate::onyx::lab::cli::Unconfirmed;
use crate::onyx::{Allowed, Iface, Interface};
use crate::types::{SwitchportMode, Vlan};

/// The L2 interfaces, in the order the captures list interfaces (Ethernet ports, then
/// port-channels, then MLAG port-channels), with their names and configuration.
fn l2<'a>(cx: &Cx<'a>) -> Vec<(Iface, String, Option<&'a Interface>)> {
    let c = &cx.sw.running;
    let mut out: Vec<(Iface, String, Option<&Interface>)> = ports(cx.sw)
        .into_iter()
        .map(|p| {
            (
                Iface::Ethernet(p),
                eth(p),
                c.interfaces.get(&Iface::Ethernet(p)),
            )
        })
        .filter(|(_, _, i)| !i.is_some_and(|i| i.routed || i.channel_group.is_some()))
        .collect();
    for (k, i) in &c.interfaces {
        let name = match k {
            Iface::PortChannel(n) => format!("Po{n}"),
            Iface::MlagPortChannel(n) => format!("Mpo{n}"),
            _ => continue,
        };
        if !i.routed {
            out.push((*k, name, Some(i)));
        }
    }
    out
}

/// The VLANs the switch has: VLAN 1 and the declared ones.
fn vlans(cx: &Cx<'_>) -> Vec<Vlan> {
    let mut v: Vec<Vlan> = cx.sw.running.vlans.keys().copied().collect();
    if let Ok(one) = Vlan::new(1)
        && !v.contains(&one)
    {
        v.insert(0, one);
    }
    v
}

fn mode(i: Option<&Interface>) -> SwitchportMode {
    i.and_then(|i| i.switchport_mode)
        .unwrap_or(SwitchportMode::Access)
}

/// A VLAN list as `show interfaces switchport` prints it: `10` (captured), several joined
/// by `, ` (UNCONFIRMED).
fn list(v: impl Iterator<Item = Vlan>) -> String {
    v.map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
}

/// `show interfaces switchport`: per L2 interface its mode, access VLAN and allowed VLANs
/// (hybrid: the added ones, without the access VLAN, as captured; trunk: every VLAN of the
/// switch it carries). JSON: `…/show/ansible-onyx__onyx_l2_interface_show__show_interfaces_switchport_json.cfg`.
/// Text: no capture, the lab's layout ([`Unconfirmed::SwitchportHeader`]); a trunk's access
/// VLAN is [`Unconfirmed::TrunkAccessVlan`].
pub fn switchport(cx: &Cx<'_>) -> Shown {
    let mut text = ruled(Unconfirmed::SwitchportHeader.text());
    let mut json = Map::new();
    let all = vlans(cx);
    for (_, name, i) in l2(cx) {
        let mode = mode(i);
        let access = match mode {
            SwitchportMode::Trunk => Unconfirmed::TrunkAccessVlan.text().to_string(),
            _ => i
                .and_then(|i| i.access_vlan)
                .map_or(1, Vlan::get)
                .to_string(),
        };
        let allowed = match mode {
            SwitchportMode::Access => String::new(),
            m => {
                let a = i
                    .and_then(|i| i.allowed.clone())
                    .unwrap_or_else(|| Allowed::default_for(m));
                if a.all {
                    list(all.iter().copied())
                } else {
                    list(a.vlans.iter())
                }
            }
        };
        let row = format!("{name:<20}{:<20}{access:<20}{allowed}", mode.to_string());
        let _ = writeln!(text, "{}", row.trim_end());
        json.insert(
            name,
            json!({ "Access vlan": access, "Allowed vlans": allowed, "Mode": mode.to_string() }),
        );
    }
    shown(text, super::api_rows(cx.sw.release, json))
}

/// `show vlan`: each VLAN with its name (`default` for VLAN 1, captured; a VLAN without a
/// name has an empty one, UNCONFIRMED) and the L2 interfaces that carry it, five to a line
/// (captured in the JSON: `"Eth1/1, …, Eth1/5,\nEth1/6, …"`). JSON:
/// `…/show/ansible-onyx__onyx_vlan_show__show_vlan_json.cfg`. Text: no capture, the lab's
/// layout ([`Unconfirmed::VlanHeader`]), the ports' lines under the Ports column.
pub fn vlan(cx: &Cx<'_>) -> Shown {
    let mut text = ruled(Unconfirmed::VlanHeader.text());
    let mut json = Map::new();
    let ifaces = l2(cx);
    let indent = Unconfirmed::VlanHeader.text().find("Ports").unwrap_or(50);
    for v in vlans(cx) {
        let name = if v.get() == 1 {
            "default".to_string()
        } else {
            cx.sw
                .running
                .vlans
                .get(&v)
                .and_then(|c| c.name.clone())
                .unwrap_or_default()
        };
        let members: Vec<&str> = ifaces
            .iter()
            .filter(|(k, _, i)| {
                let ipl = matches!(k, Iface::PortChannel(_)) && i.is_some_and(|i| i.ipl.is_some());
                carries(*i, v, ipl)
            })
            .map(|(_, n, _)| n.as_str())
            .collect();
        let lines: Vec<String> = members.chunks(5).map(|c| c.join(", ")).collect();
        let _ = write!(text, "{:<8}{name:<42}", v.to_string());
        let _ = writeln!(text, "{}", lines.join(&format!(",\n{:indent$}", "")));
        json.insert(
            v.to_string(),
            json!({ "Name": name, "Ports": lines.join(",\n") }),
        );
    }
    shown(text, super::api_rows(cx.sw.release, json))
}

/// `show mac-address-table`, in the layout of `…/show/napalm-onyx__show_mac_address_table.txt`:
/// empty, because a switch learns addresses from the frames it forwards and the lab forwards
/// none. JSON: no capture; an empty object (UNCONFIRMED).
pub fn mac_address_table(_cx: &Cx<'_>) -> Shown {
    let rule = "-".repeat(51);
    Shown {
        text: format!(
            "{rule}\n{:<8}{:<20}{:<13}Port\n{rule}\n\n\nNumber of unicast:    0\n",
            "Vlan", "Mac Address", "Type"
        ),
        json: Some(Value::Object(Map::new())),
    }
}
