//! `show roce` (3.8.2000+): what `roce` mode, or the configuration without it, amounts to
//! ([`super::Qos`]), in the capture's layout, and its JSON.

use crate::onyx::lab::cli::Errors as _;
use std::fmt::Write as _;

use serde_json::Value;

use super::super::json::Obj;
use super::super::{Cx, Shown};
use super::{
    CNP_SP, PoolRow, Qos, ROCE_ECN, ROCE_SP, ROCE_WRR, ethernet_ports, pool_json, pool_table,
    short_name, sp, tc,
};
use crate::onyx::Config;
use crate::onyx::command::Iface;
use crate::onyx::lab::cli::{Reply, Switch, Unconfirmed};
use crate::types::{EcnThresholds, Ets, Port, Release, RoceMode, Trust};

/// The value every item shares (`Some(None)` without items), `None` when they differ.
fn common<T: PartialEq>(values: impl Iterator<Item = T>) -> Option<Option<T>> {
    let mut out: Option<T> = None;
    for v in values {
        match &out {
            None => out = Some(v),
            Some(o) if *o == v => {}
            Some(_) => return None,
        }
    }
    Some(out)
}

/// `show roce` (3.8.2000+; before, `roce` is an unknown word): what `roce` mode, or the
/// configuration without it, amounts to, in the capture's layout
/// (`corpus/onyx/more/blog-id310222282__SN2700__show_roce_Onyx_3.10.4006.txt`). Trust and
/// congestion control are the Ethernet ports' (one value when they share it), ETS RoCE's
/// and CNP's classes'; the exception list names the ports whose own settings differ from
/// what `roce` sets. Without `roce` the mode, a setting the ports do not share and the
/// exception list are UNCONFIRMED ([`Unconfirmed::RoceOff`], [`Unconfirmed::RoceMixed`]);
/// so is the JSON, which follows `json-print`'s conventions (sections as objects, tables as
/// rows keyed by their first column).
pub fn roce(cx: &Cx<'_>) -> Result<Shown, Reply> {
    if cx.sw.release < Release::ROCE_COMMAND {
        return Err(Reply::unrecognized("roce"));
    }
    let shown = RoceShown::of(cx.sw);
    let pools = Qos::of(&cx.sw.running).pools();
    Ok(Shown {
        text: shown.text(&pools),
        json: Some(shown.json(&pools)),
    })
}

/// What `show roce` prints, each field as its text.
struct RoceShown {
    mode: &'static str,
    lldp: &'static str,
    trust: &'static str,
    /// The application TLV: its selector, protocol and priority.
    tlv: (&'static str, String, String),
    /// The ports' congestion control: its mode, minimum and maximum.
    congestion: (String, String, String),
    pfc: &'static str,
    /// PFC on RoCE's switch priority.
    roce_sp_pfc: &'static str,
    /// The used traffic classes: switch priority (and class), application, ETS.
    tcs: Vec<(u8, &'static str, String)>,
    exceptions: String,
}

/// `enabled` or `disabled`.
fn enabled(on: bool) -> &'static str {
    if on { "enabled" } else { "disabled" }
}

impl RoceShown {
    /// What `roce` mode, or the configuration without it, amounts to on `sw`.
    fn of(sw: &Switch) -> RoceShown {
        let c = &sw.running;
        let q = Qos::of(c);
        let ports = roce_ports(sw);
        let mode = c.roce.map_or(Unconfirmed::RoceOff.text(), RoceMode::word);
        let trust = match common(ports.iter().map(|i| q.trust(*i))) {
            Some(t) => t.unwrap_or(Trust::L2).word(),
            None => Unconfirmed::RoceMixed.text(),
        };
        let none = Unconfirmed::RoceNone.text();
        let tlv = match c.roce {
            Some(_) => ("udp", "4791".to_string(), ROCE_SP.to_string()),
            None => (none, none.to_string(), none.to_string()),
        };
        let (pfc_on, pfc_priorities) = q.pfc();
        let roce_sp_pfc = pfc_on && sp(ROCE_SP).is_some_and(|p| pfc_priorities.contains(&p));
        let used = [(ROCE_SP, "RoCE"), (CNP_SP, "CNP")];
        RoceShown {
            mode,
            lldp: enabled(c.lldp || c.roce.is_some()),
            trust,
            tlv,
            congestion: roce_congestion(&q, &ports),
            pfc: enabled(pfc_on),
            roce_sp_pfc: enabled(roce_sp_pfc),
            tcs: used
                .into_iter()
                .map(|(n, app)| (n, app, roce_ets(&q, &ports, n)))
                .collect(),
            exceptions: roce_exceptions(c, &ports),
        }
    }

    /// The text, in the capture's layout.
    fn text(&self, pools: &[PoolRow]) -> String {
        let RoceShown {
            mode,
            lldp,
            trust,
            tlv: (selector, protocol, priority),
            congestion: (cc_mode, cc_min, cc_max),
            pfc,
            roce_sp_pfc,
            tcs,
            exceptions,
        } = self;
        let mut text = format!(
            "RoCE mode      : {mode}\nLLDP           : {lldp}\nPort trust mode: {trust}\n\nApplication TLV:\n  Selector: {selector}\n  Protocol: {protocol}\n  Priority: {priority}\n\nPort congestion-control:\n  Mode    : {cc_mode}\n  Min (KB): {cc_min}\n  Max (KB): {cc_max}\n\nPFC              : {pfc}\nswitch-priority {ROCE_SP}: {roce_sp_pfc}\n\nRoCE used TCs:\n",
        );
        let rule = format!("  {}\n", "-".repeat(46));
        let _ = write!(
            text,
            "{rule}  {:<18}{:<7}{:<14}{:<7}\n{rule}",
            "Switch-Priority", "TC", "Application", "ETS"
        );
        for (n, app, ets) in tcs {
            let _ = writeln!(text, "  {n:<18}{n:<7}{app:<14}{ets:<7}");
        }
        let shown: Vec<&PoolRow> = pools.iter().collect();
        let _ = write!(
            text,
            "\nRoCE buffer pools:\n{}\nException list:\n{exceptions}\n",
            pool_table(pools, &shown)
        );
        text
    }

    /// The JSON: sections as objects, tables as rows keyed by their first column.
    fn json(&self, pools: &[PoolRow]) -> Value {
        let (selector, protocol, priority) = &self.tlv;
        let (cc_mode, cc_min, cc_max) = &self.congestion;
        let mut tcs = Obj::new();
        for (n, app, ets) in &self.tcs {
            tcs = tcs.row(
                &n.to_string(),
                Obj::new().s("TC", n).s("Application", app).s("ETS", ets),
            );
        }
        let mut pool_rows = Obj::new();
        for r in pools {
            pool_rows = pool_rows.row(&r.name, pool_json(pools, r));
        }
        Obj::new()
            .s("RoCE mode", self.mode)
            .s("LLDP", self.lldp)
            .s("Port trust mode", self.trust)
            .v(
                "Application TLV",
                Obj::new()
                    .s("Selector", selector)
                    .s("Protocol", protocol)
                    .s("Priority", priority)
                    .build(),
            )
            .v(
                "Port congestion-control",
                Obj::new()
                    .s("Mode", cc_mode)
                    .s("Min (KB)", cc_min)
                    .s("Max (KB)", cc_max)
                    .build(),
            )
            .s("PFC", self.pfc)
            .s(&format!("switch-priority {ROCE_SP}"), self.roce_sp_pfc)
            .v("RoCE used TCs", tcs.build())
            .v("RoCE buffer pools", pool_rows.build())
            .v(
                "Exception list",
                Obj::new().s("message", &self.exceptions).build(),
            )
            .build()
    }
}

/// The Ethernet ports `show roce` sums up; a switch that lists no port (no model, none
/// configured) shows what a port would have.
fn roce_ports(sw: &Switch) -> Vec<Iface> {
    let mut ports: Vec<Iface> = ethernet_ports(sw)
        .into_iter()
        .map(Iface::Ethernet)
        .collect();
    if ports.is_empty() {
        ports.push(Iface::Ethernet(Port::new(1, 1)));
    }
    ports
}

/// The ports' congestion control on RoCE's class (mode, minimum, maximum): one value when
/// they share it.
fn roce_congestion(q: &Qos<'_>, ports: &[Iface]) -> (String, String, String) {
    let none = Unconfirmed::RoceNone.text();
    let mixed = Unconfirmed::RoceMixed.text();
    match common(ports.iter().map(|i| q.ecn(*i, tc(ROCE_SP)))) {
        Some(Some(Some(e))) => {
            let (kind, min, max) = match e.thresholds {
                EcnThresholds::Absolute { min, max } => ("absolute", min, max),
                EcnThresholds::Relative { min, max } => {
                    ("relative", u32::from(min), u32::from(max))
                }
            };
            (
                format!("{}, {kind}", e.mode.word()),
                min.to_string(),
                max.to_string(),
            )
        }
        Some(_) => ("none".to_string(), none.to_string(), none.to_string()),
        None => (mixed.to_string(), mixed.to_string(), mixed.to_string()),
    }
}

/// The ports' ETS on traffic class `class`, when they share it.
fn roce_ets(q: &Qos<'_>, ports: &[Iface], class: u8) -> String {
    match common(ports.iter().map(|i| q.ets(*i, tc(class)))) {
        Some(Some(Ets::Strict)) => "Strict".to_string(),
        Some(Some(Ets::Wrr(w))) => format!("WRR {w}%"),
        Some(None) | None => Unconfirmed::RoceMixed.text().to_string(),
    }
}

/// The exception list under `roce`: the ports whose own settings differ from what `roce`
/// sets (`N/A` without any).
fn roce_exceptions(c: &Config, ports: &[Iface]) -> String {
    let exceptions: Vec<String> = match c.roce {
        None => Vec::new(),
        Some(_) => ports
            .iter()
            .filter(|i| {
                let own = c.interfaces.get(i);
                own.is_some_and(|x| {
                    x.trust.is_some_and(|t| t != Trust::L3)
                        || x.ecn.get(&tc(ROCE_SP)).is_some_and(|e| *e != ROCE_ECN)
                        || x.ets
                            .get(&tc(ROCE_SP))
                            .is_some_and(|e| *e != Ets::Wrr(ROCE_WRR))
                        || x.ets.get(&tc(CNP_SP)).is_some_and(|e| *e != Ets::Strict)
                })
            })
            .map(|i| short_name(*i))
            .collect(),
    };
    if exceptions.is_empty() {
        "N/A".to_string()
    } else {
        exceptions.join(", ")
    }
}
