//! Per-game store: the hash-chained journal (the truth), the snapshot (a cache), the host's onion
//! secret, the seats' private file (addresses, secrets) and the outbox. Every write is atomic
//! (write, fsync, rename, fsync dir) or an fsynced append; this module makes no game decisions.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::dice::{self, HostOnion};
use crate::engine::{Event, Game, ReplayError, Ruleset};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("{path}: {detail}")]
    Corrupt { path: PathBuf, detail: String },
    #[error("journal {path}: {source}")]
    Replay { path: PathBuf, source: ReplayError },
    #[error("game `{0}` already exists")]
    Exists(String),
    #[error("no game `{0}` in the data directory")]
    NoGame(String),
    #[error("another despatch process holds {0}; stop it first")]
    Locked(PathBuf),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn fsync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Write-to-temp, fsync, rename, fsync the directory: readers see the old file or the new one.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    {
        let mut f = File::create(&tmp).map_err(io_err(&tmp))?;
        f.write_all(bytes).map_err(io_err(&tmp))?;
        f.sync_all().map_err(io_err(&tmp))?;
    }
    fs::rename(&tmp, path).map_err(io_err(path))?;
    fsync_dir(dir).map_err(io_err(dir))?;
    Ok(())
}

/// Same as `atomic_write`, readable by the owner only (secrets).
pub fn atomic_write_private(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    atomic_write(path, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o600)).map_err(io_err(path))?;
    }
    Ok(())
}

/// The host's onions: each serves steps from its first step until the next one takes over.
#[derive(Debug, Clone)]
pub struct HostOnions {
    pub segments: Vec<(u64, HostOnion)>,
}

impl HostOnions {
    /// `v_k` from the onion that serves step `k`.
    pub fn reveal(&self, k: u64) -> Result<dice::Hash, dice::DiceError> {
        let (from, onion) = self
            .segments
            .iter()
            .rev()
            .find(|(from, _)| *from <= k)
            .unwrap_or(&self.segments[0]);
        onion.reveal(k + 1 - from)
    }
}

/// One seat's private record: never in the journal, never in another seat's mail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatPrivate {
    pub address: String,
    #[serde(default)]
    pub name: String,
    /// The seat's secret, carried in its reply address.
    pub token: String,
    /// IANA time zone for deadlines in mails (`Europe/London`).
    #[serde(default = "utc")]
    pub time_zone: String,
}

fn utc() -> String {
    "UTC".into()
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatsFile {
    pub seats: BTreeMap<String, SeatPrivate>,
    /// The game's organiser: told about undeliverable mail and other trouble.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gm: Option<String>,
}

/// A fresh seat secret: 24 characters of [a-z0-9] from the OS RNG (~124 bits). Lower-case because
/// mail systems may fold the case of the address that carries it.
pub fn new_token() -> Result<String, StoreError> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut out = String::new();
    while out.len() < 24 {
        let mut b = [0u8; 32];
        getrandom::fill(&mut b).map_err(|e| StoreError::Corrupt {
            path: PathBuf::from("<os rng>"),
            detail: e.to_string(),
        })?;
        // 252 = 7 × 36: rejection keeps every character equally likely.
        out.extend(
            b.iter()
                .filter(|x| **x < 252)
                .map(|x| ALPHABET[(*x % 36) as usize] as char),
        );
    }
    out.truncate(24);
    Ok(out)
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

    pub fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        let dir = self.games_dir();
        if !dir.exists() {
            return Ok(vec![]);
        }
        let mut ids: Vec<String> = fs::read_dir(&dir)
            .map_err(io_err(&dir))?
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("journal.jsonl").exists())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// Takes the data directory's exclusive lock for as long as the returned file lives. A daemon
    /// holds it only during a pass, so a one-shot command waits a little (10 s) before giving up.
    pub fn lock(&self) -> Result<File, StoreError> {
        self.take_lock("despatch.lock", std::time::Duration::from_secs(10))
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

    fn seen_path(&self) -> PathBuf {
        self.root.join("seen.log")
    }

    /// Message-IDs already processed (any outcome): a re-delivered mail changes nothing.
    pub fn seen(&self) -> Result<std::collections::BTreeSet<String>, StoreError> {
        let p = self.seen_path();
        match fs::read_to_string(&p) {
            Ok(s) => Ok(s
                .lines()
                .filter(|l| !l.is_empty())
                .map(|l| l.split('\t').next().unwrap_or("").to_string())
                .collect()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Default::default()),
            Err(e) => Err(StoreError::Io { path: p, source: e }),
        }
    }

    /// Records a processed Message-ID (fsynced append) with a one-word outcome, the sender and
    /// the time (for the per-sender rate limit).
    pub fn mark_seen(
        &self,
        message_id: &str,
        outcome: &str,
        sender: &str,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), StoreError> {
        let p = self.seen_path();
        let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
        append_line(
            &p,
            &format!(
                "{}\t{outcome}\t{}\t{}",
                clean(message_id),
                clean(sender),
                at.to_rfc3339()
            ),
        )
    }

    /// How many mails from `sender` were read since `since`.
    pub fn seen_from_since(
        &self,
        sender: &str,
        since: chrono::DateTime<chrono::Utc>,
    ) -> Result<usize, StoreError> {
        let p = self.seen_path();
        let text = match fs::read_to_string(&p) {
            Ok(s) => s,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(StoreError::Io { path: p, source: e }),
        };
        Ok(text
            .lines()
            .filter(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                cols.len() >= 4
                    && cols[2].eq_ignore_ascii_case(sender)
                    && chrono::DateTime::parse_from_rfc3339(cols[3]).is_ok_and(|t| t >= since)
            })
            .count())
    }
}

fn append_line(path: &Path, line: &str) -> Result<(), StoreError> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io_err(path))?;
    let mut buf = line.as_bytes().to_vec();
    buf.push(b'\n');
    f.write_all(&buf).map_err(io_err(path))?;
    f.sync_all().map_err(io_err(path))?;
    Ok(())
}

/// One game's directory.
#[derive(Debug, Clone)]
pub struct GameStore {
    pub dir: PathBuf,
    pub id: String,
}

/// The journal read back: its lines and what was cut from a torn tail.
#[derive(Debug, Clone)]
pub struct Journal {
    pub lines: Vec<String>,
    /// Bytes of an incomplete last line (a crash mid-append), dropped on read.
    pub torn_tail: usize,
}

impl GameStore {
    pub fn journal_path(&self) -> PathBuf {
        self.dir.join("journal.jsonl")
    }

    pub fn exists(&self) -> bool {
        self.journal_path().exists()
    }

    pub fn outbox_dir(&self) -> PathBuf {
        self.dir.join("outbox")
    }

    pub fn sent_dir(&self) -> PathBuf {
        self.dir.join("sent")
    }

    /// Creates the game directory with its secrets and first event. Fails if it exists.
    pub fn create(
        &self,
        onion: &HostOnion,
        seats: &SeatsFile,
        first: &Event,
    ) -> Result<(), StoreError> {
        if self.exists() {
            return Err(StoreError::Exists(self.id.clone()));
        }
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        self.write_onions(&HostOnions {
            segments: vec![(1, onion.clone())],
        })?;
        self.write_seats(seats)?;
        let head = dice::log_step(&dice::log_genesis(), first.to_line().as_bytes());
        self.append(first, 0, &head)?;
        Ok(())
    }

    pub fn write_seats(&self, seats: &SeatsFile) -> Result<(), StoreError> {
        let text = toml::to_string(seats).map_err(|e| StoreError::Corrupt {
            path: self.dir.join("seats.toml"),
            detail: e.to_string(),
        })?;
        atomic_write_private(&self.dir.join("seats.toml"), text.as_bytes())
    }

    pub fn seats(&self) -> Result<SeatsFile, StoreError> {
        let p = self.dir.join("seats.toml");
        let s = fs::read_to_string(&p).map_err(io_err(&p))?;
        toml::from_str(&s).map_err(|e| StoreError::Corrupt {
            path: p,
            detail: e.to_string(),
        })
    }

    /// Every onion of the game, oldest first (the first serves from step 1).
    pub fn onions(&self) -> Result<HostOnions, StoreError> {
        #[derive(Deserialize)]
        struct Segment {
            from_step: u64,
            c0: String,
            len: u64,
        }
        #[derive(Deserialize)]
        struct File {
            /// The single-onion form written before renewal existed.
            c0: Option<String>,
            len: Option<u64>,
            #[serde(default)]
            onion: Vec<Segment>,
        }
        let p = self.dir.join("host.secret");
        let s = fs::read_to_string(&p).map_err(io_err(&p))?;
        let f: File = toml::from_str(&s).map_err(|e| StoreError::Corrupt {
            path: p.clone(),
            detail: e.to_string(),
        })?;
        let mut raw: Vec<(u64, String, u64)> = f
            .onion
            .into_iter()
            .map(|g| (g.from_step, g.c0, g.len))
            .collect();
        if let (Some(c0), Some(len)) = (f.c0, f.len) {
            raw.insert(0, (1, c0, len));
        }
        let mut segments = Vec::new();
        for (from, c0, len) in raw {
            let c0 = dice::from_hex(&c0).ok_or_else(|| StoreError::Corrupt {
                path: p.clone(),
                detail: "c0 is not 32 bytes of hex".into(),
            })?;
            segments.push((from, HostOnion::from_secret(&self.id, c0, len)));
        }
        if segments.is_empty() {
            return Err(StoreError::Corrupt {
                path: p,
                detail: "no onion".into(),
            });
        }
        Ok(HostOnions { segments })
    }

    pub fn write_onions(&self, onions: &HostOnions) -> Result<(), StoreError> {
        let mut text = format!(
            "# despatch host onion secrets for game {} (never share; see dice-protocol.md)\n",
            self.id
        );
        for (from, o) in &onions.segments {
            text.push_str(&format!(
                "\n[[onion]]\nfrom_step = {from}\nc0 = \"{}\"\nlen = {}\n",
                dice::to_hex(o.secret()),
                o.len()
            ));
        }
        atomic_write_private(&self.dir.join("host.secret"), text.as_bytes())
    }

    /// Appends one event as one fsynced line, then its log head to `heads.log` (a cache that lets
    /// `verify` name the first event whose bytes changed). Returns the exact line.
    pub fn append(
        &self,
        event: &Event,
        index: u64,
        head_after: &dice::Hash,
    ) -> Result<String, StoreError> {
        let line = event.to_line();
        self.cut_torn_tail()?;
        append_line(&self.journal_path(), &line)?;
        append_line(
            &self.dir.join("heads.log"),
            &format!("{index}\t{}", dice::to_hex(head_after)),
        )?;
        Ok(line)
    }

    /// The heads recorded at append time, by event index.
    pub fn recorded_heads(&self) -> Result<Vec<(u64, String)>, StoreError> {
        let p = self.dir.join("heads.log");
        let s = match fs::read_to_string(&p) {
            Ok(s) => s,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(vec![]),
            Err(e) => return Err(StoreError::Io { path: p, source: e }),
        };
        Ok(s.lines()
            .filter_map(|l| {
                let (i, h) = l.split_once('\t')?;
                Some((i.parse().ok()?, h.to_string()))
            })
            .collect())
    }

    /// Reads the journal. A last line without its newline is a torn append (a crash mid-write):
    /// it is left out. Reading never writes, so auditors and a live daemon can read side by side.
    pub fn read_journal(&self) -> Result<Journal, StoreError> {
        let p = self.journal_path();
        let bytes = fs::read(&p).map_err(|e| {
            if e.kind() == io::ErrorKind::NotFound {
                StoreError::NoGame(self.id.clone())
            } else {
                StoreError::Io {
                    path: p.clone(),
                    source: e,
                }
            }
        })?;
        let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let torn_tail = bytes.len() - whole;
        let text = std::str::from_utf8(&bytes[..whole]).map_err(|e| StoreError::Corrupt {
            path: p.clone(),
            detail: format!("not UTF-8: {e}"),
        })?;
        Ok(Journal {
            lines: text.lines().map(str::to_string).collect(),
            torn_tail,
        })
    }

    /// Cuts a torn last line before the next append (only the writer, under the data lock).
    fn cut_torn_tail(&self) -> Result<(), StoreError> {
        let p = self.journal_path();
        let bytes = match fs::read(&p) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(StoreError::Io { path: p, source: e }),
        };
        if bytes.is_empty() || bytes.ends_with(b"\n") {
            return Ok(());
        }
        let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        tracing::warn!(journal = %p.display(), bytes = bytes.len() - whole, "cutting a torn last line left by a crash");
        let f = OpenOptions::new()
            .write(true)
            .open(&p)
            .map_err(io_err(&p))?;
        f.set_len(whole as u64).map_err(io_err(&p))?;
        f.sync_all().map_err(io_err(&p))?;
        Ok(())
    }

    /// Replays the journal into a game, checking every event (this is also `verify`'s core).
    pub fn load<R: Ruleset>(&self) -> Result<Game<R>, StoreError> {
        let journal = self.read_journal()?;
        replay::<R>(&journal.lines).map_err(|source| StoreError::Replay {
            path: self.journal_path(),
            source,
        })
    }

    pub fn write_snapshot<R: Ruleset>(&self, game: &Game<R>) -> Result<(), StoreError> {
        let snap = serde_json::json!({
            "events": game.events,
            "head": dice::to_hex(&game.head),
            "step": game.step,
            "state": game.state,
        });
        let bytes = serde_json::to_vec_pretty(&snap).expect("json");
        atomic_write(&self.dir.join("snapshot.json"), &bytes)
    }

    pub fn read_snapshot(&self) -> Result<Option<serde_json::Value>, StoreError> {
        let p = self.dir.join("snapshot.json");
        match fs::read(&p) {
            Ok(b) => serde_json::from_slice(&b)
                .map(Some)
                .map_err(|e| StoreError::Corrupt {
                    path: p,
                    detail: e.to_string(),
                }),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::Io { path: p, source: e }),
        }
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
        atomic_write(&self.dir.join("mailed"), format!("{index}\n").as_bytes())
    }

    /// Puts a mail in the outbox under a deterministic name; writing the same name twice is a no-op,
    /// so re-deriving mails after a crash never duplicates one.
    pub fn queue(&self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        let out = self.outbox_dir().join(format!("{name}.eml"));
        let sent = self.sent_dir().join(format!("{name}.eml"));
        if out.exists() || sent.exists() {
            return Ok(());
        }
        atomic_write(&out, bytes)
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

    /// Moves a delivered mail from the outbox to `sent/` (kept for audit and `verify`).
    pub fn mark_sent(&self, path: &Path) -> Result<(), StoreError> {
        let dest = self.sent_dir();
        fs::create_dir_all(&dest).map_err(io_err(&dest))?;
        let to = dest.join(path.file_name().unwrap_or_default());
        // The rename comes first and alone: after the server said "sent", the shortest possible
        // window before the record says so too (a kill in between resends the same Message-ID).
        fs::rename(path, &to).map_err(io_err(path))?;
        let _ = fs::remove_file(retry_path(path));
        fsync_dir(&dest).map_err(io_err(&dest))?;
        if let Some(src) = path.parent() {
            fsync_dir(src).map_err(io_err(src))?;
        }
        Ok(())
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

/// Replays journal lines into a game; the first failure names the event and field.
pub fn replay<R: Ruleset>(lines: &[String]) -> Result<Game<R>, ReplayError> {
    let parse = |i: usize, line: &str| -> Result<Event, ReplayError> {
        serde_json::from_str(line).map_err(|e| ReplayError {
            index: i as u64,
            kind: "?".into(),
            field: format!("json (column {})", e.column()),
            detail: e.to_string(),
        })
    };
    let first = lines.first().ok_or(ReplayError {
        index: 0,
        kind: "?".into(),
        field: "journal".into(),
        detail: "empty journal".into(),
    })?;
    let mut game = Game::<R>::from_creation(&parse(0, first)?, first)?;
    for (i, line) in lines.iter().enumerate().skip(1) {
        let ev = parse(i, line)?;
        // A line that re-serialises differently was edited by hand: the chain hashes the bytes,
        // so say which event, rather than fail later on an innocent-looking field.
        if ev.to_line() != *line {
            return Err(ReplayError {
                index: i as u64,
                kind: ev.kind().into(),
                field: "bytes".into(),
                detail: "the line is not in canonical form (edited?)".into(),
            });
        }
        game.apply(&ev, line, i as u64)?;
    }
    Ok(game)
}
