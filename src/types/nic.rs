//! What a host is, for the fabric's `hosts:`: its OS (`esxi`, `linux`) and NIC family, each
//! from a small table with its source. Only NICs whose driver offers DSCP trust and per-priority
//! PFC through the tools `fabric hosts` prints are listed.

use serde::Serialize;

use super::{Invalid, choose};

/// The host's operating system, which decides the tools that configure its NIC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HostOs {
    /// VMware ESXi with NVIDIA's native `nmlx5_core` driver: module parameters.
    Esxi,
    /// Linux with `mlx5_core` (inbox or MLNX_OFED/DOCA-OFED): `mlnx_qos`, `cma_roce_tos`, sysfs.
    Linux,
}

impl HostOs {
    pub fn parse(s: &str) -> Result<HostOs, Invalid> {
        choose(
            s,
            &[("esxi", HostOs::Esxi), ("linux", HostOs::Linux)],
            "host OS",
        )
    }
}

impl std::fmt::Display for HostOs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HostOs::Esxi => "esxi",
            HostOs::Linux => "linux",
        })
    }
}

/// A NIC family.
#[derive(Debug, PartialEq, Eq)]
pub struct Nic {
    pub name: &'static str,
}

/// The ConnectX generations (and BlueField DPUs, whose NIC is a ConnectX) driven by `mlx5`:
/// NVIDIA's MLNX_OFED/DOCA-OFED "Supported NICs" list (ConnectX-4 onward, BlueField-2 and 3),
/// and the native ESXi driver `nmlx5`, "for ConnectX-4 onward adapter cards" (NVIDIA NATIVE
/// ESXi driver user manual, docs.nvidia.com/networking/display/vmwareumv419711). ConnectX-3
/// (`mlx4`, `nmlx4` on ESXi) configures QoS differently and is not listed.
pub static NICS: &[Nic] = &[
    Nic { name: "ConnectX-4" },
    Nic {
        name: "ConnectX-4 Lx",
    },
    Nic { name: "ConnectX-5" },
    Nic {
        name: "ConnectX-5 Ex",
    },
    Nic { name: "ConnectX-6" },
    Nic {
        name: "ConnectX-6 Dx",
    },
    Nic {
        name: "ConnectX-6 Lx",
    },
    Nic { name: "ConnectX-7" },
    Nic {
        name: "BlueField-2",
    },
    Nic {
        name: "BlueField-3",
    },
];

impl Nic {
    pub fn find(name: &str) -> Result<&'static Nic, Invalid> {
        choose(
            name,
            &NICS.iter().map(|n| (n.name, n)).collect::<Vec<_>>(),
            "supported NIC family",
        )
    }
}
