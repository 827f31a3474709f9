//! `despatch doctor`: gathers what the set-up is (config, data folder, games, rulesets'
//! data, Maildirs, passwords, the mail servers) through `doctor::facts` and `doctor::net`,
//! has `doctor::checks` judge it, and prints each finding with its fix. Exit 0 when nothing
//! would stop play, 1 otherwise. It reads only: it makes no folder and changes no game (an
//! IMAP check may make the daemon's own IMAP folders, as the daemon would).

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;

use crate::config::Config;
use crate::doctor::checks::{self, Finding, GameOpened, MaildirState, NetOutcome};
use crate::doctor::facts::{self, Entry};
use crate::doctor::owner::Account;
use crate::doctor::{Level, net};
use crate::store::DataDir;

pub(super) fn doctor(config: Option<PathBuf>) -> Result<ExitCode> {
    let me = facts::me();
    let mut found = Vec::new();
    let Some(cfg) = config_finding(config, &mut found) else {
        return Ok(finish(&found));
    };
    let (cfg, path) = cfg;
    let rerun = super::guard::rerun_line(std::env::args_os().collect(), &path);
    let data = facts::absolute(&cfg.data_dir);
    found.extend(data_folder(&data, &me, &rerun));
    found.extend(games(&cfg, &data));
    let registry = crate::rulesets::registry();
    let rulesets: Vec<(String, Result<PathBuf, String>)> = registry
        .names()
        .into_iter()
        .map(|n| (n.to_string(), cfg.ruleset_dir(n)))
        .collect();
    found.extend(checks::rulesets(&rulesets));
    for (role, p) in [("inbox", &cfg.mail.inbox), ("outbox", &cfg.mail.outbox)] {
        let p = facts::absolute(p);
        found.push(checks::maildir(role, &p, &maildir_state(&p, &me), &me));
    }
    found.extend(mail_servers(&cfg, &me));
    found.extend(checks::addresses(
        &cfg.mail.address,
        cfg.address_is_placeholder(),
        cfg.mail.gm_address.as_deref(),
    ));
    found.push(checks::unsubscribe(cfg.web.unsubscribe_url.as_deref()));
    Ok(finish(&found))
}

/// Prints every finding and the verdict; the exit code says whether play would stop.
fn finish(found: &[Finding]) -> ExitCode {
    for f in found {
        println!("{f}");
    }
    let count = |l: Level| found.iter().filter(|f| f.level == l).count();
    let (problems, warnings) = (count(Level::Problem), count(Level::Warn));
    if checks::stops_play(found) {
        println!(
            "\n{problems} problem(s) would stop play, {warnings} warning(s): fix each as its line says, then run doctor again."
        );
        ExitCode::from(1)
    } else {
        println!("\nOK: nothing stops play ({warnings} warning(s)).");
        ExitCode::SUCCESS
    }
}

/// The config, as `--config` or ./config.toml names it, or the finding that stops here.
fn config_finding(config: Option<PathBuf>, found: &mut Vec<Finding>) -> Option<(Config, PathBuf)> {
    let path = match config {
        Some(p) => p,
        None if Path::new("config.toml").exists() => PathBuf::from("config.toml"),
        None => {
            found.push(Finding::problem(
                format!(
                    "no configuration: no --config and no config.toml in {}",
                    facts::absolute(Path::new(".")).display()
                ),
                "run doctor on the service's config: despatch --config /srv/despatch/config.toml doctor",
            ));
            return None;
        }
    };
    let path = facts::absolute(&path);
    match Config::load(&path) {
        Ok(cfg) => {
            found.push(Finding::ok(format!(
                "config {} loads; every key is known",
                path.display()
            )));
            Some((cfg, path))
        }
        Err(e) => {
            found.push(Finding::problem(
                format!("config: {e}"),
                "fix the key it names (every key is documented in the shipped config.toml; an unknown key is usually a typo or in the wrong [section])",
            ));
            None
        }
    }
}

/// The data folder's owner and every file in it; or, not made yet, whether it can be.
fn data_folder(data: &Path, me: &Account, rerun: &str) -> Vec<Finding> {
    let holder = match facts::holder(data) {
        Ok(h) => h,
        Err(e) => {
            return vec![Finding::problem(
                format!("data folder {}: {e}", data.display()),
                "check data_dir in the config",
            )];
        }
    };
    if !holder.is_data_folder {
        let entry = entry_of(&holder.path);
        return vec![match entry {
            Some(e) if checks::writable_by(&e, me) => Finding::ok(format!(
                "data folder {} does not exist yet; the daemon makes it in {}",
                data.display(),
                holder.path.display()
            )),
            _ => Finding::problem(
                format!(
                    "data folder {} does not exist, and `{}` may not make it in {} (it belongs to `{}`)",
                    data.display(),
                    me.label(),
                    holder.path.display(),
                    holder.owner.label()
                ),
                format!(
                    "(as root) install -d -o {} -g {} {}",
                    me.name.clone().unwrap_or_else(|| me.uid.to_string()),
                    me.group.clone().unwrap_or_else(|| me.gid.to_string()),
                    data.display()
                ),
            ),
        }];
    }
    let mut out = vec![checks::data_folder_owner(data, &holder.owner, me, rerun)];
    let (entries, errors) = facts::walk(data);
    let errors: Vec<(PathBuf, String)> = errors
        .into_iter()
        .map(|(p, e)| (p, e.to_string()))
        .collect();
    out.extend(checks::data_folder_files(
        data,
        &holder.owner,
        &entries,
        &errors,
    ));
    out
}

fn entry_of(p: &Path) -> Option<Entry> {
    let m = std::fs::metadata(p).ok()?;
    Some(Entry {
        path: p.to_path_buf(),
        uid: m.uid(),
        gid: m.gid(),
        mode: m.mode() & 0o7777,
        is_dir: m.is_dir(),
    })
}

fn maildir_state(p: &Path, me: &Account) -> MaildirState {
    if !p.exists() {
        let parent = p
            .ancestors()
            .find(|a| a.exists())
            .unwrap_or(Path::new("/"))
            .to_path_buf();
        return match entry_of(&parent) {
            Some(e) if checks::writable_by(&e, me) => MaildirState::WillBeMade,
            _ => MaildirState::CannotBeMade(parent),
        };
    }
    let bad: Vec<PathBuf> = ["cur", "new", "tmp"]
        .iter()
        .map(|s| p.join(s))
        .filter(|s| !entry_of(s).is_some_and(|e| e.is_dir && checks::writable_by(&e, me)))
        .collect();
    if bad.is_empty() {
        MaildirState::Ready
    } else {
        MaildirState::NotWritable(bad)
    }
}

/// Every game opened as the daemon opens it: journal and snapshot, secrets, seats.
fn games(cfg: &Config, data: &Path) -> Vec<Finding> {
    if !data.exists() {
        return vec![];
    }
    let store = DataDir::new(data);
    let ids = match store.game_ids() {
        Ok(ids) => ids,
        Err(e) => {
            return vec![Finding::problem(
                format!("the games in {} cannot be listed: {e}", data.display()),
                "see the data folder lines above",
            )];
        }
    };
    let registry = crate::rulesets::registry();
    let list: Vec<GameOpened> = ids
        .into_iter()
        .map(|id| {
            let g = store.game(&id);
            let opened = g
                .open(&registry)
                .map_err(anyhow::Error::from)
                .and_then(|game| {
                    g.secrets_for(&game.book().id)?;
                    Ok(g.seats()?)
                });
            match opened {
                Ok(seats) => GameOpened {
                    id,
                    result: Ok(()),
                    denied: false,
                    has_gm: seats.gm.is_some(),
                },
                Err(e) => GameOpened {
                    id,
                    denied: facts::permission_denied(&e).is_some(),
                    result: Err(format!("{e:#}")),
                    has_gm: false,
                },
            }
        })
        .collect();
    checks::games(&list, cfg.mail.gm_address.as_deref())
}

/// The passwords and, where they were found, a login to each configured server.
fn mail_servers(cfg: &Config, me: &Account) -> Vec<Finding> {
    let mut out = Vec::new();
    let source = |p: &crate::config::PasswordSource| match (&p.password_env, &p.password_file) {
        (Some(v), _) => format!("${v}"),
        (_, Some(f)) => f.display().to_string(),
        _ => String::new(),
    };
    if let (Some(c), "imap") = (&cfg.imap, cfg.mail.inbound.as_str()) {
        let pw = c.password.resolve("imap").map_err(|e| e.to_string());
        out.push(checks::password(
            "imap",
            &pw.as_ref()
                .map(|p| p.as_ref().map(|_| source(&c.password)))
                .map_err(Clone::clone),
            me,
        ));
        let outcome = match pw {
            Ok(Some(pw)) => net::imap(c, &pw),
            _ => NetOutcome::NotChecked("no password".into()),
        };
        out.push(checks::server("imap", &c.host, c.port, &outcome));
    }
    if let (Some(c), "smtp") = (&cfg.smtp, cfg.mail.outbound.as_str()) {
        let pw = match &c.user {
            Some(_) => {
                let pw = c.password.resolve("smtp").map_err(|e| e.to_string());
                out.push(checks::password(
                    "smtp",
                    &pw.as_ref()
                        .map(|p| p.as_ref().map(|_| source(&c.password)))
                        .map_err(Clone::clone),
                    me,
                ));
                pw
            }
            None => Ok(None),
        };
        let outcome = match pw {
            Ok(pw) if c.user.is_none() || pw.is_some() => net::smtp(c, pw),
            _ => NetOutcome::NotChecked("no password".into()),
        };
        out.push(checks::server("smtp", &c.host, c.port, &outcome));
    }
    out
}
