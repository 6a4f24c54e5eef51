//! A session's terminal: bytes in, bytes out. With a pseudo-terminal (an SSH client that
//! asked for one) input is read a keystroke at a time: echoed, edited (backspace, Ctrl-U,
//! Ctrl-C), and given to the pager key by key. Without one (an SSH shell without a PTY,
//! `--stdio` under a terminal that does its own echo) it is read a line at a time.
//! Output is printed as Onyx prints it: the prompt after `\r`, lines ending in `\r\n` on SSH,
//! and, when the switch is told to (`noise`), wrapped in Onyx 3.10's escape sequences and NULs.

use std::time::Duration;

use super::cli::Session;
use super::device::{Answer, Device, Step};

/// What to do with the connection, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    Data(Vec<u8>),
    /// Wait before the next output (a slow switch).
    Delay(Duration),
    /// Close the session (`exit`).
    Close,
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
    line: Vec<u8>,
    /// The last byte ended a line with `\r` (a following `\n` is the same end).
    cr: bool,
    /// Inside an escape sequence typed by a terminal (arrow keys): skipped.
    escape: u8,
    /// A hang fault fired: nothing more is read or printed.
    hung: bool,
    /// The line being read passed [`MAX_LINE`]: it is refused whole at its end.
    overlong: usize,
    /// Whether the last output was printed with noise (the pager prompt keeps the style).
    noise: bool,
}

const NULS: &str = "\0\0\0\0\0\0\0\0\0\0\0\0";

/// The longest line read. A longer one is never run, not even its beginning: it is counted
/// to its end and refused whole (a client cannot grow a session without bound, and a prefix
/// of a line is another command: `interface ethernet 1/4 shutdown` + garbage).
pub const MAX_LINE: usize = 16 * 1024;

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
            cr: false,
            escape: 0,
            hung: false,
            overlong: 0,
            noise: false,
        }
    }

    /// What a login prints: the banner, then the first prompt.
    pub fn greet(&mut self, dev: &Device) -> Vec<u8> {
        let out = format!(
            "Number of total successful connections since last 1 days: {}\n\nNVIDIA Switch\n\n",
            self.id
        );
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
                let reply = self.session.key(b);
                let text = format!("\r\x1b[K{}", reply.output);
                let noise = self.noise;
                out.push(Out::Data(self.print(&text, noise, dev)));
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
            if self.line.len() >= MAX_LINE && !(self.pty && matches!(b, 0x03 | 0x15)) {
                self.overlong = self.overlong.max(self.line.len()) + 1;
                continue;
            }
            if !self.pty {
                self.line.push(b);
                continue;
            }
            if self.escape > 0 {
                // ESC [ params final: the final byte is a letter or `~`.
                self.escape = match (self.escape, b) {
                    (1, b'[' | b'O') => 2,
                    (2, b'0'..=b'9' | b';') => 2,
                    _ => 0,
                };
                continue;
            }
            match b {
                0x1b => self.escape = 1,
                // Backspace: erased on screen unless it was a password's (never echoed).
                0x7f | 0x08 if self.line.pop().is_some() && !self.session.asking_password() => {
                    out.push(Out::Data(b"\x08 \x08".to_vec()));
                }
                // Ctrl-C: the line is dropped, a new prompt.
                0x03 => {
                    self.line.clear();
                    self.overlong = 0;
                    let text = format!("\n{}", self.prompt(dev));
                    out.push(Out::Data(self.endings(&text).into_bytes()));
                }
                // Ctrl-U: the line is erased.
                0x15 => {
                    let n = self.line.len();
                    self.line.clear();
                    self.overlong = 0;
                    out.push(Out::Data("\x08 \x08".repeat(n).into_bytes()));
                }
                0x20..=0x7e | 0x80.. => {
                    self.line.push(b);
                    if !self.session.asking_password() {
                        out.push(Out::Data(vec![b]));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The client sent its last byte (EOF): a last line without its line end is run as if
    /// it had one, as a shell reads its input to the end. What it answers comes before the
    /// session ends.
    pub fn finish(&mut self, dev: &Device) -> Vec<Out> {
        let mut out = Vec::new();
        let pending = !self.line.is_empty() || self.overlong > 0;
        if pending && !self.hung {
            self.run_line(dev, &mut out);
        }
        out
    }

    /// Runs the line read so far (or refuses it whole when it was too long); true when
    /// nothing more is to be read.
    fn run_line(&mut self, dev: &Device, out: &mut Vec<Out>) -> bool {
        let line = String::from_utf8_lossy(&std::mem::take(&mut self.line)).into_owned();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Switch;

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
        let dev = Device::new(Switch::factory("leaf01"));
        let mut t = Term::new(1, true, true);
        assert!(
            String::from_utf8_lossy(&t.greet(&dev)).ends_with("leaf01 [standalone: master] > ")
        );
        let out = data(&t.feed(&dev, b"enx\x7fable\r"));
        assert_eq!(out, "enx\x08 \x08able\r\n\rleaf01 [standalone: master] # ");
        // An arrow key is skipped; `\r\n` is one line end.
        let out = data(&t.feed(&dev, b"\x1b[Aterminal length 6\r\n"));
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

    proptest::proptest! {
        /// Whatever a client sends, the terminal answers without panicking.
        #[test]
        fn any_bytes_are_read(
            chunks in proptest::collection::vec(proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64), 0..16),
            pty: bool,
        ) {
            let dev = Device::new(Switch::factory("leaf01"));
            let mut t = Term::new(1, pty, true);
            t.feed(&dev, b"enable\rconfigure terminal\rinterface ethernet 1/1\r");
            for c in &chunks {
                t.feed(&dev, c);
            }
        }
    }

    #[test]
    fn noise_wraps_output_as_onyx_3_10_does() {
        let dev = Device::new(Switch::factory("leaf01"));
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
