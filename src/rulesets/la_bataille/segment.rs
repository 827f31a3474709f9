//! The Fire Segment (R18) and the end of a player turn: the rally (R20), the next player
//! turn or game turn, and victory (R34). The maneuver orders and the mêlées are `turn`'s; the
//! end of a player turn says what comes next as a `Next`, and only the sequence of play
//! (`procedure`) follows it.

use std::collections::BTreeSet;

use crate::engine::Outcome;
use crate::engine::procedure::Next;
use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::combat::join;
use super::data::Arm;
use super::field;
use super::movement::{self, engaged};
use super::roll::{self, Roller};
use super::state::{CStage, Cohesion, Fatigue, LbState, Phase, Segment};

/// The Fire Segment (R18): every unit that may fire does, the phasing player's at the targets
/// it named, everyone else at the nearest enemy; assaulting units, their targets and units in a
/// firefight do not fire (p.1). Fire is simultaneous; casualties cost a morale check.
pub fn fire_segment(st: &mut LbState, r: &mut dyn Roller) {
    let plan = std::mem::take(&mut st.fire_plan);
    let mut shots: Vec<(Vec<String>, crate::board::hex::Hex, u32)> = Vec::new();
    let mut firing_hexes: Vec<(crate::board::hex::Hex, crate::board::hex::Hex)> = Vec::new();
    let order: Vec<String> = st
        .units
        .iter()
        .filter(|u| u.side == st.phasing)
        .chain(st.units.iter().filter(|u| u.side != st.phasing))
        .map(|u| u.name.clone())
        .collect();
    for n in order {
        let u = st.unit(&n).cloned().expect("listed");
        if movement::engaged(st, &u) {
            continue;
        }
        let planned = plan.iter().find(|(f, _)| *f == n).map(|p| p.1);
        let planned = match planned {
            Some(t)
                if st.at(t).iter().any(|x| x.side != u.side && x.fighting())
                    && movement::may_fire(st, &u, t, None) =>
            {
                Some(t)
            }
            Some(t) => {
                // Say why the named target was not taken, so the player is not left guessing.
                st.say(format!(
                    "{n} cannot fire at {} (no enemy there it may reach, face and see): it fires at the nearest enemy it may, if any.",
                    st.label(t)
                ));
                None
            }
            None => None,
        };
        let target = planned.or_else(|| {
            st.units
                .iter()
                .filter(|e| {
                    e.side != u.side && e.fighting() && movement::may_fire(st, &u, e.hex, None)
                })
                .min_by_key(|e| (e.hex.distance(u.hex), e.name.clone()))
                .map(|e| e.hex)
        });
        let Some(t) = target else { continue };
        if let Some((_, _, _)) = shots.iter().find(|s| s.0.contains(&n)) {
            continue;
        }
        match firing_hexes
            .iter()
            .position(|(from, to)| *from == u.hex && *to == t)
        {
            Some(i) => shots[i].0.push(n),
            None => {
                firing_hexes.push((u.hex, t));
                shots.push((vec![n], t, 0));
            }
        }
    }
    if shots.is_empty() {
        return;
    }
    st.say("Fire Segment.");
    for s in shots.iter_mut() {
        let from = st.unit(&s.0[0]).map(|u| u.hex);
        let canister = from.is_some_and(|f| f.distance(s.1) == 1)
            && s.0
                .iter()
                .any(|n| st.unit(n).is_some_and(|u| u.arm == Arm::Artillery));
        let label = format!("Fire of {} at {}", join(&s.0), st.label(s.1));
        s.2 = super::combat::fire(st, r, label, &s.0, s.1, 1, canister);
    }
    let mut hit: Vec<crate::board::hex::Hex> = Vec::new();
    for (firers, t, n) in &shots {
        movement::spend_ammo(st, firers);
        if *n > 0 {
            let stack: Vec<String> = st
                .at(*t)
                .iter()
                .filter(|u| u.fighting())
                .map(|u| u.name.clone())
                .collect();
            super::combat::take_losses(st, &stack, *n);
            if !hit.contains(t) {
                hit.push(*t);
            }
        }
    }
    for t in hit {
        let stack: Vec<String> = st
            .at(t)
            .iter()
            .filter(|u| u.fighting())
            .map(|u| u.name.clone())
            .collect();
        movement::fire_morale(st, r, &stack);
    }
}

/// The Rally (R20), the last of the player turn: the phasing side's routed units out of enemy
/// Zones of Influence may rally. It rolls, so it runs in the step whose agenda ends the player
/// turn; the dice-free rest is `end_player_turn`.
pub fn rally_segment(st: &mut LbState, r: &mut dyn Roller) {
    st.segment = Segment::Rally;
    let side = st.phasing.clone();
    rally(st, r, &side);
}

/// The rally at the end of a side's player turn (R20): routed units out of enemy Zones of
/// Influence test to rally (to Disordered); Disordered units out of them recover good order.
pub fn rally(st: &mut LbState, r: &mut dyn Roller, side: &str) {
    let names: Vec<String> = st
        .units
        .iter()
        .filter(|u| u.side == side && u.alive())
        .map(|u| u.name.clone())
        .collect();
    let mut recovered = BTreeSet::new();
    for n in names {
        let u = st.unit(&n).cloned().expect("listed");
        if field::enemy_zoi(st, side, u.hex) || u.firefight || engaged(st, &u) {
            continue;
        }
        match u.cohesion {
            Cohesion::Routed => {
                let m = st.data.rules.rally_modifier.int();
                let label = format!("Rally of {n}");
                let dice = st.data.rules.morale_dice.int().max(1) as u32;
                let c = roll::check(r, label.clone(), dice, u.morale as i32, m);
                st.say(format!("{label}: {}.", c.show()));
                if c.pass
                    && let Some(x) = st.unit_mut(&n)
                {
                    x.cohesion = Cohesion::Disordered;
                }
            }
            Cohesion::Disordered => {
                if let Some(x) = st.unit_mut(&n) {
                    x.cohesion = Cohesion::GoodOrder;
                }
                recovered.insert(n);
            }
            Cohesion::GoodOrder => {}
        }
    }
    if !recovered.is_empty() {
        let v: Vec<String> = recovered.into_iter().collect();
        st.say(format!("{} recover good order.", join(&v)));
    }
}

/// The end of a player turn (the sequence of play's end of turn): objectives taken (R34), the
/// side wiped out (R34), then the next player turn, or the next game turn, or the last turn's
/// victory (R34). Rolls nothing.
pub fn end_player_turn(st: &mut LbState) -> Next<Phase> {
    for u in st.units.iter_mut() {
        u.mp_spent = 0;
        u.fired = false;
        u.exploiting = false;
    }
    st.started.clear();
    st.fire_plan.clear();
    st.charges.retain(|c| c.stage != CStage::Over);
    take_objectives(st);
    check_end(st);
    if let Some(o) = &st.outcome {
        return Next::GameOver(o.clone());
    }
    let first = st.seat_order_first();
    if st.player_turn == 1 {
        st.player_turn = 2;
        st.phasing = st.enemy_of(&first).unwrap_or_default().to_string();
    } else {
        // The end of the game turn: Charge markers come off; cavalry that did not charge rests.
        for u in st
            .units
            .iter_mut()
            .filter(|u| u.arm == Arm::Cavalry && u.alive())
        {
            if !u.charged {
                u.fatigue = match u.fatigue {
                    Fatigue::Exhausted => Fatigue::Tired,
                    _ => Fatigue::Fresh,
                };
            }
            u.charged = false;
        }
        st.turn += 1;
        st.player_turn = 1;
        st.phasing = first;
        if st.turn > st.turns {
            let o = final_outcome(st);
            st.outcome = Some(o.clone());
            st.say(format!("The battle ends: {}", o.summary));
            return Next::GameOver(o);
        }
    }
    st.say(format!(
        "Turn {}: the {} player turn begins.",
        st.turn,
        st.side_name(&st.phasing)
    ));
    st.segment = Segment::Maneuver;
    st.answer = None;
    Next::To(Phase::Maneuver {
        side: st.phasing.clone(),
    })
}

/// The game's end (the sequence of play's `game_over`): the outcome recorded, nothing left to
/// run.
pub fn game_over(st: &mut LbState, o: Outcome) {
    st.outcome = Some(o);
    st.phase = Phase::GameOver;
    st.agenda.clear();
}

impl LbState {
    /// The side whose player turn comes first in each game turn.
    pub fn seat_order_first(&self) -> String {
        self.first_side.clone()
    }
}

/// R34's "last holder": a side with a fighting unit in an objective at the end of a player
/// turn holds it until the enemy does, though it moves on; a unit only passing through in a
/// move or an advance takes nothing.
fn take_objectives(st: &mut LbState) {
    let held: Vec<Option<String>> = st
        .objectives
        .iter()
        .map(|o| {
            st.at(o.hex)
                .into_iter()
                .find(|u| u.fighting())
                .map(|u| u.side.clone())
        })
        .collect();
    for (o, side) in st.objectives.iter_mut().zip(held) {
        if let Some(side) = side {
            o.holder = side;
        }
    }
}

/// A side with nothing left on the map loses at once (R34).
pub fn check_end(st: &mut LbState) {
    for s in st.sides.clone() {
        if !st.units.iter().any(|u| u.side == s.id && u.alive()) {
            let winner = st.enemy_of(&s.id).unwrap_or_default().to_string();
            let winners = vec![winner];
            let words = result_words(st, &winners);
            st.outcome = Some(Outcome {
                summary: format!("the {} have no unit left on the field; {words}.", s.name),
                winners,
            });
        }
    }
}

/// Victory points (R34): enemy increments eliminated, and each objective to the side holding it
/// (a fighting unit in it, else its last holder, `take_objectives`).
pub fn victory_points(st: &LbState) -> Vec<(String, u32)> {
    let per = st.data.rules.vp_per_increment.int().max(0) as u32;
    st.sides
        .iter()
        .map(|s| {
            let mut vp = s.increments_taken * per;
            for o in &st.objectives {
                let here: Vec<&super::state::Unit> =
                    st.at(o.hex).into_iter().filter(|u| u.fighting()).collect();
                let holder = here.first().map_or(o.holder.clone(), |u| u.side.clone());
                if holder == s.id {
                    vp += o.vp;
                }
            }
            (s.id.clone(), vp)
        })
        .collect()
}

/// R34's figures for the game-over mail: each side's victory points and how they were made.
pub fn victory_figures(st: &LbState) -> Vec<String> {
    let per = st.data.rules.vp_per_increment.int().max(0);
    let mut out: Vec<String> = victory_points(st)
        .iter()
        .map(|(side, vp)| {
            let taken = st
                .sides
                .iter()
                .find(|s| &s.id == side)
                .map_or(0, |s| s.increments_taken);
            format!(
                "{}: {vp} VP ({taken} enemy increments eliminated at {per} VP each, the rest \
                 from objectives held).",
                st.side_name(side)
            )
        })
        .collect();
    out.push(format!(
        "A side with nothing left on the field loses at once; otherwise the side ahead by at \
         least {} VP wins, else a draw (R34).",
        st.margin.max(1)
    ));
    out
}

pub fn final_outcome(st: &LbState) -> Outcome {
    let vps = victory_points(st);
    let text: Vec<String> = vps
        .iter()
        .map(|(s, v)| format!("{} {v} VP", st.side_name(s)))
        .collect();
    let (a, b) = (&vps[0], &vps[1]);
    let winners = if a.1 >= b.1 + st.margin.max(1) {
        vec![a.0.clone()]
    } else if b.1 >= a.1 + st.margin.max(1) {
        vec![b.0.clone()]
    } else {
        vec![]
    };
    let words = result_words(st, &winners);
    Outcome {
        summary: format!("{}; {words}.", text.join(", ")),
        winners,
    }
}

/// An outcome's result in R34's words, which its summary ends with and the game-over subject
/// says: "the Allies win" (side names are plural), or "a draw" when nobody won.
pub fn result_words(st: &LbState, winners: &[String]) -> String {
    match winners.first() {
        Some(w) => format!("the {} win", st.side_name(w)),
        None => "a draw".into(),
    }
}
