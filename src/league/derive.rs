//! Re-deriving a league's table from published archives (ruling K7): each ended league game's
//! archive publishes its journal and `league.json`, the roster (which pseudonymous player held
//! each seat, by what name), the league's rules, and the table as the house stood it after
//! that game. From those alone this replays every journal, rates the games in the fixed order
//! and compares, game by game, with what was published and with the standings mails. Pure:
//! the caller reads the files; this never trusts a published number it can recompute.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::engine::Registry;

use super::{LeagueGame, Player, Points, RatingRule, Row, Standings};

/// The `format` of every `league.json` this build writes.
pub const ROSTER_FORMAT: &str = "despatch-league-roster/1";

/// Ratings published with two decimals; a re-derivation within this of them agrees (the
/// platform's `exp`/`ln` may differ in the last bit, never by this much).
pub const TOLERANCE: f64 = 0.01;

/// One seat of the roster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterSeat {
    pub seat: String,
    /// The player's pseudonym in this league (never the address): the same in every game of
    /// the league, unrelated to the player's pseudonym in another league.
    pub player: String,
    pub name: Option<String>,
}

/// One row of a published table; the rating with two decimals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishedRow {
    pub place: String,
    pub name: String,
    pub played: u32,
    pub won: u32,
    pub drawn: u32,
    pub lost: u32,
    pub points: i64,
    pub rating: f64,
    pub deviation: f64,
}

impl PublishedRow {
    pub fn of(r: &Row) -> Self {
        let two = |x: f64| (x * 100.0).round() / 100.0;
        Self {
            place: r.place.clone(),
            name: r.name.clone(),
            played: r.played,
            won: r.won,
            drawn: r.drawn,
            lost: r.lost,
            points: r.points,
            rating: two(r.rating.rating),
            deviation: two(r.rating.deviation),
        }
    }

    /// Equal but for the ratings' last bits.
    fn agrees(&self, other: &Self) -> bool {
        let close = |a: f64, b: f64| (a - b).abs() <= TOLERANCE;
        self.place == other.place
            && self.name == other.name
            && (self.played, self.won, self.drawn, self.lost, self.points)
                == (
                    other.played,
                    other.won,
                    other.drawn,
                    other.lost,
                    other.points,
                )
            && close(self.rating, other.rating)
            && close(self.deviation, other.deviation)
    }

    fn line(&self) -> String {
        format!(
            "{} {}: P{} W{} D{} L{} {} pts, {:.2} ±{:.2}",
            self.place,
            self.name,
            self.played,
            self.won,
            self.drawn,
            self.lost,
            self.points,
            self.rating,
            self.deviation
        )
    }
}

/// `league.json` of one game's archive.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roster {
    pub format: String,
    pub league: String,
    pub game: String,
    pub points: Points,
    pub rating: RatingRule,
    pub seats: Vec<RosterSeat>,
    /// The table after this game (the games ended up to it, in the rating order).
    pub after: Vec<PublishedRow>,
}

#[derive(Debug, thiserror::Error)]
pub enum DeriveError {
    #[error("{0}: league.json: {1}")]
    Roster(String, String),
    #[error("{0}: the journal does not replay: {1}")]
    Journal(String, String),
    #[error("{0}: {1}")]
    Mismatch(String, String),
}

/// One archive as read from its folder: a label for messages (its path), the journal's lines
/// and `league.json`'s text.
#[derive(Debug, Clone)]
pub struct ArchiveInput {
    pub label: String,
    pub journal: Vec<String>,
    pub roster: String,
}

/// The journal's end time: its last `game_ended` line's, else (a v1 game over without one)
/// its last line's.
pub fn end_time(lines: &[String]) -> Option<DateTime<Utc>> {
    let at = |l: &String| {
        let v: serde_json::Value = serde_json::from_str(l).ok()?;
        let at = v.get("at")?.as_str()?;
        let ended = v.get("type")?.as_str()? == "game_ended";
        Some((ended, at.parse::<DateTime<Utc>>().ok()?))
    };
    let mut last = None;
    for l in lines.iter().rev() {
        if let Some((ended, t)) = at(l) {
            if ended {
                return Some(t);
            }
            last.get_or_insert(t);
        }
    }
    last
}

/// The table after `game`: the standings of the games rated up to and including it.
pub fn after(
    league: &str,
    points: Points,
    rule: &RatingRule,
    games: &[LeagueGame],
    game: &str,
) -> Standings {
    let Some(g) = games.iter().find(|g| g.id == game) else {
        return super::standings(league, points, rule, &[]);
    };
    let upto: Vec<LeagueGame> = games
        .iter()
        .filter(|o| !o.abandoned && o.results.is_some() && (o.ended, &o.id) <= (g.ended, &g.id))
        .cloned()
        .collect();
    super::standings(league, points, rule, &upto)
}

/// What a re-derivation found.
#[derive(Debug, Clone)]
pub struct Derived {
    pub standings: Standings,
    pub games: Vec<LeagueGame>,
    /// Each difference from what was published, with where: empty when everything agrees.
    pub differences: Vec<String>,
    /// Published tables compared (one per archive, one per mail).
    pub compared: usize,
}

/// Replays each archive's journal, rates the games and compares each archive's published
/// table with the one re-derived for the same moment.
pub fn derive(
    registry: &Registry,
    league: &str,
    archives: &[ArchiveInput],
) -> Result<Derived, DeriveError> {
    let mut games = Vec::new();
    let mut rosters = Vec::new();
    let mut seen = HashSet::new();
    let mut rules: Option<(Points, RatingRule, String)> = None;
    for a in archives {
        let bad = |m: String| DeriveError::Roster(a.label.clone(), m);
        let r: Roster = serde_json::from_str(&a.roster).map_err(|e| bad(e.to_string()))?;
        if r.format != ROSTER_FORMAT {
            return Err(bad(format!("format `{}`, not {ROSTER_FORMAT}", r.format)));
        }
        if r.league != league {
            return Err(bad(format!("of league `{}`, not `{league}`", r.league)));
        }
        match &rules {
            Some((p, q, first)) if (*p, *q) != (r.points, r.rating) => {
                return Err(bad(format!("other points or rating rules than {first}'s")));
            }
            Some(_) => {}
            None => rules = Some((r.points, r.rating, a.label.clone())),
        }
        let game = registry
            .replay(&a.journal)
            .map_err(|e| DeriveError::Journal(a.label.clone(), e.to_string()))?;
        let b = game.book();
        if b.id != r.game || b.policy.club.league.as_deref() != Some(league) {
            return Err(bad(format!(
                "names game `{}` of league `{league}`; the journal is game `{}` of {:?}",
                r.game, b.id, b.policy.club.league
            )));
        }
        if !game.is_over() {
            return Err(DeriveError::Journal(a.label.clone(), "not over".into()));
        }
        if !seen.insert(b.id.clone()) {
            return Err(bad(format!("game `{}` given twice", b.id)));
        }
        let results = super::results_of(game.as_ref());
        games.push(LeagueGame {
            id: b.id.clone(),
            ruleset: game.ruleset().to_string(),
            players: r
                .seats
                .iter()
                .map(|s| {
                    let p = Player {
                        address: s.player.clone(),
                        name: s.name.clone(),
                    };
                    (s.seat.clone(), p)
                })
                .collect(),
            sides: b.seats.clone(),
            abandoned: results.is_none(),
            results,
            state: game.outcome().map(|o| o.summary).unwrap_or_default(),
            ended: end_time(&a.journal),
        });
        rosters.push((a.label.clone(), r));
    }
    let (points, rule) = rules.map_or(
        (super::DEFAULT_POINTS, RatingRule::default()),
        |(p, q, _)| (p, q),
    );
    let mut differences = Vec::new();
    for (label, r) in &rosters {
        let derived: Vec<PublishedRow> = after(league, points, &rule, &games, &r.game)
            .rows
            .iter()
            .map(PublishedRow::of)
            .collect();
        differences.extend(compare(label, &r.after, &derived));
    }
    Ok(Derived {
        standings: super::standings(league, points, &rule, &games),
        compared: rosters.len(),
        games,
        differences,
    })
}

fn compare(label: &str, published: &[PublishedRow], derived: &[PublishedRow]) -> Vec<String> {
    let mut out = Vec::new();
    for i in 0..published.len().max(derived.len()) {
        match (published.get(i), derived.get(i)) {
            (Some(p), Some(d)) if p.agrees(d) => {}
            (p, d) => out.push(format!(
                "{label}: row {}: published {}, derived {}",
                i + 1,
                p.map_or("nothing".into(), PublishedRow::line),
                d.map_or("nothing".into(), PublishedRow::line)
            )),
        }
    }
    out
}

impl Derived {
    /// Compares a standings mail (`[league L] Standings after G` and its text) with the table
    /// re-derived after G: its table lines must be exactly the ones `table_text` makes.
    pub fn compare_mail(&mut self, label: &str, subject: &str, text: &str) {
        let s = &self.standings;
        let marker = format!("[league {}] Standings after ", s.league);
        let Some(game) = subject
            .find(&marker)
            .map(|i| subject[i + marker.len()..].trim())
        else {
            self.differences.push(format!(
                "{label}: not a standings mail of league {}",
                s.league
            ));
            return;
        };
        if !self.games.iter().any(|g| g.id == game) {
            self.differences.push(format!(
                "{label}: standings after {game}, whose archive is not given"
            ));
            return;
        }
        let derived = super::table_text(&after(&s.league, s.points, &s.rating, &self.games, game));
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        // The mail's own table: from its header line to the blank line after it.
        let header = |l: &&str| l.trim_start().starts_with("# ") && l.contains(" Player ");
        let mailed: Vec<&str> = match lines.iter().position(header) {
            Some(i) => lines[i..]
                .iter()
                .take_while(|l| !l.is_empty())
                .copied()
                .collect(),
            None => vec![],
        };
        self.compared += 1;
        if mailed != derived.iter().map(String::as_str).collect::<Vec<_>>() {
            self.differences.push(format!(
                "{label}: the mailed table\n{}\nis not the derived one\n{}",
                mailed.join("\n"),
                derived.join("\n")
            ));
        }
    }
}

/// `league.json` for one game: the roster, the rules and the table after the game.
pub fn roster_json(
    league: &str,
    game: &str,
    points: Points,
    rule: &RatingRule,
    seats: Vec<RosterSeat>,
    after: &Standings,
) -> String {
    let r = Roster {
        format: ROSTER_FORMAT.into(),
        league: league.into(),
        game: game.into(),
        points,
        rating: *rule,
        seats,
        after: after.rows.iter().map(PublishedRow::of).collect(),
    };
    serde_json::to_string_pretty(&r).expect("a roster always serialises") + "\n"
}
