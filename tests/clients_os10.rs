//! Real third-party clients written for Dell OS10 drive the lab's OS10 switches over SSH, as
//! they would a switch, after `fabric push` of `fabrics/vcf-bitfusion.yaml` (a VLT pair of
//! S5248F-ON, OS10 10.5.3.2): Ansible's `dellemc.os10` collection (1.1.1, bundled with the
//! `ansible` 7.x package) through `ansible.netcommon.network_cli`, NAPALM's `dellos10` driver
//! (napalm-dellos10, over Netmiko, SCP for its candidate), and scrapli-community's `dell_emc`
//! platform. Each test starts a lab of its own and pushes the fabric once; what its client
//! changed is then exactly what `fabric diff` finds. The clients run from the virtualenv of
//! [`crate::clients`], their scripts and play in `tests/fixtures/clients/`.
//!
//! Where a client is at fault against any OS10 switch, its script says so and works around it
//! there, never in the lab: napalm-dellos10 1.0.7's `get_interfaces_ip` prints `in ip` on
//! standard output (the script keeps the getters' prints off its JSON); scrapli-community's
//! `dell_emc` prompt patterns end at the `#`, where OS10 prints `# ` (the script passes the
//! platform's levels with an optional space). dellemc.os10's cliconf looks for `OS Version
//! (\S+)` in `show version`, which prints `OS Version: …`: its device info has no version,
//! which nothing here reads.

use std::path::{Path, PathBuf};

use crate::clients::{play, session, venv};
use crate::lab_ssh::{Killed, lab_inventory, start_lab_of};
use crate::{root, scratch};

/// A lab of `fabrics/vcf-bitfusion.yaml`, pushed: the folder (the fabric in it, the lab's
/// state in `.fabric/lab`), the running lab, and leaf-a's address.
fn pushed(name: &str) -> (PathBuf, Killed, (String, u16)) {
    let dir = scratch(name);
    let fabric = dir.join("vcf-bitfusion.yaml");
    std::fs::copy(root().join("fabrics/vcf-bitfusion.yaml"), &fabric).unwrap();
    let state = dir.join(".fabric/lab");
    let (lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    let (code, out, err) =
        crate::cli::fabric(&["push", "vcf-bitfusion.yaml", "--lab", "--yes"], &dir);
    assert_eq!(code, 0, "{out}{err}");
    let a = &lab_inventory(&state).switches["leaf-a"];
    let address = (a.host.clone(), a.port);
    (dir, lab, address)
}

/// What `fabric diff --lab` finds on each switch: (its block, the command) per command.
fn drift(dir: &Path) -> Vec<(String, Vec<(String, String)>)> {
    let (_, out, err) = crate::cli::fabric(
        &["diff", "vcf-bitfusion.yaml", "--lab", "--format", "json"],
        dir,
    );
    let json: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    json["switches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let commands = s["commands"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| {
                    let mode: Vec<&str> = c["mode"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|m| m.as_str().unwrap())
                        .collect();
                    (mode.join(" / "), c["command"].as_str().unwrap().to_string())
                })
                .collect();
            (s["name"].as_str().unwrap().to_string(), commands)
        })
        .collect()
}

/// leaf-a drifted by `commands` alone, leaf-b not at all.
fn assert_drift(dir: &Path, commands: &[(&str, &str)]) {
    let want: Vec<(String, String)> = commands
        .iter()
        .map(|(m, c)| (m.to_string(), c.to_string()))
        .collect();
    assert_eq!(
        drift(dir),
        [
            ("leaf-a".to_string(), want),
            ("leaf-b".to_string(), Vec::new())
        ]
    );
}

#[test]
fn ansible_dellemc_os10_reads_the_pushed_switch_and_configures_it_once() {
    let venv = venv();
    let (dir, _lab, (host, port)) = pushed("clients-os10-ansible");
    // Host keys checked against the lab's own: paramiko reads ~/.ssh/known_hosts (HOME is the
    // folder). An admin logs in at `#`: no `become` (OS10 has no `enable` to go to).
    std::fs::create_dir_all(dir.join(".ssh")).unwrap();
    std::fs::copy(
        dir.join(".fabric/lab/known_hosts"),
        dir.join(".ssh/known_hosts"),
    )
    .unwrap();
    std::fs::write(
        dir.join("inventory.ini"),
        format!(
            "[switches]\nsw ansible_host={host} ansible_port={port}\n\n[switches:vars]\nansible_connection=ansible.netcommon.network_cli\nansible_network_os=dellemc.os10.os10\nansible_user=admin\nansible_password=admin\nansible_command_timeout=120\nansible_connect_timeout=120\n"
        ),
    )
    .unwrap();
    let first = play(&venv, &dir, "os10.yml");
    let failed: Vec<String> = first
        .iter()
        .filter(|t| t.failed)
        .map(|t| format!("{}: {}", t.name, t.msg))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // Every subset read, the facts the switch's: its release, model and name, its ports with
    // their state, description and MTU (1/1/1 to a host, 1/1/20 shut and unused), its VLT
    // peer as its LLDP neighbor on the VLTi (the port ID as OS10 sends it, base64).
    let facts = &first[0].result["ansible_facts"];
    let subsets = facts["ansible_net_gather_subset"].as_array().unwrap();
    assert_eq!(subsets.len(), 4, "{facts:#}");
    assert_eq!(facts["ansible_net_version"], "10.5.3.2");
    assert_eq!(facts["ansible_net_model"], "S5248F-ON");
    assert_eq!(facts["ansible_net_hostname"], "leaf-a");
    assert_eq!(facts["ansible_net_cpu_arch"], "x86_64");
    assert!(
        facts["ansible_net_memtotal_mb"].as_u64().unwrap() > 0,
        "{facts:#}"
    );
    assert!(
        facts["ansible_net_config"]
            .as_str()
            .unwrap()
            .contains("\nhostname leaf-a\n")
    );
    let ports = facts["ansible_net_interfaces"].as_object().unwrap();
    let eth: Vec<&String> = ports.keys().filter(|k| k.starts_with("ethernet")).collect();
    assert_eq!(eth.len(), 56, "an S5248F-ON's ports: {eth:?}");
    for name in ["mgmt1/1/1", "vlan100", "port-channel1", "null0"] {
        assert!(ports.contains_key(name), "{name}: {:?}", ports.keys());
    }
    let p1 = &ports["ethernet1/1/1"];
    assert_eq!(p1["operstatus"], "up");
    assert_eq!(p1["description"], "gpu-01:vmnic0");
    assert_eq!(p1["mtu"], "9216");
    assert_eq!(p1["bandwidth"], "25000000000");
    assert_eq!(ports["ethernet1/1/20"]["adminstatus"], "down");
    let neighbors = &facts["ansible_net_neighbors"];
    assert_eq!(
        neighbors,
        &serde_json::json!({
            "ethernet1/1/49": [{"host": "leaf-b", "port": "ZXRoZXJuZXQxLzEvNDk="}],
            "ethernet1/1/50": [{"host": "leaf-b", "port": "ZXRoZXJuZXQxLzEvNTA="}],
        })
    );
    let changed: Vec<&str> = first
        .iter()
        .filter(|t| t.changed)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        changed,
        ["port description", "vlan description"],
        "{first:#?}"
    );
    // The same play again: nothing left to change.
    let second = play(&venv, &dir, "os10.yml");
    let again: Vec<_> = second.iter().filter(|t| t.failed || t.changed).collect();
    assert!(again.is_empty(), "{again:#?}");
    // What the modules changed is all the switch differs by from the fabric.
    assert_drift(
        &dir,
        &[
            ("interface vlan100", "description rdma-a"),
            ("interface ethernet1/1/20", "no description"),
        ],
    );
}

#[test]
fn napalm_dellos10_reads_the_pushed_switch_and_merges_a_candidate_once() {
    let venv = venv();
    let (dir, _lab, _) = pushed("clients-os10-napalm");
    let first = session(&venv, "napalm_os10.py", &dir.join(".fabric/lab"), "leaf-a");
    let getters = first["getters"].as_object().unwrap();
    let ok = |name: &str| -> &serde_json::Value {
        let g = &getters[name];
        assert!(g.get("ok").is_some(), "{name}: {g}");
        &g["ok"]
    };
    let facts = ok("get_facts");
    assert_eq!(facts["hostname"], "leaf-a");
    assert_eq!(facts["os_version"], "10.5.3.2");
    assert_eq!(facts["model"], "S5248F-ON");
    let list = facts["interface_list"].as_array().unwrap();
    for name in [
        "ethernet1/1/1",
        "ethernet1/1/56",
        "mgmt1/1/1",
        "vlan10",
        "port-channel8",
    ] {
        assert!(list.iter().any(|i| i == name), "{name}: {list:?}");
    }
    let interfaces = ok("get_interfaces");
    assert_eq!(interfaces["ethernet1/1/9"]["description"], "gpu-01:vmnic2");
    assert_eq!(interfaces["ethernet1/1/9"]["is_up"], true);
    assert_eq!(interfaces["ethernet1/1/20"]["is_enabled"], false);
    assert_eq!(
        ok("get_lldp_neighbors"),
        &serde_json::json!({
            "ethernet1/1/49": [{"hostname": "leaf-b", "port": "ethernet1/1/49"}],
            "ethernet1/1/50": [{"hostname": "leaf-b", "port": "ethernet1/1/50"}],
        })
    );
    let detail = &ok("get_lldp_neighbors_detail")["ethernet1/1/49"][0];
    assert_eq!(detail["remote_system_description"], "OS10");
    assert_eq!(
        ok("get_interfaces_counters")["ethernet1/1/1"]["rx_octets"],
        0
    );
    assert_eq!(ok("get_interfaces_ip"), &serde_json::json!({}));
    assert!(
        ok("get_config")["running"]
            .as_str()
            .unwrap()
            .contains("\nhostname leaf-a\n")
    );
    assert_eq!(
        ok("get_snmp_information")["community"],
        serde_json::json!({})
    );
    assert_eq!(ok("is_alive")["is_alive"], true);
    // The getters whose documents no capture shows (a MAC table, routes, BGP, the image): the
    // lab refuses the XML, the driver raises its error.
    let failed: Vec<&str> = getters
        .iter()
        .filter(|(_, g)| g.get("ok").is_none())
        .map(|(n, g)| {
            let e = g["error"].as_str().unwrap();
            assert!(
                e.contains("% Error: display-xml is not available"),
                "{n}: {e}"
            );
            n.as_str()
        })
        .collect();
    assert_eq!(
        failed,
        [
            "get_mac_address_table",
            "get_route_to",
            "get_bgp_config",
            "get_bgp_neighbors",
            "get_bgp_neighbors_detail",
            "get_image_status",
        ]
    );
    // The candidate went over SCP, differed, was committed and saved.
    let compare = first["compare"].as_str().unwrap();
    assert!(compare.contains("description napalm-merge"), "{compare}");
    assert_eq!(first["committed"], true);
    let home = first["home"].as_str().unwrap();
    assert!(
        home.starts_with("Directory contents for folder: home\n"),
        "{home}"
    );
    for file in ["merge_config.txt", "rollback_config.txt"] {
        assert!(home.contains(file), "{home}");
        assert!(dir.join(".fabric/lab/leaf-a/home").join(file).exists());
    }
    let startup =
        std::fs::read_to_string(dir.join(".fabric/lab/leaf-a/startup-configuration.cfg")).unwrap();
    assert!(startup.contains("interface ethernet1/1/22\n description napalm-merge\n"));
    // Again: the candidate is in already, so it is discarded (its file deleted).
    let second = session(&venv, "napalm_os10.py", &dir.join(".fabric/lab"), "leaf-a");
    assert_eq!(second["compare"], "");
    assert_eq!(second["committed"], false);
    assert!(
        !dir.join(".fabric/lab/leaf-a/home/merge_config.txt")
            .exists()
    );
    assert_drift(&dir, &[("interface ethernet1/1/22", "no description")]);
}

#[test]
fn scrapli_dell_emc_sends_commands_and_configures_the_pushed_switch() {
    let venv = venv();
    let (dir, _lab, _) = pushed("clients-os10-scrapli");
    let seen = session(&venv, "scrapli_os10.py", &dir.join(".fabric/lab"), "leaf-a");
    assert_eq!(seen["prompt"], "leaf-a#");
    let version = seen["version"].as_str().unwrap();
    assert!(version.contains("OS Version: 10.5.3.2"), "{version}");
    assert_eq!(seen["xml"]["sw-version"], "10.5.3.2", "{seen}");
    assert_eq!(seen["xml"]["sw-platform"], "S5248F-ON", "{seen}");
    assert_eq!(seen["configured_failed"], false);
    let running = seen["running"].as_str().unwrap();
    assert!(
        running.contains("\n description scrapli-port\n"),
        "{running}"
    );
    assert_eq!(seen["refused"], "% Error: Unrecognized command.");
    assert_drift(&dir, &[("interface ethernet1/1/21", "no description")]);
}
