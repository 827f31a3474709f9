//! What a seat may do to the game besides orders (issue 16, points 3 and 4; rulings in
//! docs/club-rules.md): declare an absence (deadlines move past it), withdraw it, have it
//! refused by the organiser, concede for its side, resign, and agree a draw. Pure: each
//! decision takes the game, the time and the values the shell read (a seat's zone, the secret
//! draw votes) and returns the events to append, or why not.

use chrono::{DateTime, Datelike, Duration, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;

use super::books::{Absence, ClubBook, Concession, days_in};
use super::club::OnResign;
use super::concede::{playing, refuse};
use super::event::{Event, ReplayError, err};
use super::game::{Book, Game, step_length};
use super::play::{GmError, Play};
use super::ruleset::{Rejected, Ruleset, SeatId, StepSpec};

pub use super::concede::{concede, draw_if_agreed, may_vote, resign};

impl Book {
    /// Whether the game waits for `seat` at all: not forfeited, conceded or without a player.
    pub fn awaits(&self, seat: &str) -> bool {
        !self.forfeited.iter().any(|s| s == seat) && !self.club.resigned.iter().any(|s| s == seat)
    }

    /// Seats with a voice in a draw: every seat still playing that has a player (ruling O3).
    pub fn draw_voters(&self) -> Vec<SeatId> {
        self.seats
            .iter()
            .map(|s| s.seat.clone())
            .filter(|s| self.awaits(s))
            .collect()
    }
}

/// The seats a freshly opened step waits for.
fn awaited_at_open(book: &Book, spec: &StepSpec) -> Vec<SeatId> {
    spec.prompts
        .iter()
        .filter(|p| p.required && book.awaits(&p.seat))
        .map(|p| p.seat.clone())
        .collect()
}

impl<R: Ruleset> Game<R> {
    /// Sets the deadline of a step that has just opened: its own length, moved past the
    /// absences of the seats it waits for.
    pub(crate) fn open_deadline(&mut self) {
        let raw = self.compute_deadline();
        self.book.club.unmoved_deadline = raw;
        let spec = self.spec();
        self.book.deadline = raw.map(|d| match step_length(&self.policy, &spec) {
            Some(len) => self
                .book
                .club
                .past_absences(d, len, &awaited_at_open(&self.book, &spec)),
            None => d,
        });
    }

    pub(crate) fn apply_seat_act(&mut self, event: &Event, index: u64) -> Result<(), ReplayError> {
        let kind = event.kind();
        match event {
            Event::Absent {
                seat,
                first_day,
                last_day,
                from,
                until,
                ..
            } => {
                self.known_seat(index, kind, seat)?;
                if until <= from || last_day < first_day {
                    return Err(err(
                        index,
                        kind,
                        "until",
                        "the absence ends before it begins",
                    ));
                }
                self.book.club.absences.push(Absence {
                    seat: seat.clone(),
                    first_day: *first_day,
                    last_day: *last_day,
                    from: *from,
                    until: *until,
                });
            }
            Event::AbsenceCancelled { seat, from, .. } => {
                let club = &mut self.book.club;
                let Some(i) = club
                    .absences
                    .iter()
                    .position(|a| &a.seat == seat && &a.from == from)
                else {
                    return Err(err(index, kind, "from", "no such absence of the seat"));
                };
                club.absences.remove(i);
            }
            Event::Conceded {
                step, seat, side, ..
            } => self.apply_conceded(index, *step, seat, side)?,
            Event::Resigned {
                step,
                seat,
                on_resign,
                ..
            } => self.apply_resigned(index, *step, seat, *on_resign)?,
            Event::DrawAgreed { step, seats, .. } => self.apply_draw(index, *step, seats)?,
            _ => unreachable!("apply sends only seat acts here"),
        }
        Ok(())
    }

    /// `seat` is a seat of the game.
    fn known_seat(&self, index: u64, kind: &str, seat: &str) -> Result<(), ReplayError> {
        if self.book.seats.iter().any(|s| s.seat == seat) {
            Ok(())
        } else {
            Err(err(index, kind, "seat", format!("unknown seat `{seat}`")))
        }
    }

    /// A side's concession: its seats still in the game are out of it (ruling C1).
    fn apply_conceded(
        &mut self,
        index: u64,
        step: u64,
        seat: &str,
        side: &str,
    ) -> Result<(), ReplayError> {
        let kind = "conceded";
        self.expect_step(index, kind, step)?;
        self.known_seat(index, kind, seat)?;
        if self.book.side_of(seat) != Some(side) {
            return Err(err(
                index,
                kind,
                "side",
                format!("{seat} does not play {side}"),
            ));
        }
        if !self.book.awaits(seat) || self.outcome_now().is_some() {
            return Err(err(index, kind, "seat", format!("{seat} is not playing")));
        }
        let of_side: Vec<SeatId> = self
            .book
            .seats
            .iter()
            .filter(|s| s.side == side && !self.book.forfeited.contains(&s.seat))
            .map(|s| s.seat.clone())
            .collect();
        self.book.forfeited.extend(of_side);
        self.book.club.conceded.push(Concession {
            seat: seat.to_string(),
            side: side.to_string(),
        });
        Ok(())
    }

    /// A player's resignation: the seat forfeits, or waits for a new player (ruling R1).
    fn apply_resigned(
        &mut self,
        index: u64,
        step: u64,
        seat: &str,
        on_resign: OnResign,
    ) -> Result<(), ReplayError> {
        let kind = "resigned";
        self.expect_step(index, kind, step)?;
        self.known_seat(index, kind, seat)?;
        if !self.book.awaits(seat) || self.outcome_now().is_some() {
            return Err(err(index, kind, "seat", format!("{seat} is not playing")));
        }
        match on_resign {
            OnResign::Forfeit => self.book.forfeited.push(seat.to_string()),
            OnResign::ReplacementWanted | OnResign::StandingOrders => {
                self.book.club.resigned.push(seat.to_string())
            }
        }
        Ok(())
    }

    /// A draw agreed by exactly the seats still playing (ruling D1).
    fn apply_draw(&mut self, index: u64, step: u64, seats: &[SeatId]) -> Result<(), ReplayError> {
        let kind = "draw_agreed";
        self.expect_step(index, kind, step)?;
        if self.outcome_now().is_some() {
            return Err(err(index, kind, "type", "the game is already over"));
        }
        if seats != self.book.draw_voters() || seats.is_empty() {
            return Err(err(
                index,
                kind,
                "seats",
                "are not every seat still playing",
            ));
        }
        self.book.club.drawn = seats.to_vec();
        Ok(())
    }
}

/// The first instant of `day` in `zone` (a day whose midnight a clock change skips begins at
/// the first hour that exists).
fn day_start(zone: Tz, day: NaiveDate) -> Option<DateTime<Utc>> {
    (0..4).find_map(|h| {
        zone.from_local_datetime(&day.and_hms_opt(h, 0, 0)?)
            .earliest()
            .map(|t| t.with_timezone(&Utc))
    })
}

/// How far ahead an absence may begin: a year (ruling A1).
const AHEAD_DAYS: i64 = 366;

/// `ABSENT <first> TO <last>`: the absence and, when the open step's deadline falls inside it
/// and the step waits for the seat, the deadline moved past it (ruling A2).
pub fn declare_absence<P: Play + ?Sized>(
    p: &P,
    seat: &str,
    first: NaiveDate,
    last: NaiveDate,
    zone: Tz,
    now: DateTime<Utc>,
) -> Result<Vec<Event>, Rejected> {
    playing(p, seat)?;
    let book = p.book();
    let limit = book.policy.club.absence_days_per_year as i64;
    let usage =
        "write ABSENT 2026-12-20 TO 2027-01-03 (first and last day away, in your time zone)";
    if limit == 0 {
        return Err(refuse("this game allows no absences", ""));
    }
    let today = now.with_timezone(&zone).date_naive();
    if last < first {
        return Err(refuse(
            format!("the last day {last} is before the first day {first}"),
            usage,
        ));
    }
    if first < today {
        return Err(refuse(
            format!("{first} is in the past (today is {today} in {zone})"),
            usage,
        ));
    }
    if (first - today).num_days() > AHEAD_DAYS {
        return Err(refuse(
            format!("{first} is more than a year ahead"),
            "declare absences within the coming year",
        ));
    }
    if let Some(a) = book
        .club
        .absences_of(seat)
        .find(|a| a.first_day <= last && first <= a.last_day)
    {
        return Err(refuse(
            format!("it overlaps your absence {} to {}", a.first_day, a.last_day),
            "write ABSENT CANCEL to withdraw absences not yet begun, then declare again",
        ));
    }
    for year in first.year()..=last.year() {
        let used: i64 = book.club.absences_of(seat).map(|a| a.days_in(year)).sum();
        let asked = days_in(first, last, year);
        if used + asked > limit {
            return Err(refuse(
                format!(
                    "{asked} days in {year} would exceed this game's {limit} days a year: \
                     {} left in {year}",
                    (limit - used).max(0)
                ),
                "declare a shorter absence",
            ));
        }
    }
    let (Some(from), Some(until)) = (
        day_start(zone, first),
        last.succ_opt().and_then(|d| day_start(zone, d)),
    ) else {
        return Err(refuse(
            "those dates cannot be placed in your time zone",
            usage,
        ));
    };
    let mut out = vec![Event::Absent {
        seat: seat.to_string(),
        first_day: first,
        last_day: last,
        from,
        until,
        at: now,
    }];
    let mut after = book.club.clone();
    after.absences.push(Absence {
        seat: seat.to_string(),
        first_day: first,
        last_day: last,
        from,
        until,
    });
    let waiting = p.waiting_for();
    if waiting.iter().any(|s| s == seat) {
        out.extend(moved_deadline(
            p,
            &after,
            &waiting,
            format!("moved past {seat}'s absence ({first} to {last})"),
            now,
        ));
    }
    Ok(out)
}

/// The open step's deadline under `club`'s absences, as an event when it differs from the
/// deadline now; never in the past (ruling A4: at least a day from now when restored).
fn moved_deadline<P: Play + ?Sized>(
    p: &P,
    club: &ClubBook,
    waiting: &[SeatId],
    reason: String,
    now: DateTime<Utc>,
) -> Option<Event> {
    let book = p.book();
    // A paused step's deadline waits for the resume, which keeps the time then left (O5).
    if p.is_over() || book.locked.is_some() || book.club.paused.is_some() {
        return None;
    }
    let current = book.deadline?;
    let base = club.unmoved_deadline.unwrap_or(current);
    let len = step_length(&book.policy, &p.spec())?;
    let mut d = club.past_absences(base, len, waiting);
    if d <= now {
        d = now + Duration::hours(24);
    }
    (d != current).then_some(Event::DeadlineChanged {
        step: book.step,
        deadline: d,
        reason,
        at: now,
        absence: true,
    })
}

/// `ABSENT CANCEL`: every absence of the seat not yet begun is withdrawn (one that has begun
/// stands, ruling A5), and the deadline comes back if it had moved for them.
pub fn cancel_absences<P: Play + ?Sized>(
    p: &P,
    seat: &str,
    now: DateTime<Utc>,
) -> Result<Vec<Event>, Rejected> {
    playing(p, seat)?;
    let book = p.book();
    let future: Vec<&Absence> = book
        .club
        .absences_of(seat)
        .filter(|a| a.from > now)
        .collect();
    if future.is_empty() {
        return Err(refuse(
            "you have no absence that has not yet begun",
            "write ABSENT alone to see your absences",
        ));
    }
    let mut after = book.club.clone();
    after.absences.retain(|a| !(a.seat == seat && a.from > now));
    let mut out: Vec<Event> = future
        .iter()
        .map(|a| Event::AbsenceCancelled {
            seat: seat.to_string(),
            from: a.from,
            refused: false,
            reason: String::new(),
            at: now,
        })
        .collect();
    out.extend(moved_deadline(
        p,
        &after,
        &p.waiting_for(),
        format!("{seat} withdrew an absence"),
        now,
    ));
    Ok(out)
}

/// `despatch gm refuse-absence`: the seat's newest absence that has not ended is refused and
/// the deadline restored (ruling A6).
pub fn refuse_absence<P: Play + ?Sized>(
    p: &P,
    seat: &str,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Vec<Event>, GmError> {
    let book = p.book();
    if p.is_over() {
        return Err(GmError::Over(book.id.clone()));
    }
    if !book.seats.iter().any(|s| s.seat == seat) {
        return Err(GmError::NoSeat {
            seat: seat.to_string(),
            seats: book.seat_ids().join(", "),
        });
    }
    let Some(a) = book
        .club
        .absences_of(seat)
        .filter(|a| a.until > now)
        .max_by_key(|a| a.from)
    else {
        return Err(GmError::NoAbsence(seat.to_string()));
    };
    let mut after = book.club.clone();
    after.absences.retain(|x| x != a);
    let mut out = vec![Event::AbsenceCancelled {
        seat: seat.to_string(),
        from: a.from,
        refused: true,
        reason: reason.trim().to_string(),
        at: now,
    }];
    out.extend(moved_deadline(
        p,
        &after,
        &p.waiting_for(),
        format!("the organiser refused {seat}'s absence"),
        now,
    ));
    Ok(out)
}
