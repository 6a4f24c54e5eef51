//! A line typed in an OS10 configuration mode, read with the OS10 grammar
//! ([`crate::os10::command`]) and applied to a configuration: the configuration is printed as
//! `show running-configuration` prints it, the line put into its block there (replacing the
//! line that sets the same thing, or removing it for `no …`), and the text read back with
//! [`crate::os10::parse`]. The state is always an [`os10::Config`]: what the lab prints is
//! what the renderer prints, and a change the reader refuses is refused whole.

use std::mem::discriminant;

use crate::os10::command::{self, Bad, Top};
use crate::os10::{self, Config, Iface, PortGroupId, QosKind, TrustKind};

/// A configuration mode below `(config)`: the block its lines go into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ctx {
    Interface(Iface),
    Wred,
    ClassMap(QosKind),
    TrustMap(TrustKind),
    QosMap,
    PolicyMap(QosKind),
    /// A `class` block inside a policy-map of this kind.
    PolicyClass(QosKind),
    SystemQos,
    /// `port-group 1/1/N`.
    PortGroup(PortGroupId),
    Vlt(u8),
    Bgp(u32),
    /// `address-family ipv4 unicast` of the BGP instance.
    BgpAf,
    /// A `neighbor A` block (`template` is `false`) or a `template NAME` block.
    Peer {
        template: bool,
    },
    /// `address-family ipv4 unicast` of a neighbor or template.
    PeerAf,
}

/// What a typed line is in its mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Enters (creating if new) the block with this header line.
    Open(Ctx, String),
    /// A setting: replaces the block's lines of the same key.
    Set(String),
}

/// Why a line is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not a command of this mode (nor of the top level).
    Unknown,
    /// A known command whose value is wrong: where, and what was expected.
    Bad(Bad),
    /// A known command cut short.
    Incomplete,
    /// The change does not read back (e.g. a second block of a kind there is one of).
    Rejected(String),
}

impl From<Bad> for Refused {
    fn from(b: Bad) -> Refused {
        Refused::Bad(b)
    }
}

/// Lines of a neighbor's or template's address family the lab takes as typed (the model keeps
/// them verbatim): captured in the AzureStack TOR's running configuration, 10.5.3.2.
const PEER_AF_LINES: &[&str] = &["activate", "sender-side-loop-detection", "next-hop-self"];

/// The key of a setting in `ctx`: two lines of one key set the same thing (the later wins).
/// `None`: not a line of this mode.
fn key(ctx: Option<&Ctx>, line: &str) -> Result<Option<String>, Bad> {
    let d = |x: &dyn std::fmt::Debug| format!("{x:?}");
    Ok(match ctx {
        None => match command::top(line)? {
            Some(Top::Hostname(_)) => Some("hostname".into()),
            Some(Top::Dcbx) => Some("dcbx".into()),
            Some(Top::Breakout(e, _)) => Some(format!("breakout {e}")),
            Some(Top::BfdEnable) => Some("bfd enable".into()),
            Some(Top::BfdInterval(_)) => Some("bfd interval".into()),
            _ => None,
        },
        Some(Ctx::Interface(_)) => command::iface(line)?.map(|c| d(&discriminant(&c))),
        Some(Ctx::Wred) => command::wred(line)?.map(|c| match c {
            command::WredCmd::Color(color, _) => format!("color {}", color.word()),
            command::WredCmd::Ecn => "ecn".into(),
        }),
        Some(Ctx::ClassMap(k)) => command::class_match(*k, line)?.map(|_| "match".into()),
        Some(Ctx::TrustMap(k)) => command::trust_entry(*k, line)?.map(|(g, _)| format!("{g}")),
        Some(Ctx::QosMap) => command::qos_map_entry(line)?.map(|(q, _)| format!("{q}")),
        Some(Ctx::PolicyMap(_)) => None,
        Some(Ctx::PolicyClass(k)) => command::class_line(*k, line)?.map(|c| d(&discriminant(&c))),
        Some(Ctx::SystemQos) => command::system_qos(line)?.map(|c| d(&discriminant(&c))),
        Some(Ctx::PortGroup(_)) => command::port_group_mode(line)?.map(|_| "mode".into()),
        Some(Ctx::Vlt(_)) => command::vlt(line)?.map(|c| d(&discriminant(&c))),
        Some(Ctx::Bgp(_)) => match command::bgp(line)? {
            Some(
                command::BgpCmd::Ipv4Unicast
                | command::BgpCmd::Template(_)
                | command::BgpCmd::Neighbor(_),
            )
            | None => None,
            Some(c) => Some(d(&discriminant(&c))),
        },
        Some(Ctx::BgpAf) => command::af_network(line)?.map(|n| n.to_string()),
        Some(Ctx::Peer { .. }) => match command::peer(line)? {
            Some(command::PeerCmd::Ipv4Unicast) | None => None,
            Some(c) => Some(d(&discriminant(&c))),
        },
        Some(Ctx::PeerAf) => PEER_AF_LINES.contains(&line).then(|| line.to_string()),
    })
}

/// The words of a line joined by one space.
fn tidy(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Reads `line` typed in the mode `ctx` (`None`: `(config)`). A value missing at the end of
/// the line is a command cut short.
pub fn read(ctx: Option<&Ctx>, line: &str) -> Result<Line, Refused> {
    let line = tidy(line);
    read_tidy(ctx, &line).map_err(|e| match e {
        Refused::Bad(b) if b.column >= line.len() => Refused::Incomplete,
        e => e,
    })
}

fn read_tidy(ctx: Option<&Ctx>, line: &str) -> Result<Line, Refused> {
    let mut line = line.to_string();
    // `interface port-channel 10`, `interface vlan 7`: OS10 takes the number as its own word
    // too (grantcurell's 10.5.0.2 session types `interface port-channel 1`).
    if ctx.is_none() {
        let w: Vec<&str> = line.split(' ').collect();
        if let ["interface", kind, n] = w.as_slice()
            && matches!(*kind, "port-channel" | "vlan" | "loopback")
            && n.bytes().all(|b| b.is_ascii_digit())
        {
            line = format!("interface {kind}{n}");
        }
    }
    let open = match ctx {
        None => match command::top(&line)? {
            Some(Top::Interface(i)) => Some((Ctx::Interface(i), format!("interface {i}"))),
            Some(Top::Wred(_)) => Some((Ctx::Wred, line.clone())),
            Some(Top::ClassMap(k, _)) => Some((Ctx::ClassMap(k), line.clone())),
            Some(Top::TrustMap(k, _)) => Some((Ctx::TrustMap(k), line.clone())),
            Some(Top::QosMap(_)) => Some((Ctx::QosMap, line.clone())),
            Some(Top::PolicyMap(k, _)) => Some((Ctx::PolicyMap(k), line.clone())),
            Some(Top::SystemQos) => Some((Ctx::SystemQos, line.clone())),
            Some(Top::PortGroup(g)) => Some((Ctx::PortGroup(g), format!("port-group {g}"))),
            Some(Top::Vlt(n)) => Some((Ctx::Vlt(n), line.clone())),
            Some(Top::Bgp(asn)) => Some((Ctx::Bgp(asn), line.clone())),
            // A banner's text is read up to its delimiter: not taken at the lab's prompt.
            Some(Top::Banner(_)) => return Err(Refused::Unknown),
            _ => None,
        },
        Some(Ctx::PolicyMap(k)) => command::policy_class(&line)?
            .map(|name| (Ctx::PolicyClass(*k), format!("class {name}"))),
        Some(Ctx::Bgp(_)) => match command::bgp(&line)? {
            Some(command::BgpCmd::Ipv4Unicast) => Some((Ctx::BgpAf, line.clone())),
            Some(command::BgpCmd::Template(_)) => {
                Some((Ctx::Peer { template: true }, line.clone()))
            }
            Some(command::BgpCmd::Neighbor(_)) => {
                Some((Ctx::Peer { template: false }, line.clone()))
            }
            _ => None,
        },
        Some(Ctx::Peer { .. }) => match command::peer(&line)? {
            Some(command::PeerCmd::Ipv4Unicast) => Some((Ctx::PeerAf, line.clone())),
            _ => None,
        },
        _ => None,
    };
    if let Some((c, header)) = open {
        return Ok(Line::Open(c, header));
    }
    match key(ctx, &line)? {
        Some(_) => Ok(Line::Set(line)),
        None => Err(incomplete(ctx, &line)),
    }
}

/// A line that is not a command of its mode: cut short when it is the beginning of one (a
/// keyword alone: `router bgp`, `mtu`), else unknown.
fn incomplete(ctx: Option<&Ctx>, line: &str) -> Refused {
    const STEMS: &[&str] = &[
        "router bgp",
        "interface",
        "mtu",
        "description",
        "hostname",
        "vlt-domain",
        "channel-group",
        "policy-map type queuing",
        "policy-map type network-qos",
        "class-map type queuing",
        "class-map type network-qos",
    ];
    let _ = ctx;
    if STEMS.contains(&line) {
        Refused::Incomplete
    } else {
        Refused::Unknown
    }
}

/// A line's indentation: one space per level.
fn depth(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// The range of lines of the block at `path` (headers, outermost first) in `lines`: the
/// header's index (`None` for the whole file) and the end of its children.
fn find(lines: &[String], path: &[String]) -> Option<(Option<usize>, usize)> {
    let (mut start, mut end) = (0, lines.len());
    let mut header = None;
    for (d, h) in path.iter().enumerate() {
        let at = (start..end).find(|&i| depth(&lines[i]) == d && lines[i].trim() == h)?;
        header = Some(at);
        start = at + 1;
        end = (start..end)
            .find(|&i| depth(&lines[i]) <= d && !lines[i].trim().is_empty())
            .unwrap_or(end);
    }
    Some((header, end))
}

/// What a typed line does to the printed configuration.
pub enum Change<'a> {
    /// Opens (creating if new) the block `path` + `header`.
    Open(&'a str),
    /// Sets a line in the block at `path`.
    Set(&'a str),
    /// `no` of a setting in the block at `path` (the line without its `no`).
    Unset(&'a str),
    /// `no` of a block inside the block at `path` (its header).
    Remove(&'a str),
}

/// Applies `change` at `path` (headers of the blocks, outermost first; `ctxs` their modes) to
/// `config`; the new configuration, or why the result does not read.
pub fn apply(
    config: &Config,
    ctxs: &[Ctx],
    path: &[String],
    change: Change<'_>,
) -> Result<Config, Refused> {
    let renderer = os10::Renderer::shared().map_err(Refused::Rejected)?;
    let text = renderer.render(config).map_err(Refused::Rejected)?;
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let (header, end) = find(&lines, path)
        .ok_or_else(|| Refused::Rejected(format!("the block `{}` is gone", path.join(" / "))))?;
    let d = path.len();
    let start = header.map_or(0, |h| h + 1);
    let ctx = ctxs.last();
    let indent = " ".repeat(d);
    // The block's own lines (not those of its sub-blocks) whose key is `k`.
    let same = |lines: &[String], k: &str| -> Vec<usize> {
        (start..end.min(lines.len()))
            .filter(|&i| depth(&lines[i]) == d)
            .filter(|&i| key(ctx, lines[i].trim()).ok().flatten().as_deref() == Some(k))
            .collect()
    };
    match change {
        Change::Open(h) => {
            if find(&lines, &[path, &[h.to_string()]].concat()).is_none() {
                if d == 0 {
                    lines.push("!".into());
                }
                lines.insert(end.min(lines.len()), format!("{indent}{h}"));
            }
        }
        Change::Set(line) => {
            let k = key(ctx, line)?.ok_or(Refused::Unknown)?;
            let old = same(&lines, &k);
            let at = old.first().copied().unwrap_or(end);
            for i in old.iter().rev() {
                lines.remove(*i);
            }
            lines.insert(at.min(lines.len()), format!("{indent}{line}"));
        }
        Change::Unset(line) => {
            let k = key(ctx, line)?.ok_or(Refused::Unknown)?;
            for i in same(&lines, &k).into_iter().rev() {
                lines.remove(i);
            }
        }
        Change::Remove(h) => {
            let full = [path, &[h.to_string()]].concat();
            let Some((Some(at), stop)) = find(&lines, &full) else {
                return Ok(config.clone());
            };
            // The `!` that closed the block goes with it.
            let stop = if lines.get(stop).is_some_and(|l| l.trim() == "!") {
                stop + 1
            } else {
                stop
            };
            lines.drain(at..stop);
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    let mut new = os10::parse(&out).map_err(|e| Refused::Rejected(e.expected))?;
    placed(config, &mut new);
    Ok(new)
}

/// OS10 prints its configuration in its own order, not in the order it was typed: an item
/// `new` has and `old` had not leaves the layout (with the `!` line added before it), so the
/// renderer places it by [`os10::ORDER`], as it places what a config gains.
fn placed(old: &Config, new: &mut Config) {
    let had: std::collections::BTreeSet<&os10::Key> = old
        .layout
        .entries
        .iter()
        .filter_map(|e| match e {
            os10::Entry::Item(k) => Some(k),
            os10::Entry::Text(_) => None,
        })
        .collect();
    let mut kept: Vec<os10::Entry> = Vec::with_capacity(new.layout.entries.len());
    for e in std::mem::take(&mut new.layout.entries) {
        match &e {
            os10::Entry::Item(k) if !had.contains(k) => {
                // The `!` before it (the last of a run of them) goes with it.
                if let Some(os10::Entry::Text(t)) = kept.last_mut()
                    && os10::is_bangs(t)
                {
                    match t.rfind('\n') {
                        Some(i) => t.truncate(i),
                        None => drop(kept.pop()),
                    }
                }
            }
            _ => kept.push(e),
        }
    }
    new.layout.entries = kept;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Config {
        os10::parse(
            "! Version 10.5.3.2\n!\nhostname leaf01\n!\ninterface ethernet1/1/1\n no shutdown\n!\n",
        )
        .unwrap()
    }

    #[test]
    fn a_setting_replaces_the_line_of_its_key() {
        let c = base();
        let path = vec!["interface ethernet1/1/1".to_string()];
        let ctx = vec![Ctx::Interface(Iface::Ethernet(os10::Eth::new(1)))];
        let c = apply(&c, &ctx, &path, Change::Set("mtu 9216")).unwrap();
        let c = apply(&c, &ctx, &path, Change::Set("mtu 1500")).unwrap();
        let c = apply(&c, &ctx, &path, Change::Set("shutdown")).unwrap();
        let i = &c.interfaces[&Iface::Ethernet(os10::Eth::new(1))];
        assert_eq!((i.mtu, i.shutdown), (Some(1500), Some(true)));
        let c = apply(&c, &ctx, &path, Change::Unset("mtu 1500")).unwrap();
        assert_eq!(c.interfaces[&Iface::Ethernet(os10::Eth::new(1))].mtu, None);
    }

    /// OS10 prints a block typed last in its own place (`os10::ORDER`: class-maps before
    /// interfaces), as the captures print them, not where it was typed.
    #[test]
    fn an_added_block_is_printed_in_os10_order() {
        let c = apply(
            &base(),
            &[],
            &[],
            Change::Open("class-map type network-qos q3"),
        )
        .unwrap();
        let text = os10::Renderer::embedded().unwrap().render(&c).unwrap();
        let at = |l: &str| text.find(l).unwrap_or_else(|| panic!("{l}: {text}"));
        assert!(
            at("class-map type network-qos q3") < at("interface ethernet1/1/1"),
            "{text}"
        );
        assert_eq!(text.matches("!\n!\n").count(), 0, "{text}");
    }

    #[test]
    fn lines_read_in_their_mode() {
        assert_eq!(
            read(None, "interface port-channel 10"),
            Ok(Line::Open(
                Ctx::Interface(Iface::PortChannel(10)),
                "interface port-channel10".into()
            ))
        );
        assert_eq!(read(None, "router bgp"), Err(Refused::Incomplete));
        assert_eq!(read(None, "frobnicate"), Err(Refused::Unknown));
        let eth = Ctx::Interface(Iface::Ethernet(os10::Eth::new(1)));
        assert!(matches!(
            read(Some(&eth), "mtu 99999"),
            Err(Refused::Bad(_))
        ));
        assert_eq!(
            read(Some(&eth), "mtu  9216"),
            Ok(Line::Set("mtu 9216".into()))
        );
    }
}
