//! Why a text handed over as a switch's running configuration could not be read, and where:
//! one error for every switch OS's parser ([`crate::targets::SwitchOs::parse`]), so the
//! commands that read configurations report them through one diagnostic mapping, whatever the
//! OS. The data only: each OS's parser words `expected`, `cli` turns it into a diagnostic with
//! its code.

use std::fmt;

/// The most a running config of any OS may have (a file, standard input, a backup): the
/// largest real configs are a few MB (an Onyx switch's 128 ports × every VLAN on hybrid ports
/// is ~30 MB); anything larger is refused before it is read (`crate::input`).
pub const MAX_BYTES: u64 = 64 << 20;

/// What is wrong with a text handed over as a running configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// A line of a modeled command that does not read: a bad argument or value, or a line cut
    /// short.
    Malformed,
    /// Lines that do not make a tree (a hierarchical configuration, OS10's): an indented line
    /// with no block above it, a child indented past one space more than its parent, a tab, a
    /// block's lines at the top level, a banner never closed, a known single-line command with
    /// lines under it.
    Structure,
    /// A block or a setting given twice (OS10 prints each once).
    Duplicate,
    /// Not a running config (Onyx): no `##` header, no section, and a line that is no command.
    NotConfiguration,
    /// A CLI prompt and command (`OS10# show running-configuration`): a pasted session.
    Prompt,
    /// A switch's error reply (`% …`) where configuration should be: a failed capture.
    ErrorReply,
    /// A line with a control character: bytes, not text.
    NotText,
    /// Nothing but blank lines (for Onyx, also comments and prompts).
    Empty,
}

/// Why a text could not be read as a running configuration, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub problem: Problem,
    /// 1-based line of the input.
    pub line: usize,
    /// 1-based column (in characters) where reading failed.
    pub column: usize,
    /// The line as read (for Onyx, after cleaning).
    pub text: String,
    /// What was expected there, or what is wrong.
    pub expected: String,
}

impl ParseError {
    /// A text with nothing to read, `expected` saying what it held instead.
    pub fn empty(expected: &str) -> ParseError {
        ParseError {
            problem: Problem::Empty,
            line: 1,
            column: 1,
            text: String::new(),
            expected: expected.to_string(),
        }
    }

    /// What is said of a control character `c` in a line ([`Problem::NotText`]).
    pub fn not_text(c: char) -> String {
        format!(
            "text, not {} (is this a binary file?)",
            crate::types::describe_char(c)
        )
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.problem {
            Problem::Malformed => write!(
                f,
                "{}:{}: expected {}",
                self.line, self.column, self.expected
            ),
            _ => write!(f, "{}:{}: {}", self.line, self.column, self.expected),
        }
    }
}

impl std::error::Error for ParseError {}
