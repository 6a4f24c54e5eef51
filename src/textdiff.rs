//! The unified text diff `fabric diff` and `fabric compile --check` print, of two whole
//! configurations: `similar`'s, on the lines that differ and the lines around them only.
//!
//! `similar` keeps a 16-byte token per line of each text, and its own trimming of the common
//! head and tail happens after both texts are split: a running config of 60 MB of `!` lines
//! (30 million lines) cost 960 MB in tokens alone, though the two renderings agree on all of
//! them. Here the common head and tail are found by comparing bytes, and `similar` sees the
//! window between them widened by `MARGIN` lines each side; its hunk headers are moved back to
//! the lines' numbers in the whole texts.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Lines of the common head and tail kept around the differing middle. `similar` compacts a
/// change up or down over lines that repeat it (the same lines before and after), which can
/// reach into the common edges; within this many lines the hunks are the ones a diff of the
/// whole texts prints, and beyond it (a change beside a thousand repeated lines) they are
/// placed within the margin: the same changes, an equally short diff.
const MARGIN: usize = 1000;

/// Lines of context around each change.
const CONTEXT: usize = 3;

/// The unified diff of `old` and `new` (named `a` and `b` in its header); empty when equal.
pub fn unified(old: &str, new: &str, a: &str, b: &str) -> String {
    let w = window(old, new, MARGIN);
    let text = similar::TextDiff::from_lines(&old[w.old.clone()], &new[w.new.clone()])
        .unified_diff()
        .context_radius(CONTEXT)
        .header(a, b)
        .to_string();
    if w.old == (0..old.len()) {
        return text;
    }
    // The common lines just outside the window, for a hunk `similar` printed at its edge
    // (a change compacted over repeated lines up to the edge has no context beyond it there).
    let before = last_lines(&old[..w.old.start], CONTEXT);
    let after = first_lines(&old[w.old.end..], CONTEXT);
    let mut hunks: Vec<Hunk> = Vec::new();
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match Ranges::parse(line) {
            Some(at) => hunks.push(Hunk {
                at,
                lines: Vec::new(),
            }),
            None => match hunks.last_mut() {
                Some(h) => h.lines.push(Cow::Borrowed(line)),
                // The `---`/`+++` header.
                None => out.push_str(line),
            },
        }
    }
    let last = hunks.len().saturating_sub(1);
    for (i, mut h) in hunks.into_iter().enumerate() {
        h.at.old.0 += w.skipped;
        h.at.new.0 += w.skipped;
        if i == 0 {
            h.widen_before(&before);
        }
        if i == last {
            h.widen_after(&after);
        }
        h.write(&mut out);
    }
    out
}

/// One hunk: its ranges and its lines as printed.
struct Hunk<'t> {
    at: Ranges,
    lines: Vec<Cow<'t, str>>,
}

impl<'t> Hunk<'t> {
    /// Context lines the hunk lacks before its first change, from `before` (the lines just
    /// before it, common to both texts).
    fn widen_before(&mut self, before: &[&'t str]) {
        let have = self.lines.iter().take_while(|l| l.starts_with(' ')).count();
        let add = CONTEXT.saturating_sub(have).min(before.len());
        let lines = before[before.len() - add..].iter().map(|l| context(l));
        self.lines.splice(0..0, lines);
        self.at.old = (self.at.old.0 - add, self.at.old.1 + add);
        self.at.new = (self.at.new.0 - add, self.at.new.1 + add);
    }

    /// Context lines the hunk lacks after its last change, from `after`.
    fn widen_after(&mut self, after: &[&'t str]) {
        let have = self
            .lines
            .iter()
            .rev()
            .take_while(|l| l.starts_with(' '))
            .count();
        let add = CONTEXT.saturating_sub(have).min(after.len());
        self.lines.extend(after[..add].iter().map(|l| context(l)));
        self.at.old.1 += add;
        self.at.new.1 += add;
    }

    fn write(&self, out: &mut String) {
        let _ = writeln!(out, "{}", self.at);
        for l in &self.lines {
            out.push_str(l);
        }
    }
}

/// A common line as a context line of a hunk: a space before it; a last line without a
/// newline gets the marker `similar` (and `diff`) print.
fn context(line: &str) -> Cow<'static, str> {
    Cow::Owned(match line.strip_suffix('\n') {
        Some(l) => format!(" {l}\n"),
        None => format!(" {line}\n\\ No newline at end of file\n"),
    })
}

/// A hunk's ranges in the old and the new text: (first line, 0-based; number of lines).
#[derive(Debug, PartialEq)]
struct Ranges {
    old: (usize, usize),
    new: (usize, usize),
}

impl Ranges {
    /// `@@ -l,s +l,s @@` (a length of 1 is left out; an empty range names the line before
    /// it); `None` for any other line.
    fn parse(line: &str) -> Option<Ranges> {
        let body = line.strip_prefix("@@ -")?.strip_suffix(" @@\n")?;
        let (old, new) = body.split_once(" +")?;
        let range = |r: &str| -> Option<(usize, usize)> {
            let (start, len) = match r.split_once(',') {
                Some((s, l)) => (s.parse::<usize>().ok()?, l.parse().ok()?),
                None => (r.parse().ok()?, 1),
            };
            Some((
                if len == 0 {
                    start
                } else {
                    start.checked_sub(1)?
                },
                len,
            ))
        };
        Some(Ranges {
            old: range(old)?,
            new: range(new)?,
        })
    }
}

impl std::fmt::Display for Ranges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let range = |(start, len): (usize, usize)| match len {
            0 => format!("{start},0"),
            1 => format!("{}", start + 1),
            _ => format!("{},{len}", start + 1),
        };
        write!(f, "@@ -{} +{} @@", range(self.old), range(self.new))
    }
}

/// The last `n` lines of `text` (each with its newline).
fn last_lines(text: &str, n: usize) -> Vec<&str> {
    let from = back_lines(text.as_bytes(), text.len(), n);
    text[from..].split_inclusive('\n').collect()
}

/// The first `n` lines of `text`.
fn first_lines(text: &str, n: usize) -> Vec<&str> {
    text.split_inclusive('\n').take(n).collect()
}

/// The part of each text a diff must read: byte ranges starting at the same line of both
/// (`skipped` whole lines in), ending where both have only their common tail left.
#[derive(Debug, PartialEq)]
struct Window {
    skipped: usize,
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

fn window(old: &str, new: &str, margin: usize) -> Window {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    // The common head, in whole lines: up to the last newline before the first difference.
    let same = o.iter().zip(n).position(|(x, y)| x != y);
    let same = same.unwrap_or(o.len().min(n.len()));
    let head = memchr::memrchr(b'\n', &o[..same]).map_or(0, |nl| nl + 1);
    // The common tail after the head, in whole lines of both texts.
    let (ro, rn) = (&o[head..], &n[head..]);
    let mut tail = ro
        .iter()
        .rev()
        .zip(rn.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let line_start = |r: &[u8], t: usize| t == r.len() || r[r.len() - t - 1] == b'\n';
    if !(line_start(ro, tail) && line_start(rn, tail)) {
        // Into the tail up to its first line start: after its first newline.
        let from = ro.len() - tail;
        tail = memchr::memchr(b'\n', &ro[from..]).map_or(0, |nl| tail - nl - 1);
    }
    // Widened by `margin` lines each side.
    let start = back_lines(o, head, margin);
    let old_end = forward_lines(o, o.len() - tail, margin);
    let new_end = n.len() - (o.len() - old_end);
    Window {
        skipped: memchr::memchr_iter(b'\n', &o[..start]).count(),
        old: start..old_end,
        new: start..new_end,
    }
}

/// The start of the line `lines` lines before the line starting at `at`.
fn back_lines(text: &[u8], at: usize, lines: usize) -> usize {
    memchr::memrchr_iter(b'\n', &text[..at])
        .nth(lines)
        .map_or(0, |nl| nl + 1)
}

/// The start of the line `lines` lines after the line starting at `at` (or the end).
fn forward_lines(text: &[u8], at: usize, lines: usize) -> usize {
    if lines == 0 {
        return at;
    }
    memchr::memchr_iter(b'\n', &text[at..])
        .nth(lines - 1)
        .map_or(text.len(), |nl| at + nl + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(old: &str, new: &str) -> String {
        similar::TextDiff::from_lines(old, new)
            .unified_diff()
            .context_radius(CONTEXT)
            .header("a", "b")
            .to_string()
    }

    #[test]
    fn window_is_the_changed_lines_and_the_margin() {
        let old = "a\nb\nc\nd\ne\n";
        let new = "a\nb\nX\nd\ne\n";
        assert_eq!(
            window(old, new, 0),
            Window {
                skipped: 2,
                old: 4..6,
                new: 4..6
            }
        );
        assert_eq!(
            window(old, new, 1),
            Window {
                skipped: 1,
                old: 2..8,
                new: 2..8
            }
        );
        // A change inside a line: the whole line; a text that is the other's head.
        assert_eq!(window("ab\ncd\n", "ab\nce\n", 0).old, 3..6);
        assert_eq!(window("ab\n", "ab\ncd\n", 0).new, 3..6);
        assert_eq!(window("ab\ncd\n", "ab\n", 0).old, 3..6);
        // A tail that starts inside a line of one text only is cut to whole lines.
        assert_eq!(window("x\nab\n", "y\nxab\n", 0).new, 0..6);
        assert_eq!(window("same\n", "same\n", 0).old, 5..5);
        assert_eq!(window("", "", 5).old, 0..0);
        assert_eq!(window("no newline", "no newline!", 0).new, 0..11);
    }

    #[test]
    fn hunk_headers_read_and_print_back() {
        for h in [
            "@@ -3,7 +3,6 @@",
            "@@ -1 +0,0 @@",
            "@@ -0,0 +1,2 @@",
            "@@ -12 +12 @@",
        ] {
            let r = Ranges::parse(&format!("{h}\n")).unwrap();
            assert_eq!(r.to_string(), h);
        }
        assert_eq!(
            Ranges::parse("@@ -1 +0,0 @@\n"),
            Some(Ranges {
                old: (0, 1),
                new: (0, 0)
            })
        );
        assert_eq!(Ranges::parse("-@@ -1 +1 @@\n"), None);
        assert_eq!(Ranges::parse("@@ -0 +1 @@\n"), None);
    }

    /// Away from repeated lines the diff is the whole texts' diff, hunk for hunk.
    #[test]
    fn same_as_the_whole_texts_diff() {
        let old: String = (0..5000).map(|i| format!("line {i}\n")).collect();
        let mut new = old.replace("line 2500\n", "line 2500 changed\n");
        new = new.replace("line 10\n", "");
        new.push_str("added\n");
        let ours = unified(&old, &new, "a", "b");
        assert!(ours.contains("@@ -2498,7 +2497,7 @@"), "{ours}");
        assert_eq!(ours, whole(&old, &new));
        assert_eq!(unified(&old, &old, "a", "b"), "");
    }
}
