//! Cumulus behind `fabric audit` ([`crate::targets::Audit`], [`crate::targets::Audited`]):
//! the RoCE view of an NVUE tree, the `nv set` lines that fix a finding, drift from a fabric's
//! switch by object, and a live switch's configuration (unsaved when `startup.yaml` differs).
//!
//! NVUE's QoS is switch-wide (the `default-global` profiles apply to every port): each port's
//! trust, PFC, ECN and ETS in the view are the switch's. With `qos roce` on, its profile's
//! values hold where no explicit object overrides them ([`ROCE_PROFILE`]); without it, NVUE's
//! defaults ([`DEFAULTS`]).

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use super::Config;
use super::target::Cumulus;
use super::tree::{self, Tree};
use crate::audit::view::{BgpView, Pfc, PortView, SessionView, View, VlanIface};
use crate::audit::{Drift, Part};
use crate::device::{Cli, Error, Options, Target};
use crate::fabric::{Hardware, Switch};
use crate::targets::{self, Fix, Fixes};
use crate::types::{
    Ecn, EcnMode, EcnThresholds, Ets, Iface, IfaceRange, Port, RoceMode, Speed, TcMap,
    TrafficClass, Trust,
};

/// The interface number the view gives the `peerlink` bond (Cumulus names it, not numbers
/// it; port-channels elsewhere start at 1).
pub const PEERLINK: u16 = 0;

/// NVIDIA's RoCE profile (DOC-ROCE "Default RoCE Configuration", its values confirmed by the
/// SN2100 capture's *Expected* lines): trust `pcp,dscp`, PFC on switch priority 3, ECN on
/// traffic classes 0 and 3 at 150000/1500000 bytes, TC 6 strict, TC 3 and TC 0 DWRR 50 %.
pub struct Profile {
    pub trust: Trust,
    pub pfc: &'static [u8],
    pub ecn: &'static [(u8, u32, u32)],
    pub ets: &'static [(u8, Ets)],
}

pub const ROCE_PROFILE: Profile = Profile {
    trust: Trust::Both,
    pfc: &[3],
    ecn: &[(0, 150, 1500), (3, 150, 1500)],
    ets: &[(0, Ets::Wrr(50)), (3, Ets::Wrr(50)), (6, Ets::Strict)],
};

/// NVUE's defaults without RoCE (DOC-QOS's default `qos_features.conf`; the VX 5.5.1 JSON of
/// the Air workshop): trust PCP (`l2`), no PFC, ECN on TC 0 at 150000/1500000 bytes, every
/// class DWRR 12/13 % alternating.
pub const DEFAULTS: Profile = Profile {
    trust: Trust::L2,
    pfc: &[],
    ecn: &[(0, 150, 1500)],
    ets: &[
        (0, Ets::Wrr(12)),
        (1, Ets::Wrr(13)),
        (2, Ets::Wrr(12)),
        (3, Ets::Wrr(13)),
        (4, Ets::Wrr(12)),
        (5, Ets::Wrr(13)),
        (6, Ets::Wrr(12)),
        (7, Ets::Wrr(13)),
    ],
};

/// The switch-wide QoS as the ports take it.
pub(crate) struct SwitchQos {
    pub(crate) trust: Trust,
    pub(crate) pfc: BTreeSet<u8>,
    pub(crate) ecn: TcMap<Ecn>,
    pub(crate) ets: TcMap<Ets>,
    roce: Option<RoceMode>,
}

fn tc(n: u8) -> Option<TrafficClass> {
    TrafficClass::new(i64::from(n)).ok()
}

fn on(t: &Tree, path: &[&str]) -> bool {
    tree::switched(t, path) == Some(true)
}

pub(crate) fn switch_qos(t: &Tree) -> SwitchQos {
    let roce = match tree::get(t, &["qos", "roce"]) {
        Some(_)
            if on(t, &["qos", "roce"]) || tree::value(t, &["qos", "roce", "mode"]).is_some() =>
        {
            match tree::value(t, &["qos", "roce", "mode"]).unwrap_or("lossless") {
                "lossless" | "lossless-single-ipool" => Some(RoceMode::Lossless),
                _ => Some(RoceMode::Lossy),
            }
        }
        _ => None,
    };
    let base = match roce {
        Some(_) => &ROCE_PROFILE,
        None => &DEFAULTS,
    };
    let mut q = SwitchQos {
        trust: base.trust,
        pfc: match roce {
            Some(RoceMode::Lossless) | None => base.pfc.iter().copied().collect(),
            Some(_) => BTreeSet::new(),
        },
        ecn: TcMap::new(),
        ets: TcMap::new(),
        roce,
    };
    for (c, min, max) in base.ecn {
        let e = Ecn {
            mode: EcnMode::Ecn,
            thresholds: EcnThresholds::Absolute {
                min: *min,
                max: *max,
            },
        };
        if let Some(c) = tc(*c) {
            q.ecn.insert(c, e);
        }
    }
    for (c, e) in base.ets {
        if let Some(c) = tc(*c) {
            q.ets.insert(c, *e);
        }
    }
    if let Some(tr) = tree::value(t, &["qos", "mapping", "default-global", "trust"]) {
        q.trust = match tr {
            "l3" | "dscp" => Trust::L3,
            "both" | "pcp,dscp" => Trust::Both,
            _ => Trust::L2,
        };
    }
    let pfc = tree::names(t, &["qos", "pfc", "default-global", "switch-priority"]);
    if !pfc.is_empty() {
        q.pfc = pfc.iter().filter_map(|p| p.parse().ok()).collect();
    }
    let cc = [
        "qos",
        "congestion-control",
        "default-global",
        "traffic-class",
    ];
    for c in tree::names(t, &cc) {
        let Some(class) = c.parse().ok().and_then(tc) else {
            continue;
        };
        let at = |k: &str| tree::value(t, &[&cc[..], &[c, k]].concat());
        if at("ecn") == Some("disable") {
            q.ecn.remove(&class);
            continue;
        }
        let kb = |k: &str| {
            at(k)
                .and_then(|v| v.parse::<u64>().ok())
                .map(|b| (b / 1000) as u32)
        };
        if let (Some(min), Some(max)) = (kb("min-threshold"), kb("max-threshold")) {
            q.ecn.insert(
                class,
                Ecn {
                    mode: EcnMode::Ecn,
                    thresholds: EcnThresholds::Absolute { min, max },
                },
            );
        }
    }
    let es = ["qos", "egress-scheduler", "default-global", "traffic-class"];
    for c in tree::names(t, &es) {
        let Some(class) = c.parse().ok().and_then(tc) else {
            continue;
        };
        let at = |k: &str| tree::value(t, &[&es[..], &[c, k]].concat());
        match at("mode") {
            Some("strict") => {
                q.ets.insert(class, Ets::Strict);
            }
            Some(_) | None => {
                if let Some(w) = at("bw-percent").and_then(|w| w.parse().ok()) {
                    q.ets.insert(class, Ets::Wrr(w));
                }
            }
        }
    }
    q
}

/// An interface name as the view keys it: `swp5` a port, `bondN` a bundle (an MLAG one when
/// it has a `bond mlag id`), `peerlink` the IPL.
fn iface_of(t: &Tree, name: &str) -> Option<Iface> {
    if let Some(p) = super::rules::port(name) {
        return Some(Iface::Ethernet(p));
    }
    if name == "peerlink" {
        return Some(Iface::PortChannel(PEERLINK));
    }
    let n: u16 = name.strip_prefix("bond")?.parse().ok()?;
    match tree::get(t, &["interface", name, "bond", "mlag", "id"]) {
        Some(_) => Some(Iface::MlagPortChannel(n)),
        None => Some(Iface::PortChannel(n)),
    }
}

fn port_view(t: &Tree, name: &str, q: &SwitchQos, bridge: &BTreeSet<u16>) -> PortView {
    let at = |rest: &[&str]| tree::get(t, &[&["interface", name][..], rest].concat());
    let val = |rest: &[&str]| at(rest).and_then(|n| n.leaf()).map(str::to_string);
    let down = at(&["link", "state", "down"]).is_some();
    // A port that is down carries no traffic: the switch-wide marking and scheduling are
    // not read on it.
    let mut v = PortView {
        pfc: !down && !q.pfc.is_empty(),
        ecn: if down { TcMap::new() } else { q.ecn },
        ets: if down { TcMap::new() } else { q.ets },
        mtu: val(&["link", "mtu"]).and_then(|m| m.parse().ok()),
        speed: val(&["link", "speed"]).and_then(|s| Speed::parse(&s).ok()),
        description: at(&["description"]).is_some(),
        shutdown: match (at(&["link", "state", "down"]), at(&["link", "state", "up"])) {
            (Some(_), _) => Some(true),
            (None, Some(_)) => Some(false),
            _ => None,
        },
        ..PortView::default()
    };
    let own = tree::names(t, &["interface", name]);
    v.configured = own.iter().any(|k| !matches!(*k, "type" | "link"))
        || tree::names(t, &["interface", name, "link"])
            .iter()
            .any(|k| !matches!(*k, "breakout" | "state"));
    v.split = tree::get(t, &["interface", name])
        .and_then(tree::Node::map)
        .and_then(tree::breakout);
    v.routed = !tree::names(t, &["interface", name, "ip", "address"]).is_empty();
    let domain = ["bridge", "domain", "br_default"];
    if at(&domain).is_some() {
        if let Some(a) = val(&[&domain[..], &["access"]].concat()).and_then(|a| a.parse().ok()) {
            v.vlans.insert(a);
        } else {
            let own: BTreeSet<u16> = tree::names(
                t,
                &[&["interface", name][..], &domain[..], &["vlan"]].concat(),
            )
            .iter()
            .filter_map(|x| x.parse().ok())
            .collect();
            match own.is_empty() {
                true => v.vlans = bridge.clone(),
                false => v.vlans = own,
            }
        }
    }
    v
}

/// The RoCE view of an NVUE tree.
pub fn view(c: &Config, hardware: Option<Hardware>) -> View {
    let t = &c.set;
    let q = switch_qos(t);
    let bridge: BTreeSet<u16> = tree::names(t, &["bridge", "domain", "br_default", "vlan"])
        .iter()
        .filter_map(|v| v.parse().ok())
        .collect();
    let mut ports = BTreeMap::new();
    let mut members: Vec<(String, Iface)> = Vec::new();
    for name in tree::names(t, &["interface"]) {
        let Some(iface) = iface_of(t, name) else {
            continue;
        };
        let mut v = port_view(t, name, &q, &bridge);
        if name == "peerlink" {
            v.ipl = true;
        }
        for m in tree::names(t, &["interface", name, "bond", "member"]) {
            members.push((m.to_string(), iface));
        }
        ports.insert(iface, v);
    }
    for (m, bond) in members {
        let Some(p) = super::rules::port(&m) else {
            continue;
        };
        let v = ports
            .entry(Iface::Ethernet(p))
            .or_insert_with(|| port_view(t, &m, &q, &bridge));
        v.lag = Some(bond);
        v.ipl_member = bond == Iface::PortChannel(PEERLINK);
    }
    let vlan_ifaces = tree::names(t, &["interface"])
        .into_iter()
        .filter_map(|n| {
            let v: u16 = n.strip_prefix("vlan")?.parse().ok()?;
            let routed = !tree::names(t, &["interface", n, "ip", "address"]).is_empty();
            let mtu = tree::value(t, &["interface", n, "link", "mtu"]).and_then(|m| m.parse().ok());
            routed.then_some((
                crate::types::Vlan::new(i64::from(v)).ok()?,
                VlanIface { mtu },
            ))
        })
        .collect();
    let pools: BTreeSet<u8> = tree::names(t, &["qos", "traffic-pool"])
        .iter()
        .flat_map(|p| tree::names(t, &["qos", "traffic-pool", p, "switch-priority"]))
        .filter_map(|p| p.parse().ok())
        .chain((q.roce == Some(RoceMode::Lossless)).then_some(3))
        .collect();
    View {
        os: super::target::OS,
        ports,
        pfc: Pfc {
            enabled: !q.pfc.is_empty(),
            priorities: q.pfc.clone(),
        },
        lossless_pools: Some(pools),
        roce_mode: q.roce,
        // LLDP runs on every Cumulus port by default (lldpd); `qos roce` sends the RoCE
        // application TLV (DOC-ROCE table).
        dcbx: true,
        default_port: PortView {
            pfc: !q.pfc.is_empty(),
            ecn: q.ecn,
            ets: q.ets,
            ..PortView::default()
        },
        default_trust: Some(q.trust),
        default_mtu: 9216,
        hardware,
        vlan_ifaces,
        bgp: bgp(t),
    }
}

/// The BGP sessions to addresses (an unnumbered session has none: the failure-detection
/// rule reads the numbered ones); FRR's `datacenter` defaults hold 9 s (the frr.conf NVUE
/// renders: `timers bgp 3 9`).
fn bgp(t: &Tree) -> Option<BgpView> {
    let asn: u32 = tree::value(t, &["router", "bgp", "autonomous-system"])?
        .parse()
        .ok()?;
    let nb = ["vrf", "default", "router", "bgp", "neighbor"];
    let mut sessions = BTreeMap::new();
    let mut any_bfd = false;
    for n in tree::names(t, &nb) {
        let bfd = on(t, &[&nb[..], &[n, "bfd"]].concat());
        any_bfd |= bfd;
        let Ok(addr) = n.parse::<Ipv4Addr>() else {
            continue;
        };
        let hold = tree::value(t, &[&nb[..], &[n, "timers", "hold"]].concat())
            .and_then(|h| h.parse().ok());
        sessions.insert(addr, SessionView { bfd, hold });
    }
    let routed = tree::names(t, &["interface"])
        .into_iter()
        .flat_map(|i| tree::names(t, &["interface", i, "ip", "address"]))
        .filter_map(|a| a.parse::<crate::types::Ipv4Net>().ok())
        .collect();
    Some(BgpView {
        asn,
        routed,
        bfd: any_bfd,
        default_hold: 9,
        sessions,
    })
}

/// Cumulus's fixes: `nv set` lines; NVUE's QoS is switch-wide, so a port's ECN, ETS, trust
/// or PFC has no line of its own (the message says what is wrong).
pub static FIXES: Fixes = Fixes {
    a: "a Cumulus",
    ecn: None,
    ets: None,
    trust_l3: None,
    pfc_mode: None,
    mtu: |mtu: u16| format!("link mtu {mtu}"),
    pfc_priority: Some(|p: u8| format!("nv set qos pfc default-global switch-priority {p}")),
    save: Some("nv config save"),
    dcbx_off: (
        "RoCE is configured but LLDP does not send its settings",
        None,
    ),
    pfc_mode_alone: ("ports are in PFC mode but no PFC priority is set", None),
    pfc_global: (
        "PFC runs on the switch (`qos pfc default-global`)",
        Some("nv unset qos pfc default-global"),
    ),
    bfd: "nv set vrf default router bgp neighbor <neighbor> bfd enable on",
    neighbor_bfd: |_asn: u32, addr: Ipv4Addr| {
        Fix::Line(format!(
            "nv set vrf default router bgp neighbor {addr} bfd enable on"
        ))
    },
};

impl targets::Audit for Cumulus {
    fn parts(&self) -> &'static [Part] {
        &[]
    }

    fn fixes(&self) -> &'static Fixes {
        &FIXES
    }

    /// `nv set interface swp1-8 link mtu 9216`.
    fn on_interfaces(&self, _r: IfaceRange, name: &str, line: &str) -> String {
        format!("nv set interface {name} {line}")
    }

    /// `swp5` (a description names its peer's port so).
    fn described_port(&self, text: &str) -> Option<Port> {
        super::rules::port(text.trim())
    }

    /// `nv config show -o yaml`; unsaved when `/etc/nvue.d/startup.yaml` is another tree or
    /// does not read.
    fn read_live(
        &self,
        target: &Target,
        opts: &Options,
    ) -> Result<(Box<dyn targets::Config>, bool), Error> {
        let mut cli = Cli::open_as(target, opts, &super::dialect::DIALECT)?;
        let (_, config) = super::dialect::fetch(&mut cli)?;
        let startup = cli.run(super::dialect::SHOW_STARTUP)?;
        cli.close();
        let unsaved = Config::parse(&startup).map_or(true, |s| s.set != config.set);
        Ok((Box::new(config), unsaved))
    }
}

impl targets::Audited for Config {
    fn view(&self, hardware: Option<Hardware>) -> View {
        view(self, hardware)
    }

    fn onyx_model(&self) -> Option<&crate::onyx::Config> {
        None
    }

    fn descriptions(&self) -> Vec<(Port, &str)> {
        tree::names(&self.set, &["interface"])
            .into_iter()
            .filter_map(|n| {
                let p = super::rules::port(n)?;
                Some((p, tree::value(&self.set, &["interface", n, "description"])?))
            })
            .collect()
    }

    /// Per object (`interface swp1`, `qos pfc`, `router bgp` …), the commands that bring it
    /// back to the fabric's switch.
    fn drift(&self, sw: &Switch) -> Vec<Drift> {
        let intended = super::compile::compile(sw);
        let target = super::plan::target(&self.set, &intended.set, true);
        let mut by: BTreeMap<String, (Vec<String>, Option<Iface>)> = BTreeMap::new();
        for (c, _) in super::plan::plan(&self.set, &target) {
            let object = c.path.iter().take(2).cloned().collect::<Vec<_>>().join(" ");
            let iface = match c.path.first().map(String::as_str) {
                Some("interface") => c
                    .path
                    .get(1)
                    .and_then(|n| iface_of(&self.set, n).or_else(|| iface_of(&target, n))),
                _ => None,
            };
            let e = by.entry(object).or_insert((Vec::new(), iface));
            e.0.push(c.line());
        }
        by.into_iter()
            .map(|(object, (lines, iface))| Drift {
                object,
                command: lines.join("\n"),
                ifaces: iface.into_iter().collect(),
            })
            .collect()
    }
}
