//! The site's index (`index.html`, `leagues.html`) and the campaigns' page, in the shell's
//! hands (issue 31 point 2, issue 32 point 4): written after any game's pages or the lobby
//! changed. It must not read every game to do so.

use anyhow::Result;
use tracing::warn;

use crate::archive::{self, GameSummary, LeagueSection};

use super::Daemon;
use super::site_write::write_files;

impl Daemon {
    /// The site's `index.html` from every game's `game.json` and the lobby's open tables; with
    /// `leagues` (or when it is missing), `leagues.html` too, which opens every league game and
    /// so is written only when a table can have changed: a league game made or ended.
    pub fn write_site_index(&self, leagues: bool) -> Result<()> {
        let root = self.site_root();
        let mut games: Vec<GameSummary> = Vec::new();
        if let Ok(rd) = std::fs::read_dir(&root) {
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
        let mut files = Vec::new();
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
        if let Err(e) = self.write_site_index(false) {
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
            self.write_site_index(false)
        };
        if let Err(e) = write() {
            warn!("the campaigns' page was not written: {e:#}");
        }
    }
}
