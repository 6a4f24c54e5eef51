//! A session's terminal: bytes in, bytes out. With a pseudo-terminal (an SSH client that
//! asked for one) input is read a keystroke at a time: echoed and edited (backspace, Delete,
//! Left/Right, Home/End and Ctrl-A/Ctrl-E, Ctrl-W, Ctrl-K, Ctrl-U, Ctrl-C), recalled from
//! the session's history (Up/Down, Ctrl-P/Ctrl-N), completed (Tab) and explained (`?`), and
//! given to the pager key by key. Without one (an SSH shell without a PTY, `--stdio` under a
//! terminal that does its own echo) it is read a line at a time. An SSH exec request runs
//! its command text as CLI lines and ends with an exit status ([`Term::exec`]).
//! Output is printed as Onyx prints it: the prompt after `\r`, lines ending in `\r\n` on SSH,
//! and, when the switch is told to (`noise`), wrapped in Onyx 3.10's escape sequences and NULs.
//!
//! The editing keys are those of the TMS-based CLIs Onyx shares its CLI framework with (a
//! sibling's manual, "Online help and keyboard shortcuts", lists Tab, `?`, the Ctrl keys and
//! the arrows); how Onyx redraws an edited line is not captured anywhere: the lab redraws as
//! a VT100 line editor does (backspaces, the rest of the line, spaces over what went).

use std::time::Duration;

use super::device::{Answer, Device, Step};
use super::switch::Session;

/// What to do with the connection, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    Data(Vec<u8>),
    /// Wait before the next output (a slow switch).
    Delay(Duration),
    /// Close the session (`exit`, the end of the input): exit status 0.
    Close,
    /// Close the session with this exit status: an exec request's commands ran (1 when one
    /// was refused).
    Exit(u32),
    /// Drop the connection (a fault): no goodbye.
    Drop,
}

pub struct Term {
    pub session: Session,
    /// The session's number on its switch (for the command log).
    pub id: u64,
    /// Keystrokes echoed and read one by one.
    pty: bool,
    /// Line ends: `\r\n` on SSH, `\n` on standard output.
    crlf: bool,
    /// The line being typed, and the cursor in it (a character index).
    line: Vec<char>,
    cursor: usize,
    /// The line's length in bytes, for [`MAX_LINE`].
    bytes: usize,
    /// A UTF-8 character begun by the bytes read so far, not yet whole.
    utf8: Vec<u8>,
    /// The last byte ended a line with `\r` (a following `\n` is the same end).
    cr: bool,
    /// An escape sequence typed by a terminal (an arrow key), the bytes after its ESC.
    escape: Option<Vec<u8>>,
    /// A hang fault fired: nothing more is read or printed.
    hung: bool,
    /// The line being read passed [`MAX_LINE`]: it is refused whole at its end.
    overlong: usize,
    /// Whether the last output was printed with noise (the pager prompt keeps the style).
    noise: bool,
    /// Lines run at the prompt, oldest first (never a password).
    history: Vec<String>,
    /// While Up/Down browse the history: the entry shown, and the line typed before.
    browsing: Option<usize>,
    draft: Vec<char>,
}

const NULS: &str = "\0\0\0\0\0\0\0\0\0\0\0\0";

/// The longest line read. A longer one is never run, not even its beginning: it is counted
/// to its end and refused whole (a client cannot grow a session without bound, and a prefix
/// of a line is another command: `interface ethernet 1/4 shutdown` + garbage).
pub const MAX_LINE: usize = 16 * 1024;

/// The lines a session's history keeps. UNCONFIRMED: no source gives Onyx's; the lab's
/// choice.
pub const HISTORY: usize = 100;

/// A key read at the prompt (a byte, or an escape sequence of a terminal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    Char(char),
    Backspace,
    Delete,
    Left,
    Right,
    Home,
    End,
    Up,
    Down,
    /// Ctrl-K: from the cursor to the end of the line.
    KillEnd,
    /// Ctrl-W: the word before the cursor.
    KillWord,
    /// Ctrl-U: the whole line.
    KillLine,
    /// Ctrl-C: the line is dropped, a new prompt.
    Cancel,
    Tab,
    Help,
}

/// What an escape sequence read so far is.
enum Escape {
    More,
    /// Complete: the key it stands for, if the lab reads it.
    Done(Option<Key>),
}

/// VT100/xterm sequences after ESC: `[` or `O`, parameters, a final byte.
fn escape(seq: &[u8]) -> Escape {
    let Some((&first, rest)) = seq.split_first() else {
        return Escape::More;
    };
    if !matches!(first, b'[' | b'O') {
        // ESC and one character (Alt-b …): not read.
        return Escape::Done(None);
    }
    let Some((&last, params)) = rest.split_last() else {
        return Escape::More;
    };
    if last.is_ascii_digit() || last == b';' {
        // A parameter; a sequence longer than any key's is dropped.
        return if rest.len() < 8 {
            Escape::More
        } else {
            Escape::Done(None)
        };
    }
    Escape::Done(match (last, params) {
        (b'A', _) => Some(Key::Up),
        (b'B', _) => Some(Key::Down),
        (b'C', _) => Some(Key::Right),
        (b'D', _) => Some(Key::Left),
        (b'H', _) | (b'~', b"1" | b"7") => Some(Key::Home),
        (b'F', _) | (b'~', b"4" | b"8") => Some(Key::End),
        (b'~', b"3") => Some(Key::Delete),
        _ => None,
    })
}

/// `\x08` `n` times: the cursor back `n` columns.
fn back(n: usize) -> String {
    "\x08".repeat(n)
}

impl Term {
    pub fn new(id: u64, pty: bool, crlf: bool) -> Term {
        let mut session = Session::new();
        session.id = id;
        Term {
            session,
            id,
            pty,
            crlf,
            line: Vec::new(),
            cursor: 0,
            bytes: 0,
            utf8: Vec::new(),
            cr: false,
            escape: None,
            hung: false,
            overlong: 0,
            noise: false,
            history: Vec::new(),
            browsing: None,
            draft: Vec::new(),
        }
    }

    /// What a login prints: the banner, then the first prompt.
    pub fn greet(&mut self, dev: &Device) -> Vec<u8> {
        let out = dev.banner(self.id);
        let mut bytes = self.endings(&out).into_bytes();
        bytes.extend(self.prompt(dev).into_bytes());
        bytes
    }

    /// Reads bytes from the client.
    pub fn feed(&mut self, dev: &Device, data: &[u8]) -> Vec<Out> {
        let mut out = Vec::new();
        for &b in data {
            if self.hung {
                break;
            }
            if self.pty && self.session.paging_now() {
                self.page_key(dev, b, &mut out);
                continue;
            }
            let end = match b {
                b'\n' if self.cr => {
                    self.cr = false;
                    continue;
                }
                b'\r' | b'\n' => {
                    self.cr = b == b'\r';
                    true
                }
                _ => {
                    self.cr = false;
                    false
                }
            };
            if end {
                if self.pty {
                    out.push(Out::Data(b"\r\n".to_vec()));
                }
                if self.run_line(dev, &mut out) {
                    break;
                }
                continue;
            }
            // Ctrl-C and Ctrl-U still drop an overlong line.
            if self.bytes >= MAX_LINE && !(self.pty && matches!(b, 0x03 | 0x15)) {
                self.overlong = self.overlong.max(self.bytes) + 1;
                continue;
            }
            if self.pty {
                self.pty_byte(dev, b, &mut out);
            } else if let Some(c) = self.decode(b) {
                self.line.push(c);
                self.cursor = self.line.len();
                self.bytes += c.len_utf8();
            }
        }
        merged(out)
    }

    /// One keystroke to the pager, and what it shows.
    fn page_key(&mut self, dev: &Device, b: u8, out: &mut Vec<Out>) {
        let reply = self.session.key(b);
        let text = format!("\r\x1b[K{}", reply.output);
        let noise = self.noise;
        out.push(Out::Data(self.print(&text, noise, dev)));
    }

    /// One byte typed on a pseudo-terminal (not a line's end): part of an escape sequence,
    /// or a key.
    fn pty_byte(&mut self, dev: &Device, b: u8, out: &mut Vec<Out>) {
        if let Some(seq) = &mut self.escape {
            seq.push(b);
            if let Escape::Done(key) = escape(seq) {
                self.escape = None;
                if let Some(k) = key {
                    self.key(dev, k, out);
                }
            }
            return;
        }
        let key = match b {
            0x1b => {
                self.escape = Some(Vec::new());
                return;
            }
            0x7f | 0x08 => Key::Backspace,
            0x01 => Key::Home,
            0x05 => Key::End,
            0x02 => Key::Left,
            0x06 => Key::Right,
            0x10 => Key::Up,
            0x0e => Key::Down,
            0x04 => Key::Delete,
            0x0b => Key::KillEnd,
            0x17 => Key::KillWord,
            0x15 => Key::KillLine,
            0x03 => Key::Cancel,
            0x09 => Key::Tab,
            b'?' if !self.session.asking_password() && !self.in_quotes() => Key::Help,
            0x20..=0x7e | 0x80.. => match self.decode(b) {
                Some(c) => Key::Char(c),
                None => return,
            },
            _ => return,
        };
        self.key(dev, key, out);
    }

    /// One byte of UTF-8 text: the character it completes, if any (bytes that are not UTF-8
    /// read as U+FFFD).
    fn decode(&mut self, b: u8) -> Option<char> {
        if b.is_ascii() && self.utf8.is_empty() {
            return Some(char::from(b));
        }
        self.utf8.push(b);
        match std::str::from_utf8(&self.utf8) {
            Ok(s) => {
                let c = s.chars().next();
                self.utf8.clear();
                c
            }
            Err(e) if e.error_len().is_none() && self.utf8.len() < 4 => None,
            Err(_) => {
                self.utf8.clear();
                Some(char::REPLACEMENT_CHARACTER)
            }
        }
    }

    /// Whether the cursor is inside an open double quote (a `?` there is text).
    fn in_quotes(&self) -> bool {
        self.line[..self.cursor]
            .iter()
            .filter(|&&c| c == '"')
            .count()
            % 2
            == 1
    }

    /// The line from the cursor on.
    fn tail(&self) -> String {
        self.line[self.cursor..].iter().collect()
    }

    /// One key at the prompt: the line edited, and what the terminal shows of it (nothing of
    /// a password).
    fn key(&mut self, dev: &Device, key: Key, out: &mut Vec<Out>) {
        let secret = self.session.asking_password();
        let echo = match key {
            Key::Cancel => return self.cancel(dev, out),
            Key::Up | Key::Down if secret => return,
            Key::Up | Key::Down => self.recall(key),
            Key::Tab if !secret => return self.complete(dev, out),
            Key::Help => {
                let typed: String = self.line[..self.cursor].iter().collect();
                let help = dev.help(&self.session, &typed);
                self.reprint(dev, &format!("?\n{help}"), out);
                return;
            }
            _ => self.edit(key),
        };
        if let Some(echo) = echo
            && !secret
            && !echo.is_empty()
        {
            out.push(Out::Data(echo.into_bytes()));
        }
    }

    /// An editing key: the line changed, and its echo (`None`: the key does nothing here).
    fn edit(&mut self, key: Key) -> Option<String> {
        let echo = match key {
            Key::Char(c) => {
                self.line.insert(self.cursor, c);
                self.bytes += c.len_utf8();
                self.cursor += 1;
                let tail = self.tail();
                format!("{c}{tail}{}", back(tail.chars().count()))
            }
            Key::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                let c = self.line.remove(self.cursor);
                self.bytes -= c.len_utf8();
                let tail = self.tail();
                format!("\x08{tail} {}", back(tail.chars().count() + 1))
            }
            Key::Delete if self.cursor < self.line.len() => {
                let c = self.line.remove(self.cursor);
                self.bytes -= c.len_utf8();
                let tail = self.tail();
                format!("{tail} {}", back(tail.chars().count() + 1))
            }
            Key::Left if self.cursor > 0 => {
                self.cursor -= 1;
                "\x08".to_string()
            }
            Key::Right if self.cursor < self.line.len() => {
                self.cursor += 1;
                self.line[self.cursor - 1].to_string()
            }
            Key::Home => {
                let n = std::mem::take(&mut self.cursor);
                back(n)
            }
            Key::End => {
                let tail = self.tail();
                self.cursor = self.line.len();
                tail
            }
            Key::KillEnd => {
                let n = self.line.len() - self.cursor;
                self.erase(self.cursor..self.line.len());
                format!("{}{}", " ".repeat(n), back(n))
            }
            Key::KillWord => self.kill_word(),
            Key::KillLine => {
                self.overlong = 0;
                let shown = self.replace(Vec::new());
                self.browsing = None;
                shown
            }
            _ => return None,
        };
        Some(echo)
    }

    /// Ctrl-W: the word before the cursor (and the spaces after it) erased, and the echo.
    fn kill_word(&mut self) -> String {
        let text = &self.line[..self.cursor];
        let spaces = text.iter().rev().take_while(|c| **c == ' ').count();
        let word = text[..text.len() - spaces]
            .iter()
            .rev()
            .take_while(|c| **c != ' ')
            .count();
        let n = spaces + word;
        self.erase(self.cursor - n..self.cursor);
        self.cursor -= n;
        let tail = self.tail();
        let len = tail.chars().count();
        format!("{}{tail}{}{}", back(n), " ".repeat(n), back(len + n))
    }

    /// Ctrl-C: the line dropped, a new prompt.
    fn cancel(&mut self, dev: &Device, out: &mut Vec<Out>) {
        self.line.clear();
        self.cursor = 0;
        self.bytes = 0;
        self.overlong = 0;
        self.browsing = None;
        let text = format!("\n{}", self.prompt(dev));
        out.push(Out::Data(self.endings(&text).into_bytes()));
    }

    /// Up or Down: the history's entry before or after the one shown (after the newest, the
    /// line typed before browsing) in the line's place, and the echo (`None`: no such entry).
    fn recall(&mut self, key: Key) -> Option<String> {
        let line = if key == Key::Up {
            let at = match self.browsing {
                None if self.history.is_empty() => return None,
                None => {
                    self.draft = self.line.clone();
                    self.history.len() - 1
                }
                Some(0) => return None,
                Some(i) => i - 1,
            };
            self.browsing = Some(at);
            self.history[at].chars().collect()
        } else {
            match self.browsing {
                None => return None,
                Some(i) if i + 1 < self.history.len() => {
                    self.browsing = Some(i + 1);
                    self.history[i + 1].chars().collect()
                }
                Some(_) => {
                    self.browsing = None;
                    std::mem::take(&mut self.draft)
                }
            }
        };
        Some(self.replace(line))
    }

    /// Tab: the completion inserted at the cursor and echoed, or the candidates listed above
    /// the line again, or a bell when there is nothing to complete.
    fn complete(&mut self, dev: &Device, out: &mut Vec<Out>) {
        let typed: String = self.line[..self.cursor].iter().collect();
        let done = dev.complete(&self.session, &typed);
        if done.list.is_none() && done.insert.is_empty() {
            out.push(Out::Data(b"\x07".to_vec()));
            return;
        }
        let mut shown = String::new();
        for c in done.insert.chars() {
            self.line.insert(self.cursor, c);
            self.bytes += c.len_utf8();
            self.cursor += 1;
            shown.push(c);
        }
        match done.list {
            Some(list) => self.reprint(dev, &format!("{shown}\n{list}"), out),
            None => {
                let tail = self.tail();
                out.push(Out::Data(
                    format!("{shown}{tail}{}", back(tail.chars().count())).into_bytes(),
                ));
            }
        }
    }

    /// Prints `text` after the line, then the prompt and the line again, the cursor where
    /// it was (what `?` and a Tab with several candidates print).
    fn reprint(&self, dev: &Device, text: &str, out: &mut Vec<Out>) {
        let line: String = self.line.iter().collect();
        let tail = self.line.len() - self.cursor;
        let text = format!(
            "{}{text}\r{}{line}{}",
            self.tail(),
            self.prompt(dev),
            back(tail)
        );
        out.push(Out::Data(self.endings(&text).into_bytes()));
    }

    /// Removes characters of the line (not moving the cursor).
    fn erase(&mut self, range: std::ops::Range<usize>) {
        for c in self.line.drain(range) {
            self.bytes -= c.len_utf8();
        }
    }

    /// Puts another line in place of the one shown, the cursor at its end; what the
    /// terminal shows of the change.
    fn replace(&mut self, new: Vec<char>) -> String {
        let shown = format!("{}{}", self.tail(), "\x08 \x08".repeat(self.line.len()));
        self.bytes = new.iter().map(|c| c.len_utf8()).sum();
        self.line = new;
        self.cursor = self.line.len();
        let line: String = self.line.iter().collect();
        shown + &line
    }

    /// The client sent its last byte (EOF): a last line without its line end is run as if
    /// it had one, as a shell reads its input to the end. What it answers comes before the
    /// session ends.
    pub fn finish(&mut self, dev: &Device) -> Vec<Out> {
        let mut out = Vec::new();
        let pending = !self.line.is_empty() || !self.utf8.is_empty() || self.overlong > 0;
        if pending && !self.hung {
            self.run_line(dev, &mut out);
        }
        merged(out)
    }

    /// Runs an SSH exec request's command text as the lines of one session and ends it
    /// with an exit status, as a switch's SSH server answers `ssh switch 'show version'`.
    /// The session starts where a login does, in the standard (user) mode ("When the CLI is
    /// launched, it begins in Standard mode": Onyx manual, Command Line Interface), with
    /// paging off (no terminal). Its lines are [`exec_lines`]. What each prints is sent
    /// without prompts; the first refused line (a `%` reply) ends the run with exit status 1
    /// (UNCONFIRMED: no source shows Onyx's exit status; the lab stops so that a script
    /// never goes on configuring, or saves, after a refusal), else 0.
    pub fn exec(&mut self, dev: &Device, command: &str) -> Vec<Out> {
        self.session.set_paging(false);
        let mut out = Vec::new();
        let mut status = 0;
        for line in exec_lines(command) {
            let answer = match line.len() {
                n if n > MAX_LINE => dev.overlong(self.id, n),
                _ => dev.command(self.id, &mut self.session, &line),
            };
            if !answer.delay.is_zero() {
                out.push(Out::Delay(answer.delay));
            }
            match answer.step {
                Step::Drop => {
                    out.push(Out::Drop);
                    return out;
                }
                Step::Hang => {
                    self.hung = true;
                    return out;
                }
                Step::Reply { output, close } => {
                    let refused = output.lines().any(|l| l.starts_with('%'));
                    if !output.is_empty() {
                        out.push(Out::Data(self.endings(&output).into_bytes()));
                    }
                    if refused {
                        status = 1;
                        break;
                    }
                    if close {
                        break;
                    }
                }
            }
        }
        out.push(Out::Exit(status));
        merged(out)
    }

    /// Runs the line read so far (or refuses it whole when it was too long); true when
    /// nothing more is to be read.
    fn run_line(&mut self, dev: &Device, out: &mut Vec<Out>) -> bool {
        if !self.utf8.is_empty() {
            self.utf8.clear();
            self.line.push(char::REPLACEMENT_CHARACTER);
        }
        let line: String = std::mem::take(&mut self.line).into_iter().collect();
        self.cursor = 0;
        self.bytes = 0;
        self.browsing = None;
        let secret = self.session.asking_password();
        if self.pty && !secret && !line.trim().is_empty() && self.overlong == 0 {
            if self.history.last() != Some(&line) {
                self.history.push(line.clone());
            }
            if self.history.len() > HISTORY {
                self.history.remove(0);
            }
        }
        let answer = match std::mem::take(&mut self.overlong) {
            0 => dev.command(self.id, &mut self.session, &line),
            n => dev.overlong(self.id, n),
        };
        self.answer(dev, answer, out)
    }

    /// Turns a command's answer into output; true when nothing more is to be read.
    fn answer(&mut self, dev: &Device, answer: Answer, out: &mut Vec<Out>) -> bool {
        if !answer.delay.is_zero() {
            out.push(Out::Delay(answer.delay));
        }
        match answer.step {
            Step::Drop => {
                out.push(Out::Drop);
                true
            }
            Step::Hang => {
                self.hung = true;
                true
            }
            Step::Reply { output, close } => {
                self.noise = answer.noise;
                out.push(Out::Data(self.print(&output, answer.noise, dev)));
                if close {
                    out.push(Out::Close);
                }
                close
            }
        }
    }

    /// A command's output followed by the prompt (the pager's while paging).
    fn print(&self, output: &str, noise: bool, dev: &Device) -> Vec<u8> {
        let mut text = String::with_capacity(output.len() + 64);
        if noise && !output.is_empty() {
            text.push_str("\x1b[?1h\x1b=\r");
            for line in output.split_inclusive('\n') {
                text.push_str(&wrap_long(line));
            }
            if !self.session.paging_now() {
                text.push_str("\r\x1b[K");
                text.push_str(NULS);
                text.push_str("\x1b[?1l\x1b>");
            }
        } else {
            text.push_str(output);
        }
        let prompt = self.prompt(dev);
        if self.session.paging_now() {
            if noise {
                text.push_str(&format!(
                    "\x1b[7m{}{prompt}\x1b[m{}\x1b[K{NULS}",
                    &NULS[..8],
                    &NULS[..8]
                ));
            } else {
                text.push_str(&format!("\x1b[7m{prompt}\x1b[m"));
            }
        } else {
            text.push('\r');
            text.push_str(&prompt);
        }
        self.endings(&text).into_bytes()
    }

    fn prompt(&self, dev: &Device) -> String {
        dev.prompt(&self.session)
    }

    fn endings(&self, text: &str) -> String {
        if self.crlf {
            text.replace('\n', "\r\n")
        } else {
            text.to_string()
        }
    }
}

/// Onyx 3.10 redraws the 80th column of a long line: the character, a backspace, the
/// character again (readers strip `.\x08` pairs).
fn wrap_long(line: &str) -> String {
    match line.char_indices().nth(79) {
        Some((at, c)) if line.len() > at + c.len_utf8() => {
            format!("{}{c}\x08{}", &line[..at], &line[at..])
        }
        _ => line.to_string(),
    }
}

/// Adjacent pieces of output as one: what one read of the client's bytes makes the terminal
/// print is sent at once (a typed line's echo, its output and the prompt in one SSH packet,
/// not one a character: a lab of 256 switches answering `fabric verify` spent much of its
/// time, and the client as much, on the packets of the echo). The bytes are the same.
fn merged(outs: Vec<Out>) -> Vec<Out> {
    let mut merged: Vec<Out> = Vec::with_capacity(outs.len());
    for o in outs {
        if let (Some(Out::Data(a)), Out::Data(b)) = (merged.last_mut(), &o) {
            a.extend_from_slice(b);
            continue;
        }
        merged.push(o);
    }
    merged
}

/// The CLI lines an exec request's command text stands for. `cli -h '"enable" "show
/// version"'`, each double-quoted argument one line, is how scripts run commands on Spectrum
/// switches over SSH (`ssh sw cli -h '"enable" "configure terminal" "openflow del-flows 1"'`,
/// in public test scripts for an SN2100; they send `enable` first, so the lines start in the
/// standard mode); `cli -h` with no quoted argument runs the rest as one line. Any other text
/// is read as lines typed at the prompt, one per line of the text (UNCONFIRMED: no source
/// shows what Onyx makes of a bare command). A `;` separates nothing (no source shows Onyx
/// reading it so): `enable; show version` is refused at `enable;`.
pub fn exec_lines(command: &str) -> Vec<String> {
    let text = command.trim();
    let cli = text
        .strip_prefix("cli")
        .filter(|r| r.starts_with([' ', '\t']))
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix("-h"))
        .filter(|r| r.is_empty() || r.starts_with([' ', '\t']));
    if let Some(args) = cli {
        let args = args.trim();
        // The shell's quotes around the whole argument list.
        let args = args
            .strip_prefix('\'')
            .and_then(|a| a.strip_suffix('\''))
            .unwrap_or(args);
        let quoted: Vec<String> = args
            .split('"')
            .skip(1)
            .step_by(2)
            .map(|l| l.trim().to_string())
            .collect();
        return if quoted.is_empty() {
            vec![args.to_string()]
                .into_iter()
                .filter(|l| !l.is_empty())
                .collect()
        } else {
            quoted
        };
    }
    text.lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .filter(|l| !l.trim().is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Switch;

    /// A switch of the default OS (whose terminal output these tests read).
    fn leaf() -> Switch {
        crate::fabric::Os::default()
            .target()
            .lab()
            .factory("leaf01")
    }

    fn data(outs: &[Out]) -> String {
        outs.iter()
            .filter_map(|o| match o {
                Out::Data(d) => Some(String::from_utf8_lossy(d).into_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn keystrokes_are_echoed_edited_and_paged() {
        let dev = Device::new(leaf());
        let mut t = Term::new(1, true, true);
        assert!(
            String::from_utf8_lossy(&t.greet(&dev)).ends_with("leaf01 [standalone: master] > ")
        );
        let out = data(&t.feed(&dev, b"enx\x7fable\r"));
        assert_eq!(out, "enx\x08 \x08able\r\n\rleaf01 [standalone: master] # ");
        // Right arrow at the end of the line moves nothing; `\r\n` is one line end.
        let out = data(&t.feed(&dev, b"\x1b[Cterminal length 6\r\n"));
        assert!(out.ends_with("# "), "{out:?}");
        let out = data(&t.feed(&dev, b"show running-config\r"));
        assert!(out.ends_with("\x1b[7mlines 1-5 \x1b[m"), "{out:?}");
        let out = data(&t.feed(&dev, b"\r"));
        assert!(
            out.starts_with("\r\x1b[K") && out.ends_with("\x1b[7mlines 2-6 \x1b[m"),
            "{out:?}"
        );
        let out = data(&t.feed(&dev, b"q"));
        assert_eq!(out, "\r\x1b[K\rleaf01 [standalone: master] # ");
        assert_eq!(dev.log().len(), 3);
    }

    /// What one read of the client's bytes makes the terminal print goes out as one piece:
    /// a line typed at once, its echo, its output and the next prompt; a delay (a fault)
    /// still parts what comes before it from what comes after.
    #[test]
    fn a_line_typed_at_once_is_answered_in_one_piece() {
        let dev = Device::new(leaf());
        let mut t = Term::new(1, true, true);
        let outs = t.feed(&dev, b"show clock\rshow version\r");
        assert_eq!(outs.len(), 1, "{:?}", data(&outs));
        assert!(data(&outs).ends_with("leaf01 [standalone: master] > "));
        dev.set_faults(super::super::device::Faults {
            delay_ms: 1,
            ..Default::default()
        });
        let outs = t.feed(&dev, b"show clock\r");
        assert!(
            matches!(outs[..], [Out::Data(_), Out::Delay(_), Out::Data(_)]),
            "{outs:?}"
        );
    }

    /// The line is edited where the cursor is: Left/Right, Home/End and Ctrl-A/Ctrl-E,
    /// Delete, Ctrl-W, Ctrl-K; what runs is the edited line.
    #[test]
    fn lines_are_edited_at_the_cursor() {
        let dev = Device::new(leaf());
        let mut t = Term::new(1, true, true);
        // `enabel` → Left, Left, Delete (the `e`), End, then `e`: `enable`.
        let out = data(&t.feed(&dev, b"enabel\x1b[D\x1b[D\x1b[3~\x1b[Fe"));
        assert_eq!(out, "enabel\x08\x08l \x08\x08le");
        assert_eq!(t.line.iter().collect::<String>(), "enable");
        data(&t.feed(&dev, b"\r"));
        assert_eq!(dev.log().last().map(|l| l.1.as_str()), Some("enable"));
        // Ctrl-A, then type at the start; Ctrl-E; Ctrl-W takes `version`; Ctrl-K after
        // Home takes everything.
        data(&t.feed(&dev, b"version\x01show \x05"));
        assert_eq!(t.line.iter().collect::<String>(), "show version");
        data(&t.feed(&dev, b"\x17"));
        assert_eq!(t.line.iter().collect::<String>(), "show ");
        data(&t.feed(&dev, b"\x1b[H\x0b"));
        assert!(t.line.is_empty());
        // Home/End as `ESC [ 1 ~` / `ESC [ 4 ~` and `ESC O H`; Ctrl-B/Ctrl-F.
        data(&t.feed(&dev, b"sho\x1b[1~\x1b[4~w\x1bOH\x06\x02x\x7f\r"));
        assert_eq!(dev.log().last().map(|l| l.1.as_str()), Some("show"));
    }

    /// Up and Down browse the lines run, the line being typed kept; a password is never
    /// kept.
    #[test]
    fn history_recalls_lines_and_never_a_password() {
        let dev = Device::new(leaf());
        dev.set_faults(super::super::device::Faults {
            enable_password: Some("secret".into()),
            ..Default::default()
        });
        let mut t = Term::new(1, true, true);
        data(&t.feed(&dev, b"show version\renable\rsecret\rterminal length 5\r"));
        assert_eq!(t.history, ["show version", "enable", "terminal length 5"]);
        data(&t.feed(&dev, b"draft\x1b[A\x1b[A"));
        assert_eq!(t.line.iter().collect::<String>(), "enable");
        data(&t.feed(&dev, b"\x1b[B\x1b[B"));
        assert_eq!(t.line.iter().collect::<String>(), "draft");
        // Ctrl-P / Ctrl-N, and the recalled line runs.
        let out = data(&t.feed(&dev, b"\x15\x10\x10\x10\x0e\r"));
        assert!(out.ends_with("leaf01 [standalone: master] # "), "{out:?}");
        assert_eq!(dev.log().last().map(|l| l.1.as_str()), Some("enable"));
    }

    /// `?` lists what may follow, the line kept; Tab completes one keyword and lists several;
    /// Ctrl-C leaves the pager.
    #[test]
    fn help_completion_and_ctrl_c_in_the_pager() {
        let dev = Device::new(leaf());
        let mut t = Term::new(1, true, true);
        let out = data(&t.feed(&dev, b"show ?"));
        assert!(out.starts_with("show ?\r\n"), "{out:?}");
        assert!(out.contains("  version"), "{out:?}");
        assert!(
            out.ends_with("leaf01 [standalone: master] > show "),
            "{out:?}"
        );
        assert_eq!(t.line.iter().collect::<String>(), "show ");
        let out = data(&t.feed(&dev, b"ver\t"));
        assert_eq!(out, "version ");
        data(&t.feed(&dev, b"\x15en\t\rconf\t"));
        assert_eq!(t.line.iter().collect::<String>(), "configur");
        let out = data(&t.feed(&dev, b"\x15terminal length 5\rshow running-config\r"));
        assert!(out.ends_with("lines 1-4 \x1b[m"), "{out:?}");
        let out = data(&t.feed(&dev, b"\x03"));
        assert_eq!(out, "\r\x1b[K\rleaf01 [standalone: master] # ");
    }

    #[test]
    fn exec_requests_run_lines_and_stop_at_a_refusal() {
        assert_eq!(
            exec_lines("cli -h '\"enable\" \"show version\"'"),
            ["enable", "show version"]
        );
        assert_eq!(exec_lines("cli -h enable"), ["enable"]);
        assert_eq!(
            exec_lines("enable\r\n\nshow version\n"),
            ["enable", "show version"]
        );
        assert_eq!(exec_lines("enable; show version"), ["enable; show version"]);
        let dev = Device::new(leaf());
        let mut t = Term::new(1, false, false);
        let outs = t.exec(&dev, "show version");
        assert!(data(&outs).starts_with("Product name:      Onyx\n"));
        assert_eq!(outs.last(), Some(&Out::Exit(0)));
        let mut t = Term::new(2, false, false);
        let outs = t.exec(&dev, "enable\nconfigure terminal\nmtu 9000\nlldp");
        assert_eq!(data(&outs), "% Unrecognized command \"mtu\".\n");
        assert_eq!(outs.last(), Some(&Out::Exit(1)));
        assert!(
            !dev.snapshot().node().config.lldp,
            "nothing runs after a refusal"
        );
    }

    proptest::proptest! {
        /// Whatever a client sends, the terminal answers without panicking.
        #[test]
        fn any_bytes_are_read(
            chunks in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64), 0..16),
            pty: bool,
        ) {
            let dev = Device::new(leaf());
            let mut t = Term::new(1, pty, true);
            t.feed(&dev, b"enable\rconfigure terminal\rinterface ethernet 1/1\r");
            for c in &chunks {
                t.feed(&dev, c);
            }
            t.finish(&dev);
            let mut e = Term::new(2, pty, true);
            e.exec(&dev, &String::from_utf8_lossy(&chunks.concat()));
        }
    }

    #[test]
    fn noise_wraps_output_as_onyx_3_10_does() {
        let dev = Device::new(leaf());
        dev.set_faults(super::super::device::Faults {
            noise: true,
            ..Default::default()
        });
        let mut t = Term::new(1, false, true);
        let out = data(&t.feed(&dev, b"show version\n"));
        assert!(
            out.starts_with("\x1b[?1h\x1b=\rProduct name:      Onyx\r\n"),
            "{out:?}"
        );
        assert!(
            out.ends_with(
                "\r\x1b[K\0\0\0\0\0\0\0\0\0\0\0\0\x1b[?1l\x1b>\rleaf01 [standalone: master] > "
            ),
            "{out:?}"
        );
        let clean = crate::onyx::parse::clean(&out);
        assert!(clean.contains("Product name:      Onyx\n"), "{clean:?}");
    }
}
