//! What `fabric verify` sends Onyx and reads of it ([`crate::targets::Reads`]): one `show`
//! per query of the checks, the JSON of `| json-print` where Onyx prints it ([`json`]), the
//! text of `show ip bgp summary`, `show mlag` and `show ip route` ([`text`]), each reply read
//! into the OS-neutral values of [`crate::verify::observed`].

use crate::device::dialect::{self, Dialect};
use crate::fabric::Switch;
use crate::targets::{Ask, Reads, Said};
use crate::types::Port;
use crate::verify::{Observed, Query};

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
};

impl Reads for OnyxReads {
    fn dialect(&self) -> &'static Dialect {
        &dialect::ONYX
    }

    fn asks(&self, _sw: &Switch, queries: &[Query]) -> Vec<Ask> {
        queries
            .iter()
            .map(|q| Ask::query(command(q), q.clone()))
            .collect()
    }

    fn read_query(&self, q: &Query, reply: &str, into: &mut Observed) -> Result<(), String> {
        record(into, q, reply)
    }

    fn port_id(&self, text: &str) -> Option<Port> {
        json::port_id(text)
    }

    fn said(&self) -> &'static Said {
        &SAID
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
            into.trust.insert(*p, json::trust(reply, *p)?);
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
    }
    Ok(())
}
