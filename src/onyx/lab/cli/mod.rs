//! The Onyx CLI of a simulated switch, line by line: modes and their prompts, keyword
//! abbreviations, paging, the `show` commands tools rely on, saving, and every configuration
//! command of the grammar, flat or inside an interface or VLAN sub-mode.
//!
//! Fidelity follows `../shared/reference/onyx-cli.md` §c and the session recordings in
//! `tests/fixtures/corpus/onyx/`. Where no capture shows what Onyx prints, the lab's choice
//! is in one table, [`Unconfirmed::text`].
//!
//! The switch, its sessions and their replies are here; a session's loop (reading a line,
//! paging, the prompt, the levels) is in `session`, the configuration commands and saving in
//! `configure`, the keywords and their abbreviations in `keywords`.

use std::collections::BTreeMap;
use std::time::Instant;

use crate::onyx::Config;
use crate::onyx::command::IfaceRange;
use crate::types::{Release, Vlan};

pub use crate::lab::{Login, Reply};

mod configure;
mod keywords;
mod session;
mod unconfirmed;

pub(super) use keywords::{ATTRIBUTES, expand, follows, shape, sub_attributes, suffix};
pub use unconfirmed::Unconfirmed;

/// What a simulated switch keeps: its running configuration and its saved files.
#[derive(Clone, Debug)]
pub struct Switch {
    pub running: Config,
    /// Saved configuration files by name; the switch boots from `active`.
    pub files: BTreeMap<String, Config>,
    pub active: String,
    pub release: Release,
    /// The switch's model, when a fabric names it: its ports and their native speeds.
    pub model: Option<&'static crate::types::Model>,
    /// Counts configuration commands applied and saves, so a server can tell what to persist.
    pub revision: u64,
    pub saves: u64,
    /// The sessions logged in now, by session number.
    pub logins: BTreeMap<u64, Login>,
    /// When the lab started the switch (`show version`'s uptime).
    pub booted: Instant,
    /// The saved files and active one as last written to the switch's state folder
    /// ([`super::folder`]): a save rewrites only the files that changed.
    pub(super) written: Option<(BTreeMap<String, Config>, String)>,
}

/// The release a lab switch reports (`show version`, the running-config header).
pub const LAB_RELEASE: Release = Release(3, 10, 4504);

impl Switch {
    /// A switch as it leaves the factory, named, with its configuration saved as `initial`.
    pub fn factory(hostname: &str) -> Switch {
        Switch::factory_as(hostname, Some(LAB_RELEASE), None)
    }

    /// A factory-default switch as a fabric describes it: its release (which decides the
    /// header and quoting; unknown is older than 3.9) and the ID of its self-signed
    /// certificate.
    pub fn factory_as(
        hostname: &str,
        release: Option<Release>,
        certificate: Option<&str>,
    ) -> Switch {
        let mut sw = Switch::with_config(Config::factory(hostname, release, certificate));
        sw.release = release.unwrap_or(LAB_RELEASE);
        sw
    }

    /// A switch running `config`, saved as its active file (e.g. from a backup).
    pub fn with_config(mut config: Config) -> Switch {
        config.header.saved = false;
        let active = config.header.database.clone();
        Switch {
            files: BTreeMap::from([(active.clone(), config.clone())]),
            running: config,
            active,
            release: LAB_RELEASE,
            model: None,
            revision: 0,
            saves: 0,
            logins: BTreeMap::new(),
            booted: Instant::now(),
            written: None,
        }
    }

    pub fn hostname(&self) -> &str {
        self.running.hostname.as_deref().unwrap_or("")
    }

    /// The switch as the network reads it: its running configuration is in the network's
    /// terms.
    pub fn node(&self) -> crate::lab::network::Node {
        use crate::targets::SwitchOs as _;
        crate::lab::network::Node {
            config: self.running.clone(),
            os: crate::onyx::target::ONYX.os(),
            pair: None,
            port_peers: Default::default(),
        }
    }

    /// Whether the running configuration differs from the active saved file.
    pub fn unsaved(&self) -> bool {
        self.files.get(&self.active) != Some(&self.running)
    }
}

/// A CLI level. Sub-modes keep what their commands apply to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    User,
    Enable,
    Config,
    Interface(IfaceRange),
    Vlan(Vlan),
    /// `(config pool roce)`: a traffic pool's attributes.
    Pool(String),
    /// `(config router bgp 65101 vrf default)`: the BGP instance's attributes (the Ansible
    /// `onyx_bgp` module enters it with `router bgp N` and leaves with `exit`; the prompt's
    /// text is UNCONFIRMED).
    Bgp(u32),
    /// `(config mlag)`: `shutdown`, `no shutdown`, `system-mac` (prompt UNCONFIRMED).
    Mlag,
    /// An object the model does not manage, entered by its line: `(config interface vlan 1
    /// magp 1) #` (captured, CSM session); its lines are kept verbatim after that prefix.
    Unmodeled(String),
}

/// Onyx's error replies: `% MESSAGE` (captured: `% Unrecognized command "…".`).
pub(crate) trait Errors {
    fn error(message: String) -> Reply;
    fn unrecognized(word: &str) -> Reply;
}

impl Errors for Reply {
    fn error(message: String) -> Reply {
        Reply::text(format!("% {message}\n"))
    }

    fn unrecognized(word: &str) -> Reply {
        Reply::error(format!("Unrecognized command \"{word}\"."))
    }
}

/// One CLI session on a switch: its mode, paging and the rest of a paged output.
#[derive(Clone, Debug)]
pub struct Session {
    /// The session's number on its switch (its `show users` line); 0 when not logged in.
    pub id: u64,
    pub(super) mode: Mode,
    paging: bool,
    /// Terminal length: a page shows one line fewer, for the pager's prompt.
    length: usize,
    /// Output lines still to page through.
    pending: Vec<String>,
    /// The first and last line numbers of the page shown last, and of the whole output.
    from: usize,
    shown: usize,
    total: usize,
    /// The pager has shown the last line and waits at `(END)`.
    end: bool,
    /// The password `enable` asks for, when the switch has one.
    pub enable_password: Option<String>,
    /// `enable` asked for its password; the next line is the answer.
    asking: bool,
    /// A line whose double quote is still open (`banner motd "`): the lines typed next, at
    /// the `> ` prompt (captured, CSM session), are its text until a line closes the quote.
    continued: Option<String>,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Session {
    /// A new login: user mode, paging on, 24 lines.
    pub fn new() -> Session {
        Session {
            id: 0,
            mode: Mode::User,
            paging: true,
            length: 24,
            pending: Vec::new(),
            from: 0,
            shown: 0,
            total: 0,
            end: false,
            enable_password: None,
            asking: false,
            continued: None,
        }
    }

    /// Turns paging on or off (`[no] cli session paging enable`; off for an exec request,
    /// which has no terminal).
    pub fn set_paging(&mut self, on: bool) {
        self.paging = on;
    }

    /// Whether the next line answers `enable`'s password prompt (not echoed, not logged).
    pub fn asking_password(&self) -> bool {
        self.asking
    }

    /// A session already in configuration mode with paging off, as a script would leave it.
    pub fn configuring() -> Session {
        Session {
            mode: Mode::Config,
            paging: false,
            ..Session::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::onyx::command;

    fn run(s: &mut Session, sw: &mut Switch, lines: &[&str]) -> String {
        lines.iter().map(|l| s.input(sw, l).output).collect()
    }

    #[test]
    fn modes_prompts_and_abbreviations() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] > ");
        run(&mut s, &mut sw, &["no cli session paging enable", "enable"]);
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] # ");
        run(&mut s, &mut sw, &["conf t"]);
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] (config) # ");
        run(&mut s, &mut sw, &["int eth 1/1-1/4"]);
        assert_eq!(
            s.prompt(&sw),
            "leaf01 [standalone: master] (config interface ethernet 1/1-1/4) # "
        );
        assert_eq!(run(&mut s, &mut sw, &["mtu 9216 force", "sw mo hy"]), "");
        assert_eq!(sw.running.interfaces.len(), 4);
        run(&mut s, &mut sw, &["exit", "vlan 10"]);
        assert_eq!(
            s.prompt(&sw),
            "leaf01 [standalone: master] (config vlan 10) # "
        );
        run(&mut s, &mut sw, &["name storage", "exit", "exit"]);
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] # ");
        let shown = run(&mut s, &mut sw, &["show run | include mtu"]);
        assert_eq!(shown, "   interface ethernet 1/1-1/4 mtu 9216 force\n");
        assert!(
            run(&mut s, &mut sw, &["show running-config"])
                .contains("   vlan 10 name \"storage\"\n")
        );
    }

    /// In an interface sub-mode, `mlag …` is the `(config)` command, not `mlag-channel-group`
    /// abbreviated; an attribute's abbreviation is still one (`mlag-ch` is the attribute).
    #[test]
    fn a_whole_config_command_word_in_an_interface_sub_mode_is_that_command() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::configuring();
        let typed = [
            "protocol mlag",
            "interface vlan 4000",
            "mlag system-mac 00:00:5E:00:01:5D",
            "interface ethernet 1/1",
            "mlag-ch 1 mode active",
        ];
        assert_eq!(run(&mut s, &mut sw, &typed), "");
        assert!(sw.running.mlag.system_mac.is_some());
        let port = &sw.running.interfaces[&command::Iface::Ethernet(crate::types::Port::new(1, 1))];
        assert_eq!(port.channel_group.map(|g| (g.mlag, g.id)), Some((true, 1)));
    }

    #[test]
    fn unknown_commands_are_refused_and_change_nothing() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(&mut s, &mut sw, &["enable", "configure terminal"]);
        let before = sw.running.clone();
        assert_eq!(
            run(&mut s, &mut sw, &["ib sm"]),
            "% Unrecognized command \"ib\".\n"
        );
        assert_eq!(
            run(&mut s, &mut sw, &["interface ethernet 1/1 mtu 99999 force"]),
            "% Unrecognized command \"99999\".\n"
        );
        // An open quote outside a banner is refused, not read on the next lines.
        let open = run(
            &mut s,
            &mut sw,
            &["interface ethernet 1/1 description \"open"],
        );
        assert!(open.starts_with('%'), "{open}");
        assert_eq!(sw.running, before);
        assert_eq!(run(&mut s, &mut sw, &["lldp"]), "");
        assert!(sw.running.lldp);
    }

    /// A switch refuses what its release lacks (the fabric validation's gates), ports its
    /// model does not have, subports of a port not split, ECN thresholds out of range;
    /// nothing changes.
    #[test]
    fn what_the_switch_lacks_is_refused() {
        let mut sw = Switch::factory_as("leaf01", Some(Release(3, 6, 8190)), None);
        sw.model = crate::types::Model::find("SN2700").ok();
        let mut s = Session::configuring();
        let before = sw.running.clone();
        for (line, error) in [
            ("roce", "% Unrecognized command \"roce\".\n"),
            (
                "interface ethernet 1/99 mtu 9216 force",
                "% Interface ethernet 1/99 does not exist.\n",
            ),
            (
                "interface ethernet 1/30-1/33 shutdown",
                "% Interface ethernet 1/33 does not exist.\n",
            ),
            (
                "interface ethernet 1/1/2 mtu 9216 force",
                "% Interface ethernet 1/1/2 does not exist.\n",
            ),
            (
                "interface ethernet 1/1 mtu 99999 force",
                "% Unrecognized command \"99999\".\n",
            ),
            ("vlan 4095", "% Unrecognized command \"4095\".\n"),
            (
                "interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 1500 maximum-absolute 150",
                "% Unrecognized command \"1500\".\n",
            ),
            (
                "interface ethernet 1/1 traffic-class 3 congestion-control ecn minimum-absolute 150 maximum-absolute 2000000",
                "% Unrecognized command \"2000000\".\n",
            ),
        ] {
            assert_eq!(run(&mut s, &mut sw, &[line]), error, "{line}");
        }
        assert_eq!(sw.running, before);
        // 3.6.8190 has traffic pools; 3.6.4000 does not, nor a port 1/33 on any switch
        // without a model.
        assert_eq!(
            run(&mut s, &mut sw, &["traffic pool roce type lossless"]),
            ""
        );
        let mut old = Switch::factory_as("leaf02", Some(Release(3, 6, 4000)), None);
        assert_eq!(
            run(&mut s, &mut old, &["traffic pool roce type lossless"]),
            "% Unrecognized command \"traffic\".\n"
        );
        assert_eq!(
            run(&mut s, &mut old, &["interface ethernet 1/33 shutdown"]),
            ""
        );
        // Split, its subports exist.
        let typed = [
            "interface ethernet 1/1 module-type qsfp-split-2 force",
            "interface ethernet 1/1/2 mtu 9216 force",
        ];
        assert_eq!(run(&mut s, &mut sw, &typed), "");
    }

    /// Unmodeled configuration is kept verbatim in its section and shown back; a line of no
    /// family, or with a word its family lacks, is refused.
    #[test]
    fn unmodeled_configuration_is_kept_and_shown() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(
            &mut s,
            &mut sw,
            &[
                "enable",
                "configure terminal",
                "no cli session paging enable",
            ],
        );
        let typed = [
            "ntp server 10.1.0.5",
            "snmp-server location \"rack 4\"",
            "logging 10.10.10.10 trap info",
            "username monitor capability monitor",
            "clock timezone UTC",
            "ip name-server vrf mgmt 4.2.2.2",
            "ip domain-list local",
            "ip route 0.0.0.0/0 10.102.3.3 5",
            "vrf definition Customer",
            "ip routing vrf Customer",
            "ipv4 access-list cmn-can",
            "protocol ospf",
            "router ospf 2 vrf Customer router-id 10.2.0.3",
            "protocol magp",
            "interface vlan 7",
            "ip ospf area 0.0.0.0",
            "exit",
            "interface vlan 1 magp 1",
            "ip virtual-router address 10.1.0.1",
            "exit",
            "banner motd \"",
            "# CSM version:  1.2",
            "\"",
            "spanning-tree mode rpvst",
        ];
        for line in typed {
            assert_eq!(run(&mut s, &mut sw, &[line]), "", "{line}");
        }
        let shown = run(&mut s, &mut sw, &["show running-config"]);
        for (section, line) in [
            ("Network management configuration", "   ntp server 10.1.0.5"),
            ("SNMP configuration", "   snmp-server location \"rack 4\""),
            (
                "Local user account configuration",
                "   username monitor capability monitor",
            ),
            (
                "Other IP configuration",
                "   ip route 0.0.0.0/0 10.102.3.3 5",
            ),
            ("L3 configuration", "   vrf definition Customer"),
            (
                "OSPF configuration",
                "   interface vlan 7 ip ospf area 0.0.0.0",
            ),
            (
                "MAGP configuration",
                "   interface vlan 1 magp 1 ip virtual-router address 10.1.0.1",
            ),
            ("STP configuration", "   spanning-tree mode rpvst"),
            (
                "Network management configuration",
                "   banner motd \"\n# CSM version:  1.2\n\"",
            ),
        ] {
            let at = shown
                .find(&format!("## {section}\n"))
                .unwrap_or_else(|| panic!("{section} in\n{shown}"));
            let next = shown[at..].find("\n\n").map_or(shown.len(), |n| at + n + 1);
            assert!(
                shown[at..next].contains(&format!("{line}\n")),
                "{line:?} under {section} in\n{shown}"
            );
        }
        // What the parser reads back is what was kept.
        let back = crate::onyx::parse(&shown).unwrap();
        let undated = |t: &str| -> String {
            t.lines()
                .filter(|l| !l.starts_with("## Generated at"))
                .collect()
        };
        let again = crate::onyx::lab::show::running_config(&Switch::with_config(back));
        assert_eq!(undated(&again), undated(&shown));
        // Garbage is refused, a family's unknown word too; `no` takes a line back.
        for (line, error) in [
            ("ntp bogus", "% Unrecognized command \"bogus\".\n"),
            ("snmp", "% Unrecognized command \"snmp-server\".\n"),
            ("frobnicate now", "% Unrecognized command \"frobnicate\".\n"),
            (
                "interface ethernet 1/1 magp 1",
                "% Unrecognized command \"magp\".\n",
            ),
        ] {
            assert_eq!(run(&mut s, &mut sw, &[line]), error, "{line}");
        }
        run(&mut s, &mut sw, &["no ntp server 10.1.0.5"]);
        assert!(!run(&mut s, &mut sw, &["show running-config"]).contains("ntp server"));
    }

    #[test]
    fn a_question_mark_asks_for_help() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::configuring();
        let help = run(
            &mut s,
            &mut sw,
            &["interface ethernet 1/1 switchport mode ?"],
        );
        assert_eq!(
            help,
            "  access              Access port: untagged, one VLAN\n  hybrid              Hybrid port: untagged and tagged VLANs\n  trunk               Trunk port: tagged VLANs\n"
        );
        let help = run(&mut s, &mut sw, &["ntp ?"]);
        assert!(help.contains("  server\n"), "{help}");
        let help = run(&mut s, &mut sw, &["mtu ?"]);
        assert_eq!(help, "% Unrecognized command \"mtu\".\n");
        run(&mut s, &mut sw, &["interface ethernet 1/1"]);
        let help = run(&mut s, &mut sw, &["mtu ?"]);
        assert_eq!(help, "  <1500-9216>         MTU in bytes\n");
        let help = run(&mut s, &mut sw, &["mtu 9216 ?"]);
        assert!(help.contains("<cr>"), "{help}");
        assert_eq!(sw.running, Switch::factory("leaf01").running);
    }

    #[test]
    fn saving_and_unsaved_changes() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(&mut s, &mut sw, &["enable"]);
        assert!(
            run(&mut s, &mut sw, &["show configuration files"]).ends_with("Unsaved changes : no\n")
        );
        run(&mut s, &mut sw, &["configure terminal", "lldp"]);
        let files = run(&mut s, &mut sw, &["show configuration files"]);
        assert_eq!(
            files,
            "initial (active)\nActive configuration: initial\nUnsaved changes : yes\n"
        );
        run(
            &mut s,
            &mut sw,
            &["configuration write to before-push no-switch"],
        );
        assert_eq!(sw.active, "initial");
        run(&mut s, &mut sw, &["configuration write"]);
        let files = run(&mut s, &mut sw, &["show configuration files"]);
        assert_eq!(
            files,
            "before-push\ninitial (active)\nActive configuration: initial\nUnsaved changes : no\n"
        );
    }

    #[test]
    fn port_channel_and_pool_sub_modes() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::configuring();
        run(&mut s, &mut sw, &["interface port-channel 10"]);
        assert_eq!(
            s.prompt(&sw),
            "leaf01 [standalone: master] (config interface port-channel 10) # "
        );
        assert_eq!(run(&mut s, &mut sw, &["mtu 9216 force", "exit"]), "");
        run(&mut s, &mut sw, &["traffic pool roce"]);
        assert_eq!(
            s.prompt(&sw),
            "leaf01 [standalone: master] (config pool roce) # "
        );
        let typed = [
            "type lossless",
            "memory percent 50",
            "map switch-priority 3",
            "exit",
        ];
        assert_eq!(run(&mut s, &mut sw, &typed), "");
        let shown = run(&mut s, &mut sw, &["show running-config"]);
        for line in [
            "   interface port-channel 10
",
            "   interface port-channel 10 mtu 9216 force
",
            "   traffic pool roce type lossless
",
            "   traffic pool roce memory percent 50.00
",
            "   traffic pool roce map switch-priority 3
",
        ] {
            assert!(shown.contains(line), "{line:?} in\n{shown}");
        }
    }

    #[test]
    fn the_pager_ends_at_end() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(&mut s, &mut sw, &["enable", "terminal length 20"]);
        let total = s
            .input(&mut sw, "show running-config")
            .output
            .lines()
            .count();
        let mut shown = total;
        while !s.prompt(&sw).contains("(END)") {
            shown += s.key(b' ').output.lines().count();
        }
        let all = Switch::factory("leaf01");
        let lines = crate::onyx::lab::show::running_config(&all).lines().count();
        assert_eq!(shown, lines);
        assert_eq!(
            s.prompt(&sw),
            format!("lines {}-{lines}/{lines} (END) ", lines - 18)
        );
        assert_eq!(s.key(b'x'), Reply::default());
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] # ");
    }

    #[test]
    fn paging_shows_a_page_then_the_pager_prompt() {
        let mut sw = Switch::factory("leaf01");
        let mut s = Session::new();
        run(&mut s, &mut sw, &["enable", "terminal length 5"]);
        let first = s.input(&mut sw, "show running-config").output;
        assert_eq!(first.lines().count(), 4);
        assert!(s.prompt(&sw).starts_with("lines 1-4 "), "{}", s.prompt(&sw));
        s.input(&mut sw, "q");
        assert_eq!(s.prompt(&sw), "leaf01 [standalone: master] # ");
    }
}
