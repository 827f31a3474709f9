//! The due index (`due.index`): for every game, its ruleset, the journal length it was written
//! at and the next moment its clock may make something due, so a pass opens only the games that
//! have work and not every game stored. It decides nothing (the engine computes `next_due`) and
//! reads no clock. Change markers (`dirty/<game>`, made durable before any journal append) say
//! which games may differ from the stored index: a mark is cleared only after an index that
//! records the game settled has been written durably, so the stored index and the marks
//! together can only over-report, and the first pass of a process trusts them (it stats no
//! journal, and lists the games folder only when the folder's modification time differs from
//! the stamp the index was written with: a game folder added or removed since). The pending-mail markers (`pending/<game>`) are the
//! outbox's equivalent: delivery visits the games with a marker, not every outbox; a marker is
//! durable before its mail is queued, or covered by the game's change mark until the index
//! write, which makes `pending/` durable first. An index that is missing, damaged (its
//! checksum line says so), or written by a version that cleared marks before writing it is
//! not trusted: every journal's length is checked and every outbox visited, once.

use std::collections::BTreeMap;
use std::fs;

use chrono::{DateTime, Utc};

use super::{DataDir, StoreError, io_err};

const HEADER: &str = "despatch due index 3";
/// The form before the games folder's stamp: trusted, but the games folder is listed once.
const HEADER_UNSTAMPED: &str = "despatch due index 2";
/// The first line of a stamped index's body: the games folder's modification time when a
/// listing last agreed with the index (`DataDir::games_folder_stamp`), or `-`.
const FOLDER: &str = "games-folder";
/// An index written while change marks were cleared before it: possibly older than the marks
/// say, so each of its entries is checked against its journal's length.
const HEADER_UNCHECKED: &str = "despatch due index 1";

/// The stored index, and how far it may be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredIndex {
    /// Whole (its checksum agrees) and written under the rule that marks outlive the write: an
    /// entry is right unless the game has a change mark (or is missing from the games folder).
    Trusted(DueIndex),
    /// Written by an earlier version: an entry counts only while its journal has its length.
    Unchecked(DueIndex),
    /// Missing or damaged: every game is opened once and the index rebuilt.
    Missing,
}

/// FNV-1a over the entries, so that a damaged line that still parses (a digit changed) is
/// noticed; not a defence against anyone writing the file on purpose.
fn checksum(body: &str) -> u64 {
    body.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

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
    /// The games folder's stamp (`DataDir::games_folder_stamp`) taken just before a listing of
    /// the folder that the entries and the change marks account for: while the folder still
    /// has it, no game was added or removed since, so a restart need not list the folder.
    /// `None`: list it.
    pub games_folder: Option<String>,
}

impl DueIndex {
    /// Reads a stored index: the current form (entries, then `end`, their count and checksum),
    /// or the earlier form (entries only), which is returned unchecked.
    fn read(text: &str) -> StoredIndex {
        let parsed = text.split_once('\n').and_then(|(head, rest)| match head {
            HEADER => {
                let (body, end) = Self::split_end(rest)?;
                let (first, lines) = body.split_once('\n')?;
                let stamp = first.strip_prefix(FOLDER)?.strip_prefix('\t')?;
                let mut index = Self::entries(lines)?;
                index.games_folder = match stamp {
                    "-" => None,
                    t if is_stamp(t) => Some(t.to_string()),
                    _ => return None,
                };
                Self::end_agrees(end, index.games.len(), body)
                    .then_some(StoredIndex::Trusted(index))
            }
            HEADER_UNSTAMPED => {
                let (body, end) = Self::split_end(rest)?;
                let index = Self::entries(body)?;
                Self::end_agrees(end, index.games.len(), body)
                    .then_some(StoredIndex::Trusted(index))
            }
            HEADER_UNCHECKED => Some(StoredIndex::Unchecked(Self::entries(rest)?)),
            _ => None,
        });
        parsed.unwrap_or(StoredIndex::Missing)
    }

    /// The body of a checksummed form and its last line.
    fn split_end(rest: &str) -> Option<(&str, &str)> {
        let last = rest.strip_suffix('\n')?;
        Some(match last.rfind('\n') {
            Some(i) => (&rest[..=i], &last[i + 1..]),
            None => ("", last),
        })
    }

    /// Whether the `end` line (the count of entries, the checksum of the body) agrees.
    fn end_agrees(end: &str, entries: usize, body: &str) -> bool {
        let sum = format!("{:016x}", checksum(body));
        let mut f = end.split('\t');
        f.next() == Some("end")
            && f.next().and_then(|n| n.parse::<usize>().ok()) == Some(entries)
            && f.next() == Some(sum.as_str())
            && f.next().is_none()
    }

    fn entries(body: &str) -> Option<Self> {
        let mut games = BTreeMap::new();
        for line in body.lines() {
            let mut f = line.split('\t');
            let (id, ruleset, bytes, due) = (f.next()?, f.next()?, f.next()?, f.next()?);
            if f.next().is_some() {
                return None;
            }
            let next_due = match due {
                "-" => None,
                t => Some(DateTime::parse_from_rfc3339(t).ok()?.with_timezone(&Utc)),
            };
            let entry = DueEntry {
                ruleset: ruleset.to_string(),
                journal_bytes: bytes.parse().ok()?,
                next_due,
            };
            if games.insert(id.to_string(), entry).is_some() {
                return None;
            }
        }
        Some(DueIndex {
            games,
            games_folder: None,
        })
    }

    fn print(&self) -> String {
        let stamp = self.games_folder.as_deref().unwrap_or("-");
        let mut body = format!("{FOLDER}\t{stamp}\n");
        for (id, e) in &self.games {
            let due = e.next_due.map_or("-".to_string(), |t| t.to_rfc3339());
            body.push_str(&format!(
                "{id}\t{}\t{}\t{due}\n",
                e.ruleset, e.journal_bytes
            ));
        }
        format!(
            "{HEADER}\n{body}end\t{}\t{:016x}\n",
            self.games.len(),
            checksum(&body)
        )
    }
}

/// `<seconds>.<nanoseconds>` since the epoch, as `games_folder_stamp` writes it.
fn is_stamp(t: &str) -> bool {
    t.split_once('.').is_some_and(|(s, n)| {
        !s.is_empty() && n.len() == 9 && s.bytes().chain(n.bytes()).all(|b| b.is_ascii_digit())
    })
}

/// How old the games folder's last change must be before its time is taken as a stamp: a file
/// system keeps times at a coarse grain (a few milliseconds), so a change made in the same
/// grain as the listing would leave the time unchanged; two seconds later it cannot.
const STAMP_SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

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

    /// Clears a game's change mark. Only once the stored index records the game settled at
    /// its journal's present length (see the module's note): a mark cleared earlier could hide
    /// a change from the next process. Not fsynced: a mark that comes back costs one opening.
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

    /// The index as last written, and how far it may be trusted.
    pub fn due_index(&self) -> StoredIndex {
        fs::read_to_string(self.index_path()).map_or(StoredIndex::Missing, |t| DueIndex::read(&t))
    }

    /// Replaces the index, durably, after making the pending-mail markers durable: the caller
    /// clears change marks next, and those marks covered the markers made without an fsync
    /// (see `mark_pending`). Called at most every few minutes by a running daemon.
    pub fn write_due_index(&self, index: &DueIndex) -> Result<(), StoreError> {
        let pending = self.root.join("pending");
        if pending.is_dir() {
            super::fsync_dir(&pending).map_err(io_err(&pending))?;
        }
        super::atomic_write(&self.index_path(), index.print().as_bytes())
    }

    /// The names in the games folder: one directory listing, no `stat` (a folder without a
    /// journal is among them; see `journal_bytes`).
    pub fn game_names(&self) -> Result<Vec<String>, StoreError> {
        self.marked("games")
    }

    /// The games folder's modification time, as a stamp for the index, taken before a listing:
    /// a game folder added or removed later changes it. `None` when the folder is missing or
    /// its last change is too recent (`STAMP_SETTLED`) to tell a later change from it.
    pub fn games_folder_stamp(&self) -> Option<String> {
        let modified = fs::metadata(self.games_dir()).ok()?.modified().ok()?;
        let age = std::time::SystemTime::now().duration_since(modified).ok()?;
        if age < STAMP_SETTLED {
            return None;
        }
        let t = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some(format!("{}.{:09}", t.as_secs(), t.subsec_nanos()))
    }

    /// A game's journal length, `None` when it has none (no such game, or one half made).
    pub fn journal_bytes(&self, game: &str) -> Result<Option<u64>, StoreError> {
        let p = self.game(game).journal_path();
        match fs::metadata(&p) {
            Ok(m) => Ok(Some(m.len())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::Io { path: p, source: e }),
        }
    }

    /// The games, each with its journal's length (one `stat` each): what a pass that cannot
    /// trust the stored index checks it against.
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
    /// never without its marker. The first pass of a process trusts the markers, so a new one
    /// is made durable, unless the game's change mark (durable) is there: that mark makes the
    /// next process visit the game's outbox, and it is cleared only after the index write has
    /// made `pending/` durable. Games changed since the last index write pay no fsync here.
    pub fn mark_pending(&self, game: &str) -> Result<(), StoreError> {
        let dir = self.root.join("pending");
        let p = dir.join(game);
        if p.exists() {
            return Ok(());
        }
        fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        fs::write(&p, b"").map_err(io_err(&p))?;
        if self.root.join("dirty").join(game).exists() {
            return Ok(());
        }
        super::fsync_dir(&dir).map_err(io_err(&dir))
    }

    /// The games marked as having mail queued.
    pub fn pending_games(&self) -> Result<Vec<String>, StoreError> {
        self.marked("pending")
    }

    /// The names in a folder of empty marker files (none if it does not exist).
    pub(super) fn marked(&self, folder: &str) -> Result<Vec<String>, StoreError> {
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

    fn sample() -> DueIndex {
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
        ix
    }

    #[test]
    fn an_index_prints_and_reads_back_trusted() {
        let ix = sample();
        assert_eq!(DueIndex::read(&ix.print()), StoredIndex::Trusted(ix));
        let empty = DueIndex::default();
        assert_eq!(DueIndex::read(&empty.print()), StoredIndex::Trusted(empty));
    }

    #[test]
    fn the_games_folders_stamp_is_kept_and_checked_with_the_entries() {
        let mut ix = sample();
        ix.games_folder = Some("1795000000.123456789".into());
        let text = ix.print();
        assert!(
            text.contains("\ngames-folder\t1795000000.123456789\n"),
            "{text}"
        );
        assert_eq!(DueIndex::read(&text), StoredIndex::Trusted(ix.clone()));
        // A changed stamp still parses: the checksum tells, and a wrong stamp would skip a
        // listing that was needed.
        let m = StoredIndex::Missing;
        assert_eq!(DueIndex::read(&text.replace(".123456789", ".123456780")), m);
        for bad in ["17950.1", "x.123456789", "1795000000", ""] {
            let t = text.replace("1795000000.123456789", bad);
            assert_eq!(DueIndex::read(&t), m, "{bad:?}");
        }
        // A game may be called `games-folder`: only the first line is the stamp.
        ix.games.insert(
            "games-folder".into(),
            DueEntry {
                ruleset: "naval-rjw".into(),
                journal_bytes: 5,
                next_due: None,
            },
        );
        assert_eq!(DueIndex::read(&ix.print()), StoredIndex::Trusted(ix));
    }

    #[test]
    fn an_index_of_the_form_before_the_stamp_is_trusted_without_one() {
        let ix = sample();
        let text = ix.print();
        let (first, rest) = text.split_once('\n').unwrap();
        assert_eq!(first, HEADER);
        let (_, entries_end) = rest.split_once('\n').unwrap();
        let (entries, _) = entries_end.rsplit_once("end\t").unwrap();
        let old = format!(
            "{HEADER_UNSTAMPED}\n{entries}end\t{}\t{:016x}\n",
            ix.games.len(),
            checksum(entries)
        );
        assert_eq!(DueIndex::read(&old), StoredIndex::Trusted(ix));
        assert_eq!(
            DueIndex::read(&old.replace("1234", "1235")),
            StoredIndex::Missing
        );
    }

    #[test]
    fn a_games_folder_changed_a_moment_ago_gives_no_stamp() {
        let tmp = tempfile::tempdir().unwrap();
        let data = DataDir::new(tmp.path());
        assert_eq!(data.games_folder_stamp(), None, "no folder");
        std::fs::create_dir_all(data.games_dir().join("g1")).unwrap();
        assert_eq!(data.games_folder_stamp(), None, "changed just now");
        let dir = std::fs::File::open(data.games_dir()).unwrap();
        let back = std::time::SystemTime::now() - std::time::Duration::from_secs(3);
        dir.set_modified(back).unwrap();
        let stamp = data.games_folder_stamp().expect("settled");
        assert!(is_stamp(&stamp), "{stamp}");
        // A game added changes the stamp (and is too fresh to give one at once).
        std::fs::create_dir_all(data.games_dir().join("g2")).unwrap();
        assert_eq!(data.games_folder_stamp(), None);
        dir.set_modified(back + std::time::Duration::from_secs(1))
            .unwrap();
        assert_ne!(data.games_folder_stamp(), Some(stamp));
    }

    #[test]
    fn a_damaged_index_is_refused_whole() {
        let m = StoredIndex::Missing;
        assert_eq!(DueIndex::read("something else\n"), m);
        assert_eq!(DueIndex::read(""), m);
        let good = sample().print();
        // A changed digit still parses; the checksum tells.
        assert_eq!(DueIndex::read(&good.replace("1234", "1235")), m);
        // A lost line, a lost end, a torn end.
        let lines: Vec<&str> = good.lines().collect();
        let without = |i: usize| {
            let mut l = lines.clone();
            l.remove(i);
            l.join("\n") + "\n"
        };
        assert_eq!(DueIndex::read(&without(1)), m);
        assert_eq!(DueIndex::read(&without(lines.len() - 1)), m);
        assert_eq!(DueIndex::read(&good[..good.len() - 3]), m);
        for bad in [
            "x\tnaval\tten\t-\n",
            "x\tnaval\t10\n",
            "x\tnaval\t10\tsoon\n",
        ] {
            assert_eq!(DueIndex::read(&format!("{HEADER_UNCHECKED}\n{bad}")), m);
        }
    }

    #[test]
    fn an_index_of_the_earlier_form_is_read_but_not_trusted() {
        let ix = sample();
        let body = ix.print().replace(HEADER, HEADER_UNCHECKED);
        let body: String = body
            .lines()
            .filter(|l| !l.starts_with("end\t") && !l.starts_with(FOLDER))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(DueIndex::read(&body), StoredIndex::Unchecked(ix));
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
