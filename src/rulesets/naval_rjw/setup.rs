//! The opening state from ruleset and scenario data, and the Setup step's resolution
//! (nominations, pre-game minefields, the scouting roll R21, the first CP roll).
//! It checks data, never player text (orders.rs does that).

use std::collections::{BTreeMap, BTreeSet};

use crate::board::tabletop::{Hull, Pt};
use crate::dice::{Dice, Faces};
use crate::engine::procedure::Next;
use crate::engine::{LogLine, SetupRefused, Submitted};
use crate::rulesets::kit::roster::TwoSides;

use crate::rulesets::kit::grammar::normalise;

use super::command;
use super::data::{RulesetData, Scenario, ScenarioSide, TomlData};
use super::state::{Fate, Fleet, Group, Minefield, NavalState, Order, Orders, Phase, Ship};

/// Builds the opening state. `seats` must be the scenario's side ids in scenario order.
pub fn new_state(
    ruleset_toml: &str,
    scenario_toml: &str,
    seats: &[String],
) -> Result<NavalState, SetupRefused> {
    let data = RulesetData::from_toml(ruleset_toml)?;
    let sc = Scenario::from_toml(scenario_toml)?;
    let ids = check_scenario(&data, &sc, seats)?;
    let mut names = BTreeSet::new();
    let mut fleets = Vec::new();
    let mut ships = Vec::new();
    let mut groups = Vec::new();
    for side in &sc.sides {
        ships.extend(side_ships(&data, &sc, side, &mut names)?);
        check_command(side)?;
        groups.extend(side_groups(side)?);
        fleets.push(side_fleet(&data, side));
    }
    let minefields = scenario_minefields(&sc, &ids)?;
    Ok(NavalState {
        data,
        scenario_name: sc.name.clone(),
        scenario_date: sc.date.clone(),
        width: sc.width,
        height: sc.height,
        max_turns: sc.max_turns,
        limited_ammunition: sc.limited_ammunition,
        high_sea_state: sc.high_sea_state,
        seat_order: ids,
        fleets,
        ships,
        groups,
        minefields,
        phase: Phase::Setup,
        turn: 1,
        // Empty until the set-up step: the scouting roll decides (R21).
        active: sc.first.clone().unwrap_or_default(),
        cp_rolled: 0,
        cp_left: 0,
        pending_fire: None,
        log: vec![LogLine::public(format!(
            "{} — {}. {}",
            sc.name, sc.date, sc.description
        ))],
        outcome: None,
    })
}

/// The scenario as a whole against the seats and the ruleset: two sides seated in order, a
/// table, turns, a first side that is a side, every class of ship described. Returns the side ids.
fn check_scenario(
    data: &RulesetData,
    sc: &Scenario,
    seats: &[String],
) -> Result<Vec<String>, SetupRefused> {
    let ids: Vec<String> = sc.sides.iter().map(|s| s.id.clone()).collect();
    if sc.sides.len() != 2 {
        return Err(SetupRefused::Scenario(format!(
            "scenario: a naval game has two sides, found {}",
            sc.sides.len()
        )));
    }
    if seats != ids.as_slice() {
        return Err(SetupRefused::Seats(format!(
            "seats must be the scenario's sides in order: expected [{}], got [{}]",
            ids.join(", "),
            seats.join(", ")
        )));
    }
    if !(sc.width > 0.0 && sc.height > 0.0) {
        return Err(SetupRefused::Scenario(
            "scenario: the table must have a positive width and height".into(),
        ));
    }
    if sc.max_turns == 0 {
        return Err(SetupRefused::Scenario(
            "scenario: max_turns must be at least 1".into(),
        ));
    }
    if let Some(first) = &sc.first
        && !ids.contains(first)
    {
        return Err(SetupRefused::Scenario(format!(
            "scenario: first = \"{first}\" is not a side"
        )));
    }
    for class in [
        super::data::ShipClass::DD,
        super::data::ShipClass::CL,
        super::data::ShipClass::CA,
        super::data::ShipClass::BB,
    ] {
        if !data.classes.contains_key(&class) {
            return Err(SetupRefused::RulesetData(format!(
                "ruleset.toml: classes.{} is missing",
                class.abbr()
            )));
        }
    }
    Ok(ids)
}

/// One side's ships as the scenario places them, afloat; each name new in the game (`names`
/// holds the names taken so far) and each ship on the table.
fn side_ships(
    data: &RulesetData,
    sc: &Scenario,
    side: &ScenarioSide,
    names: &mut BTreeSet<String>,
) -> Result<Vec<Ship>, SetupRefused> {
    let mut ships = Vec::new();
    for s in &side.ships {
        if s.name.trim().is_empty() {
            return Err(SetupRefused::Scenario(format!(
                "scenario: a ship of {} has no name",
                side.id
            )));
        }
        if !names.insert(normalise(&s.name)) {
            return Err(SetupRefused::Scenario(format!(
                "scenario: ship name `{}` is used twice",
                s.name
            )));
        }
        if !(0.0..=sc.width).contains(&s.x) || !(0.0..=sc.height).contains(&s.y) {
            return Err(SetupRefused::Scenario(format!(
                "scenario: {} starts off the table",
                s.name
            )));
        }
        ships.push(Ship {
            name: s.name.clone(),
            side: side.id.clone(),
            class: s.class,
            hull: Hull {
                centre: Pt { x: s.x, y: s.y },
                heading: s.heading.rem_euclid(360.0),
                length: data.classes[&s.class].hull_length.get(),
            },
            obsolete: s.obsolete,
            minelayer: s.minelayer,
            minesweeper: s.minesweeper,
            foul_bottom: s.foul_bottom,
            note: s.note.clone(),
            fate: Fate::Afloat,
            hit_markers: s.hit_markers,
            critical_marker: false,
            criticals: s
                .criticals
                .iter()
                .map(|c| critical_named(&s.name, c))
                .collect::<Result<_, _>>()?,
            mine_crippled: s.mine_crippled,
            moved: false,
            halted: false,
            anchored: false,
            smoke: false,
            rescue: None,
            capturing: None,
            captured_by: None,
            path: vec![],
        });
    }
    Ok(ships)
}

/// A side's flagship and second: two different capital ships of its own.
fn check_command(side: &ScenarioSide) -> Result<(), SetupRefused> {
    let own = |n: &str| side.ships.iter().find(|s| s.name == n);
    for (role, n) in [("flagship", &side.flagship), ("second", &side.second)] {
        match own(n) {
            Some(s) if s.class.is_capital() => {}
            Some(_) => {
                return Err(SetupRefused::Scenario(format!(
                    "scenario: {role} {n} of {} is not a capital ship",
                    side.id
                )));
            }
            None => {
                return Err(SetupRefused::Scenario(format!(
                    "scenario: {role} {n} is not a ship of {}",
                    side.id
                )));
            }
        }
    }
    if side.flagship == side.second {
        return Err(SetupRefused::Scenario(format!(
            "scenario: {} has the same flagship and second",
            side.id
        )));
    }
    Ok(())
}

/// A side's battle lines (capital ships) then its flotillas (destroyers), each ship of its own
/// and in one group at most.
fn side_groups(side: &ScenarioSide) -> Result<Vec<Group>, SetupRefused> {
    let own = |n: &str| side.ships.iter().find(|s| s.name == n);
    let mut groups = Vec::new();
    let mut grouped = BTreeSet::new();
    for (g, flotilla) in side
        .lines
        .iter()
        .map(|g| (g, false))
        .chain(side.flotillas.iter().map(|g| (g, true)))
    {
        for n in &g.ships {
            let Some(s) = own(n) else {
                return Err(SetupRefused::Scenario(format!(
                    "scenario: {} in {} is not a ship of {}",
                    n, g.name, side.id
                )));
            };
            if s.class.is_capital() == flotilla {
                return Err(SetupRefused::Scenario(format!(
                    "scenario: {n} in {}: battle lines are capital ships, flotillas destroyers",
                    g.name
                )));
            }
            if !grouped.insert(n.clone()) {
                return Err(SetupRefused::Scenario(format!(
                    "scenario: {n} is in two lines or flotillas"
                )));
            }
        }
        if g.ships.is_empty() {
            return Err(SetupRefused::Scenario(format!(
                "scenario: {} has no ships",
                g.name
            )));
        }
        groups.push(Group {
            name: g.name.clone(),
            side: side.id.clone(),
            ships: g.ships.clone(),
            formation: g.formation,
            flotilla,
        });
    }
    Ok(groups)
}

/// A side's fleet at the start: its nominations, no general order, no standing fire.
fn side_fleet(data: &RulesetData, side: &ScenarioSide) -> Fleet {
    let cruise = match side.cruise {
        Some(c) => c,
        None => data.rules.cruise.get(),
    };
    Fleet {
        side: side.id.clone(),
        name: side.name.clone(),
        leadership: side.leadership,
        crews: side.crews,
        capital_gunnery_bonus: side.capital_gunnery_bonus,
        coal_limited: side.coal_limited,
        cruise,
        withdrawal_heading: side.withdrawal_heading,
        flagship: Some(side.flagship.clone()),
        second: Some(side.second.clone()),
        flagship_lost: false,
        withdrawal: false,
        chase: false,
        standing_fire: None,
        rescue_owed: vec![],
    }
}

/// The minefields the scenario lays before play, numbered M1, M2, … in its order.
fn scenario_minefields(sc: &Scenario, ids: &[String]) -> Result<Vec<Minefield>, SetupRefused> {
    let mut minefields = Vec::new();
    for (i, m) in sc.minefields.iter().enumerate() {
        if !ids.contains(&m.owner) {
            return Err(SetupRefused::Scenario(format!(
                "scenario: minefield owner `{}` is not a side",
                m.owner
            )));
        }
        minefields.push(Minefield {
            id: format!("M{}", i + 1),
            owner: m.owner.clone(),
            centre: Pt { x: m.x, y: m.y },
            heading: m.heading,
            genuine: m.genuine,
            laid_in_play: false,
            revealed: false,
        });
    }
    Ok(minefields)
}

/// The set-up step: nominations, pre-game minefields, standing orders, scouting, first CP roll;
/// then the first side to move manoeuvres.
pub fn resolve_setup(
    state: &mut NavalState,
    subs: &BTreeMap<String, Submitted<Orders>>,
    dice: &mut Dice,
) -> Next<Phase> {
    let seats = state.seat_order.clone();
    for seat in &seats {
        let orders: &[Order] = match subs.get(seat) {
            Some(Submitted::Orders(o)) => o,
            _ => &[],
        };
        let side_name = state.side_name(seat);
        let mut placed = Vec::new();
        for o in orders {
            match o {
                Order::Flagship(n) => {
                    if let Some(f) = state.fleets.iter_mut().find(|f| f.side == *seat) {
                        if f.second.as_deref() == Some(n.as_str()) {
                            f.second = f.flagship.clone();
                        }
                        f.flagship = Some(n.clone());
                    }
                }
                Order::Second(n) => {
                    if let Some(f) = state.fleets.iter_mut().find(|f| f.side == *seat) {
                        f.second = Some(n.clone());
                    }
                }
                Order::Minefield {
                    genuine,
                    at,
                    heading,
                } => {
                    let id = format!("M{}", state.minefields.len() + 1);
                    state.minefields.push(Minefield {
                        id: id.clone(),
                        owner: seat.clone(),
                        centre: *at,
                        heading: *heading,
                        genuine: *genuine,
                        laid_in_play: false,
                        revealed: false,
                    });
                    placed.push((id, *genuine));
                }
                Order::Standing(s) => {
                    if let Some(f) = state.fleets.iter_mut().find(|f| f.side == *seat) {
                        f.standing_fire = *s;
                    }
                }
                _ => {}
            }
        }
        let f = state.fleets.iter().find(|f| f.side == *seat);
        let (flag, second) = f
            .map(|f| {
                (
                    f.flagship.clone().unwrap_or_default(),
                    f.second.clone().unwrap_or_default(),
                )
            })
            .unwrap_or_default();
        state.log.push(LogLine::public(format!(
            "{side_name}: flagship {flag}, second-in-command {second}."
        )));
        if !placed.is_empty() {
            let ids: Vec<&str> = placed.iter().map(|p| p.0.as_str()).collect();
            state.log.push(LogLine::public(format!(
                "{side_name} places {} minefield marker(s): {}.",
                placed.len(),
                ids.join(", ")
            )));
            let detail: Vec<String> = placed
                .iter()
                .map(|(id, g)| format!("{id} {}", if *g { "genuine" } else { "dummy" }))
                .collect();
            state.log.push(LogLine::private(
                seat,
                format!("Your minefields: {}.", detail.join(", ")),
            ));
        }
    }
    if state.active.is_empty() {
        scouting(state, dice);
    }
    state.turn = 1;
    command::roll_cp(state, dice);
    Next::To(Phase::Manoeuvre)
}

/// The scouting roll (p.2, R21): points + 1d6 each, ties re-rolled; the lower sets up and moves first.
pub fn scouting(state: &mut NavalState, dice: &mut Dice) {
    let seats = state.seat_order.clone();
    let points: Vec<i32> = seats
        .iter()
        .map(|s| {
            state
                .ships
                .iter()
                .filter(|sh| sh.side == *s)
                .map(|sh| state.data.classes[&sh.class].scouting_points.int())
                .sum()
        })
        .collect();
    for round in 1..=100 {
        let rolls: Vec<i32> = seats
            .iter()
            .map(|s| dice.roll_one(format!("scouting {s}"), Faces::d(6)) as i32)
            .collect();
        let totals: Vec<i32> = points.iter().zip(&rolls).map(|(p, r)| p + r).collect();
        let parts: Vec<String> = seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                format!(
                    "{} {} + {} = {}",
                    state.side_name(s),
                    points[i],
                    rolls[i],
                    totals[i]
                )
            })
            .collect();
        state.log.push(LogLine::public(format!(
            "Scouting roll: {}.",
            parts.join("; ")
        )));
        if totals[0] != totals[1] {
            let first = if totals[0] < totals[1] { 0 } else { 1 };
            state.active = seats[first].clone();
            state.log.push(LogLine::public(format!(
                "{} is out-scouted and moves first.",
                state.side_name(&seats[first])
            )));
            return;
        }
        if round == 100 {
            break;
        }
        state.log.push(LogLine::public("A tie: both re-roll."));
    }
    // Unreachable in practice (100 ties); fall back to the first seat so the game never stalls.
    state.active = seats[0].clone();
}

/// A critical as a scenario names it (R67: damage a campaign brings).
fn critical_named(ship: &str, name: &str) -> Result<super::state::Critical, SetupRefused> {
    use super::state::Critical;
    Ok(match name {
        "Movement" => Critical::Movement,
        "Gunnery" => Critical::Gunnery,
        "Control" => Critical::Control,
        "Magazine" => Critical::Magazine,
        other => {
            return Err(SetupRefused::Scenario(format!(
                "ship {ship}: critical `{other}`: write Movement, Gunnery, Control or Magazine"
            )));
        }
    })
}
