//! The lobby's book (`<data_dir>/lobby/book.json`, mode 0600): the games wanting players, each
//! member's lobby secret and the act it still has to confirm, and the Message-IDs the lobby
//! has read (a replayed mail never opens a second game). One file, written atomically and
//! durably; decides nothing (`engine::lobby` does, the daemon carries out).

use std::collections::BTreeMap;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{DataDir, StoreError, atomic_write_private, io_err};
use crate::engine::lobby::Table;

/// Message-IDs kept for spotting a replayed lobby mail: far more than a club's lobby reads
/// between two replays of one mail (a provider re-delivers within hours).
const SEEN_KEPT: usize = 5000;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyBook {
    #[serde(default)]
    pub tables: Vec<Table>,
    /// By lower-case address.
    #[serde(default)]
    pub members: BTreeMap<String, LobbyMember>,
    #[serde(default)]
    pub seen: Vec<String>,
}

/// What the lobby keeps of one address: its secret (the local part of its lobby reply
/// address), and the lines it sent without it, waiting for the reply that proves the mailbox.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyMember {
    pub token: String,
    #[serde(default)]
    pub pending: Vec<String>,
    #[serde(default)]
    pub pending_at: Option<DateTime<Utc>>,
}

impl LobbyBook {
    /// Records a Message-ID read; false when it was read before.
    pub fn first_sight(&mut self, message_id: &str) -> bool {
        if self.seen.iter().any(|s| s == message_id) {
            return false;
        }
        self.seen.push(message_id.to_string());
        if self.seen.len() > SEEN_KEPT {
            let cut = self.seen.len() - SEEN_KEPT;
            self.seen.drain(..cut);
        }
        true
    }
}

impl DataDir {
    fn lobby_path(&self) -> PathBuf {
        self.root.join("lobby").join("book.json")
    }

    /// The lobby's book; an empty one when none was written yet.
    pub fn lobby_book(&self) -> Result<LobbyBook, StoreError> {
        let path = self.lobby_path();
        match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| StoreError::Corrupt {
                path,
                detail: e.to_string(),
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(LobbyBook::default()),
            Err(e) => Err(io_err(&path)(e)),
        }
    }

    /// Whether a lobby book exists (the daemon's clock skips the lobby otherwise).
    pub fn has_lobby(&self) -> bool {
        self.lobby_path().exists()
    }

    pub fn write_lobby_book(&self, book: &LobbyBook) -> Result<(), StoreError> {
        let path = self.lobby_path();
        let bytes = serde_json::to_vec_pretty(book).map_err(|e| StoreError::Corrupt {
            path: path.clone(),
            detail: e.to_string(),
        })?;
        atomic_write_private(&path, &bytes)
    }
}
