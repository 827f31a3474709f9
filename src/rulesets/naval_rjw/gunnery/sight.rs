//! What a ship can see and reach (p.6; R19, R22, R31, R32): lines of sight through the hulls
//! on the table, the range band of a shot, and the broadside's arc. Whether the target is an
//! enemy she may engage is legality.rs's business.

use crate::board::tabletop::{Hull, Pt, hull_nearest_points, hull_range, in_beam_arc, los_clear};

use super::super::data::ShipClass;
use super::super::state::{Fate, NavalState, Ship};
use super::super::stats::{extreme_range, range, secondary_range};
use super::{Band, Shot, inches};

/// Is `firer` in the same destroyer flotilla as `other`?
fn same_flotilla(state: &NavalState, a: &str, b: &str) -> bool {
    state
        .groups
        .iter()
        .any(|g| g.flotilla && g.ships.iter().any(|s| s == a) && g.ships.iter().any(|s| s == b))
}

/// The hulls that block `firer`'s sight of `target` (R22): every hull on the table but theirs;
/// destroyers do not block capital ships unless laying smoke (R19), and destroyers see through
/// their own flotilla. Sunk and escaped ships are gone; struck ones are still there.
fn blockers(state: &NavalState, firer: &Ship, target: &Ship) -> Vec<Hull> {
    state
        .ships
        .iter()
        .filter(|s| s.name != firer.name && s.name != target.name)
        .filter(|s| matches!(s.fate, Fate::Afloat | Fate::Struck))
        .filter(|s| {
            if s.class != ShipClass::DD {
                return true;
            }
            if firer.class.is_capital() {
                s.smoke
            } else {
                !same_flotilla(state, &firer.name, &s.name)
            }
        })
        .map(|s| s.hull)
        .collect()
}

fn sight(state: &NavalState, firer: &Ship, target: &Ship, from: Pt, to: Pt) -> bool {
    los_clear(from, to, &blockers(state, firer, target))
}

/// LOS bow to bow (p.6).
pub fn has_los(state: &NavalState, firer: &Ship, target: &Ship) -> bool {
    sight(state, firer, target, firer.hull.bow(), target.hull.bow())
}

/// LOS stern to stern (needed as well for a broadside, R32).
pub fn has_stern_los(state: &NavalState, firer: &Ship, target: &Ship) -> bool {
    sight(
        state,
        firer,
        target,
        firer.hull.stern(),
        target.hull.stern(),
    )
}

/// Extreme range is forbidden with limited ammunition or a high sea (R31).
pub fn extreme_allowed(state: &NavalState) -> bool {
    !state.limited_ammunition && !state.high_sea_state
}

pub(super) fn band_of(state: &NavalState, r: f64, normal: f64) -> Band {
    if r < state.data.rules.close_range.get() {
        Band::Close
    } else if r <= normal {
        Band::Normal
    } else {
        Band::Extreme
    }
}

/// The geometry of a shot if LOS and range allow it (not whether the target is a legal enemy).
/// `secondary`: the secondary battery, which has no extreme range. `allow_extreme`: false for
/// supporters (R5).
pub fn shot(
    state: &NavalState,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
    allow_extreme: bool,
) -> Result<Shot, String> {
    if !has_los(state, firer, target) {
        return Err(format!(
            "{} has no line of sight to {}",
            firer.name, target.name
        ));
    }
    let r = hull_range(&firer.hull, &target.hull);
    let (normal, extreme) = if secondary {
        let s = secondary_range(state, firer);
        (s, s)
    } else {
        (range(state, firer), extreme_range(state, firer))
    };
    if r <= normal {
        return Ok(Shot {
            range: r,
            band: band_of(state, r, normal),
        });
    }
    if r <= extreme && allow_extreme {
        if !extreme_allowed(state) {
            return Err(format!(
                "{} is at extreme range ({}), which this scenario forbids",
                target.name,
                inches(r)
            ));
        }
        return Ok(Shot {
            range: r,
            band: Band::Extreme,
        });
    }
    Err(format!("{} is out of range ({})", target.name, inches(r)))
}

/// R32: the target's nearest point within the beam arc from the firer's midship, and LOS both
/// bow to bow and stern to stern. Capital ships only.
pub fn broadside(state: &NavalState, firer: &Ship, target: &Ship) -> bool {
    if !firer.class.is_capital() {
        return false;
    }
    let (_, nearest) = hull_nearest_points(&firer.hull, &target.hull);
    in_beam_arc(
        &firer.hull,
        nearest,
        state.data.rules.broadside_half_arc.get(),
    ) && has_los(state, firer, target)
        && has_stern_los(state, firer, target)
}
