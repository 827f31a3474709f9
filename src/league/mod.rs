//! Leagues (issue 16 point 7): a league groups games and ranks their PLAYERS across them.
//! Pure: the daemon reads the league file and the games and hands values in; this module
//! decides each seat's result, adds up the standings and renders them (text for mails and the
//! command line, HTML for the archive). Nothing here touches disk, clock or network.
//!
//! A player is identified by the address registered for the seat in the game's private
//! `seats.toml` (compared without case), so the same person in two games is one row; the row
//! is printed by the player's name, never by the address (standings go to every member).

pub mod derive;
pub mod rating;
mod render;

pub use rating::{Rated, Rating, RatingRule};
pub use render::{render_html, render_text, table_text};

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::engine::{Outcome, Play, SeatEntry, SeatId};

/// Points a league gives per result. An organiser edits them in `leagues/<L>.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Points {
    pub win: i64,
    pub draw: i64,
    pub loss: i64,
}

/// What a league starts with when its file is first made: the usual club table.
pub const DEFAULT_POINTS: Points = Points {
    win: 3,
    draw: 1,
    loss: 0,
};

/// `<data_dir>/leagues/<L>.toml`: the points rule, the rating rule and the league's games, in
/// the order they were created. The games listed here are candidates: a game counts only if its own journal
/// says it plays in this league (so an entry left by a crash before the game existed, or a
/// hand edit, can never put a foreign game in the table).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueFile {
    pub win: i64,
    pub draw: i64,
    pub loss: i64,
    /// Glicko-2's start and constant (ruling K6); absent in files made before ratings, which
    /// then rate from the crate's defaults.
    #[serde(default = "default_start")]
    pub rating_start: f64,
    #[serde(default = "default_deviation")]
    pub rating_deviation: f64,
    #[serde(default = "default_volatility")]
    pub rating_volatility: f64,
    #[serde(default = "default_tau")]
    pub rating_tau: f64,
    #[serde(default)]
    pub games: Vec<String>,
}

fn default_start() -> f64 {
    RatingRule::default().start
}
fn default_deviation() -> f64 {
    RatingRule::default().deviation
}
fn default_volatility() -> f64 {
    RatingRule::default().volatility
}
fn default_tau() -> f64 {
    RatingRule::default().tau
}

impl Default for LeagueFile {
    fn default() -> Self {
        Self {
            win: DEFAULT_POINTS.win,
            draw: DEFAULT_POINTS.draw,
            loss: DEFAULT_POINTS.loss,
            rating_start: default_start(),
            rating_deviation: default_deviation(),
            rating_volatility: default_volatility(),
            rating_tau: default_tau(),
            games: Vec::new(),
        }
    }
}

impl LeagueFile {
    pub fn parse(text: &str) -> Result<Self, String> {
        let f: Self = toml::from_str(text).map_err(|e| e.to_string())?;
        f.rating_rule().check()?;
        Ok(f)
    }

    pub fn rating_rule(&self) -> RatingRule {
        RatingRule {
            start: self.rating_start,
            deviation: self.rating_deviation,
            volatility: self.rating_volatility,
            tau: self.rating_tau,
        }
    }

    pub fn points(&self) -> Points {
        Points {
            win: self.win,
            draw: self.draw,
            loss: self.loss,
        }
    }

    /// The file as written back: the organiser's keys first, with what they mean.
    pub fn to_text(&self, league: &str) -> String {
        let games = self
            .games
            .iter()
            .map(|g| format!("{g:?}"))
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "# League `{league}`: points per result (edit freely; `despatch league {league}`\n\
             # recounts from the games). `games` is kept by `despatch new --league {league}`.\n\
             win = {}\ndraw = {}\nloss = {}\n\
             # Ratings (Glicko-2, docs/club-rules.md K6): a new member's rating, deviation and\n\
             # volatility, and tau, the system constant (0.3 to 1.2; smaller moves ratings less).\n\
             # Changing them re-rates every game from the start, the same for anyone who\n\
             # re-derives the table from the archives.\n\
             rating_start = {:?}\nrating_deviation = {:?}\nrating_volatility = {:?}\n\
             rating_tau = {:?}\ngames = [{games}]\n",
            self.win,
            self.draw,
            self.loss,
            self.rating_start,
            self.rating_deviation,
            self.rating_volatility,
            self.rating_tau
        )
    }
}

/// One seat's result in a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatResult {
    Win,
    Draw,
    Loss,
}

/// Each seat's result from the engine's outcome: a seat that forfeited loses; otherwise the
/// winning sides' seats win, the others lose, and no winner at all is a draw for every seat.
pub fn seat_results(
    seats: &[SeatEntry],
    forfeited: &[SeatId],
    outcome: &Outcome,
) -> Vec<(SeatId, SeatResult)> {
    seats
        .iter()
        .map(|s| {
            let r = if forfeited.contains(&s.seat) {
                SeatResult::Loss
            } else if outcome.winners.is_empty() {
                SeatResult::Draw
            } else if outcome.winners.contains(&s.side) {
                SeatResult::Win
            } else {
                SeatResult::Loss
            };
            (s.seat.clone(), r)
        })
        .collect()
}

/// The one place a league reads how a game ended: `None` while it runs, and for a game the
/// organiser abandoned, which has no result (club ruling O1: not a draw). Every other way a
/// game can end (the rules, a forfeit, a concession or an agreed draw) ends it through the
/// engine's outcome, so they all arrive here.
pub fn results_of(game: &dyn Play) -> Option<Vec<(SeatId, SeatResult)>> {
    let b = game.book();
    if b.club.abandoned.is_some() {
        return None;
    }
    let outcome = game.outcome()?;
    Some(seat_results(&b.seats, &b.forfeited, &outcome))
}

/// A seat's player as the game's private seats file has them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The registered address: the player's identity. Never printed in standings.
    pub address: String,
    pub name: Option<String>,
}

impl Player {
    /// The player's identity in a league: the address without case (in a table re-derived
    /// from archives, the published pseudonym, which is already lower case).
    pub fn key(&self) -> String {
        self.address.to_ascii_lowercase()
    }
}

/// One game of the league, as values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeagueGame {
    pub id: String,
    pub ruleset: String,
    /// Each seat's player, in seat order (a seat without a registered player is left out).
    pub players: Vec<(SeatId, Player)>,
    /// Every seat of the game and its side (the journal's), registered or not.
    pub sides: Vec<SeatEntry>,
    /// `Some` once the game is over with a result.
    pub results: Option<Vec<(SeatId, SeatResult)>>,
    /// The organiser abandoned it: over, with no result and no points (club ruling O1).
    pub abandoned: bool,
    /// The outcome's summary once over, where the game stands while it runs.
    pub state: String,
    /// When it ended (its journal's `game_ended` line): the first key of the rating order.
    pub ended: Option<DateTime<Utc>>,
}

/// One player's line of the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// `1`, or `2=` for a shared place.
    pub place: String,
    pub name: String,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub points: i64,
    /// The player's Glicko-2 rating after the games counted (ruling K1).
    pub rating: Rating,
}

impl Row {
    /// `1612 ±87`.
    pub fn rating_text(&self) -> String {
        rating::shown(self.rating.rating, self.rating.deviation)
    }
}

/// A game listed under the table: its id, ruleset and result or state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Listed {
    pub game: String,
    pub ruleset: String,
    pub state: String,
}

/// The standings of a league, ready to render.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standings {
    pub league: String,
    pub points: Points,
    pub rating: RatingRule,
    pub rows: Vec<Row>,
    pub finished: Vec<Listed>,
    /// Games the organiser abandoned: listed, never scored (club ruling O1).
    pub abandoned: Vec<Listed>,
    pub running: Vec<Listed>,
}

/// The rule that orders the table, as every rendering prints it.
pub const TIE_RULE: &str = "Ranked by points, then wins, then fewest losses; players \
    still level share the place and are listed by name.";

#[derive(Default)]
struct Tally {
    name: String,
    played: u32,
    won: u32,
    drawn: u32,
    lost: u32,
}

/// Adds up the finished games, one result per player per game (a player holding several seats
/// of one game counts once, by the first of them in seat order), and rates them. Finished
/// games are taken in the rating order (end time, then id: ruling K3), so "the latest game"
/// whose name a row shows is the latest to end. Linear in the seats of the league's games,
/// plus the sorts of its games and players.
pub fn standings(
    league: &str,
    points: Points,
    rule: &RatingRule,
    games: &[LeagueGame],
) -> Standings {
    let mut order: Vec<String> = Vec::new();
    let mut tally: HashMap<String, Tally> = HashMap::new();
    let mut finished = Vec::new();
    let mut abandoned = Vec::new();
    let mut running = Vec::new();
    let listed = |g: &LeagueGame| Listed {
        game: g.id.clone(),
        ruleset: g.ruleset.clone(),
        state: g.state.clone(),
    };
    for g in games {
        if g.abandoned {
            abandoned.push(listed(g));
        } else if g.results.is_none() {
            running.push(listed(g));
        }
    }
    let ratings = rating::ratings(games, rule);
    for g in rating::rating_order(games) {
        let Some(results) = &g.results else {
            continue;
        };
        finished.push(listed(g));
        let mut counted: Vec<String> = Vec::new();
        for (seat, player) in &g.players {
            let key = player.key();
            if counted.contains(&key) {
                continue;
            }
            let Some((_, r)) = results.iter().find(|(s, _)| s == seat) else {
                continue;
            };
            counted.push(key.clone());
            let named = player.name.clone().filter(|n| !n.trim().is_empty());
            let t = tally.entry(key.clone()).or_insert_with(|| {
                order.push(key.clone());
                Tally {
                    // Without a name, the seat the player first held: never the address.
                    name: format!("{seat} of {}", g.id),
                    ..Tally::default()
                }
            });
            // The name of the latest game that has one: a first game without a name (or an
            // old one, changed by NAME since) does not stick.
            if let Some(n) = named {
                t.name = n;
            }
            t.played += 1;
            match r {
                SeatResult::Win => t.won += 1,
                SeatResult::Draw => t.drawn += 1,
                SeatResult::Loss => t.lost += 1,
            }
        }
    }
    let mut rows: Vec<Row> = order
        .iter()
        .map(|k| {
            let t = &tally[k];
            Row {
                place: String::new(),
                name: t.name.clone(),
                played: t.played,
                won: t.won,
                drawn: t.drawn,
                lost: t.lost,
                points: t.won as i64 * points.win
                    + t.drawn as i64 * points.draw
                    + t.lost as i64 * points.loss,
                rating: ratings.get(k).map_or(rule.initial(), |r| r.rating),
            }
        })
        .collect();
    disambiguate(&mut rows);
    place_rows(&mut rows);
    Standings {
        league: league.to_string(),
        points,
        rating: *rule,
        rows,
        finished,
        abandoned,
        running,
    }
}

/// Rows in order of points, then wins, then fewest losses (then name), each with its place;
/// rows that tie share it, marked `=`.
fn place_rows(rows: &mut [Row]) {
    let rank = |r: &Row| {
        (
            std::cmp::Reverse(r.points),
            std::cmp::Reverse(r.won),
            r.lost,
        )
    };
    rows.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.name.cmp(&b.name)));
    let mut place = 0;
    for i in 0..rows.len() {
        if i == 0 || rank(&rows[i]) != rank(&rows[i - 1]) {
            place = i + 1;
        }
        let shared = rows.get(i + 1).is_some_and(|n| rank(n) == rank(&rows[i]))
            || (i > 0 && rank(&rows[i - 1]) == rank(&rows[i]));
        rows[i].place = format!("{place}{}", if shared { "=" } else { "" });
    }
}

/// Two players who registered the same name get `(2)`, `(3)` after it, in the order they
/// first appear, so the table never merges them and never needs their addresses.
fn disambiguate(rows: &mut [Row]) {
    let mut seen: HashMap<String, u32> = HashMap::new();
    for r in rows.iter_mut() {
        let n = seen.entry(r.name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            r.name = format!("{} ({n})", r.name);
        }
    }
}

/// Every member's address, once each, in the order they first appear: the players of the
/// league's games (running games included), who get the standings after each game ends.
pub fn members(games: &[LeagueGame]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for g in games {
        for (_, p) in &g.players {
            if seen.insert(p.key()) {
                out.push(p.address.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(seat: &str, side: &str) -> SeatEntry {
        SeatEntry {
            seat: seat.into(),
            side: side.into(),
        }
    }

    #[test]
    fn a_forfeit_loses_even_on_the_winning_side_and_no_winner_is_a_draw() {
        let seats = [entry("a1", "red"), entry("a2", "red"), entry("b", "blue")];
        let won = Outcome {
            winners: vec!["red".into()],
            summary: String::new(),
        };
        let r = seat_results(&seats, &["a2".into()], &won);
        assert_eq!(
            r.iter().map(|(_, r)| *r).collect::<Vec<_>>(),
            [SeatResult::Win, SeatResult::Loss, SeatResult::Loss]
        );
        let drawn = Outcome {
            winners: vec![],
            summary: String::new(),
        };
        assert!(
            seat_results(&seats, &[], &drawn)
                .iter()
                .all(|(_, r)| *r == SeatResult::Draw)
        );
    }

    #[test]
    fn the_league_file_reads_back_what_it_writes() {
        let f = LeagueFile {
            games: vec!["g1".into(), "g2".into()],
            ..LeagueFile::default()
        };
        assert_eq!(LeagueFile::parse(&f.to_text("spring")).unwrap(), f);
        assert!(LeagueFile::parse("win = 3\nbogus = 1\n").is_err());
    }
}
