//! A `fabric lab` process for the benchmarks that run one (`lab`, `verify`, `push`'s peer).

use std::io::Read as _;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};

/// A `fabric lab` process, stopped when dropped as a user stops it (SIGTERM: a data plane's
/// namespaces and daemons go with it), killed if it has not ended 30 s later.
pub struct Lab {
    pub child: Child,
    /// What it printed up to the line saying every switch listens (the switches' table).
    pub text: String,
    /// Its output, kept open: the lab may print more.
    _out: ChildStdout,
}

impl Drop for Lab {
    fn drop(&mut self) {
        // SAFETY: a signal to the child this process started.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `BIN lab FABRIC --state STATE --base-port 0` and reads its output up to the line
/// it prints once every switch listens.
pub fn start(bin: &str, fabric: &Path, state: &Path) -> Lab {
    start_with::<&str>(bin, fabric, state, &[])
}

/// [`start`] with more arguments.
pub fn start_with<S: AsRef<std::ffi::OsStr>>(
    bin: &str,
    fabric: &Path,
    state: &Path,
    extra: &[S],
) -> Lab {
    let mut child = Command::new(bin)
        .arg("lab")
        .arg(fabric)
        .arg("--state")
        .arg(state)
        .args(["--base-port", "0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("fabric lab starts");
    let mut out = child.stdout.take().expect("stdout");
    let mut text = String::new();
    let mut buf = [0u8; 65536];
    while !text.contains("Ctrl-C stops the lab") {
        let n = out.read(&mut buf).expect("read");
        assert!(n > 0, "fabric lab ended: {text}");
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    Lab {
        child,
        text,
        _out: out,
    }
}
