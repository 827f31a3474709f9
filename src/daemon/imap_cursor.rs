//! The IMAP cursor: which messages of the folder have had their effects stored (by UID, within
//! a UIDVALIDITY), so each is processed once and only then filed; and whether our own mailbox
//! holds the copy of a mail we sent (the receipt that a crash mid-send needs).

use std::sync::Mutex;

use anyhow::Result;
use chrono::{DateTime, Utc};
use tracing::warn;

use crate::mail::imap::{Filing, ImapInbox};

use super::{Daemon, Intake, Pass};

/// What the daemon remembers of the IMAP folder between runs.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct ImapState {
    uid_validity: u32,
    /// Highest UID whose effects are stored; such a message still in the folder is only filed.
    last_uid: u32,
}

impl Daemon {
    /// Whether our own mailbox holds a message: `None` when IMAP cannot tell right now.
    pub(super) fn imap_holds(&self, message_id: &str) -> Option<bool> {
        let imap = self.imap.as_ref()?;
        let mut imap = imap.lock().unwrap_or_else(|e| e.into_inner());
        match imap.holds(message_id) {
            Ok(b) => Some(b),
            Err(e) => {
                self.note_imap(Err(&e.to_string()));
                None
            }
        }
    }

    /// A copy of a mail Despatch itself sent (`smtp.self_copy`): filed, never read as orders.
    fn is_own_copy(&self, bytes: &[u8]) -> bool {
        mail_parser::MessageParser::default()
            .parse(bytes)
            .and_then(|m| {
                m.from()?
                    .first()?
                    .address()
                    .map(|a| a.eq_ignore_ascii_case(&self.cfg.mail.address))
            })
            .unwrap_or(false)
    }

    fn imap_state_path(&self) -> std::path::PathBuf {
        self.data.root.join("imap-state.json")
    }

    fn imap_state(&self) -> ImapState {
        std::fs::read(self.imap_state_path())
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default()
    }

    /// Reads the IMAP folder: each message is processed, its effects stored, and only then filed.
    pub(super) fn imap_pass(
        &self,
        imap: &Mutex<ImapInbox>,
        now: DateTime<Utc>,
        pass: &mut Pass,
    ) -> Result<()> {
        let mut imap = imap.lock().unwrap_or_else(|e| e.into_inner());
        let waiting = match imap.waiting(self.cfg.mail.max_message_bytes) {
            Ok(w) => {
                self.note_imap(Ok(()));
                w
            }
            Err(e) => {
                self.note_imap(Err(&e.to_string()));
                return Ok(());
            }
        };
        let mut state = self.imap_state();
        let validity = imap.uid_validity().unwrap_or(0);
        if state.uid_validity != validity {
            if state.uid_validity != 0 {
                warn!(
                    old = state.uid_validity,
                    new = validity,
                    "IMAP UIDVALIDITY changed; relying on Message-IDs"
                );
            }
            state = ImapState {
                uid_validity: validity,
                last_uid: 0,
            };
        }
        for w in waiting {
            let filing = if w.uid <= state.last_uid {
                // Stored before a crash or a lost connection; only the move is left to do.
                if w.bytes.as_deref().is_some_and(|b| self.is_own_copy(b)) {
                    Filing::Sent
                } else {
                    Filing::Processed
                }
            } else if w.bytes.as_deref().is_some_and(|b| self.is_own_copy(b)) {
                state.last_uid = w.uid;
                crate::store::atomic_write(
                    &self.imap_state_path(),
                    serde_json::to_string(&state)?.as_bytes(),
                )?;
                Filing::Sent
            } else {
                let outcome = match &w.bytes {
                    Some(bytes) => match self.ingest_locked(bytes, now) {
                        Ok(o) => o,
                        Err(e) => {
                            // This message alone is set aside; the folder goes on.
                            let entry = crate::mail::maildir::Entry {
                                id: format!("imap-{}-{}", state.uid_validity, w.uid),
                                path: std::path::PathBuf::new(),
                            };
                            self.quarantine(&entry, Some(bytes), &e, now)?;
                            Intake::Failed(format!("{e:#}"))
                        }
                    },
                    None => {
                        warn!(
                            uid = w.uid,
                            bytes = w.size,
                            "message larger than max_message_bytes set aside"
                        );
                        Intake::Unreadable("too large".into())
                    }
                };
                let filing = if matches!(outcome, Intake::Unreadable(_) | Intake::Failed(_)) {
                    Filing::Quarantine
                } else {
                    Filing::Processed
                };
                pass.processed.push(outcome);
                state.last_uid = w.uid;
                crate::store::atomic_write(
                    &self.imap_state_path(),
                    serde_json::to_string(&state)?.as_bytes(),
                )?;
                filing
            };
            if let Err(e) = imap.file(w.uid, filing) {
                self.note_imap(Err(&e.to_string()));
                return Ok(());
            }
        }
        Ok(())
    }
}
