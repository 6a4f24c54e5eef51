//! Hosts against the switches they are cabled to: what each host's NIC must be set to
//! ([`Plan`], derived from the compiled switch configurations through
//! [`crate::audit::port_roce`] and the fabric's `qos.dscp`, never from fixed values), the
//! commands that set it and the read-only commands that report it ([`script`]), host reports
//! read back ([`report`]), the rules that compare them with the plan ([`rules`]) and the
//! health its NIC counters show between two readings ([`counters`]).
//! Nothing here prints, reads files or opens connections.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::audit::view::View;
use crate::audit::{PortRoce, port_roce};
use crate::fabric::{Fabric, Host, Peer};
use crate::types::{HostOs, Hostname, Port};

pub mod counters;
pub mod groups;
pub mod report;
pub mod rules;
pub mod script;

pub use rules::{HOST_RULES, HostRule, audit_host, host_rule};

/// The two low bits of the IP ToS byte RoCE packets carry: ECT(0), "ECN-capable transport"
/// (RFC 3168 §5), so switches mark congestion instead of dropping. ToS = DSCP << 2 | 0b10:
/// DSCP 26 → 106, as NVIDIA's lossless RoCE recipe writes `cma_roce_tos -t 106` (the
/// att/netarbiter capture in `tests/fixtures/corpus/hosts/`).
pub const ECT0: u8 = 0b10;

/// What one host must be set to, and through which of its ports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Plan {
    pub host: String,
    pub os: HostOs,
    pub nic: &'static str,
    /// The MTU of its RoCE interfaces (Linux netdev; ESXi vmknic and vSwitch).
    pub mtu: u16,
    /// The DSCP RoCE data is marked with, and the switch priority it lands on.
    pub roce_dscp: u8,
    pub roce_priority: u8,
    /// The ToS byte RoCE connections use: DSCP << 2 | ECT(0).
    pub tos: u8,
    /// The DSCP of congestion notification packets, and its priority, when the fabric says.
    pub cnp_dscp: Option<u8>,
    pub cnp_priority: Option<u8>,
    /// Whether the switches serve the CNP's traffic class strict.
    pub cnp_strict: bool,
    /// Priorities with PFC on.
    pub pfc: BTreeSet<u8>,
    /// Priorities whose DCQCN notification and reaction points must be on: the RoCE
    /// priority and every lossless (PFC) one, so congestion the switches mark with ECN slows
    /// the senders before PFC has to pause the link.
    pub dcqcn: BTreeSet<u8>,
    pub ports: Vec<PortPlan>,
}

/// One NIC port and the switch port it is cabled to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PortPlan {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rdma: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vmknic: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vswitch: Option<String>,
    pub switch: String,
    pub switch_port: String,
    /// What the switch's `verify:` tolerates of the port's counters (the host's end is judged
    /// as `fabric verify --counters` judges the switch's).
    #[serde(skip)]
    pub thresholds: crate::fabric::Thresholds,
    /// The switch's interface as its OS names it (Onyx `ethernet 1/9`, OS10
    /// `ethernet1/1/9`), for messages.
    #[serde(skip)]
    pub switch_iface: String,
    pub switch_mtu: u16,
    /// The port carries RDMA: every Linux port; an ESXi uplink with a vmknic (or every
    /// uplink of a host that names none).
    pub rdma_port: bool,
}

impl Plan {
    /// PFC as `mlnx_qos --pfc` takes it: eight 0/1, priority 0 first.
    pub fn pfc_vector(&self) -> String {
        (0..8u8)
            .map(|p| if self.pfc.contains(&p) { "1" } else { "0" })
            .collect::<Vec<_>>()
            .join(",")
    }

    /// PFC as nmlx5_core's `pfctx`/`pfcrx` take it: bit N for priority N, in hex.
    pub fn pfc_mask(&self) -> u8 {
        self.pfc.iter().fold(0, |m, p| m | (1 << p))
    }
}

/// A host whose switch ports disagree, or cannot say what the host must be: why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub host: String,
    pub message: String,
}

/// Each host's plan (hosts in name order, `only` when given), or why it has none.
pub fn plans(
    fabric: &Fabric,
    configs: &BTreeMap<Hostname, View>,
    only: &[String],
) -> Vec<Result<Plan, Conflict>> {
    // Every switch port whose peer names a declared host, by host.
    let mut cabled: BTreeMap<&str, Vec<(&str, Port, &str)>> = BTreeMap::new();
    for (name, sw) in &fabric.switches {
        for (port, s) in &sw.ports {
            if let Some(Peer::Host {
                host,
                port: Some(nic),
            }) = &s.peer
            {
                cabled
                    .entry(host.as_str())
                    .or_default()
                    .push((name.as_str(), *port, nic.as_str()));
            }
        }
    }
    let only: BTreeSet<&str> = only.iter().map(String::as_str).collect();
    fabric
        .hosts
        .values()
        .filter(|h| only.is_empty() || only.contains(h.name.as_str()))
        .map(|h| {
            plan(
                h,
                fabric,
                configs,
                cabled.get(h.name.as_str()).map_or(&[][..], Vec::as_slice),
            )
        })
        .collect()
}

fn plan(
    h: &Host,
    fabric: &Fabric,
    configs: &BTreeMap<Hostname, View>,
    cabled: &[(&str, Port, &str)],
) -> Result<Plan, Conflict> {
    let conflict = |message: String| Conflict {
        host: h.name.to_string(),
        message,
    };
    let esxi_rdma = h.ports.values().any(|p| p.vmknic.is_some());
    let mut ports = Vec::new();
    // What each RDMA port's switch port says: (where, facts, RoCE DSCP, CNP DSCP).
    let mut said = Vec::new();
    for (switch, port, nic) in cabled {
        let Some(hp) = h.ports.get(*nic) else {
            continue;
        };
        crate::steps::one();
        // Looked up by name: a scan of the switches per cable was switches × hosts.
        let Some((hostname, sw)) = fabric.switches.get_key_value(*switch) else {
            continue;
        };
        let Some(config) = configs.get(hostname) else {
            return Err(conflict(format!("switch `{switch}` was not compiled")));
        };
        let facts = port_roce(config, *port);
        let rdma_port = match h.os {
            HostOs::Linux => true,
            HostOs::Esxi => hp.vmknic.is_some() || !esxi_rdma,
        };
        ports.push(PortPlan {
            name: (*nic).to_string(),
            rdma: hp.rdma.clone(),
            vmknic: hp.vmknic.clone(),
            vswitch: hp.vswitch.clone(),
            switch: (*switch).to_string(),
            switch_port: port.to_string(),
            switch_iface: sw.os().target().iface_range(crate::types::IfaceRange {
                first: crate::types::Iface::Ethernet(*port),
                last: crate::types::Iface::Ethernet(*port),
            }),
            switch_mtu: facts.mtu,
            thresholds: sw.verify,
            rdma_port,
        });
        if rdma_port {
            said.push((
                format!("{switch} ethernet {port} ({nic})"),
                facts,
                sw.qos.dscp.roce,
                sw.qos.dscp.cnp,
            ));
        }
    }
    ports.sort_by(|a, b| a.name.cmp(&b.name));
    let Some((first, facts, roce, cnp)) = said.first() else {
        return Err(conflict("no switch port is cabled to it".into()));
    };
    let Some(roce) = roce else {
        return Err(conflict(format!(
            "the fabric does not say which DSCP RoCE is marked with on {first}: add `qos: {{ dscp: {{ roce: 26, cnp: 48 }} }}`"
        )));
    };
    let Some(roce_priority) = facts.priority_of(*roce) else {
        return Err(conflict(format!(
            "{first} trusts {:?}, not L3: the host's DSCP marking would not be read",
            facts.trust
        )));
    };
    let key = |f: &PortRoce, r: Option<crate::types::Dscp>, c: Option<crate::types::Dscp>| {
        (
            r.and_then(|d| f.priority_of(d)),
            r,
            c,
            f.pfc.clone(),
            c.and_then(|d| f.priority_of(d)),
        )
    };
    let mine = key(facts, Some(*roce), *cnp);
    for (other, f, r, c) in &said[1..] {
        let theirs = key(f, *r, *c);
        if theirs != mine {
            return Err(conflict(format!(
                "its switch ports disagree: {first} puts RoCE (DSCP {}) on priority {} with PFC on {}; {other} puts RoCE (DSCP {}) on priority {} with PFC on {}",
                roce.get(),
                roce_priority,
                list(&facts.pfc),
                r.map_or("none".into(), |d| d.get().to_string()),
                theirs.0.map_or("none".into(), |p| p.to_string()),
                list(&f.pfc),
            )));
        }
    }
    let cnp_priority = cnp.and_then(|d| facts.priority_of(d));
    let mut dcqcn = facts.pfc.clone();
    dcqcn.insert(roce_priority);
    Ok(Plan {
        host: h.name.to_string(),
        os: h.os,
        nic: h.nic.name,
        mtu: h.mtu,
        roce_dscp: roce.get(),
        roce_priority,
        tos: roce.get() << 2 | ECT0,
        cnp_dscp: cnp.map(|d| d.get()),
        cnp_priority,
        cnp_strict: cnp_priority.is_some_and(|p| facts.strict.contains(&p)),
        pfc: facts.pfc.clone(),
        dcqcn,
        ports,
    })
}

/// Priorities as a list (`3 4`), or `none`.
pub(crate) fn list(set: &BTreeSet<u8>) -> String {
    if set.is_empty() {
        return "none".into();
    }
    set.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}
