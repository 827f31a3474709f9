//! The turn of Lone Star as the README's rulings R1–R4 reconstruct it: turn-order cards drawn
//! once, standing orders taking effect, the order of steps (movement card by card, combat,
//! end of melee, extra movement, smoke clean-up) and the end of the game. The steps' own
//! rules are in `march` (movement), `fight` (combat) and `melee` (staying or leaving).
//! It never parses text.

use std::collections::BTreeMap;

use crate::board::tabletop::{Pt, bearing, dist};
use crate::dice::{Dice, Faces};
use crate::engine::procedure::Next;
use crate::engine::{Outcome, Submitted};
use crate::rulesets::kit::grammar::tenths;
use crate::rulesets::kit::roster::TwoSides;

use super::data::Arm;
use super::in_force::apply_standing;
use super::movement::{allowance, walk};
use super::orders::Orders;
use super::state::{Form, Phase, State, Unit};

pub use super::fight::{band, may_shoot, nearest_target, resolve_combat};
pub use super::march::resolve_move;
pub use super::melee::{resolve_melee_end, who_retreats};

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// R1: the turn-order cards are drawn once per game, before turn 1, one die per card.
pub fn draw_cards(state: &mut State, dice: &mut Dice) -> Next<Phase> {
    let mut pool: Vec<String> = state.seats.iter().map(|s| s.id.clone()).collect();
    let mut cards = Vec::new();
    while !pool.is_empty() {
        let k = pool.len() as u32;
        let pick = if k == 1 {
            1
        } else {
            dice.roll_one(
                format!(
                    "turn-order card {} (d{k} over the seats left)",
                    cards.len() + 1
                ),
                Faces::d(k),
            )
        };
        cards.push(pool.remove((pick - 1) as usize));
    }
    state.say(format!("Turn-order cards, face up: {}.", cards.join(", ")));
    state.cards = cards;
    next_mover(state, 0)
}

/// The next card from `from` whose seat has a unit that may move; else the combat step, once
/// the ambushers are placed (L7).
pub fn next_mover(state: &mut State, from: usize) -> Next<Phase> {
    for i in from..state.cards.len() {
        let seat = &state.cards[i];
        if state.seat_units(seat).iter().any(|u| u.may_move()) {
            return Next::To(Phase::Move { card: i });
        }
    }
    place_ambushers(state);
    Next::To(Phase::Combat)
}

/// L7: ambushers that will fire are placed at the end of movement, out of turn order: a hidden
/// unit with a standing ambush reveals when an enemy is within its distance (and in sight).
fn place_ambushers(state: &mut State) {
    let names: Vec<String> = state
        .units
        .iter()
        .filter(|u| u.alive() && u.hidden && u.standing.ambush.is_some())
        .map(|u| u.name.clone())
        .collect();
    for n in names {
        let u = state.unit(&n).expect("unit").clone();
        let reach = u.standing.ambush.unwrap_or(0.0);
        let victim = state
            .enemies_of(&u)
            .filter(|e| {
                !e.hidden
                    && super::wagons::targetable(state, e)
                    && state.gap(&u, e) <= reach
                    && state.sight(u.pos, e.pos)
            })
            .map(|e| e.name.clone())
            .next();
        if let Some(v) = victim {
            let turn = state.turn;
            let m = state.unit_mut(&n);
            m.hidden = false;
            m.ambush_turn = turn;
            state.say(format!(
                "AMBUSH! {n} is placed at {}, {v} within {}\".",
                at(u.pos),
                tenths(reach)
            ));
        }
    }
}

fn eligible_extra(u: &Unit) -> bool {
    u.alive()
        && u.on_ground()
        && u.on_foot()
        && !u.in_combat
        && u.melee.is_empty()
        && !u.routing
        && !u.hidden
        && u.form != Form::Square
        && u.form != Form::Entrenched
        && u.form != Form::Occupying
}

pub fn needs_extra(u: &Unit) -> bool {
    eligible_extra(u)
}

/// After combat or the melee's end: prisoners are marched off (R40), then the extra half
/// moves if any unit may make one, else the turn ends.
pub(super) fn begin_extra(state: &mut State) -> Next<Phase> {
    super::escort::march(state);
    if state.units.iter().any(eligible_extra) {
        Next::To(Phase::Extra)
    } else {
        Next::EndOfTurn
    }
}

/// Extra half moves in card order (L6, R4), never into melee.
pub fn resolve_extra(state: &mut State, subs: &BTreeMap<String, Submitted<Orders>>) -> Next<Phase> {
    for (_, sub) in subs.iter() {
        if let Submitted::Orders(o) = sub {
            apply_standing(state, o);
        }
    }
    let melee = state.data.rules.melee_range.get();
    let frac = state.data.rules.extra_move_fraction.get();
    for seat in state.cards.clone() {
        let names: Vec<String> = state
            .seat_units(&seat)
            .iter()
            .filter(|u| eligible_extra(u))
            .map(|u| u.name.clone())
            .collect();
        for n in names {
            let u = state.unit(&n).expect("unit").clone();
            let to = u.extra_plan.or(u.standing.extra).flatten();
            let Some(to) = to else { continue };
            let budget = allowance(state, &u, false) * frac;
            let before = u.pos;
            walk(state, &n, &[to], budget, false, None, None);
            // Not into melee: give back ground until clear of every enemy by the melee range.
            for _ in 0..80 {
                let me = state.unit(&n).expect("unit").clone();
                if !state
                    .enemies_of(&me)
                    .any(|e| !e.hidden && state.gap(&me, e) <= melee)
                    || dist(me.pos, before) < 0.01
                {
                    break;
                }
                let back = bearing(me.pos, before);
                state.unit_mut(&n).pos = me.pos.offset(back, 0.25_f64.min(dist(me.pos, before)));
            }
            let p = state.unit(&n).expect("unit").pos;
            state.say(format!("{n} makes its extra half move to {}.", at(p)));
        }
    }
    Next::EndOfTurn
}

/// Smoke of the previous turn lifts; the turn ends; the game may end (R21).
pub fn end_turn(state: &mut State) -> Next<Phase> {
    let t = state.turn;
    state.smoke.retain(|s| s.turn >= t);
    for u in state.units.iter_mut() {
        u.lost_this_turn = 0;
        u.extra_plan = None;
    }
    state.turn += 1;
    if let Some(o) = judge(state) {
        return Next::GameOver(o);
    }
    next_mover(state, 0)
}

/// The battle is over: said in the log everyone reads, and recorded.
pub fn game_over(state: &mut State, o: Outcome) {
    state.say(format!("The battle is over: {}", o.summary));
    state.outcome = Some(o);
    state.phase = Phase::GameOver;
}

/// Objectives held at the turn limit, or a side with nothing left (R21).
pub fn judge(state: &State) -> Option<Outcome> {
    let standing = |side: &str| {
        state
            .units
            .iter()
            .any(|u| u.side == side && u.alive() && !u.routing && u.fights())
    };
    let sides: Vec<String> = state.sides.iter().map(|s| s.0.clone()).collect();
    let left: Vec<&String> = sides.iter().filter(|s| standing(s)).collect();
    if left.len() == 1 {
        return Some(Outcome {
            winners: vec![left[0].clone()],
            summary: format!("{} alone holds the field.", state.side_name(left[0])),
        });
    }
    if left.is_empty() {
        return Some(Outcome {
            winners: vec![],
            summary: "no side holds the field.".into(),
        });
    }
    if state.turn <= state.turns {
        return None;
    }
    let (score, held) = points(state);
    let best = score.values().max().copied().unwrap_or(0);
    let winners: Vec<String> = score
        .iter()
        .filter(|(_, v)| **v == best)
        .map(|(k, _)| k.clone())
        .collect();
    let text: Vec<String> = score
        .iter()
        .map(|(k, v)| format!("{} {v}", state.side_name(k)))
        .collect();
    Some(Outcome {
        winners: if winners.len() == 1 { winners } else { vec![] },
        summary: format!(
            "turn limit reached; {}; points (objectives and prisoners): {}.",
            if held.is_empty() {
                "no objective held".into()
            } else {
                held.join(", ")
            },
            text.join(", ")
        ),
    })
}

/// R21's points at the turn limit: objectives held alone (a standing unit within the radius)
/// and prisoners taken, per side; and which objectives are held, in words.
fn points(state: &State) -> (BTreeMap<String, u32>, Vec<String>) {
    let sides: Vec<String> = state.sides.iter().map(|s| s.0.clone()).collect();
    let mut score: BTreeMap<String, u32> = sides.iter().map(|s| (s.clone(), 0)).collect();
    let mut held = Vec::new();
    for o in &state.objectives {
        let c = super::data::pt(o.at);
        let holders: Vec<&String> = sides
            .iter()
            .filter(|s| {
                state.units.iter().any(|u| {
                    u.side == **s
                        && u.alive()
                        && !u.routing
                        && super::wagons::targetable(state, u)
                        && dist(u.pos, c) <= o.radius
                })
            })
            .collect();
        if holders.len() == 1 {
            *score.get_mut(holders[0]).expect("side") += o.points;
            held.push(format!("{} holds {}", state.side_name(holders[0]), o.name));
        }
    }
    for u in state.units.iter() {
        *score.get_mut(&u.side).expect("side") += u.prisoners;
    }
    (score, held)
}

/// R21's figures for the game-over mail: units standing, objectives held and points per side.
pub fn victory_figures(state: &State) -> Vec<String> {
    let (score, held) = points(state);
    let mut out: Vec<String> = state
        .sides
        .iter()
        .map(|(side, _, _)| {
            let units = state.units.iter().filter(|u| &u.side == side && u.fights());
            let (standing, all) = units.fold((0, 0), |(a, n), u| {
                (a + (u.alive() && !u.routing) as u32, n + 1)
            });
            format!(
                "{}: {standing} of {all} units standing; {} points (objectives and prisoners).",
                state.side_name(side),
                score.get(side).copied().unwrap_or(0)
            )
        })
        .collect();
    out.push(if held.is_empty() {
        "No objective is held by one side alone.".to_string()
    } else {
        format!("Objectives: {}.", held.join(", "))
    });
    out.push(format!(
        "A side alone standing wins at once; after turn {} the most points win (R21).",
        state.turns
    ));
    out
}

/// Units a seat must be asked about in the combat step (no standing order covers them).
pub fn combat_questions(state: &State, seat: &str) -> Vec<String> {
    let mut out = Vec::new();
    for u in state.seat_units(seat) {
        if u.hidden {
            let near = state
                .enemies_of(u)
                .any(|e| !e.hidden && state.gap(u, e) <= u.long);
            if near && u.standing.ambush.is_none() {
                out.push(format!(
                    "{0}: reveal and fire (REVEAL {0}, or FIRE {0} AT a unit), or stay hidden (silence)?",
                    u.name
                ));
            }
            continue;
        }
        if let Some(g) = &u.gun {
            let any = state
                .enemies_of(u)
                .any(|e| !e.hidden && (g.range_min..=g.range_max).contains(&dist(u.pos, e.pos)));
            if any && g.ammo > 0 && u.standing.target_nearest.is_none() {
                out.push(format!("{}: aim point (FIRE {} AT x,y)?", u.name, u.name));
            }
            continue;
        }
        if !u.melee.is_empty() {
            if u.standing.prisoners.is_none() {
                out.push(format!(
                    "{0}: take prisoners (PRISONERS {0}; silence takes none)?",
                    u.name
                ));
            }
            continue;
        }
        // A windwagon's crew does not shoot (L12, R38): nothing to ask.
        if u.arm == Arm::Windwagon {
            continue;
        }
        if u.standing.target_nearest.is_none() && !u.routing && nearest_target(state, u).is_some() {
            out.push(format!(
                "{0}: target (FIRE {0} AT a unit, or FIRE {0} NONE; silence fires at the nearest)?",
                u.name
            ));
        }
    }
    out
}
