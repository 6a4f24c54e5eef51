//! The lab's data plane in the kernel (`fabric::lab::dataplane`) and FRR on it, judged by the
//! kernel (`ip -j`) and by FRR's own JSON (`vtysh`), not by what the plan says. Needs root
//! (network namespaces), iproute2, iputils-ping and FRR: `.ci/run` runs as root and installs
//! them; elsewhere the tests fail saying what is missing, never pass without running.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fabric::lab::dataplane::{Dataplane, Plan, hosts, link_name};
use fabric::lab::frr::Frr;
use fabric::onyx::Iface;

use crate::lab_ssh::{Shell, fabric_bin};
use crate::root;

/// A namespace prefix of this test process: two runs at once never share a namespace.
fn prefix(tag: &str) -> String {
    format!("ft{}{tag}-", std::process::id())
}

/// Fails the test with what this machine lacks for the data plane, if anything.
fn needs_the_data_plane(tag: &str) {
    let lacking = fabric::lab::live::missing(&prefix(tag));
    assert!(
        lacking.is_empty(),
        "the data plane cannot be built here: {lacking:?}"
    );
}

/// `ip -n NS -j ARGS…`, its JSON.
fn ip_json(ns: &str, args: &[&str]) -> serde_json::Value {
    let out = Command::new("ip")
        .args(["-n", ns, "-j"])
        .args(args)
        .output()
        .expect("ip runs");
    assert!(
        out.status.success(),
        "ip -n {ns} -j {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("ip prints JSON")
}

/// A link of a namespace as the kernel has it: its MTU, operational state and flags.
fn link(ns: &str, dev: &str) -> (u64, String, Vec<String>) {
    let v = ip_json(ns, &["link", "show", "dev", dev]);
    let flags = v[0]["flags"]
        .as_array()
        .expect("flags")
        .iter()
        .map(|f| f.as_str().unwrap_or_default().to_string())
        .collect();
    (
        v[0]["mtu"].as_u64().expect("mtu"),
        v[0]["operstate"].as_str().expect("operstate").to_string(),
        flags,
    )
}

/// The device the kernel routes `addr` through in `ns`.
fn route_dev(ns: &str, addr: &str) -> String {
    let v = ip_json(ns, &["route", "get", addr]);
    v[0]["dev"].as_str().expect("dev").to_string()
}

/// The fabric of `fabrics/NAME`, validated.
fn fabric_of(name: &str) -> (String, fabric::fabric::Fabric) {
    let yaml = std::fs::read_to_string(root().join("fabrics").join(name)).unwrap();
    let mut sources = fabric::diag::Sources::default();
    let loaded = fabric::fabric::parse_bytes(name, yaml.as_bytes().to_vec(), &mut sources).unwrap();
    let (fab, _) = fabric::fabric::validate(&loaded.raw, loaded.file);
    (yaml, fab.expect("the example is valid"))
}

/// `fabrics/ml-cluster.yaml` (6 switches, 32 routed /31 uplinks, jumbo MTU everywhere, 128
/// GPU servers in each leaf's VLAN 10) built in namespaces as its compiled configs say: every
/// cable a veth pair whose ends carry each switch's MTU, both up; every routed port and
/// loopback its address; each leaf's VLAN 10 a bridge with its gateway address and MTU; two
/// hosts per leaf (the first and last server) at MTU 9000 with an address in the VLAN and
/// a default route to the gateway. Then a port shut on one switch: its far end has no
/// carrier; and dropping the data plane removes every namespace.
#[test]
fn the_routed_example_is_cabled_in_the_kernel_as_its_switches_are_configured() {
    needs_the_data_plane("p");
    let (yaml, fab) = fabric_of("ml-cluster.yaml");
    let (network, devices) = crate::network::network_and_devices(&yaml);
    let (hosts, left_out) = hosts(&fab, 2);
    assert!(left_out.is_empty(), "{left_out:?}");
    assert_eq!(hosts.len(), 8, "{hosts:?}");
    let gpu033 = hosts
        .iter()
        .find(|h| h.host == "gpu033")
        .expect("leaf02's first");
    assert_eq!(gpu033.address.unwrap().to_string(), "10.10.2.2/24");
    let gpu064 = hosts
        .iter()
        .find(|h| h.host == "gpu064")
        .expect("leaf02's last");
    assert_eq!(gpu064.address.unwrap().to_string(), "10.10.2.33/24");
    let plan = Plan::of(&network.view(), &hosts);
    assert_eq!(plan.switches.len(), 6);
    assert_eq!(plan.hosts.len(), 8);
    assert_eq!(plan.cables.len(), 32 + 8, "{:?}", plan.cables);
    assert!(plan.unmodelled.is_empty(), "{:?}", plan.unmodelled);
    let pre = prefix("a");
    let dp = Dataplane::build(&plan, &pre).unwrap();
    let ns = |n: &str| dp.namespace(n).unwrap().to_string();
    // Every end as the kernel has it: switch ports at 9216, the hosts' NICs at 9000.
    for (a, b) in &plan.cables {
        for e in [a, b] {
            let (mtu, state, _) = link(&ns(&e.node), &e.dev);
            let want = if e.node.starts_with("gpu") {
                9000
            } else {
                9216
            };
            assert_eq!(mtu, want, "{} {}", e.node, e.dev);
            assert_eq!(state, "UP", "{} {}", e.node, e.dev);
        }
    }
    // Each routed uplink: both ends addressed, the far address routed out of it.
    let by_dev: BTreeMap<(String, String), String> = plan
        .addresses
        .iter()
        .map(|a| ((a.node.clone(), a.dev.clone()), a.net.addr.to_string()))
        .collect();
    let mut routed = 0;
    for (a, b) in &plan.cables {
        let (Some(_), Some(far)) = (
            by_dev.get(&(a.node.clone(), a.dev.clone())),
            by_dev.get(&(b.node.clone(), b.dev.clone())),
        ) else {
            continue;
        };
        if a.node.starts_with("gpu") || b.node.starts_with("gpu") {
            continue;
        }
        assert_eq!(route_dev(&ns(&a.node), far), a.dev, "{} → {far}", a.node);
        routed += 1;
    }
    assert_eq!(routed, 32);
    // Loopbacks carry the router IDs; VLAN 10 is a bridge with the gateway at MTU 9216,
    // the host ports in it.
    let lo = ip_json(&ns("leaf01"), &["addr", "show", "dev", "lo"]);
    assert!(lo.to_string().contains("\"10.255.1.1\""), "{lo}");
    let (mtu, _, _) = link(&ns("leaf01"), "vlan10");
    assert_eq!(mtu, 9216);
    let svi = ip_json(&ns("leaf01"), &["addr", "show", "dev", "vlan10"]);
    assert!(svi.to_string().contains("\"10.10.1.1\""), "{svi}");
    let port = ip_json(&ns("leaf01"), &["link", "show", "dev", "eth1-1-1"]);
    assert_eq!(port[0]["master"], "vlan10", "{port}");
    // A host reaches its gateway at its MTU with Don't Fragment, through the bridge.
    assert_eq!(route_dev(&ns("gpu001"), "10.10.9.9"), "ens1f0");
    let ping = Command::new("ip")
        .args([
            "netns",
            "exec",
            &ns("gpu001"),
            "ping",
            "-M",
            "do",
            "-s",
            "8972",
        ])
        .args(["-c", "1", "-W", "2", "-n", "10.10.1.1"])
        .output()
        .unwrap();
    assert!(
        ping.status.success(),
        "{}",
        String::from_utf8_lossy(&ping.stdout)
    );

    // leaf01 1/25 shut: spine01's end of that cable has no carrier.
    let p25: fabric::types::Port = "1/25".parse().unwrap();
    let (far, q) = plan
        .cables
        .iter()
        .find(|(a, _)| a.node == "leaf01" && a.dev == link_name(p25))
        .map(|(_, b)| (b.node.clone(), b.dev.clone()))
        .expect("leaf01 1/25 is cabled");
    let mut dp = dp;
    devices["leaf01"].with(|sw| {
        crate::onyx(sw)
            .running
            .interfaces
            .get_mut(&Iface::Ethernet(p25))
            .unwrap()
            .shutdown = Some(true)
    });
    // The same namespaces taken to the new plan: only what differs changes.
    dp.apply(&Plan::of(&network.view(), &hosts)).unwrap();
    let (_, state, flags) = link(dp.namespace(&far).unwrap(), &q);
    assert_eq!(state, "DOWN", "{far} {q}");
    assert!(
        flags.iter().any(|f| f == "NO-CARRIER") && flags.iter().any(|f| f == "UP"),
        "{far} {q}: {flags:?}"
    );
    let (_, state, flags) = link(dp.namespace("leaf01").unwrap(), "eth1-25");
    assert_eq!(state, "DOWN");
    assert!(!flags.iter().any(|f| f == "UP"), "{flags:?}");
    drop(dp);
    let left = Command::new("ip").args(["netns", "list"]).output().unwrap();
    let left = String::from_utf8_lossy(&left.stdout);
    assert!(!left.contains(&pre), "namespaces left behind: {left}");
}

/// FRR's own view of a switch's sessions: `(neighbor, state)` from `show bgp summary json`.
fn frr_sessions(ns: &str) -> Vec<(String, String)> {
    let Ok(text) = Frr::vtysh(ns, "show bgp summary json") else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    v["ipv4Unicast"]["peers"]
        .as_object()
        .map(|peers| {
            peers
                .iter()
                .map(|(n, p)| (n.clone(), p["state"].as_str().unwrap_or("?").to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// The next hops (their devices) the kernel of `ns` installed towards `prefix`.
fn next_hops(ns: &str, prefix: &str) -> Vec<String> {
    let v = ip_json(ns, &["route", "show", prefix]);
    let Some(r) = v.as_array().and_then(|a| a.first()) else {
        return Vec::new();
    };
    match r["nexthops"].as_array() {
        Some(hops) => hops
            .iter()
            .map(|h| h["dev"].as_str().unwrap_or("?").to_string())
            .collect(),
        None => r["dev"].as_str().map(str::to_string).into_iter().collect(),
    }
}

/// Polls `ok` every 50 ms for up to `limit`: how long it took, or `None`.
fn within(limit: Duration, mut ok: impl FnMut() -> bool) -> Option<Duration> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if ok() {
            return Some(start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    ok().then(|| start.elapsed())
}

/// A `fabric lab` process stopped as a user stops it (SIGTERM: it removes its namespaces and
/// daemons) when the test ends, passed or not.
struct Stopped(std::process::Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        // SAFETY: a signal to the child this test started.
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `fabric lab FABRIC --dataplane` as a user runs it, until its banner is printed.
fn dataplane_lab(fabric: &Path, state: &Path, pre: &str) -> (Stopped, String) {
    let _ = std::fs::remove_dir_all(state);
    let child = fabric_bin()
        .arg("lab")
        .arg(fabric)
        .arg("--state")
        .arg(state)
        .args(["--base-port", "0", "--dataplane", "--namespace-prefix", pre])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut child = Stopped(child);
    let text = crate::lab_ssh::table(&mut child.0);
    (child, text)
}

/// A CLI session on a switch of the running lab.
fn shell(state: &Path, switch: &str) -> Shell {
    let inv = crate::lab_ssh::lab_inventory(state);
    let a = &inv.switches[switch];
    let addr = format!("{}:{}", a.host, a.port).parse().unwrap();
    let mut sh = Shell::open(addr, &state.join("known_hosts"));
    sh.send("enable").unwrap();
    sh.send("configure terminal").unwrap();
    sh
}

/// `fabric verify ml-cluster --inventory … --paths` of the running lab: exit code, output.
fn verify_paths(state: &Path) -> (i32, String) {
    crate::run(
        fabric_bin()
            .args([
                "verify",
                "fabrics/ml-cluster.yaml",
                "--paths",
                "--inventory",
            ])
            .arg(state.join("inventory.yaml"))
            .env("FABRIC_PASSWORD", "admin")
            .current_dir(root()),
    )
}

/// `fabric verify ml-cluster --paths` with the lab's hosts reached as real hosts: a copy of
/// the fabric whose sampled hosts have `mgmt` (OpenSSH's sshd on loopback, a port per host,
/// whose login runs the command in that host's namespace and logs it), the lab's inventory
/// without its data plane. Its exit code, output, and the commands the hosts were sent.
fn verify_paths_over_ssh(state: &Path, pre: &str) -> (i32, String, String) {
    let dir = crate::scratch("dataplane-ssh");
    let log = dir.join("asked.log");
    let sampled = [
        "gpu001", "gpu032", "gpu033", "gpu064", "gpu065", "gpu096", "gpu097", "gpu128",
    ];
    let ports: Vec<u16> = sampled
        .iter()
        .map(|_| crate::lab_ssh::free_port())
        .collect();
    // sshd listens on its own port too (a plain login there, unused). The probes log in many
    // at once: more unauthenticated connections than sshd's default 10 are not dropped.
    let mut tail = String::from("MaxStartups 100\n");
    for p in &ports {
        tail.push_str(&format!("Port {p}\n"));
    }
    for (h, p) in sampled.iter().zip(&ports) {
        tail.push_str(&format!(
            "Match LocalPort {p}\n  ForceCommand echo \"$SSH_ORIGINAL_COMMAND\" >> {}; exec ip netns exec {pre}{h} sh -c \"$SSH_ORIGINAL_COMMAND\"\n",
            log.display()
        ));
    }
    let sshd = crate::lab_ssh::sshd_with(&dir, &["ed25519"], &tail);
    let mut known = std::fs::read_to_string(state.join("known_hosts")).unwrap();
    for p in &ports {
        known.push_str(&format!("[127.0.0.1]:{p} {}\n", sshd.host_keys[0]));
    }
    std::fs::write(dir.join("known_hosts"), known).unwrap();
    // The fabric: the sampled hosts one entry each, with `mgmt`; the others as patterns.
    let text = std::fs::read_to_string(root().join("fabrics/ml-cluster.yaml")).unwrap();
    let host = "{ os: linux, nic: ConnectX-6 Dx, mtu: 9000, ports: { ens1f0: { rdma: mlx5_0 } }";
    let mut hosts = String::from("hosts:\n");
    for (a, b) in [(2, 31), (34, 63), (66, 95), (98, 127)] {
        hosts.push_str(&format!("  \"gpu{{{a:03}..{b:03}}}\": {host} }}\n"));
    }
    for (h, p) in sampled.iter().zip(&ports) {
        hosts.push_str(&format!(
            "  {h}: {host}, mgmt: {{ host: 127.0.0.1, port: {p}, user: {} }} }}\n",
            sshd.user
        ));
    }
    let start = text.find("\nhosts:\n").unwrap() + 1;
    let end = start + text[start..].find("\n\n").unwrap() + 1;
    let fabric = dir.join("ml-cluster.yaml");
    std::fs::write(
        &fabric,
        format!("{}{hosts}{}", &text[..start], &text[end..]),
    )
    .unwrap();
    // The inventory: the lab's switches, no data plane.
    let mut inv = crate::lab_ssh::lab_inventory(state);
    inv.dataplane = None;
    inv.known_hosts = Some(dir.join("known_hosts"));
    std::fs::write(
        dir.join("inventory.yaml"),
        serde_saphyr::to_string(&inv).unwrap(),
    )
    .unwrap();
    let (code, out) = crate::run(
        fabric_bin()
            .arg("verify")
            .arg(&fabric)
            .args(["--paths", "--check", "paths", "--inventory"])
            .arg(dir.join("inventory.yaml"))
            .arg("--identity")
            .arg(&sshd.user_key)
            .arg("--known-hosts")
            .arg(dir.join("known_hosts"))
            .env("FABRIC_PASSWORD", "admin"),
    );
    let asked = std::fs::read_to_string(&log).unwrap_or_default();
    (code, out, asked)
}

/// The proof of the routed example, as a user runs it: `fabric lab --dataplane`, `fabric
/// push` of `fabrics/ml-cluster.yaml` to it, then:
/// - every BGP session Established in FRR's own JSON (20 sessions, 40 ends);
/// - each leaf's kernel installs one next hop per uplink (8) towards every other leaf's
///   subnet, and the lab's `show ip route` prints that table in Onyx's layout (read by the
///   parser that reads the captures);
/// - `fabric verify --paths` clean: 9000-byte DF pings between hosts of every two leaves;
/// - leaf02's gateway VLAN left at MTU 1500 (typed in its CLI): `verify --paths` finds the
///   path MTU 1500 at leaf02's `vlan 10`;
/// - one of leaf01's uplinks shut in its CLI: 7 next hops towards the other leaves;
/// - a one-way loss on a link that stays up (spine02's frames to leaf01 sent to a MAC no
///   one has): BFD takes leaf01's session down within a second, as FRR's diagnostics say.
#[test]
fn the_routed_example_pushed_to_a_dataplane_lab_routes_and_its_paths_carry_the_hosts_mtu() {
    needs_the_data_plane("q");
    let state = crate::scratch("dataplane-lab");
    let pre = prefix("l");
    let fabric_path = root().join("fabrics/ml-cluster.yaml");
    let (lab, banner) = dataplane_lab(&fabric_path, &state, &pre);
    assert!(
        banner.contains("6 switch and 8 host namespace(s)"),
        "{banner}"
    );
    let ns = |n: &str| format!("{pre}{n}");
    let (code, out) = crate::run(
        fabric_bin()
            .args([
                "push",
                "fabrics/ml-cluster.yaml",
                "--yes",
                "--allow-disruptive",
                "--inventory",
            ])
            .arg(state.join("inventory.yaml"))
            .env("FABRIC_PASSWORD", "admin")
            .current_dir(root()),
    );
    assert_eq!(code, 0, "{out}");

    // Every session Established, in FRR's JSON.
    let switches = ["leaf01", "leaf02", "leaf03", "leaf04", "spine01", "spine02"];
    let up = within(Duration::from_secs(90), || {
        switches.iter().all(|sw| {
            let s = frr_sessions(&ns(sw));
            let want = if sw.starts_with("spine") { 16 } else { 8 };
            s.len() == want && s.iter().all(|(_, st)| st == "Established")
        })
    });
    assert!(
        up.is_some(),
        "{:?}",
        switches
            .iter()
            .map(|sw| (sw, frr_sessions(&ns(sw))))
            .collect::<Vec<_>>()
    );
    // One next hop per uplink towards every other leaf's subnet, in each leaf's kernel.
    for (i, leaf) in switches[..4].iter().enumerate() {
        for j in (1..=4).filter(|j| *j != i + 1) {
            let subnet = format!("10.10.{j}.0/24");
            let ok = within(Duration::from_secs(30), || {
                next_hops(&ns(leaf), &subnet).len() == 8
            });
            assert!(
                ok.is_some(),
                "{leaf} → {subnet}: {:?}",
                next_hops(&ns(leaf), &subnet)
            );
        }
    }
    // The lab prints FRR's table as Onyx does.
    let mut leaf01 = shell(&state, "leaf01");
    let text = leaf01.send("show ip route 10.10.2.0").unwrap();
    let routes =
        fabric::onyx::verify::text::ip_route(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let route = routes
        .iter()
        .find(|r| r.prefix.to_string() == "10.10.2.0/24")
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(route.source, "bgp");
    assert_eq!(route.hops.len(), 8, "{text}");
    assert!(route.hops.iter().any(|(_, i)| i == "eth1/25"), "{text}");

    // The paths, proved by the hosts: clean.
    let (code, out) = verify_paths(&state);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 finding(s)"), "{out}");

    // leaf02's gateway VLAN at 1500: the path MTU found there.
    let mut leaf02 = shell(&state, "leaf02");
    leaf02.send("interface vlan 10 mtu 1500").unwrap();
    let cut = within(Duration::from_secs(10), || {
        link(&ns("leaf02"), "vlan10").0 == 1500
    });
    assert!(
        cut.is_some(),
        "the VLAN interface's MTU follows the switch's"
    );
    // Found with the hosts reached as real ones first (over SSH: OpenSSH's sshd, each host's
    // login entering its namespace; their addresses read from them; nothing changed on them,
    // so this comes before the lab's probes leave a learned path MTU behind), then in the lab.
    let (code_ssh, out_ssh, asked) = verify_paths_over_ssh(&state, &pre);
    assert_eq!(code_ssh, 1, "{out_ssh}");
    let (code, out) = verify_paths(&state);
    assert_eq!(code, 1, "{out}");
    let findings = |o: &str| -> Vec<String> {
        o.lines()
            .filter(|l| l.contains("error V0"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(findings(&out_ssh), findings(&out), "{out_ssh}");
    assert!(asked.contains("ip -j -4 addr show dev ens1f0"), "{asked}");
    assert!(
        asked.contains("ping -M do -s 8972 -c 1 -W 1 -n -I 10.10.1.2 10.10.2.2"),
        "{asked}"
    );
    assert!(
        !asked.contains("flush"),
        "a real host's state is left alone: {asked}"
    );
    let v016: Vec<&str> = out.lines().filter(|l| l.contains("error V016")).collect();
    assert_eq!(
        v016.len(),
        3,
        "one per other leaf's hosts towards leaf02's: {out}"
    );
    for l in &v016 {
        assert!(
            l.contains("→ gpu033:ens1f0 (leaf02 vlan 10)")
                && l.contains("refused at interface vlan 10 (MTU 1500;")
                && l.contains("the path MTU is 1500, the hosts' 9000"),
            "{l}"
        );
    }
    leaf02.send("interface vlan 10 mtu 9216").unwrap();

    // gpu001's leaf port at 1500 (typed in leaf01's CLI): the veth follows, and the frames
    // the host sends at 9000 are dropped without a word, as a switch port drops them: the
    // probes find the largest size that passes.
    leaf01.send("interface ethernet 1/1/1 mtu 1500").unwrap();
    let small = within(Duration::from_secs(10), || {
        link(&ns("leaf01"), "eth1-1-1").0 == 1500
    });
    assert!(small.is_some(), "the port's veth follows its MTU");
    let (code, out) = verify_paths(&state);
    assert_eq!(code, 1, "{out}");
    let silent: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("error V016") && l.contains("gpu001:ens1f0"))
        .collect();
    assert_eq!(silent.len(), 6, "to and from each other leaf's host: {out}");
    // 1504: the kernel lets every Ethernet device take 4 bytes more than its MTU (an 802.1Q
    // tag's room), a veth too.
    for l in &silent {
        assert!(
            l.contains("dropped without an answer")
                && l.contains("the largest that passes is 1504"),
            "{l}"
        );
    }
    leaf01.send("interface ethernet 1/1/1 mtu 9216").unwrap();

    // One uplink of leaf01 shut: a next hop fewer towards every other leaf.
    leaf01.send("interface ethernet 1/25 shutdown").unwrap();
    let fewer = within(Duration::from_secs(10), || {
        next_hops(&ns("leaf01"), "10.10.2.0/24").len() == 7
    });
    assert!(
        fewer.is_some(),
        "{:?}",
        next_hops(&ns("leaf01"), "10.10.2.0/24")
    );
    leaf01.send("interface ethernet 1/25 no shutdown").unwrap();

    // A one-way loss with the link up: only BFD can see it. spine02's frames to leaf01's
    // 1/29 (10.254.0.225) go to a MAC that is no one's.
    let spine02 = ns("spine02");
    let leaf01_ns = ns("leaf01");
    let dev = ip_json(&spine02, &["route", "get", "10.254.0.225"])[0]["dev"]
        .as_str()
        .unwrap()
        .to_string();
    let session = |who: &str| {
        frr_sessions(&leaf01_ns)
            .into_iter()
            .find(|(n, _)| n == who)
            .map(|(_, s)| s)
    };
    assert_eq!(session("10.254.0.224").as_deref(), Some("Established"));
    let poisoned = Command::new("ip")
        .args(["-n", &spine02, "neigh", "replace", "10.254.0.225"])
        .args([
            "lladdr",
            "02:00:00:00:00:01",
            "nud",
            "permanent",
            "dev",
            &dev,
        ])
        .status()
        .unwrap();
    assert!(poisoned.success());
    let down = within(Duration::from_secs(5), || {
        session("10.254.0.224").as_deref() != Some("Established")
    });
    let bfd = Frr::vtysh(&leaf01_ns, "show bfd peer 10.254.0.224 json").unwrap();
    let bfd: serde_json::Value = serde_json::from_str(&bfd).unwrap();
    assert_eq!(bfd["status"], "down", "{bfd}");
    assert_eq!(bfd["diagnostic"], "control detection time expired", "{bfd}");
    // FRR's detection time: 3 × 300 ms.
    assert_eq!(
        bfd["detect-multiplier"].as_u64().unwrap() * bfd["receive-interval"].as_u64().unwrap(),
        900,
        "{bfd}"
    );
    let took = down.expect("BFD takes the session down");
    // The link stayed up: carrier on both ends.
    assert_eq!(link(&leaf01_ns, "eth1-29").1, "UP");
    assert!(
        took < Duration::from_millis(1500),
        "BFD took {took:?} (polled every 50 ms)"
    );
    eprintln!("BFD: leaf01's session to spine02 down {took:?} after the loss began");

    drop(leaf01);
    drop(leaf02);
    drop(lab);
    let left = Command::new("ip").args(["netns", "list"]).output().unwrap();
    let left = String::from_utf8_lossy(&left.stdout);
    assert!(!left.contains(&pre), "namespaces left behind: {left}");
    assert!(
        !Path::new("/var/run/frr").join(ns("leaf01")).exists(),
        "FRR's folders left behind"
    );
}

/// `fabrics/gpu-pod.yaml` (Onyx spines and rail leaves beside an OS10 VLT pair, servers with
/// a port on each of two rails) pushed to a `--dataplane` lab: the OS10 leaves' BGP runs in
/// FRR too, and `fabric verify --paths` is clean, reading each OS's `show ip route` in its own
/// layout (the lab prints FRR's table so) and probing each rail from its own port.
#[test]
fn the_mixed_pod_routes_in_frr_on_both_oses_and_its_rails_carry_the_hosts_mtu() {
    needs_the_data_plane("r");
    let state = crate::scratch("dataplane-pod");
    let pre = prefix("m");
    let fabric_path = root().join("fabrics/gpu-pod.yaml");
    let (lab, _) = dataplane_lab(&fabric_path, &state, &pre);
    let (code, out) = crate::run(
        fabric_bin()
            .args([
                "push",
                "fabrics/gpu-pod.yaml",
                "--yes",
                "--allow-disruptive",
            ])
            .arg("--inventory")
            .arg(state.join("inventory.yaml"))
            .env("FABRIC_PASSWORD", "admin")
            .current_dir(root()),
    );
    assert_eq!(code, 0, "{out}");
    let (code, out) = crate::run(
        fabric_bin()
            .args([
                "verify",
                "fabrics/gpu-pod.yaml",
                "--check",
                "bgp",
                "--paths",
            ])
            .args(["--wait", "60", "--inventory"])
            .arg(state.join("inventory.yaml"))
            .env("FABRIC_PASSWORD", "admin")
            .current_dir(root()),
    );
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("not checked"), "{out}");
    // leaf03 is OS10: its sessions are FRR's.
    let sessions = frr_sessions(&format!("{pre}leaf03"));
    assert_eq!(sessions.len(), 2, "{sessions:?}");
    assert!(
        sessions.iter().all(|(_, s)| s == "Established"),
        "{sessions:?}"
    );
    drop(lab);
}

/// Without what the data plane needs, `--dataplane` says exactly what is missing and how to
/// get it, and starts nothing: here `ping` and FRR's `vtysh` are not on the `PATH` (`ip` is).
#[test]
fn dataplane_says_what_the_machine_lacks_and_starts_nothing() {
    let dir = crate::scratch("dataplane-missing");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("iproute2's ip");
    std::os::unix::fs::symlink(ip, bin.join("ip")).unwrap();
    let (code, out) = crate::run(
        fabric_bin()
            .arg("lab")
            .arg(root().join("fabrics/ml-cluster.yaml"))
            .arg("--state")
            .arg(dir.join("state"))
            .args(["--base-port", "0", "--dataplane"])
            .args(["--namespace-prefix", &prefix("x")])
            .env("PATH", &bin),
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("--dataplane needs what this machine lacks")
            && out.contains("the `ping` command (iputils): apt-get install -y iputils-ping")
            && out.contains("vtysh): apt-get install -y frr")
            && out.contains("the lab without --dataplane needs none of it"),
        "{out}"
    );
    assert!(!out.contains("switch(es) listening"), "{out}");
    assert!(!dir.join("state").exists(), "nothing written");
    let left = Command::new("ip").args(["netns", "list"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&left.stdout).contains(&prefix("x")));
}

/// `fabrics/spectrum-x.yaml` (Cumulus leaves and spines peering BGP unnumbered) pushed to a
/// `--dataplane` lab: FRR runs each uplink as an interface neighbor, every leaf's four
/// sessions come up over IPv6 link-local addresses, and the kernel routes every other
/// leaf's rail subnet over all four uplinks (both spines).
#[test]
fn spectrum_x_peers_unnumbered_in_frr_and_routes_over_both_spines() {
    needs_the_data_plane("u");
    let state = crate::scratch("dataplane-spectrum-x");
    let pre = prefix("u");
    let fabric_path = root().join("fabrics/spectrum-x.yaml");
    let (lab, _) = dataplane_lab(&fabric_path, &state, &pre);
    let (code, out) = crate::run(
        fabric_bin()
            .args([
                "push",
                "fabrics/spectrum-x.yaml",
                "--yes",
                "--allow-disruptive",
            ])
            .arg("--inventory")
            .arg(state.join("inventory.yaml"))
            .env("FABRIC_PASSWORD", "admin")
            .current_dir(root()),
    );
    assert_eq!(code, 0, "{out}");
    let uplinks = ["eth1-33", "eth1-34", "eth1-35", "eth1-36"];
    for leaf in ["leaf01", "leaf02", "leaf03", "leaf04"] {
        let ns = format!("{pre}{leaf}");
        let up = || {
            let s = frr_sessions(&ns);
            s.len() == 4 && s.iter().all(|(_, st)| st == "Established")
        };
        assert!(
            within(Duration::from_secs(60), up).is_some(),
            "{leaf}: {:?}",
            frr_sessions(&ns)
        );
        let names: Vec<String> = frr_sessions(&ns).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, uplinks, "{leaf}");
    }
    let ns = format!("{pre}leaf01");
    let four = || {
        let mut hops = next_hops(&ns, "10.102.2.0/24");
        hops.sort();
        hops == uplinks
    };
    assert!(
        within(Duration::from_secs(30), four).is_some(),
        "{:?}",
        next_hops(&ns, "10.102.2.0/24")
    );
    // `nv show` on leaf01 prints FRR's sessions, by port.
    let inv = crate::lab_ssh::lab_inventory(&state);
    let a = &inv.switches["leaf01"];
    let addr = format!("{}:{}", a.host, a.port).parse().unwrap();
    let mut sh = Shell::open_cumulus(addr, &state.join("known_hosts"));
    let out = sh
        .send("nv show vrf default router bgp neighbor -o json")
        .unwrap();
    let json = &out[out.find('{').unwrap_or(0)..];
    let shown: serde_json::Value = serde_json::from_str(json.trim()).unwrap_or_default();
    for port in ["swp33", "swp34", "swp35", "swp36"] {
        assert_eq!(shown[port]["state"], "established", "{out}");
    }
    drop(lab);
}
