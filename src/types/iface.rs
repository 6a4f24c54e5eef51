//! An interface of a switch, in terms every stage shares: an Ethernet port, a port-channel, an
//! MLAG (pair) port-channel, a VLAN interface, a loopback. Each OS names one its own way
//! ([`crate::targets::SwitchOs::iface_range`]); the `Display` here is the default OS's,
//! Onyx's `interface <kind> <id>` (its grammar reads and prints interfaces as this type).

use std::fmt;

use super::{Port, Vlan};

/// An interface, ordered the way Onyx (the default OS) lists a setting across interfaces: Ethernet ports first, then port-channels, MLAG port-channels,
/// VLAN interfaces, loopbacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Iface {
    Ethernet(Port),
    PortChannel(u16),
    MlagPortChannel(u16),
    Vlan(Vlan),
    Loopback(u16),
}

impl Iface {
    pub fn kind(self) -> &'static str {
        match self {
            Iface::Ethernet(_) => "ethernet",
            Iface::PortChannel(_) => "port-channel",
            Iface::MlagPortChannel(_) => "mlag-port-channel",
            Iface::Vlan(_) => "vlan",
            Iface::Loopback(_) => "loopback",
        }
    }

    /// True when `next` follows `self` in one Onyx range (`1/1-1/9`, `1-9`).
    pub fn precedes(self, next: Iface) -> bool {
        match (self, next) {
            (Iface::Ethernet(a), Iface::Ethernet(b)) => a.precedes(b),
            (Iface::PortChannel(a), Iface::PortChannel(b)) => b == a + 1,
            (Iface::MlagPortChannel(a), Iface::MlagPortChannel(b)) => b == a + 1,
            // VLAN interfaces and loopbacks are printed and configured one by one
            // (`interface vlan 10`).
            _ => false,
        }
    }

    pub(crate) fn id(self) -> String {
        match self {
            Iface::Ethernet(p) => p.to_string(),
            Iface::PortChannel(n) | Iface::MlagPortChannel(n) | Iface::Loopback(n) => n.to_string(),
            Iface::Vlan(v) => v.to_string(),
        }
    }
}

impl super::Consecutive for Iface {
    fn precedes(self, next: Iface) -> bool {
        Iface::precedes(self, next)
    }
}

impl serde::Serialize for Iface {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl fmt::Display for Iface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind(), self.id())
    }
}

/// `interface <kind> <first>[-<last>]`: consecutive interfaces of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct IfaceRange {
    pub first: Iface,
    pub last: Iface,
}

impl IfaceRange {
    pub fn one(i: Iface) -> Self {
        IfaceRange { first: i, last: i }
    }

    /// The interfaces of the range, in order.
    pub fn members(self) -> impl Iterator<Item = Iface> {
        let mut next = Some(self.first);
        std::iter::from_fn(move || {
            let cur = next?;
            next = if cur == self.last {
                None
            } else {
                match cur {
                    Iface::Ethernet(p) => Some(Iface::Ethernet(match p.sub {
                        None => Port::new(p.slot, p.port + 1),
                        Some(s) => Port::sub(p.slot, p.port, s + 1),
                    })),
                    Iface::PortChannel(n) => Some(Iface::PortChannel(n + 1)),
                    Iface::MlagPortChannel(n) => Some(Iface::MlagPortChannel(n + 1)),
                    Iface::Vlan(v) => Vlan::new(i64::from(v.get()) + 1).ok().map(Iface::Vlan),
                    Iface::Loopback(n) => Some(Iface::Loopback(n + 1)),
                }
            };
            Some(cur)
        })
    }
}

impl fmt::Display for IfaceRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.first == self.last {
            self.first.fmt(f)
        } else {
            write!(f, "{}-{}", self.first, self.last.id())
        }
    }
}
