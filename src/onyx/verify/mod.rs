//! What `fabric verify` sends Onyx and reads of it ([`crate::targets::Reads`]): one `show`
//! per query of the checks, the JSON of `| json-print` where Onyx prints it ([`json`]), the
//! text of `show ip bgp summary`, `show mlag` and `show ip route` ([`text`]), each reply read
//! into the OS-neutral values of [`crate::verify::observed`].

use std::collections::BTreeSet;

use crate::fabric::Switch;
use crate::onyx::Iface;
use crate::targets::{Ask, PfcWant, Reads, Said, Wanted};
use crate::types::{Ecn, Ets, Port, TcMap};
use crate::verify::observed::Trusted;
use crate::verify::{Observed, Query};

pub mod counters;
pub mod json;
pub mod text;

#[cfg(test)]
mod tests;

/// Onyx's reads.
pub struct OnyxReads;

pub static READS: OnyxReads = OnyxReads;

/// How Onyx's replies name what the findings quote.
static SAID: Said = Said {
    links: "show interfaces ethernet",
    pfc_all: Some("show dcb priority-flow-control"),
    pfc_oper: "PFC oper",
    pfc_admin: "PFC admin",
    // Not said: Onyx's pools are read as pools, not as the priorities the switch pauses.
    paused_by: "`dcb priority-flow-control priority`",
    ecn: Ecn::to_string,
    ets: Ets::to_string,
    peer_link: "peer link",
    pair_mac: "system MAC",
    pair_status,
};

/// `show mlag`'s `Operational status`, as printed.
fn pair_status(oper: &str) -> String {
    format!("Operational status: {oper}")
}

impl Reads for OnyxReads {
    fn asks(&self, sw: &Switch, queries: Vec<Query>) -> Vec<Ask> {
        let mut out = Vec::new();
        for q in queries {
            match q {
                Query::Counters => out.extend(counters::asks(sw)),
                q => out.push(Ask::query(command(&q), q)),
            }
        }
        out
    }

    fn read_query(&self, q: &Query, reply: &str, into: &mut Observed) -> Result<(), String> {
        record(into, q, reply)
    }

    fn port_id(&self, text: &str) -> Option<Port> {
        json::port_id(text)
    }

    fn wanted<'a>(&self, sw: &'a Switch) -> Box<dyn Wanted + 'a> {
        Box::new(Written(sw))
    }

    fn said(&self) -> &'static Said {
        &SAID
    }

    fn counters_not_read(&self) -> &'static [crate::verify::counters::NotRead] {
        &counters::NOT_READ
    }
}

/// The fabric's QoS as Onyx's replies show it: the fabric's settings as written (its words are
/// Onyx's: `Trust mode` `L3`, `ecn minimum-absolute …`, `wrr 13`).
struct Written<'a>(&'a Switch);

impl Wanted for Written<'_> {
    fn trust(&self, p: Port) -> Option<Trusted> {
        let trust = self.0.ports.get(&p)?.trust?;
        Some(Trusted::mode(trust.word()))
    }

    fn ecn(&self, p: Port) -> Option<&TcMap<Ecn>> {
        self.0.ports.get(&p).map(|s| &s.ecn)
    }

    fn ets(&self, p: Port) -> Option<&TcMap<Ets>> {
        self.0.ports.get(&p).map(|s| &s.ets)
    }

    /// Each cabled port in PFC mode outside a bundle, and each bundle in PFC mode: Onyx's
    /// interface table lists their `PFC oper`, not the priorities (its PFC is switch-wide).
    fn pfc(&self) -> Vec<PfcWant> {
        let sw = self.0;
        let want = |iface| PfcWant {
            iface,
            priorities: None,
            follows_members: false,
        };
        let mut out: Vec<PfcWant> = sw
            .ports
            .iter()
            .filter(|(_, s)| s.peer.is_some() && s.pfc && s.bundle.is_none())
            .map(|(p, _)| want(Iface::Ethernet(*p)))
            .collect();
        out.extend(
            sw.bundles
                .iter()
                .filter(|(_, b)| b.pfc)
                .map(|((mlag, id), _)| match mlag {
                    true => want(Iface::MlagPortChannel(*id)),
                    false => want(Iface::PortChannel(*id)),
                }),
        );
        out
    }

    fn paused(&self) -> Option<BTreeSet<u8>> {
        None
    }
}

/// The command that answers `q`, as typed on Onyx.
pub fn command(q: &Query) -> String {
    match q {
        Query::Lldp => "show lldp remote | json-print".into(),
        Query::Interfaces => "show interfaces ethernet | json-print".into(),
        Query::Pfc => "show dcb priority-flow-control | json-print".into(),
        Query::Trust(p) => format!("show qos interface ethernet {p} | json-print"),
        Query::Ecn(p) => format!("show interfaces ethernet {p} congestion-control | json-print"),
        Query::Ets(p) => format!("show dcb ets interface ethernet {p} | json-print"),
        Query::Pool(name) => format!("show traffic pool {name} | json-print"),
        Query::Bgp => "show ip bgp summary".into(),
        Query::Mlag => "show mlag".into(),
        Query::Route(net) => format!("show ip route {}", net.network().addr),
        Query::Counters => "show interfaces ethernet counters".into(),
    }
}

/// Reads an Onyx switch's reply to `q` into what the switch reported; why it does not read,
/// if it does not (nothing of it is kept then).
pub fn record(into: &mut Observed, q: &Query, reply: &str) -> Result<(), String> {
    match q {
        Query::Lldp => into.lldp = Some(json::lldp_remote(reply)?),
        Query::Interfaces => into.links = Some(json::interfaces(reply)?),
        Query::Pfc => into.pfc = Some(json::pfc(reply)?),
        Query::Trust(p) => {
            into.trust
                .insert(*p, Trusted::mode(json::trust(reply, *p)?));
        }
        Query::Ecn(p) => {
            into.ecn.insert(*p, json::congestion_control(reply, *p)?);
        }
        Query::Ets(p) => {
            into.ets.insert(*p, json::ets(reply, *p)?);
        }
        Query::Pool(name) => {
            into.pools
                .insert(name.clone(), json::traffic_pool(reply, name)?);
        }
        Query::Bgp => into.bgp = Some(text::bgp_summary(reply)?),
        Query::Mlag => into.mlag = Some(text::mlag(reply)?),
        Query::Route(net) => {
            into.routes.insert(*net, text::ip_route(reply)?);
        }
        Query::Counters => return Err("the counters are read by their own commands".into()),
    }
    Ok(())
}
