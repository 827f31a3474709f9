//! The players index (`players/`): the games each registered seat address is seated in, so a
//! player's calendar opens those games and not every game stored. It only over-reports: a seats
//! file's addresses are added (durably) before the file is written and never taken out, so a
//! reader checks each game's seats itself. `players/.games/<game>` says a game's addresses are
//! in; a game without it (made before the index, or copied in by hand) is added by the first
//! look of each process. Decides nothing; reads no clock.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use super::{DataDir, GameStore, SeatsFile, StoreError, io_err};

/// The folder of one address: the hex SHA-256 of its lower-case form (any address is a safe
/// file name, and case does not split a player).
fn address_key(address: &str) -> String {
    hex::encode(Sha256::digest(address.to_ascii_lowercase().as_bytes()))
}

/// Creates the empty file `dir/name` if missing, durably; whether it was made.
fn touch(dir: &Path, name: &str) -> Result<bool, StoreError> {
    let p = dir.join(name);
    if p.exists() {
        return Ok(false);
    }
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    fs::write(&p, b"").map_err(io_err(&p))?;
    super::fsync_dir(dir).map_err(io_err(dir))?;
    Ok(true)
}

impl GameStore {
    /// `players/` beside `games/`, for a game store under `games/`.
    fn players_dir(&self) -> Option<PathBuf> {
        let games = self.dir.parent()?;
        if games.file_name()? != "games" {
            return None;
        }
        Some(games.parent()?.join("players"))
    }

    /// Adds the game to each seat address's list (called before the seats file is written).
    /// Costs an fsync only for an address new to the game.
    pub(crate) fn note_players(&self, seats: &SeatsFile) -> Result<(), StoreError> {
        let Some(dir) = self.players_dir() else {
            return Ok(());
        };
        let mut new_folder = false;
        for p in seats.seats.values() {
            let d = dir.join(address_key(&p.address));
            new_folder |= !d.exists();
            touch(&d, &self.id)?;
        }
        if new_folder {
            super::fsync_dir(&dir).map_err(io_err(&dir))?;
        }
        // Last: a game marked in `.games` has every address of its seats listed.
        touch(&dir.join(".games"), &self.id)?;
        Ok(())
    }
}

impl DataDir {
    /// The games in which `address` may hold a seat: every game where it does, perhaps more
    /// (read each game's seats). The first call of a process adds the games the index does not
    /// know (one listing of the games folder and one of `players/.games`); after it, every
    /// seats write keeps the index whole. Writes: call with the data lock held.
    pub fn games_of(&self, address: &str) -> Result<Vec<String>, StoreError> {
        static CHECKED: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());
        let first = CHECKED
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(self.root.clone())
            // The index taken away (or never made) while this process ran: rebuilt at once.
            || !self.root.join("players").join(".games").is_dir();
        if first && let Err(e) = self.add_unknown_games() {
            CHECKED
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&self.root);
            return Err(e);
        }
        self.marked(&format!("players/{}", address_key(address)))
    }

    /// Adds every game of the games folder that `players/.games` does not name.
    fn add_unknown_games(&self) -> Result<(), StoreError> {
        let known: BTreeSet<String> = self.marked("players/.games")?.into_iter().collect();
        for id in self.game_names()? {
            if known.contains(&id) {
                continue;
            }
            let store = self.game(&id);
            // Half made (no seats yet): its seats write will add it.
            if let Ok(seats) = store.seats() {
                store.note_players(&seats)?;
            }
        }
        Ok(())
    }
}
