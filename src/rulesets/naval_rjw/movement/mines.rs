//! Minefields (R8, R26, R27): the rectangle a field covers, a hull's distance to it, mines
//! laid; the attacks of mines crossed and of sweeps are damage.rs's.

use crate::board::tabletop::{
    Hull, Rect, hull_touches_rect, segment_distance, segment_touches_rect,
};
use crate::dice::Dice;
use crate::rulesets::kit::grammar::{num, tenths};

use super::super::damage;
use super::super::state::{Fate, Minefield, NavalState};
use super::{clamp_pt, idx, log};

/// The rectangle a minefield covers: its heading is the course of the ship that laid it, and the
/// long side lies across that course (R26).
pub fn field_rect(state: &NavalState, m: &Minefield) -> Rect {
    Rect {
        centre: m.centre,
        heading: m.heading + 90.0,
        length: state.data.rules.minefield_length.get(),
        width: state.data.rules.minefield_width.get(),
    }
}

/// Distance from a hull to a minefield (0 when touching).
pub fn hull_to_field(state: &NavalState, hull: &Hull, m: &Minefield) -> f64 {
    let r = field_rect(state, m);
    if hull_touches_rect(hull, &r) {
        return 0.0;
    }
    let c = r.corners();
    (0..4)
        .map(|i| segment_distance(hull.stern(), hull.bow(), c[i], c[(i + 1) % 4]))
        .fold(f64::INFINITY, f64::min)
}

/// R26: a 1"×4" belt centred `lay_astern` behind the minelayer, long side across her track.
pub(super) fn lay(state: &mut NavalState, name: &str) {
    let Some(i) = idx(state, name) else { return };
    if state.ships[i].fate != Fate::Afloat {
        return;
    }
    let h = state.ships[i].hull;
    let centre = h
        .centre
        .offset(h.heading, -state.data.rules.lay_astern.get());
    let id = next_field_id(state);
    let owner = state.ships[i].side.clone();
    state.minefields.push(Minefield {
        id: id.clone(),
        owner,
        centre: clamp_pt(centre, state.width, state.height),
        heading: h.heading,
        genuine: true,
        laid_in_play: true,
        revealed: true,
    });
    log(state, format!("{name} lays minefield {id} astern."));
}

/// The next unused field id (`M<n>`).
pub fn next_field_id(state: &NavalState) -> String {
    let n = state
        .minefields
        .iter()
        .filter_map(|m| m.id.strip_prefix('M').and_then(|d| d.parse::<u32>().ok()))
        .max()
        .unwrap_or(0);
    format!("M{}", n + 1)
}

/// Minefields crossed, once movement has ended (R8): each ship of the side that moved, each
/// field its path or hull touches, unless she sweeps that field this turn.
pub(super) fn cross_fields(
    state: &mut NavalState,
    side: &str,
    sweeps: &[(String, String)],
    dice: &mut Dice,
) {
    let movers: Vec<String> = state
        .ships
        .iter()
        .filter(|s| s.side == side && s.fate == Fate::Afloat && s.path.len() >= 2)
        .map(|s| s.name.clone())
        .collect();
    for n in movers {
        let fields: Vec<String> = state.minefields.iter().map(|m| m.id.clone()).collect();
        for f in fields {
            let (Some(i), Some(m)) = (idx(state, &n), state.minefields.iter().find(|m| m.id == f))
            else {
                continue;
            };
            let ship = &state.ships[i];
            if ship.fate != Fate::Afloat {
                break;
            }
            let r = field_rect(state, m);
            let crossed = ship
                .path
                .windows(2)
                .any(|w| segment_touches_rect(w[0], w[1], &r))
                || hull_touches_rect(&ship.hull, &r);
            // A minesweeper that sweeps this field attacks the mines "instead" and "first"
            // (p.9, R27): her sweep below settles it, so crossing it is no second attack.
            let sweeping = sweeps.iter().any(|(s, x)| *s == n && *x == f)
                && hull_to_field(state, &ship.hull, m) <= state.data.rules.sweep_reach.get() + 1e-9;
            if crossed && !sweeping {
                damage::mine_attack(state, &n, &f, dice);
            }
        }
    }
}

/// The sweeps ordered (R27), each within reach of its field or said why not.
pub(super) fn sweep_fields(state: &mut NavalState, sweeps: Vec<(String, String)>, dice: &mut Dice) {
    for (s, f) in sweeps {
        let reach = state.data.rules.sweep_reach.get();
        let (Some(i), Some(m)) = (idx(state, &s), state.minefields.iter().find(|m| m.id == f))
        else {
            log(
                state,
                format!("{s}: minefield {f} is gone; nothing to sweep."),
            );
            continue;
        };
        if state.ships[i].fate != Fate::Afloat {
            continue;
        }
        let d = hull_to_field(state, &state.ships[i].hull, m);
        if d > reach + 1e-9 {
            log(
                state,
                format!(
                    "{s} is {}\" from minefield {f}, beyond {}\": no sweep.",
                    tenths(d),
                    num(reach)
                ),
            );
            continue;
        }
        damage::sweep(state, &s, &f, dice);
    }
}
