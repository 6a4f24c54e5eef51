//! JSON as Onyx's `| json-print` builds it: every value a string, a table row keyed by its
//! first column with the other columns in a one-element list (`"Eth1/1": [{"PFC admin":
//! "on", …}]`), and every object's keys in the order of a CPython 2.7 (64-bit) dictionary
//! that got them in the order the text prints them. That order reproduces the key order of
//! the `json-print` captures in `tests/fixtures/corpus/onyx/show/` (`show version`, `show
//! mlag`, `show traffic pool roce`, `show qos interface`, `show dcb ets interface`, the
//! congestion-control, port-channel and MLAG-VIP ones: `"1", "0", "3", "2", …` for traffic
//! classes), and of 16 interfaces in a published JSON-API reply of `show dcb
//! priority-flow-control` (3.8.2306); only the four-interface PFC fixture, arranged by its
//! test's author, differs. Where a capture needs another insertion order (a table's rows
//! before its legend), the builder says so at its call.

use serde_json::{Map, Value};

/// An object under construction: keys in insertion order, ordered as Onyx prints them by
/// [`Obj::build`].
#[derive(Clone, Debug, Default)]
pub struct Obj(Vec<(String, Value)>);

impl Obj {
    pub fn new() -> Obj {
        Obj::default()
    }

    /// A key with a string value (Onyx prints numbers as strings too).
    pub fn s(self, key: &str, value: impl ToString) -> Obj {
        self.v(key, Value::String(value.to_string()))
    }

    /// A key with any value; a key given twice keeps its first place and its last value, as
    /// a dictionary does.
    pub fn v(mut self, key: &str, value: Value) -> Obj {
        self.push(key, value);
        self
    }

    pub fn push(&mut self, key: &str, value: Value) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key.to_string(), value)),
        }
    }

    /// A table row: `key: [columns]`.
    pub fn row(self, key: &str, columns: Obj) -> Obj {
        self.v(key, Value::Array(vec![columns.build()]))
    }

    pub fn build(self) -> Value {
        let keys: Vec<&str> = self.0.iter().map(|(k, _)| k.as_str()).collect();
        let order = py2_order(&keys);
        let mut slots: Vec<Option<(String, Value)>> = self.0.into_iter().map(Some).collect();
        let mut map = Map::new();
        for i in order {
            if let Some((k, v)) = slots.get_mut(i).and_then(Option::take) {
                map.insert(k, v);
            }
        }
        Value::Object(map)
    }
}

/// A block of `key: value` lines (indented by two spaces, as Onyx prints a block's fields)
/// appended to `text`, and the same fields added to `obj` in that order.
pub fn key_values<K: AsRef<str>, V: std::fmt::Display>(
    text: &mut String,
    mut obj: Obj,
    pairs: impl IntoIterator<Item = (K, V)>,
) -> Obj {
    for (k, v) in pairs {
        let (k, v) = (k.as_ref(), v.to_string());
        text.push_str(&format!("  {k}: {v}\n"));
        obj = obj.s(k, v);
    }
    obj
}

/// CPython 2.7's string hash (`string_hash`, hash randomization off, 64-bit `long`).
fn py2_hash(s: &[u8]) -> u64 {
    let Some(&first) = s.first() else {
        return 0;
    };
    let mut x = i64::from(first) << 7;
    for &c in s {
        x = x.wrapping_mul(1_000_003) ^ i64::from(c);
    }
    x ^= s.len() as i64;
    if x == -1 {
        x = -2;
    }
    x as u64
}

/// Where CPython 2.7 puts a key in a table of `table.len()` slots (a power of two):
/// `lookdict_string`'s probe sequence, `i = 5i + 1 + perturb`, `perturb >>= 5`.
fn place(table: &mut [Option<usize>], hash: u64, key: usize) {
    let mask = table.len() as u64 - 1;
    let (mut i, mut perturb) = (hash, hash);
    loop {
        // In range: the index is masked to the table's length.
        let j = (i & mask) as usize;
        match table.get_mut(j) {
            Some(slot @ None) => {
                *slot = Some(key);
                return;
            }
            Some(Some(_)) => {
                i = (i << 2)
                    .wrapping_add(i)
                    .wrapping_add(perturb)
                    .wrapping_add(1);
                perturb >>= 5;
            }
            None => return,
        }
    }
}

/// The order a CPython 2.7 dictionary iterates keys inserted in the order given (distinct
/// keys): 8 slots to start, resized to the smallest power of two above four times the keys
/// held once two thirds are filled (`PyDict_SetItem`, `dictresize`), the old slots re-placed
/// in table order.
pub fn py2_order(keys: &[&str]) -> Vec<usize> {
    let hashes: Vec<u64> = keys.iter().map(|k| py2_hash(k.as_bytes())).collect();
    let mut table: Vec<Option<usize>> = vec![None; 8];
    for (n, h) in hashes.iter().enumerate() {
        place(&mut table, *h, n);
        let used = n + 1;
        if used * 3 >= table.len() * 2 {
            let mut size = 8;
            while size <= used * 4 {
                size <<= 1;
            }
            let old: Vec<usize> = table.iter().flatten().copied().collect();
            table = vec![None; size];
            for k in old {
                place(&mut table, hashes[k], k);
            }
        }
    }
    table.into_iter().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ordered(keys: &[&str]) -> Vec<String> {
        py2_order(keys)
            .into_iter()
            .map(|i| keys[i].to_string())
            .collect()
    }

    /// The orders CPython 2.7.18 gives (checked with it), which are the captures' orders.
    #[test]
    fn keys_come_out_as_a_python_2_dictionary_orders_them() {
        let tcs: Vec<String> = (0..8).map(|n| n.to_string()).collect();
        let tcs: Vec<&str> = tcs.iter().map(String::as_str).collect();
        assert_eq!(ordered(&tcs), ["1", "0", "3", "2", "5", "4", "7", "6"]);
        // `show version` keys inserted in the order the text prints them, as the 3.6.5000
        // capture lists them (two resizes on the way).
        let version = [
            "Product name",
            "Product release",
            "Build ID",
            "Build date",
            "Target arch",
            "Target hw",
            "Built by",
            "Version summary",
            "Product model",
            "Host ID",
            "System serial num",
            "System UUID",
            "Uptime",
            "CPU load averages",
            "Number of CPUs",
            "System memory",
            "Swap",
        ];
        assert_eq!(
            ordered(&version),
            [
                "Uptime",
                "Product model",
                "Build date",
                "Target arch",
                "Target hw",
                "Number of CPUs",
                "Build ID",
                "CPU load averages",
                "Host ID",
                "System serial num",
                "System UUID",
                "Swap",
                "Product name",
                "Built by",
                "System memory",
                "Version summary",
                "Product release",
            ]
        );
        let ports: Vec<String> = (1..=16).map(|n| format!("Eth1/{n}")).collect();
        let ports: Vec<&str> = ports.iter().map(String::as_str).collect();
        assert_eq!(
            ordered(&ports),
            [
                "Eth1/11", "Eth1/10", "Eth1/13", "Eth1/12", "Eth1/15", "Eth1/14", "Eth1/16",
                "Eth1/5", "Eth1/4", "Eth1/7", "Eth1/6", "Eth1/1", "Eth1/3", "Eth1/2", "Eth1/9",
                "Eth1/8"
            ]
        );
        // Colliding keys: the first inserted keeps its slot.
        assert_eq!(ordered(&["1 Po22(D)", "Flags"]), ["Flags", "1 Po22(D)"]);
        assert_eq!(ordered(&["Flags", "1 Po22(D)"]), ["1 Po22(D)", "Flags"]);
    }

    #[test]
    fn a_key_given_twice_keeps_its_place_and_its_last_value() {
        let v = Obj::new().s("a", 1).s("b", 2).s("a", 3).build();
        assert_eq!(v, serde_json::json!({"a": "3", "b": "2"}));
    }
}
