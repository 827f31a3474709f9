//! One game's journal: the hash-chained truth, appended one fsynced line at a time, with its
//! side files (`heads.log`, the log head after each line, so `verify` can name the line that
//! changed; `ruleset`, the ruleset's name, so finding it reads no journal). A torn last line
//! (a crash mid-append) is left out on read and cut before the next append.

use std::fs;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::PathBuf;

use crate::dice::{self, GameSecrets, Hash};
use crate::engine::Event;

use super::secrets::{HostOnions, SeatsFile};
use super::{GameStore, StoreError, append_line, atomic_write, io_err};

/// The journal read back: its lines and what was cut from a torn tail.
#[derive(Debug, Clone)]
pub struct Journal {
    pub lines: Vec<String>,
    /// Bytes of an incomplete last line (a crash mid-write), dropped on read.
    pub torn_tail: usize,
    /// Bytes of the whole lines read (where the next append begins).
    pub bytes: u64,
}

/// Splits bytes read from `offset` into whole lines (a last line without its newline is torn).
fn whole_lines(
    bytes: &[u8],
    path: &std::path::Path,
) -> Result<(Vec<String>, usize, usize), StoreError> {
    let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
    let torn_tail = bytes.len() - whole;
    let text = std::str::from_utf8(&bytes[..whole]).map_err(|e| StoreError::Corrupt {
        path: path.to_path_buf(),
        detail: format!("not UTF-8: {e}"),
    })?;
    Ok((text.lines().map(str::to_string).collect(), torn_tail, whole))
}

impl GameStore {
    pub fn journal_path(&self) -> PathBuf {
        self.dir.join("journal.jsonl")
    }

    /// The journal's length in bytes (0 when it cannot be read: never taken for a settled game).
    pub fn journal_len(&self) -> u64 {
        fs::metadata(self.journal_path()).map_or(0, |m| m.len())
    }

    pub fn exists(&self) -> bool {
        self.journal_path().exists()
    }

    /// Creates the game directory with its secrets and first event. Fails if it exists.
    pub fn create(
        &self,
        secrets: &GameSecrets,
        seats: &SeatsFile,
        first: &Event,
        ruleset: &str,
    ) -> Result<(), StoreError> {
        if self.exists() {
            return Err(StoreError::Exists(self.id.clone()));
        }
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        self.write_secrets(&HostOnions::new(secrets.clone()))?;
        self.write_seats(seats)?;
        atomic_write(&self.dir.join("ruleset"), format!("{ruleset}\n").as_bytes())?;
        let head = dice::log_step(
            secrets.protocol(),
            &dice::log_genesis(secrets.protocol()),
            first.to_line().as_bytes(),
        );
        self.append(first, 0, &head)?;
        Ok(())
    }

    /// The ruleset's name: from the `ruleset` file, or (a game made before it existed) from the
    /// journal's first line, then remembered in the file.
    pub fn ruleset_name(&self) -> Result<String, StoreError> {
        let p = self.dir.join("ruleset");
        match fs::read_to_string(&p) {
            Ok(s) if !s.trim().is_empty() => return Ok(s.trim().to_string()),
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(StoreError::Io { path: p, source: e }),
        }
        let first = self.first_line()?;
        let v: serde_json::Value =
            serde_json::from_str(&first).map_err(|e| StoreError::Corrupt {
                path: self.journal_path(),
                detail: format!("first line: {e}"),
            })?;
        let name = v["ruleset"]
            .as_str()
            .ok_or_else(|| StoreError::Corrupt {
                path: self.journal_path(),
                detail: "the first line names no ruleset".into(),
            })?
            .to_string();
        // A cache: if it cannot be written (a read-only copy), the journal still answers.
        let _ = atomic_write(&p, format!("{name}\n").as_bytes());
        Ok(name)
    }

    /// The journal's first line, read without reading the rest.
    pub fn first_line(&self) -> Result<String, StoreError> {
        let p = self.journal_path();
        let f = fs::File::open(&p).map_err(|e| self.missing(e))?;
        let mut line = String::new();
        io::BufRead::read_line(&mut io::BufReader::new(f), &mut line).map_err(io_err(&p))?;
        if !line.ends_with('\n') {
            return Err(StoreError::Corrupt {
                path: p,
                detail: "no complete first line".into(),
            });
        }
        line.pop();
        Ok(line)
    }

    fn missing(&self, e: io::Error) -> StoreError {
        if e.kind() == io::ErrorKind::NotFound {
            StoreError::NoGame(self.id.clone())
        } else {
            StoreError::Io {
                path: self.journal_path(),
                source: e,
            }
        }
    }

    /// Appends one event as one fsynced line, then its log head to `heads.log`. Returns the line.
    pub fn append(
        &self,
        event: &Event,
        index: u64,
        head_after: &Hash,
    ) -> Result<String, StoreError> {
        let line = event.to_line();
        // A running daemon opens only the games its due index says have work, plus the games
        // marked here: the mark is durable before the journal changes, so no writer (the daemon,
        // a command, one that crashes half-way) can change a game unnoticed.
        self.mark_dirty()?;
        append_line(&self.journal_path(), &line)?;
        // A crash between the two appends left the last line's head out: it is filled in
        // first, so heads.log pins every line down (issue 29, point 2).
        if index > 0 {
            self.fill_missing_heads(index)?;
        }
        append_line(
            &self.dir.join("heads.log"),
            &format!("{index}\t{}", dice::to_hex(head_after)),
        )?;
        Ok(line)
    }

    /// The index of heads.log's last whole line, read from its tail only (an append must not
    /// cost the game's length). `None` when there is no heads.log (games made before it).
    fn last_recorded_index(&self) -> Result<Option<u64>, StoreError> {
        let p = self.dir.join("heads.log");
        let mut f = match fs::File::open(&p) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StoreError::Io { path: p, source: e }),
        };
        let len = f.metadata().map_err(io_err(&p))?.len();
        // A line is an index, a tab and 64 hex digits: 160 bytes hold the last whole one.
        f.seek(SeekFrom::Start(len.saturating_sub(160)))
            .map_err(io_err(&p))?;
        let mut tail = Vec::new();
        f.read_to_end(&mut tail).map_err(io_err(&p))?;
        let whole = tail.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        let text = String::from_utf8_lossy(&tail[..whole]);
        Ok(text
            .lines()
            .last()
            .and_then(|l| l.split_once('\t'))
            .and_then(|(i, _)| i.parse().ok()))
    }

    /// Fills the heads of the lines before `index` that heads.log lacks (a crash after a
    /// journal append and before its head's), re-chained from the journal's own bytes: the
    /// head recorded last, then each later line. Rare, so it may read the whole journal.
    fn fill_missing_heads(&self, index: u64) -> Result<(), StoreError> {
        let Some(last) = self.last_recorded_index()? else {
            return Ok(());
        };
        if last + 1 >= index {
            return Ok(());
        }
        let p = self.dir.join("heads.log");
        let recorded = self.recorded_heads()?;
        let corrupt = |detail: String| StoreError::Corrupt {
            path: p.clone(),
            detail,
        };
        let mut head = recorded
            .iter()
            .rev()
            .find(|(i, _)| *i == last)
            .and_then(|(_, h)| dice::from_hex(h))
            .ok_or_else(|| corrupt(format!("head #{last} unreadable")))?;
        let journal = self.read_journal()?;
        let protocol = journal
            .lines
            .first()
            .and_then(|l| serde_json::from_str::<Event>(l).ok())
            .and_then(|e| match e {
                Event::GameCreated { protocol, .. } => Some(protocol),
                _ => None,
            })
            .ok_or_else(|| corrupt("the journal does not begin with game_created".into()))?;
        for i in last + 1..index {
            let line = journal
                .lines
                .get(i as usize)
                .ok_or_else(|| corrupt(format!("journal line {i} missing")))?;
            head = dice::log_step(protocol, &head, line.as_bytes());
            append_line(&p, &format!("{i}\t{}", dice::to_hex(&head)))?;
        }
        Ok(())
    }

    /// The heads recorded at append time, by event index. A torn last line is left out.
    pub fn recorded_heads(&self) -> Result<Vec<(u64, String)>, StoreError> {
        let p = self.dir.join("heads.log");
        let bytes = match fs::read(&p) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(vec![]),
            Err(e) => return Err(StoreError::Io { path: p, source: e }),
        };
        let (lines, _, _) = whole_lines(&bytes, &p)?;
        Ok(lines
            .iter()
            .filter_map(|l| {
                let (i, h) = l.split_once('\t')?;
                Some((i.parse().ok()?, h.to_string()))
            })
            .collect())
    }

    /// Reads the whole journal. Reading never writes, so auditors and a live daemon can read
    /// side by side.
    pub fn read_journal(&self) -> Result<Journal, StoreError> {
        self.read_journal_from(0)
    }

    /// Reads the journal's whole lines from byte `offset` on (which must start a line).
    pub fn read_journal_from(&self, offset: u64) -> Result<Journal, StoreError> {
        let p = self.journal_path();
        let mut f = fs::File::open(&p).map_err(|e| self.missing(e))?;
        let mut bytes = Vec::new();
        f.seek(SeekFrom::Start(offset)).map_err(io_err(&p))?;
        f.read_to_end(&mut bytes).map_err(io_err(&p))?;
        let (lines, torn_tail, whole) = whole_lines(&bytes, &p)?;
        Ok(Journal {
            lines,
            torn_tail,
            bytes: offset + whole as u64,
        })
    }

    /// Whether byte `offset` of the journal begins a line (the byte before it is a newline).
    pub fn starts_line(&self, offset: u64) -> Result<bool, StoreError> {
        if offset == 0 {
            return Ok(true);
        }
        let p = self.journal_path();
        let mut f = fs::File::open(&p).map_err(|e| self.missing(e))?;
        let len = f.metadata().map_err(io_err(&p))?.len();
        if offset > len {
            return Ok(false);
        }
        let mut b = [0u8; 1];
        f.seek(SeekFrom::Start(offset - 1)).map_err(io_err(&p))?;
        f.read_exact(&mut b).map_err(io_err(&p))?;
        Ok(b[0] == b'\n')
    }
}
