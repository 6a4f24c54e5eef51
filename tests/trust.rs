//! Trust: host keys judged as OpenSSH's `ssh` judges them (a table of `known_hosts` files, each
//! checked by `ssh` and by our client against one real `sshd` with an RSA and an ed25519 key),
//! the switch's identity checked before the first command, one clear line for a switch that
//! cannot be reached, and no secret in any output.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::lab_ssh::{Sshd, fabric_bin, free_port, inventory_addr, sshd, start_lab_of};
use fabric::device::{Error, Options, Target};

fn scratch(name: &str) -> PathBuf {
    crate::scratch(&format!("trust-{name}"))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Accepted,
    Changed,
    Revoked,
    Unknown,
}
use Verdict::*;

/// What OpenSSH's `ssh` makes of a `known_hosts` file, in strict mode, as `ssh` prints it.
fn openssh(sshd: &Sshd, known_hosts: &Path) -> (Verdict, String) {
    let out = Command::new("ssh")
        .args(["-F", "/dev/null", "-o", "BatchMode=yes"])
        .args(["-o", "StrictHostKeyChecking=yes"])
        .arg("-o")
        .arg(format!("UserKnownHostsFile={}", known_hosts.display()))
        .args([
            "-o",
            "GlobalKnownHostsFile=/dev/null",
            "-o",
            "IdentitiesOnly=yes",
        ])
        .arg("-i")
        .arg(&sshd.user_key)
        .args(["-p", &sshd.port.to_string()])
        .arg(format!("{}@127.0.0.1", sshd.user))
        .arg("exit")
        .stdin(Stdio::null())
        .output()
        .expect("ssh runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let verdict = if out.status.success() {
        Accepted
    } else if err.contains("REMOTE HOST IDENTIFICATION HAS CHANGED") {
        Changed
    } else if err.contains("is marked as revoked") {
        Revoked
    } else if err.contains("host key is known for") {
        Unknown
    } else {
        panic!("ssh failed for another reason: {err}")
    };
    (verdict, err)
}

/// What our client makes of it: the connection (handshake, host key, login) to `name` at the
/// `sshd`'s address.
fn ours(sshd: &Sshd, known_hosts: &Path, name: &str, accept_new: bool) -> (Verdict, String) {
    let target = Target::new(name, "127.0.0.1", sshd.port, &sshd.user);
    let mut opts = Options::new(known_hosts.to_path_buf());
    opts.identity = Some(sshd.user_key.clone());
    opts.accept_new = accept_new;
    match fabric::device::ssh::connect(&target, &opts) {
        Ok((_, trust)) => {
            trust.record(&opts).unwrap();
            (Accepted, String::new())
        }
        Err(Error::HostKey(m)) if m.contains("CHANGED") => (Changed, m),
        Err(Error::HostKey(m)) if m.contains("REVOKED") => (Revoked, m),
        Err(Error::HostKey(m)) if m.contains("is not a known host") => (Unknown, m),
        Err(e) => panic!("our client failed for another reason: {e}"),
    }
}

/// The table: a `known_hosts` file per case (`{h}` is `[127.0.0.1]:PORT`, `{p}` the port,
/// `{rsa}` and `{ed}` the server's keys, `{other}` an ed25519 key it does not have, `{ec}` an
/// ECDSA key of a type it does not have), and the verdict `ssh` gives. Add cases freely.
const CASES: &[(&str, &str, Verdict)] = &[
    ("the ed25519 key", "{h} {ed}\n", Accepted),
    (
        "only the RSA key of a server that also has ed25519",
        "{h} {rsa}\n",
        Accepted,
    ),
    (
        "only a key of a type the server lacks",
        "{h} {ec}\n",
        Changed,
    ),
    ("another ed25519 key", "{h} {other}\n", Changed),
    (
        "the RSA key and a wrong ed25519 key",
        "{h} {rsa}\n{h} {other}\n",
        Changed,
    ),
    (
        "a wrong line, then the right one",
        "{h} {other}\n{h} {ed}\n",
        Accepted,
    ),
    ("the key revoked", "@revoked {h} {ed}\n", Revoked),
    (
        "known, and revoked for every host",
        "{h} {ed}\n@revoked * {ed}\n",
        Revoked,
    ),
    (
        "the RSA key revoked, the ed25519 key known",
        "@revoked {h} {rsa}\n{h} {ed}\n",
        Accepted,
    ),
    ("a CRLF line end", "{h} {ed}\r\n", Accepted),
    (
        "comments, blank lines, indentation, a comment after the key",
        "# switches\n\n   \t{h} {ed} leaf01 key\n# end\n",
        Accepted,
    ),
    ("a comma list", "leaf01,{h},10.0.0.1 {ed}\n", Accepted),
    ("a `*` wildcard", "[127.0.0.*]:* {ed}\n", Accepted),
    ("a `?` wildcard", "[127.0.0.?]:{p} {ed}\n", Accepted),
    (
        "a negated pattern that matches",
        "!{h},[127.0.0.1]:* {ed}\n",
        Unknown,
    ),
    (
        "a negated pattern that does not",
        "!10.0.0.1,{h} {ed}\n",
        Accepted,
    ),
    ("another port", "[127.0.0.1]:1 {ed}\n", Unknown),
    ("the plain host with the key", "127.0.0.1 {ed}\n", Accepted),
    (
        "the plain host with another key",
        "127.0.0.1 {other}\n",
        Unknown,
    ),
    (
        "a @cert-authority line",
        "@cert-authority {h} {ed}\n",
        Unknown,
    ),
    ("an unknown marker", "@trusted {h} {ed}\n", Unknown),
    (
        "a key that is not base64",
        "{h} ssh-ed25519 AAAA@@@@\n",
        Unknown,
    ),
    (
        "a key of another type than its line says",
        "{h} ssh-rsa {ed_blob}\n",
        Unknown,
    ),
    ("an empty file", "", Unknown),
    ("hashed: the key", "HASH {h} {ed}\n", Accepted),
    ("hashed: another key", "HASH {h} {other}\n", Changed),
    (
        "hashed and plain lines for one host",
        "HASH {h} {other}\n127.0.0.9 {ed}\n{h} {ed}\n",
        Accepted,
    ),
];

/// A public key of a type, as a `known_hosts` line's key part.
fn public_key(dir: &Path, ty: &str) -> String {
    let file = dir.join(format!("other_{ty}"));
    let status = Command::new("ssh-keygen")
        .args(["-q", "-t", ty, "-N", "", "-f"])
        .arg(&file)
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string(file.with_extension("pub")).unwrap();
    let mut f = text.split_whitespace();
    format!("{} {}", f.next().unwrap(), f.next().unwrap())
}

/// Writes a case's file; lines starting `HASH ` are hashed by OpenSSH's own `ssh-keygen -H`.
fn write_case(path: &Path, text: &str) {
    let (hashed, plain): (Vec<&str>, Vec<&str>) = text
        .split_inclusive('\n')
        .partition(|l| l.starts_with("HASH "));
    if hashed.is_empty() {
        std::fs::write(path, text).unwrap();
        return;
    }
    let lines: String = hashed.iter().map(|l| &l[5..]).collect();
    std::fs::write(path, lines).unwrap();
    let status = Command::new("ssh-keygen")
        .arg("-H")
        .arg("-f")
        .arg(path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let _ = std::fs::remove_file(path.with_extension("old"));
    let mut all = std::fs::read_to_string(path).unwrap();
    assert!(all.starts_with("|1|"), "{all}");
    all.extend(plain);
    std::fs::write(path, all).unwrap();
}

/// Every case gets the same verdict from `ssh` and from our client; and the line
/// `--accept-new` appends (with the switch's name) is one `ssh` reads back.
#[test]
fn host_keys_as_openssh_judges_them() {
    let dir = scratch("openssh");
    let sshd = sshd(&dir, &["rsa", "ed25519"]);
    let (rsa, ed) = (&sshd.host_keys[0], &sshd.host_keys[1]);
    let other = public_key(&dir, "ed25519");
    let ec = public_key(&dir, "ecdsa");
    let port = sshd.port.to_string();
    let mut failures = Vec::new();
    for (i, (case, text, want)) in CASES.iter().enumerate() {
        let text = text
            .replace("{h}", &format!("[127.0.0.1]:{port}"))
            .replace("{p}", &port)
            .replace("{rsa}", rsa)
            .replace("{ed_blob}", ed.split_once(' ').unwrap().1)
            .replace("{ed}", ed)
            .replace("{other}", &other)
            .replace("{ec}", &ec);
        let file = dir.join(format!("known_hosts_{i}"));
        write_case(&file, &text);
        let (theirs, why) = openssh(&sshd, &file);
        let (mine, ours_why) = ours(&sshd, &file, "127.0.0.1", false);
        if theirs != *want || mine != theirs {
            failures.push(format!(
                "{case}: ssh {theirs:?} (the table says {want:?}), ours {mine:?}\n  ssh: {why}\n  ours: {ours_why}"
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));

    // `--accept-new`: recorded under the switch's name and address, and `ssh` accepts it.
    let file = dir.join("accept_new");
    assert_eq!(ours(&sshd, &file, "leaf01", false).0, Unknown);
    assert_eq!(ours(&sshd, &file, "leaf01", true).0, Accepted);
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text, format!("leaf01,[127.0.0.1]:{port} {ed}\n"));
    assert_eq!(openssh(&sshd, &file).0, Accepted);
    assert_eq!(ours(&sshd, &file, "leaf01", false).0, Accepted);
    // Appended after a last line without its end, it still starts a line of its own.
    let file = dir.join("accept_new_2");
    std::fs::write(&file, format!("10.0.0.1 {rsa}")).unwrap();
    assert_eq!(ours(&sshd, &file, "leaf01", true).0, Accepted);
    assert_eq!(openssh(&sshd, &file).0, Accepted);
}

/// A small fabric of two switches, each with something to push.
fn two_switches(dir: &Path) -> PathBuf {
    let path = dir.join("pair.yaml");
    std::fs::write(
        &path,
        "onyx: 3.10.4606\nlldp: true\nswitches:\n  leafa:\n    model: SN2100\n  leafb:\n    model: SN2100\n",
    )
    .unwrap();
    path
}

/// The inventory `fabric lab` wrote, with the two switches' addresses swapped.
fn swapped_inventory(state: &Path) -> PathBuf {
    let text = std::fs::read_to_string(state.join("inventory.yaml")).unwrap();
    let text = text
        .replace("leafa:", "leafX:")
        .replace("leafb:", "leafa:")
        .replace("leafX:", "leafb:");
    let path = state.join("swapped.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

fn push(fabric: &Path, dir: &Path, extra: &[&std::ffi::OsStr]) -> (i32, String) {
    crate::run(
        fabric_bin()
            .current_dir(dir)
            .arg("push")
            .arg(fabric)
            .args(["--yes", "--allow-disruptive"])
            .args(extra)
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    )
}

/// Everything a lab switch received (its command log), or nothing.
fn received(state: &Path, switch: &str) -> String {
    std::fs::read_to_string(state.join(switch).join("commands.log")).unwrap_or_default()
}

/// An inventory mix-up: each switch's address is the other's. Refused before the first
/// command, saying whose key it is; with a `known_hosts` that has addresses only (as
/// `ssh-keyscan` writes it), refused by the name each switch gives itself.
#[test]
fn a_swapped_inventory_is_refused_before_any_command() {
    let dir = scratch("swapped");
    let fabric = two_switches(&dir);
    let state = dir.join("lab");
    let _lab = start_lab_of(&fabric, &state, &[], &[]);
    let swapped = swapped_inventory(&state);
    let (code, out) = push(
        &fabric,
        &dir,
        &["--inventory".as_ref(), swapped.as_os_str()],
    );
    assert_eq!(code, 2, "{out}");
    let b = inventory_addr_of(&state, "leafb");
    assert!(
        out.contains(&format!(
            "leafa: the switch at {b} is not `leafa`: its host key (ssh-ed25519 SHA256:"
        )) && out.contains(") is `leafb`'s"),
        "{out}"
    );
    for sw in ["leafa", "leafb"] {
        assert_eq!(received(&state, sw), "", "{sw} received commands");
    }

    // Addresses only: the key cannot tell, the prompt does.
    let text = std::fs::read_to_string(state.join("known_hosts")).unwrap();
    let addresses: String = text
        .lines()
        .map(|l| format!("{}\n", l.split_once(',').unwrap().1))
        .collect();
    let kh = dir.join("addresses_only");
    std::fs::write(&kh, addresses).unwrap();
    let (code, out) = push(
        &fabric,
        &dir,
        &[
            "--inventory".as_ref(),
            swapped.as_os_str(),
            "--known-hosts".as_ref(),
            kh.as_os_str(),
        ],
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(&format!(
            "leafa: the switch at {b} is not `leafa`: it says it is `leafb`"
        )),
        "{out}"
    );
    for sw in ["leafa", "leafb"] {
        assert_eq!(received(&state, sw), "", "{sw} received commands");
    }
    // The same mix-up is refused on the read-only paths too.
    let (code, out) = crate::run(
        fabric_bin()
            .arg("diff")
            .arg(&fabric)
            .arg("--inventory")
            .arg(&swapped)
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    );
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("is not `leafa`"), "{out}");
    // And the right inventory pushes.
    let inventory = state.join("inventory.yaml");
    let (code, out) = push(
        &fabric,
        &dir,
        &["--inventory".as_ref(), inventory.as_os_str()],
    );
    assert_eq!(code, 0, "{out}");
}

fn inventory_addr_of(state: &Path, switch: &str) -> String {
    let inv = crate::lab_ssh::lab_inventory(state);
    let a = &inv.switches[switch];
    format!("{}:{}", a.host, a.port)
}

/// A switch that calls itself something else (factory-new, or one that keeps its own name):
/// accepted when its host key is recorded for the switch's name, refused with how to pin it
/// otherwise; `--accept-new` pins it.
#[test]
fn a_switch_with_its_own_name_needs_its_key_pinned_to_the_name() {
    let dir = scratch("own-name");
    let from = dir.join("from");
    std::fs::create_dir_all(&from).unwrap();
    let golden =
        std::fs::read_to_string(crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg"))
            .unwrap();
    std::fs::write(
        from.join("swx-mld-1-2.cfg"),
        golden.replace("swx-mld-1-2", "switch-8a2b3c"),
    )
    .unwrap();
    let state = dir.join("lab");
    let rdg = crate::lab_ssh::rdg();
    let _lab = start_lab_of(&rdg, &state, &["--from".as_ref(), from.as_os_str()], &[]);
    let addr = inventory_addr(&state);
    let text = std::fs::read_to_string(state.join("known_hosts")).unwrap();
    let kh = dir.join("addresses_only");
    std::fs::write(&kh, text.split_once(',').unwrap().1).unwrap();
    let inventory = state.join("inventory.yaml");
    let args = |kh: &Path| -> Vec<std::ffi::OsString> {
        vec![
            "--inventory".into(),
            inventory.clone().into(),
            "--known-hosts".into(),
            kh.into(),
            "--dry-run".into(),
        ]
    };
    let run = |extra: &[std::ffi::OsString]| {
        let extra: Vec<&std::ffi::OsStr> = extra.iter().map(|s| s.as_os_str()).collect();
        push(&rdg, &dir, &extra)
    };
    let (code, out) = run(&args(&kh));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(&format!(
            "swx-mld-1-2: the switch at {addr} says it is `switch-8a2b3c`, not `swx-mld-1-2`, and its host key is not recorded for `swx-mld-1-2`"
        )) && out.contains("`--accept-new`"),
        "{out}"
    );
    assert_eq!(received(&state, "swx-mld-1-2"), "");
    // The lab's own known_hosts pins the key to the name.
    let (code, out) = run(&args(&state.join("known_hosts")));
    assert_eq!(code, 0, "{out}");
    // `--accept-new` records the name beside the address already known.
    let mut accept = args(&kh);
    accept.push("--accept-new".into());
    let (code, out) = run(&accept);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(&args(&kh));
    assert_eq!(code, 0, "{out}");
    assert!(
        std::fs::read_to_string(&kh)
            .unwrap()
            .lines()
            .any(|l| l.starts_with("swx-mld-1-2 ssh-ed25519 ")),
        "{out}"
    );
}

/// A switch that cannot be reached is one line, named once, in plain words; so is a server
/// that does not speak SSH.
#[test]
fn an_unreachable_switch_is_one_clear_line() {
    let dir = scratch("unreachable");
    let port = free_port();
    let inventory = dir.join("inventory.yaml");
    std::fs::write(
        &inventory,
        format!("switches:\n  swx-mld-1-2: {{ host: 127.0.0.1, port: {port}, user: admin }}\n"),
    )
    .unwrap();
    let rdg = crate::lab_ssh::rdg();
    let kh = dir.join("known_hosts");
    let base = |cmd: &str| {
        let mut c = fabric_bin();
        c.current_dir(&dir)
            .arg(cmd)
            .arg(&rdg)
            .arg("--inventory")
            .arg(&inventory)
            .arg("--known-hosts")
            .arg(&kh)
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK");
        c
    };
    let refused = format!("swx-mld-1-2: cannot connect to 127.0.0.1:{port}: connection refused");
    let mut push = base("push");
    push.arg("--yes");
    let mut audit = base("audit");
    audit.arg("--live");
    for mut cmd in [push, base("diff"), audit] {
        let (code, out) = crate::run(&mut cmd);
        assert_eq!(code, 2, "{out}");
        assert_eq!(out.matches("cannot connect").count(), 1, "{out}");
        assert!(out.contains(&refused), "{out}");
        assert!(!out.contains("swx-mld-1-2: swx-mld-1-2"), "{out}");
        assert!(!out.contains("Session("), "{out}");
    }

    // Something that is not an SSH server: the handshake fails, in words.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let _ = std::io::Write::write_all(&mut stream, b"HTTP/1.1 400 Bad Request\r\n\r\n");
        }
    });
    std::fs::write(
        &inventory,
        format!("switches:\n  swx-mld-1-2: {{ host: 127.0.0.1, port: {port}, user: admin }}\n"),
    )
    .unwrap();
    let (code, out) = crate::run(base("diff").arg("--connect-timeout").arg("5"));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(&format!(
            "error: swx-mld-1-2: SSH handshake with 127.0.0.1:{port} failed: no SSH greeting came back (is it an SSH server?)\n"
        )),
        "{out}"
    );
    assert!(!out.contains("Session("), "{out}");
}

/// Every file under a folder, as text.
fn files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
        } else if p.exists() {
            let bytes = std::fs::read(&p).unwrap();
            out.push((p, String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
    out
}

/// A canary written where users keep secrets (the password variables, an inventory, a fabric
/// file, a switch's `username … password 0 …` and `snmp-server community …` lines, a fault
/// file's `enable_password`) never appears in what any command prints, nor in a transcript, a
/// backup or a lab switch's command log, through every failure path.
#[test]
fn secrets_never_reach_any_output() {
    const CANARY: &str = "Zq7Canary";
    let login = format!("{CANARY}Login");
    let dir = scratch("canary");
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_string();
    let rdg = path(&crate::lab_ssh::rdg());
    // A switch holding secrets of its own, and one change to push (`lldp`).
    let from = dir.join("from");
    std::fs::create_dir_all(&from).unwrap();
    let golden =
        std::fs::read_to_string(crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg"))
            .unwrap();
    // Every form of secret Onyx has (`fabric::secrets::FORMS`), its value a canary.
    let forms = [
        "username admin password 0",
        "username monitor password 7",
        "snmp-server community",
        "snmp-server notify community",
        "snmp-server host 10.0.0.9 traps version 2c",
        "snmp-server user u1 v3 encrypted auth sha",
        "snmp-server user u2 v3 priv aes-128",
        "radius-server key 0",
        "radius-server host 10.0.0.9 key 7",
        "tacacs-server key 0",
        "tacacs-server host 10.0.0.8 key 7",
        "ldap bind-password",
        "ntp authentication-key 5 sha1 0",
        "interface ethernet 1/9 ip ospf authentication-key 7",
        "interface ethernet 1/9 ip ospf message-digest-key 1 md5",
        "web proxy auth basic password",
        "boot bootmgr password 7",
        "router bgp 65000 vrf default neighbor 10.0.0.1 password 7",
    ];
    let lines: String = forms
        .iter()
        .enumerate()
        .map(|(i, f)| format!("   {f} {CANARY}Form{i}\n"))
        .collect();
    let users = format!(
        "##\n## Local user account configuration\n##\n{lines}   snmp-server community {CANARY}Community ro\n\n##\n## X.509 certificates configuration"
    );
    let config = golden
        .replace("##\n## X.509 certificates configuration", &users)
        .replace("   lldp\n", "");
    assert!(config.contains("snmp-server community") && !config.contains("   lldp"));
    std::fs::write(from.join("swx-mld-1-2.cfg"), &config).unwrap();
    let state = dir.join("lab");
    let _lab = start_lab_of(
        Path::new(&rdg),
        &state,
        &["--from".as_ref(), from.as_os_str()],
        &[("FABRIC_LAB_PASSWORD", &login)],
    );
    let inventory = path(&state.join("inventory.yaml"));
    let kh = path(&state.join("known_hosts"));
    let addr = inventory_addr(&state);
    let faults = state.join("swx-mld-1-2/faults.yaml");

    // A bad inventory: a password where users put one.
    let bad_inventory = dir.join("bad_inventory.yaml");
    std::fs::write(
        &bad_inventory,
        format!(
            "switches:\n  swx-mld-1-2: {{ host: {}, port: {}, user: admin, password: {CANARY}Inventory }}\n",
            addr.ip(),
            addr.port()
        ),
    )
    .unwrap();
    // A bad fabric: the password in `mgmt`.
    let bad_fabric = dir.join("bad_fabric.yaml");
    let fabric_text = std::fs::read_to_string(&rdg).unwrap();
    let in_mgmt = fabric_text.replace(
        "user: admin }",
        &format!("user: admin, password: {CANARY}Fabric }}"),
    );
    assert_ne!(in_mgmt, fabric_text);
    std::fs::write(&bad_fabric, in_mgmt).unwrap();
    // A malformed running config beside secrets.
    let bad_running = dir.join("bad_running.cfg");
    std::fs::write(
        &bad_running,
        config.replace(
            "   snmp-server community",
            "   interface ethernet 1/1 mtu 99999 force\n   snmp-server community",
        ),
    )
    .unwrap();
    let empty_kh = path(&dir.join("empty_known_hosts"));
    let changed_kh = dir.join("changed_known_hosts");
    let kh_text = std::fs::read_to_string(&kh).unwrap();
    let (hosts, _) = kh_text.split_once(' ').unwrap();
    std::fs::write(
        &changed_kh,
        format!("{hosts} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOV1ha6AqfECtgao5cp3NfsQK/RqyFQfIxVMRrFCYB0l\n"),
    )
    .unwrap();
    let unreachable = dir.join("unreachable.yaml");
    std::fs::write(
        &unreachable,
        format!(
            "known_hosts: {kh}\nswitches:\n  swx-mld-1-2: {{ host: 127.0.0.1, port: {}, user: admin }}\n",
            free_port()
        ),
    )
    .unwrap();
    let (bad_inventory, bad_fabric, bad_running, changed_kh, unreachable) = (
        path(&bad_inventory),
        path(&bad_fabric),
        path(&bad_running),
        path(&changed_kh),
        path(&unreachable),
    );

    let mut outputs: Vec<(String, i32, String)> = Vec::new();
    let mut run = |what: &str, args: &[String], password: &str| {
        let (code, out) = crate::run(
            fabric_bin()
                .current_dir(&work)
                .args(args)
                .env("FABRIC_PASSWORD", password)
                .env("FABRIC_LAB_PASSWORD", &login)
                .env_remove("SSH_AUTH_SOCK"),
        );
        outputs.push((what.to_string(), code, out));
    };
    let v = |args: &[&str]| -> Vec<String> { args.iter().map(|a| a.to_string()).collect() };
    // A live command against the lab switch: diff, push (yes) or audit (live).
    let live = |cmd: &str, extra: &[&str]| -> Vec<String> {
        let mut a = vec![
            cmd.to_string(),
            rdg.clone(),
            "--inventory".into(),
            inventory.clone(),
        ];
        match cmd {
            "push" => a.extend(["--yes".into(), "--allow-disruptive".into()]),
            "audit" => a.push("--live".into()),
            _ => {}
        }
        a.extend(extra.iter().map(|x| x.to_string()));
        a
    };
    let wrong = format!("{CANARY}Wrong");

    for cmd in ["diff", "push"] {
        run(
            &format!("{cmd}: bad inventory"),
            &v(&[cmd, &rdg, "--inventory", &bad_inventory]),
            &login,
        );
    }
    for cmd in ["validate", "push", "compile"] {
        run(
            &format!("{cmd}: bad fabric"),
            &v(&[cmd, &bad_fabric]),
            &login,
        );
    }
    run(
        "diff: malformed running config",
        &v(&["diff", &rdg, "--running", &bad_running]),
        &login,
    );
    run(
        "parse: malformed running config",
        &v(&["parse", &bad_running]),
        &login,
    );
    run(
        "audit: malformed running config",
        &v(&["audit", "--running", &bad_running]),
        &login,
    );
    for cmd in ["diff", "push", "audit", "verify"] {
        for (what, extra, password) in [
            ("wrong password", vec![], &wrong),
            ("unknown host", vec!["--known-hosts", &empty_kh], &login),
            (
                "changed key",
                vec!["--known-hosts", &changed_kh, "--accept-new"],
                &login,
            ),
        ] {
            run(&format!("{cmd}: {what}"), &live(cmd, &extra), password);
        }
    }
    run(
        "diff: unreachable",
        &v(&["diff", &rdg, "--inventory", &unreachable]),
        &login,
    );
    // `enable` asks for a password that is not the login's: refused.
    std::fs::write(&faults, format!("enable_password: {CANARY}Enable\n")).unwrap();
    run("diff: enable refused", &live("diff", &[]), &login);
    // `enable` asks for the login password; a command is refused mid-push: rolled back.
    std::fs::write(
        &faults,
        format!(
            "enable_password: {login}\nrefuse:\n  - {{ match: \"lldp\", error: \"% refused\" }}\n"
        ),
    )
    .unwrap();
    run("push: refused and rolled back", &live("push", &[]), &login);
    std::fs::write(&faults, format!("enable_password: {login}\n")).unwrap();
    for cmd in ["diff", "audit", "verify"] {
        run(&format!("{cmd}: live"), &live(cmd, &[]), &login);
    }
    let switch = format!("swx-mld-1-2=admin@{addr}");
    run(
        "import: live",
        &v(&["import", "--live", &switch, "--known-hosts", &kh]),
        &login,
    );
    run("push: converges", &live("push", &[]), &login);
    // The switch's config as a file: read, audited, diffed and imported.
    let backup = path(&from.join("swx-mld-1-2.cfg"));
    run("parse: file", &v(&["parse", &backup]), &login);
    run(
        "parse: file as JSON",
        &v(&["parse", &backup, "--format", "json"]),
        &login,
    );
    run("audit: file", &v(&["audit", "--running", &backup]), &login);
    run(
        "diff: file",
        &v(&["diff", &rdg, "--running", &backup]),
        &login,
    );
    run(
        "import: file",
        &v(&["import", &backup, "--output", "imported.yaml"]),
        &login,
    );

    let mut written = files(&work.join(".fabric"));
    written.extend(
        files(&state)
            .into_iter()
            .filter(|(p, _)| p.ends_with("commands.log")),
    );
    assert!(
        written
            .iter()
            .any(|(p, _)| p.to_string_lossy().contains("/logs/"))
    );
    assert!(
        written
            .iter()
            .any(|(p, _)| p.to_string_lossy().contains("/backups/"))
    );
    let leaks: Vec<String> = outputs
        .iter()
        .filter(|(_, _, out)| out.contains(CANARY))
        .map(|(what, _, out)| format!("{what} printed a secret:\n{out}"))
        .chain(
            written
                .iter()
                .filter(|(_, text)| text.contains(CANARY))
                .map(|(p, _)| format!("{} holds a secret", p.display())),
        )
        .collect();
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
    // Each path failed (or, last, succeeded) as meant.
    let expect = |what: &str, code: i32, text: &str| {
        let (_, c, out) = outputs.iter().find(|(w, _, _)| w == what).unwrap();
        assert_eq!(*c, code, "{what}: {out}");
        assert!(out.contains(text), "{what}: {out}");
    };
    expect("diff: bad inventory", 2, "error[E090]");
    expect("validate: bad fabric", 1, "error[E010]");
    expect("diff: malformed running config", 2, "error[E100]");
    expect("push: wrong password", 2, "refused (tried password");
    expect("diff: unknown host", 2, "is not a known host");
    expect("audit: changed key", 2, "has CHANGED");
    expect("diff: unreachable", 2, "connection refused");
    expect("diff: enable refused", 2, "`enable` refused");
    expect("push: refused and rolled back", 1, "rolled back");
    expect("diff: live", 1, "lldp");
    expect("verify: wrong password", 2, "refused (tried password");
    expect("verify: changed key", 2, "has CHANGED");
    // Read whatever its verdict (the lab does not print every command `verify` sends yet).
    let (_, _, out) = outputs
        .iter()
        .find(|(w, _, _)| w == "verify: live")
        .unwrap();
    assert!(out.contains("1 switch(es) verified"), "{out}");
    expect("import: live", 0, "snmp-server community ********");
    expect(
        "parse: file",
        0,
        "router bgp 65000 vrf default neighbor 10.0.0.1 password 7 ********",
    );
    expect("diff: file", 1, "lldp");
    let imported = std::fs::read_to_string(work.join("imported.yaml")).unwrap();
    assert!(!imported.contains(CANARY), "{imported}");
    assert!(
        imported.contains("ldap bind-password ********"),
        "{imported}"
    );
    expect("push: converges", 0, "converged");
    // The excerpts still point at the problem, the secret masked in place.
    let stars = "*".repeat(format!("{CANARY}Fabric").len());
    expect("validate: bad fabric", 1, &format!("password: {stars} }}"));
    expect("diff: bad inventory", 2, "password: ");
}

/// The secret every masking test hides: it appears in no masked text.
const SECRET: &str = "Zq7Secret";

/// One form of secret, as `before [TYPE] SECRET[after]`, masked by `fabric::secrets::mask`:
/// with no type and with each of `types`, the secret one word or quoted with spaces, last on
/// the line or followed by `after`; in the OS's style (`how`) and in place. The type stays,
/// the value is the OS's mask (inside its quotes), and masking the masked line changes
/// nothing (two masked texts differ only where their configurations do).
fn masks_form(how: Mask, before: &str, types: &[&str], after: &str) {
    let stars = match how {
        how if how == Mask::Onyx => "********",
        how if how == Mask::Os10 => "****",
        _ => unreachable!("the OS's style"),
    };
    let quoted = format!("\"{SECRET} two words\"");
    for ty in std::iter::once("").chain(types.iter().copied()) {
        let ty = if ty.is_empty() {
            String::new()
        } else {
            format!("{ty} ")
        };
        for (secret, masked) in [
            (SECRET.to_string(), stars.to_string()),
            (quoted.clone(), format!("\"{stars}\"")),
        ] {
            for tail in ["", after] {
                let line = format!("{before} {ty}{secret}{tail}");
                let want = format!("{before} {ty}{masked}{tail}");
                assert_eq!(mask(&line, how), want, "{line}");
                assert_eq!(mask(&want, how), want, "masked twice: {want}");
                // Several lines at once, as a running config and a transcript hold them.
                let text = format!("hostname a\n{line}\r\nexit\n");
                assert_eq!(mask(&text, how), format!("hostname a\n{want}\r\nexit\n"));
                let in_place = mask(&line, Mask::InPlace);
                assert_eq!(in_place.len(), line.len(), "{line}");
                assert!(!in_place.contains(SECRET), "{in_place}");
                assert!(
                    in_place.starts_with(&format!("{before} {ty}")),
                    "{in_place}"
                );
            }
        }
    }
}

use fabric::secrets::{Mask, mask};

#[test]
fn masks_onyx_username_password() {
    masks_form(Mask::Onyx, "   username admin password", &["0", "7"], "");
}

#[test]
fn masks_os10_username_password() {
    masks_form(
        Mask::Os10,
        "username admin password",
        &[],
        " role sysadmin priv-lvl 15",
    );
    // A published capture's placeholders (CSM) are masked whole.
    assert_eq!(
        mask("username [ADMIN] password [PASSWORD]", Mask::Os10),
        "username [ADMIN] password ****"
    );
}

#[test]
fn masks_os10_system_user_password() {
    masks_form(Mask::Os10, "system-user linuxadmin password", &[], "");
}

#[test]
fn masks_os10_enable_password() {
    masks_form(
        Mask::Os10,
        "enable password",
        &["0", "sha-256", "sha-512"],
        " priv-lvl 15",
    );
}

#[test]
fn masks_os10_bgp_neighbor_and_template_password() {
    masks_form(Mask::Os10, "  password", &["0", "9"], "");
    // In its block, as `show running-configuration` prints it (the TOR capture's spelling).
    let block = format!(
        "router bgp 65101\n neighbor 10.0.0.1\n  password 9 {SECRET}\n  remote-as 65100\n !\n template spines\n  password {SECRET}\n"
    );
    assert_eq!(
        mask(&block, Mask::Os10),
        "router bgp 65101\n neighbor 10.0.0.1\n  password 9 ****\n  remote-as 65100\n !\n template spines\n  password ****\n"
    );
    // An imported fabric's copied line, as a YAML list item or comment.
    for line in [
        format!("      - \"password 9 {SECRET}\""),
        format!("      # password 9 {SECRET}"),
    ] {
        assert!(!mask(&line, Mask::Os10).contains(SECRET), "{line}");
    }
}

#[test]
fn masks_onyx_bgp_neighbor_password() {
    masks_form(
        Mask::Onyx,
        "   router bgp 65000 vrf default neighbor 10.0.0.1 password",
        &["0", "7"],
        "",
    );
}

#[test]
fn masks_onyx_web_proxy_and_bootmgr_passwords() {
    masks_form(Mask::Onyx, "   web proxy auth basic password", &[], "");
    masks_form(Mask::Onyx, "   boot bootmgr password", &["0", "7"], "");
}

#[test]
fn masks_snmp_communities() {
    masks_form(Mask::Onyx, "   snmp-server community", &[], " ro");
    masks_form(Mask::Onyx, "   snmp-server notify community", &[], "");
    masks_form(Mask::Os10, "snmp-server community", &[], " ro acl a");
}

#[test]
fn masks_snmp_trap_host_communities() {
    masks_form(
        Mask::Onyx,
        "   snmp-server host 10.0.0.9 traps version 2c",
        &[],
        " udp-port 162",
    );
    masks_form(
        Mask::Os10,
        "snmp-server host 10.0.0.9 traps version 1",
        &[],
        " udp-port 162 entity lldp",
    );
    // SNMPv3's security level and user name are no secret; a host without a community
    // keeps its port.
    for line in [
        "snmp-server host 10.185.239.246 traps version 3 auth  azure_ro",
        "snmp-server group AzureStack_RO 3 auth notify rview read rview",
        "   snmp-server host 10.0.0.9 traps version 2c udp-port 162",
    ] {
        assert_eq!(mask(line, Mask::Os10), line);
    }
}

#[test]
fn masks_snmpv3_auth_and_priv_keys() {
    for (how, before, auth, privacy, stars) in [
        (
            Mask::Onyx,
            "   snmp-server user u v3 encrypted",
            "sha",
            "aes-128",
            "********",
        ),
        (
            Mask::Onyx,
            "   snmp-server user u v3",
            "md5",
            "des",
            "********",
        ),
        (
            Mask::Onyx,
            "   snmp-server host 10.0.0.9 informs version 3 user u",
            "sha256",
            "aes-256",
            "********",
        ),
        (Mask::Os10, "snmp-server user u1 g1 3", "sha", "aes", "****"),
        (Mask::Os10, "snmp-server user u1 g1 3", "md5", "des", "****"),
    ] {
        masks_form(how, &format!("{before} auth {auth}"), &[], "");
        masks_form(how, &format!("{before} priv {privacy}"), &[], "");
        let line = format!("{before} auth {auth} {SECRET}A priv {privacy} \"{SECRET} B\"");
        assert_eq!(
            mask(&line, how),
            format!("{before} auth {auth} {stars} priv {privacy} \"{stars}\"")
        );
    }
    // Onyx's own masking of SNMPv3 keys (NAP) stays as it is.
    let nap = "   snmp-server user sara v3 encrypted auth sha \"\" priv aes-128 \"\"";
    assert_eq!(mask(nap, Mask::Onyx), nap);
}

#[test]
fn masks_radius_and_tacacs_keys() {
    for server in ["radius-server", "tacacs-server"] {
        masks_form(Mask::Onyx, &format!("   {server} key"), &["0", "7"], "");
        masks_form(
            Mask::Onyx,
            &format!("   {server} host 10.0.0.9 key"),
            &["0", "7"],
            " auth-port 1812",
        );
        masks_form(
            Mask::Os10,
            &format!("{server} host 10.0.0.9 key"),
            &["0", "7", "9"],
            " auth-port 1812",
        );
        masks_form(
            Mask::Os10,
            &format!("{server} host 10.0.0.9 auth-port 3 key"),
            &["9"],
            "",
        );
    }
}

#[test]
fn masks_ldap_bind_password() {
    masks_form(Mask::Onyx, "   ldap bind-password", &[], "");
}

#[test]
fn masks_ntp_authentication_keys() {
    masks_form(
        Mask::Onyx,
        "   ntp authentication-key 5 sha1",
        &["0", "7"],
        " ",
    );
    masks_form(
        Mask::Os10,
        "ntp authentication-key 123 md5",
        &["0", "7", "9"],
        "",
    );
}

/// Secret YAML keys (a fabric, an inventory, a fault file) and Onyx lines inside YAML, masked
/// in place for a diagnostic's excerpt.
#[test]
fn masks_yaml_secrets_in_place() {
    let cases = [
        (
            "    mgmt: { host: a, password: hunter2, user: x }",
            "    mgmt: { host: a, password: *******, user: x }",
        ),
        (
            "password: \"two words\"  # c",
            "password: \"*********\"  # c",
        ),
        ("  enable_password: secret", "  enable_password: ******"),
        (
            "  - username admin password 0 hunter2",
            "  - username admin password 0 *******",
        ),
        (
            "      - \"username admin password 0 hunter2\"",
            "      - \"username admin password 0 *******\"",
        ),
        ("community: [\"a\", \"b\"]", "community: **********"),
    ];
    for (text, want) in cases {
        assert_eq!(mask(text, Mask::InPlace), want, "{text}");
    }
}

/// Lines that only look like secrets, and the switches' own masks, are left alone.
#[test]
fn lookalikes_and_masked_secrets_stay() {
    for text in [
        "   no password hardening enable",
        "## Password restriction configuration",
        "password-attributes character-restriction upper 1",
        "# radius-server key ********",
        "# ldap bind-password ********",
        "   ntp authentication-key 5 sha1 ******** ",
        "  password 9 ****",
        "enable password sha-512 **** priv-lvl 15",
        "   ssh client user oxidized authorized-key sshv2 ",
        "   username root nopassword",
        "username deployadmin sshkey \"ssh-rsa AAAAB3Nza\"",
        "   router bgp 65000 vrf default neighbor 10.0.0.1 send-community extended",
        "ip community-list standard commstd permit no-advertise",
        "   aaa authentication login default local ldap tacacs+ radius",
        "passwords: 3",
    ] {
        // A switch's own mask stays in its OS's style (the other OS's would rewrite it).
        let styles: &[Mask] = if text.contains("********") {
            &[Mask::Onyx, Mask::InPlace]
        } else if text.contains("****") {
            &[Mask::Os10, Mask::InPlace]
        } else {
            &[Mask::Onyx, Mask::Os10, Mask::InPlace]
        };
        for &how in styles {
            assert_eq!(mask(text, how), text, "{how:?}");
        }
    }
}

/// `docs/commands.md` lists every form the masking knows and its OSes, in the table's order
/// (`- masked: `FORM` (OSES)…`).
#[test]
fn the_docs_list_every_masked_form() {
    let docs = std::fs::read_to_string(crate::root().join("docs/commands.md")).unwrap();
    let listed: Vec<(&str, &str)> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("- masked: `"))
        .filter_map(|l| {
            let (form, rest) = l.split_once("` (")?;
            Some((form, rest.split_once(')')?.0))
        })
        .collect();
    let table: Vec<(&str, &str)> = fabric::secrets::FORMS
        .iter()
        .map(|f| (f.example, f.os))
        .collect();
    assert_eq!(listed, table);
}
