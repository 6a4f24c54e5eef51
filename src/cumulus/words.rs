//! The tree's names and values ([`Word`]): a compact string (`compact_str`), so that a name
//! costs no allocation — a text of up to 24 bytes kept inline (every NVUE object and
//! attribute name, port names, numbers, most descriptions), a longer static text kept by
//! reference, only a longer one made at run time on the heap.

use std::{borrow::Borrow, cmp::Ordering, fmt, ops::Deref};

use compact_str::CompactString;

/// A name or value of the tree.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Word(CompactString);

const _: () = assert!(std::mem::size_of::<Word>() == 24);

impl Word {
    /// `prefix` and the digits of `n`, then, with `then`, its text and number (`swp12s3`),
    /// written without the formatting machinery (inline, as short as they are).
    pub fn numbered(prefix: &str, n: u64, then: Option<(&str, u64)>) -> Word {
        // Written into a buffer of an inline word's size, made a word once; a longer one
        // the slow way.
        let mut buf = [0u8; 24];
        let mut at = 0;
        let mut put = |bytes: &[u8]| {
            let end = at + bytes.len();
            let fits = end <= buf.len();
            if fits {
                buf[at..end].copy_from_slice(bytes);
            }
            at = end;
            fits
        };
        let mut digits = [0u8; 20];
        let fits = put(prefix.as_bytes())
            && put(digits_of(n, &mut digits))
            && then.is_none_or(|(text, m)| put(text.as_bytes()) && put(digits_of(m, &mut digits)));
        if !fits {
            let mut out = String::from(prefix);
            out.push_str(&n.to_string());
            if let Some((text, m)) = then {
                out.push_str(text);
                out.push_str(&m.to_string());
            }
            return owned(out);
        }
        let text = std::str::from_utf8(&buf[..at]).expect("texts and digits");
        Word(CompactString::new(text))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

/// The decimal digits of `n`, written at the end of `buf`.
fn digits_of(n: u64, buf: &mut [u8; 20]) -> &[u8] {
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
    &buf[at..]
}

/// Two texts in NVUE's order: byte by byte, as `str`'s order is. Written out: most names
/// are a few bytes, which a loop compares sooner than a call to `memcmp`.
pub fn order(a: &str, b: &str) -> Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

impl Ord for Word {
    fn cmp(&self, other: &Word) -> Ordering {
        order(self, other)
    }
}

impl PartialOrd for Word {
    fn partial_cmp(&self, other: &Word) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A text read or built, as a word.
pub fn word(s: &str) -> Word {
    Word(CompactString::new(s))
}

/// A text owned, as a word: inline when it fits (its buffer freed), else its buffer kept.
pub fn owned(s: String) -> Word {
    Word(CompactString::from(s))
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

/// A static text: a short one inline, a longer one kept as it is (no copy).
impl From<&'static str> for Word {
    fn from(s: &'static str) -> Word {
        // `const_new` writes a short text byte by byte, which is slow to move after (a
        // word built at run time, not in a constant): `new` builds it in three words.
        match s.len() <= std::mem::size_of::<Word>() {
            true => word(s),
            false => Word(CompactString::const_new(s)),
        }
    }
}

/// [`owned`].
impl From<String> for Word {
    fn from(s: String) -> Word {
        owned(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_as_their_text() {
        assert_eq!(word("interface"), "interface");
        assert!(!word("swp1").0.is_heap_allocated());
        assert_eq!(owned("mtu".to_string()), "mtu");
        let long = "a description longer than 24 bytes, é";
        for w in [word(long), owned(long.to_string()), Word::from(long)] {
            assert_eq!(w, long);
        }
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
        // Ordered as their texts are.
        let mut ws = [word("swp10"), word("swp1"), Word::from("swp2"), word("")];
        ws.sort();
        let texts: Vec<&str> = ws.iter().map(Word::as_str).collect();
        assert_eq!(texts, ["", "swp1", "swp10", "swp2"]);
        let texts = [
            "", "a", "ab", "b", "swp1", "swp1s0", "é", "Z", "\u{7f}", "aé", "a\u{7f}",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(order(a, b), a.cmp(b), "{a:?} {b:?}");
                assert_eq!(word(a).cmp(&word(b)), a.cmp(b));
            }
        }
    }
}
