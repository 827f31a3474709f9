//! Ships that move together (R13, R25): a battle line astern follows its lead's path, ship by
//! ship, and a flotilla keeps station on its leader; a ship that cannot keep up splits off.

use std::collections::BTreeSet;

use crate::board::tabletop::{Pt, bearing, dist};
use crate::rulesets::kit::grammar::tenths;

use super::super::data::Formation;
use super::super::state::{Group, NavalState};
use super::super::stats;
use super::lines::leave;
use super::{Plan, clamp_pt, collide, delta_for, describe, idx, immobile, log, steam};

/// Moves one battle line in line astern; returns lines split off for ships that could not copy.
pub(super) fn move_line(
    state: &mut NavalState,
    g: &Group,
    plans: &std::collections::BTreeMap<String, Plan>,
    done: &mut BTreeSet<String>,
) -> Vec<Group> {
    let mut ships: Vec<String> = g
        .ships
        .iter()
        .filter(|s| !done.contains(*s))
        .cloned()
        .collect();
    // A lead that cannot move hands the line to the next ship.
    while let Some(first) = ships.first() {
        match idx(state, first) {
            Some(i) if !immobile(state, i) => break,
            _ => {
                let n = ships.remove(0);
                leave(state, &n);
            }
        }
    }
    if ships.is_empty() {
        return vec![];
    }
    let lead = ships[0].clone();
    let Some(li) = idx(state, &lead) else {
        return vec![];
    };
    let plan = plans.get(&lead).cloned().unwrap_or_default();
    let start = state.ships[li].hull;
    let side = state.ships[li].side.clone();
    let cruise = stats::cruise(state, &side);
    let lead_max = stats::max_speed(state, &state.ships[li]);
    let hit = state.ships[li].hit_markers > 0;
    let delta = if hit {
        0.0
    } else {
        plan.turn
            .as_ref()
            .map(|b| delta_for(start.heading, b))
            .unwrap_or(0.0)
    };
    let distance = match plan.full {
        Some(Some(d)) => d.min(lead_max),
        Some(None) => lead_max,
        None if plan.halted => 0.0,
        None => cruise.min(lead_max),
    };
    done.insert(lead.clone());
    if plan.halted && plan.full.is_none() {
        state.ships[li].halted = true;
    }
    steam(state, li, delta, distance);
    describe(state, &lead, delta, distance, plan.full.is_some());
    let manoeuvred = delta.abs() > 1e-9 || plan.full.is_some();
    let mut ahead_track: Vec<Pt> = vec![start.centre];
    ahead_track.extend(state.ships[li].path.iter().skip(1).copied());
    let mut prev_start = start.centre;
    let mut split_off = Vec::new();
    for k in 1..ships.len() {
        let n = ships[k].clone();
        let Some(i) = idx(state, &n) else { continue };
        let s = &state.ships[i];
        let max_turn = stats::class_data(state, s.class).max_turn.get();
        let slow = plan.full.is_some() && stats::max_speed(state, s) + 1e-9 < distance;
        let cannot = immobile(state, i)
            || (manoeuvred && s.hit_markers > 0)
            || slow
            || delta.abs() > max_turn + 1e-9;
        if cannot {
            split_off.extend(fall_out(state, &side, &ships[k..]));
            break;
        }
        let my_start = s.hull.centre;
        let mut track = vec![my_start, prev_start];
        track.extend(ahead_track.iter().skip(1).copied());
        follow(state, i, &track, distance);
        done.insert(n.clone());
        if distance > 1e-9 {
            let h = state.ships[i].hull;
            let ahead = &ships[k - 1];
            log(
                state,
                format!(
                    "{n} follows in {ahead}'s wake to {},{} heading {}.",
                    tenths(h.centre.x),
                    tenths(h.centre.y),
                    tenths(h.heading)
                ),
            );
        }
        prev_start = my_start;
        ahead_track = vec![my_start];
        ahead_track.extend(state.ships[i].path.iter().skip(1).copied());
    }
    split_off
}

/// A ship that cannot copy her leader leaves the line with every ship astern of her (R13);
/// they form a line of their own, which makes its own move, when two or more are left.
fn fall_out(state: &mut NavalState, side: &str, rest: &[String]) -> Option<Group> {
    let n = &rest[0];
    log(state, format!("{n} cannot follow the line and leaves it."));
    for g2 in &mut state.groups {
        g2.ships.retain(|x| !rest.contains(x));
    }
    if rest.len() < 2 {
        return None;
    }
    let ng = Group {
        name: format!("{n}'s line"),
        side: side.to_string(),
        ships: rest.to_vec(),
        formation: Formation::Astern,
        flotilla: false,
    };
    state.groups.push(ng.clone());
    // The ship that could not copy makes her own compulsory move (R13) at the head.
    Some(ng)
}

/// Moves a follower `distance` along `track` (R13), turning where the track turns.
fn follow(state: &mut NavalState, i: usize, track: &[Pt], distance: f64) {
    let mut pts: Vec<Pt> = Vec::new();
    for p in track {
        if pts.last().is_none_or(|q| dist(*q, *p) > 1e-6) {
            pts.push(*p);
        }
    }
    let start = state.ships[i].hull;
    let mut path = vec![start.centre];
    let mut left = distance;
    let mut pos = start.centre;
    let mut heading = start.heading;
    for w in pts.windows(2) {
        if left <= 1e-9 {
            break;
        }
        let seg = dist(w[0], w[1]);
        if seg <= 1e-9 {
            continue;
        }
        heading = bearing(w[0], w[1]);
        if seg >= left {
            pos = Pt::new(
                w[0].x + (w[1].x - w[0].x) * left / seg,
                w[0].y + (w[1].y - w[0].y) * left / seg,
            );
            left = 0.0;
        } else {
            pos = w[1];
            left -= seg;
        }
        path.push(pos);
    }
    if left > 1e-9 {
        pos = pos.offset(heading, left);
        path.push(pos);
    }
    let (w, h) = (state.width, state.height);
    let ship = &mut state.ships[i];
    ship.hull.centre = clamp_pt(pos, w, h);
    ship.hull.heading = if distance > 1e-9 {
        heading
    } else {
        start.heading
    };
    if let Some(p) = path.last_mut() {
        *p = ship.hull.centre;
    }
    ship.path = path;
    ship.moved = distance > 1e-9;
    collide(state, i);
}

/// Moves a destroyer flotilla: every DD copies the lead's turn and distance; one that cannot
/// leaves the flotilla and moves alone.
pub(super) fn move_flotilla(
    state: &mut NavalState,
    g: &Group,
    plans: &std::collections::BTreeMap<String, Plan>,
    done: &mut BTreeSet<String>,
) -> Vec<Group> {
    let Some(lead) = g.ships.first().cloned() else {
        return vec![];
    };
    let Some(li) = idx(state, &lead) else {
        return vec![];
    };
    if immobile(state, li) {
        return vec![];
    }
    let plan = plans.get(&lead).cloned().unwrap_or_default();
    let side = state.ships[li].side.clone();
    let cruise = stats::cruise(state, &side);
    let lead_max = stats::max_speed(state, &state.ships[li]);
    let distance = match plan.full {
        Some(Some(d)) => d.min(lead_max),
        Some(None) => lead_max,
        None if plan.halted => 0.0,
        None => cruise.min(lead_max),
    };
    let manoeuvred = plan.turn.is_some() || plan.full.is_some();
    for n in g.ships.clone() {
        let Some(i) = idx(state, &n) else { continue };
        if done.contains(&n) {
            continue;
        }
        let s = &state.ships[i];
        let slow = plan.full.is_some() && stats::max_speed(state, s) + 1e-9 < distance;
        if n != lead && (immobile(state, i) || (manoeuvred && s.hit_markers > 0) || slow) {
            leave(state, &n);
            log(
                state,
                format!("{n} cannot keep with the flotilla and leaves it."),
            );
            continue;
        }
        let hit = s.hit_markers > 0;
        let max_turn = stats::class_data(state, s.class).max_turn.get();
        let delta = if hit {
            0.0
        } else {
            plan.turn
                .as_ref()
                .map(|b| delta_for(s.hull.heading, b))
                .unwrap_or(0.0)
                .clamp(-max_turn, max_turn)
        };
        done.insert(n.clone());
        if plan.halted && plan.full.is_none() {
            state.ships[i].halted = true;
        }
        steam(state, i, delta, distance);
        describe(state, &n, delta, distance, plan.full.is_some());
    }
    vec![]
}
