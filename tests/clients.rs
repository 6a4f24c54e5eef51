//! Real third-party clients written for Onyx switches drive the lab over SSH, as they would a
//! switch, after a push of a shipped fabric: Netmiko's `mellanox_mlnxos` driver, and
//! Ansible's `mellanox.onyx` collection (bundled with the `ansible` 7.x package) through
//! `ansible.netcommon.network_cli`. They run
//! from the virtualenv `.ci/run` makes (`target/clients-venv`, from
//! `tests/fixtures/clients/requirements.txt`; `FABRIC_CLIENTS_VENV` names another).
//!
//! Each Ansible play runs against a lab switch after a push of a shipped fabric (the reference
//! guide's switch, a leaf of the routed leaf-spine, one switch of the MLAG pair), twice: every
//! module reads, the first run changes the switch, the second changes nothing, and `fabric
//! diff --prune` plans exactly the reverse of what the modules changed.
//!
//! Two bugs of the released collection (1.0.0) are worked around here, never in the lab:
//! - Its `onyx_config` action plugin imports `ansible.plugins.action.network`, which
//!   ansible-core 2.14 no longer has (it moved to the `ansible.netcommon` collection): the
//!   module fails to load against any switch, real or simulated. The tests give the
//!   virtualenv a one-line module of that name importing the netcommon one.
//! - It compares releases as strings (`BaseOnyxModule.ONYX_API_VERSION = "3.6.6000"` against
//!   `"3.10.4606"`: `"3.1…" < "3.6…"`), so from Onyx 3.10 its facts, VLAN, switchport, LAG,
//!   L3 and MAGP modules read the JSON as an old release prints it and fail. The tests run a
//!   copy of the collection whose `ONYX_API_VERSION` compares as numbers (a string subclass;
//!   Python tries a right-hand subclass's reflected comparison first, so both operand
//!   orders compare numerically); nothing else in the copy differs.

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

/// Where the virtualenv's Python finds package `name`.
fn package_dir(venv: &Path, name: &str) -> PathBuf {
    let out = Command::new(venv.join("bin/python"))
        .args(["-c", &format!("import {name} as m; print(m.__path__[0])")])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// The one-line import shim for `onyx_config` (see the module's comment), written once.
fn onyx_config_shim(venv: &Path) {
    let ansible = package_dir(venv, "ansible");
    let shim = ansible.join("plugins/action/network.py");
    if !shim.exists() {
        std::fs::write(
            &shim,
            "from ansible_collections.ansible.netcommon.plugins.action.network import ActionModule  # noqa: F401\n",
        )
        .unwrap();
    }
}

/// A lab of the shipped fabric `name`, pushed, in the scratch folder `scratch_name`.
fn pushed_lab(name: &str, scratch_name: &str) -> (crate::lab_ssh::Killed, PathBuf, PathBuf) {
    let state = scratch(scratch_name);
    let fabric = root().join("fabrics").join(name);
    let (lab, _) = start_lab_of(&fabric, &state, &[], &[]);
    let (code, out) = crate::network::push_lab(&fabric, &state, &["--allow-disruptive"]);
    assert_eq!(code, 0, "{out}");
    (lab, state, fabric)
}

/// Runs `tests/fixtures/clients/SCRIPT HOST PORT KNOWN_HOSTS` against `switch` of the lab in
/// `state` (the lab's password in the environment); what it printed, as JSON.
pub fn session(venv: &Path, script: &str, state: &Path, switch: &str) -> serde_json::Value {
    let a = &crate::lab_ssh::lab_inventory(state).switches[switch];
    let out = Command::new(venv.join("bin/python"))
        .arg(root().join("tests/fixtures/clients").join(script))
        .arg(&a.host)
        .arg(a.port.to_string())
        .arg(state.join("known_hosts"))
        .env("FABRIC_PASSWORD", "admin")
        .env("HOME", state)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{script}: {e}: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn netmiko_logs_in_configures_saves_and_reads_back() {
    let (_lab, state, fabric) = pushed_lab("rdg-roce-dscp.yaml", "clients-netmiko");
    let seen: BTreeMap<String, serde_json::Value> = serde_json::from_value(session(
        &venv(),
        "netmiko_session.py",
        &state,
        "swx-mld-1-2",
    ))
    .unwrap();
    let text = |k: &str| seen[k].as_str().unwrap_or_default().to_string();
    assert_eq!(text("prompt"), "swx-mld-1-2 [standalone: master] >");
    assert_eq!(seen["enabled"], serde_json::Value::Bool(true));
    assert!(
        text("version").contains("Product release:   3.6.8190"),
        "{}",
        text("version")
    );
    // The port's own lines, then the fabric's ranges that include it.
    assert_eq!(
        text("running"),
        "   interface ethernet 1/5 mtu 9216 force\n   interface ethernet 1/5 description netmiko-was-here\n   interface ethernet 1/1-1/32 qos trust L3\n   interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500\n   interface ethernet 1/1-1/32 traffic-class 6 dcb ets strict\n"
    );
    assert!(
        text("files").contains("Unsaved changes : no"),
        "{}",
        text("files")
    );
    // Saved on the switch: its boot file has the change.
    let saved = std::fs::read_to_string(state.join("swx-mld-1-2/saved/initial.cfg")).unwrap();
    assert!(saved.contains("description netmiko-was-here"), "{saved}");
    // The fabric's plan takes back exactly what the script changed.
    assert_eq!(
        prune_plan(&fabric, &state, "swx-mld-1-2"),
        [
            "interface ethernet 1/5 no mtu",
            "interface ethernet 1/5 no description"
        ]
    );
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

/// A copy of the `mellanox.onyx` collection under `dir/collections` whose release
/// comparison is numeric (the module's comment); the folder to give `ANSIBLE_COLLECTIONS_PATH`.
fn numeric_release_collection(venv: &Path, dir: &Path) -> PathBuf {
    let from = package_dir(venv, "ansible_collections.mellanox.onyx");
    let root = dir.join("collections");
    let to = root.join("ansible_collections/mellanox");
    std::fs::create_dir_all(&to).unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg(&from)
        .arg(&to)
        .status()
        .unwrap();
    assert!(status.success());
    let utils = to.join("onyx/plugins/module_utils/network/onyx/onyx.py");
    let text = std::fs::read_to_string(&utils).unwrap();
    let old = "    ONYX_API_VERSION = \"3.6.6000\"\n";
    assert!(
        text.contains(old),
        "the collection's release constant moved"
    );
    let numeric = "class _Release(str):\n    def _key(self, other):\n        return [int(x) for x in str(other).split('.') if x.isdigit()]\n\n    def __lt__(self, other):\n        return self._key(self) < self._key(other)\n\n    def __le__(self, other):\n        return self._key(self) <= self._key(other)\n\n    def __gt__(self, other):\n        return self._key(self) > self._key(other)\n\n    def __ge__(self, other):\n        return self._key(self) >= self._key(other)\n\n\nclass BaseOnyxModule(object):\n";
    let text = text
        .replace("class BaseOnyxModule(object):\n", numeric)
        .replace(old, "    ONYX_API_VERSION = _Release(\"3.6.6000\")\n");
    std::fs::write(&utils, text).unwrap();
    root
}

/// A lab of the shipped fabric `name` pushed, and an Ansible inventory in its state folder
/// for its switch `switch`.
fn ansible_lab(
    venv: &Path,
    name: &str,
    switch: &str,
    scratch_name: &str,
) -> (crate::lab_ssh::Killed, PathBuf, PathBuf) {
    onyx_config_shim(venv);
    let (lab, state, fabric) = pushed_lab(name, scratch_name);
    let state = state.as_path();
    let inv = crate::lab_ssh::lab_inventory(state);
    let a = &inv.switches[switch];
    // Host keys checked against the lab's own: paramiko reads ~/.ssh/known_hosts (HOME is
    // the scratch folder). network_cli's 30 s command timeout is raised: on a loaded 2-core
    // machine a module's `show` once came back as a failed command (None) mid-suite.
    std::fs::create_dir_all(state.join(".ssh")).unwrap();
    std::fs::copy(state.join("known_hosts"), state.join(".ssh/known_hosts")).unwrap();
    std::fs::write(
        state.join("inventory.ini"),
        format!(
            "[switches]\nsw ansible_host={} ansible_port={}\n\n[switches:vars]\nansible_connection=ansible.netcommon.network_cli\nansible_network_os=mellanox.onyx.onyx\nansible_user=admin\nansible_password=admin\nansible_become=yes\nansible_become_method=enable\nansible_command_timeout=120\nansible_connect_timeout=120\n",
            a.host, a.port
        ),
    )
    .unwrap();
    numeric_release_collection(venv, state);
    (lab, state.to_path_buf(), fabric)
}

/// One `ansible-playbook` run of `tests/fixtures/clients/PLAYBOOK` with the JSON callback, in
/// `dir` (its `inventory.ini`, one host `sw`; its `collections/` first, when it has one); a
/// task that failed fails the test.
pub fn play(venv: &Path, dir: &Path, playbook: &str) -> Vec<Task> {
    let out = Command::new(venv.join("bin/ansible-playbook"))
        .current_dir(dir)
        .args(["-i", "inventory.ini"])
        .arg(root().join("tests/fixtures/clients").join(playbook))
        .env("HOME", dir)
        .env("ANSIBLE_COLLECTIONS_PATH", dir.join("collections"))
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
    let tasks: Vec<Task> = doc["plays"][0]["tasks"]
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
        .collect();
    let failed: Vec<String> = tasks
        .iter()
        .filter(|t| t.failed)
        .map(|t| format!("{}: {}", t.name, t.msg))
        .collect();
    assert!(failed.is_empty(), "{playbook}:\n{}", failed.join("\n"));
    tasks
}

/// Each task's name, whether it changed the switch, and the commands it sent (for a failed
/// assertion's message).
fn summary(tasks: &[Task]) -> Vec<(&str, bool, String)> {
    tasks
        .iter()
        .map(|t| (t.name.as_str(), t.changed, t.result["commands"].to_string()))
        .collect()
}

/// The names of the tasks that reported a change.
fn changed(tasks: &[Task]) -> Vec<&str> {
    tasks
        .iter()
        .filter(|t| t.changed)
        .map(|t| t.name.as_str())
        .collect()
}

/// `fabric diff FABRIC --prune --format commands` for one switch of the lab: the commands
/// that take it back to the fabric.
fn prune_plan(fabric: &Path, state: &Path, switch: &str) -> Vec<String> {
    let mut cmd = crate::lab_ssh::fabric_bin();
    cmd.current_dir(state)
        .arg("diff")
        .arg(fabric)
        .arg("--inventory")
        .arg(state.join("inventory.yaml"))
        .arg("--known-hosts")
        .arg(state.join("known_hosts"))
        .args(["--switch", switch, "--prune", "--format", "commands"])
        .env("FABRIC_PASSWORD", "admin")
        .env_remove("SSH_AUTH_SOCK");
    let (code, out) = crate::run(&mut cmd);
    assert!(code == 0 || code == 1, "{out}");
    out.lines().map(str::to_string).collect()
}

#[test]
fn ansible_onyx_modules_configure_the_lab_once() {
    let venv = venv();
    let (_lab, state, fabric) = ansible_lab(
        &venv,
        "rdg-roce-dscp.yaml",
        "swx-mld-1-2",
        "clients-ansible",
    );
    let first = play(&venv, &state, "onyx.yml");
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
    assert_eq!(
        changed(&first),
        [
            "config",
            "interface",
            "vlan",
            "pfc interface",
            "protocol",
            "lldp interface",
            "ntp",
            "snmp",
            "username",
            "ptp"
        ],
        "{:?}",
        summary(&first)
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
        "   interface ethernet 1/20 no lldp receive\n",
        "   ntp server 192.0.2.10 version 4\n",
        "   snmp-server contact noc\n",
        "   username ops capability monitor\n",
        "   ptp priority1 100\n",
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
    assert_eq!(changed(&second), ["config"], "{:?}", summary(&second));
    let again = running_now();
    let body = |t: &str| -> String {
        t.lines()
            .filter(|l| !l.starts_with("## Generated at"))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    assert_eq!(body(&again), body(&running));
    // The fabric's plan takes back every change the modules made to what it manages (the
    // descriptions, the MTU, PFC, the VLAN, IP routing: the reference guide's fabric has PFC
    // off and routes nothing); the management lines (LLDP per port, NTP, SNMP, users, PTP)
    // it does not manage are left.
    assert_eq!(
        prune_plan(&fabric, &state, "swx-mld-1-2"),
        [
            "interface ethernet 1/8 no mtu",
            "interface ethernet 1/7-1/8 no description",
            "interface ethernet 1/1 no dcb priority-flow-control mode force",
            "no dcb priority-flow-control enable force",
            "no vlan 30",
            "no ip routing vrf default"
        ]
    );
}

/// A play run twice against `switch` of a lab after a push of `fabric`: the first run
/// changes what `changes` names, the second nothing, and `fabric diff --prune` plans `plan`
/// for the switch. The first run's tasks.
fn twice(fabric: &str, switch: &str, playbook: &str, changes: &[&str], plan: &[&str]) -> Vec<Task> {
    let venv = venv();
    let name = format!("clients-{}", playbook.trim_end_matches(".yml"));
    let (_lab, state, fabric) = ansible_lab(&venv, fabric, switch, &name);
    let first = play(&venv, &state, playbook);
    assert_eq!(changed(&first), changes, "{:?}", summary(&first));
    let second = play(&venv, &state, playbook);
    assert!(changed(&second).is_empty(), "{:?}", summary(&second));
    assert_eq!(prune_plan(&fabric, &state, switch), plan);
    first
}

#[test]
fn ansible_onyx_bgp_on_a_pushed_leaf() {
    // The plan takes back the neighbor and the network the module added, nothing else.
    let first = twice(
        "ml-cluster.yaml",
        "leaf01",
        "onyx-bgp.yml",
        &["bgp"],
        &[
            "router bgp 65101 vrf default no neighbor 192.0.2.1",
            "router bgp 65101 vrf default no network 198.51.100.0 /24",
        ],
    );
    let facts = &first[0].result["ansible_facts"];
    assert_eq!(facts["ansible_net_version"]["Product release"], "3.10.4606");
}

#[test]
fn ansible_onyx_mlag_modules_on_a_pushed_pair() {
    // The plan takes back each change, in the order the fabric's plans run: the member
    // leaves the new bundle, the VLAN interface loses its address, the trunk gets its VLAN
    // back, then the bundle, the VLAN interface and the VLAN go (MAGP's lines, which the
    // fabric does not manage, are left).
    twice(
        "vsphere-mlag.yaml",
        "tor-a",
        "onyx-mlag.yml",
        &[
            "protocol",
            "vlan",
            "linkagg",
            "l2 access",
            "l2 trunk",
            "l3",
            "magp",
        ],
        &[
            "interface ethernet 1/17 no mlag-channel-group",
            "interface vlan 30 no ip address",
            "interface mlag-port-channel 1 switchport trunk allowed-vlan add 20",
            "no interface mlag-port-channel 9",
            "no interface vlan 30",
            "no vlan 30",
        ],
    );
}

/// NAPALM's community Onyx driver (napalm-onyx 0.2.1, which is not on PyPI: loaded from
/// `tests/fixtures/clients/napalm-onyx/`, its bugs worked around in the session script, each
/// named there) against a leaf of the pushed leaf-spine: every getter it has reads the
/// switch, and a merge candidate shows in its diff, is applied, and shows no more; `fabric
/// diff --prune` then plans exactly its reverse.
#[test]
fn napalm_onyx_reads_and_merges_on_a_pushed_leaf() {
    let (_lab, state, fabric) = pushed_lab("ml-cluster.yaml", "clients-napalm-onyx");
    let seen = session(&venv(), "napalm_onyx_session.py", &state, "leaf01");
    let facts = &seen["get_facts"];
    assert_eq!(facts["hostname"], "leaf01");
    assert_eq!(facts["os_version"], "3.10.4606");
    // The driver returns `show interfaces | json-print` as it came: the ports, parsed.
    let ports: serde_json::Value =
        serde_json::from_str(seen["get_interfaces"].as_str().unwrap()).unwrap();
    assert!(
        ports[0]["Eth1/1/1"][0]["Mac address"].is_string(),
        "{ports:#}"
    );
    // Four uplinks to each spine, as cabled; the spines' addresses on them resolved.
    let lldp = seen["get_lldp_neighbors"].as_object().unwrap();
    assert_eq!(lldp.len(), 8, "{lldp:#?}");
    assert_eq!(lldp["Eth1/25"][0]["hostname"], "spine01");
    let arp = seen["get_arp_table"].as_array().unwrap();
    assert_eq!(arp.len(), 8, "{arp:#?}");
    assert_eq!(arp[0]["ip"], "10.254.0.192");
    assert_eq!(arp[0]["interface"], "Eth1/25");
    assert!(
        seen["get_config"]["running"]
            .as_str()
            .unwrap()
            .contains("## Hostname: leaf01\n")
    );
    assert_eq!(
        seen["diff"],
        "   interface ethernet 1/9 description \"napalm-was-here\""
    );
    assert_eq!(seen["commit"], "not implemented");
    assert_eq!(seen["diff_again"], "");
    assert_eq!(
        prune_plan(&fabric, &state, "leaf01"),
        ["interface ethernet 1/9 no description"]
    );
}
