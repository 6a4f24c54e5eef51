//! Which lab switches' state files changed, learned in one read however many switches the
//! lab has: one inotify instance (Linux) watching the state folder of each switch whose files
//! the network reads (`faults.yaml`; for a switch served by other processes, its running and
//! saved configs). The network view ([`super::view`]) asks before each command that reads the
//! network; asking every file instead (a `stat` per switch per command) made a lab of N
//! switches answer N² questions over a `fabric verify`.
//!
//! inotify reports a change from inside the system call that makes it, so a file written
//! before a command is sent is seen by that command. Where there is no inotify (another OS,
//! the watch limit reached, a folder removed or not yet made), the folder is not watched and
//! the network asks its files every time, as it always did.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The files of a switch's state folder whose change the network must see.
pub const FILES: &[&str] = &[
    "faults.yaml",
    "running.cfg",
    "active",
    super::device::OS10_STARTUP,
];

/// What changed since the last [`Watch::changed`].
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// Switches whose watched files changed.
    pub switches: BTreeSet<String>,
    /// Events were lost (the kernel's queue overflowed): anything may have changed.
    pub all: bool,
}

/// One inotify instance and the switch each of its watches is for.
pub struct Watch {
    #[cfg(target_os = "linux")]
    fd: std::os::fd::OwnedFd,
    /// Watch descriptor → switch name.
    watches: BTreeMap<i32, String>,
}

impl Watch {
    /// An inotify instance, or `None` where there is none.
    pub fn new() -> Option<Watch> {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::FromRawFd;
            // SAFETY: inotify_init1 takes flags only; a non-negative result is a new
            // descriptor this process owns.
            let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
            if fd < 0 {
                return None;
            }
            Some(Watch {
                // SAFETY: `fd` was just returned by inotify_init1 and is owned by no one else.
                fd: unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) },
                watches: BTreeMap::new(),
            })
        }
        #[cfg(not(target_os = "linux"))]
        None
    }

    /// Watches `dir`, the state folder of `switch`; false when it cannot be watched.
    pub fn add(&mut self, switch: &str, dir: &Path) -> bool {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::AsRawFd;
            use std::os::unix::ffi::OsStrExt;
            let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
                return false;
            };
            // Every way a file in the folder gets new content or goes away: written in place,
            // replaced by a rename, created, removed, touched; and the folder itself removed.
            let mask = libc::IN_CLOSE_WRITE
                | libc::IN_MODIFY
                | libc::IN_ATTRIB
                | libc::IN_CREATE
                | libc::IN_DELETE
                | libc::IN_MOVED_FROM
                | libc::IN_MOVED_TO
                | libc::IN_DELETE_SELF
                | libc::IN_MOVE_SELF
                | libc::IN_ONLYDIR;
            // SAFETY: a valid descriptor, a NUL-terminated path, a mask of IN_* flags.
            let wd = unsafe { libc::inotify_add_watch(self.fd.as_raw_fd(), path.as_ptr(), mask) };
            if wd < 0 {
                return false;
            }
            self.watches.insert(wd, switch.to_string());
            true
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (switch, dir);
            false
        }
    }

    /// The switches whose watched files changed since the last call, and those whose folder
    /// stopped being watched (removed or moved: `lost`, to be asked every time from now on).
    pub fn changed(&mut self, lost: &mut BTreeSet<String>) -> Changed {
        let mut out = Changed::default();
        #[cfg(target_os = "linux")]
        self.drain(&mut out, lost);
        #[cfg(not(target_os = "linux"))]
        let _ = lost;
        out
    }

    #[cfg(target_os = "linux")]
    fn drain(&mut self, out: &mut Changed, lost: &mut BTreeSet<String>) {
        use std::os::fd::AsRawFd;
        const HEAD: usize = std::mem::size_of::<libc::inotify_event>();
        // Aligned for the events' header; room for many events with names.
        let mut buf = vec![0u32; 16 * 1024];
        loop {
            // SAFETY: reads at most the buffer's length in bytes into it.
            let n = unsafe {
                libc::read(
                    self.fd.as_raw_fd(),
                    buf.as_mut_ptr().cast(),
                    buf.len() * std::mem::size_of::<u32>(),
                )
            };
            // Nothing more (EAGAIN), or an error: what was read is all there is.
            let Ok(n) = usize::try_from(n) else { return };
            if n == 0 {
                return;
            }
            // SAFETY: the kernel wrote `n` bytes of the buffer, which is `n` bytes or more.
            let bytes: &[u8] = unsafe { std::slice::from_raw_parts(buf.as_ptr().cast(), n) };
            let mut at = 0;
            while at + HEAD <= n {
                // SAFETY: a whole header lies at `at`; read_unaligned needs no alignment.
                let ev: libc::inotify_event =
                    unsafe { std::ptr::read_unaligned(bytes[at..].as_ptr().cast()) };
                let len = ev.len as usize;
                let name = bytes.get(at + HEAD..at + HEAD + len).unwrap_or(&[]);
                let name = name.split(|b| *b == 0).next().unwrap_or(&[]);
                at += HEAD + len;
                self.event(ev.wd, ev.mask, name, out, lost);
            }
        }
    }

    #[cfg(target_os = "linux")]
    fn event(
        &mut self,
        wd: i32,
        mask: u32,
        name: &[u8],
        out: &mut Changed,
        lost: &mut BTreeSet<String>,
    ) {
        if mask & libc::IN_Q_OVERFLOW != 0 {
            out.all = true;
            return;
        }
        let Some(switch) = self.watches.get(&wd).cloned() else {
            return;
        };
        if mask & (libc::IN_IGNORED | libc::IN_DELETE_SELF | libc::IN_MOVE_SELF) != 0 {
            self.watches.remove(&wd);
            lost.insert(switch.clone());
            out.switches.insert(switch);
            return;
        }
        if FILES.iter().any(|f| f.as_bytes() == name) {
            out.switches.insert(switch);
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("fabric-watch-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A fault file written, replaced or removed is seen at the next ask, once; a command log
    /// appended to is not a change of the network.
    #[test]
    fn sees_the_state_files_and_nothing_else() {
        let dir = scratch("files");
        let mut w = Watch::new().unwrap();
        assert!(w.add("leaf01", &dir));
        let mut lost = BTreeSet::new();
        assert_eq!(w.changed(&mut lost), Changed::default());
        std::fs::write(dir.join("commands.log"), "1\tshow version\n").unwrap();
        assert_eq!(w.changed(&mut lost), Changed::default());
        std::fs::write(dir.join("faults.yaml"), "cabling: { down: [\"1/1\"] }\n").unwrap();
        let one = Changed {
            switches: BTreeSet::from(["leaf01".to_string()]),
            all: false,
        };
        assert_eq!(w.changed(&mut lost), one);
        assert_eq!(w.changed(&mut lost), Changed::default());
        std::fs::write(dir.join("running.tmp"), "x").unwrap();
        std::fs::rename(dir.join("running.tmp"), dir.join("running.cfg")).unwrap();
        assert_eq!(w.changed(&mut lost), one);
        std::fs::remove_file(dir.join("faults.yaml")).unwrap();
        assert_eq!(w.changed(&mut lost), one);
        assert!(lost.is_empty());
        // The folder removed: its switch is lost to the watch, and said to have changed.
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(w.changed(&mut lost), one);
        assert_eq!(lost, BTreeSet::from(["leaf01".to_string()]));
    }
}
