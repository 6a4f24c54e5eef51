//! The L2 topology between switches: no parallel L2 cables outside a LAG, and no loop, an
//! MLAG pair counting as one switch; a spanning-tree policy written wherever L2 joins
//! switches.

use std::collections::{BTreeMap, BTreeSet};

use super::mlag::Pair;
use super::{Cx, LinkPair, Pending};
use crate::diag::{Diagnostic, Span};

/// An L2 path: its bundle (if any), where its ends are written, what it joins.
type Path = (Option<(bool, u16)>, Span, Span, String);

/// The L2 paths between two switches (an MLAG pair's name is `a+b`), by the two.
type Edges = BTreeMap<(String, String), Vec<Path>>;

/// The L2 topology between switches: no parallel L2 cables outside a LAG, no loop. An MLAG
/// pair counts as one switch (its peer link inside it; a bundle to both is one cable).
pub(crate) fn l2_topology(
    cx: &mut Cx,
    pending: &BTreeMap<String, Pending>,
    links: &[LinkPair],
    broken: &BTreeSet<usize>,
    pairs: &[Pair],
) {
    let (edges, l2_ends) = l2_edges(pending, links, broken, pairs);
    without_stp(cx, pending, &l2_ends);
    parallel_paths(cx, &edges);
    loops(cx, &edges);
}

/// The L2 edges between switches, one per L2 cable, one per bundle; and each switch with an
/// L2 cable to another switch (an MLAG peer link included), at its first.
fn l2_edges<'a>(
    pending: &BTreeMap<String, Pending>,
    links: &'a [LinkPair],
    broken: &BTreeSet<usize>,
    pairs: &[Pair],
) -> (Edges, BTreeMap<&'a str, Span>) {
    let node = |name: &str| -> String {
        pairs
            .iter()
            .find(|p| p.switches.iter().any(|s| s == name))
            .map_or(name.to_string(), |p| {
                format!("{}+{}", p.switches[0], p.switches[1])
            })
    };
    // Edges: one per L2 cable, one per bundle.
    let mut edges = Edges::new();
    // Each switch with an L2 cable to another switch (an MLAG peer link included), at its
    // first.
    let mut l2_ends: BTreeMap<&str, Span> = BTreeMap::new();
    for ((sa, pa), (sb, pb), at_a, at_b, index) in links {
        if broken.contains(index) {
            continue;
        }
        let (Some(x), Some(y)) = (
            pending
                .get(sa.as_str())
                .and_then(|p| p.switch.ports.get(pa)),
            pending
                .get(sb.as_str())
                .and_then(|p| p.switch.ports.get(pb)),
        ) else {
            continue;
        };
        if x.address.is_some() || y.address.is_some() {
            continue;
        }
        for (name, at) in [(sa, at_a), (sb, at_b)] {
            l2_ends.entry(name.as_str()).or_insert(*at);
        }
        let (na, nb) = (node(sa), node(sb));
        if na == nb {
            continue;
        }
        let key = if na < nb { (na, nb) } else { (nb, na) };
        let bundle = x.bundle.map(|b| (b.mlag, b.id));
        let list = edges.entry(key).or_default();
        if bundle.is_some() && list.iter().any(|(b, ..)| *b == bundle) {
            continue;
        }
        list.push((bundle, *at_a, *at_b, format!("{sa}:{pa} – {sb}:{pb}")));
    }
    (edges, l2_ends)
}

/// W005: a switch joined to others at L2 without a spanning-tree policy.
fn without_stp(cx: &mut Cx, pending: &BTreeMap<String, Pending>, l2_ends: &BTreeMap<&str, Span>) {
    // Where L2 remains between switches, spanning tree decides what forwards: the fabric says
    // so rather than leaving it to the switch's default.
    for (name, at) in l2_ends {
        if pending.get(*name).is_some_and(|p| p.switch.stp.is_none()) {
            cx.push(
                Diagnostic::warning(
                    "W005",
                    format!("`{name}` has L2 links to other switches but no spanning-tree policy"),
                )
                .at(*at, "an L2 link")
                .help("write `stp: on` (Onyx's default, rapid spanning tree) or `stp: off`, fabric-wide or on the switch"),
            );
        }
    }
}

/// E119: parallel L2 paths between two switches.
fn parallel_paths(cx: &mut Cx, edges: &Edges) {
    for ((a, b), list) in edges {
        if list.len() > 1 {
            let (_, at_a, at_b, first) = &list[0];
            let (_, at_c, _, second) = &list[1];
            cx.push(
                Diagnostic::error(
                    "E119",
                    format!("{} L2 paths between `{a}` and `{b}` outside one LAG: spanning tree blocks all but one, or they loop", list.len()),
                )
                .at(*at_c, second.clone())
                .also(*at_a, first.clone())
                .also(*at_b, "other end")
                .help("bundle the cables in one port-channel (`role: lag`), or route them (`role: routed`)"),
            );
        }
    }
}

/// E120: a loop through three switches or more (union-find over the edges).
fn loops(cx: &mut Cx, edges: &Edges) {
    let mut parent: BTreeMap<String, String> = BTreeMap::new();
    fn find(parent: &mut BTreeMap<String, String>, x: &str) -> String {
        let mut cur = x.to_string();
        while let Some(p) = parent.get(&cur) {
            if *p == cur {
                break;
            }
            cur = p.clone();
        }
        cur
    }
    for ((a, b), list) in edges {
        for n in [a, b] {
            parent.entry(n.clone()).or_insert_with(|| n.clone());
        }
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra == rb {
            let (_, at_a, at_b, what) = &list[0];
            cx.push(
                Diagnostic::error(
                    "E120",
                    format!("the L2 links close a loop: `{a}` and `{b}` are already joined at L2 through other switches"),
                )
                .at(*at_a, what.clone())
                .also(*at_b, "other end")
                .help("route this link (`role: routed`), or remove it: a loop floods broadcast and, with PFC, can deadlock the fabric"),
            );
        } else {
            parent.insert(ra, rb);
        }
    }
}
