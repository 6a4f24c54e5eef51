//! `extra` lines: configuration the format does not model, checked against the switch OS's
//! grammar ([`crate::targets::Rules::extra_line`]), refused when a running config would never
//! hold it or when the format writes it itself.

use super::*;

/// A switch's `extra` lines: section titles and lines on one line each, no section header
/// (`##`), and every line the grammar of the switch's OS (`os`) knows well-formed (E080 at the
/// line).
pub(crate) fn extra(
    cx: &mut Cx,
    os: crate::fabric::Os,
    raw: Option<&Entries<String, Vec<Sp<String>>>>,
) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for (title, lines) in raw.map_or(&[][..], |e| &e.0[..]) {
        let title_ok = !title.get().trim().is_empty()
            && !title.get().chars().any(char::is_control)
            && title.get().trim() == title.get();
        if !title_ok {
            let at = cx.span(title);
            cx.error(
                "E080",
                format!("`{}` is not a section title", title.get().escape_debug()),
                at,
                "as the switch prints it after `## `, e.g. `Other IP configuration`",
            );
            continue;
        }
        let mut kept = Vec::new();
        for line in lines {
            let text = line.get().trim();
            let at = cx.span(line);
            let problem = if let Some(c) = text.chars().find(|c| c.is_control()) {
                Some(format!(
                    "contains {}, which would break the line",
                    describe_char(c)
                ))
            } else if text.is_empty() {
                Some("is empty".to_string())
            } else if text.starts_with("##") {
                Some("is a section header; sections are the keys of `extra`".to_string())
            } else if let Some(why) = os.target().rules().not_configuration(text) {
                Some(why)
            } else if crate::secrets::masked_in_command(text) {
                // A line copied from masked output (a live import, a backup): pushed, it
                // would set the secret to the mask.
                Some("holds a masked secret, which a push would set as the secret; write the secret, or leave the line out (a line the fabric does not write stays as it is on the switch)".to_string())
            } else {
                os.target().rules().extra_line(text)
            };
            match problem {
                Some(p) => cx.error("E080", format!("`extra` line {p}"), at, "this line"),
                None => kept.push(text.to_string()),
            }
        }
        out.push((title.get().clone(), kept));
    }
    out
}
