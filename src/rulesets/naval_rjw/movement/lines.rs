//! Battle lines and flotillas as groups (R13, R25): a ship leaving or joining a line, a line
//! split, formed abreast or astern, and groups tidied of ships no longer in them. It moves no
//! ship but those a line re-forms on its lead.

use std::collections::BTreeSet;

use super::super::data::Formation;
use super::super::state::{Fate, Group, NavalState};
use super::{clamp_pt, idx};

pub(super) fn leave(state: &mut NavalState, ship: &str) {
    for g in &mut state.groups {
        g.ships.retain(|s| s != ship);
    }
}

pub(super) fn split(state: &mut NavalState, at: &str) {
    let Some(gi) = state
        .groups
        .iter()
        .position(|g| g.ships.iter().any(|s| s == at))
    else {
        return;
    };
    let pos = state.groups[gi]
        .ships
        .iter()
        .position(|s| s == at)
        .unwrap_or(0);
    if pos == 0 {
        return;
    }
    let ng = state.groups[gi].split_astern(pos);
    state.groups.push(ng);
}

pub(super) fn join(state: &mut NavalState, ship: &str, other: &str) {
    leave(state, ship);
    let flotilla = idx(state, ship).is_some_and(|i| !state.ships[i].class.is_capital());
    let side = idx(state, ship)
        .map(|i| state.ships[i].side.clone())
        .unwrap_or_default();
    match state
        .groups
        .iter_mut()
        .find(|g| g.ships.iter().any(|s| s == other))
    {
        Some(g) => g.ships.push(ship.to_string()),
        None => state.groups.push(Group {
            name: format!("{other}'s line"),
            side,
            ships: vec![other.to_string(), ship.to_string()],
            formation: Formation::Astern,
            flotilla,
        }),
    }
}

pub(super) fn tidy_groups(state: &mut NavalState) {
    let afloat: BTreeSet<String> = state
        .ships
        .iter()
        .filter(|s| s.fate == Fate::Afloat && s.rescue.is_none() && s.capturing.is_none())
        .map(|s| s.name.clone())
        .collect();
    for g in &mut state.groups {
        g.ships.retain(|s| afloat.contains(s));
    }
    state.groups.retain(|g| g.ships.len() >= 2);
}

/// Astern ↔ abreast: the followers take station on the lead (R25 pays for it; no further move).
pub(super) fn reform(state: &mut NavalState, lead: &str, abreast: bool) -> Vec<String> {
    let Some(g) = state
        .groups
        .iter_mut()
        .find(|g| g.ships.first().map(String::as_str) == Some(lead))
    else {
        return vec![];
    };
    g.formation = if abreast {
        Formation::Abreast
    } else {
        Formation::Astern
    };
    let members = g.ships.clone();
    let Some(li) = idx(state, lead) else {
        return vec![];
    };
    let lead_hull = state.ships[li].hull;
    let gap = state.data.rules.collision_clear.get();
    let spacing = state.data.rules.flotilla_spacing.get();
    let mut prev = lead_hull;
    for (k, n) in members.iter().enumerate().skip(1) {
        let Some(i) = idx(state, n) else { continue };
        let len = state.ships[i].hull.length;
        let centre = if abreast {
            lead_hull
                .centre
                .offset(lead_hull.heading + 90.0, spacing * k as f64)
        } else {
            prev.centre
                .offset(lead_hull.heading, -(prev.length / 2.0 + gap + len / 2.0))
        };
        let start = state.ships[i].hull.centre;
        let ship = &mut state.ships[i];
        ship.hull.centre = clamp_pt(centre, state.width, state.height);
        ship.hull.heading = lead_hull.heading;
        ship.path = vec![start, ship.hull.centre];
        ship.moved = true;
        prev = ship.hull;
    }
    members
}
