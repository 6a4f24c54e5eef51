//! Generated routed leaf-spine fabrics: the one generator of the benchmarks that run a fabric
//! at scale (`validate`, `hosts`, `docs`, `verify`) and of the test that counts the docs'
//! layout work (`tests/docs.rs`). SN4600C leaves on pods of two spines; each leaf has
//! `servers` servers on ports 1/1 onwards and two uplinks on the two ports after them, one to
//! each spine of its pod; every link is a /31 with an eBGP session (AS numbers, loopbacks and
//! link addresses derived from the routing pools). Switches are numbered from 1.

use std::fmt::Write as _;

const HEAD: &str = "onyx: 3.10.4206\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nvlans:\n  - { id: 100, name: gpu }\nport_defaults:\n  trust: L3\n  mtu: 9216\n  pfc: true\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict, 3: 50, 0: 50 }\nprofiles:\n  roce-host: { vlan: 100 }\n  uplink: { speed: 100G }\n";

/// The routed underlay's pools: 10,000 leaves need 10,000 loopbacks, AS numbers and server
/// /24s, and 256 /31 slots each (a /9).
const ROUTING: &str = "routing:\n  spine: { asn: 65000, loopbacks: 172.17.0.0/20 }\n  leaf: { asn_base: 4200000000, loopbacks: 172.16.0.0/16 }\n  links: 10.0.0.0/9\n";

/// How the servers are cabled.
#[derive(Clone, Copy, PartialEq)]
pub enum Cabled {
    /// In their leaf's VLAN (a gateway per leaf), the ports as one range entry.
    Vlan,
    /// In their leaf's VLAN, one entry per port.
    VlanPerPort,
    /// Each on a routed port with its own /31 (from 100.64.0.0/10).
    Routed,
}

/// How `hosts:` declares the servers.
#[derive(Clone, Copy, PartialEq)]
pub enum Declared {
    /// Not at all: the peers name them, nothing else.
    No,
    /// One pattern entry per leaf (`gpu00001-{01..60}`).
    PerLeaf,
    /// One entry per server.
    PerHost,
}

/// A fabric to generate.
#[derive(Clone, Copy)]
pub struct LeafSpine {
    pub leaves: usize,
    /// Leaves per pod (two spines each).
    pub pod: usize,
    /// Servers per leaf (at most 62: the uplinks take the two ports after them).
    pub servers: usize,
    pub cabled: Cabled,
    pub declared: Declared,
}

impl LeafSpine {
    /// `leaves` leaves on pods of `pod`, `servers` servers each in their leaf's VLAN, no
    /// `hosts:`.
    pub fn new(leaves: usize, pod: usize, servers: usize) -> Self {
        LeafSpine {
            leaves,
            pod,
            servers,
            cabled: Cabled::Vlan,
            declared: Declared::No,
        }
    }

    /// The leaves and two spines a pod.
    pub fn switches(&self) -> usize {
        self.leaves + 2 * self.leaves.div_ceil(self.pod)
    }

    /// The fabric's YAML.
    pub fn yaml(&self) -> String {
        let mut y = String::from(HEAD);
        if self.cabled == Cabled::Routed {
            // No server VLAN: no profile for its ports.
            y = y.replace("  roce-host: { vlan: 100 }\n", "");
        }
        y.push_str(ROUTING);
        y.push_str("switches:\n");
        for n in 1..=2 * self.leaves.div_ceil(self.pod) {
            let _ = write!(y, "  spine{n:05}:\n    model: SN4600C\n    role: spine\n");
        }
        for s in 1..=self.leaves {
            let _ = write!(y, "  leaf{s:05}:\n    model: SN4600C\n    role: leaf\n");
            self.leaf_ports(&mut y, s);
        }
        y.push_str("links:\n");
        for s in 1..=self.leaves {
            let (pod, down) = ((s - 1) / self.pod, (s - 1) % self.pod + 1);
            for k in 0..2 {
                let _ = writeln!(
                    y,
                    "  - {{ a: \"leaf{s:05}:1/{}\", b: \"spine{:05}:1/{down}\", profile: uplink }}",
                    self.servers + 1 + k,
                    2 * pod + k + 1
                );
            }
        }
        if self.declared != Declared::No {
            self.hosts(&mut y);
        }
        y
    }

    /// Leaf `s`'s servers.
    fn leaf_ports(&self, y: &mut String, s: usize) {
        let servers = self.servers;
        if self.cabled == Cabled::Routed {
            if servers > 0 {
                y.push_str("    ports:\n");
            }
            for k in 1..=servers {
                let n = 2 * ((s - 1) * servers + k - 1);
                let _ = writeln!(
                    y,
                    "      1/{k}: {{ address: 100.{}.{}.{}/31, peer: {{ host: gpu{s:05}-{k:02}, port: ens1f0 }} }}",
                    64 + n / 65536,
                    n / 256 % 256,
                    n % 256
                );
            }
            return;
        }
        // The servers' gateway: 100.64.0.0/10 holds 16,384 /24s.
        let (hi, lo) = (64 + s / 256, s % 256);
        let _ = writeln!(
            y,
            "    vlans: [{{ id: 100, name: gpu, address: 100.{hi}.{lo}.1/24 }}]"
        );
        if servers == 0 {
            return;
        }
        y.push_str("    ports:\n");
        if self.cabled == Cabled::VlanPerPort {
            for k in 1..=servers {
                let _ = write!(
                    y,
                    "      1/{k}:\n        profile: roce-host\n        peer: {{ host: gpu{s:05}-{k:02}, port: ens1f0 }}\n"
                );
            }
        } else {
            let _ = write!(
                y,
                "      1/1-1/{servers}:\n        profile: roce-host\n        peer: {{ host: \"gpu{s:05}-{{01..{servers:02}}}\", port: ens1f0 }}\n"
            );
        }
    }

    /// The `hosts:` map: Linux servers with one ConnectX-6 Dx port each.
    fn hosts(&self, y: &mut String) {
        y.push_str("hosts:\n");
        let host =
            "{ os: linux, nic: ConnectX-6 Dx, mtu: 9000, ports: { ens1f0: { rdma: mlx5_0 } } }";
        let servers = self.servers;
        for s in 1..=self.leaves {
            if self.declared == Declared::PerHost {
                for k in 1..=servers {
                    let _ = writeln!(y, "  gpu{s:05}-{k:02}: {host}");
                }
            } else {
                let _ = writeln!(y, "  \"gpu{s:05}-{{01..{servers:02}}}\": {host}");
            }
        }
    }
}
