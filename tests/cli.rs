//! The binary as a user runs it: exit codes, `--check`, written files.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::root;

pub(crate) fn fabric(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> std::path::PathBuf {
    crate::scratch(&format!("cli-{name}"))
}

#[test]
fn validate_exit_codes() {
    let r = root();
    let (code, out, _) = fabric(&["validate", "fabrics/rdg-roce-dscp.yaml"], r);
    assert_eq!(code, 0);
    assert!(out.contains("valid"));
    let (code, _, err) = fabric(
        &["validate", "tests/fixtures/invalid/mtu_out_of_range.yaml"],
        r,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[E020]"), "{err}");
    let (code, _, err) = fabric(&["validate", "no/such/file.yaml"], r);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no/such/file.yaml"), "{err}");
}

#[test]
fn warnings_fail_only_when_denied() {
    let dir = temp("warn");
    let f = dir.join("w.yaml");
    std::fs::write(
        &f,
        "profiles:\n  unused: { mtu: 9216 }\nswitches:\n  sw1: { model: SN2100 }\n",
    )
    .unwrap();
    let (code, _, err) = fabric(&["validate", f.to_str().unwrap()], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning[W001]"), "{err}");
    let (code, _, _) = fabric(&["validate", "--deny-warnings", f.to_str().unwrap()], &dir);
    assert_eq!(code, 1);
}

#[test]
fn compile_writes_then_check_detects_stale_goldens() {
    let dir = temp("compile");
    let src = root().join("fabrics/rdg-roce-dscp.yaml");
    let fab = dir.join("rdg-roce-dscp.yaml");
    std::fs::copy(&src, &fab).unwrap();
    let (code, out, err) = fabric(&["compile", "rdg-roce-dscp.yaml"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 written"), "{out}");
    let golden = dir.join("golden/rdg-roce-dscp/swx-mld-1-2.cfg");
    let text = std::fs::read_to_string(&golden).unwrap();
    assert_eq!(
        text,
        std::fs::read_to_string(root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg")).unwrap()
    );

    let (code, out, _) = fabric(&["compile", "--check", "rdg-roce-dscp.yaml"], &dir);
    assert_eq!(code, 0, "{out}");

    // A reviewer's change to the fabric makes the golden stale; --check shows the diff and
    // writes nothing.
    let edited = std::fs::read_to_string(&fab)
        .unwrap()
        .replace("min: 150, max: 1500", "min: 200, max: 1500");
    std::fs::write(&fab, edited).unwrap();
    let (code, out, err) = fabric(&["compile", "--check", "rdg-roce-dscp.yaml"], &dir);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("-   interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-absolute 150"), "{out}");
    assert!(out.contains("+   interface ethernet 1/1-1/32 traffic-class 3 congestion-control ecn minimum-absolute 200"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&golden).unwrap(),
        text,
        "--check must not write"
    );

    // A golden of a switch the fabric no longer has is stale too, and compile removes it.
    std::fs::write(dir.join("golden/rdg-roce-dscp/old-switch.cfg"), "x").unwrap();
    let (code, _, _) = fabric(&["compile", "rdg-roce-dscp.yaml"], &dir);
    assert_eq!(code, 0);
    assert!(!dir.join("golden/rdg-roce-dscp/old-switch.cfg").exists());

    // A golden that is there but does not read (bytes, not UTF-8 text) is an error naming it,
    // for compile and --check alike; it is not taken for a missing one and overwritten.
    let bytes = b"hostname \xff\xfe\n".to_vec();
    std::fs::write(&golden, &bytes).unwrap();
    for args in [&["compile"][..], &["compile", "--check"]] {
        let (code, out, err) = fabric(&[args, &["rdg-roce-dscp.yaml"]].concat(), &dir);
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains("swx-mld-1-2.cfg") && err.contains("not UTF-8"),
            "{err}"
        );
        assert_eq!(std::fs::read(&golden).unwrap(), bytes);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compile_refuses_an_invalid_fabric_and_writes_nothing() {
    let dir = temp("invalid");
    let (code, _, err) = fabric(
        &[
            "compile",
            "--out",
            dir.to_str().unwrap(),
            root()
                .join("tests/fixtures/invalid/mtu_out_of_range.yaml")
                .to_str()
                .unwrap(),
        ],
        root(),
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A string a switch would misread (an MLAG domain of several words, one with `;`) is
/// refused at its line by `validate`, `compile` and `push` alike: exit 1 (an invalid fabric),
/// nothing compiled, nothing sent.
#[test]
fn an_injected_mlag_domain_is_refused_before_anything_is_written() {
    for fixture in ["mlag_domain_command_injection", "mlag_domain_two_words"] {
        let file = root().join(format!("tests/fixtures/invalid/{fixture}.yaml"));
        let file = file.to_str().unwrap();
        let (code, _, err) = fabric(&["validate", file], root());
        assert_eq!(code, 1, "{err}");
        assert!(err.starts_with("error[E024]: MLAG domain name"), "{err}");
        assert!(err.contains(&format!("{fixture}.yaml:")), "{err}");
        let dir = temp(fixture);
        let (code, _, err) = fabric(&["compile", "--out", dir.to_str().unwrap(), file], root());
        assert_eq!(code, 1, "{err}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let (code, out, err) = fabric(&["push", "--dry-run", file], root());
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("error[E024]") && !out.contains("mlag-vip"),
            "{out}{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn templates_can_be_overridden_and_stay_strict() {
    let dir = temp("templates");
    std::fs::write(
        dir.join("other-ip.j2"),
        "   hostname {{ hostname }}\n   ip domain-list lab\n",
    )
    .unwrap();
    let out = temp("templates-out");
    let (code, _, err) = fabric(
        &[
            "compile",
            "--templates",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "fabrics/rdg-roce-dscp.yaml",
        ],
        root(),
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(out.join("rdg-roce-dscp/swx-mld-1-2.cfg")).unwrap();
    assert!(text.contains("   ip domain-list lab\n"));

    // An undefined variable is an error, not an empty string.
    std::fs::write(dir.join("other-ip.j2"), "   hostname {{ no_such_thing }}\n").unwrap();
    let (code, _, err) = fabric(
        &[
            "compile",
            "--templates",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "fabrics/rdg-roce-dscp.yaml",
        ],
        root(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("undefined"), "{err}");

    // A file that is not one of the templates is refused.
    std::fs::write(dir.join("typo.j2"), "").unwrap();
    let (code, _, err) = fabric(
        &[
            "compile",
            "--templates",
            dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "fabrics/rdg-roce-dscp.yaml",
        ],
        root(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("typo.j2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn shipped_schema_is_current() {
    let (code, out, _) = fabric(&["schema"], root());
    assert_eq!(code, 0);
    let shipped = std::fs::read_to_string(root().join("schema/fabric.schema.json")).unwrap();
    assert!(
        out == shipped,
        "schema/fabric.schema.json is stale: run `cargo run -- schema > schema/fabric.schema.json`"
    );
}

#[test]
fn parse_prints_canonical_text_or_the_model() {
    let capture =
        crate::shared().join("corpus/onyx/cray-docs-csm__hpcm_switch_conf_spine_001__3.9.3210.cfg");
    let capture = capture.to_str().unwrap();
    let (code, out, err) = fabric(&["parse", capture], root());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("   interface ethernet 1/1-1/9 speed 40G force\n"),
        "{out}"
    );
    assert!(!out.contains("Generated at"));

    let (code, out, _) = fabric(&["parse", "--format", "json", capture], root());
    assert_eq!(code, 0);
    let model: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(model["interfaces"]["ethernet 1/5"]["speed"]["speed"], "40G");
    assert_eq!(model["hostname"], "sw-spine-001");

    let (code, out, _) = fabric(&["parse", "--format", "yaml", capture], root());
    assert_eq!(code, 0);
    assert!(out.contains("hostname: sw-spine-001"), "{out}");

    let (code, out, err) = fabric(&["parse", "--format", "check", capture], root());
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));

    // Standard input, with a captured terminal's noise.
    let mut child = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(["parse", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(b"\x1b[?1h\x1b=\r   interface ethernet 1/2 mtu 9216 force\r\n\0\0lines 1-23 \r\x1b[K   lldp\r\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    assert!(
        text.contains("   interface ethernet 1/2 mtu 9216 force\n") && text.contains("   lldp\n"),
        "{text}"
    );
}

#[test]
fn parse_reports_a_malformed_line_with_its_position() {
    let dir = temp("parse-bad");
    let f = dir.join("bad.cfg");
    std::fs::write(
        &f,
        "##\n## Running database \"initial\"\n##\n\n   interface ethernet 1/1 mtu 99999 force\n",
    )
    .unwrap();
    let (code, out, err) = fabric(&["parse", f.to_str().unwrap()], &dir);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("error[E100]")
            && err.contains("bad.cfg:5:31")
            && err.contains("expected an MTU 1500-9216"),
        "{err}"
    );
    let (code, out, checked) = fabric(&["parse", "--format", "check", f.to_str().unwrap()], &dir);
    assert_eq!((code, out.as_str(), checked), (2, "", err));
    let (code, _, err) = fabric(&["parse", "no/such.cfg"], &dir);
    assert_eq!(code, 2);
    assert!(err.contains("no/such.cfg"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The reference switch as the guide's session shows it, against the reference fabric: the
/// one line the fabric adds (`lldp`), exit 1; after applying it, no drift, exit 0.
#[test]
fn diff_against_a_backup_exits_like_diff() {
    let dir = temp("diff");
    let session =
        std::fs::read_to_string(crate::shared().join("reference/rdg-roce-dscp.switch-session.txt"))
            .unwrap();
    let running: String = session
        .lines()
        .skip_while(|l| !l.ends_with("show running-config"))
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect();
    let file = dir.join("swx-mld-1-2.cfg");
    std::fs::write(&file, &running).unwrap();
    let fab = root().join("fabrics/rdg-roce-dscp.yaml");
    let (fab, file_s) = (fab.to_str().unwrap(), file.to_str().unwrap());

    let (code, out, err) = fabric(&["diff", fab, "--running", file_s], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("+   lldp\n") && out.contains("   1. lldp  [hitless]"),
        "{out}"
    );
    assert!(
        out.contains("1 of 1 switch(es) drift: 1 command(s)"),
        "{out}"
    );

    let (code, out, _) = fabric(
        &["diff", fab, "--running", file_s, "--format", "commands"],
        &dir,
    );
    assert_eq!((code, out.as_str()), (1, "lldp\n"));

    let (code, out, _) = fabric(
        &[
            "diff",
            fab,
            "--running",
            dir.to_str().unwrap(),
            "--format",
            "json",
        ],
        &dir,
    );
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["switches"][0]["name"], "swx-mld-1-2");
    assert_eq!(json["switches"][0]["commands"][0]["command"], "lldp");
    assert_eq!(json["switches"][0]["commands"][0]["impact"], "hitless");
    assert_eq!(json["summary"]["drifted"], 1);

    // The golden itself has no drift.
    let golden = root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg");
    let (code, out, _) = fabric(&["diff", fab, "--running", golden.to_str().unwrap()], &dir);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("swx-mld-1-2: no drift"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_errors_exit_2_with_a_reason() {
    let fab = root().join("fabrics/ml-cluster.yaml");
    let fab = fab.to_str().unwrap();
    let golden = root().join("golden/ml-cluster");
    let (code, _, err) = fabric(&["diff", fab], root());
    assert_eq!(code, 2);
    assert!(err.contains("--running"), "{err}");
    let (code, _, err) = fabric(
        &[
            "diff",
            fab,
            "--running",
            golden.join("leaf01.cfg").to_str().unwrap(),
        ],
        root(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("--switch"), "{err}");
    let (code, _, err) = fabric(
        &[
            "diff",
            fab,
            "--switch",
            "leaf1",
            "--running",
            golden.to_str().unwrap(),
        ],
        root(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `leaf01`"), "{err}");
    // A folder of backups: every switch of the fabric, here all without drift.
    let (code, out, err) = fabric(
        &["diff", fab, "--running", golden.to_str().unwrap()],
        root(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("leaf01 … spine02 (6 switches): no drift"),
        "{out}"
    );
}

/// Identical changes on many switches are shown once, with the switches' names.
#[test]
fn diff_groups_identical_changes() {
    let dir = temp("diff-group");
    for leaf in ["leaf01", "leaf02", "leaf03", "leaf04"] {
        let text =
            std::fs::read_to_string(root().join(format!("golden/ml-cluster/{leaf}.cfg"))).unwrap();
        std::fs::write(
            dir.join(format!("{leaf}.cfg")),
            text.replace("   lldp\n", ""),
        )
        .unwrap();
    }
    for spine in ["spine01", "spine02"] {
        std::fs::copy(
            root().join(format!("golden/ml-cluster/{spine}.cfg")),
            dir.join(format!("{spine}.cfg")),
        )
        .unwrap();
    }
    let (code, out, err) = fabric(
        &[
            "diff",
            root().join("fabrics/ml-cluster.yaml").to_str().unwrap(),
            "--running",
            dir.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("leaf01 … leaf04 (4 switches): same change, 1 command(s)"),
        "{out}"
    );
    assert!(out.contains("spine01 and spine02: no drift"), "{out}");
    assert!(
        out.contains("4 of 6 switch(es) drift: 4 command(s)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Nothing a lab or a test leaves behind is committed: no file the repository holds (tracked,
/// or untracked and not ignored) carries a private key.
#[test]
fn the_repository_holds_no_private_key() {
    let listed = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root())
        .output();
    let files: Vec<PathBuf> = match listed {
        Ok(o) if o.status.success() => o
            .stdout
            .split(|b| *b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| root().join(String::from_utf8_lossy(p).as_ref()))
            .collect(),
        // Not a git checkout (an unpacked archive): every file but the build's.
        _ => {
            let mut out = Vec::new();
            let mut stack = vec![root().to_path_buf()];
            while let Some(dir) = stack.pop() {
                for e in std::fs::read_dir(&dir).unwrap().flatten() {
                    let p = e.path();
                    let name = e.file_name();
                    if [".git", "target", ".fabric"].iter().any(|s| name == *s) {
                        continue;
                    }
                    if p.is_dir() {
                        stack.push(p)
                    } else {
                        out.push(p)
                    }
                }
            }
            out
        }
    };
    assert!(files.len() > 100, "{} files listed", files.len());
    // Spelled in two parts, so this file does not hold the marker it looks for.
    let marker = concat!("PRIVATE", " KEY-----").as_bytes();
    let with_keys: Vec<String> = files
        .iter()
        .filter(|p| std::fs::read(p).is_ok_and(|b| b.windows(marker.len()).any(|w| w == marker)))
        .map(|p| p.display().to_string())
        .collect();
    assert!(with_keys.is_empty(), "private keys in {with_keys:?}");
}

/// A backup that configures ports the switch's model does not have (port 1/40 of a 32-port
/// SN2700, a 4-way subport of an even port) is not compared silently: the ports are named, the
/// rest is compared, and the exit code says the diff could not be trusted.
#[test]
fn diff_names_ports_the_model_does_not_have() {
    let dir = temp("diff-foreign");
    let golden =
        std::fs::read_to_string(root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg")).unwrap();
    let backup = dir.join("swx-mld-1-2.cfg");
    std::fs::write(
        &backup,
        golden.replace(
            "   interface ethernet 1/1-1/32 qos trust L3\n",
            "   interface ethernet 1/1-1/32 qos trust L3\n   interface ethernet 1/40-1/41 qos trust L3\n   interface ethernet 1/2/3 qos trust L3\n",
        ),
    )
    .unwrap();
    let fab = root().join("fabrics/rdg-roce-dscp.yaml");
    let args = [
        "diff",
        fab.to_str().unwrap(),
        "--running",
        backup.to_str().unwrap(),
    ];
    let (code, out, err) = fabric(&args, &dir);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("SN2700 does not have: ethernet 1/2/3, ethernet 1/40-1/41"),
        "{err}"
    );
    assert!(out.contains("1 of 1 switch(es) drift"), "{out}");
    let (code, out, _) = fabric(&[&args[..], &["--format", "json"]].concat(), &dir);
    assert_eq!(code, 2);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        json["switches"][0]["foreign_ports"],
        serde_json::json!(["ethernet 1/2/3", "ethernet 1/40-1/41"])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// One switch's backup missing from a folder (or unreadable) hides nothing about the others:
/// it is named, the rest are diffed, exit 2.
#[test]
fn diff_of_a_folder_reports_missing_backups_and_diffs_the_rest() {
    let dir = temp("diff-missing");
    for sw in ["leaf01", "leaf02", "leaf03", "spine01"] {
        let text =
            std::fs::read_to_string(root().join(format!("golden/ml-cluster/{sw}.cfg"))).unwrap();
        std::fs::write(dir.join(format!("{sw}.cfg")), text.replace("   lldp\n", "")).unwrap();
    }
    std::fs::write(dir.join("spine02.cfg"), "% Permission denied\n").unwrap();
    let fab = root().join("fabrics/ml-cluster.yaml");
    let (code, out, err) = fabric(
        &[
            "diff",
            fab.to_str().unwrap(),
            "--running",
            dir.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("no running config for `leaf04`")
            && err.contains("leaf04.cfg` does not exist"),
        "{err}"
    );
    assert!(
        err.contains("error[E102]") && err.contains("spine02.cfg:1:1"),
        "{err}"
    );
    assert!(
        out.contains("4 of 4 switch(es) drift: 4 command(s)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The JSON summary always holds every impact, with zero counts.
#[test]
fn diff_json_lists_every_impact() {
    let golden = root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg");
    let (code, out, err) = fabric(
        &[
            "diff",
            "fabrics/rdg-roce-dscp.yaml",
            "--running",
            golden.to_str().unwrap(),
            "--format",
            "json",
        ],
        root(),
    );
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        json["summary"]["impact"],
        serde_json::json!({"hitless": 0, "port-flap": 0, "session-reset": 0, "disruptive": 0})
    );
}

/// A device, a folder or an oversized input is refused before it is read, with its own code,
/// by every command that reads a user's file: no read of `/dev/urandom` without end.
#[test]
fn devices_and_oversized_input_are_refused_early() {
    let dir = temp("devices");
    for args in [
        &["validate", "/dev/urandom"][..],
        &["validate", "/tmp"],
        &["validate", "/dev/zero", "fabrics/rdg-roce-dscp.yaml"],
        &["parse", "/dev/urandom"],
        &["audit", "--running", "/dev/zero"],
        &["import", "/dev/urandom"],
        &["compile", "--check", "/tmp"],
    ] {
        let (code, out, err) = fabric(args, root());
        // Not read is exit 2, as for a file that does not exist (docs/commands.md).
        assert_eq!(code, 2, "{args:?}: {code}\n{out}{err}");
        assert!(
            err.contains("error[E005]") && err.contains("not a file"),
            "{args:?}: {err}"
        );
    }
    // A running config over 64 MiB, through a pipe: read no further than the limit.
    let mut child = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(["parse", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        use std::io::Write as _;
        let block = vec![b'\n'; 1 << 20];
        // Stops when the reader is gone (broken pipe), well before this many.
        for _ in 0..256 {
            if stdin.write_all(&block).is_err() {
                return;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error[E004]") && err.contains("64 MiB"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fabric ARGS…`, stopped after `secs` seconds: its exit code and standard error, or `None`
/// when it was still running (a read that waits forever, or one without end).
pub(crate) fn fabric_within(args: &[&str], secs: u64) -> Option<(i32, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Some((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// An SSH config, or a file it includes, that is a device without end or a named pipe
/// nothing writes to is refused before anything connects, at once and naming the file (and
/// the `Include` line): not gigabytes read, not an abort, not a wait forever.
#[test]
fn an_ssh_config_or_its_include_that_is_no_file_is_refused_at_once() {
    let dir = temp("ssh-config-devices");
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let fifo = fifo.to_str().unwrap();
    let include = dir.join("includes");
    for (target, kind) in [
        ("/dev/urandom", "a character device"),
        ("/dev/zero", "a character device"),
        (fifo, "a named pipe (FIFO)"),
    ] {
        std::fs::write(&include, format!("Host a\n  Port 22\n\nInclude {target}\n")).unwrap();
        for (config, at) in [
            (target.to_string(), format!("cannot read `{target}`")),
            (
                include.display().to_string(),
                format!("includes:4: `Include {target}`: cannot read `{target}`"),
            ),
        ] {
            // Port 1 of loopback: were the config read, the connection would be refused.
            let args = ["import", "--live", "127.0.0.1:1", "--ssh-config", &config];
            let (code, err) = fabric_within(&args, 20).unwrap_or_else(|| {
                panic!("`--ssh-config {config}` ({target}) still running after 20 s")
            });
            assert_eq!(code, 2, "{config}: {err}");
            assert!(err.contains(&at), "{config}: {err}");
            assert!(err.contains(&format!("it is {kind}, not a file")), "{err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lines may end in `\n`, `\r\n` or (a text without `\n`) `\r`, and a terminal's NUL padding
/// and ANSI escapes are dropped, the same way in every reader: an Onyx and an OS10 running
/// config, a fabric file and a host report each read as the plain file does, with the same
/// output, errors and line:col.
#[test]
fn every_reader_takes_any_line_end_and_a_terminal_capture_alike() {
    let dir = temp("line-ends");
    let terminal = |t: &str| -> String {
        t.split('\n')
            .enumerate()
            .map(|(i, l)| match i % 3 {
                0 => format!("\0\0\x1b[K{l}"),
                1 => format!("{l}\x1b[0m"),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\r\n")
    };
    let cases: [(&str, &[&str], bool); 4] = [
        ("tests/fixtures/examples/bad.cfg", &["parse"], true),
        ("golden/vcf-bitfusion/leaf-a.cfg", &["parse"], true),
        (
            "tests/fixtures/invalid/mtu_out_of_range.yaml",
            &["validate"],
            false,
        ),
        (
            "tests/fixtures/audit/hosts/clean/gpu01.txt",
            &[
                "audit",
                "tests/fixtures/audit/hosts/fabric.yaml",
                "--host",
                "gpu01",
                "--hosts",
            ],
            true,
        ),
    ];
    for (file, args, captured) in cases {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let name = Path::new(file).file_name().unwrap().to_str().unwrap();
        let run = |variant: &str, body: &str| {
            let path = dir.join(variant).join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, body).unwrap();
            let mut all: Vec<&str> = args.to_vec();
            let shown = path.to_str().unwrap().to_string();
            all.push(&shown);
            let (code, out, err) = fabric(&all, root());
            let at = format!("{}/", dir.join(variant).display());
            // The messages and where they point; the excerpts show the file as it is.
            let err: Vec<String> = err
                .lines()
                .filter(|l| !l.contains('|'))
                .map(|l| l.replace(&at, ""))
                .collect();
            (code, out.replace(&at, ""), err)
        };
        let plain = run("lf", &text);
        let mut variants = vec![
            ("crlf", text.replace('\n', "\r\n")),
            ("cr", text.replace('\n', "\r")),
        ];
        if captured {
            variants.push(("terminal", terminal(&text)));
        }
        for (variant, body) in variants {
            assert_eq!(run(variant, &body), plain, "{file} with {variant} lines");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An error in a line of a megabyte is located (line:col) and shown as an excerpt around its
/// column, and a message that quotes the input quotes its start and end: a few lines of
/// output, not the megabyte.
#[test]
fn an_error_in_a_long_line_is_located_with_a_bounded_excerpt() {
    let dir = temp("long-line");
    let long = "x".repeat(1 << 20);
    let yaml = std::fs::read_to_string(root().join("tests/fixtures/invalid/mtu_out_of_range.yaml"))
        .unwrap()
        .replace(
            "{ mtu: 9300 }",
            &format!("{{ description: \"{long}\", mtu: 9300 }}"),
        );
    std::fs::write(dir.join("long.yaml"), yaml).unwrap();
    let onyx = std::fs::read_to_string(root().join("tests/fixtures/examples/bad.cfg"))
        .unwrap()
        .replace("mtu 99999 force", &format!("mtu 9216 force {long}"));
    std::fs::write(dir.join("long.cfg"), onyx).unwrap();
    let bad = root().join("tests/fixtures/audit/hosts/bad/bad-ip-link/gpu01.txt");
    let report = std::fs::read_to_string(bad)
        .unwrap()
        .replace("does not exist.", &format!("does not exist. {long}"));
    std::fs::write(dir.join("gpu01.txt"), report).unwrap();
    let d = dir.to_str().unwrap();
    let fabric_yaml = format!("{d}/long.yaml");
    let cfg = format!("{d}/long.cfg");
    let host = format!("{d}/gpu01.txt");
    for (args, at) in [
        (vec!["validate", &fabric_yaml], "long.yaml:5:1048612"),
        (vec!["parse", &cfg], "long.cfg:5:42"),
        (
            vec![
                "audit",
                "tests/fixtures/audit/hosts/fabric.yaml",
                "--host",
                "gpu01",
                "--hosts",
                &host,
            ],
            "gpu01.txt:34: ",
        ),
    ] {
        let (code, _, err) = fabric(&args, root());
        assert_eq!(
            code,
            if args[0] == "validate" { 1 } else { 2 },
            "{}",
            &err[..err.len().min(2000)]
        );
        assert!(err.contains(at), "{}", &err[..err.len().min(2000)]);
        assert!(err.len() < 4096, "{} bytes: {}", err.len(), &err[..2000]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader that goes away (`fabric parse big.cfg | head`) ends the output quietly, as Unix
/// tools do: no panic, no message, and the command's own exit code (a verdict is never turned
/// into success by a closed pipe). Each output here is larger than a pipe holds.
#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    use std::io::{BufRead as _, BufReader};
    let dir = temp("pipe");
    // A running config of 9,600 lines.
    let mut big =
        String::from("##\n## Running database \"initial\"\n##\n\n##\n## VLAN configuration\n##\n");
    for port in 1..=32 {
        for vlan in 1..=300 {
            big += &format!(
                "   interface ethernet 1/{port} switchport hybrid allowed-vlan add {vlan}\n"
            );
        }
    }
    std::fs::write(dir.join("big.cfg"), &big).unwrap();
    // 150 switches' backups, each port described.
    let backups = dir.join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    let golden =
        std::fs::read_to_string(root().join("golden/rdg-roce-dscp/swx-mld-1-2.cfg")).unwrap();
    for n in 0..150 {
        let described: String = (1..=32)
            .map(|p| {
                format!(
                    "   interface ethernet 1/{p} description \"host-{:03}-{p}:ens{}f{}\"\n",
                    (n * 37 + p * 11) % 997,
                    p % 3,
                    p % 2
                )
            })
            .collect();
        let text = golden.replace("swx-mld-1-2", &format!("sw{n:03}")).replacen(
            "##\n## Interface Ethernet buffer configuration",
            &format!("##\n## Interface Ethernet configuration\n##\n{described}\n##\n## Interface Ethernet buffer configuration"),
            1,
        );
        std::fs::write(backups.join(format!("sw{n:03}.cfg")), text).unwrap();
    }
    // A fabric of 40 switches with a host on every port, compiled into a folder without
    // goldens: every file is stale and printed whole.
    let mut fab = String::from(
        "lldp: true\nport_defaults: { mtu: 9216, trust: L3, pfc: true, ecn: { 3: { min: 150, max: 1500 } }, ets: { 6: strict } }\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n  pfc: { priorities: [3] }\nswitches:\n",
    );
    for n in 0..40 {
        fab += &format!(
            "  leaf{n:02}:\n    model: SN4600C\n    ports:\n      1/1-1/64: {{ peer: {{ host: \"gpu{n:02}-{{01..64}}\", port: ens1f0 }} }}\n"
        );
    }
    std::fs::write(dir.join("wide.yaml"), fab).unwrap();
    let cases: [&[&str]; 5] = [
        &["parse", "big.cfg"],
        &["import", "backups"],
        &["audit", "--running", "backups", "--format", "json"],
        &["audit", "--running", "backups", "--format", "sarif"],
        &["compile", "--check", "--out", "empty", "wide.yaml"],
    ];
    for args in cases {
        let (whole_code, whole, err) = fabric(args, &dir);
        assert!(
            whole.len() > 100_000,
            "{args:?}: only {} bytes\n{err}",
            whole.len()
        );
        let mut child = Command::new(env!("CARGO_BIN_EXE_fabric"))
            .args(args)
            .current_dir(&dir)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The reader is gone.
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(whole_code), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `validate` and `compile` judge a fabric the same way: the RoCE audit's errors fail both
/// (compile writes nothing), its warnings fail both under `--deny-warnings`; one file that
/// cannot be read is named while the others are still checked (exit 2); and a key written
/// twice is reported without hiding the file's other errors.
#[test]
fn validate_and_compile_agree_and_report_everything() {
    let dir = temp("agree");
    let ml = std::fs::read_to_string(root().join("fabrics/ml-cluster.yaml")).unwrap();
    // Ports opted out of PFC mode: a RoCE audit error (R005), not a format error.
    std::fs::write(
        dir.join("audit-error.yaml"),
        ml.replace(
            "port_defaults:\n",
            "port_defaults:\n  pfc: false          # every port opts out of PFC mode\n",
        ),
    )
    .unwrap();
    let out = dir.join("goldens");
    for cmd in [
        &["validate"][..],
        &["compile", "--out", out.to_str().unwrap()],
    ] {
        let (code, stdout, err) = fabric(&[cmd, &["audit-error.yaml"]].concat(), &dir);
        assert_eq!(code, 1, "{cmd:?}: {stdout}{err}");
        assert!(err.contains("R005"), "{cmd:?}: {err}");
    }
    assert!(
        !out.exists(),
        "compile wrote goldens for a fabric validate refuses"
    );
    // Nor is it pushed: refused before any switch is reached (no lab was started).
    let (code, stdout, err) = fabric(&["push", "audit-error.yaml", "--lab", "--yes"], &dir);
    assert_eq!(code, 1, "push: {stdout}{err}");
    assert!(err.contains("R005"), "push: {err}");
    assert!(!dir.join(".fabric").exists(), "push reached the lab");
    // The reference guide's fabric has audit warnings (R008, R011): they fail only when denied.
    let rdg = root().join("fabrics/rdg-roce-dscp.yaml");
    let rdg = rdg.to_str().unwrap();
    for cmd in [
        &["validate"][..],
        &["compile", "--out", out.to_str().unwrap()],
    ] {
        let (code, _, err) = fabric(&[cmd, &[rdg]].concat(), &dir);
        assert_eq!(code, 0, "{cmd:?}: {err}");
        assert!(err.contains("warning R008"), "{cmd:?}: {err}");
        let (code, _, err) = fabric(&[cmd, &["--deny-warnings", rdg]].concat(), &dir);
        assert_eq!(code, 1, "{cmd:?} --deny-warnings: {err}");
    }
    // A missing file: named, and the others still checked.
    std::fs::write(
        dir.join("bad.yaml"),
        "switches:\n  leaf01:\n    model: SN2100\n    ports:\n      1/1: { mtu: 99999 }\n",
    )
    .unwrap();
    let (code, _, err) = fabric(&["validate", "missing.yaml", "bad.yaml", rdg], &dir);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot read `missing.yaml`"), "{err}");
    assert!(
        err.contains("error[E020]") && err.contains("bad.yaml:5:19"),
        "{err}"
    );
    assert!(err.contains("warning R008"), "{err}");
    // A key written twice, and an error elsewhere in the same file: both reported.
    std::fs::write(
        dir.join("dup.yaml"),
        "switches:\n  leaf01:\n    model: SN2100\n    lldp: true\n    lldp: false\n    ports:\n      1/2: { mtu: 99999 }\n",
    )
    .unwrap();
    let (code, _, err) = fabric(&["validate", "dup.yaml"], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error[E013]") && err.contains("error[E020]"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two fabric files with the same stem (`sites/a/fabric.yaml`, `sites/b/fabric.yaml`) would
/// write one golden folder: refused, nothing written.
#[test]
fn compile_refuses_two_fabrics_with_one_golden_folder() {
    let dir = temp("stems");
    for site in ["a", "b"] {
        std::fs::create_dir_all(dir.join("sites").join(site)).unwrap();
        std::fs::write(
            dir.join(format!("sites/{site}/fabric.yaml")),
            format!("switches:\n  leaf-{site}: {{ model: SN2100 }}\n"),
        )
        .unwrap();
    }
    let (code, _, err) = fabric(
        &["compile", "sites/a/fabric.yaml", "sites/b/fabric.yaml"],
        &dir,
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`sites/a/fabric.yaml` and `sites/b/fabric.yaml` would both write their goldens to `golden/fabric`"),
        "{err}"
    );
    assert!(!dir.join("golden").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder of backups with some that are not running configs: `audit` names each, audits
/// the others and exits 2 (never a clean verdict); `import` names each and writes nothing.
#[test]
fn bad_backups_in_a_folder_are_each_named_and_never_pass() {
    let dir = temp("bad-backups");
    let backups = dir.join("backups");
    std::fs::create_dir_all(&backups).unwrap();
    for sw in ["leaf01", "leaf02", "spine01"] {
        std::fs::copy(
            root().join(format!("golden/ml-cluster/{sw}.cfg")),
            backups.join(format!("{sw}.cfg")),
        )
        .unwrap();
    }
    std::fs::write(backups.join("leaf03.cfg"), "% Permission denied\n").unwrap();
    std::fs::write(backups.join("leaf04.cfg"), "").unwrap();
    let (code, out, err) = fabric(&["audit", "--running", "backups"], &dir);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("leaf03.cfg:1:1") && err.contains("leaf04.cfg"),
        "{err}"
    );
    assert!(out.contains("leaf01") && out.contains("spine01"), "{out}");
    let (code, _, err) = fabric(&["import", "backups", "-o", "f.yaml"], &dir);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("leaf03.cfg:1:1") && err.contains("leaf04.cfg"),
        "{err}"
    );
    assert!(
        err.contains("2 running config(s) could not be read; nothing written"),
        "{err}"
    );
    assert!(!dir.join("f.yaml").exists());
    // Against a fabric: a missing backup is named too, and the rest audited.
    std::fs::remove_file(backups.join("leaf04.cfg")).unwrap();
    let fab = root().join("fabrics/ml-cluster.yaml");
    let (code, out, err) = fabric(
        &["audit", fab.to_str().unwrap(), "--running", "backups"],
        &dir,
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no running config for `leaf04`"), "{err}");
    assert!(out.contains("spine01"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
