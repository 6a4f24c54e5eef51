//! Reading what switches print: each function takes one command's reply and returns the
//! state it shows, or why the reply is not what that command prints (garbled JSON, another
//! shape, an error line, a table without its columns) — never an empty state for a reply
//! that does not read. The shapes are those of real captures (each function names its own,
//! in `tests/fixtures/corpus/onyx/show/` and `…/more/`), and the release differences that
//! Ansible's `mellanox.onyx` modules read (they branch at 3.6.6000, their
//! `BaseOnyxModule.ONYX_API_VERSION`): `show interfaces ethernet` and `show dcb
//! priority-flow-control` changed shape there.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use serde_json::{Map, Value};

use crate::onyx::Iface;
use crate::types::{Ecn, EcnMode, EcnThresholds, Port};

/// The start of a reply, to show in an error: its first line, at most 60 characters, with
/// control characters escaped (a reply is the switch's text: printed raw, an escape
/// sequence in it would drive the terminal).
pub(super) fn head(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or("");
    let mut out: String = line
        .chars()
        .take(60)
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect();
    if line.chars().count() > 60 {
        out.push('…');
    }
    out
}

/// The first line of a reply that is a switch's error (`% Unrecognized command "lldp".`).
pub(super) fn error_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with('%'))
        .map(|l| format!("the switch answered `{}`", head(l)))
}

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

/// A neighbor LLDP has learned on a port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbor {
    /// `None` when the neighbor does not advertise one (`Not Advertised`, as
    /// `…/intel-mfd__show_lldp_remote.txt` shows).
    pub system_name: Option<String>,
    pub port_id: String,
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

/// A port's link as `show interfaces ethernet` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// `Admin state: Enabled`; `None` when not printed.
    pub admin: Option<bool>,
    /// `Operational state`, as printed (`Up`, `Down`).
    pub oper: String,
    /// `Actual speed` in Gb/s (`100 Gbps`), when it reads as a speed.
    pub speed: Option<u32>,
    /// `Actual speed` as printed.
    pub speed_text: Option<String>,
}

impl Link {
    pub fn up(&self) -> bool {
        self.oper.eq_ignore_ascii_case("up")
    }
}

/// A speed as Onyx prints it, in Gb/s: `100 Gbps` (`show interfaces ethernet | json-print`),
/// `25G` (`show interfaces ethernet status`, text), `1000Mb/s (auto)` (a management port).
pub fn gbps(text: &str) -> Option<u32> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let n: u32 = t[..digits].parse().ok()?;
    let unit = t[digits..].trim_start();
    if unit.starts_with('G') {
        Some(n)
    } else if unit.starts_with("Mb") && n.is_multiple_of(1000) {
        Some(n / 1000)
    } else {
        None
    }
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

/// An interface's PFC as `show dcb priority-flow-control` reports it (OS10: `show interface
/// NAME priority-flow-control`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pfc {
    pub admin: Option<String>,
    pub oper: String,
    /// The priorities the interface pauses, where the reply lists them per interface (OS10's
    /// `PFC Priorities`; Onyx's interface table does not).
    pub priorities: Option<BTreeSet<u8>>,
}

impl Pfc {
    pub fn enabled(&self) -> bool {
        self.oper.eq_ignore_ascii_case("enabled")
    }
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

/// How a traffic class is scheduled (`S.Mode`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sched {
    Strict,
    /// WRR and its weight (`W`).
    Wrr(u8),
    /// A mode the captures do not show, as printed.
    Other(String),
}

impl std::fmt::Display for Sched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sched::Strict => f.write_str("strict"),
            Sched::Wrr(w) => write!(f, "wrr {w}"),
            Sched::Other(s) => write!(f, "`{s}`"),
        }
    }
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

/// How a traffic class marks or drops as the queue fills.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Marking {
    /// `Mode: none`.
    Off,
    On(Ecn),
    /// A mode the captures do not show, as printed.
    Other(String),
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
pub fn congestion_control(text: &str, port: Port) -> Result<BTreeMap<u8, Marking>, String> {
    let v = json(text)?;
    let items = array(&v, "the reply")?;
    let asked = port.to_string();
    let first = items
        .first()
        .and_then(Value::as_object)
        .ok_or_else(|| "the reply names no interface".to_string())?;
    match text_of(first, "Interface ethernet", "the reply")? {
        Some(p) if p.trim() == asked => {}
        Some(p) => {
            return Err(format!(
                "the reply is for ethernet {}, not {asked}",
                head(p)
            ));
        }
        None => return Err("the reply names no interface (`Interface ethernet`)".into()),
    }
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

/// A buffer pool as `show traffic pool NAME` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    pub kind: String,
    /// `Memory [%]`, as printed (`50.00`).
    pub memory: String,
    pub priorities: BTreeSet<u8>,
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

/// One row of `show ip bgp summary`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BgpNeighbor {
    pub remote_as: u32,
    /// `State/PfxRcd` as printed: `ESTABLISHED/13`, or the state.
    pub state: String,
}

impl BgpNeighbor {
    pub fn established(&self) -> bool {
        self.state.starts_with("ESTABLISHED")
    }
}

/// The default VRF's BGP as `show ip bgp summary` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BgpSummary {
    pub router_id: Option<Ipv4Addr>,
    pub asn: u32,
    pub neighbors: BTreeMap<Ipv4Addr, BgpNeighbor>,
}

/// `key : value` of a line (`local AS number           : 65533`).
pub(super) fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let (k, v) = line.split_once(':')?;
    (k.trim() == key).then(|| v.trim())
}

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

/// A row of `show mlag`'s peer-link table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ipl {
    pub id: u8,
    pub port_channel: Option<u16>,
    pub vlan: Option<u16>,
    pub state: String,
    pub local: Option<Ipv4Addr>,
    pub peer: Option<Ipv4Addr>,
}

/// An MLAG switch as `show mlag` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mlag {
    pub admin: String,
    pub oper: String,
    /// `System-mac` as printed, without a trailing note (`[Mismatched]`, as
    /// `…/ansible-onyx__onyx_mlag_ipl_show__show_mlag_json.cfg` prints it).
    pub system_mac: Option<String>,
    pub inactive: u32,
    pub partial: u32,
    pub ipls: Vec<Ipl>,
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

#[cfg(test)]
mod tests {
    use super::*;

    macro_rules! show {
        ($file:literal) => {
            include_str!(concat!("../../tests/fixtures/corpus/onyx/show/", $file))
        };
    }

    macro_rules! more {
        ($file:literal) => {
            include_str!(concat!("../../tests/fixtures/corpus/onyx/more/", $file))
        };
    }

    fn p(s: &str) -> Port {
        s.parse().unwrap()
    }

    #[test]
    fn lldp_neighbors_as_captured() {
        let n = lldp_remote(show!("napalm-onyx__show_lldp_remote_json-print.txt")).unwrap();
        assert_eq!(n.len(), 2);
        assert_eq!(
            n[&p("1/15/3")],
            [Neighbor {
                system_name: Some("mgmt1.dc".into()),
                port_id: "swp0".into()
            }]
        );
        assert_eq!(n[&p("1/15/2")][0].system_name.as_deref(), Some("mgmt2.dc"));
        assert_eq!(port_id("swp0"), None);
        assert_eq!(port_id("Eth1/25"), Some(p("1/25")));
        assert_eq!(port_id("Ethernet1/31/2"), Some(p("1/31/2")));
        assert_eq!(port_id("ethernet 1/7"), Some(p("1/7")));
        assert_eq!(port_id("fortyGigE 0/52"), None);
        assert_eq!(port_id("3c:fd:aa:bb:cc:f0"), None);
        let none =
            lldp_remote(r#"{"Eth1/5": [{"Port ID": "x", "System Name": "Not Advertised"}]}"#)
                .unwrap();
        assert_eq!(none[&p("1/5")][0].system_name, None);
    }

    #[test]
    fn links_in_both_shapes_of_show_interfaces_ethernet() {
        let facts = show!("ansible-onyx__onyx_facts_show_interfaces_ethernet__json.cfg");
        let links = interfaces(facts).unwrap();
        assert_eq!(
            links[&p("1/1")],
            Link {
                admin: Some(true),
                oper: "Down".into(),
                speed: Some(100),
                speed_text: Some("100 Gbps".into())
            }
        );
        assert_eq!(links.len(), 2);
        // VLAN interfaces in the list are not ports.
        let mixed = interfaces(show!("ansible-onyx__onyx_interfaces_show__json.cfg")).unwrap();
        assert_eq!(mixed.keys().collect::<Vec<_>>(), [&p("1/1")]);
        assert_eq!(mixed[&p("1/1")].speed, Some(40));
        // Up to 3.6.6000 each port is `{"Eth1/1": [{…}]}` (the layout Ansible's
        // `onyx_interface` reads there): the captured attributes in that layout.
        let v: Value = serde_json::from_str(facts).unwrap();
        let old: Vec<Value> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                let mut o = o.as_object().unwrap().clone();
                let name = o.remove("header").unwrap();
                serde_json::json!({ name.as_str().unwrap(): [o] })
            })
            .collect();
        assert_eq!(interfaces(&Value::Array(old).to_string()).unwrap(), links);
        assert_eq!(gbps("25G"), Some(25));
        assert_eq!(gbps("1000Mb/s (auto)"), Some(1));
        assert_eq!(gbps("Unknown"), None);
    }

    #[test]
    fn pfc_per_interface_in_each_layout() {
        let on = pfc(show!(
            "ansible-onyx__onyx_pfc_interface_enabled__show_dcb_pfc_json.cfg"
        ))
        .unwrap();
        assert_eq!(on.len(), 4);
        assert!(on.values().all(Pfc::enabled));
        assert_eq!(on[&Iface::MlagPortChannel(2)].admin.as_deref(), Some("on"));
        assert!(on.contains_key(&Iface::Ethernet(p("1/1/2"))));
        assert!(on.contains_key(&Iface::PortChannel(1)));
        let off = pfc(show!(
            "ansible-onyx__onyx_pfc_interface_disabled__show_dcb_pfc_json.cfg"
        ))
        .unwrap();
        assert!(off.values().all(|s| !s.enabled() && s.oper == "Disabled"));
        // The same table under `Table 2` (to 3.6.6000) and third in a list (after it).
        let table: Value = serde_json::from_str(show!(
            "ansible-onyx__onyx_pfc_interface_enabled__show_dcb_pfc_json.cfg"
        ))
        .unwrap();
        let old = serde_json::json!({ "Table 2": table.clone() });
        assert_eq!(pfc(&old.to_string()).unwrap(), on);
        let new = serde_json::json!([{}, {}, table]);
        assert_eq!(pfc(&new.to_string()).unwrap(), on);
        assert_eq!(pfc("[{}, {}]").unwrap(), BTreeMap::new());
    }

    #[test]
    fn trust_ets_and_ecn_of_a_port() {
        let q = show!("ansible-onyx__show_qos_interface_ethernet__json.cfg");
        assert_eq!(trust(q, p("1/1")).unwrap(), "both");
        assert_eq!(
            trust(q, p("1/2")).unwrap_err(),
            "the reply has no entry for `Eth1/2`"
        );
        let e = ets(
            show!("ansible-onyx__onyx_show_dcb_ets_interface__json.cfg"),
            p("1/1"),
        )
        .unwrap();
        assert_eq!(e.len(), 8);
        assert_eq!(e[&3], Sched::Strict);
        assert_eq!(e[&2], Sched::Strict);
        assert_eq!(e[&1], Sched::Wrr(13));
        assert_eq!(e[&0], Sched::Wrr(12));
        let c = congestion_control(
            show!("ansible-onyx__onyx_show_interface_congestion_control__json.cfg"),
            p("1/1"),
        )
        .unwrap();
        assert_eq!(c.len(), 8);
        assert_eq!(c[&0], Marking::Off);
        assert_eq!(
            c[&3],
            Marking::On(Ecn {
                mode: EcnMode::Ecn,
                thresholds: EcnThresholds::Absolute {
                    min: 500,
                    max: 1550
                }
            })
        );
        assert_eq!(
            c[&2],
            Marking::On(Ecn {
                mode: EcnMode::Red,
                thresholds: EcnThresholds::Relative { min: 9, max: 90 }
            })
        );
        // A reply for another port is not this port's.
        assert_eq!(
            congestion_control(
                show!("ansible-onyx__onyx_show_interface_congestion_control__json.cfg"),
                p("1/2")
            )
            .unwrap_err(),
            "the reply is for ethernet 1/1, not 1/2"
        );
    }

    #[test]
    fn a_buffer_pool() {
        let text = show!("ansible-onyx__onyx_buffer_pool__show_traffic_pool_roce_json.cfg");
        assert_eq!(
            traffic_pool(text, "roce").unwrap(),
            Some(Pool {
                kind: "lossless".into(),
                memory: "50.00".into(),
                priorities: BTreeSet::from([3])
            })
        );
        assert_eq!(traffic_pool(text, "storage").unwrap(), None);
        let several = r#"{"lossy-default": [{"Type": "lossy", "Memory [%]": "auto", "Switch Priorities": "0, 1, 2, 4,"}]}"#;
        assert_eq!(
            traffic_pool(several, "lossy-default")
                .unwrap()
                .unwrap()
                .priorities,
            BTreeSet::from([0, 1, 2, 4])
        );
    }

    #[test]
    fn bgp_summary_as_captured() {
        let s = bgp_summary(more!(
            "cray-docs-csm__sw-spine-001__show_ip_bgp_summary_5_neighbors.txt"
        ))
        .unwrap()
        .unwrap();
        assert_eq!(s.asn, 65533);
        assert_eq!(s.router_id, Some(Ipv4Addr::new(10, 252, 0, 2)));
        assert_eq!(s.neighbors.len(), 5);
        let n = &s.neighbors[&Ipv4Addr::new(10, 252, 1, 11)];
        assert_eq!((n.remote_as, n.state.as_str()), (65533, "ESTABLISHED/14"));
        assert!(n.established());
        // Several VRFs: the default one's.
        let all = bgp_summary(more!(
            "cray-docs-csm__sw-spine-001__show_ip_bgp_vrf_all_summary.txt"
        ))
        .unwrap()
        .unwrap();
        assert_eq!(
            all.neighbors
                .keys()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            ["10.252.1.7", "10.252.1.8", "10.252.1.9"]
        );
        // Only another VRF: none in the default one.
        assert_eq!(
            bgp_summary(more!(
                "cray-docs-csm__sw-spine-001__show_ip_bgp_vrf_CAN_summary.txt"
            ))
            .unwrap(),
            None
        );
        assert_eq!(bgp_summary("\n").unwrap(), None);
    }

    #[test]
    fn mlag_as_captured() {
        let m = mlag(more!("cray-docs-csm__sw-spine-002__show_mlag.txt")).unwrap();
        assert_eq!((m.admin.as_str(), m.oper.as_str()), ("Enabled", "Up"));
        assert_eq!(m.system_mac.as_deref(), Some("00:00:5E:00:01:01"));
        assert_eq!((m.inactive, m.partial), (0, 1));
        assert_eq!(
            m.ipls,
            [Ipl {
                id: 1,
                port_channel: Some(100),
                vlan: Some(4000),
                state: "Up".into(),
                local: Some(Ipv4Addr::new(192, 168, 255, 253)),
                peer: Some(Ipv4Addr::new(192, 168, 255, 254)),
            }]
        );
    }

    /// A reply that is not what the command prints is an error that says what it is, never
    /// an empty state.
    #[test]
    fn replies_that_do_not_read_are_errors() {
        let unrecognized = "% Unrecognized command \"lldp\".\n";
        assert_eq!(
            lldp_remote(unrecognized).unwrap_err(),
            "the switch answered `% Unrecognized command \"lldp\".`"
        );
        assert!(bgp_summary(unrecognized).is_err());
        assert!(mlag(unrecognized).is_err());
        // Cut short.
        let cut = &show!("napalm-onyx__show_lldp_remote_json-print.txt")[..60];
        let e = lldp_remote(cut).unwrap_err();
        assert!(e.starts_with("not JSON (EOF while parsing"), "{e}");
        assert_eq!(
            interfaces("").unwrap_err(),
            "an empty reply, where `json-print` prints JSON"
        );
        // A terminal escape in a reply is shown escaped, never sent to the terminal.
        let e = pfc("\x1b[2Jgone").unwrap_err();
        assert!(e.ends_with("the reply begins `\\u{1b}[2Jgone`"), "{e}");
        // Another shape.
        assert_eq!(
            lldp_remote("[1, 2]").unwrap_err(),
            "the reply is not an object, as Onyx prints it"
        );
        assert_eq!(
            interfaces(r#"[{"header": "Eth1/1", "Admin state": "Enabled"}]"#).unwrap_err(),
            "`Eth1/1` has no `Operational state`"
        );
        assert_eq!(
            interfaces(r#"[{"header": "Eth1/x", "Operational state": "Up"}]"#).unwrap_err(),
            "`Eth1/x` is not an interface name"
        );
        assert_eq!(
            bgp_summary("VRF name : default\nlocal AS number : 65000\n").unwrap_err(),
            "the default VRF's block has no table of neighbors (`Neighbor … State/PfxRcd`)"
        );
        let row = "VRF name : default\nlocal AS number : 65000\nNeighbor V AS MsgRcvd MsgSent TblVer InQ OutQ Up/Down State/PfxRcd\n10.0.0.1 4 65001 1 1\n";
        assert_eq!(
            bgp_summary(row).unwrap_err(),
            "the row of 10.0.0.1 has 5 columns, not the table's ten: `10.0.0.1 4 65001 1 1`"
        );
        assert!(
            bgp_summary("Welcome\n")
                .unwrap_err()
                .starts_with("not `show ip bgp summary`")
        );
        assert!(
            mlag("MLAG is not running\n")
                .unwrap_err()
                .starts_with("not `show mlag`")
        );
        assert_eq!(
            mlag(
                "Admin status: Enabled\nOperational status: Up\nMLAG IPLs Summary:\n1    Po1    x\n"
            )
            .unwrap_err(),
            "the peer-link row `1    Po1    x` does not read"
        );
    }
}

/// A route of a switch's routing table, with each of its next hops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub prefix: crate::types::Ipv4Net,
    /// `bgp`, `static`, … as the `Source` column prints it.
    pub source: String,
    /// Each next hop: its gateway as printed and its interface.
    pub hops: Vec<(String, String)>,
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

#[cfg(test)]
mod route_tests {
    use super::*;

    fn fixture(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/corpus/onyx/more")
            .join(name);
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn the_captured_tables_read_with_their_ecmp_next_hops() {
        let r = ip_route(&fixture(
            "cray-docs-csm__sw-spine-001__show_ip_route_10.92.100.60.txt",
        ))
        .unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].prefix.to_string(), "0.0.0.0/0");
        assert_eq!(r[0].hops, [("10.101.15.161".into(), "eth1/12".into())]);
        assert_eq!(r[1].prefix.to_string(), "10.92.100.60/32");
        assert_eq!(r[1].source, "bgp");
        assert_eq!(r[1].hops.len(), 3);
        assert_eq!(r[1].hops[2], ("10.252.0.7".into(), "vlan2".into()));
        // Several VRFs: the default one's table only.
        let all = ip_route(&fixture(
            "cray-docs-csm__sw-spine-001__show_ip_route_vrf_all_bgp.txt",
        ))
        .unwrap();
        assert_eq!(all.len(), 12);
        assert!(all.iter().all(|r| r.hops[0].1 != "vlan7"), "{all:?}");
        assert_eq!(all.iter().map(|r| r.hops.len()).sum::<usize>(), 28);
        // Published without blank lines: read the same.
        let tight = ip_route(&fixture(
            "cray-docs-csm__sw-spine-001__show_ip_route_10.92.100.222.txt",
        ))
        .unwrap();
        assert_eq!(tight[1].hops.len(), 3);
    }

    #[test]
    fn what_is_not_a_routing_table_is_said() {
        assert!(ip_route("% Unrecognized command \"route\".\n").is_err());
        assert!(ip_route("").is_err());
        let cut = "VRF Name default:\n  Destination       Mask              Flag     Gateway           Interface        Source     AD/M\n  10.1.0.0          255.255.0.0\n";
        assert!(ip_route(cut).is_err());
    }
}
