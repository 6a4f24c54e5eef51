//! The Onyx CLI of a simulated switch, line by line: modes and their prompts, keyword
//! abbreviations, paging, the `show` commands tools rely on, saving, and every configuration
//! command of the grammar, flat or inside an interface or VLAN sub-mode.
//!
//! Fidelity follows `../shared/reference/onyx-cli.md` §c and the session recordings in
//! `tests/fixtures/corpus/onyx/`. Where no capture shows what Onyx prints, the lab's choice
//! is in one table, [`Unconfirmed::text`].

use std::collections::BTreeMap;
use std::time::Instant;

use crate::onyx::command::{self, Command, Iface, IfaceCmd, IfaceRange};
use crate::onyx::{Config, Protocol};
use crate::types::{Release, Vlan, cli_text};

use super::network::World;

/// What a simulated switch keeps: its running configuration and its saved files.
#[derive(Clone, Debug)]
pub struct Switch {
    pub running: Config,
    /// Saved configuration files by name; the switch boots from `active`.
    pub files: BTreeMap<String, Config>,
    pub active: String,
    pub release: Release,
    /// The switch's model, when a fabric names it: its ports and their native speeds.
    pub model: Option<&'static crate::types::Model>,
    /// Counts configuration commands applied and saves, so a server can tell what to persist.
    pub revision: u64,
    pub saves: u64,
    /// The sessions logged in now, by session number.
    pub logins: BTreeMap<u64, Login>,
}

/// The release a lab switch reports (`show version`, the running-config header).
pub const LAB_RELEASE: Release = Release(3, 10, 4504);

/// What the lab prints where no capture of Onyx shows the text. The captures and the
/// reference (`onyx-cli.md` §c.4, §f.4) observe one error form only, `% Unrecognized
/// command "…".`; every entry here is a choice, UNCONFIRMED on a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unconfirmed {
    /// A word that begins several keywords.
    Ambiguous,
    /// A wrong answer to `enable`'s password prompt.
    EnableRefused,
    /// A line longer than the terminal reads ([`super::term::MAX_LINE`]): refused whole.
    LineTooLong,
    /// `configuration delete` of the file the switch boots from (a sibling TMS-based CLI
    /// documents that the active file cannot be deleted).
    DeleteActive,
    /// `configuration delete` of a file that does not exist.
    NoSuchFile,
    /// `show users`: the header of its table. The layout is a sibling TMS-based CLI's
    /// (`USERNAME  REMOTE USERNAME  LINE  HOST  IDLE`, idle as `0d 0h 0m 7s`), the session
    /// that asks marked `*`; no Onyx capture shows it.
    UsersHeader,
    /// A filter without its expression (`| include`).
    FilterIncomplete,
    /// A filter's expression that is not a regular expression.
    FilterRegex,
    /// `| json-print` after a command the lab prints no JSON for.
    NoJson,
    /// `router bgp N` while an instance with another AS runs (one instance per VRF).
    BgpOtherAs,
    /// `ip address` on an Ethernet port still in switchport mode (before `no switchport
    /// force`).
    AddressOnSwitchport,
    /// `show ip bgp summary`: a session's state other than `ESTABLISHED/N` (captured), in the
    /// capture's upper case: the far end refused it (wrong AS, same router-id) …
    BgpIdle,
    /// … or nobody answers (no connected path, the link down, no such neighbor there).
    BgpActive,
    /// `show ip bgp summary`: Up/Down of a session that has never been up.
    BgpNeverUp,
    /// `show mlag`: an admin status other than `Enabled`, an operational status or IPL state
    /// other than `Up`, a field with nothing to show.
    MlagDisabled,
    MlagDown,
    MlagNone,
    /// The prompt's role in an MLAG domain (`[mlag-domain: master]`, `standby`, both
    /// captured): which switch is master. The lab's choice: the one with the lower address on
    /// the peer link.
    MlagRole,
    /// `show traffic pool NAME` of a pool the switch does not have.
    NoSuchPool,
    /// `show interfaces … congestion-control`: the mode of a class marked `both` (ECN and
    /// RED). The capture shows `ECN`, `RED`, `none`; the Ansible reader lower-cases the mode
    /// and expects `both`.
    EcnBoth,
    /// `show roce` without `roce`: its mode …
    RoceOff,
    /// … a setting the Ethernet ports do not share …
    RoceMixed,
    /// … and a field `roce` would fill (the application TLV, congestion control).
    RoceNone,
}

impl Unconfirmed {
    /// The one table of unconfirmed texts; `{}` stands for the word or number at fault.
    pub fn text(self) -> &'static str {
        match self {
            Unconfirmed::Ambiguous => "% Ambiguous command \"{}\".",
            Unconfirmed::EnableRefused => "% Authentication failed.",
            Unconfirmed::LineTooLong => "% Command line too long ({} bytes); not run.",
            Unconfirmed::DeleteActive => "% Cannot delete the active configuration file \"{}\".",
            Unconfirmed::NoSuchFile => "% Configuration file \"{}\" does not exist.",
            Unconfirmed::UsersHeader => {
                "  USERNAME    REMOTE USERNAME   LINE          HOST                IDLE"
            }
            Unconfirmed::FilterIncomplete => "% Incomplete command after \"{}\".",
            Unconfirmed::FilterRegex => "% Invalid regular expression \"{}\".",
            Unconfirmed::NoJson => "% json-print is not supported for \"{}\".",
            Unconfirmed::BgpOtherAs => "% BGP is already running with AS {}.",
            Unconfirmed::AddressOnSwitchport => {
                "% Interface {} is a switchport; run `no switchport force` first."
            }
            Unconfirmed::BgpIdle => "IDLE",
            Unconfirmed::BgpActive => "ACTIVE",
            Unconfirmed::BgpNeverUp => "never",
            Unconfirmed::MlagDisabled => "Disabled",
            Unconfirmed::MlagDown => "Down",
            Unconfirmed::MlagNone => "N/A",
            Unconfirmed::MlagRole => "master if the lower peer-link address, else standby",
            Unconfirmed::NoSuchPool => "% Traffic pool \"{}\" does not exist.",
            Unconfirmed::EcnBoth => "Both",
            Unconfirmed::RoceOff => "disabled",
            Unconfirmed::RoceMixed => "mixed",
            Unconfirmed::RoceNone => "N/A",
        }
    }

    /// The text with `{}` filled in, as a reply line.
    pub fn reply(self, arg: &str) -> Reply {
        Reply::text(format!("{}\n", self.text().replace("{}", arg)))
    }
}

/// A CLI session logged in on the switch (`show users`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Login {
    pub user: String,
    /// Where the session comes from: the client's address.
    pub host: String,
    /// When the session last sent a command.
    pub active: Instant,
}

impl Switch {
    /// A switch as it leaves the factory, named, with its configuration saved as `initial`.
    pub fn factory(hostname: &str) -> Switch {
        Switch::factory_as(hostname, Some(LAB_RELEASE), None)
    }

    /// A factory-default switch as a fabric describes it: its release (which decides the
    /// header and quoting; unknown is older than 3.9) and the ID of its self-signed
    /// certificate.
    pub fn factory_as(
        hostname: &str,
        release: Option<Release>,
        certificate: Option<&str>,
    ) -> Switch {
        let mut sw = Switch::with_config(Config::factory(hostname, release, certificate));
        sw.release = release.unwrap_or(LAB_RELEASE);
        sw
    }

    /// A switch running `config`, saved as its active file (e.g. from a backup).
    pub fn with_config(mut config: Config) -> Switch {
        config.header.saved = false;
        let active = config.header.database.clone();
        Switch {
            files: BTreeMap::from([(active.clone(), config.clone())]),
            running: config,
            active,
            release: LAB_RELEASE,
            model: None,
            revision: 0,
            saves: 0,
            logins: BTreeMap::new(),
        }
    }

    pub fn hostname(&self) -> &str {
        self.running.hostname.as_deref().unwrap_or("")
    }

    /// Whether the running configuration differs from the active saved file.
    pub fn unsaved(&self) -> bool {
        self.files.get(&self.active) != Some(&self.running)
    }
}

/// A CLI level. Sub-modes keep what their commands apply to.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mode {
    User,
    Enable,
    Config,
    Interface(IfaceRange),
    Vlan(Vlan),
    /// `(config pool roce)`: a traffic pool's attributes.
    Pool(String),
    /// `(config router bgp 65101 vrf default)`: the BGP instance's attributes (the Ansible
    /// `onyx_bgp` module enters it with `router bgp N` and leaves with `exit`; the prompt's
    /// text is UNCONFIRMED).
    Bgp(u32),
    /// `(config mlag)`: `shutdown`, `no shutdown`, `system-mac` (prompt UNCONFIRMED).
    Mlag,
}

/// What the switch prints for one line typed at its prompt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The output, each line ending in `\n`; empty for most configuration commands.
    pub output: String,
    /// The session ends (`exit` from the user or enable level).
    pub close: bool,
}

impl Reply {
    pub(crate) fn text(output: String) -> Reply {
        Reply {
            output,
            close: false,
        }
    }

    pub(crate) fn error(message: String) -> Reply {
        Reply::text(format!("% {message}\n"))
    }

    pub(crate) fn unrecognized(word: &str) -> Reply {
        Reply::error(format!("Unrecognized command \"{word}\"."))
    }
}

/// One CLI session on a switch: its mode, paging and the rest of a paged output.
#[derive(Clone, Debug)]
pub struct Session {
    /// The session's number on its switch (its `show users` line); 0 when not logged in.
    pub id: u64,
    mode: Mode,
    paging: bool,
    /// Terminal length: a page shows one line fewer, for the pager's prompt.
    length: usize,
    /// Output lines still to page through.
    pending: Vec<String>,
    /// The first and last line numbers of the page shown last, and of the whole output.
    from: usize,
    shown: usize,
    total: usize,
    /// The pager has shown the last line and waits at `(END)`.
    end: bool,
    /// The password `enable` asks for, when the switch has one.
    pub enable_password: Option<String>,
    /// `enable` asked for its password; the next line is the answer.
    asking: bool,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A new login: user mode, paging on, 24 lines.
    pub fn new() -> Session {
        Session {
            id: 0,
            mode: Mode::User,
            paging: true,
            length: 24,
            pending: Vec::new(),
            from: 0,
            shown: 0,
            total: 0,
            end: false,
            enable_password: None,
            asking: false,
        }
    }

    /// Whether the next line answers `enable`'s password prompt (not echoed, not logged).
    pub fn asking_password(&self) -> bool {
        self.asking
    }

    /// A session already in configuration mode with paging off, as a script would leave it.
    pub fn configuring() -> Session {
        Session {
            mode: Mode::Config,
            paging: false,
            ..Session::new()
        }
    }

    /// Whether an output is being paged: the next keystroke goes to the pager.
    pub fn paging_now(&self) -> bool {
        !self.pending.is_empty() || self.end
    }

    /// The prompt as Onyx prints it, with its trailing space; the pager's prompt while an
    /// output is being paged.
    pub fn prompt(&self, sw: &Switch) -> String {
        if self.asking {
            return "Password: ".to_string();
        }
        if self.end {
            return format!("lines {}-{}/{} (END) ", self.from, self.shown, self.total);
        }
        if !self.pending.is_empty() {
            return format!("lines {}-{} ", self.from, self.shown);
        }
        let host = sw.hostname();
        let level = match &self.mode {
            Mode::User => ">".to_string(),
            Mode::Enable => "#".to_string(),
            Mode::Config => "(config) #".to_string(),
            Mode::Interface(r) => format!("(config interface {r}) #"),
            Mode::Vlan(v) => format!("(config vlan {v}) #"),
            Mode::Pool(name) => format!("(config pool {name}) #"),
            Mode::Bgp(asn) => format!("(config router bgp {asn} vrf default) #"),
            Mode::Mlag => "(config mlag) #".to_string(),
        };
        let (domain, role) = cluster(&sw.running);
        format!("{host} [{domain}: {role}] {level} ")
    }

    fn page(&self) -> usize {
        self.length.saturating_sub(1).max(1)
    }

    /// One keystroke while paging (`paging_now`), as Onyx's less-like pager reads them: space
    /// shows the next page, Enter the next line, `q` quits; at `(END)` any key leaves.
    pub fn key(&mut self, key: u8) -> Reply {
        if self.end || key == b'q' || key == b'Q' {
            self.pending.clear();
            self.end = false;
            return Reply::default();
        }
        match key {
            b' ' | b'f' => Reply::text(self.next_page(self.page())),
            b'\r' | b'\n' | b'j' => Reply::text(self.next_page(1)),
            _ => Reply::default(),
        }
    }

    /// Reads one line typed at the prompt, on a switch alone (no cables).
    pub fn input(&mut self, sw: &mut Switch, line: &str) -> Reply {
        self.input_in(sw, line, None)
    }

    /// Whether the line typed now is a command that may read the network around the switch
    /// (link state, LLDP neighbors, BGP sessions, MLAG): every `show` but the configuration
    /// and session ones. The caller reads the other switches before running it.
    pub fn reads_network(&self, line: &str) -> bool {
        if self.asking || self.paging_now() {
            return false;
        }
        let line = line.trim();
        let line = super::pipe::split(line).map_or(line, |(command, _)| command);
        let Ok(words) = expand(&self.mode, line) else {
            return false;
        };
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match words[..] {
            [
                "show",
                "running-config" | "configuration" | "users" | "version",
                ..,
            ] => false,
            ["show", ..] => true,
            _ => false,
        }
    }

    /// Reads one line typed at the prompt of a switch cabled into `world`.
    pub fn input_in(&mut self, sw: &mut Switch, line: &str, world: Option<&World>) -> Reply {
        if self.asking {
            self.asking = false;
            if Some(line.trim_end_matches(['\r', '\n'])) == self.enable_password.as_deref() {
                self.mode = Mode::Enable;
                return Reply::default();
            }
            return Unconfirmed::EnableRefused.reply("");
        }
        if self.paging_now() {
            // A line-mode pager: `q` quits, anything else shows the next page.
            let key = if line.trim() == "q" { b'q' } else { b' ' };
            return self.key(key);
        }
        let line = line.trim();
        // An empty line reprints the prompt; `#` starts a comment (pasted configs).
        if line.is_empty() || line.starts_with('#') {
            return Reply::default();
        }
        // Filters start at a ` | ` outside quotes; a quoted argument keeps its `|`.
        let (line, pipes) = match super::pipe::split(line) {
            Ok(split) => split,
            Err(reply) => return reply,
        };
        let words = match expand(&self.mode, line) {
            Ok(w) => w,
            Err(reply) => return reply,
        };
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let reply = self.run(sw, &words, world, super::pipe::json(&pipes));
        let output = super::pipe::apply(reply.output, &pipes);
        self.paged(Reply { output, ..reply })
    }

    /// Output longer than a page is shown a page at a time when paging is on.
    fn paged(&mut self, reply: Reply) -> Reply {
        let lines: Vec<&str> = reply.output.lines().collect();
        if !self.paging || lines.len() <= self.page() {
            return reply;
        }
        self.pending = lines.iter().map(|l| l.to_string()).collect();
        self.shown = 0;
        self.total = lines.len();
        Reply::text(self.next_page(self.page()))
    }

    /// The next `n` lines; the window shown (`lines A-B`) keeps a page's height.
    fn next_page(&mut self, n: usize) -> String {
        let n = n.min(self.pending.len());
        let page: Vec<String> = self.pending.drain(..n).collect();
        self.shown += n;
        self.from = self.shown.saturating_sub(self.page()) + 1;
        self.end = self.pending.is_empty();
        page.iter().map(|l| format!("{l}\n")).collect()
    }

    fn run(&mut self, sw: &mut Switch, words: &[&str], world: Option<&World>, json: bool) -> Reply {
        let config = !matches!(self.mode, Mode::User | Mode::Enable);
        match words {
            ["exit"] => {
                self.mode = match self.mode {
                    Mode::User | Mode::Enable => {
                        return Reply {
                            output: String::new(),
                            close: true,
                        };
                    }
                    Mode::Config => Mode::Enable,
                    Mode::Interface(_)
                    | Mode::Vlan(_)
                    | Mode::Pool(_)
                    | Mode::Bgp(_)
                    | Mode::Mlag => Mode::Config,
                };
                Reply::default()
            }
            ["no", "cli", "session", "paging", "enable"] => {
                self.paging = false;
                Reply::default()
            }
            ["cli", "session", "paging", "enable"] => {
                self.paging = true;
                Reply::default()
            }
            ["terminal", "length", n] => match n.parse::<usize>() {
                Ok(n) if n > 0 => {
                    self.length = n;
                    Reply::default()
                }
                _ => Reply::unrecognized(n),
            },
            ["show", rest @ ..] => {
                let level = match self.mode {
                    Mode::User => super::show::Level::User,
                    _ => super::show::Level::Enable,
                };
                let cx = super::show::Cx {
                    sw,
                    world,
                    session: self.id,
                    level,
                };
                super::show::run(&cx, rest, json)
            }
            ["enable"] if self.mode == Mode::User => {
                if self.enable_password.is_some() {
                    self.asking = true;
                } else {
                    self.mode = Mode::Enable;
                }
                Reply::default()
            }
            ["disable"] if !config => {
                self.mode = Mode::User;
                Reply::default()
            }
            ["configure", "terminal"] if self.mode == Mode::Enable => {
                self.mode = Mode::Config;
                Reply::default()
            }
            ["configuration", "write"] | ["write", "memory"] if self.mode != Mode::User => {
                let name = sw.active.clone();
                save(sw, &name);
                Reply::default()
            }
            ["configuration", "write", "to", name, rest @ ..] if self.mode != Mode::User => {
                match rest {
                    [] => {
                        save(sw, name);
                        sw.active = name.to_string();
                        Reply::default()
                    }
                    ["no-switch"] => {
                        let keep = sw.active.clone();
                        save(sw, name);
                        sw.active = keep;
                        Reply::default()
                    }
                    [other, ..] => Reply::unrecognized(other),
                }
            }
            ["configuration", "delete", name] if self.mode != Mode::User => {
                if *name == sw.active {
                    Unconfirmed::DeleteActive.reply(name)
                } else if sw.files.remove(*name).is_none() {
                    Unconfirmed::NoSuchFile.reply(name)
                } else {
                    sw.saves += 1;
                    Reply::default()
                }
            }
            ["traffic", "pool", name] if config => {
                // Creates the pool (lossy, Onyx's default type) and enters its sub-mode.
                if !sw.running.pools.contains_key(*name) {
                    let reply = self.configure(sw, &["traffic", "pool", name, "type", "lossy"]);
                    if !reply.output.is_empty() {
                        return reply;
                    }
                }
                self.mode = Mode::Pool(name.to_string());
                Reply::default()
            }
            ["mlag"] if config => {
                if !sw.running.protocols.contains(&Protocol::Mlag) {
                    return Reply::unrecognized("mlag");
                }
                self.mode = Mode::Mlag;
                Reply::default()
            }
            _ if config => self.configure(sw, words),
            [first, ..] => Reply::unrecognized(first),
            [] => Reply::default(),
        }
    }

    /// A configuration command: flat from `(config)`, or the rest of a line inside a
    /// sub-mode. Applied with the model's semantics; refused, state untouched, otherwise.
    fn configure(&mut self, sw: &mut Switch, words: &[&str]) -> Reply {
        let typed = words.join(" ");
        let mut full = match &self.mode {
            Mode::Interface(r) if !leaves_interface(words) => format!("interface {r} {typed}"),
            Mode::Vlan(v) if words.first() == Some(&"name") => format!("vlan {v} {typed}"),
            Mode::Pool(name) if !leaves(words, POOL_ATTRIBUTES) => {
                format!("traffic pool {name} {typed}")
            }
            Mode::Bgp(asn) if !leaves(words, BGP_ATTRIBUTES) => {
                format!("router bgp {asn} vrf default {typed}")
            }
            Mode::Mlag if !leaves(words, MLAG_ATTRIBUTES) => match words {
                ["no", rest @ ..] => format!("no mlag {}", rest.join(" ")),
                _ => format!("mlag {typed}"),
            },
            _ => typed.clone(),
        };
        // A line that is no command of the sub-mode but one of `(config)` leaves the sub-mode
        // and runs there, as a pasted running-config needs (`interface loopback 0`, then
        // `ip load-sharing …`, then `dcb priority-flow-control enable force`). UNCONFIRMED:
        // the fall-through of IOS-like CLIs; no capture shows Onyx doing it or refusing.
        if full != typed
            && !matches!(command::parse(&full), Ok(Some(_)))
            && matches!(command::parse(&typed), Ok(Some(_)))
        {
            self.mode = Mode::Config;
            full = typed;
        }
        match command::parse(&full) {
            Ok(Some(cmd)) => {
                if let Some(refused) = refusal(&sw.running, &cmd) {
                    return refused;
                }
                let enter = match &cmd {
                    Command::Interface(r, IfaceCmd::Create) => Some(Mode::Interface(*r)),
                    Command::VlanCreate(spans) if spans.len() == 1 && spans[0].0 == spans[0].1 => {
                        Some(Mode::Vlan(spans[0].0))
                    }
                    Command::Bgp(asn, command::BgpCmd::Create) => Some(Mode::Bgp(*asn)),
                    _ => None,
                };
                sw.running.apply(&cmd);
                sw.revision += 1;
                if let Some(m) = enter {
                    self.mode = m;
                }
                Reply::default()
            }
            // Not a command the model knows: the first word Onyx would not accept (after
            // an interface's name, the attribute).
            Ok(None) => {
                let full: Vec<&str> = full.split(' ').collect();
                let named = full.len() > 3
                    && matches!(
                        command::parse(&full[..3].join(" ")),
                        Ok(Some(Command::Interface(_, IfaceCmd::Create)))
                    );
                let word = if named { full[3] } else { full[0] };
                Reply::unrecognized(word)
            }
            // A known command with a bad argument: Onyx's texts for these were not observed;
            // the word at fault is named in the one confirmed form.
            Err(m) => {
                let at = full.get(m.column..).unwrap_or("");
                let word = at.split(' ').next().filter(|w| !w.is_empty()).unwrap_or(at);
                Reply::unrecognized(word)
            }
        }
    }
}

/// Why the switch refuses a command the grammar reads, state untouched; `None` when it takes it.
fn refusal(c: &Config, cmd: &Command) -> Option<Reply> {
    // `protocol bgp` "unhides BGP related commands" (Onyx manual, BGP Commands); `protocol
    // mlag` is taken to do the same for MLAG's (by analogy, UNCONFIRMED): until then the
    // words are unknown.
    let bgp = c.protocols.contains(&Protocol::Bgp);
    let mlag = c.protocols.contains(&Protocol::Mlag);
    match cmd {
        Command::Bgp(..) | Command::NoBgp(_) if !bgp => Some(Reply::unrecognized("router")),
        Command::Bgp(asn, _) => match &c.bgp {
            Some(b) if b.asn != *asn => Some(Unconfirmed::BgpOtherAs.reply(&b.asn.to_string())),
            _ => None,
        },
        Command::MlagShutdown(_) | Command::MlagSystemMac(_) if !mlag => {
            Some(Reply::unrecognized("mlag"))
        }
        Command::MlagVip(_) if !mlag => Some(Reply::unrecognized("mlag-vip")),
        Command::Interface(r, c2) => {
            let word = match c2 {
                IfaceCmd::Ipl(_)
                | IfaceCmd::IplPeer(..)
                | IfaceCmd::NoIpl(_)
                | IfaceCmd::NoIplPeer(_)
                    if !mlag =>
                {
                    return Some(Reply::unrecognized("ipl"));
                }
                IfaceCmd::ChannelGroup(g) if g.mlag && !mlag => {
                    return Some(Reply::unrecognized("mlag-channel-group"));
                }
                IfaceCmd::Address(_) => "address",
                IfaceCmd::SwitchportMode(_)
                | IfaceCmd::AccessVlan(_)
                | IfaceCmd::AllowedVlan(..) => "switchport",
                _ => return None,
            };
            r.members().find_map(|i| {
                let Iface::Ethernet(p) = i else { return None };
                let e = c.interfaces.get(&i);
                if word == "address" && !e.is_some_and(|e| e.routed) {
                    return Some(Unconfirmed::AddressOnSwitchport.reply(&format!("ethernet {p}")));
                }
                // Captured: `% Port 1/4 is part of a port channel` for `switchport mode
                // access` on a member (corpus/onyx/more, quali error file).
                (word == "switchport" && e.is_some_and(|e| e.channel_group.is_some()))
                    .then(|| Reply::error(format!("Port {p} is part of a port channel")))
            })
        }
        _ => None,
    }
}

/// The prompt's cluster and role: the MLAG domain with `mlag-vip` where MLAG runs, else
/// `standalone`; the role by [`Unconfirmed::MlagRole`].
fn cluster(c: &Config) -> (&str, &'static str) {
    let Some((domain, _)) = c
        .mlag
        .vip
        .as_ref()
        .filter(|_| c.mlag.enabled && c.protocols.contains(&Protocol::Mlag))
    else {
        return ("standalone", "master");
    };
    let ipl = c.interfaces.values().find_map(|i| {
        let (_, peer) = i.ipl_peer?;
        Some((i.address?.addr, peer))
    });
    let role = match ipl {
        Some((mine, peer)) if mine > peer => "standby",
        _ => "master",
    };
    (domain.as_str(), role)
}

/// A line typed inside an interface sub-mode that leaves it for another object
/// (`interface ethernet 1/2`, `vlan 10`, `no interface port-channel 1`) rather than
/// configuring the current interfaces: its first word (after `no`) is not an attribute.
fn leaves_interface(words: &[&str]) -> bool {
    leaves(words, ATTRIBUTES)
}

/// Whether a line typed in a sub-mode is not one of its attributes (after `no`).
fn leaves(words: &[&str], attributes: &[&str]) -> bool {
    match words {
        ["no", w, ..] | [w, ..] => !attributes.contains(w),
        [] => false,
    }
}

fn save(sw: &mut Switch, name: &str) {
    let mut saved = sw.running.clone();
    saved.header.database = name.to_string();
    sw.files.insert(name.to_string(), saved);
    sw.saves += 1;
}

/// The keywords that may follow a keyword (or start a line, after `""`), for abbreviations:
/// a word that begins exactly one of them stands for it (`conf t`, `show run`, `int eth 1/1`).
/// Other words are arguments and are kept as typed.
const KEYWORDS: &[(&str, &[&str])] = &[
    (
        "",
        &[
            "cli",
            "configuration",
            "configure",
            "dcb",
            "disable",
            "enable",
            "exit",
            "hostname",
            "interface",
            "ip",
            "lacp",
            "license",
            "lldp",
            "mlag",
            "mlag-vip",
            "no",
            "protocol",
            "roce",
            "router",
            "show",
            "spanning-tree",
            "terminal",
            "traffic",
            "vlan",
            "write",
        ],
    ),
    (
        "no",
        &[
            "cli",
            "dcb",
            "hostname",
            "interface",
            "ip",
            "lacp",
            "lldp",
            "mlag",
            "mlag-vip",
            "protocol",
            "roce",
            "router",
            "spanning-tree",
            "traffic",
            "vlan",
        ],
    ),
    ("cli", &["default", "session"]),
    ("session", &["paging"]),
    ("paging", &["enable"]),
    ("configure", &["terminal"]),
    ("terminal", &["length"]),
    (
        "show",
        &[
            "buffers",
            "configuration",
            "dcb",
            "interfaces",
            "ip",
            "mlag",
            "mlag-vip",
            "qos",
            "roce",
            "running-config",
            "traffic",
            "users",
            "version",
        ],
    ),
    ("buffers", &["pools"]),
    ("configuration", &["delete", "files", "write"]),
    ("write", &["memory", "to"]),
    ("running-config", &["interface"]),
    (
        "interface",
        &[
            "ethernet",
            "loopback",
            "mlag-port-channel",
            "port-channel",
            "vlan",
        ],
    ),
    ("traffic", &["pool"]),
    ("dcb", &["ets", "priority-flow-control"]),
    ("ip", &["address", "bgp", "load-sharing", "routing"]),
    ("bgp", &["summary", "vrf"]),
    ("vrf", &["all", "default"]),
    ("router", &["bgp"]),
    ("protocol", &["bgp", "mlag"]),
    ("mlag", &["shutdown", "system-mac"]),
];

/// The interface attributes that start a line inside an interface sub-mode.
const ATTRIBUTES: &[&str] = &[
    "channel-group",
    "dcb",
    "description",
    "ip",
    "ipl",
    "mlag-channel-group",
    "module-type",
    "mtu",
    "no",
    "qos",
    "shutdown",
    "speed",
    "switchport",
    "traffic-class",
];

/// The attributes that start a line inside a traffic pool's sub-mode.
const POOL_ATTRIBUTES: &[&str] = &["map", "memory", "type"];

/// The attributes that start a line inside `router bgp N`'s sub-mode (the Onyx manual's BGP
/// commands that follow `router bgp` on a line).
const BGP_ATTRIBUTES: &[&str] = &[
    "bestpath",
    "maximum-paths",
    "neighbor",
    "network",
    "no",
    "router-id",
];

/// The attributes that start a line inside the `mlag` sub-mode.
const MLAG_ATTRIBUTES: &[&str] = &["no", "shutdown", "system-mac"];

/// The attributes of a sub-mode other than an interface's: lines there that start with one
/// configure the mode's object.
fn sub_attributes(mode: &Mode) -> Option<&'static [&'static str]> {
    match mode {
        Mode::Pool(_) => Some(POOL_ATTRIBUTES),
        Mode::Bgp(_) => Some(BGP_ATTRIBUTES),
        Mode::Mlag => Some(MLAG_ATTRIBUTES),
        _ => None,
    }
}

/// The words of a line with abbreviated keywords written out.
fn expand(mode: &Mode, line: &str) -> Result<Vec<String>, Reply> {
    let follows = |k: &str| {
        KEYWORDS
            .iter()
            .find(|(p, _)| *p == k)
            .map_or(&[][..], |(_, c)| *c)
    };
    // A quoted argument is one word, kept as typed (its spaces included).
    let words: Vec<&str> = cli_text::words(line);
    let mut out: Vec<String> = Vec::new();
    for (i, &word) in words.iter().enumerate() {
        let prev = if i == 0 { "" } else { out[i - 1].as_str() };
        let in_interface = matches!(mode, Mode::Interface(_));
        let candidates: &[&str] = if i == 0 && in_interface {
            ATTRIBUTES
        } else if i == 0
            && let Some(attributes) = sub_attributes(mode)
            && !KEYWORDS[0].1.contains(&word)
        {
            attributes
        } else {
            KEYWORDS
                .iter()
                .find(|(k, _)| *k == prev)
                .map_or(&[], |(_, c)| *c)
        };
        // Inside an interface sub-mode a whole `(config)` command word (`mlag`, `router`)
        // starts that command, which falls through to `(config)` (see `configure`): it is
        // not an abbreviation of an attribute it begins (`mlag-channel-group`). An exact
        // keyword winning over a longer one is the IOS-like CLIs' rule; UNCONFIRMED on
        // Onyx, like the fall-through.
        let whole = i == 0 && in_interface && command::TOP_LEVEL.contains(&word);
        let word = if candidates.contains(&word)
            || whole
            || word.starts_with(|c: char| c.is_ascii_digit())
        {
            word.to_string()
        } else {
            let mut matching: Vec<&&str> =
                candidates.iter().filter(|c| c.starts_with(word)).collect();
            // `conf t`: of `configure` and `configuration`, only one takes a word like `t`.
            if matching.len() > 1
                && let Some(next) = words.get(i + 1)
            {
                matching.retain(|c| follows(c).iter().any(|f| f.starts_with(next)));
            }
            match matching[..] {
                [one] => one.to_string(),
                [] => word.to_string(),
                // Not observed on a switch; the form of Onyx's other errors.
                _ if i == 0 && in_interface && KEYWORDS[0].1.contains(&word) => word.to_string(),
                _ => return Err(Reply::error(format!("Ambiguous command \"{word}\"."))),
            }
        };
        out.push(word);
    }
    // Inside an interface sub-mode a line may also leave it for another object.
    let typed: Vec<&str> = out.iter().map(String::as_str).collect();
    let leaving = match mode {
        Mode::Interface(_) => leaves_interface(&typed),
        _ => sub_attributes(mode).is_some_and(|a| leaves(&typed, a)),
    };
    if leaving {
        return expand(&Mode::Config, line);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &mut Session, sw: &mut Switch, lines: &[&str]) -> String {
        lines.iter().map(|l| s.input(sw, l).output).collect()
    }

    #[test]
    fn modes_prompts_and_abbreviations() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] > ");
        run(&mut s, &mut sw, &["no cli session paging enable", "enable"]);
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] # ");
        run(&mut s, &mut sw, &["conf t"]);
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] (config) # ");
        run(&mut s, &mut sw, &["int eth 1/1-1/4"]);
        assert_eq!(
            s.prompt(&sw),
            "leaf01 [standalone: master] (config interface ethernet 1/1-1/4) # "
        );
        assert_eq!(
            run(&mut s, &mut sw, &["mtu 9216 force", "sw mode hybrid"]),
            ""
        );
        assert_eq!(sw.running.interfaces.len(), 4);
        run(&mut s, &mut sw, &["exit", "vlan 10"]);
        assert_eq!(
            s.prompt(&sw),
            "leaf01 [standalone: master] (config vlan 10) # "
        );
        run(&mut s, &mut sw, &["name storage", "exit", "exit"]);
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] # ");
        let shown = run(&mut s, &mut sw, &["show run | include mtu"]);
        assert_eq!(shown, "   interface ethernet 1/1-1/4 mtu 9216 force\n");
        assert!(
            run(&mut s, &mut sw, &["show running-config"])
                .contains("   vlan 10 name \"storage\"\n")
        );
    }

    /// In an interface sub-mode, `mlag …` is the `(config)` command, not `mlag-channel-group`
    /// abbreviated; an attribute's abbreviation is still one (`mlag-ch` is the attribute).
    #[test]
    fn a_whole_config_command_word_in_an_interface_sub_mode_is_that_command() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::configuring();
        let typed = [
            "protocol mlag",
            "interface vlan 4000",
            "mlag system-mac 00:00:5E:00:01:5D",
            "interface ethernet 1/1",
            "mlag-ch 1 mode active",
        ];
        assert_eq!(run(&mut s, &mut sw, &typed), "");
        assert!(sw.running.mlag.system_mac.is_some());
        let port = &sw.running.interfaces[&command::Iface::Ethernet(crate::types::Port::new(1, 1))];
        assert_eq!(port.channel_group.map(|g| (g.mlag, g.id)), Some((true, 1)));
    }

    #[test]
    fn unknown_commands_are_refused_and_change_nothing() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(&mut s, &mut sw, &["enable", "configure terminal"]);
        let before = sw.running.clone();
        assert_eq!(
            run(&mut s, &mut sw, &["ib sm"]),
            "% Unrecognized command \"ib\".\n"
        );
        assert_eq!(
            run(&mut s, &mut sw, &["interface ethernet 1/1 mtu 99999 force"]),
            "% Unrecognized command \"99999\".\n"
        );
        assert_eq!(sw.running, before);
    }

    #[test]
    fn saving_and_unsaved_changes() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(&mut s, &mut sw, &["enable"]);
        assert!(
            run(&mut s, &mut sw, &["show configuration files"]).ends_with("Unsaved changes : no\n")
        );
        run(&mut s, &mut sw, &["configure terminal", "lldp"]);
        let files = run(&mut s, &mut sw, &["show configuration files"]);
        assert_eq!(
            files,
            "initial (active)\nActive configuration: initial\nUnsaved changes : yes\n"
        );
        run(
            &mut s,
            &mut sw,
            &["configuration write to before-push no-switch"],
        );
        assert_eq!(sw.active, "initial");
        run(&mut s, &mut sw, &["configuration write"]);
        let files = run(&mut s, &mut sw, &["show configuration files"]);
        assert_eq!(
            files,
            "before-push\ninitial (active)\nActive configuration: initial\nUnsaved changes : no\n"
        );
    }

    #[test]
    fn port_channel_and_pool_sub_modes() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::configuring();
        run(&mut s, &mut sw, &["interface port-channel 10"]);
        assert_eq!(
            s.prompt(&sw),
            "leaf01 [standalone: master] (config interface port-channel 10) # "
        );
        assert_eq!(run(&mut s, &mut sw, &["mtu 9216 force", "exit"]), "");
        run(&mut s, &mut sw, &["traffic pool roce"]);
        assert_eq!(
            s.prompt(&sw),
            "leaf01 [standalone: master] (config pool roce) # "
        );
        let typed = [
            "type lossless",
            "memory percent 50",
            "map switch-priority 3",
            "exit",
        ];
        assert_eq!(run(&mut s, &mut sw, &typed), "");
        let shown = run(&mut s, &mut sw, &["show running-config"]);
        for line in [
            "   interface port-channel 10
",
            "   interface port-channel 10 mtu 9216 force
",
            "   traffic pool roce type lossless
",
            "   traffic pool roce memory percent 50.00
",
            "   traffic pool roce map switch-priority 3
",
        ] {
            assert!(shown.contains(line), "{line:?} in\n{shown}");
        }
    }

    #[test]
    fn the_pager_ends_at_end() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(&mut s, &mut sw, &["enable", "terminal length 20"]);
        let total = s
            .input(&mut sw, "show running-config")
            .output
            .lines()
            .count();
        let mut shown = total;
        while !s.prompt(&sw).contains("(END)") {
            shown += s.key(b' ').output.lines().count();
        }
        let all = Switch::factory("leaf01");
        let lines = crate::lab::show::running_config(&all).lines().count();
        assert_eq!(shown, lines);
        assert_eq!(
            s.prompt(&sw),
            format!("lines {}-{lines}/{lines} (END) ", lines - 18)
        );
        assert_eq!(s.key(b'x'), Reply::default());
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] # ");
    }

    #[test]
    fn paging_shows_a_page_then_the_pager_prompt() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(&mut s, &mut sw, &["enable", "terminal length 5"]);
        let first = s.input(&mut sw, "show running-config").output;
        assert_eq!(first.lines().count(), 4);
        assert!(s.prompt(&sw).starts_with("lines 1-4 "), "{}", s.prompt(&sw));
        s.input(&mut sw, "q");
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] # ");
    }
}
