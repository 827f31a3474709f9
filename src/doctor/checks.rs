//! The checks of `despatch doctor` as pure functions of what was found (owners, modes, the
//! outcome of opening a game or logging in): each gives findings, a finding says what is wrong
//! and the fix. Nothing here reads the disk or the network; `facts` and `net` do.

use std::fmt;
use std::path::{Path, PathBuf};

use super::facts::Entry;
use super::owner::Account;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Ok,
    /// Play goes on, but something will surprise the organiser or a player.
    Warn,
    /// Something that stops play (a game, the mail, the daemon): doctor exits non-zero.
    Problem,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub level: Level,
    pub what: String,
    pub fix: Option<String>,
}

impl Finding {
    pub fn ok(what: impl Into<String>) -> Self {
        Self {
            level: Level::Ok,
            what: what.into(),
            fix: None,
        }
    }
    pub fn warn(what: impl Into<String>, fix: impl Into<String>) -> Self {
        Self {
            level: Level::Warn,
            what: what.into(),
            fix: Some(fix.into()),
        }
    }
    pub fn problem(what: impl Into<String>, fix: impl Into<String>) -> Self {
        Self {
            level: Level::Problem,
            what: what.into(),
            fix: Some(fix.into()),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tag = match self.level {
            Level::Ok => "OK     ",
            Level::Warn => "WARN   ",
            Level::Problem => "PROBLEM",
        };
        // A multi-line cause (a TOML error with its caret) stays under its tag, indented.
        let what: Vec<&str> = self
            .what
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        write!(f, "{tag} {}", what.join("\n        "))?;
        if let Some(fix) = &self.fix {
            write!(f, "\n        fix: {fix}")?;
        }
        Ok(())
    }
}

/// Whether any finding stops play.
pub fn stops_play(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.level == Level::Problem)
}

/// Can `who` read (and for a folder, enter) an entry with this owner and mode?
pub fn readable_by(e: &Entry, who: &Account) -> bool {
    if who.is_root() {
        return true;
    }
    let need = if e.is_dir { 0o5 } else { 0o4 };
    let bits = if e.uid == who.uid {
        e.mode >> 6
    } else if who.groups.contains(&e.gid) || e.gid == who.gid {
        e.mode >> 3
    } else {
        e.mode
    };
    bits & need == need
}

/// Can `who` make entries in this folder (write and enter it)?
pub fn writable_by(e: &Entry, who: &Account) -> bool {
    if who.is_root() {
        return true;
    }
    let bits = if e.uid == who.uid {
        e.mode >> 6
    } else if who.groups.contains(&e.gid) || e.gid == who.gid {
        e.mode >> 3
    } else {
        e.mode
    };
    bits & 0o3 == 0o3
}

/// The data folder's owner against the user running doctor. `rerun` is this doctor's own
/// command line, to run as the owner.
pub fn data_folder_owner(folder: &Path, owner: &Account, me: &Account, rerun: &str) -> Finding {
    if owner.uid == me.uid {
        return Finding::ok(format!(
            "data folder {} belongs to `{}`, who runs this check",
            folder.display(),
            me.label()
        ));
    }
    if me.is_root() {
        // Root sees everything: say so, and how to see it as the service does.
        return Finding::warn(
            format!(
                "data folder {} belongs to `{}`; you are root, so what follows is what root sees",
                folder.display(),
                owner.label()
            ),
            match &owner.name {
                Some(n) if !owner.is_root() => format!(
                    "to see what the service sees, run doctor as that user: runuser -u {n} -- {rerun}"
                ),
                _ => "run doctor as the user the service runs as".to_string(),
            },
        );
    }
    Finding::problem(
        format!(
            "data folder {} belongs to `{}`, and you are `{}`: organiser commands run as you are refused, and a service running as you cannot write it",
            folder.display(),
            owner.label(),
            me.label()
        ),
        match (&owner.name, owner.is_root()) {
            (Some(n), false) => format!(
                "run organiser commands (and doctor) as that user: runuser -u {n} -- {rerun}; or, if `{}` runs the service, (as root) chown -R {} {}",
                me.label(),
                me.chown_spec(),
                folder.display()
            ),
            _ => format!(
                "if `{}` runs the service, (as root) chown -R {} {}",
                me.label(),
                me.chown_spec(),
                folder.display()
            ),
        },
    )
}

/// The names Despatch keeps secret (mode 0600) in each game's folder.
pub const SECRET_FILES: &[&str] = &["host.secret", "host.checkpoints", "seats.toml"];

/// Every entry of the data folder must belong to its owner (the daemon writes them all), be
/// readable by it, and the secrets must be readable by it alone. At most a few paths are named
/// per finding, with the count.
pub fn data_folder_files(
    folder: &Path,
    owner: &Account,
    entries: &[Entry],
    unlisted: &[(PathBuf, String)],
) -> Vec<Finding> {
    const SHOWN: usize = 3;
    let rel = |p: &Path| {
        p.strip_prefix(folder)
            .ok()
            .filter(|r| !r.as_os_str().is_empty())
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let names = |v: &[&Entry]| {
        let mut s: Vec<String> = v.iter().take(SHOWN).map(|e| rel(&e.path)).collect();
        if v.len() > SHOWN {
            s.push(format!("and {} more", v.len() - SHOWN));
        }
        s.join(", ")
    };
    let mut out = Vec::new();
    let foreign: Vec<&Entry> = entries.iter().filter(|e| e.uid != owner.uid).collect();
    let unreadable: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.uid == owner.uid && !readable_by(e, owner))
        .collect();
    let open_secrets: Vec<&Entry> = entries
        .iter()
        .filter(|e| {
            !e.is_dir
                && e.mode & 0o077 != 0
                && e.path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| SECRET_FILES.contains(&n))
        })
        .collect();
    let chown = format!(
        "(as root) chown -R {} {}",
        owner.chown_spec(),
        folder.display()
    );
    if !foreign.is_empty() {
        out.push(Finding::problem(
            format!(
                "{} file(s) in the data folder do not belong to `{}`, who owns it (so the daemon, running as that user, cannot update them): {}",
                foreign.len(),
                owner.label(),
                names(&foreign)
            ),
            format!(
                "{chown}; then run organiser commands as `{}` only",
                owner.label()
            ),
        ));
    }
    if !unreadable.is_empty() {
        out.push(Finding::problem(
            format!(
                "{} file(s) in the data folder cannot be read by their owner `{}`: {}",
                unreadable.len(),
                owner.label(),
                names(&unreadable)
            ),
            format!("(as root) chmod -R u+rwX {}", folder.display()),
        ));
    }
    if !open_secrets.is_empty() {
        out.push(Finding::problem(
            format!(
                "{} secret file(s) can be read by other users than `{}`: {}",
                open_secrets.len(),
                owner.label(),
                names(&open_secrets)
            ),
            format!(
                "chmod 600 each of them (find {} -name host.secret -o -name seats.toml -o -name host.checkpoints | xargs chmod 600)",
                folder.display()
            ),
        ));
    }
    for (p, e) in unlisted.iter().take(SHOWN) {
        out.push(Finding::problem(
            format!("{} cannot be looked into: {e}", p.display()),
            chown.clone(),
        ));
    }
    if out.is_empty() {
        out.push(Finding::ok(format!(
            "{} file(s) in the data folder, all `{}`'s and readable by it; the secrets are 0600",
            entries.len(),
            owner.label()
        )));
    }
    out
}

/// Each game opened (journal, secrets, seats) or not, and whether it names its organiser.
pub struct GameOpened {
    pub id: String,
    pub result: Result<(), String>,
    /// The failure was the system refusing access to one of its files.
    pub denied: bool,
    pub has_gm: bool,
}

/// Every game must open; a game without an organiser of its own is covered by
/// `mail.gm_address` (or nobody hears about its trouble).
pub fn games(list: &[GameOpened], gm_address: Option<&str>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut fine = 0;
    for g in list {
        match &g.result {
            Ok(()) => fine += 1,
            Err(e) => out.push(Finding::problem(
                format!("game {} cannot be opened: {e}", g.id),
                if g.denied {
                    "give its files to the service user (see the data folder line above) and run organiser commands as that user".to_string()
                } else {
                    format!("check its folder; `despatch verify {}` says what is wrong with its journal", g.id)
                },
            )),
        }
    }
    if list.is_empty() {
        out.push(Finding::ok("no games yet"));
    } else if fine > 0 {
        out.push(Finding::ok(format!(
            "{fine} of {} game(s) open (journal, secrets and seats read)",
            list.len()
        )));
    }
    let orphans: Vec<&str> = list
        .iter()
        .filter(|g| g.result.is_ok() && !g.has_gm)
        .map(|g| g.id.as_str())
        .collect();
    if gm_address.is_none() && !orphans.is_empty() {
        out.push(Finding::warn(
            format!(
                "game(s) with no organiser address, and no mail.gm_address: {}; RESIGN, held mail and trouble reach nobody",
                orphans.join(", ")
            ),
            "set gm_address in config.toml's [mail] section",
        ));
    }
    out
}

/// Where each ruleset of this build was found (or the folders searched).
pub fn rulesets(found: &[(String, Result<PathBuf, String>)]) -> Vec<Finding> {
    let missing: Vec<&String> = found.iter().filter_map(|(_, r)| r.as_ref().err()).collect();
    if missing.is_empty() {
        let dirs: std::collections::BTreeSet<String> = found
            .iter()
            .filter_map(|(_, r)| r.as_ref().ok())
            .filter_map(|p| p.parent().map(|d| d.display().to_string()))
            .collect();
        return vec![Finding::ok(format!(
            "every ruleset's data found ({} in {})",
            found.len(),
            dirs.into_iter().collect::<Vec<_>>().join(", ")
        ))];
    }
    missing
        .into_iter()
        .map(|m| {
            Finding::problem(
                m.clone(),
                "install the rulesets' data (the repository's games/ folder) in one of those folders, or set games.games_dir in config.toml to where it is",
            )
        })
        .collect()
}

/// A Maildir as found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MaildirState {
    /// cur/, new/ and tmp/ there and writable by this user.
    Ready,
    /// Not there yet: the daemon makes it, in a folder it may write.
    WillBeMade,
    /// Not there, and the folder it would be made in is not writable by this user.
    CannotBeMade(PathBuf),
    /// There, but these subfolders are missing or not writable by this user.
    NotWritable(Vec<PathBuf>),
}

pub fn maildir(role: &str, path: &Path, state: &MaildirState, me: &Account) -> Finding {
    match state {
        MaildirState::Ready => {
            Finding::ok(format!("{role} Maildir {} is writable", path.display()))
        }
        MaildirState::WillBeMade => Finding::ok(format!(
            "{role} Maildir {} will be made by the daemon",
            path.display()
        )),
        MaildirState::CannotBeMade(parent) => Finding::problem(
            format!(
                "{role} Maildir {} does not exist and `{}` may not make it in {}",
                path.display(),
                me.label(),
                parent.display()
            ),
            format!(
                "(as root) install -d -o {} -g {} {}",
                me.name.clone().unwrap_or_else(|| me.uid.to_string()),
                me.group.clone().unwrap_or_else(|| me.gid.to_string()),
                path.display()
            ),
        ),
        MaildirState::NotWritable(bad) => Finding::problem(
            format!(
                "{role} Maildir {}: not writable by `{}`: {}",
                path.display(),
                me.label(),
                bad.iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "(as root) chown -R {} {} (a Maildir needs cur/, new/ and tmp/)",
                me.chown_spec(),
                path.display()
            ),
        ),
    }
}

/// The password of `what` (imap or smtp): `Ok(Some(source))` found, `Ok(None)` none
/// configured, `Err` the reason it could not be read.
pub fn password(what: &str, found: &Result<Option<String>, String>, me: &Account) -> Finding {
    match found {
        Ok(Some(source)) => Finding::ok(format!("{what} password found ({source})")),
        Ok(None) => Finding::problem(
            format!("{what}: no password_env or password_file"),
            format!("name one in the [{what}] section of config.toml"),
        ),
        Err(e) if e.contains("is not set") => Finding::problem(
            format!("{what}: {e} in this shell, so the login cannot be checked"),
            "the service reads it from its EnvironmentFile (e.g. /etc/despatch/secrets.env); to check by hand, export it first: set -a; . /etc/despatch/secrets.env; set +a",
        ),
        Err(e) => Finding::problem(
            format!("{what}: {e}"),
            format!(
                "the file must be readable by `{}` alone: (as root) chown {} FILE && chmod 600 FILE",
                me.label(),
                me.chown_spec()
            ),
        ),
    }
}

/// How a connection to a mail server ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetOutcome {
    Fine(String),
    /// Could not reach it (DNS, refused, timed out).
    Unreachable(String),
    /// Reached it, but TLS (or STARTTLS) failed: certificate, protocol.
    Tls(String),
    /// The server refused the user and password.
    Auth(String),
    /// Logged in, but the folder cannot be selected.
    Folder(String),
    /// The configuration could not be used (a CA file, a missing password).
    Config(String),
    /// Skipped, and why.
    NotChecked(String),
}

pub fn server(what: &str, host: &str, port: u16, outcome: &NetOutcome) -> Finding {
    let at = format!("{what} {host}:{port}");
    match outcome {
        NetOutcome::Fine(s) => Finding::ok(format!("{at}: {s}")),
        NetOutcome::NotChecked(why) => Finding::warn(
            format!("{at}: not checked ({why})"),
            "fix the line above, then run doctor again",
        ),
        NetOutcome::Unreachable(e) => Finding::problem(
            format!("{at}: cannot connect: {e}"),
            format!(
                "check [{what}] host and port in config.toml, and that this machine may reach it (firewall, DNS)"
            ),
        ),
        NetOutcome::Tls(e) => Finding::problem(
            format!("{at}: TLS failed: {e}"),
            format!(
                "check [{what}] security (\"tls\" for ports 993/465, \"starttls\" for 143/587) and, for a club's own certificate, ca_file"
            ),
        ),
        NetOutcome::Auth(e) => Finding::problem(
            format!("{at}: login refused (AUTH): {e}"),
            format!(
                "check [{what}] user and the password it names (password_env or password_file)"
            ),
        ),
        NetOutcome::Folder(e) => Finding::problem(
            format!("{at}: logged in, but the folder cannot be used: {e}"),
            "check imap.folder (usually INBOX)".to_string(),
        ),
        NetOutcome::Config(e) => Finding::problem(
            format!("{at}: {e}"),
            format!("fix the [{what}] section of config.toml"),
        ),
    }
}

/// The game address and the organiser's.
pub fn addresses(address: &str, placeholder: bool, gm_address: Option<&str>) -> Vec<Finding> {
    let mut out = Vec::new();
    if placeholder {
        out.push(Finding::problem(
            format!("mail.address = \"{address}\" is a placeholder: players' replies to it reach nobody"),
            "set mail.address in config.toml to the game's real mailbox (e.g. despatch@yourclub.org)",
        ));
    } else {
        out.push(Finding::ok(format!("game address {address}")));
    }
    match gm_address {
        Some(gm) => out.push(Finding::ok(format!("organiser address {gm}"))),
        None => out.push(Finding::warn(
            "no mail.gm_address: a game made without --gm has no organiser, so RESIGN, held or unreadable mail, unreadable games and PRESS TO gm reach nobody",
            "set gm_address in config.toml's [mail] section (or give each game one: despatch new … --gm ADDRESS)",
        )),
    }
    out
}

/// Whether one-click unsubscription (RFC 8058) is configured (docs/club-rules.md L1).
pub fn unsubscribe(url: Option<&str>) -> Finding {
    match url {
        Some(u) => Finding::ok(format!("one-click unsubscription at {u}")),
        None => Finding::warn(
            "one-click unsubscription is not configured: mails carry a mailto: List-Unsubscribe \
             (STOP by reply) but no List-Unsubscribe-Post, which some providers want",
            "set [web] unsubscribe_url in config.toml to the https URL your web server \
             passes on to `despatch listen` (docs/club-rules.md L1)",
        ),
    }
}

#[cfg(test)]
#[path = "checks_tests.rs"]
mod tests;
