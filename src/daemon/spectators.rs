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

use crate::engine::club::Spectators;
use crate::engine::{Event, Play};
use crate::mail::address::Mailbox;
use crate::mail::compose::{self, Draft, MailCtx};
use crate::mail::guard::Activity;
use crate::mail::inbound::{Inbound, SeatCommand};
use crate::mail::outbound::{self, Outgoing};
use crate::store::{SeatsFile, Spectator};

use super::Daemon;
use super::games::{OpenGame, reload};
use super::intake::{Decision, Intake};

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

/// Adds or removes observer `address`: the seats file as it is to be and the event to journal,
/// or why not (said to whoever asked; nothing changes). Pure: the id of a new observer and the
/// time come in as values.
pub fn change_spectators(
    game: &dyn Play,
    seats: &SeatsFile,
    by: By,
    add: bool,
    address: &str,
    new_id: &str,
    now: DateTime<Utc>,
) -> Result<(SeatsFile, Event), String> {
    let policy = game.book().policy.club.spectators;
    match (policy, by) {
        (Spectators::None, _) => {
            return Err("this game is private: its club policy allows no spectators".into());
        }
        (Spectators::Gm, By::Seat(_)) => {
            return Err(
                "in this game only the organiser adds or removes spectators (club policy)".into(),
            );
        }
        _ => {}
    }
    if game.is_over() {
        return Err("the game is over: there is nothing more to watch".into());
    }
    let mut next = seats.clone();
    let found = next
        .spectators
        .iter()
        .position(|s| s.address.eq_ignore_ascii_case(address));
    let book = game.book();
    let event = if add {
        if next.seats.values().any(|p| p.writes_from(address)) {
            return Err(format!("{address} plays a seat in this game"));
        }
        if found.is_some() {
            return Err(format!("{address} already watches this game"));
        }
        if next.spectators.len() >= MAX_SPECTATORS {
            return Err(format!(
                "a game may have at most {MAX_SPECTATORS} spectators"
            ));
        }
        next.spectators.push(Spectator {
            id: new_id.to_string(),
            address: address.to_string(),
            added_by: by.word(),
            since: now,
        });
        Event::SpectatorJoined {
            step: book.step,
            spectator: new_id.to_string(),
            by: by.word(),
            watching: next.spectators.len() as u32,
            at: now,
        }
    } else {
        let Some(i) = found else {
            return Err(format!("{address} does not watch this game"));
        };
        if let By::Seat(seat) = by
            && next.spectators[i].added_by != seat
        {
            return Err(format!(
                "{address} was added by someone else: only they or the organiser can remove them"
            ));
        }
        let gone = next.spectators.remove(i);
        Event::SpectatorLeft {
            step: book.step,
            spectator: gone.id,
            by: by.word(),
            watching: next.spectators.len() as u32,
            at: now,
        }
    };
    Ok((next, event))
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
    /// `despatch gm spectator <game> add|remove <address>`. Returns what was done, in words.
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
        let id = new_id()?;
        let (seats, ev) = change_spectators(
            g.game.as_ref(),
            &g.seats,
            By::Gm,
            add,
            &mailbox.address,
            &id,
            now,
        )
        .map_err(|e| anyhow!("{game_id}: {e}; nothing changed"))?;
        self.apply_spectators(&mut g, &seats, &ev, now)?;
        self.close(&g)?;
        self.deliver_at(now)?;
        let n = g.seats.spectators.len();
        Ok(if add {
            format!(
                "{game_id}: {} now watches ({n} spectator(s)); a welcome mail is on its way.",
                mailbox.address
            )
        } else {
            format!(
                "{game_id}: {} no longer watches ({n} spectator(s)).",
                mailbox.address
            )
        })
    }

    /// The private file first (the event's mails look the observer up in it), then the event.
    fn apply_spectators(
        &self,
        g: &mut OpenGame,
        seats: &SeatsFile,
        ev: &Event,
        now: DateTime<Utc>,
    ) -> Result<()> {
        g.store.write_seats(seats)?;
        reload(g)?;
        self.append(g, ev, now)?;
        if let Event::SpectatorLeft { spectator, .. } = ev {
            drop_held_of(g, spectator)?;
        }
        Ok(())
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
        let id = new_id()?;
        let changed = change_spectators(
            g.game.as_ref(),
            &g.seats,
            By::Seat(seat),
            add,
            address,
            &id,
            now,
        );
        let (said, seats, event) = match changed {
            Ok((seats, ev)) => (
                if add {
                    format!(
                        "{address} now watches this game as a spectator (a welcome mail is on \
                         its way to them). The other seats are told that a spectator was added \
                         by you, not the address."
                    )
                } else {
                    format!("{address} no longer watches this game.")
                },
                Some(seats),
                Some(ev),
            ),
            Err(why) => (format!("Not done: {why}. Nothing changed."), None, None),
        };
        let after = seats.as_ref().unwrap_or(&g.seats);
        let mine: Vec<String> = after
            .spectators
            .iter()
            .filter(|s| s.added_by == seat)
            .map(|s| s.address.clone())
            .collect();
        let others = after.spectators.len() - mine.len();
        let to = g.recipient(seat).expect("an authenticated seat").clone();
        let mut draft =
            compose::spectator_reply(g.game.as_ref(), &to, &said, &mine, others, &inb.message_id);
        draft.re_subject = compose::their_subject(&inb.subject);
        activity.outcome(now, None);
        let intake = Intake::Settings {
            game: g.store.id.clone(),
            seat: seat.to_string(),
        };
        let mut d = Decision::for_seat(intake, g, seat, activity);
        d.seats = seats;
        d.events = event.into_iter().collect();
        d.drafts = vec![draft];
        Ok(d)
    }

    /// A mail from an observer's address: observers cannot send orders. Answered at most once
    /// an hour (and within the strangers' budget); nothing else happens.
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
            let subject = format!("[{game_id}] Spectators cannot send orders");
            d.letters = vec![(
                format!("observer-{}", short(&inb.message_id)),
                self.observer_letter(&s.address, &subject, &game_id, inb, now),
            )];
            d.seat_activity = Some((key, activity));
        }
        d.game = Some(g);
        Ok(d)
    }

    fn observer_letter(
        &self,
        to: &str,
        subject: &str,
        game_id: &str,
        inb: &Inbound,
        now: DateTime<Utc>,
    ) -> Outgoing {
        let (local, domain) = self.cfg.address_parts();
        let text = compose::observer_refusal_text(game_id);
        let html = crate::report::render(
            "plain.html",
            serde_json::json!({"game": game_id, "seat": "", "subject": subject, "text": text}),
        )
        .ok();
        Outgoing {
            to: to.to_string(),
            from: format!(
                "{} <{local}@{domain}>",
                self.cfg.mail.from_name.replace(['<', '>', '"'], "")
            ),
            subject: subject.to_string(),
            text,
            html,
            message_id: outbound::message_id(&[&inb.message_id, subject], &domain),
            // Echoed only when a valid msg-id (see `outbound::echoable_id`).
            in_reply_to: outbound::echoable_id(&inb.message_id).map(str::to_string),
            references: outbound::echoable_id(&inb.message_id)
                .map(str::to_string)
                .into_iter()
                .collect(),
            date: now,
            auto_generated: true,
            ..Default::default()
        }
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
        if g.seats.spectators.is_empty() {
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
                for s in &g.seats.spectators {
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
            Event::GameEnded { step, .. } => {
                self.game_over(g, game, step.saturating_sub(1), ctx)?
            }
            _ => {}
        }
        Ok(())
    }

    fn game_over(&self, g: &OpenGame, game: &dyn Play, step: u64, ctx: &MailCtx) -> Result<()> {
        self.release_held(g, Some(u64::MAX))?;
        let d = compose::spectator_over(game, step, ctx)?;
        for s in &g.seats.spectators {
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
        let out = compose::observer_outgoing(&d, &s.address, ctx)
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

fn short(message_id: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(message_id.as_bytes())[..8])
}
