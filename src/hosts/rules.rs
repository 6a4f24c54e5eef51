//! Host rules (`H001`…): a host's report against its plan. Ids and names are stable, as the
//! switch rules' are; a new rule takes the next free id.

use super::Plan;
use super::report::{Ecn, EcnFile, HostReport, Located, MlnxQos};
use super::script::{ESXI_ECN_ON, ESXI_TRUST_DSCP, ecn_files};
use crate::audit::{Finding, Severity, explain_text};
use crate::fabric::validate::WIRE_OVERHEAD;
use crate::types::HostOs;

/// The smallest interface MTU that carries RoCE at its largest path MTU, 4096: the kernel
/// takes a RoCE port's MTU as the interface's minus 96 bytes of headers (GRH 40, UDP 8, BTH
/// 12, XRC 4, AtomicETH 28, ICRC 4: `iboe_get_mtu`, include/rdma/ib_addr.h), then the largest
/// IB MTU that fits; below 4192 RoCE runs at 2048 or less.
pub const ROCE_4096_MTU: u16 = 4096 + 96;

/// A host rule and its documentation.
pub struct HostRule {
    pub id: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub what: &'static str,
    pub why: &'static str,
    pub fix: &'static str,
}

impl HostRule {
    pub fn explain(&self) -> String {
        explain_text(
            &format!(
                "{} {} ({}; reads each host's report against the switch ports it is cabled to)",
                self.id, self.name, self.severity
            ),
            self.what,
            self.why,
            self.fix,
        )
    }
}

pub static HOST_RULES: &[HostRule] = &[
    HostRule {
        id: "H001",
        name: "host-trust-not-dscp",
        severity: Severity::Error,
        what: "A Linux RoCE interface whose priority trust state (`mlnx_qos`) is not `dscp`, while its switch port trusts L3.",
        why: "Under PCP trust the NIC ignores the DSCP of what it receives and sends untagged traffic at priority 0: RoCE leaves the lossless priority, its PFC pauses never apply, and drops under congestion turn into go-back-N retransmits.",
        fix: "`mlnx_qos -i IF --trust dscp` (`fabric hosts FABRIC --host NAME` prints it).",
    },
    HostRule {
        id: "H002",
        name: "host-pfc-mismatch",
        severity: Severity::Error,
        what: "A Linux RoCE interface whose PFC priorities (`mlnx_qos` `enabled` row) differ from those its switch port pauses.",
        why: "PFC works hop by hop: a NIC that does not honour pauses on the lossless priority overruns the switch buffer (drops), and one that pauses another priority stops traffic the switch treats as lossy.",
        fix: "`mlnx_qos -i IF --pfc` with the switch's priorities (`fabric hosts` derives the vector, e.g. `0,0,0,1,0,0,0,0` for priority 3).",
    },
    HostRule {
        id: "H003",
        name: "host-roce-dscp-priority",
        severity: Severity::Error,
        what: "A host whose dscp2prio map puts the fabric's RoCE DSCP on another priority than the switch does (Onyx's default map: DSCP / 8).",
        why: "The NIC queues and pauses by its own priority: RoCE marked 26 but mapped to priority 2 on the host is paused (or not) apart from the switch's lossless priority 3.",
        fix: "Restore the default map (`mlnx_qos -i IF --dscp2prio` back to DSCP / 8), or change the fabric's `qos.dscp.roce` so both agree.",
    },
    HostRule {
        id: "H004",
        name: "host-cnp-not-strict",
        severity: Severity::Warning,
        what: "A Linux interface that schedules the CNP's priority by ETS weight while the switch serves that class strict.",
        why: "Congestion notifications must overtake the data they throttle; weighted behind bulk traffic, they arrive late and DCQCN reacts after the queue has grown. `vendor` (the mlx5 default) counts as strict: mlx5 puts vendor classes in its highest group (drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c, MLX5E_VENDOR_TC_GROUP_NUM).",
        fix: "`mlnx_qos -i IF --tsa` with `strict` (or `vendor`) for the CNP's class, e.g. `ets,ets,ets,ets,ets,ets,strict,ets`.",
    },
    HostRule {
        id: "H005",
        name: "host-mtu-above-switch",
        severity: Severity::Error,
        what: "A host interface (Linux netdev, ESXi vmknic or vSwitch) whose MTU, with the 22 bytes a frame adds (Ethernet header, 802.1Q tag, FCS), is above its switch port's MTU.",
        why: "The switch drops frames above its port's MTU without telling anyone: small messages pass, large RDMA writes and jumbo TCP segments vanish.",
        fix: "`ip link set IF mtu N` (ESXi: `esxcli network ip interface set -i vmkN -m N` and the vSwitch's) at most the switch port's MTU minus 22, or raise the switch port's MTU to 9216.",
    },
    HostRule {
        id: "H006",
        name: "host-mtu-below-roce",
        severity: Severity::Warning,
        what: "A host RoCE interface whose MTU is below 4192, the least that carries RoCE's 4096-byte path MTU.",
        why: "The kernel sets a RoCE port's MTU from the interface's minus 96 bytes of headers (`iboe_get_mtu`): at 1500 RoCE runs at 1024-byte packets, a quarter of what the fabric carries, with four times the per-packet work.",
        fix: "Raise the interface MTU to the fabric's (9000 under 9216 switch ports): `fabric hosts` prints the command.",
    },
    HostRule {
        id: "H007",
        name: "host-roce-tos-mismatch",
        severity: Severity::Error,
        what: "An RDMA device whose RoCE ToS (`cma_roce_tos`, or the sysfs `traffic_class` other connections use) is not the fabric's RoCE DSCP << 2 with ECT(0).",
        why: "The ToS carries the DSCP the switch classifies by: another value lands RoCE on another priority (lossy, no PFC), and without the ECN-capable bits the switch drops instead of marking.",
        fix: "`cma_roce_tos -d DEV -t 106` and `echo 106 > /sys/class/infiniband/DEV/tc/1/traffic_class` for DSCP 26 (`fabric hosts` derives the value).",
    },
    HostRule {
        id: "H008",
        name: "esxi-nmlx5-parameters",
        severity: Severity::Error,
        what: "An ESXi host whose nmlx5_core parameters `trust_state`, `pfctx`, `pfcrx` or `ecn` are unset or differ from its switch ports (trust DSCP = 2; PFC bit N = priority N; ECN on = 1).",
        why: "nmlx5_core defaults to PCP trust, no PFC and no ECN: RoCE from PVRDMA or NVMe-oF leaves at priority 0, outside the lossless pool, the NIC ignores the switch's pauses, and the switches' ECN marks slow no sender (NVIDIA NATIVE ESXi driver manual, nmlx5_core parameters: `ecn` \"Enables the ECN feature\", disabled by default), so congestion is left to PFC.",
        fix: "`esxcli system module parameters set -m nmlx5_core -p \"pfctx=0x08 pfcrx=0x08 trust_state=2 ecn=1\"` (for priority 3), then reboot.",
    },
    HostRule {
        id: "H009",
        name: "host-dcbx-firmware",
        severity: Severity::Info,
        what: "A Linux interface whose DCBX mode is `Firmware controlled`.",
        why: "With DCBX in firmware the NIC takes its PFC and ETS from what the switch advertises over LLDP, and may override what `mlnx_qos` set (MLNX_OFED user manual, \"Quality of Service\": the DCBX mode decides who owns the settings). The Onyx ports here force PFC (`mode on force`), so what the NIC reports is what counts: this is a note that the settings come from negotiation.",
        fix: "To own the settings from the OS: `mlxconfig -d DEV set LLDP_NB_DCBX_P1=0 LLDP_NB_TX_P1=0 LLDP_NB_RX_P1=0` and a firmware reset, or keep firmware DCBX and check the result with `mlnx_qos -i IF`.",
    },
    HostRule {
        id: "H010",
        name: "host-report-incomplete",
        severity: Severity::Error,
        what: "A host report without the output a cabled port needs (its `mlnx_qos`, `ip link`, `traffic_class`, `cma_roce_tos`; on ESXi the module parameters, interfaces and vSwitches).",
        why: "A setting nobody read cannot be said to agree: the report passes only when everything the host must agree on is in it.",
        fix: "Collect the report with the script `fabric hosts FABRIC --host NAME --format collect` prints (or `fabric audit --hosts-live`).",
    },
    HostRule {
        id: "H011",
        name: "esxi-rdma-dscp-not-forced",
        severity: Severity::Error,
        what: "An ESXi host whose nmlx5_rdma `dscp_force` is unset or not the fabric's RoCE DSCP (`qos.dscp.roce`).",
        why: "nmlx5_core's `trust_state` and PFC decide how the NIC classifies and pauses, not what RDMA it sends is marked with: without `dscp_force` the RoCE of PVRDMA, vSAN or NVMe-oF leaves with the DSCP its sender chose (0 unless told), lands on switch priority 0 outside the lossless pool, and is dropped under congestion. VMware's \"Configure RoCE/DCB on ESXi\" and the NVIDIA NATIVE ESXi driver manual (\"Module Parameters\": `esxcli system module parameters set -m nmlx5_rdma -p <parameter>=<value>`) set the DSCP in the driver; the SMTX OS VMware guide writes it as `dscp_force=26`.",
        fix: "`esxcli system module parameters set -m nmlx5_rdma -p \"dscp_force=26\"` (the fabric's RoCE DSCP; `-p` replaces the module's whole parameter string), then reboot.",
    },
    HostRule {
        id: "H012",
        name: "host-dcqcn-off",
        severity: Severity::Error,
        what: "A Linux RoCE interface whose DCQCN notification point (`/sys/class/net/IF/ecn/roce_np/enable/P`) or reaction point (`…/roce_rp/enable/P`) is off on the RoCE or a lossless priority, or whose driver has no such files.",
        why: "The switches mark congestion with ECN instead of dropping; only a receiver whose notification point is on answers the mark with a congestion notification packet, and only a sender whose reaction point is on slows down on it. With either off the marks are lost: queues grow until PFC pauses the link, and the pauses spread to flows that caused nothing (MLNX_OFED user manual, \"Explicit Congestion Notification (ECN)\"). A driver without the files cannot be checked: the report says so rather than pass.",
        fix: "`echo 1 > /sys/class/net/IF/ecn/roce_np/enable/3` and `echo 1 > /sys/class/net/IF/ecn/roce_rp/enable/3` for each priority `fabric hosts` names; on a driver without the files, install MLNX_OFED/DOCA-OFED or use one that has them.",
    },
    HostRule {
        id: "H013",
        name: "host-cnp-dscp-mismatch",
        severity: Severity::Warning,
        what: "A Linux RoCE interface whose congestion notification packets are marked with another DSCP (`/sys/class/net/IF/ecn/roce_np/cnp_dscp`) than the fabric's `qos.dscp.cnp`, or whose driver has no such file.",
        why: "The switches put CNPs on a priority and class by their DSCP (48 → priority 6, served strict): CNPs with another DSCP queue behind the data they should throttle, and DCQCN reacts late.",
        fix: "`echo 48 > /sys/class/net/IF/ecn/roce_np/cnp_dscp` (the fabric's CNP DSCP; `fabric hosts` prints it).",
    },
    HostRule {
        id: "H014",
        name: "host-pause-storm",
        severity: Severity::Error,
        what: "A Linux RoCE interface that sent or received PFC pause frames on a lossless priority (`ethtool -S` `tx_prioN_pause`, `rx_prioN_pause`) at or above the switch's `verify: pause_rate` (1000/s by default) between the report's two counter readings, or whose `tx_pause_storm_warning_events` or `tx_pause_storm_error_events` grew. The host's end of `fabric verify --counters`' V018.",
        why: "A host that pauses without end (a receive queue that stopped draining: a stuck application, PCIe back-pressure) stops the switch port that feeds it, and the pause spreads hop by hop to every sender behind it; pauses received without end mean the switch cannot forward what the host sends. mlx5 counts a storm when it paused for long, and at its timeout stops pausing: from then on the priority is not lossless (mlx5 counters.rst).",
        fix: "Find what stopped draining on the host (`ethtool -S IF` over time, the RDMA application, PCIe errors); for pauses received, the switch port's own counters (`fabric verify --counters`). The storm timeout is the NIC's last guard, not a fix.",
    },
    HostRule {
        id: "H015",
        name: "host-rx-drops",
        severity: Severity::Error,
        what: "A Linux RoCE interface whose receive drops grew between the two counter readings beyond the switch's `verify: drops` (0 by default): `rx_prioN_discards` on a lossless priority, `rx_discards_phy` (the port out of buffers), `rx_out_of_buffer` (a receive queue without software buffers), the RDMA device's `out_of_buffer` (an RDMA receive without a posted buffer).",
        why: "A lossless priority must not drop: RoCE recovers a lost packet by go-back-N, resending all after it. Port drops under PFC mean the NIC's buffer or its pauses are wrong; queue and RDMA drops mean the host does not keep up (too few buffers posted, a busy core).",
        fix: "Check PFC on the NIC and the switch port (`fabric audit`), the NIC's receive buffer (`mlnx_qos -i IF --buffer_size`), the ring sizes (`ethtool -g`), and the RDMA application's posted receives.",
    },
    HostRule {
        id: "H016",
        name: "host-pause-without-dcqcn",
        severity: Severity::Warning,
        what: "A Linux RoCE interface paused on a lossless priority (either way) between the two counter readings while its RDMA device received no ECN-marked RoCE (`np_ecn_marked_roce_packets`), sent no CNP (`np_cnp_sent`) and acted on none (`rp_cnp_handled`). The host's end of V020.",
        why: "Congestion should be braked by DCQCN first: the switch marks ECN, the receiver answers with CNPs, the sender slows down. Pauses with none of that mean ECN marks nowhere on the path or the host ignores them, so only PFC brakes, and its pauses spread to flows that caused nothing.",
        fix: "The switch ports' ECN on the lossless class (`fabric verify --check qos`), the host's DCQCN (H012) and RoCE ToS with ECT (H007).",
    },
    HostRule {
        id: "H017",
        name: "host-fcs-errors",
        severity: Severity::Error,
        what: "A Linux RoCE interface that dropped frames for a bad FCS (`rx_crc_errors_phy`) between the two counter readings, beyond the switch's `verify: errors` (0 by default). The host's end of V021.",
        why: "A corrupted frame is dropped by the NIC: a drop PFC cannot prevent, turned by RoCE into a burst of resent packets. The cause is the optic or cable between the host and its switch port.",
        fix: "Clean or replace the optics and cable of the host port named and of its switch port.",
    },
    HostRule {
        id: "H018",
        name: "host-link-flaps",
        severity: Severity::Error,
        what: "A Linux RoCE interface whose link went down (`link_down_events_phy`) between the two counter readings, each down counted as two state changes against the switch's `verify: flaps` (0 by default). The host's end of V022.",
        why: "Each flap drops what is in flight and tears down the host's RDMA connections; a training job stalls or restarts on every one.",
        fix: "The optics and cable of the host port and of its switch port; the NIC's firmware and its link logs (`dmesg`).",
    },
    HostRule {
        id: "H019",
        name: "host-counters-unread",
        severity: Severity::Warning,
        what: "A Linux host report whose counter readings give no rate for a check: no reading, one, the last not after the first, a port's `ethtool -S` or RDMA counters missing from one, a counter in one reading only or gone backwards (cleared, or the driver reloaded).",
        why: "A counter read once says nothing about now: it counts since the driver loaded. Health is a rate over an interval, and a check that could not be made must be said, not passed.",
        fix: "Collect the report again with the script `fabric hosts FABRIC --host NAME --format collect` prints, whole (it reads twice, `--interval` apart), or read the host with `fabric audit --hosts-live`.",
    },
    HostRule {
        id: "H020",
        name: "host-counters-not-checked",
        severity: Severity::Info,
        what: "A counter check that cannot be made on a host, and why: a counter its driver does not print (mlx5 prints `rx_prioN_pause` only when PFC is on for priority N), a port without an RDMA device in the fabric (no DCQCN counters), or an ESXi host (no counter is read: `esxcli network nic stats get` has no pause, ECN or link-down counter, and nmlx5's own `vsish` statistics have no published capture to read them by).",
        why: "What is not checked is said, so a clean report is not taken for a healthy NIC.",
        fix: "Nothing on the host, unless the cause is a setting (PFC off on a lossless priority is H002). The switch's end of the same links is read by `fabric verify --counters`.",
    },
];

/// The host rule with this id or name.
pub fn host_rule(id: &str) -> Option<&'static HostRule> {
    HOST_RULES
        .iter()
        .find(|r| r.id.eq_ignore_ascii_case(id) || r.name == id)
}

fn rule(id: &str) -> &'static HostRule {
    host_rule(id).expect("a host rule id")
}

/// Findings of one host: its report against its plan, in rule order.
pub fn audit_host(plan: &Plan, report: &HostReport) -> Vec<Finding> {
    let mut f = Findings {
        plan,
        out: Vec::new(),
    };
    match plan.os {
        HostOs::Linux => linux(&mut f, plan, report),
        HostOs::Esxi => esxi(&mut f, plan, report),
    }
    let mut push = |id: &str, iface: Option<&str>, message: String, line: Option<&str>| {
        f.push(id, iface, message, line)
    };
    match plan.os {
        HostOs::Linux => super::counters::linux(&mut push, plan, &report.readings),
        HostOs::Esxi => push(
            "H020",
            None,
            "its NIC counters are not read on ESXi (`esxcli network nic stats get` has no pause, ECN or link-down counter; nmlx5's `vsish` statistics have no capture to read them by): pauses, drops, FCS errors and flaps are checked from the switch's end only (`fabric verify --counters`)".into(),
            None,
        ),
    }
    f.out
}

/// A host's findings as they are found.
struct Findings<'a> {
    plan: &'a Plan,
    out: Vec<Finding>,
}

impl Findings<'_> {
    /// Rule `id`'s finding on the host (on one of its interfaces), with the report's line.
    fn push(&mut self, id: &str, iface: Option<&str>, message: String, line: Option<&str>) {
        let r = rule(id);
        self.out.push(Finding {
            switch: self.plan.host.clone(),
            rule: r.id,
            name: r.name,
            severity: r.severity,
            message: match iface {
                Some(i) => format!("{i}: {message}"),
                None => message,
            },
            interfaces: iface.map(str::to_string),
            line: line.map(str::to_string),
        });
    }
}

/// The MTU a host may use under a switch port's: the frame's overhead below it.
fn host_mtu_limit(switch_mtu: u16) -> u16 {
    switch_mtu.saturating_sub(WIRE_OVERHEAD)
}

/// A Linux host's RDMA ports: `mlnx_qos` (trust, PFC, the DSCP map, the CNP's class, DCBX),
/// the MTU, DCQCN, the RoCE ToS.
fn linux(f: &mut Findings<'_>, plan: &Plan, report: &HostReport) {
    let mut push = |id: &str, iface: Option<&str>, message: String, line: Option<&str>| {
        f.push(id, iface, message, line)
    };
    let limit = host_mtu_limit;
    for p in plan.ports.iter().filter(|p| p.rdma_port) {
        let at = Some(p.name.as_str());
        match report.qos.get(&p.name) {
            None => push(
                "H010",
                at,
                format!("no `mlnx_qos -i {}` in the report", p.name),
                None,
            ),
            Some(q) => mlnx_qos_rules(&mut push, plan, p, &q.value),
        }
        match report.mtu.get(&p.name) {
            None => push(
                "H010",
                at,
                format!("no `ip link show {}` in the report", p.name),
                None,
            ),
            Some(m) => mtu_rules(
                &mut push,
                at,
                m,
                p.switch_mtu,
                &limit,
                &format!("{} {}", p.switch, p.switch_iface),
            ),
        }
        match report.ecn.get(&p.name) {
            None => push(
                "H010",
                at,
                format!(
                    "no `grep -H . /sys/class/net/{}/ecn/…` (DCQCN) in the report",
                    p.name
                ),
                None,
            ),
            Some(e) => dcqcn_rules(&mut push, plan, at, &p.name, &e.value),
        }
        if let Some(dev) = &p.rdma {
            match report.traffic_class.get(dev) {
                None => push(
                    "H010",
                    at,
                    format!(
                        "no `cat /sys/class/infiniband/{dev}/tc/1/traffic_class` in the report"
                    ),
                    None,
                ),
                Some(t) if t.value != Some(plan.tos) => push(
                    "H007",
                    at,
                    format!(
                        "{dev} traffic_class is {}, not {} (DSCP {} with ECT(0))",
                        t.value.map_or("unset".into(), |v| v.to_string()),
                        plan.tos,
                        plan.roce_dscp
                    ),
                    (!t.text.is_empty()).then_some(t.text.as_str()),
                ),
                Some(_) => {}
            }
            match report.roce_tos.get(dev) {
                None => push(
                    "H010",
                    at,
                    format!("no `cma_roce_tos -d {dev}` in the report"),
                    None,
                ),
                Some(t) if t.value != plan.tos => push(
                    "H007",
                    at,
                    format!(
                        "{dev} RDMA-CM ToS is {}, not {} (DSCP {} with ECT(0))",
                        t.value, plan.tos, plan.roce_dscp
                    ),
                    Some(&t.text),
                ),
                Some(_) => {}
            }
        }
    }
}

/// One port's `mlnx_qos` against the plan: DCBX (H009), trust (H001), PFC (H002), the RoCE
/// DSCP's priority (H003), the CNP's class (H004).
fn mlnx_qos_rules(
    push: &mut impl FnMut(&str, Option<&str>, String, Option<&str>),
    plan: &Plan,
    p: &super::PortPlan,
    q: &MlnxQos,
) {
    let at = Some(p.name.as_str());
    if let Some(d) = q.dcbx.as_ref().filter(|d| d.value == "Firmware controlled") {
        push(
            "H009",
            at,
            "DCBX is firmware controlled: PFC and ETS come from negotiation with the switch".into(),
            Some(&d.text),
        );
    }
    if q.trust.value != "dscp" {
        push(
            "H001",
            at,
            format!(
                "trusts {}, not dscp (the switch port {} {} trusts L3)",
                q.trust.value, p.switch, p.switch_iface
            ),
            Some(&q.trust.text),
        );
    }
    let on: std::collections::BTreeSet<u8> =
        (0..8u8).filter(|i| q.pfc.value[usize::from(*i)]).collect();
    if on != plan.pfc {
        push(
            "H002",
            at,
            format!(
                "PFC on priority {}, but {} {} pauses priority {}",
                super::list(&on),
                p.switch,
                p.switch_iface,
                super::list(&plan.pfc)
            ),
            Some(&q.pfc.text),
        );
    }
    if q.trust.value == "dscp"
        && let Some((prio, l)) = q.priority_of(plan.roce_dscp)
        && prio != plan.roce_priority
    {
        push(
            "H003",
            at,
            format!(
                "maps RoCE DSCP {} to priority {prio}, the switch to priority {}",
                plan.roce_dscp, plan.roce_priority
            ),
            Some(&l.text),
        );
    }
    if plan.cnp_strict
        && let Some(cnp) = plan.cnp_priority
        && let Some((tc, t)) = q.tcs.iter().find(|(_, t)| t.priorities.contains(&cnp))
        && t.tsa == "ets"
    {
        push(
            "H004",
            at,
            format!(
                "CNP priority {cnp} is in traffic class {tc}, scheduled by ETS weight, not strict"
            ),
            Some(&t.text),
        );
    }
}

/// An ESXi host: the nmlx5 module parameters, then each RDMA port's vmknic and vSwitch MTU.
fn esxi(f: &mut Findings<'_>, plan: &Plan, report: &HostReport) {
    let mut push = |id: &str, iface: Option<&str>, message: String, line: Option<&str>| {
        f.push(id, iface, message, line)
    };
    let limit = host_mtu_limit;
    let mask = plan.pfc_mask();
    esxi_module(
        &mut push,
        report,
        "nmlx5_core",
        "H008",
        &[
            (
                "trust_state",
                u32::from(ESXI_TRUST_DSCP),
                format!("{ESXI_TRUST_DSCP}"),
            ),
            ("pfctx", u32::from(mask), format!("0x{mask:02x}")),
            ("pfcrx", u32::from(mask), format!("0x{mask:02x}")),
            ("ecn", u32::from(ESXI_ECN_ON), format!("{ESXI_ECN_ON}")),
        ],
    );
    esxi_module(
        &mut push,
        report,
        "nmlx5_rdma",
        "H011",
        &[(
            "dscp_force",
            u32::from(plan.roce_dscp),
            format!("{} (the fabric's RoCE DSCP)", plan.roce_dscp),
        )],
    );
    for p in plan.ports.iter().filter(|p| p.rdma_port) {
        let at = Some(p.name.as_str());
        let peer = format!("{} {}", p.switch, p.switch_iface);
        for (name, list, cmd) in [
            (
                &p.vmknic,
                &report.vmknics,
                "esxcli network ip interface list",
            ),
            (
                &p.vswitch,
                &report.vswitches,
                "esxcli network vswitch standard list",
            ),
        ] {
            let Some(name) = name else { continue };
            match list.as_ref().map(|l| l.value.get(name)) {
                None => push("H010", at, format!("no `{cmd}` in the report"), None),
                Some(None) => push(
                    "H010",
                    at,
                    format!("`{cmd}` does not list {name}"),
                    list.as_ref().map(|l| l.text.as_str()),
                ),
                Some(Some(n)) => mtu_rules(
                    &mut push,
                    Some(&format!("{} ({name})", p.name)),
                    &n.mtu,
                    p.switch_mtu,
                    &limit,
                    &peer,
                ),
            }
        }
    }
}

/// H012 and H013 on one interface's DCQCN files (H010 for one the report did not read).
fn dcqcn_rules(
    push: &mut impl FnMut(&str, Option<&str>, String, Option<&str>),
    plan: &Plan,
    at: Option<&str>,
    iface: &str,
    ecn: &Ecn,
) {
    for file in ecn_files(plan) {
        let path = file.path(iface);
        let rule = match file {
            EcnFile::CnpDscp => "H013",
            EcnFile::Np(_) | EcnFile::Rp(_) => "H012",
        };
        let Some(got) = ecn.get(&file) else {
            push("H010", at, format!("the report does not read {path}"), None);
            continue;
        };
        let point = |p: &u8, np: bool| {
            format!(
                "the DCQCN {} point is off on priority {p}",
                if np { "notification" } else { "reaction" }
            )
        };
        let message = match (file, got.value) {
            (_, None) => format!(
                "{path} does not exist: the driver has no DCQCN files (an older MLNX_OFED, or an inbox mlx5 without them), so DCQCN can be neither read nor set this way"
            ),
            (EcnFile::Np(p), Some(0)) => point(&p, true),
            (EcnFile::Rp(p), Some(0)) => point(&p, false),
            (EcnFile::CnpDscp, Some(d)) if Some(d) != plan.cnp_dscp => format!(
                "CNPs leave marked DSCP {d}, not the fabric's {} (priority {})",
                plan.cnp_dscp.map_or("none".into(), |d| d.to_string()),
                plan.cnp_priority.map_or("none".into(), |p| p.to_string())
            ),
            _ => continue,
        };
        push(
            rule,
            at,
            message,
            Some(&got.text)
                .filter(|t| !t.is_empty())
                .map(String::as_str),
        );
    }
}

/// One ESXi module's parameters against the values they must have (`rule` for each that is
/// unset or another; H010 when the report does not list the module).
fn esxi_module(
    push: &mut impl FnMut(&str, Option<&str>, String, Option<&str>),
    report: &HostReport,
    module: &str,
    rule: &str,
    want: &[(&str, u32, String)],
) {
    let Some(params) = report.modules.get(module) else {
        push(
            "H010",
            None,
            format!("no `esxcli system module parameters list -m {module}` in the report"),
            None,
        );
        return;
    };
    for (name, value, shown) in want {
        let got = params.value.get(*name);
        let read = got.and_then(|g| g.value.as_deref()).and_then(esx_int);
        if read != Some(*value) {
            let is = match got {
                None => "not listed".to_string(),
                Some(Located { value: None, .. }) => "unset (the driver's default)".to_string(),
                Some(Located { value: Some(v), .. }) => format!("`{v}`"),
            };
            push(
                rule,
                None,
                format!("{module} `{name}` is {is}, not {shown}"),
                got.map(|g| g.text.as_str()).or(Some(params.text.as_str())),
            );
        }
    }
}

/// H005 and H006 on one interface's MTU.
fn mtu_rules(
    push: &mut impl FnMut(&str, Option<&str>, String, Option<&str>),
    at: Option<&str>,
    m: &Located<u16>,
    switch_mtu: u16,
    limit: &impl Fn(u16) -> u16,
    peer: &str,
) {
    if m.value > limit(switch_mtu) {
        push(
            "H005",
            at,
            format!(
                "MTU {} is above {}: {peer} has MTU {switch_mtu}, and a frame adds {WIRE_OVERHEAD} bytes",
                m.value,
                limit(switch_mtu)
            ),
            Some(&m.text),
        );
    } else if m.value < ROCE_4096_MTU {
        push(
            "H006",
            at,
            format!(
                "MTU {} is below {ROCE_4096_MTU}: RoCE runs below its 4096-byte path MTU",
                m.value
            ),
            Some(&m.text),
        );
    }
}

/// An esxcli integer parameter value: decimal or `0x` hex.
fn esx_int(v: &str) -> Option<u32> {
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => v.parse().ok(),
    }
}
