//! What a CLI session needs to know of a switch OS, as one value per OS: how its prompt reads
//! (the end of every reply), what a terminal leaves in a reply, its pager, how paging is
//! turned off, how configuration mode is entered and left (where there is one), how the
//! running configuration is read and saved, how the logins are listed, what an error reply
//! looks like, and its transaction commands where it has them. [`Cli`](super::Cli) is written once against a [`Dialect`]; each OS's value is in its
//! folder (`dialect::DIALECT`), with the facts it rests on.

use std::borrow::Cow;

/// The CLI level a prompt shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Below `enable`: the session types `enable` first.
    User,
    /// Where commands are typed: the `#` prompt, or a shell's prompt on an OS without
    /// `enable` (nothing is typed to get there).
    Enable,
    /// In configuration mode.
    Config,
}

/// A prompt read at the end of a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prompt<'a> {
    pub host: &'a str,
    pub level: Level,
}

/// The command that confirms a commit, from what the commit printed; or why there is none.
pub type Confirm = fn(&str) -> Result<String, String>;

/// The transaction commands of an OS that applies a block of changes atomically.
#[derive(Clone, Copy, Debug)]
pub struct Transaction {
    /// Typed at the `#` prompt; configuration commands after it are held.
    pub start: &'static str,
    /// Applies what was held, all at once.
    pub commit: &'static str,
    /// Drops what was held; the running configuration is untouched.
    pub discard: &'static str,
    /// The command that confirms the last commit, from what the commit printed (the revision
    /// it made), or why there is none; the switch rolls an unconfirmed commit back by itself.
    /// `None`: a commit stands as it is.
    pub confirm: Option<Confirm>,
}

/// How a switch OS keeps a push's snapshot as a file of its own: `{}` in a command stands for
/// the file's name.
#[derive(Clone, Copy, Debug)]
pub struct Snapshots {
    /// Writes the running configuration to a new file.
    pub write: &'static str,
    /// Lists the files …
    pub list: &'static str,
    /// … read: their names, the one the switch boots from left out; `None` when the reply is
    /// no such listing.
    pub read: fn(&str) -> Option<Vec<String>>,
    /// Deletes one file.
    pub delete: &'static str,
    /// Typed in configuration mode (else at the `#` prompt).
    pub delete_in_config: bool,
    /// `delete` asks to confirm; it is answered `yes`.
    pub delete_asks: bool,
    /// After the snapshot's name, in the file's name.
    pub suffix: &'static str,
}

/// A switch OS's session conventions.
#[derive(Debug)]
pub struct Dialect {
    pub name: &'static str,
    /// The prompt that ends `line` (the last line of a reply, cleaned), if it is one with
    /// nothing typed after it.
    pub prompt: fn(&str) -> Option<Prompt<'_>>,
    /// A reply without what the terminal added (`\r`, escapes, NULs, backspaces; a pager's
    /// leftovers), one output line per line.
    pub clean: fn(&str) -> Cow<'_, str>,
    /// Whether the last line is the pager's prompt (paging should be off; if it shows, the
    /// session pages on).
    pub pager: fn(&str) -> bool,
    pub paging_off: &'static str,
    /// Enters configuration mode (`None`: there is none; configuration commands are typed
    /// where every command is).
    pub configure: Option<&'static str>,
    /// Leaves configuration mode from any depth (`None`: `exit` level by level).
    pub end: Option<&'static str>,
    pub show_running: &'static str,
    /// The running configuration, as messages name it (`running config`).
    pub running: &'static str,
    pub save: &'static str,
    pub transaction: Option<Transaction>,
    /// Lists the sessions logged in (`show users`) …
    pub users_command: &'static str,
    /// … read: the sessions, `None` when the reply is no such table.
    pub users: fn(&str) -> Option<Vec<super::session::Login>>,
    pub snapshots: Snapshots,
    /// How the OS masks a secret: what the session masks in text it keeps or shows.
    pub mask: crate::secrets::Mask,
    /// Whether a reply line is the switch refusing the command.
    pub error: fn(&str) -> bool,
}

/// An error reply that begins with `%` (`% Unrecognized command`, `% Error: …`): a
/// [`Dialect::error`] for the OSes whose errors all do.
pub fn percent_error(line: &str) -> bool {
    line.starts_with('%')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_percent_line_is_an_error() {
        assert!(percent_error("% Unrecognized command \"foo\""));
        assert!(percent_error("% Error: Invalid input"));
        assert!(!percent_error(" % indented"));
        assert!(!percent_error("interface ethernet 1/1 mtu 9216"));
        assert!(!percent_error(""));
    }
}
