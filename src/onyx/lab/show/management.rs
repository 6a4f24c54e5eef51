//! Management settings the lab keeps as verbatim lines ([`crate::lab::unmodeled`]), read back
//! as Onyx's shows print them: `show snmp`, `show usernames`, `show ptp clock`, and `show ip
//! routing`. Each reads the switch's kept lines, so what a client configured is what it reads.
//! JSON shapes from Ansible's `mellanox.onyx` fixtures (`tests/fixtures/corpus/onyx/show/`);
//! text layouts and defaults no capture shows are in [`Unconfirmed`].

use crate::onyx::lab::cli::Errors as _;
use std::fmt::Write as _;

use serde_json::{Value, json};

use super::interfaces::shown;
use super::json::Obj;
use super::{Cx, Shown};
use crate::onyx::lab::cli::{Reply, Switch, Unconfirmed};
use crate::types::cli_text;

/// The switch's kept lines whose words start with `first` (after `no`), as words, in order.
fn kept<'a>(sw: &'a Switch, first: &str) -> Vec<Vec<&'a str>> {
    sw.running
        .layout
        .sections
        .iter()
        .flat_map(|s| s.verbatim.iter().map(|(_, l)| l.trim()))
        .map(cli_text::words)
        .filter(|w| {
            w.first() == Some(&first) || (w.first() == Some(&"no") && w.get(1) == Some(&first))
        })
        .collect()
}

/// A quoted word without its quotes.
fn unquoted(w: &str) -> &str {
    w.strip_prefix('"')
        .and_then(|w| w.strip_suffix('"'))
        .unwrap_or(w)
}

/// The words after `at` on the last line of `lines` whose words start so, joined.
fn last_value(lines: &[Vec<&str>], at: &[&str]) -> Option<String> {
    lines.iter().rev().find_map(|w| {
        w.starts_with(at).then(|| {
            w[at.len()..]
                .iter()
                .map(|x| unquoted(x))
                .collect::<Vec<_>>()
                .join(" ")
        })
    })
}

/// `show snmp`: on or off (`no snmp-server enable`; on from the factory), the port, contact
/// and location, and the communities: `snmp-server community NAME [ro|rw]` (read-only when
/// not said), and `public`, read-only from the factory (the `onyx_snmp` fixture lists it with
/// no line of it in the running config), until `no snmp-server community public`. JSON: the
/// five objects of `ansible-onyx__onyx_snmp_show__json.cfg`'s first element; communities turned
/// off (`no snmp-server enable communities`) titled `(DISABLED)` as Ansible's `onyx_snmp`
/// reads them.
pub fn snmp(cx: &Cx<'_>) -> Shown {
    let lines = kept(cx.sw, "snmp-server");
    let off = |what: &[&str]| {
        lines.iter().rev().find_map(|w| {
            let (no, body) = match w.split_first() {
                Some((&"no", b)) => (true, b),
                _ => (false, &w[..]),
            };
            (body == what).then_some(no)
        })
    };
    let enabled = !off(&["snmp-server", "enable"]).unwrap_or(false);
    let communities_on = !off(&["snmp-server", "enable", "communities"]).unwrap_or(false);
    let (ro, rw) = communities(&lines);
    let mut text = String::new();
    let head = snmp_head(&mut text, &lines, enabled);
    let suffix = if communities_on { "" } else { " (DISABLED)" };
    let ro_json = community_list(
        &mut text,
        format!("Read-only communities{suffix}"),
        &ro,
        Unconfirmed::SnmpNoReadOnly,
    );
    let rw_json = community_list(
        &mut text,
        format!("Read-write communities{suffix}"),
        &rw,
        Unconfirmed::SnmpNoReadWrite,
    );
    let _ = writeln!(text, "\nInterface listen enabled: yes");
    let listen = community_list(
        &mut text,
        "Listen Interfaces".to_string(),
        &[],
        Unconfirmed::SnmpNoListen,
    );
    let all = vec![
        head,
        ro_json,
        rw_json,
        json!({ "Interface listen enabled": "yes" }),
        listen,
    ];
    shown(text, Value::Array(all))
}

/// The read-only and read-write communities, sorted: `public` read-only from the factory,
/// then each `[no] snmp-server community NAME [ro|rw]` in turn.
fn communities(lines: &[Vec<&str>]) -> (Vec<String>, Vec<String>) {
    let mut ro = vec!["public".to_string()];
    let mut rw = Vec::new();
    for w in lines {
        match w.as_slice() {
            ["snmp-server", "community", name, rest @ ..] => {
                let name = unquoted(name).to_string();
                ro.retain(|n| *n != name);
                rw.retain(|n| *n != name);
                if rest.first() == Some(&"rw") {
                    rw.push(name);
                } else {
                    ro.push(name);
                }
            }
            ["no", "snmp-server", "community", name, ..] => {
                let name = unquoted(name);
                ro.retain(|n| n != name);
                rw.retain(|n| n != name);
            }
            _ => {}
        }
    }
    ro.sort();
    rw.sort();
    (ro, rw)
}

/// `show snmp`'s first block: on or off, the port, contact and location.
fn snmp_head(text: &mut String, lines: &[Vec<&str>], enabled: bool) -> Value {
    let yes = |b: bool| if b { "yes" } else { "no" };
    let contact = last_value(lines, &["snmp-server", "contact"]).unwrap_or_default();
    let location = last_value(lines, &["snmp-server", "location"]).unwrap_or_default();
    let mut head = Obj::new();
    for (k, v) in [
        ("SNMP enabled", yes(enabled)),
        ("SNMP port", "161"),
        ("System contact", contact.as_str()),
        ("System location", location.as_str()),
    ] {
        let _ = writeln!(text, "{:<26}{v}", format!("{k}:"));
        head = head.s(k, v);
    }
    head.build()
}

/// A titled list of `show snmp` (`none`'s line in its place when empty), as text and JSON.
fn community_list(text: &mut String, title: String, names: &[String], none: Unconfirmed) -> Value {
    let lines: Vec<&str> = if names.is_empty() {
        vec![none.text()]
    } else {
        names.iter().map(String::as_str).collect()
    };
    let _ = writeln!(text, "\n{title}:");
    for l in &lines {
        let _ = writeln!(text, "  {l}");
    }
    json!({ title: [{ "Lines": lines }] })
}

/// A factory account: name, capability, full name, account status (the `onyx_username`
/// fixture's, but `admin`, whose password the lab asks for).
const FACTORY_USERS: &[(&str, &str, &str, &str)] = &[
    ("admin", "admin", "System Administrator", PASSWORD_SET),
    ("monitor", "monitor", "System Monitor", PASSWORD_SET),
    ("root", "admin", "Root User", NO_PASSWORD),
    ("xmladmin", "admin", "XML Admin User", PASSWORD_SET),
    ("xmluser", "monitor", "XML Monitor User", PASSWORD_SET),
];
const PASSWORD_SET: &str = "Password set (SHA512)";
const NO_PASSWORD: &str = "No password required for login";

/// One account as `show usernames` prints it.
struct Account {
    capability: String,
    full_name: String,
    status: &'static str,
}

/// `show usernames`: the factory accounts and those of the `username NAME …` lines (a new
/// account's capability and status before a password is set: [`Unconfirmed::NewUserCapability`],
/// [`Unconfirmed::NewUserStatus`]), in
/// the shape of `ansible-onyx__onyx_username_show__show_usernames_json.cfg`.
pub fn usernames(cx: &Cx<'_>) -> Shown {
    let mut users: std::collections::BTreeMap<String, Account> = FACTORY_USERS
        .iter()
        .map(|(n, c, f, s)| {
            let a = Account {
                capability: c.to_string(),
                full_name: f.to_string(),
                status: s,
            };
            (n.to_string(), a)
        })
        .collect();
    let new_capability = Unconfirmed::NewUserCapability.text();
    for w in kept(cx.sw, "username") {
        let (no, w) = match w.split_first() {
            Some((&"no", rest)) => (true, rest.to_vec()),
            _ => (false, w),
        };
        let Some(name) = w.get(1).map(|n| unquoted(n).to_string()) else {
            continue;
        };
        if no && w.len() == 2 {
            users.remove(&name);
            continue;
        }
        let a = users.entry(name).or_insert_with(|| Account {
            capability: new_capability.to_string(),
            full_name: String::new(),
            status: Unconfirmed::NewUserStatus.text(),
        });
        let value = w
            .get(3..)
            .unwrap_or_default()
            .iter()
            .map(|x| unquoted(x))
            .collect::<Vec<_>>()
            .join(" ");
        match (no, w.get(2).copied()) {
            (false, Some("capability")) => a.capability = value,
            (true, Some("capability")) => a.capability = new_capability.to_string(),
            (false, Some("full-name")) => a.full_name = value,
            (true, Some("full-name")) => a.full_name.clear(),
            (false, Some("password")) => a.status = PASSWORD_SET,
            (false, Some("nopassword")) => a.status = NO_PASSWORD,
            (false, Some("disable")) if w.get(3) == Some(&"password") => {
                a.status = "Local password login disabled";
            }
            (false, Some("disable")) => a.status = "Account disabled",
            (true, Some("disable")) => a.status = PASSWORD_SET,
            _ => {}
        }
    }
    let mut text = format!(
        "{:<16}{:<28}{:<12}{}\n",
        "USERNAME", "FULL NAME", "CAPABILITY", "ACCOUNT STATUS"
    );
    let mut obj = Obj::new();
    for (name, a) in &users {
        let _ = writeln!(
            text,
            "{name:<16}{:<28}{:<12}{}",
            a.full_name, a.capability, a.status
        );
        let row = Obj::new()
            .s("CAPABILITY", &a.capability)
            .s("ACCOUNT STATUS", a.status)
            .s("FULL NAME", &a.full_name);
        obj = obj.row(name, row);
    }
    shown(text, obj.build())
}

/// Whether a protocol the lab keeps as a line (`protocol ptp`, `protocol ospf`, `protocol
/// magp`) is on: off from the factory.
pub fn kept_protocol(sw: &Switch, name: &str) -> bool {
    kept(sw, "protocol")
        .iter()
        .rev()
        .find_map(|w| match w.as_slice() {
            ["protocol", p] if *p == name => Some(true),
            ["no", "protocol", p] if *p == name => Some(false),
            _ => None,
        })
        .unwrap_or(false)
}

/// `show ptp clock`: refused while `protocol ptp` is off (as the lab refuses BGP's and MLAG's
/// shows), else the clock's domain and priorities (`ptp domain|priority1|priority2 N`; 127,
/// 128 and 128 from the factory, as the `onyx_show_ptp_clock` fixture of a switch without
/// them shows), its PTP ports (none: the lab models no port's PTP) and the time.
pub fn ptp_clock(cx: &Cx<'_>) -> Result<Shown, Reply> {
    if !kept_protocol(cx.sw, "ptp") {
        return Err(Reply::unrecognized("ptp"));
    }
    let ptp = kept(cx.sw, "ptp");
    let value = |k: &str, default: &str| {
        last_value(&ptp, &["ptp", k]).unwrap_or_else(|| default.to_string())
    };
    let (y, mo, d, h, mi, s) = crate::types::utc_now();
    let time = format!("{h:02}:{mi:02}:{s:02} Etc/UTC {y:04}/{mo:02}/{d:02}");
    let mut text = String::new();
    let mut obj = Obj::new();
    for (k, v) in [
        ("Domain", value("domain", "127")),
        ("Priority1", value("priority1", "128")),
        ("Priority2", value("priority2", "128")),
        ("Number of PTP ports", "0".to_string()),
        ("Local clock time", time),
    ] {
        let _ = writeln!(text, "{:<22}{v}", format!("{k}:"));
        obj = obj.s(k, v);
    }
    Ok(shown(text, obj.build()))
}

/// `show ip routing`: whether the switch routes (`ip routing`), in the one line Ansible's
/// `onyx_protocol` reads (`… | include "IP routing"`); the layout is
/// [`Unconfirmed::IpRoutingLine`].
pub fn ip_routing(cx: &Cx<'_>) -> Shown {
    let on = if cx.sw.running.ip_routing {
        "enabled"
    } else {
        "disabled"
    };
    Shown::text(format!(
        "{}\n",
        Unconfirmed::IpRoutingLine.text().replace("{}", on)
    ))
}
