//! What the switch should look like after a plan: the intended state for what the model knows,
//! the running config for what a plan never touches (see the plan module's doc).

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::super::{Bgp, Config, Eth, Iface, Interface, Peer, PortGroup, PortGroupId};
use super::nodes::reanchored;

/// Keeps the running order of the items both sides have, then appends the new ones in the
/// intended order: OS10 keeps named QoS items, classes, templates, neighbors and networks in
/// creation order (the TOR capture), and a plan only creates at the end.
fn in_running_order<T: Clone>(
    running: &[T],
    intended: &[T],
    same: impl Fn(&T, &T) -> bool,
    merge: impl Fn(&T, &T) -> T,
) -> Vec<T> {
    let mut out: Vec<T> = running
        .iter()
        .filter_map(|r| intended.iter().find(|i| same(r, i)).map(|i| merge(r, i)))
        .collect();
    out.extend(
        intended
            .iter()
            .filter(|i| !running.iter().any(|r| same(r, i)))
            .cloned(),
    );
    out
}

fn peer_target(r: &Peer, i: &Peer) -> Peer {
    let mut p = i.clone();
    p.extras.clone_from(&r.extras);
    p.shutdown = i.shutdown.or(r.shutdown);
    if let (Some(pa), Some(ra)) = (&mut p.ipv4, &r.ipv4) {
        pa.extras.clone_from(&ra.extras);
    }
    p
}

/// What the switch should look like: `intended` for everything the model knows, `running`
/// for what a plan never touches (see the module's doc).
pub fn target(running: &Config, intended: &Config) -> Config {
    let mut t = goal(running, intended, |_| true);
    t.layout.clone_from(&running.layout);
    t
}

/// `c` without its interfaces and layout: a copy that costs nothing per interface.
fn shell(c: &Config) -> Config {
    // Every field named: one added to the model is a decision here.
    let Config {
        header,
        hostname,
        dcbx,
        breakouts,
        bfd,
        bfd_interval,
        wred,
        class_maps,
        trust_maps,
        qos_maps,
        policy_maps,
        system_qos,
        port_groups,
        interfaces: _,
        bgp,
        vlt,
        layout: _,
    } = c;
    Config {
        header: header.clone(),
        hostname: hostname.clone(),
        dcbx: *dcbx,
        breakouts: breakouts.clone(),
        bfd: *bfd,
        bfd_interval: *bfd_interval,
        wred: wred.clone(),
        class_maps: class_maps.clone(),
        trust_maps: trust_maps.clone(),
        qos_maps: qos_maps.clone(),
        policy_maps: policy_maps.clone(),
        system_qos: system_qos.clone(),
        port_groups: port_groups.clone(),
        interfaces: BTreeMap::new(),
        bgp: bgp.clone(),
        vlt: vlt.clone(),
        layout: Default::default(),
    }
}

/// Whether two interfaces print the same lines but for `shutdown`: every setting the model
/// knows, the verbatim lines aside (a plan never types those).
fn same_settings(a: &Interface, b: &Interface) -> bool {
    // Every field named: one added to the model is a decision here.
    let Interface {
        description,
        shutdown: _,
        channel_group,
        routed,
        mode,
        access_vlan,
        trunk_allowed,
        mtu,
        address,
        flowcontrol_rx,
        flowcontrol_tx,
        pfc,
        policy_in,
        policy_out,
        ets,
        qos_map,
        trust_map,
        vlt_port_channel,
        bpduguard,
        stp_guard,
        stp_type,
        extras: _,
    } = a;
    *description == b.description
        && *channel_group == b.channel_group
        && *routed == b.routed
        && *mode == b.mode
        && *access_vlan == b.access_vlan
        && *trunk_allowed == b.trunk_allowed
        && *mtu == b.mtu
        && *address == b.address
        && *flowcontrol_rx == b.flowcontrol_rx
        && *flowcontrol_tx == b.flowcontrol_tx
        && *pfc == b.pfc
        && *policy_in == b.policy_in
        && *policy_out == b.policy_out
        && *ets == b.ets
        && *qos_map == b.qos_map
        && *trust_map == b.trust_map
        && *vlt_port_channel == b.vlt_port_channel
        && *bpduguard == b.bpduguard
        && *stp_guard == b.stp_guard
        && *stp_type == b.stp_type
}

/// The interfaces whose lines in [`target`] differ from the running ones: those a plan
/// compares. The rest (most of a switch's thousands, on a drift) print the same lines on both
/// sides, verbatim lines aside. A port whose breakout map or port-group mode changes always
/// differs: the switch deletes it with its settings, which the plan types again.
pub(super) fn differing(running: &Config, intended: &Config) -> HashSet<Iface> {
    // `rebroken` towards the target's breakouts and port groups is towards the intended ones:
    // the target's are the running ones with the intended ones over them.
    let gone = rebroken(running, &intended.breakouts, &intended.port_groups);
    let none = Interface::default();
    let mut out = HashSet::new();
    // Both maps in order at once: one pass, no lookup per interface.
    let mut r = running.interfaces.iter().peekable();
    let mut i = intended.interfaces.iter().peekable();
    loop {
        let order = match (r.peek(), i.peek()) {
            (None, None) => break,
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (Some((rk, _)), Some((ik, _))) => rk.cmp(ik),
        };
        let (was, will) = match order {
            Ordering::Less => (r.next(), None),
            Ordering::Greater => (None, i.next()),
            Ordering::Equal => (r.next(), i.next()),
        };
        let differs = match (was, will) {
            (Some((k, a)), Some((_, b))) => {
                gone(k) || !same_settings(a, b) || b.shutdown.or(a.shutdown) != a.shutdown
            }
            (Some((k, a)), None) => gone(k) || deletable(k) || !same_settings(a, &none),
            (None, Some(_)) => true,
            (None, None) => false,
        };
        if differs && let Some((k, _)) = was.or(will) {
            out.insert(*k);
        }
    }
    out
}

/// [`target`] without its layout and with only the interfaces `keep` says: what a plan
/// compares.
pub(super) fn goal(running: &Config, intended: &Config, keep: impl Fn(&Iface) -> bool) -> Config {
    let mut t = shell(intended);
    // A plan types only what the model knows: the verbatim lines are the running config's.
    without_verbatim(&mut t);
    let intended_ifaces = &intended.interfaces;
    let intended = &t.clone();
    t.header.clone_from(&running.header);
    qos_goal(&mut t, running, intended);
    ports_goal(&mut t, running, intended);
    let gone = rebroken(running, &t.breakouts, &t.port_groups);
    t.interfaces = interfaces_goal(running, intended_ifaces, gone, keep);
    if let (Some(tv), Some(rv)) = (&mut t.vlt, &running.vlt)
        && tv.id == rv.id
    {
        tv.extras.clone_from(&rv.extras);
    }
    if let (Some(tb), Some(rb)) = (&mut t.bgp, &running.bgp)
        && tb.asn == rb.asn
    {
        bgp_goal(tb, rb);
    }
    t
}

/// The QoS blocks of [`goal`] (`t`): the intended ones (`intended`, without verbatim lines), in
/// the running order, with the running blocks' verbatim lines.
fn qos_goal(t: &mut Config, running: &Config, intended: &Config) {
    t.wred = in_running_order(
        &running.wred,
        &intended.wred,
        |a, b| a.name == b.name,
        |r, i| {
            let mut x = i.clone();
            x.extras.clone_from(&r.extras);
            x
        },
    );
    t.class_maps = in_running_order(
        &running.class_maps,
        &intended.class_maps,
        |a, b| a.kind == b.kind && a.name == b.name,
        |r, i| {
            let mut x = i.clone();
            x.extras.clone_from(&r.extras);
            x
        },
    );
    t.trust_maps = in_running_order(
        &running.trust_maps,
        &intended.trust_maps,
        |a, b| a.kind == b.kind && a.name == b.name,
        |r, i| {
            let mut x = i.clone();
            x.extras.clone_from(&r.extras);
            x
        },
    );
    t.qos_maps = in_running_order(
        &running.qos_maps,
        &intended.qos_maps,
        |a, b| a.name == b.name,
        |r, i| {
            let mut x = i.clone();
            x.extras.clone_from(&r.extras);
            x
        },
    );
    t.policy_maps = in_running_order(
        &running.policy_maps,
        &intended.policy_maps,
        |a, b| a.kind == b.kind && a.name == b.name,
        |r, i| {
            let mut x = i.clone();
            x.extras.clone_from(&r.extras);
            x.classes = in_running_order(
                &r.classes,
                &i.classes,
                |a, b| a.name == b.name,
                |rc, ic| {
                    let mut c = ic.clone();
                    c.extras.clone_from(&rc.extras);
                    c
                },
            );
            x
        },
    );
    t.system_qos = match (&running.system_qos, &intended.system_qos) {
        (Some(r), Some(i)) => Some(super::super::SystemQos {
            extras: r.extras.clone(),
            ..i.clone()
        }),
        // Lines the model does not know keep the block.
        (Some(r), None) if !r.extras.is_empty() => Some(super::super::SystemQos {
            extras: r.extras.clone(),
            ..Default::default()
        }),
        (_, i) => i.clone(),
    };
}

/// The breakouts and port groups of [`goal`] (`t`): the running ones with the intended ones
/// over them.
fn ports_goal(t: &mut Config, running: &Config, intended: &Config) {
    // A breakout the intent does not state is the running one (OS10 prints every port's map:
    // a config without it says nothing about it); a port whose map changes is re-created, with
    // none of its running settings.
    t.breakouts = running.breakouts.clone();
    t.breakouts
        .extend(intended.breakouts.iter().map(|(e, m)| (*e, m.clone())));
    // So is a port group's mode (OS10 prints every group, native modes included: the TOR
    // capture); a group keeps its verbatim lines. A port whose group's mode changes is
    // re-created as a port whose breakout changes is.
    // A group the running config does not state runs its native mode (a lab state saved
    // before port groups were modeled): stating that mode changes nothing, so no step.
    let model = super::super::groups::model_of([&running.port_groups, &intended.port_groups]);
    let native = |id: &PortGroupId, g: &PortGroup| {
        !running.port_groups.contains_key(id)
            && model
                .and_then(|m| m.port_group(id.number))
                .is_some_and(|pg| g.mode.as_deref() == Some(pg.native()))
    };
    t.port_groups = running.port_groups.clone();
    for (id, g) in &intended.port_groups {
        if native(id, g) {
            continue;
        }
        let e = t.port_groups.entry(*id).or_default();
        if g.mode.is_some() {
            e.mode.clone_from(&g.mode);
        }
    }
}

/// The interfaces of [`goal`] that `keep` says: the intended ones (`intended`) with the running
/// ones' `shutdown` and verbatim lines, and the running ports the intent leaves alone, bare;
/// a port `gone` says is re-created has none of its running settings.
fn interfaces_goal(
    running: &Config,
    intended: &BTreeMap<Iface, Interface>,
    gone: impl Fn(&Iface) -> bool,
    keep: impl Fn(&Iface) -> bool,
) -> BTreeMap<Iface, Interface> {
    let mut ifaces: BTreeMap<_, _> = BTreeMap::new();
    for (k, i) in intended.iter().filter(|(k, _)| keep(k)) {
        let mut e = Interface {
            extras: Vec::new(),
            ..i.clone()
        };
        if let Some(r) = running.interfaces.get(k).filter(|_| !gone(k)) {
            e.shutdown = e.shutdown.or(r.shutdown);
            e.extras = reanchored(r, &e);
        }
        ifaces.insert(*k, e);
    }
    for (k, r) in running.interfaces.iter().filter(|(k, _)| keep(k)) {
        if !deletable(k) && !ifaces.contains_key(k) && !gone(k) {
            let mut e = Interface {
                shutdown: r.shutdown,
                ..Interface::default()
            };
            e.extras = reanchored(r, &e);
            ifaces.insert(*k, e);
        }
    }
    ifaces
}

/// The BGP instance of [`goal`] (`tb`), the running one (`rb`) being the same: its verbatim
/// lines, and its networks, templates and neighbors in the running order.
fn bgp_goal(tb: &mut Bgp, rb: &Bgp) {
    tb.extras.clone_from(&rb.extras);
    if let (Some(ta), Some(ra)) = (&mut tb.ipv4, &rb.ipv4) {
        ta.extras.clone_from(&ra.extras);
        ta.networks = in_running_order(&ra.networks, &ta.networks, |a, b| a == b, |_, i| *i);
    }
    tb.templates = in_running_order(
        &rb.templates,
        &tb.templates,
        |a, b| a.0 == b.0,
        |r, i| (i.0.clone(), peer_target(&r.1, &i.1)),
    );
    tb.neighbors = in_running_order(
        &rb.neighbors,
        &tb.neighbors,
        |a, b| a.0 == b.0,
        |r, i| (i.0, peer_target(&r.1, &i.1)),
    );
}

/// Whether an interface of `from` is deleted when its breakouts go to `to` and its port
/// groups to `groups`: an Ethernet port or subport of a front-panel port whose map `to` sets
/// differently, or whose port group's mode `groups` sets differently
/// ([`groups::regrouped`](super::super::groups::regrouped)).
pub fn rebroken<'a>(
    from: &'a Config,
    to: &'a BTreeMap<Eth, String>,
    groups: &'a BTreeMap<PortGroupId, PortGroup>,
) -> impl Fn(&Iface) -> bool + 'a {
    // The ports whose map or group changes, found once: usually none.
    let changed: BTreeSet<Eth> = to
        .iter()
        .filter(|(port, m)| from.breakouts.get(port) != Some(m))
        .map(|(port, _)| *port)
        .collect();
    let regrouped = super::super::groups::regrouped(&from.port_groups, groups);
    move |i| match i {
        Iface::Ethernet(e) if !changed.is_empty() || !regrouped.is_empty() => {
            changed.contains(&Eth { sub: None, ..*e })
                || (e.node == 1 && e.slot == 1 && regrouped.contains(&e.port))
        }
        _ => false,
    }
}

/// Port-channels, VLAN interfaces and loopbacks are created and deleted; physical and
/// management ports exist whatever the configuration says.
pub fn deletable(i: &super::super::Iface) -> bool {
    matches!(
        i,
        super::super::Iface::PortChannel(_)
            | super::super::Iface::Vlan(_)
            | super::super::Iface::Loopback(_)
    )
}

/// `c` with no line kept verbatim inside its blocks.
fn without_verbatim(c: &mut Config) {
    fn peer(p: &mut Peer) {
        p.extras.clear();
        if let Some(af) = &mut p.ipv4 {
            af.extras.clear();
        }
    }
    c.wred.iter_mut().for_each(|x| x.extras.clear());
    c.class_maps.iter_mut().for_each(|x| x.extras.clear());
    c.trust_maps.iter_mut().for_each(|x| x.extras.clear());
    c.qos_maps.iter_mut().for_each(|x| x.extras.clear());
    for m in &mut c.policy_maps {
        m.extras.clear();
        m.classes.iter_mut().for_each(|x| x.extras.clear());
    }
    if let Some(s) = &mut c.system_qos {
        s.extras.clear();
    }
    c.port_groups.values_mut().for_each(|x| x.extras.clear());
    c.interfaces.values_mut().for_each(|x| x.extras.clear());
    if let Some(v) = &mut c.vlt {
        v.extras.clear();
    }
    if let Some(b) = &mut c.bgp {
        b.extras.clear();
        if let Some(af) = &mut b.ipv4 {
            af.extras.clear();
        }
        b.templates.iter_mut().for_each(|(_, p)| peer(p));
        b.neighbors.iter_mut().for_each(|(_, p)| peer(p));
    }
}
