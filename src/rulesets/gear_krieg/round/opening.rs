//! The opening state from ruleset and scenario data: two sides seated, every unit placed on
//! the map with its kind, ammunition and troopers (less those a campaign lost, R37). It checks
//! data, never player text.

use std::collections::BTreeSet;

use crate::board::tabletop::Pt;
use crate::engine::{SeatId, SetupRefused};
use crate::rulesets::kit::grammar::normalise;

use super::super::data::{
    InitialSpeed, MoveMode, RulesetData, Scenario, ScenarioSide, ScenarioUnit, TomlData,
};
use super::super::state::{GkState, Phase, Side, Trooper, Unit, UnitKind};

/// Builds the opening state.
pub fn new_state(ruleset: &str, scenario: &str, seats: &[SeatId]) -> Result<GkState, SetupRefused> {
    let data = RulesetData::from_toml(ruleset)?;
    let sc = Scenario::from_toml(scenario)?;
    if sc.sides.len() != 2 {
        return Err(SetupRefused::Scenario(
            "scenario: Gear Krieg is for two sides".into(),
        ));
    }
    let ids: Vec<String> = sc.sides.iter().map(|s| s.id.clone()).collect();
    if seats.len() != 2 || !seats.iter().all(|s| ids.contains(s)) {
        return Err(SetupRefused::Seats(format!(
            "seats must be exactly {}",
            ids.join(" and ")
        )));
    }
    let mut units = Vec::new();
    let mut names = BTreeSet::new();
    for side in &sc.sides {
        for su in &side.units {
            units.push(placed_unit(&data, &sc, side, su, &mut names)?);
        }
    }
    Ok(GkState {
        data,
        scenario_name: sc.name,
        description: sc.description,
        width: sc.width,
        height: sc.height,
        night: sc.night,
        max_rounds: sc.max_rounds.max(1),
        winning_margin: sc.winning_margin,
        objectives: sc.objectives,
        terrain: sc.terrain,
        seat_order: seats.to_vec(),
        sides: sc.sides.iter().map(opening_side).collect(),
        units,
        round: 1,
        phase: Phase::Declare,
        to_play: seats[0].clone(),
        zones: vec![],
        paused: None,
        log: vec![],
        outcome: None,
    })
}

/// A side before its first round: no CP, every question asked, nothing queued.
fn opening_side(s: &ScenarioSide) -> Side {
    Side {
        id: s.id.clone(),
        name: s.name.clone(),
        edge: s.edge.clone(),
        cp: 0,
        ask_interrupts: true,
        ask_declarations: true,
        choose_first: true,
        queued: vec![],
        vp: 0,
        initiative: None,
    }
}

/// One unit as the scenario places it: a one-word name new in the game (`names` holds those
/// taken), on the map, of a class the ruleset knows; stationary and fresh.
fn placed_unit(
    data: &RulesetData,
    sc: &Scenario,
    side: &ScenarioSide,
    su: &ScenarioUnit,
    names: &mut BTreeSet<String>,
) -> Result<Unit, SetupRefused> {
    if su.name.is_empty() || su.name.contains(char::is_whitespace) {
        return Err(SetupRefused::Scenario(format!(
            "unit name `{}`: one word, no spaces",
            su.name
        )));
    }
    if !names.insert(normalise(&su.name)) {
        return Err(SetupRefused::Scenario(format!(
            "unit name `{}` used twice",
            su.name
        )));
    }
    if su.x < 0.0 || su.y < 0.0 || su.x > sc.width || su.y > sc.height {
        return Err(SetupRefused::Scenario(format!(
            "{} is off the map",
            su.name
        )));
    }
    let Equipment {
        kind,
        threat,
        ammo,
        troopers,
    } = equipment(data, su)?;
    Ok(Unit {
        name: su.name.clone(),
        side: side.id.clone(),
        class: su.class.clone(),
        kind,
        pos: Pt::new(su.x, su.y),
        heading: su.heading,
        mode: if kind == UnitKind::Infantry {
            MoveMode::Walker
        } else {
            su.mode
        },
        top: false,
        initial: InitialSpeed::Stationary,
        moved: None,
        last_move: 0.0,
        activated: false,
        actions: 1,
        actions_used: 0,
        extra_declared: 0,
        defensive: false,
        cp_used: false,
        cp_defend: false,
        mode_switched: false,
        light: su.light,
        heavy: su.heavy,
        destroyed: false,
        ammo,
        troopers: with_casualties(troopers, su.casualties),
        pinned: 0,
        walked: vec![],
        overwatch: None,
        overwatch_fired: 0,
        threat: threat.max(0) as u32,
    })
}

/// What a unit's class brings: its kind and Threat Value, a vehicle's ammunition by weapon, an
/// infantry squad's troopers each with the weapon they carry.
struct Equipment {
    kind: UnitKind,
    threat: i32,
    ammo: Vec<(String, u32)>,
    troopers: Vec<Trooper>,
}

/// The `Equipment` of a scenario unit's class, vehicle or infantry.
fn equipment(data: &RulesetData, su: &ScenarioUnit) -> Result<Equipment, SetupRefused> {
    let (kind, threat, ammo, troopers) = if let Some(v) = data.vehicles.get(&su.class) {
        let ammo = v
            .weapons
            .iter()
            .filter_map(|w| {
                w.ammo
                    .as_ref()
                    .map(|a| (w.key.clone(), a.int().max(0) as u32))
            })
            .collect();
        (UnitKind::Vehicle, v.threat_value.int(), ammo, vec![])
    } else if let Some(i) = data.infantry.get(&su.class) {
        let mut t = Vec::new();
        for g in &i.troopers {
            if !i.weapons.iter().any(|w| w.key == g.weapon) {
                return Err(SetupRefused::RulesetData(format!(
                    "{}: troopers carry unknown weapon {}",
                    i.name, g.weapon
                )));
            }
            for _ in 0..g.count.int().max(0) {
                t.push(Trooper {
                    weapon: g.weapon.clone(),
                    circles: i.circles.int().max(1) as u32,
                    hits: 0,
                });
            }
        }
        (UnitKind::Infantry, i.threat_value.int(), vec![], t)
    } else {
        return Err(SetupRefused::Scenario(format!(
            "{}: unknown class `{}`",
            su.name, su.class
        )));
    };
    Ok(Equipment {
        kind,
        threat,
        ammo,
        troopers,
    })
}

/// R37: a squad brings the troopers it lost in the last battle of a campaign (the last ones of
/// its list fall first, so the squad leader's weapon is the last to go).
fn with_casualties(mut troopers: Vec<Trooper>, lost: u32) -> Vec<Trooper> {
    for t in troopers.iter_mut().rev().take(lost as usize) {
        t.hits = t.circles;
    }
    troopers
}
