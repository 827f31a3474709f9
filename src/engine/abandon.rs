//! The organiser's way out of a dead game (`despatch gm abandon`; ruling S10 in
//! docs/strict-dice.md, ruling O1 in docs/club-rules.md): the game ends with no result — no
//! winner and no draw — and the open or locked step is left unresolved. Pure: it decides and
//! applies the `game_abandoned` event; it must never lock, resolve or seed a step, so nothing
//! here touches the dice.

use chrono::{DateTime, Utc};

use super::books::Abandonment;
use super::event::{Event, ReplayError, err};
use super::game::Game;
use super::play::{GmError, Play};
use super::ruleset::Ruleset;

/// `despatch gm abandon GAME --reason …`: the event that ends the game without a result, or
/// why not. Refused on a game already over and without a reason (every seat reads it).
pub fn gm_abandon<P: Play + ?Sized>(
    p: &P,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Event, GmError> {
    if p.is_over() {
        return Err(GmError::Over(p.book().id.clone()));
    }
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(GmError::NoReason);
    }
    Ok(Event::GameAbandoned {
        step: p.book().step,
        reason: reason.to_string(),
        at: now,
    })
}

impl<R: Ruleset> Game<R> {
    /// Applies `game_abandoned`: the game is over from here on, and nothing of the step runs.
    pub(crate) fn apply_abandon(
        &mut self,
        step: u64,
        reason: &str,
        index: u64,
    ) -> Result<(), ReplayError> {
        let kind = "game_abandoned";
        self.expect_step(index, kind, step)?;
        if self.ended || self.outcome_now().is_some() {
            return Err(err(index, kind, "type", "the game is already over"));
        }
        if reason.trim().is_empty() {
            return Err(err(index, kind, "reason", "is empty"));
        }
        self.book.club.abandoned = Some(Abandonment {
            step,
            reason: reason.to_string(),
            title: R::step(&self.state).title,
            locked: self.book.locked.is_some(),
        });
        Ok(())
    }
}
