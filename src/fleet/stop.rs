//! Stopping a fleet's push safely on SIGINT and SIGTERM, and where each switch being pushed
//! is, for the messages the signals print.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::push::signal_name;
use crate::device::push::Stage;
use crate::error::Failure;

/// SIGINT and SIGTERM while switches are being pushed. The first stops the push: no switch
/// starts after it, each one being changed is rolled back, one verified and saving finishes;
/// then the summary, and exit 130 (SIGINT) or 143 (SIGTERM). A second says so again and
/// names the switches still rolling back; a third abandons them and exits at once, naming
/// them (their running config may be half-configured; nothing is saved).
pub struct Stopper {
    /// The first signal's number; 0 before any.
    first: Arc<AtomicUsize>,
    /// Where each switch being pushed is.
    stages: Arc<Mutex<BTreeMap<String, Stage>>>,
    handle: signal_hook::iterator::Handle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Stopper {
    pub fn install(bars: indicatif::MultiProgress) -> Result<Stopper, Failure> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
            .map_err(|e| Failure(format!("cannot catch SIGINT and SIGTERM: {e}")))?;
        let handle = signals.handle();
        let first = Arc::new(AtomicUsize::new(0));
        let stages: Arc<Mutex<BTreeMap<String, Stage>>> = Arc::default();
        let (f, st) = (first.clone(), stages.clone());
        let thread = std::thread::spawn(move || {
            let mut count = 0;
            for sig in signals.forever() {
                count += 1;
                let _ = f.compare_exchange(0, sig as usize, Ordering::SeqCst, Ordering::SeqCst);
                let name = signal_name(sig);
                let busy: Vec<String> = st
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .iter()
                    .map(|(n, s)| format!("`{n}` ({s})"))
                    .collect();
                let busy = if busy.is_empty() {
                    "none".to_string()
                } else {
                    busy.join(", ")
                };
                let say = |text: String| bars.suspend(|| errln!("{text}"));
                match count {
                    1 => say(format!(
                        "{name}: stopping the push: no other switch starts; a switch being changed is rolled back, one saving finishes (in flight: {busy})"
                    )),
                    2 => say(format!(
                        "{name} again: waiting for the roll-backs to finish, nothing is saved (in flight: {busy}); a third signal abandons them and exits at once"
                    )),
                    _ => {
                        say(format!(
                            "{name} a third time: exiting now; left as they are, possibly half-configured and not saved: {busy}; their backups are in `.fabric/backups`"
                        ));
                        let first = f.load(Ordering::SeqCst) as i32;
                        std::process::exit(128 + if first > 0 { first } else { sig });
                    }
                }
            }
        });
        Ok(Stopper {
            first,
            stages,
            handle,
            thread: Some(thread),
        })
    }

    /// Why the push must stop, once a signal came.
    pub fn stopped(&self) -> Option<String> {
        match self.first.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(format!("stopped by {}", signal_name(sig as i32))),
        }
    }

    /// Where a switch is (`None`: done).
    pub fn stage(&self, name: &str, stage: Option<Stage>) {
        let mut st = self.stages.lock().unwrap_or_else(|e| e.into_inner());
        match stage {
            Some(s) => st.insert(name.to_string(), s),
            None => st.remove(name),
        };
    }

    /// Stops listening; the first signal that came, if one did.
    pub fn finish(mut self) -> Option<i32> {
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        match self.first.load(Ordering::SeqCst) {
            0 => None,
            sig => Some(sig as i32),
        }
    }
}
