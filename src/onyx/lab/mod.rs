//! The lab's Onyx switch: its CLI ([`cli`]: modes, prompts, abbreviations, pager, saving,
//! configuration through the grammar), every `show` command (`show`), `?` and Tab (`help`),
//! output filters (`pipe`) and its state folder ([`folder`]); behind the switch-OS interface
//! ([`crate::targets::Lab`]), so that the lab's SSH server, network and state folders reach it
//! without naming Onyx.

use std::collections::BTreeMap;
use std::path::Path;

pub mod cli;
pub mod folder;
pub(crate) mod help;
pub(crate) mod pipe;
pub(crate) mod show;

use crate::lab::network::{Node, World};
use crate::lab::{Completion, Login, Reply};
use crate::targets::{self, Lab, LabEffect, LabSession, LabStart, LabSwitch, SwitchOs};
use crate::types::Port;
pub use cli::{LAB_RELEASE, Session, Switch, Unconfirmed};

/// Onyx in the lab.
pub struct OnyxLab;

pub static LAB: OnyxLab = OnyxLab;

impl Lab for OnyxLab {
    /// A switch of the fabric's model and release (unknown: older than 3.9) and the ID of its
    /// self-signed certificate; from a backup, of the lab's release when the fabric names
    /// none.
    fn switch(
        &self,
        sw: &crate::fabric::Switch,
        config: Option<&dyn targets::Config>,
    ) -> Result<crate::lab::Switch, String> {
        let model = crate::types::Model::find(sw.model.name()).ok();
        let mut s = match config {
            Some(c) => {
                let mut s = Switch::with_config(targets::typed::<super::Config>(c)?.clone());
                s.release = sw.release.unwrap_or(LAB_RELEASE);
                s
            }
            None => Switch::factory_as(sw.hostname.as_str(), sw.release, sw.certificate.as_deref()),
        };
        s.model = model;
        Ok(crate::lab::Switch::of(Box::new(s)))
    }

    fn factory(&self, hostname: &str) -> crate::lab::Switch {
        crate::lab::Switch::of(Box::new(Switch::factory(hostname)))
    }

    fn node_in(&self, dir: &Path) -> Option<Node> {
        folder::running_in(dir).map(|config| Node {
            config,
            os: super::target::ONYX.os(),
            pair: None,
            port_peers: Default::default(),
        })
    }

    fn watched(&self) -> &'static [&'static str] {
        &[crate::lab::device::RUNNING, "active"]
    }

    fn banner(&self, id: u64) -> String {
        format!(
            "Number of total successful connections since last 1 days: {id}\n\nNVIDIA Switch\n\n"
        )
    }

    fn lldp_port_id(&self, p: Port) -> String {
        Unconfirmed::LldpPortId.text().replace("{}", &p.to_string())
    }
}

impl From<Switch> for crate::lab::Switch {
    fn from(sw: Switch) -> Self {
        crate::lab::Switch::of(Box::new(sw))
    }
}

impl LabSwitch for Switch {
    fn target(&self) -> &'static dyn SwitchOs {
        &super::target::ONYX
    }

    fn hostname(&self) -> &str {
        Switch::hostname(self)
    }

    fn unsaved(&self) -> bool {
        Switch::unsaved(self)
    }

    fn node(&self) -> Node {
        Switch::node(self)
    }

    fn session(&self, start: LabStart) -> Box<dyn LabSession> {
        let mut s = match start.configuring {
            true => Session::configuring(),
            false => Session::new(),
        };
        s.id = start.id;
        s.set_paging(start.paging);
        Box::new(s)
    }

    fn open(&mut self, dir: &Path, prefer_fresh: bool, keep_running: bool) -> Result<(), String> {
        folder::open(self, dir, prefer_fresh, keep_running)
    }

    fn persist(
        &mut self,
        dir: &Path,
        first: bool,
        saved: bool,
        running: bool,
    ) -> Result<(), String> {
        folder::persist(self, dir, first, saved, running)
    }
}

impl LabSession for Session {
    fn prompt(&self, sw: &dyn LabSwitch) -> String {
        match sw.as_any().downcast_ref::<Switch>() {
            Some(sw) => Session::prompt(self, sw),
            None => String::new(),
        }
    }

    fn paging_now(&self) -> bool {
        Session::paging_now(self)
    }

    fn key(&mut self, key: u8) -> Reply {
        Session::key(self, key)
    }

    fn set_paging(&mut self, on: bool) {
        Session::set_paging(self, on);
    }

    fn reads_network(&self, line: &str) -> bool {
        Session::reads_network(self, line)
    }

    fn asking_password(&self) -> bool {
        Session::asking_password(self)
    }

    fn set_enable_password(&mut self, password: Option<String>) {
        self.enable_password = password;
    }

    /// The line run on the switch, which sees the sessions logged in (`show users`); what
    /// it did told by its counts of changes and saves.
    fn input(
        &mut self,
        sw: &mut dyn LabSwitch,
        line: &str,
        world: Option<&World>,
        logins: &BTreeMap<u64, Login>,
    ) -> (Reply, LabEffect) {
        let Some(sw) = sw.as_any_mut().downcast_mut::<Switch>() else {
            return (Reply::default(), LabEffect::default());
        };
        sw.logins.clone_from(logins);
        let (revision, saves) = (sw.revision, sw.saves);
        let reply = self.input_in(sw, line, world);
        let effect = LabEffect {
            changed: sw.revision != revision,
            saved: sw.saves != saves,
        };
        (reply, effect)
    }

    fn help(&self, sw: &dyn LabSwitch, typed: &str) -> String {
        match sw.as_any().downcast_ref::<Switch>() {
            Some(sw) => Session::help(self, sw, typed),
            None => String::new(),
        }
    }

    fn complete(&self, typed: &str) -> Completion {
        Session::complete(self, typed)
    }
}
