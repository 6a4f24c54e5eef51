//! OS10 in the lab and in the SSH session, over real SSH on loopback: a lab switch started as
//! OS10 answers OS10's prompts and modes to the OpenSSH client in a pseudo-terminal; the
//! project's ssh2 session, speaking the OS10 dialect, reads `show running-configuration`
//! into the OS10 model, applies and saves a block, reports a refused line with the switch's
//! reply, and discards a transaction that failed midway; `fabric lab` of a fabric mixing
//! both OSes serves each switch in its own OS; an interface's PFC (`show interface NAME
//! priority-flow-control`) follows the running configuration.

use std::path::Path;
use std::sync::Arc;

use fabric::device::{Cli, Error, Options, Secret, Target};
use fabric::lab::{Device, Lab, Logins, Switch};
use fabric::os10::dialect;
use fabric::os10::lab::Os10Switch;
use fabric::os10::{self, Eth, Iface};

/// One factory-default OS10 switch named `host`, served in-process, its state in `dir/host`;
/// the key pair in `dir`, if any, may log in besides admin/admin.
fn lab(dir: &Path, host: &str) -> (Lab, Arc<Device>) {
    let sw_dir = dir.join(host);
    let device = Arc::new(
        Device::open(
            &sw_dir,
            Switch::of(Box::new(Os10Switch::factory(host, None))),
            false,
            false,
        )
        .unwrap(),
    );
    let mut logins = Logins::factory();
    if dir.join("id.pub").exists() {
        logins.add_keys(&dir.join("id.pub")).unwrap();
    }
    let lab = crate::serve_one(device.clone(), &sw_dir, logins);
    let line = lab.switches[0].known_hosts_line(host) + "\n";
    std::fs::write(dir.join("known_hosts"), line).unwrap();
    (lab, device)
}

/// A session of the project's ssh2 client to the lab's switch, in the OS10 dialect.
fn session(dir: &Path, lab: &Lab, host: &str) -> Cli {
    let target = Target::new(host, "127.0.0.1", lab.switches[0].addr.port(), "admin");
    let mut opts = Options::new(dir.join("known_hosts"));
    opts.password = Some(Secret("admin".into()));
    Cli::open_as(&target, &opts, &dialect::DIALECT).unwrap()
}

/// The AzureStack TOR (S5248F-ON) running its captured configuration (10.5.3.2), served
/// in-process, its state in `dir`, and a session of the project's ssh2 client to it.
fn tor(dir: &Path) -> (Lab, Arc<Device>, Cli) {
    let text = std::fs::read_to_string(
        crate::shared()
            .join("corpus/os10/azurestack-rack2-Rack01-TOR-1.running-configuration.10.5.3.2.txt"),
    )
    .unwrap();
    let config = os10::parse(&text).unwrap();
    let model = os10::models::Model::named("S5248F-ON").unwrap();
    let host = config.hostname.clone().unwrap();
    let sw_dir = dir.join(&host);
    let device = Arc::new(
        Device::open(
            &sw_dir,
            Switch::of(Box::new(Os10Switch::with_config(config, model))),
            false,
            false,
        )
        .unwrap(),
    );
    let lab = crate::serve_one(device.clone(), &sw_dir, Logins::factory());
    let line = lab.switches[0].known_hosts_line(&host) + "\n";
    std::fs::write(dir.join("known_hosts"), line).unwrap();
    let cli = session(dir, &lab, &host);
    (lab, device, cli)
}

fn lines(ls: &[&str]) -> Vec<String> {
    ls.iter().map(|l| l.to_string()).collect()
}

fn running(dev: &Device) -> os10::Config {
    dev.snapshot()
        .own::<Os10Switch>()
        .expect("an OS10 switch")
        .running
        .clone()
}

#[test]
fn openssh_client_sees_os10_prompts_and_modes() {
    let dir = crate::scratch("os10-openssh");
    let key = crate::lab_ssh::keypair(&dir);
    let (lab, dev) = lab(&dir, "OS10");
    assert_eq!(dev.snapshot().os().word(), "os10");
    let mut p = crate::lab_ssh::openssh_key(&dir, lab.switches[0].addr.port(), &key);
    p.exp_string("Dell EMC  Network Operating System (OS10)")
        .unwrap();
    p.exp_string("OS10# ").unwrap();
    let steps = [
        ("configure terminal", "OS10(config)# "),
        ("interface ethernet1/1/1", "OS10(conf-if-eth1/1/1)# "),
        ("mtu 9216", "OS10(conf-if-eth1/1/1)# "),
        ("interface port-channel 10", "OS10(conf-if-po-10)# "),
        ("router bgp 65001", "OS10(config-router-bgp-65001)# "),
        ("policy-map type queuing q", "OS10(config-pmap-queuing)# "),
        ("port-group 1/1/5", "OS10(conf-pg-1/1/5)# "),
        ("mode Eth 10g-4x", "OS10(conf-pg-1/1/5)# "),
        ("exit", "OS10(config)# "),
        ("frobnicate", "% Error: Unrecognized command."),
        ("interface ethernet1/1/1", "OS10(conf-if-eth1/1/1)# "),
        ("mtu 99999", "% Error: Illegal parameter."),
        ("end", "OS10# "),
        ("show version", "OS Version: 10.5.3.2"),
        (
            "show running-configuration interface ethernet1/1/1",
            " mtu 9216",
        ),
    ];
    // Then paging, key by key: a page and the pager's prompt, `q` back to the prompt.
    let keys = [
        ("terminal length 10", "OS10# "),
        ("show running-configuration", "--more--"),
    ];
    let typed = steps
        .iter()
        .chain(&keys)
        .map(|(l, w)| (format!("{l}\r"), *w));
    for (keys, want) in typed.chain([("q".to_string(), "OS10# ")]) {
        p.send(&keys).unwrap();
        p.flush().unwrap();
        p.exp_string(want)
            .unwrap_or_else(|e| panic!("{keys:?}: {e}"));
    }
    p.send_line("exit").unwrap();
    p.exp_eof().unwrap();
    let i = Iface::Ethernet(Eth::new(1));
    assert_eq!(running(&dev).interfaces[&i].mtu, Some(9216));
    assert_eq!(
        running(&dev).bgp.map(|b| b.asn),
        Some(65001),
        "router bgp made"
    );
    // The factory S5248F-ON's groups ran their native modes; group 1/1/5 now runs 10g-4x.
    let groups = running(&dev).port_groups;
    assert_eq!(groups.len(), 18);
    assert_eq!(
        groups[&os10::PortGroupId::new(5)].mode.as_deref(),
        Some("10g-4x")
    );
    assert_eq!(
        groups[&os10::PortGroupId::new(6)].mode.as_deref(),
        Some("25g-4x")
    );
}

#[test]
fn ssh2_session_reads_the_running_configuration_into_the_model() {
    let dir = crate::scratch("os10-fetch");
    let (lab, dev) = lab(&dir, "leaf01");
    let mut cli = session(&dir, &lab, "leaf01");
    let (text, config) = dialect::fetch(&mut cli).unwrap();
    assert!(text.starts_with("! Version 10.5.3.2\n"), "{text}");
    assert_eq!(config, running(&dev));
    assert_eq!(config.hostname.as_deref(), Some("leaf01"));
    let shown = cli
        .run("show running-configuration interface ethernet1/1/2")
        .unwrap();
    assert_eq!(
        shown,
        "!\ninterface ethernet1/1/2\n no shutdown\n switchport access vlan 1\n flowcontrol receive on"
    );
    // `show interface status` as captured (CSM `sw-10g01`): the header, and an unlinked
    // access port's row, byte for byte.
    let captured = std::fs::read_to_string(
        crate::shared().join("corpus/os10/cray-sw-10g01.show-interface-status.txt"),
    )
    .unwrap();
    let captured: Vec<&str> = captured.lines().skip(1).collect();
    let status = cli.run("show interface status").unwrap();
    let shown: Vec<&str> = status.lines().collect();
    assert_eq!(shown[..4], captured[..4]);
    let row = |ls: &[&str]| {
        ls.iter()
            .find(|l| l.starts_with("Eth 1/1/10 "))
            .map(|l| l.to_string())
    };
    assert_eq!(row(&shown), row(&captured));
    assert_eq!(shown.last(), captured.last());
    // `show version` as the AzureStack TOR (10.5.3.2, S5248F-ON) prints it, but its uptime.
    let session = std::fs::read_to_string(
        crate::shared().join("corpus/os10/azurestack-rack2-Rack01-TOR-1.session.10.5.3.2.txt"),
    )
    .unwrap();
    let captured: Vec<&str> = session
        .lines()
        .skip_while(|l| !l.ends_with("# show version"))
        .skip(1)
        .take_while(|l| !l.starts_with("Up Time:"))
        .collect();
    assert_eq!(captured.len(), 7, "the capture's show version");
    let version = cli.run("show version").unwrap();
    let shown: Vec<&str> = version.lines().collect();
    assert_eq!(shown[..captured.len()], captured[..]);
    assert!(shown[captured.len()].starts_with("Up Time: "), "{version}");
    cli.close();
}

#[test]
fn a_block_applied_and_saved_changes_the_saved_state() {
    let dir = crate::scratch("os10-apply");
    let (lab, dev) = lab(&dir, "leaf01");
    let mut cli = session(&dir, &lab, "leaf01");
    cli.apply(&lines(&[
        "dcbx enable",
        "class-map type network-qos q3",
        "match qos-group 3",
        "policy-map type network-qos pfc",
        "class q3",
        "pause",
        "pfc-cos 3",
        "interface ethernet1/1/3",
        "description \"gpu01 p1\"",
        "mtu 9216",
        "flowcontrol receive off",
        "priority-flow-control mode on",
        "service-policy input type network-qos pfc",
    ]))
    .unwrap();
    assert!(dev.snapshot().unsaved(), "applied, not yet saved");
    let saved = dir.join("leaf01").join("startup-configuration.cfg");
    let before = std::fs::read_to_string(&saved).unwrap();
    cli.save().unwrap();
    assert!(!dev.snapshot().unsaved());
    let after = std::fs::read_to_string(&saved).unwrap();
    assert_ne!(before, after);
    let config = os10::parse(&after).unwrap();
    let i = &config.interfaces[&Iface::Ethernet(Eth::new(3))];
    assert_eq!(i.mtu, Some(9216));
    assert_eq!(i.description.as_deref(), Some("gpu01 p1"));
    assert_eq!(i.policy_in.as_deref(), Some("pfc"));
    assert!(config.dcbx && i.pfc);
    assert_eq!(config, running(&dev));
    // What the session reads back is what was saved.
    assert_eq!(dialect::fetch(&mut cli).unwrap().1, config);
    cli.close();
    drop(lab);
    // A restart boots from the saved configuration.
    let again = Device::open(
        &dir.join("leaf01"),
        Switch::of(Box::new(Os10Switch::factory("leaf01", None))),
        false,
        false,
    )
    .unwrap();
    assert_eq!(running(&again), config);
}

#[test]
fn an_invalid_command_is_the_switchs_refusal_with_its_line() {
    let dir = crate::scratch("os10-refused");
    let (lab, dev) = lab(&dir, "leaf01");
    let before = running(&dev);
    let mut cli = session(&dir, &lab, "leaf01");
    let err = cli
        .apply(&lines(&["interface ethernet1/1/4", "mtu 99999"]))
        .unwrap_err();
    match &err {
        Error::Refused { command, reply } => {
            assert_eq!(command, "mtu 99999");
            assert_eq!(reply, "% Error: Illegal parameter.");
        }
        e => panic!("not a refusal: {e}"),
    }
    assert!(err.to_string().contains("`mtu 99999` refused"), "{err}");
    let err = cli.apply(&lines(&["frobnicate now"])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "`frobnicate now` refused: % Error: Unrecognized command."
    );
    // A line holding a line break is two commands: refused before anything is sent.
    let err = cli
        .apply(&lines(&["hostname x\ninterface ethernet1/1/9"]))
        .unwrap_err();
    assert!(err.to_string().contains("line break"), "{err}");
    assert_eq!(running(&dev), before, "nothing applied");
    cli.close();
}

#[test]
fn a_transaction_that_fails_midway_leaves_the_running_configuration_untouched() {
    let dir = crate::scratch("os10-transaction");
    let (lab, dev) = lab(&dir, "leaf01");
    let before = running(&dev);
    let mut cli = session(&dir, &lab, "leaf01");
    cli.begin().unwrap();
    let err = cli
        .apply(&lines(&[
            "interface ethernet1/1/5",
            "mtu 9216",
            "description held",
            "vlt-domain 999",
        ]))
        .unwrap_err();
    assert!(
        matches!(&err, Error::Refused { command, .. } if command == "vlt-domain 999"),
        "{err}"
    );
    assert_eq!(running(&dev), before, "held, not applied");
    cli.discard().unwrap();
    assert_eq!(running(&dev), before);
    assert_eq!(dialect::fetch(&mut cli).unwrap().1, before);
    // Without a transaction there is nothing to discard.
    let err = cli.discard().unwrap_err();
    assert!(err.to_string().contains("% Error"), "{err}");
    // A transaction that goes through applies at `commit`, whole.
    cli.begin().unwrap();
    cli.apply(&lines(&["interface ethernet1/1/5", "mtu 9216"]))
        .unwrap();
    assert_eq!(running(&dev), before, "held until commit");
    cli.commit().unwrap();
    let i = Iface::Ethernet(Eth::new(5));
    assert_eq!(running(&dev).interfaces[&i].mtu, Some(9216));
    cli.close();
}

/// `fabric lab` of a fabric mixing Onyx and OS10 serves each switch in its own OS: the OS10
/// leaf, started from a backup (`--from`), answers the OpenSSH client as OS10 of the
/// fabric's release, and the live `fabric diff` finds it at its intended configuration while
/// the factory-default Onyx spine drifts.
#[test]
fn fabric_lab_serves_os10_switches_to_openssh_from_a_backup() {
    let dir = crate::scratch("os10-fabric-lab");
    let key = crate::lab_ssh::keypair(&dir);
    let fabric = crate::shared().join("os10/lab/mixed.yaml");
    let mut sources = fabric::diag::Sources::default();
    let fab = fabric::fabric::read(&fabric, &mut sources)
        .unwrap()
        .0
        .unwrap();
    let leaf = fab
        .switches
        .values()
        .find(|s| s.hostname.as_str() == "leaf01")
        .unwrap();
    let intended = fabric::os10::compile::compile_switch(leaf);
    let backups = dir.join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    let text = os10::Renderer::embedded()
        .unwrap()
        .render(&intended)
        .unwrap();
    std::fs::write(backups.join("leaf01.cfg"), &text).unwrap();
    let state = dir.join("lab");
    let public = key.with_extension("pub");
    let (_lab, table) = crate::lab_ssh::start_lab_of(
        &fabric,
        &state,
        &[
            "--from".as_ref(),
            backups.as_os_str(),
            "--authorized-keys".as_ref(),
            public.as_os_str(),
        ],
        &[],
    );
    assert!(
        table.contains("leaf01") && table.contains("spine01"),
        "{table}"
    );
    let inventory = crate::lab_ssh::lab_inventory(&state);
    let port = inventory.switches["leaf01"].port;
    let mut p = crate::lab_ssh::openssh_key(&state, port, &key);
    p.exp_string("Dell EMC  Network Operating System (OS10)")
        .unwrap();
    for (line, want) in [
        ("show version", "OS Version: 10.5.3.2"),
        (
            "show running-configuration interface ethernet1/1/1",
            " service-policy input type network-qos ROCE_PFC",
        ),
        ("configure terminal", "leaf01(config)# "),
        ("end", "leaf01# "),
    ] {
        p.send_line(line).unwrap();
        p.exp_string(want).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    p.send_line("exit").unwrap();
    p.exp_eof().unwrap();
    let (code, out) = crate::run(
        crate::lab_ssh::fabric_bin()
            .arg("diff")
            .arg(&fabric)
            .arg("--inventory")
            .arg(state.join("inventory.yaml"))
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("leaf01: no drift"), "{out}");
    assert!(out.contains("spine01: "), "{out}");
    assert!(out.contains("traffic pool roce type lossless"), "{out}");
}

/// `show users` lists every session logged in, in the OS10 guide's columns; `copy
/// running-configuration config://NAME` makes a file `dir config` lists (kept in the state
/// folder, there again after a restart); `delete config://NAME` asks first and deletes once
/// answered `yes`; a file that is not there is refused.
#[test]
fn sessions_and_configuration_files() {
    let dir = crate::scratch("os10-files");
    let (lab, dev) = lab(&dir, "leaf01");
    let mut one = session(&dir, &lab, "leaf01");
    let two = session(&dir, &lab, "leaf01");
    let users = one.sessions().unwrap();
    assert_eq!(users.len(), 2, "{users:?}");
    assert!(
        users
            .iter()
            .all(|u| u.user == "admin" && u.host == "127.0.0.1[ssh]" && !u.me),
        "{users:?}"
    );
    two.close();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while one.sessions().unwrap().len() != 1 {
        assert!(
            std::time::Instant::now() < deadline,
            "the ended session is still listed"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }

    let out = one
        .run("copy running-configuration config://fabric-20261122T042233Z.xml")
        .unwrap();
    assert_eq!(out.trim(), "Copy completed");
    one.run("copy config://fabric-20261122T042233Z.xml config://mine.xml")
        .unwrap();
    let mut files = one.snapshot_files().unwrap();
    files.sort();
    assert_eq!(files, ["fabric-20261122T042233Z.xml", "mine.xml"]);
    let listed = one.run("dir config").unwrap();
    assert!(listed.contains("startup.xml"), "{listed}");
    let folder = dir.join("leaf01/config");
    assert!(folder.join("mine.xml").exists());
    let saved = os10::parse(&std::fs::read_to_string(folder.join("mine.xml")).unwrap()).unwrap();
    assert_eq!(saved, running(&dev));

    match one.run("delete config://nothing.xml") {
        Err(Error::Refused { reply, .. }) => assert_eq!(reply, "% Error: File not found."),
        other => panic!("{other:?}"),
    }
    // The question is answered (what follows it is the answer's echo).
    let out = one.run_confirmed("delete config://mine.xml").unwrap();
    assert_eq!(out.trim(), "yes");
    assert_eq!(
        one.snapshot_files().unwrap(),
        ["fabric-20261122T042233Z.xml"]
    );
    assert!(!folder.join("mine.xml").exists());
    one.close();
    drop(lab);

    // Restarted from its state folder, the switch has its file again.
    let again = Device::open(
        &dir.join("leaf01"),
        Switch::of(Box::new(Os10Switch::factory("leaf01", None))),
        false,
        false,
    )
    .unwrap();
    let files = again.snapshot().own::<Os10Switch>().unwrap().files.clone();
    assert_eq!(
        files.keys().collect::<Vec<_>>(),
        ["fabric-20261122T042233Z.xml"]
    );
}

/// The lab's S5248F-ON runs the AzureStack TOR's configuration (OS10 10.5.3.2): `show
/// port-group` prints the capture's table byte for byte, `show interface status` names the
/// ports of its `10g-4x` groups `ethernet1/1/17:1` as the capture's running configuration
/// does. A group's mode typed in the session (`port-group 1/1/15`, `mode Eth 25g-4x`) breaks
/// its port out: the port goes, its four subports appear at 25G; a mode the group does not
/// take is refused with the switch's reply and changes nothing.
#[test]
fn port_groups_show_as_captured_and_change_in_a_session() {
    let dir = crate::scratch("os10-port-groups");
    let session_file =
        crate::shared().join("corpus/os10/azurestack-rack2-Rack01-TOR-1.session.10.5.3.2.txt");
    let captured = std::fs::read_to_string(&session_file).unwrap();
    let (_lab, device, mut cli) = tor(&dir);

    let table: Vec<&str> = captured
        .lines()
        .skip_while(|l| !l.ends_with("# show port-group"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(table.len(), 19, "the capture's header and 18 groups");
    let shown = cli.run("show port-group").unwrap();
    assert_eq!(shown.lines().collect::<Vec<_>>(), table);

    let status = cli.run("show interface status").unwrap();
    assert!(status.contains("\nEth 1/1/17:1 "), "{status}");
    assert!(!status.contains("\nEth 1/1/17 "), "{status}");
    assert!(status.contains("\nEth 1/1/53 "), "{status}");

    cli.apply(&lines(&["port-group 1/1/15", "mode Eth 25g-4x"]))
        .unwrap();
    cli.leave_config().unwrap();
    let now = running(&device);
    assert_eq!(
        now.port_groups[&os10::PortGroupId::new(15)].mode.as_deref(),
        Some("25g-4x")
    );
    assert!(
        !now.interfaces.contains_key(&Iface::Ethernet(Eth::new(53))),
        "the port goes with its old mode"
    );
    let shown = cli.run("show port-group").unwrap();
    assert!(
        shown.contains("\nport-group1/1/15      Eth 25g-4x     53         -\n"),
        "{shown}"
    );
    let status = cli.run("show interface status").unwrap();
    for s in 1..=4 {
        assert!(status.contains(&format!("\nEth 1/1/53:{s} ")), "{status}");
    }
    cli.apply(&lines(&["interface ethernet1/1/53:2", "mtu 9216"]))
        .unwrap();
    assert_eq!(
        running(&device).interfaces[&Iface::Ethernet(Eth::sub(53, 2))].mtu,
        Some(9216)
    );

    let before = running(&device);
    let err = cli
        .apply(&lines(&["port-group 1/1/16", "mode Eth 100g-2x"]))
        .unwrap_err();
    match &err {
        Error::Refused { command, reply } => {
            assert_eq!(command, "mode Eth 100g-2x");
            assert_eq!(reply, "% Error: Illegal parameter.");
        }
        e => panic!("not a refusal: {e}"),
    }
    let err = cli.apply(&lines(&["port-group 1/1/19"])).unwrap_err();
    assert!(
        matches!(&err, Error::Refused { command, .. } if command == "port-group 1/1/19"),
        "{err}"
    );
    assert_eq!(running(&device), before, "nothing changed");
    cli.close();
}

/// `show interface NAME priority-flow-control` from the running configuration, over the
/// project's ssh2 session: on the AzureStack TOR's configuration (10.5.3.2) a RoCE port is
/// in PFC mode and pauses its network-qos policy's priority 3, not operational while its
/// link is down (the switch is cabled to nothing); a port left alone is not in PFC mode;
/// `no priority-flow-control mode on` takes a port out of it; a port-channel the switch does
/// not have is refused. Each reply reads with `fabric verify`'s OS10 reader.
#[test]
fn pfc_of_an_interface_follows_the_running_configuration() {
    use fabric::os10::verify::read::pfc_interface;
    use std::collections::BTreeSet;

    let dir = crate::scratch("os10-pfc");
    let (_lab, device, mut cli) = tor(&dir);
    let mut pfc = |name: &str| {
        let shown = cli
            .run(&format!("show interface {name} priority-flow-control"))
            .unwrap();
        pfc_interface(&shown, name).unwrap_or_else(|e| panic!("{e}: {shown}"))
    };
    let roce = pfc("ethernet1/1/1");
    assert_eq!(
        (roce.admin.as_deref(), roce.oper.as_str()),
        (Some("enabled"), "disabled"),
        "in PFC mode, its link down"
    );
    assert_eq!(roce.priorities, Some(BTreeSet::from([3])));
    let free = pfc("ethernet1/1/54");
    assert_eq!(free.admin.as_deref(), Some("disabled"));
    assert_eq!(free.priorities, Some(BTreeSet::new()));

    cli.apply(&lines(&[
        "interface ethernet1/1/1",
        "no priority-flow-control mode on",
    ]))
    .unwrap();
    cli.leave_config().unwrap();
    assert!(!running(&device).interfaces[&Iface::Ethernet(Eth::new(1))].pfc);
    let shown = cli
        .run("show interface ethernet 1/1/1 priority-flow-control")
        .unwrap();
    let off = pfc_interface(&shown, "ethernet1/1/1").unwrap();
    assert_eq!(off.admin.as_deref(), Some("disabled"));
    let err = cli
        .run("show interface port-channel77 priority-flow-control")
        .unwrap_err();
    assert!(
        matches!(&err, Error::Refused { reply, .. } if reply == "% Error: Interface has no configuration."),
        "{err}"
    );
    cli.close();
}

/// OS10's output modifiers: `| grep` prints the lines of the output that match (as the CSM
/// captures of `show running-configuration | grep snmp` print them), `| except` the others;
/// `| display-xml` is refused, not ignored.
#[test]
fn output_modifiers_filter_what_a_command_prints() {
    let dir = crate::scratch("os10-pipes");
    let (_lab, _device, mut cli) = tor(&dir);
    let all = cli.run("show running-configuration").unwrap();
    let want: Vec<&str> = all.lines().filter(|l| l.contains("snmp-server")).collect();
    assert!(!want.is_empty());
    let got = cli
        .run("show running-configuration | grep snmp-server")
        .unwrap();
    assert_eq!(got.lines().collect::<Vec<_>>(), want, "{got}");
    let rest = cli
        .run("show running-configuration | except snmp-server")
        .unwrap();
    assert_eq!(rest.lines().count() + want.len(), all.lines().count());
    // A document the lab has no captured shape for is refused, never guessed.
    assert!(cli.run("show running-configuration | display-xml").is_err());
    // A quoted pattern (os10_facts' `grep "Mem :"`) is the text between the quotes.
    let mem = cli
        .run("show processes node-id 1 | grep \"Mem :\"")
        .unwrap();
    assert!(mem.starts_with("KiB Mem : "), "{mem}");
    assert_eq!(mem.lines().count(), 1, "{mem}");
}

/// An XML document's elements: for each, its path from the root and its children's names in
/// order (several documents, as `show interface` prints them, one after another).
fn elements(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    // The open elements: their index in `out`.
    let mut open: Vec<usize> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').expect("a closed tag");
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') {
            continue;
        }
        if let Some(_closing) = tag.strip_prefix('/') {
            open.pop();
            continue;
        }
        let (name, empty) = match tag.strip_suffix('/') {
            Some(n) => (n, true),
            None => (tag, false),
        };
        let parent = open.last().map(|&i| out[i].0.clone()).unwrap_or_default();
        if let Some(&p) = open.last() {
            out[p].1.push(name.to_string());
        }
        out.push((format!("{parent}/{name}"), Vec::new()));
        if !empty {
            open.push(out.len() - 1);
        }
    }
    out
}

/// Checks a document of the lab against captured ones of the same command: every element is
/// at a path the captures have, and no two siblings come in an order the captures reverse.
fn assert_shape(ours: &str, captures: &[&str]) {
    use std::collections::{BTreeMap, BTreeSet};
    let mut paths = BTreeSet::new();
    let mut before: BTreeMap<String, BTreeSet<(String, String)>> = BTreeMap::new();
    for capture in captures {
        let text =
            std::fs::read_to_string(crate::shared().join("corpus/os10").join(capture)).unwrap();
        for (path, children) in elements(&text) {
            paths.insert(path.clone());
            let pairs = before.entry(path).or_default();
            for (i, a) in children.iter().enumerate() {
                for b in &children[i + 1..] {
                    if a != b {
                        pairs.insert((a.clone(), b.clone()));
                    }
                }
            }
        }
    }
    let mine = elements(ours);
    assert!(!mine.is_empty(), "{ours}");
    for (path, children) in mine {
        assert!(
            paths.contains(&path),
            "`{path}` is in no capture of {captures:?}"
        );
        let pairs = before.get(&path).cloned().unwrap_or_default();
        for (i, a) in children.iter().enumerate() {
            for b in &children[i + 1..] {
                assert!(
                    a == b || !pairs.contains(&(b.clone(), a.clone())),
                    "under `{path}`: `{a}` before `{b}`, the captures have them the other way"
                );
            }
        }
    }
}

/// `| display-xml`: the documents of `show version`, `show system`, `show inventory`, `show
/// interface` and `show lldp neighbors` have the captured shapes (the dellemc.os10 and
/// napalm-dellos10 fixtures in `tests/fixtures/corpus/os10/`) and the switch's own state:
/// the TOR's hostname, release and model, its ports' descriptions, MTUs and addresses.
#[test]
fn display_xml_documents_have_the_captured_shapes_and_the_switchs_state() {
    let dir = crate::scratch("os10-xml");
    let (_lab, _device, mut cli) = tor(&dir);
    let version = cli.run("show version | display-xml").unwrap();
    assert_shape(
        &version,
        &["dellemc-os10.show-version.display-xml.10.4.0E.xml"],
    );
    for want in [
        "<hostname>rack2-Rack01-TOR-1</hostname>",
        "<sw-version>10.5.3.2</sw-version>",
        "<sw-platform>S5248F-ON</sw-platform>",
    ] {
        assert!(version.contains(want), "{want} in {version}");
    }
    let system = cli.run("show system | display-xml").unwrap();
    assert_shape(
        &system,
        &["dellemc-os10.show-system.display-xml.10.4.0E.xml"],
    );
    assert!(
        system.contains("<port-info>48x25GbE, 8x100GbE</port-info>"),
        "{system}"
    );
    let inventory = cli.run("show inventory | display-xml").unwrap();
    assert_shape(
        &inventory,
        &["napalm-dellos10.show-inventory.display-xml.xml"],
    );
    let interfaces = cli.run("show interface | display-xml").unwrap();
    assert_shape(
        &interfaces,
        &[
            "dellemc-os10.show-interface.display-xml.10.4.0E.cut.xml",
            "napalm-dellos10.show-interface.display-xml.cut.xml",
        ],
    );
    let running = running(&_device);
    let (iface, conf) = running
        .interfaces
        .iter()
        .find(|(i, c)| matches!(i, Iface::Ethernet(_)) && c.description.is_some())
        .expect("a described port");
    let doc = interfaces
        .split("<?xml")
        .find(|d| d.contains(&format!("<name>{iface}</name>")))
        .unwrap();
    let description = conf.description.as_deref().unwrap();
    assert!(
        doc.contains(&format!("<description>{description}</description>")),
        "{doc}"
    );
    // Every addressed interface but the loopbacks (no capture of their document).
    let addressed = running
        .interfaces
        .iter()
        .filter(|(i, c)| !matches!(i, Iface::Loopback(_)) && c.address.is_some())
        .count();
    assert!(addressed > 0);
    assert_eq!(interfaces.matches("<primary-addr>").count(), addressed);
    let lldp = cli.run("show lldp neighbors | display-xml").unwrap();
    assert_shape(
        &lldp,
        &[
            "dellemc-os10.show-lldp-neighbors.display-xml.10.4.0E.xml",
            "napalm-dellos10.show-lldp-neighbors.display-xml.xml",
        ],
    );
}

/// `show ip interface brief` in the captured layout
/// (`tests/fixtures/corpus/os10/grantcurell__OS10__show_ip_interface_brief.txt`): the same
/// header and rule, and each row's columns where the capture's are.
#[test]
fn ip_interface_brief_prints_as_captured() {
    let dir = crate::scratch("os10-ip-brief");
    let (_lab, _device, mut cli) = tor(&dir);
    let ours = cli.run("show ip interface brief").unwrap();
    let capture = std::fs::read_to_string(
        crate::root()
            .join("tests/fixtures/corpus/os10/grantcurell__OS10__show_ip_interface_brief.txt"),
    )
    .unwrap();
    let theirs: Vec<&str> = capture.lines().skip(1).collect();
    let mine: Vec<&str> = ours.lines().collect();
    assert_eq!(mine[..2], theirs[..2], "{ours}");
    // Where each word of a row starts.
    let starts = |l: &str| -> Vec<usize> {
        let b = l.as_bytes();
        (0..b.len())
            .filter(|&i| b[i] != b' ' && (i == 0 || b[i - 1] == b' '))
            .collect()
    };
    let captured = starts(theirs[2]);
    let row = mine
        .iter()
        .find(|l| l.starts_with("Ethernet 1/1/1 "))
        .expect("ethernet1/1/1's row");
    assert_eq!(starts(row), captured, "{row}\n{}", theirs[2]);
    // Every interface with an address shows it, `YES manual`.
    assert!(
        mine.iter().any(|l| l.contains("YES      manual")),
        "the TOR's VLAN interfaces have addresses: {ours}"
    );
}

/// OpenSSH's `scp` (its SCP protocol, `-O`) puts a file in the login's home folder of an OS10
/// switch, where `copy home://NAME running-configuration` applies it; a target outside that
/// folder, or a file larger than the switch keeps, is refused and nothing is written.
#[test]
fn scp_puts_a_file_in_the_home_folder_and_nothing_outside_it() {
    let dir = crate::scratch("os10-scp");
    let key = crate::lab_ssh::keypair(&dir);
    let (lab, dev) = lab(&dir, "OS10");
    let port = lab.switches[0].addr.port().to_string();
    let scp = |file: &Path, target: &str| -> (bool, String) {
        let out = std::process::Command::new("scp")
            .arg("-O")
            .arg("-i")
            .arg(&key)
            .args(["-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes"])
            .args(["-o", "StrictHostKeyChecking=yes", "-o"])
            .arg(format!(
                "UserKnownHostsFile={}",
                dir.join("known_hosts").display()
            ))
            .args(["-P", &port])
            .arg(file)
            .arg(format!("admin@127.0.0.1:{target}"))
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let candidate = dir.join("candidate.txt");
    std::fs::write(
        &candidate,
        "interface ethernet1/1/3\n description scp-put\n",
    )
    .unwrap();
    let (ok, err) = scp(&candidate, "merge.txt");
    assert!(ok, "{err}");
    let home = || dev.snapshot().own::<Os10Switch>().unwrap().home.clone();
    assert_eq!(
        home()["merge.txt"].bytes,
        std::fs::read(&candidate).unwrap()
    );
    assert!(dir.join("OS10/home/merge.txt").exists());
    let mut cli = session(&dir, &lab, "OS10");
    assert_eq!(
        cli.run("copy home://merge.txt running-configuration")
            .unwrap(),
        "Copy completed"
    );
    let i = Iface::Ethernet(Eth::new(3));
    assert_eq!(
        running(&dev).interfaces[&i].description.as_deref(),
        Some("scp-put")
    );
    for target in [
        "../escape.txt",
        "/etc/escape.txt",
        "/home/admin/../../escape.txt",
        "/home/other/escape.txt",
        "sub/escape.txt",
    ] {
        let (ok, err) = scp(&candidate, target);
        assert!(!ok, "{target} taken");
        assert!(err.contains("Permission denied"), "{target}: {err}");
    }
    let big = dir.join("big.txt");
    std::fs::write(&big, vec![b'!'; fabric::os10::lab::MAX_HOME_FILE + 1]).unwrap();
    let (ok, err) = scp(&big, "big.txt");
    assert!(!ok, "{err}");
    assert_eq!(home().keys().collect::<Vec<_>>(), ["merge.txt"]);
    let kept: Vec<_> = std::fs::read_dir(dir.join("OS10/home"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(kept, ["merge.txt"]);
    assert!(!dir.join("escape.txt").exists() && !dir.join("OS10/escape.txt").exists());
}
