//! The configuration commands: a line typed at `(config)` or inside a sub-mode, applied
//! to the running configuration with the model's semantics or refused, state untouched;
//! the lines the model does not know but switches take, kept verbatim; saving and deleting
//! configuration files.

use super::keywords::{
    BGP_ATTRIBUTES, MLAG_ATTRIBUTES, POOL_ATTRIBUTES, UNMODELED_ATTRIBUTES, leaves,
    leaves_interface,
};
use super::{Mode, Reply, Session, Switch, Unconfirmed};
use crate::onyx::Protocol;
use crate::onyx::command::{self, Command, Iface, IfaceCmd, IfaceRange};
use crate::onyx::lab::cli::Errors as _;
use crate::types::cli_text;

impl Session {
    /// A configuration command: flat from `(config)`, or the rest of a line inside a
    /// sub-mode. Applied with the model's semantics; refused, state untouched, otherwise.
    pub(super) fn configure(&mut self, sw: &mut Switch, words: &[&str]) -> Reply {
        let typed = words.join(" ");
        let mut full = match &self.mode {
            Mode::Interface(r) if !leaves_interface(words) => format!("interface {r} {typed}"),
            Mode::Vlan(v) if words.first() == Some(&"name") => format!("vlan {v} {typed}"),
            Mode::Pool(name) if !leaves(words, POOL_ATTRIBUTES) => {
                format!("traffic pool {name} {typed}")
            }
            Mode::Bgp(asn) if !leaves(words, BGP_ATTRIBUTES) => {
                format!("router bgp {asn} vrf default {typed}")
            }
            Mode::Mlag if !leaves(words, MLAG_ATTRIBUTES) => match words {
                ["no", rest @ ..] => format!("no mlag {}", rest.join(" ")),
                _ => format!("mlag {typed}"),
            },
            Mode::Unmodeled(line) if !leaves(words, UNMODELED_ATTRIBUTES) => match words {
                ["no", rest @ ..] => format!("no {line} {}", rest.join(" ")),
                _ => format!("{line} {typed}"),
            },
            _ => typed.clone(),
        };
        // A line that is no command of the sub-mode but one of `(config)` leaves the sub-mode
        // and runs there, as a pasted running-config needs (`interface loopback 0`, then
        // `ip load-sharing …`, then `dcb priority-flow-control enable force`). UNCONFIRMED:
        // the fall-through of IOS-like CLIs; no capture shows Onyx doing it or refusing.
        if full != typed
            && !matches!(command::parse(&full), Ok(Some(_)))
            && matches!(command::parse(&typed), Ok(Some(_)))
        {
            self.mode = Mode::Config;
            full = typed;
        }
        match command::parse(&full) {
            Ok(Some(cmd)) => {
                if let Some(refused) = refusal(sw, &cmd) {
                    return refused;
                }
                let enter = match &cmd {
                    Command::Interface(r, IfaceCmd::Create) => Some(Mode::Interface(*r)),
                    Command::VlanCreate(spans) if spans.len() == 1 && spans[0].0 == spans[0].1 => {
                        Some(Mode::Vlan(spans[0].0))
                    }
                    Command::Bgp(asn, command::BgpCmd::Create) => Some(Mode::Bgp(*asn)),
                    _ => None,
                };
                sw.running.apply(&cmd);
                sw.revision += 1;
                if let Some(m) = enter {
                    self.mode = m;
                }
                Reply::default()
            }
            // Not a command the model knows: kept verbatim when it is configuration switches
            // take ([`crate::lab::unmodeled`]), else refused at the first word Onyx would not
            // accept (after an interface's name, the attribute).
            Ok(None) => {
                if let Some(reply) = self.unmodeled(sw, &full) {
                    return reply;
                }
                let full: Vec<&str> = full.split(' ').collect();
                let named = full.len() > 3
                    && matches!(
                        command::parse(&full[..3].join(" ")),
                        Ok(Some(Command::Interface(_, IfaceCmd::Create)))
                    );
                let word = if named { full[3] } else { full[0] };
                Reply::unrecognized(word)
            }
            // A known command with a bad argument: Onyx's texts for these were not observed;
            // the word at fault is named in the one confirmed form.
            Err(m) => {
                let at = full.get(m.column..).unwrap_or("");
                let word = at.split(' ').next().filter(|w| !w.is_empty()).unwrap_or(at);
                Reply::unrecognized(word)
            }
        }
    }
    /// `traffic pool NAME`: creates the pool (lossy, Onyx's default type) and enters its
    /// sub-mode.
    pub(super) fn enter_pool(&mut self, sw: &mut Switch, name: &str) -> Reply {
        if !sw.running.pools.contains_key(name) {
            let reply = self.configure(sw, &["traffic", "pool", name, "type", "lossy"]);
            if !reply.output.is_empty() {
                return reply;
            }
        }
        self.mode = Mode::Pool(name.to_string());
        Reply::default()
    }

    /// `mlag`: its sub-mode, once `protocol mlag` makes the word known.
    pub(super) fn enter_mlag(&mut self, sw: &Switch) -> Reply {
        if !sw.running.protocols.contains(&Protocol::Mlag) {
            return Reply::unrecognized("mlag");
        }
        self.mode = Mode::Mlag;
        Reply::default()
    }

    /// A line the model does not know, if it is of a family switches take: kept verbatim
    /// (`None`: of no family). An interface's line must name an interface the switch has;
    /// `interface vlan N magp M` alone enters that object's sub-mode.
    fn unmodeled(&mut self, sw: &mut Switch, full: &str) -> Option<Reply> {
        use crate::lab::unmodeled::{INTERFACE, TOP, family, keep};
        let words = cli_text::words(full);
        let body = match words.first() {
            Some(&"no") => &words[1..],
            _ => &words[..],
        };
        // `interface KIND ID no …` takes back an interface's setting (`interface ethernet 1/25
        // no lldp receive`, as Ansible's onyx_lldp_interface sends it).
        let named = match body {
            ["interface", kind, id, "no", rest @ ..] | ["interface", kind, id, rest @ ..]
                if !rest.is_empty() =>
            {
                match command::parse(&format!("interface {kind} {id}")) {
                    Ok(Some(Command::Interface(r, IfaceCmd::Create))) => Some((r, rest)),
                    _ => None,
                }
            }
            _ => None,
        };
        let found = match named {
            Some((_, rest)) => family(INTERFACE, rest),
            None => family(TOP, body),
        };
        let f = match found {
            Ok(Some(f)) => f,
            Ok(None) => return None,
            Err(word) => return Some(Reply::unrecognized(word)),
        };
        let mut entered = None;
        if let Some((r, rest)) = named {
            if let Some(refused) = missing(sw, r) {
                return Some(refused);
            }
            // MAGP is a VLAN interface's (Onyx manual, MAGP).
            if f.words == ["magp"] {
                if !matches!(r.first, Iface::Vlan(_)) {
                    return Some(Reply::unrecognized("magp"));
                }
                if rest.len() == 2 && body.len() == words.len() {
                    entered = Some(Mode::Unmodeled(full.to_string()));
                }
            }
        }
        let hashed = hashed_password(&words);
        keep(&mut sw.running, f, hashed.as_deref().unwrap_or(full));
        sw.revision += 1;
        if let Some(m) = entered {
            self.mode = m;
        }
        Some(Reply::default())
    }
}

/// `username NAME password [0] PLAIN` as the switch keeps it: the password hashed, `password
/// 7 HASH` (Onyx prints a SHA-512 crypt there, `$6$…`: CSM, Mellon). The lab's hash is
/// [`Unconfirmed::PasswordHash`]'s; a typed `password 7 HASH` is kept as typed. `None`: not
/// such a line.
fn hashed_password(words: &[&str]) -> Option<String> {
    use sha1::Digest as _;
    let (name, plain) = match words {
        ["username", name, "password", "0", plain] => (name, plain),
        // `password 7` is followed by its hash, not a password.
        ["username", name, "password", plain] if !matches!(*plain, "0" | "7") => (name, plain),
        _ => return None,
    };
    let digest = sha1::Sha1::digest(format!("{name}:{plain}").as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    let hash = Unconfirmed::PasswordHash.text().replace("{}", &hex);
    Some(format!("username {name} password 7 {hash}"))
}

/// Why the switch refuses the interfaces of a range: an Ethernet port its model does not
/// have, or a subport of a port not split that way (whatever the model).
fn missing(sw: &Switch, r: IfaceRange) -> Option<Reply> {
    r.members().find_map(|i| {
        let Iface::Ethernet(p) = i else { return None };
        let parent = p.parent();
        let on_model = sw.model.is_none_or(|m| m.has_port(parent));
        let split = sw
            .running
            .interfaces
            .get(&Iface::Ethernet(parent))
            .and_then(|e| e.split);
        let exists = match p.sub {
            None => on_model,
            Some(s) => on_model && split.is_some_and(|w| (1..=w.ways()).contains(&s)),
        };
        (!exists).then(|| Unconfirmed::NoSuchInterface.reply(&format!("ethernet {p}")))
    })
}

/// Why the switch refuses a command the grammar reads, state untouched; `None` when it takes
/// it: a command its release lacks (`% Unrecognized command "roce".` before 3.8.2000, the
/// gates of [`Release`]), an interface it does not have, a value out of range.
fn refusal(sw: &Switch, cmd: &Command) -> Option<Reply> {
    if let Some((since, word)) = cmd.since()
        && sw.release < since
    {
        return Some(Reply::unrecognized(word));
    }
    let c = &sw.running;
    match cmd {
        Command::Interface(r, _) | Command::NoInterface(r) => {
            if let Some(refused) = missing(sw, *r) {
                return Some(refused);
            }
        }
        _ => {}
    }
    // ECN thresholds out of the range the switch takes, or the minimum above the maximum:
    // refused naming the value at fault (the one confirmed error form).
    if let Command::Interface(_, IfaceCmd::Ecn(_, e)) = cmd
        && let Err(value) = e.thresholds.check()
    {
        return Some(Reply::unrecognized(&value));
    }
    // `protocol bgp` "unhides BGP related commands" (Onyx manual, BGP Commands); `protocol
    // mlag` is taken to do the same for MLAG's (by analogy, UNCONFIRMED): until then the
    // words are unknown.
    let bgp = c.protocols.contains(&Protocol::Bgp);
    let mlag = c.protocols.contains(&Protocol::Mlag);
    match cmd {
        Command::Bgp(..) | Command::NoBgp(_) if !bgp => Some(Reply::unrecognized("router")),
        Command::Bgp(asn, _) => match &c.bgp {
            Some(b) if b.asn != *asn => Some(Unconfirmed::BgpOtherAs.reply(&b.asn.to_string())),
            _ => None,
        },
        Command::MlagShutdown(_) | Command::MlagSystemMac(_) if !mlag => {
            Some(Reply::unrecognized("mlag"))
        }
        Command::MlagVip(_) if !mlag => Some(Reply::unrecognized("mlag-vip")),
        Command::Interface(r, c2) => {
            let word = match c2 {
                IfaceCmd::Ipl(_)
                | IfaceCmd::IplPeer(..)
                | IfaceCmd::NoIpl(_)
                | IfaceCmd::NoIplPeer(_)
                    if !mlag =>
                {
                    return Some(Reply::unrecognized("ipl"));
                }
                IfaceCmd::ChannelGroup(g) if g.mlag && !mlag => {
                    return Some(Reply::unrecognized("mlag-channel-group"));
                }
                IfaceCmd::Address(_) => "address",
                IfaceCmd::SwitchportMode(_)
                | IfaceCmd::AccessVlan(_)
                | IfaceCmd::AllowedVlan(..) => "switchport",
                _ => return None,
            };
            r.members().find_map(|i| {
                let Iface::Ethernet(p) = i else { return None };
                let e = c.interfaces.get(&i);
                if word == "address" && !e.is_some_and(|e| e.routed) {
                    return Some(Unconfirmed::AddressOnSwitchport.reply(&format!("ethernet {p}")));
                }
                // Captured: `% Port 1/4 is part of a port channel` for `switchport mode
                // access` on a member (corpus/onyx/more, quali error file).
                (word == "switchport" && e.is_some_and(|e| e.channel_group.is_some()))
                    .then(|| Reply::error(format!("Port {p} is part of a port channel")))
            })
        }
        _ => None,
    }
}

/// The running configuration saved as the file `name`.
pub(super) fn save(sw: &mut Switch, name: &str) {
    let mut saved = sw.running.clone();
    saved.header.database = name.to_string();
    sw.files.insert(name.to_string(), saved);
    sw.saves += 1;
}

/// `configuration write to NAME [no-switch]`: the running configuration saved as `NAME`,
/// which the switch then boots from (unless `no-switch`).
pub(super) fn write_to(sw: &mut Switch, name: &str, rest: &[&str]) -> Reply {
    match rest {
        [] => {
            save(sw, name);
            sw.active = name.to_string();
            Reply::default()
        }
        ["no-switch"] => {
            let keep = sw.active.clone();
            save(sw, name);
            sw.active = keep;
            Reply::default()
        }
        [other, ..] => Reply::unrecognized(other),
    }
}

/// `configuration delete NAME`: a saved file other than the active one removed.
pub(super) fn delete(sw: &mut Switch, name: &str) -> Reply {
    if name == sw.active {
        Unconfirmed::DeleteActive.reply(name)
    } else if sw.files.remove(name).is_none() {
        Unconfirmed::NoSuchFile.reply(name)
    } else {
        sw.saves += 1;
        Reply::default()
    }
}
