//! Hosts by group, as paths between them are probed: a group is a switch's VLAN with a
//! gateway, or a routed host port; a few hosts of each stand for all (`fabric lab
//! --dataplane` cables them, `fabric verify --paths` probes from them).

use std::collections::BTreeMap;
use std::net::Ipv4Addr;

use crate::fabric::{Fabric, Host, Peer};
use crate::types::{Ipv4Net, Port};

/// One NIC port of a host of the fabric as the lab cables it: the switch port it is cabled
/// to, its MTU, and its address and gateway in the lab.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPort {
    pub host: String,
    pub nic: String,
    pub mtu: u16,
    pub switch: String,
    pub port: Port,
    /// The host's address: in its VLAN's subnet (the switch's gateway), else the other end of
    /// its routed port's subnet.
    pub address: Option<Ipv4Net>,
    pub gateway: Option<Ipv4Addr>,
    /// The host group it belongs to: its switch and VLAN (or routed port), as `leaf01 vlan 10`.
    pub group: String,
}

/// The hosts of `fabric` that `keep` accepts, by group: every NIC port a switch port's peer
/// names, of a host the fabric declares, at most `per_group` of each group (a switch's VLAN
/// with a gateway, or a routed port): the first ports and the last, by port. A host in a
/// VLAN has, in the lab, the n-th address of its gateway's subnet other than the gateway's,
/// n its port's rank among the switch's host ports in that VLAN (so a host cabled later
/// changes no other's address); on a routed port, the other address of the port's subnet.
/// Returns them and what was left out and why.
pub fn sample(
    fabric: &Fabric,
    per_group: usize,
    keep: impl Fn(&Host) -> bool,
) -> (Vec<HostPort>, Vec<String>) {
    let mut groups: BTreeMap<(String, String), Vec<HostPort>> = BTreeMap::new();
    let mut notes = Vec::new();
    for (name, sw) in &fabric.switches {
        for (port, s) in &sw.ports {
            let Some(Peer::Host {
                host,
                port: Some(nic),
            }) = &s.peer
            else {
                continue;
            };
            let Some(h) = fabric.hosts.get(host.as_str()).filter(|h| keep(h)) else {
                continue;
            };
            let at = format!("{host}:{nic} ({name} {})", sw.port_name(*port));
            if s.bundle.is_some() {
                notes.push(format!(
                    "{at}: on a port-channel (bundles are not modelled)"
                ));
                continue;
            }
            let (address, gateway, group) = if let Some(a) = s.address {
                let net = a.network();
                let other = (0..net.size()).filter_map(|i| net.nth(i)).find(|ip| {
                    *ip != a.addr
                        && (a.len >= 31
                            || (*ip != net.addr && Some(*ip) != net.nth(net.size() - 1)))
                });
                let Some(other) = other else {
                    notes.push(format!(
                        "{at}: its routed port's subnet {a} has no address left"
                    ));
                    continue;
                };
                (
                    Ipv4Net::new(other, a.len).ok(),
                    Some(a.addr),
                    format!("{name} {}", sw.port_name(*port)),
                )
            } else if let Some(v) = s.vlan.filter(|_| s.trunk.is_none()) {
                let Some(g) = sw.gateways.get(&v) else {
                    notes.push(format!(
                        "{at}: VLAN {v} has no gateway on {name} (no address to give the host)"
                    ));
                    continue;
                };
                (None, Some(g.address.addr), format!("{name} vlan {v}"))
            } else {
                notes.push(format!(
                    "{at}: neither in an access VLAN nor on a routed port"
                ));
                continue;
            };
            groups
                .entry((name.as_str().to_string(), group.clone()))
                .or_default()
                .push(HostPort {
                    host: host.clone(),
                    nic: nic.clone(),
                    mtu: h.mtu,
                    switch: name.as_str().to_string(),
                    port: *port,
                    address,
                    gateway,
                    group,
                });
        }
    }
    let mut out = Vec::new();
    for ((switch, _), mut ports) in groups {
        // A VLAN's hosts: numbered in their subnet by port (already in port order).
        let sw = &fabric.switches[switch.as_str()];
        for (rank, p) in ports.iter_mut().enumerate() {
            if p.address.is_some() {
                continue;
            }
            let gw = sw.ports[&p.port]
                .vlan
                .and_then(|v| sw.gateways.get(&v))
                .map(|g| g.address);
            if let Some(gw) = gw {
                let net = gw.network();
                p.address = (1..net.size().saturating_sub(1))
                    .filter_map(|i| net.nth(i))
                    .filter(|ip| *ip != gw.addr)
                    .nth(rank)
                    .and_then(|ip| Ipv4Net::new(ip, gw.len).ok());
            }
        }
        let n = ports.len();
        for (i, p) in ports.into_iter().enumerate() {
            let kept = n <= per_group || i + 1 < per_group || i + 1 == n;
            if p.address.is_none() {
                notes.push(format!(
                    "{}:{}: no address left in {}'s subnet",
                    p.host, p.nic, p.group
                ));
            } else if kept {
                out.push(p);
            }
        }
    }
    (out, notes)
}
