//! What a text is: an OS10 configuration at all ([`looks_os10`]), a line an OS10 prompt with
//! the command typed after it (a captured session's).

/// Whether a top-level line is an OS10 prompt with a command (`OS10# show running-…`,
/// `sw-leaf-bmc-001(config)# …`): a hostname, an optional `(mode)`, `#`, a space.
pub(super) fn is_prompt(line: &str) -> bool {
    prompt(line).is_some_and(|(_, rest)| !rest.is_empty())
}

/// The OS10 prompt at the start of a line: whether it shows a mode (`(config)`), and what
/// follows it, trimmed (the typed command; empty for a lone prompt, `OS10#`).
fn prompt(line: &str) -> Option<(bool, &str)> {
    let (head, rest) = line.split_once('#')?;
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let (host, mode) = match head.split_once('(') {
        Some((h, mode)) => {
            if !mode.ends_with(')') || mode.contains(' ') {
                return None;
            }
            (h, true)
        }
        None => (head, false),
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    host_ok.then(|| (mode, rest.trim()))
}

/// The prompt of a saved exec-mode session (`HOST# show running-configuration`, a lone
/// `HOST#` after it): what follows it.
pub(super) fn exec_prompt(line: &str) -> Option<&str> {
    prompt(line).filter(|(mode, _)| !mode).map(|(_, rest)| rest)
}

/// Whether a text is an OS10 `show running-configuration`: it opens with `! Version 10.…`,
/// or names an interface with its number glued on (`interface ethernet1/1/N`, `interface
/// vlan2000`, `interface mgmt1/1/1`: the captures in `tests/fixtures/corpus/os10/`). Onyx
/// prints neither (`interface ethernet 1/N`, `interface vlan 10`: a space), but its management
/// port's number is glued on too (`interface mgmt0 ip address …`), so only OS10's
/// `mgmt1/…` counts.
pub fn looks_os10(text: &str) -> bool {
    let says = |l: &str| {
        let l = l.trim_end();
        l.starts_with("! Version 10.")
            || l.strip_prefix("interface ").is_some_and(|name| {
                ["ethernet", "vlan", "port-channel", "loopback", "mgmt1/"]
                    .iter()
                    .any(|k| {
                        name.strip_prefix(k)
                            .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
                    })
            })
    };
    // Only a line starting with `!` or `i` can say so: the others are passed over by their
    // first byte (the whole of an Onyx config is looked through before it is read as one).
    let b = text.as_bytes();
    std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', b).map(|nl| nl + 1))
        .filter(|&start| matches!(b.get(start), Some(b'!' | b'i')))
        .any(|start| {
            let end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |n| start + n);
            says(&text[start..end])
        })
}
