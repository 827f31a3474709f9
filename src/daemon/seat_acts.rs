//! Intake's part in a seat's acts on the game (docs/club-rules.md): reads the seat's zone and
//! the secret draw votes from the private seats file, asks the engine (engine/seat_acts.rs)
//! what the act does, and returns the decision: events, the private file as it is to be, the
//! answer. Also the organiser's `gm refuse-absence`. Writes nothing itself except there.

use anyhow::Result;
use chrono::{DateTime, Datelike, Utc};
use chrono_tz::Tz;
use sha2::{Digest, Sha256};

use crate::engine::guard::Activity;
use crate::engine::{Event, Play, Rejected, club::OnResign, seat_acts};
use crate::mail::compose;
use crate::mail::inbound::{Inbound, SeatAct};
use crate::report;
use crate::store::{FormerPlayer, SeatsFile};

use super::Daemon;
use super::decision::{Decision, Intake};
use super::open_game::OpenGame;

/// What an accepted act comes to before it is carried out.
struct Done {
    said: String,
    events: Vec<Event>,
    seats: Option<SeatsFile>,
}

fn said(s: impl Into<String>) -> Done {
    Done {
        said: s.into(),
        events: vec![],
        seats: None,
    }
}

/// The line as the seat wrote it, near enough, for a rejection.
fn words(act: &SeatAct) -> String {
    match act {
        SeatAct::AbsentShow => "ABSENT".into(),
        SeatAct::AbsentCancel => "ABSENT CANCEL".into(),
        SeatAct::Absent { first, last } => format!("ABSENT {first} TO {last}"),
        SeatAct::Concede { confirm } => format!("CONCEDE {confirm}"),
        SeatAct::Resign { confirm } => format!("RESIGN {confirm}"),
        SeatAct::DrawVote { confirm } => format!("DRAW {confirm}"),
        SeatAct::DrawWithdraw => "DECLINE DRAW".into(),
        SeatAct::Bad { text, .. } => text.clone(),
    }
    .trim()
    .to_string()
}

fn no(reason: impl Into<String>, hint: impl Into<String>) -> Rejected {
    Rejected {
        line: 1,
        text: String::new(),
        reason: reason.into(),
        hint: Some(hint.into()),
    }
}

/// The irreversible acts name the game on their own line (ruling C2): a subject or a stray
/// word cannot end a game.
fn confirmed(word: &str, confirm: &str, game_id: &str, what: &str) -> Result<(), Rejected> {
    if confirm == game_id {
        return Ok(());
    }
    let reason = if confirm.is_empty() {
        format!("{word} {what} and cannot be undone, so it must name the game")
    } else {
        format!("`{confirm}` is not this game's id, so nothing was done")
    };
    Err(no(
        reason,
        format!("write {word} {game_id} alone on the first line of a mail to this game"),
    ))
}

impl Daemon {
    /// A seat's act, from its authenticated player.
    pub(super) fn seat_act(
        &self,
        act: &SeatAct,
        g: OpenGame,
        seat: &str,
        mut activity: Activity,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let game_id = g.store.id.clone();
        let Some(private) = g.seats.seats.get(seat).cloned() else {
            anyhow::bail!("seat `{seat}` has no private record in {game_id}");
        };
        let zone: Tz = private.time_zone.parse().unwrap_or(Tz::UTC);
        let game = g.game.as_ref();
        let year = now.with_timezone(&zone).year();
        let done: Result<Done, Rejected> = match act {
            SeatAct::Bad { reason, hint, .. } => Err(no(reason.clone(), hint.clone())),
            SeatAct::AbsentShow => Ok(said("Your absences are below.")),
            SeatAct::Absent { first, last } => {
                seat_acts::declare_absence(game, seat, *first, *last, zone, now).map(|events| {
                    let days = (*last - *first).num_days() + 1;
                    let mut s = format!(
                        "Your absence from {first} to {last} ({days} days, {}) is recorded;\n\
                         every other seat is told.",
                        zone.name()
                    );
                    for e in &events {
                        if let Event::DeadlineChanged { deadline, .. } = e {
                            s.push_str(&format!(
                                "\nThe open step's deadline moves to {}.",
                                report::fmt_time(*deadline, zone.name())
                            ));
                        }
                    }
                    Done {
                        said: s,
                        events,
                        seats: None,
                    }
                })
            }
            SeatAct::AbsentCancel => seat_acts::cancel_absences(game, seat, now).map(|events| {
                let n = events
                    .iter()
                    .filter(|e| matches!(e, Event::AbsenceCancelled { .. }))
                    .count();
                Done {
                    said: format!("Withdrawn: {n} absence(s) not yet begun."),
                    events,
                    seats: None,
                }
            }),
            SeatAct::Concede { confirm } => confirmed(
                "CONCEDE",
                confirm,
                &game_id,
                "gives the game up for your side",
            )
            .and_then(|()| seat_acts::concede(game, seat, now))
            .map(|ev| Done {
                said: format!(
                    "You conceded for {}. Every seat is told.",
                    game.book().side_of(seat).unwrap_or_default()
                ),
                events: vec![ev],
                seats: None,
            }),
            SeatAct::Resign { confirm } => {
                return match confirmed("RESIGN", confirm, &game_id, "gives your seat up")
                    .and_then(|()| seat_acts::resign(game, seat, now))
                {
                    Ok(ev) => self.resigned(g, seat, activity, inb, ev, now),
                    Err(r) => refused(g, seat, activity, inb, act, r, now),
                };
            }
            SeatAct::DrawVote { confirm } => {
                confirmed("ACCEPT DRAW", confirm, &game_id, "may end the game")
                    .and_then(|()| seat_acts::may_vote(game, seat))
                    .map(|()| {
                        let mut seats = g.seats.clone();
                        seats.draw_votes.insert(seat.to_string());
                        let events: Vec<Event> =
                            seat_acts::draw_if_agreed(game, &seats.draw_votes, now)
                                .into_iter()
                                .collect();
                        if !events.is_empty() {
                            seats.draw_votes.clear();
                        }
                        // The same words whether or not anyone else voted (ruling D1).
                        Done {
                            said: "Your vote for a draw is recorded. Nobody is told of it: the \
                                   game ends as a draw, and every seat is told, only when every \
                                   seat still playing has voted for one. DECLINE DRAW takes \
                                   your vote back."
                                .into(),
                            events,
                            seats: Some(seats),
                        }
                    })
            }
            SeatAct::DrawWithdraw => seat_acts::may_vote(game, seat).map(|()| {
                let mut seats = g.seats.clone();
                seats.draw_votes.remove(seat);
                Done {
                    said: "You have no vote for a draw standing (any you had is withdrawn).".into(),
                    events: vec![],
                    seats: Some(seats),
                }
            }),
        };
        let done = match done {
            Ok(d) => d,
            Err(r) => return refused(g, seat, activity, inb, act, r, now),
        };
        let to = g.recipient(seat).expect("an authenticated seat").clone();
        // The answer lists the seat's absences as the act leaves them: composed from the game
        // with the act's events applied (to a copy), not from the game before it.
        let after = after_events(game, &done.events);
        let draft = compose::act_reply(after.as_ref(), &to, &done.said, year, &inb.message_id);
        activity.outcome(now, None);
        let intake = Intake::SeatAct {
            game: game_id,
            seat: seat.to_string(),
        };
        let mut d = Decision::for_seat(intake, g, seat, activity);
        d.events = done.events;
        d.seats = done
            .seats
            .filter(|s| Some(s) != d.game.as_ref().map(|g| &g.seats));
        d.drafts = vec![draft];
        Ok(d)
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
                &format!("[{game_id}] You have resigned (seat {seat})"),
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
                &format!("Seat {seat} wants a new player"),
                &format!(
                    "The player of {seat} resigned at step {step}. Until a new player takes\n\
                     the seat its standing orders answer for it. To hand it on:\n\
                     despatch gm replace {} --seat {seat} --address <new player>\n",
                    g.store.id
                ),
                now,
            )?;
        }
    }
    Ok(())
}

/// Nothing done: the seat is told the line, why and what to write instead.
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

fn refused(
    g: OpenGame,
    seat: &str,
    mut activity: Activity,
    inb: &Inbound,
    act: &SeatAct,
    mut r: Rejected,
    now: DateTime<Utc>,
) -> Result<Decision> {
    r.text = words(act);
    activity.outcome(now, None);
    Decision::rejected(g, seat, activity, inb, &[r], 1)
}
