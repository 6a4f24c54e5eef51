//! The Onyx command grammar: one line of configuration → a typed [`Command`], and back.
//!
//! One nom parser per command family, shared by everything that reads Onyx text (the
//! running-config parser, the lab's CLI, the planner's own output in tests). A line whose
//! family or attribute the model does not know is not an error: [`parse`] returns `Ok(None)`
//! and the caller keeps it verbatim. A line of a known family whose arguments are wrong (a
//! port `1/x`, an MTU `jumbo`) is an error, located at the column where it goes wrong.
//! `Display` prints a command the way `show running-config` prints it, without the indent.
//!
//! The typed commands and how they print are in `typed`; the grammar's building blocks in
//! `lex`; the families in `iface` (interface lines), `routing` (IP, BFD, BGP, MLAG), `qos`
//! (buffer pools, PFC, RoCE) and `switch` (switch-wide lines: CLI mode, license, hostname,
//! VLANs). This module reads the first word of a line and hands the rest to its family.

mod iface;
mod lex;
mod qos;
mod routing;
mod switch;
mod typed;

pub use typed::{
    AllowedVlan, BfdInterval, BgpCmd, ChannelGroup, Command, Iface, IfaceCmd, IfaceRange, LacpMode,
    LoadSharing, Malformed, Protocol, SpeedSetting, Vlans,
};

use lex::{Line, negation, whole_word, word};

/// The first words of Onyx configuration lines (after `no`): the modeled families and every
/// other seen in a capture (`tests/fixtures/corpus/onyx/`) or in the Onyx User Manual's
/// command reference. A text without a running-config header or section is read as a
/// fragment only when each of its lines starts with one of these; and a line that is only the
/// beginning of one of them is a line cut short.
pub const TOP_LEVEL: &[&str] = &[
    "aaa",
    "api",
    "arp",
    "banner",
    "bfd",
    "boot",
    "buffer",
    "cli",
    "clock",
    "crypto",
    "dcb",
    "docker",
    "dot1x",
    "email",
    "errdisable",
    "fae",
    "hostname",
    "ib",
    "interface",
    "ip",
    "ipv6",
    "lacp",
    "ldap",
    "license",
    "lldp",
    "logging",
    "mac-address-table",
    "mlag",
    "mlag-vip",
    "monitor-session",
    "ntp",
    "ntpdate",
    "openflow",
    "password",
    "port-channel",
    "port-mirroring",
    "protocol",
    "ptp",
    "qos",
    "radius-server",
    "roce",
    "route-map",
    "router",
    "sflow",
    "snmp-server",
    "spanning-tree",
    "ssh",
    "stats",
    "system",
    "tacacs-server",
    "telemetry",
    "telnet-server",
    "track",
    "traffic",
    "username",
    "vlan",
    "vrf",
    "web",
    "what-just-happened",
    "xml-gw",
    "zero-touch",
];

/// One line by its first word (after `no`), handed to the family that reads the rest.
fn top(line: &str) -> Line<'_, Command> {
    let (i, no) = negation(line);
    let Ok((args, head)) = word(i) else {
        return Ok(None);
    };
    // Most frequent first: nearly every line of a large config is an interface line.
    match (no, head) {
        (false, "interface") => iface::interface(args),
        (_, "cli") => switch::cli(no, args),
        (false, "license") => switch::license(args),
        (_, "hostname") => switch::hostname(no, args),
        (_, "lldp") if args.trim().is_empty() => Ok(Some(Command::Lldp(!no))),
        (_, "roce") => qos::roce(no, args),
        (_, "traffic") => qos::traffic_pool(no, args),
        (_, "dcb") => qos::pfc(no, args),
        (_, "vlan") => switch::vlan(no, args),
        (true, "interface") => iface::no_interface(args),
        (_, "ip") => routing::ip(no, args),
        (_, "protocol") => routing::protocol(no, args),
        (_, "lacp") if args.trim().is_empty() => Ok(Some(Command::Lacp(!no))),
        (_, "spanning-tree") if args.trim().is_empty() => Ok(Some(Command::SpanningTree(!no))),
        (_, "router") => routing::router(no, args),
        (_, "mlag") => routing::mlag(no, args),
        (_, "mlag-vip") => routing::mlag_vip(no, args),
        _ => {
            whole_word(i, TOP_LEVEL)?;
            Ok(None)
        }
    }
}

/// Reads one configuration line (already trimmed). `Ok(None)`: not a modeled command, keep it
/// verbatim. `Err`: a modeled command with bad arguments.
pub fn parse(line: &str) -> Result<Option<Command>, Malformed> {
    if let Some(c) = iface::one_vlan_added(line) {
        return Ok(Some(c));
    }
    match top(line) {
        Ok(c) => Ok(c),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(Malformed {
            column: line.len() - e.at.len(),
            expected: if e.what.is_empty() {
                "a valid argument".to_string()
            } else {
                e.what.to_string()
            },
        }),
        Err(nom::Err::Incomplete(_)) => Err(Malformed {
            column: line.len(),
            expected: "more input".to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::iface::one_vlan_added;
    use super::*;
    use crate::types::Port;

    /// The one-VLAN line read in one pass is the command the grammar reads, and whatever the
    /// pass does not take (other spellings, ranges it cannot check, VLANs out of range,
    /// leading zeros, spaces) goes to the grammar, errors included.
    #[test]
    fn one_vlan_added_is_what_the_grammar_reads() {
        let ports = [
            "1/1",
            "1/13/2",
            "1/64",
            "1/1-1/8",
            "1/31/1-1/31/4",
            "1/8-1/1",
            "1/31/1-1/32/2",
            "17/1",
            "1/257",
            "1/1/9",
            "1/01",
        ];
        let vlans = [
            "1", "2", "10", "100", "999", "1000", "4094", "4095", "0", "0100", "00100", "99999",
            "1-3", "1,3", "1 3", "x", "", "100 ", " 100",
        ];
        let mut fast = 0;
        for port in ports {
            for mode in ["hybrid", "trunk", "access", "hybrid  ", "Hybrid"] {
                for op in ["add ", "remove ", "", "add  "] {
                    for v in vlans {
                        let line = format!(
                            "interface ethernet {port} switchport {mode} allowed-vlan {op}{v}"
                        );
                        let grammar = top(&line).map_err(|_| ());
                        match one_vlan_added(&line) {
                            Some(c) => {
                                fast += 1;
                                assert_eq!(grammar, Ok(Some(c)), "{line}");
                            }
                            None => {
                                // The switch's own spelling of one valid VLAN: the pass takes it.
                                let canonical = matches!(mode, "hybrid" | "trunk")
                                    && op == "add "
                                    && (1..=4).contains(&v.len())
                                    && v.bytes().all(|b| b.is_ascii_digit())
                                    && matches!(grammar, Ok(Some(_)));
                                assert!(!canonical, "{line}: left to the grammar");
                            }
                        }
                    }
                }
            }
        }
        assert!(fast > 50, "{fast} lines took the fast pass");
    }

    fn ok(line: &str) -> Command {
        match parse(line) {
            Ok(Some(c)) => c,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn every_family_reads_and_prints_back() {
        for line in [
            "license install LK2-RESTRICTED_CMDS_GEN2-44T1-4H83-RWA5-G423-GY7U-8A60-E0AH-ABCD",
            "traffic pool roce type lossless",
            "traffic pool roce memory percent 50.00",
            "traffic pool roce map switch-priority 3",
            "traffic pool mixed map switch-priority 2 3 1 7",
            "traffic pool roce no map switch-priority 4",
            "interface ethernet 1/1 switchport trunk allowed-vlan add 10-17,20",
            "no traffic pool roce",
            "interface ethernet 1/1-1/32 qos trust L3",
            "interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 1500",
            "interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-relative 75 maximum-relative 95",
            "interface ethernet 1/5 no traffic-class 3 congestion-control",
            "interface ethernet 1/1-1/32 traffic-class 6 dcb ets strict",
            "interface ethernet 1/1 traffic-class 3 dcb ets wrr 50",
            "dcb priority-flow-control enable force",
            "no dcb priority-flow-control enable force",
            "dcb priority-flow-control priority 3 enable",
            "no dcb priority-flow-control priority 3 enable",
            "interface ethernet 1/7-1/8 dcb priority-flow-control mode on force",
            "interface port-channel 1 dcb priority-flow-control mode on force",
            "interface ethernet 1/5 no dcb priority-flow-control mode force",
            "hostname swx-mld-1-2",
            "lldp",
            "no lldp",
            "roce",
            "roce lossy",
            "no roce",
            "vlan 101-116",
            "vlan 1999 name \"OSPF\"",
            "no vlan 40",
            "interface mlag-port-channel 1-9",
            "interface port-channel 100",
            "interface vlan 1999",
            "interface ethernet 1/1-1/9 speed 40G force",
            "interface ethernet 1/1 speed 100G no-autoneg force",
            "interface ethernet 1/16 mtu 1500 force",
            "interface ethernet 1/13 description \"sw-spine02-1/10\"",
            "interface ethernet 1/4 shutdown",
            "interface mlag-port-channel 1-9 no shutdown",
            "interface ethernet 1/31 module-type qsfp-split-4 force",
            "interface mlag-port-channel 1 switchport mode hybrid",
            "interface ethernet 1/16 switchport access vlan 1000",
            "interface ethernet 1/1 switchport trunk allowed-vlan none",
            "interface ethernet 1/1 switchport trunk allowed-vlan 123",
            "interface ethernet 1/1 switchport trunk allowed-vlan 10-12,20",
            "interface mlag-port-channel 15 switchport hybrid allowed-vlan add 1999",
            "interface ethernet 1/1 mlag-channel-group 1 mode active",
            "interface ethernet 1/13-1/14 channel-group 100 mode active",
            "interface ethernet 1/31/2 mtu 9216 force",
            "interface ethernet 1/1 no traffic-class 6 dcb ets",
            "no interface port-channel 100",
            "no interface mlag-port-channel 1-9",
            "no cli default prefix-modes enable",
            "cli default prefix-modes enable",
            "interface ethernet 1/16 no switchport force",
            "interface ethernet 1/16 switchport force",
            "interface ethernet 1/16 ip address 10.102.255.10/30 primary",
            "interface vlan 1 ip address 10.1.0.2/16 primary",
            "interface loopback 0",
            "interface loopback 0 ip address 10.255.0.11/32 primary",
            "interface vlan 4000 no ip address",
            "interface port-channel 100 ipl 1",
            "interface port-channel 100 no ipl 1",
            "interface vlan 4000 ipl 1 peer-address 1.2.0.2",
            "interface vlan 4000 no ipl 1 peer-address",
            "no interface loopback 0",
            "ip routing vrf default",
            "no ip routing vrf default",
            "ip load-sharing source-ip-port",
            "ip load-sharing type consistent",
            "protocol bgp",
            "protocol mlag",
            "no protocol bgp",
            "lacp",
            "no spanning-tree",
            "router bgp 172 vrf default",
            "router bgp 172 vrf default router-id 1.2.3.4 force",
            "router bgp 172 vrf default maximum-paths 31",
            "router bgp 172 vrf default bestpath as-path multipath-relax force",
            "router bgp 172 vrf default neighbor 10.2.3.4 remote-as 173",
            "router bgp 172 vrf default no neighbor 10.2.3.4",
            "router bgp 172 vrf default network 172.16.1.0 /24",
            "router bgp 4200000001 vrf default network 10.0.0.0 /8",
            "no router bgp 172 vrf default",
            "router bgp 172 vrf default bgp fast-external-fallover",
            "router bgp 174 vrf default no bgp fast-external-fallover",
            "router bgp 65533 vrf default neighbor 10.252.1.13 timers 1 3",
            "router bgp 65533 vrf default no neighbor 10.252.1.13 timers",
            "router bgp 65101 vrf default neighbor 10.254.0.192 fall-over bfd",
            "router bgp 65101 vrf default no neighbor 10.254.0.192 fall-over bfd",
            "protocol bfd",
            "no protocol bfd",
            "ip bfd vrf default interval transmit-rate 55 force",
            "ip bfd vrf default interval min-rx 50 force",
            "ip bfd vrf default interval multiplier 7 force",
            "ip bfd vrf default interval min-rx 300 multiplier 3 transmit-rate 300 force",
            "no mlag shutdown",
            "mlag shutdown",
            "mlag system-mac 00:00:5E:00:01:5D",
            "no mlag system-mac",
            "mlag-vip neo-mlag-vip-4094 ip 192.168.1.1 /24 force",
            "no mlag-vip",
        ] {
            assert_eq!(ok(line).to_string(), line);
        }
    }

    #[test]
    fn other_spellings_read_to_the_same_command() {
        assert_eq!(
            ok("interface ethernet 1/1 description TRUNK TO Dell7048"),
            Command::Interface(
                IfaceRange::one(Iface::Ethernet(Port::new(1, 1))),
                IfaceCmd::Description("TRUNK TO Dell7048".into())
            )
        );
        assert_eq!(
            ok("interface ethernet 1/1 mtu 9216"),
            ok("interface ethernet 1/1 mtu 9216 force")
        );
        // As typed at the CLI: the default VRF is implied.
        assert_eq!(ok("ip routing"), ok("ip routing vrf default"));
        assert_eq!(
            ok("router bgp 65101 neighbor 10.0.0.0 remote-as 65000"),
            ok("router bgp 65101 vrf default neighbor 10.0.0.0 remote-as 65000")
        );
        assert_eq!(
            ok("router bgp 65101 vrf default network 10.1.0.0/24"),
            ok("router bgp 65101 vrf default network 10.1.0.0 /24")
        );
        // The onyx_bfd Ansible module types the default VRF's timers without `vrf default`,
        // in its own order.
        assert_eq!(
            ok("ip bfd interval min-rx 50 multiplier 7 transmit-rate 55 force"),
            ok("ip bfd vrf default interval transmit-rate 55 multiplier 7 min-rx 50 force")
        );
        assert_eq!(
            ok("router bgp 172 vrf default no neighbor 10.2.3.4 remote-as 173"),
            ok("router bgp 172 vrf default no neighbor 10.2.3.4")
        );
        assert_eq!(
            ok("interface ethernet 1/1 ip address 10.0.0.1/31"),
            ok("interface ethernet 1/1 ip address 10.0.0.1/31 primary")
        );
    }

    /// Spanning tree on interfaces and `lacp-individual` (Cray's CSM spines, the manual's
    /// forms) read and print back as typed; a cut or misspelt value is an error at its column.
    #[test]
    fn spanning_tree_and_lacp_individual_read_and_print_back() {
        for line in [
            "interface mlag-port-channel 1-9 spanning-tree port type edge",
            "interface ethernet 1/13-1/14 spanning-tree port type network",
            "interface mlag-port-channel 15 spanning-tree guard root",
            "interface ethernet 1/1 spanning-tree guard loop",
            "interface ethernet 1/1 spanning-tree bpduguard enable",
            "interface ethernet 1/1 spanning-tree bpduguard disable",
            "interface ethernet 1/1 no spanning-tree bpduguard",
            "interface ethernet 1/1 no spanning-tree port type",
            "interface ethernet 1/1 no spanning-tree guard",
            "interface mlag-port-channel 1-9 lacp-individual enable force",
            "interface port-channel 5 no lacp-individual enable force",
        ] {
            let c = parse(line)
                .unwrap_or_else(|e| panic!("{line}: {e}"))
                .unwrap_or_else(|| panic!("{line}: not modeled"));
            assert_eq!(c.to_string(), line);
        }
        let e = parse("interface ethernet 1/1 spanning-tree port type edgy").unwrap_err();
        assert_eq!(e.column, 47, "{e:?}");
        let e = parse("interface ethernet 1/1 spanning-tree guard").unwrap_err();
        assert!(e.expected.contains("root"), "{e:?}");
        assert!(parse("interface ethernet 1/1 spanning-tree bpdugu").is_err());
    }

    #[test]
    fn unmodeled_lines_are_not_errors() {
        for line in [
            "interface ethernet 1/1 fec-override fc-fec force",
            "interface ethernet 1/1 spanning-tree cost 2000",
            "interface ethernet 1/1 spanning-tree port-priority 16",
            "interface vlan 101 ip address 10.0.0.254 255.255.255.0",
            "interface mgmt0 ip address 10.132.0.222 /24",
            "interface vlan 1999 ip ospf area 0.0.0.0",
            "interface ethernet 1/1 qos rewrite pcp",
            "interface ethernet 1/1 traffic-class 3 bind switch-priority 0 1 2",
            "spanning-tree mode rpvst",
            "protocol magp",
            "ip route 0.0.0.0/0 10.102.3.3 5",
            "ip domain-list local",
            "ip routing vrf mgmt",
            "lacp system-priority 100",
            "router ospf 1 vrf default",
            "router bgp 65533 vrf CAN neighbor 10.103.11.1 remote-as 65533",
            "router bgp 172 vrf default neighbor evpn peer-group",
            "router bgp 172 vrf default neighbor 10.2.3.5 ebgp-multihop 255",
            "router bgp 65533 vrf default maximum-paths ibgp 32",
            "router bgp 172 vrf default address-family l2vpn-evpn auto-create",
            "router bgp 172 vrf default no neighbor 10.2.3.5 ebgp-multihop",
            "router bgp 172 vrf default neighbor 10.2.3.5 timers connect 10",
            "ip bfd shutdown vrf default",
            "ip bfd vrf 3 interval transmit-rate 55 force",
            "ip route vrf default 1.1.1.0/24 3.2.2.2 bfd",
            "mlag reload-delay 30",
            "username admin password 7 $6$x",
            "snmp-server host 1.1.11.1 traps port 22 version 2c",
        ] {
            assert_eq!(parse(line), Ok(None), "{line}");
        }
    }

    #[test]
    fn malformed_lines_say_where_and_what() {
        let e = parse("interface ethernet 1/x speed 40G force").unwrap_err();
        assert_eq!(e.column, 19);
        assert!(e.expected.contains("port"), "{e}");
        let e = parse("interface ethernet 1/1 mtu jumbo force").unwrap_err();
        assert_eq!(e.column, 27, "{e:?}");
        assert!(e.expected.contains("MTU"));
        let e = parse("traffic pool roce memory percent 150").unwrap_err();
        assert_eq!(e.column, 33, "{e:?}");
        let e = parse("interface ethernet 1/1 traffic-class 9 dcb ets strict").unwrap_err();
        assert_eq!(e.column, 37, "{e:?}");
        let e = parse("interface ethernet 1/1 description \"open").unwrap_err();
        assert!(e.expected.contains('"'), "{e}");
        let e =
            parse("router bgp 65101 vrf default neighbor 10.0.0.300 remote-as 65000").unwrap_err();
        assert!(e.expected.contains("IPv4"), "{e}");
        let e = parse("interface ethernet 1/1 ip address 10.0.0.1/33 primary").unwrap_err();
        assert!(e.expected.contains("prefix length"), "{e}");
        let e = parse("mlag system-mac 00:00:5E:00:01").unwrap_err();
        assert!(e.expected.contains("MAC"), "{e}");
        // Cut short: never kept as an unmodeled line.
        assert!(parse("router bgp 65101 vrf default neigh").is_err());
        let e = parse("router bgp 65101 vrf default neighbor 10.0.0.0 timers 3").unwrap_err();
        assert!(e.expected.contains("hold time"), "{e}");
        let e = parse("ip bfd vrf default interval transmit-rate fast force").unwrap_err();
        assert!(e.expected.contains("min-rx"), "{e}");
        assert!(parse("ip bfd vrf default interval min-rx 300").is_ok());
        assert!(parse("ip rout").is_err());
    }
}
