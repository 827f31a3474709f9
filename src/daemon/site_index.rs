//! The site's index (`index.html`, `leagues.html`) and the campaigns' page, in the shell's
//! hands (issue 31 point 2, issue 32 point 4): written after any game's pages or the lobby
//! changed. It must not read every game to do so: the games' summaries are kept in one file,
//! `games.json` at the site's root, and a change replaces one game's entry in it.

use anyhow::{Context, Result};
use tracing::{info, warn};

use crate::archive::{self, GameSummary, LeagueSection};

use super::Daemon;
use super::site_write::write_files;

/// The kept list of every game's summary (what each `<game>/game.json` says), sorted by game.
/// Public like the summaries it repeats: the index page is made from it.
pub(super) const KEPT_SUMMARIES: &str = "games.json";

/// Which games' summaries a rewrite of the index starts from.
#[derive(Debug, Clone, Copy)]
pub(super) enum Summaries<'a> {
    /// The kept list, with this game's summary put in (its pages were just written).
    Kept(Option<&'a GameSummary>),
    /// Every game's `game.json` read again (`despatch archive`, or the kept list unreadable).
    Relisted,
}

impl Daemon {
    /// The site's `index.html` from the games' summaries and the lobby's open tables; with
    /// `leagues` (or when it is missing), `leagues.html` too, which opens every league game and
    /// so is written only when a table can have changed: a league game made or ended.
    ///
    /// Under the site's own lock (`DataDir::site_lock`): a daemon's pass and an organiser's
    /// command may both rewrite the index, and each must keep the other's entry. A kept list
    /// that is missing or unreadable is rebuilt from every `game.json` (logged), once.
    pub(super) fn write_site_index(&self, from: Summaries<'_>, leagues: bool) -> Result<()> {
        let root = self.site_root();
        let _lock = self.data.site_lock()?;
        let mut games = match from {
            Summaries::Relisted => None,
            Summaries::Kept(_) => kept_summaries(&root),
        }
        .unwrap_or_else(|| summaries_listed(&root));
        if let Summaries::Kept(Some(s)) = from {
            match games.binary_search_by(|g| g.id.cmp(&s.id)) {
                Ok(i) => games[i] = s.clone(),
                Err(i) => games.insert(i, s.clone()),
            }
        }
        let open: Vec<String> = match self.data.has_lobby() {
            true => self
                .data
                .lobby_book()?
                .tables
                .iter()
                .map(crate::engine::lobby::table_text)
                .collect(),
            false => vec![],
        };
        let names = self.league_list();
        // The kept list first: an index page never names a game the list has lost.
        let mut files = vec![(
            KEPT_SUMMARIES.to_string(),
            serde_json::to_vec(&games).context("the games' summaries")?,
        )];
        if !names.is_empty() && (leagues || !root.join("leagues.html").exists()) {
            let mut tables: Vec<(String, LeagueSection)> = Vec::new();
            for l in &names {
                match self.standings_section(l) {
                    Ok(s) => tables.push((l.clone(), s)),
                    Err(e) => warn!(league = %l, "a league's table left off the site: {e:#}"),
                }
            }
            files.push(("leagues.html".to_string(), archive::leagues_page(&tables)));
        }
        files.push((
            "index.html".to_string(),
            archive::site_index(&games, &open, &names, &self.data.campaign_names()),
        ));
        write_files(&root, &files, false)?;
        Ok(())
    }

    /// After the lobby changed: the index's list of games wanting players. Logged on failure.
    pub(super) fn site_index_after_lobby(&self) {
        if let Err(e) = self.write_site_index(Summaries::Kept(None), false) {
            warn!("the site's index was not rewritten after the lobby changed: {e:#}");
        }
    }

    /// The leagues that exist (`<data_dir>/leagues/<L>.toml`), sorted.
    fn league_list(&self) -> Vec<String> {
        let Ok(rd) = std::fs::read_dir(self.data.root.join("leagues")) else {
            return vec![];
        };
        let mut v: Vec<String> = rd
            .flatten()
            .filter_map(|e| {
                let p = e.path();
                (p.extension()? == "toml").then_some(())?;
                let name = p.file_stem()?.to_string_lossy().into_owned();
                crate::engine::valid_game_id(&name).then_some(name)
            })
            .collect();
        v.sort();
        v
    }

    /// `campaigns.html`: every campaign's ledger. Written when a campaign starts or goes on
    /// (not at every step: a ledger opens every battle). Logged on failure.
    pub(super) fn write_campaigns_page(&self) {
        let write = || -> Result<()> {
            let mut all = vec![];
            for name in self.data.campaign_names() {
                match self.campaign_ledger(&name) {
                    Ok((_, l)) => all.push((name, l)),
                    Err(e) => warn!(campaign = %name, "a campaign left off the site: {e:#}"),
                }
            }
            let files = vec![("campaigns.html".to_string(), archive::campaigns_page(&all))];
            write_files(&self.site_root(), &files, false)?;
            self.write_site_index(Summaries::Kept(None), false)
        };
        if let Err(e) = write() {
            warn!("the campaigns' page was not written: {e:#}");
        }
    }
}

/// The kept list, sorted by game; `None` when it is missing or cannot be read (the caller
/// rebuilds it: a damaged list costs one reading of every game, never a wrong index).
fn kept_summaries(root: &std::path::Path) -> Option<Vec<GameSummary>> {
    let p = root.join(KEPT_SUMMARIES);
    let bytes = match std::fs::read(&p) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            info!(file = %p.display(), "no kept list of the games' summaries yet; reading every game's");
            return None;
        }
        Err(e) => {
            warn!(file = %p.display(), "the kept list of the games' summaries cannot be read ({e}); reading every game's");
            return None;
        }
    };
    match serde_json::from_slice::<Vec<GameSummary>>(&bytes) {
        Ok(mut v) => {
            v.retain(|s| crate::engine::valid_game_id(&s.id));
            v.sort_by(|a, b| a.id.cmp(&b.id));
            v.dedup_by(|a, b| a.id == b.id);
            Some(v)
        }
        Err(e) => {
            warn!(file = %p.display(), "the kept list of the games' summaries is damaged ({e}); reading every game's");
            None
        }
    }
}

/// Every game's summary from its own `game.json`, sorted by game: one reading of every game's
/// folder under the site's root.
fn summaries_listed(root: &std::path::Path) -> Vec<GameSummary> {
    let mut games: Vec<GameSummary> = Vec::new();
    if let Ok(rd) = std::fs::read_dir(root) {
        for e in rd.flatten() {
            let p = e.path().join("game.json");
            let Ok(bytes) = std::fs::read(&p) else {
                continue; // an archive from before the live site, or not a game's folder
            };
            match serde_json::from_slice::<GameSummary>(&bytes) {
                Ok(s) if crate::engine::valid_game_id(&s.id) => games.push(s),
                _ => {
                    warn!(file = %p.display(), "a game's summary could not be read; left off the index")
                }
            }
        }
    }
    games.sort_by(|a, b| a.id.cmp(&b.id));
    games
}
