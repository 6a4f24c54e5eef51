//! The lab's counters: every port of a lab switch counts as a port of a RoCE fabric under a
//! steady training load would, and faults (`counters:` in a switch's `faults.yaml`) make it
//! count what operators meet: a pause storm, drops on a class, pauses without ECN marks, FCS
//! errors, a flapping link.
//!
//! Each counter grows at a rate derived from the network as it is ([`rates`]: the port up,
//! the priorities it pauses, the classes it marks, the faults in force) and keeps what it
//! counted when a rate changes ([`Counting`]: per lab process, from the network's start),
//! so counters only grow and a fault cleared stops counting without undoing its count. Each
//! OS's `show` commands print them in its own shape; what a port counts is the same whatever
//! the OS. The rates are the lab's choices, in [`RATES`].

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Instant;

use serde::Deserialize;

use super::network::Net;
use crate::types::Port;

/// The counter faults of a switch (`faults.yaml`'s `counters:`), each naming ports as the
/// lab's faults do (`1/25`) or as the switch's OS names them (`ethernet1/1/25`, `swp25`).
///
/// ```yaml
/// counters:
///   pause_storm: ["1/1"]          # the device on that port pauses the lossless priorities without end
///   drops: { "1/25": { tc: 3 } }  # the port drops traffic of TC 3
///   no_ecn: ["1/26"]              # the port pauses but never marks
///   crc: ["1/27"]                 # frames arrive with a bad FCS
///   flap: ["1/28"]                # the link goes down and up again, over and over
/// ```
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CounterFaults {
    #[serde(default)]
    pub pause_storm: Vec<String>,
    #[serde(default)]
    pub drops: BTreeMap<String, DropFault>,
    #[serde(default)]
    pub no_ecn: Vec<String>,
    #[serde(default)]
    pub crc: Vec<String>,
    #[serde(default)]
    pub flap: Vec<String>,
}

impl CounterFaults {
    pub fn is_empty(&self) -> bool {
        self.pause_storm.is_empty()
            && self.drops.is_empty()
            && self.no_ecn.is_empty()
            && self.crc.is_empty()
            && self.flap.is_empty()
    }
}

/// A port dropping the traffic of one traffic class.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct DropFault {
    pub tc: u8,
}

/// Per second, what a lab port counts: the lab's choices (no capture measures a load), one
/// table. A port up under the steady load of a training job sends and receives
/// `PACKETS`; on each priority it pauses (PFC on, globally and on the port), it receives and
/// sends a few pauses (`PAUSES`: brief congestion at an all-reduce's incast), and if it marks
/// ECN on that priority's traffic class it marks `MARKED`.
pub struct Rates {
    pub packets: f64,
    pub pauses: f64,
    pub marked: f64,
    /// A pause storm: pause frames received on each lossless priority. At 100G, a pause of
    /// the largest quanta (65,535 × 512 bit times, 0.34 ms) refreshed before it ends is
    /// about 3,000 frames a second.
    pub storm: f64,
    /// What the PFC watchdog of a port in a storm counts (its detections).
    pub watchdog: f64,
    /// A class dropping.
    pub drops: f64,
    pub crc: f64,
    /// Link state changes of a flapping port (down and up again each second).
    pub flaps: f64,
}

pub const RATES: Rates = Rates {
    packets: 100_000.0,
    pauses: 5.0,
    marked: 200.0,
    storm: 3_000.0,
    watchdog: 1.0,
    drops: 50.0,
    crc: 10.0,
    flaps: 2.0,
};

/// What a port has counted, whole (each OS prints these).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PortCounters {
    pub rx_packets: u64,
    pub tx_packets: u64,
    pub pause_rx: [u64; 8],
    pub pause_tx: [u64; 8],
    /// Packets marked ECN, per traffic class (sent).
    pub marked: [u64; 8],
    /// Packets dropped, per traffic class.
    pub drops: [u64; 8],
    pub fcs_errors: u64,
    /// Operational state changes.
    pub link_changes: u64,
    /// PFC watchdog storm detections, per priority.
    pub watchdog: [u64; 8],
}

impl PortCounters {
    /// Every ECN-marked packet of the port.
    pub fn marked_total(&self) -> u64 {
        self.marked.iter().sum()
    }
}

/// A port's counters as fractions: its rates (per second), or what it has counted so far, in
/// the shape of [`PortCounters`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tally {
    rx_packets: f64,
    tx_packets: f64,
    pause_rx: [f64; 8],
    pause_tx: [f64; 8],
    marked: [f64; 8],
    drops: [f64; 8],
    fcs_errors: f64,
    link_changes: f64,
    watchdog: [f64; 8],
}

impl Tally {
    /// Adds what `rates` count in `dt` seconds.
    fn add(&mut self, rates: &Tally, dt: f64) {
        let add8 = |acc: &mut [f64; 8], rate: &[f64; 8]| {
            for (a, r) in acc.iter_mut().zip(rate) {
                *a += r * dt;
            }
        };
        self.rx_packets += rates.rx_packets * dt;
        self.tx_packets += rates.tx_packets * dt;
        add8(&mut self.pause_rx, &rates.pause_rx);
        add8(&mut self.pause_tx, &rates.pause_tx);
        add8(&mut self.marked, &rates.marked);
        add8(&mut self.drops, &rates.drops);
        add8(&mut self.watchdog, &rates.watchdog);
        self.fcs_errors += rates.fcs_errors * dt;
        self.link_changes += rates.link_changes * dt;
    }

    /// What has been counted whole.
    fn whole(&self) -> PortCounters {
        let w = |v: f64| v as u64;
        let w8 = |a: &[f64; 8]| a.map(w);
        PortCounters {
            rx_packets: w(self.rx_packets),
            tx_packets: w(self.tx_packets),
            pause_rx: w8(&self.pause_rx),
            pause_tx: w8(&self.pause_tx),
            marked: w8(&self.marked),
            drops: w8(&self.drops),
            fcs_errors: w(self.fcs_errors),
            link_changes: w(self.link_changes),
            watchdog: w8(&self.watchdog),
        }
    }
}

/// What a port has counted so far, and since when at what rates.
#[derive(Clone, Copy, Debug)]
struct Acc {
    at: Instant,
    rates: Tally,
    counted: Tally,
}

/// The counters of a lab process's switches: each port's counts and rates, from the
/// network's start.
pub struct Counting {
    start: Instant,
    /// By switch, then port.
    ports: Mutex<BTreeMap<String, BTreeMap<Port, Acc>>>,
}

impl Default for Counting {
    fn default() -> Counting {
        Counting {
            start: Instant::now(),
            ports: Mutex::new(BTreeMap::new()),
        }
    }
}

impl Counting {
    /// What each of `ports` of the switch `me` has counted now: each advanced at the rates
    /// it had since it was last read, then given the rates the network gives it now (a port
    /// read for the first time has counted at these since the network started).
    pub fn read(&self, net: &Net<'_>, os: crate::fabric::Os, ports: &[Port]) -> Vec<PortCounters> {
        let now = Instant::now();
        let faults = net.cabling.counter_faults(net.me);
        let mut all = self.ports.lock().unwrap_or_else(|e| e.into_inner());
        if !all.contains_key(net.me) {
            all.insert(net.me.to_string(), BTreeMap::new());
        }
        let Some(mine) = all.get_mut(net.me) else {
            return Vec::new();
        };
        ports
            .iter()
            .map(|p| {
                let rates = rates(net, os, *p, faults);
                let acc = mine.entry(*p).or_insert(Acc {
                    at: self.start,
                    rates,
                    counted: Tally::default(),
                });
                let dt = now.saturating_duration_since(acc.at).as_secs_f64();
                acc.counted.add(&acc.rates, dt);
                *acc = Acc {
                    at: now,
                    rates,
                    counted: acc.counted,
                };
                acc.counted.whole()
            })
            .collect()
    }
}

/// Whether the fault list names port `p` of an `os` switch: as the lab's faults do (`1/25`)
/// or as the OS names it, with its word or without (`ethernet1/1/25` or `1/1/25`, `swp25`,
/// `Eth1/25`).
fn names(list: &[String], os: crate::fabric::Os, p: Port) -> bool {
    let word = |t: &str| {
        t.trim_start_matches(|c: char| c.is_ascii_alphabetic())
            .to_string()
    };
    let (lab, own) = (p.to_string(), os.port_name(p));
    let bare = word(&own);
    list.iter().any(|n| {
        let n = n.trim();
        n == lab || n == own || word(n) == bare || word(n) == lab
    })
}

/// What port `p` of the switch `net.me` counts per second now: nothing when it is down
/// (a flapping port aside); the load, its pauses and marks on the priorities it pauses; and
/// what the faults add.
fn rates(net: &Net<'_>, os: crate::fabric::Os, p: Port, faults: Option<&CounterFaults>) -> Tally {
    let mut r = Tally::default();
    let on = |list: &[String]| names(list, os, p);
    // A flapping link flaps at both its ends.
    let far_flaps = net.cabling.far(net.me, p).is_some_and(|(f, q)| {
        let far = (net.cabling.counter_faults(f), net.os(f));
        matches!(far, (Some(cf), Some(fos)) if names(&cf.flap, fos, q))
    });
    if on(faults.map_or(&[][..], |f| &f.flap)) || far_flaps {
        r.link_changes = RATES.flaps;
    }
    if !net.port_up(net.me, p) {
        return r;
    }
    r.rx_packets = RATES.packets;
    r.tx_packets = RATES.packets;
    let Some(config) = net.config(net.me) else {
        return r;
    };
    let iface = config.interfaces.get(&crate::types::Iface::Ethernet(p));
    let pfc_port = iface.is_some_and(|i| i.pfc);
    let storm = on(faults.map_or(&[][..], |f| &f.pause_storm));
    let no_ecn = on(faults.map_or(&[][..], |f| &f.no_ecn));
    if config.pfc.enabled && pfc_port {
        for prio in &config.pfc.priorities {
            let k = usize::from(prio.get() & 7);
            r.pause_rx[k] = RATES.pauses;
            r.pause_tx[k] = RATES.pauses;
            // The priority's traffic class is its own number (the fabric maps them so).
            let tc = crate::types::TrafficClass::ALL[k];
            let marks = iface.is_some_and(|i| i.ecn.get(&tc).is_some());
            if marks && !no_ecn {
                r.marked[k] = RATES.marked;
            }
            if storm {
                r.pause_rx[k] = RATES.storm;
                r.watchdog[k] = RATES.watchdog;
            }
        }
    }
    if let Some(f) = faults {
        for (name, d) in &f.drops {
            if names(std::slice::from_ref(name), os, p) {
                r.drops[usize::from(d.tc & 7)] = RATES.drops;
            }
        }
    }
    if on(faults.map_or(&[][..], |f| &f.crc)) {
        r.fcs_errors = RATES.crc;
    }
    r
}
