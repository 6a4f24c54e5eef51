//! The layout drawn: boxes, tabs and labels at their places, lines routed in the gaps
//! between bands, loops beside their boxes.

use super::*;

/// Where a line meets a box: its x, and the line's index and end (0: `from`'s).
pub(super) type Tab = (f64, usize, usize);

/// The picture: tabs, bands and routes.
pub(super) fn draw(
    nodes: &[Node],
    links: &[Link],
    boxes: &Boxes,
    layers: &Layers,
    x: &[f64],
) -> Layout {
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
pub(super) fn tabs(
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
pub(super) struct Bands {
    /// Per row: the band's top, its boxes' centre line, its bottom.
    pub(super) top: Vec<f64>,
    pub(super) centre: Vec<f64>,
    pub(super) end: Vec<f64>,
    /// Per link: how far below its row a line between two boxes of one row reaches.
    pub(super) dip: Vec<f64>,
    /// The bottom of everything drawn, the margin included.
    pub(super) bottom: f64,
}

impl Bands {
    pub(super) fn new(
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
pub(super) fn smooth(a: Point, b: Point) -> [Point; 4] {
    let mid = (a.y + b.y) / 2.0;
    [a, Point::new(a.x, mid), Point::new(b.x, mid), b]
}

/// A straight segment as a curve.
pub(super) fn line(a: Point, b: Point) -> [Point; 4] {
    [a, a, b, b]
}

/// Curves through `points`: straight down a band (`true`), curved across a gap (`false`);
/// segments of no length left out, a straight run down one x one segment.
pub(super) fn path(points: &[(Point, bool)]) -> Vec<[Point; 4]> {
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
pub(super) fn tab_label(x: f64, y: f64, text: Point, below: bool, upright: bool) -> Option<Label> {
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
pub(super) struct Frame<'a> {
    pub(super) centres: Vec<Point>,
    pub(super) sizes: Vec<Point>,
    pub(super) layers: &'a Layers,
    pub(super) x: &'a [f64],
    pub(super) bands: &'a Bands,
    pub(super) upright: &'a [[bool; 2]],
}

impl Frame<'_> {
    /// A line from a row down to a row below: out of the upper box's bottom edge at its tab,
    /// straight through the band, curved across each gap, straight down each row it crosses (in
    /// its slot there), into the lower box's top edge at its tab.
    pub(super) fn down(&self, i: usize, l: &Link, flipped: bool, tabs: &[f64; 2]) -> Route {
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
    pub(super) fn under(&self, i: usize, l: &Link, tabs: &[f64; 2]) -> Route {
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
    pub(super) fn side(&self, l: &Link) -> Route {
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
pub(super) fn reach(k: usize) -> f64 {
    LOOP * (1.0 + (k / 2) as f64 / 2.0)
}

/// The `k`th loop of a box: out of its right side (the second: its left) and back, the labels
/// of its ends beyond it, by its upper and lower leg.
pub(super) fn self_loop(c: Point, size: Point, l: &Link, k: usize) -> Route {
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
