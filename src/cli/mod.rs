//! The command line: argument parsing, running the stages in order, output and exit codes.
//! The only module that prints.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use crate::config_error::{ParseError, Problem};
use crate::diag::{self, Diagnostic, Sources};
use crate::error::{Failure, exit};
use crate::secrets::Mask;

mod audit;
mod diff;
mod docs;
mod fleet;
mod hosts;
mod import;
#[cfg(feature = "lab")]
mod lab;
pub mod manual;
mod push;
mod verify;

use crate::fleet::chosen;

#[derive(Parser, Debug)]
#[command(name = "fabric", version)]
struct Cli {
    /// When to color diagnostics and diffs.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check fabric files and report every problem, then run the audit rules on the configs
    /// they compile to (errors and warnings shown; errors fail). Exit 0 valid, 1 errors,
    /// 2 unreadable.
    #[command(after_help = manual::VALIDATE)]
    Validate {
        /// Fabric files (YAML).
        #[arg(required = true)]
        fabrics: Vec<PathBuf>,
        /// Fail (exit 1) on warnings too.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Compile fabric files into one configuration per switch, in its OS's own spelling and
    /// order, written as `<out>/<fabric>/<switch>.cfg`. Exit 0 done, 1 invalid fabric or
    /// stale goldens, 2 failure.
    #[command(after_help = manual::COMPILE)]
    Compile {
        /// Fabric files (YAML).
        #[arg(required = true)]
        fabrics: Vec<PathBuf>,
        /// Root folder of the golden files.
        #[arg(long, default_value = "golden")]
        out: PathBuf,
        /// Write nothing; exit 1 and print a diff when a golden file is stale.
        #[arg(long)]
        check: bool,
        /// Folder with replacement templates (same file names as `templates/onyx/`).
        #[arg(long)]
        templates: Option<PathBuf>,
        /// Fail (exit 1) on validation warnings too.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Write each fabric's documentation to `<out>/<fabric>/`: a Markdown page per switch (its
    /// port map), the fabric's page with the topology (Mermaid and SVG), and one
    /// self-contained HTML page with the audit findings. Exit 0 done, 1 invalid fabric or
    /// stale docs, 2 failure.
    #[command(after_help = manual::DOCS)]
    Docs(docs::Args),
    /// Read a running-config of an Onyx or OS10 switch (a file, or `-` for standard input)
    /// and print it back in canonical form (`cli`) or as the model (`yaml`, `json`), or only
    /// check that it reads (`check`: nothing printed). Exit 0 read, 2 malformed.
    #[command(after_help = manual::PARSE)]
    Parse {
        /// The running-config: a file, or `-` for standard input.
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = ParseFormat::Cli)]
        format: ParseFormat,
    },
    /// Compare each switch's running config with the fabric's intent and print the commands,
    /// in the switch's OS, that remove the drift. Exit 0 no drift, 1 drift, 2 error.
    #[command(after_help = manual::DIFF)]
    Diff(diff::Args),
    /// Push the fabric to its switches over SSH: plan, confirm, snapshot, apply, verify and
    /// save, rolling back on failure. Exit 0 all converged, 1 some switch failed (rolled
    /// back) or declined, 2 usage or infrastructure error, 130/143 stopped by SIGINT/SIGTERM
    /// (the switches in flight rolled back).
    #[command(after_help = manual::PUSH)]
    Push(push::Args),
    /// Serve simulated Onyx and OS10 switches for a fabric over SSH on loopback, until
    /// Ctrl-C: try everything without hardware. Exit 0 stopped, 1 invalid fabric, 2 failure.
    #[cfg(feature = "lab")]
    #[command(after_help = manual::LAB)]
    Lab(lab::Args),
    /// Check switches (running configs, live, or a fabric before deployment) against RoCE
    /// best practice (rules `R001`…) and, with a fabric, for drift. Exit 0 clean, 1 findings
    /// at or above `--fail-on`, 2 error.
    #[command(after_help = manual::AUDIT)]
    Audit(audit::Args),
    /// Check the switches' live state against the fabric, read-only (`show` commands), every
    /// switch at once: cabling (LLDP), links and their speed, PFC, trust/ECN/ETS, buffer
    /// pools, BGP sessions, MLAG (checks `V001`…). Exit 0 clean, 1 findings, 2 a switch or a
    /// reply that could not be read.
    #[command(after_help = manual::VERIFY)]
    Verify(verify::Args),
    /// Per host of the fabric (`hosts:`), the commands that make its NIC agree with the
    /// switch ports it is cabled to (trust, PFC, RoCE ToS, MTU), derived from the compiled
    /// switches; or the read-only script whose output is its report. Exit 0 printed, 1 a
    /// host whose switch ports disagree, 2 error.
    #[command(after_help = manual::HOSTS)]
    Hosts(hosts::Args),
    /// Turn switches that already exist (running configs, or live switches read with `show`
    /// commands) into a fabric file. Exit 0 written, 2 error.
    #[command(after_help = manual::IMPORT)]
    Import(import::Args),
    /// Print what an audit rule, a verify check or a diagnostic code checks, why it matters
    /// and how to fix it; without an argument, list them all.
    #[command(after_help = manual::EXPLAIN)]
    Explain {
        /// A rule id (`R001`), a check id (`V001`), a diagnostic code (`E043`, `W001`), or a
        /// rule's or check's name.
        rule: Option<String>,
    },
    /// Print the JSON Schema of the fabric format.
    #[command(after_help = manual::SCHEMA)]
    Schema,
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = manual::COMPLETIONS)]
    Completions {
        /// The shell the script is for.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one page per command with `--out`.
    #[command(after_help = manual::MAN)]
    Man {
        /// Write `fabric.1`, `fabric-diff.1`, … in this folder instead.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ParseFormat {
    Cli,
    Yaml,
    Json,
    /// Print nothing: the exit code (and a located error) say whether the file reads.
    Check,
}

/// What `fabric` is, in one line: the switch OSes named from [`crate::fabric::Os::all`].
pub fn about() -> String {
    format!(
        "Compile, diff, push and audit lossless RoCE fabrics on {} switches",
        crate::fabric::Os::all_products()
    )
}

/// Runs the command line; returns the exit code.
pub fn main() -> u8 {
    run(std::env::args_os())
}

/// Runs the command line on `args` (the program's name first), in this process: for a program
/// that adds an OS to the registry ([`crate::targets::register`]) and then runs `fabric`'s
/// commands with it. Returns the exit code.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let parsed = manual::command()
        .try_get_matches_from(args)
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                exit::FAILURE
            } else {
                exit::OK
            };
        }
    };
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let result = match cli.command {
        Command::Validate {
            fabrics,
            deny_warnings,
        } => validate(&fabrics, deny_warnings, color),
        Command::Compile {
            fabrics,
            out,
            check,
            templates,
            deny_warnings,
        } => compile(
            &fabrics,
            &out,
            check,
            templates.as_deref(),
            deny_warnings,
            color,
        ),
        Command::Docs(args) => docs::run(&args, color),
        Command::Parse { file, format } => parse(&file, format, color),
        Command::Diff(args) => diff::run(&args, color),
        Command::Push(args) => push::run(&args, color),
        Command::Audit(args) => audit::run(&args, color),
        Command::Verify(args) => verify::run(&args, color),
        Command::Hosts(args) => hosts::run(&args, color),
        Command::Explain { rule } => audit::explain(rule.as_deref()),
        Command::Import(args) => import::run(&args, color),
        #[cfg(feature = "lab")]
        Command::Lab(args) => lab::run(&args, color),
        Command::Schema => {
            out!("{}", crate::fabric::json_schema());
            Ok(exit::OK)
        }
        Command::Completions { shell } => manual::completions(shell),
        Command::Man { out } => manual::man(out.as_deref()),
    };
    match result {
        Ok(code) => code,
        Err(Failure(msg)) => {
            errln!("error: {msg}");
            exit::FAILURE
        }
    }
}

/// Loads and validates each file, prints the diagnostics; the valid fabrics, by file.
pub(crate) fn check_all(
    paths: &[PathBuf],
    deny_warnings: bool,
    color: bool,
) -> Result<(Vec<(PathBuf, crate::fabric::Fabric)>, bool), Failure> {
    let mut sources = Sources::default();
    let mut all: Vec<Diagnostic> = Vec::new();
    let mut ok = Vec::new();
    for path in paths {
        let (fabric, diags) = crate::fabric::read(path, &mut sources)
            .map_err(|e| Failure(format!("cannot read `{}`: {e}", path.display())))?;
        let failed = diags.iter().any(|d| d.is_error() || deny_warnings);
        all.extend(diags);
        if let (Some(f), false) = (fabric, failed) {
            ok.push((path.clone(), f));
        }
    }
    let errors = all.iter().filter(|d| d.is_error()).count();
    let warnings = all.len() - errors;
    if !all.is_empty() {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{}", diag::render(&all, &sources, color));
        let _ = writeln!(
            err,
            "{errors} error(s), {warnings} warning(s) in {} file(s)",
            paths.len()
        );
    }
    let clean = errors == 0 && (warnings == 0 || !deny_warnings);
    Ok((ok, clean))
}

/// What `validate`, `compile` and `push` check of fabric files, in one way so they never
/// disagree: every file is read (one that cannot be is reported and the others still
/// checked), every format diagnostic is printed, and each valid fabric's compiled configs go
/// through the RoCE audit (profile `roce-lossless`), whose errors fail the fabric and whose
/// warnings count as warnings.
pub(crate) struct Checked {
    /// Each fabric whose format is valid, with its audit findings as lines and whether the
    /// fabric passes (no error; no warning either under `--deny-warnings`).
    pub fabrics: Vec<(PathBuf, crate::fabric::Fabric, String, bool)>,
    pub errors: usize,
    pub warnings: usize,
    /// Files that could not be read at all.
    pub unreadable: usize,
    deny_warnings: bool,
}

impl Checked {
    /// The exit code of a check: 2 when a file could not be read, 1 on errors (and on
    /// warnings when they are denied), else 0.
    pub fn code(&self) -> u8 {
        if self.unreadable > 0 {
            exit::FAILURE
        } else if self.errors > 0 || self.warnings > 0 && self.deny_warnings {
            exit::FINDINGS
        } else {
            exit::OK
        }
    }

    /// The fabrics, when every file passed.
    pub fn passed(self) -> Option<Vec<(PathBuf, crate::fabric::Fabric)>> {
        (self.code() == exit::OK).then(|| {
            self.fabrics
                .into_iter()
                .map(|(p, f, _, _)| (p, f))
                .collect()
        })
    }
}

pub(crate) fn check_deployable(paths: &[PathBuf], deny_warnings: bool, color: bool) -> Checked {
    let mut sources = Sources::default();
    let mut all: Vec<Diagnostic> = Vec::new();
    let mut checked = Checked {
        fabrics: Vec::new(),
        errors: 0,
        warnings: 0,
        unreadable: 0,
        deny_warnings,
    };
    for path in paths {
        let (fabric, diags) = match crate::fabric::read(path, &mut sources) {
            Ok(r) => r,
            Err(e) => {
                errln!("error: cannot read `{}`: {e}", path.display());
                checked.unreadable += 1;
                continue;
            }
        };
        // A file refused before it was read (a folder, a device, too large) was not read,
        // as one that cannot be opened: exit 2, not a finding in it.
        if diags.iter().any(|d| matches!(d.code, "E004" | "E005")) {
            checked.unreadable += 1;
        }
        all.extend(diags);
        if let Some(f) = fabric {
            let (findings, errors, warnings) = audit::validate(path, &f);
            checked.errors += errors;
            checked.warnings += warnings;
            let ok = errors == 0 && (warnings == 0 || !deny_warnings);
            checked.fabrics.push((path.clone(), f, findings, ok));
        }
    }
    let format_errors = all.iter().filter(|d| d.is_error()).count();
    checked.errors += format_errors;
    checked.warnings += all.len() - format_errors;
    if !all.is_empty() {
        err!("{}", diag::render(&all, &sources, color));
    }
    for (_, _, findings, _) in &checked.fabrics {
        err!("{findings}");
    }
    if checked.errors + checked.warnings > 0 {
        errln!(
            "{} error(s), {} warning(s) in {} file(s)",
            checked.errors,
            checked.warnings,
            paths.len()
        );
    }
    checked
}

fn validate(paths: &[PathBuf], deny_warnings: bool, color: bool) -> Result<u8, Failure> {
    let checked = check_deployable(paths, deny_warnings, color);
    for (path, f, _, ok) in &checked.fabrics {
        let ports: usize = f.switches.values().map(|s| s.ports.len()).sum();
        outln!(
            "{}: {}, {} switch(es), {ports} port(s)",
            path.display(),
            if *ok {
                "valid"
            } else {
                "valid format, but the RoCE audit finds problems (`fabric audit` for details)"
            },
            f.switches.len()
        );
    }
    let code = checked.code();
    // The process ends next: freeing a fabric of 10,000 switches piece by piece would be a
    // twentieth of the run.
    std::mem::forget(checked);
    Ok(code)
}

/// A switch's name: the one its config gives (Onyx: `hostname`, else `## Hostname:`; OS10:
/// `hostname`), else the file's stem.
pub(crate) fn switch_name(named: Option<&str>, file: &Path) -> String {
    named.map_or_else(
        || {
            file.file_stem()
                .map_or("switch".into(), |s| s.to_string_lossy().into_owned())
        },
        str::to_string,
    )
}

/// What a command keeps of the secrets in a running configuration it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Secrets {
    /// Masked as the switch masks its own ([`crate::secrets::mask`]): whatever the command
    /// prints or writes cannot show one.
    Masked,
    /// Kept: the lab's switch holds its configuration as a real switch does, and masks
    /// nothing it is not asked to.
    Kept,
}

/// A configuration read and its text, or the problem with it as a rendered diagnostic (for
/// the caller to print); `Err` only when the file cannot be opened or read.
pub(crate) type Loaded<T> = Result<Result<(T, crate::input::Text), String>, Failure>;

/// Reads a running configuration of the OS its text is ([`crate::targets::recognize`]) (a
/// file, or standard input for `-`): bounded, UTF-8 text that looks like a running config,
/// every modeled line well-formed. The config and its text, secrets masked as its OS masks
/// them; or the problem as a rendered diagnostic, for the caller to print (so configs read at
/// once report in a fixed order). `Err` only when the file cannot be opened or read.
pub(crate) fn load_config(path: &Path, color: bool) -> Loaded<Box<dyn crate::targets::Config>> {
    load_with(
        path,
        color,
        |text| crate::targets::recognize(text).parse(text),
        |text| Some(crate::targets::recognize(text).mask()),
    )
}

/// Reads a running configuration of `os`; a problem with it is a located diagnostic (said
/// here), the exit code 2.
pub(crate) fn read_running(
    path: &Path,
    color: bool,
    secrets: Secrets,
    os: &dyn crate::targets::SwitchOs,
) -> Result<Result<Box<dyn crate::targets::Config>, u8>, Failure> {
    let mask = (secrets == Secrets::Masked).then(|| os.mask());
    Ok(load_with(path, color, |text| os.parse(text), |_| mask)?
        .map(|(c, _)| c)
        .map_err(|diagnostic| {
            err!("{diagnostic}");
            exit::FAILURE
        }))
}

/// Reads a bounded UTF-8 file and parses it with `parse`; a problem is a rendered diagnostic.
/// With a `mask` for the text, its secrets are masked and the masked text read: a problem is
/// located in the file as it is (the excerpt masked), the config and text returned hold no
/// secret.
fn load_with<T>(
    path: &Path,
    color: bool,
    parse: impl Fn(&str) -> Result<T, ParseError>,
    mask: impl Fn(&str) -> Option<Mask>,
) -> Loaded<T> {
    let name = if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    };
    let mut sources = Sources::default();
    let bytes = match crate::input::read(path, crate::config_error::MAX_BYTES) {
        Ok(b) => b,
        Err(crate::input::Refused::Io(e)) => {
            return Err(Failure(format!("cannot read `{name}`: {e}")));
        }
        Err(refused) => {
            let d = crate::fabric::load::refused_input(&name, &refused, &mut sources);
            return Ok(Err(diag::render(&[d], &sources, color)));
        }
    };
    let text = match crate::input::Text::new(bytes) {
        Ok(t) => t,
        Err((bytes, e)) => {
            let at = e.valid_up_to();
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let file = sources.add(name, text);
            let d = Diagnostic::error("E002", "not UTF-8 text: is this a binary file?").at(
                diag::Span {
                    file,
                    start: at,
                    end: at + 1,
                },
                "first byte that is not UTF-8",
            );
            return Ok(Err(diag::render(&[d], &sources, color)));
        }
    };
    let config = match parse(&text) {
        Ok(c) => c,
        Err(e) => {
            let d = parse_diagnostic(&e, &text, &mut sources, name);
            return Ok(Err(diag::render(&[d], &sources, color)));
        }
    };
    let masked = match mask(&text).map(|how| crate::secrets::mask(&text, how)) {
        Some(std::borrow::Cow::Owned(masked)) => masked,
        _ => return Ok(Ok((config, text))),
    };
    // A mask is a word where the secret was: the masked text reads as the text did.
    match parse(&masked) {
        Ok(c) => Ok(Ok((c, crate::input::Text::from(masked)))),
        Err(e) => {
            let d = parse_diagnostic(&e, &masked, &mut sources, name);
            Ok(Err(diag::render(&[d], &sources, color)))
        }
    }
}

/// A running config's problem (either OS's) as a diagnostic at its line: E100 a malformed line
/// (a bad value, a broken tree, a duplicate), E101 not a running config (or a pasted session),
/// E102 a switch's error reply, E003 nothing in it, E002 not text.
fn parse_diagnostic(e: &ParseError, text: &str, sources: &mut Sources, name: String) -> Diagnostic {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(e.line - 1)
        .map(str::len)
        .sum();
    let line = text[line_start.min(text.len())..]
        .split('\n')
        .next()
        .unwrap_or("");
    let col = line
        .char_indices()
        .nth(e.column.saturating_sub(1))
        .map_or(line.len(), |(b, _)| b);
    let file = sources.add(name, text.to_string());
    let start = line_start + col;
    let word = line[col..].find(' ').unwrap_or(line.len() - col);
    let span = |end| diag::Span { file, start, end };
    match e.problem {
        Problem::Malformed | Problem::Structure | Problem::Duplicate => Diagnostic::error(
            "E100",
            format!(
                "malformed `{}` line",
                e.text.split(' ').take(2).collect::<Vec<_>>().join(" ")
            ),
        )
        .at(
            span(start + word.max(1)),
            // A block out of place or given twice says what it is; a line that does not read
            // says what should be there.
            match e.problem {
                Problem::Malformed => format!("expected {}", e.expected),
                _ => e.expected.clone(),
            },
        ),
        Problem::NotConfiguration => Diagnostic::error("E101", "not a running config")
            .at(span(line_start + line.len().max(1)), e.expected.clone())
            .help("give the output of `show running-config` (its `##` header and sections), or lines of Onyx configuration"),
        Problem::Prompt => Diagnostic::error("E101", "not a running config")
            .at(span(line_start + line.len().max(1)), e.expected.clone())
            .help("give only what the switch printed for its running configuration"),
        Problem::ErrorReply => Diagnostic::error("E102", "a switch's error reply where configuration should be")
            .at(span(line_start + line.len().max(1)), e.expected.clone())
            .help("the capture failed; take the backup again"),
        Problem::Empty => Diagnostic::error("E003", "no configuration in this file")
            .at(span(start), e.expected.clone()),
        Problem::NotText => Diagnostic::error("E002", "not text: a control character in a line")
            .at(span(start + 1), e.expected.clone()),
    }
}

fn parse(path: &Path, format: ParseFormat, color: bool) -> Result<u8, Failure> {
    let (config, text) = match load_config(path, color)? {
        Ok(c) => c,
        Err(diagnostic) => {
            err!("{diagnostic}");
            return Ok(exit::FAILURE);
        }
    };
    // The process ends next: freeing the text and the model piece by piece would be a tenth
    // of reading a large config.
    std::mem::forget(text);
    let text = match format {
        ParseFormat::Cli => config.render()?,
        ParseFormat::Json => config.json()?,
        ParseFormat::Yaml => config.yaml()?,
        ParseFormat::Check => String::new(),
    };
    out!("{text}");
    std::mem::forget(config);
    Ok(exit::OK)
}

/// The folder name of a fabric's goldens and docs: its file stem.
fn stem(path: &Path) -> Result<String, Failure> {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .ok_or_else(|| Failure(format!("`{}` has no file name", path.display())))
}

fn compile(
    paths: &[PathBuf],
    out: &Path,
    check: bool,
    templates: Option<&Path>,
    deny_warnings: bool,
    color: bool,
) -> Result<u8, Failure> {
    // A templates folder is the default OS's (Onyx's); every other OS renders with its own
    // embedded ones.
    let default = crate::fabric::Os::default();
    let custom = templates
        .map(|dir| default.target().templates(dir))
        .transpose()?;
    distinct_folders(paths, out, "goldens")?;
    let checked = check_deployable(paths, deny_warnings, color);
    let code = checked.code();
    let Some(fabrics) = checked.passed() else {
        return Ok(code);
    };
    let mut stale = 0usize;
    for (path, fabric) in &fabrics {
        let dir = out.join(stem(path)?);
        let mut texts: BTreeMap<String, String> = BTreeMap::new();
        for (name, config) in crate::compile::compile(fabric) {
            let text = match &custom {
                Some(r) if config.target().os() == default => r.render(config.as_ref())?,
                _ => config.render()?,
            };
            texts.insert(format!("{name}.cfg"), text);
        }
        let gone = format!("no switch of {} has this name any more", path.display());
        let synced = sync_folder(&dir, &texts, &|f| f.ends_with(".cfg"), check, &gone, color)?;
        stale += synced.stale;
        if !check {
            outln!(
                "{}: {} switch(es) → {}/ ({} written, {} unchanged, {} removed)",
                path.display(),
                texts.len(),
                dir.display(),
                synced.written,
                synced.unchanged,
                synced.removed
            );
        }
    }
    if check {
        if stale > 0 {
            errln!("{stale} golden file(s) are stale; run `fabric compile` and commit the result");
            return Ok(exit::FINDINGS);
        }
        outln!("golden files are up to date");
    }
    Ok(exit::OK)
}

/// Each fabric writes to its own folder under `out`, named by its file stem: two fabrics
/// named alike would write one folder, and are refused.
fn distinct_folders(paths: &[PathBuf], out: &Path, what: &str) -> Result<(), Failure> {
    let mut stems: BTreeMap<String, &PathBuf> = BTreeMap::new();
    for path in paths {
        let stem = stem(path)?;
        if let Some(other) = stems.insert(stem.clone(), path) {
            return Err(Failure(format!(
                "`{}` and `{}` would both write their {what} to `{}`: rename one, or run them with separate `--out` folders",
                other.display(),
                path.display(),
                out.join(&stem).display()
            )));
        }
    }
    Ok(())
}

/// What bringing a folder of generated files up to date did (or, checking, found).
#[derive(Default)]
pub(crate) struct Synced {
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
    /// Checking: files that differ, are missing, or should be gone.
    pub stale: usize,
}

/// Writes each of `texts` (file name → content) into `dir`, rewriting only files whose
/// content changed, and removes the files `owned` picks that `texts` no longer has (`gone`
/// says why). With `check`, writes nothing: prints a diff for each stale or missing file and
/// names each file that should be gone.
pub(crate) fn sync_folder(
    dir: &Path,
    texts: &BTreeMap<String, String>,
    owned: &dyn Fn(&str) -> bool,
    check: bool,
    gone: &str,
    color: bool,
) -> Result<Synced, Failure> {
    let existing = existing_files(dir, owned)?;
    let mut synced = Synced::default();
    for (file, text) in texts {
        let target = dir.join(file);
        // A file that is there but does not read (not UTF-8, a FIFO, unreadable) is said,
        // never taken for a missing one and overwritten.
        let old = match crate::input::read_string(&target, crate::config_error::MAX_BYTES) {
            Ok(text) => Some(text),
            Err(_) if std::fs::symlink_metadata(&target).is_err() => None,
            Err(e) => return Err(Failure(e)),
        };
        if old.as_deref() == Some(text.as_str()) {
            synced.unchanged += 1;
            continue;
        }
        if check {
            synced.stale += 1;
            print_diff(&target, old.as_deref().unwrap_or(""), text, color);
        } else {
            std::fs::create_dir_all(dir)
                .map_err(|e| Failure(format!("cannot create `{}`: {e}", dir.display())))?;
            std::fs::write(&target, text)
                .map_err(|e| Failure(format!("cannot write `{}`: {e}", target.display())))?;
            synced.written += 1;
        }
    }
    for file in existing.iter().filter(|f| !texts.contains_key(*f)) {
        let target = dir.join(file);
        if check {
            synced.stale += 1;
            outln!("{}: {gone}", target.display());
        } else {
            std::fs::remove_file(&target)
                .map_err(|e| Failure(format!("cannot remove `{}`: {e}", target.display())))?;
            synced.removed += 1;
        }
    }
    Ok(synced)
}

/// The files `owned` picks already in a folder (none if it does not exist yet), sorted.
fn existing_files(dir: &Path, owned: &dyn Fn(&str) -> bool) -> Result<Vec<String>, Failure> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Failure(format!("cannot read `{}`: {e}", dir.display()))),
    };
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| owned(n))
        .collect();
    files.sort();
    Ok(files)
}

fn print_diff(path: &Path, old: &str, new: &str, color: bool) {
    let a = format!("a/{}", path.display());
    let b = format!("b/{}", path.display());
    out!("{}", unified_diff(old, new, &a, &b, color));
}

/// A unified diff (`crate::textdiff`), colored for a terminal when asked.
pub(crate) fn unified_diff(old: &str, new: &str, a: &str, b: &str, color: bool) -> String {
    let text = crate::textdiff::unified(old, new, a, b);
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let painted = match (color, line.chars().next()) {
            (true, Some('+')) if !line.starts_with("+++") => format!("\x1b[32m{line}\x1b[0m"),
            (true, Some('-')) if !line.starts_with("---") => format!("\x1b[31m{line}\x1b[0m"),
            (true, Some('@')) => format!("\x1b[36m{line}\x1b[0m"),
            _ => line.to_string(),
        };
        out.push_str(&painted);
        out.push('\n');
    }
    out
}
