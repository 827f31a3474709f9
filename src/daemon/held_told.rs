//! Who is told of a held mail, and what: the seat over its hourly limit and the organiser
//! once while the seat has mail held; for a failed mail the organiser once per game and cause,
//! and the sender only when its reply address names a seat with its secret. It decides
//! nothing about the mail itself and quotes nothing of it.

use anyhow::Result;
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use tracing::error;

use crate::engine::guard::AUTH_NOTICE_HOURS;
use crate::mail::compose;
use crate::mail::maildir::Entry;
use crate::mail::outbound::{self, Outgoing};
use crate::store::{HeldCause, HeldMail};

use super::super::Daemon;
use super::super::intake::ct_eq;
use super::{HeldBook, MAX_HELD, read_at};

impl Daemon {
    /// Tells the sender and the organiser what the cause of a held mail calls for, each once
    /// (see `docs/held-mail.md`). Failures to queue are logged: the mail is held either way.
    pub(super) fn tell_of_held(
        &self,
        book: &mut HeldBook,
        key: &str,
        raw: &[u8],
        now: DateTime<Utc>,
    ) {
        let Some(mut m) = book.get(key).cloned() else {
            return;
        };
        let before = (m.sender_told, m.gm_told);
        let told = match &m.cause {
            HeldCause::RateLimit { .. } => self.tell_of_limit(book, &mut m, now),
            HeldCause::Failed { .. } => self.tell_of_failure(book, &mut m, raw, now),
            HeldCause::Behind { .. } => Ok(()),
        };
        if let Err(e) = told {
            error!(key, "could not queue the notices of a held mail: {e:#}");
        }
        if (m.sender_told, m.gm_told) != before {
            match self.data.write_held(&m) {
                Ok(()) => book.put(m),
                Err(e) => error!(key, "could not record the notices of a held mail: {e}"),
            }
        }
    }

    /// Over the hourly limit: the seat (authenticated) and the organiser, once while the seat
    /// has mail held for it.
    fn tell_of_limit(&self, book: &HeldBook, m: &mut HeldMail, now: DateTime<Utc>) -> Result<()> {
        let HeldCause::RateLimit { until, deadline } = m.cause else {
            return Ok(());
        };
        let told_already = book.mails.iter().any(|o| {
            o.game == m.game
                && o.seat == m.seat
                && o.sender_told
                && matches!(o.cause, HeldCause::RateLimit { .. })
        });
        if m.sender_told || told_already {
            return Ok(());
        }
        let (Some(game), Some(seat)) = (m.game.clone(), m.seat.clone()) else {
            return Ok(());
        };
        let g = self.open_game(&game)?;
        let Some(to) = g.recipient(&seat).cloned() else {
            return Ok(());
        };
        let read = read_at(m.arrived, until, deadline);
        let limit = self.cfg.mail.max_per_sender_per_hour;
        let draft = compose::held_notice(&game, &to, &m.key, m.arrived, read, limit);
        self.queue(&g, &[draft], now)?;
        m.sender_told = true;
        self.tell_gm(
            &self.data.house(),
            g.seats.gm.clone(),
            &format!("held-limit-{}", m.key),
            &compose::OrganiserReport::HeldOverLimit {
                seat: &seat,
                game: &game,
                limit,
                arrived: m.arrived,
                read_at: read.at,
                before_deadline: read.before_deadline,
                key: &m.key,
            },
            now,
        )?;
        m.gm_told = true;
        Ok(())
    }

    /// Processing failed: the organiser once per game and cause; the sender only when its
    /// reply address names a seat with its secret (checked against the seats file when that
    /// can be read), at most once per address in six hours, quoting nothing.
    fn tell_of_failure(
        &self,
        book: &HeldBook,
        m: &mut HeldMail,
        raw: &[u8],
        now: DateTime<Utc>,
    ) -> Result<()> {
        let HeldCause::Failed { error } = m.cause.clone() else {
            return Ok(());
        };
        let seats = m
            .game
            .as_deref()
            .and_then(|g| self.data.game(g).seats().ok());
        let told_already = book
            .mails
            .iter()
            .any(|o| o.key != m.key && o.game == m.game && o.cause == m.cause && o.gm_told);
        if !m.gm_told && !told_already {
            self.tell_gm(
                &self.data.house(),
                seats.as_ref().and_then(|s| s.gm.clone()),
                &format!("held-failed-{}-{}", m.key, short(&error)),
                &compose::OrganiserReport::HeldFailed {
                    error: &error,
                    from: &m.from,
                    game: m.game.as_deref(),
                    key: &m.key,
                    held_dir: &self.data.held_dir().display().to_string(),
                },
                now,
            )?;
            m.gm_told = true;
        }
        if m.sender_told {
            return Ok(());
        }
        let Some(meta) = self.meta(raw) else {
            return Ok(());
        };
        let (Some(game), Some((seat, token))) = (&meta.game, &meta.claim) else {
            return Ok(());
        };
        // A readable seats file must confirm the claim; an unreadable one cannot, and the
        // reply address alone is taken (the six-hour spacing bounds any backscatter).
        let tz = match &seats {
            Some(s) => match s.seats.get(seat.as_str()) {
                Some(p)
                    if ct_eq(p.token.as_bytes(), token.as_bytes()) && p.writes_from(&meta.from) =>
                {
                    p.time_zone.clone()
                }
                _ => return Ok(()),
            },
            None => "UTC".to_string(),
        };
        let mut told = self.data.held_notices();
        told.retain(|_, t| now - *t < Duration::hours(AUTH_NOTICE_HOURS));
        if told.contains_key(&meta.from) {
            m.sender_told = true;
            return Ok(());
        }
        let (subject, text) = compose::held_failed_letter(game, m.arrived, m.next_try, &tz);
        let (local, domain) = self.cfg.address_parts();
        let letter = Outgoing {
            to: meta.from.clone(),
            from: format!(
                "{} <{local}@{domain}>",
                crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
            ),
            subject,
            text,
            message_id: outbound::message_id(&["held", &m.key], &domain),
            date: now,
            auto_generated: true,
            ..Default::default()
        };
        let bytes = outbound::build(&letter)
            .map_err(|e| anyhow::anyhow!("building the held-mail notice: {e}"))?;
        // The notice is recorded before it is queued: a crash between costs one notice,
        // never a second one.
        told.insert(meta.from.clone(), now);
        self.data.write_held_notices(&told)?;
        let house = self.data.house();
        house.queue(&format!("held-sender-{}", m.key), &bytes)?;
        m.sender_told = true;
        Ok(())
    }

    /// A mail that could not be kept: logged, and the organiser told once a day.
    pub(super) fn not_kept(&self, m: &HeldMail, why: &str, now: DateTime<Utc>) {
        error!(key = %m.key, from = %m.from, "mail not held ({why}); its original is the only copy");
        let day = now.format("%Y-%m-%d").to_string();
        let told = self.tell_gm(
            &self.data.house(),
            None,
            &format!("held-full-{}", short(&format!("{day}{}", m.from))),
            &compose::OrganiserReport::NotHeld {
                from: &m.from,
                game: m.game.as_deref(),
                why,
                max_held: MAX_HELD,
            },
            now,
        );
        if let Err(e) = told {
            error!("could not queue the report to the organiser: {e:#}");
        }
    }

    /// A message in the inbox that cannot even be read: left in `new/` and read again at the
    /// next pass; the organiser told once.
    pub(in crate::daemon) fn inbox_unreadable(
        &self,
        entry: &Entry,
        why: &anyhow::Error,
        now: DateTime<Utc>,
    ) {
        error!(entry = %entry.id, "cannot read the message; left in the inbox: {why:#}");
        let told = self.tell_gm(
            &self.data.house(),
            None,
            &format!("unreadable-{}", short(&entry.id)),
            &compose::OrganiserReport::InboxUnreadable {
                why: &format!("{why:#}"),
                file: &entry.path.display().to_string(),
            },
            now,
        );
        if let Err(e) = told {
            error!("could not queue the report to the organiser: {e:#}");
        }
    }
}

fn short(s: &str) -> String {
    hex::encode(&Sha256::digest(s.as_bytes())[..8])
}
