//! Phases III–VII and the end of the game (bridge rules for the seed's lost §11–19):
//! clean-up, recombination, the attacker's score and victory (R25). It reports whether the
//! mission is over; what follows (game over, or the next turn's Initiative) is the sequence
//! of play's to say (`procedure`).

use crate::dice::{Dice, Faces};
use crate::engine::Outcome;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::concealment;
use super::data::Kind;
use super::state::{LhyState, Motion, Place};
use super::{assault, platoon, resolution};

// ---------------------------------------------------------------- Phases III–VII

/// Phases III–VII, all without mail; the outcome when the victory check ends the mission.
pub(super) fn end_turn(s: &mut LhyState, dice: &mut Dice) -> Option<Outcome> {
    s.turn.cycle = None;
    s.public("Fire Resolution Phase.");
    resolution::phase(s, dice);
    if !s.assaults.is_empty() {
        s.public("Assault Resolution Phase.");
        assault::phase(s, dice);
    }
    // V step 1: MDRM and Smoke markers come off (§5.0 V.1).
    s.markers.clear();
    if !s.smoke.is_empty() {
        s.smoke.clear();
        s.public("Mortar Fire Adjustment: the Smoke markers are removed.");
    }
    // VI: Time Lapse, rolled by the active player.
    let active = s.turn.active.clone();
    let roll = dice.roll_one(format!("{active}: Time Lapse"), Faces::d(10));
    let minutes = s.data.tables.time_lapse.get()[(roll as usize - 1).min(9)];
    s.elapsed += minutes;
    s.public(format!(
        "Time Lapse: {roll}, {minutes} minutes pass ({} of {}).",
        s.elapsed, s.minutes
    ));
    clean_up(s);
    recombine(s, dice);
    victory(s);
    s.outcome.clone()
}

fn clean_up(s: &mut LhyState) {
    for u in s.units.iter_mut() {
        // 1: vehicles that took no action lose their Motion marker (R15).
        if u.vehicle() && u.done.is_none() {
            u.motion = Motion::Stationary;
        }
        // 2: leaders called away return.
        if u.place == Place::Away {
            u.place = Place::Map;
        }
        // R14: a Heroic unit that acted loses the state.
        if u.heroic && u.done.is_some() {
            u.heroic = false;
        }
        // 5: counters are turned back.
        u.done = None;
        u.started = false;
        u.stopped = false;
        u.overran = false;
    }
    // 4: units out of enemy LOS may conceal.
    concealment::gain(s);
    s.queries.clear();
    // Objectives: held by the side that alone has real units there (R25).
    for i in 0..s.objectives.len() {
        let h = s.objectives[i].hex;
        let there: Vec<String> = s
            .seat_order
            .iter()
            .filter(|side| s.occupied_by(h, side))
            .cloned()
            .collect();
        if there.len() == 1 {
            s.objectives[i].held_by = Some(there[0].clone());
        }
    }
}

/// Clean Up step 3 (§10.3.3): two sections of a platoon in one hex, both disrupted or both
/// not, become a squad of that platoon drawn at random from those not in play, unless the
/// owner has sent `SET RECOMBINE OFF`.
fn recombine(s: &mut LhyState, dice: &mut Dice) {
    for side in s.seat_order.clone() {
        if !s.side(&side).is_some_and(|x| x.recombine) {
            continue;
        }
        let platoons: Vec<String> = s
            .platoons
            .iter()
            .filter(|p| p.side == side)
            .map(|p| p.id.clone())
            .collect();
        for p in platoons {
            loop {
                let secs: Vec<super::state::Unit> = s
                    .on_map()
                    .filter(|u| {
                        u.kind == Kind::Section
                            && u.aboard.is_none()
                            && u.platoon.as_deref() == Some(p.as_str())
                    })
                    .cloned()
                    .collect();
                let pair = secs.iter().enumerate().find_map(|(i, a)| {
                    secs[i + 1..]
                        .iter()
                        .find(|b| b.at == a.at && b.disrupted() == a.disrupted())
                        .map(|b| (a.name.clone(), b.name.clone(), a.at))
                });
                let Some((a, b, at)) = pair else { break };
                let pool: Vec<String> = platoon::pool_of(s, &p, Kind::Squad)
                    .iter()
                    .map(|u| u.name.clone())
                    .collect();
                let squad = match pool.len() {
                    0 => break,
                    1 => pool[0].clone(),
                    n => {
                        let i = dice.roll_one(format!("{side}: squad drawn"), Faces::d(n as u32));
                        pool[(i as usize - 1).min(n - 1)].clone()
                    }
                };
                platoon::replace(s, &[a.clone(), b.clone()], std::slice::from_ref(&squad));
                s.private(&side, format!("{a} and {b} recombine into {squad}."));
                if s.unit(&squad).is_some_and(|u| !u.concealed) {
                    s.public(format!(
                        "{}: two sections recombine into {squad}.",
                        s.name_of(at)
                    ));
                }
            }
        }
    }
}

/// The attacker's score: objective points held, plus the casualty differential (R25).
pub fn score(s: &LhyState) -> i32 {
    let Some(att) = s.sides.iter().find(|x| x.attacker) else {
        return 0;
    };
    let def = s.enemy_of(&att.id).unwrap_or_default().to_string();
    let objectives: i32 = s
        .objectives
        .iter()
        .filter(|o| o.held_by.as_deref() == Some(att.id.as_str()))
        .map(|o| o.points)
        .sum();
    let theirs = s.side(&def).map_or(0, |x| x.casualties) as i32;
    objectives + theirs - att.casualties as i32
}

/// R25's figures for the game-over mail: objectives, casualties, the score and the CDL.
pub fn victory_figures(s: &LhyState) -> Vec<String> {
    let Some(att) = s.sides.iter().find(|x| x.attacker) else {
        return Vec::new();
    };
    let def = s.enemy_of(&att.id).unwrap_or_default().to_string();
    let def_side = s.side(&def);
    let held: Vec<String> = s
        .objectives
        .iter()
        .filter(|o| o.held_by.as_deref() == Some(att.id.as_str()))
        .map(|o| format!("{} ({} pts)", o.name, o.points))
        .collect();
    vec![
        format!(
            "Objectives held by the attacker ({}): {}.",
            att.name,
            if held.is_empty() {
                "none".to_string()
            } else {
                held.join(", ")
            }
        ),
        format!(
            "Casualties: attacker {}, defender ({}) {}; the game ends early if the attacker's \
             exceed the defender's by the Casualty Differential Limit, {}.",
            att.casualties,
            def_side.map_or(def.clone(), |x| x.name.clone()),
            def_side.map_or(0, |x| x.casualties),
            s.cdl
        ),
        format!(
            "Attacker's score (objectives + defender's casualties - attacker's): {}; turn {} of \
             {}, {} of {} minutes elapsed.",
            score(s),
            s.turn.number,
            s.max_turns,
            s.elapsed,
            s.minutes
        ),
    ]
}

/// §18 bridge (R25): the game ends at the turn limit, when the Time Lapse track reaches the
/// mission's minutes, or when the attacker's losses pass the defender's by the CDL.
pub fn victory(s: &mut LhyState) {
    let Some(att) = s.sides.iter().find(|x| x.attacker).cloned() else {
        return;
    };
    let def = s.enemy_of(&att.id).unwrap_or_default().to_string();
    let diff = att.casualties as i32 - s.side(&def).map_or(0, |x| x.casualties) as i32;
    let cdl = diff >= s.cdl as i32 && s.cdl > 0;
    let alive = |side: &str| {
        s.on_map()
            .any(|u| u.side == side && !u.dummy() && u.kind.combat())
    };
    let wiped = !alive(&att.id) || !alive(&def);
    if !(cdl || wiped || s.turn.number >= s.max_turns || s.elapsed >= s.minutes) {
        return;
    }
    let sc = score(s);
    let (winners, words, why) = if cdl {
        // The defender wins: in the words of the mission's best level for him.
        let words = s
            .levels
            .iter()
            .rev()
            .find(|l| l.winner == def)
            .map_or_else(|| format!("{} wins", s.side_name(&def)), |l| l.name.clone());
        (
            vec![def.clone()],
            words,
            format!(
                "the attacker's losses reached the Casualty Differential Limit ({}, R37)",
                s.cdl
            ),
        )
    } else {
        let level = s
            .levels
            .iter()
            .find(|l| sc >= l.at_least)
            .or(s.levels.last());
        let words = level.map(|l| l.name.clone()).unwrap_or_default();
        let winners = match level.map(|l| l.winner.as_str()) {
            Some("draw") => vec![],
            // States saved before levels named their winner: the sign of the score.
            Some("") | None => match sc.cmp(&0) {
                std::cmp::Ordering::Greater => vec![att.id.clone()],
                std::cmp::Ordering::Less => vec![def.clone()],
                std::cmp::Ordering::Equal => vec![],
            },
            Some(w) => vec![w.to_string()],
        };
        (winners, words.clone(), words)
    };
    let summary = if why == words {
        format!(
            "{} after game turn {}: attacker's score {sc}: {words}.",
            s.scenario, s.turn.number
        )
    } else {
        format!(
            "{} after game turn {}: attacker's score {sc}: {words} ({why}).",
            s.scenario, s.turn.number
        )
    };
    s.public(summary.clone());
    s.result = Some(words);
    s.outcome = Some(Outcome { winners, summary });
}
