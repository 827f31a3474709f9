//! The due index (`due.index`): for every game, its ruleset, the journal length it was written
//! at and the next moment its clock may make something due, so a pass opens only the games that
//! have work and not every game stored. A cache: an entry counts only while the game's journal
//! still has the recorded length, and a missing or damaged file is rebuilt by opening every
//! game once. It decides nothing (the engine computes `next_due`) and reads no clock. The
//! pending-mail markers (`pending/<game>`) are the outbox's equivalent: delivery visits the
//! games with a marker, not every outbox. Change markers (`dirty/<game>`, made durable before
//! any journal append) tell a running daemon which games changed, so a pass needs neither the
//! whole folder listing nor a `stat` per game; the first pass of a process checks every
//! journal's length once.

use std::collections::BTreeMap;
use std::fs;

use chrono::{DateTime, Utc};

use super::{DataDir, StoreError, io_err};

const HEADER: &str = "despatch due index 1";

/// What the index knows of one settled game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueEntry {
    pub ruleset: String,
    /// The journal's length in bytes when the game was last settled.
    pub journal_bytes: u64,
    /// The earliest moment the clock may make something due; `None`: only mail or the
    /// organiser moves the game.
    pub next_due: Option<DateTime<Utc>>,
}

impl DueEntry {
    /// Whether the entry still describes a game whose journal is `journal_bytes` long.
    pub fn fits(&self, journal_bytes: u64) -> bool {
        self.journal_bytes == journal_bytes
    }

    /// Whether the clock has made something due by `now`.
    pub fn due_by(&self, now: DateTime<Utc>) -> bool {
        self.next_due.is_some_and(|t| t <= now)
    }
}

/// The whole index, read once a pass and written once when it changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DueIndex {
    pub games: BTreeMap<String, DueEntry>,
}

impl DueIndex {
    fn parse(text: &str) -> Option<Self> {
        let mut lines = text.lines();
        if lines.next()? != HEADER {
            return None;
        }
        let mut games = BTreeMap::new();
        for line in lines {
            let mut f = line.split('\t');
            let (id, ruleset, bytes, due) = (f.next()?, f.next()?, f.next()?, f.next()?);
            if f.next().is_some() {
                return None;
            }
            let next_due = match due {
                "-" => None,
                t => Some(DateTime::parse_from_rfc3339(t).ok()?.with_timezone(&Utc)),
            };
            games.insert(
                id.to_string(),
                DueEntry {
                    ruleset: ruleset.to_string(),
                    journal_bytes: bytes.parse().ok()?,
                    next_due,
                },
            );
        }
        Some(DueIndex { games })
    }

    fn print(&self) -> String {
        let mut out = format!("{HEADER}\n");
        for (id, e) in &self.games {
            let due = e.next_due.map_or("-".to_string(), |t| t.to_rfc3339());
            out.push_str(&format!(
                "{id}\t{}\t{}\t{due}\n",
                e.ruleset, e.journal_bytes
            ));
        }
        out
    }
}

impl super::GameStore {
    /// `dirty/<game>` beside `games/`, for a game store under `games/`.
    fn dirty_marker(&self) -> Option<std::path::PathBuf> {
        let games = self.dir.parent()?;
        if games.file_name()? != "games" {
            return None;
        }
        Some(games.parent()?.join("dirty").join(&self.id))
    }

    /// Marks the game as changed since a pass last settled it (see `DataDir::dirty_games`).
    pub(crate) fn mark_dirty(&self) -> Result<(), StoreError> {
        let Some(p) = self.dirty_marker() else {
            return Ok(());
        };
        if p.exists() {
            return Ok(());
        }
        let dir = p.parent().expect("dirty/ has a parent");
        fs::create_dir_all(dir).map_err(io_err(dir))?;
        fs::write(&p, b"").map_err(io_err(&p))?;
        super::fsync_dir(dir).map_err(io_err(dir))
    }
}

impl DataDir {
    /// The games changed (journal appended) since a pass last settled them.
    pub fn dirty_games(&self) -> Result<Vec<String>, StoreError> {
        self.marked("dirty")
    }

    /// Clears a game's change mark once a pass has settled it and recorded it in the index.
    /// Not fsynced: a mark that survives a crash only costs opening the game once more.
    pub fn clear_dirty(&self, game: &str) -> Result<(), StoreError> {
        let p = self.root.join("dirty").join(game);
        match fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(StoreError::Io { path: p, source: e }),
        }
    }

    fn index_path(&self) -> std::path::PathBuf {
        self.root.join("due.index")
    }

    /// The index as last written; empty when missing or damaged (every game is then opened
    /// once and the index rebuilt).
    pub fn due_index(&self) -> DueIndex {
        fs::read_to_string(self.index_path())
            .ok()
            .and_then(|t| DueIndex::parse(&t))
            .unwrap_or_default()
    }

    /// Replaces the index. Not fsynced: it is a cache checked against the journals, and a lost
    /// write costs one pass that opens the games it forgot.
    pub fn write_due_index(&self, index: &DueIndex) -> Result<(), StoreError> {
        let path = self.index_path();
        let tmp = self.root.join(".due.index.tmp");
        fs::write(&tmp, index.print()).map_err(io_err(&tmp))?;
        fs::rename(&tmp, &path).map_err(io_err(&path))
    }

    /// The games, each with its journal's length (one `stat` each).
    pub fn game_journals(&self) -> Result<Vec<(String, u64)>, StoreError> {
        let dir = self.games_dir();
        if !dir.exists() {
            return Ok(vec![]);
        }
        let mut out: Vec<(String, u64)> = fs::read_dir(&dir)
            .map_err(io_err(&dir))?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let len = fs::metadata(e.path().join("journal.jsonl")).ok()?.len();
                Some((e.file_name().to_string_lossy().into_owned(), len))
            })
            .collect();
        out.sort();
        Ok(out)
    }

    /// Marks a game as having mail queued; set before the mail is queued, so a queued mail is
    /// never without its marker. Not fsynced: the markers guide a running daemon only, and the
    /// first delivery of every process visits every game's outbox, so a marker a crash of the
    /// machine loses costs nothing.
    pub fn mark_pending(&self, game: &str) -> Result<(), StoreError> {
        let dir = self.root.join("pending");
        let p = dir.join(game);
        if p.exists() {
            return Ok(());
        }
        fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        fs::write(&p, b"").map_err(io_err(&p))
    }

    /// The games marked as having mail queued.
    pub fn pending_games(&self) -> Result<Vec<String>, StoreError> {
        self.marked("pending")
    }

    /// The names in a folder of empty marker files (none if it does not exist).
    fn marked(&self, folder: &str) -> Result<Vec<String>, StoreError> {
        let dir = self.root.join(folder);
        match fs::read_dir(&dir) {
            Ok(rd) => {
                let mut ids: Vec<String> = rd
                    .filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| !n.starts_with('.'))
                    .collect();
                ids.sort();
                Ok(ids)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(vec![]),
            Err(e) => Err(StoreError::Io {
                path: dir,
                source: e,
            }),
        }
    }

    /// Clears a game's marker once its outbox is empty.
    pub fn clear_pending(&self, game: &str) -> Result<(), StoreError> {
        let p = self.root.join("pending").join(game);
        match fs::remove_file(&p) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(StoreError::Io { path: p, source: e }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn an_index_prints_and_parses_back() {
        let mut ix = DueIndex::default();
        ix.games.insert(
            "club-1".into(),
            DueEntry {
                ruleset: "naval-rjw".into(),
                journal_bytes: 1234,
                next_due: Some(Utc.with_ymd_and_hms(2026, 11, 26, 18, 0, 0).unwrap()),
            },
        );
        ix.games.insert(
            "club-2".into(),
            DueEntry {
                ruleset: "gear-krieg".into(),
                journal_bytes: 9,
                next_due: None,
            },
        );
        assert_eq!(DueIndex::parse(&ix.print()), Some(ix));
    }

    #[test]
    fn a_damaged_index_is_refused_whole() {
        assert_eq!(DueIndex::parse("something else\n"), None);
        assert_eq!(
            DueIndex::parse(&format!("{HEADER}\nx\tnaval\tten\t-\n")),
            None
        );
        assert_eq!(DueIndex::parse(&format!("{HEADER}\nx\tnaval\t10\n")), None);
        assert_eq!(
            DueIndex::parse(&format!("{HEADER}\nx\tnaval\t10\tsoon\n")),
            None
        );
    }

    #[test]
    fn an_entry_is_idle_only_at_its_journal_length_and_before_its_due_time() {
        let t = Utc.with_ymd_and_hms(2026, 11, 26, 18, 0, 0).unwrap();
        let e = DueEntry {
            ruleset: "naval-rjw".into(),
            journal_bytes: 100,
            next_due: Some(t),
        };
        let before = t - chrono::Duration::seconds(1);
        assert!(e.fits(100) && !e.due_by(before));
        assert!(e.fits(100) && e.due_by(t));
        assert!(!e.fits(101));
    }
}
