//! `despatch new`: everything is checked before the first folder is made (config, the user it
//! runs as, ruleset, scenario, seats and addresses, --gm, --league, --carry-from, strict
//! anchors); if making the game still fails half-way, what this run made is removed, so a
//! failed `new` leaves nothing behind. Warnings (a placeholder game address, no organiser) go
//! to standard error and do not change the exit code.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, anyhow, bail};
use chrono::Utc;

use crate::config::Config;
use crate::daemon::{Daemon, NewGame};

use super::args::NewArgs;

pub(super) fn new_game(config: Option<PathBuf>, a: NewArgs) -> Result<ExitCode> {
    let anchors = a
        .strict_seats
        .iter()
        .map(|s| {
            crate::engine::strict::parse_anchor(s).ok_or_else(|| {
                anyhow!("--strict-seat {s}: write SEAT=ANCHOR[:LENGTH] or the STRICT line")
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let pairs = a
        .seats
        .iter()
        .map(|s| {
            s.split_once('=')
                .map(|(x, y)| (x.trim().to_string(), y.trim().to_string()))
                .ok_or_else(|| anyhow!("--seat {s}: write SEAT=ADDRESS"))
        })
        .collect::<Result<Vec<_>>>()?;
    for (i, (seat, _, _)) in anchors.iter().enumerate() {
        if !pairs.iter().any(|(s, _)| s == seat) {
            bail!("--strict-seat {seat}: strict seats must be among the --seat seats");
        }
        if anchors[..i].iter().any(|(s, _, _)| s == seat) {
            bail!("--strict-seat {seat}: given twice");
        }
    }
    let (cfg, config_path) = super::guard::writing_config(config, "new")?;
    super::guard::service_user_only(&cfg, &config_path)?;
    super::setup::init_logging(&cfg.daemon.log);
    let extras = NewGame {
        league: a.league,
        carry_from: a.carry_from,
        gm: a.gm,
        campaign: None,
    };
    let registry = crate::rulesets::registry();
    crate::daemon::check_new_game(
        &cfg,
        &registry,
        &a.game,
        &a.ruleset,
        &a.scenario,
        &pairs,
        &extras,
    )?;
    let warnings = warnings(&cfg, &extras);
    // What this run will make if it is missing, to be removed again if it fails.
    let made = Made::before(&cfg, &a.game);
    let created = (|| -> Result<Daemon> {
        let d = Daemon::new(cfg)?;
        let _lock = d.data.lock()?;
        let now = Utc::now();
        d.create_game_as(&a.game, &a.ruleset, &a.scenario, &pairs, now, &extras)?;
        if !anchors.is_empty() {
            d.make_strict(&a.game, &anchors, a.reveal_hours, now)?;
        }
        drop(_lock);
        Ok(d)
    })();
    let d = match created {
        Ok(d) => d,
        Err(e) => {
            made.undo();
            return Err(e);
        }
    };
    for w in &warnings {
        eprintln!("despatch: warning: {w}");
    }
    // From here the game exists: a delivery that fails now is retried by the daemon. Under the
    // data lock: a running daemon delivers the same outbox in its pass, and two deliverers could
    // each send the same welcome (found by tests/deployment.rs: `new` typed while the service ran).
    let n = {
        let _lock = d.data.lock()?;
        d.deliver()?
    };
    println!(
        "Game `{}` created; {n} welcome mail(s) in {}.",
        a.game,
        d.cfg.mail.outbox.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// What a new organiser should hear although the game can be made.
fn warnings(cfg: &Config, extras: &NewGame) -> Vec<String> {
    let mut out = Vec::new();
    if cfg.address_is_placeholder() {
        out.push(format!(
            "mail.address is still the placeholder \"{}\": players' replies to it reach nobody. \
             Set the game's real mailbox in the config before inviting players (`despatch \
             doctor` checks the set-up).",
            cfg.mail.address
        ));
    }
    if extras.gm.is_none() && cfg.mail.gm_address.is_none() {
        out.push(
            "this game has no organiser: neither --gm nor mail.gm_address is set, so RESIGN, \
             held mail, trouble with the game and PRESS TO gm reach nobody (players are told \
             so). Set gm_address in the config's [mail] section."
                .to_string(),
        );
    }
    out
}

/// The folders a `new` makes when they are missing: the game's, and the topmost missing
/// folder above the data folder and each Maildir (removing it removes what was made under it).
pub(super) struct Made {
    dirs: Vec<PathBuf>,
}

impl Made {
    pub(super) fn before(cfg: &Config, game: &str) -> Self {
        let mut dirs = Vec::new();
        let game_dir = crate::store::DataDir::new(&cfg.data_dir).game(game).dir;
        for p in [&cfg.data_dir, &cfg.mail.inbox, &cfg.mail.outbox, &game_dir] {
            if let Some(top) = topmost_missing(p)
                && !dirs.iter().any(|d: &PathBuf| top.starts_with(d))
            {
                dirs.push(top);
            }
        }
        Self { dirs }
    }

    /// Removes what was made; a failure to remove is said, not raised (the first error is
    /// the one that matters).
    pub(super) fn undo(&self) {
        for d in self.dirs.iter().rev() {
            if d.exists()
                && let Err(e) = std::fs::remove_dir_all(d)
            {
                eprintln!(
                    "despatch: could not remove {} made by this failed run: {e}",
                    d.display()
                );
            }
        }
    }
}

/// The highest folder on the way to `p` that does not exist yet (`p` itself when only it is
/// missing; `None` when it exists).
fn topmost_missing(p: &Path) -> Option<PathBuf> {
    let abs = crate::doctor::facts::absolute(p);
    let mut top = None;
    for a in abs.ancestors() {
        if a.exists() {
            break;
        }
        top = Some(a.to_path_buf());
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_topmost_missing_folder_is_found_and_an_existing_one_is_left() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("var/mail/inbox");
        assert_eq!(topmost_missing(&p), Some(tmp.path().join("var")));
        std::fs::create_dir_all(tmp.path().join("var/mail")).unwrap();
        assert_eq!(topmost_missing(&p), Some(p.clone()));
        std::fs::create_dir_all(&p).unwrap();
        assert_eq!(topmost_missing(&p), None);
    }
}
