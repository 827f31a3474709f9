//! The end of a melee turn (L6–L7): each side stays or leaves, the 1d6 roll-off, the retreat
//! criteria (R13, R20) and the retreat itself. It rolls no attack.

use std::collections::BTreeMap;

use crate::board::tabletop::{Pt, bearing, normalize};
use crate::dice::{Dice, Faces};
use crate::engine::Submitted;
use crate::rulesets::kit::grammar::tenths;

use super::in_force::apply_standing;
use super::movement::{allowance, walk};
use super::orders::{Order, Orders};
use super::state::{Form, State, Unit};

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// End of the turn in melee: stay or leave, the roll-off, and who retreats (L6–L7).
pub fn resolve_melee_end(
    state: &mut State,
    subs: &BTreeMap<String, Submitted<Orders>>,
    dice: &mut Dice,
) {
    let wish = wishes(state, subs);
    let mut pairs = Vec::new();
    for u in state.units.iter().filter(|u| u.alive()) {
        for e in &u.melee {
            if u.name < *e {
                pairs.push((u.name.clone(), e.clone()));
            }
        }
    }
    for (a, b) in pairs {
        end_pair(state, &wish, &a, &b, dice);
    }
    for u in state.units.iter_mut() {
        u.melee_new = false;
        if u.melee.is_empty() {
            u.charged = false;
        }
    }
}

/// What each seat declared for its units in melee: STAY (true) or LEAVE (false). Standing
/// orders are applied on the way.
fn wishes(state: &mut State, subs: &BTreeMap<String, Submitted<Orders>>) -> BTreeMap<String, bool> {
    let mut wish: BTreeMap<String, bool> = BTreeMap::new();
    for (seat, sub) in subs {
        if let Submitted::Orders(o) = sub {
            apply_standing(state, o);
            for ord in o {
                if let Order::Declare { unit, what } = ord
                    && state.unit(unit).is_some_and(|u| u.seat == *seat)
                {
                    match *what {
                        "STAY" => {
                            wish.insert(unit.clone(), true);
                        }
                        "LEAVE" => {
                            wish.insert(unit.clone(), false);
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    wish
}

/// One pair locked in melee: both stay, or a roll-off when one would leave (L7), and unless
/// the stayer holds, the loser by the criteria breaks off and retreats.
fn end_pair(state: &mut State, wish: &BTreeMap<String, bool>, a: &str, b: &str, dice: &mut Dice) {
    let (ua, ub) = (
        state.unit(a).expect("unit").clone(),
        state.unit(b).expect("unit").clone(),
    );
    if !ua.alive() || !ub.alive() || !ua.melee.iter().any(|m| m == b) {
        return;
    }
    // R19: silence, with no standing order, stays.
    let stay = |u: &Unit| {
        wish.get(&u.name)
            .copied()
            .or(u.standing.stay)
            .unwrap_or(true)
    };
    let (sa, sb) = (stay(&ua), stay(&ub));
    if sa && sb {
        state.say(format!("{a} and {b} stay locked in melee."));
        return;
    }
    if sa != sb {
        let (stayer, leaver) = if sa { (&ua, &ub) } else { (&ub, &ua) };
        if roll_off(state, stayer, leaver, dice) {
            return;
        }
    }
    let loser = who_retreats(&ua, &ub);
    let other = if loser == a { b } else { a };
    state.say(format!(
        "{loser} must retreat from {other} ({}).",
        retreat_reason(&ua, &ub)
    ));
    for x in [a, b] {
        let other = if x == a { b } else { a };
        state.unit_mut(x).melee.retain(|m| m != other);
    }
    if state.unit(&loser).expect("unit").melee.is_empty() {
        retreat(state, &loser, other);
    }
}

/// L7: the stayer and the leaver roll 1d6 each, the one with fewer stands adding its bonus;
/// whether the stayer won and holds the leaver in the melee.
fn roll_off(state: &mut State, stayer: &Unit, leaver: &Unit, dice: &mut Dice) -> bool {
    let turn = state.turn;
    let rs = dice.roll_one(
        format!("turn {turn} {} stays in melee (d6)", stayer.name),
        Faces::d(6),
    );
    let rl = dice.roll_one(
        format!("turn {turn} {} leaves melee (d6)", leaver.name),
        Faces::d(6),
    );
    let bonus = state.data.rules.retreat_fewer_stands_bonus.get() as u32;
    let (fs, fl) = (stayer.figures.len(), leaver.figures.len());
    let (s, l) = (
        rs + if fs < fl { bonus } else { 0 },
        rl + if fl < fs { bonus } else { 0 },
    );
    state.say(format!(
        "Roll-off: {} (stays) {s} against {} (leaves) {l}.",
        stayer.name, leaver.name
    ));
    if s > l {
        state.say(format!(
            "{} holds {} in the melee.",
            stayer.name, leaver.name
        ));
    }
    s > l
}

/// Who retreats (L7 criteria; R20 stands in for the lost criterion 1).
pub fn who_retreats(a: &Unit, b: &Unit) -> String {
    retreat_rule(a, b).0
}

fn retreat_reason(a: &Unit, b: &Unit) -> &'static str {
    retreat_rule(a, b).1
}

fn retreat_rule(a: &Unit, b: &Unit) -> (String, &'static str) {
    if a.routing != b.routing {
        let r = if a.routing { a } else { b };
        return (r.name.clone(), "criterion 1: it is routing");
    }
    let (na, nb) = (a.figures.len(), b.figures.len());
    if na * 2 <= nb {
        return (a.name.clone(), "criterion 2: half the stands or fewer");
    }
    if nb * 2 <= na {
        return (b.name.clone(), "criterion 2: half the stands or fewer");
    }
    if a.lost_this_turn != b.lost_this_turn {
        let r = if a.lost_this_turn > b.lost_this_turn {
            a
        } else {
            b
        };
        return (r.name.clone(), "criterion 3: it lost more figures");
    }
    // Criterion 4: the original holder of the position (the one charged) gives way.
    // Neither (or both) charged: the first by name, so the rule never depends on seat order.
    let r = match (a.charged, b.charged) {
        (true, false) => b,
        (false, true) => a,
        _ if a.name < b.name => a,
        _ => b,
    };
    (
        r.name.clone(),
        "criterion 4: the holder of the position gives way",
    )
}

/// A full column move away, ending in line facing the enemy (L7).
fn retreat(state: &mut State, name: &str, from: &str) {
    let u = state.unit(name).expect("unit").clone();
    let inches = allowance(state, &u, true);
    let enemy = state.unit(from).map(|e| e.pos).unwrap_or(u.pos);
    let heading = bearing(enemy, u.pos);
    let to = u.pos.offset(heading, inches);
    state.unit_mut(name).form = Form::Column;
    walk(state, name, &[to], inches, false, None, Some(heading));
    let m = state.unit_mut(name);
    m.form = Form::Line;
    m.facing = normalize(heading + 180.0);
    let p = m.pos;
    state.say(format!(
        "{name} retreats to {}, in line facing the enemy.",
        at(p)
    ));
}
