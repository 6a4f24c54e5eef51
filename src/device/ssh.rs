//! The SSH connection: TCP with a timeout, the handshake with host-key types chosen from what
//! `known_hosts` holds for the host, strict host-key checking, and login.

use std::io::Write as _;
use std::net::{TcpStream, ToSocketAddrs};
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD};
use ssh2::{CheckResult, HashType, KnownHostFileKind, MethodType, Session};

use super::{Error, Options, Target};

/// Connects, checks the host key and logs in.
pub fn connect(target: &Target, opts: &Options) -> Result<Session, Error> {
    let addr = format!("{}:{}", target.host, target.port);
    let sock = addr
        .to_socket_addrs()
        .map_err(|e| Error::Connect(format!("{}: cannot resolve {addr}: {e}", target.name)))?
        .next()
        .ok_or_else(|| Error::Connect(format!("{}: {addr} resolves to nothing", target.name)))?;
    let tcp = TcpStream::connect_timeout(&sock, opts.connect_timeout)
        .map_err(|e| Error::Connect(format!("{}: cannot connect to {addr}: {e}", target.name)))?;
    let _ = tcp.set_nodelay(true);
    let mut session =
        Session::new().map_err(|e| Error::Connect(format!("{}: {e}", target.name)))?;
    session.set_tcp_stream(tcp);
    session.set_timeout(duration_ms(opts.connect_timeout));
    // Ask for the key types known for this host, so the one we can check is the one sent.
    let types = known_types(&opts.known_hosts, &target.host, target.port);
    if !types.is_empty() {
        let _ = session.method_pref(MethodType::HostKey, &types.join(","));
    }
    session.handshake().map_err(|e| {
        Error::Connect(format!(
            "{}: SSH handshake with {addr} failed: {e}",
            target.name
        ))
    })?;
    check_host_key(&session, target, opts)?;
    login(&session, target, opts)?;
    session.set_keepalive(true, 15);
    Ok(session)
}

fn duration_ms(d: std::time::Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

/// The host as `known_hosts` names it: `host` on port 22, else `[host]:port`.
fn host_pattern(host: &str, port: u16) -> String {
    if port == 22 {
        host.to_string()
    } else {
        format!("[{host}]:{port}")
    }
}

/// The key types `known_hosts` holds for the host, in file order (plain entries only; a
/// hashed entry leaves the choice to the server and the check below).
fn known_types(path: &Path, host: &str, port: u16) -> Vec<String> {
    let want = host_pattern(host, port);
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut types = Vec::new();
    for line in text.lines() {
        let mut fields = line.split_whitespace();
        let (Some(hosts), Some(kind)) = (fields.next(), fields.next()) else {
            continue;
        };
        if hosts.starts_with('#') || hosts.starts_with('@') {
            continue;
        }
        if hosts.split(',').any(|h| h == want) && !types.iter().any(|t| t == kind) {
            types.push(kind.to_string());
        }
    }
    types
}

/// `SHA256:…` as OpenSSH prints a fingerprint.
fn fingerprint(session: &Session) -> String {
    session.host_key_hash(HashType::Sha256).map_or_else(
        || "unknown".to_string(),
        |h| format!("SHA256:{}", STANDARD_NO_PAD.encode(h)),
    )
}

fn check_host_key(session: &Session, target: &Target, opts: &Options) -> Result<(), Error> {
    let (key, kind) = session
        .host_key()
        .ok_or_else(|| Error::HostKey(format!("{}: the server sent no host key", target.name)))?;
    let kind_name = match kind {
        ssh2::HostKeyType::Rsa => "ssh-rsa",
        ssh2::HostKeyType::Dss => "ssh-dss",
        ssh2::HostKeyType::Ecdsa256 => "ecdsa-sha2-nistp256",
        ssh2::HostKeyType::Ecdsa384 => "ecdsa-sha2-nistp384",
        ssh2::HostKeyType::Ecdsa521 => "ecdsa-sha2-nistp521",
        ssh2::HostKeyType::Ed25519 => "ssh-ed25519",
        ssh2::HostKeyType::Unknown => "unknown",
    };
    let mut known = session
        .known_hosts()
        .map_err(|e| Error::HostKey(format!("{}: {e}", target.name)))?;
    let file = &opts.known_hosts;
    if file.exists() {
        known
            .read_file(file, KnownHostFileKind::OpenSSH)
            .map_err(|e| Error::HostKey(format!("cannot read `{}`: {e}", file.display())))?;
    }
    let pattern = host_pattern(&target.host, target.port);
    let print = fingerprint(session);
    match known.check_port(&target.host, target.port, key) {
        CheckResult::Match => Ok(()),
        CheckResult::Mismatch => Err(Error::HostKey(format!(
            "{}: the host key of {pattern} has CHANGED ({kind_name} {print}) and is refused; if the switch was replaced, remove its line from `{}`",
            target.name,
            file.display()
        ))),
        CheckResult::NotFound if opts.accept_new => {
            let line = format!("{pattern} {kind_name} {}\n", STANDARD.encode(key));
            if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(dir);
            }
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(file)
                .and_then(|mut f| f.write_all(line.as_bytes()))
                .map_err(|e| Error::HostKey(format!("cannot write `{}`: {e}", file.display())))
        }
        CheckResult::NotFound => Err(Error::HostKey(format!(
            "{}: {pattern} is not a known host ({kind_name} {print}); if that fingerprint is the switch's, trust it with `--accept-new` (it is recorded in `{}`)",
            target.name,
            file.display()
        ))),
        CheckResult::Failure => Err(Error::HostKey(format!(
            "{}: the host key of {pattern} could not be checked",
            target.name
        ))),
    }
}

/// Logs in with the first method that works: the key file, the agent, the password, the
/// password through keyboard-interactive.
fn login(session: &Session, target: &Target, opts: &Options) -> Result<(), Error> {
    let user = target.user.as_str();
    let methods = session.auth_methods(user).unwrap_or("publickey,password");
    let mut tried = Vec::new();
    if methods.contains("publickey") {
        if let Some(key) = &opts.identity {
            tried.push("key file");
            if session.userauth_pubkey_file(user, None, key, None).is_ok() {
                return Ok(());
            }
        } else if std::env::var_os("SSH_AUTH_SOCK").is_some() {
            tried.push("agent");
            if session.userauth_agent(user).is_ok() && session.authenticated() {
                return Ok(());
            }
        }
    }
    if let Some(password) = &opts.password {
        if methods.contains("password") {
            tried.push("password");
            if session.userauth_password(user, &password.0).is_ok() {
                return Ok(());
            }
        }
        if methods.contains("keyboard-interactive") && !session.authenticated() {
            tried.push("keyboard-interactive");
            let mut answer = Answer(&password.0);
            if session
                .userauth_keyboard_interactive(user, &mut answer)
                .is_ok()
            {
                return Ok(());
            }
        }
    }
    let tried = if tried.is_empty() {
        "no method to try: give `--identity FILE`, run an ssh-agent, or set FABRIC_PASSWORD"
            .to_string()
    } else {
        format!("tried {}", tried.join(", "))
    };
    Err(Error::Auth(format!(
        "{}: login as `{user}` on {}:{} refused ({tried})",
        target.name, target.host, target.port
    )))
}

/// Answers every keyboard-interactive prompt with the password.
struct Answer<'a>(&'a str);

impl ssh2::KeyboardInteractivePrompt for Answer<'_> {
    fn prompt<'b>(
        &mut self,
        _username: &str,
        _instructions: &str,
        prompts: &[ssh2::Prompt<'b>],
    ) -> Vec<String> {
        prompts.iter().map(|_| self.0.to_string()).collect()
    }
}
