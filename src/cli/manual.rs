//! What a shell and `man` need of the command line: `fabric completions SHELL` (clap_complete)
//! and `fabric man` (clap_mangen, one roff page, or one page per subcommand with `--out`),
//! and each subcommand's `Examples:` block, written once here and shown by `--help` and the
//! man pages alike. The examples are parsed by the CLI's own parser in the tests, so they
//! cannot drift from the options.

use std::path::{Path, PathBuf};

use clap::CommandFactory as _;

use crate::error::{Failure, exit};

/// The heading that opens every subcommand's examples (the tests look for it).
pub const EXAMPLES_HEADING: &str = "Examples:";

pub const VALIDATE: &str = "\
Examples:
  # Check every fabric; warnings fail too
  $ fabric validate fabrics/rdg-roce-dscp.yaml fabrics/ml-cluster.yaml --deny-warnings";

pub const COMPILE: &str = "\
Examples:
  # In CI: exit 1 and print the diff when a committed golden is stale
  $ fabric compile fabrics/rdg-roce-dscp.yaml --check";

pub const DOCS: &str = "\
Examples:
  # Port maps, the topology and one HTML page per fabric, under docs/fabrics/
  $ fabric docs fabrics/ml-cluster.yaml
  # In CI: exit 1 and print the diff when committed docs are stale
  $ fabric docs fabrics/*.yaml --check";

pub const HOSTS: &str = "\
Examples:
  # What one GPU server's NIC must be set to for its leaf
  $ fabric hosts fabrics/ml-cluster.yaml --host gpu001
  # The read-only script whose output `fabric audit --hosts` reads
  $ fabric hosts fabrics/vsphere-mlag.yaml --format collect";

pub const PARSE: &str = "\
Examples:
  # A backup as the model, for scripts
  $ fabric parse backups/leaf01.cfg --format json";

pub const DIFF: &str = "\
Examples:
  # Only the commands that remove the drift from a folder of backups
  $ fabric diff fabrics/ml-cluster.yaml --running backups/ --format commands
  # One switch, read live over SSH through ~/.ssh/config (ProxyJump included)
  $ fabric diff fabrics/ml-cluster.yaml --switch leaf01";

pub const PUSH: &str = "\
Examples:
  # Show the plan of one switch and stop
  $ fabric push fabrics/ml-cluster.yaml --switch leaf01 --dry-run
  # The whole fabric onto simulated switches, no questions asked
  $ fabric push fabrics/rdg-roce-dscp.yaml --lab --yes";

pub const LAB: &str = "\
Examples:
  # Serve the fabric's switches on loopback, starting from backups
  $ fabric lab fabrics/ml-cluster.yaml --from backups/";

pub const AUDIT: &str = "\
Examples:
  # The live switches, as SARIF for code scanning
  $ fabric audit fabrics/ml-cluster.yaml --live --format sarif";

pub const VERIFY: &str = "\
Examples:
  # BGP and MLAG only, waiting up to a minute for sessions to come up
  $ fabric verify fabrics/ml-cluster.yaml --check bgp,mlag --wait 60";

pub const IMPORT: &str = "\
Examples:
  # A fabric file from a folder of backups
  $ fabric import backups/ --output fabric.yaml";

pub const EXPLAIN: &str = "\
Examples:
  # Every rule, check and diagnostic code, one line each
  $ fabric explain
  # What E043 means and how to fix it
  $ fabric explain E043";

pub const SCHEMA: &str = "\
Examples:
  # The schema editors read (yaml-language-server)
  $ fabric schema > schema/fabric.schema.json";

pub const COMPLETIONS: &str = "\
Examples:
  # Bash, for the current user
  $ fabric completions bash > ~/.local/share/bash-completion/completions/fabric
  # Zsh: a file named _fabric in a folder of $fpath
  $ fabric completions zsh > ~/.zfunc/_fabric";

pub const MAN: &str = "\
Examples:
  # Read the manual now
  $ fabric man | man -l -
  # One page per subcommand (fabric.1, fabric-diff.1, …), for MANPATH
  $ fabric man --out ~/.local/share/man/man1";

/// The commands of an `Examples:` block, each as its words (`fabric` first), up to a shell
/// redirection or pipe: what the parser is given in the tests.
pub fn example_commands(after_help: &str) -> Vec<Vec<String>> {
    after_help
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("$ "))
        .map(|cmd| {
            cmd.split_whitespace()
                .take_while(|w| !matches!(*w, ">" | "|" | "<" | ">>"))
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// The whole command line as clap knows it, for completions, man pages and tests.
pub fn command() -> clap::Command {
    super::Cli::command().about(super::about())
}

/// `fabric completions SHELL`: the completion script on standard output.
pub fn completions(shell: clap_complete::Shell) -> Result<u8, Failure> {
    let mut cmd = command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "fabric", &mut script);
    out!("{}", String::from_utf8_lossy(&script));
    Ok(exit::OK)
}

/// `fabric man [--out DIR]`: the manual of `fabric` in roff on standard output, or one page
/// per command (`fabric.1`, `fabric-diff.1`, …) written in `DIR`.
pub fn man(out: Option<&Path>) -> Result<u8, Failure> {
    let mut cmd = command().disable_help_subcommand(true);
    cmd.build();
    let Some(dir) = out else {
        out!("{}", page(&cmd)?.1);
        return Ok(exit::OK);
    };
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure(format!("cannot create `{}`: {e}", dir.display())))?;
    let mut written: Vec<PathBuf> = Vec::new();
    // `build` named each subcommand `fabric-NAME`: its page's title and file name.
    let pages = std::iter::once(&cmd).chain(cmd.get_subcommands().filter(|s| !s.is_hide_set()));
    for c in pages {
        let (file, text) = page(c)?;
        let path = dir.join(file);
        std::fs::write(&path, text)
            .map_err(|e| Failure(format!("cannot write `{}`: {e}", path.display())))?;
        written.push(path);
    }
    outln!("{} page(s) written in {}", written.len(), dir.display());
    Ok(exit::OK)
}

/// One of clap_mangen's section renderers.
type Section = fn(&clap_mangen::Man, &mut dyn std::io::Write) -> std::io::Result<()>;

/// One man page, its file name and its roff: clap_mangen's sections, with the examples as
/// an EXAMPLES section whose lines stay lines (clap_mangen would fill them into one
/// paragraph).
fn page(cmd: &clap::Command) -> Result<(String, String), Failure> {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut roff: Vec<u8> = Vec::new();
    let sections: [Section; 4] = [
        clap_mangen::Man::render_title,
        clap_mangen::Man::render_name_section,
        clap_mangen::Man::render_synopsis_section,
        clap_mangen::Man::render_description_section,
    ];
    let failed = |e: std::io::Error| Failure(format!("cannot render the man page: {e}"));
    for render in sections {
        render(&man, &mut roff).map_err(failed)?;
    }
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut roff).map_err(failed)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(&mut roff).map_err(failed)?;
    }
    let mut text = String::from_utf8_lossy(&roff).into_owned();
    if let Some(examples) = cmd.get_after_help().map(|h| h.to_string()) {
        text.push_str(&examples_section(&examples));
    }
    if cmd.get_version().is_some() {
        let mut v = Vec::new();
        man.render_version_section(&mut v).map_err(failed)?;
        text.push_str(&String::from_utf8_lossy(&v));
    }
    Ok((man.get_filename(), text))
}

/// An `Examples:` block as a roff EXAMPLES section: comment lines as text, commands in a
/// no-fill display.
fn examples_section(block: &str) -> String {
    let mut roff = String::from(".SH EXAMPLES\n");
    for line in block
        .lines()
        .skip_while(|l| l.trim() != EXAMPLES_HEADING)
        .skip(1)
    {
        let line = line.trim();
        if let Some(comment) = line.strip_prefix("# ") {
            roff.push_str(&format!(".PP\n{}\n", escape(comment)));
        } else if !line.is_empty() {
            roff.push_str(&format!(".RS 4\n.nf\n{}\n.fi\n.RE\n", escape(line)));
        }
    }
    roff
}

/// Text as roff reads it literally: backslashes and hyphens escaped, and no line starting
/// with a control character.
fn escape(text: &str) -> String {
    let text = text.replace('\\', "\\e").replace('-', "\\-");
    if text.starts_with(['.', '\'']) {
        format!("\\&{text}")
    } else {
        text
    }
}
