//! Fabric semantics → one Onyx configuration per switch.
//!
//! Input is a validated [`Fabric`] (every port already resolved); output is one
//! [`onyx::Config`] per switch, in the normal form the switch itself would show: settings equal
//! to Onyx's defaults (native speed, trust L2, access VLAN 1, switchport access) are left out,
//! because the switch does not print them and a diff must not see them as missing.
//! Nothing here formats text or reads files.

use std::collections::BTreeMap;

use crate::fabric::{Fabric, Switch};
use crate::onyx::{self, Config, Iface, Interface, SpeedSetting, VlanConfig};
use crate::types::{Hostname, SwitchportMode, Trust, Vlan};

/// Every switch of the fabric, by hostname.
pub fn compile(fabric: &Fabric) -> BTreeMap<Hostname, Config> {
    fabric
        .switches
        .iter()
        .map(|(name, sw)| (name.clone(), compile_switch(sw)))
        .collect()
}

/// One switch.
pub fn compile_switch(sw: &Switch) -> Config {
    let mut c = Config::factory(sw.hostname.as_str(), sw.release, sw.certificate.as_deref());
    c.licenses = sw.licenses.clone();
    c.lldp = sw.lldp;
    c.roce = sw.qos.roce;
    c.pools = sw
        .qos
        .pools
        .iter()
        .map(|(name, p)| {
            let pool = onyx::Pool {
                kind: Some(p.kind),
                memory: p.memory,
                priorities: p.priorities.clone(),
            };
            (name.clone(), pool)
        })
        .collect();
    if let Some(pfc) = &sw.qos.pfc {
        c.pfc = onyx::Pfc {
            enabled: pfc.enabled,
            priorities: pfc.priorities.clone(),
        };
    }
    c.vlans = sw
        .vlans
        .iter()
        .map(|(id, name)| (*id, VlanConfig { name: name.clone() }))
        .collect();
    for (port, split) in &sw.splits {
        c.interfaces
            .entry(Iface::Ethernet(*port))
            .or_default()
            .split = Some(*split);
    }
    let default_vlan = Vlan::new(1).ok();
    for (port, s) in &sw.ports {
        let split = port.sub.and(sw.splits.get(&port.parent()).copied());
        let native = sw.model.native_speed(port.parent(), split);
        let e = Interface {
            speed: s
                .speed
                .filter(|v| Some(*v) != native)
                .map(|speed| SpeedSetting {
                    speed,
                    no_autoneg: false,
                }),
            mtu: s.mtu,
            description: s.description.clone(),
            shutdown: s.shutdown.then_some(true),
            switchport_mode: s.switchport.filter(|m| *m != SwitchportMode::Access),
            access_vlan: s.vlan.filter(|v| Some(*v) != default_vlan),
            trust: s.trust.filter(|t| *t != Trust::L2),
            ecn: s.ecn,
            ets: s.ets,
            pfc: s.pfc,
            ..Interface::default()
        };
        if e != Interface::default() {
            c.interfaces.insert(Iface::Ethernet(*port), e);
        }
    }
    if !sw.set_hostname {
        c.hostname = None;
    }
    // Lines outside the format: those the model knows join it (and print where Onyx prints
    // them), the others stay verbatim in their section.
    for (title, lines) in &sw.extra {
        for line in lines {
            match onyx::command::parse(line) {
                Ok(Some(cmd)) => c.load(&cmd),
                _ => c.add_verbatim(title, line),
            }
        }
    }
    c
}
