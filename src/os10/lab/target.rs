//! The lab's OS10 switch behind the switch-OS interface ([`crate::targets::Lab`]): the lab's
//! SSH server, network and state folders reach it through these and never name OS10.

use std::collections::BTreeMap;
use std::path::Path;

use super::{Effect, LAB_RELEASE, Os10Session, Os10Switch};
use crate::lab::network::{Node, World};
use crate::lab::{Login, Reply};
use crate::targets::{self, Lab, LabFiles, LabSession, LabStart, LabSwitch, SwitchOs};
use crate::types::Port;

/// OS10 in the lab.
pub struct Os10Lab;

pub static LAB: Os10Lab = Os10Lab;

/// A file in the login's home folder: its bounds ([`super::files`]).
static FILES: LabFiles = LabFiles {
    max: super::MAX_HOME_FILE,
    valid_name: super::valid_name,
};

impl Lab for Os10Lab {
    /// A switch of the fabric's model and release (`os10:`; the lab's when none).
    fn switch(
        &self,
        sw: &crate::fabric::Switch,
        config: Option<&dyn targets::Config>,
    ) -> Result<crate::lab::Switch, String> {
        let name = sw.model.name();
        let model = crate::os10::models::Model::named(name)
            .ok_or_else(|| format!("{}: `{name}` is not an OS10 model", sw.hostname))?;
        let release = sw.release_text.as_deref().unwrap_or(LAB_RELEASE);
        let s = match config {
            Some(c) => {
                let c = targets::typed::<crate::os10::Config>(c)?;
                Os10Switch::with_config(c.clone(), model)
            }
            None => Os10Switch::factory(sw.hostname.as_str(), Some(model)),
        };
        Ok(crate::lab::Switch::of(Box::new(s.released(release))))
    }

    fn factory(&self, hostname: &str) -> crate::lab::Switch {
        crate::lab::Switch::of(Box::new(Os10Switch::factory(hostname, None)))
    }

    fn node_in(&self, dir: &Path) -> Option<Node> {
        super::folder::running_in(dir).map(|c| super::net::node(&c))
    }

    fn watched(&self) -> &'static [&'static str] {
        &[crate::lab::device::RUNNING, super::folder::STARTUP_FILE]
    }

    fn banner(&self, _id: u64) -> String {
        super::banner().to_string()
    }

    /// `ethernet1/1/25`: the AzureStack TOR's `show lldp neighbors` shows its peer's so.
    fn lldp_port_id(&self, p: Port) -> String {
        crate::os10::Iface::Ethernet(crate::os10::eth_of(p)).to_string()
    }

    fn scp(&self) -> Option<&'static LabFiles> {
        Some(&FILES)
    }
}

impl From<Os10Switch> for crate::lab::Switch {
    fn from(sw: Os10Switch) -> Self {
        crate::lab::Switch::of(Box::new(sw))
    }
}

impl LabSwitch for Os10Switch {
    fn target(&self) -> &'static dyn SwitchOs {
        &crate::os10::target::OS10
    }

    fn hostname(&self) -> &str {
        Os10Switch::hostname(self)
    }

    fn unsaved(&self) -> bool {
        self.startup.as_ref() != Some(&self.running)
    }

    fn node(&self) -> Node {
        super::net::node(&self.running)
    }

    fn session(&self, start: LabStart) -> Box<dyn LabSession> {
        let mut s = match start.configuring {
            true => Os10Session::configuring(),
            false => Os10Session::default(),
        };
        s.set_paging(start.paging);
        Box::new(s)
    }

    fn open(&mut self, dir: &Path, prefer_fresh: bool, keep_running: bool) -> Result<(), String> {
        super::folder::open(self, dir, prefer_fresh, keep_running)
    }

    fn persist(
        &mut self,
        dir: &Path,
        _first: bool,
        saved: bool,
        running: bool,
    ) -> Result<(), String> {
        super::folder::persist(dir, self, saved, running)
    }

    fn put_home(&mut self, name: &str, bytes: Vec<u8>) -> Result<(), String> {
        super::put_home(self, name, bytes)
    }
}

impl LabSession for Os10Session {
    fn prompt(&self, sw: &dyn LabSwitch) -> String {
        match sw.as_any().downcast_ref::<Os10Switch>() {
            Some(sw) => Os10Session::prompt(self, sw),
            None => String::new(),
        }
    }

    fn paging_now(&self) -> bool {
        Os10Session::paging_now(self)
    }

    fn key(&mut self, key: u8) -> Reply {
        Os10Session::key(self, key)
    }

    fn set_paging(&mut self, on: bool) {
        Os10Session::set_paging(self, on);
    }

    fn reads_network(&self, line: &str) -> bool {
        super::reads_network(line)
    }

    fn input(
        &mut self,
        sw: &mut dyn LabSwitch,
        line: &str,
        world: Option<&World>,
        logins: &BTreeMap<u64, Login>,
    ) -> (Reply, Effect) {
        match sw.as_any_mut().downcast_mut::<Os10Switch>() {
            Some(sw) => Os10Session::input(self, sw, line, world, logins),
            None => (Reply::default(), Effect::default()),
        }
    }

    fn help(&self, _sw: &dyn LabSwitch, typed: &str) -> String {
        super::help(typed)
    }
}
