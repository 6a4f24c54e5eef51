//! The examples of the user docs run as written, from a fresh copy of the repository: every
//! command line of a `sh` block and every `$ ` line of a `console` block in `README.md` and
//! `docs/*.md`, and the `fabric` commands of the golden-review workflow
//! (`.github/workflows/golden-review.yml`).
//!
//! The copy holds the repository's tracked files (`git ls-files`), in a scratch folder that is
//! also the commands' `HOME`, `TMPDIR` and lock folder, so a command writes nothing outside it
//! (checked: the repository's `git status` is the same before and after). The debug binary
//! stands in for the release build: it is `fabric` on the commands' `PATH`, a line starting
//! `cargo run --release --` (or `cargo run --`) runs it as `fabric`, and the workflow's
//! `target/release/fabric` is a link to it.
//!
//! Conventions the docs follow, visible where they are used: a trailing `# exit N` gives the
//! exit code a command must end with (else 0); a trailing comment with `needs: WHAT` marks a
//! command this test cannot run (root, the network, real switches, a terminal); those are
//! listed on the test's output and counted, never dropped silently. Under a `$ ` line, the
//! output shown must be what the command prints, line for line in that order, but for the
//! lines elided with `…`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one example may run: every example is a quick command on small files or the lab.
const TIMEOUT: Duration = Duration::from_secs(60);

/// One example command taken from a page.
struct Example {
    /// `README.md:38`, for messages.
    place: String,
    /// The command line as written (after `$ ` in a console block).
    line: String,
    /// The exit code the page gives (`# exit N`), else 0.
    exit: i32,
    /// `needs: …`: why this test cannot run it.
    needs: Option<String>,
    /// The output shown under a `$ ` line, but for elided lines (`…`, `...`).
    shows: Vec<String>,
}

/// The comment of a shell line: what follows ` # ` (a `#` inside quotes is not one in the
/// docs' examples, and `$#`-style words have no space before them).
fn comment(line: &str) -> Option<&str> {
    line.find(" # ").map(|i| &line[i + 3..])
}

fn examples_of(page: &str, text: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    let lines: Vec<&str> = text.lines().collect();
    for (i, raw) in lines.iter().enumerate() {
        if let Some(info) = raw.strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some(info.trim()),
            };
            continue;
        }
        let (line, console) = match block {
            Some("sh") if !raw.trim().is_empty() && !raw.starts_with('#') => (raw.trim(), false),
            Some("console") if raw.starts_with("$ ") => (&raw[2..], true),
            _ => continue,
        };
        assert!(
            !line.ends_with('\\'),
            "{page}:{}: an example continued on the next line; write it on one line",
            i + 1
        );
        let note = comment(line).unwrap_or("");
        let needs = note
            .find("needs:")
            .map(|n| note[n + 6..].trim().to_string());
        let exit = note
            .split([';', ':'])
            .find_map(|part| part.trim().strip_prefix("exit ")?.parse().ok())
            .unwrap_or(0);
        let shows = match console {
            false => Vec::new(),
            true => lines[i + 1..]
                .iter()
                .take_while(|l| !l.starts_with("```") && !l.starts_with("$ "))
                .map(|l| l.trim_end())
                .filter(|l| !l.contains('…') && !l.contains("..."))
                .map(str::to_string)
                .collect(),
        };
        out.push(Example {
            place: format!("{page}:{}", i + 1),
            line: line.to_string(),
            exit,
            needs,
            shows,
        });
    }
    assert!(block.is_none(), "{page}: a code block is not closed");
    out
}

/// The user docs: the README, then `docs/*.md` (not the generated `docs/fabrics/`), in name order.
fn pages() -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(crate::root().join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    names.extend(docs);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(crate::root().join(&n)).expect("a readable page");
            (n, text)
        })
        .collect()
}

/// What git says about the repository's working tree (modified and untracked files).
fn git_status() -> String {
    let out = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .current_dir(crate::root())
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git status fails in the repository");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh copy of the repository's tracked files in `dir/repo`, with `dir/home`, `dir/tmp`,
/// `dir/locks` and `dir/bin/fabric` (the debug binary) beside it.
fn fresh_copy(dir: &Path) -> PathBuf {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(crate::root())
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git ls-files fails: the tests need the git repository"
    );
    let repo = dir.join("repo");
    let mut copied = 0;
    for name in out.stdout.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let name = std::str::from_utf8(name).expect("a UTF-8 path");
        let from = crate::root().join(name);
        if !from.exists() {
            continue; // deleted in the working tree, not yet committed: not part of the copy
        }
        let to = repo.join(name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("copying {name}: {e}"));
        copied += 1;
    }
    assert!(copied > 100, "only {copied} tracked files");
    for sub in ["home", "tmp", "locks", "bin"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_fabric"), dir.join("bin/fabric")).unwrap();
    repo
}

/// Runs one shell line in the copy, everything confined to `dir`: its exit code and output.
fn sh(dir: &Path, repo: &Path, line: &str, env: &[(&str, &str)]) -> (i32, String) {
    let path = format!(
        "{}:{}",
        dir.join("bin").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (out_path, err_path) = (dir.join("tmp/stdout"), dir.join("tmp/stderr"));
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(line)
        .current_dir(repo)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .env("PATH", path)
        .env("HOME", dir.join("home"))
        .env("TMPDIR", dir.join("tmp"))
        .env("FABRIC_LOCK_DIR", dir.join("locks"))
        .env("XDG_CONFIG_HOME", dir.join("home/.config"))
        .env("XDG_CACHE_HOME", dir.join("home/.cache"))
        .env("XDG_DATA_HOME", dir.join("home/.local/share"))
        .env("NO_COLOR", "1")
        .env("MANPAGER", "cat")
        .env_remove("FABRIC_PASSWORD")
        .env_remove("FABRIC_LAB_PASSWORD")
        .env_remove("SSH_AUTH_SOCK");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("sh starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`{line}` still runs after {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = std::fs::read_to_string(&out_path).unwrap_or_default()
        + &std::fs::read_to_string(&err_path).unwrap_or_default();
    (status.code().unwrap_or(-1), text)
}

/// What a doc's line becomes here: `cargo run --release -- ARGS` is `fabric ARGS`, the debug
/// binary on `PATH`; any other line runs as written.
fn as_run(line: &str) -> String {
    for prefix in ["cargo run --release -- ", "cargo run -- "] {
        if let Some(rest) = line.strip_prefix(prefix) {
            return format!("fabric {rest}");
        }
    }
    line.to_string()
}

#[test]
fn every_example_of_the_docs_runs_from_a_fresh_copy() {
    let before = git_status();
    let dir = crate::scratch("readme-examples");
    let repo = fresh_copy(&dir);
    let (mut ran, mut needs) = (Vec::new(), Vec::new());
    for (page, text) in pages() {
        for ex in examples_of(&page, &text) {
            if let Some(what) = &ex.needs {
                assert!(!what.is_empty(), "{}: `needs:` without what", ex.place);
                needs.push(format!("{}: `{}` (needs: {what})", ex.place, ex.line));
                continue;
            }
            assert!(
                !ex.line.starts_with("cargo ") || ex.line.starts_with("cargo run"),
                "{}: `{}` builds or tests the project: mark it `# needs: …`",
                ex.place,
                ex.line
            );
            let (code, out) = sh(&dir, &repo, &as_run(&ex.line), &[]);
            assert_eq!(
                code, ex.exit,
                "{}: `{}` exits {code}, the page says {}:\n{out}",
                ex.place, ex.line, ex.exit
            );
            // The transcript's lines, in its order (elided lines left out).
            let mut printed = out.lines().map(str::trim_end);
            for shown in &ex.shows {
                assert!(
                    printed.any(|l| l == shown),
                    "{}: `{}` does not print `{shown}` where the page shows it:\n{out}",
                    ex.place,
                    ex.line
                );
            }
            ran.push(ex.place);
        }
    }
    eprintln!(
        "ran {} examples; not run, each marked in its page:",
        ran.len()
    );
    for n in &needs {
        eprintln!("  {n}");
    }
    // The README's quick start and everyday commands, the docs' transcripts: far more than this.
    assert!(ran.len() >= 20, "only {} examples ran: {ran:?}", ran.len());
    assert!(
        ran.iter().any(|p| p.starts_with("README.md")),
        "no README example ran"
    );
    assert!(
        needs.len() <= ran.len(),
        "more examples marked `needs:` than run"
    );
    // The quick start's push converged on the lab, in the copy.
    assert!(
        repo.join(".fabric/lab").is_dir(),
        "the push ran no lab in the copy"
    );
    assert_eq!(git_status(), before, "an example wrote into the repository");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The run scripts of a workflow's steps, by job, in order, with each step's `id`.
fn workflow_steps(text: &str) -> Vec<(Option<String>, String)> {
    let doc: serde_json::Value = serde_saphyr::from_str(text).expect("the workflow is YAML");
    let mut out = Vec::new();
    for job in doc["jobs"].as_object().expect("jobs").values() {
        for step in job["steps"].as_array().expect("steps") {
            if let Some(run) = step["run"].as_str() {
                let id = step["id"].as_str().map(str::to_string);
                out.push((id, run.to_string()));
            }
        }
    }
    out
}

/// Runs every line of a workflow's `run:` scripts that calls `target/release/fabric` in the
/// copy (continuation lines joined, `${{ matrix.fabric }}` expanded to what the step with `id:
/// list` writes to `$GITHUB_OUTPUT`), each of which must succeed; returns the subcommands run.
fn run_workflow(dir: &Path, repo: &Path, name: &str, text: &str) -> Vec<String> {
    let steps = workflow_steps(text);
    let mut fabrics: Vec<String> = Vec::new();
    if let Some((_, list)) = steps.iter().find(|(id, _)| id.as_deref() == Some("list")) {
        let output = dir.join("tmp/github-output");
        let _ = std::fs::remove_file(&output);
        let output_s = output.to_string_lossy().into_owned();
        let (code, out) = sh(dir, repo, list, &[("GITHUB_OUTPUT", &output_s)]);
        assert_eq!(code, 0, "{name}: the list step fails:\n{out}");
        let written = std::fs::read_to_string(&output).unwrap();
        let json = written
            .lines()
            .find_map(|l| l.strip_prefix("fabrics="))
            .expect("fabrics=… in $GITHUB_OUTPUT");
        fabrics = serde_json::from_str(json).expect("a JSON list of fabrics");
        // Every fabric, OS10 ones included.
        assert_eq!(fabrics.len(), crate::fabrics().len(), "{name}: {fabrics:?}");
    }
    let mut kinds = Vec::new();
    for (_, run) in &steps {
        let joined = run.replace("\\\n", " ");
        for line in joined
            .lines()
            .filter(|l| l.contains("target/release/fabric"))
        {
            let line = line.trim();
            let expanded: Vec<String> = if line.contains("${{ matrix.fabric }}") {
                assert!(
                    !fabrics.is_empty(),
                    "{name}: a matrix without a `list` step"
                );
                fabrics
                    .iter()
                    .map(|f| line.replace("${{ matrix.fabric }}", f))
                    .collect()
            } else {
                assert!(
                    !line.contains("${{"),
                    "{name}: an expression this test cannot expand: {line}"
                );
                vec![line.to_string()]
            };
            for cmd in expanded {
                let (code, out) = sh(dir, repo, &cmd, &[]);
                assert_eq!(
                    code, 0,
                    "{name}: `{cmd}` fails on the repository as committed:\n{out}"
                );
                let kind = cmd.split_whitespace().nth(1).unwrap_or("").to_string();
                if kind == "audit" {
                    let sarif: serde_json::Value = serde_json::from_str(
                        &std::fs::read_to_string(repo.join("audit.sarif")).unwrap(),
                    )
                    .unwrap_or_else(|e| panic!("`{cmd}` writes no SARIF: {e}"));
                    assert_eq!(sarif["version"], "2.1.0", "{cmd}");
                    assert!(
                        sarif["runs"][0]["tool"]["driver"]["name"].is_string(),
                        "{cmd}"
                    );
                }
                kinds.push(kind);
            }
        }
    }
    kinds.sort();
    kinds.dedup();
    kinds
}

#[test]
fn the_ci_workflows_pass_on_the_repository() {
    let before = git_status();
    let dir = crate::scratch("readme-workflow");
    let repo = fresh_copy(&dir);
    std::fs::create_dir_all(repo.join("target/release")).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_fabric"),
        repo.join("target/release/fabric"),
    )
    .unwrap();

    let workflow = ".github/workflows/golden-review.yml";
    let text = std::fs::read_to_string(crate::root().join(workflow)).unwrap();
    assert_eq!(
        run_workflow(&dir, &repo, workflow, &text),
        ["audit", "compile", "validate"],
        "the workflow's fabric commands"
    );

    // The smallest job of docs/ci.md, the YAML block that names its file.
    let page = std::fs::read_to_string(crate::root().join("docs/ci.md")).unwrap();
    let start = page
        .find("```yaml\n# .github/workflows/fabric.yml\n")
        .expect("docs/ci.md's CI job")
        + 8;
    let block = &page[start..start + page[start..].find("```").unwrap()];
    assert_eq!(
        run_workflow(&dir, &repo, "docs/ci.md's CI job", block),
        ["compile", "validate"],
        "docs/ci.md's job's fabric commands"
    );
    assert_eq!(
        git_status(),
        before,
        "a workflow command wrote into the repository"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
