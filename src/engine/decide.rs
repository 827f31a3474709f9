//! The engine's decisions: what a mail does to the open step, when a step locks, what the clock
//! makes due (reminders, silence at the deadline, a new onion), the organiser's acts and how a
//! game ends. Pure functions of the game, the time and the values handed in; each returns the
//! journal events the shell appends and never writes, sends or reads anything itself.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};

use crate::dice::{self, Hash, Protocol};

use super::event::{Event, GmKind, LockEntry, MAX_HOURS};
use super::game::{Book, Game, HostFault, HostSecrets};
use super::play::{GmError, Play};
use super::ruleset::{Outcome, Rejected, Ruleset, SeatId, Silence, StepSpec};
use super::signoff::sign_off;

fn refuse(reason: impl Into<String>, hint: Option<String>) -> Vec<Rejected> {
    vec![Rejected {
        line: 0,
        text: String::new(),
        reason: reason.into(),
        hint,
    }]
}

/// Seats whose required prompt is still unanswered; a forfeited seat is never awaited.
pub fn waiting_for(book: &Book, spec: &StepSpec) -> Vec<SeatId> {
    spec.prompts
        .iter()
        .filter(|p| p.required && !book.pending.contains_key(&p.seat) && book.awaits(&p.seat))
        .map(|p| p.seat.clone())
        .collect()
}

/// The lock's inputs for the open step: seat digests in seat order, NMR seats, `L_k`.
pub fn lock_parts(book: &Book, spec: &StepSpec) -> (Vec<LockEntry>, Vec<SeatId>, Hash) {
    let entries: Vec<(String, Option<Hash>)> = book
        .seats
        .iter()
        .map(|s| (s.seat.clone(), book.pending.get(&s.seat).map(|p| p.digest)))
        .collect();
    let nmr = spec
        .prompts
        .iter()
        .map(|p| p.seat.clone())
        .filter(|s| !book.pending.contains_key(s))
        .collect();
    let lock = dice::lock(book.protocol, &book.id, book.step, &book.head, &entries);
    let seats = entries
        .iter()
        .map(|(seat, d)| LockEntry {
            seat: seat.clone(),
            digest: d.map(|d| dice::to_hex(&d)).unwrap_or_default(),
        })
        .collect();
    (seats, nmr, lock)
}

pub fn lock_event(book: &Book, spec: &StepSpec, now: DateTime<Utc>) -> Event {
    let (seats, nmr, lock) = lock_parts(book, spec);
    Event::Lock {
        step: book.step,
        log_head: dice::to_hex(&book.head),
        seats,
        nmr,
        lock: dice::to_hex(&lock),
        at: now,
    }
}

/// See `Play::submission_event`.
pub fn submission_event<P: Play + ?Sized>(
    p: &P,
    seat: &str,
    text: &str,
    answers: Option<u64>,
    salt: &Hash,
    message_id: &str,
    now: DateTime<Utc>,
) -> Result<Event, Vec<Rejected>> {
    let book = p.book();
    if p.is_over() {
        return Err(refuse("the game is over", None));
    }
    let spec = p.spec();
    let open = format!("the open step is {}: {}", book.step, spec.title);
    if let Some(k) = answers
        && k > book.step
    {
        return Err(refuse(format!("step {k} has not opened yet"), Some(open)));
    }
    if book.forfeited.iter().any(|s| s == seat) {
        return Err(refuse(
            format!("{seat} has forfeited and is out of the game"),
            None,
        ));
    }
    // A mail that does not answer the open step still carries its standing orders and
    // settings: they are not bound to a step (ruling SO1); only its step orders are void.
    let outside = match answers {
        Some(k) if k < book.step => Some((
            format!("step {k} has already been resolved, so this mail changes nothing"),
            Some(format!("{open}; reply to its mail to send orders for it")),
        )),
        _ if !p.is_prompted(seat) => Some((
            format!("no orders are asked of {seat} in this step"),
            Some(format!("this step: {}", spec.title)),
        )),
        _ => None,
    };
    if text.trim().is_empty() {
        let (reason, hint) = outside.unwrap_or((
            "nothing in this mail could be read as orders, so your earlier orders (if any) stand"
                .into(),
            Some("to send no orders on purpose, write PASS".into()),
        ));
        return Err(refuse(reason, hint));
    }
    // A closing sign-off is set aside first (and shown in the receipt); what is left must
    // parse whole, or nothing is applied.
    let keywords = p.order_keywords();
    let order_like = |line: &str| {
        // A unit's name ("Valkurie-1") or a keyword's near miss is a bad order, not courtesy.
        p.looks_like_an_order(line) || p.parse_orders(seat, line).is_ok()
    };
    let (text, ignored) = match sign_off(text, &keywords, order_like) {
        Some((cleaned, skipped)) => (cleaned, skipped),
        None => (text.to_string(), Vec::new()),
    };
    if let Some((reason, hint)) = outside {
        let answered = answers.filter(|k| *k < book.step);
        return match standing_event(p, seat, &text, answered, salt, message_id, now) {
            Some(found) => found,
            None => Err(refuse(reason, hint)),
        };
    }
    // Every hint the rejection gives is one the game in hand accepts (issue 30 point 5).
    let canonical = p
        .parse_orders(seat, &text)
        .map_err(|bad| super::example::mend_hints(p, seat, bad))?;
    let d = dice::orders_digest(book.protocol, &book.id, book.step, seat, salt, &canonical);
    Ok(Event::Submission {
        step: book.step,
        seat: seat.to_string(),
        digest: dice::to_hex(&d),
        orders: canonical,
        message_id: message_id.to_string(),
        ignored,
        at: now,
    })
}

/// The standing orders of a mail that does not answer the open step (ruling SO1), as an event
/// in force at once; `None` when the mail has none (then it is refused as before). A standing
/// line gone wrong refuses them all (SO3); while the step is locked they wait (SO4).
fn standing_event<P: Play + ?Sized>(
    p: &P,
    seat: &str,
    text: &str,
    answered: Option<u64>,
    salt: &Hash,
    message_id: &str,
    now: DateTime<Utc>,
) -> Option<Result<Event, Vec<Rejected>>> {
    let book = p.book();
    let words = p.standing_keywords();
    let first_word = |line: &str| {
        line.split_whitespace()
            .next()
            .is_some_and(|w| words.iter().any(|k| k.eq_ignore_ascii_case(w)))
    };
    // Standing lines keep their place (the others blanked), so a refusal numbers the lines
    // as the player does.
    let offered: String = text
        .lines()
        .map(|l| if first_word(l) { l } else { "" })
        .collect::<Vec<_>>()
        .join("\n");
    if offered.trim().is_empty() {
        return None;
    }
    if book.locked.is_some() {
        return Some(Err(refuse(
            format!(
                "step {} is locked and resolving, so standing orders cannot change now",
                book.step
            ),
            Some("send them again once its results have come".into()),
        )));
    }
    let (orders, other) = match p.standing_orders(seat, &offered) {
        Ok(Some(found)) => found,
        Ok(None) => return None,
        Err(bad) => return Some(Err(bad)),
    };
    let not_applied = text
        .lines()
        .enumerate()
        .filter(|(i, l)| {
            let l = l.trim();
            !l.is_empty() && !l.starts_with('#') && (!first_word(l) || other.contains(&(i + 1)))
        })
        .map(|(_, l)| l.trim().to_string())
        .collect();
    let d = dice::orders_digest(book.protocol, &book.id, book.step, seat, salt, &orders);
    Some(Ok(Event::Standing {
        step: book.step,
        seat: seat.to_string(),
        digest: dice::to_hex(&d),
        orders,
        message_id: message_id.to_string(),
        at: now,
        answered,
        not_applied,
    }))
}

/// See `Play::next_event`.
pub fn next_event<P: Play + ?Sized>(
    p: &P,
    secrets: &dyn HostSecrets,
    now: DateTime<Utc>,
) -> Result<Option<Event>, HostFault> {
    let book = p.book();
    if book.club.abandoned.is_some() {
        // Abandoned: nothing of the step is locked or resolved, whatever it waited for; only
        // the end every game has (the salt key published, v2) follows (ruling S10).
        if !book.ended && book.protocol == Protocol::V2 {
            return game_ended(secrets, book, now).map(Some);
        }
        return Ok(None);
    }
    if p.is_over() {
        // Over by the seats' own acts (a draw, a concession) while a step is locked: nothing
        // of that step is resolved, and in strict mode no reveal is awaited any more; the game
        // ends as every game does (ruling S2). v2 publishes the salt key at the end; v1 had
        // none to publish, and finished v1 games must not be touched again (they would mail a
        // second game-over).
        if !book.ended && book.protocol == Protocol::V2 {
            return game_ended(secrets, book, now).map(Some);
        }
        return Ok(None);
    }
    if !book.awaited_reveals().is_empty() {
        // A strict step waits for its reveals, and only for them (ruling S2).
        return Ok(None);
    }
    if book.locked.is_some() {
        let v_k = secrets.reveal(book.step).map_err(HostFault::Reveal)?;
        return p.results_event(&v_k, now).map(Some);
    }
    if p.ready_to_lock() {
        return Ok(Some(p.lock_event(now)));
    }
    Ok(None)
}

/// The last event of a v2 game: it publishes the salt key.
fn game_ended(
    secrets: &dyn HostSecrets,
    book: &Book,
    now: DateTime<Utc>,
) -> Result<Event, HostFault> {
    let z = secrets.salt_key().ok_or(HostFault::NoSaltKey)?;
    Ok(Event::GameEnded {
        step: book.step,
        salt_key: Some(dice::to_hex(&z)),
        at: now,
    })
}

/// Whether `next_event` has nothing to give: the game waits for mail, the clock or the
/// organiser (kept beside `next_event` so the two cannot drift apart).
pub fn at_rest<P: Play + ?Sized>(p: &P) -> bool {
    let book = p.book();
    if book.club.abandoned.is_some() {
        return book.ended || book.protocol != Protocol::V2;
    }
    let waits_for_reveals = !book.awaited_reveals().is_empty();
    (book.locked.is_none() || waits_for_reveals)
        && !p.ready_to_lock()
        && !(p.is_over() && !book.ended && book.protocol == Protocol::V2)
        && renewal_due(p).is_none()
}

/// See `Play::due_events`.
pub fn due_events<P: Play + ?Sized>(p: &P, now: DateTime<Utc>) -> Vec<Event> {
    let book = p.book();
    if book.club.abandoned.is_some() {
        // An abandoned step waits for nothing: no reveal is overdue, no deadline falls.
        return vec![];
    }
    if book.club.paused.is_some() {
        // The organiser stopped the clock: no reminder, no deadline, no silence (ruling O5).
        return vec![];
    }
    if let Some(overdue) = super::strict::due_reveal_overdue(book, now) {
        return vec![overdue];
    }
    let Some(deadline) = book.deadline else {
        return vec![];
    };
    if p.is_over() || book.locked.is_some() {
        return vec![];
    }
    let waiting = p.waiting_for();
    let grace = Duration::hours(book.policy.grace_hours as i64);
    if deadline.checked_add_signed(grace).is_some_and(|d| now >= d) {
        if waiting.is_empty() {
            return vec![];
        }
        return match book.policy.on_silence {
            // Nothing automatic: the step waits for the organiser's close-step.
            Silence::WaitForGm => vec![],
            // Every silent seat forfeits, not only the first: two silent duellists both lose.
            Silence::Forfeit => waiting
                .into_iter()
                .map(|seat| Event::Forfeit {
                    step: book.step,
                    seat,
                    at: now,
                })
                .collect(),
            Silence::StandingOrders | Silence::Pass => vec![p.lock_event(now)],
        };
    }
    let mut hours = book.policy.reminder_hours.clone();
    hours.sort_unstable();
    let mut out = Vec::new();
    for seat in waiting {
        // Only the most urgent reminder not yet sent, so a late daemon sends one, not several.
        let due = hours.iter().copied().find(|h| {
            deadline
                .checked_sub_signed(Duration::hours(*h as i64))
                .is_some_and(|at| now >= at)
                && !book.reminders.iter().any(|(s, x)| *s == seat && x <= h)
        });
        if let Some(h) = due {
            out.push(Event::Reminder {
                step: book.step,
                seat,
                hours_left: h,
                at: now,
            });
        }
    }
    out
}

/// See `Play::next_due`: the earliest moment at which `due_events` may return something, read
/// off the same rules, so the shell can leave a game unopened until then. Never later than the
/// truth (a pass that opens a game early finds nothing and loses nothing); `None` when only a
/// mail or the organiser can move the game.
pub fn next_due<P: Play + ?Sized>(p: &P) -> Option<DateTime<Utc>> {
    let book = p.book();
    // Paused: only the organiser's RESUME moves the clock again.
    if book.club.abandoned.is_some() || book.club.paused.is_some() {
        return None;
    }
    if !book.awaited_reveals().is_empty() {
        // The reveal deadline, once: after it only a reveal (or a resignation) moves the step.
        let told = book
            .strict
            .as_ref()
            .is_some_and(|st| !st.overdue.is_empty());
        return book.reveal_deadline().filter(|_| !told);
    }
    let deadline = book.deadline?;
    if p.is_over() || book.locked.is_some() {
        return None;
    }
    let waiting = p.waiting_for();
    if waiting.is_empty() {
        return None;
    }
    let grace = Duration::hours(book.policy.grace_hours as i64);
    // After the deadline and its grace no reminder is sent; WaitForGm waits for the organiser.
    let at_deadline = deadline
        .checked_add_signed(grace)
        .filter(|_| !matches!(book.policy.on_silence, Silence::WaitForGm));
    let reminders = waiting.iter().flat_map(|seat| {
        book.policy.reminder_hours.iter().filter_map(move |h| {
            let sent = book.reminders.iter().any(|(s, x)| s == seat && x <= h);
            (!sent)
                .then(|| deadline.checked_sub_signed(Duration::hours(*h as i64)))
                .flatten()
        })
    });
    let end = deadline.checked_add_signed(grace);
    // A reminder due after the deadline's grace is never sent.
    reminders
        .filter(|at| end.is_none_or(|e| *at < e))
        .chain(at_deadline)
        .min()
}

/// See `Play::renewal_due`: a new onion when fewer than a quarter of the newest one's steps
/// (at most 10) are left after the open step.
pub fn renewal_due<P: Play + ?Sized>(p: &P) -> Option<u64> {
    let book = p.book();
    let newest = book.onions.last()?;
    let low = book.onion_steps_left() < (newest.len / 4).clamp(1, 10);
    (!p.is_over() && low && newest.from_step <= book.step).then_some(book.step)
}

/// The event that commits a new onion from `from_step` on (its secret drawn by the shell).
pub fn onion_renewed(from_step: u64, anchor: &Hash, onion_len: u64, now: DateTime<Utc>) -> Event {
    Event::OnionRenewed {
        from_step,
        anchor: dice::to_hex(anchor),
        onion_len,
        at: now,
    }
}

fn open_for_gm<P: Play + ?Sized>(p: &P) -> Result<(), GmError> {
    if p.is_over() {
        return Err(GmError::Over(p.book().id.clone()));
    }
    Ok(())
}

/// The clock's own acts (extend, close-step) wait while the clock is stopped (ruling O5).
fn running<P: Play + ?Sized>(p: &P) -> Result<(), GmError> {
    match &p.book().club.paused {
        Some(pause) => Err(GmError::Paused(pause.at)),
        None => Ok(()),
    }
}

pub fn gm_extend<P: Play + ?Sized>(
    p: &P,
    hours: i64,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Event, GmError> {
    open_for_gm(p)?;
    running(p)?;
    // Moving a deadline changes nothing a strict step waits for: said, not silently ignored.
    if let Some(why) = super::strict::gm_refusal(p.book()) {
        return Err(GmError::AwaitingReveals(why));
    }
    if hours == 0 || hours.unsigned_abs() > MAX_HOURS as u64 {
        return Err(GmError::Hours(hours));
    }
    let book = p.book();
    let base = book.deadline.unwrap_or(now).max(now);
    let deadline = base
        .checked_add_signed(Duration::hours(hours))
        .ok_or(GmError::Hours(hours))?;
    // Without a reason the words follow the direction: a shortening is never an extension.
    let reason = match reason.trim() {
        "" if hours > 0 => format!("extended by {hours} h by the organiser"),
        "" => format!("brought forward by {} h by the organiser", -hours),
        r => r.to_string(),
    };
    Ok(Event::DeadlineChanged {
        step: book.step,
        deadline,
        reason,
        at: now,
        absence: false,
    })
}

pub fn gm_close_step<P: Play + ?Sized>(
    p: &P,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Event, GmError> {
    open_for_gm(p)?;
    running(p)?;
    // A strict step waiting for reveals is never closed: that would resolve it with an empty
    // r, a second seed for whoever already holds the reveal (ruling S2).
    if let Some(why) = super::strict::gm_refusal(p.book()) {
        return Err(GmError::AwaitingReveals(why));
    }
    if p.book().locked.is_some() {
        return Err(GmError::Locked);
    }
    Ok(Event::GmAction {
        step: p.book().step,
        action: GmKind::CloseStep,
        reason: reason.to_string(),
        at: now,
    })
}

pub fn gm_replace<P: Play + ?Sized>(
    p: &P,
    seat: &str,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<Event, GmError> {
    open_for_gm(p)?;
    let book = p.book();
    if !book.seats.iter().any(|s| s.seat == seat) {
        return Err(GmError::NoSeat {
            seat: seat.to_string(),
            seats: book.seat_ids().join(", "),
        });
    }
    Ok(Event::GmAction {
        step: book.step,
        action: GmKind::ReplaceSeat {
            seat: seat.to_string(),
        },
        reason: reason.to_string(),
        at: now,
    })
}

impl<R: Ruleset> Game<R> {
    /// The outcome: by forfeit once at most one side has a seat still playing, else the rules'.
    pub(crate) fn outcome_now(&self) -> Option<Outcome> {
        self.club_outcome().or_else(|| R::outcome(&self.state))
    }

    /// The result in the ruleset's own words, when the rules (not a draw agreed or a forfeit)
    /// ended the game: the game-over subject says them, so it never disagrees with the body.
    pub(crate) fn result_words_now(&self) -> Option<String> {
        if self.club_outcome().is_some() {
            return None;
        }
        R::outcome(&self.state).and_then(|_| R::result_words(&self.state))
    }

    /// The outcome the club decides (a draw agreed, every other side forfeited), before the rules'.
    fn club_outcome(&self) -> Option<Outcome> {
        if let Some(a) = &self.club.abandoned {
            return Some(a.outcome());
        }
        if let Some(draw) = self.club.draw_outcome() {
            return Some(draw);
        }
        if !self.forfeited.is_empty() {
            let playing: BTreeSet<&str> = self
                .seats
                .iter()
                .filter(|s| !self.forfeited.contains(&s.seat))
                .map(|s| s.side.as_str())
                .collect();
            if playing.len() <= 1 {
                let who = self.book.how_out();
                let summary = match playing.iter().next() {
                    Some(side) => format!("{who}; {side} wins."),
                    None => format!("{who}; nobody wins."),
                };
                return Some(Outcome {
                    winners: playing.into_iter().map(str::to_string).collect(),
                    summary,
                });
            }
        }
        None
    }
}

impl Book {
    /// How the seats out of the game left it, for the outcome's summary: concessions by side,
    /// then the seats that forfeited (the words before concessions existed, unchanged).
    fn how_out(&self) -> String {
        let mut parts: Vec<String> = self
            .club
            .conceded
            .iter()
            .map(|c| match c.seat == c.side {
                true => format!("{} conceded the game", c.side),
                false => format!("{} conceded the game ({} for its side)", c.side, c.seat),
            })
            .collect();
        let forfeited: Vec<&str> = self
            .forfeited
            .iter()
            .filter(|s| {
                let side = self.side_of(s);
                !self
                    .club
                    .conceded
                    .iter()
                    .any(|c| Some(c.side.as_str()) == side)
            })
            .map(String::as_str)
            .collect();
        if !forfeited.is_empty() {
            parts.push(format!("{} forfeited the game", forfeited.join(" and ")));
        }
        parts.join("; ")
    }
}
