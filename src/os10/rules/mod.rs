//! OS10's answers to the validation of a fabric file ([`crate::targets::Rules`]): its model
//! table, its release (`os10: 10.5.3.2`), its port names and breakouts (`ports`), its port
//! groups (`port_groups`), the keys it has no meaning for (`keys`), what its strings may
//! hold, its defaults.

mod keys;
mod port_groups;
mod ports;

use crate::fabric::raw::{RawFabric, RawQos, RawSwitch};
use crate::fabric::strings::{Alphabet, Field, Rule};
use crate::fabric::validate::os::{Cx, Diagnostic, Sp, Span};
use crate::fabric::validate::{Groups, SplitAsk};
use crate::fabric::{Hardware, Qos, Switch};
use crate::targets::{ModelCheck, Refused, Rules};
use crate::types::Port;

use super::models::{MODELS, Model};
use super::target::model_of;

/// OS10's rules.
pub struct Os10Rules;

pub static RULES: Os10Rules = Os10Rules;

/// Characters OS10 text refuses beyond `cli_text`'s.
const OS10_TEXT: &[(char, &str)] = &[
    (
        '!',
        "OS10 prints `!` between a configuration's blocks, and its CLI may take it for the start of a comment (UNCONFIRMED: no capture has one inside text)",
    ),
    (
        '#',
        "OS10's CLI may take `#` for the start of a comment (UNCONFIRMED: no capture has one inside text)",
    ),
];

/// OS10: which strings it prints and what each may hold. It prints no MLAG domain name (a
/// VLT domain is a number), pool name, license key or certificate ID.
pub const STRINGS: &[Rule] = &[
    Rule {
        field: Field::Hostname,
        alphabet: Alphabet::Label,
        max: 63,
        source: "RFC 1123 label, the rule Onyx's name takes so one name fits both",
    },
    Rule {
        field: Field::Description,
        alphabet: Alphabet::Text(OS10_TEXT),
        max: 64,
        source: "UNCONFIRMED: printed quoted when it holds a space (`description \"Unused Port\"`, AzureStack TOR 10.5.3.2), bare otherwise; the length Onyx's, so one description fits both",
    },
    Rule {
        field: Field::VlanName,
        alphabet: Alphabet::Text(OS10_TEXT),
        max: 32,
        source: "UNCONFIRMED: printed as the VLAN interface's description; the length Onyx's",
    },
];

impl Rules for Os10Rules {
    fn model(&self, name: &str) -> Option<Hardware> {
        MODELS
            .iter()
            .find(|m| m.name.eq_ignore_ascii_case(name.trim()))
            .map(|m| Hardware::new(m))
    }

    fn unknown_model(&self, cx: &mut Cx, model: &Sp<String>) -> Option<Hardware> {
        cx.push(
            Diagnostic::error(
                "E021",
                format!("unknown OS10 switch model `{}`", model.get().escape_debug()),
            )
            .at(cx.span(model), "not recognised")
            .help(format!("OS10 models: {}", self.models())),
        );
        None
    }

    fn models(&self) -> String {
        let names: Vec<&str> = MODELS.iter().map(|m| m.name).collect();
        names.join(", ")
    }

    /// Its own `os10`, else the fabric's.
    fn release_text(&self, cx: &mut Cx, sw: &RawSwitch, fabric: Option<&String>) -> Option<String> {
        match &sw.os10 {
            Some(v) => keys::release(cx, v),
            None => fabric.cloned(),
        }
    }

    fn fabric_release_text(&self, cx: &mut Cx, raw: &RawFabric) -> Option<String> {
        raw.os10.as_ref().and_then(|v| keys::release(cx, v))
    }

    fn typed_release(&self) -> bool {
        false
    }

    fn check_model(&self, cx: &mut Cx, c: ModelCheck<'_>) {
        if let Some(m) = model_of(c.model) {
            limits(cx, c.name, m, c.release_text, c.raw_qos, c.qos);
        }
    }

    fn foreign_keys(
        &self,
        cx: &Cx,
        raw: &RawFabric,
        name: &str,
        sw: &RawSwitch,
        found: &mut Vec<Refused>,
    ) {
        keys::onyx_keys(cx, sw, found);
        keys::vlt_vip(cx, raw, name, sw, found);
        keys::os10_qos(cx, raw, sw, found);
        if let Some(v) = sw.stp.as_ref().or(raw.stp.as_ref())
            && v.get().eq_ignore_ascii_case("off")
        {
            found.push((
                "stp: off",
                cx.span(v),
                "not yet compiled for OS10 (`spanning-tree disable`); OS10 runs RPVST+ by default, which `stp: on` keeps",
            ));
        }
        keys::stp_foreign(cx, raw, sw, found);
        keys::os10_ecn(cx, raw, sw, found);
    }

    fn trust_both(&self) -> Option<&'static str> {
        Some(
            "Onyx's trust of DSCP, else PCP; an OS10 trust map trusts one of them (`trust: L3` or `L2`)",
        )
    }

    fn names_ports(&self, text: &str) -> bool {
        ports::names_ports(text)
    }

    fn ports(&self, cx: &mut Cx, text: &str, at: Span) -> Option<Vec<Port>> {
        ports::ports(cx, text, at)
    }

    fn split(&self, cx: &mut Cx, s: SplitAsk<'_>) {
        if let Some(m) = model_of(s.p.switch.model) {
            ports::breakouts(cx, &mut s.p.switch, m, s.key, s.ways, s.split);
        }
    }

    /// Whether `port` is `ethernet1/1/N:1` of an OS10 port N in a port group some mode of
    /// which names its ports so without a split (the S5248F-ON's SFP28 ports in `10g-4x`, the
    /// TOR capture).
    fn group_subport(&self, sw: &Switch, port: Port) -> bool {
        let Some(m) = model_of(sw.model) else {
            return false;
        };
        port.sub == Some(1)
            && port.slot == 1
            && !sw.splits.contains_key(&port.parent())
            && m.port_group_of(port.port).is_some_and(|g| g.renames())
    }

    fn settle_groups(&self, cx: &mut Cx, g: Groups<'_>) {
        port_groups::settle(cx, g.pending, g.link_pairs, g.profiles, g.defaults);
    }

    /// OS10 10.5.1 user guide (`bfd interval`: 50-1000 ms, multiplier 3-50).
    fn bfd_limits(&self) -> (u32, u32) {
        (1000, 1000)
    }

    /// OS10 has no traffic pools: its PFC classes are sized by the switch.
    fn pool_memory(&self) -> bool {
        false
    }

    fn strings(&self) -> &'static [Rule] {
        STRINGS
    }

    /// [`super::DEFAULT_MTU`]: 1532 by the Dell OS10 user guide, UNCONFIRMED by a capture.
    fn default_mtu(&self) -> u16 {
        super::DEFAULT_MTU
    }
}

/// E034: an OS10 switch whose release or model cannot run the recipe's QoS (PFC, ETS, ECN),
/// at the line that asks for it (the preset, else its first lossless pool), naming the switch
/// and why: OS10 before 10.3 (`os10::ROCE_QOS_SINCE`), or a model of `os10::models::NO_ROCE_QOS`.
fn limits(cx: &mut Cx, name: &str, model: &Model, release: Option<&str>, q: &RawQos, qos: &Qos) {
    let preset = q.preset.as_ref().and_then(Option::as_ref);
    let pool = q
        .pools
        .iter()
        .flat_map(|p| p.0.iter())
        .find(|(_, p)| p.kind.get().eq_ignore_ascii_case("lossless"));
    let at = match (preset, pool) {
        (Some(p), _) => cx.span(p),
        (None, Some((n, _))) if qos.pfc.as_ref().is_some_and(|p| p.enabled) => cx.span(n),
        _ => return,
    };
    let what = if preset.is_some() {
        "the RoCE recipe (`preset`)"
    } else {
        "a lossless pool"
    };
    let why = match (
        release.filter(|r| !super::has_roce_qos(r)),
        model.no_roce_qos(),
    ) {
        (Some(r), _) => {
            let (major, minor) = super::ROCE_QOS_SINCE;
            format!(
                "OS10 {r}: ETS and PFC policies are in OS10 {major}.{minor} and later (Dell OS10 user guide)"
            )
        }
        (None, Some(why)) => format!("an {}: {why}", model.name),
        (None, None) => return,
    };
    cx.push(
        Diagnostic::error(
            "E034",
            format!("{what} needs PFC, ETS and ECN, which OS10 switch `{name}` does not run: it is {why}"),
        )
        .at(at, format!("not on `{name}`"))
        .help(format!("leave the recipe out on `{name}`: `qos: {{ preset: null }}` under it (or any `qos` of its own); or upgrade it")),
    );
}

#[cfg(test)]
mod tests {
    use crate::fabric::strings::{Field, check};

    #[test]
    fn os10_prints_no_domain_name() {
        // OS10 prints no domain name: nothing to check there.
        assert!(check(&[super::super::target::OS], Field::MlagDomain, "x y").is_ok());
    }

    #[test]
    fn os10_text_refuses_comment_marks() {
        let onyx = crate::onyx::target::OS;
        let d = "rack 4 (uplink #2)";
        assert!(check(&[onyx], Field::Description, d).is_ok());
        let e = check(&[onyx, super::super::target::OS], Field::Description, d).unwrap_err();
        assert!(e.message.contains("OS10's CLI"), "{}", e.message);
    }
}
