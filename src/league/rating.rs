//! League ratings (issue 31 point 3): Glicko-2 through the `skillratings` crate, one game at a
//! time in a fixed order, so a rating is a pure function of the games' outcomes and anyone
//! with the archives re-derives it (docs/club-rules.md K1–K7). Pure: takes values, touches no
//! disk or clock, and never orders games by anything but (end time, game id).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

use super::{LeagueGame, SeatResult};

/// A league's rating parameters: where a new member starts and Glicko-2's system constant.
/// The defaults are the crate's (1500 ±350, volatility 0.06, tau 0.5); a league file may set
/// its own (`rating_start`, `rating_deviation`, `rating_volatility`, `rating_tau`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatingRule {
    pub start: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub tau: f64,
}

impl Default for RatingRule {
    fn default() -> Self {
        let r = Glicko2Rating::new();
        Self {
            start: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            tau: Glicko2Config::new().tau,
        }
    }
}

impl RatingRule {
    /// Refuses numbers Glicko-2 cannot work with (a zero deviation divides by zero in its
    /// update; a negative tau makes the volatility search run away).
    pub fn check(&self) -> Result<(), String> {
        let positive = [
            ("rating_deviation", self.deviation),
            ("rating_volatility", self.volatility),
            ("rating_tau", self.tau),
        ];
        if !self.start.is_finite() {
            return Err(format!("rating_start = {}: use a number", self.start));
        }
        for (k, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("{k} = {v}: use a number above 0"));
            }
        }
        Ok(())
    }

    /// A new member's rating.
    pub fn initial(&self) -> Rating {
        Rating {
            rating: self.start,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    /// The rule in one sentence, as the mails and pages print it.
    pub fn describe(&self) -> String {
        format!(
            "Ratings: Glicko-2 (skillratings 0.29.2, tau {}), one game at a time in the order \
             the games ended; a new member starts at {}.",
            self.tau,
            shown(self.start, self.deviation)
        )
    }
}

/// One player's Glicko-2 rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// `1612 ±87`: rating and deviation rounded to whole points.
pub fn shown(rating: f64, deviation: f64) -> String {
    format!("{:.0} ±{:.0}", rating, deviation)
}

/// One Glicko-2 rating period for `player`: its results against each opponent (`Win` = the
/// player won), all from the ratings as they stood before the period. The only call into
/// the crate, so the known-answer test checks the very code every game goes through.
pub fn update(player: Rating, results: &[(Rating, SeatResult)], rule: &RatingRule) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(o, r)| {
            let outcome = match r {
                SeatResult::Win => Outcomes::WIN,
                SeatResult::Draw => Outcomes::DRAW,
                SeatResult::Loss => Outcomes::LOSS,
            };
            (o.glicko(), outcome)
        })
        .collect();
    let config = Glicko2Config {
        tau: rule.tau,
        ..Glicko2Config::new()
    };
    let r = glicko2_rating_period(&player.glicko(), &results, &config);
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// The finished, rated games in the order they are rated (ruling K3): by end time, then by
/// game id. Abandoned and running games are not rated (K5).
pub fn rating_order(games: &[LeagueGame]) -> Vec<&LeagueGame> {
    let mut rated: Vec<&LeagueGame> = games
        .iter()
        .filter(|g| !g.abandoned && g.results.is_some())
        .collect();
    rated.sort_by(|a, b| (a.ended, &a.id).cmp(&(b.ended, &b.id)));
    rated
}

/// A rated player of one game: its key, its side and its own result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contestant {
    pub key: String,
    pub side: String,
    pub result: SeatResult,
}

/// The game's contestants (ruling K2): each registered player once, by the first seat it
/// holds in seat order (as the table counts it), with that seat's side and result.
pub fn contestants(game: &LeagueGame) -> Vec<Contestant> {
    let Some(results) = &game.results else {
        return vec![];
    };
    let mut out: Vec<Contestant> = Vec::new();
    for (seat, player) in &game.players {
        let key = player.key();
        if out.iter().any(|c| c.key == key) {
            continue;
        }
        let result = results.iter().find(|(s, _)| s == seat).map(|(_, r)| *r);
        let side = game.sides.iter().find(|e| &e.seat == seat);
        if let (Some(result), Some(side)) = (result, side) {
            out.push(Contestant {
                key,
                side: side.side.clone(),
                result,
            });
        }
    }
    out
}

fn rank(r: SeatResult) -> u8 {
    match r {
        SeatResult::Loss => 0,
        SeatResult::Draw => 1,
        SeatResult::Win => 2,
    }
}

/// The player's result against a side (K2): better than the side's result is a win, the same
/// a draw, worse a loss. A side's result is its best seat's (a side won if any of its seats
/// won), so a seat that forfeited on the winning side is, like the losers, level with them.
fn against(mine: SeatResult, theirs: SeatResult) -> SeatResult {
    match rank(mine).cmp(&rank(theirs)) {
        std::cmp::Ordering::Greater => SeatResult::Win,
        std::cmp::Ordering::Equal => SeatResult::Draw,
        std::cmp::Ordering::Less => SeatResult::Loss,
    }
}

/// Each contestant's results in the game (K2): one per other side that has a contestant,
/// against that side as one opponent, its players taken together: the mean of their ratings,
/// the root mean square of their deviations. `table` holds the ratings before the game.
pub fn game_results(
    game: &LeagueGame,
    table: &BTreeMap<String, Rated>,
    rule: &RatingRule,
) -> Vec<(String, Vec<(Rating, SeatResult)>)> {
    let cs = contestants(game);
    let mut sides: Vec<&str> = Vec::new();
    for c in &cs {
        if !sides.contains(&c.side.as_str()) {
            sides.push(&c.side);
        }
    }
    let before = |k: &str| table.get(k).map_or(rule.initial(), |r| r.rating);
    // Every seat counts for its side's result, registered or not: the side won if any won.
    let side_result = |side: &str| {
        let results = game.results.as_deref().unwrap_or_default();
        results
            .iter()
            .filter(|(seat, _)| game.sides.iter().any(|e| &e.seat == seat && e.side == side))
            .map(|(_, r)| *r)
            .max_by_key(|r| rank(*r))
            .unwrap_or(SeatResult::Loss)
    };
    let composite = |side: &str| {
        let members: Vec<Rating> = cs
            .iter()
            .filter(|c| c.side == side)
            .map(|c| before(&c.key))
            .collect();
        let n = members.len() as f64;
        Rating {
            rating: members.iter().map(|r| r.rating).sum::<f64>() / n,
            deviation: (members.iter().map(|r| r.deviation.powi(2)).sum::<f64>() / n).sqrt(),
            volatility: members.iter().map(|r| r.volatility).sum::<f64>() / n,
        }
    };
    cs.iter()
        .map(|c| {
            let results = sides
                .iter()
                .filter(|s| **s != c.side)
                .map(|s| (composite(s), against(c.result, side_result(s))))
                .collect();
            (c.key.clone(), results)
        })
        .collect()
}

/// A player's rating and how many games it has been rated in.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rated {
    pub rating: Rating,
    pub games: u32,
}

/// Rates one game (one rating period, K4): every contestant's new rating from the ratings
/// before it, then all of them written at once. A contestant with no opposing contestant
/// (every other seat unregistered) is left as it was.
pub fn rate_game(game: &LeagueGame, table: &mut BTreeMap<String, Rated>, rule: &RatingRule) {
    let updates: Vec<(String, Rating)> = game_results(game, table, rule)
        .into_iter()
        .filter(|(_, results)| !results.is_empty())
        .map(|(key, results)| {
            let before = table.get(&key).map_or(rule.initial(), |r| r.rating);
            (key, update(before, &results, rule))
        })
        .collect();
    for (key, rating) in updates {
        let e = table.entry(key).or_insert(Rated {
            rating: rule.initial(),
            games: 0,
        });
        e.rating = rating;
        e.games += 1;
    }
}

/// Every player's rating after all the league's finished games, rated in `rating_order`.
pub fn ratings(games: &[LeagueGame], rule: &RatingRule) -> BTreeMap<String, Rated> {
    let mut table = BTreeMap::new();
    for g in rating_order(games) {
        rate_game(g, &mut table, rule);
    }
    table
}

#[cfg(test)]
#[path = "rating_tests.rs"]
mod tests;
