//! Who may fire and who may support (p.6; R5): a target an enemy still afloat in reach, a
//! firer able to fire, a supporter of the same side within her normal range. The
//! one-attack-per-target rule is the phase's (phase.rs), judged as the orders are resolved.

use super::super::data::ShipClass;
use super::super::state::{Fate, NavalState, Ship};
use super::super::stats::{can_fire, has_secondary};
use super::Shot;
use super::sight::shot;

/// Can `firer` (of `side`) engage `target` now? Everything but the one-attack-per-target rule.
pub fn target_legal(
    state: &NavalState,
    side: &str,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
) -> Result<Shot, String> {
    if target.side == side {
        return Err(format!("{} is one of your own ships", target.name));
    }
    match target.fate {
        Fate::Afloat => {}
        Fate::Sunk => return Err(format!("{} has sunk", target.name)),
        Fate::Struck => return Err(format!("{} has struck her colours", target.name)),
        Fate::Escaped => return Err(format!("{} has left the table", target.name)),
    }
    if secondary && target.class != ShipClass::DD {
        return Err(format!(
            "secondary batteries fire only at destroyers ({} is a {})",
            target.name,
            target.class.abbr()
        ));
    }
    shot(state, firer, target, secondary, !secondary)
}

/// Why a ship cannot fire or support now, if she cannot.
pub fn cannot_fire_reason(ship: &Ship) -> Option<String> {
    if can_fire(ship) {
        return None;
    }
    let n = &ship.name;
    Some(match ship.fate {
        Fate::Sunk => format!("{n} has sunk"),
        Fate::Struck => format!("{n} has struck her colours"),
        Fate::Escaped => format!("{n} has left the table"),
        Fate::Afloat if ship.hit_markers > 0 => format!("{n} has a hit marker and cannot fire"),
        Fate::Afloat if ship.rescue.is_some() => {
            format!("{n} is rescuing survivors and cannot fire")
        }
        Fate::Afloat => format!("{n} is taking possession of a prize and cannot fire"),
    })
}

/// A supporter's legality (R5): own ship, able to fire, LOS and the target within her normal
/// range. For a secondary-battery attack only DDs (main guns) and CA/BB (secondaries) may support.
/// Returns whether she supports with her secondary battery.
pub fn support_legal(
    state: &NavalState,
    supporter: &Ship,
    firer: &Ship,
    target: &Ship,
    secondary: bool,
) -> Result<bool, String> {
    if supporter.side != firer.side {
        return Err(format!("{} is not one of your ships", supporter.name));
    }
    if supporter.name == firer.name {
        return Err(format!("{} cannot support her own attack", supporter.name));
    }
    if let Some(why) = cannot_fire_reason(supporter) {
        return Err(why);
    }
    let uses_secondary = secondary && has_secondary(supporter);
    if secondary && supporter.class == ShipClass::CL {
        return Err(format!(
            "{} is a light cruiser: only secondary batteries and destroyers support a secondary battery",
            supporter.name
        ));
    }
    shot(state, supporter, target, uses_secondary, false)?;
    Ok(uses_secondary)
}
