//! R38: the cover a windwagon gives — to its crew and passengers, and as linear cover to a
//! unit behind its body. Pure reads of the state for the combat modifiers; it moves, rolls
//! and changes nothing.

use crate::board::tabletop::{Pt, bearing, dist, heading_diff, segments_intersect};

use super::data::Arm;
use super::state::{State, Unit};

/// The cover modifier of a unit in a windwagon, crew or passengers (R38): cover; a ramp-type
/// shot at by small arms from within 45° of its front, double cover.
pub fn inside_cover(state: &State, target: &Unit, from: Pt) -> Option<(&'static str, i32)> {
    let wagon = if target.arm == Arm::Windwagon {
        Some(target)
    } else {
        target
            .aboard
            .as_deref()
            .and_then(|c| state.unit(c))
            .filter(|c| c.arm == Arm::Windwagon)
    }?;
    let r = &state.data.rules;
    let front = heading_diff(wagon.facing, bearing(wagon.pos, from)).abs();
    if wagon.ramp && front <= r.ramp_front_arc.get() {
        Some((
            "double cover (ramp-type's front plate)",
            r.double_cover.int(),
        ))
    } else {
        Some(("cover (in a windwagon)", r.cover.int()))
    }
}

/// The two ends of a wagon's body: its first and last stands.
fn body(state: &State, w: &Unit) -> (Pt, Pt) {
    let s = state.stands(w);
    (s[0], *s.last().unwrap_or(&s[0]))
}

/// R38: a unit outside uses a standing windwagon as linear cover, as it would a wall: the
/// wagon's body within a stand of the unit, lying between it and the firer.
pub fn wagon_between(state: &State, u: &Unit, from: Pt) -> bool {
    let reach = state.data.rules.stand_size.get();
    state
        .units
        .iter()
        .filter(|w| w.alive() && w.arm == Arm::Windwagon && w.name != u.name)
        .filter(|w| u.aboard.as_deref() != Some(w.name.as_str()))
        .any(|w| {
            let (a, b) = body(state, w);
            let near = state
                .stands(w)
                .iter()
                .any(|s| dist(*s, u.pos) <= reach + state.data.rules.stand_size.get());
            near && segments_intersect(a, b, from, u.pos)
        })
}
