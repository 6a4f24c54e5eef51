//! OS10's roll-back target without a transaction to discard: as on Onyx (`crate::onyx::restore`),
//! the config now with what the push changed put back to the snapshot's values and nothing
//! else, so a change typed by someone else during the push survives its roll-back.

use std::collections::BTreeSet;

use crate::os10::{Bgp, Config, Interface};
use crate::targets::restore::put_back;

/// The config a roll-back goes to: `now`, with every item the push changed (where `before`
/// and `pushed`, the plan's target, differ) put back to `before`'s. Named items (QoS maps and
/// policies, WRED profiles, BGP neighbors and templates) go back whole; an interface and the
/// BGP instance go back setting by setting.
pub fn restore(now: &Config, before: &Config, pushed: &Config) -> Config {
    let mut t = now.clone();
    macro_rules! back {
        ($($field:ident),*) => {$(
            if before.$field != pushed.$field {
                t.$field.clone_from(&before.$field);
            }
        )*};
    }
    back!(hostname, dcbx, bfd, bfd_interval, system_qos, vlt);
    put_back(&mut t.breakouts, &before.breakouts, &pushed.breakouts);
    put_back(&mut t.port_groups, &before.port_groups, &pushed.port_groups);
    named(&mut t.wred, &before.wred, &pushed.wred, |x| x.name.clone());
    named(
        &mut t.class_maps,
        &before.class_maps,
        &pushed.class_maps,
        |x| (x.kind, x.name.clone()),
    );
    named(
        &mut t.trust_maps,
        &before.trust_maps,
        &pushed.trust_maps,
        |x| (x.kind, x.name.clone()),
    );
    named(&mut t.qos_maps, &before.qos_maps, &pushed.qos_maps, |x| {
        x.name.clone()
    });
    named(
        &mut t.policy_maps,
        &before.policy_maps,
        &pushed.policy_maps,
        |x| (x.kind, x.name.clone()),
    );
    let keys: BTreeSet<_> = before
        .interfaces
        .keys()
        .chain(pushed.interfaces.keys())
        .copied()
        .collect();
    for k in keys {
        match (before.interfaces.get(&k), pushed.interfaces.get(&k)) {
            (b, p) if b == p => {}
            (Some(b), Some(p)) => {
                if let Some(cur) = t.interfaces.get_mut(&k) {
                    interface(cur, b, p);
                } else {
                    t.interfaces.insert(k, b.clone());
                }
            }
            (Some(b), None) => {
                t.interfaces.insert(k, b.clone());
            }
            (None, _) => {
                t.interfaces.remove(&k);
            }
        }
    }
    match (&before.bgp, &pushed.bgp, &mut t.bgp) {
        (b, p, _) if b == p => {}
        (Some(b), Some(p), Some(cur)) if b.asn == p.asn && cur.asn == b.asn => bgp(cur, b, p),
        (b, _, cur) => cur.clone_from(b),
    }
    t
}

/// Each item of a list kept by name that the push added, removed or changed goes back to
/// `before`'s, in place; one the push removed comes back at the end (where a plan creates).
fn named<T: Clone + PartialEq, K: PartialEq>(
    now: &mut Vec<T>,
    before: &[T],
    pushed: &[T],
    key: impl Fn(&T) -> K,
) {
    let find = |l: &[T], k: &K| l.iter().position(|x| key(x) == *k);
    let keys: Vec<K> = before.iter().chain(pushed).map(&key).collect();
    for k in &keys {
        let b = find(before, k).map(|i| &before[i]);
        let p = find(pushed, k).map(|i| &pushed[i]);
        if b == p {
            continue;
        }
        match (b, find(now, k)) {
            (Some(b), Some(i)) => now[i] = b.clone(),
            (Some(b), None) => now.push(b.clone()),
            (None, Some(i)) => {
                now.remove(i);
            }
            (None, None) => {}
        }
    }
}

/// One interface's settings the push changed go back to `b`'s; the others stay as `cur` has
/// them. Every field is named, so a new one cannot be forgotten here.
fn interface(cur: &mut Interface, b: &Interface, p: &Interface) {
    let Interface {
        description: _,
        shutdown: _,
        channel_group: _,
        routed: _,
        mode: _,
        access_vlan: _,
        trunk_allowed: _,
        mtu: _,
        address: _,
        flowcontrol_rx: _,
        flowcontrol_tx: _,
        pfc: _,
        policy_in: _,
        policy_out: _,
        ets: _,
        qos_map: _,
        trust_map: _,
        vlt_port_channel: _,
        bpduguard: _,
        stp_guard: _,
        stp_type: _,
        // The lines the model does not know: a plan never types them.
        extras: _,
    } = b;
    macro_rules! back {
        ($($field:ident),*) => {$(
            if b.$field != p.$field {
                cur.$field.clone_from(&b.$field);
            }
        )*};
    }
    back!(
        description,
        shutdown,
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
        stp_type
    );
}

/// The BGP instance's settings, neighbors and templates the push changed go back to `b`'s.
fn bgp(cur: &mut Bgp, b: &Bgp, p: &Bgp) {
    macro_rules! back {
        ($($field:ident),*) => {$(
            if b.$field != p.$field {
                cur.$field.clone_from(&b.$field);
            }
        )*};
    }
    back!(
        multipath_relax,
        fast_external_fallover,
        max_paths_ebgp,
        max_paths_ibgp,
        router_id,
        ipv4
    );
    named(&mut cur.templates, &b.templates, &p.templates, |x| {
        x.0.clone()
    });
    named(&mut cur.neighbors, &b.neighbors, &p.neighbors, |x| x.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Config {
        crate::os10::parse(text).unwrap()
    }

    /// A roll-back puts back what the push changed and nothing else: a description typed on
    /// another port, and a neighbor added, during the push stay.
    #[test]
    fn a_roll_back_undoes_only_what_the_push_changed() {
        let before = config(
            "interface ethernet1/1/1
 mtu 1500
!
interface ethernet1/1/2
 description a
!
router bgp 65001
 !
 neighbor 10.0.0.1
  remote-as 65002
",
        );
        let pushed = config(
            "interface ethernet1/1/1
 mtu 9216
!
interface ethernet1/1/2
 description a
!
interface port-channel10
 no shutdown
!
router bgp 65001
 !
 neighbor 10.0.0.1
  remote-as 65003
",
        );
        // Half-applied (the neighbor not yet changed), with someone else's changes.
        let now = config(
            "interface ethernet1/1/1
 mtu 9216
!
interface ethernet1/1/2
 description b
!
interface port-channel10
 no shutdown
!
router bgp 65001
 !
 neighbor 10.0.0.1
  remote-as 65002
 !
 neighbor 10.0.0.9
  remote-as 65009
",
        );
        let back = restore(&now, &before, &pushed);
        let want = config(
            "interface ethernet1/1/1
 mtu 1500
!
interface ethernet1/1/2
 description b
!
router bgp 65001
 !
 neighbor 10.0.0.1
  remote-as 65002
 !
 neighbor 10.0.0.9
  remote-as 65009
",
        );
        assert_eq!(back.interfaces, want.interfaces);
        assert_eq!(back.bgp, want.bgp);
        // Nothing the push did not change moves.
        assert_eq!(restore(&now, &before, &before).interfaces, now.interfaces);
    }
}
