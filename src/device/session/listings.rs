//! A CLI session logged in on a switch, as each OS's `show users` reader gives it (each OS's
//! readers of its listings are in its folder, reached through its
//! [`Dialect`](crate::device::dialect::Dialect)). Each reader returns `None` on a reply that is
//! not the listing it reads: an error reply is never read as an empty listing.

/// One CLI session of `show users`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Login {
    /// The row is marked `*`: the session that asked.
    pub me: bool,
    pub user: String,
    pub line: String,
    pub host: String,
    pub idle: String,
}

impl std::fmt::Display for Login {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` on {}", self.user, self.line)?;
        if !self.host.is_empty() {
            write!(f, " from {}", self.host)?;
        }
        if !self.idle.is_empty() {
            write!(f, " (idle {})", self.idle)?;
        }
        Ok(())
    }
}
