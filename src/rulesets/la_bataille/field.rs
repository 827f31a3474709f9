//! The field of battle as the stand-in base game sees it: front orientation and arcs, Zones of
//! Influence, line of sight, stacking, movement and charge costs, and paths. Pure geometry over
//! the state; it changes nothing and rolls no die.

use std::collections::{BTreeMap, BTreeSet};

use crate::board::hex::{Hex, HexDir, LineStep, line};

use super::data::Arm;
use super::state::{Cohesion, Formation, LbState, Unit};

/// Compass degrees of a flat-top hex direction (N = 0, NE = 60 …), for the map.
pub fn degrees(d: HexDir) -> f64 {
    d.index() as f64 * 60.0
}

/// The hexes adjacent to `u` through its front hexsides: the one it faces and the two beside
/// it; every side for a square (R4).
pub fn front_hexes(st: &LbState, u: &Unit) -> Vec<Hex> {
    if u.formation.is_square() {
        return st.grid.neighbours(u.hex).to_vec();
    }
    [-1, 0, 1]
        .iter()
        .map(|t| st.grid.neighbour(u.hex, u.facing.turned(*t)))
        .collect()
}

/// Is `target` in the 120-degree front arc of a unit at `from` facing `facing`? The arc is the
/// wedge between the two front-corner directions (R4): every hex reached by steps in the
/// directions `facing − 1` and `facing + 1` only.
pub fn in_arc(st: &LbState, from: Hex, facing: HexDir, target: Hex) -> bool {
    if from == target {
        return false;
    }
    let a = st.grid.neighbour(Hex::new(0, 0), facing.turned(-1));
    let b = st.grid.neighbour(Hex::new(0, 0), facing.turned(1));
    let (dq, dr) = (target.q - from.q, target.r - from.r);
    // Solve dq = x·a.q + y·b.q, dr = x·a.r + y·b.r; the basis has determinant ±1.
    let det = a.q * b.r - a.r * b.q;
    if det == 0 {
        return false;
    }
    let x = (dq * b.r - dr * b.q) / det;
    let y = (a.q * dr - a.r * dq) / det;
    x >= 0 && y >= 0
}

/// Is `target` in `u`'s front: in its arc, or anywhere for a square.
pub fn faces(st: &LbState, u: &Unit, target: Hex) -> bool {
    u.formation.is_square() || in_arc(st, u.hex, u.facing, target)
}

/// The hexes a unit's Zone of Influence covers (R5): its front hexes, for a unit that fights;
/// none for a routed unit, skirmishers or limbered artillery.
pub fn zoi(st: &LbState, u: &Unit) -> Vec<Hex> {
    if !u.fighting() || matches!(u.formation, Formation::Skirmish | Formation::Limbered) {
        return vec![];
    }
    front_hexes(st, u)
}

/// Is `h` in the Zone of Influence of a unit hostile to `side`?
pub fn enemy_zoi(st: &LbState, side: &str, h: Hex) -> bool {
    st.units
        .iter()
        .filter(|u| u.side != side && u.fighting() && u.hex.distance(h) == 1)
        .any(|u| zoi(st, u).contains(&h))
}

/// Line of sight between two hex centres (R6): blocked by an intervening hex whose terrain
/// blocks sight, by a hexside run along when both its hexes block, and by a corner passed
/// through when two of its hexes block. Units never block.
pub fn sight(st: &LbState, a: Hex, b: Hex) -> bool {
    let blocks = |h: Hex| h != a && h != b && st.data.terrain(st.terrain_at(h)).blocks_sight.get();
    line(a, b).intervening().iter().all(|s| match s {
        LineStep::Hex(h) => !blocks(*h),
        LineStep::Hexside(x) => {
            let (p, q) = x.hexes();
            !(blocks(p) && blocks(q))
        }
        LineStep::Vertex(v) => v.hexes().iter().filter(|h| blocks(**h)).count() < 2,
    })
}

/// Combat units in `h` (leaders do not count).
pub fn stack_size(st: &LbState, h: Hex) -> usize {
    st.at(h).len()
}

/// May `movers` (of one side) stand in `h` together with its occupants? Stacking limit, no
/// enemy in it, and cavalry never with infantry or artillery (R7).
pub fn room_for(st: &LbState, h: Hex, movers: &[&Unit]) -> bool {
    let Some(first) = movers.first() else {
        return true;
    };
    if !st.grid.on_map(h) {
        return false;
    }
    let names: BTreeSet<&str> = movers.iter().map(|u| u.name.as_str()).collect();
    let here: Vec<&Unit> = st
        .at(h)
        .into_iter()
        .filter(|u| !names.contains(u.name.as_str()))
        .collect();
    if here.iter().any(|u| u.side != first.side) {
        return false;
    }
    let all: Vec<&Unit> = here.into_iter().chain(movers.iter().copied()).collect();
    legal_stack(st, &all)
}

/// May these units (of one side) make one stack? The stacking limit, and cavalry never with
/// infantry or artillery (R7). Unlike `room_for`, it does not add the hex's other occupants.
pub fn legal_stack(st: &LbState, units: &[&Unit]) -> bool {
    let cav = units.iter().any(|u| u.arm == Arm::Cavalry);
    let foot = units.iter().any(|u| u.arm != Arm::Cavalry);
    if cav && foot {
        return false;
    }
    units.len() <= st.data.rules.stack_limit.int().max(1) as usize
}

/// MP for `u` to enter `to`; `None` where it may not go (off the map, enemy in it, a square,
/// unlimbered artillery).
pub fn move_cost(st: &LbState, u: &Unit, to: Hex) -> Option<u32> {
    if !st.grid.on_map(to) || st.at(to).iter().any(|x| x.side != u.side) {
        return None;
    }
    if u.formation.is_square() || u.formation == Formation::Unlimbered {
        return None;
    }
    let t = st.data.terrain(st.terrain_at(to));
    let mut c = t.cost.int().max(1) as u32;
    if u.arm != Arm::Infantry && t.charge_cost.int() <= 0 {
        // Horses and guns in woods or villages: the charge chart's 0 means "not at a charge";
        // a walk costs double (R8).
        c *= 2;
    }
    Some(c)
}

/// Charge MP to enter `to`; `None` where a charge may not go.
pub fn charge_cost(st: &LbState, to: Hex) -> Option<u32> {
    if !st.grid.on_map(to) {
        return None;
    }
    let c = st.data.terrain(st.terrain_at(to)).charge_cost.int();
    (c > 0).then_some(c as u32)
}

/// MP left to `u` in this player turn.
pub fn mp_left(st: &LbState, u: &Unit) -> u32 {
    let printed = st
        .data
        .class(&u.class)
        .map_or(0, |c| c.mp.int().max(0) as u32);
    printed.saturating_sub(u.mp_spent)
}

pub fn printed_mp(st: &LbState, u: &Unit) -> u32 {
    st.data
        .class(&u.class)
        .map_or(0, |c| c.mp.int().max(0) as u32)
}

/// The cheapest path from `from` to any hex for which `goal` holds, entering only hexes where
/// `cost` gives a value; ties broken by the grid's direction order, so it is deterministic.
/// Returns the hexes after `from` and the total cost.
pub fn cheapest(
    st: &LbState,
    from: Hex,
    goal: impl Fn(Hex) -> bool,
    cost: impl Fn(Hex, Hex) -> Option<u32>,
    limit: u32,
) -> Option<(Vec<Hex>, u32)> {
    if goal(from) {
        return Some((vec![], 0));
    }
    let mut best: BTreeMap<Hex, (u32, Option<Hex>)> = BTreeMap::new();
    let mut frontier: BTreeSet<(u32, u32, Hex)> = BTreeSet::new();
    best.insert(from, (0, None));
    let mut seq = 0u32;
    frontier.insert((0, seq, from));
    while let Some((c, _, h)) = frontier.pop_first() {
        if best.get(&h).is_some_and(|b| b.0 < c) {
            continue;
        }
        if goal(h) {
            let mut path = vec![h];
            let mut at = h;
            while let Some((_, Some(prev))) = best.get(&at) {
                if *prev == from {
                    break;
                }
                path.push(*prev);
                at = *prev;
            }
            path.reverse();
            return Some((path, c));
        }
        for n in st.grid.neighbours(h) {
            let Some(step) = cost(h, n) else { continue };
            let nc = c + step;
            if nc > limit {
                continue;
            }
            if best.get(&n).is_none_or(|b| nc < b.0) {
                best.insert(n, (nc, Some(h)));
                seq += 1;
                frontier.insert((nc, seq, n));
            }
        }
    }
    None
}

/// The hexes of a straight walk from `a` towards `b` (both excluded), one hex at a time, each
/// step to the neighbour nearest `b` (ties: nearest the exact line, then direction order).
pub fn straight(st: &LbState, a: Hex, b: Hex) -> Vec<Hex> {
    let mut out = Vec::new();
    let mut at = a;
    let target = st.grid.centre(b, 1.0);
    let origin = st.grid.centre(a, 1.0);
    while at.distance(b) > 1 {
        let next = st
            .grid
            .neighbours(at)
            .into_iter()
            .filter(|n| n.distance(b) < at.distance(b))
            .min_by(|x, y| {
                let off = |h: Hex| {
                    let p = st.grid.centre(h, 1.0);
                    let (dx, dy) = (target.x - origin.x, target.y - origin.y);
                    ((p.x - origin.x) * dy - (p.y - origin.y) * dx).abs()
                };
                off(*x).total_cmp(&off(*y))
            })
            .expect("a hex nearer the goal always exists");
        out.push(next);
        at = next;
    }
    out
}

/// Distance from `h` to the nearest fighting unit hostile to `side` (a large number if none).
pub fn enemy_distance(st: &LbState, side: &str, h: Hex) -> u32 {
    st.units
        .iter()
        .filter(|u| u.side != side && u.fighting())
        .map(|u| u.hex.distance(h))
        .min()
        .unwrap_or(99)
}

/// The next hex of a retreat or rout away from the enemy (R13): a neighbour the units may
/// enter and stand in, farther from the nearest enemy than `at`; not in an enemy ZOI if any
/// such hex exists; then the farthest, the cheapest, the first in direction order.
pub fn away_step(st: &LbState, units: &[&Unit], at: Hex, avoid: &[Hex]) -> Option<Hex> {
    let first = units.first()?;
    let here = enemy_distance(st, &first.side, at);
    let mut options: Vec<(bool, u32, u32, usize, Hex)> = Vec::new();
    for (i, n) in st.grid.neighbours(at).into_iter().enumerate() {
        if avoid.contains(&n) || !st.grid.on_map(n) {
            continue;
        }
        let cost = units
            .iter()
            .map(|u| {
                let mut walker = (*u).clone();
                walker.formation = Formation::Column;
                move_cost(st, &walker, n)
            })
            .try_fold(0, |a, c| c.map(|c| a.max(c)));
        let Some(cost) = cost else { continue };
        let far = enemy_distance(st, &first.side, n);
        if far < here || !room_for(st, n, units) {
            continue;
        }
        options.push((enemy_zoi(st, &first.side, n), u32::MAX - far, cost, i, n));
    }
    options.sort();
    options.first().map(|o| o.4)
}

/// Is the unit's morale state one that can attempt a square (infantry, not routed, not already
/// in square)?
pub fn can_form_square(u: &Unit) -> bool {
    u.arm == Arm::Infantry && u.fighting() && !u.formation.is_square()
}

/// Units of `side` adjacent to `h` that are in good order or disordered.
pub fn adjacent_fighting<'a>(st: &'a LbState, side: &str, h: Hex) -> Vec<&'a Unit> {
    st.units
        .iter()
        .filter(|u| u.side == side && u.fighting() && u.hex.distance(h) == 1)
        .collect()
}

/// Is the attack from `from` against `u` through its flank or rear (not a square)?
pub fn flank_or_rear(st: &LbState, u: &Unit, from: Hex) -> bool {
    !u.formation.is_square() && !front_hexes(st, u).contains(&from)
}

/// A unit is disordered or routed.
pub fn shaken(u: &Unit) -> bool {
    u.cohesion != Cohesion::GoodOrder
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::hex::Address;
    use crate::rulesets::la_bataille::setup::tests::teaching;

    #[test]
    fn the_front_arc_is_the_wedge_between_the_front_corners() {
        let st = teaching();
        let g = st.grid;
        let at = g.hex(Address { column: 5, row: 5 });
        let n = g.dir("N".parse().unwrap()).unwrap();
        // Straight ahead, and the two front-corner directions, are in the arc.
        assert!(in_arc(&st, at, n, g.neighbour(at, n)));
        assert!(in_arc(&st, at, n, g.neighbour(at, n.turned(1))));
        assert!(in_arc(&st, at, n, g.neighbour(at, n.turned(-1))));
        assert!(in_arc(&st, at, n, g.neighbour(g.neighbour(at, n), n)));
        // Flanks and rear are not.
        assert!(!in_arc(&st, at, n, g.neighbour(at, n.turned(2))));
        assert!(!in_arc(&st, at, n, g.neighbour(at, n.opposite())));
    }

    #[test]
    fn a_cheapest_path_avoids_what_it_may_not_enter() {
        let st = teaching();
        let g = st.grid;
        let a = g.hex(Address { column: 2, row: 2 });
        let b = g.hex(Address { column: 2, row: 6 });
        let (path, cost) = cheapest(&st, a, |h| h == b, |_, _| Some(1), 99).unwrap();
        assert_eq!(cost, 4);
        assert_eq!(path.last(), Some(&b));
        assert_eq!(straight(&st, a, b).len(), 3);
    }
}
