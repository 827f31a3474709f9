//! The IMAP cursor: which messages of the folder have had their effects stored (by UID, within
//! a UIDVALIDITY), so each is processed once and only then filed; and whether our own mailbox
//! holds the copy of a mail we sent (the receipt that a crash mid-send needs).

use std::sync::Mutex;
use std::time::Instant;

use anyhow::Result;
use chrono::{DateTime, Utc};
use tracing::{debug, warn};

use crate::mail::imap::{Filing, ImapInbox};

use crate::store::held_key;

use super::held::HeldBook;
use super::{Daemon, Intake, Pass};

/// Milliseconds since `t`, for the debug log's timings.
pub(super) fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

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
    /// Copies of our own mail are filed last, together: they have no effects, and an order that
    /// came in with them should not wait behind them. A message that must wait or fails is held
    /// locally (`held`: that copy is the one read again) before `last_uid` passes it, and the
    /// server's copy is filed in `imap.held_folder`, an archive Despatch never reads again.
    pub(super) fn imap_pass(
        &self,
        inbox: &Mutex<ImapInbox>,
        book: &mut HeldBook,
        now: DateTime<Utc>,
        pass: &mut Pass,
    ) -> Result<()> {
        let mut imap = inbox.lock().unwrap_or_else(|e| e.into_inner());
        let started = Instant::now();
        let waiting = match imap.waiting(self.cfg.mail.max_message_bytes) {
            Ok(w) => {
                self.note_imap(Ok(()));
                if !w.is_empty() {
                    debug!(mails = w.len(), fetch_ms = ms(started), "folder read");
                }
                w
            }
            Err(e) => {
                self.note_imap(Err(&e.to_string()));
                return Ok(());
            }
        };
        let mut state = valid_state(self.imap_state(), imap.uid_validity().unwrap_or(0));
        // Our own copies need no state: one read again after a crash is known by its sender.
        let (copies, mail): (Vec<_>, Vec<_>) = waiting
            .into_iter()
            .partition(|w| w.bytes.as_deref().is_some_and(|b| self.is_own_copy(b)));
        for w in mail {
            if w.uid <= state.last_uid {
                // Stored before a crash or a lost connection; only the move is left to do.
                if !self.file_mail(&mut imap, &[w.uid], Filing::Processed) {
                    return Ok(());
                }
                continue;
            }
            let started = Instant::now();
            let source = format!("imap:{}:{}", state.uid_validity, w.uid);
            let (outcome, kept) = match &w.bytes {
                // A failure is held with this message alone; the folder goes on.
                Some(bytes) => {
                    let o = self.take_mail(book, bytes, &source, now)?;
                    (o, book.holds(&held_key(bytes)))
                }
                None => {
                    warn!(
                        uid = w.uid,
                        bytes = w.size,
                        "message larger than max_message_bytes set aside"
                    );
                    (Intake::Unreadable("too large".into()), false)
                }
            };
            let filing = if kept {
                Filing::Held
            } else if matches!(outcome, Intake::Unreadable(_) | Intake::Failed(_)) {
                // Not kept here (unreadable, or the held folder full): the server's copy is
                // the only one.
                Filing::Quarantine
            } else {
                Filing::Processed
            };
            pass.processed.push(outcome);
            debug!(uid = w.uid, ingest_ms = ms(started), "mail stored");
            // The state and the move per mail, before anything else: a daemon killed again and
            // again still gets past one mail each time it runs (its answers are delivered at the
            // end of the pass, from the durable queue).
            state.last_uid = w.uid;
            // Replaced atomically but not fsynced (issue 32 point 5: two fsyncs a mail). The
            // state only spares a re-read: a machine crash that loses it leaves this mail in
            // the folder with its effects stored, which is what a crash one step earlier
            // (before this write) leaves too, and intake decides such a mail again to the same
            // answer (the journal's Message-IDs, the drafts' deterministic names). A killed
            // process sees the write, fsynced or not. The crash tests check both.
            crate::store::replace_file(
                &self.imap_state_path(),
                serde_json::to_string(&state)?.as_bytes(),
                crate::store::Durable::Cache,
            )?;
            super::crash::crash_point("imap-state");
            if !self.file_mail(&mut imap, &[w.uid], filing) {
                return Ok(());
            }
        }
        let copies: Vec<u32> = copies.iter().map(|w| w.uid).collect();
        if !copies.is_empty() {
            self.file_mail(&mut imap, &copies, Filing::Sent);
        }
        Ok(())
    }

    /// Files messages away; false (and the outage noted) when IMAP failed, which ends the pass.
    fn file_mail(&self, imap: &mut ImapInbox, uids: &[u32], to: Filing) -> bool {
        let started = Instant::now();
        match imap.file(uids, to) {
            Ok(()) => {
                debug!(mails = uids.len(), filing = ?to, file_ms = ms(started), "mail filed");
                true
            }
            Err(e) => {
                self.note_imap(Err(&e.to_string()));
                false
            }
        }
    }
}

/// The folder's state as kept, or a fresh one when the folder's UIDVALIDITY is not the one
/// the state was kept for (its UIDs then mean nothing: Message-IDs recognise mail read).
fn valid_state(state: ImapState, validity: u32) -> ImapState {
    if state.uid_validity == validity {
        return state;
    }
    if state.uid_validity != 0 {
        warn!(
            old = state.uid_validity,
            new = validity,
            "IMAP UIDVALIDITY changed; relying on Message-IDs"
        );
    }
    ImapState {
        uid_validity: validity,
        last_uid: 0,
    }
}
