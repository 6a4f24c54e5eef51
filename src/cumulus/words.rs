//! The tree's names and values ([`Word`]) and NVUE's fixed words — object and attribute names
//! and the values it spells one way — kept without an allocation: a name read from text or
//! built by compile that is one of these is the static word; any other short one (a port's
//! name, a number, most descriptions) is kept inline, a longer one on the heap.

use std::{borrow::Borrow, cmp::Ordering, fmt, hash, ops::Deref};

/// A name or value of the tree: a static word, a short text inline, or a longer one owned.
#[derive(Clone)]
pub struct Word(Text);

#[derive(Clone)]
enum Text {
    Static(&'static str),
    /// The first `.1` bytes of `.0` (UTF-8).
    Inline([u8; INLINE], u8),
    Heap(Box<str>),
}

/// The longest text kept inline: a word is no larger than a `String`.
const INLINE: usize = 22;
const _: () = assert!(std::mem::size_of::<Word>() == 24);

impl Word {
    /// `prefix` and the digits of `n`, then, with `then`, its text and number (`swp12s3`):
    /// inline, written without the formatting machinery.
    pub fn numbered(prefix: &str, n: u64, then: Option<(&str, u64)>) -> Word {
        fn digits(n: u64, buf: &mut [u8; 20]) -> &str {
            let mut at = buf.len();
            let mut n = n;
            loop {
                at -= 1;
                buf[at] = b'0' + (n % 10) as u8;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            // ASCII digits.
            std::str::from_utf8(&buf[at..]).unwrap_or_default()
        }
        let (mut a, mut b) = ([0; 20], [0; 20]);
        let (x, y) = (digits(n, &mut a), then.map(|(_, m)| digits(m, &mut b)));
        let mut buf = Inline([0; INLINE], 0);
        let parts = [prefix, x, then.map_or("", |(t, _)| t), y.unwrap_or("")];
        match parts
            .iter()
            .try_for_each(|p| fmt::Write::write_str(&mut buf, p))
        {
            Ok(()) => Word(Text::Inline(buf.0, buf.1)),
            Err(_) => Word(Text::Heap(parts.concat().into_boxed_str())),
        }
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Text::Static(s) => s,
            // SAFETY: an inline text's bytes are only ever written by `Inline::write_str`,
            // whole `str`s one after another: they are UTF-8.
            Text::Inline(b, n) => unsafe { std::str::from_utf8_unchecked(&b[..usize::from(*n)]) },
            Text::Heap(s) => s,
        }
    }

    /// `s` inline, when it fits.
    fn inline(s: &str) -> Option<Word> {
        let mut buf = Inline([0; INLINE], 0);
        fmt::Write::write_str(&mut buf, s).ok()?;
        Some(Word(Text::Inline(buf.0, buf.1)))
    }
}

/// An inline buffer written to; an error when the text does not fit.
struct Inline([u8; INLINE], u8);

impl fmt::Write for Inline {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let at = usize::from(self.1);
        let end = at + s.len();
        let room = self.0.get_mut(at..end).ok_or(fmt::Error)?;
        room.copy_from_slice(s.as_bytes());
        self.1 = end as u8;
        Ok(())
    }
}

impl Deref for Word {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Word {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Word {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Word {
    fn eq(&self, other: &Word) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Word {}

impl PartialEq<str> for Word {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Word {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Word {
    fn partial_cmp(&self, other: &Word) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Word {
    fn cmp(&self, other: &Word) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl hash::Hash for Word {
    fn hash<H: hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl fmt::Debug for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Word {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A static text, kept as it is.
impl From<&'static str> for Word {
    fn from(s: &'static str) -> Word {
        Word(Text::Static(s))
    }
}

/// [`owned`].
impl From<String> for Word {
    fn from(s: String) -> Word {
        owned(s)
    }
}

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
        Some(w) => Word(Text::Static(w)),
        None => Word::inline(s).unwrap_or_else(|| Word(Text::Heap(s.into()))),
    }
}

/// [`word`] of a string already owned (kept, not copied, when it is no fixed word).
pub fn owned(s: String) -> Word {
    match fixed(&s) {
        Some(w) => Word(Text::Static(w)),
        None => Word::inline(&s).unwrap_or_else(|| Word(Text::Heap(s.into_boxed_str()))),
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
        assert!(matches!(word("interface").0, Text::Static("interface")));
        assert!(matches!(word("swp1").0, Text::Inline(..)));
        assert_eq!(owned("mtu".to_string()), "mtu");
        let long = "a description longer than 22 bytes, é";
        for w in [word(long), owned(long.to_string())] {
            assert!(matches!(w.0, Text::Heap(_)));
            assert_eq!(w, long);
        }
        // 21 bytes and a 2-byte character: it does not fit, and is not cut.
        let edge = format!("{}é", "x".repeat(21));
        assert_eq!(word(&edge), edge.as_str());
        assert_eq!(Word::numbered("swp", 12, Some(("s", 3))), "swp12s3");
        assert_eq!(Word::numbered("", 0, None), "0");
        assert_eq!(
            Word::numbered("", u64::MAX, None),
            u64::MAX.to_string().as_str()
        );
        let long = Word::numbered("a-rather-long-prefix-", u64::MAX, Some(("s", 10)));
        assert_eq!(
            long,
            format!("a-rather-long-prefix-{}s10", u64::MAX).as_str()
        );
        assert!(matches!(Word::numbered("", 9216, None).0, Text::Inline(..)));
        for w in WORDS {
            assert_eq!(fixed(w), Some(*w));
            assert_eq!(fixed(&format!("{w}x")), None);
        }
        assert_eq!(fixed(""), None);
    }
}
