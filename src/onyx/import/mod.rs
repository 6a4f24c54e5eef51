//! Onyx running configs → the Onyx switches of a fabric file ([`targets::Import`]): each
//! port's settings in the format's terms (a port-channel member carrying its bundle's L2 and
//! QoS), the switch's model (given, else guessed from its ports), its QoS, VLANs, gateways,
//! loopback, BGP and MLAG half, and what the format does not model as its `extra` lines, in
//! their running-config section. Settings all the fabric's switches share are fabric-wide
//! keys when they are all Onyx switches. Nothing here reads files or prints.

use std::collections::{BTreeMap, BTreeSet};

use serde_saphyr::FlowSeq;

use crate::fabric::{Hardware, Switch};
use crate::import::doc::{Doc, Qos, Release, RoutingDoc, SwitchDoc, VlanDoc};
use crate::import::entries::{self, Entries, Ports};
use crate::import::links::{self, Links};
use crate::import::ports::Attr;
use crate::import::{Lost, Source, common, typed};
use crate::onyx::{Config, Iface, Interface, LoadSharing};
use crate::targets::{self, Sources};
use crate::types::{Model, Port};

use super::target::{ONYX, WORDS};
use switch::{
    bgp_doc, certificate, expressed, gateway_mtu, mlag_doc, port_attrs, qos, release, vlans,
};

mod check;
mod extra;
mod models;
mod switch;

/// Onyx's import.
pub struct Import;

pub const IMPORT: Import = Import;

impl targets::Import for Import {
    fn a_title(&self) -> &'static str {
        "an Onyx"
    }

    fn model(&self, name: &str) -> Result<Hardware, String> {
        Model::find(name)
            .map(|m| Hardware::new(m))
            .map_err(|e| e.message)
    }

    fn read<'a>(&self, sources: Sources<'a>) -> Result<Box<dyn targets::Read<'a> + 'a>, String> {
        Ok(Box::new(read(sources)?))
    }

    fn lost(&self, sw: Option<&Switch>, name: &str, source: &Source) -> Option<Lost> {
        check::lost(sw, name, source)
    }
}

/// An Onyx switch read: its model (given, else guessed) and its ports.
struct Prepared<'a> {
    name: &'a str,
    source: &'a Source,
    config: &'a Config,
    model: &'static Model,
    ports: Vec<(Port, &'a Interface)>,
}

/// The Onyx switches read.
struct Read<'a> {
    prepared: Vec<Prepared<'a>>,
}

/// Reads each Onyx switch: its model (given, else guessed) and its ports.
fn read(sources: Sources<'_>) -> Result<Read<'_>, String> {
    let switches = typed::<Config>(sources)?;
    let models = models::guess_models(&switches)?;
    let prepared = switches
        .into_iter()
        .map(|(name, source, config)| {
            let model = models[name];
            Prepared {
                name,
                source,
                config,
                model,
                ports: models::ports(config, model),
            }
        })
        .collect();
    Ok(Read { prepared })
}

impl<'a> targets::Read<'a> for Read<'a> {
    /// The Onyx switches as their cables see them: their described ports, each routed one's
    /// address, their AS.
    fn cable_ends(&self) -> Vec<links::Switch<'a>> {
        self.prepared
            .iter()
            .map(|p| links::Switch {
                name: p.name,
                os: &ONYX,
                asn: p.config.bgp.as_ref().map(|b| b.asn),
                ends: p
                    .ports
                    .iter()
                    .filter_map(|(port, i)| {
                        Some(links::End {
                            port: *port,
                            name: port.to_string(),
                            description: i.description.as_deref()?,
                            address: i.address.filter(|_| i.routed),
                        })
                    })
                    .collect(),
            })
            .collect()
    }

    /// Adds the Onyx switches; with `alone`, the settings they share become fabric-wide.
    /// Onyx keeps no line apart from the document (a line with a secret is taken out of
    /// `extra` after).
    fn add(&mut self, doc: &mut Doc, alone: bool, links: &Links) -> BTreeMap<String, Vec<String>> {
        let prepared = &self.prepared;
        let shared = Shared::of(prepared, alone);
        let groups = pairs(prepared);
        let ports = prepared
            .iter()
            .map(|p| {
                let group = groups.get(p.name).cloned();
                ports(p, group.unwrap_or_else(|| p.name.to_string()))
            })
            .collect();
        let entries = entries::lay_out(doc, ports, &ONYX, alone, links);
        for (p, e) in prepared.iter().zip(entries) {
            let sw = switch_doc(p, e, &shared, links);
            doc.add_switch(p.name, p.source, p.model.name, sw);
        }
        shared.write(doc);
        BTreeMap::new()
    }
}

/// What the Onyx switches share, written fabric-wide (only when they are the fabric's only
/// switches, but the ECMP hashing).
struct Shared {
    release: Option<String>,
    lldp: Option<bool>,
    qos: Option<Option<Qos>>,
    vlans: Option<Vec<VlanDoc>>,
    routing: Option<RoutingDoc>,
}

impl Shared {
    fn of(prepared: &[Prepared], alone: bool) -> Shared {
        let all = || prepared.iter().map(|p| p.config);
        // ECMP hashing, where switches route: one setting for all (the format has one).
        let hashing = common(
            all()
                .filter(|c| c.ip_routing)
                .map(|c| c.load_sharing.clone()),
        );
        let routing = hashing.filter(|h| !h.is_empty()).map(|h| RoutingDoc {
            load_sharing: FlowSeq(
                h.iter()
                    .map(|l| match l {
                        LoadSharing::SourceIpPort => "source-ip-port".to_string(),
                        LoadSharing::Consistent => "consistent".to_string(),
                    })
                    .collect(),
            ),
        });
        Shared {
            release: common(all().map(release)).flatten().filter(|_| alone),
            lldp: common(all().map(|c| c.lldp)).filter(|_| alone),
            qos: common(all().map(qos)).filter(|_| alone),
            vlans: common(all().map(vlans)).filter(|_| alone),
            routing,
        }
    }

    /// The fabric-wide keys.
    fn write(self, doc: &mut Doc) {
        doc.release = Release::of(WORDS.word, self.release);
        doc.lldp = self.lldp.filter(|l| *l);
        doc.qos = self.qos.flatten();
        doc.vlans = self.vlans.unwrap_or_default();
        doc.routing = self.routing;
    }
}

/// Onyx MLAG pairs among the imported switches, each switch's pair as one name (`a+b`): two
/// switches whose IPL VLAN interfaces name each other's address (`ipl 1 peer-address`).
fn pairs<'a>(prepared: &[Prepared<'a>]) -> BTreeMap<&'a str, String> {
    let address = |p: &Prepared| -> Vec<std::net::Ipv4Addr> {
        p.config
            .interfaces
            .values()
            .filter_map(|i| Some(i.address?.addr))
            .collect()
    };
    let mut out = BTreeMap::new();
    for a in prepared {
        let peer = a.config.interfaces.values().find_map(|i| i.ipl_peer);
        let Some((_, peer)) = peer else { continue };
        if let Some(b) = prepared
            .iter()
            .find(|b| b.name != a.name && address(b).contains(&peer))
        {
            let (x, y) = if a.name < b.name {
                (a.name, b.name)
            } else {
                (b.name, a.name)
            };
            out.insert(a.name, format!("{x}+{y}"));
        }
    }
    out
}

/// The switch's ports as the OS-neutral steps take them. The host-port default leaves out
/// routed ports, the MLAG peer link's members and every port of a switch without STP.
fn ports<'a>(p: &Prepared<'a>, group: String) -> Ports<'a> {
    let c = p.config;
    let attrs: BTreeMap<Port, BTreeSet<Attr>> = p
        .ports
        .iter()
        .map(|(port, i)| (*port, port_attrs(c, i)))
        .collect();
    let ipl = expressed(c).ipl.map(|(pc, _, _)| pc);
    let exempt = attrs
        .iter()
        .filter(|(_, s)| {
            !c.spanning_tree
                || s.iter().any(|x| {
                    matches!(x, Attr::Address(_))
                        || matches!(x, Attr::Bundle(false, id, _) if Some(*id) == ipl)
                })
        })
        .map(|(port, _)| *port)
        .collect();
    Ports {
        name: p.name,
        group,
        attrs,
        described: p
            .ports
            .iter()
            .filter_map(|(port, i)| i.description.as_ref().map(|d| (*port, d.as_str())))
            .collect(),
        advertised: c.bgp.as_ref().map(|b| b.networks.clone()),
        exempt,
        peer_link: BTreeSet::new(),
        splits: c
            .interfaces
            .iter()
            .filter_map(|(k, i)| match (k, i.split) {
                (Iface::Ethernet(p), Some(s)) => Some((*p, s.ways())),
                _ => None,
            })
            .collect(),
    }
}

/// The switch as the fabric writes it: what the fabric does not share, its ports' entries,
/// and what the format does not model as `extra` lines.
fn switch_doc(p: &Prepared, e: Entries, shared: &Shared, links: &Links) -> SwitchDoc {
    let c = p.config;
    let x = expressed(c);
    SwitchDoc {
        model: p.model.name.to_string(),
        release: release(c)
            .filter(|_| shared.release.is_none())
            .map(|release| Release {
                word: WORDS.word,
                release,
            }),
        licenses: c.licenses.clone(),
        certificate: certificate(c),
        lldp: Some(c.lldp).filter(|_| shared.lldp.is_none()),
        qos: qos(c).filter(|_| shared.qos.is_none()),
        set_hostname: c.hostname.is_none().then_some(false),
        loopback: x.loopback.map(|a| a.to_string()),
        vlans: own_vlans(c, &x, shared.vlans.is_some()),
        // Where L2 joins this switch to another, the fabric says whether spanning tree runs
        // (W005); elsewhere only `off` differs from Onyx's default.
        stp: if !c.spanning_tree {
            Some("off")
        } else if links.joins_l2(p.name) {
            Some("on")
        } else {
            None
        },
        host_ports: e.host_ports,
        unused_ports: e.unused_ports,
        bgp: bgp_doc(c, &x, p.name, links),
        mlag: mlag_doc(c, &x),
        ports: e.ports,
        extra: extra::extra(c, p.model, &x),
        ..SwitchDoc::default()
    }
}

/// The switch's own VLANs (none where the fabric's are shared) and its gateways, with the
/// address and MTU each gateway writes.
fn own_vlans(
    c: &Config,
    x: &switch::Expressed,
    shared: bool,
) -> Vec<serde_saphyr::FlowMap<VlanDoc>> {
    let gateway = |id: u16| {
        crate::types::Vlan::new(i64::from(id))
            .ok()
            .and_then(|v| x.gateways.get(&v))
            .map(|a| a.to_string())
    };
    let mut own: Vec<VlanDoc> = if shared { Vec::new() } else { vlans(c) };
    for d in &mut own {
        d.address = gateway(d.id);
    }
    for v in x.gateways.keys() {
        if !own.iter().any(|d| d.id == v.get()) {
            own.push(VlanDoc {
                id: v.get(),
                name: None,
                address: gateway(v.get()),
                mtu: None,
            });
        }
    }
    for d in own.iter_mut().filter(|d| d.address.is_some()) {
        d.mtu = crate::types::Vlan::new(i64::from(d.id))
            .ok()
            .and_then(|v| gateway_mtu(c, v));
    }
    own.sort_by_key(|d| d.id);
    own.into_iter().map(serde_saphyr::FlowMap).collect()
}
