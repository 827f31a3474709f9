//! Who may write the data folder: its owner and nobody else, root included, so that every file
//! Despatch makes belongs to the user the service runs as (a `despatch new` typed as root made
//! secret files the service could not read). Pure: the accounts come in as values (`facts`
//! looks them up); this module decides and words the refusal and the fixes, and touches nothing.

use std::fmt;
use std::path::{Path, PathBuf};

/// A user as the system knows it: the uid, and the names when the user database has them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub uid: u32,
    pub name: Option<String>,
    /// The primary group.
    pub gid: u32,
    pub group: Option<String>,
    /// Every group the user is in (the primary one included), for "can it read this file".
    pub groups: Vec<u32>,
}

impl Account {
    /// The name, or `uid N` when the user database has none.
    pub fn label(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("uid {}", self.uid))
    }

    pub fn is_root(&self) -> bool {
        self.uid == 0
    }

    /// `user:group` for `chown` (numbers where the names are unknown).
    pub fn chown_spec(&self) -> String {
        format!(
            "{}:{}",
            self.name.clone().unwrap_or_else(|| self.uid.to_string()),
            self.group.clone().unwrap_or_else(|| self.gid.to_string())
        )
    }
}

/// The folder whose owner decides: the data folder itself, or while it does not exist yet the
/// nearest folder above it that does (the one it will be made in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub path: PathBuf,
    pub is_data_folder: bool,
    pub owner: Account,
}

/// A command that writes the data folder, refused because it runs as another user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotOwner {
    pub data_folder: PathBuf,
    pub holder: Holder,
    pub me: Account,
    /// The same command line, ready to paste (`despatch --config … new …`).
    pub rerun: String,
}

/// May `me` run a command that writes `data_folder`? Only its owner may (see the module doc).
pub fn may_write(
    data_folder: &Path,
    holder: &Holder,
    me: &Account,
    rerun: &str,
) -> Result<(), Box<NotOwner>> {
    if holder.owner.uid == me.uid {
        return Ok(());
    }
    Err(Box::new(NotOwner {
        data_folder: data_folder.to_path_buf(),
        holder: holder.clone(),
        me: me.clone(),
        rerun: rerun.to_string(),
    }))
}

impl NotOwner {
    /// Where the folder stands and whose it is, as one clause.
    fn whose(&self) -> String {
        let owner = self.holder.owner.label();
        if self.holder.is_data_folder {
            format!(
                "the data folder {} belongs to `{owner}`",
                self.data_folder.display()
            )
        } else {
            format!(
                "the data folder {} does not exist yet, and {}, where it would be made, belongs \
                 to `{owner}`",
                self.data_folder.display(),
                self.holder.path.display()
            )
        }
    }

    /// The exact fix: run it as the owner; or, when the owner is root (or has no name) and so
    /// cannot be the service user, hand the folder to the user who runs the service.
    pub fn fix(&self) -> String {
        let owner = &self.holder.owner;
        let me = self.me.label();
        match (&owner.name, owner.is_root()) {
            (Some(name), false) => {
                format!("run it as that user: runuser -u {name} -- {}", self.rerun)
            }
            _ if self.holder.is_data_folder => format!(
                "if `{me}` runs the service, hand it the folder (as root): chown -R {} {}; \
                 otherwise run the command as the folder's owner",
                self.me.chown_spec(),
                self.data_folder.display()
            ),
            _ => format!(
                "if `{me}` runs the service, make the folder for it (as root): install -d -o {} \
                 -g {} {}; otherwise run the command as the owner of {}",
                self.me
                    .name
                    .clone()
                    .unwrap_or_else(|| self.me.uid.to_string()),
                self.me
                    .group
                    .clone()
                    .unwrap_or_else(|| self.me.gid.to_string()),
                self.data_folder.display(),
                self.holder.path.display()
            ),
        }
    }
}

impl fmt::Display for NotOwner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, and you are `{}`. Every file Despatch writes must belong to the user the service \
             runs as, so this command is refused: {}",
            self.whose(),
            self.me.label(),
            self.fix()
        )
    }
}

impl std::error::Error for NotOwner {}

/// What the organiser is told when a game cannot be read: the cause and the fix. `denied` is
/// the file or folder the daemon was refused, with its owner when known; `None` for any other
/// failure, `error` being the daemon's own words for it. `daemon` is the user the daemon runs as.
pub fn unreadable_game_advice(
    game: &str,
    game_dir: &Path,
    error: &str,
    denied: Option<(&Path, Option<&Account>)>,
    daemon: &Account,
) -> String {
    match denied {
        Some((path, owner)) => {
            let whose = match owner {
                Some(o) if o.uid != daemon.uid => format!(", which belongs to `{}`", o.label()),
                _ => String::new(),
            };
            format!(
                "Cause: the daemon runs as `{user}` and is not allowed to read {path}{whose}.\n\
                 This happens when an organiser command (such as `despatch new`) was run as\n\
                 another user than the service's.\n\n\
                 Fix, as root:\n    chown -R {spec} {dir}\n\
                 and from now on run organiser commands as the service user:\n    \
                 runuser -u {user} -- despatch --config <config.toml> <command>\n\
                 The game is tried again at every pass: it goes on by itself once its files\n\
                 are readable. `despatch doctor` lists every file the service cannot read.\n\n\
                 (The error: {error})\n",
                user = daemon.label(),
                path = path.display(),
                spec = daemon.chown_spec(),
                dir = game_dir.display(),
            )
        }
        None => format!(
            "Cause: {error}\n\n\
             What to check: the game's folder {dir} (its journal.jsonl, host.secret and\n\
             seats.toml must be there and intact); `despatch verify {game}` checks the journal\n\
             and `despatch doctor` the whole set-up. The game is tried again at every pass.\n",
            dir = game_dir.display(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(uid: u32, name: &str) -> Account {
        Account {
            uid,
            name: Some(name.into()),
            gid: uid,
            group: Some(name.into()),
            groups: vec![uid],
        }
    }

    fn holder(owner: Account, is_data_folder: bool, path: &str) -> Holder {
        Holder {
            path: path.into(),
            is_data_folder,
            owner,
        }
    }

    const RERUN: &str = "despatch --config /srv/despatch/config.toml new g1 --ruleset naval-rjw";

    #[test]
    fn the_owner_may_write_and_nobody_else_not_even_root() {
        let despatch = user(998, "despatch");
        let root = user(0, "root");
        let data = Path::new("/srv/despatch/var");
        let h = holder(despatch.clone(), true, "/srv/despatch/var");
        assert!(may_write(data, &h, &despatch, RERUN).is_ok());
        let e = may_write(data, &h, &root, RERUN).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("the data folder /srv/despatch/var belongs to `despatch`")
                && text.contains("you are `root`"),
            "{text}"
        );
        assert!(
            text.contains(&format!("runuser -u despatch -- {RERUN}")),
            "the exact command: {text}"
        );
        // And root's own folder is root's to write.
        assert!(may_write(data, &holder(root.clone(), true, "x"), &root, RERUN).is_ok());
    }

    #[test]
    fn a_folder_not_made_yet_is_judged_by_the_folder_that_will_hold_it() {
        let despatch = user(998, "despatch");
        let root = user(0, "root");
        let h = holder(despatch.clone(), false, "/srv/despatch");
        let e = may_write(Path::new("/srv/despatch/var"), &h, &root, RERUN).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("does not exist yet, and /srv/despatch, where it would be made, belongs to `despatch`"),
            "{text}"
        );
        assert!(text.contains("runuser -u despatch --"), "{text}");
    }

    #[test]
    fn a_folder_of_root_is_handed_to_the_service_user_rather_than_run_as_root() {
        let despatch = user(998, "despatch");
        let root = user(0, "root");
        let data = Path::new("/srv/despatch/var");
        let e = may_write(data, &holder(root.clone(), true, "x"), &despatch, RERUN).unwrap_err();
        assert!(
            e.fix()
                .contains("chown -R despatch:despatch /srv/despatch/var"),
            "{}",
            e.fix()
        );
        assert!(!e.fix().contains("runuser -u root"), "{}", e.fix());
        let e = may_write(data, &holder(root, false, "/srv"), &despatch, RERUN).unwrap_err();
        assert!(
            e.fix()
                .contains("install -d -o despatch -g despatch /srv/despatch/var"),
            "{}",
            e.fix()
        );
    }

    #[test]
    fn unknown_users_are_named_by_number() {
        let ghost = Account {
            uid: 4242,
            name: None,
            gid: 4242,
            group: None,
            groups: vec![],
        };
        assert_eq!(ghost.label(), "uid 4242");
        assert_eq!(ghost.chown_spec(), "4242:4242");
        let me = user(998, "despatch");
        let e = may_write(Path::new("/v"), &holder(ghost, true, "/v"), &me, RERUN).unwrap_err();
        assert!(e.to_string().contains("`uid 4242`"), "{e}");
        assert!(
            e.fix().contains("chown -R despatch:despatch /v"),
            "{}",
            e.fix()
        );
    }

    #[test]
    fn an_unreadable_game_gets_the_fix_that_fits_its_cause() {
        let despatch = user(998, "despatch");
        let root = user(0, "root");
        let dir = Path::new("/srv/despatch/var/games/g1");
        let file = dir.join("host.secret");
        let denied = unreadable_game_advice(
            "g1",
            dir,
            "Permission denied (os error 13)",
            Some((&file, Some(&root))),
            &despatch,
        );
        assert!(
            denied.contains("chown -R despatch:despatch /srv/despatch/var/games/g1")
                && denied.contains("belongs to `root`")
                && denied.contains("runuser -u despatch --"),
            "{denied}"
        );
        // Control: another cause gets no chown, but the error and what to check.
        let other = unreadable_game_advice(
            "g1",
            dir,
            "journal.jsonl: line 3: not JSON",
            None,
            &despatch,
        );
        assert!(!other.contains("chown"), "{other}");
        assert!(
            other.contains("journal.jsonl: line 3: not JSON")
                && other.contains("despatch verify g1"),
            "{other}"
        );
    }
}
