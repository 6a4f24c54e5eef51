//! The lab's operational `show` commands against real Onyx output: each family's `|
//! json-print` has the keys, nesting, key order and value types of the captured JSON of that
//! command (values differ: another switch), and its text the captured layout (headers,
//! column starts, labels). The captures are `tests/fixtures/corpus/onyx/show/` and `…/more/`
//! (`SOURCES.md`, `SOURCES-more.md`). Last, a running `fabric lab` of `ml-cluster.yaml`,
//! pushed, answers `show lldp remote` and `show interfaces status` from its cabling.

use std::collections::BTreeMap;
use std::sync::Arc;

use fabric::lab::Device;
use serde_json::Value;

use crate::lab_ssh::start_lab_of;
use crate::network::{network_of, push_lab, shells, typed};
use crate::{root, scratch, shared};

/// A JSON value as `json-print` prints it: four-space indents, a newline after.
fn json_print(v: &Value) -> String {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    serde::Serialize::serialize(v, &mut ser).unwrap();
    String::from_utf8(out).unwrap() + "\n"
}

/// A capture's text.
fn capture(path: &str) -> String {
    std::fs::read_to_string(shared().join("corpus/onyx").join(path)).unwrap()
}

fn capture_json(path: &str) -> Value {
    serde_json::from_str(&capture(path)).unwrap()
}

/// The switches of `ml-cluster.yaml` (SN3700, Onyx 3.10.4606), running their compiled
/// configs, cabled as the fabric says.
fn cluster() -> BTreeMap<String, Arc<Device>> {
    network_of(&std::fs::read_to_string(root().join("fabrics/ml-cluster.yaml")).unwrap())
}

/// What a switch prints for `command | json-print`, parsed.
fn json(dev: &Device, command: &str) -> Value {
    let text = typed(dev, &[&format!("{command} | json-print")]);
    assert!(
        text.ends_with("}\n") || text.ends_with("]\n"),
        "{command}: {text}"
    );
    // `json-print` indents by four spaces.
    let second = text.lines().nth(1).unwrap_or("");
    assert!(
        second.starts_with("    ") && !second.starts_with("     "),
        "{command}: {text}"
    );
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{command}: {e}\n{text}"))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Where `lab` differs from `real` in shape: object keys (and their order), nesting, value
/// types. Arrays of equal length are compared element by element, others each lab element
/// against the first real one.
fn shape(lab: &Value, real: &Value, at: &str, out: &mut Vec<String>) {
    match (lab, real) {
        (Value::Object(a), Value::Object(b)) => {
            let (ka, kb): (Vec<&String>, Vec<&String>) = (a.keys().collect(), b.keys().collect());
            if ka != kb {
                out.push(format!("{at}: keys {ka:?}, captured {kb:?}"));
            }
            for (k, v) in a {
                if let Some(w) = b.get(k) {
                    shape(v, w, &format!("{at}.{k}"), out);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() == b.len() {
                for (i, (v, w)) in a.iter().zip(b).enumerate() {
                    shape(v, w, &format!("{at}[{i}]"), out);
                }
            } else if let Some(w) = b.first() {
                for (i, v) in a.iter().enumerate() {
                    shape(v, w, &format!("{at}[{i}]"), out);
                }
            }
        }
        _ if kind(lab) != kind(real) => {
            out.push(format!("{at}: {} where captured {}", kind(lab), kind(real)));
        }
        _ => {}
    }
}

fn assert_shape(lab: &Value, real: &Value, what: &str) {
    let mut out = Vec::new();
    shape(lab, real, what, &mut out);
    assert!(out.is_empty(), "{}\nlab: {lab:#}", out.join("\n"));
}

/// `command | json-print` on `dev`, shaped as the capture `path` (an object keyed by data
/// when `keyed`: each entry as the capture's first).
fn as_captured(dev: &Device, command: &str, path: &str, keyed: bool) -> Value {
    let lab = json(dev, command);
    if keyed {
        assert_entries(&lab, &capture_json(path), command);
    } else {
        assert_shape(&lab, &capture_json(path), command);
    }
    lab
}

/// An object keyed by data (ports, VLANs): every entry has the shape of the capture's first.
fn assert_entries(lab: &Value, real: &Value, what: &str) {
    let (Some(lab), Some((_, first))) = (
        lab.as_object(),
        real.as_object().and_then(|o| o.iter().next()),
    ) else {
        panic!("{what}: objects expected: {lab:#} / {real:#}");
    };
    assert!(!lab.is_empty(), "{what}: no entry");
    for (k, v) in lab {
        assert_shape(v, first, &format!("{what}[{k}]"));
    }
}

/// Where each column of a table row starts (a column: text after two or more spaces, or
/// the first).
fn starts(line: &str) -> Vec<usize> {
    let mut out = vec![0];
    let b = line.as_bytes();
    for i in 2..b.len() {
        if b[i] != b' ' && b[i - 1] == b' ' && b[i - 2] == b' ' {
            out.push(i);
        }
    }
    out
}

/// Where each word of a line starts.
fn tokens(line: &str) -> Vec<usize> {
    let b = line.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] != b' ' && (i == 0 || b[i - 1] == b' '))
        .collect()
}

/// The line of `text` that starts with `prefix`.
fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting {prefix:?} in\n{text}"))
}

/// The label of each `Label: value` line, and the column its value starts at.
fn labels(text: &str) -> Vec<(String, usize)> {
    text.lines()
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            let at = k.len() + 1 + (v.len() - v.trim_start().len());
            Some((k.trim_end().to_string(), at))
        })
        .collect()
}

#[test]
fn show_version_hosts_inventory_module_and_protocols_as_captured() {
    let net = cluster();
    let leaf = &net["leaf01"];

    // `show version`: the captured JSON's keys in its order; the text's labels in the
    // order and at the column of every capture (3.8.2004's here).
    let v = as_captured(
        leaf,
        "show version",
        "show/ansible-onyx__onyx_facts_show_version__json.cfg",
        false,
    );
    assert_eq!(v["Product release"], "3.10.4606");
    let text = typed(leaf, &["show version"]);
    let real = capture("more/grantcurell__mellanox.lan__show_version_Onyx_3.8.2004.txt");
    let real: String = real.lines().skip(1).map(|l| format!("{l}\n")).collect();
    assert_eq!(labels(&text), labels(&real), "{text}");
    assert_eq!(text.lines().count(), real.lines().count(), "{text}");
    assert_eq!(line(&text, "Product model:"), "Product model:     x86onie");
    // Since the lab started the switch, with milliseconds as captured (`36.480s`).
    let up = line(&text, "Uptime:");
    assert!(up.ends_with('s') && up.contains('.'), "{up}");
    // Before 3.7: MLNX-OS, and the serial number quoted as the 3.6 captures print it.
    leaf.with(|sw| crate::onyx(sw).release = fabric::types::Release(3, 6, 5000));
    let old = typed(leaf, &["show version"]);
    assert_eq!(line(&old, "Product name:"), "Product name:      MLNX-OS");
    assert!(
        line(&old, "System serial num:").contains(": \\\"MT"),
        "{old}"
    );
    leaf.with(|sw| crate::onyx(sw).release = fabric::types::Release(3, 10, 4606));

    // `show hosts`: the lines every switch prints, as captured.
    let hosts = typed(leaf, &["show hosts"]);
    let real = capture("show/napalm-onyx__show_hosts.txt");
    assert_eq!(line(&hosts, "Hostname:"), "Hostname: leaf01");
    for l in [
        "  127.0.0.1  ",
        "  ::1  ",
        "Automatically map hostname to loopback address",
        "Automatically map hostname to IPv6",
        "Static IPv4",
        "Static IPv6",
        "Name servers:",
        "Domain names:",
    ] {
        assert_eq!(line(&hosts, l), line(&real, l));
    }

    // `show inventory`: the 3.10.4504 capture's header, its rows' columns.
    let inv = typed(leaf, &["show inventory"]);
    let real = capture("show/oxidized__mlnxos_Onyx_3.10.4504_simulation.yaml");
    let real: Vec<&str> = real.lines().map(str::trim_start).collect();
    let at = real.iter().position(|l| l.starts_with("Module ")).unwrap();
    let lab: Vec<&str> = inv.lines().collect();
    assert_eq!(lab[1], real[at]);
    assert_eq!(lab[0], real[at - 1].trim_start_matches("\\e[?1h\\e=\\r"));
    assert_eq!(lab[2], real[at + 1]);
    // The rows are narrower than the header from the serial number on, as captured.
    let chassis = line(&inv, "CHASSIS");
    assert_eq!(tokens(chassis), tokens(real[at + 2]), "{chassis}");
    assert!(chassis.contains("MSN3700"), "{chassis}");
    let modules: Vec<&str> = lab[3..]
        .iter()
        .map(|l| &l[..l.find(' ').unwrap_or(l.len())])
        .collect();
    assert_eq!(
        modules,
        [
            "CHASSIS", "MGMT", "FAN1", "FAN2", "FAN3", "FAN4", "PS1", "PS2"
        ]
    );

    // `show module`: the captured JSON exactly.
    assert_eq!(
        json(leaf, "show module"),
        capture_json("show/ansible-onyx__onyx_facts_show_module__show_module_json.cfg")
    );

    // `show protocols`: every captured protocol in the captured order; what the running
    // config turns on (the leaf routes with BGP, runs LLDP and PFC; spanning tree in its
    // default mode).
    let p = as_captured(
        leaf,
        "show protocols",
        "show/ansible-onyx__onyx_protocols_show__show_protocols_json.cfg",
        false,
    );
    for (k, want) in [
        ("bgp", "enabled"),
        ("lldp", "enabled"),
        ("priority-flow-control", "enabled"),
        ("IP L3", "enabled"),
        ("mlag", "disabled"),
    ] {
        assert_eq!(p[k], want, "{k}");
    }
    let text = typed(leaf, &["show protocols | include bgp"]);
    let real = capture("more/cray-docs-csm__sw-spine-001__show_protocols_include_bgp.txt");
    assert_eq!(text, format!("{}\n", real.lines().nth(1).unwrap()));
}

#[test]
fn show_interfaces_as_captured() {
    let net = cluster();
    let (leaf, spine) = (&net["leaf01"], &net["spine01"]);

    // A switchport (a server's subport) and a routed port (a spine's leaf link), each as
    // the capture of its kind, on the captures' release (before the JSON API shapes).
    let captured_release = fabric::types::Release(3, 6, 5000);
    let release = leaf.with(|sw| std::mem::replace(&mut crate::onyx(sw).release, captured_release));
    spine.with(|sw| crate::onyx(sw).release = captured_release);
    let all = json(leaf, "show interfaces ethernet");
    let all = all.as_array().unwrap();
    // 8 ports split 4 ways, 24 whole: 56 ports on an SN3700 with 1/1-1/8 split.
    assert_eq!(all.len(), 56);
    assert_eq!(all[0]["header"], "Eth1/1/1");
    assert_eq!(all[32]["header"], "Eth1/9");
    let real = capture_json("show/ansible-onyx__onyx_interfaces_show__json.cfg");
    assert_shape(&all[0], &real[0], "ethernet 1/1/1");
    let facts = capture_json("show/ansible-onyx__onyx_facts_show_interfaces_ethernet__json.cfg");
    for k in facts[0].as_object().unwrap().keys() {
        assert!(all[0].get(k).is_some(), "{k}");
    }
    assert_eq!(all[0]["Actual speed"], "50 Gbps", "the 4-way share of 200G");
    let routed = json(spine, "show interfaces ethernet 1/1");
    let real = capture_json("show/ansible-onyx__onyx_l3_interface_show__json.cfg");
    assert_shape(&routed[0], &real[0], "ethernet 1/1 (routed)");
    // From 3.6.6000, each port named by its key, its fields in a one-element list: what the
    // Ansible collection's readers take (`onyx_facts`, `onyx_interface`).
    leaf.with(|sw| crate::onyx(sw).release = release);
    let api = json(leaf, "show interfaces ethernet");
    let first = &api.as_array().unwrap()[0]["Eth1/1/1"][0];
    assert_eq!(first["Actual speed"], "50 Gbps");
    assert!(first.get("header").is_none());
    for k in facts[0]
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| *k != "header")
    {
        assert!(first.get(k).is_some(), "{k}");
    }

    // Text: the 3.7+ capture's labels at its column, block by block.
    let text = typed(leaf, &["show interfaces ethernet 1/9"]);
    let real = capture("show/napalm-onyx__show_interface.txt");
    let block = |t: &str| -> String { t.split("\n\n").take(5).collect::<Vec<_>>().join("\n\n") };
    let lab_labels: Vec<(String, usize)> = labels(&block(&text))
        .into_iter()
        .filter(|(k, _)| !k.starts_with("Eth"))
        .collect();
    let real_labels: Vec<(String, usize)> = labels(&block(&real))
        .into_iter()
        .filter(|(k, _)| !k.starts_with("Eth"))
        .collect();
    assert_eq!(lab_labels, real_labels, "{text}");
    assert!(text.starts_with("Eth1/9:\n"), "{text}");
    // The counters: the capture's names at its columns.
    let names = |t: &str| -> Vec<(usize, String)> {
        t.lines()
            .filter(|l| {
                l.starts_with("    ") && l.trim_start().starts_with(|c: char| c.is_ascii_digit())
            })
            .map(|l| {
                let name = l.trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit());
                (l.len() - name.len(), name.to_string())
            })
            .collect()
    };
    let real_counters = names(real.split("Eth1/2:").next().unwrap());
    assert_eq!(real_counters.len(), 22);
    assert_eq!(names(&text), real_counters);
    // Before 3.7: the 3.6.1102 capture's labels.
    leaf.with(|sw| crate::onyx(sw).release = fabric::types::Release(3, 6, 1102));
    let old = typed(leaf, &["show interfaces ethernet 1/9"]);
    let real = capture(
        "more/quali-mellanox-os-shell__sn1-rsw-b11-20a__show_interfaces_MLNX-OS_3.6.1102.txt",
    );
    let real_block =
        &real[real.find("\nEth1/1\n").unwrap() + 1..real.find("\nEth1/2\n").unwrap() + 1];
    let shape_of = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| match l.split_once(':') {
                Some((k, _)) => k.to_string(),
                None => l
                    .trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit())
                    .to_string(),
            })
            .collect()
    };
    let mut want = shape_of(real_block);
    want[0] = "Eth1/9".into();
    assert_eq!(shape_of(&old), want, "{old}");
    leaf.with(|sw| crate::onyx(sw).release = fabric::types::Release(3, 10, 4606));

    // `… status`: the captured header, rows at its columns; JSON as captured.
    let status = typed(leaf, &["show interfaces ethernet status"]);
    let real = capture("show/intel-mfd__show_interfaces_ethernet_status.txt");
    let lab: Vec<&str> = status.lines().collect();
    let want: Vec<&str> = real.lines().collect();
    assert_eq!(lab[..2], want[..2]);
    assert_eq!(
        lab[2],
        "Eth1/1/1               Up                          50G                    Auto"
    );
    assert_eq!(starts(lab[2]), starts(want[0]));
    let j = as_captured(
        leaf,
        "show interfaces ethernet 1/9 status",
        "show/ansible-onyx__onyx_interfaces_status__json.cfg",
        true,
    );
    assert_eq!(
        j["Eth1/9"][0]["Operational state"], "Down",
        "nothing is cabled to 1/9"
    );

    // `… counters`: the counters of `show interfaces ethernet`, counting: the uplink is up
    // and forwards the lab's load.
    let counters = typed(leaf, &["show interfaces ethernet 1/25 counters"]);
    let packets = counters
        .strip_prefix("Eth1/25:\n  Rx:\n    ")
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok());
    assert!(packets.is_some_and(|n| n > 0), "{counters}");
    assert_eq!(names(&counters), names(&text));
    let j = json(leaf, "show interfaces ethernet 1/25 counters");
    let real = capture_json("show/ansible-onyx__onyx_interfaces_show__json.cfg");
    assert_shape(&j[0]["Rx"], &real[0]["Rx"], "counters Rx");
    assert_shape(&j[0]["Tx"], &real[0]["Tx"], "counters Tx");

    // `show interfaces status`: 3.9's header and columns; 3.7's before 3.8.
    let text = typed(leaf, &["show interfaces status"]);
    let real = capture("more/cray-docs-csm__sw-spine-001__show_interfaces_status.txt");
    let want: Vec<&str> = real.lines().skip(1).collect();
    let lab: Vec<&str> = text.lines().collect();
    assert_eq!(lab[..4], want[..4]);
    assert_eq!(
        starts(line(&text, "Eth1/9 ")),
        starts(line(&real, "Eth1/20 "))
    );
    assert_eq!(starts(line(&text, "mgmt1")), starts(line(&real, "mgmt1")));
    leaf.with(|sw| crate::onyx(sw).release = fabric::types::Release(3, 7, 1160));
    let old = typed(leaf, &["show interfaces status"]);
    let real = capture("show/napalm-onyx__show_interface_status.txt");
    assert_eq!(
        old.lines().take(4).collect::<Vec<_>>(),
        real.lines().take(4).collect::<Vec<_>>()
    );
    assert_eq!(starts(line(&old, "mgmt1")), starts(line(&real, "mgmt1")));
    // The capture's Ethernet rows were renamed `Ethernet1/N` after the fact (its columns
    // are off by the five letters added); the lab's `Eth1/N` rows keep the columns.
    assert_eq!(starts(line(&old, "Eth1/9 ")), starts(line(&real, "mgmt1")));
    leaf.with(|sw| crate::onyx(sw).release = fabric::types::Release(3, 10, 4606));

    // `show ip interface brief`: no capture; the addressed interfaces, up where they are.
    let brief = typed(spine, &["show ip interface brief"]);
    assert!(line(&brief, "Eth1/1 ").contains("Up"), "{brief}");
    assert!(
        line(&brief, "Loopback 0 ").contains("10.255.0.1/32"),
        "{brief}"
    );
}

#[test]
fn show_l2_as_captured() {
    let net = cluster();
    let leaf = &net["leaf01"];
    // The captures' release (before the JSON API shapes; after them below).
    let release = leaf.with(|sw| {
        std::mem::replace(
            &mut crate::onyx(sw).release,
            fabric::types::Release(3, 6, 5000),
        )
    });
    let sp = as_captured(
        leaf,
        "show interfaces switchport",
        "show/ansible-onyx__onyx_l2_interface_show__show_interfaces_switchport_json.cfg",
        true,
    );
    assert_eq!(sp["Eth1/1/1"]["Access vlan"], "10");
    // Routed uplinks are not switchports.
    assert!(sp.get("Eth1/25").is_none());

    let v = as_captured(
        leaf,
        "show vlan",
        "show/ansible-onyx__onyx_vlan_show__show_vlan_json.cfg",
        true,
    );
    assert_eq!(v["1"]["Name"], "default");
    assert_eq!(v["10"]["Name"], "gpu");
    // Five ports to a line, as captured.
    let ports = v["10"]["Ports"].as_str().unwrap();
    assert!(
        ports.starts_with("Eth1/1/1, Eth1/1/2, Eth1/1/3, Eth1/1/4, Eth1/2/1,\nEth1/2/2, "),
        "{ports}"
    );
    let text = typed(leaf, &["show vlan"]);
    assert!(line(&text, "10      gpu").contains("Eth1/1/1, "), "{text}");
    // From 3.6.6000 each row's object in a one-element list, as `onyx_vlan` and
    // `onyx_l2_interface` read it.
    leaf.with(|sw| crate::onyx(sw).release = release);
    assert_eq!(json(leaf, "show vlan")["10"][0]["Name"], "gpu");
    assert_eq!(
        json(leaf, "show interfaces switchport")["Eth1/1/1"][0]["Access vlan"],
        "10"
    );

    let mac = typed(leaf, &["show mac-address-table"]);
    let real = capture("show/napalm-onyx__show_mac_address_table.txt");
    assert_eq!(
        mac.lines().take(3).collect::<Vec<_>>(),
        real.lines().take(3).collect::<Vec<_>>()
    );
    assert!(mac.ends_with("\n\n\nNumber of unicast:    0\n"), "{mac}");
}

#[test]
fn show_lldp_as_captured() {
    let net = cluster();
    let leaf = &net["leaf01"];
    let local = as_captured(
        leaf,
        "show lldp local",
        "show/ansible-onyx__onyx_lldp_show__show_lldp_local_json.cfg",
        false,
    );
    assert_eq!(local[0]["LLDP"], "enabled");
    assert_eq!(
        local[1]["System Description"],
        "Mellanox MSN3700,Onyx,SWv3.10.4606"
    );

    let ifs = as_captured(
        leaf,
        "show lldp interfaces",
        "show/ansible-onyx__onyx_lldp_interface_show__show_lldp_interfaces_json.cfg",
        true,
    );
    assert_eq!(ifs["Eth1/25"][0]["Transmit"], "Enabled");

    let remote = as_captured(
        leaf,
        "show lldp remote",
        "show/napalm-onyx__show_lldp_remote_json-print.txt",
        true,
    );
    assert_eq!(remote["Eth1/25"][0]["System Name"], "spine01");
    assert_eq!(remote["Eth1/25"][0]["Port ID"], "Eth1/1");
    assert!(remote.get("Eth1/1/1").is_none(), "hosts are not heard");
    let text = typed(leaf, &["show lldp remote"]);
    let real = capture("show/intel-mfd__show_lldp_remote.txt");
    assert_eq!(
        text.lines().take(3).collect::<Vec<_>>(),
        real.lines().take(3).collect::<Vec<_>>()
    );
    assert_eq!(
        starts(line(&text, "Eth1/25")),
        starts(line(&real, "Eth1/31"))
    );
    // A port that stops receiving hears nothing; one that stops sending is heard by none
    // (both on again: as before, and no line left for them).
    typed(leaf, &["interface ethernet 1/25 no lldp receive"]);
    typed(
        &net["spine01"],
        &["interface ethernet 1/2 no lldp transmit"],
    );
    let heard = json(leaf, "show lldp remote");
    assert!(
        heard.get("Eth1/25").is_none() && heard.get("Eth1/26").is_none(),
        "{heard:#}"
    );
    assert!(heard.get("Eth1/27").is_some(), "{heard:#}");
    let ifs = json(leaf, "show lldp interfaces");
    assert_eq!(ifs["Eth1/25"][0]["Receive"], "Disabled");
    assert_eq!(ifs["Eth1/25"][0]["Transmit"], "Enabled");
    typed(leaf, &["interface ethernet 1/25 lldp receive"]);
    typed(&net["spine01"], &["interface ethernet 1/2 lldp transmit"]);
    assert!(json(leaf, "show lldp remote").get("Eth1/26").is_some());
    let kept = typed(&net["spine01"], &["show running-config | include lldp"]);
    assert_eq!(kept, "   lldp\n");
    // A switch without LLDP is heard by none.
    typed(&net["spine01"], &["no lldp"]);
    let text = typed(leaf, &["show lldp remote"]);
    assert!(
        !text.contains("spine01") && text.contains("spine02"),
        "{text}"
    );
}

#[test]
fn show_configuration_files_name_prints_the_saved_file() {
    let net = cluster();
    let leaf = &net["leaf01"];
    let mut s = fabric::lab::Session::new();
    let run = |s: &mut fabric::lab::Session, l: &str| match leaf.command(1, s, l).step {
        fabric::lab::device::Step::Reply { output, .. } => output,
        other => panic!("{other:?}"),
    };
    // The configuration commands need enable.
    assert_eq!(
        run(&mut s, "show configuration files initial"),
        "% Unrecognized command \"configuration\".\n"
    );
    run(&mut s, "enable");
    run(&mut s, "no cli session paging enable");
    let text = run(&mut s, "show configuration files initial");
    let real = capture("napalm-onyx__show_configuration_files_initial.cfg");
    let head = |t: &str| -> Vec<String> {
        t.lines()
            .take(4)
            .map(|l| {
                l.split(|c: char| c == '"' || c == ':' || c.is_ascii_digit())
                    .next()
                    .unwrap_or(l)
                    .to_string()
            })
            .collect()
    };
    assert_eq!(head(&text), head(&real), "{text}");
    assert!(
        text.contains("## Active saved database \"initial\"\n"),
        "{text}"
    );
    assert!(text.contains("   lldp\n"), "{text}");
    let lines = run(&mut s, "show configuration files initial | json-print");
    let v: Value = serde_json::from_str(&lines).unwrap();
    assert!(
        v["Lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l == "   lldp")
    );
    assert_eq!(
        run(&mut s, "show configuration files nosuch"),
        "% Unrecognized command \"nosuch\".\n"
    );
}

/// `fabric lab` of the ML cluster, pushed: a leaf hears both spines on its uplinks, at the
/// spine ports the fabric cables, and its cabled ports are up, the others down.
#[test]
fn a_pushed_lab_shows_its_cabling() {
    let state = scratch("show-cabling");
    let fabric = root().join("fabrics/ml-cluster.yaml");
    let (_lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    let (code, out) = push_lab(&fabric, &state, &["--allow-disruptive"]);
    assert_eq!(code, 0, "{out}");
    let mut shells = shells(&state);
    let leaf = shells.get_mut("leaf01").unwrap();
    let remote = leaf.send("show lldp remote").unwrap();
    let rows: Vec<Vec<&str>> = remote
        .lines()
        .skip(3)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let want: Vec<Vec<String>> = (0..8)
        .map(|i| {
            let spine = if i < 4 { "spine01" } else { "spine02" };
            vec![
                format!("Eth1/{}", 25 + i),
                format!("Eth1/{}", 1 + i % 4),
                spine.to_string(),
            ]
        })
        .collect();
    let got: Vec<Vec<String>> = rows
        .iter()
        .map(|r| vec![r[0].to_string(), r[2].to_string(), r[3].to_string()])
        .collect();
    assert_eq!(got, want, "{remote}");

    let status = leaf.send("show interfaces status").unwrap();
    let state_of = |port: &str| {
        line(&status, &format!("{port} "))
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_string()
    };
    for p in ["Eth1/1/1", "Eth1/8/4", "Eth1/25", "Eth1/32", "mgmt0"] {
        assert_eq!(state_of(p), "Up", "{p}\n{status}");
    }
    for p in ["Eth1/9", "Eth1/24", "mgmt1"] {
        assert_eq!(state_of(p), "Down", "{p}\n{status}");
    }
    // Split ports are replaced by their subports.
    assert!(!status.contains("\nEth1/1 "), "{status}");
    // One end shut: that link is down at both ends, and its neighbor gone.
    leaf.send("configure terminal").unwrap();
    leaf.send("interface ethernet 1/25 shutdown").unwrap();
    let spine = shells.get_mut("spine01").unwrap();
    let status = spine.send("show interfaces status").unwrap();
    assert_eq!(
        line(&status, "Eth1/1 ").split_whitespace().nth(1),
        Some("Down"),
        "{status}"
    );
    let remote = spine.send("show lldp remote").unwrap();
    assert!(
        !remote.contains("\nEth1/1 ") && remote.contains("\nEth1/2 "),
        "{remote}"
    );
}

/// `show ntp configured | json-print` prints what Ansible's fixtures hold, byte for byte:
/// nothing configured (`onyx_show_ntp_configured`), then a peer and a server typed as the
/// servers-and-peers fixture has them (`onyx_ntp_servers_peers_show`); Ansible's
/// `onyx_ntp_servers_peers` reads this to decide what to change.
#[test]
fn ntp_configured_prints_as_the_fixtures() {
    let dev = Device::new(fabric::onyx::lab::Switch::factory("sw1"));
    let printed = |dev: &Device| typed(dev, &["show ntp configured | json-print"]);
    assert_eq!(
        printed(&dev).trim_end(),
        capture("show/ansible-onyx__onyx_show_ntp_configured__show_ntp_configured_json.cfg")
            .trim_end()
    );
    typed(
        &dev,
        &[
            "ntp enable",
            "ntp peer 1.1.1.1 keyID 5",
            "ntp server 2.2.2.2 keyID 99 trusted-enable disable",
        ],
    );
    assert_eq!(
        printed(&dev).trim_end(),
        capture("show/ansible-onyx__onyx_ntp_servers_peers_show__show_ntp_configured_json.cfg")
            .trim_end()
    );
}

/// The management shows read back what was configured, in the shapes of Ansible's fixtures,
/// key order included: `show snmp` and the SNMP lines of the running config as JSON `Lines`
/// (`onyx_snmp_show`: `public` listed though no line sets it, the factory's community),
/// `show usernames` (`onyx_username_show`: the factory accounts and two made; only the
/// lab's `admin`, whose password it asks, differs), `show ptp clock` (`onyx_show_ptp_clock`,
/// its time aside; refused while PTP is off).
#[test]
fn management_shows_print_as_the_fixtures() {
    let dev = Device::new(fabric::onyx::lab::Switch::factory("sw1"));
    let printed = |cmd: &str| typed(&dev, &[cmd]);
    let want = capture_json("show/ansible-onyx__onyx_snmp_show__json.cfg");
    typed(
        &dev,
        &[
            "snmp-server community community_1 ro",
            "snmp-server community community_2 rw",
            "snmp-server contact sara",
            "snmp-server location Jordan",
            "snmp-server notify port 1",
            "snmp-server notify community community_1",
        ],
    );
    let text = json_print;
    assert_eq!(printed("show snmp | json-print"), text(&want[0]));
    assert_eq!(
        printed("show running-config | include snmp | json-print"),
        text(&want[1])
    );

    typed(
        &dev,
        &[
            "username anass password 0 secret",
            "username anassh",
            "username anassh disable",
        ],
    );
    // The password is kept hashed, as Onyx keeps it (`password 7 $6$…`), never as typed.
    let users = printed("show running-config | include username");
    assert!(
        users.contains("   username anass password 7 $6$") && !users.contains("secret"),
        "{users}"
    );
    let mut want = capture_json("show/ansible-onyx__onyx_username_show__show_usernames_json.cfg");
    want["admin"][0]["ACCOUNT STATUS"] = Value::from("Password set (SHA512)");
    assert_eq!(printed("show usernames | json-print"), text(&want));

    assert_eq!(
        printed("show ptp clock"),
        "% Unrecognized command \"ptp\".\n"
    );
    typed(&dev, &["protocol ptp"]);
    let mut got = json(&dev, "show ptp clock");
    let mut want = capture_json("show/ansible-onyx__onyx_show_ptp_clock__show_ptp_clock_json.cfg");
    for v in [&mut got, &mut want] {
        v["Local clock time"] = Value::from("");
    }
    assert_eq!(text(&got), text(&want));
}

/// `show magp` and `show interfaces vlan` of a release before the JSON API print Ansible's
/// fixtures (`onyx_magp_show`: an instance with its address and MAC, one shut without them;
/// `onyx_l3_vlan_interface_show`: a VLAN interface with an address, its MAC aside), key order
/// included; `show magp`'s text is the captured layout (CSM).
#[test]
fn magp_and_vlan_interfaces_print_as_the_fixtures() {
    let sw = fabric::onyx::lab::Switch::factory_as(
        "sw1",
        Some(fabric::types::Release(3, 6, 5000)),
        None,
    );
    let dev = Device::new(sw);
    typed(
        &dev,
        &[
            "vlan 1243",
            "vlan 1200",
            "vlan 1002",
            "interface vlan 1243",
            "interface vlan 1200",
            "interface vlan 1002",
            "interface vlan 1243 magp 102 ip virtual-router address 10.0.0.43",
            "interface vlan 1243 magp 102 ip virtual-router mac-address 01:02:03:04:05:06",
            "interface vlan 1200 magp 103 shutdown",
            "ip routing",
            "interface vlan 1002 ip address 172.3.12.4/24",
        ],
    );
    let text = json_print;
    assert_eq!(
        typed(&dev, &["show magp | json-print"]),
        text(&capture_json(
            "show/ansible-onyx__onyx_magp_show__show_magp_json.cfg"
        ))
    );
    let magp = typed(&dev, &["show magp"]);
    let captured = capture("more/cray-docs-csm__sw-spine-001__show_magp.txt");
    let block = |t: &str| -> Vec<String> {
        t.lines()
            .skip_while(|l| !l.starts_with("MAGP"))
            .skip(1)
            .take(5)
            .map(|l| l.split(':').next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(block(&magp), block(&captured), "{magp}");
    let mut got = json(&dev, "show interfaces vlan");
    let mut want = capture_json(
        "show/ansible-onyx__onyx_l3_vlan_interface_show__show_interfaces_vlan_json.cfg",
    );
    for v in [&mut got, &mut want] {
        v[0]["Mac Address"] = Value::from("");
    }
    // The first of the three (in VLAN order), the one with an address.
    assert_eq!(text(&got[0]), text(&want[0]));
}

/// `show running-config protocol bgp` is the running config's BGP section in the frame
/// Ansible's fixture shows (header, the temporary prefix-mode section, BGP, the persistent
/// one), which `onyx_bgp` reads.
#[test]
fn running_config_protocol_bgp_is_the_bgp_section() {
    let titles = |t: &str| -> Vec<String> {
        let lines: Vec<&str> = t.lines().collect();
        lines
            .windows(3)
            .filter(|w| w[0] == "##" && w[2] == "##" && !w[1].starts_with("## Running"))
            .map(|w| w[1].to_string())
            .collect()
    };
    let leaf = &cluster()["leaf01"];
    let bgp = typed(leaf, &["show running-config protocol bgp"]);
    let fixture = capture("ansible-onyx__onyx_bgp_show__show_running-config_protocol_bgp.cfg");
    assert_eq!(titles(&bgp), titles(&fixture), "{bgp}");
    assert!(
        bgp.starts_with("##\n## Running database \"initial\"\n"),
        "{bgp}"
    );
    assert!(
        bgp.contains(
            "## BGP configuration\n##\n   protocol bgp\n   router bgp 65101 vrf default\n"
        ),
        "{bgp}"
    );
}

/// `show ip arp` on a pushed leaf lists its eight uplinks' spine addresses in the captured
/// layout (`napalm-onyx__show_ip_arp.txt`: VRF, count, ruled header, columns), which
/// napalm-onyx's `get_arp_table` reads from the eighth line; `show interfaces` is the
/// Ethernet ports' blocks (`napalm-onyx__show_interface.txt`).
#[test]
fn ip_arp_and_interfaces_print_as_captured() {
    let net = cluster();
    let leaf = &net["leaf01"];
    let arp = typed(leaf, &["show ip arp"]);
    let real = capture("show/napalm-onyx__show_ip_arp.txt");
    // The capture's first line is its test's marker; the rest is the switch's.
    let head = |t: &str, skip: usize| -> Vec<String> {
        t.lines()
            .skip(skip)
            .take(6)
            .map(|l| {
                if l.contains("Total number") {
                    l.split(':').next().unwrap_or("").to_string()
                } else {
                    l.to_string()
                }
            })
            .collect()
    };
    assert_eq!(head(&arp, 1), head(&real, 1), "{arp}");
    let rows: Vec<&str> = arp.lines().skip(7).filter(|l| !l.is_empty()).collect();
    assert_eq!(rows.len(), 8, "{arp}");
    assert!(arp.contains("Total number of entries: 8\n"), "{arp}");
    assert_eq!(starts(rows[0]), starts(line(&real, "  10.209.36.1 ")));
    assert_eq!(
        rows[0].split_whitespace().collect::<Vec<_>>(),
        [
            "10.254.0.192",
            "Dynamic",
            "ETH",
            &fabric::lab::network::base_mac("spine01")
                .to_string()
                .to_uppercase(),
            "Eth1/25"
        ]
    );
    // The same but for the counters, which count on between the two.
    let uncounted = |text: String| -> String {
        text.lines()
            .map(|l| match l.trim_start().split_once(' ') {
                Some((n, rest)) if n.parse::<u64>().is_ok() => format!("N {}", rest.trim()),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        uncounted(typed(leaf, &["show interfaces"])),
        uncounted(typed(leaf, &["show interfaces ethernet"]))
    );
}
