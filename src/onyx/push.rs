//! What `fabric push` needs of Onyx: plans of flat commands, typed one per line; a roll-back
//! to the snapshot's values of what the push changed ([`super::restore`]); a lost save read
//! back from `show configuration files` (`Unsaved changes`).

use crate::device::{Cli, Error};
use crate::diff::Impact;
use crate::fabric::Switch;
use crate::targets::{self, Push, SaveRead};

use super::Config;
use super::plan::{Scope, Step};

/// An Onyx switch's intent: its configuration and what the fabric manages on it.
#[derive(Clone, Debug)]
pub struct Intent {
    pub intended: Config,
    pub scope: Scope,
}

impl Intent {
    pub fn of(sw: &Switch) -> Intent {
        Intent {
            intended: super::compile::compile_switch(sw),
            scope: Scope::fabric(sw, false),
        }
    }
}

impl targets::Intent for Intent {
    fn intended(&self) -> &dyn targets::Config {
        &self.intended
    }

    fn plan(&self, cli: &mut Cli) -> Result<(String, Box<dyn Push>), Error> {
        let (text, running) = super::dialect::fetch(cli)?;
        let target = super::plan::target(&running, &self.intended, &self.scope);
        let steps = super::plan::plan(&running, &target);
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

/// A switch's running config as fetched, the config the push makes, and the plan between.
struct State {
    running: Config,
    target: Config,
    steps: Vec<Step>,
}

impl Push for State {
    fn len(&self) -> usize {
        self.steps.len()
    }

    fn shown(&self) -> Vec<(String, Impact)> {
        self.steps
            .iter()
            .map(|s| (s.command.to_string(), s.impact))
            .collect()
    }

    fn losses(&self) -> Vec<(usize, String)> {
        Vec::new()
    }

    fn transactions(&self) -> bool {
        false
    }

    fn lines(&self) -> Vec<String> {
        self.steps.iter().map(|s| s.command.to_string()).collect()
    }

    fn unchanged(&self, cli: &mut Cli) -> Result<bool, Error> {
        Ok(super::dialect::fetch(cli)?.1 == self.running)
    }

    fn left(&self, cli: &mut Cli) -> Result<Option<(usize, String)>, Error> {
        let now = super::dialect::fetch(cli)?.1;
        let left = super::plan::plan(&now, &self.target);
        Ok(left.first().map(|s| (left.len(), s.command.to_string())))
    }

    fn back(&self, cli: &mut Cli) -> Result<Vec<String>, Error> {
        let now = super::dialect::fetch(cli)?.1;
        let goal = super::restore::restore(&now, &self.running, &self.target);
        Ok(super::plan::plan(&now, &goal)
            .iter()
            .map(|s| s.command.to_string())
            .collect())
    }

    fn back_left(&self, cli: &mut Cli) -> Result<usize, Error> {
        let now = super::dialect::fetch(cli)?.1;
        let goal = super::restore::restore(&now, &self.running, &self.target);
        Ok(super::plan::plan(&now, &goal).len())
    }

    fn read_save(&self, cli: &mut Cli) -> Result<SaveRead, Error> {
        let files = super::listings::files(cli)?;
        let (_, now) = super::dialect::fetch(cli)?;
        Ok(SaveRead {
            saved: !files.unsaved,
            at_target: super::plan::plan(&now, &self.target).is_empty(),
        })
    }
}
