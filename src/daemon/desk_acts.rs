//! The desk's acts (issue 31 point 4): each command of an organiser's desk mail carried out
//! through the shell's own `gm_*` acts, or refused with exactly why, and its answer line; a
//! message to every player of a game or a league; the organiser's list of games. Only the
//! game's own organiser may act on it. Nothing here authenticates: `desk.rs` did.

use anyhow::{Result, anyhow};
use chrono::{DateTime, Utc};

use crate::engine::Play;
use crate::engine::press::PressCopy;
use crate::mail::inbound::desk::{Audience, DeskCommand};
use crate::report;

use super::Daemon;

/// Whom a message reached: the games it was journaled in, those skipped (not the organiser's,
/// or over), and the player addresses mailed.
#[derive(Debug, Clone, Default)]
pub struct Broadcast {
    pub games: Vec<String>,
    pub skipped: Vec<String>,
    pub players: usize,
}

impl Daemon {
    /// One desk command: the answer's words when done, or exactly why not.
    pub(super) fn desk_act(
        &self,
        organiser: &str,
        cmd: &DeskCommand,
        now: DateTime<Utc>,
    ) -> Result<String, String> {
        let why = |e: anyhow::Error| format!("{e:#}");
        if let Some(game) = cmd.game() {
            self.may_act(organiser, game)?;
        }
        match cmd {
            DeskCommand::Help => report::render("desk_help", ()).map_err(|e| e.to_string()),
            DeskCommand::Games => Ok(self.desk_games(organiser)),
            DeskCommand::Extend {
                game,
                hours,
                reason,
            } => {
                let d = self
                    .gm_extend_locked(game, *hours, reason, now)
                    .map_err(why)?;
                Ok(format!(
                    "DONE: the deadline of {game} is now {}. Every seat is told.",
                    report::fmt_time(d, "UTC")
                ))
            }
            DeskCommand::Close { game, reason } => {
                let reason = or(reason, "closed by the organiser");
                let n = self.gm_close_step_locked(game, reason, now).map_err(why)?;
                Ok(format!(
                    "DONE: the open step of {game} is closed; {n} step(s) resolved. Seats that \
                     had not sent orders are recorded as no move received."
                ))
            }
            DeskCommand::Replace {
                game,
                seat,
                address,
                reason,
            } => {
                let reason = or(reason, "the previous player left");
                self.gm_replace_locked(game, seat, address, reason, now)
                    .map_err(why)?;
                Ok(format!(
                    "DONE: seat {seat} of {game} now belongs to {address}, with a new secret; \
                     a welcome is on its way to them and every seat is told."
                ))
            }
            DeskCommand::Pause { game, reason } => {
                let left = self.gm_pause_locked(game, reason, now).map_err(why)?;
                let left = match left {
                    Some(l) if l > chrono::Duration::zero() => {
                        format!("{} were left before the deadline", compose_left(l))
                    }
                    Some(_) => "its deadline had passed".into(),
                    None => "its step has no deadline".into(),
                };
                Ok(format!(
                    "DONE: {game} is paused: no deadline passes, no reminder goes and no \
                     silence counts until you RESUME it ({left}). Every seat is told."
                ))
            }
            DeskCommand::Resume { game } => {
                let (deadline, n) = self.gm_resume_locked(game, now).map_err(why)?;
                let when = match deadline {
                    Some(d) => format!("its deadline is now {}", report::fmt_time(d, "UTC")),
                    None => "its step has no deadline".into(),
                };
                let resolved = match n {
                    0 => String::new(),
                    n => format!(" Every order was in: {n} step(s) resolved at once."),
                };
                Ok(format!(
                    "DONE: {game} goes on; {when}. Every seat is told.{resolved}"
                ))
            }
            DeskCommand::Broadcast { to, text } => {
                let b = match to {
                    Audience::Game(game) => self.broadcast_game_locked(game, text, now),
                    Audience::League(l) => {
                        self.broadcast_league_locked(l, text, Some(organiser), now)
                    }
                }
                .map_err(why)?;
                let skipped = match b.skipped.as_slice() {
                    [] => String::new(),
                    s => format!(" Not sent to: {}.", s.join("; ")),
                };
                Ok(format!(
                    "DONE: your message went to {} player address(es) of {}.{skipped}",
                    b.players,
                    b.games.join(", ")
                ))
            }
        }
    }

    /// Whether `organiser` organises `game` (its own organiser, or the house's for a game
    /// without one): the desk acts on no other game.
    fn may_act(&self, organiser: &str, game: &str) -> Result<(), String> {
        let store = self.data.game(game);
        if !store.exists() {
            return Err(format!("there is no game `{game}`"));
        }
        match self.organiser_of(&store) {
            Some(gm) if gm.eq_ignore_ascii_case(organiser) => Ok(()),
            _ => Err(format!(
                "game `{game}` is not yours: only its own organiser may act on it"
            )),
        }
    }

    /// `GAMES`: every game the organiser runs, its state and deadline, newest state first.
    fn desk_games(&self, organiser: &str) -> String {
        let mut lines = Vec::new();
        for id in self.data.game_ids().unwrap_or_default() {
            let store = self.data.game(&id);
            if !self
                .organiser_of(&store)
                .is_some_and(|gm| gm.eq_ignore_ascii_case(organiser))
            {
                continue;
            }
            let line = match self.open_game(&id) {
                Ok(g) => game_line(&id, g.game.as_ref()),
                Err(e) => format!("{id}: cannot be read ({e:#})"),
            };
            lines.push(line);
        }
        match lines.len() {
            0 => "You organise no game here.".into(),
            n => format!("Your games ({n}):\n{}", lines.join("\n")),
        }
    }

    /// A message from the organiser to every player of `game`: journaled as a digest (its text
    /// kept privately, as press is), mailed once to each player address by the event.
    pub fn broadcast_game_locked(
        &self,
        game: &str,
        text: &str,
        now: DateTime<Utc>,
    ) -> Result<Broadcast> {
        let mut g = self.open_game(game)?;
        let ev = self.broadcast_event(&g, text, None, now)?;
        self.append(&mut g, &ev, now)?;
        self.close(&g)?;
        Ok(Broadcast {
            games: vec![game.to_string()],
            skipped: vec![],
            players: players(&g).len(),
        })
    }

    /// The same to every game in play of league `league` that `organiser` runs (every one when
    /// `None`, at the shell): journaled in each, and one mail per player address from the
    /// house, however many of its games the player sits in.
    pub fn broadcast_league_locked(
        &self,
        league: &str,
        text: &str,
        organiser: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Broadcast> {
        let file = super::league::league_file(&self.data, league)?;
        let mut b = Broadcast::default();
        let mut to: Vec<String> = Vec::new();
        for id in &file.games {
            if !crate::engine::valid_game_id(id) || !self.data.game(id).exists() {
                continue;
            }
            if let Some(gm) = organiser
                && self.may_act(gm, id).is_err()
            {
                b.skipped.push(format!("{id} (not yours)"));
                continue;
            }
            let mut g = self.open_game(id)?;
            if g.game.is_over() {
                b.skipped.push(format!("{id} (over)"));
                continue;
            }
            let ev = self.broadcast_event(&g, text, Some(league), now)?;
            self.append(&mut g, &ev, now)?;
            self.close(&g)?;
            for a in players(&g) {
                if !to.contains(&a) {
                    to.push(a);
                }
            }
            b.games.push(id.clone());
        }
        if b.games.is_empty() {
            return Err(anyhow!(
                "league `{league}` has no game in play that is yours, so nobody was written to"
            ));
        }
        let about = format!("league {league} (games {})", b.games.join(", "));
        let body = crate::mail::compose::broadcast_text(&about, "", text, "", "")?;
        let (local, domain) = self.cfg.address_parts();
        let stamp = now.to_rfc3339();
        let house = self.data.house();
        for address in &to {
            let out = crate::mail::outbound::Outgoing {
                to: address.clone(),
                from: format!(
                    "{} <{local}@{domain}>",
                    crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
                ),
                subject: format!("[league {league}] A message from the organiser"),
                text: report::wrap_text(&body),
                message_id: crate::mail::outbound::message_id(
                    &["broadcast", league, &stamp, text, address],
                    &domain,
                ),
                date: now,
                auto_generated: true,
                ..Default::default()
            };
            self.queue_letters(
                &house,
                &[(format!("broadcast-{}", &out.message_id[..16]), out)],
            )?;
        }
        b.players = to.len();
        Ok(b)
    }

    /// The journal line of a message, its text and salt written first beside the game (the
    /// event's mails are composed from them, as press's are).
    fn broadcast_event(
        &self,
        g: &super::open_game::OpenGame,
        text: &str,
        league: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<crate::engine::Event> {
        let mut salt = [0u8; 32];
        getrandom::fill(&mut salt).map_err(|e| anyhow!("no randomness for a salt: {e}"))?;
        let ev = crate::engine::pause::gm_broadcast(g.game.as_ref(), text, &salt, league, now)?;
        let crate::engine::Event::GmBroadcast { digest, .. } = &ev else {
            unreachable!("gm_broadcast makes a broadcast")
        };
        let copy = PressCopy {
            text: text.to_string(),
            salt: crate::dice::to_hex(&salt),
        };
        crate::store::atomic_write_private(
            &super::open_game::press_path(&g.store, digest),
            &serde_json::to_vec(&copy)?,
        )?;
        Ok(ev)
    }
}

fn or<'a>(given: &'a str, default: &'a str) -> &'a str {
    if given.trim().is_empty() {
        default
    } else {
        given
    }
}

fn compose_left(l: chrono::Duration) -> String {
    let m = l.num_minutes().max(0);
    match (m / 60, m % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

/// The player addresses of a game, each once.
fn players(g: &super::open_game::OpenGame) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in g.recipients() {
        let a = r.private.address.to_ascii_lowercase();
        if !a.is_empty() && !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

/// One game in the organiser's list: its state and deadline.
fn game_line(id: &str, game: &dyn Play) -> String {
    let book = game.book();
    let head = format!("{id} ({}, {})", book.ruleset, book.scenario);
    if let Some(o) = game.outcome() {
        return format!("{head}: over. {}", o.summary);
    }
    let step = format!("step {} ({})", book.step, game.spec().title);
    if let Some(p) = &book.club.paused {
        let left = match p.left() {
            Some(l) if l > chrono::Duration::zero() => format!("{} left", compose_left(l)),
            Some(_) => "its deadline had passed".into(),
            None => "no deadline".into(),
        };
        return format!(
            "{head}: PAUSED at {step} since {} ({left}); reason: {}",
            report::fmt_time(p.at, "UTC"),
            p.reason
        );
    }
    let deadline = match book.deadline {
        Some(d) => format!("deadline {}", report::fmt_time(d, "UTC")),
        None => "no deadline".into(),
    };
    let waiting = game.waiting_for();
    let waiting = match waiting.is_empty() {
        true => "every order in".to_string(),
        false => format!("waiting for {}", waiting.join(", ")),
    };
    format!("{head}: {step}; {deadline}; {waiting}")
}
