//! What a push needs of a switch's OS, once per OS: its intended config ([`Intent`]), the
//! running config read back, the config the push makes and the plan between them
//! ([`State`]), the commands typed for a plan, whether a plan is still good for the config
//! now, what a roll-back types, and how a lost save is read back. The push itself
//! (`super::run`) is written once against these.
//!
//! Onyx: `crate::onyx::plan` plans (flat commands), roll-back to the snapshot's values of what the
//! push changed ([`super::restore`]). OS10: `crate::os10::plan` (hierarchical commands,
//! typed with their block headers and `exit`s, as `os10::plan::script` prints them), the
//! roll-back to the snapshot's values of what the push changed as well
//! ([`super::restore_os10`]), and a release with transaction
//! mode applies each block inside one (`crate::os10::has_transactions`).

use super::super::{Cli, Error};
use crate::diff::Impact;
use crate::onyx::plan::Scope;

/// What one switch should run, in its OS's model.
#[derive(Clone, Debug)]
pub enum Intent {
    Onyx {
        intended: crate::onyx::Config,
        scope: Scope,
    },
    Os10 {
        intended: crate::os10::Config,
    },
}

impl Intent {
    /// The intended configuration, behind the switch-OS interface.
    pub fn intended(&self) -> Box<dyn crate::targets::Config> {
        match self {
            Intent::Onyx { intended, .. } => Box::new(intended.clone()),
            Intent::Os10 { intended } => Box::new(intended.clone()),
        }
    }

    /// The switch's running configuration, read in the intent's OS.
    pub fn fetch(&self, cli: &mut Cli) -> Result<Box<dyn crate::targets::Config>, Error> {
        Ok(match self {
            Intent::Onyx { .. } => Box::new(cli.fetch()?.1),
            Intent::Os10 { .. } => Box::new(cli.fetch_os10()?.1),
        })
    }
}

/// A switch's running config as fetched, the config the push makes, and the plan from one
/// to the other.
#[derive(Clone, Debug)]
pub enum State {
    /// Boxed, as the other: the two OSes' models differ much in size.
    Onyx {
        running: Box<crate::onyx::Config>,
        target: Box<crate::onyx::Config>,
        steps: Vec<crate::onyx::plan::Step>,
    },
    /// Boxed: the two OSes' models differ much in size.
    Os10 {
        running: Box<crate::os10::Config>,
        target: Box<crate::os10::Config>,
        steps: Vec<crate::os10::plan::Step>,
        /// The switch's release has transaction mode (`show version`).
        transactions: bool,
    },
}

/// Whether a save whose reply was lost took place, as read back.
pub struct SaveRead {
    /// The saved configuration is the running one.
    pub saved: bool,
    /// The running config is the push's target.
    pub at_target: bool,
}

/// An OS10 release as `show version` prints it: `OS Version: 10.5.3.2` (captured, AzureStack
/// TOR session).
fn os10_release(show_version: &str) -> Option<&str> {
    show_version
        .lines()
        .find_map(|l| l.trim().strip_prefix("OS Version:"))
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

impl Intent {
    /// Opens a session in the switch's OS's dialect.
    pub fn open(
        &self,
        target: &super::super::Target,
        opts: &super::super::Options,
    ) -> Result<Cli, Error> {
        match self {
            Intent::Onyx { .. } => Cli::open(target, opts),
            Intent::Os10 { .. } => Cli::open_as(target, opts, &super::super::dialect::OS10),
        }
    }

    /// Reads the running config and plans: the text read, and the state.
    pub fn plan(&self, cli: &mut Cli) -> Result<(String, State), Error> {
        match self {
            Intent::Onyx { intended, scope } => {
                let (text, running) = cli.fetch()?;
                let target = crate::onyx::plan::target(&running, intended, scope);
                let steps = crate::onyx::plan::plan(&running, &target);
                Ok((
                    text,
                    State::Onyx {
                        running: Box::new(running),
                        target: Box::new(target),
                        steps,
                    },
                ))
            }
            Intent::Os10 { intended } => {
                let version = cli.run("show version")?;
                let transactions =
                    os10_release(&version).is_some_and(crate::os10::has_transactions);
                let (text, running) = cli.fetch_os10()?;
                let target = crate::os10::plan::target(&running, intended);
                let steps = crate::os10::plan::plan(&running, intended);
                Ok((
                    text,
                    State::Os10 {
                        running: Box::new(running),
                        target: Box::new(target),
                        steps,
                        transactions,
                    },
                ))
            }
        }
    }
}

impl State {
    pub fn len(&self) -> usize {
        match self {
            State::Onyx { steps, .. } => steps.len(),
            State::Os10 { steps, .. } => steps.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each step as a reviewer reads it, with its impact: an OS10 command after the blocks
    /// it is typed in (`interface ethernet1/1/3: mtu 9216`).
    pub fn shown(&self) -> Vec<(String, Impact)> {
        match self {
            State::Onyx { steps, .. } => steps
                .iter()
                .map(|s| (s.command.to_string(), s.impact))
                .collect(),
            State::Os10 { steps, .. } => steps.iter().map(|s| (s.shown(), s.impact)).collect(),
        }
    }

    /// Per step (by index), what it deletes that no plan can type back (an OS10 BGP
    /// neighbor's `password`, masked): a roll-back would re-create the block without it.
    pub fn losses(&self) -> Vec<(usize, String)> {
        match self {
            State::Onyx { .. } => Vec::new(),
            State::Os10 { steps, .. } => steps
                .iter()
                .enumerate()
                .filter_map(|(n, s)| s.loss().map(|l| (n, l)))
                .collect(),
        }
    }

    /// Whether the switch applies a plan atomically (OS10 transaction mode).
    pub fn transactions(&self) -> bool {
        matches!(
            self,
            State::Os10 {
                transactions: true,
                ..
            }
        )
    }

    /// The plan's lines as typed in configuration mode.
    pub fn lines(&self) -> Vec<String> {
        match self {
            State::Onyx { steps, .. } => steps.iter().map(|s| s.command.to_string()).collect(),
            State::Os10 { steps, .. } => os10_lines(steps),
        }
    }

    /// Whether the running config now is still the one the plan was made from.
    pub fn unchanged(&self, cli: &mut Cli) -> Result<bool, Error> {
        Ok(match self {
            State::Onyx { running, .. } => cli.fetch()?.1 == **running,
            State::Os10 { running, .. } => cli.fetch_os10()?.1 == **running,
        })
    }

    /// After applying: how many commands still differ from the target, and the first.
    pub fn left(&self, cli: &mut Cli) -> Result<Option<(usize, String)>, Error> {
        let shown = match self {
            State::Onyx { target, .. } => {
                let now = cli.fetch()?.1;
                let left = crate::onyx::plan::plan(&now, target);
                left.first().map(|s| (left.len(), s.command.to_string()))
            }
            State::Os10 { target, .. } => {
                let now = cli.fetch_os10()?.1;
                let left = crate::os10::plan::plan(&now, target);
                left.first().map(|s| (left.len(), s.shown()))
            }
        };
        Ok(shown)
    }

    /// The lines that take the switch from its config now back to the config before the
    /// push: what the push changed put back ([`super::restore`], OS10's
    /// [`super::restore_os10`]), nothing else.
    pub fn back(&self, cli: &mut Cli) -> Result<Vec<String>, Error> {
        Ok(match self {
            State::Onyx {
                running, target, ..
            } => {
                let now = cli.fetch()?.1;
                let goal = super::restore(&now, running, target);
                crate::onyx::plan::plan(&now, &goal)
                    .iter()
                    .map(|s| s.command.to_string())
                    .collect()
            }
            State::Os10 {
                running, target, ..
            } => {
                let now = cli.fetch_os10()?.1;
                let goal = super::restore_os10::restore(&now, running, target);
                os10_lines(&crate::os10::plan::plan(&now, &goal))
            }
        })
    }

    /// After a roll-back: how many commands still differ from the config before the push.
    pub fn back_left(&self, cli: &mut Cli) -> Result<usize, Error> {
        Ok(match self {
            State::Onyx {
                running, target, ..
            } => {
                let now = cli.fetch()?.1;
                crate::onyx::plan::plan(&now, &super::restore(&now, running, target)).len()
            }
            State::Os10 {
                running, target, ..
            } => {
                let now = cli.fetch_os10()?.1;
                crate::os10::plan::plan(&now, &super::restore_os10::restore(&now, running, target))
                    .len()
            }
        })
    }

    /// Whether a save whose reply was lost took place: Onyx's `show configuration files`
    /// (`Unsaved changes`), OS10's `show startup-configuration` against the running one.
    pub fn read_save(&self, cli: &mut Cli) -> Result<SaveRead, Error> {
        match self {
            State::Onyx { target, .. } => {
                let files = cli.files()?;
                let (_, now) = cli.fetch()?;
                Ok(SaveRead {
                    saved: !files.unsaved,
                    at_target: crate::onyx::plan::plan(&now, target).is_empty(),
                })
            }
            State::Os10 { target, .. } => {
                let (_, now) = cli.fetch_os10()?;
                let startup = cli.run("show startup-configuration")?;
                let startup = crate::secrets::mask(&startup, crate::secrets::Mask::Os10);
                let saved = crate::os10::parse(&startup).is_ok_and(|s| s == now);
                Ok(SaveRead {
                    saved,
                    at_target: crate::os10::plan::plan(&now, target).is_empty(),
                })
            }
        }
    }
}

/// An OS10 plan's lines as typed: `os10::plan::script`'s, without its indentation.
fn os10_lines(steps: &[crate::os10::plan::Step]) -> Vec<String> {
    crate::os10::plan::script(steps)
        .lines()
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_release_of_show_version() {
        let shown = "Dell EMC Networking OS10 Enterprise\nCopyright (c) 1999-2020 by Dell Inc. All Rights Reserved.\nOS Version: 10.5.3.2\nBuild Version: 10.5.3.2.89\n";
        assert_eq!(os10_release(shown), Some("10.5.3.2"));
        assert!(crate::os10::has_transactions("10.5.3.2"));
        assert!(crate::os10::has_transactions("10.4.0.1"));
        assert!(!crate::os10::has_transactions("10.3.2.1"));
        assert!(!crate::os10::has_transactions("ten"));
        assert_eq!(os10_release("% Error: Unrecognized command.\n"), None);
    }
}
