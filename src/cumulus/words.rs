//! NVUE's fixed words — object and attribute names and the values it spells one way — kept in
//! the tree without an allocation: a name read from text or built by compile that is one of
//! these is the static word, any other is owned.

use std::borrow::Cow;

/// A name or value of the tree: one of [`WORDS`] borrowed, else owned.
pub type Word = Cow<'static, str>;

/// The words, sorted as text (a test checks it; the table of [`fixed`] does not need it): the names `compile` writes, those of the
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

/// The fixed word that `s` is, if it is one: by a hash table made at compile time (open
/// addressing; a binary search's string comparisons cost parse a third of its time).
pub fn fixed(s: &str) -> Option<&'static str> {
    if s.len() > LONGEST {
        return None;
    }
    let mut i = hash(s.as_bytes());
    loop {
        let w = WORDS.get(usize::from(TABLE[i]).checked_sub(1)?)?;
        if *w == s {
            return Some(w);
        }
        i = (i + 1) % SLOTS;
    }
}

/// `s` as a word: the static one when it is one of [`WORDS`], else owned.
pub fn word(s: &str) -> Word {
    match fixed(s) {
        Some(w) => Cow::Borrowed(w),
        None => Cow::Owned(s.to_string()),
    }
}

/// [`word`] of a string already owned (kept, not copied, when it is no fixed word).
pub fn owned(s: String) -> Word {
    match fixed(&s) {
        Some(w) => Cow::Borrowed(w),
        None => Cow::Owned(s),
    }
}

const SLOTS: usize = 512;

/// FNV-1a of `b`, a slot of the table.
const fn hash(b: &[u8]) -> usize {
    let mut h: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < b.len() {
        h = (h ^ b[i] as u32).wrapping_mul(0x0100_0193);
        i += 1;
    }
    h as usize % SLOTS
}

/// The longest word's length: a longer text is no word.
const LONGEST: usize = {
    let (mut n, mut i) = (0, 0);
    while i < WORDS.len() {
        if WORDS[i].len() > n {
            n = WORDS[i].len();
        }
        i += 1;
    }
    n
};

/// Each slot: 1 + the index in [`WORDS`] of the word there, 0 for none.
const TABLE: [u8; SLOTS] = {
    assert!(WORDS.len() < 255 && WORDS.len() * 2 < SLOTS);
    let mut t = [0u8; SLOTS];
    let mut w = 0;
    while w < WORDS.len() {
        let mut i = hash(WORDS[w].as_bytes());
        while t[i] != 0 {
            i = (i + 1) % SLOTS;
        }
        t[i] = (w + 1) as u8;
        w += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_sorted_and_found() {
        assert!(WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(matches!(word("interface"), Cow::Borrowed("interface")));
        assert!(matches!(word("swp1"), Cow::Owned(_)));
        assert_eq!(owned("mtu".to_string()), "mtu");
        for w in WORDS {
            assert_eq!(fixed(w), Some(*w));
            assert_eq!(fixed(&format!("{w}x")), None);
        }
        assert_eq!(fixed(""), None);
    }
}
