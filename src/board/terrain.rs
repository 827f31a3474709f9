//! Terrain shapes on a tabletop, in whatever unit the ruleset measures (inches or centimetres):
//! area polygons (woods, rough), circles (smoke, blast) and bands (roads, rivers as a centre line
//! with a width). Answers geometric questions only: is a point inside, how much of a sight line
//! runs inside, how much of a round counter lies inside. It knows no terrain type and no rule.
//!
//! Rulings built into the measures, so that every ruleset shares them:
//! - `contains` is closed: a point on an outline is inside.
//! - `length_inside` measures the *open* inside: a sight line grazing or running along an outline
//!   crosses none of the area, as a hex line along a hexside crosses neither hex.
//! - `segment_intersects` is closed: touching the outline counts.
//! - "More than half of a counter" is strictly more than half of its area.

use std::f64::consts::PI;

use serde::{Deserialize, Serialize};

use super::tabletop::{Pt, dist, nearest_point_on_segment, segments_intersect};

/// Far below anything a player can measure, in either unit.
const EPS: f64 = 1e-9;

fn sub(a: Pt, b: Pt) -> (f64, f64) {
    (a.x - b.x, a.y - b.y)
}

fn cross2(a: (f64, f64), b: (f64, f64)) -> f64 {
    a.0 * b.1 - a.1 * b.0
}

fn dot2(a: (f64, f64), b: (f64, f64)) -> f64 {
    a.0 * b.0 + a.1 * b.1
}

fn lerp(a: Pt, b: Pt, t: f64) -> Pt {
    Pt::new(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
}

/// A simple polygon (no self-crossing), corners in either winding order, closing back on itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Polygon {
    pub points: Vec<Pt>,
}

impl Polygon {
    pub fn new(points: Vec<Pt>) -> Self {
        Self { points }
    }

    /// The outline's sides, each from one corner to the next (the last back to the first).
    pub fn edges(&self) -> impl Iterator<Item = (Pt, Pt)> + '_ {
        let n = self.points.len();
        (0..n).map(move |i| (self.points[i], self.points[(i + 1) % n]))
    }

    pub fn area(&self) -> f64 {
        let twice: f64 = self
            .edges()
            .map(|(a, b)| a.x * b.y - b.x * a.y)
            .sum::<f64>();
        twice.abs() / 2.0
    }

    /// Distance from `p` to the outline (whether `p` is inside or out).
    pub fn distance_to_outline(&self, p: Pt) -> f64 {
        self.edges()
            .map(|(a, b)| dist(nearest_point_on_segment(a, b, p), p))
            .fold(f64::INFINITY, f64::min)
    }

    fn on_outline(&self, p: Pt) -> bool {
        self.distance_to_outline(p) <= EPS
    }

    /// Inside or on the outline. A polygon of fewer than three corners holds only its outline.
    pub fn contains(&self, p: Pt) -> bool {
        self.on_outline(p) || self.strictly_contains(p)
    }

    /// Inside and not on the outline.
    pub fn strictly_contains(&self, p: Pt) -> bool {
        if self.points.len() < 3 || self.on_outline(p) {
            return false;
        }
        // Even-odd ray cast to +x; points on the outline were settled above.
        let mut inside = false;
        for (a, b) in self.edges() {
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
                if x > p.x {
                    inside = !inside;
                }
            }
        }
        inside
    }

    /// Distance from `p` to the area: 0 inside or on the outline.
    pub fn distance_to(&self, p: Pt) -> f64 {
        if self.contains(p) {
            0.0
        } else {
            self.distance_to_outline(p)
        }
    }

    /// Does the segment `a`–`b` touch the area at all (crossing, touching or lying inside)?
    pub fn segment_intersects(&self, a: Pt, b: Pt) -> bool {
        self.contains(a) || self.edges().any(|(c, d)| segments_intersect(a, b, c, d))
    }

    /// Length of the segment `a`–`b` inside the open area (see the module's rulings).
    pub fn length_inside(&self, a: Pt, b: Pt) -> f64 {
        let len = dist(a, b);
        if len <= EPS || self.points.len() < 3 {
            return 0.0;
        }
        let mut ts = vec![0.0, 1.0];
        let r = sub(b, a);
        for (c, d) in self.edges() {
            let s = sub(d, c);
            let denom = cross2(r, s);
            let q = sub(c, a);
            if denom.abs() > EPS * len * dist(c, d).max(EPS) {
                let t = cross2(q, s) / denom;
                let u = cross2(q, r) / denom;
                if (-EPS..=1.0 + EPS).contains(&u) {
                    ts.push(t.clamp(0.0, 1.0));
                }
            } else if cross2(q, r).abs() <= EPS * len {
                // Collinear with the sight line: its ends bound a stretch along the outline.
                for e in [c, d] {
                    ts.push((dot2(sub(e, a), r) / (len * len)).clamp(0.0, 1.0));
                }
            }
        }
        ts.sort_by(f64::total_cmp);
        ts.windows(2)
            .filter(|w| w[1] - w[0] > EPS)
            .filter(|w| self.strictly_contains(lerp(a, b, (w[0] + w[1]) / 2.0)))
            .map(|w| (w[1] - w[0]) * len)
            .sum()
    }

    /// Area of a round counter (centre, radius) that lies inside.
    pub fn circle_area_inside(&self, centre: Pt, radius: f64) -> f64 {
        if radius <= 0.0 || self.points.len() < 3 {
            return 0.0;
        }
        self.edges()
            .map(|(a, b)| triangle_circle_area(sub(a, centre), sub(b, centre), radius))
            .sum::<f64>()
            .abs()
    }

    /// Is strictly more than half of a round counter's area inside?
    pub fn more_than_half_inside(&self, centre: Pt, radius: f64) -> bool {
        if radius <= 0.0 {
            return self.strictly_contains(centre);
        }
        self.circle_area_inside(centre, radius) > PI * radius * radius / 2.0 + EPS
    }
}

/// Signed area of (circle of `r` at the origin) ∩ (triangle origin, `a`, `b`).
fn triangle_circle_area(a: (f64, f64), b: (f64, f64), r: f64) -> f64 {
    let sector = |u: (f64, f64), v: (f64, f64)| r * r / 2.0 * cross2(u, v).atan2(dot2(u, v));
    let d = (b.0 - a.0, b.1 - a.1);
    let dd = dot2(d, d);
    if dd <= EPS * EPS {
        return 0.0;
    }
    let ad = dot2(a, d);
    let disc = ad * ad - dd * (dot2(a, a) - r * r);
    if disc <= 0.0 {
        return sector(a, b);
    }
    let root = disc.sqrt();
    let (t1, t2) = ((-ad - root) / dd, (-ad + root) / dd);
    if t2 <= 0.0 || t1 >= 1.0 {
        return sector(a, b);
    }
    let at = |t: f64| (a.0 + d.0 * t, a.1 + d.1 * t);
    let (p1, p2) = (at(t1.max(0.0)), at(t2.min(1.0)));
    sector(a, p1) + cross2(p1, p2) / 2.0 + sector(p2, b)
}

/// Parameters `[t1, t2]` (unclamped) where the line `a + t(b - a)` is within `r` of `c`.
fn disc_interval(a: Pt, b: Pt, c: Pt, r: f64) -> Option<(f64, f64)> {
    let d = sub(b, a);
    let f = sub(a, c);
    let dd = dot2(d, d);
    if dd <= EPS * EPS {
        return (dist(a, c) <= r).then_some((f64::NEG_INFINITY, f64::INFINITY));
    }
    let fd = dot2(f, d);
    let disc = fd * fd - dd * (dot2(f, f) - r * r);
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    Some(((-fd - root) / dd, (-fd + root) / dd))
}

fn clamp_interval((lo, hi): (f64, f64)) -> Option<(f64, f64)> {
    let (lo, hi) = (lo.max(0.0), hi.min(1.0));
    (hi > lo).then_some((lo, hi))
}

/// A round area: smoke, a blast, a copse drawn as a circle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Circle {
    pub centre: Pt,
    pub radius: f64,
}

impl Circle {
    pub fn area(&self) -> f64 {
        PI * self.radius * self.radius
    }

    pub fn contains(&self, p: Pt) -> bool {
        dist(self.centre, p) <= self.radius + EPS
    }

    pub fn distance_to(&self, p: Pt) -> f64 {
        (dist(self.centre, p) - self.radius).max(0.0)
    }

    pub fn segment_intersects(&self, a: Pt, b: Pt) -> bool {
        dist(nearest_point_on_segment(a, b, self.centre), self.centre) <= self.radius + EPS
    }

    pub fn length_inside(&self, a: Pt, b: Pt) -> f64 {
        disc_interval(a, b, self.centre, self.radius)
            .and_then(clamp_interval)
            .map_or(0.0, |(lo, hi)| (hi - lo) * dist(a, b))
    }

    /// Area of a round counter inside this circle (the lens of two discs).
    pub fn circle_area_inside(&self, centre: Pt, radius: f64) -> f64 {
        let (r1, r2) = (self.radius, radius);
        if r1 <= 0.0 || r2 <= 0.0 {
            return 0.0;
        }
        let d = dist(self.centre, centre);
        if d >= r1 + r2 {
            return 0.0;
        }
        if d <= (r1 - r2).abs() {
            let r = r1.min(r2);
            return PI * r * r;
        }
        let part = |ra: f64, rb: f64| {
            let cos = ((d * d + ra * ra - rb * rb) / (2.0 * d * ra)).clamp(-1.0, 1.0);
            ra * ra * cos.acos()
        };
        let kite = 0.5 * ((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2)).sqrt();
        part(r1, r2) + part(r2, r1) - kite
    }

    pub fn more_than_half_inside(&self, centre: Pt, radius: f64) -> bool {
        if radius <= 0.0 {
            return dist(self.centre, centre) < self.radius - EPS;
        }
        self.circle_area_inside(centre, radius) > PI * radius * radius / 2.0 + EPS
    }
}

/// A linear feature with a width: a road, stream or hedge along a centre line. Everything within
/// half the width of the centre line is on it (so the ends are rounded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Band {
    pub points: Vec<Pt>,
    pub width: f64,
}

impl Band {
    fn pieces(&self) -> impl Iterator<Item = (Pt, Pt)> + '_ {
        let single = (self.points.len() == 1).then(|| (self.points[0], self.points[0]));
        self.points.windows(2).map(|w| (w[0], w[1])).chain(single)
    }

    /// Distance from `p` to the centre line.
    pub fn centre_line_distance(&self, p: Pt) -> f64 {
        self.pieces()
            .map(|(a, b)| dist(nearest_point_on_segment(a, b, p), p))
            .fold(f64::INFINITY, f64::min)
    }

    pub fn contains(&self, p: Pt) -> bool {
        self.centre_line_distance(p) <= self.width / 2.0 + EPS
    }

    /// Distance from `p` to the band's edge: 0 on the band.
    pub fn distance_to(&self, p: Pt) -> f64 {
        (self.centre_line_distance(p) - self.width / 2.0).max(0.0)
    }

    pub fn segment_intersects(&self, a: Pt, b: Pt) -> bool {
        self.pieces()
            .any(|(c, d)| super::tabletop::segment_distance(a, b, c, d) <= self.width / 2.0 + EPS)
    }

    /// Length of the segment `a`–`b` on the band (overlapping pieces counted once).
    pub fn length_inside(&self, a: Pt, b: Pt) -> f64 {
        let r = self.width / 2.0;
        let len = dist(a, b);
        if len <= EPS || r <= 0.0 {
            return 0.0;
        }
        let mut spans: Vec<(f64, f64)> = self
            .pieces()
            .filter_map(|(c, d)| capsule_interval(a, b, c, d, r))
            .collect();
        spans.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut total = 0.0;
        let mut current: Option<(f64, f64)> = None;
        for (lo, hi) in spans {
            current = match current {
                Some((clo, chi)) if lo <= chi => Some((clo, chi.max(hi))),
                Some((clo, chi)) => {
                    total += chi - clo;
                    Some((lo, hi))
                }
                None => Some((lo, hi)),
            };
        }
        if let Some((clo, chi)) = current {
            total += chi - clo;
        }
        total * len
    }
}

/// Parameters of segment `a`–`b` within `r` of segment `c`–`d` (a capsule, which is convex, so
/// the answer is one interval: the hull of the two end discs' and the middle strip's intervals).
fn capsule_interval(a: Pt, b: Pt, c: Pt, d: Pt, r: f64) -> Option<(f64, f64)> {
    let mut parts = vec![disc_interval(a, b, c, r), disc_interval(a, b, d, r)];
    let axis = sub(d, c);
    let axis_len = dot2(axis, axis).sqrt();
    if axis_len > EPS {
        let u = (axis.0 / axis_len, axis.1 / axis_len);
        let n = (-u.1, u.0);
        let (dir, from) = (sub(b, a), sub(a, c));
        // Strip: 0 <= u·(p - c) <= axis_len and |n·(p - c)| <= r.
        let mut lo = f64::NEG_INFINITY;
        let mut hi = f64::INFINITY;
        let mut empty = false;
        for (k, min, max) in [(u, 0.0, axis_len), (n, -r, r)] {
            let p0 = dot2(k, from);
            let dp = dot2(k, dir);
            if dp.abs() <= EPS {
                empty |= p0 < min - EPS || p0 > max + EPS;
            } else {
                let (t1, t2) = ((min - p0) / dp, (max - p0) / dp);
                lo = lo.max(t1.min(t2));
                hi = hi.min(t1.max(t2));
            }
        }
        if !empty && lo <= hi {
            parts.push(Some((lo, hi)));
        }
    }
    let (lo, hi) = parts
        .into_iter()
        .flatten()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), (a, b)| {
            (l.min(a), h.max(b))
        });
    clamp_interval((lo, hi))
}

/// An area of terrain as a scenario draws it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Area {
    Polygon { points: Vec<Pt> },
    Circle { centre: Pt, radius: f64 },
    Band { points: Vec<Pt>, width: f64 },
}

/// The same questions for any shape, so a ruleset can hold its terrain in one list.
impl Area {
    pub fn contains(&self, p: Pt) -> bool {
        match self {
            Area::Polygon { points } => poly(points).contains(p),
            Area::Circle { centre, radius } => circle(*centre, *radius).contains(p),
            Area::Band { points, width } => band(points, *width).contains(p),
        }
    }

    pub fn distance_to(&self, p: Pt) -> f64 {
        match self {
            Area::Polygon { points } => poly(points).distance_to(p),
            Area::Circle { centre, radius } => circle(*centre, *radius).distance_to(p),
            Area::Band { points, width } => band(points, *width).distance_to(p),
        }
    }

    pub fn segment_intersects(&self, a: Pt, b: Pt) -> bool {
        match self {
            Area::Polygon { points } => poly(points).segment_intersects(a, b),
            Area::Circle { centre, radius } => circle(*centre, *radius).segment_intersects(a, b),
            Area::Band { points, width } => band(points, *width).segment_intersects(a, b),
        }
    }

    pub fn length_inside(&self, a: Pt, b: Pt) -> f64 {
        match self {
            Area::Polygon { points } => poly(points).length_inside(a, b),
            Area::Circle { centre, radius } => circle(*centre, *radius).length_inside(a, b),
            Area::Band { points, width } => band(points, *width).length_inside(a, b),
        }
    }

    /// Whole units of the segment inside, rounded down (Gear Krieg: obscurement per whole cm).
    pub fn whole_units_inside(&self, a: Pt, b: Pt) -> u32 {
        // A hair of tolerance so that an exact 3 cm measured as 2.9999999 still counts 3.
        let whole = (self.length_inside(a, b) + 1e-6).floor();
        // Table lengths are far below u32::MAX.
        whole.max(0.0) as u32
    }

    /// Is strictly more than half of a round counter inside? A band answers by the counter's
    /// centre alone (its area test is not implemented; roads rarely need it).
    pub fn more_than_half_inside(&self, centre: Pt, radius: f64) -> bool {
        match self {
            Area::Polygon { points } => poly(points).more_than_half_inside(centre, radius),
            Area::Circle {
                centre: c,
                radius: r,
            } => circle(*c, *r).more_than_half_inside(centre, radius),
            Area::Band { points, width } => band(points, *width).contains(centre),
        }
    }
}

fn poly(points: &[Pt]) -> Polygon {
    Polygon::new(points.to_vec())
}

fn circle(centre: Pt, radius: f64) -> Circle {
    Circle { centre, radius }
}

fn band(points: &[Pt], width: f64) -> Band {
    Band {
        points: points.to_vec(),
        width,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Pt {
        Pt::new(x, y)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    fn square() -> Polygon {
        // 10 × 10 wood, clockwise.
        Polygon::new(vec![p(0.0, 0.0), p(0.0, 10.0), p(10.0, 10.0), p(10.0, 0.0)])
    }

    /// An L-shaped wood: concave, so a line can leave and re-enter it.
    fn ell() -> Polygon {
        Polygon::new(vec![
            p(0.0, 0.0),
            p(10.0, 0.0),
            p(10.0, 4.0),
            p(4.0, 4.0),
            p(4.0, 10.0),
            p(0.0, 10.0),
        ])
    }

    #[test]
    fn points_in_polygons() {
        let sq = square();
        assert!(sq.contains(p(5.0, 5.0)));
        assert!(sq.contains(p(0.0, 5.0)) && !sq.strictly_contains(p(0.0, 5.0)));
        assert!(sq.contains(p(10.0, 10.0)));
        assert!(!sq.contains(p(10.1, 5.0)));
        let l = ell();
        assert!(l.contains(p(2.0, 8.0)) && l.contains(p(8.0, 2.0)));
        assert!(!l.contains(p(8.0, 8.0)));
        assert!(close(l.area(), 64.0));
        assert!(close(sq.area(), 100.0));
        assert!(close(l.distance_to(p(8.0, 8.0)), 4.0));
        assert!(close(l.distance_to(p(2.0, 2.0)), 0.0));
        assert!(close(l.distance_to_outline(p(2.0, 2.0)), 2.0));
        assert!(!Polygon::new(vec![p(0.0, 0.0), p(1.0, 1.0)]).strictly_contains(p(0.5, 0.5)));
    }

    #[test]
    fn sight_line_lengths_inside() {
        let sq = square();
        // Straight across: 10 inside.
        assert!(close(sq.length_inside(p(-5.0, 5.0), p(15.0, 5.0)), 10.0));
        // Starting inside.
        assert!(close(sq.length_inside(p(5.0, 5.0), p(15.0, 5.0)), 5.0));
        // Diagonal corner to corner through the middle.
        assert!(close(
            sq.length_inside(p(-1.0, -1.0), p(11.0, 11.0)),
            200f64.sqrt()
        ));
        // Along an outline and grazing a corner: nothing crossed (open inside).
        assert!(close(sq.length_inside(p(0.0, -5.0), p(0.0, 15.0)), 0.0));
        assert!(close(
            sq.length_inside(p(-1.0, 11.0), p(1.0, 9.0)),
            2f64.sqrt()
        ));
        assert!(close(sq.length_inside(p(-1.0, 1.0), p(1.0, -1.0)), 0.0));
        // Missing entirely, and degenerate.
        assert!(close(sq.length_inside(p(-5.0, 12.0), p(15.0, 12.0)), 0.0));
        assert!(close(sq.length_inside(p(5.0, 5.0), p(5.0, 5.0)), 0.0));
        // Concave: out of one arm, across the notch, into the other? A line at y = 6 crosses
        // the upright arm (x 0..4) only; a line at x + y = 9 crosses both arms and the notch.
        let l = ell();
        assert!(close(l.length_inside(p(-2.0, 6.0), p(12.0, 6.0)), 4.0));
        let inside = l.length_inside(p(-1.0, 10.0), p(10.0, -1.0));
        // Inside from (0,9) to (4,5) and from (5,4) to (9,0): two runs of 4·√2.
        assert!(close(inside, 8.0 * 2f64.sqrt()), "{inside}");
        // Along the notch's inner edge y = 4, x from 4 to 10: on the outline, not inside.
        assert!(close(l.length_inside(p(4.0, 4.0), p(12.0, 4.0)), 0.0));
    }

    #[test]
    fn whole_units_round_down() {
        let wood = Area::Polygon {
            points: square().points,
        };
        assert_eq!(wood.whole_units_inside(p(7.5, 5.0), p(20.0, 5.0)), 2);
        assert_eq!(wood.whole_units_inside(p(7.0, 5.0), p(20.0, 5.0)), 3);
        assert_eq!(wood.whole_units_inside(p(9.5, 5.0), p(20.0, 5.0)), 0);
        assert_eq!(wood.whole_units_inside(p(-3.0, 5.0), p(20.0, 5.0)), 10);
    }

    #[test]
    fn segments_meeting_polygons() {
        let sq = square();
        assert!(sq.segment_intersects(p(-5.0, 5.0), p(15.0, 5.0)));
        assert!(sq.segment_intersects(p(2.0, 2.0), p(3.0, 3.0))); // wholly inside
        assert!(sq.segment_intersects(p(-1.0, 11.0), p(1.0, 9.0))); // clips a corner
        assert!(sq.segment_intersects(p(10.0, 12.0), p(10.0, 10.0))); // touches a corner
        assert!(!sq.segment_intersects(p(11.0, 0.0), p(11.0, 10.0)));
        assert!(!ell().segment_intersects(p(6.0, 6.0), p(9.0, 9.0))); // in the notch
    }

    #[test]
    fn counters_more_than_half_inside() {
        let sq = square();
        // Centre on a straight edge: exactly half, so not more than half.
        assert!(close(sq.circle_area_inside(p(0.0, 5.0), 1.0), PI / 2.0));
        assert!(!sq.more_than_half_inside(p(0.0, 5.0), 1.0));
        assert!(sq.more_than_half_inside(p(0.1, 5.0), 1.0));
        assert!(!sq.more_than_half_inside(p(-0.1, 5.0), 1.0));
        // Wholly inside, wholly outside, at a corner (a quarter).
        assert!(close(sq.circle_area_inside(p(5.0, 5.0), 2.0), 4.0 * PI));
        assert!(close(sq.circle_area_inside(p(20.0, 5.0), 2.0), 0.0));
        assert!(close(sq.circle_area_inside(p(10.0, 10.0), 1.0), PI / 4.0));
        // A counter bigger than the area: all of the area is under it.
        assert!(close(sq.circle_area_inside(p(5.0, 5.0), 100.0), 100.0));
        // Same answer whichever way the outline winds.
        let mut rev = sq.clone();
        rev.points.reverse();
        assert!(close(
            rev.circle_area_inside(p(0.3, 9.6), 1.0),
            sq.circle_area_inside(p(0.3, 9.6), 1.0)
        ));
        // In the notch corner of the L, three quarters of the counter is wood.
        assert!(close(ell().circle_area_inside(p(4.0, 4.0), 1.0), 0.75 * PI));
        assert!(ell().more_than_half_inside(p(4.0, 4.0), 1.0));
    }

    #[test]
    fn circles() {
        let smoke = Circle {
            centre: p(0.0, 0.0),
            radius: 2.0,
        };
        assert!(smoke.contains(p(2.0, 0.0)) && !smoke.contains(p(2.1, 0.0)));
        assert!(close(smoke.length_inside(p(-5.0, 0.0), p(5.0, 0.0)), 4.0));
        assert!(close(smoke.length_inside(p(0.0, 0.0), p(5.0, 0.0)), 2.0));
        assert!(close(smoke.length_inside(p(-5.0, 2.0), p(5.0, 2.0)), 0.0));
        assert!(close(smoke.length_inside(p(-5.0, 3.0), p(5.0, 3.0)), 0.0));
        assert!(smoke.segment_intersects(p(-5.0, 2.0), p(5.0, 2.0)));
        assert!(!smoke.segment_intersects(p(-5.0, 2.1), p(5.0, 2.1)));
        assert!(close(smoke.distance_to(p(5.0, 0.0)), 3.0));
        // Lens of two radius-2 discs 2 apart: 2r²·acos(d/2r) − (d/2)·√(4r² − d²) = 8π/3 − 2√3.
        let lens = smoke.circle_area_inside(p(2.0, 0.0), 2.0);
        let expected = 2.0 * 4.0 * (PI / 3.0) - 2.0 * 3f64.sqrt();
        assert!(close(lens, expected), "{lens} vs {expected}");
        assert!(close(smoke.circle_area_inside(p(0.5, 0.0), 1.0), PI));
        assert!(close(smoke.circle_area_inside(p(9.0, 0.0), 1.0), 0.0));
        assert!(smoke.more_than_half_inside(p(1.5, 0.0), 1.0));
        assert!(!smoke.more_than_half_inside(p(2.5, 0.0), 1.0));
    }

    #[test]
    fn bands_like_roads() {
        // A road 2 wide running east then turning north.
        let road = Band {
            points: vec![p(0.0, 0.0), p(10.0, 0.0), p(10.0, 10.0)],
            width: 2.0,
        };
        assert!(road.contains(p(5.0, 1.0)) && !road.contains(p(5.0, 1.1)));
        assert!(road.contains(p(10.9, 5.0)));
        assert!(close(road.distance_to(p(5.0, 4.0)), 3.0));
        // Crossing the east-west leg square on: 2 on the road.
        assert!(close(road.length_inside(p(5.0, -5.0), p(5.0, 5.0)), 2.0));
        // Along the east-west leg: from x = 0 to the bend at x = 10 and 1 beyond it (the north
        // leg's width), with the rounded start adding 1 before x = 0.
        assert!(close(road.length_inside(p(-5.0, 0.0), p(20.0, 0.0)), 12.0));
        // Across both legs at the bend, overlapping spans are counted once: the east leg holds
        // y in [-1, 1] at x = 9.5, the north leg y from -√0.75 up to 3.
        let l = road.length_inside(p(9.5, -3.0), p(9.5, 3.0));
        assert!(close(l, 4.0), "{l}");
        assert!(road.segment_intersects(p(5.0, 5.0), p(5.0, 1.0)));
        assert!(!road.segment_intersects(p(5.0, 5.0), p(5.0, 1.5)));
        let area = Area::Band {
            points: road.points.clone(),
            width: 2.0,
        };
        assert!(area.more_than_half_inside(p(10.0, 5.0), 0.5));
        assert!(close(area.length_inside(p(5.0, -5.0), p(5.0, 5.0)), 2.0));
    }

    #[test]
    fn areas_from_scenario_toml() {
        let text = r#"
            [[area]]
            shape = "polygon"
            points = [{ x = 0.0, y = 0.0 }, { x = 0.0, y = 4.0 }, { x = 4.0, y = 0.0 }]
            [[area]]
            shape = "circle"
            centre = { x = 10.0, y = 10.0 }
            radius = 2.0
        "#;
        #[derive(Deserialize)]
        struct Doc {
            area: Vec<Area>,
        }
        let doc: Doc = toml::from_str(text).unwrap();
        assert!(doc.area[0].contains(p(1.0, 1.0)) && !doc.area[0].contains(p(3.0, 3.0)));
        assert!(doc.area[1].contains(p(11.0, 11.0)));
        assert!(close(
            doc.area[0].length_inside(p(-1.0, 1.0), p(5.0, 1.0)),
            3.0
        ));
        assert!(doc.area[0].segment_intersects(p(2.0, 2.0), p(5.0, 5.0)));
        assert!(close(doc.area[1].distance_to(p(10.0, 15.0)), 3.0));
    }
}
