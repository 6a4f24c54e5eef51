//! Onyx's `| json-print` replies read (its text replies are [`super::text`]'s): each
//! function takes one command's reply and returns the state it shows, or why the reply is not
//! what that command prints (garbled JSON, another shape, an error line, a table without its
//! columns) — never an empty state for a reply that does not read. The shapes are those of
//! real captures (each function names its own, in `tests/fixtures/corpus/onyx/show/` and
//! `…/more/`), and the release differences that Ansible's `mellanox.onyx` modules read (they
//! branch at 3.6.6000, their `BaseOnyxModule.ONYX_API_VERSION`): `show interfaces ethernet`
//! and `show dcb priority-flow-control` changed shape there.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use crate::onyx::Iface;
use crate::types::{Ecn, EcnMode, EcnThresholds, Port};
use crate::verify::observed::{Link, Marking, Neighbor, Pfc, Pool, Sched};
use crate::verify::reply::{error_line, gbps, head};

/// The JSON a `| json-print` reply holds: the whole reply, nothing before or after it.
pub fn json(text: &str) -> Result<Value, String> {
    if let Some(e) = error_line(text) {
        return Err(e);
    }
    let t = text.trim();
    if t.is_empty() {
        return Err("an empty reply, where `json-print` prints JSON".into());
    }
    serde_json::from_str(t).map_err(|e| format!("not JSON ({e}); the reply begins `{}`", head(t)))
}

/// An interface as Onyx names it in `show` output (`Eth1/1`, `Eth1/15/3`, `Po1`, `Mpo2`:
/// every capture of `show interfaces …` and `show dcb …`); `None` for other interfaces
/// (`mgmt0`, `Vlan 10`). A name that starts like one but does not read is an error.
pub fn iface_name(name: &str) -> Result<Option<Iface>, String> {
    let bad = || format!("`{}` is not an interface name", head(name));
    if let Some(rest) = name.strip_prefix("Eth") {
        return rest
            .parse()
            .map(|p| Some(Iface::Ethernet(p)))
            .map_err(|_| bad());
    }
    if let Some(rest) = name.strip_prefix("Mpo") {
        return rest
            .parse()
            .map(|n| Some(Iface::MlagPortChannel(n)))
            .map_err(|_| bad());
    }
    if let Some(rest) = name.strip_prefix("Po") {
        return rest
            .parse()
            .map(|n| Some(Iface::PortChannel(n)))
            .map_err(|_| bad());
    }
    Ok(None)
}

/// An Ethernet port named as Onyx names it (`Eth1/25`), `None` for any other interface.
fn eth(name: &str) -> Result<Option<Port>, String> {
    Ok(match iface_name(name)? {
        Some(Iface::Ethernet(p)) => Some(p),
        _ => None,
    })
}

/// A port named in an LLDP Port ID: `Eth1/25`, `Ethernet1/25`, `ethernet 1/25` or `1/25`;
/// `None` for anything else (a MAC address, another vendor's `swp0` or `fortyGigE 0/52`, as
/// `…/napalm-onyx__show_lldp_remote_json-print.txt` and `…/intel-mfd__show_lldp_remote.txt`
/// show).
pub fn port_id(text: &str) -> Option<Port> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let rest = ["ethernet", "eth"]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .unwrap_or(&lower);
    rest.trim_start().parse().ok()
}

fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, String> {
    v.as_object()
        .ok_or_else(|| format!("{what} is not an object, as Onyx prints it"))
}

fn array<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array()
        .ok_or_else(|| format!("{what} is not a list, as Onyx prints it"))
}

/// A text field of an object; `None` when absent, an error when not text.
fn text_of<'a>(
    o: &'a Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<Option<&'a str>, String> {
    match o.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("`{key}` of {what} is not text")),
    }
}

fn required<'a>(o: &'a Map<String, Value>, key: &str, what: &str) -> Result<&'a str, String> {
    text_of(o, key, what)?.ok_or_else(|| format!("{what} has no `{key}`"))
}

/// The attributes of an interface entry: Onyx prints `"Eth1/1": [ {…}, {…} ]`, a list of
/// objects (the same attribute is not split across them).
fn merged(v: &Value, what: &str) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for item in array(v, what)? {
        for (k, x) in object(item, what)? {
            out.insert(k.clone(), x.clone());
        }
    }
    Ok(out)
}

/// `show lldp remote | json-print`: each port's neighbors
/// (`…/napalm-onyx__show_lldp_remote_json-print.txt`: `{"Eth1/15/3": [{"Device ID",
/// "Port ID", "System Name"}]}`). Ports without a neighbor are not listed.
pub fn lldp_remote(text: &str) -> Result<BTreeMap<Port, Vec<Neighbor>>, String> {
    let v = json(text)?;
    let mut out = BTreeMap::new();
    for (name, entries) in object(&v, "the reply")? {
        let Some(port) = eth(name)? else { continue };
        let what = format!("`{name}`");
        let mut list = Vec::new();
        for e in array(entries, &what)? {
            let e = object(e, &what)?;
            let system_name = text_of(e, "System Name", &what)?
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "Not Advertised")
                .map(str::to_string);
            list.push(Neighbor {
                system_name,
                port_id: required(e, "Port ID", &what)?.trim().to_string(),
            });
        }
        out.insert(port, list);
    }
    Ok(out)
}

fn link(attrs: &Map<String, Value>, what: &str) -> Result<Link, String> {
    let admin = text_of(attrs, "Admin state", what)?.map(|a| a.eq_ignore_ascii_case("enabled"));
    let speed_text = text_of(attrs, "Actual speed", what)?.map(str::to_string);
    Ok(Link {
        admin,
        oper: required(attrs, "Operational state", what)?.to_string(),
        speed: speed_text.as_deref().and_then(gbps),
        speed_text,
    })
}

/// `show interfaces ethernet | json-print`: each Ethernet port's link. After 3.6.6000 a list
/// of objects named by `header` (`…/ansible-onyx__onyx_facts_show_interfaces_ethernet__json.cfg`,
/// `…/ansible-onyx__onyx_interfaces_show__json.cfg`); up to it a list of `{"Eth1/1": [{…}]}`
/// (Ansible's `onyx_interface`, `load_current_config`). Other interfaces are left out.
pub fn interfaces(text: &str) -> Result<BTreeMap<Port, Link>, String> {
    let v = json(text)?;
    let mut out = BTreeMap::new();
    for item in array(&v, "the reply")? {
        let o = object(item, "an entry of the list")?;
        if let Some(header) = text_of(o, "header", "an entry of the list")? {
            if let Some(port) = eth(header)? {
                out.insert(port, link(o, &format!("`{header}`"))?);
            }
            continue;
        }
        for (name, attrs) in o {
            let Some(port) = eth(name)? else { continue };
            let what = format!("`{name}`");
            out.insert(port, link(&merged(attrs, &what)?, &what)?);
        }
    }
    Ok(out)
}

/// `show dcb priority-flow-control | json-print`: each interface's `PFC admin` and `PFC
/// oper` (`…/ansible-onyx__onyx_pfc_interface_enabled__show_dcb_pfc_json.cfg`,
/// `…_disabled__…`: `{"Eth1/1": [{"PFC admin": "on", "PFC oper": "Enabled"}], "Po1": …}`).
/// Where that table sits changed at 3.6.6000 (Ansible's `onyx_pfc_interface`,
/// `load_current_config`): up to it under `Table 2` when the reply has one, after it the third
/// element of a list (a shorter list: no interface). The switch-wide part of the reply (PFC
/// on, its priorities) has no capture; it is not read.
pub fn pfc(text: &str) -> Result<BTreeMap<Iface, Pfc>, String> {
    let v = json(text)?;
    let table = match &v {
        Value::Array(items) => match items.get(2) {
            Some(t) => t,
            None => return Ok(BTreeMap::new()),
        },
        Value::Object(o) => o.get("Table 2").unwrap_or(&v),
        _ => return Err("the reply is neither a list nor an object, as Onyx prints it".into()),
    };
    let mut out = BTreeMap::new();
    for (name, entry) in object(table, "the interface table")? {
        let Some(iface) = iface_name(name)? else {
            continue;
        };
        let what = format!("`{name}`");
        let attrs = merged(entry, &what)?;
        out.insert(
            iface,
            Pfc {
                admin: text_of(&attrs, "PFC admin", &what)?.map(str::to_string),
                oper: required(&attrs, "PFC oper", &what)?.to_string(),
                priorities: None,
            },
        );
    }
    Ok(out)
}

/// The entry of `port` in a per-interface reply printed as `[{"Eth1/1": [{…}, …]}]`
/// (`show qos interface ethernet X`, `show dcb ets interface ethernet X`).
fn port_entry(v: &Value, port: Port) -> Result<&Vec<Value>, String> {
    let name = format!("Eth{port}");
    for item in array(v, "the reply")? {
        if let Some(entry) = object(item, "an entry of the list")?.get(&name) {
            return array(entry, &format!("`{name}`"));
        }
    }
    Err(format!("the reply has no entry for `{name}`"))
}

/// `show qos interface ethernet X | json-print`: the port's `Trust mode`
/// (`…/ansible-onyx__show_qos_interface_ethernet__json.cfg`: `both`).
pub fn trust(text: &str, port: Port) -> Result<String, String> {
    let v = json(text)?;
    for item in port_entry(&v, port)? {
        if let Some(o) = item.as_object()
            && let Some(t) = text_of(o, "Trust mode", "the port's entry")?
        {
            return Ok(t.trim().to_string());
        }
    }
    Err(format!("the entry for `Eth{port}` has no `Trust mode`"))
}

/// A traffic class number as Onyx prints it (`"3"`, `"TC-3"`), 0-7.
fn tc_number(text: &str) -> Option<u8> {
    let n: u8 = text.strip_prefix("TC-").unwrap_or(text).parse().ok()?;
    (n <= 7).then_some(n)
}

/// `show dcb ets interface ethernet X | json-print`: each traffic class's scheduling
/// (`…/ansible-onyx__onyx_show_dcb_ets_interface__json.cfg`: under `ETS per TC`, `"3":
/// [{"S.Mode": "Strict", "W": "0", …}]`, `"1": [{"S.Mode": "WRR", "W": "13", …}]`).
pub fn ets(text: &str, port: Port) -> Result<BTreeMap<u8, Sched>, String> {
    let v = json(text)?;
    let per_tc = port_entry(&v, port)?
        .iter()
        .filter_map(Value::as_object)
        .find_map(|o| o.get("ETS per TC"))
        .ok_or_else(|| format!("the entry for `Eth{port}` has no `ETS per TC`"))?;
    let mut out = BTreeMap::new();
    for table in array(per_tc, "`ETS per TC`")? {
        for (tc, entry) in object(table, "`ETS per TC`")? {
            let n = tc_number(tc)
                .ok_or_else(|| format!("`{}` in `ETS per TC` is not a traffic class", head(tc)))?;
            let what = format!("traffic class {n}");
            let attrs = merged(entry, &what)?;
            let mode = required(&attrs, "S.Mode", &what)?;
            let sched =
                if mode.eq_ignore_ascii_case("strict") {
                    Sched::Strict
                } else if mode.eq_ignore_ascii_case("wrr") {
                    let w = required(&attrs, "W", &what)?;
                    Sched::Wrr(w.trim().parse().map_err(|_| {
                        format!("the weight `{}` of {what} is not a number", head(w))
                    })?)
                } else {
                    Sched::Other(mode.to_string())
                };
            out.insert(n, sched);
        }
    }
    Ok(out)
}

/// A threshold as printed: `500 KB` (absolute) or `9%` (relative).
fn threshold(text: &str, relative: bool) -> Option<u32> {
    let t = text.trim();
    let n = if relative {
        t.strip_suffix('%')?
    } else {
        t.strip_suffix("KB")?
    };
    n.trim().parse().ok()
}

/// `show interfaces ethernet X congestion-control | json-print`: each traffic class's
/// marking (`…/ansible-onyx__onyx_show_interface_congestion_control__json.cfg`: a list opened
/// by `{"Interface ethernet": "1/1"}`, then `{"header": "TC-3", "Mode": "ECN", "Threshold
/// mode": "absolute", "Minimum threshold": "500 KB", "Maximum threshold": "1550 KB"}`, `RED`
/// with `relative` thresholds in `%`, `none`). No capture shows a class that both marks and
/// drops (`congestion-control both`): a mode naming both ECN and RED is read as that.
/// `show interfaces ethernet X congestion-control | json-print`'s `ECN marked packets` of
/// port `port`, and that field as a line (`"ECN marked packets": "0"`, as the capture prints
/// it).
pub fn ecn_marked(text: &str, port: Port) -> Result<(u64, String), String> {
    let v = json(text)?;
    let items = array(&v, "the reply")?;
    let first = interface_of(items, port)?;
    let raw = required(first, "ECN marked packets", "the interface")?;
    let value = raw
        .trim()
        .parse()
        .map_err(|_| format!("`ECN marked packets` is `{}`, not a count", head(raw)))?;
    Ok((value, format!("\"ECN marked packets\": \"{raw}\"")))
}

/// `congestion-control`'s first object, the interface's, when it names `port`.
fn interface_of(items: &[Value], port: Port) -> Result<&Map<String, Value>, String> {
    let first = items
        .first()
        .and_then(Value::as_object)
        .ok_or_else(|| "the reply names no interface".to_string())?;
    let asked = port.to_string();
    match text_of(first, "Interface ethernet", "the reply")? {
        Some(p) if p.trim() == asked => Ok(first),
        Some(p) => Err(format!(
            "the reply is for ethernet {}, not {asked}",
            head(p)
        )),
        None => Err("the reply names no interface (`Interface ethernet`)".into()),
    }
}

pub fn congestion_control(text: &str, port: Port) -> Result<BTreeMap<u8, Marking>, String> {
    let v = json(text)?;
    let items = array(&v, "the reply")?;
    interface_of(items, port)?;
    let mut out = BTreeMap::new();
    for item in &items[1..] {
        let o = object(item, "an entry of the list")?;
        let Some(header) = text_of(o, "header", "an entry")? else {
            continue;
        };
        let n = tc_number(header)
            .ok_or_else(|| format!("`{}` is not a traffic class", head(header)))?;
        let what = format!("traffic class {n}");
        let mode = required(o, "Mode", &what)?;
        let lower = mode.to_ascii_lowercase();
        let mode = match (lower.contains("ecn"), lower.contains("red")) {
            _ if lower == "none" => {
                out.insert(n, Marking::Off);
                continue;
            }
            (true, true) => EcnMode::Both,
            (true, false) => EcnMode::Ecn,
            (false, true) => EcnMode::Red,
            (false, false) => {
                out.insert(n, Marking::Other(mode.to_string()));
                continue;
            }
        };
        let relative = match required(o, "Threshold mode", &what)? {
            m if m.eq_ignore_ascii_case("relative") => true,
            m if m.eq_ignore_ascii_case("absolute") => false,
            m => {
                return Err(format!(
                    "the threshold mode `{}` of {what} is unknown",
                    head(m)
                ));
            }
        };
        let value = |key: &str| -> Result<u32, String> {
            let t = required(o, key, &what)?;
            threshold(t, relative).ok_or_else(|| {
                format!(
                    "the {} `{}` of {what} does not read",
                    key.to_lowercase(),
                    head(t)
                )
            })
        };
        let (min, max) = (value("Minimum threshold")?, value("Maximum threshold")?);
        let thresholds = if relative {
            let pct = |v: u32| u8::try_from(v).map_err(|_| format!("{v}% of {what} is over 100"));
            EcnThresholds::Relative {
                min: pct(min)?,
                max: pct(max)?,
            }
        } else {
            EcnThresholds::Absolute { min, max }
        };
        out.insert(n, Marking::On(Ecn { mode, thresholds }));
    }
    Ok(out)
}

/// `show traffic pool NAME | json-print`: the pool, `None` when the reply does not list it
/// (`…/ansible-onyx__onyx_buffer_pool__show_traffic_pool_roce_json.cfg`: `{"roce": [{"Type":
/// "lossless", "Switch Priorities": "3", "Memory [%]": "50.00", …}], "Exception list": …}`).
/// Several priorities print as `show roce` prints them, `0, 1, 2, 4`
/// (`…/more/blog-id310222282__SN2700__show_roce_Onyx_3.10.4006.txt`).
pub fn traffic_pool(text: &str, name: &str) -> Result<Option<Pool>, String> {
    let v = json(text)?;
    let Some(entry) = object(&v, "the reply")?.get(name) else {
        return Ok(None);
    };
    let what = format!("pool `{name}`");
    let attrs = merged(entry, &what)?;
    let listed = text_of(&attrs, "Switch Priorities", &what)?.unwrap_or("");
    let mut priorities = BTreeSet::new();
    for p in listed
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty() && *p != "N/A")
    {
        let n: u8 = p.parse().ok().filter(|n| *n <= 7).ok_or_else(|| {
            format!(
                "`{}` among the switch priorities of {what} is not one",
                head(p)
            )
        })?;
        priorities.insert(n);
    }
    Ok(Some(Pool {
        kind: required(&attrs, "Type", &what)?.trim().to_string(),
        memory: required(&attrs, "Memory [%]", &what)?.trim().to_string(),
        priorities,
    }))
}
