//! A host report: the transcript of read-only commands run on a host, each after a line
//! naming it (`root@gpu01:~# mlnx_qos -i ens1f0`, `[root@esxi01:~] cmd`, `$ cmd`, `+ cmd` as
//! `sh -x` prints), read
//! into what the host's NIC is set to. Anything the reader does not know — a command that is
//! not one of the report's, an output line it cannot place, an output cut short — is an
//! error at its file:line, never skipped: an audit must not pass a report it did not read.
//!
//! The formats, and how sure each is:
//!
//! | command | output read | source |
//! |---|---|---|
//! | `mlnx_qos -i IF` | DCBX mode, trust, dscp2prio, PFC, TCs with tsa/bw and priorities | captures: att/netarbiter, doc-id69764464742, blog-id310222282 (`tests/fixtures/corpus/hosts/`) |
//! | `cat /sys/class/infiniband/DEV/tc/1/traffic_class` | `Global tclass=N` | capture: spiderpool `rdma-qos.sh q`; empty when never set [unconfirmed] |
//! | `cma_roce_tos -d DEV` | the ToS, one number | the set form prints the value (att/netarbiter capture); the read form [unconfirmed] |
//! | `grep -H . /sys/class/net/IF/ecn/…` | one `PATH:VALUE` line per file (grep's `-H`: the file name before each match); a file the driver lacks prints `grep: PATH: No such file or directory` (with `2>&1`) | values: capture spiderpool `rdma-qos.sh q` (`roce_np/enable/N = 1`, `roce_rp/enable/N = 1`, `roce_np/cnp_dscp = 48`); the `PATH:VALUE` and error lines are GNU grep's [unconfirmed: no capture of grep over these files] |
//! | `ip link show IF` | `N: IF: <FLAGS> mtu M …` | iproute2 ip-link(8) [unconfirmed: no capture in the corpus] |
//! | `esxcli system module parameters list -m MODULE` | columns Name / Type / Value / Description, each as wide as its widest cell, under a rule of dashes; a row blank up to the Description column continues the description above | layout: capture vcdx200 (`-m bnx2x`, `tests/fixtures/corpus/hosts/`); a description on several lines: the SMTX OS guide's `-m nmlx5_core` excerpt (same folder) [unconfirmed: both published with their spacing collapsed; no listing of nmlx5_core or nmlx5_rdma with its spacing exists in the corpus] |
//! | `esxcli network ip interface list` | a block per vmknic: `Name:`, `Portset:`, `MTU:` | VMware ESXCLI reference [unconfirmed: no capture] |
//! | `esxcli network vswitch standard list` | a block per vSwitch: `Name:`, `MTU:`, `Uplinks:` | VMware ESXCLI reference [unconfirmed: no capture] |
//! | `date +%s.%N` | seconds and nanoseconds since 1970: a counter reading starts with it | coreutils date(1) |
//! | `ethtool -S IF` | `NIC statistics:`, then `     name: value` | capture: blog-id60942567937 (`tests/fixtures/corpus/hosts/counters/`) |
//! | `grep -H . /sys/class/infiniband/DEV/ports/1/hw_counters/…` | `PATH:VALUE` per file, as the DCQCN files | one integer per file: capture blog-id60891034733 (same folder) |
//! | `sleep N` | nothing | the wait between two readings |

use std::collections::BTreeMap;

use super::counters::{self, Reading, Stats};

/// A value and the report line it was read from (1-based), with the line as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<T> {
    pub value: T,
    pub line: usize,
    pub text: String,
}

/// One traffic class of `mlnx_qos`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tc {
    /// `ets`, `strict` or `vendor`.
    pub tsa: String,
    pub bw: Option<u8>,
    pub priorities: Vec<u8>,
    pub line: usize,
    pub text: String,
}

/// What `mlnx_qos -i IF` says of one interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MlnxQos {
    /// `OS controlled` or `Firmware controlled`.
    pub dcbx: Option<Located<String>>,
    /// `pcp` or `dscp`.
    pub trust: Located<String>,
    /// Each priority's DSCP values (under trust dscp).
    pub dscp2prio: BTreeMap<u8, Located<Vec<u8>>>,
    /// PFC enabled, priority 0 first.
    pub pfc: Located<[bool; 8]>,
    pub tcs: BTreeMap<u8, Tc>,
}

impl MlnxQos {
    /// The priority a DSCP is mapped to, and the line that says so.
    pub fn priority_of(&self, dscp: u8) -> Option<(u8, &Located<Vec<u8>>)> {
        self.dscp2prio
            .iter()
            .find(|(_, l)| l.value.contains(&dscp))
            .map(|(p, l)| (*p, l))
    }
}

/// A DCQCN file of an interface's sysfs `ecn` folder: the notification point's (it answers
/// CE-marked RoCE with congestion notification packets) and the reaction point's (it slows
/// down on them) switch per priority, and the DSCP CNPs are sent with (MLNX_OFED user
/// manual, "Explicit Congestion Notification (ECN)": `/sys/class/net/<interface>/ecn/
/// <protocol>/enable/X`, protocol `roce_np` or `roce_rp`, X a priority; `roce_np/cnp_dscp`:
/// the spiderpool capture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EcnFile {
    Np(u8),
    Rp(u8),
    CnpDscp,
}

impl EcnFile {
    /// The file's path for an interface.
    pub fn path(self, iface: &str) -> String {
        match self {
            EcnFile::Np(p) => format!("/sys/class/net/{iface}/ecn/roce_np/enable/{p}"),
            EcnFile::Rp(p) => format!("/sys/class/net/{iface}/ecn/roce_rp/enable/{p}"),
            EcnFile::CnpDscp => format!("/sys/class/net/{iface}/ecn/roce_np/cnp_dscp"),
        }
    }

    /// The interface and file a path names, when it is one of these files.
    pub fn of(path: &str) -> Option<(&str, EcnFile)> {
        let (iface, file) = path.strip_prefix("/sys/class/net/")?.split_once("/ecn/")?;
        let priority = |s: &str| s.parse::<u8>().ok().filter(|p| *p < 8);
        let file = match file.split_once("/enable/") {
            Some(("roce_np", p)) => EcnFile::Np(priority(p)?),
            Some(("roce_rp", p)) => EcnFile::Rp(priority(p)?),
            Some(_) => return None,
            None if file == "roce_np/cnp_dscp" => EcnFile::CnpDscp,
            None => return None,
        };
        Some((iface, file))
    }
}

/// What an interface's DCQCN files hold (`None`: the file does not exist).
pub type Ecn = BTreeMap<EcnFile, Located<Option<u8>>>;

/// A module's parameters by name (`None`: no value set), as esxcli lists them.
pub type Params = BTreeMap<String, Located<Option<String>>>;

/// A VMkernel interface or a vSwitch, as esxcli lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EsxiNet {
    pub mtu: Located<u16>,
    /// A vmknic's vSwitch (`Portset`).
    pub portset: Option<String>,
}

/// A host's report, read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostReport {
    /// `mlnx_qos` by interface (the last one run, when several are).
    pub qos: BTreeMap<String, Located<MlnxQos>>,
    /// Interface MTU (`ip link show`).
    pub mtu: BTreeMap<String, Located<u16>>,
    /// sysfs `traffic_class` by RDMA device (`None`: empty, never set).
    pub traffic_class: BTreeMap<String, Located<Option<u8>>>,
    /// `cma_roce_tos` by RDMA device.
    pub roce_tos: BTreeMap<String, Located<u8>>,
    /// The DCQCN files read, by interface.
    pub ecn: BTreeMap<String, Located<Ecn>>,
    /// Each ESXi module's parameters (`nmlx5_core`, `nmlx5_rdma`), where their list was read.
    pub modules: BTreeMap<String, Located<Params>>,
    pub vmknics: Option<Located<BTreeMap<String, EsxiNet>>>,
    pub vswitches: Option<Located<BTreeMap<String, EsxiNet>>>,
    /// The counter readings, in the report's order (each from a `date +%s.%N`).
    pub readings: Vec<Reading>,
}

/// Why a report could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportError {
    pub line: usize,
    pub message: String,
}

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, ReportError> {
    Err(ReportError {
        line,
        message: message.into(),
    })
}

/// The commands a report holds, as the reader knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Command {
    MlnxQos(String),
    IpLink(String),
    TrafficClass(String),
    RoceTos(String),
    Ecn(String, Vec<EcnFile>),
    EsxParams(String),
    EsxInterfaces,
    EsxVswitches,
    Date,
    Ethtool(String),
    HwCounters(String, Vec<&'static str>),
    Sleep,
}

/// The most a host report may have, read from a file or from a host: a report of every
/// command for eight NICs is tens of KB.
pub const MAX_BYTES: u64 = 16 << 20;

const KNOWN: &str = "`mlnx_qos -i IF`, `ip link show IF`, `grep -H . /sys/class/net/IF/ecn/…`, `cat /sys/class/infiniband/DEV/tc/1/traffic_class`, `cma_roce_tos -d DEV`, `esxcli system module parameters list -m MODULE`, `esxcli network ip interface list`, `esxcli network vswitch standard list`, `date +%s.%N`, `ethtool -S IF`, `grep -H . /sys/class/infiniband/DEV/ports/1/hw_counters/…`, `sleep N`";

/// The command a prompt line names: `user@host:dir# cmd`, `user@host:dir$ cmd`,
/// `[user@host dir]$ cmd`, `$ cmd`, `# cmd`, `+ cmd`.
pub fn prompt(line: &str) -> Option<&str> {
    for p in ["$ ", "# ", "+ "] {
        if let Some(rest) = line.strip_prefix(p) {
            return Some(rest.trim());
        }
    }
    if line.starts_with('[') {
        // `[grant@host ~]$ cmd` (bash on RHEL), `[root@esxi01:~] cmd` (the ESXi shell).
        for p in ["]$ ", "]# ", "] "] {
            if let Some(at) = line.find(p)
                && line[..at].contains('@')
            {
                return Some(line[at + p.len()..].trim());
            }
        }
        return None;
    }
    let (first, rest) = line.split_once(' ')?;
    (first.contains('@') && (first.ends_with('#') || first.ends_with('$'))).then(|| rest.trim())
}

fn command(cmd: &str) -> Option<Command> {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    let words = match words.as_slice() {
        ["sudo", rest @ ..] => rest,
        all => all,
    };
    let name = |s: &str| {
        (!s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-@".contains(c)))
        .then(|| s.to_string())
    };
    Some(match words {
        ["mlnx_qos", "-i", iface, rest @ ..]
            if rest.iter().all(|w| !w.contains(['>', '|', ';'])) =>
        {
            Command::MlnxQos(name(iface)?)
        }
        ["ip", "link", "show", iface]
        | ["ip", "-d", "link", "show", iface]
        | ["ip", "link", "show", "dev", iface]
        | ["ip", "-d", "link", "show", "dev", iface] => Command::IpLink(name(iface)?),
        ["cat", path] => {
            let dev = path
                .strip_prefix("/sys/class/infiniband/")?
                .strip_suffix("/tc/1/traffic_class")?;
            Command::TrafficClass(name(dev)?)
        }
        ["grep", "-H", ".", paths @ ..]
            if paths.first().is_some_and(|p| counters::hw_of(p).is_some()) =>
        {
            let mut names = Vec::new();
            let mut dev = None;
            for path in paths {
                let (d, n) = counters::hw_of(path)?;
                if dev.is_some_and(|seen| seen != d) || names.contains(&n) {
                    return None;
                }
                dev = Some(d);
                names.push(n);
            }
            Command::HwCounters(name(dev?)?, names)
        }
        ["grep", "-H", ".", paths @ ..] if !paths.is_empty() => {
            let mut files = Vec::new();
            let mut iface = None;
            for path in paths {
                let (i, f) = EcnFile::of(path)?;
                if iface.is_some_and(|seen| seen != i) || files.contains(&f) {
                    return None;
                }
                iface = Some(i);
                files.push(f);
            }
            Command::Ecn(name(iface?)?, files)
        }
        ["cma_roce_tos", "-d", dev] | ["cma_roce_tos", "-d", dev, "-p", "1"] => {
            Command::RoceTos(name(dev)?)
        }
        ["cma_roce_tos", "-d", dev, "-t", tos] if tos.parse::<u8>().is_ok() => {
            Command::RoceTos(name(dev)?)
        }
        [
            "esxcli",
            "system",
            "module",
            "parameters",
            "list",
            "-m",
            module,
        ] => Command::EsxParams(name(module)?),
        ["esxcli", "network", "ip", "interface", "list"] => Command::EsxInterfaces,
        ["esxcli", "network", "vswitch", "standard", "list"] => Command::EsxVswitches,
        ["date", "+%s.%N"] => Command::Date,
        ["ethtool", "-S", iface] => Command::Ethtool(name(iface)?),
        ["sleep", n] if n.parse::<u32>().is_ok() => Command::Sleep,
        _ => return None,
    })
}

/// Reads a report. Output before the first command, an unknown command, or output that is
/// not what its command prints is an error at its line.
pub fn parse(text: &str) -> Result<HostReport, ReportError> {
    // A report captured from a terminal: what the terminal added goes, as for running configs.
    let text = crate::input::strip_terminal(text);
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut report = HostReport::default();
    let mut i = 0;
    while i < lines.len() && lines[i].trim().is_empty() {
        i += 1;
    }
    if i == lines.len() {
        return fail(1, "the report is empty");
    }
    while i < lines.len() {
        let Some(cmd) = prompt(lines[i]) else {
            return fail(
                i + 1,
                "output before any command: a report is the transcript of its commands, each after a line naming it (`$ mlnx_qos -i ens1f0`)",
            );
        };
        let Some(command) = command(cmd) else {
            return fail(
                i + 1,
                format!(
                    "`{}` is not a command a host report holds ({KNOWN})",
                    cmd.escape_debug()
                ),
            );
        };
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && prompt(lines[end]).is_none() {
            end += 1;
        }
        // Trailing blank lines belong to no command.
        let mut last = end;
        while last > start && lines[last - 1].trim().is_empty() {
            last -= 1;
        }
        let block = Block {
            lines: &lines[start..last],
            first: start + 1,
            prompt: i + 1,
        };
        match command {
            Command::MlnxQos(iface) => {
                let q = mlnx_qos(&block)?;
                report.qos.insert(iface, block.at_prompt(lines[i], q));
            }
            Command::IpLink(iface) => {
                let m = ip_link(&block, &iface)?;
                report.mtu.insert(iface, m);
            }
            Command::TrafficClass(dev) => {
                let t = traffic_class(&block)?;
                report.traffic_class.insert(dev, t);
            }
            Command::RoceTos(dev) => {
                let t = roce_tos(&block)?;
                report.roce_tos.insert(dev, t);
            }
            Command::Ecn(iface, files) => {
                let e = ecn(&block, &iface, &files)?;
                report.ecn.insert(iface, block.at_prompt(lines[i], e));
            }
            Command::EsxParams(module) => {
                let p = esx_params(&block)?;
                report.modules.insert(module, block.at_prompt(lines[i], p));
            }
            Command::EsxInterfaces => {
                let v = esx_blocks(&block, "VMkernel interface")?;
                report.vmknics = Some(block.at_prompt(lines[i], v));
            }
            Command::EsxVswitches => {
                let v = esx_blocks(&block, "vSwitch")?;
                report.vswitches = Some(block.at_prompt(lines[i], v));
            }
            Command::Date | Command::Ethtool(_) | Command::HwCounters(..) | Command::Sleep => {
                counter_command(&mut report.readings, command, &block, lines[i])?;
            }
        }
        i = end;
    }
    Ok(report)
}

/// One command's output lines, the report line of the first, and of its prompt.
struct Block<'a> {
    lines: &'a [&'a str],
    first: usize,
    prompt: usize,
}

impl Block<'_> {
    fn at_prompt<T>(&self, text: &str, value: T) -> Located<T> {
        Located {
            value,
            line: self.prompt,
            text: text.trim().to_string(),
        }
    }

    fn located<T>(&self, k: usize, value: T) -> Located<T> {
        Located {
            value,
            line: self.first + k,
            text: self.lines[k].trim().to_string(),
        }
    }

    /// The report line after the block's last, for "ends before" errors.
    fn end(&self) -> usize {
        self.first + self.lines.len()
    }
}

fn number<T: std::str::FromStr>(s: &str, line: usize, what: &str) -> Result<T, ReportError> {
    s.trim()
        .parse()
        .or_else(|_| fail(line, format!("`{}` is not {what}", s.trim().escape_debug())))
}

/// The ranges of a report's numbers: a priority (802.1p, 0-7, as `mlnx_qos` numbers its PFC
/// table), a traffic class (8 on ConnectX), a DSCP (6 bits), an ETS share in percent, an MTU
/// (IPv4's least, 68, to the 16 bits `ip link` and esxcli print). A value outside is not what
/// the tool prints: an error at its line, never a value the rules judge.
const PRIORITY: (&str, std::ops::RangeInclusive<u16>) = ("a priority", 0..=7);
const TRAFFIC_CLASS: (&str, std::ops::RangeInclusive<u16>) = ("a traffic class", 0..=7);
const DSCP: (&str, std::ops::RangeInclusive<u16>) = ("a DSCP", 0..=63);
const PERCENT: (&str, std::ops::RangeInclusive<u16>) = ("a percentage", 0..=100);
const MTU: (&str, std::ops::RangeInclusive<u16>) = ("an MTU", 68..=u16::MAX);

/// A number of a report in its range ([`PRIORITY`] …).
fn ranged<T: TryFrom<u16>>(
    s: &str,
    line: usize,
    (what, range): (&str, std::ops::RangeInclusive<u16>),
) -> Result<T, ReportError> {
    let (lo, hi) = (*range.start(), *range.end());
    let v: u16 = number(s, line, &format!("{what} ({lo}-{hi})"))?;
    match T::try_from(v) {
        Ok(t) if range.contains(&v) => Ok(t),
        _ => fail(line, format!("`{v}` is not {what} ({lo}-{hi})")),
    }
}

/// `mlnx_qos -i IFACE`: DCBX mode, trust, the DSCP map, the PFC table and the traffic
/// classes, each line read or refused.
fn mlnx_qos(b: &Block) -> Result<MlnxQos, ReportError> {
    let mut r = QosReader::default();
    for (k, raw) in b.lines.iter().enumerate() {
        let t = raw.trim();
        if !t.is_empty() {
            r.line(b, k, t)?;
        }
    }
    r.finish(b)
}

/// What `mlnx_qos` has printed so far, and where in its output the reader is.
#[derive(Default)]
struct QosReader {
    dcbx: Option<Located<String>>,
    trust: Option<Located<String>>,
    dscp2prio: BTreeMap<u8, Located<Vec<u8>>>,
    pfc: Option<Located<[bool; 8]>>,
    tcs: BTreeMap<u8, Tc>,
    current_tc: Option<u8>,
    in_pfc: bool,
}

impl QosReader {
    /// One line (trimmed, not empty): kept, skipped as known, or refused.
    fn line(&mut self, b: &Block, k: usize, t: &str) -> Result<(), ReportError> {
        let line = b.first + k;
        if let Some(v) = t.strip_prefix("DCBX mode:") {
            self.dcbx = Some(b.located(k, v.trim().to_string()));
        } else if let Some(v) = t.strip_prefix("Priority trust state:") {
            let v = v.trim();
            if v != "pcp" && v != "dscp" {
                return fail(
                    line,
                    format!("trust state `{}` is neither pcp nor dscp", v.escape_debug()),
                );
            }
            self.trust = Some(b.located(k, v.to_string()));
        } else if t == "dscp2prio mapping:" || t == "default priority:" || t == "PFC configuration:"
        {
            self.in_pfc = t == "PFC configuration:";
        } else if let Some(rest) = t.strip_prefix("prio:") {
            let (p, values) = dscp2prio(rest, line)?;
            self.dscp2prio.insert(p, b.located(k, values));
        } else if t.starts_with("Receive buffer size") || t.starts_with("Cable len:") {
        } else if self.in_pfc && t.starts_with("priority ") {
            let header: Vec<&str> = t.split_whitespace().skip(1).collect();
            if header != ["0", "1", "2", "3", "4", "5", "6", "7"] {
                return fail(line, "the PFC table's header is not priorities 0-7");
            }
        } else if self.in_pfc && t.starts_with("enabled ") {
            self.pfc = Some(b.located(k, pfc_row(t, line)?));
        } else if self.in_pfc && t.starts_with("buffer ") {
        } else if let Some(rest) = t.strip_prefix("tc:") {
            self.in_pfc = false;
            let (n, tc) = tc_line(rest, line, t)?;
            self.tcs.insert(n, tc);
            self.current_tc = Some(n);
        } else if let Some(p) = t.strip_prefix("priority:") {
            let Some(tc) = self.current_tc.and_then(|c| self.tcs.get_mut(&c)) else {
                return fail(line, "a priority line outside a traffic class");
            };
            tc.priorities.push(ranged(p, line, PRIORITY)?);
        } else {
            return fail(
                line,
                format!("`{}` is not a line mlnx_qos prints", t.escape_debug()),
            );
        }
        Ok(())
    }

    /// The output read whole: trust, the PFC row and the traffic classes are there.
    fn finish(self, b: &Block) -> Result<MlnxQos, ReportError> {
        let Some(trust) = self.trust else {
            return fail(
                b.end(),
                "the mlnx_qos output has no `Priority trust state:` line: cut short or not mlnx_qos",
            );
        };
        let Some(pfc) = self.pfc else {
            return fail(
                b.end(),
                "the mlnx_qos output ends before its PFC `enabled` row: cut short",
            );
        };
        if self.tcs.is_empty() {
            return fail(
                b.end(),
                "the mlnx_qos output ends before its traffic classes: cut short",
            );
        }
        Ok(MlnxQos {
            dcbx: self.dcbx,
            trust,
            dscp2prio: self.dscp2prio,
            pfc,
            tcs: self.tcs,
        })
    }
}

/// A dscp2prio line after its `prio:`: `N dscp:D,D,…,`.
fn dscp2prio(rest: &str, line: usize) -> Result<(u8, Vec<u8>), ReportError> {
    let (p, dscps) = rest
        .split_once(" dscp:")
        .ok_or(())
        .or_else(|()| fail(line, "a dscp2prio line reads `prio:N dscp:D,D,…,`"))?;
    let p: u8 = ranged(p, line, PRIORITY)?;
    let values = dscps
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|d| ranged::<u8>(d, line, DSCP))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((p, values))
}

/// The PFC table's `enabled` row: eight 0 or 1, priority 0 first.
fn pfc_row(t: &str, line: usize) -> Result<[bool; 8], ReportError> {
    let v: Vec<&str> = t.split_whitespace().skip(1).collect();
    if v.len() != 8 || v.iter().any(|x| *x != "0" && *x != "1") {
        return fail(line, "the PFC `enabled` row is not eight 0 or 1");
    }
    let mut on = [false; 8];
    for (p, x) in v.iter().enumerate() {
        on[p] = *x == "1";
    }
    Ok(on)
}

/// A traffic class line after its `tc:`: its number, `tsa:` and `bw:`.
fn tc_line(rest: &str, line: usize, t: &str) -> Result<(u8, Tc), ReportError> {
    let (n, rest) = rest.trim().split_once(' ').unwrap_or((rest.trim(), ""));
    let n: u8 = ranged(n, line, TRAFFIC_CLASS)?;
    let tsa = rest
        .split(',')
        .find_map(|f| f.trim().strip_prefix("tsa:"))
        .map(|s| s.trim().to_string());
    let Some(tsa) = tsa else {
        return fail(line, "a traffic class line without `tsa:`");
    };
    let bw = match rest.split(',').find_map(|f| f.trim().strip_prefix("bw:")) {
        Some(v) => Some(ranged(v.trim().trim_end_matches('%'), line, PERCENT)?),
        None => None,
    };
    let tc = Tc {
        tsa,
        bw,
        priorities: Vec::new(),
        line,
        text: t.to_string(),
    };
    Ok((n, tc))
}

/// `4: ens1f0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 9000 qdisc mq state UP …`.
fn ip_link(b: &Block, iface: &str) -> Result<Located<u16>, ReportError> {
    let Some(first) = b.lines.first() else {
        return fail(b.prompt, "`ip link show` printed nothing");
    };
    let line = b.first;
    let mut words = first.split_whitespace();
    let index = words.next().unwrap_or("");
    let name = words.next().unwrap_or("");
    let shown = name.trim_end_matches(':');
    let shown = shown.split('@').next().unwrap_or(shown);
    if !index.ends_with(':')
        || index.trim_end_matches(':').parse::<u32>().is_err()
        || shown != iface
    {
        return fail(
            line,
            format!(
                "`{}` is not `ip link show {iface}` output (`N: {iface}: <…> mtu M …`)",
                first.trim().escape_debug()
            ),
        );
    }
    let rest: Vec<&str> = words.collect();
    let Some(at) = rest.iter().position(|w| *w == "mtu") else {
        return fail(line, "no `mtu` on the interface line");
    };
    let mtu = ranged(rest.get(at + 1).copied().unwrap_or(""), line, MTU)?;
    for (k, l) in b.lines.iter().enumerate().skip(1) {
        if !l.starts_with(' ') && !l.trim().is_empty() {
            return fail(
                b.first + k,
                format!(
                    "`{}` is not a line `ip link show` prints",
                    l.trim().escape_debug()
                ),
            );
        }
    }
    Ok(b.located(0, mtu))
}

/// `Global tclass=106`, or nothing when never set.
fn traffic_class(b: &Block) -> Result<Located<Option<u8>>, ReportError> {
    match b.lines {
        [] => Ok(Located {
            value: None,
            line: b.prompt,
            text: String::new(),
        }),
        [one] => {
            let Some(v) = one.trim().strip_prefix("Global tclass=") else {
                return fail(
                    b.first,
                    format!(
                        "`{}` is not a traffic_class (`Global tclass=N`)",
                        one.trim().escape_debug()
                    ),
                );
            };
            Ok(b.located(0, Some(number(v, b.first, "a traffic class")?)))
        }
        _ => fail(b.first + 1, "traffic_class prints one line"),
    }
}

fn roce_tos(b: &Block) -> Result<Located<u8>, ReportError> {
    match b.lines {
        [one] => Ok(b.located(0, number(one, b.first, "a ToS (0-255)")?)),
        [] => fail(b.prompt, "`cma_roce_tos` printed nothing"),
        _ => fail(b.first + 1, "`cma_roce_tos` prints one number"),
    }
}

/// One line `grep -H . FILE…` prints (`t`, trimmed, at `line`): which of the files asked (each
/// of `items` at its `path`) it answers, with its value, or with none for grep's `No such file
/// or directory`.
fn grep_line<'t, T: Copy>(
    t: &'t str,
    line: usize,
    items: &[T],
    path: impl Fn(&T) -> String,
) -> Result<(T, Option<&'t str>), ReportError> {
    let found = items.iter().find_map(|item| {
        let path = path(item);
        if let Some(v) = t.strip_prefix(&path).and_then(|r| r.strip_prefix(':')) {
            Some((*item, Some(v)))
        } else {
            (t == format!("grep: {path}: No such file or directory")).then_some((*item, None))
        }
    });
    match found {
        Some(found) => Ok(found),
        None => fail(
            line,
            format!(
                "`{}` is not a line `grep -H` prints for the files asked (`PATH:VALUE`, or `grep: PATH: No such file or directory`)",
                t.escape_debug()
            ),
        ),
    }
}

/// `grep -H . FILE…`: `FILE:VALUE` for each file asked, or grep's `No such file or
/// directory` for one the driver does not have. Every file asked must be answered once.
fn ecn(b: &Block, iface: &str, files: &[EcnFile]) -> Result<Ecn, ReportError> {
    let mut out = Ecn::new();
    for (k, row) in b.lines.iter().enumerate() {
        let line = b.first + k;
        let t = row.trim();
        if t.is_empty() {
            continue;
        }
        let (file, value) = grep_line(t, line, files, |f| f.path(iface))?;
        let value = match (file, value) {
            (_, None) => None,
            (EcnFile::CnpDscp, Some(v)) => Some(ranged::<u8>(v, line, DSCP)?),
            (_, Some(v)) => match v.trim() {
                "0" => Some(0),
                "1" => Some(1),
                other => {
                    return fail(
                        line,
                        format!(
                            "`{}` is not 0 or 1 (an ECN enable file)",
                            other.escape_debug()
                        ),
                    );
                }
            },
        };
        if out.insert(file, b.located(k, value)).is_some() {
            return fail(line, format!("{} is printed twice", file.path(iface)));
        }
    }
    if let Some(f) = files.iter().find(|f| !out.contains_key(f)) {
        return fail(
            b.end(),
            format!(
                "the grep output ends before a line for {}: cut short",
                f.path(iface)
            ),
        );
    }
    Ok(out)
}

/// `Name  Type  Value  Description` over a rule of dashes; each row's columns cut where the
/// rule's dashes are. A row with nothing before the Description column carries on the
/// description of the row above (nmlx5_core's `max_vfs` lists its values and default on
/// lines of their own in the SMTX OS guide's excerpt).
fn esx_params(b: &Block) -> Result<Params, ReportError> {
    let (Some(head), Some(rule)) = (b.lines.first(), b.lines.get(1)) else {
        return fail(
            b.end(),
            "the parameter list ends before its header and rule: cut short",
        );
    };
    let names: Vec<&str> = head.split_whitespace().collect();
    if names != ["Name", "Type", "Value", "Description"] {
        return fail(
            b.first,
            "the parameter list's header is not `Name Type Value Description`",
        );
    }
    // Column starts: where each run of dashes begins.
    let mut cols = Vec::new();
    let mut prev = ' ';
    for (i, c) in rule.char_indices() {
        if c == '-' && prev != '-' {
            cols.push(i);
        } else if c != '-' && c != ' ' {
            return fail(
                b.first + 1,
                "the rule under the header is not dashes and spaces",
            );
        }
        prev = c;
    }
    if cols.len() != 4 {
        return fail(
            b.first + 1,
            "the rule under the header has not four columns",
        );
    }
    let mut out = BTreeMap::new();
    for (k, row) in b.lines.iter().enumerate().skip(2) {
        if row.trim().is_empty() {
            continue;
        }
        let cut = |from: usize, to: Option<usize>| -> &str {
            let end = to.unwrap_or(row.len()).min(row.len());
            row.get(from.min(end)..end).unwrap_or("").trim()
        };
        if cut(0, Some(cols[3])).is_empty() {
            if out.is_empty() {
                return fail(b.first + k, "a description line before any parameter row");
            }
            continue;
        }
        let name = cut(cols[0], Some(cols[1]));
        let kind = cut(cols[1], Some(cols[2]));
        let value = cut(cols[2], Some(cols[3]));
        if name.is_empty() || name.contains(' ') || kind.is_empty() {
            return fail(
                b.first + k,
                format!(
                    "`{}` is not a parameter row (Name Type Value Description)",
                    row.trim().escape_debug()
                ),
            );
        }
        out.insert(
            name.to_string(),
            b.located(k, (!value.is_empty()).then(|| value.to_string())),
        );
    }
    Ok(out)
}

/// esxcli's list of records: a name alone on a line, then `   Key: value` lines.
fn esx_blocks(b: &Block, what: &str) -> Result<BTreeMap<String, EsxiNet>, ReportError> {
    let mut out = BTreeMap::new();
    // The record being read: its name, MTU, portset, and the line of its name.
    type Record = (String, Option<Located<u16>>, Option<String>, usize);
    let mut current: Option<Record> = None;
    let finish =
        |c: Option<Record>, out: &mut BTreeMap<String, EsxiNet>| -> Result<(), ReportError> {
            if let Some((name, mtu, portset, line)) = c {
                let Some(mtu) = mtu else {
                    return fail(
                        line,
                        format!("{what} `{name}` has no `MTU:` line: cut short"),
                    );
                };
                out.insert(name, EsxiNet { mtu, portset });
            }
            Ok(())
        };
    for (k, row) in b.lines.iter().enumerate() {
        let line = b.first + k;
        if row.trim().is_empty() {
            continue;
        }
        if !row.starts_with(' ') {
            let name = row.trim();
            if name.contains([' ', ':']) {
                return fail(
                    line,
                    format!("`{}` is not a {what} name", name.escape_debug()),
                );
            }
            finish(current.take(), &mut out)?;
            current = Some((name.to_string(), None, None, line));
            continue;
        }
        let Some(c) = current.as_mut() else {
            return fail(line, format!("a field before any {what}"));
        };
        let Some((key, value)) = row.trim().split_once(':') else {
            return fail(
                line,
                format!("`{}` is not a `Key: value` line", row.trim().escape_debug()),
            );
        };
        match key {
            "MTU" => c.1 = Some(b.located(k, ranged(value, line, MTU)?)),
            "Portset" => c.2 = Some(value.trim().to_string()),
            "Name" if value.trim() != c.0 => {
                return fail(
                    line,
                    format!("`Name:` says `{}` under `{}`", value.trim(), c.0),
                );
            }
            _ => {}
        }
    }
    finish(current, &mut out)?;
    if out.is_empty() {
        return fail(b.prompt, format!("esxcli listed no {what}"));
    }
    Ok(out)
}

/// A counter command's output, into the readings: `date` starts one, `ethtool -S` and the
/// hw_counters go into the last, `sleep` prints nothing.
fn counter_command(
    readings: &mut Vec<Reading>,
    command: Command,
    b: &Block,
    prompt: &str,
) -> Result<(), ReportError> {
    if let Command::Date = command {
        let at = date(b)?;
        readings.push(Reading {
            at,
            ethtool: BTreeMap::new(),
            hw: BTreeMap::new(),
        });
        return Ok(());
    }
    if let Command::Sleep = command {
        return match b.lines.iter().position(|l| !l.trim().is_empty()) {
            Some(k) => fail(b.first + k, "`sleep` prints nothing"),
            None => Ok(()),
        };
    }
    let Some(reading) = readings.last_mut() else {
        return fail(
            b.prompt,
            "a counter read before any `date +%s.%N`: each reading starts with the time it was taken",
        );
    };
    let (what, key, stats, into) = match command {
        Command::Ethtool(iface) => {
            let stats = ethtool(b)?;
            (
                format!("`ethtool -S {iface}`"),
                iface,
                stats,
                &mut reading.ethtool,
            )
        }
        Command::HwCounters(dev, names) => {
            let stats = hw_counters(b, &dev, &names)?;
            (
                format!("the hw_counters of {dev}"),
                dev,
                stats,
                &mut reading.hw,
            )
        }
        _ => return Ok(()),
    };
    if into.contains_key(&key) {
        return fail(
            b.prompt,
            format!(
                "{what} twice in one reading (since the `date` at line {})",
                reading.at.line
            ),
        );
    }
    into.insert(key, b.at_prompt(prompt, stats));
    Ok(())
}

/// `date +%s.%N`: `1714557600.123456789`, as nanoseconds since 1970.
fn date(b: &Block) -> Result<Located<u64>, ReportError> {
    let [one] = b.lines else {
        return match b.lines {
            [] => fail(b.prompt, "`date` printed nothing"),
            _ => fail(b.first + 1, "`date +%s.%N` prints one line"),
        };
    };
    let bad = || {
        fail(
            b.first,
            format!(
                "`{}` is not seconds and nanoseconds (`date +%s.%N`: `1714557600.123456789`)",
                one.trim().escape_debug()
            ),
        )
    };
    let Some((s, n)) = one.trim().split_once('.') else {
        return bad();
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    if !digits(s) || !digits(n) || n.len() != 9 {
        return bad();
    }
    let (Ok(s), Ok(n)) = (s.parse::<u64>(), n.parse::<u64>()) else {
        return bad();
    };
    match s.checked_mul(1_000_000_000).and_then(|v| v.checked_add(n)) {
        Some(v) => Ok(b.located(0, v)),
        None => bad(),
    }
}

/// `ethtool -S IF`: `NIC statistics:`, then one `name: value` per line, every line read. A
/// counter printed twice is an error (which would the rules judge?).
fn ethtool(b: &Block) -> Result<Stats, ReportError> {
    let mut k = 0;
    while k < b.lines.len() && b.lines[k].trim().is_empty() {
        k += 1;
    }
    if b.lines.get(k).map(|l| l.trim()) != Some("NIC statistics:") {
        return fail(
            b.first + k.min(b.lines.len().saturating_sub(1)),
            format!(
                "`ethtool -S` prints `NIC statistics:` first, not `{}`",
                b.lines.get(k).map_or("", |l| l.trim()).escape_debug()
            ),
        );
    }
    let mut out = Stats::new();
    for (k, row) in b.lines.iter().enumerate().skip(k + 1) {
        let line = b.first + k;
        let t = row.trim();
        if t.is_empty() {
            continue;
        }
        let Some((name, value)) = t.rsplit_once(':').filter(|(n, _)| !n.trim().is_empty()) else {
            return fail(
                line,
                format!(
                    "`{}` is not an `ethtool -S` line (`name: value`)",
                    t.escape_debug()
                ),
            );
        };
        let value: u64 = number(value, line, "a counter (a whole number)")?;
        if out
            .insert(name.trim().to_string(), b.located(k, Some(value)))
            .is_some()
        {
            return fail(line, format!("{} is printed twice", name.trim()));
        }
    }
    Ok(out)
}

/// `grep -H . FILE…` over hw_counters: `FILE:VALUE`, or grep's `No such file or directory`,
/// once for each file asked.
fn hw_counters(b: &Block, dev: &str, names: &[&'static str]) -> Result<Stats, ReportError> {
    let mut out = Stats::new();
    for (k, row) in b.lines.iter().enumerate() {
        let line = b.first + k;
        let t = row.trim();
        if t.is_empty() {
            continue;
        }
        let (name, value) = grep_line(t, line, names, |n| counters::hw_path(dev, n))?;
        let value = match value {
            Some(v) => Some(number::<u64>(v, line, "a counter (a whole number)")?),
            None => None,
        };
        if out.insert(name.to_string(), b.located(k, value)).is_some() {
            return fail(
                line,
                format!("{} is printed twice", counters::hw_path(dev, name)),
            );
        }
    }
    if let Some(n) = names.iter().find(|n| !out.contains_key(**n)) {
        return fail(
            b.end(),
            format!(
                "the grep output ends before a line for {}: cut short",
                counters::hw_path(dev, n)
            ),
        );
    }
    Ok(out)
}
