//! OS10 running configurations → the OS10 switches of a fabric file ([`targets::Import`]).
//! The inverse of `os10::compile`: each port's settings read back into the format's terms (the
//! RoCE QoS from the policies a port names: PFC from its network-qos policy, ETS from its
//! queuing policy's `bandwidth percent`, ECN from the `wred` profile a queue's class names,
//! trust from `system qos`), the lossless priorities from the network-qos classes that
//! `pause`, a VLT pair's domain as a fabric `mlag` pair and its VLTi as a `role: ipl` link,
//! VLAN interfaces, the loopback and BGP; a port broken out (`interface breakout`, or its port
//! group's mode) as a `split`, and a port group's mode other than its native one as the speed
//! of its ports. Whether the fabric reproduces the config is not decided here but checked
//! afterwards by planning the compiled config against it (`check`): what the format cannot
//! say is a located line of that plan. Lines the model keeps verbatim (a plan never touches
//! them) are listed in a comment above the switch. Nothing here reads files or prints.

use std::collections::{BTreeMap, BTreeSet};

use serde_saphyr::{FlowMap, FlowSeq};

use crate::fabric::{Hardware, Switch};
use crate::import::doc::{
    Doc, LinkDoc, MgmtDoc, PairDoc, PairIplDoc, Qos, Release, SwitchDoc, VlanDoc,
};
use crate::import::entries::{self, Entries, Ports};
use crate::import::links::{self, Links};
use crate::import::ports::Attr;
use crate::import::{Lost, Source, Typed, common, typed};
use crate::os10::Config;
use crate::os10::models::Model;
use crate::targets::{self, Sources, SwitchOs};
use crate::types::Port;

use super::target::{OS10, WORDS};
use switch::{
    IPL_SUBNET, bgp, gateway_mtu, gateways, half_doc, is_release, kept, loopback, qos,
    unused_port_channel, unused_vlan, vlans,
};

mod check;
mod ports;
mod switch;

/// OS10's import.
pub struct Import;

pub const IMPORT: Import = Import;

impl targets::Import for Import {
    fn a_title(&self) -> &'static str {
        "an OS10"
    }

    fn model(&self, name: &str) -> Result<Hardware, String> {
        Model::named(name.trim())
            .map(|m| Hardware::new(m))
            .ok_or_else(|| format!("`{name}` is not an OS10 model of the table"))
    }

    fn read<'a>(&self, sources: Sources<'a>) -> Result<Box<dyn targets::Read<'a> + 'a>, String> {
        Ok(Box::new(read(sources)?))
    }

    fn lost(&self, sw: Option<&Switch>, name: &str, source: &Source) -> Option<Lost> {
        check::lost(sw, name, source)
    }
}

/// One switch, read: its model, its ports with their attributes, the VLTi ports.
struct Prepared<'a> {
    name: &'a str,
    source: &'a Source,
    config: &'a Config,
    model: &'static Model,
    ports: Vec<(Port, BTreeSet<Attr>, Option<&'a String>)>,
    /// The VLTi ports of its VLT domain.
    ipl: BTreeSet<Port>,
    /// A VLT switch imported without its peer: the port-channel its VLTi ports are written
    /// in (`lag`), which its `mlag` half names as the IPL.
    half: Option<u16>,
    /// Front-panel ports broken out (by `interface breakout` or their port group's mode), and
    /// how many ways: `split` entries.
    splits: Vec<(Port, u8)>,
    /// Its described ports but the VLTi's, each may end a cable to another imported switch.
    ends: Vec<links::End<'a>>,
}

/// The OS10 switches read: their VLT pairs and each one prepared.
struct Read<'a> {
    pairs: Vec<(&'a str, &'a str)>,
    prepared: Vec<Prepared<'a>>,
}

/// Reads each OS10 switch: its model (given, else guessed), ports, and VLT pair.
fn read(sources: Sources<'_>) -> Result<Read<'_>, String> {
    let switches = typed::<Config>(sources)?;
    let pairs = pairs(&switches);
    let paired = |n: &str| pairs.iter().any(|(a, b)| *a == n || *b == n);
    let prepared = switches
        .into_iter()
        .map(|(n, s, c)| ports::prepare(n, s, c, paired(n)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Read { pairs, prepared })
}

/// VLT pairs among the imported switches: two with a VLT domain and the same `vlt-mac`.
fn pairs<'a>(switches: &[Typed<'a, Config>]) -> Vec<(&'a str, &'a str)> {
    let vlt: Vec<(&str, crate::types::Mac)> = switches
        .iter()
        .filter_map(|(n, _, c)| Some((*n, c.vlt.as_ref()?.vlt_mac?)))
        .collect();
    let mut out = Vec::new();
    for (k, (a, mac)) in vlt.iter().enumerate() {
        let same: Vec<&str> = vlt
            .iter()
            .filter(|(_, m)| m == mac)
            .map(|(n, _)| *n)
            .collect();
        if same.len() == 2
            && let Some((b, _)) = vlt[k + 1..].iter().find(|(_, m)| m == mac)
        {
            out.push((*a, *b));
        }
    }
    out
}

/// Consecutive runs of two equally long lists of ports, cable by cable.
fn cable_runs(a: &BTreeSet<Port>, b: &BTreeSet<Port>) -> Vec<(Port, Port, Port, Port)> {
    let mut out: Vec<(Port, Port, Port, Port)> = Vec::new();
    for (x, y) in a.iter().zip(b) {
        if let Some(last) = out.last_mut()
            && last.1.precedes(*x)
            && last.3.precedes(*y)
        {
            last.1 = *x;
            last.3 = *y;
            continue;
        }
        out.push((*x, *x, *y, *y));
    }
    out
}

impl<'a> targets::Read<'a> for Read<'a> {
    /// The switches as their cables see them: their described ports but the VLTi's, each
    /// routed one's address, their AS.
    fn cable_ends(&self) -> Vec<links::Switch<'a>> {
        self.prepared
            .iter()
            .map(|p| links::Switch {
                name: p.name,
                os: &OS10,
                asn: p.config.bgp.as_ref().map(|b| b.asn),
                ends: p.ends.clone(),
            })
            .collect()
    }

    /// Adds the OS10 switches, their VLT pairs and the pairs' VLTi links; with `alone`, the
    /// settings they share become fabric-wide. Per switch, the lines the fabric does not carry
    /// and a plan leaves alone, for the comment above it.
    fn add(&mut self, doc: &mut Doc, alone: bool, links: &Links) -> BTreeMap<String, Vec<String>> {
        let shared = Shared::of(&self.prepared, alone);
        let ports = self
            .prepared
            .iter()
            .map(|p| ports(p, self.group(p.name)))
            .collect();
        let entries = entries::lay_out(doc, ports, &OS10, alone, links);
        self.add_pairs(doc);
        let mut notes = BTreeMap::new();
        for (p, e) in self.prepared.iter().zip(entries) {
            let sw = self.switch_doc(p, e, &shared, alone, links);
            doc.add_switch(p.name, p.source, p.model.name, sw);
            notes.insert(p.name.to_string(), notes_of(p.config));
        }
        if alone {
            shared.write(doc);
        }
        notes
    }
}

impl Read<'_> {
    /// The switch's VLT peer, if it is imported.
    fn peer(&self, n: &str) -> Option<&str> {
        self.pairs.iter().find_map(|(a, b)| match n {
            _ if *a == n => Some(*b),
            _ if *b == n => Some(*a),
            _ => None,
        })
    }

    /// The name the port-channels of the switch's VLT pair share (`a+b`), else its own.
    fn group(&self, n: &str) -> String {
        self.pairs
            .iter()
            .find(|(a, b)| *a == n || *b == n)
            .map_or(n.to_string(), |(a, b)| format!("{a}+{b}"))
    }

    fn prepared(&self, n: &str) -> Option<&Prepared<'_>> {
        self.prepared.iter().find(|p| p.name == n)
    }

    /// VLT pairs: the fabric's `mlag` pairs, their VLTi a `role: ipl` link.
    fn add_pairs(&self, doc: &mut Doc) {
        for (a, b) in &self.pairs {
            let (Some(pa), Some(pb)) = (self.prepared(a), self.prepared(b)) else {
                continue;
            };
            let configs = [pa.config, pb.config];
            let system_mac = pa
                .config
                .vlt
                .as_ref()
                .and_then(|v| v.vlt_mac)
                .map(|m| m.to_string())
                .unwrap_or_default();
            doc.mlag.push(PairDoc {
                switches: FlowSeq(vec![a.to_string(), b.to_string()]),
                system_mac,
                ipl: FlowMap(PairIplDoc {
                    port_channel: unused_port_channel(&configs),
                    vlan: unused_vlan(&configs),
                    subnet: IPL_SUBNET,
                }),
            });
            for (a1, a2, b1, b2) in cable_runs(&pa.ipl, &pb.ipl) {
                doc.links.push(FlowMap(LinkDoc {
                    a: format!("{a}:{}", OS10.port_range(a1, a2)),
                    b: format!("{b}:{}", OS10.port_range(b1, b2)),
                    role: Some("ipl"),
                }));
            }
        }
    }

    /// The switch as the fabric writes it: what the fabric does not share, its ports'
    /// entries, its VLT half when its peer is not imported, the management address its peer's
    /// `backup destination` names.
    fn switch_doc(
        &self,
        p: &Prepared,
        e: Entries,
        shared: &Shared,
        alone: bool,
        links: &Links,
    ) -> SwitchDoc {
        let c = p.config;
        // A VLT peer's `backup destination` is this switch's management address.
        let peer_backup = self
            .peer(p.name)
            .and_then(|peer| self.prepared(peer)?.config.vlt.as_ref()?.backup);
        SwitchDoc {
            os: (!alone).then_some(WORDS.word),
            model: p.model.name.to_string(),
            release: Release::of(WORDS.word, release(c).filter(|_| shared.release.is_none())),
            qos: qos(c).filter(|_| shared.qos.is_none()),
            set_hostname: c.hostname.is_none().then_some(false),
            loopback: loopback(c).map(|a| a.to_string()),
            vlans: own_vlans(c, shared.vlans.is_some()),
            // OS10 runs RPVST+ by default; a VLT pair's port-channels are L2 between them, as
            // is an L2 cable to another switch (W005).
            stp: (self.peer(p.name).is_some() || p.half.is_some() || links.joins_l2(p.name))
                .then_some("on"),
            host_ports: e.host_ports,
            unused_ports: e.unused_ports,
            half: p.half.and_then(|pc| half_doc(c, pc)),
            bgp: bgp(c, p.name, links),
            mgmt: peer_backup.map(|a| {
                FlowMap(MgmtDoc {
                    host: a.to_string(),
                })
            }),
            ports: e.ports,
            ..SwitchDoc::default()
        }
    }
}

/// The release a switch's header prints, when the format takes it.
fn release(c: &Config) -> Option<String> {
    c.header.version.clone().filter(|v| is_release(v))
}

/// What the OS10 switches share, written fabric-wide when they are the fabric's only
/// switches.
struct Shared {
    release: Option<String>,
    qos: Option<Option<Qos>>,
    vlans: Option<Vec<VlanDoc>>,
}

impl Shared {
    fn of(prepared: &[Prepared], alone: bool) -> Shared {
        let all = || prepared.iter().map(|p| p.config);
        Shared {
            release: common(all().map(release)).flatten().filter(|_| alone),
            qos: common(all().map(qos)).filter(|_| alone),
            vlans: common(all().map(vlans)).filter(|_| alone),
        }
    }

    /// The fabric-wide keys: the fabric's OS is OS10.
    fn write(self, doc: &mut Doc) {
        doc.os = Some(WORDS.word);
        doc.release = Release::of(WORDS.word, self.release);
        doc.qos = self.qos.flatten();
        doc.vlans = self.vlans.unwrap_or_default();
    }
}

/// The switch's ports as the OS-neutral steps take them: its VLTi's ports are its peer link
/// (described by the `role: ipl` link when the peer is imported); the host-port default leaves
/// out routed ports.
fn ports<'a>(p: &Prepared<'a>, group: String) -> Ports<'a> {
    let c = p.config;
    let attrs: BTreeMap<Port, BTreeSet<Attr>> =
        p.ports.iter().map(|(q, a, _)| (*q, a.clone())).collect();
    let exempt = attrs
        .iter()
        .filter(|(_, a)| a.iter().any(|x| matches!(x, Attr::Address(_))))
        .map(|(q, _)| *q)
        .collect();
    Ports {
        name: p.name,
        group,
        attrs,
        described: p
            .ports
            .iter()
            .filter(|(port, _, _)| p.half.is_some() || !p.ipl.contains(port))
            .filter_map(|(port, _, d)| d.map(|d| (*port, d.as_str())))
            .collect(),
        advertised: c.bgp.as_ref().map(|b| {
            let nets = b.ipv4.iter().flat_map(|af| &af.networks);
            nets.copied().collect()
        }),
        exempt,
        peer_link: p.ipl.clone(),
        splits: p.splits.clone(),
    }
}

/// The switch's own VLANs (none where the fabric's are shared) and its gateways, with the
/// address and MTU each gateway writes.
fn own_vlans(c: &Config, shared: bool) -> Vec<FlowMap<VlanDoc>> {
    let mut own: Vec<VlanDoc> = if shared { Vec::new() } else { vlans(c) };
    for (id, a) in &gateways(c) {
        let mtu = gateway_mtu(c, *id);
        match own.iter_mut().find(|d| d.id == *id) {
            Some(d) => {
                d.address = Some(a.to_string());
                d.mtu = mtu;
            }
            None => own.push(VlanDoc {
                id: *id,
                name: None,
                address: Some(a.to_string()),
                mtu,
            }),
        }
    }
    own.sort_by_key(|d| d.id);
    own.into_iter().map(FlowMap).collect()
}

/// The lines the model keeps verbatim, for the comment above the switch; a release the
/// format does not take first.
fn notes_of(c: &Config) -> Vec<String> {
    let mut kept = kept(c);
    if let Some(v) = c.header.version.as_ref().filter(|v| !is_release(v)) {
        // Not a release the format takes (E074): the compiled config prints none, and a
        // plan never touches the header.
        kept.insert(0, format!("! Version {v}"));
    }
    kept
}
