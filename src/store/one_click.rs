//! Two small records of unsubscription kept beside the games (docs/club-rules.md L1, L2):
//! the one-click queue (`unsubscribe/<code>`, one empty file per code the web listener took,
//! removed by the daemon once carried out) and the addresses that wrote STOP to the house
//! (`quiet/`, by a hash of the address, never the address itself). Decides nothing: the
//! listener queues, the daemon carries out.

use std::fs;
use std::path::PathBuf;

use super::{DataDir, Durable, StoreError, io_err, replace_file};

/// At most this many codes wait in the queue: past it the listener refuses (503) rather than
/// let a stranger posting made-up codes fill the disk. Far more than a club's mail brings
/// between two passes of the daemon.
pub const MAX_QUEUED: usize = 1000;

/// Whether `code` is a one-click code as the mails carry it: 32 lower-case hex digits.
pub fn is_code(code: &str) -> bool {
    code.len() == 32
        && code
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl DataDir {
    fn unsubscribe_dir(&self) -> PathBuf {
        self.root.join("unsubscribe")
    }

    fn quiet_path(&self, address: &str) -> PathBuf {
        use sha2::{Digest, Sha256};
        let h = hex::encode(Sha256::digest(
            address.trim().to_ascii_lowercase().as_bytes(),
        ));
        self.root.join("quiet").join(&h[..32])
    }

    /// Queues a one-click code for the daemon's next pass: an empty file written to a
    /// temporary name, fsynced and renamed, so the daemon sees it whole or not at all. A code
    /// already queued stays queued once. `Ok(false)`: the queue is full, nothing queued.
    pub fn queue_unsubscribe(&self, code: &str) -> Result<bool, StoreError> {
        if !is_code(code) {
            return Ok(false);
        }
        let dir = self.unsubscribe_dir();
        let path = dir.join(code);
        if path.exists() {
            return Ok(true);
        }
        if self.queued_unsubscribes()?.len() >= MAX_QUEUED {
            return Ok(false);
        }
        replace_file(&path, b"", Durable::Fully)?;
        Ok(true)
    }

    /// The codes waiting, in name order (temporary files and anything not a code are left).
    pub fn queued_unsubscribes(&self) -> Result<Vec<String>, StoreError> {
        let dir = self.unsubscribe_dir();
        let entries = match fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
            Err(e) => return Err(io_err(&dir)(e)),
        };
        let mut codes: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| is_code(n))
            .collect();
        codes.sort();
        Ok(codes)
    }

    /// Takes a code off the queue once it has been carried out (or found to name no one).
    pub fn unqueue_unsubscribe(&self, code: &str) -> Result<(), StoreError> {
        let path = self.unsubscribe_dir().join(code);
        match fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_err(&path)(e)),
            _ => Ok(()),
        }
    }

    /// Whether `address` wrote STOP to the house address (ruling L2).
    pub fn is_quiet(&self, address: &str) -> bool {
        self.quiet_path(address).exists()
    }

    /// Records that `address` wrote STOP to the house address (ruling L2). Durable: a crash
    /// must not bring back the mails it turned off.
    pub fn set_quiet(&self, address: &str) -> Result<(), StoreError> {
        replace_file(&self.quiet_path(address), b"", Durable::Fully)
    }
}
