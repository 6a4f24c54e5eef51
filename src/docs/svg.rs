//! The topology as an SVG picture: laid out by `layout-rs` (a Sugiyama-style layered layout
//! with edge-crossing reduction, as Graphviz's `dot` does), drawn through its `RenderBackend`
//! trait by the writer below, which gives every switch and link a class, a name and a
//! tooltip (`<title>`) listing its cables, escapes every text, and prints coordinates to one
//! decimal so the file is the same on every run.

use std::fmt::Write as _;

use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::format::{ClipHandle, RenderBackend};
use layout::core::geometry::Point;
use layout::core::style::{LineStyleKind, StyleAttr};
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
use layout::topo::layout::VisualGraph;

use super::markup::esc;
use super::topology::{Kind, Topology};

const FONT: usize = 13;
const LABEL_FONT: usize = 11;
/// The font size layout-rs sizes a link's label by: it reserves a square of the font size per
/// character, about twice what a sans-serif face takes, so labels are sized at a little more
/// than half their printed size.
const LABEL_LAYOUT_FONT: usize = 7;
/// Width of a character at [`FONT`] in a sans-serif face, generously: boxes must hold
/// their labels in any browser's default font.
const CHAR_WIDTH: f64 = 8.0;
const MARGIN: f64 = 10.0;

pub fn render(t: &Topology) -> String {
    let mut writer = Writer::new(t);
    if !t.nodes.is_empty() {
        let mut graph = VisualGraph::new(Orientation::TopToBottom);
        let handles: Vec<_> = t
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let label = n.label();
                let lines = label.lines().count().max(1) as f64;
                let longest = label.lines().map(|l| l.chars().count()).max().unwrap_or(1);
                let size = Point::new(
                    longest as f64 * CHAR_WIDTH + 24.0,
                    lines * FONT as f64 * 1.3 + 16.0,
                );
                let look = StyleAttr::new(Color::fast("black"), 1, None, 4, FONT);
                let shape = ShapeKind::new_box(&label);
                let element = Element::create_with_properties(
                    shape,
                    look,
                    Orientation::TopToBottom,
                    size,
                    format!("n{i}"),
                );
                graph.add_node(element)
            })
            .collect();
        for (i, e) in t.edges.iter().enumerate() {
            let look = StyleAttr::new(Color::fast("black"), 1, None, 0, LABEL_LAYOUT_FONT);
            let style = if e.ipl {
                LineStyleKind::Dashed
            } else {
                LineStyleKind::Normal
            };
            let arrow = Arrow::with_properties(
                LineEndKind::None,
                LineEndKind::None,
                style,
                &e.label,
                &look,
                format!("e{i}"),
                &None,
                &None,
            );
            graph.add_edge(arrow, handles[e.from], handles[e.to]);
        }
        graph.do_it(false, false, false, &mut writer);
    }
    writer.finish()
}

/// Writes the draw calls of `layout-rs` as SVG, in three layers: links, then nodes, then
/// the links' labels on top.
struct Writer<'a> {
    topology: &'a Topology,
    links: String,
    nodes: String,
    labels: String,
    clips: String,
    clip_count: usize,
    /// A node's box was drawn and its label comes next.
    node_label: bool,
    size: Point,
}

impl<'a> Writer<'a> {
    fn new(topology: &'a Topology) -> Writer<'a> {
        Writer {
            topology,
            links: String::new(),
            nodes: String::new(),
            labels: String::new(),
            clips: String::new(),
            clip_count: 0,
            node_label: false,
            size: Point::zero(),
        }
    }

    fn grow(&mut self, p: Point) {
        self.size.x = self.size.x.max(p.x);
        self.size.y = self.size.y.max(p.y);
    }

    fn finish(mut self) -> String {
        // The legend, under the picture: one swatch per kind of node drawn.
        let mut kinds: Vec<Kind> = self.topology.nodes.iter().map(|n| n.kind).collect();
        kinds.sort();
        kinds.dedup();
        let top = self.size.y + 2.0 * MARGIN;
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
            x += 20.0 + kind.legend().len() as f64 * CHAR_WIDTH + 16.0;
        }
        // A dashed line per kind of peer link drawn: an MLAG pair's, a VLT pair's (its VLTi).
        for (kind, text) in [(Kind::Mlag, "MLAG peer link"), (Kind::Vlt, "VLTi")] {
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
            x += 30.0 + text.len() as f64 * CHAR_WIDTH;
        }
        legend.push_str("</g>\n");
        self.grow(Point::new(x, top + 14.0));
        let (w, h) = (self.size.x + MARGIN, self.size.y + MARGIN);
        let mut css = String::new();
        // Every kind's colours, a VLT pair's only where one is drawn (it came after the rest).
        let vlt = self.topology.nodes.iter().any(|n| n.kind == Kind::Vlt);
        let styled = [
            Kind::Spine,
            Kind::Leaf,
            Kind::Mlag,
            Kind::Switch,
            Kind::Hosts,
        ]
        .into_iter()
        .chain(vlt.then_some(Kind::Vlt));
        for kind in styled {
            let (fill, stroke) = kind.colours();
            let class = kind.class();
            let _ = writeln!(
                css,
                ".{class} rect, rect.{class} {{ fill: {fill}; stroke: {stroke}; }}"
            );
        }
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\n\
             <style>\n\
             text {{ font-family: sans-serif; font-size: {FONT}px; fill: #1a1a1a; }}\n\
             .node text {{ text-anchor: middle; }}\n\
             .link path {{ fill: none; stroke: #555555; stroke-width: 1.5; }}\n\
             .link.ipl path, path.ipl {{ stroke: #b06a00; stroke-dasharray: 5 4; stroke-width: 2; fill: none; }}\n\
             .label {{ font-size: {LABEL_FONT}px; text-anchor: middle; paint-order: stroke; stroke: #ffffff; stroke-width: 3px; }}\n\
             {css}\
             </style>\n\
             {clips}<g class=\"links\">\n{links}</g>\n<g class=\"nodes\">\n{nodes}</g>\n<g class=\"labels\">\n{labels}</g>\n{legend}</svg>\n",
            w = num(w),
            h = num(h),
            clips = self.clips,
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

impl RenderBackend for Writer<'_> {
    fn draw_rect(
        &mut self,
        xy: Point,
        size: Point,
        look: &StyleAttr,
        properties: Option<String>,
        clip: Option<ClipHandle>,
    ) {
        self.grow(xy.add(size));
        let node = properties
            .as_deref()
            .and_then(|p| p.strip_prefix('n'))
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| self.topology.nodes.get(i));
        let rect = format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"{}/>",
            num(xy.x),
            num(xy.y),
            num(size.x),
            num(size.y),
            look.rounded,
            clip.map(|c| format!(" clip-path=\"url(#clip{c})\""))
                .unwrap_or_default()
        );
        match node {
            Some(n) => {
                let (attr, title) = match &n.switch {
                    Some(name) => (
                        format!(" data-switch=\"{}\"", esc(name)),
                        format!("{} ({})", n.name, n.detail),
                    ),
                    None => (String::new(), n.label().replace('\n', ", ")),
                };
                let _ = write!(
                    self.nodes,
                    "<g class=\"node {}\"{attr}><title>{}</title>{rect}",
                    n.kind.class(),
                    esc(&title)
                );
                self.node_label = true;
            }
            None => {
                let _ = writeln!(self.nodes, "{rect}");
            }
        }
    }

    fn draw_line(&mut self, start: Point, stop: Point, _: &StyleAttr, _: Option<String>) {
        self.grow(start);
        self.grow(stop);
        let _ = writeln!(
            self.links,
            "<path d=\"M {} {} L {} {}\"/>",
            num(start.x),
            num(start.y),
            num(stop.x),
            num(stop.y)
        );
    }

    fn draw_circle(&mut self, xy: Point, size: Point, _: &StyleAttr, _: Option<String>) {
        self.grow(xy.add(size.scale(0.5)));
        let _ = writeln!(
            self.nodes,
            "<ellipse cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\" fill=\"none\" stroke=\"#555555\"/>",
            num(xy.x),
            num(xy.y),
            num(size.x / 2.0),
            num(size.y / 2.0)
        );
    }

    fn draw_text(&mut self, xy: Point, text: &str, _: &StyleAttr) {
        if std::mem::take(&mut self.node_label) {
            self.nodes.push_str(&Self::text(xy, text, "name", FONT));
            self.nodes.push_str("</g>\n");
        } else {
            self.labels
                .push_str(&Self::text(xy, text, "label", LABEL_FONT));
        }
    }

    fn draw_arrow(
        &mut self,
        path: &[(Point, Point)],
        _dashed: bool,
        _head: (bool, bool),
        _look: &StyleAttr,
        properties: Option<String>,
        _text: &str,
    ) {
        // A cubic Bézier through the points, as layout-rs shapes it: the first pair is the
        // start and its control point, each next pair a control point and the point it
        // enters.
        let (Some(first), Some(second)) = (path.first(), path.get(1)) else {
            return;
        };
        for (a, b) in path {
            self.grow(*a);
            self.grow(*b);
        }
        let mut d = format!(
            "M {} {} C {} {}, {} {}, {} {}",
            num(first.0.x),
            num(first.0.y),
            num(first.1.x),
            num(first.1.y),
            num(second.0.x),
            num(second.0.y),
            num(second.1.x),
            num(second.1.y)
        );
        for (a, b) in &path[2..] {
            let _ = write!(d, " S {} {}, {} {}", num(a.x), num(a.y), num(b.x), num(b.y));
        }
        let edge = properties
            .as_deref()
            .and_then(|p| p.strip_prefix('e'))
            .and_then(|i| i.parse::<usize>().ok())
            .and_then(|i| self.topology.edges.get(i));
        let Some(e) = edge else {
            let _ = writeln!(self.links, "<path d=\"{d}\"/>");
            return;
        };
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
            "<g class=\"link{}\" data-from=\"{}\" data-to=\"{}\"><title>{}</title><path d=\"{d}\"/></g>",
            if e.ipl { " ipl" } else { "" },
            esc(&self.topology.nodes[e.from].name),
            esc(&self.topology.nodes[e.to].name),
            esc(&title.join("\n")),
        );
    }

    fn create_clip(&mut self, xy: Point, size: Point, rounded_px: usize) -> ClipHandle {
        let handle = self.clip_count;
        self.clip_count += 1;
        let _ = writeln!(
            self.clips,
            "<clipPath id=\"clip{handle}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{rounded_px}\"/></clipPath>",
            num(xy.x),
            num(xy.y),
            num(size.x),
            num(size.y)
        );
        handle
    }
}

/// A coordinate, to one decimal (`-0.0` as `0`), so output does not depend on the last bits
/// of a float.
fn num(v: f64) -> String {
    let s = format!("{v:.1}");
    let s = s.strip_suffix(".0").unwrap_or(&s).to_string();
    if s == "-0" { "0".into() } else { s }
}
