//! The fabric's switch in NVUE's terms: the object tree `nv config show` prints for it.
//!
//! What each part becomes (commands and `startup.yaml` forms from
//! `../shared/reference/cumulus-nvue.md`, marked there):
//!
//! | fabric | NVUE |
//! |---|---|
//! | hostname | `system hostname` |
//! | a port | `interface swpN` (`type swp`), `link mtu`, `link speed`, `link state up|down`, `description` |
//! | a split | `interface swpN link breakout 2x|4x|8x` (5.4+), members `swpNs0` … |
//! | a VLAN | `bridge domain br_default vlan N`; its gateway `interface vlanN` (`type svi`, `vlan N`, `ip address`, `link mtu`) |
//! | access / trunk port | `bridge domain br_default access N` / `… vlan N` |
//! | a bundle | `interface bondN` (`type bond`, `bond member swpX`, `bond mlag id N`) |
//! | MLAG | `peerlink` (`type peerlink`, `bond member`), `peerlink.4094` (`type sub`), `mlag mac-address`, `mlag backup`, `mlag peer-ip linklocal` |
//! | routing | `router bgp autonomous-system`, `router-id`; `vrf default router bgp neighbor swpN type unnumbered remote-as external` on a cable between two Cumulus switches, `… remote-as external|internal|N` for a neighbor written by its port, else `neighbor A.B.C.D remote-as N type numbered`; `address-family ipv4-unicast network`; BFD per neighbor; `path-selection multipath aspath-ignore on` |
//! | lossless on priority 3 | `qos roce mode lossless` (the profile), with its parts written out below so a diff shows them |
//! | pools | `qos traffic-pool NAME memory-percent N`, `switch-priority P` |
//! | PFC | `qos pfc default-global switch-priority P`, `tx enable`, `rx enable`; per PFC port `qos pfc-watchdog` (5.6.0+) |
//! | trust, DSCP marks | `qos mapping default-global trust l2|l3|both`, `dscp N switch-priority P` |
//! | ECN | `qos congestion-control default-global traffic-class N ecn enable`, `min-threshold`/`max-threshold` in bytes (KB × 1000, as NVIDIA's profile writes 150000 for Onyx's 150 KB), `probability 100` |
//! | ETS | `qos egress-scheduler default-global traffic-class N mode strict`, or `mode dwrr` and `bw-percent W` |
//!
//! The QoS of ports is switch-wide on NVUE (`default-global`): the ports' ECN, ETS and trust
//! are the switch's when every port that sets one sets the same (the validation refuses
//! ports that differ).

use std::collections::{BTreeMap, BTreeSet};

use crate::fabric::{BgpTimers, Gateway, PortSettings, Switch};
use crate::types::{EcnThresholds, Ets, Port, Trust};

use super::target::{port_name, port_word};
use super::tree::{Node, Tree, Word, map_at, merge_all, merge_into, owned, set, word};
use super::{Config, Release};

/// Sets a value at a path of words.
fn put(t: &mut Tree, path: &[&str], value: impl Value) {
    set(t, path, Node::Leaf(value.word()));
}

/// A value as a word: a short one inline, an owned long one kept.
trait Value {
    fn word(self) -> Word;
}

impl Value for &str {
    fn word(self) -> Word {
        word(self)
    }
}

impl Value for Word {
    fn word(self) -> Word {
        self
    }
}

impl Value for String {
    fn word(self) -> Word {
        super::tree::owned(self)
    }
}

/// A map of one object.
fn one(name: impl Into<Word>, value: Node) -> Node {
    let mut m = Tree::with_capacity(1);
    m.insert(name.into(), value);
    Node::Map(m)
}

/// An empty object (a key that is the value).
fn empty() -> Node {
    Node::Map(Tree::new())
}

/// Makes an empty object (a key that is the value) at a path of words.
fn key(t: &mut Tree, path: &[&str]) {
    set(t, path, Node::Map(Tree::new()));
}

/// The switch's whole configuration in NVUE's tree.
pub fn compile(sw: &Switch) -> Config {
    let release = Release::of(sw.release_text.as_deref());
    let mut t = Tree::new();
    put(&mut t, &["system", "hostname"], sw.hostname.as_str());
    ports(sw, &mut t);
    bundles(sw, release, &mut t);
    vlans(sw, &mut t);
    mlag(sw, release, &mut t);
    routing(sw, release, &mut t);
    qos(sw, release, &mut t);
    Config::new(t)
}

/// The IPL's port-channel, whose members are the `peerlink`'s.
fn ipl(sw: &Switch) -> Option<u16> {
    sw.mlag.as_ref().map(|m| m.ipl_port_channel)
}

/// The interface a bundle is: `peerlink` for the IPL, else `bondN`.
fn bond_name(sw: &Switch, mlag: bool, id: u16) -> String {
    match !mlag && Some(id) == ipl(sw) {
        true => "peerlink".to_string(),
        false => format!("bond{id}"),
    }
}

/// The ports whose routed address a BGP unnumbered session replaces.
fn unnumbered_ports(sw: &Switch) -> BTreeSet<Port> {
    let Some(r) = &sw.routing else {
        return BTreeSet::new();
    };
    r.neighbors
        .values()
        .filter(|n| n.unnumbered)
        .filter_map(|n| n.link.as_ref().map(|(_, p)| *p))
        .collect()
}

fn ports(sw: &Switch, t: &mut Tree) {
    let unnumbered = unnumbered_ports(sw);
    for (port, split) in &sw.splits {
        let name = port_name(*port);
        put(t, &["interface", &name, "type"], "swp");
        key(
            t,
            &[
                "interface",
                &name,
                "link",
                "breakout",
                &format!("{}x", split.ways()),
            ],
        );
    }
    let mut members: Vec<(String, String)> = Vec::new();
    let mut objects = Vec::with_capacity(sw.ports.len());
    // Most ports of a switch have the same link, bridge and QoS objects: each built once and
    // shared by the ports that have it (copied only if one of them is changed).
    let mut links = BTreeMap::new();
    let mut bridges = BTreeMap::new();
    let watchdog = Node::Map(Tree::from([("pfc-watchdog".into(), empty())]).shared());
    for (port, s) in &sw.ports {
        let name = port_word(*port);
        let (mut bridge, mut ip, mut qos) = (None, None, None);
        if let Some(b) = s.bundle {
            members.push((bond_name(sw, b.mlag, b.id), name.to_string()));
        } else {
            bridge = bridges
                .entry((s.vlan, s.trunk.as_ref()))
                .or_insert_with(|| {
                    l2(s).map(|d| Node::Map(Tree::from([("domain".into(), d)]).shared()))
                })
                .clone();
            if let Some(a) = s.address.filter(|_| !unnumbered.contains(port)) {
                ip = Some(one("address", one(a.to_string(), empty())));
            }
            if s.pfc && !s.shutdown {
                qos = Some(watchdog.clone());
            }
        }
        let link = links
            .entry((s.mtu, s.speed, s.shutdown))
            .or_insert_with(|| Node::Map(link(s).shared()))
            .clone();
        let description = s.description.as_deref().map(|d| Node::Leaf(word(d)));
        // The port's object built whole, at its size, in NVUE's order; put in place once.
        // Its entries pushed one by one: collected from an array of options, compile took
        // a third longer (`cargo bench --bench cumulus`).
        let size = 2
            + usize::from(bridge.is_some())
            + usize::from(description.is_some())
            + usize::from(ip.is_some())
            + usize::from(qos.is_some());
        let mut i = Vec::with_capacity(size);
        if let Some(b) = bridge {
            i.push((word("bridge"), b));
        }
        if let Some(d) = description {
            i.push((word("description"), d));
        }
        if let Some(a) = ip {
            i.push((word("ip"), a));
        }
        i.push((word("link"), link));
        if let Some(q) = qos {
            i.push((word("qos"), q));
        }
        i.push((word("type"), Node::Leaf(word("swp"))));
        let i = Tree::from_sorted(i);
        objects.push((name, Node::Map(i)));
    }
    merge_all(map_at(t, &["interface"]), objects);
    for (bond, member) in members {
        key(iface(t, &bond), &["bond", "member", &member]);
    }
}

/// The object of interface `name`, made if missing.
fn iface<'t>(t: &'t mut Tree, name: &str) -> &'t mut Tree {
    map_at(t, &["interface", name])
}

/// A port's (or bond's) link: MTU, speed, state.
fn link(s: &PortSettings) -> Tree {
    let mut l = Tree::with_capacity(3);
    if let Some(m) = s.mtu {
        l.insert("mtu".into(), Node::Leaf(number(m.into())));
    }
    if let Some(sp) = s.speed {
        l.insert("speed".into(), Node::Leaf(sp.word().into()));
    }
    let state = if s.shutdown { "down" } else { "up" };
    l.insert("state".into(), one(state, empty()));
    l
}

/// A number as a word.
fn number(n: u64) -> Word {
    Word::numbered("", n, None)
}

/// A bridge port's `domain` object: access VLAN, trunk VLANs (none when it names none).
fn l2(s: &PortSettings) -> Option<Node> {
    let mut d = Tree::with_capacity(2);
    if let Some(v) = s.vlan
        && s.trunk.is_none()
    {
        d.insert("access".into(), Node::Leaf(number(v.get().into())));
    }
    if let Some(trunk) = &s.trunk {
        let mut vlans = Tree::new();
        for v in trunk {
            vlans.insert(number(v.get().into()), empty());
        }
        if !vlans.is_empty() {
            d.insert("vlan".into(), Node::Map(vlans));
        }
        if let Some(native) = s.vlan {
            d.insert("untagged".into(), Node::Leaf(number(native.get().into())));
        }
    }
    (!d.is_empty()).then(|| one("br_default", Node::Map(d)))
}

fn bundles(sw: &Switch, release: Release, t: &mut Tree) {
    for ((mlag, id), s) in &sw.bundles {
        let name = bond_name(sw, *mlag, *id);
        let peerlink = name == "peerlink";
        let i = iface(t, &name);
        put(i, &["type"], if peerlink { "peerlink" } else { "bond" });
        merge_into(i, "link".into(), Node::Map(link(s)));
        if let Some(d) = &s.description {
            merge_into(i, "description".into(), Node::Leaf(word(d)));
        }
        if peerlink {
            // The peer link carries the bridge's VLANs (every one, as a bridge port that
            // names none does: the corpus's `peerlink bridge domain br_default`).
            key(i, &["bridge", "domain", "br_default"]);
            continue;
        }
        if let Some(d) = l2(s) {
            merge_into(i, "bridge".into(), one("domain", d));
        }
        if *mlag {
            put(i, &["bond", "mlag", "id"], id.to_string());
            release.on(i, &["bond", "mlag"]);
        }
        if let Some(a) = s.address {
            key(i, &["ip", "address", &a.to_string()]);
        }
    }
}

/// The bridge's VLANs: the fabric's, but VLAN 1 (the bridge's own) and the IPL's (Onyx's and
/// OS10's term: Cumulus's peer link runs over `peerlink.4094`).
fn vlans(sw: &Switch, t: &mut Tree) {
    let ipl = sw.mlag.as_ref().map(|m| m.ipl_vlan);
    for v in sw.vlans.keys() {
        if v.get() == 1 || Some(*v) == ipl {
            continue;
        }
        key(
            t,
            &[
                "bridge",
                "domain",
                "br_default",
                "vlan",
                &v.get().to_string(),
            ],
        );
    }
    for (v, g) in &sw.gateways {
        svi(t, v.get(), g);
    }
}

fn svi(t: &mut Tree, vlan: u16, g: &Gateway) {
    let name = format!("vlan{vlan}");
    put(t, &["interface", &name, "type"], "svi");
    put(t, &["interface", &name, "vlan"], vlan.to_string());
    key(
        t,
        &["interface", &name, "ip", "address", &g.address.to_string()],
    );
    if let Some(m) = g.mtu {
        put(t, &["interface", &name, "link", "mtu"], m.to_string());
    }
}

/// The pair: the peer link's control subinterface `peerlink.4094` (NVUE's fixed VLAN; the
/// fabric's IPL VLAN and subnet are Onyx's and OS10's terms), the shared MAC, the backup
/// address (the peer's management address, else its IPL address), link-local peering.
fn mlag(sw: &Switch, release: Release, t: &mut Tree) {
    let Some(m) = &sw.mlag else { return };
    put(t, &["interface", "peerlink.4094", "type"], "sub");
    put(
        t,
        &["interface", "peerlink.4094", "base-interface"],
        "peerlink",
    );
    put(t, &["interface", "peerlink.4094", "vlan"], "4094");
    put(t, &["mlag", "mac-address"], m.system_mac.to_string());
    let backup = m.peer_mgmt.unwrap_or(m.peer_address).to_string();
    key(t, &["mlag", "backup", &backup]);
    put(t, &["mlag", "peer-ip"], "linklocal");
    release.on(t, &["mlag"]);
}

fn routing(sw: &Switch, release: Release, t: &mut Tree) {
    let Some(r) = &sw.routing else { return };
    if let Some(lo) = sw.loopback {
        put(t, &["interface", "lo", "type"], "loopback");
        key(
            t,
            &["interface", "lo", "ip", "address", &format!("{lo}/32")],
        );
    }
    put(
        t,
        &["router", "bgp", "autonomous-system"],
        r.asn.to_string(),
    );
    put(t, &["router", "bgp", "router-id"], r.router_id.to_string());
    release.on(t, &["router", "bgp"]);
    let bgp = ["vrf", "default", "router", "bgp"];
    let at =
        |rest: &[&str]| -> Vec<String> { bgp.iter().chain(rest).map(|s| s.to_string()).collect() };
    let p = |t: &mut Tree, rest: &[&str], v: Option<&str>| {
        let path = at(rest);
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        match v {
            Some(v) => put(t, &path, v),
            None => key(t, &path),
        }
    };
    release.on(t, &bgp);
    release.on(t, &[&bgp[..], &["address-family", "ipv4-unicast"]].concat());
    for n in &r.networks {
        p(
            t,
            &["address-family", "ipv4-unicast", "network", &n.to_string()],
            None,
        );
    }
    if r.multipath_relax {
        p(
            t,
            &["path-selection", "multipath", "aspath-ignore"],
            Some("on"),
        );
    }
    let mut sessions: Vec<(String, &str, String, bool, Option<BgpTimers>)> = Vec::new();
    for (addr, n) in &r.neighbors {
        let (name, kind, remote) = match (&n.link, n.unnumbered) {
            (Some((_, port)), true) => (port_name(*port), "unnumbered", "external".to_string()),
            _ => (addr.to_string(), "numbered", n.asn.to_string()),
        };
        sessions.push((name, kind, remote, n.bfd, n.timers));
    }
    for (port, n) in &r.port_neighbors {
        let remote = n.remote_as.to_string();
        sessions.push((port_name(*port), "unnumbered", remote, n.bfd, n.timers));
    }
    for (name, kind, remote, bfd, timers) in sessions {
        p(t, &["neighbor", &name, "type"], Some(kind));
        p(t, &["neighbor", &name, "remote-as"], Some(&remote));
        if bfd && let Some(b) = r.bfd {
            let path = [&bgp[..], &["neighbor", &name, "bfd"]].concat();
            release.on(t, &path);
            for (k, v) in [
                ("detect-multiplier", u32::from(b.multiplier)),
                ("min-rx-interval", b.min_rx),
                ("min-tx-interval", b.interval),
            ] {
                p(t, &["neighbor", &name, "bfd", k], Some(&v.to_string()));
            }
        }
        if let Some(tm) = timers {
            for (k, v) in [("keepalive", tm.keepalive), ("hold", tm.hold)] {
                p(t, &["neighbor", &name, "timers", k], Some(&v.to_string()));
            }
        }
    }
}

/// The one value of a port setting every port that sets one agrees on (the validation
/// refuses ports that differ).
fn common<T: PartialEq + Clone>(
    sw: &Switch,
    get: impl Fn(&PortSettings) -> Option<T>,
) -> Option<T> {
    sw.ports
        .values()
        .chain(sw.bundles.values())
        .filter(|s| s.bundle.is_none())
        .find_map(get)
}

fn qos(sw: &Switch, release: Release, t: &mut Tree) {
    let q = &sw.qos;
    let pfc: BTreeSet<u8> = q
        .pfc
        .as_ref()
        .filter(|p| p.enabled)
        .map(|p| p.priorities.iter().map(|p| p.get()).collect())
        .unwrap_or_default();
    let trust = common(sw, |s| s.trust);
    let ecn = common(sw, |s| (!s.ecn.is_empty()).then_some(s.ecn));
    let ets = common(sw, |s| (!s.ets.is_empty()).then_some(s.ets));
    let roce = pfc == BTreeSet::from([3]) && release.has_roce_mode();
    let marks = [
        (q.dscp.roce, pfc.first().copied().unwrap_or(3)),
        (q.dscp.cnp, 6),
    ];
    let marks: Vec<(u8, u8)> = marks
        .iter()
        .filter_map(|(d, sp)| Some((d.as_ref()?.get(), *sp)))
        .collect();
    // Built apart, put in the tree when it holds anything.
    let mut tree = Tree::new();
    let qos = &mut tree;
    if roce {
        let r = map_at(qos, &["roce"]);
        release.on(r, &[]);
        put(r, &["mode"], "lossless");
    }
    for (name, pool) in &q.pools {
        let p = map_at(qos, &["traffic-pool", name.as_str()]);
        if let Some(m) = pool.memory {
            let h = m.hundredths();
            let v = match h % 100 {
                0 => number((h / 100).into()),
                _ => owned(format!("{}.{:02}", h / 100, h % 100)),
            };
            put(p, &["memory-percent"], v);
        }
        for sp in &pool.priorities {
            map_at(p, &["switch-priority"]).insert(number(sp.get().into()), empty());
        }
    }
    if !pfc.is_empty() {
        let g = map_at(qos, &["pfc", "default-global"]);
        for sp in &pfc {
            map_at(g, &["switch-priority"]).insert(number((*sp).into()), empty());
        }
        put(g, &["tx"], "enable");
        put(g, &["rx"], "enable");
    }
    if trust.is_some() || !marks.is_empty() {
        let g = map_at(qos, &["mapping", "default-global"]);
        if let Some(tr) = trust {
            let word = match tr {
                Trust::L2 | Trust::Port => "l2",
                Trust::L3 => "l3",
                Trust::Both => "both",
            };
            put(g, &["trust"], word);
        }
        for (dscp, sp) in marks {
            let d = number(dscp.into());
            put(
                map_at(g, &["dscp", &d]),
                &["switch-priority"],
                number(sp.into()),
            );
        }
    }
    if let Some(ecn) = ecn {
        let classes = map_at(
            qos,
            &["congestion-control", "default-global", "traffic-class"],
        );
        for (tc, e) in ecn.iter() {
            let c = map_at(classes, &[&number(tc.get().into())]);
            if let EcnThresholds::Absolute { min, max } = e.thresholds {
                put(c, &["min-threshold"], number(u64::from(min) * 1000));
                put(c, &["max-threshold"], number(u64::from(max) * 1000));
            }
            put(c, &["probability"], "100");
            put(c, &["ecn"], "enable");
        }
    }
    // NVIDIA's profile marks traffic class 0 too (`audit::ROCE_PROFILE`): where the fabric
    // marks only its own classes, the profile's others are turned off, so both ends of a
    // cable to another OS mark alike.
    if roce {
        let marked = ecn.unwrap_or_default();
        for (c, _, _) in super::audit::ROCE_PROFILE.ecn {
            if !marked.keys().any(|k| k.get() == *c) {
                let classes = map_at(
                    qos,
                    &["congestion-control", "default-global", "traffic-class"],
                );
                put(classes, &[&number((*c).into()), "ecn"], "disable");
            }
        }
    }
    if let Some(ets) = ets {
        let classes = map_at(
            qos,
            &["egress-scheduler", "default-global", "traffic-class"],
        );
        for (tc, e) in ets.iter() {
            let c = map_at(classes, &[&number(tc.get().into())]);
            match e {
                Ets::Strict => put(c, &["mode"], "strict"),
                Ets::Wrr(w) => {
                    put(c, &["mode"], "dwrr");
                    put(c, &["bw-percent"], number((*w).into()));
                }
            }
        }
    }
    if !tree.is_empty() {
        merge_into(t, "qos".into(), Node::Map(tree));
    }
}

/// The first release that writes an object turned on as `state: enabled` rather than
/// `enable: on` (BGP, its address families and BFD, MLAG, a bond's MLAG, `qos roce`): the
/// 5.15 page "New and Changed NVUE Commands" [doc]; `enable: on` in the 5.9.2, 5.12 and
/// 5.14 captures and examples. NVUE translates a `startup.yaml` on upgrade.
pub const STATE_SINCE: (u8, u8, u8) = (5, 15, 0);

impl Release {
    /// Turns on the object at `path` as the release spells it.
    fn on(self, t: &mut Tree, path: &[&str]) {
        let (k, v) = match self.0 >= STATE_SINCE {
            true => ("state", "enabled"),
            false => ("enable", "on"),
        };
        put(t, &[path, &[k]].concat(), v);
    }

    /// `qos roce mode` (DOC-ROCE, 5.x; the first 5.x release with the mode word is
    /// UNCONFIRMED: taken as 5.0.0).
    fn has_roce_mode(self) -> bool {
        self.0 >= (5, 0, 0)
    }
}
