//! The attack modifiers (p.6; R4, R5, R31, R32): the firer's only, never the defender's, each
//! with its label in the game's words as the results mail prints it.

use crate::board::tabletop::hull_range;

use super::super::data::ShipClass;
use super::super::state::{NavalState, Ship};
use super::super::stats::{fleet, range, secondary_range};
use super::Band;
use super::sight::{band_of, broadside};

/// The attack modifiers (firer only) for `firer` on `target`, with `supporters` taken as legal
/// (only the first `max_supporters` count). Labels are in the game's words.
pub fn modifiers(
    state: &NavalState,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
    supporters: &[&Ship],
) -> Vec<(String, i32)> {
    let r = &state.data.rules;
    let mut m = Vec::new();
    if firer.class.is_capital() {
        let bonus = fleet(state, &firer.side).map_or(0, |f| f.capital_gunnery_bonus);
        if bonus != 0 {
            m.push(("capital-ship gunnery".to_string(), bonus));
        }
    }
    let dist = hull_range(&firer.hull, &target.hull);
    let normal = if secondary {
        secondary_range(state, firer)
    } else {
        range(state, firer)
    };
    let band = band_of(state, dist, normal);
    match band {
        Band::Close => m.push(("close range".to_string(), r.close_modifier.int())),
        Band::Extreme => m.push(("extreme range".to_string(), r.extreme_modifier.int())),
        Band::Normal => {}
    }
    if !secondary && firer.class.is_capital() && broadside(state, firer, target) {
        m.push(("broadside".to_string(), r.broadside_modifier.int()));
    }
    if band != Band::Extreme {
        let max = r.max_supporters.int().max(0) as usize;
        for s in supporters.iter().take(max) {
            m.push((format!("support by {}", s.name), r.support_modifier.int()));
            if s.class == ShipClass::BB {
                m.push((
                    format!("BB support by {}", s.name),
                    r.bb_support_modifier.int(),
                ));
            }
        }
    }
    if firer.class == ShipClass::DD && !target.moved {
        m.push((
            "stationary target".to_string(),
            r.dd_stationary_modifier.int(),
        ));
    }
    m
}

/// The sum of `modifiers`.
pub fn attack_modifier(
    state: &NavalState,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
    supporters: &[&Ship],
) -> i32 {
    modifiers(state, firer, target, secondary, supporters)
        .iter()
        .map(|(_, v)| v)
        .sum()
}
