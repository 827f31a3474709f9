//! The opening state from the ruleset data and a scenario: the map, terrain, objectives, the
//! two sides' units and leaders, every name and hex checked. Bad data is an error for the
//! organiser, never a panic; nothing is decided here that the rules decide.

use std::collections::BTreeSet;

use crate::board::hex::{Hex, HexDir, HexGrid};
use crate::engine::{SeatId, SetupRefused};
use crate::rulesets::kit::grammar::normalise;

use super::data::{self, Arm, RulesetData, Scenario, ScenarioSide, ScenarioUnit, TomlData, hex_of};
use super::state::{
    Cohesion, Fatigue, Formation, LbState, Leader, Objective, Phase, Segment, Side, Standing, Unit,
};

/// Words that may not be unit names: they would read as order words.
const RESERVED: &[&str] = &[
    "AT", "VIA", "FACING", "PAS", "RECALL", "ALWAYS", "NEVER", "ASK", "AUTO", "UP",
];

pub fn new_state(ruleset: &str, scenario: &str, seats: &[SeatId]) -> Result<LbState, SetupRefused> {
    let data = RulesetData::load(ruleset)?;
    let sc = Scenario::from_toml(scenario)?;
    if sc.sides.len() != 2 {
        return Err(SetupRefused::Scenario(
            "scenario: La Bataille is for two sides".into(),
        ));
    }
    let ids: Vec<String> = sc.sides.iter().map(|s| s.id.clone()).collect();
    if seats.len() != 2 || !seats.iter().all(|s| ids.contains(s)) {
        return Err(SetupRefused::Seats(format!(
            "seats must be exactly {}",
            ids.join(" and ")
        )));
    }
    if !ids.contains(&sc.first) {
        return Err(SetupRefused::Scenario(format!(
            "scenario: first = `{}` is not a side",
            sc.first
        )));
    }
    let grid = sc.map.grid();
    let (terrain, places) = terrain_of(&data, &sc, grid)?;
    let objectives = objectives_of(&sc, &ids, grid)?;
    let mut units = Vec::new();
    let mut leaders = Vec::new();
    let mut names = BTreeSet::new();
    for side in &sc.sides {
        for su in &side.units {
            units.push(placed_unit(&data, grid, side, su, &mut names)?);
        }
        leaders.extend(side_leaders(side)?);
    }
    let probe = LbState {
        data: data.clone(),
        scenario_name: sc.name.clone(),
        description: sc.description.clone(),
        grid,
        terrain,
        places,
        objectives,
        turns: sc.turns.max(1),
        first_side: sc.first.clone(),
        margin: sc.margin,
        start: sc.start.clone(),
        minutes_per_turn: sc.minutes_per_turn,
        seat_order: seats.to_vec(),
        sides: sc.sides.iter().map(opening_side).collect(),
        units,
        leaders,
        turn: 1,
        phasing: sc.first.clone(),
        player_turn: 1,
        segment: Segment::Maneuver,
        phase: Phase::Maneuver {
            side: sc.first.clone(),
        },
        agenda: vec![],
        assaults: vec![],
        charges: vec![],
        answer: None,
        picker: None,
        started: vec![],
        fire_plan: vec![],
        next_id: 0,
        log: vec![],
        outcome: None,
    };
    check_stacking(&probe)?;
    let _ = (data::Arm::Infantry, HexDir::ALL);
    Ok(probe)
}

/// One unit as the scenario places it: a name that reads as no order word nor hex and is new
/// in the game (`names` holds those taken), a known class and formation, its facing, and what
/// it carries from an earlier battle (R39–R42).
fn placed_unit(
    data: &RulesetData,
    grid: HexGrid,
    side: &ScenarioSide,
    su: &ScenarioUnit,
    names: &mut BTreeSet<String>,
) -> Result<Unit, SetupRefused> {
    if su.name.is_empty() || su.name.contains(char::is_whitespace) || su.name.contains(',') {
        return Err(SetupRefused::Scenario(format!(
            "unit name `{}`: one word, no spaces or commas",
            su.name
        )));
    }
    if RESERVED.iter().any(|w| w.eq_ignore_ascii_case(&su.name)) || su.name.parse::<u32>().is_ok() {
        return Err(SetupRefused::Scenario(format!(
            "unit name `{}` would read as an order word or a hex",
            su.name
        )));
    }
    if !names.insert(normalise(&su.name)) {
        return Err(SetupRefused::Scenario(format!(
            "unit name `{}` used twice",
            su.name
        )));
    }
    let class = data.class(&su.class).ok_or_else(|| {
        SetupRefused::Scenario(format!("{}: unknown class `{}`", su.name, su.class))
    })?;
    let formation = Formation::parse(&su.formation).ok_or_else(|| {
        SetupRefused::Scenario(format!("{}: unknown formation `{}`", su.name, su.formation))
    })?;
    let facing = grid
        .parse_dir(&su.facing)
        .map_err(|e| SetupRefused::Scenario(format!("{}: {e}", su.name)))?;
    if su.increments == 0 {
        return Err(SetupRefused::Scenario(format!(
            "{}: no increments",
            su.name
        )));
    }
    // A unit carried from an earlier battle (R39–R42): below full strength, still
    // routed, still tired.
    let full = su.full.unwrap_or(su.increments);
    if full < su.increments {
        return Err(SetupRefused::Scenario(format!(
            "{}: full = {full} is less than its {} increments",
            su.name, su.increments
        )));
    }
    let fatigue = match &su.fatigue {
        None => Fatigue::Fresh,
        Some(w) => Fatigue::parse(w).ok_or_else(|| {
            SetupRefused::Scenario(format!(
                "{}: fatigue `{w}` is not fresh, tired or exhausted",
                su.name
            ))
        })?,
    };
    Ok(Unit {
        name: su.name.clone(),
        side: side.id.clone(),
        class: su.class.clone(),
        nation: su.nation.clone(),
        arm: class.arm,
        hex: hex_of(grid, &su.hex, &su.name)?,
        facing,
        formation,
        cohesion: if su.routed {
            Cohesion::Routed
        } else if su.disordered {
            Cohesion::Disordered
        } else {
            Cohesion::GoodOrder
        },
        fatigue,
        increments: su.increments,
        full,
        morale: su.morale,
        mp_spent: 0,
        ammo: if class.arm == Arm::Artillery {
            su.ammo
        } else {
            None
        },
        number: None,
        firefight: false,
        charged: false,
        fired: false,
        eliminated: false,
        came_from: None,
        exploiting: false,
        began: (full != su.increments).then_some(su.increments),
    })
}

/// A side's leaders, each with a unit of his own side.
fn side_leaders(side: &ScenarioSide) -> Result<Vec<Leader>, SetupRefused> {
    let mut leaders = Vec::new();
    for l in &side.leaders {
        if !side.units.iter().any(|u| u.name == l.with) {
            return Err(SetupRefused::Scenario(format!(
                "leader {}: no unit `{}` on his side",
                l.name, l.with
            )));
        }
        leaders.push(Leader {
            name: l.name.clone(),
            side: side.id.clone(),
            with: l.with.clone(),
            rating: l.rating.max(1),
            gone: false,
        });
    }
    Ok(leaders)
}

/// Hexes each with a word: its terrain kind, or a place's name.
type HexWords = Vec<(Hex, String)>;

/// The terrain hex by hex (a later entry for a hex replaces an earlier one) and the named
/// places, each at its first hex.
fn terrain_of(
    data: &RulesetData,
    sc: &Scenario,
    grid: HexGrid,
) -> Result<(HexWords, HexWords), SetupRefused> {
    let mut terrain = Vec::new();
    let mut places = Vec::new();
    for t in &sc.terrain {
        if !data.terrain.contains_key(&t.kind) {
            return Err(SetupRefused::Scenario(format!(
                "scenario: unknown terrain `{}`",
                t.kind
            )));
        }
        for h in &t.hexes {
            let hex = hex_of(grid, h, &t.kind)?;
            terrain.retain(|(x, _)| *x != hex);
            terrain.push((hex, t.kind.clone()));
        }
        if let (Some(name), Some(first)) = (&t.name, t.hexes.first()) {
            places.push((hex_of(grid, first, name)?, name.clone()));
        }
    }
    Ok((terrain, places))
}

/// The objectives, each held at the start by a side of the game.
fn objectives_of(
    sc: &Scenario,
    ids: &[String],
    grid: HexGrid,
) -> Result<Vec<Objective>, SetupRefused> {
    let mut objectives = Vec::new();
    for o in &sc.objectives {
        if !ids.contains(&o.holder) {
            return Err(SetupRefused::Scenario(format!(
                "scenario: objective {}: holder `{}` is not a side",
                o.name, o.holder
            )));
        }
        objectives.push(Objective {
            name: o.name.clone(),
            hex: hex_of(grid, &o.hex, &o.name)?,
            vp: o.vp,
            holder: o.holder.clone(),
        });
    }
    Ok(objectives)
}

/// A side at the start: no standing orders, no increments lost.
fn opening_side(s: &ScenarioSide) -> Side {
    Side {
        id: s.id.clone(),
        name: s.name.clone(),
        standing: Standing::default(),
        increments_taken: 0,
        gone: s.gone.clone(),
    }
}

/// No hex holds more than stacking allows.
fn check_stacking(probe: &LbState) -> Result<(), SetupRefused> {
    for u in &probe.units {
        let here: Vec<&Unit> = probe.at(u.hex);
        if !super::field::room_for(probe, u.hex, &here) {
            return Err(SetupRefused::Scenario(format!(
                "scenario: hex {} is overstacked",
                probe.label(u.hex)
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
pub mod tests {
    use super::*;

    pub fn teaching() -> LbState {
        new_state(
            include_str!("../../../games/la-bataille/ruleset.toml"),
            include_str!("../../../games/la-bataille/scenarios/teaching.toml"),
            &["france".to_string(), "allies".to_string()],
        )
        .unwrap()
    }

    #[test]
    fn both_shipped_scenarios_set_up() {
        let st = teaching();
        assert!(st.units.len() >= 4);
        let w = new_state(
            include_str!("../../../games/la-bataille/ruleset.toml"),
            include_str!("../../../games/la-bataille/scenarios/waterloo-1815.toml"),
            &["france".to_string(), "allies".to_string()],
        )
        .unwrap();
        assert!(
            w.units
                .iter()
                .any(|u| w.data.class(&u.class).is_some_and(|c| c.old_guard))
        );
        assert!(w.units.iter().any(|u| u.arm == Arm::Cavalry));
        assert!(w.units.iter().any(|u| u.arm == Arm::Artillery));
    }

    #[test]
    fn bad_scenarios_are_refused_with_a_reason() {
        let rs = include_str!("../../../games/la-bataille/ruleset.toml");
        let sc = include_str!("../../../games/la-bataille/scenarios/teaching.toml");
        let seats = ["france".to_string(), "allies".to_string()];
        assert!(matches!(
            new_state(rs, sc, &["x".into(), "y".into()]),
            Err(SetupRefused::Seats(e)) if e.contains("seats")
        ));
        let bad = sc.replacen("class = \"line_infantry\"", "class = \"musketeers\"", 1);
        assert!(matches!(
            new_state(rs, &bad, &seats),
            Err(SetupRefused::Scenario(e)) if e.contains("musketeers")
        ));
    }
}
