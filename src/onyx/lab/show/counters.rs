//! A priority's and a traffic class's counters: `show interfaces ethernet [X] counters pfc
//! prio N` and `… counters tc N`, a block per port as `show interfaces ethernet counters`
//! prints them (`Eth1/1:`, then `Rx:` and `Tx:`, each counter's value before its name), with
//! what each port has counted ([`crate::lab::counters`]). Which counters each block holds is
//! UNCONFIRMED ([`Unconfirmed::PfcCounters`], [`Unconfirmed::TcCounters`]); the JSON is the
//! counters' shape of `show interfaces ethernet counters` (UNCONFIRMED too).

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use super::interfaces::{eth, views, which};
use super::{Cx, Shown};
use crate::lab::counters::PortCounters;
use crate::onyx::lab::cli::Errors as _;
use crate::onyx::lab::cli::{Reply, Unconfirmed};

/// `counters pfc prio N` or `counters tc N` (the words after `counters`) of the ports `id`
/// names (all without).
pub fn of(cx: &Cx<'_>, id: Option<&str>, words: &[&str]) -> Result<Shown, Reply> {
    let (pfc, n) = match words {
        ["pfc", "prio", n] => (true, n),
        ["tc", n] => (false, n),
        ["pfc", "prio"] | ["tc"] | ["pfc"] => {
            let last = words.last().copied().unwrap_or("counters");
            return Err(Unconfirmed::FilterIncomplete.reply(last));
        }
        [other, ..] => return Err(Reply::unrecognized(other)),
        [] => return Err(Unconfirmed::FilterIncomplete.reply("counters")),
    };
    let Some(k) = n.parse::<u8>().ok().filter(|k| *k < 8) else {
        return Err(Reply::unrecognized(n));
    };
    let want = which(cx.sw, id)?;
    let mut text = String::new();
    let mut json = Vec::new();
    for v in views(cx, &want) {
        let name = eth(v.port);
        let _ = writeln!(text, "{name}:");
        let mut obj = Map::new();
        obj.insert("header".into(), json!(name));
        let blocks: &[(&str, bool)] = match pfc {
            true => &[("Rx", true), ("Tx", false)],
            false => &[("Tx", false)],
        };
        for (dir, rx) in blocks {
            let _ = writeln!(text, "  {dir}:");
            let mut counters = Map::new();
            let table = match pfc {
                true => Unconfirmed::PfcCounters,
                false => Unconfirmed::TcCounters,
            };
            for label in table.text().split(',') {
                let value = counted(&v.counters, *rx, usize::from(k), label);
                let _ = writeln!(text, "    {value:<22}{label}");
                counters.insert(label.to_string(), json!(value.to_string()));
            }
            obj.insert((*dir).to_string(), Value::Object(counters));
        }
        text.push('\n');
        json.push(Value::Object(obj));
    }
    Ok(Shown {
        text,
        json: Some(Value::Array(json)),
    })
}

/// A priority's or class's counter `label` (an Rx one when `rx`): its share of the port's
/// packets (an eighth each), the pause frames of the priority and their duration (a pause
/// of the lab's is 100 µs), the class's buffer drops.
fn counted(c: &PortCounters, rx: bool, k: usize, label: &str) -> u64 {
    let packets = if rx { c.rx_packets } else { c.tx_packets } / 8;
    let pauses = if rx { c.pause_rx[k] } else { c.pause_tx[k] };
    match label {
        "packets" => packets,
        "bytes" => packets * 1024,
        "pause packets" => pauses,
        "pause duration" => pauses * 100,
        "no buffer discard" => c.drops[k],
        _ => 0,
    }
}
