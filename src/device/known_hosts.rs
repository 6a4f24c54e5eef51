//! OpenSSH's `known_hosts`, judged the way `ssh` judges it (OpenSSH `hostfile.c` and
//! `sshconnect.c`; `man sshd`, "SSH_KNOWN_HOSTS FILE FORMAT"): markers (`@revoked`,
//! `@cert-authority`), host patterns (comma lists, `*` and `?`, negated `!pattern`, `[host]:port`),
//! hashed names (`|1|salt|hash`, HMAC-SHA1 of the name), comments, blank lines, CRLF line ends,
//! several lines for one host, and the host key algorithms to ask for.
//!
//! Input: the file's text, a name (and port) and the key a server sent. Output: a verdict, the
//! algorithms to prefer, the names a key is recorded under. Nothing here connects, writes or
//! prints.

use base64::Engine as _;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::{DecodePaddingMode, general_purpose::STANDARD};
use hmac::{KeyInit as _, Mac as _};

/// Base64 as OpenSSH reads it: padding optional.
const B64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The host key algorithms we can verify, in OpenSSH 9's default `HostKeyAlgorithms` order
/// (`ssh -G`, certificates and security keys left out: libssh2 has neither), each with the
/// key type a `known_hosts` line names it by. `ssh-rsa` (RSA with SHA-1) comes last: OpenSSH
/// no longer offers it, but older switches may offer nothing else.
const ALGORITHMS: &[(&str, &str)] = &[
    ("ssh-ed25519", "ssh-ed25519"),
    ("ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256"),
    ("ecdsa-sha2-nistp384", "ecdsa-sha2-nistp384"),
    ("ecdsa-sha2-nistp521", "ecdsa-sha2-nistp521"),
    ("rsa-sha2-512", "ssh-rsa"),
    ("rsa-sha2-256", "ssh-rsa"),
    ("ssh-rsa", "ssh-rsa"),
];

/// Key types OpenSSH reads in a `known_hosts` line (`sshkey.c`'s table); a line with another
/// type is invalid and skipped, as `ssh` skips it.
const KEY_TYPES: &[&str] = &[
    "ssh-ed25519",
    "ssh-rsa",
    "ssh-dss",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ssh-ed25519@openssh.com",
    "sk-ecdsa-sha2-nistp256@openssh.com",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    None,
    Revoked,
    CertAuthority,
}

/// One valid line.
#[derive(Clone, Debug)]
struct Entry {
    /// 1-based line number.
    line: usize,
    marker: Marker,
    hosts: String,
    key_type: String,
    /// The key blob (its first field is the type again).
    key: Vec<u8>,
}

/// A parsed `known_hosts` file.
#[derive(Clone, Debug, Default)]
pub struct KnownHosts {
    entries: Vec<Entry>,
}

/// What a `known_hosts` file says about a key sent for a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A line for the host holds this key.
    Known { line: usize },
    /// Lines for the host hold other keys and none holds this one (OpenSSH's "REMOTE HOST
    /// IDENTIFICATION HAS CHANGED"; a key of another type counts, as in `ssh`). `types` are
    /// the key types recorded for the host.
    Changed { line: usize, types: Vec<String> },
    /// The key is marked `@revoked` on a line that applies to the host.
    Revoked { line: usize },
    /// No line for the host.
    Unknown,
}

impl KnownHosts {
    /// Reads the text of a `known_hosts` file; lines OpenSSH would skip (comments, blank,
    /// malformed) are skipped.
    pub fn parse(text: &str) -> KnownHosts {
        let entries = text
            .split('\n')
            .enumerate()
            .filter_map(|(i, line)| entry(i + 1, line))
            .collect();
        KnownHosts { entries }
    }

    /// The verdict for the key `ssh -p PORT HOST` is sent, as OpenSSH reaches it: the lines
    /// for `[host]:port` (or `host` on port 22); when none applies and the port is not 22, a
    /// line for the plain `host` that holds this very key also accepts it
    /// (`sshconnect.c`: "checking without port identifier"), anything else there does not
    /// count.
    pub fn check(&self, host: &str, port: u16, key: &[u8]) -> Verdict {
        let verdict = self.check_name(&lookup_name(host, port), key);
        if verdict == Verdict::Unknown
            && port != 22
            && let found @ Verdict::Known { .. } = self.check_name(&lookup_name(host, 22), key)
        {
            return found;
        }
        verdict
    }

    /// The verdict for a switch's name as another name of the host (`leaf01,[10.0.0.1]:2201
    /// …`): its lines as `[name]:port` and as the plain `name` both count, the most telling
    /// verdict of the two (revoked, then known, then changed).
    pub fn alias(&self, name: &str, port: u16, key: &[u8]) -> Verdict {
        let both = [
            self.check_name(&lookup_name(name, port), key),
            self.check_name(&lookup_name(name, 22), key),
        ];
        let rank = |v: &Verdict| match v {
            Verdict::Revoked { .. } => 0,
            Verdict::Known { .. } => 1,
            Verdict::Changed { .. } => 2,
            Verdict::Unknown => 3,
        };
        let [a, b] = both;
        if rank(&b) < rank(&a) { b } else { a }
    }

    /// `hostfile.c`'s `check_hostkeys_by_key_or_type`: the first plain line for the name that
    /// holds the key accepts it, any other plain line for the name makes it changed; then a
    /// `@revoked` line for the name with the key overrides both.
    fn check_name(&self, name: &str, key: &[u8]) -> Verdict {
        let mut verdict = Verdict::Unknown;
        let mut types: Vec<String> = Vec::new();
        for e in self.for_name(name).filter(|e| e.marker == Marker::None) {
            if !types.contains(&e.key_type) {
                types.push(e.key_type.clone());
            }
            if e.key == key {
                verdict = Verdict::Known { line: e.line };
                break;
            }
            if verdict == Verdict::Unknown {
                verdict = Verdict::Changed {
                    line: e.line,
                    types: Vec::new(),
                };
            }
        }
        if let Some(r) = self
            .for_name(name)
            .find(|e| e.marker == Marker::Revoked && e.key == key)
        {
            return Verdict::Revoked { line: r.line };
        }
        match verdict {
            Verdict::Changed { line, .. } => Verdict::Changed { line, types },
            v => v,
        }
    }

    /// Host key algorithms to ask for, as `ssh` orders them (`sshconnect2.c`'s
    /// `order_hostkeyalgs`): those whose key type a plain line for `[host]:port` holds first,
    /// then the others, each group in the default order; so the key sent is one that can be
    /// checked whenever the switch has it.
    pub fn algorithms(&self, host: &str, port: u16) -> Vec<&'static str> {
        let name = lookup_name(host, port);
        let known: Vec<&str> = self
            .for_name(&name)
            .filter(|e| e.marker == Marker::None)
            .map(|e| e.key_type.as_str())
            .collect();
        let (mut first, rest): (Vec<_>, Vec<_>) =
            ALGORITHMS.iter().partition(|(_, ty)| known.contains(ty));
        first.extend(rest);
        first.into_iter().map(|(alg, _)| alg).collect()
    }

    /// Of `names`, those a plain line holding this key applies to (as `ssh -p PORT NAME`
    /// would look them up): the switches this key is recorded for. Only the lines holding the
    /// key are matched against the names, so a thousand names cost a thousand matches.
    pub fn names_of<'n>(&self, key: &[u8], port: u16, names: &'n [String]) -> Vec<&'n str> {
        let lines: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| e.marker == Marker::None && e.key == key)
            .collect();
        names
            .iter()
            .filter(|n| {
                let (with_port, plain) = (lookup_name(n, port), lookup_name(n, 22));
                lines
                    .iter()
                    .any(|e| host_matches(&e.hosts, &with_port) || host_matches(&e.hosts, &plain))
            })
            .map(String::as_str)
            .collect()
    }

    fn for_name<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Entry> + 'a {
        self.entries
            .iter()
            .filter(move |e| e.marker != Marker::CertAuthority && host_matches(&e.hosts, name))
    }
}

/// The name a host is looked up by: `host` on port 22, else `[host]:port`; lowercase, as
/// OpenSSH lowercases it.
pub fn lookup_name(host: &str, port: u16) -> String {
    let host = host.to_ascii_lowercase();
    if port == 22 {
        host
    } else {
        format!("[{host}]:{port}")
    }
}

/// A line to append for a key: the names (each as [`lookup_name`] writes it), the key type and
/// the key, as OpenSSH writes one (`hostfile.c`'s `write_host_entry`).
pub fn line(names: &[String], key: &[u8]) -> Option<String> {
    let ty = key_type(key)?;
    Some(format!(
        "{} {ty} {}\n",
        names.join(","),
        STANDARD.encode(key)
    ))
}

/// The type a key blob names in its first field.
pub fn key_type(blob: &[u8]) -> Option<&str> {
    let len = u32::from_be_bytes(blob.get(..4)?.try_into().ok()?) as usize;
    std::str::from_utf8(blob.get(4..4 + len)?).ok()
}

/// One line, as `hostfile.c`'s `hostkeys_foreach_file` reads it; `None` for comments, blank
/// and invalid lines.
fn entry(number: usize, line: &str) -> Option<Entry> {
    // OpenSSH cuts only the `\n`; a `\r` left at the end is whitespace to its base64 reader.
    let line = line.trim_end_matches(['\r', ' ', '\t']);
    let mut rest = line.trim_start_matches([' ', '\t']);
    if rest.is_empty() || rest.starts_with('#') {
        return None;
    }
    let mut marker = Marker::None;
    if let Some(m) = rest.strip_prefix('@') {
        let (word, after) = m.split_once([' ', '\t'])?;
        marker = match word {
            "cert-authority" => Marker::CertAuthority,
            "revoked" => Marker::Revoked,
            _ => return None,
        };
        rest = after.trim_start_matches([' ', '\t']);
        if rest.starts_with('@') {
            // Only one marker is allowed.
            return None;
        }
    }
    let mut fields = rest.split([' ', '\t']).filter(|f| !f.is_empty());
    let hosts = fields.next()?;
    let ty = fields.next()?;
    let b64 = fields.next()?.trim_end_matches('\r');
    if !KEY_TYPES.contains(&ty) {
        return None;
    }
    let key = B64.decode(b64).ok()?;
    // `sshkey_read`: the blob must be of the type the line says.
    if key_type(&key)? != ty {
        return None;
    }
    if hosts.starts_with('|') && hashed(hosts).is_none() {
        return None;
    }
    Some(Entry {
        line: number,
        marker,
        hosts: hosts.to_string(),
        key_type: ty.to_string(),
        key,
    })
}

/// `|1|salt|hash`: the salt and the HMAC-SHA1 it should give.
fn hashed(field: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let rest = field.strip_prefix("|1|")?;
    let (salt, hash) = rest.split_once('|')?;
    let (salt, hash) = (STANDARD.decode(salt).ok()?, STANDARD.decode(hash).ok()?);
    (salt.len() == 20 && hash.len() == 20).then_some((salt, hash))
}

/// Whether a line's host field applies to a name (`hostfile.c`'s `match_maybe_hashed`): a
/// hashed field is the HMAC of the name; a pattern list applies when a pattern matches and no
/// negated one does (`match.c`'s `match_pattern_list`, case-insensitive).
fn host_matches(field: &str, name: &str) -> bool {
    if field.starts_with('|') {
        let Some((salt, hash)) = hashed(field) else {
            return false;
        };
        let Ok(mut mac) = hmac::Hmac::<sha1::Sha1>::new_from_slice(&salt) else {
            return false;
        };
        mac.update(name.as_bytes());
        return mac.verify_slice(&hash).is_ok();
    }
    let mut positive = false;
    for pattern in field.split(',') {
        let (negated, pattern) = match pattern.strip_prefix('!') {
            Some(p) => (true, p),
            None => (false, pattern),
        };
        if glob(&pattern.to_ascii_lowercase(), name) {
            if negated {
                return false;
            }
            positive = true;
        }
    }
    positive
}

/// `match.c`'s `match_pattern`: `*` any run of characters, `?` one character.
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some(b'*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some(&c) if c == b'?' || c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A blob of type `ty` with `body` as its key material.
    fn blob(ty: &str, body: &[u8]) -> Vec<u8> {
        let mut b = (ty.len() as u32).to_be_bytes().to_vec();
        b.extend_from_slice(ty.as_bytes());
        b.extend_from_slice(body);
        b
    }

    fn kh(lines: &[String]) -> KnownHosts {
        KnownHosts::parse(&lines.join("\n"))
    }

    fn l(hosts: &str, key: &[u8]) -> String {
        format!(
            "{hosts} {} {}",
            key_type(key).unwrap(),
            STANDARD.encode(key)
        )
    }

    #[test]
    fn globs_as_openssh_matches_them() {
        for (p, t, want) in [
            ("*", "", true),
            ("*", "leaf01", true),
            ("leaf??", "leaf01", true),
            ("leaf?", "leaf01", false),
            ("[127.0.0.1]:*", "[127.0.0.1]:2201", true),
            ("*.example.com", "a.example.com", true),
            ("*.example.com", "example.com", false),
            ("a*b*c", "aXXbYYc", true),
            ("a*b*c", "aXXbYY", false),
        ] {
            assert_eq!(glob(p, t), want, "{p} {t}");
        }
    }

    #[test]
    fn verdicts_case_by_case() {
        let ed = blob("ssh-ed25519", b"one");
        let ed2 = blob("ssh-ed25519", b"two");
        let rsa = blob("ssh-rsa", b"rsa");
        let name = "[127.0.0.1]:2201";
        let k = kh(&[l(name, &ed)]);
        assert_eq!(k.check("127.0.0.1", 2201, &ed), Verdict::Known { line: 1 });
        assert!(matches!(
            k.check("127.0.0.1", 2201, &ed2),
            Verdict::Changed { .. }
        ));
        assert_eq!(k.check("127.0.0.1", 2202, &ed), Verdict::Unknown);
        // Another type recorded: changed, saying which type is known.
        let k = kh(&[l(name, &rsa)]);
        assert_eq!(
            k.check("127.0.0.1", 2201, &ed),
            Verdict::Changed {
                line: 1,
                types: vec!["ssh-rsa".into()]
            }
        );
        // Several lines: one holding the key is enough.
        let k = kh(&[l(name, &ed2), l(name, &ed)]);
        assert_eq!(k.check("127.0.0.1", 2201, &ed), Verdict::Known { line: 2 });
        // Revoked wins.
        let k = kh(&[l(name, &ed), format!("@revoked {}", l("*", &ed))]);
        assert_eq!(
            k.check("127.0.0.1", 2201, &ed),
            Verdict::Revoked { line: 2 }
        );
        // A CA line is not a host key.
        let k = kh(&[format!("@cert-authority {}", l(name, &ed))]);
        assert_eq!(k.check("127.0.0.1", 2201, &ed), Verdict::Unknown);
        // Negation: the line does not apply at all.
        let k = kh(&[l("!*:2201,[127.0.0.1]:*", &ed)]);
        assert_eq!(k.check("127.0.0.1", 2201, &ed), Verdict::Unknown);
        // The plain host accepts the same key on another port, and nothing else.
        let k = kh(&[l("127.0.0.1", &ed)]);
        assert_eq!(k.check("127.0.0.1", 2201, &ed), Verdict::Known { line: 1 });
        assert_eq!(k.check("127.0.0.1", 2201, &ed2), Verdict::Unknown);
        // CRLF, comments, blank lines, a bad key, a type that does not match its blob.
        let text = format!(
            "# comment\n\n  {}\r\n{name} ssh-ed25519 AAAA@@\n{name} ssh-rsa {}\n",
            l(name, &ed),
            STANDARD.encode(&ed2)
        );
        let k = KnownHosts::parse(&text);
        assert_eq!(k.check("127.0.0.1", 2201, &ed), Verdict::Known { line: 3 });
        assert_eq!(k.entries.len(), 1);
    }

    #[test]
    fn hashed_names_are_hmac_sha1_of_the_name() {
        // `ssh-keygen -H` on `[127.0.0.1]:2201 …` with this salt.
        let salt = [7u8; 20];
        let mut mac = hmac::Hmac::<sha1::Sha1>::new_from_slice(&salt).unwrap();
        mac.update(b"[127.0.0.1]:2201");
        let hash = mac.finalize().into_bytes();
        let field = format!("|1|{}|{}", STANDARD.encode(salt), STANDARD.encode(hash));
        let ed = blob("ssh-ed25519", b"one");
        let k = kh(&[l(&field, &ed)]);
        assert_eq!(k.check("127.0.0.1", 2201, &ed), Verdict::Known { line: 1 });
        assert_eq!(k.check("127.0.0.1", 2202, &ed), Verdict::Unknown);
    }

    #[test]
    fn algorithms_put_the_known_types_first() {
        let rsa = blob("ssh-rsa", b"rsa");
        let k = kh(&[l("[h]:2", &rsa)]);
        assert_eq!(
            k.algorithms("h", 2)[..4],
            ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa", "ssh-ed25519"]
        );
        assert_eq!(k.algorithms("other", 2)[0], "ssh-ed25519");
        // A revoked key's type is not preferred.
        let k = kh(&[format!("@revoked {}", l("[h]:2", &rsa))]);
        assert_eq!(k.algorithms("h", 2)[0], "ssh-ed25519");
    }

    #[test]
    fn names_a_key_is_recorded_for() {
        let a = blob("ssh-ed25519", b"a");
        let b = blob("ssh-ed25519", b"b");
        let k = kh(&[l("leafa,[127.0.0.1]:2201", &a), l("leafb", &b)]);
        let names = vec!["leafa".to_string(), "leafb".to_string()];
        assert_eq!(k.names_of(&b, 2202, &names), ["leafb"]);
        assert_eq!(k.names_of(&a, 2201, &names), ["leafa"]);
        assert!(
            k.names_of(&blob("ssh-ed25519", b"c"), 22, &names)
                .is_empty()
        );
        assert_eq!(
            line(&["leafa".into(), "[::1]:2201".into()], &a).unwrap(),
            format!("leafa,[::1]:2201 ssh-ed25519 {}\n", STANDARD.encode(&a))
        );
    }
}
