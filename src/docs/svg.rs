//! The topology as an SVG picture: laid out by [`super::layout`] (tiers of spines, the other
//! switches and hosts, a tier too wide for a laptop's screen wrapped into rows; each end of a
//! line labelled with its ports beside it, where it meets its box), drawn by the writer below,
//! which gives every switch and link a class, a name and a tooltip (`<title>`) listing its
//! cables, every node and link and each label its link's index as data (`data-node`,
//! `data-link`), escapes every text, and prints coordinates to one decimal so the file is the
//! same on every run. Text widths are measured per character (DejaVu Sans's advances, rounded
//! up), so boxes and labels hold their text in any browser's default font. A picture wider than
//! the screen even so (a box wider than it, or more rows than a tier may take) is shown scaled
//! to its width (the `viewBox` keeps the drawing's own size).

use std::fmt::Write as _;

use super::layout::{self, Layout, Point, Route};
use super::markup::esc;
use super::topology::{Kind, Topology};

const FONT: usize = 13;
const LABEL_FONT: usize = 11;
const MARGIN: f64 = 10.0;

/// The width of `text` at `font` px in a sans-serif face, generously: each character's advance
/// in DejaVu Sans (Linux's default sans-serif, wider than Arial and Helvetica), as Chromium
/// measures it, rounded up to one of a few classes (any other character an em), so boxes and
/// labels hold their text in any browser's default font.
pub fn text_width(text: &str, font: usize) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '\'' | 'I' | 'J' => 0.30,
            ' ' | ',' | '.' | '/' | ':' | ';' | '\\' | '|' | '·' => 0.34,
            '!' | '(' | ')' | '[' | ']' | '-' | 'f' | 'r' | 't' => 0.40,
            'm' | 'M' | 'W' | '%' | '@' | '…' | '—' => 1.0,
            '#' | '+' | '<' | '=' | '>' | '^' | '~' | 'w' | '×' | '↔' => 0.84,
            'A'..='Z' | '&' => 0.79,
            c if c.is_ascii() => 0.64,
            _ => 1.0,
        })
        .sum();
    em * font as f64
}

/// A label's size: its text at [`LABEL_FONT`]; none when empty.
fn label_size(text: &str) -> Point {
    if text.is_empty() {
        Point::default()
    } else {
        Point::new(text_width(text, LABEL_FONT), LABEL_FONT as f64 * 1.3)
    }
}

pub fn render(t: &Topology) -> String {
    // Tiers that hold no node move up: a fabric without spines starts with its switches.
    let mut used = [false; 3];
    for n in &t.nodes {
        used[usize::from(n.tier)] = true;
    }
    let nodes: Vec<layout::Node> = t
        .nodes
        .iter()
        .map(|n| {
            let label = n.label();
            let lines = label.lines().count().max(1) as f64;
            let longest = label
                .lines()
                .map(|l| text_width(l, FONT))
                .fold(0.0, f64::max);
            layout::Node {
                size: Point::new(longest + 24.0, lines * FONT as f64 * 1.3 + 16.0),
                tier: used[..usize::from(n.tier)].iter().filter(|&&u| u).count(),
                follow: n.kind == Kind::Hosts,
            }
        })
        .collect();
    let links: Vec<layout::Link> = t
        .edges
        .iter()
        .map(|e| layout::Link {
            from: e.from,
            to: e.to,
            ends: [label_size(&e.ends[0]), label_size(&e.ends[1])],
            flat: e.ipl,
        })
        .collect();
    let drawn = layout::layout(&nodes, &links);
    let mut writer = Writer::new(t);
    writer.draw(&drawn);
    writer.finish()
}

/// Writes the layout as SVG, in three layers: links, then nodes, then the links' labels on
/// top.
struct Writer<'a> {
    topology: &'a Topology,
    links: String,
    nodes: String,
    labels: String,
    size: Point,
}

impl<'a> Writer<'a> {
    fn new(topology: &'a Topology) -> Writer<'a> {
        Writer {
            topology,
            links: String::new(),
            nodes: String::new(),
            labels: String::new(),
            size: Point::default(),
        }
    }

    fn grow(&mut self, p: Point) {
        self.size.x = self.size.x.max(p.x);
        self.size.y = self.size.y.max(p.y);
    }

    /// The legend, under the picture from `top`: one swatch per kind of node drawn, a dashed
    /// line per kind of peer link drawn; and where it ends on the right.
    fn legend(&self, top: f64) -> (String, f64) {
        let mut kinds: Vec<Kind> = self.topology.nodes.iter().map(|n| n.kind).collect();
        kinds.sort();
        kinds.dedup();
        let mut legend = String::from("<g class=\"legend\">\n");
        let mut x = MARGIN;
        for kind in kinds {
            let _ = writeln!(
                legend,
                "<rect class=\"{}\" x=\"{}\" y=\"{}\" width=\"14\" height=\"14\" rx=\"3\"/><text x=\"{}\" y=\"{}\">{}</text>",
                kind.class(),
                num(x),
                num(top),
                num(x + 20.0),
                num(top + 11.0),
                kind.legend()
            );
            x += 20.0 + text_width(&kind.legend(), FONT) + 16.0;
        }
        // A dashed line per kind of peer link drawn: an MLAG pair's, a VLT pair's (its VLTi).
        for os in crate::fabric::Os::all() {
            let (kind, text) = (Kind::Pair(os), os.target().words().peer_link);
            let drawn = self
                .topology
                .edges
                .iter()
                .any(|e| e.ipl && self.topology.nodes[e.from].kind == kind);
            if !drawn {
                continue;
            }
            let _ = writeln!(
                legend,
                "<path class=\"ipl\" d=\"M {} {} h 24\"/><text x=\"{}\" y=\"{}\">{text}</text>",
                num(x),
                num(top + 7.0),
                num(x + 30.0),
                num(top + 11.0)
            );
            x += 30.0 + text_width(text, FONT);
        }
        legend.push_str("</g>\n");
        (legend, x)
    }

    fn finish(mut self) -> String {
        // The layout's size holds its bottom margin.
        let top = self.size.y + MARGIN;
        let (legend, x) = self.legend(top);
        self.grow(Point::new(x, top + 14.0));
        let (w, h) = (self.size.x + MARGIN, self.size.y + MARGIN);
        // Shown at most a screen wide: a picture whose rows could not wrap narrower (a box
        // wider than the screen, or more rows than a tier wraps into) scales down.
        let shown = w.min(layout::MAX_WIDTH);
        let (sw, sh) = (num(shown), num(h * shown / w));
        let mut css = String::new();
        // Every kind's colours, the default OS's pair among them; another OS's pair only where
        // one is drawn (it came after the rest).
        let default = crate::fabric::Os::default();
        let others = crate::fabric::Os::all()
            .filter(|os| *os != default)
            .map(Kind::Pair)
            .filter(|k| self.topology.nodes.iter().any(|n| n.kind == *k));
        let styled = [
            Kind::Spine,
            Kind::Leaf,
            Kind::Pair(default),
            Kind::Switch,
            Kind::Hosts,
        ]
        .into_iter()
        .chain(others);
        for kind in styled {
            let (fill, stroke) = kind.colours();
            let class = kind.class();
            let _ = writeln!(
                css,
                ".{class} rect, rect.{class} {{ fill: {fill}; stroke: {stroke}; }}"
            );
        }
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{sw}\" height=\"{sh}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\n\
             <style>\n\
             text {{ font-family: sans-serif; font-size: {FONT}px; fill: #1a1a1a; }}\n\
             .node text {{ text-anchor: middle; }}\n\
             .link path {{ fill: none; stroke: #555555; stroke-width: 1.5; }}\n\
             .link.ipl path, path.ipl {{ stroke: #b06a00; stroke-dasharray: 5 4; stroke-width: 2; fill: none; }}\n\
             .label {{ font-size: {LABEL_FONT}px; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; }}\n\
             .label.end {{ text-anchor: end; }}\n\
             {css}\
             </style>\n\
             <g class=\"links\">\n{links}</g>\n<g class=\"nodes\">\n{nodes}</g>\n<g class=\"labels\">\n{labels}</g>\n{legend}</svg>\n",
            w = num(w),
            h = num(h),
            links = self.links,
            nodes = self.nodes,
            labels = self.labels,
        )
    }

    /// A `<text>` of one or more lines centred on `at`.
    fn text(at: Point, text: &str, class: &str, font: usize) -> String {
        let lines: Vec<&str> = text.lines().collect();
        let line_height = font as f64 * 1.3;
        // Centred vertically: the first baseline half the block above the middle.
        let first =
            at.y - (lines.len().saturating_sub(1)) as f64 * line_height / 2.0 + font as f64 * 0.35;
        let mut out = format!(
            "<text class=\"{class}\" x=\"{}\" y=\"{}\">",
            num(at.x),
            num(first)
        );
        for (i, line) in lines.iter().enumerate() {
            if i == 0 {
                out.push_str(&esc(line));
            } else {
                let _ = write!(
                    out,
                    "<tspan x=\"{}\" dy=\"{}\">{}</tspan>",
                    num(at.x),
                    num(line_height),
                    esc(line)
                );
            }
        }
        out.push_str("</text>\n");
        out
    }
}

impl Writer<'_> {
    fn draw(&mut self, drawn: &Layout) {
        for (i, (centre, size)) in drawn.nodes.iter().zip(&drawn.sizes).enumerate() {
            self.node(i, *centre, *size);
        }
        for (i, route) in drawn.links.iter().enumerate() {
            self.link(i, route);
        }
        self.grow(drawn.size);
    }

    /// A node: its box, its tooltip and its name, a switch's carrying its name as data.
    fn node(&mut self, i: usize, centre: Point, size: Point) {
        let n = &self.topology.nodes[i];
        let (attr, title) = match &n.switch {
            Some(name) => (
                format!(" data-switch=\"{}\"", esc(name)),
                format!("{} ({})", n.name, n.detail),
            ),
            None => (String::new(), n.label().replace('\n', ", ")),
        };
        let _ = write!(
            self.nodes,
            "<g class=\"node {}\" data-node=\"{}\"{attr}><title>{}</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\"/>",
            n.kind.class(),
            esc(&n.name),
            esc(&title),
            num(centre.x - size.x / 2.0),
            num(centre.y - size.y / 2.0),
            num(size.x),
            num(size.y),
        );
        self.nodes
            .push_str(&Self::text(centre, &n.label(), "name", FONT));
        self.nodes.push_str("</g>\n");
    }

    /// A link: its path, with every cable in its tooltip, and its label.
    fn link(&mut self, i: usize, route: &Route) {
        let e = &self.topology.edges[i];
        let mut d = String::new();
        for (k, [a, b, c, z]) in route.curves.iter().enumerate() {
            if k == 0 {
                let _ = write!(d, "M {} {} ", num(a.x), num(a.y));
            }
            let _ = write!(
                d,
                "C {} {}, {} {}, {} {} ",
                num(b.x),
                num(b.y),
                num(c.x),
                num(c.y),
                num(z.x),
                num(z.y)
            );
        }
        let d = d.trim_end();
        let title: Vec<String> = e
            .cables
            .iter()
            .map(|((a, pa), (b, pb))| {
                let end = |n: &str, p: &str| {
                    if p.is_empty() {
                        n.to_string()
                    } else {
                        format!("{n} {p}")
                    }
                };
                format!("{} — {}", end(a, pa), end(b, pb))
            })
            .collect();
        let _ = writeln!(
            self.links,
            "<g class=\"link{}\" data-link=\"{i}\" data-from=\"{}\" data-to=\"{}\"><title>{}</title><path d=\"{d}\"/></g>",
            if e.ipl { " ipl" } else { "" },
            esc(&self.topology.nodes[e.from].name),
            esc(&self.topology.nodes[e.to].name),
            esc(&title.join("\n")),
        );
        for (label, text) in route.labels.iter().zip(&e.ends) {
            if let Some(l) = label {
                // The text's baseline a third of the font off the box's middle (its glyphs
                // rise above the baseline: to the right when upright).
                let anchor = if l.end { " end" } else { "" };
                let third = LABEL_FONT as f64 * 0.35;
                let (x, y, turn) = if l.upright {
                    let (x, y) = (
                        l.min.x + l.size.x / 2.0 - third,
                        l.min.y + if l.end { l.size.y } else { 0.0 },
                    );
                    (
                        x,
                        y,
                        format!(" transform=\"rotate(90 {} {})\"", num(x), num(y)),
                    )
                } else {
                    let x = l.min.x + if l.end { l.size.x } else { 0.0 };
                    (x, l.min.y + l.size.y / 2.0 + third, String::new())
                };
                let _ = writeln!(
                    self.labels,
                    "<text class=\"label{anchor}\" data-link=\"{i}\" x=\"{}\" y=\"{}\"{turn}>{}</text>",
                    num(x),
                    num(y),
                    esc(text)
                );
            }
        }
    }
}

/// A coordinate, to one decimal (`-0.0` as `0`), so output does not depend on the last bits
/// of a float.
fn num(v: f64) -> String {
    let s = format!("{v:.1}");
    let s = s.strip_suffix(".0").unwrap_or(&s).to_string();
    if s == "-0" { "0".into() } else { s }
}
