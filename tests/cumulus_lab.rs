//! `fabric push` of Cumulus switches to the lab (`--lab`, over real SSH on loopback): the
//! Spectrum-X fabric converges, then changes nothing; a push whose connection drops mid-way
//! leaves the switch on its previous revision; its BGP unnumbered sessions come up and carry
//! every leaf's rail subnet over both spines.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::push::{faults_of, log_of, state_of};

fn scratch(name: &str) -> PathBuf {
    let dir = crate::scratch(&format!("cumulus-lab-{name}"));
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fabrics/spectrum-x.yaml");
    std::fs::copy(src, dir.join("spectrum-x.yaml")).unwrap();
    dir
}

fn push(dir: &Path, extra: &[&str]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fabric"));
    cmd.current_dir(dir)
        .args(["push", "spectrum-x.yaml", "--lab", "--yes"])
        .args(extra)
        .env_remove("FABRIC_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    crate::run(&mut cmd)
}

fn startup(dir: &Path, sw: &str) -> String {
    std::fs::read_to_string(state_of(dir, sw).join("startup.yaml")).unwrap_or_default()
}

#[test]
fn spectrum_x_converges_on_cumulus_lab_switches_then_changes_nothing() {
    let dir = scratch("converge");
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01   converged") && out.contains("spine01  converged"),
        "{out}"
    );
    let log = log_of(&dir, "leaf01");
    let at = |c: &str| {
        log.iter()
            .position(|l| l == c)
            .unwrap_or_else(|| panic!("{c}: {log:?}"))
    };
    assert!(at("nv config detach") < at("nv config apply --confirm 600s --assume-yes"));
    assert!(at("nv config apply 1 --confirm-yes") < at("nv config save"));
    assert!(startup(&dir, "leaf01").contains("hostname: leaf01"));
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("leaf01: no change") && out.contains("spine02: no change"),
        "{out}"
    );
}

#[test]
fn a_push_cut_mid_way_leaves_the_previous_revision() {
    let dir = scratch("cut");
    let (code, out) = push(&dir, &["--switch", "leaf01"]);
    assert_eq!(code, 0, "{out}");
    let before = startup(&dir, "leaf01");
    let text = std::fs::read_to_string(dir.join("spectrum-x.yaml")).unwrap();
    let changed = text.replace("asn_base: 65100", "asn_base: 65200");
    assert_ne!(changed, text);
    std::fs::write(dir.join("spectrum-x.yaml"), changed).unwrap();
    let applies = |log: &[String]| {
        log.iter()
            .filter(|l| l.starts_with("nv config apply --confirm"))
            .count()
    };
    let applied = applies(&log_of(&dir, "leaf01"));
    faults_of(
        &dir,
        "leaf01",
        "drop: { match: \"nv set router bgp autonomous-system\" }\n",
    );
    let (code, out) = push(&dir, &["--switch", "leaf01"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("connection lost at `nv set router bgp autonomous-system 65201`"),
        "{out}"
    );
    assert_eq!(applies(&log_of(&dir, "leaf01")), applied);
    // Nothing applied: the next push (the fault gone) still has the change to make.
    faults_of(&dir, "leaf01", "{}\n");
    let (code, out) = push(&dir, &["--switch", "leaf01", "--dry-run"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("nv set router bgp autonomous-system 65201"),
        "{out}"
    );
    assert_eq!(startup(&dir, "leaf01"), before);
}

/// A push whose verify fails (the switch's configuration changed behind it right after the
/// apply): the push rolls back — a revision of its own, confirmed — and saves nothing; the
/// switch is on the tree it had before.
#[test]
fn a_push_whose_verify_fails_leaves_the_previous_revision() {
    let dir = scratch("verify");
    let (code, out) = push(&dir, &["--switch", "leaf01"]);
    assert_eq!(code, 0, "{out}");
    let before_startup = startup(&dir, "leaf01");
    let text = std::fs::read_to_string(dir.join("spectrum-x.yaml")).unwrap();
    std::fs::write(
        dir.join("spectrum-x.yaml"),
        text.replace("asn_base: 65100", "asn_base: 65200"),
    )
    .unwrap();
    let planned = |dir: &Path| {
        let (code, out) = push(dir, &["--switch", "leaf01", "--dry-run"]);
        assert_eq!(code, 0, "{out}");
        let lines: Vec<String> = out
            .lines()
            .filter(|l| l.contains("nv "))
            .map(str::to_string)
            .collect();
        assert!(!lines.is_empty(), "{out}");
        lines
    };
    let before = planned(&dir);
    faults_of(
        &dir,
        "leaf01",
        "drift:\n  match: \"nv config apply --confirm\"\n  commands: [\"nv set interface swp20 link mtu 1500\"]\n",
    );
    let (code, out) = push(&dir, &["--switch", "leaf01"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("still differ after applying"), "{out}");
    assert!(out.contains("rolled back"), "{out}");
    let log = log_of(&dir, "leaf01");
    let applies: Vec<&String> = log
        .iter()
        .filter(|l| l.starts_with("nv config apply"))
        .collect();
    // The push's apply, the roll-back's apply, the roll-back's confirm; never the push's own
    // confirm, never a save.
    assert!(applies.len() >= 3, "{log:?}");
    let last_save = log.iter().rposition(|l| l == "nv config save").unwrap();
    let push_apply = log
        .iter()
        .rposition(|l| l.starts_with("nv config apply --confirm"))
        .unwrap();
    assert!(
        last_save < push_apply,
        "saved after the failed push: {log:?}"
    );
    faults_of(&dir, "leaf01", "{}\n");
    assert_eq!(
        planned(&dir),
        before,
        "the switch is on its previous tree: the same plan"
    );
    assert_eq!(startup(&dir, "leaf01"), before_startup);
}

/// The fabric in `dir`.
fn fabric_of(dir: &Path) -> fabric::fabric::Fabric {
    let yaml = std::fs::read(dir.join("spectrum-x.yaml")).unwrap();
    let mut sources = fabric::diag::Sources::default();
    let loaded = fabric::fabric::parse_bytes("spectrum-x.yaml", yaml, &mut sources).unwrap();
    fabric::fabric::validate(&loaded.raw, loaded.file)
        .0
        .unwrap()
}

/// The lab's network of the switches whose state a push left in `dir`: each read from its
/// folder, cabled as the fabric says.
fn pushed_network(dir: &Path) -> std::sync::Arc<fabric::lab::Network> {
    let fab = fabric_of(dir);
    let network = fabric::lab::Network::new(fabric::lab::Cabling::from_fabric(&fab));
    for name in fab.switches.keys() {
        network.add_folder(name.as_str(), state_of(dir, name.as_str()));
    }
    network
}

/// Spectrum-X pushed to the lab: every cable between a leaf and a spine carries a BGP
/// unnumbered session, Established on both ends, and every leaf reaches every other leaf's
/// rail subnet over both spines (four equal paths: two cables to each); `nv show vrf default
/// router bgp neighbor -o json` lists them by port. An end that expects the wrong AS has its
/// session refused on both ends; a broken cable takes one path of four away.
#[test]
fn spectrum_x_peers_unnumbered_and_routes_over_both_spines() {
    use fabric::lab::network::SessionState;
    let dir = scratch("unnumbered");
    let (code, out) = push(&dir, &[]);
    assert_eq!(code, 0, "{out}");
    let network = pushed_network(&dir);
    let world = network.world("leaf01");
    let bgp = world.net().bgp();
    let leaves = ["leaf01", "leaf02", "leaf03", "leaf04"];
    let rails = [
        "10.101.1.0/24",
        "10.102.2.0/24",
        "10.103.3.0/24",
        "10.104.4.0/24",
    ];
    for (i, leaf) in leaves.iter().enumerate() {
        leaf_peers_and_routes(&bgp[*leaf], leaf, i, &rails);
    }
    for spine in ["spine01", "spine02"] {
        let v = &bgp[spine];
        assert_eq!(v.sessions.len(), 8, "{spine}");
        assert!(
            v.sessions
                .iter()
                .all(|s| s.state == SessionState::Established),
            "{spine}: {:?}",
            v.sessions
        );
    }
    // `nv show` on leaf01 (its compiled tree, as the push applied it) in the same network.
    let dev = leaf01_device(&dir, &network);
    let mut session = fabric::lab::Session::new();
    let out = typed(
        &dev,
        &mut session,
        "nv show vrf default router bgp neighbor -o json",
    );
    let shown: serde_json::Value = serde_json::from_str(&out).unwrap();
    for port in ["swp33", "swp34", "swp35", "swp36"] {
        assert_eq!(
            shown[port],
            serde_json::json!({"remote-as": "external", "state": "established"}),
            "{out}"
        );
    }
    assert_eq!(shown.as_object().map(|o| o.len()), Some(4), "{out}");
    // leaf01 expects its own AS on swp34: that session is refused (Idle) on both ends.
    let mut typed = |line: &str| typed(&dev, &mut session, line);
    typed("nv set vrf default router bgp neighbor swp34 remote-as internal");
    typed("nv config apply --assume-yes");
    let world = network.world("leaf01");
    let bgp = world.net().bgp();
    let state = |sw: &str, n: &str| {
        let s = bgp[sw]
            .sessions
            .iter()
            .find(|s| s.neighbor.to_string() == n);
        s.map(|s| s.state)
    };
    assert_eq!(state("leaf01", "port 1/34"), Some(SessionState::Idle));
    assert_eq!(state("spine01", "port 1/2"), Some(SessionState::Idle));
    assert_eq!(
        bgp["leaf01"].routes[&rails[1].parse().unwrap()].via.len(),
        3
    );
    typed("nv set vrf default router bgp neighbor swp34 remote-as external");
    typed("nv config apply --assume-yes");
    // A cable broken: its two ends' sessions go down, the route keeps its other paths.
    faults_of(&dir, "spine01", "cabling: { down: [\"1/1\"] }\n");
    network.changed("spine01");
    let world = network.world("leaf01");
    let bgp = world.net().bgp();
    let down = |sw: &str| {
        bgp[sw]
            .sessions
            .iter()
            .filter(|s| s.state != SessionState::Established)
            .map(|s| s.neighbor.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(down("leaf01"), ["port 1/33"]);
    assert_eq!(down("spine01"), ["port 1/1"]);
    assert_eq!(
        bgp["leaf01"].routes[&rails[1].parse().unwrap()].via.len(),
        3
    );
}

/// Leaf number `i`'s sessions (its four uplinks, Established) and routes (every other
/// leaf's rail subnet over four sessions to both spines).
fn leaf_peers_and_routes(v: &fabric::lab::network::BgpView, leaf: &str, i: usize, rails: &[&str]) {
    use fabric::lab::network::{Peer, SessionState};
    let up: Vec<String> = v
        .sessions
        .iter()
        .filter(|s| s.state == SessionState::Established)
        .map(|s| format!("{} {}", s.neighbor, s.far.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(
        up,
        [
            "port 1/33 spine01",
            "port 1/34 spine01",
            "port 1/35 spine02",
            "port 1/36 spine02"
        ],
        "{leaf}"
    );
    assert!(v.sessions.iter().all(|s| s.remote_as == 65000), "{leaf}");
    for (j, rail) in rails.iter().enumerate() {
        let r = &v.routes[&rail.parse().unwrap()];
        if i == j {
            assert!(r.path.is_empty() && r.via.is_empty(), "{leaf} {rail}");
            continue;
        }
        assert_eq!(r.path, [65000, 65101 + j as u32], "{leaf} {rail}");
        let spines: std::collections::BTreeSet<&str> =
            r.via.iter().map(|(_, f)| f.as_str()).collect();
        assert_eq!(spines.len(), 2, "{leaf} {rail}: {:?}", r.via);
        assert_eq!(r.via.len(), 4, "{leaf} {rail}: {:?}", r.via);
        assert!(r.via.iter().all(|(n, _)| matches!(n, Peer::Port(_))));
    }
}

/// leaf01 of the fabric in `dir` as a switch of this process (its compiled tree, as the push
/// applied it), in `network` in place of its folder.
fn leaf01_device(
    dir: &Path,
    network: &std::sync::Arc<fabric::lab::Network>,
) -> std::sync::Arc<fabric::lab::Device> {
    let fab = fabric_of(dir);
    let tree = fabric::cumulus::compile::compile(&fab.switches["leaf01"]).set;
    let sw = fabric::cumulus::lab::CumulusSwitch::booted(tree);
    let dev = fabric::lab::Device::new(fabric::lab::Switch::of(Box::new(sw)));
    let dev = std::sync::Arc::new(dev);
    network.add_device("leaf01", &dev);
    dev.join(network.clone(), "leaf01");
    dev
}

/// What `line` typed in `session` on `dev` printed.
fn typed(dev: &fabric::lab::Device, session: &mut fabric::lab::Session, line: &str) -> String {
    match dev.command(1, session, line).step {
        fabric::lab::device::Step::Reply { output, .. } => output,
        other => panic!("{other:?}"),
    }
}
