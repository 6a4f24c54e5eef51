//! The switch-OS interface and the registry of OSes.
//!
//! A switch OS is a folder (`src/onyx/`, `src/os10/`) that implements [`SwitchOs`] for the OS
//! and [`Config`] for its typed configuration; the stages (compile, diff, …) call these and
//! never name an OS. [`BUILT_IN`] lists the OSes `fabric` ships: a new OS is a folder plus
//! one line there.
//!
//! What crosses the interface is OS-neutral: the fabric's validated [`Switch`] in, text and
//! plain values out ([`Comparison`], [`PlanStep`]). An OS's typed configuration travels as a
//! `Box<dyn Config>`; only its own folder looks inside (through [`Config::as_any`]).

use std::any::Any;

use serde::Serialize;

use crate::diff::Impact;
use crate::fabric::{Os, Switch};
use crate::onyx::ParseError;
use crate::secrets::Mask;

/// What a switch OS provides to the stages.
pub trait SwitchOs: Sync + Send + 'static {
    /// The OS's identity in the fabric model.
    fn os(&self) -> Os;

    /// The fabric's switch in this OS's terms, in the normal form the switch itself shows.
    fn compile(&self, sw: &Switch) -> Box<dyn Config>;

    /// Whether a text reads as this OS's running configuration (the default OS, the first
    /// built-in, is not asked: it takes what no other claims).
    fn recognizes(&self, text: &str) -> bool;

    /// A running configuration read: every modeled line well-formed, the others kept in place.
    fn parse(&self, text: &str) -> Result<Box<dyn Config>, ParseError>;

    /// How this OS prints a secret it masks in its own output.
    fn mask(&self) -> Mask;

    /// A running configuration of this OS, for a sentence: `an Onyx running-config`.
    fn a_running_config(&self) -> &'static str;
}

/// One switch's configuration, in its OS's typed model.
pub trait Config: Any + Send + Sync + std::fmt::Debug {
    /// The OS the configuration is of.
    fn target(&self) -> &'static dyn SwitchOs;

    /// The hostname the configuration sets, if it sets one.
    fn hostname(&self) -> Option<&str>;

    /// The text the switch's `show running-config(uration)` prints for it.
    fn render(&self) -> Result<String, String>;

    /// From this running configuration to `intended`: the plan, and what the diff shows.
    /// `intended` is of the same OS (the caller checks [`same_os`]).
    fn compare(&self, intended: &dyn Config, how: &Managed) -> Result<Comparison, String>;

    /// For the OS's own folder: the typed configuration.
    fn as_any(&self) -> &dyn Any;

    fn clone_box(&self) -> Box<dyn Config>;
}

impl Clone for Box<dyn Config> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Whether two configurations are of the same OS (a plan takes one OS to itself).
pub fn same_os(a: &dyn Config, b: &dyn Config) -> bool {
    a.target().os() == b.target().os()
}

/// What a comparison manages.
#[derive(Clone, Copy, Debug)]
pub struct Managed<'a> {
    /// The fabric's switch, when the intent is a fabric's (its model, the features and
    /// interfaces it uses); `None` when the intent is a whole configuration.
    pub switch: Option<&'a Switch>,
    /// Remove what the intent does not declare.
    pub prune: bool,
    /// Whether the text diff is wanted (it costs two renders and a diff).
    pub text: bool,
}

/// One command of a plan, as every output shows it.
#[derive(Clone, Debug)]
pub struct PlanStep {
    pub impact: Impact,
    /// The command as a reviewer reads it (an OS with blocks names them).
    pub shown: String,
    /// A warning the reviewer must read with it (what the command loses).
    pub warning: Option<String>,
    /// The step in `fabric diff --format json`, in the OS's shape.
    pub json: serde_json::Value,
}

impl Serialize for PlanStep {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(s)
    }
}

/// A running configuration compared with the intent.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub steps: Vec<PlanStep>,
    /// The commands, ready to paste into the switch's configuration mode.
    pub pasteable: String,
    /// The canonical running configuration and the target, when the text diff is wanted.
    pub texts: Option<(String, String)>,
    /// Lines of the running configuration the plan leaves as they are (not managed).
    pub unmanaged_lines: usize,
    /// Ethernet ports the running configuration configures that the switch's model cannot
    /// have (the fabric's model, or the one the configurations name), as the OS names them;
    /// the plan leaves them out.
    pub foreign_ports: Vec<String>,
    /// The model's name, when it is known.
    pub model: Option<&'static str>,
}

/// The OSes `fabric` ships, in the order help texts name them.
pub const BUILT_IN: [&dyn SwitchOs; 2] = [&crate::onyx::target::ONYX, &crate::os10::target::OS10];

/// The implementation of an OS of the fabric model.
pub fn of(os: Os) -> &'static dyn SwitchOs {
    BUILT_IN
        .iter()
        .copied()
        .find(|t| t.os() == os)
        .unwrap_or(BUILT_IN[0])
}

/// The OS a running configuration's text is of: the first of the others that recognizes it,
/// else the default OS (the first), whose parser then says what is wrong with the text.
pub fn recognize(text: &str) -> &'static dyn SwitchOs {
    BUILT_IN[1..]
        .iter()
        .copied()
        .find(|t| t.recognizes(text))
        .unwrap_or(BUILT_IN[0])
}
