//! What each page says, as blocks ([`super::markup`] prints them): the fabric's page
//! (switches, cables, host groups, audit findings) and one page per switch (its facts, port
//! map, port-channels, VLANs, BGP). Every value comes from the validated fabric; a value the
//! fabric leaves to Onyx is shown as Onyx's default, marked as such.

use super::markup::{Block, Cell, Inline, Page, Table};
use super::topology::{Topology, port_list};
use crate::audit::{Finding, report::Location};
use crate::fabric::{Bundle, Fabric, Lacp, Peer, PortSettings, Switch};
use crate::types::{Ecn, EcnMode, EcnThresholds, Port, SwitchportMode, format_vlan_run, vlan_runs};

/// Onyx's defaults where a port sets nothing (Ethernet Interface Commands: MTU 1500; QoS
/// Commands: trust L2; a switchport is in access mode on VLAN 1).
const DEFAULT_MTU: &str = "1500";
const DEFAULT_TRUST: &str = "L2";
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
    findings: &[(Finding, Option<Location>)],
    mermaid: Option<String>,
) -> Vec<Block> {
    let cables = topology
        .edges
        .iter()
        .filter(|e| topology.nodes[e.to].switch.is_some())
        .map(|e| e.cables.len())
        .sum::<usize>();
    let hosts: usize = topology.groups.iter().map(|g| g.hosts.len()).sum();
    let mut blocks = vec![
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
    ];
    if let Some(m) = mermaid {
        blocks.push(Block::Mermaid(m));
    }
    blocks.push(Block::Picture);
    blocks.push(para(vec![text(
        "Colours: spine, leaf, MLAG pair, switch without a role, hosts; a dashed line is an MLAG peer link. \
         Hosts whose names differ only in their trailing number and that are cabled to the same switches are one node. \
         A line between switches is labelled with the upper switch's ports, then (after ↔) the lower one's; \
         a line to hosts with the switch's ports, then (after ·) the hosts' ports.",
    )]));

    blocks.push(Block::Heading(2, "Switches".into(), None));
    let mut rows = Vec::new();
    for (n, sw) in &fabric.switches {
        let name = n.to_string();
        let cabled = sw.ports.values().filter(|s| s.peer.is_some()).count();
        rows.push(vec![
            Cell::switch(&name, name.clone()),
            sw.model.name().into(),
            release(sw),
            sw.role.map_or("—".into(), |r| r.to_string()).into(),
            sw.routing
                .as_ref()
                .map_or("—".into(), |r| r.asn.to_string())
                .into(),
            sw.loopback.map_or("—".into(), |a| a.to_string()).into(),
            mlag_peer(sw),
            cabled.to_string().into(),
        ]);
    }
    blocks.push(Block::Table(Table {
        head: vec![
            "Switch",
            "Model",
            "Onyx",
            "Role",
            "AS",
            "Loopback",
            "MLAG peer",
            "Cabled ports",
        ],
        rows,
    }));

    let links: Vec<_> = topology
        .edges
        .iter()
        .filter(|e| topology.nodes[e.to].switch.is_some())
        .collect();
    if !links.is_empty() {
        blocks.push(Block::Heading(2, "Cables between switches".into(), None));
        let mut rows = Vec::new();
        for e in links {
            for ((a, pa), (b, pb)) in &e.cables {
                rows.push(vec![
                    Cell::switch(a, a.clone()),
                    pa.as_str().into(),
                    Cell::switch(b, b.clone()),
                    pb.as_str().into(),
                    cable_kind(fabric, a, pa).into(),
                ]);
            }
        }
        blocks.push(Block::Table(Table {
            head: vec!["Switch", "Port", "Switch", "Port", "Kind"],
            rows,
        }));
    }

    if !topology.groups.is_empty() {
        blocks.push(Block::Heading(2, "Hosts".into(), None));
        let mut rows = Vec::new();
        for g in &topology.groups {
            for e in topology.edges.iter().filter(|e| e.to == g.node) {
                let switch = &topology.nodes[e.from].name;
                let mut ports: Vec<Port> = e
                    .cables
                    .iter()
                    .filter_map(|((_, p), _)| p.parse().ok())
                    .collect();
                ports.sort();
                rows.push(vec![
                    topology.nodes[g.node].name.clone().into(),
                    g.hosts.len().to_string().into(),
                    Cell::switch(switch, switch.clone()),
                    port_list(&ports).into(),
                ]);
            }
        }
        blocks.push(Block::Table(Table {
            head: vec!["Hosts", "Count", "Switch", "Ports"],
            rows,
        }));
    }

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
    blocks
}

/// A switch's page: its facts, then its port map, port-channels, VLANs and BGP.
pub fn switch(sw: &Switch) -> Vec<Block> {
    let name = sw.hostname.to_string();
    let mut blocks = vec![Block::Heading(2, name.clone(), Some(Page::Switch(name)))];
    let mut facts: Vec<(&str, Cell)> = vec![
        ("Model", sw.model.name().into()),
        ("Onyx", release(sw)),
        ("Role", sw.role.map_or("—".into(), |r| r.to_string()).into()),
    ];
    if let Some(r) = &sw.routing {
        facts.push(("AS", r.asn.to_string().into()));
        facts.push(("Router-id", r.router_id.to_string().into()));
    }
    if let Some(lo) = sw.loopback {
        facts.push(("Loopback 0", format!("{lo}/32").into()));
    }
    if let Some(m) = &sw.mlag {
        facts.push(("MLAG peer", mlag_peer(sw)));
        let mut ipl = format!("port-channel {} on VLAN {}", m.ipl_port_channel, m.ipl_vlan);
        if let Some(a) = m.address {
            ipl.push_str(&format!(", {a}"));
        }
        ipl.push_str(&format!(", peer {}", m.peer_address));
        facts.push(("MLAG peer link", ipl.into()));
        facts.push(("MLAG system MAC", m.system_mac.to_string().into()));
        if let Some((domain, vip)) = &m.vip {
            facts.push(("MLAG domain", format!("{domain}, VIP {vip}").into()));
        }
    }
    if let Some(mgmt) = &sw.mgmt {
        facts.push((
            "Management",
            match (mgmt.port, &mgmt.user) {
                (Some(port), Some(user)) => format!("{}:{port} (user {user})", mgmt.host),
                (Some(port), None) => format!("{}:{port}", mgmt.host),
                (None, Some(user)) => format!("{} (user {user})", mgmt.host),
                (None, None) => mgmt.host.clone(),
            }
            .into(),
        ));
    }
    facts.push(("LLDP", if sw.lldp { "on" } else { "off" }.into()));
    if let Some(roce) = sw.qos.roce {
        facts.push(("RoCE mode", roce.to_string().into()));
    }
    for (pool_name, p) in &sw.qos.pools {
        let mut v = format!("{pool_name}: {}", p.kind);
        if let Some(m) = p.memory {
            v.push_str(&format!(", {m}% of memory"));
        }
        if !p.priorities.is_empty() {
            v.push_str(&format!(", priorities {}", list(p.priorities.iter())));
        }
        facts.push(("Traffic pool", v.into()));
    }
    if let Some(pfc) = &sw.qos.pfc {
        let mut v = if pfc.enabled { "enabled" } else { "disabled" }.to_string();
        if !pfc.priorities.is_empty() {
            v.push_str(&format!(", priorities {}", list(pfc.priorities.iter())));
        }
        facts.push(("PFC", v.into()));
    }
    if let Some(stp) = sw.stp {
        facts.push(("Spanning tree", if stp { "on" } else { "off" }.into()));
    }
    if !sw.splits.is_empty() {
        let splits: Vec<String> = crate::types::compress(sw.splits.iter().map(|(p, s)| (*p, s)))
            .into_iter()
            .map(|(a, b, s)| format!("{} ({}-way)", crate::types::format_range(a, b), s.ways()))
            .collect();
        facts.push(("Split ports", splits.join(", ").into()));
    }
    blocks.push(Block::Table(Table {
        head: vec!["Setting", "Value"],
        rows: facts.into_iter().map(|(k, v)| vec![k.into(), v]).collect(),
    }));

    blocks.push(Block::Heading(3, "Ports".into(), None));
    blocks.push(para(vec![text(
        "Consecutive ports with the same settings and no peer share a row. Values in italics are Onyx's defaults: the fabric sets none.",
    )]));
    blocks.push(Block::Table(port_map(sw)));

    if !sw.bundles.is_empty() {
        blocks.push(Block::Heading(3, "Port-channels".into(), None));
        let mut rows = Vec::new();
        for ((mlag, id), s) in &sw.bundles {
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
            let kind = if *mlag {
                "MLAG port-channel"
            } else {
                "port-channel"
            };
            let mut row = vec![
                format!("{kind} {id}").into(),
                port_list(&members).into(),
                lacp.into(),
            ];
            row.extend(l2_and_qos(s));
            rows.push(row);
        }
        blocks.push(Block::Table(Table {
            head: vec![
                "Bundle", "Members", "LACP", "MTU", "VLANs", "Trust", "PFC", "ECN", "ETS",
            ],
            rows,
        }));
    }

    if !sw.vlans.is_empty() {
        blocks.push(Block::Heading(3, "VLANs".into(), None));
        let rows = sw
            .vlans
            .iter()
            .map(|(id, vname)| {
                vec![
                    id.to_string().into(),
                    vname.clone().unwrap_or_default().into(),
                    sw.gateways
                        .get(id)
                        .map_or(String::new(), |g| g.to_string())
                        .into(),
                ]
            })
            .collect();
        blocks.push(Block::Table(Table {
            head: vec!["VLAN", "Name", "Gateway"],
            rows,
        }));
    }

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
        let rows = r
            .neighbors
            .iter()
            .map(|(addr, n)| {
                let over = match &n.link {
                    Some((far, port)) => Cell::switch(far.as_str(), format!("{port} → {far}")),
                    None => "".into(),
                };
                vec![addr.to_string().into(), n.asn.to_string().into(), over]
            })
            .collect();
        blocks.push(Block::Table(Table {
            head: vec!["Neighbor", "AS", "Over"],
            rows,
        }));
    }
    blocks
}

/// One row per port, consecutive unconnected ports with equal settings as one range.
fn port_map(sw: &Switch) -> Table {
    // A description is shown where it says more than the peer's name.
    let descriptions = sw.ports.values().any(|s| {
        s.description.is_some() && s.description != s.peer.as_ref().map(Peer::description)
    });
    let rows: Vec<(Port, Vec<Cell>)> = sw
        .ports
        .iter()
        .map(|(port, s)| {
            let speed = s
                .speed
                .map(|v| Cell::from(v.to_string()))
                .or_else(|| {
                    let split = port.sub.and(sw.splits.get(&port.parent()).copied());
                    sw.model
                        .native_speed(port.parent(), split)
                        .map(|v| Cell::onyx_default(v.to_string()))
                })
                .unwrap_or_default();
            let peer = match &s.peer {
                Some(Peer::Switch { switch, port }) => {
                    Cell::switch(switch.as_str(), format!("{switch} {port}"))
                }
                Some(p @ Peer::Host { .. }) => p.description().replace(':', " ").into(),
                None => "".into(),
            };
            // A bundle member's VLANs and QoS are its bundle's.
            let l2 = s
                .bundle
                .and_then(|b| sw.bundles.get(&(b.mlag, b.id)))
                .unwrap_or(s);
            let mut row = vec![peer, s.profile.clone().unwrap_or_default().into(), speed];
            let mut settings = l2_and_qos(l2);
            // The member's own MTU, which a bundle's members share.
            settings[0] = mtu(s);
            row.extend(settings);
            row.push(s.bundle.map_or(Cell::default(), |b| bundle(sw, b)));
            row.push(s.address.map_or(String::new(), |a| a.to_string()).into());
            row.push(if s.shutdown {
                "down".into()
            } else {
                Cell::onyx_default("up")
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
        let mut cells = vec![Cell::from(crate::types::format_range(a, b))];
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

/// MTU, VLANs, trust, PFC, ECN and ETS of a port or a bundle.
fn l2_and_qos(s: &PortSettings) -> Vec<Cell> {
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
        _ => Cell::onyx_default(DEFAULT_VLANS),
    };
    let ecn: Vec<String> = s
        .ecn
        .iter()
        .map(|(tc, e)| format!("TC{tc} {}", ecn(e)))
        .collect();
    let ets: Vec<String> = s.ets.iter().map(|(tc, e)| format!("TC{tc} {e}")).collect();
    vec![
        mtu(s),
        vlans,
        s.trust
            .map_or(Cell::onyx_default(DEFAULT_TRUST), |t| t.to_string().into()),
        if s.pfc {
            "on".into()
        } else {
            Cell::onyx_default("off")
        },
        ecn.join("; ").into(),
        ets.join("; ").into(),
    ]
}

fn mtu(s: &PortSettings) -> Cell {
    s.mtu
        .map_or(Cell::onyx_default(DEFAULT_MTU), |m| m.to_string().into())
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

/// A member's bundle: `port-channel 100 (MLAG peer link)`, `MLAG port-channel 1`.
fn bundle(sw: &Switch, b: Bundle) -> Cell {
    let ipl = sw
        .mlag
        .as_ref()
        .is_some_and(|m| !b.mlag && m.ipl_port_channel == b.id);
    match (b.mlag, ipl) {
        (true, _) => format!("MLAG port-channel {}", b.id),
        (false, true) => format!("port-channel {} (MLAG peer link)", b.id),
        (false, false) => format!("port-channel {}", b.id),
    }
    .into()
}

fn release(sw: &Switch) -> Cell {
    sw.release
        .map_or_else(|| Cell::from("—"), |r| r.to_string().into())
}

fn mlag_peer(sw: &Switch) -> Cell {
    match sw.mlag.as_ref().and_then(|m| m.peer.as_ref()) {
        Some(p) => Cell::switch(p.as_str(), p.to_string()),
        None if sw.mlag.is_some() => "outside this fabric".into(),
        None => "—".into(),
    }
}

/// What a cable between switches is, from one end's settings.
fn cable_kind(fabric: &Fabric, switch: &str, port: &str) -> String {
    let s = fabric
        .switches
        .iter()
        .find(|(n, _)| n.as_str() == switch)
        .and_then(|(_, sw)| Some((sw, sw.ports.get(&port.parse().ok()?)?)));
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
