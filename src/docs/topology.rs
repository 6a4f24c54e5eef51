//! The fabric as a graph to draw: one node per switch, one node per group of hosts, one edge
//! per pair of nodes with every cable between them; and that graph as Mermaid source.
//!
//! Hosts are grouped so that a fabric of 128 GPU servers still draws as a few nodes: hosts
//! whose names differ only in their trailing number (`gpu001` … `gpu032`) and that are cabled
//! to the same switches make one node. Every cable stays in the edge's list (the SVG's
//! tooltips, the tables); labels in the pictures shorten long port lists: the Mermaid
//! diagram's one per line (both ends' ports), the SVG's one per end (that end's ports, the upper
//! one's after the count of cables, `4×`). A node's tier comes from its switch's role: spines
//! on top (an MLAG pair of spines too), every other switch under them, hosts at the bottom.
//! Every port is named as its switch's OS names it (Onyx `1/5`, OS10 `ethernet1/1/5`), each end
//! of a cable between an Onyx and an OS10 switch in its own spelling.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::fabric::{Fabric, Os, Peer, Role};
use crate::types::Port;

/// How a node is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Spine,
    Leaf,
    /// A switch of an MLAG pair, of its OS (an OS10 pair is VLT).
    Pair(Os),
    /// A switch without a role.
    Switch,
    Hosts,
}

impl Kind {
    /// The CSS class and Mermaid class of the kind (a pair's is its OS's word for it:
    /// `mlag`, `vlt`).
    pub fn class(self) -> Cow<'static, str> {
        match self {
            Kind::Spine => "spine".into(),
            Kind::Leaf => "leaf".into(),
            Kind::Pair(os) => os.target().words().pair.to_ascii_lowercase().into(),
            Kind::Switch => "switch".into(),
            Kind::Hosts => "hosts".into(),
        }
    }

    /// What the legend says.
    pub fn legend(self) -> Cow<'static, str> {
        match self {
            Kind::Spine => "spine".into(),
            Kind::Leaf => "leaf".into(),
            Kind::Pair(os) => format!("{} pair", os.target().words().pair).into(),
            Kind::Switch => "switch".into(),
            Kind::Hosts => "hosts".into(),
        }
    }

    /// Fill and stroke colours: light fills, so dark text reads on every kind.
    pub fn colours(self) -> (&'static str, &'static str) {
        match self {
            Kind::Spine => ("#a8c5f0", "#2f5d9e"),
            Kind::Leaf => ("#b9e2b1", "#3c7a32"),
            Kind::Pair(_) => ("#ffd49a", "#b06a00"),
            Kind::Switch => ("#c5e4e1", "#2f7a72"),
            Kind::Hosts => ("#e4e4e4", "#6b6b6b"),
        }
    }
}

#[derive(Clone)]
pub struct Node {
    /// The switch's name, or the host group's label.
    pub name: String,
    /// A second line: the model and AS of a switch, the number of hosts of a group.
    pub detail: String,
    pub kind: Kind,
    /// The picture's tier: spines (0), the other switches (1), hosts (2).
    pub tier: u8,
    /// The switch this node is (none for hosts, and for a group of switches).
    pub switch: Option<String>,
    /// The switch's OS (a group's: its first switch's); none for hosts.
    pub os: Option<Os>,
    /// The switch's model (a group's: its switches'); empty for hosts.
    pub model: &'static str,
}

impl Node {
    pub fn label(&self) -> String {
        if self.detail.is_empty() {
            self.name.clone()
        } else {
            format!("{}\n{}", self.name, self.detail)
        }
    }
}

/// One end of a cable: a node's name (a switch, or a host) and its port as that end names it
/// (a switch's port in its OS's spelling, a host's NIC, or nothing).
pub type End = (String, String);

#[derive(Clone)]
pub struct Edge {
    /// Nodes by index: `from` is drawn above `to`.
    pub from: usize,
    pub to: usize,
    /// Every cable, `from`'s end first, sorted.
    pub cables: Vec<(End, End)>,
    /// The ports, as short as the Mermaid diagram needs: `from`'s, then (after ↔) `to`'s.
    pub label: String,
    /// The picture's labels at each end: `from`'s ports (after the count of cables, `4×`,
    /// when more than one), then `to`'s ports or the hosts' NICs (empty when unnamed).
    pub ends: [String; 2],
    /// An MLAG pair's peer link (on OS10, the VLT interconnect).
    pub ipl: bool,
    /// The switch ports of `from` on this edge, sorted (between switches: one per cable, in
    /// the order of `cables`).
    pub ports: Vec<Port>,
    /// Between switches, the ports of `to`, one per cable in the order of `cables`; to hosts,
    /// none.
    pub far: Vec<Port>,
}

/// A group of hosts and where they are cabled.
pub struct HostGroup {
    pub node: usize,
    pub hosts: Vec<String>,
}

pub struct Topology {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub groups: Vec<HostGroup>,
}

/// One host's cables: by switch, the switch's ports and the host's port on each.
type HostCables = BTreeMap<String, Vec<(Port, Option<String>)>>;

/// A switch's tier: a spine's on top (an MLAG pair of spines too), every other switch's under
/// it, never the hosts'.
pub fn tier(sw: &crate::fabric::Switch) -> u8 {
    match sw.role {
        Some(Role::Spine) => 0,
        _ => 1,
    }
}

/// A switch's colour: its MLAG (VLT) pair, else its role.
pub fn kind(sw: &crate::fabric::Switch) -> Kind {
    match (sw.mlag.is_some(), sw.role) {
        (true, _) => Kind::Pair(sw.os()),
        (false, Some(Role::Spine)) => Kind::Spine,
        (false, Some(Role::Leaf)) => Kind::Leaf,
        (false, None) => Kind::Switch,
    }
}

pub fn build(fabric: &Fabric) -> Topology {
    let mut nodes: Vec<Node> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let os: BTreeMap<String, Os> = fabric
        .switches
        .iter()
        .map(|(n, sw)| (n.to_string(), sw.os()))
        .collect();
    switch_nodes(fabric, &mut nodes, &mut index);
    let cabled = cables(fabric, &nodes, &index);
    let mut edges = switch_edges(cabled.pairs, &cabled.ipl_pairs, &nodes, &os);
    let groups = host_groups(&cabled.hosts, (&mut nodes, &mut edges), &index, &os);
    Topology {
        nodes,
        edges,
        groups,
    }
}

/// A switch's end of a cable: the switch's name and its port.
type SwitchEnd = (String, Port);

/// The fabric's cables, read from its switches' ports.
struct Cabled {
    /// Cables between switches, each once (from the end drawn above), by pair of nodes.
    pairs: BTreeMap<(usize, usize), BTreeSet<(SwitchEnd, SwitchEnd)>>,
    /// The pairs of nodes an MLAG peer link joins.
    ipl_pairs: BTreeSet<(usize, usize)>,
    /// Each host's cables, by switch.
    hosts: BTreeMap<String, HostCables>,
}

/// A node per switch, with its model, AS, kind and tier; `index` finds a switch's node.
fn switch_nodes(fabric: &Fabric, nodes: &mut Vec<Node>, index: &mut BTreeMap<String, usize>) {
    for (name, sw) in &fabric.switches {
        let mut detail = sw.model.name().to_string();
        if let Some(r) = &sw.routing {
            let _ = write!(detail, " · AS {}", r.asn);
        }
        index.insert(name.to_string(), nodes.len());
        nodes.push(Node {
            name: name.to_string(),
            detail,
            kind: kind(sw),
            tier: tier(sw),
            switch: Some(name.to_string()),
            os: Some(sw.os()),
            model: sw.model.name(),
        });
    }
}

/// Cables between switches, each once (from the end that sorts first), by pair of switches;
/// and each host's cables by switch.
fn cables(fabric: &Fabric, nodes: &[Node], index: &BTreeMap<String, usize>) -> Cabled {
    let mut pairs: BTreeMap<(usize, usize), BTreeSet<(SwitchEnd, SwitchEnd)>> = BTreeMap::new();
    let mut ipl_pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut hosts: BTreeMap<String, HostCables> = BTreeMap::new();
    for (name, sw) in &fabric.switches {
        let me = index[name.as_str()];
        for (port, s) in &sw.ports {
            match &s.peer {
                Some(Peer::Switch { switch, port: far }) => {
                    let Some(&other) = index.get(switch.as_str()) else {
                        continue;
                    };
                    let mine = (name.to_string(), *port);
                    let theirs = (switch.to_string(), *far);
                    let (a, b, cable) = if upper(nodes, (me, *port), (other, *far)) {
                        (me, other, (mine, theirs))
                    } else {
                        (other, me, (theirs, mine))
                    };
                    pairs.entry((a, b)).or_default().insert(cable);
                    let ipl = sw.mlag.as_ref().is_some_and(|m| {
                        s.bundle
                            .is_some_and(|b| !b.mlag && b.id == m.ipl_port_channel)
                    });
                    if ipl {
                        ipl_pairs.insert((a, b));
                    }
                }
                Some(Peer::Host { host, port: nic }) => hosts
                    .entry(host.clone())
                    .or_default()
                    .entry(name.to_string())
                    .or_default()
                    .push((*port, nic.clone())),
                None => {}
            }
        }
    }
    Cabled {
        pairs,
        ipl_pairs,
        hosts,
    }
}

/// An edge per pair of switches cabled together, its ends labelled in each switch's OS.
fn switch_edges(
    pairs: BTreeMap<(usize, usize), BTreeSet<(SwitchEnd, SwitchEnd)>>,
    ipl_pairs: &BTreeSet<(usize, usize)>,
    nodes: &[Node],
    os: &BTreeMap<String, Os>,
) -> Vec<Edge> {
    pairs
        .into_iter()
        .map(|((from, to), cables)| {
            let ports: Vec<(Port, Port)> = cables.iter().map(|(a, b)| (a.1, b.1)).collect();
            let text = |(name, port): &SwitchEnd| (name.clone(), os[name].port_name(*port));
            let ends = (os[&nodes[from].name], os[&nodes[to].name]);
            let (near, far): (Vec<Port>, Vec<Port>) = ports.iter().copied().unzip();
            Edge {
                from,
                to,
                label: cable_label(ends, &ports),
                ends: [
                    end_label(ends.0, &sorted(near), ports.len()),
                    end_label(ends.1, &sorted(far), 0),
                ],
                ipl: ipl_pairs.contains(&(from, to)),
                cables: cables.iter().map(|(a, b)| (text(a), text(b))).collect(),
                ports: ports.iter().map(|(a, _)| *a).collect(),
                far: ports.iter().map(|(_, b)| *b).collect(),
            }
        })
        .collect()
}

/// Hosts named alike and cabled to the same switches share a node: a node per group, an
/// edge from each switch it is cabled to.
fn host_groups(
    hosts: &BTreeMap<String, HostCables>,
    (nodes, edges): (&mut Vec<Node>, &mut Vec<Edge>),
    index: &BTreeMap<String, usize>,
    os: &BTreeMap<String, Os>,
) -> Vec<HostGroup> {
    let mut grouped: BTreeMap<(String, Vec<String>), Vec<String>> = BTreeMap::new();
    for (host, by_switch) in hosts {
        let key = (stem(host).to_string(), by_switch.keys().cloned().collect());
        grouped.entry(key).or_default().push(host.clone());
    }
    let mut groups = Vec::new();
    for ((_, switches), mut members) in grouped {
        members.sort_by(|a, b| numbered(a).cmp(&numbered(b)));
        let node = nodes.len();
        nodes.push(Node {
            name: group_name(&members),
            detail: match members.len() {
                1 => String::new(),
                n => format!("{n} hosts"),
            },
            kind: Kind::Hosts,
            tier: 2,
            switch: None,
            os: None,
            model: "",
        });
        for switch in switches {
            let from = index[switch.as_str()];
            let dialect = os[&switch];
            let mut cables: Vec<(End, End)> = Vec::new();
            for host in &members {
                for (port, nic) in &hosts[host][&switch] {
                    let far = (host.clone(), nic.clone().unwrap_or_default());
                    cables.push(((switch.clone(), dialect.port_name(*port)), far));
                }
            }
            cables.sort();
            let mut ports: Vec<Port> = members
                .iter()
                .flat_map(|h| hosts[h][&switch].iter().map(|(p, _)| *p))
                .collect();
            ports.sort();
            let nics: BTreeSet<&str> = members
                .iter()
                .flat_map(|h| hosts[h][&switch].iter().filter_map(|(_, n)| n.as_deref()))
                .collect();
            let mut label = port_label(dialect, &ports);
            let nics: Vec<&str> = nics.into_iter().collect();
            if !nics.is_empty() {
                let _ = write!(label, " · {}", shorten(&nics, 2));
            }
            edges.push(Edge {
                from,
                to: node,
                ends: [end_label(dialect, &ports, cables.len()), shorten(&nics, 2)],
                cables,
                label,
                ipl: false,
                ports,
                far: Vec::new(),
            });
        }
        groups.push(HostGroup {
            node,
            hosts: members,
        });
    }
    groups
}

/// Whether the cable end `a` (a switch's node and port) is the one drawn above (or, in the
/// same row, before) `b`: each cable is kept once, from that end, a cable between two ports
/// of one switch too.
fn upper(nodes: &[Node], a: (usize, Port), b: (usize, Port)) -> bool {
    (nodes[a.0].tier, a.0, a.1) <= (nodes[b.0].tier, b.0, b.1)
}

/// A host's name without its trailing number: what hosts of one group share.
pub(super) fn stem(host: &str) -> &str {
    host.trim_end_matches(|c: char| c.is_ascii_digit())
}

/// Sorts `h2` before `h10`.
pub(super) fn numbered(host: &str) -> (&str, u128, &str) {
    let s = stem(host);
    let n = host[s.len()..].parse().unwrap_or(0);
    (s, n, host)
}

/// A host group's name: its hosts when few, else the first and last.
pub(super) fn group_name(hosts: &[String]) -> String {
    match hosts {
        [first, _, _, _, ..] => format!("{first} … {}", hosts[hosts.len() - 1]),
        few => few.join(", "),
    }
}

/// The first `n` items, and how many more.
pub(super) fn shorten(items: &[&str], n: usize) -> String {
    if items.len() <= n {
        items.join(", ")
    } else {
        format!("{}, +{} more", items[..n].join(", "), items.len() - n)
    }
}

/// A run of ports as `os` writes it: Onyx `1/1-1/8`, OS10 `ethernet1/1/1-1/1/8` (as its
/// `interface range` and `discovery-interface` print runs).
pub fn port_range(os: Os, first: Port, last: Port) -> String {
    os.target().port_range(first, last)
}

/// Ports (sorted) as ranges of `os`: `1/1-1/8, 1/31`; `ethernet1/1/1-1/1/8, ethernet1/1/31`.
pub fn port_list(os: Os, ports: &[Port]) -> String {
    crate::types::compress(ports.iter().map(|p| (*p, &())))
        .iter()
        .map(|(a, b, _)| port_range(os, *a, *b))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Ports (sorted) as short as a picture's label needs: up to two ranges, else the first
/// and last port and how many (`1/1/1 … 1/8/4, 32 ports`).
pub(crate) fn port_label(os: Os, ports: &[Port]) -> String {
    let list = port_list(os, ports);
    match ports {
        [first, .., last] if list.matches(", ").count() > 1 => {
            format!(
                "{} … {}, {} ports",
                os.port_name(*first),
                os.port_name(*last),
                ports.len()
            )
        }
        _ => list,
    }
}

/// One end of a line in the picture: its ports (sorted, without repeats) as `os` writes them, up
/// to two ranges, else the first and last (`1/1/1 … 1/8/4`); after `4×` when `cables` is more
/// than one.
pub(crate) fn end_label(os: Os, ports: &[Port], cables: usize) -> String {
    let list = port_list(os, ports);
    let text = match ports {
        [first, .., last] if list.matches(", ").count() > 1 => {
            format!("{} … {}", os.port_name(*first), os.port_name(*last))
        }
        _ => list,
    };
    match cables {
        0 | 1 => text,
        n => format!("{n}× {text}"),
    }
}

/// Ports sorted, each once.
pub(super) fn sorted(mut ports: Vec<Port>) -> Vec<Port> {
    ports.sort();
    ports.dedup();
    ports
}

/// Cables between two switches (running `os.0` and `os.1`) as runs where both ends count up
/// together (`1/25-1/28 ↔ 1/1-1/4`), each end in its OS's spelling; past two runs, how many
/// cables more.
pub(crate) fn cable_label(os: (Os, Os), cables: &[(Port, Port)]) -> String {
    let mut runs: Vec<(Port, Port, Port, Port)> = Vec::new();
    for &(a, b) in cables {
        match runs.last_mut() {
            Some(r) if r.1.precedes(a) && r.3.precedes(b) => {
                r.1 = a;
                r.3 = b;
            }
            _ => runs.push((a, a, b, b)),
        }
    }
    let text: Vec<String> = runs
        .iter()
        .map(|(a0, a1, b0, b1)| {
            format!(
                "{} ↔ {}",
                port_range(os.0, *a0, *a1),
                port_range(os.1, *b0, *b1)
            )
        })
        .collect();
    if text.len() <= 2 {
        return text.join(", ");
    }
    let shown: usize = runs[..2]
        .iter()
        .map(|(a0, a1, _, _)| cables.iter().filter(|(a, _)| a >= a0 && a <= a1).count())
        .sum();
    format!("{}, +{} more", text[..2].join(", "), cables.len() - shown)
}

/// The topology as a Mermaid flowchart (GitHub renders it in Markdown and pull requests).
/// Node ids are generated (`n0`, `n1`), every label is quoted, and the characters Mermaid
/// reads inside quotes (`"`, `#`, `<`, `>`) are written as its numeric entity codes.
pub fn mermaid(t: &Topology) -> String {
    let mut out = String::from("flowchart TB\n");
    for (i, n) in t.nodes.iter().enumerate() {
        let label = mermaid_text(&n.label()).replace('\n', "<br/>");
        let _ = match n.kind {
            Kind::Hosts => writeln!(out, "    n{i}([\"{label}\"])"),
            _ => writeln!(out, "    n{i}[\"{label}\"]"),
        };
    }
    for e in &t.edges {
        let _ = writeln!(
            out,
            "    n{} ---|\"{}\"| n{}",
            e.from,
            mermaid_text(&e.label),
            e.to
        );
    }
    let mut by_kind: BTreeMap<Kind, Vec<String>> = BTreeMap::new();
    for (i, n) in t.nodes.iter().enumerate() {
        by_kind.entry(n.kind).or_default().push(format!("n{i}"));
    }
    for (kind, ids) in &by_kind {
        let (fill, stroke) = kind.colours();
        let _ = writeln!(
            out,
            "    classDef {} fill:{fill},stroke:{stroke},color:#1a1a1a",
            kind.class()
        );
        let _ = writeln!(out, "    class {} {}", ids.join(","), kind.class());
    }
    for (i, e) in t.edges.iter().enumerate() {
        if e.ipl {
            let _ = writeln!(out, "    linkStyle {i} stroke-dasharray:5 5");
        }
    }
    out
}

fn mermaid_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' | '#' | '<' | '>' | '&' | '|' => {
                let _ = write!(out, "#{};", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // How each OS's ports are labelled is tested in its folder (`src/onyx/target.rs`,
    // `src/os10/target.rs`).
    #[test]
    fn labels_escape() {
        assert_eq!(mermaid_text("a\"b#<c>"), "a#34;b#35;#60;c#62;");
        assert_eq!(group_name(&["h1".into(), "h2".into()]), "h1, h2");
        assert!(numbered("h10") > numbered("h9"));
    }
}
