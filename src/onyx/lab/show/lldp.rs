//! LLDP: `show lldp local`, `show lldp remote`, `show lldp interfaces`. A port hears a
//! neighbor when its link is up ([`crate::lab::network::Net::port_up`]) and LLDP runs on
//! both switches (`lldp`); the neighbor is the switch at the far end of the fabric's cable,
//! as that switch describes itself (its hostname, its chassis ID: its base MAC). Hosts are
//! not listed: whether a server runs an LLDP agent is not in the fabric.

use std::fmt::Write as _;

use serde_json::{Map, json};

use super::interfaces::{eth, ports, ruled, shown};
use super::{Cx, Shown};
use crate::lab::network::base_mac;
use crate::onyx::lab::cli::Unconfirmed;
use crate::types::Release;

/// The TLVs Onyx sends on every port (captured in `show lldp interfaces | json-print`).
const TLVS: &str = "PD, SN, SD, SC, MA, PFC, AP, ETS-C, ETS-R";

/// A chassis ID as LLDP shows it: the base MAC in lower case (`7c:fe:90:e5:ca:00`, captured).
fn chassis(name: &str) -> String {
    base_mac(name).to_string().to_lowercase()
}

/// `Mellanox MSN2700,MLNX-OS,SWv3.6.5000-04` (captured): the model, the product name of the
/// release, the release (the build suffix after it, `-04`, is the capture's own; the lab
/// prints none).
fn description(cx: &Cx<'_>) -> String {
    let model = cx.sw.model.map_or("N/A", |m| m.name);
    let product = if cx.sw.release < Release(3, 7, 0) {
        "MLNX-OS"
    } else {
        "Onyx"
    };
    format!("Mellanox M{model},{product},SWv{}", cx.sw.release)
}

/// `show lldp local`: whether LLDP runs and how the switch describes itself. JSON:
/// `…/show/ansible-onyx__onyx_lldp_show__show_lldp_local_json.cfg` (its order). The enabled
/// capabilities are the bridge, and the router when IP routing is on (the capture shows `B`
/// of `B,R`; the rule is UNCONFIRMED). Text: no capture, the lab's layout (the JSON's fields,
/// `LLDP: enabled`, then the block under its header; UNCONFIRMED).
pub fn local(cx: &Cx<'_>) -> Shown {
    let c = &cx.sw.running;
    let state = if c.lldp { "enabled" } else { "disabled" };
    let me = cx
        .world
        .map_or_else(|| cx.sw.hostname().to_string(), |w| w.me.clone());
    let caps = if c.ip_routing { "B,R" } else { "B" };
    let fields = [
        ("Chassis sub type", "Mac Address".to_string()),
        ("Chassis id", chassis(&me)),
        ("System Name", cx.sw.hostname().to_string()),
        ("System Description", description(cx)),
        ("Supported capabilities", "B,R".to_string()),
        ("Supported capabilities enabled", caps.to_string()),
    ];
    let mut text = format!("LLDP: {state}\n\nLocal global configuration\n");
    for (k, v) in &fields {
        let _ = writeln!(text, "  {k:<31}: {v}");
    }
    let find = |k: &str| {
        fields
            .iter()
            .find(|(f, _)| *f == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let json = json!([
        { "LLDP": state },
        {
            "Supported capabilities": find("Supported capabilities"),
            "Chassis sub type": find("Chassis sub type"),
            "header": "Local global configuration",
            "System Name": find("System Name"),
            "Supported capabilities enabled": find("Supported capabilities enabled"),
            "Chassis id": find("Chassis id"),
            "System Description": find("System Description"),
        }
    ]);
    shown(text, json)
}

/// `show lldp remote`: one row per port that hears a neighbor, in the layout of
/// `…/show/intel-mfd__show_lldp_remote.txt`; JSON as `…/show/napalm-onyx__show_lldp_remote_json-print.txt`
/// (`{port: [{"Device ID", "Port ID", "System Name"}]}`). The Port ID an Onyx neighbor sends
/// is [`Unconfirmed::LldpPortId`].
pub fn remote(cx: &Cx<'_>) -> Shown {
    let rule = "-".repeat(80);
    let mut text = format!(
        "{rule}\n{:<21}{:<21}{:<21}System Name\n{rule}\n",
        "Local Interface", "Device ID", "Port ID"
    );
    let mut json = Map::new();
    let all = ports(cx.sw);
    // What LLDP has learned on each port: the far end of its cable, or what a cabling fault
    // makes it report (`Net::lldp_neighbor`).
    let rows: Vec<(String, String, String, String)> = cx.net(|net, _, me| {
        all.iter()
            .filter_map(|p| {
                let n = net.lldp_neighbor(me, *p)?;
                let device = net
                    .cabling
                    .far(me, *p)
                    .map_or_else(|| chassis(&n.system_name), |(far, _)| chassis(far));
                Some((eth(*p), device, n.port_id, n.system_name))
            })
            .collect()
    });
    for (port, device, far_port, name) in rows {
        let _ = writeln!(text, "{port:<21}{device:<21}{far_port:<21}{name}");
        json.insert(
            port,
            json!([{ "Device ID": device, "Port ID": far_port, "System Name": name }]),
        );
    }
    shown(text, json)
}

/// `show lldp interfaces`: per port whether LLDP receives and transmits (with `lldp` on,
/// every port does but those with `no lldp receive|transmit`) and the TLVs it sends. JSON:
/// `…/show/ansible-onyx__onyx_lldp_interface_show__show_lldp_interfaces_json.cfg`. Text: no
/// capture, the lab's layout ([`Unconfirmed::LldpInterfacesHeader`]).
pub fn interfaces(cx: &Cx<'_>) -> Shown {
    let mut text = ruled(Unconfirmed::LldpInterfacesHeader.text());
    let mut json = Map::new();
    let word = |on: bool| if on { "Enabled" } else { "Disabled" };
    for p in ports(cx.sw) {
        let (rx, tx) = crate::lab::unmodeled::port_lldp(&cx.sw.running, p);
        let (rx, tx) = (word(rx), word(tx));
        let _ = writeln!(text, "{:<16}{rx:<12}{tx:<12}{TLVS}", eth(p));
        json.insert(
            eth(p),
            json!([{ "Receive": rx, "Transmit": tx, "TLVs": TLVS }]),
        );
    }
    shown(text, json)
}
