//! Keyword abbreviations on OS10, as automation types them (`conf t`, `show run`, `copy run
//! start`, `wr mem`, `term len 0`): a word that begins exactly one keyword where it stands is
//! that keyword; when it begins several, the next word decides (`conf t`: only `configure`
//! takes a word like `t`). Other words (names, numbers, `ethernet1/1/1`) are kept as typed.
//! Taken at the `#` prompt, at `(config)#`, and after `do` anywhere; inside a block the
//! block's own keywords are not expanded (a prefix there may mean another command: `desc`).
//! The keywords are those of the commands the lab takes; the rule is the IOS-like CLIs',
//! UNCONFIRMED on OS10 by a capture (the issue's clients rely on it).

/// The keywords that may follow a keyword (or start a line, after `""`).
const KEYWORDS: &[(&str, &[&str])] = &[
    (
        "",
        &[
            "commit",
            "configure",
            "copy",
            "delete",
            "dir",
            "discard",
            "do",
            "end",
            "exit",
            "hostname",
            "interface",
            "no",
            "router",
            "show",
            "start",
            "terminal",
            "write",
        ],
    ),
    ("configure", &["terminal"]),
    ("terminal", &["length"]),
    ("write", &["memory"]),
    ("start", &["transaction"]),
    ("copy", &["running-configuration", "startup-configuration"]),
    (
        "running-configuration",
        &["interface", "startup-configuration"],
    ),
    (
        "show",
        &[
            "file",
            "interface",
            "inventory",
            "ip",
            "lldp",
            "port-group",
            "processes",
            "running-configuration",
            "startup-configuration",
            "system",
            "users",
            "version",
            "vlt",
        ],
    ),
    ("ip", &["bgp", "interface", "route"]),
    ("bgp", &["summary"]),
    ("lldp", &["neighbors"]),
    (
        "interface",
        &[
            "brief",
            "ethernet",
            "loopback",
            "mgmt",
            "port-channel",
            "status",
            "vlan",
        ],
    ),
];

fn follows(word: &str) -> &'static [&'static str] {
    KEYWORDS
        .iter()
        .find(|(k, _)| *k == word)
        .map_or(&[], |(_, v)| *v)
}

/// `line` with its abbreviated keywords written out; `top`: typed at the `#` prompt or at
/// `(config)#` (elsewhere only what follows `do` is expanded).
pub fn expand(line: &str, top: bool) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() || (!top && words[0] != "do") {
        return line.to_string();
    }
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (i, &word) in words.iter().enumerate() {
        let prev = out.last().map_or("", String::as_str);
        let candidates = if prev == "do" {
            follows("")
        } else {
            follows(prev)
        };
        let keyword = !word.is_empty()
            && !word.starts_with(|c: char| c.is_ascii_digit())
            && !word.contains('/')
            && !candidates.contains(&word);
        if !keyword {
            out.push(word.to_string());
            continue;
        }
        let mut matching: Vec<&str> = candidates
            .iter()
            .copied()
            .filter(|c| c.starts_with(word))
            .collect();
        if matching.len() > 1
            && let Some(next) = words.get(i + 1)
        {
            matching.retain(|c| follows(c).iter().any(|f| f.starts_with(next)));
        }
        match matching[..] {
            [one] => out.push(one.to_string()),
            _ => out.push(word.to_string()),
        }
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn what_clients_type_is_written_out() {
        assert_eq!(expand("conf t", true), "configure terminal");
        assert_eq!(expand("show run", true), "show running-configuration");
        assert_eq!(
            expand("copy run start", true),
            "copy running-configuration startup-configuration"
        );
        assert_eq!(expand("wr mem", true), "write memory");
        assert_eq!(expand("term len 0", true), "terminal length 0");
        assert_eq!(expand("sh ip int br", true), "show ip interface brief");
        assert_eq!(expand("int ethernet1/1/1", true), "interface ethernet1/1/1");
        // A block's own keywords are left to its grammar; `do` is expanded anywhere.
        assert_eq!(expand("desc uplink", false), "desc uplink");
        assert_eq!(expand("do sh run", false), "do show running-configuration");
        // Ambiguous, and not settled by the next word: left as typed (then refused).
        assert_eq!(expand("co", true), "co");
    }
}
