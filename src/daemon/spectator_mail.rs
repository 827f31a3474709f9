//! The observers' mails (issue 16, point 5; docs/watching.md): results mails for observers are
//! composed when a step resolves and held in the game's folder until `spectator_delay_steps`
//! more steps have resolved; the game's end releases everything held, then the game-over mail.
//! Who watches is decided in `spectators.rs`; this only composes (through compose), holds,
//! releases and queues.
//!
//! Crash safety: each observer mail has one name per (step, observer) and is skipped when a
//! mail of that name is already queued or sent, so re-deriving an event after a crash neither
//! loses nor doubles one. Held mails move into the outbox by rename.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};

use crate::engine::{Event, Play};
use crate::mail::compose::{self, Draft, MailCtx};
use crate::mail::outbound;
use crate::store::Spectator;

use super::Daemon;
use super::open_game::OpenGame;

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
