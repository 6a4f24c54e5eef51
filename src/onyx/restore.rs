//! Onyx's roll-back target: the config now, with what the push changed put back to the
//! snapshot's values and nothing else (Onyx has no transaction to discard).

use crate::onyx::{Config, Interface};
use crate::targets::restore::{put_back, put_back_set};

/// The config a roll-back goes to: the config `now`, with every setting the push changed
/// (where `before` and `pushed` differ) put back to its value in `before`. A setting the push
/// did not change keeps its value now, whatever `before` says: a roll-back undoes the push,
/// nothing else. Licenses are never removed (the plan never removes them either).
pub fn restore(now: &Config, before: &Config, pushed: &Config) -> Config {
    let mut t = now.clone();
    if before.hostname != pushed.hostname {
        t.hostname.clone_from(&before.hostname);
    }
    if before.lldp != pushed.lldp {
        t.lldp = before.lldp;
    }
    if before.roce != pushed.roce {
        t.roce = before.roce;
    }
    if before.pfc.enabled != pushed.pfc.enabled {
        t.pfc.enabled = before.pfc.enabled;
    }
    put_back_set(
        &mut t.pfc.priorities,
        &before.pfc.priorities,
        &pushed.pfc.priorities,
    );
    macro_rules! back {
        ($($($field:ident).+),*) => {$(
            if before.$($field).+ != pushed.$($field).+ {
                t.$($field).+.clone_from(&before.$($field).+);
            }
        )*};
    }
    back!(
        ip_routing,
        bfd,
        lacp,
        spanning_tree,
        mlag.enabled,
        mlag.system_mac,
        mlag.vip
    );
    // A running pair is shut down around a change of its settings or peer link and brought
    // up last: a push stopped between the two leaves it down though `pushed` has it up, as
    // `before` does. Its admin state is the push's to put back.
    if crate::onyx::plan::mlag_changes(before, pushed) {
        t.mlag.enabled = before.mlag.enabled;
    }
    put_back_set(
        &mut t.load_sharing,
        &before.load_sharing,
        &pushed.load_sharing,
    );
    put_back_set(&mut t.protocols, &before.protocols, &pushed.protocols);
    match (&before.bgp, &pushed.bgp, &mut t.bgp) {
        (b, p, _) if b == p => {}
        // The same instance on both sides: each setting the push changed goes back.
        (Some(b), Some(p), Some(cur)) if b.asn == p.asn && cur.asn == b.asn => {
            if b.router_id != p.router_id {
                cur.router_id = b.router_id;
            }
            if b.maximum_paths != p.maximum_paths {
                cur.maximum_paths = b.maximum_paths;
            }
            if b.multipath_relax != p.multipath_relax {
                cur.multipath_relax = b.multipath_relax;
            }
            if b.fast_external_fallover != p.fast_external_fallover {
                cur.fast_external_fallover = b.fast_external_fallover;
            }
            put_back(&mut cur.neighbors, &b.neighbors, &p.neighbors);
            put_back(&mut cur.timers, &b.timers, &p.timers);
            put_back_set(&mut cur.bfd, &b.bfd, &p.bfd);
            put_back_set(&mut cur.networks, &b.networks, &p.networks);
        }
        (b, _, cur) => cur.clone_from(b),
    }
    put_back(&mut t.pools, &before.pools, &pushed.pools);
    put_back(&mut t.vlans, &before.vlans, &pushed.vlans);
    let empty = Interface::default();
    let ifaces: std::collections::BTreeSet<_> = before
        .interfaces
        .keys()
        .chain(pushed.interfaces.keys())
        .copied()
        .collect();
    for iface in ifaces {
        let b = before.interfaces.get(&iface).unwrap_or(&empty);
        let p = pushed.interfaces.get(&iface).unwrap_or(&empty);
        if b == p {
            continue;
        }
        let mut cur = t.interfaces.get(&iface).cloned().unwrap_or_default();
        restore_interface(&mut cur, b, p);
        if cur == empty {
            t.interfaces.remove(&iface);
        } else {
            t.interfaces.insert(iface, cur);
        }
    }
    t
}

/// One interface's settings the push changed go back to `b`'s; the others stay as `cur` has
/// them. Every field is named, so a new one cannot be forgotten here.
fn restore_interface(cur: &mut Interface, b: &Interface, p: &Interface) {
    let Interface {
        created,
        split,
        speed,
        mtu,
        description,
        shutdown,
        switchport_mode,
        access_vlan,
        allowed,
        channel_group,
        trust,
        ecn,
        ets,
        pfc,
        routed,
        address,
        ipl,
        ipl_peer,
        stp_type,
        bpduguard,
        stp_guard,
        lacp_individual,
    } = b;
    macro_rules! back {
        ($($field:ident),*) => {$(
            if *$field != p.$field {
                cur.$field.clone_from($field);
            }
        )*};
    }
    back!(
        created,
        split,
        speed,
        mtu,
        description,
        shutdown,
        switchport_mode,
        access_vlan,
        allowed,
        channel_group,
        trust,
        pfc,
        routed,
        address,
        ipl,
        ipl_peer,
        stp_type,
        bpduguard,
        stp_guard,
        lacp_individual
    );
    put_back(&mut cur.ecn, ecn, &p.ecn);
    put_back(&mut cur.ets, ets, &p.ets);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(lines: &str) -> Config {
        let mut text = String::new();
        for l in lines.lines() {
            text.push_str("   ");
            text.push_str(l.trim());
            text.push('\n');
        }
        crate::onyx::parse(&text).unwrap()
    }

    /// A roll-back puts back what the push changed and nothing else: a snapshot that lacks
    /// settings the switch has (they were added since, or the snapshot was not whole) cannot
    /// make the roll-back remove them.
    #[test]
    fn a_roll_back_undoes_only_what_the_push_changed() {
        let before = config(
            "interface ethernet 1/1 mtu 1500 force
             interface ethernet 1/2 description a",
        );
        let pushed = config(
            "interface ethernet 1/1 mtu 9216 force
             interface ethernet 1/2 description a
             interface ethernet 1/3 qos trust L3
             lldp",
        );
        // Half-applied, and the switch holds settings the snapshot does not show.
        let now = config(
            "interface ethernet 1/1 mtu 9216 force
             interface ethernet 1/2 description a
             interface ethernet 1/3 qos trust L3
             interface ethernet 1/3 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500
             interface ethernet 1/9 dcb priority-flow-control mode on force
             hostname kept
             dcb priority-flow-control enable force",
        );
        let back = restore(&now, &before, &pushed);
        let steps: Vec<String> = crate::onyx::plan::plan(&now, &back)
            .iter()
            .map(|s| s.command.to_string())
            .collect();
        assert_eq!(
            steps,
            [
                "interface ethernet 1/1 mtu 1500 force",
                "interface ethernet 1/3 no qos trust"
            ],
            "{steps:?}"
        );
        // The push's own changes are all undone.
        assert!(crate::onyx::plan::plan(&restore(&pushed, &before, &pushed), &before).is_empty());
    }
}
