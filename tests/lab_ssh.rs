//! The lab over real SSH on loopback: the OpenSSH client in a pseudo-terminal, the ssh2
//! client from Rust, `fabric lab` as a process (state kept across restarts, `--stdio`), and
//! every fault a push test needs.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fabric::lab::{Device, Lab, Logins};
use fabric::onyx::lab::Switch;

const HOST: &str = "leaf01";

/// A fresh folder for one test.
fn scratch(name: &str) -> PathBuf {
    crate::scratch(&format!("lab-{name}"))
}

/// An ed25519 key pair made by OpenSSH's `ssh-keygen`: `dir/id` and `dir/id.pub`.
pub fn keypair(dir: &Path) -> PathBuf {
    let key = dir.join("id");
    let status = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-C", "lab-test", "-f"])
        .arg(&key)
        .status()
        .expect("ssh-keygen runs");
    assert!(status.success());
    key
}

/// One factory-default switch served in-process, its state in `dir/leaf01`; the key pair in
/// `dir` may log in besides admin/admin.
fn lab(dir: &Path) -> Lab {
    lab_with(dir, Logins::factory())
}

/// As [`lab`], with these logins.
fn lab_with(dir: &Path, mut logins: Logins) -> Lab {
    let sw_dir = dir.join(HOST);
    let device = Device::open(&sw_dir, Switch::factory(HOST), false, false).unwrap();
    if dir.join("id.pub").exists() {
        logins.add_keys(&dir.join("id.pub")).unwrap();
    }
    let lab = crate::serve_one(Arc::new(device), &sw_dir, logins);
    let known: String = lab
        .switches
        .iter()
        .map(|s| s.known_hosts_line(HOST) + "\n")
        .collect();
    std::fs::write(dir.join("known_hosts"), known).unwrap();
    lab
}

/// A CLI session through the ssh2 client, with a PTY as push uses.
pub struct Shell {
    _session: ssh2::Session,
    channel: ssh2::Channel,
    /// Everything read so far that was not returned yet.
    pending: String,
    /// Whether the text read ends with the switch's prompt.
    prompt: fn(&str) -> bool,
}

pub fn ssh2_session(addr: std::net::SocketAddr, known_hosts: &Path) -> ssh2::Session {
    let tcp = TcpStream::connect(addr).unwrap();
    let mut session = ssh2::Session::new().unwrap();
    session.set_tcp_stream(tcp);
    session.set_timeout(10_000);
    session.handshake().unwrap();
    // Strict host-key checking against the known_hosts file the lab wrote.
    let mut kh = session.known_hosts().unwrap();
    kh.read_file(known_hosts, ssh2::KnownHostFileKind::OpenSSH)
        .unwrap();
    let (key, _) = session.host_key().unwrap();
    assert!(
        matches!(
            kh.check_port("127.0.0.1", addr.port(), key),
            ssh2::CheckResult::Match
        ),
        "the host key is the one in known_hosts"
    );
    session
}

/// An Onyx prompt ends the text: `… > `, `… # `.
fn onyx_prompt(t: &str) -> bool {
    t.ends_with("] > ") || t.ends_with(" # ")
}

/// An OS10 prompt ends the text: `leaf01# `, `leaf01(config)# `.
fn os10_prompt(t: &str) -> bool {
    t.ends_with("# ")
}

/// A Cumulus prompt ends the text: `admin@leaf01:mgmt:~$ `.
fn cumulus_prompt(t: &str) -> bool {
    t.ends_with(":~$ ")
}

impl Shell {
    pub fn open(addr: std::net::SocketAddr, known_hosts: &Path) -> Shell {
        Shell::open_as(addr, known_hosts, onyx_prompt, "admin")
    }

    /// A session on an OS10 switch.
    pub fn open_os10(addr: std::net::SocketAddr, known_hosts: &Path) -> Shell {
        Shell::open_as(addr, known_hosts, os10_prompt, "admin")
    }

    /// A session on a Cumulus switch, as its user `cumulus`.
    pub fn open_cumulus(addr: std::net::SocketAddr, known_hosts: &Path) -> Shell {
        Shell::open_as(addr, known_hosts, cumulus_prompt, "cumulus")
    }

    fn open_as(
        addr: std::net::SocketAddr,
        known_hosts: &Path,
        prompt: fn(&str) -> bool,
        user: &str,
    ) -> Shell {
        let session = ssh2_session(addr, known_hosts);
        session.userauth_password(user, "admin").unwrap();
        let mut channel = session.channel_session().unwrap();
        channel
            .request_pty("vt100", None, Some((200, 24, 0, 0)))
            .unwrap();
        channel.shell().unwrap();
        let mut shell = Shell {
            _session: session,
            channel,
            pending: String::new(),
            prompt,
        };
        shell.until_prompt().unwrap();
        shell
    }

    /// Reads until the text read ends with `end`; what was read, or what was read before
    /// the timeout or the end of the stream.
    fn until(&mut self, end: impl Fn(&str) -> bool) -> Result<String, String> {
        let mut buf = [0u8; 8192];
        loop {
            if end(&self.pending) {
                return Ok(std::mem::take(&mut self.pending));
            }
            match self.channel.read(&mut buf) {
                Ok(0) => return Err(std::mem::take(&mut self.pending)),
                Ok(n) => self.pending.push_str(&String::from_utf8_lossy(&buf[..n])),
                Err(_) => return Err(std::mem::take(&mut self.pending)),
            }
        }
    }

    fn until_prompt(&mut self) -> Result<String, String> {
        let prompt = self.prompt;
        self.until(prompt)
    }

    /// Types a line; the output between the echoed line and the next prompt.
    pub fn send(&mut self, line: &str) -> Result<String, String> {
        self.channel
            .write_all(format!("{line}\r").as_bytes())
            .map_err(|e| e.to_string())?;
        let text = self.until_prompt()?;
        let text = fabric::onyx::clean(&text).into_owned();
        let body = text.split_once('\n').map_or("", |(_, b)| b);
        Ok(body.rsplit_once('\n').map_or("", |(b, _)| b).to_string() + "\n")
    }
}

#[test]
fn ssh2_client_configures_and_reads_back() {
    let dir = scratch("ssh2");
    let lab = lab(&dir);
    let sw = &lab.switches[0];
    let mut sh = Shell::open(sw.addr, &dir.join("known_hosts"));
    for line in [
        "no cli session paging enable",
        "enable",
        "configure terminal",
    ] {
        assert_eq!(sh.send(line).unwrap(), "\n", "{line}");
    }
    sh.send("interface ethernet 1/5 mtu 9216 force").unwrap();
    let shown = sh.send("show running-config").unwrap();
    assert!(
        shown.contains("   interface ethernet 1/5 mtu 9216 force\n"),
        "{shown}"
    );
    assert_eq!(
        sh.send("interface ethernet 1/5 shutdwn").unwrap(),
        "% Unrecognized command \"shutdwn\".\n"
    );
    // What the switch holds is what the session showed.
    let model = fabric::onyx::parse(&shown).unwrap();
    assert_eq!(model, {
        let mut m = crate::onyx_running(&sw.device);
        m.header.saved = model.header.saved;
        m
    });
    // The command log holds every line, in order, for tests to assert what was sent.
    let log: Vec<String> = sw.device.log().into_iter().map(|(_, l)| l).collect();
    assert_eq!(log[3], "interface ethernet 1/5 mtu 9216 force");
    let file = std::fs::read_to_string(dir.join(HOST).join("commands.log")).unwrap();
    assert!(
        file.contains("1\tinterface ethernet 1/5 mtu 9216 force\n"),
        "{file}"
    );
}

/// A lab switch takes a secret as a switch does (its running config shows it), and its
/// command log, a transcript of what it was sent, holds it masked as Onyx masks it.
#[test]
fn the_command_log_masks_secrets_the_switch_keeps() {
    let dir = scratch("secret-log");
    let lab = lab(&dir);
    let sw = &lab.switches[0];
    let mut sh = Shell::open(sw.addr, &dir.join("known_hosts"));
    for line in [
        "no cli session paging enable",
        "enable",
        "configure terminal",
        "snmp-server community Zq7LabCommunity ro",
        "username admin password 0 Zq7LabUser",
    ] {
        assert_eq!(sh.send(line).unwrap(), "\n", "{line}");
    }
    let shown = sh.send("show running-config").unwrap();
    assert!(
        shown.contains("snmp-server community Zq7LabCommunity ro"),
        "{shown}"
    );
    let file = std::fs::read_to_string(dir.join(HOST).join("commands.log")).unwrap();
    let log: Vec<String> = sw.device.log().into_iter().map(|(_, l)| l).collect();
    assert!(
        !file.contains("Zq7") && !log.concat().contains("Zq7"),
        "{file}"
    );
    assert!(
        file.contains("\tsnmp-server community ******** ro\n")
            && file.contains("\tusername admin password 0 ********\n"),
        "{file}"
    );
}

#[test]
fn ssh2_wrong_password_is_refused_and_the_host_key_persists() {
    let dir = scratch("refused");
    let first = {
        let lab = lab(&dir);
        let sw = &lab.switches[0];
        let session = ssh2_session(sw.addr, &dir.join("known_hosts"));
        let err = session.userauth_password("admin", "wrong").unwrap_err();
        assert!(!session.authenticated(), "{err}");
        // Refused like OpenSSH refuses: the methods still open are offered again.
        let methods = session.auth_methods("admin").unwrap();
        assert!(
            methods.contains("password") && methods.contains("publickey"),
            "{methods}"
        );
        session.userauth_password("admin", "admin").unwrap();
        assert!(session.authenticated());
        sw.fingerprint.clone()
    };
    // A restart reads the same host key back.
    let lab = lab(&dir);
    assert_eq!(lab.switches[0].fingerprint, first);
}

/// The OpenSSH client in a pseudo-terminal, driven like a person at a keyboard.
pub fn openssh(dir: &Path, port: u16, extra: &[&str]) -> rexpect::session::PtySession {
    let mut cmd = Command::new("ssh");
    cmd.args(["-F", "/dev/null", "-o", "StrictHostKeyChecking=yes"])
        .arg("-o")
        .arg(format!(
            "UserKnownHostsFile={}",
            dir.join("known_hosts").display()
        ))
        .args(["-p", &port.to_string()])
        .args(extra)
        .arg("admin@127.0.0.1");
    rexpect::session::spawn_command(cmd, Some(15_000)).expect("ssh starts in a PTY")
}

/// [`openssh`] logging in with the key `key` only, never asking for a password.
pub fn openssh_key(dir: &Path, port: u16, key: &Path) -> rexpect::session::PtySession {
    let key = key.display().to_string();
    let batch = [
        "-i",
        &key,
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "BatchMode=yes",
    ];
    openssh(dir, port, &batch)
}

#[test]
fn openssh_client_logs_in_with_a_key_and_configures() {
    let dir = scratch("openssh-key");
    let key = keypair(&dir);
    let lab = lab(&dir);
    let mut p = openssh_key(&dir, lab.switches[0].addr.port(), &key);
    p.exp_string("NVIDIA Switch").unwrap();
    p.exp_string("leaf01 [standalone: master] > ").unwrap();
    p.send_line("enable").unwrap();
    p.exp_string("leaf01 [standalone: master] # ").unwrap();
    p.send_line("conf t").unwrap();
    p.exp_string("leaf01 [standalone: master] (config) # ")
        .unwrap();
    p.send_line("int eth 1/7").unwrap();
    p.exp_string("(config interface ethernet 1/7) # ").unwrap();
    p.send_line("mtu 9216 force").unwrap();
    p.exp_string("(config interface ethernet 1/7) # ").unwrap();
    p.send_line("exit").unwrap();
    p.exp_string("(config) # ").unwrap();
    p.send_line("show running-config | include 1/7").unwrap();
    p.exp_string("   interface ethernet 1/7 mtu 9216 force")
        .unwrap();
    p.exp_string("(config) # ").unwrap();
    // The pager, key by key: Enter shows a line, space a page, `q` quits.
    p.send_line("terminal length 10").unwrap();
    p.exp_string("(config) # ").unwrap();
    p.send_line("show running-config").unwrap();
    p.exp_string("lines 1-9 ").unwrap();
    p.send("\r").unwrap();
    p.flush().unwrap();
    p.exp_string("lines 2-10 ").unwrap();
    p.send(" ").unwrap();
    p.flush().unwrap();
    p.exp_string("lines 11-19 ").unwrap();
    p.send("q").unwrap();
    p.flush().unwrap();
    p.exp_string("(config) # ").unwrap();
    p.send_line("exit").unwrap();
    p.send_line("exit").unwrap();
    p.exp_eof().unwrap();
}

#[test]
fn openssh_client_with_a_password_and_a_refusal() {
    let dir = scratch("openssh-password");
    let lab = lab(&dir);
    let port = lab.switches[0].addr.port();
    // Keyboard-interactive, as OpenSSH prefers it, then the plain password method.
    let interactive = ["-o", "PreferredAuthentications=keyboard-interactive"];
    let mut p = openssh(&dir, port, &interactive);
    p.exp_regex("(?i)password: ").unwrap();
    p.send_line("admin").unwrap();
    p.exp_string("leaf01 [standalone: master] > ").unwrap();
    p.send_line("exit").unwrap();
    p.exp_eof().unwrap();

    let password = [
        "-o",
        "PreferredAuthentications=password",
        "-o",
        "NumberOfPasswordPrompts=2",
    ];
    let mut p = openssh(&dir, port, &password);
    for _ in 0..2 {
        p.exp_regex("(?i)password: ").unwrap();
        p.send_line("not-the-password").unwrap();
    }
    p.exp_string("Permission denied").unwrap();
    p.exp_eof().unwrap();
}

/// Writes a switch's fault control file.
fn faults(dir: &Path, yaml: &str) {
    std::fs::write(dir.join(HOST).join("faults.yaml"), yaml).unwrap();
}

fn configuring(lab: &Lab, dir: &Path) -> Shell {
    let mut sh = Shell::open(lab.switches[0].addr, &dir.join("known_hosts"));
    for line in [
        "no cli session paging enable",
        "enable",
        "configure terminal",
    ] {
        sh.send(line).unwrap();
    }
    sh
}

#[test]
fn faults_refuse_drop_and_hang() {
    let dir = scratch("faults");
    let lab = lab(&dir);
    let device = lab.switches[0].device.clone();
    let mut sh = configuring(&lab, &dir);
    let before = crate::onyx_running(&device);

    faults(
        &dir,
        "refuse:\n  - { match: \"mtu 9216\", error: \"% MTU 9216 is not allowed\" }\n",
    );
    assert_eq!(
        sh.send("interface ethernet 1/2 mtu 9216 force").unwrap(),
        "% MTU 9216 is not allowed\n"
    );
    assert_eq!(
        crate::onyx_running(&device),
        before,
        "a refused command changes nothing"
    );
    sh.send("interface ethernet 1/2 mtu 1500 force").unwrap();
    assert_ne!(crate::onyx_running(&device), before);

    // Dropped at the second command from now: the first is answered, the second is not
    // applied, the connection ends.
    faults(&dir, "drop: { after: 1 }\n");
    sh.send("interface ethernet 1/3 description one").unwrap();
    let lost = sh.send("interface ethernet 1/4 description two");
    assert!(lost.is_err(), "{lost:?}");
    let log: Vec<String> = device.log().into_iter().map(|(_, l)| l).collect();
    assert_eq!(
        log.last().unwrap(),
        "interface ethernet 1/4 description two"
    );
    let running = fabric::onyx::Renderer::embedded()
        .unwrap()
        .render(&crate::onyx_running(&device))
        .unwrap();
    // A lab switch runs Onyx 3.10, which quotes descriptions.
    assert!(
        running.contains("description \"one\"") && !running.contains("\"two\""),
        "{running}"
    );

    // A hang: no reply, no prompt; the client's timeout is all it gets.
    faults(&dir, "hang: { match: \"show\" }\n");
    let mut sh = configuring(&lab, &dir);
    sh._session.set_timeout(800);
    let hung = sh.send("show running-config");
    assert!(hung.is_err_and(|text| !text.contains(" # ")));
}

#[test]
fn faults_delay_noise_and_drift() {
    let dir = scratch("faults2");
    let lab = lab(&dir);
    faults(&dir, "delay_ms: 300\n");
    let mut sh = configuring(&lab, &dir);
    let start = Instant::now();
    sh.send("show version").unwrap();
    assert!(start.elapsed() >= Duration::from_millis(300));

    // Onyx 3.10's noise around output; the reader's `clean` removes it.
    faults(&dir, "noise: true\n");
    sh.channel.write_all(b"show version\r").unwrap();
    let raw = sh.until(|t| t.ends_with(" # ")).unwrap();
    assert!(raw.contains("\x1b[?1h\x1b=\rProduct name:"), "{raw:?}");
    assert!(
        raw.contains("\r\x1b[K\0\0\0\0\0\0\0\0\0\0\0\0\x1b[?1l\x1b>\r"),
        "{raw:?}"
    );

    // The running config changes behind the client's back after the first read.
    faults(
        &dir,
        "drift:\n  match: show running-config\n  commands: [\"interface ethernet 1/9 description moved\"]\n",
    );
    let first = sh.send("show running-config").unwrap();
    assert!(!first.contains("moved"));
    let second = sh.send("show running-config").unwrap();
    assert!(
        second.contains("   interface ethernet 1/9 description \"moved\"\n"),
        "{second}"
    );
}

pub fn fabric_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

pub fn rdg() -> PathBuf {
    crate::root().join("fabrics/rdg-roce-dscp.yaml")
}

/// A child process killed when the test ends, passed or not.
pub struct Killed(pub std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `fabric lab` as a user runs it: the table, the inventory and known_hosts files.
pub fn start_lab_process(state: &Path, extra: &[&std::ffi::OsStr]) -> (Killed, String) {
    start_lab_of(&rdg(), state, extra, &[])
}

/// `fabric lab` for a fabric, with these environment variables.
pub fn start_lab_of(
    fabric: &Path,
    state: &Path,
    extra: &[&std::ffi::OsStr],
    env: &[(&str, &str)],
) -> (Killed, String) {
    let child = fabric_bin()
        .arg("lab")
        .arg(fabric)
        .envs(env.iter().copied())
        .arg("--state")
        .arg(state)
        .args(["--base-port", "0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut child = Killed(child);
    let table = table(&mut child.0);
    (child, table)
}

/// What `fabric lab` prints up to its last line before it waits for Ctrl-C.
pub fn table(child: &mut std::process::Child) -> String {
    let mut out = child.stdout.take().unwrap();
    let mut text = String::new();
    let mut buf = [0u8; 4096];
    while !text.contains("Ctrl-C stops the lab") {
        let n = out.read(&mut buf).unwrap();
        assert!(n > 0, "fabric lab ended early: {text}");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    text
}

/// The inventory a running `fabric lab` wrote in its state folder.
pub fn lab_inventory(state: &Path) -> fabric::fabric::Inventory {
    let text = std::fs::read_to_string(state.join("inventory.yaml")).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

pub fn inventory_addr(state: &Path) -> std::net::SocketAddr {
    let inv = lab_inventory(state);
    let a = &inv.switches["swx-mld-1-2"];
    assert_eq!(a.user, "admin");
    format!("{}:{}", a.host, a.port).parse().unwrap()
}

#[test]
fn fabric_lab_serves_the_fabric_and_saved_config_survives_a_restart() {
    let state = scratch("process");
    let (child, table) = start_lab_process(&state, &[]);
    assert!(table.starts_with("switch       address"), "{table}");
    let fingerprint = table
        .lines()
        .nth(1)
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap()
        .to_string();
    assert!(fingerprint.starts_with("SHA256:"));
    let known = state.join("known_hosts");
    let mut sh = Shell::open(inventory_addr(&state), &known);
    for line in [
        "no cli session paging enable",
        "enable",
        "configure terminal",
    ] {
        sh.send(line).unwrap();
    }
    sh.send("interface ethernet 1/5 description saved-one")
        .unwrap();
    sh.send("configuration write").unwrap();
    sh.send("interface ethernet 1/6 description unsaved-one")
        .unwrap();
    let files = sh.send("show configuration files").unwrap();
    assert!(files.contains("Unsaved changes : yes"), "{files}");
    drop(sh);
    drop(child);

    // A restart boots from the saved file, with the same host key.
    let (_child, table) = start_lab_process(&state, &[]);
    assert!(table.contains(&fingerprint), "{table}");
    let mut sh = Shell::open(inventory_addr(&state), &known);
    sh.send("no cli session paging enable").unwrap();
    sh.send("enable").unwrap();
    let shown = sh.send("show running-config").unwrap();
    assert!(shown.contains("description saved-one"), "{shown}");
    assert!(!shown.contains("unsaved-one"), "{shown}");
}

/// One `--stdio` session: the lines in, everything printed out.
fn stdio_session(state: &Path, input: &str) -> String {
    stdio_session_of(&rdg(), state, "swx-mld-1-2", &[], input)
}

/// One `fabric lab FABRIC --stdio SWITCH` session (with `extra` arguments).
pub fn stdio_session_of(
    fabric: &Path,
    state: &Path,
    switch: &str,
    extra: &[&std::ffi::OsStr],
    input: &str,
) -> String {
    let mut child = fabric_bin()
        .arg("lab")
        .arg(fabric)
        .arg("--state")
        .arg(state)
        .arg("--stdio")
        .arg(switch)
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn stdio_sessions_share_the_running_config() {
    let state = scratch("stdio");
    let out = stdio_session(
        &state,
        "enable\nconfigure terminal\ninterface ethernet 1/5 mtu 9216 force\nexit\nexit\n",
    );
    assert!(
        out.starts_with("Number of total successful connections"),
        "{out}"
    );
    assert!(
        out.contains("\rswx-mld-1-2 [standalone: master] (config) # "),
        "{out}"
    );
    // The next session (a new process, as sshd starts one per login) sees the change.
    let out = stdio_session(
        &state,
        "no cli session paging enable\nenable\nshow running-config | include 1/5\nexit\n",
    );
    assert!(
        out.contains("   interface ethernet 1/5 mtu 9216 force\n"),
        "{out}"
    );
}

#[test]
fn fabric_lab_starts_from_a_backup() {
    let state = scratch("from");
    let backups = state.join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    let golden = crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg");
    std::fs::copy(&golden, backups.join("swx-mld-1-2.cfg")).unwrap();
    let state = state.join("lab");
    let _lab = start_lab_process(&state, &["--from".as_ref(), backups.as_os_str()]);
    let mut sh = Shell::open(inventory_addr(&state), &state.join("known_hosts"));
    sh.send("no cli session paging enable").unwrap();
    sh.send("enable").unwrap();
    let shown: String = sh
        .send("show running-config")
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("## Generated at "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(shown, std::fs::read_to_string(&golden).unwrap());
}

fn diff_live(state: &Path, extra: &[&std::ffi::OsStr]) -> (i32, String) {
    crate::run(
        fabric_bin()
            .arg("diff")
            .arg(rdg())
            .arg("--inventory")
            .arg(state.join("inventory.yaml"))
            .args(["--format", "commands"])
            .args(extra)
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    )
}

/// `fabric diff` without `--running` reads the switch over SSH, through the inventory
/// `fabric lab` wrote; host keys are checked strictly, `--accept-new` records a new one.
#[test]
fn live_diff_through_the_lab_inventory_and_host_keys() {
    let state = scratch("live-diff");
    let _lab = start_lab_process(&state, &[]);
    let (code, out) = diff_live(&state, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("traffic pool roce type lossless\n"), "{out}");

    // Unknown host: refused, with the fingerprint and the way to trust it.
    let empty = state.join("empty_known_hosts");
    let (code, out) = diff_live(&state, &["--known-hosts".as_ref(), empty.as_os_str()]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("is not a known host (ssh-ed25519 SHA256:"),
        "{out}"
    );
    assert!(out.contains("--accept-new"), "{out}");
    // `--accept-new` records it; the next run needs no flag.
    let accept = [
        "--known-hosts".as_ref(),
        empty.as_os_str(),
        "--accept-new".as_ref(),
    ];
    assert_eq!(diff_live(&state, &accept).0, 1);
    assert_eq!(
        diff_live(&state, &["--known-hosts".as_ref(), empty.as_os_str()]).0,
        1
    );

    // A changed key is refused, --accept-new or not.
    let other = state.join("other_known_hosts");
    let line = std::fs::read_to_string(&empty).unwrap();
    let (host, _) = line.split_once(' ').unwrap();
    std::fs::write(
        &other,
        format!("{host} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOV1ha6AqfECtgao5cp3NfsQK/RqyFQfIxVMRrFCYB0l\n"),
    )
    .unwrap();
    let changed = [
        "--known-hosts".as_ref(),
        other.as_os_str(),
        "--accept-new".as_ref(),
    ];
    let (code, out) = diff_live(&state, &changed);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("has CHANGED"), "{out}");
}

pub fn push_inventory(
    state: &Path,
    known_hosts: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (i32, String) {
    push_inventory_of(&rdg(), state, known_hosts, extra, env)
}

/// `fabric push FABRIC --inventory` to the switches of a running `fabric lab`.
pub fn push_inventory_of(
    fabric: &Path,
    state: &Path,
    known_hosts: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (i32, String) {
    let mut cmd = fabric_bin();
    cmd.current_dir(state)
        .arg("push")
        .arg(fabric)
        .arg("--inventory")
        .arg(state.join("inventory.yaml"))
        .arg("--known-hosts")
        .arg(known_hosts)
        .arg("--yes")
        .args(extra)
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    for (k, v) in env {
        cmd.env(k, v);
    }
    crate::run(&mut cmd)
}

/// On a switch that is not the in-process lab, disruptive commands need the flag.
#[test]
fn disruptive_commands_need_allow_disruptive() {
    let state = scratch("disruptive");
    let _lab = start_lab_process(&state, &[]);
    let kh = state.join("known_hosts");
    let (code, out) = push_inventory(&state, &kh, &[], &[("FABRIC_PASSWORD", "admin")]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("disruptive command(s) refused without `--allow-disruptive`"),
        "{out}"
    );
    let log = std::fs::read_to_string(state.join("swx-mld-1-2/commands.log")).unwrap();
    assert!(!log.contains("configure terminal"), "{log}");
    let (code, out) = push_inventory(
        &state,
        &kh,
        &["--allow-disruptive"],
        &[("FABRIC_PASSWORD", "admin")],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("converged"), "{out}");
}

/// A free loopback port (bound, then released for another server to take).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// OpenSSH's `sshd` on a loopback port, serving the lab's CLI for `rdg-roce-dscp`'s switch on
/// stdio (`ForceCommand fabric lab … --stdio swx-mld-1-2`, state in `dir/lab`), with a host key
/// of each type asked for (`ed25519`, `rsa`, `ecdsa`) and a user key pair (`dir/id`) that may
/// log in; stopped when dropped.
pub struct Sshd {
    pub port: u16,
    /// The user running the tests, who logs in.
    pub user: String,
    /// The private key that logs in.
    pub user_key: PathBuf,
    /// Each host key's public half as a `known_hosts` line's key part (`ssh-ed25519 AAAA…`).
    pub host_keys: Vec<String>,
    _child: Killed,
}

pub fn sshd(dir: &Path, key_types: &[&str]) -> Sshd {
    let force = format!(
        "ForceCommand {} lab {} --state {} --stdio swx-mld-1-2\n",
        env!("CARGO_BIN_EXE_fabric"),
        rdg().display(),
        dir.join("lab").display(),
    );
    sshd_with(dir, key_types, &force)
}

/// OpenSSH's `sshd` as [`sshd`] starts it, with `tail` as the end of its configuration
/// instead of the lab's `ForceCommand` (a bastion's forwarding rules); its log in
/// `dir/sshd.log`.
pub fn sshd_with(dir: &Path, key_types: &[&str], tail: &str) -> Sshd {
    let sshd = Path::new("/usr/sbin/sshd");
    assert!(
        sshd.exists(),
        "OpenSSH's sshd is needed (Debian openssh-server; .ci/run installs it)"
    );
    let _ = std::fs::create_dir_all("/run/sshd");
    let mut host_keys = Vec::new();
    let mut config = String::new();
    for ty in key_types {
        let host_key = dir.join(format!("host_key_{ty}"));
        let status = Command::new("ssh-keygen")
            .args(["-q", "-t", ty, "-N", "", "-f"])
            .arg(&host_key)
            .status()
            .unwrap();
        assert!(status.success());
        let public = std::fs::read_to_string(host_key.with_extension("pub")).unwrap();
        let mut fields = public.split_whitespace();
        host_keys.push(format!(
            "{} {}",
            fields.next().unwrap(),
            fields.next().unwrap()
        ));
        config.push_str(&format!("HostKey {}\n", host_key.display()));
    }
    let user_key = keypair(dir);
    std::fs::copy(dir.join("id.pub"), dir.join("authorized_keys")).unwrap();
    let port = free_port();
    let user = std::env::var("USER")
        .ok()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| {
            String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout)
                .unwrap()
                .trim()
                .to_string()
        });
    config.push_str(&format!(
        "Port {port}\nListenAddress 127.0.0.1\nAuthorizedKeysFile {}\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\nPidFile {}\n{tail}",
        dir.join("authorized_keys").display(),
        dir.join("sshd.pid").display(),
    ));
    std::fs::write(dir.join("sshd_config"), config).unwrap();
    let child = Command::new(sshd)
        .arg("-D")
        .arg("-e")
        .arg("-f")
        .arg(dir.join("sshd_config"))
        .stderr(std::fs::File::create(dir.join("sshd.log")).unwrap())
        .spawn()
        .unwrap();
    let child = Killed(child);
    let deadline = Instant::now() + Duration::from_secs(10);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "sshd did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    Sshd {
        port,
        user,
        user_key,
        host_keys,
        _child: child,
    }
}

/// Interop with a server nobody here wrote: the real OpenSSH `sshd` on loopback serving the
/// lab's CLI on stdio (`ForceCommand fabric lab … --stdio`), and a push through it.
#[test]
fn push_through_openssh_sshd_with_the_lab_cli_as_force_command() {
    let dir = scratch("sshd");
    let sshd = sshd(&dir, &["ed25519"]);
    let port = sshd.port;
    std::fs::write(
        dir.join("known_hosts"),
        format!("[127.0.0.1]:{port} {}\n", sshd.host_keys[0]),
    )
    .unwrap();
    std::fs::write(
        dir.join("inventory.yaml"),
        format!(
            "switches:\n  swx-mld-1-2: {{ host: 127.0.0.1, port: {port}, user: {} }}\n",
            sshd.user
        ),
    )
    .unwrap();
    let key = sshd.user_key.display().to_string();
    let (code, out) = push_inventory(
        &dir,
        &dir.join("known_hosts"),
        &["--identity", &key, "--allow-disruptive"],
        &[],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("converged"), "{out}");
    let saved = std::fs::read_to_string(dir.join("lab/swx-mld-1-2/saved/initial.cfg")).unwrap();
    let golden =
        std::fs::read_to_string(crate::root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg"))
            .unwrap();
    assert_eq!(saved, golden);
}

/// On a terminal without `FABRIC_PASSWORD`, the password is asked for (not echoed).
#[test]
fn the_password_is_asked_on_a_terminal() {
    let state = scratch("ask-password");
    let _lab = start_lab_process(&state, &[]);
    let mut cmd = fabric_bin();
    cmd.current_dir(&state)
        .args(["diff"])
        .arg(rdg())
        .arg("--inventory")
        .arg(state.join("inventory.yaml"))
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    let mut p = rexpect::session::spawn_command(cmd, Some(30_000)).unwrap();
    p.exp_string("Password for the switches: ").unwrap();
    p.send_line("admin").unwrap();
    p.exp_string("traffic pool roce type lossless").unwrap();
    p.exp_eof().unwrap();
}

/// Keys from an ssh-agent log in when no password is given.
#[test]
fn an_ssh_agent_key_logs_in() {
    let state = scratch("agent");
    let key = keypair(&state);
    let sock = state.join("agent.sock");
    let agent = Command::new("ssh-agent")
        .arg("-D")
        .arg("-a")
        .arg(&sock)
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let _agent = Killed(agent);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !sock.exists() {
        assert!(Instant::now() < deadline, "ssh-agent did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    let added = Command::new("ssh-add")
        .arg(&key)
        .env("SSH_AUTH_SOCK", &sock)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(added.success());
    let public = state.join("id.pub");
    let _lab = start_lab_process(&state, &["--authorized-keys".as_ref(), public.as_os_str()]);
    let sock = sock.display().to_string();
    let (code, out) = push_inventory(
        &state,
        &state.join("known_hosts"),
        &["--dry-run"],
        &[("SSH_AUTH_SOCK", &sock)],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("8 command(s)"), "{out}");
}

/// A switch that takes the password only as keyboard-interactive: the client answers its
/// prompt (and a wrong password is still refused).
#[test]
fn keyboard_interactive_only_switch() {
    let dir = scratch("kbd-interactive");
    let mut logins = Logins::factory();
    logins.password_method = false;
    let lab = lab_with(&dir, logins);
    let served = &lab.switches[0];
    let target = fabric::device::Target::new(HOST, "127.0.0.1", served.addr.port(), "admin");
    let mut opts = fabric::device::Options::new(dir.join("known_hosts"));
    opts.password = Some(fabric::device::Secret("admin".into()));
    let onyx = &fabric::onyx::dialect::DIALECT;
    let mut cli = fabric::device::Cli::open_as(&target, &opts, onyx).unwrap();
    let (_, config) = fabric::onyx::dialect::fetch(&mut cli).unwrap();
    assert_eq!(config.hostname.as_deref(), Some(HOST));
    cli.close();
    opts.password = Some(fabric::device::Secret("wrong".into()));
    let err = fabric::device::Cli::open_as(&target, &opts, onyx)
        .err()
        .unwrap();
    assert!(
        err.to_string().contains("tried keyboard-interactive"),
        "{err}"
    );
}

/// Every command of an audit's sessions (`SESSION<TAB>LINE` lines of a lab's log) is a
/// `show` command, OS10's `dir config` (a listing: a push lists its snapshots after its save)
/// or the session's own setup (Onyx's paging off and `enable`, OS10's `terminal length 0`).
pub fn assert_read_only<'a>(lines: impl Iterator<Item = &'a str>) {
    let mut n = 0;
    for line in lines {
        let command = line.split_once('\t').map_or(line, |(_, c)| c);
        assert!(
            command.starts_with("show ")
                || [
                    "no cli session paging enable",
                    "enable",
                    "exit",
                    "terminal length 0",
                    "dir config"
                ]
                .contains(&command),
            "an audit sent `{command}`"
        );
        n += 1;
    }
    assert!(n > 0, "nothing was sent");
}

/// `fabric audit --live` through `fabric lab`'s inventory: drift and, after a change made by
/// hand and not saved, R027; the audits' sessions send only `show` commands.
#[test]
fn live_audit_finds_unsaved_changes_and_only_reads() {
    let state = scratch("live-audit");
    let _lab = start_lab_process(&state, &[]);
    let log = state.join("swx-mld-1-2/commands.log");
    let audit = || {
        let before = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count();
        let (code, out) = crate::run(
            fabric_bin()
                .arg("audit")
                .arg(rdg())
                .arg("--live")
                .arg("--inventory")
                .arg(state.join("inventory.yaml"))
                .args(["--format", "json", "--fail-on", "never"])
                .env("FABRIC_PASSWORD", "admin")
                .env_remove("SSH_AUTH_SOCK"),
        );
        assert_eq!(code, 0, "{out}");
        let text = std::fs::read_to_string(&log).unwrap();
        assert_read_only(text.lines().skip(before));
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let rules: std::collections::BTreeSet<String> = json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_string())
            .collect();
        rules
    };
    let rules = audit();
    assert!(
        rules.contains("R036") && !rules.contains("R027"),
        "{rules:?}"
    );
    let mut sh = Shell::open(inventory_addr(&state), &state.join("known_hosts"));
    for line in [
        "no cli session paging enable",
        "enable",
        "configure terminal",
        "interface ethernet 1/5 mtu 9000 force",
    ] {
        sh.send(line).unwrap();
    }
    let rules = audit();
    assert!(rules.contains("R027"), "{rules:?}");
    // Without the fabric: the inventory's switches, best practice only (no drift).
    let (code, out) = crate::run(
        fabric_bin()
            .args(["audit", "--live", "--inventory"])
            .arg(state.join("inventory.yaml"))
            .args(["--fail-on", "never"])
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("swx-mld-1-2") && out.contains("R027") && !out.contains("R036"),
        "{out}"
    );
}

/// `fabric import --live` reads a switch of `fabric lab` with `show` commands only, and the
/// fabric it writes compiles back to what the switch runs.
#[test]
fn import_reads_a_live_switch() {
    let state = scratch("import-live");
    let from = crate::root().join("golden/rdg-roce-dscp");
    let _lab = start_lab_process(&state, &["--from".as_ref(), from.as_os_str()]);
    let addr = inventory_addr(&state);
    let imported = state.join("imported.yaml");
    let (code, out) = crate::run(
        fabric_bin()
            .arg("import")
            .arg("--live")
            .arg(format!("swx-mld-1-2=admin@{}:{}", addr.ip(), addr.port()))
            .arg("--known-hosts")
            .arg(state.join("known_hosts"))
            .arg("-o")
            .arg(&imported)
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    );
    assert_eq!(code, 0, "{out}");
    let yaml = std::fs::read_to_string(&imported).unwrap();
    assert!(yaml.contains("# from ssh://admin@127.0.0.1:"), "{yaml}");
    assert!(yaml.contains("model: SN2700"), "{yaml}");
    assert!(yaml.contains("port_defaults:\n  trust: L3\n"), "{yaml}");
    let log = std::fs::read_to_string(state.join("swx-mld-1-2/commands.log")).unwrap();
    assert_read_only(log.lines());
    // The imported fabric against the live switch: no drift.
    let (code, out) = crate::run(
        fabric_bin()
            .arg("diff")
            .arg(&imported)
            .arg("--inventory")
            .arg(state.join("inventory.yaml"))
            .env("FABRIC_PASSWORD", "admin")
            .env_remove("SSH_AUTH_SOCK"),
    );
    assert_eq!(code, 0, "{out}");
}

/// `ssh` with its input from a pipe (no terminal): the lab answers what was sent, then ends
/// the session at the client's EOF as an SSH server ends a shell, exit status 0.
#[test]
fn openssh_without_a_terminal_ends_at_eof() {
    let dir = scratch("eof");
    let key = keypair(&dir);
    let lab = lab(&dir);
    let port = lab.switches[0].addr.port().to_string();
    let mut child = openssh_batch(&dir, &key, &port)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The last line has no line end: it is run too.
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"enable\nshow version\nshow users")
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the session did not end at EOF");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("Product name:      Onyx"), "{text}");
    assert!(text.contains("* admin "), "{text}");
    // The session is no longer listed.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !lab.switches[0].device.snapshot().logins.is_empty() {
        assert!(
            Instant::now() < deadline,
            "the ended session is still listed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A line longer than the lab reads is never run as its beginning: refused whole, with an
/// error, the switch untouched; the session goes on. Over SSH with a terminal, and on
/// `--stdio`.
#[test]
fn an_overlong_line_is_refused_whole() {
    let dir = scratch("overlong");
    let lab = lab(&dir);
    let device = lab.switches[0].device.clone();
    let mut sh = configuring(&lab, &dir);
    let before = crate::onyx_running(&device);
    let line = format!("interface ethernet 1/4 shutdown{}", "x".repeat(2 << 20));
    let reply = sh.send(&line).unwrap();
    assert!(
        reply.contains(&format!(
            "% Command line too long ({} bytes); not run.",
            line.len()
        )),
        "{}",
        &reply[reply.len().saturating_sub(300)..]
    );
    assert_eq!(
        crate::onyx_running(&device),
        before,
        "part of the line was run"
    );
    // The session goes on.
    sh.send("interface ethernet 1/5 shutdown").unwrap();
    assert_ne!(crate::onyx_running(&device), before);

    let state = scratch("overlong-stdio");
    let out = stdio_session(
        &state,
        &format!("enable\nconfigure terminal\n{line}\nshow running-config | include shutdown\n"),
    );
    assert!(out.contains("% Command line too long ("), "{}", &out[..500]);
    assert!(!out.contains("   interface ethernet 1/4 shutdown"), "{out}");
}

/// `show users` lists the sessions logged in, the asking one marked `*`; a session that
/// ends is gone from it.
#[test]
fn show_users_lists_the_sessions() {
    let dir = scratch("users");
    let lab = lab(&dir);
    let mut one = configuring(&lab, &dir);
    let mut two = configuring(&lab, &dir);
    let listed = one.send("show users").unwrap();
    assert!(listed.contains("USERNAME"), "{listed}");
    let rows: Vec<&str> = listed.lines().filter(|l| l.contains(" admin ")).collect();
    assert_eq!(rows.len(), 2, "{listed}");
    assert_eq!(rows.iter().filter(|r| r.starts_with('*')).count(), 1);
    assert!(rows.iter().all(|r| r.contains("127.0.0.1")), "{listed}");
    two.send("exit").unwrap_or_default();
    two.send("exit").unwrap_or_default();
    let deadline = Instant::now() + Duration::from_secs(10);
    while lab.switches[0].device.snapshot().logins.len() != 1 {
        assert!(
            Instant::now() < deadline,
            "the ended session is still listed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let listed = one.send("show users").unwrap();
    assert_eq!(listed.matches(" admin ").count(), 1, "{listed}");
}

/// `configuration delete` removes a saved file (not the active one), on the switch and in
/// its state folder.
#[test]
fn configuration_delete_removes_a_saved_file() {
    let dir = scratch("delete");
    let lab = lab(&dir);
    let mut sh = configuring(&lab, &dir);
    sh.send("configuration write to snap-1 no-switch").unwrap();
    assert!(dir.join(HOST).join("saved/snap-1.cfg").exists());
    assert_eq!(
        sh.send("configuration delete initial").unwrap(),
        "% Cannot delete the active configuration file \"initial\".\n"
    );
    assert_eq!(
        sh.send("configuration delete nothing").unwrap(),
        "% Configuration file \"nothing\" does not exist.\n"
    );
    assert_eq!(sh.send("configuration delete snap-1").unwrap(), "\n");
    let files = sh.send("show configuration files").unwrap();
    assert!(!files.contains("snap-1"), "{files}");
    assert!(!dir.join(HOST).join("saved/snap-1.cfg").exists());
    assert!(dir.join(HOST).join("saved/initial.cfg").exists());
}

/// `applied` faults: the command takes effect, then the connection drops or hangs; a
/// `truncate` fault cuts an output short, the prompt after it.
#[test]
fn faults_applied_and_truncate() {
    let dir = scratch("faults3");
    let lab = lab(&dir);
    let device = lab.switches[0].device.clone();

    faults(
        &dir,
        "drop: { match: \"configuration write\", applied: true }\n",
    );
    let mut sh = configuring(&lab, &dir);
    sh.send("interface ethernet 1/3 description one").unwrap();
    assert!(sh.send("configuration write").is_err());
    assert!(!device.snapshot().unsaved(), "the save took effect");

    faults(&dir, "hang: { match: \"description\", applied: true }\n");
    let mut sh = configuring(&lab, &dir);
    sh._session.set_timeout(800);
    assert!(sh.send("interface ethernet 1/3 description two").is_err());
    let running = crate::onyx_running(&device);
    assert_eq!(
        running
            .interfaces
            .values()
            .find_map(|i| i.description.clone()),
        Some("two".to_string())
    );

    faults(
        &dir,
        "truncate: { match: \"show running-config\", lines: 5 }\n",
    );
    let mut sh = configuring(&lab, &dir);
    let cut = sh.send("show running-config").unwrap();
    assert_eq!(cut.lines().count(), 5, "{cut}");
    let whole = sh.send("show running-config").unwrap();
    assert!(
        whole
            .trim_end()
            .ends_with("cli default prefix-modes enable"),
        "{whole}"
    );
}

/// `fabric push --yes` from `dir` through the lab's inventory and known_hosts, as a process
/// left running (its output piped).
fn spawn_push(dir: &Path, state: &Path, env: &[(&str, &std::ffi::OsStr)]) -> std::process::Child {
    std::fs::create_dir_all(dir).unwrap();
    let mut cmd = fabric_bin();
    cmd.current_dir(dir)
        .arg("push")
        .arg(rdg())
        .arg("--inventory")
        .arg(state.join("inventory.yaml"))
        .arg("--known-hosts")
        .arg(state.join("known_hosts"))
        .args(["--yes", "--allow-disruptive"])
        .env("FABRIC_PASSWORD", "admin")
        .env_remove("SSH_AUTH_SOCK")
        .env_remove("FABRIC_LOCK_DIR")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().unwrap()
}

/// Waits (at most a minute) for a child to end: its exit code and output.
fn finish(mut child: std::process::Child) -> (i32, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// The commands a lab switch of a `fabric lab` process received, in order.
fn commands(state: &Path) -> Vec<String> {
    std::fs::read_to_string(state.join("swx-mld-1-2/commands.log"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.split_once('\t').map_or(l, |(_, c)| c).to_string())
        .collect()
}

/// Waits (at most a minute) until the switch's command log satisfies `ready`.
fn wait_for_commands(state: &Path, ready: impl Fn(&[String]) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ready(&commands(state)) {
        assert!(Instant::now() < deadline, "{:?}", commands(state));
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The running config of the switch of a `fabric lab` process, read over SSH (the session
/// ended before this returns).
fn running_config(state: &Path) -> fabric::onyx::Config {
    let mut sh = Shell::open(inventory_addr(state), &state.join("known_hosts"));
    sh.send("no cli session paging enable").unwrap();
    sh.send("enable").unwrap();
    let text = sh.send("show running-config").unwrap();
    let _ = sh.send("exit");
    let _ = sh.until(|_| false);
    fabric::onyx::parse(&text).unwrap()
}

fn kill(child: &std::process::Child, signal: &str) {
    let signal = match signal {
        "INT" => libc::SIGINT,
        "TERM" => libc::SIGTERM,
        other => panic!("no signal {other}"),
    };
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) with a child's pid that was not reaped yet and a valid signal number.
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "{}", std::io::Error::last_os_error());
}

/// SIGINT or SIGTERM while a push applies its plan: the switch is rolled back to its
/// snapshot (read from the switch afterwards), nothing is saved, the push says what happened
/// and exits 130 or 143. A second signal during the roll-back says the roll-back goes on.
#[test]
fn a_signal_mid_apply_rolls_back_then_exits() {
    for (signal, code, twice) in [("INT", 130, false), ("TERM", 143, true)] {
        let state = scratch(&format!("signal-{signal}"));
        let _lab = start_lab_process(&state, &[]);
        let before = running_config(&state);
        std::fs::write(state.join("swx-mld-1-2/faults.yaml"), "delay_ms: 300\n").unwrap();
        let push = spawn_push(&state.join("push"), &state, &[]);
        // Mid-apply: two commands of the plan sent.
        wait_for_commands(&state, |c| {
            c.iter().skip_while(|l| *l != "configure terminal").count() >= 3
        });
        kill(&push, signal);
        if twice {
            std::thread::sleep(Duration::from_millis(100));
            kill(&push, signal);
        }
        let (got, out) = finish(push);
        assert_eq!(got, code, "SIG{signal}: {out}");
        for said in [
            format!("SIG{signal}: stopping the push"),
            format!("stopped by SIG{signal} after "),
            "rolled back to the running config before the push (verified), nothing saved"
                .to_string(),
            format!("stopped by SIG{signal}: no switch was started after it"),
        ] {
            assert!(out.contains(&said), "SIG{signal}: `{said}` in {out}");
        }
        if twice {
            assert!(
                out.contains(&format!("SIG{signal} again: waiting for the roll-backs")),
                "{out}"
            );
        }
        std::fs::remove_file(state.join("swx-mld-1-2/faults.yaml")).unwrap();
        let log = commands(&state);
        assert!(!log.iter().any(|l| l == "configuration write"), "{log:?}");
        // Licenses are added, never removed (by a plan or a roll-back).
        let mut after = running_config(&state);
        after.licenses.clear();
        assert_eq!(after, before, "SIG{signal}: not rolled back");
    }
}

/// Two pushes to one switch never interleave: from another folder of the same machine the
/// second is refused by the lock, naming who holds it, before it reads anything; from
/// another machine (its own locks) it sees the first one's session on the switch and sends
/// nothing.
#[test]
fn two_pushes_to_one_switch_never_interleave() {
    let state = scratch("two-pushes");
    let _lab = start_lab_process(&state, &[]);
    let port = inventory_addr(&state).port();
    std::fs::write(state.join("swx-mld-1-2/faults.yaml"), "delay_ms: 300\n").unwrap();
    let first = spawn_push(&state.join("a"), &state, &[]);
    wait_for_commands(&state, |c| c.iter().any(|l| l == "configure terminal"));
    let read = commands(&state).len();

    let (code, out) = finish(spawn_push(&state.join("b"), &state, &[]));
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(&format!(
            "another push holds 127.0.0.1:{port} (pid {}, user",
            first.id()
        )),
        "{out}"
    );
    assert!(out.contains("nothing sent"), "{out}");

    let elsewhere = state.join("other-machine-locks");
    let (code, out) = finish(spawn_push(
        &state.join("c"),
        &state,
        &[("FABRIC_LOCK_DIR", elsewhere.as_os_str())],
    ));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "another CLI session is open on the switch and may be configuring it: `admin` on pts/"
        ),
        "{out}"
    );
    assert!(
        commands(&state).len() > read,
        "the third push read the switch"
    );

    let (code, out) = finish(first);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("converged"), "{out}");
    let log = commands(&state);
    assert_eq!(
        log.iter().filter(|l| *l == "configure terminal").count(),
        1,
        "{log:?}"
    );
}

/// OpenSSH without a terminal, logging in with `key`, the lab's host keys pinned.
fn openssh_batch(dir: &Path, key: &Path, port: &str) -> Command {
    let mut cmd = Command::new("ssh");
    cmd.args(["-F", "/dev/null", "-o", "StrictHostKeyChecking=yes"])
        .arg("-o")
        .arg(format!(
            "UserKnownHostsFile={}",
            dir.join("known_hosts").display()
        ))
        .arg("-i")
        .arg(key)
        .args([
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "BatchMode=yes",
            "-p",
            port,
        ])
        .arg("admin@127.0.0.1");
    cmd
}

/// `ssh switch COMMAND` with OpenSSH, a key and no terminal: the command's output, its exit
/// status.
fn ssh_exec(dir: &Path, key: &Path, port: u16, command: &str) -> (i32, String) {
    let out = openssh_batch(dir, key, &port.to_string())
        .arg(command)
        .stdin(Stdio::null())
        .output()
        .expect("ssh runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// The exec channel with the real OpenSSH client: a bare command runs at the standard
/// level; `cli -h` and lines run in order (enable, configure, a change); a refused line ends
/// the run with exit status 1 and nothing after it runs; the sessions are logged out.
#[test]
fn openssh_exec_runs_commands_with_their_exit_status() {
    let dir = scratch("exec");
    let key = keypair(&dir);
    let lab = lab(&dir);
    let port = lab.switches[0].addr.port();
    let device = lab.switches[0].device.clone();

    let (code, out) = ssh_exec(&dir, &key, port, "show version");
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("Product name:      Onyx\n"), "{out:?}");
    assert!(
        !out.contains('\r') && !out.contains("] > "),
        "no prompt: {out:?}"
    );

    // The standard level: the running config needs `enable`.
    let (code, out) = ssh_exec(&dir, &key, port, "show running-config");
    assert_eq!(
        (code, out.as_str()),
        (1, "% Unrecognized command \"running-config\".\n")
    );

    let (code, out) = ssh_exec(
        &dir,
        &key,
        port,
        r#"cli -h '"enable" "configure terminal" "lldp" "show running-config | include lldp"'"#,
    );
    assert_eq!((code, out.as_str()), (0, "   lldp\n"));
    assert!(crate::onyx_running(&device).lldp);

    let (code, out) = ssh_exec(
        &dir,
        &key,
        port,
        "enable\nconfigure terminal\ninterface ethernet 1/1 mtu 99999 force\nno lldp",
    );
    assert_eq!(
        (code, out.as_str()),
        (1, "% Unrecognized command \"99999\".\n")
    );
    assert!(
        crate::onyx_running(&device).lldp,
        "nothing after the refusal ran"
    );
    let log: Vec<String> = device.log().into_iter().map(|(_, l)| l).collect();
    assert!(!log.contains(&"no lldp".to_string()), "{log:?}");

    let deadline = Instant::now() + Duration::from_secs(10);
    while !device.snapshot().logins.is_empty() {
        assert!(Instant::now() < deadline, "an exec session is still listed");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A person at a keyboard with OpenSSH in a PTY: `?` lists what may follow with help,
/// Tab completes a keyword and lists several, Up recalls a line, the line is edited where
/// the cursor is (Left, Ctrl-A, Ctrl-E, Ctrl-W, Ctrl-K, Delete), Ctrl-C leaves the pager.
#[test]
fn openssh_terminal_helps_completes_recalls_and_edits() {
    let dir = scratch("keys");
    let key = keypair(&dir);
    let lab = lab(&dir);
    let port = lab.switches[0].addr.port();
    let device = lab.switches[0].device.clone();
    let mut p = openssh_key(&dir, port, &key);
    let user = "leaf01 [standalone: master] > ";
    p.exp_string(user).unwrap();
    p.send("show ?").unwrap();
    p.flush().unwrap();
    p.exp_string("  version             Display version information")
        .unwrap();
    p.exp_string(&format!("{user}show ")).unwrap();
    // `ver` + Tab: `version`, then Enter runs it.
    p.send("ver\t\r").unwrap();
    p.flush().unwrap();
    p.exp_string("Product name:      Onyx").unwrap();
    p.exp_string(user).unwrap();
    // Tab on `en`: `enable`; several candidates are listed.
    p.send("en\t\r").unwrap();
    p.flush().unwrap();
    let enable = "leaf01 [standalone: master] # ";
    p.exp_string(enable).unwrap();
    p.send("con\t").unwrap();
    p.flush().unwrap();
    p.exp_string("  configuration").unwrap();
    p.exp_string("  configure").unwrap();
    p.exp_string(&format!("{enable}configur")).unwrap();
    // Ctrl-U, then `configure terminal` typed as `terminal`, Ctrl-A, `configure `, Ctrl-E.
    p.send("\x15terminal\x01configure \x05\r").unwrap();
    p.flush().unwrap();
    let config = "leaf01 [standalone: master] (config) # ";
    p.exp_string(config).unwrap();
    // `lldpx`: Left, Delete, End; `hostname x y`: Ctrl-W takes `y`; Ctrl-A Ctrl-K clears.
    p.send("lldpx\x1b[D\x1b[3~\x1b[F\r").unwrap();
    p.flush().unwrap();
    p.exp_string(config).unwrap();
    p.send("hostname spine9 junk\x17\x08\r").unwrap();
    p.flush().unwrap();
    p.exp_string("spine9 [standalone: master] (config) # ")
        .unwrap();
    p.send("garbage\x01\x0b\r").unwrap();
    p.flush().unwrap();
    p.exp_string("spine9 [standalone: master] (config) # ")
        .unwrap();
    // Up twice recalls `lldp`'s line before `hostname …`: `hostname spine9`, then `lldp`.
    p.send("\x1b[A\x1b[A\r").unwrap();
    p.flush().unwrap();
    p.exp_string("spine9 [standalone: master] (config) # ")
        .unwrap();
    let log: Vec<String> = device.log().into_iter().map(|(_, l)| l).collect();
    assert_eq!(
        log[log.len().saturating_sub(3)..],
        ["lldp", "hostname spine9", "lldp"],
        "{log:?}"
    );
    assert!(crate::onyx_running(&device).lldp);
    // Ctrl-C in the pager leaves it.
    p.send_line("terminal length 5").unwrap();
    p.exp_string("(config) # ").unwrap();
    p.send_line("show running-config").unwrap();
    p.exp_string("lines 1-4 ").unwrap();
    p.send("\x03").unwrap();
    p.flush().unwrap();
    p.exp_string("spine9 [standalone: master] (config) # ")
        .unwrap();
    p.send_line("exit").unwrap();
    p.send_line("exit").unwrap();
    p.exp_eof().unwrap();
}

/// `--lab` commands run where `fabric lab` already serves `.fabric/lab` use that lab: `push
/// --lab` pushes to its switches (their command logs show it; its inventory is left as it
/// was), `diff --lab` reads them; a `--lab` command of another fabric is refused, naming the
/// lab that runs. The banner says how to log in.
#[test]
fn lab_commands_use_the_lab_that_runs_in_their_folder() {
    let dir = scratch("running-lab");
    let fabric = dir.join("rdg.yaml");
    std::fs::copy(rdg(), &fabric).unwrap();
    let other = dir.join("ml.yaml");
    std::fs::copy(crate::root().join("fabrics/ml-cluster.yaml"), &other).unwrap();
    let child = fabric_bin()
        .current_dir(&dir)
        .args(["lab", "rdg.yaml", "--base-port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut child = Killed(child);
    let banner = table(&mut child.0);
    assert!(
        banner.contains("log in as the user above (`ssh -p PORT USER@ADDRESS`), password admin"),
        "{banner}"
    );
    let inventory = std::fs::read_to_string(dir.join(".fabric/lab/inventory.yaml")).unwrap();
    let (code, out) = crate::run(
        fabric_bin()
            .current_dir(&dir)
            .args(["push", "rdg.yaml", "--lab", "--yes"]),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("using the `fabric lab` running here"), "{out}");
    assert!(out.contains("converged"), "{out}");
    // Its switch got the push; its inventory is the one it wrote.
    let log = std::fs::read_to_string(dir.join(".fabric/lab/swx-mld-1-2/commands.log")).unwrap();
    assert!(log.contains("configuration write"), "{log}");
    assert_eq!(
        std::fs::read_to_string(dir.join(".fabric/lab/inventory.yaml")).unwrap(),
        inventory
    );
    let (code, out) = crate::run(
        fabric_bin()
            .current_dir(&dir)
            .args(["diff", "rdg.yaml", "--lab"]),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("no drift"), "{out}");
    let (code, out) = crate::run(
        fabric_bin()
            .current_dir(&dir)
            .args(["push", "ml.yaml", "--lab", "--yes"]),
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("rdg.yaml` (pid ") && out.contains("serves `.fabric/lab`"),
        "{out}"
    );
}
