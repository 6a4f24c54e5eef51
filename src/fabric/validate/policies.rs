//! The port policies a fabric (or one switch) sets: what a host-facing port gets
//! (`host_ports: edge | keep`) and what a port nothing uses gets (`unused_ports: shutdown |
//! keep`); and the host-port default, put on the resolved ports once peers, routed ports and
//! bundles are known (before the bundles take their members' settings).
//!
//! Why these defaults: a port cabled to a server should start forwarding at once and shut
//! itself when a switch (a BPDU) appears on it, and a port nothing is cabled to should be
//! down, as switch hardening guides have it (DISA's STIG for Dell OS10 switches: BPDU guard on
//! user-facing ports, V-269956; unused ports disabled, V-269966) and as Dell's AzureStack TOR
//! configuration does (`tests/fixtures/corpus/os10/`: every host port `spanning-tree port
//! type edge` and `spanning-tree bpduguard enable`, every unused port `shutdown`).

use std::collections::BTreeMap;

use super::super::Peer;
use super::super::raw::{RawFabric, RawSwitch, Sp};
use super::{Cx, Pending};
use crate::types::{StpPortType, choose};

/// One switch's port policies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Policies {
    /// `host_ports: edge`: a host's port is an edge port with BPDU guard unless its settings
    /// say otherwise.
    pub(crate) host_edge: bool,
    /// `unused_ports: shutdown`: a port no entry, link or peer names is shut.
    pub(crate) unused_shutdown: bool,
}

impl Default for Policies {
    fn default() -> Self {
        Policies {
            host_edge: true,
            unused_shutdown: true,
        }
    }
}

/// The switch's policies: its own keys, else the fabric's, else the defaults (`edge`,
/// `shutdown`).
pub(crate) fn policies(cx: &mut Cx, raw: &RawFabric, sw: &RawSwitch) -> Policies {
    let mut word = |v: Option<&Sp<String>>, yes: &'static str, what: &str| {
        v.and_then(|v| cx.word(v, |s| choose(s, &[(yes, true), ("keep", false)], what)))
    };
    let d = Policies::default();
    Policies {
        host_edge: word(
            sw.host_ports.as_ref().or(raw.host_ports.as_ref()),
            "edge",
            "host port policy",
        )
        .unwrap_or(d.host_edge),
        unused_shutdown: word(
            sw.unused_ports.as_ref().or(raw.unused_ports.as_ref()),
            "shutdown",
            "unused port policy",
        )
        .unwrap_or(d.unused_shutdown),
    }
}

/// `host_ports: edge`: every port whose peer is a host gets edge and BPDU guard where its
/// settings leave them open. Not a routed port (no spanning tree there), not a member of the
/// MLAG peer link, nor on a switch with spanning tree off. A bundle's members pass it to the
/// bundle, which prints it: a bundle one of whose members faces a host faces that host on
/// every member (a member without a peer written takes it too).
pub(crate) fn host_ports(pending: &mut BTreeMap<String, Pending>) {
    for p in pending.values_mut() {
        if !p.policies.host_edge || p.switch.stp == Some(false) {
            continue;
        }
        let ipl = p.switch.mlag.as_ref().map(|m| m.ipl_port_channel);
        let host_bundles: std::collections::BTreeSet<(bool, u16)> = p
            .switch
            .ports
            .values()
            .filter(|s| matches!(s.peer, Some(Peer::Host { .. })))
            .filter_map(|s| s.bundle.map(|b| (b.mlag, b.id)))
            .collect();
        for s in p.switch.ports.values_mut() {
            let host = matches!(s.peer, Some(Peer::Host { .. }))
                || s.bundle
                    .is_some_and(|b| host_bundles.contains(&(b.mlag, b.id)));
            let ipl_member = s.bundle.is_some_and(|b| !b.mlag && Some(b.id) == ipl);
            if host && s.address.is_none() && !ipl_member {
                s.stp.port_type.get_or_insert(StpPortType::Edge);
                s.stp.bpduguard.get_or_insert(true);
            }
        }
    }
}
