//! The lab's OS10 switch: a Dell EMC SmartFabric OS10 CLI over the same SSH server, terminal
//! and fault injection as the Onyx switch. Its state is an [`os10::Config`] (running) and the
//! configuration saved as startup; a session's lines are read with the OS10 grammar in the
//! mode they are typed in ([`edit`]) and `show running-configuration` prints the state
//! through the OS10 renderer.
//!
//! Fidelity follows `../shared/reference/os10-roce.md` ("Session facts") and the captures in
//! `tests/fixtures/corpus/os10/`: the prompts `OS10#`, `OS10(config)#`,
//! `OS10(conf-if-eth1/1/1)#`, `(conf-if-po-100)`, `(conf-if-vl-7)` and `% Error: Illegal
//! parameter.` are captured (Cray CSM and grantcurell sessions), as is a top-level command
//! typed in a sub-mode moving to its own mode (`interface port-channel100` typed at
//! `(conf-if-vl-7)#`, CSM session). Transaction mode (`start transaction`, then `commit` or
//! `discard`, at the `#` prompt) is Dell's knowledge-base article 000120163 ("available as of
//! 10.4.x"). `show port-group` and the names a port group's mode gives its ports
//! (`ethernet1/1/17:1` in `10g-4x`) are the AzureStack TOR's (10.5.3.2). Everything else the
//! lab prints is in one table, [`Unconfirmed`] (the port-group mode's prompt among it).

mod abbrev;
mod counters;
mod edit;
mod files;
pub mod folder;
pub mod net;
mod pipe;
mod show;
mod state;
mod system;
pub mod target;
mod unconfirmed;
pub mod vlt;
mod xml;

use std::collections::BTreeMap;
use std::time::{Instant, SystemTime};

use crate::os10::{self, Config, Iface, QosKind, TrustKind};

use crate::lab::network::World;
use crate::lab::{Login, Reply};
use edit::{Change, Ctx, Line, Refused};
pub use files::{HomeFile, MAX_HOME_FILE, STARTUP, SavedFile, put_home, valid_name};
pub use unconfirmed::Unconfirmed;

/// The release a lab OS10 switch reports: the AzureStack TOR's `show version` (10.5.3.2).
pub const LAB_RELEASE: &str = "10.5.3.2";

/// The model a lab OS10 switch is when none is named: the captured S5248F-ON.
pub const LAB_MODEL: &str = "S5248F-ON";

/// `% Error: Illegal parameter.`: a known command with a wrong value (captured, CSM session).
const ILLEGAL: &str = "% Error: Illegal parameter.";

/// Whether a line typed at an OS10 prompt is a `show` of the network around the switch (so
/// the other switches are read before it runs).
pub fn reads_network(line: &str) -> bool {
    let (command, filters) = crate::types::cli_text::filters(line);
    let xml = filters.contains(&"display-xml");
    let words: Vec<&str> = command.split_whitespace().collect();
    match words.as_slice() {
        ["show", rest @ ..] | ["do", "show", rest @ ..] => {
            state::reads_network(rest) || (xml && xml::reads_network(rest))
        }
        _ => false,
    }
}

/// A mode's prompt inside `(…)`, with its source. Captured: `conf-if-eth1/1/12`,
/// `conf-if-po-100`, `conf-if-vl-7` (grantcurell, CSM), `config-router-ospf-1` (CSM, the
/// model of the BGP one). The rest follows the Dell OS10 user guide's examples, UNCONFIRMED
/// by a capture.
fn mode_prompt(ctx: &Ctx, header: &str) -> String {
    let last = header.rsplit(' ').next().unwrap_or("");
    match ctx {
        Ctx::Interface(Iface::Ethernet(e)) => format!("conf-if-eth{e}"),
        Ctx::Interface(Iface::PortChannel(n)) => format!("conf-if-po-{n}"),
        Ctx::Interface(Iface::Vlan(v)) => format!("conf-if-vl-{v}"),
        Ctx::Interface(Iface::Loopback(n)) => format!("conf-if-lo-{n}"),
        Ctx::Interface(Iface::Mgmt(a, b, c)) => format!("conf-if-ma-{a}/{b}/{c}"),
        Ctx::Wred => "config-wred".into(),
        Ctx::ClassMap(QosKind::Queuing) => "config-cmap-queuing".into(),
        Ctx::ClassMap(QosKind::NetworkQos) => "config-cmap-nqos".into(),
        Ctx::TrustMap(TrustKind::Dot1p) => "config-tmap-dot1p-map".into(),
        Ctx::TrustMap(TrustKind::Dscp) => "config-tmap-dscp-map".into(),
        Ctx::QosMap => "config-qos-map".into(),
        Ctx::PolicyMap(QosKind::Queuing) => "config-pmap-queuing".into(),
        Ctx::PolicyMap(QosKind::NetworkQos) => "config-pmap-network-qos".into(),
        Ctx::PolicyClass(QosKind::Queuing) => "config-pmap-c-que".into(),
        Ctx::PolicyClass(QosKind::NetworkQos) => "config-pmap-c-nqos".into(),
        Ctx::SystemQos => "config-sys-qos".into(),
        Ctx::PortGroup(g) => Unconfirmed::PortGroupPrompt
            .text()
            .replace("{}", &g.to_string()),
        Ctx::Vlt(n) => format!("conf-vlt-{n}"),
        Ctx::Bgp(_) => format!("config-router-bgp-{last}"),
        Ctx::BgpAf => "configure-router-bgpv4-af".into(),
        Ctx::Peer { template: false } => "config-router-neighbor".into(),
        Ctx::Peer { template: true } => "config-router-template".into(),
        Ctx::PeerAf => "config-router-neighbor-af".into(),
    }
}

/// An OS10 switch's state.
#[derive(Clone, Debug)]
pub struct Os10Switch {
    pub running: Config,
    /// The startup configuration (`write memory`); `None` until the first save.
    pub startup: Option<Config>,
    /// When the startup configuration was last written (`dir config`'s `startup.xml`).
    pub startup_at: SystemTime,
    /// The other files of `config://` (`copy running-configuration config://NAME`), by name.
    pub files: BTreeMap<String, SavedFile>,
    /// The files of the login's home folder, `home://` (SCP puts them there), by name.
    pub home: BTreeMap<String, HomeFile>,
    pub model: &'static os10::models::Model,
    pub release: String,
    pub booted: Instant,
}

impl Os10Switch {
    /// A switch as it leaves the factory, named: `hostname`, the model's port groups in their
    /// native modes (OS10 prints every group, native ones included: the TOR capture), its
    /// front-panel ports up, in VLAN 1, as a factory OS10 prints them (`no shutdown`,
    /// `switchport access vlan 1`, `flowcontrol receive on`: grantcurell's 10.5.0.2 `show
    /// configuration`).
    pub fn factory(hostname: &str, model: Option<&'static os10::models::Model>) -> Os10Switch {
        let model = model
            .or_else(|| os10::models::Model::named(LAB_MODEL))
            .unwrap_or(&os10::models::MODELS[0]);
        let mut text = format!("! Version {LAB_RELEASE}\n!\nhostname {hostname}\n");
        for g in model.port_groups() {
            text.push_str(&format!(
                "!\nport-group 1/1/{}\n mode Eth {}\n",
                g.number,
                g.native()
            ));
        }
        for port in 1..=model.port_count() {
            text.push_str(&format!(
                "!\ninterface ethernet1/1/{port}\n no shutdown\n switchport access vlan 1\n flowcontrol receive on\n"
            ));
        }
        text.push_str("!\ninterface mgmt1/1/1\n no shutdown\n!\n");
        let running = os10::parse(&text).unwrap_or_default();
        Os10Switch::with_config(running, model)
    }

    /// A switch running `config` (its startup too, as after a boot from it).
    pub fn with_config(config: Config, model: &'static os10::models::Model) -> Os10Switch {
        Os10Switch {
            startup: Some(config.clone()),
            startup_at: SystemTime::now(),
            files: BTreeMap::new(),
            home: BTreeMap::new(),
            running: config,
            model,
            release: LAB_RELEASE.to_string(),
            booted: Instant::now(),
        }
    }

    pub fn hostname(&self) -> &str {
        self.running.hostname.as_deref().unwrap_or("OS10")
    }

    /// The switch running `release` (a fabric's `os10:`): `show version` and the running
    /// configuration's `! Version` line say it, and transaction mode is there only from
    /// the release that has it ([`os10::has_transactions`]).
    pub fn released(mut self, release: &str) -> Os10Switch {
        self.release = release.to_string();
        for c in std::iter::once(&mut self.running).chain(self.startup.as_mut()) {
            c.header.version = Some(release.to_string());
        }
        self
    }
}

/// Where a session is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Mode {
    /// `OS10#`: an admin logs in at the `#` prompt (captured, CSM console).
    #[default]
    Exec,
    /// `(config)#` and the blocks entered below it, outermost first, with their headers.
    Config(Vec<(Ctx, String)>),
}

/// One session on an OS10 switch.
#[derive(Clone, Debug)]
pub struct Os10Session {
    mode: Mode,
    /// `terminal length`: 0 shows output whole.
    length: usize,
    /// Output lines still to page through.
    pending: Vec<String>,
    /// `start transaction`: the candidate configuration, applied by `commit`.
    candidate: Option<Config>,
    /// `delete URL` asked whether to delete the file at `URL`; the next line answers.
    deleting: Option<String>,
    /// The session types a file's lines for `copy home://NAME running-configuration`: it
    /// copies no file to the running configuration itself.
    merging: bool,
}

impl Default for Os10Session {
    fn default() -> Self {
        Os10Session {
            mode: Mode::Exec,
            length: 24,
            pending: Vec::new(),
            candidate: None,
            deleting: None,
            merging: false,
        }
    }
}

/// What one line did to the switch.
pub use crate::targets::LabEffect as Effect;

impl Os10Session {
    /// A session at `(config)#`, paging off (a drift fault's hand on the box).
    pub fn configuring() -> Os10Session {
        Os10Session {
            mode: Mode::Config(Vec::new()),
            length: 0,
            ..Os10Session::default()
        }
    }

    /// Turns paging off (an exec request has no terminal).
    pub fn set_paging(&mut self, on: bool) {
        self.length = if on { 24 } else { 0 };
    }

    pub fn paging_now(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The prompt, as OS10 prints it: `host#`, `host(config)#`, `host(conf-if-eth1/1/1)#`,
    /// and a space (the captures show the command after `# `, and grantcurell's session a
    /// syslog line the switch printed after `OS10(conf-if-eth1/1/12)# `; scrapli-community's
    /// `dell_emc` patterns, which end at the `#`, do not match it).
    pub fn prompt(&self, sw: &Os10Switch) -> String {
        if self.paging_now() {
            return Unconfirmed::More.text().to_string();
        }
        if let Some(name) = &self.deleting {
            return files::question(name);
        }
        let host = sw.hostname();
        match &self.mode {
            Mode::Exec => format!("{host}# "),
            Mode::Config(path) => match path.last() {
                None => format!("{host}(config)# "),
                Some((ctx, header)) => format!("{host}({})# ", mode_prompt(ctx, header)),
            },
        }
    }

    /// A key while paging: `q` quits, Enter shows a line, anything else a page.
    pub fn key(&mut self, key: u8) -> Reply {
        let n = match key {
            b'q' | b'Q' | 0x03 => {
                self.pending.clear();
                return Reply::default();
            }
            b'\r' | b'\n' => 1,
            _ => self.length.saturating_sub(1).max(1),
        };
        Reply::text(self.next(n))
    }

    fn next(&mut self, n: usize) -> String {
        let n = n.min(self.pending.len());
        self.pending.drain(..n).map(|l| format!("{l}\n")).collect()
    }

    fn paged(&mut self, reply: Reply) -> Reply {
        let lines: Vec<&str> = reply.output.lines().collect();
        let page = self.length.saturating_sub(1).max(1);
        if self.length == 0 || lines.len() <= page {
            return reply;
        }
        self.pending = lines.iter().map(|l| l.to_string()).collect();
        Reply {
            output: self.next(page),
            ..reply
        }
    }

    /// Reads one line typed at the prompt; `logins` are the sessions on the switch.
    pub fn input(
        &mut self,
        sw: &mut Os10Switch,
        line: &str,
        world: Option<&World>,
        logins: &BTreeMap<u64, Login>,
    ) -> (Reply, Effect) {
        if self.paging_now() {
            let key = if line.trim() == "q" { b'q' } else { b' ' };
            return (self.key(key), Effect::default());
        }
        if let Some(name) = self.deleting.take() {
            let saved = files::answer(sw, &name, line);
            return (
                Reply::default(),
                Effect {
                    changed: false,
                    saved,
                },
            );
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('!') {
            return (Reply::default(), Effect::default());
        }
        let mut effect = Effect::default();
        // Output modifiers (`| grep snmp`): the command runs, its output is filtered.
        let Ok((line, pipes)) = pipe::split(line) else {
            return (Unconfirmed::Unrecognized.reply(), effect);
        };
        // Keywords abbreviated (`conf t`, `show run`), written out.
        let top = match &self.mode {
            Mode::Exec => true,
            Mode::Config(path) => path.is_empty(),
        };
        let expanded = abbrev::expand(line, top);
        let line = expanded.as_str();
        let words: Vec<&str> = line.split_whitespace().collect();
        let mut reply = match words.as_slice() {
            _ if pipe::xml(&pipes) => xml_reply(sw, &words, world),
            ["show", "users"] | ["do", "show", "users"] => files::users(logins),
            ["show", "processes", "node-id", n] | ["do", "show", "processes", "node-id", n] => {
                match *n {
                    "1" => Reply::text(system::show_processes(sw, logins.len())),
                    _ => Reply::text(format!("{ILLEGAL}\n")),
                }
            }
            _ => self.run(sw, line, world, &mut effect),
        };
        // A refusal is said whole, whatever the modifiers.
        if pipes.is_empty() || reply.output.starts_with("% ") {
            return (self.paged(reply), effect);
        }
        reply.output = pipe::apply(&reply.output, &pipes);
        if pipe::no_more(&pipes) {
            return (reply, effect);
        }
        (self.paged(reply), effect)
    }

    fn run(
        &mut self,
        sw: &mut Os10Switch,
        line: &str,
        world: Option<&World>,
        effect: &mut Effect,
    ) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        // Commands of every mode.
        match words.as_slice() {
            ["end"] => {
                self.mode = Mode::Exec;
                return Reply::default();
            }
            ["exit"] => {
                match &mut self.mode {
                    Mode::Exec => {
                        return Reply {
                            output: String::new(),
                            close: true,
                        };
                    }
                    Mode::Config(path) if path.is_empty() => self.mode = Mode::Exec,
                    Mode::Config(path) => {
                        path.pop();
                    }
                }
                return Reply::default();
            }
            ["do", rest @ ..] if matches!(self.mode, Mode::Config(_)) => {
                return self.exec(sw, rest, world, effect);
            }
            // The file commands run in configuration mode too (`dir config` and `copy` at
            // `(config)#`, captured); so does `commit`, in any block (dellemc.os10's
            // `os10_config` sends it after a block's lines, where they left the session).
            ["dir" | "copy" | "delete", ..] | ["commit"] => {
                return self.exec(sw, &words, world, effect);
            }
            _ => {}
        }
        match self.mode {
            Mode::Exec => self.exec(sw, &words, world, effect),
            Mode::Config(_) => self.configure(sw, line, effect),
        }
    }

    /// A command at the `#` prompt (or after `do`).
    fn exec(
        &mut self,
        sw: &mut Os10Switch,
        words: &[&str],
        world: Option<&World>,
        effect: &mut Effect,
    ) -> Reply {
        match words {
            ["configure", "terminal"] | ["configure"] if self.mode == Mode::Exec => {
                self.mode = Mode::Config(Vec::new());
                Reply::default()
            }
            ["terminal", "length", n] => match n.parse::<usize>() {
                Ok(n) if n <= 512 => {
                    self.length = n;
                    Reply::default()
                }
                _ => Reply::text(format!("{ILLEGAL}\n")),
            },
            ["write", "memory"] => {
                save(sw, effect);
                Reply::default()
            }
            ["copy", "running-configuration", "startup-configuration"] => {
                save(sw, effect);
                Unconfirmed::CopyDone.reply()
            }
            ["start", "transaction"] | ["commit"] | ["discard"] => {
                self.transaction(sw, words, effect)
            }
            ["dir", "config"] | ["dir", "config:"] | ["dir", "config://"] => {
                files::dir(sw, files::Folder::Config)
            }
            ["dir", "home"] | ["dir", "home:"] | ["dir", "home://"] => {
                files::dir(sw, files::Folder::Home)
            }
            ["copy", from, "running-configuration"] if from.starts_with("home://") => {
                self.merge(sw, from, effect)
            }
            ["copy", from, to] => {
                let reply = files::copy(sw, from, to);
                effect.saved = !reply.output.starts_with('%');
                reply
            }
            ["delete", url] => match files::delete(sw, url) {
                Ok(name) => {
                    self.deleting = Some(name);
                    Reply::default()
                }
                Err(refused) => refused,
            },
            ["show", rest @ ..] => self.show(sw, rest, world),
            [] => Reply::default(),
            _ => Unconfirmed::Unrecognized.reply(),
        }
    }

    /// Transaction mode: `start transaction` (from the release that has it), `commit` or
    /// `discard`.
    fn transaction(&mut self, sw: &mut Os10Switch, words: &[&str], effect: &mut Effect) -> Reply {
        match words {
            ["start", "transaction"] if !os10::has_transactions(&sw.release) => {
                Unconfirmed::Unrecognized.reply()
            }
            ["start", "transaction"] => {
                if self.candidate.is_some() {
                    return Unconfirmed::InTransaction.reply();
                }
                self.candidate = Some(sw.running.clone());
                Reply::default()
            }
            ["commit"] => match self.candidate.take() {
                Some(c) => {
                    effect.changed = c != sw.running;
                    sw.running = c;
                    Reply::default()
                }
                // Outside a transaction every change is in already: nothing to commit, and
                // nothing said. No capture shows it; dellemc.os10's `os10_config` ends every
                // change with `commit`, and real switches take it.
                None => Reply::default(),
            },
            // `discard`.
            _ => match self.candidate.take() {
                Some(_) => Reply::default(),
                None => Unconfirmed::NoTransaction.reply(),
            },
        }
    }

    /// `copy home://NAME running-configuration`: the file's lines typed in configuration mode,
    /// in a session of their own, merged into the running configuration as typed lines are.
    /// The first line the switch refuses ends it and is the copy's answer, the lines before
    /// it kept (UNCONFIRMED: no capture of a failed copy).
    fn merge(&mut self, sw: &mut Os10Switch, from: &str, effect: &mut Effect) -> Reply {
        let name = match files::url(from) {
            Some((files::Folder::Home, name)) if !self.merging => name,
            _ => return Reply::text(format!("{ILLEGAL}\n")),
        };
        let Some(file) = sw.home.get(name) else {
            return Unconfirmed::NoSuchFile.reply();
        };
        let text = String::from_utf8_lossy(&file.bytes).into_owned();
        let mut typing = Os10Session::configuring();
        typing.merging = true;
        let logins = BTreeMap::new();
        for line in text.lines() {
            let (reply, e) = typing.input(sw, line, None, &logins);
            effect.changed |= e.changed;
            effect.saved |= e.saved;
            if reply.output.starts_with("% ") {
                return reply;
            }
        }
        Unconfirmed::CopyDone.reply()
    }

    fn show(&self, sw: &Os10Switch, words: &[&str], world: Option<&World>) -> Reply {
        let config = self.candidate.as_ref().unwrap_or(&sw.running);
        if state::reads_network(words) {
            return match state::show(sw, words, world) {
                Some(text) => Reply::text(text),
                None => Unconfirmed::Unrecognized.reply(),
            };
        }
        if let ["file", "home", name] = words {
            return files::show_home(sw, name);
        }
        let out = match words {
            ["running-configuration"] => show::running(&sw.running),
            ["candidate-configuration"] => show::running(config),
            // napalm-dellos10's `get_snmp_information` reads it: the `snmp-server` lines of
            // the running configuration (UNCONFIRMED: no capture of the command).
            ["running-configuration", "snmp"] => show::running(&sw.running).map(|t| {
                t.lines()
                    .filter(|l| l.starts_with("snmp-server "))
                    .map(|l| format!("{l}\n"))
                    .collect()
            }),
            ["startup-configuration"] => match &sw.startup {
                Some(c) => show::running(c),
                None => Ok(String::new()),
            },
            ["running-configuration", "interface", rest @ ..] => {
                let name = rest.concat();
                match Iface::parse(&name) {
                    Ok(Some(i)) => match show::interface(&sw.running, &i) {
                        Ok(Some(text)) => Ok(text),
                        Ok(None) => return Unconfirmed::NoSuchInterface.reply(),
                        Err(e) => Err(e),
                    },
                    _ => return Reply::text(format!("{ILLEGAL}\n")),
                }
            }
            ["configuration"] => match &self.mode {
                Mode::Config(path) if !path.is_empty() => show::block(
                    config,
                    &path.iter().map(|p| p.1.clone()).collect::<Vec<_>>(),
                ),
                _ => show::running(config),
            },
            ["version"] => Ok(show::version(sw)),
            ["system"] => Ok(system::show_system(sw)),
            // A model without port groups does not know the command (UNCONFIRMED).
            ["port-group"] if sw.model.port_groups().next().is_some() => {
                Ok(show::port_groups(config, sw.model))
            }
            _ => return Unconfirmed::Unrecognized.reply(),
        };
        match out {
            Ok(text) => Reply::text(text),
            Err(e) => Reply::text(format!("% Error: {e}\n")),
        }
    }

    /// A line in configuration mode: read in the mode it is typed in, else (as OS10 does,
    /// captured) as a top-level command, which leaves the sub-mode for its own.
    fn configure(&mut self, sw: &mut Os10Switch, line: &str, effect: &mut Effect) -> Reply {
        let Mode::Config(path) = &self.mode else {
            return Reply::default();
        };
        let path = path.clone();
        let (no, rest) = match line.strip_prefix("no ") {
            Some(r) => (true, r.trim()),
            None => (false, line),
        };
        // The innermost mode first, then the top level.
        let depths: Vec<usize> = if path.is_empty() {
            vec![0]
        } else {
            vec![path.len(), 0]
        };
        let mut refused = Refused::Unknown;
        for d in depths {
            let here = &path[..d];
            let ctx = here.last().map(|p| &p.0);
            // `no shutdown`, `no switchport`: settings of their own.
            let read = edit::read(ctx, line).map(|l| (l, false)).or_else(|e| {
                if no {
                    edit::read(ctx, rest).map(|l| (l, true))
                } else {
                    Err(e)
                }
            });
            match read {
                Ok((l, negated)) => {
                    return self.change(sw, here.to_vec(), l, negated, effect);
                }
                Err(Refused::Unknown) => continue,
                Err(e) => {
                    refused = e;
                    break;
                }
            }
        }
        if matches!(refused, Refused::Unknown) || (no && refused == Refused::Incomplete) {
            // A negation without its value (`no switchport access vlan`, `no mtu`) or the bare
            // `switchport`: the plan's negation table, applied as `os10::script` does.
            return self.negate(sw, &path, line, effect);
        }
        refusal(&refused)
    }

    /// Applies `line`, typed in the blocks `path`, with [`os10::script::apply`]: the modes
    /// entered by their headers, the line, then left. The mode stays where it is.
    fn negate(
        &mut self,
        sw: &mut Os10Switch,
        path: &[(Ctx, String)],
        line: &str,
        effect: &mut Effect,
    ) -> Reply {
        let mut text: String = path.iter().map(|(_, h)| format!("{h}\n")).collect();
        text.push_str(line);
        text.push('\n');
        text.push_str(&"exit\n".repeat(path.len()));
        let config = self.candidate.as_ref().unwrap_or(&sw.running);
        let mut new = config.clone();
        if os10::script::apply(&mut new, &text).is_err() {
            return Unconfirmed::Unrecognized.reply();
        }
        match &mut self.candidate {
            Some(c) => *c = new,
            None => {
                effect.changed = new != sw.running;
                sw.running = new;
            }
        }
        Reply::default()
    }

    fn change(
        &mut self,
        sw: &mut Os10Switch,
        here: Vec<(Ctx, String)>,
        line: Line,
        negated: bool,
        effect: &mut Effect,
    ) -> Reply {
        let ctxs: Vec<Ctx> = here.iter().map(|p| p.0.clone()).collect();
        let headers: Vec<String> = here.iter().map(|p| p.1.clone()).collect();
        let change = match (&line, negated) {
            (Line::Open(_, h), false) => Change::Open(h),
            (Line::Open(_, h), true) => Change::Remove(h),
            (Line::Set(l), false) => Change::Set(l),
            (Line::Set(l), true) => Change::Unset(l),
        };
        let config = self.candidate.as_ref().unwrap_or(&sw.running);
        // An Ethernet interface the switch does not have (a port its model lacks, a subport
        // of a port its port group's mode does not break out): refused as a wrong value, as
        // the captured CSM session refuses one (its text; which text OS10 prints for a port
        // is UNCONFIRMED).
        if let Line::Open(Ctx::Interface(Iface::Ethernet(e)), _) = &line
            && !os10::groups::interfaces(config, sw.model)
                .iter()
                .any(|(x, _)| x == e)
        {
            return Reply::text(format!("{ILLEGAL}\n"));
        }
        let new = match edit::apply(config, &ctxs, &headers, change) {
            Ok(c) => c,
            Err(e) => return refusal(&e),
        };
        let new = match regroup(sw.model, config, new) {
            Some(c) => c,
            None => return Reply::text(format!("{ILLEGAL}\n")),
        };
        let mut path = here;
        if let (Line::Open(ctx, h), false) = (line, negated) {
            path.push((ctx, h));
        }
        self.mode = Mode::Config(path);
        match &mut self.candidate {
            Some(c) => *c = new,
            None => {
                effect.changed = new != sw.running;
                sw.running = new;
            }
        }
        Reply::default()
    }
}

/// The running configuration saved as startup (`write memory`, `copy running-configuration
/// startup-configuration`).
fn save(sw: &mut Os10Switch, effect: &mut Effect) {
    sw.startup = Some(sw.running.clone());
    sw.startup_at = SystemTime::now();
    effect.saved = true;
}

/// A change of port groups as the switch takes it ([`os10::groups::regroup`]); a group the
/// model lacks or a mode it does not take is `None`: refused as a wrong value, `% Error:
/// Illegal parameter.`
fn regroup(model: &os10::models::Model, old: &Config, mut new: Config) -> Option<Config> {
    if new.port_groups != old.port_groups {
        os10::groups::regroup(model, &old.port_groups, &mut new).ok()?;
    }
    Some(new)
}

/// `show WORDS… | display-xml` (or after `do`): the command's document ([`xml`]), or the
/// refusal of a command the lab has none for.
fn xml_reply(sw: &Os10Switch, words: &[&str], world: Option<&World>) -> Reply {
    let doc = match words {
        ["show", rest @ ..] | ["do", "show", rest @ ..] => xml::show(sw, rest, world),
        _ => None,
    };
    doc.map_or_else(|| Unconfirmed::XmlUnknown.reply(), Reply::text)
}

fn refusal(r: &Refused) -> Reply {
    match r {
        Refused::Unknown => Unconfirmed::Unrecognized.reply(),
        Refused::Incomplete => Unconfirmed::Incomplete.reply(),
        Refused::Bad(_) => Reply::text(format!("{ILLEGAL}\n")),
        Refused::Rejected(_) => Unconfirmed::Rejected.reply(),
    }
}

/// The commands `?` lists at the `#` prompt, with the lab's one-line help (OS10's own `?`
/// layout is not captured: UNCONFIRMED).
const HELP: &[(&str, &str)] = &[
    ("commit", "Commit the candidate configuration"),
    ("configure", "Enter configuration mode"),
    ("copy", "Copy from one file to another"),
    ("delete", "Delete a file"),
    ("dir", "Show the files of a folder"),
    ("discard", "Discard the candidate configuration"),
    ("end", "Return to the EXEC mode"),
    ("exit", "Exit from the CLI"),
    ("show", "Show running system information"),
    ("start", "Start the transaction-based configuration"),
    ("terminal", "Set terminal parameters"),
    (
        "write",
        "Copy the running configuration to the startup configuration",
    ),
];

/// What `?` prints after `typed`: the commands that begin with its last word.
pub fn help(typed: &str) -> String {
    let word = if typed.ends_with(' ') {
        ""
    } else {
        typed.rsplit(' ').next().unwrap_or("")
    };
    HELP.iter()
        .filter(|(c, _)| c.starts_with(word))
        .map(|(c, h)| format!("  {c:<22}{h}\n"))
        .collect()
}

/// The login banner: the console capture's (CSM, `sw-leaf01`, 10.5.x), without the Debian
/// lines a login shell adds.
pub fn banner() -> &'static str {
    "\n-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-\n\
     -*         Dell EMC  Network Operating System (OS10)           *-\n\
     -*                                                             *-\n\
     -* Copyright (c) 1999-2020 by Dell Inc. All Rights Reserved.   *-\n\
     -*                                                             *-\n\
     -*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-\n\n\
     This product is protected by U.S. and international copyright and\n\
     intellectual property laws. Dell EMC and the Dell EMC logo are\n\
     trademarks of Dell Inc. in the United States and/or other\n\
     jurisdictions. All other marks and names mentioned herein may be\n\
     trademarks of their respective companies.\n\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &mut Os10Session, sw: &mut Os10Switch, line: &str) -> String {
        s.input(sw, line, None, &BTreeMap::new()).0.output
    }

    #[test]
    fn modes_and_prompts() {
        let mut sw = Os10Switch::factory("OS10", None);
        let mut s = Os10Session::default();
        assert_eq!(s.prompt(&sw), "OS10# ");
        let steps = [
            ("configure terminal", "OS10(config)# "),
            ("interface ethernet1/1/1", "OS10(conf-if-eth1/1/1)# "),
            ("interface port-channel 10", "OS10(conf-if-po-10)# "),
            ("router bgp 65001", "OS10(config-router-bgp-65001)# "),
            ("policy-map type queuing Q", "OS10(config-pmap-queuing)# "),
            ("exit", "OS10(config)# "),
            ("end", "OS10# "),
        ];
        for (line, prompt) in steps {
            assert_eq!(run(&mut s, &mut sw, line), "", "{line}");
            assert_eq!(s.prompt(&sw), prompt, "{line}");
        }
        assert_eq!(
            run(&mut s, &mut sw, "frobnicate"),
            "% Error: Unrecognized command.\n"
        );
    }

    #[test]
    fn a_port_the_switch_lacks_is_refused_and_nothing_kept() {
        let mut sw = Os10Switch::factory("leaf01", None);
        let mut s = Os10Session::default();
        run(&mut s, &mut sw, "configure terminal");
        let before = sw.running.clone();
        for l in [
            "interface ethernet1/1/99",
            "interface ethernet9/9/9",
            "interface ethernet1/1/2:3",
        ] {
            assert_eq!(
                run(&mut s, &mut sw, l),
                "% Error: Illegal parameter.\n",
                "{l}"
            );
        }
        assert_eq!(sw.running, before);
        assert_eq!(run(&mut s, &mut sw, "interface ethernet1/1/2"), "");
    }

    #[test]
    fn a_transaction_applies_at_commit_and_not_after_discard() {
        let mut sw = Os10Switch::factory("leaf01", None);
        let mut s = Os10Session::default();
        let before = sw.running.clone();
        let block = [
            "start transaction",
            "configure terminal",
            "interface ethernet1/1/2",
            "mtu 9216",
            "end",
        ];
        for end in ["discard", "commit"] {
            for l in block {
                assert_eq!(run(&mut s, &mut sw, l), "", "{l}");
            }
            assert_eq!(sw.running, before, "held until commit");
            assert_eq!(run(&mut s, &mut sw, end), "");
        }
        assert_ne!(sw.running, before, "applied by commit");
        // Outside a transaction, `commit` has nothing to do and says nothing.
        assert_eq!(run(&mut s, &mut sw, "commit"), "");
        assert_eq!(
            run(&mut s, &mut sw, "discard"),
            "% Error: No transaction in progress.\n"
        );
        // A release before transaction mode does not know the command.
        let mut old = Os10Switch::factory("leaf01", None).released("10.3.2.1");
        assert_eq!(
            run(&mut Os10Session::default(), &mut old, "start transaction"),
            "% Error: Unrecognized command.\n"
        );
        assert!(show::version(&old).contains("OS Version: 10.3.2.1"));
        let e = Iface::Ethernet(os10::Eth::new(2));
        assert_eq!(sw.running.interfaces[&e].mtu, Some(9216));
    }
}
