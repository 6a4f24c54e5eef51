//! ToyOS's lab switch: a prompt, `configure` … `end`, `show config`, `show saved`, `save`,
//! `show users`, `dir`, `copy config NAME`, `delete NAME`; its state folder keeps
//! `saved.cfg` and `running.cfg`.

use std::collections::BTreeMap;
use std::path::Path;

use fabric::fabric::{Os, Switch};
use fabric::lab::network::{Node, World};
use fabric::lab::{Login, Reply};
use fabric::targets::{self, Lab, LabEffect, LabSession, LabStart, LabSwitch, SwitchOs};
use fabric::types::Port;

use super::config::{Command, Config, port_name};
use super::os::TOY;

/// ToyOS's lab.
pub struct ToyLab;

pub static LAB: ToyLab = ToyLab;

const SAVED: &str = "saved.cfg";
const RUNNING: &str = "running.cfg";

/// A ToyOS lab switch: its running and saved configurations and its named copies.
#[derive(Clone, Debug)]
pub struct ToySwitch {
    pub running: Config,
    pub saved: Config,
    pub copies: BTreeMap<String, Config>,
}

impl ToySwitch {
    fn booted(config: Config) -> ToySwitch {
        ToySwitch {
            running: config.clone(),
            saved: config,
            copies: BTreeMap::new(),
        }
    }
}

fn factory(hostname: &str) -> Config {
    Config {
        hostname: Some(hostname.to_string()),
        ..Config::default()
    }
}

fn read(path: &Path) -> Result<Option<Config>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Config::parse(&text)
            .map(Some)
            .map_err(|e| format!("{}:{e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The network's reading of a ToyOS switch: its name (it runs nothing the network models).
fn node(config: &Config) -> Node {
    let mut onyx = fabric::onyx::Config::empty();
    onyx.hostname = config.hostname.clone();
    Node {
        config: onyx,
        os: Os::new(&TOY),
        pair: None,
        port_peers: Default::default(),
    }
}

impl Lab for ToyLab {
    fn switch(
        &self,
        sw: &Switch,
        config: Option<&dyn targets::Config>,
    ) -> Result<fabric::lab::Switch, String> {
        let config = match config {
            Some(c) => targets::typed::<Config>(c)?.clone(),
            None => factory(sw.hostname.as_str()),
        };
        Ok(fabric::lab::Switch::of(Box::new(ToySwitch::booted(config))))
    }

    fn factory(&self, hostname: &str) -> fabric::lab::Switch {
        fabric::lab::Switch::of(Box::new(ToySwitch::booted(factory(hostname))))
    }

    fn node_in(&self, dir: &Path) -> Option<Node> {
        let running = read(&dir.join(RUNNING)).ok().flatten();
        let config = running.or_else(|| read(&dir.join(SAVED)).ok().flatten())?;
        Some(node(&config))
    }

    fn watched(&self) -> &'static [&'static str] {
        &[SAVED, RUNNING]
    }

    fn banner(&self, _: u64) -> String {
        "ToyOS\n".to_string()
    }

    fn lldp_port_id(&self, p: Port) -> String {
        port_name(p.port)
    }
}

impl LabSwitch for ToySwitch {
    fn target(&self) -> &'static dyn SwitchOs {
        &TOY
    }

    fn hostname(&self) -> &str {
        self.running.hostname.as_deref().unwrap_or("toy")
    }

    fn unsaved(&self) -> bool {
        self.running != self.saved
    }

    fn node(&self) -> Node {
        node(&self.running)
    }

    fn session(&self, start: LabStart) -> Box<dyn LabSession> {
        Box::new(ToySession {
            id: start.id,
            configuring: start.configuring,
        })
    }

    fn open(&mut self, dir: &Path, prefer_fresh: bool, keep_running: bool) -> Result<(), String> {
        if prefer_fresh {
            return Ok(());
        }
        if let Some(saved) = read(&dir.join(SAVED))? {
            *self = ToySwitch::booted(saved);
        }
        if keep_running && let Some(running) = read(&dir.join(RUNNING))? {
            self.running = running;
        }
        Ok(())
    }

    fn persist(&mut self, dir: &Path, _: bool, saved: bool, running: bool) -> Result<(), String> {
        let write = |name: &str, c: &Config| {
            std::fs::write(dir.join(name), c.text()).map_err(|e| format!("{name}: {e}"))
        };
        if saved {
            write(SAVED, &self.saved)?;
        }
        if running {
            write(RUNNING, &self.running)?;
        }
        Ok(())
    }
}

/// A session on a ToyOS lab switch.
#[derive(Clone, Debug)]
struct ToySession {
    id: u64,
    configuring: bool,
}

fn text(output: String) -> Reply {
    Reply {
        output,
        close: false,
    }
}

fn own(sw: &mut dyn LabSwitch) -> &mut ToySwitch {
    sw.as_any_mut()
        .downcast_mut::<ToySwitch>()
        .expect("a ToyOS session runs on a ToyOS switch")
}

impl ToySession {
    /// `show users`: a row per login, this session's marked `*`.
    fn users(&self, logins: &BTreeMap<u64, Login>) -> String {
        let row = |(id, l): (&u64, &Login)| {
            let me = if *id == self.id { "* " } else { "" };
            format!("{me}{} ssh{id} {}\n", l.user, l.host)
        };
        logins.iter().map(row).collect()
    }

    /// A line at the `#` prompt.
    fn exec(
        &mut self,
        sw: &mut ToySwitch,
        line: &str,
        logins: &BTreeMap<u64, Login>,
    ) -> (Reply, LabEffect) {
        let none = LabEffect::default();
        let words: Vec<&str> = line.split_whitespace().collect();
        let output = match words.as_slice() {
            [] | ["terminal", "length", "0"] => String::new(),
            ["show", "config"] => sw.running.text(),
            ["show", "saved"] => sw.saved.text(),
            ["show", "users"] => self.users(logins),
            ["dir"] => sw.copies.keys().map(|n| format!("{n}\n")).collect(),
            ["copy", "config", name] => {
                sw.copies.insert(name.to_string(), sw.running.clone());
                String::new()
            }
            ["delete", name] => match sw.copies.remove(*name) {
                Some(_) => String::new(),
                None => format!("% No such file: {name}\n"),
            },
            ["configure"] => {
                self.configuring = true;
                String::new()
            }
            ["save"] => {
                sw.saved = sw.running.clone();
                let saved = LabEffect {
                    changed: false,
                    saved: true,
                };
                return (text(String::new()), saved);
            }
            ["exit"] => {
                return (
                    Reply {
                        output: String::new(),
                        close: true,
                    },
                    none,
                );
            }
            _ => format!("% Unknown command: {line}\n"),
        };
        (text(output), none)
    }

    /// A line in configuration mode.
    fn configure(&mut self, sw: &mut ToySwitch, line: &str) -> (Reply, LabEffect) {
        if matches!(line.trim(), "end" | "exit") {
            self.configuring = false;
            return (text(String::new()), LabEffect::default());
        }
        match Command::read(line) {
            Ok(c) => {
                sw.running.apply(&c);
                (
                    text(String::new()),
                    LabEffect {
                        changed: true,
                        saved: false,
                    },
                )
            }
            Err(expected) => (
                text(format!("% Expected {expected}\n")),
                LabEffect::default(),
            ),
        }
    }
}

impl LabSession for ToySession {
    fn prompt(&self, sw: &dyn LabSwitch) -> String {
        let mode = if self.configuring { "(config)" } else { "" };
        format!("{}{mode}# ", sw.hostname())
    }

    fn paging_now(&self) -> bool {
        false
    }

    fn key(&mut self, _: u8) -> Reply {
        Reply::default()
    }

    fn set_paging(&mut self, _: bool) {}

    fn reads_network(&self, _: &str) -> bool {
        false
    }

    fn input(
        &mut self,
        sw: &mut dyn LabSwitch,
        line: &str,
        _: Option<&World>,
        logins: &BTreeMap<u64, Login>,
    ) -> (Reply, LabEffect) {
        let sw = own(sw);
        match self.configuring {
            true => self.configure(sw, line),
            false => self.exec(sw, line, logins),
        }
    }

    fn help(&self, _: &dyn LabSwitch, _: &str) -> String {
        String::new()
    }
}
