//! What `fabric verify` sends OS10 and reads of it ([`crate::targets::Reads`]): the checks'
//! queries asked with OS10's own commands (the PFC of each interface in PFC mode, the QoS
//! families from one running configuration, the VLT port-channels after the pair), each
//! reply read ([`read`]) into the OS-neutral values of [`crate::verify::observed`]; the QoS
//! of a running configuration, and of the one the fabric compiles to, as the checks compare
//! them (`qos`).

use std::collections::BTreeMap;

use crate::fabric::Switch;
use crate::onyx::Iface as NeutralIface;
use crate::targets::{Ask, Reads, Said, Wanted};
use crate::types::Port;
use crate::verify::{Observed, Query};

use super::show::VLT_DOMAIN;

pub mod counters;
mod qos;
pub mod read;

/// OS10's reads.
pub struct Os10Reads;

pub static READS: Os10Reads = Os10Reads;

/// How OS10's replies name what the findings quote.
static SAID: Said = Said {
    links: "show interface status",
    pfc_all: None,
    pfc_oper: "Oper status",
    pfc_admin: "Admin mode",
    paused_by: "the network-qos policies in use (`pause`, `pfc-cos`)",
    ecn: qos::ecn,
    ets: qos::ets,
    peer_link: "VLTi",
    pair_mac: "VLT MAC",
    pair_status,
};

/// The VLT peer's status, as `show vlt` prints it (`up`, `down`; read as Onyx's `Up`).
fn pair_status(oper: &str) -> String {
    format!("VLT peer status: {}", oper.to_lowercase())
}

impl Reads for Os10Reads {
    /// The same checks as Onyx's, each asked with OS10's commands: PFC per interface, the QoS
    /// families from one running configuration, VLT's port-channels after the pair.
    fn asks(&self, sw: &Switch, queries: Vec<Query>) -> Vec<Ask> {
        let mut asks = Vec::new();
        let mut running = false;
        for q in queries {
            match q {
                Query::Pfc => asks.extend(pfc_interfaces(sw).into_iter().map(pfc_of)),
                Query::Trust(_) | Query::Ecn(_) | Query::Ets(_) | Query::Pool(_) => {
                    if !running {
                        running = true;
                        asks.push(running_configuration(qos::ports(sw)));
                    }
                }
                Query::Mlag => asks.extend([
                    Ask::query(format!("show vlt {VLT_DOMAIN}"), Query::Mlag),
                    vlt_ports(),
                ]),
                Query::Lldp => asks.push(Ask::query("show lldp neighbors".into(), Query::Lldp)),
                Query::Interfaces => {
                    asks.push(Ask::query(
                        "show interface status".into(),
                        Query::Interfaces,
                    ));
                }
                Query::Bgp => asks.push(Ask::query("show ip bgp summary".into(), Query::Bgp)),
                Query::Route(net) => asks.push(Ask::query(
                    format!("show ip route {}", net.network()),
                    Query::Route(net),
                )),
                Query::Counters => asks.extend(counters::asks(sw)),
            }
        }
        asks
    }

    fn read_query(&self, q: &Query, reply: &str, into: &mut Observed) -> Result<(), String> {
        match q {
            Query::Lldp => into.lldp = Some(read::lldp_neighbors(reply)?),
            Query::Interfaces => into.links = Some(read::interface_status(reply)?),
            Query::Bgp => into.bgp = Some(read::bgp_summary(reply)?),
            Query::Mlag => into.mlag = Some(read::vlt(reply)?),
            Query::Route(net) => {
                into.routes.insert(*net, read::ip_route(reply)?);
            }
            // Asked with commands of OS10's own (`asks`), each read by its own reader.
            Query::Pfc
            | Query::Trust(_)
            | Query::Ecn(_)
            | Query::Ets(_)
            | Query::Pool(_)
            | Query::Counters => {
                return Err(format!("{q:?} is not one command on OS10"));
            }
        }
        Ok(())
    }

    fn port_id(&self, text: &str) -> Option<Port> {
        read::port_name(text)
    }

    fn wanted<'a>(&self, sw: &'a Switch) -> Box<dyn Wanted + 'a> {
        Box::new(qos::Compiled::of(sw))
    }

    fn said(&self) -> &'static Said {
        &SAID
    }

    fn counters_not_read(&self) -> &'static [crate::verify::counters::NotRead] {
        &counters::NOT_READ
    }
}

/// The VLT port-channels of both units (`show vlt N vlt-port-detail`): Onyx's `show mlag`
/// counts them itself.
fn vlt_ports() -> Ask {
    Ask::own(
        format!("show vlt {VLT_DOMAIN} vlt-port-detail"),
        None,
        |reply, into| {
            into.pair_ports = Some(read::vlt_ports(reply)?);
            Ok(())
        },
    )
}

/// The PFC of one interface (`show interface NAME priority-flow-control`): Onyx's `show dcb
/// priority-flow-control` lists every interface at once.
fn pfc_of(i: NeutralIface) -> Ask {
    let name = name(i);
    let port = match i {
        NeutralIface::Ethernet(p) => Some(p),
        _ => None,
    };
    Ask::own(
        format!("show interface {name} priority-flow-control"),
        port,
        move |reply, into| {
            let pfc = read::pfc_interface(reply, &name)?;
            into.pfc.get_or_insert_with(BTreeMap::new).insert(i, pfc);
            Ok(())
        },
    )
}

/// The running configuration, for its QoS (trust, ETS, ECN, the priorities it pauses) on
/// `ports` (with whether each one's trust is checked): Onyx prints each as a `show` of its
/// own.
fn running_configuration(ports: Vec<(Port, bool)>) -> Ask {
    Ask::own(
        "show running-configuration".into(),
        None,
        move |reply, into| {
            qos::record(&read::running(reply)?, &ports, into);
            Ok(())
        },
    )
}

/// An interface as OS10 names it (`ethernet1/1/9`, `port-channel1`).
fn name(i: NeutralIface) -> String {
    match i {
        NeutralIface::Ethernet(p) => super::Iface::Ethernet(crate::os10::eth_of(p)).to_string(),
        NeutralIface::PortChannel(n) | NeutralIface::MlagPortChannel(n) => {
            format!("port-channel{n}")
        }
        other => other.to_string(),
    }
}

/// The interfaces of an OS10 switch in PFC mode that carry traffic, as `fabric push`
/// configures them ([`crate::os10::compile`]).
fn pfc_interfaces(sw: &Switch) -> Vec<NeutralIface> {
    pfc_interfaces_of(sw, &super::compile::compile_switch(sw))
}

/// The interfaces `intended` (the fabric's `sw` compiled) puts in PFC mode that carry
/// traffic: its cabled ports (the VLTi's included, which carry the pair's QoS themselves) and
/// its port-channels.
fn pfc_interfaces_of(sw: &Switch, intended: &super::Config) -> Vec<NeutralIface> {
    intended
        .interfaces
        .iter()
        .filter(|(_, i)| i.pfc)
        .filter_map(|(k, _)| match k {
            super::Iface::Ethernet(e) => {
                let p = crate::os10::port_of(*e);
                sw.ports
                    .get(&p)
                    .is_some_and(|s| s.peer.is_some())
                    .then_some(NeutralIface::Ethernet(p))
            }
            super::Iface::PortChannel(n) => Some(NeutralIface::PortChannel(*n)),
            _ => None,
        })
        .collect()
}
