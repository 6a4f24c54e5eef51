//! What the lab's OS10 prints where no capture of OS10 shows the text: one table,
//! [`Unconfirmed::text`], every entry a choice, UNCONFIRMED on a switch; its texts of several
//! lines are named below it.

use crate::lab::Reply;

/// What the lab prints where no capture of OS10 shows the text; every entry is a choice,
/// UNCONFIRMED on a switch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unconfirmed {
    /// A command OS10 does not know in this mode.
    Unrecognized,
    /// A command cut short (`router bgp` without its AS).
    Incomplete,
    /// A change the configuration does not take (a second VLT domain, …).
    Rejected,
    /// `commit` or `discard` outside a transaction.
    NoTransaction,
    /// `start transaction` inside one.
    InTransaction,
    /// `show running-configuration interface X` of an interface with no configuration.
    NoSuchInterface,
    /// The pager's prompt while output longer than the terminal is shown.
    More,
    /// `copy running-configuration startup-configuration`'s and `copy
    /// running-configuration config://NAME`'s reply (the captured `Copy completed` is of a
    /// `copy` between files; `write memory` prints nothing, captured).
    CopyDone,
    /// `show ip bgp summary`'s first line, `{id}` and `{as}` replaced (the OS10 user guide's
    /// example of `show ip bgp summary`).
    BgpIdentifier,
    /// Its table's header (the same example).
    BgpHeader,
    /// A session that is not Established: its state where the prefix count would be.
    BgpActive,
    BgpIdle,
    /// `show ip bgp summary` on a switch without `router bgp`: nothing.
    NoBgp,
    /// `show ip route`: its first line where no default route is (the capture has one), an
    /// eBGP route's code (the capture's legend: `B - BGP, … EX - external BGP`), and the
    /// `Last Change` of a route no routing daemon keeps (the lab without `--dataplane`).
    RouteNoDefault,
    RouteBgp,
    RouteNoChange,
    /// `show ip interface brief`: an interface shut (the captures show none).
    AdminDown,
    /// `show users`' header and the dashes under it: the OS10 user guide's example, whose
    /// spacing is lost in the published text; the dashes' widths pad the columns. The idle
    /// time of a session idle a minute or more (`2m`, `3h`; the example shows `1.1s` and
    /// `>24h`) is the lab's choice.
    UsersHeader,
    /// A row's role (the lab has no roles: every login is an administrator) …
    UsersRole,
    /// … and its application (the example's `admin` row).
    UsersApplication,
    /// `dir config`'s header and dashes, published wrapped and with its spacing lost (CSM).
    DirHeader,
    /// `delete config://NAME`'s question, `{}` the file's URL: modeled on `delete
    /// startup-configuration`'s (captured, CSM).
    DeleteConfirm,
    /// `copy` or `delete` of a file `config://` does not have.
    NoSuchFile,
    /// `show vlt N` of a domain the switch does not have.
    NoVltDomain,
    /// The prompt of `port-group 1/1/N`'s mode, `{}` the group (`conf-pg-1/1/5`): the Dell
    /// OS10 user guide's examples as recalled, no capture.
    PortGroupPrompt,
    /// `show interface NAME priority-flow-control`: its first line, `{}` the interface
    /// (`ethernet1/1/9`, `port-channel1`); then the mode and status lines, the priorities
    /// paused, the frame counters and their per-priority table. The Dell OS10 user guide's
    /// example as recalled (its text could not be retrieved to compare), no capture.
    PfcInterface,
    /// `Admin mode is {}`: `priority-flow-control mode on` or not.
    PfcAdmin,
    /// `Oper status is {}`.
    PfcOper,
    /// The words of both: on …
    PfcEnabled,
    /// … and off.
    PfcDisabled,
    /// `PFC Priorities: {}`, the priorities as OS10 lists numbers (`3`, `3-4`), nothing
    /// after the colon when none.
    PfcPriorities,
    /// The frame counters' totals (`{rx}`, `{tx}`: what the port counted, [`super::counters`])
    /// and the per-priority table's header, a row per priority under it (`Cos`, `Rx`, `Tx`).
    PfcCounters,
    /// `| display-xml` after a command the lab has no XML document for (OS10 answers every
    /// `show` in XML; the lab only those whose document is captured, [`xml`]).
    XmlUnknown,
    /// The unit's ports of one speed, `{n}` of `{speed}` Gb/s, as the S6010-ON's `32x40GbE` is
    /// captured; several speeds joined by `, `.
    PortInfo,
    /// The ONIE platform name, `{}` the unit model in lower case (the S6010-ON's
    /// `x86_64-dell_s6010_c2538-r0` is captured; the CPU part is left out).
    PlatformName,
    /// The figures of the node no capture of the lab's models gives: the captured S6010-ON's
    /// (dellemc.os10's `show system | display-xml`), on every model. How many MACs …
    MacCount,
    /// … the hardware revision …
    HwVersion,
    /// … the unit's firmware, a line each, the version after the last space …
    Firmware,
    /// … how many power supplies and fan trays …
    Cooling,
    /// … a fan's speed, the air flow, a power supply's type (napalm-dellos10's `show
    /// inventory` fixture: `AC`) …
    FanRpm,
    AirFlow,
    PowerType,
    /// … and the medium of a cabled port (the capture's only one present: a 40G DAC; an
    /// empty port is `AR_POPTICS_NOTPRESENT`, captured).
    MediaType,
    /// `show system`'s text: the node and unit, then the power supplies' and fans' tables,
    /// as recalled from the Dell OS10 user guide's example (no capture; the fields are the
    /// XML document's).
    SystemNode,
    SystemPsus,
    SystemFans,
    /// `show processes node-id 1`: `top`'s header, `{now}` the time, `{up}` the uptime,
    /// `{users}` the logins; the load, task, CPU, memory and swap figures are the
    /// napalm-dellos10 fixture's.
    TopHeader,
    /// An LLDP neighbor's system description when it is not an OS10 switch (an OS10
    /// neighbor's `OS10` is captured).
    LldpOtherDesc,
}

impl Unconfirmed {
    /// The one table of unconfirmed texts.
    pub fn text(self) -> &'static str {
        match self {
            Unconfirmed::Unrecognized => "% Error: Unrecognized command.",
            Unconfirmed::Incomplete => "% Error: Incomplete command.",
            Unconfirmed::Rejected => "% Error: Configuration rejected.",
            Unconfirmed::NoTransaction => "% Error: No transaction in progress.",
            Unconfirmed::InTransaction => "% Error: A transaction is already in progress.",
            Unconfirmed::NoSuchInterface => "% Error: Interface has no configuration.",
            Unconfirmed::More => " --more-- ",
            Unconfirmed::CopyDone => "Copy completed",
            Unconfirmed::BgpIdentifier => "BGP router identifier {id} local AS number {as}",
            Unconfirmed::BgpHeader => {
                "Neighbor          AS          MsgRcvd     MsgSent     Up/Down         State/Pfx"
            }
            Unconfirmed::BgpActive => "Active",
            Unconfirmed::BgpIdle => "Idle",
            Unconfirmed::NoBgp => "",
            Unconfirmed::RouteNoDefault => "Gateway of last resort is not set",
            Unconfirmed::RouteBgp => "B EX",
            Unconfirmed::RouteNoChange => "00:00:00",
            Unconfirmed::AdminDown => "admin down",
            Unconfirmed::UsersHeader => USERS_HEADER,
            Unconfirmed::UsersRole => "sysadmin",
            Unconfirmed::UsersApplication => "bash",
            Unconfirmed::DirHeader => DIR_HEADER,
            Unconfirmed::DeleteConfirm => "Proceed to delete {} [confirm yes/no(default)]:",
            Unconfirmed::NoSuchFile => "% Error: File not found.",
            Unconfirmed::NoVltDomain => "% Error: VLT domain is not configured.",
            Unconfirmed::PortGroupPrompt => "conf-pg-{}",
            Unconfirmed::PfcInterface => "Interface {}",
            Unconfirmed::PfcAdmin => "Admin mode is {}",
            Unconfirmed::PfcOper => "Oper status is {}",
            Unconfirmed::PfcEnabled => "enabled",
            Unconfirmed::PfcDisabled => "disabled",
            Unconfirmed::PfcPriorities => "PFC Priorities: {}",
            Unconfirmed::PfcCounters => PFC_COUNTERS,
            Unconfirmed::XmlUnknown => "% Error: display-xml is not available for this command.",
            Unconfirmed::PortInfo => "{n}x{speed}GbE",
            Unconfirmed::PlatformName => "x86_64-dell_{}-r0",
            Unconfirmed::MacCount => "384",
            Unconfirmed::HwVersion => "X01",
            Unconfirmed::Firmware => "BIOS 3.26.0.1\nSystem CPLD 10\nMaster CPLD 9\nSlave CPLD 4",
            Unconfirmed::Cooling => "2 5",
            Unconfirmed::FanRpm => "22215",
            Unconfirmed::AirFlow => "NORMAL",
            Unconfirmed::PowerType => "AC",
            Unconfirmed::MediaType => "AR_QSFP_40GBASE_CR4_1M",
            Unconfirmed::SystemNode => SYSTEM_NODE,
            Unconfirmed::SystemPsus => SYSTEM_PSUS,
            Unconfirmed::SystemFans => SYSTEM_FANS,
            Unconfirmed::TopHeader => TOP_HEADER,
            Unconfirmed::LldpOtherDesc => "",
        }
    }

    /// The text as a reply line.
    pub(super) fn reply(self) -> Reply {
        Reply::text(format!("{}\n", self.text()))
    }
}

/// [`Unconfirmed::UsersHeader`]'s text.
const USERS_HEADER: &str = "Index Line User   Role   Application Idle Login-Time            Location\n\
     ----- ---- ------ ------ ----------- ---- --------------------- -------------";

/// [`Unconfirmed::DirHeader`]'s text.
const DIR_HEADER: &str = "Date (modified)       Size (bytes) Name\n\
     --------------------- ------------ ------------------------------------------";

/// [`Unconfirmed::PfcCounters`]'s text.
const PFC_COUNTERS: &str = "Total Rx PFC Frames: {rx}\n\
     Total Tx PFC frames: {tx}\n\
     Cos         Rx                  Tx\n\
     -----------------------------------------";

/// [`Unconfirmed::SystemNode`]'s text.
const SYSTEM_NODE: &str = "Node Id                    : 1\n\
     MAC                        : {mac}\n\
     Number of MACs             : {macs}\n\
     Up Time                    : {up}\n\
     \n\
     -- Unit 1 --\n\
     Status                     : up\n\
     System Identifier          : 1\n\
     Down Reason                : user-triggered\n\
     Required Type              : {model}\n\
     Current Type               : {model}\n\
     Hardware Revision          : {hw}\n\
     Software Version           : {release}\n\
     Physical Ports             : {ports}";

/// [`Unconfirmed::SystemPsus`]'s text.
const SYSTEM_PSUS: &str = "-- Power Supplies --\n\
     PSU-ID  Status      Type    AirFlow   Fan  Speed(rpm)  Status\n\
     ----------------------------------------------------------------";

/// [`Unconfirmed::SystemFans`]'s text.
const SYSTEM_FANS: &str = "-- Fan Status --\n\
     FanTray  Status      AirFlow   Fan  Speed(rpm)  Status\n\
     ----------------------------------------------------------------";

/// [`Unconfirmed::TopHeader`]'s text.
const TOP_HEADER: &str = "top - {now} up {up}, {users},  load average: 0.46, 0.46, 0.52\n\
     Tasks: 307 total,   3 running, 304 sleeping,   0 stopped,   0 zombie\n\
     %Cpu(s):  5.8 us,  4.2 sy,  0.0 ni, 89.7 id,  0.0 wa,  0.0 hi,  0.4 si,  0.0 st\n\
     KiB Mem : 16377708 total, 12885300 free,  2636032 used,   856376 buff/cache\n\
     KiB Swap:  1637768 total,  1637768 free,        0 used. 13417740 avail Mem\n\
     \x20 PID USER      PR  NI    VIRT    RES    SHR S  %CPU %MEM     TIME+ COMMAND";
