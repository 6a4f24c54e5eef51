//! The faults a lab switch injects ([`Faults`], from its control file `faults.yaml`) and how
//! far their triggers have counted ([`FaultState`]): which command drops or hangs the
//! connection, whose output is cut short, which is refused, and after which the switch's
//! configuration drifts. [`super::device`] asks before and after running each command.

use std::path::Path;
use std::time::{Duration, SystemTime};

use serde::Deserialize;

use super::device::Step;
use super::network::CablingFaults;

/// Faults a switch injects, from its control file `faults.yaml`. Every field is optional.
/// A command *matches* a pattern when its line, as received, contains the pattern; counts
/// start when the file is (re)read and cover every session of the switch.
///
/// ```yaml
/// delay_ms: 50             # wait before answering each command
/// noise: true              # wrap output in Onyx 3.10's terminal noise (ANSI escapes, NULs)
/// drop: { after: 12 }      # the 13th command closes the connection, unanswered
/// hang: { after: 3, match: "interface" }  # the 4th matching command: no reply, no prompt
///                          # (`applied: true` on either: the command takes effect first)
/// truncate: { match: "show running-config", lines: 40 }  # its output cut after 40 lines
/// refuse:                  # matching commands fail with a `%` error, state untouched
///   - { match: "mtu 9216", error: "% MTU out of range" }
/// enable_password: secret  # `enable` asks `Password: ` and wants this
/// drift:                   # changed behind the client's back, once: after the first
///   after: 1               # `show running-config` is answered, these configuration
///   match: show running-config  # commands are applied to the running config
///   commands: ["interface ethernet 1/1 description changed"]
/// cabling:                 # this switch's cables, as the whole network sees them
///   swap: [["1/25", "1/26"]]   # two cables' far ends crossed
///   down: ["1/27"]             # a cable broken: both ends down
///   neighbor: { "1/28": { host: spine09, port: Eth1/7 } }   # what LLDP reports there
/// counters:                # what the ports count beyond the load (`super::counters`)
///   pause_storm: ["1/1"]       # pauses on the lossless priorities without end
///   drops: { "1/25": { tc: 3 } }
///   no_ecn: ["1/26"]           # pauses, never marks
///   crc: ["1/27"]
///   flap: ["1/28"]
/// ```
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Faults {
    #[serde(default)]
    pub delay_ms: u64,
    #[serde(default)]
    pub noise: bool,
    pub drop: Option<Trigger>,
    pub hang: Option<Trigger>,
    pub truncate: Option<Truncate>,
    #[serde(default)]
    pub refuse: Vec<Refusal>,
    pub drift: Option<Drift>,
    /// `enable` asks for this password (Onyx may; the lab does not by default).
    pub enable_password: Option<String>,
    /// Faults of this switch's cables ([`CablingFaults`]): every switch of the network sees
    /// them, since a cable has two ends.
    #[serde(default)]
    pub cabling: CablingFaults,
    /// What this switch's ports count beyond the simulated load
    /// ([`super::counters::CounterFaults`]).
    #[serde(default)]
    pub counters: super::counters::CounterFaults,
}

impl Faults {
    /// What the network reads of these faults: the cables' and the counters'.
    pub fn network(&self) -> CablingFaults {
        CablingFaults {
            counters: self.counters.clone(),
            ..self.cabling.clone()
        }
    }
}

/// Fires once, at the first matching command after `after` matching ones.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Trigger {
    #[serde(default)]
    pub after: u64,
    #[serde(rename = "match")]
    pub pattern: Option<String>,
    /// The command takes effect before the connection drops or hangs (a save that is done
    /// but whose reply never comes).
    #[serde(default)]
    pub applied: bool,
}

/// A command's output cut short: only its first `lines` lines, then the prompt, as a
/// switch whose output was interrupted; fires once, as a [`Trigger`].
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Truncate {
    #[serde(default)]
    pub after: u64,
    #[serde(rename = "match")]
    pub pattern: Option<String>,
    pub lines: usize,
}

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    #[serde(rename = "match")]
    pub pattern: String,
    /// The error line; `% Command refused (lab fault).` by default.
    pub error: Option<String>,
}

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Drift {
    /// Applied once the `after`-th matching command has been answered (default 1).
    #[serde(default = "one")]
    pub after: u64,
    #[serde(rename = "match")]
    pub pattern: Option<String>,
    /// Configuration commands, as typed at `(config)`.
    pub commands: Vec<String>,
}

fn one() -> u64 {
    1
}

fn matches(pattern: &Option<String>, line: &str) -> bool {
    pattern.as_deref().is_none_or(|p| line.contains(p))
}

/// The faults in force and how far their triggers have counted.
#[derive(Default)]
pub(super) struct FaultState {
    pub(super) faults: Faults,
    /// The control file's modification time when it was read.
    pub(super) read: Option<SystemTime>,
    drop_seen: u64,
    hang_seen: u64,
    truncate_seen: u64,
    drift_seen: u64,
}

impl FaultState {
    /// The faults `faults`, read from the control file as it was at `read`, counting from
    /// now.
    pub(super) fn new(faults: Faults, read: Option<SystemTime>) -> FaultState {
        FaultState {
            faults,
            read,
            ..FaultState::default()
        }
    }

    /// How long the switch waits before answering, and whether it prints with noise.
    pub(super) fn style(&self) -> (Duration, bool) {
        (
            Duration::from_millis(self.faults.delay_ms),
            self.faults.noise,
        )
    }

    /// Whether `typed` (a command received) drops or hangs the connection now, a drop
    /// before a hang, and whether it takes effect first.
    pub(super) fn cut(&mut self, typed: &str) -> Option<(Step, bool)> {
        let mut cut: Option<(Step, bool)> = None;
        if let Some(t) = &self.faults.drop
            && matches(&t.pattern, typed)
        {
            self.drop_seen += 1;
            if self.drop_seen == t.after + 1 {
                cut = Some((Step::Drop, t.applied));
            }
        }
        if let Some(t) = &self.faults.hang
            && cut.is_none()
            && matches(&t.pattern, typed)
        {
            self.hang_seen += 1;
            if self.hang_seen == t.after + 1 {
                cut = Some((Step::Hang, t.applied));
            }
        }
        cut
    }

    /// How many lines of `typed`'s output are kept, when its truncate fault fires now.
    pub(super) fn truncated(&mut self, typed: &str) -> Option<usize> {
        let t = self.faults.truncate.as_ref()?;
        if !matches(&t.pattern, typed) {
            return None;
        }
        self.truncate_seen += 1;
        (self.truncate_seen == t.after + 1).then_some(t.lines)
    }

    /// The error line a refuse fault answers `typed` with.
    pub(super) fn refused(&self, typed: &str) -> Option<String> {
        let r = self
            .faults
            .refuse
            .iter()
            .find(|r| typed.contains(&r.pattern))?;
        Some(
            r.error
                .clone()
                .unwrap_or_else(|| "% Command refused (lab fault).".to_string()),
        )
    }

    /// The drift fault's commands, when `typed` (answered) sets it off now.
    pub(super) fn drift(&mut self, typed: &str) -> Option<&[String]> {
        let d = self.faults.drift.as_ref()?;
        if !matches(&d.pattern, typed) {
            return None;
        }
        self.drift_seen += 1;
        (self.drift_seen == d.after).then_some(d.commands.as_slice())
    }
}

/// A fault control file: `None` when there is none, else its faults or why it does not read.
pub(super) fn read_faults(path: &Path) -> Option<Result<Faults, String>> {
    match crate::input::read(path, 1 << 20) {
        Err(crate::input::Refused::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(Err(crate::input::cannot_read(path, &e))),
        Ok(bytes) => Some(
            String::from_utf8(bytes.into_vec())
                .map_err(|_| format!("`{}` is not UTF-8 text", path.display()))
                .and_then(|text| {
                    serde_saphyr::from_str::<Faults>(&text).map_err(|e| e.to_string())
                }),
        ),
    }
}
