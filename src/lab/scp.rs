//! The receiving end of SCP (`scp -t TARGET` on an exec channel), as an OS10 switch's SSH
//! server runs it for a client that puts a file in the login's home folder: napalm-dellos10's
//! `load_merge_candidate` puts its candidate there (Netmiko's `FileTransfer`, the `scp`
//! package's `SCPClient.put`) before `copy home://NAME running-configuration` applies it.
//!
//! The protocol is OpenSSH's `scp -t` sink (the `scp` package speaks it): the sink answers each
//! step with a zero byte; the client sends `C<mode> <size> <name>\n`, the file's bytes and a zero
//! byte for each file, optionally `T<mtime> 0 <atime> 0\n` before it; an error is a byte 1 and a
//! line of text, after which nothing more is taken. Bounded: a file of at most
//! the switch's bound ([`LabFiles::max`]), a few files a transfer, a header line of at most 1
//! KB, a name the switch keeps as a file of its state folder ([`LabFiles::valid_name`]).
//! Directories (`-r`, `D`/`E` lines) are refused. A file is stored (and so checked against the
//! switch's own bounds) before its last zero byte is answered. The target is a file name, the login's home
//! folder (`.`, `~`, `/home/USER`) or a file in it (`/home/USER/NAME`); anything else is
//! refused before a byte is taken.

use crate::targets::LabFiles;

/// How many files one transfer takes.
const MAX_FILES: usize = 8;

/// The longest header line (`C0644 123 name`).
const MAX_LINE: usize = 1024;

/// Where the files go: under their own names, or the one file under this name.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    Folder,
    File(String),
}

#[derive(Debug)]
enum State {
    /// Reading a header line.
    Header(Vec<u8>),
    /// Reading a file's bytes (and the zero byte after them).
    Data {
        name: String,
        size: usize,
        got: Vec<u8>,
    },
    /// Refused: nothing more is taken.
    Failed,
}

/// One `scp -t` transfer being received.
#[derive(Debug)]
pub struct Sink {
    target: Target,
    state: State,
    /// How many files it has taken.
    taken: usize,
    /// The switch's bounds on a file.
    files: &'static LabFiles,
}

/// Where a received file goes: `Err` says why it is not taken.
pub type Store<'a> = &'a mut dyn FnMut(&str, Vec<u8>) -> Result<(), String>;

/// The words of an `scp` sink command: its options, then its target (the `scp` package sends
/// `scp -t TARGET`, OpenSSH's client `scp -t -- TARGET` or with `-p`, `-v`, `-d`).
fn words(command: &str) -> Option<(Vec<&str>, &str)> {
    let mut words: Vec<&str> = command.split_whitespace().collect();
    if words.first() != Some(&"scp") || words.len() < 3 {
        return None;
    }
    let target = words.pop()?;
    let options: Vec<&str> = words[1..].iter().copied().filter(|w| *w != "--").collect();
    options.contains(&"-t").then_some((options, target))
}

impl Sink {
    /// The sink an exec request's `command` asks for: `None` when it is not `scp -t`; `Err`
    /// says why the switch refuses it (a source, `-f`; directories; a target outside the
    /// login's home folder). `files`: the switch's bounds on a file.
    pub fn start(
        command: &str,
        user: &str,
        files: &'static LabFiles,
    ) -> Option<Result<Sink, String>> {
        let (options, target) = words(command)?;
        if let Some(o) = options
            .iter()
            .find(|o| !matches!(**o, "-t" | "-p" | "-v" | "-d"))
        {
            return Some(Err(format!("scp: option `{o}` is not taken")));
        }
        let target = unquote(target);
        let home = format!("/home/{user}");
        let inside = target
            .strip_prefix(&home)
            .and_then(|t| t.strip_prefix('/'))
            .or_else(|| target.strip_prefix("./"))
            .or_else(|| target.strip_prefix("~/"))
            .unwrap_or(target);
        let target = match inside {
            "" | "." | "~" => Target::Folder,
            _ if target == home => Target::Folder,
            name if (files.valid_name)(name) => Target::File(name.to_string()),
            _ => return Some(Err(format!("scp: {target}: Permission denied"))),
        };
        Some(Ok(Sink {
            target,
            state: State::Header(Vec::new()),
            taken: 0,
            files,
        }))
    }

    /// What the sink answers first: ready.
    pub fn ready() -> Vec<u8> {
        vec![0]
    }

    /// Bytes from the client: what to answer. Each file received whole goes to `store`
    /// before the client is told it arrived.
    pub fn feed(&mut self, mut data: &[u8], store: Store) -> Vec<u8> {
        let mut out = Vec::new();
        while !data.is_empty() {
            let (used, answer) = self.step(data, store);
            data = &data[used..];
            out.extend(answer);
            if matches!(self.state, State::Failed) {
                break;
            }
        }
        out
    }

    /// One step over `data`: how much of it was taken, and the answer.
    fn step(&mut self, data: &[u8], store: Store) -> (usize, Vec<u8>) {
        match &mut self.state {
            State::Failed => (data.len(), Vec::new()),
            State::Header(line) => {
                let Some(at) = data.iter().position(|&b| b == b'\n') else {
                    line.extend_from_slice(data);
                    if line.len() > MAX_LINE {
                        return (data.len(), self.fail("scp: header line too long"));
                    }
                    return (data.len(), Vec::new());
                };
                line.extend_from_slice(&data[..at]);
                let line = std::mem::take(line);
                (at + 1, self.header(&line))
            }
            State::Data { name, size, got } => {
                let want = *size + 1 - got.len();
                let take = want.min(data.len());
                got.extend_from_slice(&data[..take]);
                if got.len() < *size + 1 {
                    return (take, Vec::new());
                }
                let end = got.pop();
                let (name, bytes) = (std::mem::take(name), std::mem::take(got));
                if end != Some(0) {
                    return (take, self.fail("scp: the file did not end as SCP ends one"));
                }
                if let Err(e) = store(&name, bytes) {
                    return (take, self.fail(&format!("scp: {name}: {e}")));
                }
                self.taken += 1;
                self.state = State::Header(Vec::new());
                (take, vec![0])
            }
        }
    }

    /// A header line: a file (`C`), its times (`T`), or what the sink refuses.
    fn header(&mut self, line: &[u8]) -> Vec<u8> {
        let line = String::from_utf8_lossy(line).into_owned();
        match line.chars().next() {
            Some('T') => {
                self.state = State::Header(Vec::new());
                vec![0]
            }
            Some('C') => match self.file(&line[1..]) {
                Ok((name, size)) => {
                    self.state = State::Data {
                        name,
                        size,
                        got: Vec::with_capacity(size + 1),
                    };
                    vec![0]
                }
                Err(e) => self.fail(&e),
            },
            Some('D' | 'E') => self.fail("scp: directories are not taken"),
            _ => self.fail("scp: protocol error"),
        }
    }

    /// `<mode> <size> <name>`: the file's name here and its size, within the bounds.
    fn file(&self, rest: &str) -> Result<(String, usize), String> {
        let mut parts = rest.splitn(3, ' ');
        let (Some(mode), Some(size), Some(name)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err("scp: protocol error".to_string());
        };
        if mode.len() != 4 || !mode.chars().all(|c| ('0'..='7').contains(&c)) {
            return Err("scp: protocol error: bad mode".to_string());
        }
        let size: usize = size
            .parse()
            .map_err(|_| "scp: protocol error: bad size".to_string())?;
        let max = self.files.max;
        if size > max {
            return Err(format!("scp: {name}: a file is at most {max} bytes"));
        }
        if self.taken >= MAX_FILES {
            return Err(format!("scp: at most {MAX_FILES} files a transfer"));
        }
        let name = match &self.target {
            Target::File(n) => n.clone(),
            Target::Folder if (self.files.valid_name)(name) => name.to_string(),
            Target::Folder => return Err(format!("scp: {name}: Permission denied")),
        };
        Ok((name, size))
    }

    fn fail(&mut self, message: &str) -> Vec<u8> {
        self.state = State::Failed;
        let mut out = vec![1];
        out.extend_from_slice(message.as_bytes());
        out.push(b'\n');
        out
    }

    /// Whether the transfer was refused.
    pub fn failed(&self) -> bool {
        matches!(self.state, State::Failed)
    }
}

/// A target as a shell would read one quoted word (the `scp` package quotes an unsafe one in
/// single quotes).
fn unquote(word: &str) -> &str {
    word.strip_prefix('\'')
        .and_then(|w| w.strip_suffix('\''))
        .unwrap_or(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bounds of an OS whose switches take files.
    fn files() -> &'static LabFiles {
        crate::fabric::Os::all()
            .find_map(|os| os.target().lab().scp())
            .expect("an OS that takes files over SCP")
    }

    fn start(command: &str) -> Option<Result<Sink, String>> {
        Sink::start(command, "admin", files())
    }

    fn sink(command: &str) -> Sink {
        start(command).unwrap().unwrap()
    }

    type Files = Vec<(String, Vec<u8>)>;

    /// What `sink` answers to each of `steps`, the files it stored, whether it failed.
    fn run(mut sink: Sink, steps: &[&[u8]]) -> (Vec<Vec<u8>>, Files, bool) {
        let mut files = Vec::new();
        let mut store = |name: &str, bytes: Vec<u8>| {
            files.push((name.to_string(), bytes));
            Ok(())
        };
        let answers = steps.iter().map(|s| sink.feed(s, &mut store)).collect();
        (answers, files, sink.failed())
    }

    #[test]
    fn a_file_is_received_under_the_target_name() {
        let (answers, files, failed) = run(
            sink("scp -t merge_config.txt"),
            &[b"C0644 12 3f2a-uuid\n", b"hostname x\n", b"\n\0"],
        );
        assert_eq!(answers, [vec![0], vec![], vec![0]]);
        assert!(!failed);
        let hostname = b"hostname x\n\n".to_vec();
        assert_eq!(files, [("merge_config.txt".to_string(), hostname)]);
        // All at once, into the home folder under the file's own name, times first.
        let (answers, files, _) = run(
            sink("scp -p -t -- /home/admin/"),
            &[b"T1 0 1 0\nC0600 3 a.cfg\nabc\0"],
        );
        assert_eq!(answers, [vec![0, 0, 0]]);
        assert_eq!(files, [("a.cfg".to_string(), b"abc".to_vec())]);
    }

    #[test]
    fn what_could_leave_the_folder_or_grow_without_bound_is_refused() {
        assert!(start("show version").is_none());
        assert!(start("scp -f x").is_none());
        for bad in [
            "scp -t ../x",
            "scp -t /etc/passwd",
            "scp -t /home/other/x",
            "scp -t a/b",
            "scp -t .ssh",
            "scp -r -t x",
        ] {
            assert!(start(bad).unwrap().is_err(), "{bad}");
        }
        let too_big = format!("C0644 {} x\n", files().max + 1);
        let long = [b'C'; MAX_LINE + 1];
        for (target, steps) in [
            ("scp -t .", vec![&b"C0644 3 ../x\nabc\0"[..]]),
            ("scp -t x", vec![too_big.as_bytes()]),
            ("scp -t x", vec![&b"D0755 0 dir\n"[..]]),
            ("scp -t x", vec![&long[..]]),
            // A file that does not end with its zero byte is not kept.
            ("scp -t x", vec![&b"C0644 1 x\nab"[..]]),
        ] {
            let (answers, files, failed) = run(sink(target), &steps);
            assert!(failed && files.is_empty(), "{target} {answers:?}");
            assert_eq!(answers.last().unwrap().iter().find(|&&b| b != 0), Some(&1));
        }
        // A file the switch does not keep is refused after its bytes, not acknowledged.
        let mut refuse = |_: &str, _: Vec<u8>| Err("no room".to_string());
        let mut s = sink("scp -t x");
        assert_eq!(s.feed(b"C0644 1 x\na\0", &mut refuse)[..2], [0, 1]);
    }
}
