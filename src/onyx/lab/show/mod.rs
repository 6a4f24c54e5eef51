//! The lab's `show` commands: one function per command, grouped by family in the files
//! below, each printing what Onyx prints (text, and JSON for `| json-print` where the lab
//! has it), from the switch's state and, for what both ends of a cable decide, from the
//! network around it. [`run`] is the one table of commands. Nothing here changes a switch.
//!
//! | file | commands |
//! |---|---|
//! | `config` | `show running-config [interface KIND ID]`, `show configuration files`, `show users` |
//! | `system` | `show version`, `show hosts`, `show inventory`, `show module`, `show protocols`, `show ntp configured` |
//! | `management` | `show snmp`, `show usernames`, `show ptp clock`, `show ip routing` |
//! | `interfaces` | `show interfaces`, `show interfaces ethernet [X] [status\|counters]`, `show interfaces status`, `show interfaces vlan`, `show ip interface brief` |
//! | `l2` | `show interfaces switchport`, `show vlan`, `show mac-address-table` |
//! | `lldp` | `show lldp local\|remote\|interfaces` |
//! | `routing` | `show ip bgp summary`, `show ip arp`, `show magp`, `show mlag`, `show mlag-vip`, `show interfaces [mlag-]port-channel summary` |
//! | `qos` | `show traffic pool [NAME]`, `show buffers pools`, `show dcb priority-flow-control`, `show dcb ets [interface KIND ID]`, `show qos interface KIND ID`, `show interfaces KIND ID congestion-control`, `show roce` |

use super::cli::{Reply, Switch, Unconfirmed};
use crate::lab::network::{Net, Network, World};
use crate::onyx::Protocol;
use crate::onyx::lab::cli::Errors as _;
use crate::types::Release;

mod config;
mod counters;
mod interfaces;
mod json;
mod l2;
mod lldp;
mod management;
mod qos;
mod routing;
mod system;

pub(crate) use config::running_config;

/// The CLI level a command is typed at: some commands need `enable`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    User,
    Enable,
}

/// What a `show` command reads.
pub struct Cx<'a> {
    pub sw: &'a Switch,
    /// The network around the switch, when it is cabled into one.
    pub world: Option<&'a World>,
    /// The asking session's number (`show users` marks it).
    pub session: u64,
    pub level: Level,
}

impl Cx<'_> {
    /// Runs `f` over the network the switch is cabled into, or over the switch alone.
    fn net<R>(&self, f: impl FnOnce(&Net<'_>, &Network, &str) -> R) -> R {
        let alone;
        let world = match self.world {
            Some(w) => w,
            None => {
                alone = World::alone(self.sw.hostname(), self.sw.node());
                &alone
            }
        };
        f(&world.net(), &world.network, &world.me)
    }

    /// What port `p` has counted now ([`crate::lab::counters`]).
    fn counters(&self, p: crate::types::Port) -> crate::lab::counters::PortCounters {
        self.net(|net, network, _| network.counters(net, crate::onyx::target::OS, &[p]))
            .pop()
            .unwrap_or_default()
    }

    fn protocol(&self, p: Protocol) -> bool {
        self.sw.running.protocols.contains(&p)
    }
}

/// What a command prints: text, and the JSON `| json-print` asks for when the lab has it.
pub struct Shown {
    pub text: String,
    pub json: Option<serde_json::Value>,
}

impl Shown {
    fn text(text: String) -> Shown {
        Shown { text, json: None }
    }
}

/// Whether `WORDS…` (a whole line, `show` first) prints a configuration, whose JSON is its
/// lines ([`lines_json`]).
pub fn prints_lines(words: &[&str]) -> bool {
    matches!(
        words,
        ["show", "running-config", ..] | ["show", "configuration", "files", _]
    )
}

/// A configuration's text (its filters applied) as `| json-print` prints it: `{"Lines":
/// [...]}`, its non-empty lines as printed (`…/show/ansible-onyx__onyx_show_bfd__show_running-config_include_bfd_json.cfg`,
/// `ansible-core__onyx_show_bgp_peer_groups__running-config_lines_json.cfg`: three-space
/// indent kept). For a saved file, and when no line is left, UNCONFIRMED.
pub fn lines_json(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    json_text(&serde_json::json!({ "Lines": lines }))
}

/// Whether `show WORDS…` may read the network around the switch (link state, neighbors,
/// sessions), so the other switches are read before it runs: every command of the table
/// below but those of the switch alone (its configuration, sessions and system).
pub fn reads_network(words: &[&str]) -> bool {
    !matches!(
        words.first(),
        Some(
            &("running-config"
                | "configuration"
                | "users"
                | "version"
                | "hosts"
                | "inventory"
                | "module"
                | "protocols"
                | "snmp"
                | "usernames"
                | "ptp")
        )
    )
}

/// `show WORDS…` (the words after `show`, keywords written out), as text or JSON.
pub fn run(cx: &Cx<'_>, words: &[&str], json: bool) -> Reply {
    let shown = match shown(cx, words) {
        Ok(shown) => shown,
        Err(reply) => return reply,
    };
    match (json, shown.json) {
        (false, _) => Reply::text(shown.text),
        (true, Some(v)) => Reply::text(json_text(&v)),
        (true, None) => Unconfirmed::NoJson.reply(&words.join(" ")),
    }
}

/// What one family of `show` commands prints for `WORDS…`: `None` when the words are none
/// of its commands, `Err` the switch's refusal.
type Family = fn(&Cx<'_>, &[&str]) -> Result<Option<Shown>, Reply>;

/// What `show WORDS…` prints, asked of each family in turn, or the switch's refusal.
fn shown(cx: &Cx<'_>, words: &[&str]) -> Result<Shown, Reply> {
    // QoS before the interfaces: its `interfaces KIND ID congestion-control` is asked before
    // the general `interfaces ethernet …`, which would take it.
    let families: [Family; 4] = [switch_alone, qos_shown, interfaces_shown, network_shown];
    for family in families {
        if let Some(shown) = family(cx, words)? {
            return Ok(shown);
        }
    }
    Err(Reply::unrecognized(words.first().unwrap_or(&"show")))
}

/// The commands of the switch alone: its configuration, sessions and system.
fn switch_alone(cx: &Cx<'_>, words: &[&str]) -> Result<Option<Shown>, Reply> {
    Ok(Some(match (words, cx.level) {
        (["version"], _) => system::version(cx),
        (["running-config" | "configuration", ..], Level::User) => {
            return Err(Reply::unrecognized(words[0]));
        }
        (["running-config"], _) => Shown::text(running_config(cx.sw)),
        (["running-config", "interface", kind, id], _) => {
            match config::interface(cx.sw, kind, id) {
                Some(text) => Shown::text(text),
                None => return Err(Reply::unrecognized(id)),
            }
        }
        (["configuration", "files"], _) => Shown::text(config::files(cx.sw)),
        (["running-config", "protocol", "bgp"], _) => Shown::text(config::protocol_bgp(cx.sw)),
        (["configuration", "files", name], _) => match config::file(cx.sw, name) {
            Some(text) => Shown::text(text),
            None => return Err(Reply::unrecognized(name)),
        },
        (["hosts"], _) => system::hosts(cx),
        (["ntp", "configured"], _) => system::ntp_configured(cx),
        (["snmp"], _) => management::snmp(cx),
        (["usernames"], _) => management::usernames(cx),
        (["ptp", "clock"], _) => management::ptp_clock(cx)?,
        (["ip", "routing"], _) => management::ip_routing(cx),
        (["inventory"], _) => system::inventory(cx),
        (["module"], _) => system::module(cx),
        (["protocols"], _) => system::protocols(cx),
        (["users"], _) => Shown::text(config::users(cx.sw, cx.session)),
        _ => return Ok(None),
    }))
}

/// The QoS and buffer commands.
fn qos_shown(cx: &Cx<'_>, words: &[&str]) -> Result<Option<Shown>, Reply> {
    Ok(Some(match words {
        ["interfaces", kind, id, "congestion-control"] => qos::congestion_control(cx, kind, id)?,
        ["traffic", "pool", rest @ ..] => qos::traffic_pool(cx, rest)?,
        ["buffers", "pools"] => qos::buffers_pools(cx),
        ["dcb", "priority-flow-control"] => qos::pfc(cx),
        ["dcb", "ets", rest @ ..] => qos::ets(cx, rest)?,
        ["qos", "interface", kind, id] => qos::qos_interface(cx, kind, id)?,
        ["roce"] => qos::roce(cx)?,
        _ => return Ok(None),
    }))
}

/// The interfaces, L2 and LLDP commands.
fn interfaces_shown(cx: &Cx<'_>, words: &[&str]) -> Result<Option<Shown>, Reply> {
    Ok(Some(match words {
        // `show interfaces`: the Ethernet ports (`…/show/napalm-onyx__show_interface.txt`,
        // napalm-onyx's get_interfaces).
        ["interfaces"] => interfaces::ethernet(cx, None)?,
        ["interfaces", "ethernet", rest @ ..] => interfaces::ethernet_words(cx, rest)?,
        ["interfaces", "status"] => interfaces::status(cx),
        ["interfaces", "vlan"] => interfaces::vlan_interfaces(cx),
        ["interfaces", "switchport"] => l2::switchport(cx),
        ["ip", "interface", "brief"] => interfaces::ip_brief(cx),
        ["vlan"] => l2::vlan(cx),
        ["mac-address-table"] => l2::mac_address_table(cx),
        ["lldp", "local"] => lldp::local(cx),
        ["lldp", "remote"] => lldp::remote(cx),
        ["lldp", "interfaces"] | ["lldp", "interfaces", "ethernet"] => lldp::interfaces(cx),
        _ => return Ok(None),
    }))
}

/// The routing and MLAG commands, BGP's and MLAG's hidden until their protocol is on.
fn network_shown(cx: &Cx<'_>, words: &[&str]) -> Result<Option<Shown>, Reply> {
    Ok(Some(match words {
        ["ip", "arp"] => routing::ip_arp(cx),
        ["magp"] => routing::magp(cx),
        // Hidden until `protocol bgp` (Onyx manual, BGP Commands: `protocol bgp` "unhides BGP
        // related commands"), and MLAG's likewise.
        ["ip", "bgp", ..] if !cx.protocol(Protocol::Bgp) => {
            return Err(Reply::unrecognized("bgp"));
        }
        ["ip", "bgp", "summary"] | ["ip", "bgp", "vrf", "default" | "all", "summary"] => {
            routing::bgp_summary(cx)
        }
        ["ip", "route", rest @ ..] => routing::ip_route(cx, rest)?,
        ["mlag", ..] if !cx.protocol(Protocol::Mlag) => return Err(Reply::unrecognized("mlag")),
        ["mlag"] => routing::mlag(cx),
        ["mlag-vip"] if !cx.protocol(Protocol::Mlag) => {
            return Err(Reply::unrecognized("mlag-vip"));
        }
        ["mlag-vip"] => routing::mlag_vip(cx),
        ["interfaces", "port-channel", "summary"] => routing::port_channels(cx),
        ["interfaces", "mlag-port-channel", "summary"] if !cx.protocol(Protocol::Mlag) => {
            return Err(Reply::unrecognized("mlag-port-channel"));
        }
        ["interfaces", "mlag-port-channel", "summary"] => routing::mlag_port_channels(cx),
        _ => return Ok(None),
    }))
}

/// The release from which `json-print` prints Onyx's JSON API shapes: a named object's value
/// is a list of objects (`{"Eth1/1": [{…}]}`), `show interfaces ethernet` a list of them, `show
/// dcb priority-flow-control` and the port-channel summaries lists of their blocks. No capture
/// of these shapes exists; they are what the Ansible collection reads from this release on
/// (`BaseOnyxModule.ONYX_API_VERSION = "3.6.6000"`, its readers of `show vlan`, `show
/// interfaces ethernet|switchport`, `show dcb priority-flow-control`, `show interfaces
/// mlag-port-channel summary`). Earlier releases print the captured shapes.
pub(crate) const JSON_API: Release = Release(3, 6, 6000);

/// Rows keyed by name, as the switch's release prints them: from [`JSON_API`] each row's
/// object in a one-element list.
pub(crate) fn api_rows(
    release: Release,
    rows: serde_json::Map<String, serde_json::Value>,
) -> serde_json::Value {
    if release < JSON_API {
        return serde_json::Value::Object(rows);
    }
    serde_json::Value::Object(
        rows.into_iter()
            .map(|(k, v)| (k, serde_json::Value::Array(vec![v])))
            .collect(),
    )
}

/// Days, hours, minutes and seconds of a time span, as the `show` commands print ages.
pub(crate) fn dhms(d: std::time::Duration) -> (u64, u64, u64, u64) {
    let s = d.as_secs();
    (s / 86_400, s / 3_600 % 24, s / 60 % 60, s % 60)
}

/// JSON as Onyx's `json-print` prints it: indented by four spaces.
pub fn json_text(v: &serde_json::Value) -> String {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    let _ = serde::Serialize::serialize(v, &mut ser);
    let mut text = String::from_utf8(out).unwrap_or_default();
    text.push('\n');
    text
}
