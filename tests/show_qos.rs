//! The lab's QoS, buffer, MLAG and BGP `show` commands against real Onyx output: each
//! `| json-print` against the captured JSON of that command (same keys in the same order,
//! same nesting and value types; the same values too where the lab is set up as the captured
//! switch was), texts against the captured layouts, and the reference deployment guide's
//! switch (golden/rdg-roce-dscp/swx-mld-1-2.cfg) reporting what it is configured with.

use std::sync::Arc;

use serde_json::Value;

use fabric::lab::{Cabling, Device, Network};
use fabric::onyx::lab::{Session, Switch};
use fabric::types::{Model, Port, Release};

use crate::network::typed;
use crate::{root, shared};

/// A captured file of the corpus.
fn capture(name: &str) -> String {
    let dir = if name.ends_with(".txt") && !name.starts_with("ansible") {
        "corpus/onyx/more"
    } else {
        "corpus/onyx/show"
    };
    std::fs::read_to_string(shared().join(dir).join(name)).unwrap()
}

fn captured_json(name: &str) -> Value {
    serde_json::from_str(&capture(name)).unwrap()
}

/// A lab switch alone on `release`, configured with `lines` from `(config)`.
fn switch(release: &str, lines: &[&str]) -> (Switch, Session) {
    let mut sw = Switch::factory("switch");
    sw.release = release.parse().unwrap();
    let mut s = Session::configuring();
    for l in lines {
        let out = s.input(&mut sw, l).output;
        assert_eq!(out, "", "{l}");
    }
    (sw, s)
}

/// What the switch prints for `line`.
fn show(sw: &mut Switch, s: &mut Session, line: &str) -> String {
    s.input(sw, line).output
}

/// `line | json-print`, read as JSON.
fn json(sw: &mut Switch, s: &mut Session, line: &str) -> Value {
    let out = show(sw, s, &format!("{line} | json-print"));
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{line}: {e}\n{out}"))
}

/// Where two values differ in shape: object keys (and their order, unless `order` is
/// false), nesting, array lengths and value types; values themselves may differ.
fn shape_diff(lab: &Value, real: &Value, order: bool, at: &str) -> Option<String> {
    match (lab, real) {
        (Value::Object(a), Value::Object(b)) => {
            let (ka, kb): (Vec<&String>, Vec<&String>) = (a.keys().collect(), b.keys().collect());
            let same = if order {
                ka == kb
            } else {
                let mut x = ka.clone();
                let mut y = kb.clone();
                x.sort();
                y.sort();
                x == y
            };
            if !same {
                return Some(format!("{at}: keys {ka:?}, captured {kb:?}"));
            }
            a.iter()
                .find_map(|(k, v)| shape_diff(v, &b[k], order, &format!("{at}/{k}")))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(n, (x, y))| shape_diff(x, y, order, &format!("{at}[{n}]"))),
        (Value::String(_), Value::String(_)) => None,
        _ => Some(format!("{at}: {lab} where the capture has {real}")),
    }
}

#[track_caller]
fn assert_shape(lab: &Value, file: &str, order: bool) {
    let real = captured_json(file);
    if let Some(d) = shape_diff(lab, &real, order, "") {
        panic!("{file}: {d}\nlab: {lab:#}");
    }
}

/// The lab's JSON of `line` is the capture `file`: keys, order and values, and printed to
/// the byte as Onyx prints it (four-space indent).
#[track_caller]
fn assert_captured(sw: &mut Switch, s: &mut Session, line: &str, file: &str) {
    let lab = json(sw, s, line);
    assert_shape(&lab, file, true);
    assert_eq!(lab, captured_json(file), "{line}");
    let printed = show(sw, s, &format!("{line} | json-print"));
    assert_eq!(printed.trim_end(), capture(file).trim_end(), "{line}");
}

/// Set up as the captured switches were, the lab prints the captured JSON itself.
#[test]
fn qos_json_equals_the_capture_where_the_lab_is_the_captured_switch() {
    let (mut sw, mut s) = switch(
        "3.6.5000",
        &[
            "traffic pool roce type lossless",
            "traffic pool roce memory percent 50.00",
            "traffic pool roce map switch-priority 3",
            "interface ethernet 1/1 traffic-class 2 dcb ets strict",
            "interface ethernet 1/1 traffic-class 3 dcb ets strict",
            "interface ethernet 1/1 traffic-class 2 congestion-control red minimum-relative 9 maximum-relative 90",
            "interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 500 maximum-absolute 1550",
        ],
    );
    for (line, file) in [
        (
            "show traffic pool roce",
            "ansible-onyx__onyx_buffer_pool__show_traffic_pool_roce_json.cfg",
        ),
        (
            "show dcb ets interface ethernet 1/1",
            "ansible-onyx__onyx_show_dcb_ets_interface__json.cfg",
        ),
        (
            "show interfaces ethernet 1/1 congestion-control",
            "ansible-onyx__onyx_show_interface_congestion_control__json.cfg",
        ),
    ] {
        assert_captured(&mut sw, &mut s, line, file);
    }
}

/// Where the lab cannot be the captured switch (a rewrite the lab does not model, interfaces
/// up), the JSON has the capture's shape and key order.
#[test]
fn qos_json_has_the_captured_shape() {
    let (mut sw, mut s) = switch(
        "3.6.5000",
        &[
            "interface ethernet 1/1 qos trust both",
            "dcb priority-flow-control enable force",
            "dcb priority-flow-control priority 3 enable",
            "interface ethernet 1/1 dcb priority-flow-control mode on force",
            "interface ethernet 1/2 module-type qsfp-split-2 force",
            "interface ethernet 1/2/2 dcb priority-flow-control mode on force",
            "interface port-channel 1",
            "exit",
            "interface port-channel 1 dcb priority-flow-control mode on force",
            "protocol mlag",
            "interface mlag-port-channel 2",
            "exit",
            "interface mlag-port-channel 2 dcb priority-flow-control mode on force",
        ],
    );
    let (sw, s) = (&mut sw, &mut s);
    let qos = json(sw, s, "show qos interface ethernet 1/1");
    assert_shape(
        &qos,
        "ansible-onyx__show_qos_interface_ethernet__json.cfg",
        true,
    );
    assert_eq!(qos[0]["Eth1/1"][0]["Trust mode"], "both");
    // The PFC fixture's four interfaces are in an order no dictionary gives (its test's
    // author arranged them): keys and shape only.
    let mut pfc = json(sw, s, "show dcb priority-flow-control");
    // The fixture names `Eth1/1` and `Eth1/1/2`, which no switch has at once (a split port
    // is replaced by its subports, and the lab refuses the parent's settings): the lab's
    // subport is 1/2/2, compared under the fixture's name.
    let sub = pfc
        .as_object_mut()
        .and_then(|m| m.shift_remove("Eth1/2/2"))
        .unwrap();
    pfc["Eth1/1/2"] = sub;
    assert_shape(
        &pfc,
        "ansible-onyx__onyx_pfc_interface_enabled__show_dcb_pfc_json.cfg",
        false,
    );
    assert_eq!(pfc["Po1"][0]["PFC admin"], "on");
}

/// From 3.6.6000 `show dcb priority-flow-control | json-print` is a list, whose third element
/// the Ansible collection's reader takes for the interfaces.
#[test]
fn later_releases_print_the_pfc_list_the_ansible_reader_takes() {
    let lines = ["interface ethernet 1/1 dcb priority-flow-control mode on force"];
    let (mut sw, mut s) = switch("3.6.8190", &lines);
    let pfc = json(&mut sw, &mut s, "show dcb priority-flow-control");
    assert_eq!(pfc[0]["PFC"], "disabled");
    assert_eq!(pfc[1]["Priority Disabled List"], "0 1 2 3 4 5 6 7");
    assert_eq!(pfc[2]["Eth1/1"][0]["PFC admin"], "on");
    assert_eq!(pfc[2]["Eth1/1"][0]["PFC oper"], "Disabled");
    // The same switch on 3.6.5000 prints the captured shape.
    let (mut sw, mut s) = switch("3.6.5000", &lines);
    let pfc = json(&mut sw, &mut s, "show dcb priority-flow-control");
    assert_eq!(pfc["Eth1/1"][0]["PFC admin"], "on");
}

/// `onyx_buffer_pool` reads `show traffic pool NAME | json-print` (after the text up to the
/// first line opening a JSON value) as `Type`, `int(Switch Priorities)`, `float(Memory
/// [%])`: after its own commands it sees what it configured, so a second run sends nothing;
/// before, the show fails (a `%` line, which its connection takes as an error).
#[test]
fn the_buffer_pool_module_sees_what_it_configured() {
    let (mut sw, mut s) = switch("3.6.8190", &[]);
    let before = show(&mut sw, &mut s, "show traffic pool roce | json-print");
    assert_eq!(before, "% Traffic pool \"roce\" does not exist.\n");
    // The module's commands (`memory_percent: 50.00` formatted by Python: `50.0`).
    for l in [
        "traffic pool roce type lossless",
        "traffic pool roce memory percent 50.0",
        "traffic pool roce map switch-priority 3",
    ] {
        assert_eq!(show(&mut sw, &mut s, l), "");
    }
    let out = show(&mut sw, &mut s, "show traffic pool roce | json-print");
    let start = out.lines().position(|l| l.starts_with('{')).unwrap();
    let text: String = out.lines().skip(start).collect();
    let v: Value = serde_json::from_str(&text).unwrap();
    let pool = &v["roce"][0];
    assert_eq!(pool["Type"], "lossless");
    assert_eq!(
        pool["Switch Priorities"].as_str().unwrap().parse::<i64>(),
        Ok(3)
    );
    assert_eq!(
        pool["Memory [%]"].as_str().unwrap().parse::<f64>(),
        Ok(50.0)
    );
}

/// `show roce` is the captured text on a switch set up as the capture's (`roce` on an SN2700,
/// LLDP on), but for the two numbers of traffic the lab does not carry and the buffer its
/// model does not measure: the same lines, the same columns.
#[test]
fn show_roce_is_the_captured_text() {
    let (mut sw, mut s) = switch("3.10.4006", &["lldp", "roce"]);
    sw.model = Some(Model::find("SN2700").unwrap());
    let lab = show(&mut sw, &mut s, "show roce");
    let real = capture("blog-id310222282__SN2700__show_roce_Onyx_3.10.4006.txt");
    let (lab, real): (Vec<&str>, Vec<&str>) = (lab.lines().collect(), real.lines().collect());
    assert_eq!(lab.len(), real.len(), "{}", lab.join("\n"));
    for (a, b) in lab.iter().zip(&real) {
        if b.starts_with("  lossy-default") || b.starts_with("  roce-reserved") {
            assert_eq!(columns(a), columns(b), "{a:?} / {b:?}");
            assert_eq!(a.len(), b.len());
            // Name, type, memory and priorities are the capture's; sizes and usage differ.
            assert_eq!(a[..60], b[..60]);
        } else {
            assert_eq!(a, b);
        }
    }
    // Before 3.8.2000 the word does not exist.
    let (mut old, mut s) = switch("3.6.8190", &[]);
    assert_eq!(
        show(&mut old, &mut s, "show roce"),
        "% Unrecognized command \"roce\".\n"
    );
    // Nor `show traffic pool` before 3.6.5000.
    let (mut old, mut s) = switch("3.6.4000", &[]);
    assert_eq!(
        show(&mut old, &mut s, "show traffic pool"),
        "% Unrecognized command \"traffic\".\n"
    );
}

/// Where each word of a line starts.
fn columns(line: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        if c != ' ' && prev == ' ' {
            out.push(i);
        }
        prev = c;
    }
    out
}

/// `show traffic pool` prints `show roce`'s captured pool table, its headings to the byte.
#[test]
fn show_traffic_pool_prints_the_captured_pool_table() {
    let (mut sw, mut s) = switch(
        "3.10.4006",
        &[
            "traffic pool roce type lossless",
            "traffic pool roce map switch-priority 3",
        ],
    );
    let lab = show(&mut sw, &mut s, "show traffic pool");
    let real = capture("blog-id310222282__SN2700__show_roce_Onyx_3.10.4006.txt");
    let heading: Vec<&str> = real
        .lines()
        .skip_while(|l| !l.starts_with("RoCE buffer pools:"))
        .skip(1)
        .take(4)
        .collect();
    let lab_heading: Vec<&str> = lab.lines().skip(1).take(4).collect();
    assert_eq!(lab_heading, heading);
    assert!(lab.ends_with("\nException list:\nN/A\n"), "{lab}");
    let row = lab
        .lines()
        .find(|l| l.starts_with("  lossy-default"))
        .unwrap();
    let wrapped = lab
        .lines()
        .skip_while(|l| !l.starts_with("  lossy-default"))
        .nth(1)
        .unwrap();
    assert_eq!(columns(row)[..4], [2, 27, 37, 46]);
    assert_eq!(wrapped, format!("{:46}{:<14}{:25}", "", "5, 6, 7", ""));
}

/// Set up as the captured switches were, the lab prints the captured MLAG and port-channel
/// JSON itself: an MLAG pair shut down, a port-channel and an MLAG port-channel whose members
/// are down.
#[test]
fn mlag_json_equals_the_capture_where_the_lab_is_the_captured_switch() {
    let (mut sw, mut s) = switch(
        "3.6.5000",
        &[
            "interface port-channel 22",
            "exit",
            "interface ethernet 1/7 channel-group 22 mode on",
            "protocol mlag",
            "mlag system-mac 00:00:5E:00:01:4E",
        ],
    );
    assert_captured(
        &mut sw,
        &mut s,
        "show mlag",
        "ansible-onyx__onyx_mlag_show__show_mlag_json.cfg",
    );
    for l in [
        "interface mlag-port-channel 33",
        "no shutdown",
        "exit",
        "interface ethernet 1/8 mlag-channel-group 33 mode active",
    ] {
        assert_eq!(show(&mut sw, &mut s, l), "", "{l}");
    }
    for (line, file) in [
        (
            "show interfaces port-channel summary",
            "ansible-onyx__onyx_port_channel_show__json.cfg",
        ),
        (
            "show interfaces mlag-port-channel summary",
            "ansible-onyx__onyx_mlag_port_channel_show__json.cfg",
        ),
    ] {
        assert_captured(&mut sw, &mut s, line, file);
    }
    // From 3.6.6000 the MLAG summary is a list of its blocks, the rows in a one-element list
    // under their title, where the Ansible collection's `onyx_linkagg` finds them.
    sw.release = Release(3, 6, 8190);
    let mpo = json(&mut sw, &mut s, "show interfaces mlag-port-channel summary");
    let rows = mpo
        .as_array()
        .unwrap()
        .iter()
        .find_map(|b| b.get("MLAG Port-Channel Summary"))
        .unwrap();
    assert_eq!(rows[0]["1 Mpo33(S)"][0]["Type"], "LACP");
}

/// An IPL configured (the pair shut down): the captured shape of `show mlag` with its
/// `MLAG IPLs Summary`.
#[test]
fn mlag_json_has_the_captured_shape() {
    let (mut sw, mut s) = switch(
        "3.6.5000",
        &[
            "protocol mlag",
            "interface port-channel 1",
            "exit",
            "interface vlan 1002",
            "exit",
            "interface vlan 1002 ip address 10.2.2.3/24 primary",
            "interface port-channel 1 ipl 1",
            "interface vlan 1002 ipl 1 peer-address 10.2.2.2",
        ],
    );
    let mlag = json(&mut sw, &mut s, "show mlag");
    assert_shape(
        &mlag,
        "ansible-onyx__onyx_mlag_ipl_show__show_mlag_json.cfg",
        true,
    );
    let ipl = &mlag["MLAG IPLs Summary"]["1"][0];
    assert_eq!(ipl["Peer IP address"], "10.2.2.2");
    assert_eq!(ipl["Local IP address"], "10.2.2.3");
    assert_eq!(ipl["Vlan Interface"], "1002");
    assert_eq!(ipl["Group Port-Channel"], "Po1");
}

/// A pair of lab switches cabled on 1/1 (their peer link), 1/2 (an MLAG port-channel's
/// member) and 1/3, each configured as an MLAG pair and then with its `own` lines.
fn mlag_pair(names: [&str; 2], own: [&[&str]; 2]) -> Vec<Arc<Device>> {
    let mut cabling = Cabling::default();
    for p in [1, 2, 3] {
        cabling.connect((names[0], Port::new(1, p)), (names[1], Port::new(1, p)));
    }
    let network = Network::new(cabling);
    names
        .iter()
        .zip(own)
        .map(|(name, own)| {
            let dev = Arc::new(Device::new(Switch::factory(name)));
            network.add_device(name, &dev);
            dev.join(network.clone(), name);
            let common = [
                "lacp",
                "protocol mlag",
                "vlan 4000",
                "exit",
                "interface port-channel 100",
                "exit",
                "interface ethernet 1/1 channel-group 100 mode active",
                "interface port-channel 100 ipl 1",
                "interface vlan 4000",
                "exit",
                "mlag system-mac 00:00:5E:00:01:5D",
                "interface mlag-port-channel 2",
                "no shutdown",
                "exit",
                "interface ethernet 1/2 mlag-channel-group 2 mode on",
                "mlag-vip neo-mlag-vip-500 ip 10.209.25.107 /24 force",
                "no mlag shutdown",
            ];
            assert_eq!(typed(&dev, &common), "", "{name}");
            assert_eq!(typed(&dev, own), "", "{name}");
            dev
        })
        .collect()
}

/// A formed MLAG pair prints `show interfaces mlag-port-channel summary` as the captured
/// manual example, and `show mlag-vip` in the captured layout and JSON shape.
#[test]
fn an_mlag_pair_prints_the_captured_summary_and_vip() {
    let pair = mlag_pair(
        ["r-smg-sw14", "r-neo-sw12"],
        [
            &[
                "interface vlan 4000 ip address 10.254.255.1/30 primary",
                "interface vlan 4000 ipl 1 peer-address 10.254.255.2",
            ],
            &[
                "interface vlan 4000 ip address 10.254.255.2/30 primary",
                "interface vlan 4000 ipl 1 peer-address 10.254.255.1",
            ],
        ],
    );
    let summary = typed(&pair[0], &["show interfaces mlag-port-channel summary"]);
    let real =
        capture("cray-docs-csm__manual-example__show_interfaces_mlag-port-channel_summary.txt");
    // The capture without its prompt line.
    let real: String = real.lines().skip(1).map(|l| format!("{l}\n")).collect();
    assert_eq!(summary, real);

    let vip = typed(&pair[1], &["show mlag-vip"]);
    let real = capture("cray-docs-csm__sw-spine-001__show_mlag-vip.txt");
    let (lab, real): (Vec<&str>, Vec<&str>) =
        (vip.lines().collect(), real.lines().skip(1).collect());
    assert_eq!(lab.len(), real.len(), "{vip}");
    for (a, b) in lab.iter().zip(&real) {
        assert_eq!(columns(a), columns(b), "{a:?} / {b:?}");
    }
    assert_eq!(lab[1], " MLAG group name: neo-mlag-vip-500");
    assert_eq!(lab[3], " Active nodes: 2");
    assert!(
        lab[8].starts_with("r-smg-sw14 ") && lab[8].contains(" master "),
        "{vip}"
    );
    assert!(
        lab[9].starts_with("r-neo-sw12 ") && lab[9].contains(" standby "),
        "{vip}"
    );
    let v: Value = serde_json::from_str(&typed(&pair[1], &["show mlag-vip | json-print"])).unwrap();
    assert_shape(
        &v,
        "ansible-onyx__onyx_mlag_vip_show__show_mlag-vip_json.cfg",
        true,
    );
    assert_eq!(v["MLAG-VIP"]["MLAG VIP address"], "10.209.25.107/24");

    // A second member on one switch (cabled to a port of the other outside the bundle),
    // then the first link down (both its ends): the bundle is up on one switch only.
    typed(
        &pair[0],
        &["interface ethernet 1/3 mlag-channel-group 2 mode on"],
    );
    typed(&pair[1], &["interface ethernet 1/2 shutdown"]);
    let summary = typed(&pair[0], &["show interfaces mlag-port-channel summary"]);
    assert!(
        summary.ends_with("  1 Mpo2(P)          Static   Eth1/2(D) Eth1/3(P)       Eth1/2(D)\n"),
        "{summary}"
    );
}

/// `show ip bgp summary | json-print`: the header's fields and a row per neighbor.
#[test]
fn bgp_summary_prints_json_too() {
    let (mut sw, mut s) = switch(
        "3.9.3210",
        &[
            "ip routing vrf default",
            "protocol bgp",
            "router bgp 65101 vrf default",
            "exit",
            "router bgp 65101 vrf default neighbor 10.0.0.0 remote-as 65000",
        ],
    );
    let v = json(&mut sw, &mut s, "show ip bgp summary");
    assert_eq!(v["local AS number"], "65101");
    assert_eq!(v["10.0.0.0"][0]["AS"], "65000");
    assert_eq!(v["10.0.0.0"][0]["State/PfxRcd"], "ACTIVE");
}

/// The reference deployment guide's switch, as `fabric compile` writes it, cabled to its
/// eight servers: the pool, trust L3, ECN 150/1500 KB on TC3, TC6 strict and (not
/// configured by the guide) PFC off; then PFC on, operational on the ports that are up only.
#[test]
fn the_reference_guides_switch_reports_what_it_is_configured_with() {
    let path = root().join("fabrics/rdg-roce-dscp.yaml");
    let yaml = std::fs::read_to_string(&path).unwrap();
    let mut sources = fabric::diag::Sources::default();
    let loaded =
        fabric::fabric::parse_bytes("rdg-roce-dscp.yaml", yaml.into_bytes(), &mut sources).unwrap();
    let (fab, _) = fabric::fabric::validate(&loaded.raw, loaded.file);
    let fab = fab.unwrap();
    let golden =
        std::fs::read_to_string(root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg")).unwrap();
    let mut sw = Switch::with_config(fabric::onyx::parse(&golden).unwrap());
    sw.release = Release(3, 6, 8190);
    sw.model = Some(Model::find("SN2700").unwrap());
    let network = Network::new(Cabling::from_fabric(&fab));
    let dev = Arc::new(Device::new(sw));
    network.add_device("swx-mld-1-2", &dev);
    dev.join(network.clone(), "swx-mld-1-2");
    let json = |line: &str| -> Value {
        let out = typed(&dev, &[&format!("{line} | json-print")]);
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{line}: {e}\n{out}"))
    };

    let pool = json("show traffic pool roce");
    assert_eq!(pool["roce"][0]["Type"], "lossless");
    assert_eq!(pool["roce"][0]["Memory [%]"], "50.00");
    assert_eq!(pool["roce"][0]["Switch Priorities"], "3");
    for port in ["1/1", "1/9", "1/32"] {
        let qos = json(&format!("show qos interface ethernet {port}"));
        assert_eq!(
            qos[0][format!("Eth{port}")][0]["Trust mode"],
            "L3",
            "{port}"
        );
        let cc = json(&format!(
            "show interfaces ethernet {port} congestion-control"
        ));
        assert_eq!(cc[4]["header"], "TC-3");
        assert_eq!(cc[4]["Mode"], "ECN");
        assert_eq!(cc[4]["Threshold mode"], "absolute");
        assert_eq!(cc[4]["Minimum threshold"], "150 KB");
        assert_eq!(cc[4]["Maximum threshold"], "1500 KB");
        for tc in [0, 1, 2, 4, 5, 6, 7] {
            assert_eq!(cc[tc + 1]["Mode"], "none", "{port} TC{tc}");
        }
        let ets = json(&format!("show dcb ets interface ethernet {port}"));
        let per_tc = &ets[0][format!("Eth{port}")][2]["ETS per TC"][0];
        assert_eq!(per_tc["6"][0]["S.Mode"], "Strict");
        assert_eq!(per_tc["3"][0]["S.Mode"], "WRR");
    }
    assert_eq!(
        typed(&dev, &["show qos interface ethernet 1/33"]),
        "% Unrecognized command \"1/33\".\n"
    );
    let pfc = json("show dcb priority-flow-control");
    assert_eq!(pfc[0]["PFC"], "disabled");
    assert_eq!(pfc[1]["Priority Enabled List"], "");
    assert_eq!(pfc[2].as_object().unwrap().len(), 32);
    assert_eq!(pfc[2]["Eth1/1"][0]["PFC admin"], "Auto");
    assert_eq!(pfc[2]["Eth1/1"][0]["PFC oper"], "Disabled");
    // 3.6.8190 has no `roce`.
    assert_eq!(
        typed(&dev, &["show roce"]),
        "% Unrecognized command \"roce\".\n"
    );

    // PFC on priority 3 as the guide's lossless variant configures it: operational on the
    // eight ports cabled to servers, and on those only while they are up.
    typed(
        &dev,
        &[
            "dcb priority-flow-control enable force",
            "dcb priority-flow-control priority 3 enable",
            "interface ethernet 1/1-1/32 dcb priority-flow-control mode on force",
            "interface ethernet 1/2 shutdown",
        ],
    );
    let pfc = json("show dcb priority-flow-control");
    assert_eq!(pfc[0]["PFC"], "enabled");
    assert_eq!(pfc[1]["Priority Enabled List"], "3");
    assert_eq!(pfc[1]["Priority Disabled List"], "0 1 2 4 5 6 7");
    let oper = |p: u16| pfc[2][format!("Eth1/{p}")][0]["PFC oper"].clone();
    let enabled: Vec<u16> = (1..=32).filter(|p| oper(*p) == "Enabled").collect();
    assert_eq!(enabled, [1, 3, 4, 5, 6, 7, 8]);
    let text = typed(&dev, &["show dcb priority-flow-control"]);
    assert!(
        text.starts_with(
            "\nPFC: enabled\nPriority Enabled List: 3\nPriority Disabled List: 0 1 2 4 5 6 7\n\n\
         -------------------------------------------------\n\
         Interface        PFC admin        PFC oper\n\
         -------------------------------------------------\n\
         Eth1/1           on               Enabled\n\
         Eth1/2           on               Disabled\n"
        ),
        "{text}"
    );
}
