//! RoCE best-practice rules over switch configurations: each rule has a stable id, a
//! severity, the profiles it applies to and a doc (what it checks, why it matters, how to
//! fix), and reads one switch ([`Facts`]) or the whole fabric ([`Fleet`]: both ends of each
//! link, the same settings everywhere). Input: [`Input`]; output: findings, sorted, with the
//! findings of one rule on consecutive ports grouped into one Onyx range. Nothing here prints
//! or reads files; [`report`] formats.
//!
//! How a config's RoCE parts are recognised, without a fabric to say so: the *RoCE traffic
//! classes* are those with ECN configured on some port (Onyx maps switch priority N to
//! traffic class N by default, as the reference guide relies on); the *RoCE ports* are the
//! Ethernet ports with ECN on such a class, in PFC mode (an MLAG IPL's members aside: NVIDIA's
//! MLAG recipe puts the IPL in PFC mode on any switch), or trusting L3 where some port marks
//! ECN; the *lossless priorities* are those a lossless traffic pool maps, or priority 3 under
//! the one-shot `roce` mode. A switch *carries RoCE* when it has any of these.
//!
//! The rules read each switch through its OS-neutral [`view::View`], which the switch's OS
//! builds ([`crate::targets::Audited`]), so one rule id means the same on every OS; a rule
//! about a part only some OSes have (Onyx's traffic pools, its `roce` mode, the routing and
//! MLAG rules, which read the Onyx model) names the part ([`Rule::part`]), and runs on the
//! switches of the OSes that say they have it ([`crate::targets::Audit::parts`]). Where a
//! finding's fix or message differs by OS, the OS spells it ([`crate::targets::Fixes`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::fabric::Hardware;
use crate::onyx::Config;
use crate::targets::{self, Fixes, SwitchOs};
use crate::types::{Dscp, Port, RoceMode, Speed, Trust};
use crate::types::{Iface, IfaceRange};
use view::{PortView, View};

mod detection;
mod fleet;
pub mod report;
mod routing;
mod rules;
pub mod view;

pub use rules::RULES;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        })
    }
}

/// What the fabric is meant to be: lossless RoCE (PFC on the RoCE priority, ECN as the
/// first brake) or lossy RoCE (ECN only, no PFC anywhere; NVIDIA's "Resilient RoCE").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    #[default]
    RoceLossless,
    RoceLossy,
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Profile::RoceLossless => "roce-lossless",
            Profile::RoceLossy => "roce-lossy",
        })
    }
}

/// Which profiles a rule belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    Both,
    Only(Profile),
}

/// What a rule reads beyond the RoCE view every OS gives: a part of a switch's configuration
/// that only some OSes have (or whose rules read it in one OS's model). An OS says which it
/// has ([`crate::targets::Audit::parts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Traffic pools (Onyx's; OS10 buffers by PFC class, not by pool).
    Pools,
    /// Onyx's one-shot `roce` mode.
    RoceMode,
    /// BGP, interface addresses, routed cables and MLAG pairs, as the routing rules read them
    /// (in the Onyx model).
    Routing,
}

/// One switch to audit.
#[derive(Clone, Debug)]
pub struct Switch {
    /// Its configuration, in its OS's model.
    pub config: Box<dyn targets::Config>,
    /// The model, when a fabric says it: native port speeds for the speed-aware rules.
    pub model: Option<Hardware>,
    /// `Unsaved changes : yes` from `show configuration files` (live audits only).
    pub unsaved: Option<bool>,
    /// Drift from the fabric (audits with a fabric and running configs): per drifted object,
    /// the command that fixes it.
    pub drift: Vec<Drift>,
}

impl Switch {
    /// A switch with this configuration, of any OS.
    pub fn new(config: impl targets::Config) -> Switch {
        Switch::of(Box::new(config))
    }

    /// A switch with a configuration read or compiled behind the switch-OS interface.
    pub fn of(config: Box<dyn targets::Config>) -> Switch {
        Switch {
            config,
            model: None,
            unsaved: None,
            drift: Vec::new(),
        }
    }

    /// A fabric's switch as it compiles, with its model.
    pub fn compiled(sw: &crate::fabric::Switch) -> Switch {
        let mut s = Switch::of(crate::compile::compile_config(sw));
        s.model = Some(sw.model);
        s
    }

    /// The switch's OS.
    pub fn target(&self) -> &'static dyn SwitchOs {
        self.config.target()
    }

    /// The switch's RoCE view.
    pub fn view(&self) -> View {
        self.config.view(self.model)
    }
}

/// One drifted object and the command that brings it back to the fabric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drift {
    pub object: String,
    pub command: String,
    /// The interfaces the object is, as the switch's view names them (empty: a switch-wide
    /// object, a pool, a VLAN). On these the drift's command is the one fix an audit prints
    /// ([`DRIFT_RULE`]).
    pub ifaces: BTreeSet<Iface>,
}

/// The rule whose finding carries a drifted object's fix: the commands that bring it to the
/// fabric. With a fabric given, another rule's finding on a drifted interface prints no
/// command of its own: the fix is the fabric's (R036's), and where the fabric's value breaks
/// that rule too (a RoCE port the fabric leaves at MTU 1500), the fabric file is what to
/// change. So a port drifted to MTU 9000 gets one command, never R036's `mtu 9216 force` or
/// `no mtu` beside R008's `mtu 9216 force`.
pub const DRIFT_RULE: &str = "R036";

/// A cable between two switch ports.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link {
    pub a: (String, Port),
    pub b: (String, Port),
}

/// Everything an audit reads.
#[derive(Clone, Debug, Default)]
pub struct Input {
    pub switches: BTreeMap<String, Switch>,
    /// Cables between audited switches (from the fabric, else from descriptions).
    pub links: Vec<Link>,
    pub profile: Profile,
}

/// One finding: a rule broken on a switch, with the configuration line at fault when there
/// is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub switch: String,
    pub rule: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub message: String,
    /// The interfaces, as an Onyx range (`ethernet 1/1-1/8`), for a per-port finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interfaces: Option<String>,
    /// The offending line as the switch prints it, or the line that is missing, or the
    /// command that fixes a drift.
    pub line: Option<String>,
}

/// A rule's or a check's documentation as `fabric explain` prints it: its heading, then
/// what it checks, why it matters, how to fix it.
pub fn explain_text(heading: &str, what: &str, why: &str, fix: &str) -> String {
    explain_doc(heading, what, why, None, fix)
}

/// [`explain_text`] with an example (a diagnostic code's): every line of each part indented
/// under its title.
pub fn explain_doc(
    heading: &str,
    what: &str,
    why: &str,
    example: Option<&str>,
    fix: &str,
) -> String {
    let mut text = format!("{heading}\n");
    let parts = [
        ("What it checks", Some(what)),
        ("Why it matters", Some(why)),
        ("Example", example),
        ("How to fix", Some(fix)),
    ];
    for (title, body) in parts {
        let Some(body) = body else { continue };
        text.push_str(&format!("\n{title}\n"));
        for line in body.lines() {
            if line.is_empty() {
                text.push('\n');
            } else {
                text.push_str(&format!("  {line}\n"));
            }
        }
    }
    text
}

/// A rule and its documentation.
pub struct Rule {
    pub id: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub applies: Applies,
    /// The part the rule reads beyond the RoCE view, for a rule about what only some OSes
    /// have; `None`: every OS's switches.
    pub part: Option<Part>,
    pub what: &'static str,
    pub why: &'static str,
    pub fix: &'static str,
    check: Check,
}

enum Check {
    /// Reads one switch.
    Switch(fn(&Facts) -> Vec<Hit>),
    /// Reads every switch and the links between them; hits by switch name.
    Fabric(fn(&Fleet) -> Vec<(String, Hit)>),
}

impl Rule {
    /// The rule's doc, as `fabric explain` prints it.
    pub fn explain(&self) -> String {
        let applies = match self.applies {
            Applies::Both => "both profiles".to_string(),
            Applies::Only(p) => format!("the {p} profile only"),
        };
        let scope = match self.check {
            Check::Switch(_) => "each switch",
            Check::Fabric(_) => "the fabric (links, or every switch together)",
        };
        let os = match self.only() {
            None => String::new(),
            Some(os) => format!("; {os} switches only"),
        };
        explain_text(
            &format!(
                "{} {} ({}; {applies}{os}; reads {scope})",
                self.id, self.name, self.severity
            ),
            self.what,
            self.why,
            self.fix,
        )
    }

    pub fn applies_to(&self, profile: Profile) -> bool {
        match self.applies {
            Applies::Both => true,
            Applies::Only(p) => p == profile,
        }
    }

    /// Whether the rule reads switches of this OS.
    pub fn reads(&self, os: crate::fabric::Os) -> bool {
        self.reads_parts(os.target().audit().parts())
    }

    /// Whether the rule reads the switches of an OS with these parts.
    fn reads_parts(&self, parts: &[Part]) -> bool {
        self.part.is_none_or(|p| parts.contains(&p))
    }

    /// The OSes whose switches the rule reads, by title (`Onyx`), when it does not read every
    /// OS's.
    pub fn only(&self) -> Option<String> {
        let every = targets::all();
        let titles: Vec<&str> = (every.iter())
            .filter(|t| self.reads_parts(t.audit().parts()))
            .map(|t| t.words().title)
            .collect();
        (titles.len() < every.len()).then(|| titles.join(" and "))
    }
}

/// What a check found: the interface (for per-port hits), the message (without the
/// interface), and the configuration line at fault (without `interface <iface> ` for
/// per-port hits).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Hit {
    iface: Option<Iface>,
    message: String,
    line: Option<String>,
}

fn hit(message: impl Into<String>, line: Option<String>) -> Hit {
    Hit {
        iface: None,
        message: message.into(),
        line,
    }
}

fn port_hit(iface: Iface, message: impl Into<String>, rest: impl Into<String>) -> Hit {
    Hit {
        iface: Some(iface),
        message: message.into(),
        line: Some(rest.into()),
    }
}

/// A per-port hit with the port's line when the OS has one (`None`: a note).
fn port_hit_or_note(iface: Iface, message: impl Into<String>, rest: Option<String>) -> Hit {
    Hit {
        iface: Some(iface),
        message: message.into(),
        line: rest,
    }
}

/// A per-port hit without a line: the message says what is wrong.
fn port_note(iface: Iface, message: impl Into<String>) -> Hit {
    Hit {
        iface: Some(iface),
        message: message.into(),
        line: None,
    }
}

/// What the rules read from one switch, worked out once: its view, and the sets every rule
/// needs.
pub struct Facts<'a> {
    sw: &'a Switch,
    /// The switch's OS.
    target: &'static dyn SwitchOs,
    /// The parts beyond the view its OS has ([`Part`]).
    parts: &'static [Part],
    /// How its OS spells a fix.
    fixes: &'static Fixes,
    /// The configuration in the Onyx model, for the rules of the parts that read it (empty on
    /// an OS without them: those rules are not run on its switches, and the fabric's routing
    /// index finds nothing there).
    config: &'a Config,
    view: &'a View,
    profile: Profile,
    /// Traffic classes with ECN on some port.
    roce_classes: BTreeSet<u8>,
    /// Priorities made lossless: by a pool or the `roce` mode (Onyx); by a paused class
    /// (OS10, which buffers each PFC class losslessly and has no pools).
    lossless: BTreeSet<u8>,
    /// Priorities with PFC on: global PFC enabled and the priority enabled, or `roce` mode.
    pfc_on: BTreeSet<u8>,
    /// Some port trusts L3.
    dscp_mode: bool,
    /// Ethernet ports carrying RoCE, with their settings.
    roce_ports: Vec<(Iface, &'a PortView)>,
}

/// The (empty) Onyx-model configuration of a switch whose OS has none.
static NO_ONYX: std::sync::LazyLock<Config> = std::sync::LazyLock::new(Config::empty);

impl<'a> Facts<'a> {
    fn new(sw: &'a Switch, view: &'a View, profile: Profile) -> Facts<'a> {
        let target = sw.target();
        let config = sw.config.onyx_model().unwrap_or(&NO_ONYX);
        let roce_classes: BTreeSet<u8> = view
            .ports
            .values()
            .flat_map(|i| i.ecn.keys().map(|tc| tc.get()))
            .collect();
        let lossless = view
            .lossless_pools
            .clone()
            .unwrap_or_else(|| view.pfc.priorities.clone());
        let mut pfc_on = view.pfc.priorities.clone();
        if matches!(view.roce_mode, Some(RoceMode::Lossless)) {
            pfc_on.insert(3);
        }
        let dscp_mode = view.ports.values().any(|i| i.trust == Some(Trust::L3));
        // NVIDIA's MLAG recipe puts the IPL in PFC mode on any switch, RoCE or not (the ESF
        // configuration: global PFC, then PFC on the IPL port-channel), and a bundle's members
        // are configured as the bundle: PFC mode alone on an IPL member says nothing of RoCE.
        let roce_ports = view
            .ports
            .iter()
            .filter(|(k, i)| {
                matches!(k, Iface::Ethernet(_))
                    && (!i.ecn.is_empty()
                        || (i.pfc && !i.ipl_member)
                        || (i.trust == Some(Trust::L3) && !roce_classes.is_empty()))
            })
            .map(|(k, i)| (*k, i))
            .collect();
        Facts {
            sw,
            target,
            parts: target.audit().parts(),
            fixes: target.audit().fixes(),
            config,
            view,
            profile,
            roce_classes,
            lossless,
            pfc_on,
            dscp_mode,
            roce_ports,
        }
    }

    /// Whether the switch carries RoCE at all.
    fn has_roce(&self) -> bool {
        !self.roce_ports.is_empty() || !self.lossless.is_empty() || self.view.roce_mode.is_some()
    }

    /// A port's speed: its `speed` setting, else the model's native speed when known.
    fn speed(&self, port: Port) -> Option<Speed> {
        self.view.speed(port)
    }

    /// Whether the switch's OS has a part beyond the view.
    fn has(&self, part: Part) -> bool {
        self.parts.contains(&part)
    }
}

/// What a host cabled to one switch port must agree with: the port's RoCE facts, read from
/// the switch's configuration (a bundle member's QoS is its port-channel's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PortRoce {
    pub trust: Trust,
    /// Priorities that pause on this port: global PFC's, when the port is in PFC mode (or
    /// under the one-shot `roce` mode, which runs PFC on priority 3 itself).
    pub pfc: BTreeSet<u8>,
    /// Priorities a lossless pool holds (or 3 under `roce`).
    pub lossless: BTreeSet<u8>,
    /// Traffic classes scheduled strict.
    pub strict: BTreeSet<u8>,
    /// The port's MTU (Onyx's default, 1500, without an `mtu` line).
    pub mtu: u16,
}

impl PortRoce {
    /// The switch priority a DSCP lands on: Onyx's default map (DSCP / 8) under `qos trust
    /// L3` or `both`; `None` when the port does not classify by DSCP.
    pub fn priority_of(&self, dscp: Dscp) -> Option<u8> {
        matches!(self.trust, Trust::L3 | Trust::Both).then(|| dscp.default_priority().get())
    }
}

/// The RoCE facts of one Ethernet port of a switch's view (a port the configuration does
/// not list has the OS's defaults).
pub fn port_roce(view: &View, port: Port) -> PortRoce {
    let own = view.port(Iface::Ethernet(port));
    // A bundle's members are configured through the bundle: trust, PFC mode and ETS are the
    // port-channel's; the MTU stays on the member.
    let qos = own.lag.and_then(|l| view.ports.get(&l)).unwrap_or(own);
    let roce = matches!(view.roce_mode, Some(RoceMode::Lossless));
    let mut pfc_on = view.pfc.priorities.clone();
    if roce {
        pfc_on.insert(3);
    }
    PortRoce {
        // A port that classifies by nothing (OS10 without a trust map) keeps its port's
        // default priority, Onyx's `trust port`.
        trust: view.trust(qos).unwrap_or(Trust::Port),
        pfc: if qos.pfc || roce {
            pfc_on
        } else {
            BTreeSet::new()
        },
        lossless: view
            .lossless_pools
            .clone()
            .unwrap_or_else(|| view.pfc.priorities.clone()),
        strict: qos
            .ets
            .iter()
            .filter(|(_, e)| **e == crate::types::Ets::Strict)
            .map(|(tc, _)| tc.get())
            .collect(),
        mtu: own.mtu.or(qos.mtu).unwrap_or(view.default_mtu),
    }
}

/// Every switch's facts, the links between them, and who owns which address.
pub struct Fleet<'a> {
    facts: BTreeMap<&'a str, Facts<'a>>,
    links: &'a [Link],
    routing: routing::Index<'a>,
}

impl<'a> Fleet<'a> {
    /// Each link between two audited switches, with both ends' facts.
    fn cables(&self) -> Vec<[(&'a str, Port, &Facts<'a>); 2]> {
        self.links
            .iter()
            .filter_map(|l| {
                let (a, fa) = self.facts.get_key_value(l.a.0.as_str())?;
                let (b, fb) = self.facts.get_key_value(l.b.0.as_str())?;
                Some([(*a, l.a.1, fa), (*b, l.b.1, fb)])
            })
            .collect()
    }

    /// The cables between two switches whose OSes have `part`, for the rules that read it.
    fn cables_with(&self, part: Part) -> Vec<[(&'a str, Port, &Facts<'a>); 2]> {
        let mut all = self.cables();
        all.retain(|ends| ends.iter().all(|e| e.2.has(part)));
        all
    }
}

/// The rule with this id (`R001`) or name.
pub fn rule(id: &str) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|r| r.id.eq_ignore_ascii_case(id) || r.name == id)
}

/// Every finding on every switch: switches by name, then rules by id, then interfaces in
/// order, hits of one rule with the same message on consecutive ports as one range.
pub fn audit(input: &Input) -> Vec<Finding> {
    let views: Vec<View> = input.switches.values().map(Switch::view).collect();
    let facts: BTreeMap<&str, Facts> = input
        .switches
        .iter()
        .zip(&views)
        .map(|((name, sw), view)| (name.as_str(), Facts::new(sw, view, input.profile)))
        .collect();
    let routing = routing::Index::new(&facts, &input.links);
    let fleet = Fleet {
        facts,
        links: &input.links,
        routing,
    };
    let mut hits: BTreeMap<(&str, usize), Vec<Hit>> = BTreeMap::new();
    for (index, rule) in RULES.iter().enumerate() {
        if !rule.applies_to(input.profile) {
            continue;
        }
        match rule.check {
            Check::Switch(check) => {
                for (name, f) in &fleet.facts {
                    if rule.reads_parts(f.parts) {
                        hits.entry((name, index)).or_default().extend(check(f));
                    }
                }
            }
            Check::Fabric(check) => {
                for (name, h) in check(&fleet) {
                    if let Some((name, f)) = fleet.facts.get_key_value(name.as_str())
                        && rule.reads_parts(f.parts)
                    {
                        hits.entry((name, index)).or_default().push(h);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for ((name, index), mut hits) in hits {
        let rule = &RULES[index];
        let target = fleet.facts[name].target;
        if rule.id != DRIFT_RULE {
            defer_to_drift(&mut hits, &input.switches[name].drift);
        }
        hits.sort_by(|a, b| (&a.message, &a.line, a.iface).cmp(&(&b.message, &b.line, b.iface)));
        hits.dedup();
        let mut grouped = group(hits);
        grouped.sort_by(|a, b| (a.0, &a.1.message).cmp(&(b.0, &b.1.message)));
        for (range, h) in grouped {
            let (message, interfaces, line) = match range {
                Some(r) => {
                    let name = target.iface_range(r);
                    let line = h.line.map(|l| target.audit().on_interfaces(r, &name, &l));
                    (format!("{name}: {}", h.message), Some(name), line)
                }
                None => (h.message, None, h.line),
            };
            out.push(Finding {
                switch: name.to_string(),
                rule: rule.id,
                name: rule.name,
                severity: rule.severity,
                message,
                interfaces,
                line,
            });
        }
    }
    out
}

/// A finding on a drifted interface prints no command of its own: the drift's is its one
/// fix ([`DRIFT_RULE`]).
fn defer_to_drift(hits: &mut [Hit], drift: &[Drift]) {
    if drift.is_empty() {
        return;
    }
    let drifted: BTreeSet<Iface> = drift
        .iter()
        .flat_map(|d| d.ifaces.iter().copied())
        .collect();
    for h in hits {
        if h.iface.is_some_and(|i| drifted.contains(&i)) {
            h.line = None;
        }
    }
}

/// The audited switches that carry no RoCE (no ECN, PFC, lossless priority or RoCE port):
/// the RoCE rules had nothing to check there, which a report says rather than let a clean
/// score stand for a RoCE verdict.
pub fn without_roce(input: &Input) -> Vec<&str> {
    input
        .switches
        .iter()
        .filter(|(_, sw)| {
            let view = sw.view();
            let facts = Facts::new(sw, &view, input.profile);
            !facts.has_roce() && facts.pfc_on.is_empty()
        })
        .map(|(name, _)| name.as_str())
        .collect()
}

/// Hits on consecutive interfaces with the same message and line, as one range; `hits` are
/// sorted by message, line, then interface.
fn group(hits: Vec<Hit>) -> Vec<(Option<IfaceRange>, Hit)> {
    let mut out: Vec<(Option<IfaceRange>, Hit)> = Vec::new();
    for h in hits {
        if let (Some((Some(range), last)), Some(iface)) = (out.last_mut(), h.iface)
            && range.last.precedes(iface)
            && last.message == h.message
            && last.line == h.line
        {
            range.last = iface;
            continue;
        }
        out.push((h.iface.map(IfaceRange::one), h));
    }
    out
}

/// A switch's score out of 100, from its findings: 20 off per error rule broken, 5 per warning rule, 1 per
/// info rule (each rule counts once, however many ports break it), never below 0.
pub fn score<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> u32 {
    let broken: BTreeSet<(&str, Severity)> =
        findings.into_iter().map(|f| (f.rule, f.severity)).collect();
    let penalty: u32 = broken
        .iter()
        .map(|(_, s)| match s {
            Severity::Error => 20,
            Severity::Warning => 5,
            Severity::Info => 1,
        })
        .sum();
    100u32.saturating_sub(penalty)
}

/// The cables between a fabric's switches, each once, its ends in name order.
pub fn fabric_links(fabric: &crate::fabric::Fabric) -> Vec<Link> {
    let mut links = BTreeSet::new();
    for sw in fabric.switches.values() {
        for (port, settings) in &sw.ports {
            if let Some(crate::fabric::Peer::Switch { switch, port: peer }) = &settings.peer {
                let ends = [
                    (sw.hostname.to_string(), *port),
                    (switch.to_string(), *peer),
                ];
                let [a, b] = if ends[0] <= ends[1] {
                    ends
                } else {
                    [ends[1].clone(), ends[0].clone()]
                };
                links.insert(Link { a, b });
            }
        }
    }
    links.into_iter().collect()
}

/// What an audit reads of a fabric before deployment: each chosen switch's compiled config
/// with its model, and the fabric's cables.
pub fn planned(
    fabric: &crate::fabric::Fabric,
    chosen: &[&crate::fabric::Switch],
    profile: Profile,
) -> Input {
    let mut input = Input {
        profile,
        links: fabric_links(fabric),
        ..Input::default()
    };
    for sw in chosen {
        input
            .switches
            .insert(sw.hostname.to_string(), Switch::compiled(sw));
    }
    input
}

/// Links named by descriptions: a port whose description is another audited switch's name
/// followed by one of its ports (`sw-spine02-1/10`, `leaf-2:1/31`, `leaf-2 Eth1/31/2`); names
/// compare without case. Each cable once, even when both ends describe it.
pub fn links_from_descriptions(switches: &BTreeMap<String, Switch>) -> Vec<Link> {
    let names: BTreeMap<String, &String> = switches
        .keys()
        .map(|n| (n.to_ascii_lowercase(), n))
        .collect();
    let mut out = BTreeSet::new();
    for (name, sw) in switches {
        for (port, desc) in sw.config.descriptions() {
            let port = &port;
            let desc = desc.trim();
            // Each place a separator could end the switch's name.
            for (at, _) in desc.match_indices([':', '-', ' ', '_', '/']) {
                let Some(other) = names.get(&desc[..at].to_ascii_lowercase()) else {
                    continue;
                };
                if *other == name {
                    continue;
                }
                let rest = desc[at..].trim_start_matches([':', '-', '_', ' ', '/']);
                let rest = ["ethernet", "eth"]
                    .iter()
                    .find_map(|p| strip_prefix_ignore_case(rest, p))
                    .unwrap_or(rest)
                    .trim_start();
                // The peer's port is named as its OS names it (OS10: `1/1/49` is port 49).
                let peer = switches[*other].target().audit().described_port(rest);
                if let Some(peer) = peer {
                    let ends = [(name.clone(), *port), ((*other).clone(), peer)];
                    let [a, b] = if ends[0] <= ends[1] {
                        ends
                    } else {
                        [ends[1].clone(), ends[0].clone()]
                    };
                    out.insert(Link { a, b });
                    break;
                }
            }
        }
    }
    out.into_iter().collect()
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}
