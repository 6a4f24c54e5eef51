//! A lab switch and a session on it, whatever its OS: the OS's own state and sessions behind
//! [`crate::targets::LabSwitch`] and [`crate::targets::LabSession`] (each OS's in its folder),
//! and what every switch has beside them: counts of its changes and saves, the sessions logged
//! in.

use std::collections::BTreeMap;
use std::time::Instant;

use super::network::{Node, World};
use crate::targets::{LabSession, LabStart, LabSwitch};

/// A simulated switch: its OS's own state, and what the lab keeps of every switch.
#[derive(Clone, Debug)]
pub struct Switch {
    /// The switch's state in its OS's terms.
    pub own: Box<dyn LabSwitch>,
    /// Counts the lines that changed the running configuration and the saves, so a server can
    /// tell what to persist.
    pub revision: u64,
    pub saves: u64,
    /// The sessions logged in now, by session number.
    pub logins: BTreeMap<u64, Login>,
}

/// A CLI session logged in on the switch (`show users`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Login {
    pub user: String,
    /// Where the session comes from: the client's address.
    pub host: String,
    /// When the session last sent a command.
    pub active: Instant,
    /// When it logged in.
    pub since: std::time::SystemTime,
}

/// What the switch prints for one line typed at its prompt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The output, each line ending in `\n`; empty for most configuration commands.
    pub output: String,
    /// The session ends (`exit` from the first level).
    pub close: bool,
}

impl Reply {
    pub(crate) fn text(output: String) -> Reply {
        Reply {
            output,
            close: false,
        }
    }
}

/// What Tab does to a line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// Text to insert at the cursor (the rest of the one keyword, and a space).
    pub insert: String,
    /// The keywords to list when several match, one per line (with their help).
    pub list: Option<String>,
}

impl Switch {
    /// A switch in the state `own` (its OS's, e.g. [`crate::targets::Lab::switch`]).
    pub fn of(own: Box<dyn LabSwitch>) -> Switch {
        Switch {
            own,
            revision: 0,
            saves: 0,
            logins: BTreeMap::new(),
        }
    }

    /// The switch's OS.
    pub fn os(&self) -> crate::fabric::Os {
        self.own.target().os()
    }

    /// The switch's own state as its OS's type `T`, when it is one.
    pub fn own<T: LabSwitch>(&self) -> Option<&T> {
        self.own.as_any().downcast_ref()
    }

    /// The switch's own state as its OS's type `T`, to change, when it is one.
    pub fn own_mut<T: LabSwitch>(&mut self) -> Option<&mut T> {
        self.own.as_any_mut().downcast_mut()
    }

    /// The switch as the network reads it.
    pub fn node(&self) -> Node {
        self.own.node()
    }

    pub fn hostname(&self) -> &str {
        self.own.hostname()
    }

    /// Whether the running configuration differs from the one it boots from.
    pub fn unsaved(&self) -> bool {
        self.own.unsaved()
    }

    /// A file put in the login's home folder over SCP; `Err` says why the switch does not
    /// take it.
    pub fn put_home(&mut self, name: &str, bytes: Vec<u8>) -> Result<(), String> {
        self.own.put_home(name, bytes)
    }
}

/// One CLI session on a switch: its OS's session, made at its first use on the switch.
#[derive(Clone, Debug)]
pub struct Session {
    /// The session's number on its switch (its `show users` line); 0 when not logged in.
    pub id: u64,
    /// The password `enable` asks for, when the switch has one (a fault sets it).
    pub enable_password: Option<String>,
    paging: bool,
    configuring: bool,
    own: Option<Box<dyn LabSession>>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A new login: at the first level, paging on.
    pub fn new() -> Session {
        Session {
            id: 0,
            enable_password: None,
            paging: true,
            configuring: false,
            own: None,
        }
    }

    /// A session already in configuration mode with paging off, as a script would leave it.
    pub fn configuring() -> Session {
        Session {
            paging: false,
            configuring: true,
            ..Session::new()
        }
    }

    fn start(&self) -> LabStart {
        LabStart {
            id: self.id,
            paging: self.paging,
            configuring: self.configuring,
        }
    }

    /// `f` of the OS's session on `sw` (a new one when it has typed nothing yet).
    fn with_own<R>(&self, sw: &Switch, f: impl FnOnce(&dyn LabSession) -> R) -> R {
        match &self.own {
            Some(s) => f(s.as_ref()),
            None => f(sw.own.session(self.start()).as_ref()),
        }
    }

    /// The OS's session on `sw`, made now when it has typed nothing yet.
    fn own_mut(&mut self, sw: &Switch) -> &mut dyn LabSession {
        let start = self.start();
        let own = self.own.get_or_insert_with(|| sw.own.session(start));
        own.set_enable_password(self.enable_password.clone());
        own.as_mut()
    }

    /// Turns paging on or off (off for an exec request, which has no terminal).
    pub fn set_paging(&mut self, on: bool) {
        self.paging = on;
        if let Some(o) = &mut self.own {
            o.set_paging(on);
        }
    }

    /// Whether an output is being paged: the next keystroke goes to the pager.
    pub fn paging_now(&self) -> bool {
        self.own.as_ref().is_some_and(|o| o.paging_now())
    }

    /// Whether the next line answers `enable`'s password prompt (not echoed, not logged).
    pub fn asking_password(&self) -> bool {
        self.own.as_ref().is_some_and(|o| o.asking_password())
    }

    /// The prompt the session shows now on `sw`.
    pub fn prompt(&self, sw: &Switch) -> String {
        self.with_own(sw, |s| s.prompt(sw.own.as_ref()))
    }

    /// One keystroke while paging.
    pub fn key(&mut self, key: u8) -> Reply {
        self.own.as_mut().map(|o| o.key(key)).unwrap_or_default()
    }

    /// Whether `line` reads the network around the switch (the other switches are read
    /// before it runs).
    pub fn reads_network(&self, sw: &Switch, line: &str) -> bool {
        self.with_own(sw, |s| s.reads_network(line))
    }

    /// What `?` prints after `typed` (the line up to the cursor) on `sw`.
    pub fn help(&self, sw: &Switch, typed: &str) -> String {
        self.with_own(sw, |s| s.help(sw.own.as_ref(), typed))
    }

    /// What Tab does after `typed` (the line up to the cursor) on `sw`.
    pub fn complete(&self, sw: &Switch, typed: &str) -> Completion {
        self.with_own(sw, |s| s.complete(typed))
    }

    /// Reads one line typed at the prompt, on a switch alone (no cables).
    pub fn input(&mut self, sw: &mut Switch, line: &str) -> Reply {
        self.input_in(sw, line, None)
    }

    /// Reads one line typed at the prompt of a switch cabled into `world`.
    pub fn input_in(&mut self, sw: &mut Switch, line: &str, world: Option<&World>) -> Reply {
        let own = self.own_mut(sw);
        let (reply, effect) = own.input(sw.own.as_mut(), line, world, &sw.logins);
        sw.revision += u64::from(effect.changed);
        sw.saves += u64::from(effect.saved);
        reply
    }
}
