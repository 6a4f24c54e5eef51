//! The lab's SSH server (russh): one listener per simulated switch, its own persistent host
//! key, password (also as keyboard-interactive) and public-key logins, a shell that is the
//! switch's CLI, and SCP into the home folder of a switch that takes files (`scp -t`, [`super::scp`]).

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use russh::keys::ssh_key::LineEnding;
use russh::keys::ssh_key::private::Ed25519Keypair;
use russh::keys::{HashAlg, PrivateKey, PublicKey};
use russh::server::{Auth, Handler, Msg, Server as _, Session};
use russh::{Channel, ChannelId, ChannelMsg, MethodKind, MethodSet};

use super::device::Device;
use super::scp::Sink;
use super::term::{Out, Term};

/// Who may log in. The password never appears in argv or logs: it comes from the
/// environment (`FABRIC_LAB_PASSWORD`) or this default.
#[derive(Clone)]
pub struct Logins {
    pub user: String,
    pub password: String,
    /// Public keys accepted for `user` (an `authorized_keys` file's).
    pub keys: Vec<PublicKey>,
    /// Offer the `password` method (else the password only as keyboard-interactive, as
    /// switches with an external authentication server do).
    pub password_method: bool,
}

impl Logins {
    /// Onyx's factory default: admin/admin.
    pub fn factory() -> Logins {
        Logins {
            user: "admin".to_string(),
            password: "admin".to_string(),
            keys: Vec::new(),
            password_method: true,
        }
    }

    /// Reads the keys of an `authorized_keys` file (or a `.pub` file).
    pub fn add_keys(&mut self, path: &Path) -> Result<(), String> {
        // A line is a key of a few hundred bytes: a file of thousands is well under this.
        let text = crate::input::read_string(path, 4 << 20)?;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let key = PublicKey::from_openssh(line)
                .map_err(|e| format!("{}:{}: not a public key: {e}", path.display(), n + 1))?;
            self.keys.push(key);
        }
        Ok(())
    }

    pub(crate) fn password_ok(&self, user: &str, password: &str) -> bool {
        // Compared in full whatever the first difference, like a careful server.
        let same = password.len() == self.password.len()
            && password
                .bytes()
                .zip(self.password.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0;
        user == self.user && same
    }

    fn key_ok(&self, user: &str, key: &PublicKey) -> bool {
        user == self.user && self.keys.iter().any(|k| k.key_data() == key.key_data())
    }
}

/// A switch's host key: read from `path`, or made and written there on first start.
pub fn host_key(path: Option<&Path>) -> Result<PrivateKey, String> {
    if let Some(path) = path
        && path.exists()
    {
        return PrivateKey::read_openssh_file(path)
            .map_err(|e| format!("cannot read host key `{}`: {e}", path.display()));
    }
    let mut seed = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut seed))
        .map_err(|e| format!("cannot read /dev/urandom: {e}"))?;
    let key = PrivateKey::from(Ed25519Keypair::from_seed(&seed));
    if let Some(path) = path {
        key.write_openssh_file(path, LineEnding::LF)
            .map_err(|e| format!("cannot write host key `{}`: {e}", path.display()))?;
    }
    Ok(key)
}

/// One switch to serve.
pub struct Spec {
    pub device: Arc<Device>,
    /// Port to listen on; 0 lets the system choose.
    pub port: u16,
    pub key: PrivateKey,
    pub logins: Logins,
    /// Port of the switch's HTTPS API, when its OS serves one; 0 lets the system choose.
    pub api_port: u16,
}

/// A switch being served.
pub struct Served {
    pub device: Arc<Device>,
    pub addr: SocketAddr,
    /// `SHA256:…`, as `ssh` prints it.
    pub fingerprint: String,
    /// The host key as a `known_hosts` line's key part (`ssh-ed25519 AAAA…`).
    pub public_key: String,
    /// Where its HTTPS API listens, when its OS serves one ([`super::https`]).
    pub api: Option<SocketAddr>,
}

impl Served {
    /// The switch's `known_hosts` line, under its name (the fabric's) as well as its address
    /// (`leaf01,[127.0.0.1]:2201 ssh-ed25519 …`, a form OpenSSH reads): the key is pinned to
    /// the switch, so a client can tell this switch from another at a mixed-up address.
    pub fn known_hosts_line(&self, name: &str) -> String {
        let host = match (self.addr.ip(), self.addr.port()) {
            (ip, 22) => ip.to_string(),
            (IpAddr::V6(ip), port) => format!("[{ip}]:{port}"),
            (ip, port) => format!("[{ip}]:{port}"),
        };
        format!("{},{host} {}", name.to_ascii_lowercase(), self.public_key)
    }
}

/// Running switches; they stop when this is dropped.
pub struct Lab {
    runtime: Option<tokio::runtime::Runtime>,
    pub switches: Vec<Served>,
}

impl Lab {
    /// Binds every switch's port on `listen` and starts serving; returns once all listen.
    pub fn start(specs: Vec<Spec>, listen: IpAddr) -> Result<Lab, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the lab's runtime: {e}"))?;
        let mut switches = Vec::new();
        for spec in specs {
            let listener = runtime
                .block_on(tokio::net::TcpListener::bind((listen, spec.port)))
                .map_err(|e| {
                    format!(
                        "{}: cannot listen on {listen}:{}: {e}",
                        spec.device.name, spec.port
                    )
                })?;
            let addr = listener
                .local_addr()
                .map_err(|e| format!("{}: {e}", spec.device.name))?;
            let public = spec.key.public_key();
            let logins = Arc::new(spec.logins);
            let api = api(&runtime, &spec.device, listen, spec.api_port, &logins)?;
            switches.push(Served {
                device: spec.device.clone(),
                addr,
                fingerprint: public.fingerprint(HashAlg::Sha256).to_string(),
                public_key: public
                    .to_openssh()
                    .map_err(|e| format!("{}: {e}", spec.device.name))?,
                api,
            });
            let config = Arc::new(server_config(spec.key, logins.password_method));
            let mut server = Listener {
                device: spec.device,
                logins,
            };
            runtime.spawn(async move {
                if let Err(e) = server.run_on_socket(config, &listener).await {
                    eprintln!("{}: listener stopped: {e}", server.device.name);
                }
            });
        }
        Ok(Lab {
            runtime: Some(runtime),
            switches,
        })
    }

    /// Blocks until Ctrl-C (SIGINT) or SIGTERM.
    pub fn wait_for_signal(&self) -> Result<(), String> {
        let rt = self.runtime.as_ref().ok_or("the lab has stopped")?;
        rt.block_on(async {
            let mut term =
                tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
                    .map_err(|e| e.to_string())?;
            tokio::select! {
                r = tokio::signal::ctrl_c() => r.map_err(|e| e.to_string()),
                _ = term.recv() => Ok(()),
            }
        })
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(Duration::from_millis(100));
        }
    }
}

/// Starts `device`'s HTTPS API on `listen`:`port` when its OS serves one; where it listens.
fn api(
    runtime: &tokio::runtime::Runtime,
    device: &Arc<Device>,
    listen: IpAddr,
    port: u16,
    logins: &Arc<Logins>,
) -> Result<Option<SocketAddr>, String> {
    if device.api_prefix().is_none() {
        return Ok(None);
    }
    let name = &device.name;
    let (certs, key) = super::https::certificate(device.dir(), name, listen)?;
    let tls = super::https::tls_config(certs, key).map_err(|e| format!("{name}: {e}"))?;
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind((listen, port)))
        .map_err(|e| format!("{name}: cannot listen on {listen}:{port} (HTTPS API): {e}"))?;
    let addr = listener.local_addr().map_err(|e| format!("{name}: {e}"))?;
    runtime.spawn(super::https::serve(
        listener,
        tls,
        device.clone(),
        logins.clone(),
    ));
    Ok(Some(addr))
}

fn server_config(key: PrivateKey, password: bool) -> russh::server::Config {
    russh::server::Config {
        server_id: russh::SshId::Standard("SSH-2.0-fabric_lab".into()),
        methods: methods(password),
        // A failed login is answered after the same pause whatever failed.
        auth_rejection_time: Duration::from_millis(200),
        auth_rejection_time_initial: Some(Duration::ZERO),
        // OpenSSH's MaxAuthTries.
        max_auth_attempts: 6,
        keys: vec![key],
        inactivity_timeout: Some(Duration::from_secs(3600)),
        nodelay: true,
        ..Default::default()
    }
}

fn methods(password: bool) -> MethodSet {
    let mut m = MethodSet::from(&[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..]);
    if password {
        m.push(MethodKind::Password);
    }
    m
}

fn reject(logins: &Logins) -> Auth {
    Auth::Reject {
        proceed_with_methods: Some(methods(logins.password_method)),
        partial_success: false,
    }
}

struct Listener {
    device: Arc<Device>,
    logins: Arc<Logins>,
}

impl russh::server::Server for Listener {
    type Handler = Connection;

    fn new_client(&mut self, peer: Option<SocketAddr>) -> Connection {
        Connection {
            device: self.device.clone(),
            logins: self.logins.clone(),
            user: String::new(),
            host: peer.map_or_else(String::new, |p| p.ip().to_string()),
        }
    }
}

/// One client connection.
struct Connection {
    device: Arc<Device>,
    logins: Arc<Logins>,
    /// Who logged in (for `show users`), once accepted.
    user: String,
    /// The client's address.
    host: String,
}

impl Connection {
    /// The verdict on a login attempt; an accepted one names the session's user.
    fn verdict(&mut self, user: &str, ok: bool) -> Auth {
        if ok {
            self.user = user.to_string();
            Auth::Accept
        } else {
            reject(&self.logins)
        }
    }
}

impl Handler for Connection {
    type Error = russh::Error;

    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        Ok(reject(&self.logins))
    }

    async fn auth_password(&mut self, user: &str, password: &str) -> Result<Auth, Self::Error> {
        let ok = self.logins.password_method && self.logins.password_ok(user, password);
        Ok(self.verdict(user, ok))
    }

    async fn auth_publickey_offered(
        &mut self,
        user: &str,
        offer: russh::server::PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        Ok(if self.logins.key_ok(user, offer.public_key) {
            Auth::Accept
        } else {
            reject(&self.logins)
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: russh::server::VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let ok = self.logins.key_ok(user, key.public_key);
        Ok(self.verdict(user, ok))
    }

    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        response: Option<russh::server::Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        let Some(mut response) = response else {
            return Ok(Auth::Partial {
                name: "".into(),
                instructions: "".into(),
                prompts: vec![("Password: ".into(), false)].into(),
            });
        };
        let answer = response.next().unwrap_or_default();
        let password = String::from_utf8_lossy(&answer);
        let ok = self.logins.password_ok(user, &password);
        Ok(self.verdict(user, ok))
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        reply.accept().await;
        let device = self.device.clone();
        let handle = session.handle();
        let who = (self.user.clone(), self.host.clone());
        tokio::spawn(serve_channel(device, channel, handle, who));
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn pty_request(
        &mut self,
        channel: ChannelId,
        _term: &str,
        _cols: u32,
        _rows: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)
    }

    /// `ssh switch 'show version'`: the command text runs as CLI lines (see `Term::exec`).
    async fn exec_request(
        &mut self,
        channel: ChannelId,
        _data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_success(channel)
    }
}

/// An SCP transfer to a switch on an exec channel: its session number and sink.
struct Receiving {
    id: u64,
    sink: Sink,
}

/// What an exec request's `command` starts on a switch that takes files over SCP when it is
/// `scp -t TARGET` ([`super::scp`]): the transfer, told it may begin, or its refusal sent (the
/// channel then ends, exit status 1). `None`: not an SCP transfer (or a switch that takes
/// none).
async fn receiving(
    device: &Device,
    channel: &Channel<Msg>,
    command: &str,
    user: &str,
) -> Option<Result<Receiving, ()>> {
    let files = device.scp()?;
    let started = Sink::start(command, user, files)?;
    Some(match started {
        Ok(sink) => {
            let ok = channel.data(&Sink::ready()[..]).await.is_ok();
            ok.then(|| Receiving {
                id: device.login(),
                sink,
            })
            .ok_or(())
        }
        Err(refused) => {
            let _ = channel.data(format!("\u{1}{refused}\n").as_bytes()).await;
            Err(())
        }
    })
}

/// Ends a channel: its exit status, EOF and close.
async fn end(channel: &Channel<Msg>, status: u32) {
    let _ = channel.exit_status(status).await;
    let _ = channel.eof().await;
    let _ = channel.close().await;
}

/// Runs one session channel: the CLI once a shell is asked for, the command of an exec
/// request, or an SCP transfer to a switch. The session is listed by `show users`
/// while it runs. The client's EOF ends a shell as an SSH server ends a shell whose input
/// ended: what was sent is answered, then exit status 0, EOF and close; an exec request ends
/// with its commands' exit status, a transfer with 0 when every file was taken.
async fn serve_channel(
    device: Arc<Device>,
    mut channel: Channel<Msg>,
    handle: russh::server::Handle,
    who: (String, String),
) {
    let mut st = ChannelState {
        device,
        who,
        pty: false,
        term: None,
        exec: false,
        logout: None,
    };
    let mut scp: Option<Receiving> = None;
    while let Some(msg) = channel.wait().await {
        if let Some(r) = scp.as_mut() {
            if !receive(&st.device, r, &channel, msg).await {
                return;
            }
            continue;
        }
        let outs = match msg {
            ChannelMsg::RequestPty { .. } => {
                st.pty = true;
                continue;
            }
            ChannelMsg::RequestShell { .. } if st.term.is_none() => {
                if !st.shell(&channel).await {
                    return;
                }
                continue;
            }
            ChannelMsg::Exec { command, .. } if st.term.is_none() => {
                let command = String::from_utf8_lossy(&command).into_owned();
                match receiving(&st.device, &channel, &command, &st.who.0).await {
                    Some(Ok(r)) => {
                        scp = Some(r);
                        continue;
                    }
                    Some(Err(())) => return end(&channel, 1).await,
                    None => st.exec(&command),
                }
            }
            ChannelMsg::Data { .. } | ChannelMsg::Eof if st.exec => continue,
            ChannelMsg::Data { data } => match st.term.as_mut() {
                Some(t) => t.feed(&st.device, &data),
                None => continue,
            },
            ChannelMsg::Eof => {
                let finished = st.term.as_mut().map(|t| t.finish(&st.device));
                let mut outs = finished.unwrap_or_default();
                outs.push(Out::Close);
                outs
            }
            ChannelMsg::Close => return,
            _ => continue,
        };
        if !send(&channel, &handle, outs).await {
            return;
        }
    }
}

/// Logs a session out however its channel ends.
struct Logout(Arc<Device>, u64);

impl Drop for Logout {
    fn drop(&mut self) {
        self.0.logout(self.1);
    }
}

/// A session channel's state: who logged in, whether a terminal was asked for, the CLI
/// session once it runs.
struct ChannelState {
    device: Arc<Device>,
    /// The user and the client's address.
    who: (String, String),
    pty: bool,
    term: Option<Term>,
    /// An exec request's session reads no input: its command is all it runs.
    exec: bool,
    logout: Option<Logout>,
}

impl ChannelState {
    /// `t` logged in (`show users` lists it until the channel ends).
    fn login(&mut self, t: Term) -> Term {
        self.device.logged_in(t.id, &self.who.0, &self.who.1);
        self.logout = Some(Logout(self.device.clone(), t.id));
        t
    }

    /// A shell: a session logged in, its banner and first prompt sent. `false`: the channel
    /// is gone.
    async fn shell(&mut self, channel: &Channel<Msg>) -> bool {
        let id = self.device.login();
        let mut t = self.login(Term::new(id, self.pty, true));
        if channel.data(&t.greet(&self.device)[..]).await.is_err() {
            return false;
        }
        self.term = Some(t);
        true
    }

    /// An exec request: a session logged in runs `command`; its output.
    fn exec(&mut self, command: &str) -> Vec<Out> {
        // Without a terminal, output lines end in `\n`, as a command's output to a pipe (the
        // lab's choice).
        let id = self.device.login();
        let mut t = self.login(Term::new(id, self.pty, self.pty));
        let outs = t.exec(&self.device, command);
        self.term = Some(t);
        self.exec = true;
        outs
    }
}

/// One message of a channel receiving an SCP transfer: data fed to the sink (its answer
/// sent), EOF ends the channel with the transfer's status. `false`: the channel ended.
async fn receive(
    device: &Device,
    r: &mut Receiving,
    channel: &Channel<Msg>,
    msg: ChannelMsg,
) -> bool {
    match msg {
        ChannelMsg::Data { data } => {
            let mut store = |name: &str, bytes: Vec<u8>| device.put_home(r.id, name, bytes);
            let answer = r.sink.feed(&data, &mut store);
            answer.is_empty() || channel.data(&answer[..]).await.is_ok()
        }
        ChannelMsg::Eof => {
            end(channel, u32::from(r.sink.failed())).await;
            false
        }
        ChannelMsg::Close => false,
        _ => true,
    }
}

/// A session's output sent in order: data, pauses, and its end (an exit status, or the
/// connection dropped). `false`: the channel ended.
async fn send(channel: &Channel<Msg>, handle: &russh::server::Handle, outs: Vec<Out>) -> bool {
    for out in outs {
        match out {
            Out::Data(bytes) => {
                if channel.data(&bytes[..]).await.is_err() {
                    return false;
                }
            }
            Out::Delay(d) => tokio::time::sleep(d).await,
            Out::Close | Out::Exit(_) => {
                let status = match out {
                    Out::Exit(n) => n,
                    _ => 0,
                };
                end(channel, status).await;
                return false;
            }
            Out::Drop => {
                let _ = handle
                    .disconnect(
                        russh::Disconnect::ByApplication,
                        String::new(),
                        String::new(),
                    )
                    .await;
                return false;
            }
        }
    }
    true
}
