//! ToyOS's configuration: the switch's name and each port's MTU, a line each, in port order:
//!
//! ```text
//! hostname leaf01
//! interface e1 mtu 9216
//! ```
//!
//! Read, written, planned (one line per change) and applied a line at a time, as its lab
//! switch applies what a session types.

use std::collections::BTreeMap;

use fabric::config_error::{ParseError, Problem};

/// A ToyOS switch's configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Config {
    pub hostname: Option<String>,
    /// Each port's MTU, by front-panel port number.
    pub mtu: BTreeMap<u16, u16>,
}

/// A port as ToyOS names it: `e5`.
pub fn port_name(port: u16) -> String {
    format!("e{port}")
}

/// The front-panel port a ToyOS port name names.
fn port_of(word: &str) -> Option<u16> {
    word.strip_prefix('e')?.parse().ok().filter(|p| *p > 0)
}

/// One command of ToyOS's configuration mode, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Hostname(String),
    Mtu(u16, u16),
    NoMtu(u16),
}

impl Command {
    /// A line as typed, read; what was expected where it does not read.
    pub fn read(line: &str) -> Result<Command, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["hostname", name] => Ok(Command::Hostname(name.to_string())),
            ["interface", port, "mtu", mtu] => {
                let port = port_of(port).ok_or("a port (e1, e2, …) after `interface`")?;
                let mtu = mtu.parse().map_err(|_| "an MTU (a number) after `mtu`")?;
                Ok(Command::Mtu(port, mtu))
            }
            ["no", "interface", port, "mtu"] => port_of(port)
                .map(Command::NoMtu)
                .ok_or_else(|| "a port (e1, e2, …) after `interface`".to_string()),
            _ => Err("`hostname NAME` or `[no] interface eN mtu [MTU]`".to_string()),
        }
    }

    /// The line as typed.
    pub fn line(&self) -> String {
        match self {
            Command::Hostname(name) => format!("hostname {name}"),
            Command::Mtu(port, mtu) => format!("interface {} mtu {mtu}", port_name(*port)),
            Command::NoMtu(port) => format!("no interface {} mtu", port_name(*port)),
        }
    }
}

impl Config {
    /// What `show config` prints.
    pub fn text(&self) -> String {
        let name = self.hostname.iter().map(|h| format!("hostname {h}\n"));
        let ports = (self.mtu.iter()).map(|(p, m)| format!("{}\n", Command::Mtu(*p, *m).line()));
        name.chain(ports).collect()
    }

    /// `show config`'s text read back; the first line that does not read is the error.
    pub fn parse(text: &str) -> Result<Config, ParseError> {
        let mut config = Config::default();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let read = Command::read(line).map_err(|expected| ParseError {
                problem: Problem::Malformed,
                line: n + 1,
                column: 1,
                text: line.to_string(),
                expected,
            })?;
            config.apply(&read);
        }
        Ok(config)
    }

    /// The configuration after one command.
    pub fn apply(&mut self, command: &Command) {
        match command {
            Command::Hostname(name) => self.hostname = Some(name.clone()),
            Command::Mtu(port, mtu) => drop(self.mtu.insert(*port, *mtu)),
            Command::NoMtu(port) => drop(self.mtu.remove(port)),
        }
    }

    /// The commands that take this configuration to `to`, in port order.
    pub fn plan(&self, to: &Config) -> Vec<Command> {
        let name = (to.hostname != self.hostname)
            .then(|| to.hostname.clone().map(Command::Hostname))
            .flatten();
        let set = (to.mtu.iter())
            .filter(|(p, m)| self.mtu.get(p) != Some(m))
            .map(|(p, m)| Command::Mtu(*p, *m));
        let unset = (self.mtu.keys())
            .filter(|p| !to.mtu.contains_key(p))
            .map(|p| Command::NoMtu(*p));
        name.into_iter().chain(set).chain(unset).collect()
    }
}
