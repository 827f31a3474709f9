//! Held mail, the daemon's part: a mail that must wait (its seat over the hourly limit) or
//! whose processing failed is kept in the store's held folder instead of being lost; its
//! sender (when recognised as a player) and the organiser are told; and it is read again
//! when its cause is gone — each pass, before the inbox and the deadlines, in the order the
//! mails came, so a later mail of the same sender never overtakes it. It decides nothing
//! about a game: a held mail is read again through intake exactly as when it came.
//!
//! Rulings (see docs/held-mail.md): a failed mail is tried again after 1 minute, doubling to
//! an hour, for 24 tries, then only when its game's folder changes (a fix: chown, chmod, an
//! edit), when the daemon restarts, or by hand (`despatch held --retry`). A seat's mail held
//! for the hourly limit is read when the seat's hour has room, or just before the deadline of
//! the step when it came before that deadline. By hand, the limit does not apply.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::Ordering;

use anyhow::Result;
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};
use tracing::{error, info, warn};

use crate::mail::compose::ReadAt;
/// A held mail's cause in a few words, as `despatch held` and the intake log show it (the
/// words are compose's).
pub use crate::mail::compose::held_reason as why;
use crate::mail::inbound;
use crate::store::{HeldCause, HeldMail, held_key};

use super::{Daemon, Intake};

#[path = "held_told.rs"]
mod told;

/// A failed mail's first retry comes after this; each further one waits twice as long…
const FIRST_RETRY_MINUTES: i64 = 1;
/// …up to this…
const MAX_RETRY_MINUTES: i64 = 60;
/// …for this many tries; then only a change of its game's folder, a restart or a hand.
pub const MAX_AUTO_TRIES: u32 = 24;
/// Held copies kept in all: past it, a failed mail is not kept (its original stays in the
/// inbox's `cur/` or the IMAP quarantine folder) and the organiser is told.
pub const MAX_HELD: usize = 2000;

/// The held mail as this pass knows it (loaded once under the data lock, kept in step with
/// every write), oldest first.
#[derive(Debug, Default)]
pub(super) struct HeldBook {
    mails: Vec<HeldMail>,
}

impl HeldBook {
    fn get(&self, key: &str) -> Option<&HeldMail> {
        self.mails.iter().find(|m| m.key == key)
    }

    /// Whether the mail with this key is held (its copy kept here).
    pub(super) fn holds(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn put(&mut self, m: HeldMail) {
        self.mails.retain(|o| o.key != m.key);
        let at = self.mails.partition_point(|o| o.order() <= m.order());
        self.mails.insert(at, m);
    }

    /// The place of a mail held now, after every one held before it.
    fn next_seq(&self) -> u64 {
        self.mails.iter().map(|m| m.seq).max().unwrap_or(0) + 1
    }

    fn remove(&mut self, key: &str) {
        self.mails.retain(|o| o.key != key);
    }

    /// The earliest held mail of `from` to `game` that later ones of the same sender must
    /// wait behind: one that failed (or waits behind one). Mail held for the hourly limit
    /// needs no such rule: the seat's hour is as full for the later mail.
    fn blocking(&self, from: &str, game: Option<&str>) -> Option<&HeldMail> {
        self.mails.iter().find(|m| {
            !from.is_empty()
                && m.from == from
                && m.game.as_deref() == game
                && matches!(m.cause, HeldCause::Failed { .. } | HeldCause::Behind { .. })
        })
    }
}

/// Which held mail a retry reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Which {
    /// Those whose time has come (a pass); `restart`: the first pass of a process, when every
    /// failed mail is tried once (a restart may be the fix).
    Due { restart: bool },
    /// By the organiser's hand, now, the hourly limit aside: one mail, or all.
    ByHand(Option<String>),
}

/// What the held copy says of itself: its sender, Message-ID and the game it names.
struct Meta {
    from: String,
    message_id: String,
    game: Option<String>,
    /// Recognised as a seat's mail by its reply address: `game.seat.token` (not yet checked).
    claim: Option<(String, String)>,
}

impl Daemon {
    fn meta(&self, raw: &[u8]) -> Option<Meta> {
        let inb = inbound::parse(raw).ok()?;
        let (local, _) = self.cfg.address_parts();
        let route = inbound::route(&inb, &local);
        let game = route.game.filter(|g| inbound::is_game_id(g));
        let claim = match (&game, route.seat, route.token) {
            (Some(_), Some(seat), Some(token)) => Some((seat, token)),
            _ => None,
        };
        Some(Meta {
            from: inb.from,
            message_id: inb.message_id,
            game,
            claim,
        })
    }

    pub(super) fn held_book(&self) -> Result<HeldBook> {
        Ok(HeldBook {
            mails: self.data.held_mail()?,
        })
    }

    /// Whether intake reads a mail over its seat's hourly limit anyway (see the module doc).
    pub(super) fn reading_held_anyway(&self) -> bool {
        self.force_read.load(Ordering::Relaxed)
    }

    /// One mail that came in (inbox, IMAP or `despatch ingest`), through intake; kept in the
    /// held folder when it must wait or fails, instead of being lost.
    pub(super) fn take_mail(
        &self,
        book: &mut HeldBook,
        raw: &[u8],
        source: &str,
        now: DateTime<Utc>,
    ) -> Result<Intake> {
        let key = held_key(raw);
        if let Some(m) = book.get(&key) {
            // Held before a crash kept the original from being filed: the held copy is read.
            info!(key, "mail already held; only its original is filed away");
            return Ok(as_intake(m));
        }
        // Parsed here only while something is held (or to hold this one): intake parses
        // every mail anyway, and most pass nothing held.
        let mut meta = if book.mails.is_empty() {
            None
        } else {
            self.meta(raw)
        };
        if let Some(meta) = &meta
            && let Some(first) = book.blocking(&meta.from, meta.game.as_deref())
        {
            let cause = HeldCause::Behind {
                key: first.key.clone(),
            };
            let m = record(book, &key, Some(meta), source, cause, now);
            info!(key, first = %first.key, "mail held behind the same sender's earlier held mail");
            return self.keep(book, m, raw, now);
        }
        let read = self.ingest_locked(raw, now);
        if meta.is_none() && matches!(read, Ok(Intake::Held { .. }) | Err(_)) {
            meta = self.meta(raw);
        }
        match read {
            Ok(Intake::Held {
                game,
                seat,
                until,
                deadline,
            }) => {
                let cause = HeldCause::RateLimit { until, deadline };
                let mut m = record(book, &key, meta.as_ref(), source, cause, now);
                m.game = Some(game.clone());
                m.seat = Some(seat.clone());
                m.next_try = Some(until);
                let limit = self.cfg.mail.max_per_sender_per_hour as usize;
                let of_seat = book
                    .mails
                    .iter()
                    .filter(|o| o.game == m.game && o.seat == m.seat)
                    .count();
                if of_seat >= limit || book.mails.len() >= MAX_HELD {
                    self.not_kept(&m, "over the hourly limit", now);
                    return Ok(Intake::RateLimited);
                }
                self.keep(book, m, raw, now)
            }
            Ok(other) => Ok(other),
            Err(e) => {
                let cause = HeldCause::Failed {
                    error: format!("{e:#}"),
                };
                let mut m = record(book, &key, meta.as_ref(), source, cause, now);
                m.next_try = Some(now + backoff(0));
                m.fingerprint = m.game.as_deref().map(|g| self.fingerprint(g));
                error!(key, source, "mail could not be processed; held: {e:#}");
                self.keep(book, m, raw, now)
            }
        }
    }

    /// Keeps a mail (copy, then record) unless the held folder is full for its sender, and
    /// tells whom its cause calls for.
    fn keep(
        &self,
        book: &mut HeldBook,
        m: HeldMail,
        raw: &[u8],
        now: DateTime<Utc>,
    ) -> Result<Intake> {
        let limit = self.cfg.mail.max_per_sender_per_hour as usize;
        let of_sender = book
            .mails
            .iter()
            .filter(|o| !m.from.is_empty() && o.from == m.from)
            .count();
        if !matches!(m.cause, HeldCause::RateLimit { .. })
            && (of_sender >= limit || book.mails.len() >= MAX_HELD)
        {
            self.not_kept(&m, "the held folder is full for this sender", now);
            return Ok(Intake::Failed(format!("{} (not kept)", why(&m.cause))));
        }
        self.data.write_held_copy(&m.key, raw)?;
        self.data.write_held(&m)?;
        let key = m.key.clone();
        book.put(m);
        self.tell_of_held(book, &key, raw, now);
        Ok(as_intake(book.get(&key).expect("put above")))
    }

    /// Held mail whose time has come (or chosen by hand), read again in the order it came;
    /// what each became, by key.
    pub(super) fn retry_held(
        &self,
        book: &mut HeldBook,
        now: DateTime<Utc>,
        which: &Which,
    ) -> Result<Vec<(String, Intake)>> {
        let mut out = Vec::new();
        // Senders (address and game) with mail still held: their later mail waits.
        let mut waiting: BTreeSet<(String, Option<String>)> = BTreeSet::new();
        let mut prints: BTreeMap<String, String> = BTreeMap::new();
        let keys: Vec<String> = book.mails.iter().map(|m| m.key.clone()).collect();
        for key in keys {
            let Some(m) = book.get(&key).cloned() else {
                continue;
            };
            let sender = (m.from.clone(), m.game.clone());
            let blocked = !m.from.is_empty() && waiting.contains(&sender);
            let (go, forced) = match which {
                Which::ByHand(Some(k)) => (*k == key, true),
                Which::ByHand(None) => (!blocked, true),
                Which::Due { restart } => {
                    if blocked {
                        (false, false)
                    } else {
                        self.due(&m, now, *restart, &mut prints)
                    }
                }
            };
            if !go {
                if !m.from.is_empty() {
                    waiting.insert(sender);
                }
                continue;
            }
            let raw = match self.data.held_copy(&key) {
                Ok(raw) => raw,
                Err(e) => {
                    // Its copy is gone (by hand): nothing is left to read.
                    warn!(key, "held mail without its copy forgotten: {e}");
                    self.data.release_held(&key)?;
                    book.remove(&key);
                    continue;
                }
            };
            self.force_read.store(forced, Ordering::Relaxed);
            let read = self.ingest_locked(&raw, now);
            self.force_read.store(false, Ordering::Relaxed);
            let mut m = m;
            m.tries += 1;
            if m.from.is_empty()
                && let Some(meta) = self.meta(&raw)
            {
                // Adopted without its record: what the mail says of itself.
                m.from = meta.from;
                m.message_id = meta.message_id;
                m.game = meta.game;
            }
            let before = m.cause.clone();
            let outcome = match read {
                Ok(Intake::Held {
                    game,
                    seat,
                    until,
                    deadline,
                }) => {
                    m.cause = HeldCause::RateLimit { until, deadline };
                    m.game = Some(game);
                    m.seat = Some(seat);
                    m.next_try = Some(until);
                    None
                }
                Ok(done) => {
                    info!(key, outcome = done.word(), "held mail read");
                    self.data.release_held(&key)?;
                    book.remove(&key);
                    out.push((key, done));
                    continue;
                }
                Err(e) => Some(self.failed_again(&mut m, &e, now)),
            };
            let new_cause = told_anew(&before, &mut m);
            self.data.write_held(&m)?;
            let intake = match outcome {
                Some(error) => Intake::Failed(error),
                None => as_intake(&m),
            };
            book.put(m);
            if new_cause {
                self.tell_of_held(book, &key, &raw, now);
            }
            if !sender.0.is_empty() {
                waiting.insert(sender);
            }
            out.push((key, intake));
        }
        Ok(out)
    }

    /// A held mail that failed again: its cause is the new error, and it is tried again
    /// after a longer wait, up to `MAX_AUTO_TRIES`; the error, for the intake log.
    fn failed_again(&self, m: &mut HeldMail, e: &anyhow::Error, now: DateTime<Utc>) -> String {
        let error = format!("{e:#}");
        warn!(
            key = m.key,
            tries = m.tries,
            "held mail still cannot be processed: {error}"
        );
        m.cause = HeldCause::Failed {
            error: error.clone(),
        };
        m.next_try = (m.tries < MAX_AUTO_TRIES).then(|| now + backoff(m.tries));
        m.fingerprint = m.game.as_deref().map(|g| self.fingerprint(g));
        error
    }

    /// Whether a held mail's time has come, and whether it is read over the hourly limit.
    fn due(
        &self,
        m: &HeldMail,
        now: DateTime<Utc>,
        restart: bool,
        prints: &mut BTreeMap<String, String>,
    ) -> (bool, bool) {
        match &m.cause {
            HeldCause::RateLimit { until, deadline } => {
                if now >= *until {
                    (true, false)
                } else {
                    // The deadline does not overtake an order that came before it.
                    let early = deadline.is_some_and(|d| now >= d && m.arrived < d);
                    (early, early)
                }
            }
            HeldCause::Behind { .. } => (true, false),
            HeldCause::Failed { .. } => {
                let changed = m.game.as_deref().is_some_and(|g| {
                    let now_print = prints
                        .entry(g.to_string())
                        .or_insert_with(|| self.fingerprint(g));
                    m.fingerprint.as_deref() != Some(now_print.as_str())
                });
                (
                    restart || changed || m.next_try.is_some_and(|t| now >= t),
                    false,
                )
            }
        }
    }

    /// A cheap signal that a game's trouble may be fixed: the owner, mode, size and times of
    /// its folder and of every file in it.
    fn fingerprint(&self, game: &str) -> String {
        let dir = self.data.game(game).dir;
        let mut h = Sha256::new();
        let mut stat = |name: &str, p: &std::path::Path| {
            h.update(name.as_bytes());
            match std::fs::symlink_metadata(p) {
                Ok(md) => h.update(meta_line(&md).as_bytes()),
                Err(e) => h.update(format!("error {:?}", e.kind()).as_bytes()),
            }
        };
        stat(".", &dir);
        let mut names: Vec<(String, std::path::PathBuf)> = std::fs::read_dir(&dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        for (name, p) in &names {
            stat(name, p);
        }
        hex::encode(&h.finalize()[..8])
    }

    /// `despatch held --retry [KEY]`: held mail read now, the hourly limit aside; what each
    /// became, by key. Then what it made is delivered.
    pub fn retry_held_now(
        &self,
        key: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Vec<(String, Intake)>> {
        let _lock = self.data.lock()?;
        let mut book = self.held_book()?;
        let key = match key {
            Some(k) => Some(resolve_key(&book, k)?),
            None => None,
        };
        let out = self.retry_held(&mut book, now, &Which::ByHand(key))?;
        self.deliver_at(now)?;
        Ok(out)
    }

    /// `despatch held --drop KEY`: set aside for good (`quarantine/dropped/`).
    pub fn drop_held(&self, key: &str) -> Result<String> {
        let _lock = self.data.lock()?;
        let book = self.held_book()?;
        let key = resolve_key(&book, key)?;
        self.data.drop_held(&key)?;
        info!(key, "held mail dropped by hand");
        Ok(key)
    }
}

/// The one held mail whose key starts with `k`.
fn resolve_key(book: &HeldBook, k: &str) -> Result<String> {
    let found: Vec<&str> = book
        .mails
        .iter()
        .map(|m| m.key.as_str())
        .filter(|key| !k.is_empty() && key.starts_with(k))
        .collect();
    match found[..] {
        [one] => Ok(one.to_string()),
        [] => anyhow::bail!("no held mail `{k}` (`despatch held` lists them)"),
        _ => anyhow::bail!(
            "`{k}` names {} held mails: give more of the key",
            found.len()
        ),
    }
}

fn record(
    book: &HeldBook,
    key: &str,
    meta: Option<&Meta>,
    source: &str,
    cause: HeldCause,
    now: DateTime<Utc>,
) -> HeldMail {
    HeldMail {
        key: key.to_string(),
        arrived: now,
        seq: book.next_seq(),
        from: meta.map(|m| m.from.clone()).unwrap_or_default(),
        message_id: meta.map(|m| m.message_id.clone()).unwrap_or_default(),
        game: meta.and_then(|m| m.game.clone()),
        seat: None,
        source: source.to_string(),
        cause,
        tries: 0,
        next_try: None,
        fingerprint: None,
        sender_told: false,
        gm_told: false,
    }
}

/// What intake says of a held mail.
fn as_intake(m: &HeldMail) -> Intake {
    match &m.cause {
        HeldCause::RateLimit { until, deadline } => Intake::Held {
            game: m.game.clone().unwrap_or_default(),
            seat: m.seat.clone().unwrap_or_default(),
            until: *until,
            deadline: *deadline,
        },
        other => Intake::Failed(why(other)),
    }
}

/// When a mail held for the hourly limit is read: when the hour has room, or just before the
/// deadline it came before.
fn read_at(
    arrived: DateTime<Utc>,
    until: DateTime<Utc>,
    deadline: Option<DateTime<Utc>>,
) -> ReadAt {
    match deadline {
        Some(d) if arrived < d && d < until => ReadAt {
            at: d,
            before_deadline: true,
        },
        _ => ReadAt {
            at: until,
            before_deadline: false,
        },
    }
}

/// The wait before try `tries + 1` of a failed mail.
fn backoff(tries: u32) -> Duration {
    let minutes = FIRST_RETRY_MINUTES.saturating_mul(1i64 << tries.min(20));
    Duration::minutes(minutes.min(MAX_RETRY_MINUTES))
}

#[cfg(unix)]
fn meta_line(md: &std::fs::Metadata) -> String {
    use std::os::unix::fs::MetadataExt;
    format!(
        "{} {} {} {} {}.{} {}.{}\n",
        md.mode(),
        md.uid(),
        md.gid(),
        md.len(),
        md.mtime(),
        md.mtime_nsec(),
        md.ctime(),
        md.ctime_nsec()
    )
}

#[cfg(not(unix))]
fn meta_line(md: &std::fs::Metadata) -> String {
    format!(
        "{} {:?} {:?}\n",
        md.len(),
        md.modified().ok(),
        md.permissions()
    )
}

/// Whether the held mail's cause is new since `before` (another kind, or another failure):
/// a new cause is told anew (once), as the first one was; the same cause again (the hour
/// still full, the same failure) is not told again. Resets the told marks to match.
fn told_anew(before: &HeldCause, m: &mut HeldMail) -> bool {
    let kind_changed = std::mem::discriminant(before) != std::mem::discriminant(&m.cause);
    let new_cause =
        kind_changed || (*before != m.cause && matches!(m.cause, HeldCause::Failed { .. }));
    if kind_changed {
        m.sender_told = false;
    }
    if new_cause {
        m.gm_told = false;
    }
    new_cause
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_mail_backs_off_from_a_minute_to_an_hour() {
        let m: Vec<i64> = (0..9).map(|t| backoff(t).num_minutes()).collect();
        assert_eq!(m, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
        assert_eq!(backoff(u32::MAX).num_minutes(), 60);
    }

    #[test]
    fn an_order_is_read_before_the_deadline_it_came_before() {
        let t = DateTime::<Utc>::UNIX_EPOCH;
        let h = Duration::hours(1);
        let m = Duration::minutes(1);
        assert_eq!(
            read_at(t, t + h, Some(t + m * 10)),
            ReadAt {
                at: t + m * 10,
                before_deadline: true
            }
        );
        // A deadline after the hour, or one passed before the mail came, changes nothing.
        for d in [Some(t + h * 2), Some(t - m), None] {
            assert_eq!(
                read_at(t, t + h, d),
                ReadAt {
                    at: t + h,
                    before_deadline: false
                }
            );
        }
    }
}
