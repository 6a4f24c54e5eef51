//! Onyx's answers to the validation of a fabric file ([`crate::targets::Rules`]): its model
//! table, its typed release, its port names (`1/5`, `1/1-1/8`, `1/5/2`), its splits, the
//! keys it has no meaning for, what its strings may hold, its defaults.

use std::collections::BTreeMap;

use crate::fabric::Hardware;
use crate::fabric::raw::{RawFabric, RawSwitch};
use crate::fabric::strings::{Alphabet, Field, Rule};
use crate::fabric::validate::SplitAsk;
use crate::fabric::validate::os::{Cx, Diagnostic, Sp, Span, model_release, refuse_splits};
use crate::targets::{ModelCheck, Refused, Rules};
use crate::types::{Model, Port, parse_port_range};

/// Onyx's rules.
pub struct OnyxRules;

pub static RULES: OnyxRules = OnyxRules;

/// Onyx: which strings it prints and what each may hold.
pub const STRINGS: &[Rule] = &[
    Rule {
        field: Field::Hostname,
        alphabet: Alphabet::Label,
        max: 63,
        source: "RFC 1123 label; the captures' prompts and `## Hostname:` lines",
    },
    Rule {
        field: Field::Description,
        alphabet: Alphabet::Text(&[]),
        max: 64,
        source: "UNCONFIRMED length: the manual says \"a string\"; printed quoted from 3.9 (`description \"sw-spine02-1/10\"`, CSM capture), bare before (`cli_text`)",
    },
    Rule {
        field: Field::VlanName,
        alphabet: Alphabet::Text(&[]),
        max: 32,
        source: "UNCONFIRMED length; printed quoted from 3.9 (`vlan 4000 name \"MLAG\"`, CSM spine capture)",
    },
    Rule {
        field: Field::MlagDomain,
        alphabet: Alphabet::Word("-_"),
        max: 32,
        source: "UNCONFIRMED alphabet and length: printed bare as one word (`mlag-vip neo-mlag-vip-4094 ip …`, Ansible's `onyx_mlag_vip` `ansible_test_group`, prompts `[rocket-mlag-domain: master]`, `[MLNX01: standby]`, `[my-vip: master]`); none has another character",
    },
    Rule {
        field: Field::PoolName,
        alphabet: Alphabet::Word("-_"),
        max: 20,
        source: "`traffic pool <name>`: a string of up to 20 characters (`onyx-cli.md` §a.2, NVIDIA's switch buffer guide); letters, digits, `-`, `_` UNCONFIRMED beyond the captures' names (`check_pool_name`)",
    },
    Rule {
        field: Field::LicenseKey,
        alphabet: Alphabet::Word("-_"),
        max: 256,
        source: "UNCONFIRMED: the captures' keys are letters, digits and `-`",
    },
    Rule {
        field: Field::CertificateId,
        alphabet: Alphabet::Hex,
        max: 40,
        source: "`# Certificate name system-self-signed, ID …` in every 3.9 capture: 40 hexadecimal digits",
    },
];

impl Rules for OnyxRules {
    fn model(&self, name: &str) -> Option<Hardware> {
        Model::find(name).ok().map(|m| Hardware::new(m))
    }

    fn unknown_model(&self, cx: &mut Cx, model: &Sp<String>) -> Option<Hardware> {
        cx.word(model, Model::find).map(|m| Hardware::new(m))
    }

    fn models(&self) -> String {
        let names: Vec<&str> = Model::all().iter().map(|m| m.name).collect();
        names.join(", ")
    }

    fn release_text(&self, _: &mut Cx, _: &RawSwitch, _: Option<&String>) -> Option<String> {
        None
    }

    fn fabric_release_text(&self, _: &mut Cx, _: &RawFabric) -> Option<String> {
        None
    }

    fn typed_release(&self) -> bool {
        true
    }

    fn check_model(&self, cx: &mut Cx, c: ModelCheck<'_>) {
        if let Some(m) = super::target::model_of(c.model) {
            model_release(cx, m, c.model_at, c.release);
        }
    }

    /// An Onyx switch's keys only another OS has: OS10's release and VLT backup destination.
    fn foreign_keys(
        &self,
        cx: &Cx,
        _raw: &RawFabric,
        _name: &str,
        sw: &RawSwitch,
        found: &mut Vec<Refused>,
    ) {
        if let Some(v) = &sw.os10 {
            found.push((
                "os10",
                cx.span(v),
                "the OS10 release; an Onyx switch's is `onyx`",
            ));
        }
        if let Some(v) = &sw.cumulus {
            found.push((
                "cumulus",
                cx.span(v),
                "the Cumulus Linux release; an Onyx switch's is `onyx`",
            ));
        }
        if let Some(v) = sw.mlag.as_ref().and_then(|h| h.peer_mgmt.as_ref()) {
            found.push((
                "mlag peer_mgmt",
                cx.span(v),
                "OS10's VLT `backup destination`; an Onyx MLAG half has none",
            ));
        }
    }

    fn trust_both(&self) -> Option<&'static str> {
        None
    }

    fn names_ports(&self, text: &str) -> bool {
        parse_port_range(text).is_ok()
    }

    /// `1/5`, `1/1-1/8`, `1/5/2`; a name another OS's naming claims is E072.
    fn ports(&self, cx: &mut Cx, t: &str, at: Span) -> Option<Vec<Port>> {
        let other = crate::fabric::Os::all()
            .filter(|o| *o != super::target::OS)
            .find(|o| o.target().rules().names_ports(t));
        if let Some(other) = other {
            cx.push(
                Diagnostic::error(
                    "E072",
                    format!(
                        "`{}` is an {other} port name, and this switch runs Onyx",
                        t.escape_debug()
                    ),
                )
                .at(at, format!("{other} port name"))
                .help("Onyx names ports `1/5`, ranges `1/1-1/8`, subports `1/5/2`"),
            );
            return None;
        }
        match parse_port_range(t) {
            Ok(p) => Some(p),
            Err(msg) => {
                cx.error("E025", msg, at, "not a port or range");
                None
            }
        }
    }

    /// `module-type` splits of the model's ports (E042 where a port cannot split so); a
    /// 4-way split takes its neighbour's lanes.
    fn split(&self, cx: &mut Cx, s: SplitAsk<'_>) {
        let at = cx.span(s.key);
        let Some(model) = super::target::model_of(s.p.switch.model) else {
            return;
        };
        let Ok(ports) = parse_port_range(s.key.get()) else {
            return;
        };
        let mut subports = Vec::new();
        let mut refused: BTreeMap<String, Vec<Port>> = BTreeMap::new();
        for port in ports {
            if port.sub.is_some() {
                subports.push(port);
            } else if model.has_port(port) {
                match model.check_split(port, s.split) {
                    Ok(taken) => {
                        s.p.switch.splits.insert(port, s.split);
                        s.split_at.insert(port, at);
                        if let Some(t) = taken {
                            s.p.disabled.insert(t, at);
                        }
                    }
                    Err(why) => refused.entry(why).or_default().push(port),
                }
            }
        }
        let ways_at = cx.span(s.ways);
        refuse_splits(
            cx,
            &s.p.switch,
            model.name,
            s.split,
            &subports,
            refused,
            at,
            ways_at,
        );
    }

    /// From the `onyx_bfd` Ansible module's checks (transmit rate 50-60000 ms, receive
    /// 50-6000 ms, multiplier 3-50), UNCONFIRMED by the manual.
    fn bfd_limits(&self) -> (u32, u32) {
        (60000, 6000)
    }

    fn pool_memory(&self) -> bool {
        true
    }

    fn strings(&self) -> &'static [Rule] {
        STRINGS
    }

    /// 1500: Onyx's factory default (Ethernet Interface Commands).
    fn not_configuration(&self, line: &str) -> Option<String> {
        super::extra::not_configuration(line)
    }

    fn extra_line(&self, line: &str) -> Option<String> {
        super::extra::line(line)
    }

    fn default_mtu(&self) -> u16 {
        1500
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::strings::{check, describe, rule};

    #[test]
    fn a_domain_is_one_word() {
        let onyx = [super::super::target::OS];
        assert!(check(&onyx, Field::MlagDomain, "vsphere-mlag").is_ok());
        assert!(check(&onyx, Field::MlagDomain, "ansible_test_group").is_ok());
        for bad in ["x; no lldp", "no shutdown", "a#b", "a!b", "", "a\nb", "é"] {
            assert!(check(&onyx, Field::MlagDomain, bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_domain_rule_is_described() {
        assert_eq!(
            describe(rule(super::super::target::OS, Field::MlagDomain).unwrap()),
            "one word of 1-32 ASCII letters, digits, `-` and `_`"
        );
    }
}
