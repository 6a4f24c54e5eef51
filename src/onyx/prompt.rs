//! Onyx's CLI prompt, as a session prints it and as captures keep it: `host [cluster: role] > `,
//! `… # `, `… (config …) # `. The hostname may be empty (a factory switch, an oxidized
//! capture); the cluster is `standalone` or an MLAG domain, the role `master`, `standby`, ….
//! Sessions find the end of a reply with it; the reader skips the prompt-and-command lines a
//! pasted session holds (`sw-spine-001 [standalone: master] # show run | include username`).

/// The CLI level a prompt shows.
pub use crate::device::dialect::Level;

/// A prompt read from the start of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prompt<'a> {
    /// The switch's hostname as the prompt shows it (may be empty).
    pub host: &'a str,
    pub level: Level,
    /// What follows the prompt on the line (a typed command), trimmed.
    pub rest: &'a str,
}

/// The prompt at the start of `line`, if it starts with one.
pub fn parse(line: &str) -> Option<Prompt<'_>> {
    let open = line.find('[')?;
    let host = &line[..open];
    if !(host.is_empty() || host.ends_with(' ')) || host.trim().contains(' ') {
        return None;
    }
    let close = open + line[open..].find(']')?;
    let (cluster, role) = line[open + 1..close].split_once(": ")?;
    if cluster.is_empty()
        || cluster.contains(' ')
        || role.is_empty()
        || !role.chars().all(|c| c.is_ascii_alphabetic())
    {
        return None;
    }
    let after = line[close + 1..].trim_start();
    let (mode, after) = match after.strip_prefix("(config") {
        Some(r) => {
            let end = r.find(')')?;
            (true, r[end + 1..].trim_start())
        }
        None => (false, after),
    };
    let (level, rest) = match (after.chars().next()?, mode) {
        ('>', false) => (Level::User, &after[1..]),
        ('#', false) => (Level::Enable, &after[1..]),
        ('#', true) => (Level::Config, &after[1..]),
        _ => return None,
    };
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some(Prompt {
        host: host.trim(),
        level,
        rest: rest.trim(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_as_onyx_prints_them() {
        let p =
            parse("sw-spine-001 [mlag-domain: master] # show run | include \"ip route\"").unwrap();
        assert_eq!(
            (p.host, p.level, p.rest),
            (
                "sw-spine-001",
                Level::Enable,
                "show run | include \"ip route\""
            )
        );
        let cases = [
            ("leaf01 [standalone: master] > ", Some(Level::User)),
            (" [standalone: master] > ", Some(Level::User)),
            ("MLNX01-1 [MLNX01: standby] # ", Some(Level::Enable)),
            ("sw [my-vip: master] (config) # ", Some(Level::Config)),
            (
                "sw [standalone: master] (config interface ethernet 1/1-1/4) # mtu 9216",
                Some(Level::Config),
            ),
            (
                "sw [standalone: master] (config pool roce)#",
                Some(Level::Config),
            ),
            ("   interface ethernet 1/1 # not a prompt", None),
            ("## Running database", None),
            ("lines 1-23 ", None),
            ("a b [x: y] # ", None),
            ("sw [x: y] #show", None),
        ];
        for (text, want) in cases {
            assert_eq!(parse(text).map(|p| p.level), want, "{text:?}");
        }
    }
}
