//! Who may shoot at whom (L6, L7, R16, R45, R51, R52): the range band, the one test of
//! sight, arc, range, melee and enemy units in the way with its reason, friendly units that
//! hold a flamethrower's fire, and the nearest target. The parser asks it when a mail is read
//! and the combat step asks it again; it only reads the state.

use crate::board::terrain::Area;
use crate::rulesets::kit::grammar::tenths;

use super::combat::Band;
use super::data::Heavy;
use super::state::{Fig, State, Unit};

/// R51: the first enemy unit, other than the target, in the line of fire from `u`'s centre
/// to `t`'s: one of its stands within half a stand of the line. L7: "Units, except mortars
/// and indirect fire artillery, may not shoot through enemy units." Hidden units are not on
/// the table (L7) and riders are inside their carrier; neither is in the way.
pub fn screen<'a>(state: &'a State, u: &'a Unit, t: &Unit) -> Option<&'a Unit> {
    state
        .enemies_of(u)
        .find(|o| o.name != t.name && in_the_way(state, o, u, t))
}

/// Is `o` in the line of fire from `u` to `t`: on the table (not hidden, L7; not riding)
/// with one of its stands within half a stand of the line between their centres (R51, R52).
fn in_the_way(state: &State, o: &Unit, u: &Unit, t: &Unit) -> bool {
    let radius = state.data.rules.stand_size.get() / 2.0;
    !o.hidden
        && o.on_ground()
        && state
            .stands(o)
            .iter()
            .any(|s| Area::Circle { centre: *s, radius }.segment_intersects(u.pos, t.pos))
}

/// R52: the first friendly unit (of `u`'s side, not `u`) in the line of fire from `u` to
/// `t`, when `u` has a flamethrower with shots that would fire. L7: "units may usually shoot
/// through friendly units, but may not use certain weapons, like flame throwers or
/// shotguns, in such a case": the unit still fires, its flamethrower does not
/// (`combat::flame_strength`). Out of shots the figure fights as a trooper (L12) and shoots
/// through like one; mounted, the weapon does not shoot anyway (L12).
pub fn flame_held<'a>(state: &'a State, u: &Unit, t: &Unit) -> Option<&'a Unit> {
    if u.count(Fig::Heavy(Heavy::Flamethrower)) == 0 || u.flame_shots == 0 || u.mounted {
        return None;
    }
    state
        .units
        .iter()
        .filter(|o| o.side == u.side && o.name != u.name && o.alive())
        .find(|o| in_the_way(state, o, u, t))
}

/// R51: a unit whose mortar team has rounds (and is not mounted, L12) shoots over enemy units
/// in the way — the mortar alone, as the rest of the unit may not shoot through them.
pub fn fires_over(u: &Unit) -> bool {
    u.heavy() == Some(Heavy::Mortar) && u.mortar_rounds > 0 && !u.mounted
}

/// The band a firer reaches a target in, if any (L6: melee 0–2", short, long).
pub fn band(state: &State, u: &Unit, t: &Unit) -> Option<Band> {
    let gap = state.gap(u, t);
    if u.melee.contains(&t.name) {
        Some(Band::Melee)
    } else if gap <= u.short {
        Some(Band::Short)
    } else if gap <= u.long {
        Some(Band::Long)
    } else {
        None
    }
}

/// May `u` shoot at `t`: seen, in sight and arc, in range, not in a melee (R16).
pub fn may_shoot(state: &State, u: &Unit, t: &Unit) -> bool {
    shot_refusal(state, u, t).is_none()
}

/// Why `u` may not shoot at `t` now, if it may not. The parser asks it when the mail is read
/// (sight, arc and range are all known then, the moves being over); the combat step asks again
/// for what only resolution knows (a target the shells, landing first, destroyed).
pub fn shot_refusal(state: &State, u: &Unit, t: &Unit) -> Option<String> {
    let (un, tn) = (&u.name, &t.name);
    if !t.alive() {
        return Some(format!(
            "{tn} is {}",
            t.gone.as_deref().unwrap_or("destroyed")
        ));
    }
    if t.side == u.side {
        return Some(format!("{tn} is on your own side"));
    }
    if t.hidden {
        return Some(format!("{tn} is not in sight"));
    }
    if !u.on_ground() {
        return Some(format!("{un} is not on the ground"));
    }
    if !super::wagons::targetable(state, t) {
        return Some(format!(
            "{tn} cannot be shot at: air combat is not played (R45)"
        ));
    }
    if !u.melee.is_empty() {
        return Some(format!(
            "{un} is in melee and fights only its melee enemies (R16)"
        ));
    }
    if !t.melee.is_empty() {
        return Some(format!(
            "{tn} is in melee: no one shoots into a melee (R16)"
        ));
    }
    if !state.sight(u.pos, t.pos) {
        return Some(format!(
            "{tn} is out of sight of {un} (smoke or ground between)"
        ));
    }
    if let Some(s) = screen(state, u, t)
        && !fires_over(u)
    {
        return Some(format!(
            "{} is in the line of fire from {un} to {tn}: only a mortar shoots over enemy units \
             (L7, R51)",
            s.name
        ));
    }
    if !state.in_front(u, t.pos) {
        return Some(format!(
            "{tn} is outside {un}'s front 180° (facing {}; FACE it on your card first)",
            tenths(u.facing)
        ));
    }
    if band(state, u, t).is_none() {
        return Some(format!(
            "{tn} is {}\" away, beyond {un}'s long range of {}\"",
            tenths(state.gap(u, t)),
            tenths(u.long)
        ));
    }
    None
}

/// The nearest enemy `u` may shoot at (the default target rule).
pub fn nearest_target(state: &State, u: &Unit) -> Option<String> {
    state
        .enemies_of(u)
        .filter(|t| may_shoot(state, u, t))
        .min_by(|a, b| state.gap(u, a).total_cmp(&state.gap(u, b)))
        .map(|t| t.name.clone())
}
