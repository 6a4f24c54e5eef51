//! The command line's way to a fleet: `--lab` (the `fabric lab` already running here, else
//! one started in this process) or the inventory's switches (or the fabric's `mgmt`).
//! Connecting and running over the switches is [`crate::fleet`]'s.

use std::path::Path;

use crate::error::Failure;
use crate::fabric::Fabric;
#[cfg(feature = "lab")]
use crate::fleet::read_inventory;
use crate::fleet::{Connect, Reach};

/// The in-process lab's switches, inventory, known_hosts and password (`--lab`), else the
/// inventory's (or the fabric's `mgmt`) and the user's credentials.
pub(crate) fn reach(
    lab: bool,
    dataplane: bool,
    fabric_path: &Path,
    fabric: &Fabric,
    connect: &Connect,
    color: bool,
) -> Result<Reach, Failure> {
    #[cfg(feature = "lab")]
    if lab && let Some(reach) = running_lab(fabric_path, fabric, connect, dataplane)? {
        return Ok(reach);
    }
    #[cfg(feature = "lab")]
    if lab {
        let lab_args = super::lab::Args::in_process(fabric_path.to_path_buf(), dataplane);
        let started = super::lab::start(&lab_args, fabric, color)?;
        let inventory = started.inventory.clone();
        return Reach::lab(
            connect,
            inventory,
            fabric,
            lab_password(),
            Some(Box::new(started)),
        );
    }
    #[cfg(not(feature = "lab"))]
    if lab {
        let _ = (fabric_path, fabric, color, dataplane);
        return Err(Failure(
            "this build has no lab (cargo feature `lab`)".into(),
        ));
    }
    Reach::direct(connect, fabric)
}

/// The lab's password: `FABRIC_LAB_PASSWORD`, else `admin`.
#[cfg(feature = "lab")]
fn lab_password() -> String {
    std::env::var(super::lab::PASSWORD_ENV).unwrap_or_else(|_| "admin".into())
}

/// The `fabric lab` already serving `.fabric/lab`, when one runs: its switches, as its
/// inventory gives them, for this fabric; refused when it serves another fabric, or has no
/// data plane and one is asked for. `None`: no lab runs there.
#[cfg(feature = "lab")]
fn running_lab(
    fabric_path: &Path,
    fabric: &Fabric,
    connect: &Connect,
    dataplane: bool,
) -> Result<Option<Reach>, Failure> {
    let state = Path::new(".fabric/lab");
    let Some((pid, served)) = super::lab::serving(state) else {
        return Ok(None);
    };
    let ours = fabric_path
        .canonicalize()
        .unwrap_or_else(|_| fabric_path.to_path_buf());
    if ours != served {
        return Err(Failure(format!(
            "`fabric lab {}` (pid {pid}) serves `.fabric/lab`: stop it, or reach this fabric's switches with `--inventory`",
            served.display()
        )));
    }
    let inventory = read_inventory(Some(&state.join("inventory.yaml")))?;
    if dataplane && inventory.dataplane.is_none() {
        return Err(Failure(format!(
            "the `fabric lab` running here (pid {pid}) has no data plane: start it with `--dataplane`, or leave `--dataplane` out"
        )));
    }
    errln!("note: using the `fabric lab` running here (pid {pid}, `.fabric/lab`)");
    Reach::lab(connect, inventory, fabric, lab_password(), None).map(Some)
}
