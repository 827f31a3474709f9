//! Small records intake keeps beside the games: which Message-IDs a game has processed (one
//! empty file per id under `processed/`, so a lookup is one `stat` however long the game), the
//! guard's activity per seat (`activity/<seat>.json`) and per stranger (`strangers/`), and the
//! audit log of every mail read (`seen.log`, appended, never read on the way of a mail).
//! Makes no decision: the guard in `engine::guard` does.

use std::fs;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use crate::engine::guard::Activity;

use super::{DataDir, Durable, GameStore, StoreError, append_line_unsynced, io_err, replace_file};

/// A file name for any key: 32 hex digits of its SHA-256, fanned out by the first two.
fn key_path(dir: PathBuf, key: &str) -> PathBuf {
    let h = hex::encode(Sha256::digest(key.as_bytes()));
    dir.join(&h[..2]).join(&h[2..32])
}

fn read_activity(path: PathBuf) -> Activity {
    // A damaged record only costs a guard's memory, never a mail.
    fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

fn write_activity(path: PathBuf, a: &Activity) -> Result<(), StoreError> {
    // Not fsynced: a record lost in a crash only costs the guard its memory of a few mails.
    replace_file(
        &path,
        &serde_json::to_vec(a).expect("activity serialises"),
        Durable::Cache,
    )
}

impl GameStore {
    /// Whether this game has processed a mail with this Message-ID (any outcome).
    pub fn was_processed(&self, message_id: &str) -> bool {
        key_path(self.dir.join("processed"), message_id).exists()
    }

    /// Records a processed Message-ID. Not fsynced: a crash that loses it only makes intake
    /// decide the same mail again, which gives the same answer (the journal and the drafts'
    /// deterministic names make that idempotent).
    pub fn mark_processed(&self, message_id: &str) -> Result<(), StoreError> {
        let p = key_path(self.dir.join("processed"), message_id);
        if let Some(d) = p.parent() {
            fs::create_dir_all(d).map_err(io_err(d))?;
        }
        fs::write(&p, b"").map_err(io_err(&p))
    }

    pub fn activity(&self, seat: &str) -> Activity {
        read_activity(self.dir.join("activity").join(format!("{seat}.json")))
    }

    pub fn write_activity(&self, seat: &str, a: &Activity) -> Result<(), StoreError> {
        write_activity(self.dir.join("activity").join(format!("{seat}.json")), a)
    }
}

impl DataDir {
    /// What a sender who is no seat (or sent without the seat's secret) did lately.
    pub fn stranger(&self, address: &str) -> Activity {
        read_activity(key_path(
            self.root.join("strangers"),
            &address.to_ascii_lowercase(),
        ))
    }

    pub fn write_stranger(&self, address: &str, a: &Activity) -> Result<(), StoreError> {
        write_activity(
            key_path(self.root.join("strangers"), &address.to_ascii_lowercase()),
            a,
        )
    }

    /// What Despatch answered lately to an address that did not (provably) send the mail
    /// answered: a games list, a notice, a spectator's request or STOP (docs/club-rules.md F1).
    pub fn answered(&self, address: &str) -> Activity {
        read_activity(key_path(
            self.root.join("answered"),
            &address.to_ascii_lowercase(),
        ))
    }

    /// Kept fully durable (unlike the other guard records): a crash must not hand a flooder
    /// a fresh hour. Written before the answer is queued, so a crash can only send fewer.
    pub fn write_answered(&self, address: &str, a: &Activity) -> Result<(), StoreError> {
        let path = key_path(self.root.join("answered"), &address.to_ascii_lowercase());
        replace_file(
            &path,
            &serde_json::to_vec(a).expect("activity serialises"),
            Durable::Fully,
        )
    }

    /// Appends one line to the audit log of mails read: Message-ID, outcome, sender, time.
    /// Not fsynced: nothing reads it on the way of a mail (duplicates are found by the
    /// `processed/` marks and the journal), so a machine crash can only cost its last lines.
    pub fn log_intake(
        &self,
        message_id: &str,
        outcome: &str,
        sender: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), StoreError> {
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        append_line_unsynced(
            &self.root.join("seen.log"),
            &format!(
                "{}\t{outcome}\t{}\t{}",
                clean(message_id),
                clean(sender),
                at.to_rfc3339()
            ),
        )
    }
}
