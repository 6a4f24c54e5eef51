//! The lab's Cumulus switch: NVUE's applied and saved trees, its numbered revisions, an
//! apply's confirm window, and the files of the login's home folder, behind
//! [`crate::targets::Lab`]. A session (`session`) types a Linux shell's and `nv`'s lines;
//! `folder` keeps the state in the lab's state folder; `net` states the applied tree in the
//! network's terms; `show` answers the `nv show` commands from the network; `rest` serves
//! NVUE's REST API (`/nvue_v1`) through the same revisions. What no capture confirms of what
//! it prints is in one table, [`Unconfirmed`] (the API's in `rest::UNCONFIRMED`).

mod counters;
mod folder;
mod net;
pub mod rest;
mod session;
pub mod show;
mod unconfirmed;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::tree::{self, Node, Tree};
use crate::lab::network::Node as NetNode;
use crate::targets::{self, Lab, LabSession, LabStart, LabSwitch, SwitchOs};
use crate::types::Port;

pub use session::CumulusSession;
pub use unconfirmed::Unconfirmed;

/// The release a lab switch runs when the fabric names none.
pub const LAB_RELEASE: &str = "5.14.0";

/// The model a factory switch reports when none is given.
pub const LAB_MODEL: &str = "SN5600";

/// An apply waiting to be confirmed: its revision, the tree the switch goes back to, and
/// when it goes back by itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirm {
    pub rev: u64,
    pub rollback: Tree,
    pub until: SystemTime,
}

/// One applied revision, as `nv config history` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub rev: u64,
    pub user: String,
    pub at: SystemTime,
    pub confirm: Option<u64>,
    /// `CLI` or `REST` (`nv config history`'s `method`).
    pub method: &'static str,
}

/// A Cumulus lab switch.
#[derive(Clone, Debug)]
pub struct CumulusSwitch {
    /// The applied tree (`nv config show`).
    pub applied: Tree,
    /// The saved tree (`/etc/nvue.d/startup.yaml`), what it boots from.
    pub startup: Tree,
    /// The apply waiting for confirmation, if any.
    pub confirm: Option<Confirm>,
    /// The next revision number.
    pub next_rev: u64,
    pub history: Vec<Applied>,
    /// The revisions made through the REST API, by number (kept in memory only).
    pub api_revs: BTreeMap<u64, rest::ApiRev>,
    /// The files of the login's home folder (snapshots).
    pub home: BTreeMap<String, String>,
    pub model: String,
    pub release: String,
    pub booted: SystemTime,
}

/// NVUE's default startup tree of a switch named `hostname` (the management port on DHCP in
/// the management VRF, the default users' roles, the API and SSH server), as the 5.9.2
/// capture's default objects show it.
pub fn factory_tree(hostname: &str) -> Tree {
    const DEFAULT: &str = "- set:
    interface:
      eth0:
        ip:
          address:
            dhcp: {}
          vrf: mgmt
        type: eth
    system:
      aaa:
        class:
          nvapply:
            action: allow
            command-path:
              /:
                permission: all
          nvshow:
            action: allow
            command-path:
              /:
                permission: ro
          sudo:
            action: allow
            command-path:
              /:
                permission: all
        role:
          nvue-admin:
            class:
              nvapply: {}
          nvue-monitor:
            class:
              nvshow: {}
          system-admin:
            class:
              nvapply: {}
              sudo: {}
        user:
          cumulus:
            full-name: cumulus,,,
            hashed-password: '*'
            role: system-admin
      api:
        state: enabled
      ssh-server:
        state: enabled
      timezone: Etc/UTC
";
    let mut t = tree::parse_yaml(DEFAULT).map(|d| d.set).unwrap_or_default();
    tree::set(
        &mut t,
        &["system", "hostname"],
        Node::Leaf(hostname.to_string().into()),
    );
    t
}

impl CumulusSwitch {
    /// A switch booted from `tree` (applied and saved alike).
    pub fn booted(tree: Tree) -> CumulusSwitch {
        CumulusSwitch {
            applied: tree.clone(),
            startup: tree,
            confirm: None,
            next_rev: 1,
            history: Vec::new(),
            api_revs: BTreeMap::new(),
            home: BTreeMap::new(),
            model: LAB_MODEL.to_string(),
            release: LAB_RELEASE.to_string(),
            booted: SystemTime::now(),
        }
    }

    pub fn factory(hostname: &str) -> CumulusSwitch {
        CumulusSwitch::booted(factory_tree(hostname))
    }

    /// The tree that stands now: the applied one, or the one before an apply whose confirm
    /// window has run out.
    pub fn standing(&self) -> &Tree {
        match &self.confirm {
            Some(c) if SystemTime::now() >= c.until => &c.rollback,
            _ => &self.applied,
        }
    }

    /// Goes back to the tree before an unconfirmed apply whose window has run out; whether
    /// it did.
    pub fn settle(&mut self) -> bool {
        match self.confirm.take() {
            Some(c) if SystemTime::now() >= c.until => {
                self.applied = c.rollback;
                true
            }
            keep => {
                self.confirm = keep;
                false
            }
        }
    }

    /// A new revision number.
    pub fn new_rev(&mut self) -> u64 {
        let rev = self.next_rev;
        self.next_rev += 1;
        rev
    }

    /// Applies revision `rev`'s `tree` for `user` through `method` (`CLI`, `REST`), with a
    /// confirm window or not; false when it changes nothing (nothing applied).
    pub fn apply_tree(
        &mut self,
        (rev, tree): (u64, Tree),
        window: Option<Duration>,
        user: &str,
        method: &'static str,
    ) -> bool {
        if tree == self.applied {
            return false;
        }
        let before = std::mem::replace(&mut self.applied, tree);
        self.confirm = match (window, self.confirm.take()) {
            (None, _) => None,
            (Some(w), kept) => Some(Confirm {
                rev,
                rollback: kept.map_or(before, |k| k.rollback),
                until: SystemTime::now() + w,
            }),
        };
        self.history.push(Applied {
            rev,
            user: user.to_string(),
            at: SystemTime::now(),
            confirm: window.map(|w| w.as_secs()),
            method,
        });
        true
    }

    /// `- header:` of `nv config show`: model, API version, revision, release.
    pub fn header(&self) -> Tree {
        let mut h = Tree::new();
        let mut put = |k: &str, v: String| h.insert(tree::word(k), Node::Leaf(v.into()));
        put("model", self.model.clone());
        put("nvue-api-version", "nvue_v1".to_string());
        put("rev-id", "1.0".to_string());
        put("version", format!("Cumulus Linux {}", self.release));
        h
    }

    /// How long the confirm window has left.
    pub fn confirm_left(&self) -> Option<(u64, Duration)> {
        let c = self.confirm.as_ref()?;
        let left = c
            .until
            .duration_since(SystemTime::now())
            .unwrap_or_default();
        Some((c.rev, left))
    }
}

/// Cumulus in the lab.
pub struct CumulusLab;

pub static LAB: CumulusLab = CumulusLab;

impl Lab for CumulusLab {
    fn switch(
        &self,
        sw: &crate::fabric::Switch,
        config: Option<&dyn targets::Config>,
    ) -> Result<crate::lab::Switch, String> {
        let mut s = match config {
            Some(c) => CumulusSwitch::booted(targets::typed::<super::Config>(c)?.set.clone()),
            None => CumulusSwitch::factory(sw.hostname.as_str()),
        };
        s.model = sw.model.name().to_string();
        if let Some(r) = &sw.release_text {
            s.release = r.clone();
        }
        Ok(crate::lab::Switch::of(Box::new(s)))
    }

    fn factory(&self, hostname: &str) -> crate::lab::Switch {
        crate::lab::Switch::of(Box::new(CumulusSwitch::factory(hostname)))
    }

    fn node_in(&self, dir: &Path) -> Option<NetNode> {
        folder::standing_in(dir).map(|t| net::node(&t))
    }

    fn watched(&self) -> &'static [&'static str] {
        &[folder::APPLIED, folder::STARTUP, folder::META]
    }

    fn banner(&self, _id: u64) -> String {
        Unconfirmed::Banner.text().to_string()
    }

    /// `swp33`: the port's own name (a Cumulus neighbor's `RemotePort`, captured).
    fn lldp_port_id(&self, p: Port) -> String {
        super::target::port_name(p)
    }
}

impl LabSwitch for CumulusSwitch {
    fn target(&self) -> &'static dyn SwitchOs {
        &super::target::CUMULUS
    }

    fn hostname(&self) -> &str {
        tree::value(self.standing(), &["system", "hostname"]).unwrap_or("cumulus")
    }

    fn unsaved(&self) -> bool {
        *self.standing() != self.startup
    }

    fn node(&self) -> NetNode {
        net::node(self.standing())
    }

    fn session(&self, start: LabStart) -> Box<dyn LabSession> {
        Box::new(CumulusSession::new(start))
    }

    fn open(&mut self, dir: &Path, prefer_fresh: bool, keep_running: bool) -> Result<(), String> {
        folder::open(self, dir, prefer_fresh, keep_running)
    }

    fn api_prefix(&self) -> Option<&'static str> {
        Some(rest::PREFIX)
    }

    fn api(
        &mut self,
        request: &targets::ApiRequest<'_>,
        effect: &mut targets::LabEffect,
    ) -> targets::ApiReply {
        rest::answer(self, request, effect)
    }

    fn persist(
        &mut self,
        dir: &Path,
        _first: bool,
        saved: bool,
        running: bool,
    ) -> Result<(), String> {
        self.settle();
        folder::persist(dir, self, saved, running)
    }
}
