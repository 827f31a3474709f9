//! Opening a table (`OPEN <ruleset> <scenario> [AS <seat>] [PACE <hours>] [LEAGUE <name>]`):
//! the scenario must be offered, the member within the club's limits (games open at once, the
//! pace, the leagues), the seat one of the scenario's; the table gets a fresh id and its
//! opener the seat. Pure, as the whole lobby is.

use chrono::{DateTime, Duration, Utc};

use super::{
    CAMPAIGN_PREFIX, Chair, Done, LobbyRefused, Offer, Rules, Table, Taker, ask_organiser,
    list_or_none, needs_approval, ready_check, table_text,
};

#[allow(clippy::too_many_arguments)]
pub(super) fn open(
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
) -> Result<Done, LobbyRefused> {
    let offer = offered(rules, ruleset, scenario)?;
    within_limits(tables, rules, address, pace, league)?;
    let chosen = opener_seat(offer, seat)?;
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

/// The scenario `OPEN` names, among those offered; or the rulesets, or the ruleset's
/// scenarios, there are.
fn offered<'r>(
    rules: &Rules<'r>,
    ruleset: &str,
    scenario: &str,
) -> Result<&'r Offer, LobbyRefused> {
    if let Some(offer) = rules
        .offers
        .iter()
        .find(|o| o.ruleset == ruleset && o.scenario == scenario)
    {
        return Ok(offer);
    }
    let here: Vec<String> = rules
        .offers
        .iter()
        .filter(|o| o.ruleset == ruleset)
        .map(|o| o.scenario.clone())
        .collect();
    Err(if here.is_empty() {
        let mut names: Vec<&str> = rules.offers.iter().map(|o| o.ruleset.as_str()).collect();
        names.dedup();
        LobbyRefused::NoRuleset {
            ruleset: ruleset.to_string(),
            rulesets: names.join(", "),
        }
    } else {
        LobbyRefused::NoScenario {
            ruleset: ruleset.to_string(),
            scenario: scenario.to_string(),
            scenarios: here.join(", "),
        }
    })
}

/// The club's limits on opening: games one member has waiting at once, the pace a step may
/// have, and the leagues the organiser made.
fn within_limits(
    tables: &[Table],
    rules: &Rules<'_>,
    address: &str,
    pace: Option<u32>,
    league: &Option<String>,
) -> Result<(), LobbyRefused> {
    let mine = tables.iter().filter(|t| t.opener == address).count();
    if mine >= rules.open_per_member as usize {
        return Err(LobbyRefused::TooManyOpen(mine));
    }
    let [lo, hi] = rules.pace_hours;
    if let Some(p) = pace
        && !(lo..=hi).contains(&p)
    {
        return Err(LobbyRefused::PaceOutside { pace: p, lo, hi });
    }
    if let Some(l) = league
        && !rules.leagues.iter().any(|x| x == l)
    {
        return Err(LobbyRefused::NoLeague {
            league: l.clone(),
            leagues: list_or_none(rules.leagues),
        });
    }
    Ok(())
}

/// The seat the opener takes: the one asked with `AS`, or the scenario's first.
fn opener_seat(offer: &Offer, seat: &Option<String>) -> Result<String, LobbyRefused> {
    let (ruleset, scenario) = (&offer.ruleset, &offer.scenario);
    match seat {
        Some(s) => {
            if !offer.seats.iter().any(|(id, _)| id == s) {
                return Err(LobbyRefused::NoSuchSeat {
                    scenario: scenario.clone(),
                    seat: s.clone(),
                    seats: seat_names(offer),
                });
            }
            Ok(s.clone())
        }
        None => offer
            .seats
            .first()
            .map(|(s, _)| s.clone())
            .ok_or_else(|| LobbyRefused::NoSeats {
                ruleset: ruleset.clone(),
                scenario: scenario.clone(),
            }),
    }
}

fn seat_names(o: &Offer) -> String {
    o.seats
        .iter()
        .map(|(s, _)| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `<scenario>-<n>` with the smallest n that no game and no table has; the scenario is cut so
/// the id stays within 40 characters.
pub(super) fn fresh_id(scenario: &str, tables: &[Table], games: &[String]) -> String {
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
