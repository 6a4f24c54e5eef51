//! Talking to switches: the SSH transport (ssh2: host keys judged as OpenSSH judges
//! `known_hosts`, agent, key file, password and keyboard-interactive, timeouts, keepalives),
//! the switch's identity checked before the first command (its host key and its name), the
//! CLI session over it, one code for every switch OS with the OS's conventions as a value
//! ([`dialect`], each OS's in its folder: prompts, paging, enable and configure, `%` replies),
//! and the push of a plan with its safety: one push per switch (a lock), snapshot, drift
//! guard, apply, verify, save, roll back.
//!
//! Input: where a switch is and how to log in; a plan (`diff`). Output: what happened, per
//! switch, as data: nothing here prints. Secrets never reach a transcript, a backup or an
//! error: a running config read from a switch has its secrets masked.

pub mod dialect;
pub mod host;
pub mod jump;
pub mod known_hosts;
pub mod lock;
pub mod push;
pub mod session;
pub mod ssh;
pub mod ssh_config;

use std::path::PathBuf;
use std::time::Duration;

pub use session::Cli;

/// Where a switch is and who logs in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    pub host: String,
    pub port: u16,
    pub user: String,
    /// Private keys the SSH config gives for this host (`IdentityFile`), tried after
    /// `--identity` and before the agent.
    pub identities: Vec<PathBuf>,
    /// The bastions to go through, the first one connected to first (`ProxyJump`); each is
    /// logged in to with keys only, its host key checked as strictly as a switch's.
    pub jumps: Vec<Target>,
}

impl Target {
    /// A switch reached directly, with no key of its own.
    pub fn new(name: &str, host: &str, port: u16, user: &str) -> Target {
        Target {
            name: name.to_string(),
            host: host.to_string(),
            port,
            user: user.to_string(),
            identities: Vec::new(),
            jumps: Vec::new(),
        }
    }
}

/// A secret kept out of `Debug` output.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(***)")
    }
}

/// How to connect and how long to wait.
#[derive(Clone, Debug)]
pub struct Options {
    /// OpenSSH `known_hosts` file checked strictly.
    pub known_hosts: PathBuf,
    /// Record the key of a host not in `known_hosts` (OpenSSH's `accept-new`); a changed
    /// key is refused whatever this says.
    pub accept_new: bool,
    /// A private key file (`--identity`); else the agent, then the password.
    pub identity: Option<PathBuf>,
    pub password: Option<Secret>,
    pub connect_timeout: Duration,
    /// Longest wait for one command's reply (a hang ends here).
    pub command_timeout: Duration,
    /// Longest a switch's push may take before it is stopped and rolled back.
    pub switch_timeout: Duration,
    /// Folder for one transcript per switch and session; none when `None`.
    pub transcripts: Option<PathBuf>,
    /// Every switch name of the fabric and inventory: a switch that answers with another's
    /// host key or hostname is refused as not the one asked for.
    pub switches: Vec<String>,
}

impl Options {
    pub fn new(known_hosts: PathBuf) -> Options {
        Options {
            known_hosts,
            accept_new: false,
            identity: None,
            password: None,
            connect_timeout: Duration::from_secs(10),
            command_timeout: Duration::from_secs(30),
            switch_timeout: Duration::from_secs(600),
            transcripts: None,
            switches: Vec::new(),
        }
    }
}

/// Why talking to a switch failed. Messages name the switch's address, never the switch
/// (whoever prints one names it, once) and never a secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// No TCP connection or no SSH handshake.
    Connect(String),
    /// The host key is unknown, changed or revoked: refused.
    HostKey(String),
    /// The switch is not the one asked for (its host key or its hostname is another
    /// switch's, or it gives another name and its key is not recorded for this one): refused
    /// before any command.
    Identity(String),
    /// Every login method was refused.
    Auth(String),
    /// No prompt came back in time.
    Timeout { command: String },
    /// The connection ended.
    Closed { command: String },
    /// A reply went past the most a running config may have without a prompt: not read on.
    Endless { command: String },
    /// The switch answered a command with a `%` error line.
    Refused { command: String, reply: String },
    /// The running config read back does not parse, or is not whole.
    Parse(String),
    /// The push was told to stop (a signal); the reason.
    Stopped(String),
}

impl Error {
    /// Whether the session can still be used after this error.
    pub fn session_usable(&self) -> bool {
        matches!(
            self,
            Error::Refused { .. } | Error::Parse(_) | Error::Stopped(_)
        )
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Connect(m)
            | Error::HostKey(m)
            | Error::Identity(m)
            | Error::Auth(m)
            | Error::Parse(m)
            | Error::Stopped(m) => f.write_str(m),
            Error::Timeout { command } => write!(f, "no reply to `{command}` in time"),
            Error::Closed { command } => write!(f, "connection lost at `{command}`"),
            Error::Endless { command } => write!(
                f,
                "the reply to `{command}` went past {} without a prompt: stopped reading",
                crate::input::mib(crate::config_error::MAX_BYTES)
            ),
            Error::Refused { command, reply } => write!(f, "`{command}` refused: {reply}"),
        }
    }
}
