//! Line of sight (§4.2), hex centre dot to hex centre dot, on the exact lines of `board::hex`:
//! units on the same level (§4.2.1 a–f), on different levels with the Blind Hex Procedure
//! (§4.2.2–4.2.3), and hindrances (§4.2.4). Terrain alone decides blocking, so that answer is
//! memoised per map (a pure function's cache: it never changes an answer). It knows terrain and
//! the hindering hexes handed in, never where units are or who may see them.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::board::hex::{Hex, HexLine, Hexside, LineStep, line};

use super::data::{Ground, RulesetData};
use super::map::Map;

/// A map's identity for the memo: the map text and the terrain numbers LOS reads.
pub fn fingerprint(data: &RulesetData, map: &Map) -> u64 {
    let mut text = serde_json::to_string(map).expect("maps serialise");
    for (g, fx) in &data.terrain {
        text.push_str(&format!(
            "|{}:{}:{}:{}",
            g.key(),
            fx.height.int(),
            fx.blocking,
            fx.building
        ));
    }
    for row in data.tables.blind_hexes.get() {
        text.push_str(&format!("|{row:?}"));
    }
    // FNV-1a: stable across runs and builds, unlike the std hasher.
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

type Memo = Mutex<HashMap<(u64, Hex, Hex), bool>>;

fn memo() -> &'static Memo {
    static MEMO: OnceLock<Memo> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Does terrain block the LOS between the two hex centres? Symmetric; adjacent hexes always
/// see each other (§4.2: units may always fire into an adjacent hex).
pub fn blocked(data: &RulesetData, map: &Map, key: u64, a: Hex, b: Hex) -> bool {
    if a == b || a.is_adjacent(b) {
        return false;
    }
    let k = if a < b { (key, a, b) } else { (key, b, a) };
    if let Some(v) = memo().lock().expect("LOS memo").get(&k) {
        return *v;
    }
    let v = compute(data, map, k.1, k.2);
    memo().lock().expect("LOS memo").insert(k, v);
    v
}

/// The uncached answer (also what the tests compare the cache with).
pub fn compute(data: &RulesetData, map: &Map, a: Hex, b: Hex) -> bool {
    if a == b || a.is_adjacent(b) {
        return false;
    }
    let l = line(a, b);
    if walls_block(map, &l, a, b) {
        return true;
    }
    if map.level(a) == map.level(b) {
        same_level(data, map, &l, a, b)
    } else {
        different_levels(data, map, &l, a, b)
    }
}

/// Which side of the line a hex lies on (its centre is never on the line when it is a
/// hexside's hex and the line runs along that side).
fn side(map: &Map, a: Hex, b: Hex, h: Hex) -> bool {
    let g = map.grid();
    let (p, q, c) = (g.centre(a, 1.0), g.centre(b, 1.0), g.centre(h, 1.0));
    (q.x - p.x) * (c.y - p.y) - (q.y - p.y) * (c.x - p.x) > 0.0
}

/// §4.2.1a/b: a woods or forest hex, or a hill hex higher than both units.
fn blocking_hex(data: &RulesetData, map: &Map, h: Hex, level: i32) -> bool {
    data.fx(map.ground(h)).blocking || map.level(h) > level
}

/// §4.2.1c (R2): a contour in an intervening hex at or above the higher unit's blocks; at
/// the same contour only when the two units stand on different contours.
fn contour_blocks(map: &Map, h: Hex, a: Hex, b: Hex) -> bool {
    let (ca, cb) = (map.contour(a), map.contour(b));
    let hi = ca.max(cb);
    let c = map.contour(h);
    c > hi || (c == hi && ca != cb)
}

fn same_level(data: &RulesetData, map: &Map, l: &HexLine, a: Hex, b: Hex) -> bool {
    let level = map.level(a);
    // Runs of the line along hexsides: blocking somewhere on each side blocks (§4.2.1b).
    let (mut left, mut right) = (false, false);
    for step in l.intervening() {
        match *step {
            LineStep::Hex(h) => {
                left = false;
                right = false;
                let fx = data.fx(map.ground(h));
                // §4.2.1a, d (R5: a building's image fills its hex).
                if blocking_hex(data, map, h, level) || fx.building {
                    return true;
                }
                if contour_blocks(map, h, a, b) {
                    return true;
                }
            }
            LineStep::Hexside(s) => {
                let (x, y) = s.hexes();
                for h in [x, y] {
                    if h == a || h == b {
                        continue;
                    }
                    if blocking_hex(data, map, h, level) || contour_blocks(map, h, a, b) {
                        if side(map, a, b, h) {
                            left = true;
                        } else {
                            right = true;
                        }
                    }
                }
                if left && right {
                    return true;
                }
            }
            LineStep::Vertex(_) => {}
        }
    }
    false
}

/// §4.2.2–4.2.3: blocked by an obstacle as high as the higher end, or in its blind hexes.
fn different_levels(data: &RulesetData, map: &Map, l: &HexLine, a: Hex, b: Hex) -> bool {
    let (hi, lo) = if map.level(a) > map.level(b) {
        (a, b)
    } else {
        (b, a)
    };
    let (lhi, llo) = (map.level(hi), map.level(lo));
    let obstacle = |h: Hex| -> Option<i32> {
        let g = map.ground(h);
        let fx = data.fx(g);
        let height = map.height(data, h);
        // Only woods, forest, hills and buildings make blind hexes; walls never (§4.2.3).
        let can = fx.blocking || fx.building || map.level(h) > llo;
        (can && height > llo).then_some(height)
    };
    let casts = |h: Hex, height: i32| -> bool {
        if height >= lhi {
            return true;
        }
        let n = data.blind_hexes(lhi - height, hi.distance(h));
        h.distance(lo) <= n
    };
    for step in l.intervening() {
        match *step {
            LineStep::Hex(h) => {
                if let Some(height) = obstacle(h)
                    && casts(h, height)
                {
                    return true;
                }
            }
            // Along a hexside the lower of its two hexes is what the line clears (R5).
            LineStep::Hexside(s) => {
                let (x, y) = s.hexes();
                if let (Some(hx), Some(hy)) = (obstacle(x), obstacle(y)) {
                    let (h, height) = if hx <= hy { (x, hx) } else { (y, hy) };
                    if casts(h, height) {
                        return true;
                    }
                }
            }
            LineStep::Vertex(_) => {}
        }
    }
    false
}

/// Is `h` adjacent to the wall hexside `s` or one of its vertices (§4.2.1e)?
fn near_wall(s: Hexside, h: Hex) -> bool {
    s.vertices().iter().any(|v| v.touches(h))
}

/// §4.2.1e: through or along a wall hexside, unless an end unit is next to the wall. Walls
/// never block from a higher level (§4.2.3), so only units on the same level are stopped.
fn walls_block(map: &Map, l: &HexLine, a: Hex, b: Hex) -> bool {
    if map.level(a) != map.level(b) {
        return false;
    }
    l.hexsides_crossed()
        .into_iter()
        .chain(l.hexsides_along())
        .any(|s| map.wall(s) && !near_wall(s, a) && !near_wall(s, b))
}

/// §4.2.1f, §4.1.9c: a vehicle or towed gun in an urban road hex sees out of its hex only
/// along the road: the line must leave the hex into (or along, or through the corner of) a
/// contiguous road hex (R3).
pub fn urban_road_clear(map: &Map, from: Hex, to: Hex) -> bool {
    if map.ground(from) != Ground::UrbanRoad || from == to {
        return true;
    }
    let l = line(from, to);
    let next = l.steps.iter().find(|s| **s != LineStep::Hex(from));
    let road_near = |h: Hex| h != from && map.road_link(from, h);
    match next {
        Some(LineStep::Hex(h)) => road_near(*h),
        Some(LineStep::Hexside(s)) => {
            let (x, y) = s.hexes();
            road_near(x) || road_near(y)
        }
        Some(LineStep::Vertex(v)) => v.hexes().into_iter().any(road_near),
        None => true,
    }
}

/// §4.2.4: hindrances along a clear line. `marker` says which hexes hold an MDRM or Smoke
/// marker, `vehicle` which urban road hexes hold a vehicle. Markers hinder the line into, out
/// of and through a hex; vehicles only through one (R5). Cumulative.
pub fn hindrances(
    map: &Map,
    a: Hex,
    b: Hex,
    marker: &dyn Fn(Hex) -> bool,
    vehicle: &dyn Fn(Hex) -> bool,
) -> u32 {
    if a == b {
        return u32::from(marker(a));
    }
    let l = line(a, b);
    let mut n = 0;
    for step in &l.steps {
        match *step {
            LineStep::Hex(h) => {
                if marker(h) {
                    n += 1;
                }
                if h != a && h != b && vehicle(h) {
                    n += 1;
                }
            }
            LineStep::Hexside(s) => {
                // §4.2.4b/c: along a hexside with a marker on one side and woods, forest or a
                // hill on the other, or markers on both sides (counted once).
                let (x, y) = s.hexes();
                let hill = |h: Hex| {
                    let g = map.ground(h);
                    matches!(g, Ground::Woods | Ground::Forest) || map.level(h) > 0
                };
                if (marker(x) && (marker(y) || hill(y))) || (marker(y) && hill(x)) {
                    n += 1;
                }
            }
            LineStep::Vertex(_) => {}
        }
    }
    n
}
