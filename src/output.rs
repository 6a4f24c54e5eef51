//! Printing for the command line and the fleet runner: [`out!`], [`outln!`], [`err!`] and
//! [`errln!`] write to standard output or error, and a reader that has gone away ends that
//! output quietly instead of a panic. The command line prints its results; the fleet runner
//! (`crate::fleet`) prints per-switch errors and notes while it runs.

use std::io::Write as _;

/// `print!` for commands' output: a reader that has gone away (`fabric parse x | head`) ends
/// the output quietly, as Unix tools do, instead of a panic. The command still finishes and
/// exits with its own code: a closed pipe never turns a diff's or an audit's verdict into
/// success, and never stops a push half-way.
macro_rules! out {
    ($($t:tt)*) => { $crate::output::write_to(false, format_args!($($t)*)) };
}

/// `println!` through [`out!`].
macro_rules! outln {
    ($($t:tt)*) => { $crate::output::write_to(false, format_args!("{}\n", format_args!($($t)*))) };
}

/// `eprint!` with [`out!`]'s behaviour on standard error (`fabric diff … 2>&1 | head`).
macro_rules! err {
    ($($t:tt)*) => { $crate::output::write_to(true, format_args!($($t)*)) };
}

/// `eprintln!` through [`err!`].
macro_rules! errln {
    ($($t:tt)*) => { $crate::output::write_to(true, format_args!("{}\n", format_args!($($t)*))) };
}

/// Writes to standard output (or error); once a reader has gone away, nothing more is
/// written there and nothing fails.
pub fn write_to(stderr: bool, args: std::fmt::Arguments<'_>) {
    use std::sync::atomic::{AtomicBool, Ordering};
    static CLOSED: [AtomicBool; 2] = [AtomicBool::new(false), AtomicBool::new(false)];
    let closed = &CLOSED[usize::from(stderr)];
    if closed.load(Ordering::Relaxed) {
        return;
    }
    let written = if stderr {
        std::io::stderr().lock().write_fmt(args)
    } else {
        let mut out = std::io::stdout().lock();
        out.write_fmt(args).and_then(|()| out.flush())
    };
    if written.is_err() {
        // A closed pipe, or a full disk: nothing more can be said there.
        closed.store(true, Ordering::Relaxed);
    }
}
