//! A windwagon under sail (L11, R15, R36, R37): its base move from the wind, the 3d6 ground
//! table (veer, jolt casualty), the halting third, and where it must stop short. Its
//! passengers ride along. It parses nothing and asks no one.

use crate::board::tabletop::{Pt, heading_diff, normalize};
use crate::dice::{Dice, Faces};
use crate::rulesets::kit::grammar::tenths;

use super::movement::{STEP, reveal_near};
use super::state::State;

fn at(p: Pt) -> String {
    format!("{},{}", tenths(p.x), tenths(p.y))
}

/// The windwagon's base move from the wind (L11, R15): tier = (3 − speed) + orientation − 1.
pub fn wagon_base(state: &State, heading: f64) -> f64 {
    let r = &state.data.rules;
    let (Some(w), Some(orientation)) = (&state.wind, orientation(state, heading)) else {
        return r.wagon_worst.get();
    };
    let tier = (3 - w.speed.clamp(1, 3)) + orientation - 1;
    [
        r.wagon_best.get(),
        r.wagon_second.get(),
        r.wagon_third.get(),
        r.wagon_fourth.get(),
        r.wagon_worst.get(),
    ][tier as usize]
}

/// The heading's orientation to the wind (R15): 1 within 60° of downwind, 2 across, 3 beyond
/// 120°; none without wind.
fn orientation(state: &State, heading: f64) -> Option<u32> {
    let w = state.wind.as_ref()?;
    let off = heading_diff(normalize(w.from + 180.0), heading).abs();
    Some(if off <= 60.0 {
        1
    } else if off <= 120.0 {
        2
    } else {
        3
    })
}

/// The 3d6 ground table (L11): inches added and whether it veers and may lose a figure.
pub fn ground_table(roll: u32) -> (f64, bool, bool) {
    match roll {
        3..=4 => (-8.0, true, true),
        5 => (-6.0, true, true),
        6 => (-4.0, true, false),
        7 => (-2.0, false, false),
        8..=12 => (0.0, false, false),
        13..=15 => (2.0, false, false),
        _ => (4.0, false, false),
    }
}

/// A windwagon sails on `heading` (intent declared before the roll, L11).
pub fn sail(state: &mut State, name: &str, heading: f64, stopping: bool, dice: &mut Dice) {
    let u = state.unit(name).expect("unit").clone();
    let base = wagon_base(state, heading);
    let min = base * state.data.rules.wagon_min_fraction.get();
    if stopping && u.last_third {
        state.unit_mut(name).stopping = true;
        state.say(format!("{name} stops."));
        super::wagons::end_stop(state, name);
        return;
    }
    let turn = state.turn;
    let pips = dice.roll(format!("turn {turn} {name} ground (3d6)"), Faces::d(6), 3);
    let roll: u32 = pips.iter().sum();
    let (delta, veer, hurt) = ground_table(roll);
    let mut inches = if stopping {
        min
    } else {
        (base + delta).max(min)
    };
    let mut h = heading;
    if veer {
        let side = dice.roll_one(
            format!("turn {turn} {name} veers left (1-3) or right (4-6)"),
            Faces::d(6),
        );
        h = normalize(heading + if side <= 3 { -45.0 } else { 45.0 });
    }
    if hurt {
        let c = dice.roll_one(
            format!("turn {turn} {name} jolt casualty (d6)"),
            Faces::d(6),
        );
        if c <= state.data.rules.wagon_casualty_on.get() as u32 {
            super::combat::lose_without_hits(state, name, 1, dice);
        }
    }
    // L11: not into woods, hills, towns or rocky ground: it stops at the edge.
    let from = u.pos;
    let mut to = from.offset(h, inches);
    let n = (inches / STEP).ceil() as usize;
    // What stopped it short, for the log (R37).
    let mut halted_by = None;
    for k in 1..=n {
        let p = from.offset(h, (k as f64 * STEP).min(inches));
        let ground = ["woods", "hill", "farm", "rough"]
            .into_iter()
            .find(|g| state.in_area(g, p));
        let edge = p.x < 0.0 || p.y < 0.0 || p.x > state.width || p.y > state.height;
        if ground.is_some() || edge {
            to = from.offset(h, ((k - 1) as f64 * STEP).max(0.0));
            inches = (k - 1) as f64 * STEP;
            halted_by = Some(match ground {
                Some(g) => format!(" (it stops at the edge of the {g})"),
                None => " (it stops at the table's edge)".to_string(),
            });
            break;
        }
    }
    let turn = state.turn;
    let m = state.unit_mut(name);
    m.pos = to;
    m.facing = h;
    m.last_third = inches <= min + 1e-9;
    m.stopping = false;
    m.halted = false;
    if inches > 0.0 {
        m.moved_turn = turn;
    }
    // The point of sailing as a sailor says it; the tier it gives is R15's.
    let point = match orientation(state, heading) {
        _ if stopping => "to a stop",
        Some(1) => "before the wind",
        Some(2) => "across the wind",
        Some(_) => "into the wind",
        None => "in a calm",
    };
    state.say(format!(
        "{name} sails {point}: ground {roll} {pips:?}, {}\" on {} to {}{}.",
        tenths(inches),
        tenths(h),
        at(to),
        halted_by.unwrap_or_default()
    ));
    super::wagons::follow(state, name);
    // R36: a third and a stop this turn halts it, where R37 allows.
    if stopping {
        super::wagons::end_stop(state, name);
    }
    reveal_near(state, name);
}
