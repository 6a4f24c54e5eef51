//! OS10 compile, parse, render and plan against Onyx's on inputs of equal size. Compile: one
//! generated fabric of 1,000 switches × 64 ports, every port with a peer, a profile and the
//! RoCE settings (the compile bench's fabric), once with Onyx SN4600C switches and once with
//! OS10 Z9264F-ON switches (64 × 100G), the fabric → per-switch config stage timed alone.
//! Parse, render and plan: the Onyx `large` running
//! config of the peers' generator (`gen_onyx.py --preset large --drift 5`, the parse bench's
//! input) and an OS10 running configuration generated here with as many lines: the RoCE QoS
//! blocks, 32 ports split 4 ways and 96 whole ports with the RoCE port settings and verbatim
//! spanning-tree lines, a port-channel per 4 ports, VLAN interfaces with addresses, loopbacks
//! to make up the size, VLT and BGP with neighbors. The plan is timed against a 5 % drifted
//! copy ([`drift`]), as Onyx's `target` + `plan` is on the generator's `--drift 5` pair.
//!
//! `cargo bench --bench os10` (release build; needs python3 for the Onyx generator). Prints
//! the median of the timed runs after one warm-up, Onyx and OS10 runs taking turns, and OS10's
//! time over Onyx's (target: 2×).

use std::net::Ipv4Addr;
use std::time::Duration;

use fabric::os10::{self, Eth, Iface, Interface};
use fabric::types::{Ipv4Net, Vlan};

#[path = "common/pair.rs"]
mod pair;
mod peers_data;
use pair::{fabric_of, pair};

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The RoCE recipe of the reference (`os10-roce.md`), as parsed from its text.
const QOS: &str = "dcbx enable
hostname leaf-1
!
wred ecn
 random-detect color green minimum-threshold 150 maximum-threshold 1500 drop-probability 100
 random-detect ecn
!
class-map type network-qos ROCE3
 match qos-group 3
!
class-map type queuing Q0
 match queue 0
!
class-map type queuing Q3
 match queue 3
!
trust dot1p-map ROCE_TRUST
 qos-group 3 dot1p 3
!
qos-map traffic-class ROCE_QMAP
 queue 0 qos-group 0-2,4-7
 queue 3 qos-group 3
!
policy-map type network-qos ROCE_PFC
 !
 class ROCE3
  pause
  pfc-cos 3
!
policy-map type queuing ROCE_ETS
 !
 class Q0
  bandwidth percent 50
 !
 class Q3
  bandwidth percent 50
  random-detect ecn
!
system qos
 trust-map dot1p ROCE_TRUST
 ets mode on
!
vlt-domain 1
 backup destination 127.0.0.2
 discovery-interface ethernet1/1/127-1/1/128
 peer-routing
 vlt-mac de:ad:00:be:ef:01
";

/// An OS10 config of at least `lines` lines.
fn generate(lines: usize) -> String {
    let mut c = os10::parse(QOS).expect("the recipe reads");
    let roce = |i: usize| {
        let mut e = Interface {
            description: Some(format!("GPU host {i}")),
            shutdown: Some(false),
            mtu: Some(9216),
            flowcontrol_rx: Some(false),
            pfc: true,
            policy_in: Some("ROCE_PFC".into()),
            policy_out: Some("ROCE_ETS".into()),
            ets: true,
            qos_map: Some("ROCE_QMAP".into()),
            ..Interface::default()
        };
        e.extras = vec![
            (9, " spanning-tree bpduguard enable".into()),
            (9, " spanning-tree port type edge".into()),
        ];
        e
    };
    let mut n = 0;
    for port in 1..=128u16 {
        let eths: Vec<Eth> = if port <= 32 {
            (1..=4).map(|s| Eth::sub(port, s)).collect()
        } else {
            vec![Eth::new(port)]
        };
        for e in eths {
            n += 1;
            let mut i = roce(n);
            if port > 32 {
                i.channel_group = Some(os10::ChannelGroup {
                    id: (port - 33) / 4 + 1,
                    mode: os10::LacpMode::Active,
                });
            }
            c.interfaces.insert(Iface::Ethernet(e), i);
        }
    }
    for pc in 1..=24u16 {
        c.interfaces.insert(
            Iface::PortChannel(pc),
            Interface {
                shutdown: Some(false),
                mode: Some(os10::SwitchportMode::Trunk),
                trunk_allowed: Some((1..=40).map(|v| Vlan::new(v).unwrap()).collect()),
                mtu: Some(9216),
                vlt_port_channel: Some(pc),
                ..Interface::default()
            },
        );
    }
    let addr = |k: u32| Ipv4Addr::from(0x7f00_0000 + k);
    let mut bgp = os10::Bgp::new(65101);
    bgp.router_id = Some(addr(1));
    bgp.multipath_relax = true;
    bgp.max_paths_ebgp = Some(8);
    for k in 0..16 {
        bgp.neighbors.push((
            addr(1000 + k),
            os10::Peer {
                remote_as: Some(65000 + k),
                shutdown: Some(false),
                ipv4: Some(os10::AddressFamily::default()),
                ..os10::Peer::default()
            },
        ));
    }
    c.bgp = Some(bgp);
    let size = |c: &os10::Config| {
        os10::Renderer::embedded()
            .unwrap()
            .render(c)
            .unwrap()
            .lines()
            .count()
    };
    // VLAN interfaces, then loopbacks, up to the size (each about 6 lines).
    let mut k = 0u32;
    let mut have = size(&c);
    while have < lines {
        for _ in 0..((lines - have) / 6).max(1) {
            k += 1;
            let iface = match Vlan::new(i64::from(k)) {
                Ok(v) => Iface::Vlan(v),
                Err(_) => Iface::Loopback((k - 4094) as u16),
            };
            c.interfaces.insert(
                iface,
                Interface {
                    description: Some(format!("net-{k}")),
                    shutdown: Some(false),
                    mtu: Some(9216),
                    address: Some(Ipv4Net::new(addr(k * 4), 30).unwrap()),
                    ..Interface::default()
                },
            );
        }
        have = size(&c);
    }
    os10::Renderer::embedded().unwrap().render(&c).unwrap()
}

/// `c` with one interface in 20 drifted (by turns: MTU, RoCE removed, description, LAG
/// membership), a WRED threshold changed, a BGP neighbor gone and another added.
fn drift(c: &os10::Config) -> os10::Config {
    let mut d = c.clone();
    for (n, e) in d
        .interfaces
        .values_mut()
        .enumerate()
        .filter(|(n, _)| n % 20 == 0)
    {
        match (n / 20) % 4 {
            0 => e.mtu = Some(9100),
            1 => {
                e.pfc = false;
                e.policy_in = None;
                e.policy_out = None;
                e.ets = false;
                e.flowcontrol_rx = Some(true);
            }
            2 => e.description = Some(format!("drifted {n}")),
            _ => e.channel_group = None,
        }
    }
    if let Some(w) = d.wred.first_mut() {
        for t in w.colors.values_mut() {
            t.min /= 2;
        }
    }
    if let Some(b) = &mut d.bgp {
        b.neighbors.remove(0);
        b.neighbors.push((
            Ipv4Addr::new(127, 0, 9, 9),
            os10::Peer {
                remote_as: Some(65099),
                ..os10::Peer::default()
            },
        ));
    }
    d
}

const SWITCHES: usize = 1000;
const PORTS: usize = 64;

/// The compile bench's fabric (`benches/compile.rs`), for Onyx or OS10: the same switches,
/// ports, peers and RoCE intent, in each OS's port names (OS10 has no pool `memory`: E073).
fn fabric_yaml(os10: bool) -> String {
    use std::fmt::Write as _;
    let (head, model, ports) = if os10 {
        (
            "os: os10\nos10: 10.5.3.2\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, priorities: [3] }\n",
            "Z9264F-ON",
            format!("ethernet1/1/1-1/1/{PORTS}"),
        )
    } else {
        (
            "onyx: 3.10.4206\nlldp: true\nqos:\n  pools:\n    roce: { type: lossless, memory: 50, priorities: [3] }\n",
            "SN4600C",
            format!("1/1-1/{PORTS}"),
        )
    };
    let mut y = format!(
        "{head}  pfc: {{ priorities: [3] }}\n  dscp: {{ roce: 26, cnp: 48 }}\nvlans:\n  - {{ id: 100, name: gpu }}\nport_defaults:\n  trust: L3\n  ecn: {{ 3: {{ min: 150, max: 1500 }} }}\n  ets: {{ 6: strict, 3: 50, 0: 50 }}\nprofiles:\n  roce-host: {{ mtu: 9216, pfc: true, vlan: 100 }}\nstp: on\nswitches:\n"
    );
    for s in 0..SWITCHES {
        let _ = write!(
            y,
            "  leaf{s:04}:\n    model: {model}\n    ports:\n      {ports}:\n        profile: roce-host\n        peer: {{ host: \"gpu{s:04}-{{01..{PORTS}}}\", port: ens1f0 }}\n"
        );
    }
    y
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let (onyx_text, onyx_intended) = peers_data::generate("large");
    let onyx_lines = onyx_text.lines().count();
    let os10_text = generate(onyx_lines);
    let os10_lines = os10_text.lines().count();
    // `BENCH_DUMP=FILE`: the generated OS10 config written out, to read it with `fabric parse`.
    if let Some(path) = std::env::var_os("BENCH_DUMP") {
        std::fs::write(&path, &os10_text).expect("BENCH_DUMP is writable");
    }

    let onyx_config = fabric::onyx::parse(&onyx_text).expect("the Onyx config parses");
    let onyx_renderer = fabric::onyx::Renderer::embedded().expect("the Onyx templates load");
    let os10_config = os10::parse(&os10_text).expect("the OS10 config parses");
    let os10_renderer = os10::Renderer::embedded().expect("the OS10 templates load");
    assert_eq!(
        os10_renderer.render(&os10_config).unwrap(),
        os10_text,
        "the OS10 config prints back"
    );

    let onyx_target = fabric::onyx::parse(&onyx_intended).expect("the Onyx intended parses");
    let scope = fabric::onyx::plan::Scope {
        interfaces: None,
        fabric_attributes_only: false,
        prune: true,
        ..Default::default()
    };
    let os10_drifted = drift(&os10_config);
    let os10_steps = os10::plan::plan(&os10_config, &os10_drifted).len();
    let onyx_steps = {
        let t = fabric::onyx::plan::target(&onyx_config, &onyx_target, &scope);
        fabric::onyx::plan::plan(&onyx_config, &t).len()
    };

    let onyx_fabric = fabric_of(fabric_yaml(false));
    let os10_fabric = fabric_of(fabric_yaml(true));
    let compiled_lines = |fab: &fabric::fabric::Fabric| -> usize {
        fabric::compile::compile(fab)
            .values()
            .map(|t| t.render().unwrap().lines().count())
            .sum()
    };
    let (onyx_compiled, os10_compiled) =
        (compiled_lines(&onyx_fabric), compiled_lines(&os10_fabric));
    // `BENCH_STAGES=render,plan`: only those stages (to profile one), the others not timed.
    let stages = std::env::var("BENCH_STAGES").unwrap_or_default();
    let timed = |stage: &str| stages.is_empty() || stages.split(',').any(|s| s == stage);
    let runs_of = |stage: &str| if timed(stage) { runs } else { 0 };
    let (onyx_compile, os10_compile) = pair(
        runs_of("compile"),
        || fabric::compile::compile(std::hint::black_box(&onyx_fabric)),
        || fabric::compile::compile(std::hint::black_box(&os10_fabric)),
    );
    let (onyx_parse, os10_parse) = pair(
        runs_of("parse"),
        || fabric::onyx::parse(std::hint::black_box(&onyx_text)),
        || os10::parse(std::hint::black_box(&os10_text)),
    );
    let (onyx_render, os10_render) = pair(
        runs_of("render"),
        || onyx_renderer.render(std::hint::black_box(&onyx_config)),
        || os10_renderer.render(std::hint::black_box(&os10_config)),
    );
    let (onyx_plan, os10_plan) = pair(
        runs_of("plan"),
        || {
            let t = fabric::onyx::plan::target(&onyx_config, &onyx_target, &scope);
            fabric::onyx::plan::plan(&onyx_config, std::hint::black_box(&t))
        },
        || os10::plan::plan(&os10_config, std::hint::black_box(&os10_drifted)),
    );

    println!(
        "os10 bench: Onyx large-d5 {onyx_lines} lines / {} bytes ({} interfaces); OS10 generated {os10_lines} lines / {} bytes ({} interfaces); median of {runs} runs",
        onyx_text.len(),
        onyx_config.interfaces.len(),
        os10_text.len(),
        os10_config.interfaces.len(),
    );
    println!(
        "  compile: {SWITCHES} switches x {PORTS} ports, Onyx SN4600C {onyx_compiled} lines, OS10 Z9264F-ON {os10_compiled} lines of config"
    );
    println!(
        "  plan: Onyx {onyx_steps} commands (target + plan), OS10 {os10_steps} steps against a 5 % drift"
    );
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    for (what, onyx, os10) in [
        ("compile", onyx_compile, os10_compile),
        ("parse", onyx_parse, os10_parse),
        ("render", onyx_render, os10_render),
        ("plan", onyx_plan, os10_plan),
    ] {
        if !timed(what) {
            continue;
        }
        println!(
            "  {what:<7}  Onyx {:>8.2} ms  OS10 {:>8.2} ms  OS10/Onyx {:.2}x (target within 2x)",
            ms(onyx),
            ms(os10),
            os10.as_secs_f64() / onyx.as_secs_f64()
        );
    }
}
