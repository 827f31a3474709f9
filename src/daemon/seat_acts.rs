//! Intake's part in a seat's acts on the game (docs/club-rules.md): reads the seat's zone and
//! the secret draw votes from the private seats file, asks the engine (engine/seat_acts.rs)
//! what the act does, and returns the decision: events, the private file as it is to be, the
//! answer. Also the organiser's `gm refuse-absence`. Writes nothing itself except there.

use anyhow::Result;
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use chrono_tz::Tz;
use sha2::{Digest, Sha256};

use crate::engine::guard::Activity;
use crate::engine::{Event, Play, Rejected, club::OnResign, seat_acts};
use crate::mail::compose::{self, ActDone, Irreversible};
use crate::mail::inbound::{Inbound, SeatAct};
use crate::store::{FormerPlayer, SeatsFile};

use super::Daemon;
use super::decision::{Decision, Intake};
use super::open_game::OpenGame;

/// What an act comes to, decided from the game and its private seats file as read.
enum Outcome {
    /// Answered with what was done (`compose::act_reply`), after its events and the private
    /// file as it is to be.
    Done {
        done: ActDone,
        events: Vec<Event>,
        seats: Option<SeatsFile>,
    },
    /// `RESIGN`: its event; the seat's record goes and the player gets a letter.
    Resigned(Event),
}

fn told(done: ActDone) -> Outcome {
    Outcome::Done {
        done,
        events: vec![],
        seats: None,
    }
}

fn no(reason: impl Into<String>, hint: impl Into<String>) -> Rejected {
    Rejected {
        line: 1,
        text: String::new(),
        reason: reason.into(),
        hint: Some(hint.into()),
    }
}

/// An irreversible act goes on only when it names the game (ruling C2).
fn confirmed(act: Irreversible, confirm: &str, game_id: &str) -> Result<(), Rejected> {
    if confirm == game_id {
        return Ok(());
    }
    Err(compose::unconfirmed(act, confirm, game_id))
}

/// What `act` does, or why nothing: a pure decision over the game, its private seats file
/// (the secret draw votes) and the seat's zone; the engine (engine/seat_acts.rs) decides each
/// act's events.
fn decide(
    game: &dyn Play,
    game_id: &str,
    seats: &SeatsFile,
    seat: &str,
    act: &SeatAct,
    zone: Tz,
    now: DateTime<Utc>,
) -> Result<Outcome, Rejected> {
    match act {
        SeatAct::Bad { reason, hint, .. } => Err(no(reason.clone(), hint.clone())),
        SeatAct::AbsentShow => Ok(told(ActDone::AbsencesShown)),
        SeatAct::Absent { first, last } => absence(game, seat, *first, *last, zone, now),
        SeatAct::AbsentCancel => cancel_absences(game, seat, now),
        SeatAct::Concede { confirm } => {
            confirmed(Irreversible::Concede, confirm, game_id)?;
            let ev = seat_acts::concede(game, seat, now)?;
            let side = game.book().side_of(seat).unwrap_or_default();
            Ok(Outcome::Done {
                done: ActDone::Conceded {
                    side: side.to_string(),
                },
                events: vec![ev],
                seats: None,
            })
        }
        SeatAct::Resign { confirm } => {
            confirmed(Irreversible::Resign, confirm, game_id)?;
            Ok(Outcome::Resigned(seat_acts::resign(game, seat, now)?))
        }
        SeatAct::DrawVote { confirm } => {
            confirmed(Irreversible::DrawVote, confirm, game_id)?;
            draw_vote(game, seats, seat, now)
        }
        SeatAct::DrawWithdraw => {
            seat_acts::may_vote(game, seat)?;
            let mut seats = seats.clone();
            seats.draw_votes.remove(seat);
            Ok(Outcome::Done {
                done: ActDone::DrawWithdrawn,
                events: vec![],
                seats: Some(seats),
            })
        }
    }
}

/// `ABSENT <first> TO <last>`: the absence, and the deadline it moves, if any.
fn absence(
    game: &dyn Play,
    seat: &str,
    first: NaiveDate,
    last: NaiveDate,
    zone: Tz,
    now: DateTime<Utc>,
) -> Result<Outcome, Rejected> {
    let events = seat_acts::declare_absence(game, seat, first, last, zone, now)?;
    let deadlines = events
        .iter()
        .filter_map(|e| match e {
            Event::DeadlineChanged { deadline, .. } => Some(*deadline),
            _ => None,
        })
        .collect();
    Ok(Outcome::Done {
        done: ActDone::AbsenceRecorded {
            first,
            last,
            zone: zone.name().to_string(),
            deadlines,
        },
        events,
        seats: None,
    })
}

/// `ABSENT CANCEL`: the absences not yet begun, withdrawn.
fn cancel_absences(game: &dyn Play, seat: &str, now: DateTime<Utc>) -> Result<Outcome, Rejected> {
    let events = seat_acts::cancel_absences(game, seat, now)?;
    let count = events
        .iter()
        .filter(|e| matches!(e, Event::AbsenceCancelled { .. }))
        .count();
    Ok(Outcome::Done {
        done: ActDone::AbsencesWithdrawn { count },
        events,
        seats: None,
    })
}

/// A secret vote for a draw, kept in the private seats file; the draw, when every seat still
/// playing has voted, and the votes cleared with it.
fn draw_vote(
    game: &dyn Play,
    seats: &SeatsFile,
    seat: &str,
    now: DateTime<Utc>,
) -> Result<Outcome, Rejected> {
    seat_acts::may_vote(game, seat)?;
    let mut seats = seats.clone();
    seats.draw_votes.insert(seat.to_string());
    let events: Vec<Event> = seat_acts::draw_if_agreed(game, &seats.draw_votes, now)
        .into_iter()
        .collect();
    if !events.is_empty() {
        seats.draw_votes.clear();
    }
    Ok(Outcome::Done {
        done: ActDone::DrawVoted,
        events,
        seats: Some(seats),
    })
}

impl Daemon {
    /// A seat's act, from its authenticated player: decided (`decide`), then answered.
    pub(super) fn seat_act(
        &self,
        act: &SeatAct,
        g: OpenGame,
        seat: &str,
        activity: Activity,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let Some(private) = g.seats.seats.get(seat) else {
            anyhow::bail!("seat `{seat}` has no private record in {}", g.store.id);
        };
        let zone: Tz = private.time_zone.parse().unwrap_or(Tz::UTC);
        match decide(g.game.as_ref(), &g.store.id, &g.seats, seat, act, zone, now) {
            Ok(Outcome::Done {
                done,
                events,
                seats,
            }) => {
                let year = now.with_timezone(&zone).year();
                Ok(answered(
                    g,
                    seat,
                    activity,
                    inb,
                    (done, events, seats),
                    year,
                    now,
                ))
            }
            Ok(Outcome::Resigned(ev)) => self.resigned(g, seat, activity, inb, ev, now),
            Err(r) => refused(g, seat, activity, inb, act, r, now),
        }
    }

    /// `RESIGN`: the seat's private record goes (its secret with it), the player is remembered
    /// as a former one (ruling R3) and answered at the address they wrote from.
    fn resigned(
        &self,
        g: OpenGame,
        seat: &str,
        mut activity: Activity,
        inb: &Inbound,
        ev: Event,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let game_id = g.store.id.clone();
        // Whether `tell_gm_of_resignations` reaches anyone, so the player is told the truth.
        let gm_known = g.seats.gm.is_some() || self.cfg.mail.gm_address.is_some();
        let mut seats = g.seats.clone();
        let private = seats.seats.remove(seat).expect("an authenticated seat");
        seats.draw_votes.remove(seat);
        seats.former.push(FormerPlayer {
            seat: seat.to_string(),
            address: private.address.clone(),
            until: now,
            told: false,
        });
        let on_resign = match &ev {
            Event::Resigned { on_resign, .. } => *on_resign,
            _ => OnResign::ReplacementWanted,
        };
        activity.outcome(now, None);
        let mut d = Decision::for_seat(
            Intake::SeatAct {
                game: game_id.clone(),
                seat: seat.to_string(),
            },
            g,
            seat,
            activity,
        );
        d.events = vec![ev];
        d.seats = Some(seats);
        let tag = hex::encode(&Sha256::digest(inb.message_id.as_bytes())[..8]);
        d.letters = vec![(
            format!("resigned-{tag}"),
            self.letter(
                &private.address,
                &compose::resigned_subject(&game_id, seat),
                &compose::resigned_text(&game_id, seat, on_resign, gm_known),
                inb,
                now,
            ),
        )];
        Ok(d)
    }

    /// The organiser refuses `seat`'s newest absence that has not ended: the seat and the
    /// others are told, and the deadline comes back if it had moved for it (ruling A6).
    pub fn gm_refuse_absence(
        &self,
        game_id: &str,
        seat: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let _lock = self.data.lock()?;
        let mut g = self.open_game(game_id)?;
        let events = seat_acts::refuse_absence(g.game.as_ref(), seat, reason, now)?;
        for ev in &events {
            self.append(&mut g, ev, now)?;
        }
        self.settle_open(&mut g, now)?;
        self.close(&g)?;
        self.deliver_at(now)?;
        Ok(())
    }
}

/// The organiser hears that a seat wants a new player (the seats were told by the event).
pub(super) fn tell_gm_of_resignations(
    daemon: &Daemon,
    g: &OpenGame,
    events: &[Event],
    now: DateTime<Utc>,
) -> Result<()> {
    for ev in events {
        if let Event::Resigned {
            step,
            seat,
            on_resign: OnResign::ReplacementWanted,
            ..
        } = ev
        {
            daemon.tell_gm(
                &g.store,
                g.seats.gm.clone(),
                &format!("resigned-{step}-{seat}"),
                &compose::OrganiserReport::ReplacementWanted {
                    game: &g.store.id,
                    step: *step,
                    seat,
                },
                now,
            )?;
        }
    }
    Ok(())
}

/// A copy of `game` with `events` applied, as the journal will have them; the game as it is if
/// the engine refuses one (the journal would refuse it too, and say so).
fn after_events(game: &dyn Play, events: &[Event]) -> Box<dyn Play> {
    let mut after = game.boxed_clone();
    for e in events {
        let index = after.book().events;
        if after.apply(e, &e.to_line(), index).is_err() {
            return game.boxed_clone();
        }
    }
    after
}

/// The act done: answered with what it did and the seat's absences as the act leaves them,
/// composed from the game with the act's events applied (to a copy), not from the game before.
fn answered(
    g: OpenGame,
    seat: &str,
    mut activity: Activity,
    inb: &Inbound,
    (done, events, seats): (ActDone, Vec<Event>, Option<SeatsFile>),
    year: i32,
    now: DateTime<Utc>,
) -> Decision {
    let to = g.recipient(seat).expect("an authenticated seat").clone();
    let after = after_events(g.game.as_ref(), &events);
    let draft = compose::act_reply(after.as_ref(), &to, &done, year, &inb.message_id);
    activity.outcome(now, None);
    let intake = Intake::SeatAct {
        game: g.store.id.clone(),
        seat: seat.to_string(),
    };
    let mut d = Decision::for_seat(intake, g, seat, activity);
    d.events = events;
    d.seats = seats.filter(|s| Some(s) != d.game.as_ref().map(|g| &g.seats));
    d.drafts = vec![draft];
    d
}

/// Nothing done: the seat is told the line, why and what to write instead.
fn refused(
    g: OpenGame,
    seat: &str,
    mut activity: Activity,
    inb: &Inbound,
    act: &SeatAct,
    mut r: Rejected,
    now: DateTime<Utc>,
) -> Result<Decision> {
    r.text = compose::act_line(act);
    activity.outcome(now, None);
    Decision::rejected(g, seat, activity, inb, &[r], 1)
}
