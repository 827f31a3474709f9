//! The due index in a running daemon (issue 32 point 4; `store::index`): what a process knows
//! of its games between passes, read once at its first pass, kept up to date as games close,
//! and written back every few minutes. It decides which games a pass opens; it opens none,
//! and it never decides anything about a game.

use std::collections::BTreeSet;
use std::sync::atomic::Ordering;

use anyhow::Result;
use chrono::{DateTime, Utc};
use tracing::warn;

use crate::store::{DueIndex, StoredIndex};

use super::Daemon;
use super::open_game::OpenGame;

/// What the daemon knows of its games between passes: the due index, and the games that must
/// be opened at every pass until they are at rest (changed, failing, or not yet settled).
#[derive(Default)]
pub(super) struct DueState {
    index: DueIndex,
    busy: std::collections::BTreeSet<String>,
    /// Games at rest whose change marks wait for the stored index to record them: a mark is
    /// cleared only after that write (`end_due_pass`), so a restart that trusts the stored
    /// index still opens every game changed since.
    settled: std::collections::BTreeSet<String>,
    /// Entries changed since the index was last written, and when that was. The stored index
    /// serves only a restart, so it is written at most every few minutes (or after many
    /// changes), not after every mail; until then the change marks stay.
    unsaved: usize,
    saved_at: Option<DateTime<Utc>>,
}

/// How often the due index is written while entries change, and after how many changes at most.
const INDEX_SAVE_EVERY: chrono::Duration = chrono::Duration::minutes(5);
const INDEX_SAVE_AFTER: usize = 256;

impl Daemon {
    pub(super) fn due_state(&self) -> std::sync::MutexGuard<'_, Option<DueState>> {
        self.due.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The first pass of a process reads the stored index (see `first_due_state`); every pass
    /// adds the changed games: a marked game is opened unless the index records it at rest at
    /// its journal's present length (a mark that waits for the index write).
    pub(super) fn begin_due_pass(&self) -> Result<()> {
        let mut guard = self.due_state();
        let first_trusted = match guard.as_ref() {
            Some(_) => false,
            None => {
                let (st, trusted) = self.first_due_state()?;
                *guard = Some(st);
                trusted
            }
        };
        let st = guard.as_mut().expect("made above");
        for game in self.data.dirty_games()? {
            let Some(n) = self.data.journal_bytes(&game)? else {
                self.data.clear_dirty(&game)?;
                continue;
            };
            if first_trusted {
                // A machine crash may have lost its pending marker (made without an fsync
                // while this mark stood): its outbox is visited once.
                self.data.mark_pending(&game)?;
            }
            let recorded = st.index.games.get(&game).is_some_and(|e| e.fits(n));
            if recorded && !st.busy.contains(&game) {
                st.settled.insert(game);
            } else {
                st.settled.remove(&game);
                st.busy.insert(game);
            }
        }
        Ok(())
    }

    /// What a process knows before its first pass, and whether the stored index was trusted.
    /// Trusted (written whole by a version that keeps change marks until the write): no
    /// journal is looked at, the marks name the games changed since; the games folder is listed
    /// (to drop entries of games gone and open the games the index does not know) only when
    /// its stamp differs from the one the index was written with — a game folder added or
    /// removed since, by `despatch new` or by hand. Otherwise (missing, damaged, earlier form)
    /// every journal's length is checked, every outbox is visited by the first delivery, and
    /// the index is written anew at the end of the pass.
    fn first_due_state(&self) -> Result<(DueState, bool)> {
        let (mut index, trusted) = match self.data.due_index() {
            StoredIndex::Trusted(ix) => (ix, true),
            StoredIndex::Unchecked(ix) => (ix, false),
            StoredIndex::Missing => (DueIndex::default(), false),
        };
        let (stored, stored_stamp) = (index.games.len(), index.games_folder.take());
        // Taken before any listing: a change after it changes the folder's stamp.
        let stamp = self.data.games_folder_stamp();
        let mut busy = BTreeSet::new();
        if trusted {
            if stamp.is_none() || stamp != stored_stamp {
                for id in self.games_unknown_to(&mut index, &busy)? {
                    // Unknown to the index (copied in by hand, say): opened, outbox visited.
                    self.data.mark_pending(&id)?;
                    busy.insert(id);
                }
            }
            self.delivered_once.store(true, Ordering::Relaxed);
        } else {
            let lengths: std::collections::BTreeMap<String, u64> =
                self.data.game_journals()?.into_iter().collect();
            index
                .games
                .retain(|id, e| lengths.get(id).is_some_and(|n| e.fits(*n)));
            busy = lengths
                .keys()
                .filter(|id| !index.games.contains_key(*id))
                .cloned()
                .collect();
        }
        index.games_folder = stamp;
        let changed = index.games.len() != stored || index.games_folder != stored_stamp;
        let st = DueState {
            // An untrusted index is rewritten in the trusted form even when nothing changed.
            unsaved: usize::from(!trusted || changed),
            index,
            busy,
            settled: Default::default(),
            saved_at: None,
        };
        Ok((st, trusted))
    }

    /// Lists the games folder: drops the entries of games gone from `index`, and returns the
    /// games with a journal that neither `index` nor `busy` knows.
    fn games_unknown_to(
        &self,
        index: &mut DueIndex,
        busy: &BTreeSet<String>,
    ) -> Result<Vec<String>> {
        let names: BTreeSet<String> = self.data.game_names()?.into_iter().collect();
        index.games.retain(|id, _| names.contains(id));
        let mut unknown = vec![];
        for id in names {
            if !index.games.contains_key(&id)
                && !busy.contains(&id)
                && self.data.journal_bytes(&id)?.is_some()
            {
                unknown.push(id);
            }
        }
        Ok(unknown)
    }

    /// Before the index is written: the games folder's stamp brought up to date, so that the
    /// next process need not list the folder. When the folder changed since the stamp kept
    /// (a game made, by this process or another, or one added or removed by hand), it is
    /// listed again now, a few minutes at most after the change: games unknown are opened at
    /// the next pass, entries of games gone dropped. A listing that fails leaves no stamp.
    fn restamp(&self, st: &mut DueState) {
        let stamp = self.data.games_folder_stamp();
        if stamp.is_some() && stamp == st.index.games_folder {
            return;
        }
        match self.games_unknown_to(&mut st.index, &st.busy) {
            Ok(unknown) => {
                for id in unknown {
                    if let Err(e) = self.data.mark_pending(&id) {
                        warn!("cannot mark {id} as having mail queued: {e}");
                    }
                    st.settled.remove(&id);
                    st.busy.insert(id);
                }
                st.index.games_folder = stamp;
            }
            Err(e) => {
                warn!("cannot list the games folder: {e:#}");
                st.index.games_folder = None;
            }
        }
    }

    /// The games to open now: busy ones and those whose due time has come.
    pub(super) fn games_with_work(&self, now: DateTime<Utc>) -> Vec<String> {
        let guard = self.due_state();
        let Some(st) = guard.as_ref() else {
            return vec![];
        };
        let mut out: std::collections::BTreeSet<String> = st.busy.clone();
        out.extend(
            st.index
                .games
                .iter()
                .filter(|(_, e)| e.due_by(now))
                .map(|(id, _)| id.clone()),
        );
        out.into_iter().collect()
    }

    /// Writes the index when it is due (see `INDEX_SAVE_EVERY`); once the stored index is the
    /// one kept here, clears the change marks of the games it records at rest at their
    /// journals' present length. A mark outlives a failed or postponed write, so a restart
    /// opens the game; failures are logged, not raised.
    pub(super) fn end_due_pass(&self, now: DateTime<Utc>) {
        let mut guard = self.due_state();
        let Some(st) = guard.as_mut() else { return };
        let due = st.saved_at.is_none_or(|t| now - t >= INDEX_SAVE_EVERY)
            || st.unsaved >= INDEX_SAVE_AFTER;
        if st.unsaved > 0 && due {
            self.restamp(st);
            match self.data.write_due_index(&st.index) {
                Ok(()) => {
                    st.unsaved = 0;
                    st.saved_at = Some(now);
                }
                Err(e) => warn!("cannot write the due index: {e}"),
            }
        }
        if st.unsaved > 0 {
            return;
        }
        for game in std::mem::take(&mut st.settled) {
            let entry = st.index.games.get(&game);
            match self.data.journal_bytes(&game) {
                Ok(Some(n)) if entry.is_some_and(|e| e.fits(n)) => {}
                // Changed since it was settled, or gone: the next pass looks again.
                Ok(_) => continue,
                Err(e) => {
                    warn!("cannot look at the journal of {game}: {e}");
                    continue;
                }
            }
            if let Err(e) = self.data.clear_dirty(&game) {
                warn!("cannot clear the change mark of {game}: {e}");
            }
        }
    }

    /// Records a game closed by this process: at rest, its entry (nothing to do until
    /// `next_due`); not at rest, it stays busy and is opened again.
    pub(crate) fn note_closed(&self, g: &OpenGame) {
        let mut guard = self.due_state();
        let Some(st) = guard.as_mut() else { return };
        let id = g.store.id.clone();
        let entry = g.game.at_rest().then(|| crate::store::DueEntry {
            ruleset: g.game.ruleset().to_string(),
            journal_bytes: g.store.journal_len(),
            next_due: g.game.next_due(),
        });
        if st.index.games.get(&id) != entry.as_ref() {
            st.unsaved += 1;
        }
        match entry {
            Some(e) => {
                st.index.games.insert(id.clone(), e);
                st.busy.remove(&id);
                st.settled.insert(id);
            }
            None => {
                st.index.games.remove(&id);
                st.settled.remove(&id);
                st.busy.insert(id);
            }
        }
    }

    /// A game that failed is tried again at every pass, as before the index.
    pub(super) fn note_failed(&self, game: &str) {
        if let Some(st) = self.due_state().as_mut() {
            st.busy.insert(game.to_string());
            st.settled.remove(game);
        }
    }
}
