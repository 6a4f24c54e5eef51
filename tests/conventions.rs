//! The command line's conventions: shell completions sourced by a real `bash`, the man pages
//! (rendered by `groff` where it is installed), every subcommand's `--help` example parsed by
//! the CLI's own parser, help wrapped to the terminal, and `fabric explain` covering every
//! diagnostic code emitted in `src/`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use fabric::cli::manual;

fn fabric_bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_fabric"))
}

/// The subcommands' names, from the CLI itself.
fn subcommands() -> Vec<String> {
    manual::command()
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .filter(|n| n != "help")
        .collect()
}

/// Runs `bash` (no rc files) on a script; its standard output.
fn bash(script: &str) -> String {
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", script])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The bash script, sourced by a real bash: `complete -p fabric` shows it registered, and its
/// function, driven as bash drives it (COMP_WORDS, COMP_CWORD), completes subcommand prefixes
/// and options.
#[test]
fn bash_completion_is_registered_and_completes() {
    let dir = crate::scratch("completions");
    let (code, script) = crate::run(fabric_bin().args(["completions", "bash"]));
    assert_eq!(code, 0, "{script}");
    let file = dir.join("fabric.bash");
    std::fs::write(&file, &script).unwrap();
    let registered = bash(&format!("source {}; complete -p fabric", file.display()));
    assert!(registered.trim_end().ends_with(" fabric"), "{registered}");
    let function = registered
        .split_whitespace()
        .skip_while(|w| *w != "-F")
        .nth(1)
        .expect("a completion function")
        .to_string();
    // Each line typed so far, and the word being completed is the last one.
    let complete = |words: &[&str]| -> BTreeSet<String> {
        let line = words.join(" ");
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let script = format!(
            "source {file}; COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE='{line}'; \
             COMP_POINT=${{#COMP_LINE}}; {function} fabric '{cur}' '{prev}'; \
             printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            file = file.display(),
            words = quoted.join(" "),
            cword = words.len() - 1,
            cur = words[words.len() - 1],
            prev = words[words.len() - 2],
        );
        bash(&script)
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    let got = complete(&["fabric", "comp"]);
    assert_eq!(
        got,
        BTreeSet::from(["compile".to_string(), "completions".to_string()])
    );
    assert_eq!(
        complete(&["fabric", "val"]),
        BTreeSet::from(["validate".to_string()])
    );
    let all = complete(&["fabric", ""]);
    for sub in subcommands() {
        assert!(all.contains(&sub), "`{sub}` is not offered: {all:?}");
    }
    assert!(complete(&["fabric", "diff", "--form"]).contains("--format"));
    assert!(complete(&["fabric", "diff", "--ssh"]).contains("--ssh-config"));
    let shells = complete(&["fabric", "completions", ""]);
    for shell in ["bash", "zsh", "fish", "powershell"] {
        assert!(shells.contains(shell), "{shells:?}");
    }
}

/// Every shell's script names every subcommand; an unknown shell is a usage error.
#[test]
fn completions_for_every_shell() {
    for (shell, marker) in [
        ("zsh", "#compdef fabric"),
        ("fish", "complete -c fabric"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let (code, script) = crate::run(fabric_bin().args(["completions", shell]));
        assert_eq!(code, 0, "{script}");
        assert!(script.contains(marker), "{shell}: {script}");
        for sub in subcommands() {
            assert!(script.contains(&sub), "{shell} lacks `{sub}`");
        }
    }
    let (code, out) = crate::run(fabric_bin().args(["completions", "tcsh"]));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("invalid value 'tcsh'"), "{out}");
}

/// Whether `groff` is installed (Debian's `groff-base`, which `man` needs).
fn groff() -> bool {
    Command::new("groff").arg("--version").output().is_ok()
}

/// Renders a page with `groff` as `man` does (`-k`: UTF-8 input through preconv), every
/// warning on: its warnings (none is expected).
fn groff_warnings(page: &Path) -> String {
    let out = Command::new("groff")
        .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
        .arg(page)
        .output()
        .expect("groff runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `fabric man` prints one roff page naming every subcommand; `--out DIR` writes a page per
/// command, each with its examples; `groff` renders them all without a warning (when groff
/// is installed: the test says so when it is not).
#[test]
fn man_pages_name_every_subcommand_and_render_cleanly() {
    let (code, page) = crate::run(fabric_bin().arg("man"));
    assert_eq!(code, 0, "{page}");
    assert!(page.starts_with(".ie \\n(.g .ds Aq"), "not roff: {page}");
    assert!(page.contains(".TH fabric 1"), "{page}");
    for sub in subcommands() {
        assert!(page.contains(&format!("fabric\\-{sub}(1)")), "no `{sub}`");
    }
    let dir = crate::scratch("man");
    let (code, out) = crate::run(fabric_bin().arg("man").arg("--out").arg(&dir));
    assert_eq!(code, 0, "{out}");
    std::fs::write(dir.join("stdout.1"), &page).unwrap();
    let mut pages = vec![dir.join("fabric.1"), dir.join("stdout.1")];
    for sub in subcommands() {
        let file = dir.join(format!("fabric-{sub}.1"));
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains(".SH EXAMPLES"), "{sub}: {text}");
        assert!(text.contains(&format!("$ fabric {sub}")), "{sub}: {text}");
        pages.push(file);
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), pages.len());
    if !groff() {
        eprintln!("groff is not installed: the man pages' rendering is not checked");
        return;
    }
    for p in &pages {
        assert_eq!(groff_warnings(p), "", "{}", p.display());
    }
}

/// Every subcommand's `--help` ends with an example, and every example parses with the CLI's
/// own parser, so an example cannot outlive an option it uses.
#[test]
fn every_subcommand_has_an_example_that_parses() {
    let mut parsed = 0;
    for sub in subcommands() {
        let help = manual::command()
            .try_get_matches_from(["fabric", &sub, "--help"])
            .expect_err("--help ends the parse")
            .to_string();
        assert!(
            help.contains(&format!("\n{}\n", manual::EXAMPLES_HEADING)),
            "`fabric {sub} --help` has no examples:\n{help}"
        );
        let examples = manual::example_commands(&help);
        assert!(!examples.is_empty(), "{sub}: {help}");
        for words in examples {
            assert_eq!(words[..2], ["fabric", sub.as_str()], "{words:?}");
            if let Err(e) = manual::command().try_get_matches_from(&words) {
                panic!("`{}` does not parse: {e}", words.join(" "));
            }
            parsed += 1;
        }
    }
    assert!(parsed >= subcommands().len());
    // The check itself can fail: an example with an option that does not exist.
    let stale = manual::example_commands("Examples:\n  $ fabric diff x --no-such-flag\n");
    assert!(manual::command().try_get_matches_from(&stale[0]).is_err());
}

/// Help is wrapped to the terminal's width (`COLUMNS` where there is no terminal).
#[test]
fn help_wraps_to_the_terminal() {
    let help = |columns: &str| {
        let (code, out) = crate::run(
            fabric_bin()
                .args(["push", "--help"])
                .env("COLUMNS", columns),
        );
        assert_eq!(code, 0, "{out}");
        out
    };
    let narrow = help("60");
    let widest = narrow.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 60, "a line of {widest} columns:\n{narrow}");
    let wide = help("200");
    assert!(wide.lines().any(|l| l.chars().count() > 100), "{wide}");
    assert!(wide.lines().count() < narrow.lines().count());
}

/// The codes a diagnostic is made with anywhere in `src/` (string literals `"E043"`), the
/// documentation module itself left out.
fn emitted_codes() -> BTreeSet<String> {
    let mut codes = BTreeSet::new();
    let mut stack = vec![crate::root().join("src")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") || path.ends_with("src/codes.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let bytes = text.as_bytes();
        for (i, _) in text.match_indices('"') {
            let code = bytes.get(i + 1..i + 6);
            if let Some([l, a, b, c, b'"']) = code
                && matches!(l, b'E' | b'W' | b'H')
                && [a, b, c].iter().all(|d| d.is_ascii_digit())
            {
                codes.insert(text[i + 1..i + 5].to_string());
            }
        }
    }
    codes
}

/// `fabric explain` knows every code emitted in `src/` and no code that is not; it lists
/// every audit rule, verify check and code; each code's page has its four parts.
#[test]
fn explain_covers_every_emitted_code() {
    let emitted = emitted_codes();
    assert!(emitted.len() > 50 && emitted.contains("E043") && emitted.contains("W001"));
    let documented: BTreeSet<String> = fabric::codes::all()
        .unwrap()
        .iter()
        .map(|c| c.id.to_string())
        // Host rules (H…) are rules with their own texts, as the audit's R… are.
        .chain(fabric::hosts::HOST_RULES.iter().map(|r| r.id.to_string()))
        .collect();
    let undocumented: Vec<_> = emitted.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "emitted in src/ but without src/codes/<CODE>.md: {undocumented:?}"
    );
    let never: Vec<_> = documented.difference(&emitted).collect();
    assert!(never.is_empty(), "documented but never emitted: {never:?}");

    let (code, list) = crate::run(fabric_bin().arg("explain"));
    assert_eq!(code, 0, "{list}");
    let ids = fabric::audit::RULES.iter().map(|r| r.id);
    let ids = ids.chain(fabric::verify::RULES.iter().map(|r| r.id));
    for id in ids.map(str::to_string).chain(documented.iter().cloned()) {
        assert!(list.contains(&format!("\n  {id}  ")), "`{id}` not listed");
    }
    for id in ["E043", "w005", "R001", "V001"] {
        let (code, page) = crate::run(fabric_bin().args(["explain", id]));
        assert_eq!(code, 0, "{page}");
        assert!(page.starts_with(&id.to_uppercase()), "{page}");
        for part in ["What it checks", "Why it matters", "How to fix"] {
            assert!(page.contains(&format!("\n{part}\n  ")), "{id}: {page}");
        }
    }
    let (_, page) = crate::run(fabric_bin().args(["explain", "E043"]));
    assert!(page.contains("\nExample\n      ports:\n"), "{page}");
    let (code, out) = crate::run(fabric_bin().args(["explain", "E999"]));
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no rule, check or code `E999`"), "{out}");
}
