//! One game's mails waiting for a seat's next mail (issue 30, `compose::gather`): kept in
//! `gathered/<seat>/<name>.eml` with a note beside it, until the mail that brings them is
//! queued; then moved under `gathered/<seat>/brought/`, where HISTORY still finds them. Decides
//! nothing about which mails wait: it keeps what composition said waits.

use std::fs;
use std::io;
use std::path::PathBuf;

use super::{GameStore, StoreError, commit_staged, fsync_dir, io_err, stage_files};

/// One waiting mail as kept: whose, its queue name, its note, the digest its seal claims (the
/// bringing mail's Parts list it by that), and the mail's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingMail {
    pub seat: String,
    pub name: String,
    pub note: Vec<String>,
    pub digest: String,
    pub bytes: Vec<u8>,
}

/// One waiting mail as listed, without its bytes (read only when a mail brings it): whose, its
/// queue name, its note, and its claimed digest (`None` for mails kept before the digest was
/// kept beside them: the reader takes it from the mail).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingEntry {
    pub seat: String,
    pub name: String,
    pub note: Vec<String>,
    pub digest: Option<String>,
}

impl GameStore {
    pub fn gathered_dir(&self) -> PathBuf {
        self.dir.join("gathered")
    }

    fn waiting_path(&self, seat: &str, name: &str) -> PathBuf {
        self.gathered_dir().join(seat).join(format!("{name}.eml"))
    }

    fn brought_path(&self, seat: &str, name: &str) -> PathBuf {
        self.gathered_dir()
            .join(seat)
            .join("brought")
            .join(format!("{name}.eml"))
    }

    /// The names of the mails waiting for the seat whose folder is `dir`, oldest first (names
    /// begin with the event's index).
    fn waiting_names(dir: &std::path::Path) -> Result<Vec<String>, StoreError> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .map_err(io_err(dir))?
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.strip_suffix(".eml")
                    .filter(|s| !s.starts_with('.'))
                    .map(str::to_string)
            })
            .collect();
        names.sort();
        Ok(names)
    }

    /// The note kept beside a waiting mail. A note lost in a crash costs only the line in the
    /// list; the mail itself is still brought whole.
    fn waiting_note(dir: &std::path::Path, name: &str) -> Vec<String> {
        fs::read_to_string(dir.join(format!("{name}.note")))
            .map(|s| s.lines().map(str::to_string).collect())
            .unwrap_or_else(|_| vec![format!("A mail of this game ({name}).")])
    }

    /// Every mail waiting now, each seat's oldest first, without reading the mails: what
    /// composing an event's mails needs (issue 32: an eight-seat game may hold a few MB of
    /// waiting mails, read and parsed at every event before).
    pub fn waiting_list(&self) -> Result<Vec<WaitingEntry>, StoreError> {
        let root = self.gathered_dir();
        let seats = match fs::read_dir(&root) {
            Ok(rd) => rd,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(StoreError::Io {
                    path: root,
                    source: e,
                });
            }
        };
        let mut out = Vec::new();
        for seat_dir in seats {
            let seat_dir = seat_dir.map_err(io_err(&root))?;
            if !seat_dir.path().is_dir() {
                continue;
            }
            let seat = seat_dir.file_name().to_string_lossy().into_owned();
            let dir = seat_dir.path();
            for name in Self::waiting_names(&dir)? {
                let digest = fs::read_to_string(dir.join(format!("{name}.digest")))
                    .ok()
                    .map(|d| d.trim().to_string());
                out.push(WaitingEntry {
                    seat: seat.clone(),
                    note: Self::waiting_note(&dir, &name),
                    name,
                    digest,
                });
            }
        }
        out.sort_by(|a, b| (&a.seat, &a.name).cmp(&(&b.seat, &b.name)));
        Ok(out)
    }

    /// Every mail waiting now with its bytes, each seat's oldest first.
    pub fn waiting_mails(&self) -> Result<Vec<WaitingMail>, StoreError> {
        self.waiting_list()?
            .into_iter()
            .map(|e| {
                let path = self.waiting_path(&e.seat, &e.name);
                let bytes = fs::read(&path).map_err(io_err(&path))?;
                Ok(WaitingMail {
                    seat: e.seat,
                    name: e.name,
                    note: e.note,
                    digest: e.digest.unwrap_or_default(),
                    bytes,
                })
            })
            .collect()
    }

    /// The notes of the mails waiting for `seat`, oldest first, without reading the mails
    /// (what STATUS lists).
    pub fn waiting_notes(&self, seat: &str) -> Result<Vec<Vec<String>>, StoreError> {
        let dir = self.gathered_dir().join(seat);
        if !dir.is_dir() {
            return Ok(Vec::new());
        }
        Ok(Self::waiting_names(&dir)?
            .iter()
            .map(|name| Self::waiting_note(&dir, name))
            .collect())
    }

    /// A mail that waited for `seat`, still waiting or already brought.
    pub fn gathered_mail(&self, seat: &str, name: &str) -> Option<Vec<u8>> {
        fs::read(self.waiting_path(seat, name))
            .or_else(|_| fs::read(self.brought_path(seat, name)))
            .ok()
    }

    /// Queues `mails`, keeps `waiting` for their seats' next mails, and moves the `mailed` mark
    /// to `index`, with one fsync commit (as `queue_mailed`). A waiting mail already kept or
    /// brought is skipped: re-deriving an event's mails after a crash changes nothing.
    pub fn queue_mailed_gathering(
        &self,
        mails: &[(String, Vec<u8>)],
        waiting: &[WaitingMail],
        index: u64,
    ) -> Result<(), StoreError> {
        if waiting.is_empty() {
            return self.queue_mailed(mails, index);
        }
        let mut files: Vec<(PathBuf, Vec<u8>)> = Vec::new();
        for w in waiting {
            let path = self.waiting_path(&w.seat, &w.name);
            if path.exists() || self.brought_path(&w.seat, &w.name).exists() {
                continue;
            }
            let note = w.note.join("\n") + "\n";
            files.push((path.with_extension("note"), note.into_bytes()));
            files.push((
                path.with_extension("digest"),
                format!("{}\n", w.digest).into_bytes(),
            ));
            files.push((path, w.bytes.clone()));
        }
        let refs: Vec<(PathBuf, &[u8])> = files
            .iter()
            .map(|(p, b)| (p.clone(), b.as_slice()))
            .collect();
        let staged = stage_files(&refs, true)?;
        // Notes and digests first, then each mail: a mail is never kept without them.
        commit_staged(&staged)?;
        let mut dirs: Vec<PathBuf> = files
            .iter()
            .filter_map(|(p, _)| p.parent().map(PathBuf::from))
            .collect();
        dirs.sort();
        dirs.dedup();
        for d in dirs {
            fsync_dir(&d).map_err(io_err(&d))?;
        }
        self.queue_mailed(mails, index)
    }

    /// Moves the mails `names` of `seat` under `brought/`, once the mail bringing them is
    /// queued. A crash before this leaves them waiting: the next mail brings them again, which
    /// costs a copy, never a loss.
    pub fn mark_brought(&self, seat: &str, names: &[String]) -> Result<(), StoreError> {
        for name in names {
            let from = self.waiting_path(seat, name);
            if !from.exists() {
                continue;
            }
            let to = self.brought_path(seat, name);
            let dir = to.parent().expect("brought/ has a parent");
            fs::create_dir_all(dir).map_err(io_err(dir))?;
            for ext in ["note", "digest"] {
                let side = from.with_extension(ext);
                if side.exists() {
                    fs::rename(&side, to.with_extension(ext)).map_err(io_err(&side))?;
                }
            }
            fs::rename(&from, &to).map_err(io_err(&from))?;
        }
        Ok(())
    }
}
