//! The only loop: inbox → intake → engine → journal → mails → outbox, plus deadlines.
//! It owns the clock and the disk; every game decision is the engine's or the ruleset's.
//!
//! Crash safety, in order: (1) events are appended to the journal (fsynced) one at a time;
//! (2) each event's mails are derived from the journal and queued under deterministic names,
//! then `mailed` is advanced; (3) the inbound message is recorded as seen; (4) queued mail is
//! delivered and moved to `sent/`. A crash anywhere repeats only idempotent work on restart.

use anyhow::{Context, Result, anyhow, bail};
use chrono::{DateTime, Utc};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use tracing::{error, info, warn};

use crate::config::Config;
use crate::dice::{self, HostOnion};
use crate::engine::{Due, Event, Game, GmKind, Rejected, Ruleset, Silence, Viewer};
use crate::mail::imap::{Filing, ImapInbox};
use crate::mail::inbound::{self, Inbound};
use crate::mail::maildir::Maildir;
use crate::mail::outbound::{self, Outgoing};
use crate::mail::smtp::{SendError, SmtpOutbox};
use crate::report::{self, DiceSection, ResultsCtx, RollRow};
use crate::store::{DataDir, GameStore, SeatPrivate, SeatsFile};

/// What happened to one inbound message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intake {
    Accepted {
        game: String,
        seat: String,
        step: u64,
    },
    Rejected {
        game: String,
        seat: String,
        lines: usize,
    },
    Help {
        game: String,
        seat: String,
    },
    Duplicate,
    Automated(String),
    Unknown(String),
    Unauthenticated {
        game: String,
        seat: String,
    },
    Unreadable(String),
    /// The sender went over `max_per_sender_per_hour`: set aside unanswered.
    RateLimited,
}

impl Intake {
    fn word(&self) -> &'static str {
        match self {
            Intake::Accepted { .. } => "accepted",
            Intake::Rejected { .. } => "rejected",
            Intake::Help { .. } => "help",
            Intake::Duplicate => "duplicate",
            Intake::Automated(_) => "automated",
            Intake::Unknown(_) => "unknown",
            Intake::Unauthenticated { .. } => "unauthenticated",
            Intake::Unreadable(_) => "unreadable",
            Intake::RateLimited => "rate-limited",
        }
    }
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pass {
    pub processed: Vec<Intake>,
    pub delivered: usize,
    pub steps_resolved: usize,
}

pub struct Daemon {
    pub cfg: Config,
    pub data: DataDir,
    pub inbox: Maildir,
    pub outbox: Maildir,
    imap: Option<Mutex<ImapInbox>>,
    smtp: Option<SmtpOutbox>,
    /// Whether the last IMAP / SMTP attempt failed, so an outage and its end are logged once each.
    imap_down: AtomicBool,
    smtp_down: AtomicBool,
}

/// What the daemon remembers of the IMAP folder between runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct ImapState {
    uid_validity: u32,
    /// Highest UID whose effects are stored; such a message still in the folder is only filed.
    last_uid: u32,
}

/// The rich parts of a turn mail (the plain text stays the sealed, complete record).
struct Rich {
    html: String,
    png: Option<Vec<u8>>,
    svg: Option<String>,
    svg_name: String,
    ics: Option<String>,
}

/// One game's seat and contact, for mail.
struct Contact {
    seat: String,
    private: SeatPrivate,
}

/// Ruleset dispatch: the journal's first line names the ruleset.
pub fn ruleset_of(store: &GameStore) -> Result<String> {
    let j = store.read_journal()?;
    let first = j.lines.first().ok_or_else(|| anyhow!("empty journal"))?;
    let v: serde_json::Value = serde_json::from_str(first).context("first journal line")?;
    Ok(v["ruleset"].as_str().unwrap_or_default().to_string())
}

/// Runs `$body` with `$r` bound to the ruleset type named by `$name` (a `String`).
#[macro_export]
macro_rules! dispatch {
    ($name:expr, $r:ident => $body:expr) => {
        match $name.as_str() {
            <$crate::rulesets::naval_rjw::NavalRjw as $crate::engine::Ruleset>::NAME => {
                type $r = $crate::rulesets::naval_rjw::NavalRjw;
                $body
            }
            <$crate::rulesets::gear_krieg::GearKrieg as $crate::engine::Ruleset>::NAME => {
                type $r = $crate::rulesets::gear_krieg::GearKrieg;
                $body
            }
            other => Err(::anyhow::anyhow!(
                "unknown ruleset `{other}` (known: naval-rjw, gear-krieg)"
            )),
        }
    };
}
pub use dispatch;

impl Daemon {
    pub fn new(cfg: Config) -> Result<Self> {
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
            inbox,
            outbox,
            imap,
            smtp,
            imap_down: AtomicBool::new(false),
            smtp_down: AtomicBool::new(false),
        })
    }

    /// Waits for new mail up to `max`: IMAP IDLE when the inbox is IMAP, else a plain sleep.
    pub fn wait(&self, max: std::time::Duration) {
        match &self.imap {
            Some(m) => {
                let mut imap = m.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(e) = imap.wait(max) {
                    self.note_imap(Err(&e.to_string()));
                    std::thread::sleep(max.min(std::time::Duration::from_secs(5)));
                }
            }
            None => std::thread::sleep(max),
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

    /// Whether our own mailbox holds a message: `None` when IMAP cannot tell right now.
    fn imap_holds(&self, message_id: &str) -> Option<bool> {
        let imap = self.imap.as_ref()?;
        let mut imap = imap.lock().unwrap_or_else(|e| e.into_inner());
        match imap.holds(message_id) {
            Ok(b) => Some(b),
            Err(e) => {
                self.note_imap(Err(&e.to_string()));
                None
            }
        }
    }

    /// A copy of a mail Despatch itself sent (`smtp.self_copy`): filed, never read as orders.
    fn is_own_copy(&self, bytes: &[u8]) -> bool {
        mail_parser::MessageParser::default()
            .parse(bytes)
            .and_then(|m| {
                m.from()?
                    .first()?
                    .address()
                    .map(|a| a.eq_ignore_ascii_case(&self.cfg.mail.address))
            })
            .unwrap_or(false)
    }

    fn imap_state_path(&self) -> std::path::PathBuf {
        self.data.root.join("imap-state.json")
    }

    fn imap_state(&self) -> ImapState {
        std::fs::read(self.imap_state_path())
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Reads the IMAP folder: each message is processed, its effects stored, and only then filed.
    fn imap_pass(
        &self,
        imap: &Mutex<ImapInbox>,
        now: DateTime<Utc>,
        pass: &mut Pass,
    ) -> Result<()> {
        let mut imap = imap.lock().unwrap_or_else(|e| e.into_inner());
        let waiting = match imap.waiting(self.cfg.mail.max_message_bytes) {
            Ok(w) => {
                self.note_imap(Ok(()));
                w
            }
            Err(e) => {
                self.note_imap(Err(&e.to_string()));
                return Ok(());
            }
        };
        let mut state = self.imap_state();
        let validity = imap.uid_validity().unwrap_or(0);
        if state.uid_validity != validity {
            if state.uid_validity != 0 {
                warn!(
                    old = state.uid_validity,
                    new = validity,
                    "IMAP UIDVALIDITY changed; relying on Message-IDs"
                );
            }
            state = ImapState {
                uid_validity: validity,
                last_uid: 0,
            };
        }
        for w in waiting {
            let filing = if w.uid <= state.last_uid {
                // Stored before a crash or a lost connection; only the move is left to do.
                if w.bytes.as_deref().is_some_and(|b| self.is_own_copy(b)) {
                    Filing::Sent
                } else {
                    Filing::Processed
                }
            } else if w.bytes.as_deref().is_some_and(|b| self.is_own_copy(b)) {
                state.last_uid = w.uid;
                crate::store::atomic_write(
                    &self.imap_state_path(),
                    serde_json::to_string(&state)?.as_bytes(),
                )?;
                Filing::Sent
            } else {
                let outcome = match &w.bytes {
                    Some(bytes) => self.ingest_locked(bytes, now)?,
                    None => {
                        warn!(
                            uid = w.uid,
                            bytes = w.size,
                            "message larger than max_message_bytes set aside"
                        );
                        Intake::Unreadable("too large".into())
                    }
                };
                let filing = if matches!(outcome, Intake::Unreadable(_)) {
                    Filing::Quarantine
                } else {
                    Filing::Processed
                };
                pass.processed.push(outcome);
                state.last_uid = w.uid;
                crate::store::atomic_write(
                    &self.imap_state_path(),
                    serde_json::to_string(&state)?.as_bytes(),
                )?;
                filing
            };
            if let Err(e) = imap.file(w.uid, filing) {
                self.note_imap(Err(&e.to_string()));
                return Ok(());
            }
        }
        Ok(())
    }

    fn address(&self) -> (String, String) {
        self.cfg.address_parts()
    }

    /// Creates a game from a shipped scenario and mails the welcome to every seat.
    pub fn create_game(
        &self,
        id: &str,
        ruleset: &str,
        scenario: &str,
        seats: &[(String, String)],
        now: DateTime<Utc>,
    ) -> Result<()> {
        let onion = HostOnion::generate(id, self.cfg.games.onion_len)?;
        let tokens = seats
            .iter()
            .map(|_| crate::store::new_token())
            .collect::<Result<Vec<_>, _>>()?;
        self.create_game_with(id, ruleset, scenario, seats, now, onion, &tokens)
    }

    /// `create_game` with the host onion and seat secrets given (tests pin them to get
    /// reproducible mails; production always passes fresh ones from the OS RNG).
    #[allow(clippy::too_many_arguments)]
    pub fn create_game_with(
        &self,
        id: &str,
        ruleset: &str,
        scenario: &str,
        seats: &[(String, String)],
        now: DateTime<Utc>,
        onion: HostOnion,
        tokens: &[String],
    ) -> Result<()> {
        if tokens.len() != seats.len() {
            bail!("{} seats but {} secrets", seats.len(), tokens.len());
        }
        let dir = self.cfg.games.games_dir.join(ruleset);
        let ruleset_toml =
            std::fs::read_to_string(dir.join("ruleset.toml")).with_context(|| {
                format!(
                    "ruleset `{ruleset}`: {}",
                    dir.join("ruleset.toml").display()
                )
            })?;
        let scen_path = dir.join("scenarios").join(format!("{scenario}.toml"));
        let scenario_toml = std::fs::read_to_string(&scen_path).with_context(|| {
            format!(
                "scenario `{scenario}`: {} (available: {})",
                scen_path.display(),
                list_scenarios(&dir).join(", ")
            )
        })?;
        let store = self.data.game(id);
        if store.exists() {
            bail!("game `{id}` already exists in {}", store.dir.display());
        }
        let seat_ids: Vec<String> = seats.iter().map(|(s, _)| s.clone()).collect();
        let event = dispatch!(ruleset.to_string(), R => {
            Game::<R>::creation_event(
                id,
                scenario,
                &ruleset_toml,
                &scenario_toml,
                &seat_ids,
                &onion.anchor(),
                onion.len(),
                self.cfg.games.policy.clone(),
                now,
            )
            .map_err(|e| anyhow!(e))
        })?;
        let mut file = SeatsFile::default();
        for ((seat, address), token) in seats.iter().zip(tokens) {
            if !address.contains('@') {
                bail!("seat {seat}: `{address}` is not a mail address");
            }
            file.seats.insert(
                seat.clone(),
                SeatPrivate {
                    address: address.trim().to_ascii_lowercase(),
                    name: String::new(),
                    token: token.clone(),
                    time_zone: self.cfg.games.time_zone.clone(),
                },
            );
        }
        store.create(&onion, &file, &event)?;
        info!(game = id, ruleset, scenario, "game created");
        self.after_events(id, now)?;
        Ok(())
    }

    /// One pass: every waiting inbound mail, every due deadline, then delivery.
    pub fn run_once(&self, now: DateTime<Utc>) -> Result<Pass> {
        let _lock = self.data.lock()?;
        let mut pass = Pass::default();
        for game in self.data.game_ids()? {
            // Finish what a crash may have left half done before reading new mail.
            pass.steps_resolved += self.after_events(&game, now)?;
        }
        match &self.imap {
            Some(imap) => self.imap_pass(imap, now, &mut pass)?,
            None => {
                for entry in self.inbox.list_new()? {
                    let raw = self.inbox.read(&entry)?;
                    let outcome = self.ingest_locked(&raw, now)?;
                    self.inbox.mark_seen(&entry)?;
                    pass.processed.push(outcome);
                }
            }
        }
        for game in self.data.game_ids()? {
            pass.steps_resolved += self.deadlines(&game, now)?;
        }
        pass.delivered = self.deliver_at(now)?;
        Ok(pass)
    }

    /// `despatch ingest`: one raw message, processed exactly as the daemon does.
    pub fn ingest(&self, raw: &[u8], now: DateTime<Utc>) -> Result<Intake> {
        let _lock = self.data.lock()?;
        let out = self.ingest_locked(raw, now)?;
        self.deliver_at(now)?;
        Ok(out)
    }

    fn ingest_locked(&self, raw: &[u8], now: DateTime<Utc>) -> Result<Intake> {
        if raw.len() > self.cfg.mail.max_message_bytes {
            let id = format!("sha256:{}", dice::to_hex(&sha(raw)));
            warn!(
                bytes = raw.len(),
                "message larger than max_message_bytes set aside"
            );
            self.data.mark_seen(&id, "too-large", "", now)?;
            return Ok(Intake::Unreadable("too large".into()));
        }
        let inb = match inbound::parse(raw) {
            Ok(m) => m,
            Err(e) => {
                let id = format!("sha256:{}", dice::to_hex(&sha(raw)));
                warn!(error = %e, "unreadable message set aside");
                self.data.mark_seen(&id, "unreadable", "", now)?;
                return Ok(Intake::Unreadable(e.to_string()));
            }
        };
        if self.data.seen()?.contains(&inb.message_id) {
            info!(message_id = %inb.message_id, "already processed; ignored");
            return Ok(Intake::Duplicate);
        }
        let hour_ago = now - chrono::Duration::hours(1);
        let outcome = if inb.auto.is_none()
            && self.data.seen_from_since(&inb.from, hour_ago)?
                >= self.cfg.mail.max_per_sender_per_hour as usize
        {
            warn!(from = %inb.from, "sender over max_per_sender_per_hour; mail set aside unanswered");
            Intake::RateLimited
        } else {
            self.handle(&inb, now)?
        };
        info!(message_id = %inb.message_id, from = %inb.from, outcome = outcome.word(), "mail processed");
        self.data
            .mark_seen(&inb.message_id, outcome.word(), &inb.from, now)?;
        Ok(outcome)
    }

    fn handle(&self, inb: &Inbound, now: DateTime<Utc>) -> Result<Intake> {
        if let Some(why) = &inb.auto {
            return Ok(Intake::Automated(why.clone()));
        }
        let (local, _) = self.address();
        let route = inbound::route(inb, &local);
        let Some(game_id) = route.game.clone() else {
            return Ok(Intake::Unknown("no game named".into()));
        };
        let store = self.data.game(&game_id);
        if !store.exists() {
            return Ok(Intake::Unknown(format!("no game `{game_id}`")));
        }
        let seats = store.seats()?;
        // The sender must be a registered seat; among that sender's seats, the token picks one.
        let mine: Vec<(&String, &SeatPrivate)> = seats
            .seats
            .iter()
            .filter(|(_, p)| p.address.eq_ignore_ascii_case(&inb.from))
            .collect();
        if mine.is_empty() {
            return Ok(Intake::Unknown(format!(
                "sender not registered in `{game_id}`"
            )));
        }
        let token = route.token.clone().unwrap_or_default();
        let seat = mine
            .iter()
            .find(|(s, p)| {
                ct_eq(p.token.as_bytes(), token.as_bytes())
                    && route.seat.as_deref().is_none_or(|r| r == s.as_str())
            })
            .map(|(s, _)| (*s).clone());
        let Some(seat) = seat else {
            let claimed = route.seat.clone().unwrap_or_else(|| mine[0].0.clone());
            // Tell the registered player (not the sender, who may be a forger) that nothing happened.
            self.queue_plain(
                &store,
                &format!("auth-{}", short(&inb.message_id)),
                &claimed,
                &seats,
                "A mail without your seat's secret",
                &format!(
                    "A mail claiming to come from you for seat {claimed} arrived without the seat's secret \
                     (subject: \"{}\"). Nothing in it was applied.\n\nIf you sent it, reply to a Despatch \
                     mail instead of writing a new one, or add the line TOKEN <secret> from the Reply-To \
                     address of your welcome mail.\n",
                    inb.subject.replace('\n', " ")
                ),
                now,
            )?;
            return Ok(Intake::Unauthenticated {
                game: game_id,
                seat: claimed,
            });
        };
        let ruleset = ruleset_of(&store)?;
        dispatch!(ruleset, R => self.handle_for::<R>(&store, &seats, &seat, inb, route.help, now))
    }

    fn handle_for<R: Ruleset>(
        &self,
        store: &GameStore,
        seats: &SeatsFile,
        seat: &str,
        inb: &Inbound,
        help: bool,
        now: DateTime<Utc>,
    ) -> Result<Intake> {
        let game: Game<R> = store.load()?;
        if game.message_ids.contains(&inb.message_id) {
            // Journaled before a crash that came before `seen.log`: its mails come from the journal.
            info!(message_id = %inb.message_id, "already in the journal; not applied again");
            return Ok(Intake::Duplicate);
        }
        if help {
            let body = report::render(
                "help",
                serde_json::json!({"ruleset": R::NAME, "game": game.id, "reference": R::order_reference()}),
            )?;
            self.queue_plain(
                store,
                &format!("help-{}", short(&inb.message_id)),
                seat,
                seats,
                "Order reference",
                &body,
                now,
            )?;
            return Ok(Intake::Help {
                game: game.id.clone(),
                seat: seat.into(),
            });
        }
        let text = inbound::strip_control_lines(&inb.body);
        let v_k = store.onions()?.reveal(game.step)?;
        match game.submission_event(seat, &text, &v_k, &inb.message_id, now) {
            Ok(event) => {
                let step = game.step;
                self.append_and_mail::<R>(store, game, &event, now)?;
                self.after_events(&store.id, now)?;
                Ok(Intake::Accepted {
                    game: store.id.clone(),
                    seat: seat.into(),
                    step,
                })
            }
            Err(problems) => {
                let lines = problems.len();
                let prompt = self.prompt_text::<R>(&game, seat);
                let body = report::render(
                    "rejection",
                    serde_json::json!({"problems": problems_ctx(&problems), "prompt": prompt}),
                )?;
                self.queue_plain(
                    store,
                    &format!("reject-{}", short(&inb.message_id)),
                    seat,
                    seats,
                    "Orders not applied",
                    &body,
                    now,
                )?;
                Ok(Intake::Rejected {
                    game: store.id.clone(),
                    seat: seat.into(),
                    lines,
                })
            }
        }
    }

    /// Appends one event (fsynced) and applies it; returns the game after it.
    fn append<R: Ruleset>(
        &self,
        store: &GameStore,
        mut game: Game<R>,
        event: &Event,
    ) -> Result<Game<R>> {
        let line = event.to_line();
        let index = game.events;
        game.apply(event, &line, index)
            .map_err(|e| anyhow!("refusing to journal an event the engine rejects: {e}"))?;
        store.append(event, index, &game.head)?;
        Ok(game)
    }

    /// Appends one event and queues its mails from the game as it stands right after it.
    fn append_and_mail<R: Ruleset>(
        &self,
        store: &GameStore,
        game: Game<R>,
        event: &Event,
        now: DateTime<Utc>,
    ) -> Result<Game<R>> {
        let index = game.events;
        let game = self.append::<R>(store, game, event)?;
        if store.mailed_upto()?.is_some_and(|m| m + 1 == index) {
            let seats = store.seats()?;
            self.mails_for_event::<R>(store, &game, event, index, &seats, now)?;
            store.set_mailed_upto(index)?;
        } else {
            self.mail_events::<R>(store, now)?;
        }
        Ok(game)
    }

    /// Locks and resolves every step that can be, then mails every event not yet mailed.
    /// Returns how many steps were resolved. Safe to call at any time (idempotent).
    pub fn after_events(&self, game_id: &str, now: DateTime<Utc>) -> Result<usize> {
        let store = self.data.game(game_id);
        let ruleset = ruleset_of(&store)?;
        dispatch!(ruleset, R => self.settle::<R>(&store, now))
    }

    fn settle<R: Ruleset>(&self, store: &GameStore, now: DateTime<Utc>) -> Result<usize> {
        let mut game: Game<R> = store.load()?;
        let mut onions = store.onions()?;
        let mut resolved = 0;
        // Mail what is journaled but unmailed first, so a crash between append and mail heals.
        self.mail_events::<R>(store, now)?;
        while game.locked.is_some() || game.ready_to_lock() {
            if game.locked.is_none() {
                let lock = game.lock_event(now);
                game = self.append_and_mail::<R>(store, game, &lock, now)?;
            }
            let v_k = onions.reveal(game.step)?;
            let results = game.results_event(&v_k, now).map_err(|e| anyhow!(e))?;
            game = self.append_and_mail::<R>(store, game, &results, now)?;
            resolved += 1;
            let (_, _, len) = *game.onions.last().expect("the game's own onion");
            if !game.is_over() && game.onion_steps_left() < (len / 4).clamp(1, 10) {
                game = self.renew_onion::<R>(store, game, &mut onions, now)?;
            }
        }
        store.write_snapshot(&game)?;
        Ok(resolved)
    }

    /// Commits a fresh onion for the steps from the open one on, while the old one still has
    /// steps left. The secret is stored before the event is journaled, and a secret stored by a
    /// run that crashed before journaling is reused, so the anchor never points at a lost secret.
    fn renew_onion<R: Ruleset>(
        &self,
        store: &GameStore,
        game: Game<R>,
        onions: &mut crate::store::HostOnions,
        now: DateTime<Utc>,
    ) -> Result<Game<R>> {
        let from_step = game.step;
        let stored_unjournaled = onions.segments.last().is_some_and(|(from, _)| {
            *from == from_step && !game.onions.iter().any(|(f, _, _)| *f == from_step)
        });
        if !stored_unjournaled {
            let fresh = HostOnion::generate(&store.id, self.cfg.games.onion_len)?;
            onions.segments.push((from_step, fresh));
            store.write_onions(onions)?;
        }
        let onion = &onions.segments.last().expect("just pushed").1;
        info!(game = %store.id, from_step, "new host onion committed");
        let event = Event::OnionRenewed {
            from_step,
            anchor: dice::to_hex(&onion.anchor()),
            onion_len: onion.len(),
            at: now,
        };
        self.append_and_mail::<R>(store, game, &event, now)
    }

    /// Reminders and deadlines for one game.
    fn deadlines(&self, game_id: &str, now: DateTime<Utc>) -> Result<usize> {
        let store = self.data.game(game_id);
        let ruleset = ruleset_of(&store)?;
        dispatch!(ruleset, R => {
            let mut game: Game<R> = store.load()?;
            let mut resolved = 0;
            for due in game.due(now) {
                match due {
                    Due::Reminder { seat, hours_left } => {
                        let ev = Event::Reminder { step: game.step, seat, hours_left, at: now };
                        game = self.append_and_mail::<R>(&store, game, &ev, now)?;
                    }
                    Due::Deadline { silent } => {
                        info!(game = game_id, step = game.step, ?silent, "deadline passed");
                        match game.policy.on_silence {
                            Silence::WaitForGm => {
                                // Nothing automatic: the step waits for the organiser.
                            }
                            Silence::Forfeit => {
                                let ev = Event::Forfeit { step: game.step, seat: silent[0].clone(), at: now };
                                game = self.append_and_mail::<R>(&store, game, &ev, now)?;
                            }
                            Silence::StandingOrders | Silence::Pass => {
                                let lock = game.lock_event(now);
                                game = self.append_and_mail::<R>(&store, game, &lock, now)?;
                            }
                        }
                    }
                }
            }
            drop(game);
            resolved += self.settle::<R>(&store, now)?;
            Ok(resolved)
        })
    }

    /// Derives and queues the mails of every journaled event after `mailed`.
    fn mail_events<R: Ruleset>(&self, store: &GameStore, now: DateTime<Utc>) -> Result<()> {
        let journal = store.read_journal()?;
        let from = match store.mailed_upto()? {
            Some(i) => i + 1,
            None => 0,
        };
        if from as usize >= journal.lines.len() {
            return Ok(());
        }
        let seats = store.seats()?;
        // Replay to the state just after each unmailed event: mails show the game as it was then.
        let mut game: Option<Game<R>> = None;
        for (i, line) in journal.lines.iter().enumerate() {
            let ev: Event = serde_json::from_str(line)?;
            match game.as_mut() {
                None => game = Some(Game::<R>::from_creation(&ev, line)?),
                Some(g) => g.apply(&ev, line, i as u64)?,
            }
            if (i as u64) < from {
                continue;
            }
            let g = game.as_ref().expect("set above");
            self.mails_for_event::<R>(store, g, &ev, i as u64, &seats, now)?;
            store.set_mailed_upto(i as u64)?;
        }
        Ok(())
    }

    fn mails_for_event<R: Ruleset>(
        &self,
        store: &GameStore,
        game: &Game<R>,
        ev: &Event,
        index: u64,
        seats: &SeatsFile,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let contacts = contacts(game, seats);
        let title = game.spec().title;
        match ev {
            Event::GameCreated { .. } => {
                for c in &contacts {
                    let (body, rich) = self.welcome::<R>(game, c, &contacts, false, now)?;
                    self.queue_mail(
                        store,
                        game,
                        index,
                        "welcome",
                        c,
                        &format!("Welcome: {} ({})", game.id, c.seat),
                        &body,
                        Some(rich),
                        now,
                    )?;
                }
            }
            Event::Submission {
                step,
                seat,
                digest,
                orders,
                ignored,
                ..
            } => {
                for c in &contacts {
                    let body = if &c.seat == seat {
                        report::render(
                            "receipt",
                            serde_json::json!({
                                "seat": seat, "step": step, "step_title": title,
                                "orders": orders.lines().collect::<Vec<_>>(),
                                "ignored": ignored, "digest": digest,
                                "waiting": game.waiting_for(), "deadline": self.deadline_text(game, &c.private),
                            }),
                        )?
                    } else {
                        let prompt = self.prompt_text::<R>(game, &c.seat);
                        let answered = game.pending.contains_key(&c.seat);
                        report::render(
                            "notice",
                            serde_json::json!({
                                "submitter": seat, "step": step, "step_title": title, "digest": digest,
                                "your_turn": prompt.is_some() && !answered, "prompt": prompt,
                                "deadline": self.deadline_text(game, &c.private),
                            }),
                        )?
                    };
                    let subject = if &c.seat == seat {
                        format!("Receipt: step {step} orders")
                    } else {
                        format!("{seat} has sent orders for step {step}")
                    };
                    self.queue_mail(
                        store,
                        game,
                        index,
                        "submission",
                        c,
                        &subject,
                        &body,
                        None,
                        now,
                    )?;
                }
            }
            Event::Results { step, .. } => {
                let info = game
                    .last_lock
                    .clone()
                    .unwrap_or_else(|| crate::engine::LockInfo {
                        step: *step,
                        log_head: String::new(),
                        seats: vec![],
                        lock: String::new(),
                        reveal: String::new(),
                        seed: String::new(),
                    });
                for c in &contacts {
                    let view = R::view(&game.state, &Viewer::Seat(c.seat.clone()));
                    let prompt = self.prompt_text::<R>(game, &c.seat);
                    let rich = Some(self.rich::<R>(
                        game,
                        c,
                        &view,
                        prompt.as_deref(),
                        serde_json::json!({
                            "step": step,
                            "step_title": game.last_step_title,
                            "prompt": prompt,
                            "deadline": prompt.as_ref().and_then(|_| self.deadline_text(game, &c.private)),
                            "waiting": game.waiting_for(),
                            "outcome": game.outcome().map(|o| o.summary),
                            "dice": dice_section(&info, &game.last_rolls),
                        }),
                        now,
                    )?);
                    let (kind, subject, body) = if let Some(outcome) = game.outcome() {
                        let body = report::render(
                            "game_over",
                            serde_json::json!({"outcome": outcome.summary, "view": view}),
                        )?;
                        // The dice of the final step still go out with the game-over mail.
                        let dice = render_dice(game, &info, *step)?;
                        ("over", "Game over".to_string(), format!("{body}\n{dice}"))
                    } else {
                        let prompt = self.prompt_text::<R>(game, &c.seat);
                        let ctx = ResultsCtx {
                            game: &game.id,
                            step: *step,
                            step_title: &game.last_step_title,
                            view: &view,
                            prompt: prompt.clone(),
                            deadline: prompt
                                .as_ref()
                                .and_then(|_| self.deadline_text(game, &c.private)),
                            waiting: game.waiting_for(),
                            dice: dice_section(&info, &game.last_rolls),
                        };
                        let subject = match &prompt {
                            Some(_) => format!("{} — your orders", view.turn),
                            None => format!("{} — results", view.turn),
                        };
                        ("results", subject, report::render("results", &ctx)?)
                    };
                    self.queue_mail(store, game, index, kind, c, &subject, &body, rich, now)?;
                }
            }
            Event::Reminder {
                step,
                seat,
                hours_left,
                ..
            } => {
                if let Some(c) = contacts.iter().find(|c| &c.seat == seat) {
                    let body = report::render(
                        "reminder",
                        serde_json::json!({
                            "step": step, "step_title": title, "hours_left": hours_left,
                            "prompt": self.prompt_text::<R>(game, seat).unwrap_or_default(),
                            "deadline": self.deadline_text(game, &c.private).unwrap_or_default(),
                            "on_silence": silence_words(game.policy.on_silence),
                        }),
                    )?;
                    self.queue_mail(
                        store,
                        game,
                        index,
                        "reminder",
                        c,
                        &format!("Reminder: orders due in {hours_left} h"),
                        &body,
                        None,
                        now,
                    )?;
                }
            }
            Event::DeadlineChanged {
                deadline, reason, ..
            } => {
                for c in &contacts {
                    let body = format!(
                        "The deadline of step {} ({}) is now {}.\nReason: {reason}\n",
                        game.step,
                        title,
                        fmt_time(*deadline, &c.private.time_zone)
                    );
                    self.queue_mail(
                        store,
                        game,
                        index,
                        "deadline",
                        c,
                        "Deadline changed",
                        &body,
                        None,
                        now,
                    )?;
                }
            }
            Event::Forfeit { seat, .. } => {
                let summary = game.outcome().map(|o| o.summary).unwrap_or_default();
                for c in &contacts {
                    let body = format!(
                        "{seat} sent no orders by the deadline and forfeits the game.\n\n{summary}\n"
                    );
                    self.queue_mail(store, game, index, "over", c, "Game over", &body, None, now)?;
                }
            }
            Event::OnionRenewed {
                from_step,
                anchor,
                onion_len,
                ..
            } => {
                for c in &contacts {
                    let body = format!(
                        "NEW DICE ANCHOR\nThe host's committed secrets for this game are nearly used up, so a new\n\
                         chain was committed before they ran out. From step {from_step} on, each v_k\n\
                         hashes back to this anchor instead:\n    Anchor A = {anchor}   (from step {from_step}, onion length {onion_len})\n"
                    );
                    self.queue_mail(
                        store,
                        game,
                        index,
                        "anchor",
                        c,
                        "New dice anchor",
                        &body,
                        None,
                        now,
                    )?;
                }
            }
            Event::GmAction { action, reason, .. } => {
                for c in &contacts {
                    let (subject, body) = match action {
                        GmKind::CloseStep => (
                            "The organiser closed the step".to_string(),
                            format!(
                                "The organiser closed step {} ({title}) without waiting further.\n\
                                 Seats that had not sent orders are recorded as no move received.\nReason: {reason}\n",
                                game.step
                            ),
                        ),
                        GmKind::ReplaceSeat { seat } if seat == &c.seat => {
                            let (body, rich) = self.welcome::<R>(game, c, &contacts, true, now)?;
                            let subject = format!("You take over seat {seat} in {}", game.id);
                            self.queue_mail(
                                store,
                                game,
                                index,
                                "gm",
                                c,
                                &subject,
                                &body,
                                Some(rich),
                                now,
                            )?;
                            continue;
                        }
                        GmKind::ReplaceSeat { seat } => (
                            format!("Seat {seat} has a new player"),
                            format!(
                                "Seat {seat} has been handed to a new player by the organiser.\nReason: {reason}\n"
                            ),
                        ),
                    };
                    self.queue_mail(store, game, index, "gm", c, &subject, &body, None, now)?;
                }
            }
            Event::Lock { .. } => {}
        }
        Ok(())
    }

    /// The welcome mail of a seat: at game start, or for a player taking over a seat. It names
    /// the newest onion's anchor (the game's own at the start; a renewed one later).
    fn welcome<R: Ruleset>(
        &self,
        game: &Game<R>,
        c: &Contact,
        contacts: &[Contact],
        takeover: bool,
        now: DateTime<Utc>,
    ) -> Result<(String, Rich)> {
        let view = R::view(&game.state, &Viewer::Seat(c.seat.clone()));
        let prompt = self.prompt_text::<R>(game, &c.seat);
        let (anchor_from, anchor, onion_len) = *game.onions.last().expect("the game's own onion");
        let body = report::render(
            "welcome",
            serde_json::json!({
                "greeting": if c.private.name.is_empty() { "Hello".to_string() } else { format!("Dear {}", c.private.name) },
                "takeover": takeover,
                "game": game.id, "scenario": game.scenario, "ruleset": R::NAME,
                "seat": c.seat, "view": view,
                "others": contacts.iter().filter(|o| o.seat != c.seat).map(|o| o.seat.clone()).collect::<Vec<_>>(),
                "game_address": self.cfg.mail.address,
                "reference_summary": reference_summary(R::order_reference()),
                "anchor": dice::to_hex(&anchor), "anchor_from": anchor_from, "onion_len": onion_len,
                "prompt": prompt.clone().unwrap_or_else(|| format!("Waiting for {}.", game.waiting_for().join(", "))),
                "deadline": self.deadline_text(game, &c.private),
            }),
        )?;
        let intro = if takeover {
            format!("You take over seat {} in a game under way.", c.seat)
        } else {
            format!("You have a seat ({}) in a new game.", c.seat)
        };
        let rich = self.rich::<R>(
            game,
            c,
            &view,
            prompt.as_deref(),
            serde_json::json!({
                "intro": format!("{intro} How to send orders, the order reference and the dice commitment are in the plain-text part of this mail."),
                "prompt": prompt,
                "deadline": self.deadline_text(game, &c.private),
            }),
            now,
        )?;
        Ok((body, rich))
    }

    fn prompt_text<R: Ruleset>(&self, game: &Game<R>, seat: &str) -> Option<String> {
        if game.is_over() {
            return None;
        }
        let spec = game.spec();
        let p = spec.prompts.iter().find(|p| p.seat == seat)?;
        let mut text = p.question.clone();
        if !p.required {
            text.push_str(
                "\n(Optional: your standing orders cover this step if you send nothing.)",
            );
        }
        if spec.sealed && spec.prompts.len() > 1 {
            text.push_str(
                "\nOrders in this step are sealed: nobody sees them before everyone has answered.",
            );
        }
        Some(text)
    }

    fn deadline_text<R: Ruleset>(&self, game: &Game<R>, who: &SeatPrivate) -> Option<String> {
        game.deadline.map(|d| fmt_time(d, &who.time_zone))
    }

    #[allow(clippy::too_many_arguments)]
    fn queue_mail<R: Ruleset>(
        &self,
        store: &GameStore,
        game: &Game<R>,
        index: u64,
        kind: &str,
        to: &Contact,
        subject: &str,
        body: &str,
        rich: Option<Rich>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        // The seal covers the other parts too: their digests are part of the sealed text.
        let mut body = body.to_string();
        if let Some(r) = &rich {
            let mut parts = vec![format!(
                "turn.html={}",
                report::part_digest(r.html.as_bytes(), true)
            )];
            if let Some(png) = &r.png {
                parts.push(format!("map.png={}", report::part_digest(png, false)));
            }
            if let Some(svg) = &r.svg {
                parts.push(format!(
                    "{}={}",
                    r.svg_name,
                    report::part_digest(svg.as_bytes(), false)
                ));
            }
            if let Some(ics) = &r.ics {
                parts.push(format!(
                    "deadline.ics={}",
                    report::part_digest(ics.as_bytes(), false)
                ));
            }
            body = format!(
                "{}\n\n{} {}\n",
                body.trim_end(),
                report::PARTS_PREFIX,
                parts.join(" ")
            );
        }
        let sealed = report::seal(&body, &game.id, game.events - 1, &dice::to_hex(&game.head))?;
        let name = format!("{index:06}-{kind}-{}", to.seat);
        self.queue_built(
            store,
            &name,
            &to.seat,
            &to.private,
            subject,
            &sealed,
            rich,
            now,
        )
    }

    /// The HTML part, the map (PNG inline, SVG attached) and the deadline (.ics) of a turn mail,
    /// all from the seat's own View. `extra` adds the template's step, prompt, dice… values.
    fn rich<R: Ruleset>(
        &self,
        game: &Game<R>,
        to: &Contact,
        view: &crate::engine::View,
        prompt: Option<&str>,
        extra: serde_json::Value,
        now: DateTime<Utc>,
    ) -> Result<Rich> {
        let mut ctx = serde_json::json!({
            "game": game.id,
            "seat": to.seat,
            "view": view,
            "map": view.map.is_some(),
            "head_index": game.events - 1,
            "head": dice::to_hex(&game.head),
        });
        if let (Some(base), Some(more)) = (ctx.as_object_mut(), extra.as_object()) {
            base.extend(more.clone());
        }
        let html = report::render("turn.html", &ctx)?;
        let (png, svg) = match &view.map {
            Some(scene) => (
                Some(crate::render::png(scene, crate::render::MAIL_WIDTH_PX)?),
                Some(crate::render::svg(scene)),
            ),
            None => (None, None),
        };
        let (_, domain) = self.address();
        let ics = match (prompt, game.deadline) {
            (Some(p), Some(deadline)) => Some(report::ics::deadline_event(
                &format!("{}-{}-{}@{domain}", game.id, game.step, to.seat),
                deadline,
                &to.private.time_zone,
                &format!("Orders due: {}, step {} ({})", game.id, game.step, to.seat),
                p,
                now,
            )),
            _ => None,
        };
        Ok(Rich {
            html,
            png,
            svg,
            svg_name: format!("{}-step{}-{}.svg", game.id, game.step, to.seat),
            ics,
        })
    }

    /// A mail that belongs to no journal event (help, rejection, authentication notice).
    #[allow(clippy::too_many_arguments)]
    fn queue_plain(
        &self,
        store: &GameStore,
        name: &str,
        seat: &str,
        seats: &SeatsFile,
        subject: &str,
        body: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let Some(private) = seats.seats.get(seat) else {
            return Ok(());
        };
        let text = format!("{}\n\n-- \nDespatch · game {}\n", body.trim_end(), store.id);
        self.queue_built(store, name, seat, private, subject, &text, None, now)
    }

    #[allow(clippy::too_many_arguments)]
    fn queue_built(
        &self,
        store: &GameStore,
        name: &str,
        seat: &str,
        private: &SeatPrivate,
        subject: &str,
        text: &str,
        rich: Option<Rich>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let (local, domain) = self.address();
        let root = outbound::message_id(&[&store.id, seat, "thread"], &domain);
        let message_id = outbound::message_id(&[&store.id, seat, name], &domain);
        let out = Outgoing {
            to: private.address.clone(),
            to_name: None,
            from: format!(
                "{} <{local}@{domain}>",
                self.cfg.mail.from_name.replace(['<', '>', '"'], "")
            ),
            reply_to: Some(
                outbound::reply_address(&local, &store.id, seat, &private.token, &domain)
                    .map_err(|e| anyhow!("reply address for {seat}: {e}"))?,
            ),
            subject: format!("[{}] {subject}", store.id),
            text: text.to_string(),
            message_id: if name.starts_with("000000-welcome") {
                root.clone()
            } else {
                message_id
            },
            in_reply_to: if name.starts_with("000000-welcome") {
                None
            } else {
                Some(root.clone())
            },
            references: if name.starts_with("000000-welcome") {
                vec![]
            } else {
                vec![root]
            },
            date: now,
            ..Default::default()
        };
        let mut out = out;
        out.sealed = text.contains(report::DIGEST_PREFIX);
        if let Some(r) = rich {
            out.html = Some(r.html);
            if let Some(png) = r.png {
                out.inline.push(outbound::Part {
                    name: "map".into(),
                    content_type: "image/png".into(),
                    bytes: png,
                });
            }
            if let Some(svg) = r.svg {
                out.attachments.push(outbound::Part {
                    name: r.svg_name,
                    content_type: "image/svg+xml".into(),
                    bytes: svg.into_bytes(),
                });
            }
            if let Some(ics) = r.ics {
                out.attachments.push(outbound::Part {
                    name: "deadline.ics".into(),
                    content_type: "text/calendar; charset=utf-8; method=PUBLISH".into(),
                    bytes: ics.into_bytes(),
                });
            }
        }
        let bytes = outbound::build(&out).map_err(|e| anyhow!("building mail {name}: {e}"))?;
        store.queue(name, &bytes)?;
        Ok(())
    }

    /// GM: moves the open step's deadline by `hours` (negative to shorten) and tells every seat.
    pub fn gm_extend(
        &self,
        game_id: &str,
        hours: i64,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<DateTime<Utc>> {
        let _lock = self.data.lock()?;
        let store = self.existing(game_id)?;
        let ruleset = ruleset_of(&store)?;
        let deadline = dispatch!(ruleset, R => {
            let game: Game<R> = store.load()?;
            if game.is_over() {
                bail!("game `{game_id}` is over");
            }
            let base = game.deadline.unwrap_or(now).max(now);
            let deadline = base + chrono::Duration::hours(hours);
            let ev = Event::DeadlineChanged { step: game.step, deadline, reason: reason.to_string(), at: now };
            self.append_and_mail::<R>(&store, game, &ev, now)?;
            Ok(deadline)
        })?;
        self.deliver()?;
        Ok(deadline)
    }

    /// GM: locks the open step now; seats that have not answered are NMR and the game's silence
    /// policy (standing orders or pass) applies to them.
    pub fn gm_close_step(&self, game_id: &str, reason: &str, now: DateTime<Utc>) -> Result<usize> {
        let _lock = self.data.lock()?;
        let store = self.existing(game_id)?;
        let ruleset = ruleset_of(&store)?;
        let n = dispatch!(ruleset, R => {
            let game: Game<R> = store.load()?;
            if game.is_over() {
                bail!("game `{game_id}` is over");
            }
            let ev = Event::GmAction { step: game.step, action: GmKind::CloseStep, reason: reason.to_string(), at: now };
            let game = self.append_and_mail::<R>(&store, game, &ev, now)?;
            if game.locked.is_none() {
                let lock = game.lock_event(now);
                self.append_and_mail::<R>(&store, game, &lock, now)?;
            }
            self.settle::<R>(&store, now)
        })?;
        self.deliver()?;
        Ok(n)
    }

    /// GM: hands a seat to a new player: new address, new secret, a take-over welcome mail.
    pub fn gm_replace(
        &self,
        game_id: &str,
        seat: &str,
        address: &str,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let _lock = self.data.lock()?;
        let store = self.existing(game_id)?;
        if !address.contains('@') {
            bail!("`{address}` is not a mail address");
        }
        let mut seats = store.seats()?;
        let Some(private) = seats.seats.get_mut(seat) else {
            bail!(
                "no seat `{seat}` in {game_id} (seats: {})",
                seats.seats.keys().cloned().collect::<Vec<_>>().join(", ")
            );
        };
        private.address = address.trim().to_ascii_lowercase();
        private.token = crate::store::new_token()?;
        // The private file first: the event's mails must go to the new player.
        store.write_seats(&seats)?;
        let ruleset = ruleset_of(&store)?;
        dispatch!(ruleset, R => {
            let game: Game<R> = store.load()?;
            let ev = Event::GmAction {
                step: game.step,
                action: GmKind::ReplaceSeat { seat: seat.to_string() },
                reason: reason.to_string(),
                at: now,
            };
            self.append_and_mail::<R>(&store, game, &ev, now)?;
            Ok(())
        })?;
        self.deliver()?;
        Ok(())
    }

    fn existing(&self, game_id: &str) -> Result<GameStore> {
        let store = self.data.game(game_id);
        if !store.exists() {
            bail!("no game `{game_id}` in {}", self.data.root.display());
        }
        Ok(store)
    }

    /// Delivers what is queued, now (for callers without a clock of their own).
    pub fn deliver(&self) -> Result<usize> {
        self.deliver_at(Utc::now())
    }

    /// Delivers every queued mail of every game: into the outbound Maildir, or over SMTP with
    /// exponential backoff on transient failures and a report to the GM on permanent ones.
    pub fn deliver_at(&self, now: DateTime<Utc>) -> Result<usize> {
        let mut n = 0;
        let mut waiting = 0;
        let mut last_error = None;
        for id in self.data.game_ids()? {
            let store = self.data.game(&id);
            for path in store.outbox()? {
                let bytes = std::fs::read(&path).with_context(|| path.display().to_string())?;
                let stem = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let Some(smtp) = &self.smtp else {
                    self.outbox.deliver(&bytes, &format!("{id}-{stem}"))?;
                    store.mark_sent(&path)?;
                    n += 1;
                    continue;
                };
                let cfg = self.cfg.smtp.as_ref().expect("smtp configured");
                let mut retry = store.retry_state(&path)?;
                let acknowledged = cfg.self_copy && self.imap.is_some();
                if let Some(since) = retry.as_ref().and_then(|r| r.in_flight_since) {
                    // The daemon died mid-send. The copy in our own mailbox says whether the
                    // server took the mail; without it, wait out the grace before sending again.
                    let id = message_id_of(&bytes).unwrap_or_default();
                    match self.imap_holds(&id) {
                        Some(true) => {
                            info!(game = %id_game(&path), mail = %stem, "its copy shows a mail was taken before a crash; not sending it again");
                            store.mark_sent(&path)?;
                            n += 1;
                            continue;
                        }
                        Some(false)
                            if acknowledged
                                && now - since
                                    < chrono::Duration::seconds(
                                        cfg.in_flight_grace_seconds as i64,
                                    ) =>
                        {
                            waiting += 1;
                            continue;
                        }
                        None if acknowledged => {
                            waiting += 1;
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
                    waiting += 1;
                    continue;
                }
                let to = recipient(&bytes).unwrap_or_default();
                let (local, domain) = self.address();
                let own = format!("{local}@{domain}");
                if acknowledged {
                    let mut r = retry.clone().unwrap_or(crate::store::RetryState {
                        attempts: 0,
                        first_failure: now,
                        next_try: now,
                        last_error: String::new(),
                        in_flight_since: None,
                    });
                    r.in_flight_since = Some(now);
                    store.set_retry_state(&path, &r)?;
                }
                let copy = acknowledged.then_some(own.as_str());
                match smtp.send(&own, &to, copy, &bytes) {
                    Ok(()) => {
                        store.mark_sent(&path)?;
                        n += 1;
                    }
                    Err(SendError::Transient(e)) => {
                        let attempts = retry.as_ref().map_or(0, |r| r.attempts) + 1;
                        let first = retry.as_ref().map_or(now, |r| r.first_failure);
                        if now - first >= chrono::Duration::hours(cfg.give_up_hours as i64) {
                            self.undeliverable(
                                &store,
                                &path,
                                &to,
                                &format!("gave up after {attempts} tries: {e}"),
                                now,
                            )?;
                            continue;
                        }
                        let wait = cfg
                            .retry_first_seconds
                            .saturating_mul(1u64 << (attempts - 1).min(20))
                            .min(cfg.retry_max_seconds);
                        store.set_retry_state(
                            &path,
                            &crate::store::RetryState {
                                attempts,
                                first_failure: first,
                                next_try: now + chrono::Duration::seconds(wait as i64),
                                last_error: e.clone(),
                                in_flight_since: None,
                            },
                        )?;
                        waiting += 1;
                        last_error = Some((e, wait));
                    }
                    Err(SendError::Permanent(e)) => {
                        self.undeliverable(&store, &path, &to, &e, now)?;
                    }
                }
            }
        }
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
        let seats = store.seats()?;
        let Some(gm) = seats
            .gm
            .clone()
            .or_else(|| self.cfg.mail.gm_address.clone())
        else {
            return Ok(());
        };
        let gm_private = SeatPrivate {
            address: gm,
            name: "GM".into(),
            token: String::new(),
            time_zone: "UTC".into(),
        };
        let (local, domain) = self.address();
        let message_id = outbound::message_id(&[&store.id, "gm", &name], &domain);
        let out = Outgoing {
            to: gm_private.address.clone(),
            to_name: None,
            from: format!(
                "{} <{local}@{domain}>",
                self.cfg.mail.from_name.replace(['<', '>', '"'], "")
            ),
            reply_to: None,
            subject: format!("[{}] Undeliverable mail to {to}", store.id),
            text: format!(
                "Despatch could not deliver a mail of game {} to {to}.\n\nReason: {why}\n\n\
                 The mail is kept in {} for you to forward or resend. The player may have\n\
                 changed address: `despatch gm replace` hands the seat to a new one.\n",
                store.id,
                store.failed_dir().display()
            ),
            message_id,
            in_reply_to: None,
            references: vec![],
            date: now,
            ..Default::default()
        };
        let bytes = outbound::build(&out).map_err(|e| anyhow!("building the GM report: {e}"))?;
        store.queue(&format!("undeliverable-{name}"), &bytes)?;
        Ok(())
    }
}

/// The Message-ID (without `<>`) of a built mail.
fn message_id_of(bytes: &[u8]) -> Option<String> {
    let m = mail_parser::MessageParser::default().parse(bytes)?;
    m.message_id().map(str::to_string)
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

fn contacts<R: Ruleset>(game: &Game<R>, seats: &SeatsFile) -> Vec<Contact> {
    game.seats
        .iter()
        .filter_map(|s| {
            seats.seats.get(&s.seat).map(|p| Contact {
                seat: s.seat.clone(),
                private: p.clone(),
            })
        })
        .collect()
}

fn dice_section(info: &crate::engine::LockInfo, rolls: &[dice::Roll]) -> DiceSection {
    DiceSection {
        lock: info.lock.clone(),
        reveal: info.reveal.clone(),
        seed: info.seed.clone(),
        log_head: info.log_head.clone(),
        seats: info.seats.clone(),
        rolls: rolls.iter().map(RollRow::from_roll).collect(),
    }
}

/// The dice section alone (the game-over mail carries the last step's dice too).
fn render_dice<R: Ruleset>(
    game: &Game<R>,
    info: &crate::engine::LockInfo,
    step: u64,
) -> Result<String> {
    Ok(report::render(
        "dice",
        serde_json::json!({"game": game.id, "step": step, "dice": dice_section(info, &game.last_rolls)}),
    )?)
}

fn problems_ctx(p: &[Rejected]) -> Vec<serde_json::Value> {
    p.iter()
        .map(|r| serde_json::json!({"line": r.line, "text": r.text, "reason": r.reason, "hint": r.hint}))
        .collect()
}

fn silence_words(s: Silence) -> &'static str {
    match s {
        Silence::StandingOrders => {
            "your standing orders apply (or nothing is ordered), recorded as no move received"
        }
        Silence::Pass => "you pass this step",
        Silence::WaitForGm => "the game waits for the organiser",
        Silence::Forfeit => "you forfeit the game",
    }
}

pub fn fmt_time(t: DateTime<Utc>, tz: &str) -> String {
    match tz.parse::<chrono_tz::Tz>() {
        Ok(z) => t
            .with_timezone(&z)
            .format("%A %-d %B %Y, %H:%M %Z")
            .to_string(),
        Err(_) => t.format("%A %-d %B %Y, %H:%M UTC").to_string(),
    }
}

/// The first section of an order reference (up to its second heading), for the welcome mail.
fn reference_summary(reference: &str) -> String {
    let mut out = Vec::new();
    let mut headings = 0;
    for line in reference.lines() {
        if line.starts_with("## ") {
            headings += 1;
            if headings > 2 {
                break;
            }
        }
        out.push(line);
    }
    let mut s = out.join("\n");
    if s.len() > 4000 {
        s.truncate(s[..4000].rfind('\n').unwrap_or(4000));
        s.push_str("\n…(send HELP for the rest)");
    }
    s
}

fn list_scenarios(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir.join("scenarios"))
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| {
                    let p = e.path();
                    if p.extension()? != "toml" {
                        return None;
                    }
                    Some(p.file_stem()?.to_string_lossy().into_owned())
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn sha(b: &[u8]) -> dice::Hash {
    use sha2::Digest;
    sha2::Sha256::digest(b).into()
}

fn short(message_id: &str) -> String {
    dice::to_hex(&sha(message_id.as_bytes()))[..16].to_string()
}

/// Constant-time comparison for secrets.
fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
