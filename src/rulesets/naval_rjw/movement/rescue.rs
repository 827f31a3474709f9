//! Rescue and capture (R28, R10): rescuers sent by order or by the owner's default, ships on
//! such a duty steering themselves, and the turns rescuers spend alongside.

use crate::board::tabletop::{hull_range, nearest_point_on_hull};

use super::super::state::{Fate, NavalState, RescueDuty};
use super::super::stats;
use super::lines::leave;
use super::{idx, log, steer_to};

pub(super) fn steer_rescue(state: &mut NavalState, i: usize, duty: &RescueDuty, speed: f64) {
    let name = state.ships[i].name.clone();
    if duty.turns_left.is_some() {
        log(
            state,
            format!(
                "{name} stays by the wreck of {}, picking up survivors.",
                duty.wreck
            ),
        );
        return;
    }
    let within = state.data.rules.rescue_proximity.get();
    let turns = state.data.rules.rescue_turns.get().round() as u32;
    if steer_to(state, i, duty.wreck_at, speed, within) {
        if let Some(r) = state.ships[i].rescue.as_mut() {
            r.turns_left = Some(turns);
        }
        log(
            state,
            format!(
                "{name} reaches the wreck of {} and picks up survivors.",
                duty.wreck
            ),
        );
    } else {
        log(
            state,
            format!("{name} steers for the wreck of {}.", duty.wreck),
        );
    }
}

pub(super) fn steer_capture(state: &mut NavalState, i: usize, prize: &str, speed: f64) {
    let name = state.ships[i].name.clone();
    let Some(p) = idx(state, prize) else { return };
    if state.ships[p].captured_by.as_deref() == Some(name.as_str()) {
        return;
    }
    if state.ships[p].fate != Fate::Struck {
        state.ships[i].capturing = None;
        return;
    }
    let within = state.data.rules.alongside.get();
    let target = nearest_point_on_hull(&state.ships[p].hull, state.ships[i].hull.centre);
    if steer_to(state, i, target, speed, within)
        || hull_range(&state.ships[i].hull, &state.ships[p].hull) <= within
    {
        state.ships[p].captured_by = Some(name.clone());
        log(
            state,
            format!("{name} comes alongside {prize} and takes possession of her."),
        );
    } else {
        log(state, format!("{name} steers for the prize {prize}."));
    }
}

/// Sends rescuers (R28): by order, or the nearest eligible ship(s) when the owner did not.
pub fn assign_rescue(state: &mut NavalState, side: &str, wreck: &str, with: &[String], auto: bool) {
    let Some(w) = idx(state, wreck) else { return };
    let at = state.ships[w].hull.centre;
    for r in with {
        if let Some(i) = idx(state, r) {
            leave(state, r);
            state.ships[i].rescue = Some(RescueDuty {
                wreck: wreck.to_string(),
                wreck_at: at,
                turns_left: None,
            });
        }
    }
    if let Some(f) = stats::fleet_mut(state, side) {
        f.rescue_owed.retain(|x| x != wreck);
    }
    let how = if auto {
        "is sent automatically"
    } else {
        "is sent"
    };
    let how = if with.len() > 1 {
        how.replace("is sent", "are sent")
    } else {
        how.to_string()
    };
    log(
        state,
        format!(
            "{} {how} to rescue the survivors of {wreck}.",
            with.join(" and ")
        ),
    );
}

pub(super) fn auto_rescue(state: &mut NavalState, side: &str) {
    let owed = stats::fleet(state, side)
        .map(|f| f.rescue_owed.clone())
        .unwrap_or_default();
    let radius = state.data.rules.rescue_radius.get();
    for wreck in owed {
        let Some(w) = idx(state, &wreck) else {
            continue;
        };
        let wreck_hull = state.ships[w].hull;
        let capital_wreck = state.ships[w].class.is_capital();
        let mut cands: Vec<(f64, String, bool)> = state
            .ships
            .iter()
            .filter(|s| {
                s.side == side
                    && s.fate == Fate::Afloat
                    && s.rescue.is_none()
                    && s.capturing.is_none()
                    && !s.critical_marker
                    && !s.anchored
            })
            .map(|s| {
                (
                    hull_range(&s.hull, &wreck_hull),
                    s.name.clone(),
                    s.class.is_capital(),
                )
            })
            .filter(|c| c.0 <= radius)
            .collect();
        cands.sort_by(|a, b| a.0.total_cmp(&b.0));
        let pick: Vec<String> = if !capital_wreck {
            cands.iter().take(1).map(|c| c.1.clone()).collect()
        } else if let Some(c) = cands.iter().find(|c| c.2) {
            vec![c.1.clone()]
        } else {
            cands.iter().take(2).map(|c| c.1.clone()).collect()
        };
        if pick.is_empty() {
            if let Some(f) = stats::fleet_mut(state, side) {
                f.rescue_owed.retain(|x| *x != wreck);
            }
            log(
                state,
                format!("No ship can reach the survivors of {wreck}."),
            );
            continue;
        }
        assign_rescue(state, side, &wreck, &pick, true);
    }
}

/// Step 7 companion: rescuers already alongside count down their owner's turns (R28).
pub fn rescue_countdown(state: &mut NavalState, side: &str) {
    let mut freed = Vec::new();
    for s in state
        .ships
        .iter_mut()
        .filter(|s| s.side == side && s.fate == Fate::Afloat)
    {
        let arrived_now = s.moved;
        if let Some(r) = s.rescue.as_mut()
            && let Some(k) = r.turns_left
            && !arrived_now
        {
            if k <= 1 {
                freed.push((s.name.clone(), r.wreck.clone()));
                s.rescue = None;
            } else {
                r.turns_left = Some(k - 1);
            }
        }
    }
    for (n, w) in freed {
        log(
            state,
            format!("{n} has picked up the survivors of {w} and resumes normal operations."),
        );
    }
}
