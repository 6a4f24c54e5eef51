//! What an OS10 configuration's QoS means for one interface: the policies and the trust map
//! it is under, and the priorities it pauses. The Dell OS10 user guide's rules (RoCE, QoS):
//! an interface's own `service-policy` or `trust-map` line, else `system qos`'s; a
//! port-channel member takes its bundle's (OS10 applies policies on the bundle); a priority
//! is paused where a network-qos class has `pause` and names it in `pfc-cos`. The lab, the
//! audit's view and `fabric verify` read a configuration with these, so they agree on it.
//! Input: a [`Config`]; nothing here prints or decides what a fabric wants.

use std::collections::BTreeSet;

use super::{Config, Iface, Interface, PolicyMap, QosKind, TrustMap};

impl Config {
    /// The policy-map of `kind` named `name`.
    pub fn policy(&self, kind: QosKind, name: &str) -> Option<&PolicyMap> {
        self.policy_maps
            .iter()
            .find(|p| p.kind == kind && p.name == name)
    }

    /// The interface whose QoS lines apply to `iface`: a port-channel member's bundle, else
    /// itself; `None` when the configuration has neither.
    pub fn qos_interface(&self, iface: &Iface) -> Option<&Interface> {
        let own = self.interfaces.get(iface)?;
        let bundle = own
            .channel_group
            .and_then(|g| self.interfaces.get(&Iface::PortChannel(g.id)));
        Some(bundle.unwrap_or(own))
    }

    /// The name of the network-qos policy `iface` is under: its own `service-policy input
    /// type network-qos`, else `system qos`'s.
    pub fn network_qos_of(&self, iface: &Iface) -> Option<&str> {
        let system = self.system_qos.as_ref().and_then(|s| s.policy_in.as_ref());
        self.qos_interface(iface)
            .and_then(|i| i.policy_in.as_ref())
            .or(system)
            .map(String::as_str)
    }

    /// The priorities network-qos policy `name` pauses: the `pfc-cos` of its classes with
    /// `pause`.
    pub fn paused_by(&self, name: &str) -> BTreeSet<u8> {
        self.policy(QosKind::NetworkQos, name)
            .into_iter()
            .flat_map(|p| &p.classes)
            .filter(|c| c.pause)
            .flat_map(|c| c.pfc_cos.into_iter().flat_map(|r| r.iter()))
            .collect()
    }

    /// The priorities `iface` pauses when in PFC mode: its network-qos policy's.
    pub fn paused_priorities(&self, iface: &Iface) -> BTreeSet<u8> {
        self.network_qos_of(iface)
            .map(|n| self.paused_by(n))
            .unwrap_or_default()
    }

    /// The trust map `iface` classifies by: its own `trust-map`, else `system qos`'s, and the
    /// map of that name when the configuration defines it.
    pub fn trust_of(
        &self,
        iface: &Iface,
    ) -> Option<(&(super::TrustKind, String), Option<&TrustMap>)> {
        let system = self.system_qos.as_ref().and_then(|s| s.trust_map.as_ref());
        let named = self
            .qos_interface(iface)
            .and_then(|i| i.trust_map.as_ref())
            .or(system)?;
        let map = self
            .trust_maps
            .iter()
            .find(|m| m.kind == named.0 && m.name == named.1);
        Some((named, map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::os10::Eth;

    /// The AzureStack TOR's QoS (10.5.3.2): its RoCE ports are under `system qos`'s trust map
    /// and their own network-qos policy, which pauses priority 3.
    #[test]
    fn the_captured_tor_pauses_priority_3_on_its_roce_ports() {
        let text = include_str!(
            "../../tests/fixtures/corpus/os10/azurestack-rack2-Rack01-TOR-1.running-configuration.10.5.3.2.txt"
        );
        let c = crate::os10::parse(text).unwrap();
        let roce = c
            .interfaces
            .iter()
            .find(|(_, i)| i.pfc && i.policy_in.is_some())
            .map(|(k, _)| *k)
            .unwrap();
        assert_eq!(c.paused_priorities(&roce), BTreeSet::from([3]));
        let (named, map) = c.trust_of(&roce).unwrap();
        assert_eq!(named.0, crate::os10::TrustKind::Dot1p);
        assert!(map.is_some(), "the TOR defines its trust map");
        let free = Iface::Ethernet(Eth::new(54));
        assert_eq!(c.network_qos_of(&free), None);
    }

    #[test]
    fn a_member_takes_its_bundles_qos() {
        let c = crate::os10::parse(
            "policy-map type network-qos P\n class C\n  pause\n  pfc-cos 3-4\n\
             interface port-channel1\n priority-flow-control mode on\n service-policy input type network-qos P\n\
             interface ethernet1/1/1\n channel-group 1 mode active\n",
        )
        .unwrap();
        let member = Iface::Ethernet(Eth::new(1));
        assert_eq!(c.paused_priorities(&member), BTreeSet::from([3, 4]));
        assert_eq!(c.network_qos_of(&member), Some("P"));
    }
}
