//! Intake: one inbound mail in, one decision and its drafts out. It checks size, readability,
//! duplicates and floods, routes the mail to a game and authenticates the seat (registered
//! address and the seat's secret), then asks the engine what the mail does. Carrying out the
//! decision (append, queue, settle) is the caller's part of this module, kept apart from it.

use anyhow::Result;
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use tracing::{info, warn};

use crate::dice;
use crate::engine::guard::{Activity, Verdict};
use crate::mail::compose;
use crate::mail::inbound::{self, Inbound, Route, SeatCommand};
use crate::mail::outbound::{self, Outgoing};

use super::Daemon;
use super::decision::{Decision, Intake};
use super::open_game::OpenGame;

#[path = "reveal.rs"]
mod reveal;
#[path = "talk.rs"]
pub(super) mod talk;

fn sha_id(raw: &[u8]) -> String {
    format!("sha256:{}", dice::to_hex(&Sha256::digest(raw).into()))
}

/// Constant-time comparison for secrets.
pub(super) fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// What intake has read for an authenticated seat's mail before deciding what it does: the
/// mail and how it was routed, the seat, its guard record, and the clock's `now` as a value.
/// The game itself goes with it by value, into the decision.
struct SeatMail<'a> {
    inb: &'a Inbound,
    route: &'a Route,
    seat: String,
    activity: Activity,
    now: DateTime<Utc>,
}

/// The seats whose registered address is the sender's.
fn seats_writing_from(g: &OpenGame, from: &str) -> Vec<String> {
    g.recipients()
        .iter()
        .filter(|r| r.private.writes_from(from))
        .map(|r| r.seat.clone())
        .collect()
}

/// Among the sender's seats, the one whose secret the mail came to (and whose name, if the
/// address gave one).
fn seat_by_token(g: &OpenGame, mine: &[String], route: &Route) -> Option<String> {
    let token = route.token.clone().unwrap_or_default();
    mine.iter()
        .find(|s| {
            let r = g.recipient(s).expect("listed above");
            ct_eq(r.private.token.as_bytes(), token.as_bytes())
                && route.seat.as_deref().is_none_or(|x| x == s.as_str())
        })
        .cloned()
}

/// What the seat's hourly limit makes of its mail.
enum Admission {
    Read,
    /// Over the limit: held, to be read at `until`.
    Held {
        until: DateTime<Utc>,
    },
    /// The same rejected text again: an auto-responder.
    Looping,
}

/// The seat's guard admits the mail (or not), recording it in `m.activity`. Held mail read by
/// the organiser's hand, or before the deadline it came before (`daemon::held`), is read now,
/// and it still counts.
fn admission(m: &mut SeatMail<'_>, limit: u32, held_anyway: bool) -> Admission {
    let now = m.now;
    match m.activity.admit(now, limit, &text_digest(m.inb, m.route)) {
        Verdict::Read => Admission::Read,
        Verdict::TooMany if held_anyway => {
            m.activity.mails.push(now);
            Admission::Read
        }
        Verdict::TooMany => Admission::Held {
            until: m
                .activity
                .free_at(limit)
                .unwrap_or(now + chrono::Duration::hours(1)),
        },
        Verdict::Loop => Admission::Looping,
    }
}

/// Over the seat's hourly limit: held, and not recorded as processed, since the held copy is
/// read again at `until` (or before the step's deadline).
fn held(g: OpenGame, m: SeatMail<'_>, until: DateTime<Utc>) -> Decision {
    let game_id = g.store.id.clone();
    let seat = m.seat;
    warn!(game = %game_id, seat, %until, "seat over max_per_sender_per_hour; mail held");
    let intake = Intake::Held {
        game: game_id,
        seat: seat.clone(),
        until,
        deadline: g.game.book().deadline,
    };
    let mut d = Decision::for_seat(intake, g, &seat, m.activity);
    d.processed = false;
    d
}

/// The same rejected text again: taken for an auto-responder, and not answered.
fn looping(g: OpenGame, m: SeatMail<'_>) -> Decision {
    let seat = m.seat;
    warn!(game = %g.store.id, seat, "the same rejected text again: taken for an auto-responder");
    Decision::for_seat(
        Intake::Automated("the same rejected text, again: an auto-responder".into()),
        g,
        &seat,
        m.activity,
    )
}

/// HELP: the order reference (`reference`, None when it cannot be read), and whether the
/// organiser is told that it is missing (when the game has an organiser address; the daemon
/// tells them, `Decision::reference_missing`).
fn help(
    g: OpenGame,
    mut m: SeatMail<'_>,
    reference: Option<&str>,
    house_gm: bool,
) -> Result<Decision> {
    let gm_told = reference.is_none() && (g.seats.gm.is_some() || house_gm);
    let to = g.recipient(&m.seat).expect("authenticated above").clone();
    let draft = compose::help(g.game.as_ref(), &to, reference, gm_told, &m.inb.message_id)?;
    m.activity.outcome(m.now, None);
    let intake = Intake::Help {
        game: g.store.id.clone(),
        seat: m.seat.clone(),
    };
    let mut d = Decision::for_seat(intake, g, &m.seat, m.activity);
    d.drafts = vec![draft];
    d.reference_missing = gm_told;
    Ok(d)
}

/// Nothing in the mail could be read as orders: not a submission, so the player's earlier
/// orders stand, and the player is told how to send nothing on purpose.
fn nothing_readable(
    g: OpenGame,
    mut m: SeatMail<'_>,
    why: inbound::NothingReadable,
) -> Result<Decision> {
    let mut problems = vec![compose::nothing_readable(why)];
    if let Some(word) = &m.route.subject_refused {
        problems.push(compose::subject_refused(word));
    }
    m.activity
        .outcome(m.now, Some(&text_digest(m.inb, m.route)));
    Decision::rejected(g, &m.seat, m.activity, m.inb, &problems, 0)
}

/// The seat's orders: the engine's submission event, or every problem with them.
fn orders(g: OpenGame, mut m: SeatMail<'_>) -> Result<Decision> {
    let (inb, now) = (m.inb, m.now);
    let text = inbound::strip_control_lines(&inb.body);
    let salt = g
        .game
        .book()
        .salt(&m.seat, &g.secrets)
        .map_err(|e| anyhow::anyhow!(e))?;
    let step = g.game.book().step;
    let submitted =
        g.game
            .submission_event(&m.seat, &text, m.route.step, &salt, &inb.message_id, now);
    match submitted {
        Ok(event) => {
            m.activity.outcome(now, None);
            Ok(Decision::accepted(g, &m.seat, m.activity, step, event))
        }
        Err(mut problems) => {
            m.activity.outcome(now, Some(&text_digest(inb, m.route)));
            let lines = problems.len();
            compose::hint_retired_forms(&mut problems, &text);
            Decision::rejected(g, &m.seat, m.activity, inb, &problems, lines)
        }
    }
}

impl Daemon {
    pub(super) fn ingest_locked(&self, raw: &[u8], now: DateTime<Utc>) -> Result<Intake> {
        if raw.len() > self.cfg.mail.max_message_bytes {
            warn!(
                bytes = raw.len(),
                "message larger than max_message_bytes set aside"
            );
            self.data.log_intake(&sha_id(raw), "too-large", "", now)?;
            return Ok(Intake::Unreadable("too large".into()));
        }
        let inb = match inbound::parse(raw) {
            Ok(m) => m,
            Err(e) => {
                warn!(error = %e, "unreadable message set aside");
                self.data.log_intake(&sha_id(raw), "unreadable", "", now)?;
                return Ok(Intake::Unreadable(e.to_string()));
            }
        };
        let decision = self.decide(&inb, now)?;
        let outcome = self.carry_out(decision, &inb, now)?;
        info!(message_id = %inb.message_id, from = %inb.from, outcome = outcome.word(), "mail processed");
        self.data
            .log_intake(&inb.message_id, outcome.word(), &inb.from, now)?;
        Ok(outcome)
    }

    /// A stranger's mail (no seat, or a seat's From without its secret) counts against the
    /// strangers' budget, never a player's. Over it, nothing is answered.
    pub(super) fn stranger_over_budget(
        &self,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> (bool, Activity) {
        let per_hour = self.cfg.mail.max_per_sender_per_hour;
        super::unasked::stranger_admit(self.data.stranger(&inb.from), per_hour, now)
    }

    /// What one mail does: to the house, the desk or the lobby, or to a game, where its
    /// sender is authenticated and the seat's mail decided (`seat_mail`). Reads the store;
    /// writes nothing.
    fn decide(&self, inb: &Inbound, now: DateTime<Utc>) -> Result<Decision> {
        if let Some(why) = &inb.auto {
            // An out-of-office reply is answered once with the absence it suggests (A10).
            if inbound::away::is_out_of_office(why, &inb.subject) {
                return self.out_of_office(inb, why, now);
            }
            return Ok(Decision::only(Intake::Automated(why.clone())));
        }
        let (local, _) = self.cfg.address_parts();
        // The organiser's desk (issue 31 point 4): its own address, before any game's.
        if let Some(secret) = inbound::desk::desk_secret(inb, &local) {
            return self.desk_decide(inb, &secret, now);
        }
        let route = inbound::route(inb, &local);
        // The lobby: its own reply address, or a lobby line first in a mail naming no game.
        if route.lobby.is_some()
            || (route.game.is_none() && inbound::lobby::is_lobby_mail(&inb.body))
        {
            return self.lobby_mail(inb, route.lobby.as_deref(), now);
        }
        let Some(game_id) = route.game.clone() else {
            return self.house_mail(inb, now);
        };
        if !self.data.game(&game_id).exists() {
            return Ok(Decision::only(Intake::Unknown(format!(
                "no game `{game_id}`"
            ))));
        }
        let g = self.open_game(&game_id)?;
        // The sender must be a registered seat; among that sender's seats, the token picks one.
        let mine = seats_writing_from(&g, &inb.from);
        if mine.is_empty() {
            if g.seats
                .spectators
                .iter()
                .any(|s| s.address.eq_ignore_ascii_case(&inb.from))
            {
                return self.observer_mail(inb, g, now);
            }
            return self.not_a_seat_address(inb, &route, g, now);
        }
        let Some(seat) = seat_by_token(&g, &mine, &route) else {
            return Ok(self.unauthenticated(inb, &route, g, &mine, now));
        };
        // Every form of the id: a journal from before ids were bounded holds a long one whole.
        if inb
            .ids()
            .any(|id| g.game.book().message_ids.contains(id) || g.store.was_processed(id))
        {
            // Read before (perhaps before a crash): its answers exist already.
            info!(message_id = %inb.message_id, "already processed by this game; ignored");
            return Ok(Decision::only(Intake::Duplicate));
        }
        let activity = g.store.activity(&seat);
        let m = SeatMail {
            inb,
            route: &route,
            seat,
            activity,
            now,
        };
        self.seat_mail(g, m)
    }

    /// A mail naming no game: STOP to the house, as the List-Unsubscribe of a games list or
    /// of a league's standings sends it (ruling L2), so nothing unasked goes to the address
    /// any more (not answered: the From may be forged, and the answer would be one more
    /// mail); else a registered player who forgot to say which game gets the list of theirs.
    fn house_mail(&self, inb: &Inbound, now: DateTime<Utc>) -> Result<Decision> {
        if crate::mail::consent::seat_asks_to_stop(&inb.subject, &inb.body) {
            let mut d = Decision::only(Intake::Unknown(
                "STOP to the house: no games list or standings unasked from now on".into(),
            ));
            d.quiet = Some(inb.from.clone());
            return Ok(d);
        }
        self.list_games(inb, now, false)
    }

    /// A seat's address without its secret: nothing is applied. The registered player (not
    /// the sender, who may be a forger) is told that nothing happened, at most once in a
    /// while, quoting nothing the sender wrote; the sender counts as a stranger.
    fn unauthenticated(
        &self,
        inb: &Inbound,
        route: &Route,
        g: OpenGame,
        mine: &[String],
        now: DateTime<Utc>,
    ) -> Decision {
        let game_id = g.store.id.clone();
        let claimed = route
            .seat
            .clone()
            .filter(|s| mine.contains(s))
            .unwrap_or_else(|| mine[0].clone());
        let (over, stranger) = self.stranger_over_budget(inb, now);
        let mut d = Decision::only(if over {
            Intake::RateLimited
        } else {
            Intake::Unauthenticated {
                game: game_id.clone(),
                seat: claimed.clone(),
            }
        });
        d.stranger = Some((inb.from.clone(), stranger));
        let mut activity = g.store.activity(&claimed);
        if !over && activity.may_warn(now) {
            let to = g.recipient(&claimed).expect("a registered seat");
            if self.may_answer(&to.private.address, "auth-notice", now, &mut d.answered) {
                d.drafts = vec![compose::auth_notice(&game_id, to, &inb.message_id)];
            }
            d.seat_activity = Some((claimed, activity));
        }
        d.game = Some(g);
        d
    }

    /// An authenticated seat's mail, by kind: held or refused by the seat's hourly limit, a
    /// strict reveal or opening, STOP, a seat command, HELP, nothing readable, or orders.
    fn seat_mail(&self, g: OpenGame, mut m: SeatMail<'_>) -> Result<Decision> {
        let held_anyway = self.reading_held_anyway();
        match admission(&mut m, self.cfg.mail.max_per_sender_per_hour, held_anyway) {
            Admission::Read => {}
            Admission::Held { until } => return Ok(held(g, m, until)),
            Admission::Looping => return Ok(looping(g, m)),
        }
        let (inb, now) = (m.inb, m.now);
        // A strict seat's reveal (strict dice), authenticated like any seat mail above. Only
        // in strict games, and only the exact `REVEAL <k> <hex> <hex>` line (Lone Star has a
        // REVEAL order too).
        if g.game.book().strict.is_some()
            && let Some((k, quoted, r)) = crate::engine::strict::parse_reveal(&inb.body)
        {
            return reveal::decide(g, m.seat, m.activity, inb, k, &quoted, &r, now);
        }
        // A strict seat opening its onion at the game's end (bound reveals, ruling S11).
        if g.game.book().strict.as_ref().is_some_and(|st| st.bound)
            && let Some((j, e)) = crate::engine::strict_bound::parse_opening(&inb.body)
        {
            return reveal::decide_opening(g, m.seat, m.activity, inb, j, &e, now);
        }
        // STOP alone (club-rules S1), as the `List-Unsubscribe` mailto sends it.
        if crate::mail::consent::seat_asks_to_stop(&inb.subject, &inb.body) {
            return self.seat_command(&SeatCommand::Stop, g, &m.seat, m.activity, inb, now);
        }
        if let Some(cmd) = &m.route.command {
            if let SeatCommand::SpectatorAdd(_) | SeatCommand::SpectatorRemove(_) = cmd {
                return self.spectator_command(cmd, g, &m.seat, m.activity, inb, now);
            }
            return self.seat_command(cmd, g, &m.seat, m.activity, inb, now);
        }
        if m.route.help {
            let reference = self.cfg.order_reference(g.game.ruleset());
            return help(
                g,
                m,
                reference.as_deref(),
                self.cfg.mail.gm_address.is_some(),
            );
        }
        if let Some(why) = inb.nothing_readable {
            return nothing_readable(g, m, why);
        }
        orders(g, m)
    }

    /// Appends the decision's events, queues its drafts, keeps the guard's records, and lets
    /// the game move on.
    fn carry_out(&self, mut d: Decision, inb: &Inbound, now: DateTime<Utc>) -> Result<Intake> {
        if let Some(address) = &d.quiet {
            self.data.set_quiet(address)?;
        }
        if let Some((address, a)) = &d.stranger {
            self.data.write_stranger(address, a)?;
        }
        for (address, a) in &d.answered {
            self.data.write_answered(address, a)?;
        }
        if let Some(job) = d.desk.take() {
            self.desk_carry_out(job, inb, now)?;
            return Ok(d.intake);
        }
        let Some(mut g) = d.game else {
            if let Some(book) = &d.lobby {
                self.data.write_lobby_book(book)?;
            }
            for (path, bytes) in &d.files {
                crate::store::atomic_write_private(path, bytes)?;
            }
            let house = self.data.house();
            self.queue_letters(&house, &d.letters)?;
            if d.lobby.is_some() {
                // A table the mail filled starts now, not at the next pass. A failure is
                // the clock's to retry: the mail itself has been carried out.
                if let Err(e) = self.lobby_pass(now) {
                    warn!("the lobby's tables were not looked at after a lobby mail: {e:#}");
                }
                self.site_index_after_lobby();
            }
            return Ok(d.intake);
        };
        if d.reference_missing {
            // The organiser hears once per game and ruleset that HELP went without it.
            self.reference_missing(&g, now)?;
        }
        if let Some(seats) = &d.seats {
            g.store.write_seats(seats)?;
            super::open_game::reload(&mut g)?;
        }
        for (path, bytes) in &d.files {
            crate::store::atomic_write_private(path, bytes)?;
        }
        for ev in &d.events {
            self.append(&mut g, ev, now)?;
        }
        self.queue(&g, &d.drafts, now)?;
        if !d.built.is_empty() {
            self.data.mark_pending(&g.store.id)?;
            g.store.queue_all(&d.built)?;
        }
        if !d.letters.is_empty() {
            self.data.mark_pending(&g.store.id)?;
            self.queue_letters(&g.store, &d.letters)?;
        }
        reveal::tell_gm_of_splits(self, &g, &d.events, now)?;
        super::seat_acts::tell_gm_of_resignations(self, &g, &d.events, now)?;
        if let Some((seat, a)) = &d.seat_activity {
            g.store.write_activity(seat, a)?;
        }
        if d.processed {
            g.store.mark_processed(&inb.message_id)?;
        }
        if !d.events.is_empty() {
            self.settle_open(&mut g, now)?;
            self.close(&g)?;
        }
        Ok(d.intake)
    }
}

impl Daemon {
    pub(super) fn queue_letters(
        &self,
        store: &crate::store::GameStore,
        letters: &[(String, Outgoing)],
    ) -> Result<()> {
        for (name, out) in letters {
            // A letter answers an address that is no seat's (a list of games, an observer's
            // refusal): one that cannot be built (an odd sender address) is logged and left,
            // rather than failing the mail it answers and everything that mail did.
            match outbound::build(out) {
                Ok(bytes) => store.queue(name, &bytes)?,
                Err(e) => warn!(letter = %name, "a letter could not be built and was left: {e}"),
            }
        }
        Ok(())
    }
}

/// The digest of what a sender wrote and the step it answers, to recognise the same text sent
/// again. The step is part of it so that a player who sent the same orders to a closed step's
/// mail, and is told so, can send them again to the open step's mail. So is the subject when
/// it asked for something a subject cannot do (the body being empty, the subject is what the
/// player wrote): two such mails with different subjects are no auto-responder's repeats.
fn text_digest(inb: &Inbound, route: &inbound::Route) -> String {
    let mut h = Sha256::new();
    h.update(inb.body.trim().as_bytes());
    if let Some(k) = route.step {
        h.update(format!("\n#step {k}").as_bytes());
    }
    if route.subject_refused.is_some() {
        h.update(b"\n#subject ");
        h.update(inb.subject.trim().as_bytes());
    }
    hex::encode(&h.finalize()[..16])
}
