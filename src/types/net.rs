//! Addresses a routed fabric is made of: IPv4 prefixes (an interface address with its length,
//! or an address pool), MAC addresses, AS numbers. Each parses from what an engineer writes
//! and prints the way Onyx prints it.

use std::fmt;
use std::net::Ipv4Addr;
use std::str::FromStr;

use serde::{Serialize, Serializer};

/// An IPv4 address with a prefix length: an interface address (`10.0.0.1/31`) or a network
/// (`10.254.0.0/16`, a pool). Which one it is, is the user's: `network()` is the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ipv4Net {
    pub addr: Ipv4Addr,
    pub len: u8,
}

impl Ipv4Net {
    pub fn new(addr: Ipv4Addr, len: u8) -> Result<Ipv4Net, String> {
        if len > 32 {
            return Err(format!("prefix length /{len} is over 32"));
        }
        Ok(Ipv4Net { addr, len })
    }

    fn mask(self) -> u32 {
        if self.len == 0 {
            0
        } else {
            u32::MAX << (32 - u32::from(self.len))
        }
    }

    /// The network this address is in (`10.0.0.1/31` → `10.0.0.0/31`).
    pub fn network(self) -> Ipv4Net {
        Ipv4Net {
            addr: Ipv4Addr::from(u32::from(self.addr) & self.mask()),
            len: self.len,
        }
    }

    /// True when the address is the network's own (all host bits zero).
    pub fn is_network(self) -> bool {
        self.network().addr == self.addr
    }

    /// Addresses in the network.
    pub fn size(self) -> u64 {
        1u64 << (32 - u32::from(self.len))
    }

    pub fn contains(self, ip: Ipv4Addr) -> bool {
        u32::from(ip) & self.mask() == u32::from(self.network().addr)
    }

    /// Whether two networks share an address.
    pub fn overlaps(self, other: Ipv4Net) -> bool {
        let shorter = if self.len <= other.len { self } else { other };
        let longer = if self.len <= other.len { other } else { self };
        shorter.contains(longer.network().addr)
    }

    /// The `n`th address of the network (0 is the network's own), if it has one.
    pub fn nth(self, n: u64) -> Option<Ipv4Addr> {
        (n < self.size()).then(|| Ipv4Addr::from(u32::from(self.network().addr) + n as u32))
    }

    /// The `index`th subnet of length `len` inside this network, if there is one.
    pub fn subnet(self, len: u8, index: u64) -> Option<Ipv4Net> {
        if len < self.len || len > 32 {
            return None;
        }
        let step = 1u64 << (32 - u32::from(len));
        let first = index.checked_mul(step)?;
        self.nth(first).map(|addr| Ipv4Net { addr, len })
    }

    /// The dotted mask (`255.255.255.0`), as older releases print an address.
    pub fn dotted_mask(self) -> Ipv4Addr {
        Ipv4Addr::from(self.mask())
    }

    /// The prefix length of a dotted mask, if it is one (contiguous ones).
    pub fn len_of_mask(mask: Ipv4Addr) -> Option<u8> {
        let m = u32::from(mask);
        let len = m.leading_ones();
        (m.checked_shl(len).unwrap_or(0) == 0).then_some(len as u8)
    }
}

impl fmt::Display for Ipv4Net {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.len)
    }
}

impl FromStr for Ipv4Net {
    type Err = String;

    fn from_str(s: &str) -> Result<Ipv4Net, String> {
        let (a, l) = s.split_once('/').ok_or_else(|| {
            format!("`{s}` is not an address with a prefix length (`10.0.0.0/31`)")
        })?;
        let addr: Ipv4Addr = a
            .parse()
            .map_err(|_| format!("`{a}` is not an IPv4 address"))?;
        let len: u8 = l
            .parse()
            .map_err(|_| format!("`/{l}` is not a prefix length 0-32"))?;
        Ipv4Net::new(addr, len)
    }
}

impl Serialize for Ipv4Net {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A MAC address, printed as Onyx prints `mlag system-mac`: upper-case hex, colons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mac(pub [u8; 6]);

impl fmt::Display for Mac {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        write!(
            f,
            "{:02X}:{:02X}:{:02X}:{:02X}:{:02X}:{:02X}",
            b[0], b[1], b[2], b[3], b[4], b[5]
        )
    }
}

impl FromStr for Mac {
    type Err = String;

    fn from_str(s: &str) -> Result<Mac, String> {
        let bad = || format!("`{s}` is not a MAC address (`00:00:5E:00:01:5D`)");
        let mut out = [0u8; 6];
        let mut parts = s.split(':');
        for b in &mut out {
            let p = parts.next().ok_or_else(bad)?;
            if p.len() != 2 {
                return Err(bad());
            }
            *b = u8::from_str_radix(p, 16).map_err(|_| bad())?;
        }
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(Mac(out))
    }
}

impl Serialize for Mac {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Private AS numbers (RFC 6996): what a fabric's underlay normally uses.
pub fn is_private_asn(asn: u32) -> bool {
    (64512..=65534).contains(&asn) || (4_200_000_000..=4_294_967_294).contains(&asn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_read_print_and_allocate() {
        let pool: Ipv4Net = "10.254.0.0/16".parse().unwrap();
        assert_eq!(pool.to_string(), "10.254.0.0/16");
        assert_eq!(pool.subnet(31, 0).unwrap().to_string(), "10.254.0.0/31");
        assert_eq!(pool.subnet(31, 3).unwrap().to_string(), "10.254.0.6/31");
        assert_eq!(pool.subnet(30, 1).unwrap().to_string(), "10.254.0.4/30");
        assert!(pool.subnet(31, 32768).is_none());
        assert_eq!(pool.nth(257), Some(Ipv4Addr::new(10, 254, 1, 1)));
        let a: Ipv4Net = "10.0.0.1/31".parse().unwrap();
        assert_eq!(a.network().to_string(), "10.0.0.0/31");
        assert!(!a.is_network());
        assert!(pool.overlaps("10.254.3.0/24".parse().unwrap()));
        assert!(!pool.overlaps("10.255.0.0/24".parse().unwrap()));
        assert_eq!(
            Ipv4Net::len_of_mask(Ipv4Addr::new(255, 255, 255, 0)),
            Some(24)
        );
        assert_eq!(Ipv4Net::len_of_mask(Ipv4Addr::new(255, 0, 255, 0)), None);
        assert!("10.0.0.1".parse::<Ipv4Net>().is_err());
        assert!("10.0.0.1/33".parse::<Ipv4Net>().is_err());
    }

    #[test]
    fn macs_print_as_onyx_does() {
        let m: Mac = "00:00:5e:00:01:5d".parse().unwrap();
        assert_eq!(m.to_string(), "00:00:5E:00:01:5D");
        assert!("00:00:5e:00:01".parse::<Mac>().is_err());
        assert!("00:00:5e:00:01:5d:00".parse::<Mac>().is_err());
    }
}
