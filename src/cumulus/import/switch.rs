//! One Cumulus switch's tree in the format's terms: its ports' attributes, release, QoS,
//! VLANs and gateways, loopback and BGP.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use serde_saphyr::{FlowMap, FlowSeq};

use super::{PortKey, Prepared, bridge_vlans, description, model, unnumbered_ports, vlan_docs};
use crate::cumulus::Config;
use crate::cumulus::compile::STATE_SINCE;
use crate::cumulus::tree::{self, Node, Tree};
use crate::fabric::RemoteAs;
use crate::import::Source;
use crate::import::doc::{
    BfdDoc, BgpDoc, EcnDoc, EtsDoc, NeighborDoc, PfcDoc, PfcField, PoolDoc, Qos, TimersDoc, VlanDoc,
};
use crate::import::links::{self, Links};
use crate::import::ports::Attr;
use crate::types::{Ipv4Net, Port};

/// The switch's release: the header's `version` (`Cumulus Linux 5.9.2`), else, where the
/// tree turns an object on as `enable: on` (the spelling before [`STATE_SINCE`]), the last
/// release before it this crate knows (the spelling is all the compile reads of it).
pub(super) fn release(c: &Config) -> Option<String> {
    let header = c
        .header
        .as_ref()
        .and_then(|h| tree::value(h, &["version"]))
        .and_then(crate::cumulus::rules::release);
    if let Some((a, b, d)) = header {
        return Some(format!("{a}.{b}.{d}"));
    }
    let old = [
        &["router", "bgp", "enable"][..],
        &["vrf", "default", "router", "bgp", "enable"],
        &["mlag", "enable"],
        &["qos", "roce", "enable"],
    ]
    .iter()
    .any(|p| tree::value(&c.set, p) == Some("on"));
    old.then(|| format!("{}.{}.0", STATE_SINCE.0, STATE_SINCE.1 - 1))
}

/// The names under `path`, as numbers.
fn numbers(t: &Tree, path: &[&str]) -> BTreeSet<u8> {
    tree::names(t, path)
        .into_iter()
        .filter_map(|n| n.parse().ok())
        .collect()
}

/// The priorities PFC pauses (`qos pfc default-global switch-priority`).
fn lossless(c: &Config) -> BTreeSet<u8> {
    numbers(&c.set, &["qos", "pfc", "default-global", "switch-priority"])
}

/// `qos mapping default-global trust` in the format's words.
fn trust(c: &Config) -> Option<&'static str> {
    match tree::value(&c.set, &["qos", "mapping", "default-global", "trust"])? {
        "l2" => Some("L2"),
        "l3" => Some("L3"),
        "both" => Some("both"),
        _ => None,
    }
}

/// ECN per traffic class: thresholds in KB (NVUE's bytes / 1000).
fn ecn(c: &Config) -> BTreeMap<u8, EcnDoc> {
    let at = [
        "qos",
        "congestion-control",
        "default-global",
        "traffic-class",
    ];
    let mut out = BTreeMap::new();
    for tc in numbers(&c.set, &at) {
        let tcs = tc.to_string();
        let v = |k: &str| tree::value(&c.set, &[&at[..], &[tcs.as_str(), k]].concat());
        let kb = |k: &str| {
            v(k).and_then(|b| b.parse::<u64>().ok())
                .filter(|b| b % 1000 == 0)
                .and_then(|b| u32::try_from(b / 1000).ok())
        };
        if v("ecn") == Some("enable") {
            out.insert(
                tc,
                EcnDoc {
                    mode: None,
                    min: kb("min-threshold"),
                    max: kb("max-threshold"),
                    min_percent: None,
                    max_percent: None,
                },
            );
        }
    }
    out
}

/// ETS per traffic class.
fn ets(c: &Config) -> BTreeMap<u8, EtsDoc> {
    let at = ["qos", "egress-scheduler", "default-global", "traffic-class"];
    let mut out = BTreeMap::new();
    for tc in numbers(&c.set, &at) {
        let tcs = tc.to_string();
        let v = |k: &str| tree::value(&c.set, &[&at[..], &[tcs.as_str(), k]].concat());
        match v("mode") {
            Some("strict") => {
                out.insert(tc, EtsDoc::Strict("strict"));
            }
            Some("dwrr") => {
                if let Some(w) = v("bw-percent").and_then(|w| w.parse().ok()) {
                    out.insert(tc, EtsDoc::Wrr(w));
                }
            }
            _ => {}
        }
    }
    out
}

/// The traffic pools: name, memory in hundredths of a percent, priorities.
fn pools(c: &Config) -> Vec<(String, Option<u16>, Vec<u8>)> {
    let at = ["qos", "traffic-pool"];
    tree::names(&c.set, &at)
        .into_iter()
        .map(|n| {
            let memory = tree::value(&c.set, &["qos", "traffic-pool", n, "memory-percent"])
                .and_then(hundredths);
            let prio = numbers(&c.set, &["qos", "traffic-pool", n, "switch-priority"]);
            (n.to_string(), memory, prio.into_iter().collect())
        })
        .collect()
}

/// `50`, `12.5`, `12.50` → hundredths.
fn hundredths(v: &str) -> Option<u16> {
    let (i, f) = v.split_once('.').unwrap_or((v, ""));
    if f.len() > 2 || !f.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let f: u16 = format!("{f:0<2}").parse().ok()?;
    i.parse::<u16>().ok()?.checked_mul(100)?.checked_add(f)
}

/// The DSCP marks the mapping sends to a priority.
fn dscp(c: &Config) -> BTreeMap<u8, u8> {
    let at = ["qos", "mapping", "default-global", "dscp"];
    numbers(&c.set, &at)
        .into_iter()
        .filter_map(|d| {
            let p = tree::value(
                &c.set,
                &[&at[..], &[d.to_string().as_str(), "switch-priority"]].concat(),
            )?;
            Some((d, p.parse().ok()?))
        })
        .collect()
}

/// Whether the switch-wide QoS is the `roce-lossless` recipe as the compile writes it.
fn is_preset(c: &Config) -> bool {
    let r = &crate::fabric::validate::preset::ROCE_LOSSLESS;
    let (tc, min, max) = r.ecn;
    tree::value(&c.set, &["qos", "roce", "mode"]) == Some("lossless")
        && lossless(c) == BTreeSet::from([r.priority])
        && pools(c)
            == [(
                r.pool.to_string(),
                Some((r.pool_memory * 100.0) as u16),
                vec![r.priority],
            )]
        && trust(c) == Some("L3")
        && dscp(c) == BTreeMap::from([(r.dscp_roce as u8, r.priority), (r.dscp_cnp as u8, 6)])
        && ecn(c)
            == BTreeMap::from([(
                tc,
                EcnDoc {
                    mode: None,
                    min: Some(min),
                    max: Some(max),
                    min_percent: None,
                    max_percent: None,
                },
            )])
        && ets(c) == BTreeMap::from([(3, EtsDoc::Wrr(50)), (6, EtsDoc::Strict("strict"))])
}

/// The switch-wide QoS the format writes: the preset, else the pools (lossless where PFC
/// pauses their priorities) and PFC.
pub(super) fn qos(c: &Config) -> Option<Qos> {
    if is_preset(c) {
        return Some(Qos {
            preset: Some("roce-lossless"),
            roce: None,
            pools: BTreeMap::new(),
            pfc: None,
        });
    }
    let paused = lossless(c);
    let pools: BTreeMap<String, FlowMap<PoolDoc>> = pools(c)
        .into_iter()
        .map(|(n, memory, priorities)| {
            let lossless = !priorities.is_empty() && priorities.iter().all(|p| paused.contains(p));
            let kind = if lossless { "lossless" } else { "lossy" };
            let pool = PoolDoc {
                kind: kind.into(),
                memory,
                priorities,
            };
            (n, FlowMap(pool))
        })
        .collect();
    let pfc = (!paused.is_empty()).then(|| {
        PfcField::Table(FlowMap(PfcDoc {
            enabled: true,
            priorities: FlowSeq(paused.iter().copied().collect()),
        }))
    });
    (!pools.is_empty() || pfc.is_some()).then_some(Qos {
        preset: None,
        roce: None,
        pools,
        pfc,
    })
}

/// The bridge's VLANs (shared fabric-wide when every switch has the same).
pub(super) fn vlans(c: &Config) -> Vec<VlanDoc> {
    vlan_docs(&bridge_vlans(c))
}

/// The first address under an interface's `ip address`.
fn address(c: &Config, iface: &str) -> Option<Ipv4Net> {
    tree::names(&c.set, &["interface", iface, "ip", "address"])
        .into_iter()
        .find_map(|a| a.parse().ok())
}

/// The switch's own VLANs (none where they are shared) and its gateways (`interface vlanN`
/// of `type svi`) with their address and MTU.
pub(super) fn own_vlans(c: &Config, shared: bool) -> Vec<FlowMap<VlanDoc>> {
    let mut own = if shared { Vec::new() } else { vlans(c) };
    for name in tree::names(&c.set, &["interface"]) {
        if tree::value(&c.set, &["interface", name, "type"]) != Some("svi") {
            continue;
        }
        let Some(id) =
            tree::value(&c.set, &["interface", name, "vlan"]).and_then(|v| v.parse::<u16>().ok())
        else {
            continue;
        };
        let a = address(c, name).map(|a| a.to_string());
        let mtu =
            tree::value(&c.set, &["interface", name, "link", "mtu"]).and_then(|m| m.parse().ok());
        match own.iter_mut().find(|d| d.id == id) {
            Some(d) => {
                d.address = a;
                d.mtu = mtu;
            }
            None => own.push(VlanDoc {
                id,
                name: None,
                address: a,
                mtu,
            }),
        }
    }
    own.sort_by_key(|d| d.id);
    own.into_iter().map(FlowMap).collect()
}

/// `interface lo ip address A/32`.
pub(super) fn loopback(c: &Config) -> Option<Ipv4Addr> {
    tree::names(&c.set, &["interface", "lo", "ip", "address"])
        .into_iter()
        .filter_map(|a| a.parse::<Ipv4Net>().ok())
        .find(|a| a.len == 32)
        .map(|a| a.addr)
}

/// A neighbor's BFD, as the fabric's timers.
fn bfd_of(t: &Tree, path: &[&str]) -> Option<crate::fabric::BfdTimers> {
    let b = [path, &["bfd"]].concat();
    tree::get(t, &b)?;
    let v = |k: &str| tree::value(t, &[&b[..], &[k]].concat()).and_then(|x| x.parse().ok());
    let d = crate::fabric::BfdTimers::DEFAULT;
    Some(crate::fabric::BfdTimers {
        interval: v("min-tx-interval").unwrap_or(d.interval),
        min_rx: v("min-rx-interval").unwrap_or(d.min_rx),
        multiplier: v("detect-multiplier")
            .and_then(|m: u32| u8::try_from(m).ok())
            .unwrap_or(d.multiplier),
    })
}

/// A neighbor's `remote-as`: a number, `external` or `internal`.
fn remote_as_of(v: &str) -> Option<RemoteAs> {
    match v {
        "external" => Some(RemoteAs::External),
        "internal" => Some(RemoteAs::Internal),
        n => n.parse().ok().map(RemoteAs::Number),
    }
}

/// A neighbor's keepalive and hold timers, when both are set.
fn timers_of(t: &Tree, path: &[&str]) -> Option<FlowMap<TimersDoc>> {
    let v = |k: &str| {
        tree::value(t, &[path, &["timers", k]].concat())?
            .parse()
            .ok()
    };
    Some(TimersDoc::of((v("keepalive")?, v("hold")?)))
}

/// BGP written out, without the sessions its cables give (an unnumbered session over a
/// cable to another imported switch; a numbered one the cable's addresses give) and the
/// prefixes the fabric advertises anyway (the loopback, the gateways' subnets).
pub(super) fn bgp(
    c: &Config,
    name: &str,
    links: &Links,
    ports: &[(Port, BTreeSet<Attr>, Option<&str>)],
) -> Option<BgpDoc> {
    let t = &c.set;
    let asn: u32 = tree::value(t, &["router", "bgp", "autonomous-system"])?
        .parse()
        .ok()?;
    let at = ["vrf", "default", "router", "bgp"];
    let mut derived: BTreeSet<Ipv4Net> = loopback(c)
        .map(|addr| Ipv4Net { addr, len: 32 })
        .into_iter()
        .collect();
    for n in tree::names(t, &["interface"]) {
        if tree::value(t, &["interface", n, "type"]) == Some("svi")
            && let Some(a) = address(c, n)
        {
            derived.insert(a.network());
        }
    }
    let linked_port = |n: &str| {
        crate::cumulus::rules::port(n).is_some_and(|p| {
            links.linked(name, p)
                && ports
                    .iter()
                    .any(|(q, a, _)| *q == p && a.iter().any(|x| matches!(x, Attr::Address(_))))
        })
    };
    let sessions = unnumbered_ports(c);
    let mut linked_bfd = None;
    let mut any_bfd = None;
    let mut neighbors = Vec::new();
    for n in tree::names(t, &[&at[..], &["neighbor"]].concat()) {
        let path: Vec<&str> = [&at[..], &["neighbor", n]].concat();
        let bfd = bfd_of(t, &path);
        if bfd.is_some() && any_bfd.is_none() {
            any_bfd = bfd;
        }
        if linked_port(n) {
            linked_bfd.get_or_insert(bfd);
            continue;
        }
        let remote = tree::value(t, &[&path[..], &["remote-as"]].concat());
        let timers = timers_of(t, &path);
        if let (Ok(addr), Some(remote_as)) =
            (n.parse::<Ipv4Addr>(), remote.and_then(|r| r.parse().ok()))
        {
            if !links.derives(name, addr, remote_as) {
                neighbors.push(FlowMap(NeighborDoc {
                    address: Some(n.to_string()),
                    port: None,
                    remote_as: RemoteAs::Number(remote_as),
                    bfd: bfd.is_some(),
                    timers,
                }));
            }
        } else if let (Some(_), Some(remote_as)) = (
            crate::cumulus::rules::port(n).filter(|_| sessions.contains(n)),
            remote.and_then(remote_as_of),
        ) {
            // An unnumbered session on no imported cable: named by its port.
            neighbors.push(FlowMap(NeighborDoc {
                address: None,
                port: Some(n.to_string()),
                remote_as,
                bfd: bfd.is_some(),
                timers,
            }));
        }
    }
    let bfd = match linked_bfd {
        Some(Some(b)) => Some(BfdDoc::on(b)),
        Some(None) => Some(BfdDoc::Flag(false)),
        None => any_bfd.map(BfdDoc::on),
    };
    Some(BgpDoc {
        asn,
        router_id: tree::value(t, &["router", "bgp", "router-id"]).map(str::to_string),
        maximum_paths: None,
        multipath_relax: tree::value(
            t,
            &[&at[..], &["path-selection", "multipath", "aspath-ignore"]].concat(),
        ) == Some("on"),
        bfd,
        timers: None,
        fast_external_fallover: None,
        neighbors,
        networks: tree::names(
            t,
            &[&at[..], &["address-family", "ipv4-unicast", "network"]].concat(),
        )
        .into_iter()
        .filter(|n| n.parse::<Ipv4Net>().is_ok_and(|n| !derived.contains(&n)))
        .map(str::to_string)
        .collect(),
    })
}

/// The bond each port is a member of.
fn members(c: &Config) -> BTreeMap<&str, &str> {
    let mut out = BTreeMap::new();
    for bond in tree::names(&c.set, &["interface"]) {
        for m in tree::names(&c.set, &["interface", bond, "bond", "member"]) {
            out.insert(m, bond);
        }
    }
    out
}

/// An interface's bridge settings: access VLAN, or tagged VLANs with the untagged one.
fn l2(t: &Tree, iface: &str, out: &mut BTreeSet<Attr>) {
    let d = ["interface", iface, "bridge", "domain", "br_default"];
    let v = |k: &str| tree::value(t, &[&d[..], &[k]].concat()).and_then(|v| v.parse::<u16>().ok());
    let tagged: Vec<u16> = tree::names(t, &[&d[..], &["vlan"]].concat())
        .into_iter()
        .filter_map(|v| v.parse().ok())
        .collect();
    if tagged.is_empty() {
        if let Some(a) = v("access") {
            out.insert(Attr::Vlan(a));
        }
        return;
    }
    out.insert(Attr::Switchport("trunk".into()));
    out.insert(Attr::Vlans(tagged));
    if let Some(u) = v("untagged") {
        out.insert(Attr::Vlan(u));
    }
}

/// One switch read: its model, its ports with their attributes, splits and cables' ends.
pub(super) fn prepare<'a>(
    name: &'a str,
    source: &'a Source,
    c: &'a Config,
    unnumbered: &BTreeMap<PortKey, Ipv4Net>,
    ipl: Option<u16>,
) -> Result<Prepared<'a>, String> {
    let model = model(source, c)?;
    let t = &c.set;
    let preset = is_preset(c);
    let paused = !lossless(c).is_empty();
    let bonds = members(c);
    let sessions = unnumbered_ports(c);
    let mut p = Prepared {
        name,
        source,
        config: c,
        model,
        ports: Vec::new(),
        splits: Vec::new(),
        ends: Vec::new(),
        ipl: BTreeSet::new(),
        ipl_pc: ipl,
    };
    // The ports the tree names: as interfaces, and as bonds' members only.
    let mut names: BTreeSet<&str> = tree::names(t, &["interface"]).into_iter().collect();
    names.extend(bonds.keys().copied());
    for iface in names {
        let Some(port) = crate::cumulus::rules::port(iface) else {
            continue;
        };
        let node = |k: &[&str]| tree::get(t, &[&["interface", iface][..], k].concat());
        if let Some(split) = node(&[]).and_then(Node::map).and_then(tree::breakout) {
            p.splits.push((port, split.ways()));
            continue;
        }
        let mut a = BTreeSet::new();
        let v = |k: &[&str]| node(k).and_then(Node::leaf);
        if let Some(s) = v(&["link", "speed"]) {
            a.insert(Attr::Speed(s.to_string()));
        }
        if let Some(m) = v(&["link", "mtu"]).and_then(|m| m.parse().ok()) {
            a.insert(Attr::Mtu(m));
        }
        let down = node(&["link", "state", "down"]).is_some();
        if down {
            a.insert(Attr::Admin("down".into()));
        }
        let mut addr = address(c, iface).filter(|_| !sessions.contains(iface));
        if let Some(n) = unnumbered.get(&(name.to_string(), iface.to_string())) {
            addr = Some(*n);
        }
        match bonds.get(iface) {
            // The peer link of a pair imported whole: the IPL's port-channel.
            Some(&"peerlink") if ipl.is_some() => {
                p.ipl.insert(port);
                if let Some(pc) = ipl {
                    a.insert(Attr::Bundle(false, pc, "active".into()));
                }
            }
            Some(bond) => {
                // A bond with an MLAG id is the pair's when its peer is imported too; else
                // the switch's own (`lag`), its `bond mlag` among what the fabric does not
                // carry (`lost`).
                let id = bond.strip_prefix("bond").and_then(|n| n.parse().ok());
                let mlag = ipl.is_some()
                    && tree::get(t, &["interface", bond, "bond", "mlag", "id"]).is_some();
                if let Some(id) = id {
                    a.insert(Attr::Bundle(mlag, id, "active".into()));
                }
                l2(t, bond, &mut a);
                if let Some(d) = description(c, bond) {
                    a.insert(Attr::BundleDescription(d.to_string()));
                }
            }
            None => {
                l2(t, iface, &mut a);
                if let Some(n) = addr {
                    a.insert(Attr::Address(n.to_string()));
                }
            }
        }
        port_qos(
            c,
            preset,
            paused,
            &mut a,
            node(&["qos", "pfc-watchdog"]).is_some(),
            down,
        );
        let d = description(c, iface).filter(|_| !p.ipl.contains(&port));
        if let Some(d) = d {
            p.ends.push(links::End {
                port,
                name: iface.to_string(),
                description: d,
                address: addr,
            });
        }
        p.ports.push((port, a, d));
    }
    Ok(p)
}

/// A port's QoS: trust, ECN and ETS the switch's (none under the preset, which gives them),
/// PFC from the watchdog the compile writes on every PFC port that is up.
fn port_qos(
    c: &Config,
    preset: bool,
    paused: bool,
    a: &mut BTreeSet<Attr>,
    watchdog: bool,
    down: bool,
) {
    if !preset {
        if let Some(tr) = trust(c) {
            a.insert(Attr::Trust(tr.into()));
        }
        a.extend(ecn(c).into_iter().map(|(tc, e)| Attr::Ecn(tc, e)));
        a.extend(ets(c).into_iter().map(|(tc, e)| Attr::Ets(tc, e)));
    }
    match (paused, watchdog || down) {
        (true, true) => {}
        (true, false) => {
            a.insert(Attr::PfcOff);
        }
        (false, _) => {
            a.insert(Attr::Pfc(watchdog));
        }
    }
}
