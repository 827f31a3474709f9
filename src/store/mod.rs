//! The data directory: one folder per game (journal, snapshot, secrets, outbox), the record of
//! processed mail, and the locks. Every write is atomic (write, fsync, rename, fsync dir) or an
//! fsynced append. This module makes no game decisions and never reads the clock.

mod campaigns;
mod gathered;
mod held;
mod index;
mod journal;
mod ledger;
mod lobby;
mod one_click;
mod outbox;
mod players;
mod secrets;
mod snapshot;

pub use campaigns::CampaignRecord;
pub use gathered::{WaitingEntry, WaitingMail};
pub use held::{HELD_FOLDER, HeldCause, HeldMail, held_key};
pub use index::{DueEntry, DueIndex, StoredIndex};
pub use journal::Journal;
pub use lobby::{LobbyBook, LobbyMember};
pub use one_click::{MAX_QUEUED, is_code as is_unsubscribe_code};
pub use outbox::{RetryState, SendBatch, boot_id};
pub use secrets::{
    FormerPlayer, HostOnions, Notify, PendingSpectator, SeatPrivate, SeatsFile, Spectator,
    new_token,
};

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::engine::{ReplayError, UnknownRuleset};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: {detail}")]
    Corrupt { path: PathBuf, detail: String },
    #[error("journal {path}: {source}")]
    Replay { path: PathBuf, source: ReplayError },
    #[error(transparent)]
    Ruleset(#[from] UnknownRuleset),
    #[error("game `{0}` already exists")]
    Exists(String),
    #[error("no game `{0}` in the data directory")]
    NoGame(String),
    #[error("another despatch process holds {0}; stop it first")]
    Locked(PathBuf),
}

pub(crate) fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// How many fsyncs this process has asked for (the benchmarks print it per order mail).
static FSYNCS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The fsyncs asked for so far by this process (files and directories).
pub fn fsyncs() -> u64 {
    FSYNCS.load(std::sync::atomic::Ordering::Relaxed)
}

/// `sync_all`, counted.
pub(crate) fn sync_file(f: &File) -> io::Result<()> {
    FSYNCS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    f.sync_all()
}

pub(crate) fn fsync_dir(dir: &Path) -> io::Result<()> {
    sync_file(&File::open(dir)?)
}

/// How much of a replaced file must survive a crash.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Durable {
    /// Content and name: fsync the file and its directory (what the game needs to go on).
    Fully,
    /// Content, but the rename may be lost: a crash leaves the old file, which must be a
    /// state the caller recovers from by redoing idempotent work (the `mailed` mark).
    ContentOnly,
    /// Neither: a cache that is checked when read and rebuilt when wrong (snapshot, guard
    /// records, the due index). Still atomic: readers see the old file or the new one.
    Cache,
}

/// Write-to-temp, fsync, rename, fsync the directory: readers see the old file or the new one.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_atomically(path, bytes, false, Durable::Fully)
}

/// Same as `atomic_write`, readable by the owner only (secrets). The mode is set on the
/// temporary file before anything is written, so a secret is never readable by others.
pub fn atomic_write_private(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    write_atomically(path, bytes, true, Durable::Fully)
}

/// An atomic replacement with less than full durability (see `Durable`).
pub(crate) fn replace_file(path: &Path, bytes: &[u8], durable: Durable) -> Result<(), StoreError> {
    write_atomically(path, bytes, false, durable)
}

fn write_atomically(
    path: &Path,
    bytes: &[u8],
    private: bool,
    durable: Durable,
) -> Result<(), StoreError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    {
        let mut opts = OpenOptions::new();
        opts.write(true).create(true).truncate(true);
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts.open(&tmp).map_err(io_err(&tmp))?;
        // A temporary file left by an earlier run keeps its old mode: set it again.
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::PermissionsExt;
            f.set_permissions(fs::Permissions::from_mode(0o600))
                .map_err(io_err(&tmp))?;
        }
        f.write_all(bytes).map_err(io_err(&tmp))?;
        if durable != Durable::Cache {
            sync_file(&f).map_err(io_err(&tmp))?;
        }
    }
    fs::rename(&tmp, path).map_err(io_err(path))?;
    if durable == Durable::Fully {
        fsync_dir(dir).map_err(io_err(dir))?;
    }
    Ok(())
}

/// Several atomic replacements whose contents are fsynced together, then renamed in order
/// (and, when `Durable::Fully`, each directory fsynced once). The fsyncs run side by side: the
/// file system commits them as one, so k files cost about what one costs, with the same
/// guarantee as k `replace_file` calls (every content is durable before any rename).
pub(crate) fn replace_files(
    files: &[(PathBuf, &[u8])],
    durable: Durable,
) -> Result<(), StoreError> {
    let staged = stage_files(files, durable != Durable::Cache)?;
    commit_staged(&staged)?;
    if durable == Durable::Fully {
        let mut dirs: Vec<&Path> = Vec::new();
        for s in &staged {
            let dir = s.path.parent().unwrap_or(Path::new("."));
            if !dirs.contains(&dir) {
                fsync_dir(dir).map_err(io_err(dir))?;
                dirs.push(dir);
            }
        }
    }
    Ok(())
}

/// A file written beside its final name, waiting for its rename.
pub(crate) struct Staged {
    tmp: PathBuf,
    path: PathBuf,
}

/// Writes each file beside its final name and, with `sync`, fsyncs them all side by side.
pub(crate) fn stage_files(
    files: &[(PathBuf, &[u8])],
    sync: bool,
) -> Result<Vec<Staged>, StoreError> {
    let mut written = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let dir = path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir).map_err(io_err(dir))?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)
            .map_err(io_err(&tmp))?;
        f.write_all(bytes).map_err(io_err(&tmp))?;
        written.push((f, tmp));
    }
    if sync {
        let failed = std::thread::scope(|s| {
            let syncs: Vec<_> = written
                .iter()
                .map(|(f, tmp)| s.spawn(move || sync_file(f).map_err(|e| (tmp.clone(), e))))
                .collect();
            syncs
                .into_iter()
                .map(|h| h.join().expect("an fsync thread does not panic"))
                .find_map(Result::err)
        });
        if let Some((tmp, source)) = failed {
            return Err(StoreError::Io { path: tmp, source });
        }
    }
    Ok(written
        .into_iter()
        .zip(files)
        .map(|((_, tmp), (path, _))| Staged {
            tmp,
            path: path.clone(),
        })
        .collect())
}

/// Renames staged files to their final names, in order.
pub(crate) fn commit_staged(staged: &[Staged]) -> Result<(), StoreError> {
    for s in staged {
        fs::rename(&s.tmp, &s.path).map_err(io_err(&s.path))?;
    }
    Ok(())
}

/// Appends one line and fsyncs it. A torn last line (a crash mid-append) is cut first, so it
/// never runs into the next one: the journal, `heads.log` and `seen.log` all heal the same way.
pub(crate) fn append_line(path: &Path, line: &str) -> Result<(), StoreError> {
    append(path, line, true)
}

/// `append_line` without the fsync, for a record nothing depends on (an audit log): a crash
/// of the machine may lose its last lines, never the order of those kept.
pub(crate) fn append_line_unsynced(path: &Path, line: &str) -> Result<(), StoreError> {
    append(path, line, false)
}

fn append(path: &Path, line: &str, sync: bool) -> Result<(), StoreError> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    cut_torn_tail(path)?;
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    let mut buf = line.as_bytes().to_vec();
    buf.push(b'\n');
    f.write_all(&buf).map_err(io_err(path))?;
    if sync {
        sync_file(&f).map_err(io_err(path))?;
    }
    Ok(())
}

/// One game's directory (`games/<id>/`, or the house's): each file of this module keeps its
/// part of it (the journal, the secrets, the snapshot, the outbox, …).
#[derive(Debug, Clone)]
pub struct GameStore {
    pub dir: PathBuf,
    pub id: String,
}

/// The data directory: `games/<id>/`, the inbound `seen` record, the daemon lock.
#[derive(Debug, Clone)]
pub struct DataDir {
    pub root: PathBuf,
}

impl DataDir {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    pub fn games_dir(&self) -> PathBuf {
        self.root.join("games")
    }

    pub fn game(&self, id: &str) -> GameStore {
        GameStore {
            dir: self.games_dir().join(id),
            id: id.to_string(),
        }
    }

    /// The house: an outbox for mail that belongs to no game (reports to the organiser).
    pub fn house(&self) -> GameStore {
        GameStore {
            dir: self.root.join("house"),
            id: "despatch".to_string(),
        }
    }

    /// The games (folders holding a journal), sorted.
    pub fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .game_journals()?
            .into_iter()
            .map(|(id, _)| id)
            .collect())
    }

    /// Whether a store is the house's (mail that belongs to no game), not a game's.
    pub fn is_house(&self, store: &GameStore) -> bool {
        store.dir == self.house().dir
    }

    /// Takes the data directory's exclusive lock for as long as the returned file lives. A daemon
    /// holds it only during a pass, so a one-shot command waits a little (10 s) before giving up.
    pub fn lock(&self) -> Result<File, StoreError> {
        self.take_lock("despatch.lock", std::time::Duration::from_secs(10))
    }

    /// The live site's lock, held while its index is rewritten (read, one game's entry
    /// replaced, written): a daemon's pass and an organiser's command each keep the other's
    /// entry. Apart from `lock`, which a pass holds while it writes a game's pages.
    pub fn site_lock(&self) -> Result<File, StoreError> {
        self.take_lock("site.lock", std::time::Duration::from_secs(10))
    }

    /// The lock a running `despatch run` holds for its whole life, so a second daemon on the same
    /// data directory refuses to start (one-shot commands use `lock` per operation).
    pub fn daemon_lock(&self) -> Result<File, StoreError> {
        self.take_lock("daemon.lock", std::time::Duration::ZERO)
    }

    fn take_lock(&self, name: &str, patience: std::time::Duration) -> Result<File, StoreError> {
        fs::create_dir_all(&self.root).map_err(io_err(&self.root))?;
        let path = self.root.join(name);
        let f = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io_err(&path))?;
        let start = std::time::Instant::now();
        loop {
            match f.try_lock() {
                Ok(()) => return Ok(f),
                Err(fs::TryLockError::WouldBlock) if start.elapsed() < patience => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(fs::TryLockError::WouldBlock) => return Err(StoreError::Locked(path)),
                Err(fs::TryLockError::Error(e)) => return Err(StoreError::Io { path, source: e }),
            }
        }
    }
}

/// Cuts an incomplete last line (one without its newline) from an append-only file. Only the
/// writer does this, under the data lock.
fn cut_torn_tail(p: &Path) -> Result<(), StoreError> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = match OpenOptions::new().read(true).write(true).open(p) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(StoreError::Io {
                path: p.to_path_buf(),
                source: e,
            });
        }
    };
    let len = f.metadata().map_err(io_err(p))?.len();
    if len == 0 {
        return Ok(());
    }
    let mut last = [0u8; 1];
    f.seek(SeekFrom::Start(len - 1)).map_err(io_err(p))?;
    f.read_exact(&mut last).map_err(io_err(p))?;
    if last[0] == b'\n' {
        return Ok(());
    }
    // Find the last newline by reading backwards in blocks (the tail is short).
    let mut end = len;
    let mut whole = 0u64;
    let mut buf = vec![0u8; 4096];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let n = (end - start) as usize;
        f.seek(SeekFrom::Start(start)).map_err(io_err(p))?;
        f.read_exact(&mut buf[..n]).map_err(io_err(p))?;
        if let Some(i) = buf[..n].iter().rposition(|b| *b == b'\n') {
            whole = start + i as u64 + 1;
            break;
        }
        end = start;
    }
    tracing::warn!(file = %p.display(), bytes = len - whole, "cutting a torn last line left by a crash");
    f.set_len(whole).map_err(io_err(p))?;
    sync_file(&f).map_err(io_err(p))?;
    Ok(())
}
