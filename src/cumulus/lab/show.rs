//! `nv show …` on a Cumulus lab switch, from its applied tree and the simulated network.
//!
//! JSON shapes (`/work/nvue-facts.md` §1-§2): no 5.x capture of any of them; each shape
//! below is written as [`SHAPES`] says, UNCONFIRMED.

use serde_json::{Map, Value, json};

use super::{CumulusSwitch, Unconfirmed};
use crate::cumulus::rules;
use crate::cumulus::tree::{self, Tree};
use crate::lab::Reply;
use crate::lab::network::{Peer, SessionState, World};

/// UNCONFIRMED: the JSON shapes the lab prints, each with what it rests on.
pub const SHAPES: &[(&str, &str)] = &[
    (
        "nv show interface -o json",
        "an object keyed by interface name, each {type, link: {admin-status, oper-status, mtu, speed, state: {up|down: {}}}, ip: {address: {A: {}}}}: clients (NAPALM 5.12, NVIDIA's tests) and the 4.4 REST capture",
    ),
    (
        "nv show interface <if> -o json",
        "the same inner object without the name key (NAPALM reads it so)",
    ),
    (
        "nv show interface <if> lldp neighbor -o json",
        "an object keyed by the neighbor's name, each {chassis: {system-name}, port: {name}} (NAPALM's lldp view, NVIDIA's tests)",
    ),
    (
        "nv show vrf default router bgp neighbor -o json",
        "an object keyed by neighbor (its address, or its port for an unnumbered one), each {remote-as, state}: field names guessed from the 5.15 table's columns; an unnumbered neighbor's remote-as as configured (`external`, `internal` or the number)",
    ),
];

fn text(s: String) -> Reply {
    Reply::text(s)
}

/// `nv show WORDS`.
pub fn show(sw: &CumulusSwitch, words: &[&str], world: Option<&World>) -> Reply {
    let json = words.ends_with(&["-o", "json"]);
    let words: Vec<&str> = match json {
        true => words[..words.len() - 2].to_vec(),
        false => words.to_vec(),
    };
    let t = &sw.applied;
    match words.as_slice() {
        ["system"] => text(system(sw)),
        ["qos", "roce"] => text(roce(t)),
        ["interface"] if json => text(pretty(&Value::Object(interfaces(sw, world)))),
        ["interface", "lldp"] if json => text(pretty(&lldp_all(t, world))),
        // A configured object's applied tree (`verify::json::SHAPES`).
        ["router", "bgp"] | ["qos", "pfc", "default-global"] | ["mlag"] if json => {
            match tree::get(t, &words) {
                Some(n) => text(pretty(&serde_json::to_value(n).unwrap_or_default())),
                None => Unconfirmed::NoSuchItem.reply(),
            }
        }
        ["interface", "--view=lldp"] | ["interface", "--view", "lldp"] => {
            text(lldp_table(t, world))
        }
        ["interface", name] if json => match interfaces(sw, world).remove(*name) {
            Some(v) => text(pretty(&v)),
            None => Unconfirmed::NoSuchItem.reply(),
        },
        ["interface", name, "lldp", "neighbor"] if json => match lldp_of(name, world) {
            Some(v) => text(pretty(&v)),
            None => Unconfirmed::NoSuchItem.reply(),
        },
        ["vrf", "default", "router", "bgp", "neighbor"] if json => text(pretty(&bgp(t, world))),
        ["interface", name, rest @ ..] if !json && super::counters::answers(rest) => {
            super::counters::show(sw, name, rest, world)
        }
        _ => Reply::text(Unconfirmed::Unknown.with(&format!("show {}", words.join(" ")))),
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
}

/// `nv show system`: the 5.3 capture's rows.
fn system(sw: &CumulusSwitch) -> String {
    let host = tree::value(&sw.applied, &["system", "hostname"]).unwrap_or("cumulus");
    let up = sw.booted.elapsed().map_or(0, |d| d.as_secs());
    let (d, h, m, s) = (up / 86400, up / 3600 % 24, up / 60 % 60, up % 60);
    let build = format!("Cumulus Linux {}", sw.release);
    let uptime = format!("{d} days, {h}:{m:02}:{s:02}");
    let tz = tree::value(&sw.applied, &["system", "timezone"]).unwrap_or("Etc/UTC");
    let rows = [
        ("hostname", host, "hostname"),
        ("build", &build, "system build version"),
        ("uptime", &uptime, "system uptime"),
        ("timezone", tz, "system time zone"),
    ];
    let mut out = format!(
        "{:<20}{:<21}{:<21}\n{:-<19} {:-<20} {:-<21}\n",
        "operational", "applied", "description", "", "", ""
    );
    for (k, op, desc) in rows {
        out.push_str(&format!("{k:<20}{op:<21}{desc}\n"));
    }
    out
}

/// `nv show qos roce`: the applied `qos roce` settings (the 5.14 document's first rows).
fn roce(t: &Tree) -> String {
    let v = |k: &str| {
        tree::value(t, &["qos", "roce", k])
            .unwrap_or("")
            .to_string()
    };
    let mut out = format!(
        "{:<20}{:<23}{}\n{:-<18}  {:-<21}  {:-<21}\n",
        "", "operational", "applied", "", "", ""
    );
    for k in ["enable", "state", "mode"] {
        let val = v(k);
        if !val.is_empty() {
            let op = if k == "mode" { val.as_str() } else { "" };
            out.push_str(&format!("{k:<20}{op:<23}{val}\n"));
        }
    }
    out
}

/// An Ethernet port's speed when the tree sets none: its model's native speed, split by its
/// parent port's breakout.
fn native_speed(sw: &CumulusSwitch, t: &Tree, name: &str) -> Option<String> {
    let p = rules::port(name)?;
    let hw = crate::targets::Rules::model(&rules::RULES, &sw.model)?;
    let parent = crate::cumulus::target::port_name(p.parent());
    let split = tree::get(t, &["interface", &parent])
        .and_then(|n| n.map())
        .and_then(tree::breakout);
    let split = split.filter(|_| p.sub.is_some());
    hw.native_speed(p.parent(), split).map(|s| s.to_string())
}

/// `nv show interface lldp -o json`: every port's LLDP neighbor, by port.
fn lldp_all(t: &Tree, world: Option<&World>) -> Value {
    let mut out = Map::new();
    for name in tree::names(t, &["interface"]) {
        if let Some(n) = lldp_of(name, world)
            && n.as_object().is_some_and(|m| !m.is_empty())
        {
            out.insert(name.to_string(), json!({"lldp": {"neighbor": n}}));
        }
    }
    Value::Object(out)
}

/// Each interface of the tree as `nv show interface -o json` gives it.
fn interfaces(sw: &CumulusSwitch, world: Option<&World>) -> Map<String, Value> {
    let t = &sw.applied;
    let mut out = Map::new();
    let Some(ifaces) = tree::get(t, &["interface"]).and_then(|n| n.map()) else {
        return out;
    };
    for (name, i) in ifaces {
        let Some(i) = i.map() else { continue };
        let admin_down = tree::names(i, &["link", "state"]).first() == Some(&"down");
        let oper = match (rules::port(name), world) {
            (Some(p), Some(w)) => w.net().port_up(&w.me, p),
            (Some(_), None) => false,
            (None, _) => !admin_down,
        };
        let word = |up: bool| if up { "up" } else { "down" };
        let mtu: u64 = tree::value(i, &["link", "mtu"])
            .and_then(|m| m.parse().ok())
            .unwrap_or(9216);
        let mut link = json!({
            "admin-status": word(!admin_down),
            "oper-status": word(oper),
            "mtu": mtu,
            "state": { word(oper): {} },
        });
        let speed = tree::value(i, &["link", "speed"])
            .map(str::to_string)
            .or_else(|| native_speed(sw, t, name));
        if let Some(s) = speed.filter(|_| oper) {
            link["speed"] = json!(s);
        }
        let address: Map<String, Value> = tree::names(i, &["ip", "address"])
            .into_iter()
            .map(|a| (a.to_string(), json!({})))
            .collect();
        let kind = tree::value(i, &["type"]).unwrap_or("swp");
        out.insert(
            name.to_string(),
            json!({"type": kind, "link": link, "ip": {"address": address}}),
        );
    }
    out
}

/// `nv show interface <if> lldp neighbor -o json`: the far switch on the port.
fn lldp_of(name: &str, world: Option<&World>) -> Option<Value> {
    let p = rules::port(name)?;
    let mut out = Map::new();
    if let Some(w) = world
        && let Some(n) = w.net().lldp_neighbor(&w.me, p)
    {
        out.insert(
            n.system_name.clone(),
            json!({"chassis": {"system-name": n.system_name}, "port": {"name": n.port_id}}),
        );
    }
    Some(Value::Object(out))
}

/// `nv show interface --view=lldp`: the 5.x table of the NetApp capture.
fn lldp_table(t: &Tree, world: Option<&World>) -> String {
    let mut out = format!(
        "\n{:<11}{:<7}{:<12}{:<25}{}\n{:-<9}  {:-<5}  {:-<10}  {:-<23}  {:-<11}\n",
        "LocalPort", "Speed", "Mode", "RemoteHost", "RemotePort", "", "", "", "", ""
    );
    let Some(w) = world else { return out };
    for name in tree::names(t, &["interface"]) {
        let Some(p) = rules::port(name) else { continue };
        let Some(n) = w.net().lldp_neighbor(&w.me, p) else {
            continue;
        };
        let speed = tree::value(t, &["interface", name, "link", "speed"]).unwrap_or("");
        let mode = match tree::get(t, &["interface", name, "bridge"]) {
            Some(_) => "Access/L2",
            None => "Default",
        };
        out.push_str(&format!(
            "{name:<11}{speed:<7}{mode:<12}{:<25}{}\n",
            n.system_name, n.port_id
        ));
    }
    out
}

/// `nv show vrf default router bgp neighbor -o json`: numbered neighbors by address,
/// unnumbered ones by port (`swp33`) with their `remote-as` as configured; FRR's sessions
/// under `--dataplane`.
fn bgp(t: &Tree, world: Option<&World>) -> Value {
    let mut out = Map::new();
    let Some(w) = world else {
        return Value::Object(out);
    };
    let net = w.net();
    // With the lab's data plane, FRR's sessions.
    let frr = w
        .network
        .dataplane_ns(&w.me)
        .and_then(|ns| crate::lab::frr::bgp_view(&ns));
    if let Some(b) = frr.as_ref().or_else(|| net.bgp().get(&w.me)) {
        for s in &b.sessions {
            let state = match s.state {
                SessionState::Established => "established",
                SessionState::Active => "active",
                SessionState::Idle => "idle",
            };
            let (key, remote) = match s.neighbor {
                Peer::Addr(a) => (a.to_string(), json!(s.remote_as)),
                Peer::Port(p) => {
                    let name = crate::cumulus::target::port_name(p);
                    let path = ["vrf", "default", "router", "bgp", "neighbor", &name];
                    // Established, the AS the far end spoke (operational); else as
                    // configured (`external`).
                    let configured = tree::value(t, &[&path[..], &["remote-as"]].concat());
                    let r = match (s.state, configured) {
                        (SessionState::Established, _) | (_, None) => json!(s.remote_as),
                        (_, Some(r)) => r.parse::<u32>().map_or_else(|_| json!(r), |n| json!(n)),
                    };
                    (name, r)
                }
            };
            out.insert(key, json!({"remote-as": remote, "state": state}));
        }
    }
    Value::Object(out)
}
