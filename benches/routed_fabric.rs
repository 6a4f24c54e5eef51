//! Generated routed leaf-spine fabrics, shared by the docs benchmark and the test that counts
//! the docs' layout work (`tests/docs.rs`): pods of `leaves` SN4600C leaves and 2 spines, each
//! leaf with `hosts` host ports (a server per port, in one range entry) and two uplinks, one to
//! each spine of its pod, every link a /31 with an eBGP session (AS numbers, loopbacks and
//! gateway subnets derived from the routing pools).

use std::fmt::Write as _;

const HEAD: &str = "onyx: 3.10.4206\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\n  dscp: { roce: 26, cnp: 48 }\nvlans:\n  - { id: 100, name: gpu }\nport_defaults:\n  trust: L3\n  mtu: 9216\n  pfc: true\n  ecn: { 3: { min: 150, max: 1500 } }\n  ets: { 6: strict, 3: 50, 0: 50 }\nprofiles:\n  roce-host: { vlan: 100 }\n  uplink: { speed: 100G }\nrouting:\n  spine: { asn: 65000, loopbacks: 172.17.0.0/20 }\n  leaf: { asn_base: 4200000000, loopbacks: 172.16.0.0/16 }\n  links: 10.0.0.0/12\nswitches:\n";

/// The fabric's YAML: `pods` pods of `leaves` leaves (at most 62: the hosts take ports from
/// 1/1, the uplinks the two after them) with `hosts` servers each; switches are numbered from 1.
pub fn generate(pods: usize, leaves: usize, hosts: usize) -> String {
    let mut y = String::from(HEAD);
    for n in 1..=2 * pods {
        let _ = write!(y, "  spine{n:04}:\n    model: SN4600C\n    role: spine\n");
    }
    for s in 1..=pods * leaves {
        let _ = write!(y, "  leaf{s:05}:\n    model: SN4600C\n    role: leaf\n");
        // The servers' gateway: 100.64.0.0/10 holds 16,384 /24s.
        let (hi, lo) = (64 + s / 256, s % 256);
        let _ = writeln!(
            y,
            "    vlans: [{{ id: 100, name: gpu, address: 100.{hi}.{lo}.1/24 }}]"
        );
        if hosts > 0 {
            let _ = write!(
                y,
                "    ports:\n      1/1-1/{hosts}:\n        profile: roce-host\n        peer: {{ host: \"gpu{s:05}-{{01..{hosts:02}}}\", port: ens1f0 }}\n"
            );
        }
    }
    y.push_str("links:\n");
    for s in 1..=pods * leaves {
        let (pod, down) = ((s - 1) / leaves, (s - 1) % leaves + 1);
        for k in 0..2 {
            let _ = writeln!(
                y,
                "  - {{ a: \"leaf{s:05}:1/{}\", b: \"spine{:04}:1/{down}\", profile: uplink }}",
                hosts + 1 + k,
                2 * pod + k + 1
            );
        }
    }
    y
}
