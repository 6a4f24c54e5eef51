//! A configuration as the plan compares it: each top-level item a [`Node`] (a line, or a
//! block header with its lines), with the field it sets ([`Field`]) and what tells it from
//! others of its field. Lines are spelled as typed, which is as `show running-configuration`
//! prints them (`render.rs` and `templates/os10/lines.j2`), in the printed order.

use super::super::names;
use super::super::{
    AddressFamily, Bgp, ClassMap, Config, Iface, Interface, Kind, LacpMode, Peer, PolicyClass,
    PolicyMap, QosKind, QosMap, SwitchportMode, SystemQos, TrustKind, TrustMap, Vlt, Wred,
};
use super::rules::Field;

/// One line or block of a configuration, as the plan compares them: the same field and key
/// on both sides is the same thing (changed when its text differs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Node {
    pub field: Field,
    /// What tells it from others of its field: a name, an address, a colour; empty for a
    /// line that appears once in its block.
    pub key: String,
    /// The line as typed (a block's header).
    pub line: String,
    pub block: bool,
    pub kids: Vec<Node>,
}

fn leaf(field: Field, line: String) -> Node {
    Node {
        field,
        key: String::new(),
        line,
        block: false,
        kids: Vec::new(),
    }
}

fn keyed(field: Field, key: String, line: String) -> Node {
    Node {
        field,
        key,
        line,
        block: false,
        kids: Vec::new(),
    }
}

fn block(field: Field, key: String, line: String, kids: Vec<Node>) -> Node {
    Node {
        field,
        key,
        line,
        block: true,
        kids,
    }
}

/// A description as typed, which is as printed.
fn described(d: &str) -> String {
    format!("description {}", super::super::render::described(d))
}

fn mac(m: crate::types::Mac) -> String {
    let b = m.0;
    format!(
        "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
        b[0], b[1], b[2], b[3], b[4], b[5]
    )
}

/// An interface's lines in printed order (`render::interface_lines`).
pub(super) fn interface_nodes(e: &Interface) -> Vec<Node> {
    let mut l = Vec::with_capacity(16);
    port_nodes(&mut l, e);
    qos_nodes(&mut l, e);
    stp_nodes(&mut l, e);
    l
}

/// The line `s` of field `f` at the end of `l`, if there is one.
fn push_line(l: &mut Vec<Node>, f: Field, s: Option<String>) {
    if let Some(s) = s {
        l.push(leaf(f, s));
    }
}

/// An interface's port and layer-2/3 lines: description to address.
fn port_nodes(l: &mut Vec<Node>, e: &Interface) {
    let mut push = |f: Field, s: Option<String>| push_line(l, f, s);
    push(Field::Description, e.description.as_deref().map(described));
    push(
        Field::Shutdown,
        e.shutdown
            .map(|s| if s { "shutdown" } else { "no shutdown" }.to_string()),
    );
    push(
        Field::ChannelGroup,
        e.channel_group.map(|g| match g.mode {
            LacpMode::On => format!("channel-group {}", g.id),
            LacpMode::Active => format!("channel-group {} mode active", g.id),
            LacpMode::Passive => format!("channel-group {} mode passive", g.id),
        }),
    );
    push(Field::Routed, e.routed.then(|| "no switchport".to_string()));
    push(
        Field::SwitchportMode,
        e.mode.map(|m| match m {
            SwitchportMode::Access => "switchport mode access".to_string(),
            SwitchportMode::Trunk => "switchport mode trunk".to_string(),
        }),
    );
    push(
        Field::AccessVlan,
        e.access_vlan.map(|v| format!("switchport access vlan {v}")),
    );
    push(
        Field::TrunkAllowed,
        e.trunk_allowed
            .as_ref()
            .map(|v| format!("switchport trunk allowed vlan {}", names::format_vlans(v))),
    );
    push(Field::Mtu, e.mtu.map(|m| format!("mtu {m}")));
    push(Field::Address, e.address.map(|a| format!("ip address {a}")));
}

/// An interface's flow control and QoS lines: flowcontrol to trust-map.
fn qos_nodes(l: &mut Vec<Node>, e: &Interface) {
    let mut push = |f: Field, s: Option<String>| push_line(l, f, s);
    let on = |b: bool| if b { "on" } else { "off" };
    push(
        Field::FlowcontrolRx,
        e.flowcontrol_rx
            .map(|b| format!("flowcontrol receive {}", on(b))),
    );
    push(
        Field::FlowcontrolTx,
        e.flowcontrol_tx
            .map(|b| format!("flowcontrol transmit {}", on(b))),
    );
    push(
        Field::Pfc,
        e.pfc.then(|| "priority-flow-control mode on".to_string()),
    );
    push(
        Field::PolicyIn,
        e.policy_in
            .as_ref()
            .map(|n| format!("service-policy input type network-qos {n}")),
    );
    push(
        Field::PolicyOut,
        e.policy_out
            .as_ref()
            .map(|n| format!("service-policy output type queuing {n}")),
    );
    push(Field::Ets, e.ets.then(|| "ets mode on".to_string()));
    push(
        Field::QosMapUse,
        e.qos_map
            .as_ref()
            .map(|n| format!("qos-map traffic-class {n}")),
    );
    push(
        Field::TrustMapUse,
        e.trust_map
            .as_ref()
            .map(|(k, n)| format!("trust-map {} {n}", k.word())),
    );
}

/// An interface's spanning-tree lines, then its VLT port-channel.
fn stp_nodes(l: &mut Vec<Node>, e: &Interface) {
    let mut push = |f: Field, s: Option<String>| push_line(l, f, s);
    push(
        Field::StpBpduguard,
        e.bpduguard.map(|on| {
            format!(
                "spanning-tree bpduguard {}",
                if on { "enable" } else { "disable" }
            )
        }),
    );
    push(
        Field::StpGuard,
        e.stp_guard.map(|g| format!("spanning-tree guard {g}")),
    );
    push(
        Field::StpPortType,
        e.stp_type.map(|t| format!("spanning-tree port type {t}")),
    );
    push(
        Field::VltPortChannel,
        e.vlt_port_channel.map(|n| format!("vlt-port-channel {n}")),
    );
}

fn class_nodes(c: &PolicyClass) -> Node {
    let mut l = Vec::new();
    if let Some(b) = c.bandwidth {
        l.push(leaf(Field::Bandwidth, format!("bandwidth percent {b}")));
    }
    if c.pause {
        l.push(leaf(Field::Pause, "pause".to_string()));
    }
    if let Some(r) = c.pfc_cos {
        l.push(leaf(Field::PfcCos, format!("pfc-cos {r}")));
    }
    if c.priority {
        l.push(leaf(Field::Priority, "priority".to_string()));
    }
    if let Some(w) = &c.random_detect {
        l.push(leaf(Field::RandomDetect, format!("random-detect {w}")));
    }
    block(Field::Class, c.name.clone(), format!("class {}", c.name), l)
}

fn af_nodes(field: Field, af: &AddressFamily) -> Node {
    let nets = af
        .networks
        .iter()
        .map(|n| keyed(Field::Network, n.to_string(), format!("network {n}")))
        .collect();
    block(
        field,
        String::new(),
        "address-family ipv4 unicast".to_string(),
        nets,
    )
}

fn peer_nodes(field: Field, key: String, head: String, p: &Peer) -> Node {
    let mut l = Vec::new();
    if p.bfd {
        l.push(leaf(Field::PeerBfd, "bfd".to_string()));
    }
    if let Some(d) = &p.description {
        l.push(leaf(Field::PeerDescription, described(d)));
    }
    if let Some(t) = &p.inherit {
        l.push(leaf(Field::Inherit, format!("inherit template {t}")));
    }
    if let Some(n) = p.remote_as {
        l.push(leaf(Field::RemoteAs, format!("remote-as {n}")));
    }
    if let Some((k, h)) = p.timers {
        l.push(leaf(Field::PeerTimers, format!("timers {k} {h}")));
    }
    if let Some(s) = p.shutdown {
        l.push(leaf(
            Field::PeerShutdown,
            if s { "shutdown" } else { "no shutdown" }.to_string(),
        ));
    }
    if let Some(af) = &p.ipv4 {
        // A neighbor's address family holds no modeled line: only its presence is planned.
        let mut n = af_nodes(Field::PeerAddressFamily, af);
        n.kids.clear();
        l.push(n);
    }
    block(field, key, head, l)
}

/// Verbatim lines after the same modeled line as before: a line the model does not know stays
/// after the modeled line it followed, or the one before that if it went (OS10 prints a
/// block's lines in one order, so they come back where the switch prints them).
pub(super) fn reanchor(
    extras: &super::super::Extras,
    old: &[Node],
    new: &[Node],
) -> super::super::Extras {
    let mut out: super::super::Extras = extras
        .iter()
        .map(|(k, t)| {
            let at = (0..(*k).min(old.len()))
                .rev()
                .find_map(|j| new.iter().position(|n| same(n, &old[j])))
                .map_or(0, |p| p + 1);
            (at, t.clone())
        })
        .collect();
    out.sort_by_key(|(k, _)| *k);
    out
}

/// `after`'s verbatim lines, which it has from `before`, where they go after its change.
pub fn reanchored(before: &Interface, after: &Interface) -> super::super::Extras {
    if before.extras.is_empty() {
        return Vec::new();
    }
    reanchor(
        &before.extras,
        &interface_nodes(before),
        &interface_nodes(after),
    )
}

/// The configuration's top-level items as nodes, by kind, in printed order; of its
/// interfaces, those `keep` says.
pub(super) fn nodes(c: &Config, keep: impl Fn(&Iface) -> bool) -> Vec<(Kind, Node)> {
    let mut out = settings(c);
    for w in &c.wred {
        out.push((Kind::Wred, wred_node(w)));
    }
    for m in &c.class_maps {
        out.push((Kind::ClassMap, class_map_node(m)));
    }
    for m in &c.trust_maps {
        out.push((Kind::TrustMap, trust_map_node(m)));
    }
    for m in &c.qos_maps {
        out.push((Kind::QosMap, qos_map_node(m)));
    }
    for m in &c.policy_maps {
        out.push((Kind::PolicyMap, policy_map_node(m)));
    }
    if let Some(s) = &c.system_qos {
        out.push((Kind::SystemQos, system_qos_node(s)));
    }
    for (g, pg) in &c.port_groups {
        let l = pg
            .mode
            .iter()
            .map(|m| leaf(Field::PortGroupMode, format!("mode Eth {m}")))
            .collect();
        out.push((
            Kind::PortGroup,
            block(
                Field::PortGroup,
                g.to_string(),
                format!("port-group {g}"),
                l,
            ),
        ));
    }
    if let Some(v) = &c.vlt {
        out.push((Kind::Vlt, vlt_node(v)));
    }
    for (i, e) in c.interfaces.iter().filter(|(i, _)| keep(i)) {
        out.push((
            Kind::Interface,
            block(
                Field::Interface,
                i.to_string(),
                format!("interface {i}"),
                interface_nodes(e),
            ),
        ));
    }
    if let Some(b) = &c.bgp {
        out.push((Kind::Bgp, bgp_node(b)));
    }
    out
}

/// The single-line items at the top: hostname, DCBX, breakouts, BFD.
fn settings(c: &Config) -> Vec<(Kind, Node)> {
    let mut out = Vec::new();
    if let Some(h) = &c.hostname {
        out.push((
            Kind::Hostname,
            leaf(Field::Hostname, format!("hostname {h}")),
        ));
    }
    if c.dcbx {
        out.push((Kind::Dcbx, leaf(Field::Dcbx, "dcbx enable".to_string())));
    }
    for (e, map) in &c.breakouts {
        out.push((
            Kind::Breakout,
            keyed(
                Field::Breakout,
                e.to_string(),
                format!("interface breakout {e} map {map}"),
            ),
        ));
    }
    if c.bfd {
        out.push((Kind::Bfd, leaf(Field::BfdEnable, "bfd enable".to_string())));
    }
    if let Some(b) = c.bfd_interval {
        out.push((
            Kind::Bfd,
            leaf(
                Field::BfdInterval,
                format!(
                    "bfd interval {} min_rx {} multiplier {} role {}",
                    b.interval,
                    b.min_rx,
                    b.multiplier,
                    if b.passive { "passive" } else { "active" }
                ),
            ),
        ));
    }
    out
}

/// A `wred` profile: its colours' thresholds, then ECN.
fn wred_node(w: &Wred) -> Node {
    let mut l: Vec<Node> = w
        .colors
        .iter()
        .map(|(color, t)| {
            keyed(
                Field::WredColor,
                color.word().to_string(),
                format!(
                    "random-detect color {} minimum-threshold {} maximum-threshold {} drop-probability {}",
                    color.word(),
                    t.min,
                    t.max,
                    t.drop
                ),
            )
        })
        .collect();
    if w.ecn {
        l.push(leaf(Field::WredEcn, "random-detect ecn".to_string()));
    }
    block(Field::Wred, w.name.clone(), format!("wred {}", w.name), l)
}

/// A class-map and its `match` line.
fn class_map_node(m: &ClassMap) -> Node {
    let (f, what) = match m.kind {
        QosKind::NetworkQos => (Field::ClassMapNetworkQos, "qos-group"),
        QosKind::Queuing => (Field::ClassMapQueuing, "queue"),
    };
    let l = m
        .matches
        .map(|r| leaf(Field::Match, format!("match {what} {r}")))
        .into_iter()
        .collect();
    block(
        f,
        m.name.clone(),
        format!("class-map type {} {}", m.kind.word(), m.name),
        l,
    )
}

/// A trust map and its entries, by qos-group.
fn trust_map_node(m: &TrustMap) -> Node {
    let f = match m.kind {
        TrustKind::Dot1p => Field::TrustMapDot1p,
        TrustKind::Dscp => Field::TrustMapDscp,
    };
    let l = m
        .groups
        .iter()
        .map(|(g, v)| {
            keyed(
                Field::TrustGroup,
                g.to_string(),
                format!("qos-group {g} {} {v}", m.kind.word()),
            )
        })
        .collect();
    block(
        f,
        m.name.clone(),
        format!("trust {}-map {}", m.kind.word(), m.name),
        l,
    )
}

/// A qos-map and its entries, by queue.
fn qos_map_node(m: &QosMap) -> Node {
    let l = m
        .queues
        .iter()
        .map(|(q, v)| {
            keyed(
                Field::Queue,
                q.to_string(),
                format!("queue {q} qos-group {v}"),
            )
        })
        .collect();
    block(
        Field::QosMap,
        m.name.clone(),
        format!("qos-map traffic-class {}", m.name),
        l,
    )
}

/// A policy-map and its classes.
fn policy_map_node(m: &PolicyMap) -> Node {
    let f = match m.kind {
        QosKind::NetworkQos => Field::PolicyMapNetworkQos,
        QosKind::Queuing => Field::PolicyMapQueuing,
    };
    let l = m.classes.iter().map(class_nodes).collect();
    block(
        f,
        m.name.clone(),
        format!("policy-map type {} {}", m.kind.word(), m.name),
        l,
    )
}

/// `system qos`: its trust map, ETS and policies.
fn system_qos_node(s: &SystemQos) -> Node {
    let mut l = Vec::new();
    if let Some((k, n)) = &s.trust_map {
        l.push(leaf(
            Field::SystemTrustMap,
            format!("trust-map {} {n}", k.word()),
        ));
    }
    if s.ets {
        l.push(leaf(Field::SystemEts, "ets mode on".to_string()));
    }
    if let Some(n) = &s.policy_in {
        l.push(leaf(
            Field::SystemPolicyIn,
            format!("service-policy input type network-qos {n}"),
        ));
    }
    if let Some(n) = &s.policy_out {
        l.push(leaf(
            Field::SystemPolicyOut,
            format!("service-policy output type queuing {n}"),
        ));
    }
    block(Field::SystemQos, String::new(), "system qos".to_string(), l)
}

/// The `vlt-domain` block.
fn vlt_node(v: &Vlt) -> Node {
    let mut l = Vec::new();
    if let Some(a) = v.backup {
        l.push(leaf(Field::VltBackup, format!("backup destination {a}")));
    }
    if !v.discovery.is_empty() {
        l.push(leaf(
            Field::VltDiscovery,
            format!("discovery-interface {}", names::format_ports(&v.discovery)),
        ));
    }
    if v.peer_routing {
        l.push(leaf(Field::VltPeerRouting, "peer-routing".to_string()));
    }
    if let Some(p) = v.primary_priority {
        l.push(leaf(Field::VltPriority, format!("primary-priority {p}")));
    }
    if let Some(m) = v.vlt_mac {
        l.push(leaf(Field::VltMac, format!("vlt-mac {}", mac(m))));
    }
    block(
        Field::Vlt,
        v.id.to_string(),
        format!("vlt-domain {}", v.id),
        l,
    )
}

/// The `router bgp` block: its own lines, the address family, templates, neighbors.
fn bgp_node(b: &Bgp) -> Node {
    let mut l = Vec::new();
    if b.multipath_relax {
        l.push(leaf(
            Field::MultipathRelax,
            "bestpath as-path multipath-relax".to_string(),
        ));
    }
    if !b.fast_external_fallover {
        l.push(leaf(
            Field::FastExternalFallover,
            "no fast-external-fallover".to_string(),
        ));
    }
    if let Some(n) = b.max_paths_ebgp {
        l.push(leaf(Field::MaxPathsEbgp, format!("maximum-paths ebgp {n}")));
    }
    if let Some(n) = b.max_paths_ibgp {
        l.push(leaf(Field::MaxPathsIbgp, format!("maximum-paths ibgp {n}")));
    }
    if let Some(a) = b.router_id {
        l.push(leaf(Field::RouterId, format!("router-id {a}")));
    }
    if let Some(af) = &b.ipv4 {
        l.push(af_nodes(Field::AddressFamily, af));
    }
    for (n, p) in &b.templates {
        l.push(peer_nodes(
            Field::Template,
            n.clone(),
            format!("template {n}"),
            p,
        ));
    }
    for (a, p) in &b.neighbors {
        l.push(peer_nodes(
            Field::Neighbor,
            a.to_string(),
            format!("neighbor {a}"),
            p,
        ));
    }
    block(
        Field::Bgp,
        b.asn.to_string(),
        format!("router bgp {}", b.asn),
        l,
    )
}

/// The same line or block on both sides.
pub(super) fn same(a: &Node, b: &Node) -> bool {
    a.field == b.field && a.key == b.key
}
