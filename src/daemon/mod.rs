//! The daemon: the only loop. Each pass it reads the inbox and hands every mail to intake,
//! appends the events the engine decides (for mail, for the clock, for the organiser), queues
//! the drafts `mail::compose` makes from them, and delivers. It owns the clock, the disk and the
//! network; it makes no game decision of its own.
//!
//! Crash safety, in order: (1) events are appended to the journal (fsynced) one at a time;
//! (2) each event's mails are derived from the journal and queued under deterministic names,
//! then `mailed` is advanced; (3) the inbound message is recorded as seen; (4) queued mail is
//! delivered and moved to `sent/`. A crash anywhere repeats only idempotent work on restart.
//! A mail that must wait or fails is held (`held`) before it is recorded as seen, and read
//! again, before the inbox and the deadlines, when its cause is gone.

mod archive;
mod away;
mod calendar;
mod campaign;
mod campaign_derive;
mod campaigns;
mod consent;
mod crash;
mod decision;
mod delivery;
mod desk;
mod desk_acts;
mod due_pass;
mod flood;
mod games;
mod gm;
mod held;
mod imap_cursor;
mod intake;
mod league;
mod lobby;
mod open_game;
mod seat_acts;
mod settings;
mod site;
mod site_index;
mod site_write;
mod spectator_mail;
mod spectators;
mod strict;
mod trouble;
mod unasked;

pub use calendar::PlayerCalendar;
pub use campaign::{CampaignStart, NewGame, check_new_game};
pub use campaign_derive::{
    Derived as CampaignDerived, Differs as CampaignDiffers, derive_campaign,
};
pub use campaigns::{CampaignNew, PlanSource, battle_id};
pub use decision::Intake;
pub use desk_acts::Broadcast;
pub use held::why as held_why;
pub use league::{derive_from_files, league_file, league_games, league_roster, league_standings};
pub use open_game::OpenGame;
pub use spectators::{By, MAX_SPECTATORS, change_spectators};

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, Result, anyhow};
use chrono::{DateTime, Utc};
use tracing::{debug, info, warn};

use crate::config::Config;
use crate::engine::Registry;
use crate::mail::imap::ImapInbox;
use crate::mail::maildir::{Loaded, Maildir};
use crate::mail::smtp::SmtpOutbox;
use crate::store::DataDir;

/// What one pass did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pass {
    pub processed: Vec<Intake>,
    pub delivered: usize,
    pub steps_resolved: usize,
    /// Games that failed this pass (set aside; every other game went on).
    pub failed_games: Vec<String>,
    /// Held mail read again this pass (before the inbox), by key, and what it became.
    pub retried: Vec<(String, Intake)>,
}

pub struct Daemon {
    pub cfg: Config,
    pub data: DataDir,
    /// The rulesets this daemon plays.
    pub registry: Registry,
    pub inbox: Maildir,
    pub outbox: Maildir,
    imap: Option<Mutex<ImapInbox>>,
    smtp: Option<SmtpOutbox>,
    /// Whether the last IMAP / SMTP attempt failed, so an outage and its end are logged once each.
    imap_down: AtomicBool,
    smtp_down: AtomicBool,
    /// The due index as this process keeps it between passes (see `store::DueIndex`); `None`
    /// until the first pass, which checks it against every journal once.
    due: Mutex<Option<DueState>>,
    /// Until the first delivery of this process, every game's outbox is visited (mail queued by
    /// a version without pending markers); after it, only the marked ones. Set before the first
    /// delivery when the stored due index is trusted (see `first_due_state`).
    delivered_once: AtomicBool,
    /// The process's CPU time when the last wait ended: the next wait logs the pass's CPU,
    /// then its own, so a bench can tell the cost of waiting from the cost of the work.
    cpu_after_wait: Mutex<Option<std::time::Duration>>,
    /// Set while held mail is read by hand or before its deadline: intake reads it over the
    /// seat's hourly limit (see `held`).
    force_read: AtomicBool,
    /// Whether this process has run a pass: its first one tries every failed held mail.
    passed_once: AtomicBool,
    /// Set when a campaign battle ended in this call: once the game is closed, its campaign
    /// goes on at that time (`campaigns`), so the game-over mail is queued before the next
    /// battle's welcome.
    campaign_due_at: Mutex<Option<DateTime<Utc>>>,
}

use due_pass::DueState;

impl Daemon {
    /// A daemon playing every ruleset of this build.
    pub fn new(cfg: Config) -> Result<Self> {
        Self::with_registry(cfg, crate::rulesets::registry())
    }

    /// A daemon playing the rulesets of `registry` (tests add their own toy rulesets).
    pub fn with_registry(cfg: Config, registry: Registry) -> Result<Self> {
        let data = DataDir::new(&cfg.data_dir);
        let inbox = Maildir::open_or_create(&cfg.mail.inbox)
            .with_context(|| format!("inbox Maildir {}", cfg.mail.inbox.display()))?;
        let outbox = Maildir::open_or_create(&cfg.mail.outbox)
            .with_context(|| format!("outbox Maildir {}", cfg.mail.outbox.display()))?;
        let imap = match (&cfg.mail.inbound[..], &cfg.imap) {
            ("imap", Some(c)) => {
                let pw = c
                    .password
                    .resolve("imap")?
                    .ok_or_else(|| anyhow!("[imap] needs password_env or password_file"))?;
                Some(Mutex::new(ImapInbox::new(c.clone(), pw)?))
            }
            _ => None,
        };
        let smtp = match (&cfg.mail.outbound[..], &cfg.smtp) {
            ("smtp", Some(c)) => Some(SmtpOutbox::new(c, c.password.resolve("smtp")?)?),
            _ => None,
        };
        Ok(Self {
            cfg,
            data,
            registry,
            inbox,
            outbox,
            imap,
            smtp,
            imap_down: AtomicBool::new(false),
            smtp_down: AtomicBool::new(false),
            due: Mutex::new(None),
            campaign_due_at: Mutex::new(None),
            delivered_once: AtomicBool::new(false),
            cpu_after_wait: Mutex::new(None),
            force_read: AtomicBool::new(false),
            passed_once: AtomicBool::new(false),
        })
    }

    /// Waits for new mail up to `max`: over IMAP, a fresh look at the folder then IDLE (never
    /// polling: see `ImapInbox::wait`); with a Maildir inbox, a plain sleep.
    pub fn wait(&self, max: std::time::Duration) {
        let cpu_before = cpu_time();
        let started = std::time::Instant::now();
        let pass_cpu = self
            .cpu_after_wait
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map(|m| cpu_before.saturating_sub(m));
        // Said before the wait, so what a pass cost is in the log as soon as it ends.
        if let Some(cpu) = pass_cpu {
            debug!(pass_cpu_ms = cpu.as_secs_f64() * 1e3, "waiting");
        }
        let woke = match &self.imap {
            Some(m) => {
                let mut imap = m.lock().unwrap_or_else(|e| e.into_inner());
                match imap.wait(max) {
                    Ok(woke) => Some(woke),
                    Err(e) => {
                        drop(imap);
                        self.note_imap(Err(&e.to_string()));
                        std::thread::sleep(max.min(std::time::Duration::from_secs(5)));
                        None
                    }
                }
            }
            None => {
                std::thread::sleep(max);
                None
            }
        };
        let cpu_after = cpu_time();
        *self
            .cpu_after_wait
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(cpu_after);
        if let Some(woke) = woke {
            debug!(
                ?woke,
                waited_ms = started.elapsed().as_secs_f64() * 1e3,
                wait_cpu_ms = cpu_after.saturating_sub(cpu_before).as_secs_f64() * 1e3,
                "wait ended"
            );
        }
    }

    fn note_imap(&self, r: Result<(), &str>) {
        match r {
            Ok(()) if self.imap_down.swap(false, Ordering::Relaxed) => {
                info!("IMAP connection restored")
            }
            Err(e) if !self.imap_down.swap(true, Ordering::Relaxed) => {
                warn!("IMAP unavailable, will keep retrying: {e}")
            }
            _ => {}
        }
    }

    /// One pass: finish what a crash left half done, held mail whose time has come, every
    /// waiting inbound mail, every due deadline, then delivery. A game that fails is logged
    /// and set aside for this pass; the others go on.
    pub fn run_once(&self, now: DateTime<Utc>) -> Result<Pass> {
        let started = std::time::Instant::now();
        let _lock = self.data.lock()?;
        let mut pass = Pass::default();
        // One-click unsubscriptions `despatch listen` queued since the last pass (L1).
        // A failure here (the queue folder unreadable) must not stop mail: it is said, and
        // the codes wait for a later pass.
        if let Err(e) = self.queued_unsubscriptions(now) {
            warn!("one-click unsubscriptions not carried out this pass: {e:#}");
        }
        // Only games with work are opened: changed since last settled (a change mark), not yet
        // at rest, or whose due time has come. Idle games cost nothing, however many.
        self.begin_due_pass()?;
        for game in self.games_with_work(now) {
            match self.settle(&game, now) {
                Ok(n) => pass.steps_resolved += n,
                Err(e) => self.game_failed(&mut pass, &game, &e, now),
            }
        }
        // Held mail before the inbox (a sender's later mail never overtakes it) and before
        // the deadlines (an order held before its deadline is read first).
        let restart = !self.passed_once.swap(true, Ordering::Relaxed);
        let inbound = self.held_book().and_then(|mut book| {
            pass.retried = self.retry_held(&mut book, now, &held::Which::Due { restart })?;
            match &self.imap {
                Some(imap) => self.imap_pass(imap, &mut book, now, &mut pass),
                None => self.maildir_pass(&mut book, now, &mut pass),
            }
        });
        if let Err(e) = inbound {
            self.end_due_pass(now);
            return Err(e);
        }
        for game in self.games_with_work(now) {
            if pass.failed_games.contains(&game) {
                continue;
            }
            match self.tick(&game, now) {
                Ok(n) => pass.steps_resolved += n,
                Err(e) => self.game_failed(&mut pass, &game, &e, now),
            }
        }
        self.end_due_pass(now);
        // Campaigns whose battle ended and were not gone on with at once (a crash, a
        // failure): the next battle starts now (its welcomes go out below).
        self.campaign_pass(now);
        // Games opened by mail: tables that lapse, full ones that start. A failure here must
        // not stop the games already in play.
        if let Err(e) = self.lobby_pass(now) {
            warn!("the lobby was not looked at this pass: {e:#}");
        }
        let delivering = std::time::Instant::now();
        pass.delivered += self.deliver_at(now)?;
        if !pass.processed.is_empty() || !pass.retried.is_empty() || pass.delivered > 0 {
            debug!(
                mails = pass.processed.len(),
                delivered = pass.delivered,
                deliver_ms = imap_cursor::ms(delivering),
                pass_ms = imap_cursor::ms(started),
                "pass timings"
            );
        }
        Ok(pass)
    }

    fn game_failed(&self, pass: &mut Pass, game: &str, e: &anyhow::Error, now: DateTime<Utc>) {
        self.game_trouble(game, e, now);
        self.note_failed(game);
        if !pass.failed_games.iter().any(|g| g == game) {
            pass.failed_games.push(game.to_string());
        }
    }

    /// Every mail waiting in the inbox Maildir, each on its own: one that must wait or fails
    /// is held (`held`), and the next is read.
    fn maildir_pass(
        &self,
        book: &mut held::HeldBook,
        now: DateTime<Utc>,
        pass: &mut Pass,
    ) -> Result<()> {
        let limit = self.cfg.mail.max_message_bytes as u64;
        for entry in self.inbox.list_new()? {
            // The size is checked before a byte is read: a huge file is set aside unread.
            let outcome = match self.inbox.read_at_most(&entry, limit) {
                // Held (copy and record durable) before the original leaves `new/`.
                Ok(Loaded::Whole(raw)) => {
                    self.take_mail(book, &raw, &format!("maildir:{}", entry.id), now)?
                }
                Ok(Loaded::TooLarge { bytes }) => {
                    warn!(entry = %entry.id, bytes, "message larger than max_message_bytes set aside unread");
                    self.data
                        .log_intake(&format!("maildir:{}", entry.id), "too-large", "", now)?;
                    Intake::Unreadable("too large".into())
                }
                Err(e) => {
                    // Left in `new/`, read again at the next pass: nothing is lost.
                    let e = anyhow::Error::new(e).context("reading the message");
                    self.inbox_unreadable(&entry, &e, now);
                    pass.processed.push(Intake::Failed(format!("{e:#}")));
                    continue;
                }
            };
            if let Err(e) = self.inbox.mark_seen(&entry) {
                // It will be read again next pass, and give the same answer; say so once a pass.
                tracing::error!(entry = %entry.id, "cannot move the message out of new/: {e}");
            }
            pass.processed.push(outcome);
        }
        Ok(())
    }

    /// `despatch ingest`: one raw message, processed exactly as the daemon does (held mail
    /// whose time has come first, so this one does not overtake it; held itself if it must
    /// wait or fails).
    pub fn ingest(&self, raw: &[u8], now: DateTime<Utc>) -> Result<Intake> {
        let _lock = self.data.lock()?;
        // Reads the stored due index as a pass would, so that a trusted one spares the first
        // delivery a visit to every game's outbox (`despatch ingest` is a process a mail).
        self.begin_due_pass()?;
        let mut book = self.held_book()?;
        self.retry_held(&mut book, now, &held::Which::Due { restart: false })?;
        let out = self.take_mail(&mut book, raw, "ingest", now)?;
        self.deliver_at(now)?;
        Ok(out)
    }
}

/// The CPU time (user and system) this process has used, for the wait's debug line; zero
/// where the system cannot tell.
fn cpu_time() -> std::time::Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    getrusage(UsageWho::RUSAGE_SELF).map_or(std::time::Duration::ZERO, |u| {
        let t = |v: nix::sys::time::TimeVal| {
            std::time::Duration::new(v.tv_sec().max(0) as u64, v.tv_usec().max(0) as u32 * 1000)
        };
        t(u.user_time()) + t(u.system_time())
    })
}
