//! Held mail: every inbound mail set aside to be read later (over its seat's hourly limit, or
//! whose processing failed) is kept in `<data_dir>/quarantine/` as `<key>.eml`, its bytes, and
//! `<key>.json`, a small record (why, when it came, tries, next try, who was told). Storage
//! only: it decides nothing about when a mail is retried and reads no clock.
//!
//! Crash safety: the copy is written (fsynced, renamed) before its record, and a record is
//! removed before its copy. A copy without a record (a crash while holding, or a mail kept
//! by a version before records existed, with its `<key>.why`) is adopted as a failed mail due
//! at once. A record is never left without its copy (records go first), and one that is (by
//! hand) is not listed. Both files are private: a mail's reply address carries its seat's
//! secret.

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::path::PathBuf;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{DataDir, StoreError, atomic_write_private, fsync_dir, io_err};

/// The folder's name under the data directory (the name older versions gave it, kept).
pub const HELD_FOLDER: &str = "quarantine";

/// Why a mail is held.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HeldCause {
    /// Over its seat's `max_per_sender_per_hour`: read when the seat's window has room
    /// (`until`), or just before the step's deadline when it came before it.
    RateLimit {
        until: DateTime<Utc>,
        #[serde(default)]
        deadline: Option<DateTime<Utc>>,
    },
    /// Processing failed with this error (the store, the game's files, a fault).
    Failed { error: String },
    /// Waits behind the same sender's earlier held mail to the same game, so that a seat's
    /// mails are read in the order they came.
    Behind { key: String },
}

/// The record of one held mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldMail {
    pub key: String,
    /// When Despatch first held it.
    pub arrived: DateTime<Utc>,
    /// Its place among mails held at the same moment (one pass), which keep their order.
    #[serde(default)]
    pub seq: u64,
    /// The sender address (lower-case), empty when the mail could not be parsed.
    #[serde(default)]
    pub from: String,
    #[serde(default)]
    pub message_id: String,
    /// The game its address or subject names, and the seat once known (authenticated).
    #[serde(default)]
    pub game: Option<String>,
    #[serde(default)]
    pub seat: Option<String>,
    /// Where it came from (`maildir:<file>`, `imap:<validity>:<uid>`, `ingest`), for the log.
    #[serde(default)]
    pub source: String,
    pub cause: HeldCause,
    /// Tries since it was held (the first reading is not counted).
    #[serde(default)]
    pub tries: u32,
    /// When it is tried next by itself; `None`: only when its game changes, or by hand.
    #[serde(default)]
    pub next_try: Option<DateTime<Utc>>,
    /// The game folder's fingerprint after the last try: a change retries a failed mail.
    #[serde(default)]
    pub fingerprint: Option<String>,
    /// Whether the sender, and the organiser, were told (of this cause).
    #[serde(default)]
    pub sender_told: bool,
    #[serde(default)]
    pub gm_told: bool,
}

impl HeldMail {
    /// The order held mail is read in: the order it came.
    pub fn order(&self) -> (DateTime<Utc>, u64, &str) {
        (self.arrived, self.seq, &self.key)
    }
}

/// The key of a mail: its bytes' digest, so holding the same mail twice (a crash between
/// holding it and filing the inbox copy) finds the first.
pub fn held_key(raw: &[u8]) -> String {
    hex::encode(&Sha256::digest(raw)[..8])
}

fn valid_key(key: &str) -> bool {
    !key.is_empty() && key.len() <= 64 && key.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl DataDir {
    pub fn held_dir(&self) -> PathBuf {
        self.root.join(HELD_FOLDER)
    }

    fn held_file(&self, key: &str, ext: &str) -> PathBuf {
        self.held_dir().join(format!("{key}.{ext}"))
    }

    /// Every held mail, oldest first (then by key). Reads only: `despatch status` calls it.
    pub fn held_mail(&self) -> Result<Vec<HeldMail>, StoreError> {
        let dir = self.held_dir();
        let names: Vec<String> = match fs::read_dir(&dir) {
            Ok(rd) => rd
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| !n.starts_with('.'))
                .collect(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(vec![]),
            Err(e) => {
                return Err(StoreError::Io {
                    path: dir,
                    source: e,
                });
            }
        };
        let mut out = Vec::new();
        for name in &names {
            let Some(key) = name.strip_suffix(".eml").filter(|k| valid_key(k)) else {
                continue;
            };
            let record = fs::read(self.held_file(key, "json"))
                .ok()
                .and_then(|b| serde_json::from_slice::<HeldMail>(&b).ok())
                .filter(|m| m.key == key);
            out.push(match record {
                Some(m) => m,
                None => self.adopted(key)?,
            });
        }
        out.sort_by(|a, b| a.order().cmp(&b.order()));
        Ok(out)
    }

    /// A copy without a (readable) record: a failed mail due at once, its reason taken from
    /// an older version's `<key>.why` when there is one.
    fn adopted(&self, key: &str) -> Result<HeldMail, StoreError> {
        let eml = self.held_file(key, "eml");
        let arrived = fs::metadata(&eml)
            .and_then(|m| m.modified())
            .map(DateTime::<Utc>::from)
            .map_err(io_err(&eml))?;
        let why = fs::read_to_string(self.held_file(key, "why"))
            .ok()
            .map(|t| t.lines().skip(1).collect::<Vec<_>>().join(" "))
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| "kept without a record (an older version, or a crash)".into());
        Ok(HeldMail {
            key: key.to_string(),
            arrived,
            seq: 0,
            from: String::new(),
            message_id: String::new(),
            game: None,
            seat: None,
            source: "quarantine".into(),
            cause: HeldCause::Failed { error: why },
            tries: 0,
            next_try: Some(DateTime::<Utc>::UNIX_EPOCH),
            fingerprint: None,
            sender_told: false,
            gm_told: true,
        })
    }

    /// Whether these bytes are held (their copy kept).
    pub fn holds_mail(&self, raw: &[u8]) -> bool {
        self.held_file(&held_key(raw), "eml").exists()
    }

    /// Keeps a mail's bytes (once: the same key is the same bytes).
    pub fn write_held_copy(&self, key: &str, raw: &[u8]) -> Result<(), StoreError> {
        let p = self.held_file(key, "eml");
        if p.exists() {
            return Ok(());
        }
        atomic_write_private(&p, raw)
    }

    /// Writes (or replaces) a held mail's record; its copy must be written first.
    pub fn write_held(&self, m: &HeldMail) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec_pretty(m).expect("a held record serialises");
        atomic_write_private(&self.held_file(&m.key, "json"), &bytes)
    }

    /// A held mail's bytes.
    pub fn held_copy(&self, key: &str) -> Result<Vec<u8>, StoreError> {
        let p = self.held_file(key, "eml");
        fs::read(&p).map_err(io_err(&p))
    }

    /// Forgets a held mail once it has been read: the record first, then the copy.
    pub fn release_held(&self, key: &str) -> Result<(), StoreError> {
        for ext in ["json", "eml", "why"] {
            let p = self.held_file(key, ext);
            match fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(StoreError::Io { path: p, source: e }),
            }
        }
        let dir = self.held_dir();
        fsync_dir(&dir).map_err(io_err(&dir))
    }

    /// Sets a held mail aside for good: moved to `quarantine/dropped/`, never retried.
    pub fn drop_held(&self, key: &str) -> Result<(), StoreError> {
        let to = self.held_dir().join("dropped");
        fs::create_dir_all(&to).map_err(io_err(&to))?;
        // The record first, as in `release_held`: a crash between leaves a copy alone, which
        // is listed again (adopted), never a record nobody lists.
        for ext in ["json", "eml", "why"] {
            let p = self.held_file(key, ext);
            match fs::rename(&p, to.join(format!("{key}.{ext}"))) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(StoreError::Io { path: p, source: e }),
            }
        }
        fsync_dir(&to).map_err(io_err(&to))?;
        let dir = self.held_dir();
        fsync_dir(&dir).map_err(io_err(&dir))
    }

    fn held_notices_path(&self) -> PathBuf {
        self.root.join("held-notices.json")
    }

    /// When each address was last told that its mail is held (senders recognised only by
    /// their reply address, see `daemon::held`).
    pub fn held_notices(&self) -> BTreeMap<String, DateTime<Utc>> {
        fs::read(self.held_notices_path())
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    pub fn write_held_notices(
        &self,
        told: &BTreeMap<String, DateTime<Utc>>,
    ) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(told).expect("a map of times serialises");
        atomic_write_private(&self.held_notices_path(), &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn record(key: &str, min: i64) -> HeldMail {
        HeldMail {
            key: key.into(),
            arrived: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap()
                + chrono::Duration::minutes(min),
            seq: 0,
            from: "a@b".into(),
            message_id: "m@b".into(),
            game: Some("g".into()),
            seat: Some("s".into()),
            source: "ingest".into(),
            cause: HeldCause::Failed { error: "x".into() },
            tries: 0,
            next_try: None,
            fingerprint: None,
            sender_told: false,
            gm_told: false,
        }
    }

    #[test]
    fn held_mail_is_listed_oldest_first_and_released_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let d = DataDir::new(tmp.path());
        assert!(d.held_mail().unwrap().is_empty(), "no folder, nothing held");
        for (key, min) in [("bbbb", 5), ("aaaa", 9)] {
            d.write_held_copy(key, key.as_bytes()).unwrap();
            d.write_held(&record(key, min)).unwrap();
        }
        let keys: Vec<String> = d.held_mail().unwrap().into_iter().map(|m| m.key).collect();
        assert_eq!(keys, ["bbbb", "aaaa"]);
        d.release_held("bbbb").unwrap();
        let keys: Vec<String> = d.held_mail().unwrap().into_iter().map(|m| m.key).collect();
        assert_eq!(keys, ["aaaa"]);
        assert!(d.held_copy("bbbb").is_err());
        d.drop_held("aaaa").unwrap();
        assert!(d.held_mail().unwrap().is_empty());
        assert!(d.held_dir().join("dropped/aaaa.eml").exists());
    }

    #[test]
    fn a_copy_without_its_record_is_adopted_as_failed_and_due() {
        let tmp = tempfile::tempdir().unwrap();
        let d = DataDir::new(tmp.path());
        // As the version before held records left a quarantined mail.
        std::fs::create_dir_all(d.held_dir()).unwrap();
        std::fs::write(d.held_file("cafe", "eml"), b"mail").unwrap();
        std::fs::write(d.held_file("cafe", "why"), "entry-1\nno such file\n").unwrap();
        // A crash between the copy and the record, with a damaged record.
        d.write_held_copy("beef", b"other").unwrap();
        std::fs::write(d.held_file("beef", "json"), b"{ half").unwrap();
        let held = d.held_mail().unwrap();
        assert_eq!(held.len(), 2);
        for m in &held {
            assert!(matches!(m.cause, HeldCause::Failed { .. }), "{m:?}");
            assert_eq!(m.next_try, Some(DateTime::<Utc>::UNIX_EPOCH));
        }
        let cafe = held.iter().find(|m| m.key == "cafe").unwrap();
        assert_eq!(
            cafe.cause,
            HeldCause::Failed {
                error: "no such file".into()
            }
        );
        // A record alone is no held mail.
        d.write_held(&record("dead", 0)).unwrap();
        assert_eq!(d.held_mail().unwrap().len(), 2);
    }

    #[test]
    fn holding_the_same_bytes_again_keeps_the_first_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let d = DataDir::new(tmp.path());
        let key = held_key(b"the mail");
        assert_eq!(key, held_key(b"the mail"));
        assert_ne!(key, held_key(b"another mail"));
        d.write_held_copy(&key, b"the mail").unwrap();
        d.write_held_copy(&key, b"something else").unwrap();
        assert_eq!(d.held_copy(&key).unwrap(), b"the mail");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(d.held_file(&key, "eml"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "held mail is private: {mode:o}");
        }
    }
}
