//! Where the topology picture puts each box, line and label, drawn the way a network engineer
//! draws a leaf-spine fabric: tiers top to bottom (the caller's: spines, the other switches,
//! hosts), each line's ports written at its two ends, nothing drawn over anything else.
//!
//! - Order: a tier's boxes in the caller's order (switches by name), a pair joined by a `flat`
//!   link (an MLAG or VLT pair) side by side; a `follow` box (a group of hosts) under the
//!   boxes above it that it is linked to, by their mean place, then in the caller's order.
//! - Rows: a tier wider than [`MAX_WIDTH`] wraps into rows of about equal width, a pair never
//!   split, at most [`MAX_ROWS`] a tier (past them the rows grow wider and the picture
//!   scales); a tier whose rows the lines crossing them widen past it wraps again, narrower.
//!   A line crossing a row passes it between two boxes, in a slot of its own.
//! - Labels: each end of a line has a tab where it leaves or enters its box, its label right
//!   of the line; a box is as wide as its tabs need. A tier too wide for one row because of
//!   boxes its tabs widen (a spine over many leaves) stands those labels upright (reading
//!   down), so a tab takes a line of text's height, not its width. A row is a band: the tabs
//!   above its boxes, the boxes, the tabs under them; lines curve only in the gaps between
//!   bands, where no box or label is, and cross a band straight down, at a tab or in a slot
//!   between boxes: so no line crosses a box or a label. A pair's peer link runs between the
//!   pair's facing sides, its labels above and under it; a line between two boxes of one row
//!   that are not a pair dips into the gap below the row; a loop (a cable from a box to itself)
//!   leaves and enters the box's side, its labels beyond it.
//! - x: rows packed, then sweeps down and up that move each row's slots as near their
//!   neighbours in the row before as their order allows (the least-squares fit under the
//!   order is an isotonic regression, solved exactly by pool-adjacent-violators), inside the
//!   widest row's width; then again, aiming each line's ends at each other's tabs, so a line
//!   between one switch and its hosts is straight.
//!
//! Each step is linear in the boxes, links and the slots of lines crossing rows (at most
//! [`MAX_ROWS`] a tier: a constant a link), up to a sort's logarithm; [`work`] counts the
//! elements each step visits, so a test can check that the layout's cost grows with the graph
//! and no faster.

mod draw;
mod layers;

use draw::*;
use layers::*;

use std::cell::Cell;

/// A point, or a size.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }
}

/// A box to place.
pub struct Node {
    /// The size its text needs; the layout widens it to hold the labels of its lines.
    pub size: Point,
    /// Its tier: 0 on top.
    pub tier: usize,
    /// Ordered under the boxes above it that it is linked to (hosts), not by index.
    pub follow: bool,
}

/// A link between two boxes: `from` is in a tier above `to`'s, or in the same one; `from ==
/// to` is a loop.
pub struct Link {
    pub from: usize,
    pub to: usize,
    /// The sizes of the labels at `from`'s end and at `to`'s (a zero width: none).
    pub ends: [Point; 2],
    /// A pair's peer link: the pair side by side, the line between them.
    pub flat: bool,
}

/// Where a label's text goes: its box as drawn (top left corner and size), the text anchored
/// at the box's left edge, or its right edge when `end`; `upright`: turned a quarter clockwise,
/// reading down, anchored at the box's top (`end`: its bottom).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    pub min: Point,
    pub size: Point,
    pub end: bool,
    pub upright: bool,
}

/// A link as drawn: cubic Bézier segments (start, two control points, end), one after the
/// other, and the labels of its two ends (`from`'s, `to`'s).
pub struct Route {
    pub curves: Vec<[Point; 4]>,
    pub labels: [Option<Label>; 2],
}

pub struct Layout {
    /// Each box's centre, and its size as drawn.
    pub nodes: Vec<Point>,
    pub sizes: Vec<Point>,
    pub links: Vec<Route>,
    /// The bottom right corner of everything drawn (the top left is the origin).
    pub size: Point,
}

/// The widest picture the layout wraps rows for: a laptop's screen.
pub const MAX_WIDTH: f64 = 1400.0;
/// The most rows a tier wraps into.
pub const MAX_ROWS: usize = 6;
/// Space around the picture, between boxes of a row, and between a line crossing a row and
/// what is beside it.
const MARGIN: f64 = 10.0;
const NODE_GAP: f64 = 30.0;
const SLOT_GAP: f64 = 12.0;
const THROUGH_GAP: f64 = 6.0;
/// Between a line and its label; between two tabs; above and below a tab's label.
const TEXT_GAP: f64 = 4.0;
const TAB_GAP: f64 = 10.0;
const TAB_PAD: f64 = 3.0;
/// The least space between two rows' bands, the most, and how much of the widest sideways run
/// of a line across the gap it takes (steep enough to follow).
const ROW_GAP: f64 = 40.0;
const MAX_ROW_GAP: f64 = 110.0;
const BEND: f64 = 0.12;
/// How deep each next line under a row dips.
const DIP: f64 = 14.0;
/// How far a loop reaches out of its box, and the space between the loop and its labels.
const LOOP: f64 = 26.0;
const LOOP_PAD: f64 = 6.0;
/// Coordinate sweeps, and the times a tier's rows are wrapped narrower when lines crossing
/// them made the picture too wide.
const PLACE_SWEEPS: usize = 8;
const REWRAPS: usize = 4;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// The elements the layouts of this thread have visited so far: each node, slot or link once
/// per step it takes part in (a sort counts one per element: its logarithm is not counted).
pub fn work() -> u64 {
    WORK.with(Cell::get)
}

fn count(n: usize) {
    WORK.with(|w| w.set(w.get() + n as u64));
}

/// How a link is drawn, once rows are known.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Shape {
    /// From a box to itself.
    Loop,
    /// Between a pair's facing sides.
    Side,
    /// Between two boxes of one row, dipping under it.
    Under,
    /// From a row to a row below, `from`'s end above (`false`) or `to`'s (`true`).
    Down(bool),
}

/// The boxes' widths and the space they take in a row; the pairs.
struct Boxes {
    width: Vec<f64>,
    /// Per box, whether the labels on its top and its bottom edge stand upright.
    upright: Vec<[bool; 2]>,
    /// From the box's centre to the left and to the right, loops and their labels included.
    left: Vec<f64>,
    right: Vec<f64>,
    /// A box's partner in its pair, and the gap a pair's link needs between them.
    partner: Vec<Option<usize>>,
    pair_gap: Vec<f64>,
    /// Per link: drawn between a pair's sides.
    side: Vec<bool>,
}

pub fn layout(nodes: &[Node], links: &[Link]) -> Layout {
    if nodes.is_empty() {
        return Layout {
            nodes: Vec::new(),
            sizes: Vec::new(),
            links: Vec::new(),
            size: Point::default(),
        };
    }
    let boxes = boxes(nodes, links);
    let tiers = nodes.iter().map(|n| n.tier).max().unwrap_or(0) + 1;
    let mut budgets = vec![MAX_WIDTH - 2.0 * MARGIN; tiers];
    let mut rounds = 0;
    loop {
        let rows = arrange(nodes, links, &boxes, &budgets);
        let layers = Layers::build(nodes, links, &boxes, &rows);
        // A tier whose rows the lines crossing them made too wide wraps again, narrower (unless
        // it took all the rows it may).
        let over = layers.overflow(nodes, &budgets);
        if rounds < REWRAPS && over.iter().any(|o| o.is_some()) {
            for (t, o) in over.into_iter().enumerate() {
                if let Some(excess) = o {
                    budgets[t] -= excess;
                }
            }
            rounds += 1;
            continue;
        }
        // Boxes placed, then again with each line's ends at its tabs, to straighten the lines.
        let x = place(&layers, &vec![[0.0; 2]; links.len()], None);
        let at = tabs(nodes, links, &boxes, &layers, &x);
        let shift: Vec<[f64; 2]> = (0..links.len())
            .map(|l| [at[l][0] - x[links[l].from], at[l][1] - x[links[l].to]])
            .collect();
        let x = place(&layers, &shift, Some(x));
        return draw(nodes, links, &boxes, &layers, &x);
    }
}

/// A tab's width: its label (across, or `upright`) and the gap between the line and it.
fn tab(label: Point, upright: bool) -> f64 {
    match (label.x > 0.0, upright) {
        (false, _) => 0.0,
        (true, false) => label.x + TEXT_GAP,
        (true, true) => label.y + TEXT_GAP,
    }
}

/// Each box's width: its text's, or its tabs' on its top or bottom edge if wider (a line
/// within a tier may end on either edge, so it counts on both); the loops beside it; the
/// pairs. A tier too wide for a row because of boxes its tabs widen (a spine over many
/// leaves) stands those boxes' labels upright, so a tab is as wide as a line of text is high.
fn boxes(nodes: &[Node], links: &[Link]) -> Boxes {
    let n = nodes.len();
    let (partner, pair_gap, side, loops) = pairs_and_loops(nodes, links);
    let edges = edges(nodes, links, &side);
    // Each box's width with its labels across, and (where its tabs widen it) upright.
    let wide = |i: usize, way: usize| nodes[i].size.x.max(edges[i][0][way]).max(edges[i][1][way]);
    let tiers = nodes.iter().map(|n| n.tier).max().unwrap_or(0) + 1;
    let mut total = vec![[0.0f64; 2]; tiers];
    for (i, node) in nodes.iter().enumerate() {
        for (way, sum) in total[node.tier].iter_mut().enumerate() {
            *sum += wide(i, way) + NODE_GAP + pair_gap[i];
        }
    }
    let budget = MAX_WIDTH - 2.0 * MARGIN;
    // Upright where that makes a tier too wide for a row fit in one, or where a box's edge
    // alone would take half the screen.
    let crowded = |i: usize, e: usize| {
        let [across, upright] = total[nodes[i].tier];
        let edge = edges[i][e][0];
        across > budget && edge > nodes[i].size.x && (upright <= budget || edge > budget / 2.0)
    };
    let upright: Vec<[bool; 2]> = (0..n).map(|i| [crowded(i, 0), crowded(i, 1)]).collect();
    let width: Vec<f64> = (0..n)
        .map(|i| {
            let edge = |e: usize| edges[i][e][usize::from(upright[i][e])];
            nodes[i].size.x.max(edge(0)).max(edge(1))
        })
        .collect();
    // Loops alternate sides: the first on the right.
    let extra = |i: usize, parity: usize| -> f64 {
        loops[i]
            .iter()
            .enumerate()
            .filter(|(k, _)| k % 2 == parity)
            .map(|(_, w)| *w)
            .fold(0.0, f64::max)
    };
    count(n + links.len());
    Boxes {
        left: (0..n).map(|i| width[i] / 2.0 + extra(i, 1)).collect(),
        right: (0..n).map(|i| width[i] / 2.0 + extra(i, 0)).collect(),
        width,
        upright,
        partner,
        pair_gap,
        side,
    }
}

/// The pairs (each box's partner; the gap before the second of a pair; per link, whether it
/// joins a pair) and each box's loops (the width each takes beside it).
#[allow(clippy::type_complexity)]
fn pairs_and_loops(
    nodes: &[Node],
    links: &[Link],
) -> (Vec<Option<usize>>, Vec<f64>, Vec<bool>, Vec<Vec<f64>>) {
    let n = nodes.len();
    let mut partner: Vec<Option<usize>> = vec![None; n];
    let mut pair_gap = vec![0.0; n];
    let mut side = vec![false; links.len()];
    let mut loops: Vec<Vec<f64>> = vec![Vec::new(); n];
    for (i, l) in links.iter().enumerate() {
        let (a, b) = (l.from, l.to);
        if a == b {
            let reach = reach(loops[a].len());
            let widest = l.ends[0].x.max(l.ends[1].x);
            loops[a].push(0.75 * reach + LOOP_PAD + widest);
        } else if l.flat
            && nodes[a].tier == nodes[b].tier
            && partner[a].is_none()
            && partner[b].is_none()
        {
            partner[a] = Some(b);
            partner[b] = Some(a);
            let gap = l.ends[0].x.max(l.ends[1].x) + 2.0 * TEXT_GAP;
            pair_gap[a.min(b)] = gap.max(NODE_GAP);
            side[i] = true;
        }
    }
    (partner, pair_gap, side, loops)
}

/// Per box, the width its top (0) and bottom (1) edges' tabs need, labels across and upright.
fn edges(nodes: &[Node], links: &[Link], side: &[bool]) -> Vec<[[f64; 2]; 2]> {
    let mut edges = vec![[[0.0f64; 2]; 2]; nodes.len()];
    for (i, l) in links.iter().enumerate() {
        if l.from == l.to || side[i] {
            continue;
        }
        for (end, me, other) in [(0, l.from, l.to), (1, l.to, l.from)] {
            let label = l.ends[end];
            let w = [tab(label, false) + TAB_GAP, tab(label, true) + TAB_GAP];
            for (edge, on) in [
                (0, nodes[me].tier >= nodes[other].tier),
                (1, nodes[me].tier <= nodes[other].tier),
            ] {
                if on {
                    edges[me][edge][0] += w[0];
                    edges[me][edge][1] += w[1];
                }
            }
        }
    }
    edges
}

/// Every tier's boxes in order, wrapped into rows of at most `budgets[tier]` wide: rows top
/// to bottom, each a list of boxes.
fn arrange(nodes: &[Node], links: &[Link], boxes: &Boxes, budgets: &[f64]) -> Vec<Vec<usize>> {
    let n = nodes.len();
    let mut by_tier: Vec<Vec<usize>> = vec![Vec::new(); budgets.len()];
    for (i, node) in nodes.iter().enumerate() {
        by_tier[node.tier].push(i);
    }
    let mut above: Vec<Vec<usize>> = vec![Vec::new(); n];
    for l in links {
        let (a, b) = (l.from, l.to);
        if nodes[a].tier < nodes[b].tier {
            above[b].push(a);
        } else if nodes[b].tier < nodes[a].tier {
            above[a].push(b);
        }
    }
    // Each box's place in reading order, once its row is made.
    let mut reading = vec![0.0f64; n];
    let mut seen = 0.0;
    let mut rows = Vec::new();
    for (tier, members) in by_tier.iter().enumerate() {
        let key = |i: usize| -> f64 {
            if !nodes[i].follow {
                return 0.0;
            }
            match above[i].len() {
                0 => f64::INFINITY,
                k => above[i].iter().map(|&a| reading[a]).sum::<f64>() / k as f64,
            }
        };
        // Units: a box, or a pair (its first box first), at the place of its first member.
        let mut units: Vec<(f64, usize, Vec<usize>)> = Vec::new();
        for &i in members {
            match boxes.partner[i] {
                Some(p) if p < i => continue,
                Some(p) => units.push((key(i).min(key(p)), i, vec![i, p])),
                None => units.push((key(i), i, vec![i])),
            }
        }
        units.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        count(members.len() + members.iter().map(|&i| above[i].len()).sum::<usize>());
        let units: Vec<(Vec<usize>, f64)> = units
            .into_iter()
            .map(|(_, _, m)| {
                let w = m
                    .iter()
                    .map(|&i| boxes.left[i] + boxes.right[i])
                    .sum::<f64>()
                    + if m.len() == 2 {
                        boxes.pair_gap[m[0]]
                    } else {
                        0.0
                    };
                (m, w)
            })
            .collect();
        for row in wrap(&units, budgets[tier]) {
            for &i in &row {
                reading[i] = seen;
                seen += 1.0;
            }
            rows.push(row);
        }
    }
    rows
}

/// Units (boxes or pairs, each with its width) in order as rows: as few as fit in `budget`
/// (at most [`MAX_ROWS`]), of about equal width.
fn wrap(units: &[(Vec<usize>, f64)], budget: f64) -> Vec<Vec<usize>> {
    if units.is_empty() {
        return Vec::new();
    }
    let total: f64 = units.iter().map(|u| u.1).sum::<f64>() + NODE_GAP * (units.len() - 1) as f64;
    // Greedy: how many rows are needed.
    let greedy = fill(units, usize::MAX, |width, _| width > budget);
    let k = greedy.len().min(MAX_ROWS);
    let target = total / k as f64;
    // Balanced: a new row once the next unit's middle would pass the target; kept if its rows
    // fit (or there were more than may be).
    let balanced = fill(units, k, |width, w| {
        width > budget.max(target) || width - w / 2.0 > target
    });
    count(2 * units.len());
    let fits = balanced.iter().all(|(_, w)| *w <= budget);
    let rows = if fits || greedy.len() > MAX_ROWS {
        balanced
    } else {
        greedy
    };
    rows.into_iter().map(|(row, _)| row).collect()
}

/// Units into at most `most` rows, each with its width: a new row when `full(the row's width
/// with the unit, the unit's width)`.
fn fill(
    units: &[(Vec<usize>, f64)],
    most: usize,
    full: impl Fn(f64, f64) -> bool,
) -> Vec<(Vec<usize>, f64)> {
    let mut rows: Vec<(Vec<usize>, f64)> = Vec::new();
    let (mut row, mut width): (Vec<usize>, f64) = (Vec::new(), 0.0);
    for (members, w) in units {
        let with = if row.is_empty() {
            *w
        } else {
            width + NODE_GAP + w
        };
        if !row.is_empty() && rows.len() + 1 < most && full(with, *w) {
            rows.push((std::mem::take(&mut row), width));
            width = *w;
        } else {
            width = with;
        }
        row.extend(members);
    }
    rows.push((row, width));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(tier: usize) -> Node {
        Node {
            size: Point::new(100.0, 40.0),
            tier,
            follow: false,
        }
    }

    fn hosts(tier: usize) -> Node {
        Node {
            follow: true,
            ..node(tier)
        }
    }

    fn link(from: usize, to: usize, flat: bool) -> Link {
        Link {
            from,
            to,
            ends: [Point::new(30.0, 14.0), Point::new(20.0, 14.0)],
            flat,
        }
    }

    /// A box as (left, top, right, bottom).
    fn rect(min: Point, size: Point) -> [f64; 4] {
        [min.x, min.y, min.x + size.x, min.y + size.y]
    }

    fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
        a[0] + 0.5 < b[2] && b[0] + 0.5 < a[2] && a[1] + 0.5 < b[3] && b[1] + 0.5 < a[3]
    }

    fn inside(r: [f64; 4], p: Point) -> bool {
        p.x > r[0] + 0.5 && p.x < r[2] - 0.5 && p.y > r[1] + 0.5 && p.y < r[3] - 0.5
    }

    /// The layout's own geometry draws nothing over anything: no two boxes or labels overlap, no
    /// label a box, no line crosses a box but its ends' or any label.
    fn assert_clear(l: &Layout, links: &[Link]) {
        let boxes: Vec<[f64; 4]> = (0..l.nodes.len())
            .map(|i| {
                let (c, s) = (l.nodes[i], l.sizes[i]);
                rect(Point::new(c.x - s.x / 2.0, c.y - s.y / 2.0), s)
            })
            .collect();
        let labels: Vec<[f64; 4]> = l
            .links
            .iter()
            .flat_map(|r| r.labels.iter().flatten().map(|b| rect(b.min, b.size)))
            .collect();
        for (i, a) in boxes.iter().chain(&labels).enumerate() {
            for b in boxes.iter().chain(&labels).skip(i + 1) {
                assert!(!overlap(*a, *b), "{a:?} overlaps {b:?}");
            }
        }
        for (route, link) in l.links.iter().zip(links) {
            for c in &route.curves {
                for k in 0..=64 {
                    let t = k as f64 / 64.0;
                    let w = [
                        (1.0 - t).powi(3),
                        3.0 * (1.0 - t).powi(2) * t,
                        3.0 * (1.0 - t) * t * t,
                        t.powi(3),
                    ];
                    let p = Point::new(
                        (0..4).map(|j| w[j] * c[j].x).sum(),
                        (0..4).map(|j| w[j] * c[j].y).sum(),
                    );
                    for (n, b) in boxes.iter().enumerate() {
                        let end = n == link.from || n == link.to;
                        assert!(end || !inside(*b, p), "a line crosses box {n} at {p:?}");
                    }
                    for b in &labels {
                        assert!(!inside(*b, p), "a line crosses the label {b:?} at {p:?}");
                    }
                }
            }
        }
        assert!(l.size.x <= MAX_WIDTH, "{}", l.size.x);
    }

    #[test]
    fn a_pair_shares_a_row_and_hosts_go_under_it() {
        // Two switches with a peer link, hosts cabled to both.
        let nodes = [node(0), node(0), hosts(1)];
        let links = [link(0, 1, true), link(0, 2, false), link(1, 2, false)];
        let l = layout(&nodes, &links);
        assert_eq!(l.nodes[0].y, l.nodes[1].y);
        assert!(l.nodes[2].y > l.nodes[0].y + 40.0);
        // The hosts under the pair, the pair apart by at least the peer link's labels.
        let mid = (l.nodes[0].x + l.nodes[1].x) / 2.0;
        assert!((l.nodes[2].x - mid).abs() < 20.0, "{:?}", l.nodes);
        assert!(l.nodes[1].x - l.nodes[0].x >= 100.0 + 30.0);
        // The peer link is a line between the boxes' sides, its labels above and under it.
        let side = &l.links[0];
        assert_eq!(side.curves.len(), 1);
        assert_eq!(side.curves[0][0].x, l.nodes[0].x + 50.0);
        let [a, b] = side.labels.map(Option::unwrap);
        assert!(a.min.y + a.size.y < l.nodes[0].y && b.min.y > l.nodes[0].y && b.end);
        assert_clear(&l, &links);
    }

    #[test]
    fn tiers_keep_their_order_and_their_boxes() {
        // Two spines; leaf 2 on spine 1 only, leaf 3 on spine 0 only: the leaves keep their
        // order. A switch (4) cabled to leaf 3 stays in the leaves' row, its line dipping
        // under the row; hosts follow their switches: 5 under leaf 3, 6 under leaf 2.
        let nodes = [
            node(0),
            node(0),
            node(1),
            node(1),
            node(1),
            hosts(2),
            hosts(2),
        ];
        let links = [
            link(1, 2, false),
            link(0, 3, false),
            link(2, 4, false),
            link(3, 5, false),
            link(2, 6, false),
        ];
        let l = layout(&nodes, &links);
        let x = |i: usize| l.nodes[i].x;
        assert!(x(0) < x(1) && x(2) < x(3) && x(3) < x(4), "{:?}", l.nodes);
        assert_eq!(l.nodes[4].y, l.nodes[2].y);
        assert!(x(6) < x(5), "{:?}", l.nodes);
        assert!(
            l.links[2]
                .curves
                .iter()
                .any(|c| c[1].y > l.nodes[2].y + 20.0)
        );
        // Each end's label beside its line, where it leaves or enters its box.
        let down = &l.links[1];
        let [top, bottom] = down.labels.map(Option::unwrap);
        assert_eq!(top.min.x, down.curves[0][0].x + TEXT_GAP);
        assert_eq!(top.min.y, l.nodes[0].y + 20.0 + TAB_PAD);
        assert_eq!(bottom.min.y + bottom.size.y, l.nodes[3].y - 20.0 - TAB_PAD);
        assert_clear(&l, &links);
    }

    /// Two spines over `n` leaves cabled to both, a group of hosts under each leaf.
    fn leaf_spine(n: usize, spines: usize) -> (Vec<Node>, Vec<Link>) {
        let mut nodes: Vec<Node> = (0..spines).map(|_| node(0)).collect();
        let mut links = Vec::new();
        for i in 0..n {
            nodes.push(node(1));
            links.extend((0..spines).map(|spine| link(spine, spines + i, false)));
        }
        for i in 0..n {
            nodes.push(hosts(2));
            links.push(link(spines + i, spines + n + i, false));
        }
        (nodes, links)
    }

    #[test]
    fn wide_tiers_wrap_and_lines_pass_between_boxes() {
        let (nodes, links) = leaf_spine(20, 2);
        let l = layout(&nodes, &links);
        let rows = |range: std::ops::Range<usize>| {
            let mut y: Vec<u64> = range.map(|i| l.nodes[i].y as u64).collect();
            y.dedup();
            y.len()
        };
        // 20 leaves of 130 px (100, and their two tabs) need two rows; their hosts too. The
        // spines, 20 labels wide each, stand them upright and share a row.
        assert_eq!((rows(0..2), rows(2..22), rows(22..42)), (1, 2, 2));
        let spine = l.links[0].labels[0].unwrap();
        assert!(spine.upright && spine.size.y > spine.size.x, "{spine:?}");
        assert!(!l.links[0].labels[1].unwrap().upright);
        assert_clear(&l, &links);
    }

    #[test]
    fn work_grows_with_the_graph_and_no_faster() {
        let cost = |n: usize| {
            let (nodes, links) = leaf_spine(n, 4);
            let before = work();
            let l = layout(&nodes, &links);
            assert_eq!(l.nodes.len(), nodes.len());
            work() - before
        };
        let w = [100, 400, 1600].map(cost);
        assert!(w[1] <= 5 * w[0] && w[2] <= 5 * w[1], "{w:?}");
    }

    #[test]
    fn loops_and_long_links_are_routed() {
        let nodes = [node(0), node(1), node(2)];
        let links = [link(0, 0, false), link(0, 2, false), link(0, 1, false)];
        let l = layout(&nodes, &links);
        // A loop leaves and enters the box's right side, its labels beyond it.
        let r = &l.links[0];
        assert_eq!(r.curves[0][0].x, l.nodes[0].x + 50.0);
        assert!(r.labels[0].unwrap().min.x > l.nodes[0].x + 50.0 + 0.75 * LOOP);
        // The long link passes the middle row beside the box there, not through it.
        let passing = l.links[1]
            .curves
            .iter()
            .find(|c| c[0].y < l.nodes[1].y && c[3].y > l.nodes[1].y);
        assert!(
            (passing.unwrap()[0].x - l.nodes[1].x).abs() >= 50.0,
            "{:?}",
            l.links[1].curves
        );
        assert_clear(&l, &links);
    }
}
