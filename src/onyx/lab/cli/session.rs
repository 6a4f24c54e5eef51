//! A session's loop: a line typed at the prompt read (a password, the pager, a banner's
//! continued text, `?`, filters), its words run at the session's level, its output paged;
//! the prompt of each level; and the commands that change the level.

use super::configure::{delete, save, write_to};
use super::keywords::{expand, open_quote};
use super::{Mode, Reply, Session, Switch, Unconfirmed};
use crate::lab::network::World;
use crate::onyx::lab::cli::Errors as _;
use crate::onyx::{Config, Protocol};

impl Session {
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

    /// What `?` prints after `typed` (the line up to the cursor) on `sw`.
    pub fn help(&self, sw: &Switch, typed: &str) -> String {
        crate::onyx::lab::help::help(self, sw, typed)
    }

    /// What Tab does after `typed` (the line up to the cursor).
    pub fn complete(&self, typed: &str) -> crate::lab::Completion {
        crate::onyx::lab::help::complete(self, typed)
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
        let line = crate::onyx::lab::pipe::split(line).map_or(line, |(command, _)| command);
        let Ok(words) = expand(&self.mode, line) else {
            return false;
        };
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        match words[..] {
            ["show", ref rest @ ..] => crate::onyx::lab::show::reads_network(rest),
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
            return Reply::text(crate::onyx::lab::help::help(self, sw, typed));
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
        let (line, pipes) = match crate::onyx::lab::pipe::split(line) {
            Ok(split) => split,
            Err(reply) => return reply,
        };
        let words = match expand(&self.mode, line) {
            Ok(w) => w,
            Err(reply) => return reply,
        };
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let json = crate::onyx::lab::pipe::json(&pipes);
        // A configuration's text asked as JSON is its lines, filtered first (`show
        // running-config | include bfd | json-print`, captured).
        let as_lines = json && crate::onyx::lab::show::prints_lines(&words);
        let reply = self.run(sw, &words, world, json && !as_lines);
        let mut output = crate::onyx::lab::pipe::apply(reply.output, &pipes);
        if as_lines && !output.starts_with('%') {
            output = crate::onyx::lab::show::lines_json(&output);
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

    /// One line's words (keywords written out): a session command, `show`, a change of level,
    /// or configuration.
    fn run(&mut self, sw: &mut Switch, words: &[&str], world: Option<&World>, json: bool) -> Reply {
        let config = !matches!(self.mode, Mode::User | Mode::Enable);
        match words {
            ["exit"] => self.exit(),
            ["no", "cli", "session", "paging", "enable"] => {
                self.paging = false;
                Reply::default()
            }
            ["cli", "session", "paging", "enable"] => {
                self.paging = true;
                Reply::default()
            }
            ["terminal", "length", n] => self.terminal_length(n),
            ["show", rest @ ..] => self.show(sw, rest, world, json),
            ["enable"] if self.mode == Mode::User => self.enable(),
            ["disable"] if !config => self.enter(Mode::User),
            ["configure", "terminal"] if self.mode == Mode::Enable => self.enter(Mode::Config),
            // Typed in configuration mode or a sub-mode: back to `(config)`. No capture shows
            // it; Ansible's mellanox.onyx sends it there (its cliconf ends a change with one
            // `exit`, which leaves a sub-mode only, and the next change starts with
            // `configure terminal`), and real switches take that.
            ["configure", "terminal"] if config => self.enter(Mode::Config),
            ["configuration", "write"] | ["write", "memory"] if self.mode != Mode::User => {
                let name = sw.active.clone();
                save(sw, &name);
                Reply::default()
            }
            ["configuration", "write", "to", name, rest @ ..] if self.mode != Mode::User => {
                write_to(sw, name, rest)
            }
            ["configuration", "delete", name] if self.mode != Mode::User => delete(sw, name),
            ["traffic", "pool", name] if config => self.enter_pool(sw, name),
            ["mlag"] if config => self.enter_mlag(sw),
            _ if config => self.configure(sw, words),
            [first, ..] => Reply::unrecognized(first),
            [] => Reply::default(),
        }
    }

    /// `exit`: up one level; from the user or enable level, the session ends.
    fn exit(&mut self) -> Reply {
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

    /// `terminal length N`: a page's height.
    fn terminal_length(&mut self, n: &str) -> Reply {
        match n.parse::<usize>() {
            Ok(n) if n > 0 => {
                self.length = n;
                Reply::default()
            }
            _ => Reply::unrecognized(n),
        }
    }

    /// `show …`, at the session's level.
    fn show(&self, sw: &Switch, rest: &[&str], world: Option<&World>, json: bool) -> Reply {
        let level = match self.mode {
            Mode::User => crate::onyx::lab::show::Level::User,
            _ => crate::onyx::lab::show::Level::Enable,
        };
        let cx = crate::onyx::lab::show::Cx {
            sw,
            world,
            session: self.id,
            level,
        };
        crate::onyx::lab::show::run(&cx, rest, json)
    }

    /// `enable` from the user level: the enable level, or its password asked first.
    fn enable(&mut self) -> Reply {
        if self.enable_password.is_some() {
            self.asking = true;
        } else {
            self.mode = Mode::Enable;
        }
        Reply::default()
    }

    /// A command that only enters the level `mode`.
    fn enter(&mut self, mode: Mode) -> Reply {
        self.mode = mode;
        Reply::default()
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
