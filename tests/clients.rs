//! Real third-party clients written for Onyx switches drive the lab over SSH, as they would a
//! switch: Netmiko's `mellanox_mlnxos` driver, and Ansible's `mellanox.onyx` collection
//! (bundled with the `ansible` 7.x package) through `ansible.netcommon.network_cli`. They run
//! from the virtualenv `.ci/run` makes (`target/clients-venv`, from
//! `tests/fixtures/clients/requirements.txt`; `FABRIC_CLIENTS_VENV` names another).
//!
//! Ansible's `onyx_config` action plugin in collection 1.0.0 imports
//! `ansible.plugins.action.network`, which ansible-core 2.14 no longer has (it moved to the
//! `ansible.netcommon` collection): the module fails to load against any switch, real or
//! simulated. The tests give the virtualenv a one-line module of that name importing the
//! netcommon one, so `onyx_config` can be tested at all; it changes nothing else.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::lab_ssh::start_lab_of;
use crate::network::shells;
use crate::{root, scratch};

/// The clients' virtualenv.
pub fn venv() -> PathBuf {
    let dir = std::env::var_os("FABRIC_CLIENTS_VENV")
        .map_or_else(|| root().join("target/clients-venv"), PathBuf::from);
    assert!(
        dir.join("bin/python").exists(),
        "the clients' virtualenv is needed at {} (.ci/run makes it: python3 -m venv target/clients-venv && target/clients-venv/bin/pip install -r tests/fixtures/clients/requirements.txt)",
        dir.display()
    );
    dir
}

/// The one-line import shim for `onyx_config` (see the module's comment), written once.
fn onyx_config_shim(venv: &Path) {
    let out = Command::new(venv.join("bin/python"))
        .args([
            "-c",
            "import ansible, os; print(os.path.dirname(ansible.__file__))",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ansible = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    let shim = ansible.join("plugins/action/network.py");
    if !shim.exists() {
        std::fs::write(
            &shim,
            "from ansible_collections.ansible.netcommon.plugins.action.network import ActionModule  # noqa: F401\n",
        )
        .unwrap();
    }
}

/// The lab's address of its one switch (the reference guide's fabric).
fn address(state: &Path) -> (String, u16) {
    let inv = crate::lab_ssh::lab_inventory(state);
    let a = inv.switches.values().next().unwrap();
    (a.host.clone(), a.port)
}

#[test]
fn netmiko_logs_in_configures_saves_and_reads_back() {
    let venv = venv();
    let state = scratch("clients-netmiko");
    let fabric = root().join("fabrics/rdg-roce-dscp.yaml");
    let (_lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    let (host, port) = address(&state);
    let out = Command::new(venv.join("bin/python"))
        .arg(root().join("tests/fixtures/clients/netmiko_session.py"))
        .arg(&host)
        .arg(port.to_string())
        .arg(state.join("known_hosts"))
        .env("FABRIC_PASSWORD", "admin")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen: BTreeMap<String, serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let text = |k: &str| seen[k].as_str().unwrap_or_default().to_string();
    assert_eq!(text("prompt"), "swx-mld-1-2 [standalone: master] >");
    assert_eq!(seen["enabled"], serde_json::Value::Bool(true));
    assert!(
        text("version").contains("Product release:   3.6.8190"),
        "{}",
        text("version")
    );
    assert_eq!(
        text("running"),
        "   interface ethernet 1/5 mtu 9216 force\n   interface ethernet 1/5 description netmiko-was-here\n"
    );
    assert!(
        text("files").contains("Unsaved changes : no"),
        "{}",
        text("files")
    );
    // Saved on the switch: its boot file has the change.
    let saved = std::fs::read_to_string(state.join("swx-mld-1-2/saved/initial.cfg")).unwrap();
    assert!(saved.contains("description netmiko-was-here"), "{saved}");
}

/// One task's outcome in a play.
#[derive(Debug)]
pub struct Task {
    pub name: String,
    pub changed: bool,
    pub failed: bool,
    /// The module's message and, on a failure, its error output.
    pub msg: String,
    /// Everything the module returned (facts included).
    pub result: serde_json::Value,
}

/// One `ansible-playbook` run of `tests/fixtures/clients/PLAYBOOK` with the JSON callback, in
/// `dir` (its `inventory.ini`, one host `sw`).
pub fn play(venv: &Path, dir: &Path, playbook: &str) -> Vec<Task> {
    let out = Command::new(venv.join("bin/ansible-playbook"))
        .current_dir(dir)
        .args(["-i", "inventory.ini"])
        .arg(root().join("tests/fixtures/clients").join(playbook))
        .env("HOME", dir)
        .env("ANSIBLE_STDOUT_CALLBACK", "json")
        .env("ANSIBLE_LOCAL_TEMP", dir.join("tmp"))
        .env("ANSIBLE_NOCOLOR", "1")
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    doc["plays"][0]["tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let r = &t["hosts"]["sw"];
            let mut msg = r["msg"].as_str().unwrap_or_default().to_string();
            if let Some(e) = r["module_stderr"].as_str() {
                msg.push_str(e);
            }
            Task {
                name: t["task"]["name"].as_str().unwrap_or_default().to_string(),
                changed: r["changed"].as_bool().unwrap_or(false),
                failed: r["failed"].as_bool().unwrap_or(false),
                msg,
                result: r.clone(),
            }
        })
        .collect()
}

#[test]
fn ansible_onyx_modules_configure_the_lab_once() {
    let venv = venv();
    onyx_config_shim(&venv);
    let state = scratch("clients-ansible");
    let fabric = root().join("fabrics/rdg-roce-dscp.yaml");
    let (_lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    let (host, port) = address(&state);
    // Host keys checked against the lab's own: paramiko reads ~/.ssh/known_hosts (HOME is
    // the scratch folder). network_cli's 30 s command timeout is raised: on a loaded 2-core
    // machine a module's `show` once came back as a failed command (None) mid-suite.
    std::fs::create_dir_all(state.join(".ssh")).unwrap();
    std::fs::copy(state.join("known_hosts"), state.join(".ssh/known_hosts")).unwrap();
    std::fs::write(
        state.join("inventory.ini"),
        format!(
            "[switches]\nsw ansible_host={host} ansible_port={port}\n\n[switches:vars]\nansible_connection=ansible.netcommon.network_cli\nansible_network_os=mellanox.onyx.onyx\nansible_user=admin\nansible_password=admin\nansible_become=yes\nansible_become_method=enable\nansible_command_timeout=120\nansible_connect_timeout=120\n"
        ),
    )
    .unwrap();
    let first = play(&venv, &state, "onyx.yml");
    let failed: Vec<String> = first
        .iter()
        .filter(|t| t.failed)
        .map(|t| format!("{}: {}", t.name, t.msg))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // The facts are the switch's: its release, its model's ports with their state (1/1 is
    // cabled to a host, 1/20 to nothing), the module `show module` lists.
    let facts = &first[0].result["ansible_facts"];
    assert_eq!(facts["ansible_net_version"]["Product release"], "3.6.8190");
    let ports = facts["ansible_net_interfaces"].as_object().unwrap();
    assert_eq!(ports.len(), 32, "an SN2700's ports");
    assert_eq!(ports["Eth1/1"]["Operational State"], "Up");
    assert_eq!(ports["Eth1/20"]["Operational State"], "Down");
    assert_eq!(ports["Eth1/1"]["Actual Speed"], "100 Gbps");
    assert!(facts["ansible_net_modules"].is_object(), "{facts:#}");
    let changed: Vec<&str> = first
        .iter()
        .filter(|t| t.changed)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(
        changed,
        [
            "config",
            "interface",
            "vlan",
            "pfc interface",
            "traffic class",
            "buffer pool",
            "qos"
        ],
        "{first:#?}"
    );
    // What the modules configured is on the switch (read in a session of its own, closed
    // before the next play).
    let running_now = || -> String {
        let mut shells = shells(&state);
        let sh = shells.values_mut().next().unwrap();
        sh.send("show running-config").unwrap()
    };
    let running = running_now();
    for line in [
        "   interface ethernet 1/7 description ansible-config\n",
        "   interface ethernet 1/8 description ansible-interface\n",
        "   vlan 30 name ansible-vlan\n",
        "   interface ethernet 1/1 dcb priority-flow-control mode on force\n",
        "   dcb priority-flow-control enable force\n",
        "   interface ethernet 1/10 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500\n",
        "   interface ethernet 1/11 qos trust L3\n",
    ] {
        assert!(running.contains(line), "{line:?} in\n{running}");
    }
    // The same play again: nothing left to change, and the switch is as the first run left
    // it. `onyx_config` alone reports a change every time, against a real switch as against
    // the lab: it reads the running config with the netcommon `NetworkConfig` parser, which
    // nests Onyx's three-space-indented lines under the column-0 line before them (`no cli
    // default prefix-modes enable`), so a top-level `lines` entry never matches one (it
    // resends the same lines, which change nothing).
    let second = play(&venv, &state, "onyx.yml");
    let changed: Vec<_> = second
        .iter()
        .filter(|t| t.failed || (t.changed && t.name != "config"))
        .collect();
    assert!(changed.is_empty(), "{changed:#?}");
    assert!(second.iter().any(|t| t.name == "config" && t.changed));
    let again = running_now();
    let body = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.starts_with("## Generated at"))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert_eq!(body(&again), body(&running));
}
