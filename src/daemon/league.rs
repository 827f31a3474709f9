//! Leagues in the shell's hands (issue 16 point 7): the league file under the data folder,
//! enrolling a new game in it, reading its games into values for `league::standings`, and
//! mailing the standings to every member when one of its games ends.
//!
//! Where membership lives: in the game's own journal (`policy.club.league`, written in the
//! same line that creates the game, so a game is in a league or not, never half) and, for
//! listing in time linear in the league's games, in `<data_dir>/leagues/<L>.toml`. The file is
//! written first; a crash before the game's journal exists leaves an id there that names no
//! game (or a game of no league), and every reader skips it.

use anyhow::{Context, Result, bail};
use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};

use crate::engine::{Event, Play, Registry};
use crate::league::{self, LeagueFile, LeagueGame, Player, Standings};
use crate::mail::outbound::{self, Outgoing};
use crate::report;
use crate::store::DataDir;

use super::Daemon;
use super::campaign::NewGame;

/// `<data_dir>/leagues/<L>.toml`.
fn league_path(data: &DataDir, league: &str) -> std::path::PathBuf {
    data.root.join("leagues").join(format!("{league}.toml"))
}

/// The league's file; the defaults (3/1/0, no games) if it does not exist yet.
pub fn league_file(data: &DataDir, league: &str) -> Result<LeagueFile> {
    if !crate::engine::valid_game_id(league) {
        bail!("league `{league}`: use 1–40 characters a–z, 0–9 and `-`, starting with a letter");
    }
    let p = league_path(data, league);
    match std::fs::read_to_string(&p) {
        Ok(text) => LeagueFile::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", p.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(LeagueFile::default()),
        Err(e) => Err(e).with_context(|| p.display().to_string()),
    }
}

/// The league's games as values: those its file lists whose own journal says they play in
/// it, each with its players (from the private seats file) and its result, if over. Reads
/// only (`despatch league` makes no folder by looking).
pub fn league_games(
    data: &DataDir,
    registry: &Registry,
    league: &str,
) -> Result<(LeagueFile, Vec<LeagueGame>)> {
    let file = league_file(data, league)?;
    let mut out = Vec::with_capacity(file.games.len());
    let mut seen = std::collections::HashSet::new();
    for id in &file.games {
        // The file is hand-editable: an id that could leave the games folder, or one listed
        // twice, is not read (twice would count a game twice).
        if !crate::engine::valid_game_id(id) || !seen.insert(id.as_str()) {
            continue;
        }
        let store = data.game(id);
        if !store.exists() {
            continue; // listed by a `new` that did not get as far as the game
        }
        let opened = store
            .open(registry)
            .map_err(anyhow::Error::from)
            .and_then(|g| Ok((g, store.seats()?)));
        match opened {
            Ok((game, _)) if game.book().policy.club.league.as_deref() != Some(league) => {}
            Ok((game, seats)) => out.push(league_game(game.as_ref(), &seats)),
            // One unreadable game must not hide the table (nor stop another game's end):
            // it is listed as such, counted for nobody.
            Err(e) => out.push(LeagueGame {
                id: id.clone(),
                ruleset: String::new(),
                players: vec![],
                results: None,
                abandoned: false,
                state: format!("cannot be read: {e}"),
            }),
        }
    }
    Ok((file, out))
}

/// The standings of a league as they stand now.
pub fn league_standings(data: &DataDir, registry: &Registry, league: &str) -> Result<Standings> {
    let (file, games) = league_games(data, registry, league)?;
    Ok(league::standings(league, file.points(), &games))
}

impl Daemon {
    /// Lists a new game in its league's file (made on first use with the default points),
    /// before the game itself is created. The caller holds the data folder's lock.
    pub(super) fn enrol(&self, extras: &NewGame, game: &str) -> Result<()> {
        let Some(league) = &extras.league else {
            return Ok(());
        };
        let mut file = league_file(&self.data, league)?;
        if file.games.iter().any(|g| g == game) {
            return Ok(());
        }
        file.games.push(game.to_string());
        let p = league_path(&self.data, league);
        if let Some(dir) = p.parent() {
            std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
        }
        crate::store::atomic_write(&p, file.to_text(league).as_bytes())?;
        Ok(())
    }

    /// At a league game's end (its `GameEnded` event), the standings to every member of the
    /// league, each in a mail of its own from the house outbox. Named after the league, the
    /// game and the member, so a mail re-derived after a crash is the same mail, sent once.
    pub(super) fn league_mail_at_end(
        &self,
        game: &dyn Play,
        event: &Event,
        now: DateTime<Utc>,
    ) -> Result<()> {
        if !matches!(event, Event::GameEnded { .. }) {
            return Ok(());
        }
        let Some(league) = game.book().policy.club.league.clone() else {
            return Ok(());
        };
        let (file, games) = league_games(&self.data, &self.registry, &league)?;
        let standings = league::standings(&league, file.points(), &games);
        let b = game.book();
        let ended = game
            .outcome()
            .map(|o| o.summary)
            .unwrap_or_else(|| "it has ended".into());
        let text = report::wrap_text(&format!(
            "Game {} ({}) of league {league} has ended: {ended}\n\n{}\n\n-- \nDespatch\n",
            b.id,
            game.ruleset(),
            league::render_text(&standings)
        ));
        let subject = format!("[league {league}] Standings after {}", b.id);
        let house = self.data.house();
        for member in league::members(&games) {
            // Standings are optional mail: an address that wrote STOP to the house gets none.
            if self.data.is_quiet(&member) {
                continue;
            }
            let tag = hex::encode(&Sha256::digest(member.to_ascii_lowercase().as_bytes())[..6]);
            let name = format!("league-{league}-{}-{tag}", b.id);
            let out = self.standings_letter(&member, &subject, &text, &name, now);
            let bytes =
                outbound::build(&out).map_err(|e| anyhow::anyhow!("building mail {name}: {e}"))?;
            house.queue(&name, &bytes)?;
        }
        Ok(())
    }

    fn standings_letter(
        &self,
        to: &str,
        subject: &str,
        text: &str,
        name: &str,
        now: DateTime<Utc>,
    ) -> Outgoing {
        let (local, domain) = self.cfg.address_parts();
        let html = report::render(
            "plain.html",
            serde_json::json!({"game": "", "seat": "", "subject": subject, "text": text}),
        )
        .ok();
        Outgoing {
            to: to.to_string(),
            from: format!(
                "{} <{local}@{domain}>",
                crate::mail::compose::house_display_name(&self.cfg.mail.from_name)
            ),
            subject: subject.to_string(),
            text: text.to_string(),
            html,
            message_id: outbound::message_id(&[name], &domain),
            date: now,
            auto_generated: true,
            // STOP to the house ends these (ruling L2).
            list_unsubscribe: Some(outbound::unsubscribe_mailto(&format!("{local}@{domain}"))),
            ..Default::default()
        }
    }
}

/// One game as the league sees it.
fn league_game(game: &dyn Play, seats: &crate::store::SeatsFile) -> LeagueGame {
    let b = game.book();
    let players = b
        .seats
        .iter()
        .filter_map(|s| {
            seats.seats.get(&s.seat).map(|p| {
                (
                    s.seat.clone(),
                    Player {
                        address: p.address.clone(),
                        name: Some(p.name.clone()).filter(|n| !n.trim().is_empty()),
                    },
                )
            })
        })
        .collect();
    let abandoned = b.club.abandoned.as_ref();
    let state = match (abandoned, game.outcome()) {
        (Some(a), _) => a.listed(),
        (None, Some(o)) => o.summary,
        (None, None) => format!("step {}: {}", b.step, game.spec().title),
    };
    LeagueGame {
        id: b.id.clone(),
        ruleset: game.ruleset().to_string(),
        players,
        results: league::results_of(game),
        abandoned: abandoned.is_some(),
        state,
    }
}
