//! The QoS and buffer `show` commands, text and `| json-print`: `show traffic pool [NAME]`,
//! `show buffers pools`, `show dcb priority-flow-control`, `show dcb ets [interface KIND
//! ID]`, `show qos interface KIND ID`, `show interfaces KIND ID congestion-control` and `show
//! roce`. Input: the switch's running config, its release and, for PFC's operational state,
//! the network (a port is up when both ends of its cable are). Output: [`Shown`].
//!
//! Every command prints what the switch's QoS amounts to ([`Qos`]): the configuration, with
//! what the one-shot `roce` sets wherever the configuration leaves a setting at its default.
//!
//! JSON shapes are the captures' (`tests/fixtures/corpus/onyx/show/ansible-onyx__*`, named
//! at each command), keys in Onyx's order ([`super::json`]). Text layouts: `show roce` is
//! the capture's (`corpus/onyx/more/blog-id310222282__SN2700__show_roce_Onyx_3.10.4006.txt`),
//! and its buffer-pool table is `show traffic pool`'s; `show dcb priority-flow-control` is
//! the layout `onyx-cli.md` §a.6 quotes from a vendor guide (weak). No capture shows the text
//! of the others: their layouts print the captured JSON's fields in its blocks, and are
//! UNCONFIRMED.

use crate::onyx::lab::cli::Errors as _;
use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value;

use super::json::{Obj, key_values};
use super::{Cx, Shown};
use crate::onyx::command::{self, Command, Iface, IfaceCmd};
use crate::onyx::lab::cli::{Reply, Switch, Unconfirmed};
use crate::onyx::{Config, Interface};
use crate::types::{
    Ecn, EcnMode, EcnThresholds, Ets, Percent, PoolType, Port, Priority, Release, RoceMode,
    TrafficClass, Trust,
};

mod roce;

pub use roce::roce;

/// The switch priority, traffic class and application of RoCE and of its congestion
/// notifications under `roce` (the capture's "RoCE used TCs": 3/3 RoCE, 6/6 CNP).
const ROCE_SP: u8 = 3;
const CNP_SP: u8 = 6;

/// RoCE's ECN on its traffic class under `roce`: ECN, absolute, 150/1500 KB (captured).
const ROCE_ECN: Ecn = Ecn {
    mode: EcnMode::Ecn,
    thresholds: EcnThresholds::Absolute {
        min: 150,
        max: 1500,
    },
};

/// RoCE's ETS under `roce`: WRR 50 on its class, strict for CNP (captured: `WRR 50%`,
/// `Strict`).
const ROCE_WRR: u8 = 50;

/// The lab switch's shared buffer in tenths of a megabyte: 50.00 % of it is the 5.9M the
/// `show traffic pool roce` capture reports. Pools at `auto` share what the others leave.
const BUFFER_TENTHS_MB: u32 = 118;

/// What a switch's QoS amounts to: its configuration, with what `roce` sets where the
/// configuration leaves a setting at its default (a port's own trust, ECN or ETS wins: the
/// lab's choice; `show roce` lists such ports as exceptions).
///
/// What `roce` sets is the capture's (`lossless` on 3.10.4006): trust L3, ECN on TC3, TC3 WRR
/// 50 and TC6 strict, PFC on priority 3, the pools `lossy-default` and `roce-reserved`, the
/// application TLV UDP 4791 on priority 3. Of the other modes the manual says only that
/// `semi-lossless` honours pause without sending it and `lossy` marks ECN only (RoCE
/// Commands): the lab pauses priority 3 under `semi-lossless` as under `lossless`, not under
/// `lossy`, whose `roce-reserved` is lossy (UNCONFIRMED).
struct Qos<'a> {
    c: &'a Config,
}

/// One traffic pool as `show traffic pool` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PoolRow {
    name: String,
    kind: PoolType,
    /// `None`: `auto`.
    memory: Option<Percent>,
    priorities: BTreeSet<Priority>,
}

/// Switch priority `n` (0-7; `None` beyond).
fn sp(n: u8) -> Option<Priority> {
    Priority::new(i64::from(n)).ok()
}

/// The eight switch priorities.
fn all_priorities() -> impl Iterator<Item = Priority> {
    (0..=Priority::MAX).filter_map(sp)
}

fn tc(n: u8) -> TrafficClass {
    TrafficClass::ALL[usize::from(n.min(TrafficClass::MAX))]
}

impl<'a> Qos<'a> {
    fn of(c: &'a Config) -> Qos<'a> {
        Qos { c }
    }

    fn roce(&self) -> Option<RoceMode> {
        self.c.roce
    }

    /// `roce` pauses RoCE's priority.
    fn roce_pfc(&self) -> bool {
        matches!(
            self.roce(),
            Some(RoceMode::Lossless | RoceMode::SemiLossless)
        )
    }

    fn iface(&self, i: Iface) -> Option<&'a Interface> {
        self.c.interfaces.get(&i)
    }

    fn trust(&self, i: Iface) -> Trust {
        let own = self.iface(i).and_then(|x| x.trust);
        own.or(self.roce().map(|_| Trust::L3)).unwrap_or(Trust::L2)
    }

    fn ecn(&self, i: Iface, class: TrafficClass) -> Option<Ecn> {
        let own = self.iface(i).and_then(|x| x.ecn.get(&class).copied());
        let roce = (self.roce().is_some() && class == tc(ROCE_SP)).then_some(ROCE_ECN);
        own.or(roce)
    }

    fn ets(&self, i: Iface, class: TrafficClass) -> Ets {
        let own = self.iface(i).and_then(|x| x.ets.get(&class).copied());
        let roce = self.roce().and_then(|_| match class.get() {
            ROCE_SP => Some(Ets::Wrr(ROCE_WRR)),
            CNP_SP => Some(Ets::Strict),
            _ => None,
        });
        // Onyx's default weights, 12 and 13 in turn (they sum to 100): the
        // `show dcb ets interface` capture's unconfigured classes.
        own.or(roce).unwrap_or(Ets::Wrr(12 + class.get() % 2))
    }

    /// Per-port PFC (`dcb priority-flow-control mode on force`, or `roce` pausing).
    fn port_pfc(&self, i: Iface) -> bool {
        self.iface(i).is_some_and(|x| x.pfc) || self.roce_pfc()
    }

    /// Global PFC and its priorities.
    fn pfc(&self) -> (bool, BTreeSet<Priority>) {
        let mut priorities = self.c.pfc.priorities.clone();
        if self.roce_pfc() {
            priorities.extend(sp(ROCE_SP));
        }
        (self.c.pfc.enabled || self.roce_pfc(), priorities)
    }

    /// The traffic pools, by name: the configured ones, then `roce`'s `roce-reserved` (RoCE's
    /// priority) and `lossy-default` (the rest), each with the priorities no other pool has
    /// and listed only with some (both captured under `roce`; that `lossy-default` is listed
    /// without `roce` too is UNCONFIRMED).
    fn pools(&self) -> Vec<PoolRow> {
        let mut rows: Vec<PoolRow> = self
            .c
            .pools
            .iter()
            .map(|(name, p)| PoolRow {
                name: name.clone(),
                kind: p.kind.unwrap_or(PoolType::Lossy),
                memory: p.memory,
                priorities: p.priorities.clone(),
            })
            .collect();
        // The pools `roce` and the default add hold the priorities no configured pool has;
        // one left with none is not listed.
        let free =
            |rows: &[PoolRow], ps: &mut dyn Iterator<Item = Priority>| -> BTreeSet<Priority> {
                ps.filter(|p| !rows.iter().any(|r| r.priorities.contains(p)))
                    .collect()
            };
        let add = |rows: &mut Vec<PoolRow>, name: &str, kind, priorities: BTreeSet<Priority>| {
            if !priorities.is_empty() && !rows.iter().any(|r| r.name == name) {
                rows.push(PoolRow {
                    name: name.into(),
                    kind,
                    memory: None,
                    priorities,
                });
            }
        };
        if let Some(mode) = self.roce() {
            let kind = match mode {
                RoceMode::Lossy => PoolType::Lossy,
                _ => PoolType::Lossless,
            };
            let ps = free(&rows, &mut sp(ROCE_SP).into_iter());
            add(&mut rows, "roce-reserved", kind, ps);
        }
        let ps = free(&rows, &mut all_priorities());
        add(&mut rows, "lossy-default", PoolType::Lossy, ps);
        rows.sort_by(|a, b| a.name.cmp(&b.name));
        rows
    }
}

/// A pool's share of the lab's buffer, as Onyx prints sizes (`5.9M`).
fn memory_actual(rows: &[PoolRow], row: &PoolRow) -> String {
    let fixed: u32 = rows.iter().filter_map(|r| r.memory).map(tenths).sum();
    let autos = rows.iter().filter(|r| r.memory.is_none()).count() as u32;
    let t = match row.memory {
        Some(m) => tenths(m),
        None => BUFFER_TENTHS_MB.saturating_sub(fixed) / autos.max(1),
    };
    format!("{}.{}M", t / 10, t % 10)
}

fn tenths(m: Percent) -> u32 {
    (BUFFER_TENTHS_MB * u32::from(m.hundredths()) + 5_000) / 10_000
}

fn memory_percent(row: &PoolRow) -> String {
    row.memory
        .map_or_else(|| "auto".to_string(), |m| m.to_string())
}

/// `0, 1, 2, 4, 5, 6, 7`, as the pool table prints switch priorities.
fn priority_list(ps: &BTreeSet<Priority>) -> String {
    ps.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The priorities cut to the table's column (13 characters), as the capture wraps
/// `0, 1, 2, 4,` / `5, 6, 7`.
fn wrapped(list: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in list.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > 13 {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// The pool table of `show traffic pool` and of `show roce`'s "RoCE buffer pools", in the
/// capture's columns; Usage and Max Usage are 0 (the lab carries no traffic).
fn pool_table(rows: &[PoolRow], shown: &[&PoolRow]) -> String {
    let rule = format!("  {}\n", "-".repeat(94));
    let mut out = rule.clone();
    out.push_str("  Traffic                  Type      Memory   Switch        Memory actual   Usage    Max Usage \n");
    out.push_str("  Pool                               [%]      Priorities                                       \n");
    out.push_str(&rule);
    for r in shown {
        let lines = wrapped(&priority_list(&r.priorities));
        let first = lines.first().map_or("", String::as_str);
        let _ = writeln!(
            out,
            "  {:<25}{:<10}{:<9}{:<14}{:<16}{:<9}{:<10}",
            r.name,
            r.kind.word(),
            memory_percent(r),
            first,
            memory_actual(rows, r),
            0,
            0
        );
        // A wrapped line stops after the Usage column (captured).
        for more in lines.iter().skip(1) {
            let _ = writeln!(out, "{:46}{more:<14}{:25}", "", "");
        }
    }
    out
}

fn pool_json(rows: &[PoolRow], r: &PoolRow) -> Obj {
    // Inserted in the table's column order, which gives the capture's key order.
    Obj::new()
        .s("Type", r.kind.word())
        .s("Memory [%]", memory_percent(r))
        .s("Switch Priorities", priority_list(&r.priorities))
        .s("Memory actual", memory_actual(rows, r))
        .s("Usage", 0)
        .s("Max Usage", 0)
}

/// `show traffic pool [NAME]` (3.6.5000+). JSON: `ansible-onyx__onyx_buffer_pool__show_traffic_pool_roce_json.cfg`
/// (`{"roce": [{"Type", "Switch Priorities", …}], "Exception list": {"message": "N/A"}}`),
/// every pool alike without a name. A name no pool has: [`Unconfirmed::NoSuchPool`].
pub fn traffic_pool(cx: &Cx<'_>, rest: &[&str]) -> Result<Shown, Reply> {
    if cx.sw.release < Release::TRAFFIC_POOLS {
        return Err(Reply::unrecognized("traffic"));
    }
    let rows = Qos::of(&cx.sw.running).pools();
    let shown: Vec<&PoolRow> = match rest {
        [] => rows.iter().collect(),
        [name] => match rows.iter().find(|r| r.name == *name) {
            Some(r) => vec![r],
            None => return Err(Unconfirmed::NoSuchPool.reply(name)),
        },
        [_, extra, ..] => return Err(Reply::unrecognized(extra)),
    };
    let mut text = String::from("\n");
    text.push_str(&pool_table(&rows, &shown));
    text.push_str("\nException list:\nN/A\n");
    let mut json = Obj::new();
    for r in &shown {
        json = json.row(&r.name, pool_json(&rows, r));
    }
    let json = json.v("Exception list", Obj::new().s("message", "N/A").build());
    Ok(Shown {
        text,
        json: Some(json.build()),
    })
}

/// `show buffers pools`: each traffic pool's ingress and egress halves (a pool bundles both:
/// Onyx manual, Shared Buffers). No capture shows this command: the layout (pool,
/// direction, type, size, usage, maximum usage) and its JSON (a pool's two rows under its
/// name) are UNCONFIRMED.
pub fn buffers_pools(cx: &Cx<'_>) -> Shown {
    let rows = Qos::of(&cx.sw.running).pools();
    let rule = "-".repeat(94);
    let mut text = format!(
        "\n{rule}\n{:<25}{:<12}{:<11}{:<16}{:<16}Max Usage\n{rule}\n",
        "Pool", "Direction", "Type", "Size", "Usage"
    );
    let mut json = Obj::new();
    for r in &rows {
        let mut halves = Vec::new();
        for direction in ["ingress", "egress"] {
            let size = memory_actual(&rows, r);
            let _ = writeln!(
                text,
                "{:<25}{direction:<12}{:<11}{size:<16}{:<16}0",
                r.name,
                r.kind.word(),
                0
            );
            halves.push(
                Obj::new()
                    .s("Direction", direction)
                    .s("Type", r.kind.word())
                    .s("Size", size)
                    .s("Usage", 0)
                    .s("Max Usage", 0)
                    .build(),
            );
        }
        json = json.v(&r.name, Value::Array(halves));
    }
    Shown {
        text,
        json: Some(json.build()),
    }
}

/// An interface as `show` output names it: `Eth1/1`, `Eth1/1/2`, `Po1`, `Mpo2`.
pub(super) fn short_name(i: Iface) -> String {
    match i {
        Iface::Ethernet(p) => format!("Eth{p}"),
        Iface::PortChannel(n) => format!("Po{n}"),
        Iface::MlagPortChannel(n) => format!("Mpo{n}"),
        Iface::Vlan(v) => format!("Vlan {v}"),
        Iface::Loopback(n) => format!("Loopback{n}"),
    }
}

/// The switch's Ethernet ports, in order: its model's front-panel ports, a split port's
/// subports in its place (and none for a port a 4-way split disables); without a model, the
/// ports its configuration names.
pub(super) fn ethernet_ports(sw: &Switch) -> Vec<Port> {
    let split = |p: Port| {
        sw.running
            .interfaces
            .get(&Iface::Ethernet(p))
            .and_then(|i| i.split)
    };
    let Some(model) = sw.model else {
        return sw
            .running
            .interfaces
            .keys()
            .filter_map(|k| match k {
                Iface::Ethernet(p) if split(*p).is_none() => Some(*p),
                _ => None,
            })
            .collect();
    };
    let disabled: BTreeSet<Port> = model
        .ports()
        .filter(|p| split(*p) == Some(crate::types::Split::Four))
        .filter_map(|p| {
            model
                .check_split(p, crate::types::Split::Four)
                .ok()
                .flatten()
        })
        .collect();
    model
        .ports()
        .filter(|p| !disabled.contains(p))
        .flat_map(|p| match split(p) {
            Some(s) => (1..=s.ways())
                .map(|n| Port::sub(p.slot, p.port, n))
                .collect::<Vec<_>>(),
            None => vec![p],
        })
        .collect()
}

/// The interfaces QoS applies to: Ethernet ports, then port-channels and MLAG
/// port-channels.
fn qos_interfaces(sw: &Switch) -> Vec<Iface> {
    let mut out: Vec<Iface> = ethernet_ports(sw)
        .into_iter()
        .map(Iface::Ethernet)
        .collect();
    out.extend(
        sw.running
            .interfaces
            .keys()
            .filter(|k| matches!(k, Iface::PortChannel(_) | Iface::MlagPortChannel(_)))
            .copied(),
    );
    out
}

/// The interfaces `KIND ID` names (`ethernet 1/1`, `port-channel 1`, `mlag-port-channel
/// 2-3`), each one the switch has; else the word Onyx would refuse.
fn named(sw: &Switch, kind: &str, id: &str) -> Result<Vec<Iface>, Reply> {
    let Ok(Some(Command::Interface(range, IfaceCmd::Create))) =
        command::parse(&format!("interface {kind} {id}"))
    else {
        return Err(Reply::unrecognized(kind));
    };
    let known = qos_interfaces(sw);
    let ifaces: Vec<Iface> = range.members().collect();
    if ifaces.iter().any(|i| !known.contains(i)) {
        return Err(Reply::unrecognized(id));
    }
    Ok(ifaces)
}

fn word_list(ps: impl Iterator<Item = Priority>) -> String {
    ps.map(|p| p.to_string()).collect::<Vec<_>>().join(" ")
}

/// `show dcb priority-flow-control`: global state, the priorities it pauses, and per
/// interface the admin mode (`on` with `mode on`, else `Auto`) and the operational state:
/// `Enabled` only on an interface that is up with PFC on, globally and at the port (Auto
/// negotiates over DCBX, which the lab does not run: `Disabled`).
///
/// JSON: before 3.6.6000 the interface rows (`ansible-onyx__onyx_pfc_interface_*__show_dcb_pfc_json.cfg`,
/// 3.6.5000 per its test); from 3.6.6000 a list whose third element holds them (the
/// Ansible reader takes `[2]`), after the global fields, which a published JSON-API reply
/// (3.8.2306) shows as `PFC`, `Priority Enabled List`, `Priority Disabled List`. How those
/// spread over the first two elements is UNCONFIRMED: `PFC`, then the two lists.
pub fn pfc(cx: &Cx<'_>) -> Shown {
    let q = Qos::of(&cx.sw.running);
    let (on, priorities) = q.pfc();
    let state = if on { "enabled" } else { "disabled" };
    let enabled = word_list(priorities.iter().copied());
    let disabled = word_list(all_priorities().filter(|p| !priorities.contains(p)));
    let rows: Vec<(String, &str, &str)> = cx.net(|net, _, me| {
        qos_interfaces(cx.sw)
            .into_iter()
            .map(|i| {
                let admin = q.port_pfc(i);
                let oper = admin && on && net.iface_up(me, i);
                (
                    short_name(i),
                    if admin { "on" } else { "Auto" },
                    if oper { "Enabled" } else { "Disabled" },
                )
            })
            .collect()
    });
    let rule = "-".repeat(49);
    let mut text = format!(
        "\nPFC: {state}\nPriority Enabled List: {enabled}\nPriority Disabled List: {disabled}\n\n{rule}\n{:<17}{:<17}PFC oper\n{rule}\n",
        "Interface", "PFC admin"
    );
    let mut table = Obj::new();
    for (name, admin, oper) in &rows {
        let _ = writeln!(text, "{name:<17}{admin:<17}{oper}");
        table = table.row(name, Obj::new().s("PFC admin", admin).s("PFC oper", oper));
    }
    let json = if cx.sw.release < super::JSON_API {
        table.build()
    } else {
        Value::Array(vec![
            Obj::new().s("PFC", state).build(),
            Obj::new()
                .s("Priority Enabled List", &enabled)
                .s("Priority Disabled List", &disabled)
                .build(),
            table.build(),
        ])
    };
    Shown {
        text,
        json: Some(json),
    }
}

/// One traffic class's ETS row: mode, weight, its share of the WRR classes' weights.
struct EtsRow {
    strict: bool,
    weight: u8,
    percent: u32,
}

/// The eight classes' ETS rows of an interface. A WRR class's share is its weight's
/// percentage of the WRR weights, rounded down, the lowest WRR class taking what rounding
/// leaves: the capture's 12/13 weights over six classes print 17 16 17 16 17 with 17 for
/// TC0 (`ansible-onyx__onyx_show_dcb_ets_interface__json.cfg`).
fn ets_rows(q: &Qos<'_>, i: Iface) -> Vec<EtsRow> {
    let ets: Vec<Ets> = TrafficClass::ALL.iter().map(|t| q.ets(i, *t)).collect();
    let weight = |e: &Ets| match e {
        Ets::Wrr(w) => u32::from(*w),
        Ets::Strict => 0,
    };
    let total: u32 = ets.iter().map(weight).sum();
    let share = |e: &Ets| (weight(e) * 100).checked_div(total).unwrap_or(0);
    let first = ets.iter().position(|e| matches!(e, Ets::Wrr(_)));
    let others: u32 = ets
        .iter()
        .enumerate()
        .filter(|(n, _)| Some(*n) != first)
        .map(|(_, e)| share(e))
        .sum();
    ets.iter()
        .enumerate()
        .map(|(n, e)| EtsRow {
            strict: matches!(e, Ets::Strict),
            weight: weight(e) as u8,
            percent: if Some(n) == first && total > 0 {
                100 - others
            } else {
                share(e)
            },
        })
        .collect()
}

/// `show dcb ets [interface KIND ID]`: per interface, the capture's three blocks
/// (`ansible-onyx__onyx_show_dcb_ets_interface__json.cfg`: the interface's settings, the
/// flags' legend, `ETS per TC`); without an interface, every interface alike, one object
/// each in the list (UNCONFIRMED, as is the text layout). Bandwidth shaping and guarantees
/// are not modeled: `N/A` and `0`, as the capture prints them unset.
pub fn ets(cx: &Cx<'_>, rest: &[&str]) -> Result<Shown, Reply> {
    let ifaces = match rest {
        [] => qos_interfaces(cx.sw),
        ["interface", kind, id] => named(cx.sw, kind, id)?,
        [first, ..] => return Err(Reply::unrecognized(first)),
    };
    let q = Qos::of(&cx.sw.running);
    let mut text = String::new();
    let mut list = Vec::new();
    for i in ifaces {
        let name = short_name(i);
        let rows = ets_rows(&q, i);
        let rule = "-".repeat(62);
        let _ = write!(
            text,
            "\n{name}:\n  Multicast unaware mapping: disabled\n  Interface Bandwidth Shape [Mbps]: N/A\n\nFlags:\n  S.Mode: Scheduling Mode [Strict/WRR]\n  W: Weight\n  Bw.Gr: Bandwidth Guaranteed\n  Bw.Sh: Bandwidth Shaper\n  D: -\n\nETS per TC:\n  {rule}\n  {:<6}{:<10}{:<6}{:<8}{:<16}BW Sh.(Mbps)\n  {rule}\n",
            "TC", "S.Mode", "W", "W(%)", "BW Gr.(Mbps)"
        );
        let mut per_tc = Obj::new();
        for (n, r) in rows.iter().enumerate() {
            let mode = if r.strict { "Strict" } else { "WRR" };
            let _ = writeln!(
                text,
                "  {n:<6}{mode:<10}{:<6}{:<8}{:<16}N/A",
                r.weight, r.percent, 0
            );
            // Columns inserted in the text's order: the capture's key order.
            per_tc = per_tc.row(
                &n.to_string(),
                Obj::new()
                    .s("S.Mode", mode)
                    .s("W", r.weight)
                    .s("W(%)", r.percent)
                    .s("BW Gr.(Mbps)", 0)
                    .s("BW Sh.(Mbps)", "N/A"),
            );
        }
        let flags = Obj::new()
            .s("S.Mode", "Scheduling Mode [Strict/WRR]")
            .s("W", "Weight")
            .s("Bw.Gr", "Bandwidth Guaranteed")
            .s("Bw.Sh", "Bandwidth Shaper")
            .s("D", "-");
        let blocks = vec![
            Obj::new()
                .s("Multicast unaware mapping", "disabled")
                .s("Interface Bandwidth Shape [Mbps]", "N/A")
                .build(),
            Obj::new()
                .v("Flags", Value::Array(vec![flags.build()]))
                .build(),
            Obj::new()
                .v("ETS per TC", Value::Array(vec![per_tc.build()]))
                .build(),
        ];
        list.push(Obj::new().v(&name, Value::Array(blocks)).build());
    }
    Ok(Shown {
        text,
        json: Some(Value::Array(list)),
    })
}

/// `show qos interface KIND ID`: trust and the maps Onyx uses by default
/// (`ansible-onyx__show_qos_interface_ethernet__json.cfg`): DSCP 8n-8n+7 and PCP n, with
/// DEI 0 or 1, to switch priority n, and switch priority n rewritten to PCP n, DSCP 8n,
/// traffic class n. The lab models no `qos map` or `qos rewrite`: the maps are the defaults,
/// rewriting off (`disabled`, the Ansible module's default). The text layout is UNCONFIRMED.
pub fn qos_interface(cx: &Cx<'_>, kind: &str, id: &str) -> Result<Shown, Reply> {
    let q = Qos::of(&cx.sw.running);
    let mut text = String::new();
    let mut list = Vec::new();
    for i in named(cx.sw, kind, id)? {
        let name = short_name(i);
        let trust = q.trust(i).word();
        let settings = [
            ("Trust mode", trust),
            ("Default switch-priority", "0"),
            ("Default PCP", "0"),
            ("Default DEI", "0"),
            ("PCP,DEI rewrite", "disabled"),
            ("IP PCP;DEI rewrite", "enable"),
            ("DSCP rewrite", "disabled"),
        ];
        let _ = writeln!(text, "\nInterface {name}:");
        let first = key_values(&mut text, Obj::new(), settings);
        let rule = format!("  {}\n", "-".repeat(60));
        let _ = write!(
            text,
            "\nPCP(DEI); DSCP to switch-priority mapping:\n{rule}  {:<14}{:<31}switch-priority\n{rule}",
            "PCP(DEI)", "DSCP"
        );
        let mut to_sp = Obj::new();
        for n in 0..8u8 {
            let dscp = word_list_u8(n * 8..n * 8 + 8);
            let pcp = format!("{n}(0) {n}(1)");
            let _ = writeln!(text, "  {pcp:<14}{dscp:<31}{n}");
            // DSCP before switch-priority: the capture's key order.
            to_sp = to_sp.row(&pcp, Obj::new().s("DSCP", &dscp).s("switch-priority", n));
        }
        let _ = write!(
            text,
            "\nPCP(DEI); DSCP rewrite mapping (switch-priority to PCP(DEI); DSCP; traffic-class):\n  Egress Interface: {name}\n{rule}  {:<18}{:<11}{:<7}TC\n{rule}",
            "switch-priority", "PCP(DEI)", "DSCP"
        );
        let mut rewrite = Obj::new();
        for n in 0..8u8 {
            let _ = writeln!(text, "  {n:<18}{:<11}{:<7}{n}", format!("{n}(0)"), n * 8);
            rewrite = rewrite.row(
                &n.to_string(),
                Obj::new()
                    .s("PCP(DEI)", format!("{n}(0)"))
                    .s("DSCP", n * 8)
                    .s("TC", n),
            );
        }
        let blocks = vec![
            first.build(),
            Obj::new()
                .v(
                    "PCP(DEI); DSCP to switch-priority mapping",
                    Value::Array(vec![to_sp.build()]),
                )
                .build(),
            Obj::new()
                .v(
                    "PCP(DEI); DSCP rewrite mapping (switch-priority to PCP(DEI); DSCP; traffic-class)",
                    Value::Array(vec![
                        Obj::new().s("Egress Interface", &name).build(),
                        rewrite.build(),
                    ]),
                )
                .build(),
        ];
        list.push(Obj::new().v(&name, Value::Array(blocks)).build());
    }
    Ok(Shown {
        text,
        json: Some(Value::Array(list)),
    })
}

fn word_list_u8(r: std::ops::Range<u8>) -> String {
    r.map(|n| n.to_string()).collect::<Vec<_>>().join(" ")
}

/// The thresholds of a class's ECN/RED as the capture prints them: `500 KB`, `9%`.
fn thresholds(e: &Ecn) -> (&'static str, String, String) {
    match e.thresholds {
        EcnThresholds::Absolute { min, max } => {
            ("absolute", format!("{min} KB"), format!("{max} KB"))
        }
        EcnThresholds::Relative { min, max } => ("relative", format!("{min}%"), format!("{max}%")),
    }
}

fn ecn_mode(m: EcnMode) -> &'static str {
    match m {
        EcnMode::Ecn => "ECN",
        EcnMode::Red => "RED",
        EcnMode::Both => Unconfirmed::EcnBoth.text(),
    }
}

/// `show interfaces KIND ID congestion-control`: per traffic class its marking mode and
/// thresholds (`ansible-onyx__onyx_show_interface_congestion_control__json.cfg`: a list, the
/// interface first, then `TC-0` … `TC-7`; the Ansible reader takes class N at `[N + 1]`).
/// `ECN marked packets` is what the port has counted ([`crate::lab::counters`]); `RED dropped
/// packets` 0. The text layout is UNCONFIRMED.
pub fn congestion_control(cx: &Cx<'_>, kind: &str, id: &str) -> Result<Shown, Reply> {
    let q = Qos::of(&cx.sw.running);
    let mut text = String::new();
    let mut list = Vec::new();
    for i in named(cx.sw, kind, id)? {
        let label = format!("Interface {}", i.kind());
        let id = match i {
            Iface::Ethernet(p) => p.to_string(),
            Iface::PortChannel(n) | Iface::MlagPortChannel(n) => n.to_string(),
            other => short_name(other),
        };
        let marked = match i {
            Iface::Ethernet(p) => cx.counters(p).marked_total(),
            _ => 0,
        };
        let _ = write!(text, "\n{label} {id}\n  ECN marked packets: {marked}\n");
        list.push(
            Obj::new()
                .s(&label, &id)
                .s("ECN marked packets", marked)
                .build(),
        );
        for t in TrafficClass::ALL {
            let header = format!("TC-{t}");
            let _ = writeln!(text, "\n{header}:");
            // Inserted in the text's order: the capture's key order.
            let obj = match q.ecn(i, t) {
                None => {
                    let _ = writeln!(text, "  Mode: none");
                    Obj::new().s("header", &header).s("Mode", "none")
                }
                Some(e) => {
                    let (mode, min, max) = thresholds(&e);
                    let fields = [
                        ("Mode", ecn_mode(e.mode).to_string()),
                        ("Threshold mode", mode.to_string()),
                        ("Minimum threshold", min),
                        ("Maximum threshold", max),
                        ("RED dropped packets", "0".to_string()),
                    ];
                    key_values(&mut text, Obj::new().s("header", &header), fields)
                }
            };
            list.push(obj.build());
        }
    }
    Ok(Shown {
        text,
        json: Some(Value::Array(list)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onyx::Pool;

    fn config(lines: &str) -> Config {
        let mut c = Config::empty();
        for l in lines.lines() {
            if let Ok(Some(cmd)) = command::parse(l.trim()) {
                c.apply(&cmd);
            }
        }
        c
    }

    #[test]
    fn priorities_wrap_as_the_capture_does() {
        assert_eq!(wrapped("0, 1, 2, 4, 5, 6, 7"), ["0, 1, 2, 4,", "5, 6, 7"]);
        assert_eq!(wrapped("3"), ["3"]);
    }

    #[test]
    fn roce_amounts_to_the_captured_settings_unless_a_port_says_otherwise() {
        let c = config("roce lossless\ninterface ethernet 1/2 qos trust both");
        let q = Qos::of(&c);
        let (p1, p2) = (
            Iface::Ethernet(Port::new(1, 1)),
            Iface::Ethernet(Port::new(1, 2)),
        );
        assert_eq!(q.trust(p1), Trust::L3);
        assert_eq!(q.trust(p2), Trust::Both);
        assert_eq!(q.ecn(p1, tc(3)), Some(ROCE_ECN));
        assert_eq!(q.ecn(p1, tc(0)), None);
        assert_eq!(q.ets(p1, tc(6)), Ets::Strict);
        assert_eq!(q.ets(p1, tc(0)), Ets::Wrr(12));
        assert_eq!(q.pfc(), (true, sp(3).into_iter().collect()));
        let names: Vec<String> = q.pools().into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["lossy-default", "roce-reserved"]);
        let lossy = config("roce lossy");
        assert_eq!(Qos::of(&lossy).pfc(), (false, BTreeSet::new()));
    }

    #[test]
    fn pools_share_the_buffer_and_lossy_default_keeps_the_rest() {
        let mut c = Config::empty();
        c.pools.insert(
            "roce".into(),
            Pool {
                kind: Some(PoolType::Lossless),
                memory: Percent::from_f64(50.0).ok(),
                priorities: sp(3).into_iter().collect(),
            },
        );
        let rows = Qos::of(&c).pools();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].name, "lossy-default");
        assert_eq!(priority_list(&rows[0].priorities), "0, 1, 2, 4, 5, 6, 7");
        // The capture's 50.00 % is 5.9M; the automatic pool has the other half.
        assert_eq!(memory_actual(&rows, &rows[1]), "5.9M");
        assert_eq!(memory_actual(&rows, &rows[0]), "5.9M");
    }
}
