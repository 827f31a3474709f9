//! The lobby (issue 31 point 1): games wanting players, opened and joined by mail before they
//! exist. Pure: each act takes the lobby's tables, who acts, what the club allows and the clock
//! as values, and returns the tables as they are to be and what to tell whom. It never reads a
//! ruleset, the disk or the clock: the daemon hands in the scenarios' seats and the ids taken,
//! proves who sent the mail, and starts a game this says is ready. Here: the lobby's tables
//! and acts, the dispatcher of the acts, and the lists; opening a table is in `open.rs`, taking
//! and leaving its seats (and the organiser's approval) in `seats.rs`.

mod open;
mod seats;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Who may open and join games by mail (config.toml `[lobby] open`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// Only the organiser at the shell (`despatch new`).
    None,
    /// The addresses in `lobby.members`, and the organiser.
    #[default]
    Members,
    /// Any address that has proved its mailbox.
    Anyone,
    /// Anyone; each seat taken counts once the organiser approves it.
    Approval,
}

/// A game wanting players.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// The id the game will have (a valid game id, taken by no game and no other table).
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    /// The scenario's own name ("Gunnery School"), for lists.
    pub title: String,
    pub chairs: Vec<Chair>,
    /// Hours per step asked with PACE; the club's policy otherwise.
    pub pace: Option<u32>,
    pub league: Option<String>,
    pub opener: String,
    pub opened: DateTime<Utc>,
    pub expires: DateTime<Utc>,
}

/// One seat of a table, taken or free.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chair {
    pub seat: String,
    /// What the seat is called in the scenario ("Texas-Anglo Alliance"), for lists.
    pub label: String,
    pub taker: Option<Taker>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Taker {
    pub address: String,
    pub name: Option<String>,
    /// Under `Who::Approval`, false until the organiser approves the seat.
    pub approved: bool,
}

/// A scenario that can be opened: the daemon reads these from the games folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    pub ruleset: String,
    pub scenario: String,
    pub title: String,
    /// (seat id, label) in the scenario's seat order.
    pub seats: Vec<(String, String)>,
}

/// What the club allows and what already exists, handed in by the daemon.
#[derive(Debug, Clone)]
pub struct Rules<'a> {
    pub who: Who,
    pub members: &'a [String],
    pub organiser: Option<&'a str>,
    pub expire_hours: u32,
    pub pace_hours: [u32; 2],
    pub open_per_member: u32,
    pub offers: &'a [Offer],
    /// Ids of the games that exist (a table never takes one).
    pub games: &'a [String],
    pub leagues: &'a [String],
}

/// One act of a member, as the mail grammar reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    Games,
    Open {
        ruleset: String,
        scenario: String,
        seat: Option<String>,
        pace: Option<u32>,
        league: Option<String>,
    },
    Join {
        game: String,
        seat: Option<String>,
    },
    Leave {
        game: String,
    },
    Approve {
        game: String,
        seat: Option<String>,
    },
    Refuse {
        game: String,
        seat: Option<String>,
    },
}

/// What an act did: the answer to the one who acted, a note to each other person concerned,
/// and the tables now ready to start (every seat taken and approved).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Done {
    pub answer: String,
    pub notes: Vec<(String, String)>,
    pub ready: Vec<String>,
}

/// Why a lobby act was refused (nothing changed). Its words go into the answer after
/// "Not done: "; lists of names are written as the answer shows them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LobbyRefused {
    #[error(
        "this club starts games at the organiser's desk only; no game can be opened or joined \
         by mail here"
    )]
    DeskOnly,
    #[error(
        "games are opened and joined by the club's members; this address is not on the list \
         (ask the organiser)"
    )]
    NotAMember,
    #[error("there is no ruleset `{ruleset}` here; the rulesets are: {rulesets}")]
    NoRuleset { ruleset: String, rulesets: String },
    #[error("{ruleset} has no scenario `{scenario}`; its scenarios are: {scenarios}")]
    NoScenario {
        ruleset: String,
        scenario: String,
        scenarios: String,
    },
    #[error(
        "you have {0} games waiting for players already, the most one member may have open at \
         once; LEAVE one, or wait until one starts"
    )]
    TooManyOpen(usize),
    #[error("PACE {pace}: this club's games take between {lo} and {hi} hours a step")]
    PaceOutside { pace: u32, lo: u32, hi: u32 },
    #[error(
        "there is no league `{league}` (leagues are made by the organiser); the leagues are: \
         {leagues}"
    )]
    NoLeague { league: String, leagues: String },
    #[error("{scenario} has no seat `{seat}`; its seats are: {seats}")]
    NoSuchSeat {
        scenario: String,
        seat: String,
        seats: String,
    },
    #[error("{ruleset} {scenario} names no seats, so it cannot be opened by mail")]
    NoSeats { ruleset: String, scenario: String },
    #[error("no game `{0}` is waiting for players (GAMES lists them)")]
    NoTable(String),
    #[error("you hold {seat} in {game} already")]
    SeatedAlready { seat: String, game: String },
    #[error("{game} has no seat `{seat}`; its free seats are: {free}")]
    NoSeatAtTable {
        game: String,
        seat: String,
        free: String,
    },
    #[error("{seat} in {game} is taken; its free seats are: {free}")]
    SeatTaken {
        seat: String,
        game: String,
        free: String,
    },
    #[error("every seat of {0} is taken")]
    TableFull(String),
    #[error("you hold no seat in {0}")]
    NotSeated(String),
    #[error("only the organiser approves or refuses seats")]
    OrganiserOnly,
    #[error("nothing in {game} waits for approval{at}")]
    NothingToApprove { game: String, at: String },
    #[error("{game} has no seat `{seat}`")]
    NoSeatToRefuse { game: String, seat: String },
    #[error("{seat} in {game} is free already")]
    FreeAlready { seat: String, game: String },
}

/// Whether `address` may open or join a game at all.
pub fn may_play(rules: &Rules<'_>, address: &str) -> Result<(), LobbyRefused> {
    let organiser = rules
        .organiser
        .is_some_and(|o| o.eq_ignore_ascii_case(address));
    match rules.who {
        Who::None => Err(LobbyRefused::DeskOnly),
        Who::Members
            if !organiser
                && !rules
                    .members
                    .iter()
                    .any(|m| bare(m).eq_ignore_ascii_case(address)) =>
        {
            Err(LobbyRefused::NotAMember)
        }
        _ => Ok(()),
    }
}

/// The address part of `Name <addr>` or `addr`.
fn bare(m: &str) -> &str {
    m.rsplit_once('<')
        .map(|(_, a)| a.trim_end_matches('>').trim())
        .unwrap_or(m.trim())
}

/// Carries out one act of `address` (proved by the daemon) on `tables`. A refusal changes
/// nothing and says why.
pub fn act(
    tables: &mut Vec<Table>,
    rules: &Rules<'_>,
    address: &str,
    name: Option<&str>,
    act: &Act,
    now: DateTime<Utc>,
) -> Result<Done, LobbyRefused> {
    match act {
        Act::Games => Ok(Done {
            answer: games_text(tables, now),
            ..Done::default()
        }),
        Act::Open {
            ruleset,
            scenario,
            seat,
            pace,
            league,
        } => {
            may_play(rules, address)?;
            open::open(
                tables, rules, address, name, ruleset, scenario, seat, *pace, league, now,
            )
        }
        Act::Join { game, seat } => {
            may_play(rules, address)?;
            seats::join(tables, rules, address, name, game, seat.as_deref())
        }
        Act::Leave { game } => seats::leave(tables, address, game),
        Act::Approve { game, seat } => {
            seats::approve(tables, rules, address, game, seat.as_deref())
        }
        Act::Refuse { game, seat } => seats::refuse(tables, rules, address, game, seat.as_deref()),
    }
}

/// Tables whose time has run out, taken out of `tables`, with a note to everyone seated.
pub fn lapse(tables: &mut Vec<Table>, now: DateTime<Utc>) -> Vec<(String, String)> {
    let mut notes = vec![];
    for t in tables.iter().filter(|t| t.expires <= now) {
        for c in &t.chairs {
            if let Some(tk) = &c.taker {
                notes.push((
                    tk.address.clone(),
                    format!(
                        "{} ({} {}) lapsed at {} UTC: {} of its seats were still free.\n\
                         Nothing was played. OPEN it again at any time.\n",
                        t.id,
                        t.ruleset,
                        t.scenario,
                        t.expires.format("%Y-%m-%d %H:%M"),
                        t.chairs.iter().filter(|c| c.taker.is_none()).count()
                    ),
                ));
            }
        }
    }
    tables.retain(|t| t.expires > now);
    notes
}

/// Whether every seat is taken and approved.
pub fn is_ready(t: &Table) -> bool {
    t.chairs
        .iter()
        .all(|c| c.taker.as_ref().is_some_and(|tk| tk.approved))
}

/// The games wanting players, for `GAMES`.
pub fn games_text(tables: &[Table], now: DateTime<Utc>) -> String {
    let open: Vec<&Table> = tables.iter().filter(|t| t.expires > now).collect();
    if open.is_empty() {
        return "No game is waiting for players. Open one with\n\n    \
                OPEN <ruleset> <scenario> [AS <seat>] [PACE <hours>] [LEAGUE <name>]\n"
            .into();
    }
    let mut s = format!("Games waiting for players: {}\n", open.len());
    for t in open {
        s.push('\n');
        s.push_str(&table_text(t));
    }
    s.push_str("\nJoin one by mailing this address the line  JOIN <game> [AS <seat>]\n");
    s
}

/// One table as lists show it (never an address: names only).
pub fn table_text(t: &Table) -> String {
    let mut s = format!("{}: {} ({} {})\n", t.id, t.title, t.ruleset, t.scenario);
    let pace = t
        .pace
        .map(|h| format!("{h} h a step"))
        .unwrap_or_else(|| "the club's usual".into());
    s.push_str(&format!("  pace: {pace}"));
    if let Some(l) = &t.league {
        s.push_str(&format!("; league {l}"));
    }
    s.push_str(&format!(
        "; lapses {} UTC\n",
        t.expires.format("%Y-%m-%d %H:%M")
    ));
    for c in &t.chairs {
        let who = match &c.taker {
            None => "free".to_string(),
            Some(tk) => {
                let n = tk.name.clone().unwrap_or_else(|| "a member".into());
                if tk.approved {
                    n
                } else {
                    format!("{n} (awaiting approval)")
                }
            }
        };
        let row = format!("  {:<14} {}: {who}", c.seat, c.label);
        // Within 72 columns: a long side name and a long player's name share no line.
        if row.chars().count() > 72 {
            s.push_str(&format!("  {:<14} {}:\n      {who}\n", c.seat, c.label));
        } else {
            s.push_str(&row);
            s.push('\n');
        }
    }
    s
}

pub(super) fn ready_check(tables: &[Table], game: &str, done: &mut Done) {
    if tables.iter().any(|t| t.id == game && is_ready(t)) {
        done.ready.push(game.to_string());
    }
}

pub(super) fn needs_approval(rules: &Rules<'_>, address: &str) -> bool {
    rules.who == Who::Approval
        && !rules
            .organiser
            .is_some_and(|o| o.eq_ignore_ascii_case(address))
}

pub(super) fn ask_organiser(
    rules: &Rules<'_>,
    t: &Table,
    seat: &str,
    address: &str,
    done: &mut Done,
) {
    if let Some(o) = rules.organiser {
        done.notes.push((
            o.to_string(),
            format!(
                "{address} asks to take {seat} in {}.\nReply with one of\n\n    \
                 APPROVE {} {seat}\n    REFUSE {} {seat}\n\n{}",
                t.id,
                t.id,
                t.id,
                table_text(t)
            ),
        ));
    }
}

pub(super) fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// A table's `scenario` that names a campaign the ruleset ships (`OPEN <ruleset> CAMPAIGN
/// <plan>`): the full table starts the campaign, named as the table, instead of one game.
pub const CAMPAIGN_PREFIX: &str = "campaign:";

/// What a scenario offers the lobby, read from its TOML: its `name`, and its seats — the
/// `[[seat]]` tables (id, name) where it has them, else its `[[sides]]` / `[[side]]` (id,
/// name). None when it names no seat (such a scenario is opened at the shell only).
pub fn offer_from_toml(ruleset: &str, scenario: &str, text: &str) -> Option<Offer> {
    let v: toml::Table = toml::from_str(text).ok()?;
    let list = ["seat", "sides", "side"].iter().find_map(|k| {
        v.get(*k)
            .and_then(|x| x.as_array())
            .filter(|a| !a.is_empty())
    })?;
    let seats: Vec<(String, String)> = list
        .iter()
        .map(|e| {
            let id = e.get("id")?.as_str()?.to_string();
            let name = e
                .get("name")
                .and_then(|n| n.as_str())
                .unwrap_or(&id)
                .to_string();
            crate::engine::valid_seat_id(&id).then_some((id, name))
        })
        .collect::<Option<_>>()?;
    Some(Offer {
        ruleset: ruleset.to_string(),
        scenario: scenario.to_string(),
        title: v
            .get("name")
            .and_then(|n| n.as_str())
            .unwrap_or(scenario)
            .to_string(),
        seats,
    })
}

#[cfg(test)]
mod tests;
