//! The code's shape, as `docs/development.md` draws it: the stages never name a switch OS
//! (each OS is a folder behind `src/targets/`), functions read as short steps and files stay
//! under a size a reader holds in mind. Measured on `src/` as written (rustfmt's layout).

use std::path::Path;

/// A function may run to this many lines; few may pass [`STEP`].
const LONGEST: usize = 150;
/// A function past this many lines is a list of steps too long to read at once.
const STEP: usize = 80;
/// How many functions may pass [`STEP`].
const PAST_STEP: usize = 25;
/// A file may run to this many lines.
const FILE: usize = 1200;

/// Every `.rs` file under `src/`, with its path relative to the repository, in path order.
fn sources() -> Vec<(String, String)> {
    let root = crate::root();
    let mut files = Vec::new();
    let mut stack = vec![root.join("src")];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            stack.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            files.push((relative(root, &path), text));
        }
    }
    files.sort();
    files
}

fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap();
    rel.to_string_lossy().replace('\\', "/")
}

/// The lines before a file's test module (`#[cfg(test)]` at the top level).
fn code(text: &str) -> Vec<&str> {
    text.lines().take_while(|l| *l != "#[cfg(test)]").collect()
}

/// Whether a line opens a function: `fn`, after any of `pub`, `pub(crate)`, `const`,
/// `async`, `unsafe`.
fn opens_fn(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    while let Some(w) = words.peek() {
        if *w == "pub" || w.starts_with("pub(") || ["const", "async", "unsafe"].contains(w) {
            words.next();
        } else {
            break;
        }
    }
    let name = words.next().filter(|w| *w == "fn").and(words.next())?;
    let name: String = name
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Each function with a body in the code lines: (lines from `fn` to its closing brace, name,
/// line number). rustfmt closes a body with `}` at the indentation its `fn` opened at; a
/// declaration without a body ends in `;` first.
fn functions(lines: &[&str]) -> Vec<(usize, String, usize)> {
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = opens_fn(line) else { continue };
        let indent = line.len() - line.trim_start().len();
        let close = format!("{}}}", " ".repeat(indent));
        for (j, l) in lines.iter().enumerate().skip(i) {
            if l.trim_end().ends_with(';') && !lines[i..j].iter().any(|o| o.ends_with('{')) {
                break;
            }
            if *l == close || (j == i && l.trim_end().ends_with('}')) {
                found.push((j - i + 1, name, i + 1));
                break;
            }
        }
    }
    found
}

/// No function over [`LONGEST`] lines, at most [`PAST_STEP`] over [`STEP`], no file over
/// [`FILE`] lines.
#[test]
fn functions_read_as_steps_and_files_stay_short() {
    let mut long = Vec::new();
    let mut longest = Vec::new();
    let mut big = Vec::new();
    let mut count = 0;
    for (path, text) in sources() {
        let lines = code(&text);
        if text.lines().count() > FILE {
            big.push(format!("{path}: {} lines", text.lines().count()));
        }
        for (len, name, at) in functions(&lines) {
            count += 1;
            if len > STEP {
                long.push(format!("{path}:{at} {name} ({len} lines)"));
            }
            if len > LONGEST {
                longest.push(format!("{path}:{at} {name} ({len} lines)"));
            }
        }
    }
    // The reading itself: thousands of functions found, the long ones among them.
    assert!(count > 2000, "only {count} functions read in src/");
    assert!(longest.is_empty(), "over {LONGEST} lines: {longest:#?}");
    assert!(
        long.len() <= PAST_STEP,
        "{} functions over {STEP} lines (at most {PAST_STEP}): {long:#?}",
        long.len()
    );
    assert!(big.is_empty(), "files over {FILE} lines: {big:#?}");
}

/// The reader of functions finds a body's end, a one-line body and a declaration.
#[test]
fn functions_are_read_to_their_closing_brace() {
    let text = "pub(crate) fn a(x: u8) -> u8 {\n    x\n}\n\ntrait T {\n    fn b(&self);\n    fn c(&self) {}\n    async fn d(\n        &self,\n    ) {\n        let _ = 1;\n    }\n}\n";
    let lines: Vec<&str> = text.lines().collect();
    let found = functions(&lines);
    let names: Vec<(usize, &str, usize)> =
        found.iter().map(|(n, f, a)| (*n, f.as_str(), *a)).collect();
    assert_eq!(names, [(3, "a", 1), (1, "c", 7), (5, "d", 8)]);
}

/// Outside the OS folders and the registry, no file names a switch OS or matches on one: the
/// stages reach each OS through `src/targets/`, and a new OS is its folder and a line in the
/// registry.
#[test]
fn only_the_os_folders_name_an_os() {
    const NAMES: [&str; 5] = ["Os10", "os10::", "Os::Onyx", "Hardware::Onyx", ".onyx()"];
    let own = |p: &str| {
        ["src/onyx/", "src/os10/", "src/cumulus/", "src/targets/"]
            .iter()
            .any(|o| p.starts_with(o))
    };
    let files = sources();
    let mut named = Vec::new();
    for (path, text) in files.iter().filter(|(path, _)| !own(path)) {
        for (n, line) in text.lines().enumerate() {
            if let Some(name) = NAMES.iter().find(|w| line.contains(*w)) {
                named.push(format!("{path}:{}: {name}", n + 1));
            }
        }
    }
    assert!(files.len() > 200, "{} files read", files.len());
    assert!(named.is_empty(), "an OS named:\n{}", named.join("\n"));
}

/// The files outside the OS folders that still read a switch in the Onyx model's terms: the
/// lab's network (each OS's lab switch gives it a node in them) and the audit's rules of the
/// parts only Onyx has (pools, the `roce` mode, routing and MLAG in its model). No other file
/// may come to: a new one reads the OS-neutral views.
const ONYX_MODEL_READERS: [&str; 7] = [
    "src/audit/mod.rs",
    "src/audit/routing.rs",
    "src/lab/dataplane.rs",
    "src/lab/frr.rs",
    "src/lab/network.rs",
    "src/lab/unmodeled.rs",
    "src/lab/view.rs",
];

/// Outside the OS folders, the registry and [`ONYX_MODEL_READERS`], no code uses the Onyx
/// module (comments and test modules aside).
#[test]
fn only_the_known_readers_use_the_onyx_model() {
    let own = |p: &str| {
        ["src/onyx/", "src/os10/", "src/cumulus/", "src/targets/"]
            .iter()
            .any(|o| p.starts_with(o))
    };
    let mut using = Vec::new();
    for (path, text) in sources() {
        if own(&path) || ONYX_MODEL_READERS.contains(&path.as_str()) {
            continue;
        }
        let code = code(&text);
        let lines = code
            .iter()
            .enumerate()
            .filter(|(_, l)| !l.trim_start().starts_with("//"));
        for (n, _) in lines.filter(|(_, l)| l.contains("onyx::")) {
            using.push(format!("{path}:{}", n + 1));
        }
    }
    assert!(
        using.is_empty(),
        "use the Onyx module:\n{}",
        using.join("\n")
    );
}
