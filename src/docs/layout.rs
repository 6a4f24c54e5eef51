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

/// What takes a place in a row: a box, or a line passing through.
#[derive(Clone, Copy, PartialEq)]
enum Slot {
    Node(usize),
    Through,
}

/// The rows as slots: boxes, and a slot for each line in each row it crosses.
struct Layers {
    slots: Vec<Slot>,
    /// Each slot's row; its extent left and right of its centre.
    row_of: Vec<usize>,
    left: Vec<f64>,
    right: Vec<f64>,
    /// A slot's neighbours in the row above and in the row below, each with the link joining
    /// them.
    up: Vec<Vec<(usize, usize)>>,
    down: Vec<Vec<(usize, usize)>>,
    /// Per link: its two boxes, `from` first (a box's slot is its index).
    ends: Vec<[usize; 2]>,
    /// Slots of each row, in order.
    rows: Vec<Vec<usize>>,
    /// The gap after a slot when the next one is its partner.
    pair_gap: Vec<f64>,
    partner: Vec<Option<usize>>,
    /// Per link: its shape and the slots it crosses, top to bottom.
    shapes: Vec<Shape>,
    chains: Vec<Vec<usize>>,
}

impl Layers {
    fn build(nodes: &[Node], links: &[Link], boxes: &Boxes, rows: &[Vec<usize>]) -> Layers {
        let n = nodes.len();
        let mut row_of = vec![0; n];
        for (r, row) in rows.iter().enumerate() {
            for &i in row {
                row_of[i] = r;
            }
        }
        let mut layers = Layers {
            slots: (0..n).map(Slot::Node).collect(),
            row_of,
            left: boxes.left.clone(),
            right: boxes.right.clone(),
            up: vec![Vec::new(); n],
            down: vec![Vec::new(); n],
            rows: rows.to_vec(),
            pair_gap: boxes.pair_gap.clone(),
            partner: boxes.partner.clone(),
            shapes: Vec::with_capacity(links.len()),
            chains: Vec::with_capacity(links.len()),
            ends: links.iter().map(|l| [l.from, l.to]).collect(),
        };
        // Where each box stands in its row, as a fraction of the row.
        let mut frac = vec![0.0f64; n];
        for row in rows {
            for (p, &i) in row.iter().enumerate() {
                frac[i] = (p as f64 + 0.5) / row.len() as f64;
            }
        }
        // The lines crossing each row, with where they cross it.
        let mut crossing: Vec<Vec<(f64, usize)>> = vec![Vec::new(); rows.len()];
        for (i, l) in links.iter().enumerate() {
            let shape = layers.shape(l, boxes.side[i]);
            let mut chain = Vec::new();
            if let Shape::Down(flipped) = shape {
                let (top, bottom) = if flipped {
                    (l.to, l.from)
                } else {
                    (l.from, l.to)
                };
                let (ra, rb) = (layers.row_of[top], layers.row_of[bottom]);
                let mut above = top;
                for (r, lines) in crossing.iter_mut().enumerate().take(rb).skip(ra + 1) {
                    let t = (r - ra) as f64 / (rb - ra) as f64;
                    let s = layers.push_through(r);
                    lines.push((frac[top] + (frac[bottom] - frac[top]) * t, s));
                    layers.join(above, s, i);
                    chain.push(s);
                    above = s;
                }
                layers.join(above, bottom, i);
            }
            layers.shapes.push(shape);
            layers.chains.push(chain);
        }
        layers.merge(crossing, &frac);
        count(layers.slots.len() + links.len());
        layers
    }

    fn shape(&self, l: &Link, side: bool) -> Shape {
        let (ra, rb) = (self.row_of[l.from], self.row_of[l.to]);
        if l.from == l.to {
            Shape::Loop
        } else if side {
            Shape::Side
        } else if ra == rb {
            Shape::Under
        } else {
            Shape::Down(ra > rb)
        }
    }

    fn push_through(&mut self, row: usize) -> usize {
        let s = self.slots.len();
        self.slots.push(Slot::Through);
        self.row_of.push(row);
        self.left.push(0.0);
        self.right.push(0.0);
        self.up.push(Vec::new());
        self.down.push(Vec::new());
        self.pair_gap.push(0.0);
        self.partner.push(None);
        s
    }

    fn join(&mut self, above: usize, below: usize, link: usize) {
        self.down[above].push((below, link));
        self.up[below].push((above, link));
    }

    /// Where `link` meets `slot`, from the slot's centre: its tab on a box (`shift`, per link
    /// and end), nothing on a line's slot.
    fn offset(&self, slot: usize, link: usize, shift: &[[f64; 2]]) -> f64 {
        match self.slots[slot] {
            Slot::Node(i) => shift[link][usize::from(self.ends[link][0] != i)],
            Slot::Through => 0.0,
        }
    }

    /// Puts each row's crossing lines among its boxes by where they cross it, never between
    /// the boxes of a pair.
    fn merge(&mut self, mut crossing: Vec<Vec<(f64, usize)>>, frac: &[f64]) {
        for (r, lines) in crossing.iter_mut().enumerate() {
            if lines.is_empty() {
                continue;
            }
            lines.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let boxes = std::mem::take(&mut self.rows[r]);
            let mut merged = Vec::with_capacity(boxes.len() + lines.len());
            let mut next = lines.iter().peekable();
            let mut k = 0;
            while k < boxes.len() {
                // A pair is one unit, at its middle.
                let unit = match self.partner[boxes[k]] {
                    Some(p) if boxes.get(k + 1) == Some(&p) => 2,
                    _ => 1,
                };
                let at = boxes[k..k + unit].iter().map(|&i| frac[i]).sum::<f64>() / unit as f64;
                while let Some(&&(f, s)) = next.peek() {
                    if f >= at {
                        break;
                    }
                    merged.push(s);
                    next.next();
                }
                merged.extend(&boxes[k..k + unit]);
                k += unit;
            }
            merged.extend(next.map(|&(_, s)| s));
            count(merged.len());
            self.rows[r] = merged;
        }
    }

    /// The space between the centres of two neighbours in a row, `a` before `b`.
    fn separation(&self, a: usize, b: usize) -> f64 {
        let gap = match (self.slots[a], self.slots[b]) {
            (Slot::Node(_), Slot::Node(_)) if self.partner[a] == Some(b) => self.pair_gap[a.min(b)],
            (Slot::Node(_), Slot::Node(_)) => NODE_GAP,
            (Slot::Through, Slot::Through) => THROUGH_GAP,
            _ => SLOT_GAP,
        };
        self.right[a] + gap + self.left[b]
    }

    /// Each row's width packed.
    fn widths(&self) -> Vec<f64> {
        self.rows
            .iter()
            .map(|row| match row.first() {
                None => 0.0,
                Some(&first) => {
                    let inner: f64 = row.windows(2).map(|p| self.separation(p[0], p[1])).sum();
                    self.left[first] + inner + self.right[row[row.len() - 1]]
                }
            })
            .collect()
    }

    /// Per tier, how much a row of it wider than its budget (and not a single box or pair) is
    /// over.
    fn overflow(&self, nodes: &[Node], budgets: &[f64]) -> Vec<Option<f64>> {
        let mut over: Vec<Option<f64>> = vec![None; budgets.len()];
        let mut rows = vec![0; budgets.len()];
        for row in &self.rows {
            if let Some(Slot::Node(i)) = row
                .iter()
                .map(|&s| self.slots[s])
                .find(|s| *s != Slot::Through)
            {
                rows[nodes[i].tier] += 1;
            }
        }
        for (row, width) in self.rows.iter().zip(self.widths()) {
            let boxes: Vec<usize> = row
                .iter()
                .filter_map(|&s| match self.slots[s] {
                    Slot::Node(i) => Some(i),
                    Slot::Through => None,
                })
                .collect();
            let Some(&first) = boxes.first() else {
                continue;
            };
            let tier = nodes[first].tier;
            let single = boxes.len() == 1 || (boxes.len() == 2 && self.partner[first].is_some());
            if width > budgets[tier] + 0.5 && !single && rows[tier] < MAX_ROWS {
                let excess = width - budgets[tier];
                over[tier] = Some(over[tier].unwrap_or(0.0).max(excess));
            }
        }
        count(self.slots.len());
        over
    }
}

/// Each slot's x (from the picture's left margin): rows packed and centred in the widest one's
/// width (or from `start`), then sweeps down and up that move each row's slots as near their
/// neighbours in the row before as their order allows, inside that width; near enough that,
/// with `shift` (per link, where each end's tab is on its box), a line between two boxes is
/// straight.
fn place(layers: &Layers, shift: &[[f64; 2]], start: Option<Vec<f64>>) -> Vec<f64> {
    let widths = layers.widths();
    let frame = widths.iter().copied().fold(0.0, f64::max);
    let mut x = start.unwrap_or_else(|| {
        let mut x = vec![0.0f64; layers.slots.len()];
        for (row, width) in layers.rows.iter().zip(&widths) {
            let mut at = (frame - width) / 2.0;
            for (i, &s) in row.iter().enumerate() {
                at += if i == 0 {
                    layers.left[s]
                } else {
                    layers.separation(row[i - 1], s)
                };
                x[s] = at;
            }
        }
        x
    });
    let n = layers.rows.len();
    for _ in 0..PLACE_SWEEPS {
        for row in 1..n {
            fit(layers, row, &layers.up, shift, frame, &mut x);
        }
        for row in (0..n.saturating_sub(1)).rev() {
            fit(layers, row, &layers.down, shift, frame, &mut x);
        }
    }
    x
}

/// Moves one row's slots to the least-squares fit of their targets (where their neighbours in
/// `near` put them; a slot without one stays, weighing little) that keeps their order and
/// separations, and the row within `0..frame`: with `o` the offsets of the packed row, `x - o`
/// must not decrease, an isotonic regression, solved by pool-adjacent-violators and clamped
/// to the frame (which keeps it the best fit).
fn fit(
    layers: &Layers,
    row: usize,
    near: &[Vec<(usize, usize)>],
    shift: &[[f64; 2]],
    frame: f64,
    x: &mut [f64],
) {
    let slots = &layers.rows[row];
    let Some(&last) = slots.last() else {
        return;
    };
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
            // The line to each neighbour straight: this slot's end of it under (over) the
            // neighbour's.
            let t: f64 = near[s]
                .iter()
                .map(|&(o, l)| x[o] + layers.offset(o, l, shift) - layers.offset(s, l, shift))
                .sum();
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
    let low = layers.left[slots[0]];
    let high = (frame - layers.right[last] - offset).max(low);
    let mut i = 0;
    for (sum, w, k) in pools {
        for _ in 0..k {
            x[slots[i]] = (sum / w).clamp(low, high) + offsets[i];
            i += 1;
        }
    }
}

/// Where a line meets a box: its x, and the line's index and end (0: `from`'s).
type Tab = (f64, usize, usize);

/// The picture: tabs, bands and routes.
fn draw(nodes: &[Node], links: &[Link], boxes: &Boxes, layers: &Layers, x: &[f64]) -> Layout {
    let x: &[f64] = &x.iter().map(|v| v + MARGIN).collect::<Vec<_>>();
    let tabs = tabs(nodes, links, boxes, layers, x);
    let bands = Bands::new(nodes, links, layers, x, &tabs, &boxes.upright);
    let frame = Frame {
        centres: (0..nodes.len())
            .map(|i| Point::new(x[i], bands.centre[layers.row_of[i]]))
            .collect(),
        sizes: (0..nodes.len())
            .map(|i| Point::new(boxes.width[i], nodes[i].size.y))
            .collect(),
        layers,
        x,
        bands: &bands,
        upright: &boxes.upright,
    };
    let mut loops = vec![0usize; nodes.len()];
    let routes = links
        .iter()
        .enumerate()
        .map(|(i, l)| match layers.shapes[i] {
            Shape::Loop => {
                loops[l.from] += 1;
                let (c, s) = (frame.centres[l.from], frame.sizes[l.from]);
                self_loop(c, s, l, loops[l.from] - 1)
            }
            Shape::Side => frame.side(l),
            Shape::Under => frame.under(i, l, &tabs[i]),
            Shape::Down(flipped) => frame.down(i, l, flipped, &tabs[i]),
        })
        .collect();
    count(layers.slots.len() + links.len());
    let width = layers.widths().into_iter().fold(0.0, f64::max) + 2.0 * MARGIN;
    Layout {
        nodes: frame.centres,
        sizes: frame.sizes,
        links: routes,
        size: Point::new(width, bands.bottom),
    }
}

/// Per link, the x where each end meets its box (none for loops and a pair's link): each box's
/// tabs on its top and bottom edges in the order of where their lines go, spread along the edge.
fn tabs(
    nodes: &[Node],
    links: &[Link],
    boxes: &Boxes,
    layers: &Layers,
    x: &[f64],
) -> Vec<[f64; 2]> {
    // Per box: its tabs on the top edge, then on the bottom one.
    let mut edges: Vec<[Vec<Tab>; 2]> = vec![[Vec::new(), Vec::new()]; nodes.len()];
    for (i, l) in links.iter().enumerate() {
        let chain = &layers.chains[i];
        match layers.shapes[i] {
            Shape::Under => {
                edges[l.from][1].push((x[l.to], i, 0));
                edges[l.to][1].push((x[l.from], i, 1));
            }
            Shape::Down(flipped) => {
                let (top, bottom) = if flipped {
                    (l.to, l.from)
                } else {
                    (l.from, l.to)
                };
                let below = chain.first().copied().unwrap_or(bottom);
                let above = chain.last().copied().unwrap_or(top);
                edges[top][1].push((x[below], i, usize::from(flipped)));
                edges[bottom][0].push((x[above], i, usize::from(!flipped)));
            }
            Shape::Loop | Shape::Side => {}
        }
    }
    let mut at = vec![[0.0f64; 2]; links.len()];
    for (n, sides) in edges.iter_mut().enumerate() {
        for (edge, list) in sides.iter_mut().enumerate() {
            list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
            let upright = boxes.upright[n][edge];
            let widths: Vec<f64> = list
                .iter()
                .map(|&(_, l, e)| tab(links[l].ends[e], upright))
                .collect();
            let free = boxes.width[n] - widths.iter().sum::<f64>();
            let space = free / list.len().max(1) as f64;
            let mut left = x[n] - boxes.width[n] / 2.0 + space / 2.0;
            for (&(_, l, e), w) in list.iter().zip(&widths) {
                at[l][e] = left;
                left += w + space;
            }
            count(list.len());
        }
    }
    at
}

/// The rows' bands top to bottom: where each row's tabs and boxes go, and how deep each line
/// under a row dips.
struct Bands {
    /// Per row: the band's top, its boxes' centre line, its bottom.
    top: Vec<f64>,
    centre: Vec<f64>,
    end: Vec<f64>,
    /// Per link: how far below its row a line between two boxes of one row reaches.
    dip: Vec<f64>,
    /// The bottom of everything drawn, the margin included.
    bottom: f64,
}

impl Bands {
    fn new(
        nodes: &[Node],
        links: &[Link],
        layers: &Layers,
        x: &[f64],
        tabs: &[[f64; 2]],
        upright: &[[bool; 2]],
    ) -> Bands {
        let rows = layers.rows.len();
        let mut boxes = vec![0.0f64; rows];
        for (i, node) in nodes.iter().enumerate() {
            let r = layers.row_of[i];
            boxes[r] = boxes[r].max(node.size.y);
        }
        // Per row: the tabs above and below its boxes (as high as their tallest label), the
        // widest sideways run of a line into the next row, and the lines dipping under it.
        let (mut above, mut below) = (vec![0.0f64; rows], vec![0.0f64; rows]);
        let high = |l: &Link, end: usize, node: usize, edge: usize| -> f64 {
            let s = l.ends[end];
            (if upright[node][edge] { s.x } else { s.y }) + 2.0 * TAB_PAD
        };
        let mut run = vec![0.0f64; rows];
        let mut under: Vec<Vec<(f64, usize)>> = vec![Vec::new(); rows];
        for (i, l) in links.iter().enumerate() {
            let ra = layers.row_of[l.from];
            match layers.shapes[i] {
                Shape::Under => {
                    let h = high(l, 0, l.from, 1).max(high(l, 1, l.to, 1));
                    below[ra] = below[ra].max(h);
                    under[ra].push(((tabs[i][0] - tabs[i][1]).abs(), i));
                }
                Shape::Down(flipped) => {
                    let (te, be) = if flipped { (1, 0) } else { (0, 1) };
                    let (top, bottom) = ([l.from, l.to][te], [l.from, l.to][be]);
                    let (rt, rb) = (layers.row_of[top], layers.row_of[bottom]);
                    below[rt] = below[rt].max(high(l, te, top, 1));
                    above[rb] = above[rb].max(high(l, be, bottom, 0));
                    let mut xs = vec![tabs[i][te]];
                    xs.extend(layers.chains[i].iter().map(|&s| x[s]));
                    xs.push(tabs[i][be]);
                    for (k, pair) in xs.windows(2).enumerate() {
                        run[rt + k] = run[rt + k].max((pair[1] - pair[0]).abs());
                    }
                }
                Shape::Loop | Shape::Side => {}
            }
        }
        let mut dip = vec![0.0; links.len()];
        let mut deepest = vec![0.0f64; rows];
        for (r, list) in under.iter_mut().enumerate() {
            // The shortest dips least, so lines under a row nest.
            list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            for (k, &(_, i)) in list.iter().enumerate() {
                dip[i] = (k + 1) as f64 * DIP;
                deepest[r] = dip[i] + DIP;
            }
        }
        let (mut top, mut centre, mut end) = (Vec::new(), Vec::new(), Vec::new());
        let mut y = MARGIN;
        for r in 0..rows {
            top.push(y);
            centre.push(y + above[r] + boxes[r] / 2.0);
            end.push(y + above[r] + boxes[r] + below[r]);
            let gap = if r + 1 < rows {
                (BEND * run[r]).clamp(ROW_GAP, MAX_ROW_GAP)
            } else {
                0.0
            };
            y = end[r] + gap + deepest[r];
        }
        count(rows + links.len());
        Bands {
            top,
            centre,
            end,
            dip,
            bottom: y + MARGIN,
        }
    }
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

/// Curves through `points`: straight down a band (`true`), curved across a gap (`false`);
/// segments of no length left out, a straight run down one x one segment.
fn path(points: &[(Point, bool)]) -> Vec<[Point; 4]> {
    let mut curves: Vec<[Point; 4]> = Vec::new();
    for p in points.windows(2) {
        let (a, b) = (p[0].0, p[1].0);
        if a == b {
            continue;
        }
        match curves.last_mut() {
            Some(last) if a.x == b.x && last[0].x == a.x && last[3] == a && last[1] == last[0] => {
                *last = line(last[0], b);
            }
            _ if a.x == b.x || p[1].1 => curves.push(line(a, b)),
            _ => curves.push(smooth(a, b)),
        }
    }
    curves
}

/// A tab's label beside its line at `x`: under the edge at `y` (`below`), or above it; across,
/// or `upright` (reading down, from the edge under it, to the edge above it).
fn tab_label(x: f64, y: f64, text: Point, below: bool, upright: bool) -> Option<Label> {
    let size = if upright {
        Point::new(text.y, text.x)
    } else {
        text
    };
    (text.x > 0.0).then(|| Label {
        min: Point::new(
            x + TEXT_GAP,
            if below {
                y + TAB_PAD
            } else {
                y - TAB_PAD - size.y
            },
        ),
        size,
        end: upright && !below,
        upright,
    })
}

/// Where the boxes are, for routing the lines: the boxes' centres and sizes, the rows' slots
/// and bands, each slot's x, the edges whose labels stand upright.
struct Frame<'a> {
    centres: Vec<Point>,
    sizes: Vec<Point>,
    layers: &'a Layers,
    x: &'a [f64],
    bands: &'a Bands,
    upright: &'a [[bool; 2]],
}

impl Frame<'_> {
    /// A line from a row down to a row below: out of the upper box's bottom edge at its tab,
    /// straight through the band, curved across each gap, straight down each row it crosses (in
    /// its slot there), into the lower box's top edge at its tab.
    fn down(&self, i: usize, l: &Link, flipped: bool, tabs: &[f64; 2]) -> Route {
        let (centres, sizes, layers, bands) = (&self.centres, &self.sizes, self.layers, self.bands);
        let (x, upright) = (self.x, self.upright);
        let (top, bottom, te, be) = if flipped {
            (l.to, l.from, 1, 0)
        } else {
            (l.from, l.to, 0, 1)
        };
        let floor = centres[top].y + sizes[top].y / 2.0;
        let roof = centres[bottom].y - sizes[bottom].y / 2.0;
        let mut points = vec![
            (Point::new(tabs[te], floor), true),
            (Point::new(tabs[te], bands.end[layers.row_of[top]]), true),
        ];
        for &s in &layers.chains[i] {
            let r = layers.row_of[s];
            points.push((Point::new(x[s], bands.top[r]), false));
            points.push((Point::new(x[s], bands.end[r]), true));
        }
        points.push((
            Point::new(tabs[be], bands.top[layers.row_of[bottom]]),
            false,
        ));
        points.push((Point::new(tabs[be], roof), true));
        let mut labels = [None, None];
        labels[te] = tab_label(tabs[te], floor, l.ends[te], true, upright[top][1]);
        labels[be] = tab_label(tabs[be], roof, l.ends[be], false, upright[bottom][0]);
        Route {
            curves: path(&points),
            labels,
        }
    }

    /// A line between two boxes of one row that are not a pair: out of one's bottom edge, dipping
    /// under the row's band, into the other's.
    fn under(&self, i: usize, l: &Link, tabs: &[f64; 2]) -> Route {
        let (centres, sizes, upright) = (&self.centres, &self.sizes, self.upright);
        let band = self.bands.end[self.layers.row_of[l.from]];
        let dip = self.bands.dip[i];
        let floor = |n: usize| centres[n].y + sizes[n].y / 2.0;
        let (a, b) = (Point::new(tabs[0], band), Point::new(tabs[1], band));
        // The curve's lowest point is three quarters of its control points' depth.
        let depth = dip / 0.75;
        let mut curves = Vec::new();
        if floor(l.from) < band {
            curves.push(line(Point::new(tabs[0], floor(l.from)), a));
        }
        curves.push([
            a,
            Point::new(a.x, a.y + depth),
            Point::new(b.x, b.y + depth),
            b,
        ]);
        if floor(l.to) < band {
            curves.push(line(b, Point::new(tabs[1], floor(l.to))));
        }
        Route {
            curves,
            labels: [
                tab_label(tabs[0], floor(l.from), l.ends[0], true, upright[l.from][1]),
                tab_label(tabs[1], floor(l.to), l.ends[1], true, upright[l.to][1]),
            ],
        }
    }

    /// A pair's link: a line between the boxes' facing sides, the left end's label above it by the
    /// left box, the right end's under it by the right box.
    fn side(&self, l: &Link) -> Route {
        let (centres, sizes) = (&self.centres, &self.sizes);
        let (left, right) = if centres[l.from].x <= centres[l.to].x {
            (0, 1)
        } else {
            (1, 0)
        };
        let ends = [l.from, l.to];
        let y = centres[l.from].y;
        let a = Point::new(centres[ends[left]].x + sizes[ends[left]].x / 2.0, y);
        let b = Point::new(centres[ends[right]].x - sizes[ends[right]].x / 2.0, y);
        let mut labels = [None, None];
        let (wl, wr) = (l.ends[left], l.ends[right]);
        labels[left] = (wl.x > 0.0).then(|| Label {
            min: Point::new(a.x + TEXT_GAP, y - 2.0 - wl.y),
            size: wl,
            end: false,
            upright: false,
        });
        labels[right] = (wr.x > 0.0).then(|| Label {
            min: Point::new(b.x - TEXT_GAP - wr.x, y + 2.0),
            size: wr,
            end: true,
            upright: false,
        });
        Route {
            curves: vec![line(a, b)],
            labels,
        }
    }
}

/// How far the `k`th loop of a box reaches out of its side (loops alternate sides).
fn reach(k: usize) -> f64 {
    LOOP * (1.0 + (k / 2) as f64 / 2.0)
}

/// The `k`th loop of a box: out of its right side (the second: its left) and back, the labels
/// of its ends beyond it, by its upper and lower leg.
fn self_loop(c: Point, size: Point, l: &Link, k: usize) -> Route {
    let dir = if k.is_multiple_of(2) { 1.0 } else { -1.0 };
    let side = c.x + dir * size.x / 2.0;
    let reach = reach(k);
    let h = size.y / 4.0;
    let (a, b) = (Point::new(side, c.y - h), Point::new(side, c.y + h));
    let beyond = side + dir * (0.75 * reach + LOOP_PAD);
    let label = |end: usize, y: f64| {
        let s = l.ends[end];
        (s.x > 0.0).then(|| Label {
            min: Point::new(if dir > 0.0 { beyond } else { beyond - s.x }, y - s.y / 2.0),
            size: s,
            end: dir < 0.0,
            upright: false,
        })
    };
    Route {
        curves: vec![[
            a,
            Point::new(side + dir * reach, c.y - 2.0 * h),
            Point::new(side + dir * reach, c.y + 2.0 * h),
            b,
        ]],
        labels: [label(0, a.y), label(1, b.y)],
    }
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
