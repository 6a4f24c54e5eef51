//! Reading what a user hands over (a fabric file, a running config, standard input), bounded:
//! a device, a folder or a file past its limit is refused before it is read, and a pipe is
//! read only up to the limit, so `/dev/urandom` or a gigabyte of newlines is an error in
//! milliseconds, not memory exhaustion. Nothing here interprets the bytes, except
//! [`session_body`]: which lines of a running configuration saved from a CLI session are the
//! switch's output, by the prompt the caller's OS prints.

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
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, Refused> {
    if path == Path::new("-") {
        return capped(std::io::stdin().lock(), limit, 0);
    }
    let meta = std::fs::metadata(path).map_err(Refused::Io)?;
    let kind = kind(&meta);
    if let Some(kind) = kind {
        return Err(Refused::NotRegular { kind });
    }
    if meta.is_file() && meta.len() > limit {
        return Err(Refused::TooLarge {
            limit,
            size: Some(meta.len()),
        });
    }
    // A regular file, or a pipe (`<(…)`): read up to the limit either way, in case it grows.
    let file = std::fs::File::open(path).map_err(Refused::Io)?;
    let size = if meta.is_file() { meta.len() } else { 0 };
    capped(file, limit, size)
}

/// What a path is when it is not something to read from: a folder or a device. Pipes
/// (process substitution, `/dev/stdin`) are read, bounded.
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
fn capped(r: impl Read, limit: u64, expected: u64) -> Result<Vec<u8>, Refused> {
    let expected = usize::try_from(expected.min(limit)).unwrap_or(0);
    let mut r = r.take(limit.saturating_add(1));
    let mut buf;
    if expected >= HUGE_PAGE {
        // Room for the 2 MiB-aligned stretch to reach past the last byte, wherever the
        // allocation starts (address space only: the pages past the end are never touched).
        buf = Vec::with_capacity(expected + HUGE_PAGE);
        huge_pages(&mut buf, |buf| r.read_to_end(buf))
    } else {
        buf = Vec::with_capacity(expected);
        r.read_to_end(&mut buf)
    }
    .map_err(Refused::Io)?;
    if buf.len() as u64 > limit {
        return Err(Refused::TooLarge { limit, size: None });
    }
    Ok(buf)
}

/// A transparent huge page of x86-64 and most Linux targets.
const HUGE_PAGE: usize = 2 << 20;

/// Runs `read`, which fills `buf`, with the buffer's 2 MiB-aligned stretch in transparent huge
/// pages where Linux has them. The allocator turns huge pages off for the process (they cost a
/// short-lived command more than they save, zeroed in full for a few bytes used), but a read
/// buffer is written in full at once: one huge page instead of 512 page faults, the larger part
/// of reading a 3 MB running config (`perf stat -e page-faults fabric parse --format check`).
/// The switch is the process's: it is turned back off after the read (while it is on, another
/// thread's fresh memory may get huge pages too, where the system gives them unasked).
#[cfg(target_os = "linux")]
fn huge_pages<T>(buf: &mut Vec<u8>, read: impl FnOnce(&mut Vec<u8>) -> T) -> T {
    let start = buf.as_mut_ptr() as usize;
    let from = start.next_multiple_of(HUGE_PAGE);
    let to = (start + buf.capacity()) / HUGE_PAGE * HUGE_PAGE;
    // SAFETY: prctl with these arguments reads or sets one flag of the process; madvise is
    // given a range inside the buffer's allocation and only advises (no content changes).
    unsafe {
        let disabled = libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1;
        if to <= from || (disabled && libc::prctl(libc::PR_SET_THP_DISABLE, 0, 0, 0, 0) != 0) {
            return read(buf);
        }
        libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        let out = read(buf);
        if disabled {
            libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
        }
        out
    }
}

#[cfg(not(target_os = "linux"))]
fn huge_pages<T>(buf: &mut Vec<u8>, read: impl FnOnce(&mut Vec<u8>) -> T) -> T {
    read(buf)
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

    /// A file of several huge pages reads back byte for byte, and one past its limit by a
    /// byte is refused; the process's huge pages stay off, as the allocator of the binary
    /// turns them.
    #[test]
    fn a_large_file_reads_whole_and_huge_pages_stay_off() {
        #[cfg(target_os = "linux")]
        // SAFETY: prctl reads or sets one flag of the process.
        let (thp, set) = (
            || unsafe { libc::prctl(libc::PR_GET_THP_DISABLE, 0, 0, 0, 0) },
            |off: libc::c_ulong| unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, off, 0, 0, 0) },
        );
        #[cfg(target_os = "linux")]
        let before = thp();
        #[cfg(target_os = "linux")]
        set(1);
        let dir = std::env::temp_dir().join(format!("fabric-input-huge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("large");
        let line = b"interface ethernet 1/1 mtu 9216 force\n";
        let bytes: Vec<u8> = (0..5 * HUGE_PAGE + 12_345)
            .map(|i| line[i % line.len()])
            .collect();
        std::fs::write(&f, &bytes).unwrap();
        let read_back = read(&f, 64 << 20);
        let limit = bytes.len() as u64 - 1;
        let over = capped(std::fs::File::open(&f).unwrap(), limit, limit);
        #[cfg(target_os = "linux")]
        let after = thp();
        #[cfg(target_os = "linux")]
        set(before as libc::c_ulong);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(read_back.unwrap() == bytes);
        assert!(matches!(over, Err(Refused::TooLarge { size: None, .. })));
        #[cfg(target_os = "linux")]
        assert_eq!(after, 1);
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
