//! What `fabric push` needs of Cumulus: a push's plan (the `nv set` / `nv unset` commands
//! from the applied tree to the target), its drift guard, what is left after applying,
//! roll-back and a lost save read back. The session applies it as one revision
//! (`dialect::DIALECT`'s transaction: staged, applied with `--confirm`, verified, confirmed).

use super::tree::{self, Command};
use super::{Config, dialect};
use crate::device::{Cli, Error};
use crate::diff::Impact;
use crate::fabric::Switch;
use crate::targets::{self, Push, SaveRead};

/// A Cumulus switch's intent: its compiled tree; the managed objects replace the running
/// ones (`plan::MANAGED`).
#[derive(Debug)]
pub struct Intent(pub Config);

impl Intent {
    pub fn of(sw: &Switch) -> Intent {
        Intent(super::compile::compile(sw))
    }
}

impl targets::Intent for Intent {
    fn intended(&self) -> &dyn targets::Config {
        &self.0
    }

    fn plan(&self, cli: &mut Cli) -> Result<(String, Box<dyn Push>), Error> {
        let (text, running) = dialect::fetch(cli)?;
        let target = super::plan::target(&running.set, &self.0.set, true);
        let steps = super::plan::plan(&running.set, &target);
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

/// One push: the tree before, the target, the commands between.
struct State {
    running: Config,
    target: tree::Tree,
    steps: Vec<(Command, Impact)>,
}

fn lines(steps: &[Command]) -> Vec<String> {
    steps.iter().map(Command::line).collect()
}

impl Push for State {
    fn len(&self) -> usize {
        self.steps.len()
    }

    fn shown(&self) -> Vec<(String, Impact)> {
        self.steps.iter().map(|(c, i)| (c.line(), *i)).collect()
    }

    fn losses(&self) -> Vec<(usize, String)> {
        Vec::new()
    }

    fn transactions(&self) -> bool {
        true
    }

    fn lines(&self) -> Vec<String> {
        self.steps.iter().map(|(c, _)| c.line()).collect()
    }

    fn unchanged(&self, cli: &mut Cli) -> Result<bool, Error> {
        Ok(dialect::fetch(cli)?.1.set == self.running.set)
    }

    fn left(&self, cli: &mut Cli) -> Result<Option<(usize, String)>, Error> {
        let left = tree::diff(&dialect::fetch(cli)?.1.set, &self.target);
        Ok(left.first().map(|c| (left.len(), c.line())))
    }

    fn back(&self, cli: &mut Cli) -> Result<Vec<String>, Error> {
        Ok(lines(&tree::diff(
            &dialect::fetch(cli)?.1.set,
            &self.running.set,
        )))
    }

    fn back_left(&self, cli: &mut Cli) -> Result<usize, Error> {
        Ok(tree::diff(&dialect::fetch(cli)?.1.set, &self.running.set).len())
    }

    fn read_save(&self, cli: &mut Cli) -> Result<SaveRead, Error> {
        let now = dialect::fetch(cli)?.1;
        let startup = cli.run(dialect::SHOW_STARTUP)?;
        let saved = Config::parse(&startup).is_ok_and(|s| s.set == now.set);
        Ok(SaveRead {
            saved,
            at_target: tree::diff(&now.set, &self.target).is_empty(),
        })
    }
}
