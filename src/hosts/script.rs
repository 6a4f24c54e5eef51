//! A host's plan as commands: the shell script that sets its NIC ([`apply`]), and the
//! read-only commands whose transcript is a host report ([`reads`], [`collect`]). Every name
//! printed here was validated by the fabric as a shell-safe token (letters, digits, `_`, `.`,
//! `-`, not starting with `-`), so nothing a fabric says can add a command.
//!
//! Sources of the commands (syntax checked against each):
//! - Linux: `mlnx_qos -i IF --trust dscp`, `mlnx_qos -i IF --pfc 0,0,0,1,0,0,0,0`,
//!   `cma_roce_tos -d DEV -t 106`, `echo 106 > /sys/class/infiniband/DEV/tc/1/traffic_class`
//!   (captures: att/netarbiter `setup-nic-lossless-layer3.sh`, ImperialCollegeLondon
//!   `05_configure_roce.sh`); `ip link set IF mtu N` (iproute2 ip-link(8));
//!   `echo 1 > /sys/class/net/IF/ecn/roce_np/enable/P` and `…/roce_rp/enable/P` (MLNX_OFED
//!   user manual, "Explicit Congestion Notification (ECN)": `echo 1 >
//!   /sys/class/net/<interface>/ecn/<protocol>/enable/X`, protocol `roce_np` or `roce_rp`,
//!   X the priority), `echo 48 > /sys/class/net/IF/ecn/roce_np/cnp_dscp` (the file the
//!   spiderpool capture reads; the same manual: attributes are written with `echo <value> >
//!   …/ecn/<protocol>/<attribute>`), read back with `grep -H .` (each value after its file's
//!   name). The CNP's 802.1p priority (`cnp_802p_prio` in public scripts) is left alone: the
//!   switches trust L3 and place CNPs by their DSCP, and no NVIDIA page in the corpus
//!   documents the file.
//! - ESXi: `esxcli system module parameters set -m nmlx5_core -p "pfctx=0x08 pfcrx=0x08
//!   trust_state=2 ecn=1"` (VMware vSphere 7.0 storage, "Configure RoCE/DCB on ESXi"; NVIDIA
//!   NATIVE ESXi driver manual: "For the changes to take effect, reboot the host", and its
//!   nmlx5_core parameter table: `ecn` "Enables the ECN feature", disabled by default),
//!   `esxcli system module parameters set -m nmlx5_rdma -p "dscp_force=26"` (VMware's
//!   "Configure RoCE/DCB on ESXi": hosts and switches "must set the DSCP value to 26", done in
//!   the Mellanox driver; the NVIDIA NATIVE ESXi driver manual v4.19.71.1, "Module
//!   Parameters": `esxcli system module parameters set -m nmlx5_rdma -p <parameter>=<value>`,
//!   read back with `esxcli system module parameters list -m <module name>`, a reboot to take
//!   effect; the SMTX OS 6.3.0 VMware installation guide writes `-m nmlx5_rdma -p
//!   "dscp_force=26"` next to nmlx5_core's `pfctx=0x08 pfcrx=0x08 trust_state=2`),
//!   `esxcli network vswitch standard set -v VSWITCH -m N` and `esxcli network ip interface
//!   set -i VMK -m N` (VMware ESXCLI reference: `--vswitch-name`/`-v`, `--interface-name`/`-i`,
//!   `--mtu`/`-m`).
//! - Counters (Linux), read twice `interval` seconds apart: `date +%s.%N` (coreutils date(1):
//!   seconds since 1970, nanoseconds), `ethtool -S IF` (ethtool(8)), the RDMA device's
//!   hw_counters read back with `grep -H .` as the DCQCN files are, `sleep N`. What each
//!   counter means: [`super::counters`].

use std::fmt::Write as _;

use super::Plan;
use super::report::EcnFile;
use crate::types::HostOs;

/// nmlx5_core's `trust_state` for DSCP (1 is PCP): VMware's "Configure RoCE/DCB on ESXi".
pub const ESXI_TRUST_DSCP: u8 = 2;

/// nmlx5_core's `ecn` on: "Enables the ECN feature", 0 (disabled) by default (NVIDIA
/// ConnectX-4/ConnectX-5 NATIVE ESXi driver user manual, "nmlx5_core Module Parameters").
pub const ESXI_ECN_ON: u8 = 1;

/// The ESXi modules whose parameters a host report lists: nmlx5_core (trust, PFC) and
/// nmlx5_rdma (the RoCE DSCP).
pub const ESXI_MODULES: [&str; 2] = ["nmlx5_core", "nmlx5_rdma"];

/// The script that makes the host agree with its switch ports: comments say why, one
/// command per line.
pub fn apply(plan: &Plan) -> String {
    let mut out = String::from("#!/bin/sh\n");
    header(&mut out, plan);
    let _ = writeln!(
        out,
        "# RoCE: DSCP {} (ToS {}) -> switch priority {}; PFC on priority {}{}",
        plan.roce_dscp,
        plan.tos,
        plan.roce_priority,
        super::list(&plan.pfc),
        match (plan.cnp_dscp, plan.cnp_priority) {
            (Some(d), Some(p)) => format!(
                "; CNP: DSCP {d} -> priority {p}{}",
                if plan.cnp_strict { " (strict)" } else { "" }
            ),
            _ => String::new(),
        }
    );
    out.push_str("set -eu\n");
    match plan.os {
        HostOs::Linux => linux(&mut out, plan),
        HostOs::Esxi => esxi(&mut out, plan),
    }
    out
}

fn header(out: &mut String, plan: &Plan) {
    let _ = writeln!(out, "# {} ({}, {})", plan.host, plan.os, plan.nic);
    for p in &plan.ports {
        let _ = writeln!(
            out,
            "#   {} <-> {} {} (MTU {})",
            p.name, p.switch, p.switch_iface, p.switch_mtu
        );
    }
}

fn linux(out: &mut String, plan: &Plan) {
    out.push_str(
        "# Not persistent: run at every boot (a systemd unit, or NetworkManager's dispatcher).\n",
    );
    for p in plan.ports.iter().filter(|p| p.rdma_port) {
        let _ = writeln!(out, "\n# {}", p.name);
        let _ = writeln!(out, "mlnx_qos -i {} --trust dscp", p.name);
        let _ = writeln!(out, "mlnx_qos -i {} --pfc {}", p.name, plan.pfc_vector());
        dcqcn(out, plan, &p.name);
        if let Some(dev) = &p.rdma {
            out.push_str("# RDMA-CM connections, then every other RoCE connection of the device\n");
            let _ = writeln!(out, "cma_roce_tos -d {dev} -t {}", plan.tos);
            let _ = writeln!(
                out,
                "echo {} > /sys/class/infiniband/{dev}/tc/1/traffic_class",
                plan.tos
            );
        }
        let _ = writeln!(out, "ip link set {} mtu {}", p.name, plan.mtu);
    }
}

/// DCQCN on one interface: the notification and reaction points on each priority that needs
/// them, and the CNP's DSCP. A driver without these files fails the script here (`set -e`):
/// DCQCN cannot be set on it this way.
fn dcqcn(out: &mut String, plan: &Plan, iface: &str) {
    let _ = writeln!(
        out,
        "# DCQCN on priority {}: the notification point answers ECN-marked RoCE with CNPs, the\n\
         # reaction point slows down on them{}",
        super::list(&plan.dcqcn),
        match plan.cnp_dscp {
            Some(d) => format!("; CNPs leave marked DSCP {d}"),
            None => String::new(),
        }
    );
    for file in ecn_files(plan) {
        let value = match file {
            EcnFile::CnpDscp => plan.cnp_dscp.unwrap_or_default(),
            EcnFile::Np(_) | EcnFile::Rp(_) => 1,
        };
        let _ = writeln!(out, "echo {value} > {}", file.path(iface));
    }
}

/// The DCQCN files a Linux host's interfaces must hold: each DCQCN priority's notification
/// and reaction point, and the CNP's DSCP when the fabric names one.
pub fn ecn_files(plan: &Plan) -> Vec<EcnFile> {
    let mut files: Vec<EcnFile> = plan
        .dcqcn
        .iter()
        .flat_map(|p| [EcnFile::Np(*p), EcnFile::Rp(*p)])
        .collect();
    if plan.cnp_dscp.is_some() {
        files.push(EcnFile::CnpDscp);
    }
    files
}

fn esxi(out: &mut String, plan: &Plan) {
    let mask = plan.pfc_mask();
    out.push_str(
        "\n# nmlx5_core, every port: trust DSCP (trust_state=2), PFC transmit and receive on the\n\
         # lossless priorities (bit N = priority N), and ECN (ecn=1: DCQCN, so the switches' ECN\n\
         # marks slow the senders before PFC pauses the link). `-p` replaces the module's whole\n\
         # parameter string: add any other parameter it has (`esxcli system module parameters list -m nmlx5_core`).\n",
    );
    let _ = writeln!(
        out,
        "esxcli system module parameters set -m nmlx5_core -p \"pfctx=0x{mask:02x} pfcrx=0x{mask:02x} trust_state={ESXI_TRUST_DSCP} ecn={ESXI_ECN_ON}\""
    );
    let _ = writeln!(
        out,
        "# nmlx5_rdma: mark the RDMA the host sends (PVRDMA, vSAN, NVMe-oF) with the fabric's RoCE DSCP,\n\
         # whatever its sender asked for. `-p` replaces this module's whole parameter string too\n\
         # (`esxcli system module parameters list -m nmlx5_rdma`).\n\
         esxcli system module parameters set -m nmlx5_rdma -p \"dscp_force={}\"",
        plan.roce_dscp
    );
    let mut vswitches: Vec<&str> = plan
        .ports
        .iter()
        .filter_map(|p| p.vswitch.as_deref())
        .collect();
    vswitches.sort_unstable();
    vswitches.dedup();
    for v in vswitches {
        let _ = writeln!(
            out,
            "esxcli network vswitch standard set -v {v} -m {}",
            plan.mtu
        );
    }
    for p in plan.ports.iter().filter(|p| p.rdma_port) {
        if let Some(vmk) = &p.vmknic {
            let _ = writeln!(
                out,
                "esxcli network ip interface set -i {vmk} -m {}",
                plan.mtu
            );
        }
    }
    out.push_str(
        "# The module parameters take effect at the next boot: enter maintenance mode, then reboot.\n\
         # esxcli system maintenanceMode set --enable true && reboot\n",
    );
}

/// The seconds between a report's two counter readings unless told.
pub const INTERVAL: u32 = 10;

/// The read-only commands whose output is the host's report, in the order they run: the
/// settings, then (Linux) the counters, read twice `interval` seconds apart.
pub fn reads(plan: &Plan, interval: u32) -> Vec<String> {
    let mut out = Vec::new();
    match plan.os {
        HostOs::Linux => {
            for p in plan.ports.iter().filter(|p| p.rdma_port) {
                out.push(format!("mlnx_qos -i {}", p.name));
                out.push(format!("ip link show {}", p.name));
                let paths: Vec<String> = ecn_files(plan).iter().map(|f| f.path(&p.name)).collect();
                out.push(format!("grep -H . {}", paths.join(" ")));
                if let Some(dev) = &p.rdma {
                    out.push(format!(
                        "cat /sys/class/infiniband/{dev}/tc/1/traffic_class"
                    ));
                    out.push(format!("cma_roce_tos -d {dev}"));
                }
            }
        }
        HostOs::Esxi => {
            for module in ESXI_MODULES {
                out.push(format!("esxcli system module parameters list -m {module}"));
            }
            out.push("esxcli network ip interface list".into());
            out.push("esxcli network vswitch standard list".into());
        }
    }
    if plan.os == HostOs::Linux {
        let reading = counter_reads(plan);
        out.extend(reading.iter().cloned());
        out.push(format!("sleep {interval}"));
        out.extend(reading);
    }
    out
}

/// One reading of a Linux host's counters: the time, then each RoCE port's `ethtool -S` and
/// its RDMA device's hw_counters.
fn counter_reads(plan: &Plan) -> Vec<String> {
    let mut out = vec!["date +%s.%N".to_string()];
    for p in plan.ports.iter().filter(|p| p.rdma_port) {
        out.push(format!("ethtool -S {}", p.name));
        if let Some(dev) = &p.rdma {
            let paths: Vec<String> = super::counters::HW_COUNTERS
                .iter()
                .map(|n| super::counters::hw_path(dev, n))
                .collect();
            out.push(format!("grep -H . {}", paths.join(" ")));
        }
    }
    out
}

/// A script that prints the host's report: each read-only command after a `$ ` line naming
/// it, its errors included, so a command that fails shows in the report.
pub fn collect(plan: &Plan, interval: u32) -> String {
    let mut out = String::from("#!/bin/sh\n");
    let _ = writeln!(
        out,
        "# {}: read-only. Run on the host and keep the output as {}.txt for\n# `fabric audit FABRIC --hosts {}.txt`.",
        plan.host, plan.host, plan.host
    );
    match plan.os {
        HostOs::Linux => {
            let _ = writeln!(
                out,
                "# The NIC counters are read twice, {interval} s apart: it takes that long."
            );
        }
        HostOs::Esxi => {
            out.push_str("# No NIC counter is read on ESXi (`fabric explain H020` says why).\n")
        }
    }
    for cmd in reads(plan, interval) {
        let _ = writeln!(out, "echo '$ {cmd}'; {cmd} 2>&1");
    }
    out
}
