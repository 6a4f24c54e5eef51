//! `fabric verify` of OS10 switches end to end, over real SSH against `fabric lab` after a
//! push: the OS10 VLT pair of `fabrics/vcf-bitfusion.yaml` verifies clean (LLDP and links read
//! from `show lldp neighbors` and `show interface status`, the families OS10 does not read said
//! unchecked), each cabling fault is one finding with the id it has on Onyx, and a fabric
//! mixing an Onyx spine and an OS10 leaf (`tests/fixtures/os10/lab/mixed.yaml`) is judged from
//! both ends of its cable.

use std::path::{Path, PathBuf};

use crate::lab_ssh::{assert_read_only, start_lab_of};
use crate::network::push_lab;
use crate::verify::{finding_lines, verify_lab};
use crate::{root, scratch};

/// The lab serving `fabric`, pushed.
fn pushed(fabric: &Path, name: &str) -> (crate::lab_ssh::Killed, PathBuf) {
    let state = scratch(name);
    let (lab, _) = start_lab_of(fabric, &state, &[], &[]);
    let (code, out) = push_lab(fabric, &state, &[]);
    assert_eq!(code, 0, "{out}");
    (lab, state)
}

#[test]
fn an_os10_vlt_pair_pushed_verifies_clean_and_each_cabling_fault_is_one_finding() {
    let fabric = root().join("fabrics/vcf-bitfusion.yaml");
    let (_lab, state) = pushed(&fabric, "verify-os10");
    let (code, out, sent) = verify_lab(&fabric, &state, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 switch(es) verified")
            && out.contains("0 finding(s), 0 reply(ies) not read"),
        "{out}"
    );
    // What OS10 does not read is said, per switch, never passed.
    for why in [
        "mlag: VLT state is not read on OS10",
        "pfc: PFC operational state is not read on OS10",
        "qos: trust, ECN and ETS state are not read on OS10",
    ] {
        assert_eq!(out.matches(why).count(), 2, "{why}: {out}");
    }
    for (name, lines) in &sent {
        for c in ["show lldp neighbors", "show interface status"] {
            assert!(
                lines.iter().any(|l| l.ends_with(&format!("\t{c}"))),
                "{name} {c}: {lines:?}"
            );
        }
        assert!(!lines.iter().any(|l| l.contains("json-print")), "{lines:?}");
        assert_read_only(lines.iter().map(String::as_str));
    }

    // The same faults as on Onyx (`tests/verify.rs`), the same ids.
    let faults = state.join("leaf-a/faults.yaml");
    for (fault, want) in [
        (
            "cabling: { down: [\"1/49\"] }\n",
            "  error V003 (link-down): ethernet 1/49: down (operational down); the other end, leaf-b 1/49: operational down",
        ),
        (
            "cabling: { swap: [[\"1/49\", \"1/50\"]] }\n",
            "  error V001 (cabling-mismatch): ethernet 1/49: cabled otherwise than the fabric says: leaf-a 1/49 sees leaf-b ethernet1/1/50 (the fabric: leaf-b 1/49)",
        ),
        (
            "cabling: { neighbor: { \"1/50\": { host: spine09 } } }\n",
            "  error V001 (cabling-mismatch): ethernet 1/50: cabled otherwise than the fabric says: leaf-a 1/50 sees spine09 ethernet1/1/50 (the fabric: leaf-b 1/50)",
        ),
    ] {
        std::fs::write(&faults, fault).unwrap();
        let (code, out, _) = verify_lab(&fabric, &state, &["--check", "cabling,links"]);
        assert_eq!(code, 1, "{fault}{out}");
        let lines = finding_lines(&out);
        assert_eq!(lines.len(), 1, "{fault}{out}");
        assert!(lines[0].starts_with(want), "{fault}{out}");
    }
    std::fs::remove_file(&faults).unwrap();

    // A port shut down by hand on leaf-b: its cable is down, once.
    let mut shells = crate::network::shells(&state);
    let sh = shells.get_mut("leaf-b").unwrap();
    for line in [
        "configure terminal",
        "interface ethernet1/1/50",
        "shutdown",
        "end",
    ] {
        sh.send(line).unwrap();
    }
    let (code, out, _) = verify_lab(&fabric, &state, &["--check", "links"]);
    assert_eq!(code, 1, "{out}");
    let lines = finding_lines(&out);
    assert_eq!(lines.len(), 1, "{out}");
    assert!(
        lines[0].starts_with("  error V003 (link-down): ethernet 1/50: down"),
        "{out}"
    );
}

/// An Onyx spine and an OS10 leaf on one cable: each sees the other by LLDP (the spine's
/// `Eth1/1`, the leaf's `ethernet1/1/53`), clean; a fault at either end is one finding.
#[test]
fn a_mixed_fabric_is_judged_from_both_ends() {
    let dir = scratch("verify-os10-mixed");
    let fabric = dir.join("mixed.yaml");
    std::fs::copy(crate::shared().join("os10/lab/mixed.yaml"), &fabric).unwrap();
    let (_lab, state) = pushed(&fabric, "verify-os10-mixed-lab");
    let (code, out, sent) = verify_lab(&fabric, &state, &["--check", "cabling,links"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        sent["spine01"]
            .iter()
            .any(|l| l.ends_with("\tshow lldp remote | json-print")),
        "{sent:?}"
    );
    assert!(
        sent["leaf01"]
            .iter()
            .any(|l| l.ends_with("\tshow lldp neighbors")),
        "{sent:?}"
    );
    for (at, fault, want) in [
        (
            "spine01",
            "cabling: { neighbor: { \"1/1\": { port: ethernet1/1/54 } } }\n",
            "  error V001 (cabling-mismatch): ethernet 1/1: cabled otherwise than the fabric says: spine01 1/1 sees leaf01 ethernet1/1/54 (the fabric: leaf01 1/53)",
        ),
        (
            "leaf01",
            "cabling: { neighbor: { \"1/53\": { port: Eth1/2 } } }\n",
            "  error V001 (cabling-mismatch): ethernet 1/53: cabled otherwise than the fabric says: leaf01 1/53 sees spine01 Eth1/2 (the fabric: spine01 1/1)",
        ),
        (
            "leaf01",
            "cabling: { down: [\"1/53\"] }\n",
            "  error V003 (link-down): ethernet 1/53: down",
        ),
    ] {
        let faults = state.join(at).join("faults.yaml");
        std::fs::write(&faults, fault).unwrap();
        let (code, out, _) = verify_lab(&fabric, &state, &["--check", "cabling,links"]);
        assert_eq!(code, 1, "{fault}{out}");
        let lines = finding_lines(&out);
        assert_eq!(lines.len(), 1, "{fault}{out}");
        assert!(lines[0].starts_with(want), "{fault}{out}");
        std::fs::remove_file(&faults).unwrap();
    }
}
