//! SSH as engineers have it: the switches named in an OpenSSH client config (`HostName`,
//! `Port`, `User`, `IdentityFile`, `ProxyJump`), reached through a bastion that is a real
//! OpenSSH `sshd` on loopback (its own host key, forwarding allowed to the lab's port only),
//! with `fabric diff`, `push` and `audit --live` against a `fabric lab` switch behind it;
//! host keys checked strictly at the bastion as at the switch.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::lab_ssh::{Sshd, fabric_bin, inventory_addr, rdg, sshd_with, start_lab_process};

/// The lab behind a bastion, and the files a user would have: an SSH config naming both, a
/// `known_hosts` with both keys, and the fabric with `mgmt: { host: swx-mld-1-2 }` (the
/// rest from the SSH config).
struct Setup {
    dir: PathBuf,
    bastion: Sshd,
    lab_port: u16,
    _lab: crate::lab_ssh::Killed,
}

impl Setup {
    fn new(name: &str) -> Setup {
        let dir = crate::scratch(&format!("jump-{name}"));
        let state = dir.join("lab");
        let (lab, _) = start_lab_process(&state, &[]);
        let lab_port = inventory_addr(&state).port();
        let bastion_dir = dir.join("bastion");
        std::fs::create_dir_all(&bastion_dir).unwrap();
        let bastion = sshd_with(
            &bastion_dir,
            &["ed25519"],
            &format!("AllowTcpForwarding yes\nPermitOpen 127.0.0.1:{lab_port}\nLogLevel DEBUG1\n"),
        );
        let lab_keys = std::fs::read_to_string(state.join("known_hosts")).unwrap();
        std::fs::write(
            dir.join("known_hosts"),
            format!(
                "{lab_keys}[127.0.0.1]:{} {}\n",
                bastion.port, bastion.host_keys[0]
            ),
        )
        .unwrap();
        let fabric = std::fs::read_to_string(rdg()).unwrap().replace(
            "mgmt: { host: 127.0.0.1, port: 2201, user: admin }",
            "mgmt: { host: swx-mld-1-2 }",
        );
        assert!(fabric.contains("mgmt: { host: swx-mld-1-2 }"));
        std::fs::write(dir.join("fabric.yaml"), fabric).unwrap();
        let setup = Setup {
            dir,
            bastion,
            lab_port,
            _lab: lab,
        };
        setup.config(lab_port);
        setup
    }

    /// The SSH config: the bastion by name, the switches behind it on `port`.
    fn config(&self, port: u16) {
        std::fs::write(
            self.dir.join("ssh_config"),
            format!(
                "# the management network's bastion\nHost jump\n  HostName 127.0.0.1\n  Port {}\n  User {}\n  IdentityFile {}\n\nHost swx-*\n  HostName 127.0.0.1\n  Port {port}\n  ProxyJump jump\n",
                self.bastion.port,
                self.bastion.user,
                self.bastion.user_key.display()
            ),
        )
        .unwrap();
    }

    /// `fabric ARGS… FABRIC --ssh-config … --known-hosts KNOWN`, as a user with no key, agent
    /// or config of their own, the switches' password in the environment.
    fn run(&self, args: &[&str], known_hosts: &Path) -> (i32, String) {
        crate::run(
            fabric_bin()
                .current_dir(&self.dir)
                .args(args)
                .arg(self.dir.join("fabric.yaml"))
                .arg("--ssh-config")
                .arg(self.dir.join("ssh_config"))
                .arg("--known-hosts")
                .arg(known_hosts)
                .env("HOME", &self.dir)
                .env("FABRIC_PASSWORD", "admin")
                .env_remove("SSH_AUTH_SOCK"),
        )
    }

    fn known_hosts(&self) -> PathBuf {
        self.dir.join("known_hosts")
    }

    /// The bastion's log: what it forwarded.
    fn forwarded(&self) -> usize {
        let log = std::fs::read_to_string(self.dir.join("bastion/sshd.log")).unwrap();
        let to = format!("target 127.0.0.1 port {}", self.lab_port);
        log.lines()
            .filter(|l| l.contains("server_request_direct_tcpip") && l.contains(&to))
            .count()
    }
}

/// `diff` and `push` to the lab switch through the bastion the SSH config names: the drift,
/// the push, no drift after it; every session went through the bastion (its log shows the
/// `direct-tcpip` forwards); `audit --live` reads the same way.
#[test]
fn diff_and_push_through_a_bastion_from_the_ssh_config() {
    let s = Setup::new("works");
    let kh = s.known_hosts();
    let (code, out) = s.run(&["diff", "--format", "commands"], &kh);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("traffic pool roce type lossless\n"), "{out}");
    let after_diff = s.forwarded();
    assert!(after_diff >= 1, "the bastion forwarded nothing");

    let (code, out) = s.run(&["push", "--yes", "--allow-disruptive"], &kh);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("converged"), "{out}");
    assert!(s.forwarded() > after_diff);

    let (code, out) = s.run(&["diff"], &kh);
    assert_eq!(code, 0, "{out}");
    let (code, out) = s.run(&["audit", "--live"], &kh);
    assert!(code == 0 || code == 1, "{out}");
    assert!(out.contains("swx-mld-1-2"), "{out}");

    // `--accept-new` with an empty known_hosts records the bastion's key and the switch's.
    let fresh = s.dir.join("fresh_known_hosts");
    let (code, out) = s.run(&["diff", "--accept-new"], &fresh);
    assert_eq!(code, 0, "{out}");
    let recorded = std::fs::read_to_string(&fresh).unwrap();
    assert!(
        recorded.contains(&format!("[127.0.0.1]:{} ", s.bastion.port))
            && recorded.contains(&format!("[127.0.0.1]:{} ", s.lab_port)),
        "{recorded}"
    );
}

/// The bastion's host key unknown: refused before any login, saying it is the bastion's and
/// how to trust it; a bastion that will not forward to the switch's port, and a bad config
/// line, are clear errors too. Nothing reaches the switch.
#[test]
fn an_unknown_bastion_or_a_refused_forward_is_a_clear_error() {
    let s = Setup::new("refused");
    let lab_only = s.dir.join("lab/known_hosts");
    let (code, out) = s.run(&["diff"], &lab_only);
    assert_eq!(code, 2, "{out}");
    let bastion = format!("bastion `jump` (127.0.0.1:{})", s.bastion.port);
    assert!(out.contains(&bastion), "{out}");
    assert!(
        out.contains(&format!(
            "127.0.0.1:{} is not a known host (ssh-ed25519 SHA256:",
            s.bastion.port
        )),
        "{out}"
    );
    assert!(
        out.contains("if that fingerprint is the bastion's, trust it with `--accept-new`"),
        "{out}"
    );
    assert_eq!(s.forwarded(), 0);
    let (code, out) = s.run(&["push", "--yes", "--allow-disruptive"], &lab_only);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("is not a known host"), "{out}");
    let log =
        std::fs::read_to_string(s.dir.join("lab/swx-mld-1-2/commands.log")).unwrap_or_default();
    assert!(!log.contains("configure terminal"), "{log}");

    // The bastion forwards to the lab's port only.
    let closed = crate::lab_ssh::free_port();
    s.config(closed);
    let (code, out) = s.run(&["diff"], &s.known_hosts());
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(&format!(
            "the bastion `jump` did not open a connection to 127.0.0.1:{closed}"
        )),
        "{out}"
    );

    std::fs::write(
        s.dir.join("ssh_config"),
        "Host swx-*\n  Port 22\n  Port two\n",
    )
    .unwrap();
    let (code, out) = s.run(&["diff"], &s.known_hosts());
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("ssh_config:3: "), "{out}");
    let missing = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(["diff"])
        .arg(s.dir.join("fabric.yaml"))
        .args(["--ssh-config", "/nonexistent/ssh_config"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("cannot read `/nonexistent/ssh_config`")
    );
}
