//! The picture of a large fabric: past [`ROW_LIMIT`] switches in a row (spines, or the
//! switches under them), a row of a thousand boxes is no picture, so the picture draws groups.
//! Switches of one kind and model cabled to the same spines are one node (a pod's leaves, with
//! their count); spines of one kind and model cabled to the same groups are one node (a pod's
//! spines); hosts of one family (their names without trailing numbers and separators) cabled
//! to the same groups are one node; one line per pair of groups holds every cable between
//! them, labelled with their count and the ports at each end. The fabric's tables still list
//! every switch, cable and host.
//!
//! Every step indexes or sorts: the cost is linear in the fabric, up to a logarithm.

use std::collections::{BTreeMap, BTreeSet};

use super::topology::{
    Edge, End, HostGroup, Kind, Node, Topology, end_label, group_name, numbered, port_label,
    shorten, sorted,
};
use crate::types::Port;

/// The most switches a row of the picture draws one by one.
pub const ROW_LIMIT: usize = 16;

/// What groups nodes: their kind, model, family of names (hosts only), size (when grouping
/// groups alike) and the nodes or groups they are cabled to.
type Key = (Kind, &'static str, String, usize, Vec<usize>);

/// The picture's graph for a fabric too large to draw switch by switch; none when every row
/// holds at most [`ROW_LIMIT`] switches. Groups of switches cabled to the same spines first; if
/// a row still holds more than [`ROW_LIMIT`] of them, groups alike (of one size, cabled to
/// groups of the same sizes) are one node too: a thousand switches in pods of 32 draw as a row
/// of spines, a row of leaves and a row of hosts, each with its counts.
pub fn aggregate(t: &Topology) -> Option<Topology> {
    let n = t.nodes.len();
    let singles = Groups {
        of: (0..n).collect(),
        members: (0..n).map(|i| vec![i]).collect(),
        parts: vec![vec![1]; n],
    };
    if !too_wide(t, &singles) {
        return None;
    }
    let mut hosts: Vec<&[String]> = vec![&[]; n];
    for g in &t.groups {
        hosts[g.node] = &g.hosts;
    }
    let mut groups = group(t, &singles, false, &hosts);
    if too_wide(t, &groups) {
        groups = group(t, &groups, true, &hosts);
    }
    let nodes: Vec<Node> = (0..groups.members.len())
        .map(|g| group_node(t, &groups, g, &hosts))
        .collect();
    let edges = group_edges(t, &groups.of, &nodes);
    let host_groups = groups
        .members
        .iter()
        .enumerate()
        .filter(|(_, m)| t.nodes[m[0]].kind == Kind::Hosts)
        .map(|(node, m)| HostGroup {
            node,
            hosts: hosts_of(m, &hosts),
        })
        .collect();
    Some(Topology {
        nodes,
        edges,
        groups: host_groups,
    })
}

/// A partition of the topology's nodes.
struct Groups {
    /// Each node's group.
    of: Vec<usize>,
    /// Each group's nodes, ascending; groups by row, then by their first node.
    members: Vec<Vec<usize>>,
    /// The sizes of the groups of the level before that each group joins.
    parts: Vec<Vec<usize>>,
}

/// Whether a row of the picture would hold more than [`ROW_LIMIT`] groups of switches.
fn too_wide(t: &Topology, groups: &Groups) -> bool {
    let mut per_row = [0usize; 3];
    for m in &groups.members {
        let node = &t.nodes[m[0]];
        if node.kind != Kind::Hosts {
            per_row[usize::from(node.tier)] += 1;
        }
    }
    per_row.iter().any(|&c| c > ROW_LIMIT)
}

/// Joins `units` (nodes, or groups of them): the switches under the spines by the spines they
/// are cabled to, then the spines by the groups under them, then the hosts by their family and
/// the groups they are cabled to. `alike`: units are keyed by their size and the sizes of the
/// spines' groups above them instead of which ones, so that pods of one shape join.
fn group(t: &Topology, units: &Groups, alike: bool, hosts: &[&[String]]) -> Groups {
    let count = units.members.len();
    let mut near: Vec<Vec<usize>> = vec![Vec::new(); count];
    for e in &t.edges {
        let (a, b) = (units.of[e.from], units.of[e.to]);
        if a != b {
            near[a].push(b);
            near[b].push(a);
        }
    }
    for list in &mut near {
        list.sort_unstable();
        list.dedup();
    }
    let first = |u: usize| &t.nodes[units.members[u][0]];
    let row = |u: usize| first(u).tier;
    let size = |u: usize| units.members[u].len();
    let mut of = vec![usize::MAX; count];
    let mut joined: Vec<Vec<usize>> = Vec::new();
    for r in [1, 0, 2] {
        let mut keys: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
        for u in (0..count).filter(|&u| row(u) == r) {
            let node = first(u);
            // Under the spines, a switch's spines; a spine, the groups under it; hosts,
            // their switches' groups.
            let mut cabled: Vec<usize> = near[u]
                .iter()
                .filter_map(|&o| match (r, row(o)) {
                    (1, 0) if alike => Some(size(o)),
                    (1, 0) => Some(o),
                    (0, 1) | (2, 0 | 1) => Some(of[o]),
                    _ => None,
                })
                .collect();
            cabled.sort_unstable();
            if r != 1 {
                cabled.dedup();
            }
            let family = hosts[units.members[u][0]]
                .first()
                .map_or("", |h| family(h))
                .to_string();
            let size = if alike && r != 2 { size(u) } else { 0 };
            let key = (node.kind, node.model, family, size, cabled);
            keys.entry(key).or_default().push(u);
        }
        for list in keys.into_values() {
            for &u in &list {
                of[u] = joined.len();
            }
            joined.push(list);
        }
    }
    // Groups in the picture's order: by row, then by their first node.
    let members: Vec<Vec<usize>> = joined
        .iter()
        .map(|list| {
            let mut m: Vec<usize> = list
                .iter()
                .flat_map(|&u| units.members[u].iter().copied())
                .collect();
            m.sort_unstable();
            m
        })
        .collect();
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by_key(|&g| (t.nodes[members[g][0]].tier, members[g][0]));
    let mut renumber = vec![0; members.len()];
    for (new, &old) in order.iter().enumerate() {
        renumber[old] = new;
    }
    Groups {
        of: units.of.iter().map(|&u| renumber[of[u]]).collect(),
        parts: order
            .iter()
            .map(|&g| joined[g].iter().map(|&u| size(u)).collect())
            .collect(),
        members: order.into_iter().map(|g| members[g].clone()).collect(),
    }
}

/// A host's family: its name without the trailing numbers and separators (`gpu0001-07`:
/// `gpu`).
fn family(host: &str) -> &str {
    host.trim_end_matches(|c: char| c.is_ascii_digit() || matches!(c, '-' | '_' | '.'))
}

fn hosts_of(members: &[usize], hosts: &[&[String]]) -> Vec<String> {
    let mut all: Vec<String> = members
        .iter()
        .flat_map(|&m| hosts[m].iter().cloned())
        .collect();
    all.sort_by(|a, b| numbered(a).cmp(&numbered(b)));
    all
}

/// A group's node: its only node as it is, or its first and last name and how many (and in
/// how many groups of the level before, when it joins groups).
fn group_node(t: &Topology, groups: &Groups, g: usize, hosts: &[&[String]]) -> Node {
    let members = &groups.members[g];
    let first = &t.nodes[members[0]];
    if members.len() == 1 {
        return first.clone();
    }
    if first.kind == Kind::Hosts {
        let all = hosts_of(members, hosts);
        return Node {
            name: group_name(&all),
            detail: format!("{} hosts", all.len()),
            ..first.clone()
        };
    }
    let names: Vec<String> = members.iter().map(|&m| t.nodes[m].name.clone()).collect();
    let what = match first.kind {
        Kind::Spine => "spines".to_string(),
        Kind::Leaf => "leaves".to_string(),
        Kind::Pair(os) => format!("{} switches", os.target().words().pair),
        Kind::Switch | Kind::Hosts => "switches".to_string(),
    };
    let parts = &groups.parts[g];
    let within = match parts.first() {
        Some(&p) if p > 1 && parts.iter().all(|&q| q == p) => {
            format!(" in {} groups of {p}", parts.len())
        }
        _ if parts.iter().any(|&q| q > 1) => format!(" in {} groups", parts.len()),
        _ => String::new(),
    };
    Node {
        name: group_name(&names),
        detail: format!("{} {what}{within} · {}", members.len(), first.model),
        switch: None,
        ..first.clone()
    }
}

/// One edge per pair of groups (and kind of link: a peer link apart), every cable of the
/// edges it stands for in its list, each from the end drawn above.
fn group_edges(t: &Topology, of: &[usize], nodes: &[Node]) -> Vec<Edge> {
    // By (upper group, lower group, peer link): the edges, each flagged when drawn the other
    // way round.
    type Pairs<'a> = BTreeMap<(usize, usize, bool), Vec<(&'a Edge, bool)>>;
    let mut pairs: Pairs = BTreeMap::new();
    for e in &t.edges {
        let (a, b) = (of[e.from], of[e.to]);
        // Groups are in the picture's order: the lower number is drawn above.
        let key = (a.min(b), a.max(b), e.ipl);
        pairs.entry(key).or_default().push((e, a > b));
    }
    pairs
        .into_iter()
        .map(|((from, to, ipl), edges)| match edges.as_slice() {
            [(e, false)] => Edge {
                from,
                to,
                ..(*e).clone()
            },
            _ => merged(nodes, from, to, ipl, &edges),
        })
        .collect()
}

/// The edge between two groups standing for `edges` (each flagged when drawn the other way
/// round), labelled with how many cables and the ports at each end.
fn merged(nodes: &[Node], from: usize, to: usize, ipl: bool, edges: &[(&Edge, bool)]) -> Edge {
    // Every cable from the upper group's end, with its ports there and at the far end.
    let mut cables: Vec<((End, End), Port, Option<Port>)> = Vec::new();
    for (e, flipped) in edges {
        // Between switches, one port at each end per cable; to hosts, the switch's ports.
        for (i, ((a, b), &near)) in e.cables.iter().zip(&e.ports).enumerate() {
            cables.push(match (flipped, e.far.get(i).copied()) {
                (true, Some(far)) => ((b.clone(), a.clone()), far, Some(near)),
                (_, far) => ((a.clone(), b.clone()), near, far),
            });
        }
    }
    cables.sort();
    let ports: Vec<Port> = cables.iter().map(|c| c.1).collect();
    let far: Vec<Port> = cables.iter().filter_map(|c| c.2).collect();
    let os = |n: usize| nodes[n].os.unwrap_or_default();
    let near = port_label(os(from), &sorted(ports.clone()));
    let count = cables.len();
    let (ends, far_end) = if nodes[to].kind == Kind::Hosts {
        let nics: BTreeSet<&str> = cables
            .iter()
            .map(|c| (c.0).1.1.as_str())
            .filter(|n| !n.is_empty())
            .collect();
        let nics = shorten(&nics.into_iter().collect::<Vec<_>>(), 2);
        let label = match nics.as_str() {
            "" => near,
            _ => format!("{near} · {nics}"),
        };
        (label, nics)
    } else {
        let far = sorted(far.clone());
        (
            format!("{near} ↔ {}", port_label(os(to), &far)),
            end_label(os(to), &far, 0),
        )
    };
    let near_end = end_label(os(from), &sorted(ports.clone()), count);
    Edge {
        from,
        to,
        label: format!("{count} cables: {ends}"),
        ends: [near_end, far_end],
        ipl,
        cables: cables.into_iter().map(|c| c.0).collect(),
        ports,
        far,
    }
}
