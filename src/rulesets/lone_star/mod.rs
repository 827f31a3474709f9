//! Lone Star (Steve Carroll, MWAN #107): several players a side, turn-order cards, sealed
//! simultaneous combat, ambushes and windwagons, by email. This file wires the modules into
//! `engine::Ruleset` and builds the opening state; the rules live in the modules.

pub mod aim;
pub mod asked;
pub mod campaign;
pub mod combat;
pub mod data;
pub mod escort;
pub mod fight;
pub mod in_force;
pub mod machines;
pub mod march;
pub mod marks;
pub mod melee;
pub mod movement;
pub mod orders;
pub mod procedure;
pub mod sailing;
pub mod sample;
pub mod state;
pub mod turn;
pub mod view;
pub mod wagon_cover;
pub mod wagons;

use crate::board::tabletop::Pt;
use crate::board::terrain::Area;
use crate::engine::{
    CarryRefused, Outcome, Rejected, Ruleset, SeatId, SetupRefused, StandingRead, View, Viewer,
};

use data::{Arm, Heavy, RulesetData, Scenario, TerrainCard, TomlData, UnitCard, pt};
use orders::Orders;
use state::{Fig, Form, Ground, Phase, Seat, Standing, State, Unit};

/// The Lone Star ruleset as the engine sees it.
pub struct LoneStar;

fn form_of(word: &str) -> Result<Form, SetupRefused> {
    Ok(match word {
        "line" => Form::Line,
        "column" => Form::Column,
        "square" => Form::Square,
        "entrenched" => Form::Entrenched,
        "occupying" => Form::Occupying,
        w => return Err(SetupRefused::Scenario(format!("unknown formation `{w}`"))),
    })
}

/// The opening state from the data and scenario texts: the seats checked, the units as
/// their cards give them, passengers aboard, the ground, then the state at turn 1.
pub fn new_state(
    ruleset_toml: &str,
    scenario_toml: &str,
    seats: &[SeatId],
) -> Result<State, SetupRefused> {
    let data = RulesetData::from_toml(ruleset_toml)?;
    let scen = Scenario::from_toml(scenario_toml)?;
    let ids: Vec<&str> = scen.seat.iter().map(|s| s.id.as_str()).collect();
    if ids != seats.iter().map(String::as_str).collect::<Vec<_>>() {
        return Err(SetupRefused::Seats(format!(
            "this scenario's seats are, in order: {}",
            ids.join(", ")
        )));
    }
    let sides: Vec<(String, String, String)> = scen
        .side
        .iter()
        .map(|s| (s.id.clone(), s.name.clone(), s.goal.clone()))
        .collect();
    let mut units = Vec::new();
    for c in &scen.unit {
        let seat = scen.seat.iter().find(|s| s.id == c.seat).ok_or_else(|| {
            SetupRefused::Scenario(format!("unit {}: no seat `{}`", c.name, c.seat))
        })?;
        let figures = figures_of(c, &units)?;
        let esprit = esprit_of(&data, c)?;
        units.push(unit_of(&data, c, &seat.side, figures, esprit)?);
    }
    board_passengers(&mut units)?;
    let ground = ground_of(&scen.terrain)?;
    Ok(State {
        data,
        scenario: scen.name.clone(),
        turn: 1,
        turns: scen.turns,
        width: scen.width,
        height: scen.height,
        sides,
        seats: scen
            .seat
            .iter()
            .map(|s| Seat {
                id: s.id.clone(),
                side: s.side.clone(),
                name: s.name.clone(),
            })
            .collect(),
        cards: vec![],
        phase: Phase::Cards,
        units,
        ground,
        objectives: scen.objective.clone(),
        wind: scen.wind.clone(),
        smoke: vec![],
        blasts: vec![],
        // A scenario's own words open the log everyone reads in the welcome.
        log: scen
            .description
            .iter()
            .map(|d| (d.trim().to_string(), vec![]))
            .collect(),
        outcome: None,
        carried: campaign::read_sides(&scen.side),
    })
}

/// A unit card's figures, type by type, checked: 1 to 12 of them, its qualities within L3,
/// and its name not already taken (by `units`, the cards before it).
fn figures_of(c: &UnitCard, units: &[Unit]) -> Result<Vec<Fig>, SetupRefused> {
    let mut figures = vec![Fig::Trooper; c.troopers as usize];
    figures.extend(std::iter::repeat_n(Fig::Leader, c.leaders as usize));
    if let Some(h) = c.heavy {
        figures.push(Fig::Heavy(h));
    }
    figures.extend(std::iter::repeat_n(Fig::Grenadier, c.grenadiers as usize));
    if c.red_cross {
        figures.push(Fig::RedCross);
    }
    if c.colors {
        figures.push(Fig::Colors);
    }
    if figures.is_empty() || figures.len() > 12 {
        return Err(SetupRefused::Scenario(format!(
            "unit {}: 1 to 12 figures",
            c.name
        )));
    }
    if c.leadership > 3 || c.zeal > 3 || c.esprit > 3 || c.zeal < c.esprit {
        return Err(SetupRefused::Scenario(format!(
            "unit {}: Leadership, Zeal, Esprit at most 3, Zeal ≥ Esprit (L3)",
            c.name
        )));
    }
    if units
        .iter()
        .any(|u: &Unit| u.name.eq_ignore_ascii_case(&c.name))
    {
        return Err(SetupRefused::Scenario(format!(
            "two units called {}",
            c.name
        )));
    }
    Ok(figures)
}

/// R55: a shaken unit's Esprit is lower, never below L3's −1.
fn esprit_of(data: &RulesetData, c: &UnitCard) -> Result<i32, SetupRefused> {
    Ok(if c.shaken {
        let by = data
            .campaign
            .as_ref()
            .ok_or_else(|| {
                SetupRefused::Scenario(format!(
                    "unit {}: shaken, but ruleset.toml has no [campaign]",
                    c.name
                ))
            })?
            .shaken_esprit
            .int();
        (c.esprit - by).max(-1).min(c.esprit)
    } else {
        c.esprit
    })
}

/// The unit a checked card fields at the start of the battle, on `side`.
fn unit_of(
    data: &RulesetData,
    c: &UnitCard,
    side: &str,
    figures: Vec<Fig>,
    esprit: i32,
) -> Result<Unit, SetupRefused> {
    Ok(Unit {
        name: c.name.clone(),
        seat: c.seat.clone(),
        side: side.to_string(),
        arm: c.arm,
        start_figures: figures.len() as u32,
        figures,
        hits: 0,
        leadership: c.leadership,
        zeal: c.zeal,
        esprit,
        move_rate: c.move_rate,
        mounted_move: c.mounted_move,
        mounted: c.arm == Arm::Cavalry && c.mounted_move.is_some(),
        short: c.short,
        long: c.long,
        pos: pt(c.at),
        facing: c.facing,
        form: form_of(&c.formation)?,
        hidden: c.hidden,
        gas_masks: c.gas_masks,
        armored: c.armored,
        smoke: c.smoke,
        gas: c.gas,
        flame_shots: c.flame_shots,
        // R50: a mortar card that does not say its rounds has the stand-in count.
        mortar_rounds: c
            .mortar_rounds
            .unwrap_or(if c.heavy == Some(Heavy::Mortar) {
                data.rules.mortar_rounds.int().max(0) as u32
            } else {
                0
            }),
        disengage: c.disengage,
        regulars: c.regulars,
        british: c.british,
        gun: c.gun.clone(),
        routing: false,
        gone: None,
        river: 0,
        melee: vec![],
        melee_new: false,
        charged: false,
        in_combat: false,
        lost_this_turn: 0,
        ambushed_by: vec![],
        ambush_turn: 0,
        prisoners: 0,
        guards: 0,
        standing: Standing::default(),
        extra_plan: None,
        stopping: false,
        last_third: false,
        aboard: c.aboard.clone(),
        ramp: c.ramp,
        // A windwagon starts the game standing (R36); a zeppelin in the air, hovering.
        halted: matches!(c.arm, Arm::Windwagon | Arm::Zeppelin),
        moved_turn: 0,
        machine: c.arm.is_machine().then(machines::Machine::default),
        escorting: 0,
        shaken: c.shaken,
    })
}

/// The scenario's terrain as ground: each piece a polygon, circle or band of a known kind.
fn ground_of(terrain: &[TerrainCard]) -> Result<Vec<Ground>, SetupRefused> {
    let mut ground = Vec::new();
    for t in terrain {
        let area = if !t.poly.is_empty() {
            Area::Polygon {
                points: t.poly.iter().copied().map(pt).collect(),
            }
        } else if let Some([x, y, r]) = t.circle {
            Area::Circle {
                centre: Pt::new(x, y),
                radius: r,
            }
        } else if !t.line.is_empty() {
            Area::Band {
                points: t.line.iter().copied().map(pt).collect(),
                width: if t.width > 0.0 { t.width } else { 1.0 },
            }
        } else {
            return Err(SetupRefused::Scenario(format!(
                "terrain {}: give poly, circle or line",
                t.kind
            )));
        };
        if ![
            "woods", "hill", "rough", "farm", "road", "river", "ford", "wall",
        ]
        .contains(&t.kind.as_str())
        {
            return Err(SetupRefused::Scenario(format!(
                "unknown terrain kind `{}`",
                t.kind
            )));
        }
        ground.push(Ground {
            kind: t.kind.clone(),
            name: t.name.clone(),
            area,
        });
    }
    Ok(ground)
}

/// Units that start aboard (R35): the carrier must be a windwagon or zeppelin of their side,
/// carrying no one else, and they stand where it stands.
fn board_passengers(units: &mut [Unit]) -> Result<(), SetupRefused> {
    for i in 0..units.len() {
        let Some(c) = units[i].aboard.clone() else {
            continue;
        };
        let carrier = units
            .iter()
            .find(|u| u.name == c && wagons::is_carrier(u) && u.side == units[i].side)
            .ok_or_else(|| {
                SetupRefused::Scenario(format!(
                    "unit {}: `aboard` names no windwagon or zeppelin of its side",
                    units[i].name
                ))
            })?
            .clone();
        if units[..i]
            .iter()
            .any(|u| u.aboard.as_deref() == Some(c.as_str()))
        {
            return Err(SetupRefused::Scenario(format!(
                "{c} carries one unit only (R35)"
            )));
        }
        if !units[i].on_foot() {
            return Err(SetupRefused::Scenario(format!(
                "unit {}: only troops on foot ride (R35)",
                units[i].name
            )));
        }
        units[i].pos = carrier.pos;
        units[i].facing = carrier.facing;
    }
    Ok(())
}

impl Ruleset for LoneStar {
    const NAME: &'static str = "lone-star";
    type State = State;
    type Orders = Orders;
    type Phase = Phase;

    fn procedure()
    -> &'static crate::engine::procedure::Procedure<Self::State, Self::Orders, Self::Phase> {
        &procedure::SEQUENCE
    }

    fn setup(
        ruleset_toml: &str,
        scenario_toml: &str,
        seats: &[SeatId],
    ) -> Result<State, SetupRefused> {
        new_state(ruleset_toml, scenario_toml, seats)
    }

    fn carry(
        finished: &State,
        next_scenario_toml: &str,
        terms: &toml::Table,
    ) -> Result<String, CarryRefused> {
        campaign::carry(finished, next_scenario_toml, terms)
    }

    fn seats(state: &State) -> Vec<(SeatId, String)> {
        state
            .seats
            .iter()
            .map(|s| (s.id.clone(), s.side.clone()))
            .collect()
    }

    fn parse(state: &State, seat: &str, text: &str) -> Result<Orders, Vec<Rejected>> {
        orders::parse(state, seat, text)
    }

    fn canonical(orders: &Orders) -> String {
        orders::print(orders)
    }

    fn standing_keywords() -> &'static [&'static str] {
        &["STANDING"]
    }

    fn standing(
        state: &State,
        seat: &str,
        text: &str,
    ) -> Result<StandingRead<State>, Vec<Rejected>> {
        // In force at once (ruling SO1); replay reads the canonical form to the same state.
        let (standing, other) = orders::standing(state, seat, text)?;
        let applied = (!standing.is_empty()).then(|| {
            let mut next = state.clone();
            in_force::apply_standing(&mut next, &standing);
            (next, orders::print(&standing))
        });
        Ok(StandingRead { applied, other })
    }

    fn view(state: &State, viewer: &Viewer) -> View {
        view::view(state, viewer)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn victory_figures(state: &State) -> Vec<String> {
        turn::victory_figures(state)
    }

    fn order_keywords() -> Vec<&'static str> {
        orders::keywords()
    }

    fn briefing(state: &State, seat: &str) -> Vec<(String, Vec<String>)> {
        view::briefing(state, seat)
    }

    fn unit_numbers(state: &State, seat: &str) -> Vec<(String, Vec<String>)> {
        view::unit_numbers(state, seat)
    }

    fn looks_like_an_order(state: &State, line: &str) -> bool {
        crate::rulesets::kit::grammar::looks_like_an_order(
            line,
            &orders::keywords(),
            state.units.iter().map(|u| u.name.as_str()),
        )
    }

    fn sample_orders(state: &State, seat: &str, choice: u64) -> String {
        sample::sample_orders(state, seat, choice)
    }
}
