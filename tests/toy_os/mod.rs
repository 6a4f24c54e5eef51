//! A third switch OS written outside the crate, in the tests alone: ToyOS, a folder that
//! implements the switch-OS interface (`os`: its words, model, validation answers, compile and
//! comparison; `config`: its text, a line per setting; `push`: its session and a push's plan;
//! `facets`: what verify, audit and import ask of it; `lab`: its lab switch), added to the
//! registry while running ([`fabric::targets::register`]). With no other file touched,
//! `fabric` validates a fabric with a ToyOS switch, compiles it, pushes it to a lab switch
//! over SSH, finds nothing left to push, and plans exactly the one line a change makes.

mod config;
mod facets;
mod lab;
mod os;
mod push;

use std::path::Path;
use std::process::Command;

const SWITCH: &str = "toy01";

/// A fabric with one ToyOS switch; `mtu` on its second port.
fn fabric(mtu: u16) -> String {
    format!(
        "switches:\n  toy01:\n    os: toy\n    model: TOY-8\n    ports:\n      e1: {{ mtu: 9216 }}\n      e2: {{ mtu: {mtu} }}\n"
    )
}

/// `fabric ARGS` in this process, in `dir`: its exit code.
fn fabric_in(dir: &Path, args: &[&str]) -> u8 {
    std::env::set_current_dir(dir).unwrap();
    fabric::cli::run(std::iter::once("fabric").chain(args.iter().copied()))
}

/// The lab switch's command log: the lines its sessions typed.
fn typed(dir: &Path) -> Vec<String> {
    crate::push::log_of(dir, SWITCH)
}

/// Set in the child process the test starts for itself.
const CHILD: &str = "FABRIC_TOY_OS_CHILD";

/// The test proper runs in a process of its own (the test binary again, this test alone): the
/// OS it adds to the registry is seen by no other test of the binary (their texts list the
/// registry's OSes).
#[test]
fn a_third_os_is_a_folder_that_compiles_plans_and_pushes_to_a_lab_switch() {
    if std::env::var_os(CHILD).is_some() {
        return with_toy_registered();
    }
    let name = "toy_os::a_third_os_is_a_folder_that_compiles_plans_and_pushes_to_a_lab_switch";
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("1 passed"), "{text}");
}

/// In the child: ToyOS registered, then every command run on a fabric of one ToyOS switch.
fn with_toy_registered() {
    let toy = fabric::targets::register(&os::TOY).unwrap();
    assert_eq!(toy.word(), "toy");
    assert!(fabric::targets::register(&os::TOY).is_err());
    let dir = crate::scratch("toy-os");
    std::fs::write(dir.join("toy.yaml"), fabric(9000)).unwrap();

    assert_eq!(fabric_in(&dir, &["validate", "toy.yaml"]), 0);
    assert_eq!(
        fabric_in(&dir, &["compile", "toy.yaml", "--out", "golden"]),
        0
    );
    let compiled = std::fs::read_to_string(dir.join("golden/toy/toy01.cfg")).unwrap();
    assert_eq!(
        compiled,
        "hostname toy01\ninterface e1 mtu 9216\ninterface e2 mtu 9000\n"
    );

    // A mistake in the ToyOS switch is its own OS's error, located.
    std::fs::write(dir.join("bad.yaml"), fabric(9000).replace("e2:", "e9:")).unwrap();
    assert_eq!(fabric_in(&dir, &["validate", "bad.yaml"]), 1);

    // Pushed to a lab switch of its own OS over SSH: the two lines, saved.
    assert_eq!(fabric_in(&dir, &["push", "toy.yaml", "--lab", "--yes"]), 0);
    let log = typed(&dir);
    for line in [
        "configure",
        "interface e1 mtu 9216",
        "interface e2 mtu 9000",
        "save",
    ] {
        assert!(
            log.iter().any(|l| l == line),
            "`{line}` not typed: {log:#?}"
        );
    }
    let saved = crate::push::state_of(&dir, SWITCH).join("saved.cfg");
    assert_eq!(std::fs::read_to_string(saved).unwrap(), compiled);

    // Nothing left: a second push sends no configuration line.
    let before = typed(&dir).len();
    assert_eq!(fabric_in(&dir, &["push", "toy.yaml", "--lab", "--yes"]), 0);
    let again = &typed(&dir)[before..];
    assert!(
        !again.iter().any(|l| l.starts_with("interface")),
        "{again:#?}"
    );

    // A change is the one line it makes: a live diff finds it (exit 1), the push sends it.
    std::fs::write(dir.join("toy.yaml"), fabric(9216)).unwrap();
    assert_eq!(fabric_in(&dir, &["diff", "toy.yaml", "--lab"]), 1);
    assert_eq!(fabric_in(&dir, &["push", "toy.yaml", "--lab", "--yes"]), 0);
    assert_eq!(fabric_in(&dir, &["diff", "toy.yaml", "--lab"]), 0);
    let log = typed(&dir);
    let sent: Vec<&String> = log[before..]
        .iter()
        .filter(|l| l.starts_with("interface"))
        .collect();
    assert_eq!(sent, ["interface e2 mtu 9216"]);
}
