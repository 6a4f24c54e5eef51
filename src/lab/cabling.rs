//! The lab's cabling: which switch port is cabled to which, the ports cabled to hosts, and
//! the cabling faults (`faults.yaml`, `cabling:`) that break, cross or relabel cables. Input:
//! the fabric's links and peers; output: the cabling [`super::network`] derives link, LLDP,
//! BGP and MLAG state from. Nothing here reads a switch's configuration.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;

use crate::fabric::{Fabric, Peer};
use crate::types::Port;

/// Which port is cabled to which: switch ports to each other (both directions), and the
/// ports a fabric cables to hosts (a host is taken to be up: the lab simulates switches).
/// With faults in force ([`Cabling::with_faults`]) also the broken cables and what LLDP
/// reports instead of the truth.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cabling {
    ends: BTreeMap<String, BTreeMap<Port, (String, Port)>>,
    hosts: BTreeMap<String, BTreeSet<Port>>,
    /// Ports whose cable is broken (a fault): the port and its far end are down.
    broken: BTreeSet<(String, Port)>,
    /// What LLDP reports on a port instead of its far end (a fault).
    lldp: BTreeMap<(String, Port), LldpOverride>,
    /// Each switch's counter faults, where it has some.
    counters: BTreeMap<String, super::counters::CounterFaults>,
}

/// Faults of one switch's cables, from its `faults.yaml` (`cabling:`). Ports are the
/// switch's own; a swap is applied first, so `down` and `neighbor` name the port the cable is
/// in after it.
///
/// ```yaml
/// cabling:
///   swap: [["1/25", "1/26"]]   # the far ends of the cables in 1/25 and 1/26 crossed
///   down: ["1/27"]             # the cable in 1/27 broken: both its ends down
///   neighbor:                  # what LLDP on 1/28 reports of its far end
///     "1/28": { host: spine09, port: Eth1/7 }
/// ```
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CablingFaults {
    #[serde(default)]
    pub swap: Vec<[Port; 2]>,
    #[serde(default)]
    pub down: Vec<Port>,
    #[serde(default)]
    pub neighbor: BTreeMap<Port, LldpOverride>,
    /// The switch's counter faults (its `faults.yaml`'s `counters:`), which the network's
    /// counters read beside its cables'.
    #[serde(skip)]
    pub counters: super::counters::CounterFaults,
}

impl CablingFaults {
    pub fn is_empty(&self) -> bool {
        self.swap.is_empty()
            && self.down.is_empty()
            && self.neighbor.is_empty()
            && self.counters.is_empty()
    }
}

/// The far end as LLDP reports it on a port, replacing the truth field by field: its system
/// name (the far switch's hostname), its port ID.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct LldpOverride {
    pub host: Option<String>,
    pub port: Option<String>,
}

/// What LLDP on a port has learned of the far end: the neighbor's system name and port ID.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LldpNeighbor {
    pub system_name: String,
    /// The far port as Onyx names its ports in its `show` output (`Eth1/25`, as every
    /// `show interfaces … | json-print` capture keys them), or the text a fault gives.
    pub port_id: String,
}

/// What is plugged into a port.
#[derive(Clone, Debug, PartialEq, Eq)]
enum End {
    Free,
    Host,
    Switch(String, Port),
}

impl Cabling {
    /// The cables a fabric declares: every port whose peer is another switch of the fabric,
    /// and every port whose peer is a host.
    pub fn from_fabric(fabric: &Fabric) -> Cabling {
        let mut c = Cabling::default();
        for (name, sw) in &fabric.switches {
            for (port, settings) in &sw.ports {
                match &settings.peer {
                    Some(Peer::Switch { switch, port: far })
                        if fabric.switches.contains_key(switch) =>
                    {
                        c.connect((name.as_str(), *port), (switch.as_str(), *far));
                    }
                    Some(Peer::Host { .. }) => {
                        c.hosts.entry(name.to_string()).or_default().insert(*port);
                    }
                    _ => {}
                }
            }
        }
        c
    }

    /// A cable between two switch ports.
    pub fn connect(&mut self, a: (&str, Port), b: (&str, Port)) {
        self.ends
            .entry(a.0.to_string())
            .or_default()
            .insert(a.1, (b.0.to_string(), b.1));
        self.ends
            .entry(b.0.to_string())
            .or_default()
            .insert(b.1, (a.0.to_string(), a.1));
    }

    /// The far end of the cable in `port` of `switch`.
    pub fn far(&self, switch: &str, port: Port) -> Option<(&str, Port)> {
        self.ends
            .get(switch)
            .and_then(|m| m.get(&port))
            .map(|(s, p)| (s.as_str(), *p))
    }

    /// The ports of `switch` cabled to another switch, with their far ends.
    pub fn ports(&self, switch: &str) -> impl Iterator<Item = (Port, (&str, Port))> {
        self.ends
            .get(switch)
            .into_iter()
            .flatten()
            .map(|(p, (s, q))| (*p, (s.as_str(), *q)))
    }

    pub(super) fn to_host(&self, switch: &str, port: Port) -> bool {
        self.hosts.get(switch).is_some_and(|s| s.contains(&port))
    }

    /// What a fault makes LLDP report on `port` of `switch` instead of its far end.
    pub(super) fn lldp_override(&self, key: &(String, Port)) -> Option<&LldpOverride> {
        self.lldp.get(key)
    }

    /// Whether the cable in `port` of `switch` is broken (a fault).
    pub fn broken(&self, switch: &str, port: Port) -> bool {
        self.broken.contains(&(switch.to_string(), port))
    }

    /// Takes the cable out of a port: what was at its far end.
    fn unplug(&mut self, switch: &str, port: Port) -> End {
        if let Some(hosts) = self.hosts.get_mut(switch)
            && hosts.remove(&port)
        {
            return End::Host;
        }
        let Some((far, far_port)) = self.ends.get_mut(switch).and_then(|m| m.remove(&port)) else {
            return End::Free;
        };
        if let Some(m) = self.ends.get_mut(&far) {
            m.remove(&far_port);
        }
        End::Switch(far, far_port)
    }

    fn plug(&mut self, switch: &str, port: Port, end: End) {
        match end {
            End::Free => {}
            End::Host => {
                self.hosts
                    .entry(switch.to_string())
                    .or_default()
                    .insert(port);
            }
            End::Switch(far, far_port) => self.connect((switch, port), (&far, far_port)),
        }
    }

    /// The cabling with each switch's faults applied, switches in name order: first the
    /// swaps, then the broken cables and the LLDP overrides (on the ports as swapped).
    pub fn with_faults<'a>(
        &self,
        faults: impl IntoIterator<Item = (&'a str, &'a CablingFaults)>,
    ) -> Cabling {
        let faults: BTreeMap<&str, &CablingFaults> = faults.into_iter().collect();
        let mut c = self.clone();
        for (switch, f) in &faults {
            for [p, q] in &f.swap {
                let a = c.unplug(switch, *p);
                // Both ends of one cable: crossing them changes nothing.
                if a == End::Switch(switch.to_string(), *q) {
                    c.plug(switch, *p, a);
                    continue;
                }
                let b = c.unplug(switch, *q);
                c.plug(switch, *p, b);
                c.plug(switch, *q, a);
            }
        }
        for (switch, f) in faults {
            for p in &f.down {
                c.broken.insert((switch.to_string(), *p));
            }
            for (p, o) in &f.neighbor {
                c.lldp.insert((switch.to_string(), *p), o.clone());
            }
            if !f.counters.is_empty() {
                c.counters.insert(switch.to_string(), f.counters.clone());
            }
        }
        c
    }

    /// The counter faults of the switch `sw`, where it has some.
    pub fn counter_faults(&self, sw: &str) -> Option<&super::counters::CounterFaults> {
        self.counters.get(sw)
    }
}
