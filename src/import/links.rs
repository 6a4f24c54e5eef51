//! Cables between imported switches, whatever OS each runs. A port whose description names a
//! port of another imported switch, as that switch's OS names it (`spine01:1/3` on an OS10
//! leaf, `leaf03:ethernet1/1/53` on an Onyx spine: what the fabric's compiled descriptions
//! print), and whose far port names it back the same way, is one end of a cable. A cable whose
//! two ends are routed ports with addresses is routed: its BGP sessions and subnets are the
//! fabric's, derived, so neither switch writes them out. Any other cable is L2. Consecutive
//! cables between the same two switches, alike, are one `links` entry, each end in its own
//! OS's spelling. Nothing here reads a config: each OS's import lists its switches' ends.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use serde_saphyr::FlowMap;

use super::doc::LinkDoc;
use crate::targets::SwitchOs;
use crate::types::{Ipv4Net, Port};

/// A described port of an imported switch: a cable's end when the far port names it back.
#[derive(Clone)]
pub struct End<'a> {
    /// The fabric's port.
    pub(crate) port: Port,
    /// The port as its switch's OS names it (`1/3`, `ethernet1/1/53`).
    pub(crate) name: String,
    pub(crate) description: &'a str,
    /// A routed port's address.
    pub(crate) address: Option<Ipv4Net>,
}

/// An imported switch as its cables see it.
pub struct Switch<'a> {
    pub(crate) name: &'a str,
    /// Its OS, which names its ports.
    pub(crate) os: &'static dyn SwitchOs,
    /// Its BGP AS, when it runs BGP: the far end of a routed cable has a session to it.
    pub(crate) asn: Option<u32>,
    /// Its described ports (a pair's peer link left out, where that is ports of their own:
    /// it is the pair's own link).
    pub(crate) ends: Vec<End<'a>>,
}

/// One side of a run of cables: the switch, its OS, its first and last port.
struct Side {
    switch: String,
    os: &'static dyn SwitchOs,
    first: Port,
    last: Port,
}

impl Side {
    /// `leaf03:ethernet1/1/53-1/1/54`, `spine01:1/1-1/4`.
    fn written(&self) -> String {
        let range = self.os.port_range(self.first, self.last);
        format!("{}:{range}", self.switch)
    }
}

/// Consecutive cables between two switches, both ends in port order, all routed or all not.
struct Run {
    a: Side,
    b: Side,
    routed: bool,
}

/// The cables between the imported switches, and what they give each switch.
#[derive(Default)]
pub struct Links {
    runs: Vec<Run>,
    /// Per switch: its ports on a cable (the cable's entry describes them).
    linked: BTreeMap<String, BTreeSet<Port>>,
    /// Per switch: the sessions its routed cables give, the far end's address and AS.
    sessions: BTreeMap<String, BTreeSet<(Ipv4Addr, u32)>>,
    /// Per switch: the subnets of its routed cables with sessions (the fabric does not
    /// advertise them).
    subnets: BTreeMap<String, BTreeSet<Ipv4Net>>,
    /// Switches joined to another by an L2 cable.
    l2: BTreeSet<String>,
}

impl Links {
    /// The cables among these switches: pairs of ports that name each other.
    pub(crate) fn find(switches: &[Switch]) -> Links {
        let by_name: BTreeMap<&str, &Switch> = switches.iter().map(|s| (s.name, s)).collect();
        let mut cables: Vec<(&Switch, &End, &Switch, &End)> = Vec::new();
        for a in switches {
            for x in &a.ends {
                let Some((b, far)) = x.description.split_once(':') else {
                    continue;
                };
                // Each cable once, from the switch that sorts first.
                let Some(b) = by_name.get(b).filter(|b| a.name < b.name) else {
                    continue;
                };
                let back = format!("{}:{}", a.name, x.name);
                if let Some(y) = b
                    .ends
                    .iter()
                    .find(|y| y.name == far && y.description == back)
                {
                    cables.push((a, x, b, y));
                }
            }
        }
        cables.sort_by(|p, q| {
            (p.0.name, p.1.port, p.2.name, p.3.port).cmp(&(q.0.name, q.1.port, q.2.name, q.3.port))
        });
        let mut out = Links::default();
        for (a, x, b, y) in cables {
            out.add(a, x, b, y);
        }
        out
    }

    /// One cable: into the run it continues, else a new one; what it gives each end.
    fn add(&mut self, a: &Switch, x: &End, b: &Switch, y: &End) {
        let routed = match (x.address, y.address) {
            (Some(xa), Some(ya)) => {
                // Where both ends run BGP, the fabric derives a session each way, and the
                // cable's subnet is not among what a switch advertises.
                if let (Some(an), Some(bn)) = (a.asn, b.asn) {
                    for (me, far_as, mine, theirs) in [(a.name, bn, xa, ya), (b.name, an, ya, xa)] {
                        let sessions = self.sessions.entry(me.to_string()).or_default();
                        sessions.insert((theirs.addr, far_as));
                        let subnets = self.subnets.entry(me.to_string()).or_default();
                        subnets.insert(mine.network());
                    }
                }
                true
            }
            _ => {
                self.l2.extend([a.name.to_string(), b.name.to_string()]);
                false
            }
        };
        for (s, e) in [(a, x), (b, y)] {
            let ports = self.linked.entry(s.name.to_string()).or_default();
            ports.insert(e.port);
        }
        if let Some(last) = self.runs.last_mut()
            && last.routed == routed
            && last.a.switch == a.name
            && last.b.switch == b.name
            && last.a.last.precedes(x.port)
            && last.b.last.precedes(y.port)
        {
            last.a.last = x.port;
            last.b.last = y.port;
            return;
        }
        let side = |s: &Switch, e: &End| Side {
            switch: s.name.to_string(),
            os: s.os,
            first: e.port,
            last: e.port,
        };
        self.runs.push(Run {
            a: side(a, x),
            b: side(b, y),
            routed,
        });
    }

    /// The `links` entries, in order: a routed run says so; an L2 one says `access` where the
    /// fabric has `routing` (whose links are routed unless they say otherwise).
    pub(crate) fn docs(&self, routing: bool) -> Vec<FlowMap<LinkDoc>> {
        self.runs
            .iter()
            .map(|r| {
                FlowMap(LinkDoc {
                    a: r.a.written(),
                    b: r.b.written(),
                    role: match (r.routed, routing) {
                        (true, _) => Some("routed"),
                        (false, true) => Some("access"),
                        (false, false) => None,
                    },
                })
            })
            .collect()
    }

    /// Whether this port of the switch is a cable's end.
    pub(crate) fn linked(&self, switch: &str, port: Port) -> bool {
        self.linked.get(switch).is_some_and(|p| p.contains(&port))
    }

    /// Whether a session of the switch is one its routed cables give (the fabric derives it).
    pub(crate) fn derives(&self, switch: &str, address: Ipv4Addr, asn: u32) -> bool {
        self.sessions
            .get(switch)
            .is_some_and(|d| d.contains(&(address, asn)))
    }

    /// The subnets of the switch's routed ports that are host ports, not a routed cable's
    /// end: the fabric advertises them.
    pub(crate) fn host_subnets<'s>(
        &'s self,
        switch: &str,
        routed: impl Iterator<Item = Ipv4Net> + 's,
    ) -> impl Iterator<Item = Ipv4Net> + 's {
        let cables = self.subnets.get(switch);
        routed
            .map(Ipv4Net::network)
            .filter(move |n| cables.is_none_or(|c| !c.contains(n)))
    }

    /// Whether an L2 cable joins the switch to another.
    pub(crate) fn joins_l2(&self, switch: &str) -> bool {
        self.l2.contains(switch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end<'a>(port: Port, name: &str, description: &'a str, address: Option<&str>) -> End<'a> {
        End {
            port,
            name: name.to_string(),
            description,
            address: address.map(|a| a.parse().unwrap()),
        }
    }

    /// The OS a fabric file's word names.
    fn os(word: &str) -> &'static dyn SwitchOs {
        crate::targets::BUILT_IN
            .into_iter()
            .find(|t| t.words().word == word)
            .unwrap()
    }

    /// An Onyx spine and an OS10 leaf: a cable where each names the other's port in that
    /// port's own OS's spelling, not where one of them misspells it.
    #[test]
    fn a_cable_across_the_oses_is_found_by_each_os_spelling() {
        let spine = Switch {
            name: "spine01",
            os: os("onyx"),
            asn: Some(65000),
            ends: vec![
                end(
                    Port::new(1, 3),
                    "1/3",
                    "leaf03:ethernet1/1/53",
                    Some("10.0.0.0/31"),
                ),
                end(Port::new(1, 4), "1/4", "leaf03:1/1/54", None),
            ],
        };
        let leaf = Switch {
            name: "leaf03",
            os: os("os10"),
            asn: Some(65103),
            ends: vec![
                end(
                    Port::new(1, 53),
                    "ethernet1/1/53",
                    "spine01:1/3",
                    Some("10.0.0.1/31"),
                ),
                end(Port::new(1, 54), "ethernet1/1/54", "spine01:1/4", None),
            ],
        };
        let links = Links::find(&[spine, leaf]);
        let docs: Vec<(String, String, Option<&str>)> = links
            .docs(true)
            .into_iter()
            .map(|FlowMap(d)| (d.a, d.b, d.role))
            .collect();
        assert_eq!(
            docs,
            [(
                "leaf03:ethernet1/1/53".to_string(),
                "spine01:1/3".to_string(),
                Some("routed")
            )]
        );
        assert!(links.linked("leaf03", Port::new(1, 53)));
        assert!(!links.linked("leaf03", Port::new(1, 54)));
        assert!(!links.joins_l2("leaf03"));
        // The cable's session is derived; one to an address on no cable is written out.
        assert!(links.derives("leaf03", "10.0.0.0".parse().unwrap(), 65000));
        assert!(!links.derives("leaf03", "192.0.2.1".parse().unwrap(), 65000));
        let hosts: Vec<Ipv4Net> = links
            .host_subnets(
                "spine01",
                ["10.0.0.0/31", "10.9.0.0/31"]
                    .map(|a| a.parse().unwrap())
                    .into_iter(),
            )
            .collect();
        assert_eq!(hosts, ["10.9.0.0/31".parse::<Ipv4Net>().unwrap()]);
    }
}
