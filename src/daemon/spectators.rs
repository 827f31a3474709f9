//! Observers (issue 16, point 5): the organiser (`despatch gm spectator`) or, when the club
//! policy says `players`, a seat by mail (`SPECTATOR ADD|REMOVE`) adds or removes an address
//! that receives the spectator view. The address lives in the private seats file; the journal
//! gets an opaque id. Results mails for observers are composed when a step resolves and held
//! in the game's folder until `spectator_delay_steps` more steps have resolved; the game's end
//! releases everything held, then the game-over mail.
//!
//! Crash safety: each observer mail has one name per (step, observer) and is skipped when a
//! mail of that name is already queued or sent, so re-deriving an event after a crash neither
//! loses nor doubles one. Held mails move into the outbox by rename.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};

use crate::config::address::{Mailbox, Unfit, unfit_address};
use crate::engine::club::Spectators;
use crate::engine::guard::Activity;
use crate::engine::{Event, Play};
use crate::mail::compose::{self, Draft, MailCtx, SpectatorRefused};
use crate::mail::inbound::{Inbound, SeatCommand};
use crate::mail::outbound;
use crate::store::{PendingSpectator, SeatsFile, Spectator};

use super::Daemon;
use super::decision::{Decision, Intake};
use super::open_game::{OpenGame, reload};

/// Observers one game may have: enough for a club night, few enough that one seat cannot
/// turn the game into a mailing list.
pub const MAX_SPECTATORS: usize = 20;

/// Who asks for a change: the organiser, or a seat by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By<'a> {
    Gm,
    Seat(&'a str),
}

impl By<'_> {
    fn word(&self) -> String {
        match self {
            By::Gm => "gm".into(),
            By::Seat(s) => s.to_string(),
        }
    }
}

/// Adds or removes observer `address`: the seats file as it is to be and the event to journal
/// (none for a request not yet confirmed, W5), or why not (said to whoever asked; nothing
/// changes). An address added is only asked: it is kept with `code` until it confirms, and
/// counts toward the cap but not as watching. Requests that have lapsed are dropped first.
/// Pure: the new observer's id and code, the time and whether the address is unfit
/// (`address::unfit_address`, ruling E1) come in as values.
#[allow(clippy::too_many_arguments)]
pub fn change_spectators(
    game: &dyn Play,
    seats: &SeatsFile,
    by: By,
    add: bool,
    address: &str,
    unfit: Option<Unfit>,
    (new_id, code, stop): (&str, &str, &str),
    now: DateTime<Utc>,
) -> Result<(SeatsFile, Option<Event>), SpectatorRefused> {
    let policy = game.book().policy.club.spectators;
    match (policy, by) {
        (Spectators::None, _) => {
            return Err(SpectatorRefused::Private);
        }
        (Spectators::Gm, By::Seat(_)) => {
            return Err(SpectatorRefused::OrganiserOnly);
        }
        _ => {}
    }
    if game.is_over() {
        return Err(SpectatorRefused::GameOver);
    }
    let mut next = seats.clone();
    drop_lapsed(&mut next, now);
    let found = next
        .spectators
        .iter()
        .position(|s| s.address.eq_ignore_ascii_case(address));
    let book = game.book();
    let event = if add {
        if let Some(why) = unfit {
            return Err(SpectatorRefused::Unfit {
                address: address.to_string(),
                why: why.words().to_string(),
            });
        }
        if next.seats.values().any(|p| p.writes_from(address)) {
            return Err(SpectatorRefused::PlaysASeat(address.to_string()));
        }
        match found.map(|i| next.spectators[i].watching()) {
            Some(true) => return Err(SpectatorRefused::WatchesAlready(address.to_string())),
            Some(false) => return Err(SpectatorRefused::AskedAlready(address.to_string())),
            None => {}
        }
        if next.spectators.len() >= MAX_SPECTATORS {
            return Err(SpectatorRefused::Full(MAX_SPECTATORS));
        }
        next.spectators.push(Spectator {
            id: new_id.to_string(),
            address: address.to_string(),
            added_by: by.word(),
            since: now,
            pending: Some(PendingSpectator {
                code: code.to_string(),
                until: crate::mail::consent::pending_until(now),
            }),
            stop: Some(stop.to_string()),
        });
        None
    } else {
        let Some(i) = found else {
            return Err(SpectatorRefused::NotWatching(address.to_string()));
        };
        if let By::Seat(seat) = by
            && next.spectators[i].added_by != seat
        {
            return Err(SpectatorRefused::AddedByAnother(address.to_string()));
        }
        let gone = next.spectators.remove(i);
        gone.watching().then(|| Event::SpectatorLeft {
            step: book.step,
            spectator: gone.id,
            by: by.word(),
            watching: watching(&next),
            at: now,
        })
    };
    Ok((next, event))
}

/// A spectator's own STOP (W7), by mail or one-click (L1), pure: the seats file without them
/// and, when they were watching and the game still runs, the event that tells the seats.
pub(super) fn spectator_stop(
    seats: &SeatsFile,
    id: &str,
    step: u64,
    over: bool,
    now: DateTime<Utc>,
) -> (SeatsFile, Option<Event>) {
    let mut next = seats.clone();
    let was = next.spectators.iter().any(|s| s.id == id && s.watching());
    next.spectators.retain(|s| s.id != id);
    let ev = (was && !over).then(|| Event::SpectatorLeft {
        step,
        spectator: id.to_string(),
        by: "spectator".into(),
        watching: watching(&next),
        at: now,
    });
    (next, ev)
}

/// How many confirmed observers the game has (what W1's notices count).
pub(super) fn watching(seats: &SeatsFile) -> u32 {
    seats.spectators.iter().filter(|s| s.watching()).count() as u32
}

/// Drops the requests that lapsed unconfirmed (W5): they never watched, so no event.
pub(super) fn drop_lapsed(seats: &mut SeatsFile, now: DateTime<Utc>) {
    seats
        .spectators
        .retain(|s| s.pending.as_ref().is_none_or(|p| p.until > now));
}

fn held_dir(g: &OpenGame) -> PathBuf {
    g.store.dir.join("spectators").join("held")
}

/// The step a held mail's name (`spectator-<step>-<id>.eml`) is for.
fn held_step(p: &Path) -> Option<u64> {
    let name = p.file_name()?.to_str()?;
    name.strip_prefix("spectator-")?
        .split('-')
        .next()?
        .parse()
        .ok()
}

impl Daemon {
    /// Whether `address` may not be a recipient in game `g` (ruling E1): the house address,
    /// this game's organiser or the configured one, a role address.
    pub(super) fn unfit(&self, g: &OpenGame, address: &str) -> Option<Unfit> {
        let organisers: Vec<&str> = g
            .seats
            .gm
            .iter()
            .chain(self.cfg.mail.gm_address.iter())
            .map(String::as_str)
            .collect();
        unfit_address(address, &self.cfg.mail.address, &organisers)
    }

    /// `despatch gm spectator <game> add|remove <address>`. Returns what was done, in words.
    /// An address added is sent one mail asking it to confirm (W5), and nothing else until it
    /// does.
    pub fn gm_spectator(
        &self,
        game_id: &str,
        add: bool,
        address: &str,
        now: DateTime<Utc>,
    ) -> Result<String> {
        let _lock = self.data.lock()?;
        let mailbox: Mailbox = address.parse().map_err(|e| anyhow!("address: {e}"))?;
        let mut g = self.open_game(game_id)?;
        let (id, code, stop) = (new_id()?, new_code()?, new_code()?);
        let unfit = self.unfit(&g, &mailbox.address);
        let (seats, ev) = change_spectators(
            g.game.as_ref(),
            &g.seats,
            By::Gm,
            add,
            &mailbox.address,
            unfit,
            (&id, &code, &stop),
            now,
        )
        .map_err(|e| anyhow!("{game_id}: {e}; nothing changed"))?;
        let mut records = Vec::new();
        let letters = match seats.spectators.iter().find(|s| s.id == id) {
            Some(s) if add => self.consent_letters(&g, s, None, now, &mut records),
            _ => vec![],
        };
        if add && letters.is_empty() {
            anyhow::bail!(
                "{game_id}: {} has had as many mails it did not ask for as it may have this \
                 hour; try again later; nothing changed",
                mailbox.address
            );
        }
        for (address, a) in &records {
            self.data.write_answered(address, a)?;
        }
        g.store.write_seats(&seats)?;
        reload(&mut g)?;
        if let Some(ev) = &ev {
            self.append(&mut g, ev, now)?;
        }
        if !letters.is_empty() {
            self.data.mark_pending(&g.store.id)?;
            self.queue_letters(&g.store, &letters)?;
        }
        self.close(&g)?;
        self.deliver_at(now)?;
        let n = watching(&g.seats);
        Ok(if add {
            format!(
                "{game_id}: {} has been asked to confirm by reply (one mail); they watch once \
                 they do, and the request lapses unconfirmed in {} days ({n} watching now).",
                mailbox.address,
                crate::mail::consent::PENDING_DAYS
            )
        } else {
            format!(
                "{game_id}: {} no longer watches ({n} spectator(s)).",
                mailbox.address
            )
        })
    }

    /// `SPECTATOR ADD|REMOVE <address>` from an authenticated seat: allowed only under the
    /// `players` policy; answered either way with what happened.
    pub(super) fn spectator_command(
        &self,
        cmd: &SeatCommand,
        g: OpenGame,
        seat: &str,
        mut activity: Activity,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Result<Decision> {
        let (add, address) = match cmd {
            SeatCommand::SpectatorAdd(a) => (true, a.as_str()),
            SeatCommand::SpectatorRemove(a) => (false, a.as_str()),
            _ => anyhow::bail!("not a spectator command: {cmd:?}"),
        };
        let (id, code, stop) = (new_id()?, new_code()?, new_code()?);
        let unfit = self.unfit(&g, address);
        let changed = change_spectators(
            g.game.as_ref(),
            &g.seats,
            By::Seat(seat),
            add,
            address,
            unfit,
            (&id, &code, &stop),
            now,
        );
        // The one request to confirm, within the per-address cap (F1); over it, nothing is
        // added, so no request is left pending that was never sent.
        let mut answered = Vec::new();
        let letters = match (&changed, add) {
            (Ok((after, _)), true) => match after.spectators.iter().find(|s| s.id == id) {
                Some(s) => self.consent_letters(&g, s, Some(inb), now, &mut answered),
                None => vec![],
            },
            _ => vec![],
        };
        let changed = match changed {
            Ok(_) if add && letters.is_empty() => {
                Err(SpectatorRefused::OverHourlyCap(address.to_string()))
            }
            other => other,
        };
        let said = compose::spectator_said(
            add,
            address,
            changed.as_ref().map(|_| ()),
            crate::mail::consent::PENDING_DAYS,
        );
        let (seats, event) = match changed {
            Ok((seats, ev)) => (Some(seats), ev),
            Err(_) => (None, None),
        };
        let after = seats.as_ref().unwrap_or(&g.seats);
        let mine: Vec<String> = after
            .spectators
            .iter()
            .filter(|s| s.added_by == seat)
            .map(|s| {
                if s.watching() {
                    s.address.clone()
                } else {
                    format!("{} (asked, not confirmed yet)", s.address)
                }
            })
            .collect();
        let others = after.spectators.len() - mine.len();
        let to = g.recipient(seat).expect("an authenticated seat").clone();
        let draft =
            compose::spectator_reply(g.game.as_ref(), &to, &said, &mine, others, &inb.message_id);
        activity.outcome(now, None);
        let intake = Intake::Settings {
            game: g.store.id.clone(),
            seat: seat.to_string(),
        };
        let mut d = Decision::for_seat(intake, g, seat, activity);
        if seats.is_some() {
            d.answered = answered;
        }
        d.seats = seats;
        d.events = event.into_iter().collect();
        d.drafts = vec![draft];
        d.letters = letters;
        Ok(d)
    }

    /// The observers' mails for journal event `index` (`game` as it stands right after it):
    /// a welcome to a new observer; a step's results held, and the held mails whose delay has
    /// run released; at the end everything held, then the game-over mail.
    pub(super) fn spectator_mail_for(
        &self,
        g: &OpenGame,
        game: &dyn Play,
        ev: &Event,
        ctx: &MailCtx,
    ) -> Result<()> {
        if let Event::SpectatorLeft { spectator, .. } = ev {
            // Whoever removed them (the organiser, a seat, their own STOP), nothing held for
            // them goes out.
            drop_held_of(g, spectator)?;
        }
        if !g.seats.spectators.iter().any(Spectator::watching) {
            return Ok(());
        }
        let delay = game.book().policy.club.spectator_delay_steps;
        let v1 = game.book().protocol == crate::dice::Protocol::V1;
        match ev {
            Event::SpectatorJoined { spectator, .. } => {
                if let Some(s) = g.seats.spectators.iter().find(|s| &s.id == spectator) {
                    let d = compose::spectator_welcome(game, delay)?;
                    self.queue_observer(g, &d, s, ctx)?;
                }
            }
            Event::Results { step, .. } if !game.is_over() => {
                let d = compose::spectator_results(game, *step, delay, ctx)?;
                let dir = held_dir(g);
                std::fs::create_dir_all(&dir)?;
                for s in g.seats.spectators.iter().filter(|s| s.watching()) {
                    let name = format!("{}-{}", d.name, s.id);
                    if self.already_queued(g, &name) {
                        continue;
                    }
                    let bytes = self.observer_bytes(&d, s, ctx)?;
                    crate::store::atomic_write_private(&dir.join(format!("{name}.eml")), &bytes)?;
                }
                self.release_held(g, step.checked_sub(u64::from(delay)))?;
            }
            Event::Results { step, .. } if v1 => self.game_over(g, game, *step, ctx)?,
            Event::GameAbandoned { step, .. } if v1 => {
                self.game_over(g, game, step.saturating_sub(1), ctx)?
            }
            Event::GameEnded { step, .. } => {
                self.game_over(g, game, step.saturating_sub(1), ctx)?
            }
            Event::StrictOpened { .. } => {
                // After the end nothing is held back: the opening goes out at once (S11).
                if let Some(d) = compose::spectator_opened(game, ev, game.book().events - 1)? {
                    for s in g.seats.spectators.iter().filter(|s| s.watching()) {
                        self.queue_observer(g, &d, s, ctx)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn game_over(&self, g: &OpenGame, game: &dyn Play, step: u64, ctx: &MailCtx) -> Result<()> {
        self.release_held(g, Some(u64::MAX))?;
        let d = compose::spectator_over(game, step, ctx)?;
        for s in g.seats.spectators.iter().filter(|s| s.watching()) {
            self.queue_observer(g, &d, s, ctx)?;
        }
        Ok(())
    }

    fn already_queued(&self, g: &OpenGame, name: &str) -> bool {
        let file = format!("{name}.eml");
        g.store.outbox_dir().join(&file).exists() || g.store.sent_dir().join(&file).exists()
    }

    fn observer_bytes(&self, d: &Draft, s: &Spectator, ctx: &MailCtx) -> Result<Vec<u8>> {
        let mut d = d.clone();
        d.name = format!("{}-{}", d.name, s.id);
        let out = compose::observer_outgoing(&d, &s.address, s.stop.as_deref(), ctx)
            .map_err(|e| anyhow!("addressing mail {}: {e}", d.name))?;
        outbound::build(&out).map_err(|e| anyhow!("building mail {}: {e}", d.name))
    }

    fn queue_observer(&self, g: &OpenGame, d: &Draft, s: &Spectator, ctx: &MailCtx) -> Result<()> {
        let name = format!("{}-{}", d.name, s.id);
        if self.already_queued(g, &name) {
            return Ok(());
        }
        let bytes = self.observer_bytes(d, s, ctx)?;
        self.data.mark_pending(&g.store.id)?;
        g.store.queue(&name, &bytes)?;
        Ok(())
    }

    /// Moves every held mail of a step up to `upto` into the outbox (by rename), and drops
    /// those already queued or sent (a re-derivation after a crash).
    fn release_held(&self, g: &OpenGame, upto: Option<u64>) -> Result<()> {
        let Some(upto) = upto else { return Ok(()) };
        let dir = held_dir(g);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Ok(());
        };
        let mut due: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| held_step(p).is_some_and(|k| k <= upto))
            .collect();
        due.sort();
        if due.is_empty() {
            return Ok(());
        }
        self.data.mark_pending(&g.store.id)?;
        let outbox = g.store.outbox_dir();
        std::fs::create_dir_all(&outbox)?;
        for p in due {
            let file = p.file_name().unwrap_or_default().to_owned();
            if outbox.join(&file).exists() || g.store.sent_dir().join(&file).exists() {
                std::fs::remove_file(&p)?;
            } else {
                std::fs::rename(&p, outbox.join(&file))?;
            }
        }
        crate::store::fsync_dir(&outbox)?;
        Ok(())
    }
}

/// A removed observer's held mails are never sent.
fn drop_held_of(g: &OpenGame, id: &str) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(held_dir(g)) else {
        return Ok(());
    };
    let tail = format!("-{id}.eml");
    for e in entries.flatten() {
        if e.file_name().to_string_lossy().ends_with(&tail) {
            std::fs::remove_file(e.path())?;
        }
    }
    Ok(())
}

/// An observer's opaque id: 10 characters from the OS RNG, so the journal says nothing of who.
fn new_id() -> Result<String> {
    Ok(crate::store::new_token()?[..10].to_string())
}

/// The code a confirmation must carry: a fresh seat-strength secret (24 characters, ~124
/// bits), so only the mailbox that received it can confirm.
pub(super) fn new_code() -> Result<String> {
    Ok(crate::store::new_token()?)
}
