//! Fire actions (§11, bridge rules R11–R12): small arms, anti-tank and mortar fire recorded as
//! Attack DRM markers during the Activation Phase, each with its net DRM (values, range, TEM,
//! hindrances, arcs). Nothing is rolled here: markers are resolved in Phase III (`resolution`).
//! It checks what a firer may do and places markers; it never moves a unit.

use crate::board::hex::Hex;

use super::data::{Ground, Kind, RulesetData};
use super::sight;
use super::state::{FireKind, FireMarker, LhyState, Unit};

/// A fire attack ready to be placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Shot {
    pub kind: FireKind,
    pub hex: Hex,
    pub drm: i32,
    pub targets: Vec<String>,
}

/// May `u` fire at all from `from` (status, motion, MDRM in its hex)?
pub fn can_fire(s: &LhyState, u: &Unit, from: Hex, moving_fire: bool) -> Result<(), String> {
    if u.dummy() {
        return Err(format!("{} is a dummy and cannot fire", u.name));
    }
    // R13: disrupted and shocked units do not fire.
    if u.disrupted() {
        return Err(format!("{} is {} and cannot fire", u.name, u.status.word()));
    }
    if u.aboard.is_some() {
        return Err(format!("{} is aboard a vehicle and cannot fire", u.name));
    }
    // §10.4.1: no fire under a Motion marker but by Shoot & Scoot or Halt & Fire.
    if u.vehicle() && u.motion != super::state::Motion::Stationary && !moving_fire {
        return Err(format!(
            "{} is in motion: fire with SCOOT or HALT, not FIRE",
            u.name
        ));
    }
    // §4.1.14d implies the rule: units in a hex with an MDRM marker do not fire, FPs may.
    if u.kind != Kind::Fp
        && s.markers
            .iter()
            .any(|m| m.kind == FireKind::Mortar && m.hex == from)
    {
        return Err(format!(
            "{} is in a hex under mortar fire (MDRM) and cannot fire",
            u.name
        ));
    }
    Ok(())
}

/// §4.1.14a (R15): an FP fires and is fired on only through its frontal hexsides, the three
/// facing its front; so is a vehicle's front told from its rear (AV or AEV).
pub fn in_front(s: &LhyState, u: &Unit, other: Hex) -> bool {
    let Some(f) = u.facing else {
        return true;
    };
    let g = s.map.grid();
    let (c, o) = (g.centre(u.at, 1.0), g.centre(other, 1.0));
    let n = g.centre(g.neighbour(u.at, f), 1.0);
    let (fx, fy) = (n.x - c.x, n.y - c.y);
    let (ox, oy) = (o.x - c.x, o.y - c.y);
    // Within 90 degrees of the facing (the boundary counts as front).
    fx * ox + fy * oy >= -1e-9
}

/// The TEM of non-vehicular defenders in `hex` against fire from `from` (R7: the best of
/// terrain, IP and FP, plus a hill below the firer's level and a wall between).
pub fn tem(s: &LhyState, hex: Hex, from: Hex, firer_side: &str) -> i32 {
    let d: &RulesetData = &s.data;
    let f = &d.features;
    let mut best = d.fx(s.map.ground(hex)).tem.int().min(0);
    if s.map.ip(hex) {
        best = best.min(f.ip_tem.int());
    }
    if s.on_map()
        .any(|u| u.at == hex && u.kind == Kind::Fp && u.side != firer_side)
    {
        best = best.min(f.fp_tem.int());
    }
    let mut t = best;
    if s.map.level(hex) > s.map.level(from) {
        t += f.hill_tem.int();
    }
    t + wall_tem(s, hex, from, firer_side)
}

/// §4.1.7: a wall on the target hex's side the line enters by; across a shared wall the side
/// whose units were there first gets it.
fn wall_tem(s: &LhyState, hex: Hex, from: Hex, firer_side: &str) -> i32 {
    let l = crate::board::hex::line(from, hex);
    let sides: Vec<_> = l
        .hexsides_crossed()
        .into_iter()
        .chain(l.hexsides_along())
        .filter(|x| x.touches(hex) && s.map.wall(*x))
        .collect();
    if sides.is_empty() {
        return 0;
    }
    if from.is_adjacent(hex) {
        let first = |h: Hex, mine: bool| {
            s.on_map()
                .filter(|u| u.at == h && (u.side == firer_side) == mine)
                .map(|u| u.arrived)
                .min()
        };
        if let (Some(them), Some(us)) = (first(hex, false), first(from, true))
            && us < them
        {
            return 0;
        }
    }
    s.data.features.wall_tem.int()
}

/// What a refused firer could fire at instead: the hexes with enemy counters its side knows
/// of (units it sees, Concealment markers; never hidden units) in its LOS and `range`.
fn in_sight(s: &LhyState, u: &Unit, from: Hex, range: i32) -> String {
    let mut hexes: Vec<Hex> = s
        .on_map()
        .filter(|e| e.side != u.side && !e.hidden)
        .map(|e| e.at)
        .filter(|h| from.distance(*h) as i32 <= range && sight::sees_from(s, u.kind, from, *h))
        .collect();
    hexes.sort();
    hexes.dedup();
    if hexes.is_empty() {
        format!("it sees no enemy counter within {range} hexes")
    } else {
        let l: Vec<String> = hexes.iter().map(|h| s.name_of(*h)).collect();
        format!("in its LOS and range: {}", l.join(", "))
    }
}

/// Small arms at every enemy unit with Cohesion in `hex` (§1.5, R11).
pub fn small_arms(s: &LhyState, u: &Unit, from: Hex, hex: Hex, extra: i32) -> Result<Shot, String> {
    let v = s.values(u);
    let label = s.name_of(hex);
    if v.sav_range <= 0 {
        return Err(format!("{} has no small arms", u.name));
    }
    let dist = from.distance(hex);
    if dist == 0 {
        return Err(format!("{} cannot fire into its own hex", u.name));
    }
    if dist as i32 > v.sav_range {
        return Err(format!(
            "{label} is {dist} hexes away; {}'s small arms reach {}",
            u.name, v.sav_range
        ));
    }
    if !sight::sees_from(s, u.kind, from, hex) {
        return Err(format!(
            "{} has no LOS to {label}; {}",
            u.name,
            in_sight(s, u, from, v.sav_range)
        ));
    }
    if u.kind == Kind::Fp && !in_front(s, u, hex) {
        return Err(format!("{label} is outside {}'s frontal hexsides", u.name));
    }
    if !sight::enemy_known_at(s, &u.side, hex) {
        return Err(format!("you know of no enemy unit in {label}"));
    }
    // §4.1.9b: along one urban road at a stationary target, only into the adjacent hex.
    if s.map.ground(from) == Ground::UrbanRoad
        && s.map.ground(hex) == Ground::UrbanRoad
        && dist > 1
        && crate::board::hex::line(from, hex)
            .hexes()
            .all(|h| s.map.ground(h) == Ground::UrbanRoad)
        && !s.on_map().any(|e| {
            e.side != u.side && e.at == hex && e.done == Some(super::state::Done::Maneuver)
        })
    {
        return Err(format!(
            "along the road only the adjacent hex may be fired at, unless the target ended a maneuver in {label}"
        ));
    }
    let targets: Vec<String> = s
        .on_map()
        .filter(|e| e.side != u.side && e.at == hex && (!e.kind.hard() || e.dummy()))
        .map(|e| e.name.clone())
        .collect();
    let r = &s.data.rules;
    let range = if v.sav_flat {
        0
    } else {
        RulesetData::range_drm(s.data.tables.small_arms_range.get().as_slice(), dist).unwrap_or(0)
    };
    let all_concealed = s
        .on_map()
        .filter(|e| e.side != u.side && e.at == hex && !e.hidden)
        .all(|e| e.concealed);
    let drm = v.sav
        + range
        + tem(s, hex, from, &u.side)
        + sight::hindrances(s, from, hex) as i32 * r.hindrance_drm.int()
        + if all_concealed {
            r.concealed_target_drm.int()
        } else {
            0
        }
        + extra;
    Ok(Shot {
        kind: FireKind::SmallArms,
        hex,
        drm,
        targets,
    })
}

/// Anti-tank fire at one hard target (§1.7, R11): ATV, range, AV through the front or AEV
/// through the rear (enfilade, R15).
pub fn anti_tank(
    s: &LhyState,
    u: &Unit,
    from: Hex,
    target: &Unit,
    extra: i32,
) -> Result<Shot, String> {
    let v = s.values(u);
    let hex = target.at;
    let label = s.name_of(hex);
    if v.atv_range <= 0 {
        return Err(format!("{} has no anti-tank weapon", u.name));
    }
    if !target.kind.hard() {
        return Err(format!(
            "anti-tank fire is only against vehicles, towed guns and FPs (§1.7); fire small arms at {label}"
        ));
    }
    let dist = from.distance(hex);
    if dist == 0 || dist as i32 > v.atv_range {
        return Err(format!(
            "{label} is {dist} hexes away; {}'s anti-tank weapon reaches {}",
            u.name, v.atv_range
        ));
    }
    if !sight::sees_from(s, u.kind, from, hex)
        || (s.map.ground(hex) == Ground::UrbanRoad
            && !super::los::urban_road_clear(&s.map, hex, from))
    {
        return Err(format!("{} has no LOS to {label}", u.name));
    }
    if u.kind == Kind::Fp && !in_front(s, u, hex) {
        return Err(format!("{label} is outside {}'s frontal hexsides", u.name));
    }
    if target.kind == Kind::Fp && !in_front(s, target, from) {
        return Err("an FP is fired on only through its frontal hexsides".into());
    }
    let tv = s.values(target);
    let armour = if target.vehicle() && !in_front(s, target, from) {
        tv.aev
    } else {
        tv.av
    };
    let r = &s.data.rules;
    let range =
        RulesetData::range_drm(s.data.tables.anti_tank_range.get().as_slice(), dist).unwrap_or(0);
    let drm = v.atv + range - armour
        + sight::hindrances(s, from, hex) as i32 * r.hindrance_drm.int()
        + if target.concealed {
            r.concealed_target_drm.int()
        } else {
            0
        }
        + extra;
    Ok(Shot {
        kind: FireKind::AntiTank,
        hex,
        drm,
        targets: vec![target.name.clone()],
    })
}

/// A Mortar Fire Action (§8.2, §11.4 lost; R19): the primary impact hex gets an MDRM of the
/// mortar's MV, the six around it a secondary one. The hex must be in range of the mortar and
/// in LOS of the mortar or of a platoon leader of its side (the Forward Observer).
pub fn mortar(s: &LhyState, u: &Unit, hex: Hex) -> Result<Vec<Shot>, String> {
    let v = s.values(u);
    let label = s.name_of(hex);
    if u.kind != Kind::Mortar || v.mv_range <= 0 {
        return Err(format!("{} is not a mortar", u.name));
    }
    let dist = u.at.distance(hex);
    if dist as i32 > v.mv_range || dist < 2 {
        return Err(format!(
            "{label} is {dist} hexes away; {} fires at 2 to {} hexes",
            u.name, v.mv_range
        ));
    }
    let observed = sight::sees(s, u, hex)
        || s.on_map().any(|l| {
            l.side == u.side && l.kind == Kind::Leader && !l.disrupted() && sight::sees(s, l, hex)
        });
    if !observed {
        return Err(format!(
            "neither {} nor a platoon leader of yours has LOS to {label}",
            u.name
        ));
    }
    let mut out = vec![Shot {
        kind: FireKind::Mortar,
        hex,
        drm: v.mv,
        targets: vec![],
    }];
    for h in s.map.grid().neighbours(hex) {
        if s.map.on_map(h) {
            out.push(Shot {
                kind: FireKind::Mortar,
                hex: h,
                drm: v.mv + s.data.rules.mortar_secondary_drm.int(),
                targets: vec![],
            });
        }
    }
    Ok(out)
}

/// Places a shot's marker.
pub fn place(s: &mut LhyState, shot: Shot, by: &str, side: &str, secondary: bool) -> u32 {
    let id = s.next_serial();
    s.markers.push(FireMarker {
        id,
        kind: shot.kind,
        hex: shot.hex,
        drm: shot.drm,
        targets: shot.targets,
        side: side.to_string(),
        by: by.to_string(),
        secondary,
    });
    id
}

/// `+2`, `-1`, `0` as markers print.
pub fn signed(v: i32) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}
