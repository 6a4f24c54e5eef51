//! Where the topology picture puts each box, link and label: a layered layout in the manner of
//! Sugiyama (as Graphviz's `dot` draws), each step linear in the graph's nodes, links and the
//! rows a link crosses (sorting and the crossing count add a logarithm). The layout crate
//! used before (layout-rs) compared every pair of nodes of a row against the whole next row
//! for each reordering step: the cube of the row's width, minutes at a thousand switches.
//!
//! - Rows: a node's row is the longest path of links above it, and never above its `floor`
//!   (the caller's tier: spines, then switches, then hosts). A link marked `flat` (an MLAG
//!   pair's peer link) does not push its lower end down: the pair shares a row, side by side.
//! - Between two rows of nodes, a row of labels: every link takes a slot there for its label,
//!   so labels never overlap one another or a box. A link crossing more rows takes a narrow
//!   slot in each.
//! - Order in each row: barycenter sweeps down and up, a fixed number, keeping the order with
//!   the fewest crossings (counted with an accumulator tree, Barth, Jünger and Mutzel 2002).
//!   Nodes joined by flat links move as one block.
//! - x: row by row, each node as near the mean of its neighbours in the row before as the
//!   boxes' widths allow: the least-squares fit under the order is an isotonic regression,
//!   solved exactly by pool-adjacent-violators; a few sweeps down and up.
//!
//! [`work`] counts the elements each step visits, so a test can check that the layout's cost
//! grows with the graph and no faster.

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
    pub size: Point,
    /// The highest row it may take.
    pub floor: usize,
}

/// A link between two boxes: `from` is drawn above `to` (or, in one row, before it); the
/// caller gives links in an order where `from` comes before `to` in some order of the nodes
/// (no cycle). `from == to` is a loop, drawn on the box's side.
pub struct Link {
    pub from: usize,
    pub to: usize,
    /// The label's size.
    pub label: Point,
    /// May join two boxes of one row.
    pub flat: bool,
}

/// A link as drawn: cubic Bézier segments (start, two control points, end), one after the
/// other, and the centre of its label.
pub struct Route {
    pub curves: Vec<[Point; 4]>,
    pub label: Point,
}

pub struct Layout {
    /// Each box's centre.
    pub nodes: Vec<Point>,
    pub links: Vec<Route>,
    /// The bottom right corner of everything drawn (the top left is the origin).
    pub size: Point,
}

/// Space around the picture, between boxes of a row, between labels, and between a row and
/// the labels under it.
const MARGIN: f64 = 10.0;
const NODE_GAP: f64 = 30.0;
const SLOT_GAP: f64 = 14.0;
const ROW_GAP: f64 = 30.0;
/// The width a link takes in a row it crosses without its label.
const THROUGH: f64 = 4.0;
/// How far a loop reaches out of its box, and the space between the loop and its label.
const LOOP: f64 = 26.0;
const LOOP_PAD: f64 = 6.0;
/// Barycenter sweeps (each down, then up) and coordinate sweeps.
const ORDER_SWEEPS: usize = 6;
const PLACE_SWEEPS: usize = 8;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// The elements the layouts of this thread have visited so far: each node, slot or link once
/// per step it takes part in (a sort and a tree count one per element: their logarithm is
/// not counted).
pub fn work() -> u64 {
    WORK.with(Cell::get)
}

fn count(n: usize) {
    WORK.with(|w| w.set(w.get() + n as u64));
}

/// What takes a place in a row: a box, a link's label, or a link passing through.
#[derive(Clone, Copy)]
enum Slot {
    Node,
    Label,
    Through,
}

/// The layered graph: every slot with its row, its half widths and height, and the segments
/// between slots of adjacent rows.
struct Layers {
    slots: Vec<(Slot, usize)>,
    /// Half width to the left and to the right of the slot's centre, and height.
    left: Vec<f64>,
    right: Vec<f64>,
    height: Vec<f64>,
    /// Each slot's neighbours in the row above and in the row below (`up[i]`, `down[i]`).
    up: Vec<Vec<usize>>,
    down: Vec<Vec<usize>>,
    /// Slots of each row, in order; and each slot's index in its row.
    rows: Vec<Vec<usize>>,
    pos: Vec<usize>,
    /// Each slot's block (slots joined by flat links; a slot alone is its own block).
    block: Vec<usize>,
    /// The gap a flat link's label needs after a slot (when its partner follows it).
    gap_after: Vec<f64>,
    /// Per link: its slots top to bottom (a link within a row: none).
    chains: Vec<Vec<usize>>,
}

pub fn layout(nodes: &[Node], links: &[Link]) -> Layout {
    if nodes.is_empty() {
        return Layout {
            nodes: Vec::new(),
            links: Vec::new(),
            size: Point::default(),
        };
    }
    let rank = ranks(nodes, links);
    let mut layers = build(nodes, links, &rank);
    order(&mut layers);
    let x = place(&layers);
    let y = heights(&layers);
    route(nodes, links, &layers, &x, &y)
}

/// Each node's row: the longest path above it (a flat link counts nought), at least its floor.
fn ranks(nodes: &[Node], links: &[Link]) -> Vec<usize> {
    let n = nodes.len();
    let mut indegree = vec![0usize; n];
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, l) in links.iter().enumerate() {
        if l.from != l.to {
            indegree[l.to] += 1;
            out[l.from].push(i);
        }
    }
    let mut rank: Vec<usize> = nodes.iter().map(|n| n.floor).collect();
    // Kahn's order; were there a cycle, its nodes keep the rank their other links gave.
    let mut ready: Vec<usize> = (0..n).rev().filter(|&i| indegree[i] == 0).collect();
    while let Some(u) = ready.pop() {
        for &i in &out[u] {
            let l = &links[i];
            let step = usize::from(!l.flat);
            rank[l.to] = rank[l.to].max(rank[u] + step);
            indegree[l.to] -= 1;
            if indegree[l.to] == 0 {
                ready.push(l.to);
            }
        }
    }
    count(n + links.len());
    rank
}

/// The slots of every row: a node's row is `2 × rank`; the row under it holds the labels of the
/// links going down from it.
fn build(nodes: &[Node], links: &[Link], rank: &[usize]) -> Layers {
    let n = nodes.len();
    let mut layers = Layers {
        slots: Vec::new(),
        left: Vec::new(),
        right: Vec::new(),
        height: Vec::new(),
        up: Vec::new(),
        down: Vec::new(),
        rows: Vec::new(),
        pos: Vec::new(),
        block: Vec::new(),
        gap_after: Vec::new(),
        chains: Vec::new(),
    };
    let loops = loop_widths(nodes, links);
    for (i, node) in nodes.iter().enumerate() {
        let half = node.size.x / 2.0;
        layers.push(Slot::Node, 2 * rank[i], half, half + loops[i], node.size.y);
    }
    for l in links {
        let (top, bottom) = (rank[l.from], rank[l.to]);
        let mut chain = Vec::new();
        if l.from != l.to && bottom > top {
            let mut above = l.from;
            for row in 2 * top + 1..2 * bottom {
                let slot = if row == 2 * top + 1 {
                    let half = l.label.x / 2.0;
                    layers.push(Slot::Label, row, half, half, l.label.y)
                } else {
                    let half = THROUGH / 2.0;
                    layers.push(Slot::Through, row, half, half, 0.0)
                };
                layers.join(above, slot);
                chain.push(slot);
                above = slot;
            }
            layers.join(above, l.to);
        }
        layers.chains.push(chain);
    }
    blocks(&mut layers, links, rank, n);
    count(layers.slots.len() + links.len());
    layers
}

/// The width a node's loops (links to itself) and their labels take on its right.
fn loop_widths(nodes: &[Node], links: &[Link]) -> Vec<f64> {
    let mut extra = vec![0.0f64; nodes.len()];
    for l in links.iter().filter(|l| l.from == l.to) {
        extra[l.from] = extra[l.from].max(LOOP + LOOP_PAD + l.label.x);
    }
    extra
}

/// Joins the ends of flat links that share a row into blocks, the lower index first; and the
/// gap each such link's label needs.
fn blocks(layers: &mut Layers, links: &[Link], rank: &[usize], n: usize) {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for l in links {
        if l.flat && l.from != l.to && rank[l.from] == rank[l.to] {
            let (a, b) = (root(&mut parent, l.from), root(&mut parent, l.to));
            parent[a.max(b)] = a.min(b);
            let gap = l.label.x + 2.0 * SLOT_GAP;
            let first = l.from.min(l.to);
            layers.gap_after[first] = layers.gap_after[first].max(gap);
        }
    }
    for i in 0..n {
        layers.block[i] = root(&mut parent, i);
    }
    count(n + links.len());
}

impl Layers {
    fn push(&mut self, slot: Slot, row: usize, left: f64, right: f64, height: f64) -> usize {
        let i = self.slots.len();
        self.slots.push((slot, row));
        self.left.push(left);
        self.right.push(right);
        self.height.push(height);
        self.up.push(Vec::new());
        self.down.push(Vec::new());
        self.pos.push(0);
        self.block.push(i);
        self.gap_after.push(0.0);
        if self.rows.len() <= row {
            self.rows.resize(row + 1, Vec::new());
        }
        self.rows[row].push(i);
        i
    }

    fn join(&mut self, above: usize, below: usize) {
        self.down[above].push(below);
        self.up[below].push(above);
    }

    fn reindex(&mut self, row: usize) {
        for (p, &s) in self.rows[row].iter().enumerate() {
            self.pos[s] = p;
        }
    }

    /// The space between the centres of two neighbours in a row, `a` before `b`.
    fn separation(&self, a: usize, b: usize) -> f64 {
        let gap = match (self.slots[a].0, self.slots[b].0) {
            (Slot::Node, Slot::Node) if self.block[a] == self.block[b] => {
                self.gap_after[a].max(NODE_GAP)
            }
            (Slot::Node, Slot::Node) => NODE_GAP,
            _ => SLOT_GAP,
        };
        self.right[a] + gap + self.left[b]
    }
}

/// Orders every row: the first by the nodes' order, each next one by barycenter, then sweeps
/// up and down, keeping the order with the fewest crossings.
fn order(layers: &mut Layers) {
    for row in 0..layers.rows.len() {
        // Blocks together, in their first node's order.
        let mut items = std::mem::take(&mut layers.rows[row]);
        items.sort_by_key(|&s| (layers.block[s], s));
        layers.rows[row] = items;
        layers.reindex(row);
    }
    sweep(layers, true);
    let mut best = (crossings(layers), layers.rows.clone());
    for i in 0..2 * ORDER_SWEEPS {
        if best.0 == 0 {
            break;
        }
        sweep(layers, i % 2 == 1);
        let c = crossings(layers);
        if c < best.0 {
            best = (c, layers.rows.clone());
        }
    }
    layers.rows = best.1;
    for row in 0..layers.rows.len() {
        layers.reindex(row);
    }
}

/// One barycenter sweep: down (each row by the row above) or up.
fn sweep(layers: &mut Layers, down: bool) {
    let n = layers.rows.len();
    let rows: Vec<usize> = if down {
        (1..n).collect()
    } else {
        (0..n.saturating_sub(1)).rev().collect()
    };
    for row in rows {
        let items = std::mem::take(&mut layers.rows[row]);
        // A slot's barycenter: the mean position of its neighbours in the row swept from;
        // without one, where it stands. A block's: the mean of its members'.
        let mut sum: std::collections::HashMap<usize, (f64, f64)> = Default::default();
        for &s in &items {
            let near = if down { &layers.up[s] } else { &layers.down[s] };
            let (total, weight) = if near.is_empty() {
                (layers.pos[s] as f64, 1.0)
            } else {
                let t: usize = near.iter().map(|&o| layers.pos[o]).sum();
                (t as f64, near.len() as f64)
            };
            let e = sum.entry(layers.block[s]).or_default();
            e.0 += total / weight;
            e.1 += 1.0;
            count(1 + near.len());
        }
        let mut keyed: Vec<(f64, usize, usize)> = items
            .iter()
            .map(|&s| {
                let (t, k) = sum[&layers.block[s]];
                (t / k, layers.block[s], s)
            })
            .collect();
        // Ties keep the block's first member's place; a block's members stay in their order.
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        count(keyed.len());
        layers.rows[row] = keyed.into_iter().map(|(_, _, s)| s).collect();
        layers.reindex(row);
    }
}

/// Crossings between every two adjacent rows: the segments sorted by their upper end, the
/// inversions among their lower ends counted with an accumulator tree.
fn crossings(layers: &Layers) -> u64 {
    let mut total = 0u64;
    for row in 0..layers.rows.len().saturating_sub(1) {
        let mut segments: Vec<(usize, usize)> = layers.rows[row]
            .iter()
            .flat_map(|&s| layers.down[s].iter().map(move |&d| (s, d)))
            .map(|(s, d)| (layers.pos[s], layers.pos[d]))
            .collect();
        segments.sort_unstable();
        let width = layers.rows[row + 1].len();
        let mut tree = vec![0u64; width + 1];
        for (seen, &(_, b)) in segments.iter().enumerate() {
            // Segments seen so far whose lower end is right of this one's cross it.
            let mut i = b + 1;
            let mut not_after = 0;
            while i > 0 {
                not_after += tree[i];
                i &= i - 1;
            }
            total += seen as u64 - not_after;
            let mut i = b + 1;
            while i <= width {
                tree[i] += 1;
                i += i & i.wrapping_neg();
            }
        }
        count(segments.len());
    }
    total
}

/// Each slot's x: rows packed left to right, then sweeps down and up that move each row's
/// slots as near the mean of their neighbours in the row before as their order allows.
fn place(layers: &Layers) -> Vec<f64> {
    let mut x = vec![0.0f64; layers.slots.len()];
    for row in &layers.rows {
        let mut at = 0.0;
        for (i, &s) in row.iter().enumerate() {
            at += if i == 0 {
                layers.left[s]
            } else {
                layers.separation(row[i - 1], s)
            };
            x[s] = at;
        }
    }
    let n = layers.rows.len();
    for _ in 0..PLACE_SWEEPS {
        for row in 1..n {
            fit(layers, row, &layers.up, &mut x);
        }
        for row in (0..n.saturating_sub(1)).rev() {
            fit(layers, row, &layers.down, &mut x);
        }
    }
    // The leftmost edge at the margin.
    let left = (0..x.len())
        .map(|s| x[s] - layers.left[s])
        .fold(f64::INFINITY, f64::min);
    for v in &mut x {
        *v += MARGIN - left;
    }
    x
}

/// Moves one row's slots to the least-squares fit of their targets (the mean x of their
/// neighbours in `near`; a slot without one stays, weighing little) that keeps their order and
/// separations: with `o` the offsets of the packed row, `x - o` must not decrease, an isotonic
/// regression, solved by pool-adjacent-violators.
fn fit(layers: &Layers, row: usize, near: &[Vec<usize>], x: &mut [f64]) {
    let slots = &layers.rows[row];
    // Pools of consecutive slots: (weighted sum of targets, weight, slots).
    let mut pools: Vec<(f64, f64, usize)> = Vec::with_capacity(slots.len());
    let mut offset = 0.0;
    let mut offsets = Vec::with_capacity(slots.len());
    for (i, &s) in slots.iter().enumerate() {
        if i > 0 {
            offset += layers.separation(slots[i - 1], s);
        }
        offsets.push(offset);
        let (target, weight) = if near[s].is_empty() {
            (x[s], 0.1)
        } else {
            let t: f64 = near[s].iter().map(|&o| x[o]).sum();
            (t / near[s].len() as f64, near[s].len() as f64)
        };
        let mut pool = ((target - offset) * weight, weight, 1);
        while let Some(&(sum, w, k)) = pools.last() {
            if sum / w < pool.0 / pool.1 {
                break;
            }
            pools.pop();
            pool = (pool.0 + sum, pool.1 + w, pool.2 + k);
        }
        pools.push(pool);
        count(1 + near[s].len());
    }
    let mut i = 0;
    for (sum, w, k) in pools {
        for _ in 0..k {
            x[slots[i]] = sum / w + offsets[i];
            i += 1;
        }
    }
}

/// The y of each row's centre line.
fn heights(layers: &Layers) -> Vec<f64> {
    let mut y = Vec::with_capacity(layers.rows.len());
    let mut top = MARGIN;
    for (r, row) in layers.rows.iter().enumerate() {
        let h = row.iter().map(|&s| layers.height[s]).fold(0.0, f64::max);
        y.push(top + h / 2.0);
        top += h;
        // Labels sit between two rows of boxes, a gap above and below them.
        if r + 1 < layers.rows.len() {
            top += ROW_GAP;
        }
    }
    y
}

/// Every box's centre, and each link's route through its slots.
fn route(nodes: &[Node], links: &[Link], layers: &Layers, x: &[f64], y: &[f64]) -> Layout {
    let centre = |s: usize| Point::new(x[s], y[layers.slots[s].1]);
    let centres: Vec<Point> = (0..nodes.len()).map(centre).collect();
    let (starts, ends) = ports(nodes, links, layers, x, &centres);
    let mut loops = vec![0usize; nodes.len()];
    let mut routes = Vec::with_capacity(links.len());
    for (i, l) in links.iter().enumerate() {
        let chain = &layers.chains[i];
        let route = if l.from == l.to {
            loops[l.from] += 1;
            self_loop(&nodes[l.from], centres[l.from], l, loops[l.from] - 1)
        } else if chain.is_empty() {
            flat(nodes, centres[l.from], centres[l.to], l)
        } else {
            let mut points = vec![starts[i]];
            points.extend(chain.iter().map(|&s| centre(s)));
            points.push(ends[i]);
            Route {
                curves: points.windows(2).map(|p| smooth(p[0], p[1])).collect(),
                label: centre(chain[0]),
            }
        };
        routes.push(route);
    }
    count(layers.slots.len() + links.len());
    let mut size = Point::default();
    for (s, (_, row)) in layers.slots.iter().enumerate() {
        size.x = size.x.max(x[s] + layers.right[s]);
        size.y = size.y.max(y[*row] + layers.height[s] / 2.0);
    }
    Layout {
        nodes: centres,
        links: routes,
        size,
    }
}

/// Where each link leaves its upper box and enters its lower one: spread along the box's bottom
/// (top) edge in the order of the slots they go to, so links fan out instead of meeting in one
/// point.
fn ports(
    nodes: &[Node],
    links: &[Link],
    layers: &Layers,
    x: &[f64],
    centres: &[Point],
) -> (Vec<Point>, Vec<Point>) {
    let mut starts = vec![Point::default(); links.len()];
    let mut ends = vec![Point::default(); links.len()];
    let mut leaving: Vec<Vec<(f64, usize)>> = vec![Vec::new(); nodes.len()];
    let mut entering: Vec<Vec<(f64, usize)>> = vec![Vec::new(); nodes.len()];
    for (i, chain) in layers.chains.iter().enumerate() {
        if let (Some(&first), Some(&last)) = (chain.first(), chain.last()) {
            leaving[links[i].from].push((x[first], i));
            entering[links[i].to].push((x[last], i));
        }
    }
    for (n, node) in nodes.iter().enumerate() {
        let c = centres[n];
        let spread = |list: &mut Vec<(f64, usize)>, y: f64, out: &mut [Point]| {
            list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let k = list.len();
            for (j, &(_, i)) in list.iter().enumerate() {
                let dx = if k < 2 {
                    0.0
                } else {
                    node.size.x * 0.6 * (j as f64 / (k - 1) as f64 - 0.5)
                };
                out[i] = Point::new(c.x + dx, y);
            }
            count(k);
        };
        spread(&mut leaving[n], c.y + node.size.y / 2.0, &mut starts);
        spread(&mut entering[n], c.y - node.size.y / 2.0, &mut ends);
    }
    (starts, ends)
}

/// A curve from `a` down to `b` that leaves and enters vertically.
fn smooth(a: Point, b: Point) -> [Point; 4] {
    let mid = (a.y + b.y) / 2.0;
    [a, Point::new(a.x, mid), Point::new(b.x, mid), b]
}

/// A straight segment as a curve.
fn line(a: Point, b: Point) -> [Point; 4] {
    [a, a, b, b]
}

/// A link between two boxes of one row: a line between their sides when they are neighbours
/// (the gap between them holds its label), else an arc over the boxes between them.
fn flat(nodes: &[Node], a: Point, b: Point, l: &Link) -> Route {
    let (left, right, lw, rw) = if a.x <= b.x {
        (a, b, nodes[l.from].size, nodes[l.to].size)
    } else {
        (b, a, nodes[l.to].size, nodes[l.from].size)
    };
    let start = Point::new(left.x + lw.x / 2.0, left.y);
    let end = Point::new(right.x - rw.x / 2.0, right.y);
    let room = end.x - start.x;
    if room >= l.label.x + 2.0 * SLOT_GAP - 0.5 {
        // The label just above the line, clear of it.
        return Route {
            curves: vec![line(start, end)],
            label: Point::new((start.x + end.x) / 2.0, start.y - l.label.y / 2.0 - 2.0),
        };
    }
    let top = left.y - lw.y.max(rw.y) / 2.0;
    let rise = ROW_GAP + l.label.y;
    let (s, e) = (Point::new(left.x, top), Point::new(right.x, top));
    Route {
        curves: vec![[
            s,
            Point::new(s.x, top - rise),
            Point::new(e.x, top - rise),
            e,
        ]],
        label: Point::new((s.x + e.x) / 2.0, top - rise * 0.75),
    }
}

/// The `k`th loop of a box: out of its right side and back, its label beyond it.
fn self_loop(node: &Node, c: Point, l: &Link, k: usize) -> Route {
    let side = c.x + node.size.x / 2.0;
    let reach = LOOP * (1.0 + k as f64 * 0.5);
    let h = node.size.y / 4.0;
    let (a, b) = (Point::new(side, c.y - h), Point::new(side, c.y + h));
    Route {
        curves: vec![[
            a,
            Point::new(side + reach, c.y - 2.0 * h),
            Point::new(side + reach, c.y + 2.0 * h),
            b,
        ]],
        label: Point::new(
            side + reach + LOOP_PAD + l.label.x / 2.0,
            c.y + k as f64 * l.label.y,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(floor: usize) -> Node {
        Node {
            size: Point::new(100.0, 40.0),
            floor,
        }
    }

    fn link(from: usize, to: usize, flat: bool) -> Link {
        Link {
            from,
            to,
            label: Point::new(60.0, 14.0),
            flat,
        }
    }

    #[test]
    fn a_pair_shares_a_row_and_hosts_go_under_it() {
        // Two switches with a peer link, hosts cabled to both.
        let nodes = [node(0), node(0), node(1)];
        let links = [link(0, 1, true), link(0, 2, false), link(1, 2, false)];
        let l = layout(&nodes, &links);
        assert_eq!(l.nodes[0].y, l.nodes[1].y);
        assert!(l.nodes[2].y > l.nodes[0].y + 40.0);
        // The hosts centred under the pair, the pair apart by at least the peer link's label.
        let mid = (l.nodes[0].x + l.nodes[1].x) / 2.0;
        assert!((l.nodes[2].x - mid).abs() < 1.0, "{:?}", l.nodes);
        assert!(l.nodes[1].x - l.nodes[0].x >= 100.0 + 60.0);
        // The peer link is a line between the boxes' sides.
        assert_eq!(l.links[0].curves.len(), 1);
        assert_eq!(l.links[0].curves[0][0].x, l.nodes[0].x + 50.0);
    }

    #[test]
    fn crossings_are_undone() {
        // Two spines; leaf 2 on spine 1 only, leaf 3 on spine 0 only: the leaves swap.
        let nodes = [node(0), node(0), node(1), node(1)];
        let links = [link(1, 2, false), link(0, 3, false)];
        let l = layout(&nodes, &links);
        assert!(l.nodes[3].x < l.nodes[2].x, "{:?}", l.nodes);
        // No box overlaps another in its row.
        assert!(l.nodes[2].x - l.nodes[3].x >= 100.0 + NODE_GAP - 0.01);
    }

    /// Four spines, `n` leaves each cabled to every spine, a host node under each leaf.
    fn leaf_spine(n: usize) -> (Vec<Node>, Vec<Link>) {
        let mut nodes: Vec<Node> = (0..4).map(|_| node(0)).collect();
        let mut links = Vec::new();
        for _ in 0..n {
            let at = nodes.len();
            nodes.extend([node(1), node(2)]);
            links.extend((0..4).map(|spine| link(spine, at, false)));
            links.push(link(at, at + 1, false));
        }
        (nodes, links)
    }

    #[test]
    fn work_grows_with_the_graph_and_no_faster() {
        let cost = |n: usize| {
            let (nodes, links) = leaf_spine(n);
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
        // A loop leaves and enters the box's right side, its label beyond it.
        let r = &l.links[0];
        assert_eq!(r.curves[0][0].x, l.nodes[0].x + 50.0);
        assert!(r.label.x > l.nodes[0].x + 50.0 + LOOP);
        // The long link passes the middle row beside the box there, not through it.
        let through = l.links[1].curves[1][3];
        assert!((through.x - l.nodes[1].x).abs() >= 50.0, "{through:?}");
        assert!(l.size.x >= r.label.x + 30.0);
    }
}
