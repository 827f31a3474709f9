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
use crate::store::Spectator;

use super::Daemon;
use super::decision::{Decision, Intake};
use super::intake::ct_eq;
use super::open_game::OpenGame;
use super::open_game::reload;
use super::spectators::{spectator_stop, watching};

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
                return Ok(Some(format!(
                    "{id}: seat {seat} gets no optional mail any more (STOP); the mails that ask \
                     for orders still come."
                )));
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
                return Ok(Some(format!("{id}: a spectator stopped watching (STOP).")));
            }
        }
        Ok(None)
    }

    /// A mail from a spectator's address (confirmed or asked): STOP removes them at once and
    /// is answered by one mail (W7); the request's code confirms them (W5); from an address
    /// still asked, anything else is not answered; from a confirmed one, it is answered at
    /// most once an hour that spectators cannot send orders.
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
        if consent::asks_to_stop(&inb.subject, &inb.body, &s.address) {
            return self.spectator_stops(inb, g, &s, now);
        }
        if let Some(p) = &s.pending {
            let mut d = Decision::only(Intake::Observer {
                game: game_id.clone(),
            });
            if p.until > now
                && !g.game.is_over()
                && consent::carries_code(&inb.subject, &inb.body, &p.code)
            {
                let mut seats = g.seats.clone();
                if let Some(x) = seats.spectators.iter_mut().find(|x| x.id == s.id) {
                    x.pending = None;
                    x.since = now;
                }
                d.events = vec![Event::SpectatorJoined {
                    step: g.game.book().step,
                    spectator: s.id.clone(),
                    by: s.added_by.clone(),
                    watching: watching(&seats),
                    at: now,
                }];
                d.seats = Some(seats);
                d.game = Some(g);
            }
            // Otherwise: not confirmed, so nothing is sent (the request is all they get).
            return Ok(d);
        }
        let (over, stranger) = self.stranger_over_budget(inb, now);
        let mut d = Decision::only(if over {
            Intake::RateLimited
        } else {
            Intake::Observer {
                game: game_id.clone(),
            }
        });
        d.stranger = Some((inb.from.clone(), stranger));
        // A name no seat can have (seat ids start with a letter), for the guard's record.
        let key = format!("_spectator-{}", s.id);
        let mut activity = g.store.activity(&key);
        if !over && activity.may_warn(now) {
            let (subject, text) = compose::observer_refusal(&game_id);
            let out = self.house_letter(&s.address, &subject, &text, Some(inb), &game_id, now);
            d.letters = self.capped(
                vec![(format!("observer-{}", short(&inb.message_id)), out)],
                now,
                &mut d.answered,
            );
            d.seat_activity = Some((key, activity));
        }
        d.game = Some(g);
        Ok(d)
    }

    /// STOP from a spectator's address: removed at once (a confirmed one with a
    /// `spectator_left` event, so the seats are told, W1), and told so by one mail.
    fn spectator_stops(
        &self,
        inb: &Inbound,
        g: OpenGame,
        s: &Spectator,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let game_id = g.store.id.clone();
        let (seats, ev) =
            spectator_stop(&g.seats, &s.id, g.game.book().step, g.game.is_over(), now);
        let mut d = Decision::only(Intake::Observer {
            game: game_id.clone(),
        });
        d.events = ev.into_iter().collect();
        let subject = consent::stopped_subject(&game_id);
        let text = consent::stopped_text(&game_id, s.watching());
        let out = self.house_letter(&s.address, &subject, &text, Some(inb), &game_id, now);
        d.letters = self.capped(
            vec![(format!("stopped-{}", s.id), out)],
            now,
            &mut d.answered,
        );
        d.seats = Some(seats);
        d.game = Some(g);
        Ok(d)
    }

    /// The one mail that asks `s` (just added, not confirmed) to confirm: what it is, who
    /// asked, the code. Within the per-address cap (F1); none when over it.
    pub(super) fn consent_letters(
        &self,
        g: &OpenGame,
        s: &Spectator,
        inb: Option<&Inbound>,
        now: DateTime<Utc>,
        records: &mut Vec<(String, Activity)>,
    ) -> Vec<(String, Outgoing)> {
        let Some(p) = &s.pending else {
            return vec![];
        };
        let game_id = &g.store.id;
        let subject = consent::confirm_subject(game_id, &p.code);
        let text = consent::confirm_text(game_id, &s.added_by, &p.code, p.until);
        let out = self.house_letter(&s.address, &subject, &text, inb, game_id, now);
        self.capped(vec![(format!("consent-{}", s.id), out)], now, records)
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

fn short(message_id: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(message_id.as_bytes())[..8])
}
