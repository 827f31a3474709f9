//! The lobby (issue 31 point 1): games wanting players, opened and joined by mail before they
//! exist. Pure: each act takes the lobby's tables, who acts, what the club allows and the clock
//! as values, and returns the tables as they are to be and what to tell whom. It never reads a
//! ruleset, the disk or the clock: the daemon hands in the scenarios' seats and the ids taken,
//! proves who sent the mail, and starts a game this says is ready.

use chrono::{DateTime, Duration, Utc};
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

/// Whether `address` may open or join a game at all.
pub fn may_play(rules: &Rules<'_>, address: &str) -> Result<(), String> {
    let organiser = rules
        .organiser
        .is_some_and(|o| o.eq_ignore_ascii_case(address));
    match rules.who {
        Who::None => Err(
            "this club starts games at the organiser's desk only; no game can \
                          be opened or joined by mail here"
                .into(),
        ),
        Who::Members
            if !organiser
                && !rules
                    .members
                    .iter()
                    .any(|m| bare(m).eq_ignore_ascii_case(address)) =>
        {
            Err(
                "games are opened and joined by the club's members; this address is not \
                 on the list (ask the organiser)"
                    .into(),
            )
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
) -> Result<Done, String> {
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
            open(
                tables, rules, address, name, ruleset, scenario, seat, *pace, league, now,
            )
        }
        Act::Join { game, seat } => {
            may_play(rules, address)?;
            join(tables, rules, address, name, game, seat.as_deref())
        }
        Act::Leave { game } => leave(tables, address, game),
        Act::Approve { game, seat } => approve(tables, rules, address, game, seat.as_deref()),
        Act::Refuse { game, seat } => refuse(tables, rules, address, game, seat.as_deref()),
    }
}

#[allow(clippy::too_many_arguments)]
fn open(
    tables: &mut Vec<Table>,
    rules: &Rules<'_>,
    address: &str,
    name: Option<&str>,
    ruleset: &str,
    scenario: &str,
    seat: &Option<String>,
    pace: Option<u32>,
    league: &Option<String>,
    now: DateTime<Utc>,
) -> Result<Done, String> {
    let Some(offer) = rules
        .offers
        .iter()
        .find(|o| o.ruleset == ruleset && o.scenario == scenario)
    else {
        let here: Vec<String> = rules
            .offers
            .iter()
            .filter(|o| o.ruleset == ruleset)
            .map(|o| o.scenario.clone())
            .collect();
        return Err(if here.is_empty() {
            let mut names: Vec<&str> = rules.offers.iter().map(|o| o.ruleset.as_str()).collect();
            names.dedup();
            format!(
                "there is no ruleset `{ruleset}` here; the rulesets are: {}",
                names.join(", ")
            )
        } else {
            format!(
                "{ruleset} has no scenario `{scenario}`; its scenarios are: {}",
                here.join(", ")
            )
        });
    };
    let mine = tables.iter().filter(|t| t.opener == address).count();
    if mine >= rules.open_per_member as usize {
        return Err(format!(
            "you have {mine} games waiting for players already, the most one member may \
             have open at once; LEAVE one, or wait until one starts"
        ));
    }
    let [lo, hi] = rules.pace_hours;
    if let Some(p) = pace
        && !(lo..=hi).contains(&p)
    {
        return Err(format!(
            "PACE {p}: this club's games take between {lo} and {hi} hours a step"
        ));
    }
    if let Some(l) = league
        && !rules.leagues.iter().any(|x| x == l)
    {
        return Err(format!(
            "there is no league `{l}` (leagues are made by the organiser); the leagues are: {}",
            list_or_none(rules.leagues)
        ));
    }
    let chosen = match seat {
        Some(s) => {
            if !offer.seats.iter().any(|(id, _)| id == s) {
                return Err(format!(
                    "{scenario} has no seat `{s}`; its seats are: {}",
                    seat_names(offer)
                ));
            }
            s.clone()
        }
        None => offer.seats.first().map(|(s, _)| s.clone()).ok_or_else(|| {
            format!("{ruleset} {scenario} names no seats, so it cannot be opened by mail")
        })?,
    };
    let id = fresh_id(scenario, tables, rules.games);
    let approved = !needs_approval(rules, address);
    let chairs = offer
        .seats
        .iter()
        .map(|(s, label)| Chair {
            seat: s.clone(),
            label: label.clone(),
            taker: (*s == chosen).then(|| Taker {
                address: address.to_string(),
                name: name.map(str::to_string),
                approved,
            }),
        })
        .collect();
    let table = Table {
        id: id.clone(),
        ruleset: ruleset.to_string(),
        scenario: scenario.to_string(),
        title: offer.title.clone(),
        chairs,
        pace,
        league: league.clone(),
        opener: address.to_string(),
        opened: now,
        expires: now + Duration::hours(rules.expire_hours as i64),
    };
    let mut done = Done {
        answer: format!(
            "Game {id} is open: {} ({ruleset} {scenario}), you take {chosen}.\n\
             It starts when every seat is taken, and lapses at {} UTC if not.\n\
             Others join it by mailing this address the line\n\n    JOIN {id}\n\n{}",
            offer.title,
            table.expires.format("%Y-%m-%d %H:%M"),
            table_text(&table)
        ),
        ..Done::default()
    };
    if !approved {
        done.answer
            .push_str("\nYour seat counts once the organiser approves it; you will be told.\n");
        ask_organiser(rules, &table, &chosen, address, &mut done);
    }
    tables.push(table);
    ready_check(tables, &id, &mut done);
    Ok(done)
}

fn join(
    tables: &mut [Table],
    rules: &Rules<'_>,
    address: &str,
    name: Option<&str>,
    game: &str,
    seat: Option<&str>,
) -> Result<Done, String> {
    let t = find(tables, game)?;
    if let Some(c) = t.chairs.iter().find(|c| taker_is(c, address)) {
        return Err(format!("you hold {} in {game} already", c.seat));
    }
    let i = match seat {
        Some(s) => {
            let i = t.chairs.iter().position(|c| c.seat == s).ok_or_else(|| {
                format!("{game} has no seat `{s}`; its free seats are: {}", free(t))
            })?;
            if t.chairs[i].taker.is_some() {
                return Err(format!(
                    "{s} in {game} is taken; its free seats are: {}",
                    free(t)
                ));
            }
            i
        }
        None => t
            .chairs
            .iter()
            .position(|c| c.taker.is_none())
            .ok_or_else(|| format!("every seat of {game} is taken"))?,
    };
    let approved = !needs_approval(rules, address);
    t.chairs[i].taker = Some(Taker {
        address: address.to_string(),
        name: name.map(str::to_string),
        approved,
    });
    let seat = t.chairs[i].seat.clone();
    let who = name.unwrap_or(address);
    let mut done = Done {
        answer: format!("You take {seat} in {game}.\n\n{}", table_text(t)),
        ..Done::default()
    };
    for other in others(t, address) {
        done.notes.push((
            other,
            format!("{who} took {seat} in {game}.\n\n{}", table_text(t)),
        ));
    }
    if !approved {
        done.answer
            .push_str("\nYour seat counts once the organiser approves it; you will be told.\n");
        let t = t.clone();
        ask_organiser(rules, &t, &seat, address, &mut done);
    }
    ready_check(tables, game, &mut done);
    Ok(done)
}

fn leave(tables: &mut Vec<Table>, address: &str, game: &str) -> Result<Done, String> {
    let t = find(tables, game)?;
    let Some(c) = t.chairs.iter_mut().find(|c| taker_is(c, address)) else {
        return Err(format!("you hold no seat in {game}"));
    };
    c.taker = None;
    let seat = c.seat.clone();
    let mut done = Done::default();
    if t.chairs.iter().all(|c| c.taker.is_none()) {
        done.answer = format!("You left {game}; no one else was seated, so it is closed.\n");
        tables.retain(|t| t.id != game);
        return Ok(done);
    }
    done.answer = format!("You left {seat} in {game}.\n");
    for other in others(t, address) {
        done.notes.push((
            other,
            format!("{seat} in {game} is free again.\n\n{}", table_text(t)),
        ));
    }
    Ok(done)
}

fn approve(
    tables: &mut [Table],
    rules: &Rules<'_>,
    address: &str,
    game: &str,
    seat: Option<&str>,
) -> Result<Done, String> {
    organiser_only(rules, address)?;
    let t = find(tables, game)?;
    let mut done = Done::default();
    let mut approved = vec![];
    for c in t.chairs.iter_mut() {
        if seat.is_some_and(|s| s != c.seat) {
            continue;
        }
        if let Some(tk) = c.taker.as_mut().filter(|tk| !tk.approved) {
            tk.approved = true;
            approved.push(c.seat.clone());
            done.notes.push((
                tk.address.clone(),
                format!("The organiser approved your seat {} in {game}.\n", c.seat),
            ));
        }
    }
    if approved.is_empty() {
        return Err(format!(
            "nothing in {game} waits for approval{}",
            seat.map(|s| format!(" at {s}")).unwrap_or_default()
        ));
    }
    done.answer = format!(
        "Approved in {game}: {}.\n\n{}",
        approved.join(", "),
        table_text(t)
    );
    ready_check(tables, game, &mut done);
    Ok(done)
}

fn refuse(
    tables: &mut Vec<Table>,
    rules: &Rules<'_>,
    address: &str,
    game: &str,
    seat: Option<&str>,
) -> Result<Done, String> {
    organiser_only(rules, address)?;
    let t = find(tables, game)?;
    let mut done = Done::default();
    match seat {
        None => {
            for c in &t.chairs {
                if let Some(tk) = &c.taker {
                    done.notes.push((
                        tk.address.clone(),
                        format!("The organiser closed {game} before it started.\n"),
                    ));
                }
            }
            tables.retain(|t| t.id != game);
            done.answer = format!("{game} is closed; everyone seated is told.\n");
        }
        Some(s) => {
            let c = t
                .chairs
                .iter_mut()
                .find(|c| c.seat == s)
                .ok_or_else(|| format!("{game} has no seat `{s}`"))?;
            let tk = c
                .taker
                .take()
                .ok_or_else(|| format!("{s} in {game} is free already"))?;
            done.notes.push((
                tk.address,
                format!("The organiser did not approve your seat {s} in {game}.\n"),
            ));
            done.answer = format!("{s} in {game} is free again; its player is told.\n");
            if t.chairs.iter().all(|c| c.taker.is_none()) {
                tables.retain(|t| t.id != game);
                done.answer
                    .push_str("No one else was seated, so the game is closed.\n");
            }
        }
    }
    Ok(done)
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

fn ready_check(tables: &[Table], game: &str, done: &mut Done) {
    if tables.iter().any(|t| t.id == game && is_ready(t)) {
        done.ready.push(game.to_string());
    }
}

fn needs_approval(rules: &Rules<'_>, address: &str) -> bool {
    rules.who == Who::Approval
        && !rules
            .organiser
            .is_some_and(|o| o.eq_ignore_ascii_case(address))
}

fn ask_organiser(rules: &Rules<'_>, t: &Table, seat: &str, address: &str, done: &mut Done) {
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

fn organiser_only(rules: &Rules<'_>, address: &str) -> Result<(), String> {
    if rules
        .organiser
        .is_some_and(|o| o.eq_ignore_ascii_case(address))
    {
        Ok(())
    } else {
        Err("only the organiser approves or refuses seats".into())
    }
}

fn find<'t>(tables: &'t mut [Table], game: &str) -> Result<&'t mut Table, String> {
    tables
        .iter_mut()
        .find(|t| t.id == game)
        .ok_or_else(|| format!("no game `{game}` is waiting for players (GAMES lists them)"))
}

fn taker_is(c: &Chair, address: &str) -> bool {
    c.taker
        .as_ref()
        .is_some_and(|tk| tk.address.eq_ignore_ascii_case(address))
}

fn others(t: &Table, address: &str) -> Vec<String> {
    t.chairs
        .iter()
        .filter_map(|c| c.taker.as_ref())
        .filter(|tk| !tk.address.eq_ignore_ascii_case(address))
        .map(|tk| tk.address.clone())
        .collect()
}

fn free(t: &Table) -> String {
    let f: Vec<String> = t
        .chairs
        .iter()
        .filter(|c| c.taker.is_none())
        .map(|c| c.seat.clone())
        .collect();
    list_or_none(&f)
}

fn seat_names(o: &Offer) -> String {
    o.seats
        .iter()
        .map(|(s, _)| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn list_or_none(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// A table's `scenario` that names a campaign the ruleset ships (`OPEN <ruleset> CAMPAIGN
/// <plan>`): the full table starts the campaign, named as the table, instead of one game.
pub const CAMPAIGN_PREFIX: &str = "campaign:";

/// `<scenario>-<n>` with the smallest n that no game and no table has; the scenario is cut so
/// the id stays within 40 characters.
fn fresh_id(scenario: &str, tables: &[Table], games: &[String]) -> String {
    let mut base: String = scenario
        .strip_prefix(CAMPAIGN_PREFIX)
        .unwrap_or(scenario)
        .chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
        .take(32)
        .collect();
    if !base.starts_with(|c: char| c.is_ascii_lowercase()) {
        base.insert(0, 'g');
    }
    let base = base.trim_end_matches('-');
    (1..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !tables.iter().any(|t| &t.id == id) && !games.contains(id))
        .expect("an unused number exists")
}

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
#[path = "lobby_tests.rs"]
mod tests;
