//! Writing a game's archive site (issue 16, point 6): `despatch archive <game> [--out DIR]`.
//! The site's content is `archive::build_site`'s, from the journal. Into the live site (no
//! `--out`) it is the game's live pages, written file by file as after every step
//! (`daemon::site`); into a folder of its own it is the public site alone, written into a
//! fresh folder beside the target and renamed into place when complete, so a failure never
//! leaves half a site where a good one was.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use tracing::{info, warn};

use crate::archive::{self, LeagueSection};

use super::Daemon;

impl Daemon {
    /// Where a game's archive goes unless told otherwise: its folder in the live site,
    /// `<site root>/<game>/` (by default `<data_dir>/archive/<game>/`).
    pub fn archive_dir(&self, game_id: &str) -> PathBuf {
        self.site_root().join(game_id)
    }

    /// Builds and writes the archive of `game_id` into `out` (default: `archive_dir`, the
    /// live pages; `league` stands in for the league's own table in a folder of its own).
    /// Returns the folder written and the number of files.
    pub fn write_archive(
        &self,
        game_id: &str,
        out: Option<&Path>,
        league: Option<&LeagueSection>,
    ) -> Result<(PathBuf, usize)> {
        let store = self.data.game(game_id);
        if !crate::engine::valid_game_id(game_id) || !store.exists() {
            bail!("no game `{game_id}` in {}", self.data.root.display());
        }
        // Into the live site: the game's live pages (with its seats' own), as after a step.
        if out.is_none() {
            return self.write_live_of(game_id);
        }
        let journal = store
            .read_journal()
            .with_context(|| format!("reading the journal of {game_id}; no archive written"))?;
        // A league game's archive shows its league's table as it stands now.
        let (standings, roster) = match league {
            Some(_) => (None, None),
            None => self.league_section(&journal.lines),
        };
        let mut site = archive::build_site(
            &self.registry,
            &journal.lines,
            league.or(standings.as_ref()),
        )
        .map_err(|e| anyhow!("game {game_id}: {e}; no archive written"))?;
        // Beside the published journal (an ended game's), the roster that lets anyone
        // re-derive the league's ratings from the archives (ruling K7).
        if let Some(r) = roster.filter(|_| site.file("journal.jsonl").is_some()) {
            site.files.push(("league.json".into(), r.into_bytes()));
        }
        let out = out
            .map(Path::to_path_buf)
            .unwrap_or_else(|| self.archive_dir(game_id));
        let n = site.files.len();
        write_site(&out, &site)
            .with_context(|| format!("writing the archive to {}", out.display()))?;
        info!(game = game_id, dir = %out.display(), files = n, "archive written");
        Ok((out, n))
    }

    /// The standings of the league the journal's first line puts the game in, if any, and the
    /// game's roster for `league.json` once it has ended. A league that cannot be read is left
    /// out (logged): the archive of the game itself still matters.
    pub(super) fn league_section(
        &self,
        lines: &[String],
    ) -> (Option<LeagueSection>, Option<String>) {
        let Some(first) = lines.first() else {
            return (None, None);
        };
        let Ok(crate::engine::Event::GameCreated { policy, game, .. }) =
            serde_json::from_str(first)
        else {
            return (None, None);
        };
        let Some(league) = policy.club.league else {
            return (None, None);
        };
        let section = match self.standings_section(&league) {
            Ok(s) => s,
            Err(e) => {
                warn!(game = %game, league = %league, "league standings left out of the archive: {e:#}");
                return (None, None);
            }
        };
        let roster = super::league_roster(&self.data, &self.registry, &league, &game)
            .unwrap_or_else(|e| {
                warn!(game = %game, league = %league, "league.json left out of the archive: {e:#}");
                None
            });
        (Some(section), roster)
    }

    /// A league's table as it stands now, ratings included, as the pages show it.
    pub(super) fn standings_section(&self, league: &str) -> Result<LeagueSection> {
        let s = super::league_standings(&self.data, &self.registry, league)?;
        let header = [
            "#", "Player", "Played", "Won", "Drawn", "Lost", "Points", "Rating",
        ];
        Ok(LeagueSection {
            title: format!("League {league}: standings"),
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: s
                .rows
                .iter()
                .map(|r| {
                    vec![
                        r.place.clone(),
                        r.name.clone(),
                        r.played.to_string(),
                        r.won.to_string(),
                        r.drawn.to_string(),
                        r.lost.to_string(),
                        r.points.to_string(),
                        r.rating_text(),
                    ]
                })
                .collect(),
        })
    }
}

/// Writes every file under a temporary folder beside `out`, then swaps it in: the old site (if
/// any) is moved aside first and removed only once the new one is in place.
fn write_site(out: &Path, site: &archive::Site) -> Result<()> {
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = out
        .file_name()
        .ok_or_else(|| anyhow!("{} names no folder", out.display()))?
        .to_string_lossy()
        .into_owned();
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    let tmp = parent.join(format!(".{name}.new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let written = (|| -> Result<()> {
        std::fs::create_dir(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        for (rel, bytes) in &site.files {
            let p = tmp.join(rel);
            if let Some(dir) = p.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&p, bytes).with_context(|| p.display().to_string())?;
        }
        Ok(())
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    if out.exists() {
        if !out.is_dir() {
            let _ = std::fs::remove_dir_all(&tmp);
            bail!("{} exists and is not a folder", out.display());
        }
        let _ = std::fs::remove_dir_all(&old);
        if let Err(e) = std::fs::rename(out, &old) {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(e).with_context(|| format!("cannot move the old {} aside", out.display()));
        }
    }
    if let Err(e) = std::fs::rename(&tmp, out) {
        // Put the old site back: a failed write leaves what was there.
        if old.exists() {
            let _ = std::fs::rename(&old, out);
        }
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e).with_context(|| format!("cannot put the new site at {}", out.display()));
    }
    let _ = std::fs::remove_dir_all(&old);
    Ok(())
}
