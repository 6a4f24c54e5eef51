//! What `fabric verify` sends a Cumulus switch and reads of it ([`crate::targets::Reads`]):
//! NVUE's `-o json` replies (`json`, their shapes in `json::SHAPES`); the QoS, switch-wide on
//! NVUE, from the applied configuration (`nv config show -o yaml`) with NVUE's defaults
//! (`audit::switch_qos`), as the fabric's compiled tree gives it for what is wanted. PFC is
//! read switch-wide (the priorities paused); the MLAG and route replies have no capture and
//! no documented JSON, so they are asked and refused as unread.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use crate::fabric::Switch;
use crate::targets::{Ask, PfcWant, Reads, Said, Wanted};
use crate::types::{Ecn, Ets, Port, TcMap};
use crate::verify::observed::{Marking, Pool, Sched, Trusted};
use crate::verify::{Observed, Query};

use super::Config;
use super::audit::{SwitchQos, switch_qos};
use super::tree;

pub mod counters;
pub mod json;

/// Cumulus's reads.
pub struct CumulusReads;

pub static READS: CumulusReads = CumulusReads;

static SAID: Said = Said {
    links: "nv show interface",
    pfc_all: None,
    pfc_oper: "PFC",
    pfc_admin: "PFC",
    paused_by: "`qos pfc default-global switch-priority`",
    ecn: Ecn::to_string,
    ets: Ets::to_string,
    peer_link: "peerlink",
    pair_mac: "MLAG MAC address",
    pair_status,
};

fn pair_status(oper: &str) -> String {
    format!("MLAG peer: {}", oper.to_lowercase())
}

/// The commands, UNCONFIRMED where `json::SHAPES` says so; the two below have neither a
/// capture nor a documented JSON shape.
pub const MLAG: &str = "nv show mlag -o json";
pub const BGP_ROUTER: &str = "nv show router bgp -o json";

impl Reads for CumulusReads {
    fn asks(&self, sw: &Switch, queries: Vec<Query>) -> Vec<Ask> {
        let mut asks = Vec::new();
        let mut qos_ports: Vec<Port> = Vec::new();
        let mut pools: Vec<String> = Vec::new();
        for q in queries {
            match q {
                Query::Lldp => asks.push(Ask::query("nv show interface lldp -o json".into(), q)),
                Query::Interfaces => asks.push(Ask::query("nv show interface -o json".into(), q)),
                Query::Pfc => asks.push(Ask::own(
                    "nv show qos pfc default-global -o json".into(),
                    None,
                    |reply, into| {
                        into.paused = Some(json::pfc_paused(reply)?);
                        Ok(())
                    },
                )),
                Query::Trust(p) | Query::Ecn(p) | Query::Ets(p) => {
                    if !qos_ports.contains(&p) {
                        qos_ports.push(p);
                    }
                }
                Query::Pool(name) => pools.push(name),
                Query::Bgp => asks.extend(bgp(sw)),
                Query::Mlag => asks.push(Ask::query(MLAG.into(), q)),
                Query::Route(net) => asks.push(Ask::query(
                    format!(
                        "nv show vrf default router rib ipv4 route {} -o json",
                        net.network()
                    ),
                    q,
                )),
                Query::Counters => asks.extend(counters::asks(sw)),
            }
        }
        if !qos_ports.is_empty() || !pools.is_empty() {
            asks.push(Ask::own(
                "nv config show -o yaml".into(),
                None,
                move |reply, into| {
                    let c = Config::parse(reply).map_err(|e| e.to_string())?;
                    record_qos(&c, &qos_ports, &pools, into);
                    Ok(())
                },
            ));
        }
        asks
    }

    fn read_query(&self, q: &Query, reply: &str, into: &mut Observed) -> Result<(), String> {
        match q {
            Query::Lldp => into.lldp = Some(json::lldp(reply)?),
            Query::Interfaces => into.links = Some(json::interfaces(reply)?),
            Query::Mlag | Query::Route(_) => {
                return Err(format!(
                    "{q:?}: no capture or documented JSON of NVUE's reply; not read yet"
                ));
            }
            Query::Pfc
            | Query::Trust(_)
            | Query::Ecn(_)
            | Query::Ets(_)
            | Query::Pool(_)
            | Query::Bgp
            | Query::Counters => {
                return Err(format!("{q:?} is asked with Cumulus's own commands"));
            }
        }
        Ok(())
    }

    fn port_id(&self, text: &str) -> Option<Port> {
        super::rules::port(text.trim())
    }

    fn wanted<'a>(&self, sw: &'a Switch) -> Box<dyn Wanted + 'a> {
        Box::new(Compiled {
            sw,
            q: switch_qos(&super::compile::compile(sw).set),
        })
    }

    fn said(&self) -> &'static Said {
        &SAID
    }
}

/// BGP: the router's AS and router id (`nv show router bgp -o json`, UNCONFIRMED: read as
/// the configuration's tree, `autonomous-system`, `router-id`), then the sessions; a session
/// an unnumbered port keys is read under the address the fabric gives that link; one on a port
/// a written neighbor names (`bgp.neighbors: [{ port }]`, a peer outside the fabric) is not
/// among the sessions the check compares by address, and is left out.
fn bgp(sw: &Switch) -> [Ask; 2] {
    let by_port: BTreeMap<Port, Ipv4Addr> = sw
        .routing
        .iter()
        .flat_map(|r| &r.neighbors)
        .filter(|(_, n)| n.unnumbered)
        .filter_map(|(a, n)| Some((n.link.as_ref()?.1, *a)))
        .collect();
    let written: BTreeSet<Port> = sw
        .routing
        .iter()
        .flat_map(|r| r.port_neighbors.keys().copied())
        .collect();
    let router = Ask::own(BGP_ROUTER.into(), None, |reply, into| {
        into.bgp = Some(json::bgp_router(reply)?);
        Ok(())
    });
    let sessions = Ask::own(
        "nv show vrf default router bgp neighbor -o json".into(),
        None,
        move |reply, into| {
            let read = json::bgp_neighbors(reply)?;
            let Some(Some(summary)) = into.bgp.as_mut() else {
                return Err("BGP sessions without a BGP instance read".into());
            };
            for (key, (peer, n)) in read {
                let addr = match peer {
                    json::Peer::Address(a) => a,
                    json::Peer::Port(p) if written.contains(&p) => continue,
                    json::Peer::Port(p) => *by_port.get(&p).ok_or_else(|| {
                        format!(
                            "a session on `{key}`, a port the fabric has no unnumbered session on"
                        )
                    })?,
                };
                summary.neighbors.insert(addr, n);
            }
            Ok(())
        },
    );
    [router, sessions]
}

/// The QoS of `ports` and `pools` as the applied configuration gives them: NVUE's QoS is
/// switch-wide, every port the switch's.
fn record_qos(c: &Config, ports: &[Port], pools: &[String], into: &mut Observed) {
    let q = switch_qos(&c.set);
    for p in ports {
        into.trust.insert(*p, Trusted::mode(q.trust.word()));
        into.ecn.insert(
            *p,
            q.ecn
                .iter()
                .map(|(tc, e)| (tc.get(), Marking::On(*e)))
                .collect(),
        );
        into.ets.insert(
            *p,
            q.ets
                .iter()
                .map(|(tc, e)| {
                    let s = match e {
                        Ets::Strict => Sched::Strict,
                        Ets::Wrr(w) => Sched::Wrr(*w),
                    };
                    (tc.get(), s)
                })
                .collect(),
        );
    }
    for name in pools {
        let at = ["qos", "traffic-pool", name.as_str()];
        let pool = tree::get(&c.set, &at).map(|_| {
            let priorities: BTreeSet<u8> =
                tree::names(&c.set, &[&at[..], &["switch-priority"]].concat())
                    .into_iter()
                    .filter_map(|p| p.parse().ok())
                    .collect();
            let lossless = !priorities.is_empty() && priorities.is_subset(&q.pfc);
            Pool {
                kind: if lossless { "lossless" } else { "lossy" }.into(),
                memory: tree::value(&c.set, &[&at[..], &["memory-percent"]].concat())
                    .unwrap_or("")
                    .to_string(),
                priorities,
            }
        });
        into.pools.insert(name.clone(), pool);
    }
}

/// The fabric's QoS as the switch's replies show it: its compiled tree's switch-wide QoS on
/// every port the fabric has; PFC switch-wide, as the priorities paused.
struct Compiled<'a> {
    sw: &'a Switch,
    q: SwitchQos,
}

impl Wanted for Compiled<'_> {
    fn trust(&self, p: Port) -> Option<Trusted> {
        self.sw
            .ports
            .contains_key(&p)
            .then(|| Trusted::mode(self.q.trust.word()))
    }

    fn ecn(&self, p: Port) -> Option<&TcMap<Ecn>> {
        self.sw.ports.contains_key(&p).then_some(&self.q.ecn)
    }

    fn ets(&self, p: Port) -> Option<&TcMap<Ets>> {
        self.sw.ports.contains_key(&p).then_some(&self.q.ets)
    }

    /// None per interface: NVUE's PFC is switch-wide ([`Wanted::paused`]).
    fn pfc(&self) -> Vec<PfcWant> {
        Vec::new()
    }

    fn paused(&self) -> Option<BTreeSet<u8>> {
        Some(self.q.pfc.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_qos_of_the_applied_configuration_is_every_port_s() {
        let text = crate::repo_file("golden/spectrum-x/leaf01.cfg");
        let c = Config::parse(&text).unwrap();
        let mut into = Observed::default();
        let p = Port::new(1, 33);
        record_qos(&c, &[p], &["roce".to_string(), "none".into()], &mut into);
        assert_eq!(into.trust[&p].mode, "L3");
        assert!(matches!(into.ecn[&p][&3], Marking::On(_)));
        assert_eq!(into.ets[&p][&6], Sched::Strict);
        let pool = into.pools["roce"].as_ref().unwrap();
        assert_eq!(
            (pool.kind.as_str(), pool.memory.as_str()),
            ("lossless", "50")
        );
        assert!(into.pools["none"].is_none());
    }

    /// The Spectrum-X leaf's checks, asked in NVUE's commands and read from replies in the
    /// documented shapes: its unnumbered sessions come back under its links' addresses.
    #[test]
    fn a_spectrum_x_leaf_is_asked_and_read() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut sources = crate::diag::Sources::default();
        let (fabric, _) =
            crate::fabric::read(&root.join("fabrics/spectrum-x.yaml"), &mut sources).unwrap();
        let fabric = fabric.unwrap();
        let sw = fabric
            .switches
            .values()
            .find(|s| s.hostname.as_str() == "leaf01")
            .unwrap();
        let p = Port::new(1, 33);
        let asks = READS.asks(
            sw,
            vec![
                Query::Lldp,
                Query::Pfc,
                Query::Bgp,
                Query::Trust(p),
                Query::Ets(p),
            ],
        );
        let commands: Vec<&str> = asks.iter().map(|a| a.command.as_str()).collect();
        assert_eq!(
            commands,
            [
                "nv show interface lldp -o json",
                "nv show qos pfc default-global -o json",
                BGP_ROUTER,
                "nv show vrf default router bgp neighbor -o json",
                "nv config show -o yaml",
            ]
        );
        let mut into = Observed::default();
        let replies = [
            r#"{"swp33": {"lldp": {"neighbor": {"spine01": {"chassis": {"system-name": "spine01"}, "port": {"name": "swp1"}}}}}}"#,
            r#"{"switch-priority": {"3": {}}, "tx": "enable", "rx": "enable"}"#,
            r#"{"autonomous-system": 65101, "router-id": "10.255.1.1"}"#,
            r#"{"swp33": {"remote-as": 65000, "state": "established"}, "swp34": {"remote-as": 65000, "state": "idle"}}"#,
        ];
        for (a, r) in asks.iter().zip(replies) {
            READS.read(a, r, &mut into).unwrap();
        }
        let golden = std::fs::read_to_string(root.join("golden/spectrum-x/leaf01.cfg")).unwrap();
        READS.read(&asks[4], &golden, &mut into).unwrap();
        let bgp = into.bgp.clone().unwrap().unwrap();
        assert_eq!(bgp.asn, 65101);
        let over = |port: u16| {
            sw.routing
                .as_ref()
                .unwrap()
                .neighbors
                .iter()
                .find(|(_, n)| n.link.as_ref().is_some_and(|l| l.1 == Port::new(1, port)))
                .map(|(a, _)| *a)
                .unwrap()
        };
        assert!(bgp.neighbors[&over(33)].established());
        assert!(!bgp.neighbors[&over(34)].established());
        let wanted = READS.wanted(sw);
        assert_eq!(into.paused, wanted.paused());
        assert_eq!(Some(into.trust[&p].clone()), wanted.trust(p));
        // A session on a port the fabric has none on does not read.
        let mut other = Observed::default();
        READS.read(&asks[2], replies[2], &mut other).unwrap();
        assert!(
            READS
                .read(
                    &asks[3],
                    r#"{"swp9": {"remote-as": 1, "state": "idle"}}"#,
                    &mut other
                )
                .is_err()
        );
        // One on a port a written neighbor names is a peer outside the fabric: left out.
        let mut written = sw.clone();
        if let Some(r) = written.routing.as_mut() {
            r.port_neighbors.insert(
                Port::new(1, 9),
                crate::fabric::PortNeighbor {
                    remote_as: crate::fabric::RemoteAs::External,
                    bfd: false,
                    timers: None,
                },
            );
        }
        let asks = READS.asks(&written, vec![Query::Bgp]);
        let mut other = Observed::default();
        READS.read(&asks[0], replies[2], &mut other).unwrap();
        READS
            .read(
                &asks[1],
                r#"{"swp9": {"remote-as": 1, "state": "idle"}, "swp33": {"remote-as": 65000, "state": "established"}}"#,
                &mut other,
            )
            .unwrap();
        let read = other.bgp.unwrap().unwrap();
        assert_eq!(
            read.neighbors.keys().copied().collect::<Vec<_>>(),
            [over(33)]
        );
        // Garbage is an error, never a clean read.
        for a in &asks {
            assert!(
                READS
                    .read(a, "Error: not found", &mut Observed::default())
                    .is_err()
            );
        }
    }
}
