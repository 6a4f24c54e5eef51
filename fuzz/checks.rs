//! What each fuzz target checks, one function per target (`fuzz_targets/NAME.rs` calls
//! `NAME`): each panics on a broken property. `cargo test` replays every file under
//! `regressions/NAME/` through the same function (tests/parse.rs), so a crash the fuzzer found
//! stays fixed.

use std::path::Path;

/// Any bytes as an Onyx running-config: a config or a located error, never a panic; a config
/// it returns prints, and its canonical text is a fixed point (printed again after reading
/// back, it is the same text and the same model).
pub fn parse_running_config(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(config) = fabric::onyx::parse(&text) {
        let renderer = fabric::onyx::Renderer::embedded().expect("templates");
        let once = renderer.render(&config).expect("a parsed config renders");
        let back = fabric::onyx::parse(&once).expect("canonical text parses");
        let twice = renderer.render(&back).expect("renders again");
        assert_eq!(once, twice);
        assert_eq!(
            fabric::onyx::parse(&twice).expect("parses again"),
            back,
            "{twice}"
        );
    }
}

/// Any bytes as an OS10 running-configuration: the same promise as Onyx's.
pub fn parse_os10(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(config) = fabric::os10::parse(&text) {
        let renderer = fabric::os10::Renderer::embedded().expect("templates");
        let once = renderer.render(&config).expect("a parsed config renders");
        let back = fabric::os10::parse(&once).expect("canonical text parses");
        let twice = renderer.render(&back).expect("renders again");
        assert_eq!(once, twice);
        assert_eq!(
            fabric::os10::parse(&twice).expect("parses again"),
            back,
            "{twice}"
        );
    }
}

/// Any bytes as a Cumulus NVUE configuration (`nv config show` YAML, `startup.yaml`, or `nv
/// set` lines): a configuration or an error on a line of the text, never a panic; a
/// configuration it returns prints, and its text is a fixed point (read back: the same tree;
/// printed again: the same text).
pub fn parse_nvue(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // The fast reading of NVUE's own shape agrees with the YAML parser wherever it reads.
    if let Some(fast) = fabric::cumulus::fast::parse(&text) {
        let events = fabric::cumulus::tree::parse_events(&text);
        assert_eq!(events.as_ref().ok(), Some(&fast), "{events:?}");
    }
    match fabric::cumulus::Config::parse(&text) {
        Ok(config) => {
            let once = config.text();
            let back = fabric::cumulus::Config::parse(&once).expect("the printed text parses");
            assert_eq!(back, config, "{once}");
            assert_eq!(back.text(), once);
        }
        Err(e) => {
            let lines = text.lines().count().max(1);
            assert!(
                (1..=lines + 1).contains(&e.line),
                "line {} of {lines}",
                e.line
            );
        }
    }
}

/// Any bytes as a fabric file: a located diagnostic or a fabric, never a panic.
pub fn load_fabric(data: &[u8]) {
    let mut sources = fabric::diag::Sources::default();
    match fabric::fabric::parse_bytes("fuzz.yaml", data.to_vec(), &mut sources) {
        Ok(loaded) => {
            let (fabric, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
            let _ = fabric::diag::render(&diags, &sources, false);
            if let Some(f) = fabric {
                let _ = fabric::compile::compile(&f);
            }
        }
        Err(d) => {
            let _ = fabric::diag::render(&[d], &sources, false);
        }
    }
}

/// Any bytes as a host report, as `fabric hosts --audit` reads one: a report or an error on a
/// line of the text (or the line after its last, for a truncated report), never a panic.
pub fn host_report(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Err(e) = fabric::hosts::report::parse(&text) {
        let lines = text.lines().count();
        assert!(
            (1..=lines + 1).contains(&e.line),
            "line {} of {lines}: {}",
            e.line,
            e.message
        );
    }
}

/// Any bytes as an OpenSSH client config file: a config or an error, never a panic; a config
/// it returns answers where a switch is (a target or an error) without a panic either, for
/// the hosts its own `Host` lines name.
pub fn ssh_config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(config) = fabric::device::ssh_config::SshConfig::parse(Path::new("fuzz"), text) {
        let named = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("Host "))
            .flat_map(str::split_whitespace);
        for host in named.chain(["leaf01", "127.0.0.1"]).take(16) {
            let _ = config.target("sw", host, None, None);
            let _ = config.target("sw", host, Some(2222), Some("admin"));
        }
    }
}
