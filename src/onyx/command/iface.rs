//! Interface lines: `interface <kind> <first>[-<last>] [no] <attribute> …` (speed, MTU,
//! description, split, switchport and VLANs, LAG membership, QoS trust, ECN and ETS per
//! traffic class, PFC mode, spanning tree, addresses, the MLAG peer link) and `no interface`.

use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::combinator::{all_consuming, cut, map, map_res, opt, value};
use nom::error::ContextError;
use nom::sequence::{preceded, terminated};

use super::lex::{
    Expect, Line, R, ctx, end, force, full, ipv4, kw, last_word, negation, number, prefix, skw,
    space1, text, to_failure, traffic_class, vlan, vlan_ids, whole_word, within, word, word_enum,
};
use super::typed::{
    AllowedVlan, ChannelGroup, Command, Iface, IfaceCmd, IfaceRange, LacpMode, SpeedSetting, Vlans,
};
use crate::types::{
    Ecn, EcnMode, EcnThresholds, Ets, Speed, Split, StpGuard, StpPortType, SwitchportMode, Trust,
    Vlan, parse_port_span, read_port_span,
};

/// `interface <range> …`: the range, then what the line sets on it.
pub(super) fn interface(args: &str) -> Line<'_, Command> {
    let (rest, range) = match preceded(space1, iface_range).parse(args) {
        Ok(x) => x,
        // `interface mgmt0 …`, `interface ib …`: not modeled.
        Err(nom::Err::Error(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    if !rest.is_empty() && !rest.starts_with(' ') {
        return Err(nom::Err::Failure(Expect {
            at: rest,
            what: "a space after the interface",
        }));
    }
    Ok(iface_cmd(rest)?.map(|c| Command::Interface(range, c)))
}

/// `no interface <range>`: deletes port-channels, MLAG port-channels, VLAN interfaces and
/// loopbacks; an Ethernet port cannot be deleted, and a `no interface … <attribute>` line is
/// not modeled.
pub(super) fn no_interface(args: &str) -> Line<'_, Command> {
    let (rest, range) = match preceded(space1, iface_range).parse(args) {
        Ok(x) => x,
        Err(nom::Err::Error(_)) => return Ok(None),
        Err(e) => return Err(e),
    };
    if matches!(range.first, Iface::Ethernet(_)) || !rest.trim().is_empty() {
        return Ok(None);
    }
    Ok(Some(Command::NoInterface(range)))
}

/// `<kind> <first>[-<last>]`: an Ethernet port or range (`1/1-1/8`, `1/31/2`), or a range of
/// port-channels, MLAG port-channels, VLAN interfaces or loopbacks.
fn iface_range(i: &str) -> R<'_, IfaceRange> {
    // Most lines of a large config: an Ethernet port or range, read in one pass.
    if let Some(ids) = i.strip_prefix("ethernet ")
        && let Some(((a, b), n)) = read_port_span(ids.as_bytes())
        && matches!(ids.as_bytes().get(n), None | Some(b' '))
    {
        let range = IfaceRange {
            first: Iface::Ethernet(a),
            last: Iface::Ethernet(b),
        };
        return Ok((&ids[n..], range));
    }
    let (i, kind) = word(i)?;
    if !matches!(
        kind,
        "ethernet" | "port-channel" | "mlag-port-channel" | "vlan" | "loopback"
    ) {
        return Err(nom::Err::Error(Expect { at: i, what: "" }));
    }
    let (i, _) = space1(i)?;
    let (rest, ids) = cut(ctx("an interface number or range", word)).parse(i)?;
    let bad = |what| nom::Err::Failure(Expect { at: i, what });
    let range = match kind {
        "ethernet" => {
            let (a, b) = parse_port_span(ids)
                .map_err(|_| bad("a port or range, e.g. `1/5`, `1/1-1/8`, `1/31/2`"))?;
            IfaceRange {
                first: Iface::Ethernet(a),
                last: Iface::Ethernet(b),
            }
        }
        _ => {
            let (a, b) = match ids.split_once('-') {
                Some((a, b)) => (a, b),
                None => (ids, ids),
            };
            // Loopbacks count from 0 (`interface loopback 0`), the others from 1.
            let low = u16::from(kind != "loopback");
            let num = |s: &str| s.parse::<u16>().ok().filter(|n| (low..=4094).contains(n));
            let (Some(a), Some(b)) = (num(a), num(b)) else {
                return Err(bad("an interface number or range, e.g. `1` or `1-9`"));
            };
            if b < a {
                return Err(bad("an increasing range"));
            }
            let make = |n: u16| match kind {
                "port-channel" => Ok(Iface::PortChannel(n)),
                "mlag-port-channel" => Ok(Iface::MlagPortChannel(n)),
                "loopback" => Ok(Iface::Loopback(n)),
                _ => Vlan::new(i64::from(n)).map(Iface::Vlan),
            };
            IfaceRange {
                first: make(a).map_err(|_| bad("a VLAN id 1-4094"))?,
                last: make(b).map_err(|_| bad("a VLAN id 1-4094"))?,
            }
        }
    };
    Ok((rest, range))
}

/// `speed S [no-autoneg] [force]`, after `speed`.
fn speed_setting(i: &str) -> R<'_, SpeedSetting> {
    let (i, speed) = word_enum("a speed (`10G`, `25G`, `40G`, `100G` …)", Speed::ALL).parse(i)?;
    let (i, no_autoneg) = map(opt(skw("no-autoneg")), |x| x.is_some()).parse(i)?;
    let (i, _) = force(i)?;
    Ok((i, SpeedSetting { speed, no_autoneg }))
}

/// A traffic class's ECN/RED thresholds, after `congestion-control`.
fn ecn(i: &str) -> R<'_, Ecn> {
    let (i, mode) = word_enum("`ecn`, `red` or `both`", EcnMode::ALL).parse(i)?;
    let (i, _) = space1(i)?;
    let (i, kind) = ctx(
        "`minimum-absolute` or `minimum-relative`",
        alt((kw("minimum-absolute"), kw("minimum-relative"))),
    )
    .parse(i)?;
    let relative = kind == "minimum-relative";
    let (i, min) = preceded(space1, ctx("a threshold", number::<u32>)).parse(i)?;
    let (i, _) = ctx(
        if relative {
            "`maximum-relative`"
        } else {
            "`maximum-absolute`"
        },
        preceded(
            space1,
            tag(if relative {
                "maximum-relative"
            } else {
                "maximum-absolute"
            }),
        ),
    )
    .parse(i)?;
    let (i, max) = preceded(space1, ctx("a threshold", number::<u32>)).parse(i)?;
    let thresholds = if relative {
        let pct = |v: u32| u8::try_from(v).ok().filter(|v| *v <= 100);
        match (pct(min), pct(max)) {
            (Some(min), Some(max)) => EcnThresholds::Relative { min, max },
            _ => {
                return Err(nom::Err::Failure(Expect {
                    at: i,
                    what: "relative thresholds 0-100",
                }));
            }
        }
    } else {
        EcnThresholds::Absolute { min, max }
    };
    Ok((i, Ecn { mode, thresholds }))
}

/// The part of an `interface …` line after the range; `Ok(None)` for attributes the model
/// does not know.
fn iface_cmd(i: &str) -> Line<'_, IfaceCmd> {
    let i = i.trim_ascii_start();
    if i.is_empty() {
        return Ok(Some(IfaceCmd::Create));
    }
    let (i, no) = negation(i);
    whole_word(i, IFACE_ATTRIBUTES)?;
    let (after, head) = word(i)?;
    let args = after.trim_ascii_start();
    // Most frequent first: a hybrid port prints a `switchport` line per VLAN.
    match (no, head) {
        (_, "switchport") => switchport(no, args),
        (false, "speed") => full(args, |x| map(speed_setting, IfaceCmd::Speed).parse(x)),
        (true, "speed") => full(args, |x| value(IfaceCmd::NoSpeed, force).parse(x)),
        (false, "mtu") => full(args, mtu),
        (true, "mtu") => full(args, |x| value(IfaceCmd::NoMtu, force).parse(x)),
        (false, "description") => {
            let (_, t) = text(args).map_err(to_failure)?;
            Ok(Some(IfaceCmd::Description(t)))
        }
        (true, "description") => full(args, |x| Ok((x, IfaceCmd::NoDescription))),
        (_, "shutdown") => full(args, |x| Ok((x, IfaceCmd::Shutdown(!no)))),
        (false, "module-type") => full(args, module_type),
        (true, "module-type") => full(args, |x| value(IfaceCmd::NoSplit, force).parse(x)),
        (false, "channel-group") | (false, "mlag-channel-group") => {
            let mlag = head == "mlag-channel-group";
            full(args, |x| channel_group(mlag, x))
        }
        (true, "channel-group") | (true, "mlag-channel-group") => {
            let mlag = head == "mlag-channel-group";
            Ok(Some(IfaceCmd::NoChannelGroup { mlag }))
        }
        (_, "qos") => qos_trust(no, args),
        (_, "traffic-class") => traffic_class_cmd(no, args),
        (_, "spanning-tree") => spanning_tree(no, args),
        (_, "lacp-individual") => lacp_individual(no, args),
        (_, "ip") => ip_address(no, args),
        (_, "ipl") => ipl(no, args),
        (_, "dcb") => pfc_mode(no, args),
        _ => Ok(None),
    }
}

/// `mtu N [force]`.
fn mtu(x: &str) -> R<'_, IfaceCmd> {
    let (x, m) = ctx(
        "an MTU 1500-9216",
        map_res(number::<u16>, within(crate::types::MTU)),
    )
    .parse(x)?;
    let (x, _) = force(x)?;
    Ok((x, IfaceCmd::Mtu(m)))
}

/// `module-type qsfp-split-2|qsfp-split-4 [force]`.
fn module_type(x: &str) -> R<'_, IfaceCmd> {
    let (x, s) = ctx(
        "`qsfp-split-2` or `qsfp-split-4`",
        alt((
            value(Split::Two, kw("qsfp-split-2")),
            value(Split::Four, kw("qsfp-split-4")),
        )),
    )
    .parse(x)?;
    let (x, _) = force(x)?;
    Ok((x, IfaceCmd::Split(s)))
}

/// `[mlag-]channel-group N mode on|active|passive`, after the first word.
fn channel_group(mlag: bool, x: &str) -> R<'_, IfaceCmd> {
    let (x, id) = ctx("a channel-group number", number::<u16>).parse(x)?;
    let (x, _) = ctx("`mode`", skw("mode")).parse(x)?;
    let (x, mode) = preceded(
        space1,
        word_enum(
            "`on`, `active` or `passive`",
            &[
                ("on", LacpMode::On),
                ("active", LacpMode::Active),
                ("passive", LacpMode::Passive),
            ],
        ),
    )
    .parse(x)?;
    Ok((x, IfaceCmd::ChannelGroup(ChannelGroup { mlag, id, mode })))
}

/// `qos trust …`; the other `qos` attributes (`default`, `map`, `rewrite`) are not modeled.
fn qos_trust(no: bool, args: &str) -> Line<'_, IfaceCmd> {
    whole_word(args, &["default", "map", "rewrite", "trust"])?;
    let Ok((targs, _)) = kw("trust").parse(args) else {
        return Ok(None);
    };
    if no {
        return Ok(Some(IfaceCmd::NoTrust));
    }
    let (_, t) = all_consuming(terminated(
        preceded(
            space1,
            word_enum("`port`, `L2`, `L3` or `both`", Trust::ALL),
        ),
        end,
    ))
    .parse(targs)
    .map_err(to_failure)?;
    Ok(Some(IfaceCmd::Trust(t)))
}

/// `lacp-individual enable [force]`; the other `lacp-individual` attributes are not modeled.
fn lacp_individual(no: bool, args: &str) -> Line<'_, IfaceCmd> {
    whole_word(args, &["enable"])?;
    let Ok((rest, _)) = kw("enable").parse(args) else {
        return Ok(None);
    };
    all_consuming(terminated(force, end))
        .parse(rest)
        .map_err(to_failure)?;
    Ok(Some(IfaceCmd::LacpIndividual(!no)))
}

/// `ip address A.B.C.D/N [primary]`; the other `ip` attributes are not modeled.
fn ip_address(no: bool, args: &str) -> Line<'_, IfaceCmd> {
    whole_word(args, &["address", "dhcp", "igmp", "ospf", "pim", "vrf"])?;
    let Ok((rest, _)) = kw("address").parse(args) else {
        return Ok(None);
    };
    if no {
        return Ok(Some(IfaceCmd::NoAddress));
    }
    let rest = rest.trim_ascii_start();
    // `ip address A.B.C.D M.M.M.M`, the dotted mask of older releases, and the bare
    // `ip address primary` a 3.9.2504 switch prints for a port without one (oxidized's
    // recorded session): kept verbatim.
    if (rest.contains(' ') && !rest.contains('/'))
        || !rest.starts_with(|c: char| c.is_ascii_digit())
    {
        return Ok(None);
    }
    let (_, a) = all_consuming(terminated(terminated(prefix, opt(skw("primary"))), end))
        .parse(rest)
        .map_err(to_failure)?;
    Ok(Some(IfaceCmd::Address(a)))
}

/// `ipl N` on the peer link's port-channel, `ipl N peer-address A` on its VLAN interface.
fn ipl(no: bool, args: &str) -> Line<'_, IfaceCmd> {
    let (rest, id) = ctx("an IPL number", map_res(number::<u8>, within(1..=2)))
        .parse(args)
        .map_err(to_failure)?;
    let rest = rest.trim_ascii_start();
    if rest.is_empty() {
        return Ok(Some(if no {
            IfaceCmd::NoIpl(id)
        } else {
            IfaceCmd::Ipl(id)
        }));
    }
    whole_word(rest, &["peer-address"])?;
    let Ok((rest, _)) = kw("peer-address").parse(rest) else {
        return Ok(None);
    };
    if no {
        return Ok(Some(IfaceCmd::NoIplPeer(id)));
    }
    let (_, a) = all_consuming(terminated(preceded(space1, ipv4), end))
        .parse(rest)
        .map_err(to_failure)?;
    Ok(Some(IfaceCmd::IplPeer(id, a)))
}

/// `dcb priority-flow-control mode on force` / `no dcb priority-flow-control mode force`.
fn pfc_mode(no: bool, args: &str) -> Line<'_, IfaceCmd> {
    whole_word(args, &["priority-flow-control"])?;
    if let Some(r) = args.strip_prefix("priority-flow-control") {
        whole_word(r, &["mode"])?;
    }
    let Ok((rest, _)) = (kw("priority-flow-control"), space1, kw("mode")).parse(args) else {
        return Ok(None);
    };
    if no {
        let (_, _) = all_consuming(terminated(force, end))
            .parse(rest)
            .map_err(to_failure)?;
        Ok(Some(IfaceCmd::PfcMode(false)))
    } else {
        let (_, _) = all_consuming(terminated((ctx("`on`", skw("on")), force), end))
            .parse(rest)
            .map_err(to_failure)?;
        Ok(Some(IfaceCmd::PfcMode(true)))
    }
}

/// `switchport …`: routed or L2, the mode, the access VLAN, the allowed VLANs.
fn switchport(no: bool, args: &str) -> Line<'_, IfaceCmd> {
    whole_word(args, &["access", "force", "hybrid", "mode", "trunk"])?;
    let Ok((rest, sub)) = word(args) else {
        return Ok(None);
    };
    let rest = rest.trim_ascii_start();
    match (no, sub) {
        (_, "force") => {
            all_consuming(end).parse(rest).map_err(to_failure)?;
            Ok(Some(IfaceCmd::Routed(no)))
        }
        (false, "mode") => {
            let (_, m) = all_consuming(terminated(
                word_enum("`access`, `trunk` or `hybrid`", SwitchportMode::ALL),
                end,
            ))
            .parse(rest)
            .map_err(to_failure)?;
            Ok(Some(IfaceCmd::SwitchportMode(m)))
        }
        (false, "access") => {
            let (_, v) = all_consuming(terminated(
                preceded((ctx("`vlan`", kw("vlan")), space1), vlan),
                end,
            ))
            .parse(rest)
            .map_err(to_failure)?;
            Ok(Some(IfaceCmd::AccessVlan(v)))
        }
        (true, "access") => Ok(Some(IfaceCmd::NoAccessVlan)),
        (false, "trunk") | (false, "hybrid") => allowed_vlan(sub, rest),
        _ => Ok(None),
    }
}

/// `switchport trunk|hybrid allowed-vlan none|all|add LIST|remove LIST|LIST`, after
/// `trunk` or `hybrid` (`sub`); the other trunk and hybrid attributes are not modeled.
fn allowed_vlan<'a>(sub: &str, rest: &'a str) -> Line<'a, IfaceCmd> {
    let mode = if sub == "trunk" {
        SwitchportMode::Trunk
    } else {
        SwitchportMode::Hybrid
    };
    whole_word(rest, &["allowed-vlan"])?;
    let Ok((rest, _)) = kw("allowed-vlan").parse(rest) else {
        return Ok(None);
    };
    let rest = rest.trim_ascii_start();
    let list = |r| -> Result<Vlans, nom::Err<Expect<'_>>> {
        let (r, _) = space1(r).map_err(to_failure)?;
        let (r, ids) = vlan_ids(r)
            .map_err(|e| to_failure(e.map(|e| Expect::add_context(r, "a VLAN list", e))))?;
        end(r).map_err(to_failure)?;
        Ok(ids)
    };
    let (after, w) = word(rest).map_err(to_failure)?;
    let op = match w {
        "none" | "all" => {
            all_consuming(end).parse(after).map_err(to_failure)?;
            if w == "none" {
                AllowedVlan::None
            } else {
                AllowedVlan::All
            }
        }
        "add" => AllowedVlan::Add(list(after)?),
        "remove" => AllowedVlan::Remove(list(after)?),
        _ => {
            let (_, l) = all_consuming(terminated(
                ctx("`none`, `all`, `add`, `remove` or a VLAN list", vlan_ids),
                end,
            ))
            .parse(rest)
            .map_err(to_failure)?;
            AllowedVlan::Set(l)
        }
    };
    Ok(Some(IfaceCmd::AllowedVlan(mode, op)))
}

/// `spanning-tree port type|bpduguard|guard …` on an interface; the other spanning-tree
/// attributes (`cost`, `port-priority`, `bpdufilter`, `link-type`) are not modeled.
fn spanning_tree(no: bool, args: &str) -> Line<'_, IfaceCmd> {
    whole_word(
        args,
        &[
            "bpdufilter",
            "bpduguard",
            "cost",
            "guard",
            "link-type",
            "port",
            "port-priority",
        ],
    )?;
    let Ok((rest, sub)) = word(args) else {
        return Ok(None);
    };
    let rest = rest.trim_ascii_start();
    fn nothing(r: &str) -> Result<(), nom::Err<Expect<'_>>> {
        all_consuming(end).parse(r).map(|_| ()).map_err(to_failure)
    }
    match (no, sub) {
        (_, "port") => {
            whole_word(rest, &["type"])?;
            let Ok((rest, _)) = kw("type").parse(rest) else {
                return Ok(None);
            };
            let rest = rest.trim_ascii_start();
            if no {
                nothing(rest)?;
                return Ok(Some(IfaceCmd::NoStpPortType));
            }
            let t = last_word(rest, "`edge`, `network` or `normal`", StpPortType::ALL)?;
            Ok(Some(IfaceCmd::StpPortType(t)))
        }
        (true, "bpduguard" | "guard") => {
            nothing(rest)?;
            Ok(Some(match sub {
                "guard" => IfaceCmd::NoStpGuard,
                _ => IfaceCmd::NoBpduguard,
            }))
        }
        (false, "bpduguard") => Ok(Some(IfaceCmd::Bpduguard(last_word(
            rest,
            "`enable` or `disable`",
            &[("enable", true), ("disable", false)],
        )?))),
        (false, "guard") => Ok(Some(IfaceCmd::StpGuard(last_word(
            rest,
            "`root` or `loop`",
            &[("root", StpGuard::Root), ("loop", StpGuard::Loop)],
        )?))),
        _ => Ok(None),
    }
}

/// `traffic-class N congestion-control …|dcb ets …`; `bind` is not modeled.
fn traffic_class_cmd(no: bool, args: &str) -> Line<'_, IfaceCmd> {
    let (rest, tc) = traffic_class(args).map_err(to_failure)?;
    whole_word(rest, &["bind", "congestion-control", "dcb"])?;
    let Ok((rest, _)) = space1(rest) else {
        return Ok(None);
    };
    let Ok((rest, what)) = word(rest) else {
        return Ok(None);
    };
    if what == "dcb" {
        whole_word(rest, &["ets"])?;
    }
    match (no, what) {
        (false, "congestion-control") => {
            let (_, e) = all_consuming(terminated(preceded(space1, ecn), end))
                .parse(rest)
                .map_err(to_failure)?;
            Ok(Some(IfaceCmd::Ecn(tc, e)))
        }
        (true, "congestion-control") => Ok(Some(IfaceCmd::NoEcn(tc))),
        (true, "dcb") => {
            let Ok((rest, _)) = (space1, kw("ets")).parse(rest) else {
                return Ok(None);
            };
            let (_, _) = all_consuming(end).parse(rest).map_err(to_failure)?;
            Ok(Some(IfaceCmd::NoEts(tc)))
        }
        (false, "dcb") => {
            let Ok((rest, _)) = (space1, kw("ets")).parse(rest) else {
                return Ok(None);
            };
            let ets = alt((
                value(Ets::Strict, kw("strict")),
                map(
                    preceded(
                        (kw("wrr"), space1),
                        ctx("a WRR weight 1-100", map_res(number::<u8>, within(1..=100))),
                    ),
                    Ets::Wrr,
                ),
            ));
            let (_, e) = all_consuming(terminated(
                preceded(space1, ctx("`strict` or `wrr WEIGHT`", ets)),
                end,
            ))
            .parse(rest)
            .map_err(to_failure)?;
            Ok(Some(IfaceCmd::Ets(tc, e)))
        }
        _ => Ok(None),
    }
}

/// The attributes an `interface ethernet|port-channel|mlag-port-channel|vlan` line may set
/// (after `no`): the modeled ones and others seen in captures or the Onyx User Manual
/// (Ethernet, LAG, MLAG, QoS, DCB, L3, STP and LLDP interface commands).
const IFACE_ATTRIBUTES: &[&str] = &[
    "bandwidth",
    "boot-delay",
    "channel-group",
    "dcb",
    "description",
    "dot1x",
    "fec-override",
    "flowcontrol",
    "ingress-buffer",
    "ip",
    "ipl",
    "ipv6",
    "lacp",
    "lacp-individual",
    "lldp",
    "load-interval",
    "mac-learning",
    "magp",
    "mlag-channel-group",
    "module-type",
    "mtu",
    "ptp",
    "qos",
    "sflow",
    "shutdown",
    "spanning-tree",
    "speed",
    "storm-control",
    "switchport",
    "traffic-class",
    "vlan",
    "vrrp",
];

/// `interface ethernet P switchport hybrid|trunk allowed-vlan add N`, exactly as the switch
/// prints it: a line per VLAN of a port, so most lines of a large config (44,778 of the 51,669
/// of the peers' `large` one). Read here in one pass instead of through the grammar, which
/// gives the same command (a test compares the two); any other spelling, a range of ports or
/// a VLAN out of range is left to the grammar and its errors.
pub(super) fn one_vlan_added(line: &str) -> Option<Command> {
    let ids = line.strip_prefix("interface ethernet ")?;
    let (port, n) = crate::types::read_port_span(ids.as_bytes())?;
    let rest = &ids[n..];
    let (mode, vlan) = if let Some(v) = rest.strip_prefix(" switchport hybrid allowed-vlan add ") {
        (SwitchportMode::Hybrid, v)
    } else {
        let v = rest.strip_prefix(" switchport trunk allowed-vlan add ")?;
        (SwitchportMode::Trunk, v)
    };
    if !(1..=4).contains(&vlan.len()) || !vlan.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let v = vlan.bytes().fold(0i64, |v, d| v * 10 + i64::from(d - b'0'));
    let range = IfaceRange {
        first: Iface::Ethernet(port.0),
        last: Iface::Ethernet(port.1),
    };
    let add = AllowedVlan::Add(Vlans::One(Vlan::new(v).ok()?));
    Some(Command::Interface(range, IfaceCmd::AllowedVlan(mode, add)))
}
