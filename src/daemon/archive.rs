//! Writing a game's archive site (issue 16, point 6): `despatch archive <game> [--out DIR]`,
//! and automatically when a game ends. The site's content is `archive::build_site`'s, from the
//! journal; this only writes it — into a fresh folder beside the target, renamed into place
//! when complete, so a failure never leaves half a site where a good one was.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use tracing::{info, warn};

use crate::archive::{self, LeagueSection};

use super::Daemon;

impl Daemon {
    /// Where a game's archive goes unless told otherwise: `<data_dir>/archive/<game>/`.
    pub fn archive_dir(&self, game_id: &str) -> PathBuf {
        self.data.root.join("archive").join(game_id)
    }

    /// Builds and writes the archive of `game_id` into `out` (default: `archive_dir`).
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
    fn league_section(&self, lines: &[String]) -> (Option<LeagueSection>, Option<String>) {
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
        let s = match super::league_standings(&self.data, &self.registry, &league) {
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
        let header = [
            "#", "Player", "Played", "Won", "Drawn", "Lost", "Points", "Rating",
        ];
        let section = LeagueSection {
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
        };
        (Some(section), roster)
    }

    /// At a game's end: the archive with everything, into the default folder. A failure is
    /// logged, never fatal to the game (`despatch archive` writes it again at any time).
    pub(super) fn archive_at_end(&self, game_id: &str) {
        if let Err(e) = self.write_archive(game_id, None, None) {
            warn!(game = game_id, "the archive could not be written: {e:#}");
        }
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
