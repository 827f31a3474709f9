//! Delivery: every game's queued mail goes into the outbound Maildir, or over SMTP with
//! exponential backoff on transient failures, an in-flight marker and a self-copy so a crash
//! mid-send never sends twice (a pass's sends from a game one durable batch, not one fsync
//! commit a mail), and a report to the GM when a mail can never go. Decides nothing of a game.

use std::sync::atomic::Ordering;

use anyhow::{Context, Result};
use chrono::{DateTime, Utc};
use tracing::{debug, error, info, warn};

use crate::mail::compose::OrganiserReport;
use crate::mail::maildir;
use crate::mail::smtp::SendError;
use crate::store::GameStore;

use super::Daemon;

impl Daemon {
    /// Delivers what is queued, now (for callers without a clock of their own).
    pub fn deliver(&self) -> Result<usize> {
        self.deliver_at(Utc::now())
    }

    /// Delivers every queued mail of every game: into the outbound Maildir, or over SMTP with
    /// exponential backoff on transient failures and a report to the GM on permanent ones.
    pub fn deliver_at(&self, now: DateTime<Utc>) -> Result<usize> {
        let mut t = Tally::default();
        // The outboxes of games marked as having mail queued (every game's, the first time in
        // this process), and the house's (reports that belong to no game).
        let ids = if self.delivered_once.swap(true, Ordering::Relaxed) {
            self.data.pending_games()?
        } else {
            self.data.game_ids()?
        };
        let mut stores: Vec<GameStore> = ids.iter().map(|id| self.data.game(id)).collect();
        stores.push(self.data.house());
        let acknowledged = self.smtp.is_some()
            && self.imap.is_some()
            && self.cfg.smtp.as_ref().is_some_and(|c| c.self_copy);
        for store in stores {
            // One game's broken outbox (an unreadable file, say) is that game's trouble, told
            // to its organiser; every other game's mail still goes.
            let delivered = self
                .deliver_store(&store, now, acknowledged, &mut t)
                .and_then(|()| self.settle_store(&store));
            if let Err(e) = delivered {
                if self.data.is_house(&store) {
                    error!("cannot deliver the organiser's reports: {e:#}");
                } else {
                    self.game_trouble(&store.id, &e, now);
                }
            }
        }
        let Tally {
            n,
            waiting,
            last_error,
        } = t;
        if self.smtp.is_some() {
            match (&last_error, n > 0 && last_error.is_none()) {
                (Some((e, wait)), _) if !self.smtp_down.swap(true, Ordering::Relaxed) => {
                    warn!("SMTP unavailable, {waiting} mail(s) queued, retrying in {wait}s: {e}")
                }
                (None, true) if self.smtp_down.swap(false, Ordering::Relaxed) => {
                    info!("SMTP delivery restored; {n} queued mail(s) sent")
                }
                _ => {}
            }
        }
        Ok(n)
    }

    /// Delivers one store's queued mail (a game's, or the house's), counting into `t`.
    ///
    /// With acknowledged sending (SMTP with self-copies and IMAP to find them), the pass's
    /// sends from this store are one batch: its record (`SendBatch`: the mails, the boot) is
    /// made durable once before the first send; each mail is then marked in flight without an
    /// fsync, sent, and renamed to `sent/` without an fsync; `sent/` is fsynced once at the
    /// end. Three fsyncs a store and pass instead of three a mail, with the same exactly-once:
    /// - the process killed (SIGKILL, a panic): the unsynced marks and renames are all seen by
    ///   the next process of the same boot (the page cache outlives a process), so exactly the
    ///   one mail that was on the wire is marked in flight, as with a fsynced mark;
    /// - the machine down: a boot id other than the record's says marks and renames made after
    ///   it may be lost, so every mail it names still in the outbox counts as maybe sent and is
    ///   sent again only once its copy is known not to be in our mailbox (or the grace is out),
    ///   as a mail with a fsynced in-flight mark was.
    fn deliver_store(
        &self,
        store: &GameStore,
        now: DateTime<Utc>,
        acknowledged: bool,
        t: &mut Tally,
    ) -> Result<()> {
        let id = store.id.clone();
        let boot = crate::store::boot_id();
        // A batch of an earlier boot: its mails still queued may have gone (see above). With
        // no boot id to compare (no /proc), every batch left behind is taken for one.
        let lost = store
            .sending()?
            .filter(|b| acknowledged && (b.boot != boot || boot.is_empty()));
        let mut ready = Vec::new();
        // Mails in flight left by a crash whose copies are still awaited: named in the next
        // batch record too, so a machine crash before they are settled keeps them in doubt.
        let mut doubtful = Vec::new();
        for path in store.outbox()? {
            if store.drop_if_sent(&path)? {
                continue;
            }
            let bytes = std::fs::read(&path).with_context(|| path.display().to_string())?;
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let name = file_name(&path);
            if self.smtp.is_none() {
                self.to_outbox(store, &path, &bytes, &format!("{id}-{stem}"))?;
                t.n += 1;
                continue;
            }
            let cfg = self.cfg.smtp.as_ref().expect("smtp configured");
            let mut retry = store.retry_state(&path)?;
            let lost_since = lost
                .as_ref()
                .filter(|b| b.names.contains(&name))
                .map(|b| b.since);
            let marked = retry.as_ref().and_then(|r| r.in_flight_since);
            if let Some(since) = marked.or(lost_since) {
                // The daemon died mid-send. The copy in our own mailbox says whether the
                // server took the mail; without it, wait out the grace before sending again.
                let id = message_id_of(&bytes).unwrap_or_default();
                match self.imap_holds(&id) {
                    Some(true) => {
                        info!(game = %id_game(&path), mail = %stem, "its copy shows a mail was taken before a crash; not sending it again");
                        store.mark_sent(&path)?;
                        t.n += 1;
                        continue;
                    }
                    Some(false)
                        if acknowledged
                            && now - since
                                < chrono::Duration::seconds(cfg.in_flight_grace_seconds as i64) =>
                    {
                        self.keep_in_doubt(store, &path, retry, marked, since, now)?;
                        t.waiting += 1;
                        doubtful.push(name);
                        continue;
                    }
                    None if acknowledged => {
                        self.keep_in_doubt(store, &path, retry, marked, since, now)?;
                        t.waiting += 1;
                        doubtful.push(name);
                        continue;
                    }
                    _ => {
                        if let Some(r) = retry.as_mut() {
                            r.in_flight_since = None;
                        }
                    }
                }
            }
            if retry.as_ref().is_some_and(|r| r.next_try > now) {
                t.waiting += 1;
                continue;
            }
            ready.push((path, bytes, stem, retry));
        }
        let batch = acknowledged && !ready.is_empty();
        if batch {
            let mut names: Vec<String> = ready.iter().map(|(p, ..)| file_name(p)).collect();
            names.extend(doubtful);
            store.begin_sending(&crate::store::SendBatch {
                since: now,
                boot,
                names,
            })?;
        }
        for (path, bytes, stem, retry) in ready {
            self.send_one(store, &path, &bytes, &stem, retry, now, acknowledged, t)?;
        }
        if batch {
            super::crash::crash_point("batch-end");
            store.end_sending()?;
        }
        Ok(())
    }

    /// Without SMTP, a mail goes to the outbox maildir under `name`. Maildir files carry
    /// local line endings, as an MTA writes them; mutt and mbox tools show a stray ^M on
    /// every line of a CRLF file.
    fn to_outbox(
        &self,
        store: &GameStore,
        path: &std::path::Path,
        bytes: &[u8],
        name: &str,
    ) -> Result<()> {
        let local = maildir::local_line_endings(bytes);
        self.outbox.deliver(&local, name)?;
        store.mark_sent(path)?;
        Ok(())
    }

    /// A mail in doubt only because a lost batch named it gets its own in-flight mark, so that
    /// it stays in doubt once the next batch record (of this boot) replaces that one.
    fn keep_in_doubt(
        &self,
        store: &GameStore,
        path: &std::path::Path,
        retry: Option<crate::store::RetryState>,
        marked: Option<DateTime<Utc>>,
        since: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        if marked.is_none() {
            let r = crate::store::RetryState::in_flight(retry, now, since);
            store.set_in_flight(path, &r)?;
        }
        Ok(())
    }

    /// Sends one queued mail over SMTP (see `deliver_store` for the batch it belongs to).
    #[allow(clippy::too_many_arguments)]
    fn send_one(
        &self,
        store: &GameStore,
        path: &std::path::Path,
        bytes: &[u8],
        stem: &str,
        retry: Option<crate::store::RetryState>,
        now: DateTime<Utc>,
        acknowledged: bool,
        t: &mut Tally,
    ) -> Result<()> {
        let smtp = self.smtp.as_ref().expect("smtp configured");
        let cfg = self.cfg.smtp.as_ref().expect("smtp configured");
        let to = recipient(bytes).unwrap_or_default();
        let (local, domain) = self.cfg.address_parts();
        let own = format!("{local}@{domain}");
        if acknowledged {
            let r = crate::store::RetryState::in_flight(retry.clone(), now, now);
            // Not fsynced: the batch record, durable already, names this mail (see above).
            store.set_in_flight(path, &r)?;
        }
        let copy = acknowledged.then_some(own.as_str());
        let started = std::time::Instant::now();
        let sent = smtp.send(&own, &to, copy, bytes);
        debug!(mail = %stem, send_ms = super::imap_cursor::ms(started), "submitted");
        match sent {
            Ok(()) => {
                super::crash::crash_point("taken");
                if acknowledged {
                    store.mark_sent_in_batch(path)?;
                } else {
                    store.mark_sent(path)?;
                }
                t.n += 1;
            }
            Err(SendError::Transient(e)) => {
                let attempts = retry.as_ref().map_or(0, |r| r.attempts) + 1;
                let first = retry.as_ref().map_or(now, |r| r.first_failure);
                if now - first >= chrono::Duration::hours(cfg.give_up_hours as i64) {
                    self.undeliverable(
                        store,
                        path,
                        &to,
                        &format!("gave up after {attempts} tries: {e}"),
                        now,
                    )?;
                    return Ok(());
                }
                let wait = cfg
                    .retry_first_seconds
                    .saturating_mul(1u64 << (attempts - 1).min(20))
                    .min(cfg.retry_max_seconds);
                store.set_retry_state(
                    path,
                    &crate::store::RetryState {
                        attempts,
                        first_failure: first,
                        next_try: now + chrono::Duration::seconds(wait as i64),
                        last_error: e.clone(),
                        in_flight_since: None,
                    },
                )?;
                t.waiting += 1;
                t.last_error = Some((e, wait));
            }
            Err(SendError::Permanent(e)) => {
                self.undeliverable(store, path, &to, &e, now)?;
            }
        }
        Ok(())
    }

    /// Clears a store's mark of queued mail once its outbox is empty.
    fn settle_store(&self, store: &GameStore) -> Result<()> {
        if !self.data.is_house(store) && store.outbox()?.is_empty() {
            self.data.clear_pending(&store.id)?;
        }
        Ok(())
    }

    /// A mail that will never go: kept in `failed/` with the reason, and the GM is told
    /// (unless the mail was itself such a report, so two broken addresses cannot loop).
    fn undeliverable(
        &self,
        store: &GameStore,
        path: &std::path::Path,
        to: &str,
        why: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        error!(game = %store.id, mail = %name, to, "undeliverable: {why}");
        store.mark_failed(path, why)?;
        if name.starts_with("undeliverable-") {
            return Ok(());
        }
        let gm = store.seats().ok().and_then(|s| s.gm);
        self.tell_gm(
            store,
            gm,
            &format!("undeliverable-{name}"),
            &OrganiserReport::Undeliverable {
                game: &store.id,
                to,
                why,
                kept: &store.failed_dir().display().to_string(),
            },
            now,
        )
    }
}

/// What a delivery run did, over every store.
#[derive(Default)]
struct Tally {
    n: usize,
    waiting: usize,
    /// The last transient SMTP error and the wait before its retry.
    last_error: Option<(String, u64)>,
}

/// The Message-ID (without `<>`) of a built mail.
fn message_id_of(bytes: &[u8]) -> Option<String> {
    let m = mail_parser::MessageParser::default().parse(bytes)?;
    m.message_id().map(str::to_string)
}

/// A queued mail's file name, as a batch record names it.
fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The game a queued mail belongs to (its folder's parent).
fn id_game(path: &std::path::Path) -> String {
    path.parent()
        .and_then(|p| p.parent())
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The first To address of a built mail.
fn recipient(bytes: &[u8]) -> Option<String> {
    let m = mail_parser::MessageParser::default().parse(bytes)?;
    m.to()?.first()?.address().map(str::to_string)
}
