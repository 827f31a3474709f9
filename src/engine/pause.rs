//! The organiser's pause (issue 31 point 4; rulings O5–O6 in docs/club-rules.md): the open
//! step's clock stops and starts again. Pure: it decides `game_paused` / `game_resumed` and
//! applies them. It must never lock, resolve or seed a step, and never read a clock: the time
//! comes in as a value, so replay recomputes every resumed deadline from the journal alone.

use chrono::{DateTime, Duration, Utc};

use super::books::Pause;
use super::event::{Event, GmKind, ReplayError, err};
use super::game::Game;
use super::play::{GmError, Play};
use super::ruleset::Ruleset;

/// The least time a resumed step gives its seats (ruling O6): a step paused a minute before
/// its deadline, or after it during the grace, still gives an hour to read the resume mail.
pub const MIN_LEFT: Duration = Duration::hours(1);

/// The deadline of a step resumed at `now` with `left` on its clock: now plus what was left,
/// and never less than `MIN_LEFT` (ruling O6). `None` for a step without a deadline.
pub fn resumed_deadline(left: Option<Duration>, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    left.map(|l| now + l.max(MIN_LEFT))
}

/// `PAUSE <game> [reason]`: the event that stops the clock, or why not.
pub fn gm_pause<P: Play + ?Sized>(
    p: &P,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Event, GmError> {
    let book = p.book();
    if p.is_over() {
        return Err(GmError::Over(book.id.clone()));
    }
    if let Some(pause) = &book.club.paused {
        return Err(GmError::Paused(pause.at));
    }
    // A strict step waiting for reveals has its own clock, which a pause would not stop.
    if let Some(why) = super::strict::gm_refusal(book) {
        return Err(GmError::AwaitingReveals(why));
    }
    if book.locked.is_some() {
        return Err(GmError::Locked);
    }
    let reason = match reason.trim() {
        "" => "paused by the organiser".to_string(),
        r => r.to_string(),
    };
    Ok(Event::GamePaused {
        step: book.step,
        reason,
        at: now,
    })
}

/// `RESUME <game>`: the event that starts the clock again with the time that was left.
pub fn gm_resume<P: Play + ?Sized>(p: &P, now: DateTime<Utc>) -> Result<Event, GmError> {
    let book = p.book();
    if p.is_over() {
        return Err(GmError::Over(book.id.clone()));
    }
    let Some(pause) = &book.club.paused else {
        return Err(GmError::NotPaused);
    };
    Ok(Event::GameResumed {
        step: book.step,
        deadline: resumed_deadline(pause.left(), now.max(pause.at)),
        at: now.max(pause.at),
    })
}

/// `BROADCAST`: the journal line of a message from the organiser to every seat, its digest
/// made as press's from `gm` with `salt` (drawn by the shell). `text` is canonical
/// (`press::canonical`); the text itself is kept only under `press_record = "text"`.
pub fn gm_broadcast<P: Play + ?Sized>(
    p: &P,
    text: &str,
    salt: &crate::dice::Hash,
    league: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Event, GmError> {
    let book = p.book();
    if p.is_over() {
        return Err(GmError::Over(book.id.clone()));
    }
    if text.trim().is_empty() {
        return Err(GmError::NoMessage);
    }
    let keep = book.policy.club.press_record == super::club::PressRecord::Text;
    let d = super::press::digest(&book.id, book.step, "gm", salt, text);
    Ok(Event::GmBroadcast {
        step: book.step,
        digest: crate::dice::to_hex(&d),
        salt: keep.then(|| crate::dice::to_hex(salt)),
        text: keep.then(|| text.to_string()),
        league: league.map(str::to_string),
        at: now,
    })
}

/// Whether `ev` is one that a paused game never makes: the clock's (reminders, the deadline's
/// silence, a moved deadline), a lock or a close-step. Replay refuses them (a forged journal).
pub fn stopped_by_pause(ev: &Event) -> bool {
    matches!(
        ev,
        Event::Lock { .. }
            | Event::Results { .. }
            | Event::Reminder { .. }
            | Event::Forfeit { .. }
            | Event::DeadlineChanged { .. }
            | Event::RevealMissed { .. }
            | Event::RevealOverdue { .. }
            | Event::GmAction {
                action: GmKind::CloseStep,
                ..
            }
    )
}

impl<R: Ruleset> Game<R> {
    /// Applies `game_paused` and `game_resumed` (replay checks the resumed deadline).
    pub(crate) fn apply_pause(&mut self, ev: &Event, index: u64) -> Result<(), ReplayError> {
        let kind = ev.kind();
        match ev {
            Event::GamePaused { step, reason, at } => {
                self.expect_step(index, kind, *step)?;
                if self.ended || self.outcome_now().is_some() {
                    return Err(err(index, kind, "type", "the game is over"));
                }
                if self.book.club.paused.is_some() {
                    return Err(err(index, kind, "type", "the game is already paused"));
                }
                if self.book.locked.is_some() {
                    return Err(err(index, kind, "type", "the step is locked"));
                }
                if reason.trim().is_empty() {
                    return Err(err(index, kind, "reason", "is empty"));
                }
                self.book.club.paused = Some(Pause {
                    step: *step,
                    at: *at,
                    reason: reason.clone(),
                    left_secs: self.book.deadline.map(|d| (d - *at).num_seconds()),
                });
            }
            Event::GameResumed { step, deadline, at } => {
                self.expect_step(index, kind, *step)?;
                let Some(pause) = self.book.club.paused.clone() else {
                    return Err(err(index, kind, "type", "the game is not paused"));
                };
                if *at < pause.at {
                    return Err(err(index, kind, "at", "is before the pause"));
                }
                let want = resumed_deadline(pause.left(), *at);
                if *deadline != want {
                    return Err(err(
                        index,
                        kind,
                        "deadline",
                        format!(
                            "is {deadline:?}, but the time left at the pause gives {want:?} \
                             (ruling O6)"
                        ),
                    ));
                }
                // The deadline without absences moves by as much as the deadline itself.
                if let (Some(old), Some(new)) = (self.book.deadline, *deadline) {
                    let shift = new - old;
                    let club = &mut self.book.club;
                    club.unmoved_deadline = club.unmoved_deadline.map(|d| d + shift);
                }
                self.book.deadline = *deadline;
                self.book.club.paused = None;
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn t(h: i64, m: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 9, 1, 0, 0, 0).unwrap()
            + Duration::hours(h)
            + Duration::minutes(m)
    }

    #[test]
    fn a_resumed_deadline_keeps_the_time_left_and_never_less_than_an_hour() {
        let now = t(100, 0);
        // Well above the threshold: exactly what was left.
        assert_eq!(
            resumed_deadline(Some(Duration::hours(30)), now),
            Some(t(130, 0))
        );
        // Around it: 61 min stays 61 min, 60 min is 60 min, 59 min becomes an hour.
        assert_eq!(
            resumed_deadline(Some(Duration::minutes(61)), now),
            Some(t(101, 1))
        );
        assert_eq!(
            resumed_deadline(Some(Duration::minutes(60)), now),
            Some(t(101, 0))
        );
        assert_eq!(
            resumed_deadline(Some(Duration::minutes(59)), now),
            Some(t(101, 0))
        );
        // A deadline already passed (grace running) gives the hour too.
        assert_eq!(
            resumed_deadline(Some(Duration::hours(-5)), now),
            Some(t(101, 0))
        );
        assert_eq!(resumed_deadline(None, now), None);
    }

    #[test]
    fn the_clock_events_are_the_ones_a_pause_stops() {
        let at = t(0, 0);
        assert!(stopped_by_pause(&Event::Reminder {
            step: 1,
            seat: "a".into(),
            hours_left: 4,
            at
        }));
        assert!(stopped_by_pause(&Event::GmAction {
            step: 1,
            action: GmKind::CloseStep,
            reason: String::new(),
            at
        }));
        // Handing a seat on, or a message, goes on while paused.
        assert!(!stopped_by_pause(&Event::GmAction {
            step: 1,
            action: GmKind::ReplaceSeat { seat: "a".into() },
            reason: String::new(),
            at
        }));
        assert!(!stopped_by_pause(&Event::GameResumed {
            step: 1,
            deadline: None,
            at
        }));
    }
}
