//! What the lab's Cumulus switch prints that no capture or document shows, in one table:
//! each text with what it rests on.

use crate::lab::Reply;

/// A text the lab prints on its own word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unconfirmed {
    /// The login banner (Debian's, short).
    Banner,
    /// `nv config apply` with nothing pending.
    NothingPending,
    /// `nv config apply <rev> --confirm-yes` of the revision waiting.
    Confirmed,
    /// `--confirm-yes` / `--confirm-no` when that revision is not waiting.
    NotWaiting,
    /// `--confirm-no`: the switch went back.
    RolledBack,
    /// `--confirm-status` with nothing waiting.
    NoConfirm,
    /// A `show` of an object that does not exist.
    NoSuchItem,
    /// An `nv` line the lab does not model.
    Unknown,
    /// A byte value past 1,023 in a counter view, `{}` the value in the unit after it.
    RoundedBytes,
    /// A traffic class's status in `qos pfc-watchdog` (the lab counts detections only).
    WatchdogStatus,
}

/// Every row: the text, and what it rests on.
pub const TABLE: &[(Unconfirmed, &str, &str)] = &[
    (
        Unconfirmed::Banner,
        "Linux cumulus 6.1.0-cl-1-amd64 #1 SMP PREEMPT_DYNAMIC Debian x86_64\n\nWelcome to NVIDIA Cumulus (R) Linux (R)\n\n",
        "the kernel named by `nv show system version` on 5.16 (VX capture); the welcome line as the install media print it",
    ),
    (
        Unconfirmed::NothingPending,
        "Warning: There is no pending configuration to apply.\n",
        "not found in any capture or document",
    ),
    (
        Unconfirmed::Confirmed,
        "confirmed [rev_id: {}]\n",
        "what `--confirm-yes` prints was not found",
    ),
    (
        Unconfirmed::NotWaiting,
        "Error: Revision {} is not waiting for confirmation.\n",
        "the state `confirm` (REST, NAPALM) is the only one that takes a confirm",
    ),
    (
        Unconfirmed::RolledBack,
        "rolled back [rev_id: {}]\n",
        "what `--confirm-no` prints was not found",
    ),
    (
        Unconfirmed::NoConfirm,
        "No revision is waiting for confirmation.\n",
        "what `--confirm-status` prints was not found",
    ),
    (
        Unconfirmed::NoSuchItem,
        "Error: The requested item does not exist.\n",
        "a collector written against an SN2010 (tool), not a capture of this command",
    ),
    (
        Unconfirmed::Unknown,
        "Invalid Command: {}\n",
        "the refusal of a bad `nv set` path (tool); the lab answers so every `nv` line it does not model",
    ),
    (
        Unconfirmed::RoundedBytes,
        "{} KB,{} MB,{} GB,{} TB",
        "two decimals as the 5.15 guide's `out-bytes 9.73 MB`; the base (1,024) is not documented",
    ),
    (
        Unconfirmed::WatchdogStatus,
        "OK",
        "a status of the NVUE reference's example; the lab does not model a queue stuck now",
    ),
];

impl Unconfirmed {
    pub fn text(self) -> &'static str {
        TABLE
            .iter()
            .find(|(u, _, _)| *u == self)
            .map_or("", |(_, t, _)| t)
    }

    /// The text with `{}` filled by `arg`.
    pub fn with(self, arg: &str) -> String {
        self.text().replacen("{}", arg, 1)
    }

    pub fn reply(self) -> Reply {
        Reply::text(self.text().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_has_a_source() {
        assert!(TABLE.iter().all(|(_, t, s)| !t.is_empty() && !s.is_empty()));
    }
}
