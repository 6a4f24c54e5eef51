//! The lab's OS10 switch's counters, from what each port has counted
//! ([`crate::lab::counters`]): `show interface` in the arc-switch capture's layout (OS10.5;
//! each front-panel port's block, the media lines left out), `show queuing statistics
//! interface ethernet X` in the netdev capture's (columns of 25, trailing blanks kept), and
//! the rows of `show interface NAME priority-flow-control`'s per-priority table
//! ([`Unconfirmed::PfcCounters`], no capture).
//!
//! A port's packets are split as the lab's choices say: all of them unicast, of more than
//! 1023 bytes (1,024 octets each); none of its other size buckets or errors count.

use std::fmt::Write as _;

use super::net::port_of;
use super::state::{in_world, ports};
use super::{Os10Switch, Unconfirmed};
use crate::lab::counters::PortCounters;
use crate::lab::network::World;
use crate::os10::{Eth, Iface};
use crate::types::Port;

/// What each of `ports` has counted now, over the network around the switch.
fn counted(sw: &Os10Switch, world: Option<&World>, ports: &[Port]) -> Vec<PortCounters> {
    in_world(sw, world, |w| {
        w.network.counters(&w.net(), crate::os10::target::OS, ports)
    })
}

/// `show interface`: each front-panel port's block.
pub fn show_interface(sw: &Os10Switch, world: Option<&World>) -> String {
    let all = ports(sw);
    let ps: Vec<Port> = all.iter().map(|(e, _)| port_of(*e)).collect();
    let counted = counted(sw, world, &ps);
    in_world(sw, world, |w| {
        let net = w.net();
        let mac = crate::lab::network::base_mac(&w.me);
        let mut out = String::new();
        for (n, ((eth, speed), c)) in all.iter().zip(counted).enumerate() {
            let p = port_of(*eth);
            let up = net.port_up(net.me, p);
            let (since, _) = w.network.since(&format!("{} port {p}", net.me), up);
            let i = sw.running.interfaces.get(&Iface::Ethernet(*eth));
            block(&mut out, (*eth, *speed, n), i, up, &mac.to_string(), &c);
            let s = since.as_secs();
            let _ = writeln!(
                out,
                "Time since last interface status change: {:02}:{:02}:{:02}\n",
                s / 3600,
                s / 60 % 60,
                s % 60
            );
        }
        out
    })
}

/// One port's block, up to its last line.
fn block(
    out: &mut String,
    (eth, speed, index): (Eth, u16, usize),
    i: Option<&crate::os10::Interface>,
    up: bool,
    mac: &str,
    c: &PortCounters,
) {
    let state = if up { "up" } else { "down" };
    let _ = writeln!(out, "Ethernet {eth} is {state}, line protocol is {state}");
    if let Some(d) = i.and_then(|i| i.description.as_deref()) {
        let _ = writeln!(out, "Description: {d}");
    }
    let mtu = i.and_then(|i| i.mtu).unwrap_or(1532);
    let address = i
        .and_then(|i| i.address)
        .map_or_else(|| "not set".to_string(), |a| a.to_string());
    let line_speed = if up { format!("{speed}G") } else { "0".into() };
    let _ = write!(
        out,
        "Hardware is Eth, address is {mac}\n\
         \x20   Current address is {mac}\n\
         Interface index is {}\n\
         Internet address is {address}\n\
         Mode of IPv4 Address Assignment: not set\n\
         \x20   Interface IPv6 oper status: Disabled\n\
         IP Unreachables status: Disabled\n\
         MTU {mtu} bytes, IP MTU {} bytes\n\
         LineSpeed {line_speed}, Auto-Negotiation off, Link-Training off\n\
         Configured FEC is off, Negotiated FEC is off\n\
         Flowcontrol rx off tx off\n\
         ARP type: ARPA, ARP Timeout: 60\n\
         Tag Protocol IDentifier (TPID) value: 0x8100\n\
         Last clearing of \"show interface\" counters: 00:00:00\n\
         Queuing strategy: fifo\n",
        16 + index,
        mtu.saturating_sub(32),
    );
    let stats = |out: &mut String, packets: u64| {
        let _ = write!(
            out,
            "     {packets} packets, {} octets\n\
             \x20    0 64-byte pkts, 0 over 64-byte pkts, 0 over 127-byte pkts\n\
             \x20    0 over 255-byte pkts, 0 over 511-byte pkts, {packets} over 1023-byte pkts\n\
             \x20    0 Multicasts, 0 Broadcasts, {packets} Unicasts\n",
            packets * 1024
        );
    };
    out.push_str("Input statistics:\n");
    stats(out, c.rx_packets);
    let _ = write!(
        out,
        "     0 runts, 0 giants, 0 throttles\n\
         \x20    {} CRC, 0 overrun, 0 discarded\n\
         Output statistics:\n",
        c.fcs_errors
    );
    stats(out, c.tx_packets);
    let _ = write!(
        out,
        "     0 throttles, 0 discarded, 0 Collisions,  wred drops\n\
         Rate Info(interval 30 seconds):\n\
         \x20    Input 0 Mbits/sec, 0 packets/sec, 0% of line rate\n\
         \x20    Output 0 Mbits/sec, 0 packets/sec, 0% of line rate\n"
    );
}

/// `show queuing statistics interface ethernet X` of a front-panel port `eth`: each queue's
/// packets (an eighth of the port's each), bytes and drops; `None` for a port the model
/// lacks.
pub fn queuing(sw: &Os10Switch, world: Option<&World>, eth: Eth) -> Option<String> {
    ports(sw).iter().find(|(e, _)| *e == eth)?;
    let c = counted(sw, world, &[port_of(eth)])
        .pop()
        .unwrap_or_default();
    let mut out = format!(
        "Interface ethernet{eth}\n{:<6}{:<25}{:<25}{:<25}{:<25}\n",
        "Queue", "Packets", "Bytes", "Dropped-Packets", "Dropped-Bytes"
    );
    for (q, drops) in c.drops.iter().enumerate() {
        let packets = c.tx_packets / 8;
        let _ = writeln!(
            out,
            "{q:<6}{packets:<25}{:<25}{drops:<25}{:<25}",
            packets * 1024,
            drops * 1024
        );
    }
    Some(out)
}

/// The totals and per-priority rows of `show interface ethernetX priority-flow-control`
/// ([`Unconfirmed::PfcCounters`]): what port `p` has counted (a port-channel, `None`: its
/// members count, the lab prints 0).
pub fn pfc_rows(sw: &Os10Switch, world: Option<&World>, p: Option<Port>) -> String {
    let c = match p {
        Some(p) => counted(sw, world, &[p]).pop().unwrap_or_default(),
        None => PortCounters::default(),
    };
    let (rx, tx): (u64, u64) = (c.pause_rx.iter().sum(), c.pause_tx.iter().sum());
    let mut out = Unconfirmed::PfcCounters
        .text()
        .replacen("{rx}", &rx.to_string(), 1)
        .replacen("{tx}", &tx.to_string(), 1);
    out.push('\n');
    for prio in 0..8 {
        let _ = writeln!(
            out,
            "{prio:<12}{:<20}{}",
            c.pause_rx[prio], c.pause_tx[prio]
        );
    }
    out
}
