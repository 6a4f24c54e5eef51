//! `(running, intended)` → the OS10 CLI that turns one into the other, in OS10's hierarchical
//! configuration mode: enter a block (`interface ethernet1/1/1`, `policy-map type network-qos
//! pp` → `class c`, `router bgp 65001` → `neighbor 10.0.0.1`), set or negate its lines, `exit`.
//!
//! The same shape as the Onyx side (`crate::onyx::plan`): [`target`] decides what the switch should look
//! like — the intended state for what the model knows, the running config for what it keeps
//! verbatim (top-level text, unknown lines inside blocks), for what a command cannot take back (a
//! port's or neighbor's `shutdown`/`no shutdown`), for physical ports (never deleted, but
//! re-created with no settings when their breakout map or port-group mode changes), for a port's
//! breakout map and a port group's mode the intent does not state, for a `system qos` that holds
//! lines the model does not know, and for the order of named items the switch keeps in creation
//! order — and [`plan`] lists the steps such that applying them
//! ([`script::apply`](super::script::apply)) to the running config gives the target. Each step
//! carries its impact class ([`rules::RULES`]); the order over the top level is data
//! ([`rules::STAGES`]); negations are spelled from one table ([`rules::NEGATIONS`]), with the
//! unconfirmed ones marked. A block the intent deletes (a port-channel, a neighbor, a class-map)
//! goes with its verbatim lines: the block is the unit the intent manages. The roll-back of a plan
//! is the plan back: `plan(target, running)`.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::names;
use super::{Config, Iface, Kind};
use crate::diff::Impact;

mod nodes;
pub mod rules;
mod target;

pub use nodes::reanchored;
use nodes::{Node, nodes, same};
pub use target::{deletable, target};

use rules::{Field, Stage};

/// One command of a plan: typed in the mode reached by entering `mode`'s block headers from
/// configuration mode, in order. `opens` when the command itself enters a block (a block
/// created here: the steps after it are typed inside it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    pub mode: Vec<String>,
    pub command: String,
    pub opens: bool,
    pub impact: Impact,
    /// What this deletion takes that no plan can type back: the deleted block's lines the model
    /// does not know (a neighbor's `password 9 …`, kept verbatim), secrets masked. A rollback
    /// re-creates the block without them; push must say so before it sends the step.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loses: Vec<String>,
}

impl Step {
    /// As a reviewer reads it: the blocks it is typed in, then the command.
    pub fn shown(&self) -> String {
        if self.mode.is_empty() {
            self.command.clone()
        } else {
            format!("{}: {}", self.mode.join(": "), self.command)
        }
    }

    /// Why this step cannot be rolled back in full, for a reviewer or a push that refuses it.
    pub fn loss(&self) -> Option<String> {
        (!self.loses.is_empty()).then(|| {
            format!(
                "`{}` deletes {} line(s) the model does not know, which a rollback cannot restore: {}",
                self.command,
                self.loses.len(),
                self.loses.join("; ")
            )
        })
    }
}

/// The verbatim lines a deletion at the top level or in `router bgp` takes with its block.
fn lost(running: &Config, mode: &[String], command: &str) -> Vec<String> {
    let words: Vec<&str> = command.split(' ').collect();
    // A `!` closes a block: nothing to lose.
    let texts = |x: &super::Extras| -> Vec<String> {
        x.iter()
            .map(|(_, t)| t.trim().to_string())
            .filter(|t| t != "!")
            .collect()
    };
    let peer = |p: &super::Peer| -> Vec<String> {
        let mut v = texts(&p.extras);
        if let Some(af) = &p.ipv4 {
            v.extend(texts(&af.extras));
        }
        v
    };
    let bgp = running.bgp.as_ref();
    let out: Vec<String> = match (mode, words.as_slice()) {
        ([], ["no", "router", "bgp"]) => bgp.map_or(Vec::new(), |b| {
            let mut v = texts(&b.extras);
            v.extend(b.ipv4.iter().flat_map(|af| texts(&af.extras)));
            v.extend(b.templates.iter().flat_map(|(_, p)| peer(p)));
            v.extend(b.neighbors.iter().flat_map(|(_, p)| peer(p)));
            v
        }),
        ([m], ["no", "neighbor", a]) if m.starts_with("router bgp") => bgp
            .and_then(|b| b.neighbors.iter().find(|(x, _)| x.to_string() == *a))
            .map_or(Vec::new(), |(_, p)| peer(p)),
        ([m], ["no", "template", t]) if m.starts_with("router bgp") => bgp
            .and_then(|b| b.templates.iter().find(|(x, _)| x == t))
            .map_or(Vec::new(), |(_, p)| peer(p)),
        ([], ["no", "interface", i]) => names::Iface::parse(i)
            .ok()
            .flatten()
            .and_then(|i| running.interfaces.get(&i))
            .map_or(Vec::new(), |e| texts(&e.extras)),
        ([], ["no", "vlt-domain", _]) => running
            .vlt
            .as_ref()
            .map_or(Vec::new(), |v| texts(&v.extras)),
        _ => Vec::new(),
    };
    // Secrets masked as OS10 masks them (`password 9 ****`).
    out.iter()
        .map(|l| crate::secrets::mask(l, super::dialect::MASK).into_owned())
        .collect()
}

/// Collects the steps of a plan.
struct Planner {
    steps: Vec<Step>,
}

impl Planner {
    fn push(&mut self, mode: &[String], command: String, opens: bool, impact: Impact) {
        self.steps.push(Step {
            mode: mode.to_vec(),
            command,
            opens,
            impact,
            loses: Vec::new(),
        });
    }

    /// Takes `n` away in `mode`. A line OS10 cannot negate never gets here: [`target`] keeps it.
    fn remove(&mut self, mode: &[String], n: &Node) {
        let value = if n.key.is_empty() { &n.line } else { &n.key };
        let command = match (n.field, rules::negation(n.field, value)) {
            (Field::TrunkAllowed, _) => {
                // `no switchport trunk allowed vlan L` takes exactly the listed VLANs away.
                let list = n.line.rsplit(' ').next().unwrap_or_default();
                format!("no switchport trunk allowed vlan {list}")
            }
            (_, Some(c)) => c,
            (_, None) => return,
        };
        self.push(mode, command, false, rules::impact(n.field, false));
    }

    /// Creates `n` and everything in it in `mode`. What is typed inside a block created here
    /// has the block's impact: nothing uses the block yet (a new class-map, port-channel or
    /// neighbor), or everything that uses it does (a new class in a policy-map in use).
    fn create(&mut self, mode: &[String], n: &Node, inherited: Option<Impact>) {
        let impact = inherited.unwrap_or_else(|| rules::impact(n.field, true));
        self.push(mode, n.line.clone(), n.block, impact);
        let inner = [mode, std::slice::from_ref(&n.line)].concat();
        for k in &n.kids {
            self.create(&inner, k, Some(impact));
        }
    }

    /// Changes a block's lines from `old` to `new`: removals first, in the reverse of the
    /// printed order, then settings in printed order.
    fn lines(&mut self, mode: &[String], old: &[Node], new: &[Node]) {
        self.removals(mode, old, new, false);
        self.settings(mode, old, new);
    }

    /// The removal half of [`Planner::lines`]; `deep`: in the sub-blocks too (a stage that
    /// only unsets, [`Stage::Unset`]).
    fn removals(&mut self, mode: &[String], old: &[Node], new: &[Node], deep: bool) {
        // A port leaves its port-channel before anything else of it changes (a member's own
        // settings are the port-channel's).
        let lag = old.iter().filter(|o| o.field == Field::ChannelGroup);
        let rest = old.iter().rev().filter(|o| o.field != Field::ChannelGroup);
        for o in lag.chain(rest) {
            match new.iter().find(|n| same(o, n)) {
                None => self.remove(mode, o),
                // A port moves to another port-channel by leaving the one it is in.
                Some(n) if o.field == Field::ChannelGroup && o.line != n.line => {
                    self.remove(mode, o)
                }
                Some(n) if o.field == Field::TrunkAllowed => {
                    let gone: crate::types::VlanSet =
                        vlans(&o.line).difference(&vlans(&n.line)).collect();
                    if !gone.is_empty() {
                        self.push(
                            mode,
                            format!(
                                "no switchport trunk allowed vlan {}",
                                names::format_vlans(&gone)
                            ),
                            false,
                            rules::impact(Field::TrunkAllowed, false),
                        );
                    }
                }
                Some(n) if deep && o.block => {
                    let inner = [mode, std::slice::from_ref(&o.line)].concat();
                    self.removals(&inner, &o.kids, &n.kids, true);
                }
                Some(_) => {}
            }
        }
    }

    /// The setting half of [`Planner::lines`].
    fn settings(&mut self, mode: &[String], old: &[Node], new: &[Node]) {
        for n in new {
            match old.iter().find(|o| same(o, n)) {
                None => self.create(mode, n, None),
                Some(o) if n.block => {
                    let inner = [mode, std::slice::from_ref(&n.line)].concat();
                    self.lines(&inner, &o.kids, &n.kids);
                }
                Some(o) if n.field == Field::TrunkAllowed => {
                    let added: crate::types::VlanSet =
                        vlans(&n.line).difference(&vlans(&o.line)).collect();
                    if !added.is_empty() {
                        self.push(
                            mode,
                            format!(
                                "switchport trunk allowed vlan {}",
                                names::format_vlans(&added)
                            ),
                            false,
                            rules::impact(Field::TrunkAllowed, true),
                        );
                    }
                }
                Some(o) if o.line != n.line => {
                    self.push(mode, n.line.clone(), false, rules::impact(n.field, true))
                }
                Some(_) => {}
            }
        }
    }
}

/// `old` after [`Planner::removals`] (deep) towards `new`: what was taken away is gone.
fn pruned(old: &Node, new: &Node) -> Node {
    let kids = old
        .kids
        .iter()
        .filter_map(|o| {
            let n = new.kids.iter().find(|n| same(o, n))?;
            if o.field == Field::ChannelGroup && o.line != n.line {
                return None;
            }
            if o.field == Field::TrunkAllowed {
                let kept: crate::types::VlanSet = vlans(&o.line)
                    .iter()
                    .filter(|v| vlans(&n.line).contains(*v))
                    .collect();
                let mut x = o.clone();
                x.line = format!(
                    "switchport trunk allowed vlan {}",
                    names::format_vlans(&kept)
                );
                return Some(x);
            }
            Some(if o.block { pruned(o, n) } else { o.clone() })
        })
        .collect();
    Node {
        kids,
        ..old.clone()
    }
}

/// The VLANs of a `switchport trunk allowed vlan L` line this module printed.
fn vlans(line: &str) -> crate::types::VlanSet {
    line.rsplit(' ')
        .next()
        .and_then(|l| names::parse_vlans(l).ok())
        .unwrap_or_default()
}

/// The steps that turn `running` into [`target`]`(running, intended)`, in [`rules::STAGES`]
/// order.
pub fn plan(running: &Config, intended: &Config) -> Vec<Step> {
    // An interface that prints the same lines on both sides makes no step: of a switch's
    // thousands, only those that differ are compared (and copied into the target).
    let differing = target::differing(running, intended);
    let differs = |i: &Iface| differing.contains(i);
    let goal = target::goal(running, intended, differs);
    let mut old = nodes(running, differs);
    let new = nodes(&goal, |_| true);
    let mut p = Planner { steps: Vec::new() };
    for (stage, kind) in rules::STAGES {
        let kind = *kind;
        match stage {
            Stage::Unset => p.unset(&mut old, &new, kind),
            Stage::Set => p.set(&old, &new, kind),
            Stage::Vacate => {
                let gone = target::rebroken(running, &goal.breakouts, &goal.port_groups);
                let names: HashSet<String> = running
                    .interfaces
                    .keys()
                    .filter(|i| gone(i))
                    .map(|i| i.to_string())
                    .collect();
                p.vacate(&mut old, kind, &names);
            }
            Stage::Delete => p.delete(&old, &new, kind),
        }
    }
    for s in &mut p.steps {
        if s.command.starts_with("no ") {
            s.loses = lost(running, &s.mode, &s.command);
        }
    }
    p.steps
}

/// Items of a kind by what tells them apart: a switch has thousands of interfaces.
fn index(nodes: &[(Kind, Node)], kind: Kind) -> HashMap<(Field, String), usize> {
    nodes
        .iter()
        .enumerate()
        .filter(|(_, (k, _))| *k == kind)
        .map(|(i, (_, n))| ((n.field, n.key.clone()), i))
        .collect()
}

impl Planner {
    /// [`Stage::Unset`] of the blocks of `kind`: what the new side takes away, in the
    /// sub-blocks too; `old` pruned of it.
    fn unset(&mut self, old: &mut [(Kind, Node)], new: &[(Kind, Node)], kind: Kind) {
        let news = index(new, kind);
        for (k, o) in old {
            if *k != kind || !o.block {
                continue;
            }
            if let Some(&j) = news.get(&(o.field, o.key.clone())) {
                let n = &new[j].1;
                self.removals(std::slice::from_ref(&o.line), &o.kids, &n.kids, true);
                *o = pruned(o, n);
            }
        }
    }

    /// [`Stage::Set`] of the items of `kind`: each new one created, each changed one set.
    fn set(&mut self, old: &[(Kind, Node)], new: &[(Kind, Node)], kind: Kind) {
        let olds = index(old, kind);
        for (_, n) in new.iter().filter(|(k, _)| *k == kind) {
            match olds.get(&(n.field, n.key.clone())).map(|&i| &old[i].1) {
                Some(o) if n.block => self.lines(std::slice::from_ref(&n.line), &o.kids, &n.kids),
                Some(o) if o.line != n.line => {
                    self.push(&[], n.line.clone(), false, rules::impact(n.field, true))
                }
                Some(_) => {}
                None => {
                    // One VLT domain and one BGP instance: the old one goes first.
                    if matches!(kind, Kind::Vlt | Kind::Bgp) {
                        for (_, o) in old.iter().filter(|(k, _)| *k == kind) {
                            self.remove(&[], o);
                        }
                    }
                    self.create(&[], n, None);
                }
            }
        }
    }

    /// [`Stage::Vacate`] of the items of `kind` keyed by one of `names`, the interfaces a
    /// breakout or port-group change deletes: their lines taken away, and they left `old`.
    fn vacate(&mut self, old: &mut Vec<(Kind, Node)>, kind: Kind, names: &HashSet<String>) {
        let vacated = |k: &Kind, o: &Node| *k == kind && names.contains(&o.key);
        for (k, o) in old.iter() {
            if vacated(k, o) {
                self.removals(std::slice::from_ref(&o.line), &o.kids, &[], false);
            }
        }
        // The switch deletes them with the old map: the new map's are created.
        old.retain(|(k, o)| !vacated(k, o));
    }

    /// [`Stage::Delete`] of the items of `kind` the new side has not, last first.
    fn delete(&mut self, old: &[(Kind, Node)], new: &[(Kind, Node)], kind: Kind) {
        let news = index(new, kind);
        if matches!(kind, Kind::Vlt | Kind::Bgp) && !news.is_empty() {
            // Replaced while being set.
            return;
        }
        let gone = old
            .iter()
            .filter(|(k, o)| *k == kind && !news.contains_key(&(o.field, o.key.clone())));
        for (_, o) in gone.rev() {
            self.remove(&[], o);
        }
    }
}

/// The commands of a plan as typed: each block entered by its header and left by `exit`,
/// indented one space per level (the switch ignores the indentation), back in configuration
/// mode at the end.
pub fn script(steps: &[Step]) -> String {
    lines(steps, false)
}

/// [`script`] with each step's impact after it (`  [port-flap]`): what a reviewer reads.
pub fn review(steps: &[Step]) -> String {
    lines(steps, true)
}

fn lines(steps: &[Step], impacts: bool) -> String {
    let mut out = String::new();
    let mut cur: Vec<&str> = Vec::new();
    let pad = |n: usize| " ".repeat(n);
    for s in steps {
        let common = cur
            .iter()
            .zip(&s.mode)
            .take_while(|(a, b)| **a == b.as_str())
            .count();
        while cur.len() > common {
            cur.pop();
            out.push_str(&format!("{}exit\n", pad(cur.len() + 1)));
        }
        for h in &s.mode[common..] {
            out.push_str(&format!("{}{h}\n", pad(cur.len())));
            cur.push(h);
        }
        out.push_str(&pad(cur.len()));
        out.push_str(&s.command);
        if impacts {
            match s.loses.as_slice() {
                [] => out.push_str(&format!("  [{}]", s.impact)),
                l => out.push_str(&format!(
                    "  [{}; a rollback cannot restore: {}]",
                    s.impact,
                    l.join(" | ")
                )),
            }
        }
        out.push('\n');
        if s.opens {
            cur.push(&s.command);
        }
    }
    while !cur.is_empty() {
        cur.pop();
        out.push_str(&format!("{}exit\n", pad(cur.len() + 1)));
    }
    out
}

/// The commands of a reviewed plan (`review`'s text): the impacts taken off.
pub fn strip_review(text: &str) -> String {
    text.lines()
        .map(|l| match l.rfind("  [") {
            Some(i) if l.ends_with(']') => &l[..i],
            _ => l,
        })
        .fold(String::new(), |mut s, l| {
            s.push_str(l);
            s.push('\n');
            s
        })
}
