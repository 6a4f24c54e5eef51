//! What every OS's readers of replies share: a reply's start as an error shows it, the
//! switch's error line, `key : value` fields, speeds.

/// The start of a reply, to show in an error: its first line, at most 60 characters, with
/// control characters escaped (a reply is the switch's text: printed raw, an escape
/// sequence in it would drive the terminal).
pub fn head(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or("");
    let mut out: String = line
        .chars()
        .take(60)
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect();
    if line.chars().count() > 60 {
        out.push('…');
    }
    out
}

/// The first line of a reply that is a switch's error (`% Unrecognized command "lldp".`).
pub fn error_line(text: &str) -> Option<String> {
    text.lines()
        .map(str::trim)
        .find(|l| l.starts_with('%'))
        .map(|l| format!("the switch answered `{}`", head(l)))
}

/// A speed as switches print it, in Gb/s: `100 Gbps` (Onyx `show interfaces ethernet |
/// json-print`), `25G` (Onyx `show interfaces ethernet status`, text; OS10 `show interface
/// status`), `1000Mb/s (auto)` (a management port).
pub fn gbps(text: &str) -> Option<u32> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let n: u32 = t[..digits].parse().ok()?;
    let unit = t[digits..].trim_start();
    if unit.starts_with('G') {
        Some(n)
    } else if unit.starts_with("Mb") && n.is_multiple_of(1000) {
        Some(n / 1000)
    } else {
        None
    }
}

/// `key : value` of a line (`local AS number           : 65533`).
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let (k, v) = line.split_once(':')?;
    (k.trim() == key).then(|| v.trim())
}
