//! The target OS: one switch's configuration as typed state ([`Config`]), read from and printed
//! as the text of `show running-config`.
//!
//! A running-config is a list of flat commands: [`parse`] folds [`Config::apply`] over its
//! lines ([`command`] is the grammar), [`render`] prints the canonical command list of a
//! `Config` through the templates. The model holds state, not text: a setting of port 1/5 is
//! a field of port 1/5, whichever range line set it, and a value at its default is absent,
//! because Onyx does not print defaults. Lines the model does not know are kept verbatim in
//! their section and place ([`Layout`]), so nothing is lost. This module knows Onyx; it knows
//! nothing of fabrics, YAML or SSH.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use std::net::Ipv4Addr;

use crate::types::{
    Ecn, Ets, Ipv4Net, Mac, Percent, PoolType, Priority, Release, RoceMode, Split, StpGuard,
    StpPortType, SwitchportMode, TcMap, Trust, Vlan, VlanSet,
};

mod apply;
pub mod audit;
pub mod command;
pub mod compile;
pub mod dialect;
mod extra;
pub mod import;
pub mod lab;
pub mod listings;
pub mod parse;
pub mod plan;
pub mod prompt;
pub mod push;
pub mod render;
pub mod restore;
pub mod rules;
pub mod target;
pub mod verify;

pub use command::{
    AllowedVlan, BfdInterval, BgpCmd, ChannelGroup, Command, Iface, IfaceCmd, IfaceRange,
    LoadSharing, Protocol, SpeedSetting, Vlans,
};
pub use parse::{ParseError, Problem, clean, parse};
pub use render::{Renderer, TEMPLATE_FILES};

/// Section titles, in the order this renderer prints them when a config does not say
/// otherwise. Taken from the reference guide's session (Onyx 3.6.8190: buffer, LLDP, QoS
/// switch, DCBX ETS, Other IP, AAA, Network management, X.509) merged with full captures of
/// 3.6-3.9 switches (`onyx-cli.md` §b.3). A parsed config keeps the order it was printed in.
pub const SECTION_ORDER: &[&str] = &[
    sections::TEMPORARY_PREFIX,
    sections::LICENSES,
    sections::BFD,
    sections::MLAG_PROTOCOL,
    sections::BUFFER,
    sections::ETHERNET,
    sections::LAG,
    sections::VLAN,
    sections::STP,
    sections::L3,
    sections::DCBX_PFC,
    sections::LLDP,
    sections::QOS_SWITCH,
    sections::DCBX_ETS,
    "Telemetry configuration",
    "OSPF configuration",
    sections::BGP,
    "MAGP configuration",
    sections::MLAG,
    "Network interface configuration",
    "Network interface IPv6 configuration",
    sections::OTHER_IP,
    "Other IPv6 configuration",
    "Local user account configuration",
    // UNCONFIRMED title: oxidized's 3.9.2504 capture prints `logging …` after the BGP section
    // and before the AAA remote server lines, its section header cut (the lab keeps `logging`
    // lines here).
    "Logging configuration",
    sections::AAA_REMOTE,
    "AAA configuration",
    "Password restriction configuration",
    "SNMP configuration",
    sections::NETWORK_MANAGEMENT,
    "SSH and Key configuration",
    sections::X509,
    sections::PERSISTENT_PREFIX,
];

/// What the model prints or reads without a capture to confirm it: each choice, and why.
pub const UNCONFIRMED: &[(&str, &str)] = &[
    (
        "`switchport trunk|hybrid allowed-vlan LIST` (no `add`) replaces the port's list; compiled configs print a trunk's `none`, its first VLAN bare, every further VLAN with `add` (right under either reading); plans send only `add`/`remove`",
        "the reference's syntax (`onyx-cli.md` §a.8) puts the bare list beside `none|all`, apart from `add|remove <list>`; a public MLAG recipe types `allowed-vlan 10` then `allowed-vlan add 20-23`; HPE's dHCI scripts and Ansible's `onyx_l2_interface` always send `add`; MLNX-OS was seen printing `allowed-vlan none` then `allowed-vlan add N` per VLAN (Emulab, `tbsetup/snmpit/snmpit_mellanox.pm`); the one trunk capture (`corpus/onyx/intel-mfd…cfg`) prints `none` then a single bare `allowed-vlan 123`, which reads the same either way; no capture shows two VLANs",
    ),
    (
        "`allowed-vlan remove N` on a port carrying every VLAN leaves every VLAN the switch has (VLAN 1 and those created) but N, listed (`none`, then the VLANs), so a VLAN created later is not added",
        "MLNX-OS was seen doing so (Emulab, `snmpit_mellanox.pm`: deleting a VLAN from a trunk turns `allowed-vlan all` into `allowed-vlan none` and `allowed-vlan add N` lines); no Onyx capture shows it",
    ),
    (
        "`interface vlan N mtu M`, without `force`, in \"L3 configuration\" after the creation lines",
        "no capture prints a VLAN interface's MTU; Cray's CSM session types `interface vlan 6 mtu 9184` in configuration mode, and the manual's `mtu` takes `force` on Ethernet ports only",
    ),
    (
        "a VLAN interface's `mtu 1500` is its default and is not kept",
        "Ansible's `show interfaces vlan` fixture shows `MTU: 1500 bytes` on a VLAN interface without an `mtu` line; whether a running config prints an explicit `mtu 1500` is not seen",
    ),
    (
        "`protocol bfd` and `ip bfd vrf default interval …` in \"BFD configuration\", printed transmit-rate, min-rx, multiplier",
        "the `onyx_show_bfd` capture (`show running-config | include bfd`) has the lines and their order but not their section; the section title is in a CBR template's order (`onyx-cli.md` §b.3, weak)",
    ),
    (
        "`no protocol bfd` drops the BFD timers, as `no protocol bgp` drops BGP's configuration",
        "by analogy with the manual's `no protocol bgp`",
    ),
    (
        "`router bgp AS vrf default neighbor A fall-over bfd` (and its `no` form inside the line)",
        "the Onyx user manual's BFD chapter (3.10) says BGP sessions use BFD, numbered ones only; the BGP command's spelling is not in a capture or a source read here",
    ),
    (
        "a neighbor's lines together: `remote-as`, then `timers`, then `fall-over bfd`",
        "Cray's CSM pages print `remote-as`, `route-map`, `transport connection-mode` per neighbor in one capture and grouped by attribute in another; `timers` is only typed (`neighbor A timers 1 3`, CSM sw-spine-002 session)",
    ),
    (
        "`bgp fast-external-fallover` is off by default (printed when on), and `no neighbor A timers` takes a neighbor's timers away",
        "the onyx_bgp_show capture prints `bgp fast-external-fallover`, and the onyx_bgp Ansible module sends `no bgp fast-external-fallover` to turn it off",
    ),
    (
        "`interface … spanning-tree bpduguard enable|disable` (and `no spanning-tree bpduguard`), printed in \"STP configuration\" after the port type and guard lines",
        "no capture prints a per-port BPDU guard (Cray's spines print the global `spanning-tree port type edge bpduguard default`); the spelling is the manual's form of its sibling `spanning-tree bpdufilter {enable, disable}`, the place is after the two kinds of per-port lines the CSM captures print in that order",
    ),
    (
        "`spanning-tree port type normal` is the default and is not kept; `no spanning-tree port type` and `no spanning-tree guard` reset",
        "the MLNX-OS manual names normal the port type a port has unless configured; no capture prints a `normal` line or a `no` form",
    ),
    (
        "what a description, VLAN name, MLAG domain name and license key may hold, and how long each may be (`fabric::strings::ONYX`, the rows whose source says UNCONFIRMED); an MLAG domain name is one word of letters, digits, `-`, `_`",
        "the manual says \"a string\" and gives no alphabet or length; every captured domain name (`neo-mlag-vip-4094`, `mlag-domain`, `my-vip`, Ansible's `ansible_test_group`) is such a word, and it is printed bare, so a space would end it",
    ),
    (
        "`no lacp-individual enable force` takes it back",
        "Cray's CSM spines print only the positive form; the negation follows the `no … force` forms the captures show elsewhere",
    ),
];

/// The MTU of a VLAN interface without an `mtu` line.
pub const VLAN_DEFAULT_MTU: u16 = 1500;

/// Titles of the sections that hold modeled commands, or that every switch prints.
pub mod sections {
    pub const TEMPORARY_PREFIX: &str = "Running-config temporary prefix mode setting";
    pub const LICENSES: &str = "License keys";
    pub const BUFFER: &str = "Interface Ethernet buffer configuration";
    pub const ETHERNET: &str = "Interface Ethernet configuration";
    pub const VLAN: &str = "VLAN configuration";
    pub const L3: &str = "L3 configuration";
    pub const DCBX_PFC: &str = "DCBX PFC configuration";
    pub const LLDP: &str = "LLDP configuration";
    pub const QOS_SWITCH: &str = "QoS switch configuration";
    pub const DCBX_ETS: &str = "DCBX ETS configuration";
    pub const OTHER_IP: &str = "Other IP configuration";
    pub const AAA_REMOTE: &str = "AAA remote server configuration";
    pub const NETWORK_MANAGEMENT: &str = "Network management configuration";
    pub const X509: &str = "X.509 certificates configuration";
    pub const PERSISTENT_PREFIX: &str = "Persistent prefix mode setting";
    pub const MLAG_PROTOCOL: &str = "MLAG protocol";
    pub const LAG: &str = "LAG configuration";
    pub const STP: &str = "STP configuration";
    pub const BGP: &str = "BGP configuration";
    pub const BFD: &str = "BFD configuration";
    pub const MLAG: &str = "MLAG configurations";
}

/// The section a modeled command is printed in.
pub fn home_section(c: &Command) -> &'static str {
    use sections::*;
    match c {
        Command::PrefixModes(false) => TEMPORARY_PREFIX,
        Command::PrefixModes(true) => PERSISTENT_PREFIX,
        Command::License(_) => LICENSES,
        Command::Hostname(_) | Command::NoHostname => OTHER_IP,
        Command::Lldp(_) => LLDP,
        Command::Roce(_)
        | Command::PoolType(..)
        | Command::PoolMemory(..)
        | Command::PoolMap(..)
        | Command::PoolUnmap(..)
        | Command::NoPool(_) => BUFFER,
        Command::PfcEnable(_) | Command::PfcPriority(..) => DCBX_PFC,
        Command::VlanCreate(_) | Command::VlanName(..) | Command::NoVlan(_) => VLAN,
        Command::NoInterface(r) if matches!(r.first, Iface::Vlan(_) | Iface::Loopback(_)) => L3,
        Command::NoInterface(_) => ETHERNET,
        Command::IpRouting(_) | Command::LoadSharing(..) => L3,
        Command::Protocol(Protocol::Bgp, _) | Command::Bgp(..) | Command::NoBgp(_) => BGP,
        Command::Protocol(Protocol::Bfd, _) | Command::BfdInterval(_) => BFD,
        Command::Protocol(Protocol::Mlag, _) => MLAG_PROTOCOL,
        Command::Lacp(_) => LAG,
        Command::SpanningTree(_) => STP,
        Command::MlagShutdown(_) | Command::MlagSystemMac(_) | Command::MlagVip(_) => MLAG,
        Command::Interface(r, c) => match c {
            IfaceCmd::Create if matches!(r.first, Iface::Vlan(_) | Iface::Loopback(_)) => L3,
            IfaceCmd::Mtu(_) | IfaceCmd::NoMtu if matches!(r.first, Iface::Vlan(_)) => L3,
            IfaceCmd::Address(_) | IfaceCmd::NoAddress => L3,
            IfaceCmd::Ipl(_)
            | IfaceCmd::NoIpl(_)
            | IfaceCmd::IplPeer(..)
            | IfaceCmd::NoIplPeer(_) => MLAG,
            IfaceCmd::AccessVlan(_) | IfaceCmd::NoAccessVlan | IfaceCmd::AllowedVlan(..) => VLAN,
            IfaceCmd::Trust(_) | IfaceCmd::NoTrust | IfaceCmd::Ecn(..) | IfaceCmd::NoEcn(_) => {
                QOS_SWITCH
            }
            IfaceCmd::Ets(..) | IfaceCmd::NoEts(_) => DCBX_ETS,
            IfaceCmd::PfcMode(_) => DCBX_PFC,
            IfaceCmd::StpPortType(_)
            | IfaceCmd::NoStpPortType
            | IfaceCmd::Bpduguard(_)
            | IfaceCmd::NoBpduguard
            | IfaceCmd::StpGuard(_)
            | IfaceCmd::NoStpGuard => STP,
            IfaceCmd::LacpIndividual(_) => LAG,
            _ => ETHERNET,
        },
    }
}

/// The `##` block at the top.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Header {
    /// `## Active saved database "…"` rather than `## Running database "…"`.
    pub saved: bool,
    pub database: String,
    /// `## Hostname: …` (may differ from the `hostname` command, and may be empty).
    pub hostname: String,
    /// `## Product release: …`, printed from 3.9 on.
    pub release: Option<Release>,
}

/// `traffic pool NAME …`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pool {
    /// `type`; `None` when no `type` line was given.
    pub kind: Option<PoolType>,
    pub memory: Option<Percent>,
    pub priorities: BTreeSet<Priority>,
}

/// Global PFC: `dcb priority-flow-control enable force` and `… priority N enable`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pfc {
    pub enabled: bool,
    pub priorities: BTreeSet<Priority>,
}

/// The VLANs a trunk or hybrid interface carries. A trunk starts with all VLANs (Onyx prints
/// `allowed-vlan none` before the ones it adds back), a hybrid port with none (Onyx prints
/// one `allowed-vlan add N` per VLAN).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Allowed {
    pub mode: SwitchportMode,
    /// Every VLAN (`allowed-vlan all`); then `vlans` is empty.
    pub all: bool,
    pub vlans: VlanSet,
}

impl Allowed {
    /// What a port in `mode` carries before any `allowed-vlan` command.
    pub fn default_for(mode: SwitchportMode) -> Allowed {
        Allowed {
            mode,
            all: mode == SwitchportMode::Trunk,
            vlans: VlanSet::new(),
        }
    }
}

/// One interface: an Ethernet port or subport, a port-channel, an MLAG port-channel or a
/// VLAN interface. Every field at its default is not printed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Interface {
    /// The bare `interface port-channel 1` line (port-channels and VLAN interfaces).
    pub created: bool,
    /// `module-type qsfp-split-N force`, on the front-panel port that is split.
    pub split: Option<Split>,
    /// `speed S force`; `None` is the port's native speed.
    pub speed: Option<SpeedSetting>,
    /// `mtu N force`.
    pub mtu: Option<u16>,
    pub description: Option<String>,
    /// `shutdown` (true) or `no shutdown` (false) where that differs from the kind's
    /// default: Ethernet ports and port-channels are up, MLAG port-channels down.
    pub shutdown: Option<bool>,
    /// `switchport mode`; `None` is access.
    pub switchport_mode: Option<SwitchportMode>,
    /// `switchport access vlan N`.
    pub access_vlan: Option<Vlan>,
    pub allowed: Option<Allowed>,
    /// `channel-group N mode M` or `mlag-channel-group N mode M`.
    pub channel_group: Option<ChannelGroup>,
    /// `qos trust`; `None` is L2.
    pub trust: Option<Trust>,
    pub ecn: TcMap<Ecn>,
    pub ets: TcMap<Ets>,
    /// `dcb priority-flow-control mode on force`.
    pub pfc: bool,
    /// `no switchport force`: a routed port.
    pub routed: bool,
    /// `ip address A/N primary`.
    pub address: Option<Ipv4Net>,
    /// `ipl N`: this port-channel is an MLAG pair's peer link.
    pub ipl: Option<u8>,
    /// `ipl N peer-address A`: on the IPL's VLAN interface, the peer's address.
    pub ipl_peer: Option<(u8, Ipv4Addr)>,
    /// `spanning-tree port type edge|network`; `None` is normal.
    pub stp_type: Option<StpPortType>,
    /// `spanning-tree bpduguard enable|disable`; `None`: the switch's default for the port.
    pub bpduguard: Option<bool>,
    /// `spanning-tree guard root|loop`.
    pub stp_guard: Option<StpGuard>,
    /// `lacp-individual enable force`.
    pub lacp_individual: bool,
}

impl Interface {
    fn is_default(&self) -> bool {
        *self == Interface::default()
    }

    /// The VLANs the interface carries, and whether it allows every VLAN: its access (or
    /// hybrid untagged) VLAN, VLAN 1 by default, and a trunk's or hybrid port's allowed list.
    /// A routed port or a bundle member (its bundle carries them) carries none.
    pub fn vlans(&self) -> (BTreeSet<Vlan>, bool) {
        if self.routed || self.channel_group.is_some() {
            return (BTreeSet::new(), false);
        }
        let mode = self.switchport_mode.unwrap_or(SwitchportMode::Access);
        let mut out = BTreeSet::new();
        if mode != SwitchportMode::Trunk {
            out.extend(self.access_vlan.or_else(|| Vlan::new(1).ok()));
        }
        let mut all = false;
        if mode != SwitchportMode::Access {
            let a = self
                .allowed
                .clone()
                .unwrap_or_else(|| Allowed::default_for(mode));
            all = a.all;
            out.extend(a.vlans.iter());
        }
        (out, all)
    }
}

/// The default VRF's BGP instance: `router bgp ASN vrf default …`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bgp {
    pub asn: u32,
    pub router_id: Option<Ipv4Addr>,
    pub maximum_paths: Option<u16>,
    pub multipath_relax: bool,
    /// Neighbors by address, with their remote AS.
    pub neighbors: BTreeMap<Ipv4Addr, u32>,
    /// Prefixes advertised (`network A /N`).
    pub networks: BTreeSet<Ipv4Net>,
    /// `bgp fast-external-fallover`.
    pub fast_external_fallover: bool,
    /// `neighbor A timers KEEPALIVE HOLD`, by neighbor.
    pub timers: BTreeMap<Ipv4Addr, (u16, u16)>,
    /// Neighbors with `fall-over bfd`.
    pub bfd: BTreeSet<Ipv4Addr>,
}

impl Bgp {
    pub fn new(asn: u32) -> Bgp {
        Bgp {
            asn,
            router_id: None,
            maximum_paths: None,
            multipath_relax: false,
            neighbors: BTreeMap::new(),
            networks: BTreeSet::new(),
            fast_external_fallover: false,
            timers: BTreeMap::new(),
            bfd: BTreeSet::new(),
        }
    }

    /// Every neighbor the instance names: with a remote AS, timers or BFD.
    pub fn named(&self) -> BTreeSet<Ipv4Addr> {
        self.neighbors
            .keys()
            .chain(self.timers.keys())
            .chain(&self.bfd)
            .copied()
            .collect()
    }
}

/// An MLAG pair's switch-wide settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Mlag {
    /// `no mlag shutdown`: the pair is up (Onyx's default is shut down).
    pub enabled: bool,
    pub system_mac: Option<Mac>,
    /// `mlag-vip NAME ip A /N force`: the domain name and the virtual IP.
    pub vip: Option<(String, Ipv4Net)>,
}

/// `vlan N` and `vlan N name "…"`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct VlanConfig {
    pub name: Option<String>,
}

/// Where things are printed: the sections in the order the switch printed them, and in each
/// the lines the model does not know, with their place.
#[derive(Clone, Debug, Default, Eq, Serialize)]
pub struct Layout {
    pub sections: Vec<SectionLayout>,
}

/// One section of the printed config.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SectionLayout {
    /// The `## Title`; empty for lines printed before any section (a fragment, a
    /// `show running-config interface …`).
    pub title: String,
    /// Verbatim lines, each with the number of modeled lines printed before it in this
    /// section, so it comes back in the same place. The text keeps Onyx's indent: three
    /// spaces, or none (`no …`, `# …`, `cli default prefix-modes enable`).
    pub verbatim: Vec<(usize, String)>,
}

/// Layouts are equal when they keep the same verbatim lines in the same places: where a
/// section without verbatim lines is printed is presentation, not state.
impl PartialEq for Layout {
    fn eq(&self, other: &Self) -> bool {
        let kept = |l: &Layout| -> Vec<(String, Vec<(usize, String)>)> {
            l.sections
                .iter()
                .filter(|s| !s.verbatim.is_empty())
                .map(|s| (s.title.clone(), s.verbatim.clone()))
                .collect()
        };
        kept(self) == kept(other)
    }
}

/// One switch's configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Config {
    pub header: Header,
    /// `hostname …`.
    pub hostname: Option<String>,
    /// `license install …`, in order.
    pub licenses: Vec<String>,
    /// `roce [mode]`.
    pub roce: Option<RoceMode>,
    pub pools: BTreeMap<String, Pool>,
    pub interfaces: BTreeMap<Iface, Interface>,
    pub vlans: BTreeMap<Vlan, VlanConfig>,
    pub pfc: Pfc,
    /// `lldp`.
    pub lldp: bool,
    /// `ip routing vrf default`.
    pub ip_routing: bool,
    /// `ip load-sharing …`.
    pub load_sharing: BTreeSet<LoadSharing>,
    /// `protocol bfd`, `protocol bgp`, `protocol mlag`.
    pub protocols: BTreeSet<Protocol>,
    /// `ip bfd vrf default interval …`: BFD's timers.
    pub bfd: BfdInterval,
    /// `lacp`.
    pub lacp: bool,
    /// Spanning tree runs (Onyx's default); `no spanning-tree` turns it off.
    pub spanning_tree: bool,
    pub bgp: Option<Bgp>,
    pub mlag: Mlag,
    /// Descriptions and VLAN names print double-quoted (3.9 captures quote them, 3.6/3.7
    /// captures do not: `description TRUNK TO Dell7048`).
    pub quoted: bool,
    pub layout: Layout,
}

impl Config {
    /// An empty config: no header fields, no sections.
    pub fn empty() -> Config {
        Config {
            header: Header {
                saved: false,
                database: "initial".to_string(),
                hostname: String::new(),
                release: None,
            },
            hostname: None,
            licenses: Vec::new(),
            roce: None,
            pools: BTreeMap::new(),
            interfaces: BTreeMap::new(),
            vlans: BTreeMap::new(),
            pfc: Pfc::default(),
            lldp: false,
            ip_routing: false,
            load_sharing: BTreeSet::new(),
            protocols: BTreeSet::new(),
            bfd: BfdInterval::default(),
            lacp: false,
            spanning_tree: true,
            bgp: None,
            mlag: Mlag::default(),
            quoted: false,
            layout: Layout::default(),
        }
    }

    /// A switch as it leaves the factory, named: the prefix-mode lines and the masked-secret
    /// comment lines Onyx always prints (`# radius-server key ********` …). The X.509 lines
    /// name the switch's self-signed certificate, so they are printed only when its ID is known.
    pub fn factory(hostname: &str, release: Option<Release>, certificate: Option<&str>) -> Config {
        let mut c = Config::empty();
        c.header.hostname = hostname.to_string();
        c.header.release = release.filter(|r| *r >= Release::HEADER_RELEASE);
        c.hostname = Some(hostname.to_string());
        c.quoted = release.is_some_and(|r| r >= Release::HEADER_RELEASE);
        let section = |title: &str, lines: &[&str]| SectionLayout {
            title: title.to_string(),
            verbatim: lines.iter().map(|l| (0, l.to_string())).collect(),
        };
        // All of these print at column 0.
        c.layout.sections.push(section(
            sections::TEMPORARY_PREFIX,
            &["no cli default prefix-modes enable"],
        ));
        c.layout.sections.push(section(
            sections::AAA_REMOTE,
            &[
                "# ldap bind-password ********",
                "# radius-server key ********",
                "# tacacs-server key ********",
            ],
        ));
        c.layout.sections.push(section(
            sections::NETWORK_MANAGEMENT,
            &["# web proxy auth basic password ********"],
        ));
        if let Some(id) = certificate {
            let cert = format!("# Certificate name system-self-signed, ID {id}");
            c.layout.sections.push(section(
                sections::X509,
                &[
                    "#",
                    &cert,
                    "# (public-cert config omitted since private-key config is hidden)",
                ],
            ));
        }
        c.layout.sections.push(section(
            sections::PERSISTENT_PREFIX,
            &["cli default prefix-modes enable"],
        ));
        c
    }

    /// The switch's name as its config says it: the `hostname` line, else the header's
    /// `## Hostname:` (a config without a `hostname` line still prints the name it runs with).
    pub fn name(&self) -> Option<&str> {
        self.hostname
            .as_deref()
            .filter(|h| !h.is_empty())
            .or(Some(self.header.hostname.as_str()).filter(|h| !h.is_empty()))
    }

    /// Adds a line the model does not know at the end of section `title`, as the switch
    /// prints it: indented by three spaces, except `no …` and `# …` lines. A new section goes
    /// where Onyx prints it (a title Onyx's order does not list: before the closing
    /// prefix-mode section).
    pub fn add_verbatim(&mut self, title: &str, line: &str) {
        let text = if line.starts_with("no ") || line.starts_with('#') {
            line.to_string()
        } else {
            format!("   {line}")
        };
        let at = match self.layout.sections.iter().position(|s| s.title == title) {
            Some(i) => i,
            None => {
                let rank = |t: &str| SECTION_ORDER.iter().position(|s| *s == t);
                let sections = &self.layout.sections;
                let i = match rank(title) {
                    Some(r) => sections
                        .iter()
                        .rposition(|s| rank(&s.title).is_some_and(|o| o < r))
                        .map_or(0, |i| i + 1),
                    None => sections
                        .iter()
                        .position(|s| s.title == sections::PERSISTENT_PREFIX)
                        .unwrap_or(sections.len()),
                };
                self.layout.sections.insert(
                    i,
                    SectionLayout {
                        title: title.to_string(),
                        verbatim: Vec::new(),
                    },
                );
                i
            }
        };
        self.layout.sections[at].verbatim.push((usize::MAX, text));
    }
}
