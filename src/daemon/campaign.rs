//! What `despatch new` may add to a plain game (issue 16 point 7): the league it counts in, and
//! for a campaign the finished game whose survivors it carries. The carrying itself is the
//! ruleset's (`Ruleset::carry`); here the shell opens the finished game and hands its state
//! and the next scenario's text over, and the carried text is what the new game journals.

use anyhow::{Result, anyhow, bail};

use super::Daemon;

/// The extras of a new game; the default is a plain game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewGame {
    /// The league the game counts in (same characters as a game id).
    pub league: Option<String>,
    /// A finished game of the same ruleset whose sides' losses the new scenario takes over.
    pub carry_from: Option<String>,
}

impl Daemon {
    /// The scenario the new game is set up from: `scenario_toml` itself, or for a campaign the
    /// same scenario as the finished game `extras.carry_from` leaves the sides.
    pub(super) fn carried_scenario(
        &self,
        extras: &NewGame,
        ruleset: &str,
        scenario_toml: String,
    ) -> Result<String> {
        let Some(from) = &extras.carry_from else {
            return Ok(scenario_toml);
        };
        let store = self.data.game(from);
        if !store.exists() {
            bail!(
                "--carry-from {from}: no game `{from}` in {}",
                self.data.root.display()
            );
        }
        let finished = store.open(&self.registry)?;
        if finished.ruleset() != ruleset {
            bail!(
                "--carry-from {from}: that game is {}, not {ruleset}; a campaign stays in one ruleset",
                finished.ruleset()
            );
        }
        // Asked first, so a ruleset without campaigns says so whatever the game's state.
        let carried = finished
            .carry_into(&scenario_toml)
            .map_err(|e| anyhow!("--carry-from {from}: {e}"))?;
        if !finished.is_over() {
            bail!(
                "--carry-from {from}: that game is still running (step {}); a campaign carries \
                 what a finished battle left",
                finished.book().step
            );
        }
        Ok(carried)
    }
}
