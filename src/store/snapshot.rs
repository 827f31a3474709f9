//! Loading a game: from `snapshot.json` (a cache of the book and the state after some event)
//! plus the journal lines after it, so the cost of a mail does not grow with the game's length;
//! from the whole journal when the snapshot is missing, stale beyond use, or damaged. `verify`
//! always replays the whole journal.

use std::fs;
use std::io;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::dice;
use crate::engine::registry::apply_lines;
use crate::engine::{Book, Game, Play, Registry, Ruleset, replay};

use super::{Durable, GameStore, StoreError, io_err, replace_file};

const FORMAT: u32 = 2;

/// What `snapshot.json` holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Snapshot {
    pub format: u32,
    pub ruleset: String,
    /// Bytes of the journal the snapshot covers: the next event's line begins here.
    pub journal_bytes: u64,
    pub events: u64,
    pub head: String,
    /// SHA-256 of `state` as written, so a damaged cache is noticed and rebuilt.
    pub state_digest: String,
    pub book: Book,
    pub state: serde_json::Value,
}

fn digest_of(state: &serde_json::Value) -> String {
    let bytes = serde_json::to_vec(state).expect("json values serialise");
    dice::to_hex(&Sha256::digest(&bytes).into())
}

impl GameStore {
    /// The game, from the snapshot and the journal's tail when they fit, else by replaying
    /// the whole journal.
    pub fn open(&self, registry: &Registry) -> Result<Box<dyn Play>, StoreError> {
        if let Some(game) = self.open_from_snapshot(registry)? {
            return Ok(game);
        }
        self.replay(registry)
    }

    /// Replays the whole journal (what `verify` trusts).
    pub fn replay(&self, registry: &Registry) -> Result<Box<dyn Play>, StoreError> {
        let journal = self.read_journal()?;
        registry
            .replay(&journal.lines)
            .map_err(|source| StoreError::Replay {
                path: self.journal_path(),
                source,
            })
    }

    /// A typed full replay, for tests and tools that know their ruleset.
    pub fn load<R: Ruleset>(&self) -> Result<Game<R>, StoreError> {
        let journal = self.read_journal()?;
        replay::<R>(&journal.lines).map_err(|source| StoreError::Replay {
            path: self.journal_path(),
            source,
        })
    }

    fn open_from_snapshot(&self, registry: &Registry) -> Result<Option<Box<dyn Play>>, StoreError> {
        let Some(snap) = self.snapshot() else {
            return Ok(None);
        };
        if snap.format != FORMAT
            || snap.events != snap.book.events
            || snap.head != dice::to_hex(&snap.book.head)
            || snap.state_digest != digest_of(&snap.state)
            || !self.starts_line(snap.journal_bytes)?
        {
            return Ok(None);
        }
        let entry = registry.get(&snap.ruleset)?;
        let Ok(mut game) = entry.restore(snap.book, snap.state) else {
            return Ok(None);
        };
        let tail = self.read_journal_from(snap.journal_bytes)?;
        if let Err(source) = apply_lines(
            game.as_mut(),
            tail.lines.iter().map(String::as_str),
            snap.events,
        ) {
            // The tail does not follow from the snapshot: trust the journal alone. If the
            // journal itself is broken, the full replay says where.
            tracing::warn!(game = %self.id, "snapshot does not fit the journal ({source}); replaying");
            return Ok(None);
        }
        Ok(Some(game))
    }

    /// The snapshot, if there is a readable one of the current format.
    pub fn snapshot(&self) -> Option<Snapshot> {
        let bytes = fs::read(self.dir.join("snapshot.json")).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Writes the snapshot of `game`, which must have applied every line of the journal.
    /// Skipped (it is only a cache) when the journal does not end where the game does.
    pub fn write_snapshot(&self, game: &dyn Play) -> Result<(), StoreError> {
        let p = self.journal_path();
        let len = fs::metadata(&p).map_err(io_err(&p))?.len();
        if !self.starts_line(len)? {
            return Ok(());
        }
        let book = game.book().clone();
        let state = game.state_json();
        let snap = Snapshot {
            format: FORMAT,
            ruleset: game.ruleset().to_string(),
            journal_bytes: len,
            events: book.events,
            head: dice::to_hex(&book.head),
            state_digest: digest_of(&state),
            book,
            state,
        };
        let bytes = serde_json::to_vec(&snap).expect("snapshots serialise");
        // A cache: checked against the journal and its own digest when read, rebuilt when wrong.
        replace_file(&self.dir.join("snapshot.json"), &bytes, Durable::Cache)
    }

    /// The raw snapshot file as JSON, for `verify` (`None` when there is none).
    pub fn read_snapshot(&self) -> Result<Option<serde_json::Value>, StoreError> {
        let p = self.dir.join("snapshot.json");
        match fs::read(&p) {
            Ok(b) => serde_json::from_slice(&b)
                .map(Some)
                .map_err(|e| StoreError::Corrupt {
                    path: p,
                    detail: e.to_string(),
                }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::Io { path: p, source: e }),
        }
    }
}
