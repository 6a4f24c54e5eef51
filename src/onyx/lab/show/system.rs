//! The switch itself: `show version`, `show hosts`, `show inventory`, `show module`, `show
//! protocols`. What a simulated switch has no hardware for (serial number, host ID, UUID) is
//! derived from its name, so it is stable across restarts and differs between switches.

use std::fmt::Write as _;

use serde_json::{Map, json};

use super::interfaces::{ruled, shown};
use super::json::Obj;
use super::management::kept_protocol;
use super::{Cx, Shown};
use crate::lab::network::base_mac;
use crate::onyx::Protocol;
use crate::onyx::lab::cli::Unconfirmed;
use crate::types::Release;

/// Before 3.7 the product is `MLNX-OS` and the serial number is printed quoted, backslashes
/// included (`\"MT1632X00205\"`: 3.6.1102 and 3.6.5000 captured; 3.7.1160 prints `Onyx`).
const ONYX_NAME: Release = Release(3, 7, 0);

/// The lab's build of every release (no capture can say when a release the lab imitates was
/// built): [`Unconfirmed::LabBuildDate`], [`Unconfirmed::LabBuiltBy`].
fn build() -> (&'static str, &'static str) {
    (
        Unconfirmed::LabBuildDate.text(),
        Unconfirmed::LabBuiltBy.text(),
    )
}

/// The switch's serial number: `MT` + 4 digits + `X` + 5 digits, as the captured
/// `MT1845X03127`, derived from its name.
fn serial(me: &str) -> String {
    let [_, _, _, a, b, c] = base_mac(me).0;
    let n = u32::from_be_bytes([0, a, b, c]);
    format!("MT{:04}X{:05}", n % 10_000, n / 10_000 % 100_000)
}

/// The host ID: the base MAC's 12 hex digits, as the captured `248A073D505C` (a Mellanox
/// OUI, like the port MACs around it).
fn host_id(me: &str) -> String {
    base_mac(me).to_string().replace(':', "")
}

/// A UUID ending in the base MAC, as the captured `7ce27170-e2ba-11e8-8000-98039befd600`.
fn uuid(me: &str) -> String {
    let mac = host_id(me).to_lowercase();
    format!("03000200-0400-0500-8000-{mac}")
}

/// `show version`'s uptime: `1d 16h 31m 43.856s`, `17h 27m 36.480s` (both captured: units
/// before the first non-zero one are left out; below an hour the same rule, UNCONFIRMED).
fn uptime(d: std::time::Duration) -> String {
    let (days, h, m, sec) = super::dhms(d);
    let ms = d.subsec_millis();
    let mut out = String::new();
    if days > 0 {
        let _ = write!(out, "{days}d ");
    }
    if days > 0 || h > 0 {
        let _ = write!(out, "{h}h ");
    }
    if days > 0 || h > 0 || m > 0 {
        let _ = write!(out, "{m}m ");
    }
    let _ = write!(out, "{sec}.{ms:03}s");
    out
}

/// `show version`: the layout of every capture (`…/show/ansible-onyx__onyx_command_show_version.txt`
/// 3.6.5000, `…/show/napalm-onyx__show_version.txt` 3.7.1160,
/// `…/more/grantcurell__mellanox.lan__show_version_Onyx_3.8.2004.txt`, the 3.10.4504 one in
/// `…/show/oxidized__mlnxos_Onyx_3.10.4504_simulation.yaml`), the uptime since the lab started
/// the switch (a `--stdio` session: since its process started). `Product model` is
/// `x86onie` as on every captured Spectrum switch: the hardware model is in `show inventory`
/// and `show lldp local`. JSON: `…/show/ansible-onyx__onyx_facts_show_version__json.cfg`, in
/// its key order.
pub fn version(cx: &Cx<'_>) -> Shown {
    let r = cx.sw.release;
    let me = me(cx);
    let name = if r < ONYX_NAME { "MLNX-OS" } else { "Onyx" };
    let serial = serial(&me);
    let printed_serial = if r < ONYX_NAME {
        format!("\\\"{serial}\\\"")
    } else {
        serial.clone()
    };
    let (date, by) = build();
    let summary = format!("X86_64 {r} {date} x86_64");
    let up = uptime(cx.sw.booted.elapsed());
    let (host, uuid) = (host_id(&me), uuid(&me));
    let (cpus, memory, swap, load) = (
        "2",
        "2738 MB used / 5065 MB free / 7803 MB total",
        "0 MB used / 0 MB free / 0 MB total",
        "0.00 / 0.00 / 0.00",
    );
    let text = format!(
        "Product name:      {name}\nProduct release:   {r}\nBuild ID:          #1-dev\nBuild date:        {date}\nTarget arch:       x86_64\nTarget hw:         x86_64\nBuilt by:          {by}\nVersion summary:   {summary}\n\nProduct model:     x86onie\nHost ID:           {host}\nSystem serial num: {printed_serial}\nSystem UUID:       {uuid}\n\nUptime:            {up}\nCPU load averages: {load}\nNumber of CPUs:    {cpus}\nSystem memory:     {memory}\nSwap:              {swap}\n"
    );
    let json = json!({
        "Uptime": up,
        "Product model": "x86onie",
        "Build date": date,
        "Target arch": "x86_64",
        "Target hw": "x86_64",
        "Number of CPUs": cpus,
        "Build ID": "#1-dev",
        "CPU load averages": load,
        "Host ID": host,
        "System serial num": serial,
        "System UUID": uuid,
        "Swap": swap,
        "Product name": name,
        "Built by": by,
        "System memory": memory,
        "Version summary": summary,
        "Product release": r.to_string(),
    });
    shown(text, json)
}

/// The switch's name in the network (its fabric name), else its hostname.
fn me(cx: &Cx<'_>) -> String {
    cx.world
        .map_or_else(|| cx.sw.hostname().to_string(), |w| w.me.clone())
}

/// `show hosts`, in the layout of `…/show/napalm-onyx__show_hosts.txt`: the hostname, the
/// static mappings every switch has; no name server or domain (the lab has no DHCP on its
/// management port: the sections are printed empty, UNCONFIRMED). JSON: no capture; the
/// fields by name (UNCONFIRMED).
pub fn hosts(cx: &Cx<'_>) -> Shown {
    let host = cx.sw.hostname();
    let text = format!(
        "Hostname: {host}\n\nName servers:\n\nDomain names:\n\nStatic IPv4 host mappings:\n  {:<37}--> localhost\n\nStatic IPv6 host mappings:\n  {:<37}--> localhost6\n\nAutomatically map hostname to loopback address     : yes\nAutomatically map hostname to IPv6 loopback address: no\n",
        "127.0.0.1", "::1"
    );
    let json = json!({
        "Hostname": host,
        "Name servers": [],
        "Domain names": [],
        "Static IPv4 host mappings": { "127.0.0.1": "localhost" },
        "Static IPv6 host mappings": { "::1": "localhost6" },
        "Automatically map hostname to loopback address": "yes",
        "Automatically map hostname to IPv6 loopback address": "no",
    });
    shown(text, json)
}

/// The modules `show inventory` lists: the chassis and management board (the model's part
/// number, [`Unconfirmed::PartNumber`]), four fans and two power supplies (the 3.10.4504
/// capture's; other models' counts are UNCONFIRMED), with their part number, serial, ASIC
/// and hardware revisions.
fn modules(cx: &Cx<'_>) -> Vec<[String; 5]> {
    let part = cx.sw.model.map_or_else(
        || "N/A".to_string(),
        |m| Unconfirmed::PartNumber.text().replace("{}", m.name),
    );
    let serial = serial(&me(cx));
    let mut out = vec![
        [
            "CHASSIS".into(),
            part.clone(),
            serial.clone(),
            "N/A".into(),
            "A1".into(),
        ],
        ["MGMT".into(), part, serial, "1".into(), "A1".into()],
    ];
    for n in 1..=4 {
        out.push([
            format!("FAN{n}"),
            "N/A".into(),
            "N/A".into(),
            "N/A".into(),
            "N/A".into(),
        ]);
    }
    for n in 1..=2 {
        out.push([
            format!("PS{n}"),
            "N/A".into(),
            "N/A".into(),
            "N/A".into(),
            "N/A".into(),
        ]);
    }
    out
}

/// `show inventory`, in the layout of the 3.10.4504 capture
/// (`…/show/oxidized__mlnxos_Onyx_3.10.4504_simulation.yaml`: rows narrower than the header
/// from the serial number on, as captured). JSON: no capture; `{module: [{column: value}]}`
/// as `show module`'s (UNCONFIRMED).
pub fn inventory(cx: &Cx<'_>) -> Shown {
    let rule = "-".repeat(77);
    let mut text = format!(
        "{rule}\n{:<17}{:<19}{:<21}{:<13}HW Rev.\n{rule}\n",
        "Module", "Part Number", "Serial Number", "Asic Rev."
    );
    let mut json = Map::new();
    for [module, part, serial, asic, hw] in modules(cx) {
        let _ = writeln!(text, "{module:<17}{part:<19}{serial:<13}{asic:<13}{hw}");
        json.insert(
            module,
            json!([{
                "Part Number": part,
                "Serial Number": serial,
                "Asic Rev.": asic,
                "HW Rev.": hw,
            }]),
        );
    }
    shown(text, json)
}

/// `show module`: the management board, `ready`. JSON: `…/show/ansible-onyx__onyx_facts_show_module__show_module_json.cfg`.
/// Text: no capture ([`Unconfirmed::ModuleHeader`]).
pub fn module(_cx: &Cx<'_>) -> Shown {
    let text = ruled(Unconfirmed::ModuleHeader.text()) + &format!("{:<18}ready\n", "MGMT");
    shown(text, json!({ "MGMT": [{ "Status": "ready" }] }))
}

/// `show protocols`: what the running config turns on, every protocol of the JSON capture
/// (`…/show/ansible-onyx__onyx_protocols_show__show_protocols_json.cfg`, in its order; it
/// names `bfd` twice, a JSON object holds it once). Spanning tree runs in Onyx's default
/// mode, `rst` (captured); Ethernet and ETS are always on (captured). Text: one line per
/// protocol as `…/more/cray-docs-csm__sw-spine-001__show_protocols_include_bgp.txt` prints
/// `bgp` (` bgp:                    enabled`); the order of the lines and any heading are
/// UNCONFIRMED.
pub fn protocols(cx: &Cx<'_>) -> Shown {
    let c = &cx.sw.running;
    let on = |b: bool| if b { "enabled" } else { "disabled" };
    let stp = if c.spanning_tree { "rst" } else { "disabled" };
    let rows: [(&str, &str); 24] = [
        ("pim", on(false)),
        ("dhcp-relay", on(false)),
        ("igmp-snooping", on(false)),
        ("lacp", on(c.lacp)),
        ("ptp", on(kept_protocol(cx.sw, "ptp"))),
        ("lldp", on(c.lldp)),
        ("isolation-group", on(false)),
        ("bfd", on(c.protocols.contains(&Protocol::Bfd))),
        ("openflow", on(false)),
        ("telemetry", on(false)),
        ("vrrp", on(false)),
        ("spanning-tree", stp),
        ("mlag", on(c.protocols.contains(&Protocol::Mlag))),
        ("magp", on(kept_protocol(cx.sw, "magp"))),
        ("nve", on(false)),
        ("Ethernet", on(true)),
        ("IP L3", on(c.ip_routing)),
        ("ets", on(true)),
        ("sflow", on(false)),
        ("dhcp-relay(v6)", on(false)),
        ("dot1x", on(false)),
        ("bgp", on(c.protocols.contains(&Protocol::Bgp))),
        ("priority-flow-control", on(c.pfc.enabled)),
        ("ospf", on(kept_protocol(cx.sw, "ospf"))),
    ];
    let mut text = String::new();
    let mut json = Map::new();
    for (name, state) in rows {
        let _ = writeln!(text, " {:<24}{state}", format!("{name}:"));
        json.insert(name.to_string(), json!(state));
    }
    shown(text, json)
}

/// `show ntp configured`: NTP on or off (`ntp enable`, `ntp disable`; off from the factory),
/// authentication (`ntp authenticate`), and each server and peer of the switch's `ntp server
/// A …` and `ntp peer A …` lines (the lines the lab keeps verbatim), with its version (`version
/// N`, else 4), whether it is enabled (`disable`), trusted (`trusted-enable`; a server's
/// field) and its key (`keyID N`). JSON in the shapes of Ansible's fixtures
/// (`ansible-onyx__onyx_show_ntp_configured__show_ntp_configured_json.cfg`: none configured,
/// its two messages; `…onyx_ntp_servers_peers_show__show_ntp_configured_json.cfg`: a peer and
/// a server, each headed `NTP peer A`); a server's `Trusted` when not trusted and the text
/// layout (the same fields, `key: value`) are UNCONFIRMED.
pub fn ntp_configured(cx: &Cx<'_>) -> Shown {
    let lines: Vec<Vec<&str>> = cx
        .sw
        .running
        .layout
        .sections
        .iter()
        .flat_map(|s| s.verbatim.iter().map(|(_, l)| l.trim()))
        .filter(|l| l.starts_with("ntp ") || l.starts_with("no ntp "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    // The last line that sets it: the line, its `no` form, or its `off` word.
    let flag = |on: &[&str], off: Option<&[&str]>| {
        lines.iter().rev().find_map(|w| {
            if w.as_slice() == on {
                Some(true)
            } else if Some(w.as_slice()) == off || (w.first() == Some(&"no") && &w[1..] == on) {
                Some(false)
            } else {
                None
            }
        })
    };
    let enabled = flag(&["ntp", "enable"], Some(&["ntp", "disable"])).unwrap_or(false);
    let auth = flag(&["ntp", "authenticate"], None).unwrap_or(false);
    let mut global = Obj::new()
        .s("NTP enabled", yes(enabled))
        .s("NTP Authentication enabled", yes(auth));
    let mut text = format!(
        "NTP enabled: {}\nNTP Authentication enabled: {}\n",
        yes(enabled),
        yes(auth)
    );
    let peers = ntp_entries(&lines, "peer", &mut text);
    let servers = ntp_entries(&lines, "server", &mut text);
    if peers.is_empty() {
        global = global.s("message 1", "No NTP peers configured.");
        text.push_str("No NTP peers configured.\n");
    }
    if servers.is_empty() {
        global = global.s("message 2", "No NTP servers configured.");
        text.push_str("No NTP servers configured.\n");
    }
    let mut all = vec![global.build()];
    all.extend(peers);
    all.extend(servers);
    shown(text, serde_json::Value::Array(all))
}

/// `yes` or `no`.
fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The NTP servers or peers (`kind`) of the `ntp` lines, each as its block of text (after
/// `text`) and its JSON entry.
fn ntp_entries(lines: &[Vec<&str>], kind: &str, text: &mut String) -> Vec<serde_json::Value> {
    let of_kind: Vec<&Vec<&str>> = lines
        .iter()
        .filter(|w| w.len() >= 3 && w[0] == "ntp" && w[1] == kind)
        .collect();
    // The last line of each address says it all (a line typed again replaces it).
    let mut by_addr: Vec<(&str, &Vec<&str>)> = Vec::new();
    for w in of_kind {
        by_addr.retain(|(a, _)| *a != w[2]);
        by_addr.push((w[2], w));
    }
    let mut entries = Vec::new();
    for (addr, w) in by_addr {
        let after = |k: &str| w.iter().position(|x| *x == k).and_then(|i| w.get(i + 1));
        let mut fields = vec![
            ("NTP version", after("version").copied().unwrap_or("4")),
            ("Enabled", yes(!w.contains(&"disable"))),
        ];
        // In this order the dictionary prints them as the fixture does.
        if let Some(k) = after("keyID") {
            fields.push(("Key ID", k));
        }
        if kind == "server" {
            fields.push(("Trusted", yes(w.contains(&"trusted-enable"))));
        }
        let _ = writeln!(text, "\nNTP {kind} {addr}");
        let mut e = Obj::new();
        for (k, v) in &fields {
            let _ = writeln!(text, "  {k}: {v}");
            e = e.s(k, v);
        }
        entries.push(e.s("header", format!("NTP {kind} {addr}")).build());
    }
    entries
}
