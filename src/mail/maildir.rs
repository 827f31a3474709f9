//! Maildir transport: atomic, idempotent delivery into `new/`, the `new/` → `cur/` hand-off, and
//! reads that check a mail's size before loading it. The only file in `mail/` that touches the
//! disk; it never parses or builds messages.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

/// The info suffix a seen message carries in `cur/` (Maildir "version 2" flags, Seen).
const SEEN_SUFFIX: &str = ":2,S";

/// Longest readable prefix kept by [`unique_name_for`]; the hash after it keeps names distinct.
const READABLE_PREFIX_MAX: usize = 64;

/// A Maildir folder (`cur/`, `new/`, `tmp/` under one root).
#[derive(Debug, Clone)]
pub struct Maildir {
    root: PathBuf,
}

/// A message waiting in `new/`: `id` is its unique name (the file name), `path` where it lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub id: String,
    pub path: PathBuf,
}

/// What [`Maildir::read_at_most`] found: the whole mail, or only that it is too large.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loaded {
    Whole(Vec<u8>),
    /// Larger than the limit; `bytes` is the size seen (at least the limit plus one).
    TooLarge {
        bytes: u64,
    },
}

/// A message with its CRLF line ends turned into LF, the line ending of a message stored in a
/// Maildir (as MTAs deliver them, and as local mail tools expect). A lone CR is kept. Linear.
pub fn local_line_endings(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

impl Maildir {
    /// Opens the Maildir at `path`, creating it and its three subfolders if missing.
    pub fn open_or_create(path: impl AsRef<Path>) -> io::Result<Self> {
        let root = path.as_ref().to_path_buf();
        for sub in ["cur", "new", "tmp"] {
            fs::create_dir_all(root.join(sub))?;
        }
        Ok(Self { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Delivers `bytes` under `unique_name` into `new/`: written to `tmp/`, synced, renamed, the
    /// directory synced. A name already present in `new/` or `cur/` is not written again, so a
    /// re-run after a crash never duplicates a mail; the existing path is returned.
    pub fn deliver(&self, bytes: &[u8], unique_name: &str) -> io::Result<PathBuf> {
        check_name(unique_name)?;
        if let Some(existing) = self.find(unique_name)? {
            return Ok(existing);
        }
        // The pid keeps two processes delivering the same name from sharing a tmp file.
        let tmp = self
            .root
            .join("tmp")
            .join(format!("{unique_name}.{}", std::process::id()));
        let dest = self.root.join("new").join(unique_name);
        let written = (|| {
            let mut file = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&tmp)?;
            file.write_all(bytes)?;
            crate::store::sync_file(&file)?;
            drop(file);
            fs::rename(&tmp, &dest)?;
            sync_dir(&self.root.join("new"))
        })();
        if written.is_err() {
            // Best effort: a stale tmp file is harmless but untidy.
            let _ = fs::remove_file(&tmp);
        }
        written.map(|()| dest)
    }

    /// Where the message named `unique_name` lies, in `new/` or in `cur/` (any info suffix).
    pub fn find(&self, unique_name: &str) -> io::Result<Option<PathBuf>> {
        check_name(unique_name)?;
        let in_new = self.root.join("new").join(unique_name);
        if in_new.is_file() {
            return Ok(Some(in_new));
        }
        let seen = self
            .root
            .join("cur")
            .join(format!("{unique_name}{SEEN_SUFFIX}"));
        if seen.is_file() {
            return Ok(Some(seen));
        }
        // Another reader may have moved it with other flags (`:2,RS`) or none.
        for item in fs::read_dir(self.root.join("cur"))? {
            let item = item?;
            let name = item.file_name();
            let Some(name) = name.to_str() else { continue };
            if base_name(name) == unique_name && item.file_type()?.is_file() {
                return Ok(Some(item.path()));
            }
        }
        Ok(None)
    }

    /// The messages in `new/`, oldest first (modification time, then file name) so every run
    /// processes them in the same order. Dot files and non-files are skipped.
    pub fn list_new(&self) -> io::Result<Vec<Entry>> {
        let mut found: Vec<(SystemTime, Entry)> = Vec::new();
        for item in fs::read_dir(self.root.join("new"))? {
            let item = item?;
            let os_name = item.file_name();
            // A name that is not UTF-8 is still a mail: its id is the lossy spelling.
            let name = os_name.to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            let meta = match item.metadata() {
                Ok(meta) => meta,
                // Moved away by another reader between read_dir and stat.
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
            };
            if !meta.is_file() {
                continue;
            }
            let mtime = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            found.push((
                mtime,
                Entry {
                    id: base_name(&name).to_string(),
                    path: item.path(),
                },
            ));
        }
        found.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.path.cmp(&b.1.path)));
        Ok(found.into_iter().map(|(_, entry)| entry).collect())
    }

    /// Moves the entry from `new/` to `cur/` with the Seen flag. Already moved is not an error.
    pub fn mark_seen(&self, entry: &Entry) -> io::Result<PathBuf> {
        // The name came from the directory itself (an MTA chose it: spaces, `#`, `\057`,
        // non-ASCII, very long…), so it is moved as it is; only a name too long to carry the
        // `:2,S` flags gets a short, stable one.
        let name = entry.path.file_name().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "entry path has no file name")
        })?;
        let cur_name = cur_name_for(name, &entry.id);
        let dest = self.root.join("cur").join(&cur_name);
        match fs::rename(&entry.path, &dest) {
            Ok(()) => {
                sync_dir(&self.root.join("cur"))?;
                sync_dir(&self.root.join("new"))?;
                Ok(dest)
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if dest.exists() {
                    return Ok(dest);
                }
                match self.find_in_cur(&entry.id).ok().flatten() {
                    Some(path) => Ok(path),
                    None => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The raw bytes of the entry, wherever it now lies (`new/` or, once seen, `cur/`).
    pub fn read(&self, entry: &Entry) -> io::Result<Vec<u8>> {
        match fs::read(&entry.path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => match self.find(&entry.id)? {
                Some(path) => fs::read(path),
                None => Err(e),
            },
            other => other,
        }
    }

    /// The entry's size in bytes from the file's metadata, without reading it.
    pub fn size(&self, entry: &Entry) -> io::Result<u64> {
        Ok(self.open(entry)?.metadata()?.len())
    }

    /// The raw bytes of the entry when it holds at most `max_bytes`; otherwise its size, read
    /// from the metadata of the open file before a byte is read, so an oversized mail can be
    /// set aside without ever being in memory whole. A file that grows past the limit while it
    /// is read is reported too large, never read beyond `max_bytes + 1` bytes.
    pub fn read_at_most(&self, entry: &Entry, max_bytes: u64) -> io::Result<Loaded> {
        let file = self.open(entry)?;
        let size = file.metadata()?.len();
        if size > max_bytes {
            return Ok(Loaded::TooLarge { bytes: size });
        }
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        file.take(max_bytes.saturating_add(1))
            .read_to_end(&mut bytes)?;
        if bytes.len() as u64 > max_bytes {
            return Ok(Loaded::TooLarge {
                bytes: bytes.len() as u64,
            });
        }
        Ok(Loaded::Whole(bytes))
    }

    /// Opens the entry's file wherever it now lies.
    fn open(&self, entry: &Entry) -> io::Result<File> {
        match File::open(&entry.path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => match self.find(&entry.id)? {
                Some(path) => File::open(path),
                None => Err(e),
            },
            other => other,
        }
    }

    fn find_in_cur(&self, unique_name: &str) -> io::Result<Option<PathBuf>> {
        match self.find(unique_name)? {
            Some(path) if path.parent() == Some(&self.root.join("cur")) => Ok(Some(path)),
            _ => Ok(None),
        }
    }
}

/// A deterministic Maildir name for any identifier (a Message-ID, an outbox key): a readable,
/// filename-safe prefix plus 16 hex digits of its SHA-256, so distinct ids never share a name.
pub fn unique_name_for(id: &str) -> String {
    let readable: String = id
        .chars()
        .map(|c| if is_safe_char(c) { c } else { '_' })
        .take(READABLE_PREFIX_MAX)
        .collect();
    let readable = readable.trim_start_matches('.');
    let digest = hex::encode(Sha256::digest(id.as_bytes()));
    format!("{readable}.{}", &digest[..16])
}

fn is_safe_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+' | '=' | ',' | '@')
}

/// Names go straight into paths: no separators, no `:` (the info delimiter), no hidden files.
fn check_name(name: &str) -> io::Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 200
        && !name.starts_with('.')
        && name.chars().all(is_safe_char);
    if ok {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("unsafe Maildir name {name:?}"),
        ))
    }
}

/// The part of a Maildir file name before its `:2,…` info.
fn base_name(file_name: &str) -> &str {
    file_name.split(':').next().unwrap_or(file_name)
}

/// The file name a seen message takes in `cur/`: its own base name with `:2,S`, or, when that
/// would not fit a file name (255 bytes), a safe shortened one.
fn cur_name_for(name: &std::ffi::OsStr, id: &str) -> std::ffi::OsString {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let bytes = name.as_bytes();
    let base = match bytes.iter().position(|b| *b == b':') {
        Some(i) => &bytes[..i],
        None => bytes,
    };
    if base.len() + SEEN_SUFFIX.len() <= 250 && !base.is_empty() {
        let mut out = base.to_vec();
        out.extend_from_slice(SEEN_SUFFIX.as_bytes());
        std::ffi::OsString::from_vec(out)
    } else {
        std::ffi::OsString::from(format!("{}{SEEN_SUFFIX}", unique_name_for(id)))
    }
}

fn sync_dir(dir: &Path) -> io::Result<()> {
    crate::store::sync_file(&File::open(dir)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_messages_have_local_line_endings() {
        assert_eq!(
            local_line_endings(b"Subject: x\r\n\r\nbody\rstill\r\n"),
            b"Subject: x\n\nbody\rstill\n"
        );
        assert_eq!(local_line_endings(b"\r"), b"\r");
        assert_eq!(local_line_endings(b""), b"");
    }

    #[test]
    fn unique_names_are_safe_and_distinct() {
        let a = unique_name_for("CAFE+1@mail.gmail.com");
        let b = unique_name_for("cafe/1@mail.gmail.com");
        let c = unique_name_for("cafe_1@mail.gmail.com");
        assert!(check_name(&a).is_ok() && check_name(&b).is_ok() && check_name(&c).is_ok());
        assert_ne!(b, c);
        assert_eq!(a, unique_name_for("CAFE+1@mail.gmail.com"));
        assert!(check_name(&unique_name_for("../../etc/passwd")).is_ok());
        assert!(check_name(&unique_name_for(&"x".repeat(5000))).is_ok());
    }

    #[test]
    fn unsafe_names_are_refused() {
        for bad in ["", "a/b", "a:2,S", ".hidden", "..", "a b"] {
            assert!(check_name(bad).is_err(), "{bad:?} accepted");
        }
    }
}
