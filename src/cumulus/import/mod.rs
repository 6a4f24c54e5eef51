//! Cumulus NVUE configurations (`nv config show -o yaml`, `startup.yaml`) → the Cumulus
//! switches of a fabric file ([`targets::Import`]). The inverse of `cumulus::compile`: each
//! `swp` interface's link, bridge and routed settings back into the format's terms, bond
//! members as bundles, breakouts as splits, VLANs and SVIs, the loopback, BGP (an unnumbered
//! session on no cable between imported switches as a neighbor named by its port), and the
//! switch-wide QoS (the `roce-lossless` preset where the tree is the recipe exactly, else its
//! pools and PFC, with trust, ECN and ETS on every port, as NVUE holds them switch-wide).
//! Whether the fabric reproduces a configuration is checked afterwards by planning its
//! compiled tree against it (`lost`); the objects the fabric does not manage (`plan::MANAGED`)
//! are listed above the switch. Nothing here reads files or prints.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use crate::fabric::{Hardware, Switch};
use crate::import::doc::{Doc, LinkDoc, MgmtDoc, PairDoc, PairIplDoc, Release, SwitchDoc, VlanDoc};
use crate::import::entries::{self, Ports};
use crate::import::links::{self, Links};
use crate::import::ports::Attr;
use crate::import::{Lost, Source, common, typed};
use crate::targets::{self, Sources, SwitchOs};
use crate::types::{Ipv4Net, Port};
use serde_saphyr::{FlowMap, FlowSeq};

use super::Config;
use super::models::{MODELS, Model, model_of};
use super::target::{CUMULUS, WORDS};
use super::tree::{self, Tree};

mod switch;

use switch::{bgp, own_vlans, qos, release, vlans};

/// Cumulus's import.
pub struct Import;

pub const IMPORT: Import = Import;

/// The addresses written for a cable between two Cumulus switches whose BGP runs unnumbered:
/// NVUE prints none (the session runs over the ports' IPv6 link-local addresses), and the
/// format's routed link needs an address at each end (the compile writes neither). One /31
/// per cable, in cable order.
pub const UNNUMBERED_POOL: Ipv4Addr = Ipv4Addr::new(100, 64, 0, 0);

impl targets::Import for Import {
    fn a_title(&self) -> &'static str {
        "a Cumulus"
    }

    fn model(&self, name: &str) -> Result<Hardware, String> {
        named(name)
            .map(|m| Hardware::new(m))
            .ok_or_else(|| format!("`{name}` is not a Cumulus model of the table"))
    }

    fn read<'a>(&self, sources: Sources<'a>) -> Result<Box<dyn targets::Read<'a> + 'a>, String> {
        Ok(Box::new(read(sources)?))
    }

    fn lost(&self, sw: Option<&Switch>, name: &str, source: &Source) -> Option<Lost> {
        lost(sw, name, source)
    }
}

/// The model of the table a name names (`SN5600`, any case).
fn named(name: &str) -> Option<&'static Model> {
    MODELS
        .iter()
        .find(|m| m.name.eq_ignore_ascii_case(name.trim()))
}

/// One switch, read.
struct Prepared<'a> {
    name: &'a str,
    source: &'a Source,
    config: &'a Config,
    model: &'static Model,
    ports: Vec<(Port, BTreeSet<Attr>, Option<&'a str>)>,
    splits: Vec<(Port, u8)>,
    ends: Vec<links::End<'a>>,
    /// Its peer link's ports, when its MLAG peer is imported too.
    ipl: BTreeSet<Port>,
    /// The port-channel its pair's IPL is written as (NVUE's `peerlink` has no number).
    ipl_pc: Option<u16>,
}

/// The Cumulus switches read.
struct Read<'a> {
    /// MLAG pairs: two imported switches with the same `mlag mac-address`.
    pairs: Vec<(&'a str, &'a str)>,
    prepared: Vec<Prepared<'a>>,
}

/// `swp33` of `leaf01`: a port by switch and NVUE name.
type PortKey = (String, String);

fn read(sources: Sources<'_>) -> Result<Read<'_>, String> {
    let switches = typed::<Config>(sources)?;
    let unnumbered = unnumbered_cables(&switches);
    let pairs = pairs(&switches);
    let configs: Vec<&Config> = switches.iter().map(|(_, _, c)| *c).collect();
    let ipl_pc = unused_bond(&configs);
    let paired = |n: &str| pairs.iter().any(|(a, b)| *a == n || *b == n);
    let prepared = switches
        .into_iter()
        .map(|(n, s, c)| {
            let ipl = paired(n).then_some(ipl_pc);
            switch::prepare(n, s, c, &unnumbered, ipl)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Read { pairs, prepared })
}

/// `mlag mac-address`.
fn mlag_mac(c: &Config) -> Option<&str> {
    tree::value(&c.set, &["mlag", "mac-address"])
}

/// The MLAG pairs among the switches: two, and only two, with the same MAC address.
fn pairs<'a>(switches: &[crate::import::Typed<'a, Config>]) -> Vec<(&'a str, &'a str)> {
    let mut out = Vec::new();
    for (i, (a, _, ca)) in switches.iter().enumerate() {
        let Some(mac) = mlag_mac(ca).map(str::to_ascii_lowercase) else {
            continue;
        };
        let same: Vec<&str> = switches
            .iter()
            .filter(|(_, _, c)| mlag_mac(c).is_some_and(|m| m.eq_ignore_ascii_case(&mac)))
            .map(|(n, _, _)| *n)
            .collect();
        if same.len() == 2
            && let Some((b, _, _)) = switches[i + 1..]
                .iter()
                .find(|(_, _, c)| mlag_mac(c).is_some_and(|m| m.eq_ignore_ascii_case(&mac)))
        {
            out.push((*a, *b));
        }
    }
    out
}

/// A bond number no switch uses, for the IPL's port-channel (NVUE's peer link is `peerlink`).
fn unused_bond(configs: &[&Config]) -> u16 {
    let used = |n: u16| {
        configs
            .iter()
            .any(|c| tree::get(&c.set, &["interface", &format!("bond{n}")]).is_some())
    };
    (1000..=4096).find(|n| !used(*n)).unwrap_or(4096)
}

/// A VLAN no switch's bridge carries, for the IPL: NVUE's `peerlink.4094` when free.
fn unused_vlan(configs: &[&Config]) -> u16 {
    let used = |v: u16| configs.iter().any(|c| bridge_vlans(c).contains(&v));
    (2..=4094).rev().find(|v| !used(*v)).unwrap_or(4094)
}

/// The subnet written for a Cumulus pair's IPL (NVUE peers over `peer-ip linklocal`).
pub const IPL_SUBNET: &str = "10.254.255.0/30";

/// The ports of an unnumbered BGP session (`neighbor swpN type unnumbered`).
fn unnumbered_ports(c: &Config) -> BTreeSet<&str> {
    let at = ["vrf", "default", "router", "bgp", "neighbor"];
    tree::names(&c.set, &at)
        .into_iter()
        .filter(|n| {
            let mut p = at.to_vec();
            p.extend([*n, "type"]);
            tree::value(&c.set, &p) == Some("unnumbered")
        })
        .collect()
}

/// A port's description.
fn description<'t>(c: &'t Config, port: &str) -> Option<&'t str> {
    match tree::get(&c.set, &["interface", port, "description"]) {
        Some(tree::Node::Leaf(d)) => Some(d),
        _ => None,
    }
}

/// The cables between two imported Cumulus switches whose ends both run an unnumbered
/// session and name each other (`spine01:swp1` / `leaf01:swp33`): each end's address from
/// [`UNNUMBERED_POOL`].
fn unnumbered_cables(switches: &[crate::import::Typed<'_, Config>]) -> BTreeMap<PortKey, Ipv4Net> {
    let by_name: BTreeMap<&str, &Config> = switches.iter().map(|(n, _, c)| (*n, *c)).collect();
    let mut out = BTreeMap::new();
    let mut next = u32::from(UNNUMBERED_POOL);
    for (a, ca) in &by_name {
        for x in unnumbered_ports(ca) {
            let Some((b, y)) = description(ca, x).and_then(|d| d.split_once(':')) else {
                continue;
            };
            let Some(cb) = by_name.get(b).filter(|_| *a < b) else {
                continue;
            };
            let back = format!("{a}:{x}");
            if unnumbered_ports(cb).contains(y) && description(cb, y).is_some_and(|d| *d == back) {
                for (s, p, addr) in [(*a, x, next), (b, y, next + 1)] {
                    let net = Ipv4Net {
                        addr: Ipv4Addr::from(addr),
                        len: 31,
                    };
                    out.insert((s.to_string(), p.to_string()), net);
                }
                next += 2;
            }
        }
    }
    out
}

impl<'a> targets::Read<'a> for Read<'a> {
    fn cable_ends(&self) -> Vec<links::Switch<'a>> {
        self.prepared
            .iter()
            .map(|p| links::Switch {
                name: p.name,
                os: &CUMULUS,
                asn: tree::value(&p.config.set, &["router", "bgp", "autonomous-system"])
                    .and_then(|a| a.parse().ok()),
                ends: p.ends.clone(),
            })
            .collect()
    }

    fn add(&mut self, doc: &mut Doc, alone: bool, links: &Links) -> BTreeMap<String, Vec<String>> {
        let all = || self.prepared.iter().map(|p| p.config);
        let shared_release = common(all().map(release)).flatten().filter(|_| alone);
        let shared_qos = common(all().map(qos)).filter(|_| alone);
        let shared_vlans = common(all().map(vlans)).filter(|_| alone);
        let ports = self.prepared.iter().map(ports).collect();
        let entries = entries::lay_out(doc, ports, &CUMULUS, alone, links);
        self.add_pairs(doc);
        let mut notes = BTreeMap::new();
        for (p, e) in self.prepared.iter().zip(entries) {
            let c = p.config;
            let sw = SwitchDoc {
                os: (!alone).then_some(WORDS.word),
                model: p.model.name.to_string(),
                release: Release::of(WORDS.word, release(c).filter(|_| shared_release.is_none())),
                qos: qos(c).filter(|_| shared_qos.is_none()),
                set_hostname: c.hostname().is_none().then_some(false),
                loopback: switch::loopback(c).map(|a| a.to_string()),
                vlans: own_vlans(c, shared_vlans.is_some()),
                host_ports: e.host_ports,
                unused_ports: e.unused_ports,
                bgp: bgp(c, p.name, links, &p.ports),
                mgmt: self
                    .peer_backup(p.name)
                    .map(|host| FlowMap(MgmtDoc { host })),
                ports: e.ports,
                ..SwitchDoc::default()
            };
            doc.add_switch(p.name, p.source, p.model.name, sw);
            notes.insert(p.name.to_string(), kept(c));
        }
        if alone {
            doc.os = Some(WORDS.word);
            doc.release = Release::of(WORDS.word, shared_release);
            doc.qos = shared_qos.flatten();
            doc.vlans = shared_vlans.unwrap_or_default();
        }
        notes
    }
}

impl Read<'_> {
    fn prepared(&self, n: &str) -> Option<&Prepared<'_>> {
        self.prepared.iter().find(|p| p.name == n)
    }

    /// The address the switch's MLAG peer's `mlag backup` names: this switch's management
    /// address, as the fabric writes it.
    fn peer_backup(&self, n: &str) -> Option<String> {
        let peer = self.pairs.iter().find_map(|(a, b)| match n {
            _ if *a == n => Some(*b),
            _ if *b == n => Some(*a),
            _ => None,
        })?;
        let c = self.prepared(peer)?.config;
        tree::names(&c.set, &["mlag", "backup"])
            .into_iter()
            .next()
            .map(str::to_string)
    }

    /// MLAG pairs: the fabric's `mlag` pairs, their peer links a `role: ipl` link, member
    /// by member in port order.
    fn add_pairs(&self, doc: &mut Doc) {
        for (a, b) in &self.pairs {
            let (Some(pa), Some(pb)) = (self.prepared(a), self.prepared(b)) else {
                continue;
            };
            let configs = [pa.config, pb.config];
            doc.mlag.push(PairDoc {
                switches: FlowSeq(vec![a.to_string(), b.to_string()]),
                system_mac: mlag_mac(pa.config).unwrap_or_default().to_string(),
                ipl: FlowMap(PairIplDoc {
                    port_channel: pa.ipl_pc.unwrap_or(1000),
                    vlan: unused_vlan(&configs),
                    subnet: IPL_SUBNET,
                }),
            });
            for (x, y) in pa.ipl.iter().zip(&pb.ipl) {
                doc.links.push(FlowMap(LinkDoc {
                    a: format!("{a}:{}", CUMULUS.port_range(*x, *x)),
                    b: format!("{b}:{}", CUMULUS.port_range(*y, *y)),
                    role: Some("ipl"),
                }));
            }
        }
    }
}

/// The switch's ports as the OS-neutral steps take them; routed ports are left out of the
/// host-port default.
fn ports<'a>(p: &Prepared<'a>) -> Ports<'a> {
    let attrs: BTreeMap<Port, BTreeSet<Attr>> =
        p.ports.iter().map(|(q, a, _)| (*q, a.clone())).collect();
    let exempt = attrs
        .iter()
        .filter(|(_, a)| a.iter().any(|x| matches!(x, Attr::Address(_))))
        .map(|(q, _)| *q)
        .collect();
    let bgp = ["vrf", "default", "router", "bgp"];
    let advertised = tree::get(&p.config.set, &bgp).map(|_| {
        let mut at = bgp.to_vec();
        at.extend(["address-family", "ipv4-unicast", "network"]);
        tree::names(&p.config.set, &at)
            .into_iter()
            .filter_map(|n| n.parse().ok())
            .collect()
    });
    Ports {
        name: p.name,
        group: p.name.to_string(),
        attrs,
        described: p
            .ports
            .iter()
            .filter_map(|(port, _, d)| d.map(|d| (*port, d)))
            .collect(),
        advertised,
        exempt,
        peer_link: p.ipl.clone(),
        splits: p.splits.clone(),
    }
}

/// The objects the fabric does not manage (`plan::MANAGED`), as `nv set` commands: a plan
/// leaves them as they are.
fn kept(c: &Config) -> Vec<String> {
    let unmanaged = super::plan::target(&c.set, &Tree::new(), true);
    tree::commands(&unmanaged)
        .into_iter()
        .map(|mut c| {
            // What follows a secret's attribute (its value, or the key it is) is not written.
            if let Some(i) = c.path.iter().position(|w| secret(w)) {
                c.path.truncate(i + 1);
                c.value = Some("*".to_string());
            }
            c.line()
        })
        .collect()
}

/// An attribute whose value is a secret (`hashed-password`, `secret`, a `key`): its value
/// is never written in the fabric file.
fn secret(word: &str) -> bool {
    ["password", "secret", "community", "key"]
        .iter()
        .any(|s| word.contains(s))
}

/// What a push of the fabric's switch would change on the switch it was imported from: its
/// compiled tree planned against the source (every managed object the fabric lacks removed),
/// each command after the source's name; `None` when nothing.
fn lost(sw: Option<&Switch>, name: &str, source: &Source) -> Option<Lost> {
    let lost = |plan: Vec<String>| Lost {
        name: name.to_string(),
        origin: source.origin.clone(),
        plan,
        lost: Vec::new(),
        added: Vec::new(),
    };
    let Some(sw) = sw else {
        return Some(lost(vec!["the fabric has no such switch".into()]));
    };
    let running = match source.typed::<Config>() {
        Ok(c) => c,
        Err(e) => return Some(lost(vec![e])),
    };
    let intended = super::compile::compile(sw);
    let target = super::plan::target(&running.set, &intended.set, true);
    let plan = super::plan::plan(&running.set, &target);
    if plan.is_empty() {
        return None;
    }
    Some(lost(
        plan.iter()
            .map(|(c, _)| format!("{}: {}", source.origin, c.line()))
            .collect(),
    ))
}

/// The model a source names (`--model`, else the header's `model:`), else the one with the
/// fewest ports that has every port the tree names.
fn model(source: &Source, c: &Config) -> Result<&'static Model, String> {
    if let Some(m) = source.model.and_then(model_of) {
        return Ok(m);
    }
    if let Some(m) = c
        .header
        .as_ref()
        .and_then(|h| tree::value(h, &["model"]))
        .and_then(named)
    {
        return Ok(m);
    }
    let used: Vec<Port> = tree::names(&c.set, &["interface"])
        .into_iter()
        .filter_map(super::rules::port)
        .collect();
    MODELS
        .iter()
        .filter(|m| used.iter().all(|p| targets::Model::has_port(*m, *p)))
        .min_by_key(|m| m.port_count())
        .ok_or_else(|| {
            format!(
                "{}: no Cumulus model in the table has these ports; say it with `--model`",
                source.origin
            )
        })
}

/// Each VLAN the bridge carries (VLAN 1 is always there).
fn bridge_vlans(c: &Config) -> Vec<u16> {
    tree::names(&c.set, &["bridge", "domain", "br_default", "vlan"])
        .into_iter()
        .filter_map(|v| v.parse().ok())
        .filter(|v| *v != 1)
        .collect()
}

/// The fabric's VLAN docs of these VLANs.
fn vlan_docs(ids: &[u16]) -> Vec<VlanDoc> {
    ids.iter()
        .map(|id| VlanDoc {
            id: *id,
            name: None,
            address: None,
            mtu: None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_are_named_in_any_case() {
        assert_eq!(named("sn5600").map(|m| m.name), Some("SN5600"));
        assert!(named("SN9999").is_none());
    }
}
