//! A game opened for one operation: its store, the game as its journal makes it, its secrets
//! and its seats' contacts, and the private copies of its press texts. Opening reads the disk;
//! what is done with the game (append, mail, settle) is `games.rs`'s.

use std::cell::OnceCell;

use anyhow::{Result, bail};

use crate::engine::press::PressCopy;
use crate::engine::{Event, Play};
use crate::mail::compose::Recipient;
use crate::store::{GameStore, HostOnions, SeatsFile};

use super::Daemon;

/// A game opened for a pass: its store, the game as the journal makes it, its secrets and
/// contacts. Dropped at the end of the operation; nothing is cached between passes.
pub struct OpenGame {
    pub store: GameStore,
    pub game: Box<dyn Play>,
    pub secrets: HostOnions,
    pub seats: SeatsFile,
    recipients: Vec<Recipient>,
    pub(super) reference: OnceCell<Option<String>>,
    pub(super) events_at_open: u64,
    /// An event appended since the game was opened changes what its pages show
    /// (`site::shows`): they are rewritten when it is closed.
    pub(super) site_due: bool,
}

impl OpenGame {
    pub fn recipients(&self) -> &[Recipient] {
        &self.recipients
    }

    pub fn recipient(&self, seat: &str) -> Option<&Recipient> {
        self.recipients.iter().find(|r| r.seat == seat)
    }

    /// Re-reads the private seats file (after the organiser changed it).
    fn reload_seats(&mut self) -> Result<()> {
        self.seats = self.store.seats()?;
        self.recipients = recipients(self.game.as_ref(), &self.seats);
        Ok(())
    }
}

fn recipients(game: &dyn Play, seats: &SeatsFile) -> Vec<Recipient> {
    game.book()
        .seats
        .iter()
        .filter_map(|s| {
            seats.seats.get(&s.seat).map(|p| Recipient {
                seat: s.seat.clone(),
                private: p.clone(),
            })
        })
        .collect()
}

impl Daemon {
    /// Opens a game: snapshot plus the journal's tail, its secrets and its seats.
    pub fn open_game(&self, id: &str) -> Result<OpenGame> {
        let store = self.data.game(id);
        if !store.exists() {
            bail!("no game `{id}` in {}", self.data.root.display());
        }
        let game = store.open(&self.registry)?;
        let secrets = store.secrets_for(&game.book().id)?;
        let seats = store.seats()?;
        Ok(OpenGame {
            recipients: recipients(game.as_ref(), &seats),
            events_at_open: game.book().events,
            store,
            game,
            secrets,
            seats,
            reference: OnceCell::new(),
            site_due: false,
        })
    }
}

/// Reloads seats after the organiser changed the private file.
pub(super) fn reload(g: &mut OpenGame) -> Result<()> {
    g.reload_seats()
}

/// Where the host keeps a press message's text and salt (private to the game's store).
pub(in crate::daemon) fn press_path(store: &GameStore, digest: &str) -> std::path::PathBuf {
    store.dir.join("press").join(format!("{digest}.json"))
}

/// The private copy of press event `ev`'s text, for composing its mails (None for any other
/// event, or when the copy is gone).
pub(in crate::daemon) fn press_copy(store: &GameStore, ev: &Event) -> Option<PressCopy> {
    // A message from the organiser keeps its text the same way (daemon/desk_acts.rs).
    let (Event::Press { digest, .. } | Event::GmBroadcast { digest, .. }) = ev else {
        return None;
    };
    let bytes = std::fs::read(press_path(store, digest)).ok()?;
    serde_json::from_slice(&bytes).ok()
}
