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

/// Whether `name` is a file of a switch's state folder whose change the network must see:
/// its faults, or a file whose change changes its running config (as any OS keeps it).
fn watched(name: &std::ffi::OsStr) -> bool {
    name == "faults.yaml"
        || crate::fabric::Os::all().any(|os| os.target().lab().watched().iter().any(|f| name == *f))
}

/// What changed since the last [`Watch::changed`].
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// Switches whose watched files changed.
    pub switches: BTreeSet<String>,
    /// Events were lost (the kernel's queue overflowed): anything may have changed.
    pub all: bool,
}

#[cfg(target_os = "linux")]
use nix::sys::inotify::{AddWatchFlags, InitFlags, Inotify, WatchDescriptor};

/// One inotify instance and the switch each of its watches is for.
pub struct Watch {
    #[cfg(target_os = "linux")]
    inotify: Inotify,
    #[cfg(target_os = "linux")]
    watches: BTreeMap<WatchDescriptor, String>,
}

impl Watch {
    /// An inotify instance, or `None` where there is none.
    pub fn new() -> Option<Watch> {
        #[cfg(target_os = "linux")]
        {
            let inotify = Inotify::init(InitFlags::IN_NONBLOCK | InitFlags::IN_CLOEXEC).ok()?;
            Some(Watch {
                inotify,
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
            // Every way a file in the folder gets new content or goes away: written in place,
            // replaced by a rename, created, removed, touched; and the folder itself removed.
            let mask = AddWatchFlags::IN_CLOSE_WRITE
                | AddWatchFlags::IN_MODIFY
                | AddWatchFlags::IN_ATTRIB
                | AddWatchFlags::IN_CREATE
                | AddWatchFlags::IN_DELETE
                | AddWatchFlags::IN_MOVED_FROM
                | AddWatchFlags::IN_MOVED_TO
                | AddWatchFlags::IN_DELETE_SELF
                | AddWatchFlags::IN_MOVE_SELF
                | AddWatchFlags::IN_ONLYDIR;
            match self.inotify.add_watch(dir, mask) {
                Ok(wd) => {
                    self.watches.insert(wd, switch.to_string());
                    true
                }
                Err(_) => false,
            }
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
        // Until nothing more is queued (EAGAIN), or an error: what was read is all there is.
        while let Ok(events) = self.inotify.read_events() {
            if events.is_empty() {
                break;
            }
            for ev in events {
                self.event(ev.wd, ev.mask, ev.name.as_deref(), &mut out, lost);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = lost;
        out
    }

    #[cfg(target_os = "linux")]
    fn event(
        &mut self,
        wd: WatchDescriptor,
        mask: AddWatchFlags,
        name: Option<&std::ffi::OsStr>,
        out: &mut Changed,
        lost: &mut BTreeSet<String>,
    ) {
        if mask.contains(AddWatchFlags::IN_Q_OVERFLOW) {
            out.all = true;
            return;
        }
        let Some(switch) = self.watches.get(&wd).cloned() else {
            return;
        };
        if mask.intersects(
            AddWatchFlags::IN_IGNORED | AddWatchFlags::IN_DELETE_SELF | AddWatchFlags::IN_MOVE_SELF,
        ) {
            self.watches.remove(&wd);
            lost.insert(switch.clone());
            out.switches.insert(switch);
            return;
        }
        if name.is_some_and(watched) {
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
