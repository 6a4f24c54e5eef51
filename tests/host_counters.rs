//! A host's NIC counters, read twice an interval apart in its report (`fabric hosts --format
//! collect`, `fabric audit --hosts-live`): each finding named by host, port, priority, rate
//! and the lines it comes from; a report that cannot give a rate said, not passed; garbage a
//! located error; the captured formats read as the NIC prints them; the live read through a
//! real OpenSSH `sshd` answering two different readings.

use std::path::Path;

use crate::hosts::{audit_live, fixtures, live_fabric};
use crate::lab_ssh::fabric_bin;
use crate::{run, scratch, shared};

/// The host findings of a report given as text (rule ids, messages), the exit code and the
/// text output, against the fixture fabric (or `fabric`).
fn audit_text(name: &str, report: &str, fabric: Option<&Path>, extra: &[&str]) -> (i32, String) {
    let dir = scratch(&format!("host-counters-{name}"));
    std::fs::write(dir.join("gpu01.txt"), report).unwrap();
    let default = fixtures().join("fabric.yaml");
    run(fabric_bin()
        .arg("audit")
        .arg(fabric.unwrap_or(&default))
        .args(["--host", "gpu01", "--hosts"])
        .arg(dir.join("gpu01.txt"))
        .args(extra))
}

fn clean() -> String {
    std::fs::read_to_string(fixtures().join("clean/gpu01.txt")).unwrap()
}

/// `text` with the `n`-th (0-based) occurrence of `from` replaced.
fn replace_nth(text: &str, from: &str, to: &str, n: usize) -> String {
    let at = text
        .match_indices(from)
        .nth(n)
        .expect("the text holds it")
        .0;
    format!("{}{to}{}", &text[..at], &text[at + from.len()..])
}

/// The 1-based line of the `n`-th line of `text` that is `line` (trimmed).
fn line_of(text: &str, line: &str, n: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == line)
        .nth(n)
        .expect("the line is there")
        .0
        + 1
}

#[test]
fn each_host_counter_finding_names_port_priority_rate_and_lines() {
    let (code, out) = run(fabric_bin()
        .arg("audit")
        .arg(fixtures().join("fabric.yaml"))
        .args(["--host", "gpu01", "--hosts"])
        .arg(fixtures().join("H014")));
    assert_eq!(code, 1, "{out}");
    let report = std::fs::read_to_string(fixtures().join("H014/gpu01.txt")).unwrap();
    // 58,225 pauses over the 10.015 s between the two `date`s; both readings' lines; the
    // finding located at the second.
    assert!(
        out.contains("H014")
            && out.contains("gpu01")
            && out.contains("eth4: the host sent 5814 pause frames/s on lossless priority 3")
            && out.contains("pauses sw1 ethernet 1/1 without end")
            && out.contains("58225 over 10.0 s; threshold 1000/s, `verify: pause_rate`")
            && out.contains("      tx_prio3_pause: 1711\n      tx_prio3_pause: 59936\n")
            && out.contains(&format!(
                "H014/gpu01.txt:{}",
                line_of(&report, "tx_prio3_pause: 59936", 0)
            )),
        "{out}"
    );
    for (rule, said) in [
        (
            "H015",
            &[
                "eth4: 37 packets received on lossless priority 3 dropped for lack of buffers over 10.0 s (threshold 0, `verify: drops`)",
                "eth4: 37 received packets dropped for lack of buffers on the port",
            ][..],
        ),
        (
            "H016",
            &[
                "eth4: paused on lossless priority 3 (14 tx_prio3_pause, 212 rx_prio3_pause) over 10.0 s, and no ECN-marked RoCE received",
            ][..],
        ),
        (
            "H017",
            &[
                "eth4: 9 frames from sw1 ethernet 1/1 dropped for a bad FCS over 10.0 s (threshold 0, `verify: errors`)",
            ][..],
        ),
        (
            "H018",
            &[
                "eth4: the link to sw1 ethernet 1/1 went down 1 time(s) over 10.0 s: 2 state changes (threshold 0, `verify: flaps`)",
            ][..],
        ),
    ] {
        let (code, out) = run(fabric_bin()
            .arg("audit")
            .arg(fixtures().join("fabric.yaml"))
            .args(["--host", "gpu01", "--hosts"])
            .arg(fixtures().join(rule)));
        let expected = if rule == "H016" { 0 } else { 1 };
        assert_eq!(code, expected, "{rule}: {out}");
        for s in said {
            assert!(out.contains(s), "{rule}: {s}\n{out}");
        }
    }
}

/// The host's end is judged by the `verify:` thresholds of the switch it is cabled to: the
/// same pauses under a `pause_rate` above them, and FCS errors under an `errors` above them,
/// are no finding.
#[test]
fn host_counters_are_judged_by_the_fabrics_verify_thresholds() {
    let dir = scratch("host-counters-thresholds");
    let text = std::fs::read_to_string(fixtures().join("fabric.yaml")).unwrap();
    let fabric = dir.join("fabric.yaml");
    std::fs::write(
        &fabric,
        text.replace(
            "lldp: true\n",
            "lldp: true\nverify: { pause_rate: 6000, errors: 10 }\n",
        ),
    )
    .unwrap();
    for rule in ["H014", "H017"] {
        let report = std::fs::read_to_string(fixtures().join(rule).join("gpu01.txt")).unwrap();
        let (code, out) = audit_text(&format!("thresholds-{rule}"), &report, Some(&fabric), &[]);
        assert_eq!(code, 0, "{rule}: {out}");
        assert!(!out.contains(rule), "{rule}: {out}");
    }
}

/// A report that cannot give a rate says so (H019, a warning: exit 1 under `--fail-on
/// warning`): no reading, one, a counter that went backwards, a port read once.
#[test]
fn one_reading_or_a_counter_gone_backwards_is_said_not_clean() {
    let clean = clean();
    let config = &clean[..clean.find("+ date +%s.%N").unwrap()];
    let one = std::fs::read_to_string(fixtures().join("H019/gpu01.txt")).unwrap();
    let backwards = replace_nth(
        &clean,
        "     link_down_events_phy: 1\n",
        "     link_down_events_phy: 0\n",
        1,
    );
    let cleared = replace_nth(
        &clean,
        "hw_counters/np_cnp_sent:1052614815",
        "hw_counters/np_cnp_sent:17",
        0,
    );
    // The second reading without its `ethtool -S`.
    let second = clean.rfind("+ ethtool -S eth4\n").unwrap();
    let end = clean[second..].find("+ grep").unwrap() + second;
    let cut = format!("{}{}", &clean[..second], &clean[end..]);
    for (case, report, said) in [
        ("none", config, "the report holds no counter reading"),
        (
            "one",
            one.as_str(),
            &format!(
                "the report holds one counter reading (its `date` at line {})",
                line_of(&one, "1714557600.103518772", 0)
            ),
        ),
        (
            "backwards",
            &backwards,
            "eth4: link_down_events_phy went from 1 to 0 between the readings (cleared, or the driver reloaded): no rate",
        ),
        (
            "cleared",
            &cleared,
            "eth4: mlx5_2: np_cnp_sent went from 1052612505 to 17",
        ),
        (
            "cut",
            &cut,
            "eth4: no `ethtool -S eth4` in the last counter reading",
        ),
    ] {
        let (code, out) = audit_text(case, report, None, &[]);
        assert_eq!(code, 0, "{case}: {out}");
        assert!(out.contains("H019") && out.contains(said), "{case}: {out}");
        let (code, out) = audit_text(case, report, None, &["--fail-on", "warning"]);
        assert_eq!(code, 1, "{case}: {out}");
    }
}

/// mlx5 prints `rx_prioN_pause` only when PFC is on for N: a lossless priority without it
/// is said (H020), as is a counter the driver does not print.
#[test]
fn a_missing_counter_is_not_checked_and_says_why() {
    let report: String = clean()
        .lines()
        .filter(|l| {
            !l.trim().starts_with("rx_prio3_pause:") && !l.trim().starts_with("tx_prio3_pause:")
        })
        .filter(|l| !l.trim().starts_with("rx_crc_errors_phy"))
        .map(|l| format!("{l}\n"))
        .collect();
    let (code, out) = audit_text("pfc-off", &report, None, &[]);
    assert_eq!(code, 0, "{out}");
    for said in [
        "eth4: `ethtool -S eth4` has no rx_prio3_pause: mlx5 prints it only when PFC is on for priority 3",
        "eth4: `ethtool -S eth4` has no tx_prio3_pause",
        "eth4: the driver does not count rx_crc_errors_phy",
    ] {
        assert!(out.contains(said), "{said}\n{out}");
    }
    assert_eq!(out.matches("H020").count(), 3, "{out}");
}

/// What is not a counter reading is an error at its file:line, never a clean verdict.
#[test]
fn garbage_in_a_counter_reading_is_a_located_error() {
    let clean = clean();
    let first_date = "+ date +%s.%N\n1714557600.103518772\n";
    for (case, report, line, said) in [
        (
            "no-nanoseconds",
            clean.replace("1714557610.118842013", "1714557610.N"),
            line_of(&clean, "1714557610.118842013", 0),
            "`1714557610.N` is not seconds and nanoseconds",
        ),
        (
            "negative",
            replace_nth(&clean, "rx_crc_errors_phy: 0", "rx_crc_errors_phy: -3", 1),
            line_of(&clean, "rx_crc_errors_phy: 0", 1),
            "`-3` is not a counter (a whole number)",
        ),
        (
            "not-ethtool",
            replace_nth(
                &clean,
                "NIC statistics:",
                "netlink error: no device matches name",
                0,
            ),
            line_of(&clean, "NIC statistics:", 0),
            "`ethtool -S` prints `NIC statistics:` first",
        ),
        (
            "no-date",
            clean.replacen(first_date, "", 1),
            line_of(&clean, "+ ethtool -S eth4", 0) - 2,
            "a counter read before any `date +%s.%N`",
        ),
        (
            "hw-value",
            clean.replacen("np_cnp_sent:1052612505", "np_cnp_sent:many", 1),
            line_of(
                &clean,
                "/sys/class/infiniband/mlx5_2/ports/1/hw_counters/np_cnp_sent:1052612505",
                0,
            ),
            "`many` is not a counter",
        ),
        (
            "twice",
            clean.replacen(
                "     tx_bytes: 206614300117\n",
                "     tx_bytes: 206614300117\n     tx_bytes: 206614300117\n",
                1,
            ),
            line_of(&clean, "tx_bytes: 206614300117", 0) + 1,
            "tx_bytes is printed twice",
        ),
    ] {
        let (code, out) = audit_text(case, &report, None, &[]);
        assert_eq!(code, 2, "{case}: {out}");
        let at = format!("gpu01.txt:{line}: ");
        assert!(
            out.contains(&at) && out.contains(said),
            "{case}: {at}{said}\n{out}"
        );
    }
}

/// The captured lines (`tests/fixtures/SOURCES.md`) read as a report holds them: `ethtool
/// -S`'s five-space `name: value`, the hw_counters' values (one above 2^32); and esxcli's NIC
/// statistics have none of the counters the checks need.
#[test]
fn captured_counter_lines_read_as_the_nic_prints_them() {
    let corpus = shared().join("corpus/hosts/counters");
    let read = |name: &str| std::fs::read_to_string(corpus.join(name)).unwrap();
    let body =
        |text: String| -> String { text.lines().skip(1).map(|l| format!("{l}\n")).collect() };
    let ethtool = body(read(
        "blog-id60942567937__ethtool_-S_eth03_grep_discards_out_of_buffer_CX4Lx_real_PROVENANCE_INCOMPLETE.txt",
    )) + &body(read(
        "blog-id60942567937__ethtool_-S_eth03_grep_pause_pci_CX4Lx_global_pause_real_PROVENANCE_INCOMPLETE.txt",
    ));
    let hw: String = body(read(
        "blog-id60891034733__show_counters_mlx5_bond_0_hw_counters_real_PROVENANCE_INCOMPLETE.txt",
    ))
    .lines()
    .skip(1)
    .filter_map(|l| l.split_once(": "))
    .filter(|(n, _)| fabric::hosts::counters::HW_COUNTERS.contains(n))
    .map(|(n, v)| {
        format!(
            "{}:{v}\n",
            fabric::hosts::counters::hw_path("mlx5_bond_0", n)
        )
    })
    .collect();
    let paths: Vec<String> = fabric::hosts::counters::HW_COUNTERS
        .iter()
        .map(|n| fabric::hosts::counters::hw_path("mlx5_bond_0", n))
        .collect();
    let report = format!(
        "$ date +%s.%N\n1714557600.103518772\n$ ethtool -S eth03\nNIC statistics:\n{ethtool}$ grep -H . {}\n{hw}",
        paths.join(" ")
    );
    let r = fabric::hosts::report::parse(&report).unwrap_or_else(|e| panic!("{e:?}\n{report}"));
    let reading = &r.readings[0];
    assert_eq!(reading.at.value, 1_714_557_600_103_518_772);
    let stats = &reading.ethtool["eth03"].value;
    assert_eq!(stats["rx_steer_missed_packets"].value, Some(24627));
    assert_eq!(stats["tx_pause_ctrl_phy"].value, Some(1_266_552));
    assert_eq!(stats["tx_global_pause_duration"].value, Some(555_665_182));
    assert_eq!(stats["rx_prio7_discards"].line, 18);
    assert_eq!(stats.len(), 31);
    let hw = &reading.hw["mlx5_bond_0"].value;
    assert_eq!(hw["np_ecn_marked_roce_packets"].value, Some(21_278_189_006));
    assert_eq!(hw["np_cnp_sent"].value, Some(1_052_612_505));
    assert_eq!(hw.len(), 4);

    let esxcli =
        read("intel-mfd-network-adapter__esxcli_network_nic_stats_get_-n_vmnic9_fixture.txt");
    for absent in ["pause", "Pause", "ECN", "ecn", "link down", "Link"] {
        assert!(!esxcli.contains(absent), "{absent}");
    }
}

/// `fabric hosts --format collect` reads the counters twice, `--interval` apart, each reading
/// after its time; an ESXi host's script says none is read; an interval `sleep` cannot take
/// is refused.
#[test]
fn collect_reads_the_counters_twice_an_interval_apart() {
    let fabric = fixtures().join("fabric.yaml");
    let (code, out) = run(fabric_bin().arg("hosts").arg(&fabric).args([
        "--format",
        "collect",
        "--host",
        "gpu01",
        "--interval",
        "30s",
    ]));
    assert_eq!(code, 0, "{out}");
    let date = "echo '$ date +%s.%N'; date +%s.%N 2>&1\n";
    let ethtool = "echo '$ ethtool -S eth4'; ethtool -S eth4 2>&1\n";
    assert_eq!(out.matches(date).count(), 2, "{out}");
    assert_eq!(out.matches(ethtool).count(), 2, "{out}");
    assert_eq!(
        out.matches("hw_counters/out_of_buffer 2>&1\n").count(),
        2,
        "{out}"
    );
    let sleep = out
        .find("echo '$ sleep 30'; sleep 30 2>&1\n")
        .expect("a sleep");
    assert!(
        out.find(date).unwrap() < sleep && out.rfind(date).unwrap() > sleep,
        "{out}"
    );
    // The script's own output is a report the audit reads (its commands, in order).
    let (code, out) = run(fabric_bin()
        .arg("hosts")
        .arg(&fabric)
        .args(["--format", "collect", "--host", "esxi01"]));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("# No NIC counter is read on ESXi"), "{out}");
    assert!(!out.contains("ethtool") && !out.contains("sleep"), "{out}");
    let (code, out) = run(fabric_bin().arg("hosts").arg(&fabric).args([
        "--format",
        "collect",
        "--interval",
        "500ms",
    ]));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("whole seconds"), "{out}");
}

/// `fabric audit --hosts-live` reads the counters twice in the host's transcript through a
/// real `sshd` (its answers differ the second time), `--interval` apart, and finds the host
/// pausing its switch port without end and its link down once.
#[test]
fn hosts_live_reads_counters_twice_and_flags_a_pausing_host() {
    let case = fixtures().join("live-counters");
    let (dir, fabric, sshd) = live_fabric("counters", false, Some(&case));
    let (code, found, err) = audit_live(
        &dir.join("known_hosts"),
        &fabric,
        &sshd,
        &["--interval", "3s"],
    );
    assert_eq!(code, 1, "{err}");
    let rules: Vec<&str> = found.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(rules, ["H014", "H018"], "{found:?}\n{err}");
    let asked = std::fs::read_to_string(dir.join("asked.log")).unwrap();
    assert_eq!(asked.matches("ethtool -S eth4\n").count(), 2, "{asked}");
    assert_eq!(asked.matches("date +%s.%N\n").count(), 2, "{asked}");
    assert!(asked.contains("\nsleep 3\n"), "{asked}");
}
