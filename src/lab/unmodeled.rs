//! Configuration the model does not manage but switches take (NTP, SNMP, logging, users,
//! banners, the clock, name servers, static routes, VRFs, ACLs, OSPF, MAGP, spanning-tree
//! options): the lab accepts a line of one of these families and keeps it verbatim, as the
//! parser keeps a line it does not model, in the running-config section Onyx prints it in,
//! so `show running-config` shows it and `fabric diff` leaves it alone. A line of no family,
//! or whose words the family does not have, is still refused. Input: a line the grammar
//! read as unmodeled (`command::parse` gave `Ok(None)`); output: the config with the line
//! kept, or the word at fault.

use crate::onyx::{Config, sections};

/// What a word of a family's line may be.
#[derive(Clone, Copy, Debug)]
pub enum Arg {
    /// One of these keywords.
    Kw(&'static [&'static str]),
    /// Any word (a name, an address, a number, quoted text).
    Any,
    /// One of these keywords, or a word starting with a digit (an address).
    KwOrAddress(&'static [&'static str]),
}

/// A family of unmodeled lines.
#[derive(Debug)]
pub struct Family {
    /// The words the line starts with (after `no`); after `interface KIND ID` for an
    /// interface family.
    pub words: &'static [&'static str],
    /// What the next words may be, in order; words past these are free.
    pub args: &'static [Arg],
    /// How many words must follow `words` (`ntp` alone is not a command).
    pub min: usize,
    /// How many of the words after `words` name one setting: a line setting it again
    /// replaces the one kept (`banner motd …`); 0: every distinct line is kept.
    pub key: usize,
    /// The running-config section the line is printed in (where no capture shows it, the
    /// lab's choice, marked UNCONFIRMED beside the family).
    pub section: &'static str,
    /// One line of help (`?`).
    pub help: &'static str,
}

const NETWORK_MANAGEMENT: &str = sections::NETWORK_MANAGEMENT;
const OSPF: &str = "OSPF configuration";
const MAGP: &str = "MAGP configuration";
/// UNCONFIRMED: no capture shows the title; oxidized's 3.9.2504 capture prints a `logging`
/// line between the BGP section and the AAA remote server lines, its header cut (placed so
/// by `onyx::SECTION_ORDER`).
pub const LOGGING: &str = "Logging configuration";
/// UNCONFIRMED: no capture shows where ACLs are printed.
const ACL: &str = "ACL configuration";
/// UNCONFIRMED: no capture shows PTP's lines.
pub const PTP: &str = "PTP configuration";

/// The families taken at `(config)`, with the section each is printed in. Sources: the
/// running configs in `tests/fixtures/corpus/onyx/` (CSM 3.9.3210 spines, napalm-onyx,
/// Mellon 3.9.2110, oxidized 3.9.2504) and the pasted session
/// `more/cray-docs-csm__sw-spine-002__config_session_banner_vrf_ospf_bgp.txt`, which shows
/// Onyx taking `banner motd`, `vrf definition`, `ip routing vrf`, `ipv4 access-list`,
/// `router ospf`, `interface vlan N magp`.
pub const TOP: &[Family] = &[
    // `ntp server 10.1.0.5 keyID 0`, `ntp vrf mgmt enable`, `ntp disable` (CSM, NAP).
    Family {
        words: &["ntp"],
        args: &[Arg::Kw(&[
            "authenticate",
            "authentication-key",
            "disable",
            "enable",
            "peer",
            "server",
            "trusted-key",
            "vrf",
        ])],
        min: 1,
        key: 0,
        section: NETWORK_MANAGEMENT,
        help: "Configure NTP",
    },
    // `snmp-server contact uu`, `snmp-server host 1.1.11.1 traps …`, `snmp-server user …`
    // (NAP, CSM).
    Family {
        words: &["snmp-server"],
        args: &[Arg::Kw(&[
            "community",
            "contact",
            "enable",
            "host",
            "location",
            "notify",
            "traps",
            "user",
            "vrf",
        ])],
        min: 1,
        key: 0,
        section: "SNMP configuration",
        help: "Configure SNMP",
    },
    // `logging 10.10.10.10 trap info`, `logging local info`, `logging files rotation …`
    // (the Ansible onyx_logging fixture, `show running-config | include logging`).
    Family {
        words: &["logging"],
        args: &[Arg::KwOrAddress(&[
            "debug-files",
            "fields",
            "files",
            "format",
            "level",
            "local",
            "monitor",
            "receive",
            "trap",
            "vrf",
        ])],
        min: 1,
        key: 0,
        section: LOGGING,
        // UNCONFIRMED section.
        help: "Configure event logging",
    },
    // `username admin password 7 $6$…` (CSM, Mellon, NAP).
    Family {
        words: &["username"],
        args: &[
            Arg::Any,
            Arg::Kw(&[
                "capability",
                "disable",
                "full-name",
                "nopassword",
                "password",
            ]),
        ],
        min: 1,
        key: 2,
        section: "Local user account configuration",
        help: "Configure a user account",
    },
    // `banner motd "…"` (taken in the CSM session); its section is the lab's choice: a
    // sibling TMS-based CLI prints `banner login` under Network management.
    Family {
        words: &["banner"],
        args: &[Arg::Kw(&[
            "login",
            "login-local",
            "login-remote",
            "logout",
            "motd",
        ])],
        min: 2,
        key: 1,
        section: NETWORK_MANAGEMENT,
        // UNCONFIRMED section.
        help: "Configure the login and message-of-the-day banners",
    },
    // `clock timezone …`: no capture; the section is the lab's choice.
    Family {
        words: &["clock"],
        args: &[Arg::Kw(&["timezone"])],
        min: 2,
        key: 1,
        section: NETWORK_MANAGEMENT,
        // UNCONFIRMED section.
        help: "Configure the system clock",
    },
    // `ip name-server vrf mgmt 4.2.2.2`, `ip domain-list hon-poc`, `ip route vrf mgmt
    // 0.0.0.0/0 10.132.0.1` (Mellon; CSM `show run | include "ip route"`).
    Family {
        words: &["ip", "name-server"],
        args: &[Arg::Any],
        min: 1,
        key: 0,
        section: sections::OTHER_IP,
        help: "Configure a DNS server",
    },
    Family {
        words: &["ip", "domain-list"],
        args: &[Arg::Any],
        min: 1,
        key: 0,
        section: sections::OTHER_IP,
        help: "Configure a DNS search domain",
    },
    Family {
        words: &["ip", "route"],
        args: &[Arg::Any],
        min: 2,
        key: 0,
        section: sections::OTHER_IP,
        help: "Configure a static route",
    },
    // `vrf definition mgmt` (CSM, Mellon); `ip routing vrf Customer` (CSM session), printed
    // by analogy with `ip routing vrf default` (L3, captured).
    Family {
        words: &["vrf"],
        args: &[Arg::Kw(&["definition"]), Arg::Any],
        min: 2,
        key: 0,
        section: sections::L3,
        help: "Configure a VRF",
    },
    Family {
        words: &["ip", "routing"],
        args: &[Arg::Kw(&["vrf"]), Arg::Any],
        min: 2,
        key: 0,
        section: sections::L3,
        // UNCONFIRMED section.
        help: "Enable IP routing",
    },
    Family {
        words: &["ipv4"],
        args: &[Arg::Kw(&["access-list"]), Arg::Any],
        min: 2,
        key: 0,
        section: ACL,
        // UNCONFIRMED section.
        help: "Configure an IPv4 access list",
    },
    // `protocol ospf`, `router ospf 1 vrf default router-id …` (CSM).
    Family {
        words: &["protocol", "ospf"],
        args: &[],
        min: 0,
        key: 0,
        section: OSPF,
        help: "Enable OSPF",
    },
    Family {
        words: &["router", "ospf"],
        args: &[Arg::Any],
        min: 1,
        key: 0,
        section: OSPF,
        help: "Configure an OSPF instance",
    },
    // `protocol magp` (CSM, the Ansible onyx_config fixture).
    Family {
        words: &["protocol", "magp"],
        args: &[],
        min: 0,
        key: 0,
        section: MAGP,
        help: "Enable MAGP",
    },
    // `protocol ptp`, `ptp priority1 100`, `ptp domain 127` (as Ansible's onyx_ptp_global
    // sends them; no running-config capture: the section is the lab's choice).
    Family {
        words: &["protocol", "ptp"],
        args: &[],
        min: 0,
        key: 0,
        section: PTP,
        // UNCONFIRMED section.
        help: "Enable PTP",
    },
    Family {
        words: &["ptp"],
        args: &[Arg::Kw(&["domain", "priority1", "priority2"]), Arg::Any],
        min: 2,
        key: 1,
        section: PTP,
        // UNCONFIRMED section.
        help: "Configure the PTP clock",
    },
    // `spanning-tree mode rpvst`, `spanning-tree port type edge default` (CSM).
    Family {
        words: &["spanning-tree"],
        args: &[Arg::Kw(&[
            "bpdufilter",
            "bpduguard",
            "forward-time",
            "hello-time",
            "max-age",
            "mode",
            "port",
            "priority",
            "vlan",
        ])],
        min: 1,
        key: 0,
        section: sections::STP,
        help: "Configure spanning tree",
    },
];

/// The families of an interface line's attribute (after `interface KIND ID`).
pub const INTERFACE: &[Family] = &[
    // `interface ethernet 1/25 no lldp receive` (as Ansible's onyx_lldp_interface sends it;
    // both on from the factory).
    Family {
        words: &["lldp"],
        args: &[Arg::Kw(&["receive", "transmit"])],
        min: 1,
        key: 0,
        section: sections::LLDP,
        help: "Configure LLDP on the interface",
    },
    // `interface vlan 1 magp 1 ip virtual-router address …` (CSM, Ansible fixture).
    Family {
        words: &["magp"],
        args: &[Arg::Any],
        min: 1,
        key: 0,
        section: MAGP,
        help: "Configure MAGP on the VLAN interface",
    },
    // `interface vlan 1999 ip ospf area 0.0.0.0` (CSM).
    Family {
        words: &["ip", "ospf"],
        args: &[Arg::Kw(&[
            "area",
            "cost",
            "dead-interval",
            "hello-interval",
            "network",
            "passive-interface",
            "priority",
        ])],
        min: 1,
        key: 0,
        section: OSPF,
        help: "Configure OSPF on the interface",
    },
    // `interface vlan 7 vrf forwarding Customer`, `interface vlan 7 ipv4 port access-group
    // cmn-can` (taken in the CSM session; sections the lab's choice).
    Family {
        words: &["vrf", "forwarding"],
        args: &[Arg::Any],
        min: 1,
        key: 0,
        section: sections::L3,
        // UNCONFIRMED section.
        help: "Put the interface in a VRF",
    },
    Family {
        words: &["ipv4", "port", "access-group"],
        args: &[Arg::Any],
        min: 1,
        key: 0,
        section: ACL,
        // UNCONFIRMED section.
        help: "Bind an IPv4 access list to the interface",
    },
];

/// Whether Ethernet port `p` receives and transmits LLDP: its `interface ethernet P no lldp
/// receive|transmit` lines (both on from the factory; a switch without `lldp` neither).
pub fn port_lldp(c: &Config, p: crate::types::Port) -> (bool, bool) {
    let prefix = format!("interface ethernet {p} no lldp ");
    let off = |what: &str| {
        c.layout.sections.iter().any(|s| {
            s.verbatim
                .iter()
                .any(|(_, l)| l.trim_start().strip_prefix(prefix.as_str()) == Some(what))
        })
    };
    (c.lldp && !off("receive"), c.lldp && !off("transmit"))
}

/// Why a line is not one of a family's: the word at fault.
pub type Refused<'a> = &'a str;

/// The family `words` (after `no`) belong to, and whether the rest fits it; `Ok(None)` when
/// no family starts so.
pub fn family<'a>(
    families: &'static [Family],
    words: &[&'a str],
) -> Result<Option<&'static Family>, Refused<'a>> {
    let Some(f) = families
        .iter()
        .filter(|f| words.starts_with(f.words))
        .max_by_key(|f| f.words.len())
    else {
        return Ok(None);
    };
    let rest = &words[f.words.len()..];
    for (w, arg) in rest.iter().zip(f.args) {
        let ok = match arg {
            Arg::Kw(k) => k.contains(w),
            Arg::Any => true,
            Arg::KwOrAddress(k) => k.contains(w) || w.starts_with(|c: char| c.is_ascii_digit()),
        };
        if !ok {
            return Err(w);
        }
    }
    if rest.len() < f.min {
        // The line ends early: the family's last word is the one that needs more.
        return Err(words.last().copied().unwrap_or(""));
    }
    Ok(Some(f))
}

/// Settings on by default: typed again after their `no` form, they take it back and are not
/// printed (Onyx prints a setting that differs from its default; `show snmp` says `SNMP
/// enabled: yes` where the running config has no `snmp-server enable` line, the Ansible
/// `onyx_snmp` fixture; a port's LLDP sends and receives from the factory, Onyx manual, LLDP).
const ON_BY_DEFAULT: &[&str] = &["snmp-server enable", "lldp receive", "lldp transmit"];

/// Keeps an accepted line (`line` as typed, `no …` included; an interface's line as
/// `interface KIND ID [no] …`) in `family`'s section: a `no` line takes back the kept lines
/// it negates (`no ntp server 10.1.0.5` the server's lines), else is kept itself (`no
/// snmp-server enable`, as Onyx prints a setting turned off); a line replaces the line of
/// the same setting (`key`), the `no` form of itself, and an identical line; a setting on by
/// default ([`ON_BY_DEFAULT`]) that takes back its `no` form is not kept.
pub fn keep(c: &mut Config, family: &Family, line: &str) {
    let all: Vec<&str> = crate::types::cli_text::words(line);
    // An interface's lines are told apart by the interface, then read as top-level ones.
    let prefix = match all.as_slice() {
        ["interface", kind, id, ..] => format!("interface {kind} {id} "),
        _ => String::new(),
    };
    let rest = line[..]
        .trim_start()
        .strip_prefix(prefix.as_str())
        .unwrap_or(line);
    let (negated, body) = match rest.strip_prefix("no ") {
        Some(b) => (true, b.trim_start()),
        None => (false, rest),
    };
    let words: Vec<&str> = crate::types::cli_text::words(body);
    let key_len = (family.words.len() + family.key).min(words.len());
    let key = words[..key_len].join(" ");
    let mut removed = false;
    for s in &mut c.layout.sections {
        s.verbatim.retain(|(_, kept)| {
            let Some(kept) = kept.trim_start().strip_prefix(prefix.as_str()) else {
                return true;
            };
            // A top-level line's prefix is empty: an interface's line is not one of them.
            if prefix.is_empty() && kept.starts_with("interface ") {
                return true;
            }
            let (kept_no, kept_body) = match kept.strip_prefix("no ") {
                Some(b) => (true, b),
                None => (false, kept),
            };
            let gone = if negated {
                // Takes back what it names: the line itself, or the lines it begins.
                kept_body == body || (!kept_no && kept_body.starts_with(&format!("{body} ")))
            } else {
                kept_body == body
                    || (family.key > 0
                        && !kept_no
                        && (kept_body == key || kept_body.starts_with(&format!("{key} "))))
            };
            removed |= gone && (negated != kept_no);
            !gone
        });
    }
    // A `no` line that took back its setting, or a default setting that took back its `no`
    // line, leaves nothing to print.
    let taken_back = removed && (negated || ON_BY_DEFAULT.contains(&body));
    if !taken_back {
        c.add_verbatim(family.section, line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(c: &Config) -> Vec<String> {
        c.layout
            .sections
            .iter()
            .flat_map(|s| s.verbatim.iter().map(|(_, l)| l.clone()))
            .filter(|l| !l.starts_with('#') && !l.contains("prefix-modes"))
            .collect()
    }

    #[test]
    fn families_take_their_words_and_refuse_others() {
        assert!(
            family(TOP, &["ntp", "server", "10.1.0.5"])
                .unwrap()
                .is_some()
        );
        assert_eq!(
            family(TOP, &["ntp", "serve", "10.1.0.5"]).err(),
            Some("serve")
        );
        assert_eq!(family(TOP, &["ntp"]).err(), Some("ntp"));
        assert!(family(TOP, &["logging", "10.10.10.10"]).unwrap().is_some());
        assert_eq!(family(TOP, &["logging", "loud"]).err(), Some("loud"));
        assert!(
            family(TOP, &["ip", "route", "0.0.0.0/0", "10.0.0.1"])
                .unwrap()
                .is_some()
        );
        assert_eq!(
            family(TOP, &["ip", "route", "0.0.0.0/0"]).err(),
            Some("0.0.0.0/0")
        );
        assert!(family(TOP, &["bogus"]).unwrap().is_none());
        assert!(family(INTERFACE, &["magp", "5"]).unwrap().is_some());
    }

    #[test]
    fn lines_are_kept_replaced_and_taken_back() {
        let mut c = Config::factory("leaf01", None, None);
        let f = |w: &[&str]| family(TOP, w).ok().flatten().expect("a family");
        keep(&mut c, f(&["ntp", "server"]), "ntp server 10.1.0.5");
        keep(
            &mut c,
            f(&["ntp", "server"]),
            "ntp server 10.1.0.5 version 4",
        );
        keep(&mut c, f(&["ntp", "server"]), "ntp server 10.1.0.5");
        keep(
            &mut c,
            f(&["banner", "motd", "\"x\""]),
            "banner motd \"one\"",
        );
        keep(
            &mut c,
            f(&["banner", "motd", "\"x\""]),
            "banner motd \"two\"",
        );
        keep(
            &mut c,
            f(&["snmp-server", "enable"]),
            "no snmp-server enable",
        );
        assert_eq!(
            kept(&c),
            [
                "no snmp-server enable",
                "   ntp server 10.1.0.5 version 4",
                "   ntp server 10.1.0.5",
                "   banner motd \"two\"",
            ]
        );
        keep(&mut c, f(&["ntp", "server"]), "no ntp server 10.1.0.5");
        keep(&mut c, f(&["snmp-server", "enable"]), "snmp-server enable");
        assert_eq!(kept(&c), ["   banner motd \"two\""]);
        // An interface's `no` line, taken back by its positive form (on by default), and
        // told apart from another interface's.
        let lldp = |w: &[&str]| family(INTERFACE, w).ok().flatten().expect("a family");
        keep(
            &mut c,
            lldp(&["lldp", "receive"]),
            "interface ethernet 1/2 no lldp receive",
        );
        keep(
            &mut c,
            lldp(&["lldp", "receive"]),
            "interface ethernet 1/20 no lldp receive",
        );
        keep(
            &mut c,
            lldp(&["lldp", "receive"]),
            "interface ethernet 1/2 lldp receive",
        );
        assert_eq!(
            kept(&c),
            [
                "   interface ethernet 1/20 no lldp receive",
                "   banner motd \"two\"",
            ]
        );
    }
}
