//! Who sees what: LOS between units and hexes (terrain from `los`, plus the urban road rule
//! for vehicles and towed guns, §4.1.9c/§4.2.1f), hindrances from the markers in play, and what
//! a side knows of the enemy (units it may name, hexes under a Concealment marker). Orders and
//! views ask here, so that a seat is never told, or refused by, what it cannot see.

use crate::board::hex::Hex;

use super::data::{Ground, Kind};
use super::los;
use super::state::{FireKind, LhyState, Unit};

/// Terrain LOS between two hex centres.
pub fn clear(s: &LhyState, a: Hex, b: Hex) -> bool {
    !los::blocked(&s.data, &s.map, s.los_key, a, b)
}

/// Does the urban road rule bind this unit in this hex (a vehicle or towed gun in the road)?
fn in_the_road(s: &LhyState, kind: Kind, at: Hex) -> bool {
    (kind.vehicle() || kind == Kind::Gun) && s.map.ground(at) == Ground::UrbanRoad
}

/// LOS from a unit of `kind` at `at` to hex `to` (§4.2, §4.1.9c).
pub fn sees_from(s: &LhyState, kind: Kind, at: Hex, to: Hex) -> bool {
    if !clear(s, at, to) {
        return false;
    }
    !in_the_road(s, kind, at) || los::urban_road_clear(&s.map, at, to)
}

/// LOS from a unit to a hex.
pub fn sees(s: &LhyState, u: &Unit, to: Hex) -> bool {
    sees_from(s, u.kind, u.at, to)
}

/// LOS between two units (either end may be bound by the urban road rule).
pub fn sees_unit(s: &LhyState, u: &Unit, v: &Unit) -> bool {
    sees(s, u, v.at) && (!in_the_road(s, v.kind, v.at) || los::urban_road_clear(&s.map, v.at, u.at))
}

/// §4.2.4: hindrances on the line (MDRM and Smoke markers, and vehicles in urban road hexes).
pub fn hindrances(s: &LhyState, a: Hex, b: Hex) -> u32 {
    let marker = |h: Hex| {
        s.markers
            .iter()
            .any(|m| m.kind == FireKind::Mortar && m.hex == h)
            || s.smoke.iter().any(|(x, _)| *x == h)
    };
    let vehicle = |h: Hex| {
        s.map.ground(h) == Ground::UrbanRoad && s.on_map().any(|u| u.at == h && u.vehicle())
    };
    los::hindrances(&s.map, a, b, &marker, &vehicle)
}

/// Does `side` see enemy unit `u` as itself (not hidden, not concealed)?
pub fn shown(u: &Unit, side: &str) -> bool {
    u.side == side || (u.on_map() && !u.hidden && !u.concealed)
}

/// Is there a Concealment marker of the enemy in `h`, as `side` sees the map?
pub fn marker_at(s: &LhyState, side: &str, h: Hex) -> bool {
    s.on_map()
        .any(|u| u.side != side && u.at == h && !u.hidden && u.concealed)
}

/// Hexes where `side` knows there is an enemy: a unit it sees, or a Concealment marker.
pub fn enemy_known_at(s: &LhyState, side: &str, h: Hex) -> bool {
    s.on_map().any(|u| u.side != side && u.at == h && !u.hidden)
}

/// Enemy units `side` may name in orders.
pub fn named_enemies<'a>(s: &'a LhyState, side: &'a str) -> impl Iterator<Item = &'a Unit> + 'a {
    s.on_map().filter(move |u| u.side != side && shown(u, side))
}

/// Is any enemy counter `u`'s owner can see (a unit, or a Concealment marker that may be a
/// dummy) in LOS of `u`? Hidden units never count, so nothing here tells of them (R21).
pub fn in_los_of_known_enemy(s: &LhyState, u: &Unit) -> bool {
    s.on_map()
        .any(|e| e.side != u.side && !e.hidden && sees_unit(s, e, u))
}

/// §9.1.1d: an unconcealed enemy unit able to fire AT has `u` in range and LOS.
pub fn threatened_by_at(s: &LhyState, u: &Unit) -> bool {
    s.on_map().any(|e| {
        e.side != u.side
            && !e.hidden
            && !e.concealed
            && !e.dummy()
            && {
                let v = s.values(e);
                v.atv > 0 && e.at.distance(u.at) as i32 <= v.atv_range
            }
            && sees_unit(s, e, u)
    })
}

/// The hexes no unit of `side` can see (§4.2, the same LOS as fire and reactions): what the
/// seat's map shades. It reads only `side`'s own units and the terrain, so it tells nothing
/// of the enemy; a hex a unit stands in is seen.
pub fn unseen_by(s: &LhyState, side: &str) -> Vec<Hex> {
    let eyes: Vec<&Unit> = s
        .on_map()
        .filter(|u| u.side == side && !u.dummy())
        .collect();
    s.map
        .hexes()
        .into_iter()
        .filter(|h| !eyes.iter().any(|u| u.at == *h || sees(s, u, *h)))
        .collect()
}

/// Does this viewer see the unit as itself (its own, or an enemy neither hidden, under a
/// Concealment marker nor a dummy)?
pub(super) fn shows_itself_to(u: &Unit, viewer: Option<&str>) -> bool {
    u.on_map() && (viewer == Some(u.side.as_str()) || (!u.hidden && !u.concealed && !u.dummy()))
}

/// Hexes with an enemy Concealment marker as the viewer sees them.
pub(super) fn marker_hexes(s: &LhyState, viewer: Option<&str>) -> Vec<(Hex, String)> {
    let mut out: Vec<(Hex, String)> = s
        .on_map()
        .filter(|u| Some(u.side.as_str()) != viewer && !u.hidden && u.concealed)
        .map(|u| (u.at, u.side.clone()))
        .collect();
    out.sort();
    out.dedup();
    out
}
