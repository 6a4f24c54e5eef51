//! The BGP sessions a switch writes out (`bgp: { neighbors }`), to peers outside the fabric:
//! each named by the peer's address, or by the switch's port (BGP unnumbered, where its OS
//! peers so). One of `address` and `port` (E127); a port the switch cannot peer over is
//! E128, a port with switchport settings E116, a session written twice E115.

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use super::super::raw::{RawBgp, RawNeighbor, RawRemoteAs, Sp};
use super::super::{Neighbor, PortNeighbor, RemoteAs, Switch};
use super::detection;
use super::target::ports;
use super::{Cx, Pending};
use crate::diag::Diagnostic;
use crate::types::{Invalid, Port, did_you_mean};

/// The words `remote_as` takes besides a number.
const WORDS: [&str; 2] = ["external", "internal"];

/// What E127 asks of an entry.
const ONE: &str = "write one session per entry: `address` (the peer's IPv4 address) or `port` (the switch's port, unnumbered)";

/// A switch's sessions: by the far end's address, and by its own port.
pub(crate) type Sessions = (BTreeMap<Ipv4Addr, Neighbor>, BTreeMap<Port, PortNeighbor>);

/// A switch's BGP neighbors: the sessions over its routed cables (`linked`), with the BFD and
/// timers it chose, and those written in its `bgp`, by address or by port.
pub(crate) fn neighbors(
    cx: &mut Cx,
    p: &Pending,
    bgp: Option<&RawBgp>,
    choice: &detection::Choice,
    mut linked: BTreeMap<Ipv4Addr, Neighbor>,
) -> Sessions {
    let name = p.switch.hostname.as_str();
    for nb in linked.values_mut() {
        nb.bfd = choice.link_bfd();
        nb.timers = choice.timers();
    }
    let mut by_port: BTreeMap<Port, PortNeighbor> = BTreeMap::new();
    for entry in bgp.iter().flat_map(|b| b.neighbors.iter().flatten()) {
        let nb = entry.get();
        match (&nb.address, &nb.port) {
            (Some(addr), None) => {
                let a = super::underlay::ipv4(cx, addr, "neighbor");
                let (Some(a), Some(RemoteAs::Number(asn))) = (a, remote_as(cx, nb, false)) else {
                    continue;
                };
                if linked.contains_key(&a) {
                    cx.error(
                        "E115",
                        format!("neighbor {a} of `{name}` is also the far end of a routed link"),
                        cx.span(addr),
                        "written twice",
                    );
                    continue;
                }
                let (bfd, timers) = detection::neighbor(cx, nb);
                linked.insert(
                    a,
                    Neighbor {
                        asn,
                        link: None,
                        bfd,
                        timers,
                        unnumbered: false,
                    },
                );
            }
            (None, Some(port)) => {
                let asn = remote_as(cx, nb, true);
                let Some(port) = session_port(cx, p, port, &linked, &by_port) else {
                    continue;
                };
                let (bfd, timers) = detection::neighbor(cx, nb);
                if let Some(remote_as) = asn {
                    by_port.insert(
                        port,
                        PortNeighbor {
                            remote_as,
                            bfd,
                            timers,
                        },
                    );
                }
            }
            (Some(a), Some(port)) => cx.push(
                Diagnostic::error(
                    "E127",
                    format!("a BGP neighbor of `{name}` names its peer twice, by `address` and by `port`"),
                )
                .at(cx.span(a), "by address")
                .also(cx.span(port), "and by port")
                .help(ONE),
            ),
            (None, None) => cx.push(
                Diagnostic::error(
                    "E127",
                    format!("a BGP neighbor of `{name}` names no peer: it needs `address` or `port`"),
                )
                .at(cx.span(entry), "neither")
                .help(ONE),
            ),
        }
    }
    (linked, by_port)
}

/// A written neighbor's AS: a number, or (with a `port`) `external` or `internal`; else
/// E020 (a number out of range), E021 (another word) or E127 (a word with an address).
fn remote_as(cx: &mut Cx, nb: &RawNeighbor, by_port: bool) -> Option<RemoteAs> {
    let at = cx.span(&nb.remote_as);
    match nb.remote_as.get() {
        RawRemoteAs::Number(n) => cx
            .check(*n, at, |n| {
                u32::try_from(n)
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("AS number {n} is out of range 1-4294967295"))
            })
            .map(RemoteAs::Number),
        RawRemoteAs::Word(w) => {
            let word = match w.trim().to_ascii_lowercase().as_str() {
                "external" => RemoteAs::External,
                "internal" => RemoteAs::Internal,
                _ => {
                    let mut e = Invalid::new(format!(
                        "`{w}` is no remote AS: write a number, `external` or `internal`"
                    ));
                    if let Some(m) = did_you_mean(w, WORDS) {
                        e.help = Some(format!("did you mean `{m}`?"));
                    }
                    cx.invalid("E021", e, at, "not recognised");
                    return None;
                }
            };
            if !by_port {
                cx.push(
                    Diagnostic::error(
                        "E127",
                        format!("a neighbor named by its address takes an AS number, not `{w}`"),
                    )
                    .at(at, "a word")
                    .help("`external` and `internal` name the AS of a session named by its `port` (unnumbered); write the peer's AS number"),
                );
                return None;
            }
            Some(word)
        }
    }
}

/// The port a session is named by: one usable port of the switch (E025, E128), routed (E116),
/// on an OS that peers unnumbered (E128), carrying no other session (E115).
fn session_port(
    cx: &mut Cx,
    p: &Pending,
    v: &Sp<String>,
    linked: &BTreeMap<Ipv4Addr, Neighbor>,
    by_port: &BTreeMap<Port, PortNeighbor>,
) -> Option<Port> {
    let sw = &p.switch;
    let name = sw.hostname.as_str();
    let at = cx.span(v);
    let os = sw.os();
    if !os.target().rules().unnumbered() {
        cx.push(
            Diagnostic::error(
                "E128",
                format!("`{name}` runs {os}, which peers over no port: BGP unnumbered is not among its sessions"),
            )
            .at(at, format!("a session by port on {os}"))
            .help("name the peer by its IPv4 `address`, and give the port that address's subnet (`address` in its entry)"),
        );
        return None;
    }
    let found = ports(cx, os, v.get(), at)?;
    let [port] = found[..] else {
        cx.error(
            "E128",
            format!(
                "`{}` names {} ports of `{name}`: a neighbor is one session over one port",
                v.get(),
                found.len()
            ),
            at,
            "a range",
        );
        return None;
    };
    let Some(s) = sw.ports.get(&port) else {
        cx.push(
            Diagnostic::error(
                "E128",
                format!("`{name}` has no port {}", sw.port_name(port)),
            )
            .at(at, "no such port")
            .help(no_port_help(sw, port)),
        );
        return None;
    };
    if s.switchport.is_some() || s.vlan.is_some() || s.trunk.is_some() || s.bundle.is_some() {
        cx.push(
            Diagnostic::error(
                "E116",
                format!(
                    "routed port {} of `{name}` also has switchport settings",
                    sw.port_name(port)
                ),
            )
            .at(at, "routed here")
            .help("a port a BGP session is named by is routed: it carries no VLAN, trunk or port-channel; remove them from its entry, profile or `port_defaults`, or name the session by its address"),
        );
        return None;
    }
    if s.unused && s.shutdown {
        cx.push(
            Diagnostic::error(
                "E128",
                format!(
                    "port {} of `{name}` is shut down as unused: its session never comes up",
                    sw.port_name(port)
                ),
            )
            .at(at, "a port no entry names")
            .help(format!(
                "give it an entry (`{}: {{ description: … }}`), or set `unused_ports: keep`",
                sw.port_name(port)
            )),
        );
        return None;
    }
    let cabled = linked
        .values()
        .any(|n| n.link.as_ref().is_some_and(|l| l.1 == port));
    if cabled || by_port.contains_key(&port) {
        let what = if cabled {
            "also a routed link's end, whose session the fabric derives"
        } else {
            "written twice"
        };
        cx.error(
            "E115",
            format!("neighbor {} of `{name}` is {what}", sw.port_name(port)),
            at,
            "written twice",
        );
        return None;
    }
    Some(port)
}

/// Why a port name the OS reads is not one of the switch's usable ports.
fn no_port_help(sw: &Switch, port: Port) -> String {
    let parent = port.parent();
    if sw.splits.contains_key(&parent) && port.sub.is_none() {
        return format!(
            "{} is split: name one of its subports",
            sw.port_name(parent)
        );
    }
    format!(
        "{} has ports {} to {}",
        sw.model.name(),
        sw.port_name(Port::new(1, 1)),
        sw.port_name(Port::new(1, sw.model.port_count()))
    )
}
