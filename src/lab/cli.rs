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
use super::os10::{Os10Session, Os10Switch};

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
    /// When the lab started the switch (`show version`'s uptime).
    pub booted: Instant,
    /// An OS10 switch's state: its sessions speak OS10 ([`super::os10`]), and `running` and
    /// `files` above are unused. `None`: an Onyx switch.
    pub os10: Option<Box<Os10Switch>>,
}

/// The switch OS a lab switch simulates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Os {
    #[default]
    Onyx,
    Os10,
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
    /// `show snmp` with no read-only, read-write community: the line in the list's place
    /// (Onyx prints `No Listen Interfaces.` for an empty listen list, captured).
    SnmpNoReadOnly,
    SnmpNoReadWrite,
    /// `show snmp`'s empty listen list (captured as JSON) in text.
    SnmpNoListen,
    /// The lab's stand-in for Onyx's SHA-512 crypt of a typed password: SHA-1 of
    /// `NAME:PASSWORD` in hex, unsalted (a lab's test logins only; never a real crypt).
    PasswordHash,
    /// `show ip arp`: a blank line before its first (napalm-onyx reads entries from the
    /// eighth line; its fixture has a marker line there).
    ArpLayout,
    /// A new account's capability (`username NAME` alone).
    NewUserCapability,
    /// A new account's status before a password is set (the `onyx_username` fixture shows an
    /// account with no full name `Account disabled`).
    NewUserStatus,
    /// `show ip routing`: its line, from the value Ansible's `onyx_protocol` unit tests give
    /// `show ip routing | include "IP routing"`; no capture shows the whole output.
    IpRoutingLine,
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
    /// `show ip route`: a connected route's source and gateway columns (the captures show
    /// BGP and static routes only).
    RouteDirect,
    RouteNoGateway,
    /// `show mlag`: an admin status other than `Enabled`, an operational status or IPL state
    /// other than `Up`, a field with nothing to show.
    MlagDisabled,
    MlagDown,
    MlagNone,
    /// The prompt's role in an MLAG domain (`[mlag-domain: master]`, `standby`, both
    /// captured): which switch is master. The lab's choice: the one with the lower address on
    /// the peer link.
    MlagRole,
    /// An Ethernet port the switch's model does not have (`1/99` on a 32-port SN2700), or a
    /// subport of a port that is not split that way.
    NoSuchInterface,
    /// The layout of `?`'s help: a line per word that may follow, the word padded, then
    /// its help (the lab's own one-line texts; `<cr>`: the line may end there). A sibling
    /// TMS-based CLI documents `?` after the prompt, after a command and after part of a
    /// keyword, not its layout.
    HelpLayout,
    /// `show version`: the build date and builder of the lab's release (captures show
    /// `2024-07-25 08:02:01`, `sw-r2d2-bot@93c65e296280` for 3.10.4504; the lab imitates every
    /// release with one build).
    LabBuildDate,
    LabBuiltBy,
    /// `show inventory`: the chassis part number from the model (`{}`): the model's name as
    /// `show lldp local`'s captured `Mellanox MSN2700` spells it, without an ordering suffix.
    PartNumber,
    /// `show module`'s header: only its JSON is captured.
    ModuleHeader,
    /// `show ip interface brief`'s header: no Onyx capture shows the command.
    IpBriefHeader,
    /// `show interfaces switchport`'s header (only its JSON is captured) …
    SwitchportHeader,
    /// … and a trunk port's access VLAN there.
    TrunkAccessVlan,
    /// `show vlan`'s header: only its JSON is captured.
    VlanHeader,
    /// `show lldp remote`: the Port ID an Onyx neighbor sends for its port `{}` (captures show
    /// other vendors' neighbors only: `swp0`, `fortyGigE 0/52`).
    LldpPortId,
    /// `show lldp interfaces`' header: only its JSON is captured.
    LldpInterfacesHeader,
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
            Unconfirmed::SnmpNoReadOnly => "No read-only communities.",
            Unconfirmed::SnmpNoReadWrite => "No read-write communities.",
            Unconfirmed::SnmpNoListen => "No Listen Interfaces.",
            Unconfirmed::PasswordHash => "$6$lab${}",
            Unconfirmed::ArpLayout => "\n",
            Unconfirmed::NewUserCapability => "admin",
            Unconfirmed::NewUserStatus => "Account disabled",
            Unconfirmed::IpRoutingLine => "IP routing: {}",
            Unconfirmed::NoJson => "% json-print is not supported for \"{}\".",
            Unconfirmed::BgpOtherAs => "% BGP is already running with AS {}.",
            Unconfirmed::AddressOnSwitchport => {
                "% Interface {} is a switchport; run `no switchport force` first."
            }
            Unconfirmed::BgpIdle => "IDLE",
            Unconfirmed::BgpActive => "ACTIVE",
            Unconfirmed::BgpNeverUp => "never",
            Unconfirmed::RouteDirect => "direct",
            Unconfirmed::RouteNoGateway => "0.0.0.0",
            Unconfirmed::MlagDisabled => "Disabled",
            Unconfirmed::MlagDown => "Down",
            Unconfirmed::MlagNone => "N/A",
            Unconfirmed::MlagRole => "master if the lower peer-link address, else standby",
            Unconfirmed::NoSuchInterface => "% Interface {} does not exist.",
            Unconfirmed::HelpLayout => "  {}",
            Unconfirmed::LabBuildDate => "2025-01-01 00:00:00",
            Unconfirmed::LabBuiltBy => "fabric-lab@lab",
            Unconfirmed::PartNumber => "M{}",
            Unconfirmed::ModuleHeader => "Module            Status",
            Unconfirmed::IpBriefHeader => {
                "Interface         Address/Mask        Admin-state   Oper-state   MTU     VRF"
            }
            Unconfirmed::SwitchportHeader => {
                "Interface           Mode                Access vlan         Allowed vlans"
            }
            Unconfirmed::TrunkAccessVlan => "N/A",
            Unconfirmed::VlanHeader => "VLAN    Name                                      Ports",
            Unconfirmed::LldpPortId => "Eth{}",
            Unconfirmed::LldpInterfacesHeader => "Interface       Receive     Transmit    TLVs",
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
    /// When it logged in (OS10's `show users` prints it).
    pub since: std::time::SystemTime,
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
            booted: Instant::now(),
            os10: None,
        }
    }

    /// A factory-default OS10 switch named `hostname`, of `model` (the lab's S5248F-ON when
    /// `None`).
    pub fn os10_factory(
        hostname: &str,
        model: Option<&'static crate::os10::models::Model>,
    ) -> Switch {
        Switch::os10_with(Os10Switch::factory(hostname, model))
    }

    /// An OS10 switch in the state `sw`.
    pub fn os10_with(sw: Os10Switch) -> Switch {
        let mut s = Switch::factory(sw.hostname());
        s.os10 = Some(Box::new(sw));
        s
    }

    pub fn os(&self) -> Os {
        match self.os10 {
            Some(_) => Os::Os10,
            None => Os::Onyx,
        }
    }

    /// The switch as the network reads it.
    pub fn node(&self) -> super::network::Node {
        match &self.os10 {
            Some(o) => super::os10::net::node(&o.running),
            None => super::network::Node {
                config: self.running.clone(),
                os10: false,
                vlt: None,
            },
        }
    }

    pub fn hostname(&self) -> &str {
        match &self.os10 {
            Some(o) => o.hostname(),
            None => self.running.hostname.as_deref().unwrap_or(""),
        }
    }

    /// Whether the running configuration differs from the active saved file.
    pub fn unsaved(&self) -> bool {
        match &self.os10 {
            Some(o) => o.startup.as_ref() != Some(&o.running),
            None => self.files.get(&self.active) != Some(&self.running),
        }
    }
}

/// A CLI level. Sub-modes keep what their commands apply to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Mode {
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
    /// An object the model does not manage, entered by its line: `(config interface vlan 1
    /// magp 1) #` (captured, CSM session); its lines are kept verbatim after that prefix.
    Unmodeled(String),
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
    pub(super) mode: Mode,
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
    /// A line whose double quote is still open (`banner motd "`): the lines typed next, at
    /// the `> ` prompt (captured, CSM session), are its text until a line closes the quote.
    continued: Option<String>,
    /// The session's state on an OS10 switch (unused on Onyx).
    pub os10: Os10Session,
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
            continued: None,
            os10: Os10Session::default(),
        }
    }

    /// Turns paging on or off (`[no] cli session paging enable`; off for an exec request,
    /// which has no terminal).
    pub fn set_paging(&mut self, on: bool) {
        self.paging = on;
        self.os10.set_paging(on);
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
            os10: Os10Session::configuring(),
            ..Session::new()
        }
    }

    /// Whether an output is being paged: the next keystroke goes to the pager.
    pub fn paging_now(&self) -> bool {
        !self.pending.is_empty() || self.end || self.os10.paging_now()
    }

    /// The prompt as Onyx prints it, with its trailing space; the pager's prompt while an
    /// output is being paged.
    pub fn prompt(&self, sw: &Switch) -> String {
        if let Some(o) = &sw.os10 {
            return self.os10.prompt(o);
        }
        if self.asking {
            return "Password: ".to_string();
        }
        if self.continued.is_some() {
            return "> ".to_string();
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
            Mode::Unmodeled(line) => format!("(config {line}) #"),
        };
        let (domain, role) = cluster(&sw.running);
        format!("{host} [{domain}: {role}] {level} ")
    }

    fn page(&self) -> usize {
        self.length.saturating_sub(1).max(1)
    }

    /// One keystroke while paging (`paging_now`), as Onyx's less-like pager reads them: space
    /// shows the next page, Enter the next line, `q` (or Ctrl-C, as in less) quits; at
    /// `(END)` any key leaves.
    pub fn key(&mut self, key: u8) -> Reply {
        if self.os10.paging_now() {
            return self.os10.key(key);
        }
        if self.end || matches!(key, b'q' | b'Q' | 0x03) {
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
            ["show", ref rest @ ..] => super::show::reads_network(rest),
            _ => false,
        }
    }

    /// Reads one line typed at the prompt of a switch cabled into `world`.
    pub fn input_in(&mut self, sw: &mut Switch, line: &str, world: Option<&World>) -> Reply {
        if let Some(o) = sw.os10.as_deref_mut() {
            let (reply, effect) = self.os10.input(o, line, world, &sw.logins);
            sw.revision += u64::from(effect.changed);
            sw.saves += u64::from(effect.saved);
            return reply;
        }
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
        if let Some(mut text) = self.continued.take() {
            text.push('\n');
            text.push_str(line.trim_end_matches(['\r', '\n']));
            if open_quote(&text) {
                self.continued = Some(text);
                return Reply::default();
            }
            return self.input_in(sw, &text, world);
        }
        let line = line.trim();
        // An empty line reprints the prompt; `#` starts a comment (pasted configs).
        if line.is_empty() || line.starts_with('#') {
            return Reply::default();
        }
        // A `?` ending the line (outside quotes) asks for help rather than running it, as
        // the key does on a terminal: a client without one (a script, an exec request) asks so.
        if let Some(typed) = line.strip_suffix('?')
            && !open_quote(typed)
        {
            return Reply::text(super::help::help(self, sw, typed));
        }
        // A banner's double quote left open goes on on the next lines (a multi-line banner,
        // captured at the `> ` prompt); another line with an open quote is malformed.
        let banner =
            || expand(&self.mode, line).is_ok_and(|w| w.first().is_some_and(|w| w == "banner"));
        if open_quote(line) && !matches!(self.mode, Mode::User | Mode::Enable) && banner() {
            self.continued = Some(line.to_string());
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
        let json = super::pipe::json(&pipes);
        // A configuration's text asked as JSON is its lines, filtered first (`show
        // running-config | include bfd | json-print`, captured).
        let as_lines = json && super::show::prints_lines(&words);
        let reply = self.run(sw, &words, world, json && !as_lines);
        let mut output = super::pipe::apply(reply.output, &pipes);
        if as_lines && !output.starts_with('%') {
            output = super::show::lines_json(&output);
        }
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
                    | Mode::Mlag
                    | Mode::Unmodeled(_) => Mode::Config,
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
            // Typed in configuration mode or a sub-mode: back to `(config)`. No capture shows
            // it; Ansible's mellanox.onyx sends it there (its cliconf ends a change with one
            // `exit`, which leaves a sub-mode only, and the next change starts with
            // `configure terminal`), and real switches take that.
            ["configure", "terminal"] if config => {
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
            Mode::Unmodeled(line) if !leaves(words, UNMODELED_ATTRIBUTES) => match words {
                ["no", rest @ ..] => format!("no {line} {}", rest.join(" ")),
                _ => format!("{line} {typed}"),
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
                if let Some(refused) = refusal(sw, &cmd) {
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
            // Not a command the model knows: kept verbatim when it is configuration switches
            // take ([`super::unmodeled`]), else refused at the first word Onyx would not
            // accept (after an interface's name, the attribute).
            Ok(None) => {
                if let Some(reply) = self.unmodeled(sw, &full) {
                    return reply;
                }
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

impl Session {
    /// A line the model does not know, if it is of a family switches take: kept verbatim
    /// (`None`: of no family). An interface's line must name an interface the switch has;
    /// `interface vlan N magp M` alone enters that object's sub-mode.
    fn unmodeled(&mut self, sw: &mut Switch, full: &str) -> Option<Reply> {
        use super::unmodeled::{INTERFACE, TOP, family, keep};
        let words = cli_text::words(full);
        let body = match words.first() {
            Some(&"no") => &words[1..],
            _ => &words[..],
        };
        // `interface KIND ID no …` takes back an interface's setting (`interface ethernet 1/25
        // no lldp receive`, as Ansible's onyx_lldp_interface sends it).
        let named = match body {
            ["interface", kind, id, "no", rest @ ..] | ["interface", kind, id, rest @ ..]
                if !rest.is_empty() =>
            {
                match command::parse(&format!("interface {kind} {id}")) {
                    Ok(Some(Command::Interface(r, IfaceCmd::Create))) => Some((r, rest)),
                    _ => None,
                }
            }
            _ => None,
        };
        let found = match named {
            Some((_, rest)) => family(INTERFACE, rest),
            None => family(TOP, body),
        };
        let f = match found {
            Ok(Some(f)) => f,
            Ok(None) => return None,
            Err(word) => return Some(Reply::unrecognized(word)),
        };
        let mut entered = None;
        if let Some((r, rest)) = named {
            if let Some(refused) = missing(sw, r) {
                return Some(refused);
            }
            // MAGP is a VLAN interface's (Onyx manual, MAGP).
            if f.words == ["magp"] {
                if !matches!(r.first, Iface::Vlan(_)) {
                    return Some(Reply::unrecognized("magp"));
                }
                if rest.len() == 2 && body.len() == words.len() {
                    entered = Some(Mode::Unmodeled(full.to_string()));
                }
            }
        }
        let hashed = hashed_password(&words);
        keep(&mut sw.running, f, hashed.as_deref().unwrap_or(full));
        sw.revision += 1;
        if let Some(m) = entered {
            self.mode = m;
        }
        Some(Reply::default())
    }
}

/// `username NAME password [0] PLAIN` as the switch keeps it: the password hashed, `password
/// 7 HASH` (Onyx prints a SHA-512 crypt there, `$6$…`: CSM, Mellon). The lab's hash is
/// [`Unconfirmed::PasswordHash`]'s; a typed `password 7 HASH` is kept as typed. `None`: not
/// such a line.
fn hashed_password(words: &[&str]) -> Option<String> {
    use sha1::Digest as _;
    let (name, plain) = match words {
        ["username", name, "password", "0", plain] => (name, plain),
        // `password 7` is followed by its hash, not a password.
        ["username", name, "password", plain] if !matches!(*plain, "0" | "7") => (name, plain),
        _ => return None,
    };
    let digest = sha1::Sha1::digest(format!("{name}:{plain}").as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let hash = Unconfirmed::PasswordHash.text().replace("{}", &hex);
    Some(format!("username {name} password 7 {hash}"))
}

/// Why the switch refuses the interfaces of a range: an Ethernet port its model does not
/// have, or a subport of a port not split that way (whatever the model).
fn missing(sw: &Switch, r: IfaceRange) -> Option<Reply> {
    r.members().find_map(|i| {
        let Iface::Ethernet(p) = i else { return None };
        let parent = p.parent();
        let on_model = sw.model.is_none_or(|m| m.has_port(parent));
        let split = sw
            .running
            .interfaces
            .get(&Iface::Ethernet(parent))
            .and_then(|e| e.split);
        let exists = match p.sub {
            None => on_model,
            Some(s) => on_model && split.is_some_and(|w| (1..=w.ways()).contains(&s)),
        };
        (!exists).then(|| Unconfirmed::NoSuchInterface.reply(&format!("ethernet {p}")))
    })
}

/// Why the switch refuses a command the grammar reads, state untouched; `None` when it takes
/// it: a command its release lacks (`% Unrecognized command "roce".` before 3.8.2000, the
/// gates of [`Release`]), an interface it does not have, a value out of range.
fn refusal(sw: &Switch, cmd: &Command) -> Option<Reply> {
    if let Some((since, word)) = cmd.since()
        && sw.release < since
    {
        return Some(Reply::unrecognized(word));
    }
    let c = &sw.running;
    match cmd {
        Command::Interface(r, _) | Command::NoInterface(r) => {
            if let Some(refused) = missing(sw, *r) {
                return Some(refused);
            }
        }
        _ => {}
    }
    // ECN thresholds out of the range the switch takes, or the minimum above the maximum:
    // refused naming the value at fault (the one confirmed error form).
    if let Command::Interface(_, IfaceCmd::Ecn(_, e)) = cmd
        && let Err(value) = e.thresholds.check()
    {
        return Some(Reply::unrecognized(&value));
    }
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
            "banner",
            "cli",
            "clock",
            "configuration",
            "configure",
            "dcb",
            "disable",
            "enable",
            "exit",
            "hostname",
            "interface",
            "ip",
            "ipv4",
            "lacp",
            "license",
            "lldp",
            "logging",
            "mlag",
            "mlag-vip",
            "no",
            "ntp",
            "protocol",
            "roce",
            "router",
            "show",
            "snmp-server",
            "spanning-tree",
            "terminal",
            "traffic",
            "username",
            "vlan",
            "vrf",
            "write",
        ],
    ),
    (
        "no",
        &[
            "banner",
            "cli",
            "clock",
            "dcb",
            "hostname",
            "interface",
            "ip",
            "ipv4",
            "lacp",
            "lldp",
            "logging",
            "mlag",
            "mlag-vip",
            "ntp",
            "protocol",
            "roce",
            "router",
            "snmp-server",
            "spanning-tree",
            "traffic",
            "username",
            "vlan",
            "vrf",
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
            "hosts",
            "interfaces",
            "inventory",
            "ip",
            "lldp",
            "mac-address-table",
            "mlag",
            "mlag-vip",
            "module",
            "protocols",
            "qos",
            "roce",
            "running-config",
            "traffic",
            "users",
            "version",
            "vlan",
        ],
    ),
    ("buffers", &["pools"]),
    (
        "interfaces",
        &[
            "ethernet",
            "mlag-port-channel",
            "port-channel",
            "status",
            "switchport",
        ],
    ),
    ("lldp", &["interfaces", "local", "remote"]),
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
    ("priority-flow-control", &["enable", "mode", "priority"]),
    ("priority-flow-control mode", &["on"]),
    (
        "ip",
        &[
            "address",
            "bgp",
            "domain-list",
            "interface",
            "load-sharing",
            "name-server",
            "route",
            "routing",
        ],
    ),
    ("load-sharing", &["source-ip-port", "type"]),
    ("ethernet", &["counters", "status"]),
    ("bgp", &["summary", "vrf"]),
    ("bgp vrf", &["all", "default"]),
    ("vrf", &["definition"]),
    ("router", &["bgp", "ospf"]),
    ("protocol", &["bgp", "magp", "mlag", "ospf"]),
    ("mlag", &["shutdown", "system-mac"]),
    ("ethernet *", ATTRIBUTES),
    ("port-channel *", ATTRIBUTES),
    ("mlag-port-channel *", ATTRIBUTES),
    (
        "switchport",
        &["access", "force", "hybrid", "mode", "trunk"],
    ),
    ("switchport mode", &["access", "hybrid", "trunk"]),
    ("trunk", &["allowed-vlan"]),
    ("hybrid", &["allowed-vlan"]),
    ("allowed-vlan", &["add", "all", "none", "remove"]),
    ("traffic-class *", &["congestion-control", "dcb"]),
    ("* dcb", &["ets"]),
    ("ets", &["strict", "wrr"]),
    ("congestion-control", &["both", "ecn", "red"]),
    ("ecn", &["minimum-absolute", "minimum-relative"]),
    ("red", &["minimum-absolute", "minimum-relative"]),
    ("both", &["minimum-absolute", "minimum-relative"]),
    ("minimum-absolute *", &["maximum-absolute"]),
    ("minimum-relative *", &["maximum-relative"]),
    ("qos", &["trust"]),
    ("trust", &["L2", "L3", "both", "port"]),
    ("module-type", &["qsfp-split-2", "qsfp-split-4"]),
    ("channel-group *", &["mode"]),
    ("mlag-channel-group *", &["mode"]),
    ("* mode", &["active", "on", "passive"]),
    ("pool *", &["map", "memory", "type"]),
    ("type", &["lossless", "lossy", "lossy-mc"]),
    ("memory", &["percent"]),
    ("map", &["switch-priority"]),
];

/// The interface attributes that start a line inside an interface sub-mode.
pub(super) const ATTRIBUTES: &[&str] = &[
    "channel-group",
    "dcb",
    "description",
    "ip",
    "ipl",
    "lacp-individual",
    "mlag-channel-group",
    "module-type",
    "mtu",
    "no",
    "qos",
    "shutdown",
    "spanning-tree",
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

/// The attributes that start a line inside an unmodeled object's sub-mode (MAGP's: `ip
/// virtual-router address|mac-address`, captured; `shutdown`, Onyx manual, MAGP).
const UNMODELED_ATTRIBUTES: &[&str] = &["ip", "no", "shutdown"];

/// The attributes of a sub-mode other than an interface's: lines there that start with one
/// configure the mode's object.
pub(super) fn sub_attributes(mode: &Mode) -> Option<&'static [&'static str]> {
    match mode {
        Mode::Pool(_) => Some(POOL_ATTRIBUTES),
        Mode::Bgp(_) => Some(BGP_ATTRIBUTES),
        Mode::Mlag => Some(MLAG_ATTRIBUTES),
        Mode::Unmodeled(_) => Some(UNMODELED_ATTRIBUTES),
        _ => None,
    }
}

/// Whether a double quote is left open in `text` (its text goes on on the next line).
fn open_quote(text: &str) -> bool {
    text.matches('"').count() % 2 == 1
}

/// The entry of a table keyed like [`KEYWORDS`] for the words of `shape`: the one for its
/// last three, two or one words, the longest first.
pub(super) fn suffix<T: Copy>(table: &[(&str, T)], shape: &[&str]) -> Option<T> {
    (1..=shape.len().min(3)).rev().find_map(|n| {
        let key = shape[shape.len() - n..].join(" ");
        table.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    })
}

/// The words of `path` (keywords written out) with each word that is not a keyword where it
/// stands (a number, a name, an address) written `*`: `channel-group * mode`.
pub(super) fn shape<'a>(path: &[&'a str]) -> Vec<&'a str> {
    let mut shape: Vec<&str> = Vec::with_capacity(path.len());
    for (i, w) in path.iter().enumerate() {
        let known = i == 0 || suffix(KEYWORDS, &shape).is_some_and(|c| c.contains(w));
        shape.push(if known { w } else { "*" });
    }
    shape
}

/// The keywords that may follow the words of `path` (keywords written out), from
/// [`KEYWORDS`] (the first words of a line after none).
pub(super) fn follows(path: &[&str]) -> &'static [&'static str] {
    if path.is_empty() {
        return KEYWORDS[0].1;
    }
    suffix(KEYWORDS, &shape(path)).unwrap_or(&[])
}

/// The words of a line with abbreviated keywords written out.
pub(super) fn expand(mode: &Mode, line: &str) -> Result<Vec<String>, Reply> {
    // A quoted argument is one word, kept as typed (its spaces included).
    let words: Vec<&str> = cli_text::words(line);
    let mut out: Vec<String> = Vec::new();
    for (i, &word) in words.iter().enumerate() {
        let path: Vec<&str> = out.iter().map(String::as_str).collect();
        let in_interface = matches!(mode, Mode::Interface(_));
        let candidates: &[&str] = if i == 0 && in_interface {
            ATTRIBUTES
        } else if i == 0
            && let Some(attributes) = sub_attributes(mode)
            && !KEYWORDS[0].1.contains(&word)
        {
            attributes
        } else if i == 0 {
            KEYWORDS[0].1
        } else {
            follows(&path)
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
                matching.retain(|c| {
                    let mut then = path.clone();
                    then.push(c);
                    follows(&then).iter().any(|f| f.starts_with(next))
                });
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
        assert_eq!(run(&mut s, &mut sw, &["mtu 9216 force", "sw mo hy"]), "");
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
        // An open quote outside a banner is refused, not read on the next lines.
        let open = run(
            &mut s,
            &mut sw,
            &["interface ethernet 1/1 description \"open"],
        );
        assert!(open.starts_with('%'), "{open}");
        assert_eq!(sw.running, before);
        assert_eq!(run(&mut s, &mut sw, &["lldp"]), "");
        assert!(sw.running.lldp);
    }

    /// A switch refuses what its release lacks (the fabric validation's gates), ports its
    /// model does not have, subports of a port not split, ECN thresholds out of range;
    /// nothing changes.
    #[test]
    fn what_the_switch_lacks_is_refused() {
        let mut sw = Switch::factory_as("leaf01", Some(Release(3, 6, 8190)), None);
        sw.model = crate::types::Model::find("SN2700").ok();
        let mut s = Session::configuring();
        let before = sw.running.clone();
        for (line, error) in [
            ("roce", "% Unrecognized command \"roce\".\n"),
            (
                "interface ethernet 1/99 mtu 9216 force",
                "% Interface ethernet 1/99 does not exist.\n",
            ),
            (
                "interface ethernet 1/30-1/33 shutdown",
                "% Interface ethernet 1/33 does not exist.\n",
            ),
            (
                "interface ethernet 1/1/2 mtu 9216 force",
                "% Interface ethernet 1/1/2 does not exist.\n",
            ),
            (
                "interface ethernet 1/1 mtu 99999 force",
                "% Unrecognized command \"99999\".\n",
            ),
            ("vlan 4095", "% Unrecognized command \"4095\".\n"),
            (
                "interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 1500 maximum-absolute 150",
                "% Unrecognized command \"1500\".\n",
            ),
            (
                "interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 2000000",
                "% Unrecognized command \"2000000\".\n",
            ),
        ] {
            assert_eq!(run(&mut s, &mut sw, &[line]), error, "{line}");
        }
        assert_eq!(sw.running, before);
        // 3.6.8190 has traffic pools; 3.6.4000 does not, nor a port 1/33 on any switch
        // without a model.
        assert_eq!(
            run(&mut s, &mut sw, &["traffic pool roce type lossless"]),
            ""
        );
        let mut old = Switch::factory_as("leaf02", Some(Release(3, 6, 4000)), None);
        assert_eq!(
            run(&mut s, &mut old, &["traffic pool roce type lossless"]),
            "% Unrecognized command \"traffic\".\n"
        );
        assert_eq!(
            run(&mut s, &mut old, &["interface ethernet 1/33 shutdown"]),
            ""
        );
        // Split, its subports exist.
        let typed = [
            "interface ethernet 1/1 module-type qsfp-split-2 force",
            "interface ethernet 1/1/2 mtu 9216 force",
        ];
        assert_eq!(run(&mut s, &mut sw, &typed), "");
    }

    /// Unmodeled configuration is kept verbatim in its section and shown back; a line of no
    /// family, or with a word its family lacks, is refused.
    #[test]
    fn unmodeled_configuration_is_kept_and_shown() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(
            &mut s,
            &mut sw,
            &[
                "enable",
                "configure terminal",
                "no cli session paging enable",
            ],
        );
        let typed = [
            "ntp server 10.1.0.5",
            "snmp-server location \"rack 4\"",
            "logging 10.10.10.10 trap info",
            "username monitor capability monitor",
            "clock timezone UTC",
            "ip name-server vrf mgmt 4.2.2.2",
            "ip domain-list local",
            "ip route 0.0.0.0/0 10.102.3.3 5",
            "vrf definition Customer",
            "ip routing vrf Customer",
            "ipv4 access-list cmn-can",
            "protocol ospf",
            "router ospf 2 vrf Customer router-id 10.2.0.3",
            "protocol magp",
            "interface vlan 7",
            "ip ospf area 0.0.0.0",
            "exit",
            "interface vlan 1 magp 1",
            "ip virtual-router address 10.1.0.1",
            "exit",
            "banner motd \"",
            "# CSM version:  1.2",
            "\"",
            "spanning-tree mode rpvst",
        ];
        for line in typed {
            assert_eq!(run(&mut s, &mut sw, &[line]), "", "{line}");
        }
        let shown = run(&mut s, &mut sw, &["show running-config"]);
        for (section, line) in [
            ("Network management configuration", "   ntp server 10.1.0.5"),
            ("SNMP configuration", "   snmp-server location \"rack 4\""),
            (
                "Local user account configuration",
                "   username monitor capability monitor",
            ),
            (
                "Other IP configuration",
                "   ip route 0.0.0.0/0 10.102.3.3 5",
            ),
            ("L3 configuration", "   vrf definition Customer"),
            (
                "OSPF configuration",
                "   interface vlan 7 ip ospf area 0.0.0.0",
            ),
            (
                "MAGP configuration",
                "   interface vlan 1 magp 1 ip virtual-router address 10.1.0.1",
            ),
            ("STP configuration", "   spanning-tree mode rpvst"),
            (
                "Network management configuration",
                "   banner motd \"\n# CSM version:  1.2\n\"",
            ),
        ] {
            let at = shown
                .find(&format!("## {section}\n"))
                .unwrap_or_else(|| panic!("{section} in\n{shown}"));
            let next = shown[at..].find("\n\n").map_or(shown.len(), |n| at + n + 1);
            assert!(
                shown[at..next].contains(&format!("{line}\n")),
                "{line:?} under {section} in\n{shown}"
            );
        }
        // What the parser reads back is what was kept.
        let back = crate::onyx::parse(&shown).unwrap();
        let undated = |t: &str| -> String {
            t.lines()
                .filter(|l| !l.starts_with("## Generated at"))
                .collect()
        };
        let again = crate::lab::show::running_config(&Switch::with_config(back));
        assert_eq!(undated(&again), undated(&shown));
        // Garbage is refused, a family's unknown word too; `no` takes a line back.
        for (line, error) in [
            ("ntp bogus", "% Unrecognized command \"bogus\".\n"),
            ("snmp", "% Unrecognized command \"snmp-server\".\n"),
            ("frobnicate now", "% Unrecognized command \"frobnicate\".\n"),
            (
                "interface ethernet 1/1 magp 1",
                "% Unrecognized command \"magp\".\n",
            ),
        ] {
            assert_eq!(run(&mut s, &mut sw, &[line]), error, "{line}");
        }
        run(&mut s, &mut sw, &["no ntp server 10.1.0.5"]);
        assert!(!run(&mut s, &mut sw, &["show running-config"]).contains("ntp server"));
    }

    #[test]
    fn a_question_mark_asks_for_help() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::configuring();
        let help = run(
            &mut s,
            &mut sw,
            &["interface ethernet 1/1 switchport mode ?"],
        );
        assert_eq!(
            help,
            "  access              Access port: untagged, one VLAN\n  hybrid              Hybrid port: untagged and tagged VLANs\n  trunk               Trunk port: tagged VLANs\n"
        );
        let help = run(&mut s, &mut sw, &["ntp ?"]);
        assert!(help.contains("  server\n"), "{help}");
        let help = run(&mut s, &mut sw, &["mtu ?"]);
        assert_eq!(help, "% Unrecognized command \"mtu\".\n");
        run(&mut s, &mut sw, &["interface ethernet 1/1"]);
        let help = run(&mut s, &mut sw, &["mtu ?"]);
        assert_eq!(help, "  <1500-9216>         MTU in bytes\n");
        let help = run(&mut s, &mut sw, &["mtu 9216 ?"]);
        assert!(help.contains("<cr>"), "{help}");
        assert_eq!(sw.running, Switch::factory("leaf01").running);
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
