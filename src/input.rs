//! Reading what a user hands over (a fabric file, a running config, standard input), bounded:
//! a device, a folder or a file past its limit is refused before it is read, and a pipe is
//! read only up to the limit, so `/dev/urandom` or a gigabyte of newlines is an error in
//! milliseconds, not memory exhaustion. Nothing here interprets the bytes, except
//! [`session_body`]: which lines of a running configuration saved from a CLI session are the
//! switch's output, by the prompt the caller's OS prints.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

/// Why an input was not read.
#[derive(Debug)]
pub enum Refused {
    /// A folder, a device or a socket: not a file to read (`kind` says which).
    NotRegular { kind: &'static str },
    /// More than `limit` bytes (`size` when the file system says how many).
    TooLarge { limit: u64, size: Option<u64> },
    /// The file could not be opened or read.
    Io(std::io::Error),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NotRegular { kind } => write!(f, "it is {kind}, not a file"),
            Refused::TooLarge {
                limit,
                size: Some(size),
            } => write!(
                f,
                "it is {size} bytes, more than the {} a file may have",
                mib(*limit)
            ),
            Refused::TooLarge { limit, size: None } => {
                write!(f, "it is more than the {} a file may have", mib(*limit))
            }
            Refused::Io(e) => e.fmt(f),
        }
    }
}

/// `32 MiB`, or `1024 bytes` below a MiB.
pub fn mib(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The bytes of `path` (`-`: standard input), at most `limit` of them.
pub fn read(path: &Path, limit: u64) -> Result<Bytes, Refused> {
    if path == Path::new("-") {
        return capped(std::io::stdin().lock(), limit, 0);
    }
    let meta = std::fs::metadata(path).map_err(Refused::Io)?;
    if let Some(kind) = kind(&meta) {
        return Err(Refused::NotRegular { kind });
    }
    if meta.is_file() && meta.len() > limit {
        return Err(Refused::TooLarge {
            limit,
            size: Some(meta.len()),
        });
    }
    let file = open(path)?;
    let meta = file.metadata().map_err(Refused::Io)?;
    if let Some(kind) = kind(&meta).or_else(|| named_pipe(&file, &meta)) {
        return Err(Refused::NotRegular { kind });
    }
    // A regular file, or a pipe (`<(…)`): read up to the limit either way, in case it grows.
    let size = if meta.is_file() { meta.len() } else { 0 };
    capped(file, limit, size)
}

/// The text of `path` as [`read`] reads it, for a reader whose only error is a message:
/// ``cannot read `PATH`: it is a character device, not a file``, or that it is not UTF-8.
pub fn read_string(path: &Path, limit: u64) -> Result<String, String> {
    let bytes = read(path, limit).map_err(|e| cannot_read(path, &e))?;
    String::from_utf8(bytes.into_vec())
        .map_err(|_| format!("cannot read `{}`: it is not UTF-8 text", path.display()))
}

/// ``cannot read `PATH`: WHY``.
pub fn cannot_read(path: &Path, why: &Refused) -> String {
    format!("cannot read `{}`: {why}", path.display())
}

/// At most `limit` bytes from `r` (a reply read to its end), or `None` when there are more.
pub fn read_to_limit(r: impl Read, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut out = Vec::new();
    r.take(limit.saturating_add(1)).read_to_end(&mut out)?;
    Ok((out.len() as u64 <= limit).then_some(out))
}

/// `path` opened to read, without waiting: opening a named pipe waits for a writer, which may
/// never come (`mkfifo`, then nothing). What was opened is checked from its descriptor (it may
/// not be what `path` was a moment before), and reads block again once it is.
fn open(path: &Path) -> Result<std::fs::File, Refused> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(Refused::Io)?;
    // SAFETY: fcntl on a descriptor this function owns; F_GETFL and F_SETFL only read and
    // set its status flags.
    let cleared = unsafe {
        use std::os::fd::AsRawFd;
        let fd = file.as_raw_fd();
        let flags = libc::fcntl(fd, libc::F_GETFL);
        flags >= 0 && libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) == 0
    };
    if !cleared {
        return Err(Refused::Io(std::io::Error::last_os_error()));
    }
    Ok(file)
}

/// `Some` when `file` is a named pipe (a FIFO made with `mkfifo`): reading one waits for
/// whatever writes to it, forever if nothing does. An unnamed pipe (`<(…)`, `/dev/stdin` fed
/// by `|`) has its writer already and is read, bounded. Linux tells them apart by the file
/// system the pipe lives on (pipefs, statfs(2)); elsewhere every pipe is read.
fn named_pipe(file: &std::fs::File, meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    if !meta.file_type().is_fifo() {
        return None;
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        /// `PIPEFS_MAGIC` of linux/magic.h.
        const PIPEFS_MAGIC: i64 = 0x5049_5045;
        // SAFETY: fstatfs fills the zeroed struct for a descriptor `file` owns.
        let on = unsafe {
            let mut fs: libc::statfs = std::mem::zeroed();
            (libc::fstatfs(file.as_raw_fd(), &mut fs) == 0).then_some(fs.f_type as i64)
        };
        if on != Some(PIPEFS_MAGIC) {
            return Some("a named pipe (FIFO)");
        }
    }
    None
}

/// What a path is when it is not something to read from: a folder or a device. Pipes
/// (process substitution, `/dev/stdin`) are read, bounded; named ones are [`named_pipe`].
fn kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_dir() {
        Some("a folder")
    } else if t.is_char_device() {
        Some("a character device")
    } else if t.is_block_device() {
        Some("a block device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

/// At most `limit` bytes of `r`, in a buffer sized for the `expected` bytes a file says it
/// has: read in place, not copied into ever larger buffers as it grows (for a config of a
/// few MB, the copies and the fresh pages they touch cost more than reading it).
fn capped(r: impl Read, limit: u64, expected: u64) -> Result<Bytes, Refused> {
    let expected = usize::try_from(expected.min(limit)).unwrap_or(0);
    let mut r = r.take(limit.saturating_add(1));
    let bytes = match Mapping::new(expected) {
        Some(mut map) => match map.fill(&mut r).map_err(Refused::Io)? {
            // Filled: the file grew while it was read; the rest goes after it.
            true => {
                let mut buf = map.bytes().to_vec();
                r.read_to_end(&mut buf).map_err(Refused::Io)?;
                Bytes(Store::Heap(buf))
            }
            false => Bytes(Store::Mapped(map)),
        },
        None => {
            let mut buf = Vec::with_capacity(expected);
            r.read_to_end(&mut buf).map_err(Refused::Io)?;
            Bytes(Store::Heap(buf))
        }
    };
    if bytes.len() as u64 > limit {
        return Err(Refused::TooLarge { limit, size: None });
    }
    let mut bytes = bytes;
    line_ends(bytes.as_mut_slice());
    Ok(bytes)
}

/// Lines end at `\n` (`\r\n` too: each reader drops the `\r` as a terminal's, with [`clean`]
/// for running configs); a text with no `\n` at all ends its lines at `\r` (classic Mac OS,
/// and some terminal captures), made `\n` here, byte for byte, so every reader splits it as
/// any other and a line, a column and an offset stay those of the file. The one place that
/// decides what ends a line: a lone `\r` in a text of `\n` lines is a carriage return (a
/// terminal's overwrite, [`clean`] removes it), not a line end.
pub fn line_ends(bytes: &mut [u8]) {
    if memchr::memchr(b'\n', bytes).is_some() {
        return;
    }
    for b in bytes.iter_mut().filter(|b| **b == b'\r') {
        *b = b'\n';
    }
}

/// The bytes of an input, as read.
pub struct Bytes(Store);

enum Store {
    Heap(Vec<u8>),
    Mapped(Mapping),
}

impl Bytes {
    fn as_mut_slice(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Store::Heap(v) => v,
            Store::Mapped(m) => m.bytes_mut(),
        }
    }

    /// The bytes in a `Vec` of their own (copied when they were read into a mapping).
    pub fn into_vec(self) -> Vec<u8> {
        match self.0 {
            Store::Heap(v) => v,
            Store::Mapped(m) => m.bytes().to_vec(),
        }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Store::Heap(v) => v,
            Store::Mapped(m) => m.bytes(),
        }
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bytes({} bytes)", self.len())
    }
}

/// An input's bytes that are UTF-8 text, read as [`Bytes`] and checked once.
pub struct Text(Bytes);

impl Text {
    /// The bytes as text, or back with where they stop being UTF-8.
    pub fn new(bytes: Bytes) -> Result<Text, (Bytes, std::str::Utf8Error)> {
        match std::str::from_utf8(&bytes) {
            Ok(_) => Ok(Text(bytes)),
            Err(e) => Err((bytes, e)),
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        // SAFETY: checked to be UTF-8 by `Text::new`, and never changed since.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

/// Text that did not come from a file (a switch's reply): valid UTF-8 already.
impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Bytes(Store::Heap(s.into_bytes())))
    }
}

impl Clone for Text {
    fn clone(&self) -> Text {
        Text(Bytes(Store::Heap(self.0.to_vec())))
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

/// A transparent huge page of x86-64 and most Linux targets.
const HUGE_PAGE: usize = 2 << 20;

/// Memory of its own for a large input, mapped for it and starting at a 2 MiB boundary, in
/// transparent huge pages where Linux gives them (and the process has not turned them off): a
/// 3 MB running config is then two page faults instead of 800, the larger part of reading it
/// (`perf stat -e page-faults fabric parse --format check`). The allocator's memory cannot
/// promise either: its large blocks start past a boundary, and reuse pages mapped small.
struct Mapping {
    /// The mapping, as `mmap` gave it.
    base: *mut libc::c_void,
    size: usize,
    /// The first 2 MiB boundary in it: where the bytes are.
    start: *mut u8,
    /// Room from `start` (a byte more than the input is expected to have), and what was read.
    room: usize,
    len: usize,
}

// SAFETY: a mapping is owned by one `Mapping` alone, and changed only through `&mut self`.
unsafe impl Send for Mapping {}
unsafe impl Sync for Mapping {}

impl Mapping {
    /// Room for `expected` bytes and one more (to tell a file that grew); `None` for an input
    /// smaller than a huge page, which the heap reads as well, or when nothing could be mapped.
    fn new(expected: usize) -> Option<Mapping> {
        if expected < HUGE_PAGE {
            return None;
        }
        let room = expected + 1;
        // The room in whole huge pages (so its last one can be huge too), and one more of
        // slack to find the boundary in: address space only, pages never written are never
        // backed.
        let size = room.next_multiple_of(HUGE_PAGE) + HUGE_PAGE;
        // SAFETY: a fresh private anonymous mapping (no address asked for, no file); the
        // result is checked. madvise is given a range inside it and only advises.
        unsafe {
            let base = libc::mmap(
                std::ptr::null_mut(),
                size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if base == libc::MAP_FAILED {
                return None;
            }
            let start = (base as usize).next_multiple_of(HUGE_PAGE);
            #[cfg(target_os = "linux")]
            libc::madvise(
                start as *mut libc::c_void,
                room.next_multiple_of(HUGE_PAGE),
                libc::MADV_HUGEPAGE,
            );
            Some(Mapping {
                base,
                size,
                start: start as *mut u8,
                room,
                len: 0,
            })
        }
    }

    /// Reads `r` to its end into the room; `true` when the room filled first.
    fn fill(&mut self, r: &mut impl Read) -> std::io::Result<bool> {
        // SAFETY: the room lies inside the mapping, which is readable, writable, zeroed when
        // mapped (so initialised), and borrowed here alone.
        let room = unsafe { std::slice::from_raw_parts_mut(self.start, self.room) };
        while self.len < room.len() {
            match r.read(&mut room[self.len..]) {
                Ok(0) => return Ok(false),
                Ok(n) => self.len += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }

    fn bytes(&self) -> &[u8] {
        // SAFETY: the first `len` bytes of the room, written by `fill`.
        unsafe { std::slice::from_raw_parts(self.start, self.len) }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as `bytes`, borrowed mutably through `&mut self` alone.
        unsafe { std::slice::from_raw_parts_mut(self.start, self.len) }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: the mapping `new` made, unmapped once; nothing borrows it past `self`.
        unsafe {
            libc::munmap(self.base, self.size);
        }
    }
}

/// What a terminal adds to a captured session removed, one output line per input line: `\r`,
/// NUL, ANSI escape sequences (`ESC [ … letter`, `ESC ] … BEL`, `ESC =`, `ESC >`), and a
/// character followed by backspace (oxidized's captures of Onyx 3.9 and 3.10 show all of
/// these). The one step every reader of running configs (Onyx, OS10) and host reports takes,
/// so that none refuses what another reads; each OS's pager prompt is its reader's own.
pub fn strip_terminal(raw: &str) -> Cow<'_, str> {
    let Some(first) = first_noisy(raw.as_bytes()) else {
        // A file from disk or a backup tool: nothing to remove (the common case, kept fast).
        return Cow::Borrowed(raw);
    };
    let mut out = String::with_capacity(raw.len());
    out.push_str(&raw[..first]);
    let mut rest = &raw[first..];
    while !rest.is_empty() {
        // Copy up to the next noisy byte in one go.
        let n = rest.bytes().position(noisy).unwrap_or(rest.len());
        out.push_str(&rest[..n]);
        rest = &rest[n..];
        let Some(c) = rest.as_bytes().first().copied() else {
            break;
        };
        rest = &rest[1..];
        match c {
            b'\r' | b'\0' => {}
            0x08 => {
                if out.chars().last().is_some_and(|l| l != '\n') {
                    out.pop();
                }
            }
            _ => rest = skip_escape(rest),
        }
    }
    Cow::Owned(out)
}

fn noisy(b: u8) -> bool {
    matches!(b, b'\r' | b'\0' | 0x08 | 0x1b)
}

/// Where the first byte [`strip_terminal`] removes is. Files from disk have none, so the whole text is
/// scanned, with `memchr`'s vector search.
fn first_noisy(b: &[u8]) -> Option<usize> {
    let escape = memchr::memchr3(b'\r', b'\0', 0x1b, b);
    let backspace = memchr::memchr(0x08, escape.map_or(b, |e| &b[..e]));
    backspace.or(escape)
}

/// The rest of the text after an ANSI escape sequence whose ESC was just read: CSI
/// (`[` … a final byte `@`..`~`), OSC (`]` … BEL or ESC `\`), a charset (`(B`), or one
/// character (`=`, `>`).
fn skip_escape(s: &str) -> &str {
    let mut it = s.char_indices();
    match it.next() {
        Some((_, '[')) => it
            .find(|(_, c)| ('@'..='~').contains(c))
            .map_or("", |(i, c)| &s[i + c.len_utf8()..]),
        Some((_, ']')) => {
            for (i, c) in it.by_ref() {
                if c == '\x07' {
                    return &s[i + 1..];
                }
                if c == '\x1b' {
                    return s[i + 1..].get(1..).unwrap_or("");
                }
            }
            ""
        }
        Some((_, '(' | ')')) => it.next().map_or("", |(i, c)| &s[i + c.len_utf8()..]),
        Some((i, c)) => &s[i + c.len_utf8()..],
        None => "",
    }
}

/// The commands whose output a saved session holds as a running configuration (OS10 spells
/// it out, Onyx abbreviates; both OSes take either).
const SHOW_RUNNING: &[&str] = &["show running-configuration", "show running-config"];

/// The lines of a running configuration saved from a CLI session that are the switch's
/// output: when the first line is exactly a prompt and the command that printed it
/// (`rack2-Rack01-TOR-1# show running-configuration`, `switch [standalone: master] # show
/// running-config`), the lines after it, without a lone prompt last (the session's next one,
/// blank lines after it too); otherwise every line. `prompt` reads the prompt of the
/// caller's OS at the start of a line and gives what follows it, trimmed (the typed
/// command). The range is of 0-based line numbers (lines split at `\n`), so a line's number
/// in the file is unchanged. Only the first and the last lines are looked at.
pub fn session_body<'t>(
    text: &'t str,
    prompt: impl Fn(&'t str) -> Option<&'t str>,
) -> std::ops::Range<usize> {
    let count = memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1;
    let first = text.split('\n').next().unwrap_or("");
    let first = first.strip_suffix('\r').unwrap_or(first);
    let saved = prompt(first).is_some_and(|command| SHOW_RUNNING.contains(&command));
    if !saved {
        return 0..count;
    }
    // The last line that is not blank, and its number.
    let kept = text.trim_end();
    let last_start = kept.rfind('\n').map_or(0, |i| i + 1);
    let last = &kept[last_start..];
    let last_no = memchr::memchr_iter(b'\n', &text.as_bytes()[..last_start]).count();
    let end = if last_no > 0 && prompt(last) == Some("") {
        last_no
    } else {
        count
    };
    1..end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_folders_and_large_files_are_refused_before_reading() {
        assert!(matches!(
            read(Path::new("/dev/urandom"), 1 << 20),
            Err(Refused::NotRegular {
                kind: "a character device"
            })
        ));
        assert!(matches!(
            read(Path::new("/"), 1 << 20),
            Err(Refused::NotRegular { kind: "a folder" })
        ));
        let dir = std::env::temp_dir().join(format!("fabric-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("big");
        std::fs::write(&f, vec![b'\n'; 2048]).unwrap();
        match read(&f, 1024) {
            Err(
                e @ Refused::TooLarge {
                    size: Some(2048), ..
                },
            ) => {
                assert_eq!(
                    e.to_string(),
                    "it is 2048 bytes, more than the 1024 bytes a file may have"
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(read(&f, 2048).unwrap().len(), 2048);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A named pipe is refused at once, written to or not (reading one waits for a writer,
    /// forever if none comes); an unnamed pipe (`<(…)`) is read. Run on a thread, so that a
    /// read that waits fails the test instead of hanging it.
    #[test]
    fn a_named_pipe_is_refused_without_waiting_and_an_unnamed_one_is_read() {
        let dir = std::env::temp_dir().join(format!("fabric-input-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo and pipe with valid arguments; the descriptors are closed below.
        let rd = unsafe {
            assert_eq!(libc::mkfifo(c.as_ptr(), 0o600), 0);
            let mut fds = [0; 2];
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            assert_eq!(libc::write(fds[1], b"abc".as_ptr().cast(), 3), 3);
            libc::close(fds[1]);
            fds[0]
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let f = fifo.clone();
        std::thread::spawn(move || {
            let named = read(&f, 1 << 20).map(|b| b.len());
            let unnamed =
                read(Path::new(&format!("/proc/self/fd/{rd}")), 1 << 20).map(|b| b.to_vec());
            let _ = tx.send((named, unnamed));
        });
        let got = rx.recv_timeout(std::time::Duration::from_secs(10));
        // SAFETY: the pipe's read end, opened above and read by path only.
        unsafe { libc::close(rd) };
        let _ = std::fs::remove_dir_all(&dir);
        let (named, unnamed) = got.expect("a read of a pipe returns");
        match named {
            Err(e @ Refused::NotRegular { .. }) => {
                assert_eq!(e.to_string(), "it is a named pipe (FIFO), not a file")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(unnamed.unwrap(), b"abc");
    }

    /// A file of several huge pages reads back byte for byte from a 2 MiB boundary; one past
    /// its limit by a byte is refused; one that is longer than it said (it grew while read)
    /// is read whole all the same, and one shorter too.
    #[test]
    fn a_large_file_reads_whole_from_a_huge_page_boundary() {
        let dir = std::env::temp_dir().join(format!("fabric-input-huge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("large");
        let line = b"interface ethernet 1/1 mtu 9216 force\n";
        let bytes: Vec<u8> = (0..5 * HUGE_PAGE + 12_345)
            .map(|i| line[i % line.len()])
            .collect();
        std::fs::write(&f, &bytes).unwrap();
        let open = || std::fs::File::open(&f).unwrap();
        let read_back = read(&f, 64 << 20);
        let len = bytes.len() as u64;
        let over = capped(open(), len - 1, len - 1);
        let grew = capped(open(), 64 << 20, 3 << 20);
        let shrank = capped(open(), 64 << 20, len + 10_000);
        let _ = std::fs::remove_dir_all(&dir);
        let read_back = read_back.unwrap();
        assert!(*read_back == *bytes);
        assert_eq!(read_back.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(matches!(over, Err(Refused::TooLarge { size: None, .. })));
        assert!(*grew.unwrap() == *bytes);
        assert!(*shrank.unwrap() == *bytes);
        let text = Text::new(read_back).unwrap();
        assert_eq!(text.len(), bytes.len());
        assert!(text.clone().as_bytes() == bytes);
        let (_, e) = Text::new(capped(&[b'a', 0xff, b'b'][..], 16, 3).unwrap())
            .err()
            .unwrap();
        assert_eq!(e.valid_up_to(), 1);
    }

    /// `HOST# rest` (an OS10-like prompt), for the tests.
    fn prompt(line: &str) -> Option<&str> {
        let (host, rest) = line.split_once('#')?;
        (!host.is_empty() && !host.contains(' ')).then(|| rest.trim())
    }

    #[test]
    fn a_saved_session_is_its_output_and_anything_else_is_left_whole() {
        let body = |text: &str| {
            let lines: Vec<&str> = text.split('\n').collect();
            lines[session_body(text, prompt)].join("|")
        };
        assert_eq!(
            body("sw# show running-configuration\n! Version\nx\nsw#\n"),
            "! Version|x"
        );
        assert_eq!(body("sw# show running-config\nx\n"), "x|");
        // A trailing prompt is dropped only after a saved session's first line.
        assert_eq!(body("x\nsw#"), "x|sw#");
        // Another command, or a prompt later on, is not a saved running configuration.
        assert_eq!(body("sw# show version\nx"), "sw# show version|x");
        assert_eq!(
            body("x\nsw# show running-configuration"),
            "x|sw# show running-configuration"
        );
        assert_eq!(
            body("sw# show running-configuration | grep ntp\nx"),
            "sw# show running-configuration | grep ntp|x"
        );
        // A prompt last that typed something is output to read (and refuse).
        assert_eq!(body("sw# show running-config\nx\nsw# exit"), "x|sw# exit");
        assert_eq!(body("sw# show running-config"), "");
    }
}
