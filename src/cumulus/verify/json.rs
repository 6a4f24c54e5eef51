//! NVUE's `-o json` replies, read into what [`crate::verify::observed`] holds. The shapes are
//! in [`SHAPES`], one row per command, each with its source; the lab prints these shapes.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use serde_json::{Map, Value};

use crate::types::Port;
use crate::verify::observed::{BgpNeighbor, BgpSummary, Link, Neighbor};

/// One reply shape: the command, the shape read (`<name>` a key the switch names, `…` more
/// keys not read), and where it comes from.
pub struct Shape {
    pub command: &'static str,
    pub shape: &'static str,
    pub source: &'static str,
}

/// The reply shapes read here. UNCONFIRMED: no verbatim NVUE 5.x `-o json` output of any of
/// these commands is in the corpus (`/work/nvue-facts.md`, "Could not find"); each row is
/// what the tools that parse them read.
pub const SHAPES: &[Shape] = &[
    Shape {
        command: "nv show interface -o json",
        shape: r#"{"<iface>": {"type": "swp", "link": {"admin-status": "up", "oper-status": "up", "speed": "800G", "mtu": 9216, "state": {"up": {}}, …}, …}, …}"#,
        source: "UNCONFIRMED [tool]: NAPALM's and NVIDIA's test clients read `link.admin-status`, `link.oper-status`, `link.speed`; Cumulus 4.4's REST capture has `link.state: {up: {}}` instead of the two statuses (read when they are absent)",
    },
    Shape {
        command: "nv show interface lldp -o json",
        shape: r#"{"<iface>": {"lldp": {"neighbor": {"<id>": {"chassis": {"system-name": "spine01", …}, "port": {"name": "swp1", "description": …}}}}}, …}"#,
        source: "UNCONFIRMED [tool]: NAPALM's `get_lldp_neighbors` on 5.12",
    },
    Shape {
        command: "nv show vrf default router bgp neighbor -o json",
        shape: r#"{"<address or port>": {"remote-as": 65000, "state": "established", …}, …}"#,
        source: "UNCONFIRMED [tool]: the 5.12+ summary keyed by neighbor; field names as clients read them (`remote-as`|`remote-asn`|`asn`, `state`|`session-state`|`bgp-state`)",
    },
    Shape {
        command: "nv show router bgp -o json",
        shape: r#"{"autonomous-system": 65101, "router-id": "10.255.1.1", …}"#,
        source: "UNCONFIRMED: the configuration's own tree (`nv set router bgp autonomous-system N`, `router-id A`), as NVUE's show of a configured object prints it",
    },
    Shape {
        command: "nv show qos pfc default-global -o json",
        shape: r#"{"switch-priority": {"<prio>": {}, …}, "tx": "enable", "rx": "enable", …}"#,
        source: "UNCONFIRMED: the configuration's own tree (`nv set qos pfc default-global switch-priority 3`), as NVUE's show of a configured object prints it",
    },
    Shape {
        command: "nv config show -o yaml",
        shape: "- set: … (the applied tree, as `cumulus::tree` reads it)",
        source: "capture: the corpus's `nv config show` and `startup.yaml` files; read for the QoS, switch-wide",
    },
    Shape {
        command: "nv show mlag -o json",
        shape: "(not read: asked, and refused as unread)",
        source: "UNCONFIRMED: neither a capture nor a documented JSON shape",
    },
    Shape {
        command: "nv show vrf default router rib ipv4 route <prefix> -o json",
        shape: "(not read: asked, and refused as unread)",
        source: "UNCONFIRMED: neither a capture nor a documented JSON shape (the corpus has the text form only)",
    },
];

/// The reply as a JSON object, else why not.
fn object(reply: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(reply.trim()) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err("the reply is JSON but not an object".into()),
        Err(e) => Err(format!("the reply is not JSON: {e}")),
    }
}

/// A string or number field.
fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// `800G`, `100G`, `1G`, `400000` (Mb/s) → Gb/s.
fn gbps(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_suffix('G') {
        Some(g) => g.parse().ok(),
        None => s
            .strip_suffix('M')
            .unwrap_or(s)
            .parse::<u32>()
            .ok()
            .map(|m| m / 1000)
            .filter(|g| *g > 0),
    }
}

/// `nv show interface -o json`: each front-panel port's admin and operational state and
/// speed.
pub fn interfaces(reply: &str) -> Result<BTreeMap<Port, Link>, String> {
    let mut out = BTreeMap::new();
    for (name, i) in object(reply)? {
        let Some(port) = super::super::rules::port(&name) else {
            continue;
        };
        let link = i
            .get("link")
            .and_then(Value::as_object)
            .ok_or_else(|| format!("`{name}` has no `link` object"))?;
        let state_key = link
            .get("state")
            .and_then(Value::as_object)
            .and_then(|s| (s.len() == 1).then(|| s.keys().next().cloned()).flatten());
        let oper = link
            .get("oper-status")
            .and_then(text)
            .or(state_key)
            .ok_or_else(|| format!("`{name}` has neither `link.oper-status` nor `link.state`"))?;
        let speed_text = link.get("speed").and_then(text);
        out.insert(
            port,
            Link {
                admin: link
                    .get("admin-status")
                    .and_then(Value::as_str)
                    .map(|a| a.eq_ignore_ascii_case("up")),
                oper,
                speed: speed_text.as_deref().and_then(gbps),
                speed_text,
            },
        );
    }
    Ok(out)
}

/// `nv show interface lldp -o json`: each front-panel port's neighbors.
pub fn lldp(reply: &str) -> Result<BTreeMap<Port, Vec<Neighbor>>, String> {
    let mut out = BTreeMap::new();
    for (name, i) in object(reply)? {
        let Some(port) = super::super::rules::port(&name) else {
            continue;
        };
        let Some(neighbors) = i.pointer("/lldp/neighbor") else {
            continue;
        };
        let neighbors = neighbors
            .as_object()
            .ok_or_else(|| format!("`{name}`'s `lldp.neighbor` is not an object"))?;
        let mut list = Vec::new();
        for (id, n) in neighbors {
            let port_id = n
                .pointer("/port/name")
                .and_then(text)
                .ok_or_else(|| format!("`{name}`'s neighbor `{id}` has no `port.name`"))?;
            list.push(Neighbor {
                system_name: n.pointer("/chassis/system-name").and_then(text),
                port_id,
            });
        }
        out.insert(port, list);
    }
    Ok(out)
}

/// One session of `nv show vrf default router bgp neighbor -o json`, by the key the switch
/// gives it: an address, or the port of an unnumbered session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Peer {
    Address(Ipv4Addr),
    Port(Port),
}

/// `nv show vrf default router bgp neighbor -o json`: each IPv4 or unnumbered session's
/// remote AS and state (`established` read as `ESTABLISHED`, the state the checks expect).
pub fn bgp_neighbors(reply: &str) -> Result<BTreeMap<String, (Peer, BgpNeighbor)>, String> {
    let mut out = BTreeMap::new();
    for (key, n) in object(reply)? {
        let peer = match (key.parse(), super::super::rules::port(&key)) {
            (Ok(a), _) => Peer::Address(a),
            (_, Some(p)) => Peer::Port(p),
            // IPv6 and other keys: not what the checks ask.
            _ => continue,
        };
        let field = |names: &[&str]| names.iter().find_map(|k| n.get(*k).and_then(text));
        let remote_as = field(&["remote-as", "remote-asn", "asn"])
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| format!("neighbor `{key}` has no numeric `remote-as`"))?;
        let state = field(&["state", "session-state", "bgp-state"])
            .ok_or_else(|| format!("neighbor `{key}` has no `state`"))?;
        out.insert(
            key,
            (
                peer,
                BgpNeighbor {
                    remote_as,
                    state: state.to_uppercase(),
                },
            ),
        );
    }
    Ok(out)
}

/// `nv show router bgp -o json`: the instance's AS and router id, without sessions yet
/// (`None`: no AS, no BGP instance).
pub fn bgp_router(reply: &str) -> Result<Option<BgpSummary>, String> {
    let m = object(reply)?;
    let Some(asn) = m.get("autonomous-system") else {
        return Ok(None);
    };
    let asn = text(asn)
        .and_then(|a| a.parse().ok())
        .ok_or("`autonomous-system` is not a number")?;
    let router_id = match m.get("router-id") {
        None => None,
        Some(r) => Some(
            text(r)
                .and_then(|r| r.parse().ok())
                .ok_or("`router-id` is not an IPv4 address")?,
        ),
    };
    Ok(Some(BgpSummary {
        router_id,
        asn,
        neighbors: BTreeMap::new(),
    }))
}

/// `nv show qos pfc default-global -o json`: the priorities PFC pauses switch-wide (none when
/// `tx` or `rx` is not `enable`d… both are read as the configuration spells them).
pub fn pfc_paused(reply: &str) -> Result<BTreeSet<u8>, String> {
    let m = object(reply)?;
    let prios = match m.get("switch-priority") {
        None => return Ok(BTreeSet::new()),
        Some(Value::Object(p)) => p,
        Some(_) => return Err("`switch-priority` is not an object".into()),
    };
    prios
        .keys()
        .map(|k| {
            k.parse::<u8>()
                .ok()
                .filter(|p| *p <= 7)
                .ok_or_else(|| format!("`{k}` is no switch priority"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interfaces_read_both_state_shapes() {
        let reply = r#"{
          "swp1": {"type": "swp", "link": {"admin-status": "up", "oper-status": "up", "speed": "800G", "mtu": 9216}},
          "swp2s1": {"type": "swp", "link": {"mtu": 9216, "speed": "1G", "state": {"down": {}}}},
          "eth0": {"type": "eth", "link": {"oper-status": "up"}},
          "lo": {"type": "loopback"}
        }"#;
        let links = interfaces(reply).unwrap();
        assert_eq!(links.len(), 2);
        let a = &links[&Port::new(1, 1)];
        assert_eq!((a.admin, a.up(), a.speed), (Some(true), true, Some(800)));
        let b = &links[&Port::sub(1, 2, 2)];
        assert_eq!((b.admin, b.up(), b.speed), (None, false, Some(1)));
    }

    #[test]
    fn lldp_neighbors_are_read_by_port() {
        let reply = r#"{"swp33": {"lldp": {"neighbor": {"spine01": {"chassis": {"system-name": "spine01"}, "port": {"name": "swp1"}}}}},
                        "swp9": {"lldp": {}}, "eth0": {}}"#;
        let n = lldp(reply).unwrap();
        assert_eq!(
            n[&Port::new(1, 33)],
            [Neighbor {
                system_name: Some("spine01".into()),
                port_id: "swp1".into()
            }]
        );
        assert_eq!(n.len(), 1);
    }

    #[test]
    fn bgp_sessions_are_keyed_by_address_or_port() {
        let reply = r#"{"swp33": {"remote-as": 65000, "state": "established"},
                        "10.0.0.1": {"remote-asn": "65001", "session-state": "idle"},
                        "2001:db8::1": {"remote-as": 1, "state": "x"}}"#;
        let s = bgp_neighbors(reply).unwrap();
        assert_eq!(s.len(), 2);
        let (peer, n) = &s["swp33"];
        assert_eq!(*peer, Peer::Port(Port::new(1, 33)));
        assert!(n.established());
        assert_eq!(s["10.0.0.1"].1.remote_as, 65001);
        assert!(!s["10.0.0.1"].1.established());
    }

    #[test]
    fn pfc_reads_the_paused_priorities() {
        let reply = r#"{"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable"}"#;
        assert_eq!(pfc_paused(reply).unwrap(), BTreeSet::from([3]));
        assert!(pfc_paused("{}").unwrap().is_empty());
    }

    #[test]
    fn the_bgp_instance_is_read() {
        let r = bgp_router(
            r#"{"autonomous-system": 65101, "router-id": "10.255.1.1", "enable": "on"}"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(
            (r.asn, r.router_id),
            (65101, Some(Ipv4Addr::new(10, 255, 1, 1)))
        );
        assert_eq!(bgp_router("{}").unwrap(), None);
        assert!(bgp_router(r#"{"autonomous-system": "x"}"#).is_err());
        assert!(bgp_router("BGP is not running").is_err());
    }

    /// Garbage and the corpus's text forms are errors, never a clean read.
    #[test]
    fn garbage_is_an_error() {
        let text = include_str!("../../../tests/fixtures/nvue/sw1-nv-show-interface-view-lldp.txt");
        for bad in [
            "",
            "not json",
            "[1, 2]",
            "Error: command not found",
            text,
            r#"{"swp1": {"type": "swp"}}"#,
        ] {
            assert!(interfaces(bad).is_err(), "{bad}");
        }
        for bad in [
            "",
            "[]",
            text,
            r#"{"swp1": {"lldp": {"neighbor": {"x": {}}}}}"#,
        ] {
            assert!(lldp(bad).is_err(), "{bad}");
        }
        for bad in ["", "null", text, r#"{"swp1": {"state": "established"}}"#] {
            assert!(bgp_neighbors(bad).is_err(), "{bad}");
        }
        for bad in [
            "",
            text,
            r#"{"switch-priority": {"9": {}}}"#,
            r#"{"switch-priority": 3}"#,
        ] {
            assert!(pfc_paused(bad).is_err(), "{bad}");
        }
    }
}
