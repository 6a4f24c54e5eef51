//! `fabric explain` texts of the fabric diagnostics that have one: what each checks, why it
//! matters, how to fix it (the layout of the audit rules' texts). One entry per code.

/// One diagnostic code's documentation.
pub struct CodeDoc {
    pub code: &'static str,
    pub severity: &'static str,
    pub what: &'static str,
    pub why: &'static str,
    pub fix: &'static str,
}

pub static CODES: &[CodeDoc] = &[
    CodeDoc {
        code: "E038",
        severity: "error",
        what: "A switch-wide key written beside `qos.preset: roce-lossless` (or beside `qos.roce: lossless`) that takes away what makes the RoCE recipe lossless: the `roce` mode and the preset together, PFC turned off (`qos.pfc: false`, `off`, or `enabled: false`), or pools that put the recipe's priority (3) in no lossless pool. Example: `qos: { preset: roce-lossless, pfc: false }`.",
        why: "Keys beside the preset replace its values, which is how a fabric adapts the recipe; these replacements leave RoCE's priority without pause frames or without a lossless buffer, so RDMA drops under load while the file still claims the lossless recipe. The `roce` mode sets the same things its own way, and NVIDIA documents no mix of the two.",
        fix: "Remove the key that contradicts the recipe (the diagnostic points at it and at the preset), or remove `preset` and write the pool, PFC, trust, ECN and ETS yourself.",
    },
    CodeDoc {
        code: "E039",
        severity: "error",
        what: "A switch whose `onyx` release is older than the first Onyx release that runs its `model` (the table in `src/types/model.rs`). Example: `onyx: 3.6.8190` with `model: SN3700`.",
        why: "Such a switch does not exist: either the model or the release is a typo, and the compiled configuration (section layout, quoting, commands gated by release) would be made for a switch that cannot be. NVIDIA's release notes, which list the systems each release supports, are not public; every first release in the table is marked unconfirmed, chosen early so that a real switch is not refused.",
        fix: "Correct `model` or `onyx` (the switch's `show version` says both); if the switch really runs that release, the table is wrong: say so in an issue.",
    },
    CodeDoc {
        code: "W006",
        severity: "warning",
        what: "`qos.pfc: on` or `off` (or `true`/`false`) on a switch that has no lossless traffic pool (and no `roce` mode).",
        why: "PFC follows the lossless pools: a switch with a lossless pool gets global PFC on its priorities and PFC mode on every port by default, and `qos.pfc: false` opts out. Without a lossless pool there is nothing to pause, so the key changes nothing and suggests a pool was forgotten.",
        fix: "Remove `qos.pfc`, or add the lossless pool it was meant for (`qos: { preset: roce-lossless }` gives NVIDIA's recipe).",
    },
];

/// The documentation of `code`, when it has one.
pub fn code(code: &str) -> Option<&'static CodeDoc> {
    CODES.iter().find(|c| c.code.eq_ignore_ascii_case(code))
}
