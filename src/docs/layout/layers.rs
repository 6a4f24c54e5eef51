//! The layout's rows as layers of slots (boxes and the lines crossing a row) and their x:
//! sweeps that fit each row to its neighbours (pool-adjacent-violators).

use super::*;

/// What takes a place in a row: a box, or a line passing through.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Slot {
    Node(usize),
    Through,
}

/// The rows as slots: boxes, and a slot for each line in each row it crosses.
pub(super) struct Layers {
    pub(super) slots: Vec<Slot>,
    /// Each slot's row; its extent left and right of its centre.
    pub(super) row_of: Vec<usize>,
    pub(super) left: Vec<f64>,
    pub(super) right: Vec<f64>,
    /// A slot's neighbours in the row above and in the row below, each with the link joining
    /// them.
    pub(super) up: Vec<Vec<(usize, usize)>>,
    pub(super) down: Vec<Vec<(usize, usize)>>,
    /// Per link: its two boxes, `from` first (a box's slot is its index).
    pub(super) ends: Vec<[usize; 2]>,
    /// Slots of each row, in order.
    pub(super) rows: Vec<Vec<usize>>,
    /// The gap after a slot when the next one is its partner.
    pub(super) pair_gap: Vec<f64>,
    pub(super) partner: Vec<Option<usize>>,
    /// Per link: its shape and the slots it crosses, top to bottom.
    pub(super) shapes: Vec<Shape>,
    pub(super) chains: Vec<Vec<usize>>,
}

impl Layers {
    pub(super) fn build(
        nodes: &[Node],
        links: &[Link],
        boxes: &Boxes,
        rows: &[Vec<usize>],
    ) -> Layers {
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

    pub(super) fn shape(&self, l: &Link, side: bool) -> Shape {
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

    pub(super) fn push_through(&mut self, row: usize) -> usize {
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

    pub(super) fn join(&mut self, above: usize, below: usize, link: usize) {
        self.down[above].push((below, link));
        self.up[below].push((above, link));
    }

    /// Where `link` meets `slot`, from the slot's centre: its tab on a box (`shift`, per link
    /// and end), nothing on a line's slot.
    pub(super) fn offset(&self, slot: usize, link: usize, shift: &[[f64; 2]]) -> f64 {
        match self.slots[slot] {
            Slot::Node(i) => shift[link][usize::from(self.ends[link][0] != i)],
            Slot::Through => 0.0,
        }
    }

    /// Puts each row's crossing lines among its boxes by where they cross it, never between
    /// the boxes of a pair.
    pub(super) fn merge(&mut self, mut crossing: Vec<Vec<(f64, usize)>>, frac: &[f64]) {
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
    pub(super) fn separation(&self, a: usize, b: usize) -> f64 {
        let gap = match (self.slots[a], self.slots[b]) {
            (Slot::Node(_), Slot::Node(_)) if self.partner[a] == Some(b) => self.pair_gap[a.min(b)],
            (Slot::Node(_), Slot::Node(_)) => NODE_GAP,
            (Slot::Through, Slot::Through) => THROUGH_GAP,
            _ => SLOT_GAP,
        };
        self.right[a] + gap + self.left[b]
    }

    /// Each row's width packed.
    pub(super) fn widths(&self) -> Vec<f64> {
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
    pub(super) fn overflow(&self, nodes: &[Node], budgets: &[f64]) -> Vec<Option<f64>> {
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
pub(super) fn place(layers: &Layers, shift: &[[f64; 2]], start: Option<Vec<f64>>) -> Vec<f64> {
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
pub(super) fn fit(
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
