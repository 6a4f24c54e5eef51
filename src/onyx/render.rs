//! Canonical text of a [`Config`]: what `show running-config` prints.
//!
//! Rust decides (which ports share a setting and so collapse into one range line, in which
//! order lines and sections come, where each verbatim line goes back); the minijinja
//! templates in `templates/onyx/` only format: one template per section that holds modeled
//! commands, and a master template that prints the header and every section in the switch's
//! order. Templates are embedded in the binary and can be replaced from a folder
//! (`--templates DIR`). Undefined variables are errors, never empty strings.

use std::collections::BTreeMap;
use std::path::Path;

use minijinja::{Environment, Value};
use serde::Serialize;

use super::command::Iface;
use super::{Config, Interface, SECTION_ORDER, sections};
use crate::types::compress;

/// The embedded templates, by file name. `running-config.j2` is the master.
pub const TEMPLATE_FILES: &[(&str, &str)] = &[
    (
        "running-config.j2",
        include_str!("../../templates/onyx/running-config.j2"),
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
    ("l3.j2", include_str!("../../templates/onyx/l3.j2")),
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
        "mlag-protocol.j2",
        include_str!("../../templates/onyx/mlag-protocol.j2"),
    ),
    ("lag.j2", include_str!("../../templates/onyx/lag.j2")),
    ("stp.j2", include_str!("../../templates/onyx/stp.j2")),
    ("bgp.j2", include_str!("../../templates/onyx/bgp.j2")),
    ("bfd.j2", include_str!("../../templates/onyx/bfd.j2")),
    ("mlag.j2", include_str!("../../templates/onyx/mlag.j2")),
];

const MASTER: &str = "running-config.j2";

/// The most a template file of `--templates` may have (the largest embedded one is a few KB).
const TEMPLATE_BYTES: u64 = 1 << 20;

/// The internal template that renders every section template in turn.
const BODIES: &str = "<section bodies>";
const BODY_END: &str = "\u{1e}end of section";

/// The template of each section that holds modeled commands.
const SECTION_TEMPLATES: &[(&str, &str)] = &[
    (sections::LICENSES, "licenses.j2"),
    (sections::BFD, "bfd.j2"),
    (sections::BUFFER, "buffer.j2"),
    (sections::ETHERNET, "ethernet.j2"),
    (sections::VLAN, "vlan.j2"),
    (sections::L3, "l3.j2"),
    (sections::DCBX_PFC, "dcbx-pfc.j2"),
    (sections::LLDP, "lldp.j2"),
    (sections::QOS_SWITCH, "qos-switch.j2"),
    (sections::DCBX_ETS, "dcbx-ets.j2"),
    (sections::OTHER_IP, "other-ip.j2"),
    (sections::MLAG_PROTOCOL, "mlag-protocol.j2"),
    (sections::LAG, "lag.j2"),
    (sections::STP, "stp.j2"),
    (sections::BGP, "bgp.j2"),
    (sections::MLAG, "mlag.j2"),
];

/// A loaded template set; build it once and render many configs with it.
pub struct Renderer {
    env: Environment<'static>,
}

impl Renderer {
    /// [`Renderer::embedded`], compiled once for the whole process
    /// ([`crate::types::templates::once`]).
    pub fn shared() -> Result<&'static Renderer, String> {
        static SHARED: std::sync::OnceLock<Result<Renderer, String>> = std::sync::OnceLock::new();
        crate::types::templates::once(&SHARED, Renderer::embedded)
    }

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
            slot.1 = crate::input::read_string(&entry.path(), TEMPLATE_BYTES)?;
        }
        Self::build(files)
    }

    fn build(files: Vec<(String, String)>) -> Result<Renderer, String> {
        let mut env = crate::types::templates::environment()?;
        for (name, source) in files {
            env.add_template_owned(name.clone(), source)
                .map_err(|e| format!("template `{name}`: {}", chain(&e)))?;
        }
        // All section templates in one render (one per switch instead of one per section),
        // each body ended by a line no template can print (template lines are indented).
        let all: String = SECTION_TEMPLATES
            .iter()
            .map(|(_, t)| format!("{{% include \"{t}\" %}}\n{BODY_END}\n"))
            .collect();
        env.add_template_owned(BODIES, all)
            .map_err(|e| format!("section templates: {}", chain(&e)))?;
        Ok(Renderer { env })
    }

    /// The running-config text of `config`.
    pub fn render(&self, config: &Config) -> Result<String, String> {
        let who = || {
            config
                .hostname
                .clone()
                .unwrap_or_else(|| match config.header.hostname.as_str() {
                    "" => "the switch".to_string(),
                    h => h.to_string(),
                })
        };
        let fail = |e: minijinja::Error| format!("rendering {}: {}", who(), chain(&e));
        let view = Value::from(minijinja::value::Serde(View::of(config)));
        // Each modeled section's lines, from its template.
        let text = self
            .env
            .get_template(BODIES)
            .and_then(|t| t.render(&view))
            .map_err(fail)?;
        let mut bodies: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let mut lines: Vec<&str> = Vec::new();
        let mut titles = SECTION_TEMPLATES.iter().map(|(title, _)| *title);
        for line in text.lines() {
            if line == BODY_END {
                let title = titles.next().unwrap_or_default();
                if !lines.is_empty() {
                    bodies.insert(title, std::mem::take(&mut lines));
                }
            } else if !line.trim().is_empty() {
                lines.push(line);
            }
        }
        let printed = arrange(config, &mut bodies);
        let header = &config.header;
        let ctx = minijinja::context! {
            saved => header.saved,
            database => &header.database,
            hostname => &header.hostname,
            release => header.release.map(|r| r.to_string()),
            sections => Value::from(minijinja::value::Serde(printed)),
        };
        self.env
            .get_template(MASTER)
            .and_then(|t| t.render(ctx))
            .map_err(fail)
    }
}

#[derive(Serialize)]
struct Printed {
    /// Empty for lines printed before any section.
    title: String,
    /// The section's lines, each ended by a newline.
    body: String,
}

/// The sections in print order, each with its modeled lines and its verbatim lines merged
/// back in place. A parsed config keeps its sections and their order (even empty ones, as the
/// switch printed them); a modeled section the layout lacks goes where `SECTION_ORDER` puts it.
fn arrange(config: &Config, bodies: &mut BTreeMap<&str, Vec<&str>>) -> Vec<Printed> {
    let rank = |t: &str| SECTION_ORDER.iter().position(|s| *s == t);
    let mut order: Vec<(&str, Option<usize>)> = config
        .layout
        .sections
        .iter()
        .enumerate()
        .map(|(i, s)| (s.title.as_str(), Some(i)))
        .collect();
    let mut missing: Vec<&str> = bodies
        .keys()
        .copied()
        .filter(|t| !order.iter().any(|(o, _)| o == t))
        .collect();
    missing.sort_by_key(|t| rank(t));
    for t in missing {
        let r = rank(t);
        // Lines printed before any section stay first: they have no header to end them.
        let lead = usize::from(order.first().is_some_and(|(o, _)| o.is_empty()));
        let at = order
            .iter()
            .rposition(|(o, _)| rank(o).is_some() && rank(o) < r)
            .map_or(lead, |i| i + 1)
            .max(lead);
        order.insert(at, (t, None));
    }
    let mut out = Vec::with_capacity(order.len());
    for (title, layout) in order {
        let modeled = bodies.remove(title).unwrap_or_default();
        let verbatim: &[(usize, String)] =
            layout.map_or(&[], |i| &config.layout.sections[i].verbatim);
        let mut body = String::new();
        let mut push = |line: &str| {
            body.push_str(line);
            body.push('\n');
        };
        let mut v = verbatim.iter().peekable();
        for (k, line) in modeled.into_iter().enumerate() {
            while let Some((_, text)) = v.next_if(|(at, _)| *at <= k) {
                push(text);
            }
            push(line);
        }
        v.for_each(|(_, text)| push(text));
        // Lines before any section that all went to their own sections leave nothing to print.
        if title.is_empty() && body.is_empty() {
            continue;
        }
        out.push(Printed {
            title: title.to_string(),
            body,
        });
    }
    out
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

/// Interfaces sharing one value: `interface {iface} … {value}`.
#[derive(Serialize)]
struct Run {
    iface: String,
    value: String,
}

/// The same, for a per-traffic-class setting.
#[derive(Serialize)]
struct TcRun {
    iface: String,
    tc: u8,
    value: String,
}

#[derive(Serialize)]
struct Named {
    name: String,
    value: String,
}

#[derive(Serialize)]
struct Group {
    iface: String,
    mlag: bool,
    id: u16,
    mode: String,
}

/// VLAN membership lines of one interface: `switchport access vlan N`, `… allowed-vlan
/// none|all`, or one line per VLAN of a trunk or hybrid port ([`added`]). One row per
/// interface and kind, not per line: a port with 200 tagged VLANs is one row with 200
/// numbers, so the template state stays small.
#[derive(Serialize)]
struct Member {
    iface: String,
    kind: &'static str,
    mode: String,
    vlans: Vec<u16>,
}

/// The lines of the VLANs a trunk or hybrid interface carries, one per VLAN. A hybrid port's
/// are `allowed-vlan add N`, as Onyx prints them (Cray's captures). A trunk's follow its
/// `allowed-vlan none`: the first bare (`allowed-vlan 123`, as the one trunk capture,
/// intel-mfd, prints it), every further one with `add`. Whether a bare list replaces the
/// port's list or adds to it is not confirmed on a switch (the manual's syntax reads as
/// replacing: [`UNCONFIRMED`](crate::onyx::UNCONFIRMED)); after `none` these lines
/// mean the same under both readings, so pasting a golden gives every VLAN.
fn added(i: &Iface, a: &super::Allowed) -> Vec<Member> {
    let mut vlans = a.vlans.iter().map(|v| v.get());
    let row = |kind, vlans: Vec<u16>| Member {
        iface: i.to_string(),
        kind,
        mode: a.mode.to_string(),
        vlans,
    };
    let first = match a.mode {
        crate::types::SwitchportMode::Hybrid => None,
        _ => vlans.next().map(|v| row("allowed", vec![v])),
    };
    let rest: Vec<u16> = vlans.collect();
    first
        .into_iter()
        .chain((!rest.is_empty()).then(|| row("add", rest)))
        .collect()
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
    create: Vec<String>,
    split: Vec<Run>,
    speed: Vec<Run>,
    mtu: Vec<Run>,
    routed: Vec<String>,
    channel_group: Vec<Group>,
    switchport_mode: Vec<Run>,
    description: Vec<Run>,
    shutdown: Vec<Run>,
}

#[derive(Serialize)]
struct VlanView {
    ids: Vec<String>,
    names: Vec<Named>,
    members: Vec<Member>,
}

#[derive(Serialize)]
struct PfcView {
    enabled: bool,
    priorities: Vec<u8>,
    ifaces: Vec<String>,
}

#[derive(Serialize)]
struct QosView {
    trust: Vec<Run>,
    ecn: Vec<TcRun>,
}

#[derive(Serialize)]
struct L3View {
    routing: bool,
    create: Vec<String>,
    /// VLAN interfaces' MTUs (`interface vlan 10 mtu 9216`, no `force`).
    mtu: Vec<Run>,
    addresses: Vec<Run>,
    load_sharing: Vec<String>,
}

/// A neighbor's lines: its remote AS, timers (`KEEPALIVE HOLD`) and BFD.
#[derive(Serialize)]
struct Neighbor {
    address: String,
    remote_as: Option<u32>,
    timers: Option<String>,
    bfd: bool,
}

#[derive(Serialize)]
struct BgpInstance {
    asn: u32,
    router_id: Option<String>,
    fast_external_fallover: bool,
    maximum_paths: Option<u16>,
    multipath_relax: bool,
    neighbors: Vec<Neighbor>,
    networks: Vec<String>,
}

/// `protocol bfd` and the default VRF's BFD timers.
#[derive(Serialize)]
struct BfdView {
    protocol: bool,
    transmit_rate: Option<u32>,
    min_rx: Option<u32>,
    multiplier: Option<u8>,
}

#[derive(Serialize)]
struct BgpView {
    protocol: bool,
    instance: Option<BgpInstance>,
}

#[derive(Serialize)]
struct MlagView {
    protocol: bool,
    enabled: bool,
    vip: Option<String>,
    system_mac: Option<String>,
    ipl: Vec<Run>,
    ipl_peer: Vec<Run>,
}

#[derive(Serialize)]
struct LagView {
    lacp: bool,
    /// Port-channels with `lacp-individual enable force`.
    individual: Vec<String>,
}

/// The STP section: `no spanning-tree`, then each per-interface attribute over every
/// interface that sets it (Cray's CSM spines print every `port type` line, then every
/// `guard` line; where `bpduguard` goes is UNCONFIRMED, after them).
#[derive(Serialize)]
struct StpView {
    enabled: bool,
    port_type: Vec<Run>,
    guard: Vec<Run>,
    bpduguard: Vec<Run>,
}

#[derive(Serialize)]
struct View<'a> {
    licenses: &'a [String],
    buffer: Buffer,
    ethernet: EthernetView,
    lag: LagView,
    vlan: VlanView,
    stp: StpView,
    l3: L3View,
    dcbx_pfc: PfcView,
    lldp: bool,
    qos_switch: QosView,
    dcbx_ets: Vec<TcRun>,
    bgp: BgpView,
    bfd: BfdView,
    mlag: MlagView,
    hostname: Option<&'a str>,
}

/// `ethernet 1/1-1/9`, `mlag-port-channel 1-9`.
fn range(a: Iface, b: Iface) -> String {
    super::command::IfaceRange { first: a, last: b }.to_string()
}

/// One attribute over every interface that sets it, as range lines; values are compared as
/// typed values and formatted once per line, not once per interface.
fn runs<'c, T: PartialEq + 'c>(
    c: &'c Config,
    get: impl Fn(Iface, &'c Interface) -> Option<&'c T>,
    show: impl Fn(&T) -> String,
) -> Vec<Run> {
    let values: Vec<(Iface, &T)> = c
        .interfaces
        .iter()
        .filter_map(|(i, e)| Some((*i, get(*i, e)?)))
        .collect();
    compress(values)
        .into_iter()
        .map(|(a, b, v)| Run {
            iface: range(a, b),
            value: show(v),
        })
        .collect()
}

/// The same without collapsing: Onyx prints some settings one interface per line.
fn each<'c, T: 'c>(
    c: &'c Config,
    get: impl Fn(&'c Interface) -> Option<&'c T>,
    show: impl Fn(&T) -> String,
) -> Vec<Run> {
    c.interfaces
        .iter()
        .filter_map(|(i, e)| {
            Some(Run {
                iface: i.to_string(),
                value: show(get(e)?),
            })
        })
        .collect()
}

/// A per-traffic-class attribute: ordered by class, then by interface.
fn tc_runs<'c, T: Copy + PartialEq + std::fmt::Display + 'c>(
    c: &'c Config,
    get: impl Fn(&'c Interface) -> &'c crate::types::TcMap<T>,
) -> Vec<TcRun> {
    let mut by_tc: BTreeMap<u8, Vec<(Iface, &T)>> = BTreeMap::new();
    for (i, e) in &c.interfaces {
        for (tc, v) in get(e) {
            by_tc.entry(tc.get()).or_default().push((*i, v));
        }
    }
    let mut out = Vec::new();
    for (tc, values) in by_tc {
        out.extend(compress(values).into_iter().map(|(a, b, v)| TcRun {
            iface: range(a, b),
            tc,
            value: v.to_string(),
        }));
    }
    out
}

fn text(v: &dyn std::fmt::Display) -> String {
    v.to_string()
}

impl<'a> View<'a> {
    /// Everything the templates print of `c`, section by section.
    fn of(c: &'a Config) -> View<'a> {
        View {
            licenses: &c.licenses,
            buffer: buffer(c),
            ethernet: ethernet(c),
            lag: LagView {
                lacp: c.lacp,
                individual: runs(
                    c,
                    |_, e| e.lacp_individual.then_some(&true),
                    |_| String::new(),
                )
                .into_iter()
                .map(|r| r.iface)
                .collect(),
            },
            vlan: vlan(c),
            stp: stp(c),
            l3: l3(c),
            dcbx_pfc: PfcView {
                enabled: c.pfc.enabled,
                priorities: c.pfc.priorities.iter().map(|p| p.get()).collect(),
                ifaces: runs(c, |_, e| e.pfc.then_some(&true), |_| String::new())
                    .into_iter()
                    .map(|r| r.iface)
                    .collect(),
            },
            lldp: c.lldp,
            qos_switch: QosView {
                trust: runs(c, |_, e| e.trust.as_ref(), |v| text(v)),
                ecn: tc_runs(c, |e| &e.ecn),
            },
            dcbx_ets: tc_runs(c, |e| &e.ets),
            bgp: bgp(c),
            bfd: BfdView {
                protocol: c.protocols.contains(&super::Protocol::Bfd),
                transmit_rate: c.bfd.transmit_rate,
                min_rx: c.bfd.min_rx,
                multiplier: c.bfd.multiplier,
            },
            mlag: mlag(c),
            hostname: c.hostname.as_deref(),
        }
    }
}

/// A text argument as `c` prints it (quoted where it must be, or as the config quoted it).
fn quote(c: &Config, s: &str) -> String {
    crate::types::cli_text::print(s, c.quoted)
}

/// The buffer section: RoCE's mode, and each pool's type, memory and priorities.
fn buffer(c: &Config) -> Buffer {
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
    Buffer {
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
    }
}

/// The creation lines of the interfaces `want` picks that the config creates, as ranges.
fn created(c: &Config, want: fn(Iface) -> bool) -> Vec<String> {
    let t = true;
    compress(
        c.interfaces
            .iter()
            .filter(|(i, e)| e.created && want(**i))
            .map(|(i, _)| (*i, &t)),
    )
    .into_iter()
    .map(|(a, b, _)| range(a, b))
    .collect()
}

/// The Ethernet section: port-channels created, then each interface attribute as range lines.
fn ethernet(c: &Config) -> EthernetView {
    // Creation lines: MLAG port-channels before port-channels (Onyx 3.6 and 3.9 captures).
    let mut create = created(c, |i| matches!(i, Iface::MlagPortChannel(_)));
    create.extend(created(c, |i| matches!(i, Iface::PortChannel(_))));
    EthernetView {
        create,
        split: runs(c, |_, e| e.split.as_ref(), |v| text(v)),
        speed: runs(
            c,
            |_, e| e.speed.as_ref(),
            |s| {
                format!(
                    "{}{}",
                    s.speed,
                    if s.no_autoneg { " no-autoneg" } else { "" }
                )
            },
        ),
        mtu: runs(
            c,
            |i, e| e.mtu.as_ref().filter(|_| !matches!(i, Iface::Vlan(_))),
            |v| text(v),
        ),
        routed: runs(c, |_, e| e.routed.then_some(&true), |_| String::new())
            .into_iter()
            .map(|r| r.iface)
            .collect(),
        channel_group: compress(
            c.interfaces
                .iter()
                .filter_map(|(i, e)| Some((*i, e.channel_group.as_ref()?))),
        )
        .into_iter()
        .map(|(a, b, g)| Group {
            iface: range(a, b),
            mlag: g.mlag,
            id: g.id,
            mode: g.mode.to_string(),
        })
        .collect(),
        switchport_mode: each(c, |e| e.switchport_mode.as_ref(), |v| text(v)),
        description: runs(c, |_, e| e.description.as_ref(), |d| quote(c, d)),
        shutdown: runs(
            c,
            |_, e| e.shutdown.as_ref(),
            |down| {
                if *down {
                    "shutdown".into()
                } else {
                    "no shutdown".into()
                }
            },
        ),
    }
}

/// The VLAN section: the VLANs, their names, and each interface's membership.
fn vlan(c: &Config) -> VlanView {
    VlanView {
        ids: vlan_ranges(c.vlans.keys()),
        names: c
            .vlans
            .iter()
            .filter_map(|(id, v)| {
                Some(Named {
                    name: id.to_string(),
                    value: quote(c, v.name.as_ref()?),
                })
            })
            .collect(),
        members: members(c),
    }
}

/// VLAN membership: first each interface's base (access VLAN, or `allowed-vlan none`),
/// then each VLAN added to a trunk or hybrid interface, one line each.
fn members(c: &Config) -> Vec<Member> {
    let mut members = Vec::new();
    for (i, e) in &c.interfaces {
        // The base, where it is not the mode's own: a trunk without every VLAN, a
        // hybrid port with every VLAN.
        if let Some(a) = &e.allowed {
            let base = match (a.mode, a.all) {
                (crate::types::SwitchportMode::Trunk, false) => Some("none"),
                (crate::types::SwitchportMode::Hybrid, true)
                | (crate::types::SwitchportMode::Access, true) => Some("all"),
                _ => None,
            };
            if let Some(kind) = base {
                members.push(Member {
                    iface: i.to_string(),
                    kind,
                    mode: a.mode.to_string(),
                    vlans: Vec::new(),
                });
            }
        }
        if let Some(v) = e.access_vlan {
            members.push(Member {
                iface: i.to_string(),
                kind: "access",
                mode: String::new(),
                vlans: vec![v.get()],
            });
        }
    }
    for (i, e) in &c.interfaces {
        if let Some(a) = &e.allowed {
            members.extend(added(i, a));
        }
    }
    members
}

/// The STP section: `no spanning-tree` and the per-interface attributes.
fn stp(c: &Config) -> StpView {
    StpView {
        enabled: c.spanning_tree,
        port_type: runs(c, |_, e| e.stp_type.as_ref(), |v| text(v)),
        guard: runs(c, |_, e| e.stp_guard.as_ref(), |v| text(v)),
        bpduguard: runs(
            c,
            |_, e| e.bpduguard.as_ref(),
            |on| if *on { "enable" } else { "disable" }.to_string(),
        ),
    }
}

/// The L3 section: routing, VLAN interfaces and loopbacks created, their MTUs, addresses and
/// ECMP hashing.
fn l3(c: &Config) -> L3View {
    let mut create = created(c, |i| matches!(i, Iface::Vlan(_)));
    create.extend(created(c, |i| matches!(i, Iface::Loopback(_))));
    L3View {
        routing: c.ip_routing,
        create,
        // One line per VLAN interface, as its address.
        mtu: c
            .interfaces
            .iter()
            .filter(|(i, _)| matches!(i, Iface::Vlan(_)))
            .filter_map(|(i, e)| {
                Some(Run {
                    iface: i.to_string(),
                    value: e.mtu?.to_string(),
                })
            })
            .collect(),
        addresses: each(c, |e| e.address.as_ref(), |a| a.to_string()),
        load_sharing: c.load_sharing.iter().map(|l| l.to_string()).collect(),
    }
}

/// The BGP section: `protocol bgp` and the default VRF's instance with its neighbors and
/// networks.
fn bgp(c: &Config) -> BgpView {
    BgpView {
        protocol: c.protocols.contains(&super::Protocol::Bgp),
        instance: c.bgp.as_ref().map(|b| BgpInstance {
            asn: b.asn,
            router_id: b.router_id.map(|a| a.to_string()),
            fast_external_fallover: b.fast_external_fallover,
            maximum_paths: b.maximum_paths,
            multipath_relax: b.multipath_relax,
            neighbors: b
                .named()
                .into_iter()
                .map(|a| Neighbor {
                    address: a.to_string(),
                    remote_as: b.neighbors.get(&a).copied(),
                    timers: b.timers.get(&a).map(|(k, h)| format!("{k} {h}")),
                    bfd: b.bfd.contains(&a),
                })
                .collect(),
            networks: b
                .networks
                .iter()
                .map(|n| format!("{} /{}", n.addr, n.len))
                .collect(),
        }),
    }
}

/// The MLAG section: the protocol, its state, VIP and system MAC, the peer link.
fn mlag(c: &Config) -> MlagView {
    MlagView {
        protocol: c.protocols.contains(&super::Protocol::Mlag),
        enabled: c.mlag.enabled,
        vip: c
            .mlag
            .vip
            .as_ref()
            .map(|(name, net)| format!("{name} ip {} /{}", net.addr, net.len)),
        system_mac: c.mlag.system_mac.map(|m| m.to_string()),
        ipl: each(c, |e| e.ipl.as_ref(), |n| n.to_string()),
        ipl_peer: each(
            c,
            |e| e.ipl_peer.as_ref(),
            |(n, a)| format!("{n} peer-address {a}"),
        ),
    }
}

/// `vlan 10-17`: consecutive VLAN ids collapse into one line.
fn vlan_ranges<'a>(ids: impl Iterator<Item = &'a crate::types::Vlan>) -> Vec<String> {
    crate::types::vlan_runs(ids.copied())
        .into_iter()
        .map(crate::types::format_vlan_run)
        .collect()
}
