//! What `fabric push` needs of ToyOS: its session (prompts `leaf01#`, `leaf01(config)#`;
//! `configure`, `end`, `save`, `show config`, `show saved`, `show users`, snapshots as named
//! copies of the configuration) and a push's plan, drift guard, roll-back and lost save.

use fabric::device::dialect::{self, Dialect, Level, Prompt, Snapshots};
use fabric::device::session::Login;
use fabric::device::{Cli, Error};
use fabric::diff::Impact;
use fabric::secrets::Mask;
use fabric::targets::{self, Push, SaveRead};

use super::config::{Command, Config};

/// `host#`, `host(config)#`.
fn prompt(line: &str) -> Option<Prompt<'_>> {
    let body = line.trim_end().strip_suffix('#')?;
    let (host, level) = match body.strip_suffix("(config)") {
        Some(host) => (host, Level::Config),
        None => (body, Level::Enable),
    };
    let ok = !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    ok.then_some(Prompt { host, level })
}

/// `show users`: a session a line, `user line host`, this one's marked `*`.
fn users(text: &str) -> Option<Vec<Login>> {
    let row = |l: &str| {
        let (me, rest) = match l.strip_prefix("* ") {
            Some(rest) => (true, rest),
            None => (false, l),
        };
        let [user, line, host] = rest.split_whitespace().collect::<Vec<_>>()[..] else {
            return None;
        };
        Some(Login {
            me,
            user: user.to_string(),
            line: line.to_string(),
            host: host.to_string(),
            idle: String::new(),
        })
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(row)
        .collect()
}

/// `dir`: a saved copy's name a line.
fn files(text: &str) -> Option<Vec<String>> {
    let names = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let names: Vec<String> = names.map(str::to_string).collect();
    names.iter().all(|n| !n.contains(' ')).then_some(names)
}

pub static DIALECT: Dialect = Dialect {
    name: "toy",
    prompt,
    clean: fabric::input::strip_terminal,
    pager: |_| false,
    paging_off: "terminal length 0",
    configure: Some("configure"),
    end: Some("end"),
    show_running: "show config",
    running: "configuration",
    save: "save",
    transaction: None,
    users_command: "show users",
    users,
    snapshots: Snapshots {
        write: "copy config {}",
        list: "dir",
        read: files,
        delete: "delete {}",
        delete_in_config: false,
        delete_asks: false,
        suffix: "",
    },
    mask: Mask::Word("****"),
    error: dialect::percent_error,
};

/// The running configuration, read.
pub fn fetch(cli: &mut Cli) -> Result<(String, Config), Error> {
    let read = |text: &str| {
        let config = Config::parse(text).map_err(|e| format!("`show config` line {e}"))?;
        Ok((text.to_string(), config))
    };
    cli.fetch_with(read, |c: &Config| c.hostname.as_deref())
}

/// A ToyOS switch's intent: its configuration, all of it managed.
#[derive(Debug)]
pub struct Intent(pub Config);

impl targets::Intent for Intent {
    fn intended(&self) -> &dyn targets::Config {
        &self.0
    }

    fn plan(&self, cli: &mut Cli) -> Result<(String, Box<dyn Push>), Error> {
        let (text, running) = fetch(cli)?;
        let steps = running.plan(&self.0);
        let target = self.0.clone();
        Ok((
            text,
            Box::new(State {
                running,
                target,
                steps,
            }),
        ))
    }
}

/// One push: the configuration before, the target, the commands between.
struct State {
    running: Config,
    target: Config,
    steps: Vec<Command>,
}

fn lines(steps: &[Command]) -> Vec<String> {
    steps.iter().map(Command::line).collect()
}

impl Push for State {
    fn len(&self) -> usize {
        self.steps.len()
    }

    fn shown(&self) -> Vec<(String, Impact)> {
        self.steps
            .iter()
            .map(|c| (c.line(), Impact::Hitless))
            .collect()
    }

    fn losses(&self) -> Vec<(usize, String)> {
        Vec::new()
    }

    fn transactions(&self) -> bool {
        false
    }

    fn lines(&self) -> Vec<String> {
        lines(&self.steps)
    }

    fn unchanged(&self, cli: &mut Cli) -> Result<bool, Error> {
        Ok(fetch(cli)?.1 == self.running)
    }

    fn left(&self, cli: &mut Cli) -> Result<Option<(usize, String)>, Error> {
        let left = fetch(cli)?.1.plan(&self.target);
        Ok(left.first().map(|c| (left.len(), c.line())))
    }

    fn back(&self, cli: &mut Cli) -> Result<Vec<String>, Error> {
        Ok(lines(&fetch(cli)?.1.plan(&self.running)))
    }

    fn back_left(&self, cli: &mut Cli) -> Result<usize, Error> {
        Ok(fetch(cli)?.1.plan(&self.running).len())
    }

    fn read_save(&self, cli: &mut Cli) -> Result<SaveRead, Error> {
        let now = fetch(cli)?.1;
        let saved = Config::parse(&cli.run("show saved")?).is_ok_and(|s| s == now);
        Ok(SaveRead {
            saved,
            at_target: now.plan(&self.target).is_empty(),
        })
    }
}
