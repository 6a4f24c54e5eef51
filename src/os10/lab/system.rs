//! The lab OS10 switch as a machine: its clock, its node (MAC, unit, firmware, power supplies,
//! fans) and memory, as `show system`, `show processes node-id 1` and the `show version`,
//! `show system` and `show inventory` XML documents ([`super::xml`]) state them.
//!
//! Captured: the node's fields and their values on an S6010-ON (dellemc.os10's `show system |
//! display-xml` fixture, 10.4.0E(R1)), `uptime` in seconds and the `date-time` and
//! `boot-datetime` stamps (its `show version | display-xml`), `show processes node-id 1`'s
//! `top` header (napalm-dellos10's fixture). The lab's node is its model's, its MAC the one
//! its neighbors see ([`crate::lab::network::base_mac`]); the figures no capture of the lab's
//! model gives (MAC count, hardware revision, platform name, firmware, power supplies, fans,
//! memory) are the captured S6010-ON's, in the [`Unconfirmed`] table, as is `show system`'s
//! text layout.

use std::fmt::Write as _;
use std::time::{Duration, SystemTime};

use super::{Os10Switch, Unconfirmed};
use crate::os10::models::Model;
use crate::types::Mac;

/// The switch's clock: how long it has been up, now, and when it booted.
pub struct Clock {
    pub up: Duration,
    pub now: SystemTime,
}

impl Clock {
    pub fn of(sw: &Os10Switch) -> Clock {
        Clock {
            up: sw.booted.elapsed(),
            now: SystemTime::now(),
        }
    }

    /// `2018-01-12T13:57:08.58+00:00`, as `date-time` is captured (hundredths of a second).
    pub fn now_stamp(&self) -> String {
        let cs = self
            .now
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_millis() / 10);
        format!("{}.{cs:02}+00:00", stamp(self.now))
    }

    /// `2018-01-10T16:45:30+00:00`, as `boot-datetime` is captured.
    pub fn boot_stamp(&self) -> String {
        let boot = self.now.checked_sub(self.up).unwrap_or(self.now);
        format!("{}+00:00", stamp(boot))
    }
}

fn stamp(t: SystemTime) -> String {
    let (y, mo, d, h, mi, s) = crate::types::utc_at(t);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}")
}

/// The node's MAC: the one the switch's LLDP neighbors learn as its chassis ID.
pub fn node_mac(sw: &Os10Switch) -> Mac {
    crate::lab::network::base_mac(sw.hostname())
}

/// A MAC as OS10 prints it in XML and in `show system`: lower case (captured).
pub fn mac_text(mac: Mac) -> String {
    mac.to_string().to_lowercase()
}

/// The unit's model, the product name without `-ON` (`S6010`, captured).
pub fn unit_model(model: &Model) -> &'static str {
    model.name.strip_suffix("-ON").unwrap_or(model.name)
}

/// The unit's ports by speed, `32x40GbE` as captured; several speeds joined by `, `
/// ([`Unconfirmed::PortInfo`]).
pub fn port_info(model: &Model) -> String {
    let mut by_speed: Vec<(u16, u16)> = Vec::new();
    for run in model.ports {
        let n = run.last - run.first + 1;
        match by_speed.iter_mut().find(|(s, _)| *s == run.speed) {
            Some((_, c)) => *c += n,
            None => by_speed.push((run.speed, n)),
        }
    }
    by_speed
        .iter()
        .map(|(speed, n)| {
            Unconfirmed::PortInfo
                .text()
                .replace("{n}", &n.to_string())
                .replace("{speed}", &speed.to_string())
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The ONIE platform name ([`Unconfirmed::PlatformName`]).
pub fn platform_name(model: &Model) -> String {
    Unconfirmed::PlatformName
        .text()
        .replace("{}", &unit_model(model).to_lowercase())
}

/// The unit's firmware, name and version ([`Unconfirmed::Firmware`]).
pub fn firmware() -> Vec<(&'static str, &'static str)> {
    Unconfirmed::Firmware
        .text()
        .lines()
        .filter_map(|l| l.rsplit_once(' '))
        .collect()
}

/// How many of each: power supplies, fan trays ([`Unconfirmed::Cooling`]).
pub fn cooling() -> (u8, u8) {
    let mut n = Unconfirmed::Cooling
        .text()
        .split_whitespace()
        .filter_map(|w| w.parse().ok());
    (n.next().unwrap_or(2), n.next().unwrap_or(1))
}

/// `Up Time` as `show system` prints it: days when there are some, then the clock.
fn uptime(up: Duration) -> String {
    let s = up.as_secs();
    let clock = format!("{:02}:{:02}:{:02}", s / 3600 % 24, s / 60 % 60, s % 60);
    match s / 86_400 {
        0 => clock,
        1 => format!("1 day {clock}"),
        d => format!("{d} days {clock}"),
    }
}

/// `show system` ([`Unconfirmed::SystemNode`] and the tables after it).
pub fn show_system(sw: &Os10Switch) -> String {
    let clock = Clock::of(sw);
    let model = unit_model(sw.model);
    let mut out = Unconfirmed::SystemNode
        .text()
        .replace("{mac}", &mac_text(node_mac(sw)))
        .replace("{macs}", Unconfirmed::MacCount.text())
        .replace("{up}", &uptime(clock.up))
        .replace("{model}", model)
        .replace("{hw}", Unconfirmed::HwVersion.text())
        .replace("{release}", &sw.release)
        .replace("{ports}", &port_info(sw.model));
    out.push('\n');
    for (name, version) in firmware() {
        let _ = writeln!(out, "{name:<27}: {version}");
    }
    let (psus, trays) = cooling();
    let rpm = Unconfirmed::FanRpm.text();
    let flow = Unconfirmed::AirFlow.text();
    let _ = writeln!(out, "\n{}", Unconfirmed::SystemPsus.text());
    for id in 1..=psus {
        let _ = writeln!(
            out,
            "{id:<8}{:<12}{:<8}{flow:<10}{:<5}{rpm:<12}up",
            "up",
            Unconfirmed::PowerType.text(),
            1
        );
    }
    let _ = writeln!(out, "\n{}", Unconfirmed::SystemFans.text());
    for id in 1..=trays {
        let _ = writeln!(out, "{id:<9}{:<12}{flow:<10}{:<5}{rpm:<12}up", "up", 1);
    }
    out
}

/// `top`'s uptime: `117 days, 10:19` (captured), `10:19` within a day, `5 min` within an hour.
fn top_uptime(up: Duration) -> String {
    let s = up.as_secs();
    let (days, h, m) = (s / 86_400, s / 3600 % 24, s / 60 % 60);
    let clock = match h {
        0 => format!("{m} min"),
        h => format!("{h:2}:{m:02}"),
    };
    match days {
        0 => clock,
        1 => format!("1 day, {clock}"),
        d => format!("{d} days, {clock}"),
    }
}

/// `show processes node-id 1`: `top`'s header as captured (napalm-dellos10's fixture), with
/// the switch's clock, uptime and logins; the load, tasks, CPU and memory lines are the
/// capture's ([`Unconfirmed::TopHeader`]). The lab runs none of OS10's processes: no rows.
pub fn show_processes(sw: &Os10Switch, users: usize) -> String {
    let clock = Clock::of(sw);
    let (_, _, _, h, m, s) = crate::types::utc_at(clock.now);
    let who = if users == 1 { "user" } else { "users" };
    Unconfirmed::TopHeader
        .text()
        .replace("{now}", &format!("{h:02}:{m:02}:{s:02}"))
        .replace("{up}", &top_uptime(clock.up))
        .replace("{users}", &format!("{users:2} {who}"))
        + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uptimes_as_printed() {
        assert_eq!(
            top_uptime(Duration::from_secs(117 * 86_400 + 10 * 3600 + 19 * 60)),
            "117 days, 10:19"
        );
        assert_eq!(top_uptime(Duration::from_secs(300)), "5 min");
        assert_eq!(uptime(Duration::from_secs(86_400 + 61)), "1 day 00:01:01");
        let m = Model::named("S5248F-ON").unwrap();
        assert_eq!(port_info(m), "48x25GbE, 8x100GbE");
        assert_eq!(unit_model(m), "S5248F");
        let m = Model::named("S6010-ON").unwrap();
        assert_eq!(port_info(m), "32x40GbE", "the captured S6010-ON's");
    }
}
