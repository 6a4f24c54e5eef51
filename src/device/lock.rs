//! One push per switch at a time from this machine: a lock file per switch address, locked
//! (`flock`, released when the process ends, however it ends) for the whole push. The key is
//! the address the switch is reached at (resolved: `localhost:22` and `127.0.0.1:22` are one
//! switch), so two pushes from different folders or fabrics to one switch collide. The file
//! says who holds it. Another machine's push is seen on the switch itself (`show users`, in
//! `push`).

use std::fs::File;
use std::io::{Read as _, Seek as _, Write as _};
use std::net::ToSocketAddrs;
use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use super::Target;

/// The folder of the lock files: `FABRIC_LOCK_DIR`, else `fabric-locks` in the system's
/// temporary folder (one folder for every user of the machine).
pub const DIR_ENV: &str = "FABRIC_LOCK_DIR";

pub fn dir() -> PathBuf {
    std::env::var_os(DIR_ENV)
        .filter(|d| !d.is_empty())
        .map_or_else(|| std::env::temp_dir().join("fabric-locks"), PathBuf::from)
}

/// A switch locked for this process's push, until dropped.
#[derive(Debug)]
pub struct Lock {
    _file: File,
    pub path: PathBuf,
}

/// The lock file's name for a switch address: `127.0.0.1_2201.lock`, `__1_22.lock` for
/// `[::1]:22` (resolved when the name resolves; only `[A-Za-z0-9.-]` kept).
pub fn key(target: &Target) -> String {
    let addr = (target.host.as_str(), target.port)
        .to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .map_or_else(
            || format!("{}_{}", target.host.to_ascii_lowercase(), target.port),
            |a| format!("{}_{}", a.ip(), a.port()),
        );
    addr.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Locks `target` for this process; when another push holds it, says who (`what` is written
/// in the file for others to read: this push's fabric and switch).
pub fn acquire(target: &Target, what: &str) -> Result<Lock, String> {
    let dir = dir();
    if !dir.exists() {
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create the lock folder `{}`: {e}", dir.display()))?;
        // Shared by the machine's users, as the temporary folder is (sticky: no one removes
        // another's file).
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o1777));
    }
    let path = dir.join(format!("{}.lock", key(target)));
    let file = open(&path).map_err(|e| format!("cannot open `{}`: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            // Who holds it is a line; a file grown past that is not read further.
            let _ = (&file).take(4096).read_to_string(&mut holder);
            let holder = holder.trim();
            let holder = if holder.is_empty() {
                "its holder did not say who it is".to_string()
            } else {
                holder.to_string()
            };
            return Err(format!(
                "another push holds {}:{} ({holder}; lock `{}`)",
                target.host,
                target.port,
                path.display()
            ));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(format!("cannot lock `{}`: {e}", path.display()));
        }
    }
    // Who holds it, for the next one to read (best effort: a file of another user's may be
    // read-only to us, and locked all the same).
    let (y, mo, d, h, mi, s) = crate::types::utc_now();
    let who = format!(
        "pid {}, user `{}`, in `{}`, since {y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02} UTC, pushing {what}\n",
        std::process::id(),
        std::env::var("USER").unwrap_or_default(),
        std::env::current_dir()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
    );
    let _ = file
        .set_len(0)
        .and_then(|()| (&file).rewind())
        .and_then(|()| (&file).write_all(who.as_bytes()));
    Ok(Lock { _file: file, path })
}

/// Opens the lock file without following a link (the folder is shared), made if missing and
/// writable by every user; read-only when it is another user's.
fn open(path: &Path) -> std::io::Result<File> {
    let rw = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o666)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path);
    match rw {
        Ok(f) => {
            let _ = f.set_permissions(std::fs::Permissions::from_mode(0o666));
            Ok(f)
        }
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path),
        Err(e) => Err(e),
    }
}
