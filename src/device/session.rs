//! A switch's CLI over one SSH shell, in its OS's [`Dialect`]: prompt detection robust to `\r`,
//! ANSI escapes, NUL padding, backspace pairs, an empty hostname and MLAG roles; paging off;
//! `enable` (with its password prompt, where the first prompt is below it) and configuration
//! mode (where the OS has one); a reply line the dialect reads as an error is one.
//! Before the first command, the name the switch gives itself (its prompt) must be the
//! target's, or, for a name outside the fleet, its host key must be recorded for the target.
//! Every command and reply is written to the session's transcript (a file of its own, never
//! another session's), secrets redacted; a transcript that cannot be written says why.
//! A running config read back is trusted only when its OS's reader takes it (whole, parsed).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod listings;

pub use listings::Login;

use super::dialect::{self, Dialect};
use super::{Error, Options, Secret, Target};

/// The CLI level the session is at, as its prompt shows it.
pub use super::dialect::Level;

/// A logged-in CLI session.
pub struct Cli {
    pub target: Target,
    session: ssh2::Session,
    channel: ssh2::Channel,
    level: Level,
    timeout: Duration,
    password: Option<Secret>,
    transcript: Transcript,
    /// The hostname the last prompt showed.
    prompt_host: String,
    /// Every switch name of the fleet (`Options::switches`).
    fleet: Vec<String>,
    /// The switch OS's session conventions.
    dialect: &'static Dialect,
    /// The command sent asks to confirm (`[confirm yes/no(default)]:`): it is answered `yes`.
    confirming: bool,
}

/// Where a session's transcript is and whether all of it was written.
#[derive(Clone, Debug, Default)]
pub struct TranscriptStatus {
    pub path: Option<PathBuf>,
    /// The first failure to create or write it; nothing is written after it.
    error: Arc<Mutex<Option<String>>>,
}

impl TranscriptStatus {
    /// Why the transcript is missing or incomplete, if it is.
    pub fn error(&self) -> Option<String> {
        self.error.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// A session's transcript file: made new (never an existing file, never another session's),
/// written as the session goes; the first failure is kept and reported, not ignored.
pub struct Transcript {
    file: Option<std::fs::File>,
    status: TranscriptStatus,
}

impl Transcript {
    /// No transcript (none asked for).
    pub fn none() -> Transcript {
        Transcript {
            file: None,
            status: TranscriptStatus::default(),
        }
    }

    /// A new transcript in `dir`, named after the time: `20261122T042233Z.log`, or
    /// `…Z-2.log`, `…Z-3.log` when that name is taken (several sessions in one second: a
    /// push and its roll-back, two pushes).
    pub fn create(dir: &Path) -> Transcript {
        let stamp = crate::device::push::stamp();
        let made = std::fs::create_dir_all(dir).map_err(|e| (dir.join(format!("{stamp}.log")), e));
        let made = made.and_then(|()| {
            let mut n = 1;
            loop {
                let path = match n {
                    1 => dir.join(format!("{stamp}.log")),
                    n => dir.join(format!("{stamp}-{n}.log")),
                };
                match std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path)
                {
                    Ok(f) => return Ok((path, f)),
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                    Err(e) => return Err((path, e)),
                }
            }
        });
        match made {
            Ok((path, file)) => Transcript::to_file(file, path),
            Err((path, e)) => Transcript {
                file: None,
                status: TranscriptStatus {
                    error: Arc::new(Mutex::new(Some(format!(
                        "cannot create the transcript `{}`: {e}",
                        path.display()
                    )))),
                    path: Some(path),
                },
            },
        }
    }

    /// A transcript written to an open file (`path` names it in messages).
    pub fn to_file(file: std::fs::File, path: PathBuf) -> Transcript {
        Transcript {
            file: Some(file),
            status: TranscriptStatus {
                path: Some(path),
                error: Arc::default(),
            },
        }
    }

    /// Appends text; after a failure (a full disk) nothing more is written and the failure
    /// is kept.
    pub fn write(&mut self, text: &str) {
        let Some(f) = self.file.as_mut() else { return };
        if let Err(e) = f.write_all(text.as_bytes()) {
            self.file = None;
            let path = self.status.path.as_deref().unwrap_or(Path::new("?"));
            *self.status.error.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!(
                "the transcript `{}` is incomplete: {e}",
                path.display()
            ));
        }
    }

    pub fn status(&self) -> TranscriptStatus {
        self.status.clone()
    }
}

/// Whether `name` is another switch of the fleet than the target.
fn is_other(target: &Target, fleet: &[String], name: &str) -> bool {
    !name.eq_ignore_ascii_case(&target.name) && fleet.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// Who the switch says it is (its prompt's hostname), against the switch asked for: the same
/// name passes; another switch's name of the fleet is refused; any other name (a factory-new
/// switch, one that keeps its own with `set_hostname: false`, none at all) passes only when
/// the host key is recorded for the target's name, which proves the identity.
fn identity(
    target: &Target,
    opts: &Options,
    pinned: bool,
    fleet: &[String],
    seen: &str,
) -> Result<(), Error> {
    let addr = super::ssh::address(target);
    if seen.eq_ignore_ascii_case(&target.name) {
        return Ok(());
    }
    if is_other(target, fleet, seen) {
        return Err(Error::Identity(format!(
            "the switch at {addr} is not `{}`: it says it is `{seen}`",
            target.name
        )));
    }
    if pinned {
        return Ok(());
    }
    let says = if seen.is_empty() {
        "gives no hostname".to_string()
    } else {
        format!("says it is `{seen}`")
    };
    Err(Error::Identity(format!(
        "the switch at {addr} {says}, not `{name}`, and its host key is not recorded for `{name}`; if it is `{name}` (a new switch, or one that keeps its own name), pin its key to the name: add `{name},` before its address in `{file}`, or connect once with `--accept-new`",
        name = target.name,
        file = opts.known_hosts.display()
    )))
}

impl Cli {
    /// Connects to a switch that speaks `dialect`, logs in, waits for the first prompt, checks
    /// that the switch is the one asked for (before any command), turns paging off and enters
    /// enable when the prompt is below it ([`Level::User`]; a shell's prompt is not).
    pub fn open_as(
        target: &Target,
        opts: &Options,
        dialect: &'static Dialect,
    ) -> Result<Cli, Error> {
        let (session, trust) = super::ssh::connect(target, opts)?;
        let closed = |e: ssh2::Error| {
            Error::Connect(format!("cannot open a shell: {}", super::ssh::plain(&e)))
        };
        let mut channel = session.channel_session().map_err(closed)?;
        channel
            .request_pty("vt100", None, Some((511, 24, 0, 0)))
            .map_err(closed)?;
        channel.shell().map_err(closed)?;
        let transcript = match &opts.transcripts {
            Some(dir) => Transcript::create(&dir.join(&target.name)),
            None => Transcript::none(),
        };
        let mut cli = Cli {
            target: target.clone(),
            session,
            channel,
            level: Level::User,
            timeout: opts.command_timeout,
            password: opts.password.clone(),
            transcript,
            prompt_host: String::new(),
            fleet: opts.switches.clone(),
            dialect,
            confirming: false,
        };
        let (_, level) = cli.read_to_prompt("(login)")?;
        cli.level = level;
        let seen = cli.prompt_host.clone();
        identity(target, opts, trust.name_pinned, &cli.fleet, &seen)?;
        trust.record(opts)?;
        cli.run(dialect.paging_off)?;
        if cli.level == Level::User {
            cli.enable()?;
        }
        Ok(cli)
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// Where this session's transcript is, and whether it is whole.
    pub fn transcript(&self) -> TranscriptStatus {
        self.transcript.status()
    }

    fn log(&mut self, text: &str) {
        // What the switch shows may hold secrets of its own (`snmp-server community …`).
        let mut text = crate::secrets::mask(text, self.dialect.mask).into_owned();
        if let Some(p) = self.password.as_ref().filter(|p| !p.0.is_empty()) {
            text = text.replace(&p.0, "********");
        }
        self.transcript.write(&text);
    }

    /// Reads until a CLI prompt: the text before it (cleaned) and the level it shows.
    fn read_to_prompt(&mut self, command: &str) -> Result<(String, Level), Error> {
        let deadline = Instant::now() + self.timeout;
        let mut raw: Vec<u8> = Vec::new();
        let mut buf = [0u8; 32 * 1024];
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.log(&String::from_utf8_lossy(&raw));
                return Err(Error::Timeout {
                    command: command.to_string(),
                });
            }
            self.session
                .set_timeout(u32::try_from(left.as_millis()).unwrap_or(u32::MAX).max(1));
            match self.channel.read(&mut buf) {
                Ok(0) => {
                    self.log(&String::from_utf8_lossy(&raw));
                    return Err(Error::Closed {
                        command: command.to_string(),
                    });
                }
                Ok(n) if (raw.len() + n) as u64 > crate::config_error::MAX_BYTES => {
                    // More than a running config may have, and still no prompt: a switch
                    // that prints without end is not read to its end.
                    self.log(&String::from_utf8_lossy(
                        &raw[raw.len().saturating_sub(4096)..],
                    ));
                    return Err(Error::Endless {
                        command: command.to_string(),
                    });
                }
                Ok(n) => raw.extend_from_slice(&buf[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock
                    ) && !self.channel.eof() =>
                {
                    continue;
                }
                // The connection is gone (a disconnect, a reset).
                Err(_) => {
                    self.log(&String::from_utf8_lossy(&raw));
                    return Err(Error::Closed {
                        command: command.to_string(),
                    });
                }
            }
            // Only the tail can hold the prompt; clean just that much.
            let tail = String::from_utf8_lossy(&raw[raw.len().saturating_sub(512)..]);
            let tail = (self.dialect.clean)(&tail);
            // `enable` may ask for a password: the login password answers it.
            if command == "enable" && tail.trim_end().to_ascii_lowercase().ends_with("password:") {
                let password = self.password.clone().unwrap_or_default();
                self.log(&String::from_utf8_lossy(&raw));
                self.log("\n>>> (enable password)\n");
                raw.clear();
                self.channel
                    .write_all(format!("{}\n", password.0).as_bytes())
                    .map_err(|_| Error::Closed {
                        command: command.to_string(),
                    })?;
                continue;
            }
            let last = tail.rsplit('\n').next().unwrap_or("");
            if self.confirming && is_confirm(last) {
                self.confirming = false;
                self.log(&String::from_utf8_lossy(&raw));
                self.log("\n>>> yes\n");
                raw.clear();
                self.channel
                    .write_all(b"yes\n")
                    .map_err(|_| Error::Closed {
                        command: command.to_string(),
                    })?;
                continue;
            }
            if (self.dialect.pager)(last) {
                // Paging should be off; if a pager shows anyway, page on.
                let _ = self.channel.write_all(b" ");
                continue;
            }
            if let Some(prompt) = (self.dialect.prompt)(last) {
                let level = prompt.level;
                self.prompt_host = prompt.host.to_string();
                let text = String::from_utf8_lossy(&raw).into_owned();
                self.log(&text);
                let clean = (self.dialect.clean)(&text).into_owned();
                let body = clean.rsplit_once('\n').map_or("", |(b, _)| b).to_string();
                return Ok((body, level));
            }
        }
    }

    fn send(&mut self, line: &str, shown: &str) -> Result<(), Error> {
        self.log(&format!("\n>>> {shown}\n"));
        let _ = self.session.keepalive_send();
        self.channel
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| self.channel.flush())
            .map_err(|_| Error::Closed {
                command: shown.to_string(),
            })
    }

    /// Runs one command; its output without the echoed line. A line the dialect reads as an
    /// error ([`Dialect::error`]) is the switch refusing it.
    pub fn run(&mut self, command: &str) -> Result<String, Error> {
        self.send(command, command)?;
        let (text, level) = self.read_to_prompt(command)?;
        self.level = level;
        // The echo of the command is the first line.
        let output = match text.split_once('\n') {
            Some((first, rest)) if first.trim_end().ends_with(command.trim()) => rest,
            _ if text.trim_end().ends_with(command.trim()) => "",
            _ => text.as_str(),
        };
        let output = output.strip_prefix('\n').unwrap_or(output).to_string();
        if let Some(err) = output.lines().find(|l| (self.dialect.error)(l)) {
            return Err(Error::Refused {
                command: command.to_string(),
                reply: err.to_string(),
            });
        }
        Ok(output)
    }

    /// [`Cli::run`] of a command that asks to confirm first (OS10's `delete`): the question
    /// is answered `yes`. A command that does not ask is run as it is.
    pub fn run_confirmed(&mut self, command: &str) -> Result<String, Error> {
        self.confirming = true;
        let out = self.run(command);
        self.confirming = false;
        out
    }

    /// `enable`, answering its password prompt (see `read_to_prompt`) with the login
    /// password.
    fn enable(&mut self) -> Result<(), Error> {
        self.send("enable", "enable")?;
        let (_, level) = self.read_to_prompt("enable")?;
        self.level = level;
        if level == Level::User {
            return Err(Error::Auth("`enable` refused".into()));
        }
        Ok(())
    }

    /// The running configuration (the dialect's `show running-config(uration)`), read by the
    /// OS's `read`: the reply checked, its secrets masked as the OS masks its own and read into
    /// the OS's model, or why not. A `hostname` (`hostname` gives it) naming another switch of
    /// the fleet is refused, as its prompt would be.
    pub fn fetch_with<T>(
        &mut self,
        read: impl FnOnce(&str) -> Result<(String, T), String>,
        hostname: impl FnOnce(&T) -> Option<&str>,
    ) -> Result<(String, T), Error> {
        self.leave_config()?;
        let text = self.run(self.dialect.show_running)?;
        let (text, config) = read(&text).map_err(Error::Parse)?;
        self.same_hostname(hostname(&config), self.dialect.running)?;
        Ok((text, config))
    }

    /// The sessions logged in, this one included (the dialect's `users_command`, `show
    /// users`).
    pub fn sessions(&mut self) -> Result<Vec<Login>, Error> {
        let command = self.dialect.users_command;
        let text = self.run(command)?;
        (self.dialect.users)(&text).ok_or_else(|| {
            Error::Parse(format!(
                "{}: `{command}` printed no table of sessions",
                self.target.name
            ))
        })
    }

    /// The saved configuration files a push's snapshots are among, the one the switch boots
    /// from left out (Onyx's `show configuration files`, OS10's `dir config`). A reply that is
    /// not such a listing is an error, never read as no files.
    pub fn snapshot_files(&mut self) -> Result<Vec<String>, Error> {
        let list = self.dialect.snapshots.list;
        let text = self.run(list)?;
        (self.dialect.snapshots.read)(&text).ok_or_else(|| {
            Error::Parse(format!(
                "{}: `{list}` printed no listing of the saved files",
                self.target.name
            ))
        })
    }

    /// Enters configuration mode; nothing on an OS without one.
    pub fn configure(&mut self) -> Result<(), Error> {
        if let Some(configure) = self.dialect.configure
            && self.level != Level::Config
        {
            self.run(configure)?;
        }
        Ok(())
    }

    /// Leaves every configuration level.
    pub fn leave_config(&mut self) -> Result<(), Error> {
        if let Some(end) = self.dialect.end {
            if self.level == Level::Config {
                self.run(end)?;
            }
            return Ok(());
        }
        for _ in 0..4 {
            if self.level != Level::Config {
                return Ok(());
            }
            self.run("exit")?;
        }
        Ok(())
    }

    /// A `hostname` read back from the switch (in its `what`) naming another switch of the
    /// fleet is refused, as its prompt would be.
    fn same_hostname(&self, name: Option<&str>, what: &str) -> Result<(), Error> {
        match name {
            Some(name) if is_other(&self.target, &self.fleet, name) => {
                Err(Error::Identity(format!(
                    "the switch at {} is not `{}`: its {what} says `hostname {name}`",
                    super::ssh::address(&self.target),
                    self.target.name
                )))
            }
            _ => Ok(()),
        }
    }

    /// The switch OS this session speaks.
    pub fn dialect(&self) -> &'static Dialect {
        self.dialect
    }

    /// Saves the running configuration as the one the switch boots from (Onyx
    /// `configuration write`, OS10 `write memory`), from the `#` prompt.
    pub fn save(&mut self) -> Result<(), Error> {
        self.leave_config()?;
        self.run(self.dialect.save).map(|_| ())
    }

    /// Types `lines` in configuration mode, in order, stopping at the first the switch
    /// refuses: that line and the switch's reply are the error. The lines are the caller's
    /// (a plan's), one command each: a line holding a line break is refused before anything
    /// is sent, as it would be two commands.
    pub fn apply(&mut self, lines: &[String]) -> Result<(), Error> {
        if let Some(bad) = lines.iter().find(|l| l.contains(['\n', '\r'])) {
            return Err(Error::Refused {
                command: bad.replace(['\n', '\r'], " "),
                reply: "a command holds a line break: nothing was sent".into(),
            });
        }
        self.configure()?;
        for line in lines {
            self.run(line)?;
        }
        Ok(())
    }

    /// The OS's transaction commands, or an error naming the OS when it has none.
    fn transaction(&self) -> Result<dialect::Transaction, Error> {
        self.dialect.transaction.ok_or_else(|| Error::Refused {
            command: "start transaction".into(),
            reply: format!("{} has no transaction mode", self.dialect.name),
        })
    }

    /// Starts a transaction: configuration typed after it is held until [`Cli::commit`].
    pub fn begin(&mut self) -> Result<(), Error> {
        let t = self.transaction()?;
        self.leave_config()?;
        self.run(t.start).map(|_| ())
    }

    /// Applies what the transaction held, all at once.
    pub fn commit(&mut self) -> Result<(), Error> {
        let t = self.transaction()?;
        self.leave_config()?;
        self.run(t.commit).map(|_| ())
    }

    /// Confirms the last commit where the OS rolls back an unconfirmed one by itself
    /// ([`dialect::Transaction::confirm`]); nothing where a commit stands as it is.
    pub fn confirm(&mut self) -> Result<(), Error> {
        let Some(confirm) = self.transaction()?.confirm else {
            return Ok(());
        };
        self.leave_config()?;
        self.run(confirm).map(|_| ())
    }

    /// Drops what the transaction held: the running configuration is as before
    /// [`Cli::begin`].
    pub fn discard(&mut self) -> Result<(), Error> {
        let t = self.transaction()?;
        self.leave_config()?;
        self.run(t.discard).map(|_| ())
    }

    /// Ends the session politely.
    pub fn close(mut self) {
        let _ = self.leave_config();
        let _ = self.send("exit", "exit");
        let _ = self.channel.close();
    }
}

/// Whether a reply's last line asks to confirm: `… [confirm yes/no(default)]:`, `…
/// [confirm yes/no]:` (captured, CSM).
fn is_confirm(line: &str) -> bool {
    let line = line.trim_end();
    line.ends_with("]:") && line.contains("[confirm yes/no")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full disk (`/dev/full`: every write fails with ENOSPC) makes the transcript say it
    /// is incomplete; nothing is silently lost.
    #[test]
    fn a_transcript_that_cannot_be_written_says_so() {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let mut t = Transcript::to_file(file, PathBuf::from("/dev/full"));
        assert_eq!(t.status().error(), None);
        t.write(">>> show running-config\n");
        let error = t.status().error().unwrap();
        assert!(
            error.starts_with("the transcript `/dev/full` is incomplete: No space left on device"),
            "{error}"
        );
        let status = t.status();
        t.write("more");
        assert_eq!(status.error(), Some(error));
        // A folder that cannot be made: said when the session starts.
        let t = Transcript::create(Path::new("/dev/null/logs"));
        assert!(
            t.status()
                .error()
                .is_some_and(|e| e.starts_with("cannot create the transcript `/dev/null/logs/")),
            "{:?}",
            t.status().error()
        );
    }

    #[test]
    fn a_question_to_confirm_as_captured() {
        assert!(is_confirm(
            "Proceed to delete startup-configuration [confirm yes/no(default)]:"
        ));
        assert!(is_confirm(
            "Proceed to reboot the system? [confirm yes/no]:"
        ));
        assert!(!is_confirm("OS10# "));
    }
}
