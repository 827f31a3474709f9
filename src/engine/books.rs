//! What the journal establishes besides the ruleset's state and the onion: the club's record
//! (absences, concessions, resignations, an agreed draw, the organiser's abandonment and
//! pause) and the strict dice record (anchors, reveals, openings). Plain data the `Book`
//! holds, with the readings of it that need no game. The decisions that make and apply these
//! records are in seat_acts, concede, abandon, pause, strict and strict_bound; this file must
//! name none of them, nor the game: the book is built from it, so it stays a leaf.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::dice::{Hash, hex32};

use super::ruleset::{Outcome, SeatId};

// ---- the club's record (engine/seat_acts.rs, concede.rs, abandon.rs, pause.rs) ----

/// One declared absence still standing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    pub seat: SeatId,
    pub first_day: NaiveDate,
    pub last_day: NaiveDate,
    pub from: DateTime<Utc>,
    pub until: DateTime<Utc>,
}

impl Absence {
    /// Days of this absence that fall in calendar year `year` (of the seat's own dates).
    pub(super) fn days_in(&self, year: i32) -> i64 {
        days_in(self.first_day, self.last_day, year)
    }
}

/// Days from `first` to `last` (both counted) that fall in calendar year `year`.
pub(super) fn days_in(first: NaiveDate, last: NaiveDate, year: i32) -> i64 {
    let (Some(jan1), Some(dec31)) = (
        NaiveDate::from_ymd_opt(year, 1, 1),
        NaiveDate::from_ymd_opt(year, 12, 31),
    ) else {
        return 0;
    };
    let (a, b) = (first.max(jan1), last.min(dec31));
    if b < a { 0 } else { (b - a).num_days() + 1 }
}

/// A side's concession, made by one of its seats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Concession {
    pub seat: SeatId,
    pub side: String,
}

/// What the journal's club events establish. Empty (and left out of snapshots) in every game
/// that never used them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClubBook {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub absences: Vec<Absence>,
    /// The open step's deadline as it would be without absences: the step's own length, or
    /// the organiser's last change. `None` in books from before absences existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmoved_deadline: Option<DateTime<Utc>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conceded: Vec<Concession>,
    /// Seats whose player resigned and that wait for a new one (standing orders answer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resigned: Vec<SeatId>,
    /// The seats that agreed a draw (non-empty once agreed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drawn: Vec<SeatId>,
    /// The organiser abandoned the game (engine/abandon.rs): over, with no result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned: Option<Abandonment>,
    /// The organiser stopped the clock (engine/pause.rs) and has not started it again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<Pause>,
}

impl ClubBook {
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    pub(crate) fn draw_outcome(&self) -> Option<Outcome> {
        (!self.drawn.is_empty()).then(|| Outcome {
            winners: Vec::new(),
            summary: format!(
                "Drawn by agreement of every seat still playing ({}).",
                self.drawn.join(", ")
            ),
        })
    }

    /// Days of absence `seat` may still declare in `year` under a limit of `limit` a year.
    pub fn days_left(&self, seat: &str, year: i32, limit: u32) -> i64 {
        let used: i64 = self.absences_of(seat).map(|a| a.days_in(year)).sum();
        (limit as i64 - used).max(0)
    }

    /// The seat's absences, oldest first.
    pub fn absences_of<'a>(&'a self, seat: &'a str) -> impl Iterator<Item = &'a Absence> + 'a {
        self.absences.iter().filter(move |a| a.seat == seat)
    }

    /// `d` moved past every absence of `seats` it falls inside or less than `len` after
    /// (ruling A2): the returning player always has one whole step. One pass over the
    /// absences sorted by start, since `d` only moves forward.
    pub(super) fn past_absences(
        &self,
        d: DateTime<Utc>,
        len: Duration,
        seats: &[SeatId],
    ) -> DateTime<Utc> {
        let mut list: Vec<&Absence> = self
            .absences
            .iter()
            .filter(|a| seats.contains(&a.seat))
            .collect();
        list.sort_by_key(|a| a.from);
        let mut d = d;
        for a in list {
            if a.from > d {
                break;
            }
            let back = a.until.checked_add_signed(len).unwrap_or(a.until);
            if d < back {
                d = back;
            }
        }
        d
    }
}

/// The organiser's abandonment, as the journal established it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Abandonment {
    /// The step the game stood at: never resolved.
    pub step: u64,
    pub reason: String,
    /// The step's title when it was abandoned (the state never moves on from it).
    pub title: String,
    /// Whether the step had been locked (its orders sealed in a lock, waiting for dice).
    pub locked: bool,
}

impl Abandonment {
    /// The outcome every mail, the league and the archive show: nobody wins, and it is no draw.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            winners: Vec::new(),
            summary: format!(
                "Abandoned by the organiser at step {} ({}). Reason: {}. No \
                 result: nobody wins and it is not a draw. Step {} was never resolved: {} \
                 and no dice were rolled for it.",
                self.step,
                self.title,
                self.reason.trim_end_matches('.'),
                self.step,
                if self.locked {
                    "its locked orders were not carried out"
                } else {
                    "the orders sent for it were not carried out"
                },
            ),
        }
    }

    /// One line for a league's list of games.
    pub fn listed(&self) -> String {
        format!(
            "abandoned by the organiser at step {}: {} (no result)",
            self.step, self.reason
        )
    }
}

/// A pause as the journal established it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pause {
    pub step: u64,
    pub at: DateTime<Utc>,
    pub reason: String,
    /// Seconds that were left before the step's deadline at the pause (negative once it had
    /// passed, its grace running); `None` for a step with no deadline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_secs: Option<i64>,
}

impl Pause {
    /// The time that was left at the pause.
    pub fn left(&self) -> Option<Duration> {
        self.left_secs.map(Duration::seconds)
    }
}

// ---- strict dice (engine/strict, strict_bound.rs) ----

/// One strict seat's commitment and the newest element of its onion checked so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrictSeat {
    pub seat: SeatId,
    #[serde(with = "hex32")]
    pub anchor: Hash,
    pub len: u64,
    /// `r_seat_j` of the latest step `j` the seat revealed (the anchor, with `j` = 0, before).
    #[serde(with = "hex32")]
    pub last: Hash,
    pub last_step: u64,
    /// How many reveals the seat has given (its next one is number `revealed + 1`).
    #[serde(default)]
    pub revealed: u64,
    /// Bound games (S11): every reveal the journal took from the seat, for its opening.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub given: Vec<GivenReveal>,
    /// Bound games: the seat's opening, once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opened: Option<Opened>,
}

/// What the journal establishes about strict dice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrictBook {
    /// In the game's seat order: the order `S_k` lists them in.
    pub seats: Vec<StrictSeat>,
    pub reveal_hours: u32,
    /// When the open step locked (its reveal deadline counts from here).
    pub locked_at: Option<DateTime<Utc>>,
    /// Whether the locked step rolls any die: only then are reveals asked for (ruling S1).
    pub needs_dice: bool,
    /// Reveals accepted for the locked step.
    #[serde(with = "reveals")]
    pub reveals: BTreeMap<SeatId, Hash>,
    /// Strict seats recorded as silent at the reveal deadline for the locked step.
    pub missed: Vec<SeatId>,
    /// Every split lock a seat has proved: (step, seat).
    pub splits: Vec<(u64, SeatId)>,
    /// Onions indexed by reveal count (`onion_index = "reveal"`); false in older games, whose
    /// step `k` used `c_{N-k}` and whose missing reveals resolved with an empty `r`.
    #[serde(default)]
    pub by_reveal: bool,
    /// Strict seats told to every seat as overdue at the reveal deadline of the locked step.
    #[serde(default)]
    pub overdue: Vec<SeatId>,
    /// Reveals bound to their lock (`onion_index = "bound"`, ruling S11): a reveal cannot be
    /// checked against the seat's anchor until the seat opens its onion at the game's end.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bound: bool,
}

mod reveals {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};

    use crate::dice::{Hash, from_hex, to_hex};

    pub fn serialize<S: Serializer>(m: &BTreeMap<String, Hash>, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(m.iter().map(|(k, v)| (k, to_hex(v))))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, Hash>, D::Error> {
        let m = BTreeMap::<String, String>::deserialize(d)?;
        m.into_iter()
            .map(|(k, v)| {
                from_hex(&v)
                    .map(|h| (k, h))
                    .ok_or_else(|| serde::de::Error::custom("not 32 bytes of hex"))
            })
            .collect()
    }
}

impl StrictBook {
    pub fn seat(&self, seat: &str) -> Option<&StrictSeat> {
        self.seats.iter().find(|s| s.seat == seat)
    }

    /// The onion index `seat`'s reveal for `step` uses: its reveal count plus one, or the step
    /// in a game indexed by step.
    pub fn next_index(&self, seat: &str, step: u64) -> Option<u64> {
        let s = self.seat(seat)?;
        Some(if self.by_reveal { s.revealed + 1 } else { step })
    }
}

/// One reveal the journal took from a seat of a bound game: what its opening is checked against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GivenReveal {
    /// `j`: the seat's reveal number.
    pub index: u64,
    pub step: u64,
    #[serde(with = "hex32")]
    pub lock: Hash,
    #[serde(with = "hex32")]
    pub reveal: Hash,
}

/// A seat's opening: through which reveal, and which of its reveals do not bind to it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Opened {
    pub through: u64,
    /// `e_J`, the element the seat opened.
    #[serde(with = "hex32")]
    pub element: Hash,
    /// Reveal numbers whose value is not `bound_reveal(e_j, L_k)` for the opened onion: the
    /// seat sent something else, or the journal holds what the seat never sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unbound: Vec<u64>,
}
