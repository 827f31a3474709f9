//! The Fire Chart at work (fire strength, column shifts, the roll) and what casualties do:
//! losses off the largest unit first, eliminations with their leaders, surrenders.

use crate::rulesets::kit::roster::{Roster, TwoSides};

use super::*;

/// The fire strength of units firing together (Fire Chart strength).
pub fn fire_strength(st: &LbState, firers: &[&Unit]) -> f64 {
    let s = &st.data.fire.shifts;
    firers
        .iter()
        .filter(|u| u.fighting())
        .map(|u| {
            let per = st.data.class(&u.class).map_or(0.0, |c| c.fire.get());
            let f = match u.formation {
                Formation::Column => s.column_factor.get(),
                Formation::Square | Formation::RallyingSquare => s.square_factor.get(),
                Formation::Skirmish => s.skirmish_factor.get(),
                Formation::Limbered => 0.0,
                _ => 1.0,
            };
            per * f64::from(u.increments) * f
        })
        .sum()
}

/// Column shifts of fire from `firers` at the stack in `target` (range, target formation and
/// terrain, disorder); `canister` adds the seed's two columns right (p.2 NOTE).
pub fn fire_shift(
    st: &LbState,
    firers: &[&Unit],
    target: Hex,
    canister: bool,
) -> (i32, Vec<String>) {
    let s = &st.data.fire.shifts;
    let mut shift = 0;
    let mut why = Vec::new();
    let mut push = |v: i32, w: &str| {
        if v != 0 {
            shift += v;
            why.push(format!("{v:+} {w}"));
        }
    };
    let Some(first) = firers.first() else {
        return (0, why);
    };
    let range = first.hex.distance(target);
    let reach = st
        .data
        .class(&first.class)
        .map_or(1, |c| c.range.int().max(1)) as u32;
    if range <= 1 {
        push(s.point_blank.int(), "point blank");
    } else if range * 2 > reach {
        push(s.long_range.int(), "long range");
    }
    if canister {
        push(st.data.rules.canister_shift.int(), "canister");
    }
    let stack = st.at(target);
    match stack.first().map(|u| u.formation) {
        Some(Formation::Square | Formation::RallyingSquare) => {
            push(s.target_square.int(), "target in square")
        }
        Some(Formation::Column) => push(s.target_column.int(), "target in column"),
        Some(Formation::Skirmish) => push(s.target_skirmish.int(), "target in skirmish order"),
        Some(Formation::Limbered) => push(s.target_limbered.int(), "target limbered"),
        _ => {}
    }
    let t = st.data.terrain(st.terrain_at(target)).fire_shift.int();
    push(t, st.terrain_at(target));
    if firers.iter().any(|u| u.cohesion == Cohesion::Disordered) {
        push(s.disordered_firer.int(), "disordered firers");
    }
    (shift, why)
}

/// Casualties (increments) from one fire: strength × `mult`, the column shifted, one die.
/// Logged; the caller applies them. Too weak for the first column: no die, no effect.
pub fn fire(
    st: &mut LbState,
    r: &mut dyn Roller,
    label: String,
    firers: &[String],
    target: Hex,
    mult: u32,
    canister: bool,
) -> u32 {
    let units: Vec<Unit> = firers.iter().filter_map(|n| st.unit(n).cloned()).collect();
    let refs: Vec<&Unit> = units.iter().collect();
    let strength = fire_strength(st, &refs) * f64::from(mult.max(1));
    let (shift, why) = fire_shift(st, &refs, target, canister);
    let strengths = st.data.fire.strengths.get();
    let base = strengths.iter().rposition(|s| strength >= *s - 1e-9);
    let last = strengths.len() as i32 - 1;
    let col = base.map(|b| (b as i32 + shift).min(last));
    let shown = crate::rulesets::kit::grammar::tenths(strength);
    let Some(col) = col.filter(|c| *c >= 0) else {
        // Below the Fire Chart's first column after the shifts: the fire has no effect.
        st.say(format!(
            "{label}: strength {shown}{} is off the Fire Chart: no effect.",
            if shift != 0 {
                format!(" ({shift:+} columns)")
            } else {
                String::new()
            }
        ));
        return 0;
    };
    let die = r.roll(label.clone(), 6, 1)[0];
    let n = st.data.fire.results.get()[col as usize][(die - 1) as usize];
    let shifts = if why.is_empty() {
        String::new()
    } else {
        format!(" ({})", why.join(", "))
    };
    st.say(format!(
        "{label}: strength {shown}{}, column {}{shifts}, rolled {die}: {n} casualt{}.",
        if mult > 1 {
            format!(" (x{mult})")
        } else {
            String::new()
        },
        col + 1,
        if n == 1 { "y" } else { "ies" }
    ));
    n
}

/// Takes `n` increments from the units of `stack`, the largest first (R14); units reduced to
/// nothing are eliminated. The other side is credited. Returns the units eliminated.
pub fn take_losses(st: &mut LbState, stack: &[String], n: u32) -> Vec<String> {
    let mut gone = Vec::new();
    for _ in 0..n {
        let pick = stack
            .iter()
            .filter_map(|x| st.unit(x))
            .filter(|u| u.alive() && u.increments > 0)
            .max_by_key(|u| (u.increments, std::cmp::Reverse(u.name.clone())))
            .map(|u| u.name.clone());
        let Some(name) = pick else { break };
        let u = st.unit_mut(&name).expect("picked");
        u.increments -= 1;
        let side = u.side.clone();
        if u.increments == 0 {
            u.eliminated = true;
            gone.push(name);
        }
        let enemy = st.enemy_of(&side).unwrap_or_default().to_string();
        if let Some(s) = st.side_mut(&enemy) {
            s.increments_taken += 1;
        }
    }
    for g in &gone {
        eliminated(st, g);
    }
    gone
}

/// A unit leaves the map: its markers go, and its leaders ride to the nearest friendly unit or
/// are lost (R16).
pub fn eliminated(st: &mut LbState, name: &str) {
    let Some(u) = st.unit_mut(name) else { return };
    u.eliminated = true;
    u.number = None;
    u.firefight = false;
    let (side, hex) = (u.side.clone(), u.hex);
    st.say(format!("{name} is eliminated."));
    let next = st
        .units
        .iter()
        .filter(|x| x.side == side && x.fighting() && x.name != name)
        .min_by_key(|x| (x.hex.distance(hex), x.name.clone()))
        .map(|x| x.name.clone());
    let mut rides = Vec::new();
    for l in st.leaders.iter_mut().filter(|l| l.with == name && !l.gone) {
        match &next {
            Some(n) => {
                l.with = n.clone();
                rides.push(format!("{} rides to {n}.", l.name));
            }
            None => {
                l.gone = true;
                rides.push(format!("{} is lost.", l.name));
            }
        }
    }
    // The leader's new place is on the map; the log says how he got there (R16).
    for line in rides {
        st.say(line);
    }
}

/// Surrender: every unit of the stack is removed; its increments count for the enemy.
pub fn surrender(st: &mut LbState, units: &[String]) {
    for n in units {
        let Some(u) = st.unit(n) else { continue };
        if !u.alive() {
            continue;
        }
        let (inc, side) = (u.increments, u.side.clone());
        let enemy = st.enemy_of(&side).unwrap_or_default().to_string();
        if let Some(s) = st.side_mut(&enemy) {
            s.increments_taken += inc;
        }
        eliminated(st, n);
    }
}
