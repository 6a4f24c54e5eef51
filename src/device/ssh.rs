//! The SSH connection: TCP with a timeout, the handshake asking for the host key algorithms
//! OpenSSH would ask for, the host key judged against `known_hosts` as OpenSSH judges it
//! ([`super::known_hosts`]) and against the switch's name (a key recorded for another switch
//! of the fleet is refused), and login.
//!
//! Errors say what failed in plain words and never name the switch: whoever prints them does.

use std::io::Write as _;
use std::net::{TcpStream, ToSocketAddrs};
use std::os::fd::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use ssh2::{HashType, MethodType, Session};

use super::known_hosts::{self, KnownHosts, Verdict};
use super::{Error, Options, Target};

/// What the host key check found out, for the identity check that follows the login.
#[derive(Clone, Debug, Default)]
pub struct Trust {
    /// The key is recorded for the target's name (a `known_hosts` line names the switch), so
    /// the key proves which switch this is, whatever name it gives itself.
    pub name_pinned: bool,
    /// The line `--accept-new` appends once the switch's identity is checked.
    pub record: Option<String>,
}

impl Trust {
    /// Appends the `--accept-new` line, if any, to the `known_hosts` file.
    pub fn record(&self, opts: &Options) -> Result<(), Error> {
        let Some(line) = &self.record else {
            return Ok(());
        };
        let file = &opts.known_hosts;
        let cannot = |e: std::io::Error| {
            Error::HostKey(format!(
                "cannot write `{}`: {}",
                file.display(),
                plain_io(&e)
            ))
        };
        if let Some(dir) = file.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(cannot)?;
        }
        // A file whose last line has no end would join our line to it.
        let joined = crate::input::read(file, KNOWN_HOSTS_BYTES)
            .map(|b| b.last().is_some_and(|&c| c != b'\n'))
            .unwrap_or(false);
        let text = if joined {
            format!("\n{line}")
        } else {
            line.clone()
        };
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
            .and_then(|mut f| f.write_all(text.as_bytes()))
            .map_err(cannot)
    }
}

/// `host:port`, with brackets around an IPv6 address.
pub fn address(target: &Target) -> String {
    if target.host.contains(':') {
        format!("[{}]:{}", target.host, target.port)
    } else {
        format!("{}:{}", target.host, target.port)
    }
}

/// Connects (through the target's bastions, each checked and logged in to on the way),
/// checks the host key and logs in.
pub fn connect(target: &Target, opts: &Options) -> Result<(Session, Trust), Error> {
    let first = target.jumps.first().unwrap_or(target);
    let mut socket = Socket::Tcp(tcp(first, opts).map_err(|e| at_hop(&target.jumps, 0, e))?);
    for (i, hop) in target.jumps.iter().enumerate() {
        let (session, fd, trust) =
            open(hop, socket, opts, Peer::Bastion).map_err(|e| at_hop(&target.jumps, i, e))?;
        trust
            .record(opts)
            .map_err(|e| at_hop(&target.jumps, i, e))?;
        let next = target.jumps.get(i + 1).unwrap_or(target);
        socket =
            Socket::Unix(forward(session, fd, hop, next).map_err(|e| at_hop(&target.jumps, i, e))?);
    }
    let (session, _, trust) = open(target, socket, opts, Peer::Switch)
        .map_err(|e| at_hop(&target.jumps, target.jumps.len(), e))?;
    session.set_keepalive(true, 15);
    Ok((session, trust))
}

/// An error met at the `i`th host of a chain of bastions (the target when `i` is past the
/// last), saying which bastion it came from or went through.
fn at_hop(hops: &[Target], i: usize, e: Error) -> Error {
    let name = |h: &Target| format!("`{}` ({})", h.name, address(h));
    let prefix = match (hops.get(i), i) {
        (_, 0) if hops.is_empty() => return e,
        (Some(hop), 0) => format!("bastion {}", name(hop)),
        (hop, _) => {
            let via: Vec<String> = hops[..i].iter().map(name).collect();
            let via = format!("through the bastion {}", via.join(", then "));
            match hop {
                Some(hop) => format!("bastion {} {via}", name(hop)),
                None => via,
            }
        }
    };
    let say = |m: String| format!("{prefix}: {m}");
    match e {
        Error::Connect(m) => Error::Connect(say(m)),
        Error::HostKey(m) => Error::HostKey(say(m)),
        Error::Identity(m) => Error::Identity(say(m)),
        Error::Auth(m) => Error::Auth(say(m)),
        other => other,
    }
}

/// What an SSH session runs over: TCP to the first host, or a bastion's tunnel.
enum Socket {
    Tcp(TcpStream),
    Unix(std::os::unix::net::UnixStream),
}

/// Whom a session is with: a switch logs in with every method; a bastion with keys only, so
/// the switches' password never goes to it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Peer {
    Switch,
    Bastion,
}

impl Peer {
    fn word(self) -> &'static str {
        match self {
            Peer::Switch => "switch",
            Peer::Bastion => "bastion",
        }
    }
}

/// TCP to `target`, within the connect timeout.
fn tcp(target: &Target, opts: &Options) -> Result<TcpStream, Error> {
    let addr = address(target);
    let sock = (target.host.as_str(), target.port)
        .to_socket_addrs()
        .map_err(|e| {
            Error::Connect(format!(
                "cannot resolve `{}`: {}",
                target.host,
                plain_io(&e)
            ))
        })?
        .next()
        .ok_or_else(|| Error::Connect(format!("`{}` resolves to no address", target.host)))?;
    let tcp = TcpStream::connect_timeout(&sock, opts.connect_timeout).map_err(|e| {
        let why = if e.kind() == std::io::ErrorKind::TimedOut {
            format!("no answer in {} s", opts.connect_timeout.as_secs())
        } else {
            plain_io(&e)
        };
        Error::Connect(format!("cannot connect to {addr}: {why}"))
    })?;
    let _ = tcp.set_nodelay(true);
    Ok(tcp)
}

/// The SSH handshake over `socket`, the host key checked against `known_hosts`, the login:
/// the session, its socket's descriptor and what the host key check found.
fn open(
    target: &Target,
    socket: Socket,
    opts: &Options,
    peer: Peer,
) -> Result<(Session, RawFd, Trust), Error> {
    let addr = address(target);
    let mut session =
        Session::new().map_err(|e| Error::Connect(format!("cannot start SSH: {}", plain(&e))))?;
    let fd = match socket {
        Socket::Tcp(s) => {
            let fd = s.as_raw_fd();
            session.set_tcp_stream(s);
            fd
        }
        Socket::Unix(s) => {
            let fd = s.as_raw_fd();
            session.set_tcp_stream(s);
            fd
        }
    };
    session.set_timeout(duration_ms(opts.connect_timeout));
    let known = read_known_hosts(opts)?;
    // Ask for the key types known for this host first, as `ssh` does, so the key sent is one
    // that can be checked whenever the host has it.
    let algorithms = known.algorithms(&target.host, target.port).join(",");
    let _ = session.method_pref(MethodType::HostKey, &algorithms);
    session
        .handshake()
        .map_err(|e| Error::Connect(format!("SSH handshake with {addr} failed: {}", plain(&e))))?;
    let trust = check_host_key(&session, &known, target, opts, peer)?;
    login(&session, target, opts, peer)?;
    Ok((session, fd, trust))
}

/// A `direct-tcpip` channel from the bastion to the next host, as a socket.
fn forward(
    session: Session,
    fd: RawFd,
    bastion: &Target,
    next: &Target,
) -> Result<std::os::unix::net::UnixStream, Error> {
    let channel = session
        .channel_direct_tcpip(&next.host, next.port, None)
        .map_err(|e| {
            Error::Connect(format!(
                "the bastion `{}` did not open a connection to {}: {}",
                bastion.name,
                address(next),
                plain(&e)
            ))
        })?;
    super::jump::tunnel(session, channel, fd)
        .map_err(|e| Error::Connect(format!("cannot start the tunnel: {}", plain_io(&e))))
}

fn duration_ms(d: std::time::Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

/// The most a `known_hosts` file may have: a line is about 100 bytes, so this is a hundred
/// thousand hosts and more.
const KNOWN_HOSTS_BYTES: u64 = 64 << 20;

/// The `known_hosts` file, parsed once per version of the file: a thousand connections
/// share one parse, and a line `--accept-new` appends (the file grows) is read again.
fn read_known_hosts(opts: &Options) -> Result<Arc<KnownHosts>, Error> {
    type Cached = Option<(PathBuf, SystemTime, u64, Arc<KnownHosts>)>;
    static CACHE: Mutex<Cached> = Mutex::new(None);
    let path = &opts.known_hosts;
    let cannot = |e: std::io::Error| {
        Error::HostKey(format!(
            "cannot read `{}`: {}",
            path.display(),
            plain_io(&e)
        ))
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Arc::new(KnownHosts::default()));
        }
        Err(e) => return Err(cannot(e)),
    };
    let version = (
        meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
        meta.len(),
    );
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((p, modified, len, known)) = cache.as_ref()
        && p == path
        && (*modified, *len) == version
    {
        return Ok(known.clone());
    }
    let bytes = crate::input::read(path, KNOWN_HOSTS_BYTES).map_err(|e| match e {
        crate::input::Refused::Io(e) => cannot(e),
        e => Error::HostKey(crate::input::cannot_read(path, &e)),
    })?;
    let known = Arc::new(KnownHosts::parse(&String::from_utf8_lossy(&bytes)));
    *cache = Some((path.clone(), version.0, version.1, known.clone()));
    Ok(known)
}

/// An I/O error in plain words: `connection refused`, not `Connection refused (os error
/// 111)`.
pub fn plain_io(e: &std::io::Error) -> String {
    use std::io::ErrorKind as K;
    let text = match e.kind() {
        K::ConnectionRefused => "connection refused".to_string(),
        K::ConnectionReset => "the connection was reset".to_string(),
        K::ConnectionAborted => "the connection was aborted".to_string(),
        K::TimedOut => "no answer in time".to_string(),
        K::HostUnreachable => "no route to the host".to_string(),
        K::NetworkUnreachable => "the network is unreachable".to_string(),
        K::AddrNotAvailable => "the address is not available".to_string(),
        K::NotFound => "not found".to_string(),
        K::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    let text = match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    lowercase_first(&text)
}

/// A libssh2 error in plain words, without its code (`[Session(-13)]`).
pub fn plain(e: &ssh2::Error) -> String {
    let ssh2::ErrorCode::Session(code) = e.code() else {
        return lowercase_first(e.message());
    };
    // libssh2 reports a peer that is not an SSH server as a closed socket "getting banner".
    if code == -2 || e.message().contains("banner") {
        return "no SSH greeting came back (is it an SSH server?)".into();
    }
    match code {
        -5 | -8 => "no key exchange the switch and we both support".into(),
        -9 | -30 | -37 => "no answer in time".into(),
        -10 | -11 => "the switch's host key could not be verified".into(),
        -7 | -13 | -43 => "the switch closed the connection".into(),
        -14 => "the switch broke the SSH protocol".into(),
        -33 | -51 => "no algorithm the switch and we both support".into(),
        _ => lowercase_first(e.message().trim_end_matches('.')),
    }
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        // Lowercase like every message, unless the word is an initialism (`SSH`).
        Some(c) if !chars.next().is_some_and(|n| n.is_uppercase()) => c
            .to_lowercase()
            .chain(text[c.len_utf8()..].chars())
            .collect(),
        _ => text.to_string(),
    }
}

/// `SHA256:…` as OpenSSH prints a fingerprint.
fn fingerprint(session: &Session) -> String {
    session.host_key_hash(HashType::Sha256).map_or_else(
        || "unknown".to_string(),
        |h| format!("SHA256:{}", STANDARD_NO_PAD.encode(h)),
    )
}

/// The host key against `known_hosts`: the address's verdict exactly as OpenSSH reaches it;
/// then the switch's name: a key recorded for another switch of the fleet, or not the one
/// recorded for this switch's name, is refused.
fn check_host_key(
    session: &Session,
    known: &KnownHosts,
    target: &Target,
    opts: &Options,
    peer: Peer,
) -> Result<Trust, Error> {
    let role = peer.word();
    let (key, _) = session
        .host_key()
        .ok_or_else(|| Error::HostKey(format!("the {role} sent no host key")))?;
    let kind = known_hosts::key_type(key).unwrap_or("unknown").to_string();
    let print = fingerprint(session);
    let addr = address(target);
    let file = opts.known_hosts.display();
    let at_addr = known.check(&target.host, target.port, key);
    // The name is another name of the host only when it differs from the address.
    let by_name = !target.name.eq_ignore_ascii_case(&target.host);
    let at_name = if by_name {
        known.alias(&target.name, target.port, key)
    } else {
        at_addr.clone()
    };
    let others: Vec<&str> = known
        .names_of(key, target.port, &opts.switches)
        .into_iter()
        .filter(|n| !n.eq_ignore_ascii_case(&target.name))
        .collect();

    for v in [&at_addr, &at_name] {
        if let Verdict::Revoked { line } = v {
            return Err(Error::HostKey(format!(
                "the host key of {addr} ({kind} {print}) is REVOKED (`{file}` line {line}) and is refused"
            )));
        }
    }
    let name_known = matches!(at_name, Verdict::Known { .. });
    if !name_known && !others.is_empty() {
        return Err(Error::Identity(format!(
            "the switch at {addr} is not `{}`: its host key ({kind} {print}) is {}'s (`{file}`)",
            target.name,
            others
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        )));
    }
    for (v, whose) in [
        (&at_addr, addr.clone()),
        (&at_name, format!("`{}`", target.name)),
    ] {
        if let Verdict::Changed { line, types } = v {
            return Err(Error::HostKey(format!(
                "the host key of {addr} has CHANGED: it sent {kind} {print}, and `{file}` line {line} holds another key for {whose} (known types: {}); refused. If the {role} was replaced, remove its old line",
                types.join(", ")
            )));
        }
    }
    let mut trust = Trust {
        name_pinned: name_known,
        record: None,
    };
    let mut names = Vec::new();
    if by_name && !name_known && opts.accept_new {
        names.push(target.name.to_ascii_lowercase());
        trust.name_pinned = true;
    }
    if at_addr == Verdict::Unknown {
        if !opts.accept_new {
            return Err(Error::HostKey(format!(
                "{addr} is not a known host ({kind} {print}); if that fingerprint is the {role}'s, trust it with `--accept-new` (it is recorded in `{file}`)"
            )));
        }
        names.push(known_hosts::lookup_name(&target.host, target.port));
    }
    if !names.is_empty() {
        if names.iter().any(|n| !recordable(n)) {
            return Err(Error::HostKey(format!(
                "`{}` cannot be written in `{file}`: a name there has no spaces, commas, `*`, `?`, `!`, `#`, `@` or `|`",
                target.name
            )));
        }
        trust.record = known_hosts::line(&names, key);
    }
    Ok(trust)
}

/// Whether a name can stand in a `known_hosts` line's host field as itself.
fn recordable(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(['|', '@', '#', '!'])
        && !name.contains(|c: char| c.is_whitespace() || c.is_control() || ",*?".contains(c))
}

/// Logs in with the first method that works: the key files (`--identity`, then the SSH
/// config's `IdentityFile`), the agent, the default keys (`~/.ssh/id_*`, when no key file is
/// named), the password, the password through keyboard-interactive. A bastion is given keys
/// only: neither `--identity` (the switches' key) nor the switches' password.
fn login(session: &Session, target: &Target, opts: &Options, peer: Peer) -> Result<(), Error> {
    let user = target.user.as_str();
    let methods = session.auth_methods(user).unwrap_or("publickey,password");
    let mut tried: Vec<String> = Vec::new();
    if methods.contains("publickey") {
        let flag = opts.identity.as_deref().filter(|_| peer == Peer::Switch);
        let named: Vec<&Path> = flag
            .into_iter()
            .chain(target.identities.iter().map(PathBuf::as_path))
            .collect();
        for key in &named {
            tried.push(format!("key `{}`", key.display()));
            if session.userauth_pubkey_file(user, None, key, None).is_ok() {
                return Ok(());
            }
        }
        if std::env::var_os("SSH_AUTH_SOCK").is_some() {
            tried.push("agent".into());
            if session.userauth_agent(user).is_ok() && session.authenticated() {
                return Ok(());
            }
        }
        if named.is_empty() {
            for key in default_keys() {
                tried.push(format!("key `{}`", key.display()));
                if session.userauth_pubkey_file(user, None, &key, None).is_ok() {
                    return Ok(());
                }
            }
        }
    }
    if let Some(password) = opts.password.as_ref().filter(|_| peer == Peer::Switch) {
        if methods.contains("password") {
            tried.push("password".into());
            if session.userauth_password(user, &password.0).is_ok() {
                return Ok(());
            }
        }
        if methods.contains("keyboard-interactive") && !session.authenticated() {
            tried.push("keyboard-interactive".into());
            let mut answer = Answer(&password.0);
            if session
                .userauth_keyboard_interactive(user, &mut answer)
                .is_ok()
            {
                return Ok(());
            }
        }
    }
    let tried = match (tried.is_empty(), peer) {
        (true, Peer::Switch) => {
            "no method to try: give `--identity FILE`, run an ssh-agent, or set FABRIC_PASSWORD"
                .to_string()
        }
        (true, Peer::Bastion) => {
            "no key to try: name one with `IdentityFile` in the SSH config, or run an ssh-agent"
                .to_string()
        }
        (false, _) => format!("tried {}", tried.join(", ")),
    };
    Err(Error::Auth(format!(
        "login as `{user}` on {} refused ({tried})",
        address(target)
    )))
}

/// The user's keys OpenSSH tries when none is named: `~/.ssh/id_ed25519`, `id_ecdsa`,
/// `id_rsa`, those that exist.
fn default_keys() -> Vec<PathBuf> {
    let Some(home) = std::env::var_os("HOME") else {
        return Vec::new();
    };
    ["id_ed25519", "id_ecdsa", "id_rsa"]
        .iter()
        .map(|k| Path::new(&home).join(".ssh").join(k))
        .filter(|k| k.is_file())
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_in_plain_words() {
        let e = std::io::Error::from_raw_os_error(111);
        assert_eq!(plain_io(&e), "connection refused");
        let e = std::io::Error::other("Something odd (os error 99)");
        assert_eq!(plain_io(&e), "something odd");
        assert!(recordable("leaf01") && recordable("[::1]:2201"));
        assert!(!recordable("a,b") && !recordable("|1|x") && !recordable("a b"));
    }
}
