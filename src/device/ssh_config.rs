//! Where a switch really is, as OpenSSH would reach it: the user's `~/.ssh/config` (or
//! `--ssh-config FILE`) read with ssh2-config, and a switch's destination (its `mgmt` host, an
//! inventory's host, `--live`'s) looked up in it for `HostName`, `User`, `Port`,
//! `IdentityFile` and `ProxyJump`, `Host` patterns and `Include` as OpenSSH applies them
//! (the first value obtained wins).
//!
//! Precedence is OpenSSH's: what the command line gives first, then the config file, then
//! the defaults (port 22, user `admin`). A fabric's `mgmt` and an inventory are the command
//! line: a `port` or `user` written there wins over the file; what they leave out the file
//! may give. `HostName` maps the destination to the address connected to, as `ssh leaf01`
//! does; host keys are checked for that address.
//!
//! Input: a file's text. Output: [`Target`]s with their keys and bastions. A bad line is an
//! error naming the file and line; nothing here connects.

use std::path::{Path, PathBuf};

use ssh2_config::{ParseRule, SshParserError};

use super::Target;

/// The SSH port and user when neither the command line nor the config gives one.
pub const DEFAULT_PORT: u16 = 22;
pub const DEFAULT_USER: &str = "admin";

/// Bastions behind bastions: more hops than this is a loop in the config.
const MAX_HOPS: usize = 8;

/// A parsed SSH client configuration file.
#[derive(Debug)]
pub struct SshConfig {
    path: PathBuf,
    config: ssh2_config::SshConfig,
}

impl SshConfig {
    /// Reads `path`. A file that does not exist is `None` when it is the default one (`ssh`
    /// runs without one too) and an error when it was asked for. The file and every file it
    /// includes are read bounded ([`read_text`]).
    pub fn load(path: &Path, asked: bool) -> Result<Option<SshConfig>, String> {
        let text = match read_text(path) {
            Ok(text) => text,
            Err(Unread::Refused(crate::input::Refused::Io(e)))
                if e.kind() == std::io::ErrorKind::NotFound && !asked =>
            {
                return Ok(None);
            }
            Err(e) => return Err(format!("cannot read `{}`: {e}", path.display())),
        };
        Self::parse(path, &text).map(Some)
    }

    /// Parses a config's text (`path` names it in errors and anchors `Include`).
    pub fn parse(path: &Path, text: &str) -> Result<SshConfig, String> {
        let parse = |text: &str| {
            let mut config = ssh2_config::SshConfig::default();
            if let Some(home) = std::env::var_os("HOME") {
                config = config.home_dir(home);
            }
            // OpenSSH refuses a keyword it does not know (unless `IgnoreUnknown` names it),
            // and so does this; keywords it knows that play no part here (`ForwardAgent`,
            // `ControlMaster` …) are read and kept aside.
            config.parse(
                &mut std::io::BufReader::new(text.as_bytes()),
                ParseRule::ALLOW_UNSUPPORTED_FIELDS,
            )
        };
        // The parser opens the files `Include` names, without a limit and waiting on a pipe:
        // each is read here first, bounded, and refused with its line if it must be.
        includes(path, text, &mut Vec::new())?;
        match parse(text) {
            Ok(config) => Ok(SshConfig {
                path: path.to_path_buf(),
                config,
            }),
            Err(e) => {
                // The parser does not say where: the first line that fails alone is the one.
                let line = text
                    .lines()
                    .position(|l| parse(l).is_err())
                    .map_or(String::new(), |n| format!(":{}", n + 1));
                Err(format!("{}{line}: {}", path.display(), describe(&e)))
            }
        }
    }

    /// Where `host` (a destination as `ssh` takes it) is, for the switch `name`: `port` and
    /// `user` are the command line's (the fabric's `mgmt`, an inventory) and win over the
    /// file's.
    pub fn target(
        &self,
        name: &str,
        host: &str,
        port: Option<u16>,
        user: Option<&str>,
    ) -> Result<Target, String> {
        self.resolve(name, host, port, user, 0)
    }

    fn resolve(
        &self,
        name: &str,
        host: &str,
        port: Option<u16>,
        user: Option<&str>,
        depth: usize,
    ) -> Result<Target, String> {
        let params = self.config.query(host);
        let file = self.path.display();
        if let Some((keyword, _)) = params
            .unsupported_fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("proxycommand"))
        {
            return Err(format!(
                "`{keyword}` for `{host}` in `{file}` is not supported: write `ProxyJump [user@]bastion[:port]`"
            ));
        }
        let address = match &params.host_name {
            Some(h) => tokens(h, host, None, None)?,
            None => host.to_string(),
        };
        let port = port.or(params.port).unwrap_or(DEFAULT_PORT);
        let user = user
            .map(str::to_string)
            .or(params.user.clone())
            .unwrap_or_else(|| DEFAULT_USER.to_string());
        let identities = params
            .identity_file
            .iter()
            .flatten()
            .map(|p| {
                tokens(&p.to_string_lossy(), &address, Some(port), Some(&user)).map(PathBuf::from)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut target = Target::new(name, &address, port, &user);
        target.identities = identities;
        let hops = params.proxy_jump.unwrap_or_default();
        if hops.len() == 1 && hops[0].eq_ignore_ascii_case("none") {
            return Ok(target);
        }
        for spec in hops {
            if depth + target.jumps.len() >= MAX_HOPS {
                return Err(format!(
                    "`ProxyJump` in `{file}` goes through more than {MAX_HOPS} bastions from `{host}`: is it a loop?"
                ));
            }
            let (jump_host, jump_port, jump_user) = jump(&spec).ok_or_else(|| {
                format!("`ProxyJump {spec}` in `{file}`: write `[user@]host[:port]`")
            })?;
            let mut hop = self.resolve(
                jump_host,
                jump_host,
                jump_port,
                jump_user,
                depth + target.jumps.len() + 1,
            )?;
            // A bastion's own bastions come before it.
            target.jumps.append(&mut hop.jumps);
            target.jumps.push(hop);
        }
        Ok(target)
    }
}

/// The most an SSH config file, and each file it includes, may have. OpenSSH sets none; a
/// config of a thousand `Host` blocks is a few hundred KB, and `/dev/zero` is refused.
const MAX_BYTES: u64 = 4 << 20;

/// Files included by included files: OpenSSH stops at 16 (readconf.c, `READCONF_MAX_DEPTH`).
const MAX_INCLUDE_DEPTH: usize = 16;

/// Why a config file was not read.
#[derive(Debug)]
enum Unread {
    Refused(crate::input::Refused),
    NotText,
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unread::Refused(crate::input::Refused::Io(e)) => f.write_str(&super::ssh::plain_io(e)),
            Unread::Refused(r) => r.fmt(f),
            Unread::NotText => f.write_str("it is not UTF-8 text"),
        }
    }
}

/// A config file's text: a regular file (or an unnamed pipe) of at most [`MAX_BYTES`], read
/// by [`crate::input::read`] (a device, a folder or a named pipe is refused before it is
/// read), and UTF-8.
fn read_text(path: &Path) -> Result<String, Unread> {
    let bytes = crate::input::read(path, MAX_BYTES).map_err(Unread::Refused)?;
    String::from_utf8(bytes.into_vec()).map_err(|_| Unread::NotText)
}

/// Reads every file `text`'s `Include` lines name, and the files they include in turn, as
/// [`read_text`] does: one that must be refused is an error at its `Include` line in `path`.
/// `stack` holds the files being read, to stop a loop at its first turn.
fn includes(path: &Path, text: &str, stack: &mut Vec<PathBuf>) -> Result<(), String> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    for (n, line) in text.lines().enumerate() {
        let Some(args) = include_args(line) else {
            continue;
        };
        let at = format!("{}:{}", path.display(), n + 1);
        for arg in args {
            let Some(pattern) = include_pattern(&arg, home.as_deref()) else {
                continue;
            };
            // A pattern that is not one, or a match that cannot be listed, is the parser's
            // to report (it globs the same pattern).
            let Ok(found) = glob::glob(&pattern) else {
                continue;
            };
            for file in found.flatten() {
                let refused = |why: &dyn std::fmt::Display| {
                    format!(
                        "{at}: `Include {arg}`: cannot read `{}`: {why}",
                        file.display()
                    )
                };
                let text = read_text(&file).map_err(|e| refused(&e))?;
                let canonical = file.canonicalize().unwrap_or_else(|_| file.clone());
                if stack.contains(&canonical) || stack.len() >= MAX_INCLUDE_DEPTH {
                    return Err(refused(&format_args!(
                        "it is included by itself, or more than {MAX_INCLUDE_DEPTH} files deep"
                    )));
                }
                stack.push(canonical);
                includes(&file, &text, stack)?;
                stack.pop();
            }
        }
    }
    Ok(())
}

/// The arguments of an `Include` line (`Include a b`, `include=a`, `Include "a b"`), as the
/// parser reads them (ssh2-config's `tokenize_line`: a `#` outside quotes starts a comment,
/// the keyword ends at a space or `=`, arguments are split at spaces outside quotes, and a
/// lone quoted argument loses its quotes); `None` for any other line.
fn include_args(line: &str) -> Option<Vec<String>> {
    let mut quoted = false;
    let end = line
        .char_indices()
        .find(|&(_, c)| {
            quoted ^= c == '"';
            c == '#' && !quoted
        })
        .map_or(line.len(), |(i, _)| i);
    let line = line[..end].trim();
    let split = line.find(|c: char| c == '=' || c.is_whitespace())?;
    if !line[..split].eq_ignore_ascii_case("include") {
        return None;
    }
    let rest = line[split..].trim().trim_start_matches('=').trim();
    let mut args = Vec::new();
    let (mut current, mut quoted) = (String::new(), false);
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if quoted => {
                current.push(c);
                current.extend(chars.next());
            }
            '"' => {
                quoted = !quoted;
                current.push(c);
            }
            c if c.is_whitespace() && !quoted => {
                if !current.is_empty() {
                    args.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        args.push(current);
    }
    if let [one] = args.as_mut_slice()
        && one.len() >= 2
        && one.starts_with('"')
        && one.ends_with('"')
    {
        let mut plain = String::with_capacity(one.len());
        let mut chars = one[1..one.len() - 1].chars().peekable();
        while let Some(c) = chars.next() {
            // `\"`, `\\` and `\'` are the character; any other `\` stays.
            match chars.peek() {
                Some(&n @ ('"' | '\\' | '\'')) if c == '\\' => {
                    plain.push(n);
                    chars.next();
                }
                _ => plain.push(c),
            }
        }
        *one = plain;
    }
    Some(args)
}

/// The glob pattern an `Include` argument names, as OpenSSH resolves it: an absolute path as
/// it is, `~` or `~/…` in the home folder, `~user/…` as it is, anything else in `~/.ssh`.
/// `None` without a home folder to resolve it in (the parser says so).
fn include_pattern(arg: &str, home: Option<&Path>) -> Option<String> {
    let escaped = |home: &Path| PathBuf::from(glob::Pattern::escape(&home.to_string_lossy()));
    if arg.starts_with('/') {
        return Some(arg.to_string());
    }
    if let Some(rest) = arg.strip_prefix('~') {
        if rest.is_empty() || rest.starts_with('/') {
            let rest = rest.trim_start_matches('/');
            let home = escaped(home?);
            let path = if rest.is_empty() {
                home
            } else {
                home.join(rest)
            };
            return Some(path.to_string_lossy().into_owned());
        }
        return Some(arg.to_string());
    }
    Some(
        escaped(home?)
            .join(".ssh")
            .join(arg)
            .to_string_lossy()
            .into_owned(),
    )
}

/// Where a switch is without a config file: the command line's values, else the defaults.
pub fn target(
    config: Option<&SshConfig>,
    name: &str,
    host: &str,
    port: Option<u16>,
    user: Option<&str>,
) -> Result<Target, String> {
    match config {
        Some(c) => c.target(name, host, port, user),
        None => Ok(Target::new(
            name,
            host,
            port.unwrap_or(DEFAULT_PORT),
            user.unwrap_or(DEFAULT_USER),
        )),
    }
}

/// `[user@]host[:port]` or `ssh://[user@]host[:port]` (a `ProxyJump` hop, `--live`'s
/// address); an IPv6 address in brackets.
pub fn jump(spec: &str) -> Option<(&str, Option<u16>, Option<&str>)> {
    let spec = spec.strip_prefix("ssh://").unwrap_or(spec);
    let (user, rest) = match spec.rsplit_once('@') {
        Some((u, r)) if !u.is_empty() => (Some(u), r),
        Some(_) => return None,
        None => (None, spec),
    };
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        let (h, after) = v6.split_once(']')?;
        match after.strip_prefix(':') {
            Some(p) => (h, Some(p.parse().ok().filter(|p| *p > 0)?)),
            None if after.is_empty() => (h, None),
            None => return None,
        }
    } else if rest.matches(':').count() > 1 {
        // An IPv6 address without brackets has no port.
        (rest, None)
    } else {
        match rest.split_once(':') {
            Some((h, p)) => (h, Some(p.parse().ok().filter(|p| *p > 0)?)),
            None => (rest, None),
        }
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || ".-_:".contains(c);
    (!host.is_empty() && host.chars().all(plain)).then_some((host, port, user))
}

/// OpenSSH's `%` tokens in `HostName` and `IdentityFile`: `%h` the host, `%p` the port, `%r`
/// the remote user, `%u` the local user, `%d` the home folder, `%%` a `%`.
fn tokens(text: &str, host: &str, port: Option<u16>, user: Option<&str>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let t = chars.next();
        let value = match t {
            Some('%') => Some("%".to_string()),
            Some('h') => Some(host.to_string()),
            Some('p') => port.map(|p| p.to_string()),
            Some('r') => user.map(str::to_string),
            Some('u') => std::env::var("USER").ok(),
            Some('d') => std::env::var("HOME").ok(),
            _ => None,
        };
        let token = t.map_or("%".to_string(), |t| format!("%{t}"));
        out.push_str(&value.ok_or_else(|| format!("`{token}` in `{text}` is not supported here"))?);
    }
    Ok(out)
}

/// The parser's error in plain words.
fn describe(e: &SshParserError) -> String {
    match e {
        SshParserError::UnknownField(field, _) if field.eq_ignore_ascii_case("match") => {
            "`Match` blocks are not supported; write `Host` patterns".into()
        }
        SshParserError::UnknownField(field, _) => format!(
            "unknown keyword `{field}` (OpenSSH refuses it too; `IgnoreUnknown {field}` before it skips it)"
        ),
        SshParserError::Io(io) => super::ssh::plain_io(io),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> SshConfig {
        SshConfig::parse(Path::new("cfg"), text).unwrap()
    }

    #[test]
    fn host_patterns_first_value_and_command_line_precedence() {
        let c = config(
            "Host leaf*\n  HostName %h.mgmt.example\n  User netops\n  IdentityFile /k/%r-%h\n\
             Host leaf02\n  Port 2222\nHost *\n  Port 22\n  User nobody\n",
        );
        let t = c.target("leaf02", "leaf02", None, None).unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.user.as_str()),
            ("leaf02.mgmt.example", 2222, "netops")
        );
        assert_eq!(
            t.identities,
            [PathBuf::from("/k/netops-leaf02.mgmt.example")]
        );
        // The fabric's `mgmt` values are the command line: they win.
        let t = c
            .target("leaf02", "leaf02", Some(22), Some("admin"))
            .unwrap();
        assert_eq!((t.port, t.user.as_str()), (22, "admin"));
        let t = c.target("spine01", "10.0.0.1", None, None).unwrap();
        assert_eq!(
            (t.host.as_str(), t.port, t.user.as_str()),
            ("10.0.0.1", 22, "nobody")
        );
        assert!(t.jumps.is_empty() && t.identities.is_empty());
    }

    #[test]
    fn proxy_jump_chains_resolve_each_hop() {
        let c = config(
            "Host sw*\n  ProxyJump ops@inner:2022\nHost inner\n  HostName 127.0.0.2\n  \
             ProxyJump outer\nHost outer\n  HostName 127.0.0.3\n  User jump\n",
        );
        let t = c.target("sw1", "sw1", None, None).unwrap();
        let hops: Vec<(&str, u16, &str)> = t
            .jumps
            .iter()
            .map(|h| (h.host.as_str(), h.port, h.user.as_str()))
            .collect();
        assert_eq!(
            hops,
            [("127.0.0.3", 22, "jump"), ("127.0.0.2", 2022, "ops")]
        );
        let looped = config("Host a\n  ProxyJump b\nHost b\n  ProxyJump a\n");
        let e = looped.target("a", "a", None, None).unwrap_err();
        assert!(e.contains("is it a loop?"), "{e}");
        let none = config("Host *\n  ProxyJump none\n");
        assert!(none.target("a", "a", None, None).unwrap().jumps.is_empty());
    }

    #[test]
    fn bad_lines_are_located() {
        let e = SshConfig::parse(Path::new("cfg"), "Host a\n  Port 22\n  Port x\n").unwrap_err();
        assert!(e.starts_with("cfg:3: "), "{e}");
        let e = SshConfig::parse(Path::new("cfg"), "Host a\nMatch host b\n").unwrap_err();
        assert_eq!(
            e,
            "cfg:2: `Match` blocks are not supported; write `Host` patterns"
        );
        let e = SshConfig::parse(Path::new("cfg"), "Hots a\n").unwrap_err();
        assert!(e.starts_with("cfg:1: unknown keyword `Hots`"), "{e}");
        let c = config("Host a\n  ProxyCommand nc %h %p\n");
        assert!(
            c.target("a", "a", None, None)
                .unwrap_err()
                .contains("ProxyJump")
        );
        let c = config("Host a\n  ProxyJump @b\n");
        assert!(c.target("a", "a", None, None).is_err());
    }

    #[test]
    fn jump_specs() {
        assert_eq!(jump("b"), Some(("b", None, None)));
        assert_eq!(jump("u@b:2200"), Some(("b", Some(2200), Some("u"))));
        assert_eq!(jump("ssh://u@[::1]:22"), Some(("::1", Some(22), Some("u"))));
        assert_eq!(jump("admin@::1"), Some(("::1", None, Some("admin"))));
        assert_eq!(jump("b:0"), None);
        assert_eq!(jump("b;reboot"), None);
    }
}
