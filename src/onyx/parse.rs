//! `show running-config` text → [`Config`]: the header, the sections in their order, every
//! modeled line applied to the state, every other line kept verbatim in its place.
//!
//! Input may come from a file, a backup tool, or a captured terminal session: carriage
//! returns, ANSI escapes, NUL padding, backspace pairs and pager prompts (`lines 1-23`) are
//! removed first ([`clean`]), line by line, so an error still names the line of the input.

use std::borrow::Cow;

use super::command::{self, Command, IfaceCmd, IfaceRange};
use super::{Config, SectionLayout};
pub use crate::config_error::{ParseError, Problem};
use crate::types::Release;

/// Removes what a terminal adds to a captured session, keeping one output line per input
/// line: `\r`, NUL, ANSI escape sequences (`ESC [ … letter`, `ESC ] … BEL`, `ESC =`,
/// `ESC >`), a character followed by backspace, and the pager's `lines 1-23` prompt
/// (oxidized's captures of Onyx 3.9 and 3.10 show all of these).
pub fn clean(raw: &str) -> Cow<'_, str> {
    let text = crate::input::strip_terminal(raw);
    if text.contains("lines ") {
        Cow::Owned(strip_pagers(&text))
    } else {
        text
    }
}

/// Pager prompts start a line: `lines 1-23 ` or `lines 256-269/269 (END) `.
fn strip_pagers(text: &str) -> String {
    text.split('\n')
        .map(strip_pager)
        .collect::<Vec<_>>()
        .join("\n")
}

fn strip_pager(line: &str) -> &str {
    let Some(rest) = line.trim_start().strip_prefix("lines ") else {
        return line;
    };
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let a = digits(rest);
    if a == 0 || !rest[a..].starts_with('-') {
        return line;
    }
    let rest = &rest[a + 1..];
    let b = digits(rest);
    if b == 0 {
        return line;
    }
    let rest = &rest[b..];
    if let Some(r) = rest.strip_prefix('/') {
        let t = digits(r);
        if t > 0
            && let Some(after) = r[t..].strip_prefix(" (END)")
        {
            return after.strip_prefix(' ').unwrap_or(after);
        }
        return line;
    }
    if rest.is_empty() || rest.starts_with(' ') {
        return rest.strip_prefix(' ').unwrap_or(rest);
    }
    line
}

/// What a `##` line of the header says.
fn header_field(cfg: &mut Config, line: &str) -> bool {
    let Some(body) = header_body(line) else {
        return false;
    };
    let quoted = |s: &str| s.trim().trim_matches('"').to_string();
    if let Some(db) = body.strip_prefix("Running database ") {
        cfg.header.saved = false;
        cfg.header.database = quoted(db);
    } else if let Some(db) = body.strip_prefix("Active saved database ") {
        cfg.header.saved = true;
        cfg.header.database = quoted(db);
    } else if body.starts_with("Generated at ") {
        // Changes on every fetch; never part of the model (every backup tool drops it).
    } else if let Some(h) = body.strip_prefix("Hostname:") {
        cfg.header.hostname = h.trim().to_string();
    } else if let Some(r) = body.strip_prefix("Product release:") {
        match r.trim().parse::<Release>() {
            Ok(r) => cfg.header.release = Some(r),
            Err(_) => return false,
        }
    } else {
        return false;
    }
    true
}

/// Reads a running-config (or a saved-config dump, or a fragment of either).
pub fn parse(raw: &str) -> Result<Config, ParseError> {
    let text = crate::input::strip_terminal(raw);
    // This thread reads blocks too (see `Lines::pull`): the other cores get a worker each.
    let workers = std::thread::available_parallelism().map_or(0, |n| n.get().min(4) - 1);
    // A capture saved from a session: its prompt-and-command line and the next prompt are
    // skipped (other prompt lines are kept verbatim, as any pasted session's).
    let body = crate::input::session_body(&text, |l| {
        super::prompt::parse(l)
            .filter(|p| p.level != super::prompt::Level::User)
            .map(|p| p.rest)
    });
    read_lines(&text, workers, |lines| build(raw, lines, body))
}

/// The model from the lines in order, each with what the grammar made of it; lines outside
/// `body` (0-based) are not read.
fn build(
    raw: &str,
    mut lines: Lines<'_>,
    body: std::ops::Range<usize>,
) -> Result<Config, ParseError> {
    let mut r = Reader::new(raw);
    while let Some((lineno, line, indented, parsed)) = lines.next() {
        if line.is_empty() || !body.contains(&(lineno - 1)) {
            continue;
        }
        if line.starts_with('%') {
            return Err(r.problem(
                Problem::ErrorReply,
                lineno,
                line,
                1,
                "a switch's error reply, not configuration (was the command refused, or the login?)",
            ));
        }
        if r.frame(line, &mut lines) {
            continue;
        }
        if r.cfg.layout.sections.is_empty() {
            r.open_section(String::new());
        }
        let at = r.cfg.layout.sections.len() - 1;
        let cmd = parsed.unwrap_or(Ok(None)).map_err(|m| ParseError {
            problem: Problem::Malformed,
            line: lineno,
            column: line[..m.column.min(line.len())].chars().count() + 1 + indent(raw, lineno - 1),
            text: line.to_string(),
            expected: m.expected,
        })?;
        if !matches!(cmd, Some(Command::PrefixModes(_))) {
            r.content += 1;
        }
        match cmd {
            Some(c) if !matches!(c, Command::PrefixModes(_)) => r.modeled(c, line, at),
            // Kept as printed: indented by three spaces, or at column 0 (`no …`, `#`,
            // `cli default prefix-modes enable`).
            _ => r.verbatim((lineno, line, indented), cmd.is_none(), at)?,
        }
    }
    r.finish()
}

/// What [`build`] keeps while it reads: the model so far, and what it has seen of the text.
struct Reader<'r> {
    raw: &'r str,
    cfg: Config,
    /// Per section, the modeled lines read so far that print in it (where a verbatim line
    /// goes back among them).
    modeled: Vec<usize>,
    /// Whether each section is the first with its title (the one modeled lines print in).
    first_of_title: Vec<bool>,
    quoted: Option<bool>,
    /// Consecutive lines for the same interfaces, applied together.
    run: Option<(IfaceRange, Vec<IfaceCmd>)>,
    /// Whether the text is framed as a running config (a database header, a section), how
    /// many lines of configuration it has, and its first line that is no Onyx command: a text
    /// without a frame must be all configuration to be read as a fragment.
    framed: bool,
    content: usize,
    foreign: Option<(usize, String)>,
}

impl<'r> Reader<'r> {
    fn new(raw: &'r str) -> Self {
        Reader {
            raw,
            cfg: Config::empty(),
            modeled: Vec::new(),
            first_of_title: Vec::new(),
            quoted: None,
            run: None,
            framed: false,
            content: 0,
            foreign: None,
        }
    }

    /// The error for input line `lineno`, its column counted from the line as written.
    fn problem(
        &self,
        problem: Problem,
        lineno: usize,
        line: &str,
        column: usize,
        what: &str,
    ) -> ParseError {
        ParseError {
            problem,
            line: lineno,
            column: column + indent(self.raw, lineno - 1),
            text: line.to_string(),
            expected: what.to_string(),
        }
    }

    /// A new section, titled `title`.
    fn open_section(&mut self, title: String) {
        self.cfg.layout.sections.push(SectionLayout {
            title,
            verbatim: Vec::new(),
        });
        self.modeled.push(0);
        self.first_of_title.push(is_first(&self.cfg));
    }

    /// The running config's frame: a section header, a header field, a fence of the header
    /// block, or a known section title without its fences. True when `line` was one (and
    /// the lines of a section header are taken).
    fn frame(&mut self, line: &str, lines: &mut Lines<'_>) -> bool {
        if line == "##" {
            // A section header is the triplet `##` / `## Title` / `##`.
            if let (Some(next), Some("##")) = (lines.peek(0), lines.peek(1))
                && let Some(title) = next.strip_prefix("## ")
                && !is_header_line(next)
            {
                self.open_section(title.trim().to_string());
                self.framed = true;
                lines.next();
                lines.next();
            }
            // Otherwise a fence of the header block.
            return true;
        }
        if header_field(&mut self.cfg, line) {
            self.framed |= header_body(line).is_some_and(|b| {
                b.starts_with("Running database ") || b.starts_with("Active saved database ")
            });
            return true;
        }
        // A known section title without its `##` fences: pasted from a page that lost them
        // (the reference guide's session prints its sections this way).
        if let Some(title) = line.strip_prefix("## ").map(str::trim)
            && super::SECTION_ORDER.contains(&title)
        {
            self.open_section(title.to_string());
            self.framed = true;
            return true;
        }
        false
    }

    /// A modeled line, in section `at`: applied to the model (interface lines a run at a
    /// time), and counted where it prints.
    fn modeled(&mut self, c: Command, line: &str, at: usize) {
        if self.quoted.is_none()
            && let Some(q) = quote_style(&c, line)
        {
            self.quoted = Some(q);
        }
        // Verbatim lines keep their place among the modeled lines printed in the same
        // section; a modeled line found elsewhere is printed in its own section.
        // (The first section of that title, where they are printed.)
        if self.first_of_title[at] && super::home_section(&c) == self.cfg.layout.sections[at].title
        {
            self.modeled[at] += 1;
        }
        match c {
            Command::Interface(range, ic)
                if !matches!(ic, IfaceCmd::Split(_) | IfaceCmd::NoSplit) =>
            {
                match &mut self.run {
                    Some((r, cmds)) if *r == range => cmds.push(ic),
                    _ => {
                        flush(&mut self.cfg, &mut self.run);
                        self.run = Some((range, vec![ic]));
                    }
                }
            }
            other => {
                flush(&mut self.cfg, &mut self.run);
                self.cfg.load(&other);
            }
        }
    }

    /// A line the model does not hold (`unread`: not a command at all), kept in section `at`
    /// after the modeled lines before it; text that is no text is an error.
    fn verbatim(
        &mut self,
        (lineno, line, indented): (usize, &str, bool),
        unread: bool,
        at: usize,
    ) -> Result<(), ParseError> {
        if let Some(c) = line.find(|c: char| c.is_control() && c != '\t') {
            return Err(self.problem(
                Problem::NotText,
                lineno,
                line,
                line[..c].chars().count() + 1,
                &ParseError::not_text(line[c..].chars().next().unwrap_or('\0')),
            ));
        }
        if line.starts_with('#') || super::prompt::parse(line).is_some() {
            // A masked secret (`# radius-server key ****`), or the prompt and command
            // of a pasted session: neither is configuration.
            self.content -= usize::from(unread);
        } else if self.foreign.is_none() && !is_onyx_line(line) {
            self.foreign = Some((lineno, line.to_string()));
        }
        let text = if indented {
            format!("   {line}")
        } else {
            line.to_string()
        };
        self.cfg.layout.sections[at]
            .verbatim
            .push((self.modeled[at], text));
        Ok(())
    }

    /// The model, once every line is read; a text without a frame must have been all
    /// configuration, and some.
    fn finish(mut self) -> Result<Config, ParseError> {
        if !self.framed {
            if let Some((lineno, line)) = &self.foreign {
                return Err(self.problem(
                    Problem::NotConfiguration,
                    *lineno,
                    line,
                    1,
                    "not a running config: no `##` header or section, and this line is no Onyx command",
                ));
            }
            if self.content == 0 {
                return Err(ParseError::empty(
                    "no configuration: nothing but blank lines, comments and prompts",
                ));
            }
        }
        flush(&mut self.cfg, &mut self.run);
        let cfg = &mut self.cfg;
        cfg.quoted = self.quoted.unwrap_or(
            cfg.header
                .release
                .is_some_and(|r| r >= Release::HEADER_RELEASE),
        );
        Ok(self.cfg)
    }
}

/// Applies a run of interface lines.
fn flush(cfg: &mut Config, run: &mut Option<(IfaceRange, Vec<IfaceCmd>)>) {
    if let Some((range, cmds)) = run.take() {
        cfg.apply_to(range, &cmds);
    }
}

/// What the grammar made of a line: `None` for blank, `#` and `##` lines.
type Parsed = Option<Result<Option<Command>, command::Malformed>>;

/// A line without its pager prompt and its leading and trailing white space, whether it was
/// indented, and what the grammar made of it.
type Line<'t> = (&'t str, bool, Parsed);

/// The lines of a block of text, in order.
type Block<'t> = Vec<Line<'t>>;

/// Reads the lines of `text` from `start` to `end` (a block ends after a newline, or at the
/// end of the text) through the grammar, into `out`. `memchr` finds the ends of lines a
/// vector at a time.
fn read_block<'t>(text: &'t str, start: usize, end: usize, out: &mut Block<'t>) {
    let mut at = start;
    fn read(line: &str) -> Line<'_> {
        let line = if line.trim_ascii_start().starts_with("lines ") {
            strip_pager(line)
        } else {
            line
        };
        let indented = line.starts_with([' ', '\t']);
        let line = line.trim_ascii();
        let parsed = (!line.is_empty() && !line.starts_with('#')).then(|| command::parse(line));
        (line, indented, parsed)
    }
    for nl in memchr::memchr_iter(b'\n', &text.as_bytes()[start..end]) {
        out.push(read(&text[at..start + nl]));
        at = start + nl + 1;
    }
    if end == text.len() {
        // The last line, also when empty (as `str::split` counts lines).
        out.push(read(&text[at..]));
    }
}

/// Blocks given back once their lines are taken, to be filled again: the lines in flight
/// stay a few blocks' worth of memory, not the whole text's (fresh pages cost more than
/// the grammar on a large config).
type Spent<'t> = std::sync::Arc<std::sync::Mutex<Vec<Block<'t>>>>;

/// What this side shares with the worker threads: the blocks they read, the blocks given
/// back, and the number of the next block nobody has taken.
struct Workers<'t> {
    read: std::sync::mpsc::Receiver<(usize, Block<'t>)>,
    spent: Spent<'t>,
    next: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

/// The lines in order, a block at a time: read by worker threads for a large text (the
/// grammar is most of the time a large config takes to read, so it runs on the machine's
/// cores while this side applies the blocks already read), else here, as they are needed.
struct Lines<'t> {
    text: &'t str,
    /// Each block's start and end in `text`.
    bounds: Vec<(usize, usize)>,
    current: Block<'t>,
    /// The next line of `current` to hand out.
    at: usize,
    /// Lines taken from `current` by `peek`.
    ahead: std::collections::VecDeque<Line<'t>>,
    next_block: usize,
    /// Blocks that arrived before their turn.
    early: std::collections::BTreeMap<usize, Block<'t>>,
    /// From the workers, if any: each block as it is read; and where spent blocks go back.
    workers: Option<Workers<'t>>,
    lineno: usize,
}

impl<'t> Lines<'t> {
    /// The next line: its 1-based number, its text, whether it was indented, what the grammar
    /// made of it.
    fn next(&mut self) -> Option<(usize, &'t str, bool, Parsed)> {
        let (line, indented, parsed) = match self.ahead.pop_front() {
            Some(x) => x,
            None => self.pull()?,
        };
        self.lineno += 1;
        Some((self.lineno, line, indented, parsed))
    }

    /// The text of the line `k` lines after the one `next` returned last.
    fn peek(&mut self, k: usize) -> Option<&'t str> {
        while self.ahead.len() <= k {
            let x = self.pull()?;
            self.ahead.push_back(x);
        }
        Some(self.ahead[k].0)
    }

    fn pull(&mut self) -> Option<Line<'t>> {
        loop {
            if let Some(x) = self.current.get_mut(self.at) {
                self.at += 1;
                return Some(std::mem::take(x));
            }
            let &(start, end) = self.bounds.get(self.next_block)?;
            self.current.clear();
            self.at = 0;
            let Some(w) = &self.workers else {
                read_block(self.text, start, end, &mut self.current);
                self.next_block += 1;
                continue;
            };
            let block = loop {
                if let Some(b) = self.early.remove(&self.next_block) {
                    break b;
                }
                // A block a worker has read (none yet, or every worker done: read on).
                if let Ok((k, b)) = w.read.try_recv() {
                    self.early.insert(k, b);
                    continue;
                }
                // Rather than wait for the block it needs, this side reads the next block no
                // worker has taken (it is this one, or one it will need soon): waiting for a
                // worker cost more than the grammar saved on two cores.
                let k = w.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if let Some(&(a, b)) = self.bounds.get(k) {
                    let mut block = w
                        .spent
                        .lock()
                        .ok()
                        .and_then(|mut s| s.pop())
                        .unwrap_or_default();
                    block.clear();
                    read_block(self.text, a, b, &mut block);
                    self.early.insert(k, block);
                    continue;
                }
                // Every block is taken and the one needed is being read by a worker. A worker
                // only stops early when this side is gone, so a block is missing only if a
                // worker panicked; the scope then reports the panic.
                let (k, b) = w.read.recv().ok()?;
                self.early.insert(k, b);
            };
            self.next_block += 1;
            let done = std::mem::replace(&mut self.current, block);
            if done.capacity() > 0
                && let Ok(mut spent) = w.spent.lock()
            {
                spent.push(done);
            }
        }
    }
}

/// Reads `text` into [`Lines`] for `f`: on `workers` threads for a large text, on this one
/// for a small one.
fn read_lines<'t, T>(text: &'t str, workers: usize, f: impl FnOnce(Lines<'t>) -> T) -> T {
    // A block's lines take several times its text (80 bytes a line, read or not), and a few
    // blocks are in flight: 16 KB keeps them to a few hundred KB of memory touched once (64 KB
    // blocks cost 150 more page faults per large config, and were no faster in process).
    const BLOCK: usize = 16 * 1024;
    // Blocks end after a newline.
    let mut bounds = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let end = match memchr::memchr(b'\n', &text.as_bytes()[(start + BLOCK).min(text.len())..]) {
            Some(nl) if start + BLOCK < text.len() => start + BLOCK + nl + 1,
            _ => text.len(),
        };
        bounds.push((start, end));
        start = end;
    }
    if bounds.is_empty() {
        // An empty text is one empty line.
        bounds.push((0, 0));
    }
    let lines = |bounds, workers| Lines {
        text,
        bounds,
        current: Vec::new(),
        at: 0,
        ahead: Default::default(),
        next_block: 0,
        early: Default::default(),
        workers,
        lineno: 0,
    };
    if workers < 1 || bounds.len() < 2 {
        return f(lines(bounds, None));
    }
    let next = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let spent: Spent<'t> = Default::default();
    // Workers wait once this many blocks are read ahead of this side.
    let (tx, rx) = std::sync::mpsc::sync_channel(2 * workers);
    let shared = bounds.clone();
    std::thread::scope(|s| {
        for _ in 0..workers {
            let (tx, next, bounds, spent) = (tx.clone(), next.clone(), &shared, spent.clone());
            s.spawn(move || {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(a, b)) = bounds.get(k) else { break };
                    let reuse = spent.lock().ok().and_then(|mut s| s.pop());
                    let mut block = reuse.unwrap_or_else(|| Vec::with_capacity((b - a) / 48 + 1));
                    block.clear();
                    read_block(text, a, b, &mut block);
                    if tx.send((k, block)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        f(lines(
            bounds,
            Some(Workers {
                read: rx,
                spent,
                next,
            }),
        ))
    })
}

/// Whether a line not modeled starts like Onyx configuration: a command word of
/// [`command::TOP_LEVEL`], after `no`.
fn is_onyx_line(line: &str) -> bool {
    let line = line.strip_prefix("no ").unwrap_or(line).trim_start();
    let first = line.split([' ', '\t']).next().unwrap_or("");
    command::TOP_LEVEL.contains(&first)
}

/// Whether the section just added is the first with its title.
fn is_first(cfg: &Config) -> bool {
    let Some((last, rest)) = cfg.layout.sections.split_last() else {
        return true;
    };
    !rest.iter().any(|s| s.title == last.title)
}

/// Header lines look like section titles (`## Hostname: x`); they are not.
fn is_header_line(line: &str) -> bool {
    header_body(line).is_some_and(|body| {
        [
            "Running database ",
            "Active saved database ",
            "Generated at ",
            "Hostname:",
            "Product release:",
        ]
        .iter()
        .any(|p| body.starts_with(p))
    })
}

/// The text of a `##` comment line after its spaces: a header field is read by its words,
/// however many spaces follow the `##` (a section title with the same words would print back
/// as that field).
fn header_body(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("##")?;
    rest.starts_with(' ').then(|| rest.trim_start())
}

/// Whether a description or VLAN name line was written with quotes.
fn quote_style(c: &Command, line: &str) -> Option<bool> {
    match c {
        Command::Interface(_, IfaceCmd::Description(_)) => Some(line.contains(" description \"")),
        Command::VlanName(..) => Some(line.contains(" name \"")),
        _ => None,
    }
}

/// Leading white space of input line `n` (0-based), so columns count from the line as written.
fn indent(raw: &str, n: usize) -> usize {
    raw.split('\n').nth(n).map_or(0, |l| {
        clean(l).chars().take_while(|c| c.is_whitespace()).count()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_noise_is_removed() {
        let raw = "\x1b[?1h\x1b=\r   interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-re\x08\x08relative 75 maximum-relative 95\r\n\0\0lines 1-23 \r\x1b[K   lldp\r\n";
        let c = clean(raw);
        assert_eq!(
            c,
            "   interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-relative 75 maximum-relative 95\n   lldp\n"
        );
        assert_eq!(strip_pager("lines 256-269/269 (END) "), "");
        assert_eq!(strip_pager("lines of text"), "lines of text");
    }

    /// A header field written with more spaces after its `##` is that field, not a section
    /// whose title would print back as the field (found by fuzzing).
    #[test]
    fn header_field_with_more_spaces_is_the_field() {
        let cfg = parse("##\n##  Running database ie\n##\n\n   lldp\n").unwrap();
        assert_eq!(cfg.header.database, "ie");
        assert!(
            cfg.layout
                .sections
                .iter()
                .all(|s| !s.title.contains("database"))
        );
        let text = crate::onyx::Renderer::embedded()
            .unwrap()
            .render(&cfg)
            .unwrap();
        let again = parse(&text).unwrap();
        assert_eq!(again.header.database, "ie");
    }

    /// A large config read in blocks on worker threads gives the model read in one piece,
    /// and an error names its line across blocks.
    #[test]
    fn blocks_on_threads_read_as_one_piece() {
        let mut text = String::from(
            "##\n## Running database \"initial\"\n##\n\n##\n## VLAN configuration\n##\n",
        );
        for port in 1..=32 {
            for vlan in 1..=300 {
                text.push_str(&format!(
                    "   interface ethernet 1/{port} switchport hybrid allowed-vlan add {vlan}\n"
                ));
            }
        }
        text.push_str("   snmp-server community x\n");
        assert!(text.len() > 8 * 64 * 1024);
        let read =
            |text: &str, workers| read_lines(text, workers, |l| build(text, l, 0..usize::MAX));
        let whole = read(&text, 1).unwrap();
        for workers in [2, 3] {
            let blocks = read(&text, workers).unwrap();
            assert_eq!(blocks, whole);
            assert_eq!(
                format!("{:?}", blocks.layout),
                format!("{:?}", whole.layout)
            );
        }
        let a = whole.interfaces.values().next().unwrap();
        assert_eq!(a.allowed.as_ref().unwrap().vlans.len(), 300);

        let bad = text.replacen("allowed-vlan add 150\n", "allowed-vlan add 5000\n", 20);
        let e = read(&bad, 2).unwrap_err();
        assert_eq!(e, read(&bad, 1).unwrap_err());
        assert_eq!(e.line, 8 + 149, "{e:?}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = parse("##\n## Running database \"initial\"\n##\n\n   interface ethernet 1/1 mtu 99999 force\n").unwrap_err();
        assert_eq!((e.line, e.column), (5, 31), "{e:?}");
        assert!(e.expected.contains("MTU"), "{e}");
    }
}
