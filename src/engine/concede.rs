//! The decisions that end a seat's part in the game or the game itself (docs/club-rules.md,
//! "Concede, resign, draw"): a concession, a resignation, and a draw once every seat still
//! playing has voted; and the gate every seat act passes first (`playing`). Pure; the applying
//! and the absences are in seat_acts.rs.

use chrono::{DateTime, Utc};

use super::event::Event;
use super::play::Play;
use super::ruleset::{Rejected, SeatId};

pub(super) fn refuse(reason: impl Into<String>, hint: impl Into<String>) -> Rejected {
    let hint: String = hint.into();
    Rejected {
        line: 1,
        text: String::new(),
        reason: reason.into(),
        hint: (!hint.is_empty()).then_some(hint),
    }
}

/// Why `seat` may not act at all: the game is over, or the seat is out of it.
pub(super) fn playing<P: Play + ?Sized>(p: &P, seat: &str) -> Result<(), Rejected> {
    let book = p.book();
    if p.is_over() {
        return Err(refuse("the game is over", ""));
    }
    if !book.awaits(seat) {
        return Err(refuse(
            format!("{seat} is no longer playing in this game"),
            "",
        ));
    }
    Ok(())
}

/// `CONCEDE <game>`: the seat's side gives up (ruling C1).
pub fn concede<P: Play + ?Sized>(p: &P, seat: &str, now: DateTime<Utc>) -> Result<Event, Rejected> {
    playing(p, seat)?;
    let book = p.book();
    Ok(Event::Conceded {
        step: book.step,
        seat: seat.to_string(),
        side: book.side_of(seat).unwrap_or_default().to_string(),
        at: now,
    })
}

/// `RESIGN <game>`: the player leaves; the seat goes on per the game's policy (ruling R1).
pub fn resign<P: Play + ?Sized>(p: &P, seat: &str, now: DateTime<Utc>) -> Result<Event, Rejected> {
    playing(p, seat)?;
    let book = p.book();
    Ok(Event::Resigned {
        step: book.step,
        seat: seat.to_string(),
        on_resign: book.policy.club.on_resign,
        at: now,
    })
}

/// Whether `seat` may vote on a draw now.
pub fn may_vote<P: Play + ?Sized>(p: &P, seat: &str) -> Result<(), Rejected> {
    playing(p, seat)
}

/// The draw, once every seat with a voice has voted for it (ruling D1); the votes are the
/// shell's private record, so nothing before this event says a draw was ever proposed.
pub fn draw_if_agreed<P: Play + ?Sized>(
    p: &P,
    votes: &std::collections::BTreeSet<SeatId>,
    now: DateTime<Utc>,
) -> Option<Event> {
    let book = p.book();
    let voters = book.draw_voters();
    let agreed = !p.is_over() && !voters.is_empty() && voters.iter().all(|s| votes.contains(s));
    agreed.then_some(Event::DrawAgreed {
        step: book.step,
        seats: voters,
        at: now,
    })
}
