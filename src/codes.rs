//! The diagnostic codes' documentation, for `fabric explain E043`: one file per code in
//! `src/codes/` (`E043.md`), embedded at build time (`build.rs` writes the index), so adding a
//! code is adding a file. A test checks that every code emitted in `src/` has its file and
//! every file names a code that is emitted.
//!
//! A file is the code's title on its first line, then four parts, each under its heading:
//! `## What it checks`, `## Why it matters`, `## Example`, `## How to fix`.

/// Every code's file, by code, in code order.
const FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/codes.rs"));

/// The parts of a code's file, in the order they are written.
const PARTS: [&str; 4] = [
    "## What it checks",
    "## Why it matters",
    "## Example",
    "## How to fix",
];

/// One diagnostic code and its documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    pub id: &'static str,
    pub title: &'static str,
    pub what: &'static str,
    pub why: &'static str,
    pub example: &'static str,
    pub fix: &'static str,
}

impl Code {
    /// `error`, `warning` or `help`: what the code's letter says.
    pub fn severity(&self) -> &'static str {
        match self.id.as_bytes().first() {
            Some(b'E') => "error",
            Some(b'W') => "warning",
            _ => "help",
        }
    }
}

/// Every code, in code order; a file that does not follow the format is named with what is
/// wrong in it.
pub fn all() -> Result<Vec<Code>, String> {
    FILES.iter().map(|(id, text)| parse(id, text)).collect()
}

/// The code named `id` (any case).
pub fn find(id: &str) -> Result<Option<Code>, String> {
    Ok(all()?.into_iter().find(|c| c.id.eq_ignore_ascii_case(id)))
}

/// Reads one code's file.
pub fn parse(id: &'static str, text: &'static str) -> Result<Code, String> {
    let bad = |why: &str| format!("src/codes/{id}.md: {why}");
    let well_named = id.len() == 4
        && id.starts_with(['E', 'W', 'H'])
        && id[1..].bytes().all(|b| b.is_ascii_digit());
    if !well_named {
        return Err(bad("a code is E, W or H and three digits"));
    }
    let (title, mut rest) = text.split_once('\n').ok_or_else(|| bad("no title line"))?;
    if title.trim().is_empty() || title.starts_with('#') {
        return Err(bad("the first line is the code's title"));
    }
    let mut bodies = Vec::new();
    for (i, heading) in PARTS.iter().enumerate() {
        let at = rest
            .find(&format!("{heading}\n"))
            .ok_or_else(|| bad(&format!("no `{heading}` part")))?;
        if i > 0 {
            bodies.push(body(&rest[..at]));
        } else if !rest[..at].trim().is_empty() {
            return Err(bad(&format!("text between the title and `{heading}`")));
        }
        rest = &rest[at + heading.len() + 1..];
    }
    bodies.push(body(rest));
    if bodies.iter().any(|b| b.is_empty()) {
        return Err(bad("an empty part"));
    }
    Ok(Code {
        id,
        title: title.trim(),
        what: bodies[0],
        why: bodies[1],
        example: bodies[2],
        fix: bodies[3],
    })
}

/// A part's text without the blank lines around it; its first line keeps its indent (an
/// example's YAML).
fn body(text: &str) -> &str {
    let start = text
        .find(|c: char| !c.is_whitespace())
        .map_or(text.len(), |i| text[..i].rfind('\n').map_or(0, |n| n + 1));
    text[start..].trim_end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_reads_and_a_malformed_one_is_named() {
        let codes = all().unwrap();
        assert!(codes.iter().any(|c| c.id == "E043"));
        let bad = parse(
            "E999",
            "title\n## What it checks\nx\n## Why it matters\ny\n## How to fix\nz\n",
        );
        assert_eq!(bad.unwrap_err(), "src/codes/E999.md: no `## Example` part");
        assert!(parse("X001", "t\n").is_err());
    }
}
