//! NVUE's fixed words — object and attribute names and the values it spells one way — kept in
//! the tree without an allocation: a name read from text or built by compile that is one of
//! these is the static word, any other is owned.

use std::borrow::Cow;

/// A name or value of the tree: one of [`WORDS`] borrowed, else owned.
pub type Word = Cow<'static, str>;

/// The words, sorted as text (a test checks it): the names `compile` writes, those of the
/// corpus's trees (`../shared/corpus/nvue/`), traffic classes and priorities.
pub const WORDS: &[&str] = &[
    "0",
    "1",
    "100",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "aaa",
    "access",
    "acl",
    "acl-default-dos",
    "action",
    "address",
    "address-family",
    "all",
    "allow",
    "api",
    "aspath-ignore",
    "auto",
    "autonomous-system",
    "backup",
    "base-interface",
    "bfd",
    "bgp",
    "bond",
    "both",
    "br_default",
    "breakout",
    "bridge",
    "bw-percent",
    "class",
    "command-path",
    "congestion-control",
    "control-plane",
    "default",
    "default-global",
    "description",
    "detect-multiplier",
    "dhcp",
    "disable",
    "disabled",
    "domain",
    "down",
    "dscp",
    "dwrr",
    "ecn",
    "egress-scheduler",
    "enable",
    "enabled",
    "eth",
    "eth0",
    "evpn",
    "external",
    "full-name",
    "gateway",
    "hashed-password",
    "header",
    "hold",
    "hostname",
    "id",
    "inbound",
    "interface",
    "ip",
    "ipv4-unicast",
    "ipv6-unicast",
    "keepalive",
    "l2",
    "l3",
    "link",
    "linklocal",
    "lldp",
    "lo",
    "loopback",
    "lossless",
    "mac-address",
    "mapping",
    "max-threshold",
    "member",
    "memory-percent",
    "mgmt",
    "min-rx-interval",
    "min-threshold",
    "min-tx-interval",
    "mlag",
    "mode",
    "mtu",
    "multipath",
    "neighbor",
    "network",
    "none",
    "numbered",
    "nvapply",
    "nvshow",
    "nvue-admin",
    "nvue-monitor",
    "off",
    "on",
    "outbound",
    "path-selection",
    "peer-ip",
    "peerlink",
    "peerlink.4094",
    "permission",
    "pfc",
    "pfc-watchdog",
    "probability",
    "qos",
    "remote-as",
    "ro",
    "roce",
    "role",
    "router",
    "router-id",
    "rx",
    "set",
    "speed",
    "ssh-server",
    "state",
    "strict",
    "sub",
    "sudo",
    "svi",
    "switch-priority",
    "swp",
    "system",
    "system-admin",
    "timers",
    "timezone",
    "traffic-class",
    "traffic-pool",
    "trust",
    "tx",
    "type",
    "unnumbered",
    "untagged",
    "up",
    "user",
    "vlan",
    "vrf",
];

/// `s` as a word: the static one when it is one of [`WORDS`], else owned.
pub fn word(s: &str) -> Word {
    match WORDS.binary_search(&s) {
        Ok(i) => Cow::Borrowed(WORDS[i]),
        Err(_) => Cow::Owned(s.to_string()),
    }
}

/// [`word`] of a string already owned (kept, not copied, when it is no fixed word).
pub fn owned(s: String) -> Word {
    match WORDS.binary_search(&s.as_str()) {
        Ok(i) => Cow::Borrowed(WORDS[i]),
        Err(_) => Cow::Owned(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_sorted_and_found() {
        assert!(WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(matches!(word("interface"), Cow::Borrowed("interface")));
        assert!(matches!(word("swp1"), Cow::Owned(_)));
        assert_eq!(owned("mtu".to_string()), "mtu");
    }
}
