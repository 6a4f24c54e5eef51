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
use super::network::{Net, Network, World};
use crate::onyx::Protocol;
use crate::types::Release;

mod config;
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
    let shown = match (words, cx.level) {
        (["version"], _) => system::version(cx),
        (["running-config" | "configuration", ..], Level::User) => {
            return Reply::unrecognized(words[0]);
        }
        (["running-config"], _) => Shown::text(running_config(cx.sw)),
        (["running-config", "interface", kind, id], _) => {
            match config::interface(cx.sw, kind, id) {
                Some(text) => Shown::text(text),
                None => return Reply::unrecognized(id),
            }
        }
        (["configuration", "files"], _) => Shown::text(config::files(cx.sw)),
        (["running-config", "protocol", "bgp"], _) => Shown::text(config::protocol_bgp(cx.sw)),
        (["configuration", "files", name], _) => match config::file(cx.sw, name) {
            Some(text) => Shown::text(text),
            None => return Reply::unrecognized(name),
        },
        (["hosts"], _) => system::hosts(cx),
        (["ntp", "configured"], _) => system::ntp_configured(cx),
        (["snmp"], _) => management::snmp(cx),
        (["usernames"], _) => management::usernames(cx),
        (["ptp", "clock"], _) => match management::ptp_clock(cx) {
            Ok(s) => s,
            Err(r) => return r,
        },
        (["ip", "routing"], _) => management::ip_routing(cx),
        (["ip", "arp"], _) => routing::ip_arp(cx),
        // `show interfaces`: the Ethernet ports (`…/show/napalm-onyx__show_interface.txt`,
        // napalm-onyx's get_interfaces).
        (["interfaces"], _) => match interfaces::ethernet(cx, None) {
            Ok(s) => s,
            Err(r) => return r,
        },
        (["inventory"], _) => system::inventory(cx),
        (["module"], _) => system::module(cx),
        (["protocols"], _) => system::protocols(cx),
        // Before the general `interfaces ethernet …` arm, which would take it.
        (["interfaces", kind, id, "congestion-control"], _) => {
            match qos::congestion_control(cx, kind, id) {
                Ok(s) => s,
                Err(r) => return r,
            }
        }
        (["interfaces", "ethernet", rest @ ..], _) => match interfaces::ethernet_words(cx, rest) {
            Ok(shown) => shown,
            Err(reply) => return reply,
        },
        (["interfaces", "status"], _) => interfaces::status(cx),
        (["interfaces", "vlan"], _) => interfaces::vlan_interfaces(cx),
        (["magp"], _) => routing::magp(cx),
        (["interfaces", "switchport"], _) => l2::switchport(cx),
        (["ip", "interface", "brief"], _) => interfaces::ip_brief(cx),
        (["vlan"], _) => l2::vlan(cx),
        (["mac-address-table"], _) => l2::mac_address_table(cx),
        (["lldp", "local"], _) => lldp::local(cx),
        (["lldp", "remote"], _) => lldp::remote(cx),
        (["lldp", "interfaces"] | ["lldp", "interfaces", "ethernet"], _) => lldp::interfaces(cx),
        (["users"], _) => Shown::text(config::users(cx.sw, cx.session)),
        // Hidden until `protocol bgp` (Onyx manual, BGP Commands: `protocol bgp` "unhides BGP
        // related commands"), and MLAG's likewise.
        (["ip", "bgp", ..], _) if !cx.protocol(Protocol::Bgp) => {
            return Reply::unrecognized("bgp");
        }
        (["ip", "bgp", "summary"] | ["ip", "bgp", "vrf", "default" | "all", "summary"], _) => {
            routing::bgp_summary(cx)
        }
        (["ip", "route", rest @ ..], _) => match routing::ip_route(cx, rest) {
            Ok(s) => s,
            Err(r) => return r,
        },
        (["mlag", ..], _) if !cx.protocol(Protocol::Mlag) => return Reply::unrecognized("mlag"),
        (["mlag"], _) => routing::mlag(cx),
        (["mlag-vip"], _) if !cx.protocol(Protocol::Mlag) => {
            return Reply::unrecognized("mlag-vip");
        }
        (["mlag-vip"], _) => routing::mlag_vip(cx),
        (["interfaces", "port-channel", "summary"], _) => routing::port_channels(cx),
        (["interfaces", "mlag-port-channel", "summary"], _) if !cx.protocol(Protocol::Mlag) => {
            return Reply::unrecognized("mlag-port-channel");
        }
        (["interfaces", "mlag-port-channel", "summary"], _) => routing::mlag_port_channels(cx),
        (["traffic", "pool", rest @ ..], _) => match qos::traffic_pool(cx, rest) {
            Ok(s) => s,
            Err(r) => return r,
        },
        (["buffers", "pools"], _) => qos::buffers_pools(cx),
        (["dcb", "priority-flow-control"], _) => qos::pfc(cx),
        (["dcb", "ets", rest @ ..], _) => match qos::ets(cx, rest) {
            Ok(s) => s,
            Err(r) => return r,
        },
        (["qos", "interface", kind, id], _) => match qos::qos_interface(cx, kind, id) {
            Ok(s) => s,
            Err(r) => return r,
        },
        (["roce"], _) => match qos::roce(cx) {
            Ok(s) => s,
            Err(r) => return r,
        },
        ([first, ..], _) => return Reply::unrecognized(first),
        ([], _) => return Reply::unrecognized("show"),
    };
    match (json, shown.json) {
        (false, _) => Reply::text(shown.text),
        (true, Some(v)) => Reply::text(json_text(&v)),
        (true, None) => Unconfirmed::NoJson.reply(&words.join(" ")),
    }
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
