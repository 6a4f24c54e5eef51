//! The blocks a running configuration's top level holds, read line by line: each line the
//! grammar ([`command`](super::super::command)) knows folded into the block's state, each other
//! line kept verbatim with its place; a setting given twice is refused.

use std::collections::BTreeMap;

use super::super::command::{self, Bad, BgpCmd, PeerCmd};
use super::super::{
    AddressFamily, Bgp, ClassMap, Extras, Interface, Peer, PolicyClass, PolicyMap, PortGroup,
    QosKind, QosMap, SystemQos, TrustKind, TrustMap, Vlt, Wred,
};
use super::tree::{Node, Reader, Seen, indent_of};
use super::{ParseError, Problem};

/// Whether a `!` child at `i` opens the modeled sub-block after it (OS10 prints a `!` before
/// each sub-block: a policy-map's class, BGP's address family, template, neighbor).
fn bang_before(r: &Reader<'_>, nodes: &[Node], i: usize, opens: impl Fn(&str) -> bool) -> bool {
    r.text(&nodes[i]) == "!" && nodes.get(i + 1).is_some_and(|n| opens(r.text(n)))
}

/// Reads a block's children: `read` folds a line the model knows into the block and says so;
/// the others are kept verbatim with their place.
fn block(
    r: &Reader<'_>,
    nodes: &[Node],
    extras: &mut Extras,
    opens: impl Fn(&str) -> bool,
    mut read: impl FnMut(&Node) -> Result<bool, ParseError>,
) -> Result<(), ParseError> {
    let mut modeled = 0usize;
    for (i, n) in nodes.iter().enumerate() {
        if bang_before(r, nodes, i, &opens) {
            continue;
        }
        if read(n)? {
            modeled += 1;
        } else {
            extras.push((modeled, r.verbatim(n)));
        }
    }
    Ok(())
}

fn no_sub_blocks(_: &str) -> bool {
    false
}

/// A block of single-line settings, each given once: `read` is the grammar, `apply` folds a
/// setting in; what the grammar does not know is returned verbatim with its place.
fn settings<C>(
    r: &Reader<'_>,
    nodes: &[Node],
    read: impl Fn(&str) -> Result<Option<C>, Bad>,
    mut apply: impl FnMut(&C),
) -> Result<Extras, ParseError> {
    let mut extras = Extras::new();
    let mut seen = Seen::default();
    block(r, nodes, &mut extras, no_sub_blocks, |n| {
        match read(r.text(n)).map_err(|b| r.bad(n, b))? {
            Some(c) => {
                r.leaf(n)?;
                seen.first(r, n, &c)?;
                apply(&c);
                Ok(true)
            }
            None => Ok(false),
        }
    })?;
    Ok(extras)
}

pub(super) fn interface(r: &Reader<'_>, nodes: &[Node]) -> Result<Interface, ParseError> {
    let mut e = Interface::default();
    let extras = settings(r, nodes, command::iface, |c| e.apply(c))?;
    e.extras = extras;
    Ok(e)
}

pub(super) fn wred(r: &Reader<'_>, name: String, nodes: &[Node]) -> Result<Wred, ParseError> {
    let mut w = Wred::new(name);
    let mut extras = Extras::new();
    // One line per colour, one `random-detect ecn`.
    let mut seen: Vec<Option<super::super::Color>> = Vec::new();
    block(
        r,
        nodes,
        &mut extras,
        no_sub_blocks,
        |n| match command::wred(r.text(n)).map_err(|b| r.bad(n, b))? {
            Some(c) => {
                r.leaf(n)?;
                let what = match &c {
                    command::WredCmd::Color(col, _) => Some(*col),
                    command::WredCmd::Ecn => None,
                };
                if seen.contains(&what) {
                    return Err(r.error(
                        Problem::Duplicate,
                        n.at,
                        indent_of(r.lines.line(n.at)),
                        "one line per colour, one `random-detect ecn`: this one is a second",
                    ));
                }
                seen.push(what);
                w.apply(&c);
                Ok(true)
            }
            None => Ok(false),
        },
    )?;
    w.extras = extras;
    Ok(w)
}

/// The blocks of keyed entries (`qos-group N …`, `queue N …`): one line per key.
fn keyed<T>(
    r: &Reader<'_>,
    nodes: &[Node],
    read: impl Fn(&str) -> Result<Option<(u8, T)>, Bad>,
) -> Result<(BTreeMap<u8, T>, Extras), ParseError> {
    let mut map = BTreeMap::new();
    let mut extras = Extras::new();
    block(r, nodes, &mut extras, no_sub_blocks, |n| {
        match read(r.text(n)).map_err(|b| r.bad(n, b))? {
            Some((k, v)) => {
                r.leaf(n)?;
                if map.insert(k, v).is_some() {
                    return Err(r.error(
                        Problem::Duplicate,
                        n.at,
                        indent_of(r.lines.line(n.at)),
                        format!("one line for {k}: this one is a second"),
                    ));
                }
                Ok(true)
            }
            None => Ok(false),
        }
    })?;
    Ok((map, extras))
}

/// A `trust dot1p-map|dscp-map NAME` block: its `qos-group N …` lines, one per qos-group.
pub(super) fn trust_map(
    r: &Reader<'_>,
    kind: TrustKind,
    name: String,
    nodes: &[Node],
) -> Result<TrustMap, ParseError> {
    let (groups, extras) = keyed(r, nodes, |l| command::trust_entry(kind, l))?;
    Ok(TrustMap {
        kind,
        name,
        groups,
        extras,
    })
}

/// A `qos-map traffic-class NAME` block: its `queue N …` lines, one per queue.
pub(super) fn qos_map(r: &Reader<'_>, name: String, nodes: &[Node]) -> Result<QosMap, ParseError> {
    let (queues, extras) = keyed(r, nodes, command::qos_map_entry)?;
    Ok(QosMap {
        name,
        queues,
        extras,
    })
}

pub(super) fn class_map(
    r: &Reader<'_>,
    kind: QosKind,
    name: String,
    nodes: &[Node],
) -> Result<ClassMap, ParseError> {
    let mut c = ClassMap::new(kind, name);
    let mut extras = Extras::new();
    block(
        r,
        nodes,
        &mut extras,
        no_sub_blocks,
        |n| match command::class_match(kind, r.text(n)).map_err(|b| r.bad(n, b))? {
            Some(m) => {
                r.leaf(n)?;
                if c.matches.replace(m).is_some() {
                    return Err(r.error(
                        Problem::Duplicate,
                        n.at,
                        1,
                        "one `match` line per class-map: this one is a second",
                    ));
                }
                Ok(true)
            }
            None => Ok(false),
        },
    )?;
    c.extras = extras;
    Ok(c)
}

fn is_class(line: &str) -> bool {
    line.starts_with("class ")
}

pub(super) fn policy_map(
    r: &Reader<'_>,
    kind: QosKind,
    name: String,
    nodes: &[Node],
) -> Result<PolicyMap, ParseError> {
    let mut p = PolicyMap::new(kind, name);
    let mut extras = Extras::new();
    block(r, nodes, &mut extras, is_class, |n| {
        let Some(class) = command::policy_class(r.text(n)).map_err(|b| r.bad(n, b))? else {
            return Ok(false);
        };
        if p.classes.iter().any(|c| c.name == class) {
            return Err(r.error(
                Problem::Duplicate,
                n.at,
                1,
                format!("one `class {class}` block per policy-map: this one is a second"),
            ));
        }
        let mut pc = PolicyClass {
            name: class,
            ..PolicyClass::default()
        };
        let cx = settings(
            r,
            &n.children,
            |l| command::class_line(kind, l),
            |c| pc.apply(c),
        )?;
        pc.extras = cx;
        p.classes.push(pc);
        Ok(true)
    })?;
    p.extras = extras;
    Ok(p)
}

pub(super) fn system_qos(r: &Reader<'_>, nodes: &[Node]) -> Result<SystemQos, ParseError> {
    let mut q = SystemQos::default();
    let extras = settings(r, nodes, command::system_qos, |c| q.apply(c))?;
    q.extras = extras;
    Ok(q)
}

/// A `port-group` block: its `mode Eth …`, once.
pub(super) fn port_group(r: &Reader<'_>, nodes: &[Node]) -> Result<PortGroup, ParseError> {
    let mut g = PortGroup::default();
    let extras = settings(r, nodes, command::port_group_mode, |m| {
        g.mode = Some(m.clone())
    })?;
    g.extras = extras;
    Ok(g)
}

pub(super) fn vlt(r: &Reader<'_>, id: u8, nodes: &[Node]) -> Result<Vlt, ParseError> {
    let mut v = Vlt::new(id);
    let extras = settings(r, nodes, command::vlt, |c| v.apply(c))?;
    v.extras = extras;
    Ok(v)
}

fn is_af(line: &str) -> bool {
    line == "address-family ipv4 unicast"
}

fn is_bgp_block(line: &str) -> bool {
    is_af(line) || line.starts_with("template ") || line.starts_with("neighbor ")
}

/// An `address-family ipv4 unicast` block; `networks` says whether `network` lines are read
/// (in the instance) or kept verbatim (in a neighbor or template, where OS10 has none).
fn address_family(r: &Reader<'_>, n: &Node, networks: bool) -> Result<AddressFamily, ParseError> {
    let mut af = AddressFamily::default();
    let mut extras = Extras::new();
    block(r, &n.children, &mut extras, no_sub_blocks, |m| {
        if !networks {
            return Ok(false);
        }
        match command::af_network(r.text(m)).map_err(|b| r.bad(m, b))? {
            Some(net) => {
                r.leaf(m)?;
                if af.networks.contains(&net) {
                    return Err(r.error(
                        Problem::Duplicate,
                        m.at,
                        2,
                        format!("one `network {net}` line: this one is a second"),
                    ));
                }
                af.networks.push(net);
                Ok(true)
            }
            None => Ok(false),
        }
    })?;
    af.extras = extras;
    Ok(af)
}

fn peer(r: &Reader<'_>, n: &Node) -> Result<Peer, ParseError> {
    let mut p = Peer::default();
    let mut extras = Extras::new();
    let mut seen = Seen::default();
    block(
        r,
        &n.children,
        &mut extras,
        is_af,
        |m| match command::peer(r.text(m)).map_err(|b| r.bad(m, b))? {
            Some(PeerCmd::Ipv4Unicast) => {
                if p.ipv4.is_some() {
                    return Err(r.error(
                        Problem::Duplicate,
                        m.at,
                        2,
                        "one `address-family ipv4 unicast` block: this one is a second",
                    ));
                }
                p.ipv4 = Some(address_family(r, m, false)?);
                Ok(true)
            }
            Some(c) => {
                r.leaf(m)?;
                seen.first(r, m, &c)?;
                p.apply(&c);
                Ok(true)
            }
            None => Ok(false),
        },
    )?;
    p.extras = extras;
    Ok(p)
}

pub(super) fn bgp(r: &Reader<'_>, asn: u32, nodes: &[Node]) -> Result<Bgp, ParseError> {
    let mut b = Bgp::new(asn);
    let mut extras = Extras::new();
    let mut seen = Seen::default();
    block(r, nodes, &mut extras, is_bgp_block, |n| {
        let Some(c) = command::bgp(r.text(n)).map_err(|e| r.bad(n, e))? else {
            return Ok(false);
        };
        let twice = |what: String| {
            r.error(
                Problem::Duplicate,
                n.at,
                1,
                format!("one `{what}` block: this one is a second"),
            )
        };
        match c {
            BgpCmd::Ipv4Unicast => {
                if b.ipv4.is_some() {
                    return Err(twice(r.text(n).to_string()));
                }
                b.ipv4 = Some(address_family(r, n, true)?);
            }
            BgpCmd::Template(t) => {
                if b.templates.iter().any(|(x, _)| *x == t) {
                    return Err(twice(format!("template {t}")));
                }
                b.templates.push((t, peer(r, n)?));
            }
            BgpCmd::Neighbor(a) => {
                if b.neighbors.iter().any(|(x, _)| *x == a) {
                    return Err(twice(format!("neighbor {a}")));
                }
                b.neighbors.push((a, peer(r, n)?));
            }
            c => {
                r.leaf(n)?;
                seen.first(r, n, &c)?;
                match c {
                    BgpCmd::MultipathRelax => b.multipath_relax = true,
                    BgpCmd::FastExternalFallover(on) => b.fast_external_fallover = on,
                    BgpCmd::MaxPathsEbgp(x) => b.max_paths_ebgp = Some(x),
                    BgpCmd::MaxPathsIbgp(x) => b.max_paths_ibgp = Some(x),
                    BgpCmd::RouterId(a) => b.router_id = Some(a),
                    BgpCmd::Ipv4Unicast | BgpCmd::Template(_) | BgpCmd::Neighbor(_) => {}
                }
            }
        }
        Ok(true)
    })?;
    b.extras = extras;
    Ok(b)
}
