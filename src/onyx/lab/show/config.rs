//! The configuration and the sessions: `show running-config [interface KIND ID]`, `show
//! configuration files [NAME]`, `show users`.

use std::fmt::Write as _;
use std::time::Instant;

use crate::onyx::command::{self, Command};
use crate::onyx::lab::cli::{Switch, Unconfirmed};
use crate::onyx::render::Renderer;
use crate::onyx::sections;

/// `show running-config`: the configuration as the renderer prints it, with the header line
/// Onyx adds (`## Generated at`), which every reader ignores.
pub(crate) fn running_config(sw: &Switch) -> String {
    let mut cfg = sw.running.clone();
    cfg.header.database = sw.active.clone();
    rendered(&cfg)
}

/// A configuration as Onyx prints it, with the `## Generated at` line after the database's.
fn rendered(cfg: &crate::onyx::Config) -> String {
    let text = Renderer::shared()
        .and_then(|r| r.render(cfg))
        .unwrap_or_else(|e| format!("% {e}\n"));
    let mut out = String::with_capacity(text.len() + 48);
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        if line.starts_with("## Running database ") || line.starts_with("## Active saved database ")
        {
            let _ = writeln!(out, "## Generated at {}", now());
        }
    }
    out
}

/// `show configuration files NAME`: the saved file as Onyx prints it
/// (`tests/fixtures/corpus/onyx/napalm-onyx__show_configuration_files_initial.cfg`: `##
/// Active saved database "initial"`, then the configuration); `None` when there is no such
/// file. As JSON, its lines ([`super::lines_json`]).
pub fn file(sw: &Switch, name: &str) -> Option<String> {
    let mut cfg = sw.files.get(name)?.clone();
    cfg.header.database = name.to_string();
    cfg.header.saved = true;
    Some(rendered(&cfg))
}

/// `show running-config protocol bgp`: the running config's BGP section, between the
/// header and prefix-mode sections that frame every running config
/// (`…/ansible-onyx__onyx_bgp_show__show_running-config_protocol_bgp.cfg`: header, the
/// temporary prefix-mode section, `## BGP configuration` with `protocol bgp` first, the
/// persistent prefix-mode section). Without BGP, the frame alone.
pub fn protocol_bgp(sw: &Switch) -> String {
    let keep = [
        sections::TEMPORARY_PREFIX,
        sections::BGP,
        sections::PERSISTENT_PREFIX,
    ];
    let text = running_config(sw);
    let mut out = String::with_capacity(text.len() / 4);
    // The header runs to the first section's title; each section from its `##` block.
    let mut blocks = text.split("\n##\n## ");
    if let Some(header) = blocks.next() {
        out.push_str(header);
        out.push('\n');
    }
    for block in blocks {
        let title = block.lines().next().unwrap_or("");
        if keep.contains(&title) {
            out.push_str("##\n## ");
            out.push_str(block);
            out.push('\n');
        }
    }
    out
}

/// `show running-config interface KIND ID`: the lines of those interfaces; `None` when the
/// words name no interface.
pub fn interface(sw: &Switch, kind: &str, id: &str) -> Option<String> {
    let Ok(Some(Command::Interface(want, _))) = command::parse(&format!("interface {kind} {id}"))
    else {
        return None;
    };
    let members: Vec<_> = want.members().collect();
    Some(
        running_config(sw)
            .lines()
            .filter(|l| match command::parse(l.trim()) {
                Ok(Some(Command::Interface(r, _))) => r.members().any(|m| members.contains(&m)),
                _ => false,
            })
            .map(|l| format!("{l}\n"))
            .collect(),
    )
}

/// `show configuration files`.
pub fn files(sw: &Switch) -> String {
    let mut out = String::new();
    for name in sw.files.keys() {
        let active = if *name == sw.active { " (active)" } else { "" };
        let _ = writeln!(out, "{name}{active}");
    }
    let _ = writeln!(out, "Active configuration: {}", sw.active);
    let unsaved = if sw.unsaved() { "yes" } else { "no" };
    let _ = writeln!(out, "Unsaved changes : {unsaved}");
    out
}

/// `show users`: one line per session logged in, the asking one marked `*` (the layout is
/// unconfirmed: [`Unconfirmed::UsersHeader`]).
pub fn users(sw: &Switch, me: u64) -> String {
    let mut out = format!("{}\n", Unconfirmed::UsersHeader.text());
    let now = Instant::now();
    for (id, l) in &sw.logins {
        let (d, h, m, s) = super::dhms(now.saturating_duration_since(l.active));
        let mark = if *id == me { '*' } else { ' ' };
        let line = format!("pts/{}", id.saturating_sub(1));
        let _ = writeln!(
            out,
            "{mark} {:<12}{:<18}{line:<14}{:<20}{d}d {h}h {m}m {s}s",
            l.user, "", l.host
        );
    }
    out
}

/// The current UTC time as Onyx prints it in the header: `2025/04/15 10:23:14 +0000`.
fn now() -> String {
    let (y, mo, d, h, mi, s) = crate::types::utc_now();
    format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02} +0000")
}
