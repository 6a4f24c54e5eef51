//! A shell session on a Cumulus lab switch: the lines the push session and a person type
//! (`nv set` / `nv unset` into this session's pending revision, `nv config …`, `nv show …`,
//! and the few shell commands of the dialect).
//!
//! Facts (`../shared/reference/cumulus-nvue.md`, `/work/nvue-facts.md` §3): the first set
//! of a new pending revision prints `created [rev_id: N]`; `nv config apply` prints
//! `applied [rev_id: N]` (auto-save off); `nv config save` prints `saved [rev_id: applied]`;
//! a confirm is a second apply with `--confirm-yes`, a reject `--confirm-no`; `nv config diff`
//! prints `- set:` / `- unset:` documents; bad words `Invalid Command: …`. The rest is in
//! [`Unconfirmed`].

use std::collections::BTreeMap;
use std::time::{Duration, SystemTime};

use super::{CumulusSwitch, Unconfirmed};
use crate::cumulus::tree::{self, Node, Tree};
use crate::lab::network::World;
use crate::lab::{Login, Reply};
use crate::targets::{LabEffect, LabSession, LabStart, LabSwitch};

/// The objects at the root of NVUE's tree that `nv set` takes.
pub(super) const ROOTS: &[&str] = &[
    "acl",
    "bridge",
    "evpn",
    "interface",
    "mlag",
    "nve",
    "platform",
    "qos",
    "router",
    "service",
    "system",
    "vrf",
];

/// The window of `--confirm` given no time (NVUE's documented default).
const DEFAULT_WINDOW: Duration = Duration::from_secs(600);

/// One login's shell on the switch.
#[derive(Clone, Debug)]
pub struct CumulusSession {
    id: u64,
    user: Option<String>,
    /// A hand on the box (a drift fault): each set is applied at once.
    hand: bool,
    /// This session's pending revision: its number and tree.
    pending: Option<(u64, Tree)>,
}

fn text(s: impl Into<String>) -> Reply {
    Reply::text(s.into())
}

impl CumulusSession {
    pub fn new(start: LabStart) -> CumulusSession {
        CumulusSession {
            id: start.id,
            user: None,
            hand: start.configuring,
            pending: None,
        }
    }

    fn user(&self) -> &str {
        self.user.as_deref().unwrap_or("cumulus")
    }

    /// One line on `sw`.
    pub fn run(
        &mut self,
        sw: &mut CumulusSwitch,
        line: &str,
        world: Option<&World>,
        logins: &BTreeMap<u64, Login>,
        effect: &mut LabEffect,
    ) -> Reply {
        if let Some((command, name)) = line.split_once(" > ") {
            return self.redirect(sw, command, name.trim(), world, effect);
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => text(""),
            ["exit"] | ["logout"] => Reply {
                output: String::new(),
                close: true,
            },
            ["export", ..] => text(""),
            ["who"] => text(who(logins)),
            ["ls", "-1"] | ["ls"] => {
                text(sw.home.keys().map(|n| format!("{n}\n")).collect::<String>())
            }
            ["rm", "-f", names @ ..] => {
                for n in names {
                    effect.saved |= sw.home.remove(*n).is_some();
                }
                text("")
            }
            ["cat", "/etc/nvue.d/startup.yaml"] | ["sudo", "cat", "/etc/nvue.d/startup.yaml"] => {
                text(super::folder::text(&sw.startup))
            }
            ["nv", "set" | "unset", ..] => self.stage(sw, line, effect),
            ["nv", "config", rest @ ..] => self.config(sw, rest, effect),
            ["nv", "show", rest @ ..] => super::show::show(sw, rest, world),
            ["nv", rest @ ..] => text(Unconfirmed::Unknown.with(&rest.join(" "))),
            [cmd, ..] => text(format!("-bash: {cmd}: command not found\n")),
        }
    }

    /// `COMMAND > NAME`: what it prints kept as a file of the home folder.
    fn redirect(
        &mut self,
        sw: &mut CumulusSwitch,
        command: &str,
        name: &str,
        world: Option<&World>,
        effect: &mut LabEffect,
    ) -> Reply {
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        if !valid {
            return text(format!("-bash: {name}: No such file or directory\n"));
        }
        let out = self.run(sw, command, world, &BTreeMap::new(), effect);
        if out
            .output
            .lines()
            .any(crate::cumulus::dialect::DIALECT.error)
        {
            return out;
        }
        sw.home.insert(name.to_string(), out.output);
        effect.saved = true;
        text("")
    }

    /// `nv set …` / `nv unset …` into the pending revision (created by the first).
    fn stage(&mut self, sw: &mut CumulusSwitch, line: &str, effect: &mut LabEffect) -> Reply {
        let commands = match tree::parse_commands(line) {
            Ok(c) => c,
            Err(e) => return text(format!("Error: {}\n", e.expected)),
        };
        let typed = line.trim().trim_start_matches("nv").trim();
        let known = commands
            .iter()
            .all(|c| c.path.first().is_some_and(|r| ROOTS.contains(&r.as_str())));
        if commands.is_empty() || !known {
            return text(Unconfirmed::Unknown.with(typed));
        }
        let mut out = String::new();
        let (_, pending) = match &mut self.pending {
            Some(p) => p,
            None => {
                let rev = sw.new_rev();
                out = format!("created [rev_id: {rev}]\n");
                self.pending.insert((rev, sw.applied.clone()))
            }
        };
        tree::apply(pending, &commands);
        if self.hand {
            self.apply(sw, None, effect);
            return text("");
        }
        text(out)
    }

    /// `nv config …`.
    fn config(&mut self, sw: &mut CumulusSwitch, rest: &[&str], effect: &mut LabEffect) -> Reply {
        match rest {
            ["show", opts @ ..] => show_config(sw, opts),
            ["diff"] => text(self.diff(sw)),
            ["detach"] => {
                self.pending = None;
                text("")
            }
            ["save"] => {
                sw.startup = sw.applied.clone();
                effect.saved = true;
                text("saved [rev_id: applied]\n")
            }
            ["history"] => text(history(sw)),
            ["apply", args @ ..] => self.apply_words(sw, args, effect),
            _ => text(Unconfirmed::Unknown.with(&format!("config {}", rest.join(" ")))),
        }
    }

    /// `nv config apply [REV] [--confirm [T]] [--confirm-yes|--confirm-no|--confirm-status]
    /// [-y|--assume-yes] [-m TEXT]`.
    fn apply_words(
        &mut self,
        sw: &mut CumulusSwitch,
        args: &[&str],
        effect: &mut LabEffect,
    ) -> Reply {
        let mut window = None;
        let mut action = None;
        let mut rev = None;
        let mut i = 0;
        while let Some(w) = args.get(i) {
            match *w {
                "--confirm" => match args.get(i + 1).and_then(|t| duration(t)) {
                    Some(d) => {
                        window = Some(d);
                        i += 1;
                    }
                    None => window = Some(DEFAULT_WINDOW),
                },
                "--confirm-yes" | "--confirm-no" | "--confirm-status" => action = Some(*w),
                "-y" | "--assume-yes" | "--assume-no" => {}
                "-m" | "--message" => i += 1,
                w if !w.starts_with('-') && rev.is_none() => rev = Some(w),
                w => return text(format!("Error: unrecognized option `{w}`\n")),
            }
            i += 1;
        }
        match action {
            Some("--confirm-status") => text(confirm_status(sw)),
            Some(a) => text(confirm(sw, rev, a == "--confirm-yes", effect)),
            None => {
                let own = self.pending.as_ref().map(|(r, _)| r.to_string());
                match rev {
                    Some(r) if Some(r) != own.as_deref() && r != "pending" => {
                        match super::rest::apply_by_cli(sw, r, window, self.user(), effect) {
                            Some(reply) => text(reply),
                            None => text(format!("Error: Unknown revision {r}\n")),
                        }
                    }
                    _ => self.apply(sw, window, effect),
                }
            }
        }
    }

    /// Applies the pending revision, with a confirm window or not.
    fn apply(
        &mut self,
        sw: &mut CumulusSwitch,
        window: Option<Duration>,
        effect: &mut LabEffect,
    ) -> Reply {
        let Some((rev, tree)) = self.pending.take() else {
            return Unconfirmed::NothingPending.reply();
        };
        if !sw.apply_tree((rev, tree), window, self.user(), "CLI") {
            return Unconfirmed::NothingPending.reply();
        }
        effect.changed = true;
        text(format!("applied [rev_id: {rev}]\n"))
    }

    /// `nv config diff`: what applying the pending revision would unset and set.
    fn diff(&self, sw: &CumulusSwitch) -> String {
        let Some((_, pending)) = &self.pending else {
            return String::new();
        };
        let (mut sets, mut unsets) = (Tree::new(), Tree::new());
        for c in tree::diff(&sw.applied, pending) {
            let path: Vec<&str> = c.path.iter().map(String::as_str).collect();
            match (c.unset, &c.value) {
                (true, _) => tree::set(&mut unsets, &path, Node::Map(Tree::new())),
                (false, Some(v)) => tree::set(&mut sets, &path, Node::Leaf(tree::word(v))),
                (false, None) => tree::set(&mut sets, &path, Node::Map(Tree::new())),
            }
        }
        let doc = |t: Tree| tree::render_yaml(None, &t);
        let mut out = String::new();
        if !unsets.is_empty() {
            out.push_str(&doc(unsets).replacen("- set:", "- unset:", 1));
        }
        if !sets.is_empty() {
            out.push_str(&doc(sets));
        }
        out
    }
}

/// `600s`, `10m`, `1h`, `600` (seconds).
fn duration(t: &str) -> Option<Duration> {
    let (n, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, "s"),
    };
    let n: u64 = n.parse().ok()?;
    let secs = match unit {
        "s" => n,
        "m" => n.checked_mul(60)?,
        "h" => n.checked_mul(3600)?,
        _ => return None,
    };
    Some(Duration::from_secs(secs))
}

/// `--confirm-yes` (`yes`) or `--confirm-no` of revision `rev` (the one waiting when none).
pub(super) fn confirm(
    sw: &mut CumulusSwitch,
    rev: Option<&str>,
    yes: bool,
    effect: &mut LabEffect,
) -> String {
    let waiting = sw.confirm.as_ref().map(|c| c.rev);
    let named = rev.map(|r| r.parse::<u64>().ok());
    let Some(w) = waiting.filter(|w| named.is_none_or(|n| n == Some(*w))) else {
        return Unconfirmed::NotWaiting.with(rev.unwrap_or("pending"));
    };
    let Some(c) = sw.confirm.take() else {
        return Unconfirmed::NotWaiting.with(&w.to_string());
    };
    if yes {
        return Unconfirmed::Confirmed.with(&w.to_string());
    }
    sw.applied = c.rollback;
    effect.changed = true;
    Unconfirmed::RolledBack.with(&w.to_string())
}

fn confirm_status(sw: &CumulusSwitch) -> String {
    match sw.confirm_left() {
        Some((rev, left)) => format!(
            "Revision {rev}: waiting for confirmation, {}s left\n",
            left.as_secs()
        ),
        None => Unconfirmed::NoConfirm.text().to_string(),
    }
}

/// `nv config show [-o yaml|commands] [--color on|off]`.
fn show_config(sw: &CumulusSwitch, opts: &[&str]) -> Reply {
    let mut format = "yaml";
    let mut i = 0;
    while let Some(w) = opts.get(i) {
        match (*w, opts.get(i + 1).copied()) {
            ("-o" | "--output", Some(f @ ("yaml" | "commands" | "json" | "auto"))) => format = f,
            ("--color", Some("on" | "off" | "auto")) => {}
            _ => {
                return text(Unconfirmed::Unknown.with(&format!("config show {}", opts.join(" "))));
            }
        }
        i += 2;
    }
    match format {
        "commands" => text(
            tree::commands(&sw.applied)
                .iter()
                .map(|c| c.line() + "\n")
                .collect::<String>(),
        ),
        "json" => text(serde_json::to_string_pretty(&sw.applied).unwrap_or_default() + "\n"),
        _ => text(tree::render_yaml(Some(&sw.header()), &sw.applied)),
    }
}

/// `nv config history`: the applied revisions, newest first.
fn history(sw: &CumulusSwitch) -> String {
    let mut out = String::new();
    for a in sw.history.iter().rev() {
        let controls = match a.confirm {
            Some(s) => format!("\n      confirm: {s}"),
            None => " {}".to_string(),
        };
        out.push_str(&format!(
            "- apply-meta:\n    method: {}\n    reason: Config update\n    rev_id: {}\n    state_controls:{controls}\n    user: {}\n  date: '{}'\n  message: Config update by {} via {}\n",
            a.method,
            a.rev,
            a.user,
            stamp(a.at),
            a.user,
            a.method
        ));
    }
    out
}

/// `2026-11-29T13:15:02+00:00`.
pub fn stamp(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = crate::types::utc_at(t);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}+00:00")
}

/// `who`: `user  pts/N  date time (host)`, a login a line.
fn who(logins: &BTreeMap<u64, Login>) -> String {
    logins
        .iter()
        .map(|(id, l)| {
            let (y, mo, d, h, mi, _) = crate::types::utc_at(l.since);
            format!(
                "{:<8} pts/{id:<8} {y:04}-{mo:02}-{d:02} {h:02}:{mi:02} ({})\n",
                l.user, l.host
            )
        })
        .collect()
}

fn own(sw: &mut dyn LabSwitch) -> Option<&mut CumulusSwitch> {
    sw.as_any_mut().downcast_mut::<CumulusSwitch>()
}

impl LabSession for CumulusSession {
    fn prompt(&self, sw: &dyn LabSwitch) -> String {
        format!("{}@{}:mgmt:~$ ", self.user(), sw.hostname())
    }

    fn paging_now(&self) -> bool {
        false
    }

    fn key(&mut self, _key: u8) -> Reply {
        Reply::default()
    }

    fn set_paging(&mut self, _on: bool) {}

    fn reads_network(&self, line: &str) -> bool {
        line.trim_start().starts_with("nv show")
    }

    fn input(
        &mut self,
        sw: &mut dyn LabSwitch,
        line: &str,
        world: Option<&World>,
        logins: &BTreeMap<u64, Login>,
    ) -> (Reply, LabEffect) {
        let Some(sw) = own(sw) else {
            return (Reply::default(), LabEffect::default());
        };
        if let Some(l) = logins.get(&self.id) {
            self.user = Some(l.user.clone());
        }
        let mut effect = LabEffect {
            changed: sw.settle(),
            saved: false,
        };
        let reply = self.run(sw, line, world, logins, &mut effect);
        (reply, effect)
    }

    fn help(&self, _sw: &dyn LabSwitch, _typed: &str) -> String {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &mut CumulusSession, sw: &mut CumulusSwitch, line: &str) -> String {
        let mut effect = LabEffect::default();
        sw.settle();
        s.run(sw, line, None, &BTreeMap::new(), &mut effect).output
    }

    fn start() -> (CumulusSession, CumulusSwitch) {
        let s = CumulusSession::new(LabStart {
            id: 1,
            paging: false,
            configuring: false,
        });
        (s, CumulusSwitch::factory("leaf01"))
    }

    #[test]
    fn a_revision_is_created_applied_confirmed_and_saved() {
        let (mut s, mut sw) = start();
        assert_eq!(
            run(&mut s, &mut sw, "nv set interface swp1 link mtu 9216"),
            "created [rev_id: 1]\n"
        );
        assert_eq!(run(&mut s, &mut sw, "nv set interface swp1 type swp"), "");
        assert!(run(&mut s, &mut sw, "nv config diff").starts_with("- set:\n"));
        let applied = run(
            &mut s,
            &mut sw,
            "nv config apply --confirm 600s --assume-yes",
        );
        assert_eq!(applied, "applied [rev_id: 1]\n");
        let confirm = crate::cumulus::dialect::confirm(&applied).unwrap();
        assert!(!run(&mut s, &mut sw, &confirm).starts_with("Error"));
        assert!(sw.confirm.is_none());
        assert_eq!(
            run(&mut s, &mut sw, "nv config save"),
            "saved [rev_id: applied]\n"
        );
        assert_eq!(sw.startup, sw.applied);
        assert_eq!(
            run(&mut s, &mut sw, "nv config apply -y"),
            Unconfirmed::NothingPending.text()
        );
        assert!(run(&mut s, &mut sw, "nv bogus").starts_with("Invalid Command"));
        assert!(run(&mut s, &mut sw, "ifconfig").starts_with("-bash: ifconfig"));
    }

    #[test]
    fn an_unconfirmed_apply_rolls_back_when_its_window_runs_out() {
        let (mut s, mut sw) = start();
        let before = sw.applied.clone();
        run(&mut s, &mut sw, "nv set interface swp1 link mtu 9216");
        run(&mut s, &mut sw, "nv config apply --confirm 1s -y");
        run(&mut s, &mut sw, "nv set interface swp2 link mtu 9216");
        run(&mut s, &mut sw, "nv config apply --confirm 1s -y");
        // The second apply keeps the first one's rollback target.
        assert_eq!(sw.confirm.as_ref().map(|c| &c.rollback), Some(&before));
        assert_ne!(*sw.standing(), before);
        std::thread::sleep(Duration::from_millis(1100));
        assert_eq!(*sw.standing(), before);
        assert!(run(&mut s, &mut sw, "nv config apply 2 --confirm-yes").starts_with("Error"));
        assert_eq!(sw.applied, before);
    }

    #[test]
    fn confirm_no_rolls_back_at_once_and_detach_drops_the_pending() {
        let (mut s, mut sw) = start();
        let before = sw.applied.clone();
        run(&mut s, &mut sw, "nv set interface swp1 link mtu 9216");
        run(&mut s, &mut sw, "nv config apply --confirm 600s -y");
        assert!(run(&mut s, &mut sw, "nv config apply --confirm-status").contains("waiting"));
        run(&mut s, &mut sw, "nv config apply 1 --confirm-no");
        assert_eq!(sw.applied, before);
        run(&mut s, &mut sw, "nv set interface swp1 link mtu 9216");
        run(&mut s, &mut sw, "nv config detach");
        assert_eq!(
            run(&mut s, &mut sw, "nv config apply -y"),
            Unconfirmed::NothingPending.text()
        );
        assert_eq!(sw.applied, before);
    }
}
