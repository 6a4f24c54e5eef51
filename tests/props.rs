//! Properties over random inputs (proptest): the renderer and the parser are inverse on every
//! state the commands can reach, a plan reaches its target from any running config, and Onyx
//! range compression and expansion are inverse. The commands cover every modeled family:
//! ports and QoS, VLANs, routing (`ip routing`, ECMP hashing, routed ports and addresses,
//! loopbacks, `protocol bgp` and the BGP instance), bundles (`lacp`, port-channels and their
//! members) and MLAG (`protocol mlag`, the peer link, system MAC, VIP, `mlag shutdown`).
//! Strings a user writes: every one a kind's rule (`fabric::strings`) takes compiles and reads
//! back equal on each OS that prints it; every one it refuses is one error at its line.
//! The text diff `fabric diff` prints is a patch GNU `patch` applies exactly.

use std::net::Ipv4Addr;

use fabric::fabric::Os;

const ONYX_OS: Os = fabric::onyx::target::OS;
const OS10_OS: Os = fabric::os10::target::OS;
use fabric::fabric::strings as rules;
use fabric::onyx::command::{
    AllowedVlan, BgpCmd, ChannelGroup, Command, Iface, IfaceCmd, IfaceRange, LacpMode, LoadSharing,
    Protocol, SpeedSetting,
};
use fabric::onyx::{Config, Renderer, parse};
use fabric::types::{
    Ecn, EcnMode, EcnThresholds, Ets, Ipv4Net, Mac, Percent, PoolType, Port, Priority, Release,
    RoceMode, Speed, Split, SwitchportMode, TrafficClass, Trust, Vlan, compress, format_range,
    parse_port_range,
};
use proptest::prelude::*;

fn port() -> impl Strategy<Value = Port> {
    prop_oneof![
        3 => (1u16..=12).prop_map(|p| Port::new(1, p)),
        1 => (1u16..=4, 1u8..=4).prop_map(|(p, s)| Port::sub(1, p, s)),
    ]
}

/// One interface kind, and a range of it.
fn range() -> impl Strategy<Value = IfaceRange> {
    prop_oneof![
        6 => (port(), 0u8..4).prop_map(|(a, n)| {
            let b = match a.sub {
                None => Port::new(1, (a.port + u16::from(n)).min(12)),
                Some(s) => Port::sub(1, a.port, (s + n).min(4)),
            };
            IfaceRange { first: Iface::Ethernet(a), last: Iface::Ethernet(b) }
        }),
        1 => (1u16..=4, 0u16..3).prop_map(|(a, n)| IfaceRange { first: Iface::PortChannel(a), last: Iface::PortChannel(a + n) }),
        1 => (1u16..=4, 0u16..3).prop_map(|(a, n)| IfaceRange { first: Iface::MlagPortChannel(a), last: Iface::MlagPortChannel(a + n) }),
        1 => (1i64..=5).prop_map(|v| IfaceRange::one(Iface::Vlan(Vlan::new(v).unwrap()))),
        1 => (0u16..=1).prop_map(|n| IfaceRange::one(Iface::Loopback(n))),
    ]
}

/// Addresses from a few small pools, so that two configs often share one (the same
/// neighbor, the same link address) and as often differ.
fn addr() -> impl Strategy<Value = Ipv4Addr> {
    (0u8..=2, 0u8..=5).prop_map(|(net, host)| Ipv4Addr::new(10, 254, net, host))
}

fn net() -> impl Strategy<Value = Ipv4Net> {
    (
        addr(),
        prop_oneof![Just(24u8), Just(30), Just(31), Just(32)],
    )
        .prop_map(|(a, len)| Ipv4Net::new(a, len).unwrap())
}

fn mac() -> impl Strategy<Value = Mac> {
    (0u8..=2).prop_map(|n| Mac([0x00, 0x00, 0x5E, 0x00, 0x01, n]))
}

/// What a `router bgp AS vrf default …` line sets.
fn bgp_cmd() -> impl Strategy<Value = BgpCmd> {
    prop_oneof![
        1 => Just(BgpCmd::Create),
        3 => addr().prop_map(BgpCmd::RouterId),
        1 => Just(BgpCmd::NoRouterId),
        1 => (1u16..=8).prop_map(BgpCmd::MaximumPaths),
        1 => Just(BgpCmd::NoMaximumPaths),
        1 => any::<bool>().prop_map(BgpCmd::MultipathRelax),
        2 => (addr(), prop_oneof![Just(65000u32), Just(65001)])
            .prop_map(|(a, n)| BgpCmd::Neighbor(a, n)),
        1 => addr().prop_map(BgpCmd::NoNeighbor),
        1 => net().prop_map(BgpCmd::Network),
        1 => net().prop_map(BgpCmd::NoNetwork),
    ]
}

fn vlan() -> impl Strategy<Value = Vlan> {
    prop_oneof![1i64..=20, 4090i64..=4094].prop_map(|v| Vlan::new(v).unwrap())
}

/// Text a user or a switch could put in a description or VLAN name: words, no quotes, no
/// leading or trailing space.
fn text() -> impl Strategy<Value = String> {
    "[A-Za-z0-9][A-Za-z0-9 :/._-]{0,20}[A-Za-z0-9]"
}

fn tc() -> impl Strategy<Value = TrafficClass> {
    (0i64..=7).prop_map(|t| TrafficClass::new(t).unwrap())
}

fn prio() -> impl Strategy<Value = Priority> {
    (0i64..=7).prop_map(|t| Priority::new(t).unwrap())
}

fn pick<T: Copy + std::fmt::Debug + 'static>(
    all: &'static [(&'static str, T)],
) -> impl Strategy<Value = T> {
    proptest::sample::select(all.iter().map(|(_, v)| *v).collect::<Vec<_>>())
}

fn iface_cmd() -> impl Strategy<Value = IfaceCmd> {
    prop_oneof![
        Just(IfaceCmd::Create),
        (pick(Speed::ALL), any::<bool>())
            .prop_map(|(speed, no_autoneg)| IfaceCmd::Speed(SpeedSetting { speed, no_autoneg })),
        Just(IfaceCmd::NoSpeed),
        (1500u16..=9216).prop_map(IfaceCmd::Mtu),
        Just(IfaceCmd::NoMtu),
        text().prop_map(IfaceCmd::Description),
        Just(IfaceCmd::NoDescription),
        any::<bool>().prop_map(IfaceCmd::Shutdown),
        prop_oneof![Just(Split::Two), Just(Split::Four)].prop_map(IfaceCmd::Split),
        pick(SwitchportMode::ALL).prop_map(IfaceCmd::SwitchportMode),
        vlan().prop_map(IfaceCmd::AccessVlan),
        Just(IfaceCmd::NoAccessVlan),
        (
            prop_oneof![Just(SwitchportMode::Trunk), Just(SwitchportMode::Hybrid)],
            prop_oneof![
                Just(AllowedVlan::None),
                Just(AllowedVlan::All),
                proptest::collection::vec(vlan(), 1..4).prop_map(|v| AllowedVlan::Set(v.into())),
                proptest::collection::vec(vlan(), 1..4).prop_map(|v| AllowedVlan::Add(v.into())),
                proptest::collection::vec(vlan(), 1..3).prop_map(|v| AllowedVlan::Remove(v.into())),
            ]
        )
            .prop_map(|(m, op)| IfaceCmd::AllowedVlan(m, op)),
        (
            any::<bool>(),
            1u16..=20,
            prop_oneof![
                Just(LacpMode::On),
                Just(LacpMode::Active),
                Just(LacpMode::Passive)
            ]
        )
            .prop_map(|(mlag, id, mode)| IfaceCmd::ChannelGroup(ChannelGroup {
                mlag,
                id,
                mode
            })),
        any::<bool>().prop_map(|mlag| IfaceCmd::NoChannelGroup { mlag }),
        pick(Trust::ALL).prop_map(IfaceCmd::Trust),
        Just(IfaceCmd::NoTrust),
        (
            tc(),
            pick(EcnMode::ALL),
            any::<bool>(),
            1u32..3000,
            0u32..3000
        )
            .prop_map(|(t, mode, rel, a, b)| {
                let thresholds = if rel {
                    EcnThresholds::Relative {
                        min: (a % 100) as u8,
                        max: (b % 101) as u8,
                    }
                } else {
                    EcnThresholds::Absolute { min: a, max: a + b }
                };
                IfaceCmd::Ecn(t, Ecn { mode, thresholds })
            }),
        tc().prop_map(IfaceCmd::NoEcn),
        (
            tc(),
            prop_oneof![Just(Ets::Strict), (1u8..=100).prop_map(Ets::Wrr)]
        )
            .prop_map(|(t, e)| IfaceCmd::Ets(t, e)),
        any::<bool>().prop_map(IfaceCmd::PfcMode),
        any::<bool>().prop_map(IfaceCmd::Routed),
        net().prop_map(IfaceCmd::Address),
        Just(IfaceCmd::NoAddress),
        Just(IfaceCmd::Ipl(1)),
        Just(IfaceCmd::NoIpl(1)),
        addr().prop_map(|a| IfaceCmd::IplPeer(1, a)),
        Just(IfaceCmd::NoIplPeer(1)),
    ]
}

fn command() -> impl Strategy<Value = Command> {
    let pool = prop_oneof![Just("roce".to_string()), Just("lossy-pool".to_string())];
    prop_oneof![
        8 => (range(), iface_cmd()).prop_map(|(r, c)| Command::Interface(r, c)),
        1 => prop_oneof![
            (1u16..=4, 0u16..3).prop_map(|(a, n)| IfaceRange { first: Iface::PortChannel(a), last: Iface::PortChannel(a + n) }),
            (1u16..=4, 0u16..3).prop_map(|(a, n)| IfaceRange { first: Iface::MlagPortChannel(a), last: Iface::MlagPortChannel(a + n) }),
            (1i64..=5).prop_map(|v| IfaceRange::one(Iface::Vlan(Vlan::new(v).unwrap()))),
            (0u16..=1).prop_map(|n| IfaceRange::one(Iface::Loopback(n))),
        ]
        .prop_map(Command::NoInterface),
        1 => "[A-Z0-9-]{4,12}".prop_map(Command::License),
        1 => "[a-z][a-z0-9-]{0,10}".prop_map(Command::Hostname),
        1 => Just(Command::NoHostname),
        1 => any::<bool>().prop_map(Command::Lldp),
        1 => proptest::option::of(pick(RoceMode::ALL)).prop_map(Command::Roce),
        1 => (pool.clone(), pick(PoolType::ALL)).prop_map(|(n, t)| Command::PoolType(n, t)),
        1 => (pool.clone(), 0u16..=10000).prop_map(|(n, h)| Command::PoolMemory(n, Percent::from_f64(f64::from(h) / 100.0).unwrap())),
        1 => (pool.clone(), proptest::collection::vec(prio(), 1..3)).prop_map(|(n, l)| Command::PoolMap(n, l)),
        1 => pool.prop_map(Command::NoPool),
        1 => any::<bool>().prop_map(Command::PfcEnable),
        1 => (prio(), any::<bool>()).prop_map(|(p, on)| Command::PfcPriority(p, on)),
        2 => (vlan(), 0u16..4).prop_map(|(v, n)| Command::VlanCreate(vec![(v, Vlan::new(i64::from((v.get() + n).min(4094))).unwrap())])),
        1 => (vlan(), text()).prop_map(|(v, n)| Command::VlanName(v, n)),
        1 => vlan().prop_map(|v| Command::NoVlan(vec![(v, v)])),
        1 => any::<bool>().prop_map(Command::IpRouting),
        // Routed ports on a few ports, so that a port often gets both `no switchport force`
        // and an address.
        4 => (
            1u16..=2,
            prop_oneof![
                2 => Just(IfaceCmd::Routed(true)),
                2 => net().prop_map(IfaceCmd::Address),
                1 => Just(IfaceCmd::Routed(false)),
                1 => Just(IfaceCmd::NoAddress),
            ],
        )
            .prop_map(|(p, c)| Command::Interface(IfaceRange::one(Iface::Ethernet(Port::new(1, p))), c)),
        1 => (prop_oneof![Just(LoadSharing::SourceIpPort), Just(LoadSharing::Consistent)], any::<bool>())
            .prop_map(|(l, on)| Command::LoadSharing(l, on)),
        1 => (prop_oneof![Just(Protocol::Bgp), Just(Protocol::Mlag)], any::<bool>())
            .prop_map(|(p, on)| Command::Protocol(p, on)),
        1 => any::<bool>().prop_map(Command::Lacp),
        1 => any::<bool>().prop_map(Command::SpanningTree),
        5 => (prop_oneof![Just(65101u32), Just(65102)], bgp_cmd()).prop_map(|(n, c)| Command::Bgp(n, c)),
        1 => prop_oneof![Just(65101u32), Just(65102)].prop_map(Command::NoBgp),
        2 => any::<bool>().prop_map(Command::MlagShutdown),
        1 => proptest::option::of(mac()).prop_map(Command::MlagSystemMac),
        1 => proptest::option::of((prop_oneof![Just("pair1".to_string()), Just("pair2".to_string())], net()))
            .prop_map(Command::MlagVip),
    ]
}

/// A config as a switch holds it after `cmds`: the lines a switch refuses are skipped, those
/// of a protocol that is off (`protocol mlag` "unhides the MLAG commands", Onyx User Manual,
/// MLAG Commands; `router bgp` likewise needs `protocol bgp`), so no config holds MLAG
/// settings or a BGP instance without its protocol.
fn switch_config(cmds: &[Command]) -> Config {
    let mut c = Config::factory("sw1", Some(Release(3, 9, 3210)), None);
    for cmd in cmds {
        // A subport exists once its port is split (`module-type qsfp-split-N force`).
        if let Command::Interface(r, _) = cmd
            && let Iface::Ethernet(p) = r.first
            && p.sub.is_some()
            && c.interfaces
                .get(&Iface::Ethernet(p.parent()))
                .is_none_or(|e| e.split.is_none())
        {
            continue;
        }
        let needs = match cmd {
            Command::Bgp(..) | Command::NoBgp(_) => Some(Protocol::Bgp),
            Command::MlagShutdown(_) | Command::MlagSystemMac(_) | Command::MlagVip(_) => {
                Some(Protocol::Mlag)
            }
            _ => None,
        };
        if needs.is_none_or(|p| c.protocols.contains(&p)) {
            c.apply(cmd);
        }
    }
    c
}

/// Commands for [`switch_config`], most often after `protocol bgp` and `protocol mlag`, so
/// that the lines needing them are taken.
fn switch_cmds() -> impl Strategy<Value = Vec<Command>> {
    (
        proptest::bool::weighted(0.75),
        proptest::bool::weighted(0.75),
        proptest::collection::vec(command(), 0..40),
    )
        .prop_map(|(bgp, mlag, cmds)| {
            let on = [(bgp, Protocol::Bgp), (mlag, Protocol::Mlag)];
            on.into_iter()
                .filter(|(yes, _)| *yes)
                .map(|(_, p)| Command::Protocol(p, true))
                .chain(cmds)
                .collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(512), ..ProptestConfig::default() })]

    /// `parse(render(c)) == c` for every config reachable by commands, on 3.6 (strings
    /// unquoted, no release line) and 3.9 (quoted) alike.
    #[test]
    fn render_then_parse_gives_the_same_model(cmds in proptest::collection::vec(command(), 0..40), new in any::<bool>()) {
        let release = if new { Release(3, 9, 3210) } else { Release(3, 6, 8190) };
        let mut c = Config::factory("sw1", Some(release), Some("108bb9eb3e99edff47fc86e71cba530b6a6b8991"));
        for cmd in &cmds {
            c.apply(cmd);
        }
        let text = Renderer::embedded().unwrap().render(&c).unwrap();
        let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &c, "{}", text);
        // And printing it again changes nothing.
        prop_assert_eq!(Renderer::embedded().unwrap().render(&back).unwrap(), text);
    }

    /// The plan from any running config to any target reaches it exactly, compared as
    /// models: `running.apply(plan) == target`; a config's plan to itself is empty; and the
    /// roll-back `fabric push` would make from the target gives the running config back.
    #[test]
    fn applying_the_plan_reaches_the_target(
        running_cmds in switch_cmds(),
        intended_cmds in switch_cmds(),
        prune in any::<bool>(),
    ) {
        let running = switch_config(&running_cmds);
        let intended = switch_config(&intended_cmds);
        let scope = fabric::onyx::plan::Scope { interfaces: None, fabric_attributes_only: false, prune, ..Default::default() };
        let target = fabric::onyx::plan::target(&running, &intended, &scope);
        let plan = fabric::onyx::plan::plan(&running, &target);
        let mut after = running.clone();
        for step in &plan {
            // Every planned command is one the grammar reads back; a VLAN list changes by
            // `add` and `remove`, never by the bare list (`onyx::UNCONFIRMED`).
            let line = step.command.to_string();
            prop_assert!(!matches!(step.command, Command::Interface(_, IfaceCmd::AllowedVlan(_, AllowedVlan::Set(_)))), "{}", line);
            prop_assert_eq!(fabric::onyx::command::parse(&line), Ok(Some(step.command.clone())), "{}", line);
            after.apply(&step.command);
        }
        let text: Vec<String> = plan.iter().map(|s| s.command.to_string()).collect();
        prop_assert_eq!(&after, &target, "plan:\n{}", text.join("\n"));
        prop_assert!(fabric::onyx::plan::plan(&target, &target).is_empty());
        prop_assert!(fabric::onyx::plan::plan(&after, &target).is_empty());
        // Rolled back as `fabric push` rolls back a push that stopped after its last
        // command: the running config again.
        let (_, undone, expected) = crate::plan::roll_back(&running, &after);
        prop_assert_eq!(&undone, &expected, "plan:\n{}", text.join("\n"));
    }

    /// Every command prints as a line that reads back to the same command.
    #[test]
    fn commands_print_and_read_back(cmd in command()) {
        let line = cmd.to_string();
        prop_assert_eq!(fabric::onyx::command::parse(&line), Ok(Some(cmd)), "{}", line);
    }

    /// Compressing ports into Onyx ranges and expanding the ranges gives the ports back.
    #[test]
    fn range_compression_and_expansion_are_inverse(set in proptest::collection::btree_map(port(), 0u8..3, 0..40)) {
        let runs = compress(set.iter().map(|(p, v)| (*p, v)));
        let mut back = std::collections::BTreeMap::new();
        for (a, b, v) in &runs {
            for p in parse_port_range(&format_range(*a, *b)).unwrap() {
                prop_assert!(back.insert(p, **v).is_none());
            }
        }
        prop_assert_eq!(&back, &set);
        // Maximal: two neighbouring runs never share a value across adjacent ports.
        for w in runs.windows(2) {
            prop_assert!(!(w[0].1.precedes(w[1].0) && w[0].2 == w[1].2));
        }
    }
}

/// The random configs the plan property runs on do reach routing, bundles and MLAG: of 200
/// drawn as `applying_the_plan_reaches_the_target` draws them, at least 10 have each of these.
#[test]
fn the_generated_configs_reach_routing_bundles_and_mlag() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let cmds = switch_cmds();
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for _ in 0..200 {
        let c = switch_config(&cmds.new_tree(&mut runner).unwrap().current());
        let ifaces = || c.interfaces.iter();
        let facts = [
            ("ip routing", c.ip_routing),
            ("ECMP hashing", !c.load_sharing.is_empty()),
            (
                "a routed port with an address",
                ifaces().any(|(i, e)| {
                    matches!(i, Iface::Ethernet(_)) && e.routed && e.address.is_some()
                }),
            ),
            (
                "a loopback",
                ifaces().any(|(i, _)| matches!(i, Iface::Loopback(_))),
            ),
            ("protocol bgp", c.protocols.contains(&Protocol::Bgp)),
            (
                "a BGP neighbor",
                c.bgp.as_ref().is_some_and(|b| !b.neighbors.is_empty()),
            ),
            (
                "a BGP router-id",
                c.bgp.as_ref().is_some_and(|b| b.router_id.is_some()),
            ),
            ("lacp", c.lacp),
            (
                "a port-channel member",
                ifaces().any(|(_, e)| e.channel_group.is_some()),
            ),
            ("protocol mlag", c.protocols.contains(&Protocol::Mlag)),
            ("an IPL", ifaces().any(|(_, e)| e.ipl.is_some())),
            (
                "an IPL peer address",
                ifaces().any(|(_, e)| e.ipl_peer.is_some()),
            ),
            ("an MLAG system MAC", c.mlag.system_mac.is_some()),
            ("an MLAG VIP", c.mlag.vip.is_some()),
            ("MLAG up", c.mlag.enabled),
            ("spanning tree off", !c.spanning_tree),
        ];
        for (what, yes) in facts {
            *seen.entry(what).or_default() += usize::from(yes);
        }
    }
    for (what, n) in &seen {
        assert!(
            *n >= 10,
            "only {n} of 200 generated configs have {what}: {seen:?}"
        );
    }
}

/// Hostile text for the fields a user writes that reach a CLI line: quotes, pipes, `;`, `#`,
/// `!`, `?`, backslashes, line breaks, `\r`, tabs, Unicode separators and letters, doubled
/// spaces, a leading `no `, and now and then more than 300 characters.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        6 => "[A-Za-z0-9:/._-]{1,6}",
        2 => Just(" ".to_string()),
        1 => Just("  ".to_string()),
        1 => proptest::sample::select(vec![
            "\"", "|", " | include ", ";", "#", "!", "?", "\\", "'", "\n", "\r", "\t",
            "\u{2028}", "\u{2029}", "é", "\u{0}", "\u{1b}[2J", "no ", "exit", "\r\nvlan 9",
        ])
        .prop_map(str::to_string),
    ];
    prop_oneof![
        20 => proptest::collection::vec(piece, 1..8).prop_map(|v| v.concat()),
        1 => "[a-z]{300,320}",
    ]
}

/// Where a hostile value goes in a fabric file, and what reads it back from the switch.
#[derive(Clone, Copy, Debug)]
enum Field {
    Description,
    VlanName,
    PeerHost,
    PeerPort,
    Hostname,
}

fn fabric_with(field: Field, value: &str) -> String {
    // A JSON string is a YAML double-quoted scalar: every byte reaches the value as written.
    let v = serde_json::to_string(value).unwrap();
    let (name, port, vlans) = match field {
        Field::Description => (
            "sw1".to_string(),
            format!("{{ description: {v} }}"),
            String::new(),
        ),
        Field::VlanName => (
            "sw1".to_string(),
            "{ switchport: access, vlan: 10 }".to_string(),
            format!("vlans:\n  - {{ id: 10, name: {v} }}\n"),
        ),
        Field::PeerHost => (
            "sw1".to_string(),
            format!("{{ peer: {{ host: {v}, port: ens1 }} }}"),
            String::new(),
        ),
        Field::PeerPort => (
            "sw1".to_string(),
            format!("{{ peer: {{ host: gpu1, port: {v} }} }}"),
            String::new(),
        ),
        Field::Hostname => (v.clone(), "{ mtu: 9216 }".to_string(), String::new()),
    };
    format!(
        "onyx: 3.9.3210\n{vlans}switches:\n  {name}:\n    model: SN2100\n    ports:\n      1/1: {port}\n"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Text a fabric accepts reaches the switch as exactly one command per line, refused by
    /// nothing, and reads back equal from the switch's running config (quoted as 3.9 prints
    /// it, and bare as 3.6 does); text it refuses is refused with a located error.
    #[test]
    fn accepted_text_reaches_the_switch_as_written(
        value in hostile(),
        field in proptest::sample::select(vec![Field::Description, Field::VlanName, Field::PeerHost, Field::PeerPort, Field::Hostname]),
    ) {
        use fabric::lab::Device;
        use fabric::onyx::lab::Switch;
        let yaml = fabric_with(field, &value);
        let mut sources = fabric::diag::Sources::default();
        let Ok(loaded) = fabric::fabric::parse_bytes("f.yaml", yaml.clone().into_bytes(), &mut sources) else {
            // Refused by the YAML reader (a NUL byte): fine, and located.
            return Ok(());
        };
        let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
        let Some(fab) = fab else {
            prop_assert!(diags.iter().any(|d| d.is_error() && d.primary.is_some()), "{yaml}");
            return Ok(());
        };
        let sw = fab.switches.values().next().unwrap();
        let intended = fabric::onyx::compile::compile_switch(sw);
        let factory = Switch::factory_as(sw.hostname.as_str(), sw.release, None);
        let scope = fabric::onyx::plan::Scope::fabric(sw, false);
        let target = fabric::onyx::plan::target(&factory.running, &intended, &scope);
        let steps = fabric::onyx::plan::plan(&factory.running, &target);
        let dev = Device::new(factory);
        let id = dev.login();
        let mut session = fabric::lab::Session::configuring();
        for step in &steps {
            let line = step.command.to_string();
            prop_assert!(!line.contains('\n') && !line.contains('\r'), "{line:?}");
            let before = dev.log().len();
            match dev.command(id, &mut session, &line).step {
                fabric::lab::device::Step::Reply { output, close } => {
                    prop_assert!(output.is_empty() && !close, "{line:?} → {output:?}");
                }
                other => prop_assert!(false, "{line:?} → {other:?}"),
            }
            prop_assert_eq!(dev.log().len(), before + 1);
        }
        let running = crate::onyx_running(&dev);
        prop_assert!(fabric::onyx::plan::plan(&running, &target).is_empty(), "{yaml}");
        let renderer = Renderer::embedded().unwrap();
        for quoted in [true, false] {
            let mut shown = running.clone();
            shown.quoted = quoted;
            let back = parse(&renderer.render(&shown).unwrap()).unwrap();
            let port = Iface::Ethernet(Port::new(1, 1));
            let read = match field {
                Field::Description | Field::PeerHost | Field::PeerPort => back.interfaces[&port].description.clone(),
                Field::VlanName => back.vlans[&Vlan::new(10).unwrap()].name.clone(),
                Field::Hostname => back.hostname.clone(),
            };
            let want = match field {
                Field::PeerHost => format!("{value}:ens1"),
                Field::PeerPort => format!("gpu1:{value}"),
                _ => value.clone(),
            };
            prop_assert_eq!(read, Some(want), "{}", yaml);
        }
    }
}

/// Where a string of each kind is written in a fabric file, on either OS (`fabric::strings`).
#[derive(Clone, Copy, Debug)]
enum Place {
    Hostname,
    Description,
    BundleDescription,
    FabricVlanName,
    SwitchVlanName,
    MlagDomain,
    PoolName,
    LicenseKey,
}

impl Place {
    /// The kind of string it is, and the OSes that print it.
    fn kind(self) -> (rules::Field, &'static [Os]) {
        use rules::Field as F;
        const BOTH: &[Os] = &[ONYX_OS, OS10_OS];
        const ONYX: &[Os] = &[ONYX_OS];
        match self {
            Place::Hostname => (F::Hostname, BOTH),
            Place::Description => (F::Description, BOTH),
            Place::BundleDescription => (F::Description, BOTH),
            Place::FabricVlanName | Place::SwitchVlanName => (F::VlanName, BOTH),
            Place::MlagDomain => (F::MlagDomain, ONYX),
            Place::PoolName => (F::PoolName, ONYX),
            Place::LicenseKey => (F::LicenseKey, ONYX),
        }
    }
}

const PLACES: &[Place] = &[
    Place::Hostname,
    Place::Description,
    Place::BundleDescription,
    Place::FabricVlanName,
    Place::SwitchVlanName,
    Place::MlagDomain,
    Place::PoolName,
    Place::LicenseKey,
];

/// A place and an OS that prints it.
fn place_on() -> impl Strategy<Value = (Place, Os)> {
    proptest::sample::select(PLACES.to_vec()).prop_flat_map(|p| {
        proptest::sample::select(p.kind().1.to_vec()).prop_map(move |os| (p, os))
    })
}

/// A string the rule takes, made from the rule itself: words of its alphabet, as long as it
/// allows.
fn accepted(r: &'static rules::Rule) -> BoxedStrategy<String> {
    let chars = |also: &str| -> Vec<char> {
        ('0'..='9')
            .chain('A'..='Z')
            .chain('a'..='z')
            .chain(also.chars())
            .collect()
    };
    let word = |set: Vec<char>, n: std::ops::RangeInclusive<usize>| {
        proptest::collection::vec(proptest::sample::select(set), n)
            .prop_map(|v| v.into_iter().collect::<String>())
    };
    match r.alphabet {
        rules::Alphabet::Text(refused) => {
            let set: Vec<char> = ('!'..='~')
                .filter(|c| {
                    !fabric::types::cli_text::REFUSED
                        .iter()
                        .chain(refused)
                        .any(|(x, _)| x == c)
                })
                .collect();
            let max = r.max;
            proptest::collection::vec(word(set, 1..=12), 1..8)
                .prop_map(move |words| {
                    let mut s = String::new();
                    for w in words {
                        if s.len() + w.len() + 1 > max {
                            break;
                        }
                        if !s.is_empty() {
                            s.push(' ');
                        }
                        s.push_str(&w);
                    }
                    if s.is_empty() { "x".to_string() } else { s }
                })
                .boxed()
        }
        rules::Alphabet::Word(also) => word(chars(also), 1..=r.max).boxed(),
        rules::Alphabet::Label => (
            word(chars(""), 1..=1),
            word(chars("-"), 0..=61),
            word(chars(""), 0..=1),
        )
            .prop_map(|(a, b, c)| {
                if c.is_empty() {
                    a
                } else {
                    format!("{a}{b}{c}")
                }
            })
            .boxed(),
        rules::Alphabet::Hex => word("0123456789abcdef".chars().collect(), r.max..=r.max).boxed(),
    }
}

/// A fabric of one switch of `os` with `value` at `place`.
fn fabric_at(place: Place, os: Os, value: &str) -> String {
    // A JSON string is a YAML double-quoted scalar: every byte reaches the value as written.
    let v = serde_json::to_string(value).unwrap();
    let (head, model, port) = if os == ONYX_OS {
        ("onyx: 3.9.3210\n", "SN2100", "1/1")
    } else {
        ("os: os10\n", "S5248F-ON", "ethernet1/1/1")
    };
    let (mut name, mut fabric_vlans, mut extra, mut entry) = (
        "sw1".to_string(),
        String::new(),
        String::new(),
        "{ mtu: 9216 }".to_string(),
    );
    match place {
        Place::Hostname => name = v,
        Place::Description => entry = format!("{{ description: {v} }}"),
        Place::BundleDescription => entry = format!("{{ lag: 5, bundle_description: {v} }}"),
        Place::FabricVlanName => {
            fabric_vlans = format!("vlans:\n  - {{ id: 10, name: {v} }}\n");
            entry = "{ vlan: 10 }".to_string();
        }
        Place::SwitchVlanName => {
            extra = format!("    vlans: [{{ id: 10, name: {v} }}]\n");
            entry = "{ vlan: 10 }".to_string();
        }
        Place::MlagDomain => {
            extra = format!(
                "    mlag: {{ system_mac: 00:00:5E:00:01:5E, domain: {v}, vip: 10.0.0.10/24, ipl: {{ port_channel: 100, vlan: 4000, address: 10.254.255.1/30, peer: 10.254.255.2 }} }}\n"
            )
        }
        Place::PoolName => {
            extra = format!(
                "    qos:\n      pools:\n        {v}: {{ type: lossless, priorities: [3] }}\n"
            )
        }
        Place::LicenseKey => extra = format!("    licenses: [{v}]\n"),
    }
    format!(
        "{head}{fabric_vlans}switches:\n  {name}:\n    model: {model}\n{extra}    ports:\n      {port}: {entry}\n"
    )
}

/// The value at `place` as the switch's configuration, rendered and parsed back by our own
/// parser, holds it (Onyx: printed quoted as 3.9 does, and bare as 3.6 does).
fn read_back(place: Place, sw: &fabric::fabric::Switch) -> Vec<Option<String>> {
    if sw.os() == ONYX_OS {
        let c = fabric::onyx::compile::compile_switch(sw);
        let renderer = Renderer::embedded().unwrap();
        [true, false]
            .into_iter()
            .map(|quoted| {
                let mut shown = c.clone();
                shown.quoted = quoted;
                let back = parse(&renderer.render(&shown).unwrap()).unwrap();
                let iface = |i: Iface| back.interfaces.get(&i).and_then(|e| e.description.clone());
                match place {
                    Place::Hostname => back.hostname.clone(),
                    Place::Description => iface(Iface::Ethernet(Port::new(1, 1))),
                    Place::BundleDescription => iface(Iface::PortChannel(5)),
                    Place::FabricVlanName | Place::SwitchVlanName => back
                        .vlans
                        .get(&Vlan::new(10).unwrap())
                        .and_then(|v| v.name.clone()),
                    Place::MlagDomain => back.mlag.vip.clone().map(|(n, _)| n),
                    Place::PoolName => back.pools.keys().next().cloned(),
                    Place::LicenseKey => back.licenses.first().cloned(),
                }
            })
            .collect()
    } else {
        use fabric::os10::{Eth, Iface as I};
        let c = fabric::os10::compile::compile_switch(sw);
        let text = fabric::os10::Renderer::embedded()
            .unwrap()
            .render(&c)
            .unwrap();
        let back = fabric::os10::parse(&text).unwrap();
        let iface = |i: I| back.interfaces.get(&i).and_then(|e| e.description.clone());
        vec![match place {
            Place::Hostname => back.hostname.clone(),
            Place::Description => iface(I::Ethernet(Eth::new(1))),
            Place::BundleDescription => iface(I::PortChannel(5)),
            Place::FabricVlanName | Place::SwitchVlanName => iface(I::Vlan(Vlan::new(10).unwrap())),
            _ => None,
        }]
    }
}

/// What is wrong with a refused string: a character the rule may refuse, put somewhere in an
/// accepted one, or one character too many.
fn spoiled(good: String, max: usize) -> impl Strategy<Value = String> {
    let piece = proptest::sample::select(vec![
        " ", ";", "#", "!", "\n", "\r", "\"", "é", "\u{1}", "\u{1b}", "\t", "?", "|", "\\",
        "\u{2028}", "  ", "\u{0}",
    ]);
    prop_oneof![
        4 => (piece, 0..=good.len()).prop_map(move |(p, at)| {
            let mut s = good.clone();
            s.insert_str(at, p);
            s
        }),
        1 => Just("x".repeat(max + 1)),
    ]
}

/// The 1-based line of the primary label of the first error.
fn error_line(yaml: &str, d: &fabric::diag::Diagnostic) -> usize {
    let at = d.primary.as_ref().expect("located").span.start;
    yaml[..at].matches('\n').count() + 1
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Every string a kind's rule takes, on each OS that prints it, compiles into a
    /// configuration our own parser reads back to the same value.
    #[test]
    fn accepted_strings_read_back_as_written(
        (place, os, value) in place_on().prop_flat_map(|(p, os)| {
            let r = rules::rule(os, p.kind().0).expect("a rule");
            accepted(r).prop_map(move |v| (p, os, v))
        }),
    ) {
        let (field, _) = place.kind();
        prop_assert!(rules::check(&[os], field, &value).is_ok(), "{value:?}");
        let yaml = fabric_at(place, os, &value);
        let mut sources = fabric::diag::Sources::default();
        let loaded = fabric::fabric::parse_bytes("f.yaml", yaml.clone().into_bytes(), &mut sources).unwrap();
        let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
        let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
        prop_assert!(errors.is_empty(), "{yaml}\n{errors:?}");
        let fab = fab.unwrap();
        let sw = fab.switches.values().next().unwrap();
        for read in read_back(place, sw) {
            prop_assert_eq!(read.as_deref(), Some(value.as_str()), "{}", yaml);
        }
    }

    /// A string a kind's rule refuses (a space in a word, `;`, `#`, `!`, a line break, a
    /// quote, a non-ASCII or control character, one character too many) is one error, at
    /// the line that writes it, and nothing is compiled.
    #[test]
    fn refused_strings_are_one_located_error(
        (place, os, value) in place_on().prop_flat_map(|(p, os)| {
            let r = rules::rule(os, p.kind().0).expect("a rule");
            accepted(r).prop_flat_map(move |v| spoiled(v, r.max)).prop_map(move |v| (p, os, v))
        }),
    ) {
        let (field, _) = place.kind();
        prop_assume!(rules::check(&[os], field, &value).is_err());
        let yaml = fabric_at(place, os, &value);
        let mut sources = fabric::diag::Sources::default();
        let Ok(loaded) = fabric::fabric::parse_bytes("f.yaml", yaml.clone().into_bytes(), &mut sources) else {
            // Refused by the YAML reader (a NUL byte), located there.
            return Ok(());
        };
        let (fab, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
        let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
        prop_assert!(fab.is_none(), "{yaml}");
        prop_assert_eq!(errors.len(), 1, "{}\n{:?}", yaml, errors);
        let want = if matches!(place, Place::Hostname) { "E022" } else { "E024" };
        prop_assert_eq!(errors[0].code, want, "{}", yaml);
        let v = serde_json::to_string(&value).unwrap();
        let line = yaml.lines().position(|l| l.contains(&v)).unwrap() + 1;
        prop_assert_eq!(error_line(&yaml, errors[0]), line, "{}", yaml);
    }
}

/// Lines a config repeats (`!`, blank) and a few that differ, so that changes land beside
/// runs longer than the text diff's window margin.
fn config_lines() -> impl Strategy<Value = Vec<&'static str>> {
    let line = prop_oneof![
        6 => Just("!"),
        2 => Just(""),
        1 => Just(" shutdown"),
        1 => Just("interface ethernet1/1/1"),
        1 => Just(" mtu 9216"),
    ];
    (
        0usize..2500,
        proptest::collection::vec(line, 0..40),
        0usize..2500,
    )
        .prop_map(|(head, middle, tail)| {
            let mut lines = vec!["!"; head];
            lines.extend(middle);
            lines.extend(std::iter::repeat_n("!", tail));
            lines
        })
}

/// Edits at random places: (where, how many lines out, the lines put in).
fn edits() -> impl Strategy<Value = Vec<(usize, usize, Vec<&'static str>)>> {
    let put = proptest::collection::vec(prop_oneof![Just("!"), Just(" mtu 1500"), Just("")], 0..4);
    proptest::collection::vec((0usize..6000, 0usize..4, put), 1..4)
}

fn text_of(lines: &[&str], final_newline: bool) -> String {
    let mut t = lines.join("\n");
    if final_newline && !lines.is_empty() {
        t.push('\n');
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48), ..ProptestConfig::default() })]

    /// The text diff `fabric diff` prints, read only around the changes, is a patch GNU
    /// `patch` applies to the old text to give the new one, exactly, and changes as few lines
    /// as `similar`'s diff of the whole texts; each hunk applies at the line it names.
    #[test]
    fn text_diff_is_a_minimal_patch(old in config_lines(), edits in edits(), end in any::<bool>()) {
        let mut new = old.clone();
        for (at, out, put) in edits {
            let at = at % (new.len() + 1);
            let out = out.min(new.len() - at);
            new.splice(at..at + out, put);
        }
        let (old, new) = (text_of(&old, true), text_of(&new, end));
        let ours = fabric::textdiff::unified(&old, &new, "a/cfg", "b/cfg");
        let changed = |d: &str| {
            d.lines()
                .filter(|l| (l.starts_with('+') && !l.starts_with("+++")) || (l.starts_with('-') && !l.starts_with("---")))
                .count()
        };
        let whole = similar::TextDiff::from_lines(&old, &new).unified_diff().context_radius(3).header("a/cfg", "b/cfg").to_string();
        prop_assert_eq!(changed(&ours), changed(&whole));
        prop_assert_eq!(ours.is_empty(), old == new);
        if old != new {
            let dir = crate::scratch("textdiff-patch");
            std::fs::write(dir.join("cfg"), &old).unwrap();
            std::fs::write(dir.join("cfg.patch"), &ours).unwrap();
            let out = std::process::Command::new("patch")
                .current_dir(&dir)
                .args(["--force", "--fuzz=0", "-o", "patched", "cfg", "cfg.patch"])
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stdout);
            // Each hunk at the line its header names: no offset, no fuzz.
            prop_assert!(out.status.success() && !said.contains("offset"), "{said}{}\n{ours}", String::from_utf8_lossy(&out.stderr));
            let patched = std::fs::read_to_string(dir.join("patched")).unwrap();
            prop_assert!(patched == new, "patched text differs\n{ours}");
        }
    }
}
