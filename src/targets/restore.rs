//! A roll-back's pieces every OS uses: put back what a push changed in a set or a map (to
//! the snapshot's values), nothing else.

use crate::types::{TcMap, TrafficClass};

/// Each member of a set the push added or removed goes back to `before`'s.
pub(crate) fn put_back_set<T: Ord + Clone>(
    now: &mut std::collections::BTreeSet<T>,
    before: &std::collections::BTreeSet<T>,
    pushed: &std::collections::BTreeSet<T>,
) {
    for x in before.symmetric_difference(pushed) {
        if before.contains(x) {
            now.insert(x.clone());
        } else {
            now.remove(x);
        }
    }
}

/// Each entry of a map the push changed (added, removed or altered) goes back to `before`'s.
pub(crate) fn put_back<M: Keyed>(now: &mut M, before: &M, pushed: &M) {
    let keys: std::collections::BTreeSet<M::Key> = before.keys().chain(pushed.keys()).collect();
    for k in keys {
        let b = before.value(&k);
        if b != pushed.value(&k) {
            now.set(k, b.cloned());
        }
    }
}

/// What [`put_back`] needs of a map: the model's maps by name or number, and the per-class
/// settings.
pub(crate) trait Keyed {
    type Key: Ord + Clone;
    type Value: PartialEq + Clone;
    fn keys(&self) -> impl Iterator<Item = Self::Key>;
    fn value(&self, k: &Self::Key) -> Option<&Self::Value>;
    fn set(&mut self, k: Self::Key, v: Option<Self::Value>);
}

impl<K: Ord + Clone, V: PartialEq + Clone> Keyed for std::collections::BTreeMap<K, V> {
    type Key = K;
    type Value = V;
    fn keys(&self) -> impl Iterator<Item = K> {
        self.keys().cloned()
    }
    fn value(&self, k: &K) -> Option<&V> {
        self.get(k)
    }
    fn set(&mut self, k: K, v: Option<V>) {
        match v {
            Some(v) => self.insert(k, v),
            None => self.remove(&k),
        };
    }
}

impl<V: PartialEq + Copy> Keyed for TcMap<V> {
    type Key = TrafficClass;
    type Value = V;
    fn keys(&self) -> impl Iterator<Item = TrafficClass> {
        self.iter().map(|(tc, _)| *tc)
    }
    fn value(&self, k: &TrafficClass) -> Option<&V> {
        self.get(k)
    }
    fn set(&mut self, k: TrafficClass, v: Option<V>) {
        match v {
            Some(v) => self.insert(k, v),
            None => self.remove(&k),
        };
    }
}
