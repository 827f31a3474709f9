//! Consent of spectators (docs/watching.md W5–W7): the one mail that asks an added address to
//! confirm, the confirmation by reply (the code proves the mailbox; a From header can be
//! forged), and STOP from a spectator's address, confirmed by one mail. Decides on one mail
//! and returns a `Decision`; writes nothing itself (intake's `carry_out` does), and never
//! mails an address that has not confirmed anything but the request and a STOP's answer.

use anyhow::Result;
use chrono::{DateTime, Utc};
use tracing::{info, warn};

use crate::engine::Event;
use crate::engine::guard::Activity;
use crate::mail::compose;
use crate::mail::consent;
use crate::mail::inbound::Inbound;
use crate::mail::outbound::{self, Outgoing};
use crate::store::{SeatsFile, Spectator};

use super::Daemon;
use super::decision::{Decision, Intake};
use super::intake::ct_eq;
use super::open_game::OpenGame;
use super::open_game::reload;
use super::spectators::{Watched, spectator_stop, watching};
use super::unasked::{Unasked, stranger_admit};

impl Daemon {
    /// `despatch gm unsubscribe <code>`: a one-click unsubscription (RFC 8058, club-rules
    /// L1) as a web front end hands it on. The code names one seat or spectator of one game;
    /// it does what their STOP by mail does (S1, W7), without a mail (RFC 8058 asks for none).
    pub fn unsubscribe(&self, code: &str, now: DateTime<Utc>) -> Result<String> {
        let _lock = self.data.lock()?;
        let code = code.trim().to_ascii_lowercase();
        if code.len() != 32 || !code.bytes().all(|b| b.is_ascii_hexdigit()) {
            anyhow::bail!("that is not an unsubscription code (32 hex digits); nothing changed");
        }
        match self.unsubscribe_locked(&code, now)? {
            Some(said) => Ok(said),
            None => anyhow::bail!(
                "no seat or spectator has that unsubscription code (stopped already, or \
                 mistyped); nothing changed"
            ),
        }
    }

    /// Every code `despatch listen` queued (club-rules L1), carried out as `gm unsubscribe`
    /// does, each taken off the queue only once done: a crash between leaves it to be done
    /// again, and doing it again changes nothing. A code that names no one (stopped already,
    /// or made up) is dropped with a log line. Logs name a code by its first 4 digits only.
    /// Called with the data lock held.
    pub(super) fn queued_unsubscriptions(&self, now: DateTime<Utc>) -> Result<()> {
        for code in self.data.queued_unsubscribes()? {
            let short = &code[..4];
            match self.unsubscribe_locked(&code, now) {
                Ok(Some(_)) => info!(code = short, "one-click unsubscription carried out"),
                Ok(None) => info!(code = short, "one-click code names no one: dropped"),
                Err(e) => {
                    // Left queued: the next pass tries again.
                    warn!(code = short, "one-click unsubscription failed, kept: {e:#}");
                    continue;
                }
            }
            self.data.unqueue_unsubscribe(&code)?;
        }
        Ok(())
    }

    /// The code's STOP, the data lock held: what was done, or `None` when no seat or
    /// spectator has that code.
    fn unsubscribe_locked(&self, code: &str, now: DateTime<Utc>) -> Result<Option<String>> {
        let same = |parts: &[&str]| {
            ct_eq(
                outbound::unsubscribe_code(parts).as_bytes(),
                code.as_bytes(),
            )
        };
        for id in self.data.game_ids()? {
            let Ok(seats) = self.data.game(&id).seats() else {
                continue;
            };
            if let Some(seat) = seats
                .seats
                .iter()
                .find(|(seat, p)| same(&["seat", &id, seat, &p.token]))
                .map(|(seat, _)| seat.clone())
            {
                let mut next = seats.clone();
                if let Some(p) = next.seats.get_mut(&seat) {
                    p.notify.stop();
                }
                self.data.game(&id).write_seats(&next)?;
                return Ok(Some(compose::unsubscribed(&id, Some(&seat))));
            }
            if let Some(s) = seats.spectators.iter().find(|s| {
                s.stop
                    .as_deref()
                    .is_some_and(|k| same(&["spectator", &id, k]))
            }) {
                let mut g = self.open_game(&id)?;
                let (next, ev) =
                    spectator_stop(&g.seats, &s.id, g.game.book().step, g.game.is_over(), now);
                g.store.write_seats(&next)?;
                reload(&mut g)?;
                if let Some(ev) = &ev {
                    self.append(&mut g, ev, now)?;
                }
                self.close(&g)?;
                self.deliver_at(now)?;
                return Ok(Some(compose::unsubscribed(&id, None)));
            }
        }
        Ok(None)
    }

    /// A mail from a spectator's address (confirmed or asked), decided by
    /// `decide_observer_mail` on what is read here (the sender's records as a stranger, as a
    /// warned observer and as an address answered unasked); the letters are built for what
    /// it decided.
    pub(super) fn observer_mail(
        &self,
        inb: &Inbound,
        g: OpenGame,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let game_id = g.store.id.clone();
        let Some(s) = g
            .seats
            .spectators
            .iter()
            .find(|s| s.address.eq_ignore_ascii_case(&inb.from))
            .cloned()
        else {
            anyhow::bail!("{} is no observer of {game_id}", inb.from);
        };
        let key = warned_key(&s);
        let m = ObserverMail {
            inb,
            spectator: &s,
            game: Watched::of(g.game.as_ref()),
            seats: &g.seats,
            stranger: self.data.stranger(&inb.from),
            per_hour: self.cfg.mail.max_per_sender_per_hour,
            warned: g.store.activity(&key),
            unasked: self.unasked([s.address.as_str()]),
            now,
        };
        let observer = Intake::Observer {
            game: game_id.clone(),
        };
        let letter = |name: String, subject: &str, text: &str| {
            let out = self.house_letter(&s.address, subject, text, Some(inb), &game_id, now);
            vec![(name, out)]
        };
        let mut d = match decide_observer_mail(m) {
            // Not confirmed, so nothing is sent (the request is all they get).
            ObserverDecision::Unconfirmed => return Ok(Decision::only(observer)),
            ObserverDecision::Confirmed { seats, event } => {
                let mut d = Decision::only(observer);
                d.events = vec![event];
                d.seats = Some(seats);
                d
            }
            ObserverDecision::Stopped {
                seats,
                event,
                was_watching,
                told,
                answered,
            } => {
                let mut d = Decision::only(observer);
                d.events = event.into_iter().collect();
                if told {
                    d.letters = letter(
                        format!("stopped-{}", s.id),
                        &consent::stopped_subject(&game_id),
                        &consent::stopped_text(&game_id, was_watching),
                    );
                }
                d.answered = answered;
                d.seats = Some(seats);
                d
            }
            ObserverDecision::Refused {
                over_budget,
                stranger,
                warned,
                told,
                answered,
            } => {
                let mut d = Decision::only(if over_budget {
                    Intake::RateLimited
                } else {
                    observer
                });
                d.stranger = Some((inb.from.clone(), stranger));
                if told {
                    let (subject, text) = compose::observer_refusal(&game_id);
                    d.letters = letter(refusal_name(&inb.message_id), &subject, &text);
                }
                d.seat_activity = warned.map(|w| (key, w));
                d.answered = answered;
                d
            }
        };
        d.game = Some(g);
        Ok(d)
    }

    /// The one mail that asks `s` (just added, not confirmed) to confirm: what it is, who
    /// asked, the code; the cap on it (F1) was decided already. None when `s` is not asked.
    pub(super) fn consent_letter(
        &self,
        g: &OpenGame,
        s: &Spectator,
        inb: Option<&Inbound>,
        now: DateTime<Utc>,
    ) -> Option<(String, Outgoing)> {
        let p = s.pending.as_ref()?;
        let game_id = &g.store.id;
        let subject = consent::confirm_subject(game_id, &p.code);
        let text = consent::confirm_text(game_id, &s.added_by, &p.code, p.until);
        let out = self.house_letter(&s.address, &subject, &text, inb, game_id, now);
        Some((format!("consent-{}", s.id), out))
    }

    /// A mail from the house to a spectator's address about game `game`, answering `inb`
    /// when there is one; it carries the game's STOP route in `List-Unsubscribe` (W7).
    pub(super) fn house_letter(
        &self,
        to: &str,
        subject: &str,
        text: &str,
        inb: Option<&Inbound>,
        game: &str,
        now: DateTime<Utc>,
    ) -> Outgoing {
        let (local, domain) = self.cfg.address_parts();
        let text = crate::report::wrap_text(text);
        let html = crate::report::render(
            "plain.html",
            serde_json::json!({"game": "", "seat": "", "subject": subject, "text": text}),
        )
        .ok();
        let replied = inb.and_then(|m| outbound::echoable_id(&m.message_id));
        let first = inb.map(|m| m.message_id.as_str()).unwrap_or("");
        Outgoing {
            to: to.to_string(),
            from: format!(
                "{} <{local}@{domain}>",
                crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
            ),
            subject: subject.to_string(),
            text,
            html,
            message_id: outbound::message_id(&[first, game, subject], &domain),
            in_reply_to: replied.map(str::to_string),
            references: replied.map(str::to_string).into_iter().collect(),
            date: now,
            auto_generated: true,
            list_unsubscribe: Some(outbound::unsubscribe_mailto(&format!(
                "{local}+{game}@{domain}"
            ))),
            ..Default::default()
        }
    }
}

/// A mail from a spectator's address as intake read it, with what deciding it needs read
/// beforehand: the spectator, the game's figures and seats file, the sender's record as a
/// stranger (and the budget, `max_per_sender_per_hour`), the guard's record of warnings to
/// this observer, the address's record of unasked answers (F1), the time.
pub(super) struct ObserverMail<'a> {
    pub(super) inb: &'a Inbound,
    pub(super) spectator: &'a Spectator,
    pub(super) game: Watched,
    pub(super) seats: &'a SeatsFile,
    pub(super) stranger: Activity,
    pub(super) per_hour: u32,
    pub(super) warned: Activity,
    pub(super) unasked: Unasked,
    pub(super) now: DateTime<Utc>,
}

/// What a mail from a spectator's address comes to.
#[derive(Debug)]
pub(super) enum ObserverDecision {
    /// STOP (W7): removed at once (a confirmed one with a `spectator_left` event, so the seats
    /// are told, W1), and told so by one mail when the cap allows (`told`, F1).
    Stopped {
        seats: SeatsFile,
        event: Option<Event>,
        was_watching: bool,
        told: bool,
        answered: Vec<(String, Activity)>,
    },
    /// The request's code, in time and the game still on (W5): watching from now.
    Confirmed { seats: SeatsFile, event: Event },
    /// From an address still asked, anything else: not answered.
    Unconfirmed,
    /// Anything else from a confirmed observer: counted against the strangers' budget
    /// (`stranger`, as it is to be); within it, told that spectators cannot send orders at
    /// most once an hour (`warned`, the guard's record as it is to be when it was due) and
    /// within the cap (`told`).
    Refused {
        over_budget: bool,
        stranger: Activity,
        warned: Option<Activity>,
        told: bool,
        answered: Vec<(String, Activity)>,
    },
}

/// Decides a mail from a spectator's address, pure: STOP removes them at once; the request's
/// code confirms them; from an address still asked, anything else is not answered; from a
/// confirmed one, it is answered at most once an hour that spectators cannot send orders.
pub(super) fn decide_observer_mail(m: ObserverMail) -> ObserverDecision {
    let ObserverMail {
        inb,
        spectator: s,
        game,
        seats,
        stranger,
        per_hour,
        mut warned,
        mut unasked,
        now,
    } = m;
    if consent::asks_to_stop(&inb.subject, &inb.body, &s.address) {
        let (seats, event) = spectator_stop(seats, &s.id, game.step, game.over, now);
        let told = unasked.admit(&s.address, &format!("stopped-{}", s.id), now);
        return ObserverDecision::Stopped {
            seats,
            event,
            was_watching: s.watching(),
            told,
            answered: unasked.records,
        };
    }
    if let Some(p) = &s.pending {
        if p.until > now && !game.over && consent::carries_code(&inb.subject, &inb.body, &p.code) {
            return confirmed(seats, s, game.step, now);
        }
        return ObserverDecision::Unconfirmed;
    }
    let (over_budget, stranger) = stranger_admit(stranger, per_hour, now);
    let due = !over_budget && warned.may_warn(now);
    let told = due && unasked.admit(&s.address, &refusal_name(&inb.message_id), now);
    ObserverDecision::Refused {
        over_budget,
        stranger,
        warned: due.then_some(warned),
        told,
        answered: unasked.records,
    }
}

/// An asked observer confirmed: watching since now, and the event that tells the seats.
fn confirmed(seats: &SeatsFile, s: &Spectator, step: u64, now: DateTime<Utc>) -> ObserverDecision {
    let mut seats = seats.clone();
    if let Some(x) = seats.spectators.iter_mut().find(|x| x.id == s.id) {
        x.pending = None;
        x.since = now;
    }
    let event = Event::SpectatorJoined {
        step,
        spectator: s.id.clone(),
        by: s.added_by.clone(),
        watching: watching(&seats),
        at: now,
    };
    ObserverDecision::Confirmed { seats, event }
}

/// The guard's name for an observer's record of warnings: one no seat can have (seat ids
/// start with a letter).
fn warned_key(s: &Spectator) -> String {
    format!("_spectator-{}", s.id)
}

/// The queue name of the answer that observers cannot send orders.
fn refusal_name(message_id: &str) -> String {
    format!("observer-{}", short(message_id))
}

fn short(message_id: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(message_id.as_bytes())[..8])
}

#[cfg(test)]
mod tests {
    use chrono::Duration;

    use super::*;
    use crate::engine::club::Spectators;
    use crate::store::PendingSpectator;

    fn now() -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + Duration::days(20_000)
    }

    fn spectator(pending: Option<PendingSpectator>) -> Spectator {
        Spectator {
            id: "w1".into(),
            address: "w@x.org".into(),
            added_by: "north".into(),
            since: now() - Duration::days(1),
            pending,
            stop: None,
        }
    }

    fn asked(until: DateTime<Utc>) -> Spectator {
        spectator(Some(PendingSpectator {
            code: "abc123".into(),
            until,
        }))
    }

    fn mail(subject: &str, body: &str) -> Inbound {
        Inbound {
            message_id: "m1@x.org".into(),
            from: "w@x.org".into(),
            subject: subject.into(),
            body: body.into(),
            ..Default::default()
        }
    }

    fn decide(
        inb: &Inbound,
        s: &Spectator,
        warned: Activity,
        stranger: Activity,
    ) -> ObserverDecision {
        let seats = SeatsFile {
            spectators: vec![s.clone()],
            ..Default::default()
        };
        decide_observer_mail(ObserverMail {
            inb,
            spectator: s,
            game: Watched {
                policy: Spectators::Players,
                over: false,
                step: 3,
            },
            seats: &seats,
            stranger,
            per_hour: 5,
            warned,
            unasked: Unasked::default(),
            now: now(),
        })
    }

    #[test]
    fn stop_removes_a_watcher_tells_the_seats_and_answers_once() {
        let d = decide(
            &mail("", "STOP"),
            &spectator(None),
            Activity::default(),
            Activity::default(),
        );
        let ObserverDecision::Stopped {
            seats,
            event,
            was_watching,
            told,
            answered,
        } = d
        else {
            panic!("{d:?}")
        };
        assert!(seats.spectators.is_empty() && was_watching && told);
        assert!(matches!(event, Some(Event::SpectatorLeft { step: 3, .. })));
        assert_eq!(answered.len(), 1);
    }

    #[test]
    fn the_code_in_time_confirms_and_nothing_else_from_an_asked_address_is_answered() {
        let s = asked(now() + Duration::days(1));
        let d = decide(
            &mail("Re: confirm", "yes abc123"),
            &s,
            Activity::default(),
            Activity::default(),
        );
        let ObserverDecision::Confirmed { seats, event } = d else {
            panic!("{d:?}")
        };
        assert!(seats.spectators[0].watching());
        assert_eq!(seats.spectators[0].since, now());
        assert!(matches!(event, Event::SpectatorJoined { watching: 1, .. }));
        let without = decide(
            &mail("hello", "may I?"),
            &s,
            Activity::default(),
            Activity::default(),
        );
        assert!(matches!(without, ObserverDecision::Unconfirmed));
        let lapsed = asked(now() - Duration::minutes(1));
        let late = decide(
            &mail("", "abc123"),
            &lapsed,
            Activity::default(),
            Activity::default(),
        );
        assert!(matches!(late, ObserverDecision::Unconfirmed));
    }

    #[test]
    fn a_watcher_who_writes_is_told_once_not_again_soon_and_not_over_the_budget() {
        let s = spectator(None);
        let d = decide(
            &mail("orders", "MOVE A B"),
            &s,
            Activity::default(),
            Activity::default(),
        );
        let ObserverDecision::Refused {
            over_budget: false,
            warned: Some(warned),
            told: true,
            ..
        } = d
        else {
            panic!("{d:?}")
        };
        // Warned just now: counted, not told again.
        let again = decide(&mail("orders", "MOVE A B"), &s, warned, Activity::default());
        assert!(matches!(
            again,
            ObserverDecision::Refused {
                over_budget: false,
                warned: None,
                told: false,
                ..
            }
        ));
        let busy = Activity {
            mails: vec![now(); 5],
            ..Default::default()
        };
        let over = decide(&mail("orders", "MOVE A B"), &s, Activity::default(), busy);
        assert!(matches!(
            over,
            ObserverDecision::Refused {
                over_budget: true,
                warned: None,
                told: false,
                ..
            }
        ));
    }
}
