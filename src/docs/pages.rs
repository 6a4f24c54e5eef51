//! What each page says, as blocks ([`super::markup`] prints them): the fabric's page
//! (switches, cables, host groups, audit findings) and one page per switch (its facts, port
//! map, port-channels, VLANs, BGP). What a switch's configuration sets on a port (speed,
//! MTU, trust, PFC, ECN, ETS, admin state, bundle) and the OS's defaults where it sets nothing
//! come from the OS-neutral view the audit reads ([`View`]) of the configuration the switch
//! compiles to; what only the fabric knows (peers, profiles, VLANs, addresses, BGP) from the
//! validated fabric. Ports are named as the switch's OS names them (Onyx `1/5`, OS10
//! `ethernet1/1/5`); a default is marked as such.

use super::markup::{Block, Cell, Inline, Page, Table};
use super::topology::{Kind, Topology, port_list, port_range};
use crate::audit::view::{PortView, View};
use crate::audit::{Finding, report::Location};
use crate::fabric::{Bundle, Fabric, Lacp, Os, Peer, PortSettings, Switch};
use crate::types::Iface;
use crate::types::{Ecn, EcnMode, EcnThresholds, Port, SwitchportMode, format_vlan_run, vlan_runs};

/// A switchport's VLANs where the fabric sets none, on both OSes: access mode on VLAN 1 (Onyx
/// Ethernet Interface Commands; OS10 prints `switchport access vlan 1` on a port left alone).
const DEFAULT_VLANS: &str = "access 1";

fn text(s: impl Into<String>) -> Inline {
    Inline::Text(s.into())
}

fn para(inlines: Vec<Inline>) -> Block {
    Block::Para(inlines)
}

/// The fabric's page: the topology, its switches, cables, hosts and audit findings.
pub fn fabric(
    name: &str,
    file: &str,
    fabric: &Fabric,
    topology: &Topology,
    grouped: bool,
    findings: &[(Finding, Option<Location>)],
    mermaid: Option<String>,
) -> Vec<Block> {
    let mut blocks = heading(name, file, fabric, topology);
    let diagram = mermaid.is_some();
    if let Some(m) = mermaid {
        blocks.push(Block::Mermaid(m));
    }
    blocks.push(Block::Picture);
    picture_key(&mut blocks, topology, grouped, diagram);
    blocks.push(Block::Heading(2, "Switches".into(), None));
    blocks.push(Block::Table(switches(fabric)));
    cables(&mut blocks, fabric, topology);
    hosts(&mut blocks, fabric, topology);
    audit(&mut blocks, findings);
    blocks
}

/// The page's title, what made it and what the fabric counts, and the topology's heading.
fn heading(name: &str, file: &str, fabric: &Fabric, topology: &Topology) -> Vec<Block> {
    let cables = topology
        .edges
        .iter()
        .filter(|e| topology.nodes[e.to].switch.is_some())
        .map(|e| e.cables.len())
        .sum::<usize>();
    let hosts: usize = topology.groups.iter().map(|g| g.hosts.len()).sum();
    vec![
        Block::Heading(1, format!("Fabric {name}"), Some(Page::Fabric)),
        para(vec![
            text("Made by "),
            Inline::Code("fabric docs".into()),
            text(" from "),
            Inline::Code(file.into()),
            text(format!(
                ": {} switch(es), {cables} cable(s) between switches, {hosts} host(s). Do not edit; run the command again.",
                fabric.switches.len()
            )),
        ]),
        Block::Heading(2, "Topology".into(), None),
    ]
}

/// How to read the picture: its groups (when grouped), colours and labels.
fn picture_key(blocks: &mut Vec<Block>, topology: &Topology, grouped: bool, diagram: bool) {
    // The default OS's pair, and another OS's where one is drawn.
    let pairs: Vec<&crate::targets::Words> = Os::all()
        .filter(|os| {
            *os == Os::default() || topology.nodes.iter().any(|n| n.kind == Kind::Pair(*os))
        })
        .map(|os| os.target().words())
        .collect();
    if grouped {
        blocks.push(para(vec![text(format!(
            "More than {} switches in a row: the picture draws groups, each with its count. \
             Switches of one kind and model cabled to the same spines are one node, spines of one kind and model cabled to the same groups one node, \
             hosts of one family cabled to the same groups one node; past as many groups in a row, groups of one size cabled alike are one node too. \
             A line holds every cable between two groups (its tooltip lists them) and is labelled with their count and ports. \
             The tables below list every switch, cable and host.",
            super::aggregate::ROW_LIMIT
        ))]));
    }
    blocks.push(para(vec![text(format!(
        "Colours: spine, leaf, {} pair, switch without a role, hosts; a dashed line is {}. \
         Hosts whose names differ only in their trailing number and that are cabled to the same switches are one node. \
         In the picture each end of a line is labelled where it meets its box, with that box's ports (the hosts' NICs), \
         the upper end's after the number of cables when more than one (4×).{}",
        pairs.iter().map(|w| w.pair).collect::<Vec<_>>().join(" or "),
        pairs.iter().map(|w| w.a_peer_link).collect::<Vec<_>>().join(" or "),
        if diagram {
            " In the diagram a line between switches is labelled with the upper switch's ports, then (after ↔) the lower one's; \
             a line to hosts with the switch's ports, then (after ·) the hosts' ports."
        } else {
            ""
        },
    ))]));
}

/// One row per switch: model, release (a column per OS the fabric runs), role, AS,
/// loopback, MLAG peer, cabled ports.
fn switches(fabric: &Fabric) -> Table {
    // A release column per OS the fabric's switches run.
    let oses: Vec<Os> = Os::all()
        .filter(|os| fabric.switches.values().any(|s| s.os() == *os))
        .collect();
    let mut rows = Vec::new();
    for (n, sw) in &fabric.switches {
        let name = n.to_string();
        let cabled = sw.ports.values().filter(|s| s.peer.is_some()).count();
        let mut row = vec![Cell::switch(&name, name.clone()), sw.model.name().into()];
        row.extend(oses.iter().map(|os| {
            if sw.os() == *os {
                release(sw)
            } else {
                "—".into()
            }
        }));
        row.extend([
            sw.role.map_or("—".into(), |r| r.to_string()).into(),
            sw.routing
                .as_ref()
                .map_or("—".into(), |r| r.asn.to_string())
                .into(),
            sw.loopback.map_or("—".into(), |a| a.to_string()).into(),
            mlag_peer(sw),
            cabled.to_string().into(),
        ]);
        rows.push(row);
    }
    let mut head = vec!["Switch", "Model"];
    head.extend(oses.iter().map(|os| os.title()));
    head.extend(["Role", "AS", "Loopback", "MLAG peer", "Cabled ports"]);
    Table { head, rows }
}

/// The cables between switches, one row per cable.
fn cables(blocks: &mut Vec<Block>, fabric: &Fabric, topology: &Topology) {
    let links: Vec<_> = topology
        .edges
        .iter()
        .filter(|e| topology.nodes[e.to].switch.is_some())
        .collect();
    if !links.is_empty() {
        blocks.push(Block::Heading(2, "Cables between switches".into(), None));
        let mut rows = Vec::new();
        for e in links {
            for (((a, pa), (b, pb)), port) in e.cables.iter().zip(&e.ports) {
                rows.push(vec![
                    Cell::switch(a, a.clone()),
                    pa.as_str().into(),
                    Cell::switch(b, b.clone()),
                    pb.as_str().into(),
                    cable_kind(fabric, a, *port).into(),
                ]);
            }
        }
        blocks.push(Block::Table(Table {
            head: vec!["Switch", "Port", "Switch", "Port", "Kind"],
            rows,
        }));
    }
}

/// The host groups and the switch ports each is cabled to.
fn hosts(blocks: &mut Vec<Block>, fabric: &Fabric, topology: &Topology) {
    if !topology.groups.is_empty() {
        blocks.push(Block::Heading(2, "Hosts".into(), None));
        let mut rows = Vec::new();
        // Each group's edges, found by index (a scan of every edge per group would cost the
        // product of the two).
        let mut into: Vec<Vec<&super::topology::Edge>> = vec![Vec::new(); topology.nodes.len()];
        for e in &topology.edges {
            into[e.to].push(e);
        }
        for g in &topology.groups {
            for e in &into[g.node] {
                let switch = &topology.nodes[e.from].name;
                let os = fabric
                    .switches
                    .get(switch.as_str())
                    .map_or_else(Os::default, Switch::os);
                rows.push(vec![
                    topology.nodes[g.node].name.clone().into(),
                    g.hosts.len().to_string().into(),
                    Cell::switch(switch, switch.clone()),
                    port_list(os, &e.ports).into(),
                ]);
            }
        }
        blocks.push(Block::Table(Table {
            head: vec!["Hosts", "Count", "Switch", "Ports"],
            rows,
        }));
    }
}

/// The RoCE audit of the compiled configurations.
fn audit(blocks: &mut Vec<Block>, findings: &[(Finding, Option<Location>)]) {
    blocks.push(Block::Heading(2, "Audit".into(), None));
    blocks.push(para(vec![
        text("The RoCE audit ("),
        Inline::Code("fabric audit".into()),
        text(", profile roce-lossless) of the configurations this fabric compiles to."),
    ]));
    if findings.is_empty() {
        blocks.push(para(vec![text("No finding.")]));
    } else {
        let rows = findings
            .iter()
            .map(|(f, at)| {
                vec![
                    f.severity.to_string().into(),
                    format!("{} {}", f.rule, f.name).into(),
                    Cell::switch(&f.switch, f.switch.clone()),
                    f.interfaces.clone().unwrap_or_default().into(),
                    f.message.clone().into(),
                    at.as_ref()
                        .map(|l| match l.line {
                            Some(n) => format!("{}:{n}", l.file),
                            None => l.file.clone(),
                        })
                        .unwrap_or_default()
                        .into(),
                ]
            })
            .collect();
        blocks.push(Block::Table(Table {
            head: vec![
                "Severity",
                "Rule",
                "Switch",
                "Interfaces",
                "Finding",
                "Where",
            ],
            rows,
        }));
    }
}

/// A switch's page: its facts, then its port map, port-channels, VLANs and BGP. `view` is
/// the OS-neutral view of the configuration it compiles to; `fabric` names its peers' ports.
pub fn switch(fabric: &Fabric, sw: &Switch, view: &View) -> Vec<Block> {
    let os = sw.os();
    let name = sw.hostname.to_string();
    let mut blocks = vec![Block::Heading(2, name.clone(), Some(Page::Switch(name)))];
    let mut facts: Vec<(String, Cell)> = vec![
        ("Model".into(), sw.model.name().into()),
        (os.title().into(), release(sw)),
        (
            "Role".into(),
            sw.role.map_or("—".into(), |r| r.to_string()).into(),
        ),
    ];
    routing_facts(&mut facts, sw);
    pair_facts(&mut facts, sw, view);
    management_facts(&mut facts, sw);
    qos_facts(&mut facts, sw, view);
    hardware_facts(&mut facts, sw);
    blocks.push(Block::Table(Table {
        head: vec!["Setting", "Value"],
        rows: facts.into_iter().map(|(k, v)| vec![k.into(), v]).collect(),
    }));

    blocks.push(Block::Heading(3, "Ports".into(), None));
    blocks.push(para(vec![text(format!(
        "Consecutive ports with the same settings and no peer share a row. Values in italics are {os}'s defaults: the fabric sets none.",
    ))]));
    blocks.push(Block::Table(port_map(fabric, sw, view)));
    port_channels(&mut blocks, sw, view);
    vlans(&mut blocks, sw);
    bgp(&mut blocks, sw);
    blocks
}

/// The switch's AS, router-id and loopback.
fn routing_facts(facts: &mut Vec<(String, Cell)>, sw: &Switch) {
    if let Some(r) = &sw.routing {
        facts.push(("AS".into(), r.asn.to_string().into()));
        facts.push(("Router-id".into(), r.router_id.to_string().into()));
    }
    if let Some(lo) = sw.loopback {
        facts.push(("Loopback 0".into(), format!("{lo}/32").into()));
    }
}

/// The switch's MLAG pair in its OS's terms: its peer, peer link and system MAC.
fn pair_facts(facts: &mut Vec<(String, Cell)>, sw: &Switch, view: &View) {
    let os = sw.os();
    let words = os.target().words();
    let pair = words.pair;
    if let Some(m) = sw.mlag.as_ref().filter(|_| words.peer_link_ports) {
        // A peer link of its own ports (OS10's VLT: the `discovery-interface` ports, the
        // heartbeat's backup the peer's management address); the IPL's VLAN and subnet are a
        // port-channel peer link's.
        facts.push((format!("{pair} peer"), mlag_peer(sw)));
        let vlti: Vec<Port> = view
            .ports
            .iter()
            .filter(|(_, p)| p.ipl_member)
            .filter_map(|(i, _)| match i {
                Iface::Ethernet(p) => Some(*p),
                _ => None,
            })
            .collect();
        let mut link = port_list(os, &vlti);
        if let Some(backup) = m.peer_mgmt {
            link.push_str(&format!(", backup destination {backup}"));
        }
        facts.push((format!("{pair} interconnect"), link.into()));
        facts.push((format!("{pair} MAC"), m.system_mac.to_string().into()));
    } else if let Some(m) = &sw.mlag {
        facts.push((format!("{pair} peer"), mlag_peer(sw)));
        let mut ipl = format!("port-channel {} on VLAN {}", m.ipl_port_channel, m.ipl_vlan);
        if let Some(a) = m.address {
            ipl.push_str(&format!(", {a}"));
        }
        ipl.push_str(&format!(", peer {}", m.peer_address));
        facts.push((format!("{pair} peer link"), ipl.into()));
        facts.push((
            format!("{pair} system MAC"),
            m.system_mac.to_string().into(),
        ));
        if let Some((domain, vip)) = &m.vip {
            facts.push((
                format!("{pair} domain"),
                format!("{domain}, VIP {vip}").into(),
            ));
        }
    }
}

/// Where the switch is reached.
fn management_facts(facts: &mut Vec<(String, Cell)>, sw: &Switch) {
    if let Some(mgmt) = &sw.mgmt {
        facts.push((
            "Management".into(),
            match (mgmt.port, &mgmt.user) {
                (Some(port), Some(user)) => format!("{}:{port} (user {user})", mgmt.host),
                (Some(port), None) => format!("{}:{port}", mgmt.host),
                (None, Some(user)) => format!("{} (user {user})", mgmt.host),
                (None, None) => mgmt.host.clone(),
            }
            .into(),
        ));
    }
}

/// LLDP, DCBX, RoCE mode, traffic pools and PFC.
fn qos_facts(facts: &mut Vec<(String, Cell)>, sw: &Switch, view: &View) {
    let words = sw.os().target().words();
    facts.push(("LLDP".into(), if sw.lldp { "on" } else { "off" }.into()));
    if words.dcbx {
        facts.push(("DCBX".into(), if view.dcbx { "on" } else { "off" }.into()));
    }
    if let Some(roce) = view.roce_mode {
        facts.push(("RoCE mode".into(), roce.to_string().into()));
    }
    // Traffic pools are Onyx's (OS10 buffers by PFC class: its PFC line says which).
    let pools = if view.lossless_pools.is_some() {
        &sw.qos.pools
    } else {
        &Default::default()
    };
    for (pool_name, p) in pools {
        let mut v = format!("{pool_name}: {}", p.kind);
        if let Some(m) = p.memory {
            v.push_str(&format!(", {m}% of memory"));
        }
        if !p.priorities.is_empty() {
            v.push_str(&format!(", priorities {}", list(p.priorities.iter())));
        }
        facts.push(("Traffic pool".into(), v.into()));
    }
    if sw.qos.pfc.is_some() || view.pfc.enabled {
        let pfc = &view.pfc;
        let mut v = if pfc.enabled { "enabled" } else { "disabled" }.to_string();
        if !pfc.priorities.is_empty() {
            v.push_str(&format!(", priorities {}", list(pfc.priorities.iter())));
        }
        facts.push(("PFC".into(), v.into()));
    }
}

/// Spanning tree, split ports and the OS's hardware settings.
fn hardware_facts(facts: &mut Vec<(String, Cell)>, sw: &Switch) {
    let os = sw.os();
    let words = os.target().words();
    if let Some(stp) = sw.stp {
        facts.push((
            "Spanning tree".into(),
            if stp { "on" } else { "off" }.into(),
        ));
    }
    if !sw.splits.is_empty() {
        let splits: Vec<String> = crate::types::compress(sw.splits.iter().map(|(p, s)| (*p, s)))
            .into_iter()
            .map(|(a, b, s)| format!("{} ({}-way)", port_range(os, a, b), s.ways()))
            .collect();
        facts.push((words.splits.into(), splits.join(", ").into()));
    }
    for (setting, value) in os.target().hardware_facts(sw) {
        facts.push((setting.into(), value.into()));
    }
}

/// The switch's port-channels: members, LACP, and their L2 and QoS settings.
fn port_channels(blocks: &mut Vec<Block>, sw: &Switch, view: &View) {
    let os = sw.os();
    let words = os.target().words();
    // A peer link of its own ports (OS10's VLT interconnect) is no port-channel: its ports
    // are listed above.
    let bundles: Vec<_> = sw
        .bundles
        .iter()
        .filter(|((mlag, id), _)| !(words.peer_link_ports && ipl(sw, *mlag, *id)))
        .collect();
    if !bundles.is_empty() {
        blocks.push(Block::Heading(3, "Port-channels".into(), None));
        let mut rows = Vec::new();
        for ((mlag, id), s) in bundles {
            let members: Vec<Port> = sw
                .ports
                .iter()
                .filter(|(_, p)| p.bundle.is_some_and(|b| b.mlag == *mlag && b.id == *id))
                .map(|(port, _)| *port)
                .collect();
            let lacp = sw
                .ports
                .values()
                .find_map(|p| p.bundle.filter(|b| b.mlag == *mlag && b.id == *id))
                .map_or(String::new(), |b| lacp(b.lacp).to_string());
            let mut row = vec![
                bundle_name(os, *mlag, *id).into(),
                port_list(os, &members).into(),
                lacp.into(),
            ];
            row.extend(l2_and_qos(view, view.port(bundle_iface(os, *mlag, *id)), s));
            rows.push(row);
        }
        blocks.push(Block::Table(Table {
            head: vec![
                "Bundle", "Members", "LACP", "MTU", "VLANs", "Trust", "PFC", "ECN", "ETS",
            ],
            rows,
        }));
    }
}

/// The switch's VLANs and their gateways.
fn vlans(blocks: &mut Vec<Block>, sw: &Switch) {
    let words = sw.os().target().words();
    // The MLAG pair's IPL VLAN is a port-channel peer link's: a peer link of its own ports
    // (OS10's VLTi) needs none (and gets none).
    let ipl_vlan = sw
        .mlag
        .as_ref()
        .filter(|_| words.peer_link_ports)
        .map(|m| m.ipl_vlan);
    let vlans: Vec<_> = sw
        .vlans
        .iter()
        .filter(|(id, _)| Some(**id) != ipl_vlan)
        .collect();
    if !vlans.is_empty() {
        blocks.push(Block::Heading(3, "VLANs".into(), None));
        let rows = vlans
            .into_iter()
            .map(|(id, vname)| {
                vec![
                    id.to_string().into(),
                    vname.clone().unwrap_or_default().into(),
                    sw.gateways
                        .get(id)
                        .map_or(String::new(), |g| g.address.to_string())
                        .into(),
                ]
            })
            .collect();
        blocks.push(Block::Table(Table {
            head: vec!["VLAN", "Name", "Gateway"],
            rows,
        }));
    }
}

/// The switch's BGP settings and neighbors.
fn bgp(blocks: &mut Vec<Block>, sw: &Switch) {
    if let Some(r) = &sw.routing {
        blocks.push(Block::Heading(3, "BGP".into(), None));
        let mut facts: Vec<Vec<Cell>> = Vec::new();
        if let Some(m) = r.maximum_paths {
            facts.push(vec!["Maximum paths".into(), m.to_string().into()]);
        }
        if r.multipath_relax {
            facts.push(vec!["Multipath relax".into(), "on".into()]);
        }
        if !r.networks.is_empty() {
            let nets: Vec<String> = r.networks.iter().map(ToString::to_string).collect();
            facts.push(vec!["Networks".into(), nets.join(", ").into()]);
        }
        if !facts.is_empty() {
            blocks.push(Block::Table(Table {
                head: vec!["Setting", "Value"],
                rows: facts,
            }));
        }
        let mut rows: Vec<Vec<Cell>> = r
            .neighbors
            .iter()
            .map(|(addr, n)| {
                let over = match &n.link {
                    Some((far, port)) => {
                        Cell::switch(far.as_str(), format!("{} → {far}", sw.port_name(*port)))
                    }
                    None => "".into(),
                };
                vec![addr.to_string().into(), n.asn.to_string().into(), over]
            })
            .collect();
        // Sessions named by a port: unnumbered, to a peer outside the fabric.
        rows.extend(r.port_neighbors.iter().map(|(port, n)| {
            vec![
                "unnumbered".into(),
                n.remote_as.to_string().into(),
                sw.port_name(*port).into(),
            ]
        }));
        blocks.push(Block::Table(Table {
            head: vec!["Neighbor", "AS", "Over"],
            rows,
        }));
    }
}

/// One row per port, consecutive unconnected ports with equal settings as one range.
fn port_map(fabric: &Fabric, sw: &Switch, view: &View) -> Table {
    let os = sw.os();
    // A description is shown where it says more than the peer's name (as the fabric makes
    // it: `leaf-b:ethernet1/1/49`, the far port in its own OS's spelling).
    let described = |p: &Peer| match p {
        Peer::Switch { switch, port } => {
            format!("{switch}:{}", peer_port(fabric, sw, switch.as_str(), *port))
        }
        Peer::Host { .. } => p.description(),
    };
    let descriptions = sw
        .ports
        .values()
        .any(|s| s.description.is_some() && s.description != s.peer.as_ref().map(described));
    let rows: Vec<(Port, Vec<Cell>)> = sw
        .ports
        .iter()
        .map(|(port, s)| {
            let pv = view.port(Iface::Ethernet(*port));
            // A speed the fabric sets is shown as set, even where the configuration leaves
            // it out because it is the port's native speed.
            let speed = match s.speed.or(pv.speed) {
                Some(v) => Cell::from(v.to_string()),
                None => view
                    .speed(*port)
                    .map(|v| Cell::os_default(v.to_string()))
                    .unwrap_or_default(),
            };
            let peer = match &s.peer {
                Some(Peer::Switch { switch, port }) => {
                    let far = peer_port(fabric, sw, switch.as_str(), *port);
                    Cell::switch(switch.as_str(), format!("{switch} {far}"))
                }
                Some(p @ Peer::Host { .. }) => p.description().replace(':', " ").into(),
                None => "".into(),
            };
            // A bundle member's VLANs and QoS are its bundle's (on OS10, the VLT
            // interconnect's ports carry their own QoS and every VLAN).
            let vlti = os.target().words().peer_link_ports && pv.ipl_member;
            let bundled = s.bundle.filter(|_| !vlti);
            let l2 = bundled
                .and_then(|b| sw.bundles.get(&(b.mlag, b.id)))
                .unwrap_or(s);
            let qos = bundled.map_or(pv, |b| view.port(bundle_iface(os, b.mlag, b.id)));
            let mut row = vec![peer, s.profile.clone().unwrap_or_default().into(), speed];
            let mut settings = l2_and_qos(view, qos, l2);
            // The member's own MTU, which a bundle's members share.
            settings[0] = mtu(view, pv);
            if vlti {
                settings[1] = "all (VLTi)".into();
            }
            row.extend(settings);
            row.push(s.bundle.map_or(Cell::default(), |b| bundle(sw, b)));
            row.push(s.address.map_or(String::new(), |a| a.to_string()).into());
            // A port shut because nothing uses it says so (`unused_ports: shutdown`).
            row.push(if pv.shutdown == Some(true) && s.unused {
                "down (unused)".into()
            } else if pv.shutdown == Some(true) {
                "down".into()
            } else {
                Cell::os_default("up")
            });
            if descriptions {
                row.push(s.description.clone().unwrap_or_default().into());
            }
            (*port, row)
        })
        .collect();
    let mut out = Vec::new();
    let runs = crate::types::compress(rows.iter().map(|(p, r)| (*p, r)));
    for (a, b, row) in runs {
        let mut cells = vec![Cell::from(port_range(os, a, b))];
        cells.extend(row.iter().cloned());
        out.push(cells);
    }
    let mut head = vec![
        "Port", "Peer", "Profile", "Speed", "MTU", "VLANs", "Trust", "PFC", "ECN", "ETS", "Bundle",
        "Address", "Admin",
    ];
    if descriptions {
        head.push("Description");
    }
    Table { head, rows: out }
}

/// A switch peer's port as that switch's OS names it.
fn peer_port(fabric: &Fabric, sw: &Switch, far: &str, port: Port) -> String {
    fabric
        .switches
        .get(far)
        .map_or(sw.os(), Switch::os)
        .port_name(port)
}

/// A port's or a bundle's MTU, VLANs, trust, PFC, ECN and ETS: its VLANs from the fabric's
/// settings `s`, the rest from the view's `qos`.
fn l2_and_qos(view: &View, qos: &PortView, s: &PortSettings) -> Vec<Cell> {
    let vlans = match (s.switchport, &s.trunk, s.vlan) {
        _ if s.address.is_some() => Cell::from("routed"),
        (Some(SwitchportMode::Hybrid), trunk, vlan) => {
            let mut v = format!("hybrid {}", vlan.map_or("1".into(), |v| v.to_string()));
            if let Some(t) = trunk.as_ref().filter(|t| !t.is_empty()) {
                v.push_str(&format!(", tagged {}", runs(t)));
            }
            v.into()
        }
        (_, Some(trunk), _) => format!("trunk {}", runs(trunk)).into(),
        (_, None, Some(vlan)) => format!("access {vlan}").into(),
        (Some(SwitchportMode::Trunk), None, None) => "trunk".into(),
        _ => Cell::os_default(DEFAULT_VLANS),
    };
    let ecn: Vec<String> = qos
        .ecn
        .iter()
        .map(|(tc, e)| format!("TC{tc} {}", ecn(e)))
        .collect();
    let ets: Vec<String> = qos
        .ets
        .iter()
        .map(|(tc, e)| format!("TC{tc} {e}"))
        .collect();
    let trust = match qos.trust {
        Some(t) => t.to_string().into(),
        // OS10 without a trust map classifies nothing.
        None => Cell::os_default(view.trust(qos).map_or("none".into(), |t| t.to_string())),
    };
    vec![
        mtu(view, qos),
        vlans,
        trust,
        if qos.pfc {
            "on".into()
        } else {
            Cell::os_default("off")
        },
        ecn.join("; ").into(),
        ets.join("; ").into(),
    ]
}

fn mtu(view: &View, p: &PortView) -> Cell {
    p.mtu
        .map_or(Cell::os_default(view.default_mtu.to_string()), |m| {
            m.to_string().into()
        })
}

fn runs(vlans: &std::collections::BTreeSet<crate::types::Vlan>) -> String {
    vlan_runs(vlans.iter().copied())
        .into_iter()
        .map(format_vlan_run)
        .collect::<Vec<_>>()
        .join(",")
}

/// ECN thresholds as an engineer reads them: `150-1500 KB`, `5-10 %`, with the marking mode
/// when it is not ECN.
fn ecn(e: &Ecn) -> String {
    let range = match e.thresholds {
        EcnThresholds::Absolute { min, max } => format!("{min}-{max} KB"),
        EcnThresholds::Relative { min, max } => format!("{min}-{max} %"),
    };
    match e.mode {
        EcnMode::Ecn => range,
        mode => format!("{mode} {range}"),
    }
}

fn lacp(l: Lacp) -> &'static str {
    match l {
        Lacp::Active => "active",
        Lacp::Passive => "passive",
        Lacp::On => "on (static)",
    }
}

/// Whether a switch's port-channel `id` (not an MLAG one) is its MLAG pair's peer link.
fn ipl(sw: &Switch, mlag: bool, id: u16) -> bool {
    sw.mlag
        .as_ref()
        .is_some_and(|m| !mlag && m.ipl_port_channel == id)
}

/// A bundle as its switch's OS calls it: Onyx `MLAG port-channel 1`, OS10 `VLT
/// port-channel 1` (`vlt-port-channel 1` in `interface port-channel1`), else `port-channel 1`.
fn bundle_name(os: Os, mlag: bool, id: u16) -> String {
    match mlag {
        true => format!("{} port-channel {id}", os.target().words().pair),
        false => format!("port-channel {id}"),
    }
}

/// The interface of a bundle in the view: an OS10 VLT port-channel is a port-channel.
fn bundle_iface(os: Os, mlag: bool, id: u16) -> Iface {
    match mlag && !os.target().words().pair_bundle_is_port_channel {
        true => Iface::MlagPortChannel(id),
        false => Iface::PortChannel(id),
    }
}

/// A member's bundle: `port-channel 100 (MLAG peer link)`, `MLAG port-channel 1`; on OS10
/// the peer link is the `VLTi` (its ports are no port-channel's).
fn bundle(sw: &Switch, b: Bundle) -> Cell {
    let words = sw.os().target().words();
    match (ipl(sw, b.mlag, b.id), words.peer_link_ports) {
        (true, false) => format!("port-channel {} ({})", b.id, words.peer_link),
        (true, true) => words.peer_link.to_string(),
        (false, _) => bundle_name(sw.os(), b.mlag, b.id),
    }
    .into()
}

/// The switch's release: Onyx `3.10.4606`, OS10 `10.5.3.2`.
fn release(sw: &Switch) -> Cell {
    let release = sw.os().target().release(sw);
    release.map_or_else(|| Cell::from("—"), Cell::from)
}

fn mlag_peer(sw: &Switch) -> Cell {
    match sw.mlag.as_ref().and_then(|m| m.peer.as_ref()) {
        Some(p) => Cell::switch(p.as_str(), p.to_string()),
        None if sw.mlag.is_some() => "outside this fabric".into(),
        None => "—".into(),
    }
}

/// What a cable between switches is, from one end's settings.
fn cable_kind(fabric: &Fabric, switch: &str, port: Port) -> String {
    let s = fabric
        .switches
        .get(switch)
        .and_then(|sw| Some((sw, sw.ports.get(&port)?)));
    match s {
        Some((_, s)) if s.address.is_some() => "routed".into(),
        Some((sw, s)) => match s.bundle {
            Some(b) => bundle(sw, b).text,
            None => "L2".into(),
        },
        None => String::new(),
    }
}

fn list<T: ToString>(items: impl Iterator<Item = T>) -> String {
    items.map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
}
