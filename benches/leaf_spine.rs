//! Generated routed leaf-spine fabrics, shared by the benchmarks that run a fabric at scale
//! (`validate`, `verify`): leaves (SN4600C, 60 host ports each with a peer, two uplinks) on
//! pods of `pod` leaves and two spines each, every link declared, each a /31 with an eBGP
//! session; AS numbers, loopbacks and gateway subnets derived from a switch's number.

use std::fmt::Write as _;

const HEAD: &str = "onyx: 3.10.4206\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nvlans:\n  - { id: 100, name: gpu }\nport_defaults:\n  trust: L3\n  mtu: 9216\n  pfc: true\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict, 3: 50, 0: 50 }\nprofiles:\n  roce-host: { vlan: 100 }\n  uplink: { speed: 100G }\nswitches:\n";

/// The routed underlay's pools: 10,000 leaves need 10,000 loopbacks, AS numbers and server
/// /24s, and 256 /31 slots each (a /9).
const ROUTING: &str = "routing:\n  spine: { asn: 65000, loopbacks: 172.17.0.0/20 }\n  leaf: { asn_base: 4200000000, loopbacks: 172.16.0.0/16 }\n  links: 10.0.0.0/9\n";

/// How many switches a fabric of `leaves` on pods of `pod` has: the leaves and two spines a
/// pod.
pub fn switches(leaves: usize, pod: usize) -> usize {
    leaves + 2 * leaves.div_ceil(pod)
}

/// Leaves (named from 1: a switch's number is its id) on pods of `pod` with two spines each,
/// routed (two parallel L2 uplinks would loop); host ports as one range entry per leaf, or
/// one entry per port.
pub fn generate(leaves: usize, pod: usize, per_port: bool) -> String {
    let mut y = String::from(HEAD).replacen("switches:\n", &format!("{ROUTING}switches:\n"), 1);
    let role = |r: &str| format!("    role: {r}\n");
    let pods = leaves.div_ceil(pod);
    for n in 1..=2 * pods {
        let _ = write!(y, "  spine{n:05}:\n    model: SN4600C\n{}", role("spine"));
    }
    for s in 1..=leaves {
        let _ = write!(y, "  leaf{s:05}:\n    model: SN4600C\n{}", role("leaf"));
        // The servers' gateway: 100.64.0.0/10 holds 16,384 /24s.
        let (hi, lo) = (64 + s / 256, s % 256);
        let _ = writeln!(
            y,
            "    vlans: [{{ id: 100, name: gpu, address: 100.{hi}.{lo}.1/24 }}]"
        );
        y.push_str("    ports:\n");
        if per_port {
            for port in 1..=60 {
                let _ = write!(
                    y,
                    "      1/{port}:\n        profile: roce-host\n        peer: {{ host: gpu{s:05}-{port:02}, port: ens1f0 }}\n"
                );
            }
        } else {
            let _ = write!(
                y,
                "      1/1-1/60:\n        profile: roce-host\n        peer: {{ host: \"gpu{s:05}-{{01..60}}\", port: ens1f0 }}\n"
            );
        }
    }
    y.push_str("links:\n");
    for s in 1..=leaves {
        let (p, down) = ((s - 1) / pod, (s - 1) % pod + 1);
        for k in 0..2 {
            let _ = writeln!(
                y,
                "  - {{ a: \"leaf{s:05}:1/{}\", b: \"spine{:05}:1/{down}\", profile: uplink }}",
                61 + k,
                2 * p + k + 1
            );
        }
    }
    y
}
