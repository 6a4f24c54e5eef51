//! Canonical text of a [`Config`]: what `show running-config` prints.
//!
//! Rust decides (which sections exist, which ports share a setting and so collapse into one
//! range line, in which order); the minijinja templates in `templates/onyx/` only format: one
//! master template including one template per section, in the switch's order. Templates are
//! embedded in the binary and can be replaced from a folder (`--templates DIR`). Undefined
//! variables are errors, never empty strings.

use std::path::Path;

use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

use super::{Config, Section};
use crate::types::{Port, compress, format_range};

/// The embedded templates, by file name. `running-config.j2` is the master.
pub const TEMPLATE_FILES: &[(&str, &str)] = &[
    (
        "running-config.j2",
        include_str!("../../templates/onyx/running-config.j2"),
    ),
    ("header.j2", include_str!("../../templates/onyx/header.j2")),
    (
        "prefix-temporary.j2",
        include_str!("../../templates/onyx/prefix-temporary.j2"),
    ),
    (
        "licenses.j2",
        include_str!("../../templates/onyx/licenses.j2"),
    ),
    ("buffer.j2", include_str!("../../templates/onyx/buffer.j2")),
    (
        "ethernet.j2",
        include_str!("../../templates/onyx/ethernet.j2"),
    ),
    ("vlan.j2", include_str!("../../templates/onyx/vlan.j2")),
    (
        "dcbx-pfc.j2",
        include_str!("../../templates/onyx/dcbx-pfc.j2"),
    ),
    ("lldp.j2", include_str!("../../templates/onyx/lldp.j2")),
    (
        "qos-switch.j2",
        include_str!("../../templates/onyx/qos-switch.j2"),
    ),
    (
        "dcbx-ets.j2",
        include_str!("../../templates/onyx/dcbx-ets.j2"),
    ),
    (
        "other-ip.j2",
        include_str!("../../templates/onyx/other-ip.j2"),
    ),
    (
        "verbatim.j2",
        include_str!("../../templates/onyx/verbatim.j2"),
    ),
    (
        "prefix-persistent.j2",
        include_str!("../../templates/onyx/prefix-persistent.j2"),
    ),
];

const MASTER: &str = "running-config.j2";

/// A loaded template set; build it once and render many configs with it.
pub struct Renderer {
    env: Environment<'static>,
}

impl Renderer {
    /// The templates embedded in the binary.
    pub fn embedded() -> Result<Renderer, String> {
        Self::build(
            TEMPLATE_FILES
                .iter()
                .map(|(n, s)| (n.to_string(), s.to_string()))
                .collect(),
        )
    }

    /// The embedded templates, each replaced by the file of the same name in `dir` if there
    /// is one; a `.j2` file in `dir` with another name is refused, so a typo cannot go
    /// unnoticed. Other files (a README) are ignored.
    pub fn from_dir(dir: &Path) -> Result<Renderer, String> {
        let mut files: Vec<(String, String)> = TEMPLATE_FILES
            .iter()
            .map(|(n, s)| (n.to_string(), s.to_string()))
            .collect();
        let entries = std::fs::read_dir(dir)
            .map_err(|e| format!("cannot read template folder `{}`: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".j2") {
                continue;
            }
            let Some(slot) = files.iter_mut().find(|(n, _)| *n == name) else {
                return Err(format!(
                    "`{}` is not one of the Onyx templates ({})",
                    entry.path().display(),
                    TEMPLATE_FILES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            };
            slot.1 = std::fs::read_to_string(entry.path())
                .map_err(|e| format!("cannot read `{}`: {e}", entry.path().display()))?;
        }
        Self::build(files)
    }

    fn build(files: Vec<(String, String)>) -> Result<Renderer, String> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        let syntax = minijinja::syntax::SyntaxConfig::builder()
            .trim_blocks(true)
            .lstrip_blocks(true)
            .keep_trailing_newline(true)
            .build()
            .map_err(|e| format!("template syntax: {e}"))?;
        env.set_syntax(syntax);
        env.add_filter("cmd", cmd_line);
        for (name, source) in files {
            env.add_template_owned(name.clone(), source)
                .map_err(|e| format!("template `{name}`: {}", chain(&e)))?;
        }
        Ok(Renderer { env })
    }

    /// The running-config text of `config`.
    pub fn render(&self, config: &Config) -> Result<String, String> {
        let view = View::of(config);
        self.env
            .get_template(MASTER)
            .and_then(|t| t.render(minijinja::value::Serde(&view)))
            .map_err(|e| {
                format!(
                    "rendering {}: {}",
                    config.hostname.as_deref().unwrap_or("switch"),
                    chain(&e)
                )
            })
    }
}

/// A template error with its causes (an include's error is the cause of the outer one).
fn chain(e: &minijinja::Error) -> String {
    let mut msg = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        msg.push_str(": ");
        msg.push_str(&c.to_string());
        cause = c.source();
    }
    msg
}

/// How Onyx prints a command line inside a section: three spaces of indent, except that a
/// `no …` command takes the place of the indent and comments start at column 0.
fn cmd_line(line: &str) -> String {
    if line.starts_with("no ") || line.starts_with('#') {
        line.to_string()
    } else {
        format!("   {line}")
    }
}

/// A range of ports sharing one value: `interface ethernet {ports} … {value}`.
#[derive(Serialize)]
struct Run {
    ports: String,
    value: String,
}

/// The same, for a per-traffic-class setting.
#[derive(Serialize)]
struct TcRun {
    ports: String,
    tc: u8,
    value: String,
}

#[derive(Serialize)]
struct Named {
    name: String,
    value: String,
}

#[derive(Serialize)]
struct Buffer {
    roce: Option<String>,
    types: Vec<Named>,
    memory: Vec<Named>,
    maps: Vec<Named>,
}

#[derive(Serialize)]
struct EthernetView {
    split: Vec<Run>,
    speed: Vec<Run>,
    mtu: Vec<Run>,
    switchport_mode: Vec<Run>,
    description: Vec<Run>,
    shutdown: Vec<Run>,
}

#[derive(Serialize)]
struct VlanView {
    ids: Vec<String>,
    names: Vec<Named>,
    access: Vec<Run>,
}

#[derive(Serialize)]
struct PfcView {
    enabled: bool,
    priorities: Vec<u8>,
    ports: Vec<String>,
}

#[derive(Serialize)]
struct QosView {
    trust: Vec<Run>,
    ecn: Vec<TcRun>,
}

#[derive(Serialize)]
struct View<'a> {
    database: &'a str,
    hostname: &'a str,
    release: Option<String>,
    licenses: &'a [String],
    buffer: Option<Buffer>,
    ethernet: Option<EthernetView>,
    vlan: Option<VlanView>,
    dcbx_pfc: Option<PfcView>,
    lldp: bool,
    qos_switch: Option<QosView>,
    dcbx_ets: Option<Vec<TcRun>>,
    other_ip: Option<&'a str>,
    aaa_remote: &'a [String],
    network_management: &'a [String],
    x509: &'a [String],
}

fn non_empty<T>(v: Vec<T>) -> Option<Vec<T>> {
    (!v.is_empty()).then_some(v)
}

impl<'a> View<'a> {
    fn of(c: &'a Config) -> View<'a> {
        let quote = |s: &str| {
            if c.quotes_strings() {
                format!("\"{s}\"")
            } else {
                s.to_string()
            }
        };
        // One attribute over every port that sets it, as Onyx range lines. Values are compared
        // as typed values and formatted once per line, not once per port.
        fn runs<'c, T: PartialEq + 'c>(
            c: &'c Config,
            get: impl Fn(&'c super::Ethernet) -> Option<&'c T>,
            show: impl Fn(&T) -> String,
        ) -> Vec<Run> {
            let values: Vec<(Port, &T)> = c
                .ethernet
                .iter()
                .filter_map(|(p, e)| Some((*p, get(e)?)))
                .collect();
            compress(values)
                .into_iter()
                .map(|(a, b, v)| Run {
                    ports: format_range(a, b),
                    value: show(v),
                })
                .collect()
        }
        // A per-traffic-class attribute: ordered by class, then by port.
        fn tc_runs<'c, T: PartialEq + std::fmt::Display + 'c>(
            c: &'c Config,
            get: impl Fn(
                &'c super::Ethernet,
            ) -> &'c std::collections::BTreeMap<crate::types::TrafficClass, T>,
        ) -> Vec<TcRun> {
            let mut by_tc: std::collections::BTreeMap<u8, Vec<(Port, &T)>> = Default::default();
            for (p, e) in &c.ethernet {
                for (tc, v) in get(e) {
                    by_tc.entry(tc.get()).or_default().push((*p, v));
                }
            }
            let mut out = Vec::new();
            for (tc, values) in by_tc {
                out.extend(compress(values).into_iter().map(|(a, b, v)| TcRun {
                    ports: format_range(a, b),
                    tc,
                    value: v.to_string(),
                }));
            }
            out
        }
        let text = |v: &dyn std::fmt::Display| v.to_string();
        let flag = |_: &bool| String::new();

        let named = |f: &dyn Fn(&super::Pool) -> Option<String>| -> Vec<Named> {
            c.pools
                .iter()
                .filter_map(|(n, p)| {
                    Some(Named {
                        name: n.clone(),
                        value: f(p)?,
                    })
                })
                .collect()
        };
        let buffer = (c.roce.is_some() || !c.pools.is_empty()).then(|| Buffer {
            roce: c.roce.map(|m| match m {
                // Bare `roce` is lossless, the default mode (RoCE Commands).
                crate::types::RoceMode::Lossless => String::new(),
                m => format!(" {m}"),
            }),
            types: named(&|p| p.kind.map(|k| k.to_string())),
            memory: named(&|p| p.memory.map(|m| m.to_string())),
            maps: named(&|p| {
                (!p.priorities.is_empty()).then(|| {
                    p.priorities
                        .iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
            }),
        });

        let ethernet = EthernetView {
            split: runs(c, |e| e.split.as_ref(), |v| text(v)),
            speed: runs(c, |e| e.speed.as_ref(), |v| text(v)),
            mtu: runs(c, |e| e.mtu.as_ref(), |v| text(v)),
            switchport_mode: runs(c, |e| e.switchport_mode.as_ref(), |v| text(v)),
            description: runs(c, |e| e.description.as_ref(), |v| quote(v)),
            shutdown: runs(c, |e| e.shutdown.then_some(&true), flag),
        };
        let ethernet_empty = [
            &ethernet.split,
            &ethernet.speed,
            &ethernet.mtu,
            &ethernet.switchport_mode,
            &ethernet.description,
            &ethernet.shutdown,
        ]
        .iter()
        .all(|v| v.is_empty());

        // VLAN membership is printed one port per line, unlike other port settings.
        let access: Vec<Run> = c
            .ethernet
            .iter()
            .filter_map(|(p, e)| {
                Some(Run {
                    ports: p.to_string(),
                    value: e.access_vlan?.to_string(),
                })
            })
            .collect();
        let vlan_ids: Vec<(crate::types::Vlan, ())> = c.vlans.keys().map(|v| (*v, ())).collect();
        let vlan = (!c.vlans.is_empty() || !access.is_empty()).then(|| VlanView {
            ids: vlan_ranges(vlan_ids.iter().map(|(v, _)| *v)),
            names: c
                .vlans
                .iter()
                .filter_map(|(id, v)| {
                    Some(Named {
                        name: id.to_string(),
                        value: quote(v.name.as_deref()?),
                    })
                })
                .collect(),
            access,
        });

        let pfc_ports: Vec<String> = runs(c, |e| e.pfc.then_some(&true), flag)
            .into_iter()
            .map(|r| r.ports)
            .collect();
        let dcbx_pfc = (c.pfc.enabled || !c.pfc.priorities.is_empty() || !pfc_ports.is_empty())
            .then(|| PfcView {
                enabled: c.pfc.enabled,
                priorities: c.pfc.priorities.iter().map(|p| p.get()).collect(),
                ports: pfc_ports,
            });

        let qos = QosView {
            trust: runs(c, |e| e.trust.as_ref(), |v| text(v)),
            ecn: tc_runs(c, |e| &e.ecn),
        };
        let qos_switch = (!qos.trust.is_empty() || !qos.ecn.is_empty()).then_some(qos);
        let dcbx_ets = non_empty(tc_runs(c, |e| &e.ets));

        let verbatim = |s: Section| c.verbatim.get(&s).map_or(&[][..], |v| v.as_slice());
        View {
            database: &c.database,
            hostname: c.hostname.as_deref().unwrap_or(""),
            release: c
                .release
                .filter(|r| *r >= crate::types::Release::HEADER_RELEASE)
                .map(|r| r.to_string()),
            licenses: &c.licenses,
            buffer,
            ethernet: (!ethernet_empty).then_some(ethernet),
            vlan,
            dcbx_pfc,
            lldp: c.lldp,
            qos_switch,
            dcbx_ets,
            other_ip: c.hostname.as_deref(),
            aaa_remote: verbatim(Section::AaaRemote),
            network_management: verbatim(Section::NetworkManagement),
            x509: verbatim(Section::X509),
        }
    }
}

/// `vlan 10-17`: consecutive VLAN ids collapse into one line.
fn vlan_ranges(ids: impl Iterator<Item = crate::types::Vlan>) -> Vec<String> {
    let mut out: Vec<(u16, u16)> = Vec::new();
    for id in ids.map(|v| v.get()) {
        match out.last_mut() {
            Some(last) if last.1 + 1 == id => last.1 = id,
            _ => out.push((id, id)),
        }
    }
    out.into_iter()
        .map(|(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect()
}
