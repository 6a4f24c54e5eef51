//! What the lab's Onyx prints where no capture of Onyx shows the text: one table,
//! [`Unconfirmed::text`], every entry a choice, UNCONFIRMED on a switch.

use super::Reply;

/// What the lab prints where no capture of Onyx shows the text. The captures and the
/// reference (`onyx-cli.md` §c.4, §f.4) observe one error form only, `% Unrecognized
/// command "…".`; every entry here is a choice, UNCONFIRMED on a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unconfirmed {
    /// A word that begins several keywords.
    Ambiguous,
    /// A wrong answer to `enable`'s password prompt.
    EnableRefused,
    /// `configuration delete` of the file the switch boots from (a sibling TMS-based CLI
    /// documents that the active file cannot be deleted).
    DeleteActive,
    /// `configuration delete` of a file that does not exist.
    NoSuchFile,
    /// `show users`: the header of its table. The layout is a sibling TMS-based CLI's
    /// (`USERNAME  REMOTE USERNAME  LINE  HOST  IDLE`, idle as `0d 0h 0m 7s`), the session
    /// that asks marked `*`; no Onyx capture shows it.
    UsersHeader,
    /// A filter without its expression (`| include`).
    FilterIncomplete,
    /// A filter's expression that is not a regular expression.
    FilterRegex,
    /// `show snmp` with no read-only, read-write community: the line in the list's place
    /// (Onyx prints `No Listen Interfaces.` for an empty listen list, captured).
    SnmpNoReadOnly,
    SnmpNoReadWrite,
    /// `show snmp`'s empty listen list (captured as JSON) in text.
    SnmpNoListen,
    /// The lab's stand-in for Onyx's SHA-512 crypt of a typed password: SHA-1 of
    /// `NAME:PASSWORD` in hex, unsalted (a lab's test logins only; never a real crypt).
    PasswordHash,
    /// `show ip arp`: a blank line before its first (napalm-onyx reads entries from the
    /// eighth line; its fixture has a marker line there).
    ArpLayout,
    /// A new account's capability (`username NAME` alone).
    NewUserCapability,
    /// A new account's status before a password is set (the `onyx_username` fixture shows an
    /// account with no full name `Account disabled`).
    NewUserStatus,
    /// `show ip routing`: its line, from the value Ansible's `onyx_protocol` unit tests give
    /// `show ip routing | include "IP routing"`; no capture shows the whole output.
    IpRoutingLine,
    /// `| json-print` after a command the lab prints no JSON for.
    NoJson,
    /// `router bgp N` while an instance with another AS runs (one instance per VRF).
    BgpOtherAs,
    /// `ip address` on an Ethernet port still in switchport mode (before `no switchport
    /// force`).
    AddressOnSwitchport,
    /// `show ip bgp summary`: a session's state other than `ESTABLISHED/N` (captured), in the
    /// capture's upper case: the far end refused it (wrong AS, same router-id) …
    BgpIdle,
    /// … or nobody answers (no connected path, the link down, no such neighbor there).
    BgpActive,
    /// `show ip bgp summary`: Up/Down of a session that has never been up.
    BgpNeverUp,
    /// `show ip route`: a connected route's source and gateway columns (the captures show
    /// BGP and static routes only).
    RouteDirect,
    RouteNoGateway,
    /// `show mlag`: an admin status other than `Enabled`, an operational status or IPL state
    /// other than `Up`, a field with nothing to show.
    MlagDisabled,
    MlagDown,
    MlagNone,
    /// The prompt's role in an MLAG domain (`[mlag-domain: master]`, `standby`, both
    /// captured): which switch is master. The lab's choice: the one with the lower address on
    /// the peer link.
    MlagRole,
    /// An Ethernet port the switch's model does not have (`1/99` on a 32-port SN2700), or a
    /// subport of a port that is not split that way.
    NoSuchInterface,
    /// The layout of `?`'s help: a line per word that may follow, the word padded, then
    /// its help (the lab's own one-line texts; `<cr>`: the line may end there). A sibling
    /// TMS-based CLI documents `?` after the prompt, after a command and after part of a
    /// keyword, not its layout.
    HelpLayout,
    /// `show version`: the build date and builder of the lab's release (captures show
    /// `2024-07-25 08:02:01`, `sw-r2d2-bot@93c65e296280` for 3.10.4504; the lab imitates every
    /// release with one build).
    LabBuildDate,
    LabBuiltBy,
    /// `show inventory`: the chassis part number from the model (`{}`): the model's name as
    /// `show lldp local`'s captured `Mellanox MSN2700` spells it, without an ordering suffix.
    PartNumber,
    /// `show module`'s header: only its JSON is captured.
    ModuleHeader,
    /// `show ip interface brief`'s header: no Onyx capture shows the command.
    IpBriefHeader,
    /// `show interfaces switchport`'s header (only its JSON is captured) …
    SwitchportHeader,
    /// … and a trunk port's access VLAN there.
    TrunkAccessVlan,
    /// `show vlan`'s header: only its JSON is captured.
    VlanHeader,
    /// `show lldp remote`: the Port ID an Onyx neighbor sends for its port `{}` (captures show
    /// other vendors' neighbors only: `swp0`, `fortyGigE 0/52`).
    LldpPortId,
    /// `show lldp interfaces`' header: only its JSON is captured.
    LldpInterfacesHeader,
    /// `show traffic pool NAME` of a pool the switch does not have.
    NoSuchPool,
    /// `show interfaces … congestion-control`: the mode of a class marked `both` (ECN and
    /// RED). The capture shows `ECN`, `RED`, `none`; the Ansible reader lower-cases the mode
    /// and expects `both`.
    EcnBoth,
    /// `show roce` without `roce`: its mode …
    RoceOff,
    /// … a setting the Ethernet ports do not share …
    RoceMixed,
    /// … and a field `roce` would fill (the application TLV, congestion control).
    RoceNone,
    /// `show interfaces ethernet [X] counters pfc prio N`: the counters of a priority's Rx
    /// and Tx blocks, in order (comma-separated). `pause packets` is what a client's parser
    /// of this command reads (`(\d+)\s*pause packets`); the others are the MELLANOX-QOS-MIB's
    /// per-priority objects (packets, bytes, pause packets, pause duration). No capture.
    PfcCounters,
    /// `show interfaces ethernet [X] counters tc N`: the counters of a traffic class's Tx
    /// block, in order. No capture (a survey script sends the command; its output is not
    /// shown).
    TcCounters,
}

impl Unconfirmed {
    /// The one table of unconfirmed texts; `{}` stands for the word or number at fault.
    pub fn text(self) -> &'static str {
        match self {
            Unconfirmed::Ambiguous => "% Ambiguous command \"{}\".",
            Unconfirmed::EnableRefused => "% Authentication failed.",
            Unconfirmed::DeleteActive => "% Cannot delete the active configuration file \"{}\".",
            Unconfirmed::NoSuchFile => "% Configuration file \"{}\" does not exist.",
            Unconfirmed::UsersHeader => {
                "  USERNAME    REMOTE USERNAME   LINE          HOST                IDLE"
            }
            Unconfirmed::FilterIncomplete => "% Incomplete command after \"{}\".",
            Unconfirmed::FilterRegex => "% Invalid regular expression \"{}\".",
            Unconfirmed::SnmpNoReadOnly => "No read-only communities.",
            Unconfirmed::SnmpNoReadWrite => "No read-write communities.",
            Unconfirmed::SnmpNoListen => "No Listen Interfaces.",
            Unconfirmed::PasswordHash => "$6$lab${}",
            Unconfirmed::ArpLayout => "\n",
            Unconfirmed::NewUserCapability => "admin",
            Unconfirmed::NewUserStatus => "Account disabled",
            Unconfirmed::IpRoutingLine => "IP routing: {}",
            Unconfirmed::NoJson => "% json-print is not supported for \"{}\".",
            Unconfirmed::BgpOtherAs => "% BGP is already running with AS {}.",
            Unconfirmed::AddressOnSwitchport => {
                "% Interface {} is a switchport; run `no switchport force` first."
            }
            Unconfirmed::BgpIdle => "IDLE",
            Unconfirmed::BgpActive => "ACTIVE",
            Unconfirmed::BgpNeverUp => "never",
            Unconfirmed::RouteDirect => "direct",
            Unconfirmed::RouteNoGateway => "0.0.0.0",
            Unconfirmed::MlagDisabled => "Disabled",
            Unconfirmed::MlagDown => "Down",
            Unconfirmed::MlagNone => "N/A",
            Unconfirmed::MlagRole => "master if the lower peer-link address, else standby",
            Unconfirmed::NoSuchInterface => "% Interface {} does not exist.",
            Unconfirmed::HelpLayout => "  {}",
            Unconfirmed::LabBuildDate => "2025-01-01 00:00:00",
            Unconfirmed::LabBuiltBy => "fabric-lab@lab",
            Unconfirmed::PartNumber => "M{}",
            Unconfirmed::ModuleHeader => "Module            Status",
            Unconfirmed::IpBriefHeader => {
                "Interface         Address/Mask        Admin-state   Oper-state   MTU     VRF"
            }
            Unconfirmed::SwitchportHeader => {
                "Interface           Mode                Access vlan         Allowed vlans"
            }
            Unconfirmed::TrunkAccessVlan => "N/A",
            Unconfirmed::VlanHeader => "VLAN    Name                                      Ports",
            Unconfirmed::LldpPortId => "Eth{}",
            Unconfirmed::LldpInterfacesHeader => "Interface       Receive     Transmit    TLVs",
            Unconfirmed::NoSuchPool => "% Traffic pool \"{}\" does not exist.",
            Unconfirmed::EcnBoth => "Both",
            Unconfirmed::RoceOff => "disabled",
            Unconfirmed::RoceMixed => "mixed",
            Unconfirmed::RoceNone => "N/A",
            Unconfirmed::PfcCounters => "packets,bytes,pause packets,pause duration",
            Unconfirmed::TcCounters => "packets,bytes,no buffer discard,wred discard",
        }
    }

    /// The text with `{}` filled in, as a reply line.
    pub fn reply(self, arg: &str) -> Reply {
        Reply::text(format!("{}\n", self.text().replace("{}", arg)))
    }
}
