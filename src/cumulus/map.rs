//! [`Tree`]: NVUE's objects by name, in NVUE's order (names sorted as text, byte by byte, as
//! a `BTreeMap` of strings orders them). Most of NVUE's maps hold one to a few objects (a
//! port's `link`, `state`, `bridge`), a switch's `interface` map its ports: those are a
//! sorted `Vec` — one allocation, found by a binary search, objects put in order appended.
//! A map that grows past [`LARGE`] objects (the ports of a switch broken out many ways, a
//! bridge's VLANs) becomes a `BTreeMap`, so building it stays O(n log n) in any order.
//! A map made [`Tree::shared`] is one object however many places hold it (every port's
//! `link: {mtu: 9216, state: {up: {}}}`): a copy costs a count, and a change to one copy
//! copies it first (copy on write), so no holder sees another's change.

use std::collections::{BTreeMap, btree_map};
use std::fmt;
use std::sync::Arc;

use super::tree::{Node, Word};
use super::words::order;

/// Objects a map holds before it becomes a `BTreeMap` (an insertion out of order moves at
/// most this many).
const LARGE: usize = 128;

/// Objects by name, in NVUE's order (names sorted as text).
#[derive(Clone, Default)]
pub struct Tree(Held);

/// A map's objects, its own or shared with its copies.
#[derive(Clone)]
enum Held {
    Own(Repr),
    Shared(Arc<Repr>),
}

impl Default for Held {
    fn default() -> Self {
        Held::Own(Repr::default())
    }
}

#[derive(Clone)]
enum Repr {
    /// Sorted by name, no name twice.
    Small(Vec<(Word, Node)>),
    Large(BTreeMap<Word, Node>),
}

impl Default for Repr {
    fn default() -> Self {
        Repr::Small(Vec::new())
    }
}

/// Where `key` is in a sorted small map, or where it would go.
fn find(v: &[(Word, Node)], key: &str) -> Result<usize, usize> {
    // Objects mostly come in order: a name after the last one goes at the end.
    match v.last() {
        None => Err(0),
        Some((last, _)) if order(last, key).is_lt() => Err(v.len()),
        _ => v.binary_search_by(|(k, _)| order(k, key)),
    }
}

impl Tree {
    pub fn new() -> Tree {
        Tree::of(Repr::Small(Vec::new()))
    }

    fn of(r: Repr) -> Tree {
        Tree(Held::Own(r))
    }

    /// The map as one object its copies share (copied only when one of them is changed).
    pub fn shared(self) -> Tree {
        match self.0 {
            Held::Own(r) => Tree(Held::Shared(Arc::new(r))),
            Held::Shared(_) => self,
        }
    }

    /// The objects, read.
    fn repr(&self) -> &Repr {
        match &self.0 {
            Held::Own(r) => r,
            Held::Shared(r) => r,
        }
    }

    /// The objects to change: a shared map's copied first unless this is its only holder.
    fn own(&mut self) -> &mut Repr {
        if let Held::Shared(_) = self.0
            && let Held::Shared(r) = std::mem::take(&mut self.0)
        {
            self.0 = Held::Own(Arc::unwrap_or_clone(r));
        }
        match &mut self.0 {
            Held::Own(r) => r,
            Held::Shared(_) => unreachable!("owned above"),
        }
    }

    /// The objects, taken.
    fn into_repr(self) -> Repr {
        match self.0 {
            Held::Own(r) => r,
            Held::Shared(r) => Arc::unwrap_or_clone(r),
        }
    }

    /// A map with room for `n` objects.
    pub fn with_capacity(n: usize) -> Tree {
        match n > LARGE {
            true => Tree::of(Repr::Large(BTreeMap::new())),
            false => Tree::of(Repr::Small(Vec::with_capacity(n))),
        }
    }

    pub fn len(&self) -> usize {
        match self.repr() {
            Repr::Small(v) => v.len(),
            Repr::Large(m) => m.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get<Q: AsRef<str> + ?Sized>(&self, key: &Q) -> Option<&Node> {
        let key = key.as_ref();
        match self.repr() {
            Repr::Small(v) => find(v, key).ok().map(|i| &v[i].1),
            Repr::Large(m) => m.get(key),
        }
    }

    pub fn get_mut<Q: AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<&mut Node> {
        let key = key.as_ref();
        match self.own() {
            Repr::Small(v) => find(v, key).ok().map(|i| &mut v[i].1),
            Repr::Large(m) => m.get_mut(key),
        }
    }

    pub fn contains_key<Q: AsRef<str> + ?Sized>(&self, key: &Q) -> bool {
        self.get(key).is_some()
    }

    /// Puts `value` under `key`; the value it replaces.
    pub fn insert(&mut self, key: Word, value: Node) -> Option<Node> {
        self.put_with(key, value, std::mem::replace)
    }

    /// Puts `value` under `key` when there is none; else `f` is given the object there and
    /// `value`.
    pub fn insert_or(&mut self, key: Word, value: Node, f: impl FnOnce(&mut Node, Node)) {
        self.put_with(key, value, f);
    }

    /// One search for `key`: `value` put there if it is free, else `f` of the object there
    /// and `value` (`Some` of what `f` gives).
    fn put_with<R>(
        &mut self,
        key: Word,
        value: Node,
        f: impl FnOnce(&mut Node, Node) -> R,
    ) -> Option<R> {
        let r = self.own();
        match r {
            Repr::Small(v) => match find(v, &key) {
                Ok(i) => return Some(f(&mut v[i].1, value)),
                Err(i) if v.len() < LARGE => v.insert(i, (key, value)),
                Err(_) => {
                    let mut m: BTreeMap<Word, Node> = std::mem::take(v).into_iter().collect();
                    m.insert(key, value);
                    *r = Repr::Large(m);
                }
            },
            Repr::Large(m) => match m.entry(key) {
                btree_map::Entry::Occupied(mut o) => return Some(f(o.get_mut(), value)),
                btree_map::Entry::Vacant(e) => {
                    e.insert(value);
                }
            },
        }
        None
    }

    /// The object under `key`, made by `make` (named `word(key)`) when there is none.
    pub fn get_or_insert_with(
        &mut self,
        key: &str,
        word: impl FnOnce(&str) -> Word,
        make: impl FnOnce() -> Node,
    ) -> &mut Node {
        let r = self.own();
        if let Repr::Small(v) = r
            && v.len() >= LARGE
            && find(v, key).is_err()
        {
            *r = Repr::Large(std::mem::take(v).into_iter().collect());
        }
        match r {
            Repr::Small(v) => {
                let i = match find(v, key) {
                    Ok(i) => i,
                    Err(i) => {
                        v.insert(i, (word(key), make()));
                        i
                    }
                };
                &mut v[i].1
            }
            Repr::Large(m) => {
                if !m.contains_key(key) {
                    m.insert(word(key), make());
                }
                m.get_mut(key).expect("put above")
            }
        }
    }

    /// Puts each of `items` under its name, in one pass: where a name is taken (or given
    /// twice), `f` is given the object there and the item, in the items' order. Faster than
    /// putting them one by one into a large map.
    pub fn merge_all(&mut self, mut items: Vec<(Word, Node)>, mut f: impl FnMut(&mut Node, Node)) {
        items.sort_by(|a, b| a.0.cmp(&b.0));
        if self.is_empty() && items.windows(2).all(|w| w[0].0 < w[1].0) {
            *self = Tree::sorted(items);
            return;
        }
        let mut out: Vec<(Word, Node)> = Vec::with_capacity(self.len() + items.len());
        let mut old = std::mem::take(self).into_iter().peekable();
        for (k, v) in items {
            while let Some(o) = old.next_if(|(o, _)| *o < k) {
                out.push(o);
            }
            match (out.last_mut(), old.next_if(|(o, _)| *o == k)) {
                (_, Some((o, mut at))) => {
                    f(&mut at, v);
                    out.push((o, at));
                }
                (Some((last, at)), None) if *last == k => f(at, v),
                _ => out.push((k, v)),
            }
        }
        out.extend(old);
        *self = Tree::sorted(out);
    }

    /// A map of `items`, which are sorted by name, no name twice (the caller's promise,
    /// checked in debug builds).
    pub fn from_sorted(items: Vec<(Word, Node)>) -> Tree {
        debug_assert!(items.windows(2).all(|w| w[0].0 < w[1].0), "not sorted");
        Tree::sorted(items)
    }

    /// A map of objects sorted by name, no name twice.
    fn sorted(items: Vec<(Word, Node)>) -> Tree {
        match items.len() > LARGE {
            true => Tree::of(Repr::Large(items.into_iter().collect())),
            false => Tree::of(Repr::Small(items)),
        }
    }

    pub fn remove<Q: AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<Node> {
        let key = key.as_ref();
        match self.own() {
            Repr::Small(v) => find(v, key).ok().map(|i| v.remove(i).1),
            Repr::Large(m) => m.remove(key),
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        match self.repr() {
            Repr::Small(v) => Iter::Small(v.iter()),
            Repr::Large(m) => Iter::Large(m.iter()),
        }
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Word> {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Node> {
        self.iter().map(|(_, v)| v)
    }
}

/// A map's objects in order, by reference.
pub enum Iter<'t> {
    Small(std::slice::Iter<'t, (Word, Node)>),
    Large(btree_map::Iter<'t, Word, Node>),
}

impl<'t> Iterator for Iter<'t> {
    type Item = (&'t Word, &'t Node);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(i) => i.next().map(|(k, v)| (k, v)),
            Iter::Large(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::Small(i) => i.size_hint(),
            Iter::Large(i) => i.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(i) => i.next_back().map(|(k, v)| (k, v)),
            Iter::Large(i) => i.next_back(),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}

/// A map's objects in order.
pub enum IntoIter {
    Small(std::vec::IntoIter<(Word, Node)>),
    Large(btree_map::IntoIter<Word, Node>),
}

impl Iterator for IntoIter {
    type Item = (Word, Node);

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            IntoIter::Small(i) => i.next(),
            IntoIter::Large(i) => i.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            IntoIter::Small(i) => i.size_hint(),
            IntoIter::Large(i) => i.size_hint(),
        }
    }
}

impl IntoIterator for Tree {
    type Item = (Word, Node);
    type IntoIter = IntoIter;

    fn into_iter(self) -> IntoIter {
        match self.into_repr() {
            Repr::Small(v) => IntoIter::Small(v.into_iter()),
            Repr::Large(m) => IntoIter::Large(m.into_iter()),
        }
    }
}

impl<'t> IntoIterator for &'t Tree {
    type Item = (&'t Word, &'t Node);
    type IntoIter = Iter<'t>;

    fn into_iter(self) -> Iter<'t> {
        self.iter()
    }
}

impl FromIterator<(Word, Node)> for Tree {
    /// As a map's `collect`: a name given twice keeps its last object.
    fn from_iter<I: IntoIterator<Item = (Word, Node)>>(iter: I) -> Tree {
        let mut t = Tree::new();
        for (k, v) in iter {
            t.insert(k, v);
        }
        t
    }
}

impl<const N: usize> From<[(Word, Node); N]> for Tree {
    fn from(items: [(Word, Node); N]) -> Tree {
        items.into_iter().collect()
    }
}

impl PartialEq for Tree {
    fn eq(&self, other: &Tree) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Tree {}

impl fmt::Debug for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl serde::Serialize for Tree {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order, lookups and removals of a `BTreeMap`, small and large, in any order of
    /// insertion.
    #[test]
    fn as_a_btreemap() {
        let names: Vec<String> = (0..100)
            .map(|i| format!("swp{}", (i * 37) % 100))
            .chain(["", "a", "Z", "swp", "é", "swp1s0"].map(String::from))
            .collect();
        for n in [1, 3, LARGE - 1, LARGE, LARGE + 1, names.len()] {
            let mut t = Tree::new();
            let mut m = BTreeMap::new();
            for (i, k) in names.iter().take(n).enumerate() {
                let v = Node::Leaf(i.to_string().into());
                assert_eq!(
                    t.insert(k.clone().into(), v.clone()),
                    m.insert(Word::from(k.clone()), v)
                );
            }
            let again = Node::Map(Tree::new());
            assert_eq!(
                t.insert(names[0].clone().into(), again.clone()),
                m.insert(names[0].clone().into(), again)
            );
            assert!(t.iter().eq(m.iter()), "{n}");
            assert!(t.iter().rev().eq(m.iter().rev()), "{n}");
            for k in &names {
                assert_eq!(t.get(k), m.get(k.as_str()));
            }
            assert_eq!(t.remove("swp3"), m.remove("swp3"));
            assert_eq!(t.remove("none"), None);
            assert!(t.clone().into_iter().eq(m.clone()));
            assert_eq!(t.len(), m.len());
            let collected: Tree = m.clone().into_iter().collect();
            assert_eq!(collected, t);
            // Merged all at once as one by one: names given twice, some already there.
            let items: Vec<(Word, Node)> = names
                .iter()
                .rev()
                .take(n)
                .chain(&names[..n / 2])
                .enumerate()
                .map(|(i, k)| (k.clone().into(), Node::Leaf(i.to_string().into())))
                .collect();
            let (mut all, mut each) = (t.clone(), t.clone());
            let join = |at: &mut Node, new: Node| {
                if let (Node::Leaf(a), Node::Leaf(b)) = (at, new) {
                    *a = format!("{a}+{b}").into();
                }
            };
            all.merge_all(items.clone(), join);
            for (k, v) in items {
                each.insert_or(k, v, join);
            }
            assert!(all.iter().eq(each.iter()), "{n}");
        }
    }

    /// A shared map reads as the map it was; a change to one copy is that copy's alone,
    /// however it is made.
    #[test]
    fn shared_copies_on_write() {
        let leaf = |s: &'static str| Node::Leaf(s.into());
        let inner = Tree::from([("state".into(), leaf("up"))]);
        let plain = Tree::from([("a".into(), leaf("1")), ("link".into(), Node::Map(inner))]);
        let shared = plain.clone().shared();
        assert_eq!(shared, plain);
        assert!(shared.iter().eq(plain.iter()));
        let changes: [fn(&mut Tree); 5] = [
            |t| {
                t.insert("b".into(), Node::Leaf("2".into()));
            },
            |t| {
                t.remove("a");
            },
            |t| {
                if let Some(Node::Map(l)) = t.get_mut("link") {
                    l.insert("mtu".into(), Node::Leaf("9216".into()));
                }
            },
            |t| {
                t.get_or_insert_with("c", crate::cumulus::tree::word, || Node::Leaf("3".into()));
            },
            |t| t.merge_all(vec![("a".into(), Node::Leaf("9".into()))], |o, n| *o = n),
        ];
        for change in changes {
            let (mut one, other) = (shared.clone(), shared.clone());
            change(&mut one);
            assert_ne!(one, other);
            assert_eq!(other, plain);
            assert_eq!(shared, plain);
            let mut alone = plain.clone().shared();
            change(&mut alone);
            assert_eq!(alone, one);
        }
        assert!(shared.clone().into_iter().eq(plain.into_iter()));
    }
}
