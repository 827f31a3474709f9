//! Leagues in the shell's hands (issue 16 point 7, issue 31 point 3): the league file under
//! the data folder, enrolling a new game in it, reading its games into values for
//! `league::standings` (which rates them), mailing the standings to every member when one of
//! its games ends, the pseudonymous roster an ended game's archive publishes, and reading
//! archive folders and mails for `despatch league L --derive`. Reads and writes only: every
//! count and rating is `league`'s.
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
use crate::league::derive::{self, ArchiveInput, Derived, RosterSeat};
use crate::league::{self, LeagueFile, LeagueGame, Player, Standings};
use crate::mail::compose;
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
            Ok((game, seats)) => {
                // The end time is the journal's; read only for a game that is over.
                let ended = match game.is_over() {
                    true => derive::end_time(&store.read_journal()?.lines),
                    false => None,
                };
                out.push(league_game(game.as_ref(), &seats, ended))
            }
            // One unreadable game must not hide the table (nor stop another game's end):
            // it is listed as such, counted for nobody.
            Err(e) => out.push(LeagueGame {
                id: id.clone(),
                ruleset: String::new(),
                players: vec![],
                sides: vec![],
                results: None,
                abandoned: false,
                state: format!("cannot be read: {e}"),
                ended: None,
            }),
        }
    }
    Ok((file, out))
}

/// The standings of a league as they stand now.
pub fn league_standings(data: &DataDir, registry: &Registry, league: &str) -> Result<Standings> {
    let (file, games) = league_games(data, registry, league)?;
    Ok(league::standings(
        league,
        file.points(),
        &file.rating_rule(),
        &games,
    ))
}

/// `<data_dir>/leagues/<L>.key`: the league's secret for its players' pseudonyms, made on
/// first use (readable by the service user only). Never published: with it, anyone could test
/// a guessed address against a roster.
fn pseudonym_key(data: &DataDir, league: &str) -> Result<Vec<u8>> {
    let p = data.root.join("leagues").join(format!("{league}.key"));
    match std::fs::read_to_string(&p) {
        Ok(t) => return hex::decode(t.trim()).with_context(|| p.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| p.display().to_string()),
    }
    let mut key = [0u8; 32];
    getrandom::fill(&mut key)
        .map_err(|e| anyhow::anyhow!("no entropy for {}: {e}", p.display()))?;
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    crate::store::atomic_write_private(&p, hex::encode(key).as_bytes())?;
    Ok(key.to_vec())
}

/// A player's pseudonym in a league: the first 16 bytes of SHA-256(key ‖ address without
/// case). The same person is one pseudonym across the league's games; another league's key
/// makes another.
fn pseudonym(key: &[u8], address: &str) -> String {
    let mut h = Sha256::new();
    h.update(key);
    h.update(address.to_ascii_lowercase().as_bytes());
    hex::encode(&h.finalize()[..16])
}

/// `league.json` for the archive of `game`, an ended game of `league`: its roster under
/// pseudonyms and the table after it (ruling K7). `None` for a running game (its archive
/// publishes no journal, so nothing to re-derive) or one the league file does not list.
pub fn league_roster(
    data: &DataDir,
    registry: &Registry,
    league: &str,
    game: &str,
) -> Result<Option<String>> {
    let (file, games) = league_games(data, registry, league)?;
    let Some(g) = games.iter().find(|g| g.id == game) else {
        return Ok(None);
    };
    if g.results.is_none() && !g.abandoned {
        return Ok(None);
    }
    let key = pseudonym_key(data, league)?;
    let seats = g
        .players
        .iter()
        .map(|(seat, p)| RosterSeat {
            seat: seat.clone(),
            player: pseudonym(&key, &p.address),
            name: p.name.clone(),
        })
        .collect();
    let rule = file.rating_rule();
    let after = derive::after(league, file.points(), &rule, &games, game);
    Ok(Some(derive::roster_json(
        league,
        game,
        file.points(),
        &rule,
        seats,
        &after,
    )))
}

/// `despatch league L --derive DIR… [--mailed FILE…]`: reads each archive folder's
/// `journal.jsonl` and `league.json` and each standings mail, and hands them to
/// `league::derive`. Nothing of the data folder is read.
pub fn derive_from_files(
    registry: &Registry,
    league: &str,
    dirs: &[std::path::PathBuf],
    mails: &[std::path::PathBuf],
) -> Result<Derived> {
    let mut archives = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let read = |name: &str| {
            let p = dir.join(name);
            std::fs::read_to_string(&p)
                .with_context(|| format!("{} (an ended league game's archive has it)", p.display()))
        };
        let journal = read("journal.jsonl")?
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect();
        archives.push(ArchiveInput {
            label: dir.display().to_string(),
            journal,
            roster: read("league.json")?,
        });
    }
    let mut derived = derive::derive(registry, league, &archives)?;
    for m in mails {
        let raw = std::fs::read(m).with_context(|| m.display().to_string())?;
        let parsed = mail_parser::MessageParser::default().parse(&raw);
        let (subject, text) = parsed
            .as_ref()
            .map(|p| {
                (
                    p.subject().unwrap_or_default().to_string(),
                    p.body_text(0).map(|t| t.into_owned()).unwrap_or_default(),
                )
            })
            .unwrap_or_default();
        derived.compare_mail(&m.display().to_string(), &subject, &text);
    }
    Ok(derived)
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
        let standings = league::standings(&league, file.points(), &file.rating_rule(), &games);
        let b = game.book();
        let ended = game.outcome().map(|o| o.summary);
        let text = report::wrap_text(&compose::league_standings_text(
            &league,
            &b.id,
            game.ruleset(),
            ended.as_deref(),
            &league::render_text(&standings),
        ));
        let subject = compose::league_standings_subject(&league, &b.id);
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

    pub(super) fn standings_letter(
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
fn league_game(
    game: &dyn Play,
    seats: &crate::store::SeatsFile,
    ended: Option<DateTime<Utc>>,
) -> LeagueGame {
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
        sides: b.seats.clone(),
        results: league::results_of(game),
        abandoned: abandoned.is_some(),
        state,
        ended,
    }
}
