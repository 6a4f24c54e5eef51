//! Secrets never show: [`mask`] is the one function that masks them, in every text we write
//! or print that may hold one (backups, push transcripts, the lab's command log, plans and
//! diffs, audit and import output, error excerpts). It knows the secret keys of YAML files
//! ([`YAML_KEYS`]) and every form of secret in an Onyx or OS10 command ([`FORMS`]), and masks
//! the value the way the switch masks its own: a type digit or algorithm before it stays
//! (`password 9 ****`), the value becomes Onyx's `********` or OS10's `****`, or (for a
//! diagnostic's excerpt, whose spans must stay put) a `*` per byte. Masking a masked text
//! changes nothing, so two masked texts differ only where their configurations do.

use std::borrow::Cow;
use std::ops::Range;

/// How a masked value reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mask {
    /// A `*` per byte of the value: every span into the text still points at the same place
    /// (a diagnostic's excerpt).
    InPlace,
    /// `********`, as Onyx prints its own (`# radius-server key ********`,
    /// `ntp authentication-key 5 sha1 ********`; `onyx-cli.md` b.5).
    Onyx,
    /// `****`, as OS10 prints its own (`password 9 ****`, `enable password sha-512 ****`,
    /// `snmp-server user … auth sha ****`: the Azure Stack TOR capture, 10.5.3.2).
    Os10,
}

impl Mask {
    /// The mask of a switch OS.
    pub fn of(os: crate::fabric::Os) -> Mask {
        os.target().mask()
    }

    fn stars(self, len: usize) -> Cow<'static, str> {
        match self {
            Mask::InPlace => Cow::Owned("*".repeat(len)),
            Mask::Onyx => Cow::Borrowed("********"),
            Mask::Os10 => Cow::Borrowed("****"),
        }
    }
}

/// Keys of a YAML file (a fabric, an inventory, a fault file) whose value is a secret
/// (`password: …`, `{ …, token: … }`).
pub const YAML_KEYS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "enable_password",
    "enable_secret",
    "community",
    "token",
    "api_key",
    "private_key",
];

/// A form of secret in a switch command: the value after `word`, on a line that holds one of
/// `within` before it, past the words `between` names and an optional type ([`TYPES`]). A
/// quoted value (`"two words"`) is one value.
#[derive(Debug)]
pub struct Form {
    /// Which OS has the form, for the docs (`onyx`, `os10`, `onyx, os10`).
    pub os: &'static str,
    /// The form as the switch spells it, for the docs and tests.
    pub example: &'static str,
    /// Words one of which the line holds before `word`; empty: `word` begins the line (after
    /// a YAML list's `-` or a comment's `#`), as in an OS10 block.
    within: &'static [&'static str],
    word: &'static str,
    between: &'static [Between],
}

/// A word between a secret's command word and its value.
#[derive(Debug)]
enum Between {
    /// Any word (a key id).
    Any,
    /// One of these words (an algorithm), or the line is not this form.
    OneOf(&'static [&'static str]),
}

/// The type word a value may follow, kept as it is: Onyx's `0` (clear) and `7` (hashed),
/// OS10's `0`, `7` and `9` (encrypted) and its `enable password` hashes (`sha-256`,
/// `sha-512`; the TOR capture's `enable password sha-512 ****`).
const TYPES: &[&str] = &["0", "7", "9", "sha-256", "sha-512"];

/// SNMPv3 authentication algorithms: `md5` and `sha` (Onyx `encrypted auth sha ""` in NAP and
/// CSM, `auth md5 xxxxxx` in CSM; OS10 `auth sha ****` in the TOR capture, `auth md5` in
/// CSM); the SHA-2 ones are the Onyx manual's (UNCONFIRMED by a capture).
const SNMP_AUTH: &[&str] = &["md5", "sha", "sha224", "sha256", "sha384", "sha512"];

/// SNMPv3 privacy algorithms: `des` (CSM, both OSes), `aes-128` (NAP, Onyx), `aes` (OS10,
/// the dellemc.os10 collection's SNMP role); the others are the Onyx manual's (UNCONFIRMED
/// by a capture).
const SNMP_PRIV: &[&str] = &[
    "des",
    "3des",
    "aes",
    "aes-128",
    "aes-192",
    "aes-256",
    "aes-192-cfb",
    "aes-256-cfb",
];

/// Every form of secret in an Onyx or OS10 command. Sources: `onyx-cli.md` b.5 and the Onyx
/// captures in `../shared/corpus/onyx/` (NAP, CSM, Mellon, ANS); the OS10 captures in
/// `../shared/corpus/os10/` (the Azure Stack TOR and BMC configurations, CSM) and the
/// dellemc.os10 Ansible collection's templates (AAA, users, SNMP, NTP, BGP roles); OSPF's
/// interface keys are Dell's OS9/OS10 command references' (`ip ospf message-digest-key keyid
/// md5 key`) and the common `ip ospf authentication-key` (UNCONFIRMED by a capture of either
/// OS: we write no OSPF, but a switch we back up or audit may hold it). Neither OS
/// has a key for BFD, for MLAG (Onyx) or for VLT (OS10): the collection's BFD and VLT roles
/// and the captures' `vlt-domain` blocks carry none.
pub const FORMS: &[Form] = &[
    Form {
        os: "onyx, os10",
        example: "username admin password 7 $6$…",
        within: &["username"],
        word: "password",
        between: &[],
    },
    Form {
        os: "os10",
        example: "system-user linuxadmin password $6$…",
        within: &["system-user"],
        word: "password",
        between: &[],
    },
    Form {
        os: "os10",
        example: "enable password sha-512 … priv-lvl 15",
        within: &["enable"],
        word: "password",
        between: &[],
    },
    Form {
        os: "os10",
        example: "password 9 …",
        within: &[],
        word: "password",
        between: &[],
    },
    Form {
        os: "onyx",
        example: "router bgp 65000 vrf default neighbor 10.0.0.1 password 7 …",
        within: &["neighbor"],
        word: "password",
        between: &[],
    },
    Form {
        os: "onyx",
        example: "web proxy auth basic password …",
        within: &["basic"],
        word: "password",
        between: &[],
    },
    Form {
        os: "onyx",
        example: "boot bootmgr password 7 …",
        within: &["bootmgr"],
        word: "password",
        between: &[],
    },
    Form {
        os: "onyx, os10",
        example: "snmp-server community … ro",
        within: &["snmp-server"],
        word: "community",
        between: &[],
    },
    Form {
        os: "onyx, os10",
        example: "snmp-server host 10.0.0.9 traps version 2c …",
        within: &["snmp-server"],
        word: "version",
        between: &[Between::OneOf(&["1", "2c"])],
    },
    Form {
        os: "onyx, os10",
        example: "snmp-server user u v3 encrypted auth sha … priv aes-128 …",
        within: &["snmp-server"],
        word: "auth",
        between: &[Between::OneOf(SNMP_AUTH)],
    },
    Form {
        os: "onyx, os10",
        example: "snmp-server user u g 3 auth sha … priv des …",
        within: &["snmp-server"],
        word: "priv",
        between: &[Between::OneOf(SNMP_PRIV)],
    },
    Form {
        os: "onyx, os10",
        example: "radius-server host 10.0.0.9 key 9 … auth-port 1812",
        within: &["radius-server"],
        word: "key",
        between: &[],
    },
    Form {
        os: "onyx, os10",
        example: "tacacs-server host 10.0.0.9 key 9 …",
        within: &["tacacs-server"],
        word: "key",
        between: &[],
    },
    Form {
        os: "onyx",
        example: "ldap bind-password …",
        within: &["ldap"],
        word: "bind-password",
        between: &[],
    },
    Form {
        os: "onyx, os10",
        example: "ip ospf authentication-key …",
        within: &["ospf"],
        word: "authentication-key",
        between: &[],
    },
    Form {
        os: "onyx, os10",
        example: "ip ospf message-digest-key 1 md5 …",
        within: &["ospf"],
        word: "message-digest-key",
        between: &[Between::Any, Between::OneOf(&["md5"])],
    },
    Form {
        os: "onyx, os10",
        example: "ntp authentication-key 5 sha1 0 …",
        within: &["ntp"],
        word: "authentication-key",
        between: &[Between::Any, Between::Any],
    },
];

/// Words that never are a secret value: a trap host's `version 2c` with no community, then
/// its port.
const NOT_VALUES: &[&str] = &["udp-port"];

/// Parts of every word [`mask`] looks for (YAML keys and forms' words), lower case: a line
/// holding none of them holds no secret, and is copied as it is.
const NEEDLES: &[&str] = &[
    "pass",
    "secret",
    "community",
    "token",
    "key",
    "auth",
    "priv",
    "version",
];

/// `text` with the value of every secret masked as `how` says: the one masking of the
/// program (see the module's header). Only the lines that hold a [`NEEDLES`] word are read
/// word by word, so a large running configuration costs a few scans of its bytes.
pub fn mask(text: &str, how: Mask) -> Cow<'_, str> {
    let lower = text.to_ascii_lowercase();
    let mut starts: Vec<usize> = Vec::new();
    for needle in NEEDLES {
        // The hits come in order: a line's start is looked for back to the previous hit only.
        let (mut prev, mut start) = (0, 0);
        for at in memchr::memmem::find_iter(lower.as_bytes(), needle) {
            if let Some(i) = memchr::memrchr(b'\n', &lower.as_bytes()[prev..at]) {
                start = prev + i + 1;
            }
            prev = at;
            starts.push(start);
        }
    }
    if starts.is_empty() {
        return Cow::Borrowed(text);
    }
    starts.sort_unstable();
    starts.dedup();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for start in starts {
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i);
        let line = &text[start..end];
        let mut ranges = yaml_values(line);
        ranges.extend(command_values(line));
        ranges.sort_by_key(|r| r.start);
        for r in ranges {
            if start + r.start < copied {
                continue;
            }
            out.push_str(&text[copied..start + r.start]);
            out.push_str(&how.stars(r.len()));
            copied = start + r.end;
        }
    }
    out.push_str(&text[copied..]);
    if out == text {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(out)
    }
}

/// Whether a switch command holds a secret: a value one of [`FORMS`] names.
pub fn in_command(line: &str) -> bool {
    !command_values(line).is_empty()
}

/// Whether a switch command's secret is a mask (`********`, `****`, a `*` per byte): sent to
/// a switch, it would set the secret to the mask.
pub fn masked_in_command(line: &str) -> bool {
    command_values(line).iter().any(|r| {
        let v = line[r.clone()].trim_matches(['"', '\'']);
        !v.is_empty() && v.bytes().all(|b| b == b'*')
    })
}

/// Byte ranges of the values of secret YAML keys on one line: `password: x`, `"token": 'x'`,
/// `{ user: a, password: x }` (the value ends at `,`, `}` or `]` in a flow collection, at ` #`
/// or the line's end otherwise).
fn yaml_values(line: &str) -> Vec<Range<usize>> {
    let bytes = line.as_bytes();
    let lower = line.to_ascii_lowercase();
    let mut out = Vec::new();
    for key in YAML_KEYS {
        let mut from = 0;
        while let Some(i) = lower[from..].find(key) {
            let start = from + i;
            from = start + key.len();
            let before = bytes[..start].iter().rev().find(|b| !b" \t".contains(b));
            if !matches!(
                before,
                None | Some(b'{' | b',' | b'"' | b'\'' | b'-' | b'?')
            ) {
                continue;
            }
            let mut j = from;
            if matches!(bytes.get(j), Some(b'"' | b'\'')) {
                j += 1;
            }
            if bytes.get(j) != Some(&b':')
                || !matches!(bytes.get(j + 1), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
            {
                continue;
            }
            if let Some(r) = yaml_value(line, start, j + 1) {
                out.push(r);
            }
        }
    }
    out
}

/// The value of a YAML key at `key` whose `:` ends before `v`, if it has one.
fn yaml_value(line: &str, key: usize, mut v: usize) -> Option<Range<usize>> {
    let bytes = line.as_bytes();
    let flow = {
        let head = &line[..key];
        head.matches(['{', '[']).count() > head.matches(['}', ']']).count()
    };
    while matches!(bytes.get(v), Some(b' ' | b'\t')) {
        v += 1;
    }
    let end = match bytes.get(v) {
        Some(&q @ (b'"' | b'\'')) => {
            let close = bytes[v + 1..]
                .iter()
                .enumerate()
                .position(|(k, &b)| b == q && (q == b'\'' || bytes[v + k] != b'\\'));
            v += 1;
            close.map_or(line.trim_end_matches(['\r', '\n']).len(), |c| v + c)
        }
        _ => {
            let rest = &line[v..];
            let mut e = rest.find(" #").unwrap_or(rest.len());
            if flow {
                e = e.min(rest.find([',', '}', ']']).unwrap_or(rest.len()));
            }
            v + rest[..e].trim_end_matches(['\r', '\n', ' ', '\t']).len()
        }
    };
    (end > v).then_some(v..end)
}

/// The words of a line, as byte ranges.
fn words(line: &str) -> Vec<Range<usize>> {
    let bytes = line.as_bytes();
    let mut words = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i > start {
            words.push(start..i);
        }
    }
    words
}

/// Byte ranges of secret values in a switch command anywhere on the line (a running config,
/// a transcript, a fabric's `extra` line, a YAML comment holding a copied line): the value of
/// every [`FORMS`] entry the line matches; a quoted value whole, without its quotes.
fn command_values(line: &str) -> Vec<Range<usize>> {
    let words = words(line);
    // A word as a command word: without the YAML quoting or list punctuation around it.
    let bare = |r: &Range<usize>| {
        line[r.clone()]
            .trim_matches(['"', '\'', ',', '[', ']', '{', '}'])
            .to_ascii_lowercase()
    };
    let bares: Vec<String> = words.iter().map(bare).collect();
    let mut out = Vec::new();
    for (k, word) in bares.iter().enumerate() {
        for form in FORMS.iter().filter(|f| f.word == word) {
            let head = &bares[..k];
            let applies = if form.within.is_empty() {
                head.iter().all(|w| w.is_empty() || w == "-" || w == "#")
            } else {
                head.iter().any(|w| form.within.contains(&w.as_str()))
            };
            if !applies {
                continue;
            }
            let Some(v) = value_at(form, &bares, k) else {
                continue;
            };
            if let Some(r) = value_range(line, &words, v) {
                out.push(r);
            }
        }
    }
    out
}

/// The index of the word a form's value starts at, the form's word being word `k`: past the
/// words `between` names and a type, if the line has a value there.
fn value_at(form: &Form, bares: &[String], k: usize) -> Option<usize> {
    let mut v = k + 1;
    for b in form.between {
        let word = bares.get(v)?;
        if let Between::OneOf(set) = b
            && !set.contains(&word.as_str())
        {
            return None;
        }
        v += 1;
    }
    if bares.get(v).is_some_and(|w| TYPES.contains(&w.as_str())) && v + 1 < bares.len() {
        v += 1;
    }
    let value = bares.get(v)?;
    (!NOT_VALUES.contains(&value.as_str())).then_some(v)
}

/// The byte range of the value that starts at word `v`: to the word that closes a quoted
/// value, without the quotes nor a YAML flow list's punctuation after it.
fn value_range(line: &str, words: &[Range<usize>], v: usize) -> Option<Range<usize>> {
    let first = &words[v];
    let mut last = v;
    if line[first.clone()].starts_with('"') {
        while last + 1 < words.len()
            && (line[words[last].clone()].len() < 2
                || !line[words[last].clone()]
                    .trim_end_matches([',', ']', '}'])
                    .ends_with('"'))
        {
            last += 1;
        }
    }
    let text = &line[first.start..words[last].end];
    // A YAML flow list's punctuation after it, not a placeholder's (`[PASSWORD]`, CSM).
    let inner = if text.starts_with('[') {
        text
    } else {
        text.trim_end_matches([',', ']', '}'])
    };
    let start = first.start + usize::from(inner.starts_with('"') && inner.len() > 1);
    let mut end = first.start + inner.len();
    if inner.len() > 1 && (inner.ends_with('"') || inner.ends_with('\'')) {
        end -= 1;
    }
    (end > start).then_some(start..end)
}
