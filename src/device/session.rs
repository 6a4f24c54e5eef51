//! The Onyx CLI over one SSH shell: prompt detection robust to `\r`, ANSI escapes, NUL
//! padding, backspace pairs, an empty hostname and MLAG roles; paging off; `enable` (with its
//! password prompt) and `configure terminal`; a reply line beginning with `%` is an error.
//! Before the first command, the name the switch gives itself (its prompt) must be the
//! target's, or, for a name outside the fleet, its host key must be recorded for the target.
//! Every command and reply is written to the session's transcript, secrets redacted.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::{Error, Options, Secret, Target};
use crate::onyx::{self, Config};

/// The CLI level the session is at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    User,
    Enable,
    Config,
}

/// A logged-in Onyx CLI session.
pub struct Cli {
    pub target: Target,
    session: ssh2::Session,
    channel: ssh2::Channel,
    level: Level,
    timeout: Duration,
    password: Option<Secret>,
    transcript: Option<std::fs::File>,
    /// Where the transcript is, for reports.
    pub transcript_path: Option<PathBuf>,
    /// The hostname the last prompt showed.
    prompt_host: String,
    /// Every switch name of the fleet (`Options::switches`).
    fleet: Vec<String>,
}

/// Where an Onyx prompt ends the text: `host [cluster: role] > `, `… # `,
/// `… (config…) # `; the hostname may be empty. `text` is cleaned (no `\r`, escapes, NULs).
pub fn prompt_level(text: &str) -> Option<Level> {
    let last = text.rsplit('\n').next()?;
    let body = last.strip_suffix(' ').unwrap_or(last);
    let level = body.chars().last()?;
    if level != '>' && level != '#' {
        return None;
    }
    let body = body[..body.len() - 1].trim_end();
    let open = body.find('[')?;
    if open > 0 && !body[..open].ends_with(' ') || body[..open].trim().contains(' ') {
        return None;
    }
    let close = open + body[open..].find(']')?;
    let (cluster, role) = body[open + 1..close].split_once(": ")?;
    if cluster.is_empty() || role.is_empty() || !role.chars().all(|c| c.is_ascii_alphabetic()) {
        return None;
    }
    let mode = body[close + 1..].trim();
    match (mode, level) {
        ("", '>') => Some(Level::User),
        ("", '#') => Some(Level::Enable),
        (m, '#') if m.starts_with("(config") && m.ends_with(')') => Some(Level::Config),
        _ => None,
    }
}

/// The hostname a prompt shows (empty when the switch has none): the text before ` [`.
pub fn prompt_host(text: &str) -> &str {
    let last = text.rsplit('\n').next().unwrap_or("");
    last.find('[').map_or("", |i| last[..i].trim())
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

/// Whether the text ends at the pager's prompt (`lines 1-23`, `lines 8-30/30 (END)`).
fn at_pager(text: &str) -> bool {
    let last = text.rsplit('\n').next().unwrap_or("").trim_end();
    last.starts_with("lines ") && last[6..].chars().next().is_some_and(|c| c.is_ascii_digit())
}

impl Cli {
    /// Connects, logs in, waits for the first prompt, checks that the switch is the one asked
    /// for (before any command), turns paging off and enters enable.
    pub fn open(target: &Target, opts: &Options) -> Result<Cli, Error> {
        let (session, trust) = super::ssh::connect(target, opts)?;
        let closed = |e: ssh2::Error| {
            Error::Connect(format!("cannot open a shell: {}", super::ssh::plain(&e)))
        };
        let mut channel = session.channel_session().map_err(closed)?;
        channel
            .request_pty("vt100", None, Some((511, 24, 0, 0)))
            .map_err(closed)?;
        channel.shell().map_err(closed)?;
        let transcript_path = opts.transcripts.as_ref().map(|dir| {
            dir.join(&target.name)
                .join(format!("{}.log", crate::device::push::stamp()))
        });
        let transcript = transcript_path.as_ref().and_then(|p| {
            std::fs::create_dir_all(p.parent()?).ok()?;
            std::fs::File::create(p).ok()
        });
        let mut cli = Cli {
            target: target.clone(),
            session,
            channel,
            level: Level::User,
            timeout: opts.command_timeout,
            password: opts.password.clone(),
            transcript,
            transcript_path,
            prompt_host: String::new(),
            fleet: opts.switches.clone(),
        };
        let (_, level) = cli.read_to_prompt("(login)")?;
        cli.level = level;
        let seen = cli.prompt_host.clone();
        identity(target, opts, trust.name_pinned, &cli.fleet, &seen)?;
        trust.record(opts)?;
        cli.run("no cli session paging enable")?;
        if cli.level == Level::User {
            cli.enable()?;
        }
        Ok(cli)
    }

    pub fn level(&self) -> Level {
        self.level
    }

    fn log(&mut self, text: &str) {
        let Some(f) = self.transcript.as_mut() else {
            return;
        };
        // What the switch shows may hold secrets of its own (`snmp-server community …`).
        let mut text = crate::diag::redact_secrets(text).into_owned();
        if let Some(p) = self.password.as_ref().filter(|p| !p.0.is_empty()) {
            text = text.replace(&p.0, "********");
        }
        let _ = f.write_all(text.as_bytes());
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
            let tail = onyx::clean(&tail);
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
            if at_pager(&tail) {
                // Paging should be off; if a pager shows anyway, page on.
                let _ = self.channel.write_all(b" ");
                continue;
            }
            if let Some(level) = prompt_level(&tail) {
                self.prompt_host = prompt_host(&tail).to_string();
                let text = String::from_utf8_lossy(&raw).into_owned();
                self.log(&text);
                let clean = onyx::clean(&text).into_owned();
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

    /// Runs one command; its output without the echoed line. A line beginning with `%` is
    /// the switch refusing it.
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
        if let Some(err) = output.lines().find(|l| l.starts_with('%')) {
            return Err(Error::Refused {
                command: command.to_string(),
                reply: err.to_string(),
            });
        }
        Ok(output)
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

    /// `show running-config`, read into the model, its secrets masked as Onyx masks its own
    /// (`********`): the text goes to backups and transcripts, the model to printed diffs and
    /// imported fabrics, and nothing here needs a secret. A `hostname` line naming another
    /// switch of the fleet is refused, as its prompt would be.
    pub fn fetch(&mut self) -> Result<(String, Config), Error> {
        if self.level == Level::Config {
            self.leave_config()?;
        }
        let text = self.run("show running-config")?;
        let text = crate::diag::redact_secrets(&text).into_owned();
        let config = onyx::parse(&text).map_err(|e| {
            Error::Parse(format!(
                "the running config read back does not parse at line {}: expected {}",
                e.line, e.expected
            ))
        })?;
        if let Some(name) = config.hostname.as_deref()
            && is_other(&self.target, &self.fleet, name)
        {
            return Err(Error::Identity(format!(
                "the switch at {} is not `{}`: its running config says `hostname {name}`",
                super::ssh::address(&self.target),
                self.target.name
            )));
        }
        Ok((text, config))
    }

    /// Enters configuration mode.
    pub fn configure(&mut self) -> Result<(), Error> {
        if self.level != Level::Config {
            self.run("configure terminal")?;
        }
        Ok(())
    }

    /// Leaves every configuration level.
    pub fn leave_config(&mut self) -> Result<(), Error> {
        for _ in 0..4 {
            if self.level != Level::Config {
                return Ok(());
            }
            self.run("exit")?;
        }
        Ok(())
    }

    /// Ends the session politely.
    pub fn close(mut self) {
        let _ = self.leave_config();
        let _ = self.send("exit", "exit");
        let _ = self.channel.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_as_onyx_prints_them() {
        let cases = [
            ("leaf01 [standalone: master] > ", Some(Level::User)),
            ("out\nleaf01 [standalone: master] # ", Some(Level::Enable)),
            (" [standalone: master] > ", Some(Level::User)),
            ("MLNX01-1 [MLNX01: standby] # ", Some(Level::Enable)),
            ("sw [my-vip: master] (config) # ", Some(Level::Config)),
            (
                "sw [standalone: master] (config interface ethernet 1/1-1/4) # ",
                Some(Level::Config),
            ),
            (
                "sw [standalone: master] (config pool roce)#",
                Some(Level::Config),
            ),
            ("   interface ethernet 1/1 # not a prompt", None),
            ("## Running database", None),
            ("lines 1-23 ", None),
        ];
        for (text, want) in cases {
            assert_eq!(prompt_level(text), want, "{text:?}");
        }
        assert_eq!(
            prompt_host("banner\nleaf01 [standalone: master] > "),
            "leaf01"
        );
        assert_eq!(prompt_host(" [standalone: master] > "), "");
        assert_eq!(
            prompt_host("MLNX01-1 [MLNX01: standby] (config) # "),
            "MLNX01-1"
        );
        assert!(at_pager("x\nlines 1-23 "));
        assert!(at_pager("lines 8-30/30 (END) "));
    }
}
