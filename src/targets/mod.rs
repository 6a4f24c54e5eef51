//! The switch-OS interface and the registry of OSes.
//!
//! A switch OS is a folder (`src/onyx/`, `src/os10/`) that implements [`SwitchOs`] for the OS
//! and [`Config`] for its typed configuration; the stages (compile, diff, …) call these and
//! never name an OS. [`BUILT_IN`] lists the OSes `fabric` ships: a new OS is a folder plus
//! one line there.
//!
//! What crosses the interface is OS-neutral: the fabric's validated [`Switch`] in, text and
//! plain values out ([`Comparison`], [`PlanStep`], what `fabric verify` reads:
//! [`crate::verify::observed`]). An OS's typed configuration travels as a `Box<dyn Config>`;
//! only its own folder looks inside (through [`Config::as_any`]).

use std::any::Any;
use std::collections::BTreeSet;
use std::sync::{PoisonError, RwLock};

use serde::Serialize;

pub(crate) mod restore;

use crate::audit::view::View;
use crate::audit::{Drift, Part};
use crate::config_error::ParseError;
use crate::device::dialect::Dialect;
use crate::device::{Cli, Error};
use crate::diff::Impact;
use crate::fabric::{Hardware, Os, Switch};
use crate::secrets::Mask;
use crate::types::{Ecn, Ets, Port, TcMap};
use crate::types::{Iface, IfaceRange};
use crate::verify::observed::Trusted;
use crate::verify::{Observed, Query};

/// What a switch OS provides to the stages.
pub trait SwitchOs: Sync + Send + 'static {
    /// The OS's identity in the fabric model.
    fn os(&self) -> Os;

    /// How the OS names what documents and messages show.
    fn words(&self) -> &'static Words;

    /// A front-panel port as the OS names it: Onyx `1/5`, OS10 `ethernet1/1/5`.
    fn port_name(&self, p: Port) -> String;

    /// A run of ports as the OS writes it: Onyx `1/1-1/8`, OS10 `ethernet1/1/1-1/1/8` (as its
    /// `interface range` and `discovery-interface` print runs).
    fn port_range(&self, first: Port, last: Port) -> String {
        self.iface_range(IfaceRange {
            first: Iface::Ethernet(first),
            last: Iface::Ethernet(last),
        })
    }

    /// A run of interfaces of the OS-neutral view as the OS writes it: Onyx `ethernet
    /// 1/1-1/4`, `port-channel 1`; OS10 `ethernet1/1/1-1/1/4`, `port-channel1`.
    fn iface_range(&self, r: IfaceRange) -> String;

    /// The release the fabric gives the switch, as the OS writes it.
    fn release(&self, sw: &Switch) -> Option<String>;

    /// Hardware settings beyond splits that the fabric gives the switch, as (setting, value):
    /// OS10's port groups not in their native mode.
    fn hardware_facts(&self, sw: &Switch) -> Vec<(&'static str, String)>;

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

    /// What `fabric import` asks of the OS ([`Import`]).
    fn import(&self) -> &'static dyn Import;

    /// The fabric's switch as `fabric push` (and a live diff) plans it.
    fn intent(&self, sw: &Switch) -> Box<dyn Intent>;

    /// What `fabric verify` sends the OS and how it reads the replies.
    fn reads(&self) -> &'static dyn Reads;

    /// The OS's templates read from a folder (`fabric compile --templates DIR`), in place of
    /// the embedded ones.
    fn templates(&self, dir: &std::path::Path) -> Result<Box<dyn Render>, String>;

    /// What `fabric audit` asks of the OS.
    fn audit(&self) -> &'static dyn Audit;

    /// What the validation of a fabric file asks of the OS ([`Rules`]).
    fn rules(&self) -> &'static dyn Rules;

    /// How the lab (`fabric lab`) simulates the OS's switches.
    fn lab(&self) -> &'static dyn Lab;

    /// How the OS's CLI talks: prompts, paging, configure and save, errors, transactions;
    /// every stage that opens a session to a switch opens it in this.
    fn dialect(&self) -> &'static Dialect;

    /// A live switch's running configuration (the dialect's `show running-config(uration)`):
    /// its text, secrets masked as the OS masks its own, and the configuration read from it.
    fn fetch(&self, cli: &mut Cli) -> Result<(String, Box<dyn Config>), Error>;
}

/// An OS's templates: render a configuration of that OS.
pub trait Render: Send + Sync {
    fn render(&self, config: &dyn Config) -> Result<String, String>;
}

/// What `fabric verify` asks of a switch OS: the commands that answer the checks' queries
/// (the OS's own where it prints a state another way: more commands, or fewer), each with the
/// reader of its reply, which reads it into the OS-neutral values the checks compare
/// ([`crate::verify::observed`]); and how the OS's replies name what the findings quote.
pub trait Reads: Sync + Send {
    /// The commands that answer `queries` on the fabric's switch `sw`, in the order they are
    /// sent, each with the reader of its reply.
    fn asks(&self, sw: &Switch, queries: Vec<Query>) -> Vec<Ask>;

    /// Reads the reply to one of the checks' queries into what the switch reported; why it
    /// does not read, if it does not (nothing of it is kept then).
    fn read_query(&self, q: &Query, reply: &str, into: &mut Observed) -> Result<(), String>;

    /// Reads the reply to `ask` (one of this OS's) into what the switch reported, as
    /// [`Reads::read_query`] does.
    fn read(&self, ask: &Ask, reply: &str, into: &mut Observed) -> Result<(), String> {
        match &ask.reader {
            Reader::Query(q) => self.read_query(q, reply, into),
            Reader::Own(read) => read(reply, into),
        }
    }

    /// The port an LLDP neighbor's port ID names, as this OS names its ports; `None` for
    /// anything else (a MAC address, another OS's port name).
    fn port_id(&self, text: &str) -> Option<Port>;

    /// What the fabric's QoS on `sw` is, as this OS's replies show it once pushed: what the
    /// PFC, QoS and pool checks compare what was read with.
    fn wanted<'a>(&self, sw: &'a Switch) -> Box<dyn Wanted + 'a>;

    /// How the OS's replies name what the findings quote.
    fn said(&self) -> &'static Said;

    /// What of the counters (`fabric verify --counters`) this OS does not read, and why.
    fn counters_not_read(&self) -> &'static [crate::verify::counters::NotRead] {
        &[]
    }
}

/// The fabric's QoS on one switch, as its OS's replies show it once pushed: the fabric's
/// settings as written where the OS prints them so (Onyx), else what the OS derives from them
/// (OS10: what its compiled configuration gives each port).
pub trait Wanted {
    /// What port `p` should classify by; `None` where the fabric sets nothing to judge.
    fn trust(&self, p: Port) -> Option<Trusted>;

    /// The marking each traffic class of port `p` that the fabric marks should have; `None`
    /// for a port the fabric does not have.
    fn ecn(&self, p: Port) -> Option<&TcMap<Ecn>>;

    /// The scheduling each traffic class of port `p` that the fabric schedules should have;
    /// `None` for a port the fabric does not have.
    fn ets(&self, p: Port) -> Option<&TcMap<Ets>>;

    /// The interfaces in PFC mode.
    fn pfc(&self) -> Vec<PfcWant>;

    /// The priorities the switch pauses, where the OS's replies say so switch-wide (OS10's
    /// network-qos policies in use); `None` where they do not.
    fn paused(&self) -> Option<BTreeSet<u8>>;
}

/// An interface the fabric puts in PFC mode, as its OS shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PfcWant {
    pub iface: Iface,
    /// The priorities it pauses, where the OS's reply lists them per interface.
    pub priorities: Option<BTreeSet<u8>>,
    /// A port-channel whose PFC follows its member ports: when each is found down or
    /// miswired, its PFC is not judged (OS10's port-channel is not in PFC operation then).
    pub follows_members: bool,
}

/// One command `fabric verify` sends a switch, and how its reply is read.
pub struct Ask {
    /// The command, as typed.
    pub command: String,
    /// The port it asks about, if one: a reply that does not read names it.
    pub port: Option<Port>,
    pub reader: Reader,
}

/// A reader of an OS's own: the reply, read into what the switch reported.
pub type OwnReader = Box<dyn Fn(&str, &mut Observed) -> Result<(), String> + Send + Sync>;

/// How an OS reads the reply to one of its commands.
pub enum Reader {
    /// As the answer to one of the checks' queries ([`Reads::read_query`]).
    Query(Query),
    /// By a reader the OS gave with the command, for a command the checks have no query for
    /// (OS10's VLT port detail, its PFC of one interface, its running configuration read for
    /// its QoS); only the OS knows what it reads.
    Own(OwnReader),
}

impl Ask {
    /// The command that answers `q`, read as its answer.
    pub fn query(command: String, q: Query) -> Ask {
        Ask {
            command,
            port: q.port(),
            reader: Reader::Query(q),
        }
    }

    /// A command of the OS's own, read by `read`.
    pub fn own(
        command: String,
        port: Option<Port>,
        read: impl Fn(&str, &mut Observed) -> Result<(), String> + Send + Sync + 'static,
    ) -> Ask {
        Ask {
            command,
            port,
            reader: Reader::Own(Box::new(read)),
        }
    }

    /// A port's own read that names the command it answers (a counter's sample does).
    pub fn port(
        command: String,
        port: Port,
        read: fn(&str, &str, Port, &mut Observed) -> Result<(), String>,
    ) -> Ask {
        let c = command.clone();
        Ask::own(command, Some(port), move |reply, into| {
            read(reply, &c, port, into)
        })
    }
}

/// How an OS's replies name what `fabric verify`'s findings quote: plain data.
#[derive(Debug)]
pub struct Said {
    /// The command that lists every port's link, as a finding names it (`show interfaces
    /// ethernet`).
    pub links: &'static str,
    /// The command that lists every interface's PFC in one reply, as a finding names it
    /// (`show dcb priority-flow-control`): an interface it leaves out is a finding. `None`
    /// where each interface is asked by itself (an interface not read is named as such).
    pub pfc_all: Option<&'static str>,
    /// An interface's PFC operational state and admin setting, as its reply labels them
    /// (`PFC oper`, `PFC admin`).
    pub pfc_oper: &'static str,
    pub pfc_admin: &'static str,
    /// What pauses priorities on the switch, for a sentence (`the network-qos policies in
    /// use`).
    pub paused_by: &'static str,
    /// A marking as the OS configures it.
    pub ecn: fn(&Ecn) -> String,
    /// A scheduling as the OS configures it.
    pub ets: fn(&Ets) -> String,
    /// A pair's peer link, as a finding names it (`peer link`, `VLTi`).
    pub peer_link: &'static str,
    /// A pair's shared MAC address, as a finding names it (`system MAC`, `VLT MAC`).
    pub pair_mac: &'static str,
    /// A pair's operational state (`Up`, `Down`), as a finding quotes it.
    pub pair_status: fn(&str) -> String,
}

/// A switch's intended configuration as `fabric push` (and a live diff) plans it: in its
/// OS's session dialect, with what the fabric manages on it.
pub trait Intent: Send + Sync + std::fmt::Debug {
    /// The configuration the switch should have.
    fn intended(&self) -> &dyn Config;

    /// Reads the running configuration and plans: the text read, and the push's state.
    fn plan(&self, cli: &mut Cli) -> Result<(String, Box<dyn Push>), Error>;
}

/// One switch's push: the running configuration as fetched, the configuration the push makes
/// and the plan between them, and what the push asks of them as it goes (written once for
/// every OS in `device::push`).
pub trait Push: Send + Sync {
    /// How many steps the plan has.
    fn len(&self) -> usize;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each step as a reviewer reads it, with its impact (an OS with blocks names them).
    fn shown(&self) -> Vec<(String, Impact)>;

    /// Per step (by index), what it deletes that no plan can type back (an OS10 BGP
    /// neighbor's `password`, masked): a roll-back would re-create the block without it.
    fn losses(&self) -> Vec<(usize, String)>;

    /// Whether the switch applies a plan atomically (OS10 transaction mode).
    fn transactions(&self) -> bool;

    /// The plan's lines as typed in configuration mode.
    fn lines(&self) -> Vec<String>;

    /// Whether the running config now is still the one the plan was made from.
    fn unchanged(&self, cli: &mut Cli) -> Result<bool, Error>;

    /// After applying: how many commands still differ from the target, and the first.
    fn left(&self, cli: &mut Cli) -> Result<Option<(usize, String)>, Error>;

    /// The lines that take the switch from its config now back to the config before the
    /// push: what the push changed put back, nothing else.
    fn back(&self, cli: &mut Cli) -> Result<Vec<String>, Error>;

    /// After a roll-back: how many commands still differ from the config before the push.
    fn back_left(&self, cli: &mut Cli) -> Result<usize, Error>;

    /// Whether a save whose reply was lost took place, as read back.
    fn read_save(&self, cli: &mut Cli) -> Result<SaveRead, Error>;
}

/// Whether a save whose reply was lost took place, as read back.
pub struct SaveRead {
    /// The saved configuration is the running one.
    pub saved: bool,
    /// The running config is the push's target.
    pub at_target: bool,
}

// The import facet: what `fabric import` asks of an OS. `crate::import` writes the fabric
// document and checks it; each OS reads its switches' running configurations into it.

/// What `fabric import` asks of a switch OS: its models, a live switch's running
/// configuration, its switches written into the fabric document, and whether the fabric
/// reproduces each of them.
pub trait Import: Sync + Send {
    /// The OS in a sentence, with its article: `an Onyx`, `an OS10`.
    fn a_title(&self) -> &'static str;

    /// The model of this OS's table a name (`--model`) names; else why not.
    fn model(&self, name: &str) -> Result<crate::fabric::Hardware, String>;

    /// This OS's switches read for the document (their models, ports, pairs).
    fn read<'a>(&self, sources: Sources<'a>) -> Result<Box<dyn Read<'a> + 'a>, String>;

    /// What the fabric's switch (`None`: the fabric has none of that name) does not carry
    /// of the configuration it was imported from: what a push would change, lines it loses.
    fn lost(
        &self,
        sw: Option<&Switch>,
        name: &str,
        source: &crate::import::Source,
    ) -> Option<crate::import::Lost>;
}

/// The switches of one OS to import, by name.
pub type Sources<'a> = std::collections::BTreeMap<&'a str, &'a crate::import::Source>;

/// One OS's switches, read: their cables' ends, then their part of the document.
pub trait Read<'a> {
    /// The switches as their cables see them: their described ports, each routed one's
    /// address, their AS.
    fn cable_ends(&self) -> Vec<crate::import::links::Switch<'a>>;

    /// Adds the switches to `doc`, with the cables between all imported switches (`links`).
    /// `alone`: they are the fabric's only switches (settings they all share become
    /// fabric-wide). Per switch, the lines the fabric leaves as they are on it, for the
    /// comment above it.
    fn add(
        &mut self,
        doc: &mut crate::import::Doc,
        alone: bool,
        links: &crate::import::links::Links,
    ) -> std::collections::BTreeMap<String, Vec<String>>;
}

/// The model a name (`--model`) names: the first of the other OSes whose table has it, else
/// the default OS's (whose error then says what is wrong with the name).
pub fn model_named(name: &str) -> Result<crate::fabric::Hardware, String> {
    all()[1..]
        .iter()
        .find_map(|t| t.import().model(name).ok())
        .map_or_else(|| BUILT_IN[0].import().model(name), Ok)
}

/// How an OS names and arranges what documents and messages show: plain data.
#[derive(Debug)]
pub struct Words {
    /// The name people know it by (`Onyx`).
    pub title: &'static str,
    /// The word a fabric file writes (`os: os10`).
    pub word: &'static str,
    /// The vendor's full name (`NVIDIA Onyx`).
    pub product: &'static str,
    /// An MLAG pair as the OS calls it (`MLAG`, `VLT`).
    pub pair: &'static str,
    /// The pair's peer link as the OS calls it (`MLAG peer link`, `VLTi`).
    pub peer_link: &'static str,
    /// The same in a sentence (`an MLAG peer link`, `a VLT interconnect (VLTi)`).
    pub a_peer_link: &'static str,
    /// The peer link is ports of its own (OS10's VLTi: no port-channel, no IPL VLAN), not a
    /// port-channel over a VLAN.
    pub peer_link_ports: bool,
    /// A pair's bundle is a port-channel with a pair setting (OS10's `vlt-port-channel`), not
    /// an interface kind of its own (Onyx's `mlag-port-channel`).
    pub pair_bundle_is_port_channel: bool,
    /// Split ports as the OS calls them (`Split ports`, `Breakouts`).
    pub splits: &'static str,
    /// The OS has a switch-wide DCBX setting.
    pub dcbx: bool,
}

/// One switch's configuration, in its OS's typed model.
pub trait Config: Any + Send + Sync + std::fmt::Debug + Audited + Printed {
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

    /// Whether `other` is the same configuration (of the same OS).
    fn same(&self, other: &dyn Config) -> bool;
}

impl PartialEq for dyn Config {
    fn eq(&self, other: &dyn Config) -> bool {
        self.same(other)
    }
}

impl Clone for Box<dyn Config> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// An OS's typed configuration behind the interface, for that OS's own folder; a
/// configuration of another OS is refused (a plan takes one switch OS to itself).
pub fn typed<T: Config>(c: &dyn Config) -> Result<&T, String> {
    c.as_any()
        .downcast_ref::<T>()
        .ok_or_else(|| "a plan takes one switch OS to itself".to_string())
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

// `fabric audit`: what the audit asks of an OS and reads of its configurations.

/// What `fabric audit` asks of a switch OS: which parts beyond the RoCE view its switches
/// have, how it spells the lines that fix a finding, and a live switch's running
/// configuration.
pub trait Audit: Sync + Send {
    /// The parts beyond the RoCE view every OS gives that the OS's switches have: a rule that
    /// reads a part runs on the switches of the OSes that have it.
    fn parts(&self) -> &'static [Part];

    /// The lines that fix findings, and the messages that differ, in the OS's words.
    fn fixes(&self) -> &'static Fixes;

    /// A finding's line on the interfaces `r` (`name`, as the OS names them): Onyx
    /// `interface ethernet 1/1-1/8 mtu 9216 force`; an OS that configures interfaces in
    /// blocks writes the block, then the line.
    fn on_interfaces(&self, r: IfaceRange, name: &str, line: &str) -> String;

    /// A port of the OS as a description names it after its switch's name (`1/10`; OS10
    /// `1/1/10`), the whole text.
    fn described_port(&self, text: &str) -> Option<Port>;

    /// A live switch's running configuration, read-only in the OS's session, and whether it
    /// has unsaved changes.
    fn read_live(
        &self,
        target: &crate::device::Target,
        opts: &crate::device::Options,
    ) -> Result<(Box<dyn Config>, bool), Error>;
}

/// What `fabric audit` reads of a configuration: every OS's configuration implements it.
pub trait Audited {
    /// The OS-neutral RoCE view the rules read; `hardware`: the switch's model, when a fabric
    /// says it.
    fn view(&self, hardware: Option<Hardware>) -> View;

    /// The configuration in the Onyx model, which the rules of the parts that read it (traffic
    /// pools, the `roce` mode, routing and MLAG) read; `None` for an OS without those parts.
    fn onyx_model(&self) -> Option<&crate::onyx::Config>;

    /// The Ethernet ports with a description, in port order.
    fn descriptions(&self) -> Vec<(Port, &str)>;

    /// Per object of this running configuration that differs from the fabric's switch (of
    /// the same OS), the commands that bring it back.
    fn drift(&self, sw: &Switch) -> Vec<Drift>;
}

/// How the audit writes a finding on an OS's switches: the lines that fix it, as the OS spells
/// them (`None`: the OS has no one line for it, and the finding's message says what is
/// wrong), and the messages that differ by OS.
pub struct Fixes {
    /// The OS in a sentence, with its article (`an Onyx`).
    pub a: &'static str,
    /// A port's ECN on a traffic class.
    pub ecn: Option<fn(u8, &Ecn) -> String>,
    /// A port's ETS on a traffic class.
    pub ets: Option<fn(u8, Ets) -> String>,
    /// A port that trusts DSCP.
    pub trust_l3: Option<&'static str>,
    /// A port in PFC mode.
    pub pfc_mode: Option<&'static str>,
    /// A port's MTU (a routed port's too).
    pub mtu: fn(u16) -> String,
    /// PFC on a priority, switch-wide.
    pub pfc_priority: Option<fn(u8) -> String>,
    /// Saving the running configuration.
    pub save: Option<&'static str>,
    /// RoCE on a switch that cannot tell the hosts its settings: the message and the line.
    pub dcbx_off: (&'static str, Option<&'static str>),
    /// Ports in PFC mode where no PFC runs switch-wide: the message and the line.
    pub pfc_mode_alone: (&'static str, Option<&'static str>),
    /// PFC switch-wide, in a fabric audited as lossy: the message and the line.
    pub pfc_global: (&'static str, Option<&'static str>),
    /// BFD, switch-wide.
    pub bfd: &'static str,
    /// BFD on one BGP neighbor (the switch's AS, the neighbor's address).
    pub neighbor_bfd: fn(u32, std::net::Ipv4Addr) -> Fix,
}

/// A fix as an OS writes it: one line, or (where the line belongs in a block of its own)
/// where to write it, said after the finding's message.
pub enum Fix {
    Line(String),
    Said(String),
}

// The command line's view of a configuration: printed as data (`fabric parse --format
// json|yaml`).

/// A configuration printed as data, in its OS's model: every OS's typed configuration is one
/// (its `Serialize`).
pub trait Printed {
    /// The model as pretty JSON, with a closing newline.
    fn json(&self) -> Result<String, String>;

    /// The model as YAML.
    fn yaml(&self) -> Result<String, String>;
}

impl<T: Serialize> Printed for T {
    fn json(&self) -> Result<String, String> {
        serde_json::to_string_pretty(self)
            .map(|j| j + "\n")
            .map_err(|e| e.to_string())
    }

    fn yaml(&self) -> Result<String, String> {
        serde_saphyr::to_string(self).map_err(|e| e.to_string())
    }
}

/// The OSes `fabric` ships, in the order help texts name them; the first is the default (a
/// fabric file's switch that names no OS, a running configuration no other OS recognizes).
pub const BUILT_IN: [&dyn SwitchOs; 3] = [
    &crate::onyx::target::ONYX,
    &crate::os10::target::OS10,
    &crate::cumulus::target::CUMULUS,
];

/// OSes added while running ([`register`]), after the built-in ones.
static ADDED: RwLock<Vec<&'static dyn SwitchOs>> = RwLock::new(Vec::new());

fn added() -> std::sync::RwLockReadGuard<'static, Vec<&'static dyn SwitchOs>> {
    ADDED.read().unwrap_or_else(PoisonError::into_inner)
}

/// Every OS: the built-in ones, then those added while running, in that order.
pub fn all() -> Vec<&'static dyn SwitchOs> {
    BUILT_IN
        .iter()
        .copied()
        .chain(added().iter().copied())
        .collect()
}

/// Adds an OS written outside this crate (a library's user, a test): from here on, a fabric
/// file's `os:` word names it and its running configurations are recognized, after the
/// built-in OSes. Its word must be new.
pub fn register(target: &'static dyn SwitchOs) -> Result<Os, String> {
    let word = target.words().word;
    let mut added = ADDED.write().unwrap_or_else(PoisonError::into_inner);
    if BUILT_IN
        .iter()
        .chain(added.iter())
        .any(|t| t.words().word == word)
    {
        return Err(format!(
            "an OS with the word `{word}` is already registered"
        ));
    }
    added.push(target);
    Ok(Os::new(target))
}

/// An OS's place among [`all`] (by its word), for ordering.
pub fn place(target: &dyn SwitchOs) -> usize {
    let word = target.words().word;
    let built_in = BUILT_IN.iter().position(|t| t.words().word == word);
    built_in.unwrap_or_else(|| {
        let added = added().iter().position(|t| t.words().word == word);
        BUILT_IN.len() + added.unwrap_or(0)
    })
}

/// The default OS: the first built-in one.
pub fn default_os() -> &'static dyn SwitchOs {
    BUILT_IN[0]
}

/// The OS a running configuration's text is of: the first of the others that recognizes it,
/// else the default OS (the first), whose parser then says what is wrong with the text.
pub fn recognize(text: &str) -> &'static dyn SwitchOs {
    let others = all();
    others[1..]
        .iter()
        .copied()
        .find(|t| t.recognizes(text))
        .unwrap_or(BUILT_IN[0])
}

// The fabric model's hardware: each OS's model table answers what the model and the stages
// ask of a switch's model ([`crate::fabric::Hardware`]).

/// A model of an OS's table, as the fabric model holds it.
pub trait Model: Any + Sync + Send + std::fmt::Debug {
    /// The model's name (`SN2100`, `S5248F-ON`).
    fn name(&self) -> &'static str;

    /// The OS whose table it is in.
    fn target(&self) -> &'static dyn SwitchOs;

    /// Whether the front-panel port (not a subport) exists.
    fn has_port(&self, p: Port) -> bool;

    /// Front-panel ports before any split or breakout.
    fn port_count(&self) -> u16;

    /// A port's native speed (a subport's, under a split).
    fn native_speed(
        &self,
        p: Port,
        split: Option<crate::types::Split>,
    ) -> Option<crate::types::Speed>;

    /// For the OS's own folder: the model table's entry.
    fn as_any(&self) -> &dyn Any;
}

// The validation facet: what `crate::fabric::validate` asks of a switch's OS. The stage
// checks the format's keys and the fabric's rules; each OS answers what differs on it (its
// models, releases, port names, keys it has no meaning for, string limits, defaults).

/// A key written where the switch's OS has no meaning for it (E073): the key, where it is
/// written, and what it is.
pub type Refused = (&'static str, crate::diag::Span, &'static str);

/// What the validation of a fabric file asks of a switch OS.
pub trait Rules: Sync + Send {
    /// The model of the OS's table a name names (any case), if one does.
    fn model(&self, name: &str) -> Option<Hardware>;

    /// A model name of no OS's table on a switch of this OS: E021 (with the OS's models).
    fn unknown_model(
        &self,
        cx: &mut crate::fabric::validate::Cx,
        model: &crate::fabric::raw::Sp<String>,
    ) -> Option<Hardware>;

    /// The OS's models, for a help text.
    fn models(&self) -> String;

    /// The release a switch of the OS runs as the OS writes it (its own key, else the fabric's,
    /// `fabric`, already checked), checked (E074); `None` for an OS whose release is the
    /// format's typed `onyx` key.
    fn release_text(
        &self,
        cx: &mut crate::fabric::validate::Cx,
        sw: &crate::fabric::raw::RawSwitch,
        fabric: Option<&String>,
    ) -> Option<String>;

    /// The fabric-wide release of the OS as it writes it, checked (E074), if the OS has such
    /// a key and the fabric writes it.
    fn fabric_release_text(
        &self,
        cx: &mut crate::fabric::validate::Cx,
        raw: &crate::fabric::raw::RawFabric,
    ) -> Option<String>;

    /// Whether the switch takes the typed release (`onyx` key, [`crate::types::Release`]).
    fn typed_release(&self) -> bool;

    /// Checks the switch's model against its release and QoS (E039, E034).
    fn check_model(&self, cx: &mut crate::fabric::validate::Cx, sw: ModelCheck<'_>);

    /// Keys of switch `name` that mean nothing on the OS (E073), each where it is written.
    fn foreign_keys(
        &self,
        cx: &crate::fabric::validate::Cx,
        raw: &crate::fabric::raw::RawFabric,
        name: &str,
        sw: &crate::fabric::raw::RawSwitch,
        found: &mut Vec<Refused>,
    );

    /// What `trust: both` is, where the OS refuses it (E073); `None` where it takes it.
    fn trust_both(&self) -> Option<&'static str>;

    /// Whether a port-map key or link end is written in the OS's naming of ports.
    fn names_ports(&self, text: &str) -> bool;

    /// The ports a port-map key or link end names, in the OS's naming; a name of another OS
    /// is E072, anything else not a port E025.
    fn ports(
        &self,
        cx: &mut crate::fabric::validate::Cx,
        text: &str,
        at: crate::diag::Span,
    ) -> Option<Vec<Port>>;

    /// A port-map entry's `split` (pass 1): the switch's splits, or E042 where its model's
    /// port does not take it.
    fn split(&self, cx: &mut crate::fabric::validate::Cx, s: crate::fabric::validate::SplitAsk<'_>);

    /// Whether `port` is a subport name a port's group gives it without a split (OS10's
    /// `ethernet1/1/N:1` in a `10g-4x` group).
    fn group_subport(&self, _sw: &Switch, _port: Port) -> bool {
        false
    }

    /// Settles the port groups of the OS's switches once every port is claimed (E048, E041).
    fn settle_groups(
        &self,
        _cx: &mut crate::fabric::validate::Cx,
        _groups: crate::fabric::validate::Groups<'_>,
    ) {
    }

    /// The BFD intervals the OS takes: the largest transmit and receive intervals (ms).
    fn bfd_limits(&self) -> (u32, u32);

    /// Whether a lossless pool has a share of the buffer on the OS (`memory`): the preset
    /// writes one.
    fn pool_memory(&self) -> bool;

    /// Each string the OS prints and what it may hold ([`crate::fabric::strings`]).
    fn strings(&self) -> &'static [crate::fabric::strings::Rule];

    /// A port's MTU without an `mtu` key.
    fn default_mtu(&self) -> u16;

    /// The OS's name in a sentence when its port QoS (trust, PFC, ECN, ETS) is one setting for
    /// the whole switch, so every port in use must agree (E075); `None`: set per port.
    fn switch_wide_qos(&self) -> Option<&'static str> {
        None
    }

    /// Whether a routed cable between two switches of this OS runs BGP unnumbered (over the
    /// ports' IPv6 link-local addresses) rather than over the cable's allocated addresses.
    fn unnumbered(&self) -> bool {
        false
    }

    /// Why a line of a switch's `extra` (configuration the format does not model) is no line
    /// of configuration on the OS (a command a session runs); `None` when it is one.
    fn not_configuration(&self, _line: &str) -> Option<String> {
        None
    }

    /// Why a line of a switch's `extra` does not read in the OS's grammar, or is what the
    /// format writes itself; `None` when the line is the OS's and left to `extra`. An OS whose
    /// switches take no `extra` refuses the key (E073) and reads none of its lines.
    fn extra_line(&self, _line: &str) -> Option<String> {
        None
    }
}

/// What [`Rules::check_model`] checks: the switch's name and model, where the model is
/// written, its releases, and its QoS as written and as read.
pub struct ModelCheck<'a> {
    pub name: &'a str,
    pub model: Hardware,
    pub model_at: crate::diag::Span,
    pub release_text: Option<&'a str>,
    pub release: Option<(crate::types::Release, crate::diag::Span)>,
    pub raw_qos: &'a crate::fabric::raw::RawQos,
    pub qos: &'a crate::fabric::Qos,
}

/// How the lab (`fabric lab`, [`crate::lab`]) simulates an OS's switches: what its SSH server,
/// network and state folders ask of the OS, so that they never name one. A switch's own state
/// is a [`LabSwitch`], a session on it a [`LabSession`].
pub trait Lab: Sync + Send {
    /// The lab switch of the fabric's switch `sw` as it boots when its state folder keeps
    /// nothing: running `config` (its backup, of this OS) when given, else as it leaves the
    /// factory.
    fn switch(
        &self,
        sw: &Switch,
        config: Option<&dyn Config>,
    ) -> Result<crate::lab::Switch, String>;

    /// A switch of the lab's model for the OS named `hostname`, as it leaves the factory.
    fn factory(&self, hostname: &str) -> crate::lab::Switch;

    /// The switch whose state other processes keep in `dir` (`fabric lab --stdio`), as the
    /// network reads it; `None` when the folder is not one of this OS's switches or does not
    /// read.
    fn node_in(&self, dir: &std::path::Path) -> Option<crate::lab::network::Node>;

    /// The files of a switch's state folder whose change changes its running configuration
    /// (the network reads it again).
    fn watched(&self) -> &'static [&'static str];

    /// What a login prints before the first prompt (session `id`).
    fn banner(&self, id: u64) -> String;

    /// A port's ID as LLDP sends it from a switch of the OS.
    fn lldp_port_id(&self, p: Port) -> String;

    /// The files a switch takes over SCP into its login's home folder; `None`: it takes none.
    fn scp(&self) -> Option<&'static LabFiles> {
        None
    }
}

/// The bounds of the files a lab switch takes over SCP.
#[derive(Debug)]
pub struct LabFiles {
    /// The largest file, in bytes.
    pub max: usize,
    /// Whether a name is one the switch keeps a file under.
    pub valid_name: fn(&str) -> bool,
}

/// How a lab session starts: paging on (a terminal) or off, at the first level or already
/// configuring (a script's, or a drift fault's hand on the box).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LabStart {
    /// The session's number on its switch (`show users`).
    pub id: u64,
    pub paging: bool,
    pub configuring: bool,
}

/// What one line did to a lab switch: its running configuration changed, it saved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabEffect {
    pub changed: bool,
    pub saved: bool,
}

/// One request to a lab switch's HTTP API, from a login already accepted.
#[derive(Clone, Copy, Debug)]
pub struct ApiRequest<'a> {
    pub method: &'a str,
    /// The path, percent-escapes still in it (`/nvue_v1/revision/1`).
    pub path: &'a str,
    /// What follows `?`, as sent (`rev=1`), empty when nothing does.
    pub query: &'a str,
    pub body: &'a [u8],
    pub user: &'a str,
}

/// A lab switch's answer to one API request: its status and JSON body (empty: none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiReply {
    pub status: u16,
    pub body: String,
}

/// What every lab switch's state does alike: copied behind the interface, looked into by its
/// own OS (implemented for every [`LabSwitch`] that is `Clone`).
pub trait LabState: Any + Send + Sync + std::fmt::Debug {
    fn clone_box(&self) -> Box<dyn LabSwitch>;

    fn as_any(&self) -> &dyn Any;

    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: LabSwitch + Clone> LabState for T {
    fn clone_box(&self) -> Box<dyn LabSwitch> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A lab switch's own state, in its OS's terms.
pub trait LabSwitch: LabState {
    /// Its OS.
    fn target(&self) -> &'static dyn SwitchOs;

    fn hostname(&self) -> &str;

    /// Whether the running configuration differs from the one it boots from.
    fn unsaved(&self) -> bool;

    /// The switch as the network reads it.
    fn node(&self) -> crate::lab::network::Node;

    /// A new session on the switch.
    fn session(&self, start: LabStart) -> Box<dyn LabSession>;

    /// Boots from what its state folder `dir` keeps (unless `prefer_fresh`); with
    /// `keep_running`, from the running configuration the last session left there.
    fn open(
        &mut self,
        dir: &std::path::Path,
        prefer_fresh: bool,
        keep_running: bool,
    ) -> Result<(), String>;

    /// Writes its state to its folder `dir`: what it saved (`saved`), its running
    /// configuration (`running`); `first`: the first write since it booted (files there that
    /// it does not have are removed).
    fn persist(
        &mut self,
        dir: &std::path::Path,
        first: bool,
        saved: bool,
        running: bool,
    ) -> Result<(), String>;

    /// A file put in its login's home folder over SCP; `Err` says why it is not taken.
    fn put_home(&mut self, _name: &str, _bytes: Vec<u8>) -> Result<(), String> {
        Err("scp: not taken by this switch".to_string())
    }

    /// The path under which the switch serves an HTTP API over HTTPS (`None`: it serves
    /// none); the lab gives it a port of its own beside the SSH one.
    fn api_prefix(&self) -> Option<&'static str> {
        None
    }

    /// One request to that API; `effect` says what it changed, as a line's does.
    fn api(&mut self, _request: &ApiRequest<'_>, _effect: &mut LabEffect) -> ApiReply {
        ApiReply {
            status: 404,
            body: String::new(),
        }
    }
}

/// A lab session copied behind the interface (implemented for every [`LabSession`] that is
/// `Clone`).
pub trait LabSessionClone {
    fn clone_box(&self) -> Box<dyn LabSession>;
}

impl<T: LabSession + Clone + 'static> LabSessionClone for T {
    fn clone_box(&self) -> Box<dyn LabSession> {
        Box::new(self.clone())
    }
}

/// One CLI session on a lab switch of the OS: its level, paging, what it waits for.
pub trait LabSession: LabSessionClone + Send + Sync + std::fmt::Debug {
    /// The prompt it shows now on `sw`.
    fn prompt(&self, sw: &dyn LabSwitch) -> String;

    /// Whether an output is being paged: the next keystroke goes to the pager.
    fn paging_now(&self) -> bool;

    /// One keystroke while paging.
    fn key(&mut self, key: u8) -> crate::lab::Reply;

    /// Turns paging on or off.
    fn set_paging(&mut self, on: bool);

    /// Whether `line` reads the network around the switch (it is read before the line runs).
    fn reads_network(&self, line: &str) -> bool;

    /// Whether the next line answers a password prompt (not echoed, not logged).
    fn asking_password(&self) -> bool {
        false
    }

    /// The password `enable` asks for, when the switch has one (a fault sets it).
    fn set_enable_password(&mut self, _password: Option<String>) {}

    /// One line typed at the prompt of `sw`, cabled into `world`; `logins` are the sessions
    /// on the switch.
    fn input(
        &mut self,
        sw: &mut dyn LabSwitch,
        line: &str,
        world: Option<&crate::lab::network::World>,
        logins: &std::collections::BTreeMap<u64, crate::lab::Login>,
    ) -> (crate::lab::Reply, LabEffect);

    /// What `?` prints after `typed` (the line up to the cursor) on `sw`.
    fn help(&self, sw: &dyn LabSwitch, typed: &str) -> String;

    /// What Tab does after `typed` (the line up to the cursor): nothing unless the OS's
    /// completion is modeled.
    fn complete(&self, _typed: &str) -> crate::lab::Completion {
        crate::lab::Completion::default()
    }
}

impl Clone for Box<dyn LabSwitch> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

impl Clone for Box<dyn LabSession> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
