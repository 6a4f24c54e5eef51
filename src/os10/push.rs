//! What `fabric push` needs of OS10: plans of hierarchical commands, typed with their block
//! headers and `exit`s (as [`super::plan::script`] prints them); a release with transaction
//! mode applies each plan inside one ([`super::has_transactions`]); a roll-back to the
//! snapshot's values of what the push changed ([`super::restore`]); a lost save read back
//! from `show startup-configuration` against the running one.

use crate::device::{Cli, Error};
use crate::diff::Impact;
use crate::fabric::Switch;
use crate::targets::{self, Push, SaveRead};

use super::Config;
use super::plan::Step;

/// An OS10 switch's intent: its configuration (a plan manages all of it).
#[derive(Clone, Debug)]
pub struct Intent {
    pub intended: Config,
}

impl Intent {
    pub fn of(sw: &Switch) -> Intent {
        Intent {
            intended: super::compile::compile_switch(sw),
        }
    }
}

/// An OS10 release as `show version` prints it: `OS Version: 10.5.3.2` (captured, AzureStack
/// TOR session).
fn release(show_version: &str) -> Option<&str> {
    show_version
        .lines()
        .find_map(|l| l.trim().strip_prefix("OS Version:"))
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

impl targets::Intent for Intent {
    fn intended(&self) -> &dyn targets::Config {
        &self.intended
    }

    fn plan(&self, cli: &mut Cli) -> Result<(String, Box<dyn Push>), Error> {
        let version = cli.run("show version")?;
        let transactions = release(&version).is_some_and(super::has_transactions);
        let (text, running) = super::dialect::fetch(cli)?;
        let target = super::plan::target(&running, &self.intended);
        let steps = super::plan::plan(&running, &self.intended);
        Ok((
            text,
            Box::new(State {
                running,
                target,
                steps,
                transactions,
            }),
        ))
    }
}

/// A switch's running config as fetched, the config the push makes, and the plan between.
struct State {
    running: Config,
    target: Config,
    steps: Vec<Step>,
    /// The switch's release has transaction mode (`show version`).
    transactions: bool,
}

/// A plan's lines as typed: [`super::plan::script`]'s, without its indentation.
fn lines(steps: &[Step]) -> Vec<String> {
    super::plan::script(steps)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

impl Push for State {
    fn len(&self) -> usize {
        self.steps.len()
    }

    fn shown(&self) -> Vec<(String, Impact)> {
        self.steps.iter().map(|s| (s.shown(), s.impact)).collect()
    }

    fn losses(&self) -> Vec<(usize, String)> {
        self.steps
            .iter()
            .enumerate()
            .filter_map(|(n, s)| s.loss().map(|l| (n, l)))
            .collect()
    }

    fn transactions(&self) -> bool {
        self.transactions
    }

    fn lines(&self) -> Vec<String> {
        lines(&self.steps)
    }

    fn unchanged(&self, cli: &mut Cli) -> Result<bool, Error> {
        Ok(super::dialect::fetch(cli)?.1 == self.running)
    }

    fn left(&self, cli: &mut Cli) -> Result<Option<(usize, String)>, Error> {
        let now = super::dialect::fetch(cli)?.1;
        let left = super::plan::plan(&now, &self.target);
        Ok(left.first().map(|s| (left.len(), s.shown())))
    }

    fn back(&self, cli: &mut Cli) -> Result<Vec<String>, Error> {
        let now = super::dialect::fetch(cli)?.1;
        let goal = super::restore::restore(&now, &self.running, &self.target);
        Ok(lines(&super::plan::plan(&now, &goal)))
    }

    fn back_left(&self, cli: &mut Cli) -> Result<usize, Error> {
        let now = super::dialect::fetch(cli)?.1;
        let goal = super::restore::restore(&now, &self.running, &self.target);
        Ok(super::plan::plan(&now, &goal).len())
    }

    fn read_save(&self, cli: &mut Cli) -> Result<SaveRead, Error> {
        let (_, now) = super::dialect::fetch(cli)?;
        let startup = cli.run("show startup-configuration")?;
        let startup = crate::secrets::mask(&startup, super::dialect::MASK);
        let saved = super::parse(&startup).is_ok_and(|s| s == now);
        Ok(SaveRead {
            saved,
            at_target: super::plan::plan(&now, &self.target).is_empty(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_release_of_show_version() {
        let shown = "Dell EMC Networking OS10 Enterprise\nCopyright (c) 1999-2020 by Dell Inc. All Rights Reserved.\nOS Version: 10.5.3.2\nBuild Version: 10.5.3.2.89\n";
        assert_eq!(release(shown), Some("10.5.3.2"));
        assert!(crate::os10::has_transactions("10.5.3.2"));
        assert!(crate::os10::has_transactions("10.4.0.1"));
        assert!(!crate::os10::has_transactions("10.3.2.1"));
        assert!(!crate::os10::has_transactions("ten"));
        assert_eq!(release("% Error: Unrecognized command.\n"), None);
    }
}
