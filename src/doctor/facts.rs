//! The thin edge of `doctor` and of the organiser's guard: reads the user database (through
//! `nix`) and the disk's owners and modes into values for `owner` and `checks` to judge. It
//! reads only: it never makes, changes or removes a file.

use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use nix::unistd::{Gid, Group, Uid, User};

use super::owner::{Account, Holder};

/// The user behind `uid`, with the names the user database has (none for an unknown uid).
pub fn account(uid: u32) -> Account {
    let user = User::from_uid(Uid::from_raw(uid)).ok().flatten();
    let gid = user.as_ref().map(|u| u.gid.as_raw()).unwrap_or(uid);
    let group = Group::from_gid(Gid::from_raw(gid))
        .ok()
        .flatten()
        .map(|g| g.name);
    let mut groups = vec![gid];
    if let Some(u) = &user
        && let Ok(name) = std::ffi::CString::new(u.name.clone())
        && let Ok(all) = nix::unistd::getgrouplist(&name, u.gid)
    {
        groups.extend(all.iter().map(|g| g.as_raw()));
        groups.sort_unstable();
        groups.dedup();
    }
    Account {
        uid,
        name: user.map(|u| u.name),
        gid,
        group,
        groups,
    }
}

/// The user this process runs as (its effective uid).
pub fn me() -> Account {
    account(nix::unistd::geteuid().as_raw())
}

/// `path` made absolute against the current folder (for messages and the owner walk).
pub fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_path_buf();
    }
    std::env::current_dir()
        .map(|d| d.join(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The folder whose owner decides for `data_folder`: itself, or the nearest existing folder
/// above it.
pub fn holder(data_folder: &Path) -> io::Result<Holder> {
    let abs = absolute(data_folder);
    let mut last_err = None;
    for (i, p) in abs.ancestors().enumerate() {
        match std::fs::metadata(p) {
            Ok(m) => {
                return Ok(Holder {
                    path: p.to_path_buf(),
                    is_data_folder: i == 0,
                    owner: account(m.uid()),
                });
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => last_err = Some(e),
        }
    }
    Err(last_err.unwrap_or_else(|| io::Error::other("no folder above it exists")))
}

/// A file or folder as its owner and mode say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub path: PathBuf,
    pub uid: u32,
    pub gid: u32,
    pub mode: u32,
    pub is_dir: bool,
}

/// Every file and folder under `root` (itself included), without following links; entries
/// that cannot be listed are returned as errors beside them (a folder root cannot open is
/// itself a finding). Linear in the folder's size.
pub fn walk(root: &Path) -> (Vec<Entry>, Vec<(PathBuf, io::Error)>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(p) = todo.pop() {
        let meta = match std::fs::symlink_metadata(&p) {
            Ok(m) => m,
            Err(e) => {
                errors.push((p, e));
                continue;
            }
        };
        let is_dir = meta.is_dir();
        out.push(Entry {
            path: p.clone(),
            uid: meta.uid(),
            gid: meta.gid(),
            mode: meta.mode() & 0o7777,
            is_dir,
        });
        if is_dir {
            match std::fs::read_dir(&p) {
                Ok(rd) => todo.extend(rd.filter_map(|e| e.ok()).map(|e| e.path())),
                Err(e) => errors.push((p, e)),
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    (out, errors)
}

/// The owner of `path`, if it can be looked at.
pub fn owner_of(path: &Path) -> Option<Account> {
    std::fs::metadata(path).ok().map(|m| account(m.uid()))
}

/// In an error's chain, the first place the system refused access to (a permission error with
/// its path when the store gave one).
pub fn permission_denied(e: &anyhow::Error) -> Option<Option<PathBuf>> {
    for cause in e.chain() {
        if let Some(crate::store::StoreError::Io { path, source }) =
            cause.downcast_ref::<crate::store::StoreError>()
            && source.kind() == io::ErrorKind::PermissionDenied
        {
            return Some(Some(path.clone()));
        }
        if let Some(io) = cause.downcast_ref::<io::Error>()
            && io.kind() == io::ErrorKind::PermissionDenied
        {
            return Some(None);
        }
    }
    None
}
