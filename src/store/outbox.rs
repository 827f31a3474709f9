//! One game's outgoing mail: queued under deterministic names (so re-deriving mails after a
//! crash never duplicates one), moved to `sent/` once delivered or `failed/` when it never can
//! be, with a retry record for transient failures, and the record of a pass's sends (one
//! durable commit per store and pass, not per mail). Makes no decision about when to retry.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{
    Durable, GameStore, StoreError, atomic_write, commit_staged, fsync_dir, io_err, replace_file,
    replace_files, stage_files,
};

/// The mails one pass is about to send from one store, and the boot they were sent in: written
/// durably before the first of them goes, so that after the machine itself went down (and
/// took the unsynced per-mail marks with it) every one of them is known to be maybe sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendBatch {
    pub since: chrono::DateTime<chrono::Utc>,
    /// The kernel's boot id when the batch began (`/proc/sys/kernel/random/boot_id`).
    pub boot: String,
    /// The queued mails' file names, in the order they are sent.
    pub names: Vec<String>,
}

/// This boot of the machine: a process killed and restarted sees the same id (and every write
/// it made, fsynced or not, since the page cache outlives the process); a machine that went
/// down and came back sees another.
pub fn boot_id() -> String {
    fs::read_to_string("/proc/sys/kernel/random/boot_id")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

impl GameStore {
    pub fn outbox_dir(&self) -> PathBuf {
        self.dir.join("outbox")
    }

    pub fn sent_dir(&self) -> PathBuf {
        self.dir.join("sent")
    }

    /// Index of the last event whose mails were written to the outbox (`None`: none yet).
    pub fn mailed_upto(&self) -> Result<Option<u64>, StoreError> {
        let p = self.dir.join("mailed");
        match fs::read_to_string(&p) {
            Ok(s) => Ok(s.trim().parse().ok()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::Io { path: p, source: e }),
        }
    }

    pub fn set_mailed_upto(&self, index: u64) -> Result<(), StoreError> {
        // The mails are queued (durably) before this mark moves; a crash that loses the rename
        // leaves the mark behind, and the next pass re-derives those mails under the same names,
        // which the queue skips.
        replace_file(
            &self.dir.join("mailed"),
            format!("{index}\n").as_bytes(),
            Durable::ContentOnly,
        )
    }

    /// Puts a mail in the outbox under a deterministic name; writing the same name twice is a no-op,
    /// so re-deriving mails after a crash never duplicates one.
    pub fn queue(&self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.queue_all(&[(name.to_string(), bytes.to_vec())])
    }

    /// `queue` for several mails: every file is fsynced before its rename (the fsyncs side by
    /// side, see `replace_files`), the directory once after the last.
    pub fn queue_all(&self, mails: &[(String, Vec<u8>)]) -> Result<(), StoreError> {
        let dir = self.outbox_dir();
        let mut new = Vec::new();
        for (name, bytes) in mails {
            let out = dir.join(format!("{name}.eml"));
            let sent = self.sent_dir().join(format!("{name}.eml"));
            if out.exists() || sent.exists() {
                continue;
            }
            new.push((out, bytes.as_slice()));
        }
        if !new.is_empty() {
            replace_files(&new, Durable::ContentOnly)?;
            fsync_dir(&dir).map_err(io_err(&dir))?;
        }
        Ok(())
    }

    /// `queue_all`, then `set_mailed_upto(index)`, with the same order of what reaches the
    /// disk (every mail durable and named before the mark moves) and one fsync commit for
    /// the mails and the mark's content together.
    pub fn queue_mailed(&self, mails: &[(String, Vec<u8>)], index: u64) -> Result<(), StoreError> {
        let dir = self.outbox_dir();
        let mut files = Vec::new();
        for (name, bytes) in mails {
            let out = dir.join(format!("{name}.eml"));
            let sent = self.sent_dir().join(format!("{name}.eml"));
            if out.exists() || sent.exists() {
                continue;
            }
            files.push((out, bytes.as_slice()));
        }
        let queued = files.len();
        let mark = format!("{index}\n");
        files.push((self.dir.join("mailed"), mark.as_bytes()));
        let staged = stage_files(&files, true)?;
        commit_staged(&staged[..queued])?;
        if queued > 0 {
            fsync_dir(&dir).map_err(io_err(&dir))?;
        }
        // The mark's rename may be lost in a crash (as with `set_mailed_upto`): the mails are
        // then derived again under the same names and skipped.
        commit_staged(&staged[queued..])
    }

    pub fn outbox(&self) -> Result<Vec<PathBuf>, StoreError> {
        list_files(&self.outbox_dir())
    }

    pub fn sent(&self) -> Result<Vec<PathBuf>, StoreError> {
        list_files(&self.sent_dir())
    }

    pub fn failed_dir(&self) -> PathBuf {
        self.dir.join("failed")
    }

    /// Moves an undeliverable mail to `failed/` with the reason beside it.
    pub fn mark_failed(&self, path: &Path, why: &str) -> Result<(), StoreError> {
        let dest = self.failed_dir();
        fs::create_dir_all(&dest).map_err(io_err(&dest))?;
        let name = path.file_name().unwrap_or_default();
        atomic_write(
            &dest.join(format!("{}.why", name.to_string_lossy())),
            why.as_bytes(),
        )?;
        fs::rename(path, dest.join(name)).map_err(io_err(path))?;
        let _ = fs::remove_file(retry_path(path));
        fsync_dir(&dest).map_err(io_err(&dest))?;
        Ok(())
    }

    /// The retry record of a queued mail (transient failures so far).
    pub fn retry_state(&self, path: &Path) -> Result<Option<RetryState>, StoreError> {
        let p = retry_path(path);
        match fs::read_to_string(&p) {
            Ok(s) => serde_json::from_str(&s)
                .map(Some)
                .map_err(|e| StoreError::Corrupt {
                    path: p,
                    detail: e.to_string(),
                }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::Io { path: p, source: e }),
        }
    }

    pub fn set_retry_state(&self, path: &Path, state: &RetryState) -> Result<(), StoreError> {
        atomic_write(
            &retry_path(path),
            serde_json::to_string(state).expect("json").as_bytes(),
        )
    }

    /// Marks a mail as being sent, without an fsync: within this boot the mark is seen by a
    /// restarted process (the page cache outlives it); should the machine go down, the
    /// durable `SendBatch` written before it (`begin_sending`) stands for it.
    pub fn set_in_flight(&self, path: &Path, state: &RetryState) -> Result<(), StoreError> {
        replace_file(
            &retry_path(path),
            serde_json::to_string(state).expect("json").as_bytes(),
            Durable::Cache,
        )
    }

    fn batch_path(&self) -> PathBuf {
        self.dir.join("sending.json")
    }

    /// Records, durably, the mails about to be sent from this store (file and directory fsynced:
    /// two fsyncs for the pass's whole batch instead of two per mail).
    pub fn begin_sending(&self, batch: &SendBatch) -> Result<(), StoreError> {
        atomic_write(
            &self.batch_path(),
            serde_json::to_string(batch).expect("json").as_bytes(),
        )
    }

    /// The last batch's record, if one is left (it is replaced atomically, so never torn: an
    /// unreadable one is damage, which stops this store's delivery and is told).
    pub fn sending(&self) -> Result<Option<SendBatch>, StoreError> {
        match fs::read(self.batch_path()) {
            Ok(b) => serde_json::from_slice(&b)
                .map(Some)
                .map_err(|e| StoreError::Corrupt {
                    path: self.batch_path(),
                    detail: e.to_string(),
                }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::Io {
                path: self.batch_path(),
                source: e,
            }),
        }
    }

    /// Ends a batch: `sent/` fsynced once for all its mails (each was renamed there as the
    /// server took it, `mark_sent_in_batch`), then its record removed. The removal is not
    /// fsynced: a record that comes back names mails that are all in `sent/` for good, or
    /// still queued with a retry record, and costs them at most a look for their copies.
    pub fn end_sending(&self) -> Result<(), StoreError> {
        let dest = self.sent_dir();
        if dest.exists() {
            fsync_dir(&dest).map_err(io_err(&dest))?;
        }
        match fs::remove_file(self.batch_path()) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => Err(StoreError::Io {
                path: self.batch_path(),
                source: e,
            }),
            _ => Ok(()),
        }
    }

    /// `mark_sent` inside a batch: the rename alone, `sent/` is fsynced once at its end
    /// (`end_sending`). Within this boot the rename is seen at once by a restarted process;
    /// should the machine go down before the fsync, the mail comes back to the outbox, and the
    /// batch record names it as maybe sent, so its copy is looked for before any resend.
    pub fn mark_sent_in_batch(&self, path: &Path) -> Result<(), StoreError> {
        let dest = self.sent_dir();
        fs::create_dir_all(&dest).map_err(io_err(&dest))?;
        let to = dest.join(path.file_name().unwrap_or_default());
        fs::rename(path, &to).map_err(io_err(path))?;
        let _ = fs::remove_file(retry_path(path));
        Ok(())
    }

    /// Moves a delivered mail from the outbox to `sent/` (kept for audit and `verify`).
    pub fn mark_sent(&self, path: &Path) -> Result<(), StoreError> {
        let dest = self.sent_dir();
        fs::create_dir_all(&dest).map_err(io_err(&dest))?;
        let to = dest.join(path.file_name().unwrap_or_default());
        // The rename comes first and alone: after the server said "sent", the shortest possible
        // window before the record says so too (a kill in between resends the same Message-ID).
        fs::rename(path, &to).map_err(io_err(path))?;
        let _ = fs::remove_file(retry_path(path));
        // Only `sent/` is fsynced: should a crash bring the outbox entry back too, delivery
        // finds the mail already in `sent/` and drops the outbox copy unsent.
        fsync_dir(&dest).map_err(io_err(&dest))?;
        Ok(())
    }

    /// Whether a queued mail is already recorded as sent (a crash brought back its outbox
    /// entry); if so, the outbox copy is removed.
    pub fn drop_if_sent(&self, path: &Path) -> Result<bool, StoreError> {
        let sent = self.sent_dir().join(path.file_name().unwrap_or_default());
        if !sent.exists() {
            return Ok(false);
        }
        fs::remove_file(path).map_err(io_err(path))?;
        let _ = fs::remove_file(retry_path(path));
        Ok(true)
    }
}

/// Transient delivery failures of one queued mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryState {
    pub attempts: u32,
    pub first_failure: chrono::DateTime<chrono::Utc>,
    pub next_try: chrono::DateTime<chrono::Utc>,
    pub last_error: String,
    /// Set just before a send and cleared by its outcome: still set after a restart means the
    /// daemon died mid-send, and the server may or may not have taken the mail.
    #[serde(default)]
    pub in_flight_since: Option<chrono::DateTime<chrono::Utc>>,
}

impl RetryState {
    /// The record of a mail about to be sent (or in doubt since `since`): its earlier failures
    /// kept, if any, and marked in flight.
    pub fn in_flight(
        prior: Option<Self>,
        now: chrono::DateTime<chrono::Utc>,
        since: chrono::DateTime<chrono::Utc>,
    ) -> Self {
        let mut r = prior.unwrap_or(Self {
            attempts: 0,
            first_failure: now,
            next_try: now,
            last_error: String::new(),
            in_flight_since: None,
        });
        r.in_flight_since = Some(since);
        r
    }
}

fn retry_path(mail: &Path) -> PathBuf {
    let mut p = mail.as_os_str().to_owned();
    p.push(".retry");
    PathBuf::from(p)
}

fn list_files(dir: &Path) -> Result<Vec<PathBuf>, StoreError> {
    if !dir.exists() {
        return Ok(vec![]);
    }
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io_err(dir))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    v.sort();
    Ok(v)
}
