//! Reading a Linux host over SSH for `fabric audit --hosts-live`: one exec channel per
//! read-only command (the list `hosts::script::reads` makes, nothing else), over the same
//! connection, host key check and login as a switch's. The output is a host report: each
//! command after a `$ ` line naming it, as `fabric hosts --format collect` prints it, so one
//! reader reads both.

use std::io::Read;

use super::ssh::{connect, plain, plain_io};
use super::{Error, Options, Target};

/// Runs each command on the host and returns the report. A command that exits non-zero (or
/// is refused) is an error naming it and what it printed: a report is never made of
/// failures.
pub fn read_host(target: &Target, opts: &Options, commands: &[String]) -> Result<String, Error> {
    let (session, _) = connect(target, opts)?;
    session.set_timeout(u32::try_from(opts.command_timeout.as_millis()).unwrap_or(u32::MAX));
    let mut report = String::new();
    for command in commands {
        let closed = |why: String| Error::Closed {
            command: format!("{command}: {why}"),
        };
        let mut channel = session.channel_session().map_err(|e| closed(plain(&e)))?;
        channel.exec(command).map_err(|e| closed(plain(&e)))?;
        let limit = crate::hosts::report::MAX_BYTES;
        let out = crate::input::read_to_limit(&mut channel, limit)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::TimedOut => Error::Timeout {
                    command: command.clone(),
                },
                _ => closed(plain_io(&e)),
            })?
            .ok_or_else(|| {
                closed(format!(
                    "more than the {} a host report may have",
                    crate::input::mib(limit)
                ))
            })?;
        let out = String::from_utf8(out).map_err(|_| closed("not UTF-8 text".into()))?;
        // What it says on standard error is quoted in an error: its first 64 KiB.
        let mut err = Vec::new();
        let _ = channel.stderr().take(64 << 10).read_to_end(&mut err);
        let err = String::from_utf8_lossy(&err);
        let _ = channel.wait_close();
        let status = channel.exit_status().map_err(|e| closed(plain(&e)))?;
        if status != 0 {
            let said = err.trim();
            return Err(Error::Refused {
                command: command.clone(),
                reply: if said.is_empty() {
                    format!("exit status {status}")
                } else {
                    format!("exit status {status}: {said}")
                },
            });
        }
        report.push_str("$ ");
        report.push_str(command);
        report.push('\n');
        report.push_str(&out);
        if !out.is_empty() && !out.ends_with('\n') {
            report.push('\n');
        }
    }
    let _ = session.disconnect(None, "done", None);
    Ok(report)
}

/// Runs one command on the host (`fabric verify --paths`' probes): what it printed on
/// standard output. A non-zero exit is an error, as for [`read_host`].
pub fn run_on_host(target: &Target, opts: &Options, command: &str) -> Result<String, Error> {
    let report = read_host(target, opts, &[command.to_string()])?;
    let head = format!("$ {command}\n");
    Ok(report.strip_prefix(&head).unwrap_or(&report).to_string())
}
