//! `fabric verify --paths`: whether the routed design works when cabled, proved by the
//! network itself. Two parts:
//!
//! - ECMP ([`promises`], read with `show ip route A.B.C.D`): each switch with host subnets
//!   installs, towards every other switch's host subnet, one next hop per session the design
//!   gives it towards that subnet (V015).
//! - Path MTU ([`pairs`], [`probe`]): between every two host groups on different switches (a
//!   switch's VLAN with a gateway, or a routed host port), one host of each sends the other a
//!   packet of the hosts' MTU with Don't Fragment (`ping -M do`); a refusal names the router
//!   and its MTU, a silent drop is bisected to the largest size that passes (V016); a host
//!   that cannot reach the other at all is V017. Hosts are probed where they can be reached:
//!   in the lab's data plane (`ip netns exec`), or over SSH (the hosts' `mgmt`).
//!
//! Input: the fabric, what the switches reported, and a way to run a command on a host;
//! output: findings. Nothing here prints.

use std::collections::{BTreeMap, BTreeSet};
use std::net::Ipv4Addr;

use crate::audit::Finding;
use crate::fabric::{Fabric, Role, Switch};
use crate::types::Ipv4Net;

/// A host subnet of a switch: its VLAN gateway's subnet, as a finding names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subnet {
    pub net: Ipv4Net,
    pub switch: String,
    pub name: String,
}

/// The host subnets of `sw`: its VLAN gateways' (a routed host port is a /31 of its own,
/// not a subnet others route to as a group).
fn subnets(name: &str, sw: &Switch) -> Vec<Subnet> {
    sw.gateways
        .iter()
        .map(|(v, g)| Subnet {
            net: g.address.network(),
            switch: name.to_string(),
            name: format!("{name} vlan {v}"),
        })
        .collect()
}

/// Whether `sw` is a leaf for the paths check: its role says so, or (without roles) it has
/// host subnets and routes.
fn is_leaf(sw: &Switch) -> bool {
    sw.routing.is_some()
        && match sw.role {
            Some(r) => r == Role::Leaf,
            None => !sw.gateways.is_empty(),
        }
}

/// What the design promises `name`: for every other leaf's host subnet, how many next hops,
/// and why that many. One per BGP session over a fabric link to a switch that itself has a
/// session towards the subnet's switch (or is it), at most `maximum-paths` (1 when unset);
/// sessions over the ports `down` says are found down already are not counted (what
/// follows from a down link is that link's finding).
pub fn promises(
    fabric: &Fabric,
    name: &str,
    down: &dyn Fn(crate::types::Port) -> bool,
) -> Vec<(Subnet, usize, String)> {
    let Some(sw) = fabric.switches.get(name) else {
        return Vec::new();
    };
    let Some(routing) = sw.routing.as_ref().filter(|_| is_leaf(sw)) else {
        return Vec::new();
    };
    // The switches each of this leaf's neighbors has a session with over the fabric's
    // links: read once per neighbor, not once per other leaf.
    let links: Vec<(&str, crate::types::Port)> = routing
        .neighbors
        .values()
        .filter_map(|n| n.link.as_ref().map(|(far, p)| (far.as_str(), *p)))
        .collect();
    let peers: BTreeMap<&str, BTreeSet<&str>> = links
        .iter()
        .map(|(far, _)| {
            let of = fabric.switches.get(*far).and_then(|f| f.routing.as_ref());
            let set = of
                .into_iter()
                .flat_map(|r| r.neighbors.values())
                .filter_map(|n| n.link.as_ref().map(|(h, _)| h.as_str()))
                .collect();
            (*far, set)
        })
        .collect();
    let max = usize::from(routing.maximum_paths.unwrap_or(1));
    let mut out = Vec::new();
    for (other, osw) in &fabric.switches {
        if other.as_str() == name || !is_leaf(osw) {
            continue;
        }
        let towards: Vec<crate::types::Port> = links
            .iter()
            .filter(|(far, _)| *far == other.as_str() || peers[far].contains(other.as_str()))
            .map(|(_, p)| *p)
            .collect();
        let sessions = towards.len();
        let lost = towards.iter().filter(|p| down(**p)).count();
        let promised = (sessions - lost).min(max);
        for s in subnets(other.as_str(), osw) {
            let mut why = format!(
                "{sessions} session(s) over the fabric's links towards {other}, maximum-paths {max}"
            );
            if lost > 0 {
                why.push_str(&format!("; {lost} of the links found down"));
            }
            out.push((s, promised, why));
        }
    }
    out
}

/// The `show ip route` queries the paths check sends `name`.
pub fn queries(fabric: &Fabric, name: &str) -> Vec<super::Query> {
    promises(fabric, name, &|_| false)
        .into_iter()
        .map(|(s, _, _)| super::Query::Route(s.net))
        .collect()
}

/// ECMP findings (V015) of what `name` reported: each promised subnet whose route has fewer
/// next hops than promised, or none.
pub fn ecmp(
    fabric: &Fabric,
    name: &str,
    obs: &super::Observed,
    down: &dyn Fn(crate::types::Port) -> bool,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (subnet, promised, why) in promises(fabric, name, down) {
        let Some(routes) = obs.routes.get(&subnet.net) else {
            continue;
        };
        let route = routes.iter().find(|r| r.prefix == subnet.net);
        let found = route.map_or(0, |r| r.hops.len());
        if found >= promised {
            continue;
        }
        let text = match route {
            None => format!(
                "no route towards {} ({}): its hosts are unreachable from here; the design promises {promised} next hop(s) ({why})",
                subnet.net, subnet.name
            ),
            Some(r) => format!(
                "{found} next hop(s) towards {} ({}; via {}), the design promises {promised} ({why})",
                subnet.net,
                subnet.name,
                r.hops
                    .iter()
                    .map(|(_, i)| i.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        out.push((name.to_string(), text));
    }
    out
}

/// A host the probes run from and to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// `host:nic`.
    pub name: String,
    pub mtu: u16,
    pub address: Ipv4Net,
    /// Its group (`leaf01 vlan 10`) and the group's switch.
    pub group: String,
    pub switch: String,
    pub via: Via,
}

/// How a host is reached to run a probe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Via {
    /// Its network namespace in the lab's data plane, on this machine.
    Namespace(String),
    /// Over SSH: the fabric's `mgmt` of the host (its name in the fabric).
    Ssh(String),
}

/// The hosts of a lab's data plane, from its inventory; what does not read is said.
pub fn lab_endpoints(dp: &crate::fabric::inventory::Dataplane) -> Result<Vec<Endpoint>, String> {
    dp.hosts
        .iter()
        .map(|(name, h)| {
            Ok(Endpoint {
                name: name.clone(),
                mtu: h.mtu,
                address: h
                    .address
                    .parse()
                    .map_err(|e| format!("inventory: host `{name}`: address: {e}"))?,
                group: h.group.clone(),
                switch: h.switch.clone(),
                via: Via::Namespace(h.namespace.clone()),
            })
        })
        .collect()
}

/// What one DF ping found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ping {
    /// The answer came.
    Passed,
    /// A router refused it: fragmentation needed, its MTU.
    Refused { by: Ipv4Addr, mtu: u16 },
    /// The sender's own kernel refused it: its route's MTU (its NIC's, or one a router told
    /// it before).
    Local { mtu: u16 },
    /// No answer and nothing said.
    Lost,
    /// Anything else `ping` said (unreachable, no route), its line.
    Failed(String),
}

/// Reads what iputils' `ping -c 1` printed (standard output and error together); what is
/// not ping's output (no `PING` header, no `ping:` error: a shell that found no `ping`) is
/// an error, never a verdict on the path.
pub fn read_ping(text: &str) -> Result<Ping, String> {
    let ran = text
        .lines()
        .any(|l| l.starts_with("PING ") || l.trim_start().starts_with("ping:"));
    if !ran {
        let said = text.lines().next().unwrap_or("nothing").trim();
        return Err(format!("`ping` did not run: {said}"));
    }
    Ok(read_ran(text))
}

fn read_ran(text: &str) -> Ping {
    // A frame larger than the far end of its link takes: a real link carries it and the
    // switch drops it without a word; a veth refuses it at sending (`sendmsg: No buffer
    // space available`). The same silent drop.
    if text
        .lines()
        .any(|l| l.contains("sendmsg: No buffer space available"))
    {
        return Ping::Lost;
    }
    for line in text.lines() {
        let l = line.trim();
        if l.contains(" bytes from ") {
            return Ping::Passed;
        }
        if let (Some(rest), true) = (l.strip_prefix("From "), l.contains("Frag needed")) {
            let by = rest.split_whitespace().next().and_then(|a| a.parse().ok());
            let mtu = l
                .rsplit_once("mtu = ")
                .and_then(|(_, m)| m.trim_end_matches(')').trim().parse().ok());
            if let (Some(by), Some(mtu)) = (by, mtu) {
                return Ping::Refused { by, mtu };
            }
        }
        if let Some((_, m)) = l.split_once("message too long, mtu=")
            && let Ok(mtu) = m.trim().parse()
        {
            return Ping::Local { mtu };
        }
    }
    let said: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("From ") || l.starts_with("ping:") || l.starts_with("connect:"))
        .collect();
    if said.is_empty() {
        Ping::Lost
    } else {
        Ping::Failed(said.join("; "))
    }
}

/// ICMP and IP headers: a ping's payload is the packet's size less these.
const HEADERS: u16 = 28;

/// The smallest packet the bisection tries: IPv4's minimum every link must carry (RFC 791).
const SMALLEST: u16 = 576;

/// Runs `ping -M do` of `size` bytes (the IP packet) from `from` to `to`, `tries` times at
/// most while nothing answers (the first answer may be lost while the far host learns the
/// way back's MTU). In the lab, the kernel's learned path MTUs are forgotten first, so that
/// each probe sees the path as it is; a real host's are left alone (a probe changes nothing
/// there).
fn ping(
    run: &Runner<'_>,
    from: &Endpoint,
    to: Ipv4Addr,
    size: u16,
    tries: usize,
) -> Result<Ping, String> {
    let flush = match from.via {
        Via::Namespace(_) => "ip route flush cache; ",
        Via::Ssh(_) => "",
    };
    // From the port's own address: a host with a port per rail routes each from its own.
    // The exit status is ping's verdict, read from its output: the command itself succeeds.
    let cmd = format!(
        "{flush}ping -M do -s {} -c 1 -W 1 -n -I {} {to} 2>&1; true",
        size.saturating_sub(HEADERS),
        from.address.addr
    );
    let mut last = Ping::Lost;
    for _ in 0..tries {
        last = read_ping(&run(from, &cmd)?)?;
        if last != Ping::Lost {
            break;
        }
    }
    Ok(last)
}

/// Runs a shell command on an endpoint: its output (standard output and error).
pub type Runner<'a> = dyn Fn(&Endpoint, &str) -> Result<String, String> + Sync + 'a;

/// Runs a command in the endpoint's namespace of this machine's lab: `ip netns exec NS sh
/// -c CMD`.
pub fn in_namespace(e: &Endpoint, cmd: &str) -> Result<String, String> {
    let Via::Namespace(ns) = &e.via else {
        return Err(format!("{}: not a host of the lab", e.name));
    };
    let out = std::process::Command::new("ip")
        .args(["netns", "exec", ns, "sh", "-c", cmd])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|err| format!("{}: cannot run `ip netns exec`: {err}", e.name))?;
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("Cannot open network namespace") {
        return Err(format!(
            "{}: no namespace `{ns}` (is `fabric lab --dataplane` running?)",
            e.name
        ));
    }
    Ok(format!("{}{err}", String::from_utf8_lossy(&out.stdout)))
}

/// The command that reads a host port's IPv4 address (its first): `ip -j -4 addr show dev
/// NIC` (the NIC's name is a shell-safe token, as the fabric's host ports all are).
pub fn address_command(nic: &str) -> String {
    format!("ip -j -4 addr show dev {nic}")
}

/// Reads [`address_command`]'s JSON.
pub fn read_address(text: &str) -> Result<Ipv4Net, String> {
    let v: serde_json::Value = serde_json::from_str(text.trim())
        .map_err(|_| format!("not `ip -j` output: {}", text.lines().next().unwrap_or("")))?;
    let a = v
        .as_array()
        .and_then(|l| l.first())
        .and_then(|l| l["addr_info"].as_array())
        .and_then(|a| a.iter().find(|x| x["family"] == "inet"))
        .ok_or("the port has no IPv4 address")?;
    let addr: Ipv4Addr = a["local"]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or("an address without `local`")?;
    let len = a["prefixlen"]
        .as_u64()
        .and_then(|l| u8::try_from(l).ok())
        .ok_or("an address without `prefixlen`")?;
    Ipv4Net::new(addr, len)
}

/// One probe's result: from one group's host to another's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    pub from: String,
    pub to: String,
    pub from_group: String,
    pub to_group: String,
    /// The size tried (the smaller of the two hosts' MTUs) and what it met.
    pub size: u16,
    pub outcome: Ping,
    /// With a silent drop: the largest size that passed (bisected), if any.
    pub largest: Option<u16>,
}

impl Endpoint {
    /// The host, without its port (`gpu01` of `gpu01:ens1f0`).
    pub fn host(&self) -> &str {
        self.name.split_once(':').map_or(&self.name, |(h, _)| h)
    }
}

/// The probes to make: every ordered pair of groups on different switches, from the first
/// host of the one (by name) to the first host of the other that is another host (a host
/// with a port in each group would only talk to itself).
pub fn pairs(endpoints: &[Endpoint]) -> Vec<(&Endpoint, &Endpoint)> {
    let mut groups: BTreeMap<&str, Vec<&Endpoint>> = BTreeMap::new();
    for e in endpoints {
        groups.entry(e.group.as_str()).or_default().push(e);
    }
    let mut out = Vec::new();
    for a in groups.values() {
        for b in groups.values() {
            let (Some(from), Some(sw)) = (a.first(), b.first().map(|e| &e.switch)) else {
                continue;
            };
            if from.switch == *sw {
                continue;
            }
            let to = b.iter().find(|e| e.host() != from.host());
            let from = match to {
                Some(_) => Some(*from),
                // Every host of the other group is this one: another sender, if any.
                None => a
                    .iter()
                    .copied()
                    .find(|e| b.iter().any(|t| t.host() != e.host())),
            };
            if let Some(from) = from
                && let Some(to) = b.iter().find(|e| e.host() != from.host())
            {
                out.push((from, *to));
            }
        }
    }
    out
}

/// Probes from `a` to `b` with packets of the smaller of their MTUs.
pub fn probe(run: &Runner<'_>, a: &Endpoint, b: &Endpoint) -> Result<Probe, String> {
    let size = a.mtu.min(b.mtu);
    let outcome = ping(run, a, b.address.addr, size, 2)?;
    let mut largest = None;
    if outcome == Ping::Lost {
        // Bisect: the largest size that passes, between the smallest every path carries and
        // the one that did not.
        let (mut lo, mut hi) = (SMALLEST, size);
        // Once each: the way back has been learned by the probe above.
        if ping(run, a, b.address.addr, lo, 1)? == Ping::Passed {
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if ping(run, a, b.address.addr, mid, 1)? == Ping::Passed {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            largest = Some(lo);
        }
    }
    Ok(Probe {
        from: a.name.clone(),
        to: b.name.clone(),
        from_group: a.group.clone(),
        to_group: b.group.clone(),
        size,
        outcome,
        largest,
    })
}

/// Where an address is in the fabric: its switch and interface, as Onyx names them.
fn owner(fabric: &Fabric, addr: Ipv4Addr) -> Option<(String, String)> {
    for (name, sw) in &fabric.switches {
        for (p, s) in &sw.ports {
            if s.address.is_some_and(|a| a.addr == addr) {
                return Some((name.to_string(), format!("ethernet {}", sw.port_name(*p))));
            }
        }
        for (v, g) in &sw.gateways {
            if g.address.addr == addr {
                return Some((name.to_string(), format!("vlan {v}")));
            }
        }
        if sw.loopback == Some(addr) {
            return Some((name.to_string(), "loopback 0".to_string()));
        }
    }
    None
}

/// The interface of `switch` that leads to `dst` when it is on a subnet the switch has
/// (a gateway VLAN, a routed port): where a packet for it leaves the fabric.
fn towards(fabric: &Fabric, switch: &str, dst: Ipv4Addr) -> Option<String> {
    let sw = fabric.switches.get(switch)?;
    if let Some((v, _)) = sw.gateways.iter().find(|(_, g)| g.address.contains(dst)) {
        return Some(format!("vlan {v}"));
    }
    sw.ports
        .iter()
        .find(|(_, s)| s.address.is_some_and(|a| a.contains(dst)))
        .map(|(p, _)| format!("ethernet {}", sw.port_name(*p)))
}

/// The probes' findings: V016 where the hosts' MTU does not pass, V017 where nothing does;
/// at the switch that cut the path when one said so, else at the sender's switch.
pub fn findings(fabric: &Fabric, probes: &[Probe], endpoints: &[Endpoint]) -> Vec<Finding> {
    let rule =
        |id: &str| super::rule(id).unwrap_or_else(|| unreachable!("no rule {id} in the table"));
    let addr_of = |name: &str| {
        endpoints
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.address.addr)
    };
    let sender = |name: &str| {
        endpoints
            .iter()
            .find(|e| e.name == name)
            .map_or_else(String::new, |e| e.switch.clone())
    };
    let mut out = Vec::new();
    for p in probes {
        let pair = format!("{} ({}) → {} ({})", p.from, p.from_group, p.to, p.to_group);
        let (id, switch, text) = match &p.outcome {
            Ping::Passed => continue,
            Ping::Refused { by, mtu } => {
                let (sw, via) = owner(fabric, *by)
                    .unwrap_or_else(|| (sender(&p.from), format!("address {by}")));
                let at = addr_of(&p.to)
                    .and_then(|d| towards(fabric, &sw, d))
                    .map_or_else(|| "on the way".to_string(), |i| format!("at interface {i}"));
                (
                    "V016",
                    sw.clone(),
                    format!(
                        "{pair}: a {}-byte packet with Don't Fragment is refused {at} (MTU {mtu}; ICMP fragmentation needed from {by}, {sw} {via}): the path MTU is {mtu}, the hosts' {}",
                        p.size, p.size
                    ),
                )
            }
            Ping::Local { mtu } => (
                "V016",
                sender(&p.from),
                format!(
                    "{pair}: a {}-byte packet with Don't Fragment does not leave {}: its route's MTU is {mtu}",
                    p.size, p.from
                ),
            ),
            Ping::Lost => match p.largest {
                Some(l) => (
                    "V016",
                    sender(&p.from),
                    format!(
                        "{pair}: packets of {} bytes with Don't Fragment are dropped without an answer (an L2 MTU smaller on the way: no router says so); the largest that passes is {l}",
                        p.size
                    ),
                ),
                None => (
                    "V017",
                    sender(&p.from),
                    format!("{pair}: no answer, even to a {SMALLEST}-byte packet"),
                ),
            },
            Ping::Failed(said) => ("V017", sender(&p.from), format!("{pair}: {said}")),
        };
        let r = rule(id);
        out.push(Finding {
            switch,
            rule: r.id,
            name: r.name,
            severity: r.severity,
            message: text,
            interfaces: None,
            line: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pings_read_as_iputils_prints_them() {
        let read_ping = |t: &str| read_ping(t).unwrap();
        assert_eq!(
            read_ping(
                "PING 10.10.2.2 (10.10.2.2) 8972(9000) bytes of data.\n8980 bytes from 10.10.2.2: icmp_seq=1 ttl=61 time=0.154 ms\n"
            ),
            Ping::Passed
        );
        assert_eq!(
            read_ping(
                "PING 10.10.2.2 (10.10.2.2) 8972(9000) bytes of data.\nFrom 10.254.2.241 icmp_seq=1 Frag needed and DF set (mtu = 1500)\n"
            ),
            Ping::Refused {
                by: "10.254.2.241".parse().unwrap(),
                mtu: 1500
            }
        );
        assert_eq!(
            read_ping(
                "PING 10.10.2.2 (10.10.2.2) 8972(9000) bytes of data.\nping: local error: message too long, mtu=1500\n"
            ),
            Ping::Local { mtu: 1500 }
        );
        assert_eq!(
            read_ping(
                "PING 10.10.2.2 (10.10.2.2) 8972(9000) bytes of data.\n\n--- 10.10.2.2 ping statistics ---\n1 packets transmitted, 0 received, 100% packet loss, time 0ms\n"
            ),
            Ping::Lost
        );
        assert!(matches!(
            read_ping(
                "PING 10.10.9.2 (10.10.9.2) 56(84) bytes of data.\nFrom 10.10.1.1 icmp_seq=1 Destination Net Unreachable\n"
            ),
            Ping::Failed(_)
        ));
        assert!(matches!(
            read_ping("ping: connect: Network is unreachable\n"),
            Ping::Failed(_)
        ));
        assert_eq!(
            read_ping(
                "PING 10.10.2.2 (10.10.2.2) 8972(9000) bytes of data.\nping: sendmsg: No buffer space available\n"
            ),
            Ping::Lost
        );
        // Not ping's output: no verdict.
        assert!(super::read_ping("sh: 1: ping: not found\n").is_err());
        assert!(super::read_ping("").is_err());
    }

    #[test]
    fn a_host_address_reads_from_ip_json() {
        let json = r#"[{"ifindex":2,"ifname":"ens1f0","addr_info":[{"family":"inet","local":"10.10.1.2","prefixlen":24}]}]"#;
        assert_eq!(read_address(json).unwrap().to_string(), "10.10.1.2/24");
        assert!(read_address("[]").is_err());
        assert!(read_address("Device \"ens9\" does not exist.").is_err());
    }
}
