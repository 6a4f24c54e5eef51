//! The documents' building blocks (headings, paragraphs, tables, the topology's pictures) and
//! their two renderings: GitHub-flavoured Markdown and HTML. What a page says is decided once,
//! in [`super::pages`]; this file only prints it, escaping every text it is given, so a peer's
//! name can never break a table, a link or the page.

use std::fmt::Write as _;

/// Text or an attribute value for HTML and SVG (both XML here).
pub(crate) use crate::audit::report::xml as esc;

/// A piece of running text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    /// A link to another page of the same fabric (`README.md`, `leaf01.md`); in the HTML page,
    /// which holds every page, to the anchor of that part.
    Page {
        text: String,
        page: Page,
    },
}

/// A page of a fabric's documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Page {
    Fabric,
    Switch(String),
}

impl Page {
    fn markdown(&self) -> String {
        match self {
            Page::Fabric => "README.md".into(),
            Page::Switch(name) => format!("{}.md", url(name)),
        }
    }

    fn anchor(&self) -> String {
        match self {
            Page::Fabric => "#top".into(),
            Page::Switch(name) => format!("#{}", anchor(name)),
        }
    }
}

/// One table cell: its text, a link to a switch's page, and whether the value is Onyx's
/// default rather than the fabric's (printed in italics).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub text: String,
    pub switch: Option<String>,
    pub default: bool,
}

impl Cell {
    /// A value the switch's OS has when the fabric sets none.
    pub fn os_default(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            default: true,
            ..Cell::default()
        }
    }

    /// Text that links to a switch's page.
    pub fn switch(name: &str, text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            switch: Some(name.to_string()),
            default: false,
        }
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell {
            text,
            ..Cell::default()
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell::from(text.to_string())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub head: Vec<&'static str>,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// A heading (level 1-3); a switch's own heading is the target of links to it.
    Heading(u8, String, Option<Page>),
    Para(Vec<Inline>),
    Table(Table),
    /// The topology as Mermaid source (Markdown only: the HTML page has the SVG).
    Mermaid(String),
    /// The topology's SVG: an image in Markdown, inline in HTML.
    Picture,
}

/// Markdown (GitHub's dialect: tables, Mermaid fences).
pub fn markdown(blocks: &[Block]) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Heading(level, text, _) => {
                let _ = writeln!(out, "{} {}\n", "#".repeat(usize::from(*level)), md(text));
            }
            Block::Para(inlines) => {
                for i in inlines {
                    match i {
                        Inline::Text(t) => out.push_str(&md(t)),
                        Inline::Code(c) => out.push_str(&md_code(c)),
                        Inline::Page { text, page } => {
                            let _ = write!(out, "[{}]({})", md(text), page.markdown());
                        }
                    }
                }
                out.push_str("\n\n");
            }
            Block::Table(t) => {
                let _ = writeln!(out, "| {} |", t.head.join(" | "));
                let _ = writeln!(out, "|{}", "---|".repeat(t.head.len()));
                for row in &t.rows {
                    out.push('|');
                    for cell in row {
                        let text = md(&cell.text);
                        let text = match (&cell.switch, cell.default) {
                            (Some(name), _) => {
                                format!("[{text}]({})", Page::Switch(name.clone()).markdown())
                            }
                            (None, true) if !text.is_empty() => format!("*{text}*"),
                            _ => text,
                        };
                        let _ = write!(out, " {text} |");
                    }
                    out.push('\n');
                }
                out.push('\n');
            }
            Block::Mermaid(source) => {
                let _ = writeln!(out, "```mermaid\n{source}```\n");
            }
            Block::Picture => out.push_str("![The topology](topology.svg)\n\n"),
        }
    }
    // One newline at the end of the file.
    while out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// The body of an HTML page: `svg` is the topology's picture, inlined.
pub fn html(blocks: &[Block], svg: &str) -> String {
    let mut out = String::new();
    for block in blocks {
        match block {
            Block::Heading(level, text, page) => {
                let id = page
                    .as_ref()
                    .map(|p| format!(" id=\"{}\"", esc(&p.anchor()[1..])))
                    .unwrap_or_default();
                let _ = writeln!(out, "<h{level}{id}>{}</h{level}>", esc(text));
            }
            Block::Para(inlines) => {
                out.push_str("<p>");
                for i in inlines {
                    match i {
                        Inline::Text(t) => out.push_str(&esc(t)),
                        Inline::Code(c) => {
                            let _ = write!(out, "<code>{}</code>", esc(c));
                        }
                        Inline::Page { text, page } => {
                            let _ = write!(
                                out,
                                "<a href=\"{}\">{}</a>",
                                esc(&page.anchor()),
                                esc(text)
                            );
                        }
                    }
                }
                out.push_str("</p>\n");
            }
            Block::Table(t) => {
                out.push_str("<table>\n<thead><tr>");
                for h in &t.head {
                    let _ = write!(out, "<th>{}</th>", esc(h));
                }
                out.push_str("</tr></thead>\n<tbody>\n");
                for row in &t.rows {
                    out.push_str("<tr>");
                    for cell in row {
                        let text = esc(&cell.text);
                        let _ = match (&cell.switch, cell.default) {
                            (Some(name), _) => write!(
                                out,
                                "<td><a href=\"{}\">{text}</a></td>",
                                esc(&Page::Switch(name.clone()).anchor())
                            ),
                            (None, true) => write!(out, "<td class=\"default\">{text}</td>"),
                            _ => write!(out, "<td>{text}</td>"),
                        };
                    }
                    out.push_str("</tr>\n");
                }
                out.push_str("</tbody>\n</table>\n");
            }
            Block::Mermaid(_) => {}
            Block::Picture => {
                let _ = writeln!(out, "<figure>\n{svg}</figure>");
            }
        }
    }
    out
}

/// The HTML id of a switch's part of the page.
pub fn anchor(name: &str) -> String {
    format!("switch-{name}")
}

/// Text for Markdown: every character Markdown could read as syntax is escaped (CommonMark
/// allows a backslash before any ASCII punctuation), so a cell stays one cell.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`'
                | '*'
                | '_'
                | '['
                | ']'
                | '<'
                | '>'
                | '|'
                | '#'
                | '~'
                | '!'
                | '&'
                | '{'
                | '}'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Inline code: fenced with more backticks than the text has in a row.
fn md_code(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    if longest > 0 {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// A file name in a link: anything but unreserved characters percent-encoded.
fn url(name: &str) -> String {
    let mut out = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_keeps_a_cell_one_cell() {
        assert_eq!(md("a|b *c*"), "a\\|b \\*c\\*");
        assert_eq!(md_code("x`y"), "`` x`y ``");
        assert_eq!(url("a b"), "a%20b");
        assert_eq!(esc("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
