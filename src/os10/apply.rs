//! Commands → state: each block's `apply` sets what one line of the grammar says. A printed
//! configuration holds each setting once, so the reader applies each line to an empty block;
//! typed at the CLI (the lab, a push), a line overwrites the setting it names.

use super::command::{ClassCmd, IfaceCmd, PeerCmd, SystemQosCmd, VltCmd, WredCmd};
use super::{Interface, Peer, PolicyClass, SystemQos, Vlt, Wred};
use crate::types::StpGuard;

impl Interface {
    pub fn apply(&mut self, c: &IfaceCmd) {
        match c {
            IfaceCmd::Description(d) => self.description = Some(d.clone()),
            IfaceCmd::Shutdown(s) => self.shutdown = Some(*s),
            IfaceCmd::ChannelGroup(g) => self.channel_group = Some(*g),
            IfaceCmd::Routed => self.routed = true,
            IfaceCmd::Mode(m) => self.mode = Some(*m),
            IfaceCmd::AccessVlan(v) => self.access_vlan = Some(*v),
            IfaceCmd::TrunkAllowed(v) => self.trunk_allowed = Some(v.clone()),
            IfaceCmd::Mtu(m) => self.mtu = Some(*m),
            IfaceCmd::Address(a) => self.address = Some(*a),
            IfaceCmd::FlowcontrolRx(on) => self.flowcontrol_rx = Some(*on),
            IfaceCmd::FlowcontrolTx(on) => self.flowcontrol_tx = Some(*on),
            IfaceCmd::Pfc => self.pfc = true,
            IfaceCmd::PolicyIn(n) => self.policy_in = Some(n.clone()),
            IfaceCmd::PolicyOut(n) => self.policy_out = Some(n.clone()),
            IfaceCmd::Ets => self.ets = true,
            IfaceCmd::QosMap(n) => self.qos_map = Some(n.clone()),
            IfaceCmd::TrustMap(k, n) => self.trust_map = Some((*k, n.clone())),
            IfaceCmd::VltPortChannel(n) => self.vlt_port_channel = Some(*n),
            IfaceCmd::Bpduguard(on) => self.bpduguard = Some(*on),
            // `none` is the default guard: not kept.
            IfaceCmd::StpGuard(g) => self.stp_guard = Some(*g).filter(|g| *g != StpGuard::None),
            IfaceCmd::StpPortType(t) => self.stp_type = Some(*t),
        }
    }
}

impl Wred {
    pub fn apply(&mut self, c: &WredCmd) {
        match c {
            WredCmd::Color(color, t) => {
                self.colors.insert(*color, *t);
            }
            WredCmd::Ecn => self.ecn = true,
        }
    }
}

impl PolicyClass {
    pub fn apply(&mut self, c: &ClassCmd) {
        match c {
            ClassCmd::Bandwidth(p) => self.bandwidth = Some(*p),
            ClassCmd::Pause => self.pause = true,
            ClassCmd::PfcCos(r) => self.pfc_cos = Some(*r),
            ClassCmd::Priority => self.priority = true,
            ClassCmd::RandomDetect(n) => self.random_detect = Some(n.clone()),
        }
    }
}

impl SystemQos {
    pub fn apply(&mut self, c: &SystemQosCmd) {
        match c {
            SystemQosCmd::TrustMap(k, n) => self.trust_map = Some((*k, n.clone())),
            SystemQosCmd::Ets => self.ets = true,
            SystemQosCmd::PolicyIn(n) => self.policy_in = Some(n.clone()),
            SystemQosCmd::PolicyOut(n) => self.policy_out = Some(n.clone()),
        }
    }
}

impl Vlt {
    pub fn apply(&mut self, c: &VltCmd) {
        match c {
            VltCmd::Backup(a) => self.backup = Some(*a),
            VltCmd::Discovery(p) => self.discovery = p.clone(),
            VltCmd::PeerRouting => self.peer_routing = true,
            VltCmd::PrimaryPriority(p) => self.primary_priority = Some(*p),
            VltCmd::VltMac(m) => self.vlt_mac = Some(*m),
        }
    }
}

impl Peer {
    /// The settings of a neighbor or template; `address-family` opens a sub-block (the
    /// reader fills it).
    pub fn apply(&mut self, c: &PeerCmd) {
        match c {
            PeerCmd::Bfd => self.bfd = true,
            PeerCmd::Description(d) => self.description = Some(d.clone()),
            PeerCmd::Inherit(t) => self.inherit = Some(t.clone()),
            PeerCmd::RemoteAs(n) => self.remote_as = Some(*n),
            PeerCmd::Timers(k, h) => self.timers = Some((*k, *h)),
            PeerCmd::Shutdown(s) => self.shutdown = Some(*s),
            PeerCmd::Ipv4Unicast => {
                self.ipv4.get_or_insert_with(Default::default);
            }
        }
    }
}
