//! What `fabric import` writes reads the same in every YAML reader, 1.1 (PyYAML, Ansible) and
//! 1.2 (ours) alike. YAML 1.1 breaks a line at CR, NEL (U+0085), LS (U+2028) and PS (U+2029)
//! (YAML 1.1 §5.4 [24]-[27]), where YAML 1.2 reads NEL, LS and PS as text (YAML 1.2.2 §5.4);
//! both forbid C0 and C1 controls but tab and line feed, U+FFFE and U+FFFF (§5.1 [1]), and
//! 1.2 a BOM inside the stream (§5.2). A value holding one is written double-quoted with an
//! escape by the serializer; a comment cannot escape, so its text spells such a character
//! out (`<U+2028>`). Before anything is written, the whole text is checked for a raw one.

/// A character some YAML reader reads as a line break or refuses in a stream's text.
fn unsafe_char(c: char) -> bool {
    match c {
        '\t' | '\n' => false,
        '\u{2028}' | '\u{2029}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}' => true,
        // C0 controls (CR among them), DEL and C1 controls (NEL among them).
        c => c.is_control(),
    }
}

/// `text` fit for a YAML comment: every character [`unsafe_char`] names, and a tab (which a
/// reader takes, but a reader of the file does not see), is spelled `<U+XXXX>`.
pub(super) fn comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if unsafe_char(c) || c == '\t' {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// The written text holds no raw character [`unsafe_char`] names: else where the first is.
pub(super) fn check(text: &str) -> Result<(), String> {
    for (n, line) in text.split('\n').enumerate() {
        if let Some((col, c)) = line.char_indices().find(|(_, c)| unsafe_char(*c)) {
            let col = line[..col].chars().count() + 1;
            return Err(format!(
                "the fabric file would hold U+{:04X} at line {}, column {col}, which YAML 1.1 and 1.2 readers read differently; nothing written",
                u32::from(c),
                n + 1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_spells_out_what_a_reader_would_break_at() {
        assert_eq!(
            comment("a\u{2028}b\u{2029}c\u{85}d\re\u{feff}f\u{1b}g\u{9b}h\ti é"),
            "a<U+2028>b<U+2029>c<U+0085>d<U+000D>e<U+FEFF>f<U+001B>g<U+009B>h<U+0009>i é"
        );
    }

    #[test]
    fn a_raw_break_in_the_written_text_is_refused_at_its_place() {
        assert!(check("a: 1\n# é\tx\n").is_ok());
        let e = check("a: 1\n# xé\u{2028}mgmt: y\n").unwrap_err();
        assert!(e.contains("U+2028 at line 2, column 5"), "{e}");
        assert!(check("a: \"\u{85}\"\n").is_err());
        assert!(check("\r\n").is_err());
    }
}
