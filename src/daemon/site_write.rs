//! Writing the live site's files so that a reader never sees half a page (issue 31 point 2).
//! Each changed file is written under a temporary name beside its own (`.<name>.tmp.<pid>`),
//! its content flushed to disk, and renamed over the old one: a reader opens the old file or
//! the new, never a mix, and a crash leaves the previous page. Files are renamed in the order
//! given (what a page links to before the page), so every link a reader follows resolves.
//! Unchanged files are not touched. It never removes anything outside the folder it is given,
//! and never a file whose name begins with a dot but its own temporaries.
//!
//! Why not a versioned folder behind a symlink swapped at once: a game's pages grow by a step
//! at a time, and a new folder would copy every page at every step; the folders of games
//! archived before this are plain folders a symlink cannot replace in one rename; and a reader
//! between two pages of a swapped site may still meet a page of the other version. One
//! rename per file, in link order, gives each reader whole pages whose links resolve.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Files renamed per batch: each batch's contents are flushed side by side before any of its
/// renames (`store::replace_files`), and a game's first write may hold hundreds of files.
const BATCH: usize = 64;

/// Writes `files` (relative paths, in writing order) under `dir`, each changed one atomically.
/// With `prune`, every other file under `dir` is removed afterwards (a seat's old page, a
/// crash's temporaries), and folders left empty with them. Returns the files written.
pub(super) fn write_files(dir: &Path, files: &[(String, Vec<u8>)], prune: bool) -> Result<usize> {
    write_and_prune(dir, files, if prune { Some(&[]) } else { None })
}

/// `write_files`; with `keep`, every file under `dir` neither in `files` nor in `keep` is
/// removed afterwards (`keep`: the site's files left as they are, a past step's maps).
pub(super) fn write_and_prune(
    dir: &Path,
    files: &[(String, Vec<u8>)],
    keep: Option<&[String]>,
) -> Result<usize> {
    for (rel, _) in files {
        if !plain_relative(rel) {
            bail!("{rel:?} is not a plain path inside the site");
        }
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let changed: Vec<(PathBuf, &[u8])> = files
        .iter()
        .map(|(rel, bytes)| (dir.join(rel), bytes.as_slice()))
        .filter(|(path, bytes)| std::fs::read(path).ok().as_deref() != Some(*bytes))
        .collect();
    for batch in changed.chunks(BATCH) {
        if let Err(e) = crate::store::replace_files(batch, crate::store::Durable::ContentOnly) {
            // What was renamed stays (each file whole); what was not is swept now.
            sweep_temporaries(dir);
            return Err(e).with_context(|| format!("writing the pages in {}", dir.display()));
        }
    }
    if let Some(kept) = keep {
        let keep: BTreeSet<PathBuf> = (files.iter().map(|(rel, _)| rel))
            .chain(kept)
            .map(|rel| dir.join(rel))
            .collect();
        prune_except(dir, &keep);
    }
    Ok(changed.len())
}

/// `a/b.html`: no root, no `..`, no empty part.
fn plain_relative(rel: &str) -> bool {
    !rel.is_empty()
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

fn is_temporary(name: &str) -> bool {
    name.starts_with('.') && name.contains(".tmp.")
}

/// Removes the temporaries a failed or crashed write left under `dir`.
fn sweep_temporaries(dir: &Path) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() && !p.is_symlink() {
            sweep_temporaries(&p);
        } else if is_temporary(&name) {
            let _ = std::fs::remove_file(&p);
        }
    }
}

/// Removes every file under `dir` not in `keep` (dot-files other than temporaries are left:
/// they are not the site's), then the folders that became empty.
fn prune_except(dir: &Path, keep: &BTreeSet<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if p.is_dir() && !p.is_symlink() {
            prune_except(&p, keep);
            // Only succeeds when empty.
            let _ = std::fs::remove_dir(&p);
        } else if is_temporary(&name) || (!name.starts_with('.') && !keep.contains(&p)) {
            let _ = std::fs::remove_file(&p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_written() {
        assert!(plain_relative("s/abc/index.html"));
        for bad in ["", "/etc/x", "../x", "a/../../x", "./"] {
            assert!(!plain_relative(bad), "{bad}");
        }
    }

    #[test]
    fn changed_files_are_replaced_unchanged_left_and_the_rest_pruned() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("g");
        let files = vec![
            ("maps/a.svg".to_string(), b"<svg/>".to_vec()),
            ("index.html".to_string(), b"one".to_vec()),
        ];
        assert_eq!(write_files(&dir, &files, true).unwrap(), 2);
        assert_eq!(
            write_files(&dir, &files, true).unwrap(),
            0,
            "nothing changed"
        );
        std::fs::create_dir_all(dir.join("s/old")).unwrap();
        std::fs::write(dir.join("s/old/index.html"), "gone").unwrap();
        std::fs::write(dir.join(".index.html.tmp.1"), "half").unwrap();
        std::fs::write(dir.join(".keep"), "not ours").unwrap();
        let files = vec![
            ("maps/a.svg".to_string(), b"<svg/>".to_vec()),
            ("index.html".to_string(), b"two".to_vec()),
        ];
        assert_eq!(write_files(&dir, &files, true).unwrap(), 1);
        assert_eq!(std::fs::read(dir.join("index.html")).unwrap(), b"two");
        assert!(!dir.join("s").exists(), "the old seat page is removed");
        assert!(!dir.join(".index.html.tmp.1").exists());
        assert!(dir.join(".keep").exists());
        assert!(write_files(&dir, &[("../x".into(), vec![])], false).is_err());
    }
}
