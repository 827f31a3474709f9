//! The battlefield's terrain as the rules read it: which terrain a point or a counter is in,
//! and the Concealment a sight line picks up (p.4). Geometry comes from `board::terrain`;
//! this module only applies the terrain table and never changes the state.

use crate::board::tabletop::Pt;

use super::data::TerrainKind;
use super::state::GkState;

/// The terrain under a point: the last listed area containing it (roads are listed last), else
/// clear ground.
pub fn terrain_at(state: &GkState, p: Pt) -> TerrainKind {
    state
        .terrain
        .iter()
        .rev()
        .find(|a| a.area.contains(p))
        .map_or(TerrainKind::Clear, |a| a.kind)
}

/// The terrain a unit "resides in" (p.4): the last listed area under more than half of its
/// counter (R9), else clear ground. No dispute roll is needed (R11).
pub fn resides_in(state: &GkState, centre: Pt) -> TerrainKind {
    let radius = state.data.rules.counter_size.get() / 2.0;
    state
        .terrain
        .iter()
        .rev()
        .find(|a| a.area.more_than_half_inside(centre, radius))
        .map_or(TerrainKind::Clear, |a| a.kind)
}

/// Concealment between two centres (p.4): the Obscurement of every area crossed, per whole cm
/// (rounded down per area, R12). A hill counts only when neither end stands on it (R13).
pub fn concealment(state: &GkState, a: Pt, b: Pt) -> i32 {
    state
        .terrain
        .iter()
        .filter(|t| t.kind != TerrainKind::Hill || !(t.area.contains(a) || t.area.contains(b)))
        .map(|t| {
            let per = state
                .data
                .terrain(t.kind)
                .map_or(0, |d| d.obscurement.int());
            per * t.area.whole_units_inside(a, b) as i32
        })
        .sum()
}
