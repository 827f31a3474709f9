//! The live site in the shell's hands (issue 31 point 2; docs/site.md). After every change a
//! page shows — a step resolved, the game's start and end, an organiser's act — the game's own
//! pages (public and each seat's) and the site's index are rewritten: that game's files and
//! the index only, never every game's. The pages are `archive::live_site`'s; they are written
//! by `site_write`, one whole file at a time. A failure is logged and never stops the game:
//! the next change writes everything again.

use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow};
use tracing::{debug, warn};

use crate::archive::{self, SeatPage};
use crate::engine::Event;

use super::Daemon;
use super::calendar::CalendarGames;
use super::open_game::OpenGame;
use super::site_index::Summaries;
use super::site_write::{write_and_prune, write_files};

/// The dot-file (never served, never pruned) that says a game's folder holds maps drawn from
/// the journal its content names: see `drawn_mark`.
const MARK: &str = ".drawn";

/// What `MARK` holds once a game's pages were written: Despatch's version and the SHA-256 of
/// the journal's first line (the game's creation, with its commitments: no other game's). A
/// map a rewrite finds under that mark was drawn from a prefix of this journal, written whole,
/// and shows a resolved step (or the start) as one viewer saw it, which no later event
/// changes: it is kept. A folder without the mark, or with another game's or version's (a
/// game made again under an old game's name, an upgrade), has every map drawn again; so has
/// `despatch archive`. A rewrite that failed midway left whole files or none: whatever map is
/// missing is drawn by the next one, which is how a lapse heals.
fn drawn_mark(first_line: &str) -> String {
    use sha2::Digest;
    format!(
        "despatch {}\n{}\n",
        env!("CARGO_PKG_VERSION"),
        hex::encode(sha2::Sha256::digest(first_line.as_bytes()))
    )
}

/// The maps under `dir` (`maps/<file>`, `s/<code>/maps/<file>`), as relative paths, when
/// `dir`'s mark is `mark`; none otherwise. Plain files only (never a temporary).
fn maps_on_disk(dir: &Path, mark: &str) -> archive::Drawn {
    let mut found = archive::Drawn::new();
    if std::fs::read_to_string(dir.join(MARK)).ok().as_deref() != Some(mark) {
        return found;
    }
    let mut maps_in = |rel: &str| {
        let Ok(rd) = std::fs::read_dir(dir.join(rel)) else {
            return;
        };
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.starts_with('.') && e.file_type().is_ok_and(|t| t.is_file()) {
                found.insert(format!("{rel}/{name}"));
            }
        }
    };
    maps_in("maps");
    let seats: Vec<String> = std::fs::read_dir(dir.join("s"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    for code in seats {
        maps_in(&format!("s/{code}/maps"));
    }
    found
}

/// Whether an event changes what a page shows. Orders coming in, reminders, press (public only
/// once the game is over, which is itself a change) and the watchers' comings and goings
/// change no page; a lock waits for its results, which do. The organiser's pause, resumption
/// and message to every seat are listed on the game's page (issue 31 point 4).
pub(super) fn shows(ev: &Event) -> bool {
    !matches!(
        ev,
        Event::Submission { .. }
            | Event::Standing { .. }
            | Event::Reminder { .. }
            | Event::Press { .. }
            | Event::SpectatorJoined { .. }
            | Event::SpectatorLeft { .. }
            | Event::Lock { .. }
            | Event::Reveal { .. }
    )
}

/// Each seat's private page: the seats with a player (a resigned seat has none), each by the
/// code of its own secret, with the time zone its mails give deadlines in and its player's
/// calendar feed, when one was made.
fn seat_pages(g: &OpenGame, feeds: &[(String, String, String)]) -> Vec<SeatPage> {
    g.recipients()
        .iter()
        .filter(|r| !r.private.token.is_empty())
        .map(|r| SeatPage {
            seat: r.seat.clone(),
            code: archive::seat_code(&g.store.id, &r.seat, &r.private.token),
            time_zone: r.private.time_zone.clone(),
            calendar: feeds
                .iter()
                .find(|(seat, _, _)| *seat == r.seat)
                .map(|(_, code, _)| code.clone()),
        })
        .collect()
}

impl Daemon {
    /// Where the live site is written (`site.root`, by default `<data_dir>/archive`).
    pub fn site_root(&self) -> PathBuf {
        self.cfg.site_root()
    }

    /// After a change to `g`: its pages and the site's index. `fresh`: the game was just made
    /// (the leagues' page takes its new member). A failure is logged, never raised.
    pub(super) fn site_after(&self, g: &OpenGame, fresh: bool) {
        let started = std::time::Instant::now();
        match self.write_live(g, fresh, false) {
            Ok((_, n)) => debug!(
                game = %g.store.id,
                files = n,
                ms = started.elapsed().as_secs_f64() * 1e3,
                "live pages rewritten"
            ),
            Err(e) => warn!(
                game = %g.store.id,
                "the live pages were not rewritten (the game goes on; its next change tries \
                 again): {e:#}"
            ),
        }
    }

    /// Writes `g`'s pages into `<site root>/<game>/` (removing what the game no longer has: a
    /// seat handed on keeps no page at its old code), then the site's index. Returns the folder
    /// and the number of files the game's pages are. `relist`: the index from every game's
    /// summary read again, not from the kept list (`despatch archive`, the organiser's mend).
    pub fn write_live(&self, g: &OpenGame, fresh: bool, relist: bool) -> Result<(PathBuf, usize)> {
        let id = &g.store.id;
        let journal = g.store.read_journal()?;
        let over = archive::shows_everything(g.game.as_ref());
        // An ended league game's pages show its league's table as it stands at its end, and
        // the roster that re-derives it (ruling K7); during play they link to the leagues page.
        let (standings, roster) = match over {
            true => self.league_section(&journal.lines),
            false => (None, None),
        };
        let feeds = self.calendar_feeds(g);
        let dir = self.site_root().join(id);
        // The maps already written from this journal are kept: a step draws its own maps,
        // not every past step's again. `fresh` (a new game, `despatch archive`) draws all.
        let mark = drawn_mark(journal.lines.first().map_or("", String::as_str));
        let drawn = match fresh {
            true => archive::Drawn::new(),
            false => maps_on_disk(&dir, &mark),
        };
        let (mut site, summary) = archive::live_site(
            &self.registry,
            &journal.lines,
            standings.as_ref(),
            &seat_pages(g, &feeds),
            &drawn,
        )
        .map_err(|e| anyhow!("game {id}: {e}; no page written"))?;
        if let Some(r) = roster {
            // Before the index, which is written last.
            let at = site.files.len().saturating_sub(1);
            site.files
                .insert(at, ("league.json".into(), r.into_bytes()));
        }
        // Each player's feed first: the seat pages link to it.
        let mut cal = vec![(
            "cal/index.html".to_string(),
            archive::placeholder_page("Each player's calendar has an address of its own."),
        )];
        cal.extend(
            feeds
                .into_iter()
                .map(|(_, code, ics)| (format!("cal/{code}.ics"), ics.into_bytes())),
        );
        write_files(&self.site_root(), &cal, false)?;
        let changed = write_and_prune(&dir, &site.files, Some(&site.kept))?;
        // Only now: every map the site names is in place, whole.
        let at = dir.join(MARK);
        if std::fs::read_to_string(&at).ok().as_deref() != Some(mark.as_str()) {
            crate::store::replace_file(&at, mark.as_bytes(), crate::store::Durable::ContentOnly)?;
        }
        debug!(game = %id, changed, kept = site.kept.len(), "live pages written");
        let n = site.files.len();
        let leagues = summary.league.is_some() && (fresh || over);
        let from = match relist {
            true => Summaries::Relisted,
            false => Summaries::Kept(Some(&summary)),
        };
        self.write_site_index(from, leagues)?;
        Ok((dir, n))
    }

    /// Each seat's player's calendar feed (`Daemon::player_calendar`: every deadline of every
    /// game the address plays) as (seat, code, feed). A feed that cannot be made is left out,
    /// logged: the pages matter more. Each game is read once for all the feeds, `g` not again.
    fn calendar_feeds(&self, g: &OpenGame) -> Vec<(String, String, String)> {
        let key = match self.site_key() {
            Ok(k) => k,
            Err(e) => {
                warn!("no calendar feeds without the site key: {e:#}");
                return vec![];
            }
        };
        // The feed says whether a deadline has passed: by the clock, as a reader opens it.
        let now = chrono::Utc::now();
        let mut read = CalendarGames::with(g);
        g.recipients()
            .iter()
            .filter(|r| !r.private.token.is_empty())
            .filter_map(|r| {
                let a = &r.private.address;
                match self.player_calendar_from(a, &r.private.time_zone, now, &mut read) {
                    Ok(c) => Some((r.seat.clone(), archive::calendar_code(&key, a), c.ics)),
                    Err(e) => {
                        warn!(game = %g.store.id, seat = %r.seat, "a calendar feed was not written: {e:#}");
                        None
                    }
                }
            })
            .collect()
    }

    /// `<data_dir>/site.key`: the house's secret for the calendar feeds' codes, made on first
    /// use (readable by the service user only). Never published: with it, anyone could find
    /// a player's feed from their address.
    fn site_key(&self) -> Result<Vec<u8>> {
        let p = self.data.root.join("site.key");
        match std::fs::read_to_string(&p) {
            Ok(t) => return hex::decode(t.trim()).map_err(|e| anyhow!("{}: {e}", p.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(anyhow!("{}: {e}", p.display())),
        }
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| anyhow!("no entropy for {}: {e}", p.display()))?;
        crate::store::atomic_write_private(&p, hex::encode(key).as_bytes())?;
        Ok(key.to_vec())
    }

    /// `despatch archive <game>` without `--out`: the game's live pages, now, and the site's
    /// index from every game's summary (it mends a kept list a crash left behind).
    pub(super) fn write_live_of(&self, game_id: &str) -> Result<(PathBuf, usize)> {
        let g = self.open_game(game_id)?;
        self.write_live(&g, true, true)
    }
}
