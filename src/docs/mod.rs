//! A fabric's documentation, as files to commit beside its goldens: a page per switch
//! (`<switch>.md`: its facts and port map), the fabric's page (`README.md`: the topology as a
//! Mermaid diagram and as `topology.svg`, the switches, cables, hosts and audit findings), and
//! one self-contained HTML page (`index.html`: the picture, every switch, the findings; no
//! external resource).
//!
//! Input: the validated [`Fabric`] and the configurations it compiles to (audited with
//! [`crate::audit`]); output: file name → content. Everything printed comes from the model,
//! sorted, with no date or version, so the same fabric gives the same bytes. Nothing here
//! reads or writes files.

use std::collections::BTreeMap;

use crate::audit::{self, Profile, report::Report};
use crate::fabric::Fabric;

mod aggregate;
mod layout;
mod markup;
mod pages;
mod svg;
pub(crate) mod topology;

pub use layout::work as layout_work;

/// The file names a fabric's documentation folder holds (besides one `<switch>.md` each).
pub const FABRIC_PAGE: &str = "README.md";
pub const PICTURE: &str = "topology.svg";
pub const HTML_PAGE: &str = "index.html";

/// Whether a file in a documentation folder is one `fabric docs` writes (so one it no longer
/// writes is stale).
pub fn is_doc_file(name: &str) -> bool {
    name.ends_with(".md") || name.ends_with(".svg") || name.ends_with(".html")
}

/// Every file of a fabric's documentation. `name` is the fabric's name (its file stem),
/// `file` the fabric file's name as pages cite it, `source` its text (findings point at its
/// lines).
pub fn render(fabric: &Fabric, name: &str, file: &str, source: &str) -> BTreeMap<String, String> {
    let topology = topology::build(fabric);
    // A large fabric is drawn by groups; its tables list every switch.
    let grouped = aggregate::aggregate(&topology);
    let drawn = grouped.as_ref().unwrap_or(&topology);
    let picture = svg::render(drawn);

    let switches: Vec<_> = fabric.switches.values().collect();
    let input = audit::planned(fabric, &switches, Profile::RoceLossless);
    let findings = audit::audit(&input);
    let sources = audit::report::fabric_sources(file, source.to_string(), input.switches.keys());
    let report = Report {
        profile: Profile::RoceLossless,
        switches: &sources,
        findings: &findings,
    };
    let located: Vec<_> = findings
        .iter()
        .map(|f| (f.clone(), report.location(f)))
        .collect();

    let mut files = BTreeMap::new();
    let mermaid = topology::mermaid(drawn);
    let grouped = grouped.is_some();
    let page = pages::fabric(
        name,
        file,
        fabric,
        &topology,
        grouped,
        &located,
        Some(mermaid),
    );
    files.insert(FABRIC_PAGE.to_string(), markup::markdown(&page));

    // The HTML page is written as it goes: a switch's blocks are dropped once printed.
    let fabric_blocks = pages::fabric(name, file, fabric, &topology, grouped, &located, None);
    let mut html = markup::html(&fabric_blocks, &picture);
    for sw in fabric.switches.values() {
        // Every switch of the fabric was compiled for the audit above.
        let view = input.switches[sw.hostname.as_str()].view();
        let mut blocks = pages::switch(fabric, sw, &view);
        html.push_str(&markup::html(&blocks, &picture));
        // A page of its own: the switch's heading is the page's title, then a way back.
        if let Some(markup::Block::Heading(level, ..)) = blocks.first_mut() {
            *level = 1;
        }
        blocks.insert(
            1,
            markup::Block::Para(vec![
                markup::Inline::Text("A switch of ".into()),
                markup::Inline::Page {
                    text: format!("fabric {name}"),
                    page: markup::Page::Fabric,
                },
                markup::Inline::Text(".".into()),
            ]),
        );
        files.insert(format!("{}.md", sw.hostname), markup::markdown(&blocks));
    }
    files.insert(HTML_PAGE.to_string(), html_page(name, &html));
    files.insert(PICTURE.to_string(), picture);
    files
}

/// A whole HTML page around `body`, its style inline.
fn html_page(name: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Fabric {}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        markup::esc(name)
    )
}

const STYLE: &str = "\
body { font-family: sans-serif; margin: 2em; color: #1a1a1a; max-width: 110em; }
h1, h2, h3 { font-weight: 600; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 90%; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.default { font-style: italic; color: #555; }
code { background: #f2f2f2; padding: 0 .2em; }
figure { margin: 1em 0; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
a { color: #2f5d9e; }
";
